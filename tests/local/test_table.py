"""The local table: scripts, JSON answers, a conversation over pipes, flags and exit codes."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bot
from local.table import no_name, parse_dice, run_table

ROOT = Path(__file__).resolve().parents[2]
BOT = str(ROOT / "bot.py")

SEATS = """\
# seats: alice plays the Axis, bob the Allies
alice: game new 1941
alice: game join Germany
game join Japan
bob: game join Soviet Union
game join United Kingdom
game join United States

alice: game start
"""

POSITION: dict[str, Any] = {
    "edition": "1941",
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 1}},
        "Eastern Europe": {"Germany": {"infantry": 2, "tank": 1}},
    },
}


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    e["PYTHONPATH"] = str(ROOT)
    return e


def run_bot(
    *args: str, cwd: Path, stdin: str = "", extra_env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, BOT, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**env(), **(extra_env or {})},
        timeout=120,
    )


def in_process(*argv: str, stdin: str = "", out_dir: Path | None = None) -> tuple[int, str, str]:
    """Run the table inside this process: (exit code, stdout, stderr)."""
    # No map images here (tests/local/test_table_images.py has them): fast, and nothing is
    # written to the default output folder.
    args = bot.build_parser().parse_args(["--local", "--no-images", *argv])
    out, err = io.StringIO(), io.StringIO()
    code = asyncio.run(run_table(args, io.StringIO(stdin), out, err, out_dir=out_dir))
    return code, out.getvalue(), err.getvalue()


def answers(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


# --------------------------------------------------------------------------------------------


def test_script_json_subprocess(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SEATS + "bob: buy 2 infantry\nstate\ngame status --json\nend\n")
    p = run_bot("--local", "--script", str(script), "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = answers(p.stdout)
    # one object per line given, comments and blank lines ignored
    assert len(out) == 11
    assert all({"line", "ok", "error", "events"} <= set(a) for a in out)
    assert all(a["ok"] for a in out)
    assert out[0]["line"] == "alice: game new 1941"
    start = out[6]
    assert start["events"][0]["type"] == "GameStarted"
    buy = out[7]
    assert buy["events"] == [
        {"type": "UnitsPurchased", "power": "Soviet Union", "units": {"infantry": 2}, "cost": 6}
    ]
    state = out[8]["state"]
    assert state["power"] == "Soviet Union" and state["phase"] == "purchase"
    assert out[9]["state"] == state
    assert "state" not in out[10]
    assert out[10]["events"][-1] == {
        "type": "PhaseChanged",
        "power": "Soviet Union",
        "phase": "combat_move",
        "skipped": [],
        "rule": "T-2",
    }


def test_script_text_in_process(tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text(SEATS + "bob: buy 2 infantry\ngame map Ukraine\nhelp\n")
    code, out, err = in_process("--script", str(script))
    assert code == 0, err
    assert "Soviet Union bought 2 infantry (6 IPCs)." in out
    assert "Waiting for: Soviet Union [bob] (Purchase Units)" in out
    assert "Ukraine [" in out  # the text map
    assert "buy <units>" in out  # help


def test_state_is_pretty_in_text_mode(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SEATS + "state\n")
    code, out, _ = in_process("--script", str(script))
    assert code == 0
    doc = out[out.index("{\n") :]
    assert json.loads(doc)["round"] == 1


def test_conversation_over_pipes(tmp_path: Path) -> None:
    """`--script -`: each line is answered as soon as it is read."""
    proc = subprocess.Popen(
        [sys.executable, BOT, "--local", "--script", "-", "--json", "--keep-going"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env(),
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        said = [line for line in SEATS.splitlines() if line and not line.startswith("#")]
        said += ["bob: buy 1 infantry", "alice: buy 1 tank", "bob: undo"]
        replies = []
        for line in said:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())  # blocks until this line is answered
            assert reply["line"] == line
            replies.append(reply)
        assert replies[-3]["ok"] and replies[-3]["events"][0]["type"] == "UnitsPurchased"
        assert not replies[-2]["ok"]
        assert replies[-2]["error"] == "It is Soviet Union's turn; you hold Germany and Japan."
        assert replies[-1]["ok"] and "Undone" in replies[-1]["answer"]
        proc.stdin.close()
        assert proc.wait(timeout=60) == 1  # a line was refused (--keep-going went on)
    finally:
        proc.kill()
        proc.wait()


def test_stops_at_the_first_refusal_unless_keep_going(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SEATS + "alice: buy 1 tank\nbob: buy 1 infantry\n")
    code, out, _ = in_process("--script", str(script), "--json")
    got = answers(out)
    assert code == 1 and len(got) == 8 and not got[-1]["ok"]
    code, out, _ = in_process("--script", str(script), "--json", "--keep-going")
    got = answers(out)
    assert code == 1 and len(got) == 9 and not got[-2]["ok"] and got[-1]["ok"]


def test_first_line_needs_a_name(tmp_path: Path) -> None:
    code, out, _ = in_process("--script", "-", "--json", stdin="game new 1941\n")
    (got,) = answers(out)
    assert code == 1 and got["error"] == no_name()
    # anyone may look without a name
    code, out, _ = in_process("--script", "-", stdin="help\n")
    assert code == 0 and "Orders:" in out


def test_bad_dice(tmp_path: Path) -> None:
    p = run_bot("--local", "--dice", "3,x,7", "--script", "-", cwd=tmp_path)
    assert p.returncode == 2
    assert "--dice: 'x' is not a die face" in p.stderr
    assert parse_dice("3, 1 6") == [3, 1, 6]
    for bad in ("", "0", "7", "1,,x", "2.5"):
        with pytest.raises(Exception, match="--dice"):
            parse_dice(bad)


def test_position_seats_every_power(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(POSITION))
    script = tmp_path / "s.txt"
    script.write_text(
        "Germany: move 2 infantry, 1 tank from Eastern Europe to Ukraine\n"
        "end\n"
        "battle Ukraine\n"
        "undo\n"
        "game history 3\n"
    )
    code, out, err = in_process(
        "--position", str(pos), "--dice", "1,1,1,6", "--script", str(script), "--json",
        "--keep-going",
    )
    assert err == ""
    got = answers(out)
    assert [a["ok"] for a in got] == [True, True, True, False, True]
    assert code == 1
    rolled = [e for e in got[2]["events"] if e["type"] == "DiceRolled"]
    assert [f for e in rolled for g in e["groups"] for f in g[2]] == [1, 1, 1, 6]
    assert "dice were rolled" in got[3]["error"]
    assert "Germany captured Ukraine" in got[4]["answer"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"power": "Atlantis"}', "Unknown power"),
        ('{"colour": "red"}', "Unknown keys"),
        ('{"units": [1]}', "position"),
    ],
)
def test_bad_position_file(tmp_path: Path, content: str, message: str) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(content)
    code, _, err = in_process("--position", str(pos), "--script", "-")
    assert code == 2 and message in err and err.startswith("error: --position")


def test_missing_files_are_usage_errors(tmp_path: Path) -> None:
    code, _, err = in_process("--position", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in err
    code, _, err = in_process("--script", str(tmp_path / "nope.txt"))
    assert code == 2 and "cannot read" in err


def test_export_writes_a_file(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(SEATS + "bob: buy 1 infantry\ngame export\n")
    code, out, _ = in_process("--script", str(script), "--json", out_dir=tmp_path / "out")
    assert code == 0
    last = answers(out)[-1]
    (path,) = last["files"]
    doc = json.loads(Path(path).read_text())
    assert doc["format"] == "umpire-game" and doc["state"]["treasury"]["Soviet Union"] == 4


def test_without_token_the_table_starts(tmp_path: Path) -> None:
    p = run_bot("--script", "-", "--json", cwd=tmp_path, stdin="help\n")
    assert p.returncode == 0
    assert "No DISCORD_TOKEN set: starting the local table." in p.stderr
    assert json.loads(p.stdout)["ok"] is True


def test_with_token_the_discord_bot_starts_and_never_prints_the_token(tmp_path: Path) -> None:
    # No network in the tests: the bot starts, cannot reach Discord, and says so in one line.
    p = run_bot(cwd=tmp_path, extra_env={"DISCORD_TOKEN": "secret-token-value"})
    assert p.returncode != 0
    assert "No DISCORD_TOKEN" not in p.stderr  # not the local table
    assert "error:" in p.stderr and "Traceback" not in p.stderr
    assert "secret-token-value" not in p.stderr + p.stdout


def doc_block(marker: str) -> str:
    """The fenced block right after ``<!-- marker -->`` in docs/local-table.md."""
    text = (ROOT / "docs" / "local-table.md").read_text(encoding="utf-8")
    after = text[text.index(f"<!-- {marker} -->") :]
    start = after.index("```")
    body = after[after.index("\n", start) + 1 :]
    return body[: body.index("```")]


def test_the_documented_round_plays_through(tmp_path: Path) -> None:
    """docs/local-table.md: the full round of 1941 is accepted line by line."""
    command = doc_block("round-1941-command").split()
    dice = command[command.index("--dice") + 1]
    script = tmp_path / "round1.txt"
    script.write_text(doc_block("round-1941-script"))
    code, out, err = in_process("--script", str(script), "--dice", dice, "--json")
    got = answers(out)
    refused = [(a["line"], a["error"]) for a in got if not a["ok"]]
    assert refused == [] and code == 0, err
    assert "Round 2, Soviet Union's turn, Purchase Units." in got[-1]["answer"]


def test_a_repeated_end_at_the_table_cannot_skip_a_phase(tmp_path: Path) -> None:
    """Issue 13 item 11: a bare 'end' on an empty Purchase with money, or an empty Noncombat
    Move with units able to move, asks for 'end confirm'; 'end <phase>' is refused once that
    phase has passed; an 'end' is undone while no dice were rolled."""
    script = tmp_path / "ends.txt"
    script.write_text(SEATS + "bob: end\nbuy 1 infantry\nend\nend\nend\nend combat move\n"
                      "undo\nend combat move\nend noncombat move\n")
    code, out, err = in_process("--script", str(script), "--keep-going")
    assert code == 1, out + err
    assert ("Refused: Soviet Union has bought nothing and has 7 IPCs to spend. Buy with "
            "'buy <units>', or 'end confirm' to end Purchase Units without buying.") in out
    assert ("Refused: Nothing has moved in Noncombat Move and 19 of Soviet Union's units can "
            "still move (") in out
    assert ("Refused: Combat Move has already ended; it is Noncombat Move now. Nothing was "
            "ended: 'end' again to end Noncombat Move.") in out
    assert "Undone: Soviet Union's 'end' (2 events taken back)." in out
    assert "Waiting for: Soviet Union [bob] (Combat Move)" in out
    # The phase summary ends with the log's head (published, issue 12).
    waiting, head = out.rstrip().rsplit("\n", 1)
    assert waiting.endswith("Waiting for: Soviet Union [bob] (Mobilize New Units)")
    assert head.startswith("Log #")
