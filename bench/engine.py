"""Engine benchmark (not a test): the cost of an order and of replaying a game.

Builds a game of at least three full rounds of 1941 by seeded random legal play (the orders a
referee sees: purchases, moves, battles, casualties, placements, ends), then times

- ``decide`` + ``evolve`` of each recorded order on the state it was given in (the service's
  work per accepted order), overall and by kind of order;
- ``legal_orders`` on those states (autocomplete's work);
- ``replay`` of the whole event log (loading a game without a snapshot).

Run: ``.venv/bin/python bench/engine.py [--seed N] [--rounds N] [--reps N]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence

from rules import engine
from rules import orders as od
from rules.dice import HmacDice
from rules.events import Event
from rules.legal import legal_orders
from rules.state import GameState

# Percent chance of ending a phase when that is legal: low, so that turns are full of moves.
END_BIAS = {"purchase": 25, "combat_move": 8, "conduct_combat": 50, "noncombat_move": 10,
            "mobilize": 5}


def weight(order: od.Order) -> int:
    """Random play prefers moving whole stacks, as players do."""
    return sum(order.units.values()) if isinstance(order, od.Move) else 1


def random_game(seed: int, rounds: int) -> tuple[list[Event], list[tuple[GameState, od.Order]]]:
    """Seeded random legal play until ``rounds`` full rounds are over.

    Moves that leave a movement phase unable to end are taken back, as a player would with
    ``undo``; only orders that stayed in the log are returned.
    """
    rng = random.Random(seed)
    dice = HmacDice(f"bench-{seed}".encode(), game="bench")
    events = list(engine.new_game("1941"))
    state = engine.replay(events)
    played: list[tuple[GameState, od.Order]] = []
    clean = (len(events), len(played), state)  # undo goes back no further than this
    dirty, force_end = 0, False
    while state.round <= rounds and state.winner is None:
        power = rng.choice(engine.pending(state)).power
        legal = list(legal_orders(state, power))
        ends = [o for o in legal if isinstance(o, od.EndPhase)]
        if (clean[2].round, clean[2].power, clean[2].phase) != (state.round, state.power,
                                                                   state.phase):
            clean, dirty = (len(events), len(played), state), 0
        if state.phase in ("combat_move", "noncombat_move") and power == state.power:
            if ends:
                clean, dirty = (len(events), len(played), state), 0
            else:
                dirty += 1
                if (dirty > 3 or not legal) and clean[2] is not state:
                    del events[clean[0]:]
                    del played[clean[1]:]
                    state = clean[2]
                    dirty, force_end = 0, True
                    continue
        others = [o for o in legal if not isinstance(o, od.EndPhase)]
        if ends and (force_end or not others or rng.randrange(100) < END_BIAS.get(state.phase, 50)):
            order: od.Order = ends[0]
        else:
            order = rng.choices(others, [weight(o) for o in others])[0]
        force_end = False
        played.append((state, order))
        for e in engine.decide(state, order, dice):
            state = engine.evolve(state, e)
            events.append(e)
    return events, played


def timed(fn: Callable[[], object], reps: int) -> float:
    """Median seconds of ``fn`` over ``reps`` calls."""
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def apply_order(state: GameState, order: od.Order) -> GameState:
    for e in engine.decide(state, order, HmacDice(b"bench", game="bench")):
        state = engine.evolve(state, e)
    return state


def all_legal(state: GameState) -> list[od.Order]:
    return list(legal_orders(state, engine.pending(state)[0].power))


def pct(xs: Sequence[float], p: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(p * len(ys)))]


def ms(x: float) -> str:
    return f"{x * 1e3:9.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1941)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=15, help="repetitions per timed item")
    args = ap.parse_args()

    t0 = time.perf_counter()
    events, played = random_game(args.seed, args.rounds)
    built = time.perf_counter() - t0
    final = engine.replay(events)
    print(f"game: seed {args.seed}, {args.rounds} full rounds -> round {final.round} "
          f"{final.power} {final.phase}; {len(played)} orders, {len(events)} events "
          f"(built in {built:.1f} s)")

    per_order: list[float] = []
    by_kind: dict[str, list[float]] = {}
    for state, order in played:
        t = timed(functools.partial(apply_order, state, order), args.reps)
        per_order.append(t)
        by_kind.setdefault(order.kind, []).append(t)

    legal_t = [timed(functools.partial(all_legal, s), 3)
               for s, _ in played[:: max(1, len(played) // 60)]]
    replay_t = [0.0] * args.reps
    for i in range(args.reps):
        t1 = time.perf_counter()
        engine.replay(events)
        replay_t[i] = time.perf_counter() - t1

    print()
    print(f"{'decide+evolve per order':<28}{'n':>6}{'median ms':>11}{'p90 ms':>10}")
    print(f"{'all orders':<28}{len(per_order):>6}{ms(statistics.median(per_order)):>11}"
          f"{ms(pct(per_order, 0.9)):>10}")
    for kind, xs in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        print(f"{'  ' + kind:<28}{len(xs):>6}{ms(statistics.median(xs)):>11}"
              f"{ms(pct(xs, 0.9)):>10}")
    print(f"{'legal_orders (full list)':<28}{len(legal_t):>6}{ms(statistics.median(legal_t)):>11}"
          f"{ms(pct(legal_t, 0.9)):>10}")
    print()
    print(f"replay of {len(events)} events ({final.round - 1} full rounds): median "
          f"{statistics.median(replay_t) * 1e3:.1f} ms, p90 {pct(replay_t, 0.9) * 1e3:.1f} ms "
          f"({statistics.median(replay_t) / len(events) * 1e6:.1f} µs per event)")


if __name__ == "__main__":
    main()
