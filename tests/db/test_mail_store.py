"""The store's part of play by e-mail (issue 17): a mail handled once however many pollers see
it, the rate limit's count, seat offers taken once, report cursors moved by compare-and-set, and
secrets kept once; on SQLite and PostgreSQL with two stores (two processes) on one database,
and the same in memory."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

import pytest

from db.engine import create_engine
from db.records import DiceSpec, GameNotFound, MailOffer, StoreError, UnstorableText
from db.repo import SqlStore
from service.store import EventStore, MemoryStore
from tests.db.conftest import BACKENDS, channel

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def _game(store: EventStore) -> str:
    rec = await store.create_game(
        edition="1941", options=(), channel=channel(), owner="alice", dice=DiceSpec("scripted")
    )
    return rec.id


def _unique(name: str) -> str:
    """A name no other test uses (the PostgreSQL database is shared by the session)."""
    return f"{name}-{uuid.uuid4().hex[:10]}"


async def _mail_once(store: EventStore, other: EventStore) -> None:
    game = await _game(store)
    key = f"<{_unique('order')}@mail.example>"
    tries = [s.mail_seen(key, "bob@example.org", game, T0) for _ in range(6) for s in (store, other)]
    assert sum(await asyncio.gather(*tries)) == 1
    assert not await other.mail_seen(key, "bob@example.org", game, T0 + timedelta(days=3))
    # A Message-ID too long or too strange to keep as it is is kept as its hash, still once.
    long = f"<{_unique('x' * 400)}@mail.example>"
    assert await store.mail_seen(long, "bob@example.org", "", T0)
    assert not await other.mail_seen(long, "bob@example.org", "", T0)
    odd = f"<{_unique('dé')}\x00@mail.example>"
    assert await store.mail_seen(odd, "bob@example.org", "", T0)
    assert not await other.mail_seen(odd, "bob@example.org", "", T0)
    with pytest.raises(UnstorableText):
        await store.mail_seen(_unique("k"), "bob\x00@example.org", "", T0)
    # A mail whose handling failed before it acted is forgotten: its redelivery is new, once.
    await other.mail_forget(key)
    again = [s.mail_seen(key, "bob@example.org", game, T0) for s in (store, other)]
    assert sum(await asyncio.gather(*again)) == 1
    await store.mail_forget(long)
    assert await other.mail_seen(long, "bob@example.org", "", T0)


async def _rate(store: EventStore, other: EventStore) -> None:
    ann, cid = _unique("ann") + "@example.org", _unique("cid") + "@example.org"
    for minutes in (0, 10, 20, 30):
        assert await store.mail_seen(_unique("m"), ann, "", T0 + timedelta(minutes=minutes))
    assert await other.mail_seen(_unique("m"), cid, "", T0 + timedelta(minutes=25))
    assert await other.mail_received_since(ann, T0 + timedelta(minutes=10)) == 3  # at or after
    assert await other.mail_received_since(ann, T0 + timedelta(minutes=11)) == 2
    assert await store.mail_received_since(ann, T0 + timedelta(hours=1)) == 0
    assert await store.mail_received_since(cid, T0) == 1
    assert await store.mail_received_since(_unique("nobody"), T0) == 0


async def _offers(store: EventStore, other: EventStore) -> None:
    game, second = await _game(store), await _game(store)
    a = MailOffer(_unique("c1"), game, "Germany", "ann@example.org", T0)
    b = MailOffer(_unique("c2"), game, "Japan", "ann@example.org", T0 + timedelta(minutes=1))
    c = MailOffer(_unique("c3"), second, "Germany", "ann@example.org", T0)
    for o in (b, a, c):
        await store.mail_offer(o)
    assert await other.mail_offers(game) == [a, b]  # oldest first
    again = MailOffer(_unique("c4"), game, "Germany", "ann@example.org", T0 + timedelta(hours=1))
    await other.mail_offer(again)  # the seat offered anew to that address: the old code is void
    assert await store.mail_offers(game) == [b, again]
    assert await store.mail_take_offer(a.code) is None
    with pytest.raises(StoreError):  # a code in use for another seat
        await store.mail_offer(MailOffer(b.code, game, "Italy", "cid@example.org", T0))
    with pytest.raises(GameNotFound):
        await store.mail_offer(MailOffer(_unique("c5"), "no-such-game", "Germany", "x@y", T0))
    takes = [s.mail_take_offer(b.code) for _ in range(4) for s in (store, other)]
    got = [o for o in await asyncio.gather(*takes) if o is not None]
    assert got == [b]  # of racing replies exactly one gets the offer
    assert await other.mail_offers(game) == [again]
    assert await other.mail_offers(second) == [c]


async def _cursor(store: EventStore, other: EventStore) -> None:
    game = await _game(store)
    assert await other.report_cursor(game, "mail") == 0
    first = [s.advance_report(game, "mail", 0, 5 + i) for i, s in enumerate((store, other) * 3)]
    won = await asyncio.gather(*first)
    assert sum(won) == 1  # the first row: one insert wins
    now = 5 + won.index(True)
    assert await store.report_cursor(game, "mail") == now
    assert await other.report_cursor(game, "discord") == 0  # each reader has its own
    moves = [s.advance_report(game, "mail", now, 20 + i) for i, s in enumerate((store, other) * 3)]
    won = await asyncio.gather(*moves)
    assert sum(won) == 1
    now = 20 + won.index(True)
    assert await other.report_cursor(game, "mail") == now
    assert not await store.advance_report(game, "mail", 0, 1)  # stale: nothing changes
    assert await store.advance_report(game, "mail", now, 3)  # back: an undo
    assert await other.advance_report(game, "mail", 3, 0)
    assert await store.advance_report(game, "mail", 0, 2)  # from 0 again, the row there
    assert await other.report_cursor(game, "mail") == 2
    with pytest.raises(GameNotFound):
        await store.advance_report("no-such-game", "mail", 0, 1)


async def _secret(store: EventStore, other: EventStore) -> None:
    game = await _game(store)
    tries = [s.secret_once(game, "mail-token", bytes([i]) * 16)
             for i, s in enumerate((store, other) * 3)]
    got = await asyncio.gather(*tries)
    assert len(set(got)) == 1 and got[0] in {bytes([i]) * 16 for i in range(6)}
    assert await store.get_secret(game, "mail-token") == got[0]
    assert await other.secret_once(game, "mail-token", b"later") == got[0]
    assert await other.secret_once(game, "other", b"fresh") == b"fresh"
    with pytest.raises(GameNotFound):
        await store.secret_once("no-such-game", "mail-token", b"x")


Case = Callable[[EventStore, EventStore], Awaitable[None]]
CASES: list[Case] = [_mail_once, _rate, _offers, _cursor, _secret]


@pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__.strip("_"))
async def test_two_processes_on_one_database(store: SqlStore, db_url: str, case: Case) -> None:
    other = SqlStore(create_engine(db_url))
    try:
        await case(store, other)
    finally:
        await other.close()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.__name__.strip("_"))
async def test_the_same_in_memory(case: Case) -> None:
    store = MemoryStore()
    await case(store, store)
