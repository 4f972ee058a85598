"""Game-master edits through the service (memory store): who proposes, who may confirm or
reject, the re-check at confirmation, stale answers, history, export/import, dice and undo."""

from __future__ import annotations

import asyncio
from typing import Any

from rules import events as ev
from service import edits
from service.games import GameService
from service.store import MemoryStore
from tests.service.test_games import ALLIES, seated


async def test_owner_proposes_other_side_confirms_and_the_log_says_so() -> None:
    svc = GameService()
    g = await seated(svc)
    before = (await svc.state(g)).treasury["Germany"]
    r = await svc.submit(g, "alice", "edit money Germany 50")
    assert r.ok and r.data is not None, r.error
    assert r.data["edit"]["confirmers"] == ["bob"] and r.data["edit"]["status"] == "pending"
    assert "bob may confirm it with 'edit confirm 1'" in r.answer
    assert (await svc.state(g)).treasury["Germany"] == before  # nothing yet
    # The proposer's own side may not confirm; nor may a stranger.
    r = await svc.submit(g, "alice", "edit confirm 1")
    assert not r.ok and "you proposed it" in (r.error or "")
    r = await svc.submit(g, "carol", "edit confirm 1")
    assert not r.ok and "you hold no seat" in (r.error or "")
    r = await svc.submit(g, "bob", "edit confirm 1")
    assert r.ok, r.error
    assert "Proposed by alice, agreed by bob for Soviet Union, United Kingdom, United States" \
        in r.answer
    assert (await svc.state(g)).treasury["Germany"] == 50
    # Stale: it says what happened.
    r = await svc.submit(g, "bob", "edit confirm 1")
    assert not r.ok and r.error == "Edit #1 was already applied (confirmed by bob)."
    hist = await svc.submit(g, "carol", "game history 1")
    assert "Edit #1: Germany's treasury set to 50 IPCs" in hist.answer
    doc = await svc.export(g)
    last = doc["events"][-1]
    assert last["type"] == "EditApplied" and last["proposer"] == "alice"
    assert last["agreed"] == "bob" and last["hash"] == doc["log"]["head"]
    assert doc["orders"][-1]["text"] == "edit confirm 1: edit money Germany 50"
    # The export replays, edit included, in another service.
    other = GameService(allow_scripted_dice=True)
    info = await other.import_(doc, channel="elsewhere", unverified=True)
    assert (await other.state(info.id)).treasury["Germany"] == 50


async def test_only_the_owner_proposes_and_bad_edits_change_nothing() -> None:
    svc = GameService()
    g = await seated(svc)
    r = await svc.submit(g, "bob", "edit money Germany 50")
    assert not r.ok and "Only the game's owner (alice)" in (r.error or "")
    r = await edits.propose(svc, g, "bob", (await _change("edit money Germany 5")), admin=True)
    assert r.ok  # a front end vouches for a server manager
    r = await svc.submit(g, "alice", "edit add 1 battleship in Germany")
    assert not r.ok and "Cannot edit: A battleship is a ship" in (r.error or "")
    r = await svc.submit(g, "alice", "edit confirm 9")
    assert not r.ok and "no edit #9" in (r.error or "")
    listed = await svc.submit(g, "carol", "edit list")
    assert "#1 edit money Germany 5 (proposed by bob; waiting for the other side)" in listed.answer


async def _change(text: str) -> object:
    from service import language as ps

    cmd = ps.parse(text, ps.names_for("a1941"))
    assert isinstance(cmd, ps.EditPropose)
    return cmd.change


async def test_a_proposer_without_a_seat_needs_any_other_seated_player() -> None:
    svc = GameService()
    info = await svc.create("chan", "olga", "1941")
    for p in ("Germany", "Japan"):
        assert (await svc.join(info.id, "alice", p)).ok
    for p in ALLIES:
        assert (await svc.join(info.id, "bob", p)).ok
    assert (await svc.start(info.id, "olga")).ok
    r = await svc.submit(info.id, "olga", "edit money Japan 1")
    assert r.ok and r.data is not None and r.data["edit"]["confirmers"] == ["bob", "alice"]
    r = await svc.submit(info.id, "alice", "edit confirm 1")
    assert r.ok, r.error
    assert "agreed by alice for Germany, Japan" in r.answer


async def test_confirm_checks_again_and_reject_drops() -> None:
    svc = GameService()
    g = await seated(svc)
    r = await svc.submit(g, "alice", "edit add 2 infantry in West Russia for Soviet Union")
    assert not r.ok and "held by Germany, an enemy of Soviet Union" in (r.error or "")
    assert (await svc.submit(g, "alice", "edit remove 1 tank from Caucasus")).ok  # #1
    assert (await svc.submit(g, "alice", "edit remove 1 tank from Caucasus")).ok  # #2
    assert (await svc.submit(g, "bob", "edit confirm 1")).ok
    # The Caucasus had one tank: #2 no longer applies, and says so; it stays open.
    r = await svc.submit(g, "bob", "edit confirm 2")
    assert not r.ok and r.error is not None
    assert r.error.startswith("Edit #2 no longer applies: Soviet Union has no tank in Caucasus")
    assert "It stays open" in r.error
    r = await svc.submit(g, "carol", "edit reject 2")
    assert not r.ok and "its proposer, the game's owner or a player of the other side" in (
        r.error or "")
    r = await svc.submit(g, "alice", "edit reject 2")
    assert r.ok and "Edit #2 rejected by alice" in r.answer
    r = await svc.submit(g, "bob", "edit confirm 2")
    assert not r.ok and r.error == "Edit #2 was already rejected (rejected by alice)."


async def test_the_game_moves_on_between_proposal_and_confirmation() -> None:
    svc = GameService()
    g = await seated(svc)
    assert (await svc.submit(g, "alice", "edit add 1 infantry in Caucasus")).ok
    assert (await svc.submit(g, "bob", "buy 1 infantry")).ok
    r = await svc.submit(g, "bob", "edit confirm 1")
    assert r.ok and "The game moved on since edit #1 was proposed" in r.answer
    # Undo does not take back an edit, and does not reach past one.
    r = await svc.submit(g, "bob", "undo")
    assert not r.ok and "Undo never takes back an edit" in (r.error or "")


async def test_dice_verify_passes_on_a_game_with_edits() -> None:
    svc = GameService(draw_secret=lambda: bytes(range(32)))
    g = await seated(svc)
    assert (await svc.submit(g, "alice", "edit money Soviet Union 40")).ok
    assert (await svc.submit(g, "bob", "edit confirm 1")).ok
    # Play the Soviet turn on to the next power's turn, rolling real dice in a battle.
    for line in ("end confirm", "move 3 infantry from Karelia to West Russia", "end",
                 "battle West Russia all"):
        r = await svc.submit(g, "bob", line)
        assert r.ok, (line, r.error)
    for _ in range(20):
        state = await svc.state(g)
        if state.round > 1:
            break
        who = "bob" if state.power in ALLIES else "alice"
        r = await svc.submit(g, who, "end confirm")
        assert r.ok, r.error
    r = await svc.submit(g, "carol", "dice verify")
    assert r.ok, r.error
    assert "Round 1" in r.answer


async def test_memory_store_racing_confirmations_apply_once() -> None:
    store = MemoryStore()
    svc = GameService(store)
    info = await svc.create("chan", "alice", "1941")
    for p in ("Germany", "Japan"):
        await svc.join(info.id, "alice", p)
    for p in ("Soviet Union", "United Kingdom", "United States"):
        await svc.join(info.id, "bob", p)
    assert (await svc.start(info.id, "alice")).ok
    assert (await svc.submit(info.id, "alice", "edit money Germany 77")).ok
    real = store.apply_edit
    barrier = asyncio.Barrier(2)

    async def gated(*args: Any, **kw: Any) -> Any:  # both have read and decided first
        await barrier.wait()
        return await real(*args, **kw)

    store.apply_edit = gated  # type: ignore[method-assign]
    ra, rb = await asyncio.gather(svc.submit(info.id, "bob", "edit confirm 1"),
                                  svc.submit(info.id, "bob", "edit confirm 1"))
    assert sorted([ra.ok, rb.ok]) == [False, True]
    events = await store.load_events(info.id)
    assert sum(isinstance(s.event, ev.EditApplied) for s in events) == 1
