"""Autocomplete: names from the edition (``Names.complete``), preferring what ``legal_orders``
makes sense of when the channel has a game being played. At most 25 choices, filtered by what
was typed; it never raises (a failing autocomplete shows nothing rather than an error)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from typing import Any

import discord
from discord import app_commands

from cogs._common import MAX_CHOICES, channel_key, person, umpire
from rules import orders as od
from rules import parse as ps
from rules.edition import default_edition, edition_catalog
from rules.engine import pending
from rules.errors import RulesError
from rules.legal import legal_orders
from rules.state import GameState
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


async def any_space(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    return merged((), ctx.names.complete("space", current), current)


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


async def any_units(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    return unit_list(ctx.names, current)


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


async def move_from(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Spaces where the asking person's power has units that can move now."""
    ctx = await context(interaction)
    srcs = [o.frm for o in ctx.legal() if isinstance(o, od.Move)]
    return merged(srcs, ctx.names.complete("space", current), current)


async def move_to(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Where the units in ``from`` can go (any destination when ``from`` is empty)."""
    ctx = await context(interaction)
    frm = known_space(ctx.names, option(interaction, "from"))
    dsts = [o.to for o in ctx.legal() if isinstance(o, od.Move) and (not frm or o.frm == frm)]
    return merged(dsts, ctx.names.complete("space", current), current)


async def move_units(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Unit groups that can move from ``from`` (to ``to`` when given), then unit names."""
    ctx = await context(interaction)
    frm = known_space(ctx.names, option(interaction, "from"))
    to = known_space(ctx.names, option(interaction, "to"))
    groups = [
        ps.format_units(o.units)
        for o in ctx.legal()
        if isinstance(o, od.Move) and (not frm or o.frm == frm) and (not to or o.to == to)
    ]
    return unit_list(ctx.names, current, groups)


def _spaces_of(kinds: tuple[type[od.Order], ...]) -> Callback:
    async def complete(interaction: discord.Interaction[Any], current: str) -> Choices:
        ctx = await context(interaction)
        spaces = [str(getattr(o, "space", "")) for o in ctx.legal() if isinstance(o, kinds)]
        if ctx.state is not None and kinds != (od.Place,):
            spaces += list(ctx.state.battles)
        return merged([s for s in spaces if s], ctx.names.complete("space", current), current)

    return complete


battle_space = _spaces_of((od.Battle, od.Press, od.Retreat, od.Casualties, od.Submerge, od.Strike,
                           od.Withdraw))
place_space = _spaces_of((od.Place,))
raid_space = _spaces_of((od.Bomb,))


async def withdraw_to(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    zones = [o.to for o in ctx.legal() if isinstance(o, od.Withdraw) and o.to]
    return merged(list(dict.fromkeys(zones)), ctx.names.complete("space", current), current)


async def buy_units(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    affordable = [ps.format_units(o.units) for o in ctx.legal() if isinstance(o, od.Buy)]
    return unit_list(ctx.names, current, affordable)


def _units_in(kind: type[od.Place] | type[od.Casualties], space_option: str) -> Callback:
    """Unit lists of the legal ``kind`` orders, narrowed to the space already chosen."""

    async def complete(interaction: discord.Interaction[Any], current: str) -> Choices:
        ctx = await context(interaction)
        where = known_space(ctx.names, option(interaction, space_option))
        groups = [
            ps.format_units(o.units)
            for o in ctx.legal()
            if isinstance(o, kind) and (not where or o.space == where)
        ]
        return unit_list(ctx.names, current, groups)

    return complete


place_units = _units_in(od.Place, "in")
casualty_units = _units_in(od.Casualties, "space")


async def retreat_to(interaction: discord.Interaction[Any], current: str) -> Choices:
    ctx = await context(interaction)
    where = known_space(ctx.names, option(interaction, "space"))
    dsts = [
        o.to for o in ctx.legal() if isinstance(o, od.Retreat) and (not where or o.space == where)
    ]
    return merged(dsts, ctx.names.complete("space", current), current)


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


async def rocket_from(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Where the asking power's antiaircraft guns can fire a rocket from now."""
    ctx = await context(interaction)
    srcs = [o.frm for o in ctx.legal() if isinstance(o, od.Rocket)]
    return merged(srcs, ctx.names.complete("space", current), current)


async def rocket_target(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Enemy industrial complexes a rocket can reach (from ``from`` when it is given)."""
    ctx = await context(interaction)
    frm = known_space(ctx.names, option(interaction, "from"))
    targets = [o.target for o in ctx.legal()
               if isinstance(o, od.Rocket) and (not frm or o.frm == frm)]
    return merged(targets, ctx.names.complete("space", current), current)
