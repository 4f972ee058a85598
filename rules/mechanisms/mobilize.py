"""Mobilization (MB-1..MB-9, R-PLC-01..08): placing what was bought, new complexes, fighters
waiting for new carriers, and what becomes of units not placed.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules import board, movement_end
from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.edition import Edition
from rules.errors import IllegalOrder, InvalidOrder
from rules.messages import catalogue, msg, own_rule
from rules.state import GameState, Unit
from rules.turn import registry as reg
from rules.words import counted, possessive

if TYPE_CHECKING:
    from rules.turn.tx import Tx

from rules.facilities import production, site_problem
from rules.mechanisms.facilities import upgrade
from rules.mechanisms.purchase import purchase_cost
from rules.production import (
    aa_guns,
    cap_left,
    eligible_factories,
    hostile_for_placement,
    new_factory_sites,
)


def decide_place(tx: Tx, order: od.Place) -> None:
    s = tx.state
    ed = s.edition
    rs = s.ruleset()
    p = order.power
    space = order.space
    if space not in ed.spaces:
        raise InvalidOrder(msg("mobilize.unknown_space", space=space))
    if not order.units:
        raise InvalidOrder(msg("mobilize.nothing"))
    for u, n in order.units.items():
        if s.purchase.get(u, 0) < n:
            raise IllegalOrder(msg("mobilize.not_bought", ed.cite("PU-4"), power=p,
                                   have=s.purchase.get(u, 0), unit=u, count=n,
                                   waiting=dict(s.purchase)))
    if any(ed.units[u].abilities.fixed for u in order.units):
        _place_factory(tx, order)
        return
    factories = eligible_factories(s, p)
    sea = ed.is_sea(space)
    if not sea:
        if space not in factories:
            raise IllegalOrder(msg("mobilize.no_complex", ed.cite("MB-1", "MB-3", "MN-7"),
                                   power=p, space=space, eligible=factories))
        for u in order.units:
            if ed.units[u].domain == "sea":
                raise IllegalOrder(msg("mobilize.sea_unit_ashore", ed.cite("MB-4"), unit=u))
        aa = sum(n for u, n in order.units.items() if ed.units[u].abilities.anti_air)
        if rs.one_aa_gun_per_territory and aa and aa_guns(s, space) + aa > 1:
            raise IllegalOrder(msg("mobilize.aa_limit", "R-PLC-05", space=space,
                                   guns=aa_guns(s, space) + aa))
        payers = [space]
    else:
        payers = [f for f in factories if space in ed.neighbours[f]]
        if not payers:
            raise IllegalOrder(msg("mobilize.not_by_complex", ed.cite("MB-4"), power=p,
                                   space=space, eligible=factories))
        for u in order.units:
            d = ed.units[u].domain
            if d == "land":
                raise IllegalOrder(msg("mobilize.land_at_sea", ed.cite("MB-3")))
            if d == "air" and not rs.new_fighters_on_carriers:
                raise IllegalOrder(msg("mobilize.no_new_fighters_at_sea", ed.cite("MB-5"), unit=u,
                                       eligible=payers))
            if d == "air" and not ed.units[u].abilities.carrier_landable:
                raise IllegalOrder(msg("mobilize.not_carrier_landable", ed.cite("UB-1"), unit=u))
        if hostile_for_placement(s, space, p):
            raise IllegalOrder(msg("mobilize.hostile_zone", ed.cite("MB-4"), space=space))
    total = sum(order.units.values())
    payer = max(payers, key=lambda f: cap_left(s, f))
    made = production(s, payer)
    if made is not None and cap_left(s, payer) < total:
        kind, most, damage = made
        raise IllegalOrder(msg("mobilize.cap_production", own_rule("MO-2"), space=payer,
                               complex=kind, left=max(cap_left(s, payer), 0), production=most,
                               damage=damage, placed=s.placed.get(payer, 0)))
    if cap_left(s, payer) < total:
        raise IllegalOrder(msg("mobilize.cap", ed.cite("MB-2"), space=payer,
                               left=max(cap_left(s, payer), 0), value=ed.value(payer),
                               least=rs.min_factory_capacity))
    # Fighters at sea need room on the power's own carriers, new ones included (MB-5); none on
    # a damaged one (Europe 1940 §16.3: no plane lands on it, ``carrier_room``).
    new: list[tuple[int, str, int | None]] = []
    nid = s.next_id
    carriers_room: dict[int, int] = {}
    if sea:
        for c in s.units_in(space):
            if ed.units[c.type].abilities.carrier_capacity and c.owner == p:
                carriers_room[c.id] = board.carrier_room(s, c)
    ordered = sorted(order.units.items(), key=lambda kv: ed.units[kv[0]].domain != "sea")
    for u, n in ordered:
        ut = ed.units[u]
        for _ in range(n):
            carried: int | None = None
            if sea and ut.domain == "air":
                room = [cid for cid, r in carriers_room.items() if r > 0]
                if not room:
                    raise IllegalOrder(msg("mobilize.no_carrier_room", "MB-5", space=space,
                                           power=p, damaged=any(
                                               s.units[c].damage for c in carriers_room
                                               if c in s.units)))
                carried = room[0]
                carriers_room[carried] -= 1
            new.append((nid, u, carried))
            if ut.abilities.carrier_capacity:
                carriers_room[nid] = ut.abilities.carrier_capacity
            nid += 1
    before = _fighters_left_waiting(s, p)
    tx.emit(ev.UnitsPlaced(power=p, space=space, units=tuple(new), factory=payer))
    # MB-6/AIR-5: a fighter waiting at sea for a carrier bought this turn keeps its promise:
    # no placement may leave more waiting fighters without a berth than before.
    if _fighters_left_waiting(tx.state, p) > before:
        raise IllegalOrder(msg("mobilize.carrier_first", "MB-6/AIR-5",
                               zones=sorted(_waiting_fighters(s, p))))


def _place_factory(tx: Tx, order: od.Place) -> None:
    """A new industrial complex (R-PLC-03) or other facility (MO-6, FA-4): in a territory
    owned since the start of the turn, one of each kind per territory, where its type allows
    (``rules.facilities.site_problem``); a new complex produces from the power's next turn. A
    facility uses no complex's production (MO-6); the complex upgrade turns the minor complex
    there into a major one (§15.2, ``rules.mechanisms.facilities``)."""
    s = tx.state
    ed = s.edition
    p = order.power
    space = order.space
    kinds = [u for u in order.units if ed.units[u].abilities.fixed]
    kind = kinds[0]
    ab = ed.units[kind].abilities
    if len(order.units) > 1 or sum(order.units.values()) > 1:
        raise IllegalOrder(msg("mobilize.complex_alone", "R-PLC-03", unit=kind, space=space))
    why = site_problem(s, p, kind, space)
    if why is not None:
        if ab.facility:
            raise IllegalOrder(msg("facilities.site", own_rule("MO-6, FA-4"), power=p, unit=kind,
                                   space=space, why=why))
        raise IllegalOrder(msg("mobilize.complex_site", "R-PLC-03", power=p, unit=kind,
                               space=space, why=why))
    if ab.upgrades:
        upgrade(tx, p, space, kind)
        return
    # A facility of an edition with facilities takes no complex's production (MO-6).
    tx.emit(ev.UnitsPlaced(power=p, space=space, units=((s.next_id, kind, None),),
                           factory="" if ab.facility else space))


def _waiting_fighters(s: GameState, power: str) -> dict[str, int]:
    """Own fighters at sea with no carrier berth, by zone: they wait for a new carrier (NC-6)."""

    ed = s.edition
    out: dict[str, int] = {}
    for u in s.units.values():
        if (u.owner == power and u.carried_by is None and ed.is_sea(u.space)
                and ed.units[u.type].abilities.carrier_landable):
            out[u.space] = out.get(u.space, 0) + 1
    for z in list(out):
        room = sum(board.carrier_room(s, c) for c in s.units_in(z)
                   if ed.units[c.type].abilities.carrier_capacity
                   and board.may_share(s, c.owner, power))
        out[z] -= room
        if out[z] <= 0:
            del out[z]
    return out


def _fighters_left_waiting(s: GameState, power: str) -> int:
    """Waiting fighters that no placement of the carriers still to be placed can catch."""
    ed = s.edition
    waiting = _waiting_fighters(s, power)
    total = sum(waiting.values())
    carriers = [u for u, n in s.purchase.items() for _ in range(n)
                if ed.units[u].abilities.carrier_capacity]
    if not waiting or not carriers:
        return total
    size = max(ed.units[u].abilities.carrier_capacity for u in carriers)
    caps = {f: cap_left(s, f) for f in eligible_factories(s, power)}
    zones = sorted(waiting)
    best = 0
    # Few zones and carriers: try every split of the carriers among the zones (MB-2 caps).
    ranges = [range(0, -(-waiting[z] // size) + 1) for z in zones]
    for split in itertools.product(*ranges):
        if sum(split) > len(carriers) or not _caps_allow(ed, caps, dict(zip(zones, split,
                                                                            strict=True))):
            continue
        best = max(best, sum(min(waiting[z], n * size) for z, n in zip(zones, split,
                                                                       strict=True)))
    return total - best


def _caps_allow(ed: Edition, caps: dict[str, int], per_zone: dict[str, int]) -> bool:
    """Can these carriers per zone be charged to adjacent complexes within caps (A-16)?"""
    demands = [z for z, n in per_zone.items() for _ in range(n)]
    # No complex needs more slots than there are carriers (unlimited ones, R-PLC-04).
    slots = [f for f, n in caps.items() for _ in range(max(min(n, len(demands)), 0))]
    owner: dict[int, int] = {}

    def augment(d: int, seen: set[int]) -> bool:
        for i, f in enumerate(slots):
            if i in seen or demands[d] not in ed.neighbours[f]:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = d
                return True
        return False

    return all(augment(d, set()) for d in range(len(demands)))


def end_mobilize(tx: Tx, confirm: bool) -> None:
    s = tx.state

    if _fighters_left_waiting(s, s.power) < sum(_waiting_fighters(s, s.power).values()):
        # MB-6/AIR-5: a promised carrier that can still be placed must be placed.
        raise IllegalOrder(msg("mobilize.carrier_owed", "MB-6/AIR-5",
                               zones=sorted(_waiting_fighters(s, s.power))))
    if s.purchase:
        ed = s.edition
        lost = s.ruleset().unplaced_units == "lost"
        placeable = [u for u in s.purchase if _could_place(s, u)]
        if placeable and not confirm:
            raise IllegalOrder(msg("mobilize.unplaced", ed.cite("MB-9"), units=dict(s.purchase),
                                   lost=lost))
        if lost:
            tx.emit(ev.PurchaseLost(power=s.power, units=dict(s.purchase),
                                    rule=ed.cite("MB-9")))
        else:
            amount = purchase_cost(s, s.purchase)
            tx.emit(ev.PurchaseRefunded(power=s.power, units=dict(s.purchase), amount=amount))
    movement_end.remove_unlanded_air(tx, final=True)


def _could_place(s: GameState, utype: str) -> bool:
    """Some placement of one ``utype`` is still open this phase (R-PLC-08 / MB-9 warn)."""
    ed = s.edition
    ut = ed.units[utype]
    p = s.power
    if ut.abilities.fixed:
        return bool(new_factory_sites(s, p, utype))
    for f in eligible_factories(s, p):
        if cap_left(s, f) <= 0:
            continue
        if ut.domain != "sea":
            if (ut.abilities.anti_air and s.ruleset().one_aa_gun_per_territory
                    and aa_guns(s, f) >= 1):
                continue  # R-PLC-05
            return True
        if any(ed.is_sea(n) and not hostile_for_placement(s, n, p) for n in ed.neighbours[f]):
            return True
    return False



@reg.evolver(ev.PurchaseLost)
def _ev_lost(s: GameState, e: ev.PurchaseLost) -> GameState:
    purchase = dict(s.purchase)
    for u, n in e.units.items():
        purchase[u] = purchase.get(u, 0) - n
        if purchase[u] <= 0:
            del purchase[u]
    return replace(s, purchase=purchase)


@reg.evolver(ev.UnitsPlaced)
def _ev_placed(s: GameState, e: ev.UnitsPlaced) -> GameState:
    units = dict(s.units)
    purchase = dict(s.purchase)
    placed = dict(s.placed)
    nid = s.next_id
    for uid, utype, carried in e.units:
        units[uid] = Unit(id=uid, type=utype, owner=e.power, space=e.space, carried_by=carried,
                          stopped=True, start=e.space)
        purchase[utype] -= 1
        if purchase[utype] == 0:
            del purchase[utype]
        if e.factory:  # a facility placed uses no production (MO-6)
            placed[e.factory] = placed.get(e.factory, 0) + 1
        nid = max(nid, uid + 1)
    marks = s.marks
    if any(s.edition.units[t].abilities.factory for _, t, _c in e.units):
        # produces from the next turn (R-PLC-03)
        marks = replace(marks, new_factories=marks.new_factories | {e.space})
    return replace(s, units=units, purchase=purchase, placed=placed, next_id=nid, marks=marks)


@reg.evolver(ev.PurchaseRefunded)
def _ev_refunded(s: GameState, e: ev.PurchaseRefunded) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] += e.amount
    purchase = dict(s.purchase)
    for u, n in e.units.items():
        purchase[u] = purchase.get(u, 0) - n
        if purchase[u] <= 0:
            del purchase[u]
    return replace(s, treasury=treasury, purchase=purchase)



reg.phase("mobilize").end.append(lambda tx, order: end_mobilize(tx, order.confirm))


@reg.order(od.Place, phases=("mobilize",))
def _decide(tx: Tx, order: od.Place, dice: Dice) -> None:
    decide_place(tx, order)


def _cap(p: Mapping[str, Any]) -> str:
    least = f", at least {p['least']}" if p["least"] else ""
    return (f"{p['space']} can place {counted(p['left'], 'more unit', 'more units')} this turn: "
            f"its production is limited to its IPC value {p['value']}{least}, sea zones next to "
            f"it included ({p['rule']}).")


def _cap_production(p: Mapping[str, Any]) -> str:
    damage = f", less {p['damage']} damage" if p["damage"] else ""
    placed = f"; {p['placed']} placed already" if p["placed"] else ""
    return (f"{p['space']} can place {counted(p['left'], 'more unit', 'more units')} this turn: "
            f"its {p['complex']} produces {p['production']} units a turn{damage}{placed}, sea "
            f"zones next to it included ({p['rule']}).")


def _unplaced(p: Mapping[str, Any]) -> str:
    fate = ("to give them up: units not placed are lost, without refund" if p["lost"]
            else "to return them to the box with a refund")
    waiting = ", ".join(f"{n} {u}" for u, n in p["units"].items())
    return (f"Still waiting to be placed: {waiting}. Place them with 'place <units> in <space>', "
            f"or 'end confirm' {fate} ({p['rule']}).")


catalogue("en", "mobilize", {
    "unknown_space": "Unknown space {space!r}.",
    "nothing": "Name what to place, e.g. 'place 2 infantry in Germany'.",
    "not_bought": "{power} has {have} {unit} waiting to be placed, not {count} ({rule}: only "
                  "units bought this turn are placed). Waiting: {waiting:units:singular|none}.",
    "no_complex": "{power} cannot place units in {space}: new units go only to territories with "
                  "an industrial complex {power} itself has controlled since the start of the "
                  "turn, never one taken this turn nor an ally's ({rule}). Eligible: "
                  "{eligible:join|none}.",
    "sea_unit_ashore": "{unit} is a sea unit: place it in an adjacent sea zone ({rule}).",
    "aa_limit": "{space} would hold {guns} antiaircraft guns: at most one per territory ({rule}). "
                "An AA gun with no territory left for it is lost at the end of the phase.",
    "not_by_complex": "{space} is not next to an industrial complex {power} may use ({rule}). "
                      "Eligible complexes: {eligible:join|none}.",
    "land_at_sea": "Land units are placed only in a territory with an eligible complex, never "
                   "onto transports ({rule}).",
    "no_new_fighters_at_sea": "New {unit}s are never placed on aircraft carriers: place them in "
                              "a territory with your industrial complex ({rule}). Eligible: "
                              "{eligible:join}.",
    "not_carrier_landable": "{unit} cannot land on carriers; place it in a territory ({rule}).",
    "hostile_zone": "{space} holds enemy units: new ships go only into sea zones with no enemy "
                    "units ({rule}). Units that cannot be placed are lost at the end of the phase "
                    "(R-PLC-08).",
    "cap": _cap,
    "cap_production": _cap_production,
    "no_carrier_room": lambda p: (
        f"No room for a new fighter in {p['space']}: it needs a carrier of "
        f"{possessive(p['power'])} own with a free slot there, new ones included ({p['rule']}; "
        "not an ally's, MN-7)"
        + ("; a damaged carrier takes no plane until it is repaired (" + own_rule("§16.3")
           + ")." if p["damaged"] else ".")),
    "carrier_first": "A fighter waits in {zones:join} for a new aircraft carrier: place the "
                     "carrier there first, and keep room for it on the production cap ({rule}).",
    "complex_alone": "Place a new {unit} on its own, one per territory ({rule}), e.g. 'place 1 "
                     "{unit} in {space}'; other units are placed at complexes you already had at "
                     "the start of the turn.",
    "site_at_sea": "it is a sea zone",
    "site_has_one": "it already has one (one per territory)",
    "site_not_owned": "{power} does not control it",
    "site_not_held": "{power} has not held it since the start of its turn",
    "complex_site": "{power} cannot place a new {unit} in {space}: {why}. New complexes go in "
                    "territories you have owned since the start of your turn, not conquered this "
                    "turn, one per territory ({rule}).",
    "carrier_owed": "A fighter waits in {zones:join} for a new aircraft carrier that can still be "
                    "placed there: place it ({rule}).",
    "unplaced": _unplaced,
})
