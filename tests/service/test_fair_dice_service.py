"""Fair dice through the service: commitment at creation, reveals, ``dice verify``, exports."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from rules import dice as dc
from rules import events as ev
from rules.position import state_json
from service import fair
from service.games import GameService, ServiceError
from tests.fair_game import POSITION, SECRET, ok, play_until, played, seated, service
from tools import verify_dice as vd


def of_type(events: list[ev.Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


async def log(svc: GameService, game: str) -> list[ev.Event]:
    return [s.event for s in await svc.store.load_events(game)]


# --------------------------------------------------------------------------------------------
# Commitment, entropy, reveals


async def test_commitment_is_published_at_creation_before_anyone_joins() -> None:
    svc = service()
    r = ok(await svc.handle("room", "alice", "game new 1941"))
    assert r.game is not None
    committed = fair.chain_commitment(SECRET, 0, dc.CHAIN_LENGTH)
    assert r.game.commitment == committed and committed in r.answer
    game = r.game.id
    for p, who in (("Germany", "alice"), ("Japan", "alice"), ("Soviet Union", "bob"),
                   ("United Kingdom", "bob"), ("United States", "bob")):
        ok(await svc.handle("room", who, f"game join {p} my phrase for {p}"))
    started = ok(await svc.handle("room", "alice", "game start"))
    assert [type(e).__name__ for e in started.events[:3]] == [
        "GameStarted", "DiceCommitted", "DiceEntropyFixed"]
    c, fixed = started.events[1], started.events[2]
    assert isinstance(c, ev.DiceCommitted) and isinstance(fixed, ev.DiceEntropyFixed)
    assert (c.scheme, c.game_id, c.commitment, c.chain_length, c.first_round) == (
        dc.FAIR_SCHEME, game, committed, dc.CHAIN_LENGTH, 1)
    assert c.master == dc.master_commitment(SECRET)
    assert fixed.phrases["Japan"] == dc.phrase_hash("my phrase for Japan")
    assert len(fixed.phrases) == 5
    text = json.dumps(await svc.export(game))
    assert "my phrase" not in text  # phrases are logged as their hashes only
    assert "Fair dice for rounds 1 to 100" in started.answer


async def test_the_commitment_does_not_depend_on_the_phrases() -> None:
    plain, mixed = service(), service()
    g1 = await seated(plain)
    g2 = await seated(mixed, phrases={"Germany": "blitz", "United States": "arsenal"})
    c1 = of_type(await log(plain, g1), ev.DiceCommitted)[0]
    c2 = of_type(await log(mixed, g2), ev.DiceCommitted)[0]
    assert c1.commitment == c2.commitment
    # ... but the phrases change every die
    await play_until(plain, g1, 2)
    await play_until(mixed, g2, 2)
    faces = [[g[2] for e in of_type(await log(s, g), ev.DiceRolled) for g in e.groups]
             for s, g in ((plain, g1), (mixed, g2))]
    assert faces[0] != faces[1]


async def test_same_secret_and_orders_give_the_same_game() -> None:
    (a, ga), (b, gb) = await played(3), await played(3)
    assert ga == gb
    la = [ev.event_to_json(e) for e in await log(a, ga)]
    lb = [ev.event_to_json(e) for e in await log(b, gb)]
    assert la == lb and any(e["type"] == "DiceRolled" for e in la)
    assert state_json(await a.state(ga)) == state_json(await b.state(gb))
    (c, gc) = await played(3, secret=bytes(32))
    assert [ev.event_to_json(e) for e in of_type(await log(c, gc), ev.DiceCommitted)] != [
        e for e in la if e["type"] == "DiceCommitted"]


async def test_each_round_seed_is_revealed_when_the_next_round_starts() -> None:
    svc, game = await played(2)
    events = await log(svc, game)
    reveals = of_type(events, ev.DiceSeedRevealed)
    assert [(r.round, r.master) for r in reveals] == [(1, "")]
    chain = dc.make_chain(dc.chain_top(SECRET, 0), dc.CHAIN_LENGTH)
    assert reveals[0].seed == chain[1].hex()
    # in the same order as the round's start, after it
    i = events.index(reveals[0])
    assert any(isinstance(e, ev.TurnStarted) and e.round == 2 for e in events[i - 4 : i])
    # nothing of round 2 is out: neither its seed nor the master
    text = json.dumps(await svc.export(game))
    assert chain[1].hex() in text
    assert chain[2].hex() not in text and SECRET.hex() not in text


async def test_a_game_longer_than_its_chain_commits_to_the_next_one() -> None:
    svc, game = await played(4, chain_length=1)
    events = await log(svc, game)
    commits = of_type(events, ev.DiceCommitted)
    assert [(c.epoch, c.first_round) for c in commits] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert commits[1].commitment == fair.chain_commitment(SECRET, 1, 1)
    r = ok(await svc.verify_dice(game))
    assert "Round 1 (chain 1): 9 dice in 4 rolls verified" in r.answer
    assert re.search(r"Round 2 \(chain 2\): \d+ dice in \d+ rolls verified", r.answer)


async def test_game_end_reveals_the_last_seed_and_the_master() -> None:
    position = {**POSITION, "power": "United States", "phase": "mobilize",
                "owners": {"Russia": "Germany", "United Kingdom": "Germany"}}
    svc = service()
    game = await seated(svc, position=position)
    r = ok(await svc.submit(game, "bob", "end"))
    kinds = [type(e).__name__ for e in r.events]
    assert "GameWon" in kinds and kinds[-1] == "DiceSeedRevealed"
    last = r.events[-1]
    assert isinstance(last, ev.DiceSeedRevealed) and last.master == SECRET.hex()
    v = ok(await svc.verify_dice(game))
    assert "Round 1: 0 dice in 0 rolls verified" in v.answer
    assert "master secret revealed at event" in v.answer
    doc = json.loads(json.dumps(await svc.export(game)))
    good, lines = vd.verify(doc)
    assert good and any(line.startswith("The master secret revealed") for line in lines)
    # a master that does not give the commitment is caught, even in a rehashed log
    doc["events"][-1]["master"] = bytes(32).hex()
    prev = game
    for e in doc["events"]:
        body = {k: v for k, v in e.items() if k not in ("seq", "hash")}
        prev = e["hash"] = hashlib.sha256(prev.encode() + vd.canonical(body)).hexdigest()
    doc["log"]["head"] = prev
    good, lines = vd.verify(doc)
    assert not good and "is not the one any commitment names" in lines[-2]


# --------------------------------------------------------------------------------------------
# dice verify


async def test_dice_verify_after_a_round_with_a_battle() -> None:
    svc, _ = await played(2)
    r = ok(await svc.handle("chan", "carol", "dice verify"))  # anyone may ask
    lines = r.answer.splitlines()
    assert lines[0] == "Round 1: 9 dice in 4 rolls verified; seed links to the commitment."
    assert re.fullmatch(r"Log hash after event #\d+: [0-9a-f]{64}\.", lines[-1])
    assert r.data is not None and r.data["rounds"][0]["dice"] == 9
    assert ok(await svc.handle("chan", "carol", "dice verify 1")).answer.startswith("Round 1: 9")
    later = await svc.handle("chan", "carol", "dice verify 2")
    assert not later.ok and "Round 2 is not revealed yet" in (later.error or "")


async def test_dice_verify_before_any_round_ends() -> None:
    svc = service()
    game = (await svc.create("chan", "alice", "1941")).id
    r = ok(await svc.verify_dice(game))
    assert "has not started" in r.answer
    svc2 = service()
    game = await seated(svc2)
    ok(await svc2.submit(game, "alice", "move 2 infantry, 1 tank from Eastern Europe to Ukraine"))
    ok(await svc2.submit(game, "alice", "end"))
    ok(await svc2.submit(game, "alice", "battle Ukraine all"))
    r = ok(await svc2.verify_dice(game))
    assert r.answer.startswith("No round is over yet")
    assert "Round 1: 9 dice in 4 rolls, not revealed yet" in r.answer


async def test_dice_verify_reports_exactly_what_failed() -> None:
    svc, game = await played(2)
    stored = svc.store._games[game].events  # type: ignore[attr-defined]
    i = next(i for i, s in enumerate(stored) if isinstance(s.event, ev.DiceRolled))
    e = stored[i].event
    assert isinstance(e, ev.DiceRolled)
    (utype, value, faces), *rest = e.groups
    changed = (faces[0] % 6 + 1, *faces[1:])
    stored[i] = stored[i].__class__(
        seq=stored[i].seq, order=stored[i].order,
        event=e.model_copy(update={"groups": ((utype, value, changed), *rest)}),
    )
    r = await svc.verify_dice(game)
    assert not r.ok
    assert (r.error or "").startswith(
        f"Round 1: event #{i + 1} DiceRolled in Ukraine (battle round 1, attacker, group 1: "
        f"{len(faces)} {utype}) shows"
    )


async def test_scripted_games_are_marked_and_not_verified() -> None:
    svc = GameService(allow_scripted_dice=True)
    game = await seated(svc, dice=[6, 6, 6, 1, 1, 2, 2, 2, 2, 2])
    events = await log(svc, game)
    c = events[1]
    assert isinstance(c, ev.DiceCommitted) and c.scheme == "scripted"
    assert c.faces == (6, 6, 6, 1, 1, 2, 2, 2, 2, 2)
    await play_until(svc, game, 1)
    ok(await svc.submit(game, "alice", "move 2 infantry, 1 tank from Eastern Europe to Ukraine"))
    ok(await svc.submit(game, "alice", "end"))
    ok(await svc.submit(game, "alice", "battle Ukraine all"))
    r = await svc.handle("chan", "alice", "dice verify")
    assert not r.ok and "scripted" in (r.error or "") and "not fair" in (r.error or "")
    assert not any(isinstance(e, ev.DiceSeedRevealed) for e in await log(svc, game))


async def test_scripted_dice_are_refused_where_not_allowed() -> None:
    with pytest.raises(ServiceError, match="local table and tests only"):
        await GameService().create("c", "alice", "1941", dice=[1, 2, 3])
    r = await GameService(scripted_dice=[1, 2]).handle("c", "alice", "game new 1941")
    assert not r.ok and "local table and tests only" in (r.error or "")
    doc = await _scripted_export()
    with pytest.raises(ServiceError, match="local table and tests only"):
        await GameService().import_(doc, unverified=True)
    assert (await GameService(allow_scripted_dice=True).import_(doc, unverified=True)).dice == "scripted"


async def _scripted_export() -> dict[str, Any]:
    svc = GameService(allow_scripted_dice=True)
    game = await seated(svc, dice=[1, 2, 3])
    return dict(json.loads(json.dumps(await svc.export(game))))


# --------------------------------------------------------------------------------------------
# Export and import


async def test_export_carries_the_log_hash_chain() -> None:
    svc, game = await played(2)
    doc = await svc.export(game)
    events = doc["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    bodies = [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in events]
    prev = game
    for e, body in zip(events, bodies, strict=True):
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        prev = hashlib.sha256((prev + text).encode()).hexdigest()
        assert e["hash"] == prev
    assert doc["log"]["head"] == prev and doc["log"]["start"] == game
    assert doc["game"]["dice"]["commitment"] == fair.chain_commitment(SECRET, 0, dc.CHAIN_LENGTH)
    assert fair.first_broken_link(game, events) is None


async def test_import_of_a_fair_game_commits_afresh_and_goes_on() -> None:
    svc, game = await played(2)
    doc = json.loads(json.dumps(await svc.export(game)))
    other = service(secret=bytes([7]) * 32)
    info = await other.import_(doc, channel="elsewhere", unverified=True)
    assert state_json(await other.state(info.id)) == state_json(await svc.state(game))
    events = await log(other, info.id)
    last = events[-1]
    assert isinstance(last, ev.DiceCommitted) and last.game_id == info.id
    assert last.first_round == 2 and last.commitment == fair.chain_commitment(bytes([7]) * 32,
                                                                              0, dc.CHAIN_LENGTH)
    assert (await other.store.orders(info.id))[-1].text == (
        "dice committed (imported game; unverified copy of g1)")
    assert not (await other.undo(info.id, "bob")).ok
    await play_until(other, info.id, 3)
    r = ok(await other.verify_dice(info.id))
    assert "Round 1 (chain 1): 9 dice in 4 rolls verified" in r.answer
    assert re.search(r"Round 2 \(chain 2\): \d+ dice in \d+ rolls verified", r.answer)


async def test_import_refuses_an_export_whose_hash_chain_breaks() -> None:
    svc, game = await played(2)
    doc = json.loads(json.dumps(await svc.export(game)))
    doc["events"][4]["power"] = "Japan" if doc["events"][4].get("power") else None
    with pytest.raises(ServiceError, match=r"event #5 \(\w+\) does not match"):
        await service().import_(doc, unverified=True)


def test_an_order_may_not_roll_after_starting_a_new_round() -> None:
    rolled = ev.DiceRolled(space="Ukraine", round=1, side="attacker", purpose="x",
                           groups=(("infantry", 1, (1,)),), hits=1)
    assert not fair.rolled_after_new_round([rolled, ev.TurnStarted(round=2, power="X")], 1)
    assert fair.rolled_after_new_round([ev.TurnStarted(round=2, power="X"), rolled], 1)
