"""``/admin pause|resume|deadline|substitute|kick|edit|repair``: for the game's owner and members
with Manage Server; public and logged (``/admin repair``: the way out of a corrupt log).

Deadlines and pauses are kept by the game service in its store (``GameService.set_deadline``,
``pause``, ``resume``); ``cogs.reminders`` sends the reminders and runs the deadline action.
Substitute and kick change seats through the service (P-1 is checked there). ``/admin edit``
proposes a game-master edit, applied once a player of the other side confirms it with the button
posted by ``cogs.edits``.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs._common import (
    channel_key,
    defer_first,
    people_of,
    person,
    send_private,
    send_public,
    umpire,
    with_mentions,
)
from cogs._errors import recorded
from cogs._follow import follow_up
from cogs._slash import slash_hints
from cogs.reminders import timestamp
from service.commands import no_game
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
        await defer_first(interaction)
        game = await umpire(interaction).service.game_in(channel_key(interaction))
        if game is None:
            await send_private(interaction, no_game())
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

    @staticmethod
    def _named(game: GameInfo, text: str, *extra: str) -> str:
        """The service's text with each person's id shown as a mention (their name)."""
        return with_mentions(text, people_of(game, extra))

    async def _announce(
        self, interaction: discord.Interaction[Any], game: GameInfo, text: str
    ) -> None:
        log.info("admin %s in game %s: %s", interaction.user.id, game.id, text)
        recorded(interaction, "change")  # stored: a failure to post it below is told as such
        # Mentions in an embed show names and never ping.
        text = self._named(game, slash_hints(text), person(interaction.user))
        embed = discord.Embed(title="Admin", description=f"<@{interaction.user.id}>: {text}")
        embed.set_footer(text=f"Game {game.id}")
        await send_public(interaction, embed=embed, game=None)
        await follow_up(umpire(interaction), game, interaction.channel)

    @app_commands.command(name="deadline", description="Set the deadline of the current wait")
    @app_commands.describe(
        hours="Hours from now",
        every_wait="Re-arm it by the same time for each new wait (each phase, each decision)",
        every_turn="The same as every_wait (its older name)",
        action="At the deadline: remind only, answer battle decisions by default, or end the phase",
    )
    async def deadline(
        self,
        interaction: discord.Interaction[Any],
        hours: app_commands.Range[float, 0.1, 336.0],
        every_turn: bool = False,
        action: Literal["remind", "defaults", "end"] = "remind",
        every_wait: bool = False,
    ) -> None:
        every_turn = every_turn or every_wait
        game = await self._game(interaction)
        if game is None:
            return
        bot = umpire(interaction)
        text = f"{round(hours * 3600)}s {action}" + (" every" if every_turn else "")
        result = await bot.service.set_deadline(
            game.id, person(interaction.user), text, admin=True, now=bot.clock()
        )
        if not result.ok:
            why = result.error or "Nothing was changed."
            await send_private(interaction, self._named(game, why))
            return
        d = await bot.service.deadline(game.id)
        assert d is not None
        renew = (
            " It re-arms for each new wait (each phase, each decision); after acting for an "
            "absent player it acts again at once while the game waits only for them."
            if every_turn
            else ""
        )
        await self._announce(
            interaction, game, f"deadline set to {timestamp(d.due_at)} ({action}).{renew}"
        )

    @app_commands.command(name="pause", description="Pause the game's deadline and reminders")
    async def pause(self, interaction: discord.Interaction[Any]) -> None:
        await self._pause(interaction, True)

    @app_commands.command(name="resume", description="Resume the game's deadline and reminders")
    async def resume(self, interaction: discord.Interaction[Any]) -> None:
        await self._pause(interaction, False)

    async def _pause(self, interaction: discord.Interaction[Any], pause: bool) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        bot = umpire(interaction)
        how = bot.service.pause if pause else bot.service.resume
        result = await how(game.id, person(interaction.user), admin=True, now=bot.clock())
        if not result.ok:
            why = result.error or "Nothing was changed."
            await send_private(interaction, self._named(game, why))
            return
        if pause:
            await self._announce(interaction, game, "paused: no reminders until `/admin resume`.")
        else:
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
            text = self._named(game, result.error or "Nothing was changed.", person(member))
            await send_private(interaction, text)
            return
        await self._announce(interaction, game, self._named(game, result.answer, person(member)))

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
            text = self._named(game, result.error or "Nothing was changed.", person(member))
            await send_private(interaction, text)
            return
        await self._announce(interaction, game, self._named(game, result.answer, person(member)))

    @app_commands.command(
        name="repair", description="Repair a corrupt log: cut it before the damage, or accept it"
    )
    @app_commands.describe(
        how="truncate: drop the first damaged order and every later one (they are given again); "
        "reseal: accept the stored events as they are",
    )
    async def repair(
        self, interaction: discord.Interaction[Any], how: Literal["truncate", "reseal"]
    ) -> None:
        game = await self._game(interaction)
        if game is None:
            return
        bot = umpire(interaction)
        result = await bot.service.resolve_corruption(
            game.id, person(interaction.user), how, admin=True
        )
        if not result.ok:
            await send_private(interaction, self._named(game, result.error or "Refused."))
            return
        await self._announce(interaction, game, f"repair ({how}): {result.answer}")

    # --- game-master edits (cogs.edits has the proposal message and its buttons) -----------
    @app_commands.command(
        name="edit", description="Propose an edit (units, owner, money); the other side confirms"
    )
    @app_commands.describe(
        change="add|remove|move <units> in|from <space> [to <space>], owner <territory> <power>, "
        "money <power> <n>",
    )
    async def edit(self, interaction: discord.Interaction[Any], change: str) -> None:
        from cogs.edits import post_proposal
        from rules.errors import RulesError
        from service import edits
        from service import language as ps

        game = await self._game(interaction)
        if game is None:
            return
        text = change.strip()
        if not text.casefold().startswith("edit"):
            text = f"edit {text}"
        try:
            cmd = ps.parse(text, ps.names_for(game.edition))
        except RulesError as e:
            await send_private(interaction, _slash_edit_hint(str(e)))
            return
        if not isinstance(cmd, ps.EditPropose):
            await send_private(
                interaction,
                "/admin edit proposes a change: add, remove, move, owner or money (e.g. 'add 2 "
                "infantry in <space>'). Confirm or reject a proposal with the buttons under it.",
            )
            return
        bot = umpire(interaction)
        who = person(interaction.user)
        result = await edits.propose(bot.service, game.id, who, cmd.change, admin=True)
        if not result.ok:
            await send_private(interaction, _slash_edit_hint(result.error or "Refused."))
            return
        log.info("admin %s in game %s: proposed %s", who, game.id, cmd.text)
        await post_proposal(interaction, result)


def _slash_edit_hint(text: str) -> str:
    """A parser's hint names the text form ('edit add ...'); in Discord it is /admin edit."""
    return text.replace("'edit ", "'/admin edit change:")
