"""The phase machine: entering an edition's phases in turn order (T-1..T-5), ending them, and
the end of a power's turn with the victory checks (V-1..V-4, A-1).

It names no mechanism: what happens on entering or ending a phase is registered by the
mechanisms (``rules.turn.registry.phase``) for the phase ids an edition lists in its data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, WrongPhase
from rules.messages import Msg, catalogue, msg
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def phase_name(state: GameState) -> str:
    return state.edition.phase_info[state.phase].name


def enter_phase(tx: Tx, phase: str, initial: bool = False) -> None:
    """Enter ``phase`` (or the next one the power plays), running automatic phases.

    ``initial``: the game starts in this phase (a position file); its handlers then only set it
    up and it is never passed automatically.
    """
    ed = tx.state.edition
    ids = ed.phase_ids
    i = ids.index(phase)
    skipped: list[str] = []
    rules: list[str] = []  # why phases were skipped
    while i < len(ids):
        pid = ids[i]
        info = ed.phase_info[pid]
        if info.skipped_without_capital and not tx.state.capital_held(tx.state.power):
            skipped.append(pid)  # T-4 / CAP-2
            rules.append(ed.cite("T-4"))
            i += 1
            continue
        why = None if initial and i == ids.index(phase) else next(
            (r for skip in reg.phase_handler(pid).skip if (r := skip(tx.state))), None)
        if why is not None:
            skipped.append(pid)  # a mechanism's rule (Europe 1940 NW-5)
            rules.append(why)
            i += 1
            continue
        break
    skip_rule = "/".join(dict.fromkeys(rules))
    if i >= len(ids):
        tx.emit(ev.PhaseChanged(power=tx.state.power, phase=ids[-1], skipped=tuple(skipped),
                                rule=skip_rule))
        end_turn(tx)
        return
    pid = ids[i]
    rule = skip_rule if skipped else ed.cite("T-2")
    tx.emit(ev.PhaseChanged(power=tx.state.power, phase=pid, skipped=tuple(skipped), rule=rule))
    handler = reg.phase_handler(pid)
    for enter in handler.enter:
        enter(tx, initial)
    if handler.auto_pass and not initial and not any(busy(tx.state) for busy in handler.busy):
        # No mechanism has work left in it (its handler's ``busy``): passed.
        for leave in handler.leave:
            leave(tx)
        enter_phase(tx, after(tx.state, pid))


def after(state: GameState, phase: str) -> str:
    ids = state.edition.phase_ids
    return ids[ids.index(phase) + 1]


@reg.order(od.EndPhase)
def decide_end(tx: Tx, order: od.EndPhase, dice: Dice) -> None:
    """End the current phase after its closing checks."""
    s = tx.state
    if order.phase is not None and order.phase != s.phase:
        raise WrongPhase(stale_end(s, order.phase))
    handler = reg.phase_handler(s.phase)
    for end in handler.end:
        end(tx, order)
    # After the phase's own checks, whose refusals say more (air without a landing, NC-7).
    if order.phase is None and not order.confirm:
        for idle in handler.idle:
            why = idle(s)
            if why is not None:
                raise IllegalOrder(why)
    if s.phase == s.edition.phase_ids[-1]:
        end_turn(tx)  # a last phase that waited for an order (Europe 1940 §5.4, the USA)
    else:
        enter_phase(tx, after(tx.state, s.phase))
    del dice


def stale_end(s: GameState, phase: str) -> Msg:
    """Why an ``end`` meant for ``phase`` is refused now that the game is elsewhere."""
    info = s.edition.phase_info
    meant = info[phase].name if phase in info else phase
    ids = s.edition.phase_ids
    if phase in ids and ids.index(phase) < ids.index(s.phase):
        return msg("phases.stale_end", meant=meant, phase=phase_name(s))
    return msg("phases.not_now", meant=meant, phase=phase_name(s), power=s.power)



def end_turn(tx: Tx) -> None:
    """Victory checks for this power's turn end (V-1..V-4, A-1), then the next turn; the
    mechanisms' own checks at a turn's end and start (``hooks.turn_ends``/``turn_starts``)."""
    s = tx.state
    key = "short" if "short" in s.options else "standard"
    for cond in s.edition.rules.victory.get(key, ()):
        if cond.check_after not in (s.power, "*"):
            continue
        if cond.kind == "production":
            income = s.income()
            total = sum(income[p] for p in s.edition.powers_of_side(cond.side))
            if total >= cond.threshold:
                tx.emit(ev.GameWon(side=cond.side, rule=cond.rule, capitals=(), production=total))
                return
            continue
        if cond.kind != "capitals":
            continue  # a kind a mechanism checks (rules.turn.hooks.turn_ends/turn_starts)
        held = tuple(
            c for c in cond.capitals
            if s.owners.get(c) is not None and s.side(s.owners[c] or "") == cond.side
        )
        if len(held) >= cond.need:
            tx.emit(ev.GameWon(side=cond.side, rule=cond.rule, capitals=held))
            return
    if any(at_end(tx) for at_end in hooks.turn_end_checks()):
        return
    order = s.edition.turn_order
    i = order.index(s.power)
    nxt = order[(i + 1) % len(order)]
    rnd = s.round + (1 if i + 1 == len(order) else 0)
    tx.emit(ev.TurnStarted(round=rnd, power=nxt))
    if any(at_start(tx) for at_start in hooks.turn_start_checks()):
        return
    enter_phase(tx, s.edition.phase_ids[0])


catalogue("en", "phases", {
    "stale_end": "{meant} has already ended; it is {phase} now. Nothing was ended: 'end' again to "
                 "end {phase}.",
    "not_now": "It is {power}'s {phase} now, not {meant}: nothing was ended. 'end' again to end "
               "{phase}.",
})
