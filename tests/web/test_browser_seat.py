"""A seated player's orders on the game's page, in a real browser (issue 19): headless
Chromium from the system's packages, driven by Playwright, against the real web server.

The player opens their private link; a move is built by clicking (a space's units on the map,
how many, the destination clicked on the map) and the line it will send is shown before it is
sent; an owed casualty decision is answered with a choice the bot offers; an illegal order's
refusal is shown where it was given, with the referee's reason, and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from rules.engine import pending
from tests.web.browser import World, chip, open_world

pytestmark = pytest.mark.asyncio(loop_scope="module")

# Germany attacks Ukraine in Combat Move of round 1 (tests/service/test_games.py's position).
POSITION: dict[str, Any] = {
    "edition": "1941",
    "round": 1,
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 1, "tank": 1}},
        "Eastern Europe": {"Germany": {"infantry": 2, "tank": 1}},
    },
}
ATTACK = "move 2 infantry, 1 tank from Eastern Europe to Ukraine"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[World]:
    async for w in open_world(tmp_path_factory.mktemp("browser-seat")):
        yield w


async def soviet_combat_move(world: World) -> tuple[str, str, Any]:
    """A game in the Soviet Union's Combat Move, and bob's page through his private link."""
    chan, game = await world.game()
    assert (await world.service.handle(chan, "bob", "end confirm")).ok
    page = await world.open(await world.seat_url(game, "Soviet Union", "bob"))
    await page.locator("#seat-panel").wait_for()
    return chan, game, page


async def test_a_move_built_by_clicking_is_shown_then_sent(world: World) -> None:
    _, game, page = await soviet_combat_move(world)
    try:
        assert "Soviet Union to act" in await page.locator("#seat-who").inner_text()
        # Karelia's infantry clicked on the map: its panel and the move builder open.
        await page.locator(chip("Karelia", "infantry", "Soviet Union")).click()
        await page.locator("#move-builder").wait_for()
        assert await page.locator("#move-from").inner_text() == "Karelia"
        await page.fill('#move-units input[data-unit="infantry"]', "3")
        # The destination clicked on the map: West Russia (Germany's infantry there).
        await page.locator(chip("West Russia", "infantry", "Germany")).click()
        assert await page.locator("#move-to").input_value() == "West Russia"
        line = "move 3 infantry from Karelia to West Russia"
        assert await page.locator("#move-line").inner_text() == line
        await page.click("#move-send")
        moved = page.locator('#copy0 .chip.moved[data-space="West Russia"]'
                             '[data-power="Soviet Union"][data-unit="infantry"]')
        await moved.wait_for(timeout=15_000)
        assert await moved.get_attribute("data-count") == "3"
        await page.locator(chip("Karelia", "infantry", "Soviet Union")).wait_for(
            state="detached")
        log = page.locator("#log li.log-accepted")
        await log.first.wait_for()
        assert await log.first.locator("code").inner_text() == line
        assert "Soviet Union moved 3 infantry" in await log.first.inner_text()
        # The order went through the service, as Discord's and mail's do.
        state = await world.service.state(game)
        assert sum(1 for u in state.units_in("West Russia")
                   if u.owner == "Soviet Union" and u.type == "infantry") == 3
        assert page.errors == []
    finally:
        await page.context.close()


async def test_an_owed_casualty_decision_is_answered_with_an_offered_choice(
        world: World) -> None:
    chan, game = await world.game(dice=[3, 4, 6, 2, 5, 1, 1, 1], position=POSITION)
    for line in (ATTACK, "end", "battle Ukraine"):
        r = await world.service.handle(chan, "alice", line)
        assert r.ok, (line, r.error)
    page = await world.open(await world.seat_url(game, "Soviet Union", "bob"))
    try:
        decisions = page.locator("#decisions")
        await decisions.wait_for()
        assert "casualties" in (await decisions.inner_text()).lower()
        assert "Ukraine" in await decisions.inner_text()
        choices = page.locator("#decision-list input[type=radio]")
        offered = [await choices.nth(i).get_attribute("value")
                   for i in range(await choices.count())]
        assert "casualties Ukraine 1 infantry" in offered, offered
        assert await page.locator("#decision-send").is_disabled()
        # The choice's label is clicked; the line it sends is shown first.
        i = offered.index("casualties Ukraine 1 infantry")
        await page.locator(f'label[for="{await choices.nth(i).get_attribute("id")}"]').click()
        assert await page.locator("#decision-line").inner_text() == offered[i]
        await page.click("#decision-send")
        log = page.locator("#log li.log-accepted")
        await log.first.wait_for(timeout=15_000)
        assert await log.first.locator("code").inner_text() == offered[i]
        await decisions.wait_for(state="hidden")
        # The service took it: the Soviet Union owes nothing more; Germany's casualties next.
        state = await world.service.state(game)
        owed = [(p.power, p.what) for p in pending(state)]
        assert not any(power == "Soviet Union" for power, _ in owed), owed
        assert any(power == "Germany" and "casualties" in what for power, what in owed), owed
        assert page.errors == []
    finally:
        await page.context.close()


async def test_an_illegal_move_is_refused_in_place_with_the_referees_reason(
        world: World) -> None:
    chan, game, page = await soviet_combat_move(world)
    try:
        line = "move 3 infantry from Karelia to Germany"
        # What the referee says to this line (it changes nothing: it is refused).
        said = await world.service.handle(chan, "bob", line)
        assert not said.ok and said.error
        before = len(await world.service.store.load_events(game))
        await page.fill("#free-text", line)
        await page.click("#free-send")
        refusal = page.locator("#free-refusal")
        await refusal.wait_for(timeout=15_000)
        text = await refusal.inner_text()
        assert text.startswith(f"Refused: {line}: ")
        assert said.error.splitlines()[0] in text
        # Near the box it was typed in, and nothing changed on the board or in the log.
        box = await page.locator("#free").bounding_box()
        shown = await refusal.bounding_box()
        assert box is not None and shown is not None
        assert box["y"] <= shown["y"] <= box["y"] + box["height"]
        assert await page.locator(chip("Karelia", "infantry", "Soviet Union")).get_attribute(
            "data-count") == "3"
        assert len(await world.service.store.load_events(game)) == before
        assert await page.locator("#log li").count() == 0
        assert await page.locator("#free-text").input_value() == line  # kept, to fix
        assert page.errors == []
    finally:
        await page.context.close()


async def test_the_seat_is_found_when_the_page_came_without_it(world: World) -> None:
    """A private link opened from Discord or a mail program is a cross-site navigation: the
    page that follows its redirect comes without the session's seat and CSRF token (the
    SameSite=Strict cookie is not sent with it). The page asks seat.json, finds the seat, and
    orders go with seat.json's token. (Playwright navigates directly, so the page's boot data is
    stripped here as the browser's first load would have it.)"""
    chan, game = await world.game()
    assert (await world.service.handle(chan, "bob", "end confirm")).ok
    context = await world.browser.new_context(viewport={"width": 1400, "height": 900})
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        await page.goto(await world.seat_url(game, "Soviet Union", "bob"))  # the cookie
        await page.wait_for_selector("body.ready")

        async def strip(route: Any) -> None:
            response = await route.fetch()
            body = await response.text()
            body = re.sub(r'"csrf":"[^"]*"', '"csrf":null', body)
            body = re.sub(r'"seat":\{[^}]*\}', '"seat":null', body)
            await route.fulfill(response=response, body=body)

        await page.route(re.compile(r".*/g/[^/?]+$"), strip)
        await page.reload()
        await page.wait_for_selector("body.ready")
        boot = await page.evaluate("JSON.parse(document.getElementById('boot').textContent)")
        assert boot["seat"] is None and boot["csrf"] is None
        await page.locator("#seat-panel").wait_for()
        assert "bob" in await page.locator("#seat-who").inner_text()
        line = "move 3 infantry from Karelia to West Russia"
        await page.fill("#free-text", line)
        await page.click("#free-send")
        await page.locator("#log li.log-accepted").first.wait_for(timeout=15_000)
        assert await page.locator("#free-refusal").is_hidden()
        assert errors == []
    finally:
        await context.close()


async def test_a_spectator_gets_no_orders(world: World) -> None:
    _, game = await world.game()
    page = await world.open(await world.page_url(game))
    try:
        await page.locator("#status-facts").wait_for()
        await page.locator(chip("Karelia", "infantry", "Soviet Union")).click()
        await page.locator("#space-panel").wait_for()
        assert await page.locator("#seat-panel").is_hidden()
        assert await page.locator("#move-builder").is_hidden()
        assert page.errors == []
    finally:
        await page.context.close()
