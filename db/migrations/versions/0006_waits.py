"""waits: claims of announcements, notification settings, vacations, the wait a deadline is for

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('claim',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('key', sqltypes.AutoString(length=400), nullable=False),
    sa.Column('claimed_by', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('claimed_at', sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'key')
    )
    op.create_table('notify_pref',
    sa.Column('person', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('how', sqltypes.AutoString(length=16), nullable=False),
    sa.Column('quiet_from', sa.Integer(), nullable=True),
    sa.Column('quiet_to', sa.Integer(), nullable=True),
    sa.Column('tz', sqltypes.AutoString(length=64), nullable=False),
    sa.PrimaryKeyConstraint('person', 'game_id')
    )
    op.create_table('vacation',
    sa.Column('person', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('starts_at', sqltypes.UTCDateTime(), nullable=False),
    sa.Column('ends_at', sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('person')
    )
    with op.batch_alter_table('game_deadline', schema=None) as batch_op:
        batch_op.add_column(sa.Column(
            'armed_for', sqltypes.AutoString(length=64), nullable=False, server_default=''
        ))


def downgrade() -> None:
    with op.batch_alter_table('game_deadline', schema=None) as batch_op:
        batch_op.drop_column('armed_for')
    op.drop_table('vacation')
    op.drop_table('notify_pref')
    op.drop_table('claim')
