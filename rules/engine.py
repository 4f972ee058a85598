"""The rules API: ``new_game``, ``check``, ``decide``, ``evolve``, ``replay``, ``outcome``.

``decide(state, order, dice)`` checks an order and returns the events it causes (dice rolls
included). ``evolve(state, event)`` folds one event into a new state; it is unchecked and only
ever applied to events that ``decide`` produced. ``replay`` folds a whole log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import rules.mechanisms  # noqa: F401  (every mechanism registers itself with the registry)
from rules import events as ev
from rules import orders as od
from rules.decisions import Owed, Pending
from rules.dice import Dice
from rules.edition import Edition, load_edition
from rules.errors import IllegalOrder, InvalidOrder, NotYourTurn, RulesError, WrongPhase
from rules.mechanisms.game import empty_state
from rules.messages import catalogue, msg
from rules.state import GameState
from rules.turn import registry as reg
from rules.turn.phases import enter_phase, phase_name
from rules.turn.registry import evolve
from rules.turn.tx import Tx

# --------------------------------------------------------------------------------------------
# Starting a game


def resolve_edition(name: str) -> Edition:
    from rules.edition import available_editions

    key = name.strip().lower()
    for eid in available_editions():
        ed = load_edition(eid)
        if key == eid or key in (a.lower() for a in ed.rules.aliases):
            return ed
    from rules.edition import edition_catalog

    known = "; ".join(f"{r.word} = {r.title}" for r in edition_catalog())
    raise InvalidOrder(msg("engine.unknown_edition", name=name, known=known))


def new_game(
    edition: str, options: Iterable[str] = (), position: dict[str, Any] | None = None
) -> list[ev.Event]:
    """Events that start a game: setup (or a position), first turn and phase."""
    ed = resolve_edition(edition)
    opts = tuple(sorted(set(options)))
    for o in opts:
        if o not in ed.rules.options:
            raise InvalidOrder(msg("engine.unknown_option", option=o, edition=ed.rules.title,
                                   options=[f"{k} ({v})" for k, v in ed.rules.options.items()]))
    from rules import position as pos_

    derived: dict[str, Any] = {}
    if position is not None:
        position = pos_.canonical(ed, position)
        derived = {k: position.pop(k) for k in pos_.DERIVED_KEYS if k in position}
    reg.check_phases(ed)
    tx = Tx(empty_state(ed))
    tx.emit(ev.GameStarted(edition=ed.id, options=opts, position=position))
    st = tx.state
    tx.emit(ev.TurnStarted(round=st.round, power=st.power))
    bought = (position or {}).get("purchase") or {}
    if any(bought.values()):  # bought and paid for before the position (docs/positions.md)
        tx.emit(ev.UnitsPurchased(power=st.power, units={u: n for u, n in bought.items() if n},
                                  cost=0))
    phase = (position or {}).get("phase") or ed.phase_ids[0]
    enter_phase(tx, str(phase), initial=True)
    if derived:
        pos_.check_derived(derived, pos_.state_json(tx.state))
    return tx.events


# --------------------------------------------------------------------------------------------
# The fold (``evolve``, from the registry)


def replay(events: Sequence[ev.Event]) -> GameState:
    """Fold a whole event log, starting with its ``GameStarted``."""
    if not events or not isinstance(events[0], ev.GameStarted):
        raise InvalidOrder(msg("engine.no_start"))
    state = empty_state(load_edition(events[0].edition))
    for e in events:
        state = evolve(state, e)
    return state


# --------------------------------------------------------------------------------------------
# check / decide


def pending(state: GameState) -> list[Pending]:
    """Who the game waits for now: battle decisions first, then the power whose turn it is."""
    if state.winner or state.ended:
        return []
    out = reg.owed_decisions(state)
    if not out:
        out.append(Pending(state.power, Owed.TURN, phase=state.phase))
    return out


def decide(state: GameState, order: od.Order, dice: Dice) -> list[ev.Event]:
    """Check ``order`` and return its events. Raises a RulesError and changes nothing if illegal.

    A refusal cites the rule IDs of the game's own rulebook (``Edition.cite``).
    """
    return decide_folded(state, order, dice).events


def decide_folded(state: GameState, order: od.Order, dice: Dice) -> Tx:
    """``decide``, keeping what deciding folded: the ``Tx`` whose ``events`` are the order's,
    ``state`` the state they lead to and ``before`` the state before each, so that nobody folds
    them again (one fold per order: the service answers, caches and hands on this state)."""
    try:
        return _decide(state, order, dice)
    except RulesError as e:
        e.reason = state.edition.cite_text(e.reason)
        e.rule = (state.edition.cite_text(e.rule) or None) if e.rule else None
        if e.msg is not None and e.msg.rule:
            # the message as data (what the service answers and translates) cites the same
            e.msg = replace(e.msg, rule=state.edition.cite_text(e.msg.rule) or None)
        e.args = (f"{e.reason} (rule {e.rule})" if e.rule else e.reason,)
        raise


def _decide(state: GameState, order: od.Order, dice: Dice) -> Tx:
    if state.winner:
        raise IllegalOrder(msg("engine.won", side=state.winner))
    if state.ended:
        raise IllegalOrder(msg("engine.ended", result=state.ended))
    if not order.power or order.power not in state.edition.powers:
        raise InvalidOrder(msg("engine.unknown_power", power=order.power))
    rule = reg.order_rule(type(order))
    if rule is None:
        raise InvalidOrder(msg("engine.unsupported", kind=order.kind))
    if rule.in_turn and order.power != state.power:
        raise NotYourTurn(msg("engine.not_your_turn", "T-1", turn=state.power,
                              phase=phase_name(state), power=order.power))
    if rule.phases and state.phase not in rule.phases:
        if rule.wrong_phase is not None:
            raise WrongPhase(rule.wrong_phase(state, order))
        want = state.edition.phase_info[rule.phases[0]].name
        raise WrongPhase(msg("engine.wrong_phase", kind=order.kind, want=want,
                             phase=phase_name(state)))
    tx = Tx(state, dice)
    rule.decide(tx, order, dice)
    return tx


def check(state: GameState, order: od.Order, dice: Dice | None = None) -> None:
    """Raise the reason ``order`` is illegal now; return None if it would be accepted."""
    from rules.dice import HmacDice

    decide(state, order, dice or HmacDice(b"check"))


def concession(state: GameState, side: str) -> list[ev.Event]:
    """``side`` gives up: it concedes, and the other side wins the game by concession."""
    sides = state.edition.rules.sides
    if side not in sides:
        raise InvalidOrder(msg("engine.unknown_side", side=side, sides=sides))
    if state.winner or state.ended:
        raise IllegalOrder(msg("engine.over"))
    others = [s for s in sides if s != side]
    powers = tuple(p for p in state.edition.turn_order if state.side(p) == side)
    return [
        ev.SideConceded(side=side, powers=powers),
        ev.GameWon(side=others[0], rule="concession", capitals=()),
    ]


def game_ended(state: GameState, result: str, powers: Sequence[str]) -> list[ev.Event]:
    """The game ends without a winner: ``draw`` or ``cancelled`` by the players' vote."""
    if result not in ("draw", "cancelled"):
        raise InvalidOrder(msg("engine.bad_result", result=result))
    if state.winner or state.ended:
        raise IllegalOrder(msg("engine.over"))
    return [ev.GameEnded(result=result, powers=tuple(powers))]  # type: ignore[arg-type]


def outcome(state: GameState) -> str | None:
    """The winning side, or None while the game goes on."""
    return state.winner


__all__ = [
    "Pending",
    "Tx",
    "check",
    "concession",
    "decide",
    "decide_folded",
    "evolve",
    "game_ended",
    "new_game",
    "outcome",
    "pending",
    "phase_name",
    "replay",
]


catalogue("en", "engine", {
    "unknown_edition": "Unknown edition {name!r}. Editions: {known}.",
    "unknown_option": "Unknown option {option!r} for {edition}. Options: {options:join}",
    "no_start": "An event log must begin with GameStarted.",
    "won": "The game is over: the {side} won. No more orders.",
    "ended": "The game is over ({result}). No more orders.",
    "unknown_power": "Unknown power {power!r}.",
    "unsupported": "Unsupported order {kind!r}.",
    "not_your_turn": "It is {turn:possessive} turn ({phase}); {power} cannot give that order now. "
                     "Wait for your turn, or answer your own battle questions with 'casualties' "
                     "({rule}).",
    "wrong_phase": "'{kind}' belongs to {want}; it is {phase} now. Use 'end' to finish the "
                   "current phase.",
    "unknown_side": "Unknown side {side!r}; sides: {sides:join}.",
    "over": "The game is over already.",
    "bad_result": "A game ends in a draw or is cancelled, not {result!r}.",
})
