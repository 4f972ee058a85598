"""The views of the map image (``render/map.py``): the whole board, or a space enlarged, as a
window onto the board's geometry that may continue across its east-west edge."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from render.geo import Geometry, GeometryError, SpaceShape

FULL_WIDTH = 2000  # output width of the whole board
ZOOM = 2.0  # a focused view enlarges this much over the whole board
FOCUS_SIZE = (1600, 1000)  # output size of a focused view's map area

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


def _apart(r: Rect, q: Rect, pad: float) -> bool:
    return r[2] + pad <= q[0] or q[2] + pad <= r[0] or r[3] + pad <= q[1] or q[3] + pad <= r[1]


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
