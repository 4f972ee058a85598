"""Rows edited in the database (issue 12, items 4 and 5): snapshots tied to the hash chain, a cut
or rewritten log caught by the heads published to the players, and the owner's repair."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from db.models import EVENT, SNAPSHOT
from db.repo import SqlStore
from db.sql_core import next_hash
from rules.engine import replay
from service.games import GameService
from service.store import CorruptGame
from tests.db.conftest import BACKENDS, channel, play_ends, seated_game

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


async def _snapshot_seqs(store: SqlStore, g: str) -> list[int]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(SNAPSHOT.c.seq).where(SNAPSHOT.c.game_id == g).order_by(SNAPSHOT.c.seq)
        )
        return [int(r[0]) for r in rows]


async def _edit_snapshot_treasury(store: SqlStore, g: str, seq: int, power: str, to: int) -> int:
    """Set ``power``'s treasury in the snapshot row at ``seq``; the value it had."""
    async with store.engine.begin() as conn:
        doc = (
            await conn.execute(
                sa.select(SNAPSHOT.c.state).where(SNAPSHOT.c.game_id == g, SNAPSHOT.c.seq == seq)
            )
        ).scalar_one()
        was = int(doc["treasury"][power])
        doc = {**doc, "treasury": {**doc["treasury"], power: to}}
        await conn.execute(
            SNAPSHOT.update()
            .where(SNAPSHOT.c.game_id == g, SNAPSHOT.c.seq == seq)
            .values(state=doc)
        )
    return was


async def test_an_edited_snapshot_is_ignored_and_reported(store: SqlStore) -> None:
    store.snapshot_every = 5
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 7)
    seqs = await _snapshot_seqs(store, g)
    assert seqs, "a snapshot should have been written"
    seq = seqs[-1]
    power = "Soviet Union"
    was = await _edit_snapshot_treasury(store, g, seq, power, 999)
    assert was != 999
    fresh = GameService(store)  # no state cached: the snapshot is what a restart would read
    state = await fresh.state(g)
    # The edited 999 is not used: the state is the replay of the log.
    assert state == replay([s.event for s in await store.load_events(g)])
    assert state.treasury[power] < 999
    status = await fresh.status(g)
    assert status.ok, status.error
    assert f"Warning: the snapshot after event #{seq} was ignored" in status.answer
    assert "edited" in status.answer and "'game repair truncate'" in status.answer
    check = await fresh.check_game(g)
    assert not check.ok and f"snapshot after event #{seq} is ignored" in (check.error or "")
    assert await store.snapshot_problems(g) == [
        (seq, "its content does not match its hash: the snapshot was edited")
    ]
    # Only the owner repairs; the repair drops the ignored snapshot and the game goes on.
    assert not (await fresh.resolve_corruption(g, "bob", "truncate")).ok
    done = await fresh.resolve_corruption(g, "alice", "truncate")
    assert done.ok and "Ignored 1 snapshot dropped" in done.answer, done.error
    assert await store.snapshot_problems(g) == []
    assert "Warning" not in (await fresh.status(g)).answer
    await play_ends(fresh, g, 1)


async def test_a_snapshot_of_another_log_is_ignored(store: SqlStore) -> None:
    store.snapshot_every = 5
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 7)
    seq = (await _snapshot_seqs(store, g))[-1]
    await _edit_snapshot_treasury(store, g, seq, "Soviet Union", 999)
    # The editor also recomputes the content hash, but the snapshot still names the log's hash
    # at its seq: change that as well and it no longer follows this log.
    from db import snapshot as snap

    async with store.engine.begin() as conn:
        doc = (
            await conn.execute(
                sa.select(SNAPSHOT.c.state).where(SNAPSHOT.c.game_id == g, SNAPSHOT.c.seq == seq)
            )
        ).scalar_one()
        await conn.execute(
            SNAPSHOT.update()
            .where(SNAPSHOT.c.game_id == g, SNAPSHOT.c.seq == seq)
            .values(state_hash=snap.content_hash(doc), hash="0" * 64)
        )
    state = await GameService(store).state(g)
    assert state.treasury["Soviet Union"] != 999
    assert [why for _, why in await store.snapshot_problems(g)] == [
        "the log's hash at that event differs: it follows another log"
    ]


async def test_cutting_the_end_of_the_log_is_detected(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 3)  # each 'end' posts a phase summary with the log's head
    n = len(await store.load_events(g))
    heads = await store.published_heads(g)
    assert heads and heads[-1][0] == n
    assert heads[-1][1] == await store.hash_at(g, n)
    async with store.engine.begin() as conn:  # delete the last two events rows
        await conn.execute(EVENT.delete().where(EVENT.c.game_id == g, EVENT.c.seq >= n - 2))
    with pytest.raises(CorruptGame, match="removed from its end") as info:
        await store.load_events(g)
    assert f"the log ends after event #{n - 2}" in str(info.value)
    fresh = GameService(store)
    r = await fresh.submit(g, "bob", "end")
    assert not r.ok and "corrupt" in (r.error or "") and "game repair" in (r.error or "")
    assert "owner (alice)" in (r.error or "")
    done = await fresh.resolve_corruption(g, "alice", "truncate")
    assert done.ok, done.error
    assert len(await store.load_events(g)) <= n - 2
    assert all(seq <= n - 2 for seq, _ in await store.published_heads(g))
    assert "Log #" in done.answer
    await play_ends(fresh, g, 2)  # the game goes on


async def test_a_rewritten_and_rehashed_log_is_detected(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 3)
    heads = await store.published_heads(g)
    # Rewrite an event after the first published head and recompute every hash after it.
    first = heads[0][0]
    async with store.engine.begin() as conn:
        rows = (
            await conn.execute(
                sa.select(EVENT.c.seq, EVENT.c.payload).where(EVENT.c.game_id == g)
                .order_by(EVENT.c.seq)
            )
        ).all()
        prev = g
        for r in rows:
            payload = dict(r.payload)
            if r.seq == first:
                payload["zzz"] = 1
            prev = next_hash(prev, payload)
            await conn.execute(
                EVENT.update()
                .where(EVENT.c.game_id == g, EVENT.c.seq == r.seq)
                .values(payload=payload, hash=prev)
            )
    assert await store.check(g) is not None
    with pytest.raises(CorruptGame, match="rewritten") as info:
        await store.load_events(g)
    assert info.value.seq == first  # trusted up to the last head it still matches
    # Truncating goes back to the last head the log still matched.
    done = await GameService(store).resolve_corruption(g, "alice", "truncate")
    assert done.ok, done.error
    assert len(await store.load_events(g)) == first
    assert [s for s, _ in await store.published_heads(g)] == [first]


async def test_undo_retires_the_heads_it_takes_back(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    n = len(await store.load_events(g))
    await svc.publish_head(g)  # e.g. the status message showed it
    r = await svc.submit(g, "bob", "buy 1 infantry")  # 1941: the Soviet Union opens
    assert r.ok, r.error
    seq, h = await svc.publish_head(g)
    assert seq > n
    undone = await svc.undo(g, "bob")
    assert undone.ok, undone.error
    assert [s for s, _ in await store.published_heads(g)][-1] == n
    await store.load_events(g)  # not corrupt: the undo went through the store
    # A head read before the undo and recorded after it (a status racing the undo) is not kept.
    await store.publish_head(g, seq, h)
    assert [s for s, _ in await store.published_heads(g)][-1] == n
    await store.load_events(g)
