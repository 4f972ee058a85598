"""``SqlStore``'s mail (``db/repo.py``): the mails received, once per key; seats offered by mail;
how far each front end has reported a game; and secrets kept once (issue 17).

Every exactly-once write here is a single statement the database decides, as the claims of
``db.sql_waits`` are: an insert that a primary key refuses to all but one writer, or an update
or delete whose condition only one writer still finds true. A refused insert ends its own
transaction (``IntegrityError``), so PostgreSQL never continues in an aborted one; whatever is
read back afterwards is read in a new transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import GAME, MAIL_OFFER, MAIL_SEEN, REPORT_CURSOR, SECRET
from db.records import GameNotFound, MailOffer, StoreError, mail_address, mail_key
from db.sql_core import SqlCore


class SqlMail(SqlCore):
    """``SqlStore``'s mail and report cursors."""

    @staticmethod
    async def _game_exists(conn: AsyncConnection, game_id: str) -> None:
        """``GameNotFound`` unless the game exists."""
        if await conn.scalar(sa.select(GAME.c.id).where(GAME.c.id == game_id)) is None:
            raise GameNotFound(f"No game {game_id!r}.")

    # --- mails received -------------------------------------------------------------------
    async def mail_seen(self, key: str, address: str, game_id: str, now: datetime) -> bool:
        """Insert the mail's row; the primary key (its key) refuses every later one."""
        key, address = mail_key(key), mail_address(address)
        try:
            async with self._write() as conn:
                await conn.execute(
                    MAIL_SEEN.insert().values(key=key, address=address, game_id=game_id, at=now)
                )
        except IntegrityError:
            return False
        return True

    async def mail_forget(self, key: str) -> None:
        """Delete the mail's row (its handling failed before it acted: the retry is new)."""
        async with self._write() as conn:
            await conn.execute(MAIL_SEEN.delete().where(MAIL_SEEN.c.key == mail_key(key)))

    async def mail_received_since(self, address: str, since: datetime) -> int:
        async with self._read() as conn:
            n = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(MAIL_SEEN)
                .where(MAIL_SEEN.c.address == address, MAIL_SEEN.c.at >= since)
            )
        return int(n or 0)

    # --- seats offered by mail --------------------------------------------------------------
    @staticmethod
    def _offer_of(row: Any) -> MailOffer:
        return MailOffer(row.code, row.game_id, row.power, row.address, row.created_at)

    async def mail_offer(self, offer: MailOffer) -> None:
        """Under the game's row lock (which serialises offers of one game): drop the seat's old
        offer to that address, insert the new one."""
        mail_address(offer.address)
        try:
            async with self._write() as conn:
                await self._touch(conn, offer.game_id)
                await conn.execute(
                    MAIL_OFFER.delete().where(
                        MAIL_OFFER.c.game_id == offer.game_id,
                        MAIL_OFFER.c.power == offer.power,
                        MAIL_OFFER.c.address == offer.address,
                    )
                )
                await conn.execute(
                    MAIL_OFFER.insert().values(
                        code=offer.code,
                        game_id=offer.game_id,
                        power=offer.power,
                        address=offer.address,
                        created_at=offer.created_at,
                    )
                )
        except IntegrityError:
            raise StoreError(f"The offer code {offer.code!r} is in use.") from None

    async def mail_take_offer(self, code: str) -> MailOffer | None:
        """Delete the row and return it: of racing deletes of one row, one returns it (the
        others wait on its lock, PostgreSQL, or on the write lock, SQLite, and find none)."""
        async with self._write() as conn:
            row = (
                await conn.execute(
                    MAIL_OFFER.delete()
                    .where(MAIL_OFFER.c.code == code)
                    .returning(*MAIL_OFFER.c)
                )
            ).first()
        return None if row is None else self._offer_of(row)

    async def mail_offers(self, game_id: str) -> list[MailOffer]:
        async with self._read() as conn:
            rows = (
                await conn.execute(
                    sa.select(MAIL_OFFER)
                    .where(MAIL_OFFER.c.game_id == game_id)
                    .order_by(MAIL_OFFER.c.created_at, MAIL_OFFER.c.code)
                )
            ).all()
        return [self._offer_of(r) for r in rows]

    # --- what each front end has reported --------------------------------------------------
    async def report_cursor(self, game_id: str, reader: str) -> int:
        async with self._read() as conn:
            seq = await conn.scalar(
                sa.select(REPORT_CURSOR.c.seq).where(
                    REPORT_CURSOR.c.game_id == game_id, REPORT_CURSOR.c.reader == reader
                )
            )
        return int(seq or 0)

    async def advance_report(self, game_id: str, reader: str, old: int, new: int) -> bool:
        """A conditional update of the cursor at ``old``; a cursor never set is 0, and its
        first row is an insert that the primary key lets only one racing caller make."""
        try:
            async with self._write() as conn:
                moved = await conn.execute(
                    REPORT_CURSOR.update()
                    .where(
                        REPORT_CURSOR.c.game_id == game_id,
                        REPORT_CURSOR.c.reader == reader,
                        REPORT_CURSOR.c.seq == old,
                    )
                    .values(seq=new)
                )
                if moved.rowcount == 1:
                    return True
                if old != 0:
                    await self._game_exists(conn, game_id)
                    return False
                # No row at 0: either there is none yet (insert it) or it is elsewhere (the
                # insert is refused, as is a racing second insert).
                await conn.execute(
                    REPORT_CURSOR.insert().values(game_id=game_id, reader=reader, seq=new)
                )
                return True
        except IntegrityError:
            async with self._read() as conn:
                await self._game_exists(conn, game_id)  # a foreign key refused it
            return False

    # --- secrets kept once ------------------------------------------------------------------
    async def secret_once(self, game_id: str, name: str, value: bytes) -> bytes:
        """Insert the secret; when the primary key refuses it (one is kept already, maybe by a
        racing caller that just committed), read back the one kept."""
        try:
            async with self._write() as conn:
                await conn.execute(SECRET.insert().values(game_id=game_id, name=name, value=value))
            return value
        except IntegrityError:
            pass
        async with self._read() as conn:
            await self._game_exists(conn, game_id)  # a foreign key refused it
            kept = await conn.scalar(
                sa.select(SECRET.c.value).where(SECRET.c.game_id == game_id, SECRET.c.name == name)
            )
        if kept is None:  # pragma: no cover - a secret is never deleted
            raise StoreError(f"Game {game_id} keeps no secret {name!r}.")
        return bytes(kept)
