"""The battle model: the rules of a battle round, stated once (issue 15, deliverable 4).

No dice, no events, no game state: functions of the edition's unit data, its ``RuleSet``
switches and each side's weapons developments. Two evaluators read them:

- the combat (``rules/battle/rounds.py`` and its neighbours), which rolls dice, asks players for
  their decisions and emits events;
- the odds (``odds/ask.py``), which computes the exact distribution of outcomes or
  samples it (Monte Carlo).

What is stated here:

- the sides (``ATT``, ``DEF``) and what a unit is in a battle (``Kind``): its firing value and
  dice after developments (``firing_value``, ``dice_per_unit``; R-TEC-05/06), its casualty class
  and the abilities the rules ask about;
- who may hit whom (``hit_category``, ``ELIGIBLE``, ``can_hit``): submarines never hit aircraft
  (H-2, R-SUB-03), aircraft hit submarines only beside a friendly destroyer (H-3), AA fire hits
  only aircraft (R-LC-02, A-04);
- the steps of a round for a ruleset (``round_steps``): declarations (SS-2), AA fire (R-LC-02),
  bombardment (R-AMP-05), surprise strikes (SS-4/SS-5, R-SUB-02), the first victims leaving
  (SS-6, R-NC-03), the attacker's and the defender's fire (CC-3, CC-4), the end of the round
  (CC-5); who strikes first (``may_strike``) and whose victims still fire (``VICTIMS_FIRE_BACK``);
- the end of a battle (``battle_end``, ``attacker_stuck``): a side gone (CC-6A), only transports
  at sea (CC-6A), defenceless transports (CC-6C), nobody able to hit anybody (A-11).

Casualty constraints and the referee's default choice of casualties are in
``rules/battle/casualties.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, NamedTuple

from rules import tech
from rules.edition import Edition, RuleSet, Technology, UnitType
from rules.messages import own_rule

__all__ = [
    "AA_HIT", "AIR", "AIR_ONLY", "ANY", "ATT", "ATTACKER", "BOTH_DESTROYED", "CATEGORIES",
    "CLASSES", "DEF", "DEFENDER", "ELIGIBLE", "MAX_ROUNDS", "NO_AIR", "NO_SUB", "OTHER",
    "RESULTS", "ROLES", "STALEMATE", "SUB", "TRANSPORT", "VICTIMS_FIRE_BACK", "Ending", "Kind",
    "Side", "Step", "aa_dice", "attacker_stuck", "battle_end", "bombards", "can_hit", "declares",
    "dice_per_unit", "escorted",
    "firing_value", "hit_category", "is_casualty", "kind", "may_strike", "paired", "paired_value",
    "role", "round_steps", "unit_class",
]

# --------------------------------------------------------------------------------------------
# Sides, classes of casualties, categories of hits

ATT, DEF = 0, 1
ROLES = ("attacker", "defender")
Side = Literal["attacker", "defender"]  # the words of events and battle states

# Casualty classes: what kind of target a hit may go on (H-2, H-3, H-4).
AIR, SUB, OTHER, TRANSPORT = 0, 1, 2, 3
CLASSES = (AIR, SUB, OTHER, TRANSPORT)

# Hit categories, in the order ``DiceRolled.categories`` records them: hits on anything; hits by
# submarines, never on aircraft (H-2, R-SUB-03); hits by aircraft without a friendly destroyer,
# never on submarines (H-3); AA hits, only on aircraft (R-LC-02, A-04).
ANY, NO_AIR, NO_SUB, AIR_ONLY = 0, 1, 2, 3
CATEGORIES = (ANY, NO_AIR, NO_SUB, AIR_ONLY)
ELIGIBLE: tuple[frozenset[int], ...] = (
    frozenset((AIR, SUB, OTHER, TRANSPORT)),
    frozenset((SUB, OTHER, TRANSPORT)),
    frozenset((AIR, OTHER, TRANSPORT)),
    frozenset((AIR,)),
)

AA_HIT = 1  # an AA die hits on a 1 (R-AAG-03, R-LC-02)
MAX_ROUNDS = 200  # a battle still going after this many rounds is a stalemate (a guard)


def role(side: str) -> int:
    """``ATT`` or ``DEF`` for "attacker" or "defender"."""
    return ATT if side == "attacker" else DEF


# --------------------------------------------------------------------------------------------
# A unit in a battle


def unit_class(ut: UnitType) -> int:
    """Its casualty class: aircraft, submarines (not hit by aircraft without a destroyer),
    transports (chosen last, H-4, UT-4), every other unit."""
    if ut.domain == "air":
        return AIR
    if ut.abilities.cannot_be_hit_by_air:
        return SUB
    if ut.abilities.chosen_last:
        return TRANSPORT
    return OTHER


def firing_value(ed: Edition, techs: Iterable[Technology], unit_type: str, side: int) -> int:
    """The value a die of this unit hits at or below (CC-3a, CC-4a, CMP-3): its attack or
    defence after the side's weapons developments (R-TEC-05/06: Jet Power, Super Submarines)."""
    if side == ATT:
        return tech.attack_with(ed, techs, unit_type)
    return tech.defense_with(ed, techs, unit_type)


def dice_per_unit(techs: Iterable[Technology], unit_type: str, side: int) -> int:
    """Dice one unit rolls: one, or three per attacking bomber with Heavy Bombers (R-TEC-05)."""
    return tech.attack_dice_with(techs, unit_type) if side == ATT else 1


def paired_value(ed: Edition, techs: Iterable[Technology], unit_type: str) -> int:
    """The attack of a unit of this type paired with a unit that supports it (CA-1: infantry
    and mechanized infantry 2 beside artillery, a tactical bomber 4 beside a fighter or a tank),
    never below its own."""
    return max(firing_value(ed, techs, unit_type, ATT), ed.units[unit_type].abilities.paired_attack)


def paired(ed: Edition, present: Mapping[str, int]) -> dict[str, int]:
    """How many attacking units of each type fight at their paired value (combined arms,
    CA-1..CA-4), with ``present`` units of each type on the attacker's side of the battle.

    Each unit whose type ``supports`` others raises one unit of a type it names whose
    ``paired_attack`` is set: pairs are 1:1 and a unit has one partner at a time (CA-2), the
    extra units fight at their own value (CA-4: 2 artillery and 5 infantry, two infantry at 2
    and three at 1). As many pairs as possible are made (a maximum matching of the types, the
    types tried in the edition's order); the caller asks again each round, with the units left
    (GC-7), and only for the attacker (CA-3)."""
    units = ed.units
    supported = [t for t in units if present.get(t, 0) > 0 and units[t].abilities.paired_attack]
    supporters = [t for t in units if present.get(t, 0) > 0 and units[t].abilities.supports]
    if not supported or not supporters:
        return {}
    left = {t: present[t] for t in supporters}  # supporters not yet paired
    need = {t: present[t] for t in supported}  # supported units not yet paired
    flow: dict[tuple[str, str], int] = {}  # (supporter, supported) -> pairs
    while True:
        path = _augmenting(units, supporters, supported, left, need, flow)
        if path is None:
            break
        edges = list(zip(path[::2], path[1::2], strict=True))  # forward pairs on the path
        backs = list(zip(path[2::2], path[1::2], strict=False))  # pairs given up on the way
        n = min(left[path[0]], need[path[-1]], *(flow[b] for b in backs))
        left[path[0]] -= n
        need[path[-1]] -= n
        for e in edges:
            flow[e] = flow.get(e, 0) + n
        for b in backs:
            flow[b] -= n
    out: dict[str, int] = {}
    for (_, t), n in flow.items():
        if n:
            out[t] = out.get(t, 0) + n
    return out


def _augmenting(units: Mapping[str, UnitType], supporters: Sequence[str],
                supported: Sequence[str], left: Mapping[str, int], need: Mapping[str, int],
                flow: Mapping[tuple[str, str], int]) -> list[str] | None:
    """A path supporter, supported, supporter, ..., supported from a supporter with units left
    to a supported type with units unpaired, alternating new pairs and pairs given up (a
    breadth-first search over the types), or None."""
    starts = [a for a in supporters if left[a] > 0]
    came: dict[str, str | None] = {}
    queue: list[str] = []
    for a in starts:
        came["a:" + a] = None
        queue.append("a:" + a)
    while queue:
        node = queue.pop(0)
        side, name = node[:1], node[2:]
        if side == "a":
            for t in supported:
                if t in units[name].abilities.supports and "t:" + t not in came:
                    came["t:" + t] = node
                    if need[t] > 0:
                        path = ["t:" + t]
                        while (prev := came[path[-1]]) is not None:
                            path.append(prev)
                        return [x[2:] for x in reversed(path)]
                    queue.append("t:" + t)
        else:
            for a in supporters:
                if flow.get((a, name), 0) > 0 and "a:" + a not in came:
                    came["a:" + a] = node
                    queue.append("a:" + a)
    return None


def is_casualty(ut: UnitType) -> bool:
    """Units that may be chosen as casualties: not industrial complexes (CC-1, UL-4) or other
    facilities (GC-2), not AA guns that fire at aircraft only and are never casualties
    (R-AAG-04); Europe 1940's AA guns defend at 0 and may be chosen (``aa_casualty``, GC-2)."""
    ab = ut.abilities
    return not (ab.factory or ab.facility or (ab.anti_air and not ab.aa_casualty))


def aa_dice(ed: Edition, guns: Mapping[str, int], planes: int) -> int:
    """Dice the AA guns of a territory roll at ``planes`` attacking aircraft before round 1:
    one per aircraft (R-LC-02, R-AAG-03), or, for guns with ``aa_shots``, up to that many per
    gun, each aircraft shot at once (§16.1, §22.12: min(3 x guns, aircraft))."""
    shots = [ed.units[t].abilities.aa_shots * n for t, n in guns.items() if n]
    if not shots or not all(shots):
        return planes
    return min(sum(shots), planes)


def bombards(ed: Edition, unit_type: str) -> bool:
    """A unit that bombards in round 1 of an amphibious assault (R-AMP-05); editions without
    the rule have ``bombardment`` "none"."""
    return ed.rules.rules.bombardment != "none" and ed.units[unit_type].abilities.bombard


class Kind(NamedTuple):
    """A unit in a battle as the rules see it: its type, the hits it can still take, and the
    facts of its profile that the rules of a round ask about."""

    type: str
    hp: int  # hits left (UB-2: an undamaged 1941 battleship has 2)
    value: int  # firing value: attack for the attacker, defence for the defender (developments)
    dice: int  # dice each unit rolls (Heavy Bombers: 3 per attacking bomber)
    cls: int  # casualty class: AIR, SUB, OTHER, TRANSPORT
    air: bool
    cannot_hit_air: bool  # H-2 (submarines)
    anti_sub: bool  # destroyer: cancels the enemy's surprise strike (SS-1), escorts air (H-3)
    strikes: bool  # may strike first in a sea battle (SS-1, R-SUB-02)
    captures: bool  # land unit: captures a territory it survives in (CC-7b)
    no_combat: bool  # no combat value: transports (UT-2; CC-6A, CC-6C)


def kind(ed: Edition, unit_type: str, side: int, techs: Sequence[Technology], sea: bool,
         hp: int) -> Kind:
    """What a unit of ``unit_type`` with ``hp`` hits left is in a battle on this ``side``."""
    ut = ed.units[unit_type]
    ab = ut.abilities
    return Kind(type=unit_type, hp=hp, value=firing_value(ed, techs, unit_type, side),
                dice=dice_per_unit(techs, unit_type, side), cls=unit_class(ut),
                air=ut.domain == "air", cannot_hit_air=ab.cannot_hit_air, anti_sub=ab.anti_sub,
                strikes=sea and ab.surprise_strike, captures=ab.can_capture,
                no_combat=ab.no_combat_value)


# --------------------------------------------------------------------------------------------
# Who may hit whom


def escorted(side: Iterable[Kind]) -> bool:
    """A destroyer on this side: its aircraft may hit submarines (H-3) and the enemy's
    submarines may not strike first (SS-1)."""
    return any(k.anti_sub for k in side)


def hit_category(k: Kind, escort: bool) -> int:
    """The category of a hit scored by ``k`` (H-2, H-3); ``escort``: a destroyer on its side."""
    if k.cannot_hit_air:
        return NO_AIR
    if k.air and not escort:
        return NO_SUB
    return ANY


def can_hit(shooters: Sequence[Kind], targets: Sequence[Kind], escort: bool | None = None) -> bool:
    """Some unit with a firing value among ``shooters`` could hit one of ``targets``
    (``escort``: a destroyer on the shooters' side; by default, one among the shooters)."""
    if escort is None:
        escort = escorted(shooters)
    classes = {t.cls for t in targets}
    return any(k.value > 0 and not classes.isdisjoint(ELIGIBLE[hit_category(k, escort)])
               for k in shooters)


# --------------------------------------------------------------------------------------------
# The steps of a round


class Step(NamedTuple):
    """One step of a round: ``stage`` (as ``DiceRolled.stage`` names the fire of that step),
    the side that acts (None: both), the rule, and whether it happens in round 1 only."""

    stage: str  # "declare" "aa" "bombard" "strike" "leave" "fire" "end"
    side: int | None
    rule: str
    first_round: bool = False


def declares(rules: RuleSet) -> bool:
    """Submarines declare strike or submerge before each round (1941 SS-2); else attacking
    submarines always strike first and nobody declares (Classic R-SUB-02)."""
    return rules.sub_first_strike == "declared"


def round_steps(rules: RuleSet, sea: bool) -> tuple[Step, ...]:
    """The steps of a round, in order (a step whose units are absent is skipped):

    - sea, declared strikes (1941): the attacker's submarines declare strike or submerge, then
      the defender's (SS-2, SS-3);
    - land, round 1: the defender's AA guns fire at the attacking aircraft (R-LC-02);
    - land, round 1, with bombardment: the attacker's battleships' support shot (R-AMP-05);
    - sea: submarines strike first, the attacker's (SS-4, R-SUB-02) and, where declared, the
      defender's (SS-5; Classic R-SUB-06: defending submarines fire with everybody);
    - the victims of the steps before whose casualties do not fire back leave, and the battle is
      checked for its end (SS-6, R-NC-03, R-LC-02; SS-3: every submarine submerged);
    - the attacker fires (CC-3, R-LC-03, R-NC-04), then the defender (CC-4, R-LC-04, R-NC-05);
    - the end of the round: casualties removed, the battle checked for its end (CC-5, CC-6).
    """
    declared = declares(rules)
    steps: list[Step] = []
    if sea and declared:
        steps += [Step("declare", ATT, "SS-2"), Step("declare", DEF, "SS-2")]
    if not sea:
        steps.append(Step("aa", DEF, "R-LC-02", first_round=True))
        if rules.bombardment != "none":
            steps.append(Step("bombard", ATT, "R-AMP-05", first_round=True))
    if sea:
        steps.append(Step("strike", ATT, "SS-4" if declared else "R-SUB-02"))
        if declared:
            steps.append(Step("strike", DEF, "SS-5"))
    leave = ("SS-6" if declared else "R-NC-03") if sea else "R-LC-02"
    steps += [Step("leave", None, leave),
              Step("fire", ATT, "CC-3"), Step("fire", DEF, "CC-4"), Step("end", None, "CC-5")]
    return tuple(steps)


# Whether the casualties a stage inflicts on the defender still fire in the round's "fire" step
# (the attacker's casualties never do: they are removed at once, CC-4b). Victims of the fire
# step fire back (CC-3b, CC-4a, R-CBT-03), so do those of the bombardment (R-AMP-05); those of
# a surprise strike leave first (SS-6, R-NC-03; SS-5: the defender's still strike in Step 2).
VICTIMS_FIRE_BACK = {"aa": False, "bombard": True, "strike": False, "fire": True}


def may_strike(rules: RuleSet, side: int, sea: bool, enemy: Iterable[Kind]) -> bool:
    """Whether ``side``'s submarines strike first this round: in a sea battle, while the enemy
    has no destroyer (SS-1, SS-8); in 1941 both sides' (SS-4, SS-5: those declared to strike,
    the referee's default), in Classic only the attacker's, every round (R-SUB-02, R-SUB-06)."""
    if not sea or (side == DEF and not declares(rules)):
        return False
    return not escorted(enemy)


# --------------------------------------------------------------------------------------------
# The end of a battle

# How a battle ends; the words are those of ``BattleEnded.result``.
ATTACKER, DEFENDER, BOTH_DESTROYED, STALEMATE = 0, 1, 2, 3
RESULTS = ("attacker", "defender", "both destroyed", "no combat")


class Ending(NamedTuple):
    result: int  # ATTACKER, DEFENDER, BOTH_DESTROYED, STALEMATE
    rule: str
    transports_lost: bool = False  # CC-6C: the defender's transports are destroyed at once
    # GC-10 / A-21: the defender's units left in a territory have no combat value (AA guns):
    # the attacker wins and they are destroyed.
    unarmed_lost: bool = False


def battle_end(att: Sequence[Kind], dfd: Sequence[Kind], sea: bool) -> Ending | None:
    """Whether the battle is over, with these units left on each side (checked when a round's
    casualties are removed and before each round), in this order:

    - both sides gone: nobody wins; the defenders gone: the attacker wins; the attackers gone:
      the defender wins (CC-6A);
    - in a territory, the defenders left have no combat value (Europe 1940's AA guns): the
      attacker wins and they are destroyed (GC-10, A-21);
    - at sea, only transports on both sides: nobody wins (CC-6A);
    - at sea, the defender's transports alone, or beside units that neither side can hit, and
      the attacker can hit them: they are destroyed at once (CC-6C); the attacker wins when
      nothing else defended;
    - nobody can hit anybody: nobody wins (A-11).
    """
    if not dfd:
        return Ending(ATTACKER if att else BOTH_DESTROYED, "CC-6A")
    if not att:
        return Ending(DEFENDER, "CC-6A")
    if not sea and all(k.value <= 0 for k in dfd):
        return Ending(ATTACKER, own_rule("GC-10"), unarmed_lost=True)
    if sea and all(k.no_combat for k in dfd) and all(k.no_combat for k in att):
        return Ending(STALEMATE, "CC-6A")
    if sea:
        transports = [k for k in dfd if k.no_combat]
        warships = [k for k in dfd if not k.no_combat]
        att_war = [k for k in att if not k.no_combat]
        if transports and can_hit(att, transports) and (not warships or (
                not can_hit(att_war, warships) and not can_hit(warships, att_war))):
            return Ending(STALEMATE if warships else ATTACKER, "CC-6C", transports_lost=True)
    if not can_hit(att, dfd) and not can_hit(dfd, att):
        return Ending(STALEMATE, "A-11")
    return None


def attacker_stuck(att: Iterable[Kind]) -> bool:
    """The attackers left cannot fire: when the attacker would press on, they retreat, or are
    lost where they cannot (CC-6C, A-10, UT-3, R-TRP-06)."""
    return not any(k.value > 0 for k in att)
