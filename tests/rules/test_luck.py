"""The luck report (rules/luck.py) and its order (`luck [space]`), with hand-computed numbers."""

from __future__ import annotations

import math

import pytest

from rules import orders as od
from rules.edition import load_edition
from rules.errors import InvalidOrder
from rules.luck import Luck, battle_luck, game_luck, luck_text, roll_luck
from service.language import CommandAdapter, names_for, parse
from service.language import Luck as LuckOrder
from tests.rules.helpers import Game, position

ED = load_edition("a1941")
GER, SU, UK = "Germany", "Soviet Union", "United Kingdom"


def test_roll_luck_by_hand() -> None:
    """3 tanks at 3 roll 1,4,3 (2 hits, expected 3 * 1/2); 2 infantry at 1 roll 1,2 (1 hit,
    expected 2 * 1/6): 3 hits, expected 11/6, variance 3/4 + 10/36 = 37/36."""
    luck = roll_luck([("tank", 3, (1, 4, 3)), ("infantry", 1, (1, 2))])
    assert luck.dice == 5 and luck.rolled == 3
    assert luck.expected == pytest.approx(11 / 6)
    assert luck.variance == pytest.approx(37 / 36)
    assert luck.difference == pytest.approx(7 / 6)
    assert luck.z == pytest.approx(7 / math.sqrt(37))
    assert (luck + luck).dice == 10 and (luck + luck).expected == pytest.approx(22 / 6)
    assert Luck().z == 0.0 and roll_luck([]) == Luck()


def two_battles() -> Game:
    """Germany attacks Ukraine (Soviet infantry) and Karelia (Soviet and British infantry)."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 3, "infantry": 1}},
        "Ukraine": {SU: {"infantry": 3}},
        "Karelia": {SU: {"infantry": 1}, UK: {"infantry": 1}},
    }, owners={"Ukraine": SU, "Karelia": SU}))
    g.move({"tank": 2, "infantry": 1}, "Eastern Europe", "Ukraine")
    g.move({"tank": 1}, "Eastern Europe", "Karelia")
    g.end()
    # Ukraine, round 1: tanks 3,4 (1 hit) and infantry 1 (1 hit); defence 2,6,6 (1 hit).
    # The defender loses 2 infantry, the attacker its infantry (it keeps a land unit anyway).
    # Round 2: tanks 1,5 (1 hit); the last infantry rolls 4 (miss). Attacker wins.
    g.script(3, 4, 1, 2, 6, 6, 1, 5, 4)
    g.do(od.Battle(space="Ukraine", all=True))
    # Karelia: the tank rolls 1 (hit); the two infantry roll 3, 2 (1 hit): both lose a unit,
    # one defender is left.
    g.script(1, 3, 2)
    g.do(od.Battle(space="Karelia", all=True))
    return g


def test_battle_luck_per_side_by_hand() -> None:
    g = two_battles()
    ukraine, karelia = battle_luck(g.events)
    assert (ukraine.space, ukraine.round, ukraine.attacker, ukraine.defenders) == (
        "Ukraine", 1, GER, (SU,))
    assert ukraine.result == "attacker" and ukraine.rounds == 2
    # attacker: 5 dice (tanks 4 at 1/2, infantry 1 at 1/6), 3 hits, expected 2 + 1/6
    assert (ukraine.attacking.dice, ukraine.attacking.rolled) == (5, 3)
    assert ukraine.attacking.expected == pytest.approx(13 / 6)
    # defender: 4 infantry dice at 2/6, 1 hit, expected 4/3
    assert (ukraine.defending.dice, ukraine.defending.rolled) == (4, 1)
    assert ukraine.defending.expected == pytest.approx(4 / 3)
    assert ukraine.defending.variance == pytest.approx(4 * (1 / 3) * (2 / 3))
    assert karelia.defenders == (SU, UK) and karelia.defenders_label == f"{SU} + {UK}"
    assert (karelia.attacking.dice, karelia.attacking.rolled) == (1, 1)
    assert karelia.attacking.expected == pytest.approx(1 / 2)
    assert (karelia.defending.dice, karelia.defending.rolled) == (2, 1)
    assert karelia.defending.expected == pytest.approx(2 / 3)
    assert [b.space for b in battle_luck(g.events, "Karelia")] == ["Karelia"]


def test_game_luck_per_power_and_side() -> None:
    report = game_luck(two_battles().events, ED)
    assert list(report.powers) == [SU, f"{SU} + {UK}", GER]  # turn order of the first power
    ger = report.powers[GER]
    assert (ger.dice, ger.rolled) == (6, 4) and ger.expected == pytest.approx(8 / 3)
    su = report.powers[SU]
    assert (su.dice, su.rolled) == (4, 1) and su.expected == pytest.approx(4 / 3)
    assert report.sides["Axis"] == ger
    allies = report.sides["Allies"]
    assert (allies.dice, allies.rolled) == (6, 2) and allies.expected == pytest.approx(2)
    only = game_luck(two_battles().events, ED, space="Karelia")
    assert len(only.battles) == 1 and only.powers[GER].dice == 1
    assert game_luck([], ED).battles == ()
    doc = report.to_json()
    assert doc["sides"]["Allies"]["rolled"] == 2  # type: ignore[index]


def test_luck_text() -> None:
    report = game_luck(two_battles().events, ED)
    text = luck_text(report)
    assert "Round 1, Ukraine (Germany attacking, attacker won): Germany 3 hits from 5 dice, " \
           "expected 2.2 (+0.8, z +0.8); Soviet Union 1 hit from 4 dice, expected 1.3 " \
           "(-0.3, z -0.4)." in text
    assert "Soviet Union + United Kingdom 1 hit from 2 dice" in text
    assert "Per side: Axis 4 hits from 6 dice" in text
    assert luck_text(game_luck([], ED), "Ukraine") == "No battles in Ukraine yet: no dice to judge."


def test_parse_luck() -> None:
    names = names_for("a1941")
    assert parse("luck", names) == LuckOrder()
    assert parse("luck ukraine", names) == LuckOrder(space="Ukraine")
    assert parse("Luck sz5", names) == LuckOrder(space="Sea Zone 5")
    with pytest.raises(InvalidOrder):
        parse("luck Atlantis", names)
    cmd = parse("luck e europe", names)
    assert CommandAdapter.validate_json(CommandAdapter.dump_json(cmd)) == cmd
