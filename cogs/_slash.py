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

Spec = tuple[str, str, tuple[str, ...]]

# (order-language words, slash command, patterns for the rest: named groups become options;
# a group named after a boolean option becomes ``option:true`` when present).
_SPECS: tuple[Spec, ...] = (
    ("game new", "/game new", (r"(?P<edition>\S+)(?: (?P<options>.+))?",)),
    ("game join", "/game join", (r"(?P<power>.+)",)),
    ("game start", "/game start", ()),
    ("game status", "/game status", (r"--json",)),
    ("game map", "/game map", (r"(?P<space>.+)",)),
    ("game history", "/game history", (r"(?P<n>.+)",)),
    ("game export", "/game export", ()),
    ("game check", "/game check", ()),
    ("game repair", "/admin repair", (r"(?P<how>truncate|reseal)",)),
    ("game leave", "/game leave", ()),
    ("game cancel", "/game cancel", (r"(?P<withdraw>withdraw)",)),
    ("game concede", "/game concede", (r"(?P<withdraw>withdraw)",)),
    ("game draw", "/game draw", (r"(?P<withdraw>withdraw)",)),
    ("game list", "/game list", (r"(?P<finished>all)",)),
    ("game mine", "/game mine", ()),
    ("standing casualties", "/standing", (r"(?P<power><[^>]+>) (?P<units>.+)",)),
    ("dice verify", "/dice verify", (r"(?P<round>.+)",)),
    ("end orders", "/orders", ()),  # the table's block of order lines: Discord's /orders box
    ("orders", "/orders", ()),
    ("end confirm", "/end phase:<phase> confirm:true", ()),
    ("end!", "/end phase:<phase> confirm:true", ()),
    ("end", "/end", (r"(?P<phase>.+?)(?P<confirm> confirm)?",)),
    ("undo", "/undo", ()),
    ("buy", "/buy", (r"(?P<units>.+)",)),
    (
        "move",
        "/move",
        (
            r"(?P<units>.+?) from (?P<from>.+?) to (?P<to>.+?)"
            r"(?: via (?P<via>.+?))?(?P<raid> raid)?",
        ),
    ),
    ("load", "/move", (r"(?P<units>.+?) from (?P<from>.+?) to (?P<to>.+)",)),
    ("unload", "/move", (r"(?P<units>.+?) from (?P<from>.+?) to (?P<to>.+)",)),
    ("battle", "/battle", (r"(?P<space>.+?)(?P<all> all)?",)),
    (
        "casualties",
        "/casualties",
        (
            r"(?P<units>\d.*?) in (?P<space>.+)",
            r"(?P<space><[^>]+>|\D+?) (?P<units><[^>]+>|\d.*)",
        ),
    ),
    ("retreat", "/retreat", (r"(?P<space>.+?) to (?P<to>.+)",)),
    ("press", "/press", (r"(?P<space>.+)",)),
    ("strike", "/strike", (r"(?P<space>.+)",)),
    ("submerge", "/submerge", (r"(?P<space>.+?)(?: (?P<n>\d+|<n>))?",)),
    ("withdraw", "/withdraw", (r"(?P<space>.+?)(?: (?P<n>\d+))?(?: to (?P<to>.+))?",)),
    ("bomb", "/bomb", (r"(?P<space>.+)",)),
    ("raid", "/bomb", (r"(?P<space>.+)",)),
    ("place", "/place", (r"(?P<units>.+?) in (?P<in>.+)",)),
    ("research", "/research", (r"(?P<dice>.+)",)),
    ("rocket", "/rocket", (r"(?P<from>.+?) at (?P<at>.+)",)),
    ("odds", "/odds", (r"(?P<attackers>.+?) vs (?P<defenders>.+?)(?: in (?P<space>.+))?",)),
    ("luck", "/luck", (r"(?P<space>.+)",)),
    ("help", "/help", (r"(?P<topic>.+)",)),
    ("state", "/game map", ()),
    ("pause", "/admin pause", ()),
    ("resume", "/admin resume", ()),
    (
        "deadline",
        "/admin deadline",
        (
            r"(?P<hours>\d+(?:\.\d+)?)h(?: (?P<action>remind|defaults|end))?"
            r"(?P<every_turn> every(?: turn)?)?",
        ),
    ),
    ("substitute", "/admin substitute", (r"(?P<power>.+?) (?P<member><[^>]+>|\S+)",)),
    ("kick", "/admin kick", (r"(?P<member>.+)",)),
)

_FLAGS = frozenset({"raid", "all", "every_turn", "withdraw", "finished", "confirm"})

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
    for words, command, patterns in _SPECS:
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
