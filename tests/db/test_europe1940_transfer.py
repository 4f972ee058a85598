"""A Europe 1940 game leaves and enters a referee whole (issue 16, deliverable 4: export,
import, dice verification), on SQLite and PostgreSQL: the two scripted rounds of
tests/local/games/europe1940_two_rounds are played at one table, exported, and imported at
another; the imported game has the same state, the 1940 position keys included (the state of
war, facility damage, the bonuses paid), its log checks, and it goes on."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from db.repo import SqlStore
from local.table import Table
from rules.position import state_json
from service.games import GameService
from service.store import MemoryStore
from tests.cogs.test_scripted_games import script
from tests.db.conftest import BACKENDS

DB = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


async def _played(tmp_path: Path) -> tuple[str, dict[str, object]]:
    lines, dice = script("europe1940_two_rounds")
    service = GameService(MemoryStore(), scripted_dice=dice, allow_scripted_dice=True)
    table = Table(service, tmp_path / "one")
    for who, line in lines:
        a = await table.answer(f"{who}: {line}")
        assert a is None or a.result.ok, (line, a.result.error)
    a = await table.answer("alice: dice verify")
    assert a is not None and not a.result.ok  # nothing to verify: the faces were given
    assert str(a.result.error).startswith("The dice of this game are scripted"), a.result.error
    a = await table.answer("alice: game export")
    assert a is not None and a.files
    game = await service.game_in(table.channel)
    assert game is not None
    return a.files[0], state_json(await service.state(game.id))


@DB
async def test_a_europe1940_game_exported_and_imported(store: SqlStore, tmp_path: Path) -> None:
    path, before = await _played(tmp_path)
    exported = json.loads(Path(path).read_text("utf-8"))
    assert exported["format"] == "umpire-game" and exported["state"]["edition"] == "europe1940"
    name = f"table-{uuid.uuid4().hex[:8]}"
    fair = Table(GameService(store, draw_secret=lambda: b"b" * 32), tmp_path / "two", name)
    a = await fair.answer(f"alice: game import {path} unverified")
    assert a is not None and not a.result.ok  # a referee of fair dice takes no scripted game
    assert str(a.result.error).startswith("Scripted dice (--dice) are for the local table and tests")
    table = Table(GameService(store, draw_secret=lambda: b"b" * 32, allow_scripted_dice=True),
                  tmp_path / "two", name)
    a = await table.answer(f"alice: game import {path} unverified")
    assert a is not None and a.result.ok, a.result.error
    game = await table.service.game_in(table.channel)
    assert game is not None
    after = state_json(await table.service.state(game.id))
    assert after == before
    assert ["Germany", "Soviet Union"] in after["war"]
    assert after["used_bonuses"] == ["fr_liberation"]
    a = await table.answer("alice: game check")
    assert a is not None and a.result.ok, a.result.error
    a = await table.answer("bob: buy 1 infantry")  # it goes on where the export stopped
    assert a is not None and a.result.ok, a.result.error
    assert "Germany" in a.result.answer, a.result.answer
