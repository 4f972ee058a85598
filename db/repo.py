"""``SqlStore``: the service's ``EventStore`` protocol on SQLite or PostgreSQL (DESIGN §7).

Same semantics as ``service.store.MemoryStore``. Every write is one transaction. A write to a
game first updates its ``game`` row, which serialises writers of one game (a row lock on
PostgreSQL; ``BEGIN IMMEDIATE`` takes the database write lock on SQLite); the writer then checks
that the log has exactly ``expected_seq`` events ending in the head hash the writer read, else
``StateMovedOn`` and nothing is written. Should two appends at the same ``seq`` still meet, the
``event`` primary key ``(game_id, seq)`` refuses the second, which is reported as
``StateMovedOn`` as well. Lobby writes (seats, the start) check seats, sides and status under
the same lock; one game not over per channel is also a unique index (revision 0007).

Reading a log checks its hash chain and the heads published to the players (``CorruptGame``
names the first bad event, or the head the log no longer reaches: a cut end). The state of a long
game is loaded as the latest snapshot plus the tail of the log (``load_state``); a snapshot is
used only if the log's hash at its ``seq`` and its own content hash both match, else it is
ignored and reported. Snapshots are written while loading, every ``snapshot_every`` events
(and by the service as it plays a game it holds). A reader holding a log reads only what follows
its head (``load_after``); the database counts every change or removal of an event row on the
game's row (``log_edits``, triggers of migration 0010), so a change below that head is seen too.
"""

from __future__ import annotations

from db.sql_core import SNAPSHOT_EVERY
from db.sql_games import SqlGames
from db.sql_log import SqlLog
from db.sql_mail import SqlMail
from db.sql_votes import SqlVotes
from db.sql_waits import SqlWaits


class SqlStore(SqlGames, SqlLog, SqlWaits, SqlVotes, SqlMail):
    """An ``EventStore`` in a SQL database (SQLite file or PostgreSQL), shared by processes.

    Its parts, by concern, over ``db.sql_core.SqlCore`` (the connection, its transactions and
    what they all do inside one): games and seats (``db.sql_games``), the log with its heads,
    snapshots and repairs (``db.sql_log``), deadlines, claims and the players' settings
    (``db.sql_waits``), votes, decision menus and edits (``db.sql_votes``), the mails received,
    seats offered by mail, report cursors and secrets kept once (``db.sql_mail``).
    """


async def open_store(url: str, *, snapshot_every: int = SNAPSHOT_EVERY) -> SqlStore:
    """Migrate the database at ``url`` and return a store over it."""
    return await SqlStore.open(url, snapshot_every=snapshot_every)


__all__ = ["SNAPSHOT_EVERY", "SqlStore", "open_store"]
