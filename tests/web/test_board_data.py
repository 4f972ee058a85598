"""web.board_data: the static board the page draws, for every installed edition."""

from __future__ import annotations

import json
import re

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import theme
from render.geo import geometry_for
from render.icons import GRID_H, GRID_W, draw_icon, has_icon
from rules.edition import available_editions, load_edition
from web.board_data import board_json, hex_colour, icon_path

EDITIONS = available_editions()
_HEX = re.compile(r"^#[0-9a-f]{6}$")


@pytest.fixture(scope="module", params=EDITIONS)
def board(request: pytest.FixtureRequest) -> tuple[str, dict]:
    return request.param, board_json(load_edition(request.param))


def test_installed_editions_are_covered() -> None:
    assert {"a1941", "classic", "europe1940"} <= set(EDITIONS)


def test_every_space_has_geometry(board: tuple[str, dict]) -> None:
    edition_id, doc = board
    ed = load_edition(edition_id)
    geo = geometry_for(ed)
    assert set(doc["spaces"]) == set(ed.spaces)
    assert doc["size"] == [geo.width, geo.height]
    for name, s in doc["spaces"].items():
        assert s["polygons"], name
        for ring in s["polygons"]:
            assert len(ring) >= 6 and len(ring) % 2 == 0, name
            assert all(isinstance(c, int) for c in ring), name
        assert s["units"], f"{name} has no unit slot"
        assert s["sea"] == (ed.spaces[name].kind == "sea"), name
        assert s["value"] == ed.spaces[name].value, name
        assert s["name"] and all(s["name"]), name
        assert list(geo.spaces[name].centre) == s["centre"], name
        if ed.spaces[name].capital_of:
            assert s["capital"] is not None and s["capital_of"] == ed.spaces[name].capital_of


def test_capitals_and_victory_cities(board: tuple[str, dict]) -> None:
    edition_id, doc = board
    ed = load_edition(edition_id)
    for p in ed.powers.values():
        assert doc["spaces"][p.capital]["capital_of"] == p.name
    for city in ed.map.victory_cities:
        assert doc["spaces"][city]["victory"] is not None, city


def test_colours_are_the_images(board: tuple[str, dict]) -> None:
    edition_id, doc = board
    ed = load_edition(edition_id)
    colours = theme.power_colours(ed)
    assert list(doc["powers"]) == list(ed.powers)
    assert doc["order"] == list(ed.turn_order)
    assert doc["phases"] == {k: v.name for k, v in ed.phase_info.items()}
    for name, c in colours.items():
        p = doc["powers"][name]
        assert p["fill"] == hex_colour(c.fill)
        assert p["edge"] == hex_colour(c.ink)
        assert p["text"] == hex_colour(c.text)
        assert p["short"]
    assert doc["sea"]["fill"] == hex_colour(theme.WATER)
    assert doc["neutral"]["fill"] == hex_colour(theme.NEUTRAL)
    colours_used = [v for p in doc["powers"].values() for k, v in p.items()
                    if k in ("fill", "edge", "text")]
    assert all(_HEX.match(v) for v in colours_used)
    # Distinct holdings: no two powers share a fill.
    fills = [p["fill"] for p in doc["powers"].values()]
    assert len(set(fills)) == len(fills)


def test_edition_by_id_or_alias() -> None:
    assert board_json("1941") is board_json(load_edition("a1941"))
    assert board_json("classic")["edition"] == "classic"


def test_hex_colour() -> None:
    assert hex_colour((196, 92, 84)) == "#c45c54"
    assert hex_colour((0, 0, 255)) == "#0000ff"


def test_every_unit_type_has_an_icon(board: tuple[str, dict]) -> None:
    edition_id, doc = board
    ed = load_edition(edition_id)
    assert list(doc["units"]) == list(ed.units)
    for name, u in doc["units"].items():
        assert u["name"] == name
        assert u["plural"]
        assert u["icon"].startswith("M") and u["icon"].endswith("Z"), name
    assert doc["units"]["infantry"]["plural"] == "infantry"
    assert doc["units"]["tank"]["plural"] == "tanks"


def _grid_points(path: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path)]


@pytest.mark.parametrize("unit", ["infantry", "tank", "fighter", "battleship", "submarine"])
def test_icon_path_is_the_pictogram(unit: str) -> None:
    """The path traces draw_icon's shapes on its grid: each polygon's corners are corners of the
    pictogram, inside the 20 x 12 grid, and the path's filled area covers the pixels the images
    fill (checked by drawing the path's polygons back with Pillow)."""
    path = icon_path(unit)
    nums = _grid_points(path)
    assert nums and all(-0.01 <= v <= GRID_W + 0.01 for v in nums)
    assert has_icon(unit)
    # Redraw the polygon parts of the path and compare with draw_icon's own polygons.
    scale = 10
    ours = Image.new("L", (GRID_W * scale, GRID_H * scale), 0)
    draw = ImageDraw.Draw(ours)
    ellipses = 0
    for part in re.findall(r"M[^M]*", path):
        if "A" in part:
            ellipses += 1
            x0, cy = _grid_points(part)[:2]
            rx, ry = _grid_points(part)[2:4]
            draw.ellipse((x0 * scale, (cy - ry) * scale, (x0 + 2 * rx) * scale,
                          (cy + ry) * scale), fill=255)
        else:
            v = _grid_points(part)
            draw.polygon([(v[i] * scale, v[i + 1] * scale) for i in range(0, len(v), 2)],
                         fill=255)
    theirs = Image.new("L", ours.size, 0)
    draw_icon(ImageDraw.Draw(theirs), unit, (0, 0, *ours.size), 255)
    diff = sum(ImageChops.difference(ours, theirs).point(lambda v: 255 if v else 0)
               .histogram()[255:])
    assert diff <= 0.01 * ours.width * ours.height, f"{unit}: {diff} pixels differ"


def test_icon_paths_wind_one_way() -> None:
    """Every outline is clockwise, so overlapping parts fill under the nonzero rule."""
    for unit in ("tank", "battleship", "industrial complex", "naval base"):
        for part in re.findall(r"M[^MA]*Z", icon_path(unit)):
            v = _grid_points(part)
            pts = list(zip(v[::2], v[1::2], strict=True))
            area = sum(x0 * y1 - x1 * y0
                       for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True))
            assert area > 0, (unit, part)
        for arc in re.findall(r"A[^AMZL]*", icon_path(unit)):
            assert arc.split()[4] == "1", (unit, arc)  # sweep flag: clockwise


def test_unknown_unit_gets_the_images_circle() -> None:
    path = icon_path("zeppelin")
    assert path.count("A") == 2 and "L" not in path


def test_board_is_json(board: tuple[str, dict]) -> None:
    _, doc = board
    text = json.dumps(doc)
    assert json.loads(text) == doc
    assert len(text) < 400_000  # the page loads it once per edition; keep it small
