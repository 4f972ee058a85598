"""Reminders with a frozen clock: before the deadline, at it, each claimed once; deadlines live
in the store (a restarted bot keeps them; two bots on one database send each reminder once)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cogs._bot import UmpireBot
from cogs.reminders import RemindersCog
from db.engine import sqlite_url
from db.repo import open_store
from service.games import GameService
from tests.cogs.conftest import SECRET, Table, answer, end, public, seated


def pinged(t: Table, msg: Any) -> tuple[list[int], list[int]]:
    """Whom a posted message notified, and whom its ``allowed_mentions`` let it notify."""
    stored = t.env.backend.get_message(msg.channel.id, msg.id)
    users = stored.allowed_mentions.users
    return list(stored.ping_user_ids), sorted(users) if users is not None else [-1]


def reminders(t: Table) -> RemindersCog:
    cog = t.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)
    return cog


async def test_reminders_fire_before_and_at_the_deadline_once(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.alice.slash(t.channel, "admin deadline", hours=24.0)
    assert public(r)
    cog = reminders(t)
    assert await cog.tick() == 0  # 24 hours to go
    t.clock.advance(hours=22, minutes=30)
    assert await cog.tick() == 1
    msg = t.channel.last_message
    assert "Reminder" in msg.content and f"<@{t.bob.id}>" in msg.content  # Soviet Union's turn
    assert await cog.tick() == 0  # claimed: never twice
    t.clock.advance(hours=2)
    assert await cog.tick() == 1
    assert "has passed" in t.channel.last_message.content
    assert await cog.tick() == 0


async def test_another_process_claimed_it_first(table: Table) -> None:
    t = table
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    cog = reminders(t)
    (d,) = await t.service.store.deadlines()
    assert await t.service.store.claim_reminder(d.game_id, "before", d.due_at, "other-process")
    assert await cog.tick() == 0  # the other process claimed it first


async def test_paused_games_get_no_reminders(table: Table) -> None:
    t = table
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    await t.alice.slash(t.channel, "admin pause")
    t.clock.advance(hours=2)
    assert await reminders(t).tick() == 0
    await t.alice.slash(t.channel, "admin resume")  # the deadline moved 2 hours later
    assert await reminders(t).tick() == 1
    assert "Reminder" in t.channel.last_message.content


async def test_a_per_wait_deadline_rearms_when_a_new_wait_begins(table: Table) -> None:
    t = table
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=10.0, every_turn=True)
    (d,) = await t.service.store.deadlines()
    first = d.due_at
    t.clock.advance(hours=5)
    for _ in range(6):  # the Soviet Union ends its phases: Germany's turn begins
        await end(t, t.bob)
    after = await t.service.deadline(d.game_id)
    assert after is not None and after.due_at > first


async def test_two_bots_on_one_database_send_once_and_a_restart_keeps_it(
    table: Table, tmp_path: Path
) -> None:
    t = table
    url = sqlite_url(tmp_path / "shared.sqlite3")
    store = await open_store(url)
    t.bot.service.store = store
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    other_store = await open_store(url)  # a second bot process, started after the first
    other = UmpireBot(
        GameService(other_store, draw_secret=lambda: SECRET),
        sync=False,
        clock=t.clock,
        reminders=False,
        process_id="second",
    )
    try:
        cog2 = RemindersCog(other, start=False)
        assert len(await cog2.deadlines()) == 1  # the deadline is in the database
        t.clock.advance(hours=2)
        sent = await reminders(t).tick() + await cog2.tick()
        sent += await reminders(t).tick() + await cog2.tick()
        assert sent == 1
    finally:
        await store.close()
        await other_store.close()


async def test_dm_reminders_for_those_who_ask(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "game notify", how="both")
    assert public(r) is None and "direct message" in answer(r)
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    cog = reminders(t)
    assert await cog.tick() == 1  # within 2 hours: the early reminder
    msg = t.channel.last_message
    assert "last one the game waits for" in msg.content  # the channel mention is still sent
    assert pinged(t, msg) == ([t.bob.id], [t.bob.id])
    dm = t.bob.user.dm_channel.last_message
    assert dm is not None and "last one" in dm.content and dm.author.id == t.bot.user.id
    assert [i for i, _ in cog.dms] == [t.bob.id]  # alice did not ask
    r = await t.bob.slash(t.channel, "game notify", how="channel")
    assert public(r) is None
    t.clock.advance(hours=2)
    assert await cog.tick() == 1
    assert "has passed" in t.channel.last_message.content
    assert len(cog.dms) == 1  # bob stopped the DMs
