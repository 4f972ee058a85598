"""Europe 1940 battles for the combat tests: Germany attacks France (land), the United Kingdom
attacks German ships in Sea Zone 112 (sea), British landings in Normandy Bordeaux from Sea Zone
110 (amphibious)."""

from __future__ import annotations

from typing import Any

from rules.edition import load_edition
from tests.rules.helpers import Game, position

E40 = load_edition("europe1940")
GER, UK, FR, ITA = "Germany", "United Kingdom", "France", "Italy"
LAND, SEA, BEACH, OFFSHORE = "France", "Sea Zone 112", "Normandy Bordeaux", "Sea Zone 110"


def e40(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]],
        **extra: Any) -> Game:
    return Game(position(power, phase, units, edition="europe1940", **extra))


def split(units: dict[str, int], domain: str) -> dict[str, int]:
    return {t: n for t, n in units.items() if E40.units[t].domain == domain}


def land_attack(att: dict[str, int], dfd: dict[str, int], **extra: Any) -> Game:
    """Germany moves ``att`` from Western Germany into French-held France (``dfd``)."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: att}, LAND: {FR: dfd}},
            owners={LAND: FR}, **extra)
    for domain in ("land", "air"):
        if split(att, domain):
            g.move(split(att, domain), "Western Germany", LAND)
    g.end()
    return g


def sea_attack(att: dict[str, int], dfd: dict[str, int], **extra: Any) -> Game:
    """British ships move from Sea Zone 110 and aircraft from the United Kingdom into Sea Zone
    112, against German ships (``dfd``, planes listed there ride on German carriers)."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: split(att, "sea")},
                                "United Kingdom": {UK: split(att, "air")}, SEA: {GER: dfd}},
            **extra)
    if split(att, "sea"):
        g.move(split(att, "sea"), OFFSHORE, SEA)
    if split(att, "air"):
        g.move(split(att, "air"), "United Kingdom", SEA)
    g.end()
    return g


def landing(ships: dict[str, int], land: dict[str, int], dfd: dict[str, int],
            transports: int | None = None,
            units_extra: dict[str, dict[str, dict[str, int]]] | None = None,
            **extra: Any) -> Game:
    """British ``land`` units aboard transports in Sea Zone 110 land in German-held Normandy
    Bordeaux (``dfd``); ``ships`` stay in the zone (to bombard). ``units_extra``: more units,
    merged by space and power."""
    n = transports if transports is not None else (sum(land.values()) + 1) // 2
    units: dict[str, dict[str, dict[str, int]]] = {
        OFFSHORE: {UK: {**ships, "transport": n, **land}}, BEACH: {GER: dfd}}
    for space, by_power in (units_extra or {}).items():
        for power, us in by_power.items():
            units.setdefault(space, {}).setdefault(power, {}).update(us)
    g = e40(UK, "combat_move", units, owners={BEACH: GER}, **extra)
    g.move(land, OFFSHORE, BEACH)
    g.end()
    return g
