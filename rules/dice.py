"""Dice: the only source of chance in the rules, always injected (DESIGN §1, §6).

``HmacDice`` derives each die from HMAC-SHA256(key, game ‖ counter ‖ purpose) with rejection
sampling (no modulo bias): anyone holding the key can recompute every roll. ``ScriptedDice``
replays a fixed sequence for tests and examples (``--dice``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Protocol

from rules.errors import RulesError

SIDES = 6  # CMP-3 / A-19: standard d6


def roll_purpose(space: str, round_: int, side: str, unit_type: str) -> str:
    """The purpose string of one battle roll: recomputable from its DiceRolled event."""
    return f"{space}|round {round_}|{side}|{unit_type}"


class Dice(Protocol):
    """A source of d6 rolls. ``purpose`` says what the roll is for (logged with it)."""

    name: str

    def roll(self, n: int, purpose: str) -> list[int]: ...


class OutOfDice(RulesError):
    """A scripted dice sequence ran out (``--dice``): the order is refused, nothing changes."""


class ScriptedDice:
    """Rolls taken from a fixed list, in order. Marked as scripted in the log."""

    name = "scripted"

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        for f in self.faces:
            if not 1 <= f <= SIDES:
                raise ValueError(f"dice faces are 1..{SIDES}, got {f}")
        self.pos = 0

    def roll(self, n: int, purpose: str) -> list[int]:
        if self.pos + n > len(self.faces):
            raise OutOfDice(
                f"scripted dice ran out: {purpose} needs {n}, "
                f"{len(self.faces) - self.pos} left of {len(self.faces)}"
            )
        out = self.faces[self.pos : self.pos + n]
        self.pos += n
        return out


def die_from_key(key: bytes, message: bytes) -> int:
    """One fair d6 from a key and a message, by rejection sampling over HMAC bytes."""
    counter = 0
    while True:
        digest = hmac.new(key, message + b"|" + str(counter).encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:  # 252 = 42 * 6: accept only an unbiased range
                return byte % SIDES + 1
        counter += 1


class HmacDice:
    """Deterministic fair dice from a secret key; each call advances a counter."""

    name = "hmac-sha256"

    def __init__(self, key: bytes, game: str = "", start: int = 0) -> None:
        self.key = key
        self.game = game
        self.counter = start

    def roll(self, n: int, purpose: str) -> list[int]:
        out: list[int] = []
        for _ in range(n):
            msg = f"{self.game}|{self.counter}|{purpose}".encode()
            out.append(die_from_key(self.key, msg))
            self.counter += 1
        return out
