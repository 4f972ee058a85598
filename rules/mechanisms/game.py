"""The game itself as a mechanism: its start (from the setup or a position), turns and phase
changes, the end of a game (won, drawn, cancelled, conceded), standing casualty orders, dice
records and game-master edits.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.edition import Edition, load_edition
from rules.errors import InvalidOrder
from rules.state import GameState, TurnMarks, Unit
from rules.turn import registry as reg
from rules.words import possessive

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def empty_state(ed: Edition) -> GameState:
    return GameState(
        edition=ed,
        options=frozenset(),
        round=1,
        power=ed.turn_order[0],
        phase=ed.phase_ids[0],
        treasury={p: 0 for p in ed.powers},
        owners={},
        units={},
        next_id=1,
    )


def _build_start(ed: Edition, e: ev.GameStarted) -> GameState:
    opts = frozenset(e.options)
    pos = e.position or {}
    owners: dict[str, str | None] = {
        s.name: (None if s.impassable else s.original_owner)
        for s in ed.map.spaces
        if s.kind == "land"
    }
    setup = ed.map.setup
    if "errata" in opts:
        setup = ed.map.setup_variants.get("errata", setup)
        owners.update(ed.map.owners_variants.get("errata", {}))
    owners.update(pos.get("owners") or {})
    table: dict[str, dict[str, dict[str, int]]] = {
        s: {p: dict(u) for p, u in bp.items()} for s, bp in setup.items()
    }
    if pos.get("clear_all_units"):
        # Industrial complexes are printed on the board (UL-4): clearing pieces keeps them.
        table = {
            s: {p: {u: n for u, n in us.items() if ed.units[u].abilities.factory}
                for p, us in bp.items()}
            for s, bp in table.items()
        }
    for space, by_power in (pos.get("units") or {}).items():
        given = {p: {u: n for u, n in us.items() if n > 0} for p, us in by_power.items()}
        if not any(ed.units[k].abilities.factory for us in by_power.values() for k in us):
            # A printed industrial complex stays unless the position names one (UL-4).
            for holder, kept in table.get(space, {}).items():
                for kind, n in kept.items():
                    if ed.units[kind].abilities.factory:
                        given.setdefault(holder, {})[kind] = n
        table[space] = given
    units: dict[int, Unit] = {}
    next_id = 1
    damaged = pos.get("damaged") or {}
    for space in damaged:
        if not any(damaged[space].values()) or space in table:
            continue
        raise InvalidOrder(f"Position damaged: no units in {space} to be damaged.")
    for space in sorted(table, key=lambda s: list(ed.spaces).index(s)):
        by_power = table[space]
        sea = ed.is_sea(space)
        placed: list[Unit] = []
        # Ships first, then their cargo (fighters on carriers, land units on transports).
        # Larger cargo first, so that "2 transports, 2 tanks, 2 infantry" fits (UT-7).
        order = sorted(
            ((p, u, n) for p, us in by_power.items() for u, n in us.items()),
            key=lambda x: (ed.units[x[1]].domain != ("sea" if sea else "land"),
                           -ed.units[x[1]].abilities.transport_cost, x[0], x[1]),
        )
        for p, utype, n in order:
            for _ in range(n):
                carried: int | None = None
                ut = ed.units[utype]
                if sea and ut.domain != "sea":
                    carried = _find_berth(ed, placed, p, utype, owners)
                u = Unit(id=next_id, type=utype, owner=p, space=space, carried_by=carried,
                         start=space)
                next_id += 1
                placed.append(u)
        for p, dmg in (damaged.get(space) or {}).items():
            for utype, n in dmg.items():
                cands = [u for u in placed if u.owner == p and u.type == utype and u.damage == 0]
                if len(cands) < n:
                    raise InvalidOrder(
                        f"Position damaged: {n} of {p}'s {utype} in {space}, but "
                        f"{len(cands)} {'is' if len(cands) == 1 else 'are'} there.")
                for u in cands[:n]:
                    placed[placed.index(u)] = replace(u, damage=1)
        for u in placed:
            units[u.id] = u
    # Industrial complexes belong to whoever controls their territory (UL-4).
    for uid, u in list(units.items()):
        if ed.units[u.type].abilities.factory:
            o = owners.get(u.space)
            if o is not None and o != u.owner:
                units[uid] = replace(u, owner=o)
    treasury = {p: ed.powers[p].starting_treasury for p in ed.powers}
    treasury.update(pos.get("treasury") or {})
    first = ed.turn_order[0]
    return GameState(
        edition=ed,
        options=opts,
        round=int(pos.get("round", 1)),
        power=str(pos.get("power", first)),
        phase=ed.phase_ids[0],
        treasury=treasury,
        owners=owners,
        units=units,
        next_id=next_id,
        turn_start_owners=dict(owners),
        # Classic O-3: developments some powers start with when the option is chosen; a
        # position's 'techs' gives each power named its complete list.
        techs={p: tuple(ts) for p, ts in {**ed.ruleset(opts).starting_techs,
                                          **(pos.get("techs") or {})}.items() if ts},
        debts={p: n for p, n in (pos.get("debts") or {}).items() if n},
        standing={p: tuple(ts) for p, ts in (pos.get("standing") or {}).items() if ts},
    )


def _find_berth(
    ed: Edition, placed: list[Unit], power: str, utype: str, owners: dict[str, str | None]
) -> int | None:
    ut = ed.units[utype]
    side = ed.powers[power].side
    for host in placed:
        ht = ed.units[host.type]
        if ed.powers[host.owner].side != side:
            continue
        if ut.domain == "air" and ut.abilities.carrier_landable and ht.abilities.carrier_capacity:
            aboard = sum(1 for x in placed if x.carried_by == host.id)
            if aboard < ht.abilities.carrier_capacity:
                return host.id
        if ut.domain == "land" and ht.abilities.transport_capacity:
            used = sum(ed.units[x.type].abilities.transport_cost for x in placed
                       if x.carried_by == host.id)
            if used + ut.abilities.transport_cost <= ht.abilities.transport_capacity:
                return host.id
    raise InvalidOrder(
        f"No room for {possessive(power)} {utype} at sea: it needs a friendly "
        f"{'aircraft carrier' if ut.domain == 'air' else 'transport'} there (UC-2/UT-7)."
    )


@reg.evolver(ev.GameStarted)
def _ev_started(s: GameState, e: ev.GameStarted) -> GameState:
    return _build_start(load_edition(e.edition), e)


@reg.evolver(ev.TurnStarted)
def _ev_turn(s: GameState, e: ev.TurnStarted) -> GameState:
    units = {
        uid: replace(
            u,
            moved=0,
            combat_moved=False,
            stopped=False,
            fought=False,
            loaded=None,
            offloaded=False,
            assault=None,
            came_from=None,
            start=u.space,
            retreated=False,
            stranded=False,
            raid=False,
        )
        for uid, u in s.units.items()
    }
    return replace(
        s,
        round=e.round,
        power=e.power,
        units=units,
        turn_start_owners=dict(s.owners),
        captured_this_turn=frozenset(),
        placed={},
        purchase={},
        carrier_promises=(),
        battles={},
        marks=TurnMarks(),
    )


@reg.evolver(ev.PhaseChanged)
def _ev_phase(s: GameState, e: ev.PhaseChanged) -> GameState:
    units = s.units
    if e.phase in ("noncombat_move", "mobilize"):
        # A new movement phase: units that stopped in Combat Move stay stopped (NC-1) through
        # the "fought/combat_moved" flags; the per-phase stop flag resets.
        units = {uid: replace(u, stopped=False) if u.stopped else u for uid, u in s.units.items()}
    return replace(s, phase=e.phase, units=units)


@reg.evolver(ev.GameWon)
def _ev_won(s: GameState, e: ev.GameWon) -> GameState:
    return replace(s, winner=e.side)


@reg.evolver(ev.GameEnded)
def _ev_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, ended=e.result)


@reg.evolver(ev.StandingOrderSet)
def _ev_standing(s: GameState, e: ev.StandingOrderSet) -> GameState:
    return replace(s, standing={**s.standing, e.power: e.order})



@reg.evolver(ev.DiceCommitted)
@reg.evolver(ev.DiceEntropyFixed)
@reg.evolver(ev.DiceSeedRevealed)
# The side's concession changes nothing by itself; the GameWon after it ends the game.
@reg.evolver(ev.SideConceded)
def _ev_dice_record(s: GameState, e: ev.Event) -> GameState:
    # Commitments, entropy and revealed seeds are for verifiers (rules.dice_audit reads them
    # from the log); they change nothing on the board.
    return s


@reg.evolver(ev.EditApplied)
def _ev_edit(s: GameState, e: ev.EditApplied) -> GameState:
    """A game-master edit (``rules.edits``): units, owners and money only."""
    units = dict(s.units)
    for uid in e.removed:
        units.pop(uid, None)
    for uid, space, carried in e.moved:
        u = units[uid]
        units[uid] = replace(u, space=space, carried_by=carried, came_from=u.space)
    nid = s.next_id
    for uid, utype, owner, space, carried in e.added:
        # Placed as if they had been there all turn: free to move on the owner's next turn.
        units[uid] = Unit(id=uid, type=utype, owner=owner, space=space, carried_by=carried,
                          start=space)
        nid = max(nid, uid + 1)
    for uid, owner in e.reowned:
        units[uid] = replace(units[uid], owner=owner)
    owners = {**s.owners, **dict(e.owners)}
    treasury = {**s.treasury, **dict(e.treasury)}
    gone = set(e.removed)
    promises = tuple(p for p in s.carrier_promises if p[0] not in gone)
    return replace(s, units=units, owners=owners, treasury=treasury, next_id=nid,
                   carrier_promises=promises)



@reg.order(od.StandingCasualties, in_turn=False)
def _decide_standing(tx: Tx, order: od.StandingCasualties, dice: Dice) -> None:
    ed = tx.state.edition
    unknown = [u for u in order.order if u not in ed.units]
    if unknown:
        raise InvalidOrder(f"Unknown {'unit' if len(unknown) == 1 else 'units'} in standing "
                           f"order: {', '.join(unknown)}.")
    if len(set(order.order)) != len(order.order):
        raise InvalidOrder("Name each unit type once in a standing casualty order.")
    tx.emit(ev.StandingOrderSet(power=order.power, order=tuple(order.order)))

