"""What the referee answers for a player who does not (deadlines in asynchronous play).

A standing casualty order, or else the default (cheapest first, two-hit units absorb first,
transports last, the attacker keeping its last land unit — H-1..H-7) answers casualties;
submarines strike (SS-2); an attacker that must press or retreat presses (CC-6); a decision of
a mechanism's own gets the answer it registered (``rules.turn.hooks.default``). A choice that
is never owed has no default. A power absent in an optional phase (a phase handler's
``absent_ends``: Classic's weapons development, R-TEC-01) has the phase ended.

``phase_end_order`` is the referee's order that moves an absent player's phase on once no
decision is owed: the phase ends, unless Conduct Combat still has a battle open (CC-0: combat
cannot end with one), which the referee then fights a round at a time.
"""

from __future__ import annotations

from rules import combat
from rules import orders as od
from rules.decisions import Owed
from rules.engine import pending
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg


def default_orders(state: GameState) -> list[od.Order]:
    """One order per battle decision the game now waits for, as its default answer."""
    out: list[od.Order] = []
    for p in pending(state):
        if p.space is None:
            if reg.phase_handler(state.phase).absent_ends and p.power == state.power:
                out.append(od.EndPhase(power=p.power, phase=state.phase))
            continue
        answer = hooks.default_for(p.kind)
        if answer is not None:
            out.append(answer(state, p))
            continue
        b = state.battles.get(p.space)
        if b is None:
            continue
        if p.kind is Owed.CASUALTIES:
            side = combat.owed_side(b)
            if side is None:
                continue
            lost, damaged = combat.default_choice(state, b, side)
            units: dict[str, int] = {}
            for uid in (*lost, *damaged):
                u = state.units[uid]
                units[u.type] = units.get(u.type, 0) + (
                    2 if uid in lost and u.damage == 0 and uid not in damaged
                    and state.edition.units[u.type].hits > 1 else 1)
            out.append(od.Casualties(power=p.power, space=p.space, units=units))
        elif p.kind is Owed.SUBMERGE_OR_STRIKE:
            out.append(od.Strike(power=p.power, space=p.space))
        elif p.kind is Owed.PRESS_OR_RETREAT:
            out.append(od.Press(power=p.power, space=p.space))
    return out


def phase_end_order(state: GameState) -> od.Order:
    """The referee's order that moves the current phase on for an absent player."""
    if state.phase == "conduct_combat":
        fight = combat.next_battles(state)  # CC-0: amphibious assaults first
        ready = [x for x in fight if state.battles[x].blocked_by is None]  # AA-1
        if ready or fight:
            return od.Battle(power=state.power, space=(ready or fight)[0])
    return od.EndPhase(power=state.power, confirm=True, phase=state.phase)
