"""The web page by mail (issue 19): with the web server running beside the gateway, each report
names the live board, and 'game link' mails a seat holder their private link, to their own
address only. Real SMTP both ways (tests/mail/world.py) and a real web server on loopback."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.mail.test_gateway import ALICE, BOB, seated
from tests.mail.world import World, close_world, game, open_world, text
from web.server import WebConfig, WebServer
from web.service_links import install


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    w = await open_world(tmp_path)
    server = WebServer(w.service, WebConfig(port=0))
    await server.start()
    install(w.service, server)
    yield w
    await server.stop()
    await close_world(w)


async def test_reports_name_the_board_and_game_link_mails_the_private_link(
        world: World) -> None:
    w = world
    gid = await seated(w)
    report = text(w.report(BOB))
    board = re.search(r"The board, live: (http://127\.0\.0\.1:\d+/g/(\S+)) ", report)
    assert board and board.group(2).startswith(f"{gid}-"), report
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        async with client.get(board.group(1)) as r:
            assert r.status == 200
        sent_to_alice = len(w.catcher.to(ALICE))
        await w.mail(BOB, game(gid), "game link")
        said = w.said(BOB)
        private = re.search(r"^\s*Soviet Union: (http://\S+/s/\S+)$", said, re.M)
        assert private, said
        # To bob alone: alice is not mailed his link.
        assert all(private.group(1) not in text(m) for m in w.catcher.to(ALICE)[sent_to_alice:])
        async with client.get(private.group(1), allow_redirects=False) as r:
            assert r.status == 303 and r.headers["Location"] == f"/g/{board.group(2)}"
        # Revoking changes the links: it acts for the seat, so it needs the seat's token.
        await w.mail(BOB, game(gid), "game link revoke")
        assert "Refused: no token" in w.said(BOB)
        async with client.get(private.group(1), allow_redirects=False) as r:
            assert r.status == 303
