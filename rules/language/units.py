"""Unit lists as players type them ('3 infantry, 1 tank'), counts, casualty lists with the
space a unit came from, and weapons developments by name; and the same lists written back.

Every ``parse_*`` raises ``InvalidOrder`` (``AmbiguousOrder`` for a name that fits several) with
what to write instead; every ``format_*`` writes a text its ``parse_*`` reads back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.errors import InvalidOrder
from rules.language.names import Names
from rules.messages import catalogue, msg
from rules.orders import Units
from rules.words import plural, unit_list

__all__ = [
    "GOOD_COUNT",
    "MAX_COUNT",
    "NUMBERISH",
    "UNIT_SEP",
    "count_of",
    "development_ids",
    "format_casualty_units",
    "format_units",
    "is_count",
    "parse_casualty_units",
    "parse_units",
    "plural",
]

MAX_COUNT = 999  # units in one entry of a unit list

_COUNT_WORDS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
NUMBERISH = re.compile(r"[-+\u2212]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)(?:e[-+]?[0-9]+)?", re.I)
GOOD_COUNT = re.compile(r"[0-9]{1,3}")
UNIT_SEP = re.compile(r"\s*(?:[,;&]|\band\b|(?<!\S)\+(?!\S))\s*", re.I)
_DIGITS_GLUED = re.compile(r"(?<![\w.,+\-\u2212])([0-9]+)(?=[^\W\d_])")  # "3infantry", "3x"
_TIMES = frozenset({"x", "\u00d7", "*"})


def is_count(token: str) -> bool:
    return token.casefold() in _COUNT_WORDS or NUMBERISH.fullmatch(token) is not None


def count_of(token: str, entry: str) -> int:
    word = _COUNT_WORDS.get(token.casefold())
    if word is not None:
        return word
    if GOOD_COUNT.fullmatch(token) and 1 <= int(token) <= MAX_COUNT:
        return int(token)
    raise InvalidOrder(msg("units.bad_count", most=MAX_COUNT, entry=entry))


def _entries(chunk: str) -> list[tuple[int, str]]:
    """'3 infantry 1 tank' -> [(3, 'infantry'), (1, 'tank')] (names not yet resolved)."""
    tokens = _DIGITS_GLUED.sub(r"\1 ", chunk).split()
    out: list[tuple[int, str]] = []
    count_tok: str | None = None
    words: list[str] = []

    def flush() -> None:
        if count_tok is None and not words:
            return
        if not words:
            raise InvalidOrder(msg("units.no_unit", count=count_tok,
                                   chunk=chunk if chunk.strip() != count_tok else ""))
        name = " ".join(words)
        out.append((1 if count_tok is None else count_of(count_tok, f"{count_tok} {name}"), name))

    for tok in tokens:
        if is_count(tok):
            flush()
            count_tok, words = tok, []
        elif tok.casefold() in _TIMES and count_tok is not None and not words:
            continue  # "3 x infantry"
        else:
            words.append(tok)
    flush()
    return out


def parse_units(text: str, names: Names) -> Units:
    """'3 infantry, 1 tank' -> {'infantry': 3, 'tank': 1}; duplicates add up."""
    if not text.strip():
        raise InvalidOrder(msg("units.none"))
    total: dict[str, int] = {}
    for chunk in UNIT_SEP.split(text.strip()):
        if not chunk.strip():
            continue
        for n, name in _entries(chunk):
            unit = names.unit(name)
            total[unit] = total.get(unit, 0) + n
    if not total:
        raise InvalidOrder(msg("units.none"))
    return total


def format_units(units: Mapping[str, int], *, plurals: bool = True) -> str:
    """{'infantry': 3, 'tank': 2} -> '3 infantry, 2 tanks' (parses back to the same units).

    Entries keep the mapping's order; counts below 1 are left out; nothing at all is 'no units'.
    With ``plurals=False`` names stay singular ('2 tank').
    """
    return unit_list(units, plurals)



_FROM = re.compile(r"\s+from\s+", re.I)


def parse_casualty_units(text: str, names: Names) -> tuple[Units, dict[str, dict[str, int]]]:
    """'1 fighter from Germany, 2 infantry' -> ({'fighter': 1, 'infantry': 2},
    {'fighter': {'Germany': 1}}): units with, for some, the space they started the turn in."""
    plain: list[str] = []
    origins: dict[str, dict[str, int]] = {}
    units: dict[str, int] = {}
    for chunk in UNIT_SEP.split(text.strip()):
        parts = _FROM.split(chunk.strip(), maxsplit=1)
        if len(parts) == 1:
            plain.append(chunk)
            continue
        got = parse_units(parts[0], names)
        if len(got) != 1:
            raise InvalidOrder(msg("units.one_type_from", chunk=chunk))
        ((utype, n),) = got.items()
        where = names.space(parts[1])
        units[utype] = units.get(utype, 0) + n
        origins.setdefault(utype, {})
        origins[utype][where] = origins[utype].get(where, 0) + n
    if plain:
        for utype, n in parse_units(", ".join(plain), names).items():
            units[utype] = units.get(utype, 0) + n
    if not units:
        raise InvalidOrder(msg("units.none"))
    return units, origins


def format_casualty_units(units: Mapping[str, int], origins: Mapping[str, Mapping[str, int]]
                          ) -> str:
    """The units of a casualty order as typed, 'from <space>' included (parses back)."""
    parts: list[str] = []
    for utype, n in units.items():
        left = n
        for where, k in origins.get(utype, {}).items():
            parts.append(f"{format_units({utype: k})} from {where}")
            left -= k
        if left > 0:
            parts.append(format_units({utype: left}))
    return ", ".join(parts) if parts else "no units"


def development_ids(text: str, names: Names) -> tuple[str, ...]:
    """'jets and heavy bombers' -> ('jet_power', 'heavy_bombers'): the edition's weapons
    developments by id, name or alias (R-TEC-05), as orders and position files name them."""
    ed = names.edition
    developments = ed.developments if ed is not None else {}
    if not developments:
        raise InvalidOrder(msg("units.no_developments"))

    def key(x: str) -> str:
        return " ".join(re.sub(r"[-_]", " ", x).casefold().split())

    table: dict[str, str] = {}
    for t in developments.values():
        for form in (t.id, t.name, *t.aliases):
            table[key(form)] = t.id
            table[key(form).removesuffix("s")] = t.id
    out: list[str] = []
    for chunk in UNIT_SEP.split(text.strip()):
        if not chunk.strip():
            continue
        k = key(chunk)
        found = table.get(k, table.get(k.removesuffix("s")))
        if found is None:
            raise InvalidOrder(msg("units.unknown_development", "R-TEC-05", text=chunk.strip(),
                                   known=[t.name for t in developments.values()]))
        if found not in out:
            out.append(found)
    if not out:
        raise InvalidOrder(msg("units.name_developments"))
    return tuple(out)


catalogue("en", "units", {
    "bad_count": "Counts are whole numbers from 1 to {most}: {entry!r}.",
    "no_unit": lambda p: (f"Expected a unit after {p['count']!r}"
                          + (f" in {p['chunk']!r}" if p["chunk"] else "")
                          + ", e.g. '3 infantry, 1 tank'."),
    "none": "No units given: write them like '3 infantry, 1 tank'.",
    "one_type_from": "Name one unit type before 'from': e.g. '1 fighter from Germany', not "
                     "{chunk!r}.",
    "no_developments": "This edition has no weapons developments: leave out 'with ...'.",
    "unknown_development": "Unknown weapons development {text!r}. Developments ({rule}): "
                           "{known:join}.",
    "name_developments": "Name the developments after 'with', e.g. 'with heavy bombers'.",
})
