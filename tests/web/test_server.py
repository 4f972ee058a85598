"""The web server end to end: a real aiohttp server on loopback over a real SQLite file, a
real HTTP client; assertions on what a person's browser gets (status, headers, the page's boot
JSON, the state's JSON and the live stream)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.web.server_world import (
    Web,
    boot_of,
    close_web,
    next_head,
    open_web,
    sqlite_url,
    started,
)
from web import api
from web.security import CSP


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[Web]:
    web = await open_web(sqlite_url(tmp_path))
    yield web
    await close_web(web)


async def test_public_page_carries_the_boot_json_and_the_security_headers(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    assert key.startswith(f"{gid}-") and len(key) > len(gid) + 10
    status, headers, page = await w.get(f"/g/{key}")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert headers["Content-Security-Policy"] == CSP
    assert "script-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    boot = boot_of(page)
    assert boot["game"] == gid and boot["edition"] == "a1941" and boot["api"] == f"/g/{key}"
    assert boot["seat"] is None and boot["csrf"] is None
    assert boot["static"].startswith("/static/") and boot["static"].endswith("/")
    assert "1941" in boot["title"] or "Axis" in boot["title"]


def test_the_boot_json_cannot_break_out_of_its_script_element() -> None:
    text = api.boot_json({"holder": "</script><script>alert(1)</script> & <!--", "x": "\u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text)["holder"] == "</script><script>alert(1)</script> & <!--"


async def test_a_forged_or_bare_key_finds_no_game(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    forged = key[:-3] + ("aaa" if not key.endswith("aaa") else "bbb")
    for path in (f"/g/{forged}", f"/g/{gid}", f"/g/{forged}/state.json", "/g/g999-abcdef"):
        status, headers, body = await w.get(path)
        assert status == 404, path
        assert "No game at this address: check the link" in body
        assert headers["Content-Security-Policy"] == CSP


async def test_state_json_tells_the_game_as_it_stands(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    s = await w.get_json(f"/g/{key}/state.json")
    assert s["at"] is None and s["round"] == 1 and s["power"] == "Soviet Union"
    assert s["phase_name"] == "Purchase Units" and s["phase"] == "purchase"
    assert s["waiting"][0]["power"] == "Soviet Union" and s["waiting"][0]["holder"] == "bob"
    assert s["ipcs"]["Soviet Union"] == 7 and s["owners"]["Germany"] == "Germany"
    assert any(u["type"] == "infantry" and u["power"] == "Germany" and u["count"] >= 1
               for u in s["units"]["Germany"])
    assert s["status"][0].startswith("Round 1, Soviet Union")
    assert s["finished"] is False and s["winner"] is None and s["battles"] == []
    assert s["head"]["seq"] > 0 and len(s["head"]["hash"]) >= 8


async def test_state_at_a_past_event_shows_the_board_as_it_stood(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    before = await w.get_json(f"/g/{key}/state.json")
    r = await w.service.handle("c1", "bob", "buy 1 tank")
    assert r.ok, r.error
    now = await w.get_json(f"/g/{key}/state.json")
    assert now["head"]["seq"] > before["head"]["seq"]
    then = await w.get_json(f"/g/{key}/state.json?at={before['head']['seq']}")
    assert then["at"] == before["head"]["seq"] and then["head"] == before["head"]
    assert then["units"] == before["units"] and then["status"] == before["status"]
    assert any("tank" in line for line in now["status"] if line.startswith("Bought"))
    assert not any(line.startswith("Bought") for line in then["status"])
    status, _, body = await w.get(f"/g/{key}/state.json?at=99999")
    assert status == 400 and "?at= takes 0 to" in body
    status, _, body = await w.get(f"/g/{key}/state.json?at=x")
    assert status == 400 and "event number" in body


async def test_board_json_is_cacheable(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    status, headers, body = await w.get(f"/g/{key}/board.json")
    assert status == 200
    board = json.loads(body)
    assert board["size"][0] > 0 and "Germany" in board["spaces"]
    assert board["spaces"]["Germany"]["polygons"] and board["spaces"]["Germany"]["sea"] is False
    status, _, _ = await w.get(f"/g/{key}/board.json", headers={"If-None-Match": headers["ETag"]})
    assert status == 304


async def test_the_live_stream_tells_a_new_head_after_an_order_in_this_process(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    async with w.client.get(f"{w.url}/g/{key}/events") as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        first = await next_head(resp)
        assert (await w.get_json(f"/g/{key}/state.json"))["head"] == first
        assert (await w.service.handle("c1", "bob", "buy 1 infantry")).ok
        second = await next_head(resp)
        assert second["seq"] > first["seq"]
        assert (await w.get_json(f"/g/{key}/state.json"))["head"] == second


async def test_the_live_stream_tells_an_order_written_by_another_process(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    other = await w.other()
    try:
        async with w.client.get(f"{w.url}/g/{key}/events") as resp:
            first = await next_head(resp)
            r = await other.handle("c1", "bob", "buy 1 infantry")
            assert r.ok, r.error
            second = await next_head(resp)
            assert second["seq"] > first["seq"]
            s = await w.get_json(f"/g/{key}/state.json")
            assert s["head"] == second
            assert any("infantry" in line for line in s["status"] if line.startswith("Bought"))
    finally:
        await other.store.close()  # type: ignore[attr-defined]


async def test_static_files_stay_inside_their_folder(w: Web) -> None:
    status, _, _ = await w.get("/static/abc/../../server.py")
    assert status == 404
    status, _, _ = await w.get("/static/abc/%2e%2e/server.py")
    assert status == 404
