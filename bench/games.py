"""Many games at once through GameService over the SQL store (no rendering).

    python -m bench.games                      # SQLite and PostgreSQL (if reachable), N = 50, 200
    python -m bench.games --games 50 200 1000 --orders 20
    python -m bench.games --backends sqlite --rounds 20

Prints, per backend and N: orders/s and p50/p99 latency of ``submit``; then the load time of a
20-round game with and without snapshots. PostgreSQL: a throwaway database on
``UMPIRE_TEST_PG`` (default postgresql://postgres@127.0.0.1:5432/postgres), dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy.engine import make_url

from db.engine import sqlite_url
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


async def new_game(svc: GameService, channel: str) -> str:
    info = await svc.create(channel, "alice", "1941")
    for p in AXIS:
        await svc.join(info.id, "alice", p)
    for p in ALLIES:
        await svc.join(info.id, "bob", p)
    r = await svc.start(info.id, "alice")
    assert r.ok, r.error
    return info.id


async def end(svc: GameService, game: str) -> float:
    """One 'end' order by whoever's turn it is; its submit latency in seconds."""
    state = await svc.state(game)
    who = "alice" if state.power in AXIS else "bob"
    t = time.perf_counter()
    r = await svc.submit(game, who, "end")
    dt = time.perf_counter() - t
    assert r.ok, r.error
    return dt


async def many_games(url: str, n: int, orders: int) -> str:
    store = await SqlStore.open(url)
    try:
        svc = GameService(store)
        sem = asyncio.Semaphore(50)  # games created 50 at a time

        async def make(i: int) -> str:
            async with sem:
                return await new_game(svc, f"bench-{n}-{i}")

        games = await asyncio.gather(*(make(i) for i in range(n)))
        latencies: list[float] = []

        async def play(g: str) -> None:
            for _ in range(orders):
                latencies.append(await end(svc, g))

        t = time.perf_counter()
        await asyncio.gather(*(play(g) for g in games))
        wall = time.perf_counter() - t
    finally:
        await store.close()
    q = statistics.quantiles(latencies, n=100)
    return (
        f"N={n:5d}: {len(latencies)} orders in {wall:6.1f} s = {len(latencies) / wall:7.1f} "
        f"orders/s; submit p50 {q[49] * 1000:7.1f} ms, p99 {q[98] * 1000:7.1f} ms"
    )


async def load_times(url: str, rounds: int) -> str:
    out = []
    for every in (0, 200):
        store = await SqlStore.open(url, snapshot_every=every)
        try:
            svc = GameService(store)
            g = await new_game(svc, f"long-{every}")
            while (await svc.state(g)).round <= rounds:
                await end(svc, g)
            n = len(await store.load_events(g))
            await store.load_state(g)  # writes the snapshot(s) when enabled
            times = []
            for _ in range(5):
                fresh = GameService(store)  # no cached state
                t = time.perf_counter()
                await fresh.state(g)
                times.append(time.perf_counter() - t)
        finally:
            await store.close()
        label = "without snapshots" if every == 0 else f"with snapshots every {every}"
        out.append(
            f"{rounds}-round game ({n} events) {label}: load {min(times) * 1000:.1f} ms "
            f"(best of 5), median {statistics.median(times) * 1000:.1f} ms"
        )
    return "\n".join(out)


async def main_async(args: argparse.Namespace) -> None:
    for backend in args.backends:
        try:
            ctx = database(backend)
            url = await ctx.__aenter__()
        except Exception as e:
            print(f"{backend}: skipped ({type(e).__name__}: {e})")
            continue
        try:
            print(f"== {backend}")
            for n in args.games:
                print(await many_games(url, n, args.orders), flush=True)
            print(await load_times(url, args.rounds), flush=True)
        finally:
            await ctx.__aexit__(None, None, None)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--backends", nargs="+", default=["sqlite", "postgres"])
    p.add_argument("--games", nargs="+", type=int, default=[50, 200])
    p.add_argument("--orders", type=int, default=10, help="orders per game")
    p.add_argument("--rounds", type=int, default=20)
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
