"""Submarines withdraw between rounds (Classic R-SUB-05, R-NC-07): where an edition's
``sub_retreat`` is ``"withdraw"``, submarines leave a sea battle between rounds for an adjacent
sea zone.

Asynchronous reading: between rounds (step ``press_or_retreat``) the attacker may withdraw its
submarines before it presses or retreats, and the defender may withdraw its own until the
attacker presses. Nobody waits for the defender's withdrawal: it is never owed, and the
referee's default is to stay (R-SUB-05 is a choice: no absent-player default answers it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import orders as od
from rules.battle.conclude import conclude
from rules.battle.forces import alive, decision_battle, rules_of, side_units
from rules.board import canal_open, enemy_units
from rules.decisions import Owed
from rules.errors import IllegalOrder, InvalidOrder, NotYourTurn
from rules.language.battles import space_count
from rules.language.names import Names
from rules.language.reading import TO, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.messages import Msg, catalogue, msg
from rules.state import BattleState, GameState, Unit
from rules.turn import registry as reg
from rules.words import possessive, unit_list

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.turn.tx import Tx

# --------------------------------------------------------------------------------------------
# The order and the event


class Withdraw(od.Order):
    """Submarines of this power leave a sea battle between rounds (Classic R-SUB-05).

    ``count`` None means all of them; ``to`` names the zone (the attacker's is implied: where
    they came from; the defender's may be any adjacent zone without enemy units).
    """

    kind: Literal["withdraw"] = "withdraw"
    space: str
    count: int | None = None
    to: str | None = None


class SubmarinesWithdrew(ev.Event):
    """Submarines leave a sea battle between rounds for an adjacent zone (Classic R-SUB-05)."""

    type: Literal["SubmarinesWithdrew"] = "SubmarinesWithdrew"
    space: str
    side: Literal["attacker", "defender"]
    by: str
    units: tuple[int, ...]
    to: str


# --------------------------------------------------------------------------------------------
# The order as players write it (rules.language: parsing, usage, help, autocomplete)


def _withdraw(rest: str, names: Names, verb: str) -> Withdraw:
    if not rest:
        raise WITHDRAW.expected("withdraw North Sea Zone 2 to Baltic Sea Zone")
    got = try_splits(split_all(rest, TO), lambda x: space_count(x, names, "withdraw"),
                     names.space)
    if got is not None:
        (space, count), to = got
        return Withdraw(space=space, count=count, to=to)
    space, count = space_count(rest, names, "withdraw")
    return Withdraw(space=space, count=count)


def _withdraw_to(o: Any, c: Chosen) -> str | None:
    return o.to if isinstance(o, Withdraw) else None


WITHDRAW = ORDERS.register(OrderSyntax[od.Order](
    verb="withdraw",
    usage="withdraw <space> [n] [to <sea zone>]  (submarines leave a sea battle between "
          "rounds, where the edition has it)",
    read=_withdraw,
    rank=110,
    topic="battles",
    makes=(Withdraw,),
    needs=lambda r: r.sub_retreat == "withdraw",  # Classic R-SUB-05
    example=lambda b: (f"withdraw {b.sea}", f"/withdraw space:{b.sea}"),
    explain="""\
By the owner of submarines in a sea battle, where the edition has it: between rounds, once the
round's casualties are removed, they leave for an adjacent sea zone ('to' chooses it when there
are several).""",
    args=(Arg("space", "battle"), Arg("to", "space", offer=_withdraw_to)),
    hints=(Hint("withdraw", "/withdraw", (r"(?P<space>.+?)(?: (?P<n>\d+))?(?: to (?P<to>.+))?",)),),
))


# --------------------------------------------------------------------------------------------
# Which submarines may go, and where


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
                and canal_open(s, b.space, z, u.owner, u.type))

    if u.owner == b.attacker:
        if near(u.came_from):
            return [u.came_from or ""]
        ships = [x.came_from for x in alive(s, b.attacking)
                 if ed.units[x.type].domain == "sea" and near(x.came_from)]
        return sorted({z for z in ships if z})
    return sorted(z for z in ed.neighbours[b.space]
                  if near(z) and not enemy_units(s, z, u.owner))


# --------------------------------------------------------------------------------------------
# Deciding it: a decision of a party to the battle, in or out of its turn


@reg.order(Withdraw, in_turn=False, answers=Owed.SUBMERGE_OR_STRIKE)
def decide_withdraw(tx: Tx, order: Withdraw, dice: Dice) -> None:
    """Submarines leave the battle in ``order.space`` between rounds (R-SUB-05, R-NC-07); a side
    left with no units ends it."""
    s = tx.state
    b = decision_battle(s, order.space)
    ed = s.edition
    if rules_of(s).sub_retreat != "withdraw":
        raise IllegalOrder(msg("withdrawal.not_here", "SS-3", space=b.space))
    if order.power != b.attacker and order.power not in b.defenders:
        raise NotYourTurn(msg("withdrawal.no_part", power=order.power, space=b.space))
    side: Literal["attacker", "defender"] = "attacker" if order.power == b.attacker \
        else "defender"
    if order.to is not None and order.to not in ed.spaces:
        raise InvalidOrder(msg("battle.unknown_space", space=order.to))
    subs = submarines(s, b, order.power)
    if not subs:
        raise IllegalOrder(msg("withdrawal.no_submarines", power=order.power, space=b.space))
    if b.step != "press_or_retreat":
        raise IllegalOrder(msg("withdrawal.too_soon", "R-SUB-05, R-NC-07", space=b.space,
                               casualties=b.step == "casualties"))
    options = sorted({z for u in subs for z in withdraw_zones(s, b, u)})
    if not options:
        raise IllegalOrder(msg("withdrawal.nowhere", "R-SUB-05", power=order.power,
                               space=b.space, side=side))
    to = order.to
    if to is None:
        if len(options) > 1:
            raise IllegalOrder(msg("withdrawal.say_where", "R-SUB-05", space=b.space,
                                   options=options))
        to = options[0]
    going = [u for u in subs if to in withdraw_zones(s, b, u)]
    if not going:
        raise IllegalOrder(msg("withdrawal.not_there", "R-SUB-05", side=side, options=options,
                               to=to))
    n = len(going) if order.count is None else order.count
    if n < 1 or n > len(going):
        raise IllegalOrder(msg("withdrawal.count", may=len(going), power=order.power,
                               space=b.space, to=to, count=n))
    tx.emit(SubmarinesWithdrew(space=b.space, side=side, by=order.power,
                               units=tuple(u.id for u in going[:n]), to=to))
    b = tx.state.battles[b.space]
    if not side_units(tx.state, b, "attacker"):
        conclude(tx, b, "retreat")
    elif not side_units(tx.state, b, "defender"):
        conclude(tx, b, "attacker")


@reg.evolver(SubmarinesWithdrew)
def _ev_withdrew(s: GameState, e: SubmarinesWithdrew) -> GameState:
    units = dict(s.units)
    for uid in e.units:
        units[uid] = replace(units[uid], space=e.to, came_from=e.space, stopped=True)
    gone = set(e.units)
    b = s.battles[e.space]
    b = replace(b, attacking=tuple(i for i in b.attacking if i not in gone),
                defending=tuple(i for i in b.defending if i not in gone))
    return replace(s, units=units, battles={**s.battles, e.space: b})


# --------------------------------------------------------------------------------------------
# Legal candidates, the line that tells the event, the battle board's note


@reg.candidates("conduct_combat", anyone=True)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Submarines leaving a sea battle between rounds (R-SUB-05): all, or one, to each zone."""
    for b in s.battles.values():
        if b.step != "press_or_retreat" or (power != b.attacker and power not in b.defenders):
            continue
        subs = submarines(s, b, power)
        zones = sorted({z for u in subs for z in withdraw_zones(s, b, u)})
        for z in zones:
            yield Withdraw(power=power, space=b.space, to=z)
            if len(subs) > 1:
                yield Withdraw(power=power, space=b.space, count=1, to=z)


def _count_ids(s: GameState, ids: Iterable[int]) -> dict[str, int]:
    return dict(Counter(s.units[i].type if i in s.units else "unit" for i in ids))


@reg.words(SubmarinesWithdrew)
def _withdrew(s: GameState, e: SubmarinesWithdrew) -> Msg:
    return msg("withdrawal.withdrew", "R-SUB-05", space=e.space, by=e.by, side=e.side,
               units=_count_ids(s, e.units), to=e.to)


@reg.battle_note(SubmarinesWithdrew)
def _note(e: SubmarinesWithdrew) -> Msg:
    return msg("withdrawal.note", count=len(e.units), side=e.side, to=e.to)


# --------------------------------------------------------------------------------------------
# Its words and refusals in English (rules.messages)


def _withdrew_text(p: Mapping[str, Any]) -> str:
    who = "attacking" if p["side"] == "attacker" else "defending"
    return (f"In {p['space']} {possessive(p['by'])} {who} {unit_list(p['units'])} withdrew to "
            f"{p['to']} ({p['rule']}).")


def _too_soon(p: Mapping[str, Any]) -> str:
    when = "waiting for casualties" if p["casualties"] else "not yet fought"
    return (f"Submarines withdraw after a round, once its casualties are removed ({p['rule']}); "
            f"the battle in {p['space']} is {when}.")


def _nowhere(p: Mapping[str, Any]) -> str:
    why = ("came from no adjacent sea zone" if p["side"] == "attacker"
           else "have no adjacent sea zone free of enemy units")
    return (f"{possessive(p['power'])} submarines in {p['space']} {why}, so they cannot "
            f"withdraw ({p['rule']}).")


def _not_there(p: Mapping[str, Any]) -> str:
    rule = ("back to the zone they came from" if p["side"] == "attacker"
            else "to an adjacent sea zone free of enemy units")
    return (f"Submarines withdraw {rule} ({p['rule']}): {', '.join(p['options'])}, not "
            f"{p['to']}.")


catalogue("en", "withdrawal", {
    "withdrew": _withdrew_text,
    "note": "{count} {side} submarine(s) withdrew to {to}",
    "not_here": "Submarines do not withdraw in this game; they submerge with 'submerge {space}' "
                "({rule}).",
    "no_part": "{power} takes no part in the battle in {space}.",
    "no_submarines": "{power} has no submarines in a sea battle in {space}.",
    "too_soon": _too_soon,
    "nowhere": _nowhere,
    "say_where": "Say where the submarines withdraw to: 'withdraw {space} to <zone>' "
                 "({options:join}) ({rule}).",
    "not_there": _not_there,
    "count": "{may:counted:submarine} of {power} in {space} may withdraw to {to}, not {count}.",
})
