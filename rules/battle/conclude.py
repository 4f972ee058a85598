"""The end of a battle in the combat (Step 7): repair, capture, the seaborne landing, fighters
of a sunk carrier (CC-7a..c, AA-3, AA-5/AA-6, R-AIR-10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules import movement_end
from rules.battle.forces import alive, rules_of, side_units
from rules.board import is_hostile_territory
from rules.state import BattleState
from rules.turn import hooks

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def conclude(tx: Tx, b: BattleState, result: str) -> None:
    """Step 7: repair, land fighters, capture (CC-7a..c), seaborne landing (AA-3)."""
    from rules import territory

    s = tx.state
    ed = s.edition
    b = s.battles[b.space]
    repaired = tuple(u.id for u in alive(s, b.attacking + b.defending)
                     if u.damage and rules_of(s).battleship_repair)  # CC-7a / UB-2
    offloaded: tuple[int, ...] = ()
    if b.sea and result in ("attacker", "no combat"):
        offloaded = tuple(c.id for c in s.units.values()
                          if c.owner == b.attacker and c.space == b.space and c.assault
                          and c.carried_by is not None)
    grounded: tuple[int, ...] = ()
    if b.sea and not rules_of(s).battleship_repair:
        # §16.3: planes that defended a carrier now damaged cannot land on it again; they land
        # elsewhere in Noncombat Move, as those of a sunk carrier (NC-3)
        grounded = tuple(u.id for u in alive(s, b.defending)
                         if ed.units[u.type].domain == "air" and u.carried_by in s.units
                         and s.units[u.carried_by].damage > 0)
    tx.emit(ev.BattleEnded(space=b.space, result=result, repaired=repaired,  # type: ignore[arg-type]
                           offloaded=(), stranded=grounded))
    if offloaded:
        by_target: dict[str, list[int]] = {}
        for i in offloaded:
            by_target.setdefault(tx.state.units[i].assault or "", []).append(i)
        for target, ids in by_target.items():
            tx.emit(ev.SeaborneLanded(space=target, units=tuple(ids)))
            lb = tx.state.battles.get(target)
            if (lb is not None and lb.step != "done" and lb.blocked_by is None
                    and not side_units(tx.state, lb, "defender")):
                conclude(tx, lb, "attacker")
    if b.sea and result not in ("attacker", "no combat"):
        # AA-5/AA-6: the landing failed; land battles it blocked go on without seaborne units.
        for lb in list(tx.state.battles.values()):
            if (lb.blocked_by is None and lb.step != "done" and lb.amphibious
                    and not side_units(tx.state, lb, "attacker")):
                tx.emit(ev.BattleEnded(space=lb.space, result="defender"))
    if b.sea and rules_of(s).stranded_fighters == "same_zone":
        # R-AIR-10: fighters of a sunk carrier that survived land in this zone (another carrier,
        # an island there) as the battle ends, or are lost.

        movement_end.land_stranded_fighters(tx, b.space)
    if not b.sea and result == "attacker":
        land = [u for u in alive(tx.state, b.attacking + b.seaborne)
                if ed.units[u.type].abilities.can_capture and u.space == b.space]
        if land and (is_hostile_territory(tx.state, b.space, b.attacker)
                     or hooks.attacks_neutral(tx.state, b.space, b.attacker)):
            territory.capture(tx, b.space, b.attacker, "battle", "CC-7b")
