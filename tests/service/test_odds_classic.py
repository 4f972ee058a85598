"""`odds` in a Classic game through the service: AA guns, bombardment, and the powers' own
weapons developments (R-TEC-06) beside the ones named in the order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.state import GameState
from service.games import GameService, Result

POSITION: dict[str, Any] = {
    "edition": "classic",
    "power": "Germany",
    "phase": "combat_move",
    "units": {
        "Karelia S.S.R.": {"Russia": {"infantry": 2, "antiaircraft gun": 1}},
        "Eastern Europe": {"Germany": {"infantry": 2, "bomber": 1}},
    },
}


def ok(r: Result) -> Result:
    assert r.ok, r.error
    return r


async def seated(svc: GameService) -> str:
    info = await svc.create("chan", "alice", "classic", position=POSITION)
    for p in ("Germany", "Japan"):
        ok(await svc.join(info.id, "alice", p))
    for p in ("Russia", "United Kingdom", "United States"):
        ok(await svc.join(info.id, "bob", p))
    ok(await svc.start(info.id, "alice"))
    return info.id


async def test_odds_in_a_classic_game_use_the_powers_developments(
        monkeypatch: pytest.MonkeyPatch) -> None:
    svc = GameService()
    game = await seated(svc)
    q = "odds 2 inf, 1 bomber vs 2 inf, 1 aa gun in Karelia"
    plain = ok(await svc.submit(game, "dave", q))
    assert plain.data is not None and plain.data["aa_fire"] is True
    assert "AA fire at the attacking aircraft before round 1" in plain.answer
    named = ok(await svc.submit(game, "dave", q + " with heavy bombers"))
    assert named.data is not None
    assert named.data["attacker_developments"] == ["Heavy Bombers"]
    assert named.data["attacker_win"] > plain.data["attacker_win"]

    real = GameService.state

    async def with_techs(self: GameService, game_id: str) -> GameState:
        s = await real(self, game_id)
        return replace(s, techs={"Germany": ("heavy_bombers",)})

    monkeypatch.setattr(GameService, "state", with_techs)
    owned = ok(await svc.submit(game, "dave", q))
    assert owned.data == named.data  # Germany, the power to move, owns Heavy Bombers
    assert "developments: attacker Heavy Bombers" in owned.answer


async def test_odds_bombardment_without_a_space() -> None:
    svc = GameService()
    r = ok(await svc.submit(await seated(svc), "dave", "odds 2 inf, 1 bb vs 2 inf"))
    assert r.data is not None and r.data["sea"] is False and r.data["bombarding"] == 1
    assert "bombardment by 1 ship in round 1" in r.answer
