"""Text that can be kept: the one check every text passes before it reaches storage.

PostgreSQL cannot hold a NUL character in text (``buy 1 infantry`` followed by a zero byte
crashed its insert), no database can hold half of a UTF-16 surrogate pair, and other control
characters (escape sequences, bells) are never meant in an order, a name or a phrase. A text
may hold ordinary characters of any script, spaces, tabs and line breaks; nothing else.

``problem(text, limit)`` says what is wrong with a text, or ``None``; ``refusal(what, problem)``
is the sentence a person reads: "The order contains a control character (NUL); type it again
without it." Pure: the parser uses it for every typed line, the service for every argument of
its entry points, and the SQL store (``db.engine``) once more before any statement runs.
"""

from __future__ import annotations

import re

# Tab, line feed and carriage return are text; every other C0 control, DEL, the C1 controls and
# lone surrogates are not.
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_C0 = [
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB",
    "ESC", "FS", "GS", "RS", "US",
]

MAX_TEXT = 2000  # characters in one text a person gives (an order line, a phrase, a name)


def char_name(c: str) -> str:
    """How a refused character is named: ``NUL``, ``ESC``, ``DEL``, ``U+0085``, ``U+D800``."""
    n = ord(c)
    if n < 0x20:
        return _C0[n]
    if n == 0x7F:
        return "DEL"
    return f"U+{n:04X}"


def bad_char(text: str) -> str | None:
    """The first character of ``text`` that storage cannot (or should not) hold, or ``None``."""
    m = _BAD.search(text)
    return m.group() if m else None


def problem(text: str, limit: int | None = MAX_TEXT) -> str | None:
    """What keeps ``text`` from being stored ("contains a control character (NUL)"), or None."""
    c = bad_char(text)
    if c is not None:
        kind = "half of a surrogate pair" if "\ud800" <= c <= "\udfff" else "a control character"
        return f"contains {kind} ({char_name(c)})"
    if limit is not None and len(text) > limit:
        return f"is {len(text):,} characters long; the most is {limit:,}"
    return None


def refusal(what: str, why: str) -> str:
    """The answer to a text that cannot be stored: what, why, and what to do."""
    if why.startswith("contains"):
        return f"The {what} {why}; type it again without it. Nothing was changed."
    return f"The {what} {why}; make it shorter. Nothing was changed."


__all__ = ["MAX_TEXT", "bad_char", "char_name", "problem", "refusal"]
