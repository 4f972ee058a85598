"""Europe 1940 odds (rules/battle/odds.py) with the edition's units and rules: combined arms,
AA guns, two-hit carriers; the combat agrees die for die (tests/rules/test_battle_agreement.py)."""

from __future__ import annotations

import pytest

from rules.battle.odds import odds
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
