"""Decision menus that survive restarts, and answers that tell the truth (issue 11, items 3-4).

Driven through SimCord: what the members see in the channel (menus, their closing, records) and
privately (refusals, stale clicks, the truthful answer after a failed post)."""

from __future__ import annotations

from typing import Any

from cogs._bot import UmpireBot
from cogs._follow import follow_up
from cogs._views import owed_keys
from cogs.reminders import RemindersCog
from cogs.status import TITLE, status_embed
from service.games import GameService
from tests.cogs.conftest import SECRET, Table, answer, end, public, seated
from tests.cogs.test_commands import positioned, text_of


def menus(t: Table) -> list[Any]:
    """The decision menus in the channel that still have their select."""
    return [m for m in t.channel.history() if m.components and " owes " in m.content]


def values(menu: Any) -> list[str]:
    return [o.value for o in menu.components[0].children[0].options]


def holder_of(t: Table, menu: Any) -> Any:
    return t.bob if f"<@{t.bob.id}>" in menu.content else t.alice


async def battle_with_a_menu(t: Table) -> tuple[str, Any]:
    """Germany attacks Ukraine (fixed dice): fight until a decision menu is posted."""
    game = await positioned(t)
    r = await t.alice.slash(
        t.channel, "move", units="2 infantry, 1 tank", **{"from": "Eastern Europe", "to": "Ukraine"}
    )
    assert public(r), text_of(r)
    await end(t, t.alice)
    for _ in range(5):
        r = await t.alice.slash(t.channel, "battle", space="Ukraine")
        assert public(r), text_of(r)
        found = menus(t)
        if found:
            return game, found[-1]
    raise AssertionError("no decision menu after five rounds")


def status(t: Table) -> Any:
    (msg,) = [m for m in t.channel.history() if m.embeds and m.embeds[0].title == TITLE]
    return msg


def message(t: Table, msg_id: int) -> Any:
    return next(m for m in t.channel.history() if m.id == msg_id)


async def test_a_menu_answered_by_a_click_is_closed_showing_the_answer(table: Table) -> None:
    t = table
    game, menu = await battle_with_a_menu(t)
    holder = holder_of(t, menu)
    other = t.alice if holder is t.bob else t.bob
    line = values(menu)[0]
    r = await other.select(menu, [line])  # someone else: refused privately, nothing changes
    assert r.followups[-1].ephemeral and menus(t)
    r = await holder.select(menu, [line])
    record = r.followups[-1]
    assert not record.ephemeral and line in text_of(r)
    closed = message(t, menu.id)
    assert not closed.components
    assert f"answered by <@{holder.id}>: {line}" in closed.content
    (recorded,) = await t.service.store.menus(game)
    assert (recorded.message_id, recorded.open) == (str(menu.id), False)


async def test_a_restart_in_the_middle_of_a_battle_then_the_menu_is_clicked(
    table: Table,
) -> None:
    t = table
    game, menu = await battle_with_a_menu(t)
    holder = holder_of(t, menu)
    line = values(menu)[0]
    # A new bot process over the same store: nothing of the old one's memory survives.
    fresh = UmpireBot(
        GameService(t.service.store, draw_secret=lambda: SECRET),
        sync=False,
        clock=t.clock,
        reminders=False,
    )
    await t.env.restart_bot(fresh)
    t.bot = fresh
    r = await holder.select(menu, [line])
    assert r.followups and not r.followups[-1].ephemeral, text_of(r)
    assert line in text_of(r)
    closed = message(t, menu.id)
    assert not closed.components and f"answered by <@{holder.id}>" in closed.content
    # Every menu now open is one the fresh bot recorded, each posted once.
    recorded = [m for m in await fresh.service.store.menus(game) if m.open]
    assert sorted(int(m.message_id or 0) for m in recorded) == sorted(m.id for m in menus(t))


async def test_a_menu_answered_by_slash_command_is_closed_showing_the_answer(
    table: Table,
) -> None:
    t = table
    _, menu = await battle_with_a_menu(t)
    holder = holder_of(t, menu)
    line = values(menu)[0]
    verb, rest = line.split(" ", 1)
    assert verb in ("casualties", "press", "retreat", "submerge", "strike"), line
    if verb == "casualties":
        space, units = "Ukraine", rest.removeprefix("Ukraine ").split(" (")[0]
        r = await holder.slash(t.channel, "casualties", space=space, units=units)
    else:
        r = await holder.slash(t.channel, verb, space="Ukraine")
    assert public(r), text_of(r)
    closed = message(t, menu.id)
    assert not closed.components
    assert f"answered by <@{holder.id}>:" in closed.content and "Ukraine" in closed.content


async def test_a_stale_click_is_answered_with_what_is_owed_now(table: Table) -> None:
    t = table
    game, menu = await battle_with_a_menu(t)
    holder = holder_of(t, menu)
    line = values(menu)[0]
    # Answered outside Discord (another front end, another process): the menu is still open.
    done = await t.service.submit(game, str(holder.id), line)
    assert done.ok, done.error
    assert message(t, menu.id).components
    r = await holder.select(menu, [line])
    answer = r.followups[-1]
    assert answer.ephemeral
    assert "This menu is out of date" in answer.content and "no longer owed" in answer.content
    assert "The game now waits for" in answer.content
    assert str(holder.id) not in answer.content.replace(f"<@{holder.id}>", "")
    closed = message(t, menu.id)  # and the stale menu is closed, showing the answer
    assert not closed.components and "answered" in closed.content


async def test_a_failed_post_after_a_stored_order_is_told_truthfully_and_retried(
    table: Table,
) -> None:
    t = table
    game, menu = await battle_with_a_menu(t)
    holder = holder_of(t, menu)
    line = values(menu)[0]
    before = len(await t.service.store.orders(game))
    # Discord fails: the record, the next menus and the status edit (5xx), the order is stored.
    t.env.inject_error("POST", "/webhooks/*", status=500, times=1)
    t.env.inject_error("POST", "/channels/*/messages", status=503, times=None)
    t.env.inject_error("PATCH", "/channels/*/messages/*", status=503, times=None)
    r = await holder.select(menu, [line])
    assert len(await t.service.store.orders(game)) == before + 1  # stored
    told = r.followups[-1]
    assert told.ephemeral
    assert told.content.startswith("Your order was recorded; posting the result failed:")
    assert "nothing was changed" not in told.content
    assert message(t, menu.id).components  # the close failed too: still open
    owed = menu.content.split(" owes ")[1].split(". Choose")[0]  # e.g. "press or retreat in Ukraine"
    assert owed in status(t).embeds[0].description  # the edit failed: the status is stale
    t.env.backend.faults.clear()  # Discord is back
    t.env.errors.clear()  # the failures were logged (SimCord would re-raise them at teardown)
    info = await t.service.info(game)
    await follow_up(t.bot, info)  # the reminder loop's pass over every active game
    assert not message(t, menu.id).components
    assert f"answered by <@{holder.id}>: {line}" in message(t, menu.id).content
    # Every decision owed now has its menu, posted once; the status shows the game as stored.
    now = await status_embed(t.service, info)
    assert status(t).embeds[0].description == now.description
    assert owed not in (now.description or "")
    state = await t.service.state(game)
    assert len(menus(t)) == len(owed_keys(state))
    await follow_up(t.bot, info)
    assert len(menus(t)) == len(owed_keys(state))


async def test_a_slash_command_whose_record_cannot_be_posted_is_told_it_was_recorded(
    table: Table,
) -> None:
    t = table
    await seated(t)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    # The bot lost a permission: posting the public record fails once, after the order is stored.
    t.env.inject_error(
        "POST", "/webhooks/*", status=403, code=50013, message="Missing Permissions", times=1
    )
    r = await t.bob.slash(t.channel, "buy", units="2 infantry")
    assert public(r) is None
    told = answer(r)
    assert told.startswith("Your order was recorded; posting the result failed:"), told
    assert "permission" in told and "nothing was changed" not in told
    state = await t.service.state(game.id)
    assert state.purchase.get("infantry") == 2  # stored: giving it again would buy 4
    t.env.errors.clear()  # logged by the funnel (SimCord would re-raise it at teardown)
    r = await t.bob.slash(t.channel, "undo")  # Discord works again
    assert public(r) and "Undone" in text_of(r)


async def test_every_command_is_deferred_first(table: Table) -> None:
    """Discord allows 3 seconds for the first answer: each command defers before it loads a
    game, touches the database or renders; refusals stay private, records public."""
    t = table
    await seated(t)
    cases: list[tuple[Any, str, dict[str, Any]]] = [
        (t.bob, "buy", {"units": "1 infantry"}),
        (t.alice, "buy", {"units": "1 infantry"}),  # not her turn: refused
        (t.carol, "game status", {}),
        (t.carol, "game map", {"space": "Germany"}),
        (t.carol, "game history", {"n": 2}),
        (t.carol, "game export", {}),
        (t.bob, "game notify", {"how": "both"}),
        (t.bob, "game vacation", {"days": 1.0}),
        (t.bob, "admin pause", {}),  # not the owner: refused
        (t.alice, "admin pause", {}),
    ]
    for who, name, opts in cases:
        before = len(t.env.http_requests)
        r = await who.slash(t.channel, name, **opts)
        calls = t.env.http_requests[before:]
        # The first call answers the interaction: a private defer ("thinking…", ephemeral).
        assert calls[0].path.endswith("/callback"), (name, calls[0].path)
        assert calls[0].json == {"type": 5, "data": {"flags": 64}}, name
        assert r.response is not None or public(r) is not None, name


async def test_a_menu_answered_by_the_deadline_is_closed_showing_the_referees_answer(
    table: Table,
) -> None:
    t = table
    _, menu = await battle_with_a_menu(t)
    r = await t.alice.slash(t.channel, "admin deadline", hours=1.0, action="defaults")
    assert public(r), answer(r)
    cog = t.bot.get_cog("RemindersCog")
    assert isinstance(cog, RemindersCog)
    t.clock.advance(hours=2)
    await cog.tick()  # the referee answers the owed decisions, then the follow-up
    closed = message(t, menu.id)
    assert not closed.components
    assert "answered: " in closed.content and "(by the referee at the deadline)" in closed.content
