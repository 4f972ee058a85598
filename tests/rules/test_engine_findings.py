"""Engine gaps found by legal_orders and random legal play (rules/legal.py, test_properties),
kept as regression tests. All three were fixed in the engine (commit e6c72b2)."""

from __future__ import annotations

from rules import events as ev
from rules import orders as od
from tests.rules.helpers import Game, position

UK, GER = "United Kingdom", "Germany"


def test_NC_1_seaborne_units_of_an_assault_from_a_hostile_zone_stay_put() -> None:
    """NC-1 / UT-10 / AA-3: infantry aboard since an earlier turn lands in Western Europe after
    its sea battle in Sea Zone 8 is won; it took part in an amphibious assault, so it may not
    move in Noncombat Move."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 1, "battleship": 1}},
        "Sea Zone 8": {GER: {"destroyer": 1}},
    }, owners={"Southern Europe": UK}))
    g.move({"battleship": 1, "transport": 1}, "Sea Zone 7", "Sea Zone 8")
    g.move({"infantry": 1}, "Sea Zone 8", "Western Europe")  # declared assault (CM-17)
    g.script(1, 6)  # the battleship hits, the destroyer misses
    g.end()
    g.do(od.Battle(space="Sea Zone 8"))
    assert g.owner("Western Europe") == UK and g.units("Western Europe", UK) == {"infantry": 1}
    g.end()
    assert g.state.phase == "noncombat_move"
    g.refuse(od.Move(units={"infantry": 1}, frm="Western Europe", to="Southern Europe"), "NC-1")


def test_AA_7_overland_units_that_retreated_leave_the_amphibious_battle() -> None:
    """AA-7 / CC-6B: the overland tank retreats to Southern Europe after round 1; the seaborne
    infantry stays and fights on alone, so round 2 rolls only for the infantry."""
    g = Game(position(UK, "combat_move", {
        "Southern Europe": {UK: {"tank": 1}},
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 1}},
        "Western Europe": {GER: {"infantry": 2}},
    }, owners={"Southern Europe": UK}))
    g.move({"tank": 1}, "Southern Europe", "Western Europe")
    g.move({"infantry": 1}, "Sea Zone 7", "Western Europe")
    g.end()
    g.script(6, 6, 6, 6)  # round 1: everyone misses
    g.do(od.Battle(space="Western Europe"))
    g.do(od.Retreat(space="Western Europe", to="Southern Europe"))
    assert g.units("Southern Europe", UK) == {"tank": 1}
    g.script(6, 6, 6, 6)  # round 2: one attacking infantry, two defending infantry (+1 spare)
    evs = g.do(od.Battle(space="Western Europe"))
    attack = [e for e in evs if isinstance(e, ev.DiceRolled) and e.side == "attacker"]
    assert [grp[0] for grp in attack[0].groups] == ["infantry"]


def test_CC_6C_attacking_transports_that_cannot_retreat_do_not_stall_the_game() -> None:
    """CC-6C / A-10: German ships start in Sea Zone 47 with a Soviet destroyer (CM-10) and stay
    to fight. The German destroyer sinks in round 1; the transport is left and came from
    nowhere, so it cannot retreat: it is treated as defenceless and lost, and the battle ends
    (some order must move the game on)."""
    g = Game(position(GER, "combat_move", {
        "Sea Zone 47": {GER: {"transport": 1, "infantry": 1, "destroyer": 1},
                        "Soviet Union": {"destroyer": 1}},
        "Soviet Far East": {"Soviet Union": {"infantry": 1}},
    }))
    g.end()
    g.script(6, 1)  # the German destroyer misses, the Soviet destroyer hits
    g.do(od.Battle(space="Sea Zone 47"))
    assert g.units("Sea Zone 47", GER) == {"transport": 1, "infantry": 1}
    g.do(od.Battle(space="Sea Zone 47", all=True))
    assert g.units("Sea Zone 47", GER) == {}
    assert g.json["battles"] == []
