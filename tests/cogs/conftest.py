"""SimCord harness: the real bot and cogs against an offline Discord (no token, no network)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from cogs._bot import UmpireBot
from service.games import GameService

SECRET = bytes(range(32))
AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")


class FrozenClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@dataclass
class Table:
    env: Any
    bot: UmpireBot
    guild: Any
    channel: Any
    alice: Any  # the Axis
    bob: Any  # the Allies
    carol: Any  # a spectator
    clock: FrozenClock

    @property
    def service(self) -> GameService:
        return self.bot.service


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Commands are not synced in the tests (setup_hook skips it): invoke them unsynced. The
    # settle timeout only catches a bot that never settles (a hang): 30 s rather than SimCord's
    # 5 s default, since drawing a map takes seconds on a loaded 2-core machine.
    here = str(Path(__file__).parent)
    for item in items:
        if str(item.path).startswith(here):
            item.add_marker(pytest.mark.simcord(strict_sync=False, settle_timeout=30.0))


def public(r: Any) -> Any:
    """The public answer of an interaction, or None. Every command is deferred privately first
    (a refusal stays private), so an accepted record is a public follow-up of its own."""
    for m in r.followups:
        if not m.ephemeral:
            return m
    if r.response is not None and not r.response.ephemeral:
        return r.response
    return None


def answer(r: Any) -> str:
    """What the person was told: the public record's content if any, else the private answer."""
    shown = public(r)
    if shown is not None:
        return str(shown.content or "")
    notes = [m for m in [r.response, *r.followups] if m is not None and m.ephemeral]
    return str(notes[-1].content or "") if notes else ""


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def simcord_bot(clock: FrozenClock) -> UmpireBot:
    return UmpireBot(
        GameService(draw_secret=lambda: SECRET), sync=False, clock=clock, reminders=False
    )


@pytest.fixture
def table(simcord_env: Any, simcord_bot: UmpireBot, clock: FrozenClock) -> Table:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("game")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    return Table(env, simcord_bot, guild, channel, alice, bob, carol, clock)


async def end(t: Table, who: Any, confirm: bool = False) -> Any:
    """/end as a person types it: the phase option filled in by its autocomplete (the current
    phase), then sent."""
    offered = await who.autocomplete(t.channel, "end", "phase", "")
    assert offered, "the /end autocomplete offers no phase"
    extra = {"confirm": True} if confirm else {}
    return await who.slash(t.channel, "end", phase=offered[0]["value"], **extra)


async def seated(t: Table) -> None:
    """A 1941 game in the channel: alice holds the Axis, bob the Allies, started."""
    r = await t.alice.slash(t.channel, "game new", edition="1941")
    assert public(r), answer(r)
    for p in AXIS:
        r = await t.alice.slash(t.channel, "game join", power=p)
        assert public(r), answer(r)
    for p in ALLIES:
        r = await t.bob.slash(t.channel, "game join", power=p)
        assert public(r), answer(r)
    r = await t.alice.slash(t.channel, "game start")
    assert public(r), answer(r)
