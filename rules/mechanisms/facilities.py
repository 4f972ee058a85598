"""Facilities (Europe 1940 §8, §15): repairing damaged facilities in Purchase & Repair
('repair 3 major ic in Germany', PU-3, PU-5), the free repair of capital ships next to a naval
base (PU-4, §15.4) and the complex upgrade ('place 1 ic upgrade in Southern Italy', §15.2).

Damage itself, what a complex produces, the bases' movement bonuses, where a facility may be
placed and the downgrade of a captured major complex are shared rules (``rules.facilities``):
mobilization, movement, capture and the raids read them there.

Free ship repair (PU-4) happens when Purchase & Repair begins and again after each repair of a
naval base in that phase: "a naval base repaired earlier in this same phase counts", and a ship
is repaired the moment a base serves it, so the order of repairs never matters and the player
sees the ships repaired at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.facilities import (
    base_serves,
    damage_cap,
    damage_table,
    facility_damage,
    operational,
    piece,
    takes_damage,
    with_damage,
)
from rules.language.names import Names
from rules.language.reading import IN, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.language.units import count_of, is_count
from rules.mechanisms import combat
from rules.messages import Msg, catalogue, msg, own_rule
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx

PURCHASE = "purchase"
REPAIR_COST = 1  # IPCs per damage marker removed (PU-3, FA-5)

# --------------------------------------------------------------------------------------------
# The order and the events


class Repair(od.Order):
    """Purchase & Repair: remove ``markers`` damage markers (None: all of them) from the
    power's own ``facility`` in ``space``, 1 IPC each (PU-3)."""

    kind: Literal["repair"] = "repair"
    facility: str
    space: str
    markers: int | None = None


class FacilityRepaired(ev.Event):
    """Damage markers removed from a facility and paid for (PU-3); ``left`` remain."""

    type: Literal["FacilityRepaired"] = "FacilityRepaired"
    power: str
    space: str
    facility: str
    markers: int
    cost: int
    left: int
    rule: str = own_rule("PU-3")


class ComplexUpgraded(ev.Event):
    """A minor complex becomes a major one (§15.2): the ``upgrade`` bought this turn is used,
    and the complex places the major's production this turn already (MO-2)."""

    type: Literal["ComplexUpgraded"] = "ComplexUpgraded"
    power: str
    space: str
    unit: int
    upgrade: str  # the unit type bought ('industrial complex upgrade')
    frm: str
    to: str
    production: int  # what the major places a turn (MO-2)
    rule: str = "§15.2"


# --------------------------------------------------------------------------------------------
# How players write it: 'repair [n] <facility> in <territory>'


def _repair(rest: str, names: Names, verb: str) -> Repair:
    def what(text: str) -> tuple[int | None, str]:
        words = text.split()
        if len(words) > 1 and is_count(words[0]):
            return count_of(words[0], text), names.unit(" ".join(words[1:]))
        return None, names.unit(text)

    got = try_splits(split_all(rest, IN), what, names.space)
    if got is None:
        raise REPAIR.expected("repair 3 major ic in Germany")
    (n, facility), space = got
    return Repair(facility=facility, space=space, markers=n)


def _repair_facility(o: Any, c: Chosen) -> str | None:
    return o.facility if isinstance(o, Repair) and c.fits("in", o.space) else None


def _repair_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, Repair) else None


REPAIR = ORDERS.register(OrderSyntax[od.Order](
    verb="repair",
    usage="repair [n] <facility> in <territory>  (Purchase & Repair: remove damage markers from "
          "your facility, 1 IPC each; without n, all of them)",
    read=_repair,
    rank=135,
    makes=(Repair,),
    needs=takes_damage,  # Europe 1940 PU-3
    example=lambda b: (f"repair 3 major ic in {b.home}",
                       f"/repair facility:major ic in:{b.home} markers:3"),
    explain="""\
Purchase & Repair, by the power whose turn it is: removes damage markers from one of your own
industrial complexes, air bases or naval bases, 1 IPC each, at once: the facility works again
for the rest of the turn. Capital ships next to an operational friendly naval base are repaired
free when the phase begins, and at once when a naval base next to them is repaired.""",
    args=(Arg("facility", "units", offer=_repair_facility),
          Arg("in", "space", offer=_repair_space)),
    hints=(Hint("repair", "/repair", (r"(?P<markers>[0-9]+) (?P<facility>.+?) in (?P<in>.+)",
                                      r"(?P<facility>.+?) in (?P<in>.+)")),),
))


# --------------------------------------------------------------------------------------------
# Repairing facilities (PU-3, PU-5)


@reg.order(Repair, phases=(PURCHASE,))
def decide_repair(tx: Tx, order: Repair, dice: Dice) -> None:
    """Remove damage markers from the power's own facility, 1 IPC each, with immediate effect
    (PU-3); not from a facility captured this turn (PU-5, CO-4)."""
    s = tx.state
    ed = s.edition
    p = order.power
    if not takes_damage(s.ruleset()):
        raise IllegalOrder(msg("facilities.no_repairs", edition=ed.rules.title))
    if order.space not in ed.spaces:
        raise InvalidOrder(msg("facilities.unknown_space", space=order.space))
    if order.facility not in ed.units:
        raise InvalidOrder(msg("facilities.unknown_unit", unit=order.facility))
    if not damage_cap(ed, order.facility):
        raise IllegalOrder(msg("facilities.not_a_facility", own_rule("PU-3"), unit=order.facility))
    here = piece(s, order.space, order.facility)
    if here is None:
        raise IllegalOrder(msg("facilities.none_there", space=order.space,
                               facility=order.facility, damaged=_own_damaged(s, p)))
    if here.owner != p:
        raise IllegalOrder(msg("facilities.not_yours", own_rule("PU-3"), space=order.space,
                               facility=order.facility, owner=here.owner, power=p))
    if order.space in s.captured_this_turn:
        raise IllegalOrder(msg("facilities.captured", own_rule("PU-5"), space=order.space,
                               facility=order.facility))
    have = facility_damage(s, order.space, order.facility)
    if not have:
        raise IllegalOrder(msg("facilities.undamaged", space=order.space,
                               facility=order.facility, damaged=_own_damaged(s, p)))
    n = have if order.markers is None else order.markers
    if n <= 0:
        raise InvalidOrder(msg("facilities.not_positive", count=n))
    if n > have:
        raise IllegalOrder(msg("facilities.too_many", space=order.space,
                               facility=order.facility, have=have, count=n))
    cost = n * REPAIR_COST
    money = s.treasury.get(p, 0)
    if cost > money:
        raise IllegalOrder(msg("facilities.too_dear", own_rule("PU-3"), count=n, cost=cost, power=p,
                               have=money))
    tx.emit(FacilityRepaired(power=p, space=order.space, facility=order.facility, markers=n,
                             cost=cost, left=have - n))
    if ed.units[order.facility].abilities.naval_base:
        repair_ships(tx)  # PU-4: a naval base repaired earlier in the phase counts


def _own_damaged(s: GameState, power: str) -> list[str]:
    """The power's damaged facilities, as 'major industrial complex in Germany (3)'."""
    out = []
    for t, by in damage_table(s).items():
        for f, n in by.items():
            here = piece(s, t, f)
            if here is not None and here.owner == power:
                out.append(f"{f} in {t} ({n})")
    return out


@reg.evolver(FacilityRepaired)
def _ev_repaired(s: GameState, e: FacilityRepaired) -> GameState:
    from dataclasses import replace

    treasury = dict(s.treasury)
    treasury[e.power] -= e.cost
    return with_damage(replace(s, treasury=treasury), e.space, e.facility, e.left)


# --------------------------------------------------------------------------------------------
# Free repair of capital ships (PU-4, §15.4)


def ships_to_repair(s: GameState) -> list[int]:
    """Damaged ships of the power whose turn it is in a sea zone next to a territory with an
    operational naval base friendly to it (PU-4), in id order."""
    ed = s.edition
    p = s.power
    out = []
    for u in sorted(s.units.values(), key=lambda x: x.id):
        if (u.owner != p or not u.damage or ed.units[u.type].domain != "sea"
                or not ed.is_sea(u.space)):
            continue
        if any(not ed.is_sea(t) and base_serves(s, t, "naval_base", p)
               for t in ed.neighbours[u.space]):
            out.append(u.id)
    return out


def repair_ships(tx: Tx) -> None:
    """Repair free every ship ``ships_to_repair`` names (PU-4; the combat's ``ShipsRepaired``)."""
    combat.repair_ships(tx, ships_to_repair(tx.state), own_rule("PU-4"))


def _enter_purchase(tx: Tx, initial: bool) -> None:
    if takes_damage(tx.state.ruleset()):
        repair_ships(tx)


reg.phase(PURCHASE).enter.append(_enter_purchase)


# --------------------------------------------------------------------------------------------
# The complex upgrade (§15.2), placed in Mobilize ('place 1 ic upgrade in Southern Italy')


def upgrade(tx: Tx, power: str, space: str, upgrade_type: str) -> None:
    """Turn the power's minor complex in ``space`` into a major one (§15.2); the site is checked
    (``rules.facilities.site_problem``: a major's territory, no damage)."""
    s = tx.state
    frm, to = s.edition.units[upgrade_type].abilities.upgrades
    here = piece(s, space, frm)
    assert here is not None  # checked by site_problem
    tx.emit(ComplexUpgraded(power=power, space=space, unit=here.id, upgrade=upgrade_type,
                            frm=frm, to=to,
                            production=s.edition.units[to].abilities.production))


@reg.evolver(ComplexUpgraded)
def _ev_upgraded(s: GameState, e: ComplexUpgraded) -> GameState:
    from dataclasses import replace

    purchase = dict(s.purchase)
    purchase[e.upgrade] -= 1
    if purchase[e.upgrade] <= 0:
        del purchase[e.upgrade]
    units = s.with_units([replace(s.units[e.unit], type=e.to)])
    return replace(s, purchase=purchase, units=units)


# --------------------------------------------------------------------------------------------
# Legal candidates: each damaged facility of the power repaired in full


@reg.candidates(PURCHASE)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    if not takes_damage(s.ruleset()):
        return
    for t, by in damage_table(s).items():
        for f in by:
            here = piece(s, t, f)
            if here is not None and here.owner == power:
                yield Repair(power=power, facility=f, space=t)


# --------------------------------------------------------------------------------------------
# The map: every damaged facility, struck through when its damage puts it out of action


@hooks.facility_look
def _map_look(s: GameState) -> Iterator[hooks.FacilityLook]:
    """Each damaged facility with its markers (FA-5) and whether it still works (MO-2: a
    complex at its production makes nothing; §15.3, §15.4, A-9: a base at 3 or more)."""
    for t, by in damage_table(s).items():
        for f, n in by.items():
            yield hooks.FacilityLook(t, f, n, operational(s, t, f))


# --------------------------------------------------------------------------------------------
# Words


@reg.words(FacilityRepaired)
def _repaired_words(s: GameState, e: FacilityRepaired) -> Msg:
    return msg("facilities.repaired", e.rule, power=e.power, space=e.space, facility=e.facility,
               markers=e.markers, cost=e.cost, left=e.left)


@reg.words(ComplexUpgraded)
def _upgraded_words(s: GameState, e: ComplexUpgraded) -> Msg:
    return msg("facilities.upgraded", e.rule, power=e.power, space=e.space, frm=e.frm, to=e.to,
               production=e.production)


def _left(p: Mapping[str, Any]) -> str:
    return f"{p['left']} left" if p["left"] else "none left"


catalogue("en", "facilities", {
    "no_repairs": "{edition} has no damage on facilities to repair.",
    "unknown_space": "Unknown space {space!r}.",
    "unknown_unit": "Unknown unit {unit!r}.",
    "not_a_facility": "A {unit} is not a facility: 'repair' removes damage markers from your "
                      "industrial complexes, air bases and naval bases ({rule}).",
    "none_there": "{space} has no {facility}. Your damaged facilities: {damaged:join|none}.",
    "not_yours": "The {facility} in {space} is {owner:possessive}: {power} repairs only its own "
                 "facilities ({rule}).",
    "captured": "The {facility} in {space} was captured this turn: it can be repaired from your "
                "next turn ({rule}).",
    "undamaged": "The {facility} in {space} has no damage. Your damaged facilities: "
                 "{damaged:join|none}.",
    "not_positive": "Counts must be positive: {count}.",
    "too_many": "The {facility} in {space} has {have} damage, not {count}: write 'repair {have} "
                "{facility} in {space}', or leave the number out to repair it all.",
    "too_dear": "Removing {count} damage costs {cost:ipcs}; {power} has {have:ipcs} ({rule}: 1 "
                "IPC per marker).",
    "repaired": lambda p: (f"{p['power']} repairs {p['markers']} damage on its {p['facility']} "
                           f"in {p['space']} for {p['cost']} IPC{'s' if p['cost'] != 1 else ''} "
                           f"({_left(p)}, {p['rule']})."),
    "upgraded": "{power} upgrades the {frm} in {space} to a {to}: it places up to {production} "
                "units from this turn ({rule}, " + own_rule("MO-2") + ").",
})
