"""Whom the game waits for, typed: the kinds of owed decisions and ``Pending``.

Front ends and the service branch on ``Pending.kind`` (an ``Owed``), never on the English label;
``Pending.what`` is that label, the engine's word for the wait in JSON and in messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar


class _Kinds(type):
    """Iterating over ``Owed`` gives every kind known now, in the order they were made."""

    def __iter__(cls) -> Iterator[Owed]:
        return iter(list(Owed._KINDS.values()))


class Owed(metaclass=_Kinds):
    """What a power owes: its turn, or one decision in a battle or in a mechanism's own action.

    The kinds are open: those of every battle are here; a mechanism defines its own
    (``Owed("<label>", verb=...)`` at import) and registers the orders that answer it
    (``rules.turn.registry.order(..., answers=kind)``), whom the game waits for
    (``rules.turn.registry.waits``) and the referee's default answer
    (``rules.turn.hooks.default``). Each kind is one object, compared with ``is``.
    """

    _KINDS: ClassVar[dict[str, Owed]] = {}
    TURN: ClassVar[Owed]
    CASUALTIES: ClassVar[Owed]
    SUBMERGE_OR_STRIKE: ClassVar[Owed]
    PRESS_OR_RETREAT: ClassVar[Owed]

    __slots__ = ("_answers", "menu", "value", "verb")

    def __init__(self, value: str, *, verb: str = "", menu: bool = False) -> None:
        if value in Owed._KINDS:
            raise ValueError(f"two kinds of owed decision named {value!r}")
        # The engine's label: in JSON, in messages and in the keys of waits (keep it stable).
        self.value = value
        # The order verb (and slash command) that answers this wait first ('' for a turn).
        self.verb = verb
        # Offered as a menu of its answers (a decision a party gives in or out of its turn, as
        # a battle's casualties or a defender's interceptors), not the acting power's own step.
        self.menu = menu
        self._answers: set[str] = set()
        Owed._KINDS[value] = self

    @property
    def answers(self) -> frozenset[str]:
        """The order kinds that answer this wait, as the mechanisms registered them."""
        return frozenset(self._answers)

    def __repr__(self) -> str:
        return f"Owed({self.value!r})"


Owed.TURN = Owed("turn")
Owed.CASUALTIES = Owed("casualties", verb="casualties", menu=True)
Owed.SUBMERGE_OR_STRIKE = Owed("submerge or strike", verb="submerge", menu=True)
Owed.PRESS_OR_RETREAT = Owed("press or retreat", verb="press", menu=True)


def answered_by(kind: Owed, order_kind: str) -> None:
    """Orders of ``order_kind`` answer the wait ``kind`` (a mechanism registers its orders
    with ``rules.turn.registry.order(..., answers=kind)``)."""
    kind._answers.add(order_kind)


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
