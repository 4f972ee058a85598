"""Casualty choices in the combat: a player's choice checked against the model's constraints
(H-2..H-7), the referee's default (``casualties.default_losses`` on the units of the battle),
and the choices that are no choice (forced)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules import board
from rules.battle import model as bm
from rules.battle.casualties import (
    best_total,
    casualty_rank,
    default_losses,
    flow_ok,
    keep_last_land,
    keeps_last_land,
    vectors,
)
from rules.battle.forces import (
    cats_for_owed,
    chooser,
    class_caps,
    hit_points,
    owed_hits,
    targets,
    unit_class,
)
from rules.battle.model import AIR_ONLY, CLASSES, NO_AIR, NO_SUB, TRANSPORT
from rules.errors import IllegalOrder, InvalidOrder
from rules.messages import catalogue, msg
from rules.state import BattleState, GameState, Unit
from rules.words import agree, counted


def movement_left(s: GameState, u: Unit) -> int:
    """Spaces ``u`` may still move this turn (CM-14: air units' budget spans both phases)."""
    return max(board.full_move(s, u) - u.moved, 0)


def worth_now(s: GameState, u: Unit) -> tuple[int, int]:
    """What tells apart units of one type now: damage (H-6) and, for aircraft, the movement
    left to land with (units that fought on land or at sea move no further this turn)."""
    air = s.edition.units[u.type].domain == "air"
    return (u.damage, movement_left(s, u) if air else 0)


def worth_less_first(s: GameState, units: Iterable[Unit]) -> list[Unit]:
    """Units of one type, the one worth less now first: damaged before whole (H-6), then less
    movement left (an attacking aircraft with fewer spaces to land in)."""
    return sorted(units, key=lambda u: (-worth_now(s, u)[0], worth_now(s, u)[1], u.id))


def _picked(s: GameState, b: BattleState, utype: str, mine: list[Unit],
            origins: dict[str, int]) -> list[Unit]:
    """The units of ``utype`` a casualty order names by the space they started the turn in."""
    out: list[Unit] = []
    for where, n in origins.items():
        found = [u for u in worth_less_first(s, mine) if u.start == where and u not in out]
        if len(found) < n:
            came: dict[str, int] = {}
            for u in mine:
                came[u.start or u.space] = came.get(u.start or u.space, 0) + 1
            raise IllegalOrder(msg("choice.not_from", space=b.space, found=len(found),
                                   unit=utype, where=where, count=n, came=sorted(came.items())))
        out.extend(found[:n])
    return out


def validate_choice(s: GameState, b: BattleState, side: str, units: dict[str, int],
                    origins: dict[str, dict[str, int]] | None = None,
                    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Turn ``{type: hits}`` into lost/damaged unit ids, enforcing H-2..H-7.

    Within a type, the units named by where they started the turn (``origins``) take the hits
    first, then the one worth less now (``worth_less_first``)."""
    ed = s.edition
    hits = owed_hits(b)
    total = sum(units.values())
    if total != hits:
        raise IllegalOrder(msg("choice.wrong_total", "H-7", hits=hits, space=b.space,
                               total=total))
    hit = targets(s, b, side)
    lost: list[int] = []
    damaged: list[int] = []
    counts = [0, 0, 0, 0]
    origins = origins or {}
    for utype in origins:
        if utype not in units:
            raise InvalidOrder(msg("choice.origin_unlisted", unit=utype))
    for utype, n in units.items():
        if utype not in ed.units:
            raise InvalidOrder(msg("choice.unknown_unit", unit=utype))
        if sum(origins.get(utype, {}).values()) > n:
            raise InvalidOrder(msg("choice.origins_exceed", unit=utype, count=n))
        pool = [u for u in hit if u.type == utype]
        picked = _picked(s, b, utype, pool, origins.get(utype, {}))
        mine = picked + [u for u in worth_less_first(s, pool) if u not in picked]
        points = sum(hit_points(s, u) for u in mine)
        if not mine:
            raise IllegalOrder(msg("choice.none_of_type", "H-5", side=side, unit=utype,
                                   space=b.space))
        if n > points:
            raise IllegalOrder(msg("choice.too_few", "H-5", have=len(mine), unit=utype,
                                   space=b.space, points=points, count=n))
        left = n
        # Units named by origin take a hit each first: a whole two-hit unit is damaged (H-6).
        for u in picked:
            (damaged if hit_points(s, u) > 1 else lost).append(u.id)
            left -= 1
        # Two-hit units: first hits damage undamaged ones (H-6), further hits sink.
        undamaged = [u for u in mine if hit_points(s, u) > 1 and u not in picked]
        for u in undamaged:
            if left == 0:
                break
            damaged.append(u.id)
            left -= 1
        rank = {u.id: i for i, u in enumerate(mine)}
        for u in sorted(mine, key=lambda u: (-u.damage - (1 if u.id in damaged else 0),
                                             rank[u.id])):
            if left == 0:
                break
            if u.id in lost:
                continue
            if hit_points(s, u) - (1 if u.id in damaged else 0) >= 1:
                lost.append(u.id)
                if u.id in damaged:
                    damaged.remove(u.id)
                    left -= 1
                else:
                    left -= 1
        counts[unit_class(s, mine[0])] += n
    cats = cats_for_owed(b)
    _best, tmin = best_total(class_caps(s, hit), cats)
    if counts[TRANSPORT] > tmin:
        raise IllegalOrder(msg("choice.transports_last", "H-4/UT-4"))
    if not flow_ok(cats, counts):
        limits = {NO_AIR: "no_air", NO_SUB: "no_sub", AIR_ONLY: "air_only"}
        raise IllegalOrder(msg("choice.wasted", "H-7",
                               limits=[w for c, w in limits.items() if cats[c]]))
    return tuple(lost), tuple(damaged)


def preference(s: GameState, b: BattleState, side: str, units: list[Unit]) -> list[Unit]:
    """The default casualty order of these units (``casualties.casualty_rank``: transports
    last, the standing order, cheapest first; within a rank the one worth less now, less
    movement left, first); the attacker in a land battle keeps its last land unit."""
    ed = s.edition
    standing = s.standing.get(chooser(b, side, s), ())

    def key(u: Unit) -> tuple[int, int, int, int, str, int, int]:
        ut = ed.units[u.type]
        printed = ut.attack if side == "attacker" else ut.defense
        # Types of one rank: the lower printed value first, then by name (as the odds).
        return (*casualty_rank(ut, standing), printed, u.type, worth_now(s, u)[1],
                (ut.cost or 0) * 10 + u.id % 10)

    ordered = sorted(units, key=key)
    if keeps_last_land(bm.role(side), b.sea):
        keep_last_land(ordered, lambda u: ed.units[u.type].abilities.can_capture)
    return ordered


def default_choice(s: GameState, b: BattleState,
                   side: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The referee's default casualties (``casualties.default_losses``): lost and damaged ids.
    Undamaged two-hit units absorb free hits in the order they are in the battle (H-6)."""
    hit = targets(s, b, side)
    pref = preference(s, b, side, hit)
    at = {u.id: j for j, u in enumerate(pref)}
    hp = [hit_points(s, u) for u in pref]
    lost, dmg = default_losses([unit_class(s, u) for u in pref], hp, cats_for_owed(b),
                               owed_hits(b), absorbers=[at[u.id] for u in hit if hp[at[u.id]] > 1])
    return tuple(pref[j].id for j in lost), tuple(pref[j].id for j in dmg)


def forced_choice(s: GameState, b: BattleState,
                  side: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The choice when there is none to make: everything that may be hit dies, or only one
    kind of unit may take the hits (transports count only when they must, H-4)."""
    hit = targets(s, b, side)
    hits = owed_hits(b)
    if hits <= 0:
        return (), ()
    if hits >= sum(hit_points(s, u) for u in hit):
        return tuple(u.id for u in hit), ()
    cats = cats_for_owed(b)
    caps = class_caps(s, hit)
    best, tmin = best_total(caps, cats)
    found = [v for v in vectors(caps, best) if v[TRANSPORT] == tmin and flow_ok(cats, v)]
    if len(found) != 1:
        return None
    for cls, n in zip(CLASSES, found[0], strict=True):
        pool = [u for u in hit if unit_class(s, u) == cls]
        if n and n < sum(hit_points(s, u) for u in pool) and len(
                {(u.type, *worth_now(s, u)) for u in pool}) > 1:
            return None  # a real choice within this class (H-1: which unit of a type too)
    return default_choice(s, b, side)


# --------------------------------------------------------------------------------------------
# The English of the refusals


def _not_from(p: Mapping[str, Any]) -> str:
    listed = ", ".join(f"{k} ({v})" for k, v in p["came"])
    return (f"The battle in {p['space']} has {p['found']} {p['unit']} from {p['where']}, not "
            f"{p['count']}; the {p['unit']} units there came from: {listed or 'nowhere'}.")


def _too_few(p: Mapping[str, Any]) -> str:
    have = p["have"]
    return (f"There {agree(have, 'is', 'are')} {counted(have, p['unit'])} in the battle in "
            f"{p['space']}, able to take {counted(p['points'], 'hit')}, not {p['count']} "
            f"({p['rule']}).")


_LIMITS = {
    "no_air": "submarine hits may go only on ships, never on aircraft (H-2, R-SUB-02)",
    "no_sub": "air hits on submarines only with a friendly destroyer in the battle (H-3)",
    "air_only": "antiaircraft hits only on aircraft (R-LC-02, A-04)",
}


def _wasted(p: Mapping[str, Any]) -> str:
    return ("That choice wastes hits: " + "; ".join(_LIMITS[x] for x in p["limits"])
            + f"; assign them so that as many hits as possible count ({p['rule']}).")


catalogue("en", "choice", {
    "not_from": _not_from,
    "wrong_total": "{hits:counted:hit} must be assigned in {space}; the order assigns {total} "
                   "({rule}).",
    "origin_unlisted": "'{unit} from ...' names a unit type the order does not list.",
    "unknown_unit": "Unknown unit {unit!r}.",
    "origins_exceed": "The order names more {unit} by origin than it loses ({count}).",
    "none_of_type": "The {side} has no {unit} in the battle in {space} to take a hit ({rule}).",
    "too_few": _too_few,
    "transports_last": "Transports are chosen as casualties only when no other unit can take "
                       "the hit ({rule}).",
    "wasted": _wasted,
})
