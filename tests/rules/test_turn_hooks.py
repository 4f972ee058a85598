"""Where the shared rules call what a mechanism adds to Collect Income, to a turn's end and
start, and to a capture (rules/turn/hooks.py): income steps (Europe 1940 IN-1: convoy
disruption, national objectives), turn checks (V-1/V-2 held for a round) and capture rules
(FR-1). Shown here with stand-in mechanisms on 1941's board, which registers none of them."""

from __future__ import annotations

import pytest

from rules import events as ev
from rules.messages import msg
from rules.turn import hooks
from rules.turn.tx import Tx
from service.describe import describe_all
from tests.rules.helpers import Game, position

GER, SU = "Germany", "Soviet Union"


def test_an_income_step_acts_first_and_changes_the_income_shown_on_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """IN-1: a step runs before the income is collected (with the order's dice); what it adds
    is part of the income and named on the income's line."""
    ran: list[str] = []

    def run(tx: Tx) -> None:
        assert tx.dice is not None
        ran.append(tx.state.phase)

    step = hooks.IncomeStep(run=run, adjust=lambda s, p: 3 if p == GER else 0,
                            label=msg("bombing.declared", space="Berlin"))
    monkeypatch.setattr(hooks, "_INCOME", [step])
    g = Game(position(GER, "mobilize"))
    evs = g.end()
    assert ran == ["collect_income"]
    assert [(e.power, e.amount) for e in evs if isinstance(e, ev.IncomeCollected)] == [(GER, 15)]
    lines = describe_all(None, g.events)
    assert "Germany collected 15 IPCs (treasury now 27; 12 from its territories, +3 strategic " \
           "bombing raid on Berlin; IN-1)." in lines


def test_turn_checks_run_at_a_turns_end_and_start_and_may_end_the_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A mechanism's check at a turn's start may end the game before its first phase."""
    seen: list[tuple[str, str]] = []

    def at_end(tx: Tx) -> bool:
        seen.append(("end", tx.state.power))
        return False

    def at_start(tx: Tx) -> bool:
        seen.append(("start", tx.state.power))
        tx.emit(ev.GameWon(side="Axis", rule="V-1", capitals=()))
        return True

    monkeypatch.setattr(hooks, "_TURN_ENDS", [at_end])
    monkeypatch.setattr(hooks, "_TURN_STARTS", [at_start])
    g = Game(position(GER, "mobilize"))
    evs = g.end()
    assert seen == [("end", GER), ("start", "United Kingdom")]
    assert isinstance(evs[-1], ev.GameWon) and isinstance(evs[-2], ev.TurnStarted)
    assert g.state.winner == "Axis"


def test_a_capture_rule_sees_each_capture(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a territory changes hands, each capture rule sees the event."""
    seen: list[tuple[str, str]] = []
    monkeypatch.setattr(hooks, "_CAPTURED", [lambda tx, e: seen.append((e.space, e.owner))])
    g = Game(position(GER, "combat_move", {"West Russia": {GER: {"infantry": 1}}},
                      owners={"Karelia": SU}))
    g.move({"infantry": 1}, "West Russia", "Karelia")
    g.end()
    assert seen == [("Karelia", GER)]
