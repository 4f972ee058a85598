"""Umpire's entry point: the Discord bot, or the local terminal table.

``python bot.py --local [flags]`` runs the local table (``docs/local-table.md``).
``python bot.py`` runs the Discord bot when ``DISCORD_TOKEN`` is set (environment or ``.env``),
otherwise the local table.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from local.table import EXIT_USAGE, add_arguments, run_table


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


def start_discord(token: str) -> int:
    """Run the Discord front end (a later issue; for now say so)."""
    del token  # never printed
    sys.stderr.write(
        "The Discord front end is not built yet (it comes in a later issue). "
        "Run 'python bot.py --local' for the local table.\n"
    )
    return EXIT_USAGE


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python bot.py",
        description="Umpire: an impartial referee for Axis & Allies. Discord bot or local table.",
    )
    parser.add_argument(
        "--local", action="store_true", help="run the local terminal table, not the Discord bot"
    )
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not args.local:
        try:
            token = discord_token()
        except ValueError as e:  # pydantic's ValidationError: a bad setting in env or .env
            sys.stderr.write(f"error: bad settings: {e}\n")
            return EXIT_USAGE
        if token is not None:
            return start_discord(token)
        sys.stderr.write("No DISCORD_TOKEN set: starting the local table.\n")
    try:
        return asyncio.run(run_table(args))
    except KeyboardInterrupt:
        sys.stderr.write("\nInterrupted.\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
