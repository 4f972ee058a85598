"""Classic purchase and placement of new units (digest §4.1 R-BUY-01..04, §4.5 R-PLC-01..08,
A-12, A-17). Each test is named after its rule ID in the digest."""

from __future__ import annotations

from typing import Any

from rules import events as ev
from rules import legal
from rules import orders as od
from tests.rules.helpers import Game, position

GER, UK, RUS, JPN = "Germany", "United Kingdom", "Russia", "Japan"
AA, IC = "antiaircraft gun", "industrial complex"
BALTIC, MED = "Baltic Sea Zone", "Central Mediterranean Sea Zone"


def bought(power: str, units: dict[str, int], board: dict[str, Any] | None = None,
           **extra: Any) -> Game:
    """``power`` bought ``units`` this turn and is now in Placement (nothing else happened)."""
    g = Game(position(power, "purchase", board, edition="classic", **extra))
    g.do(od.Buy(units=units))
    while g.state.phase != "mobilize":
        g.end()
    return g


def place(g: Game, space: str, **units: int) -> list[ev.Event]:
    return g.do(od.Place(units={k.replace("_", " "): n for k, n in units.items()}, space=space))


def test_R_BUY_02_antiaircraft_guns_and_complexes_can_be_bought() -> None:
    g = Game(position(GER, "purchase", edition="classic"))
    (e,) = g.do(od.Buy(units={AA: 1, IC: 1}))
    assert isinstance(e, ev.UnitsPurchased) and e.cost == 5 + 15


def test_R_BUY_01_only_what_you_can_afford() -> None:
    g = Game(position(GER, "purchase", edition="classic", treasury={GER: 10}))
    g.refuse(od.Buy(units={"fighter": 1}), "costs 12 IPCs", "has 10", "R-BUY-01")


def test_R_PLC_01_land_and_air_units_at_an_own_complex_held_since_the_start() -> None:
    g = bought(GER, {"infantry": 2, "fighter": 1, "bomber": 1}, treasury={GER: 40})
    g.refuse(od.Place(units={"infantry": 1}, space="Western Europe"), "R-PLC-01")
    place(g, "Germany", infantry=2, fighter=1)
    place(g, "Southern Europe", bomber=1)
    assert g.units("Germany", GER) == {IC: 1, "infantry": 2, "fighter": 1}


def test_R_PLC_01_never_at_a_complex_conquered_this_turn() -> None:
    """R-PLC-01 / R-IC-02: Germany takes Karelia (Russian complex) this turn: no placement
    there before its next turn."""
    g = Game(position(GER, "purchase", {"Eastern Europe": {GER: {"infantry": 1}}},
                      edition="classic"))
    g.do(od.Buy(units={"infantry": 1}))
    g.end()
    g.move({"infantry": 1}, "Eastern Europe", "Karelia S.S.R.")
    while g.state.phase != "mobilize":
        g.end()
    assert g.owner("Karelia S.S.R.") == GER
    g.refuse(od.Place(units={"infantry": 1}, space="Karelia S.S.R."),
             "never one taken this turn", "Eligible: Germany, Southern Europe")


def test_R_PLC_04_A_17_captured_complex_is_usable_next_turn_up_to_its_value() -> None:
    """R-IC-02 / R-PLC-04 / A-17: a complex captured on an earlier turn takes as many units as
    its territory's value (Karelia: 3)."""
    g = bought(GER, {"infantry": 4}, owners={"Karelia S.S.R.": GER})
    place(g, "Karelia S.S.R.", infantry=3)
    g.refuse(od.Place(units={"infantry": 1}, space="Karelia S.S.R."),
             "can place 0 more units", "IPC value 3", "R-PLC-04")


def test_R_PLC_04_an_original_complex_has_no_limit() -> None:
    g = bought(GER, {"infantry": 14}, treasury={GER: 42})
    place(g, "Germany", infantry=14)  # Germany's value is 10
    assert g.units("Germany", GER)["infantry"] == 14


def test_R_PLC_04_an_original_complex_recaptured_by_its_owner_is_unlimited_again() -> None:
    g = bought(RUS, {"infantry": 5}, owners={"Karelia S.S.R.": RUS})
    place(g, "Karelia S.S.R.", infantry=5)


def test_R_PLC_04_a_new_complex_in_a_zero_value_territory_takes_one_unit() -> None:
    """R-PLC-04: 'a new complex in a 0-value territory (e.g. Gibraltar) takes 1 unit'."""
    g = bought(UK, {"infantry": 2}, {"Gibraltar": {UK: {IC: 1}}})
    place(g, "Gibraltar", infantry=1)
    g.refuse(od.Place(units={"infantry": 1}, space="Gibraltar"),
             "IPC value 0, at least 1", "R-PLC-04")


def test_R_PLC_04_A_12_ships_placed_off_a_new_complex_count() -> None:
    g = bought(UK, {"infantry": 1, "transport": 1}, {"Gibraltar": {UK: {IC: 1}}})
    place(g, "West Mediterranean Sea Zone", transport=1)
    g.refuse(od.Place(units={"infantry": 1}, space="Gibraltar"), "can place 0 more units")


def test_R_PLC_02_ships_in_an_adjacent_sea_zone_without_enemy_units() -> None:
    g = bought(GER, {"transport": 2}, {MED: {UK: {"submarine": 1}}})
    g.refuse(od.Place(units={"transport": 1}, space=MED), "holds enemy units", "R-PLC-02")
    g.refuse(od.Place(units={"transport": 1}, space="North Sea Zone"),
             "not next to an industrial complex", "R-PLC-02")
    place(g, BALTIC, transport=2)
    assert g.units(BALTIC, GER) == {"transport": 2}


def test_R_PLC_06_no_new_fighters_on_carriers_no_infantry_on_transports() -> None:
    g = bought(GER, {"fighter": 1, "infantry": 1},
               {BALTIC: {GER: {"aircraft carrier": 1, "transport": 1}}})
    g.refuse(od.Place(units={"fighter": 1}, space=BALTIC),
             "never placed on aircraft carriers", "R-PLC-06")
    g.refuse(od.Place(units={"infantry": 1}, space=BALTIC), "never onto transports")


def test_R_PLC_03_a_new_complex_in_a_territory_owned_since_the_start_of_the_turn() -> None:
    """R-PLC-03: Western Europe (German since the start of the turn) takes a new complex; it
    produces from the next turn."""
    g = bought(GER, {IC: 1, "infantry": 1})
    assert od.Place(power=GER, units={IC: 1}, space="Western Europe") in list(
        legal.legal_orders(g.state, GER))
    (e,) = place(g, "Western Europe", industrial_complex=1)
    assert isinstance(e, ev.UnitsPlaced) and e.units[0][1] == IC
    assert g.units("Western Europe", GER) == {IC: 1}
    g.refuse(od.Place(units={"infantry": 1}, space="Western Europe"),
             "cannot place units in Western Europe")


def test_R_PLC_03_one_complex_per_territory_never_in_a_conquest_of_this_turn() -> None:
    g = Game(position(GER, "purchase", {"Eastern Europe": {GER: {"infantry": 1}}},
                      edition="classic", owners={"Ukraine S.S.R.": RUS},
                      treasury={GER: 40}))
    g.do(od.Buy(units={IC: 2, "infantry": 1}))
    g.end()
    g.move({"infantry": 1}, "Eastern Europe", "Ukraine S.S.R.")
    while g.state.phase != "mobilize":
        g.end()
    g.refuse(od.Place(units={IC: 1}, space="Germany"), "already has one", "R-PLC-03")
    g.refuse(od.Place(units={IC: 1}, space="Ukraine S.S.R."),
             "has not held it since the start of its turn", "R-PLC-03")
    g.refuse(od.Place(units={IC: 1}, space="Caucasus"), "does not control it")
    g.refuse(od.Place(units={IC: 2}, space="Western Europe"), "one per territory")
    g.refuse(od.Place(units={IC: 1, "infantry": 1}, space="Western Europe"), "on its own")
    place(g, "Eastern Europe", industrial_complex=1)
    g.refuse(od.Place(units={IC: 1}, space="Eastern Europe"), "already has one")


def test_R_PLC_05_at_most_one_antiaircraft_gun_per_territory() -> None:
    g = bought(GER, {AA: 2}, {"Germany": {GER: {AA: 1}}})
    g.refuse(od.Place(units={AA: 1}, space="Germany"), "at most one per territory", "R-PLC-05")
    g.refuse(od.Place(units={AA: 2}, space="Southern Europe"), "at most one per territory")
    place(g, "Southern Europe", antiaircraft_gun=1)


def test_R_PLC_05_R_PLC_08_an_antiaircraft_gun_with_nowhere_to_go_is_lost() -> None:
    g = bought(GER, {AA: 1}, {"Germany": {GER: {AA: 1}}, "Southern Europe": {GER: {AA: 1}}})
    before = g.state.treasury[GER]
    evs = g.end()  # nothing could be placed: no confirmation needed
    lost = [e for e in evs if isinstance(e, ev.PurchaseLost)]
    assert lost == [ev.PurchaseLost(power=GER, units={AA: 1}, rule="R-PLC-08")]
    assert g.state.treasury[GER] == before + g.state.income()[GER]


def test_R_PLC_08_unplaced_purchases_are_lost_without_refund() -> None:
    g = bought(GER, {"infantry": 2})
    place(g, "Germany", infantry=1)
    g.refuse(od.EndPhase(), "Still waiting to be placed: 1 infantry",
             "'end confirm' to give them up: units not placed are lost, without refund",
             "R-PLC-08")
    money = g.state.treasury[GER]
    evs = g.end(confirm=True)
    assert ev.PurchaseLost(power=GER, units={"infantry": 1}, rule="R-PLC-08") in evs
    assert not any(isinstance(e, ev.PurchaseRefunded) for e in evs)
    assert g.state.treasury[GER] == money + g.state.income()[GER]


def test_R_BUY_03_R_PLC_08_ships_with_every_zone_hostile_are_lost() -> None:
    """R-BUY-03: buying what cannot be placed is allowed; R-PLC-08: it is lost."""
    g = bought(GER, {"submarine": 1},
               {BALTIC: {RUS: {"submarine": 1}}, MED: {UK: {"submarine": 1}}})
    evs = g.end()
    assert ev.PurchaseLost(power=GER, units={"submarine": 1}, rule="R-PLC-08") in evs


def test_R_PLC_07_an_allys_complex_cannot_be_used() -> None:
    g = bought(UK, {"infantry": 1})
    g.refuse(od.Place(units={"infantry": 1}, space="Russia"), "nor an ally's", "R-PLC-01")
    g.refuse(od.Place(units={"infantry": 1}, space="Karelia S.S.R."), "nor an ally's")


def test_R_PLC_07_R_LIB_02_a_complex_liberated_while_the_allys_capital_is_lost() -> None:
    """R-PLC-07 exception: the UK liberated Karelia while Russia was German-held: the UK holds
    it and may use its complex (up to its value, R-PLC-04)."""
    g = bought(UK, {"infantry": 4}, owners={"Russia": GER, "Karelia S.S.R.": UK})
    place(g, "Karelia S.S.R.", infantry=3)
    g.refuse(od.Place(units={"infantry": 1}, space="Karelia S.S.R."), "IPC value 3")


def test_R_PLC_01_placement_orders_are_listed() -> None:
    g = bought(GER, {"infantry": 1, "transport": 1})
    orders = list(legal.legal_orders(g.state, GER))
    assert od.Place(power=GER, units={"infantry": 1}, space="Germany") in orders
    assert od.Place(power=GER, units={"transport": 1}, space=BALTIC) in orders
    assert od.Place(power=GER, units={"infantry": 1}, space=BALTIC) not in orders
