"""``SqlStore``'s table talk (``db/repo.py``): votes (cancel, draw, concede), the decision menus
posted in Discord, and game-master edits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from db.models import DECISION_MENU, EDIT_PROPOSAL, GAME, GAME_VOTE, utcnow
from db.records import (
    MENU_CLAIM_STALE,
    EditDecided,
    EditProposal,
    GameNotFound,
    MenuRecord,
    OrderRecord,
    StoreError,
)
from db.sql_core import SqlCore, _moved_on
from rules import events as ev


class SqlVotes(SqlCore):
    """``SqlStore``'s table talk."""

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
