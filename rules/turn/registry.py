"""What each mechanism adds to the engine, registered by the mechanism itself (DESIGN §3).

A mechanism module (``rules/mechanisms/``) registers, at import:

- ``evolver(EventType)``: how its events change the state (the fold);
- ``order(OrderType, ...)``: how its orders are decided, in which phases, by whom, and which
  wait (``Owed``) they answer;
- ``phase(id)``: the handlers of a phase it runs (entering it, whether work is left in it, the
  checks and actions of ending it, why a bare ``end`` would pass it over idle);
- ``waits``: whom the game waits for because of it (``Pending``);
- ``part(Cls, ...)``: its own part of the state, a frozen dataclass whose fields all have
  defaults (``Convoys(disrupted: frozenset[str] = frozenset())``), read with
  ``state.part(Convoys)`` (its default while absent) and changed with
  ``state.with_part(Convoys(disrupted=...))``; it says whether the part is reset when a turn
  starts, how positions treat each field (``rules.position``: derived or not carried, with why),
  and where older exports kept its fields. The state's codec writes and reads every registered
  part under its ``key`` (``rules.codec``);
- ``candidates(phase)``: the orders ``rules.legal`` offers for it;
- ``words(EventType)``, ``battle_note(EventType)``: the message (``rules.messages``) that tells its
  events, and the note a battle board writes for one.

The engine (``rules.engine``) dispatches through these tables only; it names no mechanism. An
edition lists its phases in its data; every phase id it lists must have a handler here
(``check_phases``), checked when the edition starts a game. Where a mechanism hooks into
rules several mechanisms share (a move, a battle, a legal move, the map), it registers with
``rules.turn.hooks``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rules.decisions import Owed, Pending, answered_by
from rules.errors import InvalidOrder
from rules.messages import Msg, catalogue, msg
from rules.position import Derived, NotCarried, PartKey, Written, declare, part_keys
from rules.state import GameState, PartInfo, register_part

if TYPE_CHECKING:
    from rules import events as ev
    from rules import orders as od
    from rules.dice import Dice
    from rules.edition import Edition
    from rules.turn.tx import Tx

Evolve = Callable[[GameState, Any], GameState]
Decide = Callable[["Tx", Any, "Dice"], None]
WrongPhaseText = Callable[[GameState, Any], Msg]
Candidates = Callable[[GameState, str], Iterator["od.Order"]]
Words = Callable[[GameState, Any], Msg]
Note = Callable[[Any], Msg]

_EVOLVERS: dict[type, Evolve] = {}
_ORDERS: dict[type, OrderRule] = {}
_PHASES: dict[str, PhaseHandler] = {}
_WAITS: list[Callable[[GameState], list[Pending]]] = []
_CANDIDATES: list[tuple[str, Candidates]] = []
_ANYONE_CANDIDATES: list[tuple[str, Candidates]] = []
_FIRST_CANDIDATES: list[tuple[str, Candidates]] = []
_WORDS: dict[type, Words] = {}
_NOTES: dict[type, Note] = {}


@dataclass(frozen=True)
class OrderRule:
    """How the engine takes one kind of order."""

    decide: Decide
    # The phases the order belongs to; () = the mechanism checks the phase itself.
    phases: tuple[str, ...] = ()
    # Only the power whose turn it is may give it (else a party to a battle, any time).
    in_turn: bool = True
    # The refusal when given outside ``phases`` (default: "'<kind>' belongs to <phase>").
    wrong_phase: WrongPhaseText | None = None
    # The wait it answers (``Pending.kind``). With ``in_turn=False`` it is a battle decision: a
    # party to the battle in the order's ``space`` gives it, in or out of its turn.
    answers: Owed | None = None


@dataclass
class PhaseHandler:
    """The handlers of one phase id, in the order the mechanisms registered them."""

    id: str
    # Entering the phase: ``fn(tx, initial)``; ``initial`` when a game starts in it (positions).
    enter: list[Callable[[Tx, bool], None]] = field(default_factory=list)
    # Whether work is left in the phase; a phase with ``auto_pass`` and none left is passed.
    busy: list[Callable[[GameState], bool]] = field(default_factory=list)
    auto_pass: bool = False
    # Whether the acting power passes over the phase: ``fn(state)`` is the rule that skips it
    # (e.g. Europe 1940 NW-5: no Combat Move for a power at war with nobody), or None.
    skip: list[Callable[[GameState], str | None]] = field(default_factory=list)
    # Ending the phase: checks (raise to refuse) and actions, ``fn(tx, end_order)``.
    end: list[Callable[[Tx, Any], None]] = field(default_factory=list)
    # Why a bare ``end`` would pass the phase over idle (asks ``end confirm``), or None.
    idle: list[Callable[[GameState], Msg | None]] = field(default_factory=list)
    # Leaving the phase by auto-pass: the actions of ending it without an order.
    leave: list[Callable[[Tx], None]] = field(default_factory=list)
    # A deadline's default for a power absent in this phase with nothing owed: end it
    # (``rules.defaults``); otherwise the referee waits for the phase's own default order.
    absent_ends: bool = False


def evolver(event_type: type[ev.Event]) -> Callable[[Evolve], Evolve]:
    """Decorator: ``fn(state, event) -> state`` folds ``event_type``."""

    def put(fn: Evolve) -> Evolve:
        if event_type in _EVOLVERS:
            raise RuntimeError(f"two evolvers for {event_type.__name__}")
        _EVOLVERS[event_type] = fn
        return fn

    return put


def order(
    order_type: type[od.Order], *, phases: Iterable[str] = (), in_turn: bool = True,
    wrong_phase: WrongPhaseText | None = None, answers: Owed | None = None,
) -> Callable[[Decide], Decide]:
    """Decorator: ``fn(tx, order, dice)`` decides ``order_type``; with ``answers``, its kind
    answers that wait too (``Owed.answers``)."""

    def put(fn: Decide) -> Decide:
        if order_type in _ORDERS:
            raise RuntimeError(f"two deciders for {order_type.__name__}")
        _ORDERS[order_type] = OrderRule(fn, tuple(phases), in_turn, wrong_phase, answers)
        if answers is not None:
            answered_by(answers, order_type.model_fields["kind"].default)
        return fn

    return put


def phase(phase_id: str) -> PhaseHandler:
    """The handler of ``phase_id``, made on first use; mechanisms append to its lists."""
    return _PHASES.setdefault(phase_id, PhaseHandler(phase_id))


def waits(fn: Callable[[GameState], list[Pending]]) -> Callable[[GameState], list[Pending]]:
    """Decorator: ``fn(state)`` lists the decisions the game waits for because of a mechanism."""
    _WAITS.append(fn)
    return fn


def candidates(
    phase_id: str, *, anyone: bool = False, first: bool = False,
) -> Callable[[Candidates], Candidates]:
    """Decorator: ``fn(state, power)`` yields cheap, unchecked candidate orders of the power
    whose turn it is in ``phase_id`` (``rules.legal`` checks them), after the built-in ones
    (``first``: before them). ``anyone``: of any power, in or out of its turn (battle
    decisions), before the turn's own."""

    def put(fn: Candidates) -> Candidates:
        table = _ANYONE_CANDIDATES if anyone else _FIRST_CANDIDATES if first else _CANDIDATES
        table.append((phase_id, fn))
        return fn

    return put


def words(event_type: type[ev.Event]) -> Callable[[Words], Words]:
    """Decorator: ``fn(before, event)`` is the one line that tells ``event_type`` (a message,
    ``rules.messages.Msg``, or its English)."""

    def put(fn: Words) -> Words:
        _WORDS[event_type] = fn
        return fn

    return put


def part(
    cls: type, *, key: str, per_turn: bool,
    position: Mapping[str, Derived | NotCarried | Written],
    formerly: Mapping[str, str] | None = None, keys: Iterable[PartKey] = (),
) -> None:
    """Register ``cls`` (a frozen dataclass whose fields all have defaults) as a mechanism's
    part of the state: ``key`` names it in the full document (snapshots, exports; keep it
    stable), ``per_turn`` resets it when a turn starts, ``position`` says for each field
    why a position does not write it, or under which of ``keys`` it does
    (``rules.position.FIELDS``, ``PartKey``), and ``formerly`` maps a field to where older full
    documents kept it (``"marks.disrupted"``), so that older exports still import."""
    register_part(PartInfo(cls, key, cls(), per_turn, tuple((formerly or {}).items())))
    part_keys(cls, keys)
    declare(cls, position)


def battle_note(event_type: type[ev.Event]) -> Callable[[Note], Note]:
    """Decorator: ``fn(event)`` is the note a battle board (``render.battle``) writes in the
    current round for ``event_type``, an event of the battle in its ``space``."""

    def put(fn: Note) -> Note:
        _NOTES[event_type] = fn
        return fn

    return put


# --- lookups (the engine's) -----------------------------------------------------------------
def evolve(state: GameState, event: ev.Event) -> GameState:
    """Apply one event. Unchecked: only for events produced by ``decide`` or ``new_game``."""
    new = _EVOLVERS[type(event)](state, event)
    return replace(new, seq=state.seq + 1)


def order_rule(order_type: type) -> OrderRule | None:
    return _ORDERS.get(order_type)


def phase_handler(phase_id: str) -> PhaseHandler:
    handler = _PHASES.get(phase_id)
    if handler is None:
        raise InvalidOrder(msg("registry.no_phase", phase=phase_id))
    return handler


def owed_decisions(state: GameState) -> list[Pending]:
    out: list[Pending] = []
    for fn in _WAITS:
        out.extend(fn(state))
    return out


def candidates_in(
    phase_id: str, *, anyone: bool = False, first: bool = False,
) -> list[Candidates]:
    table = _ANYONE_CANDIDATES if anyone else _FIRST_CANDIDATES if first else _CANDIDATES
    return [fn for p, fn in table if p == phase_id]


def words_for(event_type: type) -> Words | None:
    return _WORDS.get(event_type)


def battle_note_for(event_type: type) -> Note | None:
    return _NOTES.get(event_type)


def decision_space(order: od.Order) -> str | None:
    """Where the battle is when ``order`` is a battle decision (registered with ``answers`` and
    ``in_turn=False``: a party to that battle gives it, in or out of its turn), else None."""
    rule = _ORDERS.get(type(order))
    if rule is None or rule.answers is None or rule.in_turn:
        return None
    space = getattr(order, "space", None)
    return space if isinstance(space, str) else None


def check_phases(ed: Edition) -> None:
    """Every phase the edition's data lists has a handler (raise ``InvalidOrder`` otherwise)."""
    missing = [p for p in ed.phase_ids if p not in _PHASES]
    if missing:
        raise InvalidOrder(msg("registry.unplayed", edition=ed.rules.title, phases=missing))


def registered_events() -> tuple[type, ...]:
    return tuple(_EVOLVERS)


def registered_orders() -> tuple[type, ...]:
    return tuple(_ORDERS)


catalogue("en", "registry", {
    "no_phase": "No mechanism plays the phase {phase!r}.",
    "unplayed": "{edition} lists phases no mechanism plays: {phases:join}.",
})
