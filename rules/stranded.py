"""Defending planes that land one space away at the start of Noncombat Move, before the moving
power's own moves: interceptors whose territory was captured (Europe 1940 BR-4), scrambled
planes whose home was captured (SC-5), as NC-3 says for them all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules.board import carrier_room
from rules.state import Unit

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def land_near(tx: Tx, u: Unit, rule: str, reason: str) -> None:
    """Land ``u`` one space from where it is, before the moving power's own moves (BR-4, SC-5,
    NC-3): a friendly territory beside it (its owner's first), else an allied carrier with room
    there or beside it; else it is lost (``reason``)."""
    s = tx.state
    ed = s.edition
    z = u.space
    lands = sorted((t for t in ed.neighbours[z] if not ed.is_sea(t)
                    and s.friendly(s.owners.get(t), u.owner)),
                   key=lambda t: (s.owners.get(t) != u.owner, t))
    if lands:
        tx.emit(ev.UnitsMoved(power=u.owner, phase=s.phase, frm=z, to=lands[0], moves=(
            ev.UnitMove(id=u.id, path=(z, lands[0]), cost=1),)))
        return
    seas = [z] if ed.is_sea(z) else []
    seas += sorted(t for t in ed.neighbours[z] if ed.is_sea(t))
    decks = [c for t in seas for c in s.units_in(t)
             if ed.units[c.type].abilities.carrier_capacity and s.friendly(c.owner, u.owner)
             and carrier_room(s, c) > 0 and ed.units[u.type].abilities.carrier_landable]
    if decks:
        c = decks[0]
        path = (z,) if c.space == z else (z, c.space)
        tx.emit(ev.UnitsMoved(power=u.owner, phase=s.phase, frm=z, to=c.space, moves=(
            ev.UnitMove(id=u.id, path=path, cost=len(path) - 1, carried_by=c.id),)))
        return
    tx.emit(ev.UnitsRemoved(ids=(u.id,), reason=reason, rule=rule))
