"""Map geometry: our converted coordinate files (``render/geometry/<map>.json``).

Written by ``tools/import_geometry.py`` from TripleA's coordinate files; read here only. All
coordinates are in the source map's pixels, origin top-left; the map may wrap horizontally.
Which geometry draws an edition is data: ``geometry_for(edition)`` takes the file named after the
edition's id, else the one converted from the same TripleA map repository as the edition's
``map.json`` (two rule sets on one board share one drawing).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rules.edition import Edition

GEOMETRY_DIR = Path(__file__).parent / "geometry"

Point = tuple[int, int]
Ring = tuple[Point, ...]


class GeometryError(Exception):
    """No geometry for a map, or a malformed geometry file."""


@dataclass(frozen=True, slots=True)
class SpaceShape:
    """Where one space is drawn."""

    name: str
    polygons: tuple[Ring, ...]
    centre: Point
    label: Point  # centre of the name label
    value: Point | None  # centre of the value label
    capital: Point | None  # centre of the capital marker
    units: tuple[Point, ...]  # centres of unit stack slots
    bbox: tuple[int, int, int, int]  # x0, y0, x1, y1 over the polygons
    victory: Point | None = None  # centre of a victory-city marker (the edition's cities only)


@dataclass(frozen=True, slots=True, eq=False)  # identity: a cache key
class Geometry:
    """One map's geometry."""

    map_id: str
    size: tuple[int, int]
    wrap_x: bool  # TripleA scrolls around the east-west edge
    spaces: dict[str, SpaceShape]
    source: dict[str, Any]
    # The west and east edges are one line of the board (the rules join spaces across them),
    # whether or not TripleA scrolls across: views may continue over the edge.
    edges_meet: bool = False

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]


def _point(v: Any) -> Point:
    return (int(v[0]), int(v[1]))


def _ring(flat: list[int]) -> Ring:
    return tuple((int(flat[i]), int(flat[i + 1])) for i in range(0, len(flat) - 1, 2))


def parse_geometry(doc: dict[str, Any]) -> Geometry:
    """Build a ``Geometry`` from the JSON document (``GeometryError`` if malformed)."""
    if doc.get("format") != "umpire-geometry" or doc.get("version") != 1:
        raise GeometryError("not an umpire-geometry version 1 document")
    spaces: dict[str, SpaceShape] = {}
    try:
        for name, s in doc["spaces"].items():
            rings = tuple(_ring(r) for r in s["polygons"])
            xs = [p[0] for r in rings for p in r] or [s["centre"][0]]
            ys = [p[1] for r in rings for p in r] or [s["centre"][1]]
            spaces[name] = SpaceShape(
                name=name,
                polygons=rings,
                centre=_point(s["centre"]),
                label=_point(s["label"]),
                value=_point(s["value"]) if s.get("value") else None,
                capital=_point(s["capital"]) if s.get("capital") else None,
                units=tuple(_point(p) for p in s["units"]),
                bbox=(min(xs), min(ys), max(xs), max(ys)),
                victory=_point(s["victory"]) if s.get("victory") else None,
            )
        w, h = doc["size"]
        return Geometry(
            map_id=str(doc["map"]),
            size=(int(w), int(h)),
            wrap_x=bool(doc["wrap_x"]),
            spaces=spaces,
            source=dict(doc["source"]),
            edges_meet=bool(doc.get("edges_meet", doc["wrap_x"])),
        )
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise GeometryError(f"malformed geometry: {type(e).__name__}: {e}") from None


@cache
def load_geometry(map_id: str) -> Geometry:
    """The bundled geometry of a map (cached; geometry never changes at run time)."""
    path = GEOMETRY_DIR / f"{map_id}.json"
    if not path.is_file():
        raise GeometryError(f"no map geometry for {map_id!r} (looked for {path.name})")
    return parse_geometry(json.loads(path.read_text("utf-8")))


def available_maps() -> list[str]:
    return sorted(p.stem for p in GEOMETRY_DIR.glob("*.json"))


def geometry_for(edition: Edition) -> Geometry:
    """The geometry that draws ``edition``: ``<edition id>.json``, else the one map converted
    from the TripleA repository the edition's map data came from."""
    if (GEOMETRY_DIR / f"{edition.id}.json").is_file():
        return load_geometry(edition.id)
    repo = edition.map.source.repo
    same = [m for m in available_maps() if load_geometry(m).source.get("repo") == repo]
    if len(same) == 1:
        return load_geometry(same[0])
    raise GeometryError(
        f"no map geometry for edition {edition.id!r} (no {edition.id}.json, "
        f"{len(same)} converted from {repo})"
    )
