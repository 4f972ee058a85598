"""Rulebook cases, a1941 §5 map and P-6: adjacency, wrap, status of spaces, neutrals, straits,
canals, islands; no attack on an ally. Digest: shared/rules/a1941.md."""

from __future__ import annotations

from rules.edition import load_edition
from tests.rules.cases._move_common import (
    CM,
    GER,
    JAP,
    NCM,
    SOV,
    UK,
    USA,
    battles,
    game,
    move,
    one,
    setup_game,
)
from tests.rules.helpers import Game

ED = load_edition("a1941")


def test_MAP_1_units_move_only_between_adjacent_spaces() -> None:
    """MAP-1: units move between spaces that share a border; a non-adjacent step is refused."""
    g = game(SOV, CM, {"Karelia": {SOV: {"infantry": 1}},
                       "Russia": {SOV: {"infantry": 1, "fighter": 1}},
                       "Eastern Europe": {GER: {"infantry": 1}}})
    g.move({"infantry": 1}, "Karelia", "Norway Finland")
    assert g.units("Norway Finland", SOV) == {"infantry": 1}
    # Russia and Ukraine share no border: infantry would need two steps.
    g.refuse(move({"infantry": 1}, "Russia", "Ukraine"), "Infantry moves 1", "Russia → Ukraine is 2",
             "CM-2")
    # A route through spaces that do not touch is refused whatever the unit's range.
    g.refuse(move({"fighter": 1}, "Russia", "Eastern Europe", "Caucasus", "Germany"),
             "Caucasus and Germany are not adjacent", "MAP-1")
    assert g.units("Russia", SOV) == {"industrial complex": 1, "infantry": 1, "fighter": 1}


def test_MAP_2_board_wraps_east_west() -> None:
    """MAP-2: the right edge touches the left edge; crossing it is one ordinary step."""
    g = game(USA, NCM, {"Western United States": {USA: {"infantry": 1, "fighter": 1,
                                                         "industrial complex": 1}}})
    g.move({"fighter": 1}, "Western United States", "Eastern United States")
    assert one(g, "Eastern United States", USA, "fighter").moved == 1
    g.move({"infantry": 1}, "Western United States", "Eastern United States")
    assert g.units("Eastern United States", USA) == {"industrial complex": 1, "infantry": 1,
                                                     "fighter": 1}
    assert g.units("Western United States", USA) == {"industrial complex": 1}


def test_MAP_2_top_and_bottom_edges_do_not_wrap() -> None:
    """MAP-2: the top and bottom edges do not wrap: the Arctic and the far south never touch."""
    north = {"Sea Zone 1", "Sea Zone 2", "Sea Zone 3", "Sea Zone 4", "Sea Zone 47", "Sea Zone 48"}
    south = {"Sea Zone 24", "Sea Zone 25", "Sea Zone 26", "Sea Zone 34", "Sea Zone 35"}
    for n in north:
        assert not ED.neighbours[n] & south
    g = game(SOV, NCM, {"Sea Zone 4": {SOV: {"submarine": 1}}})
    g.refuse(move({"submarine": 1}, "Sea Zone 4", "Sea Zone 26"), "Submarine", "US-2")


def test_MAP_3_wrap_pairs_are_adjacent() -> None:
    """MAP-3 (§18 A-4): W. Canada-E. Canada, W. US-E. US, Mexico-East Mexico and sea zones
    35-21, 36-20, 41-19 touch across the edge: one step each, for land and sea units."""
    g = game(USA, NCM, {"Western Canada": {USA: {"tank": 1}},
                        "Mexico": {USA: {"infantry": 1}},
                        "Sea Zone 35": {USA: {"destroyer": 1}},
                        "Sea Zone 36": {USA: {"submarine": 1}},
                        "Sea Zone 41": {USA: {"transport": 1}}})
    g.move({"tank": 1}, "Western Canada", "Eastern Canada")
    g.move({"infantry": 1}, "Mexico", "East Mexico")
    g.move({"destroyer": 1}, "Sea Zone 35", "Sea Zone 21")
    g.move({"submarine": 1}, "Sea Zone 36", "Sea Zone 20")
    g.move({"transport": 1}, "Sea Zone 41", "Sea Zone 19")
    assert one(g, "Eastern Canada", USA, "tank").moved == 1
    assert one(g, "East Mexico", USA, "infantry").moved == 1
    assert one(g, "Sea Zone 21", USA, "destroyer").moved == 1
    assert one(g, "Sea Zone 20", USA, "submarine").moved == 1
    assert one(g, "Sea Zone 19", USA, "transport").moved == 1
    assert {frozenset(p) for p in ED.map.wrap_pairs} == {
        frozenset(p) for p in [("Western Canada", "Eastern Canada"),
                               ("Western United States", "Eastern United States"),
                               ("Mexico", "East Mexico"), ("Sea Zone 35", "Sea Zone 21"),
                               ("Sea Zone 36", "Sea Zone 20"), ("Sea Zone 41", "Sea Zone 19")]}


def test_MAP_4_original_controller_and_values_give_income() -> None:
    """MAP-4: the board's owners give the starting incomes (P-3: treasuries 7/12/12/9/15; the
    map's US territories add up to 17, see edition.json notes); a captured territory moves its
    value between the powers, and a value-0 territory (North Africa) moves none."""
    g = Game()
    assert g.owner("Karelia") == SOV and g.owner("Norway Finland") == GER
    assert g.owner("Gibraltar") == UK and ED.value("Gibraltar") == 0
    assert g.json["treasury"] == {SOV: 7, GER: 12, UK: 12, JAP: 9, USA: 15}
    assert g.json["income"] == {SOV: 7, GER: 12, UK: 12, JAP: 9, USA: 17}
    g = game(SOV, CM, {"Karelia": {SOV: {"infantry": 1}}})
    g.move({"infantry": 1}, "Karelia", "Norway Finland")
    g.end()  # no battle: captured (CC-0b), straight to Noncombat Move
    assert g.owner("Norway Finland") == SOV
    assert g.json["income"][SOV] == 8 and g.json["income"][GER] == 11

    g2 = game(UK, CM, {"Anglo-Egypt Sudan": {UK: {"tank": 1}}})
    before = g2.json["income"]
    g2.move({"tank": 1}, "Anglo-Egypt Sudan", "North Africa")
    g2.end()
    assert g2.owner("North Africa") == UK
    assert g2.json["income"] == before


def test_MAP_5_only_coastal_territories_touch_sea_zones() -> None:
    """MAP-5: a coastal territory borders a sea zone: Archangel loads onto a transport in Sea
    Zone 4; landlocked Russia cannot."""
    g = game(SOV, NCM, {"Sea Zone 4": {SOV: {"transport": 1}},
                        "Archangel": {SOV: {"infantry": 1}}, "Russia": {SOV: {"infantry": 1}}})
    g.refuse(move({"infantry": 1}, "Russia", "Sea Zone 4"), "Russia does not border Sea Zone 4",
             "UT-8")
    g.move({"infantry": 1}, "Archangel", "Sea Zone 4")
    assert g.units("Sea Zone 4", SOV) == {"transport": 1, "infantry": 1}


def test_MAP_6_territories_are_friendly_hostile_or_neutral() -> None:
    """MAP-6: an enemy's territory is hostile (attackable), an ally's is friendly (no combat
    move into it), a neutral one can never be entered."""
    g = game(SOV, CM, {"Caucasus": {SOV: {"infantry": 3}}})
    g.refuse(move({"infantry": 1}, "Caucasus", "Middle East"), "Middle East is friendly", "CM-4")
    g.refuse(move({"infantry": 1}, "Caucasus", "Turkey"), "Turkey is neutral", "MAP-8")
    g.move({"infantry": 1}, "Caucasus", "Ukraine")
    assert g.units("Ukraine", SOV) == {"infantry": 1}


def test_MAP_7_only_enemy_surface_warships_make_a_sea_zone_hostile() -> None:
    """MAP-7: a zone with only enemy submarines and transports is friendly (a ship may cross or
    end a noncombat move there); one enemy destroyer makes it hostile."""
    g = game(UK, NCM, {"Sea Zone 8": {UK: {"destroyer": 2}},
                       "Sea Zone 6": {GER: {"submarine": 1, "transport": 1}},
                       "Sea Zone 7": {GER: {"destroyer": 1}}})
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 5", "Sea Zone 6")
    assert g.units("Sea Zone 5", UK) == {"destroyer": 1}
    g.refuse(move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 7"), "hostile Sea Zone 7", "NC-8")


def test_MAP_8_neutral_territories_are_impassable_to_land_units() -> None:
    """MAP-8: no land unit may enter or pass through a neutral (Turkey), even a blitzing tank."""
    g = game(GER, CM, {"Southern Europe": {GER: {"infantry": 1, "tank": 1}}})
    g.refuse(move({"infantry": 1}, "Southern Europe", "Turkey"), "Turkey", "neutral", "MAP-8")
    g.refuse(move({"tank": 1}, "Southern Europe", "Middle East", "Turkey"), "Turkey", "neutral",
             "MAP-8")


def test_MAP_8_neutral_territories_are_impassable_to_air_units() -> None:
    """MAP-8: air units may not fly over a neutral: North Africa → French West Africa costs 3
    around the Sahara, not 2 across it; flying into or over the Sahara is refused."""
    g = game(UK, NCM, {"North Africa": {UK: {"fighter": 2}}}, owners={"North Africa": UK})
    g.refuse(move({"fighter": 1}, "North Africa", "French West Africa", "Sahara"), "Sahara",
             "neutral", "MAP-8")
    g.refuse(move({"fighter": 1}, "North Africa", "Sahara"), "Sahara", "neutral", "MAP-8")
    g.move({"fighter": 1}, "North Africa", "French West Africa")
    assert one(g, "French West Africa", UK, "fighter").moved == 3


def test_MAP_8_neutral_territories_are_impassable_from_the_sea() -> None:
    """MAP-8: transports cannot offload into a neutral (Spain Portugal) and ships never enter
    land."""
    g = game(GER, CM, {"Sea Zone 15": {GER: {"transport": 1, "infantry": 1, "destroyer": 1}}})
    g.refuse(move({"infantry": 1}, "Sea Zone 15", "Spain Portugal"), "Spain Portugal",
             "neutral", "MAP-8")
    g.refuse(move({"destroyer": 1}, "Sea Zone 15", "Western Europe"), "sea unit", "US-1")


def test_MAP_9_sea_zone_18_is_closed_to_sea_units() -> None:
    """MAP-9: no sea unit moves into or out of Sea Zone 18 (the Black Sea)."""
    g = game(GER, NCM, {"Sea Zone 17": {GER: {"destroyer": 1}}})
    g.refuse(move({"destroyer": 1}, "Sea Zone 17", "Sea Zone 18"), "Sea Zone 18", "Turkey has "
             "closed the straits", "MAP-9")
    s = game(SOV, NCM, {"Sea Zone 18": {SOV: {"submarine": 1, "transport": 1}}})
    s.refuse(move({"submarine": 1}, "Sea Zone 18", "Sea Zone 17"), "MAP-9")
    s.refuse(move({"transport": 1}, "Sea Zone 18", "Sea Zone 17"), "MAP-9")


def test_MAP_9_air_units_fly_over_sea_zone_18() -> None:
    """MAP-9: air units cross Sea Zone 18 normally: Ukraine → Sea Zone 17 is 2 for a fighter."""
    g = game(GER, CM, {"Ukraine": {GER: {"fighter": 1}}, "Sea Zone 17": {UK: {"transport": 1}}})
    g.move({"fighter": 1}, "Ukraine", "Sea Zone 17", "Sea Zone 18")
    assert one(g, "Sea Zone 17", GER, "fighter").moved == 2


def test_MAP_10_canals_join_their_sea_zones_in_one_step() -> None:
    """MAP-10, MAP-12 best reading: Panama joins Sea Zones 12 and 19, Suez 17 and 28; a canal
    crossing is one step for a side that held the canal at the start of the turn."""
    us = game(USA, NCM, {"Sea Zone 12": {USA: {"destroyer": 1}}})
    us.move({"destroyer": 1}, "Sea Zone 12", "Sea Zone 19")
    assert one(us, "Sea Zone 19", USA, "destroyer").moved == 1
    uk = game(UK, NCM, {"Sea Zone 17": {UK: {"transport": 1}}})
    uk.move({"transport": 1}, "Sea Zone 17", "Sea Zone 28")
    assert one(uk, "Sea Zone 28", UK, "transport").moved == 1
    assert {c.name: set(c.sea_zones) for c in ED.canal_links.values()} == {
        "Panama Canal": {"Sea Zone 12", "Sea Zone 19"},
        "Suez Canal": {"Sea Zone 17", "Sea Zone 28"}}


def test_MAP_11_a_canal_never_blocks_land_units() -> None:
    """MAP-11: Middle East and Anglo-Egypt Sudan are adjacent for land units; Central America
    is one territory that costs one step."""
    g = game(UK, NCM, {"Middle East": {UK: {"infantry": 1}}})
    g.move({"infantry": 1}, "Middle East", "Anglo-Egypt Sudan")
    assert g.units("Anglo-Egypt Sudan", UK) == {"infantry": 1}
    us = game(USA, NCM, {"East Mexico": {USA: {"tank": 1}}})
    us.move({"tank": 1}, "East Mexico", "Central America")
    assert one(us, "Central America", USA, "tank").moved == 1


def test_MAP_12_canal_open_only_to_the_side_that_held_it() -> None:
    """MAP-12: Panama belongs to whoever holds Central America (the Allies: a UK ship may use it,
    a Japanese ship may not); Suez needs both Anglo-Egypt Sudan and Middle East, so a split
    closes it to everyone."""
    jp = game(JAP, NCM, {"Sea Zone 19": {JAP: {"destroyer": 1}}})
    jp.refuse(move({"destroyer": 1}, "Sea Zone 19", "Sea Zone 12"), "Panama Canal", "closed to "
              "Axis", "Central America", "MAP-12")
    uk = game(UK, NCM, {"Sea Zone 19": {UK: {"destroyer": 1}}})
    uk.move({"destroyer": 1}, "Sea Zone 19", "Sea Zone 12")
    assert uk.units("Sea Zone 12", UK) == {"destroyer": 1}
    split = {"Middle East": GER}
    uk2 = game(UK, NCM, {"Sea Zone 28": {UK: {"destroyer": 1}}}, owners=split)
    uk2.refuse(move({"destroyer": 1}, "Sea Zone 28", "Sea Zone 17"), "Suez Canal", "MAP-12")
    ge = game(GER, NCM, {"Sea Zone 17": {GER: {"destroyer": 1}}}, owners=split)
    ge.refuse(move({"destroyer": 1}, "Sea Zone 17", "Sea Zone 28"), "Suez Canal", "MAP-12")


def test_MAP_12_canal_captured_this_turn_cannot_be_used() -> None:
    """MAP-12: Germany holds Anglo-Egypt Sudan and takes Middle East this turn; Suez is still
    closed to its ships until its next turn."""
    g = game(GER, CM, {"Anglo-Egypt Sudan": {GER: {"tank": 1}},
                       "Sea Zone 17": {GER: {"destroyer": 1}}},
             owners={"Anglo-Egypt Sudan": GER})
    g.move({"tank": 1}, "Anglo-Egypt Sudan", "Middle East")
    g.end()  # Middle East is empty: taken without a battle, then Noncombat Move
    assert g.owner("Middle East") == GER and g.state.phase == NCM
    g.refuse(move({"destroyer": 1}, "Sea Zone 17", "Sea Zone 28"), "Suez Canal",
             "at the start of this turn", "MAP-12")
    held = game(GER, NCM, {"Sea Zone 17": {GER: {"destroyer": 1}}},
                owners={"Anglo-Egypt Sudan": GER, "Middle East": GER})
    held.move({"destroyer": 1}, "Sea Zone 17", "Sea Zone 28")
    assert held.units("Sea Zone 28", GER) == {"destroyer": 1}


def test_MAP_13_air_units_ignore_canals() -> None:
    """MAP-13: a German fighter flies Southern Europe → Sea Zone 17 → Sea Zone 28 although the
    Allies hold Suez."""
    g = game(GER, CM, {"Southern Europe": {GER: {"fighter": 1}},
                       "Sea Zone 28": {UK: {"transport": 1}}})
    g.move({"fighter": 1}, "Southern Europe", "Sea Zone 28", "Sea Zone 17")
    assert one(g, "Sea Zone 28", GER, "fighter").moved == 2


def test_MAP_14_flying_to_an_island_costs_two() -> None:
    """MAP-14 / AIR-6: flying to an island costs 1 for its sea zone and 1 for the island
    (Japan → Okinawa is 2); land units cannot walk to an island."""
    g = game(JAP, NCM, {"Japan": {JAP: {"fighter": 1, "infantry": 1}}})
    g.refuse(move({"infantry": 1}, "Japan", "Okinawa"), "Infantry", "Okinawa")
    g.move({"fighter": 1}, "Japan", "Okinawa")
    assert one(g, "Okinawa", JAP, "fighter").moved == 2
    assert ED.neighbours["Okinawa"] == {"Sea Zone 45"}


def test_P_6_no_attack_on_an_ally() -> None:
    """P-6: Allies never attack Allies. A Soviet combat move into a UK territory (even one
    holding UK units) is not combat and is refused; so is a Soviet air attack on a sea zone
    holding only UK ships."""
    g = game(SOV, CM, {"Caucasus": {SOV: {"tank": 1, "fighter": 1}},
                       "Middle East": {UK: {"infantry": 1}},
                       "Sea Zone 17": {UK: {"destroyer": 1}}})
    g.refuse(move({"tank": 1}, "Caucasus", "Middle East"), "Middle East is friendly", "CM-4",
             "Noncombat Move")
    g.refuse(move({"fighter": 1}, "Caucasus", "Sea Zone 17"), "nothing hostile in Sea Zone 17",
             "CM-4")
    g.end()
    assert battles(g) == {} and g.owner("Middle East") == UK


def test_MAP_1_setup_positions_use_the_real_map() -> None:
    """MAP-1 with the printed setup: Germany's Eastern Europe tanks reach Karelia in one step
    and Archangel only by blitzing, which the Soviet infantry in Karelia prevents (CM-26)."""
    g = setup_game(GER, CM)
    g.refuse(move({"tank": 1}, "Eastern Europe", "Archangel", "Karelia"), "Karelia", "CM-26")
    g.move({"tank": 2}, "Eastern Europe", "Karelia")
    assert g.units("Karelia", GER) == {"tank": 2}
    assert g.units("Karelia", SOV) == {"infantry": 3}
