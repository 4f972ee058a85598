"""Shared helpers for the Classic rule cases (tests/rules/cases/test_classic_*.py)."""

from __future__ import annotations

from typing import Any, TypeVar

from rules import events as ev
from rules import orders as od
from rules.state import Unit
from tests.rules.helpers import Game, position

CM = "combat_move"
NCM = "noncombat_move"
COMBAT = "conduct_combat"

RUS, GER, UK, JAP, USA = "Russia", "Germany", "United Kingdom", "Japan", "United States"
AA, IC = "antiaircraft gun", "industrial complex"


def game(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]] | None = None,
         **extra: Any) -> Game:
    """A Classic position with only ``units`` on the board (printed complexes stay)."""
    return Game(position(power, phase, units, edition="classic", **extra))


def move(units: dict[str, int], frm: str, to: str, *via: str, raid: bool = False) -> od.Move:
    return od.Move(units=units, frm=frm, to=to, via=tuple(via), raid=raid)


def pieces(g: Game, space: str, power: str, utype: str) -> list[Unit]:
    return sorted((u for u in g.state.units_in(space) if u.owner == power and u.type == utype),
                  key=lambda u: u.id)


def one(g: Game, space: str, power: str, utype: str) -> Unit:
    found = pieces(g, space, power, utype)
    assert len(found) == 1, found
    return found[0]


E = TypeVar("E")


def of_type(events: list[ev.Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def battles(g: Game) -> dict[str, ev.BattleOpened]:
    return {e.space: e for e in g.events if isinstance(e, ev.BattleOpened)}
