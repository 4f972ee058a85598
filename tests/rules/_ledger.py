"""Shared by the random-play tests: dice that count what they roll, and the IPC ledger that
every treasury change must balance against."""

from __future__ import annotations

from rules import events as ev
from rules import tech
from rules.dice import HmacDice
from rules.mechanisms.convoys import ConvoyDisrupted
from rules.mechanisms.facilities import FacilityRepaired
from rules.mechanisms.objectives import ObjectivesPaid
from rules.mechanisms.research import ResearchRolled
from rules.state import GameState


class CountingDice(HmacDice):
    rolled = 0

    def roll(self, n: int, purpose: str) -> list[int]:
        self.rolled += n
        return super().roll(n, purpose)


class Ledger:
    """What the events say the treasuries change by (every change is an event: purchases,
    research dice R-TEC-01, repairs, damage R-SBR-04/05, neutral fees R-NEU-02, capital
    seizures R-CAP-02/CAP-1, income net of debts R-INC-03); the income of a Collect Income is
    the production level changed by the convoy losses and objectives told before it (IN-1)."""

    def __init__(self) -> None:
        self.adjust = 0

    def __call__(self, before: GameState, e: ev.Event) -> dict[str, int]:
        match e:
            case ev.TurnStarted():
                self.adjust = 0
                return {}
            case ev.UnitsPurchased():
                assert e.cost == sum((tech.cost(before, e.power, u) or 0) * n
                                     for u, n in e.units.items())
                return {e.power: -e.cost}
            case ev.PurchaseCleared():
                return {e.power: e.refund}
            case ev.PurchaseRefunded():
                return {e.power: e.amount}
            case ResearchRolled():
                research = before.edition.rules.rules.research
                assert research is not None and e.cost == e.dice * research.die_cost
                return {e.power: -e.cost}
            case FacilityRepaired():
                return {e.power: -e.cost}
            case ev.DamagePaid():
                assert e.paid + e.debt == e.amount
                return {e.power: -e.paid}
            case ev.NeutralViolated():
                return {e.power: -e.fee}
            case ConvoyDisrupted():
                assert 0 <= e.loss <= min(e.total, e.cap)
                self.adjust -= e.loss
                return {}
            case ObjectivesPaid():
                self.adjust += sum(n for _, n, _ in e.paid)
                return {}
            case ev.IncomeCollected():
                assert e.amount == max(0, before.income()[e.power] + self.adjust), (e, self.adjust)
                assert e.debt_paid == min(before.debts.get(e.power, 0), e.amount)
                self.adjust = 0
                return {e.power: e.amount - e.debt_paid}
            case ev.TerritoryCaptured() if e.seized:
                assert e.seized_from is not None and e.seized == before.treasury[e.seized_from]
                return {e.seized_from: -e.seized, e.by: e.seized}
            case _:
                return {}
