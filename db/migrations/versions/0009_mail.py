"""mail: the mails received (once per Message-ID), seats offered by mail, report cursors

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql import sqltypes

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('mail_seen',
    sa.Column('key', sqltypes.AutoString(length=300), nullable=False),
    sa.Column('address', sqltypes.AutoString(length=320), nullable=False),
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('at', sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_index('ix_mail_seen_address_at', 'mail_seen', ['address', 'at'], unique=False)
    op.create_table('mail_offer',
    sa.Column('code', sqltypes.AutoString(length=200), nullable=False),
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('power', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('address', sqltypes.AutoString(length=320), nullable=False),
    sa.Column('created_at', sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('code'),
    sa.UniqueConstraint('game_id', 'power', 'address', name='uq_mail_offer_seat')
    )
    op.create_table('report_cursor',
    sa.Column('game_id', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('reader', sqltypes.AutoString(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], ),
    sa.PrimaryKeyConstraint('game_id', 'reader')
    )


def downgrade() -> None:
    op.drop_table('report_cursor')
    op.drop_table('mail_offer')
    op.drop_index('ix_mail_seen_address_at', table_name='mail_seen')
    op.drop_table('mail_seen')
