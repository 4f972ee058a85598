"""The game's page in a real browser (issue 19): headless Chromium from the system's packages,
driven by Playwright, against the real web server on 127.0.0.1 over a service on a SQLite file.

A spectator sees the board drawn from the game (a chip per power and unit type with its count,
holdings in the powers' colours) and sees a unit move when an order is given in the service,
without reloading (server-sent events). One browser serves the module; each test opens its own
context (cookies) on a game of its own.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

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


async def _view(page: Any) -> tuple[float, float, float]:
    """The board's transform: (tx, ty, k), screen = t + k * map."""
    text = await page.locator("#world").get_attribute("transform")
    m = re.fullmatch(r"translate\(([-\d.e]+) ([-\d.e]+)\) scale\(([-\d.e]+)\)", text or "")
    assert m, text
    return float(m[1]), float(m[2]), float(m[3])


async def test_zoom_and_pan_by_wheel_buttons_and_dragging(world: World) -> None:
    _, game = await world.game()
    page = await world.open(await world.page_url(game))
    try:
        box = await page.locator("#map-box").bounding_box()
        assert box is not None
        _, _, k0 = await _view(page)
        # The wheel zooms in about the pointer: the map point under it stays put.
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        await page.mouse.move(cx, cy)
        await page.mouse.wheel(0, -400)
        tx1, ty1, k1 = await _view(page)
        assert k1 > k0 * 1.5
        # Dragging pans, and selects nothing.
        await page.mouse.move(cx, cy)
        await page.mouse.down()
        await page.mouse.move(cx - 150, cy - 40, steps=5)
        await page.mouse.up()
        tx2, ty2, k2 = await _view(page)
        assert k2 == k1
        assert tx2 == pytest.approx(tx1 - 150, abs=1) or tx2 > tx1  # wrapped round the edge
        assert ty2 == pytest.approx(ty1 - 40, abs=1)
        assert await page.locator("#space-panel").is_hidden()
        # Buttons; the whole board again.
        await page.click("#zoom-out")
        assert (await _view(page))[2] == pytest.approx(k2 / 1.5)
        await page.click("#zoom-fit")
        assert (await _view(page))[2] == pytest.approx(k0)
        # 1941's board wraps east-west: copies of it either side, and a drag of a whole board
        # width brings the view back where it was.
        assert await page.locator("#copyw").count() == 1
        assert await page.locator("#copye").count() == 1
        await page.mouse.wheel(0, -400)
        before = await _view(page)
        width = board_json("1941")["size"][0] * before[2]
        for _ in range(4):
            await page.mouse.move(cx + width / 8, cy)
            await page.mouse.down()
            await page.mouse.move(cx - width / 8, cy, steps=4)
            await page.mouse.up()
        after = await _view(page)
        assert after[0] == pytest.approx(before[0], abs=2)
        assert page.errors == []
    finally:
        await page.context.close()


async def test_battles_odds_history_and_walking_back_through_it(world: World) -> None:
    chan, game = await world.game()
    for line in ("buy 2 infantry", "end", "move 3 infantry from Karelia to West Russia", "end"):
        r = await world.service.handle(chan, "bob", line)
        assert r.ok, (line, r.error)
    page = await world.open(await world.page_url(game))
    try:
        # The open battle: outlined and marked on the board, its battle board and its odds.
        await page.locator('#copy0 .marker.battle[data-space="West Russia"]').wait_for()
        battle = page.locator('#battles article[data-space="West Russia"]')
        await battle.wait_for()
        img = battle.locator("img.battle-img")
        for _ in range(100):  # (wait_for_function evaluates a string: the page's CSP forbids it)
            if await img.evaluate("i => i.complete && i.naturalWidth > 0"):
                break
            await asyncio.sleep(0.1)
        assert await img.evaluate("i => i.naturalWidth") > 100
        assert "battle.png?space=West%20Russia" in (await img.get_attribute("src") or "")
        await battle.locator("button", has_text="Odds").click()
        odds = battle.locator(".odds dl")
        await odds.wait_for(timeout=30_000)
        assert "attacker wins" in await odds.inner_text()
        assert await battle.locator(".odds-bar rect").count() == 3
        # The history: what happened, newest first.
        history = page.locator("#history")
        assert "bought 2 infantry" in await history.inner_text()
        # Back to the end of Combat Move, then of Purchase: Karelia's infantry at home again.
        karelia = page.locator(chip("Karelia", "infantry", "Soviet Union"))
        assert await karelia.count() == 0
        await page.click("#step-back")
        await page.locator("#mode.past").wait_for()
        assert "Combat Move" in await page.locator("#mode").inner_text()
        await page.click("#step-back")
        await karelia.wait_for()
        mode = await page.locator("#mode").inner_text()
        assert mode.startswith("Viewing") and "Purchase" in mode, mode
        assert await karelia.get_attribute("data-count") == "3"
        # The game goes on meanwhile: the past stays shown, and the page says so.
        r = await world.service.handle(chan, "bob", "battle West Russia")
        assert r.ok, r.error
        await page.locator("#mode", has_text="moved on").wait_for(timeout=15_000)
        assert await karelia.get_attribute("data-count") == "3"
        # Back to live.
        await page.locator("#mode button", has_text="Back to live").click()
        await page.locator("#mode.live").wait_for()
        await karelia.wait_for(state="detached")
        # The record, one click away.
        for link, path in (("#export-link", "/export.json"), ("#verify-link", "/verify.txt")):
            href = await page.locator(link).get_attribute("href")
            assert href is not None and href.endswith(path)
            assert (await page.request.get(page.url + path)).status == 200
        assert page.errors == []
    finally:
        await page.context.close()


async def test_pinch_zooms_on_a_touch_screen(world: World) -> None:
    _, game = await world.game()
    context = await world.browser.new_context(viewport={"width": 390, "height": 844},
                                              has_touch=True, is_mobile=True)
    page = await context.new_page()
    try:
        await page.goto(await world.page_url(game))
        await page.wait_for_selector("body.ready")
        box = await page.locator("#map-box").bounding_box()
        assert box is not None
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        _, _, k0 = await _view(page)
        cdp = await context.new_cdp_session(page)

        async def touch(kind: str, points: list[tuple[float, float]]) -> None:
            await cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

        # Two fingers from 40 to 220 pixels apart: the board 5.5 times larger.
        await touch("touchStart", [(cx - 20, cy), (cx + 20, cy)])
        for d in range(30, 120, 10):
            await touch("touchMove", [(cx - d, cy), (cx + d, cy)])
        await touch("touchEnd", [])
        _, _, k1 = await _view(page)
        assert k1 == pytest.approx(k0 * 5.5, rel=0.05)
        assert await page.locator("#space-panel").is_hidden()  # a pinch selects nothing
    finally:
        await context.close()
