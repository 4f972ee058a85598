"""``/orders``: a whole phase at once. A modal where a player pastes several order lines.

The lines go to the service's batch entry (``service.batch.run_batch``), the same one the local
table's ``orders`` block and the e-mail gateway use: each line is checked and applied in turn and
the first refused line stops the batch. The answer comes in two parts:

- in the channel, the public record of what was applied: the accepted lines with their answers
  and dice, and, when a line was refused, that the batch stopped there (the refused line and the
  lines not tried are not shown to the others: they are the player's plan);
- to the player alone, every line with its result: accepted with its answer, refused with the
  reason, not tried; and that nothing after the refused line was applied.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs._common import (
    COLOUR_OK,
    CONTENT_LIMIT,
    EMBED_LIMIT,
    allowed,
    channel_key,
    clip,
    dice_lines,
    image_files,
    people_of,
    person,
    umpire,
    with_mentions,
)
from cogs._errors import tell
from cogs._follow import follow_up
from service import batch as bt

log = logging.getLogger(__name__)

MODAL_LIMIT = 4000  # Discord: a text input holds at most 4000 characters
INPUT_ID = "umpire:orders:lines"
PLACEHOLDER = (
    "One order per line, e.g.\n"
    "buy 3 infantry, 1 tank\n"
    "end\n"
    "move 2 infantry from <space> to <space>"
)


class OrdersModal(discord.ui.Modal):
    """The paste box of ``/orders``."""

    def __init__(self) -> None:
        super().__init__(title="Orders: one per line", custom_id="umpire:orders")
        self.lines: discord.ui.TextInput[OrdersModal] = discord.ui.TextInput(
            label="Orders, one per line (checked in turn)",
            style=discord.TextStyle.paragraph,
            placeholder=PLACEHOLDER,
            max_length=MODAL_LIMIT,
            custom_id=INPUT_ID,
        )
        self.add_item(self.lines)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await submit(interaction, self.lines.value)

    # Modal.on_error has no ``item`` argument, unlike BaseView's: discord.py's own override.
    async def on_error(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        await tell(interaction, error)


async def submit(interaction: discord.Interaction[Any], text: str) -> bt.BatchResult:
    """Run the pasted lines as one batch for this person in this channel and answer."""
    bot = umpire(interaction)
    # Defer privately first: a batch may roll dice and draw maps for longer than 3 seconds, and
    # the player's own answer (with any refusal) is private.
    await interaction.response.defer(ephemeral=True, thinking=True)
    batch = await bt.run_batch(bot.service, channel_key(interaction), person(interaction.user),
                               text)
    posted = ""
    if batch.accepted:
        posted = await _post_record(interaction, batch)
    try:
        await interaction.followup.send(
            _private_text(interaction, batch, posted), ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        # The interaction expired: the accepted lines are stored all the same, and the work
        # that follows them must not be lost with the answer.
        log.warning("answering a batch privately failed", exc_info=True)
    if batch.accepted:
        await follow_up(bot, batch.game, interaction.channel, state=batch.after, head=batch.head)
    return batch


async def _post_record(interaction: discord.Interaction[Any], batch: bt.BatchResult) -> str:
    """The public record of the accepted lines; returns why posting failed ("" if it did not)."""
    who = person(interaction.user)
    people = people_of(batch.game, [who])
    body = "\n".join(bt.line_text(line, public=True) for line in batch.accepted)
    bad = batch.refused
    if bad is not None:
        body += (
            f"\nLine {bad.number} was refused, so the batch stopped there: nothing after it was "
            "applied."
        )
    n = len(batch.accepted)
    embed = discord.Embed(
        title=clip(f"{interaction.user.display_name}: {n} order{'s' if n != 1 else ''}", 250),
        description=clip(with_mentions(body, people), EMBED_LIMIT),
        colour=COLOUR_OK,
    )
    rolls = dice_lines(batch.events)
    if rolls:
        embed.add_field(name="Dice", value=clip("\n".join(rolls), 1000), inline=False)
    if batch.game is not None:
        embed.set_footer(text=f"Game {batch.game.id}")
    channel: Any = interaction.channel
    try:
        await channel.send(embed=embed, files=image_files(batch.as_result()),
                           allowed_mentions=allowed(batch.game))
    except discord.HTTPException as e:
        # The orders are stored whatever happens here: say so, never "nothing was changed".
        log.warning("posting the record of a batch failed", exc_info=True)
        return f"{type(e).__name__}: {e}"
    return ""


def _private_text(
    interaction: discord.Interaction[Any], batch: bt.BatchResult, posted_failed: str
) -> str:
    people = people_of(batch.game, [person(interaction.user)])
    if batch.error is not None:
        return clip(batch.summary(), CONTENT_LIMIT)
    head = ""
    if batch.accepted:
        head = (
            f"Your orders were recorded; posting the result failed ({posted_failed}).\n"
            if posted_failed
            else "Posted in the channel: what was applied.\n"
        )
    text = head + with_mentions(batch.text(), people)
    return _clip_keeping_summary(text, batch.summary())


def _clip_keeping_summary(text: str, summary: str) -> str:
    """A long listing is cut in the middle, never its last line (what was applied)."""
    if len(text) <= CONTENT_LIMIT:
        return text
    return clip(text[: -len(summary)], CONTENT_LIMIT - len(summary) - 1) + "\n" + summary
