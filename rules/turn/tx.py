"""Transactions: the decide-side helper that keeps the state current while events are emitted."""

from __future__ import annotations

from rules import events as ev
from rules.state import GameState
from rules.turn.registry import evolve


class Tx:
    """Collects events and keeps ``state`` equal to the fold of them; ``before[i]`` is the
    state before ``events[i]`` (``rules.engine.decide_folded``)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []
        self.before: list[GameState] = []

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.before.append(self.state)
        self.state = evolve(self.state, event)
