"""Races and crash points of issue 12, items 1-3, forced deterministically (and for real).

Two ``GameService`` objects share one store, as two bot processes (or two clicks in one) would.
A ``Hooked`` store lets one of them run a hook at a chosen point (before or after a chosen store
call), so the other service's orders land exactly in between: the interleavings that lost a
game's log (undo), wrote over a seat (join), or made two games in one channel (new). Each runs on
the memory store, a SQLite file and PostgreSQL. The same races are then run with real
concurrency: several stores (engines, connection pools) over one database, ``asyncio.gather``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from db.engine import create_engine, sqlite_url
from db.migrate import upgrade
from db.repo import SqlStore
from rules import events as ev
from service import fair
from service.games import GameService, ServiceError, start_events
from service.store import MemoryStore
from tests.db.conftest import ALLIES, AXIS, channel

Hook = Callable[[], Awaitable[None]]

BACKENDS3 = ["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
ALL3 = pytest.mark.parametrize("backend", BACKENDS3, indirect=True)


class Hooked:
    """A store that runs ``hook`` once, before (or after) the first call of ``method``."""

    def __init__(self, inner: Any, method: str, hook: Hook, *, after: bool = False) -> None:
        self.inner = inner
        self.method = method
        self.hook: Hook | None = hook
        self.after = after

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name != self.method or self.hook is None:
            return attr

        async def hooked(*args: Any, **kw: Any) -> Any:
            hook, self.hook = self.hook, None
            assert hook is not None
            if not self.after:
                await hook()
            out = await attr(*args, **kw)
            if self.after:
                await hook()
            return out

        return hooked


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return sqlite_url(tmp_path / "races.sqlite3")
    if backend == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return ""


@pytest.fixture
async def stores(backend: str, url: str) -> AsyncIterator[Callable[[], Awaitable[Any]]]:
    """Opens stores over one database: each call another store (its own engine) on it."""
    opened: list[SqlStore] = []
    memory = MemoryStore()
    if backend == "sqlite":
        await upgrade(url)

    async def another() -> Any:
        if backend == "memory":
            return memory
        s = SqlStore(create_engine(url))
        opened.append(s)
        return s

    yield another
    for s in opened:
        await s.close()


def svc(store: Any) -> GameService:
    return GameService(store, draw_secret=lambda: b"k" * 32)


async def lobby(a: GameService, chan: str) -> str:
    return (await a.create(chan, "alice", "1941")).id


async def started(a: GameService, chan: str) -> str:
    g = await lobby(a, chan)
    for p in AXIS:
        assert (await a.join(g, "alice", p)).ok
    for p in ALLIES:
        assert (await a.join(g, "bob", p)).ok
    r = await a.start(g, "alice")
    assert r.ok, r.error
    return g


async def texts(store: Any, g: str) -> list[str]:
    return [o.text for o in await store.orders(g)]


# --- item 1: every write a compare-and-set on the exact head ------------------------------------


@ALL3
async def test_undo_races_an_undo_and_a_new_order_and_is_refused(stores: Any) -> None:
    """Between the undoer's load and its drop, the same player (another click, another process)
    undoes the order and gives another of the same length: the first undo must not drop the
    order it never looked at, and says that nothing was undone."""
    base = await stores()
    b = svc(await stores())
    g = await started(svc(base), channel())
    assert (await b.submit(g, "bob", "buy 1 infantry")).ok

    async def meanwhile() -> None:
        assert (await b.undo(g, "bob")).ok
        assert (await b.submit(g, "bob", "buy 1 tank")).ok

    a = svc(Hooked(base, "drop_last_order", meanwhile))
    r = await a.undo(g, "bob")
    assert not r.ok, r.answer
    assert r.error is not None and "nothing was undone" in r.error and "Look at" in r.error
    assert (await texts(base, g))[-1] == "buy 1 tank"
    assert (await svc(base).state(g)).purchase == {"tank": 1}


@ALL3
async def test_undo_after_the_log_shrank_drops_nothing(stores: Any) -> None:
    """Two undos of one order: the second finds it gone and drops nothing more (the start
    stays, and the game goes on)."""
    base = await stores()
    b = svc(await stores())
    g = await started(svc(base), channel())
    assert (await b.submit(g, "bob", "buy 1 infantry")).ok
    n_start = len(await base.orders(g)) - 1

    async def meanwhile() -> None:
        assert (await b.undo(g, "bob")).ok
        # Another order of another length, so only the head hash can tell.
        assert (await b.submit(g, "bob", "buy 1 tank")).ok
        assert (await b.undo(g, "bob")).ok

    a = svc(Hooked(base, "drop_last_order", meanwhile))
    r = await a.undo(g, "bob")
    assert not r.ok and "nothing was undone" in (r.error or "")
    orders = await base.orders(g)
    assert len(orders) == n_start and orders[0].text == "game start"
    assert (await svc(base).status(g)).ok  # the game goes on
    assert (await svc(base).submit(g, "bob", "buy 1 infantry")).ok


@ALL3
async def test_append_checks_the_head_it_read_not_only_the_count(stores: Any) -> None:
    """An order decided on a log that was then changed to another of the same length is refused
    (a count alone cannot see it)."""
    base = await stores()
    b = svc(await stores())
    g = await started(svc(base), channel())
    assert (await b.submit(g, "bob", "buy 1 infantry")).ok

    async def meanwhile() -> None:
        assert (await b.undo(g, "bob")).ok
        assert (await b.submit(g, "bob", "buy 1 tank")).ok

    a = svc(Hooked(base, "append", meanwhile))
    r = await a.submit(g, "bob", "buy 1 infantry")
    assert not r.ok and "moved on" in (r.error or "")
    assert (await texts(base, g))[-1] == "buy 1 tank"
    assert (await svc(base).state(g)).purchase == {"tank": 1}


@ALL3
async def test_store_drop_names_the_exact_order(stores: Any) -> None:
    store = await stores()
    g = await started(svc(store), channel())
    e = ev.StandingOrderSet(power="Soviet Union", order=("infantry",))
    events = await store.load_events(g)
    first = await store.append(g, len(events), [e], person="bob", power="Soviet Union", text="x",
                               head=events[-1].hash)
    events = await store.load_events(g)
    with pytest.raises(Exception, match="moved on"):  # the head named is not the head
        await store.append(g, len(events), [e], person="bob", power="Soviet Union", text="y",
                           head=g)
    with pytest.raises(Exception, match="nothing was undone"):
        await store.drop_last_order(g, first, "0" * 64)
    orders = await store.orders(g)
    with pytest.raises(Exception, match="nothing was undone"):  # not the last order
        await store.drop_last_order(g, orders[0], events[-1].hash)
    assert await store.drop_last_order(g, first, events[-1].hash) == first
    assert len(await store.load_events(g)) == len(events) - 1


# --- item 2: 'game start' in one write; a start cut short is completed -------------------------


@ALL3
async def test_start_crash_between_its_steps_leaves_a_startable_game(stores: Any) -> None:
    """A crash right after the start's first write (here: the status change raises, as a kill
    there would) leaves no half-started game: the start is one write now, and 'game start'
    again (or at once) gives an active game whose channel is not blocked."""
    base = await stores()
    chan = channel()
    g = await lobby(svc(base), chan)
    for p in AXIS:
        assert (await svc(base).join(g, "alice", p)).ok
    for p in ALLIES:
        assert (await svc(base).join(g, "bob", p)).ok

    async def crash() -> None:
        raise RuntimeError("killed between the start's two writes")

    a = svc(Hooked(base, "set_status", crash))
    try:
        first = await a.start(g, "alice")
    except RuntimeError:
        first = None
    again = await svc(base).start(g, "alice")
    assert (first is not None and first.ok) or again.ok, again.error
    rec = await base.get_game(g)
    assert rec.status == "active"
    assert (await texts(base, g)).count("game start") == 1
    assert (await svc(base).submit(g, "bob", "buy 1 infantry")).ok


@ALL3
async def test_a_start_left_in_the_lobby_is_completed(stores: Any) -> None:
    """What an older version left behind when killed between its two writes: the start's events
    in the log, the game still in the lobby. 'game start' completes it."""
    base = await stores()
    a = svc(base)
    g = await lobby(a, channel())
    for p in AXIS:
        assert (await a.join(g, "alice", p)).ok
    for p in ALLIES:
        assert (await a.join(g, "bob", p)).ok
    # The first of the old two writes, done by hand.
    await base.append(g, 0, start_events(await base.get_game(g)), person="alice", power="",
                      text="game start")
    assert (await base.get_game(g)).status == "lobby"
    refused = await a.start(g, "bob")
    assert not refused.ok and "owner" in (refused.error or "")
    r = await a.start(g, "alice")
    assert r.ok, r.error
    assert "cut short" in r.answer and "complete now" in r.answer
    assert (await base.get_game(g)).status == "active"
    assert (await a.submit(g, "bob", "buy 1 infantry")).ok


@ALL3
async def test_start_refused_when_the_seats_changed_meanwhile(stores: Any) -> None:
    base = await stores()
    b = svc(await stores())
    g = await lobby(svc(base), channel())
    for p in AXIS:
        assert (await b.join(g, "alice", p)).ok
    for p in ALLIES:
        assert (await b.join(g, "bob", p)).ok

    async def meanwhile() -> None:  # bob gives up his seats between the check and the write
        assert (await b.leave(g, "bob")).ok

    r = await svc(Hooked(base, "start_game", meanwhile)).start(g, "alice")
    assert not r.ok and "seats changed" in (r.error or "")
    assert (await base.get_game(g)).status == "lobby" and await base.load_events(g) == []


@ALL3
async def test_a_won_game_is_finished_in_the_same_write(stores: Any) -> None:
    """Ending votes append the end and set the status in one write: a crash after it leaves a
    finished game, never an active game whose log says it ended."""
    base = await stores()
    g = await started(svc(base), channel())

    async def crash() -> None:
        raise RuntimeError("killed after the end was written")

    a = svc(Hooked(base, "set_status", crash))
    assert (await a.draw(g, "alice")).ok
    r = await a.draw(g, "bob")
    assert r.ok, r.error
    assert (await base.get_game(g)).status == "finished"


# --- item 3: lobby races -------------------------------------------------------------------------


@ALL3
async def test_two_joins_of_one_seat_one_is_acknowledged(stores: Any) -> None:
    base = await stores()
    b = svc(await stores())
    g = await lobby(svc(base), channel())

    async def meanwhile() -> None:
        assert (await b.join(g, "dave", "Germany")).ok

    r = await svc(Hooked(base, "get_game", meanwhile, after=True)).join(g, "carol", "Germany")
    assert not r.ok and r.error == "Germany is taken by dave."
    assert (await base.get_game(g)).seats == {"Germany": "dave"}


@ALL3
async def test_joins_of_both_sides_by_one_person_P_1(stores: Any) -> None:
    base = await stores()
    b = svc(await stores())
    g = await lobby(svc(base), channel())

    async def meanwhile() -> None:
        assert (await b.join(g, "carol", "Soviet Union")).ok

    r = await svc(Hooked(base, "get_game", meanwhile, after=True)).join(g, "carol", "Germany")
    assert not r.ok and "One person plays powers of one side only (P-1)" in (r.error or "")
    assert "You hold Soviet Union (Allies)" in (r.error or "")
    assert (await base.get_game(g)).seats == {"Soviet Union": "carol"}


@ALL3
async def test_two_game_new_in_one_channel_make_one_game(stores: Any) -> None:
    base = await stores()
    b = svc(await stores())
    chan = channel()
    made: list[str] = []

    async def meanwhile() -> None:
        made.append((await b.create(chan, "bob", "1941")).id)

    a = svc(Hooked(base, "games_in_channel", meanwhile, after=True))
    with pytest.raises(ServiceError, match="already has game") as refused:
        await a.create(chan, "alice", "1941")
    assert f"already has game {made[0]} (lobby)" in str(refused.value)
    assert [g.id for g in await base.games_in_channel(chan)] == made


@ALL3
async def test_leave_and_start_race(stores: Any) -> None:
    """The owner starts while a player leaves: either the game starts with every seat held, or
    the leave wins and the start is refused; never an active game with an open seat."""
    base = await stores()
    b = svc(await stores())
    g = await lobby(svc(base), channel())
    for p in AXIS:
        assert (await b.join(g, "alice", p)).ok
    for p in ALLIES:
        assert (await b.join(g, "bob", p)).ok

    async def meanwhile() -> None:
        assert (await b.start(g, "alice")).ok

    r = await svc(Hooked(base, "get_game", meanwhile, after=True)).leave(g, "bob")
    assert not r.ok and "has started" in (r.error or "")
    rec = await base.get_game(g)
    assert rec.status == "active" and len(rec.seats) == 5


# --- the same races with real concurrency: several engines over one database -----------------


@ALL3
async def test_concurrent_joins_of_one_seat_exactly_one_acknowledged(stores: Any) -> None:
    g = await lobby(svc(await stores()), channel())
    people = [f"p{i}" for i in range(4)]
    services = [svc(await stores()) for _ in people]
    results = await asyncio.gather(
        *(s.join(g, who, "Germany") for s, who in zip(services, people, strict=True))
    )
    winners = [who for who, r in zip(people, results, strict=True) if r.ok]
    assert len(winners) == 1, [r.answer or r.error for r in results]
    for r in results:
        assert r.ok or r.error == f"Germany is taken by {winners[0]}."
    assert (await (await stores()).get_game(g)).seats == {"Germany": winners[0]}


@ALL3
async def test_concurrent_joins_of_both_sides_by_one_person(stores: Any) -> None:
    g = await lobby(svc(await stores()), channel())
    powers = ["Germany", "Soviet Union", "Japan", "United Kingdom"]
    services = [svc(await stores()) for _ in powers]
    results = await asyncio.gather(
        *(s.join(g, "carol", p) for s, p in zip(services, powers, strict=True))
    )
    seats = (await (await stores()).get_game(g)).seats
    held = {p for p, who in seats.items() if who == "carol"}
    assert held and (held <= set(AXIS) or held <= set(ALLIES)), held
    for p, r in zip(powers, results, strict=True):
        assert r.ok == (p in held)
        assert r.ok or "P-1" in (r.error or "")


@ALL3
async def test_concurrent_game_new_in_one_channel(stores: Any) -> None:
    chan = channel()
    services = [svc(await stores()) for _ in range(4)]

    async def new(s: GameService, who: str) -> str:
        try:
            return (await s.create(chan, who, "1941")).id
        except ServiceError as e:
            return f"refused: {e}"

    got = await asyncio.gather(*(new(s, f"p{i}") for i, s in enumerate(services)))
    made = [x for x in got if not x.startswith("refused")]
    assert len(made) == 1, got
    assert all(f"already has game {made[0]}" in x for x in got if x.startswith("refused"))
    assert [g.id for g in await (await stores()).games_in_channel(chan)] == made


@ALL3
async def test_concurrent_undos_and_orders_keep_the_log(stores: Any) -> None:
    """Undos and orders of one player from four services at once: every acknowledged buy that
    was not undone is in the log exactly once, and the start is never lost."""
    base = await stores()
    g = await started(svc(base), channel())
    services = [svc(await stores()) for _ in range(4)]
    acked: list[str] = []
    undone = 0

    async def work(s: GameService, i: int) -> None:
        nonlocal undone
        for k in range(4):
            if (i + k) % 2:
                r = await s.undo(g, "bob")
                undone += r.ok
            else:
                r = await s.submit(g, "bob", "buy 1 infantry")
                if r.ok:
                    acked.append("buy 1 infantry")

    await asyncio.gather(*(work(s, i) for i, s in enumerate(services)))
    orders = await texts(base, g)
    assert orders[0] == "game start"
    assert len(orders) - 1 == len(acked) - undone
    assert (await svc(base).state(g)).purchase.get("infantry", 0) == len(acked) - undone


# --- the database's own guard: migration 0007 ---------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
async def test_migration_0007_keeps_the_newest_of_several_games_in_a_channel(
    backend: str, url: str
) -> None:
    """A database where races already made several games not over in one channel upgrades: the
    older ones are cancelled (the channel showed the newest), then the index holds."""
    import sqlalchemy as sa

    await upgrade(url, "0006")
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            for i, status in enumerate(["lobby", "active", "lobby", "finished"]):
                await conn.execute(sa.text(
                    "INSERT INTO game (id, edition, options, channel, owner, status, dice, "
                    "next_order, created_at, updated_at, guild) VALUES (:id, 'a1941', '[]', "
                    "'chan', 'o', :status, '{\"kind\": \"fair\"}', 0, :at, :at, '')"),
                    {"id": f"g{i + 1}", "status": status, "at": f"2026-01-0{i + 1} 00:00:00"})
    finally:
        await engine.dispose()
    await upgrade(url)
    store = SqlStore(create_engine(url))
    try:
        got = {g.id: g.status for g in await store.games_in_channel("chan")}
        assert got == {"g1": "cancelled", "g2": "cancelled", "g3": "lobby", "g4": "finished"}
        with pytest.raises(ServiceError, match="already has game g3"):
            await svc(store).create("chan", "alice", "1941")
        # Under the service's check, the database itself refuses a second game not over.
        async with store.engine.begin() as conn:
            with pytest.raises(sa.exc.IntegrityError):
                await conn.execute(sa.text(
                    "UPDATE game SET status = 'lobby' WHERE id = 'g4'"))
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)
async def test_a_crash_inside_the_start_write_leaves_the_lobby(backend: str, url: str) -> None:
    """Killed in the middle of the start's transaction (after its events, before the status):
    the database rolls both back; the game is in the lobby with an empty log and starts."""
    if backend == "sqlite":
        await upgrade(url)

    class Crashing(SqlStore):
        async def _append_in(self, *args: Any, **kw: Any) -> Any:
            await super()._append_in(*args, **kw)
            raise RuntimeError("killed inside the start's write")

    crashing = Crashing(create_engine(url))
    store = SqlStore(create_engine(url))
    try:
        g = await lobby(svc(store), channel())
        for p in AXIS:
            assert (await svc(store).join(g, "alice", p)).ok
        for p in ALLIES:
            assert (await svc(store).join(g, "bob", p)).ok
        with pytest.raises(RuntimeError):
            await svc(crashing).start(g, "alice")
        assert (await store.get_game(g)).status == "lobby"
        assert await store.load_events(g) == [] and await store.orders(g) == []
        assert (await svc(store).start(g, "alice")).ok
        assert (await store.get_game(g)).status == "active"
    finally:
        await crashing.close()
        await store.close()


# --- deadline actions: a claim whose process died is taken over -------------------------------


@ALL3
async def test_a_deadline_action_cut_short_after_its_claim_is_carried_out_later(
    stores: Any,
) -> None:
    """The process that claimed a deadline action dies before acting: another process (or the
    same one restarted) takes the stale claim over and acts once; never twice after that."""
    from datetime import UTC, datetime, timedelta

    t0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    now = [t0]
    base = await stores()

    class Dying(GameService):
        async def _deadline_action(self, *args: Any, **kw: Any) -> None:
            raise RuntimeError("killed after the claim, before the action")

    g = await started(svc(base), channel())
    setter = GameService(base, draw_secret=lambda: b"k" * 32, clock=lambda: now[0])
    assert (await setter.set_deadline(g, "alice", "1h end")).ok
    before = await setter.state(g)
    now[0] = t0 + timedelta(hours=2)
    dying = Dying(await stores(), draw_secret=lambda: b"k" * 32, clock=lambda: now[0])
    with pytest.raises(RuntimeError):
        await dying.deadline_due(g)
    fresh = GameService(await stores(), draw_secret=lambda: b"k" * 32, clock=lambda: now[0])
    r = await fresh.deadline_due(g)
    assert not (r.data or {}).get("fired")  # claimed a moment ago: its holder may be acting
    fresh.claim_stale = timedelta(0)  # ... and now it is stale
    r = await fresh.deadline_due(g)
    assert (r.data or {}).get("fired"), r
    after = await fresh.state(g)
    assert (after.power, after.phase) != (before.power, before.phase)
    n = len(await base.orders(g))
    assert (await base.orders(g))[-1].text == "end confirm (by the referee at the deadline)"
    again = await fresh.deadline_due(g)  # done: never twice
    assert not (again.data or {}).get("fired")
    assert len(await base.orders(g)) == n


@ALL3
async def test_game_new_writes_the_game_and_its_dice_secret_together(stores: Any) -> None:
    """A crash right after 'game new' created the game never leaves a game whose fair dice
    cannot roll: the secret is written in the same write (put_secret is not called)."""
    base = await stores()

    async def crash() -> None:
        raise RuntimeError("killed after the game was created")

    a = svc(Hooked(base, "put_secret", crash))
    g = (await a.create(channel(), "alice", "1941")).id
    assert len(await base.get_secret(g, fair.MASTER)) == 32
