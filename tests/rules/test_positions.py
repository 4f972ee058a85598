"""Position files (docs/positions.md): the whole state, names as orders read them, and 'state'
loading back as a position (issue 13 item 10)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import engine
from rules import orders as od
from rules.errors import InvalidOrder
from service.describe import status_lines
from tests.rules.helpers import Game

GER, UK, RUS = "Germany", "United Kingdom", "Russia"


def classic(**extra: Any) -> dict[str, Any]:
    pos: dict[str, Any] = {"edition": "classic", "power": GER, "phase": "purchase",
                           "clear_all_units": True,
                           "units": {"Germany": {GER: {"infantry": 1}}}}
    pos.update(extra)
    return pos


def test_position_techs_and_debts_classic() -> None:
    """A Classic position gives developments (by name, id or alias) and a debt; the game plays
    with them (Industrial Technology's discount, the debt paid from the next income, R-SBR-05)
    and 'state' and 'game status' show them."""
    g = Game(classic(treasury={GER: 10}, techs={"germany": ["Industrial Technology", "jets"]},
                     debts={"Germany": 4}))
    doc = g.json
    assert doc["techs"] == {GER: ["industrial_technology", "jet_power"]}
    assert doc["debts"] == {GER: 4}
    lines = status_lines(g.state)
    assert "Weapons developments: Germany Industrial Technology, Jet Power." in lines
    assert "Owed to the bank (from its next income): Germany 4." in lines
    g.do(od.Buy(units={"tank": 2}))
    assert g.state.treasury[GER] == 2  # 2 tanks at 5 - 1 (R-TEC-06)
    g.end()  # purchase
    g.end()  # combat move; no battle, so combat passes
    g.end()  # noncombat move
    g.do(od.Place(units={"tank": 2}, space="Germany"))
    income = g.state.income()[GER]
    g.end()  # mobilize; the referee collects income
    assert g.state.power != GER
    assert g.state.treasury[GER] == 2 + income - 4
    assert g.json["debts"] == {}
    assert g.json["techs"] == {GER: ["industrial_technology", "jet_power"]}


def test_position_names_accept_order_aliases_classic() -> None:
    """Names in a position are read as orders read them: Classic's board spellings
    ('West Europe', 'Anglo Sudan Egypt'), power and unit short forms, phase names."""
    g = Game(classic(phase="Combat Move", power="germany",
                     owners={"Anglo Sudan Egypt": "uk"},
                     units={"West Europe": {"Germany": {"inf": 2, "tanks": 1}},
                            "Anglo Sudan Egypt": {"UK": {"infantry": 1}}}))
    assert g.state.phase == "combat_move" and g.state.power == GER
    assert g.units("Western Europe", GER) == {"infantry": 2, "tank": 1}
    assert g.units("Anglo-Egyptian Sudan", UK) == {"infantry": 1}
    started = g.events[0]
    assert started.position is not None  # type: ignore[attr-defined]
    assert "Western Europe" in started.position["units"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"units": {"Wset Europe": {GER: {"infantry": 1}}}},
         "Position units: Unknown space 'Wset Europe'. Did you mean: Western Europe"),
        ({"techs": {GER: ["death ray"]}}, "Position techs of Germany: Unknown weapons "
                                          "development 'death ray'"),
        ({"debts": {GER: -1}}, "Position debts: Germany -1"),
        ({"phase": "lunch"}, "Unknown phase 'lunch'. Phases: research (Weapons Development)"),
        ({"units": {"Germany": {GER: {"infantry": 1}, "germany": {"tank": 1}}}},
         "'Germany' and 'germany' both name Germany"),
        ({"damaged": {"Germany": {GER: {"infantry": 1}}}},
         "Position damaged: infantry in Germany is lost at its first hit; no unit of"),
        ({"income": {GER: 99}}, "Position income: Germany 99, but the territories it holds give"),
        ({"winner": "Axis"}, "winner must be null"),
    ],
)
def test_position_refusals_name_the_key(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOrder) as info:
        engine.new_game("classic", (), classic(**extra))
    assert message in str(info.value)


def test_position_techs_refused_where_there_is_no_research() -> None:
    with pytest.raises(InvalidOrder, match=r"1941.* has no weapons developments"):
        engine.new_game("1941", (), {"techs": {"Germany": ["jet_power"]}})


def test_position_purchase_damaged_and_standing_1941() -> None:
    """Units bought and not yet placed, a damaged battleship and a standing casualty order are
    given, shown in 'state', and played: the purchase is placed in Mobilize."""
    pos = {"edition": "1941", "power": GER, "phase": "mobilize", "clear_all_units": True,
           "purchase": {"inf": 2},
           "units": {"Germany": {GER: {"infantry": 1}},
                     "sz5": {GER: {"battleship": 1}}},
           "damaged": {"Sea Zone 5": {GER: {"battleship": 1}}},
           "standing": {"germany": ["inf", "battleship"]}}
    g = Game(pos)
    doc = g.json
    assert doc["purchase"] == {"infantry": 2}
    assert doc["damaged"] == {"Sea Zone 5": {GER: {"battleship": 1}}}
    assert doc["standing"] == {GER: ["infantry", "battleship"]}
    assert "Bought this turn: 2 infantry." in status_lines(g.state)
    assert "Damaged: Germany's 1 battleship in Sea Zone 5." in status_lines(g.state)
    g.do(od.Place(units={"infantry": 2}, space="Germany"))
    assert g.units("Germany", GER) == {"infantry": 3, "industrial complex": 1}


def test_state_loads_back_as_a_position() -> None:
    """'state' prints a position: a game started from it has the same state document."""
    g = Game(classic(treasury={GER: 30}, techs={GER: ["rockets"]}, debts={UK: 3},
                     owners={"Eastern Europe": RUS},
                     units={"Germany": {GER: {"infantry": 3, "tank": 1}},
                            "Eastern Europe": {RUS: {"infantry": 1}}}))
    g.do(od.Buy(units={"infantry": 2}))
    g.end()
    g.move({"tank": 1}, "Germany", "Eastern Europe")
    g.end()
    assert g.state.phase == "conduct_combat"
    doc = g.json
    again = Game(doc)
    assert again.json == doc
    assert again.state.battles.keys() == g.state.battles.keys()


def test_documented_position_example_loads() -> None:
    """docs/positions.md: the example position loads and 'state' shows what the page says."""
    import json
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "positions.md").read_text("utf-8")
    example = doc.split("## An example", 1)[1]
    block = example.split("```json", 1)[1].split("```", 1)[0]
    g = Game(json.loads(block))
    shown = json.dumps(g.json, indent=2)
    quoted = example.split("```json", 2)[2].split("```", 1)[0]
    for line in quoted.strip("\n").splitlines():
        assert line in shown.splitlines(), line
    lines = status_lines(g.state)
    assert "Weapons developments: Germany Industrial Technology, Jet Power." in lines
    assert "Owed to the bank (from its next income): Germany 4." in lines
    g.do(od.Buy(units={"tank": 2}))
    assert g.state.treasury[GER] == 2
