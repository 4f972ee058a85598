"""log edits: a game's count of changed or removed event rows, kept by the database itself

A service holds each game's log and state in memory and reads only the rows after the head it
holds. A row changed or removed below that head (an undo, a repair, or someone editing the
database by hand) would not be seen there; these triggers count every UPDATE and DELETE of an
``event`` row on its game's row, so a reader that finds the count changed reads and checks the
whole log again (``db.sql_log.SqlLog.load_after``).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BUMP = "UPDATE game SET log_edits = log_edits + 1 WHERE id = OLD.game_id"


def upgrade() -> None:
    with op.batch_alter_table('game') as batch:
        batch.add_column(sa.Column('log_edits', sa.Integer(), nullable=False, server_default='0'))
    if op.get_bind().dialect.name == 'postgresql':
        op.execute(
            "CREATE FUNCTION umpire_event_edited() RETURNS trigger AS $$ "
            f"BEGIN {BUMP}; RETURN NULL; END $$ LANGUAGE plpgsql"
        )
        op.execute(
            "CREATE TRIGGER event_edited AFTER UPDATE OR DELETE ON event "
            "FOR EACH ROW EXECUTE FUNCTION umpire_event_edited()"
        )
    else:
        for what in ('UPDATE', 'DELETE'):
            op.execute(
                f"CREATE TRIGGER event_{what.lower()}d AFTER {what} ON event "
                f"BEGIN {BUMP}; END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP TRIGGER event_edited ON event")
        op.execute("DROP FUNCTION umpire_event_edited()")
    else:
        op.execute("DROP TRIGGER event_updated")
        op.execute("DROP TRIGGER event_deleted")
    with op.batch_alter_table('game') as batch:
        batch.drop_column('log_edits')
