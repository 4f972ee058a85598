"""Convert TripleA map coordinate files into Umpire's ``render/geometry/<map>.json`` (dev time).

Usage (from the repository root)::

    python -m tools.import_geometry a1941            # writes render/geometry/a1941.json
    python -m tools.import_geometry a1941 --check    # exit 1 if that file is out of date
    python -m tools.import_geometry classic          # writes render/geometry/classic.json

Reads, from ``../shared/maps/<map>/map/``: ``polygons.txt`` (territory outlines, pixel-traced),
``centers.txt``, ``place.txt`` (unit image slots), ``name_place.txt`` and ``pu_place.txt``
(label positions), ``capitols.txt`` (capital markers), ``vc.txt`` (victory-city markers) and
``map.properties`` (size, wrap). ``name_place.txt``, ``pu_place.txt``, ``capitols.txt`` and
``vc.txt`` may be absent (Classic has neither of the first two: its names are painted on
TripleA's map image); a name is then placed at the space's centre, as TripleA does. Writes one
JSON document in our own format (below): polygons simplified with Douglas-Peucker at
``--tolerance`` pixels (integers), anchor points converted from TripleA's conventions to
centres, names as the edition's data names them (each map has its renaming: '<n> Sea Zone' ->
'Sea Zone <n>' for 1941, ``tools/classic_names.py`` for Classic). The game never reads
``../shared`` at run time: only the file written here is shipped.

Format (``"format": "umpire-geometry", "version": 1``), coordinates in the source map's pixels
(origin top-left)::

    {"size": [w, h], "wrap_x": bool, "edges_meet": bool, "source": {...},
     "spaces": {"<name>": {"polygons": [[x0, y0, x1, y1, ...], ...],   # rings, not closed
                           "centre": [x, y],
                           "label": [x, y],      # centre of the name label
                           "value": [x, y],      # centre of the value label (null: none)
                           "capital": [x, y],    # centre of a capital marker (land capitals only)
                           "victory": [x, y],    # centre of a victory-city marker (optional)
                           "units": [[x, y], ...]}}}  # centres of unit stack slots

``victory`` is written only for the spaces the edition's map.json names victory cities
(``victory_cities``): maps whose editions have none keep their files as they were, whatever
``vc.txt`` TripleA ships.

``wrap_x`` is TripleA's ``map.scrollWrapX`` (absent: false, TripleA's default). ``edges_meet``
says the board's west and east edges are one line, so a view may continue across them: the
edition's rules join spaces across the edges (``wrap_pairs`` in its map.json, MAP-3) and each
such pair lies at opposite edges of the image. It is written only where it differs from
``wrap_x`` (a map TripleA scrolls around has meeting edges); readers default it to ``wrap_x``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONVERTER = "tools/import_geometry.py"
FORMAT = "umpire-geometry"
VERSION = 1
REPO_ROOT = Path(__file__).resolve().parents[1]



def _shared() -> Path:
    """``../shared`` beside the checkout (or beside the main checkout of a git worktree kept
    one level deeper, e.g. ``/work/wt/<name>``); ``UMPIRE_SHARED`` overrides."""
    if os.environ.get("UMPIRE_SHARED"):
        return Path(os.environ["UMPIRE_SHARED"])
    for parent in REPO_ROOT.parents:
        if (parent / "shared" / "maps").is_dir():
            return parent / "shared"
    return REPO_ROOT.parent / "shared"


SHARED = _shared()
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
VC_MARKER = 32  # vc.txt: top-left corner of the victory-city image, taken as 32x32 too


class GeometryError(Exception):
    """The coordinate files cannot be converted."""


def our_name(triplea: str) -> str:
    """TripleA '<n> Sea Zone' -> 'Sea Zone <n>'; land names are kept."""
    m = SEA_ZONE_TRIPLEA.fullmatch(triplea)
    return f"Sea Zone {m.group(1)}" if m else triplea


@dataclass(frozen=True)
class MapConfig:
    """What the converter needs to know about one map's sources."""

    id: str
    repo: str
    commit: str
    folder: Path  # holds the TripleA ``map/`` files
    edition_map: Path  # our map.json, for the space names
    out: Path
    rename: Callable[[str], str] = our_name  # TripleA's name -> ours
    names_note: str = "names: '<n> Sea Zone' renamed 'Sea Zone <n>' as in rules/editions/*/map.json"
    # entries of the coordinate files that are no spaces (TripleA's on-map boxes), left out
    not_spaces: frozenset[str] = frozenset()
    tolerance: float = DEFAULT_TOLERANCE  # simplification, in source pixels


def _classic_canonical() -> Callable[[str], str]:
    """tools/classic_names.py's ``canonical`` (tools/ is not a package: mypy checks that file
    as module "classic_names", so a static import would name it twice; see import_triplea)."""
    canonical: Callable[[str], str] = importlib.import_module("tools.classic_names").canonical
    return canonical


A1941 = MapConfig(
    id="a1941",
    repo="https://github.com/triplea-maps/world_war_ii_v6_1941",
    commit="d51266ecb0d870b1dcd3528c0f1af2ddfde2538f",
    folder=SHARED / "maps" / "a1941" / "map",
    edition_map=REPO_ROOT / "rules" / "editions" / "a1941" / "map.json",
    out=REPO_ROOT / "render" / "geometry" / "a1941.json",
)
CLASSIC = MapConfig(
    id="classic",
    repo="https://github.com/triplea-maps/world_war_ii_classic",
    commit="ea60168b53509e86b3d9a4cd45e91832a4e7c187",
    folder=SHARED / "maps" / "classic" / "map",
    edition_map=REPO_ROOT / "rules" / "editions" / "classic" / "map.json",
    out=REPO_ROOT / "render" / "geometry" / "classic.json",
    rename=_classic_canonical(),
    names_note="names: TripleA's names mapped to ours by tools/classic_names.py (canonical()), "
    "as in rules/editions/classic/map.json",
)
EUROPE1940 = MapConfig(
    id="europe1940",
    repo="https://github.com/triplea-maps/world_war_ii_europe",
    commit="be0fc1c9916c5a876bf3b9f1cc70fce46d120472",
    folder=SHARED / "maps" / "europe1940" / "map",
    edition_map=REPO_ROOT / "rules" / "editions" / "europe1940" / "map.json",
    out=REPO_ROOT / "render" / "geometry" / "europe1940.json",
    # the political-trigger boxes of TripleA's game (commented out of its XML: no territories)
    not_spaces=frozenset({"GermanyPeaceRussia", "GermanyWarRussia", "GermanyPeaceUS",
                          "GermanyWarUS"}),
    # a larger image (4000 x 3213) drawn at the same output width: 2 of its pixels are about
    # 1.5 of the others' once scaled
    tolerance=2.0,
)
MAPS: dict[str, MapConfig] = {m.id: m for m in (A1941, CLASSIC, EUROPE1940)}
FILES = (
    "polygons.txt",
    "centers.txt",
    "place.txt",
    "name_place.txt",
    "pu_place.txt",
    "capitols.txt",
    "vc.txt",
    "map.properties",
)

OPTIONAL = frozenset({"name_place.txt", "pu_place.txt", "capitols.txt", "vc.txt"})

Point = tuple[int, int]


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    parts = re.split(r"(\d+)", text)
    return tuple((0, int(p)) if p.isdigit() else (1, p.casefold()) for p in parts if p)


# --- reading ---------------------------------------------------------------------------------


def _split_name(line: str, opener: str) -> tuple[str, str]:
    at = line.find(opener)
    if at <= 0:
        raise GeometryError(f"cannot read line {line[:60]!r}")
    return line[:at].strip(), line[at:]


def read_points(path: Path, rename: Callable[[str], str] = our_name) -> dict[str, list[Point]]:
    """``Name  (x,y) (x,y) ...`` per line -> name -> points (empty if the file is optional and
    absent)."""
    if path.name in OPTIONAL and not path.exists():
        return {}
    out: dict[str, list[Point]] = {}
    for line in path.read_text("utf-8").splitlines():
        if not line.strip():
            continue
        name, rest = _split_name(line, "(")
        out[rename(name)] = [(int(x), int(y)) for x, y in POINT.findall(rest)]
    return out


def read_polygons(
    path: Path, rename: Callable[[str], str] = our_name
) -> dict[str, list[list[Point]]]:
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
        out[rename(name)] = [r for r in rings if r]
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


def _touches(rings: Iterable[Sequence[Point]], x: int) -> bool:
    return any(abs(p[0] - x) <= 1 for ring in rings for p in ring)


def edges_meet(
    wrap_pairs: Sequence[Sequence[str]], polygons: dict[str, list[list[Point]]], width: int
) -> bool:
    """Whether the rules' wrap pairs (MAP-3) each join a space at the west edge of the image
    to one at its east edge: then the two edges are one line of the board."""
    if not wrap_pairs:
        return False
    for a, b in wrap_pairs:
        ra, rb = polygons.get(a, []), polygons.get(b, [])
        west_east = _touches(ra, 0) and _touches(rb, width - 1)
        east_west = _touches(ra, width - 1) and _touches(rb, 0)
        if not (west_east or east_west):
            return False
    return True


def _edition_spaces(
    cfg: MapConfig, polygons: dict[str, Any]
) -> tuple[dict[str, Any], Any, set[str]]:
    """The edition's spaces by name, its wrap pairs and its victory cities (territories); while
    the edition's map.json is not written yet, the names of polygons.txt (kind by name),
    unchecked, no wrap pairs and no victory cities."""
    if cfg.edition_map.exists():
        edition_map = json.loads(cfg.edition_map.read_text("utf-8"))
        return ({s["name"]: s for s in edition_map["spaces"]}, edition_map.get("wrap_pairs", []),
                set(edition_map.get("victory_cities", {})))
    print(f"warning: {cfg.edition_map} not found: names taken from polygons.txt, unchecked",
          file=sys.stderr)
    kinds = {n: "sea" if "Sea Zone" in n else "land" for n in polygons}
    return {n: {"name": n, "kind": k} for n, k in kinds.items()}, [], set()


def convert(cfg: MapConfig, folder: Path, tolerance: float) -> tuple[dict[str, Any], Stats]:
    """Build the geometry document from the coordinate files in ``folder``."""
    props = read_properties(folder / "map.properties")
    polygons = read_polygons(folder / "polygons.txt", cfg.rename)
    spaces, wrap_pairs, victory_cities = _edition_spaces(cfg, polygons)
    centres = read_points(folder / "centers.txt", cfg.rename)
    places = read_points(folder / "place.txt", cfg.rename)
    names = read_points(folder / "name_place.txt", cfg.rename)
    pus = read_points(folder / "pu_place.txt", cfg.rename)
    capitals = read_points(folder / "capitols.txt", cfg.rename)
    # Victory-city markers only where the edition has victory cities (none: the file unused).
    vcs = read_points(folder / "vc.txt", cfg.rename) if victory_cities else {}
    for table in (polygons, centres, places, names, pus, capitals, vcs):
        for box in cfg.not_spaces & set(table):
            del table[box]
    present = [f for f in FILES if f not in OPTIONAL or (folder / f).exists()]
    if not vcs:
        present = [f for f in present if f != "vc.txt"]
    problems: list[str] = []
    for label, table in (("polygons", polygons), ("centers", centres), ("place", places)):
        problems += [f"{label}.txt: unknown space {n!r}" for n in table if n not in spaces]
        problems += [f"{label}.txt: no entry for {n!r}" for n in spaces if n not in table]
    problems += [f"capitols.txt: unknown space {n!r}" for n in capitals if n not in spaces]
    problems += [f"vc.txt: unknown space {n!r}" for n in vcs if n not in spaces]
    if vcs:
        problems += [f"vc.txt: no entry for victory city {n!r}" for n in sorted(victory_cities)
                     if n not in vcs]
    if problems:
        raise GeometryError("; ".join(problems))
    size = (int(props["map.width"]), int(props["map.height"]))
    wrap_x = props.get("map.scrollWrapX", "false").lower() == "true"
    meet = wrap_x or edges_meet(wrap_pairs, polygons, size[0])
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
        vc = _first(vcs, name) if name in victory_cities else None
        if vc is not None:
            entry["victory"] = [vc[0] + VC_MARKER // 2, vc[1] + VC_MARKER // 2]
        out_spaces[name] = entry
    notes = [
        "polygons: Douglas-Peucker at the tolerance above (source pixels), integers; "
        "rings under one square pixel dropped",
        "units: centres of TripleA's 48x48 unit slots (place.txt top-left + 24)",
    ]
    if names or pus:
        notes.append(
            "label/value: estimated centres of TripleA's name and value texts "
            "(name_place.txt, pu_place.txt give the left end of the baseline), kept on the "
            "map; for a sea zone the centre of its number (TripleA writes '<n> Sea Zone')"
        )
    else:
        notes.append(
            "label: the space's centre (centers.txt), where TripleA writes a name without "
            "name_place.txt (this map's names are painted on its image); value: none (no "
            "pu_place.txt)"
        )
    notes.append("capital: centre of TripleA's 32x32 capital marker (capitols.txt top-left + 16)")
    if vcs:
        notes.append("victory: centre of TripleA's victory-city image (vc.txt top-left + 16, "
                     "the image taken as 32x32), for the edition's victory cities only")
    notes.append(cfg.names_note)
    if cfg.not_spaces:
        notes.append("left out, as no spaces: " + ", ".join(sorted(cfg.not_spaces)))
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "map": cfg.id,
        "size": list(size),
        "wrap_x": wrap_x,
    }
    if meet != wrap_x:
        doc["edges_meet"] = meet
        wrap_source = (
            f"map.properties sets map.scrollWrapX={props['map.scrollWrapX']}"
            if "map.scrollWrapX" in props
            else "map.properties has no map.scrollWrapX (TripleA's default: false)"
        )
        notes.append(
            f"wrap_x: {wrap_source} (TripleA does not scroll across the edge); edges_meet: "
            "the rules join "
            f"{len(wrap_pairs)} pairs of spaces across the board's west and east edges "
            "(wrap_pairs in the edition's map.json) and each pair lies at opposite edges of "
            "the image, so a view may continue across them"
        )
    doc["source"] = {
        "repo": cfg.repo,
        "commit": cfg.commit,
        "files": [f"map/{f}" for f in present],
        "converter": CONVERTER,
        "tolerance": tolerance,
        "points_before": stats.points_before,
        "points_after": stats.points_after,
        "notes": notes,
    }
    doc["spaces"] = out_spaces
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
    parser.add_argument("--tolerance", type=float, help="default: the map's (1.5 or more)")
    parser.add_argument("--check", action="store_true", help="compare with --out, do not write")
    args = parser.parse_args(argv)
    cfg = MAPS[args.map]
    out: Path = args.out or cfg.out
    try:
        tolerance: float = args.tolerance if args.tolerance is not None else cfg.tolerance
        doc, stats = convert(cfg, args.src or cfg.folder, tolerance)
    except (GeometryError, OSError, KeyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = dumps(doc)
    json.loads(text)  # well-formed
    print(
        f"{len(doc['spaces'])} spaces, {stats.rings} rings, points {stats.points_before} -> "
        f"{stats.points_after} (tolerance {tolerance}), {len(text.encode())} bytes"
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
