"""deadlines: game_deadline, and a unique claim key on deadline

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('game_deadline',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('due_at', sqltypes.UTCDateTime(), nullable=False),
    sa.Column('every', sa.Integer(), nullable=True),
    sa.Column('action', sqltypes.AutoString(length=16), nullable=False),
    sa.Column('paused_at', sqltypes.UTCDateTime(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id')
    )
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.create_unique_constraint('uq_deadline_claim', ['game_id', 'kind', 'due_at'])


def downgrade() -> None:
    with op.batch_alter_table('deadline', schema=None) as batch_op:
        batch_op.drop_constraint('uq_deadline_claim', type_='unique')
    op.drop_table('game_deadline')
