"""The local terminal table: lines in, answers (text or JSON) out, same service as Discord.

Each line is ``<name>: <order>`` (the name is the acting person, so seats and permissions are
exercised) or a bare order for the last name used. See ``docs/local-table.md``.

Exit codes: 0 all lines accepted (or the interactive table ended); 1 a line was refused in a
script (at once, or at the end with ``--keep-going``); 2 bad arguments (``--dice``,
``--position``, an unreadable script).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from db.engine import sqlite_url
from db.repo import SqlStore
from rules import events as ev
from rules.edition import default_edition, edition_rules
from rules.errors import RulesError
from service import batch as bt
from service import language as ps
from service import transfer
from service.games import GameService, Result, ServiceError
from service.images import RenderedImage

CHANNEL = "local"
UNVERIFIED = "unverified"  # the last word of 'game import <file> unverified'
EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2

def no_name() -> str:
    """The answer to a line without a speaker, with an example for the default edition."""
    word = edition_rules(default_edition()).word
    return (
        f"Who is speaking? Start the line with your name, e.g. 'alice: game new {word}'; "
        "later lines without a name are spoken by the last name used."
    )

# Commands anyone may give without having said who they are.
_READ_ONLY = frozenset(
    {"help", "state", "game_status", "game_map", "game_history", "game_export", "game_check",
     "dice_verify", "odds", "luck", "game_list"}
)
_VERB_WORDS = frozenset(v.split()[0] for v in ps.VERBS) | {"end!", "casualty", "load", "unload"}
_NAME = re.compile(r"[^\W\d][\w .'\-]{0,39}")
_QUIT = frozenset({"quit", "exit", "bye"})


class UsageError(Exception):
    """Bad command-line arguments: exit 2 with this message."""


def parse_dice(text: str) -> list[int]:
    """``"3,1,6"`` → ``[3, 1, 6]``; faces 1..6, commas or spaces between them."""
    parts = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if not parts:
        raise UsageError("--dice needs faces, e.g. --dice 3,1,6,2")
    faces: list[int] = []
    for p in parts:
        if not p.isdigit() or not 1 <= int(p) <= 6:
            raise UsageError(
                f"--dice: {p!r} is not a die face; give faces 1 to 6 separated by commas, "
                "e.g. --dice 3,1,6,2"
            )
        faces.append(int(p))
    return faces


def load_position(path: str) -> dict[str, Any]:
    """Read a ``--position`` file: a JSON object (COMMANDS.md gives its keys)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise UsageError(f"--position {path}: cannot read it ({e.strerror or e}).") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(
            f"--position {path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})."
        ) from None
    if not isinstance(data, dict):
        raise UsageError(f"--position {path}: expected a JSON object {{...}}.")
    return data


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The local table's flags (COMMANDS.md), for ``bot.py``."""
    parser.add_argument(
        "--script",
        metavar="FILE",
        help="read lines from FILE ('-' for standard input, answered line by line) and exit",
    )
    parser.add_argument(
        "--json", action="store_true", help="answer with one JSON object per line given"
    )
    parser.add_argument(
        "--dice", metavar="FACES", help="scripted dice instead of fair ones, e.g. 3,1,6,2"
    )
    parser.add_argument(
        "--position",
        metavar="FILE.json",
        help="start an active game from this position, every power seated by its own name",
    )
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="in a script, go on after a refused line (exit 1 at the end if any was refused)",
    )
    parser.add_argument(
        "--edition",
        help="edition for --position files that name none (default: the default edition; "
        "'help editions' lists them)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="where answers write files (exports, maps); default: the data directory",
    )
    parser.add_argument(
        "--no-images",
        action="store_true",
        help="write no map images or battle boards (faster, e.g. for tests)",
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="also serve the games' web pages (WEB_HOST, WEB_PORT; docs/web.md): "
        "'<name>: game link' gives the board's address and that player's private link",
    )
    parser.add_argument(
        "--web-port", metavar="PORT", type=int, help="the web pages' port (default: WEB_PORT)"
    )
    db = parser.add_mutually_exclusive_group()
    db.add_argument(
        "--db",
        metavar="PATH",
        help="keep games in this SQLite file: the channel's game continues across runs "
        "(default: in memory, gone at exit)",
    )
    db.add_argument(
        "--db-url",
        metavar="URL",
        help="keep games in this database, e.g. postgresql+asyncpg://user@host/umpire",
    )


@dataclass
class Answer:
    """What the table says about one line."""

    line: str
    result: Result
    files: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        r = self.result
        out: dict[str, Any] = {
            "line": self.line,
            "ok": r.ok,
            "error": r.error,
            "events": [ev.event_to_json(e) for e in r.events],
        }
        if r.answer:
            out["answer"] = r.answer
        if r.state is not None and r.kind in ("state", "status"):
            out["state"] = r.state
        if r.kind == "odds" and r.data is not None:
            out["odds"] = r.data
        if r.kind == "batch" and r.data is not None:
            out["lines"] = r.data["lines"]  # each order line of the block with its result
        if self.files:
            out["files"] = self.files
        return out

    def to_text(self) -> str:
        r = self.result
        if r.kind == "batch" and r.answer:
            return "\n".join([r.answer, *(f"Wrote {f}" for f in self.files)])
        if not r.ok:
            return f"Refused: {r.error}"
        parts: list[str] = []
        if r.state is not None and r.kind in ("state", "status"):
            parts.append(json.dumps(r.state, indent=2, ensure_ascii=False))
        elif r.answer:
            parts.append(r.answer)
        parts.extend(f"Wrote {f}" for f in self.files)
        return "\n".join(parts) if parts else "OK."


class Table:
    """One local table: a service, a channel, who spoke last, and where files go."""

    def __init__(self, service: GameService, out_dir: Path, channel: str = CHANNEL) -> None:
        self.service = service
        self.out_dir = out_dir
        self.channel = channel
        self.speaker: str | None = None
        self._spelling: dict[str, str] = {}
        self.block: Block | None = None  # an open 'orders' ... 'end orders' block

    def _person(self, name: str) -> str:
        """Names are case-insensitive at the table: the first spelling seen is kept."""
        return self._spelling.setdefault(name.casefold(), name)

    async def seat_position(self, position: dict[str, Any], edition: str | None) -> Result:
        """Create and start a game from a position, every power seated by its own name.

        The position's ``"edition"`` wins over ``edition`` (``--edition``), which wins over the
        default edition.
        """
        from rules.engine import resolve_edition

        try:
            ed = resolve_edition(str(position.get("edition") or edition or default_edition()))
            powers = list(ed.turn_order)
            owner = self._person(powers[0])
            opts = position.get("options") or ()
            if not isinstance(opts, list | tuple):
                raise UsageError("--position: 'options' must be a list of option names.")
            info = await self.service.create(
                self.channel, owner, ed.id, [str(o) for o in opts], position=position
            )
        except (ServiceError, RulesError) as e:
            raise UsageError(f"--position: {e}") from None
        for p in powers:
            joined = await self.service.join(info.id, self._person(p), p)
            if not joined.ok:
                raise UsageError(f"--position: cannot seat {p}: {joined.error}")
        started = await self.service.start(info.id, owner)
        if not started.ok:
            raise UsageError(f"--position: cannot start: {started.error}")
        return started

    def split(self, line: str) -> tuple[str | None, str]:
        """``"alice: buy 3 inf"`` → ``("alice", "buy 3 inf")``; a bare order → ``(None, line)``."""
        name, sep, rest = line.partition(":")
        name = " ".join(name.split())
        if not sep or not _NAME.fullmatch(name):
            return None, line.strip()
        if name.split()[0].casefold() in _VERB_WORDS:
            return None, line.strip()  # e.g. "standing casualties <power>: infantry, tank"
        return name, rest.strip()

    async def answer(self, raw: str) -> Answer | None:
        """Answer one input line; ``None`` for blank lines and ``#`` comments, and for the
        lines of an ``orders`` block until its ``end orders`` (answered for the whole block)."""
        line = raw.rstrip("\r\n")
        if self.block is not None:
            return await self._in_block(line)
        if not line.strip() or line.lstrip().startswith("#"):
            return None
        name, text = self.split(line)
        if _words(text) == bt.BEGIN:
            return self._open_block(line, name)
        if _words(text) == bt.END:
            why = f"No block of orders is open: begin one with '{bt.BEGIN}' on a line of its own."
            return Answer(line, Result.refused(why, kind="batch"))
        if name is not None:
            self.speaker = self._person(name)
            if not text:
                return Answer(line, Result(ok=True, answer=f"Now speaking: {self.speaker}."))
        person = self.speaker
        if _words(text).split()[:2] == ["game", "import"]:
            if person is None:
                return Answer(line, Result.refused(no_name(), kind="name"))
            return Answer(line, await self._import(text, person))
        if person is None and self._kind(text) not in _READ_ONLY:
            return Answer(line, Result.refused(no_name(), kind="name"))
        result = await self.service.handle(self.channel, person or "", text)
        files: list[str] = []
        if result.ok and result.kind == "export" and result.data is not None:
            files.append(self._write_export(result.data))
        files.extend(self._write_image(image) for image in result.images)
        return Answer(line, result, files)

    # --- blocks of orders: one batch (service/batch.py) -------------------------------------
    def _open_block(self, line: str, name: str | None) -> Answer | None:
        if name is not None:
            self.speaker = self._person(name)
        if self.speaker is None:
            return Answer(line, Result.refused(no_name(), kind="name"))
        self.block = Block(line, self.speaker)
        return None

    async def _in_block(self, line: str) -> Answer | None:
        assert self.block is not None
        if _words(line) != bt.END:
            self.block.lines.append(line)
            return None
        block, self.block = self.block, None
        batch = await bt.run_batch(self.service, self.channel, block.person, "\n".join(block.lines))
        result = batch.as_result()
        files = [self._write_image(image) for image in result.images]
        return Answer(block.opening, result, files)

    def close(self) -> Answer | None:
        """At the end of the input: an open block is refused whole (nothing of it applied)."""
        if self.block is None:
            return None
        block, self.block = self.block, None
        n = sum(1 for x in block.lines if x.strip() and not x.lstrip().startswith("#"))
        why = (
            f"The block of orders begun with {block.opening.strip()!r} was not closed with "
            f"'{bt.END}'; "
            + ("its order line was not applied." if n == 1 else
               f"none of its {n} order lines was applied.")
        )
        return Answer(block.opening, Result.refused(why, kind="batch"))

    async def _import(self, text: str, person: str) -> Result:
        """``game import <file.json> [unverified]``: a file from ``game export`` becomes this
        table's game, owned by ``person`` (every check: ``service.transfer``)."""
        rest = text.split(None, 2)[2].strip() if len(text.split(None, 2)) > 2 else ""
        last = rest.rsplit(None, 1)
        unverified = len(last) == 2 and last[1].casefold() == UNVERIFIED
        name = last[0] if unverified else rest
        if not name:
            why = f"Name the file: 'game import <file.json> [{UNVERIFIED}]'."
            return Result.refused(why, kind="import")
        try:
            with Path(name).expanduser().open("rb") as f:
                raw = f.read(transfer.MAX_BYTES + 1)
        except OSError as e:
            return Result.refused(f"Cannot read {name}: {e.strerror or e}.", kind="import")
        return await self.service.import_game(
            raw, channel=self.channel, owner=person, unverified=unverified
        )

    def _kind(self, text: str) -> str | None:
        try:
            return ps.parse(text, ps.Names()).kind
        except RulesError:
            return None

    def _write_image(self, image: RenderedImage) -> str:
        """Maps go to ``<out>/maps/``, battle boards to ``<out>/battles/``."""
        folder = self.out_dir / ("maps" if image.kind == "map" else "battles")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / image.name
        path.write_bytes(image.png)
        return str(path)

    def _write_export(self, doc: dict[str, Any]) -> str:
        folder = self.out_dir / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"game-{doc['game']['id']}-{len(doc['events'])}.json"
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return str(path)


@dataclass
class Block:
    """An ``orders`` block being read: its opening line, its speaker, its lines so far."""

    opening: str
    person: str
    lines: list[str] = field(default_factory=list)


def _words(text: str) -> str:
    """``"  End   Orders "`` → ``"end orders"``: block lines are matched case-insensitively."""
    return " ".join(text.casefold().split())


# --------------------------------------------------------------------------------------------
# Running


def _lines_from(stream: TextIO) -> Iterator[str]:
    """Lines as soon as each is complete (no read-ahead), so a program can converse."""
    while True:
        line = stream.readline()
        if not line:
            return
        yield line


def _interactive_lines(table: Table, stdin: TextIO, stdout: TextIO) -> Iterator[str]:
    tty = stdin.isatty()
    if tty:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history for input()
    while True:
        if tty:
            try:
                prompt = f"{table.speaker or ''} orders" if table.block else table.speaker or ""
                line = input(f"{prompt}> ")
            except EOFError:
                stdout.write("\n")
                return
            except KeyboardInterrupt:
                stdout.write("\n")
                return
        else:
            line = stdin.readline()
            if not line:
                return
        if line.strip().casefold() in _QUIT:
            return
        yield line


# Serves the table's games on web pages while the table runs (``--web``; ``bot.py`` gives it:
# the table may not import the web front end): entered with the table's service, it yields
# the line that says where the pages are.
# ``say`` prints a line at the table (the orders given on a page, so the table sees them).
WebBeside = Callable[[GameService, argparse.Namespace, Callable[[str], None]],
                     AbstractAsyncContextManager[str]]


async def run_table(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    out_dir: Path | None = None,
    *,
    web: WebBeside | None = None,
) -> int:
    """Run the table with parsed arguments; returns the exit code."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        dice = parse_dice(args.dice) if args.dice is not None else None
        position = load_position(args.position) if args.position else None
        script: TextIO | None = None
        if args.script and args.script != "-":
            try:
                script = open(args.script, encoding="utf-8-sig")  # noqa: SIM115 - closed below
            except OSError as e:
                raise UsageError(f"--script {args.script}: cannot read it ({e.strerror}).") from e
    except UsageError as e:
        stderr.write(f"error: {e}\n")
        return EXIT_USAGE
    folder = out_dir or (Path(args.out) if args.out else _default_out())
    # The local table is a front end that may script the dice (--dice); Discord never does.
    service = GameService(scripted_dice=dice, allow_scripted_dice=True,
                          images=not getattr(args, "no_images", False))
    store: SqlStore | None = None
    url = sqlite_url(args.db) if getattr(args, "db", None) else getattr(args, "db_url", None)
    if url:
        try:
            store = await SqlStore.open(url)
        except Exception as e:  # unreachable server, unwritable file, bad URL
            stderr.write(f"error: cannot open the database ({type(e).__name__}: {e})\n")
            return EXIT_USAGE
        service.store = store
    table = Table(service, folder)
    try:
        if not getattr(args, "web", False):
            return await _run(args, table, position, script, stdin, stdout, stderr)
        if web is None:
            stderr.write("error: --web needs the bot's entry point: python bot.py --local --web\n")
            return EXIT_USAGE
        try:
            def say(text: str) -> None:
                if not args.json:
                    stdout.write(text + "\n")
                    stdout.flush()

            async with web(service, args, say) as where:
                stdout.write(where + "\n")
                stdout.flush()
                code = await _run(args, table, position, script, stdin, stdout, stderr,
                                  threaded=True)
                if script is not None and not args.json:
                    stdout.write("The script is done; the web pages stay up until Ctrl-C.\n")
                    stdout.flush()
                    await asyncio.Event().wait()
                return code
        except OSError as e:  # the port is taken, say
            stderr.write(f"error: the web pages cannot start: {e}\n")
            return EXIT_USAGE
    finally:
        if store is not None:
            await store.close()


async def _run(
    args: argparse.Namespace,
    table: Table,
    position: dict[str, Any] | None,
    script: TextIO | None,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    threaded: bool = False,
) -> int:
    """``threaded``: read each line in a thread, so the event loop serves the web pages while
    the table waits for input."""
    if isinstance(table.service.store, SqlStore) and not args.json and stdin.isatty():
        game = await table.service.game_in(table.channel)
        if game is not None and game.status not in ("finished", "cancelled") and position is None:
            stdout.write(f"Continuing game {game.id} ({game.status}) from the database.\n")

    def emit(answer: Answer) -> None:
        if args.json:
            stdout.write(json.dumps(answer.to_json(), ensure_ascii=False) + "\n")
        else:
            stdout.write(answer.to_text() + "\n")
        stdout.flush()

    try:
        if position is not None:
            try:
                started = await table.seat_position(position, args.edition)
            except UsageError as e:
                stderr.write(f"error: {e}\n")
                return EXIT_USAGE
            if not args.json:
                stdout.write(started.answer + "\n")
                stdout.flush()
        if script is not None:
            lines: Iterator[str] = _lines_from(script)
        elif args.script == "-":
            lines = _lines_from(stdin)
        else:
            if not args.json and stdin.isatty():
                stdout.write(
                    "Umpire local table. Lines are '<name>: <order>'; 'help' lists the "
                    "orders; 'quit' or Ctrl-D ends.\n"
                )
            lines = _interactive_lines(table, stdin, stdout)
        in_script = args.script is not None
        refused = False
        async for raw in _each(lines, threaded):
            answer = await table.answer(raw)
            if answer is None:
                continue
            emit(answer)
            if not answer.result.ok and in_script:
                refused = True
                if not args.keep_going:
                    return EXIT_REFUSED
        unclosed = table.close()
        if unclosed is not None:
            emit(unclosed)
            refused = refused or in_script
        return EXIT_REFUSED if refused else EXIT_OK
    finally:
        if script is not None:
            script.close()


async def _each(lines: Iterator[str], threaded: bool) -> AsyncIterator[str]:
    """The lines; read in a thread when ``threaded`` (a blocking read would stop the loop)."""
    while True:
        line = await asyncio.to_thread(next, lines, None) if threaded else next(lines, None)
        if line is None:
            return
        yield line


def _default_out() -> Path:
    try:
        from settings import Settings

        return Path(Settings().umpire_data_dir)
    except Exception:  # settings are optional for the table: a bad .env must not stop it
        return Path("data")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python bot.py --local", description="Umpire's local terminal table."
    )
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m local.table [flags]``: the table without the bot entry point."""
    args = build_parser().parse_args(argv)
    return asyncio.run(run_table(args))


if __name__ == "__main__":
    sys.exit(main())
