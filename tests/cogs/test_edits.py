"""/admin edit through SimCord: the public proposal and its buttons, private refusals, the
edited message once decided, and clicks that still work after a restart."""

from __future__ import annotations

from typing import Any

from cogs._bot import UmpireBot
from tests.cogs.conftest import Table, answer, public, seated


def buttons(message: Any) -> list[tuple[str, str]]:
    """(label, custom_id) of each button: of an interaction's answer or a stored message."""
    out: list[tuple[str, str]] = []
    for row in message.components:
        if isinstance(row, dict):
            out += [(c["label"], c["custom_id"]) for c in row.get("components", [])
                    if c.get("type") == 2]
        else:
            out += [(c.label, c.custom_id) for c in row.children]
    return out


def proposals(t: Table) -> list[Any]:
    return [m for m in t.channel.history() if "proposed by" in (m.content or "")]


def message(t: Table, number: int) -> Any:
    (m,) = [m for m in proposals(t) if m.content.startswith(f"Edit #{number} ")]
    return m


async def propose(t: Table, change: str) -> Any:
    r = await t.alice.slash(t.channel, "admin edit", change=change)
    assert public(r), answer(r)
    return r


async def test_proposal_is_public_with_buttons_and_mentions_the_other_side(table: Table) -> None:
    t = table
    await seated(t)
    r = await propose(t, "add 2 inf in Germany")
    m = public(r)
    assert m.content.startswith(f"Edit #1 proposed by <@{t.alice.id}>: add 2 infantry in Germany "
                                "for Germany.")
    assert f"<@{t.bob.id}>, press Confirm or Reject" in m.content
    assert not m.embeds  # plain text, so the mention pings
    assert buttons(m) == [
        ("Confirm", "umpire:edit:g1:1:confirm"), ("Reject", "umpire:edit:g1:1:reject")]
    # Only bob's mention pings (he is asked); alice's names the proposer.
    stored = t.env.backend.get_message(t.channel.id, m.id)
    assert set(stored.ping_user_ids) == {t.bob.id}
    # The wrong people are refused privately; nothing changes, the buttons stay.
    r = await t.alice.click(message(t, 1), label="Confirm")
    assert not public(r) and "You cannot confirm this edit: you proposed it" in answer(r)
    r = await t.carol.click(message(t, 1), label="Confirm")
    assert not public(r) and "you hold no seat in this game" in answer(r)
    r = await t.carol.click(message(t, 1), label="Reject")
    assert not public(r) and "You cannot reject edit #1" in answer(r)
    assert len(buttons(message(t, 1))) == 2
    events = await t.service.store.load_events("g1")
    assert not any(s.event.type == "EditApplied" for s in events)


async def test_confirm_after_a_restart_applies_and_edits_the_message(table: Table) -> None:
    t = table
    await seated(t)
    before = sum(1 for u in (await t.service.state("g1")).units_in("Germany")
                 if u.type == "infantry")
    await propose(t, "add 2 infantry in Germany")
    # The bot restarts: a new process over the same games; the button must still answer.
    fresh = UmpireBot(t.service, sync=False, clock=t.clock, reminders=False)
    await t.env.restart_bot(fresh)
    r = await t.bob.click(message(t, 1), label="Confirm")
    assert public(r)
    edited = message(t, 1)
    assert edited.content.endswith(f"Applied: confirmed by <@{t.bob.id}>.")
    assert buttons(edited) == []
    (applied,) = [f for f in r.followups if f.embeds]
    assert applied.embeds[0].title == "Edit #1 applied"
    assert (f"Proposed by <@{t.alice.id}>, agreed by <@{t.bob.id}> for Soviet Union"
            in applied.embeds[0].description)
    after = sum(1 for u in (await t.service.state("g1")).units_in("Germany")
                if u.type == "infantry")
    assert after == before + 2
    r = await t.carol.slash(t.channel, "game history", n=1)
    assert "Edit #1: add 2 infantry in Germany for Germany" in (
        public(r).embeds[0].description if public(r).embeds else answer(r))


async def test_reject_and_stale_clicks(table: Table) -> None:
    t = table
    await seated(t)
    await propose(t, "money Germany 50")
    r = await t.bob.click(message(t, 1), label="Reject")
    assert public(r)
    assert message(t, 1).content.endswith(f"Rejected by <@{t.bob.id}>; nothing changed.")
    assert buttons(message(t, 1)) == []
    # A proposal decided by a typed line: the click says what happened and closes the message.
    await propose(t, "money Germany 60")
    ok = await t.service.submit("g1", str(t.bob.id), "edit confirm 2")
    assert ok.ok, ok.error
    r = await t.bob.click(message(t, 2), label="Confirm")
    assert not public(r)
    assert answer(r) == f"Edit #2 was already applied (confirmed by <@{t.bob.id}>)."
    assert message(t, 2).content.endswith(f"Applied: confirmed by <@{t.bob.id}>.")
    assert buttons(message(t, 2)) == []
    assert (await t.service.state("g1")).treasury["Germany"] == 60


async def test_who_may_propose_and_bad_changes(table: Table) -> None:
    t = table
    await seated(t)
    r = await t.bob.slash(t.channel, "admin edit", change="money Germany 1")
    assert not public(r) and "Only the game's owner" in answer(r)
    r = await t.alice.slash(t.channel, "admin edit", change="add 2 infantry in Germny")
    assert not public(r) and "Did you mean: Germany?" in answer(r)
    r = await t.alice.slash(t.channel, "admin edit", change="add 1 battleship in Germany")
    assert not public(r) and "A battleship is a ship" in answer(r)
    r = await t.alice.slash(t.channel, "admin edit", change="confirm 1")
    assert not public(r) and "buttons" in answer(r)
    r = await t.alice.slash(t.channel, "admin edit", change="add")
    assert not public(r) and "'/admin edit change:add <units> in <space>" in answer(r)
    assert proposals(t) == []
