"""``SqlStore``'s games and seats (``db/repo.py``): creating, importing and starting games, their
records, statuses and seats, and their secrets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import GAME, SEAT, SECRET, utcnow
from db.records import (
    ENDED,
    SEATS_MOVED,
    ChannelTaken,
    DiceSpec,
    GameNotFound,
    GameRecord,
    GameStatus,
    ImportedOrder,
    OrderRecord,
    OtherSide,
    SeatTaken,
    StateMovedOn,
    StoreError,
    status_moved,
)
from db.sql_core import SqlCore, _dice_json
from rules import events as ev


class SqlGames(SqlCore):
    """``SqlStore``'s games and seats."""

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

    # --- waits (service.waits) ----------------------------------------------------------
    async def active_games(self) -> list[GameRecord]:
        async with self._read() as conn:
            return await self._records(conn, GAME.c.status == "active")
