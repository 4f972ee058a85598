"""``/game new|join|start|status|map|history|export|check``: one game per channel or thread; and a
game's whole life: ``/game leave|cancel|concede|draw|list|mine`` (``cogs._life``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import _complete as ac
from cogs._common import (
    EMBED_LIMIT,
    channel_key,
    clip,
    defer_first,
    image_files,
    json_file,
    people_of,
    person,
    send_private,
    send_public,
    show,
    text_file,
    umpire,
    with_mentions,
)
from cogs._follow import follow_up
from cogs._life import life, list_games, my_games
from cogs._quiet import PUBLIC_HELP, begin, reply, status_embed
from cogs._views import play, shown
from rules.edition import default_edition
from service import waits as wt
from service.commands import no_game

# What the bot needs in a game's channel. Without NEEDED the game cannot be followed (its
# records, decision menus, reminders, status and maps are posted by the bot): /game new is
# refused, naming what is missing, and nothing is created. Without WISHED the game works: the
# status message is kept up to date, unpinned; the game is created with a note saying so.
NEEDED = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
    ("read_message_history", "Read Message History"),
)
WISHED = (("pin_messages", "Pin Messages"),)


def missing_permissions(
    perms: discord.Permissions, in_thread: bool
) -> tuple[list[str], list[str]]:
    """The names of the NEEDED and the WISHED permissions ``perms`` lacks (in a thread, Send
    Messages in Threads stands for Send Messages)."""
    in_threads = ("send_messages_in_threads", "Send Messages in Threads")
    needed = [in_threads if in_thread and f == "send_messages" else (f, name) for f, name in NEEDED]
    lacks = [name for f, name in needed if not getattr(perms, f)]
    wishes = [name for f, name in WISHED if not getattr(perms, f)]
    return lacks, wishes


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class GameCog(commands.GroupCog, group_name="game", group_description="Games in this channel"):
    """The lobby and the views of a game: anyone may read; the owner starts it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @ac.completes("game", "new")
    @app_commands.command(name="new", description="Create a game bound to this channel or thread")
    @app_commands.describe(
        edition="The edition to play (the list shows those installed; default: the first)",
        short="Play the short game (an option of some editions: 'help editions')",
        options="Other edition options, space-separated (the list shows the edition's options)",
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        edition: str = "",
        short: bool = False,
        options: str = "",
    ) -> None:
        in_thread = isinstance(interaction.channel, discord.Thread)
        lacks, wishes = missing_permissions(interaction.app_permissions, in_thread)
        if lacks:
            await send_private(
                interaction,
                f"I cannot referee a game here: in this {'thread' if in_thread else 'channel'} "
                f"I lack {_and(lacks)}. A member who manages the channel can grant them to my "
                "role (channel settings → Permissions), then `/game new` again. Nothing was "
                "created.",
            )
            return
        words = ["game new", edition or default_edition(), "short" if short else "", options]
        result = await play(interaction, " ".join(w for w in words if w))
        if result.ok and wishes:
            await send_private(
                interaction,
                f"Note: I lack {_and(wishes)} here, so the game's status message will not be "
                "pinned (it is still kept up to date). A member who manages the channel can "
                "grant it to my role.",
            )

    @ac.completes("game", "join")
    @app_commands.command(name="join", description="Take a seat before the game starts")
    @app_commands.describe(
        power="The power to play (one person may hold several powers of one side)",
        entropy="Optional phrase mixed into the dice so that the operator alone cannot choose them",
    )
    async def join(
        self, interaction: discord.Interaction[Any], power: str, entropy: str = ""
    ) -> None:
        # Typed options straight to the service: the phrase is never part of a shown line (the
        # record's title, a parse error), only its hash is logged at the start (docs/dice.md).
        bot = umpire(interaction)
        game = await bot.service.game_in(channel_key(interaction))
        if game is None:
            await send_private(interaction, no_game())
            return
        result = await bot.service.join(game.id, person(interaction.user), power, entropy.strip())
        phrase = " (with an entropy phrase)" if entropy.strip() else ""
        await shown(interaction, result, f"{interaction.user.display_name}: game join{phrase}")

    @app_commands.command(
        name="start", description="Start the game (its owner, once all seats are taken)"
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        await play(interaction, "game start")

    @app_commands.command(
        name="status", description="Round, turn, phase, money, battles, who is waited for"
    )
    @app_commands.describe(public=PUBLIC_HELP)
    async def status(self, interaction: discord.Interaction[Any], public: bool = False) -> None:
        await begin(interaction, public)
        bot = umpire(interaction)
        result = await bot.service.handle(
            channel_key(interaction), person(interaction.user), "game status"
        )
        if not result.ok:
            await show(interaction, result, "Game status")
            return
        embed = await status_embed(interaction, result)
        await reply(interaction, public=public, embed=embed, game=result.game)

    @ac.completes("game", "map")
    @app_commands.command(
        name="map", description="The map (optionally one space and its neighbours)"
    )
    @app_commands.describe(space="A space to centre on", public=PUBLIC_HELP)
    async def map(
        self, interaction: discord.Interaction[Any], space: str = "", public: bool = False
    ) -> None:
        await begin(interaction, public)
        bot = umpire(interaction)
        text = f"game map {space}".strip()
        result = await bot.service.handle(channel_key(interaction), person(interaction.user), text)
        if not result.ok:
            await show(interaction, result, text)
            return
        images = image_files(result)
        if images:
            embed = discord.Embed(title="Map", description=f"Game {result.game.id}"
                                  if result.game else None)
            await reply(interaction, public=public, embed=embed, files=images, game=result.game)
            return
        body = with_mentions(result.answer, people_of(result.game))
        if len(body) + 8 <= EMBED_LIMIT:
            embed = discord.Embed(title="Map", description=f"```\n{body}\n```")
            await reply(interaction, public=public, embed=embed, game=result.game)
        else:
            await reply(
                interaction,
                public=public,
                content="Map (text):",
                files=[text_file(result.answer, "map.txt")],
                game=result.game,
            )

    @app_commands.command(name="history", description="The last events of the game")
    @app_commands.describe(n="How many events (default 10)")
    async def history(
        self, interaction: discord.Interaction[Any], n: app_commands.Range[int, 1, 500] = 10
    ) -> None:
        await defer_first(interaction)
        bot = umpire(interaction)
        text = f"game history {n}"
        result = await bot.service.handle(channel_key(interaction), person(interaction.user), text)
        if result.ok and len(result.answer) > EMBED_LIMIT:
            await send_public(
                interaction,
                content=clip(f"The last {n} events are attached.", 200),
                files=[text_file(result.answer, "history.txt")],
                game=result.game,
            )
            return
        await show(interaction, result, f"History (last {n})")

    @app_commands.command(name="notify", description="How you are told that a game waits for you")
    @app_commands.describe(
        how="A mention in the game's channel, a direct message, or both",
        quiet="Quiet hours in your local time, e.g. 22-7 or 22:30-07:00 ('off' for none)",
        timezone="Your time zone for the quiet hours: Europe/Paris, or an offset such as +02:00",
        this_game="Only for this channel's game (otherwise for every game)",
    )
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        how: Literal["channel", "dm", "both"],
        quiet: str | None = None,
        timezone: str | None = None,
        this_game: bool = False,
    ) -> None:
        await defer_first(interaction)
        bot = umpire(interaction)
        game_id = ""
        if this_game:
            game = await bot.service.game_in(channel_key(interaction))
            if game is None:
                await send_private(interaction, no_game().replace("'game new", "'/game new"))
                return
            game_id = game.id
        try:
            text = await wt.set_notify(
                bot.service, person(interaction.user), how=how, quiet=quiet, tz=timezone,
                game_id=game_id,
            )
        except ValueError as e:
            await send_private(interaction, f"{e} Nothing was changed.")
            return
        if how != "channel":
            text += " Allow direct messages from this server's members to receive them."
        await send_private(interaction, text)

    @app_commands.command(
        name="vacation", description="Declare an absence: the deadline action covers your seats"
    )
    @app_commands.describe(
        days="How many days you are away (0 ends your vacation now)",
        starts_in="Days from now until it starts (default: now)",
    )
    async def vacation(
        self,
        interaction: discord.Interaction[Any],
        days: app_commands.Range[float, 0.0, 60.0],
        starts_in: app_commands.Range[float, 0.0, 60.0] = 0.0,
    ) -> None:
        await defer_first(interaction)
        bot = umpire(interaction)
        who = person(interaction.user)
        now = bot.clock()
        game = await bot.service.game_in(channel_key(interaction))
        if days == 0:
            await bot.service.store.set_vacation(None, who)
            await send_private(interaction, "Your vacation is over: the games wait for you again.")
        else:
            starts = now + timedelta(days=starts_in)
            try:
                v = await wt.set_vacation(bot.service, who, starts, starts + timedelta(days=days),
                                          now)
            except ValueError as e:
                await send_private(interaction, f"{e} Nothing was changed.")
                return
            text = (
                f"You are away from <t:{int(v.starts_at.timestamp())}:f> until "
                f"<t:{int(v.ends_at.timestamp())}:f>, in every game. Meanwhile you get no "
                "pings or direct messages, and a game's deadline action (defaults or end) "
                "answers for your seats as soon as the game waits for you."
            )
            if game is not None:
                d = await bot.service.deadline(game.id)
                if d is None or d.action == "remind":
                    text += (
                        " This channel's game has no such deadline: it will wait for you. Its "
                        "owner can set one with '/admin deadline action:defaults every_wait:True'."
                    )
            await send_private(interaction, text)
        if game is not None:
            await follow_up(bot, game, interaction.channel)

    @app_commands.command(name="export", description="The whole game as JSON (verifiable offline)")
    async def export(self, interaction: discord.Interaction[Any]) -> None:
        await defer_first(interaction)
        bot = umpire(interaction)
        game = await bot.service.game_in(channel_key(interaction))
        if game is None:
            await send_private(interaction, no_game())
            return
        result = await bot.service.handle(
            channel_key(interaction), person(interaction.user), "game export"
        )
        if not result.ok or result.data is None:
            await show(interaction, result, "Export")
            return
        await send_public(
            interaction,
            content=result.answer,
            files=[json_file(result.data, f"umpire-{game.id}.json")],
            game=result.game,
        )

    @app_commands.command(
        name="check", description="Check the stored log: hash chain, published heads, snapshots"
    )
    async def check(self, interaction: discord.Interaction[Any]) -> None:
        await defer_first(interaction)
        bot = umpire(interaction)
        result = await bot.service.handle(
            channel_key(interaction), person(interaction.user), "game check"
        )
        await show(interaction, result, "Check")

    # --- a game's whole life (cogs._life) -------------------------------------------------
    @app_commands.command(name="leave", description="Give up your seats before the game starts")
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        await life(interaction, "game leave")

    @app_commands.command(
        name="cancel",
        description="Cancel the game: its owner before the start; after it, every player votes",
    )
    @app_commands.describe(withdraw="True: take back your vote to cancel")
    async def cancel(self, interaction: discord.Interaction[Any], withdraw: bool = False) -> None:
        await life(interaction, "game cancel withdraw" if withdraw else "game cancel")

    @app_commands.command(
        name="concede", description="Give up for your side (everyone holding its seats must)"
    )
    @app_commands.describe(withdraw="True: take back your concession before it is complete")
    async def concede(self, interaction: discord.Interaction[Any], withdraw: bool = False) -> None:
        await life(interaction, "game concede withdraw" if withdraw else "game concede")

    @app_commands.command(name="draw", description="Vote for a draw (every player must)")
    @app_commands.describe(withdraw="True: take back your vote for a draw")
    async def draw(self, interaction: discord.Interaction[Any], withdraw: bool = False) -> None:
        await life(interaction, "game draw withdraw" if withdraw else "game draw")

    @app_commands.command(
        name="list", description="The games in this server: channel, round, whose turn, deadline"
    )
    @app_commands.describe(
        finished="True: finished and cancelled games too",
        public="True: post the list in the channel (it pings nobody)",
    )
    async def list_(
        self, interaction: discord.Interaction[Any], finished: bool = False, public: bool = False
    ) -> None:
        await list_games(interaction, finished, public)

    @app_commands.command(
        name="link", description="The game's web page: your private link to play there"
    )
    @app_commands.describe(revoke="True: the links given to you before stop working")
    async def link(self, interaction: discord.Interaction[Any], revoke: bool = False) -> None:
        await defer_first(interaction)
        bot = umpire(interaction)
        result = await bot.service.handle(
            channel_key(interaction), person(interaction.user),
            "game link revoke" if revoke else "game link",
        )
        await show(interaction, result, "Web page")  # sent privately (service.batch.PRIVATE_KINDS)

    @app_commands.command(name="mine", description="Your seats in this server and what awaits you")
    async def mine(self, interaction: discord.Interaction[Any]) -> None:
        await my_games(interaction)
