"""A repeated `end` cannot skip a phase (issue 13 item 11): an `end` that names its phase is
refused once that phase has passed; a bare `end` asks for `end confirm` before it passes an empty
Purchase with money to spend or an empty Noncombat Move while units can still move."""

from __future__ import annotations

import pytest

from rules import orders as od
from rules.errors import IllegalOrder, WrongPhase
from service.language import names_for, parse
from tests.rules.helpers import Game, position

SU, GER = "Soviet Union", "Germany"


def bare_end(g: Game, confirm: bool = False) -> None:
    g.do(od.EndPhase(confirm=confirm))


def test_end_carries_its_phase() -> None:
    g = Game()
    g.do(od.EndPhase(phase="purchase"))
    assert g.state.phase == "combat_move"
    err = g.refuse(od.EndPhase(phase="purchase"))
    assert isinstance(err, WrongPhase)
    assert str(err) == ("Purchase Units has already ended; it is Combat Move now. Nothing was "
                        "ended: 'end' again to end Combat Move.")


def test_end_naming_a_phase_not_begun_is_refused() -> None:
    g = Game()
    g.refuse(od.EndPhase(phase="noncombat_move"),
             "It is Soviet Union's Purchase Units now, not Noncombat Move: nothing was ended.")


def test_end_names_its_phase_in_the_order_language() -> None:
    names = names_for("a1941")
    assert parse("end combat move", names) == od.EndPhase(phase="combat_move")
    assert parse("end Noncombat Move confirm", names) == od.EndPhase(phase="noncombat_move",
                                                                      confirm=True)
    assert parse("end", names) == od.EndPhase()
    classic = names_for("classic")
    assert parse("end non-combat movement", classic) == od.EndPhase(phase="noncombat_move")


def test_bare_end_on_an_empty_purchase_asks_confirm() -> None:
    g = Game()
    g.refuse(od.EndPhase(),
             "Soviet Union has bought nothing and has 7 IPCs to spend. Buy with "
             "'buy <units>', or 'end confirm' to end Purchase Units without buying.")
    bare_end(g, confirm=True)
    assert g.state.phase == "combat_move"


def test_bare_end_after_a_purchase_or_without_money_needs_no_confirm() -> None:
    g = Game()
    g.do(od.Buy(units={"infantry": 1}))
    bare_end(g)
    assert g.state.phase == "combat_move"
    poor = Game(position(SU, "purchase", treasury={SU: 2}))
    bare_end(poor)
    assert poor.state.phase == "combat_move"


def test_bare_end_on_an_empty_noncombat_move_asks_confirm() -> None:
    g = Game(position(GER, "noncombat_move", {"Germany": {GER: {"infantry": 2}},
                                              "Eastern Europe": {GER: {"tank": 1}}}))
    with pytest.raises(IllegalOrder) as info:
        bare_end(g)
    assert str(info.value) == (
        "Nothing has moved in Noncombat Move and 3 of Germany's units can still move "
        "(2 in Germany, 1 in Eastern Europe). Move them, or 'end confirm' to end Noncombat Move "
        "without moving.")
    g.move({"tank": 1}, "Eastern Europe", "Germany")
    bare_end(g)
    assert g.state.phase == "mobilize"


def test_bare_end_on_noncombat_move_after_units_moved_in_combat() -> None:
    """Units that moved in Combat Move may not move again (NC-1): nothing is left to forfeit."""
    g = Game(position(GER, "combat_move", {"Eastern Europe": {GER: {"infantry": 1}},
                                           "Ukraine": {SU: {"infantry": 1}}},
                      owners={"Ukraine": SU}))
    g.move({"infantry": 1}, "Eastern Europe", "Ukraine")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Ukraine", all=True))
    g.end()
    assert g.state.phase == "noncombat_move"
    bare_end(g)
    assert g.state.phase == "mobilize"
