"""Where the shared rules call what a mechanism adds to them (DESIGN §3).

``rules.turn.registry`` holds what the engine dispatches (orders, events, phases, waits); these
are the places where rules several mechanisms share (movement, battles, the legal orders, the
referee's defaults, the words, the luck report and the map) call a mechanism that hooks into
them. A mechanism registers here at import, as with the registry:

- ``move_rule``: what a move may declare for the mechanism: checked with the move
  (``rules.movement``), recorded on each unit's move, remembered when the move is folded, and
  what the mechanism does once the move is made;
- ``neutral_rules``: the rules of neutral territories where a mechanism governs them
  (``rules.paths``, ``rules.movement``, ``rules.battle``);
- ``hostile_loading``: where units may load onto transports in a hostile sea zone;
- ``standby_zone``: where air units may end a combat move with nothing hostile there yet;
- ``escape_zone``: a sea zone that counts as hostile for ships leaving it in Combat Move;
- ``aside``: units on an errand of their own that fight no battle where they stand
  (``rules.battle.opening``);
- ``before_fight``: checks before a battle's round is fought (``rules.combat``);
- ``decision_taker``: a battle decision (casualties) that a mechanism takes where it owes one
  of its own in that space (``rules.combat``: an air battle's casualties);
- ``variants``: variants of a built-in candidate order, offered right after it (``rules.legal``);
- ``default``: the referee's answer to a decision of the mechanism's kind (``rules.defaults``);
- ``stage_words``, ``notes``: the line that tells the mechanism's own dice (a ``DiceRolled``
  stage it registered with ``rules.events.dice_stage``), and its notes on the line of a shared
  event (``service.describe``);
- ``apart``: dice of its own that the luck report counts as an engagement of their own
  (``rules.luck``);
- ``marker``: a marker the map draws where the mechanism has something left to do (``render``);
  ``facility_look`` and ``neutral_look``: what the map shows of the facilities' damage and of
  the neutral territories, where a mechanism keeps them in the state (``render``).
- ``income_step``: what it does in Collect Income before the income is collected, and what it
  adds to or takes from that income (``rules.mechanisms.income``);
- ``turn_ends``, ``turn_starts``: what it does when a turn ends or starts, e.g. victory checks
  of its own (``rules.turn.phases``);
- ``captured``: what it does when a territory changes hands (``rules.territory``).

None of the shared rules names a mechanism; each asks these tables.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules import events as ev
    from rules import orders as od
    from rules.decisions import Owed, Pending
    from rules.dice import Dice
    from rules.edition import Edition
    from rules.messages import Msg
    from rules.state import GameState
    from rules.turn.tx import Tx

# --------------------------------------------------------------------------------------------
# Movement


@dataclass(frozen=True)
class MoveRule:
    """What a mechanism adds to every move (a declaration the move may carry).

    - ``check(state, order)``: refuses (raises a ``RulesError``) what the rules forbid, after the
      units named are checked and before their paths are;
    - ``mark(state, order, move)``: the unit's move (``UnitMove``) as the event records it;
    - ``fold(state, event)``: what the mechanism remembers of a move (``UnitsMoved``), after
      the units are folded; ``None``: nothing;
    - ``after(tx, order, moves)``: what the mechanism does once the move is made (events of its
      own, after the ``UnitsMoved``); ``None``: nothing.
    """

    check: Callable[[GameState, od.Move], None]
    mark: Callable[[GameState, od.Move, ev.UnitMove], ev.UnitMove]
    fold: Callable[[GameState, ev.UnitsMoved], GameState] | None = None
    after: Callable[[Tx, od.Move, tuple[ev.UnitMove, ...]], None] | None = None


_MOVE_RULES: list[MoveRule] = []


def move_rule(rule: MoveRule) -> MoveRule:
    _MOVE_RULES.append(rule)
    return rule


def move_rules() -> tuple[MoveRule, ...]:
    return tuple(_MOVE_RULES)


LoadingHere = Callable[["GameState", str, str], bool]
_HOSTILE_LOADING: list[LoadingHere] = []


def hostile_loading(fn: LoadingHere) -> LoadingHere:
    """Decorator: ``fn(state, zone, power)`` lets ``power``'s own transports in a hostile sea
    zone take on land units there (Europe 1940 DW-3: a zone a declaration of war just made
    hostile)."""
    _HOSTILE_LOADING.append(fn)
    return fn


def loading_in_hostile(state: GameState, zone: str, power: str) -> bool:
    return any(fn(state, zone, power) for fn in _HOSTILE_LOADING)


_STANDBY: list[LoadingHere] = []


def standby_zone(fn: LoadingHere) -> LoadingHere:
    """Decorator: ``fn(state, zone, power)`` lets ``power``'s air units end a combat move in a
    sea zone with nothing hostile in it, to fight what a mechanism may bring there before
    combat (Europe 1940 CM-26: the planes the defender may scramble into a landing's zone)."""
    _STANDBY.append(fn)
    return fn


def may_stand_by(state: GameState, zone: str, power: str) -> bool:
    return any(fn(state, zone, power) for fn in _STANDBY)


_ESCAPE: list[LoadingHere] = []


def escape_zone(fn: LoadingHere) -> LoadingHere:
    """Decorator: ``fn(state, zone, power)`` lets ``power``'s ships that started the turn in
    ``zone`` leave it as a combat move and end in a friendly zone, as from a hostile zone
    (Europe 1940 CM-4 exception 2, A-14: a zone enemy planes could scramble into)."""
    _ESCAPE.append(fn)
    return fn


def escapes_from(state: GameState, zone: str, power: str) -> bool:
    return any(fn(state, zone, power) for fn in _ESCAPE)


# --------------------------------------------------------------------------------------------
# Neutral territories


@dataclass(frozen=True)
class NeutralRules:
    """How a mechanism governs the neutral territories (``rules.board.is_neutral``) of the
    games it applies to, in place of the shared rules' own (impassable, 1941 MAP-8; violated
    for a fee, Classic R-NEU-02):

    - ``governs(state)``: whether it governs this game's neutrals;
    - ``enter(state, power, space, phase, last, domain)``: why a unit of ``domain`` ("land" or
      "air") of ``power`` may not enter the neutral ``space`` on a move in ``phase``, ending
      its move there (``last``) or passing over or through it, as a message; None: it may;
    - ``attacked(state, space, power)``: ``power`` attacks ``space``, a neutral that no enemy
      holds, as it would an enemy territory (its battle is opened, fought and won the same way).
    """

    governs: Callable[[GameState], bool]
    enter: Callable[[GameState, str, str, str, bool, str], Msg | None]
    attacked: Callable[[GameState, str, str], bool]


_NEUTRAL_RULES: list[NeutralRules] = []


def neutral_rules(rules: NeutralRules) -> NeutralRules:
    _NEUTRAL_RULES[:] = [rules]
    return rules


def governing(state: GameState) -> NeutralRules | None:
    """The neutral rules a mechanism applies to this game, or None: the shared rules' own."""
    return next((r for r in _NEUTRAL_RULES if r.governs(state)), None)


def attacks_neutral(state: GameState, space: str, power: str) -> bool:
    """``power`` attacks the neutral ``space`` under a mechanism's neutral rules."""
    rules = governing(state)
    return rules is not None and rules.attacked(state, space, power)


# --------------------------------------------------------------------------------------------
# Battles

Aside = Callable[["GameState"], Collection[int]]
FightCheck = Callable[["GameState", str], None]

_ASIDE: list[Aside] = []
_BEFORE_FIGHT: list[FightCheck] = []


def aside(fn: Aside) -> Aside:
    """Decorator: ``fn(state)`` are ids of units on an errand of their own this turn, which
    fight no battle where they stand (opening the battles of Conduct Combat)."""
    _ASIDE.append(fn)
    return fn


def units_aside(state: GameState) -> set[int]:
    out: set[int] = set()
    for fn in _ASIDE:
        out.update(fn(state))
    return out


def before_fight(fn: FightCheck) -> FightCheck:
    """Decorator: ``fn(state, space)`` refuses (raises) a round of the battle in ``space`` while
    the mechanism has something to do there first."""
    _BEFORE_FIGHT.append(fn)
    return fn


def fight_checks() -> tuple[FightCheck, ...]:
    return tuple(_BEFORE_FIGHT)


Taker = Callable[["Tx", Any, "Dice"], bool]
_TAKERS: list[Taker] = []


def decision_taker(fn: Taker) -> Taker:
    """Decorator: ``fn(tx, order, dice)`` decides a battle decision (``Casualties``) that is
    the mechanism's own (its own fight in that space owes it) and returns True; False leaves
    it to the battle."""
    _TAKERS.append(fn)
    return fn


def decision_takers() -> tuple[Taker, ...]:
    return tuple(_TAKERS)


# --------------------------------------------------------------------------------------------
# Legal orders and the referee's defaults

Variants = Callable[["GameState", Any], Iterator["od.Order"]]
Default = Callable[["GameState", "Pending"], "od.Order"]

_VARIANTS: dict[type, list[Variants]] = {}
_DEFAULTS: dict[Owed, Default] = {}


def variants(order_type: type[od.Order]) -> Callable[[Variants], Variants]:
    """Decorator: ``fn(state, order)`` yields variants of a built-in candidate of
    ``order_type`` (``rules.legal``), offered right after it."""

    def put(fn: Variants) -> Variants:
        _VARIANTS.setdefault(order_type, []).append(fn)
        return fn

    return put


def variants_of(order_type: type) -> tuple[Variants, ...]:
    return tuple(_VARIANTS.get(order_type, ()))


def default(kind: Owed) -> Callable[[Default], Default]:
    """Decorator: ``fn(state, pending)`` is the referee's answer for a power absent when it owes
    a decision of ``kind`` (``rules.defaults``)."""

    def put(fn: Default) -> Default:
        _DEFAULTS[kind] = fn
        return fn

    return put


def default_for(kind: Owed) -> Default | None:
    return _DEFAULTS.get(kind)


# --------------------------------------------------------------------------------------------
# Words

Words = Callable[["GameState", Any], "Msg"]
Notes = Callable[["GameState", Any], Iterable["Msg"]]

_STAGE_WORDS: dict[str, Words] = {}
_NOTES: dict[type, list[Notes]] = {}


def stage_words(stage: str) -> Callable[[Words], Words]:
    """Decorator: ``fn(before, event)`` is the line (a message) that tells a ``DiceRolled`` of
    ``stage``."""

    def put(fn: Words) -> Words:
        _STAGE_WORDS[stage] = fn
        return fn

    return put


def stage_words_for(stage: str) -> Words | None:
    return _STAGE_WORDS.get(stage)


def notes(event_type: type[ev.Event]) -> Callable[[Notes], Notes]:
    """Decorator: ``fn(before, event)`` are notes (messages) the mechanism adds to the line of
    a shared event (a move's: "loading; ...")."""

    def put(fn: Notes) -> Notes:
        _NOTES.setdefault(event_type, []).append(fn)
        return fn

    return put


def notes_for(event_type: type) -> tuple[Notes, ...]:
    return tuple(_NOTES.get(event_type, ()))


# --------------------------------------------------------------------------------------------
# The luck report


@dataclass(frozen=True)
class Apart:
    """Dice of a mechanism's own (a ``DiceRolled`` ``stage`` it registered) that the luck
    report counts as an engagement of their own, beside any battle in the same space: opened by
    the first such roll there, closed by an ``ended_by`` event, which ``ended`` reads as
    ``(space, attacker, defenders)``; ``result`` is its result, ``words`` how the report says
    it."""

    stage: str
    ended_by: type[ev.Event]
    ended: Callable[[Any], tuple[str, str, tuple[str, ...]]]
    result: str
    words: str


_APART: dict[str, Apart] = {}


def apart(spec: Apart) -> Apart:
    _APART[spec.stage] = spec
    return spec


def apart_rolls() -> tuple[Apart, ...]:
    return tuple(_APART.values())


# --------------------------------------------------------------------------------------------
# The map


@dataclass(frozen=True)
class MapMarker:
    """A marker the map draws in each space where a mechanism has something left to do:
    ``glyph`` names the drawing (``render.chips``), ``legend`` its line in the map's key,
    ``spaces(state)`` where it stands, ``shown(edition)`` whether an edition ever shows it."""

    glyph: str
    legend: str
    spaces: Callable[[GameState], Iterable[str]]
    shown: Callable[[Edition], bool]


_MARKERS: list[MapMarker] = []


def marker(spec: MapMarker) -> MapMarker:
    _MARKERS.append(spec)
    return spec


def markers() -> tuple[MapMarker, ...]:
    return tuple(_MARKERS)


@dataclass(frozen=True)
class FacilityLook:
    """A damaged facility as the map shows it: the ``facility`` (a unit type) in ``territory``
    with ``damage`` markers on it; ``working`` False when that damage puts it out of action
    (a base's bonuses, a complex's production)."""

    territory: str
    facility: str
    damage: int
    working: bool = True


@dataclass(frozen=True)
class NeutralLook:
    """A neutral territory that still stands, as the map shows it: its ``alignment`` now (the
    edition data's ``Alignment``) and its army waiting to be placed (unit type, count)."""

    alignment: str
    army: tuple[tuple[str, int], ...] = ()


_FACILITY_LOOK: list[Callable[[GameState], Iterable[FacilityLook]]] = []
_NEUTRAL_LOOK: list[Callable[[GameState], dict[str, NeutralLook]]] = []


def facility_look(
    fn: Callable[[GameState], Iterable[FacilityLook]],
) -> Callable[[GameState], Iterable[FacilityLook]]:
    """Registers what a mechanism keeping facility damage tells the map: every damaged one."""
    _FACILITY_LOOK.append(fn)
    return fn


def facility_looks(state: GameState) -> tuple[FacilityLook, ...]:
    return tuple(f for fn in _FACILITY_LOOK for f in fn(state))


def neutral_look(
    fn: Callable[[GameState], dict[str, NeutralLook]],
) -> Callable[[GameState], dict[str, NeutralLook]]:
    """Registers what the mechanism governing the neutrals tells the map: each neutral that
    still stands (territory -> its look)."""
    _NEUTRAL_LOOK.append(fn)
    return fn


def neutral_looks(state: GameState) -> dict[str, NeutralLook] | None:
    """The neutrals that stand, as the mechanism that governs them has them; None where none
    does (the map then reads the edition's printed neutrals)."""
    return _NEUTRAL_LOOK[0](state) if _NEUTRAL_LOOK else None


# --------------------------------------------------------------------------------------------
# Collect Income


@dataclass(frozen=True)
class IncomeStep:
    """What a mechanism adds to Collect Income (Europe 1940 IN-1: convoy disruption, national
    objectives): ``run(tx)`` acts before the income is collected (rolls, pays, records what it
    found in its own part of the state), the steps in the order they were registered;
    ``adjust(state, power)`` is then what it adds to (or, negative, takes from) the power's
    income, which ``label`` names on the income's line."""

    run: Callable[[Tx], None]
    adjust: Callable[[GameState, str], int]
    label: Msg


_INCOME: list[IncomeStep] = []


def income_step(step: IncomeStep) -> IncomeStep:
    _INCOME.append(step)
    return step


def income_steps() -> tuple[IncomeStep, ...]:
    return tuple(_INCOME)


# --------------------------------------------------------------------------------------------
# Turns

TurnCheck = Callable[["Tx"], bool]

_TURN_ENDS: list[TurnCheck] = []
_TURN_STARTS: list[TurnCheck] = []


def turn_ends(fn: TurnCheck) -> TurnCheck:
    """Decorator: ``fn(tx)`` acts when a power's turn ends, after the edition's victory checks
    and before the next turn starts (Europe 1940 A-32: the victory cities held are recorded);
    True when it ended the game (a ``GameWon``)."""
    _TURN_ENDS.append(fn)
    return fn


def turn_starts(fn: TurnCheck) -> TurnCheck:
    """Decorator: ``fn(tx)`` acts when a power's turn has started, before its first phase
    (Europe 1940 V-1/V-2: victory is checked at the start of a turn); True when it ended the
    game."""
    _TURN_STARTS.append(fn)
    return fn


def turn_end_checks() -> tuple[TurnCheck, ...]:
    return tuple(_TURN_ENDS)


def turn_start_checks() -> tuple[TurnCheck, ...]:
    return tuple(_TURN_STARTS)


# --------------------------------------------------------------------------------------------
# Control of territories

Captured = Callable[["Tx", "ev.TerritoryCaptured"], None]
_CAPTURED: list[Captured] = []


def captured(fn: Captured) -> Captured:
    """Decorator: ``fn(tx, event)`` acts after a territory changed hands in a capture or a
    liberation (``rules.territory.capture``), e.g. a liberation bonus owed (Europe 1940 FR-1)."""
    _CAPTURED.append(fn)
    return fn


def capture_rules() -> tuple[Captured, ...]:
    return tuple(_CAPTURED)
