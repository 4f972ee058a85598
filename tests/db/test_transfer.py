"""Imports of exports, as an adversary writes them (issue 12, item 6), on SQLite and PostgreSQL.

A die changed and the chain rehashed; an income raised by 500 and the chain rehashed; a log that
matches, or does not match, the head hashes the referee published; and a corpus of crafted
documents (truncated, binary, wrong types, huge numbers, deep nesting, missing keys, unknown
events, ``../`` edition names, absurd sizes): each is refused with a plain answer, no exception
escapes, no game is left half-imported, and no file outside ``rules/editions/`` is opened.
"""

from __future__ import annotations

import copy
import json
import pathlib
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from db.repo import SqlStore
from rules import events as ev
from rules.edition import available_editions, edition_dir
from rules.engine import replay
from rules.position import state_json
from service import fair, transfer
from service.games import GameService
from service.store import ImportedOrder, MemoryStore
from tests.db.conftest import BACKENDS
from tests.fair_game import ALLIES, AXIS, POSITION, ok, play_until, played

DB = pytest.mark.parametrize("db_url", BACKENDS, indirect=True)
SECRET2 = bytes([9]) * 32


_EXPORTS: dict[int, str] = {}


async def exported(until_round: int) -> dict[str, Any]:
    """A fair game played (in memory) to the start of ``until_round``, exported through JSON."""
    if until_round not in _EXPORTS:
        svc, game = await played(until_round)
        _EXPORTS[until_round] = json.dumps(await svc.export(game))
    doc: dict[str, Any] = json.loads(_EXPORTS[until_round])
    return doc


def chan() -> str:
    return f"imp-{uuid.uuid4().hex[:10]}"


def rehash(doc: dict[str, Any]) -> dict[str, Any]:
    """Recompute every hash of the chain and the final state, as a forger would."""
    bodies = [{k: v for k, v in e.items() if k not in ("seq", "hash")} for e in doc["events"]]
    hashes = fair.log_hashes(doc["game"]["id"], bodies)
    doc["events"] = [{**b, "seq": n, "hash": h}
                     for n, (b, h) in enumerate(zip(bodies, hashes, strict=True), start=1)]
    doc["log"]["head"] = hashes[-1]
    try:
        doc["state"] = state_json(replay([ev.event_from_json(b) for b in bodies]))
    except Exception:  # a forgery that does not even replay
        doc["state"] = None
    return doc


async def _game_count(store: SqlStore) -> int:
    import sqlalchemy as sa

    from db.models import EVENT, GAME, ORDER, SEAT, SECRET

    async with store.engine.connect() as conn:
        n = 0
        for table in (GAME, EVENT, ORDER, SEAT, SECRET):
            n += int(await conn.scalar(sa.select(sa.func.count()).select_from(table)) or 0)
    return n


# --------------------------------------------------------------------------------------------
# Dice and events rewritten with the chain rehashed


@DB
async def test_import_refuses_a_changed_die_even_with_the_chain_rehashed(store: SqlStore) -> None:
    doc = rehash(_with_changed_die(await exported(2)))
    svc = GameService(store, draw_secret=lambda: SECRET2)
    before = await _game_count(store)
    r = await svc.import_game(doc, channel=chan(), unverified=True)
    assert not r.ok
    assert r.error is not None and r.error.startswith("The export's dice do not verify: Round 1:")
    assert "DiceRolled in" in r.error and "the revealed seed gives" in r.error
    assert r.error.endswith("Nothing was imported.")
    assert await _game_count(store) == before


def _with_changed_die(doc: dict[str, Any]) -> dict[str, Any]:
    for e in doc["events"]:
        if e["type"] == "DiceRolled":
            faces = e["groups"][0][2]
            faces[0] = faces[0] % 6 + 1
            return doc
    raise AssertionError("no DiceRolled in the export")


def _with_income_raised(doc: dict[str, Any], by: int = 500) -> dict[str, Any]:
    for e in doc["events"]:
        if e["type"] == "IncomeCollected":
            e["amount"] += by
            return doc
    raise AssertionError("no IncomeCollected in the export")


@DB
async def test_an_income_raised_and_rehashed_matches_no_published_head(store: SqlStore) -> None:
    """The forged export passes the chain, the replay and the dice: only a published head
    tells it apart. Without one it is refused, or imported only as an unverified copy."""
    doc = rehash(_with_income_raised(await exported(2)))
    svc = GameService(store, draw_secret=lambda: SECRET2)
    before = await _game_count(store)
    r = await svc.import_game(doc, channel=chan())
    assert not r.ok and r.error is not None
    # (on the shared PostgreSQL database another test's g1 may have heads: "differs from")
    assert r.error.startswith("The export matches no head hash the referee published: ")
    assert "unverified copy" in r.error and await _game_count(store) == before
    r = await svc.import_game(doc, channel=chan(), unverified=True)
    assert r.ok and r.game is not None, r.error
    assert "UNVERIFIED COPY: " in r.answer and "nothing proves its events" in r.answer
    assert (await svc.store.orders(r.game.id))[-1].text == (
        "dice committed (imported game; unverified copy of g1)")
    assert r.data == {"origin": "g1", "verified": False, "events": len(doc["events"])}


@DB
async def test_an_export_is_checked_against_the_heads_published_for_its_game(
    store: SqlStore,
) -> None:
    """Same referee, same store: the heads posted with the phase summaries and the status
    (``publish_head``) tell the real export from one rewritten and rehashed."""
    svc = GameService(store, draw_secret=lambda: SECRET2)
    info = await svc.create(chan(), "alice", "1941", position=POSITION)
    for p in AXIS:
        ok(await svc.join(info.id, "alice", p))
    for p in ALLIES:
        ok(await svc.join(info.id, "bob", p))
    ok(await svc.start(info.id, "alice"))
    game = info.id
    await play_until(svc, game, 2)
    phase_heads = await store.published_heads(game)
    assert phase_heads, "phase summaries publish the log's head"
    ok(await svc.status(game))  # the status message publishes the head as it is now
    doc = json.loads(json.dumps(await svc.export(game)))
    n = len(doc["events"])
    assert (await store.published_heads(game))[-1] == (n, doc["events"][-1]["hash"])
    r = ok(await svc.import_game(doc, channel=chan()))
    assert f"the log matches the head published at log #{n}." in r.answer
    assert r.data is not None and r.data["verified"] is True
    assert r.game is not None
    assert (await svc.store.orders(r.game.id))[-1].text == "dice committed (imported game)"
    # An export cut before the last head matches the head before it, and says what is not
    # covered.
    seq = max(s for s, _ in phase_heads if s < n)
    short = json.loads(json.dumps(doc))
    short["events"] = short["events"][: seq + 1]
    short["state"] = None
    short["orders"] = [{"person": "alice", "power": "", "text": "x", "count": seq + 1}]
    r = ok(await svc.import_game(short, channel=chan()))
    assert f"matches the head published at log #{seq} (1 later events" in r.answer
    # The forgery (income +500, rehashed) differs from the heads that were published.
    forged = rehash(_with_income_raised(json.loads(json.dumps(doc))))
    r = await svc.import_game(forged, channel=chan())
    assert not r.ok and r.error is not None
    assert "its log differs from the head published here at log #" in r.error
    assert f"for game {game}" in r.error and r.error.endswith("Nothing was imported.")
    r = await svc.import_game(forged, channel=chan(), unverified=True)
    assert r.ok and "UNVERIFIED COPY: its log differs from the head published" in r.answer


# --------------------------------------------------------------------------------------------
# All or nothing


@DB
async def test_a_failure_in_the_middle_of_an_import_leaves_nothing(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = await exported(2)
    svc = GameService(store, draw_secret=lambda: SECRET2)
    before = await _game_count(store)
    calls = 0
    real = SqlStore._append_in

    async def failing(self: SqlStore, *args: Any, **kw: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise OSError("the disk is gone")
        return await real(self, *args, **kw)

    monkeypatch.setattr(SqlStore, "_append_in", failing)
    with pytest.raises(OSError):
        await svc.import_game(doc, channel=chan(), unverified=True)
    assert calls == 5 and await _game_count(store) == before
    monkeypatch.setattr(SqlStore, "_append_in", real)
    c = chan()
    r = ok(await svc.import_game(doc, channel=c, unverified=True))
    assert r.game is not None and r.game.channel == c
    r = await svc.import_game(doc, channel=c, unverified=True)
    assert not r.ok and "already has game" in (r.error or "")


async def test_the_memory_store_imports_all_or_nothing() -> None:
    store = MemoryStore()

    def boom(game_id: str) -> list[ImportedOrder]:
        raise ValueError("crafted")

    from service.store import DiceSpec

    with pytest.raises(ValueError):
        await store.import_game(
            edition="a1941", options=(), channel="c", owner="o", dice=DiceSpec(kind="fair"),
            position=None, guild="", seats={}, secrets={"m": b"x"}, orders=boom, status="active")
    assert await store.games_in_channel("c") == []


# --------------------------------------------------------------------------------------------
# The crafted corpus

Mutation = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Mutation:
    def go(doc: dict[str, Any]) -> Any:
        *parents, last = path.split("/")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return doc

    return go


def _drop(path: str) -> Mutation:
    def go(doc: dict[str, Any]) -> Any:
        *parents, last = path.split("/")
        node: Any = doc
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        del node[last]
        return doc

    return go


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def _text(doc: dict[str, Any]) -> str:
    return json.dumps(doc)


def _then_rehash(m: Mutation) -> Mutation:
    return lambda doc: rehash(m(doc))


def _first_of(kind: str, key: str, value: Any) -> Mutation:
    def go(doc: dict[str, Any]) -> Any:
        for e in doc["events"]:
            if e["type"] == kind:
                e[key] = value
                return doc
        raise AssertionError(kind)

    return go


NOT = "Not a game export: "
CORPUS: list[tuple[str, Mutation, str]] = [
    # not a document at all
    ("a list", lambda d: [d], NOT + "the document is a list, not an object."),
    ("a string of text", lambda d: "hello", NOT + "the file is not JSON"),
    ("null", lambda d: None, NOT + "the document is null, not an object."),
    ("a number", lambda d: 42, NOT + "the document is a whole number, not an object."),
    ("an empty object", lambda d: {}, NOT + "expected format 'umpire-game' version 2."),
    ("empty file", lambda d: "", NOT + "the file is empty."),
    ("blank file", lambda d: b"  \n", NOT + "the file is empty."),
    ("truncated JSON", lambda d: _text(d)[: len(_text(d)) // 2], NOT + "the file is not JSON"),
    ("binary garbage", lambda d: bytes(range(256)) * 4, NOT + "the file is not UTF-8 text"),
    ("deeply nested JSON text", lambda d: "[" * 100_000 + "]" * 100_000,
     NOT + "the JSON is nested too deep."),
    ("NaN in the text", lambda d: _text(d).replace('"version": 2', '"version": 2, "x": NaN', 1),
     NOT + "the number at x is out of range (nan)."),
    ("an absurd size", lambda d: " " * (transfer.MAX_BYTES + 1), NOT + "the file is 67,108,865"),
    # the frame
    ("wrong format", _set("format", "tripleA"), NOT + "expected format"),
    ("version 3", _set("version", 3), NOT + "expected format"),
    ("version as text", _set("version", "2"), NOT + "expected format"),
    ("version true", _set("version", True), NOT + "expected format"),
    ("no game", _drop("game"), NOT + "the document has no 'game'."),
    ("game is a list", _set("game", []), NOT + "game is a list, not an object."),
    ("no game id", _drop("game/id"), NOT + "game has no 'id'."),
    ("game id a number", _set("game/id", 7), NOT + "game.id is a whole number, not text."),
    ("no events", _drop("events"), NOT + "the document has no 'events'."),
    ("events an object", _set("events", {}), NOT + "events is an object, not a list."),
    # editions
    ("edition ../../etc", _set("game/edition", "../../etc"),
     NOT + f"edition '../../etc' is not installed here (installed: "
           f"{', '.join(available_editions())})."),
    ("edition an absolute path", _set("game/edition", "/etc/passwd"),
     NOT + "edition '/etc/passwd' is not installed here"),
    ("edition a number", _set("game/edition", 1941), NOT + "game.edition is a whole number"),
    ("edition unknown", _set("game/edition", "a1914"), NOT + "edition 'a1914' is not installed"),
    ("GameStarted names ../ edition", _set("events/0/edition", "../rules/editions/a1941"),
     NOT + "event #1 starts a game of '../rules/editions/a1941', but the export is of a1941."),
    ("GameStarted ../ edition, rehashed", _then_rehash(_set("events/0/edition", "../" * 9 + "tmp")),
     NOT + "event #1 starts a game of '../../../../../../../../../tmp'"),
    ("unknown option", _set("game/options", ["nukes"]),
     NOT + "game.options names 'nukes', not an option of a1941."),
    ("option a number", _set("game/options", [1]), NOT + "game.options holds something"),
    # seats and dice
    ("seats a list", _set("game/seats", ["alice"]), NOT + "game.seats is a list"),
    ("seat of no power", _set("game/seats", {"Atlantis": "alice"}),
     NOT + "game.seats names 'Atlantis', not a power of a1941."),
    ("seat holder a number", _set("game/seats", {"Germany": 5}),
     NOT + "game.seats.Germany is a whole number, not text."),
    ("dice kind unknown", _set("game/dice/kind", "loaded"), NOT + "game.dice.kind is 'loaded'"),
    # events
    ("an event is a number", _set("events/3", 5), NOT + "event #4 is a whole number"),
    ("unknown event", _set("events/3/type", "UnitsTeleported"),
     NOT + "event #4 (UnitsTeleported) is not an event this referee knows"),
    ("event without type", _drop("events/3/type"), NOT + "event #4 has no 'type'."),
    ("event type a number", _set("events/3/type", 3), NOT + "event #4.type is a whole number"),
    ("event field of the wrong type", _first_of("IncomeCollected", "amount", "lots"),
     NOT + "event #"),
    ("first event not GameStarted", lambda d: {**d, "events": d["events"][1:]},
     NOT + "event #1 is"),
    ("huge number", _first_of("IncomeCollected", "amount", 10**30),
     NOT + "the number at events["),
    ("infinite float", _first_of("IncomeCollected", "amount", float("inf")),
     NOT + "the number at events["),
    ("deep nesting", _set("game/position", _nested(5000)), NOT + "nested more than 32"),
    ("a NUL in an order", _set("orders/2/text", "buy 1 infantry\x00"),
     NOT + "the text at orders[2].text contains a control character (NUL)."),
    ("a NUL in a key", _set("game/seats", {"Germ\x00any": "alice"}),
     NOT + "a key of game.seats contains a control character (NUL)"),
    ("a lone surrogate", _set("game/owner", "\ud800"), NOT + "the text at game.owner contains"),
    ("a megabyte of owner", _set("game/owner", "x" * (1 << 20)),
     NOT + "the text at game.owner is 1,048,576 characters long"),
    ("not a JSON value", _set("game/guild", {1, 2}), NOT + "game.guild is a set"),
    ("a key not text", _set("game/seats", {1: "alice"}), NOT + "a key of game.seats is not text"),
    # orders
    ("orders an object", _set("orders", {"a": 1}), NOT + "orders is an object, not a list."),
    ("an order a string", _set("orders/0", "game start"), NOT + "order #1 is text"),
    ("order count negative", _set("orders/0/count", -1), NOT + "order #1 has a negative count"),
    ("order count too big", _set("orders/0/count", 10**6), NOT + "its orders cover"),
    ("order count as text", _set("orders/0/count", "3"), NOT + "order #1.count is text"),
    ("too many events", lambda d: {**d, "events": [{}] * (transfer.MAX_EVENTS + 1)},
     NOT + "200,001 events"),
    # past the reading: chain, replay, state, dice
    ("edited without rehash", _first_of("IncomeCollected", "amount", 99),
     "The export's log was changed: event #"),
    ("does not replay", _then_rehash(_first_of("IncomeCollected", "power", "Atlantis")),
     "The exported events do not replay"),
    ("state differs", lambda d: _set("state/round", 9)(d),
     "The exported events replay to a different state"),
    ("a die changed", _then_rehash(_with_changed_die), "The export's dice do not verify: Round 1"),
]


def test_the_corpus_is_big_enough() -> None:
    assert len(CORPUS) >= 36
    assert len({name for name, _, _ in CORPUS}) == len(CORPUS)


def test_an_edition_path_is_never_built_from_an_uninstalled_name() -> None:
    for bad in ("../../etc", "/etc", "a1941/../../x", ""):
        with pytest.raises(ValueError, match="No installed edition"):
            edition_dir(bad)


@DB
async def test_crafted_imports_are_refused_plainly_and_leave_nothing(
    store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = await exported(2)
    svc = GameService(store, draw_secret=lambda: SECRET2, allow_scripted_dice=True)
    editions = (pathlib.Path(__file__).parents[2] / "rules" / "editions").resolve()
    opened: list[str] = []
    real_open = pathlib.Path.open

    def spy(self: pathlib.Path, *a: Any, **kw: Any) -> Any:
        opened.append(str(self.resolve()))
        return real_open(self, *a, **kw)

    monkeypatch.setattr(pathlib.Path, "open", spy)
    before = await _game_count(store)
    wrong: list[str] = []
    for name, mutate, want in CORPUS:
        doc = mutate(copy.deepcopy(base))
        try:
            r = await svc.import_game(doc, channel=chan(), unverified=True)
        except Exception as e:  # the point: none may escape
            wrong.append(f"{name}: raised {type(e).__name__}: {e}"[:300])
            continue
        if r.ok or not (r.error or "").startswith(want):
            wrong.append(f"{name}: {r.ok} {r.error!r:.300}")
        if await _game_count(store) != before:
            wrong.append(f"{name}: left rows behind")
            before = await _game_count(store)
    assert not wrong, "\n".join(wrong)
    outside = [p for p in opened if not p.startswith(str(editions)) and "site-packages" not in p]
    assert outside == []
    # and the untouched document still imports
    assert (await svc.import_game(copy.deepcopy(base), channel=chan(), unverified=True)).ok
