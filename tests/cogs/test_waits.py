"""Wait announcements: one plain-text line, outside any embed, mentioning exactly the people the
game starts waiting for, once per wait (claimed in the store); never the person whose own order
began it; settings per person and per game (channel, DM, both, quiet hours)."""

from __future__ import annotations

from typing import Any

from cogs.reminders import RemindersCog
from tests.cogs.conftest import Table, answer, end, public, seated


def pinged(t: Table, msg: Any) -> tuple[list[int], list[int]]:
    """Whom a posted message notified, and whom its ``allowed_mentions`` let it notify."""
    stored = t.env.backend.get_message(msg.channel.id, msg.id)
    users = stored.allowed_mentions.users
    return list(stored.ping_user_ids), sorted(users) if users is not None else [-1]


def lines(t: Table) -> list[Any]:
    """The bot's plain-text wait lines in the channel, oldest first."""
    return [m for m in t.channel.history() if m.content.startswith(("🔔", "⏳"))]


def tick(t: Table) -> Any:
    cog = t.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)
    return cog.tick()


async def test_a_turn_start_pings_exactly_the_player_once(table: Table) -> None:
    t = table
    await seated(t)  # alice started the game: the Soviet Union (bob) is awaited
    (line,) = lines(t)
    assert line.content == f"🔔 The game waits for <@{t.bob.id}> (Soviet Union: Purchase Units)."
    assert not line.embeds
    assert pinged(t, line) == ([t.bob.id], [t.bob.id])
    await tick(t)
    await tick(t)  # the loop finds the wait claimed: never twice
    assert len(lines(t)) == 1
    for _ in range(3):  # bob goes through his own phases: he is at the keyboard, no ping
        r = await end(t, t.bob)
        assert public(r) is not None, answer(r)
    assert [m.content for m in lines(t)][1:] == []
    r = await end(t, t.bob)  # the Soviet turn ends: Germany's begins
    assert public(r) is not None, answer(r)
    last = lines(t)[-1]
    assert last.content == f"🔔 The game waits for <@{t.alice.id}> (Germany: Purchase Units)."
    assert pinged(t, last) == ([t.alice.id], [t.alice.id])


async def test_dm_only_and_quiet_hours(table: Table) -> None:
    t = table
    r = await t.alice.slash(t.channel, "game notify", how="dm")
    assert public(r) is None and "direct message in every game" in answer(r)
    r = await t.alice.slash(t.channel, "game notify", how="both", quiet="25-7")
    assert public(r) is None and "'22-7'" in answer(r) and "Nothing was changed" in answer(r)
    await seated(t)
    for _ in range(4):
        await end(t, t.bob)
    last = lines(t)[-1]
    assert f"<@{t.alice.id}> (Germany: Purchase Units)" in last.content
    assert pinged(t, last) == ([], [])  # DM only: named, not pinged in the channel
    dm = t.alice.user.dm_channel.last_message
    assert dm is not None and dm.content.startswith("🔔 The game waits for you: Germany: Purchase")
    # bob: both, quiet 11:00-14:00 UTC (the frozen clock says 12:00): held until 14:00
    r = await t.bob.slash(t.channel, "game notify", how="both", quiet="11-14", timezone="UTC")
    assert public(r) is None and "quiet 11:00-14:00 (UTC)" in answer(r)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    while (await t.service.state(game.id)).power in ("Germany", "Japan"):  # alice's turns
        r = await end(t, t.alice)
        assert public(r) is not None, answer(r)
    line = lines(t)[-1]
    assert f"<@{t.bob.id}> (United Kingdom: Purchase Units)" in line.content
    assert pinged(t, line) == ([], [])  # quiet hours: the line without the ping
    assert t.bob.user.dm_channel is None or t.bob.user.dm_channel.last_message is None
    t.clock.advance(hours=2, minutes=1)
    await tick(t)
    held = lines(t)[-1]
    assert held.content == (
        f"🔔 <@{t.bob.id}>: the game waits for you (United Kingdom: Purchase Units)."
    )
    assert pinged(t, held) == ([t.bob.id], [t.bob.id])
    assert t.bob.user.dm_channel.last_message.content.startswith("🔔 The game waits for you")
    await tick(t)
    assert lines(t)[-1].id == held.id  # delivered once


async def test_a_vacation_is_shown_and_the_deadline_answers_for_the_seats(table: Table) -> None:
    from tests.cogs.test_status import status_messages

    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "game vacation", days=3.0)
    assert public(r) is None and "has no such deadline" in answer(r)
    assert "'/admin deadline action:defaults every_wait:True'" in answer(r)
    (status,) = status_messages(t)
    text = status.embeds[0].description or ""
    assert f"**Away** <@{t.bob.id}> until <t:" in text
    assert "no deadline action covers their seats: the game waits for them" in text
    r = await t.alice.slash(t.channel, "admin deadline", hours=24.0, action="end", every_wait=True)
    assert public(r) is not None
    (status,) = status_messages(t)
    assert "the deadline action (end) answers for their seats" in (status.embeds[0].description or "")
    await tick(t)  # bob is away: the referee ends his turn at once, not in 24 hours
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None and (await t.service.state(game.id)).power == "Germany"
    due = [m for m in t.channel.history() if m.content.startswith("⌛")][-1]
    assert due.content.startswith(f"⌛ Waiting for: <@{t.bob.id}> (Soviet Union: Purchase")
    assert "who is away. The referee answers for them now:" in due.content
    assert pinged(t, due) == ([], [])  # away: named, never pinged
    assert lines(t)[-1].content.endswith(f"<@{t.alice.id}> (Germany: Purchase Units).")
    r = await t.bob.slash(t.channel, "game vacation", days=0.0)
    assert public(r) is None and "vacation is over" in answer(r)
    (status,) = status_messages(t)
    assert "**Away**" not in (status.embeds[0].description or "")
    r = await t.bob.slash(t.channel, "game vacation", days=5.0, starts_in=20.0)
    assert public(r) is None and answer(r).startswith("You are away from <t:")
    (status,) = status_messages(t)
    assert f"**Away** <@{t.bob.id}> from <t:" in (status.embeds[0].description or "")
