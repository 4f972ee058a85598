"""A Classic game through the service on a real SQLite store: create, join, start, a round with a
battle under fair dice, snapshots, export/import and ``dice verify``; Classic's state fields
(developments, debts, turn markers) through db/snapshot.py."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.engine import create_engine, sqlite_url
from db.migrate import upgrade
from db.repo import SqlStore
from rules import codec
from rules.defaults import default_orders
from rules.engine import pending, replay
from rules.mechanisms.research import ResearchMarks
from rules.mechanisms.rockets import RocketMarks
from rules.position import state_json
from service.games import GameService, Result
from tools import verify_dice as vd

SECRET = bytes(range(32))
AXIS = ("Germany", "Japan")
ALLIES = ("Russia", "United Kingdom", "United States")
# Russia's first turn: Soviet Far East and Yakut S.S.R. attack Japanese Manchuria.
ATTACKS = {
    "Russia": ["move 2 infantry, 1 tank from Soviet Far East to Manchuria",
               "move 3 infantry from Yakut to Manchuria"],
}


def ok(r: Result) -> Result:
    assert r.ok, r.error
    return r


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqlStore]:
    url = sqlite_url(tmp_path / "umpire.sqlite3")
    await upgrade(url)
    s = SqlStore(create_engine(url))
    yield s
    await s.close()


def service(store: SqlStore | None = None, secret: bytes = SECRET) -> GameService:
    svc = GameService(draw_secret=lambda: secret)
    if store is not None:
        svc.store = store
    return svc


async def seated(svc: GameService, channel: str = "chan") -> str:
    info = await svc.create(channel, "alice", "classic")
    assert info.edition == "classic"
    for p in AXIS:
        ok(await svc.join(info.id, "alice", p))
    for p in ALLIES:
        ok(await svc.join(info.id, "bob", p))
    ok(await svc.start(info.id, "alice"))
    return info.id


async def play_round_one(svc: GameService, game: str) -> None:
    """Every power ends its phases; Russia attacks Manchuria; decisions get the defaults."""
    attacks = {p: list(orders) for p, orders in ATTACKS.items()}
    for _ in range(300):
        st = await svc.state(game)
        if st.round >= 2:
            return
        decisions = default_orders(st)
        if decisions:
            order = decisions[0]
            person = "alice" if order.power in AXIS else "bob"
            ok(await svc.submit_order(game, person, order))
            continue
        person = "alice" if st.power in AXIS else "bob"
        todo = attacks.get(st.power, [])
        if st.phase == "combat_move" and todo:
            ok(await svc.submit(game, person, todo.pop(0)))
            continue
        open_battles = [s for s, b in st.battles.items() if b.step != "done"]
        if st.phase == "conduct_combat" and open_battles:
            ok(await svc.submit(game, person, f"battle {open_battles[0]} all"))
            continue
        assert all(p.what.startswith("turn") for p in pending(st))
        ok(await svc.submit(game, person, "end confirm"))
    raise AssertionError("round 2 was not reached")


async def test_a_classic_round_on_sqlite_with_snapshots(store: SqlStore) -> None:
    store.snapshot_every = 10
    svc = service(store)
    game = await seated(svc)
    st = ok(await svc.status(game))
    assert "Axis & Allies Classic" in st.answer and "Weapons Development" in st.answer
    await play_round_one(svc, game)
    events = [s.event for s in await store.load_events(game)]
    kinds = {type(e).__name__ for e in events}
    assert {"BattleEnded", "DiceRolled", "IncomeCollected"} <= kinds
    # load = latest snapshot + tail = a full replay, every field
    state = await store.load_state(game)
    assert state is not None and state == replay(events)
    assert state.round == 2 and state.power == "Russia" and state.phase == "research"
    # a second service on the same file sees the same game
    again = service(store)
    assert state_json(await again.state(game)) == state_json(state)


async def test_classic_export_import_and_dice_verify(store: SqlStore) -> None:
    svc = service(store)
    game = await seated(svc)
    await play_round_one(svc, game)
    v = ok(await svc.verify_dice(game))
    assert v.answer.startswith("Round 1: ") and "seed links to the commitment" in v.answer
    assert v.data is not None and v.data["rounds"][0]["dice"] > 0
    doc = json.loads(json.dumps(await svc.export(game)))  # through real JSON text
    assert doc["game"]["edition"] == "classic"
    good, lines = vd.verify(doc)  # the standalone checker agrees
    assert good, lines
    other = service(secret=bytes([7]) * 32)
    info = await other.import_(doc, channel="elsewhere", unverified=True)
    assert info.edition == "classic" and info.seats == (await svc.info(game)).seats
    assert state_json(await other.state(info.id)) == state_json(await svc.state(game))
    r = ok(await other.verify_dice(info.id))
    assert r.answer.startswith("Round 1 (chain 1): ")
    # the imported game goes on: Russia's research phase of round 2
    ok(await other.submit(info.id, "bob", "end"))
    assert (await other.state(info.id)).phase == "purchase"


async def test_classic_state_fields_round_trip_through_snapshots() -> None:
    svc = service()
    game = await seated(svc)
    ok(await svc.submit(game, "bob", "end"))
    ok(await svc.submit(game, "bob", "buy 2 infantry, 1 antiaircraft gun"))
    state = await svc.state(game)
    assert state.purchase == {"infantry": 2, "antiaircraft gun": 1}
    rich = dataclasses.replace(
        state,
        techs={"Germany": ("jet_power", "heavy_bombers"), "Russia": ("rockets",)},
        debts={"United Kingdom": 4},
    ).with_part(ResearchMarks(rolled=True)).with_part(RocketMarks(fired=True))
    doc = json.loads(json.dumps(codec.state_to_json(rich)))
    back = codec.state_from_json(doc)
    assert back == rich
    assert back.techs["Germany"] == ("jet_power", "heavy_bombers")
    assert back.debts == {"United Kingdom": 4} and back.part(ResearchMarks).rolled
    assert back.edition.id == "classic"


async def test_help_in_a_game_lists_that_editions_orders() -> None:
    svc = service()
    await svc.create("classic-room", "alice", "classic")
    await svc.create("1941-room", "alice", "1941")
    classic = ok(await svc.handle("classic-room", "bob", "help")).answer
    a1941 = ok(await svc.handle("1941-room", "bob", "help")).answer
    nowhere = ok(await svc.handle("empty-room", "bob", "help")).answer
    for verb in ("withdraw <space>", "bomb <space>"):
        assert verb in classic and verb not in a1941 and verb in nowhere
    for verb in ("submerge <space>", "strike <space>"):
        assert verb in a1941 and verb not in classic and verb in nowhere
    assert "Orders (Axis & Allies Classic" in classic and "Editions:" in nowhere
    answer = ok(await svc.handle("classic-room", "bob", "help submerge")).answer
    assert "not an order of this edition" in answer
