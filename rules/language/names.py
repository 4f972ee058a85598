"""Names as players type them, resolved to the names an edition's data uses.

``Names`` resolves the names of an edition (spaces, units, powers) and edition ids, forgivingly:
case and punctuation do not matter, compass words and common abbreviations are expanded
(``e europe`` = ``Eastern Europe``, ``sz5`` = ``5 sea zone`` = ``Sea Zone 5``), unit plurals and
short forms are accepted. Exact matches win; then a unique prefix; an unknown name is an
``InvalidOrder`` listing the closest names, a name that fits several is an ``AmbiguousOrder``.

Every error says what to write instead. Nothing here has side effects.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, NoReturn

from rules.edition import Edition, load_edition
from rules.edition import edition_catalog as edition_rules_catalog
from rules.errors import AmbiguousOrder, InvalidOrder
from rules.messages import catalogue, msg
from rules.words import regular_plural

__all__ = ["NEAR_MISS", "NameKind", "NameTable", "Names", "edition_catalog", "names_for"]

NameKind = Literal["space", "unit", "power", "edition"]

# ----------------------------------------------------------------------------------------------
# Normalising names.
# ----------------------------------------------------------------------------------------------

# How alike a misspelt unit name must be to the one unit it is read as (difflib's ratio):
# "infantery" is 0.94 like "infantry", "bomer" 0.91 like "bomber"; "tnk" (0.86 like "tank")
# and "tnak" (0.75) are only suggested: in a short name one letter is too much to guess.
NEAR_MISS = 0.88

_DOTTED_ABBREV = re.compile(r"(?<![^\W_])((?:[^\W\d_]\.){2,})")  # u.s. -> us, u.k. -> uk
_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
_WORD = re.compile(r"[^\W_]+")


def _tokens(text: str) -> list[str]:
    """Lowercase words without punctuation or accents; letters and digits split apart."""
    s = unicodedata.normalize("NFKD", text)
    s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    s = _DOTTED_ABBREV.sub(lambda m: m.group(1).replace(".", ""), s)
    s = _LETTER_DIGIT.sub(" ", s)
    out: list[str] = []
    for t in _WORD.findall(s):
        if t.isdigit() and t.isascii():
            t = t.lstrip("0") or "0"
        out.append(t)
    return out


# Place words (spaces and powers): both sides of every comparison go through the same mapping,
# so "e", "east" and "eastern" all compare equal.
_PLACE_PHRASES_RAW: tuple[tuple[tuple[str, ...], str], ...] = (
    (("united", "states", "of", "america"), "us"),
    (("united", "states"), "us"),
    (("united", "kingdom"), "uk"),
    (("soviet", "union"), "ussr"),
    (("sea", "zone"), "sz"),
    (("u", "s", "a"), "us"),
    (("u", "s"), "us"),
    (("u", "k"), "uk"),
)
_PLACE_WORDS: dict[str, str] = {
    "e": "east",
    "eastern": "east",
    "w": "west",
    "western": "west",
    "n": "north",
    "northern": "north",
    "s": "south",
    "southern": "south",
    "ne": "northeast",
    "northeastern": "northeast",
    "nw": "northwest",
    "northwestern": "northwest",
    "se": "southeast",
    "southeastern": "southeast",
    "sw": "southwest",
    "southwestern": "southwest",
    "usa": "us",
    "seazone": "sz",
    "zone": "sz",
    "islands": "island",
    "isl": "island",
    "isle": "island",
    "isles": "island",
    "is": "island",
    "st": "saint",
    "mt": "mount",
}
_PLACE_DROP = frozenset({"and", "of", "the"})
_COMPASS_PHRASES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("north", "east"), "northeast"),
    (("north", "west"), "northwest"),
    (("south", "east"), "southeast"),
    (("south", "west"), "southwest"),
    (("sz", "sz"), "sz"),  # "sea zone" after "zone" -> "sz"
)


def _apply_phrases(
    tokens: Sequence[str], phrases: tuple[tuple[tuple[str, ...], str], ...]
) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for phrase, repl in phrases:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                out.append(repl)
                i += len(phrase)
                break
        else:
            out.append(tokens[i])
            i += 1
    return out


def _place_canon(tokens: list[str]) -> list[str]:
    t = _apply_phrases(tokens, _PLACE_PHRASES_RAW)
    t = [_PLACE_WORDS.get(x, x) for x in t if x not in _PLACE_DROP]
    t = _apply_phrases(t, _COMPASS_PHRASES)
    if len(t) == 2 and t[1] == "sz" and t[0].isdigit():  # "5 sea zone" -> "sz 5"
        t = ["sz", t[0]]
    return t


def _plain_canon(tokens: list[str]) -> list[str]:
    return tokens


def _compact(tokens: Sequence[str]) -> str:
    """Words joined without spaces (so "seazone5" = "sea zone 5"), except between numbers."""
    out = ""
    for i, t in enumerate(tokens):
        if i and t.isdigit() and tokens[i - 1].isdigit():
            out += " "
        out += t
    return out


# Plurals of unit names (rules.words). Mass nouns keep their form when formatted; parsing
# accepts both.


def _plural_forms(name: str) -> set[str]:
    head, _, last = name.rpartition(" ")
    forms = {regular_plural(last), last + "s"}
    return {f"{head} {f}" if head else f for f in forms}


# Short forms every player expects (COMMANDS.md); used only for units and powers the edition has,
# and only where the edition's own names and aliases do not already claim the word.
_UNIT_SYNONYMS: dict[str, tuple[str, ...]] = {
    "infantry": ("inf",),
    "tank": ("arm", "armor", "armour"),
    "fighter": ("ftr", "fig"),
    "bomber": ("bmb", "bom"),
    "submarine": ("sub",),
    "transport": ("tt", "trn", "trans"),
    "destroyer": ("dd", "des"),
    "aircraft carrier": ("cv", "carrier", "ac"),
    "battleship": ("bb",),
    "industrial complex": ("ic", "factory"),
    "artillery": ("art", "arty"),
    "cruiser": ("ca", "cru"),
    "antiaircraft gun": ("aa", "aa gun", "aagun"),
    "mech infantry": ("mech", "mech inf", "mechanized infantry"),
    "tactical bomber": ("tac", "tac bomber"),
}
_POWER_SYNONYMS: dict[str, tuple[str, ...]] = {
    "Soviet Union": ("ussr", "soviets", "russians", "russia", "soviet"),
    "Germany": ("germans", "german"),
    "United Kingdom": ("british", "britain", "great britain"),
    "Japan": ("japanese",),
    "United States": ("usa", "americans", "america", "american"),
    "Italy": ("italians", "italian"),
    "China": ("chinese",),
    "France": ("french",),
}

_UNIT_SYNONYMS_BY_KEY = {_compact(_tokens(k)): v for k, v in _UNIT_SYNONYMS.items()}
_POWER_SYNONYMS_BY_KEY = {_compact(_place_canon(_tokens(k))): v for k, v in _POWER_SYNONYMS.items()}

# ----------------------------------------------------------------------------------------------
# Name tables.
# ----------------------------------------------------------------------------------------------

_SHOWN = 10  # names listed in an ambiguity message


class NameTable:
    """One kind of name: precomputed keys for exact, normalised, prefix and fuzzy lookup."""

    def __init__(
        self,
        kind: str,
        primary: Mapping[str, Iterable[str]],
        canon: Callable[[list[str]], list[str]],
        secondary: Mapping[str, Iterable[str]] | None = None,
        listed: bool = False,
    ) -> None:
        self.kind = kind  # a NameKind; the refusals' words for it are in the catalogue below
        self.canon = canon
        self.listed = listed  # list every name in "unknown" messages (few names: units, powers)
        self.targets: tuple[str, ...] = tuple(primary)
        self._exact: dict[str, set[str]] = {}
        self._norm: dict[str, set[str]] = {}
        self._key_tokens: dict[str, tuple[str, ...]] = {}
        self._fuzzy: dict[str, set[str]] = {}
        self.collisions: list[str] = []
        self.max_words = 1
        for target, aliases in primary.items():
            for text in (target, *aliases):
                self._add(text, target, claim=True)
        for target, aliases in (secondary or {}).items():
            for text in aliases:
                self._add(text, target, claim=False)
        self._fuzzy_keys = list(self._fuzzy)

    def _add(self, text: str, target: str, *, claim: bool) -> None:
        raw = " ".join(text.casefold().split())
        tokens = self.canon(_tokens(text))
        key = _compact(tokens)
        if not key:
            return
        if not claim and (key in self._norm and target not in self._norm[key]):
            return  # a short form that the edition's own names already use for something else
        self.max_words = max(self.max_words, len(text.split()))
        if claim:
            self._exact.setdefault(raw, set()).add(target)
            others = self._norm.get(key, set()) - {target}
            if others:
                self.collisions.append(
                    f"{self.kind} {text!r} of {target} reads like {', '.join(sorted(others))}"
                )
        self._norm.setdefault(key, set()).add(target)
        self._key_tokens[key] = tuple(tokens)
        self._fuzzy.setdefault(" ".join(tokens), set()).add(target)

    # --- lookups ---------------------------------------------------------------------------
    def strict(self, text: str) -> str | None:
        """Exact or normalised match with one target, else None (never raises)."""
        hit = self._exact.get(" ".join(text.casefold().split()))
        if hit is not None and len(hit) == 1:
            return next(iter(hit))
        key = _compact(self.canon(_tokens(text)))
        found = self._norm.get(key)
        if found is not None and len(found) == 1:
            return next(iter(found))
        return None

    def _prefixed(self, text: str) -> set[str]:
        """Targets whose name starts with the text, or whose words start with its words.

        The last word may be unfinished, so it is tried both expanded and as typed
        ("eastern e" -> "east e", not "east east").
        """
        raw = _tokens(text)
        tokens = self.canon(raw)
        out = self._prefixed_tokens(tokens, _compact(tokens))
        if raw:
            partial = [*self.canon(raw[:-1]), raw[-1]]
            if partial != tokens:
                out |= self._prefixed_tokens(partial, _compact(partial))
        return out

    def _prefixed_tokens(self, tokens: list[str], key: str) -> set[str]:
        out: set[str] = set()
        if not key:
            return out
        for cand, cand_tokens in self._key_tokens.items():
            if self._norm[cand] <= out:
                continue
            # a prefix, but "sz1" is not one of "sz12": a number must end where the text ends
            cut_number = key[-1].isdigit() and cand[len(key) : len(key) + 1].isdigit()
            if len(key) >= 2 and cand.startswith(key) and not cut_number:
                out |= self._norm[cand]
                continue
            if _words_prefix(tokens, cand_tokens):
                out |= self._norm[cand]
        return out

    def suggestions(self, text: str, n: int = 3) -> list[str]:
        query = " ".join(self.canon(_tokens(text)))
        if not query or len(query) > 80:
            return []
        out: list[str] = []
        for k in difflib.get_close_matches(query, self._fuzzy_keys, n=12, cutoff=0.6):
            for target in sorted(self._fuzzy[k]):
                if target not in out:
                    out.append(target)
        return out[:n]

    def near_miss(self, text: str, cutoff: float = NEAR_MISS) -> str | None:
        """The one target whose name or alias ``text`` misspells (similarity at least
        ``cutoff``), or None when there is none or more than one."""
        query = " ".join(self.canon(_tokens(text)))
        if not query or len(query) > 80:
            return None
        found: set[str] = set()
        for k in difflib.get_close_matches(query, self._fuzzy_keys, n=5, cutoff=cutoff):
            found |= self._fuzzy[k]
        return next(iter(found)) if len(found) == 1 else None

    def resolve(self, text: str) -> str:
        shown = " ".join(text.split())
        if not self.targets:
            if self.kind == "edition":
                raise InvalidOrder(msg("names.no_editions"))
            raise InvalidOrder(msg("names.none_yet", kind=self.kind))
        hit = self._exact.get(shown.casefold())
        if hit is not None:
            if len(hit) == 1:
                return next(iter(hit))
            self._ambiguous(shown, hit)
        tokens = self.canon(_tokens(text))
        key = _compact(tokens)
        if not key:
            raise InvalidOrder(msg("names.not_a_name", kind=self.kind, text=shown))
        found = self._norm.get(key)
        if found:
            if len(found) == 1:
                return next(iter(found))
            self._ambiguous(shown, found)
        found = self._prefixed(text)
        if len(found) == 1:
            return next(iter(found))
        if found:
            self._ambiguous(shown, found)
        raise InvalidOrder(msg("names.unknown", kind=self.kind, text=shown,
                               close=self.suggestions(text),
                               known=self.targets if self.listed else ()))

    def _ambiguous(self, shown: str, found: set[str]) -> NoReturn:
        choices = sorted(found)
        raise AmbiguousOrder(msg("names.ambiguous", kind=self.kind, text=shown, choices=choices,
                                 shown=_SHOWN), choices)

    def complete(self, text: str, limit: int) -> list[str]:
        if limit <= 0:
            return []
        if not text.strip():
            return sorted(self.targets)[:limit]
        out: list[str] = []
        first = self.strict(text)
        if first is not None:
            out.append(first)
        typed = " ".join(text.casefold().split())
        prefixed = sorted(self._prefixed(text) - set(out))
        out += [t for t in prefixed if t.casefold().startswith(typed)]
        out += [t for t in prefixed if not t.casefold().startswith(typed)]
        out += [s for s in self.suggestions(text, n=limit) if s not in out]
        return out[:limit]


def _words_prefix(query: Sequence[str], words: Sequence[str]) -> bool:
    """Each query word starts a later word of the name, in order (numbers match whole)."""
    j = 0
    for q in query:
        while j < len(words):
            w = words[j]
            j += 1
            if w == q or (not q.isdigit() and w.startswith(q)):
                break
        else:
            return False
    return True


def _edition_catalog_items() -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple((r.id, (r.word, *r.aliases)) for r in edition_rules_catalog())


_cached_catalog = lru_cache(maxsize=1)(_edition_catalog_items)


def edition_catalog() -> dict[str, tuple[str, ...]]:
    """Installed editions: id -> aliases (read once from ``rules/editions/*/edition.json``)."""
    return dict(_cached_catalog())


class Names:
    """Resolves the names players type to the names the data uses.

    ``Names(edition)`` knows that edition's spaces, units and powers; ``Names()`` (no game yet)
    knows only edition ids, enough for ``game new``. ``editions`` maps edition id -> aliases;
    by default the installed editions (``edition_catalog()``) plus ``edition`` itself.
    """

    def __init__(
        self,
        edition: Edition | None = None,
        editions: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.edition = edition
        spaces: dict[str, tuple[str, ...]] = {}
        units: dict[str, tuple[str, ...]] = {}
        powers: dict[str, tuple[str, ...]] = {}
        unit_extra: dict[str, list[str]] = {}
        power_extra: dict[str, tuple[str, ...]] = {}
        if edition is not None:
            spaces = {s.name: s.aliases for s in edition.spaces.values()}
            units = {u.name: u.aliases for u in edition.units.values()}
            powers = {p.name: p.aliases for p in edition.powers.values()}
            for name, aliases in units.items():
                forms = [*_UNIT_SYNONYMS_BY_KEY.get(_compact(_tokens(name)), ())]
                for base in (name, *aliases, *forms):
                    forms += sorted(_plural_forms(base))
                unit_extra[name] = forms
            power_extra = {
                p: _POWER_SYNONYMS_BY_KEY[k]
                for p in powers
                if (k := _compact(_place_canon(_tokens(p)))) in _POWER_SYNONYMS_BY_KEY
            }
        catalog: dict[str, list[str]] = {}
        source = edition_catalog() if editions is None else editions
        for eid, ids in source.items():
            catalog.setdefault(eid, []).extend(ids)
        if edition is not None:
            catalog.setdefault(edition.id, []).extend((edition.rules.word, *edition.rules.aliases))
        # what to type for each edition: its first alias (the keyword), else its id
        self._edition_words = {eid: next(iter(ids), eid) for eid, ids in catalog.items()}
        self._spaces = NameTable("space", spaces, _place_canon)
        self._units = NameTable("unit", units, _plain_canon, unit_extra, listed=True)
        self._powers = NameTable("power", powers, _place_canon, power_extra, listed=True)
        self._editions = NameTable("edition", catalog, _plain_canon, listed=True)

    def table(self, kind: NameKind) -> NameTable:
        """The table of one kind of name (for grammars that read a name off the front of a text)."""
        return {
            "space": self._spaces,
            "unit": self._units,
            "power": self._powers,
            "edition": self._editions,
        }[kind]

    # --- resolving (raise InvalidOrder / AmbiguousOrder) -------------------------------------
    def space(self, text: str) -> str:
        """The data name of a space ("sz5" -> "Sea Zone 5")."""
        return self._spaces.resolve(text)

    def unit(self, text: str) -> str:
        """The data name of a unit type ("tanks" -> "tank"); a near miss that fits one unit
        type only is read as that type ("infantery" -> "infantry", issue 13 item 13)."""
        try:
            return self._units.resolve(text)
        except AmbiguousOrder:
            raise
        except InvalidOrder:
            fixed = self._units.near_miss(text)
            if fixed is None:
                raise
            return fixed

    def power(self, text: str) -> str:
        """The data name of a power ("ussr" -> "Soviet Union")."""
        return self._powers.resolve(text)

    def edition_word(self, edition_id: str | None = None) -> str:
        """What a player types after 'game new' for an edition (the first known by default)."""
        if edition_id is None:
            edition_id = next(iter(self._edition_words), "")
        return self._edition_words.get(edition_id, edition_id)

    def edition_id(self, text: str) -> str:
        """An edition id from its id or an alias ("1941" -> "a1941")."""
        return self._editions.resolve(text)

    def resolve(self, kind: NameKind, text: str) -> str:
        return self.table(kind).resolve(text)

    # --- for front ends --------------------------------------------------------------------
    def complete(self, kind: NameKind, text: str, limit: int = 25) -> list[str]:
        """Autocomplete: names that fit what was typed so far, best first (never raises)."""
        return self.table(kind).complete(text, limit)

    def suggest(self, kind: NameKind, text: str, n: int = 3) -> list[str]:
        """The closest names to a misspelt one (never raises)."""
        return self.table(kind).suggestions(text, n)

    def all(self, kind: NameKind) -> tuple[str, ...]:
        """Every data name of this kind, in data order."""
        return self.table(kind).targets

    def problems(self) -> list[str]:
        """Names or aliases of the data that normalise alike (ambiguous for players)."""
        return [
            *self._spaces.collisions,
            *self._units.collisions,
            *self._powers.collisions,
            *self._editions.collisions,
        ]


@lru_cache(maxsize=32)
def names_for(edition_id: str) -> Names:
    """``Names`` of an installed edition, built once."""
    return Names(load_edition(edition_id))


# --- the words of its refusals ----------------------------------------------------------------
# ``kind`` is the kind of name (``NameKind``); the word for several of them:
_KINDS = {"space": "spaces", "unit": "units", "power": "powers", "edition": "editions"}


def _unknown(p: Mapping[str, Any]) -> str:
    kinds = _KINDS[p["kind"]]
    out = f"Unknown {p['kind']} {p['text']!r}."
    if p["close"]:
        out += f" Did you mean: {', '.join(p['close'])}?"
    if p["known"]:
        out += f" {kinds.capitalize()}: {', '.join(p['known'])}."
    elif not p["close"]:
        out += f" Check the spelling ('game map' shows the {kinds})."
    return out


def _ambiguous(p: Mapping[str, Any]) -> str:
    choices, top = p["choices"], p["shown"]
    listed = ", ".join(choices[:top]) + (f" and {len(choices) - top} more"
                                         if len(choices) > top else "")
    return (f"{p['text']!r} could be any of {len(choices)} {_KINDS[p['kind']]}: {listed}. "
            "Write more of the name.")


catalogue("en", "names", {
    "no_editions": "No editions are installed.",
    "none_yet": lambda p: (f"No {_KINDS[p['kind']]} are known here yet: create a game first "
                           "with 'game new <edition>'."),
    "not_a_name": "Expected the name of a {kind}, got {text!r}.",
    "unknown": _unknown,
    "ambiguous": _ambiguous,
})
