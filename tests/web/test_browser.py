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

import pytest
import pytest_asyncio

from tests.web.browser import World, chip, open_world
from web.board_data import board_json

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async for w in open_world(tmp_path_factory.mktemp("browser")):
        yield w


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
