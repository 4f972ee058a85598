"""Edition data of Axis & Allies 1941: consistency and concrete rulebook facts.

Rule IDs refer to the rulebook digest (rules/a1941.md). The expected numbers are written here
by hand from the digest (setup chart totals §17, unit chart PU-6), so a wrong map.json or
edition.json fails.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules.edition import Edition, SetupTable, load_edition

POWERS = ("Soviet Union", "Germany", "United Kingdom", "Japan", "United States")
IC = "industrial complex"


@pytest.fixture(scope="module")
def ed() -> Edition:
    return load_edition("a1941")


def totals(table: SetupTable, *, factories: bool = False) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {p: Counter() for p in POWERS}
    for by_power in table.values():
        for power, units in by_power.items():
            for unit, n in units.items():
                if factories or unit != IC:
                    out[power][unit] += n
    return out


def original_owners(ed: Edition) -> dict[str, str | None]:
    return {s.name: s.original_owner for s in ed.map.spaces}


# --- consistency ------------------------------------------------------------------------------


def test_edition_check_reports_no_problems(ed: Edition) -> None:
    assert ed.check() == []


def test_adjacency_is_clean(ed: Edition) -> None:
    problems = []
    seen: set[frozenset[str]] = set()
    for a, b in ed.map.adjacency:
        key = frozenset((a, b))
        if a == b:
            problems.append(f"self loop {a}")
        if key in seen:
            problems.append(f"duplicate {a} / {b}")
        seen.add(key)
    for name, nbrs in ed.neighbours.items():
        for n in nbrs:
            if name not in ed.neighbours[n]:
                problems.append(f"asymmetric {name} -> {n}")
    assert problems == []


def test_names_and_aliases_are_unique(ed: Edition) -> None:
    owner: dict[str, str] = {}
    clashes = []
    for s in ed.map.spaces:
        for form in (s.name, *s.aliases):
            prev = owner.setdefault(form.casefold(), s.name)
            if prev != s.name:
                clashes.append(f"{form!r}: {prev} / {s.name}")
    units: dict[str, str] = {}
    for u in ed.rules.units:
        for form in (u.name, *u.aliases):
            prev = units.setdefault(form.casefold(), u.name)
            if prev != u.name:
                clashes.append(f"unit {form!r}: {prev} / {u.name}")
    assert clashes == []


def test_sea_zone_names_and_aliases(ed: Edition) -> None:
    sz = ed.spaces["Sea Zone 5"]
    assert sz.kind == "sea"
    assert {"sz5", "SZ 5", "5 Sea Zone"} <= set(sz.aliases)
    assert not any(s.name.endswith("Sea Zone") for s in ed.map.spaces)


def test_rulebook_printed_names_are_aliases(ed: Edition) -> None:
    assert "Norway/Finland" in ed.spaces["Norway Finland"].aliases
    assert "Eastern U.S." in ed.spaces["Eastern United States"].aliases
    assert "Western U.S." in ed.spaces["Western United States"].aliases


def test_source_records_commit(ed: Edition) -> None:
    src = ed.map.source
    assert src.repo == "https://github.com/triplea-maps/world_war_ii_v6_1941"
    assert src.commit == "d51266ecb0d870b1dcd3528c0f1af2ddfde2538f"
    assert "map/games/WW2v6_1941.xml" in src.files
    assert src.converter == "tools/import_triplea.py"


# --- map facts (§5) -----------------------------------------------------------------------------


def test_MAP_1_space_counts(ed: Edition) -> None:
    kinds = Counter(s.kind for s in ed.map.spaces)
    assert (len(ed.map.spaces), kinds["land"], kinds["sea"]) == (120, 71, 49)
    assert len(ed.map.adjacency) == 282


def test_germany_value_factory_and_sea_zone_5(ed: Edition) -> None:
    germany = ed.spaces["Germany"]
    assert (germany.value, germany.factory, germany.original_owner) == (4, True, "Germany")
    assert "Sea Zone 5" in ed.neighbours["Germany"]


def test_MAP_3_wrap_pairs_adjacent(ed: Edition) -> None:
    expected = {
        frozenset(p)
        for p in (
            ("Western Canada", "Eastern Canada"),
            ("Western United States", "Eastern United States"),
            ("Mexico", "East Mexico"),
            ("Sea Zone 35", "Sea Zone 21"),
            ("Sea Zone 36", "Sea Zone 20"),
            ("Sea Zone 41", "Sea Zone 19"),
        )
    }
    assert {frozenset(p) for p in ed.map.wrap_pairs} == expected
    assert all(b in ed.neighbours[a] for a, b in map(tuple, expected))


def test_MAP_4_gibraltar_has_no_value(ed: Edition) -> None:
    assert ed.spaces["Gibraltar"].value == 0


def test_MAP_8_neutrals_impassable(ed: Edition) -> None:
    for name in ("Turkey", "Mongolia", "Sahara"):
        s = ed.spaces[name]
        assert (s.impassable, s.original_owner, s.value) == (True, None, 0), name
    impassable = [s for s in ed.map.spaces if s.impassable]
    assert len(impassable) == 14
    assert all(s.original_owner is None and s.value == 0 for s in impassable)


def test_MAP_9_sea_zone_18_closed(ed: Edition) -> None:
    assert ed.map.closed_sea_zones == ("Sea Zone 18",)
    assert all("Sea Zone 18" not in c.sea_zones for c in ed.map.canals)


def test_MAP_10_canals(ed: Edition) -> None:
    canals = {c.name: (set(c.sea_zones), set(c.controlled_by)) for c in ed.map.canals}
    assert canals == {
        "Panama Canal": ({"Sea Zone 12", "Sea Zone 19"}, {"Central America"}),
        "Suez Canal": ({"Sea Zone 17", "Sea Zone 28"}, {"Anglo-Egypt Sudan", "Middle East"}),
    }
    for c in ed.map.canals:
        a, b = c.sea_zones
        assert b in ed.neighbours[a]
    assert {"Sea Zone 12", "Sea Zone 19"} <= ed.neighbours["Central America"]


def test_MAP_11_middle_east_adjacent_to_anglo_egypt_sudan(ed: Edition) -> None:
    assert "Anglo-Egypt Sudan" in ed.neighbours["Middle East"]


def test_MAP_14_islands_touch_only_one_sea_zone(ed: Edition) -> None:
    islands = {s.name for s in ed.map.spaces if s.island}
    assert {"Hawaiian Islands", "Philippine Islands", "Japan", "Australia"} <= islands
    assert "United Kingdom" not in islands  # borders Eire and three sea zones
    assert len(islands) == 18
    for name in islands:
        nbrs = ed.neighbours[name]
        assert len(nbrs) == 1 and all(ed.is_sea(n) for n in nbrs), name


# --- powers, economy, victory -------------------------------------------------------------------


def test_T_1_turn_order_and_sides(ed: Edition) -> None:
    assert ed.turn_order == POWERS
    assert ed.powers_of_side("Axis") == ("Germany", "Japan")
    assert ed.powers_of_side("Allies") == ("Soviet Union", "United Kingdom", "United States")


def test_A_3_capitals(ed: Edition) -> None:
    capitals = {p.name: p.capital for p in ed.rules.powers}
    assert capitals == {
        "Soviet Union": "Russia",
        "Germany": "Germany",
        "United Kingdom": "United Kingdom",
        "Japan": "Japan",
        "United States": "Eastern United States",
    }
    marked = {s.name: s.capital_of for s in ed.map.spaces if s.capital_of}
    assert marked == {t: p for p, t in capitals.items()}


def test_P_3_starting_treasury_is_the_rulebook_chart(ed: Edition) -> None:
    treasury = {p.name: p.starting_treasury for p in ed.rules.powers}
    assert treasury == dict(zip(POWERS, (7, 12, 12, 9, 15), strict=True))


def test_P_4_starting_income_from_territories(ed: Edition) -> None:
    # Fact: the US territories add up to 17, not the 15 printed on its chart (digest README).
    income = ed.income_from(original_owners(ed))
    assert income == dict(zip(POWERS, (7, 12, 12, 9, 17), strict=True))
    assert sum(s.value for s in ed.map.spaces) == 57


def test_A_6_szechwan_starts_american(ed: Edition) -> None:
    assert ed.spaces["Szechwan"].original_owner == "United States"
    assert ed.spaces["Szechwan"].value == 1


def test_setup_spaces_are_controlled_by_the_chart_power(ed: Edition) -> None:
    wrong = [
        (space, power, ed.spaces[space].original_owner)
        for space, by_power in ed.map.setup.items()
        if not ed.is_sea(space)
        for power in by_power
        if ed.spaces[space].original_owner != power
    ]
    assert wrong == []


def test_V_1_to_V_4_victory(ed: Edition) -> None:
    got = {
        key: sorted((c.rule, c.side, c.check_after, frozenset(c.capitals), c.need) for c in conds)
        for key, conds in ed.rules.victory.items()
    }
    germany_japan = frozenset({"Germany", "Japan"})
    assert got == {
        "standard": [
            ("V-1", "Allies", "Japan", germany_japan, 2),
            (
                "V-2",
                "Axis",
                "United States",
                frozenset({"United Kingdom", "Russia", "Eastern United States"}),
                2,
            ),
        ],
        "short": [
            ("V-3", "Allies", "Japan", germany_japan, 1),
            (
                "V-4",
                "Axis",
                "United States",
                frozenset({"United Kingdom", "Eastern United States"}),
                1,
            ),
        ],
    }


def test_T_2_phases(ed: Edition) -> None:
    assert ed.phase_ids == (
        "purchase",
        "combat_move",
        "conduct_combat",
        "noncombat_move",
        "mobilize",
        "collect_income",
    )
    skipped = {p.id for p in ed.rules.phases if p.skipped_without_capital}
    assert skipped == {"purchase", "mobilize", "collect_income"}  # T-4
    assert [p.id for p in ed.rules.phases if p.automatic] == ["collect_income"]


# --- units (PU-6, §13/14) -------------------------------------------------------------------------


def test_PU_6_unit_chart(ed: Edition) -> None:
    chart = {u.name: (u.cost, u.move, u.attack, u.defense, u.hits) for u in ed.rules.units}
    assert chart == {
        "infantry": (3, 1, 1, 2, 1),
        "tank": (6, 2, 3, 3, 1),
        "fighter": (10, 4, 3, 4, 1),
        "bomber": (12, 6, 4, 1, 1),
        "submarine": (6, 2, 2, 1, 1),
        "transport": (7, 2, 0, 0, 1),
        "destroyer": (8, 2, 2, 2, 1),
        "aircraft carrier": (12, 2, 1, 2, 1),
        "battleship": (16, 2, 4, 4, 2),  # UB-2
        "industrial complex": (None, 0, 0, 0, 1),  # UL-4: cannot be bought
    }


def test_unit_abilities(ed: Edition) -> None:
    u = ed.units
    assert u["tank"].abilities.blitz and u["tank"].abilities.can_capture
    assert u["infantry"].abilities.can_capture and not u["fighter"].abilities.can_capture
    assert u["fighter"].abilities.carrier_landable and not u["bomber"].abilities.carrier_landable
    assert u["aircraft carrier"].abilities.carrier_capacity == 2  # UC-2
    sub = u["submarine"].abilities
    assert (
        sub.surprise_strike and sub.submersible and sub.cannot_hit_air and sub.cannot_be_hit_by_air
    )
    assert sub.warship and not sub.surface_warship
    assert u["destroyer"].abilities.anti_sub
    surface = {n for n, t in u.items() if t.abilities.surface_warship}
    assert surface == {"battleship", "aircraft carrier", "destroyer"}
    tt = u["transport"].abilities
    assert tt.no_combat_value and tt.chosen_last and tt.cannot_attack_alone and not tt.warship
    assert u["industrial complex"].abilities.factory


def test_UT_7_transport_loads(ed: Edition) -> None:
    cap = ed.units["transport"].abilities.transport_capacity
    inf = ed.units["infantry"].abilities.transport_cost
    tank = ed.units["tank"].abilities.transport_cost
    assert inf * 2 <= cap and tank + inf <= cap  # 2 infantry; 1 tank + 1 infantry
    assert tank * 2 > cap and inf * 3 > cap  # never 2 tanks, never 3 infantry


# --- setup (§17) ----------------------------------------------------------------------------------


DIGEST_TOTALS = {
    "Soviet Union": {"infantry": 15, "tank": 2, "fighter": 1, "submarine": 1},
    "Germany": {
        "infantry": 19,
        "tank": 6,
        "fighter": 3,
        "bomber": 1,
        "battleship": 1,
        "submarine": 3,
        "destroyer": 1,
        "transport": 1,
    },
    "United Kingdom": {
        "infantry": 7,
        "tank": 2,
        "fighter": 3,
        "bomber": 1,
        "battleship": 1,
        "aircraft carrier": 1,
        "destroyer": 2,
        "submarine": 2,
        "transport": 3,
    },
    "Japan": {
        "infantry": 10,
        "tank": 1,
        "fighter": 4,
        "bomber": 1,
        "battleship": 1,
        "aircraft carrier": 2,
        "destroyer": 2,
        "submarine": 1,
        "transport": 2,
    },
    "United States": {
        "infantry": 8,
        "tank": 2,
        "fighter": 3,
        "bomber": 1,
        "battleship": 1,
        "aircraft carrier": 1,
        "submarine": 1,
        "transport": 2,
    },
}


def test_setup_totals_match_the_rulebook_charts(ed: Edition) -> None:
    got = {p: dict(c) for p, c in totals(ed.map.setup).items()}
    assert got == DIGEST_TOTALS


def test_setup_chart_spot_checks(ed: Edition) -> None:
    s = ed.map.setup
    assert s["Russia"]["Soviet Union"] == {"infantry": 3, "tank": 1, "fighter": 1, IC: 1}
    assert s["Norway Finland"] == {"Germany": {"infantry": 2}}
    assert s["Sea Zone 42"]["United States"] == {
        "aircraft carrier": 1,
        "fighter": 2,
        "submarine": 1,
        "transport": 1,
    }
    assert s["Szechwan"] == {"United States": {"infantry": 2}}


def test_industrial_complexes_at_start(ed: Edition) -> None:
    placed = {
        space: power
        for space, by_power in ed.map.setup.items()
        for power, units in by_power.items()
        if units.get(IC)
    }
    assert placed == {
        "Russia": "Soviet Union",
        "Caucasus": "Soviet Union",
        "Germany": "Germany",
        "United Kingdom": "United Kingdom",
        "India": "United Kingdom",
        "Australia": "United Kingdom",
        "Japan": "Japan",
        "Eastern United States": "United States",
        "Western United States": "United States",
    }
    assert {s.name for s in ed.map.spaces if s.factory} == set(placed)


@pytest.mark.parametrize("label", ["setup", "errata"])
def test_fighters_at_sea_fit_on_own_carriers(ed: Edition, label: str) -> None:
    table = ed.map.setup if label == "setup" else ed.map.setup_variants["errata"]
    over = []
    for space, by_power in table.items():
        if not ed.is_sea(space):
            continue
        for power, units in by_power.items():
            room = (
                units.get("aircraft carrier", 0)
                * ed.units["aircraft carrier"].abilities.carrier_capacity
            )
            if units.get("fighter", 0) > room:
                over.append((space, power))
    assert over == []


def test_errata_variant_differs_exactly_by_the_three_known_changes(ed: Edition) -> None:
    base, errata = ed.map.setup, ed.map.setup_variants["errata"]
    keys = {
        (s, p, u) for t in (base, errata) for s, bp in t.items() for p, us in bp.items() for u in us
    }

    def count(t: SetupTable, s: str, p: str, u: str) -> int:
        return t.get(s, {}).get(p, {}).get(u, 0)

    diff = {
        k: count(errata, *k) - count(base, *k) for k in keys if count(errata, *k) != count(base, *k)
    }
    assert diff == {
        ("Russia", "Soviet Union", "infantry"): 3,
        ("Northwestern China", "United States", "infantry"): 1,
        ("Sea Zone 11", "United States", "destroyer"): 1,
    }
    assert ed.map.owners_variants == {}


def test_setup_differences_are_reported(ed: Edition) -> None:
    text = "\n".join(ed.map.setup_differences)
    for needle in ("Russia", "Northwestern China", "Sea Zone 11", "Turkish Straits", "15", "17"):
        assert needle in text
    assert all("rulebook wins" in line for line in ed.map.setup_differences)
