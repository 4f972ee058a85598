"""SqlStore against real SQLite files and a real PostgreSQL server (DESIGN §7, issue 4)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from db.models import EVENT
from db.repo import SqlStore
from rules import events as ev
from rules.engine import replay
from rules.position import state_json
from service import fair
from service.games import GameService
from service.store import CorruptGame, DiceSpec, GameNotFound, MemoryStore, StateMovedOn
from tests.db.conftest import AXIS, BACKENDS, channel, play_ends, seated_game

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


async def test_append_load_round_trip_matches_memory_store(store: SqlStore) -> None:
    chan = channel()
    sql = GameService(store, draw_secret=lambda: b"k" * 32)
    mem = GameService(MemoryStore(), draw_secret=lambda: b"k" * 32)
    g_sql = await seated_game(sql, chan)
    g_mem = await seated_game(mem, chan)
    await play_ends(sql, g_sql, 12)
    await play_ends(mem, g_mem, 12)
    a = await store.load_events(g_sql)
    b = await mem.store.load_events(g_mem)
    assert [(s.seq, s.order) for s in a] == [(s.seq, s.order) for s in b]
    # Same events except where the game id enters (dice commitments are keyed by it).
    assert len(a) == len(b) and [type(s.event) for s in a] == [type(s.event) for s in b]
    assert state_json(replay([s.event for s in a])) == state_json(await mem.state(g_mem))
    assert await store.orders(g_sql) == await mem.store.orders(g_mem)
    rec = await store.get_game(g_sql)
    assert rec.channel == chan and rec.status == "active" and rec.seats["Germany"] == "alice"
    assert [g.id for g in await store.games_in_channel(chan)] == [g_sql]
    assert len(await store.get_secret(g_sql, fair.MASTER)) == 32
    export = await sql.export(g_sql)
    async with store.engine.connect() as conn:
        head = await conn.scalar(
            sa.select(EVENT.c.hash).where(EVENT.c.game_id == g_sql).order_by(EVENT.c.seq.desc())
        )
    assert export["log"]["head"] == head  # the stored chain is the export's chain


async def test_unknown_game_and_secret(store: SqlStore) -> None:
    with pytest.raises(GameNotFound):
        await store.get_game("nope")
    with pytest.raises(GameNotFound):
        await store.load_events("nope")
    rec = await store.create_game(
        edition="a1941", options=(), channel=channel(), owner="o", dice=DiceSpec(kind="fair")
    )
    await store.put_secret(rec.id, "m", b"\x00\x01")
    await store.put_secret(rec.id, "m", b"\x02")
    assert await store.get_secret(rec.id, "m") == b"\x02"
    with pytest.raises(Exception, match="keeps no secret"):
        await store.get_secret(rec.id, "other")


async def test_stale_writer_and_undo(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    n = len(await store.load_events(g))
    started = ev.TurnStarted(round=1, power="Germany")  # any event will do for the store
    with pytest.raises(StateMovedOn, match="moved on"):
        await store.append(g, n - 1, [started], person="x", power="Germany", text="stale")
    order = await store.append(g, n, [started], person="x", power="Germany", text="t")
    assert order.first_seq == n and order.count == 1
    head = (await store.load_events(g))[-1].hash
    with pytest.raises(StateMovedOn):
        await store.drop_last_order(g, order, "0" * 64)
    dropped = await store.drop_last_order(g, order, head)
    assert dropped.index == order.index
    again = await store.append(g, n, [started], person="x", power="Germany", text="t2")
    assert again.index == order.index + 1  # order indexes are never reused
    assert len(await store.load_events(g)) == n + 1


async def test_the_last_order_is_read_alone(store: SqlStore) -> None:
    """Undo and "who acted last" read the last order alone (issue 18: no cost that grows with
    the game): the same as the last of all the orders, after appends and an undo."""
    g = await seated_game(GameService(store), channel())
    assert await store.last_order(g) == (await store.orders(g))[-1]
    n = len(await store.load_events(g))
    started = ev.TurnStarted(round=1, power="Germany")
    first = await store.append(g, n, [started], person="x", power="Germany", text="one")
    second = await store.append(g, n + 1, [started], person="y", power="Germany", text="two")
    assert await store.last_order(g) == second == (await store.orders(g))[-1]
    await store.drop_last_order(g, second, (await store.load_events(g))[-1].hash)
    assert await store.last_order(g) == first


async def test_two_concurrent_writers_exactly_one_wins(db_url: str, store: SqlStore) -> None:
    """Two stores (two connection pools, as two processes would have) append at one seq."""
    g = await seated_game(GameService(store), channel())
    n = len(await store.load_events(g))
    other = await SqlStore.open(db_url, migrate=False)
    try:
        event = ev.TurnStarted(round=1, power="Germany")

        async def write(s: SqlStore, who: str) -> str:
            try:
                await s.append(g, n, [event, event], person=who, power="Germany", text=who)
            except StateMovedOn as e:
                return f"refused: {e}"
            return "ok"

        for _ in range(5):
            got = await asyncio.gather(write(store, "a"), write(other, "b"))
            assert sorted(x == "ok" for x in got) == [False, True], got
            assert "moved on" in next(x for x in got if x != "ok")
            assert len(await store.load_events(g)) == n + 2
            last = (await store.orders(g))[-1]
            await store.drop_last_order(g, last, (await store.load_events(g))[-1].hash)
    finally:
        await other.close()


async def test_two_services_submit_at_once(db_url: str, store: SqlStore) -> None:
    """Two services (two bot processes) accept the same order at once: one wins, one is told."""
    g = await seated_game(GameService(store), channel())
    other = await SqlStore.open(db_url, migrate=False)
    # Both have read the game before either writes (as two processes would, racing).
    barrier = asyncio.Barrier(2)
    for s in (store, other):
        append = s.append

        async def gated(*args: Any, _append: Any = append, **kw: Any) -> Any:
            await barrier.wait()
            return await _append(*args, **kw)

        s.append = gated  # type: ignore[method-assign]
    try:
        a, b = GameService(store), GameService(other)
        who = "alice" if (await a.state(g)).power in AXIS else "bob"
        ra, rb = await asyncio.gather(a.submit(g, who, "end confirm"),
                                      b.submit(g, who, "end confirm"))
        assert sorted([ra.ok, rb.ok]) == [False, True]
        loser = ra if not ra.ok else rb
        assert loser.error is not None and "moved on" in loser.error
    finally:
        await other.close()


async def test_edited_row_is_detected_and_refused(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 3)
    events = await store.load_events(g)
    victim = len(events) - 2
    async with store.engine.begin() as conn:
        payload = (
            await conn.execute(
                sa.select(EVENT.c.payload).where(EVENT.c.game_id == g, EVENT.c.seq == victim)
            )
        ).scalar_one()
        edited = {**payload, "zzz": 1}
        await conn.execute(
            EVENT.update()
            .where(EVENT.c.game_id == g, EVENT.c.seq == victim)
            .values(payload=edited)
        )
    with pytest.raises(CorruptGame, match=f"seq {victim}") as info:
        await store.load_events(g)
    assert info.value.seq == victim
    assert await store.check(g) is not None


async def test_deleted_row_is_detected(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 2)
    async with store.engine.begin() as conn:
        await conn.execute(EVENT.delete().where(EVENT.c.game_id == g, EVENT.c.seq == 3))
    with pytest.raises(CorruptGame, match="missing") as info:
        await store.load_events(g)
    assert info.value.seq == 3


async def test_corrupt_game_refuses_orders_until_owner_truncates(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 4)
    n = len(await store.load_events(g))
    async with store.engine.begin() as conn:
        await conn.execute(
            EVENT.update().where(EVENT.c.game_id == g, EVENT.c.seq == n - 3).values(hash="0" * 64)
        )
    r = await svc.submit(g, "alice", "end")  # refused before turns are even looked at
    assert not r.ok and r.error is not None and "corrupt" in r.error and f"#{n - 2}" in r.error
    assert not (await svc.status(g)).ok
    refused = await svc.resolve_corruption(g, "bob")
    assert not refused.ok and "owner" in (refused.error or "")
    done = await svc.resolve_corruption(g, "alice", "truncate")
    assert done.ok, done.error
    events = await store.load_events(g)
    assert len(events) < n - 3 + 1
    assert all(o.end_seq <= len(events) for o in await store.orders(g))
    await play_ends(svc, g, 2)  # the game goes on


async def test_owner_accepts_an_edited_hash_but_not_a_gap(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 2)
    n = len(await store.load_events(g))
    async with store.engine.begin() as conn:
        await conn.execute(
            EVENT.update().where(EVENT.c.game_id == g, EVENT.c.seq == 2).values(hash="f" * 64)
        )
    ok = await svc.resolve_corruption(g, "alice", "accept")
    assert ok.ok, ok.error
    assert len(await store.load_events(g)) == n
    async with store.engine.begin() as conn:
        await conn.execute(EVENT.delete().where(EVENT.c.game_id == g, EVENT.c.seq == 2))
    gap = await svc.resolve_corruption(g, "alice", "accept")
    assert not gap.ok and "truncate" in (gap.error or "")
    assert (await svc.resolve_corruption(g, "alice", "truncate")).ok
    assert len(await store.load_events(g)) <= 2
