"""The turn's orders outside battle, described once each (``rules.language.registry``): buy,
move (load, unload), place, end, standing casualties. Orders of a mechanism of their own are
described in its module (``rules/mechanisms/``).

Each description holds the order's syntax line, its reader, its example and explanation for
``help``, and what autocomplete offers for its arguments; registering it in ``ORDERS`` is all
it takes for the parser, the usage lines, ``help`` and the slash commands' autocomplete.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import InvalidOrder
from rules.language.names import Names
from rules.language.reading import FROM, IN, TO, lead_name, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Board, Chosen, Hint, OrderSyntax
from rules.language.units import format_units, is_count, parse_units, plural
from rules.messages import Msg, catalogue, msg
from rules.orders import (
    Buy,
    ClearPurchase,
    EndPhase,
    Move,
    Order,
    Place,
    StandingCasualties,
)

__all__ = ["BUY", "END", "LOAD", "MOVE", "PLACE", "STANDING", "UNLOAD"]


def two_units(b: Board) -> str:
    """'3 infantry, 1 artillery' on a board: the examples' unit list."""
    return (format_units({b.cheap: 3, b.second: 1}) if b.second != b.cheap
            else format_units({b.cheap: 3}))


# --- buy ---------------------------------------------------------------------------------------


def _buy(rest: str, names: Names, verb: str) -> Buy | ClearPurchase:
    if rest.casefold() == "clear":
        return ClearPurchase()
    if not rest:
        raise InvalidOrder(msg("orders.buy_usage"))
    return Buy(units=parse_units(rest, names))


def _buy_units(o: Any, c: Chosen) -> str | None:
    return format_units(o.units) if isinstance(o, Buy) else None


BUY = ORDERS.register(OrderSyntax[Order](
    verb="buy",
    usage="buy <units>  (e.g. 'buy 3 infantry, 1 tank'; 'buy clear' empties the list)",
    read=_buy,
    rank=10,
    makes=(Buy, ClearPurchase),
    example=lambda b: (f"buy {two_units(b)}", f"/buy units:{two_units(b)}"),
    explain="""\
Purchase Units, by the power whose turn it is: adds units to this turn's purchase and pays for
them at once from the treasury (a purchase you cannot afford is refused with what is left).
Orders add up; 'buy clear' empties the list and refunds it. The units are placed at the end of
the turn (Mobilize New Units). Answer: '{buy_answer}'""",
    args=(Arg("units", "units", offer=_buy_units),),
    hints=(Hint("buy", "/buy", (r"(?P<units>.+)",)),),
))


# --- move, load, unload ------------------------------------------------------------------------

_VIA = re.compile(r"\bvia\b", re.I)
_PATH_SEP = re.compile(r"\s*(?:,|;|->|→|\band\b|\bthen\b)\s*", re.I)


@dataclass(frozen=True)
class MoveEnding:
    """Words a mechanism lets a move end with, to declare something for it: ``pattern`` finds
    them at the end of the line, ``sets`` are the fields of the ``Move`` they set; ``usage`` is
    added to the syntax line, ``advice`` to the refusal of a line that does not fit the form,
    ``explain`` to the help (after the sentence on unloading) and ``hint`` to the pattern of the
    slash hint (a named group: the ``/move`` option it fills)."""

    pattern: re.Pattern[str]
    sets: Mapping[str, Any]
    usage: str
    advice: Msg
    explain: str
    hint: str


_ENDINGS: list[MoveEnding] = []


def move_ending(ending: MoveEnding) -> None:
    """Register an ending of ``move`` (a mechanism's, at import): read by move, load and
    unload, described in the ``move`` syntax."""
    global MOVE
    _ENDINGS.append(ending)
    MOVE = ORDERS.replace(MOVE, _move_syntax())


def _move(rest: str, names: Names, verb: str) -> Move:
    usage = InvalidOrder(msg("orders.move_usage", verb=verb,
                             endings=[e.advice for e in _ENDINGS]))
    m = FROM.search(rest)
    if m is None:
        raise usage
    units_text, path = rest[: m.start()].strip(), rest[m.end() :].strip()
    if not units_text or not path:
        raise usage
    units = parse_units(units_text, names)
    declared: dict[str, Any] = {}
    for ending in _ENDINGS:
        em = ending.pattern.search(path)
        if em is not None:
            path = path[: em.start()].strip()
            declared.update(ending.sets)
    via: tuple[str, ...] = ()
    vm = _VIA.search(path)
    if vm is not None:
        path, via_text = path[: vm.start()].strip(), path[vm.end() :].strip()
        parts = [p for p in _PATH_SEP.split(via_text) if p.strip()]
        if not parts:
            raise usage
        via = tuple(names.space(p) for p in parts)
    ends = try_splits(split_all(path, TO), names.space, names.space)
    if ends is None:
        raise usage
    return Move(units=units, frm=ends[0], to=ends[1], via=via, **declared)


def _move_from(o: Any, c: Chosen) -> str | None:
    return o.frm if isinstance(o, Move) else None


def _move_to(o: Any, c: Chosen) -> str | None:
    return o.to if isinstance(o, Move) and c.fits("from", o.frm) else None


def _move_units(o: Any, c: Chosen) -> str | None:
    if isinstance(o, Move) and c.fits("from", o.frm) and c.fits("to", o.to):
        return format_units(o.units)
    return None


_MOVE_ARGS = (
    Arg("units", "units", offer=_move_units),
    Arg("from", "space", offer=_move_from),
    Arg("to", "space", offer=_move_to),
)
_LOAD_HINT = (r"(?P<units>.+?) from (?P<from>.+?) to (?P<to>.+)",)

_MOVE_EXPLAIN = ("""\
Combat Move or Noncombat Move, by the power whose turn it is. In Combat Move units move into
enemy spaces (each becomes a battle) or wherever a combat move may end; in Noncombat Move into
friendly spaces only, and aircraft land. The referee finds the path; 'via' names the spaces to
pass when several paths exist. Land units move into a sea zone onto a transport there (load)
and from a sea zone onto land (unload, an amphibious assault in Combat Move).""",
                  # the endings' sentences go here
                  """ A move the rules forbid
is refused with the rule and changes nothing.""")


def _move_syntax() -> OrderSyntax[Order]:
    """The ``move`` syntax, with the endings the mechanisms registered."""
    return OrderSyntax[Order](
        verb="move",
        usage="move <units> from <space> to <space> [via <space>, <space>]"
              + "".join(e.usage for e in _ENDINGS),
        read=_move,
        rank=20,
        makes=(Move,),
        example=lambda b: (f"move 2 {plural(b.cheap)} from {b.home} to {b.near}",
                           f"/move units:2 {plural(b.cheap)} from:{b.home} to:{b.near}"),
        explain="".join((_MOVE_EXPLAIN[0], *(e.explain for e in _ENDINGS), _MOVE_EXPLAIN[1])),
        args=_MOVE_ARGS,
        hints=(Hint("move", "/move", (
            r"(?P<units>.+?) from (?P<from>.+?) to (?P<to>.+?)(?: via (?P<via>.+?))?"
            + "".join(e.hint for e in _ENDINGS),
        )),),
    )


MOVE = ORDERS.register(_move_syntax())

LOAD = ORDERS.register(OrderSyntax[Order](
    verb="load",
    usage="load <units> from <space> to <sea zone>  (same as move)",
    read=_move,
    rank=30,
    makes=(Move,),
    example=lambda b: (f"load 1 {b.cheap} from {b.home} to {b.sea}",
                       f"/move units:1 {b.cheap} from:{b.home} to:{b.sea}"),
    explain="""\
The same as 'move' from a territory to a sea zone: the land units board a friendly transport
there (they may not have moved this turn).""",
    hints=(Hint("load", "/move", _LOAD_HINT),),
))

UNLOAD = ORDERS.register(OrderSyntax[Order](
    verb="unload",
    usage="unload <units> from <sea zone> to <space>  (same as move)",
    read=_move,
    rank=40,
    makes=(Move,),
    example=lambda b: (f"unload 1 {b.cheap} from {b.sea} to {b.home}",
                       f"/move units:1 {b.cheap} from:{b.sea} to:{b.home}"),
    explain="""\
The same as 'move' from a sea zone to a territory: the land units leave their transport; into
an enemy territory in Combat Move this is an amphibious assault.""",
    hints=(Hint("unload", "/move", _LOAD_HINT),),
))


# --- place -------------------------------------------------------------------------------------


def _place(rest: str, names: Names, verb: str) -> Place:
    got = try_splits(split_all(rest, IN), lambda s: parse_units(s, names), names.space)
    if got is None:
        raise PLACE.expected("place 2 infantry in Germany")
    return Place(units=got[0], space=got[1])


def _place_units(o: Any, c: Chosen) -> str | None:
    return format_units(o.units) if isinstance(o, Place) and c.fits("in", o.space) else None


def _place_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, Place) else None


PLACE = ORDERS.register(OrderSyntax[Order](
    verb="place",
    usage="place <units> in <space>",
    read=_place,
    rank=130,
    makes=(Place,),
    example=lambda b: (f"place 2 {plural(b.cheap)} in {b.home}",
                       f"/place units:2 {plural(b.cheap)} in:{b.home}"),
    explain="""\
Mobilize New Units, by the power whose turn it is: puts units bought this turn on the board in
a territory with your industrial complex (sea units in a sea zone next to it), up to what that
territory may produce. Units left unplaced at the end of the phase are lost or refunded as the
edition says.""",
    args=(Arg("units", "units", offer=_place_units), Arg("in", "space", offer=_place_space)),
    hints=(Hint("place", "/place", (r"(?P<units>.+?) in (?P<in>.+)",)),),
))


# --- end ---------------------------------------------------------------------------------------


def _end(rest: str, names: Names, verb: str) -> EndPhase:
    """`end [<phase>] [confirm]`: a phase named is the one meant (refused once it has passed)."""
    usage = msg("orders.end_usage")
    words = " ".join(rest.casefold().split())
    what, confirm = re.fullmatch(r"(.*?)\s*(confirm!?|!)?", words).groups()  # type: ignore[union-attr]
    if verb == "end!":
        if confirm:
            raise InvalidOrder(usage)
        confirm = "!"
    if what in ("", "phase"):
        return EndPhase(confirm=bool(confirm))
    if names.edition is None:
        raise InvalidOrder(usage)
    from rules.edition import phase_id

    try:
        phase = phase_id(names.edition, what.removesuffix(" phase"))
    except InvalidOrder as e:
        raise InvalidOrder(msg("orders.end_phase", usage=usage, reason=e.msg or e.reason)) from None
    return EndPhase(confirm=bool(confirm), phase=phase)


END = ORDERS.register(OrderSyntax[Order](
    verb="end",
    usage="end | end confirm | end!",
    read=_end,
    words=("end", "end!"),
    rank=160,
    makes=(EndPhase,),
    example=lambda b: ("end", "/end"),
    explain="""\
Ends the current phase and moves on to the next (the answer says what comes next and whom the
game waits for). When ending would forfeit something (money unspent, units left unplaced, units
that could still move) the referee says so and '{end_confirm}' ends it anyway.""",
    args=(Arg("phase", "phase"),),
    hints=(
        Hint("end confirm", "/end phase:<phase> confirm:true"),
        Hint("end!", "/end phase:<phase> confirm:true"),
        Hint("end", "/end", (r"(?P<phase>.+?)(?P<confirm> confirm)?",)),
    ),
))


# --- standing casualties -----------------------------------------------------------------------

_LIST_SEP = re.compile(r"\s*(?:[,;>]|->|→|\band\b|\bthen\b)\s*", re.I)


def _segment_units(chunk: str, names: Names) -> list[str]:
    """Unit names in a chunk without separators ('infantry tank' -> ['infantry', 'tank'])."""
    table = names.table("unit")
    out: list[str] = []
    words = chunk.split()
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + table.max_words + 1), i, -1):
            found = table.strict(" ".join(words[i:j]))
            if found is not None:
                out.append(found)
                i = j
                break
        else:
            out.append(names.unit(" ".join(words[i:])))  # forgiving match, or the error
            break
    return out


def _standing(rest: str, names: Names, verb: str) -> StandingCasualties:
    example = "standing casualties Germany infantry, tank, fighter"
    usage = InvalidOrder(msg("orders.standing_usage", example=example))
    first, _, rest = rest.partition(" ")
    if first.casefold() not in ("casualties", "casualty"):
        raise usage
    rest = rest.strip()
    if not rest:
        raise usage
    if ":" in rest:
        left, _, listed = rest.partition(":")
        power = names.power(left)
    else:
        lead = lead_name(rest, names.table("power"))
        if lead is None:
            power = names.power(rest.split()[0])  # forgiving match, or the error
            listed = rest.split(None, 1)[1] if len(rest.split()) > 1 else ""
        else:
            power, listed = lead
    order: list[str] = []
    for chunk in _LIST_SEP.split(listed):
        if not chunk.strip():
            continue
        for word in chunk.split():
            if is_count(word) and word.casefold() not in ("a", "an"):
                raise InvalidOrder(msg("orders.standing_counts", example=example))
        for unit in _segment_units(chunk, names):
            if unit not in order:
                order.append(unit)
    if not order:
        raise usage
    return StandingCasualties(power=power, order=tuple(order))


STANDING = ORDERS.register(OrderSyntax[Order](
    verb="standing casualties",
    usage="standing casualties <power> <unit>, <unit>, ...",
    read=_standing,
    rank=210,
    makes=(StandingCasualties,),
    example=lambda b: (f"standing casualties {b.power} {b.cheap}, {b.second}",
                       f"/standing power:{b.power} units:{b.cheap}, {b.second}"),
    explain="""\
By a power's player, at any time: the order in which its units are lost by default (first
named, first lost), used by 'battle <space> all' and when a deadline answers for an absent
player. Unnamed units come after, cheapest first.""",
    args=(Arg("power", "own power"), Arg("units", "units")),
    hints=(Hint("standing casualties", "/standing", (r"(?P<power><[^>]+>) (?P<units>.+)",)),),
))


catalogue("en", "orders", {
    "buy_usage": "Expected 'buy <units>', e.g. 'buy 3 infantry, 1 tank', or 'buy clear' to empty "
                 "the purchase list.",
    "move_usage": lambda p: (f"Expected '{p['verb']} <units> from <space> to <space>'. Add 'via "
                             "<space>, <space>' to fix the path"
                             + "".join(f", and {e}" for e in p["endings"])
                             + f". For example: '{p['verb']} 2 infantry, 1 tank from Germany to "
                             "Eastern Europe'."),
    "end_usage": "Expected 'end' (ends the phase; asks to confirm if something would be lost), "
                 "'end <phase>' (only that phase), 'end confirm' or 'end!'.",
    "end_phase": "{usage} {reason}",
    "standing_usage": "Expected 'standing casualties <power> <unit>, <unit>, ...' (cheapest "
                      "first), e.g. '{example}'.",
    "standing_counts": "A standing casualty order lists unit types without counts, first lost "
                       "first: e.g. '{example}'.",
})
