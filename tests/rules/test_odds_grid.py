"""The fast exact methods (odds/fast.py with numpy and odds/grid.py in plain Python, issue 18
item 3) against the old one (``odds(..., reference=True)``: the joint multisets of odds.core):
the same answers within 1e-9 in every edition, on land and at sea, with AA fire, bombardment,
two-hit ships, combined arms and developments, and on small battles hypothesis makes up."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from odds.ask import OddsResult, odds
from odds.core import Model, Side
from odds.grid import applies
from rules.battle.model import ATT, DEF
from rules.edition import Edition, load_edition
from rules.errors import InvalidOrder

A1941, CLASSIC, E40 = load_edition("a1941"), load_edition("classic"), load_edition("europe1940")
TOL = 1e-9


def _same(fast: OddsResult, old: OddsResult) -> None:
    assert fast.method == old.method == "exact"
    for field in ("attacker_win", "defender_win", "draw", "both_destroyed", "stalemate",
                  "expected_rounds"):
        assert getattr(fast, field) == pytest.approx(getattr(old, field), abs=TOL), field
    if old.attacker_captures is None:
        assert fast.attacker_captures is None
    else:
        assert fast.attacker_captures == pytest.approx(old.attacker_captures, abs=TOL)
    for mine, theirs in ((fast.attacker_survivors, old.attacker_survivors),
                         (fast.defender_survivors, old.defender_survivors)):
        assert set(mine) == set(theirs)
        for t, n in theirs.items():
            assert mine[t] == pytest.approx(n, abs=TOL), t
    assert (fast.aa_fire, fast.bombarding, fast.sea) == (old.aa_fire, old.bombarding, old.sea)


def _grid(ed: Edition, att: dict[str, int], dfd: dict[str, int], sea: bool) -> bool:
    return applies(Model(Side(ed, ATT, att, sea, ()), Side(ed, DEF, dfd, sea, ()), sea))


def _compare(ed: Edition, att: dict[str, int], dfd: dict[str, int], sea: bool,
             **kw: Any) -> OddsResult:
    fast = odds(ed, att, dfd, sea=sea, **kw)
    _same(fast, odds(ed, att, dfd, sea=sea, reference=True, **kw))
    return fast


# (edition, attackers, defenders, sea, developments of the attacker, on the grid)
SPREAD: list[tuple[Edition, dict[str, int], dict[str, int], bool, tuple[str, ...], bool]] = [
    (A1941, {"infantry": 8, "tank": 4, "fighter": 2, "bomber": 1},
     {"infantry": 8, "tank": 2, "fighter": 2}, False, (), True),
    (A1941, {"infantry": 1, "tank": 1}, {"infantry": 3}, False, (), True),
    (A1941, {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2},
     {"battleship": 2, "destroyer": 2}, True, (), True),  # two-hit battleships
    (A1941, {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2},
     {"battleship": 2, "destroyer": 2, "submarine": 1}, True, (), False),
    (A1941, {"destroyer": 1, "fighter": 2, "submarine": 1},
     {"submarine": 3, "transport": 2}, True, (), False),
    (CLASSIC, {"infantry": 8, "tank": 4, "fighter": 2, "bomber": 1},
     {"infantry": 8, "tank": 2, "fighter": 2, "antiaircraft gun": 1}, False, (), True),
    (CLASSIC, {"infantry": 4, "tank": 2, "fighter": 1, "battleship": 2},
     {"infantry": 6, "tank": 1, "antiaircraft gun": 1}, False, (), True),  # AA + bombardment
    (CLASSIC, {"bomber": 4, "infantry": 3}, {"infantry": 6, "antiaircraft gun": 1}, False,
     ("heavy_bombers",), True),
    (CLASSIC, {"battleship": 2, "aircraft carrier": 1, "fighter": 2},
     {"battleship": 1, "aircraft carrier": 1, "fighter": 2}, True, (), True),
    (CLASSIC, {"submarine": 3, "battleship": 2, "aircraft carrier": 1, "fighter": 2},
     {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "transport": 3, "submarine": 2},
     True, (), False),
    (E40, {"infantry": 6, "artillery": 3, "mechanized infantry": 2, "tank": 3, "fighter": 2,
           "tactical bomber": 2},
     {"infantry": 8, "artillery": 2, "tank": 2, "fighter": 1, "aa gun": 2}, False, (), True),
    (E40, {"infantry": 3, "artillery": 1, "battleship": 1, "cruiser": 1},
     {"infantry": 3, "aa gun": 1}, False, (), True),  # combined arms + bombardment + AA
    (E40, {"battleship": 2, "cruiser": 2, "destroyer": 2, "aircraft carrier": 1, "fighter": 2},
     {"battleship": 1, "aircraft carrier": 2, "fighter": 2, "destroyer": 2}, True, (), True),
    (E40, {"battleship": 2, "cruiser": 2, "destroyer": 2, "aircraft carrier": 1, "fighter": 2},
     {"battleship": 1, "aircraft carrier": 2, "fighter": 2, "destroyer": 2, "submarine": 2},
     True, (), False),
]


@pytest.mark.parametrize("method", ["fast", "plain"])
@pytest.mark.parametrize(("ed", "att", "dfd", "sea", "techs", "grid"), SPREAD)
def test_fast_exact_equals_the_old_exact_method(ed: Edition, att: dict[str, int],
                                                 dfd: dict[str, int], sea: bool,
                                                 techs: tuple[str, ...], grid: bool,
                                                 method: str) -> None:
    assert _grid(ed, att, dfd, sea) == grid  # which method answers, so both are exercised
    _compare(ed, att, dfd, sea, attacker_techs=techs, grid=method)


@pytest.mark.parametrize("method", ["fast", "plain"])
def test_fast_exact_with_standing_orders_equals_the_old_method(method: str) -> None:
    """A standing casualty order changes the chain of states; both methods follow it."""
    _compare(A1941, {"infantry": 4, "tank": 3, "fighter": 2}, {"infantry": 5, "tank": 2},
             False, attacker_order=("tank", "fighter"), defender_order=("tank",), grid=method)


def test_R_LC_02_R_AMP_05_AA_fire_and_bombardment_on_the_arrays_equal_the_old_method() -> None:
    """Classic: AA fire shoots at 5 aircraft before round 1 (R-LC-02: each number shot down
    starts a chain of rows), 2 battleships bombard in round 1 (R-AMP-05: round 1 rolls their dice
    with the attackers', once); odds.fast gives the old method's answer, as does the automatic
    choice, and the plain grid agrees."""
    att = {"infantry": 6, "tank": 3, "fighter": 3, "bomber": 2, "battleship": 2}
    dfd = {"infantry": 8, "tank": 2, "fighter": 1, "antiaircraft gun": 1}
    fast = _compare(CLASSIC, att, dfd, False, grid="fast")
    assert fast.aa_fire and fast.bombarding == 2
    _same(odds(CLASSIC, att, dfd, sea=False), fast)
    _same(odds(CLASSIC, att, dfd, sea=False, grid="plain"), fast)


def test_GC_2_europe1940_AA_guns_up_to_three_shots_each_on_the_arrays() -> None:
    """Europe 1940: 2 AA guns roll up to 3 dice each at the attacking aircraft (§16.1) and fight
    on as defenders at 0; odds.fast gives the old method's answer."""
    _compare(E40, {"infantry": 5, "artillery": 2, "tank": 2, "fighter": 3, "tactical bomber": 2,
                   "strategic bomber": 1},
             {"infantry": 6, "artillery": 1, "tank": 1, "fighter": 1, "aa gun": 2}, False,
             grid="fast")


@pytest.mark.parametrize(("ed", "gun"), [(CLASSIC, "antiaircraft gun"), (E40, "aa gun")])
def test_R_LC_02_80_units_a_side_with_AA_fire_are_exact(ed: Edition, gun: str) -> None:
    """Issue 18: 80 against 80 on land with AA fire (one chain of rows per number of aircraft
    shot down) is exact within the default budgets."""
    fighters = "fighter"
    att = {"infantry": 40, "tank": 24, fighters: 10, "bomber" if ed is CLASSIC else
           "tactical bomber": 6}
    dfd = {"infantry": 48, "tank": 20, fighters: 12, gun: 1}
    r = odds(ed, att, dfd, sea=False)
    assert r.method == "exact" and r.std_error is None and r.aa_fire
    assert r.attacker_win + r.defender_win + r.draw == pytest.approx(1.0, abs=1e-9)


def test_fast_exact_answers_80_units_a_side_exactly() -> None:
    """Issue 18: 80 against 80 on land is exact within the default budgets."""
    r = odds(A1941, {"infantry": 50, "tank": 20, "fighter": 6, "bomber": 4},
             {"infantry": 60, "tank": 15, "fighter": 5})
    assert r.method == "exact" and r.std_error is None
    total = r.attacker_win + r.defender_win + r.draw
    assert total == pytest.approx(1.0, abs=1e-9)


def test_a_40_ship_sea_battle_is_exact_within_the_default_budgets() -> None:
    """Issue 18: 20 ships and aircraft a side, submarines striking first while the other side
    has no destroyer, two-hit battleships: exact, and the probabilities add up."""
    r = odds(A1941, {"battleship": 4, "aircraft carrier": 3, "fighter": 5, "destroyer": 4,
                     "submarine": 4},
             {"battleship": 3, "aircraft carrier": 4, "fighter": 5, "destroyer": 4,
              "submarine": 4})
    assert r.method == "exact" and r.sea
    assert r.attacker_win + r.defender_win + r.draw == pytest.approx(1.0, abs=1e-9)


LAND = {"a1941": ["infantry", "tank", "fighter", "bomber"],
        "classic": ["infantry", "tank", "fighter", "bomber"],
        "europe1940": ["infantry", "artillery", "mechanized infantry", "tank", "fighter",
                       "tactical bomber", "strategic bomber"]}
GUN = {"a1941": None, "classic": "antiaircraft gun", "europe1940": "aa gun"}
SHIPS = {"a1941": ["battleship", "destroyer", "aircraft carrier", "fighter", "submarine"],
         "classic": ["battleship", "aircraft carrier", "fighter", "submarine", "transport"],
         "europe1940": ["battleship", "cruiser", "destroyer", "aircraft carrier", "fighter",
                        "submarine"]}
EDITIONS = {"a1941": A1941, "classic": CLASSIC, "europe1940": E40}


@st.composite
def _battle(draw: st.DrawFn) -> tuple[Edition, dict[str, int], dict[str, int], bool]:
    eid = draw(st.sampled_from(sorted(EDITIONS)))
    ed = EDITIONS[eid]
    sea = draw(st.booleans())
    pool = SHIPS[eid] if sea else LAND[eid]
    att = {t: draw(st.integers(0, 2)) for t in draw(st.sets(st.sampled_from(pool), min_size=1))}
    dfd = {t: draw(st.integers(1, 2)) for t in draw(st.sets(st.sampled_from(pool), min_size=1))}
    gun = GUN[eid]
    if not sea and gun and draw(st.booleans()):
        dfd[gun] = 1
    if sea:  # defending aircraft need a deck
        dfd["fighter"] = min(dfd.get("fighter", 0), dfd.get("aircraft carrier", 0))
    att = {t: n for t, n in att.items() if n}
    dfd = {t: n for t, n in dfd.items() if n}
    return ed, att, dfd, sea


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(_battle())
def test_fast_exact_equals_the_old_on_small_battles(
        battle: tuple[Edition, dict[str, int], dict[str, int], bool]) -> None:
    ed, att, dfd, sea = battle
    try:
        old = odds(ed, att, dfd, sea=sea, reference=True)
    except InvalidOrder:
        old = None
    assume(old is not None)  # a battle nobody may ask about (no attacker who can fire, ...)
    assert old is not None
    _same(odds(ed, att, dfd, sea=sea), old)
    _same(odds(ed, att, dfd, sea=sea, grid="fast"), old)
