"""The bundled map geometry: every space of each edition has a shape, anchors and labels."""

from __future__ import annotations

import json

import pytest

from render.geo import GEOMETRY_DIR, Geometry, GeometryError, available_maps, geometry_for
from rules.edition import Edition
from rules.engine import resolve_edition
from tools import import_geometry
from tools.import_geometry import dumps

EDITIONS = ("1941", "classic", "europe1940")
MAPS = ["a1941", "classic", "europe1940"]


def _inside(x: float, y: float, rings: tuple[tuple[tuple[int, int], ...], ...]) -> bool:
    hit = False
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                hit = not hit
    return hit


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_space_of_the_edition_has_geometry(edition: str) -> None:
    ed = resolve_edition(edition)
    geometry = geometry_for(ed)
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
    assert geometry.size == (3500, 2000) and geometry.wrap_x and geometry.edges_meet
    assert "Sea Zone 5" in geometry.spaces and "5 Sea Zone" not in geometry.spaces


def test_classic_geometry_records_its_source_and_a_faithful_wrap(
    classic_geometry: Geometry,
) -> None:
    """TripleA's Classic map does not scroll around (no map.scrollWrapX): ``wrap_x`` says so.
    The rules join the board's edges (R-MAP-02), and the wrap pairs lie at opposite edges of the
    image: ``edges_meet``."""
    src = classic_geometry.source
    assert classic_geometry.map_id == "classic"
    assert src["repo"] == "https://github.com/triplea-maps/world_war_ii_classic"
    assert src["commit"] == "ea60168b53509e86b3d9a4cd45e91832a4e7c187"
    # No name_place.txt or pu_place.txt in this map: names at the centres, as TripleA does.
    assert src["files"] == ["map/polygons.txt", "map/centers.txt", "map/place.txt",
                            "map/capitols.txt", "map/map.properties"]
    assert src["points_after"] < src["points_before"] / 3
    assert classic_geometry.size == (3500, 2000)
    assert not classic_geometry.wrap_x and classic_geometry.edges_meet
    # Our names, not TripleA's (tools/classic_names.py).
    for ours, theirs in (("Eastern United States", "East US"),
                         ("Anglo-Egyptian Sudan", "Anglo Sudan Egypt"),
                         ("Caribbean Sea Zone", "Carribean Sea Zone")):
        assert ours in classic_geometry.spaces and theirs not in classic_geometry.spaces
    shape = classic_geometry.spaces["Germany"]
    assert shape.label == shape.centre


@pytest.mark.parametrize("name", MAPS)
def test_the_geometry_file_is_in_the_converters_own_deterministic_form(name: str) -> None:
    assert available_maps() == MAPS
    path = GEOMETRY_DIR / f"{name}.json"
    text = path.read_text("utf-8")
    assert dumps(json.loads(text)) == text
    assert len(text.encode()) < 200_000


@pytest.mark.parametrize("name", MAPS)
def test_the_converter_still_writes_the_bundled_file(name: str) -> None:
    """``python -m tools.import_geometry <map> --check`` holds (where ../shared is at hand)."""
    cfg = import_geometry.MAPS[name]
    if not (cfg.folder / "polygons.txt").exists():
        pytest.skip(f"TripleA sources not here: {cfg.folder}")
    doc, _ = import_geometry.convert(cfg, cfg.folder, cfg.tolerance)
    assert dumps(doc) == cfg.out.read_text("utf-8")


def test_europe1940_geometry_records_its_source_and_no_wrap() -> None:
    """TripleA's Europe map does not scroll around and no rule joins its edges; its four
    political-trigger boxes are no spaces; the Caspian (M-6) is Sea Zone 128."""
    g = geometry_for(resolve_edition("europe1940"))
    src = g.source
    assert g.map_id == "europe1940"
    assert src["repo"] == "https://github.com/triplea-maps/world_war_ii_europe"
    assert src["commit"] == "be0fc1c9916c5a876bf3b9f1cc70fce46d120472"
    assert src["tolerance"] == 2.0 and src["points_after"] < src["points_before"] / 4
    assert g.size == (4000, 3213) and not g.wrap_x and not g.edges_meet
    assert "GermanyWarRussia" not in g.spaces and "Sea Zone 128" in g.spaces
    assert "map/pu_place.txt" in src["files"] and "map/name_place.txt" not in src["files"]


def test_the_geometry_is_chosen_by_data() -> None:
    """By the edition's id, else by the TripleA repository its map data came from (another rule
    set on the Classic board draws with Classic's geometry); never by an ``if`` in render/."""
    classic = resolve_edition("classic")
    assert geometry_for(resolve_edition("1941")).map_id == "a1941"
    assert geometry_for(classic).map_id == "classic"
    same_board = Edition(classic.rules.model_copy(update={"id": "classic_3rd"}), classic.map)
    assert geometry_for(same_board).map_id == "classic"
    elsewhere = Edition(
        classic.rules.model_copy(update={"id": "elsewhere"}),
        classic.map.model_copy(update={"source": classic.map.source.model_copy(
            update={"repo": "https://example.org/another_map"})}),
    )
    with pytest.raises(GeometryError, match="no map geometry for edition 'elsewhere'"):
        geometry_for(elsewhere)
