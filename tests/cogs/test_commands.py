"""Each slash command: happy path, wrong person, wrong phase, unknown names, autocomplete, the
error funnel. Driven through SimCord (real discord.py dispatch, offline)."""

from __future__ import annotations

from typing import Any

import pytest

from cogs import _views
from cogs._errors import SOMETHING_WENT_WRONG
from tests.cogs.conftest import AXIS, SECRET, Table, answer, end, public, seated
from tests.fair_game import POSITION


def text_of(r: Any) -> str:
    m = r.followups[-1] if r.followups else r.response
    parts = [m.content or ""] + [(e.title or "") + "\n" + (e.description or "") for e in m.embeds]
    for e in m.embeds:
        parts += [f.value or "" for f in e.fields]
    return "\n".join(parts)


async def positioned(t: Table) -> str:
    """Germany's combat move in round 1 of a small position (tests/fair_game.py), in the channel."""
    info = await t.service.create(str(t.channel.id), str(t.alice.id), "1941", position=POSITION)
    for p in AXIS:
        assert (await t.service.join(info.id, str(t.alice.id), p)).ok
    for p in ("Soviet Union", "United Kingdom", "United States"):
        assert (await t.service.join(info.id, str(t.bob.id), p)).ok
    assert (await t.service.start(info.id, str(t.alice.id))).ok
    return info.id


# --- /game -----------------------------------------------------------------------------------


async def test_game_new_join_start_status_are_public_and_mention_people(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.carol.slash(t.channel, "game status", public=True)
    assert public(r)  # shared: a public follow-up in the channel
    r = t.channel.last_message
    assert r.embeds and not r.flags.ephemeral
    body = "\n".join([r.embeds[0].description or ""] + [f.value or "" for f in r.embeds[0].fields])
    assert f"<@{t.bob.id}>" in body and "Soviet Union" in body
    assert str(t.bob.id) not in body.replace(f"<@{t.bob.id}>", "")
    r = await t.carol.slash(t.channel, "game status")
    assert not public(r)
    body = text_of(r)
    assert f"<@{t.bob.id}>" in body and "Soviet Union" in body
    assert str(t.bob.id) not in body.replace(f"<@{t.bob.id}>", "")


async def test_game_new_twice_in_a_channel_is_refused_privately(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new")
    r = await t.bob.slash(t.channel, "game new")
    assert not public(r) and "already has game" in answer(r)


async def test_game_join_unknown_power_suggests(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new")
    r = await t.alice.slash(t.channel, "game join", power="Germny")
    assert not public(r) and "Germany" in answer(r)


async def test_game_start_only_by_owner(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new")
    r = await t.bob.slash(t.channel, "game start")
    assert not public(r) and "owner" in answer(r)


async def test_game_map_history_export(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.carol.slash(t.channel, "game map", space="Germany")
    assert not public(r) and "Germany" in text_of(r)
    r = await t.carol.slash(t.channel, "game history", n=3)
    assert public(r) and "#" in text_of(r)
    r = await t.carol.slash(t.channel, "game export")
    assert public(r)
    (attachment,) = public(r).attachments
    assert attachment.filename.endswith(".json")


async def test_no_game_here(table: Table) -> None:
    r = await table.alice.slash(table.channel, "buy", units="1 infantry")
    assert not public(r) and "game new" in answer(r)
    r = await table.alice.slash(table.channel, "game export")
    assert not public(r)


# --- turn orders -------------------------------------------------------------------------------


async def test_buy_undo_end_happy_path(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "buy", units="2 inf")
    assert public(r) and "infantry" in text_of(r)
    r = await t.bob.slash(t.channel, "undo")
    assert public(r) and "Undone" in text_of(r)
    r = await end(t, t.bob)
    assert public(r) and "Combat Move" in text_of(r)


async def test_end_carries_its_phase(table: Table) -> None:
    """Issue 13 item 11: /end's phase is filled in as it is typed (the current phase); a
    repeated /end is refused instead of ending the next phase, and /undo takes an /end back."""
    t = table
    await seated(t)
    offered = await t.bob.autocomplete(t.channel, "end", "phase", "")
    assert [c["value"] for c in offered] == ["Purchase Units"]
    r = await t.bob.slash(t.channel, "end", phase="Purchase Units")
    assert public(r) and "Soviet Union: Combat Move." in text_of(r)
    r = await t.bob.slash(t.channel, "end", phase="Purchase Units")
    assert not public(r)
    assert answer(r) == ("Purchase Units has already ended; it is Combat Move now. Nothing was "
                         "ended: `/end phase:<phase>` again to end Combat Move.")
    r = await t.bob.slash(t.channel, "undo")
    assert public(r) and ("Undone: Soviet Union's `/end phase:Purchase Units` (1 event taken "
                          "back).\nWaiting for: Soviet Union") in text_of(r)
    assert [c["value"] for c in await t.bob.autocomplete(t.channel, "end", "phase", "")] == [
        "Purchase Units"]


async def test_wrong_person_not_seated_and_not_your_turn(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.carol.slash(t.channel, "buy", units="1 infantry")
    assert not public(r) and "no seat" in answer(r)
    r = await t.alice.slash(t.channel, "buy", units="1 infantry")
    assert not public(r) and "Soviet Union's turn" in answer(r)
    r = await t.alice.slash(t.channel, "undo")
    assert not public(r)


async def test_wrong_phase(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "place", units="1 infantry", **{"in": "Russia"})
    assert not public(r) and answer(r)
    r = await t.bob.slash(t.channel, "move", units="1 infantry", **{"from": "Russia", "to": "Karelia"})
    assert not public(r)


async def test_unknown_names_list_closest_matches(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "buy", units="3 infantri, 1 tankk")
    assert not public(r) and "infantry" in answer(r)
    await end(t, t.bob)
    r = await t.bob.slash(
        t.channel, "move", units="1 infantry", **{"from": "Rusia", "to": "Karelia"}
    )
    assert not public(r) and "Russia" in answer(r)


async def test_standing_casualties(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "standing", power="Soviet Union", units="infantry, tank")
    assert public(r)
    r = await t.bob.slash(t.channel, "standing", power="Germany", units="infantry")
    assert not public(r)


# --- combat ------------------------------------------------------------------------------------


async def test_battle_posts_dice_and_a_decision_select(table: Table) -> None:
    t = table
    await positioned(t)
    r = await t.alice.slash(
        t.channel, "move", units="2 infantry, 1 tank", **{"from": "Eastern Europe", "to": "Ukraine"}
    )
    assert public(r), answer(r)
    r = await t.bob.slash(t.channel, "battle", space="Ukraine")  # not bob's battle
    assert not public(r)
    await end(t, t.alice)
    r = await t.alice.slash(t.channel, "battle", space="Ukraine")
    assert public(r), answer(r)
    dice = [f for f in public(r).embeds[0].fields if f.name == "Dice"]
    assert dice and "Ukraine round 1" in dice[0].value
    # Each owed decision is posted with a select, mentioning its holder; the holder answers.
    game = await t.service.game_in(str(t.channel.id))
    assert game is not None
    asks = [m for m in t.channel.history() if m.components and "owes" in m.content]
    state = await t.service.state(game.id)
    if not asks:  # no hits this round: nothing is owed
        assert not any(b.step == "casualties" for b in state.battles.values())
        return
    for ask in asks:
        holder = t.bob if f"<@{t.bob.id}>" in ask.content else t.alice
        other = t.alice if holder is t.bob else t.bob
        first = ask.components[0].children[0].options[0].value  # an order line
        r = await other.select(ask, [first])  # someone else: refused privately
        assert r.followups[-1].ephemeral, text_of(r)
        r = await holder.select(ask, [first])
        assert not r.followups[-1].ephemeral, text_of(r)
        assert "casualties" in text_of(r).casefold() or "lose" in text_of(r).casefold()


async def test_press_retreat_submerge_strike_casualties_refused_when_not_owed(table: Table) -> None:
    t = table
    await positioned(t)
    for name, opts in [
        ("press", {"space": "Ukraine"}),
        ("retreat", {"space": "Ukraine", "to": "Eastern Europe"}),
        ("submerge", {"space": "Sea Zone 5"}),
        ("strike", {"space": "Sea Zone 5"}),
        ("casualties", {"space": "Ukraine", "units": "1 infantry"}),
    ]:
        r = await t.alice.slash(t.channel, name, **opts)
        assert not public(r) and answer(r), name


async def test_odds_luck_and_dice_verify(table: Table) -> None:
    t = table
    r = await t.carol.slash(t.channel, "odds", attackers="3 infantry, 1 tank", defenders="2 infantry")
    assert not public(r) and "Odds" in text_of(r)  # private by default
    assert t.channel.last_message is None
    r = await t.carol.slash(
        t.channel, "odds", attackers="3 infantry, 1 tank", defenders="2 infantry", public=True
    )
    assert public(r)  # shared: a public follow-up in the channel
    assert "Odds" in t.channel.last_message.embeds[0].title + t.channel.last_message.embeds[0].description
    r = await t.carol.slash(t.channel, "odds", attackers="3 zeppelins", defenders="2 infantry")
    assert not public(r) and "infantry" in text_of(r)
    await seated(t)
    r = await t.carol.slash(t.channel, "luck")
    assert not public(r) and "dice" in text_of(r)
    r = await t.carol.slash(t.channel, "dice verify")
    assert text_of(r).strip() and "Traceback" not in text_of(r)


# --- admin -------------------------------------------------------------------------------------


async def test_admin_commands_owner_only_and_clear_about_what_exists(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "admin deadline", hours=24.0)
    assert not public(r) and "owner" in answer(r)
    r = await t.alice.slash(t.channel, "admin deadline", hours=24.0)
    assert public(r) and "<t:" in text_of(r)
    r = await t.alice.slash(t.channel, "admin pause")
    assert public(r)
    r = await t.alice.slash(t.channel, "admin resume")
    assert public(r)
    r = await t.bob.slash(t.channel, "admin substitute", power="Germany", member=t.carol)
    assert not public(r) and "owner" in answer(r)
    r = await t.alice.slash(t.channel, "admin substitute", power="Germany", member=t.carol)
    assert public(r) and "now plays Germany" in text_of(r)
    # P-1: carol now plays an Axis power, so she may not take an Allied one as well.
    r = await t.alice.slash(t.channel, "admin substitute", power="Soviet Union", member=t.carol)
    assert not public(r) and "P-1" in answer(r)
    r = await t.alice.slash(t.channel, "admin kick", member=t.carol)
    assert public(r) and "left Germany" in text_of(r)
    r = await t.alice.slash(t.channel, "admin kick", member=t.carol)
    assert not public(r) and "holds no seat" in answer(r)


# --- the error funnel ----------------------------------------------------------------------------


async def test_unexpected_errors_are_private_and_plain(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = table
    await seated(t)

    async def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals at line 42")

    monkeypatch.setattr(t.service, "handle", boom)
    r = await t.bob.slash(t.channel, "buy", units="1 infantry")
    assert not public(r)
    assert answer(r) == SOMETHING_WENT_WRONG
    assert "secret internals" not in answer(r)
    t.env.errors.clear()  # logged by the funnel; SimCord would re-raise it at teardown


async def test_mentions_never_ping_everyone_or_roles(table: Table) -> None:
    t = table
    await seated(t)
    await t.bob.slash(t.channel, "game join", power="@everyone")
    bodies = [c.json.get("data") or c.json for c in t.env.http_requests if isinstance(c.json, dict)]
    mentions = [b["allowed_mentions"] for b in bodies if "allowed_mentions" in b]
    assert mentions
    for am in mentions:
        assert "everyone" not in am.get("parse", []) and "roles" not in am.get("parse", [])


# --- autocomplete --------------------------------------------------------------------------------


async def test_autocomplete_names_are_filtered_and_at_most_25(table: Table) -> None:
    t = table
    choices = await t.alice.autocomplete(t.channel, "game map", "space", "")
    assert 0 < len(choices) <= 25
    choices = await t.alice.autocomplete(t.channel, "game map", "space", "sz5")
    assert choices[0]["value"] == "Sea Zone 5"
    await seated(t)
    choices = await t.bob.autocomplete(t.channel, "buy", "units", "3 infantry, 1 ta")
    assert any(c["value"] == "3 infantry, 1 tank" for c in choices)
    assert len(choices) <= 25


async def test_move_from_offers_spaces_with_movable_units(table: Table) -> None:
    t = table
    await seated(t)
    await end(t, t.bob)  # Soviet Union: to combat move
    choices = await t.bob.autocomplete(t.channel, "move", "from", "")
    values = [c["value"] for c in choices]
    assert 0 < len(values) <= 25
    assert "Archangel" in values  # Soviet infantry there can move
    to = await t.bob.autocomplete(t.channel, "move", "to", "", **{"from": "Archangel"})
    assert "West Russia" in [c["value"] for c in to]
    units = await t.bob.autocomplete(t.channel, "move", "units", "", **{"from": "Archangel"})
    assert any("infantry" in c["value"] for c in units)


async def test_join_autocomplete_prefers_open_seats(table: Table) -> None:
    t = table
    await t.alice.slash(t.channel, "game new")
    await t.alice.slash(t.channel, "game join", power="Germany")
    choices = [c["value"] for c in await t.bob.autocomplete(t.channel, "game join", "power", "")]
    assert choices[0] != "Germany" and "Soviet Union" in choices


def test_decision_texts_are_order_language() -> None:
    from rules import orders as od

    assert _views.order_text(od.Retreat(space="Ukraine", to="Eastern Europe")) == (
        "retreat Ukraine to Eastern Europe"
    )
    assert SECRET


async def test_map_images_are_attached_when_the_service_draws_them(table: Table) -> None:
    """Issue 6 wiring: with the render hook on, /game map attaches the map PNG and an order that
    ends a phase posts the new map with its record."""
    t = table
    t.bot.service.images = True
    await seated(t)
    r = await t.carol.slash(t.channel, "game map", space="Germany")
    assert not public(r)
    (png,) = r.response.attachments
    assert png.filename.endswith(".png")
    r = await end(t, t.bob)
    assert public(r)
    assert any(a.filename.endswith(".png") for a in public(r).attachments)
