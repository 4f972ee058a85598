"""Retreat (CC-6B, AA-7; Classic R-RET-01..04, R-AMP-07, A-13, A-28): who retreats, where to,
and the order that does it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules import events as ev
from rules import orders as od
from rules.battle.conclude import conclude
from rules.battle.forces import alive, rules_of
from rules.board import is_hostile_sea
from rules.edition import Edition
from rules.errors import IllegalOrder, InvalidOrder
from rules.messages import catalogue, msg
from rules.state import BattleState, GameState, Unit

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def stays_behind(ed: Edition, e: ev.BattleRetreated, unit_type: str | None) -> bool:
    """Whether a unit of ``unit_type`` in the retreat ``e`` stays in the contested space, to
    land in Noncombat Move (CC-6B), instead of going to ``e.to``: aircraft go along only where
    the edition says (R-RET-02, A-28); with no ``e.to`` (a withdrawal) every unit stays."""
    if e.to is None:
        return True
    ut = ed.units.get(unit_type) if unit_type is not None else None
    return ut is not None and ut.domain == "air" and not e.air_with


def retreat_split(s: GameState, e: ev.BattleRetreated) -> tuple[list[int], list[int]]:
    """(units that went to ``e.to``, units that stayed in the contested space): ``stays_behind``
    for each unit of the retreat, known by id in ``s``, the state before it."""
    going: list[int] = []
    staying: list[int] = []
    for i in e.units:
        u = s.units.get(i)
        (staying if stays_behind(s.edition, e, u.type if u else None) else going).append(i)
    return going, staying


def _no_retreat(s: GameState, b: BattleState) -> bool:
    """R-AMP-07 / R-RET-04 / A-13: nobody retreats from a battle with units landed this turn."""
    return rules_of(s).amphibious_retreat == "none" and bool(alive(s, b.seaborne))


def _retreating(s: GameState, b: BattleState) -> list[Unit]:
    """Attackers that move with a retreat: land and sea units (CC-6B), and aircraft too where
    they go along (R-RET-02, A-28); never seaborne units (AA-7)."""
    ed = s.edition
    air_too = rules_of(s).air_retreat == "with_retreat"
    return [u for u in alive(s, b.attacking) if u.id not in b.seaborne
            and (air_too or ed.units[u.type].domain != "air")]


def retreat_options(s: GameState, b: BattleState) -> list[str]:
    """Adjacent friendly spaces at least one retreating attacker came from (CC-6B, R-RET-02)."""
    ed = s.edition
    if _no_retreat(s, b):
        return []
    movers = _retreating(s, b)
    froms: set[str] = {u.came_from for u in movers if u.came_from and u.came_from != b.space}
    out = []
    for x in sorted(f for f in froms if f):
        if x not in ed.neighbours[b.space]:
            continue
        if ed.is_sea(x):
            # Sea units retreat only to a zone friendly at the start of the turn (CC-6B).
            earlier = s.battles.get(x)
            was_hostile = earlier is not None and earlier.hostile_at_start
            if is_hostile_sea(s, x, b.attacker) or was_hostile:
                continue
        elif not s.friendly(s.owners.get(x), b.attacker):
            continue
        out.append(x)
    return out


def retreat(tx: Tx, b: BattleState, order: od.Retreat) -> None:
    s = tx.state
    ed = s.edition
    if b.step != "press_or_retreat":
        raise IllegalOrder(msg("retreat.not_now", "CC-6B, A-12", space=b.space, step=b.step))
    if order.to not in ed.spaces:
        raise InvalidOrder(msg("battle.unknown_space", space=order.to))
    if _no_retreat(s, b):
        raise IllegalOrder(msg("retreat.landed", "R-AMP-07, R-RET-04, A-13", space=b.space))
    movers = _retreating(s, b)
    air = [u for u in alive(s, b.attacking)
           if ed.units[u.type].domain == "air" and u not in movers]
    if movers:
        options = retreat_options(s, b)
        if order.to not in options:
            raise IllegalOrder(msg("retreat.where", "CC-6B, R-RET-02", options=options))
        to: str | None = order.to
    else:
        if order.to != b.space and order.to not in ed.neighbours[b.space]:
            raise IllegalOrder(msg("retreat.air_in_place", "CC-6B"))
        to = None
    ids = tuple(u.id for u in movers + air)
    tx.emit(ev.BattleRetreated(space=b.space, to=to, units=ids,
                               air_with=rules_of(s).air_retreat == "with_retreat"))
    b = tx.state.battles[b.space]
    if b.seaborne and any(i in tx.state.units for i in b.seaborne):
        # AA-7: seaborne units never retreat; the battle goes on with them.
        tx.emit(ev.BattleRoundEnded(space=b.space, round=b.round, next_step="ready"))
        return
    conclude(tx, b, "retreat")


def _not_now(p: Mapping[str, Any]) -> str:
    how = "waiting for casualties" if p["step"] == "casualties" else "not yet fought"
    return (f"Retreat is decided after a round of fire ({p['rule']}); the battle in {p['space']} "
            f"is {how}.")


catalogue("en", "retreat", {
    "not_now": _not_now,
    "landed": "No attacker may retreat from {space}: units that came ashore this turn never "
              "retreat, and all attackers retreat together ({rule}). Press with 'press {space}'.",
    "where": "Attackers retreat together to one adjacent friendly space that at least one of "
             "them came from ({rule}). Possible: {options:join|none}.",
    "air_in_place": "Air units retreat in place and land in Noncombat Move ({rule}).",
})
