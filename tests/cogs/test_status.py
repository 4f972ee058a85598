"""The pinned status message: posted and pinned at the start, edited in place afterwards."""

from __future__ import annotations

from typing import Any

from cogs.status import TITLE
from tests.cogs.conftest import Table, answer, end, public, seated


def status_messages(t: Table) -> list[Any]:
    return [
        m
        for m in t.channel.history()
        if m.author.id == t.bot.user.id and m.embeds and m.embeds[0].title == TITLE
    ]


async def test_the_status_is_pinned_at_the_start_and_edited_after_an_order(table: Table) -> None:
    t = table
    await seated(t)
    (status,) = status_messages(t)
    assert status.pinned
    assert status.id in [m.id for m in t.channel.pinned_messages()]
    text = status.embeds[0].description or ""
    assert "Round** 1" in text and "Soviet Union" in text
    assert f"<@{t.bob.id}>" in text  # whom the game waits for
    assert "Deadline** none" in text
    r = await t.bob.slash(t.channel, "buy", units="1 infantry")
    assert public(r), answer(r)
    r = await end(t, t.bob)
    assert public(r), answer(r)
    (after,) = status_messages(t)
    assert after.id == status.id and after.pinned
    assert after.embeds[0].description != text
    assert after.edited_at is not None


async def test_an_admin_deadline_shows_as_a_discord_timestamp(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.alice.slash(t.channel, "admin deadline", hours=24.0)
    assert public(r)
    (status,) = status_messages(t)
    due = int(t.clock.now.timestamp()) + 24 * 3600
    assert f"<t:{due}:R>" in (status.embeds[0].description or "")


async def test_a_restarted_bot_finds_the_pinned_status_again(table: Table) -> None:
    t = table
    await seated(t)
    (status,) = status_messages(t)
    t.bot.board.messages.clear()  # what a restart forgets
    await end(t, t.bob)
    (after,) = status_messages(t)
    assert after.id == status.id
