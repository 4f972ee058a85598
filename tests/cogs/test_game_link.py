"""`/game link` in Discord (issue 19): a seat holder's private link to the game's web page is
sent privately, never in the channel, also when the line comes in a pasted batch; the link
works, and `revoke:True` stops the links given before. The offline Discord harness and a real
web server on loopback over the same service."""

from __future__ import annotations

import re

import aiohttp

from cogs.status import status_embed
from tests.cogs.conftest import Table, answer, public, seated
from tests.cogs.test_orders_help import described, paste
from web.server import WebConfig, WebServer
from web.service_links import install

LINK = re.compile(r"http://127\.0\.0\.1:\d+/s/\S+")


async def status_of(link: str) -> int:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client, \
            client.get(link, allow_redirects=False) as r:
        return r.status


async def test_game_link_is_sent_privately_and_opens_the_seat(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "game link")
    assert public(r) is None
    assert "The game's web page is not running here" in answer(r)  # no server yet
    server = WebServer(t.service, WebConfig(port=0))
    await server.start()
    install(t.service, server)
    try:
        before = len(t.channel.history())
        r = await t.bob.slash(t.channel, "game link")
        assert public(r) is None, "a private link must never be posted in the channel"
        said = answer(r)
        assert f"The board of game g1, for anyone: {server.url}/g/g1-" in said
        links = dict(re.findall(r"^(Soviet Union|United Kingdom|United States): (\S+)$", said,
                                re.M))
        assert set(links) == {"Soviet Union", "United Kingdom", "United States"}
        assert await status_of(links["Soviet Union"]) == 303  # opens bob's seat
        assert len(t.channel.history()) == before

        # The pinned status names the live board.
        game = await t.service.game_in(str(t.channel.id))
        assert game is not None
        embed = await status_embed(t.service, game)
        assert f"**Board** {server.url}/g/g1-" in str(embed.description)

        # carol holds no seat: the public board only.
        r = await t.carol.slash(t.channel, "game link")
        assert "for anyone" in answer(r) and not LINK.search(answer(r))

        # In a pasted batch the line is accepted, its answer kept out of the channel's record.
        r, posted = await paste(t, t.bob, "game link")
        record = "\n".join(described(m) for m in posted)
        assert "game link" in record and "answered privately" in record
        assert not LINK.search(record) and "/s/" not in record
        private = "\n".join(described(m) for m in [r.response, *r.followups] if m is not None)
        assert LINK.search(private)

        # revoke: the old links stop working, new ones are given.
        r = await t.bob.slash(t.channel, "game link", revoke=True)
        assert public(r) is None
        assert "Your earlier links no longer work." in answer(r)
        new = dict(re.findall(r"^(Soviet Union): (\S+)$", answer(r), re.M))
        assert await status_of(links["Soviet Union"]) == 403
        assert await status_of(new["Soviet Union"]) == 303
        r = await t.carol.slash(t.channel, "game link", revoke=True)
        assert "Only a seat holder has links to revoke" in answer(r)
    finally:
        await server.stop()
