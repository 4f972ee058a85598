"""The battle orders, described once each (``rules.language.registry``): battle, casualties,
retreat, press, submerge, strike.

Their space argument is a ``battle`` argument where the order decides a battle: autocomplete
offers the spaces of the asking power's legal battle decisions and every space with a battle.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules.errors import AmbiguousOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import IN, TO, lead_name, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.language.units import (
    NUMBERISH,
    count_of,
    format_units,
    is_count,
    parse_casualty_units,
    parse_units,
)
from rules.messages import catalogue, msg
from rules.orders import (
    Battle,
    Casualties,
    Order,
    Press,
    Retreat,
    Strike,
    Submerge,
    Units,
)

__all__ = [
    "BATTLE",
    "CASUALTIES",
    "PRESS",
    "RETREAT",
    "STRIKE",
    "SUBMERGE",
    "space_count",
]

_SPACE = Arg("space", "battle")
"""The battle an order is about."""


def _space_hint(words: str, command: str) -> Hint:
    return Hint(words, command, (r"(?P<space>.+)",))


# --- battle ------------------------------------------------------------------------------------


def _battle(rest: str, names: Names, verb: str) -> Battle:
    if not rest:
        raise BATTLE.expected("battle Ukraine")
    m = re.fullmatch(r"(.*\S)\s+all", rest, re.I | re.S)
    if m is not None:
        try:
            return Battle(space=names.space(m.group(1)), all=True)
        except InvalidOrder:
            if names.table("space").strict(rest) is None:
                raise
    return Battle(space=names.space(rest))


BATTLE = ORDERS.register(OrderSyntax[Order](
    verb="battle",
    usage="battle <space> [all]",
    read=_battle,
    rank=50,
    makes=(Battle,),
    example=lambda b: (f"battle {b.near}", f"/battle space:{b.near}"),
    explain="""\
Conduct Combat, by the attacker: fights one round of the battle in that space (both sides
fire; every die is in the answer). When a side has a choice of casualties the game waits for
'{casualties}' from it; then the attacker continues with '{press}' or leaves with '{retreat}'.
'all' fights to the end, each side losing units in its default order where it has given one
('{standing}'); a defender with a real choice is still asked.""",
    args=(_SPACE,),
    hints=(Hint("battle", "/battle", (r"(?P<space>.+?)(?P<all> all)?",)),),
))


# --- casualties --------------------------------------------------------------------------------


def _space_then_units(rest: str, names: Names, syntax: OrderSyntax[Any], example: str,
                      units_of: Callable[[str], Units] | None = None) -> tuple[str, Units]:
    """'<space> <units>': the space is the longest leading run of words that names one."""
    read = units_of or (lambda text: parse_units(text, names))
    if ":" in rest:
        left, _, right = rest.partition(":")
        if not left.strip() or not right.strip():
            raise syntax.expected(example)
        return names.space(left), read(right)
    lead = lead_name(rest, names.table("space"))
    if lead is not None and lead[1]:
        return lead[0], read(lead[1])
    words = rest.split()
    if len(words) < 2:
        raise syntax.expected(example)
    # no exact space name: the space ends where a count begins (or before the last word)
    cut = next((i for i in range(1, len(words)) if is_count(words[i])), len(words) - 1)
    space = names.space(" ".join(words[:cut]))
    return space, read(" ".join(words[cut:]))


def _casualties(rest: str, names: Names, verb: str) -> Casualties:
    example = "casualties Ukraine 2 infantry, 1 tank"
    if not rest:
        raise CASUALTIES.expected(example)
    origins: dict[str, dict[str, int]] = {}

    def units_of(text: str) -> Units:
        units, found = parse_casualty_units(text, names)
        origins.clear()
        origins.update(found)
        return units

    try:
        space, units = _space_then_units(rest, names, CASUALTIES, example, units_of)
    except InvalidOrder as first:
        # also accept 'casualties 2 infantry in Ukraine'
        try:
            alt = try_splits(split_all(rest, IN), units_of, names.space)
        except InvalidOrder:
            raise first from None
        if alt is None:
            raise
        units, space = alt
    return Casualties(space=space, units=units, origins=dict(origins))


def _casualty_units(o: Any, c: Chosen) -> str | None:
    return format_units(o.units) if isinstance(o, Casualties) and c.fits("space", o.space) else None


CASUALTIES = ORDERS.register(OrderSyntax[Order](
    verb="casualties",
    usage="casualties <space> <units>  (e.g. 'casualties Ukraine 2 infantry, 1 tank')",
    read=_casualties,
    words=("casualties", "casualty"),
    rank=60,
    makes=(Casualties,),
    example=lambda b: (f"casualties {b.near} 1 {b.cheap}",
                       f"/casualties space:{b.near} units:1 {b.cheap}"),
    explain="""\
By the side that owes casualties in a battle (the defender answers its own, even during the
other side's turn): names the units that take the hits scored. Every hit must be assigned, to
units that may take it (a unit with two hits, where the edition has one, may take one and stay,
damaged). Answer:
'{casualties_answer}'""",
    args=(_SPACE, Arg("units", "units", offer=_casualty_units)),
    hints=(Hint("casualties", "/casualties", (
        r"(?P<units>\d.*?) in (?P<space>.+)",
        r"(?P<space><[^>]+>|\D+?) (?P<units><[^>]+>|\d.*)",
    )),),
))


# --- retreat, press ----------------------------------------------------------------------------


def _retreat(rest: str, names: Names, verb: str) -> Retreat:
    ends = try_splits(split_all(rest, TO), names.space, names.space)
    if ends is None:
        raise RETREAT.expected("retreat Ukraine to West Russia")
    return Retreat(space=ends[0], to=ends[1])


def _retreat_to(o: Any, c: Chosen) -> str | None:
    return o.to if isinstance(o, Retreat) and c.fits("space", o.space) else None


RETREAT = ORDERS.register(OrderSyntax[Order](
    verb="retreat",
    usage="retreat <space> to <space>",
    read=_retreat,
    rank=70,
    makes=(Retreat,),
    example=lambda b: (f"retreat {b.near} to {b.home}", f"/retreat space:{b.near} to:{b.home}"),
    explain="""\
By the attacker, after a round of a battle: all attacking units there leave for one adjacent
friendly space at least one of them came from; the defender keeps the space.""",
    args=(_SPACE, Arg("to", "space", offer=_retreat_to)),
    hints=(Hint("retreat", "/retreat", (r"(?P<space>.+?) to (?P<to>.+)",)),),
))


def _press(rest: str, names: Names, verb: str) -> Press:
    if not rest:
        raise PRESS.expected("press Ukraine")
    return Press(space=names.space(rest))


PRESS = ORDERS.register(OrderSyntax[Order](
    verb="press",
    usage="press <space>",
    read=_press,
    rank=80,
    makes=(Press,),
    example=lambda b: (f"press {b.near}", f"/press space:{b.near}"),
    explain="""\
By the attacker, after a round of a battle: the battle goes on with the next round (fight it
with '{battle}').""",
    args=(_SPACE,),
    hints=(_space_hint("press", "/press"),),
))


# --- submarines: submerge, strike (1941 SS-2, SS-3) ---------------------------------------------


def space_count(rest: str, names: Names, verb: str) -> tuple[str, int | None]:
    """'<space> [n|all]': a space, then an optional count of submarines (None: all)."""
    m = re.fullmatch(r"(.*\S)\s+(\S+)", rest, re.S)
    if m is not None and m.group(2).casefold() == "all":
        return names.space(m.group(1)), None
    if m is not None and NUMBERISH.fullmatch(m.group(2)):
        whole = names.table("space").strict(rest)
        try:
            space = names.space(m.group(1))
        except InvalidOrder:
            if whole is None:
                raise
            return whole, None
        count = count_of(m.group(2), rest)
        if whole is not None and whole != space:
            raise AmbiguousOrder(msg("battles.subs_ambiguous", text=rest, whole=whole,
                                     count=count, space=space, verb=verb), [whole, space])
        return space, count
    return names.space(rest), None


def _submerge(rest: str, names: Names, verb: str) -> Submerge:
    if not rest:
        raise SUBMERGE.expected("submerge Sea Zone 5 2")
    space, count = space_count(rest, names, "submerge")
    return Submerge(space=space, count=count)


SUBMERGE = ORDERS.register(OrderSyntax[Order](
    verb="submerge",
    usage="submerge <space> [n]",
    read=_submerge,
    rank=90,
    topic="battles",
    makes=(Submerge,),
    needs=lambda r: r.sub_retreat == "submerge",  # 1941 SS-3
    example=lambda b: (f"submerge {b.sea}", f"/submerge space:{b.sea}"),
    explain="""\
By the owner of submarines in a sea battle, where the edition lets them submerge: they leave the
battle before a round; a number submerges only that many.""",
    args=(_SPACE,),
    hints=(Hint("submerge", "/submerge", (r"(?P<space>.+?)(?: (?P<n>\d+|<n>))?",)),),
))


def _strike(rest: str, names: Names, verb: str) -> Strike:
    if not rest:
        raise STRIKE.expected("strike Sea Zone 5")
    return Strike(space=names.space(rest))


STRIKE = ORDERS.register(OrderSyntax[Order](
    verb="strike",
    usage="strike <space>",
    read=_strike,
    rank=100,
    topic="battles",
    makes=(Strike,),
    needs=lambda r: r.sub_first_strike == "declared",  # 1941 SS-2
    example=lambda b: (f"strike {b.sea}", f"/strike space:{b.sea}"),
    explain="""\
By the owner of submarines in a sea battle, where the edition lets them declare it: they make a
surprise strike this round (their victims may not fire back when the other side has no
destroyer).""",
    args=(_SPACE,),
    hints=(_space_hint("strike", "/strike"),),
))


catalogue("en", "battles", {
    "subs_ambiguous": "{text!r} could be all submarines in {whole} or {count} in {space}: write "
                      "'{verb} {whole}' or '{verb} {space} {count}'.",
})
