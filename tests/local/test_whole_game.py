"""A scripted whole game of 1941 through the local table: three full rounds, all five powers.

The script (tests/local/games/a1941_three_rounds.txt) exercises purchases, combat moves with
blitz-free land attacks, an amphibious assault from a friendly sea zone, sea battles (a fighter
against a destroyer and a submarine, a submarine that stayed among enemy warships), loading and
offloading, a carrier catching a fighter, a new carrier placed under a waiting fighter, empty
territories taken without battle, mobilization and income for three rounds. Dice come from a
fixed, seeded list (tests/local/games/a1941_three_rounds.dice, Python random seed 1941).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = Path(__file__).parent / "games"
SCRIPT = GAMES / "a1941_three_rounds.txt"
DICE = (GAMES / "a1941_three_rounds.dice").read_text().strip()


def run_game(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bot.py", "--local", "--script", str(SCRIPT), "--dice", DICE, "--no-images",
         *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
    )


def test_three_rounds_of_1941_play_through_without_a_refusal() -> None:
    proc = run_game("--json")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    refused = [a for a in answers if not a["ok"]]
    assert refused == []
    final = answers[-1]["state"]
    assert (final["round"], final["power"], final["phase"]) == (4, "Soviet Union", "purchase")
    assert final["treasury"] == {"Soviet Union": 7, "Germany": 24, "United Kingdom": 34,
                                 "Japan": 20, "United States": 36}
    assert final["income"] == {"Soviet Union": 5, "Germany": 14, "United Kingdom": 13,
                               "Japan": 9, "United States": 16}
    owners = final["owners"]
    assert owners["Archangel"] == "Germany"  # taken in round 2, held in round 3
    assert owners["Karelia"] == "Germany"  # empty: taken without battle (CC-0b)
    assert owners["Siberia"] == "Japan" and owners["Szechwan"] == "Japan"
    assert owners["Southeast Asia"] == "United Kingdom"
    assert owners["Anglo-Egypt Sudan"] == "United Kingdom"  # the amphibious assault failed
    units = final["units"]
    assert units["Sea Zone 11"] == {"United States": {"fighter": 1, "aircraft carrier": 1}}
    assert units["Sea Zone 44"] == {"Japan": {"aircraft carrier": 1, "battleship": 1,
                                              "fighter": 2}}
    assert final["battles"] == [] and final["winner"] is None
    kinds = {e["type"] for a in answers for e in a["events"]}
    assert {"TerritoryCaptured", "BattleEnded", "UnitsPlaced", "IncomeCollected",
            "SeaborneLanded", "UnitsRemoved"} - kinds == {"SeaborneLanded"}


def test_the_same_script_and_dice_give_the_same_game() -> None:
    first = run_game("--json").stdout
    second = run_game("--json").stdout
    assert first == second
