"""Board-wide placement of unit chips and markers: each inside its own space, none on another,
none on a name, a value, a capital star or a sea-zone number (issue 14).

The search reads two images of the view, built once with the base layer (``Room``):

- ``index``: the space number of every output pixel (land drawn over sea, so an island is not
  its sea zone's water);
- ``blocked``: the pixels a chip may not cover, whatever its space: a band along every border
  (a chip there could be read as standing in the space next door) and every fixed label.

A chip's box fits its space when every pixel under it has the space's number and none is
blocked (``Room.fits``: two crops, two ``getextrema`` calls in C). A space's chips are placed
nearest its anchor first (the map data's first unit placement point, or just under a sea
zone's number), in rows. What does not fit is handled in this order (``place_space``): the
chips shrink; a power's chips are stacked into one chip with the count of all its units; the
chips go to the nearest free spot outside, joined to their space by a leader line
(``place_outside``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, cast

from PIL import Image, ImageChops, ImageDraw, ImageFilter

Rect = tuple[float, float, float, float]
Size = tuple[float, float]

SHRINK = (1.0, 0.85, 0.72, 0.6)  # chip scales tried before stacking
CANDIDATES = 900  # places looked at per chip, nearest the anchor first


def apart(r: Rect, q: Rect, pad: float = 0.0) -> bool:
    """Whether two boxes are at least ``pad`` apart."""
    return r[2] + pad <= q[0] or q[2] + pad <= r[0] or r[3] + pad <= q[1] or q[3] + pad <= r[1]


def _box(r: Rect) -> tuple[int, int, int, int]:
    return (math.floor(r[0]), math.floor(r[1]), math.ceil(r[2]), math.ceil(r[3]))


@dataclass(frozen=True, slots=True, eq=False)
class Room:
    """Where chips may go in one view (output pixels)."""

    index: Image.Image  # mode "L": space number per pixel, no hatching
    blocked: Image.Image  # mode "L": 255 near a border or under a label
    top: int  # the map area's first row
    bottom: int  # one past its last row
    width: int
    reserved: frozenset[int]  # index values that are no space (gaps, title bar, legend)
    pixels: Any = None  # index.load(): quick single-pixel reads
    blocked_pixels: Any = None

    def fits(self, r: Rect, number: int) -> bool:
        """The box lies inside space ``number``, off its borders and off every label."""
        box = _box(r)
        if box[0] < 0 or box[1] < self.top or box[2] > self.width or box[3] > self.bottom:
            return False
        px, bx = self.pixels, self.blocked_pixels
        # The middle and the corners first: most misses are plain misses.
        for x, y in (((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), (box[0], box[1]),
                     (box[2] - 1, box[3] - 1), (box[0], box[3] - 1), (box[2] - 1, box[1])):
            if px[x, y] != number or bx[x, y]:
                return False
        if self.index.crop(box).getextrema() != (number, number):
            return False
        hi = self.blocked.crop(box).getextrema()[1]
        return hi == 0

    def room_for(self, number: int, area: Rect) -> int:
        """How many pixels of space ``number`` within ``area`` a chip may cover."""
        box = _box(area)
        box = (max(0, box[0]), max(self.top, box[1]), min(self.width, box[2]),
               min(self.bottom, box[3]))
        if box[0] >= box[2] or box[1] >= box[3]:
            return 0
        inside = self.index.crop(box).point([255 if v == number else 0 for v in range(256)])
        clear = self.blocked.crop(box).point([0 if v else 255 for v in range(256)])
        return ImageChops.multiply(inside, clear).histogram()[255]

    def free(self, r: Rect, taken: Image.Image) -> int | None:
        """The space a box lies wholly in, off borders, labels and the chips painted in
        ``taken`` (a copy of ``blocked``); None if it does not."""
        box = _box(r)
        if box[0] < 0 or box[1] < self.top or box[2] > self.width or box[3] > self.bottom:
            return None
        lo, hi = cast(tuple[int, int], self.index.crop(box).getextrema())
        if lo != hi or lo in self.reserved:
            return None
        if taken.crop(box).getextrema()[1]:
            return None
        return lo


_ANY = [255 if v else 0 for v in range(256)]


def build_room(
    index: Image.Image, labels: Sequence[Rect], margin: float, top: int, bottom: int,
    reserved: Sequence[int],
) -> Room:
    """The room of a view: ``index`` without hatching; chips keep ``margin`` pixels off
    borders and off the ``labels``."""
    edges = index.filter(ImageFilter.FIND_EDGES).point(_ANY)
    r = max(1, round(margin))
    # A box blur then any-positive is a square dilation by r (cheaper than MaxFilter).
    blocked = edges.filter(ImageFilter.BoxBlur(r)).point(_ANY)
    draw = ImageDraw.Draw(blocked)
    for x0, y0, x1, y1 in labels:
        draw.rectangle((math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 1,
                        math.ceil(y1) + 1), fill=255)
    return Room(index, blocked, top, bottom, index.width, frozenset(reserved), index.load(),
                blocked.load())


def _spots(size: Size, anchor: tuple[float, float], area: Rect, pad: float,
           limit: int = CANDIDATES) -> Iterator[Rect]:
    """Boxes of ``size`` over ``area``, nearest ``anchor`` first, rows preferred to columns
    (lazily: most chips take one of the first)."""
    w, h = size
    ax, ay = anchor
    sx, sy = max(2.0, (w + pad) / 4), max(2.0, (h + pad) / 2)
    x0, y0, x1, y1 = area
    # No farther than about the ``limit`` nearest places reach: a big space needs no more.
    reach = math.ceil(math.sqrt(limit / 2))
    left, top = ax - w / 2, ay - h / 2
    for i, j in _order(reach, round(sx / sy, 1)):
        x, y = left + i * sx, top + j * sy
        if x0 - w <= x <= x1 and y0 - h <= y <= y1:
            yield (x, y, x + w, y + h)


@lru_cache(maxsize=256)
def _order(reach: int, ratio: float) -> list[tuple[int, int]]:
    """Grid steps nearest first (rows preferred to columns), for steps ``ratio`` times wider
    than high: shared by every chip of about the same shape."""
    steps = [(i, j) for i in range(-reach, reach + 1) for j in range(-reach // 2, reach // 2 + 1)]
    steps.sort(key=lambda p: (p[0] * ratio) ** 2 + 2.2 * p[1] ** 2)
    return steps


def place_group(
    room: Room, number: int, sizes: Sequence[Size], anchors: Sequence[tuple[float, float]],
    area: Rect, pad: float, taken: Sequence[Rect] = (),
) -> list[Rect] | None:
    """Boxes for all ``sizes`` inside space ``number`` (each nearest its anchor: the i-th size
    takes ``anchors[min(i, len - 1)]``), apart from each other and from ``taken``; None if one
    does not fit."""
    placed: list[Rect] = list(taken)
    out: list[Rect] = []
    for i, size in enumerate(sizes):
        anchor = anchors[min(i, len(anchors) - 1)]
        spot = next((r for r in _spots(size, anchor, area, pad)
                     if all(apart(r, q, pad) for q in placed) and room.fits(r, number)), None)
        if spot is None:
            return None
        placed.append(spot)
        out.append(spot)
    return out


def crosses(a: tuple[float, float], b: tuple[float, float], r: Rect) -> bool:
    """Whether the segment a-b passes through the box ``r`` (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - r[0]), (dx, r[2] - x0), (-dy, y0 - r[1]), (dy, r[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def place_outside(
    room: Room, taken: Image.Image, sizes: Sequence[Size], anchor: tuple[float, float],
    pad: float, reach: float, labels: Sequence[Rect] = (),
) -> tuple[list[Rect], bool] | None:
    """A block of boxes (one row, or two) at the free place nearest ``anchor``, each box
    wholly inside one space and off everything in ``taken``, its leader line to ``anchor``
    crossing none of ``labels`` if it can (then True), else crossing them (False); None if
    nothing is free within ``reach``."""
    if not sizes:
        return [], True
    rows = [list(sizes)] if len(sizes) <= 3 else [list(sizes[: (len(sizes) + 1) // 2]),
                                                   list(sizes[(len(sizes) + 1) // 2:])]
    bw = max(sum(w for w, _ in row) + pad * (len(row) - 1) for row in rows)
    bh = sum(max(h for _, h in row) for row in rows) + pad * (len(rows) - 1)
    ax, ay = anchor
    area = (ax - reach, ay - reach, ax + reach, ay + reach)
    near = [r for r in labels if not apart(r, area)]
    crossing: list[Rect] | None = None
    for block in _spots((bw, bh), anchor, area, pad, 2500):
        boxes: list[Rect] = []
        y = block[1]
        for row in rows:
            x = block[0]
            for w, h in row:
                boxes.append((x, y, x + w, y + h))
                x += w + pad
            y += max(h for _, h in row) + pad
        grown = [(a - pad, b - pad, c + pad, d + pad) for a, b, c, d in boxes]
        if all(room.free(g, taken) is not None for g in grown):
            start = leader_start(union(boxes), anchor)
            if not any(crosses(start, anchor, r) for r in near):
                return boxes, True
            crossing = crossing or boxes
    return None if crossing is None else (crossing, False)


def leader_start(box: Rect, to: tuple[float, float]) -> tuple[float, float]:
    """Where a leader line leaves a chip block: the point of its edge nearest ``to``."""
    x = min(max(to[0], box[0]), box[2])
    y = min(max(to[1], box[1]), box[3])
    return x, y


def union(rects: Sequence[Rect]) -> Rect:
    return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects),
            max(r[3] for r in rects))


def inside_polygons(rings: Sequence[Sequence[tuple[float, float]]]) -> Callable[
        [float, float], bool]:
    """Even-odd point-in-polygon over ``rings`` (output pixels)."""

    def test(x: float, y: float) -> bool:
        hit = False
        for ring in rings:
            n = len(ring)
            for i in range(n):
                (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    hit = not hit
        return hit

    return test
