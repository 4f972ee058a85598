"""The game's page in a real browser (issue 19): headless Chromium from the system's packages,
driven by Playwright, against the real web server on 127.0.0.1 over a service on a SQLite file.

A spectator sees the board drawn from the game (a chip per power and unit type with its count,
holdings in the powers' colours) and sees a unit move when an order is given in the service,
without reloading (server-sent events). One browser serves the module; each test opens its own
context (cookies) on a game of its own.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from db.repo import open_store
from service.games import GameService
from tests.web.browser import chromium_or_skip, launch
from web import links as lk
from web.board_data import board_json
from web.server import WebConfig, WebServer

pytestmark = pytest.mark.asyncio(loop_scope="module")

AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")


class World:
    """The server, its service and the browser of a module."""

    def __init__(self, service: GameService, server: WebServer, browser: Any) -> None:
        self.service = service
        self.server = server
        self.browser = browser
        self.games = 0

    async def game(self, *, dice: list[int] | None = None,
                   position: dict[str, Any] | None = None) -> tuple[str, str]:
        """A started 1941 game (alice the Axis, bob the Allies) in a channel of its own:
        (channel, game id)."""
        self.games += 1
        chan = f"chan{self.games}"
        info = await self.service.create(chan, "alice", "1941", dice=dice, position=position)
        for p in AXIS:
            assert (await self.service.join(info.id, "alice", p)).ok
        for p in ALLIES:
            assert (await self.service.join(info.id, "bob", p)).ok
        r = await self.service.start(info.id, "alice")
        assert r.ok, r.error
        return chan, info.id

    async def page_url(self, game_id: str) -> str:
        return f"{self.server.url}/g/{await lk.public_key(self.service.store, game_id)}"

    async def open(self, url: str) -> Any:
        """A fresh context (no cookies) with a desktop-sized page at ``url``, the board drawn.
        The page's errors fail the test."""
        context = await self.browser.new_context(viewport={"width": 1400, "height": 900})
        page = await context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error"
                and "Content-Security-Policy" in m.text else None)
        page.errors = errors
        await page.goto(url)
        await page.wait_for_selector("body.ready", timeout=20_000)
        return page


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    path = chromium_or_skip()
    tmp: Path = tmp_path_factory.mktemp("browser")
    store = await open_store(f"sqlite+aiosqlite:///{(tmp / 'web.sqlite3').as_posix()}")
    service = GameService(store=store, allow_scripted_dice=True)
    server = WebServer(service, WebConfig(host="127.0.0.1", port=0, poll_seconds=0.2))
    await server.start()
    try:
        async for browser in launch(path):
            yield World(service, server, browser)
    finally:
        await server.stop()
        await store.close()


def chip(space: str, unit: str, power: str) -> str:
    """The selector of a chip on the board itself (not its copies across the wrap)."""
    return (f'#copy0 .chip[data-space="{space}"][data-unit="{unit}"]'
            f'[data-power="{power}"]:not(.moved)')


async def test_the_board_shows_holdings_and_units(world: World) -> None:
    _, game = await world.game()
    page = await world.open(await world.page_url(game))
    try:
        germany = page.locator(chip("Germany", "infantry", "Germany"))
        await germany.wait_for()
        assert await germany.get_attribute("data-count") == "3"
        assert (await germany.locator("text.count").text_content()) == "3"
        # The pictogram is the board's icon, drawn in the power's text colour on its ink.
        board = board_json("1941")
        use = germany.locator("use")
        assert await use.get_attribute("href") == "#icon-infantry"
        icon = page.locator("#icon-infantry path")
        assert await icon.get_attribute("d") == board["units"]["infantry"]["icon"]
        rect = germany.locator("rect")
        assert await rect.get_attribute("fill") == board["powers"]["Germany"]["edge"]
        # Holdings in the images' fills; sea zones in water.
        fill = await page.locator('#copy0 path.space[data-space="Germany"]').get_attribute("fill")
        assert fill == board["powers"]["Germany"]["fill"]
        karelia = page.locator('#copy0 path.space[data-space="Karelia"]')
        assert await karelia.get_attribute("fill") == board["powers"]["Soviet Union"]["fill"]
        sea = await page.locator('#copy0 path.space[data-space="Sea Zone 5"]').get_attribute("fill")
        assert sea == board["sea"]["fill"]
        # The status: round, power, phase and whom the game waits for.
        status = await page.locator("#status-facts").inner_text()
        assert "Soviet Union" in status and "Purchase" in status and "bob" in status
        assert await page.locator("#mode").inner_text() == "Live"
        assert page.errors == []
    finally:
        await page.context.close()


async def test_a_move_in_the_service_shows_without_reloading(world: World) -> None:
    chan, game = await world.game()
    page = await world.open(await world.page_url(game))
    try:
        karelia = page.locator(chip("Karelia", "infantry", "Soviet Union"))
        assert await karelia.get_attribute("data-count") == "3"
        soviets = '#copy0 .chip[data-space="West Russia"][data-power="Soviet Union"]'
        assert await page.locator(soviets).count() == 0
        nav = await page.evaluate("performance.getEntriesByType('navigation').length")
        assert (await world.service.handle(chan, "bob", "end confirm")).ok
        r = await world.service.handle(chan, "bob", "move 3 infantry from Karelia to West Russia")
        assert r.ok, r.error
        moved = page.locator(soviets + '.moved[data-unit="infantry"]')
        await moved.wait_for(timeout=15_000)
        assert await moved.get_attribute("data-count") == "3"
        await karelia.wait_for(state="detached")
        phase = await page.locator("#turn").inner_text()
        assert "Combat Move" in phase
        # The same page: no navigation happened.
        assert await page.evaluate("performance.getEntriesByType('navigation').length") == nav
        assert await page.evaluate("document.querySelector('#map').dataset.seq") == str(
            json.loads(await (await page.request.get(
                page.url + "/state.json")).text())["head"]["seq"])
        assert page.errors == []
    finally:
        await page.context.close()
