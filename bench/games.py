"""Many games at once through GameService over the SQL store (no rendering), issue 18.

    python -m bench.games                       # SQLite and PostgreSQL, the default sizes
    python -m bench.games --games 50 200 1000 --orders 10
    python -m bench.games --backends postgres --depths 100 1000 5000 --procs 1 2 4
    python -m bench.games --quick               # small sizes, about a minute

Every game plays at once, with at most 25 orders in flight in a process (``INFLIGHT``): a
submit's latency is then its own time plus its wait for the CPU, not a queue for connections.
Each game's next player is known from the answer (``Result.after``), as a front end knows it:
the state is read once per game, not before every order. Beside orders/s: their ratio to the
floor's transactions/s, and the process's CPU time per order (on a loaded machine the
steadiest figure; ``bench/order_cpu.py`` splits it by part).
Prints, per backend: the floor (one bare durable insert transaction on the same database, as
the store opens it: WAL and synchronous=FULL on SQLite); per number of concurrent games N,
orders/s and the p50/p99 latency of ``submit``; the cost of one order (``end`` by a service
holding the game, median of ``--samples``) at event ~100, ~1,000 and ~5,000 of one game, with
the ratio of the deepest to the shallowest; and on PostgreSQL, 1, 2 and 4 processes (each its
own ``SqlStore``) playing games of one database at once, with their orders/s. PostgreSQL: a
throwaway database on ``UMPIRE_TEST_PG`` (default postgresql://postgres@127.0.0.1:5432/postgres),
dropped at the end. The figures are for one run on this machine: compare them with the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from db.engine import create_engine, sqlite_url
from db.repo import SqlStore
from service.games import GameService

AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")
PG_ADMIN = os.environ.get("UMPIRE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_ADMIN.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@asynccontextmanager
async def database(backend: str) -> AsyncIterator[str]:
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as d:
            yield sqlite_url(Path(d) / "bench.sqlite3")
        return
    name = f"umpire_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    await _admin(f'CREATE DATABASE "{name}"')
    try:
        url = make_url(PG_ADMIN).set(drivername="postgresql+asyncpg", database=name)
        yield url.render_as_string(hide_password=False)
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _pct(xs: Sequence[float], p: int) -> float:
    return statistics.quantiles(xs, n=100)[p - 1] if len(xs) > 1 else xs[0]


# --- the floor ---------------------------------------------------------------------------------
async def floor(url: str, n: int = 300) -> tuple[float, str]:
    """One bare durable insert transaction on this database (median of ``n``, one at a time)."""
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("CREATE TABLE bench_floor (id INTEGER PRIMARY KEY, x TEXT)"))
        times = []
        for i in range(n):
            t = time.perf_counter()
            async with engine.begin() as conn:
                await conn.execute(sa.text("INSERT INTO bench_floor VALUES (:i, 'x')"), {"i": i})
            times.append(time.perf_counter() - t)
    finally:
        await engine.dispose()
    med = statistics.median(times)
    return med, (f"floor: one durable insert transaction {_ms(med)} (median of {n}), "
                 f"{1 / med:.0f} transactions/s on one connection")


# --- games ---------------------------------------------------------------------------------------
async def new_game(svc: GameService, channel: str) -> str:
    info = await svc.create(channel, "alice", "1941")
    for p in AXIS:
        await svc.join(info.id, "alice", p)
    for p in ALLIES:
        await svc.join(info.id, "bob", p)
    r = await svc.start(info.id, "alice")
    assert r.ok, r.error
    return info.id


async def end(svc: GameService, game: str, power: str = "") -> tuple[float, int, str]:
    """One 'end confirm' by whoever's turn it is (``power``, read from the game if not given):
    its submit latency (s), the log's length after and whose turn it is then. As a front end
    does, the next order's player is known from the answer (``Result.after``), not read."""
    if not power:
        power = (await svc.state(game)).power
    who = "alice" if power in AXIS else "bob"
    t = time.perf_counter()
    r = await svc.submit(game, who, "end confirm")
    dt = time.perf_counter() - t
    assert r.ok, r.error
    assert r.after is not None
    return dt, r.head[0] if r.head else 0, r.after.power


async def make_games(svc: GameService, n: int, tag: str) -> list[str]:
    sem = asyncio.Semaphore(50)  # created 50 at a time

    async def make(i: int) -> str:
        async with sem:
            return await new_game(svc, f"bench-{tag}-{i}")

    return list(await asyncio.gather(*(make(i) for i in range(n))))


# Orders in flight at once in one process: every game plays at once, but no more orders wait
# inside the store than its connection pool serves (10 + 20 overflow, 30 s timeout); more
# would queue for a connection instead of for the CPU, and time out when a run is slow.
INFLIGHT = 25


async def play(svc: GameService, games: Sequence[str], orders: int) -> tuple[float, list[float]]:
    """Every game plays ``orders`` orders at once; (wall time, latencies of ``submit``)."""
    latencies: list[float] = []
    gate = asyncio.Semaphore(INFLIGHT)

    async def one(g: str) -> None:
        power = ""
        for _ in range(orders):
            async with gate:
                dt, _, power = await end(svc, g, power)
                latencies.append(dt)

    t = time.perf_counter()
    await asyncio.gather(*(one(g) for g in games))
    return time.perf_counter() - t, latencies


async def many_games(url: str, n: int, orders: int, floor_s: float) -> str:
    store = await SqlStore.open(url)
    try:
        svc = GameService(store)
        games = await make_games(svc, n, f"{n}-{uuid.uuid4().hex[:4]}")
        cpu = time.process_time()
        wall, latencies = await play(svc, games, orders)
        cpu = time.process_time() - cpu
    finally:
        await store.close()
    rate = len(latencies) / wall
    return (
        f"N={n:5d} games: {len(latencies)} orders in {wall:6.1f} s = "
        f"{rate:7.1f} orders/s ({rate * floor_s:.2f}x the floor's transactions/s); "
        f"submit p50 {_ms(_pct(latencies, 50))}, p99 {_ms(_pct(latencies, 99))}; "
        f"CPU of this process {_ms(cpu / len(latencies))} an order"
    )


async def depth_costs(url: str, depths: Sequence[int], samples: int, floor_s: float) -> str:
    """The cost of one order at event ~d of one game, for each d (median of ``samples``)."""
    store = await SqlStore.open(url)
    out = []
    try:
        svc = GameService(store)
        g = await new_game(svc, f"deep-{uuid.uuid4().hex[:6]}")
        seq = 0
        costs: dict[int, float] = {}
        t0 = time.perf_counter()
        for d in sorted(depths):
            power = ""
            while seq < d:
                _, seq, power = await end(svc, g, power)
            times = []
            for _ in range(samples):
                dt, seq, power = await end(svc, g, power)
                times.append(dt)
            costs[d] = statistics.median(times)
            out.append(f"  order at event ~{d:5d}: {_ms(costs[d])} (median of {samples}, "
                       f"{costs[d] / floor_s:.1f}x the floor)")
        lo, hi = min(costs), max(costs)
        out.append(f"  ratio event {hi} / event {lo}: {costs[hi] / costs[lo]:.2f} "
                   f"(game of {seq} events grown in {time.perf_counter() - t0:.0f} s)")
    finally:
        await store.close()
    return "cost of one order by depth:\n" + "\n".join(out)


# --- processes -----------------------------------------------------------------------------------
def _worker(url: str, games: list[str], orders: int, barrier: Any, out: Any) -> None:
    async def run() -> tuple[int, float, list[float]]:
        store = await SqlStore.open(url, migrate=False)
        try:
            svc = GameService(store)
            for g in games:  # as a running bot: its games are loaded once
                await svc.state(g)
            barrier.wait()
            wall, lat = await play(svc, games, orders)
            return len(lat), wall, lat
        finally:
            await store.close()

    out.put(asyncio.run(run()))


async def processes(url: str, counts: Sequence[int], games: int, orders: int) -> str:
    """``p`` processes, each its own SqlStore, playing ``games`` games of one database."""
    store = await SqlStore.open(url)
    try:
        ids = await make_games(GameService(store), games, f"procs-{uuid.uuid4().hex[:4]}")
    finally:
        await store.close()
    ctx = mp.get_context("spawn")
    lines = []
    for p in counts:
        barrier, out = ctx.Barrier(p + 1), ctx.Queue()
        share = [ids[i::p] for i in range(p)]
        procs = [ctx.Process(target=_worker, args=(url, share[i], orders, barrier, out))
                 for i in range(p)]
        for proc in procs:
            proc.start()
        await asyncio.to_thread(barrier.wait)
        t = time.perf_counter()
        got = [await asyncio.to_thread(out.get) for _ in procs]
        wall = time.perf_counter() - t
        for proc in procs:
            proc.join()
        n = sum(g[0] for g in got)
        lat = [x for g in got for x in g[2]]
        lines.append(f"  {p} process{'es' if p > 1 else ''}: {n} orders in {wall:5.1f} s = "
                     f"{n / wall:7.1f} orders/s; submit p50 {_ms(_pct(lat, 50))}, "
                     f"p99 {_ms(_pct(lat, 99))}")
    return f"processes on one database ({games} games, {orders} orders each per run):\n" + \
        "\n".join(lines)


async def each_database(backends: list[str]) -> AsyncIterator[tuple[str, str]]:
    """(backend, URL) of a fresh database of each backend in turn, announced; a backend that
    cannot be had here is said to be skipped."""
    for backend in backends:
        try:
            ctx = database(backend)
            url = await ctx.__aenter__()
        except Exception as e:
            print(f"{backend}: skipped ({type(e).__name__}: {e})")
            continue
        try:
            print(f"== {backend}", flush=True)
            yield backend, url
        finally:
            await ctx.__aexit__(None, None, None)


async def main_async(args: argparse.Namespace) -> None:
    async for backend, url in each_database(args.backends):
        floor_s, line = await floor(url)
        print(line, flush=True)
        for n in args.games:
            print(await many_games(url, n, args.orders, floor_s), flush=True)
        if args.depths:
            print(await depth_costs(url, args.depths, args.samples, floor_s), flush=True)
        if backend == "postgres" and args.procs:
            print(await processes(url, args.procs, args.proc_games, args.orders), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    p.add_argument("--games", nargs="+", type=int, default=[50, 200, 1000],
                   help="numbers of concurrent games")
    p.add_argument("--orders", type=int, default=10, help="orders per game")
    p.add_argument("--depths", nargs="*", type=int, default=[100, 1000, 5000],
                   help="events of one game at which an order is timed (none: skip)")
    p.add_argument("--samples", type=int, default=15, help="orders timed at each depth")
    p.add_argument("--procs", nargs="*", type=int, default=[1, 2, 4],
                   help="numbers of processes on one PostgreSQL database (none: skip)")
    p.add_argument("--proc-games", type=int, default=200, help="games the processes share")
    p.add_argument("--quick", action="store_true", help="small sizes: N=50, depths 100 and 1000")
    args = p.parse_args()
    if args.quick:
        args.games, args.depths, args.procs, args.proc_games = [50], [100, 1000], [1, 2], 50
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
