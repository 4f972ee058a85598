"""Purchase (PU-1..PU-6): buying units in the Purchase phase and clearing a purchase."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.messages import Msg, catalogue, msg
from rules.state import GameState
from rules.turn import registry as reg
from rules.turn.phases import phase_name

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def decide_purchase(tx: Tx, order: od.Buy | od.ClearPurchase) -> None:
    s = tx.state
    if isinstance(order, od.ClearPurchase):
        refund = purchase_cost(s, s.purchase, order.power)
        tx.emit(ev.PurchaseCleared(power=order.power, refund=refund))
        return
    ed = s.edition
    if not order.units:
        raise InvalidOrder(msg("purchase.nothing"))
    for u, n in order.units.items():
        ut = ed.units.get(u)
        if ut is None:
            raise InvalidOrder(msg("purchase.unknown_unit", unit=u))
        if ut.abilities.factory and ut.cost is not None and not s.ruleset().buy_factories:
            raise IllegalOrder(msg("purchase.no_new_complexes", "O-5", unit=u))
        if ut.cost is None:
            raise IllegalOrder(msg("purchase.not_for_sale", ed.cite("PU-6"), unit=u,
                                   edition=ed.rules.title))
        if n <= 0:
            raise InvalidOrder(msg("purchase.not_positive", count=n, unit=u))
    cost = purchase_cost(s, order.units, order.power)
    have = s.treasury[order.power]
    if cost > have:
        raise IllegalOrder(msg("purchase.too_dear", ed.cite("PU-2", "PU-3"), units=order.units,
                               cost=cost, power=order.power, have=have))
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



def _idle(s: GameState) -> Msg | None:
    """A bare ``end`` would pass an empty Purchase with money to spend (asks ``end confirm``)."""
    from rules import tech

    p = s.power
    if not any(s.purchase.values()):
        prices = [c for u in s.edition.units
                  if (c := tech.cost(s, p, u)) is not None and c > 0]
        money = s.treasury.get(p, 0)
        if prices and money >= min(prices):
            return msg("purchase.idle", power=p, money=money, phase=phase_name(s))
    return None


reg.phase("purchase").idle.append(_idle)


def _decide(tx: Tx, order: od.Buy | od.ClearPurchase, dice: Dice) -> None:
    decide_purchase(tx, order)


reg.order(od.Buy, phases=("purchase",))(_decide)
reg.order(od.ClearPurchase, phases=("purchase",))(_decide)


catalogue("en", "purchase", {
    "nothing": "Name what to buy, e.g. 'buy 3 infantry, 1 tank'.",
    "unknown_unit": "Unknown unit {unit!r}.",
    "no_new_complexes": "No {unit} may be bought in this game (option {rule} 'No New Complexes'): "
                        "only the complexes on the board at the start are used.",
    "not_for_sale": "{unit:capitalize} cannot be bought in {edition} ({rule}: the Mobilization "
                    "Zone chart lists what can be bought).",
    "not_positive": "Counts must be positive: {count} {unit}.",
    "too_dear": "{units:units:singular} costs {cost} IPCs; {power} has {have} ({rule}: buy only "
                "what you can afford; the treasury never goes negative).",
    "idle": "{power} has bought nothing and has {money} IPCs to spend. Buy with 'buy <units>', "
            "or 'end confirm' to end {phase} without buying.",
})
