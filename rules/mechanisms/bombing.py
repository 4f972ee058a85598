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

Where the edition raids facilities (``RuleSet.raid_damage`` "facilities", Europe 1940 §10.2)
the same declaration also sends tactical bombers against air and naval bases (BR-1) and fighters
as escorts ('move 2 fighters from A to B escort', BR-3: ``raid`` on a fighter's move means
escort); 'bomb <territory> <facility>: <bombers>; ...' assigns the surviving bombers to the
facilities there (BR-7); each facility's built-in air defense rolls one die per bomber
attacking it, hitting on 1, while AA guns hold fire (BR-8, FA-2, CM-11); each survivor rolls a
die plus its ``raid_bonus`` (BR-9) and the damage is put on the facility up to its cap (BR-10).
What comes between the declaration and the raid (the defender's interceptors, the air battle,
BR-4..BR-6) is ``rules.mechanisms.interception``'s, which tells this module through
``before_raid`` what is still owed in a territory before its raid.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from rules import board, territory
from rules import events as ev
from rules import orders as od
from rules.battle import model as bm
from rules.battle.casualties import casualty_rank
from rules.battle.forces import dice_per_unit
from rules.decisions import Owed, Pending
from rules.dice import Dice, roll_purpose
from rules.errors import IllegalOrder, InvalidOrder
from rules.facilities import add_damage, facility_damage
from rules.language import orders as move_language
from rules.language.names import Names
from rules.language.reading import lead_name
from rules.language.registry import ORDERS, Arg, Board, Chosen, Hint, OrderSyntax
from rules.language.units import parse_units
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import within_turn
from rules.state import GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import ipcs, plural, possessive, unit_list

if TYPE_CHECKING:
    from rules.turn.tx import Tx

CONDUCT = "conduct_combat"

# --------------------------------------------------------------------------------------------
# The order, the event, the wait and the dice


class Bomb(od.Order):
    """Resolve the strategic bombing raid on a territory (Classic R-SBR-01..05); where raids
    damage facilities, ``targets`` assigns the surviving bombers to them (facility type ->
    bombers, Europe 1940 BR-7; empty: where only one assignment is possible)."""

    kind: Literal["bomb"] = "bomb"
    space: str
    targets: dict[str, od.Units] = Field(default_factory=dict)


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
# Europe 1940: a facility's built-in air defense (BR-8: one group, the facility's type at 1,
# ``hits`` are bombers shot down), and the survivors' damage dice on it (BR-9: each group's
# value is the bonus added to each die, ``hits`` is 0).
RAID_DEFENSE = ev.dice_stage("raid_defense")
RAID_DAMAGE = ev.dice_stage("raid_damage")
DEFENSE_HIT = 1  # BR-8 / FA-2: each 1 removes one bomber


class FacilityBombed(ev.Event):
    """One facility's part of a raid (Europe 1940 BR-8, BR-9): the bombers assigned to it,
    those its air defense shot down and the damage the survivors rolled. The facilities put
    it on the facility, up to its cap (``rules.facilities.add_damage``, BR-10)."""

    type: Literal["FacilityBombed"] = "FacilityBombed"
    space: str
    facility: str  # its unit type
    owner: str
    attacker: str
    bombers: tuple[int, ...]
    lost: tuple[int, ...] = ()
    rolled: int = 0


@dataclass(frozen=True, slots=True)
class Raids:
    """The raids' part of the state, reset each turn."""

    bombers: frozenset[int] = frozenset()  # ids of the bombers declared on a raid (R-SBR-01)
    resolved: frozenset[str] = frozenset()  # territories whose raid is over this turn
    escorts: frozenset[int] = frozenset()  # ids of the fighters escorting a raid (BR-3)


reg.part(Raids, key="raids", per_turn=True,
         position={"bombers": within_turn("bombers declared on a strategic bombing raid"),
                   "resolved": within_turn("bombing raids resolved this turn"),
                   "escorts": within_turn("fighters escorting a bombing raid")},
         formerly={"bombers": "units.*.raid", "resolved": "marks.raided"})


def _strategic_bombing(s: GameState) -> bool:
    return s.edition.rules.rules.strategic_bombing


def on_facilities(s: GameState) -> bool:
    """Raids damage the facility bombed (Europe 1940 BR-8..BR-10), not the owner's treasury."""
    return s.edition.rules.rules.raid_damage == "facilities"


def is_raider(s: GameState, utype: str) -> bool:
    """A bomber that may raid: strategic (R-SBR-01, BR-1) or tactical (BR-1)."""
    ab = s.edition.units[utype].abilities
    return ab.strategic_bomber or ab.tactical_bomber


def is_escort(s: GameState, utype: str) -> bool:
    """A unit that escorts raids (BR-3: fighters) and is no bomber itself."""
    return s.edition.units[utype].abilities.escort_interceptor and not is_raider(s, utype)


def _has_escorts(s: GameState) -> bool:
    return any(u.abilities.escort_interceptor for u in s.edition.rules.units)


def _target_rank(s: GameState, ftype: str) -> tuple[int, str]:
    """Complexes first, then air bases, then naval bases (the referee's assignment)."""
    ab = s.edition.units[ftype].abilities
    return (0 if ab.factory else 1 if ab.air_base else 2, ftype)


def targets_for(s: GameState, space: str, power: str, utype: str) -> list[str]:
    """The facility types in ``space`` that a bomber of ``utype`` of ``power`` may attack
    (BR-1, BR-7): enemy facilities that take damage; a tactical bomber's only air and naval
    bases, never an industrial complex."""
    ed = s.edition
    ab = ed.units[utype].abilities
    out: set[str] = set()
    for u in s.units_in(space):
        fa = ed.units[u.type].abilities
        if not fa.facility or fa.max_damage <= 0 or not s.enemy(u.owner, power):
            continue
        if ab.strategic_bomber or (ab.tactical_bomber and (fa.air_base or fa.naval_base)):
            out.add(u.type)
    return sorted(out, key=lambda f: _target_rank(s, f))


# --------------------------------------------------------------------------------------------
# How players write it: 'bomb <space>', and 'raid' at the end of a move


_ASSIGN_EXAMPLE = "bomb Germany major industrial complex: 2 strategic bombers; air base: 1 " \
                  "tactical bomber"


def _bomb(rest: str, names: Names, verb: str) -> Bomb:
    if not rest:
        raise BOMB.expected("bomb Germany")
    if ":" not in rest:
        return Bomb(space=names.space(rest))
    # BR-7: '<territory> <facility>: <bombers>; <facility>: <bombers>'
    parts = [p.strip() for p in rest.split(";") if p.strip()]
    head, _, first = parts[0].partition(":")
    lead = lead_name(head, names.table("space"))
    if lead is None or not lead[1] or not first.strip():
        raise BOMB.expected(_ASSIGN_EXAMPLE)
    space, facility = lead
    targets: dict[str, od.Units] = {}
    for fac_text, units_text in [(facility, first),
                                 *(p.partition(":")[::2] for p in parts[1:])]:
        if not fac_text.strip() or not units_text.strip():
            raise BOMB.expected(_ASSIGN_EXAMPLE)
        group = targets.setdefault(names.unit(fac_text), {})
        for utype, n in parse_units(units_text, names).items():
            group[utype] = group.get(utype, 0) + n
    return Bomb(space=space, targets=targets)


def _raid_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, Bomb) else None


def _bomb_example(b: Board) -> tuple[str, str]:
    return f"bomb {b.near}", f"/bomb space:{b.near}"


BOMB = ORDERS.register(OrderSyntax[od.Order](
    verb="bomb",
    usage="bomb <space> [<facility>: <bombers>; ...]  (resolve a bombing raid; also 'raid "
          "<space>')",
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
surviving bomber rolls its damage, which the owner pays to the bank. Where raids damage
facilities, name which facility each bomber attacks after the territory (for example
'bomb Germany major industrial complex: 2 strategic bombers; air base: 1 tactical bomber';
needed only where there is a choice; tactical bombers never attack a complex): each
facility's air defense rolls one die per bomber attacking it, hitting on 1, then each
survivor rolls a die (strategic bombers +2) and the facility takes that damage up to its
cap.""",
    args=(Arg("space", "space", offer=_raid_space, battles=True),),
    hints=(Hint("bomb", "/bomb", (r"(?P<space>.+?)(?: (?P<targets>[^:]+:.+))?",)),
           Hint("raid", "/bomb", (r"(?P<space>.+)",))),
    write=lambda o: f"bomb {o.space}" + (f" {assignment_text(o.targets)}" if o.targets else ""),
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

# Fighters escorting a raid (Europe 1940 BR-3): "... to Germany escort", "... (as escorts)".
move_language.move_ending(move_language.MoveEnding(
    pattern=re.compile(r"\s+\(?(?:as\s+)?(?:an?\s+)?escorts?\)?\s*$", re.I),
    sets={"escort": True},
    usage=" [escort]",
    advice=msg("bombing.escort_advice"),
    explain=""" 'escort' sends
fighters with the bombers of a raid, where the edition has escorts.""",
    hint=r"(?P<escort> escort)?",
))


# --------------------------------------------------------------------------------------------
# Declaring a raid (Combat Move)


def _check_declared(s: GameState, order: od.Move) -> None:
    """R-SBR-01: only bombers, only in Combat Move, only on an enemy territory with an
    industrial complex; the edition must have strategic bombing (RuleSet.strategic_bombing).
    Where raids damage facilities: strategic bombers raid any enemy facility, tactical bombers
    only air and naval bases (BR-1), and fighters escort the bombers of a raid (BR-3)."""
    if not order.raid and not order.escort:
        return
    ed = s.edition
    if not _strategic_bombing(s):
        raise IllegalOrder(msg("bombing.not_in_edition", edition=ed.rules.title))
    if order.escort and not _has_escorts(s):
        raise IllegalOrder(msg("bombing.no_escorts", edition=ed.rules.title))
    if order.raid and order.escort:
        raise IllegalOrder(msg("bombing.raid_or_escort", own_rule("BR-1, BR-3")))
    if s.phase != board.COMBAT:
        raise IllegalOrder(msg("bombing.combat_move_only", _cite(s, "R-SBR-01", own_rule("BR-2"))))
    if order.escort:
        others = [n for n in order.units if not is_escort(s, n)]
        if others:
            raise IllegalOrder(msg("bombing.only_fighters", own_rule("BR-3"), others=others))
    elif not on_facilities(s):
        others = [n for n in order.units if not ed.units[n].abilities.strategic_bomber]
        if others:
            raise IllegalOrder(msg("bombing.only_bombers", "R-SBR-01", others=others))
    else:
        others = [n for n in order.units if not is_raider(s, n)]
        if others:
            raise IllegalOrder(msg("bombing.only_raiders", own_rule("BR-1"), others=others,
                                   escorts=_has_escorts(s)))
    to = order.to
    if ed.is_sea(to) or not board.is_hostile_territory(s, to, order.power):
        if on_facilities(s):
            raise IllegalOrder(msg("bombing.not_enemy_territory", own_rule("BR-1"), space=to))
        raise IllegalOrder(msg("bombing.not_enemy", "R-SBR-01", space=to))
    if order.escort:
        if not any(s.units[i].space == to and s.units[i].owner == order.power
                   for i in raiders(s)):
            raise IllegalOrder(msg("bombing.escort_alone", own_rule("BR-3"), space=to,
                                   power=order.power))
        return
    if not on_facilities(s):
        if not _has_complex(s, to):
            raise IllegalOrder(msg("bombing.no_complex", "R-SBR-01", space=to))
        return
    for n in order.units:
        if not targets_for(s, to, order.power, n):
            tactical = not ed.units[n].abilities.strategic_bomber
            raise IllegalOrder(msg("bombing.no_target", own_rule("BR-1"), space=to, unit=n,
                                   tactical=tactical))


def _has_complex(s: GameState, space: str) -> bool:
    return any(s.edition.units[u.type].abilities.factory for u in s.units_in(space))


def _mark(s: GameState, order: od.Move, move: ev.UnitMove) -> ev.UnitMove:
    """Each bomber's move records the raid, each escort's too (checked: only bombers, or only
    fighters escorting, in Combat Move)."""
    return move.model_copy(update={"raid": True}) if order.raid or order.escort else move


def _fold(s: GameState, e: ev.UnitsMoved) -> GameState:
    """A unit's combat move says whether it raids, or escorts a raid (a later combat move may
    undo it)."""
    if e.phase != board.COMBAT:
        return s
    raids = s.part(Raids)
    moved = {m.id for m in e.moves}
    flagged = {m.id for m in e.moves if m.raid}
    escorting = {i for i in flagged if is_escort(s, s.units[i].type)}
    bombers = (raids.bombers - moved) | (flagged - escorting)
    fighters = (raids.escorts - moved) | escorting
    if bombers == raids.bombers and fighters == raids.escorts:
        return s
    return s.with_part(replace(raids, bombers=bombers, escorts=fighters))


hooks.move_rule(hooks.MoveRule(check=_check_declared, mark=_mark, fold=_fold))


def _escorts_escort(tx: Tx, order: od.EndPhase) -> None:
    """BR-3: Combat Move does not end with escorts over a territory no bombers of theirs raid
    (the bombers moved elsewhere after them)."""
    s = tx.state
    raided = {s.units[i].space for i in raiders(s) if s.units[i].owner == s.power}
    alone = sorted({s.units[i].space for i in escorts(s) if s.units[i].owner == s.power}
                   - raided)
    if alone:
        raise IllegalOrder(msg("bombing.escorts_alone", own_rule("BR-3"), spaces=alone))


reg.phase(board.COMBAT).end.append(_escorts_escort)


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


def escorts(s: GameState, space: str | None = None) -> list[int]:
    """Ids of the fighters escorting a raid this turn and still on the board (BR-3), in id
    order; only those in ``space`` when given."""
    return sorted(i for i in s.part(Raids).escorts
                  if i in s.units and (space is None or s.units[i].space == space))


def bombers_in(s: GameState, space: str) -> list[Unit]:
    """The acting power's bombers declared on the raid on ``space``, still on the board."""
    return [s.units[i] for i in raiders(s)
            if s.units[i].space == space and s.units[i].owner == s.power]


# R-BMB-03 / A-16: bombers on a strategic bombing raid fight no battle there; BR-3: nor do
# their escorts, whether or not the defender intercepts.
hooks.aside(raiders)
hooks.aside(escorts)


# What must come before the raid on a territory (Europe 1940: the defender's interceptors and
# the air battle, rules.mechanisms.interception): ``fn(state, space)`` is the refusal of 'bomb'
# there now, or None. Nobody is asked for the raid while one is owed.
BeforeRaid = Callable[[GameState, str], Msg | None]
_BEFORE_RAID: list[BeforeRaid] = []


def before_raid(fn: BeforeRaid) -> BeforeRaid:
    _BEFORE_RAID.append(fn)
    return fn


def raid_waits_for(s: GameState, space: str) -> Msg | None:
    """Why the raid on ``space`` cannot be flown yet, or None."""
    for fn in _BEFORE_RAID:
        m = fn(s, space)
        if m is not None:
            return m
    return None


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
    if on_facilities(s):
        _facility_raid(tx, order, dice)
        return
    if order.targets:
        raise IllegalOrder(msg("bombing.no_assignment", "R-SBR-03", space=order.space))
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


def _facility_raid(tx: Tx, order: Bomb, dice: Dice) -> None:
    """Europe 1940 BR-7..BR-10: the surviving bombers, assigned to the facilities there; each
    facility's air defense fires one die per bomber attacking it (a 1 shoots one down, the
    attacker's standing casualty order, else the cheapest, first); each survivor rolls one die
    (its best, with more than one) plus its ``raid_bonus``; the facility takes the damage its
    cap leaves room for."""
    s = tx.state
    ed = s.edition
    space = order.space
    why = raid_waits_for(s, space)
    if why is not None:
        raise IllegalOrder(why)
    power = s.power
    bombers = bombers_in(s, space)
    owner = s.owners.get(space)
    if not bombers:
        raid_over(tx, space, "no bomber is left to bomb")
        return
    if not any(targets_for(s, space, power, u.type) for u in bombers):
        # BR-1: the target was taken before the raid (an attack on the territory without a
        # battle), and with it its facilities: nothing of an enemy's is left to bomb.
        raid_over(tx, space, f"{space} was taken before the raid, no enemy facility is left to "
                             "bomb")
        return
    groups = assignment(s, space, bombers, order.targets)
    standing = s.standing.get(power, ())
    lost_all: list[int] = []
    total = 0
    for ftype, group in groups.items():
        fac = next(u for u in s.units_in(space) if u.type == ftype and s.enemy(u.owner, power))
        group = sorted(group, key=lambda u: (casualty_rank(ed.units[u.type], standing), u.id))
        faces = tuple(dice.roll(len(group), roll_purpose(space, 1, f"defender:{RAID_DEFENSE}",
                                                         ftype)))
        hits = min(sum(1 for f in faces if f <= DEFENSE_HIT), len(group))
        tx.emit(ev.DiceRolled(space=space, round=1, side="defender",
                              purpose=f"{space} raid defender:{RAID_DEFENSE}",
                              groups=((ftype, DEFENSE_HIT, faces),), hits=hits, dice=dice.name,
                              stage=RAID_DEFENSE))
        lost = tuple(u.id for u in group[:hits])
        if lost:
            tx.emit(ev.UnitsRemoved(ids=lost, reason=f"shot down by the {ftype} in {space}",
                                    rule=own_rule("BR-8")))
        survivors = group[hits:]
        by_type: dict[str, list[Unit]] = {}
        for u in survivors:
            by_type.setdefault(u.type, []).append(u)
        rolled: list[tuple[str, int, tuple[int, ...]]] = []
        damage = 0
        for utype, units in sorted(by_type.items()):
            per = [dice_per_unit(s, u, "attacker") for u in units]
            got = tuple(dice.roll(sum(per), roll_purpose(space, 1, f"attacker:{RAID_DAMAGE}",
                                                         utype)))
            bonus = ed.units[utype].abilities.raid_bonus
            rolled.append((utype, bonus, got))
            at = 0
            for n in per:  # more dice than one (Heavy Bombers, BR-9): the best counts
                damage += max(got[at:at + n]) + bonus
                at += n
        if rolled:
            tx.emit(ev.DiceRolled(space=space, round=1, side="attacker",
                                  purpose=f"{space} raid attacker:{RAID_DAMAGE}",
                                  groups=tuple(rolled), hits=0, dice=dice.name,
                                  stage=RAID_DAMAGE))
        tx.emit(FacilityBombed(space=space, facility=ftype, owner=fac.owner, attacker=power,
                               bombers=tuple(u.id for u in group), lost=lost, rolled=damage))
        lost_all.extend(lost)
        total += add_damage(tx, space, ftype, damage, own_rule("BR-10"))
    tx.emit(RaidResolved(space=space, attacker=power, defender=owner,
                         bombers=tuple(u.id for u in bombers), lost=tuple(lost_all),
                         damage=total))


def assignment(s: GameState, space: str, bombers: list[Unit],
               targets: Mapping[str, od.Units]) -> dict[str, list[Unit]]:
    """The bombers of a raid on ``space`` by facility attacked (BR-7): as ``targets`` says
    (every surviving bomber, each on a facility it may attack), or, when it says nothing, the
    only assignment there is (refused where there is a choice)."""
    ed = s.edition
    power = s.power
    have: dict[str, list[Unit]] = {}
    for u in sorted(bombers, key=lambda u: (list(ed.units).index(u.type), u.id)):
        have.setdefault(u.type, []).append(u)
    facilities = sorted({f for u in bombers for f in targets_for(s, space, power, u.type)}
                        | {u.type for u in s.units_in(space) if ed.units[u.type].abilities.facility
                           and ed.units[u.type].abilities.max_damage > 0
                           and s.enemy(u.owner, power)},
                        key=lambda f: _target_rank(s, f))
    counts = {t: len(us) for t, us in have.items()}
    if not targets:
        choices = {t: targets_for(s, space, power, t) for t in have}
        if any(len(c) > 1 for c in choices.values()):
            raise IllegalOrder(msg("bombing.assign", own_rule("BR-7"), space=space, bombers=counts,
                                   facilities=facilities,
                                   example=assignment_text(default_assignment(s, space))))
        out: dict[str, list[Unit]] = {}
        for t, us in have.items():
            if not choices[t]:  # its target is gone (captured, or no longer an enemy's)
                raise IllegalOrder(msg("bombing.no_target", own_rule("BR-1"), space=space, unit=t,
                                       tactical=not ed.units[t].abilities.strategic_bomber))
            out.setdefault(choices[t][0], []).extend(us)
        return dict(sorted(out.items(), key=lambda kv: _target_rank(s, kv[0])))
    named: dict[str, int] = {}
    for ftype, units in targets.items():
        if ftype not in facilities:
            raise IllegalOrder(msg("bombing.not_a_target", own_rule("BR-1"), space=space,
                                   facility=ftype, facilities=facilities))
        for utype, n in units.items():
            if utype not in have:
                raise IllegalOrder(msg("bombing.not_raiding_unit", own_rule("BR-7"), space=space,
                                       unit=utype, bombers=counts))
            if ftype not in targets_for(s, space, power, utype):
                raise IllegalOrder(msg("bombing.tactical_on_complex", own_rule("BR-1, BR-7"),
                                       facility=ftype, unit=utype))
            named[utype] = named.get(utype, 0) + n
    if named != counts:
        raise IllegalOrder(msg("bombing.assign_all", own_rule("BR-7"), space=space, bombers=counts,
                               named=named))
    out = {}
    left = {t: list(us) for t, us in have.items()}
    for ftype in sorted(targets, key=lambda f: _target_rank(s, f)):
        for utype, n in targets[ftype].items():
            out.setdefault(ftype, []).extend(left[utype][:n])
            left[utype] = left[utype][n:]
    return {f: us for f, us in out.items() if us}


def assignment_text(targets: Mapping[str, od.Units]) -> str:
    """An assignment as 'bomb' reads it: 'air base: 1 tactical bomber; naval base: ...'."""
    return "; ".join(f"{f}: {unit_list(units)}" for f, units in targets.items())


def default_assignment(s: GameState, space: str) -> dict[str, od.Units]:
    """The referee's assignment of a raid (best reading): every bomber on the first target it
    may attack that can still take damage, a complex before an air base before a naval base;
    if all are at their cap, the first."""
    out: dict[str, od.Units] = {}
    order = list(s.edition.units)
    for u in sorted(bombers_in(s, space), key=lambda u: (order.index(u.type), u.id)):
        choices = targets_for(s, space, s.power, u.type)
        if not choices:
            continue
        room = [f for f in choices
                if facility_damage(s, space, f) < s.edition.units[f].abilities.max_damage]
        f = (room or choices)[0]
        out.setdefault(f, {})
        out[f][u.type] = out[f].get(u.type, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: _target_rank(s, kv[0])))


def raid_over(tx: Tx, space: str, note: str) -> None:
    """The raid on ``space`` ends without bombing (every bomber lost before it)."""
    s = tx.state
    tx.emit(RaidResolved(space=space, attacker=s.power, defender=s.owners.get(space),
                         bombers=tuple(u.id for u in bombers_in(s, space)), note=note))


@reg.evolver(FacilityBombed)
def _ev_facility_bombed(s: GameState, e: FacilityBombed) -> GameState:
    return s  # a record of the raid: the damage is the facilities' (FacilityDamaged)


@reg.evolver(RaidResolved)
def _ev_raid(s: GameState, e: RaidResolved) -> GameState:
    raids = s.part(Raids)
    return s.with_part(replace(raids, resolved=raids.resolved | {e.space}))


def _end_check(tx: Tx, order: od.EndPhase) -> None:
    raids = open_raids(tx.state)
    if raids:
        raise IllegalOrder(msg("bombing.raids_remain",
                               _cite(tx.state, "R-SBR-01", own_rule("CC-1")), spaces=raids))


def _cite(s: GameState, classic: str, facilities: str) -> str:
    """The rule a shared refusal cites: Classic's, or Europe 1940's where raids damage
    facilities (each digest numbers its own)."""
    return facilities if on_facilities(s) else classic


@hooks.before_fight
def _raid_first(s: GameState, space: str) -> None:
    if space in open_raids(s):
        raise IllegalOrder(msg("bombing.raid_first", _cite(s, "A-16", own_rule("CC-1")),
                               space=space))
    raids = open_raids(s) if s.edition.rules.rules.raids_first else []
    if raids:  # CC-1: every raid before any battle
        raise IllegalOrder(msg("bombing.raids_first", own_rule("CC-1"), spaces=raids))


_conduct = reg.phase(CONDUCT)
# Conduct Combat is not passed while a raid is unresolved, nor ended (R-SBR-01): checked before
# the battles left are (the end's first check).
_conduct.busy.append(lambda s: bool(open_raids(s)))
_conduct.end.insert(0, _end_check)


@reg.waits
def _waits(s: GameState) -> list[Pending]:
    return [Pending(s.power, BOMBING_RAID, x) for x in open_raids(s)
            if raid_waits_for(s, x) is None]


@hooks.default(BOMBING_RAID)
def _resolve(s: GameState, p: Pending) -> od.Order:
    """An unresolved raid is resolved (R-SBR), each bomber on the first target it may attack
    (``default_assignment``, best reading) where raids damage facilities."""
    space = p.space or ""
    if on_facilities(s):
        return Bomb(power=p.power, space=space, targets=default_assignment(s, space))
    return Bomb(power=p.power, space=space)


# --------------------------------------------------------------------------------------------
# Legal candidates


@reg.candidates(CONDUCT, first=True)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Each raid to resolve, before the battles (A-16); where raids damage facilities, with
    the referee's assignment and with every bomber on each facility in turn (BR-7)."""
    for space in open_raids(s):
        if not on_facilities(s):
            yield Bomb(power=power, space=space)
            continue
        if raid_waits_for(s, space) is not None:
            continue
        yield Bomb(power=power, space=space)
        chosen = default_assignment(s, space)
        yield Bomb(power=power, space=space, targets=chosen)
        bombers: od.Units = {}
        for u in bombers_in(s, space):
            bombers[u.type] = bombers.get(u.type, 0) + 1
        for f in sorted({f for t in bombers for f in targets_for(s, space, power, t)}):
            alone = {f: dict(bombers)}
            if alone != chosen:
                yield Bomb(power=power, space=space, targets=alone)


@hooks.variants(od.Move)
def _raid_variant(s: GameState, move: od.Move) -> Iterator[od.Order]:
    """A bomber's combat move to a territory with an industrial complex, as a raid; where raids
    damage facilities, a bomber's to one with a facility it may attack, and a fighter's to a
    territory its power's bombers raid, as their escort (BR-1, BR-3)."""
    ed = s.edition
    ((name, _),) = move.units.items()
    if s.phase != board.COMBAT or not _strategic_bombing(s) or ed.units[name].domain != "air":
        return
    as_raid = od.Move(power=move.power, units=move.units, frm=move.frm, to=move.to,
                      via=move.via, raid=True)
    if not on_facilities(s):
        if ed.units[name].abilities.strategic_bomber and _has_complex(s, move.to):
            yield as_raid
        return
    if is_raider(s, name):
        if targets_for(s, move.to, move.power, name):
            yield as_raid
    elif is_escort(s, name) and any(s.units[i].space == move.to and s.units[i].owner == move.power
                                    for i in raiders(s)):
        yield od.Move(power=move.power, units=move.units, frm=move.frm, to=move.to,
                      via=move.via, escort=True)


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
    # Europe 1940 (raids on facilities, escorts: BR-1..BR-11)
    "only_raiders": lambda p: (
        f"Only strategic and tactical bombers raid ({p['rule']}), not {', '.join(p['others'])}"
        + (": fighters go with 'escort'" if p["escorts"] else "")
        + "; move the other units with an order of their own."),
    "only_fighters": "Only fighters escort a raid ({rule}), not {others:join}: bombers raid "
                     "with 'raid'; move the other units with an order of their own.",
    "no_escorts": "{edition} has no escorts: drop 'escort'.",
    "escorts_alone": "Fighters escort the bombers of a raid ({rule}), and no bombers raid "
                     "{spaces:and} now: move the fighters on, or bombers there with 'raid'.",
    "raid_or_escort": "A move either raids (bombers, 'raid') or escorts (fighters, 'escort') "
                      "({rule}): move them with an order each.",
    "not_enemy_territory": "A raid targets a facility in an enemy territory ({rule}); {space} is "
                           "not enemy territory.",
    "no_target": lambda p: (
        (f"Tactical bombers raid only air and naval bases, never an industrial complex "
         f"({p['rule']}); {p['space']} has no enemy air or naval base." if p["tactical"] else
         f"{p['space']} has no enemy industrial complex, air base or naval base to bomb "
         f"({p['rule']})")
        + ": attack it without 'raid', or raid a territory with one."),
    "escort_alone": "Fighters escort the bombers of a raid ({rule}): no bombers of {power} raid "
                    "{space} yet. Move the bombers there with 'raid' first.",
    "no_assignment": "A strategic bombing raid here bombs the territory's industrial complex "
                     "({rule}): write just 'bomb {space}'.",
    "assign": "Say which facility each bomber attacks ({rule}): the raid on {space} has "
              "{bombers:units}, the targets there are {facilities:and}. For example 'bomb "
              "{space} {example}'.",
    "not_a_target": "{space} has no enemy {facility} to bomb ({rule}); its targets: "
                    "{facilities:join|none}.",
    "not_raiding_unit": "No {unit} raids {space} ({rule}); the raid has {bombers:units}.",
    "tactical_on_complex": "A {unit} cannot attack the {facility}: tactical bombers attack only "
                           "air and naval bases ({rule}).",
    "assign_all": "Every bomber of the raid on {space} attacks a facility ({rule}): the raid has "
                  "{bombers:units}, the order names {named:units}.",
    "raids_first": "Bombing raids come before every battle ({rule}): resolve the raids on "
                   "{spaces:and} first with 'bomb <space>'.",
})



@hooks.stage_words(RAID_AA)
def _aa_words(s: GameState, e: ev.DiceRolled) -> Msg:
    return msg("bombing.aa_fire", "R-SBR-02", space=e.space, faces=_faces(e), hits=e.hits)


@hooks.stage_words(RAID)
def _damage_words(s: GameState, e: ev.DiceRolled) -> Msg:
    faces = _faces(e)
    return msg("bombing.damage_dice", "R-SBR-03", space=e.space, faces=faces, damage=sum(faces))


@hooks.stage_words(RAID_DEFENSE)
def _defense_words(s: GameState, e: ev.DiceRolled) -> Msg:
    return msg("bombing.defense_fire", own_rule("BR-8"), space=e.space, facility=e.groups[0][0],
               faces=_faces(e), hits=e.hits)


@hooks.stage_words(RAID_DAMAGE)
def _facility_damage_words(s: GameState, e: ev.DiceRolled) -> Msg:
    groups = [(utype, bonus, list(faces)) for utype, bonus, faces in e.groups]
    return msg("bombing.facility_damage_dice", own_rule("BR-9"), space=e.space, groups=groups)


@reg.words(FacilityBombed)
def _bombed_words(s: GameState, e: FacilityBombed) -> Msg:
    return msg("bombing.facility_bombed", own_rule("BR-9"), space=e.space, facility=e.facility,
               owner=e.owner, bombers=len(e.bombers), lost=len(e.lost), rolled=e.rolled)


def _faces(e: ev.DiceRolled) -> list[int]:
    return [f for g in e.groups for f in g[2]]


@hooks.notes(ev.UnitsMoved)
def _declared_words(s: GameState, e: ev.UnitsMoved) -> list[Msg]:
    flagged = [m.id for m in e.moves if m.raid]
    if not flagged:
        return []
    if not on_facilities(s):
        return [msg("bombing.declared", space=e.to)]
    types = [s.units[i].type for i in flagged if i in s.units]
    kind = ("strategic" if any(s.edition.units[t].abilities.strategic_bomber for t in types)
            else "tactical" if any(is_raider(s, t) for t in types) else "")
    return [msg("bombing.declared_on", space=e.to, kind=kind,
                escorted=any(is_escort(s, t) for t in types))]


@reg.words(RaidResolved)
def _resolved_words(s: GameState, e: RaidResolved) -> Msg:
    if on_facilities(s):
        return msg("bombing.raid_over", own_rule("BR-11"), space=e.space, attacker=e.attacker,
                   note=e.note, lost=len(e.lost), bombers=len(e.bombers), damage=e.damage)
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


def _declared_on(p: Mapping[str, Any]) -> str:
    if not p["kind"]:
        return f"escorting the bombing raid on {p['space']}"
    return (f"{p['kind']} bombing raid on {p['space']}"
            + (", with fighter escorts" if p["escorted"] else ""))


def _raid_over_text(p: Mapping[str, Any]) -> str:
    line = f"Bombing raid on {p['space']} by {p['attacker']}"
    if p["note"]:
        return f"{line}: {p['note']}."
    lost = f", {p['lost']} of {p['bombers']} bombers shot down" if p["lost"] else ""
    return (f"{line} over: {p['damage']} damage in all{lost}; the bombers fly home in "
            f"Noncombat Move ({p['rule']}).")


def _facility_dice_text(p: Mapping[str, Any]) -> str:
    parts = []
    total = 0
    for utype, bonus, faces in p["groups"]:
        each = (f" +{bonus} each" if len(faces) > 1 else f" +{bonus}") if bonus else ""
        parts.append(f"{plural(utype) if len(faces) != 1 else utype} "
                     f"{','.join(map(str, faces))}{each}")
        total += sum(faces) + bonus * len(faces)
    return (f"Bombing raid on {p['space']}: the bombers rolled {'; '.join(parts)} → up to "
            f"{total} damage ({p['rule']}).")


def _bombed_text(p: Mapping[str, Any]) -> str:
    n = p["bombers"]
    lost = f", {p['lost']} shot down" if p["lost"] else ""
    return (f"{_n_bombers(n).capitalize()} attacked {possessive(p['owner'])} {p['facility']} in "
            f"{p['space']}{lost}: {p['rolled']} damage rolled ({p['rule']}).")


catalogue("en", "bombing", {
    "defense_fire": lambda p: (f"Bombing raid on {p['space']}: the {p['facility']}'s air "
                               f"defense rolled {','.join(map(str, p['faces']))} → "
                               f"{_n_bombers(p['hits'])} shot down ({p['rule']})."),
    "facility_damage_dice": _facility_dice_text,
    "facility_bombed": _bombed_text,
    "declared_on": _declared_on,
    "raid_over": _raid_over_text,
    "escort_advice": "'escort' after the target for fighters escorting a raid",
})


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
# Europe 1940: each facility's air defense, ended by its part of the raid (BR-8).
hooks.apart(hooks.Apart(
    stage=RAID_DEFENSE, ended_by=FacilityBombed,
    ended=lambda e: (e.space, e.attacker, (e.owner,)),
    result="raid", words="bombing raid",
))

# The map: a target where declared raiders wait for their raid.
hooks.marker(hooks.MapMarker(glyph="target", legend="bombing raid to fight", spaces=targets_left,
                             shown=lambda ed: ed.rules.rules.strategic_bombing))
