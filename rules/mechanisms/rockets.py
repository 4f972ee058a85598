"""Rockets (Classic development table "Rockets", A-10): once a turn, during Conduct Combat, an
antiaircraft gun of a power with Rockets fires one die of damage at an enemy industrial complex
within range.
"""

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

from rules.mechanisms.territory import charge_damage


def rocket_targets(s: GameState, power: str, frm: str) -> list[str]:
    """Enemy-owned industrial complexes within rocket range of ``frm`` (A-10)."""
    from rules import movement, tech

    ed = s.edition
    reach = tech.rocket_range(s, power)
    out = []
    for u in s.units.values():
        if not ed.units[u.type].abilities.factory or not s.enemy(u.owner, power):
            continue
        if movement.air_distance(ed, frm, u.space) <= reach:
            out.append(u.space)
    return sorted(set(out))


def rocket_sites(s: GameState, power: str) -> list[str]:
    """Territories holding an AA gun of ``power`` (where a rocket can be fired from)."""
    ed = s.edition
    return sorted({u.space for u in s.units.values()
                   if u.owner == power and ed.units[u.type].abilities.anti_air
                   and not ed.is_sea(u.space)})


def rocket_possible(s: GameState, power: str) -> bool:
    """The power may still fire this turn's rocket at something."""
    from rules import tech

    if not tech.has_rockets(s, power) or s.marks.rocket_fired:
        return False
    return any(rocket_targets(s, power, f) for f in rocket_sites(s, power))



@reg.order(od.Rocket)
def decide_rocket(tx: Tx, order: od.Rocket, dice: Dice) -> None:
    """Fire the turn's rocket: one die of damage to an enemy complex within range (A-10)."""
    from rules import tech

    s = tx.state
    ed = s.edition
    p = order.power
    for name in (order.frm, order.target):
        if name not in ed.spaces:
            raise InvalidOrder(f"Unknown space {name!r}.")
    if not tech.has_rockets(s, p):
        raise IllegalOrder(
            f"{p} has not developed Rockets: only a power with that weapons development may fire "
            "rockets (R-TEC-05, development table)."
        )
    if s.phase != "conduct_combat":
        phase = ed.phase_info["conduct_combat"].name
        raise IllegalOrder(
            f"Rockets are fired during {phase}, alongside bombing raids (A-10); it is "
            f"{phase_name(s)} now."
        )
    if s.marks.rocket_fired:
        raise IllegalOrder(
            f"{p} has already fired its rocket this turn: one rocket attack per turn in all, "
            "whatever the number of AA guns (A-10)."
        )
    sites = rocket_sites(s, p)
    if order.frm not in sites:
        raise IllegalOrder(
            f"{p} has no antiaircraft gun in {order.frm} to fire a rocket from (A-10). "
            f"Its AA guns: {', '.join(sites) or 'none'}."
        )
    victim = next((u.owner for u in s.units_in(order.target)
                   if ed.units[u.type].abilities.factory), None)
    if ed.is_sea(order.target) or victim is None or not s.enemy(victim, p):
        raise IllegalOrder(
            f"{order.target} holds no enemy industrial complex: a rocket's target is an enemy "
            "industrial complex (R-TEC table, R-IC-04)."
        )
    targets = rocket_targets(s, p, order.frm)
    if order.target not in targets:
        from rules import movement

        d = movement.air_distance(ed, order.frm, order.target)
        far = f"{d} spaces" if d < 10**6 else "out of reach"
        raise IllegalOrder(
            f"{order.target} is {far} from {order.frm}; a rocket reaches "
            f"{tech.rocket_range(s, p)} spaces, counted as for aircraft (A-10). In range of "
            f"{order.frm}: {', '.join(targets) or 'no enemy complex'}."
        )
    purpose = f"rocket|{order.frm}|{order.target}|round {s.round}"
    faces = tuple(dice.roll(1, purpose))
    tx.emit(ev.RocketFired(power=p, frm=order.frm, target=order.target, victim=victim,
                           rolls=((purpose, faces),)))
    charge_damage(tx, victim, sum(faces), f"a rocket from {order.frm} at {order.target}", "A-10")



@reg.evolver(ev.RocketFired)
def _ev_rocket(s: GameState, e: ev.RocketFired) -> GameState:
    return replace(s, marks=replace(s.marks, rocket_fired=True))



# Conduct Combat is not passed while a rocket can still be fired.
reg.phase("conduct_combat").busy.append(lambda s: rocket_possible(s, s.power))
