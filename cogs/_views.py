"""Battle decisions as buttons and selects, and the one path every order takes to the service.

After an accepted order, each battle decision the game now waits for (casualties, submerge or
strike, press or retreat) is posted in the channel, mentioning the seat holder who owes it, with
a select of the choices ``legal_orders`` offers. Whoever clicks, the service decides whether
they may: a click by anyone else is refused privately. The slash commands (``/casualties``,
``/submerge``...) remain for any choice the select does not list.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from itertools import islice
from typing import Any

import discord

from cogs._common import (
    MAX_CHOICES,
    allowed,
    channel_key,
    person,
    result_embed,
    show,
    umpire,
    with_mentions,
)
from cogs._errors import FunnelView
from cogs._follow import follow_up
from rules import orders as od
from rules import parse as ps
from rules.engine import Pending, pending
from rules.legal import legal_orders
from rules.state import GameState
from service.games import GameInfo, GameService, Result, ServiceError

log = logging.getLogger(__name__)

DECISIONS: tuple[type[od.Order], ...] = (
    od.Casualties,
    od.Submerge,
    od.Strike,
    od.Press,
    od.Retreat,
)


def order_text(order: od.Order) -> str:
    """The order-language line for a decision (as it appears in the log and the record)."""
    match order:
        case od.Casualties():
            text = f"casualties {order.space} {ps.format_units(order.units)}"
            if order.damaged:
                text += f" (damaged: {ps.format_units(order.damaged)})"
            return text
        case od.Submerge():
            return f"submerge {order.space}" + ("" if order.count is None else f" {order.count}")
        case od.Strike():
            return f"strike {order.space}"
        case od.Press():
            return f"press {order.space}"
        case od.Retreat():
            return f"retreat {order.space} to {order.to}"
    return order.kind


def choice_label(order: od.Order) -> str:
    match order:
        case od.Casualties():
            label = f"Lose {ps.format_units(order.units)}" if order.units else "Lose nothing"
            if order.damaged:
                label += f"; damage {ps.format_units(order.damaged)}"
            return label[:100]
        case od.Submerge():
            return "Submerge all" if order.count is None else f"Submerge {order.count}"
        case od.Strike():
            return "Strike (stay and fire)"
        case od.Press():
            return "Press on (fight another round)"
        case od.Retreat():
            return f"Retreat to {order.to}"[:100]
    return order_text(order)[:100]


def decision_orders(state: GameState, owed: Pending) -> list[od.Order]:
    """The choices ``legal_orders`` gives ``owed.power`` for this decision (at most 25)."""
    try:
        found = (
            o
            for o in legal_orders(state, owed.power)
            if isinstance(o, DECISIONS) and getattr(o, "space", None) == owed.space
        )
        return list(islice(found, MAX_CHOICES))
    except Exception:  # a hint only: the slash commands still work
        log.exception("legal_orders failed for a decision view")
        return []


class DecisionSelect(discord.ui.Select["DecisionView"]):
    def __init__(self, choices: Sequence[od.Order]) -> None:
        options = [
            discord.SelectOption(
                label=choice_label(o), value=str(i), description=order_text(o)[:100]
            )
            for i, o in enumerate(choices)
        ]
        super().__init__(placeholder="Choose…", options=options, min_values=1, max_values=1)
        self.choices = list(choices)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert self.view is not None
        order = self.choices[int(self.values[0])]
        await self.view.decide(interaction, order)


class DecisionView(FunnelView):
    """One battle decision owed by one power: a select of its legal choices."""

    def __init__(self, game_id: str, owed: Pending, choices: Sequence[od.Order]) -> None:
        super().__init__(timeout=None)
        self.game_id = game_id
        self.owed = owed
        self.add_item(DecisionSelect(choices))

    async def decide(self, interaction: discord.Interaction[Any], order: od.Order) -> None:
        bot = umpire(interaction)
        result = await bot.service.submit_order(
            self.game_id, person(interaction.user), order, order_text(order)
        )
        title = f"{interaction.user.display_name}: {order_text(order)}"
        if await show(interaction, result, title):
            self.stop()
            if interaction.message is not None:
                try:
                    await interaction.message.edit(view=None)
                except discord.HTTPException:
                    log.warning("could not close a decision message", exc_info=True)
            await follow_up(bot, result.game, interaction.channel)


# The kinds of accepted requests that change the game: the pinned status is edited after them.
CHANGES = frozenset({"start", "order", "undo"})

PostedKeys = dict[str, set[tuple[str, str, str, int]]]


async def post_decisions(
    service: GameService,
    channel: Any,
    game: GameInfo | None,
    posted: PostedKeys,
) -> None:
    """Post each newly owed battle decision of ``game`` with its choices, mentioning the holder."""
    if game is None or channel is None or not hasattr(channel, "send"):
        return
    try:
        state = await service.state(game.id)
    except ServiceError:
        return
    seen = posted.setdefault(game.id, set())
    for owed in pending(state):
        if owed.space is None or owed.what.startswith("turn"):
            continue
        battle = state.battles.get(owed.space)
        key = (owed.power, owed.what, owed.space, battle.round if battle else 0)
        if key in seen:
            continue
        choices = decision_orders(state, owed)
        if not choices:
            continue
        seen.add(key)
        holder = game.seats.get(owed.power, "")
        text = with_mentions(
            f"{holder}: {owed.power} owes {owed.what} in {owed.space}. Choose below "
            f"(or use /{owed.what.split()[0]}).",
            [holder],
        )
        await channel.send(
            text, view=DecisionView(game.id, owed, choices), allowed_mentions=allowed(game)
        )


async def play(interaction: discord.Interaction[Any], text: str, *, slow: bool = False) -> Result:
    """Run one order-language line for the person in this channel and show the result.

    ``slow``: the answer may take longer than Discord's 3 seconds (odds, a battle to the end),
    so the interaction is deferred privately first.
    """
    bot = umpire(interaction)
    if slow and not interaction.response.is_done():
        interaction.extras["private_defer"] = True
        await interaction.response.defer(ephemeral=True, thinking=True)
    # The server goes with every line: 'game new' stores it on the game ('/game list').
    result = await bot.service.handle(channel_key(interaction), person(interaction.user), text,
                                      guild=str(interaction.guild_id or ""))
    title = f"{interaction.user.display_name}: {text}"
    if await show(interaction, result, title) and result.kind in CHANGES:
        await follow_up(bot, result.game, interaction.channel)
    return result


__all__ = ["DecisionView", "order_text", "play", "post_decisions", "result_embed"]
