"""Words (issue 13 item 13): what the referee writes, read as players read it.

Whole scripted games of each edition are played at the local table and their answers checked
for citations of the other edition's rulebook, for "(s)" plurals and for verbs that do not agree;
single situations check the wording of refusals (advice for the units in question), the
possessive of "United States", and the names a player may type (capitals by their cities, a
misspelt unit, full-width digits).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from rules import orders as od
from rules.edition import load_edition
from rules.errors import InvalidOrder
from service import language as ps
from tests.local.test_table import in_process
from tests.rules.helpers import Game, position

ROOT = Path(__file__).resolve().parents[2]
GAMES = Path(__file__).parent / "games"
SCRIPTS = {"a1941": "a1941_three_rounds", "classic": "classic_two_rounds",
           "europe1940": "europe1940_two_rounds"}
RULE_ID = re.compile(r"R-[A-Z]{2,4}(?:-[0-9]+)?|[A-Z]{1,4}-[0-9]+[A-Za-z]?")


@functools.cache
def played(edition: str) -> str:
    """Everything the table answered in the edition's scripted game (answers as text)."""
    name = SCRIPTS[edition]
    dice = (GAMES / f"{name}.dice").read_text().strip()
    code, out, err = in_process("--script", str(GAMES / f"{name}.txt"), "--dice", dice)
    assert code == 0, out[-2000:] + err[-2000:]
    return out


def rule_index(edition: str) -> set[str]:
    data = json.loads((ROOT / f"docs/rules/{edition}_rule_index.json").read_text("utf-8"))
    return {r["id"] for r in data["rules"]}


def cited(text: str) -> set[str]:
    """The rule IDs cited in parentheses: '(casualties in X, CC-5)', '(CM-15/AIR-4)'."""
    out: set[str] = set()
    for inside in re.findall(r"\(([^()]*)\)", text):
        for item in re.split(r"\s*[,/;]\s*", inside):
            if RULE_ID.fullmatch(item.strip()):
                out.add(item.strip())
    return out


# --------------------------------------------------------------------------------------------
# Citations


@pytest.mark.parametrize("edition", ["a1941", "classic", "europe1940"])
def test_citations_are_the_editions_own_in_a_whole_game(edition: str) -> None:
    ids = cited(played(edition))
    assert len(ids) >= 5
    assert ids <= rule_index(edition), sorted(ids - rule_index(edition))


def test_citations_are_the_editions_own_a_classic_sea_battle_cites_the_sea_rule() -> None:
    """Classic numbers a sea battle's steps apart from a land battle's: the casualties of a sea
    battle are removed by R-NC-06, those of a land battle by R-LC-05."""
    out = played("classic")
    assert ("Removed from the board: Germany: 1 submarine (casualties in North Sea Zone, "
            "R-NC-06).") in out
    assert "North Sea Zone, R-LC-05" not in out
    assert "R-LC-05)" in out  # land battles keep the land rule


def test_citations_are_the_editions_own_in_a_mixed_parenthesis() -> None:
    """The engine writes both numbers where its text serves both editions; each edition's
    players read only their own rulebook's, once."""
    text = "cannot fire (UT-3, R-TRP-06): retreat (CM-14/AIR-6, R-AIR-02); (casualties in X, CC-5)"
    assert load_edition("a1941").cite_text(text) == (
        "cannot fire (UT-3): retreat (CM-14/AIR-6); (casualties in X, CC-5)")
    assert load_edition("classic").cite_text(text) == (
        "cannot fire (R-TRP-06): retreat (R-AIR-02/R-AIR-03); (casualties in X, R-LC-05)")
    assert load_edition("classic").cite("CC-5", sea=True) == "R-NC-06"


def test_citations_are_the_editions_own_and_advice_fits_a_bomber() -> None:
    """A 1941 refusal cites 1941's rules only (not Classic's number beside them), and a
    bomber, which never lands on a carrier, is not told to bring one."""
    g = Game(position("Germany", "combat_move", {
        "Germany": {"Germany": {"bomber": 1}}, "Sea Zone 1": {"United Kingdom": {"destroyer": 1}}}))
    err = g.refuse(od.Move(units={"bomber": 1}, frm="Germany", to="Sea Zone 1"))
    assert str(err) == (
        "Bomber could not land anywhere after attacking Sea Zone 1: it would have 2 movement "
        "left and no territory friendly since the start of the turn within reach; bombers "
        "never land on carriers (CM-15/AIR-4). Attack a closer space.")
    assert "(R-" not in str(err) and ", R-" not in str(err) and "bring" not in str(err)


def test_refusal_advice_for_a_battleship_says_nothing_of_transports() -> None:
    g = Game(position("Germany", "combat_move", {
        "Sea Zone 5": {"Germany": {"battleship": 1}},
        "Sea Zone 6": {"United Kingdom": {"destroyer": 1}}}))
    g.move({"battleship": 1}, "Sea Zone 5", "Sea Zone 6")
    err = g.refuse(od.Move(units={"battleship": 1}, frm="Sea Zone 6", to="Sea Zone 5"))
    assert str(err) == (
        "Germany has 0 battleships in Sea Zone 6 able to make this move, not 1 (1 cannot: they "
        "already moved into a hostile space or used their movement (CM-3/CM-8)).")


# --------------------------------------------------------------------------------------------
# Grammar


@pytest.mark.parametrize("edition", ["a1941", "classic", "europe1940"])
def test_grammar_no_s_in_parentheses_in_a_whole_game(edition: str) -> None:
    out = played(edition)
    assert "(s)" not in out
    assert not re.search(r"\b1 (hits|units|dice|battleships|submarines)\b", out)
    assert not re.search(r"\b0 [a-z]+ [^\n]*\b0 hit\b", out)


def test_grammar_one_submarine_makes_a_surprise_strike() -> None:
    out = played("a1941")
    assert ("In Sea Zone 16 the defending submarines: 1 submarine makes a surprise strike "
            "(SS-2") in out
    assert "1 submarine make " not in out


def battle_owing_casualties() -> Game:
    """Germany's 3 tanks hit twice in Ukraine; the Soviet defender (1 infantry, 2 tanks) owes
    two casualties and has a choice."""
    g = Game(position("Germany", "combat_move", {
        "Eastern Europe": {"Germany": {"tank": 3}},
        "Ukraine": {"Soviet Union": {"infantry": 1, "tank": 2}}},
        owners={"Ukraine": "Soviet Union"}))
    g.move({"tank": 3}, "Eastern Europe", "Ukraine")
    g.end()
    g.script(1, 2, 6)
    g.do(od.Battle(space="Ukraine"))
    return g


def test_grammar_casualty_refusals_count_hits_and_units() -> None:
    g = battle_owing_casualties()
    soviet = "Soviet Union"
    g.refuse(od.Casualties(space="Ukraine", units={"infantry": 1}),
             "2 hits must be assigned in Ukraine; the order assigns 1 (H-7).", power=soviet)
    g.refuse(od.Casualties(space="Ukraine", units={"infantry": 2}),
             "There is 1 infantry in the battle in Ukraine, able to take 1 hit, not 2 (H-5).",
             power=soviet)
    err = g.refuse(od.Casualties(space="Ukraine", units={"infantry": 1, "battleship": 1}),
                   power=soviet)
    assert str(err) == "The defender has no battleship in the battle in Ukraine to take a hit (H-5)."


def test_grammar_united_states_possessive() -> None:
    g = Game(position("United States", "purchase"))
    err = g.refuse(od.Buy(units={"infantry": 1}), power="Germany")
    assert str(err).startswith("It is United States' turn (Purchase Units); Germany cannot ")


# --------------------------------------------------------------------------------------------
# Names a player types


@pytest.mark.parametrize(("edition", "moscow"), [("a1941", "Russia"), ("classic", "Russia")])
def test_capitals_by_their_city_names(edition: str, moscow: str) -> None:
    names = ps.names_for(edition)
    assert {city: names.space(city) for city in
            ("Moscow", "Berlin", "London", "Tokyo", "Washington")} == {
        "Moscow": moscow, "Berlin": "Germany", "London": "United Kingdom", "Tokyo": "Japan",
        "Washington": "Eastern United States"}
    cmd = ps.parse("move 2 infantry from berlin to moscow", names)
    assert isinstance(cmd, od.Move) and (cmd.frm, cmd.to) == ("Germany", moscow)


def test_near_miss_unit_names_corrected() -> None:
    names = ps.names_for("a1941")
    cmd = ps.parse("buy 3 infantery, 1 battleshp", names)
    assert isinstance(cmd, od.Buy) and cmd.units == {"infantry": 3, "battleship": 1}
    with pytest.raises(InvalidOrder) as info:  # too far from any one name: only suggested
        ps.parse("buy 1 tnak", names)
    assert str(info.value).startswith("Unknown unit 'tnak'. Did you mean: tank?")


def test_full_width_digits_read_as_digits() -> None:
    names = ps.names_for("a1941")
    cmd = ps.parse("buy \uff13 infantry, \uff11\uff12 tanks", names)  # full-width 3, 12
    assert isinstance(cmd, od.Buy) and cmd.units == {"infantry": 3, "tank": 12}
    cmd = ps.parse("move \uff11 submarine from sz\uff15 to Sea Zone \uff16", names)
    assert isinstance(cmd, od.Move) and (cmd.units, cmd.frm, cmd.to) == (
        {"submarine": 1}, "Sea Zone 5", "Sea Zone 6")
