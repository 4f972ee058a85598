"""Movement as a mechanism of the engine: the ``move`` order in Combat Move and Noncombat Move
(CM-1..CM-25, NC-1..NC-7), the fold of moves, and what entering and ending the movement phases
does. The rules of movement themselves are in ``rules.movement`` and ``rules.landing``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules import board, movement, movement_end
from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.messages import Msg, catalogue, msg
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg
from rules.turn.phases import phase_name

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def _wrong_phase(state: GameState, order: od.Move) -> Msg:
    return msg("movement.wrong_phase", "CM-1", phase=phase_name(state))


@reg.order(od.Move, phases=(board.COMBAT, board.NONCOMBAT), wrong_phase=_wrong_phase)
def _decide(tx: Tx, order: od.Move, dice: Dice) -> None:
    movement.decide_move(tx, order, dice)


def _idle_noncombat(s: GameState) -> Msg | None:
    """A bare ``end`` would pass an empty Noncombat Move while units can still move."""
    if s.marks.moved_noncombat:
        return None
    p = s.power
    able: dict[str, int] = {}
    for u in s.units.values():
        if (u.owner != p or u.combat_moved or u.fought or u.stopped
                or u.carried_by is not None or board.remaining(s, u) <= 0):
            continue
        able[u.space] = able.get(u.space, 0) + 1
    if able:
        where = sorted(able, key=lambda x: (-able[x], x))
        return msg("movement.idle", phase=phase_name(s), power=p, count=sum(able.values()),
                   where=[(able[x], x) for x in where])
    return None


_combat_move = reg.phase(board.COMBAT)
_combat_move.end.append(lambda tx, order: movement_end.check_end_combat_move(tx.state))
_noncombat = reg.phase(board.NONCOMBAT)
_noncombat.enter.append(lambda tx, initial: movement_end.land_stranded_fighters(tx))
_noncombat.end.append(lambda tx, order: movement_end.end_noncombat(tx, confirm=order.confirm))
_noncombat.idle.append(_idle_noncombat)


@reg.evolver(ev.UnitsMoved)
def _ev_moved(s: GameState, e: ev.UnitsMoved) -> GameState:
    units = dict(s.units)
    combat = e.phase == "combat_move"
    for m in e.moves:
        u = units[m.id]
        units[m.id] = replace(
            u,
            space=m.path[-1],
            moved=u.moved + m.cost,
            combat_moved=u.combat_moved or (combat and m.cost > 0),
            stopped=u.stopped or m.stopped,
            carried_by=m.carried_by,
            loaded=s.phase if m.loaded else (None if m.offloaded else u.loaded),
            assault=m.assault if m.assault is not None else (None if m.offloaded else u.assault),
            came_from=m.path[-2] if len(m.path) > 1 else u.came_from,
            stranded=False,  # a fighter of a sunk carrier that moved has landed (NC-3, R-AIR-10)
        )
        if m.offloaded and u.carried_by is not None and u.carried_by in units:
            t = units[u.carried_by]
            units[t.id] = replace(t, offloaded=True, stopped=True)
    if e.phase == "noncombat_move" and any(len(m.path) > 1 for m in e.moves):
        # a bare 'end' then ends the phase freely (idle_end)
        s = replace(s, units=units, marks=replace(s.marks, moved_noncombat=True))
    else:
        s = replace(s, units=units)
    for rule in hooks.move_rules():  # what the mechanisms remember of the move
        if rule.fold is not None:
            s = rule.fold(s, e)
    return s


def _idle_text(p: Mapping[str, Any]) -> str:
    where = p["where"]
    shown = ", ".join(f"{n} in {x}" for n, x in where[:3])
    more = f" and {len(where) - 3} more spaces" if len(where) > 3 else ""
    n = p["count"]
    return (f"Nothing has moved in {p['phase']} and {n} of {p['power']}'s "
            f"{'unit' if n == 1 else 'units'} can still move ({shown}{more}). Move them, or "
            f"'end confirm' to end {p['phase']} without moving.")


catalogue("en", "movement", {
    "idle": _idle_text,
    "wrong_phase": "Moves are made in Combat Move or Noncombat Move; it is {phase} now ({rule}). "
                   "Use 'end' to finish this phase.",
})
