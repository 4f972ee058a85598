"""The world of the web server's tests: a real aiohttp server on 127.0.0.1 (port 0) over a
service on a real SQLite file (or PostgreSQL), with a started 1941 game, and a real HTTP client.

alice holds the Axis, bob the Allies. The second service (``other``) opens the same database
as another process would.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from db.repo import SqlStore, open_store
from service.games import GameService
from web import links as lk
from web.server import WebConfig, WebServer

SECRET = bytes(range(32))
CHANNEL = "c1"
AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")


def service_over(store: SqlStore, dice: Sequence[int] | None = None) -> GameService:
    return GameService(store=store, draw_secret=lambda: SECRET,
                       scripted_dice=list(dice) if dice else None,
                       allow_scripted_dice=dice is not None)


async def started(s: GameService, *, alice: str = "alice", bob: str = "bob",
                  edition: str = "1941") -> str:
    r = await s.handle(CHANNEL, alice, f"game new {edition}")
    assert r.ok and r.game is not None, r.error
    for p in AXIS:
        assert (await s.handle(CHANNEL, alice, f"game join {p}")).ok
    for p in ALLIES:
        assert (await s.handle(CHANNEL, bob, f"game join {p}")).ok
    r = await s.handle(CHANNEL, alice, "game start")
    assert r.ok, r.error
    return r.game.id if r.game else ""


@dataclass
class Web:
    """A running server and a client; ``get``/``post`` return (status, headers, body)."""

    service: GameService
    server: WebServer
    client: aiohttp.ClientSession
    url_db: str

    @property
    def url(self) -> str:
        return self.server.url

    async def key(self, game_id: str) -> str:
        return await lk.public_key(self.service.store, game_id)

    async def get(self, path: str, **kw: Any) -> tuple[int, Any, str]:
        async with self.client.get(self.url + path, allow_redirects=False, **kw) as r:
            return r.status, r.headers, await r.text()

    async def get_json(self, path: str, **kw: Any) -> Any:
        status, _, body = await self.get(path, **kw)
        assert status == 200, (status, body)
        return json.loads(body)

    async def post(self, path: str, **kw: Any) -> tuple[int, Any, str]:
        async with self.client.post(self.url + path, allow_redirects=False, **kw) as r:
            return r.status, r.headers, await r.text()

    async def other(self) -> GameService:
        """A second service over the same database: another process."""
        return service_over(await open_store(self.url_db))


async def open_web(url_db: str, *, config: WebConfig | None = None,
                   dice: Sequence[int] | None = None) -> Web:
    store = await open_store(url_db)
    service = service_over(store, dice)
    server = WebServer(service, config or WebConfig(host="127.0.0.1", port=0,
                                                    poll_seconds=0.2))
    await server.start()
    jar = aiohttp.CookieJar(unsafe=True)  # cookies for 127.0.0.1 (an address, not a name)
    client = aiohttp.ClientSession(cookie_jar=jar)
    return Web(service, server, client, url_db)


async def close_web(w: Web) -> None:
    await w.client.close()
    await w.server.stop()
    await w.service.store.close()  # type: ignore[attr-defined]


def sqlite_url(tmp: Path) -> str:
    return f"sqlite+aiosqlite:///{(tmp / 'web.sqlite3').as_posix()}"


def boot_of(page: str) -> Any:
    m = re.search(r'<script type="application/json" id="boot">(.*?)</script>', page, re.S)
    assert m, page[:500]
    return json.loads(m.group(1))


async def next_head(resp: aiohttp.ClientResponse, timeout: float = 60) -> dict[str, Any]:
    """The next ``head`` event of a server-sent event stream."""
    async def read() -> dict[str, Any]:
        event = None
        while True:
            line = (await resp.content.readline()).decode()
            assert line, "the stream ended"
            line = line.rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "head":
                got: dict[str, Any] = json.loads(line[6:])
                return got

    return await asyncio.wait_for(read(), timeout)
