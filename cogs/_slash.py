"""The service's hints, read as slash commands.

The service and the rules speak the order language, which the local table (and later e-mail)
types as it is: "take a seat with 'game join <power>'", "use 'end' to finish the phase". In
Discord nobody types those lines; the same hints must name the slash command and its options:
"take a seat with `/game join power:<power>`". ``slash_hints`` is the one translation, applied
to every text the cogs show (answers, refusals, the error funnel, reminders, admin notes).

A hint is a quoted stretch that begins with an order-language verb: the opening quote follows
no letter (so "Union's" is no quote) and the closing one is followed by none. A hint whose
arguments fit none of the command's patterns is left as it is (a quoted name that merely begins
like a verb); ``tests/cogs/test_manners.py`` checks that every hint the service and the rules
write does fit.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from rules.language.registry import OrderSyntax
from service.language import LANGUAGE

Spec = tuple[str, str, tuple[str, ...]]

# (order-language words, slash command, patterns for the rest: named groups become options;
# a group named after a boolean option becomes ``option:true`` when present). Each order's are
# in its description (``OrderSyntax.hints``); these are the table's block of order lines, which
# is Discord's /orders box.
_BLOCK: tuple[Spec, ...] = (
    ("end orders", "/orders", ()),
    ("orders", "/orders", ()),
)


@lru_cache(maxsize=4)
def _specs_of(syntaxes: tuple[OrderSyntax[Any], ...]) -> tuple[Spec, ...]:
    hints = [(h.words, h.command, h.patterns) for s in syntaxes for h in s.hints]
    # Longer words first: 'end confirm' and 'end orders' before 'end'.
    return tuple(sorted([*_BLOCK, *hints], key=lambda spec: -len(spec[0].split())))


def specs() -> tuple[Spec, ...]:
    """Every hint the order language has, as (words, slash command, patterns)."""
    return _specs_of(LANGUAGE.syntaxes())


def __getattr__(name: str) -> Any:
    if name == "_SPECS":  # the specs as registered when asked
        return specs()
    raise AttributeError(name)


_FLAGS = frozenset({"raid", "escort", "all", "every_turn", "withdraw", "finished", "confirm"})

# 'raid' alone is the move flag ("drop 'raid'"), not the bombing order; '/end' names its phase.
_BARE = {"raid": "raid:true", "end": "/end phase:<phase>"}

_HINT = re.compile(r"(?<![\w'])'([a-z][^'\n]*?)'(?![\w])")


def _options(pattern: str, rest: str) -> str | None:
    m = re.fullmatch(pattern, rest)
    if m is None:
        return None
    parts = []
    for name, value in m.groupdict().items():
        if value is None:
            continue
        parts.append(f"{name}:true" if name in _FLAGS else f"{name}:{value.strip()}")
    return " ".join(parts)


def to_slash(line: str) -> str | None:
    """The slash command for one order-language line, or None if it is not one."""
    line = " ".join(re.sub(r"\[[^\]]*\]", "", line).split())  # "[options]": optional, dropped
    if line in _BARE:
        return _BARE[line]
    low = line.casefold()
    for words, command, patterns in specs():
        if low == words:
            return command
        if not low.startswith(words + " "):
            continue
        rest = line[len(words) + 1 :]
        for pattern in patterns:
            opts = _options(pattern, rest)
            if opts is not None:
                return f"{command} {opts}".strip()
        return None  # words that only begin like an order (a quoted name): left as they are
    return None


def slash_hints(text: str) -> str:
    """``text`` with each quoted order-language hint shown as its slash command."""

    def swap(m: re.Match[str]) -> str:
        slash = to_slash(m.group(1))
        return m.group(0) if slash is None else f"`{slash}`"

    return _HINT.sub(swap, text)

__all__ = ["slash_hints", "to_slash"]
