"""Collecting income (IN-1..IN-4, R-INC-01..03): the automatic last phase of a turn.

The income is the national production level (the values of the territories held), changed by
what mechanisms add to Collect Income (``rules.turn.hooks.income_step``: Europe 1940's convoy
disruption and national objectives, IN-1), which act first."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules import events as ev
from rules.state import GameState
from rules.territory import add_debt
from rules.turn import hooks
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def collect_income(tx: Tx) -> None:
    s = tx.state
    if not s.capital_held(s.power):
        return  # IN-2 / R-INC-02 (the phase is skipped before we get here; kept for safety)
    steps = hooks.income_steps()
    for step in steps:
        step.run(tx)
    s = tx.state
    amount = max(0, s.income()[s.power] + sum(step.adjust(s, s.power) for step in steps))
    # R-INC-03: unpaid damage is settled out of this income first.
    debt_paid = min(s.debts.get(s.power, 0), amount)
    tx.emit(ev.IncomeCollected(power=s.power, amount=amount, debt_paid=debt_paid,
                               rule=s.edition.cite("IN-1") if not debt_paid else "R-INC-03"))



@reg.evolver(ev.IncomeCollected)
def _ev_income(s: GameState, e: ev.IncomeCollected) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] += e.amount - e.debt_paid
    debts = add_debt(s.debts, e.power, -e.debt_paid)
    return replace(s, treasury=treasury, debts=debts)



def _enter(tx: Tx, initial: bool) -> None:
    from rules.turn.phases import end_turn

    if any(busy(tx.state) for busy in _phase.busy):
        return  # a mechanism has the power act first (Europe 1940 §5.4); 'end' collects
    collect_income(tx)
    end_turn(tx)
    del initial


_phase = reg.phase("collect_income")
_phase.enter.append(_enter)
_phase.end.append(lambda tx, order: collect_income(tx))
