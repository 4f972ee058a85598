"""`python bot.py --local --web`: the local table with the games' web pages beside it
(issue 19). The table reads its lines in a thread, so the page is served while it waits for
the next one; '<name>: game link' gives the board's address and that player's private link.
A real server on loopback; the 'player' fetches the links while the table waits for input."""

from __future__ import annotations

import http.cookiejar
import io
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

from bot import build_parser, local_web
from local.table import EXIT_OK, EXIT_USAGE, run_table

LINES = [
    "alice: game new 1941",
    "alice: game join Germany",
    "alice: game join Japan",
    "bob: game join Soviet Union",
    "bob: game join United Kingdom",
    "bob: game join United States",
    "alice: game start",
    "bob: game link",
]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kw: object) -> None:
        return None


class Player(io.StringIO):
    """Standard input that, once the table has answered every line, opens the links the
    table printed, as a person would in a browser, before giving the table its last line.
    It is read in the table's reading thread, so it blocks only that thread."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.todo = list(LINES)
        self.seen: dict[str, int] = {}

    def readline(self, size: int | None = -1) -> str:
        if self.todo:
            return self.todo.pop(0) + "\n"
        if not self.seen:
            text = self.out.getvalue()
            board = re.search(r"for anyone: (http://127\.0\.0\.1:\d+/g/\S+)", text)
            private = re.search(r"^Soviet Union: (http://\S+/s/\S+)$", text, re.M)
            assert board and private, text
            opener = urllib.request.build_opener(_NoRedirect)
            for name, url in (("board", board.group(1)), ("private", private.group(1))):
                try:
                    with opener.open(url, timeout=30) as r:
                        self.seen[name] = r.status
                except urllib.error.HTTPError as e:
                    self.seen[name] = e.code
            # bob plays on the page: his session (the private link's cookie) sends an order.
            browser = urllib.request.build_opener(
                urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            with browser.open(private.group(1), timeout=30) as r:
                page = r.url
            with browser.open(page + "/seat.json", timeout=30) as r:
                csrf = json.load(r)["csrf"]
            ask = urllib.request.Request(
                page + "/orders", data=json.dumps({"lines": "buy 1 infantry"}).encode(), method="POST",
                headers={"Content-Type": "application/json", "X-CSRF-Token": csrf})
            with browser.open(ask, timeout=30) as r:
                self.seen["order"] = json.load(r)["ok"]
            return "quit\n"
        return ""


def test_the_local_table_serves_the_web_pages_while_it_waits(tmp_path: Path) -> None:
    import asyncio

    args = build_parser().parse_args(["--local", "--web", "--web-port", "0", "--no-images"])
    out, err = io.StringIO(), io.StringIO()
    player = Player(out)
    code = asyncio.run(run_table(args, player, out, err, out_dir=tmp_path, web=local_web))
    assert code == EXIT_OK, err.getvalue()
    text = out.getvalue()
    assert re.search(r"^Web pages at http://127\.0\.0\.1:\d+: '<name>: game link' gives", text,
                     re.M), text
    assert "Your private link to play" in text
    # Both opened while the table was waiting for its next line, and bob's order from the
    # page was applied and told at the table.
    assert player.seen == {"board": 200, "private": 303, "order": True}
    assert "bob on the web page: buy 1 infantry\nSoviet Union bought 1 infantry (3 IPCs)." in text


def test_web_needs_the_bots_entry_point(tmp_path: Path) -> None:
    import asyncio

    args = build_parser().parse_args(["--local", "--web"])
    err = io.StringIO()
    code = asyncio.run(run_table(args, io.StringIO(""), io.StringIO(), err, out_dir=tmp_path))
    assert code == EXIT_USAGE
    assert "python bot.py --local --web" in err.getvalue()
