"""``/orders`` (a modal of several order lines, one batch) and ``/help [topic]``, through SimCord:
what the player and the channel see."""

from __future__ import annotations

from typing import Any

from cogs._batch import INPUT_ID
from service import batch as bt
from tests.cogs.conftest import Table, seated

TURN = "buy 2 infantry\nend\nmove 3 infantry from Karelia to West Russia"


def answer(r: Any) -> Any:
    """The message that answered the interaction (after a deferral: the first follow-up)."""
    return r.followups[-1] if r.followups else r.response


def described(message: Any) -> str:
    parts = [message.content] if message.content else []
    for e in message.embeds:
        parts += [e.title or "", e.description or "", *(f.value or "" for f in e.fields)]
    return "\n".join(parts)


async def paste(t: Table, member: Any, text: str) -> tuple[Any, list[Any]]:
    """/orders, then the modal submitted with ``text``: (the result, new channel messages)."""
    before = len(t.channel.history())
    shown = await member.slash(t.channel, "orders")
    assert shown.modal is not None and shown.modal["custom_id"] == "umpire:orders"
    r = await member.submit_modal(shown, {INPUT_ID: text})
    return r, t.channel.history()[before:]


async def test_orders_opens_a_modal_with_a_paragraph_box(table: Table) -> None:
    t = table
    await seated(t)
    shown = await t.bob.slash(t.channel, "orders")
    modal = shown.modal
    assert modal is not None and modal["title"] == "Orders: one per line"
    (row,) = modal["components"]
    (box,) = row["components"]
    assert box["custom_id"] == INPUT_ID and box["style"] == 2  # paragraph
    assert box["max_length"] == 4000


async def test_orders_all_accepted_public_record_and_private_listing(table: Table) -> None:
    t = table
    await seated(t)
    r, posted = await paste(t, t.bob, TURN)
    record = [m for m in posted if m.embeds and m.embeds[0].title.startswith("bob: 3 orders")]
    assert len(record) == 1
    body = described(record[0])
    assert "1. buy 2 infantry\n   Soviet Union bought 2 infantry (6 IPCs)." in body
    assert "3. move 3 infantry from Karelia to West Russia" in body
    assert f"<@{t.bob.id}>" in body  # the waiting line names bob, as a mention
    assert str(t.bob.id) not in body.replace(f"<@{t.bob.id}>", "")
    assert "refused" not in body
    # the player's own answer is private and lists every line
    assert r.ephemeral
    mine = answer(r)
    assert mine.ephemeral
    assert mine.content.startswith("Posted in the channel: what was applied.")
    assert mine.content.endswith("All 3 lines accepted, in order.")
    assert f"<@{t.bob.id}>" in mine.content  # names, never raw ids
    assert str(t.bob.id) not in mine.content.replace(f"<@{t.bob.id}>", "")
    state = await t.service.state((await t.service.game_in(str(t.channel.id)) or _no()).id)
    assert state.phase == "combat_move" and state.purchase == {"infantry": 2}


async def test_orders_stop_at_a_refusal_the_plan_stays_private(table: Table) -> None:
    t = table
    await seated(t)
    text = "buy 2 infantry\n\nmove 1 infantry from Russia to Ukraine\nbuy 1 tank\nend"
    r, posted = await paste(t, t.bob, text)
    (record,) = [m for m in posted if m.embeds and m.embeds[0].title.startswith("bob: 1 order")]
    body = described(record)
    assert "1. buy 2 infantry" in body
    assert "Line 3 was refused, so the batch stopped there: nothing after it was applied." in body
    # the refused line and the lines not tried are the player's plan: not in the channel
    assert "Ukraine" not in body and "buy 1 tank" not in body
    mine = answer(r)
    assert r.ephemeral and mine.ephemeral
    assert "3. move 1 infantry from Russia to Ukraine\n   REFUSED: " in mine.content
    assert "4. buy 1 tank\n   not tried" in mine.content
    assert "nothing after line 3 was applied (2 lines not tried)" in mine.content
    state = await t.service.state((await t.service.game_in(str(t.channel.id)) or _no()).id)
    assert state.purchase == {"infantry": 2} and state.phase == "purchase"


async def test_orders_nothing_applied_means_nothing_public(table: Table) -> None:
    t = table
    await seated(t)
    r, posted = await paste(t, t.alice, "buy 1 tank\nend")  # the Soviet Union's turn
    assert [m for m in posted if m.embeds] == []
    mine = answer(r)
    assert mine.ephemeral and "1. buy 1 tank\n   REFUSED: It is Soviet Union's turn" in mine.content
    assert "0 of 2 lines applied" in mine.content


async def test_orders_over_the_limit_are_refused_whole(table: Table) -> None:
    t = table
    await seated(t)
    r, posted = await paste(t, t.bob, "buy 1 infantry\n" * (bt.MAX_LINES + 1))
    assert [m for m in posted if m.embeds] == []
    mine = answer(r)
    assert mine.ephemeral and f"more than {bt.MAX_LINES}" in mine.content
    assert mine.content.endswith("Nothing was applied.")
    state = await t.service.state((await t.service.game_in(str(t.channel.id)) or _no()).id)
    assert state.purchase == {}


async def test_orders_without_a_game(table: Table) -> None:
    t = table
    r, posted = await paste(t, t.carol, "buy 1 tank")
    assert posted == [] or all(not m.embeds for m in posted)
    assert "game new" in answer(r).content and answer(r).ephemeral


# --- /help -----------------------------------------------------------------------------------


def help_of(r: Any) -> str:
    m = answer(r)
    assert m.ephemeral
    return described(m)


async def test_help_without_a_game_lists_every_edition_and_slash_names(table: Table) -> None:
    t = table
    before = len(t.channel.history())
    r = await t.carol.slash(t.channel, "help")
    assert r.ephemeral
    text = help_of(r)
    assert "/game new edition:classic" in text and "/buy units:3 infantry, 1 tank" in text
    assert "(only in Axis & Allies Classic" in text  # e.g. /research
    assert "/help topic:<topic>" in text
    assert "help <topic>" not in text.replace("/help topic:<topic>", "")
    # nothing public
    assert [m for m in t.channel.history()[before:] if not m.flags.ephemeral] == []


async def test_help_in_a_game_is_that_editions(table: Table) -> None:
    t = table
    await seated(t)
    text = help_of(await t.carol.slash(t.channel, "help", topic="orders"))
    assert "Orders (Axis & Allies 1941)" in text
    assert "/submerge space:" in text and "/research" not in text
    assert "/move units:2 infantry from:Russia to:" in text


async def test_help_topics_turns_battles_dice_batch(table: Table) -> None:
    t = table
    await seated(t)
    turns = help_of(await t.bob.slash(t.channel, "help", topic="turns"))
    assert "Purchase Units, Combat Move, Conduct Combat" in turns and "/end phase:<phase> confirm:true" in turns
    battles = help_of(await t.bob.slash(t.channel, "help", topic="battles"))
    assert "/battle space:<space>" in battles and "/casualties space:<space>" in battles
    assert "/press" in battles and "/retreat" in battles and "/submerge" in battles
    dice = help_of(await t.bob.slash(t.channel, "help", topic="dice"))
    assert "/dice verify" in dice and "docs/dice.md" in dice and "/game export" in dice
    batch = help_of(await t.bob.slash(t.channel, "help", topic="batch"))
    assert "/orders" in batch and "nothing after it is applied" in batch
    move = help_of(await t.bob.slash(t.channel, "help", topic="move"))
    assert move.startswith("Help: move\n/move units:")
    unknown = help_of(await t.bob.slash(t.channel, "help", topic="zeppelin"))
    assert "No help on 'zeppelin'" in unknown and "battles" in unknown


async def test_help_topics_are_offered_by_autocomplete(table: Table) -> None:
    t = table
    choices = await t.carol.autocomplete(t.channel, "help", "topic", "")
    values = [c["value"] for c in choices]
    assert values[:5] == ["orders", "turns", "battles", "dice", "batch"]
    assert len(values) <= 25
    await seated(t)
    found = await t.carol.autocomplete(t.channel, "help", "topic", "sub")
    assert [c["value"] for c in found] == ["submerge", "substitute"]
    found = await t.carol.autocomplete(t.channel, "help", "topic", "research")
    assert found == []  # not an order of 1941


def _no() -> Any:
    raise AssertionError("no game in the channel")
