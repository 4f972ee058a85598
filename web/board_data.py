"""The static board of an edition as the page draws it (``GET /g/{key}/board.json``).

``board_json(edition)`` is a pure function of the edition's data, its map geometry
(``render.geo``), the images' colours (``render.theme``) and the units' pictograms
(``render.icons``): the page draws the same board as the bot's images, in the browser, as SVG.
Nothing here is copied by hand: the pictograms are traced through ``render.icons.draw_icon``
itself on its 20 x 12 grid and written as SVG path data; colours are the theme's, as hex.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from PIL import ImageDraw

from render import theme
from render.base import _wrap_label, sea_label, takeable_neutral
from render.geo import Point, geometry_for
from render.icons import GRID_H, GRID_W, draw_icon
from render.map import short_name
from render.view import full_view
from rules.edition import Edition, load_edition
from rules.engine import resolve_edition
from rules.words import plural

__all__ = ["board_json", "hex_colour", "icon_path"]


def hex_colour(rgb: Sequence[int]) -> str:
    """``(r, g, b)`` as ``#rrggbb``."""
    r, g, b = rgb[:3]
    return f"#{r:02x}{g:02x}{b:02x}"


def _num(v: float) -> str:
    """A coordinate as short as it can be written exactly enough (two decimals at most)."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class _Tracer:
    """Stands in for ``ImageDraw`` while ``draw_icon`` draws: records its shapes as SVG path
    data instead of pixels. Every outline is written clockwise (on the screen, y down), so the
    shapes of one pictogram join under SVG's nonzero fill rule however they overlap."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def polygon(self, xy: Sequence[tuple[float, float]], fill: Any = None, **_: Any) -> None:
        pts = list(xy)
        # Shoelace sum, y down: positive is clockwise on the screen.
        area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1],
                                                                    strict=True))
        if area < 0:
            pts.reverse()
        head, *rest = pts
        self.parts.append(f"M{_num(head[0])} {_num(head[1])}"
                          + "".join(f"L{_num(x)} {_num(y)}" for x, y in rest) + "Z")

    def ellipse(self, xy: Sequence[float], fill: Any = None, **_: Any) -> None:
        x0, y0, x1, y1 = xy
        rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
        cy = (y0 + y1) / 2
        # Two half arcs, sweep flag 1: clockwise on the screen, as the polygons.
        arc = f"A{_num(rx)} {_num(ry)} 0 1 1"
        self.parts.append(f"M{_num(x0)} {_num(cy)}{arc} {_num(x1)} {_num(cy)}"
                          f"{arc} {_num(x0)} {_num(cy)}Z")


@cache
def icon_path(unit: str) -> str:
    """``unit``'s pictogram as SVG path data on the 20 x 12 grid of ``render.icons`` (the
    circle the images draw for a unit without a pictogram of its own)."""
    tracer = _Tracer()
    draw_icon(cast(ImageDraw.ImageDraw, tracer), unit, (0, 0, GRID_W, GRID_H), 255)
    return "".join(tracer.parts)


def _point(p: Point | None) -> list[int] | None:
    return None if p is None else [p[0], p[1]]


def _star(cx: float, cy: float, r: float, points: int) -> str:
    """A star as SVG path data (the images' capital star and battle burst)."""
    pts = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / points
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return "M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in pts) + "Z"


def board_json(edition: Edition | str) -> dict[str, Any]:
    """The static board the page draws ``edition`` (an edition or its id or alias) from, see
    ``docs/web.md``, "The page". Built once per edition and shared: do not change it.

    Keys: ``map``, ``edition``, ``title``, ``size``, ``design``, ``wrap_x``, ``spaces`` (per space:
    ``polygons`` as flat coordinate lists, ``centre``, ``label``, ``units`` (stack slots),
    ``sea``, ``value``, ``capital``, ``victory``, and the page's extras ``name`` (label lines),
    ``capital_of``, ``impassable``, ``neutral`` (hatched while nobody holds it),
    ``alignment``), ``powers`` (``fill``, ``edge`` = the chips' ink, ``text``, ``short``,
    ``side``), ``order`` (turn order), ``phases`` (id: name), ``neutral``, ``sea``,
    ``theme`` (the images' other colours), ``units`` (``name``, ``plural``, ``icon`` path
    data, ``domain``, ``cost``) and ``shapes`` (the capital star and the battle burst as
    path data)."""
    ed = resolve_edition(edition) if isinstance(edition, str) else edition
    return _board(ed.id)


@cache
def _board(edition_id: str) -> dict[str, Any]:
    edition = load_edition(edition_id)
    geometry = geometry_for(edition)
    view = full_view(geometry)
    spaces: dict[str, Any] = {}
    for name, space in edition.spaces.items():
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        sea = space.kind == "sea"
        label = (sea_label(name, space.aliases) if sea else name)
        spaces[name] = {
            "polygons": [[c for p in ring for c in p] for ring in shape.polygons],
            "centre": _point(shape.centre),
            "label": _point(shape.label),
            "units": [[x, y] for x, y in shape.units],
            "sea": sea,
            "value": space.value,
            "capital": _point(shape.capital) if space.capital_of else None,
            "victory": (_point(shape.victory)
                        if name in edition.map.victory_cities else None),
            "name": _wrap_label(label).split("\n"),
            "capital_of": space.capital_of,
            "impassable": space.impassable,
            "neutral": takeable_neutral(edition, name),
            "alignment": (edition.map.neutrals[name].alignment
                          if name in edition.map.neutrals else None),
        }
    colours = theme.power_colours(edition)
    powers = {
        name: {
            "fill": hex_colour(c.fill),
            "edge": hex_colour(c.ink),
            "text": hex_colour(c.text),
            "short": short_name(edition, name),
            "side": edition.powers[name].side,
        }
        for name, c in colours.items()
    }
    units = {
        name: {
            "name": name,
            "plural": plural(name),
            "icon": icon_path(name),
            "domain": str(u.domain),
            "cost": u.cost,
        }
        for name, u in edition.units.items()
    }
    t = theme
    return {
        "map": geometry.map_id,
        "edition": edition.id,
        "title": edition.rules.title,
        "size": [geometry.width, geometry.height],
        # Map pixels per design unit of the images' symbols on the whole board: the page draws
        # chips, labels and markers at the size the bot's map image gives them.
        "design": round(view.ui / view.scale, 4),
        # The page continues over the east-west edge where the board's edges are one line.
        "wrap_x": geometry.edges_meet,
        "spaces": spaces,
        "powers": powers,
        "order": list(edition.turn_order),
        "phases": {k: v.name for k, v in edition.phase_info.items()},
        "neutral": {"fill": hex_colour(t.NEUTRAL), "hatch": hex_colour(t.NEUTRAL_HATCH),
                    "impassable": hex_colour(t.IMPASSABLE),
                    "impassable_hatch": hex_colour(t.IMPASSABLE_HATCH),
                    "army": {"fill": hex_colour(t.NEUTRAL_ARMY.ink),
                             "text": hex_colour(t.NEUTRAL_ARMY.text)},
                    "aligned": {k: {"fill": hex_colour(f), "hatch": hex_colour(h)}
                                for k, (f, h) in t.ALIGNED.items()}},
        "sea": {"fill": hex_colour(t.WATER), "line": hex_colour(t.WATER_LINE),
                "text": hex_colour(t.WATER_TEXT)},
        "theme": {
            "border": hex_colour(t.BORDER), "text": hex_colour(t.TEXT),
            "halo": hex_colour(t.HALO), "background": hex_colour(t.BACKGROUND),
            "bar": hex_colour(t.BAR), "bar_text": hex_colour(t.BAR_TEXT),
            "battle": hex_colour(t.BATTLE), "battle_inner": hex_colour(t.BATTLE_INNER),
            "focus": hex_colour(t.FOCUS), "hit": hex_colour(t.HIT),
            "unknown": hex_colour((80, 80, 80)),
        },
        "units": units,
        "shapes": {"star": _star(0, 0, 1, 5), "burst": _star(0, 0, 1, 8)},
    }
