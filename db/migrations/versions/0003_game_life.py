"""a game's whole life: game.guild (the server) and game_vote (cancel, draw, concede votes)

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('guild', sqltypes.AutoString(length=200), nullable=False, server_default='')
        )
        batch_op.create_index(batch_op.f('ix_game_guild'), ['guild'], unique=False)
    op.create_table('game_vote',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('kind', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('person', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('created_at', sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'kind', 'person')
    )


def downgrade() -> None:
    op.drop_table('game_vote')
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_guild'))
        batch_op.drop_column('guild')
