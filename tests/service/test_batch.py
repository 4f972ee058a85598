"""The batch entry (service/batch.py): several order lines checked and applied in turn, the
first refused line stopping the batch, limits refused before anything is applied. On the
memory store and on a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.engine import sqlite_url
from db.repo import SqlStore
from service import batch as bt
from service.games import GameService
from service.store import MemoryStore

AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")
CHAN = "chan"

# The Soviet Union's Purchase and Combat Move of round 1 (docs/local-table.md), with a comment
# and blank lines in between.
TURN = """\
# Soviet purchase
buy 2 infantry

end
move 3 infantry from Karelia to West Russia
move 2 infantry, 1 tank from Russia to West Russia
"""


@pytest.fixture(params=["memory", "sqlite"])
async def svc(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameService]:
    service = GameService(images=False)
    store: SqlStore | None = None
    if request.param == "sqlite":
        store = await SqlStore.open(sqlite_url(tmp_path / "batch.sqlite3"))
        service.store = store
    else:
        assert isinstance(service.store, MemoryStore)
    info = await service.create(CHAN, "alice", "1941")
    for p in AXIS:
        assert (await service.join(info.id, "alice", p)).ok
    for p in ALLIES:
        assert (await service.join(info.id, "bob", p)).ok
    assert (await service.start(info.id, "alice")).ok
    yield service
    if store is not None:
        await store.close()


async def n_events(svc: GameService) -> int:
    game = await svc.game_in(CHAN)
    assert game is not None
    return len(await svc.store.load_events(game.id))


async def test_every_line_accepted_in_order(svc: GameService) -> None:
    r = await bt.run_batch(svc, CHAN, "bob", TURN)
    assert r.ok and r.error is None
    assert [(x.number, x.status) for x in r.lines] == [
        (2, "accepted"), (4, "accepted"), (5, "accepted"), (6, "accepted")
    ]
    assert r.lines[0].result is not None
    assert "Soviet Union bought 2 infantry" in (r.lines[0].result.answer or "")
    text = r.text()
    assert text.startswith("2. buy 2 infantry\n   Soviet Union bought 2 infantry")
    assert text.endswith("All 4 lines accepted, in order.")
    state = await svc.state((await svc.game_in(CHAN) or pytest.fail()).id)
    assert state.phase == "combat_move" and state.purchase == {"infantry": 2}
    moved = [u for u in state.units_in("West Russia") if u.owner == "Soviet Union"]
    assert len(moved) == 6  # 3 + 3 from Karelia and Russia
    assert len(r.events) == sum(len(x.result.events) for x in r.lines if x.result)
    res = r.as_result()
    assert res.ok and res.kind == "batch" and res.data is not None
    assert [x["status"] for x in res.data["lines"]] == ["accepted"] * 4


async def test_first_refusal_stops_and_nothing_after_it_is_applied(svc: GameService) -> None:
    before = await n_events(svc)
    text = "buy 2 infantry\nmove 1 infantry from Russia to Ukraine\nbuy 1 tank\nend\n"
    r = await bt.run_batch(svc, CHAN, "bob", text)
    assert not r.ok
    assert [x.status for x in r.lines] == ["accepted", "refused", "not tried", "not tried"]
    bad = r.refused
    assert bad is not None and bad.number == 2 and bad.result is not None
    assert bad.result.error  # why: a move in the Purchase phase
    game = await svc.game_in(CHAN)
    assert game is not None
    state = await svc.state(game.id)
    # Only the first line's purchase: the tank and the 'end' after the refusal were not applied.
    assert state.purchase == {"infantry": 2} and state.phase == "purchase"
    first = r.lines[0].result
    assert first is not None
    assert await n_events(svc) == before + len(first.events)
    summary = r.summary()
    assert "1 of 4 lines applied; line 2 was refused" in summary
    assert "nothing after line 2 was applied (2 lines not tried)" in summary
    text_out = r.text()
    assert "2. move 1 infantry from Russia to Ukraine\n   REFUSED: " in text_out
    assert "3. buy 1 tank\n   not tried" in text_out
    res = r.as_result()
    assert not res.ok and res.error is not None
    assert res.error.startswith("Line 2 (move 1 infantry from Russia to Ukraine) refused: ")
    assert res.data is not None and res.data["refused"] == 2 and res.data["not_tried"] == 2


async def test_a_refused_first_line_applies_nothing(svc: GameService) -> None:
    before = await n_events(svc)
    r = await bt.run_batch(svc, CHAN, "alice", "buy 1 tank\nend")  # not Germany's turn
    assert [x.status for x in r.lines] == ["refused", "not tried"]
    assert await n_events(svc) == before
    assert "0 of 2 lines applied; line 1 was refused" in r.summary()


async def test_a_refused_last_line(svc: GameService) -> None:
    r = await bt.run_batch(svc, CHAN, "bob", "buy 2 infantry\nbuy 2 zeppelins")
    assert [x.status for x in r.lines] == ["accepted", "refused"]
    assert r.summary() == "1 of 2 lines applied; line 2 was refused (the last line). " \
        "Fix it and send it again."


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("buy 1 infantry\n" * (bt.MAX_LINES + 1), f"more than {bt.MAX_LINES}"),
        ("buy 1 infantry\n" + "# " + "x" * bt.MAX_CHARS, "characters, at most 20,000"),
        ("buy 1 infantry\nbuy " + "1 infantry, " * 200, "Line 2 is too long"),
    ],
)
async def test_limits_refuse_the_whole_batch_before_anything(
    svc: GameService, text: str, why: str
) -> None:
    before = await n_events(svc)
    r = await bt.run_batch(svc, CHAN, "bob", text)
    assert not r.ok and r.lines == ()
    assert r.error is not None and why in r.error
    assert r.summary().endswith("Nothing was applied.")
    assert await n_events(svc) == before
    game = await svc.game_in(CHAN)
    assert game is not None
    assert (await svc.state(game.id)).purchase == {}
    res = r.as_result()
    assert not res.ok and res.error is not None and why in res.error


async def test_empty_batch_is_refused(svc: GameService) -> None:
    r = await bt.run_batch(svc, CHAN, "bob", "\n  \n# only a comment\n")
    assert not r.ok and r.error is not None and "No orders given" in r.error


async def test_limits_at_the_edge_are_accepted() -> None:
    lines = bt.order_lines("buy 1 infantry\n" * bt.MAX_LINES)
    assert len(lines) == bt.MAX_LINES
    assert bt.order_lines("# c\n\n  buy 1 tank  \n") == [(3, "buy 1 tank")]


async def test_no_game_in_the_channel(svc: GameService) -> None:
    r = await bt.run_batch(svc, "elsewhere", "bob", "buy 1 tank\nend")
    assert [x.status for x in r.lines] == ["refused", "not tried"]
    assert r.lines[0].result is not None and "game new" in (
        r.lines[0].result.error or ""
    )
