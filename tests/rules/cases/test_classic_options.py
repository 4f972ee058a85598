"""Classic optional rules of Appendix IV offered as game options (digest §9: O-2, O-3, O-5),
each a change of rule switches in edition.json ("option_rules")."""

from __future__ import annotations

from typing import Any

from rules import engine, tech
from rules import orders as od
from rules.edition import load_edition
from rules.mechanisms.research import Research, TechnologyDeveloped
from tests.rules.helpers import Game, position

GER, JPN, UK, RUS = "Germany", "Japan", "United Kingdom", "Russia"
MED = "Central Mediterranean Sea Zone"


def game(option: str, power: str = GER, phase: str = "purchase",
         units: dict[str, Any] | None = None, **extra: Any) -> Game:
    return Game(position(power, phase, units, edition="classic", **extra), options=(option,))


def test_options_are_the_editions_data() -> None:
    ed = load_edition("classic")
    assert {"naval_placement", "weapons_advantage", "no_new_complexes"} <= set(ed.rules.options)
    assert ed.check() == []
    assert ed.ruleset() == ed.rules.rules  # no option: the edition's switches


def test_O_3_weapons_development_advantage() -> None:
    """O-3: Germany starts with Jet Power, Japan with Super Submarines; nobody else."""
    g = game("weapons_advantage", phase="research")
    assert g.state.techs == {GER: ("jet_power",), JPN: ("super_submarines",)}
    assert tech.defense(g.state, GER, "fighter") == 5
    assert tech.attack(g.state, JPN, "submarine") == 3
    assert engine.replay(g.events).techs == g.state.techs
    # R-TEC-04: a development die naming Jet Power is re-rolled for Germany.
    g.script(6, 1, 2)
    evs = g.do(Research(dice=1))
    assert isinstance(evs[-1], TechnologyDeveloped) and evs[-1].tech == "rockets"


def test_O_3_off_by_default() -> None:
    g = Game(position(GER, "research", edition="classic"))
    assert g.state.techs == {}


def test_O_5_no_new_complexes() -> None:
    g = game("no_new_complexes")
    g.refuse(od.Buy(units={"industrial complex": 1}), "No industrial complex may be bought", "O-5")
    g.do(od.Buy(units={"antiaircraft gun": 1}))


def test_O_5_A_17_captured_original_complexes_still_produce() -> None:
    g = game("no_new_complexes", owners={"Karelia S.S.R.": GER})
    g.do(od.Buy(units={"infantry": 2}))
    while g.state.phase != "mobilize":
        g.end()
    g.do(od.Place(units={"infantry": 2}, space="Karelia S.S.R."))


def test_O_2_ships_may_be_placed_in_a_zone_with_enemy_units() -> None:
    """O-2 relaxes R-PLC-02: no battle follows."""
    g = game("naval_placement", units={MED: {UK: {"submarine": 1}}})
    g.do(od.Buy(units={"transport": 1}))
    while g.state.phase != "mobilize":
        g.end()
    g.do(od.Place(units={"transport": 1}, space=MED))
    assert g.units(MED, GER) == {"transport": 1} and g.units(MED, UK) == {"submarine": 1}
    g.end()
    assert g.state.power == UK and not g.state.battles


def test_R_PLC_02_without_the_option_the_zone_must_be_free() -> None:
    g = Game(position(GER, "purchase", {MED: {UK: {"submarine": 1}}}, edition="classic"))
    g.do(od.Buy(units={"transport": 1}))
    while g.state.phase != "mobilize":
        g.end()
    g.refuse(od.Place(units={"transport": 1}, space=MED), "R-PLC-02")
