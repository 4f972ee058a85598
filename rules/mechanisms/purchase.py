"""Purchase (PU-1..PU-6): buying units in the Purchase phase and clearing a purchase."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.state import GameState
from rules.turn import registry as reg
from rules.turn.phases import phase_name

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def fmt_units(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in units.items())



def decide_purchase(tx: Tx, order: od.Buy | od.ClearPurchase) -> None:
    s = tx.state
    if isinstance(order, od.ClearPurchase):
        refund = purchase_cost(s, s.purchase, order.power)
        tx.emit(ev.PurchaseCleared(power=order.power, refund=refund))
        return
    ed = s.edition
    if not order.units:
        raise InvalidOrder("Name what to buy, e.g. 'buy 3 infantry, 1 tank'.")
    for u, n in order.units.items():
        ut = ed.units.get(u)
        if ut is None:
            raise InvalidOrder(f"Unknown unit {u!r}.")
        if ut.abilities.factory and ut.cost is not None and not s.ruleset().buy_factories:
            raise IllegalOrder(
                f"No {u} may be bought in this game (option O-5 'No New Complexes'): only the "
                "complexes on the board at the start are used."
            )
        if ut.cost is None:
            raise IllegalOrder(
                f"{u.capitalize()} cannot be bought in {ed.rules.title} ({ed.cite('PU-6')}: the "
                "Mobilization Zone chart lists what can be bought)."
            )
        if n <= 0:
            raise InvalidOrder(f"Counts must be positive: {n} {u}.")
    cost = purchase_cost(s, order.units, order.power)
    have = s.treasury[order.power]
    if cost > have:
        raise IllegalOrder(
            f"{fmt_units(order.units)} costs {cost} IPCs; {order.power} has {have} "
            f"({ed.cite('PU-2', 'PU-3')}: buy only what you can afford; the treasury never goes "
            "negative)."
        )
    tx.emit(ev.UnitsPurchased(power=order.power, units=dict(order.units), cost=cost))


def purchase_cost(s: GameState, units: dict[str, int], power: str | None = None) -> int:
    """What ``units`` cost ``power`` (the power whose turn it is by default), weapons
    developments included (Industrial Technology, R-TEC-05)."""
    from rules import tech

    who = power or s.power
    return sum((tech.cost(s, who, u) or 0) * n for u, n in units.items())



@reg.evolver(ev.UnitsPurchased)
def _ev_purchased(s: GameState, e: ev.UnitsPurchased) -> GameState:
    purchase = dict(s.purchase)
    for u, n in e.units.items():
        purchase[u] = purchase.get(u, 0) + n
    treasury = dict(s.treasury)
    treasury[e.power] -= e.cost
    return replace(s, purchase=purchase, treasury=treasury)


@reg.evolver(ev.PurchaseCleared)
def _ev_cleared(s: GameState, e: ev.PurchaseCleared) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] += e.refund
    return replace(s, purchase={}, treasury=treasury)



def _idle(s: GameState) -> str | None:
    """A bare ``end`` would pass an empty Purchase with money to spend (asks ``end confirm``)."""
    from rules import tech

    p = s.power
    if not any(s.purchase.values()):
        prices = [c for u in s.edition.units
                  if (c := tech.cost(s, p, u)) is not None and c > 0]
        money = s.treasury.get(p, 0)
        if prices and money >= min(prices):
            return (f"{p} has bought nothing and has {money} IPCs to spend. Buy with "
                    f"'buy <units>', or 'end confirm' to end {phase_name(s)} without buying.")
    return None


reg.phase("purchase").idle.append(_idle)


def _decide(tx: Tx, order: od.Buy | od.ClearPurchase, dice: Dice) -> None:
    decide_purchase(tx, order)


reg.order(od.Buy, phases=("purchase",))(_decide)
reg.order(od.ClearPurchase, phases=("purchase",))(_decide)
