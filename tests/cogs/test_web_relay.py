"""Orders given on the game's web page appear in its Discord channel like any other (issue 19):
the web server's ``after_orders`` hook posts them (``cogs._follow.relay_web``), then the
follow-up (waits, menus, the status message). The offline Discord harness and a real web
server on loopback over the same service."""

from __future__ import annotations

import json

import aiohttp

from cogs._follow import relay_web
from service.batch import BatchResult
from service.games import GameInfo
from tests.cogs.conftest import Table, seated
from tests.cogs.test_orders_help import described
from web.links import public_key
from web.server import WebConfig, WebServer


async def test_orders_given_on_the_web_page_are_posted_in_the_channel(table: Table) -> None:
    t = table
    await seated(t)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None

    async def after_orders(info: GameInfo, person: str, batch: BatchResult) -> None:
        await relay_web(t.bot, info, person, batch)

    server = WebServer(t.service, WebConfig(port=0), after_orders=after_orders)
    await server.start()
    try:
        link = await server.seat_link(game.id, "Soviet Union")
        key = await public_key(t.service.store, game.id)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
            async with client.get(link, allow_redirects=False) as r:
                assert r.status == 303
            async with client.get(f"{server.url}/g/{key}/seat.json") as r:
                csrf = (await r.json())["csrf"]
            async with client.post(f"{server.url}/g/{key}/orders",
                                   json={"lines": "buy 1 infantry", "csrf": csrf}) as r:
                got = json.loads(await r.text())
        assert got["ok"], got
        seen = "\n".join(described(m) for m in t.channel.history())
        assert f"🌐 <@{t.bob.id}> on the web page: `buy 1 infantry`" in seen
        assert "Soviet Union bought 1 infantry (3 IPCs)." in seen
    finally:
        await server.stop()
