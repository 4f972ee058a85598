"""Counting folds: how often each event of a game's log is folded into a state.

``FoldCounter`` wraps the real fold (``rules.engine.evolve``) wherever the product code holds a
reference to it (the engine's own ``replay`` and ``Tx``, the service, the stores), and notes for
every call the place of the event in the log (the state's ``seq`` after it) and the event. After
an accepted order, ``per_event(log)`` says how often each stored event was folded: "one fold per
order" (issue 15) means at most once each, whether the service loaded the game by replaying it
(memory), from a snapshot and its tail (SQL) or from its cache (nothing to fold but the order).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import rules.engine
from rules import events as ev
from rules.state import GameState

# Product packages whose modules may hold a reference to the fold.
PACKAGES = ("rules", "service", "db", "cogs", "local", "render")


class FoldCounter:
    """Counts every call of the fold while installed (``monkeypatch`` undoes it)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = rules.engine.evolve
        self.folds: list[tuple[int, ev.Event]] = []

        def counting(state: GameState, event: ev.Event) -> GameState:
            new = original(state, event)
            self.folds.append((new.seq, event))
            return new

        for name, module in list(sys.modules.items()):
            if name.split(".")[0] in PACKAGES and getattr(module, "evolve", None) is original:
                monkeypatch.setattr(module, "evolve", counting)

    def reset(self) -> None:
        self.folds.clear()

    def per_event(self, log: Sequence[Any]) -> Counter[int]:
        """How often each event of ``log`` (events, or the store's ``StoredEvent``\\ s) was
        folded since the last ``reset``, by its place in the log (1 = the first event)."""
        events = [getattr(e, "event", e) for e in log]
        out: Counter[int] = Counter()
        for seq, event in self.folds:
            if 1 <= seq <= len(events) and events[seq - 1] == event:
                out[seq] += 1
        return out

    def most(self, log: Sequence[Any]) -> int:
        """The most often any one event of ``log`` was folded (0: none was)."""
        return max(self.per_event(log).values(), default=0)


class LoadCounter:
    """Counts the loads of a game's log from ``store`` while installed: of the whole log
    (``load_events``) or of what follows a head the service holds (``load_after``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: Any) -> None:
        self.count = 0
        real = store.load_events

        async def counting(game_id: str) -> Any:
            self.count += 1
            return await real(game_id)

        monkeypatch.setattr(store, "load_events", counting)
        self.real = real
        tail = getattr(store, "load_after", None)
        if tail is not None:

            async def counting_tail(game_id: str, seq: int, hash: str, edits: int) -> Any:
                self.count += 1
                return await tail(game_id, seq, hash, edits)

            monkeypatch.setattr(store, "load_after", counting_tail)

    def reset(self) -> None:
        self.count = 0
