"""Europe 1940 facilities and production (digest §8 PU-1..PU-7, §12 MO-1..MO-8, §15 FA-1..FA-5,
CO-4, LI-1/LI-2, CM-21/CM-22, §22.9): damage on facilities, what complexes produce, buying and
placing facilities, the complex upgrade, repairs, the bases' movement bonuses and capture."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.edition import load_edition
from rules.errors import InvalidOrder
from rules.facilities import (
    FacilityDamage,
    add_damage,
    facility_damage,
    operational,
)
from rules.mechanisms.facilities import Repair
from rules.position import state_json
from rules.turn.tx import Tx
from service.describe import describe
from tests.rules.helpers import Game, position

E40 = "europe1940"
GER, UK, ITA, FRA, USA, SOV = ("Germany", "United Kingdom", "Italy", "France", "United States",
                               "Soviet Union")
MAJOR, MINOR = "major industrial complex", "minor industrial complex"
AIR, NAVAL, UPGRADE = "air base", "naval base", "industrial complex upgrade"
PURCHASE, CM, NCM, MOB = "purchase", "combat_move", "noncombat_move", "mobilize"


def game(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]] | None = None,
         **extra: Any) -> Game:
    """A Europe 1940 position with only ``units`` on the board and the facilities of the setup
    (clearing units keeps only complexes: the air and naval bases are named here)."""
    return Game(position(power, phase, with_bases(units), edition=E40, **extra))


def with_bases(units: dict[str, dict[str, dict[str, int]]] | None
               ) -> dict[str, dict[str, dict[str, int]]]:
    out = {s: {p: dict(us) for p, us in by.items()} for s, by in (units or {}).items()}
    ed = load_edition(E40)
    for space, by in ed.map.setup.items():
        for p, us in by.items():
            for u, n in us.items():
                if ed.units[u].abilities.facility and not ed.units[u].abilities.factory:
                    out.setdefault(space, {}).setdefault(p, {}).setdefault(u, n)
    return out


def said(g: Game, n: int | None = None) -> list[str]:
    """The last ``n`` events (all but the start: None) as the referee tells them."""
    n = len(g.events) - 1 if n is None else n
    before = engine.replay(g.events[:-n])
    out = []
    for e in g.events[-n:]:
        out.append(describe(before, e))
        before = engine.evolve(before, e)
    return out


def place(g: Game, units: dict[str, int], space: str) -> None:
    g.do(od.Place(units=units, space=space))


# --------------------------------------------------------------------------------------------
# Damage as state (FA-5, BR-10) and its position key


def test_FA_5_damage_is_a_position_key_read_with_aliases_and_printed_by_state() -> None:
    g = game(GER, PURCHASE, damage={"Berlin": {"major ic": 3}, "Western Germany": {"ab": 2}})
    assert g.json["damage"] == {"Germany": {MAJOR: 3}, "Western Germany": {AIR: 2}}
    assert facility_damage(g.state, "Germany", MAJOR) == 3
    assert facility_damage(g.state, "Germany", AIR) == 0
    # The state prints it and loads back as a position.
    again = Game(g.json)
    assert again.state.part(FacilityDamage) == g.state.part(FacilityDamage)
    assert "damage" not in state_json(Game(position(GER, PURCHASE)).state)  # 1941: no key


@pytest.mark.parametrize(("damage", "fragment"), [
    ({"Germany": {"major ic": 21}}, "21 on the major industrial complex in Germany (a whole "
                                    "number from 0 to its cap, 20)"),
    ({"Western Germany": {"air base": 7}}, "from 0 to its cap, 6"),
    ({"Germany": {"infantry": 1}}, "a infantry takes no damage markers; only facilities do"),
    ({"Poland": {"minor ic": 1}}, "Poland has no minor industrial complex to be damaged"),
    ({"Sea Zone 113": {"naval base": 1}}, "Sea Zone 113 is a sea zone"),
])
def test_FA_5_BR_10_position_damage_is_checked(damage: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidOrder) as e:
        engine.new_game(E40, (), position(GER, PURCHASE, edition=E40, damage=damage))
    assert fragment in str(e.value)


def test_FA_5_no_facility_damage_in_1941() -> None:
    with pytest.raises(InvalidOrder) as e:
        engine.new_game("1941", (), {"damage": {"Germany": {"industrial complex": 1}}})
    assert "has no damage on facilities; leave 'damage' out" in str(e.value)


def test_BR_10_damage_is_added_up_to_the_cap_and_the_rest_is_lost() -> None:
    g = game(UK, CM, damage={"Germany": {MAJOR: 12}})
    tx = Tx(g.state)
    assert add_damage(tx, "Germany", MAJOR, 5) == 5
    assert add_damage(tx, "Germany", MAJOR, 6) == 3  # 20 at most
    assert add_damage(tx, "Germany", MAJOR, 4) == 0
    assert add_damage(tx, "Western Germany", AIR, 9) == 6
    assert facility_damage(tx.state, "Germany", MAJOR) == 20
    assert facility_damage(tx.state, "Western Germany", AIR) == 6
    assert not operational(tx.state, "Western Germany", AIR)
    before = g.state
    lines = []
    for e in tx.events:
        lines.append(describe(before, e))
        before = engine.evolve(before, e)
    assert lines == [
        "Germany's major industrial complex in Germany takes 5 damage (now 17, BR-10).",
        "Germany's major industrial complex in Germany takes 3 damage (now 20; 3 beyond its cap "
        "of 20 lost, BR-10).",
        "Germany's major industrial complex in Germany takes 0 damage (now 20; 4 beyond its cap "
        "of 20 lost, BR-10).",
        "Germany's air base in Western Germany takes 6 damage (now 6; 3 beyond its cap of 6 "
        "lost, BR-10).",
    ]
    assert engine.replay([*g.events, *tx.events]) == tx.state


def test_A_9_bases_are_inoperative_from_3_damage_complexes_at_their_production() -> None:
    g = game(GER, PURCHASE, damage={"Western Germany": {AIR: 2, NAVAL: 3},
                                    "Southern Italy": {MINOR: 3}, "Germany": {MAJOR: 9}})
    s = g.state
    assert operational(s, "Western Germany", AIR) and not operational(s, "Western Germany", NAVAL)
    assert not operational(s, "Southern Italy", MINOR) and operational(s, "Germany", MAJOR)
    assert not operational(s, "Poland", MINOR)  # none there


# --------------------------------------------------------------------------------------------
# Production (MO-1..MO-5, MO-7)


def test_MO_2_a_major_places_10_less_its_damage() -> None:
    g = game(GER, MOB, purchase={"infantry": 14}, damage={"Germany": {MAJOR: 7}})
    g.refuse(od.Place(units={"infantry": 4}, space="Germany"),
             "Germany can place 3 more units this turn: its major industrial complex produces 10 "
             "units a turn, less 7 damage, sea zones next to it included (MO-2).")
    place(g, {"infantry": 3}, "Germany")
    g.refuse(od.Place(units={"infantry": 1}, space="Germany"),
             "Germany can place 0 more units this turn: its major industrial complex produces 10 "
             "units a turn, less 7 damage; 3 placed already")
    place(g, {"infantry": 10}, "Western Germany")
    g.refuse(od.Place(units={"infantry": 1}, space="Western Germany"), "can place 0 more units")


def test_MO_2_MO_3_a_complex_with_damage_at_its_production_places_nothing() -> None:
    g = game(ITA, MOB, purchase={"infantry": 1, "tank": 1}, damage={"Southern Italy": {MINOR: 3}})
    g.refuse(od.Place(units={"infantry": 1}, space="Southern Italy"),
             "Southern Italy can place 0 more units this turn: its minor industrial complex "
             "produces 3 units a turn, less 3 damage")
    place(g, {"infantry": 1, "tank": 1}, "Northern Italy")


def test_MO_4_sea_units_go_next_to_the_complex_and_count_against_it() -> None:
    g = game(GER, MOB, purchase={"infantry": 9, "destroyer": 3},
             damage={"Western Germany": {MAJOR: 10}})
    place(g, {"infantry": 8}, "Germany")
    place(g, {"destroyer": 2}, "Sea Zone 114")  # only Germany borders it: 10 in all
    g.refuse(od.Place(units={"destroyer": 1}, space="Sea Zone 114"), "can place 0 more units")
    g.refuse(od.Place(units={"destroyer": 1}, space="Sea Zone 113"),
             "can place 0 more units")  # Western Germany's is out of order
    g.refuse(od.Place(units={"infantry": 1}, space="Sea Zone 113"), "never onto transports")


def test_MO_5_new_planes_only_onto_own_carriers() -> None:
    g = game(ITA, MOB, {"Sea Zone 97": {GER: {"aircraft carrier": 1}}},
             purchase={"fighter": 1, "tactical bomber": 1, "aircraft carrier": 1,
                       "strategic bomber": 1})
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 97"),
             "it needs a carrier of Italy's own with a free slot there")
    g.refuse(od.Place(units={"strategic bomber": 1}, space="Sea Zone 97"),
             "strategic bomber cannot land on carriers")
    place(g, {"aircraft carrier": 1, "fighter": 1, "tactical bomber": 1}, "Sea Zone 97")
    place(g, {"strategic bomber": 1}, "Northern Italy")


def test_MO_1_never_an_allys_complex() -> None:
    g = game(UK, MOB, purchase={"infantry": 1}, owners={"Normandy Bordeaux": FRA})
    g.refuse(od.Place(units={"infantry": 1}, space="Normandy Bordeaux"),
             "never one taken this turn nor an ally's")


def test_MO_7_units_that_cannot_be_placed_are_refunded() -> None:
    g = game(ITA, MOB, purchase={"infantry": 4}, treasury={ITA: 0},
             damage={"Northern Italy": {MAJOR: 10}, "Southern Italy": {MINOR: 1}})
    place(g, {"infantry": 1}, "Southern Italy")
    g.refuse(od.EndPhase(phase=MOB), "Still waiting to be placed: 3 infantry")
    evs = g.end(confirm=True)
    refund = next(e for e in evs if isinstance(e, ev.PurchaseRefunded))
    assert refund.units == {"infantry": 3} and refund.amount == 9


# --------------------------------------------------------------------------------------------
# Buying and placing facilities (PU-1, MO-6, FA-4)


def test_PU_1_facilities_are_bought_like_units() -> None:
    g = game(GER, PURCHASE, treasury={GER: 100})
    g.do(od.Buy(units={MAJOR: 1, MINOR: 1, AIR: 1, NAVAL: 1}))
    assert g.state.treasury[GER] == 100 - 30 - 12 - 15 - 15


@pytest.mark.parametrize(("facility", "space", "why"), [
    (MAJOR, "Poland", "it is worth 2 IPCs; this needs a territory worth at least 3 IPCs"),
    (MAJOR, "Norway", "it is originally Germany's, not United Kingdom's (A-13)"),
    (MAJOR, "Sweden", "it was neutral at the start: it has no original owner (AN-1)"),
    (MAJOR, "Germany", "it already has one (one per territory)"),
    (MINOR, "Germany", "it already has one (one per territory)"),
    (MINOR, "Bulgaria", "it is worth 1 IPC; this needs a territory worth at least 2 IPCs"),
    (MINOR, "Sicily", "it is an island"),
    (AIR, "Western Germany", "it already has one"),
    (NAVAL, "Greater Southern Germany", "it has no coast"),
    (AIR, "Ukraine", "Germany does not control it"),
    (AIR, "Sea Zone 113", "it is a sea zone"),
])
def test_MO_6_where_facilities_may_go(facility: str, space: str, why: str) -> None:
    owners = {"Sweden": GER, "Sicily": GER, "Bulgaria": GER, "Norway": UK}
    power = UK if space == "Norway" else GER
    g = game(power, MOB, purchase={facility: 1}, owners=owners)
    g.refuse(od.Place(units={facility: 1}, space=space),
             f"{power} cannot place a {facility} in {space}: {why}", "(MO-6, FA-4)")


def test_MO_6_A_12_A_13_a_major_in_an_original_territory_worth_3() -> None:
    g = game(GER, MOB, purchase={MAJOR: 1, MINOR: 1, AIR: 1, NAVAL: 1, "infantry": 10})
    place(g, {MAJOR: 1}, "Greater Southern Germany")
    place(g, {MINOR: 1}, "Poland")
    place(g, {AIR: 1}, "Germany")
    place(g, {NAVAL: 1}, "Germany")
    g.state = replace(g.state, purchase={**g.state.purchase, MINOR: 1},
                      owners={**g.state.owners, "Spain": GER},
                      turn_start_owners={**g.state.turn_start_owners, "Spain": GER})
    place(g, {MINOR: 1}, "Spain")  # a former neutral takes a minor complex (only a major not)
    # MO-6: placing facilities uses no complex's production; a new complex produces next turn.
    place(g, {"infantry": 10}, "Germany")
    assert g.units("Germany", GER) == {MAJOR: 1, AIR: 1, NAVAL: 1, "infantry": 10}
    g2 = game(GER, MOB, purchase={"infantry": 1})
    g2.state = replace(g.state, purchase={"infantry": 1})
    g2.refuse(od.Place(units={"infantry": 1}, space="Greater Southern Germany"),
              "Eligible: Germany, Western Germany")


def test_A_13_the_uk_places_complexes_in_canada_and_bases_on_islands() -> None:
    g = game(UK, MOB, purchase={MINOR: 1, AIR: 1, NAVAL: 1})
    place(g, {MINOR: 1}, "Ontario")
    place(g, {AIR: 1}, "Malta")  # an air base anywhere you control
    place(g, {NAVAL: 1}, "Malta")  # a naval base on any coast, islands included


def test_MO_6_FA_4_never_in_a_territory_taken_this_turn() -> None:
    g = game(GER, CM, {"Western Germany": {GER: {"infantry": 1}}},
             owners={"Holland Belgium": UK}, purchase={AIR: 1})
    g.move({"infantry": 1}, "Western Germany", "Holland Belgium")
    g.end()
    while g.state.phase != MOB:
        g.end()
    assert g.owner("Holland Belgium") == GER
    g.refuse(od.Place(units={AIR: 1}, space="Holland Belgium"),
             "Germany has not held it since the start of its turn")


# --------------------------------------------------------------------------------------------
# The complex upgrade (§15.2)


def test_15_2_upgrade_gives_10_the_same_turn() -> None:
    g = game(ITA, PURCHASE, treasury={ITA: 60})
    g.do(od.Buy(units={UPGRADE: 1, "infantry": 10}))
    assert g.state.treasury[ITA] == 60 - 20 - 30
    while g.state.phase != MOB:
        g.end(confirm=True)
    place(g, {"infantry": 3}, "Southern Italy")
    place(g, {UPGRADE: 1}, "Southern Italy")
    assert said(g, 1) == ["Italy upgrades the minor industrial complex in Southern Italy to a "
                          "major industrial complex: it places up to 10 units from this turn "
                          "(§15.2, MO-2)."]
    place(g, {"infantry": 7}, "Southern Italy")
    assert g.units("Southern Italy", ITA)[MAJOR] == 1 and MINOR not in g.units("Southern Italy",
                                                                               ITA)


@pytest.mark.parametrize(("space", "extra", "why"), [
    ("Southern Italy", {"damage": {"Southern Italy": {MINOR: 2}}},
     "its minor industrial complex has 2 damage: repair it all first, in Purchase & Repair"),
    ("Northern Italy", {}, "there is no minor industrial complex of yours to upgrade"),
    ("Sardinia", {}, "there is no minor industrial complex of yours to upgrade"),
])
def test_15_2_upgrade_only_an_undamaged_minor_where_a_major_may_go(
        space: str, extra: dict[str, Any], why: str) -> None:
    g = game(ITA, MOB, purchase={UPGRADE: 1}, **extra)
    g.refuse(od.Place(units={UPGRADE: 1}, space=space),
             f"Italy cannot place a {UPGRADE} in {space}: {why}")


def test_15_2_upgrade_needs_a_territory_worth_3() -> None:
    g = game(FRA, MOB, purchase={UPGRADE: 1})
    g.refuse(od.Place(units={UPGRADE: 1}, space="Normandy Bordeaux"),
             "it is worth 2 IPCs; this needs a territory worth at least 3 IPCs")


# --------------------------------------------------------------------------------------------
# Repairs (PU-3, PU-5) and free ship repair (PU-4)


def test_PU_3_repair_1_ipc_a_marker_with_immediate_effect() -> None:
    g = game(GER, PURCHASE, treasury={GER: 10},
             damage={"Germany": {MAJOR: 12}, "Western Germany": {AIR: 4}})
    g.do(Repair(facility=MAJOR, space="Germany", markers=3))
    assert said(g, 1) == ["Germany repairs 3 damage on its major industrial complex in Germany "
                          "for 3 IPCs (9 left, PU-3)."]
    assert g.state.treasury[GER] == 7 and facility_damage(g.state, "Germany", MAJOR) == 9
    g.refuse(Repair(facility=MAJOR, space="Germany"),
             "Removing 9 damage costs 9 IPCs; Germany has 7 IPCs (PU-3: 1 IPC per marker).")
    g.refuse(Repair(facility=AIR, space="Western Germany", markers=5),
             "The air base in Western Germany has 4 damage, not 5")
    g.do(Repair(facility=AIR, space="Western Germany", markers=2))
    assert operational(g.state, "Western Germany", AIR)  # 2 left: below 3
    g.refuse(Repair(facility=NAVAL, space="Western Germany"),
             "The naval base in Western Germany has no damage. Your damaged facilities: major "
             "industrial complex in Germany (9), air base in Western Germany (2).")
    g.refuse(Repair(facility=MINOR, space="Germany"), "Germany has no minor industrial complex")
    g.refuse(Repair(facility="infantry", space="Germany"), "A infantry is not a facility")
    assert state_json(g.state)["damage"] == {"Germany": {MAJOR: 9}, "Western Germany": {AIR: 2}}


def test_PU_3_only_ones_own_facilities_in_purchase_and_repair() -> None:
    g = game(GER, PURCHASE, damage={"United Kingdom": {MAJOR: 2}})
    g.refuse(Repair(facility=MAJOR, space="United Kingdom"),
             "The major industrial complex in United Kingdom is United Kingdom's: Germany "
             "repairs only its own facilities (PU-3).")
    g.end(confirm=True)
    g.refuse(Repair(facility=MAJOR, space="Germany"), "'repair' belongs to Purchase & Repair")


def test_PU_5_not_a_facility_captured_this_turn() -> None:
    g = game(GER, PURCHASE, damage={"France": {MAJOR: 2}}, owners={"France": GER})
    g.state = replace(g.state, captured_this_turn=frozenset({"France"}))
    g.refuse(Repair(facility=MAJOR, space="France"),
             "The major industrial complex in France was captured this turn: it can be "
             "repaired from your next turn (PU-5).")


def test_PU_3_repair_is_read_from_text() -> None:
    from service.language import names_for, parse

    names = names_for(E40)
    assert parse("repair 3 major ic in Berlin", names) == Repair(
        facility=MAJOR, space="Germany", markers=3)
    assert parse("repair air base in W Germany", names) == Repair(
        facility=AIR, space="Western Germany")


def test_PU_4_capital_ships_next_to_a_friendly_naval_base_are_repaired_free() -> None:
    g = game(UK, PURCHASE, {
        "Sea Zone 110": {UK: {"battleship": 1}},  # United Kingdom's and France's bases
        "Sea Zone 105": {UK: {"aircraft carrier": 1}},  # only France's (Normandy Bordeaux)
        "Sea Zone 111": {UK: {"battleship": 1}},  # no base
        "Sea Zone 109": {UK: {"battleship": 1}},  # only United Kingdom's, damaged below
    }, damaged={"Sea Zone 110": {UK: {"battleship": 1}},
                "Sea Zone 105": {UK: {"aircraft carrier": 1}},
                "Sea Zone 111": {UK: {"battleship": 1}},
                "Sea Zone 109": {UK: {"battleship": 1}}},
        damage={"United Kingdom": {NAVAL: 3}}, treasury={UK: 5})
    # Repaired when Purchase & Repair begins: the ally's base counts, the damaged own one not.
    assert g.json["damaged"] == {"Sea Zone 111": {UK: {"battleship": 1}},
                                 "Sea Zone 109": {UK: {"battleship": 1}}}
    assert said(g, 1) == ["United Kingdom's 1 aircraft carrier, 1 battleship in Sea Zone 105 "
                          "and Sea Zone 110 are repaired (PU-4)."]
    # A naval base repaired earlier in the phase counts (PU-4).
    g.do(Repair(facility=NAVAL, space="United Kingdom", markers=1))
    assert said(g, 2) == [
        "United Kingdom repairs 1 damage on its naval base in United Kingdom for 1 IPC (2 left, "
        "PU-3).",
        "United Kingdom's 1 battleship in Sea Zone 109 is repaired (PU-4).",
    ]
    assert g.json["damaged"] == {"Sea Zone 111": {UK: {"battleship": 1}}}


def test_PU_4_A_16_not_at_a_base_of_a_power_at_war_with_nobody() -> None:
    g = game(USA, PURCHASE, {"Sea Zone 110": {USA: {"battleship": 1}}},
             damaged={"Sea Zone 110": {USA: {"battleship": 1}}})
    assert g.json["damaged"] == {"Sea Zone 110": {USA: {"battleship": 1}}}


# --------------------------------------------------------------------------------------------
# The bases' movement bonuses (CM-21, CM-22, §15.3, §15.4)


def test_CM_21_planes_taking_off_from_an_operational_air_base_fly_one_more() -> None:
    units = {"Western Germany": {GER: {"fighter": 1}}, "Germany": {GER: {"fighter": 1}}}
    g = game(GER, NCM, units, owners={"Iceland": GER})
    g.refuse(od.Move(units={"fighter": 1}, frm="Germany", to="Iceland"),
             "Fighter has 4 of 4 movement left this turn; Germany → Iceland is 6")
    g.move({"fighter": 1}, "Western Germany", "Iceland")  # 5 spaces: 4 + 1
    g = game(GER, NCM, units, owners={"Iceland": GER},
             damage={"Western Germany": {AIR: 3}})
    g.refuse(od.Move(units={"fighter": 1}, frm="Western Germany", to="Iceland"),
             "Fighter has 4 of 4 movement left this turn; Western Germany → Iceland is 5")


def test_CM_21_planes_on_a_carrier_next_to_an_air_base_get_nothing() -> None:
    g = game(GER, NCM, {"Sea Zone 112": {GER: {"aircraft carrier": 1, "fighter": 1}}},
             owners={"Iceland": GER})
    fighter = next(u for u in g.state.units_in("Sea Zone 112") if u.type == "fighter")
    from rules.board import full_move

    assert full_move(g.state, fighter) == 4


def test_CM_22_ships_starting_next_to_an_operational_naval_base_move_three() -> None:
    from rules.board import full_move

    g = game(GER, NCM, {"Sea Zone 112": {GER: {"destroyer": 1}},
                        "Sea Zone 109": {GER: {"destroyer": 1}},
                        "Sea Zone 97": {GER: {"destroyer": 1}},
                        "Sea Zone 111": {GER: {"destroyer": 1}}})
    move = {u.space: full_move(g.state, u) for u in g.state.units.values()
            if u.type == "destroyer"}
    # Own base (Western Germany); the UK's (an enemy); Italy's (an ally at war); none.
    assert move == {"Sea Zone 112": 3, "Sea Zone 109": 2, "Sea Zone 97": 3, "Sea Zone 111": 2}
    g.move({"destroyer": 1}, "Sea Zone 112", "Sea Zone 108")
    g = game(GER, NCM, {"Sea Zone 112": {GER: {"destroyer": 1}}},
             damage={"Western Germany": {NAVAL: 3}})
    g.refuse(od.Move(units={"destroyer": 1}, frm="Sea Zone 112", to="Sea Zone 108"),
             "Destroyer moves 2; Sea Zone 112 → Sea Zone 108 is 3")


def test_CO_4_A_22_no_bonus_from_a_base_captured_this_turn() -> None:
    from rules.board import full_move

    g2 = game(GER, CM, {"Holland Belgium": {GER: {"infantry": 1}},
                        "Sea Zone 105": {GER: {"destroyer": 1}}})
    ship = next(u for u in g2.state.units.values() if u.type == "destroyer")
    assert full_move(g2.state, ship) == 2  # France's base, an enemy's
    g2.move({"infantry": 1}, "Holland Belgium", "Normandy Bordeaux")
    while g2.state.phase != NCM:
        g2.end()
    assert g2.owner("Normandy Bordeaux") == GER
    assert full_move(g2.state, g2.state.units[ship.id]) == 2  # taken this turn (CO-4, A-22)
    g2.state = engine.evolve(g2.state, ev.TurnStarted(round=2, power=GER))
    ship = g2.state.units[ship.id]
    assert full_move(g2.state, ship) == 3


# --------------------------------------------------------------------------------------------
# Capture and liberation (CO-4, LI-1, LI-2)


def test_CO_4_a_captured_major_becomes_minor_with_damage_above_6_removed() -> None:
    g = game(GER, CM, {"Western Germany": {GER: {"tank": 1}}}, damage={"France": {MAJOR: 10}})
    g.move({"tank": 1}, "Western Germany", "France")
    while g.owner("France") != GER:
        g.end()
    assert g.units("France", GER) == {MINOR: 1, AIR: 1, "tank": 1}
    assert g.json["damage"] == {"France": {MINOR: 6}}
    lines = said(g)
    assert ("The major industrial complex in France is captured and becomes a minor industrial "
            "complex; 4 damage beyond its cap removed, 6 left (CO-4).") in lines


def test_LI_1_LI_2_a_liberated_complex_goes_back_stays_minor_and_serves_its_owner_next_turn(
) -> None:
    pos = position(UK, CM, with_bases({"Normandy Bordeaux": {UK: {"tank": 1}},
                                       "France": {GER: {MINOR: 1}}}),
                   edition=E40, owners={"France": GER, "Normandy Bordeaux": UK},
                   purchase={"infantry": 1}, used_bonuses=["fr_liberation"])
    g = Game(pos)  # France's free units (FR-1) paid already
    g.move({"tank": 1}, "Normandy Bordeaux", "France")
    while g.state.phase != MOB:
        g.end(confirm=True)
    assert g.owner("France") == FRA
    assert g.units("France", FRA) == {MINOR: 1, AIR: 1}  # LI-1: back to France, still minor
    g.refuse(od.Place(units={"infantry": 1}, space="France"), "never one taken this turn nor "
                                                              "an ally's")


# --------------------------------------------------------------------------------------------
# Facilities are no combat units (FA-1) and change hands with their territory (FA-3)


def test_FA_1_facilities_never_move_and_are_no_casualties() -> None:
    from rules.battle.model import is_casualty

    g = game(GER, NCM)
    g.refuse(od.Move(units={AIR: 1}, frm="Western Germany", to="Germany"),
             "Air base cannot move: facilities stay where they were placed (FA-1).")
    ed = g.state.edition
    assert not any(is_casualty(ed.units[f]) for f in (MAJOR, MINOR, AIR, NAVAL))


def test_FA_3_PU_3_legal_orders_offer_repairs_and_facility_sites() -> None:
    from rules.legal import legal_orders

    g = game(GER, PURCHASE, damage={"Western Germany": {NAVAL: 2}})
    assert Repair(power=GER, facility=NAVAL, space="Western Germany") in list(
        legal_orders(g.state, GER))
    g = game(GER, MOB, purchase={NAVAL: 1})
    where = {o.space for o in legal_orders(g.state, GER) if isinstance(o, od.Place)}
    assert "Germany" in where and "Western Germany" not in where  # one per territory
    assert "Greater Southern Germany" not in where  # no coast


def test_FA_5_game_status_lists_the_damage() -> None:
    from service.describe import status_lines

    g = game(GER, PURCHASE, damage={"Germany": {MAJOR: 3}, "Western Germany": {NAVAL: 1}})
    assert ("Facility damage: major industrial complex in Germany 3; naval base in Western "
            "Germany 1.") in status_lines(g.state)


def test_MO_1_MO_3_refusals_cite_the_europe_1940_rules() -> None:
    g = game(UK, MOB, purchase={"infantry": 1, "fighter": 1}, owners={"Normandy Bordeaux": FRA})
    g.refuse(od.Place(units={"infantry": 1}, space="Normandy Bordeaux"), "(MO-1/MO-3/MN-6).")
    g = game(UK, NCM)
    g.refuse(od.Move(units={MINOR: 1}, frm="Quebec", to="Ontario"),
             "Industrial complexes cannot move (FA-1).")
