"""Submarines withdraw between rounds (Classic R-SUB-05, R-NC-07).

Asynchronous reading: between rounds (step ``press_or_retreat``) the attacker may withdraw its
submarines before it presses or retreats, and the defender may withdraw its own until the
attacker presses. Nobody waits for the defender's withdrawal: it is never owed, and the
referee's default is to stay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules import events as ev
from rules import orders as od
from rules.battle.conclude import conclude
from rules.battle.forces import alive, rules_of, side_units
from rules.board import canal_open, enemy_units
from rules.errors import IllegalOrder, InvalidOrder, NotYourTurn
from rules.state import BattleState, GameState, Unit
from rules.words import counted, possessive

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def submarines(s: GameState, b: BattleState, power: str) -> list[Unit]:
    """``power``'s submarines still fighting in a sea battle."""
    side = "attacker" if power == b.attacker else "defender"
    if not b.sea:
        return []
    return [u for u in side_units(s, b, side) if u.owner == power
            and s.edition.units[u.type].abilities.surprise_strike]


def withdraw_zones(s: GameState, b: BattleState, u: Unit) -> list[str]:
    """Where one submarine may withdraw to (R-SUB-05).

    An attacking submarine goes back to the adjacent zone it came from, or, if it came from
    none (it started there), to where the ships with it came from. A defending one goes to any
    adjacent sea zone holding no enemy unit; none such, it cannot withdraw.
    """
    ed = s.edition

    def near(z: str | None) -> bool:
        return (z is not None and z != b.space and z in ed.neighbours[b.space] and ed.is_sea(z)
                and canal_open(s, b.space, z, u.owner))

    if u.owner == b.attacker:
        if near(u.came_from):
            return [u.came_from or ""]
        ships = [x.came_from for x in alive(s, b.attacking)
                 if ed.units[x.type].domain == "sea" and near(x.came_from)]
        return sorted({z for z in ships if z})
    return sorted(z for z in ed.neighbours[b.space]
                  if near(z) and not enemy_units(s, z, u.owner))


def withdraw(tx: Tx, b: BattleState, order: od.Withdraw) -> None:
    s = tx.state
    ed = s.edition
    if rules_of(s).sub_retreat != "withdraw":
        raise IllegalOrder(
            f"Submarines do not withdraw in this game; they submerge with 'submerge {b.space}' "
            "(SS-3)."
        )
    if order.power != b.attacker and order.power not in b.defenders:
        raise NotYourTurn(f"{order.power} takes no part in the battle in {b.space}.")
    side: Literal["attacker", "defender"] = "attacker" if order.power == b.attacker \
        else "defender"
    if order.to is not None and order.to not in ed.spaces:
        raise InvalidOrder(f"Unknown space {order.to!r}.")
    subs = submarines(s, b, order.power)
    if not subs:
        raise IllegalOrder(f"{order.power} has no submarines in a sea battle in {b.space}.")
    if b.step != "press_or_retreat":
        when = "waiting for casualties" if b.step == "casualties" else "not yet fought"
        raise IllegalOrder(
            f"Submarines withdraw after a round, once its casualties are removed (R-SUB-05, "
            f"R-NC-07); the battle in {b.space} is {when}."
        )
    options = sorted({z for u in subs for z in withdraw_zones(s, b, u)})
    if not options:
        why = ("came from no adjacent sea zone" if side == "attacker"
               else "have no adjacent sea zone free of enemy units")
        raise IllegalOrder(f"{possessive(order.power)} submarines in {b.space} {why}, so "
                           f"they cannot "
                           "withdraw (R-SUB-05).")
    to = order.to
    if to is None:
        if len(options) > 1:
            raise IllegalOrder(
                f"Say where the submarines withdraw to: 'withdraw {b.space} to <zone>' "
                f"({', '.join(options)}) (R-SUB-05)."
            )
        to = options[0]
    going = [u for u in subs if to in withdraw_zones(s, b, u)]
    if not going:
        rule = ("back to the zone they came from" if side == "attacker"
                else "to an adjacent sea zone free of enemy units")
        raise IllegalOrder(f"Submarines withdraw {rule} (R-SUB-05): {', '.join(options)}, not "
                           f"{to}.")
    n = len(going) if order.count is None else order.count
    if n < 1 or n > len(going):
        raise IllegalOrder(f"{counted(len(going), 'submarine')} of {order.power} in {b.space} may "
                           f"withdraw to {to}, not {n}.")
    tx.emit(ev.SubmarinesWithdrew(space=b.space, side=side, by=order.power,
                                  units=tuple(u.id for u in going[:n]), to=to))
    b = tx.state.battles[b.space]
    if not side_units(tx.state, b, "attacker"):
        conclude(tx, b, "retreat")
    elif not side_units(tx.state, b, "defender"):
        conclude(tx, b, "attacker")
