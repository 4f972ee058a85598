"""A verb described in a module of its own, as a mechanism module describes its orders: importing
it registers ``charge <space>`` (a battle fought to the end) in the rules' grammar. Used by
tests/service/test_language.py, which takes it out again."""

from __future__ import annotations

from rules.language import ORDERS, Arg, Hint, Names, OrderSyntax
from rules.orders import Battle, Order


def _charge(rest: str, names: Names, verb: str) -> Battle:
    if not rest:
        raise CHARGE.expected("charge Ukraine")
    return Battle(space=names.space(rest), all=True)


CHARGE = ORDERS.register(OrderSyntax[Order](
    verb="charge",
    usage="charge <space>  (a battle fought to the end)",
    read=_charge,
    words=("charge", "charges"),
    rank=55,
    makes=(Battle,),
    needs=lambda r: r.strategic_bombing,  # Classic only, as a mechanism's order would be
    example=lambda b: (f"charge {b.near}", f"/battle space:{b.near} all:true"),
    explain="By the attacker: the battle in that space is fought to the end ('{battle_all}').",
    args=(Arg("space", "battle"),),
    hints=(Hint("charge", "/battle", (r"(?P<space>.+)",)),),
))
