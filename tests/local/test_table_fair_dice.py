"""At the local table with fair dice: play a round with a battle, export, check it offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POSITION = {
    "edition": "1941",
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 2}},
        "Eastern Europe": {"Germany": {"infantry": 3, "tank": 2}},
    },
}
# purchase → combat move → noncombat → mobilize → next turn, each passed doing nothing (confirmed)
TURN = "end confirm\n" * 4
SCRIPT = (
    "Germany: move 3 infantry, 2 tanks from Eastern Europe to Ukraine\n"
    "end\n"
    "battle Ukraine all\n"
    "end\nend confirm\nend\n"
    f"United Kingdom: {TURN}Japan: {TURN}United States: {TURN}"
    "dice verify\n"
    "game export\n"
)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def test_a_fair_game_at_the_table_exports_and_verifies(tmp_path: Path) -> None:
    (tmp_path / "pos.json").write_text(json.dumps(POSITION), encoding="utf-8")
    (tmp_path / "game.txt").write_text(SCRIPT, encoding="utf-8")
    p = run(str(ROOT / "bot.py"), "--local", "--position", "pos.json", "--script", "game.txt",
            "--json", "--out", "out", cwd=tmp_path)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    answers = [json.loads(line) for line in p.stdout.splitlines()]
    verified = answers[-2]
    assert verified["ok"] and verified["answer"].startswith("Round 1: ")
    assert "verified; seed links to the commitment." in verified["answer"]
    export = Path(tmp_path, answers[-1]["files"][0])
    doc = json.loads(export.read_text(encoding="utf-8"))
    assert not any(e["type"] == "DiceCommitted" and e["scheme"] == "scripted"
                   for e in doc["events"])

    tool = str(ROOT / "tools" / "verify_dice.py")
    ok = run("-I", tool, str(export), cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Round 1: " in ok.stdout and ok.stdout.rstrip().endswith("All checks passed.")

    rolled = next(e for e in doc["events"] if e["type"] == "DiceRolled")
    rolled["groups"][0][2][0] = rolled["groups"][0][2][0] % 6 + 1
    export.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    bad = run("-I", tool, str(export), cwd=tmp_path)
    assert bad.returncode == 1
    assert f"Event #{rolled['seq']} (DiceRolled) was changed" in bad.stdout
    assert f"event #{rolled['seq']} DiceRolled in Ukraine" in bad.stdout
