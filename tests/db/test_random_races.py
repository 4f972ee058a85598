"""Several OS processes play at once against shared games in one database (issue 12).

Each worker process opens its own store (engine, connection pool) on one SQLite file or one
PostgreSQL database and, for a bounded time, issues random orders, undos, ends, joins, leaves,
new games, starts and cancels through ``GameService``, recording every acknowledgement (the
order index an accepted order got, the index an undo took back). Then the checks:

- every acknowledged order is in its game's log exactly once, unless an acknowledged undo took
  it back, and the log holds no order nobody was told about;
- every log loads (its hash chain holds) and replays to the state the service shows;
- no game is left unable to continue: a game being played answers 'status' and takes its
  current player's next order; a lobby game has no events; at most one game not over per
  channel; nobody holds seats on both sides (P-1); a started game has every seat held.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import time
from pathlib import Path
from typing import Any

import pytest

from db.engine import create_engine, sqlite_url
from db.migrate import upgrade
from db.repo import SqlStore
from rules.engine import replay
from rules.position import state_json
from service.games import GameService, ServiceError
from service.store import ENDED
from tests.db.conftest import ALLIES, AXIS, channel

pytestmark = pytest.mark.slow

WORKERS = 4
SECONDS = 6.0  # each worker plays at least this long...
CAP = 60.0  # ...and on until it has had an order and an undo acknowledged, at most this long
PEOPLE = ("alice", "bob", "carol", "dave")
POWERS = (*AXIS, *ALLIES)
SECRET = b"r" * 32


def _svc(store: SqlStore) -> GameService:
    return GameService(store, draw_secret=lambda: SECRET)


async def _play(url: str, games: list[str], lobbies: list[str], seed: int, out: str) -> None:
    store = SqlStore(create_engine(url))
    svc = _svc(store)
    rnd = random.Random(seed)
    acks: list[dict[str, Any]] = []
    crashes: list[str] = []
    start = time.monotonic()

    def going() -> bool:
        # Bounded by the work done, not only by time: a loaded machine does fewer operations
        # in SECONDS, and the checks need an acknowledged order and undo to mean something.
        now = time.monotonic() - start
        done = any("order" in a for a in acks) and any("undone" in a for a in acks)
        return now < SECONDS or (not done and now < CAP)

    try:
        while going():
            try:
                if rnd.random() < 0.75:
                    await _order(svc, rnd, rnd.choice(games), acks)
                else:
                    await _lobby(svc, rnd, rnd.choice(lobbies), acks)
            except Exception as e:  # any exception is a finding: recorded, checked as none
                crashes.append(f"{type(e).__name__}: {e}")
    finally:
        await store.close()
    Path(out).write_text(json.dumps({"acks": acks, "crashes": crashes}))


async def _order(svc: GameService, rnd: random.Random, g: str, acks: list[dict[str, Any]]) -> None:
    state = await svc.state(g)
    holder = (await svc.info(g)).seats.get(state.power, "")
    who = holder if rnd.random() < 0.9 else rnd.choice(PEOPLE)
    pick = rnd.random()
    if pick < 0.3:
        r = await svc.undo(g, who)
        if r.ok:
            assert r.data is not None
            acks.append({"game": g, "undone": r.data["undone"]["index"]})
        return
    buying = state.phase == "purchase"
    text = "buy 1 infantry" if buying and pick < 0.8 else "end confirm"
    r = await svc.submit(g, who, text)
    if r.ok and r.data and "order" in r.data:
        acks.append({"game": g, "order": r.data["order"], "text": text})


async def _lobby(svc: GameService, rnd: random.Random, chan: str, acks: list[dict[str, Any]]) -> None:
    info = await svc.game_in(chan)
    who = rnd.choice(PEOPLE)
    if info is None or info.status in ENDED:
        try:
            made = await svc.create(chan, who, "1941")
        except ServiceError:
            return
        acks.append({"new": made.id, "channel": chan})
        return
    pick = rnd.random()
    if info.status == "active":
        if pick < 0.5:
            await svc.draw(info.id, who)  # ends it when every seated person agreed
        return
    if pick < 0.6:
        r = await svc.join(info.id, who, rnd.choice(POWERS))
    elif pick < 0.75:
        r = await svc.leave(info.id, who)
    elif pick < 0.95:
        r = await svc.start(info.id, info.owner)
    else:
        r = await svc.cancel(info.id, info.owner)
    if r.ok:
        acks.append({"lobby": info.id, "kind": r.kind, "who": who})


def _worker(url: str, games: list[str], lobbies: list[str], seed: int, out: str,
            ready: Any) -> None:
    ready.wait()  # every worker has started up (imports): they play at the same time
    asyncio.run(_play(url, games, lobbies, seed, out))


async def _setup(url: str) -> tuple[list[str], list[str]]:
    store = SqlStore(create_engine(url))
    svc = _svc(store)
    games = []
    try:
        for _ in range(3):
            g = (await svc.create(channel(), "alice", "1941")).id
            for p in AXIS:
                assert (await svc.join(g, "alice", p)).ok
            for p in ALLIES:
                assert (await svc.join(g, "bob", p)).ok
            assert (await svc.start(g, "alice")).ok
            games.append(g)
    finally:
        await store.close()
    return games, [channel(), channel()]


async def _check(url: str, games: list[str], lobbies: list[str], acks: list[dict[str, Any]]
                 ) -> dict[str, int]:
    store = SqlStore(create_engine(url))
    svc = _svc(store)
    try:
        counts = {"orders": 0, "undos": 0, "lobby": 0, "games": 0}
        for g in games:
            told = [a["order"] for a in acks if a.get("game") == g and "order" in a]
            undone = [a["undone"] for a in acks if a.get("game") == g and "undone" in a]
            assert len(told) == len(set(told)), "one order index acknowledged twice"
            assert len(undone) == len(set(undone)), "one order undone twice"
            assert set(undone) <= set(told), "an undo took back an order nobody was told about"
            orders = await store.orders(g)
            logged = [o.index for o in orders if o.text != "game start"]
            assert sorted(logged) == sorted(set(told) - set(undone)), (
                f"game {g}: the log's orders are not the acknowledged ones less the undone")
            events = await store.load_events(g)  # the hash chain holds
            assert [o.first_seq for o in orders] == sorted(o.first_seq for o in orders)
            assert sum(o.count for o in orders) == len(events)
            assert state_json(replay([s.event for s in events])) == state_json(await svc.state(g))
            rec = await store.get_game(g)
            if rec.status == "active":
                assert (await svc.status(g)).ok
                state = await svc.state(g)
                r = await svc.submit(g, rec.seats[state.power], "end confirm")
                assert r.ok, r.error
            counts["orders"] += len(told)
            counts["undos"] += len(undone)
        for chan in lobbies:
            here = await store.games_in_channel(chan)
            live = [x for x in here if x.status not in ENDED]
            assert len(live) <= 1, f"channel {chan} has {len(live)} games not over"
            for rec in here:
                counts["games"] += 1
                sides = {("Axis" if p in AXIS else "Allies") for p in rec.seats}
                for person in set(rec.seats.values()):
                    mine = {("Axis" if p in AXIS else "Allies")
                            for p, who in rec.seats.items() if who == person}
                    assert len(mine) == 1, f"{person} holds seats on both sides in {rec.id}"
                events = await store.load_events(rec.id)
                if rec.status == "lobby":
                    assert events == [], f"lobby game {rec.id} has events"
                else:
                    # A game cancelled in the lobby has none; a started one has its start.
                    started = bool(events) or rec.status != "cancelled"
                    assert not started or events, f"{rec.status} game {rec.id} has no events"
                    if started:
                        assert len(rec.seats) == len(POWERS) and sides == {"Axis", "Allies"}
                if rec.status == "active":
                    assert (await svc.status(rec.id)).ok
        counts["lobby"] = sum(1 for a in acks if "lobby" in a or "new" in a)
        return counts
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_random_concurrent_play_keeps_every_acknowledged_order(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        url = sqlite_url(tmp_path / "random.sqlite3")
        asyncio.run(upgrade(url))
    else:
        url = str(request.getfixturevalue("pg_url"))
    games, lobbies = asyncio.run(_setup(url))
    ctx = multiprocessing.get_context("spawn")
    outs = [str(tmp_path / f"worker{i}.json") for i in range(WORKERS)]
    seed = random.randrange(1 << 30)
    ready = ctx.Barrier(WORKERS)
    procs = [ctx.Process(target=_worker, args=(url, games, lobbies, seed + i, outs[i], ready))
             for i in range(WORKERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=CAP * 2)
        assert p.exitcode == 0, f"a worker died (exit code {p.exitcode}); seed {seed}"
    acks: list[dict[str, Any]] = []
    crashes: list[str] = []
    for out in outs:
        got = json.loads(Path(out).read_text())
        acks += got["acks"]
        crashes += got["crashes"]
    assert crashes == [], f"seed {seed}: {crashes[:5]}"
    counts = asyncio.run(_check(url, games, lobbies, acks))
    assert counts["orders"] > 0 and counts["undos"] > 0, (counts, seed)
    print(f"{backend}: seed {seed}, {counts}")
