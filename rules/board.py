"""The board in a state: what is hostile, neutral or friendly, canals, distances by land, sea
and air, a unit's movement left and the room aboard transports and carriers.

Queries only (no orders, no events): movement, the air landing plan, combat, legal candidates
and the map read the board through here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from rules import facilities, tech
from rules.edition import Edition
from rules.messages import Msg, catalogue, msg, own_rule
from rules.state import GameState, Unit
from rules.words import definite as _the
from rules.words import possessive

COMBAT = "combat_move"
NONCOMBAT = "noncombat_move"


# --------------------------------------------------------------------------------------------
# Space status


def is_hostile_territory(s: GameState, space: str, power: str) -> bool:
    """MAP-6: controlled by an enemy power."""
    return s.enemy(s.owners.get(space), power)


def enemy_units(s: GameState, space: str, power: str) -> list[Unit]:
    return [u for u in s.units_in(space) if s.enemy(u.owner, power)]


def at_war_with_anyone(s: GameState, power: str) -> bool:
    """``power`` is at war with some power: always where the edition has no politics; in Europe
    1940 a power at war with nobody is a "neutral power" (NW-3)."""
    return any(s.enemy(power, p) for p in s.edition.turn_order)


def may_share(s: GameState, a: str | None, b: str | None) -> bool:
    """Units of ``a`` and ``b`` may share territories, transports and carriers, and enter each
    other's territories: the same power, or allies both at war with someone (NW-1, NW-3, NW-4,
    MN-4, MN-6). Allies always, where the edition has no politics."""
    if a is None or b is None or not s.friendly(a, b):
        return False
    if a == b or s.edition.rules.politics is None:
        return True
    return at_war_with_anyone(s, a) and at_war_with_anyone(s, b)


def barred_territory(s: GameState, space: str, power: str) -> Msg | None:
    """Why ``power``'s units may neither enter nor pass through (nor fly over) ``space`` for
    politics' sake, or None: it is held by a power of the other side at peace with ``power``
    (M-4: neutral to it; NW-2, NW-3), or by an ally when one of the two is at war with nobody
    (NW-3, NW-4)."""
    owner = s.owners.get(space)
    if owner is None or owner == power or s.edition.is_sea(space):
        return None
    if s.at_peace(owner, power):
        return msg("board.at_peace_land", own_rule("NW-2/NW-3"), space=space, owner=owner,
                   power=power)
    if s.friendly(owner, power) and not may_share(s, owner, power):
        neutral = power if not at_war_with_anyone(s, power) else owner
        return msg("board.neutral_ally_land", own_rule("NW-3/NW-4"), space=space, owner=owner,
                   power=power, neutral=neutral)
    return None


def not_sharing(s: GameState, owner: str, power: str, space: str) -> Msg:
    """The refusal of ``power``'s units boarding or landing on ``owner``'s ships in ``space``
    (``may_share`` says no: NW-1, NW-3, MN-4, MN-6)."""
    neutral = power if not at_war_with_anyone(s, power) else owner
    return msg("board.not_sharing", own_rule("NW-1/NW-3"), owner=owner, power=power, space=space,
               neutral=neutral)


def barred_lands(s: GameState, power: str) -> frozenset[str]:
    """The territories ``barred_territory`` closes to ``power``'s units (none without
    politics)."""
    if s.edition.rules.politics is None:
        return frozenset()
    return frozenset(t for t in s.owners if barred_territory(s, t, power) is not None)


def attack_barred(s: GameState, space: str, power: str) -> Msg | None:
    """NW-2: ``power`` may not attack a territory held by, or holding units of, a power it is
    not at war with (in a sea zone such units are ignored instead)."""
    if s.edition.is_sea(space):
        return None
    why = barred_territory(s, space, power)
    if why is not None:
        return why
    others = sorted({u.owner for u in s.units_in(space) if s.at_peace(u.owner, power)})
    if others:
        return msg("board.at_peace_units", own_rule("NW-2"), space=space, owners=others,
                   power=power)
    return None


def is_hostile_sea(s: GameState, space: str, power: str) -> bool:
    """MAP-7: a sea zone is hostile iff it holds an enemy surface warship; with the rule switch
    ``hostile_sea`` "any_unit" (Classic R-NAV-01, §4.2) any enemy unit makes it enemy-occupied,
    submarines and transports included."""
    ed = s.edition
    foes = enemy_units(s, space, power)
    if ed.rules.rules.hostile_sea == "any_unit":
        return bool(foes)
    return any(ed.units[u.type].abilities.surface_warship for u in foes)


def hostile_sea_why(s: GameState) -> Msg:
    """What makes a sea zone hostile in this edition, for messages (MAP-7 / R-NAV-01)."""
    if s.edition.rules.rules.hostile_sea == "any_unit":
        return msg("board.hostile_sea_any", "R-NAV-01")
    return msg("board.hostile_sea_warships", "MAP-7")


@lru_cache(maxsize=32)
def _neutral_lands(ed: Edition) -> tuple[str, ...]:
    """Passable territories printed without an owner: the neutrals (Classic R-NEU-01)."""
    return tuple(t for t, sp in ed.spaces.items()
                 if sp.kind == "land" and not sp.impassable and sp.original_owner is None)


def is_neutral(s: GameState, space: str) -> bool:
    """An unowned neutral that can be entered (Classic R-NEU-01): a passable neutral nobody has
    taken yet. Impassable neutrals (1941 MAP-8) are ``Space.impassable`` instead."""
    return space in _neutral_lands(s.edition) and s.owners.get(space) is None


def unowned_neutrals(s: GameState) -> frozenset[str]:
    return frozenset(t for t in _neutral_lands(s.edition) if s.owners.get(t) is None)


def neutral_fee(s: GameState) -> int | None:
    """The price of violating a neutral (Classic R-NEU-02); None: neutrals are impassable."""
    return s.edition.rules.rules.neutral_fee


def enemy_aa_guns(s: GameState, space: str, power: str) -> list[Unit]:
    """Enemy antiaircraft guns standing in a territory (Classic R-AAG-03), not cargo."""
    ed = s.edition
    return [u for u in enemy_units(s, space, power)
            if ed.units[u.type].abilities.anti_air and u.carried_by is None]


def has_enemy_destroyer(s: GameState, space: str, power: str) -> bool:
    ed = s.edition
    return any(ed.units[u.type].abilities.anti_sub for u in enemy_units(s, space, power))


def canal_open(s: GameState, a: str, b: str, power: str, unit: str | None = None) -> bool:
    """MAP-12 / CS-1: the side must have held all the canal's territories at the start of the
    turn (CS-4: a canal split between sides is closed to all); closed where one of them was
    neutral (CS-3) or held by a power of the other side, at war with ``power`` (CS-3) or not
    (CS-2, best reading: the referee cannot ask that power, so it is taken as refused).
    CS-6: submarines (``unit``) pass a canal whose data says so whoever holds it."""
    canal = s.edition.canal_links.get(frozenset((a, b)))
    if canal is None:
        return True
    if unit is not None and canal.submarines_always_pass \
            and s.edition.units[unit].abilities.submersible:
        return True
    return all(s.friendly(s.turn_start_owners.get(t), power) for t in canal.controlled_by)


def canal_closed_why(s: GameState, a: str, b: str, power: str) -> Msg:
    """Why the canal between ``a`` and ``b`` is closed to ``power``'s ships (``canal_open``)."""
    canal = s.edition.canal_links[frozenset((a, b))]
    holders = [s.turn_start_owners.get(t) for t in canal.controlled_by]
    peace = sorted({h for h in holders if h is not None and s.at_peace(h, power)})
    if peace:
        return msg("board.canal_at_peace", own_rule("CS-2"), canal=canal.name, a=a, b=b,
                   owners=peace, power=power)
    unheld = [t for t, h in zip(canal.controlled_by, holders, strict=True) if h is None]
    if unheld:
        return msg("board.canal_neutral", own_rule("CS-3/CS-5"), canal=canal.name, a=a, b=b,
                   spaces=unheld)
    return msg("paths.canal_closed", "MAP-12", canal=canal.name, a=a, b=b, side=s.side(power),
               holders=canal.controlled_by)


def friendly_at_turn_start(s: GameState, space: str, power: str) -> bool:
    """NC-6 / A-15: friendly since the start of the turn (not captured or liberated this turn)."""
    return (
        s.friendly(s.turn_start_owners.get(space), power)
        and may_share(s, s.owners.get(space), power)  # NW-4: not an ally's, while at peace
        and space not in s.captured_this_turn
    )


@lru_cache(maxsize=32)
def dist_table(ed: Edition, domain: str) -> dict[str, dict[str, int]]:
    """Steps between spaces for a unit class, ignoring who holds what (MAP-1).

    Land: territories only; sea: sea zones only, never into or out of a closed zone (MAP-9);
    air: every space. Neutral territories are never entered or crossed (MAP-8).
    """
    closed = set(ed.map.closed_sea_zones) if domain == "sea" else set()

    def ok(space: str) -> bool:
        sp = ed.spaces[space]
        if sp.impassable or space in closed:
            return False
        return domain == "air" or sp.kind == ("land" if domain == "land" else "sea")

    out: dict[str, dict[str, int]] = {}
    for src in (n for n in ed.spaces if ok(n)):
        dist = {src: 0}
        q = deque([src])
        while q:
            x = q.popleft()
            for y in ed.neighbours[x]:
                if y not in dist and ok(y):
                    dist[y] = dist[x] + 1
                    q.append(y)
        out[src] = dist
    return out


def air_distance(ed: Edition, a: str, b: str) -> int:
    """AIR-6: every space entered costs 1; neutrals cannot be flown over (MAP-8)."""
    return dist_table(ed, "air").get(a, {}).get(b, 10**6)


@lru_cache(maxsize=1024)
def air_dists(ed: Edition, frm: str, blocked: frozenset[str]) -> dict[str, int]:
    """Air steps from ``frm`` never entering ``blocked`` spaces (nor impassable ones)."""
    dist = {frm: 0}
    q = deque([frm])
    while q:
        x = q.popleft()
        for y in ed.neighbours[x]:
            if y not in dist and y not in blocked and not ed.spaces[y].impassable:
                dist[y] = dist[x] + 1
                q.append(y)
    return dist


def air_distance_now(s: GameState, a: str, b: str, over_neutrals: bool = False) -> int:
    """AIR-6 / R-AIR-02 with who holds what: unowned neutrals may be flown over only in Combat
    Move, as a violation (Classic R-NEU-02); never in Noncombat Move, so never on the way to
    land (R-NEU-05, R-NCM-04). 10**6 when unreachable."""
    blocked = frozenset() if over_neutrals else unowned_neutrals(s)
    return air_dists(s.edition, a, blocked).get(b, 10**6)


# --------------------------------------------------------------------------------------------
# Units and remaining movement


def utype(s: GameState, u: Unit) -> str:
    return s.edition.units[u.type].domain


def full_move(s: GameState, u: Unit) -> int:
    """The unit's move this turn, after weapons developments (Long-Range Aircraft, R-TEC-05)
    and with a base's bonus (Europe 1940 CM-21, CM-22)."""
    return tech.move(s, u.owner, u.type) + facilities.move_bonus(s, u)


def remaining(s: GameState, u: Unit) -> int:
    return full_move(s, u) - u.moved


def cargo_of(s: GameState, host: Unit) -> list[Unit]:
    return [x for x in s.units.values() if x.carried_by == host.id]


def transport_room(s: GameState, t: Unit) -> int:
    ed = s.edition
    cap = ed.units[t.type].abilities.transport_capacity
    return cap - sum(ed.units[x.type].abilities.transport_cost for x in cargo_of(s, t))


def carrier_room(s: GameState, c: Unit) -> int:
    """Planes a carrier can still take: its capacity less the planes aboard; none while it is
    damaged (Europe 1940 §16.3, §22.6: no air operations until it is repaired; a carrier that
    takes one hit sinks in 1941 and Classic, so it is never damaged there)."""
    if c.damage:
        return 0
    cap = s.edition.units[c.type].abilities.carrier_capacity
    return cap - sum(1 for x in cargo_of(s, c) if utype(s, x) == "air")


# --------------------------------------------------------------------------------------------
# Words


def _at_peace_land(p: Mapping[str, Any]) -> str:
    return (f"{p['space']} is held by {_the(p['owner'])}, which {_the(p['power'])} is not at "
            f"war with: its units may neither attack it nor enter or pass through it "
            f"({p['rule']}). Declare war at the start of Combat Move first.")


def _neutral_ally_land(p: Mapping[str, Any]) -> str:
    return (f"{p['space']} is held by {_the(p['owner'])}; while {_the(p['neutral'])} is at war "
            f"with nobody, allies do not enter each other's territories, nor share transports "
            f"or carriers ({p['rule']}).")


def _at_peace_units(p: Mapping[str, Any]) -> str:
    who = " and ".join(_the(o) for o in p["owners"])
    return (f"{p['space']} holds units of {who}, which {_the(p['power'])} is not at war with: "
            f"a power may not attack a territory holding units of a power it is not at war with "
            f"({p['rule']}).")


def _canal_at_peace(p: Mapping[str, Any]) -> str:
    who = " and ".join(_the(o) for o in p["owners"])
    return (f"The {p['canal']} between {p['a']} and {p['b']} is held by {who}, which "
            f"{_the(p['power'])} is not at war with: its ships pass only with that power's "
            f"permission, which the referee takes as refused ({p['rule']}, best reading).")


catalogue("en", "board", {
    "hostile_sea_any": "enemy units there ({rule})",
    "hostile_sea_warships": "enemy surface warships there ({rule})",
    "at_peace_land": _at_peace_land,
    "neutral_ally_land": _neutral_ally_land,
    "at_peace_units": _at_peace_units,
    "canal_at_peace": _canal_at_peace,
    "canal_neutral": "The {canal} between {a} and {b} is closed to all ships: {spaces:and} "
                     "was neutral at the start of this turn; no side passes until it is taken "
                     "({rule}).",
    "not_sharing": lambda p: (
        f"{_the(p['power'], capital=True)} may not board or land on {possessive(_the(p['owner']))} "
        f"ships in {p['space']}: while {_the(p['neutral'])} is at war with nobody, allies share "
        f"neither territories nor transports nor carriers ({p['rule']})."),
})
