"""Alembic migrations bring an empty database to exactly the models' schema."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from db.engine import create_engine, sqlite_url
from db.migrate import upgrade
from db.models import metadata
from tests.db.conftest import empty_pg_database


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "empty.sqlite3")
    else:
        yield from empty_pg_database()


def _head() -> str | None:
    """The newest revision of db/migrations (each new revision moves it)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    here = Path(__file__).resolve().parents[2] / "db"
    cfg = Config(str(here / "alembic.ini"))
    cfg.set_main_option("script_location", str(here / "migrations"))
    return ScriptDirectory.from_config(cfg).get_current_head()


async def test_upgrade_empty_database_matches_models(empty_url: str) -> None:
    await upgrade(empty_url)
    await upgrade(empty_url)  # a second start-up finds nothing to do
    engine = create_engine(empty_url)
    try:
        async with engine.connect() as conn:

            def diff(sync_conn: Any) -> tuple[list[Any], set[str], str | None]:
                ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
                tables = set(inspect(sync_conn).get_table_names())
                return compare_metadata(ctx, metadata), tables, ctx.get_current_revision()

            changes, tables, rev = await conn.run_sync(diff)
    finally:
        await engine.dispose()
    assert changes == []
    assert {"game", "seat", "event", "game_order", "snapshot", "secret", "deadline", "game_deadline", "game_vote"} <= tables
    assert "decision_menu" in tables
    assert "edit_proposal" in tables
    assert rev == _head()
    assert {
        "game", "seat", "event", "game_order", "snapshot", "secret", "deadline", "game_deadline",
        "claim", "notify_pref", "vacation",
    } <= tables
