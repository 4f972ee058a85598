"""GameService: seats, start, who may act, undo, optimistic concurrency, export/import."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from rules import events as ev
from rules import orders as od
from rules.position import state_json
from service.games import NOT_SEATED, GameService, Result, ServiceError
from service.store import DiceSpec, MemoryStore, StateMovedOn, StoredEvent

AXIS = ("Germany", "Japan")
ALLIES = ("Soviet Union", "United Kingdom", "United States")

# Germany attacks a lone Soviet infantry in Ukraine from Eastern Europe (Combat Move).
POSITION: dict[str, Any] = {
    "edition": "1941",
    "round": 1,
    "power": "Germany",
    "phase": "combat_move",
    "owners": {"Ukraine": "Soviet Union"},
    "units": {
        "Ukraine": {"Soviet Union": {"infantry": 1}},
        "Eastern Europe": {"Germany": {"infantry": 2, "tank": 1}},
    },
}
ATTACK = "move 2 infantry, 1 tank from Eastern Europe to Ukraine"


async def seated(
    svc: GameService,
    *,
    dice: list[int] | None = None,
    position: dict[str, Any] | None = None,
    start: bool = True,
) -> str:
    """A game with alice on the Axis and bob on the Allies; started unless told not to."""
    if dice is not None:
        svc.allow_scripted_dice = True  # tests are a front end that may script the dice
    info = await svc.create("chan", "alice", "1941", dice=dice, position=position)
    for p in AXIS:
        assert (await svc.join(info.id, "alice", p)).ok
    for p in ALLIES:
        assert (await svc.join(info.id, "bob", p)).ok
    if start:
        r = await svc.start(info.id, "alice")
        assert r.ok, r.error
    return info.id


async def log_of(svc: GameService, game: str) -> list[StoredEvent]:
    return await svc.store.load_events(game)


def ok(r: Result) -> Result:
    assert r.ok, r.error
    return r


# --------------------------------------------------------------------------------------------
# Lobby: join and start


async def test_create_resolves_edition_and_refuses_unknown() -> None:
    svc = GameService()
    info = await svc.create("c1", "alice", "1941")
    assert info.edition == "a1941" and info.status == "lobby" and info.dice == "fair"
    assert len(info.commitment) == 64
    with pytest.raises(ServiceError, match="Unknown edition"):
        await svc.create("c2", "alice", "1066")
    with pytest.raises(ServiceError, match="already has game"):
        await svc.create("c1", "bob", "1941")


async def test_join_one_side_per_person_and_taken_seats() -> None:
    svc = GameService()
    game = (await svc.create("c", "alice", "1941")).id
    ok(await svc.join(game, "alice", "germany"))  # case-insensitive
    ok(await svc.join(game, "alice", "Japan"))  # same side: fine
    r = await svc.join(game, "alice", "Soviet Union")
    assert not r.ok and "P-1" in (r.error or "") and "Allies" in (r.error or "")
    r = await svc.join(game, "bob", "Germany")
    assert not r.ok and r.error == "Germany is taken by alice."
    r = await svc.join(game, "bob", "Atlantis")
    assert not r.ok and "Unknown power" in (r.error or "")
    again = ok(await svc.join(game, "alice", "Germany"))
    assert "already hold" in again.answer
    assert (await svc.info(game)).seats == {"Germany": "alice", "Japan": "alice"}


async def test_start_owner_only_and_every_power_seated() -> None:
    svc = GameService()
    game = (await svc.create("c", "alice", "1941")).id
    ok(await svc.join(game, "alice", "Germany"))
    ok(await svc.join(game, "bob", "Soviet Union"))
    r = await svc.start(game, "bob")
    assert not r.ok and "owner (alice)" in (r.error or "")
    r = await svc.start(game, "alice")
    assert not r.ok
    assert "United Kingdom, Japan and United States" in (r.error or "")
    assert await log_of(svc, game) == []
    for p in ("Japan",):
        ok(await svc.join(game, "alice", p))
    for p in ("United Kingdom", "United States"):
        ok(await svc.join(game, "bob", p))
    started = ok(await svc.start(game, "alice"))
    assert isinstance(started.events[0], ev.GameStarted)
    assert "Waiting for: Soviet Union" in started.answer
    assert (await svc.info(game)).status == "active"
    r = await svc.join(game, "carol", "Germany")
    assert not r.ok and "started" in (r.error or "")
    assert not (await svc.start(game, "alice")).ok


async def test_orders_before_start_are_refused() -> None:
    svc = GameService()
    game = await seated(svc, start=False)
    r = await svc.submit(game, "bob", "buy 1 infantry")
    assert not r.ok and "not started" in (r.error or "")


# --------------------------------------------------------------------------------------------
# Who acts


async def test_not_seated_person_is_refused_and_nothing_changes() -> None:
    svc = GameService()
    game = await seated(svc)
    before = await log_of(svc, game)
    r = await svc.submit(game, "carol", "buy 1 infantry")
    assert not r.ok and r.error == NOT_SEATED
    assert await log_of(svc, game) == before


async def test_wrong_power_gets_not_your_turn() -> None:
    svc = GameService()
    game = await seated(svc)  # 1941: the Soviet Union moves first
    r = await svc.submit(game, "alice", "buy 1 infantry")
    assert not r.ok
    assert r.error == "It is Soviet Union's turn; you hold Germany and Japan."
    r = ok(await svc.submit(game, "bob", "buy 1 infantry"))
    assert [type(e) for e in r.events] == [ev.UnitsPurchased]
    assert "Soviet Union bought 1 infantry (3 IPCs)." in r.answer


async def test_typed_orders_get_the_power_from_the_seat() -> None:
    svc = GameService()
    game = await seated(svc)
    r = ok(await svc.submit_order(game, "bob", od.Buy(units={"infantry": 1})))
    assert isinstance(r.events[0], ev.UnitsPurchased) and r.events[0].power == "Soviet Union"


async def test_standing_casualties_for_a_power_one_holds() -> None:
    svc = GameService()
    game = await seated(svc)
    r = await svc.submit(game, "alice", "standing casualties Soviet Union infantry, tank")
    assert not r.ok and "not yours" in (r.error or "")
    r = ok(await svc.submit(game, "alice", "standing casualties Germany infantry, tank"))
    assert isinstance(r.events[0], ev.StandingOrderSet) and r.events[0].power == "Germany"


async def test_rules_errors_change_nothing() -> None:
    svc = GameService()
    game = await seated(svc)
    before = await log_of(svc, game)
    r = await svc.submit(game, "bob", "buy 99 battleships")
    assert not r.ok and r.error
    r = await svc.submit(game, "bob", "place 1 infantry in Russia")
    assert not r.ok and "Mobilize" in (r.error or "")
    r = await svc.submit(game, "bob", "fly to the moon")
    assert not r.ok and r.kind == "parse"
    assert await log_of(svc, game) == before


# --------------------------------------------------------------------------------------------
# Undo


async def test_undo_takes_back_the_last_order_of_the_phase() -> None:
    svc = GameService()
    game = await seated(svc)
    start_len = len(await log_of(svc, game))
    ok(await svc.submit(game, "bob", "buy 1 infantry"))
    treasury = state_json(await svc.state(game))["treasury"]["Soviet Union"]
    r = ok(await svc.undo(game, "bob"))
    assert "Undone: Soviet Union's 'buy 1 infantry'" in r.answer
    assert len(await log_of(svc, game)) == start_len
    assert state_json(await svc.state(game))["treasury"]["Soviet Union"] == treasury + 3
    r = await svc.undo(game, "bob")
    assert not r.ok and "Nothing to undo" in (r.error or "")


async def test_undo_only_by_the_current_powers_player() -> None:
    svc = GameService()
    game = await seated(svc)
    ok(await svc.submit(game, "bob", "buy 1 infantry"))
    r = await svc.undo(game, "alice")
    assert not r.ok and "Only Soviet Union's player" in (r.error or "")
    r = await svc.undo(game, "carol")
    assert not r.ok and r.error == NOT_SEATED


async def test_an_end_may_be_undone_while_no_one_has_acted() -> None:
    """Issue 13 item 11: an 'end' that rolled no dice is taken back whole."""
    svc = GameService()
    game = await seated(svc)
    before = await log_of(svc, game)
    ok(await svc.submit(game, "bob", "end confirm"))
    r = ok(await svc.undo(game, "bob"))
    assert r.answer.splitlines() == [
        "Undone: Soviet Union's 'end confirm' (1 event taken back).",
        "Waiting for: Soviet Union [bob] (Purchase Units)",
    ]
    assert await log_of(svc, game) == before


async def test_an_end_that_passed_the_turn_is_undone_by_its_power_until_the_next_acts() -> None:
    svc = GameService()
    game = await seated(svc, position={"edition": "1941", "power": "Soviet Union",
                                       "phase": "mobilize"})
    before = await log_of(svc, game)
    ok(await svc.submit(game, "bob", "end"))
    assert (await svc.state(game)).power == "Germany"
    r = await svc.undo(game, "alice")
    assert not r.ok and r.error == ("Nothing of Germany's to undo: the last order was Soviet "
                                    "Union's 'end' (only Soviet Union's player can take it "
                                    "back).")
    r = ok(await svc.undo(game, "bob"))
    assert r.answer.splitlines()[-1] == "Waiting for: Soviet Union [bob] (Mobilize New Units)"
    assert await log_of(svc, game) == before
    ok(await svc.submit(game, "bob", "end"))
    ok(await svc.submit(game, "alice", "buy 1 infantry"))
    r = await svc.undo(game, "bob")
    assert not r.ok and r.error == (
        "Only Germany's player can undo now (it is Germany's turn); you hold Soviet Union, "
        "United Kingdom and United States.")


async def test_an_end_that_finished_a_round_is_not_undone() -> None:
    """The round's dice seed is public once the round ends: the round is never reopened."""
    svc = GameService()
    game = await seated(svc, position={"edition": "1941", "power": "United States",
                                       "phase": "mobilize"})
    ok(await svc.submit(game, "bob", "end"))
    before = await log_of(svc, game)
    r = await svc.undo(game, "bob")
    assert not r.ok and r.error == (
        "Cannot undo 'end': it ended round 1, and that round's dice seed is now public "
        "('dice verify'); a round is never reopened.")
    assert await log_of(svc, game) == before


async def test_undo_never_after_dice() -> None:
    svc = GameService()
    game = await seated(svc, dice=[1, 1, 1, 6], position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    r = ok(await svc.submit(game, "alice", "battle Ukraine"))
    assert any(isinstance(e, ev.DiceRolled) for e in r.events)
    before = await log_of(svc, game)
    r = await svc.undo(game, "alice")
    assert not r.ok and "dice were rolled" in (r.error or "")
    assert await log_of(svc, game) == before


async def test_undo_refuses_another_powers_last_order() -> None:
    svc = GameService()
    game = await seated(svc, position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "bob", "standing casualties Soviet Union infantry"))
    r = await svc.undo(game, "alice")
    assert not r.ok and "last order was Soviet Union's" in (r.error or "")


# --------------------------------------------------------------------------------------------
# Dice


async def test_scripted_dice_run_out_without_changing_anything() -> None:
    svc = GameService()
    game = await seated(svc, dice=[1], position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    before = await log_of(svc, game)
    r = await svc.submit(game, "alice", "battle Ukraine")
    assert not r.ok and "ran out" in (r.error or "")
    assert await log_of(svc, game) == before


async def test_dice_continue_after_the_faces_already_used() -> None:
    svc = GameService()
    game = await seated(svc, dice=[6, 6, 6, 1, 2, 2, 2, 2], position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    r = ok(await svc.submit(game, "alice", "battle Ukraine"))
    rolled = [e for e in r.events if isinstance(e, ev.DiceRolled)]
    faces = [f for e in rolled for g in e.groups for f in g[2]]
    assert faces[:3] == [6, 6, 6] and all(e.dice == "scripted" for e in rolled)
    orders = await svc.store.orders(game)
    assert orders[-1].dice_used == len(faces)


async def test_fair_dice_by_default() -> None:
    svc = GameService()
    game = await seated(svc, position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    r = ok(await svc.submit(game, "alice", "battle Ukraine"))
    assert any(isinstance(e, ev.DiceRolled) and e.dice == "fair" for e in r.events)


# --------------------------------------------------------------------------------------------
# Optimistic concurrency


async def test_store_refuses_a_stale_append() -> None:
    store = MemoryStore()
    rec = await store.create_game(
        edition="a1941", options=(), channel="c", owner="a", dice=DiceSpec(kind="fair")
    )
    e = ev.StandingOrderSet(power="Germany", order=("infantry",))
    await store.append(rec.id, 0, [e], person="a", power="Germany", text="x")
    with pytest.raises(StateMovedOn):
        await store.append(rec.id, 0, [e], person="b", power="Germany", text="y")
    assert len(await store.load_events(rec.id)) == 1
    last = (await store.orders(rec.id))[-1]
    with pytest.raises(StateMovedOn):  # not the head read when the order was appended
        await store.drop_last_order(rec.id, last, rec.id)


class SlowStore(MemoryStore):
    """Lets other tasks run between loading a log and appending to it."""

    async def load_events(self, game_id: str) -> list[StoredEvent]:
        events = await super().load_events(game_id)
        await asyncio.sleep(0)
        return events


async def test_two_writers_one_wins_the_other_is_told() -> None:
    svc = GameService(store=SlowStore())
    game = await seated(svc)
    before = len(await log_of(svc, game))
    a, b = await asyncio.gather(
        svc.submit(game, "bob", "buy 1 infantry"), svc.submit(game, "bob", "buy 1 tank")
    )
    assert sorted([a.ok, b.ok]) == [False, True]
    loser = a if not a.ok else b
    assert "moved on" in (loser.error or "")
    assert len(await log_of(svc, game)) == before + 1


# --------------------------------------------------------------------------------------------
# Views, export and import


async def test_status_history_and_map() -> None:
    svc = GameService()
    game = await seated(svc)
    ok(await svc.submit(game, "bob", "buy 1 infantry"))
    st = ok(await svc.status(game))
    assert st.state is not None and st.state["power"] == "Soviet Union"
    assert "Waiting for: Soviet Union" in st.answer and "Seats:" in st.answer
    assert st.data is not None and st.data["waiting"][0]["person"] == "bob"
    hist = ok(await svc.history(game, 2))
    assert hist.answer.splitlines()[-1].endswith("Soviet Union bought 1 infantry (3 IPCs).")
    assert len(hist.answer.splitlines()) == 2
    one = ok(await svc.map(game, "ukraine"))
    assert one.answer.startswith("Ukraine [")
    everything = ok(await svc.map(game))
    assert len(everything.answer.splitlines()) > 20
    assert not (await svc.map(game, "Atlantis")).ok


async def test_status_in_the_lobby_lists_open_seats() -> None:
    svc = GameService()
    game = (await svc.create("c", "alice", "1941")).id
    ok(await svc.join(game, "alice", "Germany"))
    st = ok(await svc.status(game))
    assert st.state is None and "Open seats: Soviet Union" in st.answer


async def test_export_import_gives_the_same_state() -> None:
    svc = GameService()
    game = await seated(svc, dice=[1, 1, 1, 6, 2, 2], position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    ok(await svc.submit(game, "alice", "battle Ukraine"))
    doc = json.loads(json.dumps(await svc.export(game)))  # through real JSON text
    assert doc["game"]["dice"] == {"kind": "scripted", "faces": [1, 1, 1, 6, 2, 2], "used": 4}
    other = GameService(allow_scripted_dice=True)
    info = await other.import_(doc, unverified=True)
    assert info.status == "active" and info.seats == (await svc.info(game)).seats
    assert state_json(await other.state(info.id)) == state_json(await svc.state(game))
    assert [o.text for o in await other.store.orders(info.id)] == [
        o["text"] for o in doc["orders"]
    ]
    # the imported game goes on, with the scripted dice where they stopped
    ok(await other.submit(info.id, "alice", "end"))


async def test_import_refuses_a_tampered_export() -> None:
    svc = GameService()
    game = await seated(svc)
    ok(await svc.submit(game, "bob", "buy 1 infantry"))
    doc = await svc.export(game)
    doc["state"]["treasury"]["Soviet Union"] += 100
    with pytest.raises(ServiceError, match="different state"):
        await GameService().import_(doc, unverified=True)
    with pytest.raises(ServiceError, match="Not a game export"):
        await GameService().import_({"hello": 1})


async def test_export_keeps_the_dice_secret() -> None:
    svc = GameService()
    game = await seated(svc)
    doc = await svc.export(game)
    master = await svc.store.get_secret(game, "dice-master")
    assert master and master.hex() not in json.dumps(doc)
    assert doc["game"]["dice"]["kind"] == "fair"


async def test_listeners_hear_appended_events() -> None:
    heard: list[int] = []

    async def listener(info: Any, events: Any) -> None:
        heard.append(len(events))

    svc = GameService(listeners=[listener])
    game = await seated(svc)
    ok(await svc.submit(game, "bob", "buy 1 infantry"))
    assert heard[-1] == 1


async def test_handle_routes_lines_by_channel() -> None:
    svc = GameService()
    r = await svc.handle("room", "alice", "buy 1 infantry")
    assert not r.ok and "game new" in (r.error or "")
    r = await svc.handle("room", "alice", "undo")
    assert not r.ok and "No game in this channel" in (r.error or "")
    r = ok(await svc.handle("room", "alice", "game new 1941"))
    assert r.game is not None and r.game.channel == "room"
    r = ok(await svc.handle("room", "alice", "odds 3 inf vs 2 inf"))
    assert r.kind == "odds" and "Attacker wins" in r.answer
    assert ok(await svc.handle("room", "bob", "help")).answer.startswith("Game:")


async def test_two_services_on_one_store_see_each_others_undo() -> None:
    """No in-process state is the source of truth (DESIGN §7): a cached state never goes stale."""
    store = MemoryStore()
    a, b = GameService(store=store), GameService(store=store)
    game = await seated(a)
    ok(await a.submit(game, "bob", "buy 1 infantry"))
    assert (await a.state(game)).purchase == {"infantry": 1}
    ok(await b.undo(game, "bob"))
    ok(await b.submit(game, "bob", "buy 1 tank"))  # same length, same place in the log
    assert (await a.state(game)).purchase == {"tank": 1}
    orders = await store.orders(game)
    assert len({o.index for o in orders}) == len(orders) and orders[-1].index == 2


async def test_the_defender_answers_its_own_casualties() -> None:
    position = {
        **POSITION,
        "units": {
            "Ukraine": {"Soviet Union": {"infantry": 1, "tank": 1}},
            "Eastern Europe": {"Germany": {"infantry": 2, "tank": 1}},
        },
    }
    svc = GameService()
    game = await seated(svc, dice=[3, 4, 6, 2, 5], position=position)
    ok(await svc.submit(game, "alice", ATTACK))
    ok(await svc.submit(game, "alice", "end"))
    r = ok(await svc.submit(game, "alice", "battle Ukraine"))
    assert "Waiting for: Soviet Union [bob] (casualties in Ukraine)" in r.answer
    r = await svc.submit(game, "alice", "casualties Ukraine 1 infantry")
    assert not r.ok  # the attacker does not choose the defender's losses
    r = ok(await svc.submit(game, "bob", "casualties Ukraine 1 infantry"))
    chosen = [e for e in r.events if isinstance(e, ev.CasualtiesChosen)]
    assert chosen[0].by == "Soviet Union"
    r = await svc.submit(game, "carol", "casualties Ukraine 1 tank")
    assert not r.ok and r.error == NOT_SEATED


async def test_substitute_and_kick_change_seats_for_the_owner_only() -> None:
    """Admin seat changes (COMMANDS.md): owner only, P-1 kept, the game waits for an empty seat."""
    from service.games import GameService

    svc = GameService()
    info = await svc.create("chan", "alice", "1941")
    for power, who in [("Germany", "alice"), ("Japan", "alice"), ("Soviet Union", "bob"),
                       ("United Kingdom", "bob"), ("United States", "bob")]:
        assert (await svc.join(info.id, who, power)).ok
    assert (await svc.start(info.id, "alice")).ok
    r = await svc.substitute(info.id, "bob", "Germany", "carol")
    assert not r.ok and "owner" in (r.error or "")
    r = await svc.substitute(info.id, "alice", "Germany", "bob")
    assert not r.ok and "P-1" in (r.error or "")
    r = await svc.substitute(info.id, "alice", "Soviet Union", "carol")
    assert r.ok and (await svc.info(info.id)).seats["Soviet Union"] == "carol"
    r = await svc.submit(info.id, "carol", "buy 1 infantry")
    assert r.ok
    r = await svc.kick(info.id, "alice", "carol")
    assert r.ok and "Soviet Union" not in (await svc.info(info.id)).seats
    r = await svc.submit(info.id, "carol", "buy 1 infantry")
    assert not r.ok
