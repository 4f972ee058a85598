"""The bundled map geometry: every space of the edition has a shape, anchors and labels."""

from __future__ import annotations

import json

from render.geo import GEOMETRY_DIR, Geometry, available_maps
from rules.engine import resolve_edition
from tools.import_geometry import dumps


def _inside(x: float, y: float, rings: tuple[tuple[tuple[int, int], ...], ...]) -> bool:
    hit = False
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
    return hit


def test_every_space_of_the_edition_has_geometry(geometry: Geometry) -> None:
    ed = resolve_edition("1941")
    problems: list[str] = []
    w, h = geometry.size
    for name, space in ed.spaces.items():
        shape = geometry.spaces.get(name)
        if shape is None:
            problems.append(f"{name}: no geometry")
            continue
        if not shape.polygons or any(len(r) < 3 for r in shape.polygons):
            problems.append(f"{name}: a polygon with fewer than 3 points")
        for label, p in (("centre", shape.centre), ("label", shape.label)):
            if not (0 <= p[0] < w and 0 <= p[1] < h):
                problems.append(f"{name}: {label} {p} off the map")
        if not _inside(*shape.centre, shape.polygons):
            problems.append(f"{name}: centre {shape.centre} outside its polygons")
        if not shape.units:
            problems.append(f"{name}: no unit slots")
        if space.capital_of and shape.capital is None:
            problems.append(f"{name}: capital of {space.capital_of} without a marker")
    extra = sorted(set(geometry.spaces) - set(ed.spaces))
    problems += [f"{n}: geometry for a space the edition does not have" for n in extra]
    assert problems == []


def test_geometry_records_its_source_and_the_wrap(geometry: Geometry) -> None:
    src = geometry.source
    assert src["repo"] == "https://github.com/triplea-maps/world_war_ii_v6_1941"
    assert src["commit"] == "d51266ecb0d870b1dcd3528c0f1af2ddfde2538f"
    assert "map/polygons.txt" in src["files"] and src["converter"] == "tools/import_geometry.py"
    assert src["points_after"] < src["points_before"] / 3
    assert geometry.size == (3500, 2000) and geometry.wrap_x
    assert "Sea Zone 5" in geometry.spaces and "5 Sea Zone" not in geometry.spaces


def test_the_geometry_file_is_in_the_converters_own_deterministic_form() -> None:
    assert available_maps() == ["a1941"]
    path = GEOMETRY_DIR / "a1941.json"
    text = path.read_text("utf-8")
    assert dumps(json.loads(text)) == text
    assert len(text.encode()) < 200_000
