"""Umpire's entry point: the Discord bot, the e-mail gateway, or the local terminal table.

``python bot.py --local [flags]`` runs the local table (``docs/local-table.md``).
``python bot.py`` runs the Discord bot when ``DISCORD_TOKEN`` is set (environment or ``.env``),
with the e-mail gateway beside it when ``MAIL_ADDRESS`` is set; without a token, the e-mail
gateway alone when ``MAIL_ADDRESS`` is set (also ``--mail``), otherwise the local table.
``python bot.py --sync`` first registers the slash commands with Discord (at the first start
and after an upgrade that changes them; README, "Command sync").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

from local.table import EXIT_USAGE, add_arguments, run_table

if TYPE_CHECKING:
    from service.batch import BatchResult
    from service.games import GameInfo, GameService
    from settings import Settings
    from web.server import AfterOrders, WebServer


def discord_token() -> str | None:
    """The Discord token from the settings (environment or ``.env``), or None."""
    try:
        from settings import Settings
    except ImportError:
        return os.environ.get("DISCORD_TOKEN", "").strip() or None
    settings = Settings()
    if settings.discord_token is None:
        return None
    return settings.discord_token.get_secret_value().strip() or None


def prepared_settings() -> Settings:
    """The settings, with logging configured and the data directory made (a service's start)."""
    import logging

    from settings import Settings

    settings = Settings()
    logging.basicConfig(
        level=settings.log_level_number,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    settings.umpire_data_dir.mkdir(parents=True, exist_ok=True)
    return settings


async def start_web(settings: Any, service: GameService, *,
                    after_orders: AfterOrders | None = None,
                    names: Callable[[str], str] | None = None) -> WebServer:
    """Start the games' web pages (``WEB_*`` settings, docs/web.md) on ``service``, which then
    answers ``game link`` with their links."""
    from web.server import WebServer
    from web.service_links import install

    extra: dict[str, Any] = {"names": names} if names is not None else {}
    server = WebServer(service, settings, after_orders=after_orders, **extra)
    await server.start()
    install(service, server)
    return server


@contextlib.asynccontextmanager
async def local_web(service: GameService, args: argparse.Namespace,
                    say: Callable[[str], None]) -> AsyncIterator[str]:
    """The web pages beside the local table (``--web``): the ``WEB_*`` settings, the port
    from ``--web-port`` when given. Orders given on a page are told at the table (``say``)."""
    from dataclasses import replace

    from settings import Settings
    from web.server import WebConfig

    try:
        settings: Any = Settings()
    except ValueError:  # a bad .env must not stop the table: the defaults
        settings = None
    config = WebConfig.of(settings)
    if args.web_port is not None:
        config = replace(config, port=args.web_port)
    async def after_orders(info: GameInfo, holder: str, batch: BatchResult) -> None:
        for line in batch.accepted:
            answer = line.result.answer if line.result is not None else ""
            say("\n".join([f"{holder} on the web page: {line.line}", *answer.splitlines()]))

    server = await start_web(config, service, after_orders=after_orders)
    try:
        yield (f"Web pages at {server.public_url}: '<name>: game link' gives the game's board "
               "and that player's private link to play there.")
    finally:
        await server.stop()


def start_discord(token: str, *, sync: bool = False) -> int:
    """Run the Discord bot: the game service over the database and the cogs. ``sync``: first
    register the slash commands, to ``DEV_GUILD_ID`` when set (instant) or globally (may take up
    to an hour); without it the commands registered before are used as they are."""
    import discord

    from cogs._bot import UmpireBot
    from db.repo import open_store
    from service.games import GameService

    settings = prepared_settings()

    async def run() -> None:
        store = await open_store(settings.effective_database_url)
        stop = asyncio.Event()
        mail_task: asyncio.Task[None] | None = None
        web_server: WebServer | None = None
        try:
            # maps and battle boards posted
            service = GameService(store=store, images=True, held_games=settings.held_games)
            bot = UmpireBot(service, dev_guild_id=settings.dev_guild_id, sync=sync)
            if settings.web_enabled:  # the games' web pages beside the bot, on the same service
                from cogs._follow import relay_web

                async def after_orders(info: GameInfo, holder: str, batch: BatchResult) -> None:
                    await relay_web(bot, info, holder, batch)

                def shown(holder: str) -> str:  # a Discord player by their name
                    from web.api import shown_name

                    user = bot.get_user(int(holder)) if holder.isdigit() else None
                    return user.display_name if user is not None else shown_name(holder)

                web_server = await start_web(settings, service, after_orders=after_orders,
                                             names=shown)
            if settings.has_mail:  # the e-mail gateway beside the bot, on the same service
                from cogs._follow import follow_up
                from mail.run import serve

                async def after_change(info: GameInfo) -> None:
                    await follow_up(bot, info, None)

                mail_task = asyncio.create_task(
                    serve(settings, service, stop, after_change=after_change))
            async with bot:
                await bot.start(token)
        finally:
            stop.set()
            if mail_task is not None:
                await asyncio.gather(mail_task, return_exceptions=True)
            if web_server is not None:
                await web_server.stop()
            await store.close()

    try:
        asyncio.run(run())
    except discord.LoginFailure:
        sys.stderr.write("error: Discord refused the token (DISCORD_TOKEN in .env).\n")
        return EXIT_USAGE
    except discord.PrivilegedIntentsRequired:  # we ask for none; say so if it ever happens
        sys.stderr.write("error: Discord requires privileged intents this bot does not use.\n")
        return EXIT_USAGE
    except (OSError, discord.GatewayNotFound, discord.HTTPException) as e:
        # aiohttp's connection errors are OSErrors (no network, DNS, TLS).
        sys.stderr.write(f"error: cannot reach Discord ({type(e).__name__}); is the network up?\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\nStopped.\n")
        return 130
    return 0


def start_mail() -> int:
    """Run the e-mail gateway alone (no Discord): ``MAIL_*`` settings, docs/mail.md."""
    from db.repo import open_store
    from mail.run import SettingsError, serve
    from service.games import GameService

    settings = prepared_settings()

    async def run() -> None:
        store = await open_store(settings.effective_database_url)
        web_server: WebServer | None = None
        try:
            service = GameService(store=store, images=True, held_games=settings.held_games)
            if settings.web_enabled:  # the games' web pages beside the gateway
                web_server = await start_web(settings, service)
            await serve(settings, service, asyncio.Event())
        finally:
            if web_server is not None:
                await web_server.stop()
            await store.close()

    try:
        asyncio.run(run())
    except SettingsError as e:
        sys.stderr.write(f"error: {e} (see .env.example, docs/mail.md)\n")
        return EXIT_USAGE
    except OSError as e:
        sys.stderr.write(f"error: the e-mail gateway cannot start: {e}\n")
        return 1
    except KeyboardInterrupt:
        sys.stderr.write("\nStopped.\n")
        return 130
    return 0


def mail_configured() -> bool:
    """Whether ``MAIL_ADDRESS`` is set (environment or ``.env``)."""
    try:
        from settings import Settings
    except ImportError:
        return False
    return Settings().has_mail


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python bot.py",
        description="Umpire: an impartial referee for Axis & Allies. Discord bot or local table.",
    )
    parser.add_argument(
        "--local", action="store_true", help="run the local terminal table, not the Discord bot"
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="register the slash commands with Discord, then run the bot (to DEV_GUILD_ID at "
        "once when set, else globally: up to an hour); needed at the first start and after an "
        "upgrade that changes the commands",
    )
    parser.add_argument(
        "--mail",
        action="store_true",
        help="run the e-mail gateway alone, without Discord (MAIL_* settings; docs/mail.md)",
    )
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.sync and args.local:
        sys.stderr.write("error: --sync registers the Discord bot's commands; not with --local.\n")
        return EXIT_USAGE
    if args.mail and (args.local or args.sync):
        sys.stderr.write("error: --mail runs the e-mail gateway alone; not with --local/--sync.\n")
        return EXIT_USAGE
    if args.mail:
        return start_mail()
    if not args.local:
        try:
            token = discord_token()
        except ValueError as e:  # pydantic's ValidationError: a bad setting in env or .env
            sys.stderr.write(f"error: bad settings: {e}\n")
            return EXIT_USAGE
        if token is not None:
            return start_discord(token, sync=args.sync)
        if args.sync:
            sys.stderr.write("error: --sync needs DISCORD_TOKEN (environment or .env).\n")
            return EXIT_USAGE
        if mail_configured():
            sys.stderr.write("No DISCORD_TOKEN set, MAIL_ADDRESS set: starting the e-mail "
                             "gateway alone (--local for the local table).\n")
            return start_mail()
        sys.stderr.write("No DISCORD_TOKEN set: starting the local table.\n")
    try:
        return asyncio.run(run_table(args, web=local_web if args.web else None))
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted.\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
