"""The golden corpus's size and replay time (tests/test_golden_corpus.py replays it in the suite).

    python -m bench.corpus              # every group, memory store
    python -m bench.corpus --sqlite     # the scripted games on SQLite files as well

Prints per group: games, lines, events, bytes on disk, and the time (wall clock and CPU) to replay
every game in one process (pytest spreads the games over its workers).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from tools import golden_corpus as gc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sqlite", action="store_true",
                    help="also replay the scripted games on new SQLite files")
    args = ap.parse_args()
    total_t = total_c = 0.0
    total_b = 0
    for group in gc.GROUPS:
        recs = gc.read_group(group)
        size = gc.path_of(group).stat().st_size
        t, c = time.perf_counter(), time.process_time()
        for rec in recs:
            asyncio.run(gc.play(rec.game))
        dt, dc = time.perf_counter() - t, time.process_time() - c
        total_t += dt
        total_c += dc
        total_b += size
        lines = sum(len(r.game.lines) for r in recs)
        events = sum(len(r.log) for r in recs)
        print(f"{group:15} {len(recs):3} games {lines:6} lines {events:6} events "
              f"{size / 1024:7.1f} KiB  replay {dt:5.1f} s wall, {dc:5.1f} s CPU "
              f"({1000 * dc / lines:.1f} ms CPU/line)")
        if args.sqlite and group == "scripts":
            t = time.perf_counter()
            for rec in recs:
                asyncio.run(gc.play(rec.game, sqlite=True))
            print(f"{'':15} on SQLite files: replay {time.perf_counter() - t:5.1f} s")
    print(f"{'total':15} {total_b / 1024:.1f} KiB, replay {total_t:.1f} s wall, "
          f"{total_c:.1f} s CPU in one process")


if __name__ == "__main__":
    main()
