"""Politics (Europe 1940 §5): the state of war between each pair of powers.

Being on opposite sides is not being at war (§0 "Enemy", M-4, §22.1): a power is at war only
with the powers it declared war on, or that declared war on it, or that it was at war with when
the game began (§5.1, the edition's ``politics``). This module owns that matrix (``War``, a part
of the state) and tells the engine whether two powers are at war (``GameState.enemy``). An
edition without politics has every pair of opposite sides at war throughout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.edition import Edition
from rules.errors import InvalidOrder
from rules.messages import catalogue, msg
from rules.position import PartKey, Written
from rules.state import GameState, at_war_rule
from rules.turn import registry as reg

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class War:
    """The politics' part of the state: the pairs of powers at war, each pair in turn order,
    the pairs in turn order; None while nothing has changed since the start (the edition's
    ``politics.at_war``, ``Edition.war_at_start``)."""

    pairs: tuple[Pair, ...] | None = None


def pair(ed: Edition, a: str, b: str) -> Pair:
    """The pair ``{a, b}`` in turn order."""
    order = ed.turn_order
    return (a, b) if order.index(a) <= order.index(b) else (b, a)


def at_war_pairs(s: GameState) -> frozenset[frozenset[str]]:
    """Every pair of powers at war now (each a frozenset of two)."""
    pairs = s.part(War).pairs
    if pairs is None:
        return s.edition.war_at_start
    return frozenset(frozenset(p) for p in pairs)


@at_war_rule
def _at_war(s: GameState, a: str, b: str) -> bool:
    pairs = s.part(War).pairs
    if pairs is None:
        return frozenset((a, b)) in s.edition.war_at_start
    return pair(s.edition, a, b) in pairs


def at_war_with_anyone(s: GameState, power: str) -> bool:
    """``power`` is at war with some power (NW-3: else it is a "neutral power")."""
    return any(power in p for p in at_war_pairs(s))


def with_war(s: GameState, a: str, b: str) -> GameState:
    """``s`` with ``a`` and ``b`` at war (DW-3/DW-4: only these two)."""
    ed = s.edition
    now = {pair(ed, *sorted(p, key=ed.turn_order.index)) for p in at_war_pairs(s)}
    now.add(pair(ed, a, b))
    return s.with_part(War(pairs=_ordered(ed, now)))


def _ordered(ed: Edition, pairs: set[Pair]) -> tuple[Pair, ...]:
    rank = {p: i for i, p in enumerate(ed.turn_order)}
    return tuple(sorted(pairs, key=lambda p: (rank[p[0]], rank[p[1]])))


# --------------------------------------------------------------------------------------------
# The position key 'war' (COMMANDS.md): the complete list of pairs at war


def _read_war(ed: Edition, value: Any) -> list[list[str]]:
    from rules.language.names import names_for

    if ed.rules.politics is None:
        raise InvalidOrder(msg("politics.position_none", edition=ed.rules.title))
    if not isinstance(value, list | tuple):
        raise InvalidOrder(msg("politics.position_list"))
    names = names_for(ed.id)
    out: set[Pair] = set()
    for item in value:
        if not isinstance(item, list | tuple) or len(item) != 2 \
                or not all(isinstance(x, str) for x in item):
            raise InvalidOrder(msg("politics.position_pair", item=item))
        a, b = (names.resolve("power", x) for x in item)
        if ed.side_of(a) == ed.side_of(b):
            raise InvalidOrder(msg("politics.position_allies", "P-6", a=a, b=b))
        out.add(pair(ed, a, b))
    return [list(p) for p in _ordered(ed, out)]


def _build_war(ed: Edition, part: War, value: list[list[str]]) -> War:
    return War(pairs=tuple((a, b) for a, b in value))


def _write_war(s: GameState) -> list[list[str]] | None:
    ed = s.edition
    if ed.rules.politics is None:
        return None
    return [list(p) for p in _ordered(ed, {pair(ed, *sorted(x, key=ed.turn_order.index))
                                           for x in at_war_pairs(s)})]


reg.part(War, key="war", per_turn=False, position={"pairs": Written(("war",))},
         keys=[PartKey("war", _read_war, _build_war, _write_war)])


catalogue("en", "politics", {
    "position_none": "Position war: in {edition} the powers of opposite sides are at war "
                     "throughout; leave 'war' out.",
    "position_list": 'Position war: a list of pairs of powers at war, e.g. [["Germany", '
                     '"France"]]; an empty list: nobody is at war.',
    "position_pair": "Position war: {item!r} is not a pair of power names.",
    "position_allies": "Position war: {a} and {b} are allies; allies are never at war ({rule}).",
})
