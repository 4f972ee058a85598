"""Unit pictograms: small silhouettes drawn from polygons, so they scale to any chip size.

Each shape is designed on a 20 x 12 grid (x to the right, y down), side views facing right, and
drawn in one colour. Unknown unit types get a circle.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import ImageDraw

GRID_W, GRID_H = 20, 12

Shape = tuple[str, tuple[float, ...]]  # ("poly", x0, y0, x1, y1, ...) or ("ellipse", box)

_SHAPES: dict[str, tuple[Shape, ...]] = {
    "infantry": (
        ("ellipse", (8, 0, 12, 4)),  # head under a helmet
        ("poly", (6.5, 1.5, 13.5, 1.5, 12.5, 0.2, 7.5, 0.2)),
        ("poly", (7, 4.5, 13, 4.5, 13, 8.5, 12, 8.5, 12, 12, 10.6, 12, 10, 9, 9.4, 12,
                  8, 12, 8, 8.5, 7, 8.5)),
        ("poly", (13, 5, 18.5, 2.2, 19, 3, 13.5, 6.5)),  # rifle
    ),
    "tank": (
        ("ellipse", (0, 7.5, 20, 12)),  # tracks: rounded below, unlike a ship's hull
        ("poly", (2, 5.5, 18, 5.5, 18, 9, 2, 9)),
        ("ellipse", (5, 2, 13, 7)),  # turret
        ("poly", (11, 3.4, 20, 3.4, 20, 4.8, 11, 4.8)),
    ),
    "fighter": (
        ("poly", (1, 5, 16, 5, 20, 6, 16, 7, 1, 7)),  # fuselage
        ("poly", (8, 6, 12.5, 6, 8.5, 0, 6.5, 0)),  # wing, swept
        ("poly", (8, 6, 12.5, 6, 8.5, 12, 6.5, 12)),
        ("poly", (0, 6, 3.5, 6, 1.5, 2, 0, 2)),  # tail
        ("poly", (0, 6, 3.5, 6, 1.5, 10, 0, 10)),
    ),
    "bomber": (
        ("poly", (0, 4.8, 17, 4.8, 20, 6, 17, 7.2, 0, 7.2)),
        ("poly", (8, 6, 12, 6, 11, 0, 9, 0)),  # straight, long wings
        ("poly", (8, 6, 12, 6, 11, 12, 9, 12)),
        ("ellipse", (8.6, 1.5, 12.6, 3.5)),  # engines
        ("ellipse", (8.6, 8.5, 12.6, 10.5)),
        ("poly", (0, 6, 3, 6, 1.5, 2.5, 0, 2.5)),
        ("poly", (0, 6, 3, 6, 1.5, 9.5, 0, 9.5)),
    ),
    "submarine": (
        ("ellipse", (0, 6, 20, 11)),
        ("poly", (8, 6.5, 8.5, 3, 12, 3, 12.5, 6.5)),
        ("poly", (10, 3, 10.6, 3, 10.6, 0.5, 10, 0.5)),
    ),
    "transport": (
        ("poly", (0, 7, 20, 7, 17.5, 12, 2, 12)),
        ("poly", (3, 3, 12, 3, 12, 7, 3, 7)),
        ("poly", (13.5, 1, 16, 1, 16, 7, 13.5, 7)),
    ),
    "destroyer": (
        ("poly", (0, 7.5, 20, 7, 16, 11, 1.5, 11)),
        ("poly", (6, 4, 12, 4, 12, 7.5, 6, 7.5)),
        ("poly", (8, 1, 10, 1, 10, 4, 8, 4)),
        ("poly", (13, 5.5, 18, 5, 18, 6, 13, 6.7)),
    ),
    "aircraft carrier": (
        ("poly", (0, 5, 20, 5, 20, 7, 17.5, 11, 2.5, 11, 0, 7)),
        ("poly", (13, 1, 16, 1, 16, 5, 13, 5)),
    ),
    "battleship": (
        ("poly", (0, 7.5, 20, 7, 17, 11.5, 1.5, 11.5)),
        ("poly", (7, 3, 12, 3, 12, 7.5, 7, 7.5)),
        ("poly", (8.7, 0, 10.3, 0, 10.3, 3, 8.7, 3)),
        ("poly", (2.5, 5, 6, 5, 6, 7.5, 2.5, 7.5)),
        ("poly", (13, 5, 16.5, 5, 16.5, 7.5, 13, 7.5)),
        ("poly", (16, 5.5, 20, 5, 20, 6, 16, 6.5)),
    ),
    "antiaircraft gun": (
        ("ellipse", (1, 7.5, 5.5, 12)),  # wheels under a low carriage
        ("ellipse", (12.5, 7.5, 17, 12)),
        ("poly", (0, 8, 18.5, 8, 18.5, 10, 0, 10)),
        ("poly", (6, 8, 12, 8, 11, 5, 7, 5)),  # mount
        ("poly", (7.6, 5.6, 15.4, 0, 16.4, 1.2, 8.6, 6.8)),  # twin barrels, steep: at the sky
        ("poly", (9.8, 6.6, 18.6, 0.6, 19.6, 1.8, 10.8, 7.8)),
    ),
    "industrial complex": (
        ("poly", (0, 12, 0, 5, 4, 8, 4, 5, 8, 8, 8, 5, 12, 8, 12, 1, 15, 1, 15, 8, 20, 8,
                  20, 12)),
    ),
}


def has_icon(unit: str) -> bool:
    return unit in _SHAPES


def draw_icon(
    draw: ImageDraw.ImageDraw,
    unit: str,
    box: Sequence[float],
    fill: tuple[int, int, int],
) -> None:
    """Draw ``unit``'s pictogram scaled into ``box`` = (x0, y0, x1, y1), keeping its aspect."""
    x0, y0, x1, y1 = box
    s = min((x1 - x0) / GRID_W, (y1 - y0) / GRID_H)
    ox = x0 + ((x1 - x0) - GRID_W * s) / 2
    oy = y0 + ((y1 - y0) - GRID_H * s) / 2
    shapes = _SHAPES.get(unit)
    if shapes is None:
        r = GRID_H * s / 2
        cx, cy = ox + GRID_W * s / 2, oy + r
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        return
    for kind, coords in shapes:
        pts = [
            (ox + coords[i] * s, oy + coords[i + 1] * s) for i in range(0, len(coords) - 1, 2)
        ]
        if kind == "ellipse":
            (ax, ay), (bx, by) = pts
            draw.ellipse((ax, ay, bx, by), fill=fill)
        else:
            draw.polygon(pts, fill=fill)
