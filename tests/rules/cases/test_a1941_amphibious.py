"""Rule cases for amphibious assaults (§9.1 AA-1..AA-9) and retreats at sea (A-10)."""

from __future__ import annotations

from rules import orders as od
from tests.rules.helpers import Game, position

GER, UK = "Germany", "United Kingdom"


def assault_through_hostile_zone(air_to: str | None = None) -> Game:
    """UK transport (2 infantry) with a battleship moves into German-held Sea Zone 6 and
    declares an assault on Western Europe; optionally a fighter joins ``air_to``."""
    units = {
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 2, "battleship": 1}},
        "Sea Zone 6": {GER: {"destroyer": 1}},
        "Western Europe": {GER: {"infantry": 1}},
    }
    if air_to:
        units["United Kingdom"] = {UK: {"fighter": 1}}
    g = Game(position(UK, "combat_move", units))
    g.move({"transport": 1, "battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g.move({"infantry": 2}, "Sea Zone 6", "Western Europe")
    if air_to:
        g.move({"fighter": 1}, "United Kingdom", air_to)
    g.end()
    return g


def test_AA_1_AA_2_sea_combat_comes_first() -> None:
    """AA-1 / AA-2 / CC-0: the sea battle in the offloading zone is fought before the landing;
    the land battle waits for it."""
    g = assault_through_hostile_zone()
    assert g.state.battles["Western Europe"].blocked_by == "Sea Zone 6"
    g.refuse(od.Battle(space="Western Europe"), "sea combat comes first", "AA-1")
    assert g.units("Sea Zone 6", UK) == {"transport": 1, "infantry": 2, "battleship": 1}


def test_AA_3_landing_after_the_sea_is_cleared() -> None:
    """AA-3: once the sea battle leaves no defender, the seaborne units land and fight."""
    g = assault_through_hostile_zone()
    g.script(1, 6)  # battleship sinks the destroyer; destroyer misses
    g.do(od.Battle(space="Sea Zone 6"))
    assert g.units("Western Europe", UK) == {"infantry": 2}
    assert g.units("Sea Zone 6", UK) == {"transport": 1, "battleship": 1}
    g.script(1, 6, 6)  # one infantry hits; the defender misses
    g.do(od.Battle(space="Western Europe"))
    assert g.owner("Western Europe") == UK


def test_AA_5_AA_6_failed_landing() -> None:
    """AA-5 / AA-6: when the transports retreat from the sea battle, no seaborne unit lands; the
    air unit sent to the land battle must still fight a round there before it may retreat."""
    g = assault_through_hostile_zone(air_to="Western Europe")
    g.script(6, 6)  # the battleship misses, so does the destroyer
    g.do(od.Battle(space="Sea Zone 6"))
    g.do(od.Retreat(space="Sea Zone 6", to="Sea Zone 7"))
    assert g.units("Sea Zone 7", UK) == {"transport": 1, "infantry": 2, "battleship": 1}
    land = g.state.battles["Western Europe"]
    assert land.blocked_by is None and land.step == "ready"
    g.refuse(od.Retreat(space="Western Europe", to="United Kingdom"), "after a round")
    g.script(6, 6)
    g.do(od.Battle(space="Western Europe"))
    g.do(od.Retreat(space="Western Europe", to="Western Europe"))
    assert g.owner("Western Europe") == GER
    assert g.units("Western Europe", UK) == {"fighter": 1}  # lands in Noncombat Move (AA-8)


def test_AA_7_seaborne_units_never_retreat() -> None:
    """AA-7: overland attackers may retreat; seaborne ones stay and fight on."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 1}},
        "Southern Europe": {UK: {"tank": 1}},
        "Western Europe": {GER: {"infantry": 2}},
    }, owners={"Southern Europe": UK}))
    g.move({"infantry": 1}, "Sea Zone 7", "Western Europe")
    g.move({"tank": 1}, "Southern Europe", "Western Europe")
    g.end()
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space="Western Europe"))
    g.do(od.Retreat(space="Western Europe", to="Southern Europe"))
    assert g.units("Southern Europe", UK) == {"tank": 1}
    assert g.units("Western Europe", UK) == {"infantry": 1}
    assert g.state.battles["Western Europe"].step == "ready"  # the seaborne infantry fights on


def test_AA_4_one_transport_offloads_into_one_territory() -> None:
    """AA-4 / UT-12: one transport may offload into only one territory."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 6": {UK: {"transport": 1, "infantry": 2}},
        "Western Europe": {GER: {"infantry": 1}},
        "Norway Finland": {GER: {"infantry": 1}},
    }))
    g.move({"infantry": 1}, "Sea Zone 6", "Western Europe")
    g.refuse(od.Move(units={"infantry": 1}, frm="Sea Zone 6", to="Norway Finland"),
             "only one territory")


def test_AA_8_AA_9_air_units_fight_where_assigned() -> None:
    """AA-8 / CM-20: an air unit sent to the sea zone fights the sea battle only; AA-9:
    defending air units in the territory fight only the land battle."""
    g = assault_through_hostile_zone(air_to="Sea Zone 6")
    sea = g.state.battles["Sea Zone 6"]
    fighter = next(u.id for u in g.state.units.values() if u.type == "fighter")
    assert fighter in sea.attacking
    assert fighter not in g.state.battles["Western Europe"].attacking


def test_A_10_no_retreat_for_ships_that_started_in_the_zone() -> None:
    """A-10 / CM-11a: ships that stayed in a hostile zone came from nowhere: no retreat."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 6": {UK: {"destroyer": 1}, GER: {"destroyer": 1}},
    }))
    g.end()
    g.script(6, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    g.refuse(od.Retreat(space="Sea Zone 6", to="Sea Zone 7"), "Possible: none")


def test_CC_4c_CC_5_sea_battle_reminders() -> None:
    """CC-4c / CC-5: with a destroyer present submarines fire with the others; transports take
    hits only when nothing else can."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"submarine": 1, "transport": 1}},
    }))
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    assert g.units("Sea Zone 6", GER) == {}  # sub sunk; the lone transport is defenceless


def test_A_8_assault_ignores_enemy_submarines_with_a_warship_present() -> None:
    """A-8 / CM-29 / USB-5: enemy submarines in the offloading zone may be ignored when an own
    warship is there at the end of Combat Move; no sea battle is fought."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 1, "destroyer": 1}},
        "Sea Zone 6": {GER: {"submarine": 1}},
        "Western Europe": {GER: {"infantry": 1}},
    }))
    g.move({"transport": 1, "destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.move({"infantry": 1}, "Sea Zone 6", "Western Europe")
    g.end()
    assert "Sea Zone 6" not in g.state.battles
    assert g.json["battles"] == ["Western Europe"]


def test_CC_0_amphibious_assaults_before_any_other_battle_sea_included() -> None:
    """CC-0: every announced amphibious assault is resolved before general combat, and a sea
    battle that has nothing to do with a landing is general combat too."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"transport": 1, "infantry": 1}},
        "Sea Zone 2": {UK: {"destroyer": 1}},
        "Sea Zone 3": {GER: {"destroyer": 1}},
        "Western Europe": {GER: {"infantry": 1}},
    }))
    g.move({"infantry": 1}, "Sea Zone 7", "Western Europe")
    g.move({"destroyer": 1}, "Sea Zone 2", "Sea Zone 3")
    g.end()
    g.refuse(od.Battle(space="Sea Zone 3"), "Resolve amphibious assaults first (Western Europe)",
             "CC-0")
    g.refuse(od.Battle(space="Sea Zone 3", all=True), "amphibious assaults first")
    g.script(1, 6)  # the seaborne infantry hits; the defender misses
    g.do(od.Battle(space="Western Europe"))
    assert g.owner("Western Europe") == UK
    g.script(1, 6)
    g.do(od.Battle(space="Sea Zone 3"))
    assert g.units("Sea Zone 3", GER) == {}
