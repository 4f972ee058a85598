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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render import theme
from render.geo import Geometry, GeometryError, Point, SpaceShape
from render.icons import draw_icon
from rules.edition import Edition
from rules.events import UnitsMoved
from rules.state import GameState

FULL_WIDTH = 2000  # output width of the whole board
ZOOM = 2.0  # a focused view enlarges this much over the whole board
FOCUS_SIZE = (1600, 1000)  # output size of a focused view's map area

FACTORY = "industrial complex"

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
    return 96


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
    # space -> the labels its chips keep off: its own, then its neighbours' that lie near it
    near: dict[str, tuple[tuple[float, float, float, float], ...]] = field(default_factory=dict)


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
    # Sea labels after the land's: one that would cover a land label moves off it, within its
    # zone (the maps without TripleA's label places put names at the centres).
    for shape, k in items:
        if edition.spaces[shape.name].kind != "sea":
            continue
        text = _wrap_label(sea_label(shape.name, edition.spaces[shape.name].aliases))
        # A zone's number stands out; a sea's name, a word or three, is a size smaller.
        sea_size = max(10, round((13 if text.isdigit() else 12) * u))
        sea_font = theme.font(sea_size, condensed=True, bold=True)
        x, y = at(*shape.label, k)
        text_box: Rect = odraw.textbbox((x, y), text, font=sea_font, anchor="mm",
                                        stroke_width=1)
        if any(not _apart(text_box, q, 0) for q in drawn):
            x, y, text_box = _sea_label_spot(shape, view, k, top, (x, y), drawn, text_box)
        _text_centered(odraw, (x, y), text, sea_size, theme.WATER_TEXT, halo=theme.WATER,
                       stroke=1)
        drawn.append(text_box)
        _record(labels, shape.name, [text_box], k * view.wrap_w * view.scale)
    # Labels and lines stop at the map's edges; the bar and the legend are pasted over them.
    chrome = Image.new("RGB", (ow, bar + legend), theme.BACKGROUND)
    cdraw = ImageDraw.Draw(chrome)
    cdraw.rectangle((0, 0, ow, bar - 1), fill=theme.BAR)
    cdraw.line([(0, bar), (ow, bar)], fill=theme.BORDER, width=1)
    _draw_key(cdraw, edition, (0, bar, ow, bar + legend))
    return BaseLayer(view, index, overlay, order, bar, bar + oh, chrome,
                     {name: tuple(r) for name, r in labels.items()},
                     {n: tuple(b) for n, b in boxes.items()}, hatched,
                     _near_labels(geometry, view, top, labels))


def _near_labels(
    geometry: Geometry, view: View, top: int, labels: dict[str, list[Rect]]
) -> dict[str, tuple[Rect, ...]]:
    """Per space, its labels and the other labels within a chip's reach of it."""
    reach = 100 * view.ui  # as far as _layout looks around a space's slots
    every = [(name, r) for name, rects in labels.items() for r in rects]
    out: dict[str, tuple[Rect, ...]] = {}
    for name, shape in geometry.spaces.items():
        (x0, y0), (x1, y1) = view.xy(shape.bbox[0], shape.bbox[1]), view.xy(shape.bbox[2],
                                                                             shape.bbox[3])
        zone = (x0 - reach, y0 + top - reach, x1 + reach, y1 + top + reach)
        others = [r for n, r in every if n != name and not _apart(r, zone, 0)]
        out[name] = (*labels.get(name, ()), *others)
    return out


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
    _burst(draw, x + 10, y + 9, 10)
    draw.text((x + 24, y + 9), "battle", font=f, fill=(*theme.TEXT, 255), anchor="lm")
    x += 24 + round(f.getlength("battle")) + 16
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
    power: str
    unit: str
    count: int


def stacks(state: GameState) -> dict[str, list[Chip]]:
    """Unit chips per space: powers in turn order, complexes first, then edition unit order."""
    counts: dict[tuple[str, str, str], int] = {}
    for u in state.units.values():
        key = (u.space, u.owner, u.type)
        counts[key] = counts.get(key, 0) + 1
    unit_rank = {t: i for i, t in enumerate(state.edition.units)}
    unit_rank[FACTORY] = -1
    power_rank = {p: i for i, p in enumerate(state.edition.turn_order)}
    out: dict[str, list[Chip]] = {}
    for (space, power, unit), n in sorted(
        counts.items(),
        key=lambda kv: (kv[0][0], power_rank.get(kv[0][1], 99), unit_rank.get(kv[0][2], 99)),
    ):
        out.setdefault(space, []).append(Chip(power, unit, n))
    return out


CHIP = 1.2  # chip size on the whole board, relative to the design below


def _chip_font(u: float) -> ImageFont.FreeTypeFont:
    return theme.font(max(9, round(11 * CHIP * u)), condensed=True, bold=True)


def _chip_size(chip: Chip, u: float) -> tuple[float, float]:
    c = CHIP * u
    return (21 * c + _chip_font(u).getlength(str(chip.count)) + 3 * c, 14 * c)


@lru_cache(maxsize=2048)
def _chip_sprite(chip: Chip, u: float, colours: theme.PowerColours) -> Image.Image:
    """A chip drawn once (RGBA), pasted wherever it is needed."""
    w, h = _chip_size(chip, u)
    c = CHIP * u
    sprite = Image.new("RGBA", (math.ceil(w) + 1, math.ceil(h) + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, w, h), radius=max(2, round(3 * c)), fill=colours.ink,
                           outline=(255, 255, 255), width=1)
    draw_icon(draw, chip.unit, (2.5 * c, 2 * c, 20 * c, h - 2 * c), colours.text)
    draw.text((20.5 * c, h / 2 + 0.5), str(chip.count), font=_chip_font(u),
              fill=colours.text, anchor="lm")
    return sprite


def _draw_chip(out: Image.Image, chip: Chip, x: float, y: float, u: float,
               colours: theme.PowerColours) -> None:
    sprite = _chip_sprite(chip, u, colours)
    out.paste(sprite, (round(x), round(y)), sprite)


def _apart(r: Rect, q: Rect, pad: float) -> bool:
    return r[2] + pad <= q[0] or q[2] + pad <= r[0] or r[3] + pad <= q[1] or q[3] + pad <= r[1]


_SMALL = 4  # a space holding fewer of _layout's places around its slots is small


def _scan(area: Rect, w: float, h: float, near: tuple[float, float],
          inside: Callable[[float, float], bool], ok: Callable[[Rect], bool]) -> list[Rect]:
    """The first place for a w x h chip in ``area`` (a fine grid, nearest ``near`` first)
    whose middle and both ends lie inside the space and that ``ok`` accepts."""
    x0, y0, x1, y1 = area
    cols = max(1, int((x1 - x0 - w) // (w / 3)) + 1)
    rows = max(1, int((y1 - y0 - h) // (h / 2)) + 1)
    spots = sorted(
        ((x0 + i * w / 3, y0 + j * h / 2) for i in range(cols) for j in range(rows)),
        key=lambda p: (p[0] + w / 2 - near[0]) ** 2 + (p[1] + h / 2 - near[1]) ** 2,
    )
    for x, y in spots:
        r = (x, y, x + w, y + h)
        if ok(r) and inside(x + w / 2, y + h / 2) and inside(x + 2, y + h / 2) and inside(
                x + w - 2, y + h / 2):
            return [r]
    return []


def _layout(
    chips: Sequence[Chip],
    slots: Sequence[tuple[float, float]],
    u: float,
    avoid: Sequence[Rect] = (),
    inside: Callable[[float, float], bool] = lambda x, y: True,
    area: Rect | None = None,
) -> list[tuple[float, float]]:
    """Top-left corners for the chips: each at the first slot free of other chips and of the
    labels nearby (``avoid``: the space's name, value and capital marker, its neighbours');
    past the slots, in rows around them, inside the space where there is room; then anywhere
    in the space (``area``: its bounding box), nearest the slots first; a small space's chips
    go beside it."""
    placed: list[Rect] = []
    out: list[tuple[float, float]] = []
    pad = 1.5 * u

    def free(r: Rect) -> bool:
        return all(_apart(r, q, pad) for q in placed)

    for chip in chips:
        w, h = _chip_size(chip, u)
        spot: Rect | None = None
        rects = [(sx - w / 2, sy - h / 2, sx + w / 2, sy + h / 2) for sx, sy in slots]
        for r in rects:
            if free(r) and all(_apart(r, q, 0) for q in avoid):
                spot = r
                break
        if spot is None:
            # Around the slots: rows below and above, columns either side.
            cx = sum(x for x, _ in slots) / len(slots)
            cy = max(y for _, y in slots)
            grid = [
                (cx + i * (w + pad) - w / 2, cy + j * (h + pad) - h / 2)
                for j in (0, 1, -1, 2, -2, 3, -3, 4)
                for i in (0, 1, -1, 2, -2)
            ]
            around = [(x, y, x + w, y + h) for x, y in grid]
            within = [r for r in around if inside((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)]
            clear = [r for r in within if free(r) and all(_apart(r, q, 0) for q in avoid)]
            if not clear and area is not None:
                clear = _scan(area, w, h, (cx, sum(y for _, y in slots) / len(slots)), inside,
                              lambda r: free(r) and all(_apart(r, q, 0) for q in avoid))
            # A space too small for its chips and labels (an island): beside it, off the labels.
            # A larger one keeps its chips inside, on its name if need be: a chip outside
            # would read as standing in the neighbouring space.
            beside = sorted(
                (r for r in around if free(r) and all(_apart(r, q, 0) for q in avoid)),
                key=lambda r: ((r[0] + r[2]) / 2 - cx) ** 2 + ((r[1] + r[3]) / 2 - cy) ** 2,
            ) if len(within) < _SMALL else []
            spot = next(iter(clear), None) or next(iter(beside), None) or next(
                (r for r in [*rects, *within, *around] if free(r)), None
            )
        if spot is None:
            low = max(q[3] for q in placed)
            spot = (placed[0][0], low + pad, placed[0][0] + w, low + pad + h)
        placed.append(spot)
        out.append((spot[0], spot[1]))
    return out


_LAYOUTS: dict[tuple[int, str, int, tuple[tuple[float, float], ...]],
               tuple[BaseLayer, list[tuple[float, float]]]] = {}


def _placed(
    base: BaseLayer,
    space: str,
    k: int,
    chips: tuple[Chip, ...],
    slots: Sequence[tuple[float, float]],
    u: float,
    avoid: Sequence[Rect],
    inside: Callable[[float, float], bool],
    area: Rect | None = None,
) -> list[tuple[float, float]]:
    """``_layout`` remembered: a stack laid out once stays put while its chips' sizes do."""
    key = (id(base), space, k, tuple(_chip_size(c, u) for c in chips))
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is base:
        return hit[1]
    if len(_LAYOUTS) > 4096:
        _LAYOUTS.clear()
    placed = _layout(chips, slots, u, avoid, inside, area)
    _LAYOUTS[key] = (base, placed)
    return placed


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
    # Battles: contested spaces outlined, a burst by their name.
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
    # Units
    for space, chips in stacks(state).items():
        shape = geometry.spaces.get(space)
        if shape is None:
            continue
        for k in view.shifts(shape.bbox[0], shape.bbox[2]):
            slots = [to_out(x, y, k) for x, y in (shape.units or (shape.centre,))]
            dx = k * view.wrap_w * view.scale
            avoid = [(a + dx, b, c + dx, d) for a, b, c, d in base.near.get(space, ())]
            inside = _inside(shape, view, k, top)
            (ax0, ay0), (ax1, ay1) = to_out(*shape.bbox[:2], k), to_out(*shape.bbox[2:], k)
            places = _placed(base, space, k, tuple(chips), slots, u, avoid, inside,
                             (ax0, ay0, ax1, ay1))
            for chip, (x, y) in zip(chips, places, strict=True):
                if -60 < x < ow + 60:
                    _draw_chip(out, chip, x, y, u, colours.get(chip.power, _GREY))
    for name in open_battles:
        shape = geometry.spaces.get(name)
        if shape is None:
            continue
        for k in view.shifts(shape.bbox[0], shape.bbox[2]):
            # Left of the name, where the chips keep away.
            named = base.labels.get(name)
            if named:
                x0, y0, _, y1 = named[0]
                x, y = x0 + k * view.wrap_w * view.scale - 12 * u, (y0 + y1) / 2
            else:
                x, y = to_out(*shape.label, k)
            _burst(draw, x, y, 13 * u)
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
