"""Several lines of the order language at once: a whole Purchase, a whole Combat Move.

``run_batch(service, channel, person, text)`` is the one batch entry of every front end: the
local table's ``orders`` ... ``end orders`` block, Discord's ``/orders`` modal and the e-mail
gateway's message body. The lines are one person's, in one channel (so one game). Blank lines
and ``#`` comments are ignored; every other line is checked and applied in turn, exactly as if
it had been sent alone (``commands.handle``). The first refused line stops the batch: the lines
before it stay applied (each was a complete, legal order), nothing after it is tried, and the
answer says so plainly and lists every line with its result.

A batch too large to be a turn's orders (too many lines, too many characters, one line too
long) is refused whole before any line is applied, so a pasted log or a runaway script changes
nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules.state import GameState
from service import language as ps
from service.core import GameInfo, Result

if TYPE_CHECKING:
    from service.games import GameService
    from service.images import RenderedImage

# Limits, checked before anything is applied. A Combat Move of a big turn is a few dozen moves;
# a Discord modal holds 4000 characters; an e-mail body may be longer but not a book.
MAX_LINES = 100  # order lines (blank lines and comments not counted)
MAX_CHARS = 20_000  # the whole text, comments included
MAX_LINE = ps.MAX_LENGTH  # one line, as for a single order

# The framing of a block where a front end mixes batches with other lines (the local table; an
# e-mail gateway reads the orders between the same two lines).
BEGIN = "orders"
END = "end orders"

Status = Literal["accepted", "refused", "not tried"]


class BatchTooLarge(ValueError):
    """A batch over the limits: refused whole, nothing applied."""


@dataclass(frozen=True)
class LineResult:
    """One order line of a batch and what became of it."""

    number: int  # the line's number in the text given (1 = first line), comments counted
    line: str  # the line as given, trimmed
    status: Status
    result: Result | None = None  # None for a line not tried

    @property
    def ok(self) -> bool:
        return self.status == "accepted"

    def to_json(self) -> dict[str, Any]:
        r = self.result
        out: dict[str, Any] = {
            "number": self.number,
            "line": self.line,
            "status": self.status,
            "ok": self.ok,
            "error": r.error if r is not None else None,
            "events": [ev.event_to_json(e) for e in r.events] if r is not None else [],
        }
        if r is not None and r.answer:
            out["answer"] = r.answer
        return out


@dataclass(frozen=True)
class BatchResult:
    """The answer to a batch: every order line with its result, in order."""

    lines: tuple[LineResult, ...] = ()
    error: str | None = None  # the batch was refused whole (limits, empty): nothing applied
    game: GameInfo | None = None  # the game after the last line tried
    images: tuple[RenderedImage, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """Every line accepted (and there was at least one)."""
        return self.error is None and all(line.ok for line in self.lines)

    @property
    def accepted(self) -> tuple[LineResult, ...]:
        return tuple(line for line in self.lines if line.status == "accepted")

    @property
    def refused(self) -> LineResult | None:
        return next((line for line in self.lines if line.status == "refused"), None)

    @property
    def not_tried(self) -> tuple[LineResult, ...]:
        return tuple(line for line in self.lines if line.status == "not tried")

    @property
    def events(self) -> tuple[ev.Event, ...]:
        return tuple(e for line in self.accepted if line.result for e in line.result.events)

    @property
    def after(self) -> GameState | None:
        """The game's state after the last accepted line that changed it (``Result.after``)."""
        return next((line.result.after for line in reversed(self.accepted)
                     if line.result is not None and line.result.after is not None), None)

    @property
    def head(self) -> tuple[int, str] | None:
        """The log's head after the last accepted line that changed it (``Result.head``)."""
        return next((line.result.head for line in reversed(self.accepted)
                     if line.result is not None and line.result.head is not None), None)

    def summary(self) -> str:
        """One sentence: how many lines were applied, and where it stopped."""
        if self.error is not None:
            return f"{self.error} Nothing was applied."
        n = len(self.lines)
        bad = self.refused
        if bad is None:
            return f"All {_lines(n)} accepted, in order."
        head = f"{len(self.accepted)} of {_lines(n)} applied; line {bad.number} was refused"
        rest = len(self.not_tried)
        if rest:
            return (
                f"{head}, so the batch stopped there: nothing after line {bad.number} was "
                f"applied ({_lines(rest)} not tried). Fix line {bad.number} and send it and "
                "the lines after it again."
            )
        return f"{head} (the last line). Fix it and send it again."

    def text(self, *, lines: Sequence[LineResult] | None = None) -> str:
        """Every line with its result (or only ``lines``), then the summary."""
        out: list[str] = []
        for line in self.lines if lines is None else lines:
            out.append(line_text(line))
        out.append(self.summary())
        return "\n".join(out)

    def as_result(self) -> Result:
        """The batch as one ``Result`` (kind ``"batch"``): front ends that show one answer per
        request (the table's JSON) carry the lines in ``data["lines"]``."""
        data = {
            "lines": [line.to_json() for line in self.lines],
            "accepted": len(self.accepted),
            "refused": self.refused.number if self.refused else None,
            "not_tried": len(self.not_tried),
        }
        if self.ok:
            return Result(ok=True, answer=self.text(), events=self.events, data=data,
                          game=self.game, kind="batch", images=self.images, after=self.after,
                          head=self.head)
        return Result(ok=False, answer=self.text() if self.lines else "",
                      error=self._error(), events=self.events, data=data, game=self.game,
                      kind="batch", images=self.images, after=self.after, head=self.head)

    def _error(self) -> str:
        bad = self.refused
        if self.error is not None or bad is None or bad.result is None:
            return self.summary()
        return f"Line {bad.number} ({bad.line}) refused: {bad.result.error} {self.summary()}"


# Answers meant for the person alone (a private link): never in a public record of a batch.
PRIVATE_KINDS = frozenset({"game_link"})


def line_text(line: LineResult, *, public: bool = False) -> str:
    """``3. move ... -> accepted: <answer>`` (answers of several lines indented). ``public``:
    for a record others see, so an answer for the person alone is not shown."""
    r = line.result
    if line.status == "not tried" or r is None:
        return f"{line.number}. {line.line}\n   not tried"
    if line.status == "refused":
        said = r.error or "refused"
        return f"{line.number}. {line.line}\n   REFUSED: {said}"
    said = r.answer or "OK."
    if public and r.kind in PRIVATE_KINDS:
        said = "answered privately"
    return f"{line.number}. {line.line}\n   " + "\n   ".join(said.splitlines())


def order_lines(text: str) -> list[tuple[int, str]]:
    """The order lines of ``text``, numbered as given: blank lines and ``#`` comments dropped.

    Raises ``BatchTooLarge`` for a text over the limits (checked before any line is read)."""
    if len(text) > MAX_CHARS:
        raise BatchTooLarge(
            f"Too much at once: {len(text):,} characters, at most {MAX_CHARS:,}. Send the "
            "orders of one phase at a time."
        )
    found: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise BatchTooLarge(
                f"Line {number} is too long ({len(line):,} characters, at most {MAX_LINE:,}); "
                "put one order on each line."
            )
        found.append((number, line))
        if len(found) > MAX_LINES:
            raise BatchTooLarge(
                f"Too many orders at once: more than {MAX_LINES}. Send the orders of one phase "
                "at a time."
            )
    return found


async def run_batch(service: GameService, channel: str, person: str, text: str) -> BatchResult:
    """Check and apply the order lines of ``text`` for ``person`` in ``channel``, in turn,
    stopping at the first refused line (see the module's docstring)."""
    from service import commands

    game = await service.game_in(channel)
    try:
        lines = order_lines(text)
    except BatchTooLarge as e:
        return BatchResult(error=str(e), game=game)
    if not lines:
        return BatchResult(
            error="No orders given: put one order on each line, e.g. 'buy 3 infantry'.",
            game=game,
        )
    done: list[LineResult] = []
    images: list[RenderedImage] = []
    for i, (number, line) in enumerate(lines):
        result = await commands.handle(service, channel, person, line)
        game = result.game or game
        if not result.ok:
            done.append(LineResult(number, line, "refused", result))
            done.extend(LineResult(n, rest, "not tried") for n, rest in lines[i + 1 :])
            break
        done.append(LineResult(number, line, "accepted", result))
        images.extend(result.images)
    return BatchResult(tuple(done), game=game, images=tuple(images))


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"
