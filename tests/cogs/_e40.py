"""A Europe 1940 game from a position, seated in the harness's channel: alice holds the Axis,
bob the Allies (the cog tests of the 1940 mechanisms start from one)."""

from __future__ import annotations

from typing import Any

from tests.cogs.conftest import Table

AXIS = ("Germany", "Italy")
ALLIES = ("Soviet Union", "United States", "United Kingdom", "France")


async def seated(t: Table, position: dict[str, Any], dice: list[int] | None = None) -> str:
    """The game's id, started, from ``position`` (scripted ``dice`` if given)."""
    if dice is not None:
        t.service.allow_scripted_dice = True
    info = await t.service.create(str(t.channel.id), str(t.alice.id), "europe1940", dice=dice,
                                  position=position)
    for p in AXIS:
        assert (await t.service.join(info.id, str(t.alice.id), p)).ok
    for p in ALLIES:
        assert (await t.service.join(info.id, str(t.bob.id), p)).ok
    assert (await t.service.start(info.id, str(t.alice.id))).ok
    return info.id
