"""The units of an open battle in a game state, as the battle model sees them.

Read-only helpers of the combat: who is still in the battle on each side, who may be hit, each
unit's ``model.Kind`` (its value after its owner's developments), who may strike first, what the
owed hits are. No dice, no events.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules import tech
from rules.battle import model as bm
from rules.battle.casualties import best_total
from rules.battle.model import CATEGORIES, Kind
from rules.edition import RuleSet
from rules.errors import IllegalOrder, InvalidOrder, WrongPhase
from rules.messages import catalogue, msg
from rules.state import BattleState, GameState, Unit


def rules_of(s: GameState) -> RuleSet:
    return s.edition.rules.rules


def battle_at(s: GameState, space: str) -> BattleState:
    """The open battle in ``space`` (refused when there is none)."""
    if space not in s.edition.spaces:
        raise InvalidOrder(msg("battle.unknown_space", space=space))
    b = s.battles.get(space)
    if b is None or b.step == "done":
        open_ = [x.space for x in s.battles.values() if x.step != "done"]
        raise IllegalOrder(msg("battle.none_here", space=space, open=open_))
    return b


def decision_battle(s: GameState, space: str) -> BattleState:
    """The open battle a party's decision (casualties, submarines) is given in, in Conduct
    Combat (§9)."""
    if s.phase != "conduct_combat":
        raise WrongPhase(msg("battle.decision_phase", "§9"))
    return battle_at(s, space)



def side_word(side: str) -> bm.Side:
    return "attacker" if side == "attacker" else "defender"


def alive(s: GameState, ids: Iterable[int]) -> list[Unit]:
    return [s.units[i] for i in ids if i in s.units]


def side_units(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Units of a side still in the battle: not submerged (SS-3); the attacker's chosen
    casualties are gone at once (CC-4b), the defender's fire back first (CC-3b)."""
    ids = b.attacking + b.seaborne if side == "attacker" else b.defending
    pend = {i for i, _ in b.pending_casualties}
    down = set(b.submerged)
    return [u for u in alive(s, dict.fromkeys(ids))
            if u.id not in down and (u.id not in pend or side == "defender")]


def targets(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Units of ``side`` that can take hits now (not cargo, not out of play: H-5)."""
    pend = {i for i, _ in b.pending_casualties}
    return [u for u in side_units(s, b, side) if u.id not in pend]


def hit_points(s: GameState, u: Unit) -> int:
    return s.edition.units[u.type].hits - u.damage


def unit_class(s: GameState, u: Unit) -> int:
    return bm.unit_class(s.edition.units[u.type])


def value(s: GameState, u: Unit, side: str) -> int:
    """Attack or defence value, after its owner's developments (R-TEC-05/06)."""
    return bm.firing_value(s.edition, tech.owned(s, u.owner), u.type, bm.role(side))


def dice_per_unit(s: GameState, u: Unit, side: str) -> int:
    """Dice one unit rolls: Heavy Bombers roll 3 per attacking bomber (R-TEC-05)."""
    return bm.dice_per_unit(tech.owned(s, u.owner), u.type, bm.role(side))


def kind(s: GameState, u: Unit, side: str, sea: bool) -> Kind:
    """The unit as the battle model sees it."""
    return bm.kind(s.edition, u.type, bm.role(side), tech.owned(s, u.owner), sea,
                   hit_points(s, u))


def kinds(s: GameState, units: Iterable[Unit], side: str, sea: bool = False) -> list[Kind]:
    return [kind(s, u, side, sea) for u in units]


def category(s: GameState, unit_type: str, side: str, escort: bool) -> int:
    """The category of the hits a unit of this type scores (H-2, H-3)."""
    return bm.hit_category(bm.kind(s.edition, unit_type, bm.role(side), (), False, 1), escort)


def has_destroyer(s: GameState, units: Sequence[Unit]) -> bool:
    return bm.escorted(kinds(s, units, "attacker"))


def can_hit(s: GameState, shooters: Sequence[Unit], side: str, hit: Sequence[Unit],
            escort: bool | None = None) -> bool:
    other = "defender" if side == "attacker" else "attacker"
    return bm.can_hit(kinds(s, shooters, side), kinds(s, hit, other), escort)


def class_caps(s: GameState, units: Iterable[Unit]) -> list[int]:
    caps = [0, 0, 0, 0]
    for u in units:
        caps[unit_class(s, u)] += hit_points(s, u)
    return caps


def max_assignable(s: GameState, b: BattleState, side: str, cats: Sequence[int]) -> int:
    return best_total(class_caps(s, targets(s, b, side)), cats)[0]


def cats_for_owed(b: BattleState) -> tuple[int, ...]:
    """Categories of the hits owed (recorded with the roll that scored them; logs before AA
    fire recorded three)."""
    return (*b.owed_cats, *(0,) * len(CATEGORIES))[: len(CATEGORIES)]


def owed_side(b: BattleState) -> str | None:
    return b.owed[0][0] if b.owed else None


def owed_hits(b: BattleState) -> int:
    return b.owed[0][1] if b.owed else 0


def chooser(b: BattleState, side: str, s: GameState | None = None) -> str:
    """The power whose standing order answers for a side: the attacker, or the first defending
    power that has one (defenders choose together, H-1 / MN-6)."""
    if side == "attacker":
        return b.attacker
    if s is not None:
        for p in b.defenders:
            if s.standing.get(p):
                return p
    return b.defenders[0]


def sub_eligible(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Submarines of ``side`` that may strike first, or submerge: no enemy destroyer (SS-1,
    UD-3; ``model.may_strike``)."""
    other = "defender" if side == "attacker" else "attacker"
    enemy = kinds(s, side_units(s, b, other), other, b.sea)
    if not bm.may_strike(rules_of(s), bm.role(side), b.sea, enemy):
        return []
    return [u for u in side_units(s, b, side) if s.edition.units[u.type].abilities.surprise_strike]


def strikers(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Submarines of ``side`` that strike first this round: those declared to (SS-2, SS-4,
    SS-5), or where nobody declares every one that may (R-SUB-02, R-SUB-06)."""
    if not bm.declares(rules_of(s)):
        return sub_eligible(s, b, side)
    striking = set(b.striking)
    return [u for u in side_units(s, b, side) if u.id in striking]


def attacker_can_fire(s: GameState, b: BattleState) -> bool:
    return not bm.attacker_stuck(kinds(s, side_units(s, b, "attacker"), "attacker", b.sea))


def cargo_ids(s: GameState, hosts: Iterable[int]) -> tuple[int, ...]:
    hs = set(hosts)
    return tuple(u.id for u in s.units.values() if u.carried_by in hs)


catalogue("en", "battle", {
    "unknown_space": "Unknown space {space!r}.",
    "none_here": "There is no battle to fight in {space}. Open battles: {open:join|none}.",
    "decision_phase": "Casualties are chosen during Conduct Combat ({rule}).",
})
