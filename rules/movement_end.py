"""The ends of the movement phases: the checks before Combat Move ends (transports alone,
air units without a landing, CM-14, UT-12), fighters stranded by a sunk carrier (NC-3,
R-AIR-10), and air units left without a landing when Noncombat Move ends (NC-7).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules.errors import IllegalOrder
from rules.messages import Msg, catalogue, msg, own_rule
from rules.state import GameState, Unit
from rules.turn import hooks

if TYPE_CHECKING:
    from rules.turn.tx import Tx

from rules.board import (
    COMBAT,
    canal_open,
    cargo_of,
    carrier_room,
    enemy_units,
    friendly_at_turn_start,
    is_hostile_sea,
    may_share,
    remaining,
)
from rules.movement import _carrier_zones, _waiting


def check_end_combat_move(s: GameState) -> None:
    ed = s.edition
    power = s.power
    problems: list[Msg] = []
    # The zone an assault is made from: where the cargo waits, or where it offloaded from.
    assault_zones = {
        c.space if ed.is_sea(c.space) else (c.came_from or c.space)
        for c in s.units.values() if c.owner == power and c.assault
    }
    for u in s.units.values():
        if u.owner != power or u.carried_by is not None:
            continue
        dom = ed.units[u.type].domain
        if dom == "sea" and u.combat_moved:
            z = u.space
            if is_hostile_sea(s, z, power) or enemy_units(s, z, power):
                continue
            if z in assault_zones or u.offloaded:
                continue  # CM-4 exception 2
            if u.start and (is_hostile_sea(s, u.start, power)
                            or hooks.escapes_from(s, u.start, power)):
                continue  # CM-13: escaped from a hostile zone (1940 CM-4 2, A-14)
            problems.append(msg("movement_end.not_in_combat", "CM-4", unit=u.type, space=z))
    for c in s.units.values():
        if c.owner == power and c.carried_by is not None and c.loaded == COMBAT and not c.assault:
            problems.append(msg("movement_end.cargo_not_assaulting", "CM-28", unit=c.type,
                                space=c.space))
    for z in sorted(assault_zones):
        subs = [e for e in enemy_units(s, z, power) if ed.units[e.type].abilities.submersible]
        warships = [w for w in s.units_in(z)
                    if w.owner == power and ed.units[w.type].abilities.warship]
        if subs and not warships and not is_hostile_sea(s, z, power):
            problems.append(msg("movement_end.assault_past_subs", "CM-29", space=z, power=power))
    problems.extend(_landing_problems(s, power))
    problems.extend(_lone_transport_problems(s, power, assault_zones))
    if problems:
        raise IllegalOrder(msg("movement_end.cannot_end", problems=problems))


def _landing_problems(s: GameState, power: str) -> list[Msg]:
    """AIR-4 / CM-16: every air unit that moved in Combat Move keeps some way to land, all of
    them at once (each carrier takes two fighters and ends the turn in one zone)."""
    from rules import landing

    ed = s.edition
    p = landing.plan(s, power)
    out = []
    for u in p.lost:
        if not u.combat_moved:
            continue
        crowded = p.options.get(u.id, 0) > 0
        out.append(msg("movement_end.no_landing", ed.cite("AIR-4"), unit=u.type, space=u.space,
                       carriers=ed.cite("UF-2", "UC-2") if crowded else None))
    return out


def _lone_transport_problems(s: GameState, power: str, assault_zones: set[str]) -> list[Msg]:
    """UT-3: transports attack only with a unit that has an attack value. A-9: transports alone
    in a hostile zone at the start of the turn must leave it if they can; if they cannot, they
    stay and no battle happens. UT-3 / CM-4: transports that moved in Combat Move into a zone
    with enemy units (submarines, transports) and nothing to attack them with fight no battle,
    so they may end there only for an amphibious assault from that zone."""
    ed = s.edition
    out: list[Msg] = []
    zones = sorted({u.space for u in s.units.values()
                    if u.owner == power and u.carried_by is None and ed.is_sea(u.space)
                    and ed.units[u.type].abilities.cannot_attack_alone})
    for z in zones:
        mine = [u for u in s.units_in(z) if u.owner == power and u.carried_by is None]
        if any(ed.units[u.type].attack > 0 for u in mine):
            continue
        alone = [u for u in mine if ed.units[u.type].abilities.cannot_attack_alone]
        if not is_hostile_sea(s, z, power):
            moved = [u for u in alone if u.combat_moved and not u.offloaded
                     and not (u.start and is_hostile_sea(s, u.start, power))]  # CM-13
            if moved and enemy_units(s, z, power) and z not in assault_zones:
                laden = any(cargo_of(s, u) for u in moved)
                rule, combat = ed.cite("UT-3"), ed.cite("CM-4")  # this edition's IDs already
                out.append(msg("movement_end.transports_unfought", own_rule(rule), space=z,
                               combat=own_rule(combat), laden=laden))
            continue
        if any(u.combat_moved for u in alone):
            out.append(msg("movement_end.transports_alone", "UT-3", space=z))
        elif any(_can_leave(s, u) for u in alone):
            out.append(msg("movement_end.transports_stay", "UT-3, §18 A-9", space=z))
    return out


def _can_leave(s: GameState, u: Unit) -> bool:
    """A-9: the unit can still reach some adjacent sea zone that is not hostile."""
    ed = s.edition
    closed = set(ed.map.closed_sea_zones)
    if remaining(s, u) <= 0 or u.offloaded or u.retreated or u.space in closed:
        return False
    return any(ed.is_sea(y) and y not in closed and canal_open(s, u.space, y, u.owner, u.type)
               and not is_hostile_sea(s, y, u.owner) for y in ed.neighbours[u.space])


def land_stranded_fighters(tx: Tx, space: str | None = None) -> None:
    """Fighters of a sunk defending carrier land: another carrier there, else 1 space to a
    friendly territory or carrier (NC-3); or only in that zone, on another carrier or an island
    there (Classic R-AIR-10, ``RuleSet.stranded_fighters``). Else they are lost.

    With ``space``: only the fighters there (Classic: when their battle ends, R-AIR-10)."""
    s = tx.state
    ed = s.edition
    same_zone = ed.rules.rules.stranded_fighters == "same_zone"
    for u in sorted(s.units.values(), key=lambda x: x.id):
        if not u.stranded or (space is not None and u.space != space):
            continue
        s = tx.state
        z = u.space
        carriers = [c for c in s.units_in(z) if ed.units[c.type].abilities.carrier_capacity
                    and may_share(s, c.owner, u.owner) and carrier_room(s, c) > 0]
        if carriers:
            tx.emit(ev.UnitsMoved(power=u.owner, phase=s.phase, frm=z, to=z, moves=(
                ev.UnitMove(id=u.id, path=(z,), cost=0, carried_by=carriers[0].id),)))
            continue
        lands = sorted(t for t in ed.neighbours[z]
                       if not ed.is_sea(t) and may_share(s, s.owners.get(t), u.owner)
                       and (ed.spaces[t].island or not same_zone))
        if lands:
            tx.emit(ev.UnitsMoved(power=u.owner, phase=s.phase, frm=z, to=lands[0], moves=(
                ev.UnitMove(id=u.id, path=(z, lands[0]), cost=1),)))
            continue
        near = [c for t in sorted(ed.neighbours[z]) if ed.is_sea(t) and not same_zone
                for c in s.units_in(t)
                if ed.units[c.type].abilities.carrier_capacity
                and may_share(s, c.owner, u.owner) and carrier_room(s, c) > 0]
        if near:
            c = near[0]
            tx.emit(ev.UnitsMoved(power=u.owner, phase=s.phase, frm=z, to=c.space, moves=(
                ev.UnitMove(id=u.id, path=(z, c.space), cost=1, carried_by=c.id),)))
            continue
        tx.emit(ev.UnitsRemoved(ids=(u.id,), reason=f"stranded {u.type} could not land",
                                rule="R-AIR-10" if same_zone else "NC-3"))


def _unlanded_air(s: GameState, final: bool) -> tuple[list[Unit], list[tuple[Unit, Unit]]]:
    """Acting power's air units without a safe landing; and fighters to set on carriers."""
    ed = s.edition
    power = s.power
    lost: list[Unit] = []
    boards: list[tuple[Unit, Unit]] = []
    room: dict[int, int] = {}
    for u in sorted(s.units.values(), key=lambda x: x.id):
        if u.owner != power or ed.units[u.type].domain != "air" or u.carried_by is not None:
            continue
        if not ed.is_sea(u.space):
            if not friendly_at_turn_start(s, u.space, power):
                lost.append(u)
            continue
        carriers = [c for c in s.units_in(u.space)
                    if ed.units[c.type].abilities.carrier_capacity and may_share(s, c.owner, power)]
        carriers.sort(key=lambda c: (c.owner != power, c.id))
        host = None
        if ed.units[u.type].abilities.carrier_landable:
            for c in carriers:
                r = room.setdefault(c.id, carrier_room(s, c))
                if r > 0:
                    host = c
                    room[c.id] = r - 1
                    break
        if host is not None:
            boards.append((u, host))
        elif final or not (ed.units[u.type].abilities.carrier_landable
                           and u.space in _carrier_zones(s, power, moving=False)):
            # Once Noncombat Move ends no carrier moves any more: only carriers present or a
            # new carrier to be placed here can still take the fighter (NC-6, A-22).
            lost.append(u)
    return lost, boards


def end_noncombat(tx: Tx, confirm: bool) -> None:
    from rules import landing

    s = tx.state
    ed = s.edition
    lost, boards = _unlanded_air(s, final=False)
    # Fighters that ended a noncombat move at sea wait there; the others may still fly.
    bound = landing.plan(s, s.power, fixed=_waiting(s, s.power)) if lost else landing.Plan()
    rescue = landing.plan(s, s.power) if lost else landing.Plan()
    for u in lost:
        # AIR-5 / NC-10 / UF-4: a carrier that can still catch the fighter is bound to go.
        deck, zone = bound.deck.get(u.id) or rescue.deck.get(u.id) or (None, "")
        c = deck.carrier if deck is not None else None
        if c is None or c.space == zone:
            continue
        cite = ed.cite("AIR-5", "NC-10", "UF-4")
        cite = own_rule(cite)  # this edition's IDs already: not mapped a second time
        if u.space == zone:
            raise IllegalOrder(msg("movement_end.collect_waiting", cite, carrier=c.type,
                                   space=c.space, zone=zone, unit=u.type))
        raise IllegalOrder(msg("movement_end.collect_both", cite, carrier=c.type, space=c.space,
                               zone=zone, unit=u.type, at=u.space))
    if lost and not confirm:
        def reach(u: Unit) -> tuple[str | None, str | None, bool]:
            """Where it could still land: a place, the carrier's type there, a new carrier."""
            if u.id in rescue.land:
                return rescue.land[u.id], None, False
            if u.id in rescue.deck:
                d, z = rescue.deck[u.id]
                return z, d.kind, d.carrier is None
            return None, None, False

        raise IllegalOrder(msg("movement_end.no_safe_landing", "NC-7",
                               lost=[(u.type, u.space, *reach(u)) for u in lost]))
    _board_or_lose(tx, lost, boards)


def remove_unlanded_air(tx: Tx, final: bool) -> None:
    """After Mobilize: fighters waiting for a new carrier land on it or are lost (MB-6, NC-7)."""
    lost, boards = _unlanded_air(tx.state, final=final)
    _board_or_lose(tx, lost, boards)


def _board_or_lose(tx: Tx, lost: list[Unit], boards: list[tuple[Unit, Unit]]) -> None:
    """Fighters land on the carriers waiting for them; air units with no safe landing place
    are lost (NC-7)."""
    for u, c in boards:
        tx.emit(ev.UnitsMoved(power=u.owner, phase=tx.state.phase, frm=u.space, to=u.space,
                              moves=(ev.UnitMove(id=u.id, path=(u.space,), cost=0,
                                                 carried_by=c.id),)))
    if lost:
        tx.emit(ev.UnitsRemoved(ids=tuple(u.id for u in lost),
                                reason="air units with no safe landing place", rule="NC-7"))


def _no_landing(p: Mapping[str, Any]) -> str:
    crowded = (": the carriers it could reach are needed by other fighters, two a carrier "
               f"({p['carriers']})") if p["carriers"] else ""
    return (f"{p['unit']} in {p['space']} has no possible landing place ({p['rule']}){crowded}; "
            "move it where it can land, or 'undo'.")


def _transports_unfought(p: Mapping[str, Any]) -> str:
    send = ("Offload the cargo from there in an amphibious assault, send " if p["laden"]
            else "Send ")
    return (f"Transports cannot attack alone ({p['rule']}): the enemy units in {p['space']} "
            f"would not be attacked, and Combat Move must end in combat ({p['combat']}). "
            f"{send}a unit with an attack value into {p['space']}, or 'undo' the transports' "
            "move.")


def _no_safe_landing(p: Mapping[str, Any]) -> str:
    def where(place: str | None, kind: str | None, new: bool) -> str:
        if place is None:
            return ""
        if kind is None:
            return f" (it can still reach {place})"
        if new:
            return f" (it can still reach {place}, where a new {kind} can be placed)"
        return f" (it can still reach the {kind} in {place})"

    names = ", ".join(f"{unit} in {space}{where(place, kind, new)}"
                      for unit, space, place, kind, new in p["lost"])
    return (f"These air units have no safe landing place and would be destroyed: {names} "
            f"({p['rule']}). Move them to land, or 'end confirm' to accept the loss.")


catalogue("en", "movement_end", {
    "not_in_combat": "{unit} in {space}: Combat Move must end in combat ({rule}); move it in "
                     "Noncombat Move instead, or use 'undo'.",
    "cargo_not_assaulting": "{unit} loaded in Combat Move aboard in {space} must offload in an "
                            "amphibious assault ({rule}): offload it into a hostile territory, "
                            "or 'undo'.",
    "assault_past_subs": "Enemy submarines in {space}: an amphibious assault may ignore them "
                         "only if a {power} warship is in {space} at the end of Combat Move "
                         "({rule}).",
    "cannot_end": "Cannot end Combat Move yet: {problems:join: }",
    "no_landing": _no_landing,
    "transports_unfought": _transports_unfought,
    "transports_alone": "Transports cannot attack alone ({rule}): send a unit with an attack "
                        "value into hostile {space} with them, or 'undo' their move.",
    "transports_stay": "Transports alone cannot stay in hostile {space} ({rule}): move them out "
                       "to a friendly sea zone, or bring a unit with an attack value to fight "
                       "there.",
    "collect_waiting": "The {carrier} in {space} must move to {zone} to collect the {unit} "
                       "waiting there ({rule}): move it there before ending Noncombat Move.",
    "collect_both": "The {unit} in {at} can still land: move it to {zone}; the {carrier} in "
                    "{space} must move to {zone} to collect it ({rule}). Make both moves before "
                    "ending Noncombat Move.",
    "no_safe_landing": _no_safe_landing,
})
