"""Unit values as modified by weapons developments (Classic R-TEC-05/06), for every edition.

Editions without weapons developments return the printed profile. Combat,
movement, purchase and odds read values only through here, so a development takes effect the
moment its event is applied and only for the power that owns it.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.edition import Edition, Technology
from rules.state import GameState


def technologies(ed: Edition) -> dict[str, Technology]:
    return ed.developments


def owned(s: GameState, power: str) -> list[Technology]:
    if not s.techs.get(power):
        return []
    table = technologies(s.edition)
    return [table[t] for t in s.techs.get(power, ()) if t in table]


def chosen(ed: Edition, ids: Iterable[str]) -> list[Technology]:
    """The developments with these ids (unknown ids are left out), for battles off the board
    (odds/ask.py: a power's developments, or the ones named in an ``odds`` order)."""
    table = technologies(ed)
    return [table[t] for t in dict.fromkeys(ids) if t in table]


def attack_with(ed: Edition, techs: Iterable[Technology], unit_type: str) -> int:
    value = ed.units[unit_type].attack
    for t in techs:
        value = t.attack.get(unit_type, value)
    return value


def defense_with(ed: Edition, techs: Iterable[Technology], unit_type: str) -> int:
    value = ed.units[unit_type].defense
    for t in techs:
        value = t.defense.get(unit_type, value)
    return value


def attack_dice_with(techs: Iterable[Technology], unit_type: str) -> int:
    n = 1
    for t in techs:
        n = t.dice.get(unit_type, n)
    return n


def attack(s: GameState, power: str, unit_type: str) -> int:
    return attack_with(s.edition, owned(s, power), unit_type)


def defense(s: GameState, power: str, unit_type: str) -> int:
    return defense_with(s.edition, owned(s, power), unit_type)


def move(s: GameState, power: str, unit_type: str) -> int:
    value = s.edition.units[unit_type].move
    for t in owned(s, power):
        value = t.move.get(unit_type, value)
    return value


def attack_dice(s: GameState, power: str, unit_type: str) -> int:
    """Dice one attacking unit rolls (Heavy Bombers: 3 per bomber, R-TEC table)."""
    return attack_dice_with(owned(s, power), unit_type)


def cost(s: GameState, power: str, unit_type: str) -> int | None:
    """Purchase price after Industrial Technology (never below 0)."""
    price = s.edition.units[unit_type].cost
    if price is None:
        return None
    discount = sum(t.cost_discount for t in owned(s, power))
    return max(0, price - discount)
