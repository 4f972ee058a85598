"""The web server over PostgreSQL where races matter: two servers (two processes' worth: two
services, two stores) over one database take the same seat's orders at the same moment; the
store's compare-and-set lets exactly one of two purchases that cannot both be paid win."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.engine import make_url

from rules import events as ev
from tests.db.conftest import PG_ADMIN, _admin, _unreachable
from tests.web.server_world import Web, boot_of, close_web, open_web, started
from web.server import WebConfig, WebServer

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pg() -> AsyncIterator[str]:
    """A fresh PostgreSQL database of its own (the service migrates it), dropped afterwards."""
    name = f"umpire_web_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    try:
        await _admin(f'CREATE DATABASE "{name}"')
    except Exception as e:  # asyncpg raises its own errors for auth and the like
        _unreachable(f"{type(e).__name__}: {e}")
    url = make_url(PG_ADMIN).set(drivername="postgresql+asyncpg", database=name)
    yield url.render_as_string(hide_password=False)
    await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_two_servers_racing_for_the_same_ipcs_exactly_one_wins(pg: str) -> None:
    w: Web = await open_web(pg)
    other = await w.other()
    second = WebServer(other, WebConfig(port=0, poll_seconds=0.2))
    await second.start()
    try:
        gid = await started(w.service)
        key = await w.key(gid)
        link = await w.server.seat_link(gid, "Soviet Union")
        status, _, _ = await w.get(link[len(w.url):])
        assert status == 303
        csrf = boot_of((await w.get(f"/g/{key}"))[2])["csrf"]
        cookies = {c.key: c.value for c in w.client.cookie_jar}

        async def buy(base: str) -> dict[str, object]:
            async with w.client.post(f"{base}/g/{key}/orders", cookies=cookies,
                                     json={"lines": "buy 1 tank", "csrf": csrf}) as r:
                assert r.status == 200, await r.text()
                got: dict[str, object] = json.loads(await r.text())
                return got

        for _ in range(3):  # a few rounds of the race: each time one tank, never two
            got = await asyncio.gather(buy(w.url), buy(second.url))
            assert sorted(bool(g["ok"]) for g in got) == [False, True], got
            loser = next(g for g in got if not g["ok"])
            # Refused by the rules (the other was written first) or by the store's
            # compare-and-set (both read the same head): in words either way, nothing written.
            said = str(loser["error"])
            assert ("1 tank costs 6 IPCs; Soviet Union has 1" in said
                    or ("The game moved on" in said and "nothing was written" in said)), said
            assert (await w.service.state(gid)).purchase == {"tank": 1}
            assert (await other.state(gid)).purchase == {"tank": 1}
            r = await w.service.handle("c1", "bob", "buy clear")  # for the next round
            assert r.ok, r.error
        bought = [s.event for s in await w.service.store.load_events(gid)
                  if isinstance(s.event, ev.UnitsPurchased)]
        assert len(bought) == 3
    finally:
        await second.stop()
        await other.store.close()  # type: ignore[attr-defined]
        await close_web(w)
