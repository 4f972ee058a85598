"""Deadlines and reminders: a background loop that reminds the players a game waits for, before
its deadline and when it passes, with a mention in the game's channel.

Each reminder has a key (game, deadline, kind). Before sending, the loop *claims* the key through
a ``ReminderClaims``; only the process whose claim succeeds sends it, so two bot processes never
send the same reminder twice. ``MemoryClaims`` claims within one process; with several processes
the claims must live in the shared database, where the SQL store provides them with a row lock on
its ``deadline`` table (``db.models.Deadline.claimed_by``/``claimed_at``). A store with a
``claim_reminder(key, by, now)`` method is used as is; otherwise the bot falls back to
``MemoryClaims`` (correct for one process).

Deadlines are kept by this cog (``Deadlines``) and set with ``/admin deadline``; a deadline with a
period moves forward by that period each time a new turn begins. What happens at a deadline is,
for now, a reminder only (no default decisions, no automatic end of phase).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol, runtime_checkable

import discord
from discord.ext import commands, tasks

from rules import events as ev
from service.games import GameInfo, GameService

log = logging.getLogger(__name__)

BEFORE = timedelta(hours=2)  # the early reminder, this long before the deadline
TICK_SECONDS = 60.0

Kind = Literal["before", "due"]


@runtime_checkable
class ReminderClaims(Protocol):
    """Claims each reminder once among all bot processes."""

    async def claim_reminder(self, key: str, by: str, now: datetime) -> bool:
        """True for the first claim of ``key`` (that process sends it); False afterwards."""
        ...


@dataclass
class MemoryClaims:
    """Claims within one process (tests, a single bot process)."""

    claimed: dict[str, tuple[str, datetime]] = field(default_factory=dict)

    async def claim_reminder(self, key: str, by: str, now: datetime) -> bool:
        if key in self.claimed:
            return False
        self.claimed[key] = (by, now)
        return True


@dataclass(frozen=True)
class Deadline:
    """When a game's current wait ends; ``period`` renews it at each new turn."""

    game_id: str
    channel_id: int
    due: datetime
    period: timedelta | None = None
    paused: bool = False


@dataclass
class Deadlines:
    """The games' deadlines, by game id."""

    by_game: dict[str, Deadline] = field(default_factory=dict)

    def set(self, deadline: Deadline) -> None:
        self.by_game[deadline.game_id] = deadline

    def get(self, game_id: str) -> Deadline | None:
        return self.by_game.get(game_id)

    def pause(self, game_id: str, paused: bool) -> Deadline | None:
        d = self.by_game.get(game_id)
        if d is not None:
            d = replace(d, paused=paused)
            self.by_game[game_id] = d
        return d

    def renew(self, game_id: str, now: datetime) -> None:
        d = self.by_game.get(game_id)
        if d is not None and d.period is not None:
            self.by_game[game_id] = replace(d, due=now + d.period)


def reminder_key(d: Deadline, kind: Kind) -> str:
    return f"{d.game_id}:{d.due.isoformat()}:{kind}"


def due_reminders(deadlines: Sequence[Deadline], now: datetime) -> list[tuple[Deadline, Kind]]:
    """The reminders whose time has come (claimed or not)."""
    out: list[tuple[Deadline, Kind]] = []
    for d in deadlines:
        if d.paused:
            continue
        if now >= d.due:
            out.append((d, "due"))
        elif now >= d.due - BEFORE:
            out.append((d, "before"))
    return out


def timestamp(when: datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone."""
    return f"<t:{int(when.timestamp())}:f> (<t:{int(when.timestamp())}:R>)"


async def reminder_text(service: GameService, d: Deadline, kind: Kind) -> tuple[str, list[int]]:
    """The reminder and the user ids it mentions (the people the game waits for)."""
    result = await service.status(d.game_id)
    waiting = (result.data or {}).get("waiting", []) if result.ok else []
    people = [w for w in waiting if isinstance(w, dict)]
    ids = sorted({int(w["person"]) for w in people if str(w.get("person") or "").isdigit()})
    parts = [
        f"{w['power']} ({w['what']}{' in ' + w['space'] if w.get('space') else ''})" for w in people
    ]
    mentions = " ".join(f"<@{i}>" for i in ids)
    what = ", ".join(parts) or "nobody"
    if kind == "before":
        text = f"⏰ {mentions} Reminder: the deadline is {timestamp(d.due)}. Waiting for: {what}."
    else:
        text = (
            f"⌛ {mentions} The deadline {timestamp(d.due)} has passed. Waiting for: {what}. "
            "(At a deadline the bot reminds only; the game waits for the orders.)"
        )
    return text.replace("  ", " "), ids


class RemindersCog(commands.Cog):
    """Sends the reminders; ``tick`` is one pass (the loop calls it; tests call it directly)."""

    def __init__(self, bot: Any, *, start: bool = True) -> None:
        self.bot = bot
        self.deadlines = Deadlines()
        store = bot.service.store
        self.claims: ReminderClaims = store if isinstance(store, ReminderClaims) else MemoryClaims()
        self.sent: list[tuple[str, int]] = []  # (key, channel id) sent by this process
        self._start = start
        bot.service.listeners.append(self._on_events)

    async def cog_load(self) -> None:
        if self._start:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()
        if self._on_events in self.bot.service.listeners:
            self.bot.service.listeners.remove(self._on_events)

    async def _on_events(self, game: GameInfo, events: Sequence[ev.Event]) -> None:
        if any(isinstance(e, ev.TurnStarted) for e in events):
            self.deadlines.renew(game.id, self.bot.clock())

    @tasks.loop(seconds=TICK_SECONDS)
    async def loop(self) -> None:
        try:
            await self.tick()
        except Exception:  # one bad pass must not stop the reminders
            log.exception("reminder pass failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> int:
        """Send every reminder that is due and that this process claims. Returns how many."""
        now: datetime = self.bot.clock()
        sent = 0
        for d, kind in due_reminders(list(self.deadlines.by_game.values()), now):
            key = reminder_key(d, kind)
            if kind == "before" and any(k == reminder_key(d, "due") for k, _ in self.sent):
                continue
            if not await self.claims.claim_reminder(key, self.bot.process_id, now):
                continue
            channel = self.bot.get_channel(d.channel_id)
            if channel is None:
                try:
                    channel = await self.bot.fetch_channel(d.channel_id)
                except discord.HTTPException:
                    log.warning("reminder %s: channel %s is gone", key, d.channel_id)
                    continue
            text, ids = await reminder_text(self.bot.service, d, kind)
            mentions = discord.AllowedMentions(
                everyone=False,
                roles=False,
                replied_user=False,
                users=[discord.Object(i) for i in ids],
            )
            await channel.send(text, allowed_mentions=mentions)
            self.sent.append((key, d.channel_id))
            sent += 1
        return sent
