"""``game import <file> [unverified]`` at the local table (issue 12, item 6), on SQLite and
PostgreSQL: an export written by ``game export`` at one table is imported at another, refused
while it matches no head the referee published unless taken as an unverified copy; a file that
is not an export is answered plainly."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from db.repo import SqlStore
from local.table import Table
from service.games import GameService
from service.store import MemoryStore
from tests.db.conftest import BACKENDS

DB = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)

SEATS = [
    "alice: game new 1941", "alice: game join Germany", "game join Japan",
    "bob: game join Soviet Union", "game join United Kingdom", "game join United States",
    "alice: game start", "bob: buy 2 infantry", "end",
]


async def _exported(tmp_path: Path) -> str:
    table = Table(GameService(MemoryStore(), draw_secret=lambda: b"a" * 32), tmp_path / "one")
    for line in SEATS:
        a = await table.answer(line)
        assert a is not None and a.result.ok, (line, a and a.result.error)
    a = await table.answer("game export")
    assert a is not None and a.files
    return a.files[0]


@DB
async def test_game_import_at_the_table(store: SqlStore, tmp_path: Path) -> None:
    path = await _exported(tmp_path)
    table = Table(GameService(store, draw_secret=lambda: b"b" * 32), tmp_path / "two",
                  f"table-{uuid.uuid4().hex[:8]}")

    async def say(line: str) -> tuple[bool, str]:
        a = await table.answer(line)
        assert a is not None
        return a.result.ok, a.result.error or a.result.answer

    ok, text = await say("game import " + path)
    assert not ok and text.startswith("Who is speaking?")
    ok, text = await say(f"alice: game import {path}")
    assert not ok and text.startswith("The export matches no head hash the referee published")
    assert "(game import <file> unverified)" in text
    ok, text = await say(f"alice: Game Import {path} unverified")
    assert ok, text
    assert text.startswith("Imported game ") and "UNVERIFIED COPY" in text
    ok, text = await say("game status")  # the game goes on where the export stopped
    assert ok and "Soviet Union" in text and "Combat Move" in text, text
    ok, text = await say(f"alice: game import {path} unverified")
    assert not ok and "already has game" in text and "Nothing was imported." in text


async def test_files_that_are_not_exports_are_answered_plainly(tmp_path: Path) -> None:
    table = Table(GameService(MemoryStore()), tmp_path)
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(bytes(range(256)))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    cases = {
        "alice: game import": "Name the file: 'game import <file.json> [unverified]'.",
        f"alice: game import {tmp_path / 'missing.json'}": "Cannot read ",
        f"alice: game import {garbage}": "Not a game export: the file is not UTF-8 text",
        f"alice: game import {deep}": "Not a game export: the JSON is nested too deep.",
        f"alice: game import {tmp_path}": "Cannot read ",
    }
    for line, want in cases.items():
        a = await table.answer(line)
        assert a is not None and not a.result.ok
        assert (a.result.error or "").startswith(want), (line, a.result.error)


@DB
async def test_an_export_of_this_referee_imports_as_verified(store: SqlStore, tmp_path: Path) -> None:
    """The heads the table posted (phase summaries, 'game status') vouch for the file."""
    svc = GameService(store, draw_secret=lambda: b"c" * 32)
    one = Table(svc, tmp_path / "one", f"table-{uuid.uuid4().hex[:8]}")
    for line in [*SEATS, "game status", "game export"]:
        a = await one.answer(line)
        assert a is not None and a.result.ok, (line, a and a.result.error)
    assert a is not None and a.files
    head = a.result.game
    assert head is not None
    n = len((await svc.export(head.id))["events"])
    two = Table(svc, tmp_path / "two", f"table-{uuid.uuid4().hex[:8]}")
    b = await two.answer(f"carol: game import {a.files[0]}")
    assert b is not None and b.result.ok, b.result.error
    assert f"the log matches the head published at log #{n}." in b.result.answer
