"""Transactions: the decide-side helper that keeps the state current while events are emitted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules.state import GameState
from rules.turn.registry import evolve

if TYPE_CHECKING:
    from rules.dice import Dice


class Tx:
    """Collects events and keeps ``state`` equal to the fold of them; ``before[i]`` is the
    state before ``events[i]`` (``rules.engine.decide_folded``). ``dice`` are the order's,
    for what the referee rolls on its way (convoy disruption in Collect Income, entered
    automatically); None where no order is decided (a game's start)."""

    def __init__(self, state: GameState, dice: Dice | None = None) -> None:
        self.state = state
        self.dice = dice
        self.events: list[ev.Event] = []
        self.before: list[GameState] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.before.append(self.state)
        self.state = evolve(self.state, event)
