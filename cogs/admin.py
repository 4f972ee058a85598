"""``/admin pause|resume|deadline|substitute|kick``: for the game's owner and members with
Manage Server; public and logged.

Deadlines and pauses are kept by the reminders (``cogs.reminders``): a pause stops the reminders
of the game. Substitute and kick change seats through the service (P-1 is checked there).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import channel_key, person, send_private, send_public, umpire
from cogs.reminders import Deadline, RemindersCog, timestamp
from service.commands import NO_GAME
from service.games import GameInfo

log = logging.getLogger(__name__)

class AdminCog(
    commands.GroupCog, group_name="admin", group_description="Game admin (owner or Manage Server)"
):
    """Admin commands of the channel's game."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def _game(self, interaction: discord.Interaction[Any]) -> GameInfo | None:
        """The channel's game if the person may administer it; else tell them why not."""
        game = await umpire(interaction).service.game_in(channel_key(interaction))
        if game is None:
            await send_private(interaction, NO_GAME)
            return None
        perms = interaction.permissions
        if person(interaction.user) != game.owner and not perms.manage_guild:
            await send_private(
                interaction,
                f"Only the game's owner (<@{game.owner}>) or members with Manage Server "
                "can do that.",
            )
            return None
        return game

    def _reminders(self) -> RemindersCog:
        cog = self.bot.get_cog("RemindersCog")
        assert isinstance(cog, RemindersCog)
        return cog

    async def _announce(
        self, interaction: discord.Interaction[Any], game: GameInfo, text: str
    ) -> None:
        log.info("admin %s in game %s: %s", interaction.user.id, game.id, text)
        embed = discord.Embed(title="Admin", description=f"<@{interaction.user.id}>: {text}")
        embed.set_footer(text=f"Game {game.id}")
        await send_public(interaction, embed=embed, game=None)

    @app_commands.command(name="deadline", description="Set the deadline of the current wait")
    @app_commands.describe(
        hours="Hours from now", every_turn="Renew it by the same time at each new turn"
    )
    async def deadline(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, 0.1, 336.0],
        every_turn: bool = False,
    ) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        bot = umpire(interaction)
        period = timedelta(hours=hours)
        due = bot.clock() + period
        assert interaction.channel_id is not None
        self._reminders().deadlines.set(
            Deadline(game.id, interaction.channel_id, due, period if every_turn else None)
        )
        renew = " It renews at each new turn." if every_turn else ""
        await self._announce(interaction, game, f"deadline set to {timestamp(due)}.{renew}")

    @app_commands.command(name="pause", description="Pause the game's deadline and reminders")
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        if self._reminders().deadlines.pause(game.id, True) is None:
            await send_private(
                interaction, "This game has no deadline to pause ('/admin deadline')."
            )
            return
        await self._announce(interaction, game, "paused: no reminders until '/admin resume'.")

    @app_commands.command(name="resume", description="Resume the game's deadline and reminders")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        if self._reminders().deadlines.pause(game.id, False) is None:
            await send_private(
                interaction, "This game has no deadline to resume ('/admin deadline')."
            )
            return
        await self._announce(interaction, game, "resumed.")

    @app_commands.command(name="substitute", description="Give a power's seat to another member")
    @app_commands.describe(power="The power", member="Who takes it over")
    async def substitute(
        self, interaction: discord.Interaction[Any], power: str, member: discord.Member
    ) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        result = await umpire(interaction).service.substitute(
            game.id, person(interaction.user), power, person(member), admin=True
        )
        if not result.ok:
            await send_private(interaction, result.error or "Nothing was changed.")
            return
        await self._announce(interaction, game, result.answer)

    @app_commands.command(name="kick", description="Remove a member from the game")
    @app_commands.describe(member="Who leaves")
    async def kick(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        result = await umpire(interaction).service.kick(
            game.id, person(interaction.user), person(member), admin=True
        )
        if not result.ok:
            await send_private(interaction, result.error or "Nothing was changed.")
            return
        await self._announce(interaction, game, result.answer)
