"""A game from a position, seated in the harness's channel: alice holds the Axis, bob the Allies
(Europe 1940's by default: the cog tests of the 1940 mechanisms start from one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.cogs.conftest import Table

AXIS = ("Germany", "Italy")
ALLIES = ("Soviet Union", "United States", "United Kingdom", "France")


async def seated(t: Table, position: dict[str, Any], dice: list[int] | None = None, *,
                 edition: str = "europe1940", axis: Sequence[str] = AXIS,
                 allies: Sequence[str] = ALLIES) -> str:
    """The game's id, started, from ``position`` (scripted ``dice`` if given, as the local
    table allows them: tests only)."""
    if dice is not None:
        t.service.allow_scripted_dice = True
    info = await t.service.create(str(t.channel.id), str(t.alice.id), edition, dice=dice,
                                  position=position)
    for p in axis:
        assert (await t.service.join(info.id, str(t.alice.id), p)).ok
    for p in allies:
        assert (await t.service.join(info.id, str(t.bob.id), p)).ok
    assert (await t.service.start(info.id, str(t.alice.id))).ok
    return info.id
