"""The order language of the rules: names, unit lists and the orders' grammar.

- ``names``: spaces, units, powers and editions as players type them (``Names``);
- ``units``: unit lists, counts, casualty lists and weapons developments, read and written;
- ``reading``: the tools each order's reader uses;
- ``registry``: ``OrderSyntax`` (one verb described once) and ``Grammar``; ``ORDERS`` holds the
  rules' orders, from which the parser, usage lines, help and autocomplete are derived;
- ``orders``, ``battles``: the descriptions of the turn's orders, registered at import.

The service adds its meta-commands (``game``, ``undo``, ``odds``...) in ``service.meta``.
"""

from __future__ import annotations

from rules.language import battles, orders
from rules.language.names import NameKind, Names, edition_catalog, names_for
from rules.language.registry import (
    MAX_LENGTH,
    ORDERS,
    Arg,
    Board,
    Grammar,
    Hint,
    OrderSyntax,
    Sub,
)
from rules.language.units import (
    MAX_COUNT,
    development_ids,
    format_casualty_units,
    format_units,
    parse_casualty_units,
    parse_units,
    plural,
)

__all__ = [
    "MAX_COUNT",
    "MAX_LENGTH",
    "ORDERS",
    "Arg",
    "Board",
    "Grammar",
    "Hint",
    "NameKind",
    "Names",
    "OrderSyntax",
    "Sub",
    "battles",
    "development_ids",
    "edition_catalog",
    "format_casualty_units",
    "format_units",
    "names_for",
    "orders",
    "parse_casualty_units",
    "parse_units",
    "plural",
]
