"""``/help [topic]``: how to play, privately. The topics and their texts come from the service
(``service.help``), the same as the local table's ``help <topic>``, written here with the slash
commands' names; in a channel with a game they are that game's edition's orders."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import COLOUR_INFO, EMBED_LIMIT, MAX_CHOICES, channel_key, clip, umpire
from rules.engine import resolve_edition
from service import help as hp

log = logging.getLogger(__name__)


async def _edition(interaction: discord.Interaction[Any]) -> Any:
    game = await umpire(interaction).service.game_in(channel_key(interaction))
    return resolve_edition(game.edition) if game is not None else None


async def help_topics(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The topics of this channel's game (all editions' without one) matching what is typed."""
    try:
        offered = hp.topics(await _edition(interaction))
    except Exception:  # a hint only: the command itself answers any topic
        log.exception("help topics autocomplete failed")
        return []
    typed = " ".join(current.casefold().split())
    starts = [t for t in offered if t.startswith(typed)]
    inside = [t for t in offered if typed in t and t not in starts]
    return [app_commands.Choice(name=t, value=t) for t in [*starts, *inside][:MAX_CHOICES]]


class HelpCog(commands.Cog):
    """``/help``: always private, so asking never clutters the channel."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="help", description="How to play here: the orders with examples, turns, battles, dice"
    )
    @app_commands.describe(
        topic="An order (e.g. move) or a topic: turns, battles, dice, batch, game, editions"
    )
    @app_commands.autocomplete(topic=help_topics)
    async def help(self, interaction: discord.Interaction[Any], topic: str = "") -> None:
        # Reading the channel's game touches the database: defer (privately) first.
        await interaction.response.defer(ephemeral=True, thinking=True)
        edition = await _edition(interaction)
        text = hp.help_text(topic or None, edition, "slash")
        where = f" ({edition.rules.title})" if edition is not None else ""
        title = f"Help: {topic.strip()}" if topic.strip() else f"Help{where}"
        embed = discord.Embed(
            title=clip(title, 250), description=clip(text, EMBED_LIMIT, keep_last=1),
            colour=COLOUR_INFO,
        )
        await interaction.followup.send(
            embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
