"""Deadlines and reminders: a background loop that reminds the players a game waits for, before
its deadline and when it passes, with a mention in the game's channel, and by direct message to
those who asked for it (``/game remind dm:True``; kept in memory by the bot).

Deadlines live in the game store (``GameService.set_deadline``/``pause``/``resume``; set with
``/admin deadline``), so a restarted bot keeps them. Each reminder is *claimed* in the store per
(game, kind, due time) before it is sent (``store.claim_reminder``: a unique key in the database),
so two bot processes sharing a database never send the same one twice. When a deadline passes,
``GameService.deadline_due`` claims it and carries out the game's action (remind, defaults, end);
only the process whose claim succeeded posts it. A deadline with a period renews when a turn
begins.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

import discord
from discord.ext import commands, tasks

from cogs._common import people_of, with_mentions
from cogs._follow import follow_up
from cogs._slash import slash_hints
from rules import events as ev
from service.games import GameInfo, GameService, ServiceError

log = logging.getLogger(__name__)

BEFORE = timedelta(hours=2)  # the early reminder, this long before the deadline
TICK_SECONDS = 60.0

Kind = Literal["before", "due"]


@dataclass(frozen=True)
class Deadline:
    """A game's deadline as the cog sees it: the store's record and the game's channel."""

    game_id: str
    channel_id: int
    due: datetime
    paused: bool = False
    action: str = "remind"


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
    # The label names the phase ("Combat Move"), never the engine's id ("turn (combat_move)").
    parts = [f"{w['power']} ({w.get('label') or w['what']})" for w in people]
    mentions = " ".join(f"<@{i}>" for i in ids)
    what = ", ".join(parts) or "nobody"
    if kind == "before":
        text = f"⏰ {mentions} Reminder: the deadline is {timestamp(d.due)}. Waiting for: {what}."
    else:
        text = (
            f"⌛ {mentions} The deadline {timestamp(d.due)} has passed. Waiting for: {what}. "
            + (
                "(At this deadline the bot reminds only; the game waits for the orders.)"
                if d.action == "remind"
                else "The referee answered for the absent players:"
            )
        )
    return text.replace("  ", " "), ids


class RemindersCog(commands.Cog):
    """Sends the reminders; ``tick`` is one pass (the loop calls it; tests call it directly)."""

    def __init__(self, bot: Any, *, start: bool = True) -> None:
        self.bot = bot
        self.service: GameService = bot.service
        self.sent: list[tuple[str, int]] = []  # (key, channel id) sent by this process
        self.dms: list[tuple[int, str]] = []  # (user id, text) sent by DM by this process
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
            await self.service.renew_deadline(game.id, self.bot.clock())

    async def deadlines(self) -> list[Deadline]:
        """The stored deadlines of the games bound to a Discord channel."""
        out: list[Deadline] = []
        for d in await self.service.store.deadlines():
            try:
                info = await self.service.info(d.game_id)
            except ServiceError:
                continue
            if info.status != "active" or not info.channel.isdigit():
                continue
            out.append(Deadline(d.game_id, int(info.channel), d.due_at, d.paused, d.action))
        return out

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
        for d, kind in due_reminders(await self.deadlines(), now):
            key = f"{d.game_id}:{d.due.isoformat()}:{kind}"
            extra = ""
            if kind == "before":
                claimed = await self.service.store.claim_reminder(
                    d.game_id, "before", d.due, self.bot.process_id
                )
                if not claimed:
                    continue
            else:
                self.service.process_id = self.bot.process_id
                result = await self.service.deadline_due(d.game_id, now)
                if not (result.data or {}).get("fired"):
                    continue
                extra = result.answer
            channel = self.bot.get_channel(d.channel_id)
            if channel is None:
                try:
                    channel = await self.bot.fetch_channel(d.channel_id)
                except discord.HTTPException:
                    log.warning("reminder %s: channel %s is gone", key, d.channel_id)
                    continue
            text, ids = await reminder_text(self.bot.service, d, kind)
            if extra:
                text = f"{text}\n{extra}"[:1900]
            # Names, not ids (only ``ids`` may ping); hints as slash commands.
            text = slash_hints(with_mentions(text, people_of(await self.service.info(d.game_id))))
            mentions = discord.AllowedMentions(
                everyone=False,
                roles=False,
                replied_user=False,
                users=[discord.Object(i) for i in ids],
            )
            await channel.send(text, allowed_mentions=mentions)
            self.sent.append((key, d.channel_id))
            sent += 1
            await self.direct(ids, channel, text)
            if kind == "due":
                await follow_up(self.bot, await self.service.info(d.game_id), channel)
        return sent

    async def direct(self, ids: Sequence[int], channel: Any, text: str) -> int:
        """DM the reminder to those of ``ids`` who asked for it (``/game remind dm:True``).

        The preference is kept in memory by the bot (``UmpireBot.dm_reminders``): a restart
        forgets it, and the channel mention is always sent. A closed DM is skipped, logged.
        """
        wanted: set[str] = getattr(self.bot, "dm_reminders", set())
        where = getattr(channel, "jump_url", "") or f"<#{getattr(channel, 'id', '')}>"
        done = 0
        for i in ids:
            if str(i) not in wanted:
                continue
            try:
                user = self.bot.get_user(i) or await self.bot.fetch_user(i)
                await user.send(
                    f"{text}\n({where})"[:1900], allowed_mentions=discord.AllowedMentions.none()
                )
                self.dms.append((i, text))
                done += 1
            except discord.HTTPException:
                log.warning("could not DM reminder to %s", i, exc_info=True)
        return done
