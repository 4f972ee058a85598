"""Convert TripleA map data plus a rulebook digest into Umpire's ``map.json`` (dev time only).

Usage (from the repository root)::

    python -m tools.import_triplea a1941 \\
        --xml ../shared/maps/a1941/map/games/WW2v6_1941.xml \\
        --digest ../shared/rules/a1941.json \\
        --out rules/editions/a1941/map.json

The TripleA game XML gives the board (spaces, adjacency, values, owners, capitals, canals,
factories, unit placement); the rulebook digest gives the rule facts that win over it (setup
charts, wrap pairs, canals, closed sea zones, starting treasuries). Every disagreement is
written to ``setup_differences`` or ``source.notes`` and printed. The game never reads
``../shared`` at run time: only the file written here is shipped.

Options: ``--check`` compares instead of writing (exit 1 if the file is stale); ``--quiet``
prints nothing but problems.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.edition import Canal, MapData, SetupTable, Source, Space

CONVERTER = "tools/import_triplea.py"
DESCRIPTION = "Convert TripleA map data plus a rulebook digest into Umpire's map.json."
REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED = REPO_ROOT.parent / "shared"

SEA_ZONE_XML = re.compile(r"(\d+) Sea Zone")
SEA_ZONE_OURS = re.compile(r"Sea Zone (\d+)")
UNIT_NAMES = (
    "infantry",
    "tank",
    "fighter",
    "bomber",
    "submarine",
    "transport",
    "destroyer",
    "aircraft carrier",
    "battleship",
    "industrial complex",
)
FACTORY = "industrial complex"


class ConversionError(Exception):
    """The sources cannot be converted (unknown names, malformed data)."""


@dataclass(frozen=True)
class EditionConfig:
    """What the converter needs to know about one edition's sources."""

    id: str
    repo: str
    commit: str
    xml_path: str  # path of the game XML inside the upstream repository
    default_xml: Path
    default_digest: Path
    default_out: Path
    players: Mapping[str, str]  # TripleA player -> rulebook power
    units: Mapping[str, str]  # TripleA unit type -> rulebook unit name
    extra_aliases: Mapping[str, tuple[str, ...]]  # our space name -> printed / short forms
    variant: str  # name of the setup variant taken from the XML
    variant_note: str


A1941 = EditionConfig(
    id="a1941",
    repo="https://github.com/triplea-maps/world_war_ii_v6_1941",
    commit="d51266ecb0d870b1dcd3528c0f1af2ddfde2538f",
    xml_path="map/games/WW2v6_1941.xml",
    default_xml=SHARED / "maps" / "a1941" / "map" / "games" / "WW2v6_1941.xml",
    default_digest=SHARED / "rules" / "a1941.json",
    default_out=REPO_ROOT / "rules" / "editions" / "a1941" / "map.json",
    players={
        "Russians": "Soviet Union",
        "Germans": "Germany",
        "British": "United Kingdom",
        "Japanese": "Japan",
        "Americans": "United States",
    },
    units={
        "infantry": "infantry",
        "armour": "tank",
        "fighter": "fighter",
        "bomber": "bomber",
        "submarine": "submarine",
        "transport": "transport",
        "destroyer": "destroyer",
        "carrier": "aircraft carrier",
        "battleship": "battleship",
        "factory": "industrial complex",
    },
    extra_aliases={
        # printed (rulebook) forms first, then short forms players type
        "Eastern United States": ("Eastern U.S.", "Eastern US", "East US", "E US", "EUS"),
        "Western United States": ("Western U.S.", "Western US", "West US", "W US", "WUS"),
        "Norway Finland": ("Norway/Finland", "Norway-Finland", "Norway", "Finland"),
        "Spain Portugal": ("Spain/Portugal", "Spain", "Portugal"),
        "Chile Argentina": ("Chile/Argentina", "Chile", "Argentina"),
        "Colombia Venezuela": ("Colombia/Venezuela", "Colombia", "Venezuela"),
        "Belgian Congo Kenya": ("Belgian Congo/Kenya", "Belgian Congo", "Congo", "Kenya"),
        "Anglo-Egypt Sudan": ("Anglo Egypt Sudan", "Anglo-Egyptian Sudan", "Egypt", "AES"),
        "Eastern Canada": ("E Canada", "East Canada"),
        "Western Canada": ("W Canada", "West Canada"),
        "Eastern Europe": ("E Europe", "East Europe"),
        "Western Europe": ("W Europe", "West Europe"),
        "Southern Europe": ("S Europe", "South Europe"),
        "West Russia": ("W Russia", "Western Russia"),
        "Southeast Asia": ("SE Asia", "South East Asia", "South-East Asia"),
        "Northwestern China": ("NW China", "Northwest China"),
        "Union of South Africa": ("South Africa",),
        "Soviet Far East": ("SFE", "Far East"),
        "East Mexico": ("E Mexico", "Eastern Mexico"),
        "Hawaiian Islands": ("Hawaii",),
        "Philippine Islands": ("Philippines",),
        "Solomon Islands": ("Solomons",),
        "Caroline Islands": ("Carolines",),
        "French Madagascar": ("Madagascar",),
        "French Equatorial Africa": ("FEA",),
        "French West Africa": ("FWA",),
        "Italian East Africa": ("IEA",),
        "Wake Island": ("Wake",),
        "Iwo Jima": ("Iwo",),
        "New Guinea": ("Papua New Guinea",),
    },
    variant="errata",
    variant_note=(
        "setup_variants['errata'] is TripleA's unit placement (v1.7 applied the publisher's "
        "errata); off by default, offered as a game option"
    ),
)

EDITIONS: dict[str, EditionConfig] = {A1941.id: A1941}


# --- small helpers --------------------------------------------------------------------------


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders 'Sea Zone 2' before 'Sea Zone 10'."""
    parts = re.split(r"(\d+)", text)
    return tuple((0, int(p)) if p.isdigit() else (1, p.casefold()) for p in parts if p)


def pair(a: str, b: str) -> tuple[str, str]:
    """An undirected pair in canonical order."""
    return (a, b) if natural_key(a) <= natural_key(b) else (b, a)


def our_space_name(xml_name: str) -> str:
    """TripleA '<n> Sea Zone' -> 'Sea Zone <n>'; land names are kept."""
    m = SEA_ZONE_XML.fullmatch(xml_name)
    return f"Sea Zone {m.group(1)}" if m else xml_name


def _obj(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConversionError(f"{what}: expected an object, got {type(value).__name__}")
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ConversionError(f"{what}: expected a list, got {type(value).__name__}")
    return value


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ConversionError(f"{what}: expected a string, got {type(value).__name__}")
    return value


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConversionError(f"{what}: expected an integer, got {value!r}")
    return value


def _opt_int(value: object, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _attr(elem: ET.Element, name: str) -> str:
    value = elem.get(name)
    if value is None:
        raise ConversionError(f"<{elem.tag}> lacks attribute {name!r}")
    return value


# --- the TripleA game XML -------------------------------------------------------------------


@dataclass(frozen=True)
class XmlCanal:
    name: str
    sea_zones: tuple[str, ...]  # our names
    land: tuple[str, ...]


@dataclass(frozen=True)
class XmlUnitStats:
    attack: int
    defense: int
    move: int
    hits: int
    cost: int | None


@dataclass
class TripleAGame:
    """What the converter reads from a TripleA game XML (names already in our form)."""

    title: str
    version: str
    sea: dict[str, bool] = field(default_factory=dict)  # space -> is sea
    connections: list[tuple[str, str]] = field(default_factory=list)
    production: dict[str, int] = field(default_factory=dict)
    impassable: set[str] = field(default_factory=set)
    capitals: dict[str, str] = field(default_factory=dict)  # space -> power
    canals: list[XmlCanal] = field(default_factory=list)
    owners: dict[str, str] = field(default_factory=dict)  # space -> power
    placement: SetupTable = field(default_factory=dict)
    resources: dict[str, int] = field(default_factory=dict)  # power -> PUs
    turn_order: list[str] = field(default_factory=list)
    sides: dict[str, str] = field(default_factory=dict)  # power -> alliance
    unit_stats: dict[str, XmlUnitStats] = field(default_factory=dict)


def read_triplea(path: Path, cfg: EditionConfig) -> TripleAGame:
    root = ET.parse(path).getroot()
    info = root.find("info")
    game = TripleAGame(
        title=info.get("name", "") if info is not None else "",
        version=info.get("version", "") if info is not None else "",
    )

    def power(player: str) -> str:
        if player not in cfg.players:
            raise ConversionError(f"unknown TripleA player {player!r}")
        return cfg.players[player]

    def unit(kind: str) -> str:
        if kind not in cfg.units:
            raise ConversionError(f"unknown TripleA unit type {kind!r}")
        return cfg.units[kind]

    def space(name: str) -> str:
        ours = our_space_name(name)
        if ours not in game.sea:
            raise ConversionError(f"unknown territory {name!r} in the XML")
        return ours

    board = root.find("map")
    if board is None:
        raise ConversionError("no <map> in the XML")
    for t in board.iter("territory"):
        game.sea[our_space_name(_attr(t, "name"))] = t.get("water") == "true"
    for c in board.iter("connection"):
        game.connections.append(pair(space(_attr(c, "t1")), space(_attr(c, "t2"))))

    players = root.find("playerList")
    if players is not None:
        game.turn_order = [power(_attr(p, "name")) for p in players.iter("player")]
        for a in players.iter("alliance"):
            game.sides[power(_attr(a, "player"))] = _attr(a, "alliance")

    costs: dict[str, int] = {}
    frontier_rules: set[str] = set()
    production = root.find("production")
    if production is not None:
        for fr in production.iter("productionFrontier"):
            if fr.get("name") == "production":
                frontier_rules.update(_attr(r, "name") for r in fr.iter("frontierRules"))
        for rule in production.iter("productionRule"):
            if _attr(rule, "name") not in frontier_rules:
                continue
            cost = rule.find("cost")
            result = rule.find("result")
            if cost is not None and result is not None:
                costs[unit(_attr(result, "resourceOrUnit"))] = int(_attr(cost, "quantity"))

    canals: dict[str, tuple[list[str], tuple[str, ...]]] = {}
    attachments = root.find("attachmentList")
    for att in attachments.iter("attachment") if attachments is not None else ():
        options = {_attr(o, "name"): _attr(o, "value") for o in att.iter("option")}
        target = _attr(att, "attachTo")
        java = att.get("javaClass", "")
        if att.get("type") == "unitType":
            name = unit(target)
            game.unit_stats[name] = XmlUnitStats(
                attack=int(options.get("attack", "0")),
                defense=int(options.get("defense", "0")),
                move=int(options.get("movement", "0")),
                hits=int(options.get("hitPoints", "1")),
                cost=costs.get(name),
            )
        elif java.endswith("CanalAttachment"):
            cname = options["canalName"]
            zones = canals[cname][0] if cname in canals else []
            zones.append(space(target))
            zones.extend(space(z) for z in options.get("seaZones", "").split(":") if z)
            land = tuple(space(t) for t in options.get("landTerritories", "").split(":") if t)
            canals[cname] = (zones, land)
        elif java.endswith("TerritoryAttachment"):
            sp = space(target)
            if "production" in options:
                game.production[sp] = int(options["production"])
            if options.get("isImpassable") == "true":
                game.impassable.add(sp)
            if "capital" in options:
                game.capitals[sp] = power(options["capital"])
    for cname, (zones, land) in sorted(canals.items()):
        uniq = tuple(sorted(set(zones), key=natural_key))
        game.canals.append(XmlCanal(cname, uniq, tuple(sorted(land, key=natural_key))))

    init = root.find("initialize")
    if init is not None:
        for o in init.iter("territoryOwner"):
            game.owners[space(_attr(o, "territory"))] = power(_attr(o, "owner"))
        for p in init.iter("unitPlacement"):
            sp, pw = space(_attr(p, "territory")), power(_attr(p, "owner"))
            name, qty = unit(_attr(p, "unitType")), int(_attr(p, "quantity"))
            units = game.placement.setdefault(sp, {}).setdefault(pw, {})
            units[name] = units.get(name, 0) + qty
        for r in init.iter("resourceGiven"):
            if r.get("resource") == "PUs":
                game.resources[power(_attr(r, "player"))] = int(_attr(r, "quantity"))
    return game


def read_centres(xml_path: Path) -> tuple[dict[str, int], int | None, list[str]]:
    """x of every space's centre, the map width, and the files read (all optional)."""
    map_dir = xml_path.parent.parent
    xs: dict[str, int] = {}
    width: int | None = None
    used: list[str] = []
    centres = map_dir / "centers.txt"
    if centres.exists():
        used.append("map/centers.txt")
        for line in centres.read_text("utf-8").splitlines():
            m = re.fullmatch(r"\s*(.+?)\s+\((\d+),(\d+)\)\s*", line)
            if m:
                xs[our_space_name(m.group(1))] = int(m.group(2))
    props = map_dir / "map.properties"
    if props.exists():
        used.append("map/map.properties")
        m = re.search(r"^map\.width=(\d+)", props.read_text("utf-8"), re.M)
        width = int(m.group(1)) if m else None
    return xs, width, used


# --- the rulebook digest --------------------------------------------------------------------


class Names:
    """Resolves the digest's printed names ('Eastern U.S.', 'Norway/Finland') to ours."""

    def __init__(self, spaces: Iterable[str], digest: Mapping[str, Any]) -> None:
        self.ours = set(spaces)
        self.lookup: dict[str, str] = {}
        for s in self.ours:
            self.lookup[self._norm(s)] = s
        self.digest_aliases: dict[str, set[str]] = {}
        for i, entry in enumerate(_list(digest.get("territories", []), "territories")):
            t = _obj(entry, f"territories[{i}]")
            forms = [_str(t["name"], "territory name")]
            forms += [_str(a, "alias") for a in _list(t.get("aliases", []), "aliases")]
            hits = [self.lookup[self._norm(f)] for f in forms if self._norm(f) in self.lookup]
            target = hits[0] if hits else None
            if target is None:
                raise ConversionError(f"digest territory {forms[0]!r} matches no map space")
            for f in forms:
                self.lookup.setdefault(self._norm(f), target)
                if f != target:
                    self.digest_aliases.setdefault(target, set()).add(f)

    @staticmethod
    def _norm(name: str) -> str:
        m = re.fullmatch(r"(?:sea zone|sz)\s*(\d+)", name.strip(), re.I)
        if m:
            return f"sea zone {int(m.group(1))}"
        return re.sub(r"[\s/]+", " ", name).strip().casefold()

    def __call__(self, name: str | int) -> str:
        key = f"sea zone {name}" if isinstance(name, int) else self._norm(name)
        if key not in self.lookup:
            raise ConversionError(f"digest name {name!r} matches no map space")
        return self.lookup[key]


def digest_unit(name: str) -> str:
    unit = name.replace("_", " ").strip().casefold()
    if unit not in UNIT_NAMES:
        raise ConversionError(f"digest unit {name!r} is not a rulebook unit")
    return unit


# --- conversion -----------------------------------------------------------------------------


@dataclass
class Report:
    differences: list[str] = field(default_factory=list)  # rulebook vs map data
    notes: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)  # printed only


def _count(table: SetupTable, space: str, power: str, unit: str) -> int:
    return table.get(space, {}).get(power, {}).get(unit, 0)


def _add(table: SetupTable, space: str, power: str, unit: str, n: int) -> None:
    units = table.setdefault(space, {}).setdefault(power, {})
    units[unit] = units.get(unit, 0) + n


def _plural(unit: str, n: int) -> str:
    return f"{n} {unit}" if n == 1 or unit == "infantry" else f"{n} {unit}s"


RB = "the rulebook wins by default"


class Conversion:
    """One run of the converter: reads both sources, then builds MapData step by step."""

    def __init__(self, cfg: EditionConfig, xml_path: Path, digest_path: Path) -> None:
        self.cfg = cfg
        self.xml_path = xml_path
        self.digest_path = digest_path
        self.game = read_triplea(xml_path, cfg)
        self.digest = _obj(json.loads(digest_path.read_text("utf-8")), "digest")
        self.dmap = _obj(self.digest.get("map", {}), "map")
        self.names = Names(self.game.sea, self.digest)
        self.rep = Report()
        self.adjacency: set[tuple[str, str]] = set(self.game.connections)
        self.neighbours: dict[str, set[str]] = {s: set() for s in self.game.sea}
        for a, b in self.adjacency:
            self.neighbours[a].add(b)
            self.neighbours[b].add(a)
        self.factories: dict[str, str] = {
            sp: pw
            for sp, by_power in self.game.placement.items()
            for pw, units in by_power.items()
            if units.get(FACTORY)
        }
        self.files_used: list[str] = [cfg.xml_path]

    # adjacency -----------------------------------------------------------------------------
    def ensure_adjacent(self, a: str, b: str, why: str) -> None:
        """The rulebook says a and b touch: add the connection if the XML lacks it."""
        if b in self.neighbours[a]:
            return
        self.adjacency.add(pair(a, b))
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)
        self.rep.differences.append(
            f"{a} / {b}: not connected in the XML but adjacent by {why}; connection added ({RB})"
        )

    def wrap_pairs(self) -> list[tuple[str, str]]:
        """MAP-2/MAP-3: the caption's pairs, checked against the XML and TripleA's image."""
        wrap = _obj(self.dmap.get("wrap_pairs_inferred", {}), "map.wrap_pairs_inferred")
        pairs: list[tuple[str, str]] = []
        for kind in ("territories", "sea_zones"):
            for raw in _list(wrap.get(kind, []), f"wrap {kind}"):
                ends = [self.names(x) for x in _list(raw, "wrap pair")]
                if len(ends) != 2:
                    raise ConversionError(f"wrap pair {raw!r} is not a pair")
                self.ensure_adjacent(ends[0], ends[1], "the wrap caption (MAP-3)")
                pairs.append(pair(ends[0], ends[1]))
        xs, width, used = read_centres(self.xml_path)
        self.files_used += used

        def opposite_edges(p: tuple[str, str]) -> bool:
            if width is None or p[0] not in xs or p[1] not in xs:
                return False
            lo, hi = sorted((xs[p[0]], xs[p[1]]))
            return lo < width // 10 and hi > width - width // 10

        odd = [p for p in pairs if not opposite_edges(p)]
        if odd:
            self.rep.notes.append(
                f"MAP-3: wrap pairs not seen at opposite edges of TripleA's map image: {odd}"
            )
        else:
            self.rep.notes.append(
                f"MAP-2/MAP-3: all {len(pairs)} wrap pairs of the rulebook caption are "
                "connections in the XML (TripleA scrollWrapX), and each pair has its centres at "
                "opposite edges of TripleA's map image (map/centers.txt): A-4's reading holds"
            )
        return sorted(pairs, key=lambda p: (natural_key(p[0]), natural_key(p[1])))

    # spaces --------------------------------------------------------------------------------
    def aliases(self) -> dict[str, tuple[str, ...]]:
        game = self.game
        forms: dict[str, set[str]] = {s: set() for s in game.sea}
        for s, extra in self.cfg.extra_aliases.items():
            if s not in forms:
                raise ConversionError(f"alias table names unknown space {s!r}")
            forms[s].update(extra)
        for s, printed in self.names.digest_aliases.items():
            forms[s].update(printed)
        for s in game.sea:
            m = SEA_ZONE_OURS.fullmatch(s)
            if m:
                n = m.group(1)
                forms[s].update({f"sz{n}", f"SZ {n}", f"{n} Sea Zone"})
        seen: dict[str, str] = {s.casefold(): s for s in game.sea}
        out: dict[str, tuple[str, ...]] = {}
        for s in sorted(game.sea, key=natural_key):
            mine = sorted((a for a in forms[s] if a.casefold() != s.casefold()), key=natural_key)
            for a in mine:
                holder = seen.setdefault(a.casefold(), s)
                if holder != s:
                    raise ConversionError(f"alias {a!r} of {s!r} clashes with {holder!r}")
            out[s] = tuple(mine)
        return out

    def is_island(self, s: str) -> bool:
        """MAP-14, best reading: passable land whose only neighbours are sea zones."""
        game = self.game
        nbrs = self.neighbours[s]
        return (
            not game.sea[s]
            and s not in game.impassable
            and bool(nbrs)
            and all(game.sea[n] for n in nbrs)
        )

    def spaces(self, owners: Mapping[str, str]) -> list[Space]:
        game = self.game
        aliases = self.aliases()
        spaces = [
            Space(
                name=s,
                aliases=aliases[s],
                kind="sea" if game.sea[s] else "land",
                value=0 if game.sea[s] else game.production.get(s, 0),
                original_owner=owners.get(s),
                impassable=s in game.impassable,
                capital_of=game.capitals.get(s),
                factory=s in self.factories,
                island=self.is_island(s),
            )
            for s in sorted(game.sea, key=lambda s: (game.sea[s], natural_key(s)))
        ]
        for s, is_sea in game.sea.items():
            if is_sea and game.production.get(s):
                self.rep.notes.append(f"{s}: XML production {game.production[s]} ignored")
            if not is_sea and s not in game.production:
                self.rep.notes.append(f"{s}: no production option in the XML, value 0")
        islands = [sp.name for sp in spaces if sp.island]
        self.rep.notes.append(
            "MAP-14 (best reading): island = passable land territory whose only neighbours are "
            f"sea zones; {len(islands)} found: {', '.join(islands)}"
        )
        impassable = sorted(game.impassable, key=natural_key)
        self.rep.notes.append(
            f"MAP-8: the XML marks {len(impassable)} territories isImpassable (neutral, no owner, "
            f"value 0): {', '.join(impassable)}; the rulebook names Turkey, Mongolia and Sahara "
            "as examples"
        )
        return spaces

    # canals and straits (MAP-9..MAP-13) -------------------------------------------------------
    def canals(self) -> tuple[list[Canal], list[str]]:
        xml_canals = {c.name: c for c in self.game.canals}
        canals: list[Canal] = []
        for i, raw in enumerate(_list(self.dmap.get("canals", []), "map.canals")):
            c = _obj(raw, f"map.canals[{i}]")
            cname = _str(c["name"], "canal name")
            zones = tuple(
                sorted(
                    (self.names(_int(z, "canal zone")) for z in _list(c["connects"], "connects")),
                    key=natural_key,
                )
            )
            land = tuple(
                sorted(
                    (self.names(_str(t, "land")) for t in _list(c["controlled_via"], "via")),
                    key=natural_key,
                )
            )
            if len(zones) != 2:
                raise ConversionError(f"canal {cname}: expected two sea zones, got {zones}")
            self.ensure_adjacent(zones[0], zones[1], f"the {cname} (MAP-10)")
            canals.append(Canal(name=cname, sea_zones=(zones[0], zones[1]), controlled_by=land))
            x = xml_canals.pop(cname, None)
            if x is None:
                self.rep.differences.append(f"{cname}: not a canal in the XML; added ({RB})")
            elif (x.sea_zones, x.land) != (zones, land):
                self.rep.differences.append(
                    f"{cname}: XML joins {x.sea_zones} via {x.land}, rulebook {zones} via {land}; "
                    f"{RB}"
                )
            else:
                self.rep.notes.append(
                    f"MAP-10/12: {cname} joins {zones[0]} and {zones[1]}, controlled via "
                    f"{' + '.join(land)}; the XML agrees"
                )
        closed: list[str] = []
        for i, raw in enumerate(_list(self.dmap.get("straits", []), "map.straits")):
            st = _obj(raw, f"map.straits[{i}]")
            zone = self.names(_int(st["sea_zone"], "strait sea zone"))
            closed.append(zone)
            x = xml_canals.pop(_str(st["name"], "strait name"), None)
            if x is not None:
                self.rep.differences.append(
                    f"{x.name}: the XML models a canal between {' and '.join(x.sea_zones)} "
                    f"controlled via {' + '.join(x.land)}; rulebook MAP-9 closes {zone} to all sea "
                    f"units (air units fly over it), so {zone} is in closed_sea_zones and there is "
                    f"no canal ({RB}); the connections are kept for air units"
                )
        for x in xml_canals.values():
            self.rep.differences.append(f"{x.name}: XML canal unknown to the rulebook; dropped")
        return sorted(canals, key=lambda c: c.name), sorted(closed, key=natural_key)

    # setup (§17) -----------------------------------------------------------------------------
    def setup(self) -> tuple[SetupTable, dict[str, str]]:
        """The rulebook charts plus the board's industrial complexes; land spaces -> power."""
        setup: SetupTable = {}
        chart_control: dict[str, str] = {}
        for pw, by_space in _obj(self.digest.get("setup", {}), "setup").items():
            for raw_space, units in _obj(by_space, f"setup.{pw}").items():
                sp = self.names(raw_space)
                if not self.game.sea[sp]:
                    chart_control[sp] = pw
                for u, n in _obj(units, f"setup.{pw}.{raw_space}").items():
                    _add(setup, sp, pw, digest_unit(u), _int(n, f"setup {pw} {raw_space} {u}"))
        for sp, pw in sorted(self.factories.items()):
            _add(setup, sp, pw, FACTORY, _count(self.game.placement, sp, pw, FACTORY))
        self.rep.notes.append(
            "industrial complexes are printed on the board, not in the rulebook charts (A-5; the "
            "text confirms only Germany's); they come from the XML factory placements and are in "
            "the setup under their owner: "
            + ", ".join(f"{s} ({p})" for s, p in sorted(self.factories.items()))
        )
        self.rep.notes.append(
            "fighters listed in a sea zone are aboard their own power's carriers there"
        )
        return setup, chart_control

    def compare_setups(self, setup: SetupTable, variant: SetupTable) -> None:
        keys = sorted(
            {
                (s, p, u)
                for table in (setup, variant)
                for s, by_power in table.items()
                for p, units in by_power.items()
                for u in units
            },
            key=lambda k: (natural_key(k[0]), k[1], UNIT_NAMES.index(k[2])),
        )
        for s, p, u in keys:
            ours, theirs = _count(setup, s, p, u), _count(variant, s, p, u)
            if ours != theirs:
                self.rep.differences.append(
                    f"setup {s}, {p}: rulebook chart {_plural(u, ours)}, XML "
                    f"{_plural(u, theirs)} ({theirs - ours:+d}); {RB}, the XML count is "
                    f"setup_variants['{self.cfg.variant}']"
                )
        self.rep.notes.append(self.cfg.variant_note)

    def owners(self, chart_control: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
        """Original owners (XML, unless a chart says otherwise: A-6) and the XML's where not."""
        owners = dict(self.game.owners)
        xml_where_different: dict[str, str] = {}
        for sp, pw in sorted(chart_control.items()):
            theirs = self.game.owners.get(sp)
            if theirs != pw:
                self.rep.differences.append(
                    f"owner of {sp}: XML {theirs}, the rulebook chart sets up {pw} units there; "
                    f"{RB}"
                )
                owners[sp] = pw
                if theirs is not None:
                    xml_where_different[sp] = theirs
        if "Szechwan" in self.game.sea:
            self.rep.notes.append(
                f"A-6: Szechwan starts owned by {self.game.owners.get('Szechwan')} in the XML "
                f"(value {self.game.production.get('Szechwan', 0)}); the US chart sets up 2 "
                "infantry there"
            )
        return owners, xml_where_different

    # powers and economy (P-3 / P-4) ----------------------------------------------------------
    def powers(self, owners: Mapping[str, str]) -> dict[str, int]:
        game = self.game
        income = dict.fromkeys(self.cfg.players.values(), 0)
        for sp, pw in owners.items():
            income[pw] += game.production.get(sp, 0)
        for i, raw in enumerate(_list(self.digest.get("powers", []), "powers")):
            p = _obj(raw, f"powers[{i}]")
            pw = _str(p["name"], "power name")
            treasury = _int(p["starting_ipcs"], "starting_ipcs")
            printed = _int(p.get("starting_income", treasury), "starting_income")
            given = game.resources.get(pw)
            if given != treasury:
                self.rep.differences.append(
                    f"starting treasury of {pw}: rulebook {treasury} IPCs, XML resourceGiven "
                    f"{given} PUs; {RB} (P-3: treasury {treasury})"
                )
            if income[pw] != printed:
                self.rep.differences.append(
                    f"income of {pw}: rulebook chart {printed} IPCs, its starting territories add "
                    f"up to {income[pw]}; {RB}: the treasury stays {treasury} (P-3) and income "
                    f"follows the territories held (P-4), so {pw} collects {income[pw]} at its "
                    "first Collect Income"
                )
            turn = _int(p["turn_order"], "turn_order")
            if game.turn_order and game.turn_order.index(pw) + 1 != turn:
                self.rep.differences.append(f"turn order of {pw}: XML differs; {RB}")
            side = _str(p["side"], "side")
            if game.sides.get(pw) != side:
                self.rep.differences.append(
                    f"side of {pw}: XML {game.sides.get(pw)}, rulebook {side}; {RB}"
                )
            cap_name = p.get("capital_territory") or p.get("capital_territory_inferred")
            if cap_name is not None:
                cap = self.names(_str(cap_name, "capital territory"))
                if game.capitals.get(cap) != pw:
                    self.rep.differences.append(
                        f"capital of {pw}: rulebook reading {cap}, the XML differs; {RB}"
                    )
        return income

    # unit profiles (PU-6) --------------------------------------------------------------------
    def units(self) -> None:
        for i, raw in enumerate(_list(self.digest.get("units", []), "units")):
            u = _obj(raw, f"units[{i}]")
            name = digest_unit(_str(u["id"], "unit id"))
            theirs = self.game.unit_stats.get(name)
            if theirs is None:
                self.rep.differences.append(f"unit {name}: not defined in the XML")
                continue
            ours = XmlUnitStats(
                attack=_opt_int(u.get("attack"), "attack") or 0,
                defense=_opt_int(u.get("defense"), "defense") or 0,
                move=_opt_int(u.get("move"), "move") or 0,
                hits=_opt_int(u.get("hits"), "hits") or 1,
                cost=_opt_int(u.get("cost"), "cost"),
            )
            for stat in ("cost", "attack", "defense", "move", "hits"):
                a, b = getattr(ours, stat), getattr(theirs, stat)
                if a != b:
                    self.rep.differences.append(f"unit {name} {stat}: rulebook {a}, XML {b}; {RB}")

    # facts the digest states about single territories ------------------------------------------
    def territory_facts(self) -> None:
        game = self.game
        for i, raw in enumerate(_list(self.digest.get("territories", []), "territories")):
            t = _obj(raw, f"territories[{i}]")
            sp = self.names(_str(t["name"], "territory name"))
            value = t.get("ipc_value")
            if value is not None and game.production.get(sp, 0) != value:
                self.rep.differences.append(
                    f"value of {sp}: rulebook {value}, XML {game.production.get(sp, 0)}; {RB}"
                )
            if t.get("neutral") and sp not in game.impassable:
                self.rep.differences.append(f"{sp}: neutral (MAP-8) but passable in the XML")
            if t.get("has_industrial_complex") is True and sp not in self.factories:
                self.rep.differences.append(f"{sp}: industrial complex in the rulebook, not in XML")
            for other in _list(t.get("adjacent_stated", []), "adjacent_stated"):
                self.ensure_adjacent(sp, self.names(_str(other, "adjacent")), "the rulebook text")
            for other in _list(t.get("adjacent_inferred", []), "adjacent_inferred"):
                b = self.names(_str(other, "adjacent"))
                if b not in self.neighbours[sp]:
                    self.rep.notes.append(f"{sp} / {b}: inferred adjacency not in the XML")

    # all together ----------------------------------------------------------------------------
    def run(self) -> tuple[MapData, Report]:
        cfg, game, rep = self.cfg, self.game, self.rep
        if len(game.connections) != len(self.adjacency):
            rep.notes.append("duplicate <connection> elements in the XML were merged")
        wrap_pairs = self.wrap_pairs()
        canals, closed = self.canals()
        setup, chart_control = self.setup()
        variant: SetupTable = {
            sp: {pw: dict(units) for pw, units in by_power.items()}
            for sp, by_power in game.placement.items()
        }
        self.compare_setups(setup, variant)
        owners, xml_owners = self.owners(chart_control)
        owners_variants: dict[str, dict[str, str | None]] = (
            {cfg.variant: dict(xml_owners)} if xml_owners else {}
        )
        spaces = self.spaces(owners)
        income = self.powers(owners)
        self.units()
        self.territory_facts()
        rep.notes.append(
            "victory: the XML's victory cities and 'Honorable Surrender' are not imported; the "
            "rulebook wins with capitals only (V-1..V-4, edition.json)"
        )
        rep.notes.append(
            "not imported from the XML: technology, bids, the bomber's air-transport (paratrooper "
            "tech) options, TripleA properties (informative only)"
        )
        digest_file = f"shared/rules/{self.digest_path.name}"
        source = Source(
            repo=cfg.repo,
            commit=cfg.commit,
            files=(*self.files_used, digest_file),
            converter=CONVERTER,
            notes=(
                f"TripleA game '{game.title}' version {game.version}; files are paths in "
                f"{cfg.repo} at the commit above, except {digest_file}, the project's digest of "
                "the rulebook (setup charts, wrap pairs, canals, straits, treasuries)",
                "names: land territories keep the TripleA/board name; '<n> Sea Zone' is renamed "
                "'Sea Zone <n>'; powers are the rulebook's (Russians=Soviet Union, "
                "Germans=Germany, British=United Kingdom, Japanese=Japan, Americans=United "
                "States); units armour=tank, carrier=aircraft carrier, factory=industrial complex",
                "where the rulebook and the map data disagree the rulebook wins; every difference "
                "is listed in setup_differences",
                *rep.notes,
            ),
        )
        board = MapData(
            source=source,
            spaces=tuple(spaces),
            adjacency=tuple(
                sorted(self.adjacency, key=lambda p: (natural_key(p[0]), natural_key(p[1])))
            ),
            canals=tuple(canals),
            closed_sea_zones=tuple(closed),
            wrap_pairs=tuple(wrap_pairs),
            setup=setup,
            setup_variants={cfg.variant: variant},
            owners_variants=owners_variants,
            setup_differences=tuple(rep.differences),
        )
        land = [s for s in spaces if s.kind == "land"]
        islands = [s.name for s in land if s.island]
        total = sum(s.value for s in land)
        rep.facts += [
            f"spaces {len(spaces)} = {len(land)} land ({len(game.impassable)} impassable) + "
            f"{len(spaces) - len(land)} sea; adjacency {len(board.adjacency)} pairs",
            f"islands ({len(islands)}): {', '.join(islands)}",
            f"Szechwan: original owner {owners.get('Szechwan')}",
            "starting income from territories (P-4): "
            + ", ".join(f"{p} {n}" for p, n in income.items())
            + f"; board total {total}",
        ]
        return board, rep


def convert(cfg: EditionConfig, xml_path: Path, digest_path: Path) -> tuple[MapData, Report]:
    """Build MapData from a TripleA game XML and a rulebook digest."""
    return Conversion(cfg, xml_path, digest_path).run()


# --- output ---------------------------------------------------------------------------------


def _scalar(x: object) -> bool:
    return x is None or isinstance(x, (str, int, float, bool))


def dumps(obj: object, indent: int = 0) -> str:
    """Deterministic JSON: keys in natural order, short flat lists/objects on one line."""
    pad, inner = " " * indent, " " * (indent + 1)
    if isinstance(obj, dict):
        keys = sorted(obj, key=natural_key)
        if not keys:
            return "{}"
        flat = "{" + ", ".join(f"{json.dumps(k)}: {dumps(obj[k])}" for k in keys) + "}"
        if all(_scalar(obj[k]) for k in keys) and len(flat) + indent <= 100:
            return flat
        body = ",\n".join(f"{inner}{json.dumps(k)}: {dumps(obj[k], indent + 1)}" for k in keys)
        return "{\n" + body + "\n" + pad + "}"
    if isinstance(obj, (list, tuple)):
        if not obj:
            return "[]"
        flat = json.dumps(list(obj), ensure_ascii=False)
        if all(_scalar(x) for x in obj) and len(flat) + indent <= 100:
            return flat
        body = ",\n".join(inner + dumps(x, indent + 1) for x in obj)
        return "[\n" + body + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


def render(board: MapData) -> str:
    text = dumps(board.model_dump(mode="json")) + "\n"
    again = MapData.model_validate(json.loads(text))
    if again != board:
        raise ConversionError("map.json does not round-trip through MapData")
    return text


def _edition_problems(out: Path, text: str) -> list[str]:
    """Run Edition.check() when edition.json sits next to the output."""
    from rules.edition import Edition, EditionRules

    rules_file = out.parent / "edition.json"
    if not rules_file.exists():
        return []
    rules = EditionRules.model_validate(json.loads(rules_file.read_text("utf-8")))
    return Edition(rules, MapData.model_validate(json.loads(text))).check()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.import_triplea", description=DESCRIPTION)
    parser.add_argument("edition", choices=sorted(EDITIONS))
    parser.add_argument("--xml", type=Path, help="TripleA game XML (default: ../shared/maps/..)")
    parser.add_argument("--digest", type=Path, help="digest JSON (default: ../shared/rules/..)")
    parser.add_argument("--out", type=Path, help="default: rules/editions/<id>/map.json")
    parser.add_argument("--check", action="store_true", help="compare with --out, do not write")
    parser.add_argument("--quiet", action="store_true", help="print problems only")
    args = parser.parse_args(argv)
    cfg = EDITIONS[args.edition]
    xml_path: Path = args.xml or cfg.default_xml
    digest_path: Path = args.digest or cfg.default_digest
    out: Path = args.out or cfg.default_out
    try:
        board, rep = convert(cfg, xml_path, digest_path)
        text = render(board)
        problems = _edition_problems(out, text)
    except (ConversionError, OSError, ValueError, ET.ParseError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"error: missing key {exc} in the sources", file=sys.stderr)
        return 2
    if not args.quiet:
        for line in rep.facts:
            print(line)
        print(f"setup differences ({len(board.setup_differences)}):")
        for line in board.setup_differences:
            print(f"  - {line}")
    for p in problems:
        print(f"edition check: {p}", file=sys.stderr)
    if args.check:
        current = out.read_text("utf-8") if out.exists() else ""
        if current != text:
            print(f"{out} is out of date; run without --check", file=sys.stderr)
            return 1
        return 1 if problems else 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")
    if not args.quiet:
        print(f"wrote {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
