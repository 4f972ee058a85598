"""Strategic bombing raids (Classic R-SBR-01..05, A-16): the AA gun fires at each raiding
bomber, the survivors roll their damage dice, the territory's owner pays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.battle import model as bm
from rules.battle.forces import dice_per_unit, rules_of
from rules.dice import Dice, roll_purpose
from rules.errors import IllegalOrder, InvalidOrder
from rules.state import GameState

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def open_raids(s: GameState) -> list[str]:
    """Territories the acting power's bombers raid this turn, not yet resolved (R-SBR-01)."""
    if not rules_of(s).strategic_bombing or s.phase != "conduct_combat":
        return []
    spaces = {u.space for u in s.units.values() if u.raid and u.owner == s.power}
    return sorted(x for x in spaces if x not in s.marks.raided)


def decide_raid(tx: Tx, order: od.Bomb, dice: Dice) -> None:
    """The antiaircraft gun fires one die per raiding bomber (each 1 destroys one, R-SBR-02);
    each survivor rolls its attack dice (R-SBR-03) and the territory's owner pays the sum to
    the bank, a shortfall becoming a debt (R-SBR-04/05)."""
    from rules import territory

    s = tx.state
    ed = s.edition
    if not rules_of(s).strategic_bombing:
        raise IllegalOrder("There are no strategic bombing raids in this edition.")
    if order.space not in ed.spaces:
        raise InvalidOrder(f"Unknown space {order.space!r}.")
    waiting = open_raids(s)
    if order.space not in waiting:
        if order.space in s.marks.raided:
            raise IllegalOrder(f"The bombing raid on {order.space} is over already (R-SBR).")
        raise IllegalOrder(
            f"No bombers of {order.power} raid {order.space}: raids are declared in Combat "
            f"Movement (R-SBR-01). Raids to resolve: {', '.join(waiting) or 'none'}."
        )
    power = s.power
    bombers = sorted((u for u in s.units_in(order.space) if u.owner == power and u.raid),
                     key=lambda u: u.id)
    owner = s.owners.get(order.space)
    target = any(ed.units[u.type].abilities.factory for u in s.units_in(order.space))
    if not target or not s.enemy(owner, power):
        tx.emit(ev.RaidResolved(space=order.space, attacker=power, defender=owner,
                                bombers=tuple(u.id for u in bombers),
                                note="no enemy industrial complex to bomb"))
        return
    guns = [u for u in s.units_in(order.space)
            if ed.units[u.type].abilities.anti_air and s.enemy(u.owner, power)]
    lost: tuple[int, ...] = ()
    if guns:
        gun = guns[0].type
        faces = tuple(dice.roll(len(bombers), roll_purpose(order.space, 1, "defender:raid_aa",
                                                           gun)))
        hits = min(sum(1 for f in faces if f <= bm.AA_HIT), len(bombers))
        tx.emit(ev.DiceRolled(space=order.space, round=1, side="defender",
                              purpose=f"{order.space} raid defender:raid_aa",
                              groups=((gun, bm.AA_HIT, faces),), hits=hits, dice=dice.name,
                              stage="raid_aa"))
        lost = tuple(u.id for u in bombers[:hits])
        if lost:
            tx.emit(ev.UnitsRemoved(ids=lost, reason=f"shot down over {order.space}",
                                    rule="R-SBR-02"))
    survivors = [u for u in bombers if u.id not in lost]
    groups: dict[str, int] = {}
    for u in survivors:
        groups[u.type] = groups.get(u.type, 0) + dice_per_unit(s, u, "attacker")
    rolled: list[tuple[str, int, tuple[int, ...]]] = []
    for utype, n in sorted(groups.items()):
        rolled.append((utype, 0, tuple(dice.roll(n, roll_purpose(order.space, 1, "attacker:raid",
                                                                  utype)))))
    if rolled:
        tx.emit(ev.DiceRolled(space=order.space, round=1, side="attacker",
                              purpose=f"{order.space} raid attacker:raid", groups=tuple(rolled),
                              hits=0, dice=dice.name, stage="raid"))
    damage = sum(f for _, _, faces in rolled for f in faces)
    tx.emit(ev.RaidResolved(space=order.space, attacker=power, defender=owner,
                            bombers=tuple(u.id for u in bombers), lost=lost, damage=damage))
    if owner is not None:
        territory.charge_damage(tx, owner, damage, f"the bombing raid on {order.space}", "R-SBR-04")
