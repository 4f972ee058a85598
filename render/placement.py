"""Where the chips go on the map (``render/map.py``): each space's chips packed in its room, or
outside it with a leader line when it has none (``layout``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import ImageChops, ImageDraw

from render.base import _CLEAR, BaseLayer, _only
from render.chips import PAD, Chip, Item, Marker, _item_size, _stacked, chip_unit
from render.geo import Geometry
from render.layout import SHRINK, Room, leader_start, place_group, place_outside, union
from render.view import Rect, View
from rules.edition import Edition


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
