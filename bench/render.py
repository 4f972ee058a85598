"""Map rendering benchmark (not a test): the whole board mid-game, against the PNG floor.

Three positions. 1941: the scripted three-round game of tests/local (tests/local/games/) played
through the local table up to round 2, Germany's Conduct Combat (units all over the board, two
battles open, the arrows of Germany's combat moves). Classic: the Classic setup (161 units)
played to round 1, Germany's Conduct Combat, after Germany attacks Caucasus and Karelia S.S.R.
(two battles open, three arrows); its battle board is Caucasus fought with seeded dice. Europe
1940: its setup (296 units, 192 spaces, facilities, neutral armies, victory cities, convoy zones)
played to Germany's Conduct Combat of round 1 after Germany attacks France and Normandy
Bordeaux; its battle board is France fought with seeded dice. Each prints the median of:

- cold: the first map of a process (builds the cached base layer for the view);
- map: ``render_map`` plus PNG encoding, with the base layer cached (what a phase post costs);
- map after a capture: the same, alternating between two holdings (one space repainted);
- draw only / encode only: its two parts;
- layout of a new position: placing every chip and marker with nothing remembered (a position
  the process has not drawn before; ``map`` above reuses the plans of spaces seen before);
- floor: encoding a blank image of the same size and mode with the same PNG options;

and the ratio map / floor (issue 6's target: within 3x), plus the image's size in bytes.
A focused view (``game map Ukraine``) and a battle board are timed the same way.

Run: ``.venv/bin/python bench/render.py [--reps N] [--only a1941|classic|europe1940]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
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
from render.base import base_layer  # noqa: E402
from render.chips import map_items  # noqa: E402
from render.geo import geometry_for  # noqa: E402
from render.map import render_map  # noqa: E402
from render.placement import _OUTSIDE, _PLANS, layout  # noqa: E402
from render.view import full_view  # noqa: E402
from rules import engine  # noqa: E402
from rules import events as ev  # noqa: E402
from rules import orders as od  # noqa: E402
from rules.defaults import default_orders  # noqa: E402
from rules.dice import ScriptedDice  # noqa: E402
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


def classic_mid_combat() -> list[ev.Event]:
    """The Classic setup played to Germany's Conduct Combat of round 1, two attacks made, and
    the log a copy of it in which the Caucasus battle is fought (for its battle board)."""
    log: list[ev.Event] = list(engine.new_game("classic", (), None))
    state = replay(log)
    dice = ScriptedDice([])

    def do(order: od.Order, with_dice: ScriptedDice = dice) -> None:
        nonlocal state
        for e in engine.decide(state, order, with_dice):
            state = engine.evolve(state, e)
            log.append(e)

    while (state.power, state.phase) != ("Germany", "combat_move"):
        do(od.EndPhase(power=state.power, confirm=True, phase=state.phase))
    for units, frm, to in (
        ({"infantry": 3, "tank": 2}, "Ukraine S.S.R.", "Caucasus"),
        ({"fighter": 1}, "Ukraine S.S.R.", "Caucasus"),
        ({"infantry": 3, "tank": 1, "fighter": 1}, "Eastern Europe", "Karelia S.S.R."),
        ({"bomber": 1}, "Germany", "Karelia S.S.R."),
    ):
        do(od.Move(power="Germany", units=units, frm=frm, to=to))
    do(od.EndPhase(power="Germany", confirm=True))
    return log


def europe1940_mid_combat() -> list[ev.Event]:
    """The Europe 1940 setup played to Germany's Conduct Combat of round 1, France and
    Normandy Bordeaux attacked."""
    log: list[ev.Event] = list(engine.new_game("europe1940", (), None))
    state = replay(log)
    dice = ScriptedDice([])

    def do(order: od.Order) -> None:
        nonlocal state
        for e in engine.decide(state, order, dice):
            state = engine.evolve(state, e)
            log.append(e)

    while (state.power, state.phase) != ("Germany", "combat_move"):
        do(od.EndPhase(power=state.power, confirm=True, phase=state.phase))
    for units, frm, to in (
        ({"infantry": 4, "artillery": 2, "tank": 3}, "Holland Belgium", "France"),
        ({"fighter": 1}, "Holland Belgium", "France"),
        ({"mechanized infantry": 4, "infantry": 3, "artillery": 1}, "Western Germany", "France"),
        ({"tactical bomber": 3, "fighter": 2}, "Western Germany", "France"),
        ({"tactical bomber": 1}, "Germany", "Normandy Bordeaux"),
        ({"strategic bomber": 2}, "Germany", "Normandy Bordeaux"),
    ):
        do(od.Move(power="Germany", units=units, frm=frm, to=to))
    do(od.EndPhase(power="Germany", confirm=True))
    return log


def classic_battle(log: list[ev.Event], space: str = "Caucasus") -> list[ev.Event]:
    """``log`` with the battle in ``space`` fought to its end (seeded dice; the decisions it
    owes answered as the referee would at a deadline)."""
    state = replay(log)
    rng = random.Random(1942)
    dice = ScriptedDice([rng.randint(1, 6) for _ in range(400)])
    out = list(log)

    def do(order: od.Order) -> None:
        nonlocal state
        for e in engine.decide(state, order, dice):
            state = engine.evolve(state, e)
            out.append(e)

    do(od.Battle(power=state.power, space=space, all=True))
    for _ in range(40):
        if any(isinstance(e, ev.BattleEnded) and e.space == space for e in out[len(log):]):
            break
        owed = [o for o in default_orders(state) if getattr(o, "space", None) == space]
        do(owed[0] if owed else od.Battle(power=state.power, space=space, all=True))
    return out


def median_ms(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000 * statistics.median(times)


def bench(label: str, log: list[ev.Event], fought: list[ev.Event], capture: tuple[str, str],
          focus: str, reps: int) -> None:
    """Time the whole board, a capture, a focused view and a battle board for one position."""
    state = replay(log)
    moves = phase_moves(log, max(i for i, e in enumerate(log) if isinstance(e, ev.PhaseChanged)))
    geometry = geometry_for(state.edition)
    battles = sum(1 for b in state.battles.values() if b.step != "done")
    print(f"{label}: round {state.round}, {state.power}, {state.phase}; {len(state.units)} "
          f"units, {battles} open battles, {len(moves)} moves drawn")

    t = time.perf_counter()
    image = render_map(state, geometry, moves=moves, title="Game bench")
    cold = 1000 * (time.perf_counter() - t)
    data = png_bytes(image)
    blank = Image.new(image.mode, image.size, (236, 236, 236))
    full = median_ms(lambda: png_bytes(render_map(state, geometry, moves=moves,
                                                  title="Game bench")), reps)
    draw = median_ms(lambda: render_map(state, geometry, moves=moves, title="Game bench"),
                     reps)
    encode = median_ms(lambda: png_bytes(image), reps)
    floor = median_ms(lambda: png_bytes(blank), reps)
    base = base_layer(state.edition, geometry, full_view(geometry))
    items = map_items(state)

    def fresh_layout() -> object:
        # A position never laid out before: every space's plan computed (render/layout.py).
        _PLANS.clear()
        _OUTSIDE.clear()
        return layout(base, geometry, state.edition, items)

    laid = median_ms(fresh_layout, reps)
    print(f"whole board {image.size[0]}x{image.size[1]} {image.mode}, PNG {len(data):,} bytes")
    print(f"  cold (base layer built): {cold:7.1f} ms")
    print(f"  map (draw + encode):     {full:7.1f} ms   <- median of {reps}")
    print(f"    draw only:             {draw:7.1f} ms")
    print(f"    encode only:           {encode:7.1f} ms")
    print(f"  layout of a new position:{laid:7.1f} ms   (chips and markers, nothing cached)")
    print(f"  floor (blank, same PNG): {floor:7.1f} ms")
    print(f"  ratio map / floor:       {full / floor:7.2f}x  (target: within 3x)")
    # A capture between two maps: the holdings cache repaints only the changed space.
    space, taker = capture
    other = dict(state.owners)
    other[space] = taker if other[space] != taker else state.edition.spaces[space].original_owner
    flipped = [state, replace(state, owners=other)]
    turn = [0]

    def alternate() -> object:
        turn[0] ^= 1
        return png_bytes(render_map(flipped[turn[0]], geometry, moves=moves, title="Game bench"))

    captured = median_ms(alternate, reps)
    print(f"  map after a capture:     {captured:7.1f} ms   ratio {captured / floor:.2f}x "
          "(one space repainted)")

    render_map(state, geometry, focus=focus)  # builds that view's base layer
    focused = median_ms(lambda: png_bytes(render_map(state, geometry, focus=focus)), reps)
    fimage = render_map(state, geometry, focus=focus)
    fblank = Image.new(fimage.mode, fimage.size, (236, 236, 236))
    ffloor = median_ms(lambda: png_bytes(fblank), reps)
    print(f"focused (game map {focus}) {fimage.size[0]}x{fimage.size[1]}: {focused:.1f} ms, "
          f"floor {ffloor:.1f} ms, ratio {focused / ffloor:.2f}x, "
          f"{len(png_bytes(fimage)):,} bytes")
    ends = [i for i, e in enumerate(fought) if isinstance(e, ev.BattleEnded)]
    if ends:
        board = median_ms(lambda: battle_image(fought, ends[-1], "bench"), max(3, reps // 3))
        img = battle_image(fought, ends[-1], "bench")
        print(f"battle board ({img.caption}, with its odds): {board:.1f} ms, "
              f"{len(img.png):,} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--only", choices=("a1941", "classic", "europe1940"))
    args = parser.parse_args(argv)
    if args.only in (None, "a1941"):
        log = mid_game()
        bench("1941", log, log, ("Ukraine", "Soviet Union"), "Ukraine", args.reps)
    if args.only in (None, "classic"):
        if args.only is None:
            print()
        log = classic_mid_combat()
        bench("Classic", log, classic_battle(log), ("Caucasus", "Germany"), "Germany",
              args.reps)
    if args.only in (None, "europe1940"):
        if args.only is None:
            print()
        log = europe1940_mid_combat()
        bench("Europe 1940", log, classic_battle(log, "France"), ("France", "Germany"),
              "France", args.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
