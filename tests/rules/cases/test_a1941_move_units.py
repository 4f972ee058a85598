"""Rulebook cases, a1941 sea and land unit movement: US-1..US-3, USB-4, USB-5, UD-2, UT-3,
UT-5..UT-14, UL-1, UL-3, UL-4, MN-1, MN-5, MN-7, A-8, A-9. Digest: shared/rules/a1941.md."""

from __future__ import annotations

from rules import orders as od
from tests.rules.cases._move_common import (
    CM,
    GER,
    NCM,
    SOV,
    UK,
    USA,
    advance,
    battles,
    game,
    move,
    one,
    pieces,
)


def test_US_1_sea_units_never_enter_territories() -> None:
    """US-1: a destroyer or a transport cannot move onto land."""
    g = game(GER, NCM, {"Sea Zone 5": {GER: {"destroyer": 1, "transport": 1}}})
    g.refuse(move({"destroyer": 1}, "Sea Zone 5", "Germany"), "Destroyer is a sea unit",
             "US-1")
    g.refuse(move({"transport": 1}, "Sea Zone 5", "Norway Finland"), "sea unit", "US-1")


def test_US_2_sea_units_move_two_and_stop_in_hostile_zones() -> None:
    """US-2: a battleship moves up to 2 zones; it may end in a hostile zone but not pass one;
    a third zone is refused with its Move."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"battleship": 2}},
                       "Sea Zone 6": {UK: {"destroyer": 1}},
                       "Sea Zone 8": {UK: {"transport": 1}}})
    g.refuse(move({"battleship": 1}, "Sea Zone 5", "Sea Zone 8", "Sea Zone 6"),
             "must stop in Sea Zone 6", "US-2")
    g.refuse(move({"battleship": 1}, "Sea Zone 5", "Sea Zone 14"), "Battleship moves 2", "is 3",
             "US-2")
    g.move({"battleship": 1}, "Sea Zone 5", "Sea Zone 6")
    bb = one(g, "Sea Zone 6", GER, "battleship")
    assert bb.moved == 1 and bb.stopped
    g.refuse(move({"battleship": 1}, "Sea Zone 6", "Sea Zone 8"), "able to make this move")


def test_US_3_transports_carry_land_units_and_carriers_fighters() -> None:
    """US-3: UK infantry cannot board a (US) carrier; a UK fighter cannot land on a transport,
    only on the carrier."""
    g = game(UK, NCM, {"Sea Zone 8": {USA: {"aircraft carrier": 1}},
                       "Sea Zone 7": {UK: {"transport": 1}},
                       "United Kingdom": {UK: {"infantry": 1, "fighter": 1,
                                               "industrial complex": 1}}})
    g.refuse(move({"infantry": 1}, "United Kingdom", "Sea Zone 8"), "no friendly transport in "
             "Sea Zone 8", "UT-7")
    g.refuse(move({"fighter": 1}, "United Kingdom", "Sea Zone 7"), "safe landing place",
             "NC-6")
    g.move({"infantry": 1}, "United Kingdom", "Sea Zone 7")
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 8")
    assert g.units("Sea Zone 7", UK) == {"transport": 1, "infantry": 1}
    g.end()
    assert one(g, "Sea Zone 8", UK, "fighter").carried_by == one(g, "Sea Zone 8", USA,
                                                                 "aircraft carrier").id


def test_USB_4_submarine_treats_hostile_zones_as_friendly() -> None:
    """USB-4: a German submarine ends Combat Move in a zone with a UK battleship (a battle
    follows) and another ends Noncombat Move among UK warships (no combat)."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"submarine": 2}},
                       "Sea Zone 6": {UK: {"battleship": 1}},
                       "Sea Zone 7": {UK: {"aircraft carrier": 1}}})
    g.move({"submarine": 1}, "Sea Zone 5", "Sea Zone 6")
    g.end()
    assert set(battles(g)) == {"Sea Zone 6"}
    n = game(GER, NCM, {"Sea Zone 5": {GER: {"submarine": 1}},
                        "Sea Zone 6": {UK: {"battleship": 1}},
                        "Sea Zone 7": {UK: {"aircraft carrier": 1}}})
    n.move({"submarine": 1}, "Sea Zone 5", "Sea Zone 7", "Sea Zone 6")
    n.end()
    assert n.state.phase == "mobilize" and n.units("Sea Zone 7", GER) == {"submarine": 1}


def test_USB_5_enemy_submarines_do_not_block_movement() -> None:
    """USB-5: a zone holding only a German submarine stops no UK ship, in either movement
    phase; ending a noncombat move there is allowed."""
    g = game(UK, NCM, {"Sea Zone 8": {UK: {"transport": 1, "destroyer": 1}},
                       "Sea Zone 6": {GER: {"submarine": 1}}})
    g.move({"transport": 1}, "Sea Zone 8", "Sea Zone 5", "Sea Zone 6")
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    g.end()
    assert battles(g) == {}
    assert g.units("Sea Zone 5", UK) == {"transport": 1}
    assert g.units("Sea Zone 6", UK) == {"destroyer": 1}


def test_UD_2_destroyer_stops_enemy_submarines_also_in_noncombat_move() -> None:
    """UD-2: in Noncombat Move a German submarine may not pass a UK destroyer's zone; it may stop
    there (no combat in this phase)."""
    g = game(GER, NCM, {"Sea Zone 5": {GER: {"submarine": 1}},
                        "Sea Zone 6": {UK: {"destroyer": 1}}})
    g.refuse(move({"submarine": 1}, "Sea Zone 5", "Sea Zone 7", "Sea Zone 6"),
             "Submarines stop on entering a zone with an enemy destroyer", "UD-2")
    g.move({"submarine": 1}, "Sea Zone 5", "Sea Zone 6")
    g.end()
    assert g.units("Sea Zone 6", GER) == {"submarine": 1} and battles(g) == {}


def test_UT_3_transports_cannot_attack_alone() -> None:
    """UT-3 / CM-4: a UK transport may not move into a zone holding a German destroyer on its
    own: refused at once, with the order that works; with a UK destroyer alongside (in the same
    order, or there first) the attack stands."""
    units = {"Sea Zone 8": {UK: {"transport": 1, "destroyer": 1}},
             "Sea Zone 6": {GER: {"destroyer": 1}}}
    g = game(UK, CM, units)
    g.refuse(move({"transport": 1}, "Sea Zone 8", "Sea Zone 6"),
             "Transports cannot attack alone (UT-3)", "Sea Zone 6 is hostile",
             "'move 1 transport, 1 destroyer from Sea Zone 8 to Sea Zone 6'")
    g.do(move({"transport": 1, "destroyer": 1}, "Sea Zone 8", "Sea Zone 6"))
    g.end()
    b = battles(g)["Sea Zone 6"]
    assert b.attacker == UK and len(b.attacking) == 2
    first = game(UK, CM, units)
    first.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    first.move({"transport": 1}, "Sea Zone 8", "Sea Zone 6")
    first.end()
    assert len(battles(first)["Sea Zone 6"].attacking) == 2


def test_UT_3_CM_4_lone_transport_may_not_end_combat_move_beside_enemy_units() -> None:
    """UT-3 / CM-4: a lone UK transport that moves beside a German transport (a zone that is not
    hostile) fights nothing, so Combat Move cannot end; a destroyer sent in makes it a combat
    (UT-6), and an amphibious assault from that zone is the exception UT-3 names."""
    units = {"Sea Zone 8": {UK: {"transport": 1, "destroyer": 1}},
             "Sea Zone 6": {GER: {"transport": 1}}}
    g = game(UK, CM, units)
    g.move({"transport": 1}, "Sea Zone 8", "Sea Zone 6")
    g.refuse(od.EndPhase(), "Transports cannot attack alone (UT-3)", "Sea Zone 6", "CM-4",
             "Send a unit with an attack value into Sea Zone 6")
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    g.end()
    assert g.state.phase == "conduct_combat"
    a = game(UK, CM, {"United Kingdom": {UK: {"infantry": 1}},
                      "Sea Zone 7": {UK: {"transport": 1}},
                      "Sea Zone 6": {GER: {"transport": 1}}})
    a.move({"infantry": 1}, "United Kingdom", "Sea Zone 7")
    a.move({"transport": 1}, "Sea Zone 7", "Sea Zone 6")
    a.refuse(od.EndPhase(), "Offload the cargo from there in an amphibious assault")
    a.move({"infantry": 1}, "Sea Zone 6", "Western Europe")
    a.end()
    assert a.owner("Western Europe") == UK


def test_A_9_lone_transport_in_a_hostile_zone_must_leave_if_it_can() -> None:
    """§18 A-9: a UK transport alone with a German destroyer must leave (it cannot fight); in the
    closed Sea Zone 18 it cannot move, so it stays and no battle happens."""
    g = game(UK, CM, {"Sea Zone 6": {UK: {"transport": 1}, GER: {"destroyer": 1}}})
    g.refuse(od.EndPhase(), "Transports alone cannot stay in hostile Sea Zone 6", "A-9")
    g.move({"transport": 1}, "Sea Zone 6", "Sea Zone 7")
    g.end()
    assert battles(g) == {}
    stuck = game(UK, CM, {"Sea Zone 18": {UK: {"transport": 1}, GER: {"destroyer": 1}}})
    stuck.end()
    assert battles(stuck) == {} and stuck.state.phase == NCM
    assert stuck.units("Sea Zone 18", UK) == {"transport": 1}


def test_UT_5_enemy_transports_do_not_block_movement() -> None:
    """UT-5: a zone holding only German transports does not stop a UK transport."""
    g = game(UK, NCM, {"Sea Zone 8": {UK: {"transport": 1}},
                       "Sea Zone 6": {GER: {"transport": 2}}})
    g.move({"transport": 1}, "Sea Zone 8", "Sea Zone 5", "Sea Zone 6")
    assert one(g, "Sea Zone 5", UK, "transport").moved == 2


def test_UT_6_warship_or_aircraft_ending_among_enemy_transports_sinks_them() -> None:
    """UT-6: a UK destroyer and fighter end Combat Move among two lone German transports (with
    cargo): they are destroyed without dice; the destroyer then makes no noncombat move, the
    fighter flies to land."""
    g = game(UK, CM, {"Sea Zone 8": {UK: {"destroyer": 1}},
                      "United Kingdom": {UK: {"fighter": 1, "industrial complex": 1}},
                      "Sea Zone 6": {GER: {"transport": 2, "infantry": 2}}})
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 6")
    g.end()
    g.do(od.Battle(space="Sea Zone 6"))  # no dice scripted: none may be rolled
    assert g.units("Sea Zone 6", GER) == {}
    g.end()
    g.refuse(move({"destroyer": 1}, "Sea Zone 6", "Sea Zone 8"), "able to make this move",
             "NC-1")
    g.move({"fighter": 1}, "Sea Zone 6", "United Kingdom")
    assert g.units("United Kingdom", UK) == {"fighter": 1, "industrial complex": 1}


def test_A_8_own_transports_alone_simply_ignore_enemy_transports() -> None:
    """§18 A-8: a loaded UK transport ends Combat Move beside a German transport and assaults
    empty Norway Finland; the German transport is ignored (no sea battle)."""
    g = game(UK, CM, {"Sea Zone 3": {UK: {"transport": 1, "infantry": 1}},
                      "Sea Zone 6": {GER: {"transport": 1}}})
    g.move({"transport": 1}, "Sea Zone 3", "Sea Zone 6")
    g.move({"infantry": 1}, "Sea Zone 6", "Norway Finland")
    g.end()
    assert battles(g) == {} and g.owner("Norway Finland") == UK
    assert g.units("Sea Zone 6", GER) == {"transport": 1}


def test_UT_7_transport_capacity_one_land_unit_plus_one_infantry() -> None:
    """UT-7: 1 tank + 1 infantry or 2 infantry fit; two tanks, or three infantry, do not."""
    g = game(GER, NCM, {"Sea Zone 5": {GER: {"transport": 2}},
                        "Eastern Europe": {GER: {"tank": 2, "infantry": 3}}})
    g.move({"tank": 1, "infantry": 1}, "Eastern Europe", "Sea Zone 5")
    g.refuse(move({"tank": 1, "infantry": 2}, "Eastern Europe", "Sea Zone 5"), "never two tanks",
             "UT-7")
    g.move({"infantry": 2}, "Eastern Europe", "Sea Zone 5")
    g.refuse(move({"tank": 1}, "Eastern Europe", "Sea Zone 5"), "No friendly transport",
             "UT-7")
    loads = sorted(tuple(sorted(c.type for c in g.state.units.values() if c.carried_by == t.id))
                   for t in pieces(g, "Sea Zone 5", GER, "transport"))
    assert loads == [("infantry", "infantry"), ("infantry", "tank")]


def test_UT_8_transport_loads_from_two_territories_on_its_way() -> None:
    """UT-8: load one unit, move one zone, load another, move one more zone, offload both
    (United Kingdom → Sea Zone 8 → 14, Gibraltar → Sea Zone 14 → 15, into UK-held North
    Africa)."""
    g = game(UK, NCM, {"Sea Zone 8": {UK: {"transport": 1}},
                       "United Kingdom": {UK: {"infantry": 1, "industrial complex": 1}},
                       "Gibraltar": {UK: {"tank": 1}}}, owners={"North Africa": UK})
    g.move({"infantry": 1}, "United Kingdom", "Sea Zone 8")
    g.move({"transport": 1}, "Sea Zone 8", "Sea Zone 14")
    g.move({"tank": 1}, "Gibraltar", "Sea Zone 14")
    g.move({"transport": 1}, "Sea Zone 14", "Sea Zone 15")
    g.move({"infantry": 1, "tank": 1}, "Sea Zone 15", "North Africa")
    assert g.units("North Africa", UK) == {"infantry": 1, "tank": 1}
    assert one(g, "Sea Zone 15", UK, "transport").moved == 2


def test_UT_9_cargo_loaded_in_noncombat_move_stays_aboard() -> None:
    """UT-9: infantry loaded in Noncombat Move may stay at sea; next turn it is still aboard."""
    g = game(UK, NCM, {"Sea Zone 8": {UK: {"transport": 1}},
                       "United Kingdom": {UK: {"infantry": 2, "industrial complex": 1}}})
    g.move({"infantry": 2}, "United Kingdom", "Sea Zone 8")
    g.move({"transport": 1}, "Sea Zone 8", "Sea Zone 6")
    advance(g, UK, CM)
    assert g.state.round == 2
    t = one(g, "Sea Zone 6", UK, "transport")
    assert [c.type for c in g.state.units.values() if c.carried_by == t.id] == ["infantry"] * 2


def test_UT_10_loading_and_offloading_use_a_land_units_whole_move() -> None:
    """UT-10: a tank that moved cannot load; infantry that offloaded cannot move on."""
    g = game(UK, NCM, {"Western Canada": {UK: {"tank": 1}},
                       "Sea Zone 10": {UK: {"transport": 2, "infantry": 1}}})
    g.move({"tank": 1}, "Western Canada", "Eastern Canada")
    g.refuse(move({"tank": 1}, "Eastern Canada", "Sea Zone 10"), "loading uses a land unit's "
             "whole move", "UT-10")
    g.move({"infantry": 1}, "Sea Zone 10", "Eastern Canada")
    g.refuse(move({"infantry": 1}, "Eastern Canada", "Eastern United States"),
             "able to make this move")


def test_UT_11_allied_cargo_loads_rides_and_offloads_on_three_turns() -> None:
    """UT-11 / MN-1: UK infantry boards a US transport on the UK turn (it may not offload that
    turn), the US carries it on the US turn (and may not offload it), and the UK offloads it on
    its next turn."""
    g = game(UK, NCM, {"Eastern Canada": {UK: {"infantry": 1}},
                       "Sea Zone 10": {USA: {"transport": 1}}})
    g.move({"infantry": 1}, "Eastern Canada", "Sea Zone 10")
    assert g.units("Sea Zone 10", UK) == {"infantry": 1}
    g.refuse(move({"infantry": 1}, "Sea Zone 10", "Eastern Canada"), "boarded United States' "
             "transport this turn", "later turn of its own power", "UT-11")
    advance(g, USA, NCM)
    g.move({"transport": 1}, "Sea Zone 10", "Sea Zone 11")
    g.refuse(move({"infantry": 1}, "Sea Zone 11", "Eastern United States"),
             "United States has no infantry")
    advance(g, UK, NCM)
    g.move({"infantry": 1}, "Sea Zone 11", "Eastern United States")
    assert g.units("Eastern United States", UK) == {"infantry": 1}


def test_UT_12_offloading_limits() -> None:
    """UT-12: after offloading a transport may not move; cargo never moves sea to sea; no
    offloading in a hostile zone."""
    g = game(UK, NCM, {"Sea Zone 10": {UK: {"transport": 2, "infantry": 2}},
                       "Sea Zone 7": {UK: {"transport": 1, "infantry": 1}, GER: {
                           "destroyer": 1}}})
    g.move({"infantry": 1}, "Sea Zone 10", "Eastern Canada")
    offloaded = [t for t in pieces(g, "Sea Zone 10", UK, "transport") if t.offloaded]
    assert len(offloaded) == 1
    g.refuse(move({"transport": 2}, "Sea Zone 10", "Sea Zone 1"), "offloaded", "UT-12")
    g.refuse(move({"infantry": 1}, "Sea Zone 10", "Sea Zone 1"), "moves with its transport")
    g.refuse(move({"infantry": 1}, "Sea Zone 7", "United Kingdom"), "may not offload in "
             "hostile Sea Zone 7", "UT-12")


def test_UT_13_bridging_across_a_sea_zone() -> None:
    """UT-13: a UK transport in Sea Zone 17 loads in Anglo-Egypt Sudan and offloads in Middle
    East without moving; then it may neither move nor load again."""
    g = game(UK, NCM, {"Sea Zone 17": {UK: {"transport": 1}},
                       "Anglo-Egypt Sudan": {UK: {"infantry": 2, "tank": 1}}})
    g.move({"infantry": 1, "tank": 1}, "Anglo-Egypt Sudan", "Sea Zone 17")
    g.move({"infantry": 1, "tank": 1}, "Sea Zone 17", "Middle East")
    assert g.units("Middle East", UK) == {"infantry": 1, "tank": 1}
    g.refuse(move({"transport": 1}, "Sea Zone 17", "Sea Zone 16"), "offloaded", "UT-12")
    g.refuse(move({"infantry": 1}, "Anglo-Egypt Sudan", "Sea Zone 17"), "offloaded or "
             "retreated loads no more", "UT-13")


def test_UT_14_assault_offloads_own_cargo_and_leaves_allied_cargo_aboard() -> None:
    """UT-14: a UK transport aboard which one UK infantry and one US infantry sailed from an
    earlier turn: the UK offloads its own infantry into hostile Norway Finland (an amphibious
    assault); the US infantry stays aboard; offloading into a friendly territory is not a
    combat move."""
    g = game(UK, CM, {"Sea Zone 6": {UK: {"transport": 1, "infantry": 1}, USA: {
        "infantry": 1}}})
    g.refuse(move({"infantry": 1}, "Sea Zone 6", "United Kingdom"), "United Kingdom is "
             "friendly", "amphibious assault", "UT-14")
    g.move({"infantry": 1}, "Sea Zone 6", "Norway Finland")
    g.refuse(move({"infantry": 1}, "Sea Zone 6", "Norway Finland"), "United Kingdom has no "
             "infantry")
    g.end()
    assert g.owner("Norway Finland") == UK
    assert g.units("Sea Zone 6", USA) == {"infantry": 1}


def test_UL_1_land_units_never_enter_a_sea_zone_on_their_own() -> None:
    """UL-1: infantry and tanks fight only in territories; without a transport they cannot move
    into a sea zone, even one holding enemy ships."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 1, "tank": 1}},
                       "Sea Zone 5": {UK: {"transport": 1}}})
    g.refuse(move({"tank": 1}, "Eastern Europe", "Sea Zone 5"), "no friendly transport in Sea "
             "Zone 5", "UT-7")
    g.refuse(move({"infantry": 1}, "Eastern Europe", "Sea Zone 6"), "does not border")


def test_UL_3_blitz_happens_only_in_combat_move() -> None:
    """UL-3: in Noncombat Move a tank cannot pass through an empty enemy territory."""
    g = game(GER, NCM, {"Eastern Europe": {GER: {"tank": 1}}})
    g.refuse(move({"tank": 1}, "Eastern Europe", "West Russia", "Karelia"), "hostile Karelia",
             "NC-5")
    assert g.owner("Karelia") == SOV


def test_UL_4_industrial_complex_is_captured_with_its_territory_without_a_battle() -> None:
    """UL-4 / CC-0b: complexes cannot move; German infantry entering Caucasus, held only by the
    Soviet complex, takes it without a battle and the complex changes hands."""
    g = game(GER, CM, {"Ukraine": {GER: {"infantry": 1}}})
    g.refuse(move({"industrial complex": 1}, "Caucasus", "Ukraine", "Caucasus"),
             "Industrial complexes cannot move (UL-4)", power=GER)
    g.move({"infantry": 1}, "Ukraine", "Caucasus")
    g.end()
    assert battles(g) == {} and g.owner("Caucasus") == GER
    assert g.units("Caucasus", GER) == {"infantry": 1, "industrial complex": 1}
    assert g.json["income"][GER] == 14 and g.json["income"][SOV] == 5


def test_MN_1_powers_of_one_side_share_sea_zones_and_transports() -> None:
    """MN-1: a UK destroyer joins US ships in a sea zone and UK infantry boards a US transport
    there; each power keeps its own units."""
    g = game(UK, NCM, {"Sea Zone 10": {UK: {"destroyer": 1}},
                       "Sea Zone 11": {USA: {"transport": 1, "destroyer": 1}},
                       "Eastern United States": {UK: {"infantry": 1},
                                                 USA: {"industrial complex": 1}}})
    g.move({"destroyer": 1}, "Sea Zone 10", "Sea Zone 11")
    g.move({"infantry": 1}, "Eastern United States", "Sea Zone 11")
    assert g.units("Sea Zone 11", UK) == {"destroyer": 1, "infantry": 1}
    assert g.units("Sea Zone 11", USA) == {"transport": 1, "destroyer": 1}


def test_MN_5_attack_from_an_allys_transport_on_the_land_units_turn() -> None:
    """MN-5 / UT-11: UK infantry aboard a US transport since an earlier turn assaults Norway
    Finland on the UK turn; the US transport does not move."""
    g = game(UK, CM, {"Sea Zone 6": {USA: {"transport": 1}, UK: {"infantry": 1}}})
    g.refuse(move({"transport": 1}, "Sea Zone 6", "Sea Zone 5"), "United Kingdom has no "
             "transport")
    g.move({"infantry": 1}, "Sea Zone 6", "Norway Finland")
    g.end()
    assert g.owner("Norway Finland") == UK
    assert g.units("Sea Zone 6", USA) == {"transport": 1}


def test_MN_7_no_placement_at_an_allys_complex_or_on_an_allys_carrier() -> None:
    """MN-7 / MB-1 / MB-5: the UK may not place at the US complex in Eastern United States, nor
    put a new fighter on a US carrier next to its own complex."""
    g = game(UK, "purchase", {"Sea Zone 7": {USA: {"aircraft carrier": 1}}})
    g.do(od.Buy(units={"fighter": 1}))
    advance(g, UK, "mobilize")
    g.refuse(od.Place(units={"fighter": 1}, space="Eastern United States"), "cannot place units "
             "in Eastern United States", "MB-1")
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 7"), "not an ally's, MN-7")
    g.do(od.Place(units={"fighter": 1}, space="United Kingdom"))
    assert g.units("United Kingdom", UK) == {"fighter": 1, "industrial complex": 1}


def test_UT_14_every_unit_loaded_in_combat_move_must_be_offloaded() -> None:
    """UT-14 / CM-28: a transport that loaded two infantry in Combat Move must offload both in
    its assault; offloading one and keeping the other aboard is refused at the end of Combat
    Move."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"transport": 1}},
                       "Eastern Europe": {GER: {"infantry": 2}}})
    g.move({"infantry": 2}, "Eastern Europe", "Sea Zone 5")
    g.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    g.refuse(od.EndPhase(), "infantry loaded in Combat Move", "must offload in an amphibious "
             "assault (CM-28)")
    g.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER and g.units("Karelia", GER) == {"infantry": 2}


def test_UT_12_a_transport_that_retreated_may_not_offload() -> None:
    """UT-12 / CC-6B: the UK transport's assault from hostile Sea Zone 6 fails when its force
    retreats to Sea Zone 8 (dice: UK destroyer 6; German destroyer 6); its infantry stays
    aboard and may not be offloaded this turn (UT-9: it may stay at sea)."""
    g = game(UK, CM, {"Sea Zone 8": {UK: {"transport": 1, "infantry": 1, "destroyer": 1}},
                      "Sea Zone 6": {GER: {"destroyer": 1}}})
    g.move({"transport": 1, "destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    g.move({"infantry": 1}, "Sea Zone 6", "Norway Finland")
    g.end()
    g.script(6, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    g.do(od.Retreat(space="Sea Zone 6", to="Sea Zone 8"))
    g.end()
    assert g.state.phase == NCM and g.owner("Norway Finland") == GER
    assert g.units("Sea Zone 8", UK) == {"transport": 1, "infantry": 1, "destroyer": 1}
    g.refuse(move({"infantry": 1}, "Sea Zone 8", "United Kingdom"), "retreated", "UT-12")
    g.end()
    assert g.units("Sea Zone 8", UK) == {"transport": 1, "infantry": 1, "destroyer": 1}
