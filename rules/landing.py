"""Where air units can land at the end of the turn, all at once (AIR-4, AIR-5, NC-6, UF-2, UC-2).

A landing plan seats every airborne air unit of the acting power that it can: in a territory
friendly since the start of the turn within its remaining range, or (fighters) on a friendly
carrier's free slot in a sea zone where that carrier can be at the end of the turn. Each carrier
ends in one sea zone and takes at most its free slots (two fighters, guests of allies included);
a carrier that can still make a noncombat move may go to any zone it reaches (AIR-4: "it may rely
on a carrier's noncombat move"), and a carrier bought this turn may be placed next to an eligible
complex (NC-6, A-22). The plan is the best over every choice of the carriers' zones, so a
carrier counted for one fighter is not counted again for a fighter elsewhere.

Classic counts the same way (R-CM-06 with its App. II example: a carrier that will move in
Non-combat Movement to collect the fighter counts; R-AIR-06: at most 2 fighters a carrier).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.state import GameState, Unit

if TYPE_CHECKING:
    from collections.abc import Iterable

COMBAT = "combat_move"
NONCOMBAT = "noncombat_move"
FAR = 10**6
SEARCH_BUDGET = 20_000  # nodes; past it the plan is taken as found (never a wrong refusal)


@dataclass(frozen=True)
class Deck:
    """A carrier that can take fighters at the end of the turn: one on the board (``carrier``),
    or one bought this turn and still to be placed (``carrier`` None)."""

    carrier: Unit | None
    room: int
    zones: frozenset[str]
    kind: str  # the carrier's unit type


@dataclass
class Plan:
    """The best landing found: where each airborne unit lands, and those left without one."""

    land: dict[int, str] = field(default_factory=dict)  # unit id -> territory within reach
    deck: dict[int, tuple[Deck, str]] = field(default_factory=dict)  # fighter -> carrier, zone
    lost: list[Unit] = field(default_factory=list)
    options: dict[int, int] = field(default_factory=dict)  # unit id -> landing options alone


def airborne(s: GameState, power: str) -> list[Unit]:
    """The power's air units not yet on a safe landing place: at sea and not aboard a carrier, or
    in a territory that has not been friendly since the start of the turn (NC-6)."""
    from rules.board import friendly_at_turn_start

    ed = s.edition
    out = [u for u in s.units.values()
           if u.owner == power and u.carried_by is None and ed.units[u.type].domain == "air"
           and (ed.is_sea(u.space) or not friendly_at_turn_start(s, u.space, power))]
    return sorted(out, key=lambda x: x.id)


def _carrier_reach(s: GameState, c: Unit, phase: str) -> frozenset[str]:
    """Sea zones an own carrier can end its noncombat move in. In Combat Move the proof may
    assume every battle is won (AIR-4), so hostile zones are crossed; in Noncombat Move the
    carrier may not enter hostile zones (NC-8) and canals must be open (MAP-12)."""
    from rules.board import canal_open, dist_table, is_hostile_sea, remaining

    ed = s.edition
    left = remaining(s, c)
    if phase != NONCOMBAT:
        return frozenset(z for z, d in dist_table(ed, "sea").get(c.space, {}).items()
                         if d <= left)
    closed = set(ed.map.closed_sea_zones)
    seen = {c.space: 0}
    frontier = [c.space]
    while frontier:
        nxt = []
        for x in frontier:
            if seen[x] >= left:
                continue
            for y in sorted(ed.neighbours[x]):
                if (y in seen or not ed.is_sea(y) or y in closed or x in closed
                        or not canal_open(s, x, y, c.owner) or is_hostile_sea(s, y, c.owner)):
                    continue
                seen[y] = seen[x] + 1
                nxt.append(y)
        frontier = nxt
    return frozenset(seen)


def decks(s: GameState, power: str, moving: bool, lift: Iterable[int] = ()) -> list[Deck]:
    """Friendly carriers with free slots and where each can be at the end of the turn.

    ``moving``: own carriers that may still make a noncombat move count every zone they reach
    (not once Noncombat Move is over). ``lift``: fighters aboard that are taking off now, so
    their slots are free.
    """
    from rules import production
    from rules.board import carrier_room, may_share

    ed = s.edition
    off = set(lift)
    phase = s.phase
    out: list[Deck] = []
    carriers = [c for c in s.units.values() if ed.units[c.type].abilities.carrier_capacity]
    for c in sorted(carriers, key=lambda x: (x.owner != power, x.id)):
        if not may_share(s, c.owner, power) or not ed.is_sea(c.space):
            continue
        room = carrier_room(s, c) + sum(1 for x in s.units.values()
                                        if x.carried_by == c.id and x.id in off)
        if room <= 0:
            continue  # UF-2 / UC-2: two fighters a carrier, guests included
        zones = frozenset({c.space})
        if (moving and c.owner == power and phase in (COMBAT, NONCOMBAT) and not c.combat_moved
                and not c.fought and not c.stopped and not c.retreated):
            zones |= _carrier_reach(s, c, phase)  # AIR-4: its noncombat move counts
        out.append(Deck(c, room, zones, c.type))
    new = [u for u, n in sorted(s.purchase.items()) for _ in range(n)
           if ed.units[u].abilities.carrier_capacity]
    if new:
        coast = frozenset(z for f in production.eligible_factories(s, power)
                          for z in ed.neighbours[f] if ed.is_sea(z))  # NC-6, A-22
        if coast:
            out.extend(Deck(None, ed.units[u].abilities.carrier_capacity, coast, u) for u in new)
    return out


def plan(s: GameState, power: str, *, moving: bool = True, fixed: Iterable[int] = (),
         lift: Iterable[int] = ()) -> Plan:
    """The landing plan that seats the most airborne air units of ``power``.

    ``moving``: air units may still fly their remaining movement and carriers may still move
    (Combat Move, Noncombat Move); otherwise everything lands where it is. ``fixed``: air units
    that land where they are now (they just ended their noncombat move there).
    """
    from rules.board import (
        air_dists,
        barred_lands,
        friendly_at_turn_start,
        remaining,
        unowned_neutrals,
    )

    key = (power, moving, frozenset(fixed), frozenset(lift))
    last = _memo
    if last is not None and last[0] is s and last[1] == key:
        return last[2]
    ed = s.edition
    pinned = set(fixed)
    out = Plan()
    flyers = airborne(s, power)
    if not flyers:
        return out
    # never flown over on the way to land (R-NCM-04), nor territories politics bar (NW-3)
    blocked = unowned_neutrals(s) | barred_lands(s, power)
    all_decks = decks(s, power, moving, lift)
    needs: list[tuple[Unit, list[tuple[int, frozenset[str]]]]] = []
    for u in flyers:
        left = remaining(s, u) if moving and u.id not in pinned else 0
        dist = air_dists(ed, u.space, blocked)
        near = [x for x, d in dist.items() if d <= left]
        lands = sorted(t for t in near
                       if not ed.is_sea(t) and friendly_at_turn_start(s, t, power))
        reach = frozenset(z for z in near if ed.is_sea(z))
        opts: list[tuple[int, frozenset[str]]] = []
        if ed.units[u.type].abilities.carrier_landable:
            opts = [(i, d.zones & reach) for i, d in enumerate(all_decks) if d.zones & reach]
        out.options[u.id] = len(lands) + len(opts)
        if lands:
            out.land[u.id] = min(lands, key=lambda t: (dist[t], t))
        elif opts:
            needs.append((u, opts))
        else:
            out.lost.append(u)
    if needs:
        seated = _seat(needs, all_decks)
        for (u, _), got in zip(needs, seated, strict=True):
            if got is None:
                out.lost.append(u)
            else:
                out.deck[u.id] = (all_decks[got[0]], got[1])
        out.lost.sort(key=lambda x: x.id)
    _remember(s, key, out)
    return out


# The last plan made: checking many orders on one state (legal_orders) plans it once.
_memo: tuple[GameState, tuple[object, ...], Plan] | None = None


def _remember(s: GameState, key: tuple[object, ...], p: Plan) -> None:
    global _memo  # a one-entry cache of a pure function of a frozen state
    _memo = (s, key, p)


def _seat(needs: list[tuple[Unit, list[tuple[int, frozenset[str]]]]],
          all_decks: list[Deck]) -> list[tuple[int, str] | None]:
    """Fighters to carrier slots, each carrier in one zone: the most fighters seated
    (branch and bound; the fighters with the fewest choices first)."""
    order = sorted(range(len(needs)), key=lambda i: (sum(len(z) for _, z in needs[i][1]), i))
    n = len(order)
    best: list[tuple[int, str] | None] = [None] * len(needs)
    best_count = -1
    where: dict[int, str] = {}
    room = [d.room for d in all_decks]
    chosen: list[tuple[int, str] | None] = [None] * len(needs)
    nodes = 0
    # Zones a carrier could go to that serve the same fighters are interchangeable: try one.
    serves: dict[tuple[int, str], frozenset[int]] = {}
    for j, (_, opts) in enumerate(needs):
        for d, zones in opts:
            for z in zones:
                serves[d, z] = serves.get((d, z), frozenset()) | {j}

    def distinct(d: int, zones: frozenset[str], fighter: Unit) -> list[str]:
        # Fewest moves first: where the carrier is, then where the fighter is, then by name.
        here = all_decks[d].carrier
        first = [z for z in (here.space if here else None, fighter.space) if z in zones]
        seen: dict[frozenset[int], str] = {}
        for z in [*first, *sorted(zones)]:
            seen.setdefault(serves[d, z], z)
        return list(seen.values())

    def go(k: int, count: int) -> bool:
        nonlocal best, best_count, nodes
        nodes += 1
        if count + (n - k) <= best_count:
            return False
        if k == n:
            best, best_count = list(chosen), count
            return count == n
        if nodes > SEARCH_BUDGET:
            # Too many choices to try them all: take the rest as seated (never a wrong refusal).
            for j in order[k:]:
                deck, zones = needs[j][1][0]
                chosen[j] = (deck, min(zones))
            best, best_count = list(chosen), n
            return True
        i = order[k]
        _, opts = needs[i]
        for d, zones in opts:
            if room[d] <= 0:
                continue
            picks = [where[d]] if d in where else distinct(d, zones, needs[i][0])
            for z in picks:
                if z not in zones:
                    continue
                fresh = d not in where
                where[d] = z
                room[d] -= 1
                chosen[i] = (d, z)
                done = go(k + 1, count + 1)
                room[d] += 1
                chosen[i] = None
                if fresh:
                    del where[d]
                if done:
                    return True
        return go(k + 1, count)

    go(0, 0)
    return best
