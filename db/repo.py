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
ignored and reported. Snapshots are written while loading, every ``snapshot_every`` events.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from db import snapshot as snap
from db.engine import create_engine
from db.migrate import upgrade
from db.models import (
    CLAIM,
    DEADLINE,
    DECISION_MENU,
    EDIT_PROPOSAL,
    EVENT,
    GAME,
    GAME_DEADLINE,
    GAME_VOTE,
    NOTIFY_PREF,
    ORDER,
    PUBLISHED_HEAD,
    SEAT,
    SECRET,
    SNAPSHOT,
    VACATION,
    utcnow,
)
from db.records import (
    ENDED,
    MENU_CLAIM_STALE,
    SEATS_MOVED,
    ChannelTaken,
    CorruptGame,
    DeadlineAction,
    DeadlineRecord,
    DiceSpec,
    EditDecided,
    EditProposal,
    GameNotFound,
    GameRecord,
    GameStatus,
    ImportedOrder,
    MenuRecord,
    NotifyPrefRecord,
    OrderRecord,
    OtherSide,
    SeatTaken,
    StateMovedOn,
    StoredEvent,
    StoreError,
    VacationRecord,
    status_moved,
    undo_moved,
)
from rules import codec
from rules import events as ev
from rules.engine import evolve, replay
from rules.state import GameState

log = logging.getLogger(__name__)

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


class SqlStore:
    """An ``EventStore`` in a SQL database (SQLite file or PostgreSQL), shared by processes."""

    def __init__(self, engine: AsyncEngine, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.engine = engine
        self.snapshot_every = snapshot_every

    @classmethod
    async def open(
        cls, url: str, *, migrate: bool = True, snapshot_every: int = SNAPSHOT_EVERY
    ) -> SqlStore:
        """Connect to ``url``, first bringing its schema up to date (``migrate``)."""
        if migrate:
            await upgrade(url)
        return cls(create_engine(url), snapshot_every=snapshot_every)

    async def close(self) -> None:
        await self.engine.dispose()

    # --- transactions ---------------------------------------------------------------------
    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            conn = await conn.execution_options(immediate=True)
            async with conn.begin():
                yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn, conn.begin():
            yield conn

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

    @staticmethod
    async def _count(conn: AsyncConnection, game_id: str) -> int:
        n = await conn.scalar(
            sa.select(sa.func.count()).select_from(EVENT).where(EVENT.c.game_id == game_id)
        )
        return int(n or 0)

    @staticmethod
    async def _hash_at(conn: AsyncConnection, game_id: str, seq: int) -> str:
        """The log's hash after ``seq`` events (the game id when ``seq`` is 0)."""
        if seq == 0:
            return game_id
        h = await conn.scalar(
            sa.select(EVENT.c.hash).where(EVENT.c.game_id == game_id, EVENT.c.seq == seq - 1)
        )
        return str(h) if h is not None else game_id

    # --- games --------------------------------------------------------------------------
    async def create_game(
        self,
        *,
        edition: str,
        options: tuple[str, ...],
        channel: str,
        owner: str,
        dice: DiceSpec,
        position: dict[str, Any] | None = None,
        guild: str = "",
        secrets: Mapping[str, bytes] | None = None,
    ) -> GameRecord:
        for _ in range(50):
            try:
                async with self._write() as conn:
                    game_id = await self._insert_game(
                        conn, edition=edition, options=options, channel=channel, owner=owner,
                        dice=dice, position=position, guild=guild, secrets=secrets or {})
            except IntegrityError:
                # Another process took that id, or this channel (the unique index of games
                # not over per channel), at the same moment: look again.
                async with self._read() as conn:
                    await self._channel_free(conn, channel)
                continue
            return GameRecord(
                id=game_id,
                edition=edition,
                options=options,
                channel=channel,
                owner=owner,
                status="lobby",
                dice=dice,
                position=position,
                guild=guild,
            )
        raise StoreError("Could not create a game: too many games created at once; try again.")

    async def _insert_game(
        self,
        conn: AsyncConnection,
        *,
        edition: str,
        options: tuple[str, ...],
        channel: str,
        owner: str,
        dice: DiceSpec,
        position: dict[str, Any] | None,
        guild: str,
        secrets: Mapping[str, bytes],
    ) -> str:
        """Inside a write: a new lobby game in a free ``channel`` with its secrets; its id
        (``IntegrityError`` if another process took the id or the channel at the same moment)."""
        await self._channel_free(conn, channel)
        n = await conn.scalar(sa.select(sa.func.count()).select_from(GAME))
        game_id = f"g{int(n or 0) + 1}"
        now = utcnow()
        await conn.execute(
            GAME.insert().values(
                id=game_id, edition=edition, options=list(options), channel=channel,
                owner=owner, status="lobby", dice=_dice_json(dice), position=position,
                guild=guild, next_order=0, created_at=now, updated_at=now,
            )
        )
        for name, value in secrets.items():
            await conn.execute(SECRET.insert().values(game_id=game_id, name=name, value=value))
        return game_id

    @staticmethod
    async def _channel_free(conn: AsyncConnection, channel: str) -> None:
        """``ChannelTaken`` if ``channel`` has a game that is not over."""
        row = (
            await conn.execute(
                sa.select(GAME.c.id, GAME.c.status)
                .where(GAME.c.channel == channel, GAME.c.status.not_in(ENDED))
                .limit(1)
            )
        ).first()
        if row is not None:
            raise ChannelTaken(row.id, row.status)
    async def import_game(
        self,
        *,
        edition: str,
        options: tuple[str, ...],
        channel: str,
        owner: str,
        dice: DiceSpec,
        position: dict[str, Any] | None,
        guild: str,
        seats: Mapping[str, str],
        secrets: Mapping[str, bytes],
        orders: Callable[[str], Sequence[ImportedOrder]],
        status: GameStatus,
    ) -> GameRecord:
        """The whole game in one transaction: a failure anywhere (a crash included) leaves
        nothing of it behind."""
        for _ in range(50):
            try:
                async with self._write() as conn:
                    game_id = await self._insert_game(
                        conn, edition=edition, options=options, channel=channel, owner=owner,
                        dice=dice, position=position, guild=guild, secrets=secrets)
                    if seats:
                        await conn.execute(SEAT.insert(), [
                            {"game_id": game_id, "power": p, "person": who, "entropy": "",
                             "substitute": None}
                            for p, who in seats.items()
                        ])
                    seq = 0
                    for o in orders(game_id):
                        await self._append_in(
                            conn, game_id, seq, o.events, person=o.person, power=o.power,
                            text=o.text, dice_used=o.dice_used)
                        seq += len(o.events)
                    await conn.execute(
                        GAME.update().where(GAME.c.id == game_id).values(status=status)
                    )
            except IntegrityError:
                continue  # another process took that id at the same moment: count again
            return await self.get_game(game_id)
        raise StoreError("Could not import the game: too many games created at once; try again.")

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
        return [
            GameRecord(
                id=r.id,
                edition=r.edition,
                options=tuple(r.options),
                channel=r.channel,
                owner=r.owner,
                status=r.status,
                dice=_dice_of(r.dice),
                seats=seats[r.id],
                entropy=phrases[r.id],
                position=r.position,
                guild=r.guild,
            )
            for r in rows
        ]

    async def get_game(self, game_id: str) -> GameRecord:
        async with self._read() as conn:
            found = await self._records(conn, GAME.c.id == game_id)
        if not found:
            raise GameNotFound(f"No game {game_id!r}.")
        return found[0]

    async def games_in_channel(self, channel: str) -> list[GameRecord]:
        async with self._read() as conn:
            return await self._records(conn, GAME.c.channel == channel)

    async def games_in_guild(self, guild: str) -> list[GameRecord]:
        async with self._read() as conn:
            return await self._records(conn, GAME.c.guild == guild)

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game not over (finished or cancelled), oldest first (a restarted bot picks
        them up)."""
        async with self._read() as conn:
            return await self._records(conn, GAME.c.status.not_in(ENDED))

    async def set_status(
        self, game_id: str, status: GameStatus, *, expected: GameStatus | None = None
    ) -> None:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            if expected is not None:
                await self._status_in(conn, game_id, (expected,))
            await conn.execute(GAME.update().where(GAME.c.id == game_id).values(status=status))

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

    async def take_seat(
        self,
        game_id: str,
        power: str,
        person: str,
        *,
        entropy: str = "",
        holder: str | None = None,
        conflicts: Sequence[str] = (),
        statuses: Sequence[GameStatus] = ("lobby",),
    ) -> GameRecord:
        async with self._write() as conn:
            await self._touch(conn, game_id)  # the game's row lock: lobby writers queue here
            await self._status_in(conn, game_id, statuses)
            seats = await self._seats(conn, game_id)
            now = seats[power][0] if power in seats else None
            if now != holder:
                raise SeatTaken(power, now)
            held = tuple(p for p in conflicts if p in seats and seats[p][0] == person)
            if held:
                raise OtherSide(person, held)
            await self._put_seat(conn, game_id, power, person, entropy)
            found = await self._records(conn, GAME.c.id == game_id)
        return found[0]

    async def free_seats(
        self, game_id: str, person: str, *, statuses: Sequence[GameStatus] = ("lobby",)
    ) -> tuple[list[str], GameRecord]:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await self._status_in(conn, game_id, statuses)
            held = [p for p, (who, _) in (await self._seats(conn, game_id)).items()
                    if who == person]
            for p in held:
                await self._put_seat(conn, game_id, p, None, "")
            found = await self._records(conn, GAME.c.id == game_id)
        return held, found[0]

    async def set_seat(
        self, game_id: str, power: str, person: str | None, entropy: str = ""
    ) -> None:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await self._put_seat(conn, game_id, power, person, entropy)

    @staticmethod
    async def _put_seat(
        conn: AsyncConnection, game_id: str, power: str, person: str | None, entropy: str
    ) -> None:
        where = sa.and_(SEAT.c.game_id == game_id, SEAT.c.power == power)
        old = (await conn.execute(sa.select(SEAT).where(where))).first()
        await conn.execute(SEAT.delete().where(where))
        if person is None:
            return
        # As MemoryStore: an empty phrase keeps the one given before.
        phrase = entropy or (old.entropy if old is not None else "")
        await conn.execute(
            SEAT.insert().values(
                game_id=game_id,
                power=power,
                person=person,
                entropy=phrase,
                substitute=old.substitute if old is not None else None,
            )
        )

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
    ) -> OrderRecord:
        try:
            async with self._write() as conn:
                placed = await self._append_in(
                    conn, game_id, expected_seq, events, person=person, power=power, text=text,
                    dice_used=dice_used, head=head)
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
    ) -> OrderRecord:
        """``append`` inside the caller's write transaction (which it locks the game row of)."""
        bodies = [ev.event_to_json(e) for e in events]
        index = await self._touch(conn, game_id, order=True) - 1
        have = await self._count(conn, game_id)
        if have != expected_seq:
            raise _moved_on(have, expected_seq, "written")
        prev = await self._hash_at(conn, game_id, expected_seq)
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
            await conn.execute(EVENT.insert(), rows)
        await conn.execute(
            ORDER.insert().values(
                game_id=game_id,
                index=index,
                person=person,
                power=power,
                text=text,
                first_seq=expected_seq,
                count=len(events),
                dice_used=dice_used,
                created_at=utcnow(),
            )
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

    async def start_game(
        self,
        game_id: str,
        events: Sequence[ev.Event],
        *,
        person: str,
        text: str,
        seats: Mapping[str, str],
        entropy: Mapping[str, str],
    ) -> OrderRecord:
        try:
            async with self._write() as conn:
                await self._touch(conn, game_id)
                await self._status_in(conn, game_id, ("lobby",))
                now = await self._seats(conn, game_id)
                if {p: who for p, (who, _) in now.items()} != dict(seats) or {
                    p: phrase for p, (_, phrase) in now.items() if phrase
                } != dict(entropy):
                    raise StateMovedOn(SEATS_MOVED)
                placed = await self._append_in(
                    conn, game_id, 0, events, person=person, power="", text=text, head=game_id
                )
                await conn.execute(
                    GAME.update().where(GAME.c.id == game_id).values(status="active")
                )
                return placed
        except IntegrityError:
            raise StateMovedOn(status_moved("started", "lobby")) from None

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

    # --- secrets ------------------------------------------------------------------------
    async def put_secret(self, game_id: str, name: str, value: bytes) -> None:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            where = sa.and_(SECRET.c.game_id == game_id, SECRET.c.name == name)
            await conn.execute(SECRET.delete().where(where))
            await conn.execute(SECRET.insert().values(game_id=game_id, name=name, value=value))

    async def get_secret(self, game_id: str, name: str) -> bytes:
        async with self._read() as conn:
            exists = await conn.scalar(sa.select(GAME.c.id).where(GAME.c.id == game_id))
            if exists is None:
                raise GameNotFound(f"No game {game_id!r}.")
            value = await conn.scalar(
                sa.select(SECRET.c.value).where(SECRET.c.game_id == game_id, SECRET.c.name == name)
            )
        if value is None:
            raise StoreError(f"Game {game_id} keeps no secret {name!r}.")
        return bytes(value)

    # --- deadlines ----------------------------------------------------------------------
    @staticmethod
    def _deadline_of(row: Any) -> DeadlineRecord:
        return DeadlineRecord(
            game_id=row.game_id,
            due_at=row.due_at,
            every=row.every,
            action=row.action,
            paused_at=row.paused_at,
            armed_for=row.armed_for,
        )

    async def set_deadline(
        self,
        game_id: str,
        due_at: datetime,
        every: int | None,
        action: DeadlineAction,
        armed_for: str = "",
    ) -> DeadlineRecord:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await conn.execute(GAME_DEADLINE.delete().where(GAME_DEADLINE.c.game_id == game_id))
            await conn.execute(
                GAME_DEADLINE.insert().values(
                    game_id=game_id,
                    due_at=due_at,
                    every=every,
                    action=action,
                    paused_at=None,
                    armed_for=armed_for,
                )
            )
        return DeadlineRecord(game_id, due_at, every, action, armed_for=armed_for)

    async def get_deadline(self, game_id: str) -> DeadlineRecord | None:
        async with self._read() as conn:
            row = (
                await conn.execute(
                    sa.select(GAME_DEADLINE).where(GAME_DEADLINE.c.game_id == game_id)
                )
            ).first()
        return self._deadline_of(row) if row is not None else None

    async def deadlines(self) -> list[DeadlineRecord]:
        async with self._read() as conn:
            rows = (
                await conn.execute(sa.select(GAME_DEADLINE).order_by(GAME_DEADLINE.c.due_at))
            ).all()
        return [self._deadline_of(r) for r in rows]

    async def _set_paused(
        self, game_id: str, now: datetime, pause: bool
    ) -> DeadlineRecord | None:
        async with self._write() as conn:
            await self._touch(conn, game_id)  # serialises pause/resume of one game
            where = GAME_DEADLINE.c.game_id == game_id
            row = (await conn.execute(sa.select(GAME_DEADLINE).where(where))).first()
            if row is None:
                return None
            d = self._deadline_of(row)
            if pause and d.paused_at is None:
                d = replace(d, paused_at=now)
            elif not pause and d.paused_at is not None:
                shift = max(now - d.paused_at, timedelta(0))
                d = replace(d, due_at=d.due_at + shift, paused_at=None)
            else:
                return d
            await conn.execute(
                GAME_DEADLINE.update().where(where).values(due_at=d.due_at, paused_at=d.paused_at)
            )
            return d

    async def pause_deadline(self, game_id: str, now: datetime) -> DeadlineRecord | None:
        return await self._set_paused(game_id, now, True)

    async def resume_deadline(self, game_id: str, now: datetime) -> DeadlineRecord | None:
        return await self._set_paused(game_id, now, False)

    async def claim_reminder(
        self, game_id: str, kind: str, due_at: datetime, claimer: str
    ) -> bool:
        """Insert the claim row; the unique key (game, kind, due_at) refuses every later one."""
        try:
            async with self._write() as conn:
                await conn.execute(
                    DEADLINE.insert().values(
                        game_id=game_id,
                        due_at=due_at,
                        kind=kind,
                        claimed_by=claimer,
                        claimed_at=utcnow(),
                    )
                )
        except IntegrityError:
            return False
        return True

    # --- votes ---------------------------------------------------------------------------
    @staticmethod
    async def _voters(conn: AsyncConnection, game_id: str, kind: str) -> list[str]:
        rows = await conn.execute(
            sa.select(GAME_VOTE.c.person)
            .where(GAME_VOTE.c.game_id == game_id, GAME_VOTE.c.kind == kind)
            .order_by(GAME_VOTE.c.created_at, GAME_VOTE.c.person)
        )
        return [str(r[0]) for r in rows]

    async def cast_vote(self, game_id: str, kind: str, person: str) -> list[str]:
        """Under the game's row lock: insert the vote unless it is there; the primary key
        (game, kind, person) would refuse a second row in any case."""
        async with self._write() as conn:
            await self._touch(conn, game_id)
            there = await conn.scalar(
                sa.select(GAME_VOTE.c.person).where(
                    GAME_VOTE.c.game_id == game_id,
                    GAME_VOTE.c.kind == kind,
                    GAME_VOTE.c.person == person,
                )
            )
            if there is None:
                await conn.execute(
                    GAME_VOTE.insert().values(
                        game_id=game_id, kind=kind, person=person, created_at=utcnow()
                    )
                )
            return await self._voters(conn, game_id, kind)

    async def withdraw_vote(self, game_id: str, kind: str, person: str) -> list[str]:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await conn.execute(
                GAME_VOTE.delete().where(
                    GAME_VOTE.c.game_id == game_id,
                    GAME_VOTE.c.kind == kind,
                    GAME_VOTE.c.person == person,
                )
            )
            return await self._voters(conn, game_id, kind)

    async def votes(self, game_id: str, kind: str) -> list[str]:
        async with self._read() as conn:
            exists = await conn.scalar(sa.select(GAME.c.id).where(GAME.c.id == game_id))
            if exists is None:
                raise GameNotFound(f"No game {game_id!r}.")
            return await self._voters(conn, game_id, kind)
    # --- decision menus -----------------------------------------------------------------
    async def claim_menu(
        self,
        game_id: str,
        key: str,
        channel: str,
        claimer: str,
        now: datetime,
        *,
        stale_after: timedelta = MENU_CLAIM_STALE,
    ) -> bool:
        """Insert the claim row (the primary key (game, key) refuses every later one); else take
        over a claim that never got its message and is older than ``stale_after``: a
        conditional update, which exactly one of several racing callers wins."""
        try:
            async with self._write() as conn:
                await conn.execute(
                    DECISION_MENU.insert().values(
                        game_id=game_id,
                        key=key,
                        channel=channel,
                        message_id=None,
                        claimed_by=claimer,
                        claimed_at=now,
                        closed_at=None,
                    )
                )
            return True
        except IntegrityError:
            pass
        async with self._write() as conn:
            taken = await conn.execute(
                DECISION_MENU.update()
                .where(
                    DECISION_MENU.c.game_id == game_id,
                    DECISION_MENU.c.key == key,
                    DECISION_MENU.c.message_id.is_(None),
                    DECISION_MENU.c.closed_at.is_(None),
                    DECISION_MENU.c.claimed_at <= now - stale_after,
                )
                .values(claimed_by=claimer, claimed_at=now, channel=channel)
            )
            return bool(taken.rowcount == 1)

    async def menu_posted(self, game_id: str, key: str, message_id: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                DECISION_MENU.update()
                .where(DECISION_MENU.c.game_id == game_id, DECISION_MENU.c.key == key)
                .values(message_id=message_id)
            )

    async def release_menu(self, game_id: str, key: str, claimer: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                DECISION_MENU.delete().where(
                    DECISION_MENU.c.game_id == game_id,
                    DECISION_MENU.c.key == key,
                    DECISION_MENU.c.claimed_by == claimer,
                    DECISION_MENU.c.message_id.is_(None),
                )
            )

    async def menus(self, game_id: str) -> list[MenuRecord]:
        async with self._read() as conn:
            rows = (
                await conn.execute(
                    sa.select(DECISION_MENU)
                    .where(DECISION_MENU.c.game_id == game_id)
                    .order_by(DECISION_MENU.c.claimed_at, DECISION_MENU.c.key)
                )
            ).all()
        return [
            MenuRecord(
                game_id=r.game_id,
                key=r.key,
                channel=r.channel,
                message_id=r.message_id,
                claimed_by=r.claimed_by,
                claimed_at=r.claimed_at,
                closed_at=r.closed_at,
            )
            for r in rows
        ]

    async def close_menu(self, game_id: str, key: str, now: datetime) -> None:
        async with self._write() as conn:
            await conn.execute(
                DECISION_MENU.update()
                .where(
                    DECISION_MENU.c.game_id == game_id,
                    DECISION_MENU.c.key == key,
                    DECISION_MENU.c.closed_at.is_(None),
                )
                .values(closed_at=now)
            )
    # --- waits (service.waits) ----------------------------------------------------------
    async def active_games(self) -> list[GameRecord]:
        async with self._read() as conn:
            return await self._records(conn, GAME.c.status == "active")

    async def claim(self, game_id: str, key: str, claimer: str) -> bool:
        """Insert the claim row; the primary key (game, key) refuses every later one."""
        try:
            async with self._write() as conn:
                await conn.execute(
                    CLAIM.insert().values(
                        game_id=game_id, key=key, claimed_by=claimer, claimed_at=utcnow()
                    )
                )
        except IntegrityError:
            return False
        return True

    async def claim_holder(self, game_id: str, key: str) -> tuple[str, datetime] | None:
        async with self._read() as conn:
            row = (
                await conn.execute(
                    sa.select(CLAIM.c.claimed_by, CLAIM.c.claimed_at).where(
                        CLAIM.c.game_id == game_id, CLAIM.c.key == key
                    )
                )
            ).first()
        return None if row is None else (str(row.claimed_by), row.claimed_at)

    async def reclaim(self, game_id: str, key: str, was: str, claimer: str) -> bool:
        """A compare-and-set on the claim's holder: one racing caller updates the row."""
        async with self._write() as conn:
            done = await conn.execute(
                CLAIM.update()
                .where(CLAIM.c.game_id == game_id, CLAIM.c.key == key, CLAIM.c.claimed_by == was)
                .values(claimed_by=claimer, claimed_at=utcnow())
            )
        return bool(done.rowcount)

    async def claimed(self, game_id: str, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(CLAIM.c.key).where(CLAIM.c.game_id == game_id, CLAIM.c.key.in_(keys))
            )
            return {str(r[0]) for r in rows}

    async def release_claim(self, game_id: str, key: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                CLAIM.delete().where(CLAIM.c.game_id == game_id, CLAIM.c.key == key)
            )

    async def rearm_deadline(
        self, game_id: str, was_for: str, armed_for: str, due_at: datetime
    ) -> DeadlineRecord | None:
        """A conditional update: only the writer that still sees ``was_for`` moves it."""
        async with self._write() as conn:
            await self._touch(conn, game_id)  # serialises writers of this game's deadline
            where = sa.and_(
                GAME_DEADLINE.c.game_id == game_id, GAME_DEADLINE.c.armed_for == was_for
            )
            done = await conn.execute(
                GAME_DEADLINE.update().where(where).values(due_at=due_at, armed_for=armed_for)
            )
            if done.rowcount != 1:
                return None
            row = (
                await conn.execute(
                    sa.select(GAME_DEADLINE).where(GAME_DEADLINE.c.game_id == game_id)
                )
            ).first()
        return self._deadline_of(row) if row is not None else None

    async def set_notify_pref(self, pref: NotifyPrefRecord) -> None:
        async with self._write() as conn:
            where = sa.and_(
                NOTIFY_PREF.c.person == pref.person, NOTIFY_PREF.c.game_id == pref.game_id
            )
            await conn.execute(NOTIFY_PREF.delete().where(where))
            await conn.execute(
                NOTIFY_PREF.insert().values(
                    person=pref.person,
                    game_id=pref.game_id,
                    how=pref.how,
                    quiet_from=pref.quiet_from,
                    quiet_to=pref.quiet_to,
                    tz=pref.tz,
                )
            )

    async def notify_prefs(self, persons: Sequence[str]) -> list[NotifyPrefRecord]:
        if not persons:
            return []
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(NOTIFY_PREF).where(NOTIFY_PREF.c.person.in_(list(persons)))
            )
            return [
                NotifyPrefRecord(r.person, r.game_id, r.how, r.quiet_from, r.quiet_to, r.tz)
                for r in rows
            ]

    async def set_vacation(self, vacation: VacationRecord | None, person: str) -> None:
        async with self._write() as conn:
            await conn.execute(VACATION.delete().where(VACATION.c.person == person))
            if vacation is not None:
                await conn.execute(
                    VACATION.insert().values(
                        person=person, starts_at=vacation.starts_at, ends_at=vacation.ends_at
                    )
                )

    async def vacations(self, persons: Sequence[str]) -> list[VacationRecord]:
        if not persons:
            return []
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(VACATION).where(VACATION.c.person.in_(list(persons)))
            )
            return [VacationRecord(r.person, r.starts_at, r.ends_at) for r in rows]

    # --- game-master edits (service.edits) ------------------------------------------------
    @staticmethod
    def _edit_of(row: Any) -> EditProposal:
        return EditProposal(
            game_id=row.game_id,
            number=row.number,
            proposer=row.proposer,
            text=row.text,
            seq=row.seq,
            status=row.status,
            decided_by=row.decided_by,
        )

    async def propose_edit(
        self, game_id: str, proposer: str, text: str, seq: int
    ) -> EditProposal:
        async with self._write() as conn:
            await self._touch(conn, game_id)  # serialises numbering within the game
            top = await conn.scalar(
                sa.select(sa.func.max(EDIT_PROPOSAL.c.number)).where(
                    EDIT_PROPOSAL.c.game_id == game_id
                )
            )
            number = int(top or 0) + 1
            await conn.execute(
                EDIT_PROPOSAL.insert().values(
                    game_id=game_id, number=number, proposer=proposer, text=text, seq=seq,
                    status="pending", decided_by=None, created_at=utcnow(), decided_at=None,
                )
            )
        return EditProposal(game_id, number, proposer, text, seq)

    async def _edit_in(self, conn: AsyncConnection, game_id: str, number: int) -> EditProposal:
        row = (
            await conn.execute(
                sa.select(EDIT_PROPOSAL).where(
                    EDIT_PROPOSAL.c.game_id == game_id, EDIT_PROPOSAL.c.number == number
                )
            )
        ).first()
        if row is None:
            raise StoreError(f"This game has no edit #{number}.")
        return self._edit_of(row)

    async def get_edit(self, game_id: str, number: int) -> EditProposal:
        async with self._read() as conn:
            return await self._edit_in(conn, game_id, number)

    async def edit_proposals(self, game_id: str) -> list[EditProposal]:
        async with self._read() as conn:
            rows = (
                await conn.execute(
                    sa.select(EDIT_PROPOSAL)
                    .where(EDIT_PROPOSAL.c.game_id == game_id)
                    .order_by(EDIT_PROPOSAL.c.number)
                )
            ).all()
        return [self._edit_of(r) for r in rows]

    async def _decide_edit(
        self, conn: AsyncConnection, game_id: str, number: int, status: str, by: str
    ) -> EditProposal:
        """Mark the proposal decided, only if still pending (the game row is locked)."""
        p = await self._edit_in(conn, game_id, number)
        if p.status != "pending":
            raise EditDecided(p)
        await conn.execute(
            EDIT_PROPOSAL.update()
            .where(EDIT_PROPOSAL.c.game_id == game_id, EDIT_PROPOSAL.c.number == number)
            .values(status=status, decided_by=by, decided_at=utcnow())
        )
        return EditProposal(p.game_id, p.number, p.proposer, p.text, p.seq,
                            "applied" if status == "applied" else "rejected", by)

    async def apply_edit(
        self,
        game_id: str,
        number: int,
        agreed: str,
        expected_seq: int,
        events: Sequence[ev.Event],
        *,
        text: str,
        head: str | None = None,
    ) -> OrderRecord:
        try:
            async with self._write() as conn:
                # Lock the game row, then read the proposal under the lock: of two racing
                # confirmations the second sees it decided (EditDecided), whatever the log says.
                await self._touch(conn, game_id)
                await self._decide_edit(conn, game_id, number, "applied", agreed)
                return await self._append_in(
                    conn, game_id, expected_seq, events, person=agreed, power="", text=text,
                    head=head)
        except IntegrityError:
            async with self._read() as conn:
                have = await self._count(conn, game_id)
            raise _moved_on(have, expected_seq, "written") from None

    async def reject_edit(self, game_id: str, number: int, by: str) -> EditProposal:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            return await self._decide_edit(conn, game_id, number, "rejected", by)

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


async def open_store(url: str, *, snapshot_every: int = SNAPSHOT_EVERY) -> SqlStore:
    """Migrate the database at ``url`` and return a store over it."""
    return await SqlStore.open(url, snapshot_every=snapshot_every)


__all__ = ["SNAPSHOT_EVERY", "SqlStore", "canonical_json", "next_hash", "open_store"]
