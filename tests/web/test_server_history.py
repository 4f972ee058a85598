"""The page's history, battle boards, odds and the game's record, over a real server and a
real SQLite file: a 1941 game with scripted dice where the Soviet Union attacks Ukraine."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.web.server_world import Web, close_web, open_web, sqlite_url, started

ALICE = "alice@example.org"


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[Web]:
    web = await open_web(sqlite_url(tmp_path), dice=[1] * 60)
    yield web
    await close_web(web)


async def at_war(w: Web) -> tuple[str, str]:
    gid = await started(w.service, alice=ALICE)
    for line in ("buy 1 infantry", "end", "move 3 infantry from Caucasus to Ukraine",
                 "move 1 tank from Caucasus to Ukraine", "end", "battle Ukraine"):
        r = await w.service.handle("c1", "bob", line)
        assert r.ok, (line, r.error)
    return gid, await w.key(gid)


async def test_history_tells_each_order_and_steps_through_the_phases(w: Web) -> None:
    _, key = await at_war(w)
    h = await w.get_json(f"/g/{key}/history.json")
    orders = [e["order"] for e in h["entries"]]
    assert orders == ["game start", "buy 1 infantry", "end",
                      "move 3 infantry from Caucasus to Ukraine",
                      "move 1 tank from Caucasus to Ukraine", "end", "battle Ukraine"]
    buy = h["entries"][1]
    assert buy == {"seq": buy["seq"], "round": 1, "power": "Soviet Union", "phase": "purchase",
                   "who": "Soviet Union", "order": "buy 1 infantry",
                   "lines": ["Soviet Union bought 1 infantry (3 IPCs)."]}
    assert h["entries"][0]["who"] == "alice"  # a mail address is not shown on the page
    assert "Battle in Ukraine: Soviet Union (1 tank, 3 infantry) against Germany: 2 tanks, " \
        "3 infantry." in h["entries"][5]["lines"]
    labels = [s["label"] for s in h["steps"]]
    assert labels == ["Round 1 · Soviet Union · Purchase Units",
                      "Round 1 · Soviet Union · Combat Move",
                      "Round 1 · Soviet Union · Conduct Combat (now)"]
    # The board at the end of the Purchase: the infantry bought, nothing moved yet.
    then = await w.get_json(f"/g/{key}/state.json?at={h['steps'][0]['seq']}")
    assert then["phase"] == "purchase" and "Bought this turn: 1 infantry." in then["status"]
    assert not any(u["power"] == "Soviet Union" for u in then["units"]["Ukraine"])
    moved = await w.get_json(f"/g/{key}/state.json?at={h['steps'][1]['seq']}")
    assert moved["phase"] == "combat_move"
    assert {"type": "tank", "power": "Soviet Union", "count": 1, "damaged": 0,
            "moved": True} in moved["units"]["Ukraine"]
    # Paging back.
    page = await w.get_json(f"/g/{key}/history.json?before={buy['seq'] + 1}&n=1")
    assert [e["order"] for e in page["entries"]] == ["buy 1 infantry"] and page["more"]
    status, _, body = await w.get(f"/g/{key}/history.json?n=lots")
    assert status == 400 and "?before=" in body


async def test_battle_board_and_odds_of_an_open_battle(w: Web) -> None:
    _, key = await at_war(w)
    state = await w.get_json(f"/g/{key}/state.json")
    (battle,) = state["battles"]
    assert battle["space"] == "Ukraine" and battle["attacker"] == "Soviet Union"
    assert battle["image"] == f"/g/{key}/battle.png?space=Ukraine"
    async with w.client.get(w.url + battle["image"]) as r:
        assert r.status == 200 and r.headers["Content-Type"] == "image/png"
        assert (await r.read()).startswith(b"\x89PNG\r\n\x1a\n")
    status, _, body = await w.get(f"/g/{key}/battle.png?space=Germany")
    assert status == 404 and json.loads(body)["error"] == "No battle in 'Germany' in this game."
    odds = await w.get_json(f"/g/{key}/odds.json?space=Ukraine")
    assert odds["space"] == "Ukraine" and odds["text"].startswith("Attacker wins ")
    assert odds["odds"]
    status, _, body = await w.get(f"/g/{key}/odds.json?space=Germany")
    assert status == 404 and "No open battle in 'Germany' now" in body


async def test_export_and_dice_verification(w: Web) -> None:
    gid, key = await at_war(w)
    status, headers, body = await w.get(f"/g/{key}/export.json")
    assert status == 200
    assert headers["Content-Disposition"] == f'attachment; filename="umpire-{gid}.json"'
    doc = json.loads(body)
    assert doc["format"] == "umpire-game" and doc["game"]["id"] == gid
    assert len(doc["events"]) == 12
    assert ALICE not in body and doc["game"]["owner"] == "alice@…"
    status, headers, text = await w.get(f"/g/{key}/verify.txt")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    assert text.startswith("The dice of this game are scripted")


async def test_fair_dice_are_verified_on_the_page(tmp_path: Path) -> None:
    w = await open_web(sqlite_url(tmp_path))
    try:
        gid = await started(w.service)
        key = await w.key(gid)
        status, _, text = await w.get(f"/g/{key}/verify.txt")
        assert status == 200
        said = (await w.service.verify_dice(gid))
        assert text.strip() == (said.answer if said.ok else said.error or "").strip()
        assert "scripted" not in text
    finally:
        await close_web(w)
