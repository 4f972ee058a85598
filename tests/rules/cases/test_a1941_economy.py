"""Axis & Allies 1941 rulebook cases: purchase (§7), mobilize (§11), income (§12), setup (§17).

Rule IDs cite the digest ``shared/rules/a1941.md``; best readings cite its §18 (A-n). Every test
states exact outcomes: treasuries, placements and their production cap, refunds and events.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.errors import IllegalOrder, InvalidOrder, WrongPhase
from tests.rules.helpers import Game, position

SU, GER, UK, JPN, US = "Soviet Union", "Germany", "United Kingdom", "Japan", "United States"
IC = {"industrial complex": 1}
COSTS = {"infantry": 3, "tank": 6, "fighter": 10, "bomber": 12, "submarine": 6, "transport": 7,
         "destroyer": 8, "aircraft carrier": 12, "battleship": 16}


def finish_turn(g: Game) -> list[ev.Event]:
    """End phases, doing nothing, until another power's turn begins or the game is won."""
    power, rnd = g.state.power, g.state.round
    out: list[ev.Event] = []
    while g.state.power == power and g.state.round == rnd and not g.state.winner:
        out.extend(g.end())
    return out


def of(evs: list[ev.Event], kind: type[Any]) -> list[Any]:
    return [e for e in evs if isinstance(e, kind)]


def to_mobilize(g: Game) -> None:
    while g.state.phase != "mobilize":
        g.end()


def german_buy(units: dict[str, int], treasury: int = 100,
               board: dict[str, dict[str, dict[str, int]]] | None = None,
               **extra: Any) -> Game:
    """Germany buys ``units`` and reaches Mobilize; Germany (value 4) keeps its complex."""
    g = Game(position(GER, "purchase", {"Germany": {GER: dict(IC)}, **(board or {})},
                      treasury={GER: treasury}, **extra))
    g.do(od.Buy(units=units))
    to_mobilize(g)
    return g


def place(g: Game, space: str, **units: int) -> list[ev.Event]:
    return g.do(od.Place(units={k.replace("_", " "): v for k, v in units.items()}, space=space))


# --------------------------------------------------------------------------------------------
# §7 Purchase Units (PU-1..PU-6)


def test_PU_1_order_pay_and_wait_in_the_mobilization_zone() -> None:
    """PU-1: units are ordered, paid for at once, and wait in the Mobilization Zone: the
    treasury drops by 12, the purchase holds 2 infantry and 1 tank, the board is unchanged."""
    g = Game(position(GER, "purchase", treasury={GER: 20}))
    board = g.json["units"]
    evs = g.do(od.Buy(units={"infantry": 2, "tank": 1}))
    assert evs == [ev.UnitsPurchased(power=GER, units={"infantry": 2, "tank": 1}, cost=12)]
    assert g.json["treasury"][GER] == 8
    assert g.state.purchase == {"infantry": 2, "tank": 1}
    assert g.json["units"] == board


def test_PU_2_purchases_are_cumulative() -> None:
    """PU-2: a power may buy any number of units in several orders during Purchase Units; the
    purchases add up (1 infantry, then 1 infantry and 1 tank: 2 infantry, 1 tank, 12 IPCs)."""
    g = Game(position(GER, "purchase", treasury={GER: 20}))
    g.do(od.Buy(units={"infantry": 1}))
    g.do(od.Buy(units={"infantry": 1, "tank": 1}))
    assert g.state.purchase == {"infantry": 2, "tank": 1}
    assert g.json["treasury"][GER] == 8


def test_PU_2_buy_clear_refunds_the_whole_purchase() -> None:
    """PU-2: purchases are chosen freely until Purchase Units ends; clearing the list refunds
    everything (12 IPCs back, treasury 20 again) and a new purchase may be made."""
    g = Game(position(GER, "purchase", treasury={GER: 20}))
    g.do(od.Buy(units={"infantry": 2, "tank": 1}))
    evs = g.do(od.ClearPurchase())
    assert evs == [ev.PurchaseCleared(power=GER, refund=12)]
    assert g.state.purchase == {}
    assert g.json["treasury"][GER] == 20
    g.do(od.Buy(units={"fighter": 2}))
    assert g.json["treasury"][GER] == 0


def test_PU_2_need_not_spend_all_ipcs() -> None:
    """PU-2: a power need not spend everything. Germany keeps 17 of 20 after buying 1
    infantry; after placing it and collecting 12, it has 29."""
    g = Game(position(GER, "purchase", {"Germany": {GER: dict(IC)}}, treasury={GER: 20}))
    g.do(od.Buy(units={"infantry": 1}))
    to_mobilize(g)
    assert g.json["treasury"][GER] == 17
    place(g, "Germany", infantry=1)
    evs = g.end()
    assert ev.IncomeCollected(power=GER, amount=12) in evs
    assert g.json["treasury"][GER] == 29


def test_PU_2_buying_in_combat_move_is_the_wrong_phase() -> None:
    """PU-2: all purchases are chosen in Purchase Units. A buy in Combat Move is refused with
    WrongPhase naming both phases; nothing is paid."""
    g = Game(position(GER, "combat_move", treasury={GER: 20}))
    err = g.refuse(od.Buy(units={"infantry": 1}), "'buy' belongs to Purchase Units",
                   "it is Combat Move now")
    assert isinstance(err, WrongPhase)
    assert g.json["treasury"][GER] == 20


def test_PU_3_cannot_buy_more_than_the_treasury() -> None:
    """PU-2/PU-3: only what the power can afford. 2 bombers (24) with 20 IPCs are refused; a
    bomber and a destroyer (12 + 8) spend exactly 20; then even 1 infantry is refused."""
    g = Game(position(GER, "purchase", treasury={GER: 20}))
    err = g.refuse(od.Buy(units={"bomber": 2}), "2 bomber costs 24 IPCs; Germany has 20",
                   "PU-2/PU-3")
    assert isinstance(err, IllegalOrder)
    g.do(od.Buy(units={"bomber": 1}))
    g.do(od.Buy(units={"destroyer": 1}))
    assert g.json["treasury"][GER] == 0
    g.refuse(od.Buy(units={"infantry": 1}), "1 infantry costs 3 IPCs; Germany has 0",
             "never goes negative")


def test_PU_3_a_negative_treasury_is_impossible() -> None:
    """PU-3: a negative treasury is impossible, even in a position given to start a game."""
    with pytest.raises(InvalidOrder, match="PU-3: never negative"):
        engine.new_game("1941", (), position(GER, "purchase", treasury={GER: -1}))


def test_PU_4_bought_units_act_only_after_placement() -> None:
    """PU-4: purchased units wait until Mobilize: placing during Purchase Units is the wrong
    phase; only units bought this turn can be placed (a tank not bought is refused), and they
    appear on the board only when placed."""
    g = Game(position(GER, "purchase", {"Germany": {GER: dict(IC)}}, treasury={GER: 20}))
    g.do(od.Buy(units={"infantry": 1}))
    err = g.refuse(od.Place(units={"infantry": 1}, space="Germany"),
                   "'place' belongs to Mobilize New Units", "it is Purchase Units now")
    assert isinstance(err, WrongPhase)
    to_mobilize(g)
    assert g.units("Germany", GER) == {"industrial complex": 1}
    g.refuse(od.Place(units={"tank": 1}, space="Germany"),
             "Germany has 0 tank waiting to be placed", "PU-4")
    place(g, "Germany", infantry=1)
    assert g.units("Germany", GER) == {"industrial complex": 1, "infantry": 1}
    assert g.state.purchase == {}


def test_PU_5_units_that_cannot_be_placed_are_refunded() -> None:
    """PU-5/MB-9: Germany (cap 4) bought 6 infantry. After 4 are placed the cap is used up, so
    Mobilize ends without confirmation and the other 2 go back to the box for 6 IPCs."""
    g = german_buy({"infantry": 6}, treasury=18)
    place(g, "Germany", infantry=4)
    evs = g.end()
    assert evs[0] == ev.PurchaseRefunded(power=GER, units={"infantry": 2}, amount=6)
    assert ev.IncomeCollected(power=GER, amount=12) in evs
    assert g.json["treasury"][GER] == 18
    assert g.units("Germany", GER) == {"industrial complex": 1, "infantry": 4}


def test_PU_6_the_nine_buyable_units_and_their_costs() -> None:
    """PU-6: the Mobilization Zone chart: infantry 3, tank 6, fighter 10, bomber 12, submarine
    6, transport 7, destroyer 8, aircraft carrier 12, battleship 16 (80 for one of each)."""
    g = Game(position(GER, "purchase", treasury={GER: 80}))
    left = 80
    for unit, cost in COSTS.items():
        evs = g.do(od.Buy(units={unit: 1}))
        assert evs == [ev.UnitsPurchased(power=GER, units={unit: 1}, cost=cost)]
        left -= cost
        assert g.json["treasury"][GER] == left
    assert left == 0


def test_PU_6_an_industrial_complex_cannot_be_bought() -> None:
    """PU-6/UL-4: industrial complexes are printed on the board and are not on the chart."""
    g = Game(position(GER, "purchase", treasury={GER: 80}))
    err = g.refuse(od.Buy(units={"industrial complex": 1}), "cannot be bought", "PU-6")
    assert isinstance(err, IllegalOrder)


# --------------------------------------------------------------------------------------------
# §11 Mobilize New Units (MB-1..MB-9)


def test_MB_1_no_placement_without_an_eligible_complex() -> None:
    """MB-1/MB-3: new units go only to a territory with a complex the power has controlled since
    the start of the turn. Western Europe (German, no complex) is refused; Germany is eligible."""
    g = german_buy({"infantry": 1})
    err = g.refuse(od.Place(units={"infantry": 1}, space="Western Europe"),
                   "Germany cannot place units in Western Europe", "MB-1/MB-3",
                   "Eligible: Germany")
    assert isinstance(err, IllegalOrder)


def test_MB_1_complex_captured_this_turn_cannot_be_used() -> None:
    """MB-1: Germany takes Caucasus (Soviet complex, empty) this turn. The complex is now
    German, but Germany may use it only from its next turn: placing there is refused."""
    g = Game(position(GER, "purchase", {"Germany": {GER: dict(IC)},
                                        "Ukraine": {GER: {"tank": 1}}}))
    g.do(od.Buy(units={"infantry": 1}))
    g.end()
    g.move({"tank": 1}, "Ukraine", "Caucasus")
    g.end()
    assert g.owner("Caucasus") == GER
    assert g.units("Caucasus", GER) == {"industrial complex": 1, "tank": 1}
    to_mobilize(g)
    g.refuse(od.Place(units={"infantry": 1}, space="Caucasus"),
             "Germany cannot place units in Caucasus", "since the start of the turn",
             "Eligible: Germany.")


def test_MB_1_complex_captured_earlier_is_usable_from_the_next_turn() -> None:
    """MB-1/UL-4: a complex captured on an earlier turn (Caucasus, German at the start of this
    turn) is usable, up to its territory's value 2."""
    g = german_buy({"infantry": 3}, owners={"Caucasus": GER})
    evs = place(g, "Caucasus", infantry=2)
    assert evs == [ev.UnitsPlaced(power=GER, space="Caucasus",
                                  units=((g.state.next_id - 2, "infantry", None),
                                         (g.state.next_id - 1, "infantry", None)),
                                  factory="Caucasus")]
    g.refuse(od.Place(units={"infantry": 1}, space="Caucasus"),
             "Caucasus can place 0 more units", "IPC value 2", "MB-2")


def test_MB_1_a_friendly_powers_complex_is_never_usable() -> None:
    """MB-1/MN-7: a complex held by a friendly power can never be used. Germany may not place
    in Japan (Japanese complex)."""
    g = german_buy({"infantry": 1})
    g.refuse(od.Place(units={"infantry": 1}, space="Japan"),
             "Germany cannot place units in Japan", "Eligible: Germany.")


def test_MB_2_cap_is_the_territory_value_including_adjacent_sea_zones() -> None:
    """MB-2: Germany (value 4) places at most 4 units, split between Germany and Sea Zone 5:
    3 infantry and 1 submarine fit; a 4th infantry is refused, naming the cap."""
    g = german_buy({"infantry": 4, "submarine": 1})
    place(g, "Germany", infantry=3)
    evs = place(g, "Sea Zone 5", submarine=1)
    assert evs[0].factory == "Germany"
    assert g.state.placed == {"Germany": 4}
    err = g.refuse(od.Place(units={"infantry": 1}, space="Germany"),
                   "Germany can place 0 more units this turn",
                   "limited to its IPC value 4, sea zones next to it included (MB-2)")
    assert isinstance(err, IllegalOrder)


def test_MB_2_one_order_over_the_cap_is_refused_whole() -> None:
    """MB-2: placing 5 infantry in Germany (cap 4) in one order is refused; nothing is placed."""
    g = german_buy({"infantry": 5})
    g.refuse(od.Place(units={"infantry": 5}, space="Germany"),
             "Germany can place 4 more units this turn", "MB-2")
    assert g.state.purchase == {"infantry": 5}


def test_MB_3_land_units_never_placed_onto_transports() -> None:
    """MB-3: land units are placed only in a territory with an eligible complex, never directly
    onto transports: infantry into Sea Zone 5 beside a German transport is refused."""
    g = german_buy({"infantry": 1}, board={"Sea Zone 5": {GER: {"transport": 1}}})
    g.refuse(od.Place(units={"infantry": 1}, space="Sea Zone 5"),
             "Land units are placed only in a territory with an eligible complex, never onto "
             "transports (MB-3)")


def test_MB_3_bombers_only_in_complex_territories() -> None:
    """MB-3/UB-1: a new bomber goes only in a territory with an eligible complex: not at sea,
    not in Western Europe; in Germany it is placed."""
    g = german_buy({"bomber": 1})
    g.refuse(od.Place(units={"bomber": 1}, space="Sea Zone 5"), "cannot land on carriers")
    g.refuse(od.Place(units={"bomber": 1}, space="Western Europe"), "MB-1/MB-3")
    place(g, "Germany", bomber=1)
    assert g.units("Germany", GER) == {"industrial complex": 1, "bomber": 1}


def test_MB_4_sea_units_only_in_adjacent_sea_zones() -> None:
    """MB-4: sea units go in sea zones next to an eligible complex. Sea Zone 7 (not next to
    Germany) and the territory Germany itself are refused; Sea Zone 5 is accepted."""
    g = german_buy({"destroyer": 1})
    g.refuse(od.Place(units={"destroyer": 1}, space="Sea Zone 7"),
             "Sea Zone 7 is not next to an industrial complex Germany may use (MB-4)")
    g.refuse(od.Place(units={"destroyer": 1}, space="Germany"),
             "destroyer is a sea unit: place it in an adjacent sea zone (MB-4)")
    place(g, "Sea Zone 5", destroyer=1)
    assert g.units("Sea Zone 5", GER) == {"destroyer": 1}


def test_MB_4_sea_units_may_be_placed_in_a_hostile_zone_without_combat() -> None:
    """MB-4: a new submarine may go into Sea Zone 5 though a British battleship is there;
    no combat follows (Conduct Combat is over): no battle opens and both stay."""
    g = german_buy({"submarine": 1}, board={"Sea Zone 5": {UK: {"battleship": 1}}})
    evs = place(g, "Sea Zone 5", submarine=1)
    evs += g.end()
    assert of(evs, ev.BattleOpened) == [] and of(evs, ev.UnitsRemoved) == []
    assert g.units("Sea Zone 5", GER) == {"submarine": 1}
    assert g.units("Sea Zone 5", UK) == {"battleship": 1}


def test_MB_5_fighters_on_a_carrier_placed_in_the_same_phase() -> None:
    """MB-5: new fighters may go on the power's own carrier placed in this same phase, up to
    its capacity 2: carrier and 2 fighters in Sea Zone 5 (3 of Germany's 4), a third fighter
    has no room."""
    g = german_buy({"aircraft carrier": 1, "fighter": 3})
    evs = place(g, "Sea Zone 5", aircraft_carrier=1, fighter=2)
    (cv, _, _), (f1, _, c1), (f2, _, c2) = evs[0].units
    assert (c1, c2) == (cv, cv)
    assert g.state.units[f1].carried_by == cv and g.state.units[f2].carried_by == cv
    assert g.units("Sea Zone 5", GER) == {"aircraft carrier": 1, "fighter": 2}
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 5"),
             "No room for a new fighter in Sea Zone 5", "MB-5")


def test_MB_5_fighter_onto_an_own_carrier_already_at_sea() -> None:
    """MB-5: a new fighter may go on the power's own carrier in an adjacent zone; the carrier
    carries one fighter already, so one more fits and a second does not."""
    g = german_buy({"fighter": 2}, board={
        "Sea Zone 5": {GER: {"aircraft carrier": 1, "fighter": 1}}})
    place(g, "Sea Zone 5", fighter=1)
    assert g.units("Sea Zone 5", GER) == {"aircraft carrier": 1, "fighter": 2}
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 5"), "No room for a new fighter")


def test_MB_5_never_on_a_friendly_powers_carrier() -> None:
    """MB-5/MN-7: new fighters may not go on a friendly power's carrier: a Japanese carrier
    with free room in Sea Zone 5 does not take a new German fighter."""
    g = german_buy({"fighter": 1}, board={"Sea Zone 5": {JPN: {"aircraft carrier": 1}}})
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 5"),
             "it needs a carrier of Germany's own", "not an ally's, MN-7")


def test_MB_6_promised_carrier_catches_the_waiting_fighter() -> None:
    """MB-6/NC-6: a British fighter ends Noncombat Move in Sea Zone 7, next to the United
    Kingdom's complex, for a carrier bought this turn. Placed there, the carrier takes the
    fighter aboard at the end of Mobilize."""
    g = Game(position(UK, "purchase", {"United Kingdom": {UK: {"fighter": 1, **IC}}}))
    g.do(od.Buy(units={"aircraft carrier": 1}))
    g.end()
    g.end()
    assert g.json["phase"] == "noncombat_move"
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 7")
    g.end()
    evs = place(g, "Sea Zone 7", aircraft_carrier=1)
    carrier = evs[0].units[0][0]
    evs = g.end()
    assert of(evs, ev.UnitsRemoved) == []
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    assert fighter.carried_by == carrier
    assert g.units("Sea Zone 7", UK) == {"aircraft carrier": 1, "fighter": 1}


def test_MB_6_promised_carrier_must_go_where_the_fighter_waits() -> None:
    """MB-6/AIR-5: the carrier must be placed in the zone where the fighter waits for it. With
    the fighter in Sea Zone 7, placing the carrier in Sea Zone 6 is refused."""
    g = Game(position(UK, "purchase", {"United Kingdom": {UK: {"fighter": 1, **IC}}}))
    g.do(od.Buy(units={"aircraft carrier": 1}))
    g.end()
    g.end()
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 7")
    g.end()
    g.refuse(od.Place(units={"aircraft carrier": 1}, space="Sea Zone 6"), "Sea Zone 7", "MB-6")
    g.refuse(od.EndPhase(confirm=True), "Sea Zone 7", "MB-6")


def test_MB_6_production_cap_is_kept_for_the_promised_carrier() -> None:
    """MB-6/MB-2: the United Kingdom (value 3) bought 3 infantry and the carrier its fighter
    waits for in Sea Zone 7. Two infantry may be placed; a third would use the carrier's slot
    and is refused. Once the carrier is placed the United Kingdom's cap is full; the third
    infantry goes to India (value 1) instead."""
    g = Game(position(UK, "purchase", {"United Kingdom": {UK: {"fighter": 1, **IC}}},
                      treasury={UK: 21}))
    g.do(od.Buy(units={"infantry": 3, "aircraft carrier": 1}))
    g.end()
    g.end()
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 7")
    g.end()
    place(g, "United Kingdom", infantry=2)
    g.refuse(od.Place(units={"infantry": 1}, space="United Kingdom"),
             "A fighter waits in Sea Zone 7", "MB-6")
    place(g, "Sea Zone 7", aircraft_carrier=1)
    g.refuse(od.Place(units={"infantry": 1}, space="United Kingdom"),
             "United Kingdom can place 0 more units", "MB-2")
    place(g, "India", infantry=1)
    evs = g.end()
    assert of(evs, ev.PurchaseRefunded) == [] and of(evs, ev.UnitsRemoved) == []
    assert g.units("Sea Zone 7", UK) == {"aircraft carrier": 1, "fighter": 1}
    assert g.units("United Kingdom", UK) == {"industrial complex": 1, "infantry": 2}


def test_MB_7_fighters_placed_on_carriers_count_towards_the_cap() -> None:
    """MB-7/A-16: fighters placed on carriers count against the complex's cap. The United
    Kingdom (value 3) places a carrier and 2 fighters in Sea Zone 7: its cap is used up and
    an infantry for the United Kingdom itself is refused."""
    g = Game(position(UK, "purchase", {"United Kingdom": {UK: dict(IC)}}, treasury={UK: 35}))
    g.do(od.Buy(units={"aircraft carrier": 1, "fighter": 2, "infantry": 1}))
    to_mobilize(g)
    evs = place(g, "Sea Zone 7", aircraft_carrier=1, fighter=2)
    assert len(evs[0].units) == 3 and evs[0].factory == "United Kingdom"
    assert g.state.placed == {"United Kingdom": 3}
    g.refuse(od.Place(units={"infantry": 1}, space="United Kingdom"),
             "United Kingdom can place 0 more units", "IPC value 3")


def test_A_16_a_sea_zone_next_to_two_complexes_is_charged_to_either() -> None:
    """MB-7/A-16: a sea zone next to two eligible complexes may be charged to either. With a
    German complex in Western Europe (value 3) as well as Germany (value 4), Sea Zone 5 touches
    both: after Germany's cap is used, a submarine there is charged to Western Europe; after
    Western Europe's is used, one is charged to Germany. (The order of placements decides.)"""
    board = {"Western Europe": {GER: dict(IC)}}
    g = german_buy({"infantry": 4, "submarine": 1}, board=board)
    place(g, "Germany", infantry=4)
    evs = place(g, "Sea Zone 5", submarine=1)
    assert evs[0].factory == "Western Europe"
    assert g.state.placed == {"Germany": 4, "Western Europe": 1}
    g = german_buy({"infantry": 3, "submarine": 1}, board=board)
    place(g, "Western Europe", infantry=3)
    evs = place(g, "Sea Zone 5", submarine=1)
    assert evs[0].factory == "Germany"
    assert g.state.placed == {"Western Europe": 3, "Germany": 1}


def test_MB_8_power_without_capital_skips_mobilize() -> None:
    """MB-8/T-4: the United Kingdom without London (German) has no Mobilize phase: ending
    Noncombat Move skips Mobilize and Collect Income and Japan's turn begins."""
    g = Game(position(UK, "noncombat_move", owners={"United Kingdom": GER}))
    err = g.refuse(od.Place(units={"infantry": 1}, space="India"), "Mobilize New Units")
    assert isinstance(err, WrongPhase)
    evs = g.end()
    assert evs[0] == ev.PhaseChanged(power=UK, phase="collect_income",
                                     skipped=("mobilize", "collect_income"), rule="T-4")
    assert (g.json["power"], g.json["phase"]) == (JPN, "purchase")


def test_MB_9_player_chooses_which_units_go_back() -> None:
    """MB-9: Germany (cap 4) bought 3 infantry and 2 tanks. It places the 2 tanks and 2
    infantry; the third infantry goes back to the box for 3 IPCs."""
    g = german_buy({"infantry": 3, "tank": 2}, treasury=21)
    place(g, "Germany", tank=2)
    place(g, "Germany", infantry=2)
    evs = g.end()
    assert evs[0] == ev.PurchaseRefunded(power=GER, units={"infantry": 1}, amount=3)
    assert g.units("Germany", GER) == {"industrial complex": 1, "infantry": 2, "tank": 2}
    assert g.json["treasury"][GER] == 3 + 12


def test_MB_9_ending_mobilize_with_placeable_units_needs_confirm() -> None:
    """MB-9: with 1 infantry still waiting and room to place it, 'end' is refused naming the
    unit and 'end confirm'; 'end confirm' returns it to the box with a 3 IPC refund."""
    g = german_buy({"infantry": 2}, treasury=6)
    place(g, "Germany", infantry=1)
    err = g.refuse(od.EndPhase(), "Still waiting to be placed: 1 infantry", "'end confirm'",
                   "MB-9")
    assert isinstance(err, IllegalOrder)
    evs = g.end(confirm=True)
    assert evs[0] == ev.PurchaseRefunded(power=GER, units={"infantry": 1}, amount=3)
    assert g.json["treasury"][GER] == 3 + 12


# --------------------------------------------------------------------------------------------
# §12 Collect Income (IN-1..IN-4)


def test_IN_1_us_collects_17_on_its_first_income() -> None:
    """IN-1/P-3: the United States starts with the chart's 15 IPCs, but its territories add up
    to 17 (digest README), so its first Collect Income brings 17: treasury 32."""
    g = Game()
    for _ in range(4):
        finish_turn(g)
    assert (g.json["power"], g.json["treasury"][US]) == (US, 15)
    evs = finish_turn(g)
    assert ev.IncomeCollected(power=US, amount=17) in evs
    assert g.json["treasury"][US] == 32


def test_IN_1_income_counts_captures_made_this_turn() -> None:
    """IN-1/P-4: Germany takes empty Karelia (value 1) this turn; its production level is
    already 13 when it collects, so it collects 13."""
    g = Game(position(GER, "combat_move", {"West Russia": {GER: {"infantry": 1}}}))
    g.move({"infantry": 1}, "West Russia", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER
    evs = finish_turn(g)
    assert ev.IncomeCollected(power=GER, amount=13) in evs
    assert g.json["treasury"][GER] == 25


def test_IN_2_no_income_without_the_capital() -> None:
    """IN-2/CAP-2: the United Kingdom, London held by Germany, still holds India, Australia and
    more (production level 9) but collects nothing: its treasury stays 12."""
    g = Game(position(UK, "noncombat_move", owners={"United Kingdom": GER}))
    assert g.json["income"][UK] == 9
    evs = finish_turn(g)
    assert of(evs, ev.IncomeCollected) == []
    assert g.json["treasury"][UK] == 12


def test_IN_3_income_goes_only_to_the_collecting_power() -> None:
    """IN-3: IPCs cannot be shared. The United Kingdom collects its 12; the other treasuries,
    allies' included, do not change."""
    g = Game(position(UK, "mobilize"))
    before = g.json["treasury"]
    evs = g.end()
    assert of(evs, ev.IncomeCollected) == [ev.IncomeCollected(power=UK, amount=12)]
    assert g.json["treasury"] == {**before, UK: 24}


def test_IN_4_the_turn_ends_after_collect_income() -> None:
    """IN-4: the turn ends after Collect Income: the next event starts Japan's turn."""
    g = Game(position(UK, "mobilize"))
    evs = g.end()
    i = evs.index(ev.IncomeCollected(power=UK, amount=12))
    assert evs[i + 1] == ev.TurnStarted(round=1, power=JPN)
    assert (g.json["power"], g.json["phase"]) == (JPN, "purchase")


# --------------------------------------------------------------------------------------------
# §17 Setup


CHART_TOTALS = {
    SU: {"infantry": 15, "tank": 2, "fighter": 1, "submarine": 1},
    GER: {"infantry": 19, "tank": 6, "fighter": 3, "bomber": 1, "battleship": 1,
          "submarine": 3, "destroyer": 1, "transport": 1},
    UK: {"infantry": 7, "tank": 2, "fighter": 3, "bomber": 1, "battleship": 1,
         "aircraft carrier": 1, "destroyer": 2, "submarine": 2, "transport": 3},
    JPN: {"infantry": 10, "tank": 1, "fighter": 4, "bomber": 1, "battleship": 1,
          "aircraft carrier": 2, "destroyer": 2, "submarine": 1, "transport": 2},
    US: {"infantry": 8, "tank": 2, "fighter": 3, "bomber": 1, "battleship": 1,
         "aircraft carrier": 1, "submarine": 1, "transport": 2},
}
COMPLEXES = {"Russia": SU, "Caucasus": SU, "Germany": GER, "United Kingdom": UK, "India": UK,
             "Australia": UK, "Japan": JPN, "Eastern United States": US,
             "Western United States": US}


def board_totals(doc: dict[str, Any]) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = {p: Counter() for p in (SU, GER, UK, JPN, US)}
    for by_power in doc["units"].values():
        for p, units in by_power.items():
            for u, n in units.items():
                if u != "industrial complex":
                    out[p][u] += n
    return {p: dict(c) for p, c in out.items()}


def test_setup_board_at_game_start_matches_the_charts() -> None:
    """§17: a new game's board holds exactly the five charts' totals, the nine printed
    complexes with their controllers, every fighter at sea aboard its own carrier, and the
    Soviet Union to play first in round 1, Purchase Units."""
    g = Game()
    doc = g.json
    assert board_totals(doc) == CHART_TOTALS
    complexes = {s: p for s, bp in doc["units"].items() for p, us in bp.items()
                 if "industrial complex" in us}
    assert complexes == COMPLEXES
    for u in g.state.units.values():
        if u.type == "fighter" and g.state.edition.is_sea(u.space):
            assert u.carried_by is not None
            carrier = g.state.units[u.carried_by]
            assert (carrier.type, carrier.owner, carrier.space) == ("aircraft carrier", u.owner,
                                                                     u.space)
    assert (doc["round"], doc["power"], doc["phase"]) == (1, SU, "purchase")


def test_setup_errata_option_adds_exactly_the_three_errata_units() -> None:
    """§17/README: the 'errata' option adds exactly +3 Soviet infantry in Russia, +1 US
    infantry in Northwestern China and +1 US destroyer in Sea Zone 11; nothing else differs
    (owners, treasuries, income)."""
    plain, errata = Game().json, Game(options=("errata",)).json
    diff: dict[tuple[str, str, str], int] = {}
    for s in set(plain["units"]) | set(errata["units"]):
        for p in set(plain["units"].get(s, {})) | set(errata["units"].get(s, {})):
            a = plain["units"].get(s, {}).get(p, {})
            b = errata["units"].get(s, {}).get(p, {})
            for u in set(a) | set(b):
                if a.get(u, 0) != b.get(u, 0):
                    diff[(s, p, u)] = b.get(u, 0) - a.get(u, 0)
    assert diff == {
        ("Russia", SU, "infantry"): 3,
        ("Northwestern China", US, "infantry"): 1,
        ("Sea Zone 11", US, "destroyer"): 1,
    }
    for key in ("owners", "treasury", "income", "round", "power", "phase"):
        assert errata[key] == plain[key]
