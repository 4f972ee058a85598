"""Europe 1940 movement rules by their digest IDs (§9 CM, §11 NC, §12 MO-8, §16 LU/AU/SU,
§10.6 CO): scripted positions and dice, each test named after the rule it checks, the referee's
answers asserted as players read them (the 1940 citation, e.g. "(CM-15/NC-8)")."""

from __future__ import annotations

from typing import Any

from rules import orders as od
from rules.errors import RulesError
from tests.rules.e40._battles import OFFSHORE, SEA, sea_attack
from tests.rules.e40.test_raids import lines
from tests.rules.helpers import Game, position

E40 = "europe1940"
GER, UK, ITA, FRA, USA = "Germany", "United Kingdom", "Italy", "France", "United States"
CM, NCM, MOB = "combat_move", "noncombat_move", "mobilize"
WG, HB, NB, FR = "Western Germany", "Holland Belgium", "Normandy Bordeaux", "France"
SZ109, SZ110, SZ111, SZ112 = "Sea Zone 109", "Sea Zone 110", "Sea Zone 111", "Sea Zone 112"
SZ119, SZ124, SZ125 = "Sea Zone 119", "Sea Zone 124", "Sea Zone 125"
CARRIER = "aircraft carrier"


def game(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]],
         **extra: Any) -> Game:
    return Game(position(power, phase, units, edition=E40, **extra))


def move(units: dict[str, int], frm: str, to: str, *via: str) -> od.Move:
    return od.Move(units=units, frm=frm, to=to, via=via)


def said(g: Game, n: int) -> str:
    return " ".join(lines(g, n))


def _germans_take_holland(units: dict[str, int], dice: tuple[int, ...]) -> Game:
    """Germany attacks 1 French infantry in Holland Belgium from Western Germany with
    ``units`` and fights it out with ``dice``; Noncombat Move has begun."""
    g = game(GER, CM, {WG: {GER: {**units, "tank": 1}}, HB: {FRA: {"infantry": 1}}},
             owners={HB: FRA, FR: FRA, NB: FRA})
    g.move(units, WG, HB)
    g.end()
    g.script(*dice)
    g.fight_out(HB)
    g.end()
    assert g.state.phase == NCM
    return g


# --------------------------------------------------------------------------------------------
# §9.1 CM-5, CM-6, CM-8


def test_CM_5_control_is_kept_after_every_unit_leaves() -> None:
    g = game(GER, CM, {WG: {GER: {"tank": 2}}, FR: {FRA: {"infantry": 1}}},
             owners={FR: FRA})
    g.move({"tank": 2}, WG, FR)
    assert g.units(WG, GER) == {"major industrial complex": 1}
    assert g.owner(WG) == GER
    g.end()
    assert g.owner(WG) == GER


def test_CM_6_a_unit_cannot_move_fight_and_move_again() -> None:
    g = game(GER, CM, {WG: {GER: {"tank": 1}}, FR: {FRA: {"infantry": 1}}},
             owners={FR: FRA, NB: FRA})
    g.move({"tank": 1}, WG, FR)
    g.refuse(move({"tank": 1}, FR, NB),
             "Germany has 0 tanks in France able to make this move, not 1 (1 cannot: they "
             "already moved into a hostile space or used their movement (CM-7/CM-6)).")


def test_CM_6_no_units_added_once_combat_has_begun() -> None:
    g = game(GER, CM, {WG: {GER: {"tank": 2}}, FR: {FRA: {"infantry": 1}}},
             owners={FR: FRA})
    g.move({"tank": 1}, WG, FR)
    g.end()
    assert g.state.phase == "conduct_combat"
    g.refuse(move({"tank": 1}, WG, FR),
             "Moves are made in Combat Move or Noncombat Move; it is Conduct Combat now (CM-2).")


def _ignored_subs() -> Game:
    """British destroyers in Sea Zone 109; a German submarine and transport in Sea Zone 110, a
    German cruiser in Sea Zone 112."""
    return game(UK, CM, {SZ109: {UK: {"destroyer": 2}},
                         SZ110: {GER: {"submarine": 1, "transport": 1}},
                         SZ112: {GER: {"cruiser": 1}}})


def test_CM_8_enemy_submarines_and_transports_do_not_block() -> None:
    g = _ignored_subs()
    g.move({"destroyer": 1}, SZ109, SZ112, SZ110)
    assert g.units(SZ112, UK) == {"destroyer": 1}
    g.end()
    assert list(g.state.battles) == [SZ112]  # the ignored zone is no battle


def test_CM_8_attacking_them_attacks_them_all_while_others_sail_on() -> None:
    g = _ignored_subs()
    g.move({"destroyer": 1}, SZ109, SZ110)
    g.move({"destroyer": 1}, SZ109, SZ112, SZ110)
    g.end()
    assert sorted(g.state.battles) == [SZ110, SZ112]
    b = g.state.battles[SZ110]
    assert sorted(g.state.units[i].type for i in b.defending) == ["submarine", "transport"]


# --------------------------------------------------------------------------------------------
# §9.2 CM-9, CM-12, CM-13


def test_CM_9_an_attacking_plane_saves_movement_to_land() -> None:
    g = game(GER, CM, {WG: {GER: {"fighter": 1, "strategic bomber": 1}},
                       "Scotland": {UK: {"infantry": 1}}})
    g.refuse(move({"fighter": 1}, WG, "Scotland"),
             "Fighter could not land anywhere after attacking Scotland: it would have 1 movement "
             "left and no safe landing place within reach", "(CM-9/CM-13). Attack a closer "
             "space.")
    g.move({"strategic bomber": 1}, WG, "Scotland")  # 3 there, 3 back of its 6


def test_CM_12_range_counts_every_space_entered() -> None:
    g = game(GER, CM, {"Poland": {GER: {"fighter": 1}}, "Scotland": {UK: {"infantry": 1}}})
    g.refuse(move({"fighter": 1}, "Poland", "Scotland"),
             "Fighter has 4 of 4 movement left this turn; Poland → Scotland is 5 (CM-9/CM-12).")


def test_CM_12_an_island_costs_its_sea_zone_and_itself_a_carrier_not_its_own_zone() -> None:
    g = game(ITA, CM, {"Sicily": {ITA: {"fighter": 1}},
                       "Sea Zone 97": {ITA: {CARRIER: 1, "fighter": 1}},
                       "Malta": {UK: {"infantry": 1}}}, owners={"Malta": UK})
    (land,) = g.move({"fighter": 1}, "Sicily", "Malta")
    assert [(m.path, m.cost) for m in land.moves] == [
        (("Sicily", "Sea Zone 95", "Sea Zone 96", "Malta"), 3)]
    (deck,) = g.move({"fighter": 1}, "Sea Zone 97", "Malta")
    assert [(m.path, m.cost) for m in deck.moves] == [(("Sea Zone 97", "Sea Zone 96", "Malta"),
                                                      2)]


def test_CM_12_an_air_base_adds_one() -> None:
    without = game(GER, CM, {"Poland": {GER: {"fighter": 1}}, SZ111: {UK: {"destroyer": 1}}})
    without.refuse(move({"fighter": 1}, "Poland", SZ111, "Germany", "Sea Zone 113", SZ112),
                   "could not land anywhere after attacking Sea Zone 111: it would have 0 "
                   "movement left")
    based = game(GER, CM, {"Poland": {GER: {"fighter": 1, "air base": 1}},
                           SZ111: {UK: {"destroyer": 1}}})
    based.refuse(move({"fighter": 1}, "Poland", SZ111, "Germany", "Sea Zone 113", SZ112),
                 "could not land anywhere after attacking Sea Zone 111: it would have 1 "
                 "movement left")


def test_CM_13_the_landing_plan_may_count_on_a_carrier_moving_there() -> None:
    german = {"Sea Zone 113": {GER: {"cruiser": 1}}}
    g = game(UK, CM, {"United Kingdom": {UK: {"fighter": 1}}, **german})
    g.refuse(move({"fighter": 1}, "United Kingdom", "Sea Zone 113"),
             "no carrier with room that can be within 1 of Sea Zone 113 at the end of the turn "
             "(a carrier counts if it is there, or makes no combat move and can get there in "
             "Noncombat Move) (CM-9/CM-13)")
    g = game(UK, CM, {"United Kingdom": {UK: {"fighter": 1}}, SZ110: {UK: {CARRIER: 1}},
                      **german})
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 113")


# --------------------------------------------------------------------------------------------
# §9.3-9.4 CM-14, CM-15, CM-17, CM-18, CM-19


def test_CM_14_ships_sharing_a_zone_with_enemy_warships_stay_and_fight_or_leave() -> None:
    g = game(UK, CM, {SZ110: {UK: {"destroyer": 1, "cruiser": 1}, GER: {"cruiser": 1}}})
    g.move({"destroyer": 1}, SZ110, SZ109)  # leaves without fighting
    g.end()
    b = g.state.battles[SZ110]  # the cruiser stayed: it fights
    assert [g.state.units[i].type for i in b.attacking] == ["cruiser"]
    assert g.units(SZ109, UK) == {"destroyer": 1}


def test_CM_14_leaving_and_not_fighting_is_no_battle_and_no_noncombat_move() -> None:
    g = game(UK, CM, {SZ110: {UK: {"destroyer": 1}, GER: {"cruiser": 1}}})
    g.move({"destroyer": 1}, SZ110, SZ109)
    g.end()
    assert not g.state.battles
    assert g.state.phase == NCM
    g.refuse(move({"destroyer": 1}, SZ109, SZ110), "moved in Combat Move")


def test_CM_15_sea_units_stop_in_hostile_zones_a_submarine_passes() -> None:
    g = game(UK, CM, {SZ109: {UK: {"destroyer": 1, "submarine": 1}},
                      SZ110: {GER: {"cruiser": 1}}, SZ112: {GER: {"cruiser": 1}}})
    g.refuse(move({"destroyer": 1}, SZ109, SZ112, SZ110),
             "Destroyer must stop in Sea Zone 110: it is hostile, enemy surface warships there "
             "(M-5)", "SU-1")
    g.move({"submarine": 1}, SZ109, SZ112, SZ110)
    assert g.units(SZ112, UK) == {"submarine": 1}


def test_CM_15_a_submarine_stops_at_an_enemy_destroyer() -> None:
    g = game(UK, CM, {SZ109: {UK: {"submarine": 1}}, SZ110: {GER: {"destroyer": 1}},
                      SZ112: {GER: {"cruiser": 1}}})
    g.refuse(move({"submarine": 1}, SZ109, SZ112, SZ110),
             "Submarines must stop on entering Sea Zone 110: it holds an enemy destroyer "
             "(CM-15/NC-8).")
    g.move({"submarine": 1}, SZ109, SZ110)
    g.end()
    assert list(g.state.battles) == [SZ110]


def test_CM_17_allied_planes_on_a_moving_carrier_are_cargo() -> None:
    g = game(UK, CM, {SZ110: {UK: {CARRIER: 1, "destroyer": 1}, USA: {"fighter": 1}},
                      SZ112: {GER: {"cruiser": 1}}})
    g.move({CARRIER: 1, "destroyer": 1}, SZ110, SZ112)
    assert g.units(SZ112, USA) == {"fighter": 1}  # carried along
    g.end()
    b = g.state.battles[SZ112]
    assert sorted(g.state.units[i].type for i in b.attacking) == [CARRIER, "destroyer"]


def test_CM_18_planes_land_on_a_moved_carrier_only_where_its_move_ends() -> None:
    g = game(UK, NCM, {SZ109: {UK: {CARRIER: 1}}, "Scotland": {UK: {"fighter": 1}}})
    g.move({CARRIER: 1}, SZ109, SZ111, SZ110)
    g.refuse(move({"fighter": 1}, "Scotland", SZ110, SZ109),
             "Fighter must end Noncombat Move in a safe landing place: there is no friendly "
             "carrier in Sea Zone 110; no other carrier with room can come there for it or be "
             "placed there this turn (SU-2/NC-5/NC-7).")
    g.move({"fighter": 1}, "Scotland", SZ111)
    g.end()
    assert g.units(SZ111, UK) == {CARRIER: 1, "fighter": 1}


def test_CM_19_a_transport_meeting_enemy_warships_stops() -> None:
    g = game(UK, CM, {SZ109: {UK: {"transport": 1, "destroyer": 1}},
                      SZ110: {GER: {"cruiser": 1}}, SZ112: {GER: {"cruiser": 1}}})
    g.refuse(move({"transport": 1}, SZ109, SZ112, SZ110),
             "Transport must stop in Sea Zone 110: it is hostile, enemy surface warships there "
             "(M-5) (CM-19/SU-1).")


def test_CM_19_the_zone_it_started_in_does_not_count() -> None:
    g = game(UK, CM, {SZ110: {UK: {"transport": 1, "destroyer": 1}, GER: {"cruiser": 1}},
                      SZ125: {GER: {"cruiser": 1}}})
    g.move({"transport": 1, "destroyer": 1}, SZ110, SZ125, SZ111)
    assert g.units(SZ125, UK) == {"transport": 1, "destroyer": 1}
