"""Deadlines and reminders: a background loop over every active Discord game.

On each tick (``RemindersCog.tick``), for every game being played in a Discord channel:

- the early reminder (``BEFORE`` the deadline) and the reminder when it passes, mentioning the
  people the game waits for; each is claimed in the store per (game, kind, due time), so two bot
  processes sharing a database never send the same one twice. When the game waits for one
  person only, the reminder tells them they are the last one the game waits for;
- the deadline's action (``GameService.deadline_due``: claimed, once per arming; a deadline with
  a period re-arms for every new wait and repeats while the game waits only for the absent);
- ``follow_up`` for the game: the decision menus, the announcement of each wait that began
  (``cogs._follow.announce_waits``), the pinned status. Whatever a failed Discord call left
  undone is done again here, after a restart too.

Mentions ping only those who want a channel mention (``/game notify``) and are neither in their
quiet hours nor on vacation; those who asked for direct messages get the reminder by DM. Every
setting lives in the database, so a restart or a second bot process changes nothing.
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
from cogs._follow import follow_up, game_channel, mention, send_dm
from cogs._slash import slash_hints
from service import waits as wt
from service.games import GameInfo, GameService

log = logging.getLogger(__name__)

BEFORE = wt.REMIND_BEFORE  # the early reminder, this long before the deadline
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
    every: int | None = None


def lead(d: Deadline) -> timedelta:
    """How long before the deadline the early reminder goes (``service.waits.reminder_lead``)."""
    return wt.reminder_lead(d.every)


def due_reminders(deadlines: Sequence[Deadline], now: datetime) -> list[tuple[Deadline, Kind]]:
    """The reminders whose time has come (claimed or not)."""
    out: list[tuple[Deadline, Kind]] = []
    for d in deadlines:
        if d.paused:
            continue
        if now >= d.due:
            out.append((d, "due"))
        elif now >= d.due - lead(d):
            out.append((d, "before"))
    return out


def timestamp(when: datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone."""
    return f"<t:{int(when.timestamp())}:f> (<t:{int(when.timestamp())}:R>)"


def reminder_text(waits: Sequence[wt.Wait], d: Deadline, kind: Kind, now: datetime) -> str:
    """The reminder: whom the game waits for (as mentions) and what happens at the deadline."""
    parts = [f"{mention(w.person)} ({w.label})" for w in waits]
    what = ", ".join(parts) or "nobody"
    persons = {w.person for w in waits if w.person}
    if kind == "before":
        if len(persons) == 1:
            (who,) = persons
            return (
                f"⏰ Reminder: {mention(who)}, you are the last one the game waits for "
                f"({', '.join(w.label for w in waits)}). The deadline is {timestamp(d.due)}."
            )
        return f"⏰ Reminder: the deadline is {timestamp(d.due)}. Waiting for: {what}."
    tail = (
        "(At this deadline the bot reminds only; the game waits for the orders.)"
        if d.action == "remind"
        else "The referee answers for the absent players:"
    )
    if now < d.due:  # due early: everyone awaited is away (vacation) or just timed out
        return f"⌛ Waiting for: {what}, who is away. The referee answers for them now:"
    return f"⌛ The deadline {timestamp(d.due)} has passed. Waiting for: {what}. {tail}"


class RemindersCog(commands.Cog):
    """Sends the reminders; ``tick`` is one pass (the loop calls it; tests call it directly)."""

    def __init__(self, bot: Any, *, start: bool = True) -> None:
        self.bot = bot
        self.service: GameService = bot.service
        self.sent: list[tuple[str, int]] = []  # (key, channel id) sent by this process
        self.dms: list[tuple[int, str]] = []  # (user id, text) sent by DM by this process
        self._start = start

    async def cog_load(self) -> None:
        if self._start:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    async def games(self) -> list[GameInfo]:
        """The games being played in a Discord channel."""
        return [
            GameInfo.of(rec)
            for rec in await self.service.store.active_games()
            if rec.channel.isdigit()
        ]

    async def deadlines(self) -> list[Deadline]:
        """The stored deadlines of the games being played in a Discord channel."""
        out: list[Deadline] = []
        for game in await self.games():
            d = await self.service.store.get_deadline(game.id)
            if d is not None:
                out.append(
                    Deadline(game.id, int(game.channel), d.due_at, d.paused, d.action, d.every)
                )
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
        """One pass over every active Discord game. Returns how many reminders were posted."""
        self.service.process_id = self.bot.process_id
        sent = 0
        for game in await self.games():
            try:
                sent += await self._game(game)
            except Exception:  # one game's failure must not stop the others
                log.exception("reminder pass of game %s failed", game.id)
        return sent

    async def _game(self, game: GameInfo) -> int:
        now: datetime = self.bot.clock()
        await wt.arm_deadline(self.service, game.id, now)
        rec = await self.service.store.get_deadline(game.id)
        if rec is None:
            await follow_up(self.bot, game, None)
            return 0
        d = Deadline(game.id, int(game.channel), rec.due_at, rec.paused, rec.action, rec.every)
        waits = await wt.current_waits(self.service, game.id)
        sent = 0
        if due_reminders([d], now) == [(d, "before")] and await self.service.store.claim_reminder(
            game.id, "before", d.due, self.bot.process_id
        ):
            sent += await self._post(game, reminder_text(waits, d, "before", now), waits, now)
            self.sent.append((f"{game.id}:{d.due.isoformat()}:before", d.channel_id))
        # The deadline's action: when it passed, or at once for people on vacation.
        result = await self.service.deadline_due(game.id, now)
        if (result.data or {}).get("fired"):
            text = reminder_text(waits, d, "due", now)
            if result.answer:
                text = f"{text}\n{result.answer}"
            sent += await self._post(game, text, waits, now)
            self.sent.append((f"{game.id}:{d.due.isoformat()}:due", d.channel_id))
        await follow_up(self.bot, game, None)  # menus of decisions the action created, waits
        return sent

    async def _post(
        self, game: GameInfo, text: str, waits: Sequence[wt.Wait], now: datetime
    ) -> int:
        """Post a reminder in the game's channel; DM it to those who asked. Returns 1 if posted."""
        # Names, not ids (only the people awaited may ping); hints as slash commands.
        text = slash_hints(with_mentions(text, people_of(game)))[:1900]
        channel = await game_channel(self.bot, game)
        if channel is None:
            log.warning("reminder of game %s: channel %s is gone", game.id, game.channel)
            return 0
        persons = sorted({w.person for w in waits if w.person})
        prefs = wt.effective_prefs(await self.service.store.notify_prefs(persons), game.id, persons)
        away = await wt.away(self.service, persons, now)
        reachable = [
            p for p in persons if p not in away and not wt.in_quiet_hours(prefs[p], now)
        ]
        ping = [p for p in reachable if prefs[p].how in ("channel", "both") and p.isdigit()]
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False,
            users=[discord.Object(int(p)) for p in ping],
        )
        await channel.send(text, allowed_mentions=mentions)
        for p in reachable:
            if (
                prefs[p].how in ("dm", "both")
                and p.isdigit()
                and await send_dm(self.bot, int(p), text, channel)
            ):
                self.dms.append((int(p), text))
        return 1
