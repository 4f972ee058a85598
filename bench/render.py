"""Map rendering benchmark (not a test): the whole 1941 board mid-game, against the PNG floor.

The position: the scripted three-round game of tests/local (tests/local/games/) played through
the local table up to round 2, Germany's Conduct Combat (units all over the board, two battles
open, the arrows of Germany's combat moves). It prints the median of:

- cold: the first map of a process (builds the cached base layer for the view);
- map: ``render_map`` plus PNG encoding, with the base layer cached (what a phase post costs);
- map after a capture: the same, alternating between two holdings (one space repainted);
- draw only / encode only: its two parts;
- floor: encoding a blank image of the same size and mode with the same PNG options;

and the ratio map / floor (issue 6's target: within 3x), plus the image's size in bytes.
A focused view (``game map Ukraine``) and a battle board are timed the same way.

Run: ``.venv/bin/python bench/render.py [--reps N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from local.table import Table  # noqa: E402
from render import png_bytes  # noqa: E402
from render.geo import load_geometry  # noqa: E402
from render.map import render_map  # noqa: E402
from rules import events as ev  # noqa: E402
from rules.engine import replay  # noqa: E402
from service.games import GameService  # noqa: E402
from service.images import battle_image, phase_moves  # noqa: E402

GAMES = ROOT / "tests" / "local" / "games"


def mid_game() -> list[ev.Event]:
    """The event log at round 2, Germany, Conduct Combat of the scripted game."""
    dice = [int(f) for f in (GAMES / "a1941_three_rounds.dice").read_text().split(",")]
    service = GameService(scripted_dice=dice, allow_scripted_dice=True)
    table = Table(service, ROOT / "out" / "bench")

    async def play() -> list[ev.Event]:
        for line in (GAMES / "a1941_three_rounds.txt").read_text().splitlines():
            answer = await table.answer(line)
            if answer is None:
                continue
            game = await service.game_in(table.channel)
            if game is None or game.status != "active":
                continue
            state = await service.state(game.id)
            if (state.round, state.power, state.phase) == (2, "Germany", "conduct_combat"):
                return [s.event for s in await service.store.load_events(game.id)]
        raise SystemExit("the script never reached round 2, Germany, Conduct Combat")

    return asyncio.run(play())


def median_ms(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=15)
    args = parser.parse_args(argv)
    log = mid_game()
    state = replay(log)
    moves = phase_moves(log, max(i for i, e in enumerate(log) if isinstance(e, ev.PhaseChanged)))
    geometry = load_geometry(state.edition.id)
    battles = sum(1 for b in state.battles.values() if b.step != "done")
    print(f"position: round {state.round}, {state.power}, {state.phase}; {len(state.units)} "
          f"units, {battles} open battles, {len(moves)} moves drawn")

    t = time.perf_counter()
    image = render_map(state, geometry, moves=moves, title="Game bench")
    cold = 1000 * (time.perf_counter() - t)
    data = png_bytes(image)
    blank = Image.new(image.mode, image.size, (236, 236, 236))
    full = median_ms(lambda: png_bytes(render_map(state, geometry, moves=moves,
                                                  title="Game bench")), args.reps)
    draw = median_ms(lambda: render_map(state, geometry, moves=moves, title="Game bench"),
                     args.reps)
    encode = median_ms(lambda: png_bytes(image), args.reps)
    floor = median_ms(lambda: png_bytes(blank), args.reps)
    print(f"whole board {image.size[0]}x{image.size[1]} {image.mode}, PNG {len(data):,} bytes")
    print(f"  cold (base layer built): {cold:7.1f} ms")
    print(f"  map (draw + encode):     {full:7.1f} ms   <- median of {args.reps}")
    print(f"    draw only:             {draw:7.1f} ms")
    print(f"    encode only:           {encode:7.1f} ms")
    print(f"  floor (blank, same PNG): {floor:7.1f} ms")
    print(f"  ratio map / floor:       {full / floor:7.2f}x  (target: within 3x)")
    # A capture between two maps: the holdings cache repaints only the changed space.
    other = dict(state.owners)
    other["Ukraine"] = "Soviet Union" if other["Ukraine"] != "Soviet Union" else "Germany"
    flipped = [state, replace(state, owners=other)]
    turn = [0]

    def alternate() -> object:
        turn[0] ^= 1
        return png_bytes(render_map(flipped[turn[0]], geometry, moves=moves, title="Game bench"))

    captured = median_ms(alternate, args.reps)
    print(f"  map after a capture:     {captured:7.1f} ms   ratio {captured / floor:.2f}x "
          "(one space repainted)")

    render_map(state, geometry, focus="Ukraine")  # builds that view's base layer
    focused = median_ms(lambda: png_bytes(render_map(state, geometry, focus="Ukraine")),
                        args.reps)
    fimage = render_map(state, geometry, focus="Ukraine")
    fblank = Image.new(fimage.mode, fimage.size, (236, 236, 236))
    ffloor = median_ms(lambda: png_bytes(fblank), args.reps)
    print(f"focused (game map Ukraine) {fimage.size[0]}x{fimage.size[1]}: {focused:.1f} ms, "
          f"floor {ffloor:.1f} ms, ratio {focused / ffloor:.2f}x, "
          f"{len(png_bytes(fimage)):,} bytes")
    ends = [i for i, e in enumerate(log) if isinstance(e, ev.BattleEnded)]
    if ends:
        board = median_ms(lambda: battle_image(log, ends[-1], "bench"), max(3, args.reps // 3))
        img = battle_image(log, ends[-1], "bench")
        print(f"battle board ({img.caption}, with its odds): {board:.1f} ms, "
              f"{len(img.png):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
