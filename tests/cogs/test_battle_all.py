"""'/battle <space> all' never answers for the defender (H-1, issue 13 item 5).

Driven through SimCord with scripted dice: the fight stops where the defender has a real
casualty choice and no standing order; the channel mentions the defender's seat holder with a
menu of its choices; its answer lets the battle go on to the end."""

from __future__ import annotations

from typing import Any

from tests.cogs._e40 import seated
from tests.cogs.conftest import Table, end, public
from tests.cogs.test_commands import text_of
from tests.cogs.test_menus import menus, values
from tests.fair_game import ALLIES, AXIS

POSITION: dict[str, Any] = {
    "edition": "1941",
    "round": 1,
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "clear_all_units": True,
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 1, "tank": 1}},
        "Eastern Europe": {"Germany": {"tank": 3}},
    },
}
DICE = [
    1, 6, 6,  # round 1: the German tanks score one hit; the defender may lose either unit
    6, 6,  # the Soviet tank and infantry miss
    1, 6, 6,  # round 2: one hit, on the last infantry (forced)
    6,
]


def seen(m: Any) -> str:
    """A message's text with its embeds."""
    parts = [m.content or ""]
    for e in m.embeds:
        parts += [e.title or "", e.description or "", *(f.value or "" for f in e.fields)]
    return "\n".join(parts)


async def game_with_dice(t: Table) -> str:
    return await seated(t, POSITION, DICE, edition="1941", axis=AXIS, allies=ALLIES)


async def test_H_1_battle_all_waits_for_the_defender_with_a_mention_and_a_menu(
    table: Table,
) -> None:
    t = table
    await game_with_dice(t)
    r = await t.alice.slash(t.channel, "move", units="3 tanks",
                            **{"from": "Eastern Europe", "to": "Ukraine"})
    assert public(r), text_of(r)
    assert public(await end(t, t.alice))
    r = await t.alice.slash(t.channel, "battle", space="Ukraine", all=True)
    assert public(r), text_of(r)
    assert "Casualties in Ukraine" not in text_of(r)  # nobody chose for the defender
    (menu,) = menus(t)
    assert f"<@{t.bob.id}>" in menu.content and f"<@{t.alice.id}>" not in menu.content
    assert "Soviet Union owes casualties in Ukraine" in menu.content, menu.content
    choices = values(menu)
    assert "casualties Ukraine 1 tank" in choices and "casualties Ukraine 1 infantry" in choices
    r = await t.bob.select(menu, ["casualties Ukraine 1 tank"])
    assert public(r), text_of(r)
    # The answer lets 'battle all' go on: round 2 is fought and Germany takes Ukraine.
    record = seen(public(r))
    assert "round 2 begins" in record and "Germany captured Ukraine" in record, record
    assert "the defender loses 1 infantry (no choice)" in record
    assert menus(t) == []
    state = await t.service.state((await t.service.game_in(str(t.channel.id))).id)  # type: ignore[union-attr]
    assert state.owners["Ukraine"] == "Germany"
