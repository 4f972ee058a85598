"""`odds` and `luck` through the service: anyone may ask, with or without a game."""

from __future__ import annotations

from typing import Any

from service.games import GameService, Result

AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")
POSITION: dict[str, Any] = {
    "edition": "1941",
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 1}},
        "Eastern Europe": {"Germany": {"infantry": 1, "tank": 1}},
    },
}


def ok(r: Result) -> Result:
    assert r.ok, r.error
    return r


async def seated(svc: GameService, dice: list[int]) -> str:
    svc.allow_scripted_dice = True  # tests are a front end that may script the dice
    info = await svc.create("chan", "alice", "1941", dice=dice, position=POSITION)
    for p in AXIS:
        ok(await svc.join(info.id, "alice", p))
    for p in ALLIES:
        ok(await svc.join(info.id, "bob", p))
    ok(await svc.start(info.id, "alice"))
    return info.id


async def test_odds_without_a_game() -> None:
    svc = GameService()
    r = ok(await svc.handle("room", "carol", "odds 1 inf vs 1 inf"))
    assert r.kind == "odds"
    assert r.answer.splitlines()[0] == (
        "Odds: 1 infantry attacking 1 infantry, fought to the end with default casualties.")
    assert r.answer.splitlines()[1] == (
        "Attacker wins 25.0%, defender 62.5%, both destroyed 12.5% (exact).")
    assert r.data is not None
    assert r.data["attacker_win"] == 0.25 and r.data["method"] == "exact"
    assert {"defender_win", "draw", "attacker_survivors", "defender_survivors"} <= set(r.data)


async def test_odds_in_a_game_by_anyone_and_refusals() -> None:
    svc = GameService()
    game = await seated(svc, [])
    r = ok(await svc.submit(game, "dave", "odds 2 bb vs 1 dd, 2 sub in sz5"))  # no seat needed
    assert r.answer.startswith("Odds in Sea Zone 5: 2 battleships attacking 1 destroyer, "
                               "2 submarines")
    assert r.data is not None and r.data["sea"] is True
    r = await svc.submit(game, "dave", "odds 1 tank vs 1 dd")
    assert not r.ok and r.kind == "odds" and "tank cannot fight at sea" in (r.error or "")
    r = await svc.submit(game, "dave", "odds 1 tank vs 1 inf in sz 5")
    assert not r.ok and "tank cannot fight at sea" in (r.error or "")


async def test_luck_after_a_battle() -> None:
    svc = GameService()
    # Round 1: tank 3 (hit), infantry 6; the defender rolls 1 (hit). Attacker wins.
    game = await seated(svc, [3, 6, 1])
    r = ok(await svc.submit(game, "bob", "luck"))
    assert r.answer == "No battles yet: no dice to judge."
    ok(await svc.submit(game, "alice", "move 1 infantry, 1 tank from Eastern Europe to Ukraine"))
    ok(await svc.submit(game, "alice", "end"))
    ok(await svc.submit(game, "alice", "battle Ukraine all"))
    r = ok(await svc.submit(game, "bob", "luck ukraine"))
    assert r.kind == "luck"
    assert ("Round 1, Ukraine (Germany attacking, attacker won): Germany 1 hit from 2 dice, "
            "expected 0.7 (+0.3") in r.answer
    assert "Soviet Union 1 hit from 1 die, expected 0.3 (+0.7" in r.answer
    assert r.data is not None and r.data["sides"]["Axis"]["rolled"] == 1
    r = ok(await svc.submit(game, "bob", "luck Karelia"))
    assert r.answer == "No battles in Karelia yet: no dice to judge."
    r = await svc.handle("elsewhere", "bob", "luck")
    assert not r.ok and "No game in this channel" in (r.error or "")


async def test_odds_bounded_999_infantry_against_999_through_the_service() -> None:
    """Issue 12 item 8 / issue 13 item 12: anyone may ask, so the answer is bounded: Monte Carlo
    with its error bar within the work budget, and a refusal that names the limit beyond it."""
    svc = GameService()
    r = ok(await svc.handle("room", "carol", "odds 999 infantry vs 999 infantry"))
    first, second = r.answer.splitlines()[:2]
    assert first == ("Odds: 999 infantry attacking 999 infantry, fought to the end with default "
                     "casualties.")
    assert second.startswith("Attacker wins 0.0%, defender 100.0%, both destroyed 0.0% "
                             "(Monte Carlo, ")
    assert second.endswith(" battles, ±0.0 points at 95%).")
    r = await svc.handle("room", "carol", "odds 600 infantry, 401 tanks vs 1 infantry")
    assert not r.ok and r.error == (
        "Too many units for the odds: the attacker has 1,001; the limit is 1,000 units a side, "
        "so that every answer comes within a few seconds. Ask about a part of the battle.")
