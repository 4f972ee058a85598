"""Odds benchmark (not a test): exact odds against simulation, for battles of both editions.

1941 (issue 3):

- land: 8 infantry, 4 tanks, 2 fighters, 1 bomber attack 8 infantry, 2 tanks, 2 fighters
  (15 against 12 units);
- sea: 2 battleships, 1 carrier, 2 fighters, 2 destroyers attack 2 battleships, 2 destroyers,
  1 submarine (10 ships, two of them battleships with two hits each, and a submarine that
  meets destroyers).

Classic (digest §6):

- land + AA: the 1941 land battle with an AA gun among the defenders (R-LC-02);
- amphibious: 4 infantry, 2 tanks, 1 fighter and 2 bombarding battleships against 6 infantry,
  1 tank and an AA gun (R-AMP-05);
- sea: 3 submarines striking first, 2 battleships, 1 carrier, 2 fighters against 2
  battleships, 1 carrier, 2 fighters, 3 transports, 2 submarines (R-SUB-02, R-TRP-05);
- heavy bombers: 4 bombers with Heavy Bombers and 3 infantry against 6 infantry and an AA gun;
- big land + AA: 20 infantry, 10 tanks, 6 fighters, 4 bombers against 20 infantry, 5 tanks,
  4 fighters and an AA gun: beyond the exact method's work budget, so Monte Carlo.

Europe 1940 (issue 16):

- land, combined arms + AA: 6 infantry, 3 artillery, 2 mechanized infantry, 3 tanks, 2 fighters,
  2 tactical bombers against 8 infantry, 2 artillery, 2 tanks, 1 fighter and 2 AA guns
  (artillery supporting infantry and mechanized infantry CA-1, tactical bombers paired CA-3,
  the AA guns' min(3 x guns, aircraft) shots A-21);
- sea, 2-hit capital ships: 2 battleships, 2 cruisers, 2 destroyers, 1 carrier, 2 fighters
  against 1 battleship, 2 carriers, 2 fighters, 2 destroyers, 2 submarines (carriers and
  battleships take 2 hits, their damage kept).

The bounds (issue 13 item 12): 999 infantry against 999 infantry (it once took 222 s and 1.7 GB)
and a mixed fleet of 300 fighters, 300 submarines and 300 battleships against 300 carriers,
300 fighters and 300 transports: the exact method gives up at its work budget, the Monte Carlo
stops at its own, and the figures printed are the steps of work counted, the battles simulated,
the time and the peak of memory allocated (tracemalloc) of one answer.

For each it prints the states and the median time of ``rules.odds.odds`` (auto: exact where
feasible; every repeat builds its model afresh, so no cache is shared between repeats), the
median time of its own Monte Carlo over 10,000 battles, and (``--engine-battles``) the time of
battles fought by the real combat code (``battle <space> all`` through ``rules.engine.decide``
with HMAC dice) where the bench can set the battle up, with the precision such a simulation
reaches (the 95% half-width of the attacker's winning chance) and the number of battles it
would need to be as precise as the exact figures are printed (0.05 points).

Sizes (issue 18 item 4, printed first): for each edition, battles of 15, 25, 40 and 80 units a
side (``SIZES``): land (with AA guns where the edition has them, combined arms in Europe 1940),
amphibious (the same with bombarding ships among the attackers), surface (at sea without
submarines or transports: two-hit ships, destroyers, carriers and their fighters) and sea (with
submarines, and Classic's transports): the method that answered (``OddsResult.solver``: "grid
arrays", "grid", "joint", or Monte Carlo), the median time, the joint states, the steps of
work, and the time over a floor measured in the same run (``floor``: a fixed pure-Python loop
of a million multiply-adds, so the ratios compare across machines and loads). ``--plain`` adds
the plain-Python grid (``grid="plain"``: the methods as they were before ``odds.fast``), and
``--reference`` the old exact method (``reference=True``, with the budgets it had before issue
18), for the before/after figures.

Run: ``.venv/bin/python bench/odds.py [--reps N] [--mc-reps N] [--battles N]
[--engine-battles N] [--only TEXT] [--plain] [--reference] [--detail]``.
"""

from __future__ import annotations

import argparse
import functools
import math
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

# The checkout first: this script's folder (bench/, on the path as the script's own) holds
# odds.py, which would hide the package ``odds``.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from odds.ask import DEFAULT_MAX_WORK, DEFAULT_MC_WORK, Z95, OddsResult, odds  # noqa: E402
from rules import engine  # noqa: E402
from rules import events as ev  # noqa: E402
from rules import orders as od  # noqa: E402
from rules.defaults import default_orders  # noqa: E402
from rules.dice import HmacDice  # noqa: E402
from rules.edition import Edition, load_edition  # noqa: E402
from rules.state import GameState  # noqa: E402


class Bench(NamedTuple):
    edition: str
    att: dict[str, int]
    dfd: dict[str, int]
    sea: bool
    techs: tuple[str, ...] = ()  # the attacker's developments
    engine: bool = True  # the bench can set the battle up for the combat code
    reference: bool = True  # the exact method without limits is worth running


LAND = {"infantry": 8, "tank": 4, "fighter": 2, "bomber": 1}
BATTLES: dict[str, Bench] = {
    "1941 land 15 vs 12": Bench("a1941", LAND, {"infantry": 8, "tank": 2, "fighter": 2}, False),
    "1941 sea 10 ships": Bench(
        "a1941", {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "destroyer": 2},
        {"battleship": 2, "destroyer": 2, "submarine": 1}, True),
    "classic land + AA": Bench(
        "classic", LAND, {"infantry": 8, "tank": 2, "fighter": 2, "antiaircraft gun": 1}, False),
    "classic amphibious": Bench(
        "classic", {"infantry": 4, "tank": 2, "fighter": 1, "battleship": 2},
        {"infantry": 6, "tank": 1, "antiaircraft gun": 1}, False, engine=False),
    "classic sea subs": Bench(
        "classic", {"submarine": 3, "battleship": 2, "aircraft carrier": 1, "fighter": 2},
        {"battleship": 2, "aircraft carrier": 1, "fighter": 2, "transport": 3, "submarine": 2},
        True),
    "classic heavy bombers": Bench(
        "classic", {"bomber": 4, "infantry": 3}, {"infantry": 6, "antiaircraft gun": 1}, False,
        ("heavy_bombers",), engine=False),
    "classic big land + AA": Bench(
        "classic", {"infantry": 20, "tank": 10, "fighter": 6, "bomber": 4},
        {"infantry": 20, "tank": 5, "fighter": 4, "antiaircraft gun": 1}, False),
    "europe1940 land combined arms + AA": Bench(
        "europe1940",
        {"infantry": 6, "artillery": 3, "mechanized infantry": 2, "tank": 3, "fighter": 2,
         "tactical bomber": 2},
        {"infantry": 8, "artillery": 2, "tank": 2, "fighter": 1, "aa gun": 2}, False),
    "europe1940 sea 2-hit capital ships": Bench(
        "europe1940",
        {"battleship": 2, "cruiser": 2, "destroyer": 2, "aircraft carrier": 1, "fighter": 2},
        {"battleship": 1, "aircraft carrier": 2, "fighter": 2, "destroyer": 2, "submarine": 2},
        True),
    "bound 999 vs 999 infantry": Bench(
        "a1941", {"infantry": 999}, {"infantry": 999}, False, engine=False, reference=False),
    "bound 900 mixed at sea": Bench(
        "classic", {"fighter": 300, "submarine": 300, "battleship": 300},
        {"aircraft carrier": 300, "fighter": 300, "transport": 300}, True, engine=False,
        reference=False),
}
# Where the combat code fights them: (attacker, from, to, defender, owner of to), and for sea
# battles the territory the aircraft fly from.
PLACES: dict[str, dict[str, Any]] = {
    "a1941": {"land": ("Germany", "Eastern Europe", "Ukraine", "Soviet Union"),
              "sea": ("United Kingdom", "Sea Zone 7", "Sea Zone 6", "Germany"),
              "air base": "United Kingdom"},
    "classic": {"land": ("Germany", "Eastern Europe", "Karelia S.S.R.", "Russia"),
                "sea": ("United Kingdom", "Baltic Sea Zone", "North Sea Zone", "Germany"),
                "air base": "United Kingdom"},
    "europe1940": {"land": ("Germany", "Western Germany", "France", "France"),
                   "sea": ("United Kingdom", "Sea Zone 111", "Sea Zone 110", "Germany"),
                   "air base": "United Kingdom"},
}
PRINTED = 0.0005  # exact odds are printed to 0.1%: half a unit of the last digit


def median_time(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def attack_state(ed: Edition, att: dict[str, int], dfd: dict[str, int],
                 sea: bool) -> tuple[GameState, str]:
    """After Combat Move: the attacker moved in from next door, the battle is open."""
    def go(pos: dict[str, object], moves: list[tuple[dict[str, int], str, str]]) -> GameState:
        events = list(engine.new_game(ed.id, (), pos))
        s = engine.replay(events)
        for units, frm, to in moves:
            if units:
                for e in engine.decide(s, od.Move(power=s.power, units=units, frm=frm, to=to),
                                       HmacDice(b"moves")):
                    s = engine.evolve(s, e)
        for e in engine.decide(s, od.EndPhase(power=s.power, phase=s.phase), HmacDice(b"moves")):
            s = engine.evolve(s, e)
        return s

    places = PLACES[ed.id]
    if not sea:
        power, frm, to, foe = places["land"]
        pos = {"edition": ed.id, "power": power, "phase": "combat_move",
               "clear_all_units": True, "owners": {to: foe},
               "units": {frm: {power: att}, to: {foe: dfd}}}
        return go(pos, [(att, frm, to)]), to
    power, frm, to, foe = places["sea"]
    base = places["air base"]
    ships = {t: n for t, n in att.items() if ed.units[t].domain == "sea"}
    air = {t: n for t, n in att.items() if ed.units[t].domain == "air"}
    pos = {"edition": ed.id, "power": power, "phase": "combat_move", "clear_all_units": True,
           "units": {frm: {power: ships}, base: {power: air}, to: {foe: dfd}}}
    return go(pos, [(ships, frm, to), (air, base, to)]), to


def engine_battles(state: GameState, space: str, n: int) -> tuple[float, float]:
    """Seconds for ``n`` battles of the real combat code, and the attacker's winning share
    (a decision the battle owes, e.g. a choice of casualties, answered as the referee does at
    a deadline: ``rules.defaults``)."""
    order = od.Battle(power=state.power, space=space, all=True)
    wins = 0
    t = time.perf_counter()
    for i in range(n):
        dice = HmacDice(f"bench-{i}".encode(), game="bench")
        s, ends = state, []
        for _ in range(100):
            owed = [o for o in default_orders(s) if getattr(o, "space", None) == space]
            evs = engine.decide(s, owed[0] if owed else order, dice)
            for e in evs:
                s = engine.evolve(s, e)
            ends = [e for e in evs if isinstance(e, ev.BattleEnded) and e.space == space]
            if ends:
                break
        wins += ends[-1].result == "attacker"
    return time.perf_counter() - t, wins / n


def _mix(n: int, shares: dict[str, float]) -> dict[str, int]:
    """``n`` units in these shares (largest remainders), every type at least one."""
    raw = {t: n * w / sum(shares.values()) for t, w in shares.items()}
    out = {t: max(1, int(x)) for t, x in raw.items()}
    for t in sorted(raw, key=lambda t: raw[t] - int(raw[t]), reverse=True):
        if sum(out.values()) >= n:
            break
        out[t] += 1
    while sum(out.values()) > n:
        big = max(out, key=lambda t: out[t])
        out[big] -= 1
    return out


# Per edition: (attackers' shares, defenders' shares, units outside the count) on land and at
# sea. Defending fighters at sea never outnumber the carriers' decks (the shares keep them so).
MIXES: dict[str, dict[str, tuple[dict[str, float], dict[str, float], dict[str, int]]]] = {
    "a1941": {
        "land": ({"infantry": 5, "tank": 3, "fighter": 1.2, "bomber": 0.8},
                 {"infantry": 6, "tank": 2.5, "fighter": 1.5}, {}),
        # No amphibious battle: 1941 has no bombardment.
        "surface": ({"battleship": 2, "aircraft carrier": 1.5, "fighter": 2.5, "destroyer": 2},
                    {"battleship": 1.5, "aircraft carrier": 2, "fighter": 2.5, "destroyer": 2},
                    {}),
        "sea": ({"battleship": 2, "aircraft carrier": 1.5, "fighter": 2.5, "destroyer": 2,
                 "submarine": 2},
                {"battleship": 1.5, "aircraft carrier": 2, "fighter": 2.5, "destroyer": 2,
                 "submarine": 2}, {}),
    },
    "classic": {
        "land": ({"infantry": 5, "tank": 3, "fighter": 1.2, "bomber": 0.8},
                 {"infantry": 6, "tank": 2.5, "fighter": 1.5}, {"antiaircraft gun": 1}),
        "amphibious": ({"infantry": 5, "tank": 2, "fighter": 1, "battleship": 1},
                       {"infantry": 6, "tank": 2.5, "fighter": 1.5}, {"antiaircraft gun": 1}),
        "surface": ({"battleship": 2.5, "aircraft carrier": 1.5, "fighter": 3},
                    {"battleship": 2, "aircraft carrier": 2, "fighter": 3}, {}),
        "sea": ({"battleship": 2.5, "aircraft carrier": 1.5, "fighter": 3, "submarine": 3},
                {"battleship": 2, "aircraft carrier": 2, "fighter": 3, "submarine": 2,
                 "transport": 1}, {}),
    },
    "europe1940": {
        "land": ({"infantry": 3.5, "artillery": 2, "mechanized infantry": 1, "tank": 2,
                  "fighter": 1, "tactical bomber": 0.5},
                 {"infantry": 5, "artillery": 1.5, "tank": 2, "fighter": 1.5},
                 {"aa gun": 1}),
        "amphibious": ({"infantry": 3.5, "artillery": 2, "tank": 1.5, "fighter": 1,
                        "battleship": 0.5, "cruiser": 0.5},
                       {"infantry": 5, "artillery": 1.5, "tank": 2, "fighter": 1.5},
                       {"aa gun": 1}),
        "surface": ({"battleship": 1.5, "cruiser": 1.5, "destroyer": 2, "aircraft carrier": 1,
                     "fighter": 2},
                    {"battleship": 1.5, "cruiser": 1.5, "destroyer": 2, "aircraft carrier": 1.5,
                     "fighter": 1.5}, {}),
        "sea": ({"battleship": 1.5, "cruiser": 1.5, "destroyer": 2, "aircraft carrier": 1,
                 "fighter": 2, "submarine": 2},
                {"battleship": 1.5, "cruiser": 1.5, "destroyer": 2, "aircraft carrier": 1.5,
                 "fighter": 1.5, "submarine": 2}, {}),
    },
}
SIZES = (15, 25, 40, 80)
OLD_MAX_STATES, OLD_MAX_WORK = 10_000, 1_000_000  # the budgets before issue 18


def floor(reps: int = 5) -> float:
    """Seconds of a fixed pure-Python loop (a million multiply-adds over lists): the unit the
    sizes table divides by."""
    xs = [0.5] * 1000
    ys = [0.25] * 1000

    def loop() -> None:
        acc = [0.0] * 1000
        for _ in range(1000):
            acc = [a + x * y for a, x, y in zip(acc, xs, ys, strict=True)]

    return median_time(loop, reps)


def sizes(reps: int, only: str, reference: bool, plain: bool) -> None:
    unit = floor()
    print(f"Floor: a million multiply-adds in pure Python, {1000 * unit:.1f} ms (ratio = time / "
          "floor, the floor measured again before each edition's land and sea battles, as the "
          "load of the machine varies)\n")
    head = (f"{'battle':<32}{'method':<13}{'ms':>9}{'ratio':>8}{'states':>9}{'work':>11}")
    if plain:
        head += f"   {'plain':<13}{'plain ms':>9}"
    if reference:
        head += f"   {'old method':<13}{'old ms':>9}{'old states':>11}"
    print(head)
    for eid, kinds in MIXES.items():
        ed = load_edition(eid)
        for where, (a_mix, d_mix, extra) in kinds.items():
            unit = floor()
            for n in SIZES:
                name = f"{eid} {where} {n} v {n}"
                if only not in name:
                    continue
                att, dfd = _mix(n, a_mix), {**_mix(n, d_mix), **extra}
                sea = where in ("sea", "surface")
                if sea:
                    dfd["fighter"] = min(dfd.get("fighter", 0),
                                         2 * dfd.get("aircraft carrier", 0))
                run = functools.partial(odds, ed, att, dfd, sea=sea)
                r = run()
                t = median_time(run, reps if r.method == "exact" else 1)
                line = (f"{name:<32}{r.solver or r.method:<13}{1000 * t:9.1f}{t / unit:8.2f}"
                        f"{r.states:9,}{r.work:11,}")
                if plain:  # the grid in plain Python, as odds chose before odds.fast
                    plain_run = functools.partial(run, grid="plain")
                    p = plain_run()
                    t_plain = median_time(plain_run, reps if p.method == "exact" else 1)
                    line += f"   {p.solver or p.method:<13}{1000 * t_plain:9.1f}"
                if reference:
                    old_run = functools.partial(run, reference=True, max_states=OLD_MAX_STATES,
                                                max_work=OLD_MAX_WORK)
                    t0 = time.perf_counter()
                    old = old_run()
                    t_old = time.perf_counter() - t0
                    line += (f"   {old.solver or old.method:<13}{1000 * t_old:9.1f}"
                             f"{old.states:11,}")
                    if old.method == r.method == "exact":
                        diff = max(abs(old.attacker_win - r.attacker_win),
                                   abs(old.defender_win - r.defender_win))
                        line += f"  (differ by {diff:.1e})"
                print(line, flush=True)
    print()


def show(r: OddsResult) -> str:
    return (f"attacker {100 * r.attacker_win:.2f}%, defender {100 * r.defender_win:.2f}%, "
            f"draw {100 * r.draw:.2f}%")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15, help="repeats of the odds (auto method)")
    ap.add_argument("--mc-reps", type=int, default=3, help="repeats of the Monte Carlo")
    ap.add_argument("--battles", type=int, default=10_000, help="Monte Carlo battles")
    ap.add_argument("--engine-battles", type=int, default=0,
                    help="battles fought by the real combat code (0: skip)")
    ap.add_argument("--only", default="", help="only the battles whose name holds this text")
    ap.add_argument("--reference", action="store_true",
                    help="also time the old exact method (before issue 18) on the sizes")
    ap.add_argument("--plain", action="store_true",
                    help="also time the plain-Python grid (odds.grid, before odds.fast)")
    ap.add_argument("--detail", action="store_true",
                    help="then the named battles against Monte Carlo and the combat code")
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}; medians of {args.reps} repeats (auto) and "
          f"{args.mc_reps} (Monte Carlo)\n")
    sizes(args.reps, args.only, args.reference, args.plain)
    if not args.detail:
        return
    for name, b in BATTLES.items():
        if args.only not in name:
            continue
        ed = load_edition(b.edition)
        att, dfd, sea = b.att, b.dfd, b.sea
        run = functools.partial(odds, ed, att, dfd, sea=sea, attacker_techs=b.techs)
        exact = run()
        reps = args.reps if exact.method == "exact" else max(1, args.reps // 5)
        t_exact = median_time(run, reps)
        tracemalloc.start()
        run()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{name}: {exact.method}, {exact.states} states: {show(exact)}")
        trials = f", {exact.trials:,} battles" if exact.trials else ""
        print(f"  odds (auto)           {1000 * t_exact:9.1f} ms  ({exact.work:,} steps of work "
              f"of {DEFAULT_MAX_WORK + DEFAULT_MC_WORK:,}{trials}; peak memory "
              f"{peak / 2**20:.1f} MiB)")
        if not b.reference:
            print()
            continue
        mc_run = functools.partial(run, method="monte carlo", samples=args.battles, seed=1)
        mc = mc_run()
        t_mc = median_time(mc_run, args.mc_reps)
        if exact.method != "exact":  # the reference: the exact method without its limits
            t = time.perf_counter()
            exact = run(method="exact")
            t_full = time.perf_counter() - t
            print(f"  exact, no limit       {1000 * t_full:9.1f} ms ({exact.states} states: "
                  f"{show(exact)})")
        p = exact.attacker_win
        hw = Z95 * math.sqrt(p * (1 - p) / args.battles)
        need = math.ceil(p * (1 - p) * (Z95 / PRINTED) ** 2)
        print(f"  Monte Carlo {args.battles:>7,}   {1000 * t_mc:9.1f} ms  "
              f"({show(mc)}; ±{100 * hw:.2f} points at 95%)")
        print(f"    ratio exact / Monte Carlo: {t_exact / t_mc:.4f}; Monte Carlo needs "
              f"{need:,} battles (~{t_mc / args.battles * need:.0f} s) for ±0.05 points")
        if args.engine_battles and b.engine and not b.techs:
            state, space = attack_state(ed, att, dfd, sea)
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
