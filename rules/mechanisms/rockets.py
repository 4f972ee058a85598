"""Rockets (Classic development table "Rockets", A-10): once a turn, during Conduct Combat, an
antiaircraft gun of a power with Rockets fires one die of damage at an enemy industrial complex
within range. Whether this turn's rocket was fired is the mechanism's own part of the state
(``RocketMarks``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rules import board, tech
from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import split_all, try_splits
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.messages import Msg, catalogue, msg
from rules.position import within_turn
from rules.state import GameState
from rules.turn import registry as reg
from rules.turn.phases import phase_name
from rules.words import possessive, rule_suffix

if TYPE_CHECKING:
    from rules.turn.tx import Tx

from rules.territory import charge_damage

# --------------------------------------------------------------------------------------------
# The order and the event


class Rocket(od.Order):
    """Rockets development: an AA gun in ``frm`` fires at an enemy industrial complex in
    ``target`` within 3 spaces, once per turn, in Conduct Combat (Classic R-TEC table, A-10)."""

    kind: Literal["rocket"] = "rocket"
    frm: str
    target: str



class RocketFired(ev.Event):
    """An AA gun in ``frm`` fired a rocket at the industrial complex in ``target`` (Rockets,
    Classic R-TEC table, A-10); the damage follows as ``DamagePaid`` by the complex's owner."""

    type: Literal["RocketFired"] = "RocketFired"
    power: str
    frm: str
    target: str
    victim: str  # the complex's owner
    rolls: ev.Rolls
    rule: str = "R-TEC-05"

    @property
    def damage(self) -> int:
        return sum(f for _, fs in self.rolls for f in fs)



@dataclass(frozen=True, slots=True)
class RocketMarks:
    """The rockets' part of the state, reset each turn."""

    fired: bool = False  # this turn's rocket is fired (A-10: one per turn, whatever the guns)


reg.part(RocketMarks, key="rockets", per_turn=True,
         position={"fired": within_turn("rockets fired this turn")},
         formerly={"fired": "marks.rocket_fired"})


# --------------------------------------------------------------------------------------------
# The order as players write it (rules.language: parsing, usage, help, autocomplete)

_AT = re.compile(r"\bat\b|\bagainst\b|\bon\b|->|→", re.I)


def _rocket(rest: str, names: Names, verb: str) -> Rocket:
    text = re.sub(r"^from\s+", "", rest, flags=re.I)
    ends = try_splits(split_all(text, _AT), names.space, names.space)
    if ends is None:
        raise ROCKET.expected("rocket Western Europe at United Kingdom")
    return Rocket(frm=ends[0], target=ends[1])


def _rocket_from(o: Any, c: Chosen) -> str | None:
    return o.frm if isinstance(o, Rocket) else None


def _rocket_target(o: Any, c: Chosen) -> str | None:
    return o.target if isinstance(o, Rocket) and c.fits("from", o.frm) else None


ROCKET = ORDERS.register(OrderSyntax[od.Order](
    verb="rocket",
    usage="rocket <space with your AA gun> at <space with an enemy complex>",
    read=_rocket,
    words=("rocket", "rockets"),
    rank=150,
    makes=(Rocket,),
    needs=lambda r: any(t.rockets for t in r.technologies),
    example=lambda b: (f"rocket {b.home} at {b.near}", f"/rocket from:{b.home} at:{b.near}"),
    explain="""\
By a power with the Rockets development, in its Combat phase: an antiaircraft gun in a
territory of yours fires at an enemy industrial complex within reach; the die is the damage,
paid by its owner to the bank.""",
    args=(Arg("from", "space", offer=_rocket_from), Arg("at", "space", offer=_rocket_target)),
    hints=(Hint("rocket", "/rocket", (r"(?P<from>.+?) at (?P<at>.+)",)),),
))


# --------------------------------------------------------------------------------------------
# Who may fire, from where, at what


def has_rockets(s: GameState, power: str) -> bool:
    return any(t.rockets for t in tech.owned(s, power))


def rocket_range(s: GameState, power: str) -> int:
    """Spaces a rocket reaches from its AA gun (0: the power has no Rockets)."""
    return max((t.rocket_range for t in tech.owned(s, power) if t.rockets), default=0)


def rocket_targets(s: GameState, power: str, frm: str) -> list[str]:
    """Enemy-owned industrial complexes within rocket range of ``frm`` (A-10)."""

    ed = s.edition
    reach = rocket_range(s, power)
    out = []
    for u in s.units.values():
        if not ed.units[u.type].abilities.factory or not s.enemy(u.owner, power):
            continue
        if board.air_distance(ed, frm, u.space) <= reach:
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
    if not has_rockets(s, power) or s.part(RocketMarks).fired:
        return False
    return any(rocket_targets(s, power, f) for f in rocket_sites(s, power))



@reg.order(Rocket)
def decide_rocket(tx: Tx, order: Rocket, dice: Dice) -> None:
    """Fire the turn's rocket: one die of damage to an enemy complex within range (A-10)."""
    s = tx.state
    ed = s.edition
    p = order.power
    for name in (order.frm, order.target):
        if name not in ed.spaces:
            raise InvalidOrder(msg("rockets.unknown_space", space=name))
    if not has_rockets(s, p):
        raise IllegalOrder(msg("rockets.not_developed", "R-TEC-05", power=p))
    if s.phase != "conduct_combat":
        raise IllegalOrder(msg("rockets.wrong_phase", "A-10",
                               phase=ed.phase_info["conduct_combat"].name, now=phase_name(s)))
    if s.part(RocketMarks).fired:
        raise IllegalOrder(msg("rockets.already_fired", "A-10", power=p))
    sites = rocket_sites(s, p)
    if order.frm not in sites:
        raise IllegalOrder(msg("rockets.no_gun", "A-10", power=p, space=order.frm, sites=sites))
    victim = next((u.owner for u in s.units_in(order.target)
                   if ed.units[u.type].abilities.factory), None)
    if ed.is_sea(order.target) or victim is None or not s.enemy(victim, p):
        raise IllegalOrder(msg("rockets.no_target", "R-IC-04", space=order.target))
    targets = rocket_targets(s, p, order.frm)
    if order.target not in targets:
        d = board.air_distance(ed, order.frm, order.target)
        raise IllegalOrder(msg("rockets.out_of_range", "A-10", target=order.target,
                               frm=order.frm, distance=d if d < 10**6 else None,
                               reach=rocket_range(s, p), targets=targets))
    purpose = f"rocket|{order.frm}|{order.target}|round {s.round}"
    faces = tuple(dice.roll(1, purpose))
    tx.emit(RocketFired(power=p, frm=order.frm, target=order.target, victim=victim,
                           rolls=((purpose, faces),)))
    charge_damage(tx, victim, sum(faces), f"a rocket from {order.frm} at {order.target}", "A-10")



@reg.evolver(RocketFired)
def _ev_rocket(s: GameState, e: RocketFired) -> GameState:
    return s.with_part(RocketMarks(fired=True))



# Conduct Combat is not passed while a rocket can still be fired.
reg.phase("conduct_combat").busy.append(lambda s: rocket_possible(s, s.power))


@reg.candidates("conduct_combat")
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Each AA gun at each enemy complex in range, while the turn's rocket is unfired."""
    if not rocket_possible(s, power):
        return
    for frm in rocket_sites(s, power):
        for target in rocket_targets(s, power, frm):
            yield Rocket(power=power, frm=frm, target=target)


@reg.words(RocketFired)
def _fired(s: GameState, e: RocketFired) -> Msg:
    return msg("rockets.fired", e.rule or None, power=e.power, frm=e.frm, victim=e.victim,
               target=e.target, damage=e.damage)


# --------------------------------------------------------------------------------------------
# The English of its words and refusals


def _out_of_range(p: Mapping[str, Any]) -> str:
    d = p["distance"]
    far = f"{d} spaces" if d is not None else "out of reach"
    return (f"{p['target']} is {far} from {p['frm']}; a rocket reaches {p['reach']} spaces, "
            f"counted as for aircraft ({p['rule']}). In range of {p['frm']}: "
            f"{', '.join(p['targets']) or 'no enemy complex'}.")


catalogue("en", "rockets", {
    "unknown_space": "Unknown space {space!r}.",
    "not_developed": "{power} has not developed Rockets: only a power with that weapons "
                     "development may fire rockets ({rule}, development table).",
    "wrong_phase": "Rockets are fired during {phase}, alongside bombing raids ({rule}); it is "
                   "{now} now.",
    "already_fired": "{power} has already fired its rocket this turn: one rocket attack per turn "
                     "in all, whatever the number of AA guns ({rule}).",
    "no_gun": "{power} has no antiaircraft gun in {space} to fire a rocket from ({rule}). "
              "Its AA guns: {sites:join|none}.",
    "no_target": "{space} holds no enemy industrial complex: a rocket's target is an enemy "
                 "industrial complex (R-TEC table, {rule}).",
    "out_of_range": _out_of_range,
    "fired": lambda p: (f"{p['power']} fired a rocket from {p['frm']} at "
                        f"{possessive(p['victim'])} industrial complex in {p['target']}: rolled "
                        f"{p['damage']}{rule_suffix(p['rule'])}."),
})
