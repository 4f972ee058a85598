"""chain: a snapshot's content hash; the log heads published to the players

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('published_head',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('hash', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('published_at', sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'seq')
    )
    # Snapshots are a cache: the ones written before have no content hash and are dropped.
    op.execute('DELETE FROM snapshot')
    with op.batch_alter_table('snapshot', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'state_hash', sqltypes.AutoString(length=64), nullable=False, server_default=''
        ))


def downgrade() -> None:
    with op.batch_alter_table('snapshot', schema=None) as batch_op:
        batch_op.drop_column('state_hash')
    op.drop_table('published_head')
