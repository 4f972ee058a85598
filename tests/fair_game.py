"""A short game with fair dice and battles, played through the service (for the dice tests).

Germany attacks Ukraine in round 1 and Karelia in round 2; everyone else ends their phases. With
a fixed secret (``SECRET``) the game is the same every time.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from rules.dice import CHAIN_LENGTH
from service.games import GameService, Result

SECRET = bytes(range(32))
AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")
POSITION: dict[str, Any] = {
    "edition": "1941",
    "round": 1,
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union", "Karelia": "Soviet Union"},
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 2}},
        "Karelia": {"Soviet Union": {"infantry": 1}},
        "Eastern Europe": {"Germany": {"infantry": 4, "tank": 2}},
    },
}
ATTACKS = {
    1: ("move 2 infantry, 1 tank from Eastern Europe to Ukraine", "Ukraine"),
    2: ("move 2 infantry, 1 tank from Eastern Europe to Karelia", "Karelia"),
}


def ok(r: Result) -> Result:
    assert r.ok, r.error
    return r


def service(secret: bytes = SECRET, chain_length: int = CHAIN_LENGTH) -> GameService:
    return GameService(draw_secret=lambda: secret, chain_length=chain_length)


async def seated(
    svc: GameService,
    position: dict[str, Any] | None = None,
    phrases: dict[str, str] | None = None,
    dice: list[int] | None = None,
) -> str:
    """A started game: alice holds the Axis, bob the Allies."""
    info = await svc.create("chan", "alice", "1941", dice=dice, position=position or POSITION)
    for p in AXIS:
        ok(await svc.join(info.id, "alice", p, (phrases or {}).get(p, "")))
    for p in ALLIES:
        ok(await svc.join(info.id, "bob", p, (phrases or {}).get(p, "")))
    ok(await svc.start(info.id, "alice"))
    return info.id


async def play_until(svc: GameService, game: str, until_round: int) -> list[Result]:
    """End phases (attacking per ``ATTACKS``) until ``until_round`` starts or the game ends."""
    answers: list[Result] = []
    attacked: set[int] = set()
    for _ in range(500):
        st = await svc.state(game)
        if st.round >= until_round or st.winner:
            return answers
        person = "alice" if st.power in AXIS else "bob"
        attack = st.power == "Germany" and st.phase == "combat_move" and st.round in ATTACKS
        if attack and st.round not in attacked:
            attacked.add(st.round)
            answers.append(ok(await svc.submit(game, person, ATTACKS[st.round][0])))
            continue
        open_battles = [s for s, b in st.battles.items() if b.step != "done"]
        if st.phase == "conduct_combat" and open_battles:
            text = f"battle {open_battles[0]} all"
        else:
            text = "end confirm"  # a phase passed doing nothing: confirmed
        answers.append(ok(await svc.submit(game, person, text)))
    raise AssertionError("the game did not reach the round")


async def played(
    until_round: int = 3, secret: bytes = SECRET, chain_length: int = CHAIN_LENGTH
) -> tuple[GameService, str]:
    svc = service(secret, chain_length)
    game = await seated(svc)
    await play_until(svc, game, until_round)
    return svc, game


def exported(until_round: int = 3) -> dict[str, Any]:
    """The export of the game played to the start of ``until_round``, through real JSON."""

    async def go() -> dict[str, Any]:
        svc, game = await played(until_round)
        return await svc.export(game)

    doc: dict[str, Any] = json.loads(json.dumps(asyncio.run(go())))
    return doc
