"""Combat as a mechanism of the engine: the battle orders and decisions (CC-0..CC-7, H-1..H-7,
submarines SS-1..SS-3), the fold of battle events, Conduct Combat's
entry and end, and whom a battle waits for. The rules of battle are in ``rules.combat``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from rules import combat
from rules import events as ev
from rules import orders as od
from rules.decisions import Owed
from rules.errors import IllegalOrder
from rules.messages import Msg, catalogue, msg
from rules.state import BattleState, GameState
from rules.territory import leave_conduct_combat
from rules.turn import registry as reg
from rules.words import agree, possessive, rule_suffix, unit_list

if TYPE_CHECKING:
    from rules.turn.tx import Tx

CONDUCT = "conduct_combat"

reg.order(od.Battle, phases=(CONDUCT,))(combat.decide_attacker)
reg.order(od.Press, phases=(CONDUCT,), answers=Owed.PRESS_OR_RETREAT)(combat.decide_attacker)
reg.order(od.Retreat, phases=(CONDUCT,), answers=Owed.PRESS_OR_RETREAT)(combat.decide_attacker)
for _kind, _owed in ((od.Casualties, Owed.CASUALTIES), (od.Submerge, Owed.SUBMERGE_OR_STRIKE),
                     (od.Strike, Owed.SUBMERGE_OR_STRIKE)):
    # Decisions in a battle: owed by a party to it, in or out of its turn.
    reg.order(_kind, in_turn=False, answers=_owed)(combat.decide_decision)
reg.waits(combat.pending_decisions)


def _end_conduct_combat(tx: Tx, order: od.EndPhase) -> None:
    s = tx.state
    open_ = [b.space for b in s.battles.values() if b.step != "done"]
    if open_:
        raise IllegalOrder(msg("conduct.battles_remain", "CC-0", spaces=open_))
    leave_conduct_combat(tx)


_conduct = reg.phase(CONDUCT)
_conduct.auto_pass = True  # passed when no mechanism has work left in it (CC-0)
_conduct.enter.append(lambda tx, initial: combat.open_battles(tx, from_position=initial))
_conduct.busy.append(lambda s: any(b.step != "done" for b in s.battles.values()))
_conduct.end.append(_end_conduct_combat)
_conduct.leave.append(leave_conduct_combat)


@reg.evolver(ev.BattleOpened)
def _ev_battle_opened(s: GameState, e: ev.BattleOpened) -> GameState:
    b = BattleState(
        space=e.space,
        attacker=e.attacker,
        defenders=e.defenders,
        sea=e.sea,
        amphibious=e.amphibious,
        attacking=e.attacking,
        defending=e.defending,
        blocked_by=e.blocked_by,
        seaborne=e.seaborne,
        launched=e.launched,
        hostile_at_start=e.hostile_at_start,
        bombarding=e.bombarding,
    )
    battles = dict(s.battles)
    battles[e.space] = b
    units = dict(s.units)
    for uid in (*e.attacking, *e.defending):
        units[uid] = replace(units[uid], fought=True)
    return replace(s, battles=battles, units=units)


@reg.evolver(ev.SeaborneLanded)
def _ev_seaborne(s: GameState, e: ev.SeaborneLanded) -> GameState:
    units = dict(s.units)
    for uid in e.units:
        u = units[uid]
        # They offloaded in this Combat Move's assault: no Noncombat Move for them (NC-1).
        units[uid] = replace(u, space=e.space, carried_by=None, came_from=u.space, stopped=True,
                             combat_moved=True, fought=True)
        if u.carried_by is not None and u.carried_by in units:
            t = units[u.carried_by]
            units[t.id] = replace(t, offloaded=True, stopped=True)
    battles = dict(s.battles)
    b = battles.get(e.space)
    if b is not None:
        battles[e.space] = replace(b, seaborne=(*b.seaborne, *e.units))
    return replace(s, units=units, battles=battles)


@reg.evolver(ev.DiceRolled)
def _ev_dice(s: GameState, e: ev.DiceRolled) -> GameState:
    if e.stage == "overflight" or ev.stage_apart(e.stage) or e.space not in s.battles:
        return s  # outside any battle: overflight fire (R-AIR-05) or a mechanism's own dice
    b = s.battles[e.space]
    owed = dict(b.owed)
    target = "defender" if e.side == "attacker" else "attacker"
    if e.hits:
        owed[target] = owed.get(target, 0) + e.hits
    stage = e.side if e.stage == "fire" else f"{e.side}:{e.stage}"
    b = replace(b, round=e.round, owed=tuple(sorted(owed.items())), step="casualties",
                fired=(*b.fired, stage), owed_cats=e.categories)
    return replace(s, battles={**s.battles, e.space: b})


@reg.evolver(ev.BattleRoundStarted)
def _ev_round_started(s: GameState, e: ev.BattleRoundStarted) -> GameState:
    b = replace(s.battles[e.space], round=e.round, step="casualties", fired=(), striking=(),
                owed=(), pending_casualties=(), to_the_end=e.to_the_end)
    return replace(s, battles={**s.battles, e.space: b})


@reg.evolver(ev.SubmarinesDeclared)
def _ev_subs(s: GameState, e: ev.SubmarinesDeclared) -> GameState:
    b = s.battles[e.space]
    b = replace(b, submerged=(*b.submerged, *e.submerge), striking=(*b.striking, *e.strike),
                fired=(*b.fired, f"declare:{e.side}") if b.step != "ready" and b.step !=
                "press_or_retreat" else b.fired)
    return replace(s, battles={**s.battles, e.space: b})




@reg.evolver(ev.CasualtiesChosen)
def _ev_casualties(s: GameState, e: ev.CasualtiesChosen) -> GameState:
    b = s.battles[e.space]
    owed = dict(b.owed)
    owed.pop(e.side, None)
    pend = dict(b.pending_casualties)
    units = dict(s.units)
    for uid in e.lost:
        pend[uid] = 99
    for uid in e.damaged:
        units[uid] = replace(units[uid], damage=units[uid].damage + 1)
    b = replace(b, owed=tuple(sorted(owed.items())), pending_casualties=tuple(sorted(pend.items())))
    return replace(s, battles={**s.battles, e.space: b}, units=units)


@reg.evolver(ev.UnitsRemoved)
def _ev_removed(s: GameState, e: ev.UnitsRemoved) -> GameState:
    gone = set(e.ids)
    units = {uid: u for uid, u in s.units.items() if uid not in gone}
    for uid in e.stranded:
        units[uid] = replace(units[uid], carried_by=None, stranded=True)
    for uid in e.launched:
        units[uid] = replace(units[uid], carried_by=None)
    battles = {}
    for sp, b in s.battles.items():
        battles[sp] = replace(
            b,
            attacking=tuple(x for x in b.attacking if x not in gone),
            defending=tuple(x for x in b.defending if x not in gone),
            seaborne=tuple(x for x in b.seaborne if x not in gone),
            pending_casualties=tuple(p for p in b.pending_casualties if p[0] not in gone),
        )
    promises = tuple(p for p in s.carrier_promises if p[0] not in gone)
    return replace(s, units=units, battles=battles, carrier_promises=promises)


@reg.evolver(ev.BattleRoundEnded)
def _ev_round_ended(s: GameState, e: ev.BattleRoundEnded) -> GameState:
    b = replace(s.battles[e.space], step=e.next_step, owed=(), pending_casualties=(), fired=(),
                striking=())
    return replace(s, battles={**s.battles, e.space: b})


@reg.evolver(ev.BattlePressed)
def _ev_pressed(s: GameState, e: ev.BattlePressed) -> GameState:
    b = replace(s.battles[e.space], step="ready", fired=(), to_the_end=e.to_the_end)
    return replace(s, battles={**s.battles, e.space: b})


@reg.evolver(ev.BattleRetreated)
def _ev_retreated(s: GameState, e: ev.BattleRetreated) -> GameState:
    units = dict(s.units)
    moving = set(e.units)
    for uid in e.units:
        u = units[uid]
        if e.to is not None and s.edition.units[u.type].domain != "air":
            units[uid] = replace(u, space=e.to, retreated=True, stopped=True)
        elif e.to is not None and e.air_with:
            # aircraft fly to the retreat space (1 space) and land in Noncombat Move.
            units[uid] = replace(u, space=e.to, moved=u.moved + 1, came_from=e.space)
    # cargo goes with its transport
    if e.to is not None:
        for uid, u in s.units.items():
            if u.carried_by in moving:
                units[uid] = replace(units[uid], space=e.to)
    # Retreating units leave the battle (AA-7: seaborne units may stay and fight on).
    b = s.battles[e.space]
    b = replace(b, attacking=tuple(i for i in b.attacking if i not in moving))
    return replace(s, units=units, battles={**s.battles, e.space: b})


@reg.evolver(ev.BattleEnded)
def _ev_battle_ended(s: GameState, e: ev.BattleEnded) -> GameState:
    units = dict(s.units)
    for uid in e.repaired:
        if uid in units:
            units[uid] = replace(units[uid], damage=0)
    for fid, cid in e.landed:
        if fid in units:
            units[fid] = replace(units[fid], carried_by=cid)
    b = s.battles.get(e.space)
    for uid in e.offloaded:
        if uid in units and b is not None:
            u = units[uid]
            units[uid] = replace(u, space=e.space, carried_by=None, came_from=u.space, stopped=True)
            if u.carried_by in units:
                t = units[u.carried_by]
                units[t.id] = replace(t, offloaded=True, stopped=True)
    for uid in e.stranded:
        if uid in units:
            units[uid] = replace(units[uid], carried_by=None, stranded=True)
    battles = dict(s.battles)
    if b is not None:
        battles[e.space] = replace(b, step="done", owed=(), pending_casualties=())
    for sp, ob in battles.items():
        if ob.blocked_by == e.space:
            battles[sp] = replace(ob, blocked_by=None)
    return replace(s, units=units, battles=battles)


# --------------------------------------------------------------------------------------------
# Damage that persists: repairing two-hit ships outside battle (Europe 1940 GC-3, §16.3, PU-4)


class ShipsRepaired(ev.Event):
    """Damaged two-hit ships are repaired outside any battle: in an edition where a hit persists
    after the battle (``RuleSet.battleship_repair`` off: Europe 1940 GC-3, §16.3), in the owner's
    Purchase & Repair beside a friendly operational naval base (PU-4). A mechanism that knows
    when ships are repaired emits it with ``repair_ships(tx, ids, own_rule("PU-4"))``."""

    type: Literal["ShipsRepaired"] = "ShipsRepaired"
    ids: tuple[int, ...]
    rule: str = ""


def repair_ships(tx: Tx, ids: tuple[int, ...] | list[int], rule: str) -> None:
    """Repair these units (their hits taken in earlier battles are removed, §16.3); those not
    damaged are left out, and nothing is emitted when none is."""
    s = tx.state
    damaged = tuple(i for i in ids if i in s.units and s.units[i].damage)
    if damaged:
        tx.emit(ShipsRepaired(ids=damaged, rule=rule))


@reg.evolver(ShipsRepaired)
def _ev_repaired(s: GameState, e: ShipsRepaired) -> GameState:
    units = dict(s.units)
    for uid in e.ids:
        if uid in units:
            units[uid] = replace(units[uid], damage=0)
    return replace(s, units=units)


@reg.words(ShipsRepaired)
def _repaired(s: GameState, e: ShipsRepaired) -> Msg:
    ships = Counter(s.units[i].type for i in e.ids if i in s.units)
    where = sorted({s.units[i].space for i in e.ids if i in s.units})
    owners = sorted({s.units[i].owner for i in e.ids if i in s.units})
    return msg("conduct.repaired", e.rule, power=owners[0] if owners else "", units=dict(ships),
               spaces=where)


def _repaired_text(p: Mapping[str, Any]) -> str:
    verb = agree(sum(p["units"].values()), "is", "are")
    return (f"{possessive(p['power'])} {unit_list(p['units'])} in {' and '.join(p['spaces'])} "
            f"{verb} repaired{rule_suffix(p['rule'])}.")


catalogue("en", "conduct", {
    "repaired": _repaired_text,
    "battles_remain": "Battles remain in {spaces:join}. Fight them with 'battle <space>' (or "
                      "'battle <space> all') before ending Conduct Combat ({rule}).",
})
