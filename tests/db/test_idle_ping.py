"""A pooled PostgreSQL connection the server dropped while it sat idle is replaced before it is
used (``db.engine._ping_when_idle``), as ``pool_pre_ping`` did for every transaction; a
connection back in the pool within ``IDLE_PING_S`` is handed out without a round trip."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

import db.engine
from db.engine import create_engine
from db.repo import SqlStore
from service.games import GameService
from tests.db.conftest import _admin, channel, play_ends, seated_game

pytestmark = pytest.mark.postgres


async def _backend(store: SqlStore) -> int:
    async with store.engine.connect() as conn:
        return int(await conn.scalar(sa.text("SELECT pg_backend_pid()")))


async def test_a_connection_dropped_while_idle_is_replaced(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SqlStore(create_engine(pg_url, pool_size=1, max_overflow=0))
    try:
        svc = GameService(store)
        g = await seated_game(svc, channel())
        pid = await _backend(store)
        assert await _backend(store) == pid  # the one pooled connection, reused
        await _admin(f"SELECT pg_terminate_backend({pid})")  # the server drops it
        monkeypatch.setattr(db.engine, "IDLE_PING_S", 0.0)  # it has now been idle long enough
        await play_ends(svc, g, 2)  # served by a new connection, nothing refused
        assert await _backend(store) != pid
    finally:
        await store.close()


async def test_a_busy_connection_is_not_pinged(pg_url: str) -> None:
    store = SqlStore(create_engine(pg_url, pool_size=1, max_overflow=0))
    statements: list[str] = []
    try:
        await _backend(store)
        pings = 0
        dialect = store.engine.sync_engine.dialect
        ping = dialect.do_ping

        def counting(dbapi_connection: object) -> bool:
            nonlocal pings
            pings += 1
            return bool(ping(dbapi_connection))

        dialect.do_ping = counting  # type: ignore[method-assign]
        sa.event.listen(store.engine.sync_engine, "before_cursor_execute",
                        lambda *a: statements.append(a[2]))
        for _ in range(3):
            await _backend(store)
        assert pings == 0 and len(statements) == 3
    finally:
        await store.close()
