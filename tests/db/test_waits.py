"""The store's part of the waits: announcements claimed once across processes, a deadline
re-armed by exactly one of two racing processes, notification settings and vacations kept
across a restart; on SQLite and PostgreSQL, and the same in memory."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from db.engine import create_engine
from db.records import DiceSpec, NotifyPrefRecord, VacationRecord
from db.repo import SqlStore
from service.store import EventStore, MemoryStore
from tests.db.conftest import BACKENDS, channel

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def _game(store: EventStore) -> str:
    rec = await store.create_game(
        edition="1941", options=(), channel=channel(), owner="alice", dice=DiceSpec("scripted")
    )
    return rec.id


async def _claims_once(store: EventStore, other: EventStore) -> None:
    game = await _game(store)
    key = "line:Germany|alice|decision|casualties|Ukraine|1|1|conduct_combat"
    tries = [s.claim(game, key, f"p{i}") for i in range(8) for s in (store, other)]
    assert sum(await asyncio.gather(*tries)) == 1
    assert await other.claimed(game, [key, "line:other"]) == {key}
    await store.release_claim(game, key)  # the post failed: the next pass does it again
    assert await other.claimed(game, [key]) == set()
    assert await other.claim(game, key, "p1")


async def _rearm_race(store: EventStore, other: EventStore) -> None:
    game = await _game(store)
    await store.set_deadline(game, T0, 3600, "end", "w1")
    moves = [
        s.rearm_deadline(game, "w1", f"w2-{i}", T0 + timedelta(hours=i + 1))
        for i, s in enumerate((store, other, store, other))
    ]
    won = [d for d in await asyncio.gather(*moves) if d is not None]
    assert len(won) == 1  # of racing processes, one re-arms; the others see it moved
    d = await other.get_deadline(game)
    assert d is not None and d == won[0] and d.armed_for.startswith("w2-")
    assert (d.every, d.action) == (3600, "end")


async def _settings(store: EventStore, restarted: EventStore) -> None:
    game = await _game(store)
    await store.set_notify_pref(NotifyPrefRecord("bob", "", "dm", 22 * 60, 7 * 60, "+02:00"))
    await store.set_notify_pref(NotifyPrefRecord("bob", game, "both"))
    await store.set_notify_pref(NotifyPrefRecord("bob", game, "channel"))  # replaced
    prefs = sorted(await restarted.notify_prefs(["bob", "carol"]), key=lambda p: p.game_id)
    assert prefs == [
        NotifyPrefRecord("bob", "", "dm", 22 * 60, 7 * 60, "+02:00"),
        NotifyPrefRecord("bob", game, "channel"),
    ]
    away = VacationRecord("bob", T0, T0 + timedelta(days=7))
    await store.set_vacation(away, "bob")
    assert await restarted.vacations(["bob", "alice"]) == [away]
    await store.set_vacation(None, "bob")
    assert await restarted.vacations(["bob"]) == []
    await store.set_status(game, "active")
    assert game in [g.id for g in await restarted.active_games()]


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_an_announcement_is_claimed_once_by_two_processes(
    store: SqlStore, db_url: str
) -> None:
    other = SqlStore(create_engine(db_url))
    try:
        await _claims_once(store, other)
    finally:
        await other.close()


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_two_processes_rearming_a_deadline_one_wins(store: SqlStore, db_url: str) -> None:
    other = SqlStore(create_engine(db_url))
    try:
        await _rearm_race(store, other)
    finally:
        await other.close()


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_settings_and_vacations_survive_a_restart(store: SqlStore, db_url: str) -> None:
    restarted = SqlStore(create_engine(db_url))
    try:
        await _settings(store, restarted)
    finally:
        await restarted.close()


async def test_the_same_in_memory() -> None:
    store = MemoryStore()
    await _claims_once(store, store)
    await _rearm_race(store, store)
    await _settings(store, store)
