"""legal_orders (DESIGN §4): lazy, and everything it lists is accepted; per-phase examples."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rules import engine
from rules import orders as od
from rules.dice import HmacDice
from rules.legal import candidate_orders, legal_orders
from tests.rules.helpers import Game, position

GER, SOV, UK = "Germany", "Soviet Union", "United Kingdom"


def accepted_by_decide(g: Game, orders: list[od.Order]) -> None:
    for o in orders:
        engine.decide(g.state, o, HmacDice(b"other dice than check's"))


def test_legal_orders_is_lazy() -> None:
    g = Game()
    it = legal_orders(g.state, SOV)
    assert isinstance(it, Iterator)
    assert next(it) == od.Buy(power=SOV, units={"infantry": 1})
    assert list(itertools.islice(candidate_orders(g.state, SOV), 2))


def test_purchase_lists_what_the_treasury_affords_and_end() -> None:
    """PU-2 / PU-6: the Soviet Union starts with 7 IPCs."""
    g = Game()
    got = list(legal_orders(g.state, SOV))
    assert got == [od.Buy(power=SOV, units={u: 1}) for u in
                   ("infantry", "tank", "submarine", "transport")] + [od.EndPhase(power=SOV,
                                                                               phase="purchase")]
    g.do(od.Buy(units={"tank": 1}))
    assert od.ClearPurchase(power=SOV) in list(legal_orders(g.state, SOV))


def test_nothing_for_a_power_whose_turn_it_is_not() -> None:
    g = Game()
    assert list(legal_orders(g.state, GER)) == []


def test_combat_moves_end_in_combat_and_are_all_accepted() -> None:
    """CM-4: land units are offered only hostile destinations in Combat Move."""
    g = Game()
    g.end()
    got = list(legal_orders(g.state, SOV))
    moves = [o for o in got if isinstance(o, od.Move)]
    assert od.Move(power=SOV, units={"infantry": 1}, frm="Karelia", to="Norway Finland") in moves
    assert od.Move(power=SOV, units={"infantry": 3}, frm="Karelia", to="Norway Finland") in moves
    land = [o for o in moves if g.state.edition.units[next(iter(o.units))].domain == "land"]
    assert land and all(g.state.owners.get(o.to) != SOV for o in land)
    accepted_by_decide(g, got)


def test_ambiguous_blitz_routes_are_offered_with_via() -> None:
    """CM-25: two empty hostile territories lead to Archangel; each route is listed."""
    g = Game(position(GER, "combat_move", {"Eastern Europe": {GER: {"tank": 1}}},
                      owners={"Ukraine": SOV, "West Russia": SOV}))
    got = [o for o in legal_orders(g.state, GER)
           if isinstance(o, od.Move) and o.to == "Archangel"]
    assert {o.via for o in got} == {("Karelia",), ("West Russia",)}
    accepted_by_decide(g, list(got))


def test_battles_and_the_defenders_casualty_choices() -> None:
    """H-1: the defender chooses its casualties; every listed choice is accepted."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 3}},
        "Ukraine": {SOV: {"infantry": 2, "tank": 1}},
    }, owners={"Ukraine": SOV}))
    g.move({"tank": 3}, "Eastern Europe", "Ukraine")
    g.end()
    assert list(legal_orders(g.state, GER)) == [
        od.Battle(power=GER, space="Ukraine"), od.Battle(power=GER, space="Ukraine", all=True)]
    g.script(1, 1, 6, 6, 6, 6)  # two hits for Germany, the defence misses
    g.do(od.Battle(space="Ukraine"))
    choices = list(legal_orders(g.state, SOV))
    assert {tuple(sorted(o.units.items())) for o in choices if isinstance(o, od.Casualties)} == {
        (("infantry", 2),), (("infantry", 1), ("tank", 1))}
    assert list(legal_orders(g.state, GER)) == []
    accepted_by_decide(g, choices)


def test_mobilize_places_each_waiting_unit_where_it_may_go() -> None:
    """MB-1 / MB-3 / MB-4: a tank goes to the complex, a destroyer to the sea zones next to it."""
    g = Game(position(GER, "purchase", {}, treasury={GER: 20}))
    g.do(od.Buy(units={"tank": 1, "destroyer": 1}))
    while g.state.phase != "mobilize":
        g.end()
    got = list(legal_orders(g.state, GER))
    places = {(next(iter(o.units)), o.space) for o in got if isinstance(o, od.Place)}
    assert ("tank", "Germany") in places and ("destroyer", "Sea Zone 5") in places
    assert ("tank", "Sea Zone 5") not in places and ("destroyer", "Germany") not in places
    # unplaced units would be refunded
    assert od.EndPhase(power=GER, confirm=True, phase="mobilize") in got
    assert od.EndPhase(power=GER, phase="mobilize") not in got
    accepted_by_decide(g, got)


def test_end_confirm_only_when_end_would_forfeit_something() -> None:
    """NC-7: a fighter that attacked a submarine at sea has no carrier there: plain 'end' is
    refused, 'end confirm' is offered; once it flies home only 'end' is offered."""
    g = Game(position(UK, "combat_move", {"United Kingdom": {UK: {"fighter": 1}},
                                          "Sea Zone 7": {GER: {"submarine": 1}}}))
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 7")
    g.end()
    g.do(od.Battle(space="Sea Zone 7", all=True))  # neither side can hit the other
    g.end()
    assert g.state.phase == "noncombat_move"
    got = list(legal_orders(g.state, UK))
    assert [o for o in got if isinstance(o, od.EndPhase)] == [
        od.EndPhase(power=UK, confirm=True, phase="noncombat_move")]
    assert od.Move(power=UK, units={"fighter": 1}, frm="Sea Zone 7", to="United Kingdom") in got
    g.move({"fighter": 1}, "Sea Zone 7", "United Kingdom")
    ends = [o for o in legal_orders(g.state, UK) if isinstance(o, od.EndPhase)]
    assert ends == [od.EndPhase(power=UK, phase="noncombat_move")]
