"""Real databases for the db tests: a SQLite file per test, and one throwaway PostgreSQL
database per test process (``umpire_test_<pid>``, dropped at the end).

PostgreSQL is found at ``UMPIRE_TEST_PG`` (an admin URL, default
``postgresql://postgres@127.0.0.1:5432/postgres``, trust auth). When it cannot be reached the
PostgreSQL cases are skipped with a message, unless the ``CI`` variable is set: then they fail.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from db.engine import create_engine, sqlite_url
from db.migrate import upgrade
from db.repo import SqlStore
from service.games import GameService

PG_ADMIN = os.environ.get("UMPIRE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def _unreachable(why: str) -> None:
    msg = f"PostgreSQL not reachable at {PG_ADMIN} ({why})"
    if os.environ.get("CI"):
        pytest.fail(f"{msg}; CI is set, so the PostgreSQL tests must run.")
    pytest.skip(f"{msg}; skipped because CI is not set (set UMPIRE_TEST_PG to point elsewhere).")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A migrated, empty PostgreSQL database for this test process."""
    name = f"umpire_test_{os.getpid()}"
    try:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}"'))
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, Exception) as e:  # asyncpg raises its own errors for auth and the like
        _unreachable(f"{type(e).__name__}: {e}")
    url = make_url(PG_ADMIN).set(drivername="postgresql+asyncpg", database=name)
    text = url.render_as_string(hide_password=False)
    asyncio.run(upgrade(text))
    yield text
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def empty_pg_database() -> Iterator[str]:
    """An empty (not migrated) PostgreSQL database, dropped afterwards."""
    name = f"umpire_empty_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, Exception) as e:
        _unreachable(f"{type(e).__name__}: {e}")
    url = make_url(PG_ADMIN).set(drivername="postgresql+asyncpg", database=name)
    yield url.render_as_string(hide_password=False)
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a migrated database of the parametrised backend."""
    if request.param == "sqlite":
        url = sqlite_url(tmp_path / "umpire.sqlite3")
        return url
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[SqlStore]:
    if db_url.startswith("sqlite"):
        await upgrade(db_url)
    s = SqlStore(create_engine(db_url))
    yield s
    await s.close()


def channel() -> str:
    """A channel name no other test uses (the PostgreSQL database is shared by the session)."""
    return f"chan-{uuid.uuid4().hex[:10]}"


async def seated_game(svc: GameService, chan: str, **kw: Any) -> str:
    """A started 1941 game: alice holds the Axis, bob the Allies."""
    info = await svc.create(chan, "alice", "1941", **kw)
    for p in AXIS:
        assert (await svc.join(info.id, "alice", p)).ok
    for p in ALLIES:
        assert (await svc.join(info.id, "bob", p)).ok
    r = await svc.start(info.id, "alice")
    assert r.ok, r.error
    return info.id


async def play_ends(svc: GameService, game: str, n: int) -> None:
    """``n`` orders of 'end confirm' by whoever's turn it is (no dice, no battles)."""
    for _ in range(n):
        state = await svc.state(game)
        person = "alice" if state.power in AXIS else "bob"
        r = await svc.submit(game, person, "end confirm")
        assert r.ok, r.error
