"""Convert TripleA map coordinate files into Umpire's ``render/geometry/<map>.json`` (dev time).

Usage (from the repository root)::

    python -m tools.import_geometry a1941            # writes render/geometry/a1941.json
    python -m tools.import_geometry a1941 --check    # exit 1 if that file is out of date

Reads, from ``../shared/maps/<map>/map/``: ``polygons.txt`` (territory outlines, pixel-traced),
``centers.txt``, ``place.txt`` (unit image slots), ``name_place.txt`` and ``pu_place.txt``
(label positions), ``capitols.txt`` (capital markers) and ``map.properties`` (size, wrap).
Writes one JSON document in our own format (below): polygons simplified with Douglas-Peucker
at ``--tolerance`` pixels (integers), anchor points converted from TripleA's conventions to
centres, names as the edition's data names them. The game never reads ``../shared`` at run
time: only the file written here is shipped.

Format (``"format": "umpire-geometry", "version": 1``), coordinates in the source map's pixels
(origin top-left)::

    {"size": [w, h], "wrap_x": bool, "source": {...},
     "spaces": {"<name>": {"polygons": [[x0, y0, x1, y1, ...], ...],   # rings, not closed
                           "centre": [x, y],
                           "label": [x, y],      # centre of the name label
                           "value": [x, y],      # centre of the value label (null: none)
                           "capital": [x, y],    # centre of a capital marker (land capitals only)
                           "units": [[x, y], ...]}}}  # centres of unit stack slots
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONVERTER = "tools/import_geometry.py"
FORMAT = "umpire-geometry"
VERSION = 1
REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"
DEFAULT_TOLERANCE = 1.5

SEA_ZONE_TRIPLEA = re.compile(r"(\d+) Sea Zone")
POINT = re.compile(r"\((-?\d+),\s*(-?\d+)\)")

# TripleA's conventions (games.strategy.triplea.ui.mapdata / TerritoryNameDrawable):
UNIT_IMAGE = 48  # place.txt points are the top-left corners of 48x48 unit images (units.scale 1)
NAME_FONT_SIZE = 12  # name_place.txt: left end of the baseline of a bold 12 pt name
NAME_CHAR_WIDTH = 7.2  # average advance of that font per character, for the label's centre
NAME_ASCENT = 9  # pixels above the baseline of that font
PU_WIDTH, PU_ASCENT = 9, 9  # pu_place.txt: left end of the baseline of the value text
CAPITAL_MARKER = 32  # capitols.txt: top-left corner of a 32x32 flag marker


class GeometryError(Exception):
    """The coordinate files cannot be converted."""


@dataclass(frozen=True)
class MapConfig:
    """What the converter needs to know about one map's sources."""

    id: str
    repo: str
    commit: str
    folder: Path  # holds the TripleA ``map/`` files
    edition_map: Path  # our map.json, for the space names
    out: Path


A1941 = MapConfig(
    id="a1941",
    repo="https://github.com/triplea-maps/world_war_ii_v6_1941",
    commit="d51266ecb0d870b1dcd3528c0f1af2ddfde2538f",
    folder=SHARED / "maps" / "a1941" / "map",
    edition_map=REPO_ROOT / "rules" / "editions" / "a1941" / "map.json",
    out=REPO_ROOT / "render" / "geometry" / "a1941.json",
)
MAPS: dict[str, MapConfig] = {A1941.id: A1941}
FILES = (
    "polygons.txt",
    "centers.txt",
    "place.txt",
    "name_place.txt",
    "pu_place.txt",
    "capitols.txt",
    "map.properties",
)

Point = tuple[int, int]


def our_name(triplea: str) -> str:
    """TripleA '<n> Sea Zone' -> 'Sea Zone <n>'; land names are kept."""
    m = SEA_ZONE_TRIPLEA.fullmatch(triplea)
    return f"Sea Zone {m.group(1)}" if m else triplea


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    parts = re.split(r"(\d+)", text)
    return tuple((0, int(p)) if p.isdigit() else (1, p.casefold()) for p in parts if p)


# --- reading ---------------------------------------------------------------------------------


def _split_name(line: str, opener: str) -> tuple[str, str]:
    at = line.find(opener)
    if at <= 0:
        raise GeometryError(f"cannot read line {line[:60]!r}")
    return line[:at].strip(), line[at:]


def read_points(path: Path) -> dict[str, list[Point]]:
    """``Name  (x,y) (x,y) ...`` per line -> name -> points."""
    out: dict[str, list[Point]] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        name, rest = _split_name(line, "(")
        out[our_name(name)] = [(int(x), int(y)) for x, y in POINT.findall(rest)]
    return out


def read_polygons(path: Path) -> dict[str, list[list[Point]]]:
    """``Name  <  (x,y) ... >  <  ... >`` per line -> name -> rings."""
    out: dict[str, list[list[Point]]] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        name, rest = _split_name(line, "<")
        rings = [
            [(int(x), int(y)) for x, y in POINT.findall(chunk)]
            for chunk in re.findall(r"<([^>]*)>", rest)
        ]
        out[our_name(name)] = [r for r in rings if r]
    return out


def read_properties(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in path.read_text("utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


# --- simplification --------------------------------------------------------------------------


def _dist2(p: Point, a: Point, b: Point) -> float:
    """Squared distance from p to the segment a-b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    if dx == 0 and dy == 0:
        return float((px - ax) ** 2 + (py - ay) ** 2)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    qx, qy = ax + t * dx, ay + t * dy
    return (px - qx) ** 2 + (py - qy) ** 2


def douglas_peucker(points: Sequence[Point], tolerance: float) -> list[Point]:
    """Keep the points farther than ``tolerance`` from the simplified line (open polyline)."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    tol2 = tolerance * tolerance
    stack = [(0, len(points) - 1)]
    while stack:
        lo, hi = stack.pop()
        best, at = -1.0, -1
        for i in range(lo + 1, hi):
            d = _dist2(points[i], points[lo], points[hi])
            if d > best:
                best, at = d, i
        if at >= 0 and best > tol2:
            keep[at] = True
            stack.append((lo, at))
            stack.append((at, hi))
    return [p for p, k in zip(points, keep, strict=True) if k]


def simplify_ring(ring: Sequence[Point], tolerance: float) -> list[Point]:
    """A closed ring simplified: split at its first point and the point farthest from it."""
    pts = [p for i, p in enumerate(ring) if i == 0 or p != ring[i - 1]]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    if len(pts) <= 4:
        return pts
    x0, y0 = pts[0]
    far = max(range(len(pts)), key=lambda i: (pts[i][0] - x0) ** 2 + (pts[i][1] - y0) ** 2)
    first = douglas_peucker(pts[: far + 1], tolerance)
    second = douglas_peucker([*pts[far:], pts[0]], tolerance)
    out = first[:-1] + second[:-1]
    return out if len(out) >= 3 else pts[:3]


def ring_area(ring: Sequence[Point]) -> float:
    n = len(ring)
    return abs(
        sum(ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1] for i in range(n))
    ) / 2


# --- conversion ------------------------------------------------------------------------------


@dataclass
class Stats:
    points_before: int = 0
    points_after: int = 0
    rings: int = 0


def _clamp(p: list[int], size: tuple[int, int], margin: int = 12) -> list[int]:
    """A label's centre kept on the map (TripleA lets some run past the edge)."""
    return [min(max(p[0], margin), size[0] - margin), min(max(p[1], margin), size[1] - margin)]


def _first(table: dict[str, list[Point]], name: str) -> Point | None:
    points = table.get(name)
    return points[0] if points else None


def _centre_of_label(p: Point | None, text: str, char_width: float, ascent: int) -> list[int]:
    if p is None:
        return []
    x, y = p
    return [round(x + len(text) * char_width / 2), round(y - ascent / 2)]


def convert(cfg: MapConfig, folder: Path, tolerance: float) -> tuple[dict[str, Any], Stats]:
    """Build the geometry document from the coordinate files in ``folder``."""
    edition_map = json.loads(cfg.edition_map.read_text("utf-8"))
    spaces = {s["name"]: s for s in edition_map["spaces"]}
    props = read_properties(folder / "map.properties")
    polygons = read_polygons(folder / "polygons.txt")
    centres = read_points(folder / "centers.txt")
    places = read_points(folder / "place.txt")
    names = read_points(folder / "name_place.txt")
    pus = read_points(folder / "pu_place.txt")
    capitals = read_points(folder / "capitols.txt")
    problems: list[str] = []
    for label, table in (("polygons", polygons), ("centers", centres), ("place", places)):
        problems += [f"{label}.txt: unknown space {n!r}" for n in table if n not in spaces]
        problems += [f"{label}.txt: no entry for {n!r}" for n in spaces if n not in table]
    if problems:
        raise GeometryError("; ".join(problems))
    size = (int(props["map.width"]), int(props["map.height"]))
    stats = Stats()
    out_spaces: dict[str, Any] = {}
    for name in sorted(spaces, key=natural_key):
        info = spaces[name]
        rings: list[list[int]] = []
        for ring in polygons[name]:
            stats.points_before += len(ring)
            simple = simplify_ring(ring, tolerance)
            if ring_area(simple) < 1:
                continue
            stats.points_after += len(simple)
            stats.rings += 1
            rings.append([c for p in simple for c in p])
        sea = info["kind"] == "sea"
        label = name.split()[-1] if sea else name
        entry: dict[str, Any] = {
            "polygons": rings,
            "centre": list(centres[name][0]),
            # TripleA writes '<n> Sea Zone' from that point; we write only the number.
            "label": _clamp(
                _centre_of_label(_first(names, name), label, NAME_CHAR_WIDTH, NAME_ASCENT)
                or list(centres[name][0]),
                size,
            ),
            "units": [[x + UNIT_IMAGE // 2, y + UNIT_IMAGE // 2] for x, y in places[name]],
        }
        pu = _first(pus, name)
        entry["value"] = (
            _centre_of_label(pu, "0", PU_WIDTH, PU_ASCENT) if pu is not None and not sea else None
        )
        cap = _first(capitals, name)
        if cap is not None:
            entry["capital"] = [cap[0] + CAPITAL_MARKER // 2, cap[1] + CAPITAL_MARKER // 2]
        out_spaces[name] = entry
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "map": cfg.id,
        "size": list(size),
        "wrap_x": props.get("map.scrollWrapX", "false").lower() == "true",
        "source": {
            "repo": cfg.repo,
            "commit": cfg.commit,
            "files": [f"map/{f}" for f in FILES],
            "converter": CONVERTER,
            "tolerance": tolerance,
            "points_before": stats.points_before,
            "points_after": stats.points_after,
            "notes": [
                "polygons: Douglas-Peucker at the tolerance above (source pixels), integers; "
                "rings under one square pixel dropped",
                "units: centres of TripleA's 48x48 unit slots (place.txt top-left + 24)",
                "label/value: estimated centres of TripleA's name and value texts "
                "(name_place.txt, pu_place.txt give the left end of the baseline), kept on the "
                "map; for a sea zone the centre of its number (TripleA writes '<n> Sea Zone')",
                "capital: centre of TripleA's 32x32 capital marker (capitols.txt top-left + 16)",
                "names: '<n> Sea Zone' renamed 'Sea Zone <n>' as in rules/editions/*/map.json",
            ],
        },
        "spaces": out_spaces,
    }
    return doc, stats


# --- output ----------------------------------------------------------------------------------


def _flat(values: Iterable[Any]) -> str:
    return "[" + ",".join(json.dumps(v, ensure_ascii=False) for v in values) + "]"


def dumps(doc: dict[str, Any]) -> str:
    """Deterministic and compact: one line per space field, polygons as flat integer lists."""
    lines = ["{"]
    top = [k for k in doc if k != "spaces"]
    for k in top:
        lines.append(f" {json.dumps(k)}: {json.dumps(doc[k], ensure_ascii=False)},")
    lines.append(' "spaces": {')
    names = list(doc["spaces"])
    for i, name in enumerate(names):
        entry = doc["spaces"][name]
        lines.append(f"  {json.dumps(name)}: {{")
        keys = sorted(entry)
        for j, k in enumerate(keys):
            v = entry[k]
            if k in ("polygons", "units"):
                text = "[" + ",".join(_flat(x) for x in v) + "]"
            else:
                text = json.dumps(v)
            lines.append(f"   {json.dumps(k)}: {text}{',' if j < len(keys) - 1 else ''}")
        lines.append("  }" + ("," if i < len(names) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.import_geometry", description=__doc__)
    parser.add_argument("map", choices=sorted(MAPS))
    parser.add_argument("--src", type=Path, help="folder of the TripleA map/ files")
    parser.add_argument("--out", type=Path, help="default: render/geometry/<map>.json")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE)
    parser.add_argument("--check", action="store_true", help="compare with --out, do not write")
    args = parser.parse_args(argv)
    cfg = MAPS[args.map]
    out: Path = args.out or cfg.out
    try:
        doc, stats = convert(cfg, args.src or cfg.folder, args.tolerance)
    except (GeometryError, OSError, KeyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = dumps(doc)
    json.loads(text)  # well-formed
    print(
        f"{len(doc['spaces'])} spaces, {stats.rings} rings, points {stats.points_before} -> "
        f"{stats.points_after} (tolerance {args.tolerance}), {len(text.encode())} bytes"
    )
    if args.check:
        current = out.read_text("utf-8") if out.exists() else ""
        if current != text:
            print(f"{out} is out of date; run without --check", file=sys.stderr)
            return 1
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
