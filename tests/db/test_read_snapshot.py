"""A read of the log sees one moment of it, on SQLite and PostgreSQL: the events and the heads
published to the players are read in one transaction, and an undo and another order committed
between its two statements (forced here) cannot make the log look rewritten. Before, on
PostgreSQL, such a read paired the events before the undo with the head after the new order and
reported the game corrupt (seen once in tests/db/test_random_races.py)."""

from __future__ import annotations

from typing import Any

import pytest

from db.repo import SqlStore
from service.games import GameService
from tests.db.conftest import BACKENDS, channel, seated_game

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


async def test_a_log_read_is_not_torn_by_an_undo_and_an_order_in_between(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    other = GameService(store)  # another process's service, on its own connections
    g = await seated_game(svc, channel())
    assert (await svc.submit(g, "bob", "buy 1 infantry")).ok  # the Soviet Union's purchase
    before = await store.load_events(g)
    await svc.publish_head(g, before)
    heads = type(store)._heads
    raced: list[tuple[int, str]] = []
    rival = [True]

    async def heads_after_a_rival(conn: Any, game_id: str) -> list[tuple[int, str]]:
        if rival.pop() if rival else False:  # once, between reading the events and the heads
            assert (await other.undo(g, "bob")).ok
            assert (await other.submit(g, "bob", "buy 2 infantry")).ok
            raced.append(await other.publish_head(g))
        return await heads(conn, game_id)

    monkeypatch.setattr(type(store), "_heads", staticmethod(heads_after_a_rival))
    seen = await store.load_events(g)  # raised CorruptGame on PostgreSQL before
    assert raced and raced[0][0] == len(before)
    assert [e.hash for e in seen] == [e.hash for e in before]  # the moment the read began
    monkeypatch.undo()
    now = await store.load_events(g)
    assert len(now) == len(before) and now[-1].hash == raced[0][1] != before[-1].hash
