"""Deadlines: set, pause and resume a game's deadline, and carry out its action when due.

A deadline says when the current wait ends and what the referee does then (``remind``,
``defaults``, ``end``); with ``every`` it re-arms for each new wait (``service.waits``). The
front end's timer (``cogs.reminders``) calls ``deadline_due``: the action is claimed in the store
first, so of several processes exactly one carries it out, and a claim whose process died is
taken over once it is stale.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from rules import events as ev
from rules import orders as od
from rules.defaults import default_orders, phase_end_order
from rules.engine import pending
from rules.messages import catalogue, msg
from service import waits as wt
from service.core import Result, ServiceError
from service.language import LANGUAGE
from service.orders import OrdersRoom
from service.store import DEADLINE_ACTIONS, DeadlineAction, DeadlineRecord, StoreError

MAX_DEADLINE_REPEATS = 60  # one deadline pass acts at most this often (a whole absent turn)


class DeadlinesRoom(OrdersRoom):
    """Deadlines and their actions (which give orders: hence on top of the orders room)."""

    async def set_deadline(
        self,
        game_id: str,
        person: str,
        text: str,
        *,
        admin: bool = False,
        now: datetime | None = None,
    ) -> Result:
        """``deadline <duration> [remind|defaults|end] [every]`` (owner, or ``admin``).

        ``every`` (or ``every turn``, ``every wait``) re-arms it by the same duration for each
        new wait (each phase, each decision; ``service.waits.arm_deadline``). The action is
        what the referee does when it passes (``deadline_due``).
        """
        got = await self._as_admin(game_id, person, admin, "deadline", msg("deadlines.owner_sets"))
        if isinstance(got, Result):
            return got
        _, info = got
        try:
            period, action, every = parse_deadline(text)
        except ServiceError as e:
            return Result.refused(str(e), kind="deadline", game=info)
        now = now or self.clock()
        d = await self.store.set_deadline(
            game_id, now + period, int(period.total_seconds()) if every else None, action,
            wt.waits_key(await wt.current_waits(self, game_id)),
        )
        return Result(
            ok=True, answer=deadline_line(d), kind="deadline", game=info,
            data={"deadline": deadline_json(d)},
        )

    async def deadline(self, game_id: str) -> DeadlineRecord | None:
        return await self.store.get_deadline(game_id)

    async def pause(
        self, game_id: str, person: str, *, admin: bool = False, now: datetime | None = None
    ) -> Result:
        """Pause the game's deadline (vacation): no reminders, no action until ``resume``."""
        return await self._pause(game_id, person, True, admin, now)

    async def resume(
        self, game_id: str, person: str, *, admin: bool = False, now: datetime | None = None
    ) -> Result:
        """Resume the deadline; it moves later by the time it was paused."""
        return await self._pause(game_id, person, False, admin, now)

    async def _pause(
        self, game_id: str, person: str, pause: bool, admin: bool, now: datetime | None
    ) -> Result:
        kind = "pause" if pause else "resume"
        got = await self._as_admin(game_id, person, admin, kind,
                                   msg("deadlines.owner_pauses", action=kind))
        if isinstance(got, Result):
            return got
        _, info = got
        now = now or self.clock()
        if pause:
            d = await self.store.pause_deadline(game_id, now)
        else:
            d = await self.store.resume_deadline(game_id, now)
        if d is None:
            return Result.refused(msg("deadlines.none", action=kind), kind=kind, game=info)
        answer = "Paused: no reminders and no deadline action until 'resume'." if pause else (
            "Resumed. " + deadline_line(d)
        )
        return Result(ok=True, answer=answer, kind=kind, game=info,
                      data={"deadline": deadline_json(d)})

    async def deadline_due(self, game_id: str, now: datetime | None = None) -> Result:
        """Carry out the game's deadline action if it is due: once per arming, claimed.

        ``data["fired"]`` says whether this call claimed it (only one process ever does).
        ``remind`` does nothing more (the front end reminds); ``defaults`` answers each pending
        battle decision with ``rules.defaults.default_orders`` as the owing power; ``end`` does
        that too and then, if no battle decision is pending, ends the current phase (``end
        confirm``), or in Conduct Combat fights a round of the first open battle. A deadline
        with a period then re-arms (``service.waits.arm_deadline``): at once while the game
        waits only for the absent, so the action repeats until it waits for someone present;
        with the full period otherwise.
        """
        now = now or self.clock()
        quiet = Result(ok=True, answer="", kind="deadline", data={"fired": False})
        lines: list[str] = []
        events: list[ev.Event] = []
        fired = False
        action = ""
        for _ in range(MAX_DEADLINE_REPEATS):
            d = await wt.arm_deadline(self, game_id, now)
            if d is None or d.paused:
                break
            current = await wt.current_waits(self, game_id)
            due = now >= d.due_at or (
                d.action != "remind" and await wt.covered(self, game_id, current, now)
            )
            key = f"due:{d.due_at.isoformat()}:{d.armed_for}"
            if not due:
                break
            # The claim names the log's head: a claim whose holder died before its action
            # wrote anything (the head is the same, the action not marked done) is taken over
            # once it is stale, so a crash never leaves a deadline that no process carries out.
            head = (await self._load(game_id)).head
            me = f"{self.process_id} {head}"
            if not await self.store.claim(game_id, key, me) and not await self._reclaim(
                game_id, key, head, me
            ):
                break
            fired, action = True, d.action
            before = len(events)
            await self._deadline_action(game_id, d, lines, events)
            await self.store.claim(game_id, f"{key}:done", self.process_id)
            if d.every is None:
                break
            after = wt.waits_key(await wt.current_waits(self, game_id))
            if len(events) == before or after == d.armed_for:
                # Nothing moved (remind, or nothing to answer): the same waits get another
                # full period, so the reminder (or the action) repeats until someone acts.
                await self.store.rearm_deadline(
                    game_id, d.armed_for, after, now + timedelta(seconds=d.every)
                )
                break
        if not fired:
            return quiet
        return Result(
            ok=True, answer="\n".join(lines), events=tuple(events), kind="deadline",
            data={"fired": True, "action": action},
        )

    async def _reclaim(self, game_id: str, key: str, head: str, me: str) -> bool:
        """Take over a deadline's claim if its holder stalled: nothing written since it claimed
        (the log's head is the one it named), not done, and older than ``claim_stale``."""
        held = await self.store.claim_holder(game_id, key)
        if held is None or not held[0].endswith(f" {head}"):
            return False
        if await self.store.claimed(game_id, [f"{key}:done"]):
            return False
        if datetime.now(UTC) - held[1] < self.claim_stale:
            return False
        return await self.store.reclaim(game_id, key, held[0], me)

    async def _deadline_action(
        self, game_id: str, d: DeadlineRecord, lines: list[str], events: list[ev.Event]
    ) -> None:
        """The deadline's action, once: the referee's orders are noted as such in the log."""
        if d.action not in ("defaults", "end"):
            return
        try:
            state = await self.state(game_id)
            rec = await self.store.get_game(game_id)
        except (ServiceError, StoreError) as e:
            lines.append(str(e))
            return
        for order in default_orders(state):
            who = rec.seats.get(order.power, "")
            r = await self.submit_order(game_id, who, order, _order_text(order) + wt.REFEREE_NOTE)
            lines.append(r.answer if r.ok else f"{order.power}: {r.error}")
            events.extend(r.events)
        if d.action == "end":
            state = await self.state(game_id)
            if not state.winner and not any(p.space is not None for p in pending(state)):
                who = rec.seats.get(state.power, "")
                last = phase_end_order(state)
                text = "end confirm" if isinstance(last, od.EndPhase) else _order_text(last)
                r = await self.submit_order(game_id, who, last, text + wt.REFEREE_NOTE)
                lines.append(r.answer if r.ok else f"{state.power}: {r.error}")
                events.extend(r.events)


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|s)", re.IGNORECASE)
_UNIT = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


def parse_deadline(text: str) -> tuple[timedelta, DeadlineAction, bool]:
    """``24h``, ``1d12h``, ``30m defaults``, ``2d end every``: duration, action, re-arm per wait."""
    words = text.casefold().split()
    action: DeadlineAction = "remind"
    every = False
    rest: list[str] = []
    for w in words:
        if w in DEADLINE_ACTIONS:
            action = w
        elif w in ("every", "turn", "per-turn", "wait", "per-wait"):
            every = True
        else:
            rest.append(w)
    spec = "".join(rest)
    pos, seconds = 0, 0.0
    for m in _DURATION.finditer(spec):
        if m.start() != pos:
            break
        seconds += float(m.group(1)) * _UNIT[m.group(2).lower()]
        pos = m.end()
    if not spec or pos != len(spec) or seconds <= 0:
        raise ServiceError(msg("deadlines.unreadable", text=text.strip()))
    if seconds > 60 * 86400:
        raise ServiceError(msg("deadlines.too_far"))
    return timedelta(seconds=seconds), action, every


def deadline_line(d: DeadlineRecord) -> str:
    what = {
        "remind": "a reminder",
        "defaults": "default answers to pending battle decisions",
        "end": "default battle answers, then the end of the phase",
    }[d.action]
    renew = (
        f"; it re-arms for {timedelta(seconds=d.every)} at each new wait (phase or decision)"
        if d.every else ""
    )
    paused = " (paused)" if d.paused else ""
    when = f"{d.due_at:%Y-%m-%d %H:%M} UTC"
    return f"Deadline: {when}{paused}; at it the referee gives {what}{renew}."


def deadline_json(d: DeadlineRecord) -> dict[str, Any]:
    return {
        "due_at": d.due_at.isoformat(),
        "every": d.every,
        "action": d.action,
        "paused": d.paused,
    }


def _order_text(order: od.Order) -> str:
    if isinstance(order, od.Casualties):
        units = ", ".join(f"{n} {t}" for t, n in order.units.items())
        return f"casualties {order.space} {units}".strip()
    line = LANGUAGE.line(order)  # a mechanism's order that says how it is written
    if line is not None:
        return line
    space = getattr(order, "space", "")
    return f"{order.kind.replace('_', ' ')} {space}".strip()


__all__ = [
    "MAX_DEADLINE_REPEATS",
    "DeadlinesRoom",
    "deadline_json",
    "deadline_line",
    "parse_deadline",
]


catalogue("en", "deadlines", {
    "unreadable": "Cannot read the deadline {text!r}: give a duration such as '24h', '30m', '2d' "
                  "or '1d12h', then optionally what happens at it (remind, defaults, end) and "
                  "'every' to re-arm it for each new wait. Example: 'deadline 24h defaults "
                  "every'.",
    "too_far": "A deadline is at most 60 days away.",
    "owner_sets": "Only the game's owner ({owner}) sets its deadline.",
    "owner_pauses": "Only the game's owner ({owner}) can {action} it.",
    "none": "This game has no deadline to {action} (set one with 'deadline 24h').",
})
