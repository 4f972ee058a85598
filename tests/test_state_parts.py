"""A mechanism's own part of the state (issue 15: a mechanism in one module): registered with
``rules.turn.registry.part``, typed access (``state.part``, ``state.with_part``), reset each turn
when it says so, declared for positions, written and read exactly by the state's codec, and an
older document (before the part, or of another shape at any depth) not trusted as a snapshot
while an older export's state is still checked field by field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import pytest

from rules import codec, engine
from rules import events as ev
from rules import position as pos
from rules import state as st
from rules.mechanisms.research import ResearchMarks
from rules.mechanisms.rockets import RocketMarks
from rules.state import GameState, PartInfo


def _start() -> GameState:
    return engine.replay(engine.new_game("classic"))


def _doc(state: GameState) -> dict[str, Any]:
    return json.loads(json.dumps(codec.state_to_json(state)))  # type: ignore[no-any-return]


def test_a_part_reads_as_its_default_until_set_and_equal_states_have_equal_parts() -> None:
    s = _start()
    assert s.part(RocketMarks) == RocketMarks() and not s.parts
    fired = s.with_part(RocketMarks(fired=True))
    assert fired.part(RocketMarks).fired and not s.part(RocketMarks).fired  # s unchanged
    assert fired != s
    assert fired.with_part(RocketMarks()) == s  # back to the default: no part kept
    assert fired.with_part(ResearchMarks(rolled=True)).part(RocketMarks).fired


def test_an_unregistered_part_is_refused() -> None:
    @dataclass(frozen=True)
    class Stray:
        x: int = 0

    with pytest.raises(TypeError, match="Stray is not a registered part"):
        _start().part(Stray)
    with pytest.raises(TypeError, match="Stray is not a registered part"):
        _start().with_part(Stray(1))


def test_parts_of_a_turn_are_reset_when_a_turn_starts() -> None:
    s = _start().with_part(RocketMarks(fired=True)).with_part(ResearchMarks(rolled=True))
    after = engine.evolve(s, ev.TurnStarted(round=s.round, power=s.power))
    assert after.parts == {}


def test_every_registered_part_is_declared_for_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    assert {i.key: i.cls for i in st.part_infos()}.items() >= {("research", ResearchMarks),
                                                               ("rockets", RocketMarks)}
    assert pos.undeclared(GameState) == []

    @dataclass(frozen=True, slots=True)
    class Convoys:
        disrupted: frozenset[str] = frozenset()

    monkeypatch.setitem(st._PARTS, Convoys, PartInfo(Convoys, "convoys", Convoys(), False))
    assert pos.undeclared(GameState) == [
        "Convoys.disrupted is neither written nor declared derived or not carried"]
    with pytest.raises(pos.UndeclaredField, match=r"Convoys\.disrupted"):
        pos.state_json(_start())
    monkeypatch.setitem(pos.FIELDS, Convoys, {"disrupted": pos.within_turn("convoys")})
    assert pos.undeclared(GameState) == []


def test_the_full_document_writes_every_part_and_reads_it_back_exactly() -> None:
    s = _start()
    doc = _doc(s)
    assert doc["format"] == codec.FORMAT == 3
    assert doc["parts"] == {"research": {"rolled": False}, "rockets": {"fired": False},
                            "raids": {"bombers": [], "resolved": [], "escorts": []},
                            "war": {"pairs": None, "taken": []},
                            "neutrals": {"alignment": [], "armies": [], "failed": []},
                            "invasions": {"placed": []},
                            "interceptions": {"decided": [], "interceptors": [], "fought": [],
                                              "owed": []},
                            "scrambles": {"decided": [], "flights": []},
                            "declared": {"loading": [], "window": False},
                            "victory_watch": {"held": []}, "convoys": {"loss": 0},
                            "bonuses": {"used": []}, "liberations": {"owed": []},
                            "objectives": {"paid": 0},
                            "damage": {"markers": []}}
    assert codec.state_from_json(doc) == s
    fired = s.with_part(RocketMarks(fired=True))
    doc = _doc(fired)
    assert doc["parts"]["rockets"] == {"fired": True}
    back = codec.state_from_json(doc)
    assert back == fired and back.part(RocketMarks).fired
    assert back.parts == {RocketMarks: RocketMarks(fired=True)}  # the default is not kept
    assert codec.differences(doc, fired) == []
    assert codec.differences(doc, s) == ["parts.rockets"]


def _before_parts(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as format 2 wrote it: the turn's markers in ``marks``, no parts."""
    old = {k: v for k, v in doc.items() if k != "parts"}
    old["format"] = 2
    old["marks"] = {**doc["marks"], "researched": doc["parts"]["research"]["rolled"],
                    "rocket_fired": doc["parts"]["rockets"]["fired"]}
    return old


def test_a_document_from_before_the_parts_is_no_snapshot_but_an_export_still_checks() -> None:
    s = _start().with_part(ResearchMarks(rolled=True))
    old = _before_parts(_doc(s))
    with pytest.raises(codec.CodecError):
        codec.state_from_json(old)
    with pytest.raises(codec.CodecError, match="another shape"):
        codec.state_from_json({**old, "format": codec.FORMAT})
    assert codec.differences(old, s) == []
    assert codec.differences(old, _start()) == ["parts.research"]
    assert codec.differences({**old, "marks": {**old["marks"], "rocket_fired": True}}, s) == [
        "parts.rockets"]


@pytest.mark.parametrize("change", ["unit field added", "unit field removed",
                                    "marks field added", "part field removed", "part added",
                                    "part removed"])
def test_a_document_of_another_shape_at_any_depth_is_not_trusted(change: str) -> None:
    doc = _doc(_start())
    unit = next(iter(doc["units"]))
    if change == "unit field added":
        doc["units"][unit]["veteran"] = False
    elif change == "unit field removed":
        del doc["units"][unit]["stranded"]
    elif change == "marks field added":
        doc["marks"]["rocket_fired"] = False
    elif change == "part field removed":
        doc["parts"]["rockets"] = {}
    elif change == "part added":
        doc["parts"]["convoys"] = {"disrupted": []}
    else:
        del doc["parts"]["research"]
    with pytest.raises(codec.CodecError, match="another shape"):
        codec.state_from_json(doc)


def test_a_battle_in_a_snapshot_is_checked_for_its_shape_too() -> None:
    s = _start()
    battle = st.BattleState(space="Ukraine", attacker="Germany", defenders=("Russia",),
                            sea=False)
    doc = _doc(replace(s, battles={"Ukraine": battle}))
    assert codec.state_from_json(doc).battles == {"Ukraine": battle}
    doc["battles"]["Ukraine"]["weather"] = "clear"
    with pytest.raises(codec.CodecError, match=r"another shape of the state \(BattleState\)"):
        codec.state_from_json(doc)
