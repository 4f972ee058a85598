"""edit proposals: game-master edits waiting for the other side's consent

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('edit_proposal',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('proposer', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('text', sqltypes.AutoString(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('status', sqltypes.AutoString(length=16), nullable=False),
    sa.Column('decided_by', sqltypes.AutoString(length=200), nullable=True),
    sa.Column('created_at', sqltypes.UTCDateTime(), nullable=False),
    sa.Column('decided_at', sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'number')
    )


def downgrade() -> None:
    op.drop_table('edit_proposal')
