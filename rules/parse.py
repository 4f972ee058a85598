"""The one parser of text orders (COMMANDS.md), shared by every front end.

``parse(text, names)`` turns one line into a typed command: a rules order from
``rules.orders`` (``Buy``, ``Move``, ...) or a meta command defined here (``GameNew``,
``Odds``, ``Pause``...). Meta commands are plain data; the service decides what they do.
The acting ``power`` of rules orders is left ``""``: the front end fills it in from the seat.

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
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Annotated, Literal, NoReturn, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rules.edition import Edition, RuleSet, load_edition
from rules.edition import edition_catalog as edition_rules_catalog
from rules.edits import EditChange, format_edit
from rules.errors import AmbiguousOrder, InvalidOrder
from rules.orders import (
    Battle,
    Bomb,
    Buy,
    Casualties,
    ClearPurchase,
    EndPhase,
    Move,
    Place,
    Press,
    Research,
    Retreat,
    Rocket,
    StandingCasualties,
    Strike,
    Submerge,
    Units,
    Withdraw,
)
from rules.text import problem as text_problem
from rules.text import refusal as text_refusal
from rules.words import MASS_NOUNS, plural, regular_plural

__all__ = [
    "MAX_COUNT",
    "MAX_LENGTH",
    "USAGE",
    "VERBS",
    "Command",
    "CommandAdapter",
    "Deadline",
    "DiceVerify",
    "EditConfirm",
    "EditList",
    "EditPropose",
    "EditReject",
    "GameCancel",
    "GameCheck",
    "GameConcede",
    "GameDraw",
    "GameExport",
    "GameHistory",
    "GameJoin",
    "GameLeave",
    "GameList",
    "GameMap",
    "GameMine",
    "GameNew",
    "GameRepair",
    "GameStart",
    "GameStatus",
    "Help",
    "Kick",
    "Luck",
    "NameKind",
    "Names",
    "Odds",
    "Pause",
    "Resume",
    "State",
    "Substitute",
    "Undo",
    "edition_catalog",
    "format_units",
    "names_for",
    "parse",
    "parse_units",
    "plural",
    "usage_for",
]

MAX_LENGTH = 2000  # characters in one order line
MAX_COUNT = 999  # units in one entry of a unit list
MAX_HISTORY = 10000  # events in `game history n`
MAX_ROUND = 10000  # `dice verify n`

NameKind = Literal["space", "unit", "power", "edition"]

# ----------------------------------------------------------------------------------------------
# Meta commands: what a line can say besides a rules order. Plain frozen data.
# ----------------------------------------------------------------------------------------------


class _Meta(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GameNew(_Meta):
    """`game new <edition> [short] [errata]`: create a game bound to this channel."""

    kind: Literal["game_new"] = "game_new"
    edition: str  # edition id, e.g. "a1941"
    options: tuple[str, ...] = ()  # lowercase words as typed, e.g. ("short",), ("errata",)


class GameJoin(_Meta):
    """`game join <power> [entropy phrase]`: take a seat before the start."""

    kind: Literal["game_join"] = "game_join"
    power: str
    entropy: str = ""  # the phrase as typed (mixed into the dice keys, DESIGN §6)


class GameStart(_Meta):
    """`game start`."""

    kind: Literal["game_start"] = "game_start"


with warnings.catch_warnings():
    # COMMANDS.md names the flag `--json`; the field keeps that name although BaseModel has a
    # (deprecated) ``json()`` method. The field wins on the instance, so ``status.json`` is a bool.
    warnings.filterwarnings("ignore", message='Field name "json"', category=UserWarning)

    class GameStatus(_Meta):
        """`game status [--json]`."""

        kind: Literal["game_status"] = "game_status"
        json: bool = False  # type: ignore[assignment]


class GameMap(_Meta):
    """`game map [space]`: the map image, optionally centred on a space."""

    kind: Literal["game_map"] = "game_map"
    space: str | None = None


class GameHistory(_Meta):
    """`game history [n]`: the last n events (all when None)."""

    kind: Literal["game_history"] = "game_history"
    n: int | None = None


class GameExport(_Meta):
    """`game export`: the full event log as JSON."""

    kind: Literal["game_export"] = "game_export"


class GameCheck(_Meta):
    """`game check`: the stored log's checks (hash chain, published heads, snapshots)."""

    kind: Literal["game_check"] = "game_check"


class GameRepair(_Meta):
    """`game repair truncate|reseal`: the owner's way out of a corrupt log."""

    kind: Literal["game_repair"] = "game_repair"
    how: Literal["truncate", "reseal"]


# --- a game's whole life (issue 11, item 5) ---------------------------------------------------


class GameLeave(_Meta):
    """`game leave`: give up one's seats before the start."""

    kind: Literal["game_leave"] = "game_leave"


class GameCancel(_Meta):
    """`game cancel [withdraw]`: the owner before the start; after it, a vote of the players."""

    kind: Literal["game_cancel"] = "game_cancel"
    withdraw: bool = False


class GameConcede(_Meta):
    """`game concede [withdraw]`: give up for one's side (every holder of its seats concedes)."""

    kind: Literal["game_concede"] = "game_concede"
    withdraw: bool = False


class GameDraw(_Meta):
    """`game draw [withdraw]`: vote for a draw (every seated player must)."""

    kind: Literal["game_draw"] = "game_draw"
    withdraw: bool = False


class GameList(_Meta):
    """`game list [all]`: the games of this server (`all`: finished and cancelled ones too)."""

    kind: Literal["game_list"] = "game_list"
    all: bool = False


class GameMine(_Meta):
    """`game mine`: my seats across this server and where I am awaited."""

    kind: Literal["game_mine"] = "game_mine"


def _game_life(sub: str, args: str) -> Command | None:
    """The `game` words of a game's whole life, or None if ``sub`` is not one of them."""
    word = args.casefold()
    if sub in ("cancel", "concede", "draw"):
        if word not in ("", "withdraw"):
            raise InvalidOrder(
                f"Expected 'game {sub}' (your vote) or 'game {sub} withdraw' (take it back)."
            )
        withdraw = word == "withdraw"
        if sub == "cancel":
            return GameCancel(withdraw=withdraw)
        return GameConcede(withdraw=withdraw) if sub == "concede" else GameDraw(withdraw=withdraw)
    if sub == "leave":
        _no_args("game leave", args)
        return GameLeave()
    if sub == "list":
        if word not in ("", "all"):
            raise InvalidOrder("Expected 'game list' or 'game list all' (finished games too).")
        return GameList(all=word == "all")
    if sub == "mine":
        _no_args("game mine", args)
        return GameMine()
    return None


class Undo(_Meta):
    """`undo`: take back the last order of this phase (only if no dice were rolled since)."""

    kind: Literal["undo"] = "undo"


class Odds(_Meta):
    """`odds <units> vs <units> [in <space>] [with <developments>]`."""

    kind: Literal["odds"] = "odds"
    attackers: Units
    defenders: Units
    space: str | None = None
    developments: tuple[str, ...] = ()  # technology ids, for both sides (rules.odds)


class Luck(_Meta):
    """`luck [space]`: expected against rolled hits, the whole game or battles in one space."""

    kind: Literal["luck"] = "luck"
    space: str | None = None


class DiceVerify(_Meta):
    """`dice verify [round]`: recompute revealed rolls (all revealed rounds when None)."""

    kind: Literal["dice_verify"] = "dice_verify"
    round: int | None = None


class State(_Meta):
    """`state`: the full state (JSON at the local table)."""

    kind: Literal["state"] = "state"


class Help(_Meta):
    """`help [topic]`."""

    kind: Literal["help"] = "help"
    topic: str | None = None  # lowercase, e.g. "move"


class Pause(_Meta):
    """Admin: `pause` the game's deadlines."""

    kind: Literal["pause"] = "pause"


class Resume(_Meta):
    """Admin: `resume`."""

    kind: Literal["resume"] = "resume"


class Deadline(_Meta):
    """Admin: `deadline <text>`, e.g. `deadline 24h`; the text is interpreted by the service."""

    kind: Literal["deadline"] = "deadline"
    text: str


class Substitute(_Meta):
    """Admin: `substitute <power> <user>`; the user as typed (a mention, a name...)."""

    kind: Literal["substitute"] = "substitute"
    power: str
    user: str


class Kick(_Meta):
    """Admin: `kick <user>`."""

    kind: Literal["kick"] = "kick"
    user: str


class EditPropose(_Meta):
    """Admin: `edit add|remove|move|owner|money ...`: propose a game-master edit (rules.edits)."""

    kind: Literal["edit_propose"] = "edit_propose"
    change: EditChange

    @property
    def text(self) -> str:
        return format_edit(self.change)


class EditConfirm(_Meta):
    """`edit confirm <n>`: a player of the other side agrees to proposal n; it is applied."""

    kind: Literal["edit_confirm"] = "edit_confirm"
    number: int


class EditReject(_Meta):
    """`edit reject <n>`: proposal n is dropped."""

    kind: Literal["edit_reject"] = "edit_reject"
    number: int


class EditList(_Meta):
    """`edit list`: the game's edit proposals and what became of them."""

    kind: Literal["edit_list"] = "edit_list"


Command = Annotated[
    Buy
    | ClearPurchase
    | Research
    | Rocket
    | Move
    | Battle
    | Casualties
    | Retreat
    | Press
    | Submerge
    | Strike
    | Withdraw
    | Bomb
    | Place
    | EndPhase
    | StandingCasualties
    | GameNew
    | GameJoin
    | GameStart
    | GameStatus
    | GameMap
    | GameHistory
    | GameExport
    | GameCheck
    | GameRepair
    | GameLeave
    | GameCancel
    | GameConcede
    | GameDraw
    | GameList
    | GameMine
    | Undo
    | Odds
    | Luck
    | DiceVerify
    | State
    | Help
    | Pause
    | Resume
    | Deadline
    | Substitute
    | Kick
    | EditPropose
    | EditConfirm
    | EditReject
    | EditList,
    Field(discriminator="kind"),
]
"""Everything ``parse`` can return, discriminated by ``kind``."""

CommandAdapter: TypeAdapter[Command] = TypeAdapter(Command)
"""Validates/serialises a ``Command`` to and from JSON (e.g. ``CommandAdapter.dump_json(c)``)."""

# ----------------------------------------------------------------------------------------------
# The grammar, as shown to players.
# ----------------------------------------------------------------------------------------------

USAGE: dict[str, str] = {
    "buy": "buy <units>  (e.g. 'buy 3 infantry, 1 tank'; 'buy clear' empties the list)",
    "move": "move <units> from <space> to <space> [via <space>, <space>] [raid]",
    "load": "load <units> from <space> to <sea zone>  (same as move)",
    "unload": "unload <units> from <sea zone> to <space>  (same as move)",
    "battle": "battle <space> [all]",
    "casualties": "casualties <space> <units>  (e.g. 'casualties Ukraine 2 infantry, 1 tank')",
    "retreat": "retreat <space> to <space>",
    "press": "press <space>",
    "submerge": "submerge <space> [n]",
    "strike": "strike <space>",
    "withdraw": "withdraw <space> [n] [to <sea zone>]  (submarines leave a sea battle between "
                "rounds, where the edition has it)",
    "bomb": "bomb <space>  (resolve a strategic bombing raid; also 'raid <space>')",
    "place": "place <units> in <space>",
    "research": "research <n>  (buy and roll n research dice, e.g. 'research 2')",
    "rocket": "rocket <space with your AA gun> at <space with an enemy complex>",
    "end": "end | end confirm | end!",
    "undo": "undo",
    "odds": "odds <units> vs <units> [in <space>] [with <developments>]",
    "luck": "luck [space]  (hits rolled against hits expected: the game, or one space's battles)",
    "dice verify": "dice verify [round]",
    "standing casualties": "standing casualties <power> <unit>, <unit>, ...",
    "game": "game new|join|start|status|map|history|export|check|repair|leave|cancel|concede|"
            "draw|list|mine ...",
    "state": "state",
    "help": "help [order]",
    "pause": "pause",
    "resume": "resume",
    "deadline": "deadline <time>  (e.g. 'deadline 24h')",
    "substitute": "substitute <power> <user>",
    "kick": "kick <user>",
    "edit": "edit add <units> in <space> [for <power>] | edit remove <units> from <space> "
            "[of <power>] | edit move <units> from <space> to <space> [of <power>] | "
            "edit owner <territory> <power> | edit money <power> <n> | edit confirm <n> | "
            "edit reject <n> | edit list  (the owner proposes; a player of the other side "
            "confirms)",
}

VERBS: tuple[str, ...] = tuple(USAGE)

# Orders that only some editions have, by the rule switch that gives them (rules.edition.RuleSet);
# an order not listed here is in every edition.
_VERB_NEEDS: dict[str, Callable[[RuleSet], bool]] = {
    "submerge": lambda r: r.sub_retreat == "submerge",  # 1941 SS-3
    "strike": lambda r: r.sub_first_strike == "declared",  # 1941 SS-2
    "withdraw": lambda r: r.sub_retreat == "withdraw",  # Classic R-SUB-05
    "bomb": lambda r: r.strategic_bombing,  # Classic R-SBR
    "research": lambda r: r.research is not None,  # Classic R-TEC
    "rocket": lambda r: r.research is not None and any(t.rockets for t in r.research.technologies),
}


def usage_for(edition: Edition | None) -> dict[str, str]:
    """The orders as listed to the players of an edition (every order without one)."""
    if edition is None:
        return dict(USAGE)
    rules = edition.rules.rules
    return {v: u for v, u in USAGE.items() if v not in _VERB_NEEDS or _VERB_NEEDS[v](rules)}

"""The orders, as listed to players (first words, plus the two-word ones)."""

_GAME_USAGE: dict[str, str] = {
    "new": "game new <edition> [options]",
    "join": "game join <power> [entropy phrase]",
    "start": "game start",
    "status": "game status [--json]",
    "map": "game map [space]",
    "history": "game history [n]",
    "export": "game export",
    "check": "game check",
    "repair": "game repair truncate|reseal",
    "leave": "game leave",
    "cancel": "game cancel [withdraw]",
    "concede": "game concede [withdraw]",
    "draw": "game draw [withdraw]",
    "list": "game list [all]",
    "mine": "game mine",
}

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
_MASS_NOUNS = MASS_NOUNS
_regular_plural = regular_plural


def _plural_forms(name: str) -> set[str]:
    head, _, last = name.rpartition(" ")
    forms = {_regular_plural(last), last + "s"}
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


def _join_names(names: Sequence[str]) -> str:
    if len(names) <= _SHOWN:
        return ", ".join(names)
    return ", ".join(names[:_SHOWN]) + f" and {len(names) - _SHOWN} more"


class _Table:
    """One kind of name: precomputed keys for exact, normalised, prefix and fuzzy lookup."""

    def __init__(
        self,
        kind: str,
        kinds: str,
        primary: Mapping[str, Iterable[str]],
        canon: Callable[[list[str]], list[str]],
        secondary: Mapping[str, Iterable[str]] | None = None,
        listed: bool = False,
    ) -> None:
        self.kind = kind
        self.kinds = kinds
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
                raise InvalidOrder("No editions are installed.")
            raise InvalidOrder(
                f"No {self.kinds} are known here yet: create a game first with "
                "'game new <edition>'."
            )
        hit = self._exact.get(shown.casefold())
        if hit is not None:
            if len(hit) == 1:
                return next(iter(hit))
            self._ambiguous(shown, hit)
        tokens = self.canon(_tokens(text))
        key = _compact(tokens)
        if not key:
            raise InvalidOrder(f"Expected the name of a {self.kind}, got {shown!r}.")
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
        close = self.suggestions(text)
        msg = f"Unknown {self.kind} {shown!r}."
        if close:
            msg += f" Did you mean: {', '.join(close)}?"
        if self.listed:
            msg += f" {self.kinds.capitalize()}: {', '.join(self.targets)}."
        elif not close:
            msg += f" Check the spelling ('game map' shows the {self.kinds})."
        raise InvalidOrder(msg)

    def _ambiguous(self, shown: str, found: set[str]) -> NoReturn:
        choices = sorted(found)
        raise AmbiguousOrder(
            f"{shown!r} could be any of {len(choices)} {self.kinds}: {_join_names(choices)}. "
            "Write more of the name.",
            choices,
        )

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
        self._spaces = _Table("space", "spaces", spaces, _place_canon)
        self._units = _Table("unit", "units", units, _plain_canon, unit_extra, listed=True)
        self._powers = _Table("power", "powers", powers, _place_canon, power_extra, listed=True)
        self._editions = _Table("edition", "editions", catalog, _plain_canon, listed=True)

    def _table(self, kind: NameKind) -> _Table:
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
        return self._table(kind).resolve(text)

    # --- for front ends --------------------------------------------------------------------
    def complete(self, kind: NameKind, text: str, limit: int = 25) -> list[str]:
        """Autocomplete: names that fit what was typed so far, best first (never raises)."""
        return self._table(kind).complete(text, limit)

    def suggest(self, kind: NameKind, text: str, n: int = 3) -> list[str]:
        """The closest names to a misspelt one (never raises)."""
        return self._table(kind).suggestions(text, n)

    def all(self, kind: NameKind) -> tuple[str, ...]:
        """Every data name of this kind, in data order."""
        return self._table(kind).targets

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


# ----------------------------------------------------------------------------------------------
# Unit lists.
# ----------------------------------------------------------------------------------------------

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
_NUMBERISH = re.compile(r"[-+\u2212]?(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)(?:e[-+]?[0-9]+)?", re.I)
_GOOD_COUNT = re.compile(r"[0-9]{1,3}")
_UNIT_SEP = re.compile(r"\s*(?:[,;&]|\band\b|(?<!\S)\+(?!\S))\s*", re.I)
_DIGITS_GLUED = re.compile(r"(?<![\w.,+\-\u2212])([0-9]+)(?=[^\W\d_])")  # "3infantry", "3x"
_TIMES = frozenset({"x", "\u00d7", "*"})


def _is_count(token: str) -> bool:
    return token.casefold() in _COUNT_WORDS or _NUMBERISH.fullmatch(token) is not None


def _count(token: str, entry: str) -> int:
    word = _COUNT_WORDS.get(token.casefold())
    if word is not None:
        return word
    if _GOOD_COUNT.fullmatch(token) and 1 <= int(token) <= MAX_COUNT:
        return int(token)
    raise InvalidOrder(f"Counts are whole numbers from 1 to {MAX_COUNT}: {entry!r}.")


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
            where = f" in {chunk!r}" if chunk.strip() != count_tok else ""
            raise InvalidOrder(
                f"Expected a unit after {count_tok!r}{where}, e.g. '3 infantry, 1 tank'."
            )
        name = " ".join(words)
        out.append((1 if count_tok is None else _count(count_tok, f"{count_tok} {name}"), name))

    for tok in tokens:
        if _is_count(tok):
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
        raise InvalidOrder("No units given: write them like '3 infantry, 1 tank'.")
    total: dict[str, int] = {}
    for chunk in _UNIT_SEP.split(text.strip()):
        if not chunk.strip():
            continue
        for n, name in _entries(chunk):
            unit = names.unit(name)
            total[unit] = total.get(unit, 0) + n
    if not total:
        raise InvalidOrder("No units given: write them like '3 infantry, 1 tank'.")
    return total


def format_units(units: Mapping[str, int], *, plurals: bool = True) -> str:
    """{'infantry': 3, 'tank': 2} -> '3 infantry, 2 tanks' (parses back to the same units).

    Entries keep the mapping's order; counts below 1 are left out; nothing at all is 'no units'.
    With ``plurals=False`` names stay singular ('2 tank').
    """
    parts = [f"{n} {plural(u) if plurals and n != 1 else u}" for u, n in units.items() if n >= 1]
    return ", ".join(parts) if parts else "no units"


# ----------------------------------------------------------------------------------------------
# Parsing helpers.
# ----------------------------------------------------------------------------------------------

L = TypeVar("L")
R = TypeVar("R")

_WORD_SPAN = re.compile(r"\S+")


def _usage(verb: str, example: str = "") -> InvalidOrder:
    form = USAGE.get(verb, verb).split("  (")[0]
    msg = f"Expected '{form}'."
    if example:
        msg += f" For example: '{example}'."
    return InvalidOrder(msg)


def _split_all(text: str, pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """Every split of text at a match of pattern, both sides stripped and non-empty."""
    out: list[tuple[str, str]] = []
    for m in pattern.finditer(text):
        left, right = text[: m.start()].strip(), text[m.end() :].strip()
        if left and right:
            out.append((left, right))
    return out


def _try_splits(
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


def _lead_name(text: str, table: _Table) -> tuple[str, str] | None:
    """The longest leading run of words that is exactly a name of table, and the rest."""
    spans = list(_WORD_SPAN.finditer(text))
    for k in range(min(len(spans), table.max_words + 2), 0, -1):
        end = spans[k - 1].end()
        found = table.strict(text[:end])
        if found is not None:
            return found, text[end:].strip()
    return None


def _no_args(verb: str, rest: str) -> None:
    if rest:
        raise InvalidOrder(f"'{verb}' takes nothing after it: write just '{verb}'.")


_FROM = re.compile(r"\bfrom\b", re.I)
_TO = re.compile(r"\bto\b|->|→|\binto\b", re.I)
_VIA = re.compile(r"\bvia\b", re.I)
# A trailing strategic bombing raid declaration (Classic R-SBR-01): "... to Germany raid".
_RAID = re.compile(
    r"\s+\(?(?:(?:as\s+)?(?:a\s+)?(?:strategic\s+)?(?:bombing\s+)?raid|bomb(?:ing)?)\)?\s*$",
    re.I)
_PATH_SEP = re.compile(r"\s*(?:,|;|->|→|\band\b|\bthen\b)\s*", re.I)
_IN = re.compile(r"\bin\b|\bat\b", re.I)
_VS = re.compile(r"\bvs\b\.?|\bversus\b|\bagainst\b|\bv\b\.?", re.I)
_LIST_SEP = re.compile(r"\s*(?:[,;>]|->|→|\band\b|\bthen\b)\s*", re.I)
_JSON_FLAGS = frozenset({"--json", "-j", "json", "—json"})

# ----------------------------------------------------------------------------------------------
# The verbs.
# ----------------------------------------------------------------------------------------------


def _buy(rest: str, names: Names, verb: str) -> Command:
    if rest.casefold() == "clear":
        return ClearPurchase()
    if not rest:
        raise InvalidOrder(
            "Expected 'buy <units>', e.g. 'buy 3 infantry, 1 tank', or 'buy clear' to empty "
            "the purchase list."
        )
    return Buy(units=parse_units(rest, names))


def _move(rest: str, names: Names, verb: str) -> Command:
    usage = InvalidOrder(
        f"Expected '{verb} <units> from <space> to <space>'. Add 'via <space>, <space>' to "
        f"fix the path, and 'raid' after the target for a strategic bombing raid. For example: "
        f"'{verb} 2 infantry, 1 tank from Germany to Eastern Europe'."
    )
    m = _FROM.search(rest)
    if m is None:
        raise usage
    units_text, path = rest[: m.start()].strip(), rest[m.end() :].strip()
    if not units_text or not path:
        raise usage
    units = parse_units(units_text, names)
    raid = False
    rm = _RAID.search(path)
    if rm is not None:
        path, raid = path[: rm.start()].strip(), True
    via: tuple[str, ...] = ()
    vm = _VIA.search(path)
    if vm is not None:
        path, via_text = path[: vm.start()].strip(), path[vm.end() :].strip()
        parts = [p for p in _PATH_SEP.split(via_text) if p.strip()]
        if not parts:
            raise usage
        via = tuple(names.space(p) for p in parts)
    ends = _try_splits(_split_all(path, _TO), names.space, names.space)
    if ends is None:
        raise usage
    return Move(units=units, frm=ends[0], to=ends[1], via=via, raid=raid)


def _battle(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("battle", "battle Ukraine")
    m = re.fullmatch(r"(.*\S)\s+all", rest, re.I | re.S)
    if m is not None:
        try:
            return Battle(space=names.space(m.group(1)), all=True)
        except InvalidOrder:
            if names._spaces.strict(rest) is None:
                raise
    return Battle(space=names.space(rest))


def _space_then_units(rest: str, names: Names, verb: str, example: str,
                      units_of: Callable[[str], Units] | None = None) -> tuple[str, Units]:
    """'<space> <units>': the space is the longest leading run of words that names one."""
    read = units_of or (lambda text: parse_units(text, names))
    if ":" in rest:
        left, _, right = rest.partition(":")
        if not left.strip() or not right.strip():
            raise _usage(verb, example)
        return names.space(left), read(right)
    lead = _lead_name(rest, names._spaces)
    if lead is not None and lead[1]:
        return lead[0], read(lead[1])
    words = rest.split()
    if len(words) < 2:
        raise _usage(verb, example)
    # no exact space name: the space ends where a count begins (or before the last word)
    cut = next((i for i in range(1, len(words)) if _is_count(words[i])), len(words) - 1)
    space = names.space(" ".join(words[:cut]))
    return space, read(" ".join(words[cut:]))


_FROM = re.compile(r"\s+from\s+", re.I)


def parse_casualty_units(text: str, names: Names) -> tuple[Units, dict[str, dict[str, int]]]:
    """'1 fighter from Germany, 2 infantry' -> ({'fighter': 1, 'infantry': 2},
    {'fighter': {'Germany': 1}}): units with, for some, the space they started the turn in."""
    plain: list[str] = []
    origins: dict[str, dict[str, int]] = {}
    units: dict[str, int] = {}
    for chunk in _UNIT_SEP.split(text.strip()):
        parts = _FROM.split(chunk.strip(), maxsplit=1)
        if len(parts) == 1:
            plain.append(chunk)
            continue
        got = parse_units(parts[0], names)
        if len(got) != 1:
            raise InvalidOrder(
                f"Name one unit type before 'from': e.g. '1 fighter from Germany', not {chunk!r}."
            )
        ((utype, n),) = got.items()
        where = names.space(parts[1])
        units[utype] = units.get(utype, 0) + n
        origins.setdefault(utype, {})
        origins[utype][where] = origins[utype].get(where, 0) + n
    if plain:
        for utype, n in parse_units(", ".join(plain), names).items():
            units[utype] = units.get(utype, 0) + n
    if not units:
        raise InvalidOrder("No units given: write them like '3 infantry, 1 tank'.")
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


def _casualties(rest: str, names: Names, verb: str) -> Command:
    example = "casualties Ukraine 2 infantry, 1 tank"
    if not rest:
        raise _usage("casualties", example)
    origins: dict[str, dict[str, int]] = {}

    def units_of(text: str) -> Units:
        units, found = parse_casualty_units(text, names)
        origins.clear()
        origins.update(found)
        return units

    try:
        space, units = _space_then_units(rest, names, "casualties", example, units_of)
    except InvalidOrder as first:
        # also accept 'casualties 2 infantry in Ukraine'
        try:
            alt = _try_splits(_split_all(rest, _IN), units_of, names.space)
        except InvalidOrder:
            raise first from None
        if alt is None:
            raise
        units, space = alt
    return Casualties(space=space, units=units, origins=dict(origins))


def _retreat(rest: str, names: Names, verb: str) -> Command:
    ends = _try_splits(_split_all(rest, _TO), names.space, names.space)
    if ends is None:
        raise _usage("retreat", "retreat Ukraine to West Russia")
    return Retreat(space=ends[0], to=ends[1])


def _press(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("press", "press Ukraine")
    return Press(space=names.space(rest))


def _strike(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("strike", "strike Sea Zone 5")
    return Strike(space=names.space(rest))


def _space_count(rest: str, names: Names, verb: str) -> tuple[str, int | None]:
    """'<space> [n|all]': a space, then an optional count of submarines (None: all)."""
    m = re.fullmatch(r"(.*\S)\s+(\S+)", rest, re.S)
    if m is not None and m.group(2).casefold() == "all":
        return names.space(m.group(1)), None
    if m is not None and _NUMBERISH.fullmatch(m.group(2)):
        whole = names._spaces.strict(rest)
        try:
            space = names.space(m.group(1))
        except InvalidOrder:
            if whole is None:
                raise
            return whole, None
        count = _count(m.group(2), rest)
        if whole is not None and whole != space:
            raise AmbiguousOrder(
                f"{rest!r} could be all submarines in {whole} or {count} in {space}: write "
                f"'{verb} {whole}' or '{verb} {space} {count}'.",
                [whole, space],
            )
        return space, count
    return names.space(rest), None


def _submerge(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("submerge", "submerge Sea Zone 5 2")
    space, count = _space_count(rest, names, "submerge")
    return Submerge(space=space, count=count)


def _withdraw(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("withdraw", "withdraw North Sea Zone 2 to Baltic Sea Zone")
    got = _try_splits(_split_all(rest, _TO), lambda x: _space_count(x, names, "withdraw"),
                      names.space)
    if got is not None:
        (space, count), to = got
        return Withdraw(space=space, count=count, to=to)
    space, count = _space_count(rest, names, "withdraw")
    return Withdraw(space=space, count=count)


def _bomb(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("bomb", "bomb Germany")
    return Bomb(space=names.space(rest))


def _place(rest: str, names: Names, verb: str) -> Command:
    got = _try_splits(_split_all(rest, _IN), lambda s: parse_units(s, names), names.space)
    if got is None:
        raise _usage("place", "place 2 infantry in Germany")
    return Place(units=got[0], space=got[1])


def _research(rest: str, names: Names, verb: str) -> Command:
    words = rest.split()
    if words and words[-1].casefold() in ("dice", "die", "research"):
        words = words[:-1]
    if len(words) != 1:
        raise _usage("research", "research 2")
    return Research(dice=_small_int(words[0], "number of research dice", MAX_COUNT))


_AT = re.compile(r"\bat\b|\bagainst\b|\bon\b|->|→", re.I)


def _rocket(rest: str, names: Names, verb: str) -> Command:
    text = re.sub(r"^from\s+", "", rest, flags=re.I)
    ends = _try_splits(_split_all(text, _AT), names.space, names.space)
    if ends is None:
        raise _usage("rocket", "rocket Western Europe at United Kingdom")
    return Rocket(frm=ends[0], target=ends[1])


def _end(rest: str, names: Names, verb: str) -> Command:
    """`end [<phase>] [confirm]`: a phase named is the one meant (refused once it has passed)."""
    expected = ("Expected 'end' (ends the phase; asks to confirm if something would be lost), "
                "'end <phase>' (only that phase), 'end confirm' or 'end!'.")
    words = " ".join(rest.casefold().split())
    what, confirm = re.fullmatch(r"(.*?)\s*(confirm!?|!)?", words).groups()  # type: ignore[union-attr]
    if verb == "end!":
        if confirm:
            raise InvalidOrder(expected)
        confirm = "!"
    if what in ("", "phase"):
        return EndPhase(confirm=bool(confirm))
    if names.edition is None:
        raise InvalidOrder(expected)
    from rules.position import phase_id

    try:
        phase = phase_id(names.edition, what.removesuffix(" phase"))
    except InvalidOrder as e:
        raise InvalidOrder(f"{expected} {e}") from None
    return EndPhase(confirm=bool(confirm), phase=phase)


def _undo(rest: str, names: Names, verb: str) -> Command:
    _no_args("undo", rest)
    return Undo()


_WITH = re.compile(r"\bwith\b(?P<what>.*?)(?=\bvs\b|\bversus\b|\bagainst\b|\bin\b|\bat\b|$)",
                   re.I)


def _developments(text: str, names: Names) -> tuple[str, ...]:
    """'jets and heavy bombers' -> ('jet_power', 'heavy_bombers'): the edition's weapons
    developments by id, name or alias (R-TEC-05)."""
    ed = names.edition
    research = ed.rules.rules.research if ed is not None else None
    if research is None:
        raise InvalidOrder("This edition has no weapons developments: leave out 'with ...'.")

    def key(x: str) -> str:
        return " ".join(re.sub(r"[-_]", " ", x).casefold().split())

    table: dict[str, str] = {}
    for t in research.technologies:
        for form in (t.id, t.name, *t.aliases):
            table[key(form)] = t.id
            table[key(form).removesuffix("s")] = t.id
    out: list[str] = []
    for chunk in _UNIT_SEP.split(text.strip()):
        if not chunk.strip():
            continue
        k = key(chunk)
        found = table.get(k, table.get(k.removesuffix("s")))
        if found is None:
            known = ", ".join(t.name for t in research.technologies)
            raise InvalidOrder(f"Unknown weapons development {chunk.strip()!r}. "
                               f"Developments (R-TEC-05): {known}.")
        if found not in out:
            out.append(found)
    if not out:
        raise InvalidOrder("Name the developments after 'with', e.g. 'with heavy bombers'.")
    return tuple(out)


def development_ids(text: str, names: Names) -> tuple[str, ...]:
    """Weapons developments named as orders name them (position files, rules.position)."""
    return _developments(text, names)


def _odds(rest: str, names: Names, verb: str) -> Command:
    example = "odds 3 infantry, 1 tank vs 2 infantry in Ukraine"
    developments: list[str] = []
    for w in _WITH.finditer(rest):
        developments += [t for t in _developments(w["what"], names) if t not in developments]
    if developments:
        rest = " ".join(_WITH.sub(" ", rest).split())
        return _odds(rest, names, verb).model_copy(update={"developments": tuple(developments)})
    m = _VS.search(rest)
    if m is None:
        raise _usage("odds", example)
    left, right = rest[: m.start()].strip(), rest[m.end() :].strip()
    if not left or not right:
        raise _usage("odds", example)
    attackers = parse_units(left, names)
    try:
        got = _try_splits(_split_all(right, _IN), lambda s: parse_units(s, names), names.space)
    except InvalidOrder as e:
        try:  # perhaps there is no space after all
            return Odds(attackers=attackers, defenders=parse_units(right, names))
        except InvalidOrder:
            raise e from None
    if got is not None:
        return Odds(attackers=attackers, defenders=got[0], space=got[1])
    return Odds(attackers=attackers, defenders=parse_units(right, names))


def _luck(rest: str, names: Names, verb: str) -> Command:
    return Luck(space=names.space(rest) if rest else None)


def _small_int(text: str, what: str, top: int) -> int:
    if _GOOD_COUNT.fullmatch(text) or re.fullmatch(r"[0-9]{1,5}", text):
        n = int(text)
        if 1 <= n <= top:
            return n
    raise InvalidOrder(f"The {what} is a whole number from 1 to {top}, not {text!r}.")


def _dice(rest: str, names: Names, verb: str) -> Command:
    words = rest.split()
    if not words or words[0].casefold() != "verify" or len(words) > 2:
        raise InvalidOrder("Expected 'dice verify' or 'dice verify <round>'.")
    if len(words) == 1:
        return DiceVerify()
    return DiceVerify(round=_small_int(words[1], "round", MAX_ROUND))


def _segment_units(chunk: str, names: Names) -> list[str]:
    """Unit names in a chunk without separators ('infantry tank' -> ['infantry', 'tank'])."""
    out: list[str] = []
    words = chunk.split()
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + names._units.max_words + 1), i, -1):
            found = names._units.strict(" ".join(words[i:j]))
            if found is not None:
                out.append(found)
                i = j
                break
        else:
            out.append(names.unit(" ".join(words[i:])))  # forgiving match, or the error
            break
    return out


def _standing(rest: str, names: Names, verb: str) -> Command:
    example = "standing casualties Germany infantry, tank, fighter"
    usage = InvalidOrder(
        "Expected 'standing casualties <power> <unit>, <unit>, ...' (cheapest first), "
        f"e.g. '{example}'."
    )
    first, _, rest = rest.partition(" ")
    if first.casefold() not in ("casualties", "casualty"):
        raise usage
    rest = rest.strip()
    if not rest:
        raise usage
    if ":" in rest:
        left, _, listed = rest.partition(":")
        power = names.power(left)
    else:
        lead = _lead_name(rest, names._powers)
        if lead is None:
            power = names.power(rest.split()[0])  # forgiving match, or the error
            listed = rest.split(None, 1)[1] if len(rest.split()) > 1 else ""
        else:
            power, listed = lead
    order: list[str] = []
    for chunk in _LIST_SEP.split(listed):
        if not chunk.strip():
            continue
        for word in chunk.split():
            if _is_count(word) and word.casefold() not in ("a", "an"):
                raise InvalidOrder(
                    f"A standing casualty order lists unit types without counts, first lost "
                    f"first: e.g. '{example}'."
                )
        for unit in _segment_units(chunk, names):
            if unit not in order:
                order.append(unit)
    if not order:
        raise usage
    return StandingCasualties(power=power, order=tuple(order))


def _game(rest: str, names: Names, verb: str) -> Command:
    sub, _, args = rest.partition(" ")
    sub, args = sub.casefold(), args.strip()
    if sub == "new":
        if not args:
            known = ", ".join(names.edition_word(e) for e in names.all("edition"))
            example = f", e.g. 'game new {names.edition_word()}'" if known else ""
            raise InvalidOrder(
                f"Expected 'game new <edition> [options]'{example}."
                + (f" Editions: {known}." if known else "")
            )
        lead = _lead_name(args, names._editions)
        if lead is None:
            first, _, more = args.partition(" ")
            lead = names.edition_id(first), more
        edition, more = lead
        options: list[str] = []
        for word in more.split():
            opt = word.casefold().lstrip("-—")
            if not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", opt):
                raise InvalidOrder(
                    f"Unknown game option {word!r}: options are single words such as "
                    "'short' or 'errata'."
                )
            if opt not in options:
                options.append(opt)
        return GameNew(edition=edition, options=tuple(options))
    if sub == "join":
        if not args:
            raise InvalidOrder(
                "Expected 'game join <power> [entropy phrase]', e.g. 'game join Germany'."
            )
        lead = _lead_name(args, names._powers)
        if lead is None:
            first, _, more = args.partition(" ")
            lead = names.power(first), more.strip()
        return GameJoin(power=lead[0], entropy=lead[1])
    if sub == "start":
        _no_args("game start", args)
        return GameStart()
    if sub == "status":
        flags = args.casefold().split()
        if any(f not in _JSON_FLAGS for f in flags):
            raise InvalidOrder("Expected 'game status' or 'game status --json'.")
        return GameStatus(json=bool(flags))
    if sub == "map":
        return GameMap(space=names.space(args) if args else None)
    if sub == "history":
        if not args:
            return GameHistory()
        if args.casefold() == "all":
            return GameHistory()
        return GameHistory(n=_small_int(args, "number of events", MAX_HISTORY))
    if sub == "export":
        _no_args("game export", args)
        return GameExport()
    if sub == "check":
        _no_args("game check", args)
        return GameCheck()
    if sub == "repair":
        how = {"truncate": "truncate", "reseal": "reseal", "accept": "reseal"}.get(args.casefold())
        if how is None:
            raise InvalidOrder(
                "Expected 'game repair truncate' (cut the log before its first bad event) or "
                "'game repair reseal' (accept the stored events as they are)."
            )
        return GameRepair(how="truncate" if how == "truncate" else "reseal")
    life = _game_life(sub, args)
    if life is not None:
        return life
    forms = "; ".join(f"'{u}'" for u in _GAME_USAGE.values())
    if not sub:
        raise InvalidOrder(f"Expected a game command: {forms}.")
    close = difflib.get_close_matches(sub, list(_GAME_USAGE), n=1, cutoff=0.6)
    hint = f" Did you mean: game {close[0]}?" if close else ""
    raise InvalidOrder(f"Unknown game command {sub!r}.{hint} Game commands: {forms}.")


def _state(rest: str, names: Names, verb: str) -> Command:
    if rest.casefold() not in ("", "--json", "json"):
        raise InvalidOrder("'state' takes nothing after it: write just 'state'.")
    return State()


def _help(rest: str, names: Names, verb: str) -> Command:
    topic = " ".join(rest.casefold().split())
    return Help(topic=topic or None)


def _pause(rest: str, names: Names, verb: str) -> Command:
    _no_args("pause", rest)
    return Pause()


def _resume(rest: str, names: Names, verb: str) -> Command:
    _no_args("resume", rest)
    return Resume()


def _deadline(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("deadline", "deadline 24h")
    return Deadline(text=rest)


def _substitute(rest: str, names: Names, verb: str) -> Command:
    usage = _usage("substitute", "substitute Germany @alice")
    if not rest:
        raise usage
    lead = _lead_name(rest, names._powers)
    if lead is None:
        first, _, more = rest.partition(" ")
        lead = names.power(first), more.strip()
    if not lead[1]:
        raise usage
    return Substitute(power=lead[0], user=lead[1])


def _kick(rest: str, names: Names, verb: str) -> Command:
    if not rest:
        raise _usage("kick", "kick @alice")
    return Kick(user=rest)


_EDIT_FORMS = {
    "add": "edit add <units> in <space> [for <power>]",
    "remove": "edit remove <units> from <space> [of <power>]",
    "move": "edit move <units> from <space> to <space> [of <power>]",
    "owner": "edit owner <territory> <power>",
    "money": "edit money <power> <n>",
    "confirm": "edit confirm <n>",
    "reject": "edit reject <n>",
    "list": "edit list",
}
_EDIT_EXAMPLES = {
    "add": "edit add 2 infantry in Germany",
    "remove": "edit remove 1 tank from Ukraine of Soviet Union",
    "move": "edit move 2 infantry from Germany to Poland",
    "owner": "edit owner Ukraine Germany",
    "money": "edit money Germany 30",
    "confirm": "edit confirm 1",
    "reject": "edit reject 1",
}
_FOR = re.compile(r"\bfor\b", re.I)
_OF = re.compile(r"\bof\b|\bfor\b", re.I)
_EDIT_VERBS = {"add": "add", "remove": "remove", "delete": "remove", "move": "move",
               "owner": "owner", "own": "owner", "control": "owner", "money": "money",
               "ipcs": "money", "ipc": "money", "treasury": "money", "pus": "money",
               "confirm": "confirm", "accept": "confirm", "agree": "confirm", "yes": "confirm",
               "reject": "reject", "refuse": "reject", "no": "reject", "list": "list"}


def _edit_usage(sub: str) -> InvalidOrder:
    return InvalidOrder(
        f"Expected '{_EDIT_FORMS[sub]}'. "
        f"For example: '{_EDIT_EXAMPLES.get(sub, _EDIT_FORMS[sub])}'."
    )


def _with_power(
    rest: str, names: Names, word: re.Pattern[str], body: Callable[[str], EditChange]
) -> EditChange:
    """``body`` of the text, with an optional trailing '<word> <power>' (for/of Germany)."""
    splits = _split_all(rest, word)
    for left, right in reversed(splits):
        power = names._powers.strict(right)
        if power is not None:
            try:
                return body(left).model_copy(update={"power": power})
            except InvalidOrder:
                continue
    try:
        return body(rest)
    except InvalidOrder as first:
        if not splits:
            raise
        left, right = splits[-1]
        try:
            change = body(left)
        except InvalidOrder:
            raise first from None
        return change.model_copy(update={"power": names.power(right)})  # suggests, or raises


def _edit_number(args: str, sub: str) -> int:
    words = args.replace("#", " ").split()
    if len(words) != 1:
        raise _edit_usage(sub)
    return _small_int(words[0], "edit number", 10**6)


def _edit(rest: str, names: Names, verb: str) -> Command:
    sub_word, _, args = rest.partition(" ")
    args = args.strip()
    sub = _EDIT_VERBS.get(sub_word.casefold())
    if sub is None:
        forms = "; ".join(f"'{f}'" for f in _EDIT_FORMS.values())
        close = difflib.get_close_matches(sub_word.casefold(), list(_EDIT_VERBS), n=1, cutoff=0.6)
        hint = f" Did you mean: edit {_EDIT_VERBS[close[0]]}?" if close else ""
        what = f"Unknown edit {sub_word!r}.{hint}" if sub_word else "Expected an edit."
        raise InvalidOrder(f"{what} Edits: {forms}.")
    if sub == "list":
        _no_args("edit list", args)
        return EditList()
    if sub in ("confirm", "reject"):
        n = _edit_number(args, sub)
        return EditConfirm(number=n) if sub == "confirm" else EditReject(number=n)
    if not args:
        raise _edit_usage(sub)
    if sub == "add":
        def add(text: str) -> EditChange:
            got = _try_splits(_split_all(text, _IN), lambda x: parse_units(x, names), names.space)
            if got is None:
                raise _edit_usage("add")
            return EditChange(action="add", units=got[0], space=got[1])

        return EditPropose(change=_with_power(args, names, _FOR, add))
    if sub == "remove":
        def remove(text: str) -> EditChange:
            got = _try_splits(_split_all(text, _FROM), lambda x: parse_units(x, names),
                              names.space)
            if got is None:
                raise _edit_usage("remove")
            return EditChange(action="remove", units=got[0], space=got[1])

        return EditPropose(change=_with_power(args, names, _OF, remove))
    if sub == "move":
        def move(text: str) -> EditChange:
            m = _FROM.search(text)
            if m is None:
                raise _edit_usage("move")
            units_text, path = text[: m.start()].strip(), text[m.end() :].strip()
            if not units_text or not path:
                raise _edit_usage("move")
            units = parse_units(units_text, names)
            ends = _try_splits(_split_all(path, _TO), names.space, names.space)
            if ends is None:
                raise _edit_usage("move")
            return EditChange(action="move", units=units, space=ends[0], to=ends[1])

        return EditPropose(change=_with_power(args, names, _OF, move))
    if sub == "owner":
        text = re.sub(r"^of\s+", "", args, flags=re.I)
        got = _try_splits(_split_all(text, re.compile(r"\bto\b|:|->|→", re.I)), names.space,
                          names.power)
        if got is None:
            lead = _lead_name(text, names._spaces)
            if lead is None or not lead[1]:
                words = text.split()
                if len(words) < 2:
                    raise _edit_usage("owner")
                lead = names.space(" ".join(words[:-1])), words[-1]
            got = lead[0], names.power(lead[1])
        return EditPropose(change=EditChange(action="owner", space=got[0], power=got[1]))
    # money
    words = args.replace(":", " ").split()
    if len(words) >= 2 and words[-2].casefold() == "to":
        words = [*words[:-2], words[-1]]
    if len(words) < 2:
        raise _edit_usage("money")
    amount_text = words[-1]
    if not re.fullmatch(r"[0-9]{1,4}", amount_text):
        raise InvalidOrder(
            f"The treasury is a whole number from 0 to 9999, not {amount_text!r}: "
            f"'{_EDIT_EXAMPLES['money']}'.")
    power = names.power(" ".join(words[:-1]))
    return EditPropose(change=EditChange(action="money", power=power, amount=int(amount_text)))


_Handler = Callable[[str, Names, str], Command]

_HANDLERS: dict[str, _Handler] = {
    "buy": _buy,
    "move": _move,
    "load": _move,
    "unload": _move,
    "battle": _battle,
    "casualties": _casualties,
    "casualty": _casualties,
    "retreat": _retreat,
    "press": _press,
    "submerge": _submerge,
    "strike": _strike,
    "withdraw": _withdraw,
    "bomb": _bomb,
    "raid": _bomb,
    "place": _place,
    "research": _research,
    "rocket": _rocket,
    "rockets": _rocket,
    "end": _end,
    "end!": _end,
    "undo": _undo,
    "odds": _odds,
    "luck": _luck,
    "dice": _dice,
    "standing": _standing,
    "game": _game,
    "state": _state,
    "help": _help,
    "pause": _pause,
    "resume": _resume,
    "deadline": _deadline,
    "substitute": _substitute,
    "kick": _kick,
    "edit": _edit,
}


def _unknown_verb(word: str) -> InvalidOrder:
    firsts = {v.split()[0]: v for v in VERBS}
    close = difflib.get_close_matches(word.casefold(), list(firsts), n=1, cutoff=0.6)
    shown = word if len(word) <= 40 else word[:40] + "…"
    hint = f" Did you mean: {firsts[close[0]]}?" if close else ""
    return InvalidOrder(f"Unknown order {shown!r}.{hint} Orders: {', '.join(VERBS)}.")


def _ascii_digits(text: str) -> str:
    """Digits of any script read as digits: full-width 3 (U+FF13, a Japanese keyboard) is 3."""
    return "".join(str(unicodedata.decimal(c)) if not c.isascii() and c.isdecimal() else c
                   for c in text)


def parse(text: str, names: Names) -> Command:
    """One line of text -> one typed command (a rules order or a meta command).

    Raises ``InvalidOrder`` (``AmbiguousOrder`` for names that fit several things) with a
    message that says what to write instead; never anything else for any input string.
    Rules orders come back with ``power=""`` except ``StandingCasualties``, whose power is named
    in the text.
    """
    if len(text) > MAX_LENGTH:
        raise InvalidOrder(
            f"Order too long ({len(text)} characters, at most {MAX_LENGTH}); "
            "keep one order per line."
        )
    bad = text_problem(text, None)
    if bad is not None:  # storage cannot hold it (a NUL crashed PostgreSQL's insert)
        raise InvalidOrder(text_refusal("order", bad))
    if len(text.strip().splitlines()) > 1:
        raise InvalidOrder("Several lines in one order; keep one order per line.")
    line = _ascii_digits(" ".join(text.split()))  # one space between words from here on
    if not line:
        raise InvalidOrder("Empty order: type 'help' for the list of orders.")
    first, _, rest = line.partition(" ")
    word = first.casefold().lstrip("/")
    if word != "end!":
        word = word.rstrip(".:")
    handler = _HANDLERS.get(word)
    if handler is None:
        raise _unknown_verb(first)
    return handler(rest, names, word)
