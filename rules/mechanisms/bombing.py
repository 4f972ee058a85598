"""Strategic bombing raids (Classic R-SBR-01..05, R-BMB-03, A-16; digest §6.8).

In Combat Move bombers declare a raid on an enemy territory with an industrial complex
('move 1 bomber from United Kingdom to Germany raid'); they fight no battle there. In Conduct
Combat the attacker resolves each raid ('bomb Germany'), before any battle in that territory:
the antiaircraft gun there fires one die per raiding bomber (each 1 destroys one), each
surviving bomber rolls its attack dice (3 with Heavy Bombers) and the territory's owner pays
their sum to the bank; what its treasury cannot cover is a debt, settled out of its next income
(R-INC-03). Conduct Combat does not end while a raid is unresolved; the referee resolves an
absent attacker's raid.

Everything about raids is here: the order and the event, how players write them (``bomb`` and
the ``raid`` ending of ``move``), the checks of a declaration, the raid itself and its fold,
whom the game waits for and the referee's answer, the legal candidates, the words, the luck
report's count and the map's marker (``rules.turn.registry``, ``rules.turn.hooks``), and the
raids' own part of the state (``Raids``: the bombers declared, the raids resolved). Stored logs
keep a field of the declaration on two shared classes: ``Move.raid`` and ``UnitMove.raid``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules import board, territory
from rules import events as ev
from rules import orders as od
from rules.battle import model as bm
from rules.battle.forces import dice_per_unit
from rules.decisions import Owed, Pending
from rules.dice import Dice, roll_purpose
from rules.errors import IllegalOrder, InvalidOrder
from rules.language import orders as move_language
from rules.language.names import Names
from rules.language.registry import ORDERS, Arg, Board, Chosen, Hint, OrderSyntax
from rules.messages import Msg, catalogue, msg
from rules.position import within_turn
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import ipcs

if TYPE_CHECKING:
    from rules.turn.tx import Tx

CONDUCT = "conduct_combat"

# --------------------------------------------------------------------------------------------
# The order, the event, the wait and the dice


class Bomb(od.Order):
    """Resolve the strategic bombing raid on a territory (Classic R-SBR-01..05)."""

    kind: Literal["bomb"] = "bomb"
    space: str


class RaidResolved(ev.Event):
    """A strategic bombing raid is over (R-SBR-01..04): the bombers that raided, those the
    antiaircraft gun shot down, and the damage (the sum of the survivors' dice) the territory's
    owner must pay (``DamagePaid`` follows)."""

    type: Literal["RaidResolved"] = "RaidResolved"
    space: str
    attacker: str
    defender: str | None
    bombers: tuple[int, ...]
    lost: tuple[int, ...] = ()
    damage: int = 0
    note: str = ""


# The attacker owes 'bomb <space>' for each raid declared and not yet resolved.
BOMBING_RAID = Owed("bombing raid", verb="bomb")

# The antiaircraft gun's fire at the raiders (R-SBR-02: ``hits`` are bombers shot down) and the
# survivors' damage dice (R-SBR-03: ``hits`` is 0, the damage is their sum).
RAID_AA = ev.dice_stage("raid_aa")
RAID = ev.dice_stage("raid")


@dataclass(frozen=True, slots=True)
class Raids:
    """The raids' part of the state, reset each turn."""

    bombers: frozenset[int] = frozenset()  # ids of the bombers declared on a raid (R-SBR-01)
    resolved: frozenset[str] = frozenset()  # territories whose raid is over this turn


reg.part(Raids, key="raids", per_turn=True,
         position={"bombers": within_turn("bombers declared on a strategic bombing raid"),
                   "resolved": within_turn("bombing raids resolved this turn")},
         formerly={"bombers": "units.*.raid", "resolved": "marks.raided"})


def _strategic_bombing(s: GameState) -> bool:
    return s.edition.rules.rules.strategic_bombing


# --------------------------------------------------------------------------------------------
# How players write it: 'bomb <space>', and 'raid' at the end of a move


def _bomb(rest: str, names: Names, verb: str) -> Bomb:
    if not rest:
        raise BOMB.expected("bomb Germany")
    return Bomb(space=names.space(rest))


def _raid_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, Bomb) else None


def _bomb_example(b: Board) -> tuple[str, str]:
    return f"bomb {b.near}", f"/bomb space:{b.near}"


BOMB = ORDERS.register(OrderSyntax[od.Order](
    verb="bomb",
    usage="bomb <space>  (resolve a strategic bombing raid; also 'raid <space>')",
    read=_bomb,
    words=("bomb", "raid"),
    rank=120,
    topic="battles",
    makes=(Bomb,),
    needs=lambda r: r.strategic_bombing,  # Classic R-SBR
    example=_bomb_example,
    explain="""\
Conduct Combat, by the attacker: carries out the strategic bombing raid declared on that
territory in Combat Move (move bombers with 'raid'). The antiaircraft gun fires first, then each
surviving bomber rolls its damage, which the owner pays to the bank.""",
    args=(Arg("space", "space", offer=_raid_space, battles=True),),
    hints=(Hint("bomb", "/bomb", (r"(?P<space>.+)",)), Hint("raid", "/bomb", (r"(?P<space>.+)",))),
))

# A trailing raid declaration (R-SBR-01): "... to Germany raid", "... (bombing raid)".
move_language.move_ending(move_language.MoveEnding(
    pattern=re.compile(
        r"\s+\(?(?:(?:as\s+)?(?:a\s+)?(?:strategic\s+)?(?:bombing\s+)?raid|bomb(?:ing)?)\)?\s*$",
        re.I),
    sets={"raid": True},
    usage=" [raid]",
    advice=msg("bombing.advice"),
    explain=""" 'raid' at the end
sends bombers on a strategic bombing raid where the edition has them.""",
    hint=r"(?P<raid> raid)?",
))


# --------------------------------------------------------------------------------------------
# Declaring a raid (Combat Move)


def _check_declared(s: GameState, order: od.Move) -> None:
    """R-SBR-01: only bombers, only in Combat Move, only on an enemy territory with an
    industrial complex; the edition must have strategic bombing (RuleSet.strategic_bombing)."""
    if not order.raid:
        return
    ed = s.edition
    if not _strategic_bombing(s):
        raise IllegalOrder(msg("bombing.not_in_edition", edition=ed.rules.title))
    if s.phase != board.COMBAT:
        raise IllegalOrder(msg("bombing.combat_move_only", "R-SBR-01"))
    others = [n for n in order.units if not ed.units[n].abilities.strategic_bomber]
    if others:
        raise IllegalOrder(msg("bombing.only_bombers", "R-SBR-01", others=others))
    to = order.to
    if ed.is_sea(to) or not board.is_hostile_territory(s, to, order.power):
        raise IllegalOrder(msg("bombing.not_enemy", "R-SBR-01", space=to))
    if not _has_complex(s, to):
        raise IllegalOrder(msg("bombing.no_complex", "R-SBR-01", space=to))


def _has_complex(s: GameState, space: str) -> bool:
    return any(s.edition.units[u.type].abilities.factory for u in s.units_in(space))


def _mark(s: GameState, order: od.Move, move: ev.UnitMove) -> ev.UnitMove:
    """Each bomber's move records the raid (checked: only bombers, in Combat Move)."""
    return move.model_copy(update={"raid": True}) if order.raid else move


def _fold(s: GameState, e: ev.UnitsMoved) -> GameState:
    """A unit's combat move says whether it raids (a later combat move may undo it)."""
    if e.phase != board.COMBAT:
        return s
    raids = s.part(Raids)
    bombers = (raids.bombers - {m.id for m in e.moves}) | {m.id for m in e.moves if m.raid}
    return s if bombers == raids.bombers else s.with_part(replace(raids, bombers=bombers))


hooks.move_rule(hooks.MoveRule(check=_check_declared, mark=_mark, fold=_fold))


# --------------------------------------------------------------------------------------------
# The raids of the turn


def raiders(s: GameState) -> list[int]:
    """Ids of the bombers declared on a raid this turn and still on the board (R-SBR-01), in
    id order."""
    return sorted(i for i in s.part(Raids).bombers if i in s.units)


def targets_left(s: GameState) -> list[str]:
    """Territories where declared raiders stand and no raid was resolved this turn."""
    spaces = {s.units[i].space for i in raiders(s)}
    return sorted(spaces - s.part(Raids).resolved)


def open_raids(s: GameState) -> list[str]:
    """Territories the acting power's bombers raid this turn, not yet resolved (R-SBR-01)."""
    if not _strategic_bombing(s) or s.phase != CONDUCT:
        return []
    spaces = {s.units[i].space for i in raiders(s) if s.units[i].owner == s.power}
    return sorted(spaces - s.part(Raids).resolved)


# R-BMB-03 / A-16: bombers on a strategic bombing raid fight no battle there.
hooks.aside(raiders)


# --------------------------------------------------------------------------------------------
# The raid (Conduct Combat)


@reg.order(Bomb, phases=(CONDUCT,), answers=BOMBING_RAID)
def decide_raid(tx: Tx, order: Bomb, dice: Dice) -> None:
    """The antiaircraft gun fires one die per raiding bomber (each 1 destroys one, R-SBR-02);
    each survivor rolls its attack dice (R-SBR-03) and the territory's owner pays the sum to
    the bank, a shortfall becoming a debt (R-SBR-04/05)."""
    s = tx.state
    ed = s.edition
    if not _strategic_bombing(s):
        raise IllegalOrder(msg("bombing.no_raids"))
    if order.space not in ed.spaces:
        raise InvalidOrder(msg("bombing.unknown_space", space=order.space))
    waiting = open_raids(s)
    if order.space not in waiting:
        if order.space in s.part(Raids).resolved:
            raise IllegalOrder(msg("bombing.over", "R-SBR", space=order.space))
        raise IllegalOrder(msg("bombing.not_raiding", "R-SBR-01", power=order.power,
                               space=order.space, waiting=waiting))
    power = s.power
    declared = set(raiders(s))
    bombers = sorted((u for u in s.units_in(order.space) if u.owner == power and u.id in declared),
                     key=lambda u: u.id)
    owner = s.owners.get(order.space)
    if not _has_complex(s, order.space) or not s.enemy(owner, power):
        tx.emit(RaidResolved(space=order.space, attacker=power, defender=owner,
                             bombers=tuple(u.id for u in bombers),
                             note="no enemy industrial complex to bomb"))
        return
    guns = [u for u in s.units_in(order.space)
            if ed.units[u.type].abilities.anti_air and s.enemy(u.owner, power)]
    lost: tuple[int, ...] = ()
    if guns:
        gun = guns[0].type
        faces = tuple(dice.roll(len(bombers), roll_purpose(order.space, 1, f"defender:{RAID_AA}",
                                                           gun)))
        hits = min(sum(1 for f in faces if f <= bm.AA_HIT), len(bombers))
        tx.emit(ev.DiceRolled(space=order.space, round=1, side="defender",
                              purpose=f"{order.space} raid defender:{RAID_AA}",
                              groups=((gun, bm.AA_HIT, faces),), hits=hits, dice=dice.name,
                              stage=RAID_AA))
        lost = tuple(u.id for u in bombers[:hits])
        if lost:
            tx.emit(ev.UnitsRemoved(ids=lost, reason=f"shot down over {order.space}",
                                    rule="R-SBR-02"))
    survivors = [u for u in bombers if u.id not in lost]
    groups: dict[str, int] = {}
    for u in survivors:
        groups[u.type] = groups.get(u.type, 0) + dice_per_unit(s, u, "attacker")
    rolled: list[tuple[str, int, tuple[int, ...]]] = []
    for utype, n in sorted(groups.items()):
        rolled.append((utype, 0, tuple(dice.roll(n, roll_purpose(order.space, 1,
                                                                  f"attacker:{RAID}", utype)))))
    if rolled:
        tx.emit(ev.DiceRolled(space=order.space, round=1, side="attacker",
                              purpose=f"{order.space} raid attacker:{RAID}", groups=tuple(rolled),
                              hits=0, dice=dice.name, stage=RAID))
    damage = sum(f for _, _, faces in rolled for f in faces)
    tx.emit(RaidResolved(space=order.space, attacker=power, defender=owner,
                         bombers=tuple(u.id for u in bombers), lost=lost, damage=damage))
    if owner is not None:
        territory.charge_damage(tx, owner, damage, f"the bombing raid on {order.space}", "R-SBR-04")


@reg.evolver(RaidResolved)
def _ev_raid(s: GameState, e: RaidResolved) -> GameState:
    raids = s.part(Raids)
    return s.with_part(replace(raids, resolved=raids.resolved | {e.space}))


def _end_check(tx: Tx, order: od.EndPhase) -> None:
    raids = open_raids(tx.state)
    if raids:
        raise IllegalOrder(msg("bombing.raids_remain", "R-SBR-01", spaces=raids))


@hooks.before_fight
def _raid_first(s: GameState, space: str) -> None:
    if space in open_raids(s):
        raise IllegalOrder(msg("bombing.raid_first", "A-16", space=space))


_conduct = reg.phase(CONDUCT)
# Conduct Combat is not passed while a raid is unresolved, nor ended (R-SBR-01): checked before
# the battles left are (the end's first check).
_conduct.busy.append(lambda s: bool(open_raids(s)))
_conduct.end.insert(0, _end_check)


@reg.waits
def _waits(s: GameState) -> list[Pending]:
    return [Pending(s.power, BOMBING_RAID, x) for x in open_raids(s)]


@hooks.default(BOMBING_RAID)
def _resolve(s: GameState, p: Pending) -> od.Order:
    """An unresolved raid is resolved (R-SBR)."""
    return Bomb(power=p.power, space=p.space or "")


# --------------------------------------------------------------------------------------------
# Legal candidates


@reg.candidates(CONDUCT, first=True)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Each raid to resolve, before the battles (A-16)."""
    for space in open_raids(s):
        yield Bomb(power=power, space=space)


@hooks.variants(od.Move)
def _raid_variant(s: GameState, move: od.Move) -> Iterator[od.Order]:
    """A bomber's combat move to a territory with an industrial complex, as a raid."""
    ed = s.edition
    ((name, _),) = move.units.items()
    if (s.phase == board.COMBAT and _strategic_bombing(s) and ed.units[name].domain == "air"
            and ed.units[name].abilities.strategic_bomber and _has_complex(s, move.to)):
        yield od.Move(power=move.power, units=move.units, frm=move.frm, to=move.to,
                      via=move.via, raid=True)


# --------------------------------------------------------------------------------------------
# What the referee says: refusals (rules.messages), the lines that tell the events, the luck
# report, the map

catalogue("en", "bombing", {
    "not_in_edition": "{edition} has no strategic bombing raids: drop 'raid' and attack the "
                      "territory's units.",
    "combat_move_only": "A strategic bombing raid is declared in Combat Movement ({rule}); in "
                        "Non-combat Movement bombers only fly to land.",
    "only_bombers": "Only bombers make strategic bombing raids ({rule}), not {others:join}: move "
                    "the other units with an order of their own.",
    "not_enemy": "A raid targets an enemy territory with an industrial complex ({rule}); {space} "
                 "is not enemy territory.",
    "no_complex": "{space} has no industrial complex to bomb ({rule}): attack it without 'raid', "
                  "or raid a territory with a complex.",
    "no_raids": "There are no strategic bombing raids in this edition.",
    "unknown_space": "Unknown space {space!r}.",
    "over": "The bombing raid on {space} is over already ({rule}).",
    "not_raiding": "No bombers of {power} raid {space}: raids are declared in Combat Movement "
                   "({rule}). Raids to resolve: {waiting:join|none}.",
    "raids_remain": "Strategic bombing raids remain over {spaces:join}. Resolve each with 'bomb "
                    "<space>' before ending Combat ({rule}).",
    "raid_first": "Resolve the strategic bombing raid on {space} first, with 'bomb {space}'; the "
                  "battle there follows ({rule}).",
})



@hooks.stage_words(RAID_AA)
def _aa_words(s: GameState, e: ev.DiceRolled) -> Msg:
    return msg("bombing.aa_fire", "R-SBR-02", space=e.space, faces=_faces(e), hits=e.hits)


@hooks.stage_words(RAID)
def _damage_words(s: GameState, e: ev.DiceRolled) -> Msg:
    faces = _faces(e)
    return msg("bombing.damage_dice", "R-SBR-03", space=e.space, faces=faces, damage=sum(faces))


def _faces(e: ev.DiceRolled) -> list[int]:
    return [f for g in e.groups for f in g[2]]


@hooks.notes(ev.UnitsMoved)
def _declared_words(s: GameState, e: ev.UnitsMoved) -> list[Msg]:
    return [msg("bombing.declared", space=e.to)] if any(m.raid for m in e.moves) else []


@reg.words(RaidResolved)
def _resolved_words(s: GameState, e: RaidResolved) -> Msg:
    return msg("bombing.resolved", "R-SBR-03", space=e.space, attacker=e.attacker, note=e.note,
               lost=len(e.lost), bombers=len(e.bombers), defender=e.defender, damage=e.damage)


def _n_bombers(n: int) -> str:
    return "no bomber" if n == 0 else f"{n} bomber{'s' if n != 1 else ''}"


def _resolved_text(p: Mapping[str, Any]) -> str:
    line = f"Bombing raid on {p['space']} by {p['attacker']}"
    if p["note"]:
        return f"{line}: {p['note']}."
    if p["lost"]:
        line += f" ({p['lost']} of {p['bombers']} bombers shot down)"
    who = p["defender"] or "nobody"
    return f"{line}: {ipcs(p['damage'])} of damage for {who} ({p['rule']})."


catalogue("en", "bombing", {
    "aa_fire": lambda p: (f"Bombing raid on {p['space']}: the antiaircraft gun rolled "
                          f"{','.join(map(str, p['faces']))} → {_n_bombers(p['hits'])} shot "
                          f"down ({p['rule']})."),
    "damage_dice": "Bombing raid on {space}: the bombers rolled {faces:join:,} → {damage} damage "
                   "({rule}).",
    "declared": "strategic bombing raid on {space}",
    "advice": "'raid' after the target for a strategic bombing raid",
    "resolved": _resolved_text,
})


# The luck report: the gun's fire at the raiders is an engagement of its own, beside any battle
# in the territory; the damage dice are no hits (R-SBR-03 sums them).
hooks.apart(hooks.Apart(
    stage=RAID_AA, ended_by=RaidResolved,
    ended=lambda e: (e.space, e.attacker, (e.defender,) if e.defender else ()),
    result="raid", words="bombing raid",
))

# The map: a target where declared raiders wait for their raid.
hooks.marker(hooks.MapMarker(glyph="target", legend="bombing raid to fight", spaces=targets_left,
                             shown=lambda rules: rules.strategic_bombing))
