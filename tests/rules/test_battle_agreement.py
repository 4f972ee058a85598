"""The two evaluators of the battle model agree die for die (issue 15, deliverable 4).

The combat (``battle <space> all`` through ``rules.engine``, the defender answered by the
referee's defaults) and the odds' round function (``odds.core.Model``, which the
exact method and the Monte Carlo both use) fight the same battles with the same scripted dice:
each die's face is a function of the round, the stage, the unit type and the die's place in
its group, as the combat's roll purposes name them. Every round must leave the same units on
both sides, and the battle must end the same way after the same number of rounds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

import pytest

from odds.core import FIRE_FIRST, FIRE_NOT_STRIKERS, STRIKE, Dist, Model, Side, State
from rules import engine, tech
from rules import events as ev
from rules.battle import model as bm
from rules.battle.model import ATT, DEF, ROLES
from rules.edition import Edition, load_edition
from rules.state import GameState
from tests.rules.helpers import fight_to_the_end
from tests.rules.test_odds import _attack_state
from tests.rules.test_odds_classic import GER, SU, _classic_state

A1941 = load_edition("a1941")
CLASSIC = load_edition("classic")

Counts = dict[tuple[str, int], int]  # (unit type, hits left) -> units


class FaceDice:
    """Scripted dice: the face of a die is a function of its roll's purpose and its place in
    the roll, so that two evaluators rolling the same dice in another order see the same."""

    name = "scripted"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def face(self, round_: int, label: str, unit_type: str, i: int) -> int:
        key = f"{self.seed}|{round_}|{label}|{unit_type}|{i}".encode()
        return 1 + hashlib.sha256(key).digest()[0] % 6

    def roll(self, n: int, purpose: str) -> list[int]:
        _space, rnd, label, unit_type = purpose.split("|")
        return [self.face(int(rnd.split()[1]), label, unit_type, i) for i in range(n)]


@dataclass
class Path:
    rounds: list[tuple[Counts, Counts]]  # the units of both sides after each round
    result: str  # "attacker", "defender" (a retreat too), "both destroyed", "no combat"
    end: tuple[Counts, Counts]


# --------------------------------------------------------------------------------------------
# The combat


def _side_counts(s: GameState, ids: set[int], gone: set[int]) -> Counts:
    out: Counts = {}
    for i in ids:
        if i in gone or i not in s.units:
            continue
        u = s.units[i]
        key = (u.type, s.edition.units[u.type].hits - u.damage)
        out[key] = out.get(key, 0) + 1
    return out


def combat_path(s: GameState, space: str, dice: FaceDice) -> Path:
    """The battle fought by the combat: the units after each round and at the end."""
    b = s.battles[space]
    ed = s.edition
    att_ids = set(b.attacking) | set(b.seaborne)
    dfd_ids = set(b.defending)
    fixed = set(b.bombarding) | {u.id for u in s.units_in(space)
                                 if not bm.is_casualty(ed.units[u.type])}
    att_ids -= fixed
    dfd_ids -= fixed
    evs = fight_to_the_end(s, space, dice)
    state = s
    gone: set[int] = set()
    rounds: list[tuple[Counts, Counts]] = []
    result = ""
    end: tuple[Counts, Counts] = ({}, {})
    for e in evs:
        if isinstance(e, ev.BattleEnded) and e.space == space and not result:
            result = "defender" if e.result == "retreat" else e.result
            end = (_side_counts(state, att_ids, gone),
                   _side_counts(state, dfd_ids, gone))
        state = engine.evolve(state, e)
        if isinstance(e, ev.UnitsRemoved):
            gone |= set(e.ids)
        if isinstance(e, ev.BattleRoundEnded) and e.space == space:
            rounds.append((_side_counts(state, att_ids, gone),
                           _side_counts(state, dfd_ids, gone)))
    return Path(rounds, result, end)


# --------------------------------------------------------------------------------------------
# The odds' round function, with the same dice


def odds_path(ed: Edition, att: dict[str, int], dfd: dict[str, int], sea: bool, dice: FaceDice,
              techs: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())) -> Path:
    a_side = Side(ed, ATT, att, sea, (), tech.chosen(ed, techs[0]))
    d_side = Side(ed, DEF, dfd, sea, (), tech.chosen(ed, techs[1]))
    model = Model(a_side, d_side, sea)
    current = [1]

    def fire(role: int, st: State, mode: int, target: State) -> Dist:
        """The hits of ``role`` with the scripted faces: dice grouped per unit type and value,
        as the combat rolls them, each hit in its category (``model.hit_category``)."""
        side = model.sides[role]
        label = ROLES[role] + (":strike" if mode == STRIKE else "")
        escort = bm.escorted(side.present(st))
        groups: dict[tuple[str, int, int], int] = {}
        boost = model.paired(role, st) if mode != STRIKE else {}  # CA-1, as the combat pairs
        for i, n in enumerate(st):
            k = side.kinds[i]
            if not n or k.value <= 0 or (mode == STRIKE and not k.strikes) or (
                    mode == FIRE_NOT_STRIKERS and k.strikes):
                continue
            cat = bm.hit_category(k, escort)
            up = min(n, boost.get(k.type, 0))
            if up:
                boost[k.type] -= up
                key = (k.type, side.paired_values[k.type], cat)
                groups[key] = groups.get(key, 0) + up * k.dice
            if n > up:
                key = (k.type, k.value, cat)
                groups[key] = groups.get(key, 0) + (n - up) * k.dice
        cats = [0, 0, 0]
        for (utype, value, cat), n in groups.items():
            cats[cat] += sum(dice.face(current[0], label, utype, j) <= value for j in range(n))
        if mode == FIRE_FIRST:  # the bombardment's dice (R-AMP-05), rolled apart
            for utype, n in side.fixed.items():
                if ed.units[utype].domain == "sea":
                    value = bm.firing_value(ed, tech.chosen(ed, techs[0]), utype, ATT)
                    cats[0] += sum(dice.face(1, "attacker:bombard", utype, j) <= value
                                   for j in range(n))
        return {model.assign(1 - role, target, (cats[0], cats[1], cats[2])): 1.0}

    def counts(role: int, st: State) -> Counts:
        return {(k.type, k.hp): n for k, n in zip(model.sides[role].kinds, st, strict=True)
                if n}

    a, d = a_side.start, d_side.start
    rounds: list[tuple[Counts, Counts]] = []
    if model.aa:
        gun = next(iter(d_side.guns))
        hits = sum(dice.face(1, "defender:aa", gun, j) <= bm.AA_HIT
                   for j in range(model.aa_dice(a)))
        a = list(model.aa_fire(a))[hits]
    first = model.opening
    while True:
        end = model.terminal(a, d)
        if end is not None:
            how, a, d = end
            return Path(rounds, bm.RESULTS[how], (counts(ATT, a), counts(DEF, d)))
        ((a, d),) = model.round(a, d, fire, first=first)
        first = False
        current[0] += 1
        rounds.append((counts(ATT, a), counts(DEF, d)))


# --------------------------------------------------------------------------------------------
# The battles


def _agree(s: GameState, space: str, ed: Edition, att: dict[str, int], dfd: dict[str, int],
           seeds: int, techs: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())) -> set[str]:
    results = set()
    for seed in range(seeds):
        dice = FaceDice(seed)
        want = combat_path(s, space, dice)
        got = odds_path(ed, att, dfd, s.battles[space].sea, dice, techs)
        # The combat notes a round's end only when another round follows.
        assert got.rounds[: len(want.rounds)] == want.rounds, seed
        assert len(got.rounds) == len(want.rounds) + 1 or (
            not got.rounds and not want.rounds), seed
        assert (got.result, got.end) == (want.result, want.end), seed
        results.add(want.result)
    return results


@pytest.mark.parametrize(("att", "dfd"), [
    ({"infantry": 3, "tank": 2, "fighter": 1, "bomber": 1}, {"infantry": 4, "tank": 1,
                                                             "fighter": 1}),
    ({"infantry": 1, "fighter": 2}, {"infantry": 3}),
])
def test_CC_3_CC_4_CC_7b_land_battles_agree_die_for_die(att: dict[str, int],
                                                        dfd: dict[str, int]) -> None:
    s, space = _attack_state(att, dfd, sea=False)
    assert _agree(s, space, A1941, att, dfd, 30) >= {"attacker", "defender"}


@pytest.mark.parametrize(("att", "dfd"), [
    ({"battleship": 1, "destroyer": 2, "fighter": 1},
     {"battleship": 1, "aircraft carrier": 1, "fighter": 2, "destroyer": 1, "transport": 1}),
    ({"submarine": 3, "aircraft carrier": 1},
     {"submarine": 2, "aircraft carrier": 1, "fighter": 2, "transport": 1}),
    ({"destroyer": 1, "fighter": 2, "submarine": 1}, {"submarine": 3, "transport": 2}),
])
def test_SS_4_SS_6_H_2_H_3_UB_2_sea_battles_agree_die_for_die(att: dict[str, int],
                                                              dfd: dict[str, int]) -> None:
    s, space = _attack_state(att, dfd, sea=True)
    _agree(s, space, A1941, att, dfd, 30)


@pytest.mark.parametrize(("att", "dfd", "kind"), [
    ({"infantry": 3, "tank": 1, "fighter": 2, "bomber": 1},
     {"infantry": 4, "tank": 1, "antiaircraft gun": 1}, "land"),
    ({"infantry": 4, "battleship": 2}, {"infantry": 3, "tank": 1}, "amphibious"),
    ({"submarine": 3, "fighter": 1}, {"transport": 2, "battleship": 1}, "sea"),
    ({"submarine": 2, "battleship": 1}, {"submarine": 2, "aircraft carrier": 1, "fighter": 1},
     "sea"),
])
def test_R_LC_02_R_AMP_05_R_SUB_02_classic_battles_agree_die_for_die(
        att: dict[str, int], dfd: dict[str, int], kind: str) -> None:
    s, space = _classic_state(att, dfd, kind)
    _agree(s, space, CLASSIC, att, dfd, 30)


def test_R_TEC_05_developments_agree_die_for_die() -> None:
    att, dfd = {"infantry": 2, "bomber": 2}, {"infantry": 3, "fighter": 1}
    s, space = _classic_state(att, dfd, "land")
    s = replace(s, techs={GER: ("heavy_bombers",), SU: ("jet_power",)})
    _agree(s, space, CLASSIC, att, dfd, 30, (("heavy_bombers",), ("jet_power",)))


E40 = load_edition("europe1940")


@pytest.mark.parametrize(("att", "dfd"), [
    ({"artillery": 2, "infantry": 3, "mechanized infantry": 2, "tank": 1, "tactical bomber": 2,
      "fighter": 1}, {"infantry": 7, "artillery": 1, "tank": 2}),
    ({"artillery": 1, "infantry": 4, "tactical bomber": 1}, {"infantry": 3, "fighter": 1}),
    ({"infantry": 2, "artillery": 1, "fighter": 2, "tactical bomber": 2, "tank": 1},
     {"infantry": 6, "aa gun": 1, "artillery": 1}),
    ({"infantry": 1, "fighter": 3, "tactical bomber": 4}, {"infantry": 8, "aa gun": 2}),
])
def test_CA_1_CA_4_GC_7_A_21_europe1940_land_battles_agree_die_for_die(
        att: dict[str, int], dfd: dict[str, int]) -> None:
    """Combined arms (CA-1..CA-4), the pairs made again each round (GC-7); AA guns firing up to
    3 dice each before round 1 and defending at 0 (§16.1, A-21, GC-10)."""
    from tests.rules.e40._battles import land_attack

    s = land_attack(att, dfd).state
    assert _agree(s, "France", E40, att, dfd, 30) >= {"attacker", "defender"}


@pytest.mark.parametrize(("att", "dfd"), [
    ({"cruiser": 2, "destroyer": 1, "fighter": 1, "tactical bomber": 1},
     {"battleship": 1, "aircraft carrier": 1, "fighter": 1, "tactical bomber": 1,
      "destroyer": 1, "transport": 1}),
    ({"submarine": 3, "cruiser": 1}, {"aircraft carrier": 2, "fighter": 2, "submarine": 1}),
])
def test_GC_3_16_3_europe1940_sea_battles_agree_die_for_die(att: dict[str, int],
                                                           dfd: dict[str, int]) -> None:
    """Two-hit carriers and battleships, cruisers, tactical bombers paired with fighters at sea
    (CA-1), submarines' surprise strikes (GC-3)."""
    from tests.rules.e40._battles import sea_attack

    s = sea_attack(att, dfd).state
    _agree(s, "Sea Zone 112", E40, att, dfd, 30)


def test_AA_2_europe1940_bombardment_agrees_die_for_die() -> None:
    """Shore bombardment by a battleship (4) and a cruiser (3), its casualties firing back
    (AA-2)."""
    from tests.rules.e40._battles import landing

    s = landing({"battleship": 1, "cruiser": 1}, {"infantry": 2, "artillery": 1, "tank": 1},
                {"infantry": 4, "tank": 1}).state
    att = {"battleship": 1, "cruiser": 1, "infantry": 2, "artillery": 1, "tank": 1}
    _agree(s, "Normandy Bordeaux", E40, att, {"infantry": 4, "tank": 1}, 30)
