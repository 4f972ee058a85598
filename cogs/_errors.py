"""The one error funnel of the Discord front end.

Every slash command, autocomplete and component callback ends here when it raises: a refusal
the rules or the service explain (``RulesError``, ``ServiceError``) goes to the person who asked,
privately and in plain language; anything else is logged with its traceback and the person sees
only ``SOMETHING_WENT_WRONG`` (the service changes nothing on an error, so that is the truth).

Unless the service already accepted something in this interaction (``recorded``: an order was
stored, then showing it failed, e.g. the interaction expired or Discord answered 403 or 5xx):
then the person is told the truth, ``Your order was recorded; posting the result failed: ...``,
and the follow-up work (menus, status) is redone from the stored game (``cogs._follow``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from cogs._slash import slash_hints
from rules.errors import RulesError
from service.games import GameIsCorrupt, ServiceError
from service.store import CorruptGame

log = logging.getLogger(__name__)

SOMETHING_WENT_WRONG = "Something went wrong; nothing was changed."
GUILD_ONLY = (
    "Umpire referees games in servers only: use its commands in the server channel or thread "
    "where your game is (or where you want to start one)."
)
RECORDED = "umpire_recorded"  # interaction.extras: what the service accepted, if anything
_OWNER_ID = re.compile(r"owner \((\d+)\)")


def recorded(interaction: discord.Interaction[Any], what: str = "order") -> None:
    """Note that the service accepted and stored ``what`` in this interaction."""
    interaction.extras[RECORDED] = what


def failure_reason(error: BaseException) -> str:
    """Why showing an answer failed, in words (Discord's status and message)."""
    if isinstance(error, discord.HTTPException):
        if error.code == 10062:
            return "the interaction expired (Discord allows 3 seconds to answer)"
        if error.status == 403:
            return f"the bot lacks a permission in this channel (403: {error.text or 'Forbidden'})"
        if error.status >= 500:
            return f"Discord had an error ({error.status}: {error.text or 'server error'})"
        return f"Discord refused it ({error.status}: {error.text or 'error'})"
    if isinstance(error, TimeoutError):
        return "Discord did not answer in time"
    return f"an unexpected error ({type(error).__name__})"


def recorded_text(what: str, error: BaseException) -> str:
    return (
        f"Your {what} was recorded; posting the result failed: {failure_reason(error)}. "
        "The game's menus and status are brought up to date from the stored game."
    )


def unwrap(error: BaseException) -> BaseException:
    """The exception a command callback raised, out of discord.py's wrappers."""
    while True:
        inner: BaseException | None = None
        if isinstance(error, app_commands.CommandInvokeError):
            inner = error.original
        elif isinstance(error, app_commands.TransformerError):
            inner = error.__cause__
        if inner is None:
            return error
        error = inner


def message_for(error: BaseException) -> str:
    """What the person is told about ``error``: a refusal's reason, never a traceback."""
    error = unwrap(error)
    if isinstance(error, CorruptGame | GameIsCorrupt):
        # The game's stored log fails its checks; the text names its owner and the repair.
        return _OWNER_ID.sub(r"owner (<@\1>)", str(error))
    if isinstance(error, RulesError | ServiceError):
        return str(error) or "Refused; nothing was changed."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this command here."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} seconds."
    return SOMETHING_WENT_WRONG


async def tell(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` privately about ``error``, logging anything unexpected."""
    inner = unwrap(error)
    text = message_for(inner)
    what = interaction.extras.get(RECORDED)
    if what and text == SOMETHING_WENT_WRONG:
        # The service stored it; only showing it failed: say so, never "nothing was changed".
        text = recorded_text(str(what), inner)
        name = interaction.command.qualified_name if interaction.command else "interaction"
        log.error(
            "/%s: recorded, but showing it failed", name,
            exc_info=(type(inner), inner, inner.__traceback__),
        )
    elif text == SOMETHING_WENT_WRONG:
        name = interaction.command.qualified_name if interaction.command else "interaction"
        log.error("/%s failed", name, exc_info=(type(inner), inner, inner.__traceback__))
    text = slash_hints(text)  # a refusal's hints name the slash commands
    if interaction.type == discord.InteractionType.autocomplete:
        return  # an autocomplete cannot show a message; the command itself re-validates
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException:  # the interaction expired; the log has the details
        log.warning("could not tell the user about an error", exc_info=True)


class FunnelTree(app_commands.CommandTree[Any]):
    """A command tree whose errors all go through ``tell``, and which runs nothing outside a
    server (the commands are not offered there; an old registration could still send one)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.guild_id is not None:
            return True
        if interaction.type != discord.InteractionType.autocomplete:
            await interaction.response.send_message(GUILD_ONLY, ephemeral=True)
        return False

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await tell(interaction, error)


class FunnelView(discord.ui.View):
    """A view whose callback errors all go through ``tell``."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any]
    ) -> None:
        del item
        await tell(interaction, error)
