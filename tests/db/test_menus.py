"""Decision menus in the store: each posted exactly once across processes and retries, a failed
post released for the next pass, a dead poster's claim taken over later, closed for good."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from db.engine import create_engine
from db.records import MENU_CLAIM_STALE, DiceSpec
from db.repo import SqlStore
from service.store import MemoryStore
from tests.db.conftest import BACKENDS, channel

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
KEY = "1:1:2:casualties:Germany:Ukraine"


async def _game(store: SqlStore | MemoryStore) -> str:
    rec = await store.create_game(
        edition="1941", options=(), channel=channel(), owner="alice", dice=DiceSpec("scripted")
    )
    return rec.id


async def _menu_life(store: SqlStore | MemoryStore) -> None:
    game = await _game(store)
    assert await store.menus(game) == []
    assert await store.claim_menu(game, KEY, "42", "p0", T0)
    assert not await store.claim_menu(game, KEY, "42", "p1", T0)  # claimed: not twice
    await store.release_menu(game, KEY, "p1")  # not p1's claim: kept
    assert not await store.claim_menu(game, KEY, "42", "p1", T0 + timedelta(seconds=1))
    await store.release_menu(game, KEY, "p0")  # p0's post failed: the next pass posts it
    assert await store.claim_menu(game, KEY, "42", "p1", T0 + timedelta(seconds=2))
    await store.menu_posted(game, KEY, "777")
    await store.release_menu(game, KEY, "p1")  # posted: a release changes nothing
    (m,) = await store.menus(game)
    assert (m.key, m.channel, m.message_id, m.claimed_by, m.open) == (KEY, "42", "777", "p1", True)
    # Posted: never claimed again, not even long after.
    assert not await store.claim_menu(game, KEY, "42", "p2", T0 + timedelta(days=2))
    await store.close_menu(game, KEY, T0 + timedelta(hours=1))
    await store.close_menu(game, KEY, T0 + timedelta(hours=2))  # closed stays as it was
    (m,) = await store.menus(game)
    assert not m.open and m.closed_at == T0 + timedelta(hours=1)
    # Another decision of the same game is its own menu.
    assert await store.claim_menu(game, KEY.replace("Germany", "Japan"), "42", "p0", T0)
    assert [x.key for x in await store.menus(game)] == [KEY.replace("Germany", "Japan"), KEY]


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_menu_claim_post_release_close(store: SqlStore) -> None:
    await _menu_life(store)


async def test_menu_claim_post_release_close_in_memory() -> None:
    await _menu_life(MemoryStore())


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_two_processes_racing_to_post_one_menu_exactly_one_wins(
    store: SqlStore, db_url: str
) -> None:
    game = await _game(store)
    other = SqlStore(create_engine(db_url))  # a second bot process on the same database
    try:
        tries = [
            s.claim_menu(game, KEY, "42", f"p{i}", T0) for i in range(8) for s in (store, other)
        ]
        won = await asyncio.gather(*tries)
        assert sum(won) == 1
        (m,) = await other.menus(game)
        assert m.message_id is None and m.claimed_by == f"p{won.index(True) // 2}"
        # The winner died before posting: later, exactly one of the racers takes it over.
        later = T0 + MENU_CLAIM_STALE
        tries = [
            s.claim_menu(game, KEY, "42", f"q{i}", later) for i in range(8) for s in (store, other)
        ]
        won = await asyncio.gather(*tries)
        assert sum(won) == 1
        (m,) = await store.menus(game)
        assert m.claimed_by.startswith("q") and m.claimed_at == later
    finally:
        await other.close()


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_menus_survive_a_restart(store: SqlStore, db_url: str) -> None:
    game = await _game(store)
    assert await store.claim_menu(game, KEY, "42", "p0", T0)
    await store.menu_posted(game, KEY, "777")
    restarted = SqlStore(create_engine(db_url))
    try:
        (m,) = await restarted.menus(game)
        assert (m.message_id, m.open, m.claimed_at) == ("777", True, T0)
        await restarted.close_menu(game, KEY, T0)
        assert not (await store.menus(game))[0].open
    finally:
        await restarted.close()
