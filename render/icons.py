"""Unit pictograms: small silhouettes drawn from polygons, so they scale to any chip size.

Each shape is designed on a 20 x 12 grid (x to the right, y down), side views facing right (the
aircraft seen from above), and drawn in one colour. Shapes that share a role differ in outline,
not detail, so that they stay apart at map size (about 21 x 12 pixels): the tank is a solid
block, the antiaircraft gun thin barrels pointing at the sky from a flat platform, the artillery
piece one big wheel and a long barrel; the tactical bomber dives at a slant; the ships differ in
height. ``docs/pictograms.png`` shows them side by side (``tools/doc_images.py``). Unknown unit
types get a circle.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

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
        ("poly", (1, 5, 19, 5, 19, 9, 1, 9)),  # a solid hull: the tank is all mass
        ("ellipse", (4, 1.5, 13, 7)),  # turret
        ("poly", (11, 2.8, 20, 2.8, 20, 4.4, 11, 4.4)),  # gun, level
    ),
    "artillery": (
        ("ellipse", (4.5, 5.5, 11, 12)),  # one big wheel
        ("poly", (6.5, 7.4, 19.6, 2.2, 20, 3.6, 7.2, 9.2)),  # long barrel, raised a little
        ("poly", (7, 8.6, 8.2, 10, 1.2, 12, 0.4, 11)),  # trail to the ground behind
        ("poly", (7.4, 3.8, 9.6, 3.8, 9.6, 8.4, 7.4, 8.4)),  # shield
    ),
    "mechanized infantry": (
        # A carrier on wheels with riflemen aboard: heads above, gaps between the wheels.
        ("poly", (1, 4, 14, 4, 15, 5.5, 18.5, 6, 19.5, 8, 19.5, 9.5, 1, 9.5)),
        ("ellipse", (1.5, 8.2, 5.5, 12)),
        ("ellipse", (6.5, 8.2, 10.5, 12)),
        ("ellipse", (14.5, 8.2, 18.5, 12)),
        ("ellipse", (3, 0.3, 6.4, 3.7)),
        ("ellipse", (8, 0.3, 11.4, 3.7)),
    ),
    "antiaircraft gun": (
        ("poly", (1, 10.5, 19, 10.5, 19, 12, 1, 12)),  # a flat platform on the ground
        ("poly", (3, 12, 4.6, 12, 8, 8.5, 7, 7.6)),  # outriggers
        ("poly", (17, 12, 15.4, 12, 12, 8.5, 13, 7.6)),
        ("ellipse", (7, 5.5, 13, 10.5)),  # mount
        ("poly", (8.4, 7.4, 14.6, 0, 15.8, 0.8, 9.8, 8.4)),  # twin barrels, steep: at the sky
        ("poly", (10.4, 8.0, 17.6, 0.6, 18.8, 1.4, 11.8, 9.0)),
    ),
    "fighter": (
        ("poly", (1, 5, 16, 5, 20, 6, 16, 7, 1, 7)),  # fuselage
        ("poly", (8, 6, 12.5, 6, 8.5, 0, 6.5, 0)),  # wing, swept
        ("poly", (8, 6, 12.5, 6, 8.5, 12, 6.5, 12)),
        ("poly", (0, 6, 3.5, 6, 1.5, 2, 0, 2)),  # tail
        ("poly", (0, 6, 3.5, 6, 1.5, 10, 0, 10)),
    ),
    "tactical bomber": (
        # Seen side-on in a dive, its bomb let go: the only aircraft drawn at a slant.
        ("poly", (0.5, 0, 2.2, 0, 4.5, 2.6, 16.5, 7.6, 17, 9.2, 15, 9.2, 2.5, 4.4, 0.5, 3.6)),
        ("poly", (7, 3.2, 11, 4.8, 6.5, 9, 4.5, 8.6)),  # wing
        ("ellipse", (15.6, 9.4, 20, 12)),  # bomb
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
        # A deep cargo hull, a bridge aft, masts forward.
        ("poly", (0, 5, 20, 5, 18, 12, 2, 12)),
        ("poly", (14, 1.5, 19, 1.5, 19, 5, 14, 5)),
        ("poly", (4.5, 0.5, 5.7, 0.5, 5.7, 5, 4.5, 5)),
        ("poly", (9, 0.5, 10.2, 0.5, 10.2, 5, 9, 5)),
    ),
    "destroyer": (
        # Low, with a raked bow; one funnel.
        ("poly", (0, 8.5, 16.5, 8, 20, 6, 17, 11, 1.5, 11)),
        ("poly", (6.5, 5.5, 10.5, 5.5, 10.5, 8.5, 6.5, 8.5)),
        ("poly", (11, 3.5, 12.6, 3.5, 12.6, 8.5, 11, 8.5)),
        ("poly", (2, 6.8, 5.5, 6.8, 5.5, 8.5, 2, 8.5)),
    ),
    "cruiser": (
        # Between a destroyer and a battleship: a low block with two funnels set apart.
        ("poly", (0, 7.5, 20, 7, 17, 11, 1.5, 11)),
        ("poly", (4.5, 5, 15.5, 5, 15.5, 7.5, 4.5, 7.5)),
        ("poly", (5.5, 1.5, 7.5, 1.5, 7.5, 5, 5.5, 5)),
        ("poly", (12.5, 1.5, 14.5, 1.5, 14.5, 5, 12.5, 5)),
        ("poly", (16, 5.8, 20, 5.4, 20, 6.3, 16, 6.7)),
    ),
    "aircraft carrier": (
        ("poly", (0, 5, 20, 5, 20, 7, 17.5, 11, 2.5, 11, 0, 7)),
        ("poly", (13, 1, 16, 1, 16, 5, 13, 5)),
    ),
    "battleship": (
        # Tallest: superstructure rising to a high mast, like a pyramid; big guns fore and aft.
        ("poly", (0, 7.5, 20, 7, 17, 11.5, 1.5, 11.5)),
        ("poly", (4, 7.5, 6.5, 3.5, 8.7, 3.5, 9, 0, 10.4, 0, 10.7, 3.5, 12.5, 3.5, 15, 7.5)),
        ("poly", (0.5, 5.6, 3.8, 5.6, 3.8, 7.5, 0.5, 7.5)),
        ("poly", (15.5, 5.6, 18.5, 5.6, 18.5, 7.5, 15.5, 7.5)),
    ),
    "industrial complex": (
        ("poly", (0, 12, 0, 5, 4, 8, 4, 5, 8, 8, 8, 5, 12, 8, 12, 1, 15, 1, 15, 8, 20, 8,
                  20, 12)),
    ),
    "major industrial complex": (
        ("poly", (0, 12, 0, 5, 4, 8, 4, 5, 8, 8, 8, 5, 12, 8, 12, 1, 14.4, 1, 14.4, 8, 15.6, 8,
                  15.6, 0, 18, 0, 18, 8, 20, 8, 20, 12)),  # two chimneys
    ),
    "minor industrial complex": (
        ("poly", (3, 12, 3, 6, 7.5, 9, 7.5, 6, 12, 9, 12, 3.5, 14.5, 3.5, 14.5, 9, 17, 9,
                  17, 12)),  # smaller, one tooth fewer
    ),
    "air base": (
        ("poly", (0, 10, 20, 10, 20, 12, 0, 12)),  # runway
        ("poly", (2.5, 3, 5, 3, 5, 10, 2.5, 10)),  # tower
        ("poly", (1.2, 0.5, 6.3, 0.5, 6.3, 3, 1.2, 3)),
        ("poly", (9, 6, 19, 6, 20, 6.8, 19, 7.6, 9, 7.6)),  # a plane by the runway
        ("poly", (13, 6.8, 16, 6.8, 14, 2.5, 12.8, 2.5)),
    ),
    "naval base": (
        # An anchor.
        ("ellipse", (8.3, 0, 11.7, 3)),
        ("poly", (9.2, 2.5, 10.8, 2.5, 10.8, 11.5, 9.2, 11.5)),
        ("poly", (6, 3.6, 14, 3.6, 14, 5, 6, 5)),
        ("poly", (3, 6.5, 5, 6.5, 6.5, 9.6, 10, 10.6, 13.5, 9.6, 15, 6.5, 17, 6.5, 15.2, 11,
                  10, 12, 4.8, 11)),
    ),
}

# Other names the editions' data may give these units (TripleA's, older rulebooks').
ALIASES = {
    "aa gun": "antiaircraft gun",
    "mech infantry": "mechanized infantry",
    "mechanised infantry": "mechanized infantry",
    "tac bomber": "tactical bomber",
    "airfield": "air base",
    "harbour": "naval base",
    "harbor": "naval base",
    "factory": "industrial complex",
    "major factory": "major industrial complex",
    "minor factory": "minor industrial complex",
    "carrier": "aircraft carrier",
    "armour": "tank",
    "armor": "tank",
}


def _shape(unit: str) -> tuple[Shape, ...] | None:
    return _SHAPES.get(unit) or _SHAPES.get(ALIASES.get(unit.casefold(), ""))


def has_icon(unit: str) -> bool:
    return _shape(unit) is not None


def units_drawn() -> list[str]:
    """Every unit with a pictogram of its own."""
    return list(_SHAPES)


def draw_icon(
    draw: ImageDraw.ImageDraw,
    unit: str,
    box: Sequence[float],
    fill: tuple[int, int, int] | int,
) -> None:
    """Draw ``unit``'s pictogram scaled into ``box`` = (x0, y0, x1, y1), keeping its aspect."""
    x0, y0, x1, y1 = box
    s = min((x1 - x0) / GRID_W, (y1 - y0) / GRID_H)
    ox = x0 + ((x1 - x0) - GRID_W * s) / 2
    oy = y0 + ((y1 - y0) - GRID_H * s) / 2
    shapes = _shape(unit)
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


def icon_mask(unit: str, size: tuple[int, int]) -> Image.Image:
    """The pictogram alone as a mode "L" mask of ``size`` (antialiasing left to the caller's
    threshold): what a reader sees of it at that size."""
    w, h = size
    big = Image.new("L", (w * 4, h * 4), 0)
    draw_icon(ImageDraw.Draw(big), unit, (0, 0, w * 4, h * 4), 255)
    return big.resize((w, h), Image.Resampling.BOX)


def pictogram_sheet(units: Sequence[str] | None = None,
                    ink: tuple[int, int, int] = (58, 58, 58)) -> Image.Image:
    """Every pictogram side by side: its name, then as on the whole map (a chip 21 pixels
    wide), twice and four times that size, on the chip's dark ink."""
    from render import theme

    names = list(units) if units is not None else units_drawn()
    f = theme.font(15, condensed=True, bold=True)
    cols, row_h, col_w = 2, 58, 610
    rows = (len(names) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * col_w + 20, rows * row_h + 20), (236, 236, 236))
    draw = ImageDraw.Draw(sheet)
    for i, name in enumerate(names):
        x = 10 + (i // rows) * col_w
        y = 10 + (i % rows) * row_h
        draw.text((x + 4, y + row_h / 2), name, font=f, fill=(20, 20, 20), anchor="lm")
        cx = x + 240
        for scale in (1, 2, 4):
            w, h = 21 * scale + 8, 12 * scale + 6
            top = y + (row_h - h) / 2
            draw.rounded_rectangle((cx, top, cx + w, top + h), radius=4, fill=ink)
            draw_icon(draw, name, (cx + 4, top + 3, cx + w - 4, top + h - 3), (255, 255, 255))
            cx += w + 18
    return sheet
