"""Europe 1940 odds (odds/ask.py) with the edition's units and rules: combined arms,
AA guns, two-hit carriers; the combat agrees die for die (tests/rules/test_battle_agreement.py)."""

from __future__ import annotations

import pytest

from odds.ask import odds
from tests.rules.e40._battles import E40


def test_CA_1_CA_4_odds_an_infantry_paired_with_artillery_attacks_as_an_artillery() -> None:
    """CA-1: 1 artillery and 1 infantry attack as 2 artillery would (both at 2); the infantry,
    cheaper, is lost first, after which the artillery attacks alone at 2 (CA-4)."""
    paired = odds(E40, {"artillery": 1, "infantry": 1}, {"infantry": 2})
    two = odds(E40, {"artillery": 2}, {"infantry": 2})
    assert paired.method == two.method == "exact"
    assert paired.attacker_win == pytest.approx(two.attacker_win, abs=1e-12)
    assert paired.defender_win == pytest.approx(two.defender_win, abs=1e-12)
    alone = odds(E40, {"infantry": 2}, {"infantry": 2})
    assert alone.attacker_win < paired.attacker_win


def test_CA_3_odds_no_support_on_defence() -> None:
    """CA-3: defending artillery raises nobody: the defence is the same as two infantry's."""
    with_art = odds(E40, {"tank": 2}, {"artillery": 1, "infantry": 1})
    without = odds(E40, {"tank": 2}, {"infantry": 2})
    assert with_art.attacker_win == pytest.approx(without.attacker_win, abs=1e-12)


def test_A_21_odds_AA_dice_min_of_three_per_gun_and_the_aircraft() -> None:
    """§16.1 / §22.12: one AA gun fires 3 dice at 5 fighters: the chance that it hits none is
    (5/6)^3, after which the fighters fight on."""
    from odds.core import Model, Side
    from rules.battle.model import ATT, DEF

    for guns, dice in ((1, 3), (2, 5)):
        att = Side(E40, ATT, {"fighter": 5}, False, ())
        dfd = Side(E40, DEF, {"infantry": 1, "aa gun": guns}, False, ())
        model = Model(att, dfd, False)
        assert model.aa and model.aa_dice(att.start) == dice
        after = model.aa_fire(att.start)
        assert after[att.start] == pytest.approx((5 / 6) ** dice)
    r = odds(E40, {"fighter": 5}, {"infantry": 1, "aa gun": 1})
    assert r.aa_fire and r.method == "exact"


def test_CC_3_odds_AA_guns_alone_no_battle_and_destroyed() -> None:
    """CC-3 / A-21: a territory held only by AA guns is taken without combat: no AA fire, the
    attacker wins, the guns are destroyed."""
    r = odds(E40, {"infantry": 1, "fighter": 1}, {"aa gun": 2})
    assert r.attacker_win == 1.0 and not r.aa_fire
    assert r.attacker_survivors == {"infantry": 1.0, "fighter": 1.0}
    assert r.defender_survivors.get("aa gun", 0.0) == 0.0


def test_GC_2_GC_10_odds_AA_gun_a_casualty_at_0_and_lost_when_alone() -> None:
    """GC-2: an AA gun defends at 0 and takes a hit like any unit; GC-10: once it is all that is
    left, the attacker wins and it is destroyed (it never survives a win)."""
    plain = odds(E40, {"infantry": 2}, {"infantry": 1})
    first = odds(E40, {"infantry": 2}, {"infantry": 1, "aa gun": 1}, defender_order=["aa gun"])
    assert first.attacker_win < plain.attacker_win  # the gun absorbs a hit
    # Cheapest first: the infantry goes first, and then the battle is over (GC-10); where both
    # sides' last fighting units fall together, the gun holds the territory (CO-1).
    r = odds(E40, {"infantry": 2}, {"infantry": 1, "aa gun": 1})
    assert r.attacker_win == pytest.approx(plain.attacker_win)
    assert r.defender_win == pytest.approx(plain.defender_win + plain.draw)
    assert r.defender_survivors["aa gun"] == pytest.approx(r.defender_win)


def test_16_3_odds_carriers_take_two_hits() -> None:
    """§16.3: a carrier (defence 2) takes 2 hits: a destroyer (attack 2) must hit it twice
    while surviving; by hand, with p = q = 1/3 a round, the attacker wins (p(1-q)/(1-(1-p)(1-q)))
    squared, both are destroyed when the last hits cross."""
    p = q = 2 / 6
    go = 1 - (1 - p) * (1 - q)
    first = p * (1 - q) / go  # the first hit, the destroyer alive
    r = odds(E40, {"destroyer": 1}, {"aircraft carrier": 1})
    assert r.method == "exact"
    assert r.attacker_win == pytest.approx(first * first)
    assert r.both_destroyed == pytest.approx(first * p * q / go)
