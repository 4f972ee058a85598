"""Rulebook cases, a1941 §10 Noncombat Move: NC-1..NC-10. Digest: shared/rules/a1941.md."""

from __future__ import annotations

from rules import events as ev
from rules import orders as od
from tests.rules.cases._move_common import (
    CM,
    GER,
    NCM,
    SOV,
    UK,
    USA,
    battles,
    fight_all,
    game,
    move,
    one,
)
from tests.rules.helpers import Game


def test_NC_1_units_that_moved_or_fought_in_combat_stay_but_air_units_fly_to_land() -> None:
    """NC-1: the infantry that took Karelia may not move again; infantry that stayed home may;
    the fighter that fought flies back to land (dice: fighter 1, infantry 6; defender 6)."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 2}},
                       "Western Europe": {GER: {"fighter": 1}},
                       "Karelia": {SOV: {"infantry": 1}}})
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.move({"fighter": 1}, "Western Europe", "Karelia")
    g.end()
    fight_all(g, "Karelia", 1, 6, 6)
    assert g.owner("Karelia") == GER
    g.end()
    assert g.state.phase == NCM
    g.refuse(move({"infantry": 1}, "Karelia", "Eastern Europe"), "able to make this move",
             "NC-1")
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.move({"fighter": 1}, "Karelia", "Western Europe")
    assert g.units("Karelia", GER) == {"infantry": 2}
    assert one(g, "Western Europe", GER, "fighter").moved == 4


def test_NC_2_land_and_sea_units_have_full_move_air_units_what_is_left() -> None:
    """NC-2: a tank and a destroyer that did not move in Combat Move move 2; a third space is
    refused with the unit's Move."""
    g = game(GER, NCM, {"Eastern Europe": {GER: {"tank": 2}},
                        "Sea Zone 5": {GER: {"destroyer": 2}}})
    g.move({"tank": 1}, "Eastern Europe", "Western Europe")
    assert one(g, "Western Europe", GER, "tank").moved == 2
    g.refuse(move({"tank": 1}, "Eastern Europe", "Spain Portugal"), "neutral", "MAP-8")
    g.refuse(move({"tank": 1}, "Western Europe", "Ukraine"), "able to make this move")
    g.refuse(move({"tank": 1}, "Eastern Europe", "Anglo-Egypt Sudan"), "Tank moves 2",
             "Eastern Europe → Anglo-Egypt Sudan is 4", "CM-2")
    g.move({"destroyer": 1}, "Sea Zone 5", "Sea Zone 7")
    assert one(g, "Sea Zone 7", GER, "destroyer").moved == 2
    g.refuse(move({"destroyer": 1}, "Sea Zone 5", "Sea Zone 14"), "Destroyer moves 2",
             "Sea Zone 5 → Sea Zone 14 is 3", "US-2")


def _sink_carrier(zone: str) -> Game:
    g = game(GER, CM, {"Sea Zone 15": {GER: {"submarine": 2}},
                       zone: {UK: {"aircraft carrier": 1, "fighter": 1}}})
    g.move({"submarine": 2}, "Sea Zone 15", zone)
    g.end()
    # Submarines 1 and 6: the hit may only go on the carrier (H-2); defenders 6, 6. Then the
    # submarines and the fighter cannot hit each other and the battle ends.
    fight_all(g, zone, 1, 6, 6, 6)
    assert g.units(zone, UK) == {"fighter": 1}
    assert one(g, zone, UK, "fighter").stranded
    g.end()
    assert g.state.phase == NCM
    return g


def test_NC_3_stranded_defending_fighter_moves_one_space_to_land() -> None:
    """NC-3 / UC-5: the UK fighter whose carrier was sunk in Sea Zone 14 lands in Gibraltar,
    one space away, before Germany's noncombat moves."""
    g = _sink_carrier("Sea Zone 14")
    assert g.units("Sea Zone 14", UK) == {}
    assert g.units("Gibraltar", UK) == {"fighter": 1}


def test_NC_3_stranded_fighter_with_nowhere_to_land_is_removed() -> None:
    """NC-3: in Sea Zone 16 (next to German North Africa and Southern Europe) the stranded UK
    fighter has no friendly territory or carrier within 1 space and is removed."""
    g = _sink_carrier("Sea Zone 16")
    assert g.units("Sea Zone 16", UK) == {}
    removed = [e for e in g.events if isinstance(e, ev.UnitsRemoved)
               and e.rule == "NC-3"]
    assert len(removed) == 1


def test_NC_4_only_air_units_and_submarines_cross_hostile_spaces() -> None:
    """NC-4: a fighter flies over Soviet Karelia and a submarine sails past a UK battleship;
    a tank and a destroyer may not."""
    g = game(GER, NCM, {"Norway Finland": {GER: {"fighter": 1, "tank": 1}},
                        "Sea Zone 5": {GER: {"submarine": 1, "destroyer": 1}},
                        "Sea Zone 6": {UK: {"battleship": 1}}})
    g.move({"fighter": 1}, "Norway Finland", "West Russia", "Karelia")
    g.move({"submarine": 1}, "Sea Zone 5", "Sea Zone 7", "Sea Zone 6")
    g.refuse(move({"tank": 1}, "Norway Finland", "West Russia", "Karelia"), "hostile Karelia",
             "NC-5")
    g.refuse(move({"destroyer": 1}, "Sea Zone 5", "Sea Zone 7", "Sea Zone 6"),
             "hostile Sea Zone 6", "NC-8")
    assert g.units("West Russia", GER) == {"fighter": 1}
    assert g.units("Sea Zone 7", GER) == {"submarine": 1}


def test_NC_5_land_units_enter_territories_captured_this_turn_never_hostile_ones() -> None:
    """NC-5: after Karelia is taken, a tank may move into it; it may not go on into empty
    Soviet Archangel, which is still hostile."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 1, "tank": 2}}})
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER and g.state.phase == NCM
    g.move({"tank": 1}, "Eastern Europe", "Karelia")
    g.refuse(move({"tank": 1}, "Eastern Europe", "Archangel", "Karelia"), "hostile Archangel",
             "NC-5")
    assert g.units("Karelia", GER) == {"infantry": 1, "tank": 1}


def test_NC_6_air_units_never_land_in_a_territory_captured_this_turn() -> None:
    """NC-6 / AIR-2: Karelia, taken this turn, is no landing place for a German fighter, whether
    or not it fought there."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 1}},
                       "Norway Finland": {GER: {"fighter": 1}}})
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER
    g.refuse(move({"fighter": 1}, "Norway Finland", "Karelia"), "Karelia is not a territory "
             "friendly since the start of the turn", "NC-6")
    g.move({"fighter": 1}, "Norway Finland", "Eastern Europe", "Karelia")
    assert g.units("Eastern Europe", GER) == {"fighter": 1}


def test_NC_6_bombers_never_land_on_carriers() -> None:
    """NC-6 / UB-1: a German bomber may not end its move on a German carrier."""
    g = game(GER, NCM, {"Western Europe": {GER: {"bomber": 1}},
                        "Sea Zone 7": {GER: {"aircraft carrier": 1}}})
    g.refuse(move({"bomber": 1}, "Western Europe", "Sea Zone 7"), "bombers never land on "
             "carriers", "NC-6")


def test_NC_6_fighter_waits_for_a_new_carrier_next_to_an_own_complex() -> None:
    """NC-6 / MB-5 / A-22: Germany bought a carrier; its fighter ends Noncombat Move in Sea Zone 5
    (hostile: a UK destroyer is there) next to the complex in Germany, and lands on the new
    carrier placed there in Mobilize."""
    g = game(GER, "purchase", {"Western Europe": {GER: {"fighter": 1}},
                               "Sea Zone 5": {UK: {"destroyer": 1}}})
    g.do(od.Buy(units={"aircraft carrier": 1}))
    g.end()
    g.end()  # Combat Move: nothing
    assert g.state.phase == NCM
    g.move({"fighter": 1}, "Western Europe", "Sea Zone 5")
    g.end()
    assert g.state.phase == "mobilize" and g.units("Sea Zone 5", GER) == {"fighter": 1}
    g.do(od.Place(units={"aircraft carrier": 1}, space="Sea Zone 5"))
    g.end()
    carrier = one(g, "Sea Zone 5", GER, "aircraft carrier")
    assert one(g, "Sea Zone 5", GER, "fighter").carried_by == carrier.id
    assert g.units("Sea Zone 5", UK) == {"destroyer": 1}


def test_NC_7_air_units_without_a_landing_place_are_destroyed() -> None:
    """NC-7: the fighter left in Karelia (taken this turn) has no safe landing place; ending
    Noncombat Move is refused with the reason, and 'end confirm' destroys it. Moving it to a
    sea zone with no carrier is refused."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 1}},
                       "Western Europe": {GER: {"fighter": 1}},
                       "Karelia": {SOV: {"infantry": 1}}})
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.move({"fighter": 1}, "Western Europe", "Karelia")
    g.end()
    fight_all(g, "Karelia", 1, 6, 6)
    g.end()
    g.refuse(move({"fighter": 1}, "Karelia", "Sea Zone 4"), "safe landing place", "NC-6/NC-7")
    g.refuse(od.EndPhase(), "fighter in Karelia", "would be destroyed", "NC-7", "end confirm")
    g.end(confirm=True)
    assert g.units("Karelia", GER) == {"infantry": 1}
    assert g.state.phase == "mobilize"


def test_NC_8_ships_may_end_among_enemy_submarines_and_transports_without_combat() -> None:
    """NC-8 / USB-5 / UT-6: a UK destroyer ends Noncombat Move beside a German submarine and
    transport; no combat happens."""
    g = game(UK, NCM, {"Sea Zone 8": {UK: {"destroyer": 1}},
                       "Sea Zone 6": {GER: {"submarine": 1, "transport": 1}}})
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    g.end()
    assert g.state.phase == "mobilize" and battles(g) == {}
    assert g.units("Sea Zone 6", GER) == {"submarine": 1, "transport": 1}
    assert g.units("Sea Zone 6", UK) == {"destroyer": 1}


def test_NC_9_transport_that_moved_in_combat_cannot_load_in_noncombat() -> None:
    """NC-9: the UK transport escaped a hostile zone in Combat Move (CM-13); in Noncombat Move
    no unit may board it."""
    g = game(UK, CM, {"Sea Zone 6": {UK: {"transport": 1}, GER: {"destroyer": 1}},
                      "United Kingdom": {UK: {"infantry": 1, "industrial complex": 1}}})
    g.move({"transport": 1}, "Sea Zone 6", "Sea Zone 7")
    g.end()
    assert g.state.phase == NCM
    g.refuse(move({"infantry": 1}, "United Kingdom", "Sea Zone 7"), "moved or fought in combat "
             "this turn cannot load in Noncombat Move (NC-9)")


def test_NC_9_transport_moving_in_noncombat_offloads_into_one_friendly_territory() -> None:
    """NC-9 / UT-12: the UK transport loads two infantry, passes Suez and offloads one into
    Anglo-Egypt Sudan; the other may not go to Middle East the same turn."""
    g = game(UK, NCM, {"Sea Zone 28": {UK: {"transport": 1}},
                       "Italian East Africa": {UK: {"infantry": 2}}})
    g.move({"infantry": 2}, "Italian East Africa", "Sea Zone 28")
    g.move({"transport": 1}, "Sea Zone 28", "Sea Zone 17")
    g.move({"infantry": 1}, "Sea Zone 17", "Anglo-Egypt Sudan")
    g.refuse(move({"infantry": 1}, "Sea Zone 17", "Middle East"), "only one territory", "UT-12")
    g.move({"infantry": 1}, "Sea Zone 17", "Anglo-Egypt Sudan")
    assert g.units("Anglo-Egypt Sudan", UK) == {"infantry": 2}
    assert g.units("Sea Zone 17", UK) == {"transport": 1}


def test_NC_10_carrier_must_move_to_collect_a_fighter() -> None:
    """NC-10 / UC-3 / AIR-5: a US fighter ends its move in Sea Zone 40 relying on the carrier in
    Sea Zone 42, which did not move in Combat Move; Noncombat Move cannot end (not even with
    'confirm') until the carrier goes there, and then the fighter lands on it."""
    g = game(USA, NCM, {"Sea Zone 42": {USA: {"aircraft carrier": 1}},
                        "Western United States": {USA: {"fighter": 1, "industrial complex": 1}}})
    g.move({"fighter": 1}, "Western United States", "Sea Zone 40")
    g.refuse(od.EndPhase(confirm=True), "aircraft carrier in Sea Zone 42 must move to Sea Zone "
             "40", "NC-10")
    g.move({"aircraft carrier": 1}, "Sea Zone 42", "Sea Zone 40")
    g.end()
    carrier = one(g, "Sea Zone 40", USA, "aircraft carrier")
    assert one(g, "Sea Zone 40", USA, "fighter").carried_by == carrier.id
