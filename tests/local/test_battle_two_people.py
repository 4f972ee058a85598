"""A battle fought round by round at the local table by two people, each answering only their
own questions (issue: combat complete for 1941). Wrong person or wrong moment is refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

POSITION = {
    "edition": "1941", "power": "United Kingdom", "phase": "combat_move",
    "units": {"Sea Zone 7": {"United Kingdom": {"battleship": 1, "submarine": 1}},
              "Sea Zone 6": {"Germany": {"submarine": 1, "destroyer": 1, "transport": 1}}},
    "clear_all_units": True,
}

SCRIPT = """\
United Kingdom: move 1 battleship, 1 submarine from Sea Zone 7 to Sea Zone 6
end
Germany: battle Sea Zone 6
United Kingdom: battle Sea Zone 6
United Kingdom: strike Sea Zone 6
Germany: strike Sea Zone 6
United Kingdom: casualties Sea Zone 6 1 submarine
Germany: casualties Sea Zone 6 1 submarine
United Kingdom: retreat Sea Zone 6 to Sea Zone 7
United Kingdom: casualties Sea Zone 6 1 battleship
United Kingdom: press Sea Zone 6
state
"""


def test_two_people_fight_a_sea_battle_round_by_round(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(POSITION))
    script = tmp_path / "battle.txt"
    script.write_text(SCRIPT)
    # Round 1: the German submarine strikes (no British destroyer) and misses; the British
    # battleship hits, their submarine (no Step 2: a German destroyer) misses; the German
    # destroyer hits. Round 2: everybody misses.
    dice = "6,1,6,2,6,6,6"
    proc = subprocess.run(
        [sys.executable, "bot.py", "--local", "--position", str(pos), "--script", str(script),
         "--dice", dice, "--json", "--keep-going", "--no-images"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    by_line = [(a["line"], a["ok"], a["error"] or "") for a in answers]
    assert by_line[0][1] and by_line[1][1]
    # Germany may not fight the British battle.
    assert not by_line[2][1] and "United Kingdom's turn" in by_line[2][2]
    # The British attack; the German submarine's owner must answer first (SS-2).
    assert by_line[3][1] and "submerge or strike" in answers[3]["answer"]
    assert not by_line[4][1] and "SS-2" in by_line[4][2]
    assert by_line[5][1]
    # The Germans owe the choice of their casualty, not the British (H-1).
    assert not by_line[6][1] and "chosen by Germany" in by_line[6][2]
    assert by_line[7][1]
    # The German destroyer's hit: the British choose; no retreat before they do (CC-6B).
    assert not by_line[8][1] and "waiting for casualties" in by_line[8][2]
    assert by_line[9][1]
    assert by_line[10][1]
    final = answers[-1]["state"]
    assert final["units"]["Sea Zone 6"]["Germany"] == {"destroyer": 1, "transport": 1}
    assert final["units"]["Sea Zone 6"]["United Kingdom"] == {"battleship": 1, "submarine": 1}
    assert final["battles"] == ["Sea Zone 6"]
