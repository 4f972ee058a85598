"""A week of simulated time with a frozen clock: bob (the Allies) is absent, alice (the Axis)
plays each of her turns three hours after it begins. The deadline (24 hours, ``end``, re-armed
for every wait) reminds bob two hours before and, when it passes, ends his turns for him: every
reminder and action exactly when due and once, across a restart of the bot in the middle of the
week and with a second bot process ticking on the same database. Asserted on what the members
see: message content, who was pinged, and the direct messages."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cogs._bot import UmpireBot
from cogs.reminders import RemindersCog
from db.engine import sqlite_url
from db.repo import open_store
from service.games import GameService
from tests.cogs.conftest import AXIS, SECRET, Table, answer, end, public, seated
from tests.cogs.test_waits import pinged

HOUR = timedelta(hours=1)


def process(store: Any, t: Table, name: str) -> UmpireBot:
    """A bot process on the shared database (its own store connection and process id)."""
    return UmpireBot(
        GameService(store, draw_secret=lambda: SECRET),
        sync=False,
        clock=t.clock,
        reminders=False,
        process_id=name,
    )


def second_process(t: Table, store: Any) -> tuple[UmpireBot, RemindersCog]:
    """A second bot process. SimCord runs one bot, so this one reaches the same offline Discord
    through the first one's connection (as two real processes reach the same Discord)."""
    other = process(store, t, "second")
    other.get_channel = lambda i: t.bot.get_channel(i)  # type: ignore[method-assign]
    other.get_user = lambda i: t.bot.get_user(i)  # type: ignore[method-assign]
    other.fetch_user = lambda i: t.bot.fetch_user(i)  # type: ignore[method-assign]
    other.fetch_channel = lambda i: t.bot.fetch_channel(i)  # type: ignore[method-assign]
    other._connection.user = t.bot.user
    return other, RemindersCog(other, start=False)


@pytest.mark.slow
async def test_a_week_with_an_absent_player_across_a_restart_and_two_processes(
    table: Table, tmp_path: Path
) -> None:
    t = table
    url = sqlite_url(tmp_path / "week.sqlite3")
    stores = [await open_store(url), await open_store(url), await open_store(url)]
    t.bot.service.store = stores[0]
    try:
        await seated(t)
        r = await t.bob.slash(t.channel, "game notify", how="both")
        assert public(r) is None
        r = await t.alice.slash(
            t.channel, "admin deadline", hours=24.0, action="end", every_wait=True
        )
        assert public(r) is not None
        game = await t.service.game_in(str(t.channel.id))
        assert game is not None
        start: datetime = t.clock.now
        other, cog2 = second_process(t, stores[1])
        seen = {m.id for m in t.channel.history()}
        posted: list[tuple[datetime, str, list[int]]] = []  # (when, content, pinged)
        alice_turn_began: datetime | None = None
        due_at: list[datetime] = []
        for hour in range(2, 7 * 24 + 1, 2):  # a tick every 2 hours: every time in play is even
            t.clock.advance(hours=2)
            if hour == 80:  # the bot restarts: a new process on the same database
                await t.env.restart_bot(process(stores[2], t, "umpire"))
                t.bot = t.env.bot
                other._connection.user = t.bot.user
            d = await t.service.deadline(game.id)
            assert d is not None
            due_at.append(d.due_at)
            cog1 = t.bot.get_cog("RemindersCog")
            assert isinstance(cog1, RemindersCog)
            for cog in (cog1, cog2) if hour % 2 else (cog2, cog1):
                await cog.tick()
            state = await t.service.state(game.id)
            if state.power in AXIS:
                alice_turn_began = alice_turn_began or t.clock.now
                if t.clock.now - alice_turn_began >= 3 * HOUR:
                    while (await t.service.state(game.id)).power in AXIS:
                        r = await end(t, t.alice)
                        assert public(r) is not None, answer(r)
                    alice_turn_began = None
            for m in t.channel.history():
                if m.id not in seen and m.author.id == t.bot.user.id and m.content:
                    seen.add(m.id)
                    posted.append((t.clock.now, m.content, pinged(t, m)[0]))

        def at(prefix: str) -> list[datetime]:
            return [when for when, content, _ in posted if content.startswith(prefix)]

        dues = at("⌛")
        befores = at("⏰")
        # bob's turns: Soviet Union (round 1), then United Kingdom, United States... each
        # waits 24 hours, is reminded at 22, and is ended at 24 by the referee.
        assert len(dues) >= 5 and len(befores) == len(dues)
        for when in dues:
            assert when in due_at  # posted on the tick where the deadline was due, not later
            assert when - 2 * HOUR in befores  # the early reminder came 2 hours before
        assert len(set(dues)) == len(dues)  # once each, whichever process ticked first
        for _, content, who in posted:
            if content.startswith(("⌛", "⏰")):
                assert f"<@{t.bob.id}>" in content and who == [t.bob.id]
        assert dues[0] == start + 24 * HOUR
        # Each wait that began pinged its player once: bob when each of his turns began,
        # alice when the referee ended bob's turn before hers; never twice for a wait, never
        # for the phases a player moves through on their own. (After the United States, the
        # Soviet Union is bob's again: a new turn, pinged, with the full 24 hours.)
        for when in dues:
            same = [c for w, c, _ in posted if w == when and c.startswith("🔔")]
            assert len(same) == 1 and same[0].endswith(": Purchase Units).")
        waits = [(c, who) for _, c, who in posted if c.startswith("🔔")]
        assert all(len(who) == 1 and f"<@{who[0]}>" in c for c, who in waits)
        assert all(c.endswith(": Purchase Units).") for c, _ in waits)
        assert sum(who == [t.alice.id] for _, who in waits) >= 3
        # bob asked for DMs as well: each reminder and each of his waits reached him there.
        dms = [m.content for m in t.bob.user.dm_channel.history()]
        assert sum(c.startswith("⌛") for c in dms) == len(dues)
        assert sum(c.startswith("⏰") for c in dms) == len(befores)
        state = await t.service.state(game.id)
        assert state.round >= 3  # the game went on all week without bob
        orders = await t.service.store.orders(game.id)
        assert any(o.text.endswith("(by the referee at the deadline)") for o in orders)
        assert all(  # bob never gave an order: each of his was the referee's
            o.text.endswith("(by the referee at the deadline)")
            for o in orders
            if o.person == str(t.bob.id)
        )
    finally:
        for s in stores:
            await s.close()
