"""Deadlines in the store: claimed exactly once across processes, paused, kept across restarts."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from db.engine import create_engine
from db.records import DiceSpec
from db.repo import SqlStore
from service.store import MemoryStore
from tests.db.conftest import BACKENDS, channel

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def _game(store: SqlStore | MemoryStore) -> str:
    rec = await store.create_game(
        edition="1941", options=(), channel=channel(), owner="alice", dice=DiceSpec("scripted")
    )
    return rec.id


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_claim_once_across_two_processes(store: SqlStore, db_url: str) -> None:
    game = await _game(store)
    other = SqlStore(create_engine(db_url))  # a second bot process on the same database
    try:
        due = T0 + timedelta(hours=1)
        tries = [
            s.claim_reminder(game, "due", due, f"p{i}") for i in range(8) for s in (store, other)
        ]
        won = await asyncio.gather(*tries)
        assert sum(won) == 1
        assert await other.claim_reminder(game, "before", due, "p1")  # another kind
        assert await store.claim_reminder(game, "due", due + timedelta(hours=1), "p0")  # renewed
        assert not await store.claim_reminder(game, "before", due, "p0")
    finally:
        await other.close()


async def test_claim_once_in_memory() -> None:
    store = MemoryStore()
    game = await _game(store)
    assert await store.claim_reminder(game, "due", T0, "a")
    assert not await store.claim_reminder(game, "due", T0, "b")


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_deadline_pause_resume_and_restart(store: SqlStore, db_url: str) -> None:
    game = await _game(store)
    assert await store.get_deadline(game) is None
    await store.set_deadline(game, T0 + timedelta(hours=24), 86400, "defaults")
    d = await store.pause_deadline(game, T0 + timedelta(hours=1))
    assert d is not None and d.paused
    d = await store.resume_deadline(game, T0 + timedelta(hours=4))  # paused for 3 hours
    assert d is not None and not d.paused and d.due_at == T0 + timedelta(hours=27)
    restarted = SqlStore(create_engine(db_url))  # the bot restarts: the deadline is still there
    try:
        d = await restarted.get_deadline(game)
        assert d is not None
        assert (d.due_at, d.every, d.action, d.paused) == (
            T0 + timedelta(hours=27),
            86400,
            "defaults",
            False,
        )
        assert game in [x.game_id for x in await restarted.deadlines()]
    finally:
        await restarted.close()
