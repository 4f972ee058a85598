"""Odds benchmark (not a test): exact odds against simulation, for two battles of issue 3.

- land: 8 infantry, 4 tanks, 2 fighters, 1 bomber attack 8 infantry, 2 tanks, 2 fighters
  (15 against 12 units);
- sea: 2 battleships, 1 carrier, 2 fighters, 2 destroyers attack 2 battleships, 2 destroyers,
  1 submarine (10 ships, two of them battleships with two hits each, and a submarine that
  meets destroyers).

For each it prints the median time of ``rules.odds.odds`` (exact; every repeat builds its model
afresh, so no cache is shared between repeats), of its own Monte Carlo over 10,000 battles, and
of 10,000 battles fought by the real combat code (``battle <space> all`` through
``rules.engine.decide`` with HMAC dice), with the precision such a simulation reaches (the 95%
half-width of the attacker's winning chance) and the number of battles it would need to be as
precise as the exact figures are printed (0.05 points).

Run: ``.venv/bin/python bench/odds.py [--reps N] [--battles N] [--engine-battles N]``.
"""

from __future__ import annotations

import argparse
import functools
import math
import statistics
import sys
import time
from collections.abc import Callable

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.dice import HmacDice
from rules.edition import load_edition
from rules.odds import Z95, OddsResult, odds
from rules.state import GameState

ED = load_edition("a1941")
BATTLES: dict[str, tuple[dict[str, int], dict[str, int], bool]] = {
    "land 15 vs 12": ({"infantry": 8, "tank": 4, "fighter": 2, "bomber": 1},
                      {"infantry": 8, "tank": 2, "fighter": 2}, False),
    "sea 10 ships": ({"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2},
                     {"battleship": 2, "destroyer": 2, "submarine": 1}, True),
}
PRINTED = 0.0005  # exact odds are printed to 0.1%: half a unit of the last digit


def median_time(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def attack_state(att: dict[str, int], dfd: dict[str, int], sea: bool) -> tuple[GameState, str]:
    """After Combat Move: the attacker moved in from next door, the battle is open."""
    def go(pos: dict[str, object], moves: list[tuple[dict[str, int], str, str]]) -> GameState:
        events = list(engine.new_game("1941", (), pos))
        s = engine.replay(events)
        for units, frm, to in moves:
            if units:
                for e in engine.decide(s, od.Move(power=s.power, units=units, frm=frm, to=to),
                                       HmacDice(b"moves")):
                    s = engine.evolve(s, e)
        for e in engine.decide(s, od.EndPhase(power=s.power), HmacDice(b"moves")):
            s = engine.evolve(s, e)
        return s

    if not sea:
        pos = {"edition": "1941", "power": "Germany", "phase": "combat_move",
               "clear_all_units": True, "owners": {"Ukraine": "Soviet Union"},
               "units": {"Eastern Europe": {"Germany": att}, "Ukraine": {"Soviet Union": dfd}}}
        return go(pos, [(att, "Eastern Europe", "Ukraine")]), "Ukraine"
    ships = {t: n for t, n in att.items() if ED.units[t].domain == "sea"}
    air = {t: n for t, n in att.items() if ED.units[t].domain == "air"}
    pos = {"edition": "1941", "power": "United Kingdom", "phase": "combat_move",
           "clear_all_units": True,
           "units": {"Sea Zone 7": {"United Kingdom": ships},
                     "United Kingdom": {"United Kingdom": air},
                     "Sea Zone 6": {"Germany": dfd}}}
    return go(pos, [(ships, "Sea Zone 7", "Sea Zone 6"),
                    (air, "United Kingdom", "Sea Zone 6")]), "Sea Zone 6"


def engine_battles(state: GameState, space: str, n: int) -> tuple[float, float]:
    """Seconds for ``n`` battles of the real combat code, and the attacker's winning share."""
    order = od.Battle(power=state.power, space=space, all=True)
    wins = 0
    t = time.perf_counter()
    for i in range(n):
        evs = engine.decide(state, order, HmacDice(f"bench-{i}".encode(), game="bench"))
        end = [e for e in evs if isinstance(e, ev.BattleEnded) and e.space == space][-1]
        wins += end.result == "attacker"
    return time.perf_counter() - t, wins / n


def show(r: OddsResult) -> str:
    return (f"attacker {100 * r.attacker_win:.2f}%, defender {100 * r.defender_win:.2f}%, "
            f"draw {100 * r.draw:.2f}%")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15, help="repeats of the exact odds")
    ap.add_argument("--battles", type=int, default=10_000, help="Monte Carlo battles")
    ap.add_argument("--engine-battles", type=int, default=10_000,
                    help="battles fought by the real combat code (0: skip)")
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}; median of {args.reps} repeats for exact odds\n")
    for name, (att, dfd, sea) in BATTLES.items():
        exact = odds(ED, att, dfd, sea=sea)
        t_exact = median_time(functools.partial(odds, ED, att, dfd, sea=sea), args.reps)
        print(f"{name}: {exact.states} states, exact: {show(exact)}")
        print(f"  exact odds            {1000 * t_exact:9.1f} ms")
        t = time.perf_counter()
        mc = odds(ED, att, dfd, sea=sea, method="monte carlo", samples=args.battles, seed=1)
        t_mc = time.perf_counter() - t
        p = exact.attacker_win
        hw = Z95 * math.sqrt(p * (1 - p) / args.battles)
        need = math.ceil(p * (1 - p) * (Z95 / PRINTED) ** 2)
        print(f"  Monte Carlo {args.battles:>7,}   {1000 * t_mc:9.1f} ms  "
              f"({show(mc)}; ±{100 * hw:.2f} points at 95%)")
        print(f"    ratio exact / Monte Carlo: {t_exact / t_mc:.4f}; Monte Carlo needs "
              f"{need:,} battles (~{t_mc / args.battles * need:.0f} s) for ±0.05 points")
        if args.engine_battles:
            state, space = attack_state(att, dfd, sea)
            t_eng, share = engine_battles(state, space, args.engine_battles)
            hw_e = Z95 * math.sqrt(p * (1 - p) / args.engine_battles)
            print(f"  combat code {args.engine_battles:>7,}   {1000 * t_eng:9.1f} ms  "
                  f"(attacker won {100 * share:.2f}%; ±{100 * hw_e:.2f} points at 95%, "
                  f"{(share - p) / math.sqrt(p * (1 - p) / args.engine_battles):+.1f} se "
                  "from exact)")
            print(f"    ratio exact / combat code: {t_exact / t_eng:.5f} (exact is "
                  f"{t_eng / t_exact:,.0f} times faster); for ±0.05 points the combat code "
                  f"would need ~{t_eng / args.engine_battles * need / 3600:.1f} h")
        print()


if __name__ == "__main__":
    main()
