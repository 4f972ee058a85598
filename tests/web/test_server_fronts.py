"""Orders given on the web page reach the other front ends' people, and a holder's name cannot
break the page: a web server and the mail gateway over one service on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.mail.world import close_world, open_world, text
from tests.web.server_world import boot_of, close_web, open_web, sqlite_url, started

ALICE = "alice@example.org"


async def test_a_web_order_is_in_the_mail_players_report(tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path))
    (tmp_path / "mail").mkdir()
    world = await open_world(tmp_path / "mail", service=w.service)
    try:
        gid = await started(w.service, alice=ALICE)
        await world.gateway.report(gid)  # the game's start, told
        link = await w.server.seat_link(gid, "Soviet Union")
        assert (await w.get(link[len(w.url):]))[0] == 303
        key = await w.key(gid)
        csrf = (await w.get_json(f"/g/{key}/seat.json"))["csrf"]
        status, _, _ = await w.post(f"/g/{key}/orders",
                                    json={"lines": "buy 1 infantry", "csrf": csrf})
        assert status == 200
        assert await world.gateway.report(gid)  # the gateway's loop (or its listener) reports
        report = text(world.report(ALICE))
        assert "Soviet Union (bob): buy 1 infantry" in report
        assert "    Soviet Union bought 1 infantry (3 IPCs)." in report
    finally:
        await close_world(world)
        await close_web(w)


async def test_a_holders_name_cannot_break_out_of_the_boot_json(tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path))
    try:
        evil = "</script><script>alert(1)</script><!--"
        gid = await started(w.service, bob=evil)
        link = await w.server.seat_link(gid, "Soviet Union")
        assert (await w.get(link[len(w.url):]))[0] == 303
        status, _, page = await w.get(f"/g/{await w.key(gid)}")
        assert status == 200
        assert "<script>alert(1)" not in page and "alert(1)" in page  # escaped, still there
        boot = boot_of(page)
        assert boot["seat"]["holder"] == evil and boot["seat"]["powers"][0] == "Soviet Union"
    finally:
        await close_web(w)
