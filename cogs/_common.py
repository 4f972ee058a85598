"""What every cog shares: who and where a command comes from, and how a ``Result`` is shown.

Accepted orders and dice go to the channel as an embed; refusals go only to the person who asked
(ephemeral). People are Discord user ids in the service; in messages they become mentions,
which Discord shows as display names. ``ALLOWED`` never lets user text ping @everyone, @here or a
role; only the game's seated players may be pinged (they are the ones the game waits for).
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs._slash import slash_hints
from rules import events as ev
from service.batch import PRIVATE_KINDS
from service.games import GameInfo, Result

if TYPE_CHECKING:
    from cogs._bot import UmpireBot

log = logging.getLogger(__name__)

# Discord limits: embed description 4096 characters, message content 2000, 25 choices.
EMBED_LIMIT = 4000
CONTENT_LIMIT = 1900
MAX_CHOICES = 25
COLOUR_OK = discord.Colour.dark_green()
COLOUR_INFO = discord.Colour.blurple()

ALLOWED = discord.AllowedMentions(everyone=False, roles=False, users=False, replied_user=False)


def allowed(game: GameInfo | None) -> discord.AllowedMentions:
    """Mentions that may ping: the game's seated players only; never everyone, here or roles."""
    users = sorted({int(p) for p in (game.seats.values() if game else ()) if p.isdigit()})
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(u) for u in users],
        replied_user=False,
    )


def umpire(interaction: discord.Interaction[Any]) -> UmpireBot:
    """The bot behind an interaction."""
    from cogs._bot import UmpireBot

    client = interaction.client
    assert isinstance(client, UmpireBot)
    return client


def channel_key(interaction: discord.Interaction[Any]) -> str:
    """The service's channel key: one game per channel or thread."""
    return str(interaction.channel_id)


def person(user: discord.abc.Snowflake) -> str:
    """The service's person: a Discord user id."""
    return str(user.id)


def with_mentions(text: str, people: Iterable[str]) -> str:
    """Show each person id of ``people`` in ``text`` as a mention (displayed as their name)."""
    ids = sorted({p for p in people if p.isdigit()}, key=len, reverse=True)
    if not ids:
        return text
    pattern = re.compile(r"(?<![\d<@])(" + "|".join(map(re.escape, ids)) + r")(?!\d)")
    return pattern.sub(lambda m: f"<@{m.group(1)}>", text)


def people_of(game: GameInfo | None, extra: Sequence[str] = ()) -> list[str]:
    if game is None:
        return list(extra)
    return [game.owner, *game.seats.values(), *extra]


def clip(text: str, limit: int, keep_last: int = 0) -> str:
    """``text`` cut to ``limit`` characters at a line end, saying how much was left out; the
    last ``keep_last`` lines are kept whole (e.g. a closing pointer to more help)."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    tail = lines[len(lines) - keep_last:] if 0 < keep_last < len(lines) else []
    body = lines[: len(lines) - len(tail)]
    room = limit - 40 - sum(len(line) + 1 for line in tail)
    out: list[str] = []
    size = 0
    for line in body:
        if size + len(line) + 1 > room:
            break
        out.append(line)
        size += len(line) + 1
    out.append(f"… ({len(body) - len(out)} more lines)")
    return "\n".join([*out, *tail])


def dice_lines(events: Sequence[ev.Event]) -> list[str]:
    """One line per dice roll: space, side, each group's faces, and the hits."""
    out = []
    for e in events:
        if isinstance(e, ev.DiceRolled):
            groups = "; ".join(
                f"{unit} @{value}: {' '.join(map(str, faces)) or '-'}"
                for unit, value, faces in e.groups
            )
            hits = f"{e.hits} hit" if e.hits == 1 else f"{e.hits} hits"
            out.append(f"{e.space} round {e.round}, {e.side}: {groups} → {hits}")
    return out


def result_embed(result: Result, title: str, who: str = "") -> discord.Embed:
    """The public record of an accepted request: what happened, the dice, who the game awaits."""
    people = people_of(result.game, [who] if who else [])
    embed = discord.Embed(
        title=clip(title, 250),
        description=clip(slash_hints(with_mentions(result.answer, people)), EMBED_LIMIT) or "Done.",
        colour=COLOUR_OK if result.events else COLOUR_INFO,
    )
    rolls = dice_lines(result.events)
    if rolls:
        embed.add_field(name="Dice", value=clip("\n".join(rolls), 1000), inline=False)
    if result.game is not None:
        embed.set_footer(text=f"Game {result.game.id}")
    return embed


async def defer_first(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge the interaction before any work that may take Discord's 3 seconds (loading a
    game, touching the database, rendering): every command calls this first. A slash command is
    deferred privately (a refusal then stays private; ``send_public`` posts an accepted record
    as a public follow-up); a component click is deferred as an update (each follow-up then
    chooses public or private)."""
    if interaction.response.is_done():
        return
    if interaction.type == discord.InteractionType.component:
        await interaction.response.defer()
    else:
        interaction.extras["private_defer"] = True
        await interaction.response.defer(ephemeral=True, thinking=True)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral answer to the person who asked (refusals, help, confirmations)."""
    text = clip(slash_hints(text), CONTENT_LIMIT) or "Nothing to say."
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=ALLOWED)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=ALLOWED)


async def send_public(
    interaction: discord.Interaction[Any],
    *,
    embed: discord.Embed | None = None,
    content: str = "",
    files: Sequence[discord.File] = (),
    game: GameInfo | None = None,
    view: discord.ui.View | None = None,
    mentions: discord.AllowedMentions | None = None,
) -> None:
    """A public post in the channel, as the answer to the interaction (``mentions``: who may be
    pinged, by default the game's seated players)."""
    kwargs: dict[str, Any] = {"allowed_mentions": mentions or allowed(game)}
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if files:
        kwargs["files"] = list(files)
    if interaction.extras.get("private_defer") and not interaction.extras.get("private_done"):
        # Deferred privately (so that a refusal stays private): complete the private
        # "thinking…" answer first, so that the record becomes a public follow-up of its own,
        # then drop that private note (the record says it all).
        interaction.extras["private_done"] = True
        await interaction.edit_original_response(content="Posted below.")
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:  # only a private note left behind
            log.info("could not delete a private note", exc_info=True)
    elif interaction.response.is_done():
        await interaction.followup.send(content or discord.utils.MISSING, **kwargs)
    else:
        await interaction.response.send_message(content or None, **kwargs)


async def show(
    interaction: discord.Interaction[Any],
    result: Result,
    title: str,
    *,
    files: Sequence[discord.File] = (),
) -> bool:
    """Show a service ``Result``: refusals privately, anything accepted publicly. Returns ok."""
    who = person(interaction.user)
    if not result.ok:
        people = people_of(result.game, [who])
        await send_private(interaction, with_mentions(result.error or "Refused.", people))
        return False
    if result.kind in PRIVATE_KINDS:  # for the person alone (a private link)
        await send_private(interaction, result.answer)
        return True
    await send_public(
        interaction,
        embed=result_embed(result, title, who),
        files=[*files, *image_files(result)],
        game=result.game,
    )
    return True


MAX_FILES = 10  # Discord: at most 10 attachments per message


def image_files(result: Result) -> list[discord.File]:
    """The maps and battle boards an answer carries (service render hook), as attachments."""
    return [
        discord.File(io.BytesIO(img.png), filename=img.name, description=img.caption[:1024])
        for img in result.images[-MAX_FILES:]
    ]


def json_file(doc: dict[str, Any], name: str) -> discord.File:
    data = json.dumps(doc, indent=1, sort_keys=True).encode("utf-8")
    return discord.File(io.BytesIO(data), filename=name)


def text_file(text: str, name: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=name)
