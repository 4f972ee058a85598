"""Classic at the local table: the same table, the same service, only the edition's data differs.

Russia's first turn is played by script (Weapons Development, Purchase Units, Combat Movement,
Combat, Non-combat Movement, Placement of New Units, Collection of Income); positions name the
edition in the file or with ``--edition``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.local.test_table import answers, in_process

SEATS = """\
alice: game new classic
game join Russia
game join United Kingdom
game join United States
bob: game join Germany
game join Japan
alice: game start
"""

# Russia's first turn (R-TRN-01): one research die that finds nothing, a purchase, an attack on
# Eastern Europe with overwhelming force, fighters home, reinforcements, placement; the referee
# collects income.
FIRST_TURN = """\
alice: research 1
end
buy 3 infantry, 1 tank
end
move 3 infantry, 1 tank from Karelia to Eastern Europe
move 1 tank from Russia to e europe
move 1 fighter from Karelia S.S.R. to Eastern Europe
move 1 fighter from Russia to Eastern Europe
end
battle Eastern Europe
end
move 2 fighters from Eastern Europe to Karelia
move 2 infantry from Caucasus to Russia
end
place 3 infantry, 1 tank in Russia
end
"""

# A research die without a breakthrough; seven attack dice that all hit, five defence dice that
# all miss.
DICE = "3,1,1,1,1,1,1,1,6,6,6,6,6"


def _phases(got: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(e["power"], e["phase"]) for a in got for e in a["events"]
            if e["type"] == "PhaseChanged"]


def test_russias_first_turn_by_script(tmp_path: Path) -> None:
    script = tmp_path / "classic.txt"
    script.write_text(SEATS + FIRST_TURN + "game status\n")
    code, out, err = in_process("--script", str(script), "--json", "--dice", DICE)
    got = answers(out)
    assert code == 0, [a["error"] for a in got if not a["ok"]] or err
    assert _phases(got) == [
        ("Russia", "research"),
        ("Russia", "purchase"),
        ("Russia", "combat_move"),
        ("Russia", "conduct_combat"),
        ("Russia", "noncombat_move"),
        ("Russia", "mobilize"),
        ("Russia", "collect_income"),
        ("Germany", "research"),
    ]
    events = [e for a in got for e in a["events"]]
    research = next(e for e in events if e["type"] == "ResearchRolled")
    assert (research["power"], research["dice"], research["cost"]) == ("Russia", 1, 5)
    assert not [e for e in events if e["type"] == "TechnologyDeveloped"]
    bought = next(e for e in events if e["type"] == "UnitsPurchased")
    assert bought["units"] == {"infantry": 3, "tank": 1} and bought["cost"] == 14
    captured = [e for e in events if e["type"] == "TerritoryCaptured"]
    assert [(e["space"], e["owner"]) for e in captured] == [("Eastern Europe", "Russia")]
    income = next(e for e in events if e["type"] == "IncomeCollected")
    # 24 + Eastern Europe's 3 (R-ECO-02: production changes at once; R-INC-01)
    assert (income["power"], income["amount"]) == ("Russia", 27)
    status = got[-1]["answer"]
    assert "Round 1, Germany's turn, Weapons Development." in status
    assert "Treasury: Russia 32, Germany 32" in status  # 24 - 5 - 14 + 27


def test_russias_first_turn_reads_in_the_editions_words(tmp_path: Path) -> None:
    script = tmp_path / "classic.txt"
    script.write_text(SEATS + FIRST_TURN)
    code, out, err = in_process("--script", str(script), "--dice", DICE)
    assert code == 0, out + err
    assert "Game g1: Axis & Allies Classic (spring 1942), created by alice." in out
    assert "(Axis: Germany, Japan; Allies: Russia, United Kingdom, United States)" in out
    for phase in ("Weapons Development", "Purchase Units", "Combat Movement", "Combat",
                  "Non-combat Movement", "Placement of New Units", "Collection of Income"):
        assert f"Russia: {phase}." in out
    assert "Russia bought 1 research di" in out
    assert "Russia bought 3 infantry, 1 tank (14 IPCs)." in out
    assert "Russia captured Eastern Europe" in out
    assert "Russia placed 3 infantry, 1 tank in Russia." in out
    assert "Germany: Weapons Development." in out
    assert "Soviet Union" not in out and "Sea Zone " not in out


def test_classic_names_and_aliases_at_the_table(tmp_path: Path) -> None:
    script = tmp_path / "names.txt"
    script.write_text(
        "alice: game new mb\n"  # an alias of the edition (its data)
        "game join soviet union\n"  # 1941's name for Russia is an alias in Classic's data
        "game join uk\n"
        "game join usa\n"
        "bob: game join germans\n"
        "game join japan\n"
        "alice: game start\n"
        "game map English Channel\n"  # the rulebook's name of the North Sea Zone
        "game map Syria Jordan\n"  # TripleA's spelling
        "odds 2 fighters vs 1 aa gun, 2 inf\n"
        "buy 1 destroyer\n"
    )
    code, out, _ = in_process("--script", str(script), "--json", "--keep-going")
    got = answers(out)
    assert code == 1
    assert [a["ok"] for a in got] == [True] * 10 + [False]
    assert "alice joins as Russia (Allies)." in got[1]["answer"]
    assert got[7]["answer"].startswith("North Sea Zone [sea]")
    assert got[8]["answer"].startswith("Syria-Iraq [")
    assert "2 fighters attacking 1 antiaircraft gun, 2 infantry" in got[9]["answer"]
    refused = got[10]["error"]
    assert "Unknown unit 'destroyer'" in refused and "antiaircraft gun" in refused


CLASSIC_POSITION: dict[str, Any] = {
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine S.S.R.": "Russia"},
    "units": {
        "Ukraine S.S.R.": {"Russia": {"infantry": 1}},
        "Eastern Europe": {"Germany": {"infantry": 2, "tank": 1}},
    },
    "clear_all_units": True,
}

ATTACK = (
    "Germany: move 2 infantry, 1 tank from Eastern Europe to Ukraine\n"
    "end\n"
    "battle Ukraine\n"
)


def _play_position(tmp_path: Path, position: dict[str, Any], *flags: str) -> list[dict[str, Any]]:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(position))
    script = tmp_path / "s.txt"
    script.write_text(ATTACK)
    code, out, err = in_process(
        "--position", str(pos), *flags, "--dice", "1,1,6,6", "--script", str(script), "--json"
    )
    got = answers(out)
    assert code == 0, [a["error"] for a in got] or err
    return got


def test_position_file_names_classic(tmp_path: Path) -> None:
    got = _play_position(tmp_path, {"edition": "classic", **CLASSIC_POSITION})
    events = [e for a in got for e in a["events"]]
    assert any(e["type"] == "TerritoryCaptured" and e["space"] == "Ukraine S.S.R."
               for e in events)


def test_edition_flag_for_a_position_without_one(tmp_path: Path) -> None:
    got = _play_position(tmp_path, CLASSIC_POSITION, "--edition", "classic")
    assert any(e["type"] == "TerritoryCaptured" for a in got for e in a["events"])


def test_the_position_file_wins_over_the_flag(tmp_path: Path) -> None:
    got = _play_position(tmp_path, {"edition": "classic", **CLASSIC_POSITION},
                         "--edition", "1941")
    assert any(e["type"] == "TerritoryCaptured" and e["space"] == "Ukraine S.S.R."
               for a in got for e in a["events"])


def test_a_classic_position_under_1941_is_refused(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(CLASSIC_POSITION))
    code, _, err = in_process("--position", str(pos), "--edition", "1941", "--script", "-")
    assert code == 2 and err.startswith("error: --position")
    assert "Position owners: Unknown space 'Ukraine S.S.R.'. Did you mean: Ukraine?" in err


def test_a_breakthrough_at_the_table(tmp_path: Path) -> None:
    script = tmp_path / "research.txt"
    script.write_text(SEATS + "alice: research 2\nend\nbuy 1 fighter\ngame status\n")
    # dice 2 and 6: one breakthrough; development die 4: Long-Range Aircraft
    code, out, err = in_process("--script", str(script), "--dice", "2,6,4")
    assert code == 0, out + err
    assert "Russia developed Long-Range Aircraft" in out
    assert "Weapons developments: Russia Long-Range Aircraft." in out
    assert "Treasury: Russia 2," in out  # 24 - 2 research dice at 5 - a fighter at 12


def test_the_documented_classic_turn_plays_through(tmp_path: Path) -> None:
    """docs/local-table.md: Russia's first turn of Classic is accepted line by line, and the
    answers quoted there are the table's."""
    from tests.local.test_table import doc_block

    command = doc_block("turn-classic-command").split()
    dice = command[command.index("--dice") + 1]
    script = tmp_path / "classic.txt"
    script.write_text(doc_block("turn-classic-script"))
    code, out, err = in_process("--script", str(script), "--dice", dice)
    assert code == 0, out + err
    doc = (Path(__file__).resolve().parents[2] / "docs" / "local-table.md").read_text("utf-8")
    quoted = doc[doc.index("<!-- turn-classic-script -->"):].split("Some answers:", 1)[1]
    quoted = quoted[quoted.index("```text") + 7: quoted.index("```", quoted.index("```text") + 7)]
    for line in quoted.strip().splitlines():
        if line != "...":
            assert line in out, line


def test_a_bombing_raid_and_its_luck_at_the_table(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"edition": "classic", "power": "Germany",
                               "phase": "combat_move"}))
    script = tmp_path / "raid.txt"
    script.write_text(
        "Germany: move 1 bomber from Germany to United Kingdom raid\n"
        "end\n"
        "bomb uk\n"
        "luck\n"
        "game status\n"
    )
    # the AA gun misses (3); the bomber's damage die is 6
    code, out, err = in_process("--position", str(pos), "--dice", "3,6", "--script", str(script))
    assert code == 0, out + err
    assert "(strategic bombing raid on United Kingdom)" in out
    assert "United Kingdom paid 6 IPCs to the bank" in out
    # the raid's antiaircraft die counts for the defender; its damage dice are no hits (R-SBR-03)
    assert ("Round 1, United Kingdom (Germany attacking, bombing raid): Germany rolled no dice; "
            "United Kingdom 0 hits from 1 die") in out
    assert "attacker 0 hits" not in out
    assert "Treasury: Russia 24, Germany 32, United Kingdom 24" in out


def test_position_techs_and_debts_classic(tmp_path: Path) -> None:
    """Issue 13's done-means: a Classic position with developments and debts loads (names as
    orders spell them), plays with them, and shows them in 'state' and 'game status'."""
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({
        "edition": "classic", "power": "Germany", "phase": "purchase",
        "treasury": {"Germany": 10},
        "techs": {"Germany": ["Industrial Technology", "jets"]},
        "debts": {"germany": 4},
        "clear_all_units": True,
        "units": {"West Europe": {"Germany": {"inf": 1}},
                  "Anglo Sudan Egypt": {"UK": {"infantry": 1}}},
    }))
    script = tmp_path / "s.txt"
    script.write_text("Germany: state\ngame status\nbuy 2 tanks\n")
    code, out, err = in_process("--position", str(pos), "--script", str(script))
    assert code == 0, out + err
    assert '"techs": {\n    "Germany": [\n      "industrial_technology",\n      "jet_power"' in out
    assert '"debts": {\n    "Germany": 4\n  }' in out
    assert '"Western Europe": {\n      "Germany": {\n        "infantry": 1' in out
    assert "Weapons developments: Germany Industrial Technology, Jet Power." in out
    assert "Owed to the bank (from its next income): Germany 4." in out
    assert "Germany bought 2 tanks (8 IPCs)." in out
