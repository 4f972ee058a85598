"""Text that storage cannot hold is refused before anything is written (issue 12, item 7).

``buy 1 infantry`` followed by a NUL byte was accepted and then crashed PostgreSQL's insert
(``invalid byte sequence for encoding "UTF8": 0x00``). Every text is now checked at the entry
points (the parser, ``service.guard``) and once more in front of every SQL statement
(``db.engine``); on SQLite, PostgreSQL, the memory store and through the local table.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from db.models import EVENT, ORDER, SEAT
from db.repo import SqlStore
from local.table import Table
from service import commands
from service.games import GameService, ServiceError
from service.store import MemoryStore, NotifyPrefRecord, UnstorableText
from service.waits import set_notify
from tests.db.conftest import BACKENDS, channel, seated_game

DB = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)

NUL_ORDER = "The order contains a control character (NUL); type it again without it."


async def _counts(store: SqlStore, game: str) -> tuple[int, int]:
    async with store.engine.connect() as conn:
        events = await conn.scalar(
            sa.select(sa.func.count()).select_from(EVENT).where(EVENT.c.game_id == game)
        )
        orders = await conn.scalar(
            sa.select(sa.func.count()).select_from(ORDER).where(ORDER.c.game_id == game)
        )
    return int(events or 0), int(orders or 0)


@DB
async def test_a_nul_in_an_order_is_refused_and_nothing_is_written(store: SqlStore) -> None:
    svc = GameService(store, draw_secret=lambda: b"k" * 32)
    chan = channel()
    game = await seated_game(svc, chan)
    before = await _counts(store, game)
    for line in ("buy 1 infantry\x00", "buy 1 infantry\x00\x00", "\x00buy 1 infantry"):
        r = await commands.handle(svc, chan, "bob", line)
        assert not r.ok and r.error is not None and r.error.startswith(NUL_ORDER), r.error
    # The slash path gives the text with an already parsed order.
    r = await svc.submit(game, "bob", "buy 1 infantry\x00")
    assert not r.ok and r.error and r.error.startswith(NUL_ORDER)
    r = await commands.handle(svc, chan, "bob", "buy 1 infantry\x1b[31m")
    assert not r.ok and "control character (ESC)" in (r.error or "")
    assert await _counts(store, game) == before
    r = await commands.handle(svc, chan, "bob", "buy 1 infantry")  # the game goes on
    assert r.ok, r.error


@DB
async def test_an_order_line_of_a_megabyte_is_refused_plainly(store: SqlStore) -> None:
    svc = GameService(store, draw_secret=lambda: b"k" * 32)
    chan = channel()
    game = await seated_game(svc, chan)
    before = await _counts(store, game)
    huge = "buy 1 infantry " + "x" * (1 << 20)
    r = await commands.handle(svc, chan, "bob", huge)
    assert not r.ok and "too long" in (r.error or "") and "at most 2000" in (r.error or "")
    r = await svc.submit(game, "bob", huge)
    assert not r.ok and "1,048,591 characters long; the most is 2,000" in (r.error or "")
    assert await _counts(store, game) == before


@DB
async def test_names_phrases_and_channels_with_a_nul_are_refused(store: SqlStore) -> None:
    svc = GameService(store, draw_secret=lambda: b"k" * 32)
    chan = channel()
    with pytest.raises(ServiceError, match=r"The channel name contains a control character"):
        await svc.create(chan + "\x00", "alice", "1941")
    with pytest.raises(ServiceError, match=r"The name contains a control character \(NUL\)"):
        await svc.create(chan, "al\x00ice", "1941")
    assert await store.games_in_channel(chan) == []
    info = await svc.create(chan, "alice", "1941")
    r = await svc.join(info.id, "alice", "Germany", "my\x00phrase")
    assert not r.ok
    assert r.error == (
        "The entropy phrase contains a control character (NUL); type it again without it. "
        "Nothing was changed."
    )
    r = await svc.join(info.id, "alice", "Germany", "\ud800")
    assert not r.ok and "half of a surrogate pair (U+D800)" in (r.error or "")
    r = await svc.join(info.id, "alice", "Germany", "p" * 5000)
    assert not r.ok and "5,000 characters long; the most is 2,000" in (r.error or "")
    async with store.engine.connect() as conn:
        seats = await conn.scalar(
            sa.select(sa.func.count()).select_from(SEAT).where(SEAT.c.game_id == info.id)
        )
    assert seats == 0
    r = await svc.join(info.id, "alice", "Germany", "a phrase\twith a tab")
    assert r.ok, r.error
    with pytest.raises(ValueError, match="time zone"):
        await set_notify(svc, "alice", how="dm", tz="Europe/Paris\x00")


@DB
async def test_edit_proposals_and_batches_refuse_a_nul(store: SqlStore) -> None:
    svc = GameService(store, draw_secret=lambda: b"k" * 32)
    chan = channel()
    game = await seated_game(svc, chan)
    before = await _counts(store, game)
    r = await commands.handle(svc, chan, "alice", "edit give Germany 5 ipcs\x00")
    assert not r.ok and (r.error or "").startswith(NUL_ORDER)
    from service.batch import run_batch

    b = await run_batch(svc, chan, "bob", "buy 1 infantry\nbuy 1 tank\x00\n")
    bad = b.refused
    assert bad is not None and bad.result is not None
    assert (bad.result.error or "").startswith(NUL_ORDER)
    assert (await _counts(store, game))[0] == before[0] + 1  # the first line only
    assert await store.edit_proposals(game) == []


@DB
async def test_the_store_refuses_what_slips_past_the_service(store: SqlStore) -> None:
    """The last gate: a statement with a NUL is refused inside its transaction."""
    svc = GameService(store, draw_secret=lambda: b"k" * 32)
    game = await seated_game(svc, channel())
    before = await _counts(store, game)
    with pytest.raises(UnstorableText, match=r"control character \(NUL\)"):
        await store.append(game, before[0], [], person="bob", power="", text="x\x00")
    with pytest.raises(UnstorableText):
        await store.set_notify_pref(
            NotifyPrefRecord("bob\x00", "", "dm", None, None, "UTC")
        )
    assert await _counts(store, game) == before
    assert await store.notify_prefs(["bob"]) == []


@DB
async def test_the_local_table_refuses_a_nul_and_goes_on(store: SqlStore, tmp_path: Path) -> None:
    table = Table(GameService(store, draw_secret=lambda: b"k" * 32), tmp_path, channel())
    lines = [
        "alice: game new 1941", "alice: game join Germany", "game join Japan",
        "bob: game join Soviet Union", "game join United Kingdom", "game join United States",
        "alice: game start", "bob: buy 1 infantry\x00", "bob: buy 1 infantry",
    ]
    got = [await table.answer(x) for x in lines]
    nul, last = got[-2], got[-1]
    assert nul is not None and last is not None
    assert not nul.result.ok and (nul.result.error or "").startswith(NUL_ORDER)
    assert last.result.ok, last.result.error


async def test_memory_store_games_refuse_the_same() -> None:
    svc = GameService(MemoryStore())
    info = await svc.create("c", "alice", "1941")
    r = await svc.join(info.id, "alice", "Germany", "x\x00")
    assert not r.ok and "(NUL)" in (r.error or "")
    assert (await svc.store.get_game(info.id)).seats == {}
