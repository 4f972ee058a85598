"""Tools of the order grammar: the pieces every order's reader uses to take its words apart.

A reader gets the rest of a line after its first word (single spaces between words) and either
returns its command or raises ``InvalidOrder`` saying what to write instead. These helpers split
a text at a keyword in every possible place, read a name off the front of a text, and check
small numbers, with the error messages every order shares.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from rules.errors import InvalidOrder
from rules.language.names import NameTable
from rules.language.units import GOOD_COUNT
from rules.messages import catalogue, msg

__all__ = [
    "EXAMPLE_POWER",
    "EXAMPLE_RIVAL",
    "FROM",
    "IN",
    "TO",
    "expected",
    "lead_name",
    "no_args",
    "small_int",
    "split_all",
    "try_splits",
]

L = TypeVar("L")
R = TypeVar("R")

_WORD_SPAN = re.compile(r"\S+")

# The powers that the fixed examples of refusals name ('e.g. game join Germany'), so that the
# service's grammar names no edition's power itself (tests/test_no_edition_ifs.py).
EXAMPLE_POWER = "Germany"
EXAMPLE_RIVAL = "Soviet Union"

# Keywords that several orders split at.
FROM = re.compile(r"\s+from\s+", re.I)
TO = re.compile(r"\bto\b|->|→|\binto\b", re.I)
IN = re.compile(r"\bin\b|\bat\b", re.I)


def expected(form: str, example: str = "") -> InvalidOrder:
    """The refusal of a line that does not fit ``form`` (an order's syntax line; the example is
    a line of the order language too)."""
    return InvalidOrder(msg("reading.expected", form=form, example=example))


def split_all(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """Every split of text at a match of pattern, both sides stripped and non-empty."""
    out: list[tuple[str, str]] = []
    for m in pattern.finditer(text):
        left, right = text[: m.start()].strip(), text[m.end() :].strip()
        if left and right:
            out.append((left, right))
    return out


def try_splits(
    splits: list[tuple[str, str]],
    left_fn: Callable[[str], L],
    right_fn: Callable[[str], R],
) -> tuple[L, R] | None:
    """The first split whose two sides both parse; None if there is no split at all.

    If none parses, raises the error of the split that got furthest (first such split).
    """
    best: tuple[int, InvalidOrder] | None = None
    for left, right in splits:
        try:
            a = left_fn(left)
        except InvalidOrder as e:
            if best is None:
                best = (0, e)
            continue
        try:
            return a, right_fn(right)
        except InvalidOrder as e:
            if best is None or best[0] < 1:
                best = (1, e)
    if best is not None:
        raise best[1]
    return None


def lead_name(text: str, table: NameTable) -> tuple[str, str] | None:
    """The longest leading run of words that is exactly a name of table, and the rest."""
    spans = list(_WORD_SPAN.finditer(text))
    for k in range(min(len(spans), table.max_words + 2), 0, -1):
        end = spans[k - 1].end()
        found = table.strict(text[:end])
        if found is not None:
            return found, text[end:].strip()
    return None


def no_args(verb: str, rest: str) -> None:
    """Refuses anything after an order that takes nothing."""
    if rest:
        raise InvalidOrder(msg("reading.no_args", verb=verb))


def small_int(text: str, what: str, top: int) -> int:
    """A whole number from 1 to ``top`` (the ``what`` of the refusal otherwise)."""
    if GOOD_COUNT.fullmatch(text) or re.fullmatch(r"[0-9]{1,5}", text):
        n = int(text)
        if 1 <= n <= top:
            return n
    raise InvalidOrder(msg("reading.small_int", what=what, top=top, text=text))


catalogue("en", "reading", {
    "expected": lambda p: (f"Expected '{p['form']}'."
                           + (f" For example: '{p['example']}'." if p["example"] else "")),
    "no_args": "'{verb}' takes nothing after it: write just '{verb}'.",
    "small_int": "The {what} is a whole number from 1 to {top}, not {text!r}.",
})
