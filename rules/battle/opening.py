"""Finding the battles at the start of Conduct Combat (CC-0, CC-0b, A-8, A-9, R-AMP-04/05)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rules import events as ev
from rules.battle import model as bm
from rules.battle.forces import value
from rules.battle.rounds import remove_unarmed
from rules.board import enemy_units, is_hostile_sea, is_hostile_territory
from rules.messages import own_rule
from rules.state import GameState, Unit
from rules.turn import hooks

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def open_battles(tx: Tx, from_position: bool = False) -> None:
    """Open every battle of the acting power; take empty territories (CC-0b)."""
    from rules import territory

    s = tx.state
    ed = s.edition
    power = s.power
    # Sea battles first, so amphibious land battles can name the sea battle that blocks them.
    sea_battles: set[str] = set()
    for z in [n for n in ed.spaces if ed.is_sea(n)]:
        mine = [u for u in s.units_in(z) if u.owner == power and u.carried_by is None]
        if not mine:
            continue
        foes = [u for u in enemy_units(s, z, power)
                if ed.units[u.type].domain != "land" and not _is_cargo_of_enemy(s, u)]
        if not foes:
            continue
        hostile = is_hostile_sea(s, z, power)
        moved_in = any(u.combat_moved and ed.units[u.type].domain != "land"
                       and not ed.units[u.type].abilities.no_combat_value for u in mine)
        can_attack = any(not ed.units[u.type].abilities.no_combat_value for u in mine)
        if not can_attack:
            continue  # transports alone never start a battle
        subs_only = all(ed.units[u.type].abilities.submersible for u in foes)
        assault_zone = any(c.owner == power and c.assault and (c.space == z or c.came_from == z)
                           for c in s.units.values())
        if not hostile and subs_only and assault_zone and not from_position:
            continue  # A-8 / CM-29: an assault may ignore enemy submarines (warship present)
        if hostile or moved_in or from_position:
            attacking = tuple(u.id for u in mine)
            defending = tuple(u.id for u in foes)  # fighters on carriers included (UC-4)
            launched = tuple(
                c.id for u in mine for c in s.units.values()
                if c.carried_by == u.id and c.owner == power and ed.units[c.type].domain == "air"
                and not u.damage)  # §16.3: a damaged carrier launches no planes
            tx.emit(ev.BattleOpened(space=z, attacker=power, defenders=_powers(s, defending),
                                    sea=True, attacking=attacking, defending=defending,
                                    launched=launched, hostile_at_start=hostile))
            sea_battles.add(z)
    s = tx.state
    aside = hooks.units_aside(s)  # on an errand of their own: no battle where they stand
    bombarded: set[int] = set()
    for t in [n for n in ed.spaces if not ed.is_sea(n)]:
        if not is_hostile_territory(s, t, power) and not hooks.attacks_neutral(s, t, power):
            continue
        present = [u for u in s.units_in(t) if u.owner == power and u.id not in aside]
        pending_cargo = [c for c in s.units.values()
                         if c.owner == power and c.assault == t and c.carried_by is not None]
        if not present and not pending_cargo:
            continue
        # Complexes and antiaircraft guns never defend: taken with the territory (R-AAG-04, A-05).
        foes = [u for u in enemy_units(s, t, power) if bm.is_casualty(ed.units[u.type])]
        blocked = sorted({c.space for c in pending_cargo if c.space in sea_battles})
        seaborne = tuple(u.id for u in present if u.assault == t)
        amphibious = bool(pending_cargo) or bool(seaborne)
        if not any(value(s, u, "defender") > 0 for u in foes) and not blocked:
            # CC-0b; Europe 1940 CC-3: a territory held only by AA guns (and facilities) is
            # entered without combat, and the guns are destroyed, never captured.
            remove_unarmed(tx, t, power, own_rule("CC-3"))
            if any(ed.units[u.type].abilities.can_capture for u in present):
                territory.capture(tx, t, power, "no battle", "CC-0b")
            s = tx.state
            continue
        zones = {u.came_from for u in present if u.assault == t and u.came_from} | {
            c.space for c in pending_cargo}
        support: tuple[int, ...] = ()
        if amphibious and not blocked and not zones & sea_battles:
            support = _bombarding(s, power, zones, bombarded, len(seaborne))
            bombarded.update(support)
        tx.emit(ev.BattleOpened(space=t, attacker=power, defenders=_powers(s, [u.id for u in foes]),
                                sea=False, attacking=tuple(u.id for u in present),
                                defending=tuple(u.id for u in foes), amphibious=amphibious,
                                blocked_by=blocked[0] if blocked else None, seaborne=seaborne,
                                bombarding=support))
        s = tx.state


def _bombarding(s: GameState, power: str, zones: set[str], taken: set[int],
                unloaded: int) -> tuple[int, ...]:
    """Battleships (and cruisers) that support a landing from ``zones`` with one shot
    (R-AMP-05, AA-2).

    Best reading of "accompany": the attacker's bombarding ships in a sea zone the assault's
    land units were unloaded from, that fought no sea battle this turn; each supports one
    landing. No bombardment when the landing zone saw a sea battle (R-AMP-04, AA-2; the caller
    checks). Europe 1940 (``bombardment_limit``, AA-2): no more ships than the ``unloaded``
    land units, the strongest first (battleships before cruisers); the attacker may choose
    others before the battle ('bombard', ``rules.mechanisms.bombard``).
    """
    ed = s.edition
    ships = sorted((u for z in sorted(zones) for u in s.units_in(z)
                    if u.owner == power and bm.bombards(ed, u.type) and u.carried_by is None
                    and not u.fought and u.id not in taken),
                   key=lambda u: (-ed.units[u.type].attack, u.id))
    if ed.rules.rules.bombardment_limit == "unloaded_units":
        ships = ships[:unloaded]
    return tuple(sorted(u.id for u in ships))


def _is_cargo_of_enemy(s: GameState, u: Unit) -> bool:
    """Land units aboard transports; planes aboard a damaged carrier, trapped: they do not
    defend and sink with it (Europe 1940 §16.3, §22.6)."""
    if u.carried_by is None:
        return False
    host = s.units.get(u.carried_by)
    return s.edition.units[u.type].domain == "land" or (host is not None and host.damage > 0)


def _powers(s: GameState, ids: Iterable[int]) -> tuple[str, ...]:
    seen: list[str] = []
    for i in ids:
        o = s.units[i].owner
        if o not in seen:
            seen.append(o)
    order = s.edition.turn_order
    return tuple(sorted(seen, key=order.index))
