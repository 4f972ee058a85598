"""Combat Move and Noncombat Move (§8, §10, §14): paths, loading, blitzing, air range, landing.

A ``Move`` order moves units of one power from one space to another. The engine chooses the
individual pieces (those with the most movement left) and a legal shortest path, or follows
``via``. Each unit class has its own passability rules; every refusal names its rule.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rules import events as ev
from rules import (
    movement_words,  # noqa: F401  (registers the words of movement)
    tech,
)
from rules import orders as od
from rules.dice import Dice, roll_purpose
from rules.errors import IllegalOrder, InvalidOrder
from rules.messages import Msg, msg, own_rule
from rules.state import GameState, Unit
from rules.turn import hooks

if TYPE_CHECKING:
    from rules.turn.tx import Tx

from rules.board import (  # the board queries movement uses
    COMBAT,
    NONCOMBAT,
    attack_barred,
    barred_territory,
    cargo_of,
    carrier_room,
    dist_table,
    enemy_aa_guns,
    enemy_units,
    friendly_at_turn_start,
    full_move,
    hostile_sea_why,
    is_hostile_sea,
    is_hostile_territory,
    is_neutral,
    may_share,
    neutral_fee,
    not_sharing,
    remaining,
    transport_room,
)
from rules.paths import PathResult, _air_path, _land_path, _sea_path, check_blitz_pairs

StepCheck = Callable[[str, str, bool], Msg | None]  # (a, b, is_last) -> refusal or None


# --------------------------------------------------------------------------------------------
# The Move order


def _select(s: GameState, power: str, frm: str, utype_name: str, n: int,
            pred: Callable[[Unit], bool], why: Msg) -> list[Unit]:
    cands = [u for u in s.units_in(frm) if u.owner == power and u.type == utype_name]
    ok = [u for u in cands if pred(u)]
    if len(ok) < n:
        have = len(cands)
        if not cands:
            mine: dict[str, int] = {}
            for u in s.units_in(frm):
                if u.owner == power and not s.edition.units[u.type].abilities.fixed:
                    mine[u.type] = mine.get(u.type, 0) + 1
            raise IllegalOrder(msg("move.none_there", power=power, unit=utype_name, space=frm,
                                   units=mine))
        raise IllegalOrder(msg("move.not_able", power=power, able=len(ok), unit=utype_name,
                               space=frm, count=n, unable=have - len(ok), why=why))
    # Most movement left first; then transports with cargo, fighters already airborne.
    ok.sort(key=lambda u: (-remaining(s, u), -len(cargo_of(s, u)), u.carried_by is not None, u.id))
    return ok[:n]


def decide_move(tx: Tx, order: od.Move, dice: Dice | None = None) -> None:
    s = tx.state
    ed = s.edition
    power = order.power
    phase = s.phase
    for sp in (order.frm, order.to, *order.via):
        if sp not in ed.spaces:
            raise InvalidOrder(msg("move.unknown_space", space=sp))
    if order.frm == order.to and not order.via:
        # A round trip needs its route: a tank may blitz and come back (CM-25).
        raise InvalidOrder(msg("move.same_space", space=order.frm))
    if not order.units:
        raise InvalidOrder(msg("move.nothing"))
    for name, n in order.units.items():
        if name not in ed.units:
            raise InvalidOrder(msg("move.unknown_unit", unit=name))
        if n <= 0:
            raise InvalidOrder(msg("move.not_positive", count=n, unit=name))
        if ed.units[name].abilities.factory:
            raise IllegalOrder(msg("move.factory", "UL-4"))
        if ed.units[name].abilities.fixed:
            raise IllegalOrder(msg("move.facility", own_rule("FA-1"), unit=name))
        if ed.units[name].abilities.anti_air and phase == COMBAT:
            _check_aa_in_combat(s, order, name)
    for rule in hooks.move_rules():  # what the move declares for a mechanism
        rule.check(s, order)
    frm_sea = ed.is_sea(order.frm)
    to_sea = ed.is_sea(order.to)
    moves: list[ev.UnitMove] = []
    blitzed: list[str] = []
    overland: list[tuple[Unit, PathResult]] = []  # land units moving by land, with their paths
    taken: set[int] = set()
    # Air first (fighters take off before their carrier moves, CM-21), then the rest.
    # Bigger land units board first, so one order fills transports as UT-7 allows.
    committed = ed.rules.rules.air_committed_in_combat_move
    kinds = sorted(order.units.items(), key=lambda kv: (
        ed.units[kv[0]].domain != "air", -ed.units[kv[0]].abilities.transport_cost))
    for name, n in kinds:
        dom = ed.units[name].domain

        def movable(u: Unit, dom: str = dom) -> bool:
            # Cargo loaded this phase is "stopped" but still offloads at the end of its
            # transport's move (UT-8, CM-28); cargo already committed to an assault is not.
            cargo = dom == "land" and frm_sea and u.carried_by is not None
            if u.id in taken or (u.stopped and not (cargo and u.assault is None)):
                return False
            if phase == NONCOMBAT and (u.combat_moved or u.fought) and dom != "air":
                return False  # NC-1
            if dom == "land" and frm_sea:
                return u.carried_by is not None
            if dom == "land":
                return u.carried_by is None
            if dom == "air":
                if phase == COMBAT and u.combat_moved and committed:
                    return False  # Europe 1940 CM-6, CM-27, AA-7: committed where it went
                if phase == COMBAT and _cargo_fighter(s, u):
                    return False  # CM-21 / A-7: it stayed aboard while its carrier moved
                if u.carried_by is not None and s.units[u.carried_by].damage:
                    return False  # §16.3: trapped aboard a damaged carrier
                return remaining(s, u) > 0 and not (
                    u.carried_by is not None and s.units[u.carried_by].owner != power
                    and u.combat_moved
                )
            return True

        # Advice only for the units in question: transports' rules for transports, carriers'
        # for the aircraft that land on them (issue 13 item 13).
        abilities = ed.units[name].abilities
        why = msg("move.why_not_movable", noncombat=phase == NONCOMBAT,
                  boarding=dom == "land" and not frm_sea and to_sea,
                  transport=dom == "sea" and bool(abilities.transport_capacity),
                  cargo=dom == "air" and phase == COMBAT and abilities.carrier_landable,
                  committed=dom == "air" and phase == COMBAT and committed,
                  trapped=dom == "air" and any(
                      u.carried_by is not None and s.units[u.carried_by].damage
                      for u in s.units_in(order.frm) if u.type == name and u.owner == power))
        units = _select(s, power, order.frm, name, n, movable, why)
        taken.update(u.id for u in units)
        if dom == "air":
            for u in units:
                moves.append(_air_move(s, u, order, phase))
        elif dom == "sea":
            for u in units:
                moves.extend(_sea_move(s, u, order, phase))
        else:
            if frm_sea and not to_sea:
                moves.extend(_offload(s, units, order, phase))
            elif not frm_sea and to_sea:
                moves.extend(_load(s, units, order, phase, tx, moves))
            elif frm_sea and to_sea:
                raise IllegalOrder(msg("move.cargo_at_sea", "UT-7", unit=name))
            else:
                for u in units:
                    pr = _land_path(s, u, order.frm, order.to, order.via, phase)
                    _check_land_destination(s, u, pr, phase)
                    overland.append((u, pr))
                    blitzed.extend(b for b in pr.blitzed if b not in blitzed)
                    moves.append(ev.UnitMove(id=u.id, path=pr.path, cost=len(pr.path) - 1,
                                             stopped=True))
    check_blitz_pairs(s, order, overland)  # Europe 1940 CM-20
    # Cargo travels with its carrier (CC-2 / CM-22).
    moved_hosts = {m.id: m for m in moves if ed.units[s.units[m.id].type].domain == "sea"}
    ride = phase != COMBAT or ed.rules.rules.own_fighters_ride_in_combat_move
    for host_id, m in moved_hosts.items():
        host = s.units[host_id]
        for c in cargo_of(s, host):
            if c.id in taken:
                continue
            if not ride and ed.units[c.type].domain == "air" and c.owner == host.owner:
                # the fighter stays where its carrier started, airborne, and attacks (or
                # lands) under its own range (R-AIR-04).
                moves.append(ev.UnitMove(id=c.id, path=(c.space,), cost=0, carried_by=None))
                continue
            moves.append(ev.UnitMove(id=c.id, path=m.path, cost=0, carried_by=host_id))
    if phase == COMBAT:
        _check_transports_not_alone(s, order, moves)
    from rules import territory

    # Classic R-NEU-02: a neutral entered or flown over is violated, for a fee.
    violated = _violations(s, moves) if phase == COMBAT and neutral_fee(s) is not None else []
    fee = neutral_fee(s) or 0
    if violated and s.treasury.get(power, 0) < fee * len(violated):
        raise IllegalOrder(msg("move.neutral_fee", "R-NEU-02", spaces=violated, fee=fee,
                               power=power, have=s.treasury.get(power, 0)))
    for t in violated:
        tx.emit(ev.NeutralViolated(power=power, space=t, fee=fee))
        territory.capture(tx, t, power, "neutral violation", "R-NEU-02")
    for t in blitzed:
        territory.capture(tx, t, power, "blitz", "CM-25")
    if phase in (COMBAT, NONCOMBAT) and any(
            ed.units[s.units[m.id].type].domain == "air" for m in moves):
        _check_landing(tx, order, moves, blitzed)
    if phase == COMBAT and ed.rules.rules.aa_overflight_fire:
        lost = _overflight_fire(tx, moves, power, dice)
        moves = [m for m in moves if m.id not in lost]
    for rule in hooks.move_rules():
        moves = [rule.mark(s, order, m) for m in moves]
    if moves:
        tx.emit(ev.UnitsMoved(power=power, phase=phase, frm=order.frm, to=order.to,
                              moves=tuple(moves), blitzed=tuple(blitzed)))
        for rule in hooks.move_rules():
            if rule.after is not None:
                rule.after(tx, order, tuple(moves))


def _check_aa_in_combat(s: GameState, order: od.Move, name: str) -> None:
    """AA guns move only in Noncombat Move (R-AAG-02). Europe 1940 (``move_in_noncombat_only``,
    §16.1, NC-4, A-31): in Combat Move only aboard a transport they boarded in an earlier turn,
    which they leave only in its amphibious assault."""
    ed = s.edition
    if not ed.units[name].abilities.move_in_noncombat_only:
        raise IllegalOrder(msg("move.aa_in_combat", "R-AAG-02", unit=name))
    if ed.is_sea(order.frm) and not ed.is_sea(order.to):
        return  # offloaded in an amphibious assault: cargo loaded in Combat Move is never an AA
    raise IllegalOrder(msg("move.aa_noncombat_only", own_rule("NC-4, A-31"), unit=name,
                           boarding=ed.is_sea(order.to)))


def _attackers(s: GameState, power: str, zone: str, moves: list[ev.UnitMove]) -> list[Unit]:
    """The power's units with an attack value that will be in ``zone`` after ``moves``: those
    there now (not cargo, not leaving with this order) and those this order brings (UT-3)."""
    ed = s.edition
    moving = {m.id for m in moves}
    here = [u for u in s.units_in(zone) if u.id not in moving and u.carried_by is None]
    arriving = [s.units[m.id] for m in moves if m.path[-1] == zone and m.carried_by is None]
    return [u for u in (*here, *arriving) if u.owner == power and ed.units[u.type].attack > 0]


def _check_transports_not_alone(s: GameState, order: od.Move, moves: list[ev.UnitMove]) -> None:
    """UT-3 / CM-4: in Combat Move transports may enter a hostile sea zone only together with a
    unit that has an attack value (there already, or moving in with the same order). Zones with
    enemy units that are not hostile are checked when Combat Move ends: an amphibious assault
    from there is the exception UT-3 names."""
    ed = s.edition
    power = order.power
    zone = order.to
    lone = [s.units[m.id] for m in moves if m.path[-1] == zone and len(m.path) > 1
            and ed.units[s.units[m.id].type].abilities.cannot_attack_alone]
    if not lone or not ed.is_sea(zone) or not is_hostile_sea(s, zone, power):
        return
    if _attackers(s, power, zone, moves):
        return
    escorts = sorted({u.type for u in s.units_in(order.frm)
                      if u.owner == power and u.carried_by is None and ed.units[u.type].attack > 0
                      and ed.units[u.type].domain == "sea" and not u.stopped})
    # a carrier cannot attack alone either where it has no attack value (Europe 1940 CM-16)
    carriers = any(ed.units[u.type].abilities.carrier_capacity for u in lone)
    rule = own_rule("CM-16") if carriers else ed.cite("UT-3")
    raise IllegalOrder(msg("move.transports_alone", rule, zone=zone,
                           why=hostile_sea_why(s), power=power,
                           names=sorted({u.type for u in lone}), units=dict(order.units),
                           escort=escorts[0] if escorts else None, frm=order.frm))


def _waiting(s: GameState, power: str) -> set[int]:
    """Own fighters that ended a noncombat move at sea: they land where they are (NC-6)."""
    from rules import landing

    if s.phase != NONCOMBAT:
        return set()
    return {u.id for u in landing.airborne(s, power)
            if s.edition.is_sea(u.space) and u.moved and not u.combat_moved}


def _check_landing(tx: Tx, order: od.Move, moves: list[ev.UnitMove],
                   blitzed: list[str]) -> None:
    """The air units of this order must keep a landing place, and so must every other air unit
    already flying: carriers take two fighters each, guests of allies included, and one carrier
    ends the turn in one zone (CM-15/CM-16/AIR-4 in Combat Move; NC-6/UF-2/UC-2 in Noncombat
    Move, where fighters moved to a sea zone land there)."""
    from rules import landing

    s = tx.state
    ed = s.edition
    power = order.power
    phase = s.phase
    probe = type(tx)(s)
    probe.emit(ev.UnitsMoved(power=power, phase=phase, frm=order.frm, to=order.to,
                             moves=tuple(moves), blitzed=tuple(blitzed)))
    after = probe.state
    mine = {m.id for m in moves if ed.units[s.units[m.id].type].domain == "air"}
    fixed_after = _waiting(after, power) | (mine if phase == NONCOMBAT else set())
    now = landing.plan(s, power, fixed=_waiting(s, power))
    then = landing.plan(after, power, fixed=fixed_after)
    if len(then.lost) <= len(now.lost):
        return
    ours = [u for u in then.lost if u.id in mine]
    u = after.units[(ours or [after.units[i] for i in sorted(mine)])[0].id]
    others = [x for x in then.lost if x.id not in mine and x.id not in {y.id for y in now.lost}]
    fighter = ed.units[u.type].abilities.carrier_landable
    alone = then.options.get(u.id, 0) > 0 and not others
    if phase == COMBAT:
        other = (others[0].type, others[0].space) if others else None
        raise IllegalOrder(msg("move.no_landing", ed.cite("CM-15", "AIR-4"), unit=u.type,
                               to=order.to, left=remaining(after, u), other=other, alone=alone,
                               fighter=fighter, carriers=ed.cite("UF-2", "UC-2")))
    here = order.to
    present = [d for d in landing.decks(after, power, moving=False)
               if d.carrier is not None and d.carrier.space == here]
    seats = sum(d.room for d in present)
    flying = sum(1 for x in landing.airborne(after, power)
                 if x.space == here and ed.units[x.type].abilities.carrier_landable)
    carriers = [c for c in after.units_in(here)
                if ed.units[c.type].abilities.carrier_capacity and may_share(after, c.owner, power)]
    cite = ed.cite("UF-2", "UC-2", "NC-6", "NC-7")  # this edition's IDs: not mapped again
    raise IllegalOrder(msg("move.no_deck", own_rule(cite), unit=u.type, zone=here,
                           carriers=bool(carriers), seats=seats, flying=flying))


def _violations(s: GameState, moves: list[ev.UnitMove]) -> list[str]:
    """Neutrals this Combat Move enters (land units) or flies over (aircraft), in path order
    (R-NEU-02, A-30); each is taken and paid for once."""
    ed = s.edition
    out: list[str] = []
    for m in moves:
        dom = ed.units[s.units[m.id].type].domain
        steps = m.path[1:] if dom == "land" else m.path[1:-1] if dom == "air" else ()
        out.extend(x for x in steps if is_neutral(s, x) and x not in out)
    return out


AA_HIT = 1  # R-AAG-03: each 1 destroys an aircraft


def _overflight_fire(tx: Tx, moves: list[ev.UnitMove], power: str,
                     dice: Dice | None) -> set[int]:
    """R-AIR-05 / R-AAG-03 / A-06: each enemy antiaircraft gun in a territory the aircraft of
    this move fly over (not their destination: that gun fires there, in Conduct Combat) rolls one
    die per aircraft still flying; each 1 destroys one. Which: the cheapest aircraft first (the
    referee's choice for the owner, A-04); give a separate order per type to choose otherwise.
    Returns the ids destroyed."""
    s = tx.state
    ed = s.edition
    flights = [m for m in moves if ed.units[s.units[m.id].type].domain == "air"]
    over: dict[str, list[int]] = {}
    for m in flights:
        for x in m.path[1:-1]:
            if not ed.is_sea(x) and enemy_aa_guns(s, x, power):
                over.setdefault(x, []).append(m.id)
    lost: set[int] = set()
    if not over:
        return lost
    if dice is None:
        raise IllegalOrder(msg("move.no_dice"))
    for x, ids in over.items():
        alive = [i for i in ids if i not in lost]
        guns = enemy_aa_guns(s, x, power)
        if not alive:
            continue
        n = len(alive) * len(guns)
        gun_type = guns[0].type
        label = "defender:overflight"
        faces = tuple(dice.roll(n, roll_purpose(x, 0, label, gun_type)))
        hits = min(sum(1 for f in faces if f <= AA_HIT), len(alive))
        tx.emit(ev.DiceRolled(space=x, round=0, side="defender", purpose=f"{x} overflight",
                              groups=((gun_type, AA_HIT, faces),), hits=hits, dice=dice.name,
                              stage="overflight"))
        if hits:
            units = sorted((s.units[i] for i in alive),
                           key=lambda u: (tech.cost(s, u.owner, u.type) or 0, u.id))
            down = tuple(u.id for u in units[:hits])
            lost.update(down)
            tx.emit(ev.UnitsRemoved(ids=down, reason=f"shot down by antiaircraft fire over {x}",
                                    rule="R-AIR-05"))
    return lost


def _cargo_fighter(s: GameState, u: Unit) -> bool:
    """CM-21: a fighter still aboard a carrier that has already moved this turn is cargo."""
    if u.carried_by is None or u.carried_by not in s.units:
        return False
    return s.units[u.carried_by].moved > 0


def _check_land_destination(s: GameState, u: Unit, pr: PathResult, phase: str) -> None:
    if phase != COMBAT:
        return
    dest = pr.path[-1]
    if is_hostile_territory(s, dest, u.owner) or is_neutral(s, dest):
        return  # an attack, or a neutral violation (R-NEU-02)
    if pr.blitzed:
        return  # CM-4 exception 1 / CM-25
    raise IllegalOrder(msg("move.combat_friendly", "CM-4", space=dest))


def _air_move(s: GameState, u: Unit, order: od.Move, phase: str) -> ev.UnitMove:
    ed = s.edition
    pr = _air_path(s, u, order.frm, order.to, order.via, phase)
    dest = order.to
    cost = len(pr.path) - 1  # from a carrier its own zone costs nothing (AIR-6)
    if phase == COMBAT:
        if not _air_combat_target(s, dest, u.owner):
            raise IllegalOrder(msg("move.air_nothing_hostile", "CM-4", space=dest))
        # Whether it can land (CM-15/AIR-4) is checked for the whole order at once, with every
        # other air unit and carrier slot (_check_landing).
    elif ed.is_sea(dest) and ed.units[u.type].abilities.carrier_landable:
        decks = [c.owner for c in s.units_in(dest) if ed.units[c.type].abilities.carrier_capacity
                 and s.friendly(c.owner, u.owner)]
        if decks and not any(may_share(s, o, u.owner) for o in decks):
            raise IllegalOrder(not_sharing(s, decks[0], u.owner, dest))  # NW-3, NW-4
    elif not friendly_at_turn_start(s, dest, u.owner):
        raise IllegalOrder(msg("move.air_unsafe", "NC-6/NC-7", unit=u.type, space=dest,
                               sea=ed.is_sea(dest)))
    return ev.UnitMove(id=u.id, path=pr.path, cost=cost, carried_by=None)


def _air_combat_target(s: GameState, dest: str, power: str) -> bool:
    ed = s.edition
    if ed.is_sea(dest):
        return bool(enemy_units(s, dest, power)) or hooks.may_stand_by(s, dest, power)
    return is_hostile_territory(s, dest, power) or hooks.attacks_neutral(s, dest, power)


def _carrier_zones(s: GameState, power: str, moving: bool = True,
                   skip_in: str | None = None) -> set[str]:
    """Sea zones where a friendly carrier could be for a fighter at the end of the turn (AIR-4).

    ``moving``: count the noncombat moves carriers could still make (not once Noncombat Move
    is over). ``skip_in``: leave out the carriers already in that zone (counted separately).
    """
    ed = s.edition
    zones: set[str] = set()
    for c in s.units.values():
        if not ed.units[c.type].abilities.carrier_capacity or not may_share(s, c.owner, power):
            continue
        if c.space == skip_in or carrier_room(s, c) <= 0:
            continue  # UF-2: a full carrier takes no more fighters
        zones.add(c.space)
        if (moving and c.owner == power and not c.combat_moved and not c.fought
                and not c.stopped):
            # It may still make a noncombat move to catch the fighter (AIR-4, AIR-5).
            for z, d in dist_table(ed, "sea").get(c.space, {}).items():
                if d <= remaining(s, c):
                    zones.add(z)
    if any(ed.units[u].abilities.carrier_capacity for u in s.purchase):
        from rules import production

        for f in production.eligible_factories(s, power):
            zones.update(z for z in ed.neighbours[f] if ed.is_sea(z))  # NC-6, A-22
    return zones


def _sea_move(s: GameState, u: Unit, order: od.Move, phase: str) -> list[ev.UnitMove]:
    ed = s.edition
    if u.offloaded:
        raise IllegalOrder(msg("move.offloaded", "UT-12"))
    if u.retreated:
        raise IllegalOrder(msg("move.retreated", "CC-6B"))
    if phase == NONCOMBAT and (u.combat_moved or u.fought):
        raise IllegalOrder(msg("move.fought", "NC-1", unit=u.type))
    pr = _sea_path(s, u, order.frm, order.to, order.via, phase)
    stop = pr.stop
    if phase == NONCOMBAT and ed.units[u.type].abilities.carrier_capacity and any(
            f.owner == u.owner and f.carried_by is None and ed.units[f.type].domain == "air"
            for f in s.units_in(order.to)):
        stop = True  # UF-4: a carrier that goes to pick up fighters moves no further this turn
    return [ev.UnitMove(id=u.id, path=pr.path, cost=len(pr.path) - 1, stopped=stop)]


def _load(s: GameState, units: list[Unit], order: od.Move, phase: str,
          tx: Tx, pending: list[ev.UnitMove] | None = None) -> list[ev.UnitMove]:
    """Land units board transports in an adjacent sea zone (UT-8..UT-11)."""
    ed = s.edition
    zone = order.to
    power = order.power
    if order.frm not in ed.neighbours[zone]:
        raise IllegalOrder(msg("move.load_not_adjacent", "UT-8", space=order.frm, zone=zone))
    own_only = False
    if is_hostile_sea(s, zone, power):
        if not hooks.loading_in_hostile(s, zone, power):
            raise IllegalOrder(msg("move.load_hostile", "UT-12", zone=zone))
        own_only = True  # DW-3: onto one's own transports there only
    room: dict[int, int] = {}
    transports = [t for t in s.units_in(zone) if ed.units[t.type].abilities.transport_capacity
                  and may_share(s, t.owner, power) and (t.owner == power or not own_only)]
    barred: list[Msg] = []
    for t in transports:
        why = None
        if t.offloaded or t.retreated:
            why = msg("move.barred_offloaded", "UT-12/UT-13")
        elif phase == NONCOMBAT and (t.combat_moved or t.fought):
            why = msg("move.barred_fought", "NC-9")
        if why is not None:
            if why not in barred:
                barred.append(why)
            continue
        room[t.id] = transport_room(s, t)
    for m in pending or ():
        # Units of another type boarding in the same order already take room (UT-7).
        if m.loaded and m.carried_by in room:
            room[m.carried_by] -= ed.units[s.units[m.id].type].abilities.transport_cost
    # Own transports first, fullest first (fill before spreading).
    order_t = sorted(room, key=lambda i: (s.units[i].owner != power, room[i], i))
    moves: list[ev.UnitMove] = []
    for u in sorted(units, key=lambda x: -ed.units[x.type].abilities.transport_cost):
        if u.moved:
            raise IllegalOrder(msg("move.moved_no_load", "UT-10", unit=u.type))
        need = ed.units[u.type].abilities.transport_cost
        host = next((i for i in order_t if room[i] >= need), None)
        if host is None and not transports:
            apart = [t.owner for t in s.units_in(zone)
                     if ed.units[t.type].abilities.transport_capacity
                     and s.friendly(t.owner, power) and not may_share(s, t.owner, power)]
            if apart:
                raise IllegalOrder(not_sharing(s, apart[0], power, zone))
            raise IllegalOrder(msg("move.no_transport", "UT-7, UT-8", zone=zone, unit=u.type))
        if host is None:
            raise IllegalOrder(msg("move.no_room", zone=zone, unit=u.type,
                                   capacity=_capacity(s), barred=barred))
        room[host] -= need
        moves.append(ev.UnitMove(id=u.id, path=(order.frm, zone), cost=full_move(s, u),
                                 carried_by=host, stopped=True, loaded=True))
    return moves


def _capacity(s: GameState) -> Msg:
    """What a transport carries, from the data (UT-7 / R-TRP-01): its fullest loads."""
    ed = s.edition
    cap = max((ut.abilities.transport_capacity for ut in ed.units.values()), default=0)
    costs = {n: ut.abilities.transport_cost for n, ut in ed.units.items()
             if ut.abilities.transport_cost and ut.domain == "land"}
    if not cap or not costs:
        return msg("move.no_capacity")
    most = cap // min(costs.values())
    kinds = sorted(costs, key=lambda n: costs[n])
    loads: list[list[tuple[int, str]]] = []  # each load: (count, unit type), biggest first
    for k in range(1, most + 1):
        for combo in itertools.combinations_with_replacement(kinds, k):
            used = sum(costs[n] for n in combo)
            if used <= cap and all(used + c > cap for c in costs.values()):
                counts = {n: combo.count(n) for n in dict.fromkeys(combo)}
                loads.append([(c, n) for n, c in sorted(counts.items(),
                                                        key=lambda x: -costs[x[0]])])
    never = [n for n, c in costs.items() if 2 * c > cap]
    return msg("move.capacity", "UT-7, R-TRP-01", loads=loads, never=never)


def _offload(s: GameState, units: list[Unit], order: od.Move, phase: str) -> list[ev.UnitMove]:
    """Land units leave transports into an adjacent territory; in Combat Move into a hostile
    territory this is a declared amphibious assault (CM-17..CM-20, UT-12..UT-14)."""
    ed = s.edition
    zone = order.frm
    target = order.to
    power = order.power
    if target not in ed.neighbours[zone]:
        raise IllegalOrder(msg("move.offload_not_adjacent", "UT-12", space=target, zone=zone))
    politics = (attack_barred(s, target, power) if phase == COMBAT
                else barred_territory(s, target, power))
    if politics is not None:
        raise IllegalOrder(politics)  # NW-2..NW-4
    governed = hooks.governing(s)  # a mechanism's neutral rules (Europe 1940 §6), if any
    if governed is not None and not ed.spaces[target].impassable and is_neutral(s, target):
        bad = governed.enter(s, power, target, phase, True, "land")
        if bad:
            raise IllegalOrder(bad)
        # An attack on the neutral (UN-1), or its entry in Noncombat Move (FN-2).
        hostile_target = phase == COMBAT
        neutral = False
    else:
        if ed.spaces[target].impassable or (is_neutral(s, target) and neutral_fee(s) is None):
            raise IllegalOrder(msg("move.offload_impassable", "MAP-8", space=target))
        hostile_target = is_hostile_territory(s, target, power)
        neutral = is_neutral(s, target)
    if neutral and phase == NONCOMBAT:
        raise IllegalOrder(msg("move.offload_neutral", "R-NEU-05, R-NCM-03", space=target))
    if neutral and is_hostile_sea(s, zone, power):
        raise IllegalOrder(msg("move.offload_neutral_from_hostile", "R-NEU-02, R-AMP-03",
                               space=target, zone=zone))
    if phase == COMBAT and not hostile_target and not neutral:
        raise IllegalOrder(msg("move.offload_friendly", "UT-14", space=target))
    if phase == NONCOMBAT and hostile_target:
        raise IllegalOrder(msg("move.offload_hostile", "NC-4/UT-14", space=target))
    zone_hostile = is_hostile_sea(s, zone, power)
    if phase == NONCOMBAT and zone_hostile:
        raise IllegalOrder(msg("move.offload_in_hostile", "UT-12", zone=zone))
    if phase == COMBAT and hostile_target and not zone_hostile:
        _check_assault_past_submarines(s, zone, power)
    moves: list[ev.UnitMove] = []
    for u in units:
        t = s.units[u.carried_by] if u.carried_by is not None else None
        if t is None:
            continue
        if t.retreated:
            raise IllegalOrder(msg("move.offload_retreated", "UT-12"))
        if t.owner != power and u.loaded is not None:
            raise IllegalOrder(msg("move.offload_allied", "UT-11", unit=u.type, owner=t.owner))
        if phase == NONCOMBAT and (t.combat_moved or t.fought):
            raise IllegalOrder(msg("move.offload_fought", "NC-9"))
        limit = ed.rules.rules.offload_territories
        others = {c.assault for c in cargo_of(s, t) if c.assault}
        dests = _offloaded_to(s, t) if t.offloaded else set()
        if len(others | dests | {target}) > limit:
            rule = ("AA-4/UT-12" if others else "UT-12") if limit == 1 else "R-TRP-04"
            raise IllegalOrder(msg("move.offload_limit", rule, limit=limit,
                                   spaces=sorted(others | dests)))
        if zone_hostile:
            # Assault from a hostile zone: land after the sea battle clears it (AA-1..AA-3).
            moves.append(ev.UnitMove(id=u.id, path=(zone,), cost=0, carried_by=t.id,
                                     assault=target, stopped=True))
        else:
            moves.append(ev.UnitMove(id=u.id, path=(zone, target), cost=full_move(s, u),
                                     carried_by=None, stopped=True, offloaded=True,
                                     assault=target if phase == COMBAT and not neutral else None))
    return moves


def _check_assault_past_submarines(s: GameState, zone: str, power: str) -> None:
    """CM-29 / AA-2: an amphibious assault may ignore enemy submarines in the offloading zone
    only if a warship of the attacking power is there (already there or moved in this phase);
    air units do not count. Where any enemy unit makes a zone hostile (Classic R-NAV-01) the
    submarines are fought in the sea battle instead, and this never applies."""
    ed = s.edition
    subs = [e for e in enemy_units(s, zone, power) if ed.units[e.type].abilities.submersible]
    if not subs or _own_warships(s, zone, power):
        return
    raise IllegalOrder(msg("move.assault_past_sub", ed.cite("CM-29", "AA-2"), zone=zone,
                           power=power))


def _own_warships(s: GameState, zone: str, power: str) -> list[Unit]:
    ed = s.edition
    return [w for w in s.units_in(zone) if w.owner == power and w.carried_by is None
            and ed.units[w.type].abilities.warship]


def _offloaded_to(s: GameState, t: Unit) -> set[str]:
    """Territories land units entered from the transport's zone this turn (UT-12).

    Land units whose last step came from a sea zone left a transport there this turn, in
    Combat or Noncombat Move alike. Several transports offloading from one zone are not told
    apart.
    """
    ed = s.edition
    return {u.space for u in s.units.values()
            if u.came_from == t.space and u.carried_by is None and not ed.is_sea(u.space)}


# --------------------------------------------------------------------------------------------
# End of Combat Move checks (CM-4, CM-28, CM-29, AIR-4)


# --------------------------------------------------------------------------------------------
# Noncombat Move: stranded fighters first (NC-3); landing at the end (NC-6, NC-7)


def unit_ids(units: Iterable[Unit]) -> tuple[int, ...]:
    return tuple(u.id for u in units)
