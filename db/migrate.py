"""Run the Alembic migrations programmatically (at start-up, and in tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

from db.engine import create_engine

ALEMBIC_INI = Path(__file__).with_name("alembic.ini")


def alembic_config(url: str = "") -> Config:
    cfg = Config(str(ALEMBIC_INI))
    cfg.set_main_option("script_location", str(ALEMBIC_INI.with_name("migrations")))
    if url:
        cfg.cmd_opts = None
        cfg.attributes["url"] = url
    return cfg


async def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision`` (creates the schema in an empty one)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            # A write lock from the start on SQLite, so two processes starting at once queue.
            conn = await conn.execution_options(immediate=True)

            def run(sync_conn: Connection) -> None:
                cfg = alembic_config(url)
                cfg.attributes["connection"] = sync_conn
                command.upgrade(cfg, revision)

            await conn.run_sync(run)
            await conn.commit()
    finally:
        await engine.dispose()


__all__ = ["ALEMBIC_INI", "alembic_config", "upgrade"]
