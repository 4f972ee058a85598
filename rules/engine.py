"""The rules API: ``new_game``, ``check``, ``decide``, ``evolve``, ``replay``, ``outcome``.

``decide(state, order, dice)`` checks an order and returns the events it causes (dice rolls
included). ``evolve(state, event)`` folds one event into a new state; it is unchecked and only
ever applied to events that ``decide`` produced. ``replay`` folds a whole log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from rules import events as ev
from rules import orders as od
from rules.decisions import Owed, Pending
from rules.dice import Dice
from rules.edition import Edition, load_edition
from rules.errors import IllegalOrder, InvalidOrder, NotYourTurn, RulesError, WrongPhase
from rules.state import BattleState, GameState, TurnMarks, Unit
from rules.words import possessive

# --------------------------------------------------------------------------------------------
# Transactions: decide-side helper that keeps the state current while events are emitted.


class Tx:
    """Collects events and keeps ``state`` equal to the fold of them."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


# --------------------------------------------------------------------------------------------
# Starting a game


def resolve_edition(name: str) -> Edition:
    from rules.edition import available_editions

    key = name.strip().lower()
    for eid in available_editions():
        ed = load_edition(eid)
        if key == eid or key in (a.lower() for a in ed.rules.aliases):
            return ed
    from rules.edition import edition_catalog

    known = "; ".join(f"{r.word} = {r.title}" for r in edition_catalog())
    raise InvalidOrder(f"Unknown edition {name!r}. Editions: {known}.")


def new_game(
    edition: str, options: Iterable[str] = (), position: dict[str, Any] | None = None
) -> list[ev.Event]:
    """Events that start a game: setup (or a position), first turn and phase."""
    ed = resolve_edition(edition)
    opts = tuple(sorted(set(options)))
    for o in opts:
        if o not in ed.rules.options:
            raise InvalidOrder(
                f"Unknown option {o!r} for {ed.rules.title}. Options: "
                + ", ".join(f"{k} ({v})" for k, v in ed.rules.options.items())
            )
    from rules import flow
    from rules import position as pos_

    derived: dict[str, Any] = {}
    if position is not None:
        position = pos_.canonical(ed, position)
        derived = {k: position.pop(k) for k in pos_.DERIVED_KEYS if k in position}
    tx = Tx(_empty_state(ed))
    tx.emit(ev.GameStarted(edition=ed.id, options=opts, position=position))
    st = tx.state
    tx.emit(ev.TurnStarted(round=st.round, power=st.power))
    bought = (position or {}).get("purchase") or {}
    if any(bought.values()):  # bought and paid for before the position (docs/positions.md)
        tx.emit(ev.UnitsPurchased(power=st.power, units={u: n for u, n in bought.items() if n},
                                  cost=0))
    phase = (position or {}).get("phase") or ed.phase_ids[0]
    flow.enter_phase(tx, str(phase), initial=True)
    if derived:
        pos_.check_derived(derived, state_json(tx.state))
    return tx.events


def _empty_state(ed: Edition) -> GameState:
    return GameState(
        edition=ed,
        options=frozenset(),
        round=1,
        power=ed.turn_order[0],
        phase=ed.phase_ids[0],
        treasury={p: 0 for p in ed.powers},
        owners={},
        units={},
        next_id=1,
    )


def _build_start(ed: Edition, e: ev.GameStarted) -> GameState:
    opts = frozenset(e.options)
    pos = e.position or {}
    owners: dict[str, str | None] = {
        s.name: (None if s.impassable else s.original_owner)
        for s in ed.map.spaces
        if s.kind == "land"
    }
    setup = ed.map.setup
    if "errata" in opts:
        setup = ed.map.setup_variants.get("errata", setup)
        owners.update(ed.map.owners_variants.get("errata", {}))
    owners.update(pos.get("owners") or {})
    table: dict[str, dict[str, dict[str, int]]] = {
        s: {p: dict(u) for p, u in bp.items()} for s, bp in setup.items()
    }
    if pos.get("clear_all_units"):
        # Industrial complexes are printed on the board (UL-4): clearing pieces keeps them.
        table = {
            s: {p: {u: n for u, n in us.items() if ed.units[u].abilities.factory}
                for p, us in bp.items()}
            for s, bp in table.items()
        }
    for space, by_power in (pos.get("units") or {}).items():
        given = {p: {u: n for u, n in us.items() if n > 0} for p, us in by_power.items()}
        if not any(ed.units[k].abilities.factory for us in by_power.values() for k in us):
            # A printed industrial complex stays unless the position names one (UL-4).
            for holder, kept in table.get(space, {}).items():
                for kind, n in kept.items():
                    if ed.units[kind].abilities.factory:
                        given.setdefault(holder, {})[kind] = n
        table[space] = given
    units: dict[int, Unit] = {}
    next_id = 1
    damaged = pos.get("damaged") or {}
    for space in damaged:
        if not any(damaged[space].values()) or space in table:
            continue
        raise InvalidOrder(f"Position damaged: no units in {space} to be damaged.")
    for space in sorted(table, key=lambda s: list(ed.spaces).index(s)):
        by_power = table[space]
        sea = ed.is_sea(space)
        placed: list[Unit] = []
        # Ships first, then their cargo (fighters on carriers, land units on transports).
        # Larger cargo first, so that "2 transports, 2 tanks, 2 infantry" fits (UT-7).
        order = sorted(
            ((p, u, n) for p, us in by_power.items() for u, n in us.items()),
            key=lambda x: (ed.units[x[1]].domain != ("sea" if sea else "land"),
                           -ed.units[x[1]].abilities.transport_cost, x[0], x[1]),
        )
        for p, utype, n in order:
            for _ in range(n):
                carried: int | None = None
                ut = ed.units[utype]
                if sea and ut.domain != "sea":
                    carried = _find_berth(ed, placed, p, utype, owners)
                u = Unit(id=next_id, type=utype, owner=p, space=space, carried_by=carried,
                         start=space)
                next_id += 1
                placed.append(u)
        for p, dmg in (damaged.get(space) or {}).items():
            for utype, n in dmg.items():
                cands = [u for u in placed if u.owner == p and u.type == utype and u.damage == 0]
                if len(cands) < n:
                    raise InvalidOrder(
                        f"Position damaged: {n} of {p}'s {utype} in {space}, but "
                        f"{len(cands)} {'is' if len(cands) == 1 else 'are'} there.")
                for u in cands[:n]:
                    placed[placed.index(u)] = replace(u, damage=1)
        for u in placed:
            units[u.id] = u
    # Industrial complexes belong to whoever controls their territory (UL-4).
    for uid, u in list(units.items()):
        if ed.units[u.type].abilities.factory:
            o = owners.get(u.space)
            if o is not None and o != u.owner:
                units[uid] = replace(u, owner=o)
    treasury = {p: ed.powers[p].starting_treasury for p in ed.powers}
    treasury.update(pos.get("treasury") or {})
    first = ed.turn_order[0]
    return GameState(
        edition=ed,
        options=opts,
        round=int(pos.get("round", 1)),
        power=str(pos.get("power", first)),
        phase=ed.phase_ids[0],
        treasury=treasury,
        owners=owners,
        units=units,
        next_id=next_id,
        turn_start_owners=dict(owners),
        # Classic O-3: developments some powers start with when the option is chosen; a
        # position's 'techs' gives each power named its complete list.
        techs={p: tuple(ts) for p, ts in {**ed.ruleset(opts).starting_techs,
                                          **(pos.get("techs") or {})}.items() if ts},
        debts={p: n for p, n in (pos.get("debts") or {}).items() if n},
        standing={p: tuple(ts) for p, ts in (pos.get("standing") or {}).items() if ts},
    )


def _find_berth(
    ed: Edition, placed: list[Unit], power: str, utype: str, owners: dict[str, str | None]
) -> int | None:
    ut = ed.units[utype]
    side = ed.powers[power].side
    for host in placed:
        ht = ed.units[host.type]
        if ed.powers[host.owner].side != side:
            continue
        if ut.domain == "air" and ut.abilities.carrier_landable and ht.abilities.carrier_capacity:
            aboard = sum(1 for x in placed if x.carried_by == host.id)
            if aboard < ht.abilities.carrier_capacity:
                return host.id
        if ut.domain == "land" and ht.abilities.transport_capacity:
            used = sum(ed.units[x.type].abilities.transport_cost for x in placed
                       if x.carried_by == host.id)
            if used + ut.abilities.transport_cost <= ht.abilities.transport_capacity:
                return host.id
    raise InvalidOrder(
        f"No room for {possessive(power)} {utype} at sea: it needs a friendly "
        f"{'aircraft carrier' if ut.domain == 'air' else 'transport'} there (UC-2/UT-7)."
    )


# --------------------------------------------------------------------------------------------
# evolve: the fold (unchecked)


def evolve(state: GameState, event: ev.Event) -> GameState:
    """Apply one event. Unchecked: only for events produced by ``decide`` or ``new_game``."""
    fn = _EVOLVERS[type(event)]
    new = fn(state, event)
    return replace(new, seq=state.seq + 1)


def _ev_started(s: GameState, e: ev.GameStarted) -> GameState:
    return _build_start(load_edition(e.edition), e)


def _ev_turn(s: GameState, e: ev.TurnStarted) -> GameState:
    units = {
        uid: replace(
            u,
            moved=0,
            combat_moved=False,
            stopped=False,
            fought=False,
            loaded=None,
            offloaded=False,
            assault=None,
            came_from=None,
            start=u.space,
            retreated=False,
            stranded=False,
            raid=False,
        )
        for uid, u in s.units.items()
    }
    return replace(
        s,
        round=e.round,
        power=e.power,
        units=units,
        turn_start_owners=dict(s.owners),
        captured_this_turn=frozenset(),
        placed={},
        purchase={},
        carrier_promises=(),
        battles={},
        marks=TurnMarks(),
    )


def _ev_phase(s: GameState, e: ev.PhaseChanged) -> GameState:
    units = s.units
    if e.phase in ("noncombat_move", "mobilize"):
        # A new movement phase: units that stopped in Combat Move stay stopped (NC-1) through
        # the "fought/combat_moved" flags; the per-phase stop flag resets.
        units = {uid: replace(u, stopped=False) if u.stopped else u for uid, u in s.units.items()}
    return replace(s, phase=e.phase, units=units)


def _ev_purchased(s: GameState, e: ev.UnitsPurchased) -> GameState:
    purchase = dict(s.purchase)
    for u, n in e.units.items():
        purchase[u] = purchase.get(u, 0) + n
    treasury = dict(s.treasury)
    treasury[e.power] -= e.cost
    return replace(s, purchase=purchase, treasury=treasury)


def _ev_cleared(s: GameState, e: ev.PurchaseCleared) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] += e.refund
    return replace(s, purchase={}, treasury=treasury)


def _ev_research(s: GameState, e: ev.ResearchRolled) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] -= e.cost
    return replace(s, treasury=treasury, marks=replace(s.marks, researched=True))


def _ev_tech(s: GameState, e: ev.TechnologyDeveloped) -> GameState:
    have = s.techs.get(e.power, ())
    if e.tech in have:
        return s
    return replace(s, techs={**s.techs, e.power: (*have, e.tech)})


def _ev_rocket(s: GameState, e: ev.RocketFired) -> GameState:
    return replace(s, marks=replace(s.marks, rocket_fired=True))


def _ev_lost(s: GameState, e: ev.PurchaseLost) -> GameState:
    purchase = dict(s.purchase)
    for u, n in e.units.items():
        purchase[u] = purchase.get(u, 0) - n
        if purchase[u] <= 0:
            del purchase[u]
    return replace(s, purchase=purchase)


def _ev_moved(s: GameState, e: ev.UnitsMoved) -> GameState:
    units = dict(s.units)
    combat = e.phase == "combat_move"
    for m in e.moves:
        u = units[m.id]
        units[m.id] = replace(
            u,
            space=m.path[-1],
            moved=u.moved + m.cost,
            combat_moved=u.combat_moved or (combat and m.cost > 0),
            stopped=u.stopped or m.stopped,
            carried_by=m.carried_by,
            loaded=s.phase if m.loaded else (None if m.offloaded else u.loaded),
            assault=m.assault if m.assault is not None else (None if m.offloaded else u.assault),
            came_from=m.path[-2] if len(m.path) > 1 else u.came_from,
            raid=m.raid if combat else u.raid,
            stranded=False,  # a fighter of a sunk carrier that moved has landed (NC-3, R-AIR-10)
        )
        if m.offloaded and u.carried_by is not None and u.carried_by in units:
            t = units[u.carried_by]
            units[t.id] = replace(t, offloaded=True, stopped=True)
    if e.phase == "noncombat_move" and any(len(m.path) > 1 for m in e.moves):
        # a bare 'end' then ends the phase freely (idle_end)
        return replace(s, units=units, marks=replace(s.marks, moved_noncombat=True))
    return replace(s, units=units)


def _ev_captured(s: GameState, e: ev.TerritoryCaptured) -> GameState:
    owners = dict(s.owners)
    owners[e.space] = e.owner
    treasury = dict(s.treasury)
    if e.seized and e.seized_from:
        treasury[e.seized_from] -= e.seized
        treasury[e.by] += e.seized
    units = dict(s.units)
    for uid, u in s.units.items():
        ab = s.edition.units[u.type].abilities
        # Complexes and antiaircraft guns change hands with their territory (UL-4, R-AAG-04).
        if u.space == e.space and (ab.factory or ab.anti_air) and u.carried_by is None:
            units[uid] = replace(u, owner=e.owner)
    return replace(
        s,
        owners=owners,
        treasury=treasury,
        units=units,
        captured_this_turn=s.captured_this_turn | {e.space},
    )


def _ev_neutral(s: GameState, e: ev.NeutralViolated) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] -= e.fee
    return replace(s, treasury=treasury)


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


def _ev_dice(s: GameState, e: ev.DiceRolled) -> GameState:
    if e.stage in ("overflight", "raid_aa", "raid") or e.space not in s.battles:
        return s  # outside any battle: overflight fire (R-AIR-05) or a bombing raid (R-SBR)
    b = s.battles[e.space]
    owed = dict(b.owed)
    target = "defender" if e.side == "attacker" else "attacker"
    if e.hits:
        owed[target] = owed.get(target, 0) + e.hits
    stage = e.side if e.stage == "fire" else f"{e.side}:{e.stage}"
    b = replace(b, round=e.round, owed=tuple(sorted(owed.items())), step="casualties",
                fired=(*b.fired, stage), owed_cats=e.categories)
    return replace(s, battles={**s.battles, e.space: b})


def _ev_round_started(s: GameState, e: ev.BattleRoundStarted) -> GameState:
    b = replace(s.battles[e.space], round=e.round, step="casualties", fired=(), striking=(),
                owed=(), pending_casualties=(), to_the_end=e.to_the_end)
    return replace(s, battles={**s.battles, e.space: b})


def _ev_subs(s: GameState, e: ev.SubmarinesDeclared) -> GameState:
    b = s.battles[e.space]
    b = replace(b, submerged=(*b.submerged, *e.submerge), striking=(*b.striking, *e.strike),
                fired=(*b.fired, f"declare:{e.side}") if b.step != "ready" and b.step !=
                "press_or_retreat" else b.fired)
    return replace(s, battles={**s.battles, e.space: b})


def _ev_withdrew(s: GameState, e: ev.SubmarinesWithdrew) -> GameState:
    units = dict(s.units)
    for uid in e.units:
        units[uid] = replace(units[uid], space=e.to, came_from=e.space, stopped=True)
    gone = set(e.units)
    b = s.battles[e.space]
    b = replace(b, attacking=tuple(i for i in b.attacking if i not in gone),
                defending=tuple(i for i in b.defending if i not in gone))
    return replace(s, units=units, battles={**s.battles, e.space: b})


def _ev_raid(s: GameState, e: ev.RaidResolved) -> GameState:
    return replace(s, marks=replace(s.marks, raided=s.marks.raided | {e.space}))


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


def _ev_round_ended(s: GameState, e: ev.BattleRoundEnded) -> GameState:
    b = replace(s.battles[e.space], step=e.next_step, owed=(), pending_casualties=(), fired=(),
                striking=())
    return replace(s, battles={**s.battles, e.space: b})


def _ev_pressed(s: GameState, e: ev.BattlePressed) -> GameState:
    b = replace(s.battles[e.space], step="ready", fired=(), to_the_end=e.to_the_end)
    return replace(s, battles={**s.battles, e.space: b})


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


def _ev_damage(s: GameState, e: ev.DamagePaid) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] = treasury.get(e.power, 0) - e.paid
    debts = dict(s.debts)
    if e.debt:
        debts[e.power] = debts.get(e.power, 0) + e.debt
    return replace(s, treasury=treasury, debts=debts)


def _ev_placed(s: GameState, e: ev.UnitsPlaced) -> GameState:
    units = dict(s.units)
    purchase = dict(s.purchase)
    placed = dict(s.placed)
    nid = s.next_id
    for uid, utype, carried in e.units:
        units[uid] = Unit(id=uid, type=utype, owner=e.power, space=e.space, carried_by=carried,
                          stopped=True, start=e.space)
        purchase[utype] -= 1
        if purchase[utype] == 0:
            del purchase[utype]
        placed[e.factory] = placed.get(e.factory, 0) + 1
        nid = max(nid, uid + 1)
    marks = s.marks
    if any(s.edition.units[t].abilities.factory for _, t, _c in e.units):
        # produces from the next turn (R-PLC-03)
        marks = replace(marks, new_factories=marks.new_factories | {e.space})
    return replace(s, units=units, purchase=purchase, placed=placed, next_id=nid, marks=marks)


def _ev_refunded(s: GameState, e: ev.PurchaseRefunded) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] += e.amount
    purchase = dict(s.purchase)
    for u, n in e.units.items():
        purchase[u] = purchase.get(u, 0) - n
        if purchase[u] <= 0:
            del purchase[u]
    return replace(s, treasury=treasury, purchase=purchase)


def _ev_income(s: GameState, e: ev.IncomeCollected) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] += e.amount - e.debt_paid
    debts = _add_debt(s.debts, e.power, -e.debt_paid)
    return replace(s, treasury=treasury, debts=debts)


def _add_debt(debts: dict[str, int], power: str, delta: int) -> dict[str, int]:
    if not delta:
        return debts
    out = dict(debts)
    out[power] = out.get(power, 0) + delta
    if out[power] <= 0:
        del out[power]
    return out


def _ev_won(s: GameState, e: ev.GameWon) -> GameState:
    return replace(s, winner=e.side)


def _ev_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, ended=e.result)


def _ev_standing(s: GameState, e: ev.StandingOrderSet) -> GameState:
    return replace(s, standing={**s.standing, e.power: e.order})


def _ev_dice_record(s: GameState, e: ev.Event) -> GameState:
    # Commitments, entropy and revealed seeds are for verifiers (rules.dice_audit reads them
    # from the log); they change nothing on the board.
    return s


def _ev_edit(s: GameState, e: ev.EditApplied) -> GameState:
    """A game-master edit (``rules.edits``): units, owners and money only."""
    units = dict(s.units)
    for uid in e.removed:
        units.pop(uid, None)
    for uid, space, carried in e.moved:
        u = units[uid]
        units[uid] = replace(u, space=space, carried_by=carried, came_from=u.space)
    nid = s.next_id
    for uid, utype, owner, space, carried in e.added:
        # Placed as if they had been there all turn: free to move on the owner's next turn.
        units[uid] = Unit(id=uid, type=utype, owner=owner, space=space, carried_by=carried,
                          start=space)
        nid = max(nid, uid + 1)
    for uid, owner in e.reowned:
        units[uid] = replace(units[uid], owner=owner)
    owners = {**s.owners, **dict(e.owners)}
    treasury = {**s.treasury, **dict(e.treasury)}
    gone = set(e.removed)
    promises = tuple(p for p in s.carrier_promises if p[0] not in gone)
    return replace(s, units=units, owners=owners, treasury=treasury, next_id=nid,
                   carrier_promises=promises)


_EVOLVERS: dict[type, Callable[[GameState, Any], GameState]] = {
    ev.GameStarted: _ev_started,
    ev.TurnStarted: _ev_turn,
    ev.PhaseChanged: _ev_phase,
    ev.UnitsPurchased: _ev_purchased,
    ev.PurchaseCleared: _ev_cleared,
    ev.ResearchRolled: _ev_research,
    ev.TechnologyDeveloped: _ev_tech,
    ev.RocketFired: _ev_rocket,
    ev.PurchaseLost: _ev_lost,
    ev.UnitsMoved: _ev_moved,
    ev.TerritoryCaptured: _ev_captured,
    ev.NeutralViolated: _ev_neutral,
    ev.BattleOpened: _ev_battle_opened,
    ev.SeaborneLanded: _ev_seaborne,
    ev.DiceRolled: _ev_dice,
    ev.BattleRoundStarted: _ev_round_started,
    ev.SubmarinesDeclared: _ev_subs,
    ev.SubmarinesWithdrew: _ev_withdrew,
    ev.RaidResolved: _ev_raid,
    ev.CasualtiesChosen: _ev_casualties,
    ev.UnitsRemoved: _ev_removed,
    ev.BattleRoundEnded: _ev_round_ended,
    ev.BattlePressed: _ev_pressed,
    ev.BattleRetreated: _ev_retreated,
    ev.BattleEnded: _ev_battle_ended,
    ev.DamagePaid: _ev_damage,
    ev.UnitsPlaced: _ev_placed,
    ev.PurchaseRefunded: _ev_refunded,
    ev.IncomeCollected: _ev_income,
    ev.GameWon: _ev_won,
    ev.StandingOrderSet: _ev_standing,
    ev.DiceCommitted: _ev_dice_record,
    ev.DiceEntropyFixed: _ev_dice_record,
    ev.DiceSeedRevealed: _ev_dice_record,
    # The side's concession changes nothing by itself; the GameWon after it ends the game.
    ev.SideConceded: _ev_dice_record,
    ev.GameEnded: _ev_ended,
    ev.EditApplied: _ev_edit,
}


def replay(events: Sequence[ev.Event]) -> GameState:
    """Fold a whole event log, starting with its ``GameStarted``."""
    if not events or not isinstance(events[0], ev.GameStarted):
        raise InvalidOrder("An event log must begin with GameStarted.")
    state = _empty_state(load_edition(events[0].edition))
    for e in events:
        state = evolve(state, e)
    return state


# --------------------------------------------------------------------------------------------
# check / decide


def pending(state: GameState) -> list[Pending]:
    """Who the game waits for now: battle decisions first, then the power whose turn it is."""
    from rules import combat

    if state.winner or state.ended:
        return []
    out = combat.pending_decisions(state)
    if not out:
        out.append(Pending(state.power, Owed.TURN, phase=state.phase))
    return out


def decide(state: GameState, order: od.Order, dice: Dice) -> list[ev.Event]:
    """Check ``order`` and return its events. Raises a RulesError and changes nothing if illegal.

    A refusal cites the rule IDs of the game's own rulebook (``Edition.cite``).
    """
    try:
        return _decide(state, order, dice)
    except RulesError as e:
        e.reason = state.edition.cite_text(e.reason)
        e.rule = state.edition.cite_text(e.rule) if e.rule else None
        e.args = (f"{e.reason} (rule {e.rule})" if e.rule else e.reason,)
        raise


def _decide(state: GameState, order: od.Order, dice: Dice) -> list[ev.Event]:
    from rules import combat, flow, movement

    if state.winner:
        raise IllegalOrder(f"The game is over: the {state.winner} won. No more orders.")
    if state.ended:
        raise IllegalOrder(f"The game is over ({state.ended}). No more orders.")
    if not order.power or order.power not in state.edition.powers:
        raise InvalidOrder(f"Unknown power {order.power!r}.")
    tx = Tx(state)
    match order:
        case od.StandingCasualties():
            _decide_standing(tx, order)
        case od.Casualties() | od.Submerge() | od.Strike() | od.Withdraw():
            combat.decide_decision(tx, order, dice)
        case _:
            if order.power != state.power:
                raise NotYourTurn(
                    f"It is {possessive(state.power)} turn ({phase_name(state)}); "
                    f"{order.power} cannot "
                    f"give that order now. Wait for your turn, or answer your own battle "
                    "questions with 'casualties' (T-1)."
                )
            match order:
                case od.Buy() | od.ClearPurchase():
                    _need_phase(state, "purchase", order)
                    flow.decide_purchase(tx, order)
                case od.Research():
                    flow.decide_research(tx, order, dice)
                case od.Rocket():
                    flow.decide_rocket(tx, order, dice)
                case od.Move():
                    if state.phase not in ("combat_move", "noncombat_move"):
                        raise WrongPhase(
                            f"Moves are made in Combat Move or Noncombat Move; it is "
                            f"{phase_name(state)} now (CM-1). Use 'end' to finish this phase."
                        )
                    movement.decide_move(tx, order, dice)
                case od.Battle() | od.Press() | od.Retreat():
                    _need_phase(state, "conduct_combat", order)
                    combat.decide_attacker(tx, order, dice)
                case od.Bomb():
                    _need_phase(state, "conduct_combat", order)
                    combat.decide_raid(tx, order, dice)
                case od.Place():
                    _need_phase(state, "mobilize", order)
                    flow.decide_place(tx, order)
                case od.EndPhase():
                    flow.decide_end(tx, order, dice)
                case _:
                    raise InvalidOrder(f"Unsupported order {order.kind!r}.")
    return tx.events


def check(state: GameState, order: od.Order, dice: Dice | None = None) -> None:
    """Raise the reason ``order`` is illegal now; return None if it would be accepted."""
    from rules.dice import HmacDice

    decide(state, order, dice or HmacDice(b"check"))


def _decide_standing(tx: Tx, order: od.StandingCasualties) -> None:
    ed = tx.state.edition
    unknown = [u for u in order.order if u not in ed.units]
    if unknown:
        raise InvalidOrder(f"Unknown {'unit' if len(unknown) == 1 else 'units'} in standing "
                           f"order: {', '.join(unknown)}.")
    if len(set(order.order)) != len(order.order):
        raise InvalidOrder("Name each unit type once in a standing casualty order.")
    tx.emit(ev.StandingOrderSet(power=order.power, order=tuple(order.order)))


def phase_name(state: GameState) -> str:
    return state.edition.phase_info[state.phase].name


def _need_phase(state: GameState, phase: str, order: od.Order) -> None:
    if state.phase != phase:
        want = state.edition.phase_info[phase].name
        raise WrongPhase(
            f"'{order.kind}' belongs to {want}; it is {phase_name(state)} now. "
            "Use 'end' to finish the current phase."
        )


def concession(state: GameState, side: str) -> list[ev.Event]:
    """``side`` gives up: it concedes, and the other side wins the game by concession."""
    sides = state.edition.rules.sides
    if side not in sides:
        raise InvalidOrder(f"Unknown side {side!r}; sides: {', '.join(sides)}.")
    if state.winner or state.ended:
        raise IllegalOrder("The game is over already.")
    others = [s for s in sides if s != side]
    powers = tuple(p for p in state.edition.turn_order if state.side(p) == side)
    return [
        ev.SideConceded(side=side, powers=powers),
        ev.GameWon(side=others[0], rule="concession", capitals=()),
    ]


def game_ended(state: GameState, result: str, powers: Sequence[str]) -> list[ev.Event]:
    """The game ends without a winner: ``draw`` or ``cancelled`` by the players' vote."""
    if result not in ("draw", "cancelled"):
        raise InvalidOrder(f"A game ends in a draw or is cancelled, not {result!r}.")
    if state.winner or state.ended:
        raise IllegalOrder("The game is over already.")
    return [ev.GameEnded(result=result, powers=tuple(powers))]  # type: ignore[arg-type]


def outcome(state: GameState) -> str | None:
    """The winning side, or None while the game goes on."""
    return state.winner


# --------------------------------------------------------------------------------------------
# The public state document (COMMANDS.md: `state` / `game status --json`)


def state_json(state: GameState) -> dict[str, Any]:
    """The state document of 'state' and exports: the keys of a position file
    (docs/positions.md), so that it loads back as one, plus income, battles and winner."""
    ed = state.edition
    units: dict[str, dict[str, dict[str, int]]] = {}
    damaged: dict[str, dict[str, dict[str, int]]] = {}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        for table in (units, damaged) if u.damage else (units,):
            pw = table.setdefault(u.space, {}).setdefault(u.owner, {})
            pw[u.type] = pw.get(u.type, 0) + 1
    space_order = {name: i for i, name in enumerate(ed.spaces)}
    powers = [p for p in ed.powers]
    return {
        "edition": ed.id,
        "options": sorted(state.options),
        "round": state.round,
        "power": state.power,
        "phase": state.phase,
        "treasury": dict(state.treasury),
        "income": state.income(),
        "owners": {t: state.owners[t] for t in sorted(state.owners, key=space_order.__getitem__)},
        "units": {s: units[s] for s in sorted(units, key=space_order.__getitem__)},
        "clear_all_units": True,
        "damaged": {s: damaged[s] for s in sorted(damaged, key=space_order.__getitem__)},
        "purchase": {u: n for u, n in state.purchase.items() if n},
        "techs": {p: list(state.techs[p]) for p in powers if state.techs.get(p)},
        "debts": {p: state.debts[p] for p in powers if state.debts.get(p)},
        "standing": {p: list(state.standing[p]) for p in powers if state.standing.get(p)},
        "battles": [s for s, b in state.battles.items() if b.step != "done"],
        "winner": state.winner,
    }


__all__ = [
    "Pending",
    "Tx",
    "check",
    "concession",
    "decide",
    "evolve",
    "game_ended",
    "new_game",
    "outcome",
    "pending",
    "replay",
    "state_json",
]
