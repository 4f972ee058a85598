"""A game's whole life in the service: leave, cancel, concede, draw, the games of a server."""

from __future__ import annotations

import pytest

from rules import events as ev
from service.games import GameService

SECRET = bytes(range(32))
AXIS = ("Germany", "Japan")


def svc() -> GameService:
    return GameService(draw_secret=lambda: SECRET)


async def lobby(s: GameService, chan: str = "c1", guild: str = "G") -> str:
    r = await s.handle(chan, "alice", "game new 1941", guild=guild)
    assert r.ok, r.error
    assert r.game is not None and r.game.guild == guild
    return r.game.id


async def started(s: GameService, chan: str = "c1", *, carol: bool = False) -> str:
    """alice holds the Axis; bob the Allies (carol holds the United States if ``carol``)."""
    game = await lobby(s, chan)
    for p in AXIS:
        assert (await s.handle(chan, "alice", f"game join {p}")).ok
    assert (await s.handle(chan, "bob", "game join Soviet Union")).ok
    assert (await s.handle(chan, "bob", "game join United Kingdom")).ok
    assert (await s.handle(chan, "carol" if carol else "bob", "game join United States")).ok
    r = await s.handle(chan, "alice", "game start")
    assert r.ok, r.error
    return game


async def events_of(s: GameService, game: str) -> list[ev.Event]:
    return [x.event for x in await s.store.load_events(game)]


async def test_leave_before_start_opens_the_seats() -> None:
    s = svc()
    game = await lobby(s)
    await s.handle("c1", "alice", "game join Germany")
    await s.handle("c1", "alice", "game join Japan")
    r = await s.handle("c1", "alice", "game leave")
    assert r.ok and "alice leaves Germany and Japan" in r.answer
    assert "Germany" in r.answer.splitlines()[1]  # open again
    assert (await s.info(game)).seats == {}
    r = await s.handle("c1", "carol", "game leave")
    assert not r.ok and "hold no seat" in (r.error or "")
    # The seat can be taken by someone else now.
    assert (await s.handle("c1", "bob", "game join Germany")).ok


async def test_leave_after_start_is_refused_with_what_to_do() -> None:
    s = svc()
    game = await started(s)
    before = await s.info(game)
    r = await s.handle("c1", "alice", "game leave")
    assert not r.ok
    assert "substitute" in (r.error or "") and "game concede" in (r.error or "")
    assert await s.info(game) == before


async def test_owner_cancels_in_the_lobby_and_the_channel_is_free() -> None:
    s = svc()
    game = await lobby(s)
    r = await s.handle("c1", "bob", "game cancel")
    assert not r.ok and "owner" in (r.error or "") and "game leave" in (r.error or "")
    assert (await s.info(game)).status == "lobby"
    r = await s.handle("c1", "alice", "game cancel")
    assert r.ok and "cancelled" in r.answer
    assert (await s.info(game)).status == "cancelled"
    for line in ("game start", "game join Germany", "buy 1 infantry"):
        refused = await s.handle("c1", "alice", line)
        assert not refused.ok and "game new" in (refused.error or ""), line
    r = await s.handle("c1", "bob", "game new 1941", guild="G")
    assert r.ok and r.game is not None and r.game.id != game
    listed = await s.handle("c1", "bob", "game list all", guild="G")
    assert [g["status"] for g in (listed.data or {})["games"]] == ["cancelled", "lobby"]
    live = await s.handle("c1", "bob", "game list", guild="G")
    assert [g["id"] for g in (live.data or {})["games"]] == [r.game.id]


async def test_cancel_after_start_needs_every_player_and_reveals_the_master() -> None:
    s = svc()
    game = await started(s)
    r = await s.handle("c1", "carol", "game cancel")
    assert not r.ok and "seated players" in (r.error or "")
    r = await s.handle("c1", "alice", "game cancel")
    assert r.ok and "Still needed: bob" in r.answer
    assert (r.data or {})["ended"] is False
    again = await s.handle("c1", "alice", "game cancel")  # a vote counts once
    assert "1 of 2" in again.answer
    r = await s.handle("c1", "bob", "game cancel")
    assert r.ok and (r.data or {})["ended"] is True
    assert "cancelled by the vote of every player" in r.answer
    assert (await s.info(game)).status == "cancelled"
    log = await events_of(s, game)
    ended = [e for e in log if isinstance(e, ev.GameEnded)]
    assert ended == [ev.GameEnded(result="cancelled", powers=tuple(
        ["Soviet Union", "Germany", "United Kingdom", "Japan", "United States"]))]
    assert isinstance(log[-1], ev.DiceSeedRevealed) and log[-1].master == SECRET.hex()
    verified = await s.handle("c1", "carol", "dice verify")
    assert verified.ok, verified.error
    r = await s.handle("c1", "bob", "buy 1 infantry")
    assert not r.ok and "cancelled" in (r.error or "")
    assert "cancelled" in (await s.handle("c1", "carol", "game history 3")).answer
    assert any(e["type"] == "GameEnded" for e in (await s.export(game))["events"])


async def test_withdraw_a_vote() -> None:
    s = svc()
    game = await started(s)
    r = await s.handle("c1", "alice", "game draw withdraw")
    assert not r.ok and "not voted" in (r.error or "")
    await s.handle("c1", "alice", "game draw")
    r = await s.handle("c1", "alice", "game draw withdraw")
    assert r.ok and "withdraws" in r.answer and "0 of 2" in r.answer
    r = await s.handle("c1", "bob", "game draw")
    assert r.ok and "Still needed: alice" in r.answer
    assert (await s.info(game)).status == "active"


async def test_concede_needs_every_holder_of_the_side() -> None:
    s = svc()
    game = await started(s, carol=True)
    r = await s.handle("c1", "bob", "game concede")
    assert r.ok and "to concede for the Allies" in r.answer and "Still needed: carol" in r.answer
    assert (await s.info(game)).status == "active"
    r = await s.handle("c1", "carol", "game concede")
    assert r.ok and "The Axis won the game: the other side conceded." in r.answer
    state = await s.state(game)
    assert state.winner == "Axis"
    log = await events_of(s, game)
    assert ev.SideConceded(side="Allies", powers=("Soviet Union", "United Kingdom",
                                                  "United States")) in log
    assert ev.GameWon(side="Axis", rule="concession", capitals=()) in log
    assert (await s.info(game)).status == "finished"
    verified = await s.handle("c1", "alice", "dice verify")
    assert verified.ok, verified.error
    assert "master secret" in verified.answer


async def test_draw_by_unanimous_vote_and_dice_verify() -> None:
    s = svc()
    game = await started(s)
    assert (await s.handle("c1", "bob", "buy 1 infantry")).ok
    await s.handle("c1", "alice", "game draw")
    r = await s.handle("c1", "bob", "game draw")
    assert r.ok and "in a draw" in r.answer and "Game over: a draw." in r.answer
    assert (await s.state(game)).ended == "draw" and (await s.state(game)).winner is None
    assert (await s.info(game)).status == "finished"
    assert (await s.handle("c1", "carol", "dice verify")).ok
    # Over: no more votes, no more orders, and the channel can start a new game.
    r = await s.handle("c1", "alice", "game concede")
    assert not r.ok and "draw" in (r.error or "")
    assert (await s.handle("c1", "alice", "game new 1941", guild="G")).ok


async def test_votes_before_the_start_are_refused() -> None:
    s = svc()
    await lobby(s)
    for word in ("concede", "draw"):
        r = await s.handle("c1", "alice", f"game {word}")
        assert not r.ok and "not started" in (r.error or "") and "game leave" in (r.error or "")


async def test_list_and_mine_per_server() -> None:
    s = svc()
    game = await started(s, "c1")
    await lobby(s, "c2")
    await lobby(s, "c3", guild="other")
    await s.set_deadline(game, "alice", "24h")
    r = await s.handle("c9", "bob", "game list", guild="G")
    rows = (r.data or {})["games"]
    assert [g["channel"] for g in rows] == ["c1", "c2"]
    assert rows[0]["round"] == 1 and rows[0]["waiting"][0]["power"] == "Soviet Union"
    assert rows[0]["waiting"][0]["person"] == "bob" and rows[0]["deadline"]
    assert "round 1, waiting for Soviet Union (bob)" in r.answer
    mine = await s.handle("c9", "bob", "game mine", guild="G")
    (row,) = (mine.data or {})["games"]
    assert row["powers"] == ["Soviet Union", "United Kingdom", "United States"]
    assert [w["power"] for w in row["awaited"]] == ["Soviet Union"]
    alice = await s.handle("c9", "alice", "game mine", guild="G")
    awaited = {g["channel"]: g["awaited"] for g in (alice.data or {})["games"]}
    assert awaited["c1"] == [] and "game start" in awaited["c2"][0]["what"]
    await s.handle("c1", "bob", "game cancel")
    alice = await s.handle("c9", "alice", "game mine", guild="G")
    awaited = {g["channel"]: g["awaited"] for g in (alice.data or {})["games"]}
    assert "a vote to cancel" in awaited["c1"][0]["what"]
    nobody = await s.handle("c9", "dave", "game mine", guild="G")
    assert nobody.ok and "no seat" in nobody.answer


@pytest.mark.parametrize("line", ["game cancel now", "game list everything", "game leave x"])
async def test_bad_words_are_refused(line: str) -> None:
    s = svc()
    await lobby(s)
    r = await s.handle("c1", "alice", line)
    assert not r.ok and r.kind == "parse" and "'game " in (r.error or "")
    assert (await s.info(r.game.id if r.game else "")).status == "lobby"
