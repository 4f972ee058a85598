"""Legal orders: what a power may do now (DESIGN §4), for autocomplete and random play.

``legal_orders(state, power)`` is a lazy iterator. It makes cheap candidate orders for the
current phase and yields only those that ``engine.check`` accepts, so everything it yields is
accepted by ``engine.decide`` on the same state. It does not promise to list *every* legal
order (moves are of one unit or a whole group; casualty choices are sampled), only that what
it lists is legal.

``candidate_orders(state, power)`` is the unchecked candidate stream, for callers that want to
check lazily themselves (random play picks a random candidate and checks only that one).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rules import board, combat, engine, production, tech
from rules import orders as od
from rules.errors import AmbiguousOrder, RulesError
from rules.state import BattleState, GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg

# Casualty choices beyond the default are many when hits and unit types are many; a handful is
# enough for autocomplete and random play.
MAX_CASUALTY_CHOICES = 24


def legal_orders(state: GameState, power: str) -> Iterator[od.Order]:
    """Orders ``engine.check`` accepts for ``power`` now, lazily, in a stable order.

    Covers purchase (one of each affordable unit, ``buy clear``), moves of one unit and of the
    whole group of that type in a space (with ``via`` for ambiguous blitz routes), loads and
    offloads, battle/press/retreat, casualty choices and submarine declarations (strike,
    submerge all or some) the power owes, placements, what the mechanisms add
    (``rules.turn.registry.candidates``, battle decisions included; variants of a move,
    ``rules.turn.hooks.variants``)
    and ``end``. ``end confirm`` is listed only when a
    plain ``end`` is refused (it forfeits something, e.g. unlanded air units or unplaced
    units). Standing casualty orders are settings rather than moves and are not listed.
    """
    for order in candidate_orders(state, power):
        yield from accepted(state, order)
    end = od.EndPhase(power=power, phase=state.phase)
    if state.winner is None and power == state.power and not _accepted(state, end):
        confirm = od.EndPhase(power=power, confirm=True, phase=state.phase)
        if _accepted(state, confirm):
            yield confirm


def accepted(state: GameState, order: od.Order) -> Iterator[od.Order]:
    """What ``legal_orders`` makes of one candidate: the order if ``engine.check`` accepts it,
    each route of an ambiguous blitz (``via``), and the same move of the whole group. Random
    play checks candidates one at a time with it (``candidate_orders``)."""
    try:
        engine.check(state, order)
    except AmbiguousOrder as amb:
        # A blitz with several routes: offer each route explicitly.
        if isinstance(order, od.Move) and not order.via:
            for via in amb.choices:
                alt = order.model_copy(update={"via": (via,)})
                if _accepted(state, alt):
                    yield alt
                    yield from _whole_group(state, alt)
        return
    except RulesError:
        return
    yield order
    if isinstance(order, od.Move):
        yield from _whole_group(state, order)


def _whole_group(state: GameState, move: od.Move) -> Iterator[od.Order]:
    """The same move for every unit of that type there that can make it, when more than one."""
    ((name, _),) = move.units.items()
    aboard = _aboard(state, move)
    n = sum(1 for u in _groups(state, move.power).get((move.frm, name, aboard), ())
            if aboard or board.remaining(state, u) > 0)
    if n > 1:
        group = move.model_copy(update={"units": {name: n}})
        if _accepted(state, group):
            yield group


def _aboard(state: GameState, move: od.Move) -> bool:
    ((name, _),) = move.units.items()
    return state.edition.is_sea(move.frm) and state.edition.units[name].domain == "land"


def _accepted(state: GameState, order: od.Order) -> bool:
    try:
        engine.check(state, order)
    except RulesError:
        return False
    return True


def candidate_orders(state: GameState, power: str) -> Iterator[od.Order]:
    """Cheap, unchecked candidates for ``power`` now: a superset of what ``legal_orders``
    yields, except the variants it derives from accepted ones (``via`` routes, whole-group
    moves, ``end confirm``)."""
    if state.winner is not None or power not in state.edition.powers:
        return
    if state.phase == "conduct_combat":
        yield from _casualty_candidates(state, power)
        yield from _submarine_candidates(state, power)
    for more in reg.candidates_in(state.phase, anyone=True):  # a mechanism's battle decisions
        yield from more(state, power)
    if power != state.power:
        return
    for more in reg.candidates_in(state.phase, first=True):  # the mechanisms' first
        yield from more(state, power)
    match state.phase:
        case "purchase":
            yield from _purchase_candidates(state, power)
        case "combat_move" | "noncombat_move":
            yield from _move_candidates(state, power)
        case "conduct_combat":
            yield from _battle_candidates(state, power)
        case "mobilize":
            yield from _place_candidates(state, power)
        case _:
            pass
    for more in reg.candidates_in(state.phase):  # what the mechanisms add (rules.turn.registry)
        yield from more(state, power)
    yield od.EndPhase(power=power, phase=state.phase)


# --------------------------------------------------------------------------------------------
# Purchase


def _purchase_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    have = s.treasury.get(power, 0)
    for name in s.edition.units:
        price = tech.cost(s, power, name)
        if price is not None and price <= have:
            yield od.Buy(power=power, units={name: 1})
    if s.purchase:
        yield od.ClearPurchase(power=power)


# --------------------------------------------------------------------------------------------
# Movement


def _groups(s: GameState, power: str) -> dict[tuple[str, str, bool], list[Unit]]:
    """Own movable units by (space, type, aboard), in a stable order."""
    noncombat = s.phase == board.NONCOMBAT
    out: dict[tuple[str, str, bool], list[Unit]] = {}
    for u in sorted(s.units.values(), key=lambda x: x.id):
        if u.owner != power:
            continue
        ut = s.edition.units[u.type]
        aboard = u.carried_by is not None and ut.domain == "land"
        # Cargo loaded this phase is stopped but may still offload (UT-8, CM-28).
        if u.stopped and not (aboard and u.assault is None):
            continue
        if ut.abilities.fixed or (board.remaining(s, u) <= 0 and ut.domain != "land"):
            continue
        if noncombat and ut.domain != "air" and (u.combat_moved or u.fought):
            continue  # NC-1
        out.setdefault((u.space, u.type, aboard), []).append(u)
    return out


def _move_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    ed = s.edition
    for (space, name, aboard), units in _groups(s, power).items():
        dom = ed.units[name].domain
        left = max(board.remaining(s, u) for u in units)
        if dom == "land" and aboard:
            targets = sorted(t for t in ed.neighbours[space] if not ed.is_sea(t))
        elif dom == "land":
            targets = _land_targets(s, power, space, left, units)
        elif dom == "sea":
            targets = _sea_targets(s, space, left)
        else:
            targets = _air_targets(s, power, space, left)
        vary = hooks.variants_of(od.Move)  # what the mechanisms add to a move
        for to in targets:
            move = od.Move(power=power, units={name: 1}, frm=space, to=to)
            yield move
            for variants in vary:
                yield from variants(s, move)


def _land_targets(s: GameState, power: str, space: str, left: int,
                  units: list[Unit]) -> list[str]:
    ed = s.edition
    if any(u.moved for u in units):
        return []  # land units that moved stop for the phase (CM-3, UT-10)
    dist = board.dist_table(ed, "land").get(space, {})
    out = [t for t, d in dist.items() if 0 < d <= left]
    # Loading: only zones next to this territory that hold a friendly transport (UT-8).
    for z in ed.neighbours[space]:
        if ed.is_sea(z) and any(ed.units[t.type].abilities.transport_capacity
                                and board.may_share(s, t.owner, power) for t in s.units_in(z)):
            out.append(z)
    return sorted(out, key=list(ed.spaces).index)


def _sea_targets(s: GameState, space: str, left: int) -> list[str]:
    dist = board.dist_table(s.edition, "sea").get(space, {})
    order = list(s.edition.spaces)
    return sorted((z for z, d in dist.items() if 0 < d <= left), key=order.index)


def _air_targets(s: GameState, power: str, space: str, left: int) -> list[str]:
    ed = s.edition
    out: list[str] = []
    combat_phase = s.phase == board.COMBAT
    for t in ed.spaces:
        if t == space or board.air_distance(ed, space, t) > left:
            continue
        if combat_phase:
            hostile = (bool(board.enemy_units(s, t, power)) if ed.is_sea(t)
                       else board.is_hostile_territory(s, t, power)
                       or hooks.attacks_neutral(s, t, power))  # UN-2: attacking a neutral
            if not hostile:
                continue  # CM-4: air units end a combat move in combat
        elif not ed.is_sea(t) and not board.friendly_at_turn_start(s, t, power):
            continue  # NC-6: land only where it was friendly at the start of the turn
        out.append(t)
    return out


# --------------------------------------------------------------------------------------------
# Conduct Combat


def _battle_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    for b in s.battles.values():
        if b.step == "done" or b.attacker != power:
            continue
        yield od.Battle(power=power, space=b.space)
        yield od.Battle(power=power, space=b.space, all=True)
        yield od.Press(power=power, space=b.space)
        targets = combat.retreat_options(s, b) or [b.space]
        for to in targets:
            yield od.Retreat(power=power, space=b.space, to=to)


def _submarine_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Strike or submerge (SS-2, SS-3): all submarines, or only some of them submerging."""
    ed = s.edition
    for b in s.battles.values():
        if b.step == "done" or not b.sea or (power != b.attacker and power not in b.defenders):
            continue
        ids = b.attacking if power == b.attacker else b.defending
        subs = sum(1 for i in ids if i in s.units and s.units[i].owner == power
                   and ed.units[s.units[i].type].abilities.submersible)
        if not subs:
            continue
        yield od.Strike(power=power, space=b.space)
        yield od.Submerge(power=power, space=b.space)
        for n in range(1, subs):
            yield od.Submerge(power=power, space=b.space, count=n)


def _casualty_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    for b in s.battles.values():
        if b.step != "casualties":
            continue
        side = combat.owed_side(b)
        if side is None:
            continue
        choosers = (b.attacker,) if side == "attacker" else b.defenders
        if power not in choosers:
            continue
        yield from _casualty_choices(s, b, side, power)


def _casualty_choices(s: GameState, b: BattleState, side: str,
                      power: str) -> Iterator[od.Order]:
    ed = s.edition
    hits = combat.owed_hits(b)
    lost, damaged = combat.default_choice(s, b, side)
    first: dict[str, int] = {}
    for uid in lost:
        u = s.units[uid]
        first[u.type] = first.get(u.type, 0) + ed.units[u.type].hits - u.damage
    for uid in damaged:
        u = s.units[uid]
        first[u.type] = first.get(u.type, 0) + 1
    targets = combat._targets(s, b, side)

    def which(units: dict[str, int]) -> Iterator[od.Order]:
        """The same losses, naming which unit of a type goes where units of it differ."""
        yield od.Casualties(power=power, space=b.space, units=units)
        for utype in units:
            pool = combat.worth_less_first(s, (u for u in targets if u.type == utype))
            if len({combat.worth_now(s, u) for u in pool}) < 2:
                continue
            starts = dict.fromkeys(u.start or u.space for u in pool)
            for where in list(starts)[1:] if len(starts) > 1 else ():
                # the first start is the default's (the one worth less now goes)
                yield od.Casualties(power=power, space=b.space, units=units,
                                    origins={utype: {where: 1}})

    seen: list[dict[str, int]] = []
    if first:
        seen.append(first)
        yield from which(first)
    # Other spreads of the same number of hits over the unit types present (H-1: the owner
    # chooses freely among the assignments that waste nothing; check enforces H-2..H-7).
    points: dict[str, int] = {}
    for u in targets:
        points[u.type] = points.get(u.type, 0) + ed.units[u.type].hits - u.damage
    names = sorted(points)
    made = 0
    ranges = [range(min(points[n], hits) + 1) for n in names]
    for combo in itertools.product(*ranges):
        if sum(combo) != hits:
            continue
        units = {n: k for n, k in zip(names, combo, strict=True) if k}
        if not units or units in seen:
            continue
        seen.append(units)
        yield from which(units)
        made += 1
        if made >= MAX_CASUALTY_CHOICES:
            return


# --------------------------------------------------------------------------------------------
# Mobilize


def _place_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    ed = s.edition
    if not s.purchase:
        return
    spaces: list[str] = []
    for f in production.eligible_factories(s, power):
        if production.cap_left(s, f) <= 0:
            continue
        spaces.append(f)
        spaces.extend(sorted(z for z in ed.neighbours[f] if ed.is_sea(z)))
    for name in sorted(s.purchase):
        where = spaces
        if ed.units[name].abilities.fixed:
            where = production.new_factory_sites(s, power, name)  # R-PLC-03, MO-6
        for space in dict.fromkeys(where):
            yield od.Place(power=power, units={name: 1}, space=space)


__all__ = ["accepted", "candidate_orders", "legal_orders"]
