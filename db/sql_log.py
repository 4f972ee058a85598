"""``SqlStore``'s log (``db/repo.py``): appending orders, loading events with their chain checked,
published heads, undo, snapshots (``load_state``) and repairs of a corrupt log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db import snapshot as snap
from db.engine import _unstorable
from db.models import EVENT, GAME, ORDER, PUBLISHED_HEAD, SNAPSHOT, utcnow
from db.records import (
    CorruptGame,
    GameNotFound,
    GameRecord,
    GameStatus,
    OrderRecord,
    StateMovedOn,
    StoredEvent,
    StoreError,
    UnstorableText,
    undo_moved,
)
from db.sql_core import PROBE, SqlCore, _moved_on, _order_of, _record_of, next_hash
from rules import codec
from rules import events as ev
from rules.engine import evolve, replay
from rules.state import GameState
from rules.text import refusal

log = logging.getLogger(__name__)


# An order's append on PostgreSQL in one statement (``SqlLog._append_raw``): the game's row
# is locked and updated (the order's index, and a won game's status) only if the log's head and
# ``log_edits`` are the ones the writer read; the events, the head published (unless recorded)
# and the order are inserted from that update's row, so with it or not at all. Should a writer
# that committed while this one waited for the row lock not be seen by the head's subqueries
# (they read the statement's snapshot), its rows are: the event primary key refuses the second
# append at a seq, and a removal shows in ``log_edits``, read from the row as updated.
APPEND_PG = """
WITH locked AS (
    UPDATE game SET updated_at = $2, next_order = next_order + 1,
                    status = coalesce($17::varchar, status)
    WHERE id = $1 AND log_edits = $3
      AND (SELECT seq FROM event WHERE game_id = $1 ORDER BY seq DESC LIMIT 1)
          IS NOT DISTINCT FROM $4::integer
      AND coalesce((SELECT hash FROM event WHERE game_id = $1 ORDER BY seq DESC LIMIT 1),
                   $1) = $5
    RETURNING next_order - 1 AS idx
), added AS (
    INSERT INTO event (game_id, seq, order_index, payload, hash)
    SELECT $1, r.seq, locked.idx, r.payload::json, r.hash
    FROM locked, unnest($6::integer[], $7::text[], $8::varchar[]) AS r(seq, payload, hash)
), shown AS (
    INSERT INTO published_head (game_id, seq, hash, published_at)
    SELECT $1, $10, $11, $2 FROM locked
    WHERE $9 AND NOT EXISTS (
        SELECT 1 FROM published_head WHERE game_id = $1 AND seq = $10)
), placed AS (
    INSERT INTO game_order (game_id, index, person, power, text, first_seq, count, dice_used,
                            created_at)
    SELECT $1, locked.idx, $12, $13, $14, $18, $15, $16, $2 FROM locked
)
SELECT idx FROM locked
"""


class SqlLog(SqlCore):
    """``SqlStore``'s log."""

    # --- the log ------------------------------------------------------------------------
    async def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[ev.Event],
        *,
        person: str,
        power: str,
        text: str,
        dice_used: int = 0,
        head: str | None = None,
        status: GameStatus | None = None,
        publish: bool = False,
        edits: int | None = None,
    ) -> OrderRecord:
        """``EventStore.append``; ``edits``: the game's ``log_edits`` when the writer read the
        log (``log_edits``, ``load_after``): ``StateMovedOn`` as well if an event row was
        changed or removed since, checked with the head in one statement (``_touch_at``)."""
        if self._raw is not None and edits is not None and head is not None:
            return await self._append_raw(
                game_id, expected_seq, events, person=person, power=power, text=text,
                dice_used=dice_used, head=head, status=status, publish=publish, edits=edits)
        try:
            async with self._write() as conn:
                placed = await self._append_in(
                    conn, game_id, expected_seq, events, person=person, power=power, text=text,
                    dice_used=dice_used, head=head, publish=publish, edits=edits)
                if status is not None:
                    await conn.execute(
                        GAME.update().where(GAME.c.id == game_id).values(status=status)
                    )
                return placed
        except IntegrityError:
            # Another writer appended at this seq first (the (game_id, seq) primary key).
            async with self._read() as conn:
                have = await self._count(conn, game_id)
            raise _moved_on(have, expected_seq, "written") from None

    async def _append_raw(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[ev.Event],
        *,
        person: str,
        power: str,
        text: str,
        dice_used: int,
        head: str,
        status: GameStatus | None,
        publish: bool,
        edits: int,
    ) -> OrderRecord:
        """``append`` on PostgreSQL for a writer that names the ``log_edits`` it read under,
        as one statement on asyncpg itself (``APPEND_PG``): one round trip to the server, and
        a statement is a transaction of its own. The game's row is updated only if the log
        still ends at ``expected_seq`` events in ``head`` and ``log_edits`` is ``edits`` (the
        checks of ``_touch_at``), and the rows are inserted only with it; else nothing is
        written and the append is refused as 'moved on'."""
        import asyncpg

        seqs, payloads, hashes = [], [], []
        prev = head
        for i, e in enumerate(events):
            body = ev.event_to_json(e)
            prev = next_hash(prev, body)
            seqs.append(expected_seq + i)
            payloads.append(json.dumps(body))
            hashes.append(prev)
        now = utcnow()
        args = [game_id, now, edits, expected_seq - 1 if expected_seq else None, head, seqs,
                payloads, hashes, publish, expected_seq + len(events), prev, person, power, text,
                len(events), dice_used, status, expected_seq]
        found = _unstorable(args)
        if found is not None:
            kind = "half of a surrogate pair" if found.startswith("U+D") else "a control character"
            raise UnstorableText(refusal("text", f"contains {kind} ({found})"))
        try:
            async with self._write() as conn:
                index = await (await self._driver(conn)).fetchval(APPEND_PG, *args)
        except asyncpg.UniqueViolationError:
            index = None  # another writer appended at this seq first (the event primary key)
        if index is None:
            async with self._read() as conn:
                if await conn.scalar(sa.select(GAME.c.id).where(GAME.c.id == game_id)) is None:
                    raise GameNotFound(f"No game {game_id!r}.")
                have = await self._count(conn, game_id)
            raise _moved_on(have, expected_seq, "written")
        return OrderRecord(index=int(index), person=person, power=power, text=text,
                           first_seq=expected_seq, count=len(events), dice_used=dice_used)

    async def load_events(self, game_id: str) -> list[StoredEvent]:
        """The log, checked: ``CorruptGame`` names the first event that breaks the hash chain,
        or the published head (``publish_head``) the log no longer reaches."""
        async with self._read() as conn:
            rows = await self._raw_events(conn, game_id)
            heads = await self._heads(conn, game_id)
        bad = self.problem(game_id, rows, heads)
        if bad is not None:
            raise bad
        out: list[StoredEvent] = []
        for r in rows:
            try:
                event = ev.event_from_json(dict(r.payload))
            except Exception as e:  # hashes hold but the payload is unreadable
                raise CorruptGame(game_id, r.seq, f"unreadable event: {e}") from None
            out.append(StoredEvent(seq=r.seq, order=r.order_index, event=event, hash=r.hash))
        return out

    async def head(self, game_id: str) -> tuple[int, str]:
        """The log's head as stored (event count, chain hash): one index lookup."""
        async with self._read() as conn:
            return await self._last(conn, game_id)

    async def log_edits(self, game_id: str) -> int:
        """How many of the game's event rows were ever changed or removed (an undo, a repair,
        a hand edit): counted by the database's triggers (migration 0010). Read it before
        reading the log it stands for."""
        async with self._read() as conn:
            n = await conn.scalar(sa.select(GAME.c.log_edits).where(GAME.c.id == game_id))
        if n is None:
            raise GameNotFound(f"No game {game_id!r}.")
        return int(n)

    async def load_after(
        self, game_id: str, seq: int, hash: str, edits: int
    ) -> tuple[GameRecord, list[StoredEvent]] | None:
        """The game's record and the events after its first ``seq``, for a reader that holds
        the log up to there, ending in ``hash``, checked when ``log_edits`` was ``edits``: one
        read of the rows from event ``seq`` on, whatever the log's length. The tail's chain is
        checked from ``hash``, and every head published beyond ``seq``. ``None`` when the stored
        log may not continue the one held (a row changed or removed since: an undo, a repair,
        an edit; the hash at ``seq`` differs; the log is shorter), or the tail fails a check:
        the caller loads the whole log, whose checks say what is wrong (``load_events``).

        Most often nothing follows: one statement then reads the record, its seats, the log's
        head and ``log_edits`` (``_probe``), and the rest is read only when the head moved."""
        probed = await self._probe(game_id)
        if probed is None:
            raise GameNotFound(f"No game {game_id!r}.")
        record, edits_now, last = probed
        if edits_now != edits:
            return None
        if last == (seq, hash):
            return record, []
        async with self._read() as conn:
            found = await self._records(conn, GAME.c.id == game_id)
            if not found:
                raise GameNotFound(f"No game {game_id!r}.")
            now = await conn.scalar(sa.select(GAME.c.log_edits).where(GAME.c.id == game_id))
            if now != edits:
                return None
            rows = (
                await conn.execute(
                    sa.select(EVENT.c.seq, EVENT.c.order_index, EVENT.c.payload, EVENT.c.hash)
                    .where(EVENT.c.game_id == game_id, EVENT.c.seq >= seq - 1)
                    .order_by(EVENT.c.seq)
                )
            ).all()
            heads = [
                (int(r.seq), str(r.hash))
                for r in await conn.execute(
                    sa.select(PUBLISHED_HEAD.c.seq, PUBLISHED_HEAD.c.hash).where(
                        PUBLISHED_HEAD.c.game_id == game_id, PUBLISHED_HEAD.c.seq > seq
                    )
                )
            ]
        if seq > 0:
            if not rows or rows[0].seq != seq - 1 or rows[0].hash != hash:
                return None
            rows = rows[1:]
        prev = hash
        hashes: dict[int, str] = {seq: hash}
        out: list[StoredEvent] = []
        for i, r in enumerate(rows, start=seq):
            if r.seq != i:
                return None
            prev = next_hash(prev, r.payload)
            if r.hash != prev:
                return None
            hashes[i + 1] = prev
            try:
                event = ev.event_from_json(dict(r.payload))
            except Exception:
                return None
            out.append(StoredEvent(seq=r.seq, order=r.order_index, event=event, hash=r.hash))
        if any(hashes.get(s) != h for s, h in heads):
            return None
        return found[0], out

    async def _probe(self, game_id: str) -> tuple[GameRecord, int, tuple[int, str]] | None:
        """The game's record with its seats, its ``log_edits`` and its log's head (event
        count, chain hash), in one statement (one moment of the database); None if there is
        no such game. On PostgreSQL outside a transaction: one round trip."""
        rows: Sequence[Any]
        if self._raw is not None:
            async with self.engine.connect() as conn:
                pg = await self._driver(conn)
                probe = self._raw["probe"]
                rows = [SimpleNamespace(**dict(r))
                        for r in await pg.fetch(probe.sql, *probe.args({"g": game_id}))]
        else:
            async with self._read_once() as conn:
                rows = (await conn.execute(PROBE, {"g": game_id})).all()
        if not rows:
            return None
        seats: dict[str, str] = {}
        phrases: dict[str, str] = {}
        for r in rows:
            if r.seat_power is not None:
                seats[r.seat_power] = r.seat_person
                if r.seat_entropy:
                    phrases[r.seat_power] = r.seat_entropy
        r = rows[0]
        head = (0, game_id) if r.last_seq is None else (int(r.last_seq) + 1, str(r.last_hash))
        return _record_of(r, seats, phrases), int(r.log_edits), head

    # --- published heads -------------------------------------------------------------------
    async def hash_at(self, game_id: str, seq: int) -> str:
        """The log's hash after ``seq`` events, as stored (the game id when ``seq`` is 0)."""
        async with self._read() as conn:
            return await self._hash_at(conn, game_id, seq)

    async def publish_head(self, game_id: str, seq: int, hash: str) -> None:
        """Record that the log's head (``seq`` events, chain hash ``hash``) was shown to the
        players, if the log still holds it (else the log moved on since, e.g. by an undo, and
        nothing is recorded). The first record of a ``seq`` stays; an undo or a repair removes
        the heads beyond the events it drops."""
        try:
            async with self._write() as conn:
                # Under the game row's lock, as undo and repair: a head read before an undo
                # that has since removed its events is not recorded (it would read as a cut).
                await conn.execute(
                    sa.select(GAME.c.id).where(GAME.c.id == game_id).with_for_update()
                )
                if await self._count(conn, game_id) < seq:
                    return
                if await self._hash_at(conn, game_id, seq) != hash:
                    return
                found = await conn.scalar(
                    sa.select(PUBLISHED_HEAD.c.hash).where(
                        PUBLISHED_HEAD.c.game_id == game_id, PUBLISHED_HEAD.c.seq == seq
                    )
                )
                if found is None:
                    await conn.execute(
                        PUBLISHED_HEAD.insert().values(
                            game_id=game_id, seq=seq, hash=hash, published_at=utcnow()
                        )
                    )
        except IntegrityError:
            pass  # another process published the same head at the same moment

    async def published_heads(self, game_id: str) -> list[tuple[int, str]]:
        """Every head published for the game, as (event count, chain hash), oldest first."""
        async with self._read() as conn:
            return await self._heads(conn, game_id)

    async def orders(self, game_id: str) -> list[OrderRecord]:
        async with self._read() as conn:
            rows = (
                await conn.execute(
                    sa.select(ORDER).where(ORDER.c.game_id == game_id).order_by(ORDER.c.index)
                )
            ).all()
        return [_order_of(r) for r in rows]

    async def last_order(self, game_id: str) -> OrderRecord | None:
        async with self._read() as conn:
            row = (
                await conn.execute(
                    sa.select(ORDER)
                    .where(ORDER.c.game_id == game_id)
                    .order_by(ORDER.c.index.desc())
                    .limit(1)
                )
            ).first()
        return _order_of(row) if row is not None else None

    async def drop_last_order(self, game_id: str, last: OrderRecord, head: str) -> OrderRecord:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            have = await self._count(conn, game_id)
            if have != last.end_seq or await self._hash_at(conn, game_id, have) != head:
                raise StateMovedOn(undo_moved(have, last.end_seq))
            row = (
                await conn.execute(
                    sa.select(ORDER)
                    .where(ORDER.c.game_id == game_id)
                    .order_by(ORDER.c.index.desc())
                    .limit(1)
                )
            ).first()
            if row is None or _order_of(row) != last:
                raise StateMovedOn(undo_moved(have, last.end_seq))
            await self._cut(conn, game_id, last.first_seq)
            await conn.execute(
                ORDER.delete().where(ORDER.c.game_id == game_id, ORDER.c.index == last.index)
            )
        return last

    # --- snapshots ----------------------------------------------------------------------
    @staticmethod
    def snapshot_problem(row: Any, chain_hash: str | None) -> str | None:
        """Why a snapshot row may not be used (``chain_hash``: the log's hash at its ``seq``,
        ``None`` if the log is shorter), else ``None``."""
        if chain_hash is None:
            return "the log no longer reaches it"
        if row.hash != chain_hash:
            return "the log's hash at that event differs: it follows another log"
        if not row.state_hash or snap.content_hash(dict(row.state)) != row.state_hash:
            return "its content does not match its hash: the snapshot was edited"
        return None

    async def _snapshot_rows(
        self, conn: AsyncConnection, game_id: str, upto: int
    ) -> list[tuple[Any, str | None]]:
        """The game's snapshots within the first ``upto`` events, newest first, each with the
        log's hash at its ``seq``."""
        rows = (
            await conn.execute(
                sa.select(SNAPSHOT.c.seq, SNAPSHOT.c.hash, SNAPSHOT.c.state, SNAPSHOT.c.state_hash)
                .where(SNAPSHOT.c.game_id == game_id, SNAPSHOT.c.seq <= upto)
                .order_by(SNAPSHOT.c.seq.desc())
            )
        ).all()
        out: list[tuple[Any, str | None]] = []
        for r in rows:
            if r.seq == 0:
                out.append((r, game_id))
                continue
            h = await conn.scalar(
                sa.select(EVENT.c.hash).where(EVENT.c.game_id == game_id, EVENT.c.seq == r.seq - 1)
            )
            out.append((r, str(h) if h is not None else None))
        return out

    async def snapshot_problems(self, game_id: str) -> list[tuple[int, str]]:
        """Every snapshot of the game that would be ignored, as (its ``seq``, why): they are
        never used (the state is replayed from the log instead); ``game check`` lists them and
        ``game repair`` drops them."""
        async with self._read() as conn:
            found = await self._snapshot_rows(conn, game_id, 2**31 - 1)
        out = []
        for row, chain in found:
            why = self.snapshot_problem(row, chain)
            if why is not None:
                out.append((int(row.seq), why))
        return sorted(out)

    async def drop_snapshots(self, game_id: str, seqs: Sequence[int]) -> None:
        """Delete these snapshots (ignored ones, on the owner's repair)."""
        async with self._write() as conn:
            await conn.execute(
                SNAPSHOT.delete().where(SNAPSHOT.c.game_id == game_id, SNAPSHOT.c.seq.in_(seqs))
            )

    async def load_state(
        self, game_id: str, events: Sequence[StoredEvent] | None = None
    ) -> GameState | None:
        """The state after ``events`` (default: the stored log): the latest snapshot within
        them that checks (the log's hash at its ``seq`` and its own content hash both match)
        plus the tail. A snapshot that does not check is ignored and logged as a warning (and
        listed by ``snapshot_problems``). Writes a new snapshot when the tail is
        ``snapshot_every`` events or more."""
        if events is None:
            events = await self.load_events(game_id)
        if not events:
            return None
        n = len(events)
        async with self._read() as conn:
            found = await self._snapshot_rows(conn, game_id, n)
        state: GameState | None = None
        start = 0
        for row, chain in found:
            why = self.snapshot_problem(row, chain)
            if why is None:
                try:
                    state = codec.state_from_json(dict(row.state))
                except codec.CodecError as e:
                    log.info("snapshot %s@%s not readable (%s); replaying", game_id, row.seq, e)
                    continue
                start = int(row.seq)
                break
            log.warning(
                "game %s: snapshot after event #%s ignored (%s); replaying from the log",
                game_id, row.seq, why,
            )
        if state is None:
            state = replay([s.event for s in events])
        else:
            for s in events[start:]:
                state = evolve(state, s.event)
        if self.snapshot_every > 0 and n - start >= self.snapshot_every:
            await self.save_snapshot(game_id, n, state)
        return state

    async def save_snapshot(self, game_id: str, seq: int, state: GameState) -> None:
        """Keep ``state`` as the state after ``seq`` events, with the log's hash there and its
        own content hash (ignored if the log moved on)."""
        doc = codec.state_to_json(state)
        try:
            async with self._write() as conn:
                if await self._count(conn, game_id) < seq:
                    return
                h = await self._hash_at(conn, game_id, seq)
                where = sa.and_(SNAPSHOT.c.game_id == game_id, SNAPSHOT.c.seq == seq)
                await conn.execute(SNAPSHOT.delete().where(where))
                await conn.execute(
                    SNAPSHOT.insert().values(
                        game_id=game_id, seq=seq, hash=h, state=doc,
                        state_hash=snap.content_hash(doc),
                    )
                )
        except IntegrityError:
            pass  # another process wrote the same snapshot

    # --- repair (GameService.resolve_corruption) ------------------------------------------
    async def _problem_in(self, conn: AsyncConnection, game_id: str) -> CorruptGame | None:
        rows = await self._raw_events(conn, game_id)
        return self.problem(game_id, rows, await self._heads(conn, game_id))

    async def check(self, game_id: str) -> tuple[int, str] | None:
        """The first event the log cannot be trusted from and why (a break of the hash chain,
        or a published head it does not reach), or ``None`` if the log holds."""
        async with self._read() as conn:
            bad = await self._problem_in(conn, game_id)
        return None if bad is None else (bad.seq, bad.why)

    async def unchecked_events(self, game_id: str) -> list[StoredEvent]:
        """The stored events without the hash check (to see whether they may be accepted)."""
        async with self._read() as conn:
            rows = await self._raw_events(conn, game_id)
        return [
            StoredEvent(seq=r.seq, order=r.order_index, event=ev.event_from_json(dict(r.payload)))
            for r in rows
        ]

    async def truncate_from_bad(self, game_id: str) -> int:
        """Drop the first order with an untrusted event and every order after it, with the
        published heads beyond the cut; the number of events dropped."""
        async with self._write() as conn:
            await self._touch(conn, game_id)
            rows = await self._raw_events(conn, game_id)
            bad = self.problem(game_id, rows, await self._heads(conn, game_id))
            if bad is None:
                return 0
            seq = bad.seq
            cut = await conn.scalar(
                sa.select(sa.func.min(ORDER.c.first_seq)).where(
                    ORDER.c.game_id == game_id, ORDER.c.first_seq + ORDER.c.count > seq
                )
            )
            cut = min(seq, int(cut)) if cut is not None else seq
            await self._cut(conn, game_id, cut)
            await conn.execute(
                ORDER.delete().where(ORDER.c.game_id == game_id, ORDER.c.first_seq >= cut)
            )
            return max(0, len(rows) - cut)

    async def reseal(self, game_id: str) -> int:
        """Accept the stored events as they are: renumber nothing, recompute every hash.
        Returns how many rows changed. Snapshots are dropped (they may hold the old story), and
        so are the published heads the resealed log no longer matches."""
        changed = 0
        async with self._write() as conn:
            await self._touch(conn, game_id)
            rows = await self._raw_events(conn, game_id)
            prev = game_id
            hashes = [game_id]
            for i, r in enumerate(rows):
                if r.seq != i:
                    raise StoreError(
                        f"Event #{i + 1} is missing: a gap cannot be accepted, only truncated."
                    )
                prev = next_hash(prev, r.payload)
                hashes.append(prev)
                if r.hash != prev:
                    changed += 1
                    await conn.execute(
                        EVENT.update()
                        .where(EVENT.c.game_id == game_id, EVENT.c.seq == r.seq)
                        .values(hash=prev)
                    )
            await conn.execute(SNAPSHOT.delete().where(SNAPSHOT.c.game_id == game_id))
            for seq, h in await self._heads(conn, game_id):
                if seq >= len(hashes) or hashes[seq] != h:
                    await conn.execute(
                        PUBLISHED_HEAD.delete().where(
                            PUBLISHED_HEAD.c.game_id == game_id, PUBLISHED_HEAD.c.seq == seq
                        )
                    )
        return changed
