"""decision menus: decision_menu (the menus posted in Discord, one per game and decision)

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('decision_menu',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('key', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('channel', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('message_id', sqltypes.AutoString(length=32), nullable=True),
    sa.Column('claimed_by', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('claimed_at', sqltypes.UTCDateTime(), nullable=False),
    sa.Column('closed_at', sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'key')
    )


def downgrade() -> None:
    op.drop_table('decision_menu')
