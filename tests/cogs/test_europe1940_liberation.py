"""France's liberation bonus through Discord (FR-1): the free units are a decision owed by
France's seat at once, whoever's turn it is, offered as a menu of the selections that spend
the bonus (the referee's default first); '/free' takes any other selection."""

from __future__ import annotations

from typing import Any

from tests.cogs._e40 import seated
from tests.cogs.conftest import Table, answer, end, public
from tests.cogs.test_battle_all import seen
from tests.cogs.test_commands import text_of
from tests.cogs.test_menus import menus, values

UK = "United Kingdom"
POSITION: dict[str, Any] = {
    "edition": "europe1940", "power": UK, "phase": "combat_move",
    "clear_all_units": True, "owners": {"France": "Germany", "Normandy Bordeaux": UK},
    "units": {"Normandy Bordeaux": {UK: {"infantry": 1}}},
}


async def liberate(t: Table) -> str:
    game = await seated(t, POSITION)
    r = await t.bob.slash(t.channel, "move", units="1 infantry",
                          **{"from": "Normandy Bordeaux", "to": "France"})
    assert public(r), answer(r)
    r = await end(t, t.bob)
    assert public(r), answer(r)
    return game


async def test_FR_1_the_free_units_are_frances_menu(table: Table) -> None:
    t = table
    await liberate(t)
    (menu,) = menus(t)
    assert f"<@{t.bob.id}>" in menu.content
    assert "France owes free units in France" in menu.content, menu.content
    offered = values(menu)
    assert offered[0] == "free units 4 infantry in France"  # the referee's default first
    assert "free units 2 tanks in France" in offered
    assert "free units 1 fighter in France" in offered
    assert len(offered) == len(set(offered)) <= 25
    r = await t.bob.select(menu, ["free units 2 tanks in France"])
    assert public(r), text_of(r)
    assert ("France placed free units in France: 2 tanks (12 IPCs of the liberation bonus, "
            "FR-1).") in seen(public(r))
    assert menus(t) == []


async def test_FR_1_free_takes_a_selection_the_menu_does_not_show(table: Table) -> None:
    t = table
    await liberate(t)
    r = await t.bob.slash(t.channel, "free", units="1 infantry", **{"in": "France"})
    assert public(r), text_of(r)
    assert ("France placed free units in France: 1 infantry (3 IPCs of the liberation bonus, "
            "FR-1).") in seen(public(r))
    assert menus(t) == []
    r = await t.bob.slash(t.channel, "free", units="1 infantry", **{"in": "France"})
    assert not public(r)
    assert "owes no free units" in text_of(r), text_of(r)
