"""Orders at the speed of the database (issue 18): a game held in memory is brought up to date
by reading only what follows its head, and what was changed below that head is still caught."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from db.models import EVENT, SNAPSHOT
from db.repo import SqlStore
from service.games import GameService
from tests.db.conftest import AXIS, BACKENDS, channel, play_ends, seated_game

pytestmark = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)


class Reads:
    """What the store reads while installed: whole logs, tails (their lengths), statements."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: SqlStore) -> None:
        self.whole = 0
        self.tails: list[int] = []
        self.statements = 0
        whole, tail = store.load_events, store.load_after

        async def load_events(game_id: str) -> Any:
            self.whole += 1
            return await whole(game_id)

        async def load_after(game_id: str, seq: int, hash: str, edits: int) -> Any:
            got = await tail(game_id, seq, hash, edits)
            self.tails.append(-1 if got is None else len(got[1]))
            return got

        monkeypatch.setattr(store, "load_events", load_events)
        monkeypatch.setattr(store, "load_after", load_after)

        def count(*_: Any) -> None:
            self.statements += 1

        sa.event.listen(store.engine.sync_engine, "before_cursor_execute", count)
        self.writes = 0
        write = store._write

        def counting_write() -> Any:
            self.writes += 1
            return write()

        monkeypatch.setattr(store, "_write", counting_write)

    def reset(self) -> None:
        self.whole, self.tails, self.statements, self.writes = 0, [], 0, 0


async def _end(svc: GameService, game: str) -> str:
    state = await svc.state(game)
    r = await svc.submit(game, "alice" if state.power in AXIS else "bob", "end confirm")
    assert r.ok, r.error
    return r.answer


async def test_an_order_reads_the_head_not_the_log(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    reads = Reads(monkeypatch, store)
    per_order = []
    for _ in range(3):
        await play_ends(svc, g, 10)
        reads.reset()
        await _end(svc, g)
        assert reads.whole == 0  # the log is not read again
        assert reads.writes == 1  # one write: the events, the order and the head published
        assert reads.tails and set(reads.tails) == {0}  # nothing new: no event row read
        per_order.append(reads.statements)
    assert len(await store.load_events(g)) > 30
    # The same statements at event ~40 as at event ~15: the cost does not grow with the log.
    assert per_order[0] == per_order[-1], per_order


async def test_another_process_writing_is_read_as_the_tail(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, theirs = GameService(store), GameService(store)
    g = await seated_game(mine, channel())
    await play_ends(mine, g, 2)
    before = len(await store.load_events(g))
    await play_ends(theirs, g, 3)  # another process (its own cache) plays on
    added = len(await store.load_events(g)) - before
    reads = Reads(monkeypatch, store)
    state = await mine.state(g)
    assert reads.whole == 0 and reads.tails == [added]
    assert state == await GameService(store).state(g, verify=True)  # the same state, folded on
    reads.reset()
    await _end(mine, g)
    await _end(theirs, g)  # and back: each reads the other's order as its tail
    assert reads.whole == 0, reads.tails


async def test_an_edit_below_the_held_head_is_still_caught(store: SqlStore) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 4)
    n = len(await store.load_events(g))
    async with store.engine.begin() as conn:  # a payload changed in the middle, hashes kept
        row = (await conn.execute(sa.select(EVENT.c.payload).where(
            EVENT.c.game_id == g, EVENT.c.seq == n - 4))).one()
        await conn.execute(EVENT.update().where(EVENT.c.game_id == g, EVENT.c.seq == n - 4)
                           .values(payload={**row.payload, "note": "edited"}))
    r = await svc.submit(g, "alice", "end confirm")  # refused before turns are looked at
    assert not r.ok and "corrupt" in (r.error or "") and f"#{n - 3}" in (r.error or ""), r.error


async def test_a_tail_that_breaks_the_chain_is_caught(store: SqlStore) -> None:
    svc, other = GameService(store), GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 2)
    n = len(await store.load_events(g))
    await play_ends(other, g, 2)
    async with store.engine.begin() as conn:  # an appended row's hash replaced, then undone
        # by the count: a row removed and put back as it was, except its hash
        row = (await conn.execute(sa.select(EVENT).where(
            EVENT.c.game_id == g, EVENT.c.seq == n))).one()
        await conn.execute(EVENT.delete().where(EVENT.c.game_id == g, EVENT.c.seq >= n))
    async with store.engine.begin() as conn:
        await conn.execute(EVENT.insert().values(
            game_id=g, seq=n, order_index=row.order_index, payload=row.payload, hash="0" * 64))
    r = await svc.submit(g, "alice", "end confirm")
    assert not r.ok and "corrupt" in (r.error or ""), r.error


async def test_the_head_shown_is_recorded_in_the_orders_write(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 1)
    reads = Reads(monkeypatch, store)
    said = await _end(svc, g)
    n = len(await store.load_events(g))
    heads = await store.published_heads(g)
    assert heads[-1] == (n, (await store.load_events(g))[-1].hash)
    assert f"Log #{n} · {heads[-1][1][:8]}" in said
    assert reads.writes == 1


async def test_a_held_game_keeps_its_snapshots(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.snapshot_every = 10
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 1)
    reads = Reads(monkeypatch, store)
    await play_ends(svc, g, 20)
    assert reads.whole == 0
    n = len(await store.load_events(g))
    async with store.engine.connect() as conn:
        seqs = list((await conn.execute(sa.select(SNAPSHOT.c.seq).where(
            SNAPSHOT.c.game_id == g).order_by(SNAPSHOT.c.seq))).scalars())
    assert len(seqs) >= 2 and n - seqs[-1] < 10 + 5, (seqs, n)  # one order adds a few events
    assert await store.snapshot_problems(g) == []
    assert await GameService(store).state(g) == await svc.state(g)


async def test_an_order_to_a_held_game_is_one_read_statement_and_one_write(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 18: an order to a held game reads the record, its seats, the log's head and its
    count of edited rows in one statement (``_probe``); the write checks the head it names
    in the statement that locks the game's row; the line is read with the held record."""
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 3)
    power = (await svc.state(g)).power
    reads = Reads(monkeypatch, store)
    probes, records = 0, 0
    probe, get_game = store._probe, store.get_game

    async def counting_probe(game_id: str) -> Any:
        nonlocal probes
        probes += 1
        return await probe(game_id)

    async def counting_get(game_id: str) -> Any:
        nonlocal records
        records += 1
        return await get_game(game_id)

    monkeypatch.setattr(store, "_probe", counting_probe)
    monkeypatch.setattr(store, "get_game", counting_get)
    statements: list[str] = []
    sa.event.listen(store.engine.sync_engine, "before_cursor_execute",
                    lambda _c, _cur, sql, *_: statements.append(sql.split()[0].upper()))
    driver = store._driver

    class Counted:  # PostgreSQL: the order's statements run on asyncpg itself (db.sql_core.Raw)
        def __init__(self, pg: Any) -> None:
            self.pg = pg

        def __getattr__(self, name: str) -> Any:
            attr = getattr(self.pg, name)
            if name not in ("fetch", "fetchrow", "fetchval", "execute", "executemany"):
                return attr

            async def counted(sql: str, *args: Any) -> Any:
                statements.append(sql.split()[0].upper())
                return await attr(sql, *args)

            return counted

    async def counted_driver(conn: Any) -> Any:
        return Counted(await driver(conn))

    monkeypatch.setattr(store, "_driver", counted_driver)
    r = await svc.submit(g, "alice" if power in AXIS else "bob", "end confirm")
    assert r.ok, r.error
    assert (probes, records, reads.whole, reads.writes) == (1, 0, 0, 1)
    # One SELECT (the probe), then the write: the row locked with the head read, the events,
    # the head published, the order; on PostgreSQL all four in one statement (APPEND_PG).
    # (SQLite's BEGIN is a statement of its own.)
    said = [s for s in statements if s != "BEGIN"]
    if store.engine.dialect.name == "postgresql":
        assert said == ["SELECT", "WITH"], statements
    else:
        assert said == ["SELECT", "UPDATE", "INSERT", "INSERT", "INSERT"], statements


async def test_an_append_names_the_edits_it_read_under(store: SqlStore) -> None:
    """The held log's count of edited rows is checked in the write: an undo (rows removed)
    between the read and the write refuses the append, even at the same length and head."""
    svc = GameService(store)
    g = await seated_game(svc, channel())
    await play_ends(svc, g, 2)
    events = await store.load_events(g)
    edits = await store.log_edits(g)
    e = events[-1].event
    async with store.engine.begin() as conn:  # a row updated to itself: the count moves
        await conn.execute(EVENT.update().where(EVENT.c.game_id == g, EVENT.c.seq == 0)
                           .values(order_index=0))
    with pytest.raises(Exception, match="moved on"):
        await store.append(g, len(events), [e], person="bob", power="Soviet Union", text="x",
                           head=events[-1].hash, edits=edits)
    assert len(await store.load_events(g)) == len(events)


async def test_held_games_are_bounded(store: SqlStore) -> None:
    """At most ``held_games`` games are held (the least recently played let go); a game let
    go is read again from the store and plays on."""
    svc = GameService(store, held_games=2)
    games = [await seated_game(svc, channel()) for _ in range(3)]
    for g in games:
        await play_ends(svc, g, 1)
    assert list(svc._cache) == games[1:]
    await play_ends(svc, games[0], 2)
    assert list(svc._cache) == [games[2], games[0]]
    fresh = GameService(store)
    for g in games:
        assert await fresh.state(g, verify=True) == await svc.state(g)
