"""What never changes for a view of the map (``render/map.py``): the space index image, borders,
names, values, capital stars, neutrals' hatching, the legend's key; drawn once per edition and view
and cached (``BaseLayer``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, get_args

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from render import theme
from render.chips import (
    MARGIN,
    NEUTRAL_ARMY,
    Chip,
    Item,
    Marker,
    _chip_sprite,
    _convoy,
    _draw_marker,
    _item_size,
    _star,
    _victory,
    chip_unit,
)
from render.geo import Geometry, GeometryError, Point, SpaceShape
from render.icons import draw_icon
from render.layout import Room, build_room
from render.view import Rect, View, _apart, _inside
from rules.edition import Alignment, Edition
from rules.turn import hooks

LEGEND_HEIGHT = 124  # the powers' money, the key's units and markers, the key's chip states
_ROW = 28  # one row of the key


# --------------------------------------------------------------------------------------------
# Layout of the canvas: title bar, map, legend


def _bar_height(view: View) -> int:
    return 44


def shows_war(edition: Edition) -> bool:
    """The legend says whom each power is at war with: the edition has a state of war between
    pairs of powers (its ``politics``), not simply the two sides at war throughout."""
    return edition.rules.politics is not None


def _powers_height(edition: Edition) -> int:
    """The legend's first rows: each power's name and money, and whom it is at war with."""
    return 68 if shows_war(edition) else 52


def _legend_height(edition: Edition, width: int) -> int:
    """The powers, then the key's rows (``LEGEND_HEIGHT`` where the key takes two rows)."""
    _, bottom = _flow(_legend_entries(edition), width, _powers_height(edition))
    return bottom + LEGEND_HEIGHT - 80 - _ROW


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
    # victory cities' markers, drawn per call in their holder's colour: (space, x, y, radius)
    victory: tuple[tuple[str, float, float, float], ...] = ()
    # convoy zones' symbols, drawn here: (space, x, y, radius)
    convoys: tuple[tuple[str, float, float, float], ...] = ()


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
    bar, legend = _bar_height(view), _legend_height(edition, ow)
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
    victory: list[tuple[str, float, float, float]] = []
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
        # Names by the board's edge stay whole (TripleA lets some run off); a name wholly
        # outside a view of part of the board stays there.
        inside = name_box[2] > 0 and name_box[0] < ow
        nudge = 0.0 if view.wrap_w or not inside else (
            max(0.0, 2 - name_box[0]) - max(0.0, name_box[2] - (ow - 2)))
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
    # Victory cities' markers where the map has them, moved off the labels if need be; drawn
    # per call, in the holder's colour.
    marked: set[str] = set()
    for shape, k in items:
        if shape.name not in edition.map.victory_cities or shape.victory is None:
            continue
        r = VICTORY_RADIUS * u
        vx, vy = _free_spot(shape, view, k, top, at(*shape.victory, k), r, drawn)
        victory.append((shape.name, vx, vy, r))
        mark = (vx - r, vy - r, vx + r, vy + r)
        drawn.append(mark)
        if shape.name not in marked:
            marked.add(shape.name)
            dx = k * view.wrap_w * view.scale
            labels.setdefault(shape.name, []).append((mark[0] - dx, mark[1], mark[2] - dx,
                                                      mark[3]))
    # Sea labels after the land's, at the point deepest inside the zone as the board shows it
    # (islands drawn over it are not its water): where the eye looks for a zone's number, away
    # from the zones next to it, with room for its ships around it. One that would still cover
    # a land label moves off it, within its zone.
    clean = _clean_index(index, hatch_number, number)
    convoys = set(edition.map.convoy_zones)
    convoy_marks: list[tuple[str, float, float, float]] = []
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
        rects = [text_box]
        if shape.name in convoys:
            # The convoy symbol beside the zone's label, within the zone if it can be.
            r = CONVOY_RADIUS * u
            cx, cy = _convoy_spot(shape, view, k, top, text_box, r, drawn)
            _convoy(odraw, cx, cy, r)
            convoy_marks.append((shape.name, cx, cy, r))
            rects.append((cx - r, cy - r, cx + r, cy + r))
            drawn.append(rects[-1])
        _record(labels, shape.name, rects, k * view.wrap_w * view.scale)
    # Labels and lines stop at the map's edges; the bar and the legend are pasted over them.
    chrome = Image.new("RGB", (ow, bar + legend), theme.BACKGROUND)
    cdraw = ImageDraw.Draw(chrome)
    cdraw.rectangle((0, 0, ow, bar - 1), fill=theme.BAR)
    cdraw.line([(0, bar), (ow, bar)], fill=theme.BORDER, width=1)
    placed, _ = _flow(_legend_entries(edition), ow, bar + _powers_height(edition))
    for entry, x, y in placed:
        entry.paint(chrome, cdraw, x, y)
    room = build_room(clean, drawn, MARGIN * chip_unit(u), top, top + oh,
                      (_GAP_INDEX, _BAR_INDEX, _LEGEND_INDEX))
    return BaseLayer(view, index, overlay, order, bar, bar + oh, chrome,
                     {name: tuple(r) for name, r in labels.items()},
                     {n: tuple(b) for n, b in boxes.items()}, hatched, room, tuple(drawn),
                     tuple(victory), tuple(convoy_marks))


VICTORY_RADIUS = 11.0  # a victory city's marker on the whole board (a capital's star's size)
CONVOY_RADIUS = 9.0  # a convoy zone's symbol


def _free_spot(shape: SpaceShape, view: View, k: int, top: int, at: tuple[float, float],
               r: float, taken: Sequence[Rect]) -> tuple[float, float]:
    """The nearest point to ``at`` where a marker of radius ``r`` lies within the space and
    off the labels ``taken`` (``at`` itself if nothing nearby is)."""
    inside = _inside(shape, view, k, top)
    x0, y0 = at
    steps = sorted(((i * r / 2, j * r / 2) for i in range(-12, 13) for j in range(-12, 13)),
                   key=lambda d: d[0] ** 2 + d[1] ** 2)
    for dx, dy in steps:
        x, y = x0 + dx, y0 + dy
        box = (x - r, y - r, x + r, y + r)
        if all(inside(*c) for c in ((x, y), (x - r, y), (x + r, y), (x, y - r), (x, y + r))) \
                and all(_apart(box, q, 1) for q in taken):
            return x, y
    return at


def _convoy_spot(shape: SpaceShape, view: View, k: int, top: int, label: Rect, r: float,
                 taken: Sequence[Rect]) -> tuple[float, float]:
    """Where a convoy zone's symbol goes: right of its label, else left, below or above it,
    else the nearest place, wholly inside the zone and off the labels ``taken``."""
    inside = _inside(shape, view, k, top)
    x0, y0, x1, y1 = label
    my = (y0 + y1) / 2
    gap = r * 0.5
    spots = [(x1 + gap + r, my), (x0 - gap - r, my), ((x0 + x1) / 2, y1 + gap + r),
             ((x0 + x1) / 2, y0 - gap - r)]
    for cx, cy in spots:
        box = (cx - r, cy - r, cx + r, cy + r)
        corners = ((cx, cy), (cx - r, cy), (cx + r, cy), (cx, cy - r), (cx, cy + r))
        if all(inside(*c) for c in corners) and all(_apart(box, q, 0) for q in taken):
            return cx, cy
    return _free_spot(shape, view, k, top, spots[0], r, taken)


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

_Paint = Callable[[Image.Image, ImageDraw.ImageDraw, float, float], None]


@dataclass(frozen=True, slots=True)
class _Entry:
    """One entry of the key: ``span`` pixels wide, the next ``advance`` pixels on, drawn by
    ``paint(image, draw, x, y)`` at its row's top ``y``."""

    span: float
    advance: float
    paint: _Paint
    text: str = ""  # its words


def _flow(groups: Sequence[Sequence[_Entry]], width: int,
          top: int) -> tuple[list[tuple[_Entry, float, float]], int]:
    """The key's entries in rows from ``top``, each group on rows of its own, an entry that
    would run past the right edge on the next row; and the top of the row after the last."""
    out: list[tuple[_Entry, float, float]] = []
    y = top
    for group in groups:
        x: float = 12
        for e in group:
            if x > 12 and x + e.span > width - 12:
                x, y = 12, y + _ROW
            out.append((e, x, y))
            x += e.advance
        y += _ROW
    return out, y


def _key_font() -> ImageFont.FreeTypeFont:
    return theme.font(13, condensed=True, bold=True)


def _labelled(text: str, at: float, gap: float, symbol: _Paint) -> _Entry:
    """A symbol drawn at the entry's left, its words from ``at``, the next entry ``gap``
    further."""
    f = _key_font()
    n = round(f.getlength(text))

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        symbol(image, draw, x, y)
        draw.text((x + at, y + 9), text, font=f, fill=(*theme.TEXT, 255), anchor="lm")

    return _Entry(at + n, at + n + gap, paint, text)


def _legend_entries(edition: Edition) -> tuple[list[_Entry], list[_Entry]]:
    """The key: units and the map's markers and shadings; then what a chip's look says."""
    return _key_entries(edition), _state_entries(edition)


def _unit_entry(t: str) -> _Entry:
    def icon(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        draw.rounded_rectangle((x, y, x + 26, y + 18), radius=4, fill=(70, 70, 70, 255))
        draw_icon(draw, t, (x + 3, y + 3, x + 23, y + 15), (255, 255, 255))

    label = _unit_label(t)
    # as drawn before the key could wrap: the next unit 36 + its words + 10 on
    return _Entry(30 + round(_key_font().getlength(label)),
                  46 + round(_key_font().getlength(label)), _with_text(icon, label, 30), label)


def _with_text(symbol: _Paint, text: str, at: float) -> _Paint:
    f = _key_font()

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        symbol(image, draw, x, y)
        draw.text((x + at, y + 9), text, font=f, fill=(*theme.TEXT, 255), anchor="lm")

    return paint


def _swatch(fill: tuple[int, int, int], hatch: tuple[int, int, int], *,
            falling: bool = True, width: int = 2) -> _Paint:
    """A patch of a neutral territory's look: its tint, hatched."""

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        draw.rectangle((x, y + 1, x + 22, y + 17), fill=(*fill, 255),
                       outline=(*theme.BORDER, 255))
        for c in range(round(x) - 16, round(x) + 22, 6):
            if falling:
                draw.line([(max(x, c), y + 1 + max(0, x - c)), (min(x + 22, c + 16), y + 17 -
                           max(0, c + 16 - x - 22))], fill=(*hatch, 255), width=width)
            else:
                draw.line([(max(x, c), y + 17 - max(0, x - c)), (min(x + 22, c + 16), y + 1 +
                           max(0, c + 16 - x - 22))], fill=(*hatch, 255), width=width)
        if falling:
            draw.rectangle((x, y + 1, x + 22, y + 17), outline=(*theme.BORDER, 255))

    return paint


def alignment_words(alignment: str) -> str:
    """How the key names an alignment of the edition data: 'strict', 'pro_x' -> 'pro-X'."""
    head, _, rest = alignment.partition("_")
    return f"{head}-{rest.capitalize()}" if rest else head


def _key_entries(edition: Edition) -> list[_Entry]:
    units = [t for t in _UNIT_KEY if t in edition.units] + [
        t for t in edition.units if t not in _UNIT_KEY
    ]
    # A purchase that only turns one piece into another never stands on the board.
    out = [_unit_entry(t) for t in units if not edition.units[t].abilities.upgrades]

    def star(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        draw.polygon(_star(x + 10, y + 9, 10), fill=(60, 60, 60, 255),
                     outline=(255, 255, 255, 255))

    out.append(_labelled("capital", 24, 18, star))

    def arrow(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        draw.line([(x, y + 9), (x + 26, y + 9)], fill=(60, 60, 60, 255), width=4)
        draw.polygon([(x + 34, y + 9), (x + 24, y + 3), (x + 24, y + 15)],
                     fill=(60, 60, 60, 255))

    out.append(_labelled("moved this phase", 40, 16, arrow))
    if edition.map.victory_cities:

        def city(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
            _victory(draw, x + 10, y + 9, VICTORY_RADIUS, (70, 70, 70))

        out.append(_labelled("victory city (its holder's colour)", 24, 18, city))
    if edition.map.convoy_zones:

        def convoy(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
            _convoy(draw, x + 10, y + 9, CONVOY_RADIUS)

        out.append(_labelled("convoy zone", 24, 18, convoy))
    # Neutrals as the edition has them: by alignment, hatched until someone takes one, or
    # closed to everyone.
    aligned = {n.alignment for n in edition.map.neutrals.values()}
    for a in get_args(Alignment):
        if a in aligned:
            fill, hatch = theme.ALIGNED.get(a, (theme.NEUTRAL, theme.NEUTRAL_HATCH))
            out.append(_labelled(f"neutral, {alignment_words(a)}", 28, 16, _swatch(fill, hatch)))
    if any(n.army for n in edition.map.neutrals.values()):
        army = Chip(NEUTRAL_ARMY, "infantry", 2)

        def chip(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
            sprite = _chip_sprite(army, 1.0, theme.NEUTRAL_ARMY)
            h = _item_size(army, 1.0)[1]
            image.paste(sprite, (round(x), round(y + 9 - h / 2)), sprite)

        out.append(_labelled("a neutral's army", _item_size(army, 1.0)[0] + 6, 16, chip))
    if any(takeable_neutral(edition, s) and s not in edition.map.neutrals
           for s in edition.spaces):
        out.append(_labelled("neutral (nobody holds it)", 28, 16,
                             _swatch(theme.NEUTRAL, theme.NEUTRAL_HATCH)))
    if any(s.impassable for s in edition.spaces.values()):
        out.append(_labelled("neutral, impassable", 28, 16,
                             _swatch(theme.IMPASSABLE, theme.IMPASSABLE_HATCH, falling=False,
                                     width=1)))
    return out


def _state_entries(edition: Edition) -> list[_Entry]:
    """The key's second group: what a chip's look and the markers say."""
    f = _key_font()
    boat = next((t for t, u in edition.units.items() if u.abilities.transport_capacity), None)
    land = next((t for t, u in edition.units.items() if u.domain == "land"
                 and not u.abilities.fixed), "infantry")
    two_hits = next((t for t, u in edition.units.items() if u.hits > 1), None)
    samples: list[tuple[Item, str]] = [
        (Chip("", land, 3, spent=True), "can't move again this turn")]
    if two_hits:
        samples.append((Chip("", two_hits, 1, damaged=True), "damaged"))
    # Facilities that take damage: their markers, and out of action from so many.
    hurt = sorted((u.abilities.inoperative_at == 0, t) for t, u in edition.units.items()
                  if u.abilities.max_damage)
    if hurt:
        facility = hurt[0][1]
        stop = edition.units[facility].abilities.inoperative_at
        samples.append((Chip("", facility, 1, damage=max(1, stop - 1)), "damage markers"))
        if stop:
            samples.append((Chip("", facility, 1, damage=stop, out_of_action=True),
                            "out of action"))
    if boat:
        samples.append((Chip("", boat, 1, cargo=(("", land, 2),)), "cargo aboard"))
    samples += [
        (Chip("", land, 9, stacked=True), "stacked: all of a power's units (see game map <space>)"),
        (Marker("battle"), "battle to fight"),
    ]
    samples += [(Marker(m.glyph), m.legend) for m in hooks.markers()
                if m.shown(edition)]
    samples.append((Marker("captured", ""), "taken this turn"))
    out: list[_Entry] = []
    for item, text in samples:
        w, h = _item_size(item, 1.0)
        n = round(f.getlength(text))
        out.append(_Entry(w + 6 + n, w + 6 + n + 18, _sample(item, text, w, h), text))

    last = "units of the space the line ends in"

    def leader(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        # A space too small for its chips: beside it, joined by a line.
        draw.line([(x, y + 9), (x + 22, y + 9)], fill=(70, 70, 70), width=2)
        draw.ellipse((x - 3, y + 6, x + 3, y + 12), fill=(70, 70, 70))
        draw.text((x + 28, y + 9), last, font=f, fill=theme.TEXT, anchor="lm")

    out.append(_Entry(28 + f.getlength(last), 0, leader, last))
    return out


def _sample(item: Item, text: str, w: float, h: float) -> _Paint:
    grey = theme.PowerColours(fill=(180, 180, 180), ink=(70, 70, 70), text=(255, 255, 255))
    f = _key_font()

    def paint(image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
        top = y + 9 - h / 2
        if isinstance(item, Marker):
            _draw_marker(draw, item, (x, top, x + w, top + h), 1.0, {"": grey})
        else:
            sprite = _chip_sprite(item, 1.0, grey, (("", grey),))
            image.paste(sprite, (round(x), round(top)), sprite)
        draw.text((x + w + 6, y + 9), text, font=f, fill=theme.TEXT, anchor="lm")

    return paint


_SHORT = {"aircraft carrier": "carrier", "industrial complex": "ind. complex",
          "antiaircraft gun": "AA gun"}
# Words shortened within longer names, so that a long list of units keeps to few rows.
_SHORTER = (("industrial complex", "ind. complex"), ("mechanized ", "mech. "),
            ("strategic ", "strat. "), ("tactical ", "tac. "), ("aa gun", "AA gun"))


def _unit_label(t: str) -> str:
    if t in _SHORT:
        return _SHORT[t]
    for long, short in _SHORTER:
        t = t.replace(long, short)
    return t
