"""Where the CPU of one order goes (issue 18): orders given one at a time to one held game.

    python -m bench.order_cpu                   # PostgreSQL and SQLite, 300 orders each
    python -m bench.order_cpu --backends postgres --orders 500

Each part of the order path is timed by the thread CPU time of the event loop's thread
(``time.thread_time``, inclusive of what it calls; "(inside)" parts are within others), so
the figures hold on a loaded machine, where wall times do not. One game of 1941 is played by
'end confirm' (no battles, fair dice), as ``bench/games.py`` plays it, after 30 orders of
warm-up. The floor beside it: the CPU of one bare insert transaction through SQLAlchemy and,
on PostgreSQL, through asyncpg alone.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

import db.sql_core as dsc
import service.core as sc
import service.describe as ds
import service.fair as sf
import service.orders as so
from bench.games import each_database, end, new_game
from db.engine import create_engine
from db.repo import SqlStore
from service import language
from service.games import GameService

cpu: defaultdict[str, float] = defaultdict(float)
calls: Counter[str] = Counter()


def _timed_sync(owner: Any, name: str, label: str) -> Callable[[], None]:
    f = getattr(owner, name, None)
    if f is None:  # not in this version of the code
        return lambda: None

    @functools.wraps(f)
    def timed(*a: Any, **k: Any) -> Any:
        t = time.thread_time()
        try:
            return f(*a, **k)
        finally:
            cpu[label] += time.thread_time() - t
            calls[label] += 1

    setattr(owner, name, timed)
    return lambda: setattr(owner, name, f)


def _timed_async(owner: Any, name: str, label: str) -> Callable[[], None]:
    f = getattr(owner, name, None)
    if f is None:  # not in this version of the code
        return lambda: None

    @functools.wraps(f)
    async def timed(*a: Any, **k: Any) -> Any:
        t = time.thread_time()
        try:
            return await f(*a, **k)
        finally:
            cpu[label] += time.thread_time() - t
            calls[label] += 1

    setattr(owner, name, timed)
    return lambda: setattr(owner, name, f)


async def floor_cpu(url: str, n: int = 300) -> str:
    """CPU of one bare insert transaction (SQLAlchemy; on PostgreSQL asyncpg alone too)."""
    engine = create_engine(url)
    out = []
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("CREATE TABLE bench_cpu (id INTEGER PRIMARY KEY, x TEXT)"))
        t = time.thread_time()
        for i in range(n):
            async with engine.begin() as conn:
                await conn.execute(sa.text("INSERT INTO bench_cpu VALUES (:i, 'x')"), {"i": i})
        out.append(f"floor: one insert transaction through SQLAlchemy "
                   f"{(time.thread_time() - t) / n * 1000:.3f} ms CPU")
        if engine.dialect.name == "postgresql":
            async with engine.connect() as conn:
                pg = (await conn.get_raw_connection()).driver_connection
                assert pg is not None
                t = time.thread_time()
                for i in range(n):
                    async with pg.transaction():
                        await pg.execute("INSERT INTO bench_cpu VALUES ($1, 'x')", n + i)
                out.append(f"floor: the same through asyncpg alone "
                           f"{(time.thread_time() - t) / n * 1000:.3f} ms CPU")
    finally:
        await engine.dispose()
    return "\n".join(out)


async def parts(url: str, orders: int) -> str:
    store = await SqlStore.open(url)
    undo: list[Callable[[], None]] = []
    try:
        svc = GameService(store)
        g = await new_game(svc, f"cpu-{uuid.uuid4().hex[:6]}")
        power = ""
        for _ in range(30):
            _, _, power = await end(svc, g, power)
        cpu.clear()
        calls.clear()
        undo += [
            _timed_async(store, "load_after", "read: the game's head and tail (load_after)"),
            _timed_async(store, "_probe", "(inside) the probe (record, seats, head)"),
            _timed_async(store, "get_game", "read: the record again (get_game)"),
            _timed_async(store, "append", "write: the append transaction"),
            _timed_sync(language, "parse", "parse the line"),
            _timed_sync(so, "decide_folded", "decide + fold (rules)"),
            _timed_sync(sf, "dice_for", "fair dice: dice_for"),
            _timed_sync(sf, "epilogue", "fair dice: epilogue"),
            _timed_sync(ds, "describe_folded", "answer: events told (describe)"),
            _timed_sync(sc, "pending", "answer: whom it waits for (pending)"),
            _timed_sync(ds, "waiting_line", "answer: the waiting line"),
            _timed_sync(sc, "head_after", "answer: the head's hash chain"),
            _timed_sync(sc.ServiceCore, "_remember", "holding the new log (its hash chain)"),
            _timed_async(sc.ServiceCore, "_snapshot_due", "snapshot due (every 200 events)"),
            _timed_sync(dsc, "next_hash", "(inside) one event's JSON + sha256"),
        ]
        t = time.thread_time()
        wall = time.perf_counter()
        for _ in range(orders):
            _, _, power = await end(svc, g, power)
        total = time.thread_time() - t
        wall = time.perf_counter() - wall
    finally:
        for u in undo:
            u()
        await store.close()
    lines = [f"{orders} orders one at a time: {total / orders * 1000:.3f} ms CPU an order "
             f"(wall {wall / orders * 1000:.2f} ms)"]
    for label, c in sorted(cpu.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {c / orders * 1000:7.3f} ms {100 * c / total:5.1f}%  {label} "
                     f"({calls[label] / orders:.1f} a order)")
    rest = total - sum(c for k, c in cpu.items() if not k.startswith("("))
    lines.append(f"  {rest / orders * 1000:7.3f} ms {100 * rest / total:5.1f}%  the rest "
                 "(guard, commands, Result, asyncio)")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> None:
    async for _backend, url in each_database(args.backends):
        print(await floor_cpu(url), flush=True)
        print(await parts(url, args.orders), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--backends", nargs="+", default=["postgres", "sqlite"])
    p.add_argument("--orders", type=int, default=300)
    asyncio.run(main_async(p.parse_args()))


if __name__ == "__main__":
    main()
