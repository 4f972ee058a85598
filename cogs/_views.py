"""Battle decisions as buttons and selects, and the one path every order takes to the service.

After an accepted order, each battle decision the game now waits for (casualties, submerge or
strike, press or retreat) is posted in the channel, mentioning the seat holder who owes it, with
a select of the choices ``legal_orders`` offers. Whoever clicks, the service decides whether
they may: a click by anyone else is refused privately. The slash commands (``/casualties``,
``/submerge``...) remain for any choice the select does not list.

Menus survive restarts: a select's ``custom_id`` names the game and the decision, its values
are order lines, and the select class is registered at start-up, so a click needs nothing kept
in memory. Posted menus are recorded in the store (one per game and decision: two processes or
a retry never post one twice); once a decision is answered, however (a click, a slash command,
the deadline's defaults), its menu is edited to show the answer and loses its select. A click on
a menu whose decision is no longer owed is answered privately with what the game waits for now.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs._common import (
    allowed,
    channel_key,
    defer_first,
    people_of,
    person,
    result_embed,
    send_private,
    show,
    umpire,
    with_mentions,
)
from cogs._errors import recorded, tell
from cogs._follow import follow_up
from rules import orders as od
from rules.decisions import Owed, Pending
from rules.engine import pending, phase_name
from rules.state import GameState
from rules.words import possessive
from service.choices import choice_label, decision_orders, order_text
from service.games import GameInfo, Result
from service.store import MenuRecord

if TYPE_CHECKING:
    from cogs._bot import UmpireBot

log = logging.getLogger(__name__)

# The kinds of accepted requests that change the game: the follow-up work is done after them.
CHANGES = frozenset({"start", "order", "undo", "batch"})
# Other accepted requests that the service stored (a failure to show them is reported as such).
WRITES = frozenset(
    {"game_new", "join", "deadline", "kick", "substitute", "cancel", "leave", "concede", "draw"}
)


# --- decision menus that survive restarts -------------------------------------------------
#
# A menu's select carries its meaning in its custom_id: ``ud:<game>:<decision key>``, the key
# being ``<round>:<battle round>:<stage>:<kind>:<power>:<space>`` (``decision_key``). Each
# choice's value is the order line itself (or ``#<n>``, the n-th of the choices recomputed
# from the stored game, when a line is longer than Discord's 100 characters). A click thus
# needs no memory of this process: ``DecisionSelect`` is a ``DynamicItem`` registered at
# start-up (``UmpireBot.setup_hook``), so a menu posted before a restart still works.

KINDS = {Owed.CASUALTIES: "cas", Owed.SUBMERGE_OR_STRIKE: "sub", Owed.PRESS_OR_RETREAT: "pr"}
WHAT = {v: k.value for k, v in KINDS.items()}
VALUE_LIMIT = 100  # Discord: a select option's value


def kind_code(kind: Owed) -> str:
    """A decision kind in a menu's key: the battles' short codes; a mechanism's own kind by its
    label (``key_parts`` reads it back: 'air_battle_casualties' is "air battle casualties")."""
    return KINDS.get(kind) or kind.value.replace(" ", "_")


def decision_key(state: GameState, owed: Pending) -> str | None:
    """The key of one owed decision offered as a menu (``Owed.menu``: a battle's decisions, a
    defender's interceptors), or None for a turn or the acting power's own step (a raid).

    ``stage`` (the fire stages done in this battle round) tells apart two casualty decisions
    of one round (a submarine strike's, then the main fire's); the game round tells apart two
    battles in one space in different turns.
    """
    if owed.space is None or not owed.kind.menu:
        return None
    battle = state.battles.get(owed.space)
    b_round, stage = (battle.round, len(battle.fired)) if battle else (0, 0)
    return f"{state.round}:{b_round}:{stage}:{kind_code(owed.kind)}:{owed.power}:{owed.space}"


def key_parts(key: str) -> tuple[str, str, str]:
    """(power, what, space) of a decision key."""
    parts = key.split(":", 5)
    if len(parts) != 6:
        return ("", key, "")
    kind, power, space = parts[3:]
    return power, WHAT.get(kind, kind.replace("_", " ")), space


def owed_keys(state: GameState) -> dict[str, Pending]:
    """The decisions owed now, by key."""
    out: dict[str, Pending] = {}
    for owed in pending(state):
        key = decision_key(state, owed)
        if key is not None:
            out[key] = owed
    return out


def choice_value(order: od.Order, index: int) -> str:
    line = order_text(order)
    return line if len(line) <= VALUE_LIMIT and not line.startswith("#") else f"#{index}"


def custom_id(game_id: str, key: str) -> str:
    return f"ud:{game_id}:{key}"


class DecisionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ud:(?P<game>[^:]+):(?P<key>\d+:\d+:\d+:[a-z_]+:[^:]+:.+)",
):
    """The select of one decision menu; its meaning lives in its custom_id (see above)."""

    def __init__(
        self, game_id: str, key: str, options: Sequence[discord.SelectOption] = ()
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(game_id, key),
                placeholder="Choose…",
                options=list(options),
                min_values=1,
                max_values=1,
            )
        )
        self.game_id = game_id
        self.key = key

    @classmethod
    def of(cls, game_id: str, key: str, choices: Sequence[od.Order]) -> DecisionSelect:
        options = [
            discord.SelectOption(
                label=choice_label(o), value=choice_value(o, i), description=order_text(o)[:100]
            )
            for i, o in enumerate(choices)
        ]
        return cls(game_id, key, options)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> DecisionSelect:
        del interaction
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(match["game"], match["key"], options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs a dynamic item's errors: send them through the funnel.
        try:
            await decide(interaction, self.game_id, self.key, self.item.values[0])
        except Exception as error:
            await tell(interaction, error)


def owed_now(state: GameState, game: GameInfo) -> str:
    """Whom the game waits for now, in words (mentions show as names)."""
    parts = []
    for p in pending(state):
        holder = game.seats.get(p.power, "")
        who = f"<@{holder}>" if holder.isdigit() else p.power
        if p.turn:
            parts.append(f"{who}: {possessive(p.power)} turn ({phase_name(state)})")
        else:
            parts.append(f"{who}: {possessive(p.power)} {p.what} in {p.space}")
    if state.winner:
        return f"nobody: the game is over, the {state.winner} won"
    return "; ".join(parts) or "nobody"


async def decide(
    interaction: discord.Interaction[Any], game_id: str, key: str, value: str
) -> None:
    """A click on a decision menu: check it is still owed, then give the chosen order."""
    bot = umpire(interaction)
    await defer_first(interaction)
    info = await bot.service.info(game_id)
    state = await bot.service.state(game_id)
    owed = owed_keys(state).get(key)
    if owed is None or info.status != "active":
        power, what, space = key_parts(key)
        await send_private(
            interaction,
            with_mentions(
                f"This menu is out of date: {possessive(power)} {what} in {space} is no "
                f"longer owed "
                f"(answered, or another round). The game now waits for {owed_now(state, info)}.",
                people_of(info),
            ),
        )
        await follow_up(bot, info, interaction.channel)  # closes this menu, showing the answer
        return
    choices = decision_orders(state, owed)
    order: od.Order | None = None
    if value.startswith("#") and value[1:].isdigit() and int(value[1:]) < len(choices):
        order = choices[int(value[1:])]
    else:
        order = next((o for o in choices if order_text(o) == value), None)
    if order is not None:
        line = order_text(order)
        result = await bot.service.submit_order(game_id, person(interaction.user), order, line)
    else:  # not among the choices computed now: let the order language say what is wrong
        line = value
        result = await bot.service.submit(game_id, person(interaction.user), line)
    await shown(interaction, result, f"{interaction.user.display_name}: {line}")


async def post_decisions(
    bot: UmpireBot, game: GameInfo, channel: Any, state: GameState | None = None
) -> None:
    """Close the menus of decisions no longer owed and post a menu for each decision owed.

    Everything is recomputed from the stored game and the menus recorded in the store, so a
    repeated call (the reminder loop's, another process's, after a restart) posts nothing twice
    and finishes what a failed call left undone.
    """
    if game.status == "lobby":
        return
    store = bot.service.store
    if state is None:  # not handed on by the answer of a change: from the stored game
        state = await bot.service.state(game.id)
    owed = owed_keys(state) if game.status == "active" else {}
    menus = {m.key: m for m in await store.menus(game.id)}
    for menu in menus.values():
        if menu.open and menu.key not in owed:
            try:
                await close_menu(bot, game, menu)
            except discord.HTTPException:  # left open; the next pass closes it
                log.warning("closing menu %s of game %s failed", menu.key, game.id, exc_info=True)
    for key, p in owed.items():
        if key in menus and menus[key].message_id is not None:
            continue
        choices = decision_orders(state, p)
        if not choices:
            continue
        where = str(getattr(channel, "id", game.channel))
        if not await store.claim_menu(game.id, key, where, bot.process_id, bot.clock()):
            continue
        holder = game.seats.get(p.power, "")
        text = with_mentions(
            f"{holder}: {p.power} owes {p.what} in {p.space}. Choose below "
            f"(or use /{p.kind.verb}).",
            [holder],
        )
        view = discord.ui.View(timeout=None)
        view.add_item(DecisionSelect.of(game.id, key, choices))
        try:
            msg = await channel.send(text, view=view, allowed_mentions=allowed(game))
        except Exception:
            await store.release_menu(game.id, key, bot.process_id)  # the next pass posts it
            raise
        await store.menu_posted(game.id, key, str(msg.id))


async def answer_of(bot: UmpireBot, game: GameInfo, key: str) -> str:
    """How a decision was answered, from the stored orders: the last order of its power that
    names its space (a menu click, a slash command, the referee at the deadline)."""
    power, _what, space = key_parts(key)
    for o in reversed(await bot.service.store.orders(game.id)):
        if o.power == power and space and space in o.text:
            if "(by the referee" in o.text:
                return f"answered: {o.text}."
            who = f" by <@{o.person}>" if o.person.isdigit() else ""
            return f"answered{who}: {o.text}."
    return "no longer owed."


async def close_menu(bot: UmpireBot, game: GameInfo, menu: MenuRecord) -> None:
    """Edit a menu no longer owed to show the answer, without its select; then record it
    closed. A menu whose message is gone is closed; any other failure waits for the next pass."""
    store = bot.service.store
    if menu.message_id is not None and menu.channel.isdigit():
        power, what, space = key_parts(menu.key)
        text = f"{possessive(power)} {what} in {space}: {await answer_of(bot, game, menu.key)}"
        message = bot.get_partial_messageable(int(menu.channel)).get_partial_message(
            int(menu.message_id)
        )
        try:
            await message.edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound:
            log.info("menu %s of game %s is gone; closed", menu.key, game.id)
    await store.close_menu(game.id, menu.key, bot.clock())


async def shown(interaction: discord.Interaction[Any], result: Result, title: str) -> bool:
    """Show ``result``; after an accepted change, do the follow-up work even if showing failed.

    The interaction is marked as having changed the game first (``recorded``), so that a Discord
    failure while showing it is reported truthfully by the error funnel ("Your order was
    recorded; posting the result failed"), and the follow-up (menus, status) is done from the
    stored game all the same (the reminder loop retries whatever still fails).
    """
    changed = result.ok and (result.kind in CHANGES or bool(result.events))
    if result.ok and result.kind in WRITES | CHANGES:
        recorded(interaction, "order" if result.kind in CHANGES else "request")
    try:
        return await show(interaction, result, title)
    finally:
        if changed:
            await follow_up(umpire(interaction), result.game, interaction.channel,
                            state=result.after, head=result.head)


async def play(interaction: discord.Interaction[Any], text: str, *, slow: bool = False) -> Result:
    """Run one order-language line for the person in this channel and show the result.

    Deferred first, privately (``defer_first``): loading the game and rendering may take
    longer than Discord's 3 seconds. A refusal is then the private answer; an accepted record
    is posted publicly. ``slow`` is kept for the callers that say so.
    """
    del slow  # every command defers first now
    bot = umpire(interaction)
    await defer_first(interaction)
    # The server goes with every line: 'game new' stores it on the game ('/game list').
    result = await bot.service.handle(channel_key(interaction), person(interaction.user), text,
                                      guild=str(interaction.guild_id or ""))
    await shown(interaction, result, f"{interaction.user.display_name}: {text}")
    return result


__all__ = [
    "DecisionSelect",
    "decision_key",
    "order_text",
    "play",
    "post_decisions",
    "result_embed",
    "shown",
]
