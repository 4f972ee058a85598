"""Europe 1940 raids through the slash commands (BR-3..BR-5, SC-8): the defender's
interceptors are a decision owed by its seat, offered as a menu; escorts with '/move escort';
the air battle with '/airbattle'; the facilities named with '/bomb targets:'."""

from __future__ import annotations

from typing import Any

from tests.cogs._e40 import seated
from tests.cogs.conftest import Table, answer, end, public
from tests.cogs.test_battle_all import seen
from tests.cogs.test_commands import text_of
from tests.cogs.test_menus import menus, values

UK = "United Kingdom"
POSITION: dict[str, Any] = {
    "edition": "europe1940", "power": "Germany", "phase": "combat_move",
    "clear_all_units": True, "owners": {"Holland Belgium": "Germany"},
    "units": {
        "Western Germany": {"Germany": {"strategic bomber": 2}},
        "Holland Belgium": {"Germany": {"fighter": 1}},
        UK: {UK: {"major industrial complex": 1, "air base": 1, "fighter": 2}},
    },
}
DICE = [
    6, 6, 6,  # the air battle: the raiders (1 fighter, 2 bombers) miss
    1,  # the interceptor hits once; Germany chooses what it loses (the escort)
    6, 6, 3, 4,  # the complex's air defense misses both bombers; they roll 3+2 and 4+2
]


async def raid(t: Table) -> str:
    game = await seated(t, POSITION, DICE)
    r = await t.alice.slash(t.channel, "move", units="2 strategic bombers", raid=True,
                            **{"from": "Western Germany", "to": UK})
    assert public(r), answer(r)
    r = await t.alice.slash(t.channel, "move", units="1 fighter", escort=True,
                            **{"from": "Holland Belgium", "to": UK})
    assert public(r), answer(r)
    assert "escorting the bombing raid on United Kingdom" in text_of(r)
    await end(t, t.alice)
    return game


async def test_SC_8_BR_4_the_interceptors_are_the_defenders_menu(table: Table) -> None:
    t = table
    await raid(t)
    (menu,) = menus(t)
    assert f"<@{t.bob.id}>" in menu.content
    assert "United Kingdom owes interception in United Kingdom" in menu.content, menu.content
    assert values(menu) == ["intercept United Kingdom none", "intercept United Kingdom 1 fighter",
                            "intercept United Kingdom 2 fighters"]
    r = await t.bob.select(menu, ["intercept United Kingdom 1 fighter"])
    assert public(r), text_of(r)
    assert "intercepts the raid on United Kingdom with 1 fighter" in seen(public(r))
    assert menus(t) == []


async def test_BR_5_the_air_battle_and_its_casualty_menu(table: Table) -> None:
    t = table
    await raid(t)
    r = await t.bob.slash(t.channel, "intercept", space=UK, units="1 fighter")
    assert public(r), answer(r)
    r = await t.alice.slash(t.channel, "airbattle", space=UK)
    assert public(r), answer(r)
    assert "Air battle over United Kingdom" in text_of(r)
    (menu,) = menus(t)
    assert "Germany owes air battle casualties in United Kingdom" in menu.content
    assert values(menu) == ["casualties United Kingdom 1 fighter",
                            "casualties United Kingdom 1 strategic bomber"]
    r = await t.alice.select(menu, ["casualties United Kingdom 1 fighter"])
    assert public(r), text_of(r)
    assert "the escorts (no units) withdraw" not in seen(public(r))
    assert menus(t) == []
    r = await t.alice.slash(t.channel, "bomb", space=UK, targets="major ic: 2 strategic bombers")
    assert public(r), answer(r)
    assert "Bombing raid on United Kingdom by Germany over: 11 damage in all" in text_of(r)


def test_SC_8_the_referees_answer_at_the_deadline_is_recorded_as_its_line() -> None:
    """The deadline's default (no interceptors) is recorded as a line that reads back to it."""
    from rules.mechanisms.interception import AirBattle, Intercept
    from service.deadlines import _order_text

    assert _order_text(Intercept(power=UK, space=UK, units={})) == "intercept United Kingdom none"
    assert _order_text(AirBattle(power="Germany", space=UK)) == "air battle United Kingdom"
