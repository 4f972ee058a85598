"""The follow-up work after any change of a game, recomputed from the stored game.

Whatever changed a game (an order by slash command, a click on a decision menu, a deadline
action, an admin change, an edit) the work that follows is the same and is done here, in one
place: post the menus of the battle decisions the game now waits for, announce the waits that
began (a plain-text line that mentions exactly the people awaited), and edit the pinned status
message. Each part reads the stored game, not the answer of the order, so it can be repeated:
the reminder loop calls ``follow_up`` for every active game on each tick, which re-does
whatever a failed Discord call left undone (after a restart too). Each part never raises: a
failure is logged and left for the next pass.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from service.games import GameInfo

if TYPE_CHECKING:
    from cogs._bot import UmpireBot

log = logging.getLogger(__name__)


async def game_channel(bot: UmpireBot, game: GameInfo) -> Any:
    """The game's Discord channel (or thread), or None if it is not a Discord game or gone."""
    import discord

    if not game.channel.isdigit():
        return None
    channel = bot.get_channel(int(game.channel))
    if channel is None:
        try:
            channel = await bot.fetch_channel(int(game.channel))
        except discord.HTTPException:
            return None
    return channel if hasattr(channel, "send") else None


async def post_menus(bot: UmpireBot, game: GameInfo, channel: Any) -> None:
    """Post the menu of each battle decision now owed; close menus no longer owed.

    Idempotent and resumable: the menus posted are recorded in the store (one per game and
    decision, claimed before posting), so a repeated pass, a restarted bot or a second process
    posts nothing twice, and a pass after a failure posts what is missing and closes what is
    answered.
    """
    from cogs._views import post_decisions

    try:
        await post_decisions(bot, game, channel)
    except Exception:
        log.exception("posting the decision menus of game %s failed", game.id)


async def announce_waits(bot: UmpireBot, game: GameInfo, channel: Any) -> None:
    """Mention, outside any embed, the people whose wait began (once per wait)."""
    del bot, game, channel  # built in issue 11, item 1


async def follow_up(bot: UmpireBot, game: GameInfo | None, channel: Any = None) -> None:
    """Everything owed after a change of ``game``, from the stored game. Never raises."""
    if game is None:
        return
    try:
        info = await bot.service.info(game.id)
    except Exception:
        log.exception("follow-up of game %s: cannot read it", game.id)
        return
    if channel is None or not hasattr(channel, "send"):
        channel = await game_channel(bot, info)
    if channel is not None:
        await post_menus(bot, info, channel)  # closes the open menus of a finished game too
    if channel is not None and info.status == "active":
        await announce_waits(bot, info, channel)
    await bot.board.refresh(info)
