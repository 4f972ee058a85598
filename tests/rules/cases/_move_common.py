"""Shared helpers for the a1941 movement cases (tests/rules/cases/test_a1941_move_*.py)."""

from __future__ import annotations

from typing import Any

from rules import events as ev
from rules import orders as od
from rules.state import Unit
from tests.rules.helpers import Game, position

CM = "combat_move"
NCM = "noncombat_move"

GER, SOV, UK, JAP, USA = "Germany", "Soviet Union", "United Kingdom", "Japan", "United States"


def game(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]] | None = None,
         **extra: Any) -> Game:
    """A position with only ``units`` on the board (printed complexes stay)."""
    return Game(position(power, phase, units, **extra))


def setup_game(power: str, phase: str, **extra: Any) -> Game:
    """The printed 1941 setup, with ``power`` to act in ``phase``."""
    return Game(position(power, phase, None, clear=False, **extra))


def pieces(g: Game, space: str, power: str, utype: str) -> list[Unit]:
    return sorted((u for u in g.state.units_in(space) if u.owner == power and u.type == utype),
                  key=lambda u: u.id)


def one(g: Game, space: str, power: str, utype: str) -> Unit:
    found = pieces(g, space, power, utype)
    assert len(found) == 1, found
    return found[0]


def battles(g: Game) -> dict[str, ev.BattleOpened]:
    """Every battle opened so far, by space."""
    return {e.space: e for e in g.events if isinstance(e, ev.BattleOpened)}


def open_battles(g: Game) -> list[str]:
    return list(g.json["battles"])


def captures(g: Game) -> list[ev.TerritoryCaptured]:
    return [e for e in g.events if isinstance(e, ev.TerritoryCaptured)]


def advance(g: Game, power: str, phase: str, limit: int = 40) -> None:
    """End phases (confirming) until ``power`` is in ``phase``."""
    for _ in range(limit):
        if g.state.power == power and g.state.phase == phase:
            return
        g.end(confirm=True)
    raise AssertionError(f"never reached {power} {phase}")


def fight_all(g: Game, space: str, *faces: int) -> list[ev.Event]:
    g.script(*faces)
    return g.do(od.Battle(space=space, all=True))


def move(units: dict[str, int], frm: str, to: str, *via: str) -> od.Move:
    return od.Move(units=units, frm=frm, to=to, via=tuple(via))
