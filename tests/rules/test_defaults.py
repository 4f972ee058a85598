"""Default answers for absent players (deadlines): they are legal and move the game on."""

from __future__ import annotations

from rules import orders as od
from rules.defaults import default_orders, phase_end_order
from rules.engine import pending
from tests.rules.helpers import Game, position

GER, SU, UK = "Germany", "Soviet Union", "United Kingdom"


def test_default_casualties_press_and_strike_are_accepted() -> None:
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 2, "infantry": 1}},
        "Ukraine": {SU: {"infantry": 1, "tank": 1}},
    }, owners={"Ukraine": SU}))
    g.move({"tank": 2, "infantry": 1}, "Eastern Europe", "Ukraine")
    g.end()
    g.script(1, 6, 6, 6, 6)
    g.do(od.Battle(space="Ukraine"))
    [order] = default_orders(g.state)
    assert isinstance(order, od.Casualties) and order.power == SU
    assert order.units == {"infantry": 1}  # cheapest first
    g.do(order)
    [press] = default_orders(g.state)
    assert isinstance(press, od.Press)
    g2 = Game(position(UK, "combat_move", {"Sea Zone 7": {UK: {"battleship": 1}},
                                           "Sea Zone 6": {GER: {"submarine": 1}}}))
    g2.move({"battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g2.end()
    g2.script()
    g2.do(od.Battle(space="Sea Zone 6"))
    [strike] = default_orders(g2.state)
    assert isinstance(strike, od.Strike) and strike.power == GER
    g2.script(6, 6)
    g2.do(strike)
    assert all(p.what != "submerge or strike" for p in pending(g2.state))


def test_cc_0_the_referee_fights_an_open_battle_before_ending_conduct_combat() -> None:
    """CC-0: combat cannot end with a battle open, so an absent attacker's battle is fought."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 2}},
        "Ukraine": {SU: {"infantry": 1}},
    }, owners={"Ukraine": SU}))
    assert phase_end_order(g.state) == od.EndPhase(power=GER, confirm=True, phase="combat_move")
    g.move({"tank": 2}, "Eastern Europe", "Ukraine")
    g.end()
    assert g.state.phase == "conduct_combat"
    assert phase_end_order(g.state) == od.Battle(power=GER, space="Ukraine")
    g.script(1, 1, 6)
    g.do(od.Battle(space="Ukraine"))
    assert g.state.battles["Ukraine"].step == "done"
    assert phase_end_order(g.state) == od.EndPhase(power=GER, confirm=True,
                                                   phase="conduct_combat")


def test_CC_0_the_referee_fights_amphibious_assaults_first() -> None:
    """CC-0: the referee's order for an absent attacker fights announced amphibious assaults
    (the sea battle that clears the landing first, AA-1) before general combat."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 1, "battleship": 1}},
        "Sea Zone 6": {GER: {"submarine": 1, "destroyer": 1}},
        "Sea Zone 2": {UK: {"destroyer": 1}},
        "Sea Zone 3": {GER: {"destroyer": 1}},
        "Western Europe": {GER: {"infantry": 1}},
    }))
    g.move({"transport": 1, "battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g.move({"infantry": 1}, "Sea Zone 6", "Western Europe")
    g.move({"destroyer": 1}, "Sea Zone 2", "Sea Zone 3")
    g.end()
    assert phase_end_order(g.state) == od.Battle(power=UK, space="Sea Zone 6")
