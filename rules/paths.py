"""Paths for a move: the routes a land, sea or air unit may take from one space to another
within its movement, with the reason when none exists (CM-1..CM-25, NC-1..NC-7, AIR-1..AIR-5).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules import orders as od
from rules.edition import Edition
from rules.errors import AmbiguousOrder, IllegalOrder
from rules.messages import Msg, catalogue, msg, own_rule
from rules.state import GameState, Unit
from rules.turn import hooks

if TYPE_CHECKING:
    pass

from rules.board import (
    COMBAT,
    NONCOMBAT,
    air_dists,
    attack_barred,
    barred_lands,
    barred_territory,
    canal_closed_why,
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
                raise IllegalOrder(msg("paths.not_adjacent", "MAP-1", a=a, b=b))
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
    # A tank blitzes (CM-25); a unit that blitzes only paired with one (Europe 1940 CM-20:
    # mechanized infantry with a tank) finds the same routes, the pairing checked by the move.
    blitz = ed.units[u.type].abilities.blitz or bool(ed.units[u.type].abilities.blitz_with)
    cands = _paths(ed, frm, to, max(budget, len(via) + 1), via, "land")
    if not cands:
        return _no_path(s, u, frm, to, budget, "land")
    reasons: list[Msg] = []
    good: list[PathResult] = []
    governed = hooks.governing(s)  # a mechanism's neutral rules (Europe 1940 §6), if any
    for path in cands:
        if len(path) - 1 > budget:
            reasons.append(msg("paths.land_too_far", "CM-2", unit=u.type, move=full_move(s, u),
                               frm=frm, to=to, dist=len(path) - 1))
            continue
        blitzed: list[str] = []
        bad: Msg | None = None
        for i, sp in enumerate(path[1:], start=1):
            last = i == len(path) - 1
            if ed.spaces[sp].kind != "land":
                bad = msg("paths.land_into_sea", unit=u.type, space=sp)
                break
            if governed is not None and not ed.spaces[sp].impassable and is_neutral(s, sp):
                bad = governed.enter(s, power, sp, phase, last, "land")
                if bad:
                    break
                continue
            if ed.spaces[sp].impassable or (is_neutral(s, sp) and neutral_fee(s) is None):
                # MAP-8: neutrals can be neither entered nor passed through (also with 'via').
                bad = msg("paths.neutral_impassable", "MAP-8", space=sp)
                break
            politics = barred_territory(s, sp, power)
            if politics is None and last and phase == COMBAT:
                politics = attack_barred(s, sp, power)
            if politics is not None:
                bad = politics  # NW-2..NW-4
                break
            if is_neutral(s, sp):
                if phase == NONCOMBAT:
                    bad = msg("paths.neutral_noncombat", "R-NEU-05, R-NCM-03", space=sp)
                elif not last:
                    bad = msg("paths.neutral_stop", "R-NEU-02", space=sp, unit=u.type, to=to)
                if bad:
                    break
                continue  # a violation: taken at once, the fee paid (R-NEU-02)
            if phase == NONCOMBAT:
                if not s.friendly(s.owners.get(sp), power):
                    bad = msg("paths.noncombat_hostile_land", "NC-5", space=sp)
                    break
                continue
            if is_hostile_territory(s, sp, power) and not last:
                occupied = [x for x in s.units_in(sp) if s.enemy(x.owner, power)]
                if blitz and not occupied and i == 1:
                    blitzed.append(sp)  # CM-25
                    continue
                if blitz and occupied:
                    still = sorted({x.type for x in occupied
                                    if ed.units[x.type].abilities.fixed
                                    or ed.units[x.type].abilities.anti_air})
                    alone = still if len(still) == len({x.type for x in occupied}) else []
                    bad = msg("paths.blitz_occupied", "CM-26, R-ARM-03, A-05", space=sp,
                              stoppers=alone, unit=u.type)
                else:
                    bad = msg("paths.land_must_stop", "CM-3", unit=u.type, space=sp, to=to)
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
        raise AmbiguousOrder(msg("paths.blitz_routes", to=to, through=through), through)
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
    reasons: list[Msg] = []
    for path in cands:
        if len(path) - 1 > budget:
            reasons.append(msg("paths.sea_too_far", "US-2", unit=u.type, move=full_move(s, u),
                               left=budget if u.moved else None, frm=frm, to=to,
                               dist=len(path) - 1))
            continue
        bad: Msg | None = None
        stop = False
        for i, (a, b) in enumerate(itertools.pairwise(path), start=1):
            last = i == len(path) - 1
            if ed.spaces[b].kind != "sea":
                bad = msg("paths.sea_unit_ashore", "US-1", unit=u.type, space=b)
                break
            if a in closed or b in closed:
                bad = msg("paths.straits_closed", "MAP-9", space=next(iter(closed & {a, b})))
                break
            if not canal_open(s, a, b, power, u.type):
                bad = canal_closed_why(s, a, b, power)
                break
            hostile = is_hostile_sea(s, b, power)
            if sub:
                if has_enemy_destroyer(s, b, power):
                    if phase == NONCOMBAT and not last:
                        bad = msg("paths.sub_stop_noncombat", "UD-2", space=b, to=to)
                        break
                    if not last:
                        bad = msg("paths.sub_stop", "CM-24/UD-2", space=b)
                        break
                    stop = True
                continue
            if hostile:
                if phase == NONCOMBAT:
                    bad = msg("paths.noncombat_hostile_sea", "NC-8, R-NCM-05", space=b,
                              why=hostile_sea_why(s))
                    break
                if not last:
                    bad = msg("paths.sea_must_stop", "CM-27/US-2", unit=u.type, space=b,
                              why=hostile_sea_why(s))
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
    governed = hooks.governing(s)  # a mechanism's neutral rules (Europe 1940 §6), if any
    if governed is not None and to in neutrals:
        bad = governed.enter(s, u.owner, to, phase, True, "air")
        if bad:
            raise IllegalOrder(bad)
        neutrals = neutrals - {to}  # the neutral it attacks; never over another one
    elif ed.spaces[to].impassable or (to in neutrals and fee is None):
        raise IllegalOrder(msg("paths.air_neutral_into", "MAP-8", space=to))
    elif to in neutrals:
        raise IllegalOrder(msg("paths.air_neutral_end", "R-NEU-02, R-NCM-04", space=to))
    barred = barred_lands(s, u.owner)  # NW-2..NW-4: neither into nor over
    why = barred_territory(s, to, u.owner) or (
        attack_barred(s, to, u.owner) if phase == COMBAT else None)
    if why is not None:
        raise IllegalOrder(why)
    if via:
        path = (frm, *via, to)
        for a, b in itertools.pairwise(path):
            if b not in ed.neighbours[a]:
                raise IllegalOrder(msg("paths.not_adjacent", "MAP-1", a=a, b=b))
            if governed is not None and b in neutrals:
                raise IllegalOrder(governed.enter(s, u.owner, b, phase, False, "air")
                                   or msg("paths.air_neutral_over", "MAP-8", space=b))
            if ed.spaces[b].impassable or (b in neutrals and fee is None):
                raise IllegalOrder(msg("paths.air_neutral_over", "MAP-8", space=b))
            if b in neutrals and not over:
                raise IllegalOrder(msg("paths.air_neutral_noncombat", "R-NEU-05, R-NCM-04",
                                       space=b))
            over_why = barred_territory(s, b, u.owner)
            if over_why is not None:
                raise IllegalOrder(over_why)
    else:
        blocked = (frozenset() if over else neutrals) | barred
        d = air_dists(ed, frm, blocked).get(to, 10**6)
        if d > budget:
            around = not over and fee is not None and air_dists(
                ed, frm, barred).get(to, 10**6) < d
            raise IllegalOrder(msg("paths.air_too_far", "CM-14/AIR-6, R-AIR-02", unit=u.type,
                                   left=budget, move=full_move(s, u), frm=frm, to=to,
                                   dist=d if d < 10**6 else None, around=around))
        path = _best_air_path(s, u.owner, frm, to, blocked, phase, d)
    if len(path) - 1 > budget:
        raise IllegalOrder(msg("paths.air_route_long", "CM-14, R-AIR-02", unit=u.type,
                               left=budget, dist=len(path) - 1))
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
    raise IllegalOrder(msg("paths.air_unreachable", "MAP-1", frm=frm, to=to))


def _no_path(s: GameState, u: Unit, frm: str, to: str, budget: int, domain: str) -> PathResult:
    ed = s.edition
    if ed.spaces[to].impassable:
        raise IllegalOrder(msg("paths.target_impassable", "MAP-8", space=to))
    if domain == "land" and ed.spaces[to].kind == "sea":
        raise IllegalOrder(msg("paths.land_into_sea_alone", "UL-1", unit=u.type, space=to))
    if domain == "sea" and ed.spaces[to].kind == "land":
        raise IllegalOrder(msg("paths.sea_unit_ashore", "US-1", unit=u.type, space=to))
    rule = "CM-2" if domain == "land" else "US-2"
    # CM-2/US-2: say how far the unit moves and how far the target is, so the player can act.
    dist = _domain_distance(ed, frm, to, domain)
    move = full_move(s, u)
    raise IllegalOrder(msg("paths.too_far", rule, unit=u.type, move=move,
                           left=budget if budget != move else None, frm=frm, to=to, dist=dist))


def _domain_distance(ed: Edition, frm: str, to: str, domain: str) -> int | None:
    """Steps between two spaces for land or sea units, ignoring who holds what (MAP-1, MAP-8)."""
    return dist_table(ed, "land" if domain == "land" else "sea").get(frm, {}).get(to)


def _blitz_occupied(p: Mapping[str, Any]) -> str:
    alone = p["stoppers"]
    named = " and ".join(f"{'an' if t[:1] in 'aeiou' else 'a'} {t}" for t in alone)
    also = f" ({named} alone stops a blitz too)" if alone else ""
    return (f"Tanks blitz only through unoccupied hostile territories; {p['space']} holds enemy "
            f"units{also}, so the {p['unit']} must stop there ({p['rule']}).")


def check_blitz_pairs(s: GameState, order: od.Move, land: list[tuple[Unit, PathResult]]
                      ) -> None:
    """Europe 1940 CM-20: a unit that blitzes only paired 1:1 with another (``blitz_with``:
    mechanized infantry with a tank) blitzes only as many as the partners that make the same
    blitz in the same order, starting and ending with it; ``land`` is each land unit of the
    order with its path."""
    ed = s.edition
    for u, pr in land:
        partners = ed.units[u.type].abilities.blitz_with
        if not partners or not pr.blitzed:
            continue
        pairs = sum(1 for x, q in land if x.type in partners and q.path == pr.path)
        riders = sum(1 for x, q in land if x.type == u.type and q.path == pr.path)
        if riders > pairs:
            raise IllegalOrder(msg("paths.blitz_unpaired", own_rule("CM-20"), unit=u.type,
                                   partners=list(partners), count=riders, have=pairs,
                                   space=pr.blitzed[0], frm=order.frm, to=order.to))


def _blitz_unpaired(p: Mapping[str, Any]) -> str:
    partner = " or ".join(p["partners"])
    with_ = (f"with {p['have']} {partner}{'s' if p['have'] != 1 else ''}" if p["have"]
             else f"without a {partner}")
    return (f"{p['unit'].capitalize()} blitzes only together with a {partner}, one {partner} "
            f"for each, the two starting and ending together ({p['rule']}): this move takes "
            f"{p['count']} {p['unit']} through empty hostile {p['space']} {with_}. Move them in "
            f"one order, e.g. 'move {p['count']} {p['unit']}, {p['count']} {p['partners'][0]} "
            f"from {p['frm']} to {p['to']}', or stop in {p['space']}.")


def _sea_too_far(p: Mapping[str, Any]) -> str:
    left = f" and has {p['left']} left" if p["left"] is not None else ""
    return (f"{p['unit'].capitalize()} moves {p['move']}{left}; {p['frm']} → {p['to']} is "
            f"{p['dist']} ({p['rule']}).")


def _air_too_far(p: Mapping[str, Any]) -> str:
    dist = p["dist"] if p["dist"] is not None else "unreachable"
    around = (" going around neutral territories, which aircraft may not fly over in Non-combat "
              "Movement (R-NCM-04)") if p["around"] else ""
    return (f"{p['unit'].capitalize()} has {p['left']} of {p['move']} movement left this turn; "
            f"{p['frm']} → {p['to']} is {dist}{around} ({p['rule']}).")


def _too_far(p: Mapping[str, Any]) -> str:
    left = f", {p['left']} left this turn" if p["left"] is not None else ""
    far = (f"{p['frm']} → {p['to']} is {p['dist']}" if p["dist"] is not None
           else f"{p['to']} cannot be reached from {p['frm']}")
    return (f"{p['unit'].capitalize()} moves {p['move']}{left}; {far} ({p['rule']}). Choose a "
            "closer space.")


catalogue("en", "paths", {
    "not_adjacent": "{a} and {b} are not adjacent ({rule}); check the 'via' list.",
    "land_too_far": "{unit:capitalize} moves {move}; {frm} → {to} is {dist} ({rule}).",
    "land_into_sea": "{unit} cannot enter sea zone {space} except by loading onto a transport.",
    "neutral_impassable": "{space} is neutral and impassable: no unit may enter or pass through "
                          "it ({rule}).",
    "neutral_noncombat": "{space} is neutral: in Non-combat Movement land units may not enter a "
                         "neutral territory ({rule}). Violate it in Combat Movement, paying the "
                         "fee (R-NEU-02).",
    "neutral_stop": "{space} is neutral: land units that enter a neutral territory must stop "
                    "there ({rule}), and tanks cannot blitz through one (R-ARM-03, R-ARM-05); "
                    "{unit} cannot move on to {to}.",
    "noncombat_hostile_land": "In Noncombat Move land units may not enter or pass through "
                              "hostile {space} ({rule}).",
    "blitz_occupied": _blitz_occupied,
    "land_must_stop": "{unit:capitalize} must stop on entering hostile {space} ({rule}); it "
                      "cannot move on to {to}.",
    "blitz_unpaired": _blitz_unpaired,
    "blitz_routes": "Several blitz routes reach {to}: through {through:join}. Add 'via <space>'.",
    "sea_too_far": _sea_too_far,
    "sea_unit_ashore": "{unit:capitalize} is a sea unit and cannot enter {space} ({rule}).",
    "straits_closed": "Sea units may never move into or out of {space}: Turkey has closed the "
                      "straits ({rule}).",
    "canal_closed": "The {canal} between {a} and {b} is closed to {side} ships: {side} did not "
                    "control {holders:join: and } at the start of this turn ({rule}).",
    "sub_stop_noncombat": "Submarines stop on entering a zone with an enemy destroyer ({space}); "
                          "{to} is beyond it ({rule}).",
    "sub_stop": "Submarines must stop on entering {space}: it holds an enemy destroyer ({rule}).",
    "noncombat_hostile_sea": "In Noncombat Move sea units may not enter hostile {space} ({why}) "
                             "({rule}).",
    "sea_must_stop": "{unit:capitalize} must stop in {space}: it is hostile, {why} ({rule}).",
    "air_neutral_into": "{space} is neutral: air units may not fly over or into it ({rule}).",
    "air_neutral_end": "{space} is neutral: aircraft may not end a move in a neutral territory "
                       "({rule}). In Combat Movement they may fly over it, which violates it "
                       "(A-30).",
    "air_neutral_over": "{space} is neutral: air units may not fly over it ({rule}).",
    "air_neutral_noncombat": "{space} is neutral: in Non-combat Movement aircraft may not fly "
                             "over a neutral territory ({rule}). Choose a route around it.",
    "air_too_far": _air_too_far,
    "air_route_long": "{unit:capitalize} has {left} movement left; that route is {dist} "
                      "({rule}).",
    "air_unreachable": "{to} cannot be reached from {frm} by air ({rule}).",
    "target_impassable": "{space} is neutral and impassable: no unit may enter it ({rule}).",
    "land_into_sea_alone": "{unit} cannot move into {space} on its own ({rule}).",
    "too_far": _too_far,
})
