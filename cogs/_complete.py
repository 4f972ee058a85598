"""Autocomplete: names from the edition (``Names.complete``), preferring what ``legal_orders``
makes sense of when the channel has a game being played. At most 25 choices, filtered by what
was typed; it never raises (a failing autocomplete shows nothing rather than an error).

What each order's options offer is in the order's description (``rules.language.registry``:
``OrderSyntax.args``); ``completes(verb)`` attaches it to the slash command of that order."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any, TypeVar

import discord
from discord import app_commands

from cogs._common import MAX_CHOICES, channel_key, person, umpire
from rules import orders as od
from rules.edition import default_edition, edition_catalog
from rules.engine import pending
from rules.errors import RulesError
from rules.language.registry import Arg
from rules.legal import legal_orders
from rules.state import GameState
from service import language as ps
from service.games import GameInfo, ServiceError

log = logging.getLogger(__name__)

MAX_LEGAL = 3000  # legal orders looked at per keystroke (a turn has a few hundred)

Choices = list[app_commands.Choice[str]]


@dataclass(frozen=True)
class Context:
    """What an autocomplete knows: the game here (if any), its names, state and the acting power."""

    game: GameInfo | None
    names: ps.Names
    state: GameState | None
    power: str | None  # the power the asking person would act for now, if any

    def legal(self) -> list[od.Order]:
        if self.state is None or self.power is None:
            return []
        try:
            return list(islice(legal_orders(self.state, self.power), MAX_LEGAL))
        except Exception:  # autocomplete is a hint; the command re-validates
            log.exception("legal_orders failed in autocomplete")
            return []


async def context(interaction: discord.Interaction[Any]) -> Context:
    bot = umpire(interaction)
    game = await bot.service.game_in(channel_key(interaction))
    names = ps.names_for(game.edition if game else default_edition())
    if game is None or game.status != "active":
        return Context(game, names, None, None)
    try:
        state = await bot.service.state(game.id)
    except ServiceError:
        return Context(game, names, None, None)
    me = person(interaction.user)
    mine = [p for p, who in game.seats.items() if who == me]
    power: str | None = None
    owed = [p.power for p in pending(state) if p.power in mine]
    if owed:
        power = owed[0]
    elif state.power in mine:
        power = state.power
    return Context(game, names, state, power)


def choices(values: Iterable[str], current: str) -> Choices:
    """Distinct values that fit ``current`` (case-insensitive, words in order), at most 25."""
    typed = " ".join(current.casefold().split())
    out: list[str] = []
    for v in values:
        if v in out:
            continue
        if typed and typed not in v.casefold():
            continue
        out.append(v)
        if len(out) == MAX_CHOICES:
            break
    return [app_commands.Choice(name=v[:100], value=v[:100]) for v in out]


def merged(preferred: Iterable[str], fallback: list[str], current: str) -> Choices:
    """``preferred`` (from legal orders) that fit what was typed, then names from the edition."""
    first = choices(preferred, current)
    seen = {c.value for c in first}
    rest = [app_commands.Choice(name=v, value=v) for v in fallback if v not in seen]
    return (first + rest)[:MAX_CHOICES]


def known_space(names: ps.Names, text: str) -> str:
    """The space ``text`` names, or "" when it names none (yet)."""
    if not text.strip():
        return ""
    try:
        return names.space(text)
    except RulesError:
        return ""


def option(interaction: discord.Interaction[Any], name: str) -> str:
    value = getattr(interaction.namespace, name, None)
    return value if isinstance(value, str) else ""


def unit_list(names: ps.Names, current: str, groups: Iterable[str] = ()) -> Choices:
    """Complete the last entry of a unit list ('3 infantry, 1 ta' → '3 infantry, 1 tank')."""
    head, sep, last = current.rpartition(",")
    prefix = f"{head}{sep} " if sep else ""
    words = last.split()
    count = f"{words[0]} " if words and words[0].isdigit() else ""
    typed = " ".join(words[1:] if count else words)
    names_done = [f"{prefix}{count}{u}".strip() for u in names.complete("unit", typed)]
    return merged(groups if not sep else (), names_done, "" if sep else current)


# --- the autocomplete callbacks -------------------------------------------------------------

Callback = Callable[[discord.Interaction[Any], str], Any]


async def any_power(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    preferred: list[str] = []
    if ctx.game is not None and ctx.game.status == "lobby":
        preferred = [p for p in ctx.names.all("power") if p not in ctx.game.seats]
    return merged(preferred, ctx.names.complete("power", current), current)


async def my_power(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    me = person(interaction.user)
    mine = [p for p, who in (ctx.game.seats.items() if ctx.game else ()) if who == me]
    return merged(mine, ctx.names.complete("power", current), current)


async def edition(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The installed editions by title (the value is what 'game new' takes), from their data."""
    del interaction
    typed = " ".join(current.casefold().split())
    out: Choices = []
    for r in edition_catalog():
        words = (r.word, r.id, r.title, *r.aliases)
        if typed and not any(typed in w.casefold() for w in words):
            continue
        out.append(app_commands.Choice(name=f"{r.title} ({r.word})"[:100], value=r.word[:100]))
    return out[:MAX_CHOICES]


async def edition_options(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The options of the edition chosen in ``edition`` (the default edition without one)."""
    chosen = option(interaction, "edition").strip().casefold()
    catalog = edition_catalog()
    rules = next(
        (r for r in catalog
         if chosen and chosen in (r.word.casefold(), r.id, *(a.casefold() for a in r.aliases))),
        catalog[0] if catalog else None,
    )
    if rules is None:
        return []
    head, _, last = current.rpartition(" ")
    prefix = f"{head} " if head else ""
    taken = set(head.split())
    out: Choices = []
    for name, about in rules.options.items():
        if name in taken or not name.startswith(last.casefold()):
            continue
        label = f"{prefix}{name}: {about}"
        out.append(app_commands.Choice(name=label[:100], value=f"{prefix}{name}"[:100]))
    return out[:MAX_CHOICES]


async def end_phase(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The phase /end ends: the current one, filled in when the command is typed; the
    edition's other phases only when typed."""
    try:
        ctx = await context(interaction)
        ed = ctx.names.edition
        if ed is None:
            return []
        now = [ed.phase_info[ctx.state.phase].name] if ctx.state is not None else []
        others = [p.name for p in ed.rules.phases] if current.strip() else []
        return choices([*now, *others], current)
    except Exception:  # autocomplete is a hint; the command re-validates
        log.exception("end phase autocomplete failed")
        return []


class _Chosen:
    """The spaces already chosen in the interaction's other options (``rules.language.Chosen``)."""

    def __init__(self, interaction: discord.Interaction[Any], names: ps.Names) -> None:
        self.interaction = interaction
        self.names = names
        self.known: dict[str, str] = {}

    def fits(self, name: str, value: str) -> bool:
        if name not in self.known:
            self.known[name] = known_space(self.names, option(self.interaction, name))
        where = self.known[name]
        return not where or where == value


def _offered(arg: Arg) -> Callback:
    """Names of the argument's kind, those the legal orders offer first."""
    from_legal = arg.offer is not None or arg.kind == "battle"

    async def complete(interaction: discord.Interaction[Any], current: str) -> Choices:
        ctx = await context(interaction)
        battles = list(ctx.state.battles) if ctx.state is not None else []
        preferred = ps.LANGUAGE.offers(arg, ctx.legal() if from_legal else [],
                                       _Chosen(interaction, ctx.names), battles)
        if arg.kind == "units":
            return unit_list(ctx.names, current, preferred)
        return merged(preferred, ctx.names.complete("space", current), current)

    return complete


_BY_KIND: dict[str, Callback] = {
    "power": any_power,
    "own power": my_power,
    "edition": edition,
    "options": edition_options,
    "phase": end_phase,
}


def callback(arg: Arg) -> Callback:
    """The autocomplete of one argument of an order's description."""
    return _BY_KIND.get(arg.kind) or _offered(arg)


C = TypeVar("C", bound=app_commands.Command[Any, Any, Any])


def completes(verb: str, sub: str = "") -> Callable[[C], C]:
    """Decorates a slash command (above ``@app_commands.command``) with the autocomplete of
    the order ``verb`` (its subcommand ``sub``): each option named like an argument of the
    order's description offers what the description says. An argument without an option of
    its name is an error at import."""

    def attach(command: C) -> C:
        syntax = ps.LANGUAGE.syntax(verb)
        if syntax is None:
            raise LookupError(f"no order {verb!r} is described")
        params = {p.display_name: p.name for p in command.parameters}
        for arg in syntax.args:
            if arg.sub != sub:
                continue
            if arg.name not in params:
                raise LookupError(f"/{command.qualified_name} has no option {arg.name!r}")
            command.autocomplete(params[arg.name])(callback(arg))
        return command

    return attach
