"""Edit proposals in SQLite and PostgreSQL: the store methods, the whole consent flow over a
database, and races (two confirmations, a confirmation and a rejection) forced to interleave:
exactly one decision wins."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from db.repo import SqlStore
from rules import events as ev
from service.games import GameService
from service.store import EditDecided, StateMovedOn, StoreError
from tests.db.conftest import BACKENDS, channel, seated_game

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


async def test_store_keeps_numbers_and_decisions(store: SqlStore) -> None:
    g = await seated_game(GameService(store), channel())
    n = len(await store.load_events(g))
    p1 = await store.propose_edit(g, "alice", "edit money Germany 5", n)
    p2 = await store.propose_edit(g, "alice", "edit money Japan 5", n)
    assert (p1.number, p2.number) == (1, 2) and p1.status == "pending"
    assert await store.get_edit(g, 2) == p2
    with pytest.raises(StoreError, match="no edit #3"):
        await store.get_edit(g, 3)
    e = ev.EditApplied(proposal=1, text=p1.text, proposer="alice", agreed="bob",
                       treasury=(("Germany", 5),))
    placed = await store.apply_edit(g, 1, "bob", n, [e], text="edit confirm 1")
    assert placed.first_seq == n and placed.power == "" and placed.person == "bob"
    assert (await store.get_edit(g, 1)).status == "applied"
    with pytest.raises(EditDecided, match="already applied"):
        await store.apply_edit(g, 1, "bob", n + 1, [e], text="edit confirm 1")
    with pytest.raises(StateMovedOn):  # a stale log writes nothing, the proposal stays open
        await store.apply_edit(g, 2, "bob", n, [e], text="edit confirm 2")
    assert (await store.get_edit(g, 2)).status == "pending"
    rejected = await store.reject_edit(g, 2, "alice")
    assert rejected.status == "rejected" and rejected.decided_by == "alice"
    with pytest.raises(EditDecided, match="already rejected"):
        await store.reject_edit(g, 2, "bob")
    assert [p.status for p in await store.edit_proposals(g)] == ["applied", "rejected"]
    assert len(await store.load_events(g)) == n + 1  # the chain holds (load checks it)


async def test_consent_flow_over_the_database(db_url: str, store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    assert (await svc.submit(g, "alice", "edit add 2 infantry in Germany")).ok
    assert not (await svc.submit(g, "alice", "edit confirm 1")).ok
    r = await svc.submit(g, "bob", "edit confirm 1")
    assert r.ok, r.error
    # A second process (a restarted bot) reads the same state and the same decided proposal.
    other = await SqlStore.open(db_url, migrate=False)
    try:
        again = GameService(other)
        assert (await again.state(g)).units == (await svc.state(g)).units
        stale = await again.submit(g, "bob", "edit confirm 1")
        assert stale.error == "Edit #1 was already applied (confirmed by bob)."
    finally:
        await other.close()


def _gate(store: Any, barrier: asyncio.Barrier, name: str) -> None:
    """Make ``store.<name>`` wait at ``barrier``: both writers have read and decided first."""
    real = getattr(store, name)

    async def gated(*args: Any, **kw: Any) -> Any:
        await barrier.wait()
        return await real(*args, **kw)

    setattr(store, name, gated)


async def _race(db_url: str, store: SqlStore, second: str) -> list[Any]:
    g = await seated_game(GameService(store), channel())
    assert (await GameService(store).submit(g, "alice", "edit money Germany 77")).ok
    other = await SqlStore.open(db_url, migrate=False)
    barrier = asyncio.Barrier(2)
    _gate(store, barrier, "apply_edit")
    _gate(other, barrier, "apply_edit" if second == "confirm" else "reject_edit")
    try:
        a, b = GameService(store), GameService(other)
        results = await asyncio.gather(
            a.submit(g, "bob", "edit confirm 1"), b.submit(g, "bob", f"edit {second} 1"))
        events = await store.load_events(g)
        applied = [s for s in events if isinstance(s.event, ev.EditApplied)]
        final = await store.get_edit(g, 1)
        return [results, applied, final]
    finally:
        await other.close()


async def test_two_racing_confirmations_apply_once(db_url: str, store: SqlStore) -> None:
    (ra, rb), applied, final = await _race(db_url, store, "confirm")
    assert sorted([ra.ok, rb.ok]) == [False, True]
    loser = ra if not ra.ok else rb
    assert loser.error == "Edit #1 was already applied (confirmed by bob)."
    assert len(applied) == 1 and final.status == "applied"


async def test_a_confirmation_racing_a_rejection_one_wins(db_url: str, store: SqlStore) -> None:
    (ra, rb), applied, final = await _race(db_url, store, "reject")
    assert sorted([ra.ok, rb.ok]) == [False, True]
    if ra.ok:
        assert final.status == "applied" and len(applied) == 1
        assert rb.error == "Edit #1 was already applied (confirmed by bob)."
    else:
        assert final.status == "rejected" and applied == []
        assert ra.error == "Edit #1 was already rejected (rejected by bob)."


async def test_racing_proposals_get_distinct_numbers(db_url: str, store: SqlStore) -> None:
    g = await seated_game(GameService(store), channel())
    other = await SqlStore.open(db_url, migrate=False)
    try:
        got = await asyncio.gather(
            *(s.propose_edit(g, "alice", f"edit money Germany {i}", 0)
              for i, s in enumerate([store, other, store, other])))
        assert sorted(p.number for p in got) == [1, 2, 3, 4]
    finally:
        await other.close()
