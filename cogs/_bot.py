"""The bot: a ``commands.Bot`` holding the game service, with every cog and the error funnel."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

import discord
from discord import app_commands
from discord.ext import commands

from cogs._errors import FunnelTree
from cogs.status import StatusBoard
from service.games import GameService

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def intents() -> discord.Intents:
    """Guilds only: slash commands, buttons and selects need no privileged intent and no
    message content (orders are options of slash commands, never read from messages)."""
    return discord.Intents(guilds=True)


class UmpireBot(commands.Bot):
    """Umpire on Discord: slash commands over one ``GameService``."""

    def __init__(
        self,
        service: GameService,
        *,
        dev_guild_id: int | None = None,
        sync: bool = False,
        clock: Clock = utc_now,
        reminders: bool = True,
        process_id: str = "umpire",
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=FunnelTree,
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=False, replied_user=False
            ),
            help_command=None,
            # Guild-only: the commands are offered in servers only, never in the bot's DMs nor
            # as a user install (FunnelTree refuses, plainly, any that arrive anyway).
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
        )
        self.service = service
        service.clock = clock  # deadlines re-armed by the service count from the bot's clock
        self.dev_guild_id = dev_guild_id
        self.sync_commands = sync
        self.clock = clock
        self.run_reminders = reminders
        self.process_id = process_id
        self.board = StatusBoard(self)  # the pinned status message of each game

    async def setup_hook(self) -> None:
        from cogs import _views, admin, combat, game, help, orders, reminders

        # Components that survive restarts: their meaning is in their custom_id.
        self.add_dynamic_items(_views.DecisionSelect)

        await self.add_cog(game.GameCog(self))
        await self.add_cog(orders.OrdersCog(self))
        await self.add_cog(combat.CombatCog(self))
        await self.add_cog(admin.AdminCog(self))
        await self.add_cog(help.HelpCog(self))
        await self.add_cog(reminders.RemindersCog(self, start=self.run_reminders))
        from cogs.edits import EditButton

        self.add_dynamic_items(EditButton)  # edit proposals' buttons answer after a restart
        if self.sync_commands:
            await self.sync_tree()

    async def sync_tree(self) -> int:
        """Register the slash commands with Discord; returns how many. Only on request
        (``python bot.py --sync``): Discord limits how often commands may be registered, and
        they only change with an upgrade. To ``dev_guild_id`` when set (shown at once), else
        globally (Discord may take up to an hour to show them everywhere)."""
        if self.dev_guild_id is not None:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally (may take up to an hour)", len(synced))
        return len(synced)
