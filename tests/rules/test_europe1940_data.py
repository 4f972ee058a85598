"""Europe 1940 (second edition): every fact the digest (rules/europe1940.md) states about powers,
map, setup and units, checked against the edition's data (edition.json and the converted
map.json). Tests are named after the digest's rule IDs; §n cites a section without one."""

from __future__ import annotations

import pytest

from rules.edition import Edition, load_edition


@pytest.fixture(scope="module")
def ed() -> Edition:
    return load_edition("europe1940")


def neighbours(ed: Edition, space: str) -> set[str]:
    return set(ed.neighbours[space])


def test_europe1940_data_is_consistent(ed: Edition) -> None:
    assert ed.check() == []
    assert ed.rules.title == "Axis & Allies Europe 1940, Second Edition"
    assert ed.rules.word == "europe1940" and not ed.rules.default
    assert ed.rules.rulebook == "seeds/000_10ced1394f2784e1.txt"


# --- §2 powers, sides, turn order, starting money -------------------------------------------


def test_P_3_turn_order_sides_and_starting_ipcs(ed: Edition) -> None:
    """§2.1 / P-3 / TS-1: the turn order, sides and starting IPCs of the table."""
    assert ed.turn_order == ("Germany", "Soviet Union", "United States", "United Kingdom",
                             "Italy", "France")
    assert ed.powers_of_side("Axis") == ("Germany", "Italy")
    assert ed.powers_of_side("Allies") == ("Soviet Union", "United States", "United Kingdom",
                                           "France")
    treasury = {p.name: p.starting_treasury for p in ed.rules.powers}
    assert treasury == {"Germany": 30, "Soviet Union": 28, "United States": 35,
                        "United Kingdom": 29, "Italy": 10, "France": 17}


def test_P_3_starting_income_is_the_starting_treasury(ed: Edition) -> None:
    """P-3: each power's national production starts at its starting IPCs (ST-2: the board's
    territories add up to them)."""
    owners = {s.name: s.original_owner for s in ed.map.spaces if s.kind == "land"}
    income = ed.income_from(owners)
    assert income == {p.name: p.starting_treasury for p in ed.rules.powers}


def test_P_4_A_2_A_13_canadian_territories_are_the_united_kingdoms(ed: Edition) -> None:
    canada = ("Alberta Saskatchewan Manitoba", "Ontario", "Quebec", "New Brunswick Nova Scotia",
              "Newfoundland Labrador")
    for t in canada:
        assert ed.spaces[t].original_owner == "United Kingdom", t


def test_P_4_IN_1_canadian_income_goes_to_the_united_kingdom(ed: Edition) -> None:
    owners = {s.name: s.original_owner for s in ed.map.spaces if s.kind == "land"}
    without = dict(owners, Ontario=None, Quebec=None)
    lost = ed.income_from(owners)["United Kingdom"] - ed.income_from(without)["United Kingdom"]
    assert lost == ed.value("Ontario") + ed.value("Quebec") > 0


def test_colours_of_the_table(ed: Edition) -> None:
    """§2.1: grey, red-brown, green, beige, brown, blue."""
    colours = {p.name: p.colour for p in ed.rules.powers}
    assert colours == {"Germany": "Gray", "Soviet Union": "Maroon", "United States": "Green",
                       "United Kingdom": "Tan", "Italy": "Brown", "France": "Blue"}


# --- §3 victory cities and capitals ----------------------------------------------------------


VICTORY_CITIES = {
    "Ontario": "Ottawa",
    "Eastern United States": "Washington",
    "United Kingdom": "London",
    "France": "Paris",
    "Egypt": "Cairo",
    "Novgorod": "Leningrad",
    "Russia": "Moscow",
    "Volgograd": "Stalingrad",
    "Germany": "Berlin",
    "Southern Italy": "Rome",
    "Poland": "Warsaw",
}


def test_V_1_V_2_the_eleven_victory_cities(ed: Edition) -> None:
    """§3.1: 11 victory cities; Leningrad = Novgorod, Stalingrad = Volgograd, Moscow = Russia,
    Berlin = Germany, London = United Kingdom, Paris = France (stated)."""
    assert ed.map.victory_cities == VICTORY_CITIES


def test_A_29_the_five_cities_the_text_does_not_place(ed: Edition) -> None:
    cities = ed.map.victory_cities
    assert (cities["Ontario"], cities["Eastern United States"], cities["Egypt"],
            cities["Southern Italy"], cities["Poland"]) == (
        "Ottawa", "Washington", "Cairo", "Rome", "Warsaw")


def test_V_1_eight_allied_and_three_axis_victory_cities_at_the_start(ed: Edition) -> None:
    held = {c: ed.side_of(ed.spaces[t].original_owner or "")
            for t, c in ed.map.victory_cities.items()}
    assert sorted(c for c, s in held.items() if s == "Axis") == ["Berlin", "Rome", "Warsaw"]
    assert sorted(c for c, s in held.items() if s == "Allies") == [
        "Cairo", "Leningrad", "London", "Moscow", "Ottawa", "Paris", "Stalingrad", "Washington"]


def test_V_1_V_2_victory_conditions_name_the_cities_and_capitals(ed: Edition) -> None:
    """V-1/V-2/A-32: held for a round (rules/mechanisms/victory.py, tests/rules/e40/
    test_victory.py): the Axis 8 of the 11 victory cities, the Allies Berlin and Rome, each
    with a capital of its own side, checked at the start of each power of that side's turn."""
    conds = ed.rules.victory["standard"]
    assert [(c.rule, c.side, c.kind, c.need, c.own_capital, c.check_after) for c in conds] == [
        ("V-1", "Axis", "held_a_round", 8, True, "*"),
        ("V-2", "Allies", "held_a_round", 2, True, "*")]
    assert set(conds[0].capitals) == set(VICTORY_CITIES)
    assert set(conds[1].capitals) == {"Germany", "Southern Italy"}


def test_A_29_capitals(ed: Edition) -> None:
    """§2.1 / §3.2: Berlin, Moscow, Washington, London, Rome (Southern Italy), Paris."""
    capitals = {p.name: (p.capital, p.capital_city) for p in ed.rules.powers}
    assert capitals == {
        "Germany": ("Germany", "Berlin"),
        "Soviet Union": ("Russia", "Moscow"),
        "United States": ("Eastern United States", "Washington"),
        "United Kingdom": ("United Kingdom", "London"),
        "Italy": ("Southern Italy", "Rome"),
        "France": ("France", "Paris"),
    }
    for power, (territory, _) in capitals.items():
        assert ed.spaces[territory].capital_of == power
        assert ed.spaces[territory].original_owner == power


def test_cities_are_names_of_their_territories(ed: Edition) -> None:
    for territory, city in VICTORY_CITIES.items():
        assert city in ed.spaces[territory].aliases, (territory, city)


# --- §4 map facts ----------------------------------------------------------------------------


def test_M_3_united_kingdom_is_not_adjacent_to_sea_zone_111(ed: Edition) -> None:
    assert "Sea Zone 111" not in neighbours(ed, "United Kingdom")
    assert "Sea Zone 111" in neighbours(ed, "Scotland")


def test_A_11_SC_3_united_kingdom_borders_sea_zones_109_and_110_only(ed: Edition) -> None:
    seas = {n for n in neighbours(ed, "United Kingdom") if ed.is_sea(n)}
    assert seas == {"Sea Zone 109", "Sea Zone 110"}
    assert neighbours(ed, "United Kingdom") == {"Scotland", "Sea Zone 109", "Sea Zone 110"}


def test_M_6_the_caspian_sea_is_a_sea_zone_without_a_number(ed: Edition) -> None:
    caspian = "Sea Zone 128"
    assert ed.is_sea(caspian) and "Caspian Sea" in ed.spaces[caspian].aliases
    assert neighbours(ed, caspian) == {"Caucasus", "Kazakhstan", "Turkmenistan",
                                       "Eastern Persia", "Persia", "Northwest Persia"}


def test_M_7_impassable_territories(ed: Edition) -> None:
    """M-7: Pripet Marshes (and the Sahara, which is no space of the map: nothing crosses it);
    the six Global-only edge territories (no connection on this map) are closed as well."""
    impassable = {s.name for s in ed.map.spaces if s.impassable}
    assert impassable == {"Pripet Marshes", "Himalayas", "Timguska", "Kansu", "Tsinghai",
                          "Sikang", "India"}
    for t in impassable:
        assert ed.spaces[t].original_owner is None and ed.value(t) == 0
        assert not neighbours(ed, t)
    assert not any("sahara" in s.casefold() for s in ed.spaces)
    north = {"Morocco", "Algeria", "Tunisia", "Libya", "Tobruk"}
    south = {"French West Africa", "French Central Africa", "French Equatorial Africa",
             "Nigeria", "Anglo Egyptian Sudan"}
    assert not any(neighbours(ed, t) & south for t in north)


def test_M_8_islands(ed: Edition) -> None:
    """M-8: Sardinia and Sicilia are separate islands in sea zone 95; West Indies is one island
    group in sea zone 89; Malta an island (map figure)."""
    for island, zone in (("Sardinia", "Sea Zone 95"), ("Sicily", "Sea Zone 95"),
                         ("West Indies", "Sea Zone 89"), ("Malta", "Sea Zone 96")):
        assert ed.spaces[island].island, island
        assert neighbours(ed, island) == {zone}, island
    assert "Sicilia" in ed.spaces["Sicily"].aliases
    islands = {s.name for s in ed.map.spaces if s.island}
    assert islands == {"Crete", "Cyprus", "French Madagascar", "Greenland", "Iceland", "Malta",
                       "Sardinia", "Sicily", "West Indies"}


def test_M_1_AN_1_neutral_territories_have_no_original_owner(ed: Edition) -> None:
    for t in ed.map.neutrals:
        assert ed.spaces[t].kind == "land" and ed.spaces[t].original_owner is None, t
        assert not ed.spaces[t].impassable, t
    owned = {s.name for s in ed.map.spaces if s.kind == "land" and s.original_owner}
    unowned = {s.name for s in ed.map.spaces if s.kind == "land"} - owned
    assert unowned == set(ed.map.neutrals) | {s.name for s in ed.map.spaces if s.impassable}


CANALS = {
    "Panama Canal": (("Sea Zone 64", "Sea Zone 89"), ("Central America",)),
    "Suez Canal": (("Sea Zone 81", "Sea Zone 98"), ("Egypt", "Trans-Jordan")),
    "Turkish Straits": (("Sea Zone 99", "Sea Zone 100"), ("Turkey",)),
    "Strait of Gibraltar": (("Sea Zone 91", "Sea Zone 92"), ("Gibraltar",)),
    "Danish Straits": (("Sea Zone 112", "Sea Zone 113"), ("Denmark",)),
}


def test_CS_1_canals_and_straits_with_their_controllers(ed: Edition) -> None:
    """§4.2: the five passages, the sea zones they join and who controls them."""
    got = {c.name: (c.sea_zones, c.controlled_by) for c in ed.map.canals}
    assert got == CANALS
    for c in ed.map.canals:
        a, b = c.sea_zones
        assert b in neighbours(ed, a)
        for t in c.controlled_by:
            assert a in neighbours(ed, t) and b in neighbours(ed, t), (c.name, t)


def test_CS_4_suez_needs_both_egypt_and_trans_jordan(ed: Edition) -> None:
    suez = next(c for c in ed.map.canals if c.name == "Suez Canal")
    assert set(suez.controlled_by) == {"Egypt", "Trans-Jordan"}
    assert "Trans-Jordan" in neighbours(ed, "Egypt")  # CS-8: land units cross freely


def test_CS_5_turkish_straits_are_closed_at_the_start(ed: Edition) -> None:
    """Turkey, which controls the straits, starts as a strict neutral nobody holds."""
    assert ed.spaces["Turkey"].original_owner is None
    assert ed.map.neutrals["Turkey"].alignment == "strict"


def test_CS_6_submarines_always_pass_gibraltar(ed: Edition) -> None:
    passing = {c.name for c in ed.map.canals if c.submarines_always_pass}
    assert passing == {"Strait of Gibraltar"}


def test_A_4_danish_straits_join_112_and_113(ed: Edition) -> None:
    danish = next(c for c in ed.map.canals if c.name == "Danish Straits")
    assert danish.sea_zones == ("Sea Zone 112", "Sea Zone 113")


def test_CD_1_convoy_zones_include_the_four_the_text_names(ed: Edition) -> None:
    """§4.4: 97, 109, 119 and 125 have the convoy symbol; the board's full set (TripleA
    blockade zones) has 17."""
    zones = set(ed.map.convoy_zones)
    assert {"Sea Zone 97", "Sea Zone 109", "Sea Zone 119", "Sea Zone 125"} <= zones
    assert len(zones) == 17 and all(ed.is_sea(z) for z in zones)


def test_CD_4_values_of_the_convoy_examples(ed: Edition) -> None:
    """CD-4: United Kingdom 6 + Scotland 2 around sea zone 109 make 8; Yugoslavia worth 2."""
    assert ed.value("United Kingdom") == 6 and ed.value("Scotland") == 2
    assert ed.value("Yugoslavia") == 2
    assert {"United Kingdom", "Scotland"} <= neighbours(ed, "Sea Zone 109")
    land = {t for t in neighbours(ed, "Sea Zone 109") if not ed.is_sea(t)}
    uk = sum(ed.value(t) for t in land if ed.spaces[t].original_owner == "United Kingdom")
    assert uk == 8


def test_CD_3_scotland_borders_convoy_zones_109_and_119(ed: Edition) -> None:
    assert {"Sea Zone 109", "Sea Zone 119"} <= neighbours(ed, "Scotland")
    assert {"Sea Zone 109", "Sea Zone 119"} <= set(ed.map.convoy_zones)


def test_A_19_italian_coast_of_sea_zone_97(ed: Edition) -> None:
    """A-19: Albania 1 + Southern Italy 3 + Northern Italy 4 border sea zone 97, as does
    Yugoslavia (§4.3)."""
    values = {"Albania": 1, "Southern Italy": 3, "Northern Italy": 4, "Yugoslavia": 2}
    for t, v in values.items():
        assert ed.value(t) == v, t
        assert "Sea Zone 97" in neighbours(ed, t), t


def test_convoy_zone_125_and_archangel(ed: Edition) -> None:
    """§4.3: the Soviet objective pairs sea zone 125 with Archangel; the text does not say they
    touch, and on this map they do not (Archangel borders sea zone 127)."""
    assert "Archangel" not in neighbours(ed, "Sea Zone 125")
    assert ed.spaces["Archangel"].original_owner == "Soviet Union"


# --- §6 neutrals -----------------------------------------------------------------------------


def test_NT_1_alignments_the_text_names(ed: Edition) -> None:
    """§4.5 / §6.2 / §6.4: Bulgaria and Iraq pro-Axis; Yugoslavia pro-Allied; Sweden, Turkey,
    Switzerland strict."""
    n = ed.map.neutrals
    assert (n["Bulgaria"].alignment, n["Iraq"].alignment) == ("pro_axis", "pro_axis")
    assert n["Yugoslavia"].alignment == "pro_allied"
    assert {n[t].alignment for t in ("Sweden", "Turkey", "Switzerland")} == {"strict"}


def test_NT_3_persia_and_northwest_persia_are_separate_neutrals(ed: Edition) -> None:
    """The text does not say what they are; the board data (TripleA) makes both pro-Allied."""
    n = ed.map.neutrals
    assert n["Persia"].alignment == n["Northwest Persia"].alignment == "pro_allied"
    assert n["Persia"].army == 2 and n["Northwest Persia"].army == 0


def test_NT_2_neutral_armies(ed: Edition) -> None:
    """NT-2: the infantry each neutral raises (board data: TripleA's neutral placements)."""
    armies = {t: n.army for t, n in ed.map.neutrals.items() if n.army}
    assert armies == {
        "Afghanistan": 4, "Angola": 2, "Argentina": 4, "Brazil": 3, "Bulgaria": 4, "Chile": 2,
        "Finland": 4, "Greece": 4, "Iraq": 3, "Mozambique": 2, "Persia": 2, "Portugal": 2,
        "Saudi Arabia": 2, "Spain": 6, "Sweden": 6, "Switzerland": 2, "Turkey": 8,
        "Venezuela": 2, "Yugoslavia": 5,
    }
    kinds = {n.alignment for n in ed.map.neutrals.values()}
    assert kinds == {"strict", "pro_axis", "pro_allied"} and len(ed.map.neutrals) == 34


def test_NW_3_united_states_and_soviet_union_at_war_with_no_one(ed: Edition) -> None:
    """§5.1: Germany and Italy are at war with the United Kingdom and France; the USA and the
    USSR with no one."""
    wars = {tuple(sorted(p)) for p in ed.war_at_start}
    assert wars == {("France", "Germany"), ("France", "Italy"), ("Germany", "United Kingdom"),
                    ("Italy", "United Kingdom")}
    for power in ("United States", "Soviet Union"):
        assert not any(power in p for p in ed.war_at_start)


def test_other_editions_start_with_every_opposite_pair_at_war() -> None:
    for edition in ("a1941", "classic"):
        e = load_edition(edition)
        assert e.rules.politics is None
        assert len(e.war_at_start) == 6  # 3 Allies x 2 Axis
        assert all(e.side_of(a) != e.side_of(b) for a, b in map(tuple, e.war_at_start))


# --- §7 turn ---------------------------------------------------------------------------------


def test_TS_2_phases_in_order(ed: Edition) -> None:
    assert [(p.id, p.name) for p in ed.rules.phases] == [
        ("purchase", "Purchase & Repair"), ("combat_move", "Combat Move"),
        ("conduct_combat", "Conduct Combat"), ("noncombat_move", "Noncombat Move"),
        ("mobilize", "Mobilize New Units"), ("collect_income", "Collect Income")]


def test_TS_5_CAP_2_a_power_without_its_capital_skips_purchase_mobilize_and_income(
        ed: Edition) -> None:
    skipped = [p.id for p in ed.rules.phases if p.skipped_without_capital]
    assert skipped == ["purchase", "mobilize", "collect_income"]
    assert ed.phase_info["collect_income"].automatic


# --- §15/§16 units and facilities -------------------------------------------------------------


PROFILES = {  # §16.0: cost, attack, defense, move, hits
    "infantry": (3, 1, 2, 1, 1),
    "artillery": (4, 2, 2, 1, 1),
    "mechanized infantry": (4, 1, 2, 2, 1),
    "tank": (6, 3, 3, 2, 1),
    "aa gun": (5, 0, 0, 1, 1),
    "fighter": (10, 3, 4, 4, 1),
    "tactical bomber": (11, 3, 3, 4, 1),
    "strategic bomber": (12, 4, 1, 6, 1),
    "battleship": (20, 4, 4, 2, 2),
    "aircraft carrier": (16, 0, 2, 2, 2),
    "cruiser": (12, 3, 3, 2, 1),
    "destroyer": (8, 2, 2, 2, 1),
    "submarine": (6, 2, 1, 2, 1),
    "transport": (7, 0, 0, 2, 1),
    "major industrial complex": (30, 0, 0, 0, 1),
    "minor industrial complex": (12, 0, 0, 0, 1),
    "industrial complex upgrade": (20, 0, 0, 0, 1),
    "air base": (15, 0, 0, 0, 1),
    "naval base": (15, 0, 0, 0, 1),
}


def test_PU_1_unit_profiles_of_the_summary_table(ed: Edition) -> None:
    """§16.0 (and §15.2: the minor-to-major upgrade costs 20)."""
    got = {u.name: (u.cost, u.attack, u.defense, u.move, u.hits) for u in ed.rules.units}
    assert got == PROFILES


def test_PU_1_names_players_type(ed: Edition) -> None:
    aliases = {a: u.name for u in ed.rules.units for a in u.aliases}
    for typed, unit in (("mech", "mechanized infantry"), ("mech inf", "mechanized infantry"),
                        ("tac", "tactical bomber"), ("bomber", "strategic bomber"),
                        ("stratbomber", "strategic bomber"), ("aa", "aa gun"),
                        ("major ic", "major industrial complex"),
                        ("minor ic", "minor industrial complex"), ("ic", "minor industrial complex"),
                        ("ic upgrade", "industrial complex upgrade"), ("airbase", "air base"),
                        ("harbour", "naval base"), ("carrier", "aircraft carrier")):
        assert aliases[typed] == unit, typed


def test_CA_1_CA_3_pairings(ed: Edition) -> None:
    """CA-1: artillery raises one infantry or mechanized infantry to 2; a tank or a fighter one
    tactical bomber to 4 (attack only, 1:1: the engine's part)."""
    u = ed.units
    assert set(u["artillery"].abilities.supports) == {"infantry", "mechanized infantry"}
    assert u["tank"].abilities.supports == ("tactical bomber",)
    assert u["fighter"].abilities.supports == ("tactical bomber",)
    assert (u["infantry"].abilities.paired_attack, u["mechanized infantry"].abilities.paired_attack,
            u["tactical bomber"].abilities.paired_attack) == (2, 2, 4)
    supporters = {s for x in ed.rules.units for s in x.abilities.supports}
    assert supporters == {"infantry", "mechanized infantry", "tactical bomber"}


def test_CM_20_mechanized_infantry_blitzes_only_with_a_tank(ed: Edition) -> None:
    u = ed.units
    assert u["tank"].abilities.blitz and not u["mechanized infantry"].abilities.blitz
    assert u["mechanized infantry"].abilities.blitz_with == ("tank",)


def test_LU_2_who_captures(ed: Edition) -> None:
    capture = {u.name for u in ed.rules.units if u.abilities.can_capture}
    assert capture == {"infantry", "artillery", "mechanized infantry", "tank"}


def test_GC_2_aa_gun_profile(ed: Edition) -> None:
    """§16.1: up to 3 shots a gun, may be a casualty, destroyed when its territory is taken,
    moves only in Noncombat Move."""
    ab = ed.units["aa gun"].abilities
    assert ab.anti_air and ab.aa_shots == 3 and ab.aa_casualty and ab.aa_lost_on_capture
    assert ab.move_in_noncombat_only and not ab.can_capture


def test_BR_1_BR_9_raiders(ed: Edition) -> None:
    u = ed.units
    assert u["strategic bomber"].abilities.strategic_bomber
    assert u["strategic bomber"].abilities.raid_bonus == 2
    assert u["tactical bomber"].abilities.tactical_bomber
    assert not u["tactical bomber"].abilities.strategic_bomber
    escorts = {x.name for x in ed.rules.units if x.abilities.escort_interceptor}
    assert escorts == {"fighter"}  # BR-3 / BR-4


def test_SC_2_who_scrambles(ed: Edition) -> None:
    scramble = {x.name for x in ed.rules.units if x.abilities.scramble}
    assert scramble == {"fighter", "tactical bomber"}


def test_AA_2_bombardment(ed: Edition) -> None:
    """Battleships bombard at 4, cruisers at 3: their attack values."""
    bombard = {x.name: x.attack for x in ed.rules.units if x.abilities.bombard}
    assert bombard == {"battleship": 4, "cruiser": 3}


def test_SU_2_carriers_carry_fighters_and_tactical_bombers(ed: Edition) -> None:
    u = ed.units
    assert u["aircraft carrier"].abilities.carrier_capacity == 2
    landable = {x.name for x in ed.rules.units if x.abilities.carrier_landable}
    assert landable == {"fighter", "tactical bomber"}
    assert u["aircraft carrier"].abilities.cannot_attack_alone  # CM-16


def test_SU_2_transport_carries_one_land_unit_and_one_more_infantry(ed: Edition) -> None:
    """§16.3: 1 infantry + 1 other land unit, or 2 infantry, as slot points 5 / 2 / 3."""
    cap = ed.units["transport"].abilities.transport_capacity
    cost = {u.name: u.abilities.transport_cost for u in ed.rules.units if u.domain == "land"
            and not u.abilities.facility}
    assert cap == 5 and cost.pop("infantry") == 2 and set(cost.values()) == {3}
    assert cap >= 2 + 2 and cap >= 2 + 3 and cap < 3 + 3  # 2 inf; 1 inf + 1 other; not 2 others


def test_CD_2_convoy_dice(ed: Edition) -> None:
    dice = {u.name: u.abilities.convoy_dice for u in ed.rules.units if u.abilities.convoy_dice}
    assert dice == {"battleship": 1, "cruiser": 1, "destroyer": 1, "submarine": 2}
    assert ed.units["aircraft carrier"].abilities.convoy_dice == 0
    on_carrier = {u.name: u.abilities.convoy_dice_on_carrier for u in ed.rules.units
                  if u.abilities.convoy_dice_on_carrier}
    assert on_carrier == {"fighter": 2, "tactical bomber": 2}


def test_FA_1_facilities_are_not_combat_units(ed: Edition) -> None:
    facilities = {u.name for u in ed.rules.units if u.abilities.facility}
    assert facilities == {"major industrial complex", "minor industrial complex",
                          "industrial complex upgrade", "air base", "naval base"}
    for f in facilities:
        u = ed.units[f]
        assert (u.attack, u.defense, u.move, u.abilities.transport_cost) == (0, 0, 0, 0)
    complexes = {u.name for u in ed.rules.units if u.abilities.factory}
    assert complexes == {"major industrial complex", "minor industrial complex"}


def test_FA_5_BR_10_MO_2_complexes_and_bases(ed: Edition) -> None:
    u = ed.units
    major, minor = u["major industrial complex"].abilities, u["minor industrial complex"].abilities
    assert (major.production, major.max_damage, minor.production, minor.max_damage) == (10, 20,
                                                                                         3, 6)
    for base in ("air base", "naval base"):
        assert (u[base].abilities.max_damage, u[base].abilities.inoperative_at) == (6, 3)
    assert u["air base"].abilities.air_base and u["naval base"].abilities.naval_base


def test_CO_4_a_captured_major_complex_becomes_minor(ed: Edition) -> None:
    assert ed.units["major industrial complex"].abilities.captured_as == "minor industrial complex"


def test_MO_6_A_12_placement_limits(ed: Edition) -> None:
    u = ed.units
    assert u["major industrial complex"].abilities.min_value == 3
    assert u["major industrial complex"].abilities.original_territory_only
    assert u["minor industrial complex"].abilities.min_value == 2
    assert all(u[c].abilities.not_on_islands for c in ("major industrial complex",
                                                        "minor industrial complex"))
    assert u["naval base"].abilities.coastal_only
    assert u["industrial complex upgrade"].abilities.upgrades == (
        "minor industrial complex", "major industrial complex")


def test_UB_capital_ships_stay_damaged(ed: Edition) -> None:
    """PU-4: battleships and carriers stay damaged until repaired at a naval base."""
    assert not ed.rules.rules.battleship_repair
    assert {u.name for u in ed.rules.units if u.hits == 2} == {"battleship", "aircraft carrier"}


# --- §20 setup -------------------------------------------------------------------------------


def test_ST_1_facilities_at_the_start(ed: Edition) -> None:
    """ST-1: facilities are printed on the board; TripleA's placement puts them here."""
    def where(unit: str) -> dict[str, str]:
        return {sp: pw for sp, by in ed.map.setup.items() for pw, us in by.items() if us.get(unit)}

    assert where("major industrial complex") == {
        "Germany": "Germany", "Western Germany": "Germany", "Russia": "Soviet Union",
        "United Kingdom": "United Kingdom", "Northern Italy": "Italy", "France": "France",
        "Eastern United States": "United States", "Central United States": "United States"}
    assert where("minor industrial complex") == {
        "Novgorod": "Soviet Union", "Ukraine": "Soviet Union", "Volgograd": "Soviet Union",
        "Quebec": "United Kingdom", "Union of South Africa": "United Kingdom",
        "Southern Italy": "Italy", "Normandy Bordeaux": "France", "Southern France": "France"}
    assert set(where("air base")) == {"Eastern United States", "France", "Iceland", "Novgorod",
                                      "Russia", "Scotland", "Southern Italy", "United Kingdom",
                                      "Western Germany"}
    assert set(where("naval base")) == {"Eastern United States", "Egypt", "Gibraltar",
                                        "New Brunswick Nova Scotia", "Normandy Bordeaux",
                                        "Novgorod", "Southern France", "Southern Italy",
                                        "Union of South Africa", "United Kingdom",
                                        "Western Germany"}
    complexes = set(where("major industrial complex")) | set(where("minor industrial complex"))
    assert {s.name for s in ed.map.spaces if s.factory} == complexes
    assert not any(ed.spaces[c].island for c in complexes)  # M-8


def test_ST_1_every_power_starts_with_units_and_neutral_armies_are_apart(ed: Edition) -> None:
    powers = {pw for by in ed.map.setup.values() for pw in by}
    assert powers == set(ed.powers)
    assert not set(ed.map.setup) & {t for t, n in ed.map.neutrals.items()}
    counts = {pw: sum(n for by in ed.map.setup.values() for p, us in by.items() if p == pw
                      for n in us.values()) for pw in ed.powers}
    assert counts == {"Germany": 87, "Soviet Union": 51, "United States": 17,
                      "United Kingdom": 63, "Italy": 46, "France": 32}


def test_ST_2_setup_differences_are_reported(ed: Edition) -> None:
    """Where the board data and the rulebook differ, map.json says so and what was chosen."""
    diffs = ed.map.setup_differences
    assert len(diffs) == 5
    for t in ("India", "Kansu", "Sikang", "Timguska", "Tsinghai"):
        assert any(d.startswith(f"{t}: a Global 1940 edge territory") for d in diffs), t
    notes = "\n".join(ed.map.source.notes)
    for needle in ("M-6: the Caspian Sea is the XML's Sea Zone 128",
                   "'The Sahara Desert' is not a space in the XML",
                   "A-26 (Alberta/Saskatchewan/Manitoba also adjacent to Yukon",
                   "the text does not say what Persia (pro_allied in the XML)",
                   "is TripleA's Improved Mechanized Infantry technology"):
        assert needle in notes
