"""The board in a state: what is hostile, neutral or friendly, canals, distances by land, sea
and air, a unit's movement left and the room aboard transports and carriers.

Queries only (no orders, no events): movement, the air landing plan, combat, legal candidates
and the map read the board through here.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from rules import tech
from rules.edition import Edition
from rules.messages import Msg, catalogue, msg
from rules.state import GameState, Unit

COMBAT = "combat_move"
NONCOMBAT = "noncombat_move"


# --------------------------------------------------------------------------------------------
# Space status


def is_hostile_territory(s: GameState, space: str, power: str) -> bool:
    """MAP-6: controlled by an enemy power."""
    return s.enemy(s.owners.get(space), power)


def enemy_units(s: GameState, space: str, power: str) -> list[Unit]:
    return [u for u in s.units_in(space) if s.enemy(u.owner, power)]


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


def canal_open(s: GameState, a: str, b: str, power: str) -> bool:
    """MAP-12: the side must have held the canal's territories at the start of the turn."""
    canal = s.edition.canal_links.get(frozenset((a, b)))
    if canal is None:
        return True
    return all(s.friendly(s.turn_start_owners.get(t), power) for t in canal.controlled_by)


def friendly_at_turn_start(s: GameState, space: str, power: str) -> bool:
    """NC-6 / A-15: friendly since the start of the turn (not captured or liberated this turn)."""
    return (
        s.friendly(s.turn_start_owners.get(space), power)
        and s.friendly(s.owners.get(space), power)
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
    """The unit's move this turn, after weapons developments (Long-Range Aircraft, R-TEC-05)."""
    return tech.move(s, u.owner, u.type)


def remaining(s: GameState, u: Unit) -> int:
    return full_move(s, u) - u.moved


def cargo_of(s: GameState, host: Unit) -> list[Unit]:
    return [x for x in s.units.values() if x.carried_by == host.id]


def transport_room(s: GameState, t: Unit) -> int:
    ed = s.edition
    cap = ed.units[t.type].abilities.transport_capacity
    return cap - sum(ed.units[x.type].abilities.transport_cost for x in cargo_of(s, t))


def carrier_room(s: GameState, c: Unit) -> int:
    cap = s.edition.units[c.type].abilities.carrier_capacity
    return cap - sum(1 for x in cargo_of(s, c) if utype(s, x) == "air")


# --------------------------------------------------------------------------------------------
# Words


catalogue("en", "board", {
    "hostile_sea_any": "enemy units there ({rule})",
    "hostile_sea_warships": "enemy surface warships there ({rule})",
})
