"""A game's whole life in Discord: ``/game leave|cancel|concede|draw`` and the server's games,
``/game list`` and ``/game mine``.

The service decides everything (who may leave, whose votes are missing, when the game ends);
this module only words its answers for Discord: channels as channel mentions with a jump link,
people as mentions (Discord shows them as names) in messages that ping nobody
(``allowed_mentions`` none), deadlines as Discord timestamps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord

from cogs._common import CONTENT_LIMIT, clip, defer_first, person, send_public, umpire
from cogs._follow import follow_up
from cogs._slash import slash_hints
from cogs._views import play
from service.games import CORRUPT_LINE

NO_PINGS = discord.AllowedMentions.none()


def guild_key(interaction: discord.Interaction[Any]) -> str:
    """The service's server: the Discord guild id ("" outside a server)."""
    return str(interaction.guild_id or "")


def jump_link(guild: str, channel: str) -> str:
    """A link that opens the channel (Discord's message-less jump URL)."""
    return f"https://discord.com/channels/{guild}/{channel}"


def _who(person_id: str) -> str:
    return f"<@{person_id}>" if person_id.isdigit() else person_id or "an open seat"


def _when(iso: str | None) -> str:
    if not iso:
        return "no deadline"
    return f"deadline <t:{int(datetime.fromisoformat(iso).timestamp())}:R>"


def _where(row: Mapping[str, Any]) -> str:
    chan = str(row["channel"])
    here = f"<#{chan}>" if chan.isdigit() else chan
    link = jump_link(str(row["guild"]), chan) if chan.isdigit() and row["guild"] else ""
    return f"{here} ({link})" if link else here


def list_line(row: Mapping[str, Any]) -> str:
    """One game of ``/game list``: channel, edition, round, whose turn, deadline, jump link."""
    head = f"{_where(row)} · {row['title']}"
    if row["status"] == "lobby":
        return f"{head} · waiting for players to join and the owner to start"
    if row.get("corrupt"):
        return f"{head} · " + slash_hints(CORRUPT_LINE.format(owner=f"<@{row['owner']}>"))
    if row["result"]:
        when = f" · round {row['round']}" if row["round"] is not None else ""
        return f"{head}{when} · over: {row['result']}"
    waits = ", ".join(f"**{w['power']}** ({_who(w['person'])}): {w['what']}"
                      for w in row["waiting"]) or "nobody"
    paused = " (paused)" if row.get("paused") else ""
    return f"{head} · round {row['round']} · waiting for {waits} · {_when(row['deadline'])}{paused}"


def mine_line(row: Mapping[str, Any]) -> str:
    """One game of ``/game mine``: where, my powers, what waits for me now."""
    held = ", ".join(row["powers"]) or "no seat (you own it)"
    awaited: Sequence[Mapping[str, Any]] = row["awaited"]
    now = "; ".join(f"{w['power']}: {w['what']}" if w["power"] else str(w["what"])
                    for w in awaited) or "nothing right now"
    return f"{list_line(row)}\n  you hold {held} · awaited now: {now}"


async def life(interaction: discord.Interaction[Any], text: str) -> None:
    """Leave, cancel, concede, draw: the service's answer, then the follow-up of the change
    (the pinned status says when the game is over)."""
    result = await play(interaction, text)
    # A game that never started has no status message to edit (and gets none).
    if result.ok and result.game is not None and (result.game.status == "active"
                                                  or result.events):
        await follow_up(umpire(interaction), result.game, interaction.channel,
                        state=result.after, head=result.head)


async def list_games(interaction: discord.Interaction[Any], finished: bool, public: bool) -> None:
    await defer_first(interaction)
    bot = umpire(interaction)
    result = await bot.service.games_of(guild_key(interaction), finished=finished)
    rows = (result.data or {}).get("games", [])
    if rows:
        head = "Games in this server" + (" (finished ones too)" if finished else "") + ":"
        text = "\n".join([head, *(f"- {list_line(r)}" for r in rows)])
    else:
        more = "" if finished else " (finished ones: `/game list finished:True`)"
        text = f"No games in this server yet{more}; start one with `/game new`."
    await _send(interaction, text, private=not public)


async def my_games(interaction: discord.Interaction[Any]) -> None:
    await defer_first(interaction)
    bot = umpire(interaction)
    result = await bot.service.mine(guild_key(interaction), person(interaction.user))
    rows = (result.data or {}).get("games", [])
    if rows:
        text = "\n".join(["Your games in this server:", *(f"- {mine_line(r)}" for r in rows)])
    else:
        text = "You hold no seat in a game in this server; `/game list` shows its games."
    await _send(interaction, text, private=True)


async def _send(interaction: discord.Interaction[Any], text: str, *, private: bool) -> None:
    """Plain text that pings nobody: the names are mentions only to be shown as names."""
    text = clip(text, CONTENT_LIMIT)
    if not private:  # after a private defer, a public answer is a follow-up of its own
        await send_public(interaction, content=text)
        return
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=private, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(text, ephemeral=private,
                                                allowed_mentions=NO_PINGS)


__all__ = ["guild_key", "jump_link", "life", "list_games", "my_games"]
