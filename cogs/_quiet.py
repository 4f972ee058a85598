"""Quiet reads: ``/game status``, ``/game map``, ``/odds``, ``/luck`` answer only the person who
asked, unless they pass ``public:true`` to share the answer in the channel.

A read may take a while (a map is drawn, odds are computed), so it is deferred first, always
privately: a refusal ("no game here") then stays private whatever ``public`` says, and a shared
answer is posted in the channel (``send_public``'s ``private_defer`` path), the private
"thinking…" closed with a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from cogs._common import ALLOWED, result_embed, send_public, show, umpire
from cogs.reminders import timestamp
from service.games import GameInfo, Result
from service.store import DeadlineRecord

PUBLIC_HELP = "True: post the answer in the channel for everyone (default: only you see it)"

ACTIONS = {
    "remind": "the players are reminded",
    "defaults": "the referee answers the pending battle decisions by default",
    "end": "the referee answers battle decisions by default, then ends the phase",
}


async def begin(interaction: discord.Interaction[Any], public: bool) -> None:
    """Defer privately (a refusal stays private); a shared answer goes to the channel."""
    if interaction.response.is_done():
        return
    interaction.extras["private_defer"] = public
    await interaction.response.defer(ephemeral=True, thinking=True)


async def reply(
    interaction: discord.Interaction[Any],
    *,
    public: bool,
    embed: discord.Embed | None = None,
    content: str = "",
    files: Sequence[discord.File] = (),
    game: GameInfo | None = None,
) -> None:
    """The answer of a read: in the channel if ``public``, else to the asker alone."""
    if public:
        await send_public(interaction, embed=embed, content=content, files=files, game=game)
        return
    kwargs: dict[str, Any] = {"ephemeral": True, "allowed_mentions": ALLOWED}
    if embed is not None:
        kwargs["embed"] = embed
    if files:
        kwargs["files"] = list(files)
    if interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content or None, **kwargs)


async def read(
    interaction: discord.Interaction[Any],
    result: Result,
    title: str,
    *,
    public: bool,
    files: Sequence[discord.File] = (),
) -> bool:
    """Show a read's ``Result``: a refusal privately, the answer as ``public`` says."""
    if not result.ok:
        await show(interaction, result, title)
        return False
    embed = result_embed(result, title, str(interaction.user.id))
    await reply(interaction, public=public, embed=embed, files=files, game=result.game)
    return True


def deadline_text(d: DeadlineRecord | None) -> str:
    """The deadline as people read it: when, and what happens then; paused; or none."""
    if d is None:
        return "none (the owner sets one with `/admin deadline`)"
    if d.paused:
        return "paused (`/admin resume` starts it again)"
    renew = " It renews at each new turn." if d.every else ""
    return f"{timestamp(d.due_at)}: then {ACTIONS.get(d.action, d.action)}.{renew}"


async def status_embed(interaction: discord.Interaction[Any], result: Result) -> discord.Embed:
    """``/game status``: the service's status and the game's deadline."""
    embed = result_embed(result, "Game status", str(interaction.user.id))
    if result.game is not None and result.game.status != "lobby":
        d = await umpire(interaction).service.deadline(result.game.id)
        embed.add_field(name="Deadline", value=deadline_text(d), inline=False)
    return embed


__all__ = ["PUBLIC_HELP", "begin", "deadline_text", "read", "reply", "status_embed"]
