"""A whole round of 1941 among three players entirely in the browser (issue 19, "done
means"): alice (the Axis), bob (the Soviet Union and the United Kingdom) and carol (the United
States) play on the game's web page, each in a browser of their own opened from the private
link '/game link' sent them in Discord; the game lives in a Discord channel (the offline
harness), which shows their orders and results as they are given.

The round is the first round of the local table's scripted game (tests/local/games/), its
lines typed into each seat's order box and sent by clicking, in batches by whoever holds the
power they act for. It ends in exactly the state the local table reaches. Headless Chromium
from the system's packages (tests/web/browser.py); a real web server on loopback.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cogs._follow import relay_web
from rules.position import state_json
from service.batch import BatchResult
from service.games import GameInfo
from tests.cogs.conftest import Table, answer, public
from tests.cogs.test_mail_round import batches, local_round, round_one
from tests.cogs.test_orders_help import described
from tests.web.browser import ARGS, chromium_or_skip
from web.server import WebConfig, WebServer
from web.service_links import install

BATCH = 12


async def send(page: Any, lines: list[str]) -> None:
    """Type the lines into the order box, click Send, wait for the answer; no refusal."""
    await page.fill("#free-text", "\n".join(lines))
    async with page.expect_response(lambda r: r.url.endswith("/orders")) as got:
        await page.click("#free-send")
    doc = await (await got.value).json()
    assert doc["ok"], (lines, doc)
    # The page answers in place: each accepted line in its log, the box cleared.
    await page.wait_for_function(
        "() => document.getElementById('free-text').value === ''", timeout=20_000)
    assert await page.locator("#free-refusal").is_hidden()
    logged = await page.locator("#log li code").all_text_contents()
    assert set(lines) <= set(logged), (lines, logged[:5])


async def test_a_round_of_1941_in_the_browser_with_discord_watching(
        table: Table, tmp_path: Path) -> None:
    from playwright.async_api import async_playwright

    chromium = chromium_or_skip()
    t = table
    lines, dice = round_one()
    local, powers = await local_round(lines, dice, tmp_path / "local")
    t.service.allow_scripted_dice = True

    async def after_orders(info: GameInfo, holder: str, batch: BatchResult) -> None:
        await relay_web(t.bot, info, holder, batch)

    server = WebServer(t.service, WebConfig(port=0, poll_seconds=0.2),
                       after_orders=after_orders)
    await server.start()
    install(t.service, server)
    try:
        info = await t.service.create(str(t.channel.id), str(t.alice.id), "1941", dice=dice)
        seats = {t.alice: ("Germany", "Japan"), t.bob: ("Soviet Union", "United Kingdom"),
                 t.carol: ("United States",)}
        for member, held in seats.items():
            for p in held:
                r = await member.slash(t.channel, "game join", power=p)
                assert public(r), answer(r)
        r = await t.alice.slash(t.channel, "game start")
        assert public(r), answer(r)

        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium, args=ARGS)
            pages: dict[str, Any] = {}
            holder: dict[str, str] = {}
            for member, held in seats.items():
                r = await member.slash(t.channel, "game link")
                assert public(r) is None  # the private link is sent privately
                link = re.search(rf"^{re.escape(held[0])}: (\S+)$", answer(r), re.M)
                assert link, answer(r)
                context = await browser.new_context(viewport={"width": 1400, "height": 900})
                page = await context.new_page()
                await page.goto(link.group(1))
                await page.wait_for_selector("body.ready", timeout=20_000)
                assert await page.locator("#free").is_visible()
                pages[member.name] = page
                for p in held:
                    holder[p] = member.name

            for player, _power, group in batches(lines, powers, holder, BATCH):
                await send(pages[player], group)

            # Every page shows the round's end, live.
            for page in pages.values():
                await page.wait_for_function(
                    "() => /Round 2/.test(document.getElementById('turn').textContent)",
                    timeout=20_000)
            await t.alice.slash(t.channel, "game status")  # the channel is settled
            await browser.close()
        assert state_json(await t.service.state(info.id)) == local

        # The channel saw what was done on the page, by whom, with its results.
        channel = "\n".join(described(m) for m in t.channel.history())
        assert f"🌐 <@{t.alice.id}> on the web page: `buy 2 tanks`" in channel
        assert f"🌐 <@{t.bob.id}> on the web page: `buy 2 infantry`" in channel
        assert f"🌐 <@{t.carol.id}> on the web page: `" in channel
        assert "Germany bought 2 tanks" in channel
        assert "Soviet Union bought 2 infantry (6 IPCs)." in channel
    finally:
        await server.stop()
