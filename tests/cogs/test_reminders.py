"""Reminders with a frozen clock: before the deadline, at it, each claimed once."""

from __future__ import annotations

from cogs.reminders import MemoryClaims, RemindersCog
from tests.cogs.conftest import Table, seated


def reminders(t: Table) -> RemindersCog:
    cog = t.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)
    return cog


async def test_reminders_fire_before_and_at_the_deadline_once(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.alice.slash(t.channel, "admin deadline", hours=24.0)
    assert not r.ephemeral
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


async def test_two_processes_share_claims_and_send_once(table: Table) -> None:
    t = table
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    cog = reminders(t)
    shared = MemoryClaims()
    cog.claims = shared
    assert await shared.claim_reminder(
        f"{next(iter(cog.deadlines.by_game))}:"
        f"{next(iter(cog.deadlines.by_game.values())).due.isoformat()}:before",
        "other-process",
        t.clock(),
    )
    assert await cog.tick() == 0  # the other process claimed it first


async def test_paused_games_get_no_reminders(table: Table) -> None:
    t = table
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=1.0)
    await t.alice.slash(t.channel, "admin pause")
    t.clock.advance(hours=2)
    assert await reminders(t).tick() == 0
    await t.alice.slash(t.channel, "admin resume")
    assert await reminders(t).tick() == 1


async def test_a_per_turn_deadline_renews_when_a_turn_begins(table: Table) -> None:
    t = table
    await seated(t)
    await t.alice.slash(t.channel, "admin deadline", hours=10.0, every_turn=True)
    cog = reminders(t)
    game_id = next(iter(cog.deadlines.by_game))
    first = cog.deadlines.by_game[game_id].due
    t.clock.advance(hours=5)
    for _ in range(6):  # the Soviet Union ends its phases: Germany's turn begins
        await t.bob.slash(t.channel, "end")
    assert cog.deadlines.by_game[game_id].due > first
