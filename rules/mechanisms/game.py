"""The game itself as a mechanism: its start (from the setup or a position, which
``rules.position`` reads), turns and phase changes, the end of a game (won, drawn, cancelled,
conceded), standing casualty orders, dice records and game-master edits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules import orders as od
from rules import position
from rules.dice import Dice
from rules.edition import Edition, load_edition
from rules.errors import InvalidOrder
from rules.messages import catalogue, msg
from rules.state import GameState, TurnMarks, Unit
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def empty_state(ed: Edition) -> GameState:
    return GameState(
        edition=ed,
        options=frozenset(),
        round=1,
        power=ed.turn_order[0],
        phase=ed.phase_ids[0],
        treasury={p: 0 for p in ed.powers},
        owners={},
        units={},
        next_id=1,
    )


@reg.evolver(ev.GameStarted)
def _ev_started(s: GameState, e: ev.GameStarted) -> GameState:
    return position.build_start(load_edition(e.edition), e.options, e.position)


@reg.evolver(ev.TurnStarted)
def _ev_turn(s: GameState, e: ev.TurnStarted) -> GameState:
    units = {
        uid: replace(
            u,
            moved=0,
            combat_moved=False,
            stopped=False,
            fought=False,
            loaded=None,
            offloaded=False,
            assault=None,
            came_from=None,
            start=u.space,
            retreated=False,
            stranded=False,
        )
        for uid, u in s.units.items()
    }
    return replace(
        s,
        round=e.round,
        power=e.power,
        units=units,
        turn_start_owners=dict(s.owners),
        captured_this_turn=frozenset(),
        placed={},
        purchase={},
        carrier_promises=(),
        battles={},
        marks=TurnMarks(),
        parts=s.parts.at_new_turn(),
    )


@reg.evolver(ev.PhaseChanged)
def _ev_phase(s: GameState, e: ev.PhaseChanged) -> GameState:
    units = s.units
    if e.phase in ("noncombat_move", "mobilize"):
        # A new movement phase: units that stopped in Combat Move stay stopped (NC-1) through
        # the "fought/combat_moved" flags; the per-phase stop flag resets.
        units = {uid: replace(u, stopped=False) if u.stopped else u for uid, u in s.units.items()}
    return replace(s, phase=e.phase, units=units)


@reg.evolver(ev.GameWon)
def _ev_won(s: GameState, e: ev.GameWon) -> GameState:
    return replace(s, winner=e.side)


@reg.evolver(ev.GameEnded)
def _ev_ended(s: GameState, e: ev.GameEnded) -> GameState:
    return replace(s, ended=e.result)


@reg.evolver(ev.StandingOrderSet)
def _ev_standing(s: GameState, e: ev.StandingOrderSet) -> GameState:
    return replace(s, standing={**s.standing, e.power: e.order})



@reg.evolver(ev.DiceCommitted)
@reg.evolver(ev.DiceEntropyFixed)
@reg.evolver(ev.DiceSeedRevealed)
# The side's concession changes nothing by itself; the GameWon after it ends the game.
@reg.evolver(ev.SideConceded)
def _ev_dice_record(s: GameState, e: ev.Event) -> GameState:
    # Commitments, entropy and revealed seeds are for verifiers (rules.dice_audit reads them
    # from the log); they change nothing on the board.
    return s


@reg.evolver(ev.EditApplied)
def _ev_edit(s: GameState, e: ev.EditApplied) -> GameState:
    """A game-master edit (``rules.edits``): units, owners and money only."""
    units = dict(s.units)
    for uid in e.removed:
        units.pop(uid, None)
    for uid, space, carried in e.moved:
        u = units[uid]
        units[uid] = replace(u, space=space, carried_by=carried, came_from=u.space)
    nid = s.next_id
    for uid, utype, owner, space, carried in e.added:
        # Placed as if they had been there all turn: free to move on the owner's next turn.
        units[uid] = Unit(id=uid, type=utype, owner=owner, space=space, carried_by=carried,
                          start=space)
        nid = max(nid, uid + 1)
    for uid, owner in e.reowned:
        units[uid] = replace(units[uid], owner=owner)
    owners = {**s.owners, **dict(e.owners)}
    treasury = {**s.treasury, **dict(e.treasury)}
    gone = set(e.removed)
    promises = tuple(p for p in s.carrier_promises if p[0] not in gone)
    return replace(s, units=units, owners=owners, treasury=treasury, next_id=nid,
                   carrier_promises=promises)



@reg.order(od.StandingCasualties, in_turn=False)
def _decide_standing(tx: Tx, order: od.StandingCasualties, dice: Dice) -> None:
    ed = tx.state.edition
    unknown = [u for u in order.order if u not in ed.units]
    if unknown:
        raise InvalidOrder(msg("game.unknown_units", units=unknown))
    if len(set(order.order)) != len(order.order):
        raise InvalidOrder(msg("game.standing_twice"))
    tx.emit(ev.StandingOrderSet(power=order.power, order=tuple(order.order)))


def _unknown_units(p: Mapping[str, Any]) -> str:
    units = p["units"]
    return (f"Unknown {'unit' if len(units) == 1 else 'units'} in standing order: "
            f"{', '.join(units)}.")


catalogue("en", "game", {
    "unknown_units": _unknown_units,
    "standing_twice": "Name each unit type once in a standing casualty order.",
})
