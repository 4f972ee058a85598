"""The order language as the service reads it: the rules' orders (``rules.language``) and the
service's meta-commands (``service.meta``), one grammar shared by every front end.

``parse(text, names)`` turns one line into a typed command: a rules order from
``rules.orders`` (``Buy``, ``Move``, ...) or a meta-command (``GameNew``, ``Odds``, ``Pause``...).
The acting ``power`` of rules orders is left ``""``: the front end fills it in from the seat.

Front ends import the language from here: the grammar, the names (``Names``, ``names_for``),
unit lists (``parse_units``, ``format_units``) and the meta-commands.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Annotated

from pydantic import Field, TypeAdapter

from rules import mechanisms
from rules.language import ORDERS
from rules.language.names import NameKind, Names, edition_catalog, names_for
from rules.language.registry import MAX_LENGTH, Grammar
from rules.language.units import (
    MAX_COUNT,
    format_casualty_units,
    format_units,
    parse_casualty_units,
    parse_units,
    plural,
)
from rules.orders import Order, order_types
from service import meta_admin, meta_grammar
from service.meta import (
    META,
    Deadline,
    DiceVerify,
    EditConfirm,
    EditList,
    EditPropose,
    EditReject,
    GameCancel,
    GameCheck,
    GameConcede,
    GameDraw,
    GameExport,
    GameHistory,
    GameJoin,
    GameLeave,
    GameLink,
    GameList,
    GameMap,
    GameMine,
    GameNew,
    GameRepair,
    GameStart,
    GameStatus,
    Help,
    Kick,
    Luck,
    Meta,
    MetaCommand,
    Odds,
    Pause,
    Resume,
    State,
    Substitute,
    Undo,
)

if TYPE_CHECKING:
    from rules.edition import Edition

__all__ = [
    "LANGUAGE",
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
    "GameLink",
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
    "MetaCommand",
    "NameKind",
    "Names",
    "Odds",
    "Pause",
    "Resume",
    "State",
    "Substitute",
    "Undo",
    "edition_catalog",
    "format_casualty_units",
    "format_units",
    "names_for",
    "parse",
    "parse_casualty_units",
    "parse_units",
    "plural",
    "usage_for",
]

# Importing these registers their verbs: the meta-commands, and the orders that mechanism
# modules describe themselves.
_REGISTERED = (meta_grammar.GAME, meta_admin.EDIT, mechanisms)

Command = Order | Meta
"""Everything ``parse`` can return, told apart by ``kind``."""


class _CommandCodec:
    """A ``Command`` to and from JSON, by its ``kind``: the orders of every mechanism (an open
    list, ``rules.orders.order_types``) and the meta-commands."""

    def dump_json(self, cmd: Command) -> bytes:
        return cmd.model_dump_json().encode()

    def validate_json(self, data: str | bytes) -> Command:
        doc = json.loads(data)
        kind = doc.get("kind") if isinstance(doc, dict) else None
        if not isinstance(kind, str):
            raise ValueError("a command names its kind in 'kind'")
        order = order_types().get(kind)
        if order is not None:
            return order.model_validate(doc)
        meta: Command = _META_ADAPTER.validate_python(doc)
        return meta


_META_ADAPTER: TypeAdapter[Meta] = TypeAdapter(Annotated[Meta, Field(discriminator="kind")])

CommandAdapter = _CommandCodec()
"""Validates/serialises a ``Command`` to and from JSON (e.g. ``CommandAdapter.dump_json(c)``)."""

LANGUAGE: Grammar[Command] = Grammar("language", ORDERS, META)
"""The rules' orders and the meta-commands: what a line of text can say."""


def parse(text: str, names: Names) -> Command:
    """One line of text -> one typed command (a rules order or a meta command).

    Raises ``InvalidOrder`` (``AmbiguousOrder`` for names that fit several things) with a
    message that says what to write instead; never anything else for any input string.
    Rules orders come back with ``power=""`` except ``StandingCasualties``, whose power is named
    in the text.
    """
    return LANGUAGE.parse(text, names)


def usage_for(edition: Edition | None) -> dict[str, str]:
    """The orders as listed to the players of an edition (every order without one)."""
    return LANGUAGE.usage_for(edition)


class _Usage(Mapping[str, str]):
    """Every verb's syntax line, as registered now."""

    def __getitem__(self, verb: str) -> str:
        syntax = LANGUAGE.syntax(verb)
        if syntax is None:
            raise KeyError(verb)
        return syntax.usage

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGE.verbs())

    def __len__(self) -> int:
        return len(LANGUAGE.verbs())


USAGE: Mapping[str, str] = _Usage()
"""Every verb's syntax line (``LANGUAGE.usage()``), by verb in the order they are listed."""

VERBS: tuple[str, ...] = LANGUAGE.verbs()
"""The orders, as listed to players (first words, plus the two-word ones), at import; a verb
registered later is in ``LANGUAGE.verbs()``."""
