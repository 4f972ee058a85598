"""A game's changes told to a front end that was not there when they were made.

The e-mail gateway tells its players everything that happened in a game since its last
report (orders given in Discord, at the table, by mail, and the referee's deadline actions),
and a Discord channel is told the orders its mail players gave. Both read the stored log from
a *cursor*: how many of the game's events that reader has already told (``report_cursor``),
moved on by compare-and-set (``advance_report``) so that of two processes exactly one tells
each change. ``changes_since`` reads what lies between the cursor and the log's end, order
by order, in the words of the answers (``service.describe``); it writes nothing.

An undo can leave the log shorter than a cursor: the orders taken back were told already, so
``Changes.undone`` says how many events went, and the cursor is moved back to the log's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules import events as ev
from rules.engine import evolve, pending, replay
from rules.state import GameState
from service import describe as ds
from service.core import GameInfo, ServiceCore
from service.store import OrderRecord

MAX_TOLD = 60  # orders told at once; older ones are counted, not told (a first report, say)


@dataclass(frozen=True)
class Told:
    """One accepted order and what it did, in the answers' words."""

    index: int
    person: str
    power: str
    text: str
    lines: tuple[str, ...]
    first_seq: int
    end_seq: int

    @property
    def by_referee(self) -> bool:
        """Given by the referee at a deadline (its text says so), not by a player."""
        return "(by the referee" in self.text


@dataclass(frozen=True)
class Changes:
    """What a reader has not told yet (see the module's docstring)."""

    game: GameInfo
    since: int  # the reader's cursor (events already told)
    seq: int  # the log's length now: the cursor once these are told
    head: str  # the log's chain hash at ``seq``
    told: tuple[Told, ...]
    skipped: int  # orders between the cursor and the first told one, not told (too many)
    undone: int  # events taken back (by undo) since the cursor
    state: GameState | None
    log: tuple[ev.Event, ...]  # the whole log's events (images of the changes need them)
    waiting: str  # "Waiting for: ..." after the changes

    @property
    def new(self) -> int:
        """How many events are new to the reader."""
        return max(0, self.seq - self.since)

    @property
    def empty(self) -> bool:
        return self.new == 0 and not self.undone


def _told(rec: OrderRecord, before: GameState | None, events: Sequence[ev.Event]) -> Told:
    lines = ds.describe_all(before, list(events))
    return Told(rec.index, rec.person, rec.power, rec.text, tuple(lines), rec.first_seq,
                rec.end_seq)


async def changes_since(service: ServiceCore, game_id: str, since: int,
                        *, limit: int = MAX_TOLD) -> Changes:
    """The changes of the game after its first ``since`` events, order by order (``limit``
    orders at most: the last ones). ``GameNotFound``/``CorruptGame`` pass through."""
    loaded = await service._load(game_id)
    info = GameInfo.of(loaded.record)
    events = [s.event for s in loaded.events]
    seq = len(events)
    undone = max(0, since - seq)
    start = min(since, seq)
    orders = [o for o in await service.store.orders(game_id) if o.end_seq > start]
    skipped = max(0, len(orders) - limit)
    orders = orders[skipped:]
    told: list[Told] = []
    if orders:
        first = max(start, orders[0].first_seq)
        state: GameState | None = replay(events[:first]) if first else None
        for rec in orders:
            lo = max(first, rec.first_seq)
            part = events[lo:rec.end_seq]
            told.append(_told(rec, state, part))
            for e in part:
                state = replay([e]) if state is None else evolve(state, e)
    now = loaded.state
    waiting = ds.waiting_line(now, pending(now), loaded.record.seats) if now is not None else ""
    return Changes(info, since, seq, loaded.head, tuple(told), skipped, undone, now,
                   tuple(events), waiting)


__all__ = ["MAX_TOLD", "Changes", "Told", "changes_since"]
