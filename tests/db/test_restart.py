"""Kill the local table (SIGKILL) right after an order is acknowledged; a new process continues."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from db.engine import create_engine
from db.repo import SqlStore
from rules.position import state_json
from service.games import GameService

ROOT = Path(__file__).resolve().parents[2]
SETUP = [
    "alice: game new 1941",
    "alice: game join Germany",
    "alice: game join Japan",
    "bob: game join Soviet Union",
    "bob: game join United Kingdom",
    "bob: game join United States",
    "alice: game start",
]


def _table(flag: list[str], channel_dir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "local.table", "--json", *flag, "--out", str(channel_dir)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _say(proc: subprocess.Popen[str], line: str) -> dict[str, object]:
    stdin: IO[str] | None = proc.stdin
    stdout: IO[str] | None = proc.stdout
    assert stdin is not None and stdout is not None
    stdin.write(line + "\n")
    stdin.flush()
    answer = stdout.readline()
    assert answer, proc.stderr.read() if proc.stderr else "no answer"
    doc: dict[str, object] = json.loads(answer)
    return doc


@pytest.mark.parametrize("db_url", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True)
async def test_sigkill_after_ack_then_continue(db_url: str, tmp_path: Path) -> None:
    if db_url.startswith("sqlite"):
        flag = ["--db", db_url.removeprefix("sqlite+aiosqlite:///")]
    else:
        # The PostgreSQL database is shared by this test session: start from a clean channel.
        store = SqlStore(create_engine(db_url))
        try:
            for g in await store.games_in_channel("local"):
                await store.set_status(g.id, "finished")
        finally:
            await store.close()
        flag = ["--db-url", db_url]
    first = _table(flag, tmp_path)
    try:
        for line in SETUP:
            doc = _say(first, line)
            assert doc["ok"], doc
        acked = _say(first, "bob: end confirm")
        assert acked["ok"], acked
        status = _say(first, "state")
        assert status["ok"]
        os.kill(first.pid, signal.SIGKILL)  # right after the acknowledgements: no clean exit
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == -signal.SIGKILL

    second = _table(flag, tmp_path)
    try:
        again = _say(second, "state")
        assert again["ok"], again
        assert again["state"] == status["state"]  # the same state, the order included
        more = _say(second, "bob: end")  # and the game goes on where it was
        assert more["ok"], more
        more_state = _say(second, "state")["state"]
    finally:
        assert second.stdin is not None
        second.stdin.close()
        second.wait(timeout=20)
    assert second.returncode == 0

    store = SqlStore(create_engine(db_url))
    try:
        rec = [g for g in await store.games_in_channel("local") if g.status == "active"][-1]
        orders = await store.orders(rec.id)
        assert [o.text for o in orders[-2:]] == ["end confirm", "end"]
        assert state_json(await GameService(store).state(rec.id)) == more_state
    finally:
        await store.close()
