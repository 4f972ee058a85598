"""The core of ``SqlStore`` (``db/repo.py``): the connection, its transactions, the game row's lock,
and what every part of the store reads or writes inside a transaction (game records, statuses,
seats, appending to and cutting the log, reading the log with its hash chain checked).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Self

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from db.engine import _unstorable, create_engine
from db.migrate import upgrade
from db.models import EVENT, GAME, ORDER, PUBLISHED_HEAD, SEAT, SNAPSHOT, utcnow
from db.records import (
    CorruptGame,
    DiceSpec,
    GameNotFound,
    GameRecord,
    GameStatus,
    OrderRecord,
    StateMovedOn,
    UnstorableText,
    status_moved,
)
from rules import events as ev
from rules.text import refusal

SNAPSHOT_EVERY = 200


def canonical_json(obj: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8 (the same bytes as ``service.fair.canonical_json``)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def next_hash(prev: str, payload: Mapping[str, Any]) -> str:
    """``hash_n = sha256(hash_{n-1} ‖ canonical_json(event_n))``, hex."""
    return hashlib.sha256(prev.encode("utf-8") + canonical_json(payload)).hexdigest()


def _moved_on(have: int, expected: int, what: str) -> StateMovedOn:
    return StateMovedOn(
        f"The game moved on (event {have}, expected {expected}); nothing was {what}. "
        "Look at the game again and give the order anew."
        if what == "written"
        else f"The game moved on (event {have}, expected {expected}); nothing was {what}."
    )


def _dice_json(d: DiceSpec) -> dict[str, Any]:
    return {
        "kind": d.kind,
        "faces": list(d.faces),
        "commitment": d.commitment,
        "chain_length": d.chain_length,
        "master": d.master,
    }


def _dice_of(d: Mapping[str, Any]) -> DiceSpec:
    return DiceSpec(
        kind=d["kind"],
        faces=tuple(int(f) for f in d.get("faces", ())),
        commitment=str(d.get("commitment", "")),
        chain_length=int(d.get("chain_length", 0)),
        master=str(d.get("master", "")),
    )


# The statements of an order's read and write, built once (issue 18): a statement built per call
# costs its construction and its cache key every time; these are compiled once per dialect and
# only their parameters (``g``: the game's id) change.
def _game_param() -> Any:
    return sa.bindparam("g", type_=GAME.c.id.type)


def _last_of(column: Any) -> Any:
    """The log's last event's ``column`` (NULL when the log is empty)."""
    return (sa.select(column).where(EVENT.c.game_id == _game_param())
            .order_by(EVENT.c.seq.desc()).limit(1).scalar_subquery())


# Lock the game's row for an order (bump ``next_order``) and read the head and ``log_edits``.
TOUCH_AT = (
    GAME.update()
    .where(GAME.c.id == _game_param())
    .values(updated_at=sa.bindparam("now", type_=GAME.c.updated_at.type),
            next_order=GAME.c.next_order + 1)
    .returning(GAME.c.next_order, GAME.c.log_edits, _last_of(EVENT.c.seq),
               _last_of(EVENT.c.hash))
)
# The record, its seats (one row each, or one row of NULLs), ``log_edits`` and the head.
PROBE = (
    sa.select(
        GAME,
        SEAT.c.power.label("seat_power"),
        SEAT.c.person.label("seat_person"),
        SEAT.c.entropy.label("seat_entropy"),
        _last_of(EVENT.c.seq).label("last_seq"),
        _last_of(EVENT.c.hash).label("last_hash"),
    )
    .select_from(GAME.outerjoin(SEAT, SEAT.c.game_id == GAME.c.id))
    .where(GAME.c.id == _game_param())
)
INSERT_EVENTS = EVENT.insert()
INSERT_ORDER = ORDER.insert()
# Record a head as published unless that head is recorded already.
PUBLISH_ONCE = PUBLISHED_HEAD.insert().from_select(
    ["game_id", "seq", "hash", "published_at"],
    sa.select(
        _game_param(),
        sa.bindparam("s", type_=PUBLISHED_HEAD.c.seq.type),
        sa.bindparam("h", type_=PUBLISHED_HEAD.c.hash.type),
        sa.bindparam("t", type_=PUBLISHED_HEAD.c.published_at.type),
    ).where(~sa.exists().where(PUBLISHED_HEAD.c.game_id == _game_param(),
                               PUBLISHED_HEAD.c.seq == sa.bindparam("s"))),
)


class Raw:
    """A statement of an order's read or write compiled once for PostgreSQL, run on asyncpg
    itself (``SqlCore._pg``): the same SQL SQLAlchemy runs, without its execution machinery,
    which costs about five times asyncpg's own CPU a transaction (issue 18)."""

    def __init__(self, stmt: Any, dialect: Any, column_keys: Sequence[str] | None = None) -> None:
        compiled = stmt.compile(dialect=dialect, column_keys=column_keys)
        self.sql: str = compiled.string
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        # The statement's own values (a LIMIT's), beside the parameters each call gives.
        self.fixed: dict[str, Any] = {k: v for k, v in compiled.params.items() if v is not None}

    def args(self, params: Mapping[str, Any]) -> list[Any]:
        """The positional arguments, checked by the text guard as every statement is."""
        found = _unstorable(dict(params))
        if found is not None:
            kind = "half of a surrogate pair" if found.startswith("U+D") else "a control character"
            raise UnstorableText(refusal("text", f"contains {kind} ({found})"))
        return [params[n] if n in params else self.fixed[n] for n in self.names]


def _record_of(r: Any, seats: dict[str, str], phrases: dict[str, str]) -> GameRecord:
    return GameRecord(
        id=r.id,
        edition=r.edition,
        options=tuple(r.options),
        channel=r.channel,
        owner=r.owner,
        status=r.status,
        dice=_dice_of(r.dice),
        seats=seats,
        entropy=phrases,
        position=r.position,
        guild=r.guild,
    )


def _order_of(row: Any) -> OrderRecord:
    return OrderRecord(
        index=row.index,
        person=row.person,
        power=row.power,
        text=row.text,
        first_seq=row.first_seq,
        count=row.count,
        dice_used=row.dice_used,
    )


class SqlCore:
    """The connection and what every part of the store does inside a transaction."""

    def __init__(self, engine: AsyncEngine, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.engine = engine
        self.snapshot_every = snapshot_every
        # SQLite: one write transaction at a time per store, queued here (first come, first
        # served) rather than in SQLite's busy handler, whose waits grow to 100 ms between
        # tries: writers of one process then never sleep past a free lock (issue 18, the p99
        # of 2.2 s). Other processes still meet at BEGIN IMMEDIATE and the busy timeout.
        self._serial = engine.dialect.name == "sqlite"
        # PostgreSQL: an order's read and write run on asyncpg itself (``Raw``).
        self._raw: dict[str, Raw] | None = None
        if engine.dialect.name == "postgresql":
            d = engine.dialect
            self._raw = {"probe": Raw(PROBE, d)}
        self._write_lock: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None

    @classmethod
    async def open(
        cls, url: str, *, migrate: bool = True, snapshot_every: int = SNAPSHOT_EVERY
    ) -> Self:
        """Connect to ``url``, first bringing its schema up to date (``migrate``)."""
        if migrate:
            await upgrade(url)
        return cls(create_engine(url), snapshot_every=snapshot_every)

    async def close(self) -> None:
        await self.engine.dispose()

    # --- transactions ---------------------------------------------------------------------
    def _writer_lock(self) -> asyncio.Lock:
        """This store's lock of SQLite writes, for the running event loop."""
        loop = asyncio.get_running_loop()
        if self._write_lock is None or self._write_lock[0] is not loop:
            self._write_lock = (loop, asyncio.Lock())
        return self._write_lock[1]

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self._serial:
            async with self._writer_lock(), self.engine.connect() as conn:
                conn = await conn.execution_options(immediate=True)
                async with conn.begin():
                    yield conn
            return
        async with self.engine.connect() as conn:
            conn = await conn.execution_options(immediate=True)
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        """A read of several statements that all see one moment of the database: PostgreSQL's
        default (read committed) lets each statement see what committed since the previous
        one, so a log read between an undo and the next order could pair the events before
        with the heads after and look rewritten; repeatable read gives the transaction one
        snapshot (SQLite's WAL read transaction already has one)."""
        async with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = await conn.execution_options(isolation_level="REPEATABLE READ")
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def _read_once(self) -> AsyncIterator[AsyncConnection]:
        """A connection for one statement that reads (it sees one moment by itself): on
        PostgreSQL outside any transaction, so it costs one round trip, not three."""
        async with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
                yield conn
                return
            async with conn.begin():
                yield conn

    @staticmethod
    async def _driver(conn: AsyncConnection) -> Any:
        """The asyncpg connection under ``conn`` (``Raw`` statements run on it)."""
        return (await conn.get_raw_connection()).driver_connection

    async def _touch(self, conn: AsyncConnection, game_id: str, *, order: bool = False) -> int:
        """Lock the game's row for this transaction; its ``next_order`` (bumped if ``order``)."""
        values: dict[str, Any] = {"updated_at": utcnow()}
        if order:
            values["next_order"] = GAME.c.next_order + 1
        row = (
            await conn.execute(
                GAME.update()
                .where(GAME.c.id == game_id)
                .values(**values)
                .returning(GAME.c.next_order)
            )
        ).first()
        if row is None:
            raise GameNotFound(f"No game {game_id!r}.")
        return int(row[0])

    async def _touch_at(
        self, conn: AsyncConnection, game_id: str, expected_seq: int, head: str, edits: int
    ) -> int:
        """``_touch(order=True)`` and the head check of ``_append_in`` in one statement, for a
        writer that read the log when the game's ``log_edits`` was ``edits``: the statement
        that locks the game's row also reads the log's head; ``StateMovedOn`` unless it is
        ``expected_seq`` events ending in ``head`` and no event row was changed or removed
        since (``log_edits``). Their ``next_order``.

        On PostgreSQL the head's subquery sees the statement's snapshot: a writer that
        committed while this one waited for the row lock is not seen there, but the row's own
        columns are read after that writer: a removal of rows shows in ``log_edits``, and an
        append's rows are there for the ``event`` primary key to refuse a second append at the
        same ``seq``."""
        row = (await conn.execute(TOUCH_AT, {"g": game_id, "now": utcnow()})).first()
        if row is None:
            raise GameNotFound(f"No game {game_id!r}.")
        next_order, now, seq, h = row
        have = 0 if seq is None else int(seq) + 1
        if have != expected_seq or (h or game_id) != head or int(now) != edits:
            raise _moved_on(have, expected_seq, "written")
        return int(next_order)

    @staticmethod
    async def _last(conn: AsyncConnection, game_id: str) -> tuple[int, str]:
        """The log's head as stored: its length (the last ``seq`` + 1) and the hash of its last
        event (0 and the game id when empty). One index lookup, whatever the log's length:
        ``count(*)`` reads every row, and an intact log has no gaps (a log with one is refused
        at its load, ``first_bad``)."""
        row = (
            await conn.execute(
                sa.select(EVENT.c.seq, EVENT.c.hash)
                .where(EVENT.c.game_id == game_id)
                .order_by(EVENT.c.seq.desc())
                .limit(1)
            )
        ).first()
        return (0, game_id) if row is None else (int(row.seq) + 1, str(row.hash))

    @classmethod
    async def _count(cls, conn: AsyncConnection, game_id: str) -> int:
        """The log's length (``_last``)."""
        return (await cls._last(conn, game_id))[0]

    @staticmethod
    async def _hash_at(conn: AsyncConnection, game_id: str, seq: int) -> str:
        """The log's hash after ``seq`` events (the game id when ``seq`` is 0)."""
        if seq == 0:
            return game_id
        h = await conn.scalar(
            sa.select(EVENT.c.hash).where(EVENT.c.game_id == game_id, EVENT.c.seq == seq - 1)
        )
        return str(h) if h is not None else game_id

    async def _records(self, conn: AsyncConnection, where: Any) -> list[GameRecord]:
        rows = (
            await conn.execute(
                sa.select(GAME).where(where).order_by(GAME.c.created_at, GAME.c.id)
            )
        ).all()
        if not rows:
            return []
        ids = [r.id for r in rows]
        seats: dict[str, dict[str, str]] = {i: {} for i in ids}
        phrases: dict[str, dict[str, str]] = {i: {} for i in ids}
        for s in await conn.execute(sa.select(SEAT).where(SEAT.c.game_id.in_(ids))):
            seats[s.game_id][s.power] = s.person
            if s.entropy:
                phrases[s.game_id][s.power] = s.entropy
        return [_record_of(r, seats[r.id], phrases[r.id]) for r in rows]

    @staticmethod
    async def _status_in(
        conn: AsyncConnection, game_id: str, statuses: Sequence[GameStatus]
    ) -> None:
        """``StateMovedOn`` unless the (locked) game's status is one of ``statuses``."""
        have = await conn.scalar(sa.select(GAME.c.status).where(GAME.c.id == game_id))
        if have not in statuses:
            raise StateMovedOn(status_moved(str(have), statuses[0]))

    @staticmethod
    async def _seats(conn: AsyncConnection, game_id: str) -> dict[str, tuple[str, str]]:
        """power → (person, entropy) of the game, as the transaction sees them."""
        rows = await conn.execute(
            sa.select(SEAT.c.power, SEAT.c.person, SEAT.c.entropy).where(SEAT.c.game_id == game_id)
        )
        return {r.power: (r.person, r.entropy or "") for r in rows}

    async def _append_in(
        self,
        conn: AsyncConnection,
        game_id: str,
        expected_seq: int,
        events: Sequence[ev.Event],
        *,
        person: str,
        power: str,
        text: str,
        dice_used: int = 0,
        head: str | None = None,
        publish: bool = False,
        edits: int | None = None,
    ) -> OrderRecord:
        """``append`` inside the caller's write transaction (which it locks the game row of);
        ``publish``: the head after the events is recorded as published (``publish_head``);
        ``edits``: the game's ``log_edits`` when the writer read its log, checked with the
        head in the statement that locks the row (``_touch_at``)."""
        bodies = [ev.event_to_json(e) for e in events]
        if edits is not None and head is not None:
            index = await self._touch_at(conn, game_id, expected_seq, head, edits) - 1
            prev = head
        else:
            index = await self._touch(conn, game_id, order=True) - 1
            have, prev = await self._last(conn, game_id)
            if have != expected_seq:
                raise _moved_on(have, expected_seq, "written")
            if head is not None and prev != head:
                raise _moved_on(have, expected_seq, "written")
        rows = []
        for i, body in enumerate(bodies):
            prev = next_hash(prev, body)
            rows.append(
                {
                    "game_id": game_id,
                    "seq": expected_seq + i,
                    "order_index": index,
                    "payload": body,
                    "hash": prev,
                }
            )
        if rows:
            await conn.execute(INSERT_EVENTS, rows)
        end = expected_seq + len(rows)
        if publish:  # unless that head is recorded already: one statement
            await conn.execute(PUBLISH_ONCE, {"g": game_id, "s": end, "h": prev, "t": utcnow()})
        await conn.execute(
            INSERT_ORDER,
            {
                "game_id": game_id,
                "index": index,
                "person": person,
                "power": power,
                "text": text,
                "first_seq": expected_seq,
                "count": len(events),
                "dice_used": dice_used,
                "created_at": utcnow(),
            },
        )
        return OrderRecord(
            index=index,
            person=person,
            power=power,
            text=text,
            first_seq=expected_seq,
            count=len(events),
            dice_used=dice_used,
        )

    async def _raw_events(self, conn: AsyncConnection, game_id: str) -> list[Any]:
        exists = await conn.scalar(sa.select(GAME.c.id).where(GAME.c.id == game_id))
        if exists is None:
            raise GameNotFound(f"No game {game_id!r}.")
        return list(
            (
                await conn.execute(
                    sa.select(EVENT.c.seq, EVENT.c.order_index, EVENT.c.payload, EVENT.c.hash)
                    .where(EVENT.c.game_id == game_id)
                    .order_by(EVENT.c.seq)
                )
            ).all()
        )

    @staticmethod
    def first_bad(game_id: str, rows: Sequence[Any]) -> tuple[int, str] | None:
        """The first row that breaks the chain (its 0-based position) and why, else ``None``."""
        prev = game_id
        for i, r in enumerate(rows):
            if r.seq != i:
                return i, f"sequence number {r.seq} where {i} belongs: a row is missing"
            prev = next_hash(prev, r.payload)
            if r.hash != prev:
                return i, "its content or hash was changed"
        return None

    @staticmethod
    async def _heads(conn: AsyncConnection, game_id: str) -> list[tuple[int, str]]:
        rows = await conn.execute(
            sa.select(PUBLISHED_HEAD.c.seq, PUBLISHED_HEAD.c.hash)
            .where(PUBLISHED_HEAD.c.game_id == game_id)
            .order_by(PUBLISHED_HEAD.c.seq)
        )
        return [(int(r.seq), str(r.hash)) for r in rows]

    @classmethod
    def problem(
        cls, game_id: str, rows: Sequence[Any], heads: Sequence[tuple[int, str]]
    ) -> CorruptGame | None:
        """What is wrong with a stored log, else ``None``: the first row that breaks the hash
        chain, else the first published head (event count, chain hash) the log does not reach
        or reaches with another hash. The log is trusted up to the last head it matches."""
        bad = cls.first_bad(game_id, rows)
        if bad is not None:
            return CorruptGame(game_id, *bad)
        trusted = 0
        for seq, h in heads:
            shown = f"log #{seq} · {h[:8]}"
            if seq > len(rows):
                return CorruptGame(
                    game_id, trusted, "events were removed from the end of the log",
                    what=f"the log ends after event #{len(rows)}, but the referee published "
                    f"{shown} to the players: events were removed from its end",
                )
            have = rows[seq - 1].hash if seq else game_id
            if have != h:
                return CorruptGame(
                    game_id, trusted, "the log was rewritten and its hashes recomputed",
                    what=f"the log's hash after event #{seq} is {have[:8]}, but the referee "
                    f"published {shown} to the players: the log before it was rewritten",
                )
            trusted = seq
        return None

    async def _cut(self, conn: AsyncConnection, game_id: str, seq: int) -> None:
        """Delete events from ``seq`` on, and the snapshots and published heads that include
        any of them."""
        await conn.execute(EVENT.delete().where(EVENT.c.game_id == game_id, EVENT.c.seq >= seq))
        await conn.execute(
            SNAPSHOT.delete().where(SNAPSHOT.c.game_id == game_id, SNAPSHOT.c.seq > seq)
        )
        await conn.execute(
            PUBLISHED_HEAD.delete().where(
                PUBLISHED_HEAD.c.game_id == game_id, PUBLISHED_HEAD.c.seq > seq
            )
        )
