"""Words the referee writes, one way everywhere (issue 13 item 13): plurals that agree with
their counts, possessives of names ending in s, verbs that agree with their subjects.

Pure string functions (no edition data): a count and a noun in, English out, so that no answer
says "1 submarine make", "2 hit(s)" or "United States's".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = [
    "MASS_NOUNS", "agree", "counted", "definite", "ipcs", "plural", "possessive",
    "regular_plural", "rule_suffix", "unit_list",
]

# Mass nouns keep their form in the plural ("3 infantry"); parsing accepts both forms.
MASS_NOUNS = frozenset({"infantry", "artillery", "aircraft", "armor", "armour", "aa", "mech"})


def regular_plural(word: str) -> str:
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", word):
        return word + "es"
    return word + "s"


def plural(name: str) -> str:
    """English plural of a noun or unit name ("tank" -> "tanks", "infantry" stays,
    "industrial complex" -> "industrial complexes", "die" is not handled: say "dice")."""
    head, _, last = name.rpartition(" ")
    if last.casefold() in MASS_NOUNS:
        return name
    return f"{head} {regular_plural(last)}" if head else regular_plural(last)


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and the noun in agreement: "1 hit", "2 hits", "0 hits", "1 die", "3 dice"."""
    return f"{n} {noun if n == 1 else (many or plural(noun))}"


def agree(n: int, one: str, many: str) -> str:
    """The verb for a subject of ``n`` things: ``agree(1, "makes", "make")`` is "makes"."""
    return one if n == 1 else many


def possessive(name: str) -> str:
    """"Germany's", but "United States'" (a name ending in s takes only an apostrophe)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


# A country named by a common noun takes the article: "the Soviet Union", "the United States".
_ARTICLE_NOUNS = frozenset({"Union", "Kingdom", "States", "Republic", "Empire", "Netherlands"})


def definite(name: str, capital: bool = False) -> str:
    """A power's name as a sentence says it: "the Soviet Union", "Germany" ("The Soviet Union"
    at the start of a sentence, ``capital``)."""
    out = f"the {name}" if name.rsplit(" ", 1)[-1] in _ARTICLE_NOUNS else name
    return out[:1].upper() + out[1:] if capital else out


def rule_suffix(rule: str) -> str:
    """`` (CC-5)`` after a sentence's words, or nothing when no rule is named."""
    return f" ({rule})" if rule else ""


def ipcs(n: int) -> str:
    """``1 IPC``, ``3 IPCs``: an amount of money."""
    return f"{n} IPC" if n == 1 else f"{n} IPCs"


def unit_list(units: Mapping[str, int], plurals: bool = True) -> str:
    """{'infantry': 3, 'tank': 2} -> '3 infantry, 2 tanks': the order language's own spelling
    (it parses back to the same units). Entries keep the mapping's order; counts below 1 are left
    out; nothing at all is 'no units'. With ``plurals=False`` names stay singular ('2 tank')."""
    parts = [f"{n} {plural(u) if plurals and n != 1 else u}" for u, n in units.items() if n >= 1]
    return ", ".join(parts) if parts else "no units"
