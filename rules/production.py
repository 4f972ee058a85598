"""Where a power can produce: its industrial complexes and their capacity (MB-1..MB-4,
R-PLC-01..05). Queries only, used by purchase, mobilization, movement and the air landing plan.
"""

from __future__ import annotations

from rules import facilities
from rules.state import GameState

UNLIMITED = 10**6  # production of an original complex in Classic (R-PLC-04)


def eligible_factories(s: GameState, power: str) -> list[str]:
    """Territories with a complex the power has controlled since the turn began (MB-1,
    R-PLC-01): never one conquered this turn, never an ally's (MN-7, R-PLC-07; a complex the
    power liberated while its ally's capital is enemy-held is the power's own, R-LIB-02)."""
    out = []
    for u in s.units.values():
        if not s.edition.units[u.type].abilities.factory:
            continue
        t = u.space
        if (s.owners.get(t) == power and s.turn_start_owners.get(t) == power
                and t not in s.captured_this_turn and t not in s.marks.new_factories):
            out.append(t)
    return sorted(set(out))


def factory_capacity(s: GameState, factory: str, power: str) -> int | None:
    """Units the complex in ``factory`` may place per turn; None: no limit.

    1941 (MB-2): the territory's value. Classic (R-PLC-04): a complex the power had at the
    start of the game (printed on the board in its own territory) is unlimited; a new or
    captured one takes the territory's value, at least ``min_factory_capacity`` (1). A complex
    with a production of its own (Europe 1940 MO-2: major 10, minor 3) places that many less its
    damage markers, nothing once the damage reaches it.
    """
    made = facilities.production(s, factory)
    if made is not None:
        _kind, production, damage = made
        return max(production - damage, 0)
    ed = s.edition
    rs = s.ruleset()
    sp = ed.spaces[factory]
    if rs.original_factories_unlimited and sp.factory and sp.original_owner == power:
        return None
    return max(ed.value(factory), rs.min_factory_capacity)


def cap_left(s: GameState, factory: str) -> int:
    """Units the complex may still place this turn (MB-2, R-PLC-04; sea zones included, A-12)."""
    cap = factory_capacity(s, factory, s.power)
    if cap is None:
        return UNLIMITED
    return cap - s.placed.get(factory, 0)


def hostile_for_placement(s: GameState, zone: str, power: str) -> bool:
    """Classic R-PLC-02: new ships go only into a zone without enemy units (1941 MB-4: any)."""
    if s.ruleset().ships_into_hostile_zones:
        return False
    return any(s.enemy(u.owner, power) for u in s.units_in(zone))


def new_factory_sites(s: GameState, power: str, facility: str) -> list[str]:
    """Where a new industrial complex (R-PLC-03) or another facility (MO-6, FA-4) may go: a
    territory the power has owned since the start of its turn (not conquered this turn) without
    one of its kind, meeting the type's own conditions (``rules.facilities.site_problem``)."""
    return facilities.sites(s, power, facility)


def aa_guns(s: GameState, space: str) -> int:
    return sum(1 for u in s.units_in(space) if s.edition.units[u.type].abilities.anti_air)

