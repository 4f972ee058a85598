"""Classic economy: income, debts, capitals and liberation (digest rules/classic.md §4.6, §6.7).

Each test is named after its rule ID in the digest.
"""

from __future__ import annotations

from rules import engine, flow
from rules import events as ev
from tests.rules.helpers import Game, position


def test_R_INC_03_unpaid_damage_comes_out_of_the_next_income_first() -> None:
    """R-INC-03 / R-SBR-05: what could not be paid is owed and settled out of the next income."""
    g = Game(position("Germany", "conduct_combat", edition="classic",
                      treasury={"Germany": 2}))
    tx = engine.Tx(g.state)
    flow.charge_damage(tx, "Germany", 5, "a rocket", "R-SBR-05")
    flow.charge_damage(tx, "Germany", 4, "a rocket", "R-SBR-05")
    assert tx.state.treasury["Germany"] == 0
    assert tx.state.debts == {"Germany": 7}
    g.state = tx.state
    g.events.extend(tx.events)
    g.end()  # conduct combat -> noncombat move
    g.end()  # -> mobilize
    evs = g.end()  # -> collect income: debt first
    income = next(e for e in evs if isinstance(e, ev.IncomeCollected))
    npl = g.state.income()["Germany"]
    assert income.amount == npl and income.debt_paid == 7 and income.rule == "R-INC-03"
    assert g.state.treasury["Germany"] == npl - 7
    assert g.state.debts == {}
