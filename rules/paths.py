"""Paths for a move: the routes a land, sea or air unit may take from one space to another
within its movement, with the reason when none exists (CM-1..CM-25, NC-1..NC-7, AIR-1..AIR-5).
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.edition import Edition
from rules.errors import AmbiguousOrder, IllegalOrder
from rules.state import GameState, Unit

if TYPE_CHECKING:
    pass

from rules.board import (
    COMBAT,
    NONCOMBAT,
    air_distance_now,
    air_dists,
    canal_open,
    dist_table,
    full_move,
    has_enemy_destroyer,
    hostile_sea_why,
    is_hostile_sea,
    is_hostile_territory,
    is_neutral,
    neutral_fee,
    remaining,
    unowned_neutrals,
)


@dataclass
class PathResult:
    path: tuple[str, ...]
    blitzed: tuple[str, ...] = ()
    stop: bool = False  # entered a hostile space: must stop there (CM-3)


def _paths(ed: Edition, frm: str, to: str, budget: int, via: tuple[str, ...],
           domain: str) -> list[tuple[str, ...]]:
    """Candidate paths of minimal length <= budget, following ``via`` when given."""
    if via:
        path = (frm, *via, to)
        for a, b in itertools.pairwise(path):
            if b not in ed.neighbours[a]:
                raise IllegalOrder(f"{a} and {b} are not adjacent (MAP-1); check the 'via' list.")
        return [path]
    if frm == to:
        return []

    def ok(space: str) -> bool:
        sp = ed.spaces[space]
        if sp.impassable:
            return False
        if domain == "land":
            return sp.kind == "land"
        if domain == "sea":
            return sp.kind == "sea"
        return True

    # All simple minimal paths by BFS layers (budgets are small: at most 6).
    best: list[tuple[str, ...]] = []
    layer: list[tuple[str, ...]] = [(frm,)]
    for _ in range(budget):
        nxt: list[tuple[str, ...]] = []
        for p in layer:
            for y in sorted(ed.neighbours[p[-1]]):
                if y in p or not ok(y):
                    continue
                q = (*p, y)
                if y == to:
                    best.append(q)
                else:
                    nxt.append(q)
        if best:
            return best
        if domain == "air":
            # Air paths: keep one path per frontier space (cost is all that matters).
            seen: dict[str, tuple[str, ...]] = {}
            for p in nxt:
                seen.setdefault(p[-1], p)
            nxt = list(seen.values())
        layer = nxt
    return []


def _land_path(s: GameState, u: Unit, frm: str, to: str, via: tuple[str, ...],
               phase: str) -> PathResult:
    ed = s.edition
    power = u.owner
    budget = remaining(s, u)
    blitz = ed.units[u.type].abilities.blitz
    cands = _paths(ed, frm, to, max(budget, len(via) + 1), via, "land")
    if not cands:
        return _no_path(s, u, frm, to, budget, "land")
    reasons: list[str] = []
    good: list[PathResult] = []
    for path in cands:
        if len(path) - 1 > budget:
            reasons.append(
                f"{u.type.capitalize()} moves {full_move(s, u)}; {frm} → {to} is "
                f"{len(path) - 1} (CM-2)."
            )
            continue
        blitzed: list[str] = []
        bad = None
        for i, sp in enumerate(path[1:], start=1):
            last = i == len(path) - 1
            if ed.spaces[sp].kind != "land":
                bad = f"{u.type} cannot enter sea zone {sp} except by loading onto a transport."
                break
            if ed.spaces[sp].impassable or (is_neutral(s, sp) and neutral_fee(s) is None):
                # MAP-8: neutrals can be neither entered nor passed through (also with 'via').
                bad = (f"{sp} is neutral and impassable: no unit may enter or pass through it "
                       "(MAP-8).")
                break
            if is_neutral(s, sp):
                if phase == NONCOMBAT:
                    bad = (f"{sp} is neutral: in Non-combat Movement land units may not enter "
                           "a neutral territory (R-NEU-05, R-NCM-03). Violate it in Combat "
                           "Movement, paying the fee (R-NEU-02).")
                elif not last:
                    bad = (f"{sp} is neutral: land units that enter a neutral territory must stop "
                           "there (R-NEU-02), and tanks cannot blitz through one (R-ARM-03, "
                           f"R-ARM-05); {u.type} cannot move on to {to}.")
                if bad:
                    break
                continue  # a violation: taken at once, the fee paid (R-NEU-02)
            if phase == NONCOMBAT:
                if not s.friendly(s.owners.get(sp), power):
                    bad = (f"In Noncombat Move land units may not enter or pass through hostile "
                           f"{sp} (NC-5).")
                    break
                continue
            if is_hostile_territory(s, sp, power) and not last:
                occupied = [x for x in s.units_in(sp) if s.enemy(x.owner, power)]
                if blitz and not occupied and i == 1:
                    blitzed.append(sp)  # CM-25
                    continue
                if blitz and occupied:
                    still = sorted({x.type for x in occupied
                                    if ed.units[x.type].abilities.factory
                                    or ed.units[x.type].abilities.anti_air})
                    alone = (f" (an {' and an '.join(still)} alone stops a blitz too)"
                             if len(still) == len({x.type for x in occupied}) else "")
                    bad = (f"Tanks blitz only through unoccupied hostile territories; {sp} holds "
                           f"enemy units{alone}, so the tank must stop there (CM-26, R-ARM-03, "
                           "A-05).")
                else:
                    bad = (f"{u.type.capitalize()} must stop on entering hostile {sp} (CM-3); "
                           f"it cannot move on to {to}.")
                break
        if bad:
            reasons.append(bad)
            continue
        good.append(PathResult(tuple(path), tuple(blitzed), stop=True))
    if not good:
        raise IllegalOrder(reasons[0])
    plain = [g for g in good if not g.blitzed]
    if plain:
        return plain[0]
    through = sorted({g.blitzed[0] for g in good})
    if len(through) > 1:
        raise AmbiguousOrder(
            f"Several blitz routes reach {to}: through {', '.join(through)}. Add 'via <space>'.",
            through,
        )
    return good[0]


def _sea_path(s: GameState, u: Unit, frm: str, to: str, via: tuple[str, ...],
              phase: str) -> PathResult:
    ed = s.edition
    power = u.owner
    budget = remaining(s, u)
    sub = ed.units[u.type].abilities.ignores_hostile_sea
    closed = set(ed.map.closed_sea_zones)
    cands = _paths(ed, frm, to, max(budget, len(via) + 1), via, "sea")
    if not cands:
        return _no_path(s, u, frm, to, budget, "sea")
    reasons: list[str] = []
    for path in cands:
        if len(path) - 1 > budget:
            reasons.append(
                f"{u.type.capitalize()} moves {full_move(s, u)}"
                f"{f' and has {budget} left' if u.moved else ''}; {frm} → {to} is "
                f"{len(path) - 1} (US-2)."
            )
            continue
        bad = None
        stop = False
        for i, (a, b) in enumerate(itertools.pairwise(path), start=1):
            last = i == len(path) - 1
            if ed.spaces[b].kind != "sea":
                bad = f"{u.type.capitalize()} is a sea unit and cannot enter {b} (US-1)."
                break
            if a in closed or b in closed:
                bad = (f"Sea units may never move into or out of {next(iter(closed & {a, b}))}: "
                       "Turkey has closed the straits (MAP-9).")
                break
            if not canal_open(s, a, b, power):
                canal = ed.canal_links[frozenset((a, b))]
                bad = (f"The {canal.name} between {a} and {b} is closed to {s.side(power)} "
                       f"ships: {s.side(power)} did not control {' and '.join(canal.controlled_by)}"
                       " at the start of this turn (MAP-12).")
                break
            hostile = is_hostile_sea(s, b, power)
            if sub:
                if has_enemy_destroyer(s, b, power):
                    if phase == NONCOMBAT and not last:
                        bad = (f"Submarines stop on entering a zone with an enemy destroyer "
                               f"({b}); {to} is beyond it (UD-2).")
                        break
                    if not last:
                        bad = (f"Submarines must stop on entering {b}: it holds an enemy "
                               "destroyer (CM-24/UD-2).")
                        break
                    stop = True
                continue
            if hostile:
                if phase == NONCOMBAT:
                    bad = (f"In Noncombat Move sea units may not enter hostile {b} "
                           f"({hostile_sea_why(s)}) (NC-8, R-NCM-05).")
                    break
                if not last:
                    bad = (f"{u.type.capitalize()} must stop in {b}: it is hostile, "
                           f"{hostile_sea_why(s)} (CM-27/US-2).")
                    break
                stop = True
        if bad:
            reasons.append(bad)
            continue
        return PathResult(tuple(path), (), stop)
    raise IllegalOrder(reasons[0])


def _air_path(s: GameState, u: Unit, frm: str, to: str, via: tuple[str, ...],
              phase: str = COMBAT) -> PathResult:
    """An air route within range (AIR-6, R-AIR-02/03). Unowned neutrals may be flown over only in
    Combat Move, as a violation (Classic R-NEU-02); never to end there. Without ``via`` the
    route is a shortest one, and among those the one over the fewest neutrals, then past the
    fewest enemy antiaircraft guns (R-AIR-05); 'via' picks another."""
    ed = s.edition
    budget = remaining(s, u)
    fee = neutral_fee(s)
    neutrals = unowned_neutrals(s)
    over = phase == COMBAT and fee is not None  # neutrals may be flown over (and violated)
    if ed.spaces[to].impassable or (to in neutrals and fee is None):
        raise IllegalOrder(f"{to} is neutral: air units may not fly over or into it (MAP-8).")
    if to in neutrals:
        raise IllegalOrder(
            f"{to} is neutral: aircraft may not end a move in a neutral territory (R-NEU-02, "
            "R-NCM-04). In Combat Movement they may fly over it, which violates it (A-30)."
        )
    if via:
        path = (frm, *via, to)
        for a, b in itertools.pairwise(path):
            if b not in ed.neighbours[a]:
                raise IllegalOrder(f"{a} and {b} are not adjacent (MAP-1); check the 'via' list.")
            if ed.spaces[b].impassable or (b in neutrals and fee is None):
                raise IllegalOrder(f"{b} is neutral: air units may not fly over it (MAP-8).")
            if b in neutrals and not over:
                raise IllegalOrder(
                    f"{b} is neutral: in Non-combat Movement aircraft may not fly over a neutral "
                    "territory (R-NEU-05, R-NCM-04). Choose a route around it."
                )
    else:
        blocked = frozenset() if over else neutrals
        d = air_dists(ed, frm, blocked).get(to, 10**6)
        if d > budget:
            around = ""
            if not over and fee is not None and air_distance_now(s, frm, to, True) < d:
                around = (" going around neutral territories, which aircraft may not fly over "
                          "in Non-combat Movement (R-NCM-04)")
            raise IllegalOrder(
                f"{u.type.capitalize()} has {budget} of {full_move(s, u)} movement left "
                f"this turn; {frm} → {to} is {d if d < 10**6 else 'unreachable'}{around} "
                "(CM-14/AIR-6, R-AIR-02)."
            )
        path = _best_air_path(s, u.owner, frm, to, blocked, phase, d)
    if len(path) - 1 > budget:
        raise IllegalOrder(
            f"{u.type.capitalize()} has {budget} movement left; that route is {len(path) - 1} "
            "(CM-14, R-AIR-02)."
        )
    return PathResult(tuple(path))


def _best_air_path(s: GameState, power: str, frm: str, to: str, blocked: frozenset[str],
                   phase: str, length: int) -> tuple[str, ...]:
    """Among the shortest routes (``length`` steps), the one over the fewest neutrals, then
    past the fewest enemy antiaircraft guns (each costs a die per aircraft in Combat Move,
    R-AIR-05); ties by name."""
    ed = s.edition
    back = air_dists(ed, to, blocked)  # steps to the target: only shortest routes are tried
    neutrals = unowned_neutrals(s)
    guns: dict[str, int] = {}
    if phase == COMBAT and ed.rules.rules.aa_overflight_fire:
        for g in s.units.values():
            if (ed.units[g.type].abilities.anti_air and g.carried_by is None
                    and s.enemy(g.owner, power) and not ed.is_sea(g.space)):
                guns[g.space] = guns.get(g.space, 0) + 1

    def weight(y: str) -> tuple[int, int, int]:
        if y == to:
            return (1, 0, 0)
        return (1, int(y in neutrals), guns.get(y, 0))

    best: dict[str, tuple[int, int, int]] = {frm: (0, 0, 0)}
    heap: list[tuple[tuple[int, int, int], tuple[str, ...]]] = [((0, 0, 0), (frm,))]
    while heap:
        cost, path = heapq.heappop(heap)
        x = path[-1]
        if x == to:
            return path
        if cost > best[x]:
            continue
        for y in sorted(ed.neighbours[x]):
            if y in blocked or cost[0] + 1 + back.get(y, 10**6) > length:
                continue
            w = weight(y)
            c = (cost[0] + w[0], cost[1] + w[1], cost[2] + w[2])
            if y not in best or c < best[y]:
                best[y] = c
                heapq.heappush(heap, (c, (*path, y)))
    raise IllegalOrder(f"{to} cannot be reached from {frm} by air (MAP-1).")


def _no_path(s: GameState, u: Unit, frm: str, to: str, budget: int, domain: str) -> PathResult:
    ed = s.edition
    if ed.spaces[to].impassable:
        raise IllegalOrder(f"{to} is neutral and impassable: no unit may enter it (MAP-8).")
    if domain == "land" and ed.spaces[to].kind == "sea":
        raise IllegalOrder(f"{u.type} cannot move into {to} on its own (UL-1).")
    if domain == "sea" and ed.spaces[to].kind == "land":
        raise IllegalOrder(f"{u.type.capitalize()} is a sea unit and cannot enter {to} (US-1).")
    rule = "CM-2" if domain == "land" else "US-2"
    # CM-2/US-2: say how far the unit moves and how far the target is, so the player can act.
    dist = _domain_distance(ed, frm, to, domain)
    far = f"{frm} → {to} is {dist}" if dist is not None else f"{to} cannot be reached from {frm}"
    left = f", {budget} left this turn" if budget != full_move(s, u) else ""
    raise IllegalOrder(
        f"{u.type.capitalize()} moves {full_move(s, u)}{left}; {far} ({rule}). "
        "Choose a closer space."
    )


def _domain_distance(ed: Edition, frm: str, to: str, domain: str) -> int | None:
    """Steps between two spaces for land or sea units, ignoring who holds what (MAP-1, MAP-8)."""
    return dist_table(ed, "land" if domain == "land" else "sea").get(frm, {}).get(to)
