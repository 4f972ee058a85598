"""The golden corpus: games recorded with every answer the referee gave and their final state.

A game of the corpus is a list of lines typed at the local table (``<person>: <text>``, the same
service as Discord underneath) with its dice. Recording plays them and keeps, per answered line,
whether it was accepted, the text the referee answered and how many events it appended; and, per
game, the whole event log and the final state (``state_json``). ``tests/test_golden_corpus.py``
plays the lines again and asserts the same answers, the same log and the same state, so a change
meant to keep behaviour (a reshaping of the engine or the service) is proved to keep it.

The corpus (``tests/golden_corpus/*.jsonl.gz``, one game a line) holds:

- ``scripts``: every scripted game of the tests (``tests/local/games/*.txt`` with their dice,
  and the inline scripts listed in ``SCRIPTS``);
- ``random-1941`` and ``random-classic``: games from the setup played by a seeded random driver
  that picks among ``rules.legal.legal_orders`` (research, purchases, moves, battles, casualty
  choices, submarines, retreats, raids, rockets, placement, 'undo' of a move that would leave
  the phase unable to end) for a bounded number of rounds. They use fair commit-reveal dice
  with a fixed secret per game, so the dice events are in the log too.

Usage::

    python -m tools.golden_corpus record            # re-record every group
    python -m tools.golden_corpus record scripts    # one group
    python -m tools.golden_corpus check             # replay and report differences (no pytest)
    python -m tools.golden_corpus stats             # games, lines, events, bytes per group

Re-record only together with the change that alters behaviour on purpose, and say so in that
commit (docs/testing.md).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from db.engine import sqlite_url
from db.repo import SqlStore
from local.table import Answer, Table, parse_dice
from rules import engine
from rules import events as ev
from rules import orders as od
from rules.dice import ScriptedDice
from rules.errors import RulesError
from rules.legal import legal_orders
from rules.mechanisms import bombing, research, rockets, withdrawal
from rules.position import state_json
from rules.state import GameState
from service import language as ps
from service.games import CountingDice, GameService
from service.store import EventStore, MemoryStore

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "golden_corpus"
GAMES = ROOT / "tests" / "local" / "games"
GROUPS = ("scripts", "random-1941", "random-classic")
RANDOM_GAMES = 30  # one-round games per edition
LONG_GAMES = 2  # and three-round games per edition (captures held, income changed, round 3)
LONG_ROUNDS = 3
MAX_UNDOS = 3
MAX_SKIPS = 40  # picks of stranding moves passed over in one phase before the phase ends
MAX_LINES = 160  # per round of a random game: a bound, should the driver wander
# 'undo' of a move that leaves the phase unable to end, at most this often a game (an undo
# replays the log in the memory store: the corpus's cost); later such moves are not made.
AXIS, ALLIES = "axis", "allies"
RERECORD = "python -m tools.golden_corpus record"

# Inline scripts of the tests, copied here so that the corpus does not import tests:
# name -> (dice, position or None, lines).
SCRIPTS: dict[str, tuple[str, dict[str, Any] | None, str]] = {
    # tests/local/test_battle_two_people.py: a sea battle fought round by round by two people,
    # with refusals (wrong person, wrong moment).
    "battle_two_people": (
        "6,1,6,2,6,6,6",
        {
            "edition": "1941", "power": "United Kingdom", "phase": "combat_move",
            "units": {"Sea Zone 7": {"United Kingdom": {"battleship": 1, "submarine": 1}},
                      "Sea Zone 6": {"Germany": {"submarine": 1, "destroyer": 1,
                                                 "transport": 1}}},
            "clear_all_units": True,
        },
        """\
United Kingdom: move 1 battleship, 1 submarine from Sea Zone 7 to Sea Zone 6
end
Germany: battle Sea Zone 6
United Kingdom: battle Sea Zone 6
United Kingdom: strike Sea Zone 6
Germany: strike Sea Zone 6
United Kingdom: casualties Sea Zone 6 1 submarine
Germany: casualties Sea Zone 6 1 submarine
United Kingdom: retreat Sea Zone 6 to Sea Zone 7
United Kingdom: casualties Sea Zone 6 1 battleship
United Kingdom: press Sea Zone 6
state
""",
    ),
}


# --------------------------------------------------------------------------------------------
# A game of the corpus


@dataclass
class Game:
    """What is played: lines and dice. ``faces`` are scripted dice; else fair dice from
    ``secret`` (hex), the way a Discord game rolls them."""

    name: str
    edition: str
    lines: list[str]
    faces: str | None = None
    secret: str | None = None
    source: str = ""
    position: dict[str, Any] | None = None  # started from a position (``--position``)

    def service(self, store: EventStore) -> GameService:
        if self.faces is not None:
            return GameService(store=store, scripted_dice=parse_dice(self.faces),
                               allow_scripted_dice=True)
        assert self.secret is not None
        master = bytes.fromhex(self.secret)
        return GameService(store=store, draw_secret=lambda: master)


@dataclass
class Record:
    """A played game: its lines' answers, its event log, its final state."""

    game: Game
    answers: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        g = self.game
        return {"name": g.name, "edition": g.edition, "source": g.source, "faces": g.faces,
                "secret": g.secret, "position": g.position, "lines": g.lines,
                "answers": self.answers, "log": self.log, "final": self.final}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Record:
        game = Game(d["name"], d["edition"], d["lines"], d["faces"], d["secret"], d["source"],
                    d["position"])
        return cls(game, d["answers"], d["log"], d["final"])


def _answer_json(a: Answer) -> dict[str, Any]:
    return {"line": a.line, "ok": a.result.ok, "text": a.to_text(), "events": len(a.result.events)}


class Player:
    """A game being played line by line at an in-process local table."""

    def __init__(self, game: Game, out_dir: Path, store: EventStore | None = None) -> None:
        self.game = game
        self.service = game.service(store or MemoryStore())
        self.table = Table(self.service, out_dir)
        self.answers: list[dict[str, Any]] = []

    async def say(self, line: str) -> Answer | None:
        a = await self.table.answer(line)
        if a is not None:
            self.answers.append(_answer_json(a))
        return a

    async def start_from(self, position: dict[str, Any]) -> None:
        """As ``--position``: every power seated by its own name, the game started."""
        started = await self.table.seat_position(position, self.game.edition)
        self.answers.append({"line": "--position", "ok": started.ok, "text": started.answer,
                             "events": len(started.events)})

    async def finish(self) -> Record:
        a = self.table.close()
        if a is not None:
            self.answers.append(_answer_json(a))
        rec = Record(self.game, self.answers)
        info = await self.service.game_in(self.table.channel)
        if info is not None:
            store = self.service.store
            rec.log = [ev.event_to_json(s.event) for s in await store.load_events(info.id)]
            fresh = GameService(store=store)  # no cached state: loaded from the store
            if rec.log:
                rec.final = state_json(await fresh.state(info.id))
        return rec


async def play(game: Game, sqlite: bool = False) -> Record:
    """Play a game's lines (a replay: no choices are made), in memory or on a new SQLite file
    (``sqlite``: the final state is then read from the file's latest snapshot and the tail)."""
    with tempfile.TemporaryDirectory() as out:
        if not sqlite:
            return await _play(game, Player(game, Path(out)))
        store = await SqlStore.open(sqlite_url(Path(out) / "corpus.sqlite3"))
        try:
            return await _play(game, Player(game, Path(out), store))
        finally:
            await store.close()


async def _play(game: Game, p: Player) -> Record:
    if game.position is not None:
        await p.start_from(game.position)
    for line in game.lines:
        await p.say(line)
    return await p.finish()


# --------------------------------------------------------------------------------------------
# Scripted games


def scripted_games() -> list[Game]:
    games = []
    for txt in sorted(GAMES.glob("*.txt")):
        faces = txt.with_suffix(".dice").read_text().strip()
        lines = txt.read_text("utf-8-sig").splitlines()
        edition = next((e for e in ("classic", "europe1940") if txt.name.startswith(e)), "1941")
        if edition != "1941":
            lines.append("alice: state")  # as tests/local/test_<edition>_game.py do
        games.append(Game(txt.stem, edition, lines, faces=faces,
                          source=str(txt.relative_to(ROOT))))
    for name, (faces, position, text) in SCRIPTS.items():
        edition = str((position or {}).get("edition", "1941"))
        games.append(Game(name, edition, text.splitlines(), faces=faces,
                          source=f"tools/golden_corpus.py SCRIPTS[{name!r}]", position=position))
    return games


# --------------------------------------------------------------------------------------------
# Random games: a seeded driver over legal_orders, speaking order-language lines


def order_line(order: od.Order) -> str:
    """The order-language line of an order (parses back to it: ``line_parses_to``)."""
    units = ps.format_units
    match order:
        case od.Buy():
            return f"buy {units(order.units)}"
        case od.ClearPurchase():
            return "buy clear"
        case research.Research():
            return f"research {order.dice}"
        case rockets.Rocket():
            return f"rocket {order.frm} at {order.target}"
        case od.Move():
            line = f"move {units(order.units)} from {order.frm} to {order.to}"
            if order.via:
                line += " via " + ", ".join(order.via)
            return line + (" raid" if order.raid else "")
        case od.Battle():
            return f"battle {order.space}" + (" all" if order.all else "")
        case od.Casualties():
            line = f"casualties {order.space}: "
            line += ps.format_casualty_units(order.units, order.origins)
            return line
        case od.Retreat():
            return f"retreat {order.space} to {order.to}"
        case od.Press():
            return f"press {order.space}"
        case od.Submerge():
            return f"submerge {order.space}" + ("" if order.count is None else f" {order.count}")
        case od.Strike():
            return f"strike {order.space}"
        case withdrawal.Withdraw():
            line = f"withdraw {order.space}" + ("" if order.count is None else f" {order.count}")
            return line + ("" if order.to is None else f" to {order.to}")
        case bombing.Bomb():
            return f"bomb {order.space}"
        case od.Place():
            return f"place {units(order.units)} in {order.space}"
        case od.EndPhase():
            line = "end" if order.phase is None else f"end {order.phase.replace('_', ' ')}"
            return line + (" confirm" if order.confirm else "")
    raise ValueError(f"no line for {order!r}")


def line_parses_to(line: str, order: od.Order, names: ps.Names) -> bool:
    try:
        got = ps.parse(line, names)
    except RulesError:
        return False
    return isinstance(got, type(order)) and got == order.model_copy(update={"power": ""})


END_BIAS = {"research": 60, "purchase": 25, "combat_move": 15, "conduct_combat": 30,
            "noncombat_move": 30, "mobilize": 10}


def _pick(rnd: random.Random, state: GameState, orders: list[od.Order],
          names: ps.Names) -> od.Order | None:
    """A random order of ``orders`` whose line parses back to it; 'end' with a phase's bias."""
    while orders:
        ends = [o for o in orders if isinstance(o, od.EndPhase)]
        others = [o for o in orders if not isinstance(o, od.EndPhase)]
        if ends and (not others or rnd.randrange(100) < END_BIAS.get(state.phase, 50)):
            order: od.Order = ends[0]
        else:
            order = rnd.choice(others)
        if line_parses_to(order_line(order), order, names):
            return order
        orders.remove(order)
    return None


def _strands(state: GameState, move: od.Move) -> bool:
    """The move rolls no dice and leaves its phase unable to end where it could."""
    if not _can_end(state, move.power or state.power):
        return False
    dice = CountingDice(ScriptedDice([1] * 100))
    order = move.model_copy(update={"power": move.power or state.power})
    after = state
    for e in engine.decide(state, order, dice):
        after = engine.evolve(after, e)
    return dice.used == 0 and not _can_end(after, order.power)


def _can_end(state: GameState, power: str) -> bool:
    try:
        engine.check(state, od.EndPhase(power=power))
    except RulesError:
        return False
    return True


def rounds_of(seed: int) -> int:
    """Whole rounds a random game plays: one, and three for the last few seeds."""
    return 1 if seed < RANDOM_GAMES else LONG_ROUNDS


async def record_random(edition: str, seed: int, rounds: int | None = None) -> Record:
    """A random game: legal orders picked with ``random.Random(seed)``, fair dice from a secret
    derived from the seed; every line it spoke is kept, so replaying needs no choices."""
    rounds = rounds_of(seed) if rounds is None else rounds
    rnd = random.Random(f"golden-{edition}-{seed}")
    secret = hashlib.sha256(f"golden-{edition}-{seed}".encode()).hexdigest()
    game = Game(f"random-{edition}-{seed:02d}", edition, [], secret=secret,
                source=f"tools/golden_corpus.py record_random({edition!r}, {seed})")
    with tempfile.TemporaryDirectory() as out:
        p = Player(game, Path(out))

        async def say(line: str) -> Answer | None:
            game.lines.append(line)
            return await p.say(line)

        ed = engine.resolve_edition(edition)
        names = ps.names_for(ed.id)
        await say(f"{AXIS}: game new {ed.id}")
        axis_side = ed.side_of(ed.turn_order[1])
        for power in ed.turn_order:
            who = AXIS if ed.side_of(power) == axis_side else ALLIES
            await say(f"{who}: game join {power}")
        await say(f"{AXIS}: game start")
        info = await p.service.game_in(p.table.channel)
        assert info is not None
        last = ""
        undos = skipped = 0
        skipped_in: tuple[int, str, str] = (0, "", "")
        while len(game.lines) < MAX_LINES * rounds:
            state = await p.service.state(info.id)
            if state.winner is not None or state.ended or state.round > rounds:
                break
            owed = engine.pending(state)
            power = rnd.choice(owed).power
            orders = list(legal_orders(state, power))
            order = _pick(rnd, state, orders, names)
            if order is None:
                break  # stuck: the driver's concern, not the corpus's
            # A move that rolls no dice and leaves the phase unable to end is taken back, as a
            # player would ('undo', DESIGN §5): said the first few times, then not made at all.
            strands = isinstance(order, od.Move) and _strands(state, order)
            if strands and undos >= MAX_UNDOS:
                if (state.round, state.power, state.phase) != skipped_in:
                    skipped_in, skipped = (state.round, state.power, state.phase), 0
                skipped += 1
                if skipped < MAX_SKIPS:
                    continue
                order, strands = od.EndPhase(power=power), False  # it could end: it does
            who = AXIS if ed.side_of(power) == axis_side else ALLIES
            line = order_line(order)
            prefix = "" if who == last else f"{who}: "
            last = who
            a = await say(prefix + line)
            assert a is not None and a.result.ok, (game.name, line, a and a.result.error)
            if strands:
                undos += 1
                await say("undo")
        return await p.finish()


# --------------------------------------------------------------------------------------------
# Files


def path_of(group: str) -> Path:
    return CORPUS / f"{group}.jsonl.gz"


def write_group(group: str, records: Iterable[Record]) -> Path:
    CORPUS.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        for r in records:
            line = json.dumps(r.to_json(), ensure_ascii=False, separators=(",", ":"),
                              sort_keys=True)
            gz.write(line.encode("utf-8") + b"\n")
    path = path_of(group)
    path.write_bytes(buf.getvalue())
    return path


def read_group(group: str) -> list[Record]:
    with gzip.open(path_of(group), "rt", encoding="utf-8") as f:
        return [Record.from_json(json.loads(line)) for line in f if line.strip()]


def _record_one(edition: str, seed: int) -> Record:
    return asyncio.run(record_random(edition, seed))


def record_group(group: str, jobs: int = 1) -> list[Record]:
    """Record a group's games, ``jobs`` processes at a time (each game is independent)."""
    if group == "scripts":
        return [asyncio.run(play(g)) for g in scripted_games()]
    edition = group.removeprefix("random-")
    seeds = range(RANDOM_GAMES + LONG_GAMES)
    if jobs <= 1:
        return [_record_one(edition, seed) for seed in seeds]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_record_one, [edition] * len(seeds), seeds))


# --------------------------------------------------------------------------------------------
# Comparing


def differences(want: Record, got: Record, limit: int = 5) -> list[str]:
    """What differs between a recorded game and its replay, first differences first."""
    out: list[str] = []
    for i, (w, g) in enumerate(zip(want.answers, got.answers, strict=False)):
        if w != g:
            out.append(_diff_answer(i, w, g))
            if len(out) >= limit:
                return out
    if len(want.answers) != len(got.answers):
        out.append(f"answers: {len(want.answers)} recorded, {len(got.answers)} now")
    if want.log != got.log:
        for i, (w, g) in enumerate(zip(want.log, got.log, strict=False)):
            if w != g:
                out.append(f"event #{i} of the log differs:\n  recorded: "
                           f"{json.dumps(w, sort_keys=True)}\n  now:      "
                           f"{json.dumps(g, sort_keys=True)}")
                break
        else:
            out.append(f"log: {len(want.log)} events recorded, {len(got.log)} now")
    if want.final != got.final:
        out.append("final state differs:\n" + _diff_json(want.final, got.final))
    return out


def _diff_answer(i: int, w: dict[str, Any], g: dict[str, Any]) -> str:
    import difflib

    head = f"answer to line #{i} {w.get('line')!r}:"
    parts = [head]
    for key in ("ok", "events", "line"):
        if w.get(key) != g.get(key):
            parts.append(f"  {key}: recorded {w.get(key)!r}, now {g.get(key)!r}")
    if w.get("text") != g.get("text"):
        diff = difflib.unified_diff(str(w.get("text")).splitlines(),
                                    str(g.get("text")).splitlines(),
                                    "recorded", "now", lineterm="", n=1)
        parts.extend("  " + d for d in diff)
    return "\n".join(parts)


def _diff_json(w: Any, g: Any, path: str = "state", out: list[str] | None = None) -> str:
    out = [] if out is None else out
    if isinstance(w, dict) and isinstance(g, dict):
        for k in sorted(set(w) | set(g), key=str):
            if k not in g:
                out.append(f"  {path}.{k}: recorded {json.dumps(w[k])[:200]}, now missing")
            elif k not in w:
                out.append(f"  {path}.{k}: not recorded, now {json.dumps(g[k])[:200]}")
            elif w[k] != g[k]:
                _diff_json(w[k], g[k], f"{path}.{k}", out)
    elif w != g:
        out.append(f"  {path}: recorded {json.dumps(w)[:200]}, now {json.dumps(g)[:200]}")
    return "\n".join(out[:20])


def folds_to_final(rec: Record) -> bool:
    """The recorded log alone folds to the recorded final state."""
    if not rec.log:
        return rec.final is None
    state = engine.replay([ev.event_from_json(e) for e in rec.log])
    return state_json(state) == rec.final


# --------------------------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.golden_corpus", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("record", "check", "stats"))
    ap.add_argument("groups", nargs="*", choices=(*GROUPS, []), default=[])
    ap.add_argument("--jobs", type=int, default=2,
                    help="processes recording random games at once (default 2)")
    args = ap.parse_args(argv)
    groups = args.groups or list(GROUPS)
    if args.command == "record":
        for g in groups:
            t = time.perf_counter()
            recs = record_group(g, args.jobs)
            path = write_group(g, recs)
            print(f"{g}: {len(recs)} games, {sum(len(r.game.lines) for r in recs)} lines, "
                  f"{sum(len(r.log) for r in recs)} events, {path.stat().st_size} bytes "
                  f"({time.perf_counter() - t:.1f} s) -> {path.relative_to(ROOT)}")
        return 0
    if args.command == "stats":
        for g in groups:
            recs = read_group(g)
            rounds = [r.final["round"] for r in recs if r.final]
            print(f"{g}: {len(recs)} games, {sum(len(r.game.lines) for r in recs)} lines, "
                  f"{sum(len(r.log) for r in recs)} events, rounds reached "
                  f"{min(rounds)}..{max(rounds)}, {path_of(g).stat().st_size} bytes")
        return 0
    bad = 0
    for g in groups:
        t = time.perf_counter()
        recs = read_group(g)
        for want in recs:
            got = asyncio.run(play(want.game))
            diff = differences(want, got)
            if diff:
                bad += 1
                print(f"{g}/{want.game.name}:\n" + "\n".join(diff))
        print(f"{g}: {len(recs)} games replayed in {time.perf_counter() - t:.1f} s")
    if bad:
        print(f"{bad} game(s) differ. If the change is meant, re-record: {RERECORD}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
