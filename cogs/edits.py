"""Game-master edits in Discord: the public proposal with its Confirm and Reject buttons.

``/admin edit`` (``cogs.admin``) posts a proposal publicly, mentioning the people who may confirm
it. Its buttons carry their meaning in their ``custom_id`` (``umpire:edit:<game>:<n>:<action>``)
through ``EditButton``, a ``discord.ui.DynamicItem`` registered at start-up
(``UmpireBot.setup_hook``), so a click works after a restart: nothing about the proposal lives
in the bot's memory. The service decides who may click (``service.edits``): anyone else is
refused privately; a click on a proposal already decided is answered with what happened. Once a
proposal is applied or rejected, its message is edited to say so and loses its buttons.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import discord

from cogs._common import (
    ALLOWED,
    allowed,
    people_of,
    person,
    result_embed,
    send_private,
    send_public,
    umpire,
    with_mentions,
)
from cogs._errors import tell
from cogs._follow import follow_up
from service import edits
from service.games import GameInfo, Result

log = logging.getLogger(__name__)

CUSTOM_ID = "umpire:edit:{game}:{number}:{action}"
TEMPLATE = (
    r"umpire:edit:(?P<game>[A-Za-z0-9_-]{1,64}):(?P<number>[0-9]{1,9}):(?P<action>confirm|reject)"
)


def _mention(who: str | None) -> str:
    if not who:
        return "someone"
    return f"<@{who}>" if who.isdigit() else who


def proposal_text(game: GameInfo, proposal: Mapping[str, Any]) -> str:
    """The public message of a proposal: what it does, who proposed it, and what became of it."""
    n = proposal["number"]
    what = str(proposal["text"]).removeprefix("edit ")
    head = f"Edit #{n} proposed by {_mention(proposal['proposer'])}: {what}."
    match proposal["status"]:
        case "applied":
            return f"{head}\nApplied: confirmed by {_mention(proposal['decided_by'])}."
        case "rejected":
            return f"{head}\nRejected by {_mention(proposal['decided_by'])}; nothing changed."
    who = [p for p in proposal.get("confirmers") or [] if p]
    if who:
        ask = (f"It is applied only when a player of the other side agrees: "
               f"{', '.join(_mention(p) for p in who)}, press Confirm or Reject.")
    else:
        ask = "Nobody may confirm it yet: no player of the other side is seated."
    return f"{head}\n{ask} Nothing changes until then."


def proposal_view(game_id: str, number: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(EditButton(game_id, number, "confirm"))
    view.add_item(EditButton(game_id, number, "reject"))
    return view


async def post_proposal(interaction: discord.Interaction[Any], result: Result) -> None:
    """The public proposal with its buttons, mentioning (and pinging) those who may confirm."""
    assert result.game is not None and result.data is not None
    proposal = result.data["edit"]
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(int(p)) for p in proposal.get("confirmers") or [] if p.isdigit()],
    )
    # send_public: /admin is deferred privately first, and this post must be public.
    await send_public(
        interaction,
        content=proposal_text(result.game, proposal),
        view=proposal_view(result.game.id, int(proposal["number"])),
        mentions=mentions,
    )


class EditButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=TEMPLATE,
):
    """Confirm or Reject one proposal of one game; the custom_id says which."""

    def __init__(self, game_id: str, number: int, action: str) -> None:
        confirm = action == "confirm"
        super().__init__(
            discord.ui.Button(
                label="Confirm" if confirm else "Reject",
                style=discord.ButtonStyle.success if confirm else discord.ButtonStyle.danger,
                custom_id=CUSTOM_ID.format(game=game_id, number=number, action=action),
            )
        )
        self.game_id = game_id
        self.number = number
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> EditButton:
        del interaction, item
        return cls(match["game"], int(match["number"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self._clicked(interaction)
        except Exception as e:  # the error funnel: a reason privately, or a logged failure
            await tell(interaction, e)

    async def _clicked(self, interaction: discord.Interaction[Any]) -> None:
        bot = umpire(interaction)
        who = person(interaction.user)
        if self.action == "confirm":
            result = await edits.confirm(bot.service, self.game_id, who, self.number)
        else:
            admin = bool(interaction.permissions.manage_guild)
            result = await edits.reject(bot.service, self.game_id, who, self.number, admin=admin)
        proposal = (result.data or {}).get("edit")
        game = result.game
        if not result.ok:
            text = with_mentions(result.error or "Refused.", people_of(game, [who]))
            text = text.replace(f"with 'edit reject {self.number}'", "with the Reject button")
            await send_private(interaction, text)
            if game is not None and proposal is not None and proposal["status"] != "pending":
                await _close(interaction, game, proposal)  # decided elsewhere (a typed line)
            return
        assert game is not None and proposal is not None
        await interaction.response.edit_message(
            content=proposal_text(game, proposal), view=None, allowed_mentions=ALLOWED)
        if self.action == "confirm":
            embed = result_embed(result, f"Edit #{self.number} applied", who)
            await interaction.followup.send(embed=embed, allowed_mentions=allowed(game))
            await follow_up(bot, game, interaction.channel, state=result.after,
                            head=result.head)


async def _close(
    interaction: discord.Interaction[Any], game: GameInfo, proposal: Mapping[str, Any]
) -> None:
    """Edit a decided proposal's message to its outcome, without buttons."""
    if interaction.message is None:
        return
    try:
        await interaction.message.edit(content=proposal_text(game, proposal), view=None,
                                       allowed_mentions=ALLOWED)
    except discord.HTTPException:
        log.warning("could not close edit #%s of game %s", proposal.get("number"), game.id,
                    exc_info=True)


__all__ = ["EditButton", "post_proposal", "proposal_text", "proposal_view"]
