"""The odds calculator (rules/odds.py): hand-computed battles, the casualty order against
rules/combat.py, Monte Carlo against exact, and exact odds against many seeded battles of the
real combat code (DESIGN §9 "Statistics")."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction as F
from typing import Any

import pytest

from odds.ask import (
    DEFAULT_MAX_WORK,
    DEFAULT_MC_WORK,
    DEFAULT_SAMPLES,
    MAX_UNITS,
    OddsResult,
    SplitMix64,
    odds,
    summary,
)
from odds.core import Model as _Model
from odds.core import Side as _Side
from odds.core import binomial_draw as _binomial_draw
from rules import combat, engine
from rules import events as ev
from rules.battle.casualties import best_total as _best_total
from rules.battle.casualties import flow_ok as _flow_ok
from rules.battle.casualties import vectors as _vectors
from rules.battle.model import ATT, DEF
from rules.dice import HmacDice
from rules.edition import load_edition
from rules.errors import InvalidOrder
from rules.state import GameState
from tests.rules.helpers import Game, fight_to_the_end, position
from tests.rules.test_battle_model import _search_flow

ED = load_edition("a1941")
GER, SU, UK = "Germany", "Soviet Union", "United Kingdom"
EPS = 1e-12


def close(x: float, y: F | float) -> bool:
    return abs(x - float(y)) < EPS


def check(r: OddsResult, att: F, dfd: F, both: F, stale: F = F(0)) -> None:
    assert close(r.attacker_win, att), (r.attacker_win, float(att))
    assert close(r.defender_win, dfd), (r.defender_win, float(dfd))
    assert close(r.both_destroyed, both), (r.both_destroyed, float(both))
    assert close(r.stalemate, stale)
    assert close(r.draw, both + stale)
    assert r.method == "exact" and r.trials is None and r.std_error is None


# --------------------------------------------------------------------------------------------
# Tiny battles by hand


def test_one_infantry_against_one_closed_form() -> None:
    """Each round: attacker hits 1/6, defender 2/6; nothing happens with 5/6 * 4/6 = 20/36, so
    the outcomes of the first round that does something are (4, 10, 2) / 16."""
    r = odds(ED, {"infantry": 1}, {"infantry": 1})
    check(r, F(1, 4), F(5, 8), F(1, 8))
    assert close(r.attacker_survivors["infantry"], F(1, 4))
    assert close(r.defender_survivors["infantry"], F(5, 8))
    assert close(r.expected_rounds, F(36, 16))  # geometric: 1 / (1 - 20/36)
    assert close(r.attacker_captures or 0, F(1, 4))
    assert not r.sea


def test_tank_against_infantry() -> None:
    r = odds(ED, {"tank": 1}, {"infantry": 1}, space="Ukraine")
    check(r, F(1, 2), F(1, 4), F(1, 4))


def test_two_infantry_against_one_two_states_deep() -> None:
    """(2 vs 1) leaves with 22/58 to a win with 2, 11/58 a win with 1, 25/58 to (1 vs 1)."""
    r = odds(ED, {"infantry": 2}, {"infantry": 1})
    check(r, F(157, 232), F(125, 464), F(25, 464))
    assert close(r.attacker_survivors["infantry"], F(245, 232))


def test_attacker_keeps_its_last_land_unit() -> None:
    """The fighter is lost before the last infantry, so every attacker win captures:
    (inf+ftr vs inf) wins at once with 21/26, else reaches (inf vs inf) with 5/26."""
    r = odds(ED, {"infantry": 1, "fighter": 1}, {"infantry": 1})
    check(r, F(89, 104), F(25, 208), F(5, 208))
    assert close(r.attacker_captures or 0, F(89, 104))
    # A standing order cannot give the last land unit away either (combat._preference).
    r2 = odds(ED, {"infantry": 1, "fighter": 1}, {"infantry": 1},
              attacker_order=("infantry", "fighter"))
    assert close(r2.attacker_win, r.attacker_win)


def test_standing_order_of_the_defender() -> None:
    """Defender tank + infantry against 1 tank: losing the infantry first keeps the tank."""
    cheap = odds(ED, {"tank": 1}, {"infantry": 1, "tank": 1})
    tank_first = odds(ED, {"tank": 1}, {"infantry": 1, "tank": 1}, defender_order=("tank",))
    assert cheap.defender_survivors["tank"] > tank_first.defender_survivors["tank"]
    assert cheap.defender_survivors["infantry"] < tank_first.defender_survivors["infantry"]


def test_UB_2_battleship_takes_two_hits() -> None:
    """1 bb (hits on 4) vs 1 dd (2): the first hit only damages the battleship."""
    r = odds(ED, {"battleship": 1}, {"destroyer": 1})
    assert r.sea
    check(r, F(46, 49), F(1, 49), F(2, 49))
    assert close(r.attacker_survivors["battleship"], F(46, 49))


def test_H_4_transport_last_and_CC_6C_defenceless_transports() -> None:
    """dd vs dd + tt: the destroyer takes the first hit; a lone transport is destroyed at once,
    so the attacker wins exactly when its destroyer outlives the other one."""
    r = odds(ED, {"destroyer": 1}, {"destroyer": 1, "transport": 1})
    check(r, F(2, 5), F(3, 5), F(0))
    assert close(r.defender_survivors["transport"], F(3, 5))
    lone = odds(ED, {"fighter": 1}, {"transport": 2}, space="Sea Zone 5")
    check(lone, F(1), F(0), F(0))
    assert lone.expected_rounds == 0 and lone.defender_survivors["transport"] == 0


def test_CC_6C_transports_beside_units_nobody_can_hit() -> None:
    """Fighters without a destroyer cannot hit the sub and the sub cannot hit fighters: the
    transports beside it are destroyed at once and the battle ends with nobody winning."""
    r = odds(ED, {"fighter": 2}, {"submarine": 1, "transport": 2})
    check(r, F(0), F(0), F(0), stale=F(1))
    assert r.expected_rounds == 0
    assert r.defender_survivors == {"submarine": 1, "transport": 0}


def test_A_11_air_against_lone_submarines_is_a_stalemate() -> None:
    r = odds(ED, {"fighter": 2}, {"submarine": 2})
    check(r, F(0), F(0), F(0), stale=F(1))
    assert r.attacker_survivors == {"fighter": 2} and r.defender_survivors == {"submarine": 2}
    assert "nobody can hit 100.0%" in summary(r)


def test_SS_4_attacking_submarine_strikes_before_the_carrier_fires() -> None:
    """1 sub vs 1 carrier: a hit in Step 2 sinks the carrier before it fires (SS-6), so the
    round is won 1/3, lost 2/3 * 1/3, repeated 4/9: 3/5 against 2/5 (fired together it would
    be 2/5, 2/5 and 1/5 both destroyed)."""
    check(odds(ED, {"submarine": 1}, {"aircraft carrier": 1}), F(3, 5), F(2, 5), F(0))


def test_SS_5_defender_casualties_still_strike() -> None:
    """1 sub vs 1 sub: the defending sub strikes even when hit in SS-4 (A-13)."""
    check(odds(ED, {"submarine": 1}, {"submarine": 1}), F(5, 8), F(1, 4), F(1, 8))


def test_SS_6_attacker_strike_casualties_do_not_fire() -> None:
    """1 carrier vs 1 sub: the defending sub strikes first (hits on 1); a sunk carrier does
    not fire in Step 3: 6/11 against 5/11, never both destroyed."""
    check(odds(ED, {"aircraft carrier": 1}, {"submarine": 1}), F(5, 11), F(6, 11), F(0))


def test_SS_1_a_destroyer_cancels_the_surprise_strike() -> None:
    """With the defender's destroyer present the attacking sub fires with everybody."""
    r = odds(ED, {"submarine": 1}, {"destroyer": 1})
    # att 1/3, def 1/3 simultaneously: (2/9, 2/9, 1/9) / (5/9)
    check(r, F(2, 5), F(2, 5), F(1, 5))


def test_H_2_submarine_hits_never_on_fighters() -> None:
    """Subs vs carrier with fighters: the fighters cannot be hit by subs, and fighters cannot
    hit subs without a destroyer; once the carrier is gone nobody can hit anybody."""
    r = odds(ED, {"submarine": 2}, {"aircraft carrier": 1, "fighter": 2})
    assert r.defender_survivors["fighter"] == pytest.approx(2.0)
    assert r.attacker_win == 0
    assert r.stalemate > 0.5


def test_probabilities_add_up_and_survivors_stay_in_bounds() -> None:
    cases = [
        ({"infantry": 3, "tank": 2, "fighter": 1}, {"infantry": 4, "tank": 1}),
        ({"battleship": 1, "destroyer": 2, "submarine": 2, "fighter": 1},
         {"aircraft carrier": 1, "fighter": 2, "submarine": 2, "transport": 2}),
    ]
    for att, dfd in cases:
        r = odds(ED, att, dfd)
        assert math.isclose(r.attacker_win + r.defender_win + r.draw, 1.0, abs_tol=1e-12)
        for units, surv in ((att, r.attacker_survivors), (dfd, r.defender_survivors)):
            for t, n in units.items():
                assert -1e-12 <= surv[t] <= n + 1e-12
        assert r.attacker_captures is None or r.attacker_captures <= r.attacker_win + 1e-12


def test_more_attackers_never_hurt() -> None:
    last = 0.0
    for n in range(1, 7):
        w = odds(ED, {"infantry": n, "tank": 1}, {"infantry": 3}).attacker_win
        assert w > last
        last = w


def test_mirror_battle_favours_the_defender() -> None:
    """Infantry defend at 2 and attack at 1; tanks are 3 both ways: equal tanks are a fair
    fight, so swapping sides changes nothing."""
    r = odds(ED, {"tank": 2}, {"tank": 2})
    assert math.isclose(r.attacker_win, r.defender_win, abs_tol=1e-12)
    r = odds(ED, {"infantry": 3}, {"infantry": 3})
    assert r.defender_win > 0.8


def test_empty_defence_is_an_attacker_win() -> None:
    r = odds(ED, {"infantry": 1}, {})
    check(r, F(1), F(0), F(0))


# --------------------------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize(("att", "dfd", "kw", "fragment"), [
    ({"tank": 1}, {"destroyer": 1}, {}, "tank cannot fight at sea"),
    ({"infantry": 1}, {"infantry": 1}, {"space": "Sea Zone 5"}, "infantry cannot fight at sea"),
    ({"battleship": 1}, {"infantry": 1}, {"space": "Ukraine"}, "battleship cannot fight in a"),
    ({"destroyer": 1}, {"bomber": 1, "aircraft carrier": 1}, {}, "bomber cannot defend at sea"),
    ({"destroyer": 1}, {"fighter": 3, "aircraft carrier": 1}, {}, "carriers with room"),
    ({"transport": 2}, {"destroyer": 1}, {}, "cannot fire (no attack value): transport (UT-1)"),
    ({}, {"destroyer": 1}, {}, "No attacking units"),
    ({"infantry": 1}, {"industrial complex": 1}, {}, "takes no part in battles (UL-4)"),
    ({"infantry": 1}, {"infantry": 1}, {"space": "Atlantis"}, "Unknown space"),
    ({"infantry": 1}, {"infantry": 1}, {"space": "Ukraine", "sea": True}, "is a territory"),
    ({"infantry": -1}, {"infantry": 1}, {}, "Bad count"),
    ({"zeppelin": 1}, {"infantry": 1}, {}, "Unknown unit"),
])
def test_refusals(att: dict[str, int], dfd: dict[str, int], kw: dict[str, Any],
                  fragment: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        odds(ED, att, dfd, **kw)
    assert fragment in str(info.value)


# --------------------------------------------------------------------------------------------
# The casualty order against rules/combat.py


def _brute_best_total(caps: list[int], cats: tuple[int, int, int]) -> tuple[int, int]:
    """combat._best_total as written there: the largest total with a vector that fits."""
    for total in range(min(sum(caps), sum(cats)), -1, -1):
        ts = [v[3] for v in _vectors(caps, total) if _flow_ok(cats, v)]
        if ts:
            return total, min(ts)
    return 0, 0


def test_best_total_closed_form_matches_the_search() -> None:
    rnd = random.Random(3)
    for _ in range(2000):
        caps = [rnd.randint(0, 4) for _ in range(4)]
        cats = (rnd.randint(0, 4), rnd.randint(0, 4), rnd.randint(0, 4))
        assert _best_total(caps, cats) == _brute_best_total(caps, cats), (caps, cats)


def test_flow_ok_matches_combat() -> None:
    """The closed form against the maximum flow rules/combat.py searched before the battle
    model stated the constraints once (now tests/rules/test_battle_model.py::_search_flow)."""
    rnd = random.Random(4)
    for _ in range(2000):
        counts = [rnd.randint(0, 4) for _ in range(4)]
        cats = (rnd.randint(0, 4), rnd.randint(0, 4), rnd.randint(0, 4))
        theirs = _search_flow(cats, counts) == sum(counts)
        assert _flow_ok(cats, counts) == theirs, (counts, cats)


def _battle_state(sea: bool, dfd: dict[str, int], damaged: int) -> GameState:
    space = "Sea Zone 6" if sea else "Ukraine"
    att = {"destroyer": 1} if sea else {"infantry": 1}
    units = {space: {UK if sea else GER: att, GER if sea else SU: dfd}}
    pos = position(UK if sea else GER, "conduct_combat", units,
                   owners={} if sea else {"Ukraine": SU})
    s = engine.replay(engine.new_game("1941", (), pos))
    # Damage set directly: a position's "damaged" is cleared by the TurnStarted that follows.
    bbs = [u for u in s.units.values() if u.type == "battleship" and u.owner == GER][:damaged]
    return replace(s, units=s.with_units(replace(u, damage=1) for u in bbs))


def _after_choice(s: GameState, space: str, side: str, cats: tuple[int, int, int],
                  hits: int) -> dict[tuple[str, int], int]:
    b = s.battles[space]
    b = replace(b, owed=((side, hits),), owed_cats=cats, step="casualties")
    lost, dmg = combat.default_choice(s, b, side)
    ids = dict.fromkeys(b.attacking if side == "attacker" else b.defending)  # no duplicates
    out: dict[tuple[str, int], int] = {}
    for i in ids:
        u = s.units[i]
        if i in lost:
            continue
        left = ED.units[u.type].hits - u.damage - (1 if i in dmg else 0)
        out[(u.type, left)] = out.get((u.type, left), 0) + 1
    return out


def _model_after(side: _Side, role: int, sea: bool, st: tuple[int, ...],
                 cats: tuple[int, int, int]) -> dict[tuple[str, int], int]:
    other = _Side(ED, 1 - role, {"destroyer": 1} if sea else {"infantry": 1}, sea, ())
    model = _Model(side, other, sea) if role == ATT else _Model(other, side, sea)
    new = model.assign(role, st, cats)
    return {(k.type, k.hp): n for k, n in zip(side.kinds, new, strict=True) if n}


def test_default_casualties_match_combat_default_choice_at_sea() -> None:
    """Random defending fleets and hits of every category: the model's casualties are those
    combat.default_choice picks (H-2, H-3, H-4, H-6, H-7, transports last)."""
    rnd = random.Random(1941)
    for _ in range(60):
        dfd = {t: rnd.randint(0, 2) for t in
               ("battleship", "aircraft carrier", "destroyer", "submarine", "transport")}
        dfd["fighter"] = rnd.randint(0, 2 * dfd["aircraft carrier"])
        dfd = {t: n for t, n in dfd.items() if n}
        if not dfd:
            continue
        damaged = rnd.randint(0, dfd.get("battleship", 0))
        s = _battle_state(True, dfd, damaged)
        side = _Side(ED, DEF, dfd, True, ())
        st = list(side.start)
        if damaged:
            st[side.index[("battleship", 2)]] -= damaged
            st[side.index[("battleship", 1)]] += damaged
        for _ in range(4):
            cats = (rnd.randint(0, 3), rnd.randint(0, 3), rnd.randint(0, 3))
            caps = [0, 0, 0, 0]
            for k, n in zip(side.kinds, st, strict=True):
                caps[k.cls] += n * k.hp
            hits = min(sum(cats), _best_total(caps, cats)[0])
            if hits == 0:
                continue
            want = _after_choice(s, "Sea Zone 6", "defender", cats, hits)
            assert _model_after(side, DEF, True, tuple(st), cats) == want, (dfd, damaged, cats)


def test_default_casualties_match_combat_default_choice_on_land() -> None:
    """Attacking land forces keep their last land unit; air units go before it."""
    rnd = random.Random(41)
    for _ in range(40):
        att = {t: rnd.randint(0, 3) for t in ("infantry", "tank", "fighter", "bomber")}
        att = {t: n for t, n in att.items() if n}
        if not att:
            continue
        g = Game(position(GER, "conduct_combat", {"Ukraine": {GER: att, SU: {"infantry": 1}}},
                          owners={"Ukraine": SU}))
        side = _Side(ED, ATT, att, False, ())
        for hits in range(1, sum(att.values()) + 1):
            want = _after_choice(g.state, "Ukraine", "attacker", (hits, 0, 0), hits)
            assert _model_after(side, ATT, False, side.start, (hits, 0, 0)) == want, (att, hits)


# --------------------------------------------------------------------------------------------
# Monte Carlo


def test_splitmix64_is_deterministic_and_uniform_enough() -> None:
    a, b = SplitMix64(7), SplitMix64(7)
    xs = [a.random() for _ in range(10000)]
    assert xs == [b.random() for _ in range(10000)]
    assert all(0 <= x < 1 for x in xs)
    assert abs(sum(xs) / len(xs) - 0.5) < 0.01
    assert SplitMix64(8).random() != xs[0]


@pytest.mark.parametrize(("att", "dfd"), [
    ({"infantry": 3, "tank": 2, "fighter": 1, "bomber": 1}, {"infantry": 5, "tank": 1}),
    ({"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1},
     {"aircraft carrier": 1, "fighter": 2, "submarine": 2, "transport": 1}),
])
def test_monte_carlo_agrees_with_exact_within_its_error_bar(att: dict[str, int],
                                                            dfd: dict[str, int]) -> None:
    exact = odds(ED, att, dfd)
    mc = odds(ED, att, dfd, method="monte carlo", samples=4000, seed=11)
    assert mc.method == "monte carlo" and mc.trials == 4000
    assert mc.std_error is not None and mc.half_width_95 is not None
    assert mc.half_width_95 == pytest.approx(1.959963984540054 * mc.std_error)
    n = 4000
    for x, y in ((mc.attacker_win, exact.attacker_win), (mc.defender_win, exact.defender_win),
                 (mc.draw, exact.draw)):
        se = math.sqrt(y * (1 - y) / n)
        assert abs(x - y) <= 4 * se + 1e-9, (x, y)
    assert odds(ED, att, dfd, method="monte carlo", samples=500, seed=11) == odds(
        ED, att, dfd, method="monte carlo", samples=500, seed=11)


def test_large_battle_switches_to_monte_carlo() -> None:
    att = {"battleship": 2, "destroyer": 3, "submarine": 4, "fighter": 3, "bomber": 2}
    dfd = {"aircraft carrier": 2, "fighter": 4, "submarine": 4, "destroyer": 2, "transport": 3}
    r = odds(ED, att, dfd, max_states=200, samples=800)
    assert r.method == "monte carlo" and r.trials == 800 and r.states == 0
    assert r.half_width_95 is not None and 0 < r.half_width_95 < 0.05
    assert "Monte Carlo, 800 battles" in summary(r)
    # The caller's own generator may drive it.
    rng = random.Random(5)
    r2 = odds(ED, att, dfd, method="monte carlo", samples=300, uniform=rng.random)
    assert r2.trials == 300


def test_exact_is_fast_for_ordinary_battles() -> None:
    """The bench battles stay exact within the default state limit."""
    land = odds(ED, {"infantry": 8, "tank": 4, "fighter": 2, "bomber": 1},
                {"infantry": 8, "tank": 2, "fighter": 2})
    sea = odds(ED, {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2},
               {"battleship": 2, "destroyer": 2, "submarine": 1})
    assert land.method == sea.method == "exact"
    assert land.states < 1000 and sea.states < 1000


def test_summary_text() -> None:
    r = odds(ED, {"infantry": 3, "tank": 1}, {"infantry": 2})
    text = summary(r)
    assert text.startswith("Attacker wins ")
    assert "(exact)" in text and "Expected survivors: attacker " in text
    assert "tank" in text and "defender " in text


# --------------------------------------------------------------------------------------------
# Agreement with the real combat code: seeded battles fought by rules.engine


def _attack_state(att: dict[str, int], dfd: dict[str, int], sea: bool) -> tuple[GameState, str]:
    """The state after Combat Move: the attacker moved in, the battle is open."""
    if not sea:
        g = Game(position(GER, "combat_move", {"Eastern Europe": {GER: att}, "Ukraine": {SU: dfd}},
                          owners={"Ukraine": SU}))
        g.move(att, "Eastern Europe", "Ukraine")
        g.end()
        return g.state, "Ukraine"
    ships = {t: n for t, n in att.items() if ED.units[t].domain == "sea"}
    air = {t: n for t, n in att.items() if ED.units[t].domain == "air"}
    g = Game(position(UK, "combat_move", {"Sea Zone 7": {UK: ships}, "United Kingdom": {UK: air},
                                          "Sea Zone 6": {GER: dfd}}))
    if ships:
        g.move(ships, "Sea Zone 7", "Sea Zone 6")
    if air:
        g.move(air, "United Kingdom", "Sea Zone 6")
    g.end()
    return g.state, "Sea Zone 6"


RESULT = {"attacker": "attacker", "defender": "defender", "retreat": "defender",
          "both destroyed": "draw", "no combat": "draw"}


def _simulate(att: dict[str, int], dfd: dict[str, int], sea: bool, n: int,
              key: str) -> tuple[dict[str, int], dict[str, list[int]], dict[str, list[int]]]:
    s, space = _attack_state(att, dfd, sea)
    b = s.battles[space]
    att_ids, dfd_ids = set(b.attacking + b.seaborne), set(b.defending)  # fighters: listed twice
    wins = {"attacker": 0, "defender": 0, "draw": 0}
    surv_a: dict[str, list[int]] = {t: [] for t in att}
    surv_d: dict[str, list[int]] = {t: [] for t in dfd}
    for i in range(n):
        evs = fight_to_the_end(s, space, HmacDice(f"{key}-{i}".encode(), game="odds"))
        gone = {x for e in evs if isinstance(e, ev.UnitsRemoved) for x in e.ids}
        end = [e for e in evs if isinstance(e, ev.BattleEnded) and e.space == space][-1]
        wins[RESULT[end.result]] += 1
        for ids, surv in ((att_ids, surv_a), (dfd_ids, surv_d)):
            for typ in surv:
                surv[typ].append(sum(1 for x in ids if x not in gone and s.units[x].type == typ))
    return wins, surv_a, surv_d


def _agree(att: dict[str, int], dfd: dict[str, int], sea: bool, n: int, key: str) -> None:
    """Win/lose/draw frequencies within 4 standard errors of the exact odds, and the mean
    survivors per unit type within 4 standard errors (+3/n) of their expectation."""
    r = odds(ED, att, dfd, sea=sea)
    assert r.method == "exact"
    wins, surv_a, surv_d = _simulate(att, dfd, sea, n, key)
    for name, p in (("attacker", r.attacker_win), ("defender", r.defender_win),
                    ("draw", r.draw)):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(wins[name] / n - p) <= 4 * se + 1e-9, (name, wins[name] / n, p, se)
    for surv, want in ((surv_a, r.attacker_survivors), (surv_d, r.defender_survivors)):
        for typ, xs in surv.items():
            mean = sum(xs) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
            # 3/n: room for rare events that did not happen at all in n battles (sd 0)
            assert abs(mean - want[typ]) <= 4 * sd / math.sqrt(n) + 3 / n, (typ, mean, want[typ])


N_SIM = 800  # battles per comparison (~2 s each): 4 standard errors are at most 7.1 points


def test_exact_odds_agree_with_the_engine_land() -> None:
    _agree({"infantry": 3, "tank": 2, "fighter": 1, "bomber": 1}, {"infantry": 4, "tank": 1,
                                                                   "fighter": 1},
           False, N_SIM, "land")


def test_exact_odds_agree_with_the_engine_land_air_and_last_land_unit() -> None:
    _agree({"infantry": 1, "fighter": 2}, {"infantry": 3}, False, N_SIM, "land2")


def test_exact_odds_agree_with_the_engine_surface_fleet() -> None:
    """Battleships (two hits), a carrier with fighters defending, destroyers, a transport."""
    _agree({"battleship": 1, "destroyer": 2, "fighter": 1},
           {"battleship": 1, "aircraft carrier": 1, "fighter": 2, "destroyer": 1,
            "transport": 1}, True, N_SIM, "fleet")


def test_exact_odds_agree_with_the_engine_subs_facing_destroyers() -> None:
    """Destroyers on both sides: submarines fire with everybody; air hits subs (H-3)."""
    _agree({"destroyer": 1, "submarine": 2, "fighter": 1},
           {"destroyer": 1, "submarine": 2, "transport": 1}, True, N_SIM, "dd-subs")


def test_exact_odds_agree_with_the_engine_surprise_strikes() -> None:
    """No destroyer on either side: every round starts with both sides' surprise strikes."""
    _agree({"submarine": 3, "aircraft carrier": 1},
           {"submarine": 2, "aircraft carrier": 1, "fighter": 2, "transport": 1},
           True, N_SIM, "strike")


def test_exact_odds_agree_with_the_engine_destroyer_lost_mid_battle() -> None:
    """The attacker's destroyer holds off the defending subs' strike until it sinks (CC-5);
    fighters can hit subs only while it lives (H-3)."""
    _agree({"destroyer": 1, "fighter": 2, "submarine": 1},
           {"submarine": 3, "transport": 2}, True, N_SIM, "dd-lost")


# --------------------------------------------------------------------------------------------
# Bounds (issue 13 item 12, issue 12 item 8): work is counted, not time, so these are exact.


def test_odds_bounded_999_infantry_against_999_answered_within_the_work_budget() -> None:
    """The question that took 222 s and 1.7 GB: now Monte Carlo within both budgets."""
    r = odds(ED, {"infantry": 999}, {"infantry": 999})
    assert r.method == "monte carlo" and r.states == 0
    assert r.work <= DEFAULT_MAX_WORK + DEFAULT_MC_WORK
    assert r.trials is not None and 1000 <= r.trials < DEFAULT_SAMPLES
    assert r.defender_win > 0.999  # 999 dice at 1 against 999 at 2
    text = summary(r)
    assert f"(Monte Carlo, {r.trials:,} battles, ±" in text
    assert odds(ED, {"infantry": 999}, {"infantry": 999}) == r  # the same work, the same answer


def test_odds_bounded_refuses_more_units_than_the_limit_and_names_it() -> None:
    with pytest.raises(InvalidOrder) as info:
        odds(ED, {"infantry": 600, "tank": 401}, {"infantry": 3})
    assert str(info.value) == (
        "Too many units for the odds: the attacker has 1,001; the limit is 1,000 units a side, "
        "so that every answer comes within a few seconds. Ask about a part of the battle.")
    assert MAX_UNITS == 1000
    with pytest.raises(InvalidOrder, match="the defender has 5,000; the limit is 1,000"):
        odds(ED, {"infantry": 3}, {"infantry": 5000})


def test_odds_bounded_exact_gives_way_to_monte_carlo_by_counted_work() -> None:
    att, dfd = {"infantry": 30}, {"infantry": 30}
    assert odds(ED, att, dfd).method == "exact"  # within the default budget
    r = odds(ED, att, dfd, max_work=1_000, samples=300)  # the exact method needs ~1,900 steps
    assert r.method == "monte carlo" and r.trials == 300
    assert r.work > 1_000  # the exact attempt's steps are counted too
    assert r.work <= 1_000 + DEFAULT_MC_WORK
    assert r == odds(ED, att, dfd, max_work=1_000, samples=300)


def test_odds_bounded_monte_carlo_stops_at_its_work_budget_with_its_error_bar() -> None:
    att, dfd = {"infantry": 150, "tank": 60}, {"infantry": 200}
    r = odds(ED, att, dfd, method="monte carlo", mc_work=60_000)
    assert r.trials is not None and 0 < r.trials < DEFAULT_SAMPLES
    assert r.work <= 60_000
    assert r.half_width_95 is not None and r.half_width_95 > 0
    assert f"Monte Carlo, {r.trials:,} battles" in summary(r)
    with pytest.raises(InvalidOrder) as info:
        odds(ED, att, dfd, method="monte carlo", mc_work=50)
    assert str(info.value) == (
        "This battle is too big for the odds: not one simulated battle fits in the budget of "
        "50 steps. Ask about a part of the battle.")


@pytest.mark.parametrize(("n", "value"), [(1, 1), (7, 2), (40, 5), (999, 1), (3000, 4)])
def test_odds_bounded_binomial_draw_has_the_binomial_distribution(n: int, value: int) -> None:
    """The Monte Carlo draws one binomial per group of dice by inversion from the mode: the
    share of uniforms in [0, 1) mapped to each count is that count's probability."""
    p = value / 6
    grid = 20_000
    counts: dict[int, int] = {}
    for i in range(grid):
        k, steps = _binomial_draw(n, p, (i + 0.5) / grid)
        assert 0 <= k <= n and steps >= 1
        counts[k] = counts.get(k, 0) + 1
    for k, c in counts.items():
        pmf = math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                       + k * math.log(p) + (n - k) * math.log(1 - p))
        assert abs(c / grid - pmf) <= 1.5 / grid, (n, value, k)
    assert _binomial_draw(0, p, 0.5) == (0, 1) and _binomial_draw(5, 1.0, 0.5) == (5, 1)
