"""Map data of Axis & Allies Classic (``rules/editions/classic/map.json``): rulebook facts.

Rule IDs refer to the Classic digest (rules/classic.md: R-MAP-..., R-ECO-..., R-NEU-...). The
rulebook has no setup charts (§8), so the board and setup come from TripleA's classic.xml; the
expected numbers below are written by hand from the digest (§3, §8) and the XML, so a wrong
map.json fails.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from rules.edition import EDITIONS_DIR, MapData, SetupTable, Space, load_edition
from service.language import names_for
from tools.classic_names import RENAMES

POWERS = ("Russia", "Germany", "United Kingdom", "Japan", "United States")
IC, AA = "industrial complex", "antiaircraft gun"
RULEBOOK_UNITS = {
    "infantry",
    "tank",
    "fighter",
    "bomber",
    "battleship",
    "aircraft carrier",
    "transport",
    "submarine",
    IC,
    AA,
}


@cache
def board() -> MapData:
    text = (EDITIONS_DIR / "classic" / "map.json").read_text("utf-8")
    return MapData.model_validate(json.loads(text))


@cache
def spaces() -> dict[str, Space]:
    return {s.name: s for s in board().spaces}


@cache
def neighbours() -> dict[str, frozenset[str]]:
    adj: dict[str, set[str]] = {s: set() for s in spaces()}
    for a, b in board().adjacency:
        adj[a].add(b)
        adj[b].add(a)
    return {k: frozenset(v) for k, v in adj.items()}


def adjacent(a: str, b: str) -> bool:
    return b in neighbours()[a]


def setup() -> SetupTable:
    return board().setup


# --- consistency ------------------------------------------------------------------------------


def test_edition_check_reports_no_problems() -> None:
    assert load_edition("classic").check() == []


def test_adjacency_is_clean() -> None:
    seen: set[frozenset[str]] = set()
    problems = []
    for a, b in board().adjacency:
        if a not in spaces() or b not in spaces():
            problems.append(f"unknown space in {a} / {b}")
        if a == b or frozenset((a, b)) in seen:
            problems.append(f"self loop or duplicate {a} / {b}")
        seen.add(frozenset((a, b)))
    assert problems == []
    assert all(neighbours()[s] for s in spaces())


def test_names_and_aliases_are_unique_for_players() -> None:
    owner: dict[str, str] = {}
    clashes = []
    for s in board().spaces:
        for form in (s.name, *s.aliases):
            prev = owner.setdefault(form.casefold(), s.name)
            if prev != s.name:
                clashes.append(f"{form!r}: {prev} / {s.name}")
    assert clashes == []
    assert names_for("classic").problems() == []


def test_every_renamed_triplea_name_is_an_alias() -> None:
    missing = [(t, ours) for t, ours in RENAMES.items() if t not in spaces()[ours].aliases]
    assert missing == []
    assert not set(RENAMES) & set(spaces())


@pytest.mark.parametrize(
    ("typed", "space"),
    [
        ("Syria Jordan", "Syria-Iraq"),
        ("English Channel", "North Sea Zone"),
        ("Anglo Sudan Egypt", "Anglo-Egyptian Sudan"),
        ("East US", "Eastern United States"),
        ("Eastern Russia", "Soviet Far East"),
        ("Finland-Norway", "Finland Norway"),
        ("Carribean Sea Zone", "Caribbean Sea Zone"),
        ("Gibraltar Sea Zone", "West Mediterranean Sea Zone"),
        ("Baltic Sea", "Baltic Sea Zone"),
        ("Red Sea", "Red Sea Zone"),
    ],
)
def test_rulebook_and_triplea_names_resolve(typed: str, space: str) -> None:
    assert names_for("classic").space(typed) == space


def test_source_records_commit() -> None:
    src = board().source
    assert src.repo == "https://github.com/triplea-maps/world_war_ii_classic"
    assert src.commit == "ea60168b53509e86b3d9a4cd45e91832a4e7c187"
    assert "map/games/classic.xml" in src.files and "map/polygons.txt" in src.files
    assert src.converter == "tools/import_triplea.py"


def test_the_xml_and_the_digest_agree() -> None:
    """Digest §3.5: every map and setup fragment of the text agrees with classic.xml."""
    assert board().setup_differences == ()


# --- the map (§3) -------------------------------------------------------------------------------


def test_R_MAP_01_space_counts() -> None:
    kinds = Counter(s.kind for s in board().spaces)
    assert (len(board().spaces), kinds["land"], kinds["sea"]) == (128, 70, 58)
    # the XML's 310 <connection>s hold one duplicate; the wrap pairs are among them already
    assert len(board().adjacency) == 309


def test_R_MAP_02_wrap_pairs_are_adjacent() -> None:
    expected = {
        frozenset(p)
        for p in (
            ("Western Canada", "Eastern Canada"),
            ("Western United States", "Eastern United States"),
            ("Mexico", "Panama"),
            ("Western Canada", "East Canada Sea Zone"),
            ("Gulf of Mexico Sea Zone", "Eastern United States Sea Zone"),
            ("Gulf of Mexico Sea Zone", "Caribbean Sea Zone"),
            ("Mexico Sea Zone", "West Panama Sea Zone"),
            ("East Pacific Sea Zone", "Peru Sea Zone"),
            ("New Zealand Sea Zone", "Peru Sea Zone"),
            ("New Zealand Sea Zone", "South Argentina Sea Zone"),
        )
    }
    assert {frozenset(p) for p in board().wrap_pairs} == expected
    assert all(adjacent(*sorted(p)) for p in expected)


def test_R_MAP_02_no_vertical_wrap() -> None:
    assert not adjacent("Antarctic Sea Zone", "North Pacific Sea Zone")
    assert not adjacent("Alaska", "Antarctic Sea Zone")


def test_R_MAP_03_capitals() -> None:
    marked = {s.name: s.capital_of for s in board().spaces if s.capital_of}
    assert marked == {
        "Russia": "Russia",
        "Germany": "Germany",
        "United Kingdom": "United Kingdom",
        "Japan": "Japan",
        "Eastern United States": "United States",
    }


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("Anglo-Egyptian Sudan", 2),
        ("Manchuria", 3),
        ("Sinkiang", 2),
        ("Gibraltar", 0),
        ("Solomon Islands", 0),
        ("Germany", 10),
        ("Eastern United States", 12),
    ],
)
def test_R_MAP_04_values(name: str, value: int) -> None:
    assert spaces()[name].value == value


def test_R_MAP_04_R_NEU_01_neutrals_are_unowned_worthless_and_enterable() -> None:
    for name in ("Turkey", "Mongolia"):
        s = spaces()[name]
        assert (s.original_owner, s.value, s.impassable) == (None, 0, False), name
    neutral = {s.name for s in board().spaces if s.kind == "land" and s.original_owner is None}
    assert neutral == {
        "Afghanistan",
        "Angola",
        "Argentina-Chile",
        "Columbia",
        "Eire",
        "Mongolia",
        "Mozambique",
        "Peru",
        "Rio del Oro",
        "Saudi Arabia",
        "Spain",
        "Sweden",
        "Switzerland",
        "Turkey",
    }
    assert all(spaces()[n].value == 0 for n in neutral)
    assert not any(s.impassable for s in board().spaces)  # R-NEU-02: entered for a fee


def test_R_MAP_05_islands() -> None:
    islands = {s.name for s in board().spaces if s.island}
    stated = {
        "United Kingdom",
        "Japan",
        "Caroline Islands",
        "Wake Island",
        "Solomon Islands",
        "Hawaiian Islands",
        "Midway",
    }
    assert stated <= islands
    assert len(islands) == 17
    for name in islands:
        assert all(spaces()[n].kind == "sea" for n in neighbours()[name]), name
    assert not spaces()["Western Europe"].island


def test_R_MAP_07_R_MAP_08_canals() -> None:
    canals = {c.name: (set(c.sea_zones), set(c.controlled_by)) for c in board().canals}
    assert canals == {
        "Panama Canal": ({"Caribbean Sea Zone", "West Panama Sea Zone"}, {"Panama"}),
        "Suez Canal": (
            {"East Mediterranean Sea Zone", "Red Sea Zone"},
            {"Anglo-Egyptian Sudan", "Syria-Iraq"},
        ),
    }
    for c in board().canals:
        assert adjacent(*c.sea_zones)
    assert board().closed_sea_zones == ()  # no strait rules in this rulebook (§3.2)


def test_R_MAP_09_sudan_and_syria_iraq_adjacent_by_land() -> None:
    assert adjacent("Anglo-Egyptian Sudan", "Syria-Iraq")


def test_R_MAP_10_karelia_borders_the_baltic_and_the_sea_north_of_it() -> None:
    assert adjacent("Karelia S.S.R.", "Baltic Sea Zone")
    assert adjacent("Karelia S.S.R.", "Karelia Sea Zone")


def test_R_MAP_11_finland_norway_not_adjacent_to_eastern_europe() -> None:
    assert not adjacent("Finland Norway", "Eastern Europe")


def test_R_MAP_12_gibraltar_algeria_and_eastern_europe_turkey_not_adjacent() -> None:
    assert not adjacent("Gibraltar", "Algeria")
    assert not adjacent("Eastern Europe", "Turkey")


def test_R_MAP_13_a_sea_zone_south_of_australia() -> None:
    assert adjacent("Australia", "South Australia Sea Zone")


def test_R_MAP_14_caucasus_borders_ukraine_not_europe() -> None:
    assert adjacent("Ukraine S.S.R.", "Caucasus")
    assert not adjacent("Caucasus", "Eastern Europe")
    assert not adjacent("Caucasus", "Southern Europe")


def test_R_MAP_01_the_gibraltar_sea_zone_touches_algeria_not_libya() -> None:
    assert adjacent("West Mediterranean Sea Zone", "Algeria")
    assert not adjacent("West Mediterranean Sea Zone", "Libya")


def test_adjacencies_of_the_worked_examples() -> None:
    """Digest §3.4: adjacencies the examples rely on."""
    pairs = [
        ("Central Mediterranean Sea Zone", "Southern Europe"),
        ("Central Mediterranean Sea Zone", "Libya"),
        ("Central Mediterranean Sea Zone", "Black Sea Zone"),
        ("Black Sea Zone", "Caucasus"),
        ("Libya", "Anglo-Egyptian Sudan"),
        ("Libya", "French Equatorial Africa"),
        ("French Equatorial Africa", "Anglo-Egyptian Sudan"),
        ("Yakut S.S.R.", "Manchuria"),
        ("Soviet Far East", "Manchuria"),
        ("China", "Manchuria"),
        ("Baltic Sea Zone", "North Sea Zone"),
        ("North Sea Zone", "Western Europe"),
        ("North Sea Zone", "Finland Norway"),
        ("Western Europe", "Germany"),
        ("Japan Sea Zone", "Manchuria"),
        ("Hawaii Sea Zone", "Midway Sea Zone"),
        ("Hawaii Sea Zone", "Solomon Islands Sea Zone"),
        ("Solomon Islands Sea Zone", "North Australia Sea Zone"),
        ("Wake Island Sea Zone", "Caroline Islands Sea Zone"),
        ("Caroline Islands Sea Zone", "Philippines Sea Zone"),
    ]
    assert [p for p in pairs if not adjacent(*p)] == []
    # the Baltic's only sea neighbour is the "English Channel" (sub retreat example)
    baltic = {n for n in neighbours()["Baltic Sea Zone"] if spaces()[n].kind == "sea"}
    assert baltic == {"North Sea Zone"}


# --- economy (§1) -------------------------------------------------------------------------------


def test_R_ECO_01_starting_income_from_territories() -> None:
    income = dict.fromkeys(POWERS, 0)
    for s in board().spaces:
        if s.original_owner is not None:
            income[s.original_owner] += s.value
    assert income == dict(zip(POWERS, (24, 32, 30, 25, 36), strict=True))
    assert sum(s.value for s in board().spaces) == 147


# --- setup (§8) ---------------------------------------------------------------------------------


def test_setup_german_infantry_and_the_aa_gun_in_western_europe() -> None:
    s = setup()
    assert [
        s[t]["Germany"]["infantry"] for t in ("Germany", "Eastern Europe", "Ukraine S.S.R.")
    ] == [
        4,
        3,
        3,
    ]
    assert s["Western Europe"]["Germany"][AA] == 1
    assert s["Libya"]["Germany"] == {"infantry": 1, "tank": 1}


def test_setup_fragments_of_the_text() -> None:
    s = setup()
    assert s["Baltic Sea Zone"]["Germany"]["submarine"] == 1
    assert s["West Spain Sea Zone"]["Germany"] == {"submarine": 1}
    assert s["North Sea Zone"]["United Kingdom"] == {"battleship": 1, "transport": 1}
    assert s["United Kingdom"]["United Kingdom"]["fighter"] == 2
    assert s["East Mediterranean Sea Zone"]["United Kingdom"] == {"submarine": 1}
    assert s["Anglo-Egyptian Sudan"]["United Kingdom"] == {"infantry": 1, "tank": 1}
    assert "French Equatorial Africa" not in s and "French West Africa" not in s
    assert spaces()["French West Africa"].original_owner == "United Kingdom"
    assert s["Caroline Islands Sea Zone"]["Japan"] == {
        "aircraft carrier": 1,
        "battleship": 1,
        "fighter": 1,
    }
    assert s["Japan Sea Zone"]["Japan"] == {"battleship": 1, "transport": 1}
    assert s["Philippines"]["Japan"] == {"fighter": 1, "infantry": 2}
    assert s["Kwangtung"]["Japan"] == {"infantry": 2}
    assert s["Hawaii Sea Zone"]["United States"] == {
        "aircraft carrier": 1,
        "fighter": 1,
        "submarine": 1,
    }
    assert s["Hawaiian Islands"]["United States"] == {"infantry": 1}
    assert s["Midway"]["United States"] == {"infantry": 1}
    assert s["Karelia Sea Zone"]["Russia"]  # naval units north of Karelia, not in the Baltic
    assert "Russia" not in s["Baltic Sea Zone"]


def test_setup_totals_per_power() -> None:
    totals: Counter[str] = Counter()
    for by_power in setup().values():
        for power, units in by_power.items():
            totals[power] += sum(units.values())
    assert dict(totals) == {
        "Germany": 45,
        "Japan": 34,
        "Russia": 31,
        "United States": 26,
        "United Kingdom": 25,
    }


def test_setup_uses_only_the_rulebook_units() -> None:
    used = {u for by_power in setup().values() for units in by_power.values() for u in units}
    assert used == RULEBOOK_UNITS


def test_industrial_complexes_and_aa_guns_at_start() -> None:
    complexes = {
        t: p for t, by_power in setup().items() for p, units in by_power.items() if units.get(IC)
    }
    assert complexes == {
        "Germany": "Germany",
        "Southern Europe": "Germany",
        "Russia": "Russia",
        "Karelia S.S.R.": "Russia",
        "United Kingdom": "United Kingdom",
        "Japan": "Japan",
        "Eastern United States": "United States",
        "Western United States": "United States",
    }
    assert {s.name for s in board().spaces if s.factory} == set(complexes)
    guns = {t for t, by_power in setup().items() for units in by_power.values() if units.get(AA)}
    assert guns == set(complexes) | {"Western Europe"}


def test_setup_spaces_are_owned_by_the_power_set_up_there() -> None:
    wrong = [
        (t, p, spaces()[t].original_owner)
        for t, by_power in setup().items()
        if spaces()[t].kind == "land"
        for p in by_power
        if spaces()[t].original_owner != p
    ]
    assert wrong == []


def test_fighters_at_sea_fit_on_own_carriers() -> None:
    over = [
        (t, p)
        for t, by_power in setup().items()
        if spaces()[t].kind == "sea"
        for p, units in by_power.items()
        if units.get("fighter", 0) > 2 * units.get("aircraft carrier", 0)
    ]
    assert over == []
