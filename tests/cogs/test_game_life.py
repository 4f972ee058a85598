"""A game's whole life through the cogs (SimCord): leave, cancel, concede, draw, list, mine,
asserting on what people see: content, mentions, ephemeral flags, and that nobody is pinged."""

from __future__ import annotations

from typing import Any

from cogs.status import TITLE
from tests.cogs.conftest import ALLIES, AXIS, Table, answer, public, seated


def text_of(r: Any) -> str:
    m = r.followups[-1] if r.followups else r.response
    parts = [m.content or ""] + [(e.title or "") + "\n" + (e.description or "") for e in m.embeds]
    return "\n".join(parts)


def last_allowed_mentions(t: Table) -> dict[str, Any]:
    """The allowed_mentions of the bot's last message (as sent over HTTP)."""
    bodies = [c.json.get("data") or c.json for c in t.env.http_requests if isinstance(c.json, dict)]
    found = [b["allowed_mentions"] for b in bodies if "allowed_mentions" in b]
    assert found
    return dict(found[-1])


def status_text(t: Table) -> str:
    (status,) = [m for m in t.channel.history()
                 if m.author.id == t.bot.user.id and m.embeds and m.embeds[0].title == TITLE]
    return status.embeds[0].description or ""


async def test_game_new_stores_the_server(table: Table) -> None:
    t = table
    r = await t.alice.slash(t.channel, "game new", edition="1941")
    assert public(r)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None and game.guild == str(t.guild.id)


async def test_leave_before_the_start_and_refused_after(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new", edition="1941")
    await t.bob.slash(t.channel, "game join", power="Soviet Union")
    r = await t.bob.slash(t.channel, "game leave")
    assert public(r)
    body = text_of(r)
    assert f"<@{t.bob.id}> leaves Soviet Union" in body and "open again" in body
    r = await t.carol.slash(t.channel, "game leave")
    assert not public(r) and "hold no seat" in answer(r)
    t.env.errors.clear()
    for p in AXIS:
        await t.alice.slash(t.channel, "game join", power=p)
    for p in ALLIES:
        await t.bob.slash(t.channel, "game join", power=p)
    await t.alice.slash(t.channel, "game start")
    r = await t.bob.slash(t.channel, "game leave")
    assert not public(r)
    assert "substitute" in answer(r) and "concede" in answer(r)
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None and game.seats["Soviet Union"] == str(t.bob.id)


async def test_owner_cancels_in_the_lobby_then_a_new_game(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new", edition="1941")
    r = await t.bob.slash(t.channel, "game cancel")
    assert not public(r) and "owner" in answer(r)
    r = await t.alice.slash(t.channel, "game cancel")
    assert public(r) and "cancelled" in text_of(r)
    assert not [m for m in t.channel.history() if m.embeds and m.embeds[0].title == TITLE]
    r = await t.bob.slash(t.channel, "game start")
    assert not public(r) and "game new" in answer(r)
    r = await t.bob.slash(t.channel, "game new", edition="1941")
    assert public(r), answer(r)


async def test_cancel_by_vote_says_who_is_missing_and_ends_the_game(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.carol.slash(t.channel, "game cancel")
    assert not public(r) and "seated players" in answer(r)
    r = await t.alice.slash(t.channel, "game cancel")
    assert public(r)
    body = text_of(r)
    assert f"Still needed: <@{t.bob.id}>" in body and "1 of 2" in body
    assert str(t.bob.id) not in body.replace(f"<@{t.bob.id}>", "")
    r = await t.alice.slash(t.channel, "game cancel", withdraw=True)
    assert public(r) and "withdraws" in text_of(r)
    await t.alice.slash(t.channel, "game cancel")
    r = await t.bob.slash(t.channel, "game cancel")
    assert public(r)
    assert "cancelled by the vote of every player" in text_of(r)
    assert "Game over**: cancelled" in status_text(t)
    r = await t.bob.slash(t.channel, "buy", units="1 infantry")
    assert not public(r) and "cancelled" in answer(r)
    r = await t.carol.slash(t.channel, "game new", edition="1941")
    assert public(r), answer(r)


async def test_concede_and_dice_verify(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "game concede")
    assert public(r)
    body = text_of(r)
    assert "The Axis won the game: the other side conceded." in body
    assert "Game over**: the Axis won" in status_text(t)
    r = await t.carol.slash(t.channel, "dice verify")
    assert public(r) and "master secret" in text_of(r)


async def test_draw_needs_both(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.alice.slash(t.channel, "game draw")
    assert public(r) and f"<@{t.bob.id}>" in text_of(r)
    r = await t.bob.slash(t.channel, "game draw")
    assert public(r) and "in a draw" in text_of(r)
    assert "Game over**: a draw" in status_text(t)


async def test_game_list_shows_the_server_and_pings_nobody(table: Table) -> None:
    t = table
    await seated(t)
    other = t.guild.create_text_channel("lobby")
    await t.carol.slash(other, "game new", edition="classic")
    await t.alice.slash(t.channel, "admin deadline", hours=24.0)
    r = await t.carol.slash(t.channel, "game list")
    assert not public(r)  # a quiet read unless public:True
    body = answer(r)
    lines = body.splitlines()
    assert len(lines) == 3  # the heading and two games
    assert f"<#{t.channel.id}>" in lines[1] and "Axis & Allies 1941" in lines[1]
    assert f"https://discord.com/channels/{t.guild.id}/{t.channel.id}" in lines[1]
    assert "round 1" in lines[1] and f"**Soviet Union** (<@{t.bob.id}>)" in lines[1]
    due = int(t.clock.now.timestamp()) + 24 * 3600
    assert f"<t:{due}:R>" in lines[1]
    assert f"<#{other.id}>" in lines[2] and "waiting for players" in lines[2]
    r = await t.carol.slash(t.channel, "game list", public=True)
    assert public(r)
    am = last_allowed_mentions(t)
    assert am.get("parse", []) == [] and not am.get("users") and not am.get("roles")
    assert f"<@{t.bob.id}>" in answer(r)  # shown as a name, never pinged


async def test_game_list_finished_games_are_archived(table: Table) -> None:
    t = table
    await seated(t)
    await t.bob.slash(t.channel, "game concede")
    r = await t.carol.slash(t.channel, "game list")
    assert "No games in this server yet" in answer(r)
    r = await t.carol.slash(t.channel, "game list", finished=True)
    assert "over: won by the Axis" in answer(r)


async def test_game_mine_is_private_and_says_where_i_am_awaited(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "game mine")
    assert not public(r)
    body = answer(r)
    assert "you hold Soviet Union, United Kingdom, United States" in body
    assert "awaited now: Soviet Union: Purchase Units" in body
    r = await t.alice.slash(t.channel, "game mine")
    assert "awaited now: nothing right now" in answer(r)
    await t.bob.slash(t.channel, "game draw")
    r = await t.alice.slash(t.channel, "game mine")
    assert "a vote to draw" in answer(r)
    r = await t.carol.slash(t.channel, "game mine")
    assert not public(r) and "hold no seat" in answer(r)
    am = last_allowed_mentions(t)
    assert am.get("parse", []) == [] and not am.get("users")
