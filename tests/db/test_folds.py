"""One fold per order (issue 15, deliverable 6).

An accepted order folds each stored event of its game at most once: the service loads the game
once (from its cache, by replaying the log, or from a snapshot and its tail), decides the order
once (its events folded as they are decided), appends, and answers, caches and hands the state
on from that fold. Counted on the real code path by wrapping the fold wherever it is referenced
(``tests/folds.py``), for orders that move, fight a battle with fair dice, end phases and end a
round (the dice epilogue), on the memory store and the SQL stores, by a service that has the
game cached and by a fresh one (a restart, or a second process). The Discord path is in
``tests/cogs/test_folds.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from db.repo import SqlStore
from rules.engine import replay
from service.games import GameService
from service.store import EventStore, MemoryStore
from tests.db.conftest import BACKENDS, channel
from tests.fair_game import ALLIES, AXIS, POSITION, SECRET
from tests.folds import FoldCounter, LoadCounter

# Germany attacks Ukraine with fair dice and ends its turn's phases (the last passes the turn).
LINES = [
    ("alice", "move 2 infantry, 1 tank from Eastern Europe to Ukraine"),
    ("alice", "end"),
    ("alice", "battle Ukraine all"),
    ("alice", "end"),
    ("alice", "end confirm"),
    ("alice", "end"),
]
# The last power's last phase: its 'end' starts round 2 and reveals round 1's dice seed.
LAST: dict[str, Any] = {"edition": "1941", "round": 1, "power": "United States",
                        "phase": "mobilize"}


async def seated(svc: GameService, position: dict[str, Any]) -> str:
    info = await svc.create(channel(), "alice", "1941", position=position)
    for p in AXIS:
        assert (await svc.join(info.id, "alice", p)).ok
    for p in ALLIES:
        assert (await svc.join(info.id, "bob", p)).ok
    assert (await svc.start(info.id, "alice")).ok
    return info.id


async def orders_fold_once(
    store: EventStore, monkeypatch: pytest.MonkeyPatch, *, fresh: bool
) -> None:
    """Play ``LINES`` and ``LAST``'s end; each order folds each stored event at most once and
    loads the game once. ``fresh``: every order by a new service (nothing cached)."""
    def service() -> GameService:
        return GameService(store, draw_secret=lambda: SECRET)

    svc = service()
    folds = FoldCounter(monkeypatch)
    loads = LoadCounter(monkeypatch, store)
    games = [(await seated(svc, POSITION), LINES),
             (await seated(svc, LAST), [("bob", "end confirm")])]
    for game, lines in games:
        for who, line in lines:
            if fresh:
                svc = service()
            folds.reset()
            loads.reset()
            r = await svc.submit(game, who, line)
            assert r.ok, (line, r.error)
            assert r.events, line
            assert loads.count == 1, (line, loads.count)
            log = await loads.real(game)
            assert folds.most(log) == 1, (line, folds.per_event(log))
            # What the answer hands on is the stored game's state and head.
            assert r.after == replay([s.event for s in log])
            assert r.head == (len(log), log[-1].hash)
    assert (await svc.state(games[1][0])).round == 2


@pytest.mark.parametrize("fresh", [False, True], ids=["cached", "fresh"])
async def test_an_order_folds_each_event_once_memory(
    monkeypatch: pytest.MonkeyPatch, fresh: bool
) -> None:
    await orders_fold_once(MemoryStore(), monkeypatch, fresh=fresh)


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
@pytest.mark.parametrize("fresh", [False, True], ids=["cached", "fresh"])
async def test_an_order_folds_each_event_once_sql(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch, fresh: bool
) -> None:
    await orders_fold_once(store, monkeypatch, fresh=fresh)
