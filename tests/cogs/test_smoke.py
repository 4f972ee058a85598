from __future__ import annotations

from tests.cogs.conftest import Table, answer, public, seated


async def test_new_game_join_start(table: Table) -> None:
    await seated(table)
    r = await table.bob.slash(table.channel, "buy", units="2 infantry")
    print(answer(r), public(r).embeds[0].description if public(r).embeds else None)
    assert public(r)
