"""The pinned status message of each game, edited in place.

One message per game, posted and pinned when the game starts: round, power, phase, whom the game
waits for (mentions of the seat holders), the log's head (``Log #412 · 3f9a1c2e``, recorded as
published) and the deadline as a Discord timestamp. After every
accepted order, undo, battle decision, admin change and deadline action, the same message is
edited (``StatusBoard.refresh``).

Where the message id is kept: the game store has no place for it (yet), so the bot keeps a map
game id → message id in memory. After a restart the map is empty; ``refresh`` then re-finds the
message among the channel's pins by its author (the bot), its title (``TITLE``) and its footer
(``Game <id>``), and posts and pins a new one only if none is found. Should the pin fail (the bot
lacks Pin Messages / Manage Messages) the message is still kept up to date, unpinned.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs._common import COLOUR_INFO, allowed, with_mentions
from rules.engine import pending, phase_name
from rules.state import GameState
from service.games import GameInfo, GameService, ServiceError, head_line
from service.store import StoreError

log = logging.getLogger(__name__)

TITLE = "Umpire: game status"


def footer(game_id: str) -> str:
    return f"Game {game_id}"


def discord_time(when: Any) -> str:
    """A relative Discord timestamp (``in 3 hours``), shown in each reader's time zone."""
    return f"<t:{int(when.timestamp())}:R>"


async def status_embed(
    service: GameService,
    game: GameInfo,
    *,
    state: GameState | None = None,
    head: tuple[int, str] | None = None,
) -> discord.Embed:
    """The status of ``game``: round, power, phase, whom it waits for, the deadline.
    ``state``, ``head``: as a change's answer carries them (nothing is loaded), else read."""
    lines: list[str] = []
    if state is None:
        try:
            state = await service.state(game.id)
        except ServiceError as e:
            lines.append(str(e))
    if state is not None:
        lines.append(f"**Round** {state.round}")
        lines.append(f"**Power** {state.power}")
        lines.append(f"**Phase** {phase_name(state)}")
        if state.winner:
            lines.append(f"**Game over**: the {state.winner} won.")
        elif state.ended:
            lines.append("**Game over**: " + ("a draw." if state.ended == "draw" else "cancelled."))
        else:
            waits = []
            for p in pending(state):
                holder = game.seats.get(p.power, "")
                what = phase_name(state) if p.turn else p.what
                if p.space and not p.turn:
                    what += f" in {p.space}"
                who = f"<@{holder}>" if holder.isdigit() else holder or p.power
                waits.append(f"{who} ({p.power}: {what})")
            lines.append("**Waiting for** " + (", ".join(waits) or "nobody"))
        # The log's head, recorded as published: a log later cut or rewritten is caught.
        try:
            seq, h = await service.publish_head(game.id, head=head)
            lines.append(f"**Log** {head_line(seq, h)[4:]}")
        except StoreError as e:  # damaged since the state was read: say so
            lines.append(str(e))
    d = await service.deadline(game.id)
    lines.extend(await away_lines(service, game, d))
    if d is None:
        lines.append("**Deadline** none")
    elif d.paused:
        lines.append("**Deadline** paused")
    else:
        lines.append(f"**Deadline** {discord_time(d.due_at)} ({d.action})")
    if service.web_links is not None:  # the live board (WEB_ENABLED); '/game link' to play
        url = await service.web_links.public_link(game.id)
        lines.append(f"**Board** {url} (`/game link`: your private link to play there)")
    embed = discord.Embed(
        title=TITLE,
        description=with_mentions("\n".join(lines), game.seats.values()),
        colour=COLOUR_INFO,
    )
    embed.set_footer(text=footer(game.id))
    return embed


async def away_lines(service: GameService, game: GameInfo, d: Any) -> list[str]:
    """Who of the seated players is on vacation (now or declared ahead), and who covers them."""
    from service.waits import away

    people = sorted({p for p in game.seats.values() if p})
    now = service.clock()
    current = await away(service, people, now)
    ahead = [v for v in await service.store.vacations(people) if v.starts_at > now]
    if not current and not ahead:
        return []
    if d is not None and d.action in ("defaults", "end") and not d.paused:
        cover = f"the deadline action ({d.action}) answers for their seats"
    else:
        cover = "no deadline action covers their seats: the game waits for them"
    out = []
    for v in sorted(current.values(), key=lambda v: v.ends_at):
        out.append(f"**Away** <@{v.person}> until {discord_time(v.ends_at)}: {cover}")
    for v in sorted(ahead, key=lambda v: v.starts_at):
        out.append(
            f"**Away** <@{v.person}> from {discord_time(v.starts_at)} until "
            f"{discord_time(v.ends_at)}"
        )
    return out


def _is_status(message: discord.Message, me: Any, game_id: str) -> bool:
    if me is None or message.author.id != me.id or not message.embeds:
        return False
    e = message.embeds[0]
    return e.title == TITLE and (e.footer.text or "") == footer(game_id)


class StatusBoard:
    """Keeps each game's pinned status message up to date (``refresh`` after each change)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.messages: dict[str, int] = {}  # game id -> status message id (this process)
        # game id -> the embed last shown: the reminder loop refreshes every game on each
        # tick, and an unchanged status is not edited again (one Discord call saved per game).
        self.shown: dict[str, Any] = {}

    async def _channel(self, game: GameInfo) -> Any:
        if not game.channel.isdigit():
            return None
        channel = self.bot.get_channel(int(game.channel))
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(int(game.channel))
            except discord.HTTPException:
                return None
        return channel

    async def find(self, channel: Any, game: GameInfo) -> discord.Message | None:
        """The game's status message: by the id kept, else among the pins (after a restart)."""
        mid = self.messages.get(game.id)
        if mid is not None:
            try:
                msg: discord.Message = await channel.fetch_message(mid)
                return msg
            except discord.HTTPException:
                self.messages.pop(game.id, None)
        try:
            async for msg in channel.pins():
                if _is_status(msg, self.bot.user, game.id):
                    self.messages[game.id] = msg.id
                    return msg
        except discord.HTTPException:
            log.warning("could not read the pins of channel %s", game.channel, exc_info=True)
        return None

    async def refresh(
        self,
        game: GameInfo | None,
        *,
        state: GameState | None = None,
        head: tuple[int, str] | None = None,
    ) -> discord.Message | None:
        """Edit the game's status message, or post and pin it (``state``, ``head``: as a change's
        answer carries them). Never raises (a hint only)."""
        if game is None:
            return None
        try:
            info = await self.bot.service.info(game.id)
            if info.status == "lobby":
                return None
            channel = await self._channel(info)
            if channel is None or not hasattr(channel, "send"):
                return None
            embed = await status_embed(self.bot.service, info, state=state, head=head)
            if info.id in self.messages and self.shown.get(info.id) == embed.to_dict():
                return None
            msg = await self.find(channel, info)
            if msg is not None:
                edited: discord.Message = await msg.edit(
                    embed=embed, allowed_mentions=allowed(None)
                )
                self.shown[info.id] = embed.to_dict()
                return edited
            posted: discord.Message = await channel.send(
                embed=embed, allowed_mentions=allowed(None)
            )
            self.messages[info.id] = posted.id
            self.shown[info.id] = embed.to_dict()
            try:
                await posted.pin(reason="Umpire: the game's status")
            except discord.HTTPException:
                log.warning("could not pin the status of game %s", info.id, exc_info=True)
            return posted
        except Exception:  # the status is a convenience: never fail the order over it
            log.exception("status message of game %s failed", game.id)
            return None
