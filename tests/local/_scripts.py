"""The scripted games of tests/local/games/ run through ``bot.py --local`` as a person would
run them: the script on standard input with 'alice: state' after it, its dice, no images."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GAMES = Path(__file__).parent / "games"


def run_script(name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """``bot.py --local`` on the game ``name`` (``<name>.txt`` with ``<name>.dice``)."""
    lines = (GAMES / f"{name}.txt").read_text("utf-8") + "alice: state\n"
    dice = (GAMES / f"{name}.dice").read_text().strip()
    return subprocess.run(
        [sys.executable, "bot.py", "--local", "--script", "-", "--dice", dice, "--no-images",
         *extra],
        cwd=ROOT, input=lines, capture_output=True, text=True, timeout=180, check=False,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
    )


def played(name: str) -> list[dict[str, Any]]:
    """The answers (``--json``) of the game ``name`` played through, none of them a refusal."""
    proc = run_script(name, "--json")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert [a["line"] for a in answers if not a["ok"]] == []
    return answers
