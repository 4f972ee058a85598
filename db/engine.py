"""Async engines: SQLite through aiosqlite (WAL, foreign keys, busy timeout) or PostgreSQL through
asyncpg, from one SQLAlchemy URL.

SQLite: every transaction that writes starts with ``BEGIN IMMEDIATE`` (execution option
``immediate=True``), so two writers queue on the busy timeout instead of failing with "database
is locked" when a read transaction tries to become a write one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from db.records import UnstorableText
from rules.text import bad_char, char_name, refusal

BUSY_TIMEOUT_MS = 30_000


def sqlite_url(path: str | Path) -> str:
    """The aiosqlite URL of a SQLite file (its folder is created)."""
    p = Path(path).expanduser().resolve()
    p.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{p.as_posix()}"


def default_url(database_url: str | None, data_dir: str | Path = "data") -> str:
    """``database_url`` if set, else the SQLite file ``<data_dir>/umpire.sqlite3``."""
    if database_url:
        return database_url
    return sqlite_url(Path(data_dir) / "umpire.sqlite3")


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` with Umpire's connection settings."""
    if is_sqlite(url):
        path = make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(
            url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kwargs
        )
        _sqlite_pragmas(engine)
        _text_guard(engine)
        return engine
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 20)
    engine = create_async_engine(url, **kwargs)
    _ping_when_idle(engine)
    _text_guard(engine)
    return engine


# A pooled PostgreSQL connection idle this long is pinged before it is handed out.
IDLE_PING_S = 5.0


def _ping_when_idle(engine: AsyncEngine) -> None:
    """``pool_pre_ping``, but only for a connection that sat idle in the pool for
    ``IDLE_PING_S`` or more: a connection the server dropped meanwhile (a restart, an idle
    timeout) is replaced before a transaction starts on it, while a busy process, whose
    connections come back within milliseconds, does not pay a round trip to the server for
    every transaction (issue 18: two of an order's ten round trips)."""
    pool = engine.sync_engine.pool
    dialect = engine.sync_engine.dialect

    @event.listens_for(pool, "checkin")
    def _checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["umpire_idle_since"] = time.monotonic()

    @event.listens_for(pool, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("umpire_idle_since")
        if since is None or time.monotonic() - since < IDLE_PING_S:
            return
        try:
            alive = dialect.do_ping(dbapi_connection)
        except Exception:
            alive = False
        if not alive:
            # The pool drops this connection and hands out another (a new one if need be).
            raise DisconnectionError("the connection was dropped while idle")


# A NUL escaped inside JSON text (an odd number of backslashes before "u0000").
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")


def _unstorable(params: Any, depth: int = 0) -> str | None:
    """The first character in a statement's parameters that storage cannot hold, named."""
    if isinstance(params, str):
        c = bad_char(params)
        if c is not None:
            return char_name(c)
        return "NUL" if "\\u0000" in params and _JSON_NUL.search(params) else None
    if depth > 3:
        return None
    values: Iterable[Any] = ()
    if isinstance(params, dict):
        values = params.values()
    elif isinstance(params, list | tuple):
        values = params
    for v in values:
        found = _unstorable(v, depth + 1)
        if found is not None:
            return found
    return None


def _text_guard(engine: AsyncEngine) -> None:
    """The last gate (issue 12): a statement whose text parameters hold a NUL or another
    control character is refused before it reaches the database, inside its transaction,
    so nothing of that transaction is written. The service refuses such texts at its entry
    points (``service.guard``); this catches any path that slips past them."""

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def _check(
        _conn: Any, _cursor: Any, _statement: str, parameters: Any, _context: Any, _many: bool
    ) -> None:
        found = _unstorable(parameters)
        if found is not None:
            kind = "half of a surrogate pair" if found.startswith("U+D") else "a control character"
            raise UnstorableText(refusal("text", f"contains {kind} ({found})"))


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # We emit BEGIN ourselves (below); the driver must not open transactions on its own.
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # synchronous stays FULL: an acknowledged order survives a power cut, not only a crash.
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        immediate = conn.get_execution_options().get("immediate", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


__all__ = ["BUSY_TIMEOUT_MS", "create_engine", "default_url", "is_sqlite", "sqlite_url"]
