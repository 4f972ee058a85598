"""Snapshots: load = latest snapshot + tail, and it equals a full replay."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from db.models import SNAPSHOT
from db.repo import SqlStore
from rules import codec
from rules.engine import replay
from rules.position import state_json
from service.games import GameService
from tests.db.conftest import BACKENDS, channel, play_ends, seated_game
from tests.service.test_games import ATTACK, POSITION, seated


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_snapshot_plus_tail_equals_full_replay(store: SqlStore) -> None:
    store.snapshot_every = 15
    svc = GameService(store)
    g = await seated_game(svc, channel())
    for _ in range(6):
        await play_ends(svc, g, 5)
        events = await store.load_events(g)
        via_snapshot = await store.load_state(g)
        full = replay([s.event for s in events])
        assert via_snapshot == full  # every field, units included
        assert via_snapshot is not None and state_json(via_snapshot) == state_json(full)
    async with store.engine.connect() as conn:
        seqs = list(
            (
                await conn.execute(
                    sa.select(SNAPSHOT.c.seq).where(SNAPSHOT.c.game_id == g).order_by("seq")
                )
            ).scalars()
        )
    assert len(seqs) >= 2 and seqs[-1] <= len(events)
    # After an undo below the last snapshot the stale one is gone and loading still agrees.
    last = (await store.orders(g))[-1]
    await store.drop_last_order(g, last, events[-1].hash)
    events = await store.load_events(g)
    assert await store.load_state(g) == replay([s.event for s in events])
    assert last.first_seq == len(events)


async def test_state_json_round_trip_mid_battle() -> None:
    svc = GameService()
    g = await seated(svc, dice=[6, 6, 1, 1, 1, 1], position=POSITION)
    r = await svc.submit(g, "alice", ATTACK)
    assert r.ok, r.error
    await svc.submit(g, "alice", "end")
    state = await svc.state(g)
    assert state.battles, "the position should have a battle by now"
    assert codec.state_from_json(codec.state_to_json(state)) == state
