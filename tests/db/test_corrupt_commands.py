"""A corrupt game answered plainly by every command of the local table (issue 12, item 5), and
repaired there by its owner with 'game repair truncate|reseal'; on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from db.models import EVENT
from db.repo import SqlStore
from local.table import Table
from service.games import GameService
from tests.db.conftest import BACKENDS, channel

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)

SEATS = [
    "alice: game new 1941",
    "alice: game join Germany",
    "alice: game join Japan",
    "bob: game join Soviet Union",
    "bob: game join United Kingdom",
    "bob: game join United States",
    "alice: game start",
    "bob: buy 1 infantry",
    "bob: end",
    "bob: end",
]

# Every command of the order language (service/language.py USAGE), as a line at the table.
EVERY_COMMAND = [
    "bob: buy 1 infantry",
    "buy clear",
    "move 1 infantry from Russia to Ukraine",
    "load 1 infantry from Russia to 4 Sea Zone",
    "unload 1 infantry from 4 Sea Zone to Karelia",
    "battle Ukraine",
    "casualties Ukraine 1 infantry",
    "retreat Ukraine to Russia",
    "press Ukraine",
    "submerge 4 Sea Zone",
    "strike 4 Sea Zone",
    "withdraw 4 Sea Zone",
    "bomb Germany",
    "place 1 infantry in Russia",
    "research 1",
    "rocket Russia at Germany",
    "end",
    "end confirm",
    "end!",
    "undo",
    "odds 2 infantry vs 1 infantry",
    "luck",
    "luck Ukraine",
    "dice verify",
    "dice verify 1",
    "standing casualties Soviet Union infantry, tank",
    "state",
    "game status",
    "game status --json",
    "game map",
    "game map Ukraine",
    "game history",
    "game history 3",
    "game export",
    "game check",
    "game join Germany",
    "game start",
    "game leave",
    "game cancel",
    "game concede",
    "game draw",
    "game list",
    "game mine",
    "game new 1941",
    "help",
    "help buy",
    "alice: pause",
    "resume",
    "deadline 24h",
    "substitute Japan carol",
    "kick carol",
    "edit add 1 infantry in Ukraine",
    "edit list",
    "edit confirm 1",
    "edit reject 1",
    "orders",
    "buy 1 infantry",
    "end orders",
]

# These read or change the game's log: each must say the game is corrupt and how to repair it.
MUST_SAY_CORRUPT = [
    "bob: buy 1 infantry", "end", "undo", "odds 2 infantry vs 1 infantry", "luck",
    "luck Ukraine", "dice verify", "state", "game status", "game map", "game map Ukraine",
    "game history", "game export", "game check", "edit add 1 infantry in Ukraine",
]


async def _table(store: SqlStore, tmp_path: Path) -> Table:
    svc = GameService(store, allow_scripted_dice=True)
    t = Table(svc, tmp_path, channel=channel())
    for line in SEATS:
        a = await t.answer(line)
        assert a is not None and a.result.ok, (line, a.result.error if a else None)
    return t


async def _edit_one_event(store: SqlStore, game_id: str, seq: int) -> None:
    async with store.engine.begin() as conn:
        payload = (
            await conn.execute(
                sa.select(EVENT.c.payload).where(EVENT.c.game_id == game_id, EVENT.c.seq == seq)
            )
        ).scalar_one()
        await conn.execute(
            EVENT.update()
            .where(EVENT.c.game_id == game_id, EVENT.c.seq == seq)
            .values(payload={**payload, "edited": True})
        )


async def test_every_command_answers_a_corrupt_game_plainly(
    store: SqlStore, tmp_path: Path
) -> None:
    t = await _table(store, tmp_path)
    game = await t.service.game_in(t.channel)
    assert game is not None
    n = len(await store.load_events(game.id))
    await _edit_one_event(store, game.id, n - 2)
    t.service = GameService(store, allow_scripted_dice=True)  # as after a restart: no cache
    said: dict[str, str] = {}
    for line in EVERY_COMMAND:
        a = await t.answer(line)  # never an uncaught CorruptGame
        if a is None:
            continue  # a line inside the orders block
        text = a.to_text()
        assert "Internal error" not in text and "Traceback" not in text, (line, text)
        said[line] = text
    for line in MUST_SAY_CORRUPT:
        text = said[line]
        assert text.startswith("Refused: Game "), (line, text)
        assert f"is corrupt: stored event #{n - 1}" in text, (line, text)
        assert "game's owner (alice)" in text and "'game repair truncate'" in text, (line, text)
        assert "'game repair reseal'" in text, (line, text)
    assert "corrupt" in said["end orders"]  # the block's first order says it
    assert "its stored log is corrupt" in said["game list"]
    assert "owner (alice) repairs it" in said["game list"]
    assert said["help"].startswith("Orders") or "buy" in said["help"]

    refused = await t.answer("bob: game repair truncate")
    assert refused is not None and not refused.result.ok
    assert "Only the game's owner (alice)" in (refused.result.error or "")
    done = await t.answer("alice: game repair truncate")
    assert done is not None and done.result.ok, done.result.error
    assert f"Log cut before event #{n - 1}" in done.result.answer
    state = await t.answer("state")
    assert state is not None and state.result.ok, state.result.error
    check = await t.answer("game check")
    assert check is not None and check.result.ok and "The log holds" in check.result.answer


async def test_the_owner_reseals_an_edited_hash_at_the_table(
    store: SqlStore, tmp_path: Path
) -> None:
    t = await _table(store, tmp_path)
    game = await t.service.game_in(t.channel)
    assert game is not None
    n = len(await store.load_events(game.id))
    async with store.engine.begin() as conn:
        await conn.execute(
            EVENT.update().where(EVENT.c.game_id == game.id, EVENT.c.seq == n - 3)
            .values(hash="0" * 64)
        )
    bad = await t.answer("alice: game map")
    assert bad is not None and not bad.result.ok and "corrupt" in (bad.result.error or "")
    wrong = await t.answer("game repair sideways")
    assert wrong is not None and "'game repair truncate'" in (wrong.result.error or "")
    done = await t.answer("game repair reseal")
    assert done is not None and done.result.ok, done.result.error
    assert "Stored log accepted" in done.result.answer and "Log #" in done.result.answer
    assert len(await store.load_events(game.id)) == n
    status = await t.answer("game status")
    assert status is not None and status.result.ok and f"Log #{n} · " in status.result.answer
