"""Votes and servers in the store, on SQLite and PostgreSQL: a vote counts once however often
or concurrently it is given, and of racing last votes exactly one ends the game."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from db.engine import create_engine
from db.records import DiceSpec, OrderRecord
from db.repo import SqlStore
from rules import events as ev
from service.games import GameService
from service.store import MemoryStore
from tests.db.conftest import BACKENDS, channel, seated_game

SECRET = bytes(range(32))


def guild() -> str:
    """A server id no other test uses (the PostgreSQL database is shared by the session)."""
    return uuid.uuid4().hex[:12]


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_guild_is_stored_and_lists_the_server(store: SqlStore) -> None:
    g = guild()
    spec = DiceSpec("scripted")
    a = await store.create_game(edition="1941", options=(), channel=channel(), owner="alice",
                                dice=spec, guild=g)
    await store.create_game(edition="1941", options=(), channel=channel(), owner="bob",
                            dice=spec, guild=guild())
    assert (await store.get_game(a.id)).guild == g
    assert [r.id for r in await store.games_in_guild(g)] == [a.id]


async def _votes_once(s: SqlStore | MemoryStore, other: SqlStore | MemoryStore) -> None:
    rec = await s.create_game(edition="1941", options=(), channel=channel(), owner="alice",
                              dice=DiceSpec("scripted"))
    stores = [s, other]
    # The same vote given eight times at once, through two processes: one row.
    got = await asyncio.gather(
        *(stores[i % 2].cast_vote(rec.id, "cancel", "alice") for i in range(8))
    )
    assert all(v == ["alice"] for v in got)
    assert await s.cast_vote(rec.id, "cancel", "bob") == ["alice", "bob"]
    assert await s.votes(rec.id, "draw") == []
    assert await s.withdraw_vote(rec.id, "cancel", "alice") == ["bob"]
    assert await other.withdraw_vote(rec.id, "cancel", "alice") == ["bob"]
    assert await s.votes(rec.id, "cancel") == ["bob"]


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_votes_count_once_and_can_be_withdrawn(store: SqlStore, db_url: str) -> None:
    other = SqlStore(create_engine(db_url))  # a second bot process on the same database
    try:
        await _votes_once(store, other)
    finally:
        await other.close()


async def test_votes_count_once_in_memory() -> None:
    s = MemoryStore()
    await _votes_once(s, s)


class MeetingStore(SqlStore):
    """A real store whose appends of a game's end wait for each other before writing: both
    racing writers have read the same log when they append (the interleaving forced)."""

    def __init__(self, engine: AsyncEngine, meeting: asyncio.Barrier) -> None:
        super().__init__(engine)
        self.meeting = meeting

    async def append(self, game_id: str, expected_seq: int, events: Sequence[ev.Event],
                     *, person: str, power: str, text: str, dice_used: int = 0,
                     **kw: Any) -> OrderRecord:
        if text.startswith("game "):
            await self.meeting.wait()
        return await super().append(game_id, expected_seq, events, person=person,
                                    power=power, text=text, dice_used=dice_used, **kw)


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_racing_last_votes_cancel_exactly_once(store: SqlStore, db_url: str) -> None:
    game = await seated_game(GameService(store, draw_secret=lambda: SECRET), channel())
    meeting = asyncio.Barrier(2)
    one = GameService(MeetingStore(create_engine(db_url), meeting), draw_secret=lambda: SECRET)
    two = GameService(MeetingStore(create_engine(db_url), meeting), draw_secret=lambda: SECRET)
    try:
        assert (await one.cancel(game, "alice")).ok
        # bob's last vote arrives twice at once (a double click; two bot processes): both see
        # every vote in, both append the end at the same place; one write wins.
        a, b = await asyncio.gather(two.cancel(game, "bob"), one.cancel(game, "bob"))
        assert a.ok and b.ok
        assert sorted([(a.data or {})["ended"], (b.data or {})["ended"]]) == [False, True]
        loser = a if not (a.data or {})["ended"] else b
        assert "cancelled" in loser.answer
        log = [s.event for s in await store.load_events(game)]
        assert sum(isinstance(e, ev.GameEnded) for e in log) == 1
        assert sum(isinstance(e, ev.DiceSeedRevealed) and bool(e.master) for e in log) == 1
        assert (await store.get_game(game)).status == "cancelled"
        assert (await one.verify_dice(game)).ok
    finally:
        for s in (one.store, two.store):
            assert isinstance(s, SqlStore)
            await s.close()


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
async def test_two_players_vote_at_once_one_draw(store: SqlStore, db_url: str) -> None:
    game = await seated_game(GameService(store, draw_secret=lambda: SECRET), channel())
    one = GameService(SqlStore(create_engine(db_url)), draw_secret=lambda: SECRET)
    two = GameService(SqlStore(create_engine(db_url)), draw_secret=lambda: SECRET)
    try:
        a, b = await asyncio.gather(one.draw(game, "alice"), two.draw(game, "bob"))
        assert a.ok and b.ok
        assert [(a.data or {})["ended"], (b.data or {})["ended"]].count(True) == 1
        log = [s.event for s in await store.load_events(game)]
        assert [e for e in log if isinstance(e, ev.GameEnded)] == [
            ev.GameEnded(result="draw", powers=(
                "Soviet Union", "Germany", "United Kingdom", "Japan", "United States"))
        ]
        assert (await store.get_game(game)).status == "finished"
        # Archived: readable, exported, and it replays to the same end when imported.
        doc = await one.export(game)
        assert doc["events"][-2]["type"] == "GameEnded"
        copy = await GameService(MemoryStore(), draw_secret=lambda: SECRET).import_(
            doc, channel="elsewhere", unverified=True)
        assert copy.status == "finished"
    finally:
        for s in (one.store, two.store):
            assert isinstance(s, SqlStore)
            await s.close()
