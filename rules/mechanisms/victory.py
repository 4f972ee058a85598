"""Victory held for a round (Europe 1940 V-1, V-2, V-4, A-32): the edition's victory conditions
of kind ``held_a_round``.

At the end of every turn the referee records which of these conditions hold (for V-1: how many
victory cities the Axis holds; for V-2: whether Berlin and Rome are Allied), with the victory
cities each side holds (``VictoryCitiesCounted``). Control changes only through the moving
power's own captures and liberations, so the records at turn ends decide "continuously since
that power's previous turn" (A-32: from the end of that power's previous turn, one full round):
at the start of the turn of a power of the condition's side, the side wins if the condition
held at the end of that power's previous turn and at the end of every turn since, and it holds
one of its powers' capitals now; if it holds none, it still wins should the power now moving
liberate one by the end of its turn (V-1/V-2). The last capital lost does not end the game at
once (V-4, A-23): the checks above decide.

The watch (``Watch``) is this module's part of the state: for each condition, the powers since
whose last turn's end it has held at every turn's end. A position starts it afresh (no power of
a game started from a position has a previous turn in it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules.edition import VictoryCondition
from rules.messages import Msg, and_list, catalogue, msg, own_rule
from rules.position import NotCarried
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import possessive

if TYPE_CHECKING:
    from rules.turn.tx import Tx

KIND = "held_a_round"


@dataclass(frozen=True, slots=True)
class Watch:
    """The victory watch (A-32): ``(condition, power)`` for each condition (its number in the
    game's list of victory conditions) that has held at the end of every turn since that
    power's last turn ended."""

    held: frozenset[tuple[int, str]] = frozenset()


reg.part(Watch, key="victory_watch", per_turn=False,
         position={"held": NotCarried("the victory conditions held at every turn's end since "
                                      "each power's last turn: a game started from a position "
                                      "counts from its first turn's end")})


class VictoryCitiesCounted(ev.Event):
    """The record at the end of a turn (A-32): the victory cities each side holds, and which
    victory conditions held for a round (their numbers in the game's list) hold now."""

    type: Literal["VictoryCitiesCounted"] = "VictoryCitiesCounted"
    power: str  # whose turn ended
    held: tuple[tuple[str, tuple[str, ...]], ...]  # (side, the victory cities' territories)
    met: tuple[int, ...] = ()
    rule: str = own_rule("A-32")


def conditions(s: GameState) -> list[tuple[int, VictoryCondition]]:
    """The game's victory conditions held for a round, with their numbers in its list."""
    key = "short" if "short" in s.options else "standard"
    return [(i, c) for i, c in enumerate(s.edition.rules.victory.get(key, ()))
            if c.kind == KIND]


def held_of(s: GameState, cond: VictoryCondition) -> tuple[str, ...]:
    """The condition's territories its side holds now."""
    return tuple(t for t in cond.capitals
                 if (o := s.owners.get(t)) is not None and s.side(o) == cond.side)


def _met(s: GameState, cond: VictoryCondition) -> bool:
    return len(held_of(s, cond)) >= cond.need


def own_capitals(s: GameState, side: str) -> tuple[str, ...]:
    """The capitals of the side's powers that the side holds now (V-1/V-2)."""
    ed = s.edition
    caps = dict.fromkeys(ed.powers[p].capital for p in ed.powers_of_side(side))
    return tuple(c for c in caps if (o := s.owners.get(c)) is not None and s.side(o) == side)


def _won(tx: Tx, cond: VictoryCondition) -> bool:
    """The side wins now if it also holds a capital of its own (where the condition asks)."""
    s = tx.state
    if cond.own_capital and not own_capitals(s, cond.side):
        return False
    tx.emit(ev.GameWon(side=cond.side, rule=own_rule(f"{cond.rule}/A-32"),
                       capitals=held_of(s, cond)))
    return True


def _watching(s: GameState, power: str) -> Iterator[VictoryCondition]:
    """The conditions of the power's side that have held since its previous turn ended."""
    held = s.part(Watch).held
    for i, cond in conditions(s):
        if cond.side == s.side(power) and (i, power) in held:
            yield cond


@hooks.turn_ends
def _turn_ends(tx: Tx) -> bool:
    """V-1/V-2: the power moving has liberated a capital of its side by the end of its turn,
    where the rest of the condition held at its start; then the record of this turn's end."""
    s = tx.state
    if not conditions(s):
        return False
    for cond in _watching(s, s.power):
        if _won(tx, cond):
            return True
    tx.emit(VictoryCitiesCounted(
        power=s.power,
        held=tuple((side, _cities_held(s, side)) for side in s.edition.rules.sides),
        met=tuple(i for i, cond in conditions(s) if _met(s, cond)),
        rule=own_rule("A-32")))
    return False


def _cities_held(s: GameState, side: str) -> tuple[str, ...]:
    """The victory cities' territories the side holds (the conditions' territories where the
    map names none)."""
    cities = victory_cities(s)
    return tuple(t for t in cities if (o := s.owners.get(t)) is not None and s.side(o) == side)


def victory_cities(s: GameState) -> tuple[str, ...]:
    """The territories of the map's victory cities, else those the conditions count."""
    named = tuple(s.edition.map.victory_cities)
    if named:
        return named
    out: dict[str, None] = {}
    for _, cond in conditions(s):
        out.update(dict.fromkeys(cond.capitals))
    return tuple(out)


@hooks.turn_starts
def _turn_starts(tx: Tx) -> bool:
    """V-1/V-2: at the start of a power's turn, a condition of its side held since its
    previous turn, with a capital of the side held, wins."""
    s = tx.state
    return any(_won(tx, cond) for cond in _watching(s, s.power))


@reg.evolver(VictoryCitiesCounted)
def _ev_counted(s: GameState, e: VictoryCitiesCounted) -> GameState:
    """The watch after a turn's end: a condition holds since a power's last turn if it held
    then and holds now; since this power's own turn, if it holds now (A-32)."""
    held = s.part(Watch).held
    now: set[tuple[int, str]] = set()
    met = set(e.met)
    for i, cond in conditions(s):
        if i not in met:
            continue
        for p in s.edition.powers_of_side(cond.side):
            if p == e.power or (i, p) in held:
                now.add((i, p))
    return s.with_part(Watch(held=frozenset(now)))


# --------------------------------------------------------------------------------------------
# Words


@reg.words(VictoryCitiesCounted)
def _counted_words(s: GameState, e: VictoryCitiesCounted) -> Msg:
    names = s.edition.map.victory_cities
    conds = dict(conditions(s))
    return msg("victory.counted", e.rule, power=e.power,
               sides=[(side, [names.get(t, t) for t in ts]) for side, ts in e.held],
               met=[conds[i].rule for i in e.met if i in conds])


def _counted_text(p: Mapping[str, Any]) -> str:
    held = "; ".join(f"the {side} {len(cities)}" + (f" ({', '.join(cities)})" if cities else "")
                     for side, cities in p["sides"])
    met = (f"; held now: {and_list(p['met'])}" if p["met"] else "")
    return f"Victory cities at the end of {possessive(p['power'])} turn: {held}{met} ({p['rule']})."


catalogue("en", "victory", {
    "counted": _counted_text,
})
