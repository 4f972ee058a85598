"""Convert TripleA map data plus a rulebook digest into Umpire's ``map.json`` (dev time only).

Usage (from the repository root)::

    python -m tools.import_triplea a1941 \\
        --xml ../shared/maps/a1941/map/games/WW2v6_1941.xml \\
        --digest ../shared/rules/a1941.json \\
        --out rules/editions/a1941/map.json
    python -m tools.import_triplea classic          # the defaults above, for Classic

``../shared`` is found next to the repository, or next to the main checkout when this is a git
worktree, or at ``$UMPIRE_SHARED``.

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
import importlib
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.edition import Canal, MapData, Neutral, SetupTable, Source, Space

CONVERTER = "tools/import_triplea.py"
DESCRIPTION = "Convert TripleA map data plus a rulebook digest into Umpire's map.json."
REPO_ROOT = Path(__file__).resolve().parents[1]


def _shared_dir() -> Path:
    """``../shared``: $UMPIRE_SHARED, else next to this checkout or to the main checkout."""
    env = os.environ.get("UMPIRE_SHARED")
    if env:
        return Path(env)
    here = REPO_ROOT.parent / "shared"
    dot_git = REPO_ROOT / ".git"
    if not here.exists() and dot_git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/x"
        m = re.match(r"gitdir:\s*(.+)", dot_git.read_text("utf-8").strip())
        if m:
            main = Path(m.group(1)).resolve().parents[2]
            if (main.parent / "shared").exists():
                return main.parent / "shared"
    return here


SHARED = _shared_dir()

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
    "antiaircraft gun",
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
    renames: Mapping[str, str] = field(default_factory=dict)  # TripleA space name -> ours
    ignored_units: frozenset[str] = frozenset()  # TripleA unit types outside the rulebook
    digest_units: Mapping[str, str] = field(default_factory=dict)  # digest unit id -> ours
    digest_spaces: Mapping[str, str] = field(default_factory=dict)  # digest phrase -> our space
    # TripleA players that are not powers but own neutral territories -> their alignment
    neutral_players: Mapping[str, str] = field(default_factory=dict)


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
        "Eastern United States": ("Eastern U.S.", "Eastern US", "East US", "E US", "EUS",
                                  "Washington"),
        # capitals by their cities (issue 13 item 13)
        "Russia": ("Moscow",),
        "Germany": ("Berlin",),
        "United Kingdom": ("London",),
        "Japan": ("Tokyo",),
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


def _classic_names() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """tools/classic_names.py: RENAMES, and its extra names plus every renamed TripleA name."""
    # tools/ is not a package, so mypy checks that file as module "classic_names"; a static
    # "from tools import classic_names" would be the same file under a second name for it.
    names = importlib.import_module("tools.classic_names")
    renames: dict[str, str] = dict(names.RENAMES)
    out: dict[str, list[str]] = {s: list(forms) for s, forms in names.EXTRA_ALIASES.items()}
    for theirs, ours in renames.items():
        out.setdefault(ours, []).append(theirs)
    return renames, {s: tuple(forms) for s, forms in out.items()}


CLASSIC_RENAMES, CLASSIC_ALIASES = _classic_names()


CLASSIC = EditionConfig(
    id="classic",
    repo="https://github.com/triplea-maps/world_war_ii_classic",
    commit="ea60168b53509e86b3d9a4cd45e91832a4e7c187",
    xml_path="map/games/classic.xml",
    default_xml=SHARED / "maps" / "classic" / "map" / "games" / "classic.xml",
    default_digest=SHARED / "rules" / "classic.json",
    default_out=REPO_ROOT / "rules" / "editions" / "classic" / "map.json",
    players={
        "Russians": "Russia",
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
        "carrier": "aircraft carrier",
        "battleship": "battleship",
        "factory": "industrial complex",
        "aaGun": "antiaircraft gun",
    },
    # artillery and destroyer: defined in the XML for TripleA options, not in its starting
    # frontier, not in this rulebook (classic.md §0: no destroyer, cruiser or artillery)
    ignored_units=frozenset({"artillery", "destroyer"}),
    extra_aliases=CLASSIC_ALIASES,
    renames=CLASSIC_RENAMES,
    digest_units={"armor": "tank", "aa_gun": "antiaircraft gun"},
    # the digest's descriptive names for sea zones (classic.md §3.3-§3.5, §8) -> ours
    digest_spaces={
        "Baltic Sea": "Baltic Sea Zone",
        "Black Sea": "Black Sea Zone",
        "UK zone": "North Sea Zone",
        "UK sea zone": "North Sea Zone",
        "sea north of Karelia": "Karelia Sea Zone",
        "Atlantic sea zone west of Spain": "West Spain Sea Zone",
        "Eastern Mediterranean south of Turkey": "East Mediterranean Sea Zone",
        "Pacific west of California": "Western United States Sea Zone",
        "Hawaiian Islands zone": "Hawaii Sea Zone",
        "Hawaiian zone": "Hawaii Sea Zone",
        "carrier in Hawaiian zone": "Hawaii Sea Zone",
        "Midway zone": "Midway Sea Zone",
        "Solomon Islands zone": "Solomon Islands Sea Zone",
        "zone adjacent to Australia": "North Australia Sea Zone",
        "Wake Island zone": "Wake Island Sea Zone",
        "Caroline Islands zone": "Caroline Islands Sea Zone",
        "Philippines zone": "Philippines Sea Zone",
        "Japan zone": "Japan Sea Zone",
    },
    variant="",
    variant_note="",
)

EUROPE1940 = EditionConfig(
    id="europe1940",
    repo="https://github.com/triplea-maps/world_war_ii_europe",
    commit="be0fc1c9916c5a876bf3b9f1cc70fce46d120472",
    xml_path="map/games/ww2eur40_2nd_edition.xml",
    default_xml=SHARED / "maps" / "europe1940" / "map" / "games" / "ww2eur40_2nd_edition.xml",
    default_digest=SHARED / "rules" / "europe1940.json",
    default_out=REPO_ROOT / "rules" / "editions" / "europe1940" / "map.json",
    players={
        "Germans": "Germany",
        "Russians": "Soviet Union",
        "Americans": "United States",
        "British": "United Kingdom",
        "Italians": "Italy",
        "French": "France",
    },
    # europe1940.md NT-1: pro-Axis, pro-Allied and strict neutrals
    neutral_players={
        "Neutral_Axis": "pro_axis",
        "Neutral_Allies": "pro_allied",
        "Neutral_True": "strict",
    },
    units={
        "infantry": "infantry",
        "artillery": "artillery",
        "mech_infantry": "mechanized infantry",
        "armour": "tank",
        "aaGun": "aa gun",
        "fighter": "fighter",
        "tactical_bomber": "tactical bomber",
        "bomber": "strategic bomber",
        "battleship": "battleship",
        "carrier": "aircraft carrier",
        "cruiser": "cruiser",
        "destroyer": "destroyer",
        "submarine": "submarine",
        "transport": "transport",
        "factory_major": "major industrial complex",
        "factory_minor": "minor industrial complex",
        "factory_upgrade": "industrial complex upgrade",
        "airfield": "air base",
        "harbour": "naval base",
    },
    digest_units={
        "infantry": "infantry",
        "artillery": "artillery",
        "mech_infantry": "mechanized infantry",
        "tank": "tank",
        "aa_gun": "aa gun",
        "fighter": "fighter",
        "tactical_bomber": "tactical bomber",
        "strategic_bomber": "strategic bomber",
        "battleship": "battleship",
        "carrier": "aircraft carrier",
        "cruiser": "cruiser",
        "destroyer": "destroyer",
        "submarine": "submarine",
        "transport": "transport",
        "major_ic": "major industrial complex",
        "minor_ic": "minor industrial complex",
        "air_base": "air base",
        "naval_base": "naval base",
    },
    extra_aliases={
        # the cities of §3.1 (victory cities and capitals) name their territories
        "Germany": ("Berlin",),
        "Russia": ("Moscow",),
        "United Kingdom": ("London",),
        "France": ("Paris",),
        "Southern Italy": ("Rome", "S Italy", "South Italy"),
        "Northern Italy": ("N Italy", "North Italy"),
        "Eastern United States": ("Washington", "Eastern U.S.", "Eastern US", "East US", "E US",
                                  "EUS"),
        "Central United States": ("Central U.S.", "Central US", "CUS"),
        "Novgorod": ("Leningrad",),
        "Volgograd": ("Stalingrad",),
        "Egypt": ("Cairo",),
        "Ontario": ("Ottawa",),
        "Poland": ("Warsaw",),
        # the digest's (German rulebook's) spellings
        "Sicily": ("Sicilia",),
        "Southeast Mexico": ("South Eastern Mexico", "Southeastern Mexico", "SE Mexico"),
        # M-6: the Caspian Sea is a sea zone without a number (TripleA's 128 Sea Zone)
        "Sea Zone 128": ("Caspian Sea", "Caspian"),
        # TripleA joins two names with a space where the board prints a slash
        "Alberta Saskatchewan Manitoba": ("Alberta/Saskatchewan/Manitoba", "Alberta",
                                          "Saskatchewan", "Manitoba"),
        "Holland Belgium": ("Holland/Belgium", "Holland", "Belgium"),
        "Normandy Bordeaux": ("Normandy/Bordeaux", "Normandy", "Bordeaux"),
        "Slovakia Hungary": ("Slovakia/Hungary", "Slovakia", "Hungary"),
        "Newfoundland Labrador": ("Newfoundland/Labrador", "Newfoundland", "Labrador"),
        "New Brunswick Nova Scotia": ("New Brunswick/Nova Scotia", "New Brunswick",
                                      "Nova Scotia"),
        "Anglo Egyptian Sudan": ("Anglo-Egyptian Sudan", "Anglo-Egypt Sudan", "Sudan"),
        "Greater Southern Germany": ("Southern Germany", "S Germany"),
        "Western Germany": ("W Germany", "West Germany"),
        "Union of South Africa": ("South Africa",),
        "French Madagascar": ("Madagascar",),
        "Tanganyika Territory": ("Tanganyika",),
    },
    variant="",
    variant_note="",
)

EDITIONS: dict[str, EditionConfig] = {A1941.id: A1941, CLASSIC.id: CLASSIC,
                                      EUROPE1940.id: EUROPE1940}


# --- small helpers --------------------------------------------------------------------------


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key that orders 'Sea Zone 2' before 'Sea Zone 10'."""
    parts = re.split(r"(\d+)", text)
    return tuple((0, int(p)) if p.isdigit() else (1, p.casefold()) for p in parts if p)


def pair(a: str, b: str) -> tuple[str, str]:
    """An undirected pair in canonical order."""
    return (a, b) if natural_key(a) <= natural_key(b) else (b, a)


def our_space_name(xml_name: str, renames: Mapping[str, str] | None = None) -> str:
    """TripleA '<n> Sea Zone' -> 'Sea Zone <n>', or the edition's renaming; others are kept."""
    if renames and xml_name in renames:
        return renames[xml_name]
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
    properties: dict[str, str] = field(default_factory=dict)  # TripleA game options
    original_factories: set[str] = field(default_factory=set)  # TerritoryAttachment option
    victory_cities: set[str] = field(default_factory=set)  # TerritoryAttachment victoryCity
    blockade_zones: set[str] = field(default_factory=set)  # TerritoryAttachment blockadeZone
    neutral_owners: dict[str, str] = field(default_factory=dict)  # space -> alignment
    neutral_armies: dict[str, dict[str, int]] = field(default_factory=dict)  # space -> units
    unit_options: dict[str, dict[str, str]] = field(default_factory=dict)  # unit -> XML options
    supports: list[tuple[str, tuple[str, ...], str, str]] = field(default_factory=list)
    relations: list[tuple[str, str, str]] = field(default_factory=list)  # power, power, type


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
        ours = our_space_name(name, cfg.renames)
        if ours not in game.sea:
            raise ConversionError(f"unknown territory {name!r} in the XML")
        return ours

    board = root.find("map")
    if board is None:
        raise ConversionError("no <map> in the XML")
    for t in board.iter("territory"):
        game.sea[our_space_name(_attr(t, "name"), cfg.renames)] = t.get("water") == "true"
    for c in board.iter("connection"):
        game.connections.append(pair(space(_attr(c, "t1")), space(_attr(c, "t2"))))

    neutral = cfg.neutral_players
    players = root.find("playerList")
    if players is not None:
        game.turn_order = [power(_attr(p, "name")) for p in players.iter("player")
                           if _attr(p, "name") not in neutral]
        for a in players.iter("alliance"):
            if _attr(a, "player") not in neutral:
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
        if att.get("type") == "unitType" and java.endswith("UnitSupportAttachment"):
            game.supports.append((unit(target),
                                  tuple(unit(u) for u in options["unitType"].split(":")),
                                  options.get("side", ""), options.get("bonus", "")))
        elif att.get("type") == "unitType":
            if target in cfg.ignored_units:
                continue
            name = unit(target)
            game.unit_options[name] = options
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
            if options.get("originalFactory") == "true":
                game.original_factories.add(sp)
            if "capital" in options:
                game.capitals[sp] = power(options["capital"])
            if options.get("victoryCity", "0") not in ("0", "false"):
                game.victory_cities.add(sp)
            if options.get("blockadeZone") == "true":
                game.blockade_zones.add(sp)
    for cname, (zones, land) in sorted(canals.items()):
        uniq = tuple(sorted(set(zones), key=natural_key))
        game.canals.append(XmlCanal(cname, uniq, tuple(sorted(land, key=natural_key))))

    init = root.find("initialize")
    if init is not None:
        for o in init.iter("territoryOwner"):
            if _attr(o, "owner") in neutral:
                game.neutral_owners[space(_attr(o, "territory"))] = neutral[_attr(o, "owner")]
                continue
            game.owners[space(_attr(o, "territory"))] = power(_attr(o, "owner"))
        for p in init.iter("unitPlacement"):
            if _attr(p, "owner") in neutral:
                army = game.neutral_armies.setdefault(space(_attr(p, "territory")), {})
                kind = unit(_attr(p, "unitType"))
                army[kind] = army.get(kind, 0) + int(_attr(p, "quantity"))
                continue
            sp, pw = space(_attr(p, "territory")), power(_attr(p, "owner"))
            name, qty = unit(_attr(p, "unitType")), int(_attr(p, "quantity"))
            units = game.placement.setdefault(sp, {}).setdefault(pw, {})
            units[name] = units.get(name, 0) + qty
        for r in init.iter("resourceGiven"):
            if r.get("resource") == "PUs":
                game.resources[power(_attr(r, "player"))] = int(_attr(r, "quantity"))
        for rel in init.iter("relationship"):
            one, two = _attr(rel, "player1"), _attr(rel, "player2")
            if one not in neutral and two not in neutral:
                game.relations.append((power(one), power(two), _attr(rel, "type")))
    props = root.find("propertyList")
    for prop in props.iter("property") if props is not None else ():
        if prop.get("value") is not None:
            game.properties[_attr(prop, "name")] = _attr(prop, "value")
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

    def __init__(
        self,
        spaces: Iterable[str],
        digest: Mapping[str, Any],
        known: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.ours = set(spaces)
        self.lookup: dict[str, str] = {}
        for s in self.ours:
            self.lookup[self._norm(s)] = s
        for s, forms in (known or {}).items():  # our aliases and the digest's phrases
            for f in forms:
                self.lookup.setdefault(self._norm(f), s)
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


def digest_unit(name: str, renames: Mapping[str, str] | None = None) -> str:
    unit = name.replace("_", " ").strip().casefold()
    unit = (renames or {}).get(name, unit)
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
        self.names = Names(self.game.sea, self.names_digest(), self.known_names())
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

    def known_names(self) -> dict[str, list[str]] | None:
        """Names the digest may use besides our space names (none for a1941)."""
        return None

    def names_digest(self) -> Mapping[str, Any]:
        """The digest whose territories name spaces of this map (all of them here)."""
        return self.digest

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
            forms[s].update(self.short_forms(s))
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

    def short_forms(self, s: str) -> set[str]:
        """Forms players type for a space besides the tables: 'sz5', 'SZ 5', '5 Sea Zone'."""
        m = SEA_ZONE_OURS.fullmatch(s)
        return {f"sz{m.group(1)}", f"SZ {m.group(1)}", f"{m.group(1)} Sea Zone"} if m else set()

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
        self.space_notes(spaces)
        return spaces

    def space_notes(self, spaces: list[Space]) -> None:
        game = self.game
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


SEAM = 2  # pixels: a polygon edge this close to the map's left or right border runs along it
SEAM_MIN = 5  # pixels of shared border that make two spaces meet across the wrap
POINT = re.compile(r"\((-?\d+),\s*(-?\d+)\)")
SEA_UNITS = frozenset({"battleship", "aircraft carrier", "transport", "submarine", "destroyer"})


class ClassicConversion(Conversion):
    """Classic: the XML gives board and setup (the text has no charts); the digest is checked.

    Rule IDs are classic.md's (``R-MAP-02``...). Where the digest states a fact, it wins over
    the XML and the difference is written to ``setup_differences``.
    """

    def known_names(self) -> dict[str, list[str]]:
        known = {s: list(forms) for s, forms in self.cfg.extra_aliases.items()}
        for phrase, s in self.cfg.digest_spaces.items():
            known.setdefault(s, []).append(phrase)
        return known

    def place(self, text: str) -> str:
        """A digest location, e.g. 'Atlantic sea zone west of Spain (listed under ...)'."""
        return self.names(re.sub(r"\s*\(.*\)\s*$", "", text))

    def unit_name(self, name: str) -> str:
        return digest_unit(name, self.cfg.digest_units)

    def short_forms(self, s: str) -> set[str]:
        """'Baltic Sea' for 'Baltic Sea Zone', as the rulebook writes (§3.3)."""
        head = s.removesuffix(" Sea Zone")
        if head == s or not self.game.sea[s] or head.endswith(("Ocean", "Sea")):
            return set()
        return {f"{head} Sea"}

    def remove_adjacent(self, a: str, b: str, why: str) -> None:
        self.adjacency.discard(pair(a, b))
        self.neighbours[a].discard(b)
        self.neighbours[b].discard(a)
        self.rep.differences.append(
            f"{a} / {b}: connected in the XML but not adjacent by {why}; connection removed ({RB})"
        )

    # R-MAP-02: the wrap ------------------------------------------------------------------------
    def seam(self) -> tuple[dict[str, list[tuple[int, int]]], dict[str, list[tuple[int, int]]]]:
        """Stretches (y ranges) of the map's left and right borders that each space runs along."""
        map_dir = self.xml_path.parent.parent
        props = (map_dir / "map.properties").read_text("utf-8")
        m = re.search(r"^map\.width=(\d+)", props, re.M)
        if m is None:
            raise ConversionError("map.properties: no map.width")
        width = int(m.group(1))
        left: dict[str, list[tuple[int, int]]] = {}
        right: dict[str, list[tuple[int, int]]] = {}
        for line in (map_dir / "polygons.txt").read_text("utf-8").splitlines():
            name, _, rest = line.partition("<")
            if not rest:
                continue
            sp = our_space_name(name.strip(), self.cfg.renames)
            if sp not in self.game.sea:
                raise ConversionError(f"polygons.txt: unknown territory {name.strip()!r}")
            for ring in re.findall(r"<([^>]*)>", "<" + rest):
                pts = [(int(x), int(y)) for x, y in POINT.findall(ring)]
                for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
                    if y1 == y2:
                        continue
                    span = (min(y1, y2), max(y1, y2))
                    if x1 <= SEAM and x2 <= SEAM:
                        left.setdefault(sp, []).append(span)
                    elif x1 >= width - 1 - SEAM and x2 >= width - 1 - SEAM:
                        right.setdefault(sp, []).append(span)
        self.files_used += ["map/map.properties", "map/polygons.txt"]
        return left, right

    def wrap_pairs(self) -> list[tuple[str, str]]:
        """R-MAP-02: spaces that share a stretch of the left/right border, checked both ways."""
        left, right = self.seam()
        found: set[tuple[str, str]] = set()
        for a, spans_a in left.items():
            for b, spans_b in right.items():
                shared = sum(
                    max(0, min(h1, h2) - max(l1, l2)) for l1, h1 in spans_a for l2, h2 in spans_b
                )
                if shared > SEAM_MIN:
                    found.add(pair(a, b))
        for a, b in sorted(found - self.adjacency):
            self.ensure_adjacent(a, b, "the wrap-around (R-MAP-02): they meet across the edge")
        across = {
            p
            for p in self.adjacency
            if (p[0] in left and p[1] in right) or (p[0] in right and p[1] in left)
        }
        for a, b in sorted(across - found):
            self.rep.notes.append(
                f"R-MAP-02: {a} / {b} are connected across the map edge without sharing it"
            )
        pairs = sorted(found, key=lambda p: (natural_key(p[0]), natural_key(p[1])))
        named = 0
        unnamed: list[str] = []
        for raw in _list(self.dmap.get("wrap_examples", []), "map.wrap_examples"):
            ends = [_str(x, "wrap example") for x in _list(raw, "wrap example")]
            if len(ends) != 2:
                raise ConversionError(f"wrap example {raw!r} is not a pair")
            if all(e.casefold().startswith("sea zone ") for e in ends):
                unnamed.append(" - ".join(ends))  # the text's letters for its illustration
                continue
            a, b = self.names(ends[0]), self.names(ends[1])
            named += 1
            if pair(a, b) not in found:
                self.ensure_adjacent(a, b, "the wrap-around example (R-MAP-02)")
                pairs.append(pair(a, b))
        land = [p for p in pairs if not (self.game.sea[p[0]] or self.game.sea[p[1]])]
        sea = [p for p in pairs if self.game.sea[p[0]] and self.game.sea[p[1]]]
        mixed = [p for p in pairs if p not in land and p not in sea]
        self.rep.notes.append(
            f"R-MAP-02: {len(pairs)} wrap pairs, the spaces whose outlines share a stretch of the "
            "left/right border of TripleA's map (map/polygons.txt), all of them <connection>s in "
            f"the XML: {len(land)} land ({self._pairs(land)}), {len(sea)} sea "
            f"({self._pairs(sea)}) and {len(mixed)} coast ({self._pairs(mixed)}); the rulebook's "
            f"{named} named examples are among them; its sea examples ({', '.join(unnamed)}) "
            "are letters on an illustration, not names"
        )
        return pairs

    @staticmethod
    def _pairs(pairs: Iterable[tuple[str, str]]) -> str:
        return "; ".join(f"{a} / {b}" for a, b in pairs)

    # canals (R-MAP-07, R-MAP-08) ----------------------------------------------------------------
    def canals(self) -> tuple[list[Canal], list[str]]:
        stated: dict[str, tuple[str, ...]] = {}
        for i, raw in enumerate(_list(self.digest.get("canals", []), "canals")):
            c = _obj(raw, f"canals[{i}]")
            via = (self.names(_str(t, "canal land")) for t in _list(c["control"], "control"))
            stated[_str(c["name"], "canal name")] = tuple(sorted(via, key=natural_key))
        canals: list[Canal] = []
        for x in self.game.canals:
            if len(x.sea_zones) != 2:
                raise ConversionError(f"{x.name}: expected two sea zones, got {x.sea_zones}")
            a, b = x.sea_zones
            self.ensure_adjacent(a, b, f"the {x.name}")
            land = stated.pop(x.name, None)
            if land is None:
                self.rep.differences.append(f"{x.name}: XML canal unknown to the rulebook; dropped")
                continue
            if land != x.land:
                self.rep.differences.append(
                    f"{x.name}: XML controlled via {' + '.join(x.land)}, rulebook "
                    f"{' + '.join(land)}; {RB}"
                )
            else:
                self.rep.notes.append(
                    f"R-MAP-07/08: {x.name} joins {a} and {b} (XML), controlled via "
                    f"{' + '.join(land)}; the rulebook agrees"
                )
            canals.append(Canal(name=x.name, sea_zones=(a, b), controlled_by=land))
        for name in stated:
            self.rep.differences.append(f"{name}: in the rulebook, not a canal in the XML")
        self.rep.notes.append(
            "A-26: the Panama Canal's zones are the XML's Caribbean and West Panama sea zones; "
            "there are no strait rules in this rulebook (§3.2), so no sea zone is closed"
        )
        return sorted(canals, key=lambda c: c.name), []

    # adjacency facts (R-MAP-01, R-MAP-09..14, §3.4) -----------------------------------------
    def adjacency_facts(self) -> None:
        held: list[str] = []
        for i, raw in enumerate(_list(self.digest.get("adjacency_facts", []), "adjacency_facts")):
            f = _obj(raw, f"adjacency_facts[{i}]")
            a = self.place(_str(f["a"], "adjacency a"))
            b = self.place(_str(f["b"], "adjacency b"))
            touching = b in self.neighbours[a]
            if f["adjacent"] is True and not touching:
                self.ensure_adjacent(a, b, f"the rulebook ({f.get('source')})")
            elif f["adjacent"] is False and touching:
                self.remove_adjacent(a, b, f"the rulebook ({f.get('source')})")
            else:
                held.append(f"{a} {'/' if touching else '-x-'} {b}")
        self.rep.notes.append(
            f"R-MAP-01/02/09..14 and §3.4: {len(held)} adjacency facts of the digest hold in the "
            f"XML ('-x-': not adjacent): {'; '.join(held)}"
        )

    def distance_facts(self) -> None:
        """§3.4 distances (spaces counted as aircraft fly) against the graph."""
        held: list[str] = []
        for i, raw in enumerate(_list(self.digest.get("distance_facts", []), "distance_facts")):
            f = _obj(raw, f"distance_facts[{i}]")
            dest = _str(f["to"], "distance to")
            back = dest.endswith(" and back")
            a = self.place(_str(f["from"], "distance from"))
            b = self.place(dest.removesuffix(" and back"))
            got = self.distance(a, b) * (2 if back else 1)
            stated = _int(f["spaces"], "spaces")
            line = f"{a} -> {b}{' and back' if back else ''} {stated}"
            if got == stated:
                held.append(line)
            else:
                self.rep.differences.append(
                    f"distance {line} in the rulebook ({f.get('source')}), {got} on the XML's graph"
                )
        self.rep.notes.append(
            f"§3.4: {len(held)} distances of the rulebook's examples are the shortest paths on "
            f"the graph: {'; '.join(held)}"
        )

    def distance(self, a: str, b: str) -> int:
        seen, frontier, steps = {a}, {a}, 0
        while frontier and b not in seen:
            frontier = {n for s in frontier for n in self.neighbours[s]} - seen
            seen |= frontier
            steps += 1
        if b not in seen:
            raise ConversionError(f"{b} cannot be reached from {a}")
        return steps

    # setup (§8) ---------------------------------------------------------------------------------
    def placement(self) -> SetupTable:
        """TripleA's unit placement, checked against (and overridden by) the text's fragments."""
        game = self.game
        setup: SetupTable = {
            sp: {pw: dict(units) for pw, units in by_power.items()}
            for sp, by_power in game.placement.items()
        }
        dset = _obj(self.digest.get("setup", {}), "setup")
        held = 0
        for kind in ("stated", "from_examples"):
            for i, raw in enumerate(_list(dset.get(kind, []), f"setup.{kind}")):
                f = _obj(raw, f"setup.{kind}[{i}]")
                pw, src = _str(f["power"], "setup power"), _str(f["source"], "setup source")
                sp = self.place(_str(f["location"], "setup location"))
                at_least = "at least" in src
                have = setup.get(sp, {}).get(pw, {})
                for u, n in _obj(f["units"], "setup units").items():
                    if n is None:  # "naval units (unspecified)"
                        if any(have.get(s) for s in SEA_UNITS):
                            held += 1
                        else:
                            self.rep.differences.append(
                                f"setup {sp}, {pw}: the rulebook ({src}) has naval units there, "
                                "the XML none"
                            )
                        continue
                    name, want = self.unit_name(u), _int(n, "setup count")
                    got = have.get(name, 0)
                    if got == want or (at_least and got > want):
                        held += 1
                    elif src.startswith("T") and not at_least:
                        _add(setup, sp, pw, name, want - got)
                        self.rep.differences.append(
                            f"setup {sp}, {pw}: rulebook {_plural(name, want)}, XML "
                            f"{_plural(name, got)}; {RB}"
                        )
                    else:
                        self.rep.differences.append(
                            f"setup {sp}, {pw}: a worked example ({src}) shows "
                            f"{_plural(name, want)}, the XML {_plural(name, got)}; XML kept "
                            "(an example is not a setup chart)"
                        )
        units = sum(n for bp in setup.values() for us in bp.values() for n in us.values())
        self.rep.notes.append(
            f"§8: the rulebook text has no setup charts; the setup is TripleA's unit placement "
            f"({units} pieces, industrial complexes and antiaircraft guns included), and all "
            f"{held} unit counts the text states or shows (§8, §3.3) agree with it"
        )
        printed = sorted(self.factories.items(), key=lambda kv: natural_key(kv[0]))
        self.rep.notes.append(
            "industrial complexes at start (the rulebook's 'original' complexes, factory=true): "
            + ", ".join(f"{s} ({p})" for s, p in printed)
            + (
                "; the XML's originalFactory options name the same territories"
                if game.original_factories == set(self.factories)
                else "; the XML's originalFactory options differ: "
                + ", ".join(sorted(game.original_factories, key=natural_key))
            )
        )
        self.rep.notes.append(
            "fighters listed in a sea zone are aboard their own power's carriers there"
        )
        return setup

    # territories (R-MAP-03..05, §3.3) ---------------------------------------------------------
    def owners_and_values(self) -> dict[str, str]:
        game = self.game
        owners = dict(game.owners)
        for i, raw in enumerate(_list(self.digest.get("territories", []), "territories")):
            t = _obj(raw, f"territories[{i}]")
            sp = self.names(_str(t["name"], "territory name"))
            owner = t.get("original_owner")
            if owner is not None and owners.get(sp) != owner:
                self.rep.differences.append(
                    f"owner of {sp}: XML {owners.get(sp)}, rulebook {owner}; {RB}"
                )
                owners[sp] = _str(owner, "original owner")
            if t.get("neutral") and sp in owners:
                self.rep.differences.append(
                    f"{sp}: neutral in the rulebook, XML {owners[sp]}; {RB}"
                )
                del owners[sp]
            value = t.get("ipc_value")
            if value is not None and game.production.get(sp, 0) != value:
                self.rep.differences.append(
                    f"value of {sp}: rulebook {value}, XML {game.production.get(sp, 0)}; {RB}"
                )
                game.production[sp] = _int(value, "ipc_value")
            if t.get("capital") is True and sp not in game.capitals:
                self.rep.differences.append(f"{sp}: a capital in the rulebook, not in the XML")
            if t.get("original_industrial_complex") is True and sp not in self.factories:
                self.rep.differences.append(f"{sp}: original complex in the rulebook, not in XML")
        return owners

    def island_facts(self, spaces: Iterable[Space]) -> None:
        island = {s.name: s.island for s in spaces}
        for i, raw in enumerate(_list(self.digest.get("territories", []), "territories")):
            t = _obj(raw, f"territories[{i}]")
            sp = self.names(_str(t["name"], "territory name"))
            if t.get("kind") == "island" and not island[sp]:
                self.rep.differences.append(
                    f"{sp}: an island in the rulebook, but it has land neighbours in the XML"
                )

    def space_notes(self, spaces: list[Space]) -> None:
        game = self.game
        islands = [sp.name for sp in spaces if sp.island]
        wide = [s for s in islands if len(self.neighbours[s]) > 1]
        self.rep.notes.append(
            "R-MAP-05 (best reading): island = land territory whose only neighbours are sea "
            f"zones; {len(islands)} found: {', '.join(islands)}"
            + (f"; of them {', '.join(wide)} touch more than one sea zone" if wide else "")
        )
        neutral = [sp.name for sp in spaces if sp.kind == "land" and sp.original_owner is None]
        self.rep.notes.append(
            f"R-MAP-04/R-NEU-01: the XML leaves {len(neutral)} land territories unowned: "
            f"{', '.join(neutral)}; they are the neutrals (original_owner null, value 0). They "
            "are not impassable: the first power to enter or overfly one pays 3 IPCs and takes "
            "it (R-NEU-02; XML neutralCharge="
            f"{game.properties.get('neutralCharge')}, 'Neutrals Are Impassable'="
            f"{game.properties.get('Neutrals Are Impassable')})"
        )

    # powers, economy, units --------------------------------------------------------------------
    def powers(self, owners: Mapping[str, str]) -> dict[str, int]:
        game = self.game
        income = dict.fromkeys(self.cfg.players.values(), 0)
        for sp, pw in owners.items():
            income[pw] += game.production.get(sp, 0)
        for i, raw in enumerate(_list(self.digest.get("powers", []), "powers")):
            p = _obj(raw, f"powers[{i}]")
            pw = _str(p["name"], "power name")
            treasury = _int(p["starting_ipcs"], "starting_ipcs")
            if game.resources.get(pw) != treasury:
                self.rep.differences.append(
                    f"starting treasury of {pw}: rulebook {treasury} IPCs, XML resourceGiven "
                    f"{game.resources.get(pw)} PUs; {RB} (R-ECO-01)"
                )
            if income[pw] != treasury:
                self.rep.differences.append(
                    f"income of {pw}: rulebook {treasury} IPCs (R-ECO-01), its starting "
                    f"territories in the XML add up to {income[pw]}"
                )
            if game.turn_order and game.turn_order.index(pw) + 1 != _int(p["turn_order"], "turn"):
                self.rep.differences.append(f"turn order of {pw}: XML differs; {RB}")
            if game.sides.get(pw) != p["side"]:
                self.rep.differences.append(
                    f"side of {pw}: XML {game.sides.get(pw)}, rulebook {p['side']}; {RB}"
                )
            cap = self.names(_str(p["capital"], "capital"))
            if game.capitals.get(cap) != pw:
                self.rep.differences.append(f"capital of {pw}: rulebook {cap}, the XML differs")
        self.rep.notes.append(
            "R-ECO-01: each power's starting territories in the XML add up to its starting "
            "income in the rulebook, and the XML's resourceGiven matches it too: "
            + ", ".join(f"{p} {n}" for p, n in income.items())
        )
        return income

    def units(self) -> None:
        unstated: list[str] = []
        for i, raw in enumerate(_list(self.digest.get("units", []), "units")):
            u = _obj(raw, f"units[{i}]")
            name = self.unit_name(_str(u["name"], "unit name"))
            theirs = self.game.unit_stats.get(name)
            if theirs is None:
                self.rep.differences.append(f"unit {name}: not defined in the XML")
                continue
            for stat in ("cost", "attack", "defense", "move", "hits"):
                ours, xml = u.get(stat), getattr(theirs, stat)
                if ours is None:
                    if stat == "cost":
                        unstated.append(f"{name} {xml}")
                elif ours != xml:
                    self.rep.differences.append(
                        f"unit {name} {stat}: rulebook {ours}, XML {xml}; {RB}"
                    )
        self.rep.notes.append(
            "units: the XML's profiles agree with every figure the rulebook states; costs the "
            f"text does not state (OCR), XML: {', '.join(unstated)} (A-27; edition.json decides)"
        )

    # all together ----------------------------------------------------------------------------
    def run(self) -> tuple[MapData, Report]:
        cfg, game, rep = self.cfg, self.game, self.rep
        dupes = sorted(p for p, n in Counter(game.connections).items() if n > 1)
        if dupes:
            rep.notes.append(f"duplicate <connection> elements in the XML were merged: {dupes}")
        wrap_pairs = self.wrap_pairs()
        canals, closed = self.canals()
        self.adjacency_facts()
        setup = self.placement()
        owners = self.owners_and_values()
        spaces = self.spaces(owners)
        self.island_facts(spaces)
        income = self.powers(owners)
        self.units()
        self.distance_facts()
        rep.notes.append(
            "victory: the XML has no victory cities; its 'Allies Economic Victory' (140) is "
            "TripleA's, not the rulebook's (§2: capitals, and the Axis at 84; edition.json)"
        )
        rep.notes.append(
            "not imported from the XML: technology, bids, the Russians' round-1 movement "
            "restriction (TripleA trigger; the rulebook's optional rule O-4), the units "
            "artillery and destroyer, TripleA properties (informative only)"
        )
        digest_file = f"shared/rules/{self.digest_path.name}"
        renamed = ", ".join(f"{a}={b}" for a, b in cfg.renames.items())
        source = Source(
            repo=cfg.repo,
            commit=cfg.commit,
            files=(*self.files_used, digest_file),
            converter=CONVERTER,
            notes=(
                f"TripleA game '{game.title}' version {game.version}; files are paths in "
                f"{cfg.repo} at the commit above, except {digest_file}, the project's digest of "
                "the rulebook (it has no setup charts: setup, owners, values and adjacency come "
                "from the XML, checked against every fact the digest states)",
                "names (tools/classic_names.py): TripleA names are kept except these, renamed to "
                f"the rulebook's names or spelling (TripleA=ours): {renamed}; every TripleA name "
                "stays an alias. Powers: Russians=Russia, Germans=Germany, British=United "
                "Kingdom, Japanese=Japan, Americans=United States; units armour=tank, "
                "carrier=aircraft carrier, factory=industrial complex, aaGun=antiaircraft gun",
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
            setup_differences=tuple(rep.differences),
        )
        land = [s for s in spaces if s.kind == "land"]
        islands = [s.name for s in land if s.island]
        neutral = [s.name for s in land if s.original_owner is None]
        rep.facts += [
            f"spaces {len(spaces)} = {len(land)} land ({len(neutral)} neutral) + "
            f"{len(spaces) - len(land)} sea; adjacency {len(board.adjacency)} pairs "
            f"({len(wrap_pairs)} wrap pairs)",
            f"islands ({len(islands)}): {', '.join(islands)}",
            "starting income from territories (R-ECO-01): "
            + ", ".join(f"{p} {n}" for p, n in income.items())
            + f"; board total {sum(s.value for s in land)}",
        ]
        return board, rep


COMPLEXES = ("major industrial complex", "minor industrial complex")
# A-29: the victory cities whose territory the text does not name, as the board data places them
# (TripleA's victoryCity options); the other six are stated (§3.1).
A29_CITIES = {
    "Ontario": "Ottawa",
    "Eastern United States": "Washington",
    "Egypt": "Cairo",
    "Southern Italy": "Rome",
    "Poland": "Warsaw",
}
DIGEST_POWERS = {"USA": "United States", "United Kingdom (Canada)": "United Kingdom"}


class EuropeConversion(Conversion):
    """Europe 1940: the XML gives board and setup (the rulebook has no setup charts, ST-1); the
    digest's facts are checked against it and win where they differ (europe1940.md rule IDs)."""

    def __init__(self, cfg: EditionConfig, xml_path: Path, digest_path: Path) -> None:
        super().__init__(cfg, xml_path, digest_path)
        self.factories = {
            sp: pw
            for sp, by_power in self.game.placement.items()
            for pw, units in by_power.items()
            if any(units.get(c) for c in COMPLEXES)
        }

    def known_names(self) -> dict[str, list[str]]:
        return {s: list(forms) for s, forms in self.cfg.extra_aliases.items()}

    def digest_territories(self) -> list[dict[str, Any]]:
        """The digest's territories on the Europe map that are spaces of the XML."""
        out = []
        for i, raw in enumerate(_list(self.digest.get("territories", []), "territories")):
            t = _obj(raw, f"territories[{i}]")
            if t.get("map") == "europe" and t["name"] not in self.not_spaces():
                out.append(t)
        return out

    @staticmethod
    def not_spaces() -> frozenset[str]:
        return frozenset({"The Sahara Desert"})

    def names_digest(self) -> Mapping[str, Any]:
        return {"territories": self.digest_territories()}

    def power(self, digest_name: str) -> str:
        return DIGEST_POWERS.get(digest_name, digest_name)

    # M-7 and the Global-only edge -----------------------------------------------------------
    def unplayable(self) -> None:
        """Land spaces of the XML without a single connection: impassable, nobody's."""
        game = self.game
        lonely = sorted((s for s in game.sea if not game.sea[s] and not self.neighbours[s]),
                        key=natural_key)
        for s in lonely:
            if s in game.impassable:
                continue
            owner = game.owners.pop(s, None)
            game.impassable.add(s)
            self.rep.differences.append(
                f"{s}: a Global 1940 edge territory with no connection on the Europe map (ABOUT: "
                f"only playable in Global); the XML gives it to {owner}, value "
                f"{game.production.get(s, 0)}; here impassable and owned by nobody, as nothing "
                "can enter it"
            )
        impassable = sorted(game.impassable, key=natural_key)
        self.rep.notes.append(
            "M-7: the XML marks Pripet Marshes and Himalayas isImpassable; with the Global edge "
            f"territories the impassable spaces are {', '.join(impassable)}"
        )
        north = {"Morocco", "Algeria", "Tunisia", "Libya", "Tobruk", "Rio de Oro"}
        south = {"French West Africa", "French Central Africa", "French Equatorial Africa",
                 "Anglo Egyptian Sudan", "Nigeria"}
        across = sorted(pair(a, b) for a in north for b in south if b in self.neighbours[a])
        if across:
            self.rep.differences.append(f"M-7: connections across the Sahara in the XML: {across}")
        else:
            self.rep.notes.append(
                "M-7: 'The Sahara Desert' is not a space in the XML (the board's desert is no "
                "territory there); no connection crosses it (none between Morocco, Algeria, "
                "Tunisia, Libya, Tobruk, Rio de Oro and French West/Central/Equatorial Africa, "
                "Nigeria, Anglo Egyptian Sudan), so nothing enters or crosses it, as M-7 says"
            )

    # M-3, M-6, §4.3 -------------------------------------------------------------------------
    def remove_adjacent(self, a: str, b: str, why: str) -> None:
        self.adjacency.discard(pair(a, b))
        self.neighbours[a].discard(b)
        self.neighbours[b].discard(a)
        self.rep.differences.append(
            f"{a} / {b}: connected in the XML but not adjacent by {why}; connection removed ({RB})"
        )

    def adjacency_facts(self) -> None:
        held: list[str] = []
        stated = _obj(self.dmap.get("sea_zone_adjacency_stated", {}), "sea_zone_adjacency")
        for zone, facts in stated.items():
            z = self.names(int(zone))
            for land in _list(_obj(facts, zone).get("land", []), "land"):
                t = self.names(_str(land, "land"))
                if t in self.neighbours[z]:
                    held.append(f"{z} / {t}")
                self.ensure_adjacent(z, t, "the rulebook (§4.3, CD-4)")
            for land in _list(_obj(facts, zone).get("not_adjacent", []), "not_adjacent"):
                t = self.names(_str(land, "land"))
                if t in self.neighbours[z]:
                    self.remove_adjacent(z, t, "M-3 (they touch at a point)")
                else:
                    held.append(f"{z} -x- {t}")
        caspian = self.names("Caspian Sea")
        shores = ("Caucasus", "Kazakhstan", "Turkmenistan", "Eastern Persia", "Persia",
                  "Northwest Persia")
        for t in shores:
            if t in self.neighbours[caspian]:
                held.append(f"{caspian} / {t}")
            self.ensure_adjacent(caspian, t, "M-6 (the Caspian Sea)")
        others = sorted(self.neighbours[caspian] - set(shores), key=natural_key)
        if others:
            self.rep.differences.append(f"M-6: {caspian} also touches {others} in the XML")
        self.rep.notes.append(
            f"M-6: the Caspian Sea is the XML's {caspian} (no number on the board; alias "
            "'Caspian Sea'), bordered by exactly the six territories M-6 names and by no other "
            "sea zone"
        )
        uk = self.names("United Kingdom")
        self.rep.notes.append(
            f"§4.1/§4.3/CD-4/A-11: {len(held)} adjacency facts of the text hold in the XML ('-x-': "
            f"not adjacent): {'; '.join(held)}; {uk} borders exactly "
            f"{', '.join(sorted(self.neighbours[uk], key=natural_key))} (A-11: sea zones 109 and "
            "110 only)"
        )
        self.rep.notes.append(
            "A-26 (Alberta/Saskatchewan/Manitoba also adjacent to Yukon and British Columbia) and "
            "the other map-edge links of §18.3 join the Pacific map: Yukon and British Columbia "
            "are not spaces of the Europe map, so they apply to Global 1940 only"
        )

    # canals and straits (§4.2) -----------------------------------------------------------------
    def canals(self) -> tuple[list[Canal], list[str]]:
        xml_canals = {c.name: c for c in self.game.canals}
        canals: list[Canal] = []
        for i, raw in enumerate(_list(self.digest.get("canals_straits", []), "canals_straits")):
            c = _obj(raw, f"canals_straits[{i}]")
            cname = _str(c["name"], "canal name")
            zones = tuple(sorted((self.names(_int(z, "zone")) for z in _list(c["sea_zones"], "z")),
                                 key=natural_key))
            land = tuple(sorted((self.names(_str(t, "land")) for t in _list(c["controlled_via"],
                                                                             "via")),
                                key=natural_key))
            if len(zones) != 2:
                raise ConversionError(f"{cname}: expected two sea zones, got {zones}")
            self.ensure_adjacent(zones[0], zones[1], f"the {cname} (§4.2)")
            subs = "submarines" in str(c.get("notes", "")).casefold()  # CS-6
            canals.append(Canal(name=cname, sea_zones=(zones[0], zones[1]), controlled_by=land,
                                submarines_always_pass=subs))
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
                    f"§4.2: {cname} ({c.get('kind')}) joins {zones[0]} and {zones[1]}, controlled "
                    f"via {' + '.join(land)}; the XML agrees"
                    + ("; CS-6: submarines of any power always pass" if subs else "")
                )
        for x in xml_canals.values():
            self.rep.differences.append(f"{x.name}: XML canal unknown to the rulebook; dropped")
        return sorted(canals, key=lambda c: c.name), []

    # territories --------------------------------------------------------------------------------
    def owners_and_values(self) -> dict[str, str]:
        game = self.game
        owners = dict(game.owners)
        for t in self.digest_territories():
            sp = self.names(_str(t["name"], "territory name"))
            owner = t.get("original_owner")
            if owner is not None and owners.get(sp) != self.power(owner):
                self.rep.differences.append(
                    f"owner of {sp}: XML {owners.get(sp)}, rulebook {owner}; {RB}"
                )
                owners[sp] = self.power(owner)
            value = t.get("ipc")
            if value is not None and game.production.get(sp, 0) != value:
                self.rep.differences.append(
                    f"value of {sp}: rulebook {value}, XML {game.production.get(sp, 0)}; {RB}"
                )
                game.production[sp] = _int(value, "ipc")
            cap = t.get("capital_of")
            if cap is not None and game.capitals.get(sp) != self.power(cap):
                self.rep.differences.append(f"{sp}: capital of {cap} in the rulebook, not in XML")
        canada = sorted((s for s in ("Alberta Saskatchewan Manitoba", "Ontario", "Quebec",
                                     "New Brunswick Nova Scotia", "Newfoundland Labrador")
                         if owners.get(s) == "United Kingdom"), key=natural_key)
        self.rep.notes.append(
            "P-4/A-2/A-13: the Canadian territories (" + ", ".join(canada) + ") are the United "
            "Kingdom's in the XML (TripleA British): their original owner is the United Kingdom, "
            "which collects their income"
        )
        return owners

    def space_notes(self, spaces: list[Space]) -> None:
        islands = [sp.name for sp in spaces if sp.island]
        self.rep.notes.append(
            "M-8 (best reading): island = passable land territory whose only neighbours are sea "
            f"zones; {len(islands)} found: {', '.join(islands)}"
        )

    def island_facts(self, spaces: Iterable[Space]) -> None:
        island = {s.name: s.island for s in spaces}
        named = _obj(_obj(self.dmap.get("islands", {}), "islands").get("named", {}), "named")
        for name, zone in named.items():
            sp, z = self.names(name), self.names(_int(zone, "island zone"))
            if not island[sp]:
                self.rep.differences.append(f"{sp}: an island in the rulebook (M-8), not in XML")
            if z not in self.neighbours[sp]:
                self.ensure_adjacent(sp, z, "M-8")
        no_complex = set()
        for u in COMPLEXES:
            opts = self.game.unit_options.get(u, {})
            no_complex |= {our_space_name(t) for t in opts.get("unitPlacementRestrictions",
                                                                "").split(":") if t}
        isl = {s for s, v in island.items() if v}
        self.rep.notes.append(
            "M-8/MO-6: no industrial complex on islands; the XML forbids complexes on "
            f"{', '.join(sorted(no_complex, key=natural_key))}; of the islands found, "
            f"{', '.join(sorted(isl - no_complex, key=natural_key)) or 'none'} not in that "
            "list (worth less than 2, so no complex could go there anyway)"
            if all(self.game.production.get(s, 0) < 2 for s in isl - no_complex)
            else f"M-8/MO-6: islands the XML lets a complex be built on: "
                 f"{sorted(isl - no_complex, key=natural_key)}"
        )
        extra = sorted(no_complex - isl, key=natural_key)
        if extra:
            self.rep.notes.append(
                f"the XML also forbids complexes on {', '.join(extra)} (land neighbours in the "
                "XML, so not islands by M-8's reading)"
            )

    # powers, units ------------------------------------------------------------------------------
    def powers(self, owners: Mapping[str, str]) -> dict[str, int]:
        game = self.game
        income = dict.fromkeys(self.cfg.players.values(), 0)
        for sp, pw in owners.items():
            income[pw] += game.production.get(sp, 0)
        for i, raw in enumerate(_list(self.digest.get("powers", []), "powers")):
            p = _obj(raw, f"powers[{i}]")
            pw = self.power(_str(p["name"], "power name"))
            if pw not in income:
                continue  # Global powers (Japan, China, ANZAC)
            treasury = _int(p["starting_ipcs_europe"], "starting_ipcs_europe")
            if game.resources.get(pw) != treasury:
                self.rep.differences.append(
                    f"starting treasury of {pw}: rulebook {treasury}, XML {game.resources.get(pw)}"
                    f"; {RB} (P-3)"
                )
            if income[pw] != treasury:
                self.rep.differences.append(
                    f"income of {pw}: rulebook {treasury} (P-3: starting IPCs = starting income), "
                    f"its territories add up to {income[pw]}"
                )
            side = _str(p["side"], "side")
            if game.sides.get(pw) != side:
                self.rep.differences.append(f"side of {pw}: XML {game.sides.get(pw)}, rulebook "
                                            f"{side}; {RB}")
            cap = p.get("capital_territory")
            if cap is not None and game.capitals.get(self.names(_str(cap, "capital"))) != pw:
                self.rep.differences.append(f"capital of {pw}: rulebook {cap}, the XML differs")
        order = [self.power(_str(x, "power")) for x in
                 _list(_obj(self.digest.get("turn_order", {}), "turn_order")["europe"], "order")]
        if order != game.turn_order:
            self.rep.differences.append(f"turn order: XML {game.turn_order}, rulebook {order}")
        caps = {pw: sp for sp, pw in game.capitals.items()}
        self.rep.notes.append(
            "§2.1/P-3: turn order " + ", ".join(order) + " and sides agree with the XML; each "
            "power's territories add up to its starting IPCs and the XML's resourceGiven matches: "
            + ", ".join(f"{p} {n}" for p, n in income.items())
            + "; capitals (XML capital options): "
            + ", ".join(f"{p} {caps.get(p)}" for p in income)
            + " (A-29: Rome in Southern Italy)"
        )
        return income

    def units(self) -> None:
        game = self.game
        entries = [*_list(self.digest.get("units", []), "units"),
                   *_list(self.digest.get("facilities", []), "facilities")]
        agreed: list[str] = []
        for i, raw in enumerate(entries):
            u = _obj(raw, f"units[{i}]")
            uid = _str(u["id"], "unit id")
            if uid not in self.cfg.digest_units:
                raise ConversionError(f"digest unit {uid!r} is not a unit of this edition")
            name = self.cfg.digest_units[uid]
            theirs = game.unit_stats.get(name)
            if theirs is None:
                self.rep.differences.append(f"unit {name}: not defined in the XML")
                continue
            facility = "production_per_turn" in u or "max_damage" in u
            ours = XmlUnitStats(
                attack=_opt_int(u.get("attack"), "attack") or 0,
                defense=_opt_int(u.get("defense"), "defense") or 0,
                move=_opt_int(u.get("move"), "move") or 0,
                hits=_opt_int(u.get("hits"), "hits") or 1,
                cost=_opt_int(u.get("cost"), "cost"),
            )
            stats = ("cost",) if facility else ("cost", "attack", "defense", "move", "hits")
            for stat in stats:
                a, b = getattr(ours, stat), getattr(theirs, stat)
                if a != b:
                    self.rep.differences.append(f"unit {name} {stat}: rulebook {a}, XML {b}; {RB}")
            opts = game.unit_options.get(name, {})
            checks = [("production_per_turn", "canProduceXUnits"), ("max_damage", "maxDamage")]
            for key, option in checks:
                if key in u and str(u[key]) != opts.get(option):
                    self.rep.differences.append(
                        f"unit {name} {key}: rulebook {u[key]}, XML {option} {opts.get(option)}"
                    )
            if u.get("inoperative_at_damage") == 3 and opts.get("maxOperationalDamage") != "2":
                self.rep.differences.append(f"unit {name}: inoperative at 3 (A-9), XML differs")
            if "upgrade_to_major_cost" in u:
                upgrade = game.unit_stats.get("industrial complex upgrade")
                if upgrade is None or upgrade.cost != u["upgrade_to_major_cost"]:
                    self.rep.differences.append("industrial complex upgrade: cost differs")
            agreed.append(name)
        aa = game.unit_options.get("aa gun", {})
        bomber = game.unit_options.get("strategic bomber", {})
        tac = game.unit_options.get("tactical bomber", {})
        self.rep.notes.append(
            f"§16.0: the XML's profiles (cost, attack, defense, move, hits) agree with the "
            f"rulebook's for all {len(agreed)} units and facilities; complexes produce 10/3 with "
            "damage caps 20/6, air and naval bases cap 6 and stop working at 3 damage "
            "(maxOperationalDamage 2, A-9); the complex upgrade costs 20 (factory_upgrade); "
            f"AA guns fire up to maxAAattacks={aa.get('maxAAattacks')} shots each; strategic "
            f"bombers raid with bombingBonus={bomber.get('bombingBonus')}, tactical bombers only "
            f"{tac.get('bombingTargets')} (BR-1, BR-9)"
        )
        pairs = "; ".join(f"{a} -> {', '.join(b)} ({side} +{bonus})"
                          for a, b, side, bonus in game.supports)
        self.rep.notes.append(
            f"CA-1: the XML's support rules: {pairs}. The last (tank -> mechanized infantry) is "
            "TripleA's Improved Mechanized Infantry technology (no player holds it at the start), "
            "not a rulebook pairing; in the rulebook a tank lets one mechanized infantry blitz "
            "with it (CM-20), edition.json abilities"
        )

    # victory cities, convoy zones, neutrals, war ------------------------------------------------
    def victory_cities(self, owners: Mapping[str, str]) -> dict[str, str]:
        vdig = _obj(_obj(self.digest.get("victory", {}), "victory")["europe"], "victory.europe")
        stated = _obj(_obj(self.digest.get("victory", {}), "victory")["city_territories_stated"],
                      "city_territories_stated")
        allied = set(_list(vdig["victory_cities_allied_at_start"], "allied"))
        axis = set(_list(vdig["victory_cities_axis_at_start"], "axis"))
        cities: dict[str, str] = {}
        for city, terr in stated.items():  # the Europe map's (Calcutta, Sydney... are Pacific)
            if city in allied | axis:
                cities[self.names(_str(terr, "city territory"))] = city
        for terr, city in A29_CITIES.items():
            cities[self.names(terr)] = city
        xml = self.game.victory_cities
        if set(cities) != xml:
            self.rep.differences.append(
                f"victory cities: rulebook (with A-29) {sorted(cities)}, XML {sorted(xml)}; {RB}"
            )
        if allied | axis != set(cities.values()) or len(cities) != vdig["victory_cities_total"]:
            self.rep.differences.append(f"victory cities: the rulebook's {sorted(allied | axis)}, "
                                        f"the territories name {sorted(cities.values())}")
        sides = {pw: self.game.sides[pw] for pw in self.cfg.players.values()}
        for terr, city in sorted(cities.items()):
            held = sides.get(owners.get(terr, ""))
            want = "Allies" if city in allied else "Axis"
            if held != want:
                self.rep.differences.append(f"victory city {city} ({terr}): {want} at start in "
                                            f"the rulebook, XML owner {owners.get(terr)}")
        self.rep.notes.append(
            f"§3.1: the {len(cities)} victory cities are the XML's victoryCity territories: "
            + ", ".join(f"{c} ({t})" for t, c in sorted(cities.items(), key=lambda kv: kv[1]))
            + "; the text names the territory of Leningrad, Stalingrad, Moscow, Berlin, London "
            "and Paris, the board data the other five (A-29); 8 are Allied and 3 Axis at the "
            "start, as §3.1 says"
        )
        return cities

    def convoy_zones(self) -> list[str]:
        zones = sorted(self.game.blockade_zones, key=natural_key)
        known = [self.names(_int(z, "convoy zone"))
                 for z in _list(self.dmap.get("convoy_sea_zones_known", []), "convoy zones")]
        missing = [z for z in known if z not in zones]
        for z in missing:
            self.rep.differences.append(f"{z}: a convoy zone in the rulebook (§4.4), not in the "
                                        f"XML; added ({RB})")
        zones = sorted({*zones, *known}, key=natural_key)
        self.rep.notes.append(
            f"§4.4/CD-1: {len(zones)} convoy zones, the XML's blockadeZone sea zones: "
            f"{', '.join(zones)}; the four the text names ({', '.join(known)}) are among them"
        )
        return zones

    def neutrals(self) -> dict[str, Neutral]:
        game = self.game
        ndig = _obj(self.digest.get("neutrals", {}), "neutrals")
        stated: dict[str, str] = {}
        for key, alignment in (("named_pro_axis", "pro_axis"), ("named_pro_allied", "pro_allied"),
                               ("named_strict", "strict")):
            for t in _list(ndig.get(key, []), key):
                stated[self.names(_str(t, "neutral"))] = alignment
        out: dict[str, Neutral] = {}
        for sp, alignment in game.neutral_owners.items():
            army = game.neutral_armies.get(sp, {})
            if set(army) - {"infantry"}:
                raise ConversionError(f"{sp}: neutral army of {army}, not infantry (NT-2)")
            want = stated.pop(sp, alignment)
            if want != alignment:
                self.rep.differences.append(
                    f"{sp}: {want} in the rulebook (§4.5), XML {alignment}; {RB}"
                )
            out[sp] = Neutral(alignment=want, army=army.get("infantry", 0))  # type: ignore[arg-type]
        for sp in stated:
            self.rep.differences.append(f"{sp}: a neutral in the rulebook, not in the XML")
        unstated = [self.names(_str(t, "neutral"))
                    for t in _list(ndig.get("named_neutral_type_not_stated", []), "unstated")]
        by_kind: dict[str, list[str]] = {}
        for sp, n in sorted(out.items(), key=lambda kv: natural_key(kv[0])):
            by_kind.setdefault(n.alignment, []).append(f"{sp} {n.army}")
        self.rep.notes.append(
            f"§6/NT-1/NT-2: {len(out)} neutral territories, owned in the XML by Neutral_Axis "
            "(pro_axis), Neutral_Allies (pro_allied) and Neutral_True (strict), each with the "
            "infantry it raises (its printed army, TripleA's placement): "
            + "; ".join(f"{k}: {', '.join(v)}" for k, v in sorted(by_kind.items()))
            + ". §4.5's Bulgaria, Iraq (pro-Axis), Yugoslavia (pro-Allied), Sweden, Turkey, "
            "Switzerland (strict) agree; the text does not say what "
            + " and ".join(f"{s} ({out[s].alignment} in the XML)" for s in unstated)
            + " are, the XML's alignment is kept"
        )
        return out

    def wars(self) -> None:
        pol = _obj(self.digest.get("political", {}), "political")
        stated = {frozenset((self.power(a), self.power(b)))
                  for a, b in _list(pol["at_war_at_start_europe"], "at war")}
        xml = {frozenset((a, b)) for a, b, kind in self.game.relations if kind == "War"}
        if stated != xml:
            self.rep.differences.append(f"§5.1: at war at the start: rulebook {stated}, XML {xml}")
        else:
            self.rep.notes.append(
                "§5.1: the XML's relationshipInitialize puts exactly the rulebook's pairs at war "
                "(Germany and Italy with the United Kingdom and France); the United States and "
                "the Soviet Union are at war with no one (edition.json politics)"
            )

    def placement(self) -> SetupTable:
        game = self.game
        setup: SetupTable = {
            sp: {pw: dict(units) for pw, units in by_power.items()}
            for sp, by_power in game.placement.items()
        }
        units = sum(n for bp in setup.values() for us in bp.values() for n in us.values())
        facilities = ("major industrial complex", "minor industrial complex", "air base",
                      "naval base")
        listed = []
        for f in facilities:
            where = sorted(((sp, pw) for sp, bp in setup.items() for pw, us in bp.items()
                            if us.get(f)), key=lambda x: natural_key(x[0]))
            listed.append(f"{f}: " + ", ".join(f"{sp} ({pw})" for sp, pw in where))
        self.rep.notes.append(
            f"ST-1/ST-2: the rulebook has no setup charts (setup cards); the setup is TripleA's "
            f"unit placement ({units} pieces of the six powers, facilities and AA guns included); "
            "the facilities printed on the board at the start: " + "; ".join(listed)
        )
        self.rep.notes.append(
            "land units listed in a sea zone are cargo aboard their power's transports there, "
            "fighters and tactical bombers aboard its carriers"
        )
        return setup

    def run(self) -> tuple[MapData, Report]:
        cfg, game, rep = self.cfg, self.game, self.rep
        dupes = sorted(p for p, n in Counter(game.connections).items() if n > 1)
        if dupes:
            rep.notes.append(f"duplicate <connection> elements in the XML were merged: {dupes}")
        self.unplayable()
        self.adjacency_facts()
        canals, closed = self.canals()
        setup = self.placement()
        owners = self.owners_and_values()
        spaces = self.spaces(owners)
        self.island_facts(spaces)
        income = self.powers(owners)
        self.units()
        cities = self.victory_cities(owners)
        convoy = self.convoy_zones()
        neutrals = self.neutrals()
        self.wars()
        rep.notes.append(
            "not imported from the XML: national objectives and TripleA's political triggers "
            "(edition.json and the rules), technology (Global only, §19), bids, the bomber's "
            "paratrooper options, TripleA properties"
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
                "the rulebook (it has no setup charts: setup, owners, values and adjacency come "
                "from the XML, checked against every fact the digest states)",
                "names: TripleA's territory names are kept ('<n> Sea Zone' is 'Sea Zone <n>'); "
                "powers Germans=Germany, Russians=Soviet Union, Americans=United States, "
                "British=United Kingdom, Italians=Italy, French=France; the players Neutral_Axis, "
                "Neutral_Allies and Neutral_True are the neutral territories (neutrals); units "
                + ", ".join(f"{a}={b}" for a, b in cfg.units.items() if a != b),
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
            setup=setup,
            setup_differences=tuple(rep.differences),
            victory_cities=cities,
            convoy_zones=tuple(convoy),
            neutrals=neutrals,
        )
        land = [s for s in spaces if s.kind == "land"]
        islands = [s.name for s in land if s.island]
        rep.facts += [
            f"spaces {len(spaces)} = {len(land)} land ({len(neutrals)} neutral, "
            f"{sum(s.impassable for s in land)} impassable) + {len(spaces) - len(land)} sea; "
            f"adjacency {len(board.adjacency)} pairs",
            f"islands ({len(islands)}): {', '.join(islands)}",
            "starting income from territories (P-3): "
            + ", ".join(f"{p} {n}" for p, n in income.items())
            + f"; board total {sum(s.value for s in land)}",
        ]
        return board, rep


CONVERSIONS: dict[str, type[Conversion]] = {A1941.id: Conversion, CLASSIC.id: ClassicConversion,
                                            EUROPE1940.id: EuropeConversion}


def convert(cfg: EditionConfig, xml_path: Path, digest_path: Path) -> tuple[MapData, Report]:
    """Build MapData from a TripleA game XML and a rulebook digest."""
    return CONVERSIONS[cfg.id](cfg, xml_path, digest_path).run()


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


# Fields added to MapData for a later edition: written only where they are set, so the map.json
# of an edition without them stays as it was.
LATER_FIELDS = ("victory_cities", "convoy_zones", "neutrals")
LATER_CANAL_FIELDS = ("submarines_always_pass",)


def render(board: MapData) -> str:
    data = board.model_dump(mode="json")
    for key in LATER_FIELDS:
        if not data[key]:
            del data[key]
    for canal in data["canals"]:
        for key in LATER_CANAL_FIELDS:
            if not canal[key]:
                del canal[key]
    text = dumps(data) + "\n"
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
