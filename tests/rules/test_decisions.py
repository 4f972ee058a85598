"""The waits and the orders that answer them, as the mechanisms register them (issue 15)."""

from __future__ import annotations

from rules import engine  # noqa: F401  (imports the mechanisms, which register)
from rules import orders as od
from rules.decisions import Owed
from rules.mechanisms.bombing import BOMBING_RAID, Bomb
from rules.mechanisms.interception import AIR_BATTLE, AIR_CASUALTIES, INTERCEPTION, Intercept
from rules.mechanisms.liberation import FREE_UNITS
from rules.mechanisms.scramble import SCRAMBLE, Scramble
from rules.mechanisms.withdrawal import Withdraw
from rules.turn import registry as reg


def test_each_wait_is_answered_by_the_orders_its_mechanisms_register() -> None:
    assert {k: k.answers for k in Owed} == {
        Owed.TURN: frozenset(),
        Owed.CASUALTIES: frozenset({"casualties"}),
        Owed.SUBMERGE_OR_STRIKE: frozenset({"submerge", "strike", "withdraw"}),
        Owed.PRESS_OR_RETREAT: frozenset({"press", "retreat"}),
        BOMBING_RAID: frozenset({"bomb"}),
        INTERCEPTION: frozenset({"intercept"}),
        AIR_BATTLE: frozenset({"air_battle"}),
        AIR_CASUALTIES: frozenset({"casualties"}),
        FREE_UNITS: frozenset({"free_units"}),
        SCRAMBLE: frozenset({"scramble"}),
    }


def test_battle_decisions_are_given_by_a_party_to_the_battle_in_their_space() -> None:
    decisions = [od.Casualties(space="Sea Zone 5", units={"submarine": 1}),
                 od.Submerge(space="Sea Zone 5"), od.Strike(space="Sea Zone 5"),
                 Withdraw(space="Sea Zone 5"), Intercept(space="Sea Zone 5"),
                 Scramble(space="Sea Zone 5", units={})]
    assert [reg.decision_space(o) for o in decisions] == ["Sea Zone 5"] * 6
    in_turn = [od.Press(space="Sea Zone 5"), od.Retreat(space="Ukraine", to="Russia"),
               Bomb(space="Germany"), od.Battle(space="Ukraine"),
               od.StandingCasualties(order=("infantry",))]
    assert [reg.decision_space(o) for o in in_turn] == [None] * 5
