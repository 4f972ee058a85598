"""Screenshots of the game's web page for docs/ (``docs/images/web-*.png``).

    python -m tools.web_screenshots [--out docs/images] [--only board,builder,refusal]

Starts the real web server (``web.server.WebServer``) on 127.0.0.1 over a service on a temporary
SQLite file, plays the start of a 1941 game through the service, and photographs the page in the
system's headless Chromium (``/usr/bin/chromium``, driven by Playwright; no browser is
downloaded): ``web-board.png`` (a spectator's board with a battle, Europe enlarged),
``web-history.png`` (the board as it stood after an earlier phase),
``web-builder.png`` (a seated player building a move by clicking: units chosen, the destination
clicked on the map, the line about to be sent), ``web-refusal.png`` (an illegal move refused in
place, with the referee's reason) and ``web-phone.png`` (the page on a phone).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SHOTS = ("board", "history", "builder", "refusal", "phone")
CHANNEL = "table"

# Round 1 of 1941 up to the Soviet Union's Conduct Combat: a battle in West Russia.
OPENING = [
    ("bob", "buy 2 infantry"),
    ("bob", "end"),
    ("bob", "move 3 infantry from Karelia to West Russia"),
    ("bob", "move 2 infantry, 1 tank from Russia to West Russia"),
    ("bob", "end"),
]


async def _game(service: Any, *, opening: bool) -> str:
    r = await service.handle(CHANNEL, "alice", "game new 1941")
    assert r.ok and r.game is not None, r.error
    for p in ("Germany", "Japan"):
        assert (await service.handle(CHANNEL, "alice", f"game join {p}")).ok
    for p in ("Soviet Union", "United Kingdom", "United States"):
        assert (await service.handle(CHANNEL, "bob", f"game join {p}")).ok
    assert (await service.handle(CHANNEL, "alice", "game start")).ok
    game: str = r.game.id
    if opening:
        for who, line in OPENING:
            done = await service.handle(CHANNEL, who, line)
            assert done.ok, (line, done.error)
    return game


async def _save(page: Any, path: Path) -> None:
    """The page's screenshot as a PNG of 256 colours (a third of the size, the same to see)."""
    from io import BytesIO

    from PIL import Image

    shot = Image.open(BytesIO(await page.screenshot()))
    shot.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
                                 ).save(path, optimize=True)


async def _ready(page: Any) -> None:
    await page.wait_for_selector("body.ready", timeout=20_000)
    await page.wait_for_timeout(300)


async def shoot(out: Path, only: tuple[str, ...]) -> list[Path]:
    from playwright.async_api import async_playwright

    from db.repo import open_store
    from service.games import GameService
    from web import links as lk
    from web.server import WebConfig, WebServer

    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{Path(tmp, 'shots.sqlite3').as_posix()}")
        service = GameService(store=store)
        server = WebServer(service, WebConfig(host="127.0.0.1", port=0, poll_seconds=0.2))
        await server.start()
        try:
            game = await _game(service, opening=True)
            public = await lk.public_link(store, server.url, game)
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    if "board" in only:
                        ctx = await browser.new_context(viewport={"width": 1400, "height": 860})
                        page = await ctx.new_page()
                        await page.goto(public)
                        await _ready(page)
                        await page.select_option("#space-pick", "West Russia")
                        await page.click("#zoom-out")
                        await page.wait_for_timeout(300)
                        written.append(out / "web-board.png")
                        await _save(page, written[-1])
                        await ctx.close()
                    if "history" in only:
                        ctx = await browser.new_context(viewport={"width": 1400, "height": 860})
                        page = await ctx.new_page()
                        await page.goto(public)
                        await _ready(page)
                        await page.click("#step-back")
                        await page.wait_for_selector("#mode.past")
                        await page.click("#step-back")
                        await page.locator("#mode", has_text="Purchase").wait_for()
                        await page.select_option("#space-pick", "Karelia")
                        await page.locator("#history-panel").scroll_into_view_if_needed()
                        await page.wait_for_timeout(300)
                        written.append(out / "web-history.png")
                        await _save(page, written[-1])
                        await ctx.close()
                    if "phone" in only:
                        ctx = await browser.new_context(viewport={"width": 390, "height": 844},
                                                        device_scale_factor=2, is_mobile=True,
                                                        has_touch=True)
                        page = await ctx.new_page()
                        await page.goto(public)
                        await _ready(page)
                        written.append(out / "web-phone.png")
                        await _save(page, written[-1])
                        await ctx.close()
                    if "builder" in only or "refusal" in only:
                        # A fresh game in Combat Move, seen by bob through his private link.
                        seat_game = await _seat_game(service)
                        link = await lk.private_link(store, server.url, seat_game,
                                                     "Soviet Union", "bob")
                        ctx = await browser.new_context(viewport={"width": 1400, "height": 900})
                        page = await ctx.new_page()
                        await page.goto(link)
                        await _ready(page)
                        if "builder" in only:
                            await _build_move(page)
                            written.append(out / "web-builder.png")
                            await _save(page, written[-1])
                        if "refusal" in only:
                            await page.fill("#free-text",
                                            "move 3 infantry from Karelia to Germany")
                            await page.click("#free-send")
                            await page.wait_for_selector("#free-refusal:not([hidden])")
                            await page.locator("#free-refusal").scroll_into_view_if_needed()
                            await page.wait_for_timeout(200)
                            written.append(out / "web-refusal.png")
                            await _save(page, written[-1])
                        await ctx.close()
                finally:
                    await browser.close()
        finally:
            await server.stop()
            await store.close()
    return written


async def _seat_game(service: Any) -> str:
    chan = CHANNEL + "-seat"
    r = await service.handle(chan, "alice", "game new 1941")
    assert r.ok and r.game is not None, r.error
    for p in ("Germany", "Japan"):
        assert (await service.handle(chan, "alice", f"game join {p}")).ok
    for p in ("Soviet Union", "United Kingdom", "United States"):
        assert (await service.handle(chan, "bob", f"game join {p}")).ok
    assert (await service.handle(chan, "alice", "game start")).ok
    assert (await service.handle(chan, "bob", "buy 2 infantry")).ok
    assert (await service.handle(chan, "bob", "end")).ok
    game: str = r.game.id
    return game


async def _build_move(page: Any) -> None:
    """Karelia clicked on the map, its 3 infantry chosen, West Russia clicked as destination."""
    await page.select_option("#space-pick", "Karelia")
    await page.wait_for_selector("#move-builder:not([hidden])")
    await page.fill('#move-units input[data-unit="infantry"]', "3")
    await page.locator('#copy0 .chip[data-space="West Russia"]').first.click()
    # (No wait_for_function: it evaluates a string, which the page's CSP forbids.)
    await page.locator("#move-line", has_text="to West Russia").wait_for()
    await page.locator("#move-send").scroll_into_view_if_needed()
    await page.wait_for_timeout(200)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("docs/images"))
    ap.add_argument("--only", default=",".join(SHOTS),
                    help=f"comma-separated, of: {', '.join(SHOTS)}")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: apt-get install chromium", file=sys.stderr)
        return 1
    only = tuple(s.strip() for s in args.only.split(",") if s.strip())
    args.out.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(shoot(args.out, only)):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
