"""The odds calculator for Axis & Allies Classic (rules/odds.py, digest §6): hand-computed
battles for each Classic rule, refusals, developments, the order text, and the exact odds
against an independent, straightforward simulation of the digest's rules and against 800
seeded battles of the real combat code per scenario (AA fire, submarines, bombardment,
developments).

Every Classic behaviour comes from the edition's data and rule switches: one-hit battleships,
transports that defend at 1 and are ordinary casualties, first strikes for attacking
submarines only (RuleSet.sub_first_strike), aircraft that hit submarines, AA fire before round
1 (``anti_air``), bombardment (``bombard`` with RuleSet.bombardment), developments (rules.tech).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction as F

import pytest

from odds.ask import (
    OddsResult,
    battle_forces,
    battle_odds,
    game_developments,
    odds,
    summary,
)
from odds.core import Model as _Model
from odds.core import Side as _Side
from rules import engine
from rules import events as ev
from rules.battle.model import ATT, DEF
from rules.dice import HmacDice
from rules.edition import load_edition
from rules.errors import InvalidOrder
from rules.state import GameState
from service.language import Odds, names_for, parse
from tests.rules.helpers import Game, fight_to_the_end, position
from tests.rules.test_odds import RESULT

ED = load_edition("classic")
A1941 = load_edition("a1941")
LAND, SEA = "Karelia S.S.R.", "North Sea Zone"
EPS = 1e-12


def close(x: float, y: F | float) -> bool:
    return abs(x - float(y)) < EPS


def check(r: OddsResult, att: F, dfd: F, both: F, stale: F = F(0)) -> None:
    assert close(r.attacker_win, att), (r.attacker_win, float(att))
    assert close(r.defender_win, dfd), (r.defender_win, float(dfd))
    assert close(r.both_destroyed, both), (r.both_destroyed, float(both))
    assert close(r.stalemate, stale), r.stalemate
    assert r.method == "exact"


# --------------------------------------------------------------------------------------------
# Units (§5): one-hit battleships, transports at 1


def test_R_NAV_battleship_takes_one_hit() -> None:
    """§5.1 'every unit is destroyed by one hit': bb vs bb, 4/6 each, fired together:
    (2/9, 2/9, 4/9) out of 8/9."""
    r = odds(ED, {"battleship": 1}, {"battleship": 1})
    check(r, F(1, 4), F(1, 4), F(1, 2))


def test_R_TRP_05_transport_defends_at_1_and_is_not_destroyed_at_once() -> None:
    """A lone transport fires back at 1 (in 1941 it would be sunk at once): fighter 1/2 against
    1/6 per round: (5/12, 1/12, 1/12) out of 7/12."""
    r = odds(ED, {"fighter": 1}, {"transport": 1}, space=SEA)
    check(r, F(5, 7), F(1, 7), F(1, 7))
    assert close(r.expected_rounds, F(12, 7))


def test_R_TRP_05_transports_are_ordinary_casualties_cheapest_first() -> None:
    """No 'chosen last': the first hit on a battleship and a transport sinks the transport."""
    dfd = _Side(ED, DEF, {"battleship": 1, "transport": 1}, True, ())
    model = _Model(_Side(ED, ATT, {"fighter": 1}, True, ()), dfd, True)
    left = model.assign(DEF, dfd.start, (1, 0, 0))
    assert {k.type: n for k, n in zip(dfd.kinds, left, strict=True) if n} == {"battleship": 1}


# --------------------------------------------------------------------------------------------
# Submarines (R-SUB, R-NC)


def test_R_SUB_02_attacking_sub_strikes_first_and_its_victim_does_not_fire() -> None:
    """1 sub vs 1 transport: the strike sinks it 1/3 without return fire; else the transport
    fires at 1: won 1/3, lost 2/3 * 1/6, repeated 5/9: 3/4 against 1/4."""
    check(odds(ED, {"submarine": 1}, {"transport": 1}), F(3, 4), F(1, 4), F(0))


def test_R_SUB_02_every_round_against_a_defending_sub() -> None:
    """Sub vs sub: the attacker strikes first every round (1/3), the defender's sub fires only
    if it is still there (1/3): 3/5 against 2/5, never both destroyed."""
    check(odds(ED, {"submarine": 1}, {"submarine": 1}), F(3, 5), F(2, 5), F(0))


def test_R_SUB_06_defending_subs_fire_with_everybody() -> None:
    """Battleship vs sub: no first strike for the defender (1941 would strike first): fired
    together, 4/6 and 2/6: (4/9, 1/9, 2/9) out of 7/9."""
    check(odds(ED, {"battleship": 1}, {"submarine": 1}), F(4, 7), F(1, 7), F(2, 7))
    # The switch, not the edition: 1941's submarines strike first when defending (SS-5).
    assert odds(A1941, {"battleship": 1}, {"submarine": 1}).both_destroyed < 0.2


def test_R_SUB_03_subs_never_hit_aircraft() -> None:
    """A sub under fighters from a carrier: the strike sinks only the carrier; the fighters
    stay (R-AIR-10) and sink the sub."""
    r = odds(ED, {"submarine": 1}, {"aircraft carrier": 1, "fighter": 2})
    check(r, F(0), F(1), F(0))
    assert close(r.defender_survivors["fighter"], 2)


def test_R_SUB_04_aircraft_hit_submarines() -> None:
    """Aircraft can hit subs (the digest's best reading of the sentence on aircraft; 1941 needs
    a destroyer: a stalemate there)."""
    r = odds(ED, {"fighter": 1}, {"submarine": 1})
    check(r, F(1), F(0), F(0))
    assert close(r.expected_rounds, 2)
    assert odds(A1941, {"fighter": 1}, {"submarine": 1}).stalemate == 1


def test_R_SUB_02_super_submarines_strike_at_3() -> None:
    """R-TEC-05 Super Submarines: attack 3: strike 1/2, else the transport 1/6: 6/7, 1/7."""
    r = odds(ED, {"submarine": 1}, {"transport": 1}, attacker_techs=["super_submarines"])
    check(r, F(6, 7), F(1, 7), F(0))
    assert r.attacker_developments == ("Super Submarines",) and not r.defender_developments
    assert "developments: attacker Super Submarines" in summary(r)
    # A defending sub keeps its defence 2: the development changes nothing there.
    same = odds(ED, {"battleship": 1}, {"submarine": 1}, defender_techs=["super_submarines"])
    assert same.defender_developments == () and close(same.attacker_win, F(4, 7))


# --------------------------------------------------------------------------------------------
# AA fire before round 1 (R-LC-02, R-AAG-03/04, A-04)


def test_R_LC_02_AA_fire_before_round_1() -> None:
    """1 fighter vs 1 infantry + AA gun: the fighter survives the AA die 5/6, then fighter
    (1/2) against infantry (1/3) goes (1/2, 1/4, 1/4): attacker 5/12, defender 1/6 + 5/24,
    both 5/24; the AA gun is never a casualty."""
    r = odds(ED, {"fighter": 1}, {"infantry": 1, "antiaircraft gun": 1}, space=LAND)
    check(r, F(5, 12), F(3, 8), F(5, 24))
    assert r.aa_fire and "AA fire at the attacking aircraft before round 1" in summary(r)
    assert r.defender_survivors["antiaircraft gun"] == 1
    assert close(r.expected_rounds, F(5, 4))  # 5/6 of battles reach the rounds, 3/2 each
    assert r.attacker_captures == 0


def test_A_04_AA_hits_take_the_cheapest_aircraft_and_fire_once() -> None:
    """Fighter (12) goes before bomber (15) (A-04: the attacker chooses, cheapest first); the
    guns fire once however many are listed (R-AAG-01). Against 1 infantry, from the AA dice
    alone: the fighter is lost on any hit, the bomber only on two."""
    r = odds(ED, {"infantry": 1, "fighter": 1, "bomber": 1}, {"infantry": 1,
                                                                "antiaircraft gun": 2})
    two = odds(ED, {"infantry": 1, "fighter": 1, "bomber": 1}, {"infantry": 1,
                                                                  "antiaircraft gun": 1})
    assert r.attacker_survivors == two.attacker_survivors and r.attacker_win == two.attacker_win
    assert r.defender_survivors["antiaircraft gun"] == 2
    model = _Model(_Side(ED, ATT, {"infantry": 1, "fighter": 1, "bomber": 1}, False, ()),
                   _Side(ED, DEF, {"infantry": 1, "antiaircraft gun": 1}, False, ()), False)
    kinds = model.sides[ATT].kinds
    after = {tuple(k.type for k, n in zip(kinds, st, strict=True) if n): p
             for st, p in model.aa_fire(model.sides[ATT].start).items()}
    assert after == pytest.approx({("infantry", "fighter", "bomber"): 25 / 36,
                                   ("infantry", "bomber"): 10 / 36, ("infantry",): 1 / 36})
    # A standing order may send the bomber first.
    model = _Model(_Side(ED, ATT, {"infantry": 1, "fighter": 1, "bomber": 1}, False,
                         ("bomber",)),
                   _Side(ED, DEF, {"infantry": 1, "antiaircraft gun": 1}, False, ()), False)
    kinds = model.sides[ATT].kinds
    assert {frozenset(k.type for k, n in zip(kinds, st, strict=True) if n)
            for st in model.aa_fire(model.sides[ATT].start)} == {
        frozenset({"infantry", "fighter", "bomber"}), frozenset({"infantry", "fighter"}),
        frozenset({"infantry"})}


def test_A_05_a_gun_alone_is_no_battle() -> None:
    """A territory held only by an AA gun falls to the land units that enter, without a
    battle, so the gun does not fire (A-05, R-AAG-04; rules/combat.py opens no battle)."""
    r = odds(ED, {"infantry": 1, "fighter": 1}, {"antiaircraft gun": 1})
    check(r, F(1), F(0), F(0))
    assert not r.aa_fire and r.attacker_survivors["fighter"] == 1 and r.expected_rounds == 0


def test_R_LC_02_no_AA_fire_without_aircraft_or_gun() -> None:
    r = odds(ED, {"infantry": 1}, {"infantry": 1, "antiaircraft gun": 1})
    assert not r.aa_fire
    check(r, F(1, 4), F(5, 8), F(1, 8))
    assert not odds(ED, {"fighter": 1}, {"infantry": 1}).aa_fire


def test_R_LC_02_AA_fire_alone_can_end_the_battle() -> None:
    """Aircraft only, all shot down: the attacker is destroyed before round 1."""
    r = odds(ED, {"bomber": 1}, {"infantry": 1, "antiaircraft gun": 1})
    # 1/6 shot down; else bomber 4/6 vs infantry 2/6: (4/9, 1/9, 2/9) out of 7/9.
    check(r, F(5, 6) * F(4, 7), F(1, 6) + F(5, 6) * F(1, 7), F(5, 6) * F(2, 7))


# --------------------------------------------------------------------------------------------
# Bombardment (R-AMP-05/06)


def test_R_AMP_05_bombardment_in_round_1_only() -> None:
    """1 infantry + 1 battleship vs 1 infantry: round 1 hits with 1 - 5/6 * 2/6 = 13/18 and the
    casualty still fires (1/3); after a blank round 1 (10/54) it is infantry against infantry
    (1/4, 5/8, 1/8): attacker 19/36, defender 5/24, both 19/72."""
    r = odds(ED, {"infantry": 1, "battleship": 1}, {"infantry": 1})
    assert not r.sea and r.bombarding == 1
    check(r, F(19, 36), F(5, 24), F(19, 72))
    assert close(r.expected_rounds, F(17, 12))
    assert r.attacker_survivors["battleship"] == 1  # never a target (R-AMP-06)
    assert "bombardment by 1 ship in round 1" in summary(r)


def test_R_AMP_06_battleships_do_not_count_as_attackers() -> None:
    """When the infantry dies the attack has failed, whatever the battleship did."""
    r = odds(ED, {"infantry": 1, "battleship": 2}, {"infantry": 1}, space=LAND)
    assert r.defender_win > 0 and r.bombarding == 2
    assert r.attacker_win == r.attacker_captures


def test_R_AMP_05_not_in_1941() -> None:
    """Without the bombardment rule a battleship and infantry make a refused sea battle."""
    with pytest.raises(InvalidOrder, match="infantry cannot fight at sea"):
        odds(A1941, {"infantry": 1, "battleship": 1}, {"infantry": 1})


# --------------------------------------------------------------------------------------------
# Developments (R-TEC-05/06)


def test_R_TEC_05_heavy_bombers_roll_three_dice() -> None:
    """1 bomber with three dice at 4 vs 1 infantry: hits 26/27 against 1/3:
    (52/81, 1/81, 26/81) out of 79/81."""
    r = odds(ED, {"bomber": 1}, {"infantry": 1}, attacker_techs=["heavy_bombers"])
    check(r, F(52, 79), F(1, 79), F(26, 79))


def test_R_TEC_05_jet_power_defends_at_5() -> None:
    """Fighter vs jet fighter: 1/2 against 5/6: (1/12, 5/12, 5/12) out of 11/12."""
    r = odds(ED, {"fighter": 1}, {"fighter": 1}, defender_techs=["jet_power"])
    check(r, F(1, 11), F(5, 11), F(5, 11))
    assert r.defender_developments == ("Jet Power",)
    # R-TEC-06: the attacker's jets change nothing (attack unchanged): 1/2 against 4/6.
    plain = odds(ED, {"fighter": 1}, {"fighter": 1}, attacker_techs=["jet_power"])
    assert plain.attacker_developments == ()
    check(plain, F(1, 5), F(2, 5), F(2, 5))


def test_R_TEC_06_developments_in_a_game_belong_to_their_powers() -> None:
    s = engine.replay(engine.new_game("classic", (), position(
        "Germany", "combat_move", {"Karelia S.S.R.": {"Russia": {"infantry": 2}},
                                   "Eastern Europe": {"Germany": {"bomber": 1}}},
        edition="classic")))
    s = replace(s, techs={"Germany": ("heavy_bombers",), "Russia": ("jet_power",),
                          "Japan": ("super_submarines",)})
    assert game_developments(s, "Karelia S.S.R.") == (("heavy_bombers",), ("jet_power",))
    assert game_developments(s, None) == (("heavy_bombers",), ())
    # An empty territory: its owner defends.
    assert s.owners["Caucasus"] == "Russia"
    assert game_developments(s, "Caucasus") == (("heavy_bombers",), ("jet_power",))
    # A German space: nobody on the other side defends it.
    assert game_developments(s, "Ukraine S.S.R.") == (("heavy_bombers",), ())


def test_R_TEC_06_an_open_battle_names_its_attacker_and_largest_defender() -> None:
    g = Game(position("Germany", "combat_move", {
        "Karelia S.S.R.": {"Russia": {"infantry": 2}, "United Kingdom": {"fighter": 3}},
        "Eastern Europe": {"Germany": {"bomber": 1}}}, edition="classic"))
    g.move({"bomber": 1}, "Eastern Europe", "Karelia S.S.R.")
    g.end()
    s = replace(g.state, techs={"Germany": ("heavy_bombers",), "Russia": ("super_submarines",),
                                "United Kingdom": ("jet_power",)})
    assert s.battles["Karelia S.S.R."].defenders == ("Russia", "United Kingdom")
    assert game_developments(s, "Karelia S.S.R.") == (("heavy_bombers",), ("jet_power",))


def test_R_TEC_05_unknown_development() -> None:
    with pytest.raises(InvalidOrder, match="Unknown weapons development 'lasers'"):
        odds(ED, {"bomber": 1}, {"infantry": 1}, attacker_techs=["lasers"])
    with pytest.raises(InvalidOrder, match="none in this edition"):
        odds(A1941, {"fighter": 1}, {"infantry": 1}, attacker_techs=["jet_power"])


# --------------------------------------------------------------------------------------------
# Refusals


@pytest.mark.parametrize(("att", "dfd", "kw", "fragment"), [
    ({"antiaircraft gun": 1, "infantry": 1}, {"infantry": 1}, {}, "never attacks (R-AAG-01)"),
    ({"battleship": 2}, {"infantry": 1}, {"space": LAND}, "Ships alone cannot attack"),
    ({"transport": 1, "infantry": 1}, {"infantry": 1}, {"space": LAND},
     "transport cannot fight in a territory (R-TRP-01)"),
    ({"battleship": 1}, {"infantry": 1, "antiaircraft gun": 1}, {"space": SEA},
     "cannot fight at sea"),
    ({"fighter": 1}, {"bomber": 1, "aircraft carrier": 1}, {}, "bomber cannot defend at sea"),
    ({"transport": 1}, {"submarine": 1}, {}, "cannot fire (no attack value): transport"),
    ({"infantry": 1}, {"industrial complex": 1}, {}, "takes no part in battles (R-IC-01)"),
])
def test_refusals(att: dict[str, int], dfd: dict[str, int], kw: dict[str, str],
                  fragment: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        odds(ED, att, dfd, **kw)  # type: ignore[arg-type]
    assert fragment in str(info.value)


# --------------------------------------------------------------------------------------------
# The order text (service/language.py)


def test_odds_order_with_developments_and_an_AA_gun() -> None:
    names = names_for("classic")
    assert parse("odds 2 bombers, 2 inf vs 3 inf, 1 aa gun in karelia with heavy bombers",
                 names) == Odds(attackers={"bomber": 2, "infantry": 2},
                                defenders={"infantry": 3, "antiaircraft gun": 1},
                                space="Karelia S.S.R.", developments=("heavy_bombers",))
    assert parse("odds 2 sub with super subs vs 2 tt, 1 bb with jets", names) == Odds(
        attackers={"submarine": 2}, defenders={"transport": 2, "battleship": 1},
        developments=("super_submarines", "jet_power"))
    with pytest.raises(InvalidOrder, match="Unknown weapons development 'lasers'"):
        parse("odds 1 inf vs 1 inf with lasers", names)
    with pytest.raises(InvalidOrder, match="no weapons developments"):
        parse("odds 1 inf vs 1 inf with jets", names_for("a1941"))


# --------------------------------------------------------------------------------------------
# Monte Carlo against exact, with the steps before round 1


def test_monte_carlo_agrees_with_exact_with_AA_fire_and_bombardment() -> None:
    att = {"infantry": 3, "tank": 1, "fighter": 2, "bomber": 1, "battleship": 1}
    dfd = {"infantry": 4, "tank": 1, "fighter": 1, "antiaircraft gun": 1}
    exact = odds(ED, att, dfd, attacker_techs=["heavy_bombers"])
    n = 4000
    mc = odds(ED, att, dfd, attacker_techs=["heavy_bombers"], method="monte carlo", samples=n,
              seed=5)
    assert exact.aa_fire and mc.aa_fire and exact.bombarding == mc.bombarding == 1
    for x, y in ((mc.attacker_win, exact.attacker_win), (mc.defender_win, exact.defender_win),
                 (mc.draw, exact.draw)):
        assert abs(x - y) <= 4 * math.sqrt(y * (1 - y) / n) + 1e-9, (x, y)
    assert abs(mc.expected_rounds - exact.expected_rounds) < 0.1


# --------------------------------------------------------------------------------------------
# Against an independent simulation of the digest's rules (§6), written plainly: unit by unit,
# die by die, casualties cheapest first (the defender's choice, A-04 for AA hits).


def _cost(t: str) -> int:
    return ED.units[t].cost or 0


def _lose(units: list[str], hits: int, *, ships_only: bool = False,
          keep_land: bool = False) -> list[str]:
    """The units left after ``hits``: cheapest first (lower value first on equal costs);
    ``ships_only``: submarine hits (R-SUB-02/03); ``keep_land``: the attacker keeps a land unit
    to occupy (§10 example 5)."""
    order = sorted(units, key=lambda t: (_cost(t), ED.units[t].defense, t))
    if keep_land:
        land = [t for t in order if ED.units[t].domain == "land"]
        if land:
            order.remove(land[-1])
            order.append(land[-1])
    left = list(order)
    for t in order:
        if hits <= 0:
            break
        if ships_only and ED.units[t].domain != "sea":
            continue
        left.remove(t)
        hits -= 1
    return left


def _roll(rng: random.Random, value: int, dice: int = 1) -> int:
    return sum(1 for _ in range(dice) if rng.randint(1, 6) <= value)


def _classic_battle(rng: random.Random, att: dict[str, int], dfd: dict[str, int], sea: bool,
                    heavy: bool = False) -> tuple[str, list[str], list[str]]:
    a = [t for t, n in att.items() for _ in range(n)]
    d = [t for t, n in dfd.items() for _ in range(n) if t != "antiaircraft gun"]
    ships = [] if sea else [t for t in a if ED.units[t].domain == "sea"]
    a = [t for t in a if t not in ships]
    if not sea and "antiaircraft gun" in dfd:  # R-LC-02: once, before round 1
        air = sorted((t for t in a if ED.units[t].domain == "air"), key=_cost)
        for t in air[: sum(_roll(rng, 1) for _ in air)]:
            a.remove(t)
    for rnd in range(1000):
        if not a:
            return ("defender" if d else "draw"), a, d
        if not d:
            return "attacker", a, d
        if sea:  # R-NC-02/03: attacking subs strike, their victims leave at once
            subs = sum(_roll(rng, ED.units[t].attack) for t in a if t == "submarine")
            d = _lose(d, subs, ships_only=True)
            if not d:
                return "attacker", a, d
        hits = sum(_roll(rng, ED.units[t].attack, 3 if heavy and t == "bomber" else 1)
                   for t in a if not (sea and t == "submarine"))
        if rnd == 0:
            hits += sum(_roll(rng, ED.units[t].attack) for t in ships)  # R-AMP-05
        # R-CBT-03: the defender fires with everything, casualties included.
        sub_hits = sum(_roll(rng, ED.units[t].defense) for t in d if t == "submarine")
        other = sum(_roll(rng, ED.units[t].defense) for t in d if t != "submarine")
        a = _lose(a, sub_hits, ships_only=True)
        a = _lose(a, other, keep_land=not sea)
        d = _lose(d, hits)
    return "draw", a, d


@pytest.mark.parametrize(("att", "dfd", "sea", "heavy"), [
    ({"infantry": 2, "tank": 1, "fighter": 2, "bomber": 1},
     {"infantry": 3, "tank": 1, "antiaircraft gun": 1}, False, False),
    ({"submarine": 3, "fighter": 1}, {"transport": 2, "battleship": 1}, True, False),
    ({"infantry": 2, "tank": 1, "battleship": 2}, {"infantry": 3, "fighter": 1}, False, False),
    ({"infantry": 1, "bomber": 2}, {"infantry": 3, "antiaircraft gun": 1}, False, True),
])
def test_exact_odds_agree_with_a_plain_simulation_of_the_digest(
        att: dict[str, int], dfd: dict[str, int], sea: bool, heavy: bool) -> None:
    r = odds(ED, att, dfd, sea=sea, attacker_techs=["heavy_bombers"] if heavy else [])
    assert r.method == "exact"
    rng = random.Random(f"{sorted(att)}{sorted(dfd)}")
    n = 4000
    wins = {"attacker": 0, "defender": 0, "draw": 0}
    surv: dict[str, float] = {}
    for _ in range(n):
        how, _a, left = _classic_battle(rng, att, dfd, sea, heavy)
        wins[how] += 1
        for t in left:
            surv[t] = surv.get(t, 0) + 1 / n
    for name, p in (("attacker", r.attacker_win), ("defender", r.defender_win),
                    ("draw", r.draw)):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(wins[name] / n - p) <= 4 * se + 1e-9, (name, wins[name] / n, p)
    for t, want in r.defender_survivors.items():
        if t != "antiaircraft gun":
            assert abs(surv.get(t, 0) - want) < 0.06, (t, surv.get(t, 0), want)


def test_big_battle_with_AA_fire_goes_to_monte_carlo_by_its_work() -> None:
    """The aircraft the AA gun may shoot down multiply the states; the work budget (joint
    transitions) hands such battles to Monte Carlo, which models the same steps."""
    att = {"infantry": 6, "tank": 3, "fighter": 3, "bomber": 2}
    dfd = {"infantry": 6, "tank": 2, "fighter": 2, "antiaircraft gun": 1}
    r = odds(ED, att, dfd, max_work=2000, samples=500)
    assert r.method == "monte carlo" and r.trials == 500 and r.aa_fire
    exact = odds(ED, att, dfd)
    assert exact.method == "exact"
    se = math.sqrt(exact.attacker_win * (1 - exact.attacker_win) / 500)
    assert abs(r.attacker_win - exact.attacker_win) <= 4 * se + 1e-9
    with pytest.raises(InvalidOrder, match="max_work"):
        odds(ED, att, dfd, max_work=0)


# --------------------------------------------------------------------------------------------
# Agreement with the real combat code: seeded battles fought by rules.engine (DESIGN §9)

GER, UK, SU = "Germany", "United Kingdom", "Russia"


def _classic_state(att: dict[str, int], dfd: dict[str, int], kind: str,
                   techs: dict[str, tuple[str, ...]] | None = None) -> tuple[GameState, str]:
    """The state with the battle open: ``kind`` "land" (Germany attacks Karelia from Eastern
    Europe), "sea" (the United Kingdom attacks German ships in the North Sea Zone) or
    "amphibious" (British infantry lands in Western Europe from the North Sea Zone, where the
    battleships stay to bombard)."""
    if kind == "land":
        g = Game(position(GER, "combat_move", {"Eastern Europe": {GER: att}, LAND: {SU: dfd}},
                          edition="classic"))
        g.move(att, "Eastern Europe", LAND)
        space = LAND
    elif kind == "sea":
        ships = {t: n for t, n in att.items() if ED.units[t].domain == "sea"}
        air = {t: n for t, n in att.items() if ED.units[t].domain == "air"}
        g = Game(position(UK, "combat_move", {"East Canada Sea Zone": {UK: ships},
                                              "United Kingdom": {UK: air}, SEA: {GER: dfd}},
                          edition="classic"))
        if ships:
            g.move(ships, "East Canada Sea Zone", SEA)
        if air:
            g.move(air, "United Kingdom", SEA)
        space = SEA
    else:
        land = {t: n for t, n in att.items() if ED.units[t].domain == "land"}
        ships = {t: n for t, n in att.items() if ED.units[t].domain == "sea"}
        cargo = {**ships, "transport": (sum(land.values()) + 1) // 2, **land}
        g = Game(position(UK, "combat_move", {SEA: {UK: cargo}, "Western Europe": {GER: dfd}},
                          edition="classic"))
        g.move(land, SEA, "Western Europe")
        space = "Western Europe"
    g.end()
    s = g.state
    if techs:
        s = replace(s, techs=techs)
    return s, space


def _engine(s: GameState, space: str, n: int, key: str
            ) -> tuple[dict[str, int], dict[str, list[int]], dict[str, list[int]]]:
    b = s.battles[space]
    att_ids = set(b.attacking) | set(b.seaborne) | set(b.bombarding)
    dfd_ids = {u.id for u in s.units_in(space) if s.enemy(u.owner, b.attacker)
               and not ED.units[u.type].abilities.factory}
    wins = {"attacker": 0, "defender": 0, "draw": 0}
    surv_a: dict[str, list[int]] = {}
    surv_d: dict[str, list[int]] = {}
    for ids, surv in ((att_ids, surv_a), (dfd_ids, surv_d)):
        for i in ids:
            surv[s.units[i].type] = []
    for i in range(n):
        evs = fight_to_the_end(s, space, HmacDice(f"{key}-{i}".encode(), game="odds"))
        gone = {x for e in evs if isinstance(e, ev.UnitsRemoved) for x in e.ids}
        end = [e for e in evs if isinstance(e, ev.BattleEnded) and e.space == space][-1]
        wins[RESULT[end.result]] += 1
        for ids, surv in ((att_ids, surv_a), (dfd_ids, surv_d)):
            for typ in surv:
                surv[typ].append(sum(1 for x in ids if x not in gone and s.units[x].type == typ))
    return wins, surv_a, surv_d


def _agree_engine(att: dict[str, int], dfd: dict[str, int], kind: str, key: str,
                  techs: dict[str, tuple[str, ...]] | None = None, n: int = 800) -> OddsResult:
    """As tests/rules/test_odds.py::_agree: outcomes within 4 standard errors of the exact odds
    (the developments as ``game_developments`` finds them), mean survivors per type within 4
    standard errors (+3/n)."""
    s, space = _classic_state(att, dfd, kind, techs)
    a_t, d_t = game_developments(s, space)
    r = odds(ED, att, dfd, space=space, attacker_techs=a_t, defender_techs=d_t)
    assert r.method == "exact"
    wins, surv_a, surv_d = _engine(s, space, n, key)
    for name, p in (("attacker", r.attacker_win), ("defender", r.defender_win),
                    ("draw", r.draw)):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(wins[name] / n - p) <= 4 * se + 1e-9, (name, wins[name] / n, p, se)
    for surv, want in ((surv_a, r.attacker_survivors), (surv_d, r.defender_survivors)):
        for typ, xs in surv.items():
            if typ == "transport" and typ not in want:
                continue  # the landing's transports: not in the battle (R-AMP-08)
            mean = sum(xs) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
            assert abs(mean - want[typ]) <= 4 * sd / math.sqrt(n) + 3 / n, (typ, mean, want[typ])
    return r


def test_R_LC_02_exact_odds_agree_with_the_engine_AA_gun_and_aircraft() -> None:
    r = _agree_engine({"infantry": 3, "tank": 1, "fighter": 2, "bomber": 1},
                      {"infantry": 4, "tank": 1, "antiaircraft gun": 1}, "land", "aa")
    assert r.aa_fire


def test_R_SUB_02_exact_odds_agree_with_the_engine_subs_against_transports_and_bb() -> None:
    _agree_engine({"submarine": 3, "fighter": 1}, {"transport": 2, "battleship": 1}, "sea",
                  "subs")


def test_R_NC_exact_odds_agree_with_the_engine_fleet_with_carrier() -> None:
    _agree_engine({"battleship": 1, "submarine": 2, "fighter": 1},
                  {"aircraft carrier": 1, "fighter": 2, "transport": 1}, "sea", "fleet")


def test_R_AMP_05_exact_odds_agree_with_the_engine_bombardment() -> None:
    r = _agree_engine({"infantry": 4, "battleship": 2}, {"infantry": 3, "tank": 1},
                      "amphibious", "bombard")
    assert r.bombarding == 2


def test_R_TEC_05_exact_odds_agree_with_the_engine_developments() -> None:
    r = _agree_engine({"infantry": 2, "bomber": 2}, {"infantry": 3, "fighter": 1},
                      "land", "techs", {GER: ("heavy_bombers",), SU: ("jet_power",)})
    assert r.attacker_developments == ("Heavy Bombers",)
    assert r.defender_developments == ("Jet Power",)


def test_R_SUB_06_exact_odds_agree_with_the_engine_defending_subs_fire_normally() -> None:
    _agree_engine({"submarine": 2, "battleship": 1},
                  {"submarine": 2, "aircraft carrier": 1, "fighter": 1}, "sea", "def-subs")


def test_R_LC_02_R_AMP_05_battle_odds_take_the_guns_and_the_bombarding_ships() -> None:
    """The battle board's odds (service/images.py) come from the open battle: the AA gun that
    fires before round 1 and the battleships that bombard are in, the transports are not
    (R-AMP-08); standing casualty orders and developments count."""
    s, space = _classic_state({"infantry": 3, "fighter": 2},
                              {"infantry": 2, "antiaircraft gun": 1}, "land")
    assert battle_forces(s, space) == ({"infantry": 3, "fighter": 2},
                                       {"infantry": 2, "antiaircraft gun": 1})
    r = battle_odds(s, space)
    assert r.aa_fire and r == odds(ED, {"infantry": 3, "fighter": 2},
                                   {"infantry": 2, "antiaircraft gun": 1}, space=space)
    s, space = _classic_state({"infantry": 2, "battleship": 1}, {"infantry": 1}, "amphibious")
    assert battle_forces(s, space) == ({"infantry": 2, "battleship": 1}, {"infantry": 1})
    assert battle_odds(s, space).bombarding == 1
    s = replace(s, techs={UK: ("heavy_bombers",)}, standing={GER: ("infantry",)})
    assert battle_odds(s, space) == odds(ED, {"infantry": 2, "battleship": 1}, {"infantry": 1},
                                         space=space, attacker_techs=["heavy_bombers"],
                                         defender_order=["infantry"])


def test_R_TRP_05_exact_odds_agree_with_the_engine_attacking_transports_as_casualties() -> None:
    """Attacking transports do not fire but may be taken as casualties, cheapest first."""
    _agree_engine({"battleship": 1, "transport": 2, "fighter": 1},
                  {"submarine": 2, "aircraft carrier": 1, "fighter": 1}, "sea", "att-tt")
