from __future__ import annotations

from tests.cogs.conftest import Table, seated


async def test_new_game_join_start(table: Table) -> None:
    await seated(table)
    r = await table.bob.slash(table.channel, "buy", units="2 infantry")
    print(r.response.content, r.response.embeds[0].description if r.response.embeds else None)
    assert not r.ephemeral
