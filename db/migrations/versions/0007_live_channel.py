"""one game not over per channel: a partial unique index on game.channel

Revision ID: 0007
Revises: 0006

Racing ``game new`` could make several games in one channel (issue 12). The service shows the
newest of them (``GameService.game_in``); older ones could not be reached through the channel.
Before the index is created, every such older game is cancelled, so the upgrade never fails.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = "status NOT IN ('finished', 'cancelled')"


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        f"SELECT id, channel FROM game WHERE {LIVE} ORDER BY channel, created_at DESC, id DESC"
    )).all()
    seen: set[str] = set()
    for game_id, channel in rows:
        if channel in seen:
            conn.execute(sa.text("UPDATE game SET status = 'cancelled' WHERE id = :id"),
                         {"id": game_id})
        seen.add(channel)
    op.create_index(
        'uq_game_live_channel', 'game', ['channel'], unique=True,
        sqlite_where=sa.text(LIVE), postgresql_where=sa.text(LIVE),
    )


def downgrade() -> None:
    op.drop_index('uq_game_live_channel', table_name='game')
