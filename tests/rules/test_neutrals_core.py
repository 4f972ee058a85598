"""The neutrals mechanism (Europe 1940 §6) on 1941's board with aligned neutrals: a mechanism
governs neutral territories through ``rules.turn.hooks.neutral_rules`` only where the edition's
map gives them alignments; elsewhere 1941's neutrals stay impassable (MAP-8) and Classic's are
violated for a fee (R-NEU-02), unchanged. The rules themselves are tested on Europe 1940's
board in ``tests/rules/e40/test_neutrals.py``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import engine, position
from rules import orders as od
from rules.dice import ScriptedDice
from rules.edition import Edition, Neutral, Politics, load_edition
from rules.mechanisms.neutrals import NeutralInvaded, NeutralJoined, NeutralStood
from rules.state import GameState
from rules.turn import hooks
from tests.rules.helpers import Game, fight_to_the_end


def _aligned_1941() -> Edition:
    """1941's board with Sweden, Turkey and Switzerland strict, Spain pro-Allied, passable."""
    ed = load_edition("a1941")
    neutrals = {"Sweden": Neutral(alignment="strict", army=3),
                "Turkey": Neutral(alignment="strict", army=4),
                "Switzerland": Neutral(alignment="strict", army=2),
                "Spain Portugal": Neutral(alignment="pro_allied", army=2)}
    spaces = [s.model_copy(update={"impassable": False}) if s.name in neutrals else s
              for s in ed.map.spaces]
    board = ed.map.model_copy(update={"spaces": tuple(spaces), "neutrals": neutrals})
    rules = ed.rules.model_copy(update={"politics": Politics(at_war=(
        ("Germany", "United Kingdom"), ("Germany", "Soviet Union")))})
    return Edition(rules, board)


def _start(pos: dict[str, Any]) -> GameState:
    ed = _aligned_1941()
    s = position.build_start(ed, (), position.canonical(ed, pos))
    return replace(s, phase=pos["phase"])


def _do(s: GameState, order: od.Order, dice: list[int] | None = None) -> tuple[GameState, list[Any]]:
    evs = engine.decide(s, order, ScriptedDice(dice or []))
    for e in evs:
        s = engine.evolve(s, e)
    return s, evs


def test_1941_and_classic_neutrals_are_not_governed_by_the_mechanism() -> None:
    for name in ("1941", "classic"):
        s = Game(edition=name).state
        assert hooks.governing(s) is None
    g = Game({"edition": "1941", "power": "Germany", "phase": "combat_move",
              "units": {"Norway Finland": {"Germany": {"infantry": 1}}}})
    g.refuse(od.Move(units={"infantry": 1}, frm="Norway Finland", to="Sweden"),
             "Sweden is neutral and impassable")


def test_an_aligned_board_invaded_stood_and_walked_into() -> None:
    s = _start({"power": "Germany", "phase": "combat_move", "clear_all_units": True,
                "units": {"Norway Finland": {"Germany": {"infantry": 2}}}})
    assert hooks.governing(s) is not None
    s, evs = _do(s, od.Move(power="Germany", units={"infantry": 2}, frm="Norway Finland",
                            to="Sweden"))
    inv = next(e for e in evs if isinstance(e, NeutralInvaded))
    assert (inv.seat, inv.joins, inv.turned) == ("United Kingdom", "pro_allied",
                                                 ("Turkey", "Switzerland"))
    s, _ = _do(s, od.EndPhase(power="Germany", phase="combat_move"))
    s = _fold(s, fight_to_the_end(s, "Sweden", ScriptedDice([6, 6, 1, 1, 6])))
    s, evs = _do(s, od.EndPhase(power="Germany", phase="conduct_combat"))
    stood = next(e for e in evs if isinstance(e, NeutralStood))
    assert stood.army == {"infantry": 3}
    doc = position.state_json(s)
    assert doc["units"]["Sweden"] == {"neutral": {"infantry": 3}}
    assert doc["failed_attacks"] == ["Sweden"] and doc["neutrals"]["Sweden"] == "pro_allied"
    # UN-5: the side it joined walks in and takes it with the survivors (FN-3).
    s = _start({**{k: doc[k] for k in ("units", "clear_all_units", "neutrals",
                                       "failed_attacks")},
                "power": "United Kingdom", "phase": "noncombat_move",
                "owners": {"Norway Finland": "United Kingdom"},
                "units": {**doc["units"],
                          "Norway Finland": {"United Kingdom": {"infantry": 1}}}})
    s, evs = _do(s, od.Move(power="United Kingdom", units={"infantry": 1},
                            frm="Norway Finland", to="Sweden"))
    assert next(e for e in evs if isinstance(e, NeutralJoined)).army == {"infantry": 3}
    assert s.owners["Sweden"] == "United Kingdom"


def _fold(s: GameState, evs: list[Any]) -> GameState:
    for e in evs:
        s = engine.evolve(s, e)
    return s
