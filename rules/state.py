"""Game state: a frozen snapshot, the fold of the event log (DESIGN §1).

Containers inside a ``GameState`` are never mutated after construction; ``evolve`` builds new
ones. Units are individual pieces with ids so that cargo, carriers, air range and per-turn flags
can be tracked exactly (digest a1941 §19).

A mechanism owns its part of the state (``Parts``): a frozen dataclass it registers with
``rules.turn.registry.part``, read with ``state.part(Cls)`` and changed with
``state.with_part(value)``; this module knows no mechanism's part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar, cast

from rules.edition import Edition, RuleSet

Phase = str  # one of Edition.phase_ids


@dataclass(frozen=True, slots=True)
class Unit:
    """One piece on the board."""

    id: int
    type: str
    owner: str
    space: str
    carried_by: int | None = None  # transport (land cargo) or carrier (fighters)
    moved: int = 0  # movement points used this turn (CM-14: air budget spans both phases)
    combat_moved: bool = False  # moved in Combat Move (NC-1)
    stopped: bool = False  # may not move again this phase (entered hostile space, offloaded)
    fought: bool = False  # took part in a battle this turn (NC-1)
    damage: int = 0  # hits taken in the current battle (UB-2)
    loaded: Phase | None = None  # cargo: phase it was loaded in this turn (UT-9)
    offloaded: bool = False  # transport: offloaded this turn (UT-12)
    assault: str | None = None  # cargo: territory of its declared amphibious assault (CM-17)
    came_from: str | None = None  # last space before its current one (retreat, CC-6B)
    start: str | None = None  # space at the start of the turn
    retreated: bool = False  # transport retreated (UT-12)
    stranded: bool = False  # defending fighter whose carrier sank (NC-3)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a battle: its power(s) and unit ids."""

    powers: tuple[str, ...]
    units: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BattleState:
    """A battle in progress or pending in a space (§9)."""

    space: str
    attacker: str
    defenders: tuple[str, ...]
    sea: bool
    amphibious: bool = False
    round: int = 0
    # "ready": the attacker may fight a round; "casualties": hits are owed;
    # "press_or_retreat": attacker decides (CC-6B); "done".
    step: str = "ready"
    attacking: tuple[int, ...] = ()
    defending: tuple[int, ...] = ()
    # hits owed this round, by side ("attacker" owes hits scored by the defender)
    owed: tuple[tuple[str, int], ...] = ()
    # hits already assigned, unit id -> hits
    pending_casualties: tuple[tuple[int, int], ...] = ()
    blocked_by: str | None = None  # sea battle that must be resolved first (AA-1)
    seaborne: tuple[int, ...] = ()  # land units arriving from transports (AA-7)
    submerged: tuple[int, ...] = ()
    fired: tuple[str, ...] = ()  # stages done this round: "attacker:strike", "attacker", ...
    striking: tuple[int, ...] = ()  # submarines making a surprise strike this round (SS-2)
    # hits owed by category: any, no_air, no_sub, air_only (see DiceRolled.categories)
    owed_cats: tuple[int, ...] = (0, 0, 0)
    hostile_at_start: bool = False  # sea zone held enemy surface warships this turn (CC-6B)
    launched: tuple[int, ...] = ()  # own fighters launched from an attacking carrier
    bombarding: tuple[int, ...] = ()  # battleships giving the support shot in round 1 (R-AMP-05)
    # 'battle <space> all': fight on to the end once the defender has answered (H-1)
    to_the_end: bool = False


@dataclass(frozen=True, slots=True)
class TurnMarks:
    """What the acting power has done this turn that the rules remember (reset each turn)."""

    moved_noncombat: bool = False  # a unit moved in this Noncombat Move (a bare 'end' ends it)
    new_factories: frozenset[str] = frozenset()  # complexes placed this turn (R-PLC-03)


P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class PartInfo:
    """A mechanism's part of the state, as registered (``rules.turn.registry.part``)."""

    cls: type
    key: str  # its name in the state's full document (snapshots, exports): keep it stable
    default: Any  # ``cls()``: the part while the mechanism has recorded nothing
    per_turn: bool  # reset when a turn starts (``TurnStarted``)
    # (field, where an older full document kept it, "marks.disrupted"): read by
    # ``rules.codec.differences`` so that older exports still import
    formerly: tuple[tuple[str, str], ...] = ()


_PARTS: dict[type, PartInfo] = {}


def register_part(info: PartInfo) -> None:
    """Add a mechanism's part (``rules.turn.registry.part`` calls it, with the part's
    position declarations)."""
    known = _PARTS.get(info.cls)
    if known is not None and known != info:
        raise RuntimeError(f"{info.cls.__name__} is registered twice as a part of the state")
    clash = [i for i in _PARTS.values() if i.key == info.key and i.cls is not info.cls]
    if clash:
        raise RuntimeError(f"two parts of the state are named {info.key!r}")
    _PARTS[info.cls] = info


def part_infos() -> tuple[PartInfo, ...]:
    """The registered parts, in the order they were registered."""
    return tuple(_PARTS.values())


def part_info(cls: type) -> PartInfo:
    info = _PARTS.get(cls)
    if info is None:
        raise TypeError(f"{cls.__name__} is not a registered part of the state "
                        "(rules.turn.registry.part)")
    return info


class Parts(dict[type, Any]):
    """The mechanisms' parts of a state: part class -> its value, only those that differ from
    their default (so equal states have equal parts). Never mutated once in a state."""

    __slots__ = ()

    def at_new_turn(self) -> Parts:
        """Without the parts that are reset each turn."""
        if not self:
            return self
        return Parts({c: v for c, v in self.items() if not _PARTS[c].per_turn})


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment."""

    edition: Edition
    options: frozenset[str]
    round: int
    power: str
    phase: Phase
    treasury: dict[str, int]
    owners: dict[str, str | None]  # land territories only; None = neutral
    units: dict[int, Unit]
    next_id: int
    purchase: dict[str, int] = field(default_factory=dict)  # bought this turn (Mobilization Zone)
    placed: dict[str, int] = field(default_factory=dict)  # space -> units placed there this turn
    turn_start_owners: dict[str, str | None] = field(default_factory=dict)
    battles: dict[str, BattleState] = field(default_factory=dict)
    standing: dict[str, tuple[str, ...]] = field(default_factory=dict)
    winner: str | None = None
    seq: int = 0  # number of events applied
    started: bool = True
    carrier_promises: tuple[tuple[int, str], ...] = ()  # fighter id -> sea zone (AIR-5)
    captured_this_turn: frozenset[str] = frozenset()
    techs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # power -> developments (R-TEC)
    debts: dict[str, int] = field(default_factory=dict)  # unpaid damage (R-INC-03)
    marks: TurnMarks = TurnMarks()  # this turn's markers (cleared per turn)
    parts: Parts = field(default_factory=Parts)  # the mechanisms' own parts (``part``)
    ended: str | None = None  # "draw" or "cancelled": over without a winner (GameEnded)

    # --- the mechanisms' parts ---------------------------------------------------------------
    def part(self, cls: type[P]) -> P:
        """The part of the state that the mechanism registered as ``cls`` (its default
        ``cls()`` while nothing was recorded)."""
        got = self.parts.get(cls)
        return cast(P, got if got is not None else part_info(cls).default)

    def with_part(self, value: object) -> GameState:
        """This state with ``value`` as its part of type ``type(value)``."""
        cls = type(value)
        parts = Parts(self.parts)
        if value == part_info(cls).default:
            parts.pop(cls, None)
        else:
            parts[cls] = value
        return replace(self, parts=parts)

    # --- convenience -----------------------------------------------------------------------
    def side(self, power: str) -> str:
        return self.edition.powers[power].side

    def friendly(self, a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and self.side(a) == self.side(b)

    def enemy(self, a: str | None, b: str | None) -> bool:
        """``a`` and ``b`` are at war: on opposite sides, and (in an edition with politics,
        Europe 1940 §5) not at peace. Allies are never at war (P-6)."""
        if a is None or b is None or self.side(a) == self.side(b):
            return False
        return not _AT_WAR or _AT_WAR[0](self, a, b)

    def at_peace(self, a: str | None, b: str | None) -> bool:
        """``a`` and ``b`` are on opposite sides but not at war (Europe 1940 §5.3, M-4)."""
        return (a is not None and b is not None and self.side(a) != self.side(b)
                and not self.enemy(a, b))

    def units_in(self, space: str) -> Iterator[Unit]:
        return (u for u in self.units.values() if u.space == space)

    def unit_type(self, u: Unit) -> object:
        return self.edition.units[u.type]

    def with_units(self, changed: Iterable[Unit], removed: Iterable[int] = ()) -> dict[int, Unit]:
        units = dict(self.units)
        for u in changed:
            units[u.id] = u
        for uid in removed:
            units.pop(uid, None)
        return units

    def income(self) -> dict[str, int]:
        """National production levels from territories held (P-4)."""
        return self.edition.income_from(self.owners)

    def ruleset(self) -> RuleSet:
        """The rule switches in force: the edition's, with this game's options (Edition.ruleset)."""
        return self.edition.ruleset(self.options)

    def has_tech(self, power: str, tech: str) -> bool:
        return tech in self.techs.get(power, ())

    def capital_held(self, power: str) -> bool:
        """The power's capital is held by its own side (T-4 / CAP-2 otherwise)."""
        cap = self.edition.powers[power].capital
        return self.friendly(self.owners.get(cap), power)


# Whether two powers on opposite sides are at war: the politics mechanism registers the rule
# (``at_war_rule``); without one, opposite sides are at war throughout.
_AT_WAR: list[Callable[[GameState, str, str], bool]] = []


def at_war_rule(fn: Callable[[GameState, str, str], bool]) -> Callable[[GameState, str, str],
                                                                          bool]:
    """Register ``fn(state, a, b)``: whether powers of opposite sides are at war."""
    _AT_WAR[:] = [fn]
    return fn


def count(units: Iterable[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return out


def set_unit(u: Unit, **changes: object) -> Unit:
    return replace(u, **changes)  # type: ignore[arg-type]


Domainish = Literal["land", "sea", "air"]
