"""The choices of a decision the game waits for, as order lines: what Discord's menus and
the e-mail gateway's "reply with one of these lines" both offer (one list, one wording).

``decision_orders`` asks ``rules.legal.legal_orders`` for the orders that answer an owed
decision (casualties, press or retreat, submerge or strike, a mechanism's own), at most
``MAX_CHOICES`` of them (a Discord select holds 25); ``order_text`` writes one as the line a
player would type, ``choice_label`` as a short label for a button or a list.
"""

from __future__ import annotations

import logging
from itertools import islice

from rules import language as ps
from rules import orders as od
from rules.decisions import Pending
from rules.legal import legal_orders
from rules.state import GameState

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # a Discord select's limit, and enough for a mail


def order_text(order: od.Order) -> str:
    """The order-language line for a decision (as it appears in the log and the record)."""
    match order:
        case od.Casualties():
            units = ps.format_casualty_units(order.units, order.origins)
            text = f"casualties {order.space} {units}"
            if order.damaged:
                text += f" (damaged: {ps.format_units(order.damaged)})"
            return text
        case od.Submerge():
            return f"submerge {order.space}" + ("" if order.count is None else f" {order.count}")
        case od.Strike():
            return f"strike {order.space}"
        case od.Press():
            return f"press {order.space}"
        case od.Retreat():
            return f"retreat {order.space} to {order.to}"
    return ps.ORDERS.line(order) or order.kind


def choice_label(order: od.Order) -> str:
    """A short label for a choice (a select option, a list entry), at most 100 characters."""
    match order:
        case od.Casualties():
            lose = ps.format_casualty_units(order.units, order.origins)
            label = f"Lose {lose}" if order.units else "Lose nothing"
            if order.damaged:
                label += f"; damage {ps.format_units(order.damaged)}"
            return label[:100]
        case od.Submerge():
            return "Submerge all" if order.count is None else f"Submerge {order.count}"
        case od.Strike():
            return "Strike (stay and fire)"
        case od.Press():
            return "Press on (fight another round)"
        case od.Retreat():
            return f"Retreat to {order.to}"[:100]
    return order_text(order)[:100]


def decision_orders(
    state: GameState, owed: Pending, limit: int = MAX_CHOICES
) -> list[od.Order]:
    """The choices ``legal_orders`` gives ``owed.power`` for this decision (at most ``limit``):
    the orders that answer its kind (a mechanism's own decisions included)."""
    try:
        found = (
            o
            for o in legal_orders(state, owed.power)
            if o.kind in owed.kind.answers and getattr(o, "space", None) == owed.space
        )
        return list(islice(found, limit))
    except Exception:  # a hint only: the slash commands still work
        log.exception("legal_orders failed for a decision view")
        return []
