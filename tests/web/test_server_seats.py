"""A seat on the web page: its private link, the session it opens, and the orders it gives,
checked end to end over a real server and a real SQLite file. Every assertion is on what the
player's browser gets: the status, the cookie, the page's boot JSON and the answer's text."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.web.server_world import Web, boot_of, close_web, open_web, sqlite_url, started
from web import links as lk
from web.server import COOKIE, WebConfig


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[Web]:
    web = await open_web(sqlite_url(tmp_path))
    yield web
    await close_web(web)


async def seated(w: Web, power: str = "Soviet Union") -> tuple[str, str, str]:
    """A started game; the browser opened ``power``'s private link. (game, key, csrf)"""
    gid = await started(w.service)
    link = await w.server.seat_link(gid, power)
    assert link.startswith(w.server.public_url + "/s/")
    status, headers, _ = await w.get("/s/" + link.split("/s/", 1)[1])
    assert status == 303, status
    key = await w.key(gid)
    assert headers["Location"] == f"/g/{key}"
    boot = boot_of((await w.get(headers["Location"]))[2])
    assert boot["csrf"]
    return gid, key, boot["csrf"]


async def head(w: Web, key: str) -> dict[str, object]:
    got: dict[str, object] = (await w.get_json(f"/g/{key}/state.json"))["head"]
    return got


async def test_a_private_link_opens_a_session_and_leaves_the_address_bar(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    link = await w.server.seat_link(gid, "Soviet Union")
    token = link.rsplit("/", 1)[1]
    assert token not in key and "." in token
    status, headers, _ = await w.get(f"/s/{token}")
    assert status == 303 and headers["Location"] == f"/g/{key}"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie and f"Path=/g/{key}" in cookie
    assert "Secure" not in cookie  # http here; https public addresses get Secure
    assert headers["Cache-Control"] == "no-store"
    status, headers, page = await w.get(f"/g/{key}")
    boot = boot_of(page)
    # bob holds all three Allies: the session acts for each of them, as he does in Discord.
    assert boot["seat"] == {"powers": ["Soviet Union", "United Kingdom", "United States"],
                            "holder": "bob"}
    assert len(boot["csrf"]) >= 32
    assert token not in page
    seat = await w.get_json(f"/g/{key}/seat.json")
    assert seat["acting"] == "Soviet Union" and seat["ipcs"] == 7 and seat["csrf"] == boot["csrf"]
    assert {"unit": "infantry", "cost": 3} in seat["buy"] and seat["decisions"] == []


async def test_a_spectator_sees_the_board_but_gives_no_orders(w: Web) -> None:
    gid = await started(w.service)
    key = await w.key(gid)
    boot = boot_of((await w.get(f"/g/{key}"))[2])
    assert boot["seat"] is None and boot["csrf"] is None
    before = await head(w, key)
    status, _, body = await w.post(f"/g/{key}/orders", json={"lines": "buy 1 tank", "csrf": "x"})
    assert status == 403
    assert json.loads(body)["error"].startswith("Only a seated player may do this: open your "
                                                "seat's private link")
    status, _, _ = await w.get(f"/g/{key}/seat.json")
    assert status == 403
    assert await head(w, key) == before


async def test_an_order_without_or_with_a_wrong_csrf_token_changes_nothing(w: Web) -> None:
    _, key, csrf = await seated(w)
    before = await head(w, key)
    for kw in ({"json": {"lines": "buy 1 tank"}},
               {"json": {"lines": "buy 1 tank", "csrf": csrf[:-1] + "0" if csrf[-1] != "0"
                         else csrf[:-1] + "1"}},
               {"json": {"lines": "buy 1 tank"}, "headers": {"X-CSRF-Token": "nonsense"}}):
        status, _, body = await w.post(f"/g/{key}/orders", **kw)
        assert status == 403
        assert json.loads(body)["error"] == (
            "This page's security token is missing or stale: reload the page and send again. "
            "Nothing was done.")
    assert await head(w, key) == before


async def test_a_legal_order_is_applied_and_an_illegal_one_refused_in_words(w: Web) -> None:
    gid, key, csrf = await seated(w)
    status, _, body = await w.post(f"/g/{key}/orders",
                                   json={"lines": "buy 2 tanks", "csrf": csrf})
    assert status == 200
    got = json.loads(body)
    assert got["ok"] is False
    assert got["results"] == [{"number": 1, "line": "buy 2 tanks", "status": "refused",
                               "text": got["results"][0]["text"]}]
    assert "costs 12 IPCs; Soviet Union has 7" in got["results"][0]["text"]
    assert "costs 12 IPCs" in got["error"]
    before = await head(w, key)
    status, _, body = await w.post(f"/g/{key}/orders", json={"lines": "buy 1 tank\nbuy 9 tanks"},
                                   headers={"X-CSRF-Token": csrf})
    got = json.loads(body)
    assert status == 200 and got["ok"] is False
    assert [r["status"] for r in got["results"]] == ["accepted", "refused"]
    assert "Soviet Union bought 1 tank (6 IPCs)." in got["results"][0]["text"]
    assert got["head"]["seq"] > before["seq"]
    state = await w.get_json(f"/g/{key}/state.json")
    assert state["head"] == got["head"]
    assert "Bought this turn: 1 tank." in state["status"]
    events = [s.event for s in await w.service.store.load_events(gid)]
    assert type(events[-1]).__name__ == "UnitsPurchased"


async def test_a_move_built_from_moves_json_is_applied(w: Web) -> None:
    _, key, csrf = await seated(w)
    r = await w.post(f"/g/{key}/orders", json={"lines": "end confirm", "csrf": csrf})
    assert r[0] == 200 and json.loads(r[2])["ok"], r[2]
    state = await w.get_json(f"/g/{key}/state.json")
    assert state["phase"] == "combat_move", state["status"]
    seat = await w.get_json(f"/g/{key}/seat.json")
    assert seat["acting"] == "Soviet Union" and seat["movable"]
    frm = next(s for s, units in seat["movable"].items()
               if any(u["type"] == "infantry" for u in units) and s != "Russia")
    moves = await w.get_json(f"/g/{key}/moves.json", params={"from": frm})
    assert moves["from"] == frm and any(u["type"] == "infantry" for u in moves["units"])
    assert moves["to"], moves
    dest = next(t for t in moves["to"] if "infantry" in t["units"])
    line = next(x for x in dest["lines"] if "infantry" in x)
    assert line.startswith("move ") and f"to {dest['space']}" in line
    status, _, body = await w.post(f"/g/{key}/orders", json={"lines": line, "csrf": csrf})
    got = json.loads(body)
    assert status == 200 and got["ok"] is True, got
    assert got["results"][0]["status"] == "accepted" and f"moved 1 infantry from {frm} to {dest['space']}." in got["results"][0]["text"]
    after = await w.get_json(f"/g/{key}/state.json")
    assert any(u["type"] == "infantry" and u["power"] == "Soviet Union" and u["moved"]
               for u in after["units"][dest["space"]])
    status, _, body = await w.get(f"/g/{key}/moves.json?from=Atlantis")
    assert status == 400 and "No space 'Atlantis'" in body


async def test_game_commands_are_not_given_on_the_page(w: Web) -> None:
    _, key, csrf = await seated(w)
    before = await head(w, key)
    status, _, body = await w.post(f"/g/{key}/orders",
                                   json={"lines": "buy 1 infantry\ngame concede", "csrf": csrf})
    got = json.loads(body)
    assert status == 200 and got["ok"] is False
    assert got["error"] == (
        "Line 2: 'game concede' is not given on the web page; use Discord or mail for the "
        "game's commands. This page gives orders (and undo). Nothing was done.")
    assert await head(w, key) == before


async def test_forged_revoked_expired_and_reassigned_links_are_refused(w: Web) -> None:
    gid = await started(w.service)
    store = w.service.store
    link = await w.server.seat_link(gid, "Soviet Union")
    token = link.rsplit("/", 1)[1]
    payload, tag = token.split(".")
    # Forged: the same tag on another seat's statement, or a changed tag.
    other = lk.unsigned(token)
    assert other is not None
    forged_body = lk.sign(b"not the secret", "link", lk.Grant(
        gid, "Germany", "bob", 0, other.expires)).split(".")[0]
    for bad in (f"{forged_body}.{tag}", f"{payload}.{tag[:-2]}AA", "garbage", f"{payload}x.{tag}"):
        status, headers, page = await w.get(f"/s/{bad}")
        assert status == 403 and "Set-Cookie" not in headers
        assert "This private link does not work" in page
        assert "Ask the referee for a new private link" in page
    # Expired.
    old = await lk.private_link(store, w.url, gid, "Soviet Union", "bob",
                                now=datetime.now(UTC) - timedelta(days=10), days=1)
    status, _, page = await w.get(old[len(w.url):])
    assert status == 403 and "This link has expired." in page
    # A session opened, then the link revoked: the link and its session both stop.
    assert (await w.get(f"/s/{token}"))[0] == 303
    key = await w.key(gid)
    assert (await w.get(f"/g/{key}/seat.json"))[0] == 200
    assert await lk.revoke(store, gid, "Soviet Union") == 1
    status, _, page = await w.get(f"/s/{token}")
    assert status == 403 and "This link was revoked." in page
    status, _, body = await w.get(f"/g/{key}/seat.json")
    assert status == 403 and "open your seat's private link" in body
    assert boot_of((await w.get(f"/g/{key}"))[2])["seat"] is None
    fresh = await w.server.seat_link(gid, "Soviet Union")
    assert fresh != link and (await w.get(fresh[len(w.url):]))[0] == 303
    # The seat changes hands: the old holder's link no longer works.
    r = await w.service.substitute(gid, "alice", "Soviet Union", "carol")
    assert r.ok, r.error
    status, _, page = await w.get(fresh[len(w.url):])
    assert status == 403 and "no longer held by the one this link was made for" in page
    with pytest.raises(ValueError, match="open"):
        await lk.seat_link(store, w.url, gid, "Atlantis")


async def test_rate_limits_answer_429_with_retry_after(tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path), config=WebConfig(
        port=0, orders_per_minute=2, requests_per_minute=1000, poll_seconds=0.2))
    try:
        _, key, csrf = await seated(w)
        for _ in range(2):
            status, _, _ = await w.post(f"/g/{key}/orders",
                                        json={"lines": "buy 1 infantry", "csrf": csrf})
            assert status == 200
        status, headers, body = await w.post(f"/g/{key}/orders",
                                             json={"lines": "buy 1 infantry", "csrf": csrf})
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert json.loads(body)["error"].startswith("Too many orders from this seat: wait ")
    finally:
        await close_web(w)
    w = await open_web(sqlite_url(tmp_path), config=WebConfig(
        port=0, requests_per_minute=3, poll_seconds=0.2))
    try:
        gid = await w.service.game_in("c1")
        assert gid is not None
        key = await w.key(gid.id)
        statuses = [(await w.get(f"/g/{key}/state.json"))[0] for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        status, headers, body = await w.get(f"/g/{key}")
        assert status == 429 and "Too many requests from this address" in body
        assert headers["Content-Security-Policy"]
    finally:
        await close_web(w)


async def test_an_oversize_order_is_refused_413(w: Web) -> None:
    _, key, csrf = await seated(w)
    before = await head(w, key)
    big = "buy 1 infantry\n" * 5000
    status, _, body = await w.post(f"/g/{key}/orders", json={"lines": big, "csrf": csrf})
    assert status == 413
    assert json.loads(body)["error"].startswith("Too much at once: at most 16,384 bytes")
    assert await head(w, key) == before


async def test_an_owed_decision_is_offered_with_the_bots_lines_and_answered(
        tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path), dice=[1] * 60)
    try:
        gid = await started(w.service)
        for line in ("end confirm", "move 3 infantry from Caucasus to Ukraine",
                     "move 1 tank from Caucasus to Ukraine", "end", "battle Ukraine"):
            r = await w.service.handle("c1", "bob", line)
            assert r.ok, (line, r.error)
        key = await w.key(gid)
        state = await w.get_json(f"/g/{key}/state.json")
        assert state["waiting"] == [{"power": "Germany", "what": "casualties in Ukraine",
                                     "space": "Ukraine", "holder": "alice"}]
        assert state["battles"][0]["space"] == "Ukraine"
        link = await w.server.seat_link(gid, "Germany")
        assert (await w.get(link[len(w.url):]))[0] == 303
        seat = await w.get_json(f"/g/{key}/seat.json")
        assert seat["acting"] == "Germany" and seat["buy"] == [] and seat["movable"] == {}
        (decision,) = seat["decisions"]
        assert decision["text"] == "Germany: casualties in Ukraine"
        assert decision["space"] == "Ukraine" and decision["choices"]
        choice = decision["choices"][0]
        assert choice["line"].startswith("casualties Ukraine ")
        assert choice["label"].startswith("Lose ")
        status, _, body = await w.post(f"/g/{key}/orders",
                                       json={"lines": choice["line"], "csrf": seat["csrf"]})
        got = json.loads(body)
        assert status == 200 and got["ok"], got
        assert "Casualties in Ukraine: Germany loses " in got["results"][0]["text"]
        after = await w.get_json(f"/g/{key}/state.json")
        assert after["waiting"] != state["waiting"]
        assert (await w.get_json(f"/g/{key}/seat.json"))["decisions"] == []
    finally:
        await close_web(w)


async def test_an_order_from_another_sites_page_is_refused(tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path), config=WebConfig(
        port=0, public_url="http://umpire.example.org", poll_seconds=0.2))
    try:
        _, key, csrf = await seated(w)
        before = await head(w, key)
        status, _, body = await w.post(f"/g/{key}/orders",
                                       json={"lines": "buy 1 infantry", "csrf": csrf},
                                       headers={"Origin": "https://evil.example"})
        assert status == 403 and json.loads(body)["error"] == (
            "Orders are taken only from the game's own page. Nothing was done.")
        assert await head(w, key) == before
        # Its own published address (behind a proxy that forwards another Host) is fine.
        status, _, body = await w.post(f"/g/{key}/orders",
                                       json={"lines": "buy 1 infantry", "csrf": csrf},
                                       headers={"Origin": "http://umpire.example.org"})
        assert status == 200 and json.loads(body)["ok"], body
    finally:
        await close_web(w)


async def test_the_session_cookie_is_secure_behind_an_https_address(tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path), config=WebConfig(
        port=0, public_url="https://umpire.example.org/", poll_seconds=0.2))
    try:
        gid = await started(w.service)
        link = await w.server.seat_link(gid, "Germany")
        assert link.startswith("https://umpire.example.org/s/")
        status, headers, _ = await w.get("/s/" + link.split("/s/", 1)[1])
        assert status == 303 and "; Secure" in headers["Set-Cookie"]
        assert "HttpOnly" in headers["Set-Cookie"]
    finally:
        await close_web(w)
