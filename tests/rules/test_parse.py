"""The text order parser (service/language.py, rules/language/): grammar of COMMANDS.md, forgiving names, errors."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.edition import (
    Edition,
    EditionRules,
    MapData,
    PhaseInfo,
    Power,
    Source,
    Space,
    UnitType,
    load_edition,
)
from rules.errors import AmbiguousOrder, InvalidOrder, RulesError
from rules.orders import (
    Battle,
    Buy,
    Casualties,
    ClearPurchase,
    EndPhase,
    Move,
    Place,
    Press,
    Retreat,
    StandingCasualties,
    Strike,
    Submerge,
)
from service.language import (
    MAX_LENGTH,
    VERBS,
    CommandAdapter,
    Deadline,
    DiceVerify,
    GameExport,
    GameHistory,
    GameJoin,
    GameMap,
    GameNew,
    GameStart,
    GameStatus,
    Help,
    Kick,
    Names,
    Odds,
    Pause,
    Resume,
    State,
    Substitute,
    Undo,
    format_units,
    names_for,
    parse,
    parse_units,
    plural,
)

EDITIONS = {"a1941": ("1941", "a&a 1941"), "a1942": ("1942",)}


@pytest.fixture(scope="module")
def names() -> Names:
    return Names(load_edition("a1941"), editions=EDITIONS)


def p(text: str, names: Names) -> object:
    return parse(text, names)


def raised(kind: type[InvalidOrder], fn: Callable[[str], str], text: str) -> str:
    with pytest.raises(kind) as info:
        fn(text)
    return str(info.value)


def error(text: str, names: Names) -> str:
    with pytest.raises(InvalidOrder) as info:
        parse(text, names)
    return str(info.value)


# --------------------------------------------------------------------------------------------
# A small fixture edition, independent of the real data (collisions, empty names).
# --------------------------------------------------------------------------------------------


def _fixture_edition() -> Edition:
    def unit(name: str, *aliases: str, domain: str = "land") -> UnitType:
        return UnitType.model_validate(
            {
                "name": name,
                "aliases": aliases,
                "domain": domain,
                "cost": 3,
                "attack": 1,
                "defense": 2,
                "move": 1,
            }
        )

    def space(name: str, *aliases: str, kind: str = "land") -> Space:
        return Space.model_validate({"name": name, "aliases": aliases, "kind": kind})

    rules = EditionRules(
        id="fx",
        title="Fixture",
        aliases=("fixture",),
        rulebook="-",
        digest="-",
        sides=("Axis", "Allies"),
        powers=(
            Power(
                name="Germany", side="Axis", turn_order=1, starting_treasury=30, capital="Germany"
            ),
            Power(
                name="Soviet Union",
                aliases=("Russians",),
                side="Allies",
                turn_order=0,
                starting_treasury=24,
                capital="West Russia",
            ),
        ),
        units=(
            unit("infantry", "inf"),
            unit("tank", "arm", "armor", "armour"),
            unit("fighter", "ftr", domain="air"),
            unit("bomber", "bmb", domain="air"),
            unit("submarine", "sub", domain="sea"),
            unit("transport", "tt", "trn", domain="sea"),
            unit("destroyer", "dd", domain="sea"),
            unit("aircraft carrier", "cv", "carrier", domain="sea"),
            unit("battleship", "bb", domain="sea"),
            unit("industrial complex", "ic"),
        ),
        phases=(PhaseInfo(id="purchase", name="Purchase"),),
        victory={},
    )
    board = MapData(
        source=Source(repo="-", commit="-", files=(), converter="-"),
        spaces=(
            space("Eastern United States", "Eastern U.S."),
            space("Norway Finland", "Norway/Finland"),
            space("Germany"),
            space("Eastern Europe"),
            space("West Russia"),
            space("Western Europe", "Germany"),  # a deliberate collision
            space("Sea Zone 5", "sz5", "5 Sea Zone", kind="sea"),
            space("Hawaiian Islands"),
        ),
        adjacency=(),
        setup={},
    )
    return Edition(rules, board)


def test_fixture_edition_names_and_collisions() -> None:
    n = Names(_fixture_edition(), editions={})
    assert n.space("eastern u.s.") == "Eastern United States"
    assert n.space("norway/finland") == "Norway Finland"
    assert n.space("5 sea zone") == "Sea Zone 5"
    assert n.unit("carriers") == "aircraft carrier"
    assert n.power("russians") == "Soviet Union"
    assert n.power("ussr") == "Soviet Union"  # built-in short form for an edition power
    assert n.edition_id("fixture") == "fx"
    # a data alias equal to another space's name is reported, and the name itself wins
    assert any("Germany" in problem for problem in n.problems())
    with pytest.raises(AmbiguousOrder) as info:
        n.space("germany")
    assert info.value.choices == ["Germany", "Western Europe"]


def test_names_without_a_game_know_only_editions() -> None:
    n = Names(editions=EDITIONS)
    assert parse("game new 1941", n) == GameNew(edition="a1941")
    msg = error("move 1 inf from Germany to Ukraine", n)
    assert "game new" in msg


def test_real_data_has_no_name_collisions(names: Names) -> None:
    assert names.problems() == []


def test_names_for_is_cached() -> None:
    assert names_for("a1941") is names_for("a1941")
    assert names_for("a1941").space("sz5") == "Sea Zone 5"


# --------------------------------------------------------------------------------------------
# Names: spaces
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "space"),
    [
        ("Eastern Europe", "Eastern Europe"),
        ("eastern europe", "Eastern Europe"),
        ("EASTERN   EUROPE", "Eastern Europe"),
        ("e europe", "Eastern Europe"),
        ("E. Europe", "Eastern Europe"),
        ("east europe", "Eastern Europe"),
        ("w europe", "Western Europe"),
        ("W. Europe", "Western Europe"),
        ("w russia", "West Russia"),
        ("western russia", "West Russia"),
        ("s europe", "Southern Europe"),
        ("se asia", "Southeast Asia"),
        ("south-east asia", "Southeast Asia"),
        ("nw china", "Northwestern China"),
        ("northwest china", "Northwestern China"),
        ("norway/finland", "Norway Finland"),
        ("Norway-Finland", "Norway Finland"),
        ("norway finland", "Norway Finland"),
        ("NorwayFinland", "Norway Finland"),
        ("Eastern U.S.", "Eastern United States"),
        ("eastern us", "Eastern United States"),
        ("e us", "Eastern United States"),
        ("e. u.s.", "Eastern United States"),
        ("east united states", "Eastern United States"),
        ("eastern u.s.a.", "Eastern United States"),
        ("w us", "Western United States"),
        ("uk", "United Kingdom"),
        ("u.k.", "United Kingdom"),
        ("Sea Zone 5", "Sea Zone 5"),
        ("sea zone 5", "Sea Zone 5"),
        ("sz5", "Sea Zone 5"),
        ("SZ5", "Sea Zone 5"),
        ("sz 5", "Sea Zone 5"),
        ("sz-5", "Sea Zone 5"),
        ("5 sea zone", "Sea Zone 5"),
        ("5 Sea Zone", "Sea Zone 5"),
        ("seazone5", "Sea Zone 5"),
        ("seazone 5", "Sea Zone 5"),
        ("sea zone 05", "Sea Zone 5"),
        ("sz12", "Sea Zone 12"),
        ("12 sea zone", "Sea Zone 12"),
        ("hawaiian islands", "Hawaiian Islands"),
        ("hawaiian is.", "Hawaiian Islands"),
        ("hawaii", "Hawaiian Islands"),
        ("union of south africa", "Union of South Africa"),
        ("union south africa", "Union of South Africa"),
        ("anglo egypt sudan", "Anglo-Egypt Sudan"),
        ("ukr", "Ukraine"),  # a unique prefix
        ("Ukraine", "Ukraine"),
    ],
)
def test_space_forms(names: Names, text: str, space: str) -> None:
    assert names.space(text) == space


def test_exact_match_wins_over_prefix(names: Names) -> None:
    assert names.space("sz1") == "Sea Zone 1"  # not ambiguous with Sea Zone 10..19
    assert names.space("India") == "India"
    assert names.space("Russia") == "Russia"  # not West Russia


def test_unknown_space_lists_closest(names: Names) -> None:
    with pytest.raises(InvalidOrder) as info:
        names.space("Ukrane")
    assert str(info.value) == "Unknown space 'Ukrane'. Did you mean: Ukraine?"
    assert not isinstance(info.value, AmbiguousOrder)
    msg = raised(InvalidOrder, names.space, "Germny")
    assert "Did you mean: Germany" in msg
    msg = raised(InvalidOrder, names.space, "Hawaiin Islands")
    assert "Hawaiian Islands" in msg


def test_unknown_space_without_close_names(names: Names) -> None:
    msg = raised(InvalidOrder, names.space, "Atlantis Prime")
    assert msg.startswith("Unknown space 'Atlantis Prime'.")
    assert "game map" in msg


def test_suggestions_at_most_three(names: Names) -> None:
    msg = raised(InvalidOrder, names.space, "sea zone 99")
    assert msg.startswith("Unknown space 'sea zone 99'. Did you mean: ")
    assert msg.count("Sea Zone") <= 3


@pytest.mark.parametrize(
    ("text", "some"),
    [
        ("east", ["Eastern Europe", "East Mexico", "Eastern Canada", "Eastern United States"]),
        ("europe", ["Eastern Europe", "Western Europe", "Southern Europe"]),
        ("western", ["Western Europe", "Western Canada", "Western United States"]),
        ("sz", ["Sea Zone 1", "Sea Zone 49"]),
    ],
)
def test_ambiguous_space_lists_all(names: Names, text: str, some: list[str]) -> None:
    with pytest.raises(AmbiguousOrder) as info:
        names.space(text)
    for name in some:
        assert name in info.value.choices
    assert info.value.choices == sorted(info.value.choices)
    assert str(info.value).startswith(f"'{text}' could be any of {len(info.value.choices)}")
    assert "Write more of the name" in str(info.value)


def test_ambiguous_message_names_them(names: Names) -> None:
    msg = raised(AmbiguousOrder, names.space, "europe")
    assert "Eastern Europe, Southern Europe, Western Europe" in msg


def test_empty_space_name(names: Names) -> None:
    with pytest.raises(InvalidOrder):
        names.space("...")


# --------------------------------------------------------------------------------------------
# Names: units, powers, editions
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("infantry", "infantry"),
        ("Infantry", "infantry"),
        ("infantries", "infantry"),
        ("inf", "infantry"),
        ("tank", "tank"),
        ("tanks", "tank"),
        ("arm", "tank"),
        ("armor", "tank"),
        ("armour", "tank"),
        ("fighter", "fighter"),
        ("fighters", "fighter"),
        ("ftr", "fighter"),
        ("bomber", "bomber"),
        ("bombers", "bomber"),
        ("bmb", "bomber"),
        ("submarine", "submarine"),
        ("submarines", "submarine"),
        ("sub", "submarine"),
        ("subs", "submarine"),
        ("transport", "transport"),
        ("transports", "transport"),
        ("tt", "transport"),
        ("trn", "transport"),
        ("destroyer", "destroyer"),
        ("destroyers", "destroyer"),
        ("dd", "destroyer"),
        ("aircraft carrier", "aircraft carrier"),
        ("aircraft carriers", "aircraft carrier"),
        ("Aircraft-Carrier", "aircraft carrier"),
        ("carrier", "aircraft carrier"),
        ("carriers", "aircraft carrier"),
        ("cv", "aircraft carrier"),
        ("battleship", "battleship"),
        ("battleships", "battleship"),
        ("bb", "battleship"),
        ("industrial complex", "industrial complex"),
        ("industrial complexes", "industrial complex"),
        ("ic", "industrial complex"),
    ],
)
def test_unit_forms(names: Names, text: str, unit: str) -> None:
    assert names.unit(text) == unit


def test_unknown_unit_suggests_and_lists(names: Names) -> None:
    msg = raised(InvalidOrder, names.unit, "tnak")
    assert msg.startswith("Unknown unit 'tnak'. Did you mean: tank")
    assert "Units: infantry, tank, fighter" in msg


def test_ambiguous_unit(names: Names) -> None:
    with pytest.raises(AmbiguousOrder) as info:
        names.unit("b")
    assert info.value.choices == ["battleship", "bomber"]


@pytest.mark.parametrize(
    ("text", "power"),
    [
        ("Germany", "Germany"),
        ("germans", "Germany"),
        ("Soviet Union", "Soviet Union"),
        ("soviet union", "Soviet Union"),
        ("ussr", "Soviet Union"),
        ("U.S.S.R.", "Soviet Union"),
        ("United Kingdom", "United Kingdom"),
        ("uk", "United Kingdom"),
        ("u.k.", "United Kingdom"),
        ("united states", "United States"),
        ("usa", "United States"),
        ("u.s.", "United States"),
        ("japan", "Japan"),
        ("japanese", "Japan"),
    ],
)
def test_power_forms(names: Names, text: str, power: str) -> None:
    assert names.power(text) == power


def test_unknown_power(names: Names) -> None:
    msg = raised(InvalidOrder, names.power, "Jappan")
    assert msg.startswith("Unknown power 'Jappan'. Did you mean: Japan")
    assert "Powers: Soviet Union, Germany, United Kingdom, Japan, United States." in msg


@pytest.mark.parametrize(
    ("text", "edition"),
    [("a1941", "a1941"), ("1941", "a1941"), ("A&A 1941", "a1941"), ("1942", "a1942")],
)
def test_edition_ids(names: Names, text: str, edition: str) -> None:
    assert names.edition_id(text) == edition


def test_complete_and_suggest(names: Names) -> None:
    assert names.complete("space", "eastern e")[0] == "Eastern Europe"
    got = names.complete("space", "west")
    assert {"West Russia", "Western Europe"} <= set(got)
    assert len(names.complete("space", "", limit=25)) == 25
    assert names.complete("unit", "bat") == ["battleship"]
    assert names.suggest("space", "Ukrane") == ["Ukraine"]
    assert names.all("power")[0] == "Soviet Union"
    assert names.resolve("unit", "dd") == "destroyer"


# --------------------------------------------------------------------------------------------
# Unit lists and format_units
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("3 infantry, 1 tank", {"infantry": 3, "tank": 1}),
        ("2 inf 1 arm", {"infantry": 2, "tank": 1}),
        ("3 infantry and 1 tank", {"infantry": 3, "tank": 1}),
        ("3 infantry; 1 tank", {"infantry": 3, "tank": 1}),
        ("3 infantry & 1 tank", {"infantry": 3, "tank": 1}),
        ("infantry", {"infantry": 1}),
        ("a tank", {"tank": 1}),
        ("an infantry", {"infantry": 1}),
        ("two tanks", {"tank": 2}),
        ("1 infantry, 2 infantry, infantry", {"infantry": 4}),
        ("3 inf, 2 infantries", {"infantry": 5}),
        ("2 aircraft carriers 1 bb", {"aircraft carrier": 2, "battleship": 1}),
        ("3x infantry", {"infantry": 3}),
        ("3 x tank", {"tank": 3}),
        ("3infantry", {"infantry": 3}),
        ("999 infantry", {"infantry": 999}),
        ("3 infantry, 1 tank,", {"infantry": 3, "tank": 1}),
    ],
)
def test_unit_lists(names: Names, text: str, units: dict[str, int]) -> None:
    assert parse_units(text, names) == units


@pytest.mark.parametrize(
    "entry", ["0 infantry", "-1 tank", "1.5 tank", "99999 infantry", "1000 infantry", "+2 tank"]
)
def test_bad_counts(names: Names, entry: str) -> None:
    msg = error(f"buy {entry}", names)
    assert msg == f"Counts are whole numbers from 1 to 999: '{entry}'."


def test_count_without_unit(names: Names) -> None:
    assert "Expected a unit after '3'" in error("buy 3", names)
    assert "Expected a unit after '3'" in error("buy 1 tank, 3", names)


def test_unknown_unit_in_list(names: Names) -> None:
    assert "Unknown unit 'tnaks'. Did you mean: tank" in error("buy 3 tnaks", names)


def test_format_units() -> None:
    assert format_units({"infantry": 3, "tank": 1}) == "3 infantry, 1 tank"
    assert format_units({"infantry": 3, "tank": 2}) == "3 infantry, 2 tanks"
    assert format_units({"tank": 2}, plurals=False) == "2 tank"
    assert format_units({"aircraft carrier": 2, "industrial complex": 2}) == (
        "2 aircraft carriers, 2 industrial complexes"
    )
    assert format_units({"tank": 0, "infantry": 1}) == "1 infantry"
    assert format_units({}) == "no units"
    assert plural("battleship") == "battleships"
    assert plural("infantry") == "infantry"
    assert plural("artillery") == "artillery"
    assert plural("factory") == "factories"


def test_format_units_parses_back(names: Names) -> None:
    units = {u: i + 1 for i, u in enumerate(names.all("unit"))}
    assert parse_units(format_units(units), names) == units
    assert parse_units(format_units(units, plurals=False), names) == units


# --------------------------------------------------------------------------------------------
# Every verb
# --------------------------------------------------------------------------------------------


def test_buy(names: Names) -> None:
    want = Buy(units={"infantry": 3, "tank": 1})
    assert p("buy 3 infantry, 1 tank", names) == want
    assert p("buy 3 inf 1 tank", names) == want
    assert p("buy 3 infantry and 1 tank", names) == want
    assert p("BUY 3 Infantry, 1 Tank", names) == want
    assert p("  buy   3 infantry ,1 tank  ", names) == want
    assert p("/buy 3 infantry, 1 tank", names) == want
    assert p("buy clear", names) == ClearPurchase()
    assert p("buy CLEAR", names) == ClearPurchase()
    assert "buy clear" in error("buy", names)


def test_move(names: Names) -> None:
    assert p("move 2 infantry, 1 tank from Germany to Eastern Europe", names) == Move(
        units={"infantry": 2, "tank": 1}, frm="Germany", to="Eastern Europe"
    )
    assert p("move 1 fighter from germany to ukraine via e europe, w russia", names) == Move(
        units={"fighter": 1}, frm="Germany", to="Ukraine", via=("Eastern Europe", "West Russia")
    )
    assert p("move 1 ftr from Germany to Ukraine via Eastern Europe", names) == Move(
        units={"fighter": 1}, frm="Germany", to="Ukraine", via=("Eastern Europe",)
    )
    assert p("Move 1 Infantry From Germany To Sea Zone 5", names) == Move(
        units={"infantry": 1}, frm="Germany", to="Sea Zone 5"
    )
    assert p("move 1 tank from germany -> e europe", names) == Move(
        units={"tank": 1}, frm="Germany", to="Eastern Europe"
    )


def test_load_and_unload_are_move(names: Names) -> None:
    assert p("load 1 infantry from Germany to Sea Zone 5", names) == Move(
        units={"infantry": 1}, frm="Germany", to="Sea Zone 5"
    )
    assert p("unload 1 infantry from Sea Zone 5 to Norway/Finland", names) == Move(
        units={"infantry": 1}, frm="Sea Zone 5", to="Norway Finland"
    )
    assert p("move 1 infantry from sz5 to norway/finland", names) == Move(
        units={"infantry": 1}, frm="Sea Zone 5", to="Norway Finland"
    )


def test_move_errors(names: Names) -> None:
    msg = error("move 2 infantry Germany to Ukraine", names)
    assert msg.startswith("Expected 'move <units> from <space> to <space>'.")
    assert "Expected 'move <units> from <space> to <space>'." in error(
        "move 2 infantry from Germany", names
    )
    assert "Expected 'move" in error("move from Germany to Ukraine", names)
    assert "Expected 'load <units> from" in error("load 1 inf", names)
    assert "Did you mean: Ukraine?" in error("move 1 inf from Germany to Ukrane", names)
    assert "Did you mean: Germany?" in error("move 1 inf from Germny to Ukraine", names)
    assert "Did you mean: Ukraine?" in error("move 1 inf from A to B via Ukrane", names)


def test_battle(names: Names) -> None:
    assert p("battle Ukraine", names) == Battle(space="Ukraine")
    assert p("battle ukraine all", names) == Battle(space="Ukraine", all=True)
    assert p("battle sz5 ALL", names) == Battle(space="Sea Zone 5", all=True)
    assert "Expected 'battle <space> [all]'." in error("battle", names)
    assert "Did you mean: Ukraine?" in error("battle Ukrane all", names)


def test_casualties(names: Names) -> None:
    assert p("casualties Eastern Europe 2 infantry, 1 tank", names) == Casualties(
        space="Eastern Europe", units={"infantry": 2, "tank": 1}
    )
    assert p("casualties ukraine infantry", names) == Casualties(
        space="Ukraine", units={"infantry": 1}
    )
    assert p("casualties Sea Zone 5 1 submarine", names) == Casualties(
        space="Sea Zone 5", units={"submarine": 1}
    )
    assert p("casualties 5 sea zone 2 transports", names) == Casualties(
        space="Sea Zone 5", units={"transport": 2}
    )
    assert p("casualties sz 1 2 transports", names) == Casualties(
        space="Sea Zone 1", units={"transport": 2}
    )
    assert p("casualties Sea Zone 12 2 transports", names) == Casualties(
        space="Sea Zone 12", units={"transport": 2}
    )
    assert p("casualties Norway/Finland 1 inf", names) == Casualties(
        space="Norway Finland", units={"infantry": 1}
    )
    assert p("casualties ukr 1 inf", names) == Casualties(space="Ukraine", units={"infantry": 1})
    assert p("casualties Ukraine: 1 inf", names) == Casualties(
        space="Ukraine", units={"infantry": 1}
    )
    assert p("casualties 2 infantry in Ukraine", names) == Casualties(
        space="Ukraine", units={"infantry": 2}
    )


def test_casualties_errors(names: Names) -> None:
    assert "Did you mean: Ukraine?" in error("casualties Ukrane 2 infantry", names)
    assert "Expected 'casualties <space> <units>'" in error("casualties", names)
    assert "Expected 'casualties <space> <units>'" in error("casualties Ukraine", names)
    assert "Counts are whole numbers" in error("casualties Ukraine -1 tank", names)


def test_retreat_press_strike(names: Names) -> None:
    assert p("retreat Ukraine to West Russia", names) == Retreat(space="Ukraine", to="West Russia")
    assert p("retreat ukraine to w russia", names) == Retreat(space="Ukraine", to="West Russia")
    assert "Expected 'retreat <space> to <space>'." in error("retreat Ukraine", names)
    assert p("press Ukraine", names) == Press(space="Ukraine")
    assert "Expected 'press <space>'." in error("press", names)
    assert p("strike sz5", names) == Strike(space="Sea Zone 5")
    assert "Expected 'strike <space>'." in error("strike", names)


def test_submerge(names: Names) -> None:
    assert p("submerge Sea Zone 5", names) == Submerge(space="Sea Zone 5")
    assert p("submerge sz5 2", names) == Submerge(space="Sea Zone 5", count=2)
    assert p("submerge Sea Zone 5 2", names) == Submerge(space="Sea Zone 5", count=2)
    assert p("submerge Sea Zone 12", names) == Submerge(space="Sea Zone 12")
    assert p("submerge sz 1 2", names) == Submerge(space="Sea Zone 1", count=2)
    assert p("submerge sz5 all", names) == Submerge(space="Sea Zone 5")
    assert "Counts are whole numbers" in error("submerge sz5 0", names)
    assert "Expected 'submerge <space> [n]'." in error("submerge", names)


def test_place(names: Names) -> None:
    assert p("place 2 infantry in Germany", names) == Place(units={"infantry": 2}, space="Germany")
    assert p("place 1 dd in sz5", names) == Place(units={"destroyer": 1}, space="Sea Zone 5")
    assert p("place 1 tank, 1 inf at germany", names) == Place(
        units={"tank": 1, "infantry": 1}, space="Germany"
    )
    assert "Expected 'place <units> in <space>'." in error("place 2 infantry Germany", names)
    assert "Did you mean: Germany?" in error("place 2 infantry in Germny", names)


def test_end(names: Names) -> None:
    assert p("end", names) == EndPhase()
    assert p("END", names) == EndPhase()
    assert p("end phase", names) == EndPhase()
    assert p("end confirm", names) == EndPhase(confirm=True)
    assert p("end!", names) == EndPhase(confirm=True)
    assert p("end !", names) == EndPhase(confirm=True)
    assert "end confirm" in error("end now please", names)


def test_undo(names: Names) -> None:
    assert p("undo", names) == Undo()
    assert "write just 'undo'" in error("undo everything", names)


def test_odds(names: Names) -> None:
    assert p("odds 3 infantry, 1 tank vs 2 infantry", names) == Odds(
        attackers={"infantry": 3, "tank": 1}, defenders={"infantry": 2}
    )
    assert p("odds 3 inf 1 arm vs 2 inf in Ukraine", names) == Odds(
        attackers={"infantry": 3, "tank": 1}, defenders={"infantry": 2}, space="Ukraine"
    )
    assert p("odds 2 bb versus 3 sub in sz 5", names) == Odds(
        attackers={"battleship": 2}, defenders={"submarine": 3}, space="Sea Zone 5"
    )
    assert "Expected 'odds <units> vs <units> [in <space>] [with <developments>]'." in error("odds 3 inf", names)
    assert "Did you mean: Ukraine?" in error("odds 3 inf vs 2 inf in Ukrane", names)


def test_dice_verify(names: Names) -> None:
    assert p("dice verify", names) == DiceVerify()
    assert p("dice verify 3", names) == DiceVerify(round=3)
    assert "dice verify" in error("dice roll", names)
    assert "whole number" in error("dice verify -2", names)


def test_standing_casualties(names: Names) -> None:
    want = StandingCasualties(power="Germany", order=("infantry", "tank", "fighter"))
    assert p("standing casualties Germany infantry, tank, fighter", names) == want
    assert p("standing casualties germany inf, arm, ftr", names) == want
    assert p("standing casualties Germany: infantry tank fighter", names) == want
    assert p("standing casualties Germany infantry > tank > fighters", names) == want
    assert p("standing casualties Soviet Union inf, aircraft carrier", names) == (
        StandingCasualties(power="Soviet Union", order=("infantry", "aircraft carrier"))
    )
    assert p("standing casualties ussr infantry, infantry, tank", names) == (
        StandingCasualties(power="Soviet Union", order=("infantry", "tank"))
    )
    assert "without counts" in error("standing casualties Germany 2 infantry", names)
    assert "Did you mean: Germany" in error("standing casualties Germny infantry", names)
    assert "Expected 'standing casualties" in error("standing casualties Germany", names)
    assert "Expected 'standing casualties" in error("standing orders", names)


def test_game_commands(names: Names) -> None:
    assert p("game new a1941", names) == GameNew(edition="a1941")
    assert p("game new 1941", names) == GameNew(edition="a1941")
    assert p("game new 1941 short", names) == GameNew(edition="a1941", options=("short",))
    assert p("game new 1941 short errata", names) == GameNew(
        edition="a1941", options=("short", "errata")
    )
    assert p("game new 1941 --errata", names) == GameNew(edition="a1941", options=("errata",))
    assert p("game new a&a 1941 Short", names) == GameNew(edition="a1941", options=("short",))
    assert p("game join Germany", names) == GameJoin(power="Germany")
    assert p("game join united kingdom Rule Britannia 42", names) == GameJoin(
        power="United Kingdom", entropy="Rule Britannia 42"
    )
    assert p("game join ussr", names) == GameJoin(power="Soviet Union")
    assert p("game start", names) == GameStart()
    assert p("game status", names) == GameStatus()
    status = p("game status --json", names)
    assert status == GameStatus(json=True)
    assert isinstance(status, GameStatus)
    assert status.json is True
    assert p("game map", names) == GameMap()
    assert p("game map e europe", names) == GameMap(space="Eastern Europe")
    assert p("game history", names) == GameHistory()
    assert p("game history 20", names) == GameHistory(n=20)
    assert p("game export", names) == GameExport()


def test_game_errors(names: Names) -> None:
    assert "Did you mean: game start?" in error("game strat", names)
    assert "game new <edition>" in error("game", names)
    assert "Editions: 1941, 1942" in error("game new", names)
    assert "e.g. 'game new 1941'" in error("game new", names)
    assert "Unknown edition '1492'" in error("game new 1492", names)
    assert "Did you mean: Germany" in error("game join Germny", names)
    assert "whole number" in error("game history 0", names)
    assert "game status --json" in error("game status xml", names)
    assert "write just 'game start'" in error("game start now", names)


def test_anyone_and_admin(names: Names) -> None:
    assert p("state", names) == State()
    assert p("help", names) == Help()
    assert p("help Move", names) == Help(topic="move")
    assert p("pause", names) == Pause()
    assert p("resume", names) == Resume()
    assert p("deadline 24h", names) == Deadline(text="24h")
    assert p("deadline Friday 18:00 UTC", names) == Deadline(text="Friday 18:00 UTC")
    assert p("substitute Germany @Alice", names) == Substitute(power="Germany", user="@Alice")
    assert p("substitute soviet union <@123>", names) == Substitute(
        power="Soviet Union", user="<@123>"
    )
    assert p("kick @Bob", names) == Kick(user="@Bob")
    assert "Expected 'deadline <time>'." in error("deadline", names)
    assert "Expected 'substitute <power> <user>'." in error("substitute Germany", names)
    assert "Expected 'kick <user>'." in error("kick", names)
    assert "write just 'pause'" in error("pause please", names)


def test_rules_orders_leave_power_empty(names: Names) -> None:
    order = p("buy 1 tank", names)
    assert isinstance(order, Buy) and order.power == ""


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


def test_unknown_verb(names: Names) -> None:
    msg = error("mvoe 1 inf from Germany to Ukraine", names)
    assert msg.startswith("Unknown order 'mvoe'. Did you mean: move? Orders: buy, move, ")
    for verb in VERBS:
        assert verb in msg
    assert error("xyzzy", names).startswith("Unknown order 'xyzzy'. Orders: buy, move")
    assert "Did you mean: standing casualties?" in error("standin casualties", names)


def test_empty_and_huge_input(names: Names) -> None:
    assert "Empty order" in error("", names)
    assert "Empty order" in error("   \t ", names)
    msg = error("buy " + "1 infantry, " * 400, names)
    assert msg.startswith("Order too long (")
    assert "keep one order per line" in msg
    assert len(parse("buy 1 infantry" + " " * (MAX_LENGTH - 14), names).units) == 1  # type: ignore[union-attr]
    assert "one order per line" in error("buy 1 tank\nend", names)


def test_commands_serialise(names: Names) -> None:
    for line in [
        "buy 3 infantry, 1 tank",
        "move 1 tank from Germany to Ukraine via Eastern Europe",
        "odds 3 inf vs 2 inf in Ukraine",
        "game status --json",
        "standing casualties Germany infantry, tank",
    ]:
        cmd = parse(line, names)
        assert CommandAdapter.validate_json(CommandAdapter.dump_json(cmd)) == cmd


# --------------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------------

_VOCAB = [
    *VERBS,
    "from",
    "to",
    "via",
    "in",
    "vs",
    "all",
    "confirm",
    "clear",
    "new",
    "join",
    "status",
    "--json",
    "history",
    "map",
    "verify",
    "casualties",
    "Germany",
    "Sea Zone",
    "5",
    "sz5",
    "Eastern",
    "Europe",
    "e",
    "Norway/Finland",
    "3",
    "0",
    "-1",
    "1.5",
    "99999",
    "a",
    "infantry",
    "tanks",
    "inf",
    ",",
    "and",
    ":",
    "!",
    "1941",
    "short",
    "Soviet",
    "Union",
    "x",
    "",
]


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text())
def test_parse_raises_only_rules_errors(names: Names, text: str) -> None:
    with contextlib.suppress(RulesError):
        parse(text, names)


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_VOCAB), max_size=12).map(" ".join))
def test_parse_word_salad_raises_only_rules_errors(names: Names, text: str) -> None:
    with contextlib.suppress(RulesError):
        parse(text, names)


_REAL = load_edition("a1941")
_UNITS = sorted(_REAL.units)
_SPACES = sorted(_REAL.spaces)
_SPACE_TEXT = sorted(
    {(s.name, s.name) for s in _REAL.spaces.values()}
    | {(a, s.name) for s in _REAL.spaces.values() for a in s.aliases}
)
_POWERS = sorted(_REAL.powers)

unit_lists = st.dictionaries(st.sampled_from(_UNITS), st.integers(1, 999), min_size=1)
space_texts = st.sampled_from(_SPACE_TEXT)  # (text as typed, data name)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    units=unit_lists,
    a=space_texts,
    b=space_texts,
    via=st.lists(space_texts, max_size=3),
    plurals=st.booleans(),
)
def test_round_trip(
    names: Names,
    units: dict[str, int],
    a: tuple[str, str],
    b: tuple[str, str],
    via: list[tuple[str, str]],
    plurals: bool,
) -> None:
    text = format_units(units, plurals=plurals)
    assert parse(f"buy {text}", names) == Buy(units=units)
    via_text = f" via {', '.join(t for t, _ in via)}" if via else ""
    assert parse(f"move {text} from {a[0]} to {b[0]}{via_text}", names) == Move(
        units=units, frm=a[1], to=b[1], via=tuple(s for _, s in via)
    )
    assert parse(f"place {text} in {a[0]}", names) == Place(units=units, space=a[1])
    assert parse(f"casualties {a[0]} {text}", names) == Casualties(space=a[1], units=units)
    assert parse(f"odds {text} vs {text} in {b[0]}", names) == Odds(
        attackers=units, defenders=units, space=b[1]
    )
    assert parse(f"battle {a[0]}", names) == Battle(space=a[1])
    assert parse(f"battle {a[0]} all", names) == Battle(space=a[1], all=True)
    assert parse(f"retreat {a[0]} to {b[0]}", names) == Retreat(space=a[1], to=b[1])
    assert parse(f"press {a[0]}", names) == Press(space=a[1])
    assert parse(f"strike {a[0]}", names) == Strike(space=a[1])
    assert parse(f"submerge {a[0]}", names) == Submerge(space=a[1])
    assert parse(f"submerge {a[0]} 2", names) == Submerge(space=a[1], count=2)
    assert parse(f"game map {a[0]}", names) == GameMap(space=a[1])


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(power=st.sampled_from(_POWERS), order=st.lists(st.sampled_from(_UNITS), min_size=1))
def test_round_trip_powers(names: Names, power: str, order: list[str]) -> None:
    unique = tuple(dict.fromkeys(order))
    assert parse(f"standing casualties {power} {', '.join(order)}", names) == StandingCasualties(
        power=power, order=unique
    )
    assert parse(f"game join {power} some words", names) == GameJoin(
        power=power, entropy="some words"
    )
    assert parse(f"substitute {power} @x", names) == Substitute(power=power, user="@x")


@pytest.mark.parametrize("name", _SPACES)
def test_every_space_resolves_by_name_lowercase_and_aliases(names: Names, name: str) -> None:
    assert names.space(name) == name
    assert names.space(name.lower()) == name
    for alias in _REAL.spaces[name].aliases:
        assert names.space(alias) == name


def test_default_catalog_has_installed_editions() -> None:
    assert Names().edition_id("1941") == "a1941"
    assert "a1941" in Names().all("edition")


def test_H_1_casualties_name_which_unit_by_where_it_started(names: Names) -> None:
    """H-1: 'casualties <space> 1 fighter from Germany' names which fighter goes."""
    from service.language import format_casualty_units

    order = p("casualties Ukraine 1 fighter from Germany, 2 infantry", names)
    assert order == Casualties(space="Ukraine", units={"fighter": 1, "infantry": 2},
                               origins={"fighter": {"Germany": 1}})
    assert p("casualties Ukraine 2 fighters from w europe and 1 fighter", names) == Casualties(
        space="Ukraine", units={"fighter": 3}, origins={"fighter": {"Western Europe": 2}})
    assert p("casualties 1 fighter from Germany in Ukraine", names) == order.model_copy(
        update={"units": {"fighter": 1}})
    assert isinstance(order, Casualties)
    text = format_casualty_units(order.units, order.origins)
    assert text == "1 fighter from Germany, 2 infantry"
    assert p(f"casualties Ukraine {text}", names) == order
    with pytest.raises(InvalidOrder, match="one unit type before 'from'"):
        p("casualties Ukraine 1 fighter 1 tank from Germany", names)
