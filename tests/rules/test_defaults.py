"""Default answers for absent players (deadlines): they are legal and move the game on."""

from __future__ import annotations

from rules import orders as od
from rules.defaults import default_orders
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
