"""The world of the page's browser tests: the real web server (``web.server.WebServer``) on
127.0.0.1 over a service on a real SQLite file, and headless Chromium from the system's packages
(``/usr/bin/chromium``, Debian's ``chromium``) driven by Playwright. No browser is downloaded.

Without Chromium the tests skip with the reason, except under CI (``CI=true``), where they fail:
``.ci/run`` installs the package when it is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from db.repo import open_store
from service.games import GameService
from web import links as lk
from web.server import WebConfig, WebServer

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_or_skip() -> str:
    """The system's Chromium, else skip (fail under CI) with what to install."""
    path = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if path:
        return path
    message = ("Chromium is not installed (/usr/bin/chromium: apt-get install chromium; "
               ".ci/run does it)")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


async def launch(path: str) -> AsyncIterator[Any]:
    """A headless Chromium for a module's tests. Playwright gives it a fresh temporary profile
    (user-data-dir) of its own, removed on close; each test opens its own context (cookies)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=path, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


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
                   position: dict[str, Any] | None = None,
                   seats: dict[str, str] | None = None) -> tuple[str, str]:
        """A started 1941 game in a channel of its own, (channel, game id): alice holds the
        Axis, bob the Allies, unless ``seats`` (power: person) says otherwise."""
        self.games += 1
        chan = f"chan{self.games}"
        info = await self.service.create(chan, "alice", "1941", dice=dice, position=position)
        holders = seats or {**dict.fromkeys(AXIS, "alice"), **dict.fromkeys(ALLIES, "bob")}
        for p, who in holders.items():
            assert (await self.service.join(info.id, who, p)).ok
        r = await self.service.start(info.id, "alice")
        assert r.ok, r.error
        return chan, info.id

    async def page_url(self, game_id: str) -> str:
        return f"{self.server.url}/g/{await lk.public_key(self.service.store, game_id)}"

    async def seat_url(self, game_id: str, power: str, holder: str) -> str:
        """The private link of a seat (``/s/<token>``): opening it seats the browser."""
        return await lk.private_link(self.service.store, self.server.url, game_id, power, holder)

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


async def open_world(tmp: Path) -> AsyncIterator[World]:
    """The server over a service on a SQLite file in ``tmp``, and a browser: a module's world
    (its fixture iterates this)."""
    path = chromium_or_skip()
    store = await open_store(f"sqlite+aiosqlite:///{(tmp / 'web.sqlite3').as_posix()}")
    service = GameService(store=store, allow_scripted_dice=True)
    # Every page of a test comes from 127.0.0.1: the limit per address is raised so that three
    # players' pages (a whole round) are not taken for one greedy client.
    server = WebServer(service, WebConfig(host="127.0.0.1", port=0, poll_seconds=0.2,
                                          requests_per_minute=100_000,
                                          orders_per_minute=1_000))
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
