"""Classic strategic bombing raids (digest §6.8, R-SBR-01..05) and the damage they cost."""

from __future__ import annotations

from dataclasses import replace

from rules import flow
from rules.engine import Tx
from tests.rules.helpers import Game, position

GER, UK = "Germany", "United Kingdom"


def test_R_SBR_05_shortfall_becomes_a_debt() -> None:
    """R-SBR-04/05: the owner pays what it has; the rest is owed from its next income."""
    g = Game(position(UK, "conduct_combat", edition="classic", treasury={GER: 4}))
    tx = Tx(g.state)
    flow.charge_damage(tx, GER, 6, "a bombing raid on Germany", "R-SBR-04")
    (e,) = tx.events
    assert (e.paid, e.debt) == (4, 2)
    assert tx.state.treasury[GER] == 0 and tx.state.debts == {GER: 2}
    tx2 = Tx(replace(g.state, debts={GER: 1}))
    flow.charge_damage(tx2, GER, 3, "a bombing raid on Germany", "R-SBR-04")
    assert tx2.state.treasury[GER] == 1 and tx2.state.debts == {GER: 1}
    flow.charge_damage(tx2, GER, 0, "nothing", "R-SBR-04")
    assert len(tx2.events) == 1
