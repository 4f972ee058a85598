"""Europe 1940 scramble through the slash commands (SC-1..SC-5): the defender's scramble is a
decision owed by its seat, offered as a menu, or given with '/scramble'."""

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
        "Holland Belgium": {"Germany": {"fighter": 1}},
        "Sea Zone 110": {UK: {"destroyer": 1}},
        UK: {UK: {"air base": 1, "fighter": 2}},
    },
}


async def strike(t: Table) -> str:
    game = await seated(t, POSITION)
    r = await t.alice.slash(t.channel, "move", units="1 fighter",
                            **{"from": "Holland Belgium", "to": "Sea Zone 110"})
    assert public(r), answer(r)
    await end(t, t.alice)
    return game


async def test_SC_1_the_scramble_is_the_defenders_menu(table: Table) -> None:
    t = table
    await strike(t)
    (menu,) = menus(t)
    assert f"<@{t.bob.id}>" in menu.content
    assert "United Kingdom owes scramble in United Kingdom" in menu.content, menu.content
    assert values(menu) == [
        "scramble none from United Kingdom",
        "scramble 1 fighter from United Kingdom to Sea Zone 110",
        "scramble 2 fighters from United Kingdom to Sea Zone 110"]
    r = await t.alice.slash(t.channel, "battle", space="Sea Zone 110")
    assert answer(r).startswith("First the defenders say what scrambles (SC")
    assert ("waiting for United Kingdom in United Kingdom (`/scramble units:<planes> "
            "from:<territory> to:<sea zone>` or `/scramble units:none from:<territory>`)."
            in answer(r))
    r = await t.bob.select(menu, ["scramble 2 fighters from United Kingdom to Sea Zone 110"])
    assert public(r), text_of(r)
    assert ("United Kingdom scrambles 2 fighters from United Kingdom to Sea Zone 110: they "
            "defend there, cannot retreat and fight nothing else this turn (SC-2, SC-4)."
            in seen(public(r)))
    assert menus(t) == []


async def test_SC_1_the_scramble_command_and_scramble_none(table: Table) -> None:
    t = table
    await strike(t)
    r = await t.bob.slash(t.channel, "scramble", units="1 fighter",
                          **{"from": UK, "to": "Sea Zone 110"})
    assert public(r), answer(r)
    assert "United Kingdom scrambles 1 fighter from United Kingdom to Sea Zone 110" in text_of(r)
    r = await t.bob.slash(t.channel, "scramble", units="none")
    assert public(r), answer(r)
    assert "United Kingdom scrambles nothing more from United Kingdom (SC-1)." in text_of(r)
    r = await t.bob.slash(t.channel, "scramble", units="1 fighter",
                          **{"from": UK, "to": "Sea Zone 110"})
    assert ("None of your powers (Soviet Union, United States, United Kingdom and France) owes "
            "a decision in United Kingdom now" in answer(r))


def test_SC_1_the_referees_answer_at_the_deadline_is_recorded_as_its_line() -> None:
    """The deadline's default (nothing more scrambles) is recorded as a line that reads back."""
    from rules.mechanisms.scramble import Scramble
    from service.deadlines import _order_text

    assert _order_text(Scramble(power=UK, space=UK, units={})) == \
        "scramble none from United Kingdom"
