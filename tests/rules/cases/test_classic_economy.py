"""Classic economy: income, debts, capitals and liberation (digest rules/classic.md §4.6, §6.7).

Each test is named after its rule ID in the digest.
"""

from __future__ import annotations

from rules import engine, flow
from rules import events as ev
from tests.rules.helpers import Game, position


def _tx(g: Game) -> engine.Tx:
    return engine.Tx(g.state)


def test_R_SBR_05_damage_paid_in_full_when_affordable() -> None:
    """flow.charge_damage: the owner pays the bank; nothing is owed."""
    g = Game(position("Germany", "conduct_combat", edition="classic",
                      treasury={"Germany": 10}))
    tx = _tx(g)
    e = flow.charge_damage(tx, "Germany", 6, "bombing raid", "R-SBR-04", space="Germany",
                           by="United Kingdom")
    assert (e.paid, e.owed) == (6, 0)
    assert tx.state.treasury["Germany"] == 4
    assert tx.state.debts == {}
    assert [type(x) for x in tx.events] == [ev.IndustrialDamage]


def test_R_SBR_05_shortfall_becomes_a_debt_paid_from_next_income() -> None:
    """R-SBR-05 / R-INC-03: what cannot be paid is owed and comes out of the next income."""
    g = Game(position("Germany", "conduct_combat", edition="classic",
                      treasury={"Germany": 2}))
    tx = _tx(g)
    flow.charge_damage(tx, "Germany", 5, "rocket", "R-SBR-05", space="Germany")
    flow.charge_damage(tx, "Germany", 4, "rocket", "R-SBR-05", space="Germany")
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
