"""The order-description registry: every verb of the order language is described once.

An ``OrderSyntax`` says everything about one verb: the words that start it, its syntax line,
how the rest of the line is read into a typed command, which editions have it, its example and
explanation for ``help``, what autocomplete offers for each of its arguments, and how a quoted
hint of it reads as a slash command. A ``Grammar`` holds descriptions; the parser, the usage
lines, the help texts and the autocomplete are all derived from it, so a verb registered from
another module (a mechanism's ``ORDERS.register(OrderSyntax(...))`` at import) is parsed,
listed, explained and completed like the rest.

``ORDERS`` is the grammar of the rules' orders. The service adds its own verbs (the
meta-commands ``game``, ``undo``, ``odds``...) in a grammar of its own and reads lines with a
grammar made of both (``Grammar("language", ORDERS, META)``).
"""

from __future__ import annotations

import difflib
import itertools
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar

from rules.errors import InvalidOrder
from rules.language.names import Names
from rules.language.reading import expected
from rules.messages import catalogue, msg
from rules.orders import Order
from rules.text import problem as text_problem
from rules.text import refusal as text_refusal

if TYPE_CHECKING:
    from rules.edition import Edition, EditionRules, RuleSet

__all__ = [
    "MAX_LENGTH",
    "ORDERS",
    "Arg",
    "ArgKind",
    "Board",
    "Chosen",
    "Grammar",
    "Hint",
    "OrderSyntax",
    "Reader",
    "Sub",
    "read_line",
]

MAX_LENGTH = 2000  # characters in one order line

T = TypeVar("T")

Reader = Callable[[str, Names, str], T]
"""Reads an order: ``(rest, names, word)`` -> the command, where ``rest`` is the line after its
first word (single spaces between words) and ``word`` that first word as typed, lowercase
('casualty', 'end!'). Raises ``InvalidOrder`` saying what to write instead."""

ArgKind = Literal["space", "battle", "units", "power", "own power", "edition", "options", "phase"]
"""What fills an argument, for autocomplete: a ``space``; a ``battle`` space (one where a legal
battle decision is, or a battle is being fought); a unit list (``units``); a ``power`` (before
the start: the open seats first); ``own power`` (the asking person's seats first); an
``edition``; the chosen edition's ``options``; a ``phase`` of the game's edition."""


class Chosen(Protocol):
    """The other arguments already chosen, as autocomplete sees them."""

    def fits(self, option: str, value: str) -> bool:
        """True when the argument ``option`` names no space yet or names ``value``."""
        ...


@dataclass(frozen=True)
class Arg:
    """What autocomplete offers for one argument: ``name`` is the slash command's option;
    ``offer`` picks from each legal order of the asking power the value it suggests (None: not
    one for this argument), given the other arguments chosen; ``battles`` adds every space with
    a battle. The names of ``kind`` follow what it offers. ``sub`` is the subcommand (``game
    new``'s ``new``) for a verb with several."""

    name: str
    kind: ArgKind
    offer: Callable[[Any, Chosen], str | None] | None = None
    battles: bool = False
    sub: str = ""


@dataclass(frozen=True)
class Hint:
    """How a quoted hint that begins with ``words`` ('retreat Ukraine to Russia') reads as the
    slash ``command``: the rest of the hint is matched against ``patterns`` in turn, whose named
    groups become the command's options (``cogs._slash``)."""

    words: str
    command: str
    patterns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sub:
    """One subcommand of a verb that has several ('game new', 'edit add'): its word, its syntax
    line, what it does (for ``help``), its slash command and what that does ('' where it has
    none), and an example for refusals."""

    word: str
    form: str
    about: str = ""
    slash: str = ""
    slash_about: str = ""
    example: str = ""


@dataclass(frozen=True)
class Board:
    """Names of one edition's board and units, for the examples of ``help``: its first power,
    that power's capital, a land neighbour and a sea zone beside it, its two cheapest land units
    that can be bought (so that each example is one the edition's parser understands)."""

    power: str
    home: str
    near: str
    sea: str
    cheap: str  # the cheapest land unit that can be bought
    second: str  # the next one

    @classmethod
    def of(cls, ed: Edition) -> Board:
        power = ed.turn_order[0]
        home = ed.powers[power].capital
        spaces = ed.spaces
        around = sorted(ed.neighbours.get(home, ()))
        land = [s for s in around if spaces[s].kind != "sea" and not spaces[s].impassable]
        sea = [s for s in around if spaces[s].kind == "sea"]
        if not sea:
            sea = sorted(s for s, sp in spaces.items() if sp.kind == "sea")
        units = sorted((u for u in ed.units.values()
                        if u.domain == "land" and u.cost and u.attack > 0),
                       key=lambda u: (u.cost or 0, u.name))
        cheap = units[0].name if units else "infantry"
        second = units[1].name if len(units) > 1 else cheap
        return cls(power, home, land[0] if land else home, sea[0] if sea else home, cheap, second)


@dataclass(frozen=True, eq=False)
class OrderSyntax(Generic[T]):
    """One verb of the order language, described once.

    - ``verb``: its name as listed ('battle', 'dice verify'), unique in a grammar;
    - ``usage``: its syntax line; a note after two spaces and '(' is shown only in listings;
    - ``read``: reads the rest of a line into the command (``Reader``);
    - ``words``: the first words that start it (default: the verb's first word), e.g.
      ('casualties', 'casualty');
    - ``rank``: where it is listed (lower first);
    - ``makes``: the command classes it produces;
    - ``needs``: which editions have it, by their rules (None: every edition);
    - ``needs_edition``: the same, by the edition's other rule facts (its politics);
    - ``example``: an example on an edition's board, (as typed, as a slash command);
    - ``explain``: what ``help <verb>`` says it does; ``{name}`` fields are filled by the help
      (``service.help``: other orders' forms, answers on the edition's board);
    - ``args``: what autocomplete offers for its arguments;
    - ``hints``: how a quoted hint of it reads as a slash command;
    - ``subs``: its subcommands, for a verb that has several;
    - ``topic``: a general help topic that names it where the edition has it ('battles');
    - ``write``: an order it makes, written back as a line ``read`` reads to the same order
      (what a decision menu shows and the referee's answer at a deadline records), where a
      mechanism gives one.
    """

    verb: str
    usage: str
    read: Reader[T]
    words: tuple[str, ...] = ()
    rank: int = 1000
    makes: tuple[type, ...] = ()
    needs: Callable[[RuleSet], bool] | None = None
    # which editions have it, by their rule facts beyond the switches (None: every edition)
    needs_edition: Callable[[EditionRules], bool] | None = None
    example: Callable[[Board], tuple[str, str]] | None = None
    explain: str = ""
    args: tuple[Arg, ...] = ()
    hints: tuple[Hint, ...] = ()
    subs: tuple[Sub, ...] = ()
    topic: str = ""
    write: Callable[[Any], str] | None = None
    seq: int = field(default_factory=itertools.count().__next__, init=False)

    @property
    def form(self) -> str:
        """The syntax line without its note."""
        return self.usage.split("  (")[0]

    @property
    def first_words(self) -> tuple[str, ...]:
        return self.words or (self.verb.split()[0],)

    def expected(self, example: str = "") -> InvalidOrder:
        """The refusal of a line that does not fit this order's form."""
        return expected(self.form, example)

    def available(self, edition: Edition | None) -> bool:
        """Whether ``edition`` has this order (every order is available without one)."""
        if edition is None:
            return True
        if self.needs_edition is not None and not self.needs_edition(edition.rules):
            return False
        return self.needs is None or self.needs(edition.rules.rules)

    def arg(self, name: str, sub: str = "") -> Arg | None:
        """The argument ``name`` (of the subcommand ``sub``), if autocomplete offers for it."""
        return next((a for a in self.args if a.name == name and a.sub == sub), None)

    def sub(self, word: str) -> Sub | None:
        """The subcommand ``word``."""
        return next((s for s in self.subs if s.word == word), None)


@dataclass(frozen=True)
class _Index:
    stamp: tuple[Any, ...]
    syntaxes: tuple[OrderSyntax[Any], ...]
    by_verb: dict[str, OrderSyntax[Any]]
    by_word: dict[str, OrderSyntax[Any]]


class Grammar(Generic[T]):
    """Order descriptions, own and of its ``parts``, listed by rank. A verb or first word
    described twice is an error (``ValueError``) when registered or when the grammars are
    combined."""

    def __init__(self, name: str, *parts: Grammar[Any]) -> None:
        self.name = name
        self.parts = parts
        self._own: list[OrderSyntax[Any]] = []
        self._version = 0
        self._index: _Index | None = None

    def __repr__(self) -> str:
        return f"Grammar({self.name!r}, {len(self.syntaxes())} verbs)"

    # --- registration ----------------------------------------------------------------------
    def register(self, syntax: OrderSyntax[T]) -> OrderSyntax[T]:
        """Adds a verb (returns it, so ``X = ORDERS.register(OrderSyntax(...))``)."""
        self._own.append(syntax)
        self._version += 1
        try:
            self._build()
        except ValueError:
            self._own.remove(syntax)
            self._version += 1
            raise
        return syntax

    def replace(self, old: OrderSyntax[Any], new: OrderSyntax[T]) -> OrderSyntax[T]:
        """Puts ``new`` where ``old`` was (a verb another module extends, as a mechanism adds
        an ending to ``move``); returns it."""
        i = self._own.index(old)
        self._own[i] = new
        self._version += 1
        try:
            self._build()
        except ValueError:
            self._own[i] = old
            self._version += 1
            raise
        return new

    def unregister(self, syntax: OrderSyntax[Any]) -> None:
        """Takes a verb out again (tests)."""
        self._own.remove(syntax)
        self._version += 1

    def _stamp(self) -> tuple[Any, ...]:
        return (self._version, *(p._stamp() for p in self.parts))

    def _build(self) -> _Index:
        stamp = self._stamp()
        if self._index is not None and self._index.stamp == stamp:
            return self._index
        every = [*self._own, *(s for p in self.parts for s in p.syntaxes())]
        ordered = tuple(sorted(every, key=lambda s: (s.rank, s.seq)))
        by_verb: dict[str, OrderSyntax[Any]] = {}
        by_word: dict[str, OrderSyntax[Any]] = {}
        for s in ordered:
            if s.verb in by_verb:
                raise ValueError(f"{self.name}: the verb {s.verb!r} is described twice")
            by_verb[s.verb] = s
            for w in s.first_words:
                if w in by_word:
                    raise ValueError(
                        f"{self.name}: the word {w!r} starts both {by_word[w].verb!r} and "
                        f"{s.verb!r}"
                    )
                by_word[w] = s
        self._index = _Index(stamp, ordered, by_verb, by_word)
        return self._index

    # --- lookups ---------------------------------------------------------------------------
    def syntaxes(self) -> tuple[OrderSyntax[Any], ...]:
        """Every verb, in the order they are listed."""
        return self._build().syntaxes

    def syntax(self, verb: str) -> OrderSyntax[Any] | None:
        """The description of a listed verb ('dice verify')."""
        return self._build().by_verb.get(verb)

    def reader(self, word: str) -> OrderSyntax[Any] | None:
        """The description of the order a line starting with ``word`` gives ('casualty' ->
        casualties)."""
        return self._build().by_word.get(word)

    def verbs(self) -> tuple[str, ...]:
        """The orders, as listed to players (first words, plus the two-word ones)."""
        return tuple(self._build().by_verb)

    def usage(self) -> dict[str, str]:
        """Every verb's syntax line."""
        return {s.verb: s.usage for s in self.syntaxes()}

    def usage_for(self, edition: Edition | None) -> dict[str, str]:
        """The orders as listed to the players of an edition (every order without one)."""
        return {s.verb: s.usage for s in self.syntaxes() if s.available(edition)}

    def line(self, command: Any) -> str | None:
        """``command`` written as a line of this grammar, where its verb says how (``write``)."""
        for s in self.syntaxes():
            if s.write is not None and type(command) in s.makes:
                return s.write(command)
        return None

    def battle_kinds(self) -> tuple[type, ...]:
        """The commands of the verbs that decide a battle (an argument of kind ``battle``)."""
        return tuple(k for s in self.syntaxes() if any(a.kind == "battle" for a in s.args)
                     for k in s.makes)

    def offers(self, arg: Arg, legal: Iterable[Any], chosen: Chosen,
               battles: Iterable[str] = ()) -> list[str]:
        """What autocomplete suggests first for ``arg``: values from the legal orders of the
        asking power (and the spaces with a battle, where the argument takes them)."""
        out: list[str] = []
        if arg.kind == "battle":
            kinds = self.battle_kinds()
            out = [str(getattr(o, "space", "")) for o in legal if isinstance(o, kinds)]
        elif arg.offer is not None:
            offer = arg.offer
            out = [v for o in legal if (v := offer(o, chosen)) is not None]
        if arg.kind == "battle" or arg.battles:
            out += list(battles)
        return [v for v in out if v]

    # --- parsing ---------------------------------------------------------------------------
    def parse(self, text: str, names: Names) -> T:
        """One line of text -> one typed command.

        Raises ``InvalidOrder`` (``AmbiguousOrder`` for names that fit several things) with a
        message that says what to write instead; never anything else for any input string.
        Rules orders come back with ``power=""`` except ``StandingCasualties``, whose power is
        named in the text.
        """
        line = read_line(text)
        first, _, rest = line.partition(" ")
        word = first.casefold().lstrip("/").rstrip(".:")
        syntax = self.reader(word)
        if syntax is None:
            raise self._unknown_verb(first)
        result: T = syntax.read(rest, names, word)
        return result

    def _unknown_verb(self, word: str) -> InvalidOrder:
        verbs = self.verbs()
        firsts = {v.split()[0]: v for v in verbs}
        close = difflib.get_close_matches(word.casefold(), list(firsts), n=1, cutoff=0.6)
        shown = word if len(word) <= 40 else word[:40] + "…"
        return InvalidOrder(msg("grammar.unknown_order", word=shown,
                                close=firsts[close[0]] if close else "", verbs=verbs))


def _ascii_digits(text: str) -> str:
    """Digits of any script read as digits: full-width 3 (U+FF13, a Japanese keyboard) is 3."""
    return "".join(str(unicodedata.decimal(c)) if not c.isascii() and c.isdecimal() else c
                   for c in text)


def read_line(text: str) -> str:
    """One order line, checked (length, characters, one line) and with one space between
    words; refuses an empty one."""
    if len(text) > MAX_LENGTH:
        raise InvalidOrder(msg("grammar.too_long", length=len(text), most=MAX_LENGTH))
    bad = text_problem(text, None)
    if bad is not None:  # storage cannot hold it (a NUL crashed PostgreSQL's insert)
        raise InvalidOrder(text_refusal("order", bad))
    if len(text.strip().splitlines()) > 1:
        raise InvalidOrder(msg("grammar.lines"))
    line = _ascii_digits(" ".join(text.split()))
    if not line:
        raise InvalidOrder(msg("grammar.empty"))
    return line


ORDERS: Grammar[Order] = Grammar("orders")
"""The rules' orders. A module that adds an order registers its description here at import."""


catalogue("en", "grammar", {
    "unknown_order": lambda p: (f"Unknown order {p['word']!r}."
                                + (f" Did you mean: {p['close']}?" if p["close"] else "")
                                + f" Orders: {', '.join(p['verbs'])}."),
    "too_long": "Order too long ({length} characters, at most {most}); keep one order per line.",
    "lines": "Several lines in one order; keep one order per line.",
    "empty": "Empty order: type 'help' for the list of orders.",
})
