"""Submarines declare strike or submerge before a round (1941 SS-1..SS-3): the attacker
before its round ('submerge <space>' ahead of 'battle'), the defender when the round asks
for it (H-1: the referee's default is to strike)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from rules import events as ev
from rules import orders as od
from rules.battle import model as bm
from rules.battle.conclude import conclude
from rules.battle.forces import rules_of, side_units, sub_eligible
from rules.battle.rounds import go_on
from rules.dice import Dice
from rules.errors import IllegalOrder, NotYourTurn
from rules.messages import catalogue, msg
from rules.state import BattleState, GameState

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def awaiting_declaration(s: GameState, b: BattleState) -> bool:
    """The defender's submarines must choose strike or submerge before any die (SS-2)."""
    if not bm.declares(rules_of(s)):
        return False  # R-SUB-02/06: no declarations
    opening = not any(not x.startswith("declare:") for x in b.fired)
    return (b.step == "casualties" and opening and not b.owed
            and "declare:defender" not in b.fired and bool(sub_eligible(s, b, "defender"))
            and ("declare:attacker" in b.fired or not sub_eligible(s, b, "attacker")))


def declare_subs(tx: Tx, b: BattleState, order: od.Submerge | od.Strike, dice: Dice) -> None:
    """Submarines strike or submerge (SS-2, SS-3): the attacker before its round, the defender
    when the round asks for it."""
    s = tx.state
    if order.power == b.attacker:
        if b.step not in ("ready", "press_or_retreat"):
            raise IllegalOrder(msg("submerge.before_round", "SS-2", space=b.space))
        if isinstance(order, od.Strike):
            raise IllegalOrder(msg("submerge.attacker_strikes", "SS-2", space=b.space))
        subs = sub_eligible(s, b, "attacker")
        side: Literal["attacker", "defender"] = "attacker"
    elif order.power in b.defenders:
        if not awaiting_declaration(s, b):
            raise IllegalOrder(msg("submerge.not_owed", "SS-1, SS-2", space=b.space))
        subs = sub_eligible(s, b, "defender")
        side = "defender"
    else:
        raise NotYourTurn(msg("submerge.no_part", power=order.power, space=b.space))
    if not subs:
        raise IllegalOrder(msg("submerge.cancelled", "SS-1, UD-3", side=side, space=b.space))
    if isinstance(order, od.Submerge):
        n = len(subs) if order.count is None else order.count
        if n < 1 or n > len(subs):
            raise IllegalOrder(msg("submerge.count", may=len(subs), side=side, space=b.space,
                                   count=n))
        own = sorted(subs, key=lambda u: (u.owner != order.power, u.id))
        down = own[:n]
    else:
        down = []
    up = [u for u in subs if u not in down]
    tx.emit(ev.SubmarinesDeclared(space=b.space, side=side, by=order.power,
                                  strike=tuple(u.id for u in up) if side == "defender" else (),
                                  submerge=tuple(u.id for u in down)))
    if side == "defender":
        go_on(tx, b.space, dice)
    elif not side_units(tx.state, tx.state.battles[b.space], "attacker"):
        conclude(tx, tx.state.battles[b.space], "defender")  # every attacker submerged


catalogue("en", "submerge", {
    "before_round": "The attacker declares its submarines before the round, with 'submerge "
                    "{space}' ahead of 'battle {space}' or 'press {space}' ({rule}).",
    "attacker_strikes": "Attacking submarines strike when the round is fought: use "
                        "'battle {space}' ({rule}).",
    "not_owed": "No submarine decision is owed in {space} now: the defender declares when a "
                "round begins and its submarines may strike or submerge ({rule}).",
    "no_part": "{power} has no submarines in the battle in {space}.",
    "cancelled": "No submarines of the {side} in {space} may strike or submerge: an enemy "
                 "destroyer in the battle cancels both ({rule}).",
    "count": "{may:counted:submarine} of the {side} may submerge in {space}, not {count}.",
})
