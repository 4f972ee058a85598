"""A scripted game of Axis & Allies Classic through the local table: two full rounds, all five
powers, two people (alice: the Allies, bob: the Axis).

The script (tests/local/games/classic_two_rounds.txt) exercises weapons development (Japan's
breakthrough to Super Submarines, as in the rulebook's worked example 2: 5 IPCs, a 6 then a 3,
then a fighter and a submarine for the 20 left), a neutral violated for 3 IPCs (Turkey,
R-NEU-02), land battles with casualties chosen by each side, attacking submarines striking first
(R-SUB-02) and withdrawing (R-SUB-05), strategic bombing raids through antiaircraft fire
(R-SBR-01..04), antiaircraft fire before a land battle (R-LC-02), amphibious assaults with a
battleship's bombardment (R-AMP-05), a fighter launching from where its carrier started (A-19),
an industrial complex bought and placed (R-PLC-03) and producing the next turn, empty
territories taken without battle and income for two rounds. Dice: a fixed list
(tests/local/games/classic_two_rounds.dice: Python random seed 1942, with Japan's two research
dice set in at position 80).
"""

from __future__ import annotations

import subprocess

from tests.local._scripts import played, run_script


def run_game(*extra: str) -> subprocess.CompletedProcess[str]:
    return run_script("classic_two_rounds", *extra)


def test_two_rounds_of_classic_play_through_without_a_refusal() -> None:
    answers = played("classic_two_rounds")
    final = answers[-1]["state"]
    assert (final["edition"], final["round"], final["power"], final["phase"]) == (
        "classic", 3, "Russia", "research")
    assert final["treasury"] == {"Russia": 36, "Germany": 33, "United Kingdom": 43, "Japan": 34,
                                 "United States": 42}
    assert final["income"] == {"Russia": 19, "Germany": 32, "United Kingdom": 32, "Japan": 27,
                               "United States": 37}
    owners = final["owners"]
    assert owners["Turkey"] == "Russia"  # violated in round 1 for 3 IPCs (R-NEU-02)
    assert owners["Karelia S.S.R."] == "Germany"  # AA fire, then taken in round 2
    assert owners["Eastern Europe"] == "Germany"  # taken by Russia, retaken by Germany
    assert owners["Algeria"] == "United States"  # landing with bombardment (R-AMP-05)
    assert owners["Soviet Far East"] == "Japan"  # landing with bombardment, overland too
    assert owners["Finland Norway"] == "United Kingdom"
    assert owners["Libya"] == "Germany"
    assert final["units"]["North Sea Zone"] == {"Russia": {"submarine": 1},
                                                "United Kingdom": {"transport": 1}}
    assert final["battles"] == [] and final["winner"] is None
    events = [e for a in answers for e in a["events"]]
    kinds = {e["type"] for e in events}
    assert {"ResearchRolled", "TechnologyDeveloped", "NeutralViolated", "RaidResolved",
            "DamagePaid", "SubmarinesWithdrew", "CasualtiesChosen", "TerritoryCaptured",
            "UnitsPlaced", "IncomeCollected"} <= kinds
    stages = {e["stage"] for e in events if e["type"] == "DiceRolled"}
    assert {"fire", "strike", "aa", "bombard", "raid_aa", "raid"} <= stages
    developed = [e for e in events if e["type"] == "TechnologyDeveloped"]
    assert [(e["power"], e["tech"]) for e in developed] == [("Japan", "super_submarines")]
    chosen = [e for e in events if e["type"] == "CasualtiesChosen" and e["by"] != "referee"]
    # bob and alice each chose in Ukraine S.S.R.; 'battle all' waited for the defender 8 times
    # where it had a real choice (H-1).
    assert len(chosen) == 10


def test_the_text_answers_cite_classics_rulebook() -> None:
    proc = run_game()
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert "Japan developed Super Submarines" in out
    assert "Russia violated the neutrality of Turkey and paid 3 IPCs" in out
    # the carrier sails; its fighter stays where it started and then flies on its own.
    assert "(1 fighter stayed airborne in Caroline Islands Sea Zone)" in out
    assert "Japan moved 1 fighter from Caroline Islands Sea Zone to Hawaii Sea Zone" in out
    assert "R-LC-05" in out and "(CC-5)" not in out and "IN-1" not in out


def test_the_same_script_and_dice_give_the_same_game() -> None:
    assert run_game("--json").stdout == run_game("--json").stdout
