"""The map image: who holds what, where the armies are, what moved this phase (DESIGN §8).

``render_map(state, geometry)`` draws the whole board (about 2000 px wide); ``focus=<space>``
crops and enlarges around one space, continuing across the board's east-west edge where the
geometry says the edges meet (``Geometry.edges_meet``). Nothing here knows an edition: spaces,
powers, colours, units and the geometry to use all come from the edition data and the geometry
file (``render.geo.geometry_for``). What never changes for a view (the space index image,
borders, names, values, capital stars, neutrals' hatching, the legend's key) is drawn once per
edition and view and cached (``BaseLayer``); each call only recolours the territories through the
index image's palette, pastes the cached overlay and draws what changes: unit chips, industrial
complexes, battle markers, move arrows, the title bar and the powers' money.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from render import theme
from render.geo import Geometry, GeometryError, Point, SpaceShape
from render.icons import draw_icon
from render.layout import SHRINK, Room, build_room, leader_start, place_group, place_outside, union
from rules import board, legal
from rules import orders as od
from rules.edition import Edition
from rules.events import UnitsMoved
from rules.state import GameState

FULL_WIDTH = 2000  # output width of the whole board
ZOOM = 2.0  # a focused view enlarges this much over the whole board
FOCUS_SIZE = (1600, 1000)  # output size of a focused view's map area

FACTORY = "industrial complex"
LEGEND_HEIGHT = 124  # the powers' money, the key's units and markers, the key's chip states

Rect = tuple[float, float, float, float]


# --------------------------------------------------------------------------------------------
# Views


@dataclass(frozen=True, slots=True)
class View:
    """A window onto the board: source rectangle and output scale."""

    x0: int
    y0: int
    w: int  # source pixels
    h: int
    scale: float
    wrap_w: int  # the board's width when it wraps east-west, else 0

    @property
    def out_size(self) -> tuple[int, int]:
        return (round(self.w * self.scale), round(self.h * self.scale))

    @property
    def ui(self) -> float:
        """Size factor for symbols and text: 1 on the whole board, more when enlarged."""
        return self.scale / (FULL_WIDTH / 3500)

    def shifts(self, x0: float, x1: float) -> list[int]:
        """Offsets (multiples of the board width) that bring [x0, x1] into the view."""
        if not self.wrap_w:
            return [0]
        return [
            k
            for k in (-1, 0, 1)
            if x1 + k * self.wrap_w >= self.x0 and x0 + k * self.wrap_w <= self.x0 + self.w
        ]

    def xy(self, x: float, y: float, k: int = 0) -> tuple[float, float]:
        return ((x + k * self.wrap_w - self.x0) * self.scale, (y - self.y0) * self.scale)


def full_view(geometry: Geometry) -> View:
    w, h = geometry.size
    return View(0, 0, w, h, FULL_WIDTH / w, 0)


def focus_view(geometry: Geometry, space: str) -> View:
    """A view centred on ``space``, enlarged ``ZOOM`` times over the whole board."""
    shape = geometry.spaces.get(space)
    if shape is None:
        raise GeometryError(f"no geometry for space {space!r}")
    scale = ZOOM * FULL_WIDTH / geometry.width
    w = min(round(FOCUS_SIZE[0] / scale), geometry.width)
    h = min(round(FOCUS_SIZE[1] / scale), geometry.height)
    cx = (shape.bbox[0] + shape.bbox[2]) // 2 if _narrow(shape, geometry) else shape.centre[0]
    cy = shape.centre[1]
    x0 = cx - w // 2
    if not geometry.edges_meet:
        x0 = max(0, min(x0, geometry.width - w))
    y0 = max(0, min(cy - h // 2, geometry.height - h))
    return View(x0, y0, w, h, scale, geometry.width if geometry.edges_meet else 0)


def _narrow(shape: SpaceShape, geometry: Geometry) -> bool:
    return shape.bbox[2] - shape.bbox[0] < geometry.width // 2


# --------------------------------------------------------------------------------------------
# Layout of the canvas: title bar, map, legend


def _bar_height(view: View) -> int:
    return 44


def _legend_height(view: View) -> int:
    return LEGEND_HEIGHT


# Index values reserved in the index image (spaces are 1..N)
_BAR_INDEX = 255
_LEGEND_INDEX = 254
_GAP_INDEX = 0


@dataclass(frozen=True, slots=True)
class BaseLayer:
    """What does not change for an edition and a view: drawn once, then reused."""

    view: View
    index: Image.Image  # mode "L": space number per pixel (palette-coloured per call)
    overlay: Image.Image  # RGBA: borders, names, values, capitals, legend key
    order: tuple[str, ...]  # space names by index - 1
    map_top: int
    legend_top: int
    chrome: Image.Image  # RGB: the title bar and the legend with its key, pasted last
    # space -> rectangles of its name, value and capital marker (output pixels, no wrap shift):
    # unit chips avoid them when they can
    labels: dict[str, tuple[tuple[float, float, float, float], ...]]
    # space number -> output boxes its pixels lie in (one per wrap copy), for partial repaints
    boxes: dict[int, tuple[tuple[int, int, int, int], ...]]
    # spaces hatched while nobody holds them; index len(order) + 1 + their position here
    hatched: tuple[str, ...] = ()
    # where chips may go (render.layout), and every fixed label's box
    room: Room | None = None
    fixed: tuple[tuple[float, float, float, float], ...] = ()


def _polygon_points(
    view: View, ring: Iterable[Point], k: int, top: int
) -> list[tuple[float, float]]:
    return [(X, Y + top) for X, Y in (view.xy(x, y, k) for x, y in ring)]


def _spaces_in_view(geometry: Geometry, view: View) -> Iterable[tuple[SpaceShape, int]]:
    for shape in geometry.spaces.values():
        x0, y0, x1, y1 = shape.bbox
        if y1 < view.y0 or y0 > view.y0 + view.h:
            continue
        for k in view.shifts(x0, x1):
            yield shape, k


def _text_centered(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    *,
    halo: tuple[int, int, int] | None = theme.HALO,
    condensed: bool = True,
    stroke: int = 2,
) -> None:
    f = theme.font(size, condensed=condensed, bold=True)
    draw.text(
        xy,
        text,
        font=f,
        fill=fill,
        anchor="mm",
        stroke_width=stroke if halo else 0,
        stroke_fill=halo,
    )


def _wrap_label(name: str) -> str:
    """Long names on two lines (e.g. 'Eastern United / States')."""
    if len(name) <= 14 or " " not in name:
        return name
    words = name.split()
    best = name
    best_len = len(name)
    for i in range(1, len(words)):
        a, b = " ".join(words[:i]), " ".join(words[i:])
        if max(len(a), len(b)) < best_len:
            best, best_len = f"{a}\n{b}", max(len(a), len(b))
    return best


def _star(cx: float, cy: float, r: float, points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


@lru_cache(maxsize=8)
def base_layer(edition: Edition, geometry: Geometry, view: View) -> BaseLayer:
    """The cached static layer of ``view`` for ``edition`` (keyed by all three)."""
    order = tuple(s for s in edition.spaces if s in geometry.spaces)
    hatched = tuple(s for s in order if takeable_neutral(edition, s))
    if len(order) + len(hatched) > 250:
        raise GeometryError("more than 250 spaces and hatchings do not fit the index image")
    number = {s: i + 1 for i, s in enumerate(order)}
    # A neutral that can be taken is hatched in the index image with an entry of its own: the
    # palette shows the hatching while nobody holds it and the holder's fill once taken.
    hatch_number = {s: len(order) + 1 + i for i, s in enumerate(hatched)}
    ow, oh = view.out_size
    bar, legend = _bar_height(view), _legend_height(view)
    size = (ow, bar + oh + legend)
    index = Image.new("L", size, _GAP_INDEX)
    overlay = Image.new("RGBA", size, (0, 0, 0, 0))
    idraw = ImageDraw.Draw(index)
    odraw = ImageDraw.Draw(overlay)
    idraw.rectangle((0, 0, ow, bar - 1), fill=_BAR_INDEX)
    idraw.rectangle((0, bar + oh, ow, size[1]), fill=_LEGEND_INDEX)
    top = bar
    u = view.ui

    def at(x: float, y: float, k: int) -> tuple[float, float]:
        X, Y = view.xy(x, y, k)
        return X, Y + top

    # Sea first, land over it; borders after fills so every coast is drawn.
    items = list(_spaces_in_view(geometry, view))
    sea = [(s, k) for s, k in items if edition.is_sea(s.name)]
    land = [(s, k) for s, k in items if not edition.is_sea(s.name)]
    boxes: dict[int, list[tuple[int, int, int, int]]] = {}
    for shape, k in [*sea, *land]:
        for ring in shape.polygons:
            idraw.polygon(_polygon_points(view, ring, k, top), fill=number[shape.name])
        (bx0, by0), (bx1, by1) = at(shape.bbox[0], shape.bbox[1], k), at(shape.bbox[2],
                                                                           shape.bbox[3], k)
        box = (max(0, math.floor(bx0) - 2), max(top, math.floor(by0) - 2),
               min(ow, math.ceil(bx1) + 3), min(top + oh, math.ceil(by1) + 3))
        if box[0] < box[2] and box[1] < box[3]:
            boxes.setdefault(number[shape.name], []).append(box)
            if shape.name in hatch_number:
                boxes.setdefault(hatch_number[shape.name], []).append(box)
        if shape.name in hatch_number:
            for ring in shape.polygons:
                _hatch_index(index, _polygon_points(view, ring, k, top), hatch_number[shape.name],
                             u)
    # The map area is clipped by drawing the bar and legend last in the index image.
    idraw.rectangle((0, 0, ow, bar - 1), fill=_BAR_INDEX)
    idraw.rectangle((0, bar + oh, ow, size[1]), fill=_LEGEND_INDEX)
    line_sea = max(1, round(u))
    line_land = max(1, round(1.4 * u))
    for shape, k in sea:
        for ring in shape.polygons:
            pts = _polygon_points(view, ring, k, top)
            odraw.line([*pts, pts[0]], fill=(*theme.WATER_LINE, 255), width=line_sea)
    for shape, k in land:
        space = edition.spaces[shape.name]
        for ring in shape.polygons:
            pts = _polygon_points(view, ring, k, top)
            if space.impassable:
                _hatch(overlay, pts, u)
            odraw.line([*pts, pts[0]], fill=(*theme.BORDER, 255), width=line_land,
                       joint="curve")
    name_size = max(10, round(12 * u))
    labels: dict[str, list[tuple[float, float, float, float]]] = {}
    drawn: list[Rect] = []  # every land label, value and capital marker, wrap copies too
    for shape, k in items:
        space = edition.spaces[shape.name]
        if space.kind == "sea":
            continue
        x, y = at(*shape.label, k)
        label = _wrap_label(shape.name)
        f = theme.font(name_size, condensed=True, bold=True)
        rects: list[Rect] = []
        name_box = odraw.multiline_textbbox((x, y), label, font=f, anchor="mm", align="center",
                                            spacing=0, stroke_width=2)
        # Names by the board's edge stay whole (TripleA lets some run off).
        nudge = 0.0 if view.wrap_w else max(0.0, 2 - name_box[0]) - max(0.0, name_box[2] - (ow - 2))
        if nudge:
            x += nudge
            name_box = (name_box[0] + nudge, name_box[1], name_box[2] + nudge, name_box[3])
        rects.append(name_box)
        odraw.multiline_text((x, y), label, font=f, fill=theme.TEXT, anchor="mm",
                             align="center", spacing=0, stroke_width=2,
                             stroke_fill=(*theme.HALO, 200))
        if space.value:
            # Under the name: TripleA's value places suit its own labels, not ours.
            r = 8 * u
            vx, vy = x, name_box[3] + r
            odraw.ellipse((vx - r, vy - r, vx + r, vy + r), fill=(255, 255, 255, 235),
                          outline=(*theme.BORDER, 255), width=1)
            _text_centered(odraw, (vx, vy + 0.5), str(space.value), max(9, round(11 * u)),
                           theme.TEXT, halo=None)
            rects.append((vx - r, vy - r, vx + r, vy + r))
        if space.capital_of and shape.capital is not None:
            cx, cy = at(*shape.capital, k)
            colours = theme.power_colours(edition)[space.capital_of]
            odraw.polygon(_star(cx, cy, 11 * u), fill=(*colours.ink, 255),
                          outline=(255, 255, 255, 255), width=max(1, round(1.5 * u)))
            rects.append((cx - 11 * u, cy - 11 * u, cx + 11 * u, cy + 11 * u))
        drawn.extend(rects)
        _record(labels, shape.name, rects, k * view.wrap_w * view.scale)
    # Sea labels after the land's, at the point deepest inside the zone as the board shows it
    # (islands drawn over it are not its water): where the eye looks for a zone's number, away
    # from the zones next to it, with room for its ships around it. One that would still cover
    # a land label moves off it, within its zone.
    clean = _clean_index(index, hatch_number, number)
    for shape, k in items:
        if edition.spaces[shape.name].kind != "sea":
            continue
        text = _wrap_label(sea_label(shape.name, edition.spaces[shape.name].aliases))
        # A zone's number stands out; a sea's name, a word or three, is a size smaller.
        sea_size = max(10, round((15 if text.isdigit() else 12) * u))
        sea_font = theme.font(sea_size, condensed=True, bold=True)
        deep = _deepest(clean, number[shape.name], at(*shape.bbox[:2], k),
                        at(*shape.bbox[2:], k), top, top + oh)
        x, y = deep if deep is not None else at(*shape.label, k)
        text_box: Rect = odraw.multiline_textbbox((x, y), text, font=sea_font, anchor="mm",
                                                  align="center", spacing=0, stroke_width=2)
        if any(not _apart(text_box, q, 0) for q in drawn):
            x, y, text_box = _sea_label_spot(shape, view, k, top, (x, y), drawn, text_box)
        odraw.multiline_text((x, y), text, font=sea_font, fill=theme.WATER_TEXT, anchor="mm",
                             align="center", spacing=0, stroke_width=2,
                             stroke_fill=(*theme.WATER, 255))
        drawn.append(text_box)
        _record(labels, shape.name, [text_box], k * view.wrap_w * view.scale)
    # Labels and lines stop at the map's edges; the bar and the legend are pasted over them.
    chrome = Image.new("RGB", (ow, bar + legend), theme.BACKGROUND)
    cdraw = ImageDraw.Draw(chrome)
    cdraw.rectangle((0, 0, ow, bar - 1), fill=theme.BAR)
    cdraw.line([(0, bar), (ow, bar)], fill=theme.BORDER, width=1)
    _draw_key(cdraw, edition, (0, bar, ow, bar + legend))
    _draw_states(chrome, edition, (0, bar, ow, bar + legend))
    room = build_room(clean, drawn, MARGIN * chip_unit(u), top, top + oh,
                      (_GAP_INDEX, _BAR_INDEX, _LEGEND_INDEX))
    return BaseLayer(view, index, overlay, order, bar, bar + oh, chrome,
                     {name: tuple(r) for name, r in labels.items()},
                     {n: tuple(b) for n, b in boxes.items()}, hatched, room, tuple(drawn))


def _clean_index(index: Image.Image, hatch_number: dict[str, int],
                 number: dict[str, int]) -> Image.Image:
    """The index image with each hatching's entry turned back into its space's number."""
    if not hatch_number:
        return index
    lut = list(range(256))
    for name, h in hatch_number.items():
        lut[h] = number[name]
    return index.point(lut)


def _only(n: int) -> list[int]:
    """A lookup table keeping value ``n`` (as 255), all else 0."""
    return [255 if v == n else 0 for v in range(256)]


_ONLY_255 = _only(255)
_AT_LEAST_251 = [255 if v > 250 else 0 for v in range(256)]
_CLEAR = [255 if v == 0 else 0 for v in range(256)]


def _deepest(index: Image.Image, n: int, a: tuple[float, float], b: tuple[float, float],
             top: int, bottom: int) -> tuple[float, float] | None:
    """The output point of space ``n`` farthest from its edges (within its box ``a``-``b``),
    found by eroding a reduced mask of the space until one more step would empty it."""
    box = (max(0, math.floor(a[0])), max(top, math.floor(a[1])),
           min(index.width, math.ceil(b[0]) + 1), min(bottom, math.ceil(b[1]) + 1))
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    f = 4
    mask = index.crop(box).point(_only(n))
    w, h = max(1, mask.width // f), max(1, mask.height // f)
    small = mask.resize((w, h), Image.Resampling.BOX).point(_AT_LEAST_251)
    if small.getbbox() is None:
        return None

    def eroded(r: int) -> Image.Image:
        # A box blur stays 255 only where the whole (2r+1)-square is 255: a square erosion.
        return small if r == 0 else small.filter(ImageFilter.BoxBlur(r))

    def left(r: int) -> bool:
        return bool(eroded(r).getextrema()[1] == 255)

    lo, hi = 0, 1
    while left(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if left(mid):
            lo = mid
        else:
            hi = mid
    deep = eroded(lo).point(_ONLY_255)
    bb = deep.getbbox()
    assert bb is not None
    cx, cy = (bb[0] + bb[2] - 1) / 2, (bb[1] + bb[3] - 1) / 2
    px: Any = deep.load()
    best: tuple[float, int, int] | None = None
    for j in range(bb[1], bb[3]):
        for i in range(bb[0], bb[2]):
            if px[i, j]:
                d = (i - cx) ** 2 + (j - cy) ** 2
                if best is None or d < best[0]:
                    best = (d, i, j)
    assert best is not None
    return box[0] + (best[1] + 0.5) * mask.width / w, box[1] + (best[2] + 0.5) * mask.height / h


def _record(labels: dict[str, list[Rect]], name: str, rects: Sequence[Rect], dx: float) -> None:
    """A space's label rectangles, kept once, as for its copy at no wrap shift (``dx`` is the
    shift of the copy they were drawn for): callers shift them to the copy at hand."""
    if name not in labels:
        labels[name] = [(a - dx, b, c - dx, d) for a, b, c, d in rects]


def _sea_label_spot(
    shape: SpaceShape, view: View, k: int, top: int, at: tuple[float, float],
    taken: Sequence[Rect], box: Rect,
) -> tuple[float, float, Rect]:
    """The nearest place for a sea zone's label, inside the zone, off the labels ``taken``."""
    inside = _inside(shape, view, k, top)
    w, h = box[2] - box[0], box[3] - box[1]
    x0, y0 = at
    steps = sorted(((j * h / 2, i * w / 4) for j in range(-8, 9) for i in range(-4, 5)),
                   key=lambda d: d[0] ** 2 + d[1] ** 2)
    # Wholly in the zone if it can be, else with its middle in it.
    for whole in (True, False):
        for dy, dx in steps:
            x, y = x0 + dx, y0 + dy
            moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
            ends = ((x, y), (moved[0] + 2, y), (moved[2] - 2, y)) if whole else ((x, y),)
            if all(inside(*c) for c in ends) and all(_apart(moved, q, 0) for q in taken):
                return x, y, moved
    return x0, y0, box


def takeable_neutral(edition: Edition, name: str) -> bool:
    """Land that starts with no holder and may be entered: hatched while nobody holds it."""
    space = edition.spaces[name]
    return space.kind != "sea" and not space.impassable and space.original_owner is None


def sea_label(name: str, aliases: Sequence[str] = ()) -> str:
    """What a sea zone's label says: a number for a numbered zone ('Sea Zone 5' -> '5'); else
    the sea's name as players may write it, where the edition has that alias ('Baltic Sea Zone'
    -> 'Baltic Sea', which keeps '<land> Sea' apart from the land '<land>'); else the name without
    'Sea Zone' ('Indian Ocean Sea Zone' -> 'Indian Ocean')."""
    if name.startswith("Sea Zone ") and len(name) > len("Sea Zone "):
        return name[len("Sea Zone "):]
    if name.endswith(" Sea Zone"):
        sea = name.removesuffix(" Zone")
        return sea if sea in aliases else name.removesuffix(" Sea Zone")
    return name


def _hatch_index(index: Image.Image, pts: Sequence[tuple[float, float]], value: int,
                 u: float) -> None:
    """Hatching (lines falling to the right) inside a polygon, in index ``value``."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    w, h = math.ceil(max(xs)) - x0 + 2, math.ceil(max(ys)) - y0 + 2
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in pts], fill=255)
    lines = Image.new("L", (w, h), 0)
    ld = ImageDraw.Draw(lines)
    step = max(6, round(9 * u))
    width = max(2, round(2 * u))
    # Anchored to the map's origin, so neighbouring neutrals' lines run on.
    for c in range(-h - (x0 + y0) % step, w + step, step):
        ld.line([(c, 0), (c + h, h)], fill=255, width=width)
    index.paste(value, (x0, y0, x0 + w, y0 + h), ImageChops.multiply(mask, lines))


def _hatch(overlay: Image.Image, pts: Sequence[tuple[float, float]], u: float) -> None:
    """Diagonal hatching inside a polygon (impassable neutrals)."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    mask = Image.new("1", (max(1, math.ceil(x1 - x0) + 2), max(1, math.ceil(y1 - y0) + 2)), 0)
    ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in pts], fill=1)
    lines = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    ld = ImageDraw.Draw(lines)
    step = max(5, round(7 * u))
    w, h = mask.size
    for c in range(-h, w, step):
        ld.line([(c, h), (c + h, 0)], fill=(*theme.IMPASSABLE_HATCH, 255), width=1)
    clear = Image.new("RGBA", mask.size, (0, 0, 0, 0))
    hatched = Image.composite(lines, clear, mask)
    overlay.alpha_composite(hatched, (round(x0), round(y0)))


# --------------------------------------------------------------------------------------------
# The legend's fixed key: unit pictograms and markers


_UNIT_KEY = (
    "infantry",
    "tank",
    "fighter",
    "bomber",
    "submarine",
    "transport",
    "destroyer",
    "aircraft carrier",
    "battleship",
    "antiaircraft gun",
    "industrial complex",
)


def _draw_key(draw: ImageDraw.ImageDraw, edition: Edition, box: tuple[int, int, int, int]) -> None:
    x0, y0, _, _ = box
    f = theme.font(13, condensed=True, bold=True)
    x = x0 + 12
    y = y0 + 52
    units = [t for t in _UNIT_KEY if t in edition.units] + [
        t for t in edition.units if t not in _UNIT_KEY
    ]
    for t in units:
        draw.rounded_rectangle((x, y, x + 26, y + 18), radius=4, fill=(70, 70, 70, 255))
        draw_icon(draw, t, (x + 3, y + 3, x + 23, y + 15), (255, 255, 255))
        label = _unit_label(t)
        draw.text((x + 30, y + 9), label, font=f, fill=(*theme.TEXT, 255), anchor="lm")
        x += 36 + round(f.getlength(label)) + 10
    # markers
    cx = x + 10
    draw.polygon(_star(cx, y + 9, 10), fill=(60, 60, 60, 255), outline=(255, 255, 255, 255))
    draw.text((cx + 14, y + 9), "capital", font=f, fill=(*theme.TEXT, 255), anchor="lm")
    x = cx + 14 + round(f.getlength("capital")) + 18
    draw.line([(x, y + 9), (x + 26, y + 9)], fill=(60, 60, 60, 255), width=4)
    draw.polygon([(x + 34, y + 9), (x + 24, y + 3), (x + 24, y + 15)], fill=(60, 60, 60, 255))
    draw.text((x + 40, y + 9), "moved this phase", font=f, fill=(*theme.TEXT, 255), anchor="lm")
    x += 40 + round(f.getlength("moved this phase")) + 16
    # Neutrals as the edition has them: closed to everyone, or hatched until someone takes one.
    if any(takeable_neutral(edition, s) for s in edition.spaces):
        draw.rectangle((x, y + 1, x + 22, y + 17), fill=(*theme.NEUTRAL, 255),
                       outline=(*theme.BORDER, 255))
        for c in range(x - 16, x + 22, 6):
            draw.line([(max(x, c), y + 1 + max(0, x - c)), (min(x + 22, c + 16), y + 17 -
                       max(0, c + 16 - x - 22))], fill=(*theme.NEUTRAL_HATCH, 255), width=2)
        draw.rectangle((x, y + 1, x + 22, y + 17), outline=(*theme.BORDER, 255))
        draw.text((x + 28, y + 9), "neutral (nobody holds it)", font=f,
                  fill=(*theme.TEXT, 255), anchor="lm")
        x += 28 + round(f.getlength("neutral (nobody holds it)")) + 16
    if any(s.impassable for s in edition.spaces.values()):
        draw.rectangle((x, y + 1, x + 22, y + 17), fill=(*theme.IMPASSABLE, 255),
                       outline=(*theme.BORDER, 255))
        for c in range(x - 16, x + 22, 6):
            draw.line([(max(x, c), y + 17 - max(0, x - c)), (min(x + 22, c + 16), y + 1 +
                       max(0, c + 16 - x - 22))], fill=(*theme.IMPASSABLE_HATCH, 255))
        draw.text((x + 28, y + 9), "neutral, impassable", font=f, fill=(*theme.TEXT, 255),
                  anchor="lm")


def _draw_states(image: Image.Image, edition: Edition, box: tuple[int, int, int, int]) -> None:
    """The key's second row: what a chip's look and the markers say."""
    draw = ImageDraw.Draw(image)
    f = theme.font(13, condensed=True, bold=True)
    x, y = float(box[0] + 12), box[1] + 80
    grey = theme.PowerColours(fill=(180, 180, 180), ink=(70, 70, 70), text=(255, 255, 255))
    boat = next((t for t, u in edition.units.items() if u.abilities.transport_capacity), None)
    land = next((t for t, u in edition.units.items() if u.domain == "land"
                 and not u.abilities.factory), "infantry")
    two_hits = next((t for t, u in edition.units.items() if u.hits > 1), None)
    samples: list[tuple[Item, str]] = [
        (Chip("", land, 3, spent=True), "can't move again this turn")]
    if two_hits:
        samples.append((Chip("", two_hits, 1, damaged=True), "damaged"))
    if boat:
        samples.append((Chip("", boat, 1, cargo=(("", land, 2),)), "cargo aboard"))
    samples += [
        (Chip("", land, 9, stacked=True), "stacked: all of a power's units (see game map <space>)"),
        (Marker("battle"), "battle to fight"),
    ]
    if edition.rules.rules.strategic_bombing:
        samples.append((Marker("raid"), "bombing raid to fight"))
    samples.append((Marker("captured", ""), "taken this turn"))
    for item, text in samples:
        w, h = _item_size(item, 1.0)
        top = y + 9 - h / 2
        if isinstance(item, Marker):
            _draw_marker(draw, item, (x, top, x + w, top + h), 1.0, {"": grey})
        else:
            sprite = _chip_sprite(item, 1.0, grey, (("", grey),))
            image.paste(sprite, (round(x), round(top)), sprite)
        draw.text((x + w + 6, y + 9), text, font=f, fill=theme.TEXT, anchor="lm")
        x += w + 6 + round(f.getlength(text)) + 18
    # A space too small for its chips: beside it, joined by a line.
    draw.line([(x, y + 9), (x + 22, y + 9)], fill=(70, 70, 70), width=2)
    draw.ellipse((x - 3, y + 6, x + 3, y + 12), fill=(70, 70, 70))
    draw.text((x + 28, y + 9), "units of the space the line ends in", font=f, fill=theme.TEXT,
              anchor="lm")


_SHORT = {"aircraft carrier": "carrier", "industrial complex": "ind. complex",
          "antiaircraft gun": "AA gun"}


def _unit_label(t: str) -> str:
    return _SHORT.get(t, t)


def _burst(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    draw.polygon(_star(cx, cy, r, 8), fill=(*theme.BATTLE, 255), outline=(255, 255, 255, 255))
    draw.polygon(_star(cx, cy, r * 0.55, 8), fill=(*theme.BATTLE_INNER, 255))


# --------------------------------------------------------------------------------------------
# Per call


def _palette(edition: Edition, state: GameState, order: Sequence[str],
             hatched: Sequence[str] = ()) -> list[int]:
    colours = theme.power_colours(edition)
    pal = [*theme.WATER] * 256
    for i, name in enumerate(order, start=1):
        space = edition.spaces[name]
        if space.kind == "sea":
            rgb = theme.WATER
        elif space.impassable:
            rgb = theme.IMPASSABLE
        else:
            owner = state.owners.get(name)
            rgb = colours[owner].fill if owner in colours else theme.NEUTRAL
        pal[3 * i : 3 * i + 3] = rgb
    for i, name in enumerate(hatched, start=len(order) + 1):
        owner = state.owners.get(name)
        rgb = colours[owner].fill if owner in colours else theme.NEUTRAL_HATCH
        pal[3 * i : 3 * i + 3] = rgb
    pal[3 * _BAR_INDEX : 3 * _BAR_INDEX + 3] = theme.BAR
    pal[3 * _LEGEND_INDEX : 3 * _LEGEND_INDEX + 3] = theme.BACKGROUND
    return pal


# The last holdings image per base layer: (palette, image). Each map starts from a copy of it
# and repaints only the spaces whose colour changed since (captures are few per phase).
_HOLDINGS: dict[int, tuple[BaseLayer, list[int], Image.Image]] = {}
_HOLDINGS_KEPT = 4
_REPAINT_LIMIT = 24  # more changed spaces than this: repaint the whole board


def _paint(
    base: BaseLayer, palette: list[int], box: tuple[int, int, int, int] | None
) -> Image.Image:
    """Fills from the palette with the fixed overlay on top, for ``box`` or everything."""
    img = base.index if box is None else base.index.crop(box)
    img = img.copy()
    img.putpalette(palette)
    out = img.convert("RGB")
    overlay = base.overlay if box is None else base.overlay.crop(box)
    out.paste(overlay, (0, 0), overlay)
    return out


def _holdings(base: BaseLayer, palette: list[int]) -> Image.Image:
    """The board coloured by holdings with borders and names: a fresh image to draw on."""
    key = id(base)
    last = _HOLDINGS.get(key)
    if last is not None and last[0] is not base:
        last = None  # another layer that got the same id after the first was dropped
    if last is not None and last[1] == palette:
        return last[2].copy()
    changed = [] if last is None else [
        i for i in range(1, 256) if palette[3 * i : 3 * i + 3] != last[1][3 * i : 3 * i + 3]
    ]
    if last is None or len(changed) > _REPAINT_LIMIT:
        image = _paint(base, palette, None)
    else:
        image = last[2].copy()
        for i in changed:
            for box in base.boxes.get(i, ()):
                image.paste(_paint(base, palette, box), box[:2])
    _HOLDINGS.pop(key, None)
    while len(_HOLDINGS) >= _HOLDINGS_KEPT:
        _HOLDINGS.pop(next(iter(_HOLDINGS)))
    _HOLDINGS[key] = (base, palette, image)
    return image.copy()


@dataclass(frozen=True, slots=True)
class Chip:
    """One chip: ``count`` units of a power and type that look alike on the board."""

    power: str
    unit: str
    count: int
    damaged: bool = False  # took a hit it keeps (a battleship's first, UB-2)
    spent: bool = False  # cannot move again this turn
    cargo: tuple[tuple[str, str, int], ...] = ()  # aboard these transports: owner, type, count
    stacked: bool = False  # all of a power's units in the space: ``unit`` is the commonest


@dataclass(frozen=True, slots=True)
class Marker:
    """A marker drawn in a space like a chip: an open battle, a pending raid, a capture."""

    kind: str  # "battle", "raid" or "captured"
    power: str = ""  # the capturer, for "captured"


Item = Chip | Marker


def spent_units(state: GameState) -> frozenset[int]:
    """The acting power's units that moved or fought this turn and cannot move again in it.

    In a movement phase, those ``candidate_orders`` offers no move for (the rules' own list);
    aircraft still able to fly in Noncombat Move are not spent in Combat Move (NC-1 lets them
    land). In Conduct Combat, land and sea units that moved in Combat Move or fought (NC-1).
    """
    s = state
    if s.winner or s.phase not in (board.COMBAT, "conduct_combat", board.NONCOMBAT):
        return frozenset()
    ed = s.edition
    acted = [u for u in s.units.values() if u.owner == s.power
             and (u.moved or u.stopped or u.combat_moved or u.fought)]
    if not acted:
        return frozenset()
    if s.phase == "conduct_combat":
        return frozenset(u.id for u in acted if ed.units[u.type].domain != "air")
    movable = {(o.frm, t) for o in legal.candidate_orders(s, s.power)
               if isinstance(o, od.Move) for t in o.units}
    out = set()
    for u in acted:
        if (u.space, u.type) in movable:
            continue
        if (s.phase == board.COMBAT and ed.units[u.type].domain == "air"
                and board.remaining(s, u) > 0):
            continue
        out.add(u.id)
    return frozenset(out)


def stacks(state: GameState) -> dict[str, list[Chip]]:
    """Unit chips per space: powers in turn order, complexes first, then edition unit order.

    Damaged units and units that cannot move again get chips of their own; land units aboard
    a transport are drawn on its chip (transports grouped by what they carry), not as units of
    the sea zone."""
    ed = state.edition
    spent = spent_units(state)
    aboard: dict[int, list[tuple[str, str]]] = {}
    for u in state.units.values():
        host = state.units.get(u.carried_by) if u.carried_by is not None else None
        if host is not None and ed.units[u.type].domain == "land":
            aboard.setdefault(host.id, []).append((u.owner, u.type))
    counts: dict[tuple[str, str, str, bool, bool, tuple[tuple[str, str, int], ...]], int] = {}
    for u in state.units.values():
        if (u.carried_by is not None and ed.units[u.type].domain == "land"
                and u.carried_by in state.units):
            continue  # drawn on its transport's chip
        cargo = tuple((o, t, n) for (o, t), n in sorted(
            Counter(aboard.get(u.id, ())).items()))
        key = (u.space, u.owner, u.type, u.damage > 0, u.id in spent, cargo)
        counts[key] = counts.get(key, 0) + 1
    unit_rank = {t: i for i, t in enumerate(ed.units)}
    unit_rank[FACTORY] = -1
    power_rank = {p: i for i, p in enumerate(ed.turn_order)}
    out: dict[str, list[Chip]] = {}
    for (space, power, unit, damaged, is_spent, cargo), n in sorted(
        counts.items(),
        key=lambda kv: (kv[0][0], power_rank.get(kv[0][1], 99), unit_rank.get(kv[0][2], 99),
                        kv[0][3], kv[0][4], kv[0][5]),
    ):
        # Cargo is counted per chip: the units aboard all the transports of this chip.
        total = tuple((o, t, c * n) for o, t, c in cargo)
        out.setdefault(space, []).append(Chip(power, unit, n, damaged, is_spent, total))
    return out


def _stacked(chips: Sequence[Chip]) -> list[Chip]:
    """One chip per power: the count of all its units, the icon of its commonest type."""
    by_power: dict[str, list[Chip]] = {}
    for c in chips:
        by_power.setdefault(c.power, []).append(c)
    out = []
    for power, cs in by_power.items():
        per_type = Counter[str]()
        for c in cs:
            per_type[c.unit] += c.count + sum(n for _, _, n in c.cargo)
        unit = max(per_type, key=lambda t: (per_type[t], -list(per_type).index(t)))
        out.append(Chip(power, unit, sum(per_type.values()), stacked=True))
    return out


CHIP = 1.2  # chip size on the whole board, relative to the design below
MARGIN = 3.0  # chips keep this far off borders (whole-board pixels)
PAD = 2.0  # and this far apart


def chip_unit(u: float) -> float:
    """Chips grow less than the map in an enlarged view: there the map gains room for them."""
    return u if u <= 1 else 1 + (u - 1) * 0.6


def _chip_font(u: float) -> ImageFont.FreeTypeFont:
    return theme.font(max(8, round(11 * CHIP * u)), condensed=True, bold=True)


_CARGO_ICON = 11.0  # width of a cargo pictogram, design units


def _cargo_width(chip: Chip, u: float) -> float:
    if not chip.cargo:
        return 0.0
    c = CHIP * u
    small = _chip_font(u * 0.8)
    return 2 * c + sum(_CARGO_ICON * c + small.getlength(str(n)) + 2.5 * c
                       for _, _, n in chip.cargo)


def _item_size(item: Item, u: float) -> tuple[float, float]:
    c = CHIP * u
    if isinstance(item, Marker):
        return (19 * c, 19 * c)
    w = 21 * c + _chip_font(u).getlength(str(item.count)) + 3 * c + _cargo_width(item, u)
    if item.stacked:
        return (w + 3 * c, 14 * c + 3 * c)
    return (w, 14 * c)


def _fade(rgb: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    r, g, b = rgb
    return (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))


@lru_cache(maxsize=4096)
def _chip_sprite(chip: Chip, u: float, colours: theme.PowerColours,
                 cargo_colours: tuple[tuple[str, theme.PowerColours], ...] = ()) -> Image.Image:
    """A chip drawn once (RGBA), pasted wherever it is needed."""
    w, h = _item_size(chip, u)
    c = CHIP * u
    sprite = Image.new("RGBA", (math.ceil(w) + 1, math.ceil(h) + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    radius = max(2, round(3 * c))
    ink, text, edge = colours.ink, colours.text, (255, 255, 255)
    if chip.spent:
        # Pale, edged in the power's ink: it has done what it can this turn.
        ink, text, edge = _fade(colours.ink, 0.62), colours.ink, colours.ink
    x0, y0 = 0.0, 0.0
    if chip.stacked:
        # Cards behind the chip: more than one kind of unit under one count.
        off = 3 * c
        for d in (off, off / 2):
            draw.rounded_rectangle((d, 0, w - off + d, h - off), radius=radius, fill=ink,
                                   outline=(255, 255, 255), width=1)
        x0, y0 = 0.0, off
        w, h = w - off, h - off
    box = (x0, y0, x0 + w, y0 + h)
    draw.rounded_rectangle(box, radius=radius, fill=ink, outline=edge,
                           width=max(1, round(c)) if chip.spent else 1)
    draw_icon(draw, chip.unit, (x0 + 2.5 * c, y0 + 2 * c, x0 + 20 * c, y0 + h - 2 * c), text)
    draw.text((x0 + 20.5 * c, y0 + h / 2 + 0.5), str(chip.count), font=_chip_font(u), fill=text,
              anchor="lm")
    if chip.damaged:
        # A red corner: this one is hit (UB-2).
        k = 7 * c
        draw.polygon([(x0 + w - k, y0), (x0 + w, y0), (x0 + w, y0 + k)], fill=theme.HIT)
        draw.line([(x0 + w - k, y0), (x0 + w, y0 + k)], fill=(255, 255, 255), width=1)
    if chip.cargo:
        # The units aboard, on a white tab at the chip's end, in their owners' ink.
        tab_w = _cargo_width(chip, u)
        tx0 = x0 + w - tab_w
        draw.rounded_rectangle((tx0, y0 + 1.5 * c, x0 + w - 1.5 * c, y0 + h - 1.5 * c),
                               radius=max(1, round(2 * c)), fill=(255, 255, 255))
        small = _chip_font(u * 0.8)
        inks = dict(cargo_colours)
        x = tx0 + 1.5 * c
        for owner, unit, n in chip.cargo:
            cc = inks.get(owner, colours).ink
            draw_icon(draw, unit, (x, y0 + 3 * c, x + _CARGO_ICON * c, y0 + h - 3 * c), cc)
            x += _CARGO_ICON * c + 0.5 * c
            draw.text((x, y0 + h / 2 + 0.5), str(n), font=small, fill=cc, anchor="lm")
            x += small.getlength(str(n)) + 2 * c
    return sprite


def _draw_marker(draw: ImageDraw.ImageDraw, marker: Marker, box: Rect, u: float,
                 colours: dict[str, theme.PowerColours]) -> None:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if marker.kind == "battle":
        _burst(draw, cx, cy, r)
    elif marker.kind == "raid":
        _target(draw, cx, cy, r)
    else:
        _flag(draw, cx, cy, r, colours.get(marker.power, _GREY).ink)


def _target(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A bombing raid waiting: a red ring with cross hairs on white."""
    w = max(1, round(r / 5))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=theme.BATTLE,
                 width=w + 1)
    draw.ellipse((cx - r / 2.4, cy - r / 2.4, cx + r / 2.4, cy + r / 2.4), fill=theme.BATTLE)
    draw.line([(cx - r, cy), (cx + r, cy)], fill=theme.BATTLE, width=w)
    draw.line([(cx, cy - r), (cx, cy + r)], fill=theme.BATTLE, width=w)


def _flag(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float,
          ink: tuple[int, int, int]) -> None:
    """Taken this turn: a pennant in the taker's ink on a white disc."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255), outline=ink,
                 width=max(1, round(r / 6)))
    pole = cx - r * 0.35
    draw.line([(pole, cy - r * 0.62), (pole, cy + r * 0.62)], fill=ink,
              width=max(1, round(r / 5)))
    draw.polygon([(pole, cy - r * 0.62), (cx + r * 0.62, cy - r * 0.3), (pole, cy + r * 0.02)],
                 fill=ink)


def _apart(r: Rect, q: Rect, pad: float) -> bool:
    return r[2] + pad <= q[0] or q[2] + pad <= r[0] or r[3] + pad <= q[1] or q[3] + pad <= r[1]


@dataclass(frozen=True, slots=True)
class Placed:
    """Where one item of a space goes (output pixels of the view)."""

    space: str
    k: int  # the wrap copy it belongs to
    item: Item
    box: Rect
    scale: float  # chip unit it is drawn at


@dataclass(frozen=True, slots=True)
class Leader:
    """Items of a space too small for them, drawn outside and joined to it by a line."""

    space: str
    k: int
    start: tuple[float, float]  # on the edge of the items' block
    end: tuple[float, float]  # inside the space
    power: str


@dataclass(frozen=True, slots=True)
class Layout:
    """Every item of a view: inside its space, or outside with a leader line."""

    placed: tuple[Placed, ...]
    leaders: tuple[Leader, ...]
    stacked: frozenset[str]  # spaces whose chips were stacked
    shrunk: frozenset[str]  # spaces whose chips were drawn smaller


@dataclass(frozen=True, slots=True)
class _SpacePlan:
    placed: tuple[Placed, ...]  # empty when it goes outside
    outside: tuple[Item, ...]  # items for a leader
    scale: float
    stacked: bool


def _anchors(base: BaseLayer, geometry: Geometry, edition: Edition, space: str, k: int,
             size: tuple[float, float]) -> list[tuple[float, float]]:
    """Where a space's chips gather: under a sea zone's number (they read with it); else the
    map data's unit placement points, first one first; else the space's centre."""
    view = base.view
    dx = k * view.wrap_w * view.scale
    shape = geometry.spaces[space]
    if edition.is_sea(space) and base.labels.get(space):
        x0, _, x1, y1 = base.labels[space][-1]
        return [((x0 + x1) / 2 + dx, y1 + PAD + size[1] / 2 + 1)]
    pts = shape.units or (shape.centre,)
    return [(X, Y + base.map_top) for X, Y in (view.xy(x, y, k) for x, y in pts[:1])]


def _marker_anchor(base: BaseLayer, geometry: Geometry, space: str, k: int,
                   size: tuple[float, float]) -> tuple[float, float]:
    """Markers go left of the space's name, where a reader starts."""
    view = base.view
    dx = k * view.wrap_w * view.scale
    named = base.labels.get(space)
    if named:
        x0, y0, _, y1 = named[0]
        return (x0 + dx - size[0] / 2 - PAD, (y0 + y1) / 2)
    X, Y = view.xy(*geometry.spaces[space].label, k)
    return (X, Y + base.map_top)


_PLANS: dict[tuple[int, str, int, tuple[Item, ...]], tuple[BaseLayer, _SpacePlan]] = {}


def _plan_space(base: BaseLayer, geometry: Geometry, edition: Edition, space: str, k: int,
                items: tuple[Item, ...]) -> _SpacePlan:
    """A space's items inside it: at full size, smaller, then stacked; else marked to go
    outside. Remembered per base layer and items: one space's plan never depends on another's
    (every box lies inside its own space)."""
    key = (id(base), space, k, items)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is base:
        return hit[1]
    assert base.room is not None
    room = base.room
    view = base.view
    number = base.order.index(space) + 1
    shape = geometry.spaces[space]
    a, b = view.xy(*shape.bbox[:2], k), view.xy(*shape.bbox[2:], k)
    area = (a[0], a[1] + base.map_top, b[0], b[1] + base.map_top)
    cu = chip_unit(view.ui)
    pad = PAD * cu
    markers = [i for i in items if isinstance(i, Marker)]
    chips = [i for i in items if isinstance(i, Chip)]
    free = room.room_for(number, area)
    plan: _SpacePlan | None = None
    for stacked in (False, True):
        group: list[Item] = [*markers, *(_stacked(chips) if stacked else chips)]
        if stacked and len(group) == len(items) and all(
                isinstance(c, Marker) or c.count == 1 for c in group):
            break  # stacking would change nothing
        for s in SHRINK:
            sizes = [_item_size(i, cu * s) for i in group]
            if sum((w + pad) * (h + pad) for w, h in sizes) > free:
                continue  # cannot fit however they are placed
            anchors = [
                _marker_anchor(base, geometry, space, k, sz) if isinstance(i, Marker)
                else _anchors(base, geometry, edition, space, k, sz)[0]
                for i, sz in zip(group, sizes, strict=True)
            ]
            boxes = place_group(room, number, sizes, anchors, area, pad)
            if boxes is not None:
                plan = _SpacePlan(tuple(Placed(space, k, i, r, cu * s)
                                        for i, r in zip(group, boxes, strict=True)),
                                  (), s, stacked)
                break
        if plan is not None:
            break
    if plan is None:
        plan = _SpacePlan((), items, SHRINK[1], False)
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[key] = (base, plan)
    return plan


_OUTSIDE: dict[tuple[int, tuple[tuple[str, int, tuple[Item, ...]], ...]],
               tuple[BaseLayer, Layout]] = {}


def layout(base: BaseLayer, geometry: Geometry, edition: Edition,
           items: dict[str, list[Item]]) -> Layout:
    """Every item of the view laid out (see ``render.layout``)."""
    view = base.view
    wanted: list[tuple[str, int, tuple[Item, ...]]] = []
    for space, its in items.items():
        shape = geometry.spaces.get(space)
        if shape is None or space not in base.order or not its:
            continue
        for k in view.shifts(shape.bbox[0], shape.bbox[2]):
            wanted.append((space, k, tuple(its)))
    key = (id(base), tuple(wanted))
    hit = _OUTSIDE.get(key)
    if hit is not None and hit[0] is base:
        return hit[1]
    plans = [(space, k, _plan_space(base, geometry, edition, space, k, its))
             for space, k, its in wanted]
    placed = [p for _, _, plan in plans for p in plan.placed]
    leaders: list[Leader] = []
    outside = [(space, k, plan) for space, k, plan in plans if plan.outside]
    if outside:
        assert base.room is not None
        room = base.room
        taken = room.blocked.copy()
        tdraw = ImageDraw.Draw(taken)
        cu = chip_unit(view.ui)
        pad = PAD * cu
        for p in placed:
            x0, y0, x1, y1 = p.box
            tdraw.rectangle((x0 - pad, y0 - pad, x1 + pad, y1 + pad), fill=255)
        for space, k, plan in outside:
            number = base.order.index(space) + 1
            end = _point_in(room, number, geometry, space, view, k, base.map_top)
            if end is None:
                continue  # the space is not on this view
            group: list[Item] = list(plan.outside)
            boxes = None
            # Its line keeps off the names if it can, except the space's own (an island's
            # name often sits in the water beside it).
            own = set(base.labels.get(space, ()))
            others = [r for r in base.fixed if r not in own]
            chips = [i for i in plan.outside if isinstance(i, Chip)]
            stacked_group: list[Item] = [*(i for i in plan.outside if isinstance(i, Marker)),
                                         *_stacked(chips)]
            # Nearest first: a clean line within reach, else a line over names within reach,
            # else anything farther.
            fallback: tuple[list[Item], list[Rect]] | None = None
            boxes = None
            for g, reach in ((list(plan.outside), 160), (stacked_group, 160),
                             (stacked_group, 480)):
                sizes = [_item_size(i, cu * plan.scale) for i in g]
                found = place_outside(room, taken, sizes, end, pad, reach * cu, others)
                if found is None:
                    continue
                spot, clean = found
                if clean:
                    group, boxes = g, spot
                    break
                fallback = fallback or (g, spot)
                if reach == 160 and g is stacked_group:
                    break
            if boxes is None and fallback is not None:
                group, boxes = fallback
            if boxes is None:  # nowhere free nearby: beside the space, over whatever is there
                sizes = [_item_size(i, cu * plan.scale) for i in group]
                x, y = end[0] + 14 * cu, end[1]
                boxes = []
                for w, h in sizes:
                    boxes.append((x, y - h / 2, x + w, y + h / 2))
                    x += w + pad
            for i, r in zip(group, boxes, strict=True):
                placed.append(Placed(space, k, i, r, cu * plan.scale))
                tdraw.rectangle((r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad), fill=255)
            block = union(boxes)
            power = next((i.power for i in group if isinstance(i, Chip)), "")
            leaders.append(Leader(space, k, leader_start(block, end), end, power))
    result = Layout(
        tuple(placed), tuple(leaders),
        frozenset(space for space, _, plan in plans if plan.stacked),
        frozenset(space for space, _, plan in plans if plan.scale < 1),
    )
    if len(_OUTSIDE) > 64:
        _OUTSIDE.clear()
    _OUTSIDE[key] = (base, result)
    return result


def _point_in(room: Room, number: int, geometry: Geometry, space: str, view: View, k: int,
              top: int) -> tuple[float, float] | None:
    """A point of the space on the view, off its borders, for a leader line's end: its centre
    if that will do, else the one nearest it; None if no such point is on the view."""
    shape = geometry.spaces[space]
    X, Y = view.xy(*shape.centre, k)
    Y += top

    def good(x: int, y: int) -> bool:
        return (0 <= x < room.width and room.top <= y < room.bottom
                and room.pixels[x, y] == number and not room.blocked_pixels[x, y])

    if good(round(X), round(Y)):
        return (X, Y)
    a, b = view.xy(*shape.bbox[:2], k), view.xy(*shape.bbox[2:], k)
    box = (max(0, math.floor(a[0])), max(room.top, math.floor(a[1]) + top),
           min(room.width, math.ceil(b[0]) + 1), min(room.bottom, math.ceil(b[1]) + top + 1))
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    inside = room.index.crop(box).point(_only(number))
    clear = room.blocked.crop(box).point(_CLEAR)
    mask = ImageChops.multiply(inside, clear)
    bb = mask.getbbox()
    if bb is None:
        return None
    best: tuple[float, int, int] | None = None
    data: Any = mask.load()
    for j in range(bb[1], bb[3]):
        for i in range(bb[0], bb[2]):
            if data[i, j]:
                x, y = box[0] + i, box[1] + j
                d = (x - X) ** 2 + (y - Y) ** 2
                if best is None or d < best[0]:
                    best = (d, x, y)
    return None if best is None else (best[1] + 0.5, best[2] + 0.5)


def map_items(state: GameState) -> dict[str, list[Item]]:
    """What each space shows: its markers (open battle, pending raid, taken this turn), then
    its unit chips."""
    out: dict[str, list[Item]] = {}
    for name, b in state.battles.items():
        if b.step != "done":
            out.setdefault(name, []).append(Marker("battle"))
    raided = {u.space for u in state.units.values() if u.raid}
    for name in sorted(raided):
        if name not in state.marks.raided:
            out.setdefault(name, []).append(Marker("raid"))
    for name in sorted(state.captured_this_turn):
        holder = state.owners.get(name)
        out.setdefault(name, []).append(Marker("captured", holder or ""))
    for name, chips in stacks(state).items():
        out.setdefault(name, []).extend(chips)
    return out


def _inside(shape: SpaceShape, view: View, k: int, top: int) -> Callable[[float, float], bool]:
    """Whether an output point lies in the space (even-odd rule over its rings)."""

    def test(X: float, Y: float) -> bool:
        x = X / view.scale + view.x0 - k * view.wrap_w
        y = (Y - top) / view.scale + view.y0
        hit = False
        for ring in shape.polygons:
            n = len(ring)
            for i in range(n):
                (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    hit = not hit
        return hit

    return test


def _unwrapped_path(
    geometry: Geometry, path: Sequence[str]
) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for name in path:
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        x, y = shape.centre
        if pts and geometry.edges_meet:
            while x - pts[-1][0] > geometry.width / 2:
                x -= geometry.width
            while pts[-1][0] - x > geometry.width / 2:
                x += geometry.width
        pts.append((float(x), float(y)))
    return pts


def _draw_arrow(draw: ImageDraw.ImageDraw, pts: Sequence[tuple[float, float]], u: float,
                ink: tuple[int, int, int]) -> None:
    if len(pts) < 2:
        return
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    d = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    head = 13 * u
    # Ends kept off the centres, where names and chips are.
    tip = (bx - ux * 14 * u, by - uy * 14 * u)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    (sx, sy), (nx, ny) = pts[0], pts[1]
    d0 = math.hypot(nx - sx, ny - sy) or 1.0
    start = (sx + (nx - sx) / d0 * 10 * u, sy + (ny - sy) / d0 * 10 * u)
    line = [start, *pts[1:-1], base]
    width = max(3, round(4 * u))
    draw.line(line, fill=(255, 255, 255), width=width + 3, joint="curve")
    draw.line(line, fill=ink, width=width, joint="curve")
    left = (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6)
    right = (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)
    draw.polygon([tip, left, right], fill=ink, outline=(255, 255, 255))


def render_map(
    state: GameState,
    geometry: Geometry,
    *,
    moves: Sequence[UnitsMoved] = (),
    title: str = "",
    focus: str | None = None,
) -> Image.Image:
    """The board as an RGB image: holdings, units, battles, this phase's moves, title, legend.

    ``moves`` are the ``UnitsMoved`` events to draw as arrows (the caller passes those of the
    current phase); ``title`` goes first in the title bar (e.g. the game's id); ``focus``
    crops and enlarges around that space. Raises ``GeometryError`` for a space without
    geometry.
    """
    edition = state.edition
    view = full_view(geometry) if focus is None else focus_view(geometry, focus)
    base = base_layer(edition, geometry, view)
    out = _holdings(base, _palette(edition, state, base.order, base.hatched))
    draw = ImageDraw.Draw(out)
    u = view.ui
    colours = theme.power_colours(edition)
    top = base.map_top
    ow, _ = view.out_size

    def to_out(x: float, y: float, k: int) -> tuple[float, float]:
        X, Y = view.xy(x, y, k)
        return X, Y + top

    if focus is not None:
        focused = geometry.spaces[focus]
        for k in view.shifts(focused.bbox[0], focused.bbox[2]):
            for ring in focused.polygons:
                pts = [to_out(x, y, k) for x, y in ring]
                draw.line([*pts, pts[0]], fill=theme.FOCUS, width=max(3, round(2.5 * u)),
                          joint="curve")
    # Battles: contested spaces outlined; their markers are laid out with the chips.
    open_battles = [s for s, b in state.battles.items() if b.step != "done"]
    for name in open_battles:
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        for k in view.shifts(shape.bbox[0], shape.bbox[2]):
            for ring in shape.polygons:
                pts = [to_out(x, y, k) for x, y in ring]
                draw.line([*pts, pts[0]], fill=theme.BATTLE, width=max(3, round(3 * u)),
                          joint="curve")
    plan = layout(base, geometry, edition, map_items(state))
    for lead in plan.leaders:
        ink = colours.get(lead.power, _GREY).ink
        width = max(1, round(1.5 * chip_unit(u)))
        draw.line([lead.start, lead.end], fill=(255, 255, 255), width=width + 2)
        draw.line([lead.start, lead.end], fill=ink, width=width)
        r = 2.5 * chip_unit(u)
        ex, ey = lead.end
        draw.ellipse((ex - r, ey - r, ex + r, ey + r), fill=ink, outline=(255, 255, 255))
    cargo_inks = tuple(sorted(colours.items()))
    for p in plan.placed:
        x0, y0, x1, _ = p.box
        if x1 < -60 or x0 > ow + 60:
            continue
        if isinstance(p.item, Marker):
            _draw_marker(draw, p.item, p.box, p.scale, colours)
        else:
            sprite = _chip_sprite(p.item, p.scale, colours.get(p.item.power, _GREY), cargo_inks)
            out.paste(sprite, (round(x0), round(y0)), sprite)
    # Moves of this phase
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for e in moves:
        for m in e.moves:
            key = (e.power, m.path)
            if key in seen or len(m.path) < 2:
                continue
            seen.add(key)
            pts = _unwrapped_path(geometry, m.path)
            if len(pts) < 2:
                continue
            xs = [p[0] for p in pts]
            ink = colours[e.power].ink if e.power in colours else _GREY.ink
            for k in view.shifts(min(xs), max(xs)):
                _draw_arrow(draw, [to_out(x, y, k) for x, y in pts], u, ink)
    # The title bar and the legend cover whatever was drawn past the map's edges.
    bar = base.chrome.crop((0, 0, ow, top + 1))
    out.paste(bar, (0, 0))
    out.paste(base.chrome.crop((0, top, ow, base.chrome.height)), (0, base.legend_top))
    draw.line([(0, top), (ow, top)], fill=theme.BORDER, width=1)
    _draw_title(draw, state, title, focus, ow, top)
    _draw_powers(draw, state, colours, base.legend_top, ow)
    return out


_GREY = theme.PowerColours(fill=(180, 180, 180), ink=(80, 80, 80), text=(255, 255, 255))


def _draw_title(draw: ImageDraw.ImageDraw, state: GameState, title: str, focus: str | None,
                width: int, height: int) -> None:
    ed = state.edition
    f = theme.font(22, bold=True)
    small = theme.font(18, bold=False)
    left = ed.rules.title + (f" · {title}" if title else "") + (f" · {focus}" if focus else "")
    draw.text((14, height / 2), left, font=f, fill=theme.BAR_TEXT, anchor="lm")
    if state.winner:
        right = f"Round {state.round} · won by the {state.winner}"
    else:
        phase = ed.phase_info[state.phase].name if state.phase in ed.phase_info else state.phase
        right = f"Round {state.round} · {state.power} · {phase}"
    colours = theme.power_colours(ed)
    tw = f.getlength(right)
    x = width - 14 - tw
    draw.text((x, height / 2), right, font=f, fill=theme.BAR_TEXT, anchor="lm")
    if not state.winner and state.power in colours:
        c = colours[state.power]
        draw.rounded_rectangle((x - 34, height / 2 - 11, x - 10, height / 2 + 11), radius=4,
                               fill=c.fill, outline=c.ink, width=3)
    del small


def _draw_powers(draw: ImageDraw.ImageDraw, state: GameState,
                 colours: dict[str, theme.PowerColours], top: int, width: int) -> None:
    ed = state.edition
    income = state.income()
    powers = list(ed.turn_order)
    f = theme.font(17, bold=True)
    small = theme.font(15)
    slot = (width - 24) / max(1, len(powers))
    y = top + 24
    for i, p in enumerate(powers):
        x = 12 + i * slot
        c = colours.get(p, _GREY)
        draw.rounded_rectangle((x, y - 14, x + 34, y + 14), radius=5, fill=c.fill, outline=c.ink,
                               width=4)
        if p == state.power and not state.winner:
            draw.rectangle((x - 4, y - 18, x + slot - 10, y + 18), outline=c.ink, width=2)
        draw.text((x + 42, y - 1), p, font=f, fill=theme.TEXT, anchor="ls")
        side = ed.powers[p].side
        money = f"{side} · {state.treasury.get(p, 0)} IPCs · income {income.get(p, 0)}"
        draw.text((x + 42, y + 2), money, font=small, fill=(60, 60, 60), anchor="lt")
