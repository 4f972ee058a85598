"""Whom the game waits for, typed: the kinds of owed decisions and ``Pending``.

Front ends and the service branch on ``Pending.kind`` (an ``Owed``), never on the English label;
``Pending.what`` is that label, the engine's word for the wait in JSON and in messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Owed(Enum):
    """What a power owes: its turn, or one decision in a battle or raid."""

    TURN = "turn"
    CASUALTIES = "casualties"
    SUBMERGE_OR_STRIKE = "submerge or strike"
    PRESS_OR_RETREAT = "press or retreat"
    BOMBING_RAID = "bombing raid"

    @property
    def answers(self) -> frozenset[str]:
        """The order kinds that answer this wait, as the mechanisms registered them."""
        return frozenset(_ANSWERS[self])

    @property
    def verb(self) -> str:
        """The order verb (and slash command) that answers this wait first: ``casualties``,
        ``submerge``, ``press``, ``bomb``; empty for a turn."""
        return _VERBS[self]


_VERBS: dict[Owed, str] = {
    Owed.TURN: "",
    Owed.CASUALTIES: "casualties",
    Owed.SUBMERGE_OR_STRIKE: "submerge",
    Owed.PRESS_OR_RETREAT: "press",
    Owed.BOMBING_RAID: "bomb",
}

# Filled by the mechanisms that register their orders (``rules.turn.registry.order``).
_ANSWERS: dict[Owed, set[str]] = {kind: set() for kind in Owed}


def answered_by(kind: Owed, order_kind: str) -> None:
    """Orders of ``order_kind`` answer the wait ``kind`` (a mechanism registers its orders
    with ``rules.turn.registry.order(..., answers=kind)``)."""
    _ANSWERS[kind].add(order_kind)


@dataclass(frozen=True)
class Pending:
    """Someone the game is waiting on: ``power`` owes ``kind`` (in ``space``; in ``phase`` for a
    turn)."""

    power: str
    kind: Owed
    space: str | None = None
    phase: str | None = None

    @property
    def turn(self) -> bool:
        return self.kind is Owed.TURN

    @property
    def what(self) -> str:
        """The engine's label: ``"turn (combat_move)"``, ``"casualties"``, ..."""
        if self.kind is Owed.TURN:
            return f"turn ({self.phase})"
        return str(self.kind.value)
