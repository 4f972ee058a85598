"""The state's codec derives from the state (issue 15, deliverable 5): ``rules/codec.py`` (the full
document of snapshots and exports) and ``rules/position.py`` (the position document of
``--position`` files and ``state``).

- Every field of the model is declared for positions, and a model with one more field (in
  ``GameState``, ``Unit`` or ``BattleState``) is refused by the position codec until declared,
  while the full document carries it without a change to the codec.
- The states of the golden corpus (tests/golden_corpus) go state → snapshot → state identically,
  and state → position file → state keeping every field the position declares written.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

import pytest

from rules import codec, engine
from rules import events as ev
from rules import position as pos
from rules.state import BattleState, GameState, TurnMarks, Unit
from service import fair
from tools import golden_corpus as gc

# --------------------------------------------------------------------------------------------
# The model, declared


def test_every_field_of_the_state_is_declared_for_positions() -> None:
    assert pos.undeclared(GameState) == []
    assert codec.model_types(GameState) == [GameState, Unit, BattleState, TurnMarks]
    pos.check_model(GameState)  # no UndeclaredField


def _start() -> GameState:
    return engine.replay(engine.new_game("1941"))


T = TypeVar("T")


def _extended(cls: type[T], base: object, **extra: object) -> T:
    """An instance of ``cls`` (a subclass with one more field) with ``base``'s values."""
    values = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}  # type: ignore[arg-type]
    return cls(**values, **extra)


@dataclass(frozen=True, slots=True)
class WarState(GameState):
    """The state with one more field, as 1940 would add it."""

    war: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True, slots=True)
class VeteranUnit(Unit):
    veteran: bool = False


@dataclass(frozen=True, slots=True)
class VeteranState(GameState):
    units: dict[int, VeteranUnit]


@dataclass(frozen=True, slots=True)
class WeatherBattle(BattleState):
    weather: str = "clear"


@dataclass(frozen=True, slots=True)
class WeatherState(GameState):
    battles: dict[str, WeatherBattle] = dataclasses.field(default_factory=dict)


def test_a_new_state_field_is_refused_by_positions_until_declared() -> None:
    state = _extended(WarState, _start(), war=frozenset({("Germany", "Soviet Union")}))
    assert pos.undeclared(WarState) == [
        "WarState.war is neither written nor declared derived or not carried"]
    with pytest.raises(pos.UndeclaredField, match=r"WarState\.war .*rules/position\.py"):
        pos.state_json(state)
    with pytest.raises(pos.UndeclaredField):
        pos.positional(state)


def test_a_new_unit_or_battle_field_is_refused_by_positions_until_declared() -> None:
    assert pos.undeclared(VeteranState) == [
        "VeteranUnit.veteran is neither written nor declared derived or not carried"]
    assert pos.undeclared(WeatherState) == [
        "WeatherBattle.weather is neither written nor declared derived or not carried"]
    with pytest.raises(pos.UndeclaredField, match=r"VeteranUnit\.veteran"):
        pos.check_model(VeteranState)
    start = _start()
    units = {uid: _extended(VeteranUnit, u, veteran=uid == 1) for uid, u in start.units.items()}
    with pytest.raises(pos.UndeclaredField, match=r"VeteranUnit\.veteran"):
        pos.state_json(dataclasses.replace(_extended(VeteranState, start), units=units))


def test_declarations_that_name_no_field_or_no_key_are_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fields = {**pos.FIELDS[GameState], "gone": pos.Derived("a field that was removed"),
              "debts": pos.Written(("debt",))}
    monkeypatch.setitem(pos.FIELDS, GameState, fields)
    assert pos.undeclared(GameState) == [
        "GameState.gone is declared but is no field",
        "GameState.debts is written under 'debt', not a position key",
        "the position key 'debts' writes no field",
    ]


def test_the_full_document_carries_a_new_field_without_a_change_to_the_codec() -> None:
    state = _extended(WarState, _start(), war=frozenset({("Germany", "Soviet Union")}))
    doc = json.loads(json.dumps(codec.state_to_json(state)))
    assert doc["war"] == [["Germany", "Soviet Union"]]
    assert codec.state_from_json(doc, WarState) == state
    # A document of another shape is not guessed at: a snapshot is replayed instead, and an
    # export's state is compared on the fields both shapes have.
    with pytest.raises(codec.CodecError, match="another shape"):
        codec.state_from_json(doc)
    assert codec.differences(doc, _start()) == []
    assert codec.differences({**doc, "round": 9}, _start()) == ["round"]

    start = _start()
    units = {uid: _extended(VeteranUnit, u, veteran=uid == 1) for uid, u in start.units.items()}
    veterans = dataclasses.replace(_extended(VeteranState, start), units=units)
    back = codec.state_from_json(json.loads(json.dumps(codec.state_to_json(veterans))),
                                 VeteranState)
    assert back == veterans and back.units[1].veteran  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------
# The golden corpus's states


GAMES = [rec for group in gc.GROUPS for rec in gc.read_group(group)]
HEAD = re.compile(r"Log #(\d+) · ([0-9a-f]{8})")


@cache
def phase_starts(name: str) -> tuple[GameState, ...]:
    """The states of a corpus game at every head the referee published in its answers (each
    phase summary and status ends with one) that the final log still has (an undo may have
    taken back events since), in play, and its final state."""
    rec = next(r for r in GAMES if r.game.name == name)
    hashes = fair.log_hashes("g1", rec.log)  # each corpus game is the first of its store
    heads = {int(n) for a in rec.answers for n, h in HEAD.findall(a["text"])
             if 0 < int(n) <= len(hashes) and hashes[int(n) - 1].startswith(h)}
    assert heads, f"{name}: no published head found"
    out: list[GameState] = []
    state: GameState | None = None
    for n, body in enumerate(rec.log, start=1):
        event = ev.event_from_json(body)
        state = engine.replay([event]) if state is None else engine.evolve(state, event)
        if n in heads or n == len(rec.log):
            out.append(state)
    return tuple(out)


NAMES = [rec.game.name for rec in GAMES]


@pytest.mark.parametrize("name", NAMES)
def test_corpus_states_go_through_a_snapshot_unchanged(name: str) -> None:
    states = phase_starts(name)
    for state in states:
        doc = json.loads(json.dumps(codec.state_to_json(state)))
        assert set(doc) == {f.name for f in dataclasses.fields(GameState)} | {"format"}
        assert codec.state_from_json(doc) == state
        assert codec.differences(doc, state) == []


def _in_flight(state: GameState) -> bool:
    """Aircraft in the air over a sea zone (no carrier under them): a position's pieces are at
    rest, so no position holds this (docs/positions.md)."""
    ed = state.edition
    return any(ed.is_sea(u.space) and ed.units[u.type].domain == "air" and u.carried_by is None
               for u in state.units.values()) or bool(state.carrier_promises)


def positionable(state: GameState) -> bool:
    """A state a position can hold: in play, outside Conduct Combat (battles and raids in
    progress are not carried), no aircraft in flight."""
    return (state.winner is None and state.ended is None and state.phase != "conduct_combat"
            and not _in_flight(state))


def test_most_corpus_states_can_be_positions() -> None:
    states = [s for rec in GAMES for s in phase_starts(rec.game.name)]
    held = [s for s in states if positionable(s)]
    assert len(held) >= 1500 and len(held) >= 0.8 * len(states), (len(held), len(states))


@pytest.mark.parametrize("name", NAMES)
def test_corpus_states_go_through_a_position_file_unchanged(name: str) -> None:
    """state → position file (the JSON text of 'state') → a new game → the same state, in every
    field the position writes (``rules.position.FIELDS``), pieces included."""
    for state in phase_starts(name):
        if not positionable(state):
            continue
        text = json.dumps(pos.state_json(state), indent=2)
        again = engine.replay(engine.new_game(state.edition.id, state.options, json.loads(text)))
        assert pos.positional(again) == pos.positional(state), (name, state.seq)
        assert pos.state_json(again) == pos.state_json(state), (name, state.seq)


# --------------------------------------------------------------------------------------------
# Exports


async def test_an_export_keeps_every_field_of_the_state_and_an_import_checks_each() -> None:
    from service.games import GameService, ServiceError
    from tests.service.test_games import ATTACK, POSITION, ok, seated

    svc = GameService()
    game = await seated(svc, dice=[1, 1, 1, 6, 2, 2], position=POSITION)
    ok(await svc.submit(game, "alice", ATTACK))
    doc = json.loads(json.dumps(await svc.export(game)))
    state = await svc.state(game)
    assert doc["state"] == codec.state_to_json(state)
    assert codec.state_from_json(doc["state"]) == state
    # A field that 'state' does not print (how far a piece moved this turn) is checked too.
    moved = next(uid for uid, u in state.units.items() if u.moved)
    doc["state"]["units"][str(moved)]["moved"] = 0
    with pytest.raises(ServiceError, match="different state"):
        await GameService(allow_scripted_dice=True).import_(doc, unverified=True)
    # An export written before the state grew a field says less; what it says must hold.
    del doc["state"]["units"]
    info = await GameService(allow_scripted_dice=True).import_(doc, unverified=True)
    assert info.status == "active"
