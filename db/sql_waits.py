"""``SqlStore``'s waits (``db/repo.py``): deadlines and their reminders, claims on what is due,
notification settings and vacations (``service.waits``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from db.models import CLAIM, DEADLINE, GAME_DEADLINE, NOTIFY_PREF, VACATION, utcnow
from db.records import DeadlineAction, DeadlineRecord, NotifyPrefRecord, VacationRecord
from db.sql_core import SqlCore


class SqlWaits(SqlCore):
    """``SqlStore``'s waits."""

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
