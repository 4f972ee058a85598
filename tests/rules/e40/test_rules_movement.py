"""Europe 1940 movement rules by their digest IDs (§9 CM, §11 NC, §12 MO-8, §16 LU/AU/SU,
§10.6 CO): scripted positions and dice, each test named after the rule it checks, the referee's
answers asserted as players read them (the 1940 citation, e.g. "(CM-15/NC-8)")."""

from __future__ import annotations

from typing import Any

from rules import events as ev
from rules import orders as od
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
    home = {**units, "tank": units.get("tank", 0) + 1}  # a tank stays home
    g = game(GER, CM, {WG: {GER: home}, HB: {FRA: {"infantry": 1}}},
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
    assert isinstance(land, ev.UnitsMoved)
    assert [(m.path, m.cost) for m in land.moves] == [
        (("Sicily", "Sea Zone 95", "Sea Zone 96", "Malta"), 3)]
    (deck,) = g.move({"fighter": 1}, "Sea Zone 97", "Malta")
    assert isinstance(deck, ev.UnitsMoved)
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


def test_CM_17_allied_planes_aboard_are_lost_with_the_carrier() -> None:
    g = game(UK, CM, {SZ110: {UK: {CARRIER: 1, "destroyer": 1}, USA: {"fighter": 1}},
                      SZ112: {GER: {"battleship": 1}}})
    g.move({CARRIER: 1, "destroyer": 1}, SZ110, SZ112)
    g.end()
    n = len(g.events)
    g.script(6, 1)  # the destroyer misses, the battleship hits; no die for the fighter
    g.do(od.Battle(space=SZ112))
    g.do(od.Casualties(space=SZ112, units={CARRIER: 1}, damaged={CARRIER: 1}))
    g.script(6, 1)
    g.do(od.Press(space=SZ112))
    g.do(od.Casualties(space=SZ112, units={CARRIER: 1}))
    assert ("Removed from the board: United Kingdom: 1 aircraft carrier; United States: 1 "
            "fighter (casualties in Sea Zone 112, GC-7).") in said(g, len(g.events) - n)
    assert g.units(SZ112, USA) == {} and g.units(SZ112, UK) == {"destroyer": 1}


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


# --------------------------------------------------------------------------------------------
# §9.4, §9.7 CM-23, CM-24, CM-25


def _staging(extra: dict[str, dict[str, dict[str, int]]] | None = None) -> Game:
    units = {SZ109: {UK: {"transport": 1}}, "United Kingdom": {UK: {"infantry": 1}},
             NB: {GER: {"infantry": 1}}}
    return game(UK, CM, {**units, **(extra or {})}, owners={NB: GER})


def test_CM_23_a_transport_loads_in_a_friendly_zone_along_its_route() -> None:
    g = _staging()
    g.move({"transport": 1}, SZ109, SZ110)
    g.move({"infantry": 1}, "United Kingdom", SZ110)  # boards in the zone it stopped in
    g.move({"infantry": 1}, SZ110, NB)
    g.end()
    assert g.state.battles[NB].amphibious


def test_CM_23_units_loaded_in_combat_move_must_land_in_an_assault() -> None:
    g = _staging()
    g.move({"infantry": 1}, "United Kingdom", SZ109)
    g.move({"transport": 1}, SZ109, SZ110)
    g.refuse(od.EndPhase(phase=CM),
             "Cannot end Combat Move yet: ",
             "infantry loaded in Combat Move aboard in Sea Zone 110 must offload in an amphibious assault (CM-23): offload it into a hostile "
             "territory, or 'undo'.")


def test_CM_23_no_offloading_past_an_ignored_submarine_without_an_own_warship() -> None:
    german_sub = {SZ110: {UK: {"transport": 1, "infantry": 1}, GER: {"submarine": 1}},
                  NB: {GER: {"infantry": 1}}}
    g = game(UK, CM, german_sub, owners={NB: GER})
    g.refuse(move({"infantry": 1}, SZ110, NB),
             "An enemy submarine is in Sea Zone 110: an amphibious assault may offload past it "
             "only if a warship of United Kingdom (a submarine counts, air units do not) is in "
             "Sea Zone 110 (CM-23/AA-1).")
    german_sub[SZ110][UK]["destroyer"] = 1
    g = game(UK, CM, german_sub, owners={NB: GER})
    g.move({"infantry": 1}, SZ110, NB)


def test_CM_24_units_from_a_neighbouring_territory_join_the_assault() -> None:
    g = game(UK, CM, {SZ110: {UK: {"transport": 1, "infantry": 1}},
                      HB: {UK: {"tank": 1}}, NB: {GER: {"infantry": 1}}},
             owners={NB: GER, HB: UK})
    g.move({"infantry": 1}, SZ110, NB)
    g.move({"tank": 1}, HB, NB)
    g.end()
    b = g.state.battles[NB]
    assert b.amphibious
    assert sorted(g.state.units[i].type for i in b.attacking) == ["infantry", "tank"]


def test_CM_25_only_assaults_announced_in_combat_move_are_carried_out() -> None:
    g = game(UK, CM, {SZ110: {UK: {"transport": 2, "infantry": 1, "artillery": 1}},
                      NB: {GER: {"infantry": 1}}}, owners={NB: GER})
    g.move({"infantry": 1}, SZ110, NB)
    g.end()
    g.refuse(move({"artillery": 1}, SZ110, NB),
             "Moves are made in Combat Move or Noncombat Move; it is Conduct Combat now (CM-2).")
    assert [g.state.units[i].type for i in g.state.battles[NB].attacking] == ["infantry"]


# --------------------------------------------------------------------------------------------
# §11 NC-1..NC-3, NC-6..NC-10, §12 MO-8


def test_NC_1_units_that_moved_or_fought_in_combat_move_stay() -> None:
    g = _germans_take_holland({"tank": 1}, (1, 6))
    assert g.owner(HB) == GER
    g.refuse(move({"tank": 1}, HB, WG),
             "Germany has 0 tanks in Holland Belgium able to make this move, not 1 (1 cannot: "
             "they moved in Combat Move, fought, or already moved as far as they may "
             "(NC-1/CM-7)).")
    g.move({"tank": 1}, WG, HB)  # the one that stayed home moves


def test_NC_2_air_units_fly_what_combat_move_left_them() -> None:
    g = game(UK, CM, {"United Kingdom": {UK: {"fighter": 1}}, NB: {GER: {"infantry": 1}}},
             owners={NB: GER})
    g.move({"fighter": 1}, "United Kingdom", NB)
    g.end()
    g.script(1, 6)
    g.fight_out(NB)
    g.end()
    g.refuse(move({"fighter": 1}, NB, "Scotland"),
             "Fighter has 2 of 4 movement left this turn; Normandy Bordeaux → Scotland is 3 "
             "(CM-9/CM-12).")
    g.move({"fighter": 1}, NB, "United Kingdom")
    assert said(g, 1) == ("United Kingdom moved 1 fighter from Normandy Bordeaux to United "
                          "Kingdom via Sea Zone 110.")


def test_NC_2_land_units_pass_no_hostile_territory() -> None:
    g = _germans_take_holland({"infantry": 1}, (1, 6))
    g.refuse(move({"tank": 1}, WG, NB, FR),
             "In Noncombat Move land units may not enter or pass through hostile France (NC-4).")


def test_NC_3_a_stranded_defender_lands_before_the_mover_moves() -> None:
    g = sea_attack({"cruiser": 1}, {CARRIER: 1, "fighter": 1})
    g.script(1, 6, 6)  # the cruiser hits the carrier, which is damaged; the defenders miss
    g.do(od.Battle(space=SEA))
    g.do(od.Casualties(space=SEA, units={CARRIER: 1}), power=GER)
    g.do(od.Retreat(space=SEA, to=OFFSHORE))
    evs = g.end()
    assert g.state.phase == NCM and g.state.power == UK
    assert said(g, len(evs)).endswith("United Kingdom: Noncombat Move. Germany moved 1 fighter "
                                      "from Sea Zone 112 to Denmark.")
    assert g.units("Denmark", GER) == {"fighter": 1}


def test_NC_6_only_fighters_and_tactical_bombers_land_at_sea_where_a_carrier_has_room() -> None:
    g = game(UK, NCM, {"United Kingdom": {UK: {"strategic bomber": 1, "fighter": 3}},
                       SZ110: {UK: {CARRIER: 1}}})
    g.refuse(move({"strategic bomber": 1}, "United Kingdom", SZ110),
             "Strategic bomber must end Noncombat Move in a safe landing place: Sea Zone 110 is "
             "not a territory friendly since the start of the turn; bombers never land on "
             "carriers (SU-2) (NC-5/NC-7).")
    g.refuse(move({"fighter": 3}, "United Kingdom", SZ110),
             "the friendly carriers in Sea Zone 110 have 2 free slots for the 3 fighters that "
             "would wait there", "(SU-2/NC-5/NC-7)")
    g.move({"fighter": 2}, "United Kingdom", SZ110)
    assert g.units(SZ110, UK) == {"fighter": 2, CARRIER: 1}


def test_NC_6_MO_8_a_carrier_to_be_mobilized_is_a_landing_place_and_must_be_placed() -> None:
    g = game(UK, NCM, {"United Kingdom": {UK: {"fighter": 1}}}, purchase={CARRIER: 1})
    g.move({"fighter": 1}, "United Kingdom", SZ110)
    g.end()
    assert g.state.phase == MOB
    g.refuse(od.EndPhase(phase=MOB),
             "A fighter waits in Sea Zone 110 for a new aircraft carrier that can still be "
             "placed there: place it (MO-8/CM-13).")
    g.refuse(od.Place(units={CARRIER: 1}, space=SZ109),
             "A fighter waits in Sea Zone 110 for a new aircraft carrier: place the carrier "
             "there first, and keep room for it on the production cap (MO-8/CM-13).")
    g.do(od.Place(units={CARRIER: 1}, space=SZ110))
    assert g.units(SZ110, UK) == {"fighter": 1, CARRIER: 1}


def test_NC_7_planes_that_cannot_land_are_destroyed() -> None:
    g = game(GER, CM, {WG: {GER: {"fighter": 1}}, HB: {FRA: {"infantry": 1}}},
             owners={HB: FRA})
    g.move({"fighter": 1}, WG, HB)
    g.end()
    g.script(1, 6)
    g.fight_out(HB)
    g.end()
    g.refuse(od.EndPhase(phase=NCM),
             "These air units have no safe landing place and would be destroyed: fighter in "
             "Holland Belgium (it can still reach Western Germany) (NC-7). Move them to land, or "
             "'end confirm' to accept the loss.")
    evs = g.do(od.EndPhase(phase=NCM, confirm=True))
    assert g.units(HB, GER) == {}
    assert "Germany: 1 fighter" in said(g, len(evs)) and "NC-7" in said(g, len(evs))


def test_NC_8_sea_units_avoid_hostile_zones_submarines_pass_and_share() -> None:
    g = game(UK, NCM, {SZ109: {UK: {"destroyer": 1, "submarine": 2}},
                       SZ110: {GER: {"cruiser": 1}},
                       SZ111: {GER: {"submarine": 1, "transport": 1}},
                       SZ119: {GER: {"destroyer": 1}}})
    g.refuse(move({"destroyer": 1}, SZ109, SZ112, SZ110),
             "In Noncombat Move sea units may not enter hostile Sea Zone 110 (enemy surface "
             "warships there (M-5)) (NC-8).")
    g.move({"submarine": 1}, SZ109, SZ112, SZ110)  # through the cruiser's zone
    g.refuse(move({"destroyer": 1}, SZ109, SZ124, SZ119),
             "In Noncombat Move sea units may not enter hostile Sea Zone 119")
    g.move({"submarine": 1}, SZ109, SZ111)  # only a submarine and a transport there: no combat
    assert g.units(SZ111, UK) == {"submarine": 1}
    assert g.units(SZ112, UK) == {"submarine": 1}


def test_NC_9_a_transport_that_offloaded_in_combat_neither_loads_nor_moves() -> None:
    g = game(UK, CM, {SZ110: {UK: {"transport": 1, "infantry": 2}},
                      "United Kingdom": {UK: {"infantry": 1}}, NB: {GER: {"infantry": 1}}},
             owners={NB: GER})
    g.move({"infantry": 2}, SZ110, NB)
    g.end()
    g.script(1, 1, 6)
    g.fight_out(NB)
    g.end()
    g.refuse(move({"infantry": 1}, "United Kingdom", SZ110),
             "a transport that offloaded or retreated loads no more this turn")
    g.refuse(move({"transport": 1}, SZ110, SZ109),
             "A transport that has offloaded may not move again this turn.")


def test_NC_10_a_carrier_moves_to_collect_the_plane_counting_on_it() -> None:
    g = game(UK, CM, {"United Kingdom": {UK: {"fighter": 1}}, SZ110: {UK: {CARRIER: 1}},
                      "Sea Zone 113": {GER: {"cruiser": 1}}})
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 113")  # the plan: the carrier
    g.end()
    g.script(1, 6)
    g.fight_out("Sea Zone 113")
    g.end()
    g.move({"fighter": 1}, "Sea Zone 113", SZ112)
    g.refuse(od.EndPhase(phase=NCM, confirm=True),
             "The aircraft carrier in Sea Zone 110 must move to Sea Zone 112 to collect the "
             "fighter waiting there (CM-13/NC-10/NC-6): move it there before ending Noncombat "
             "Move.")
    g.move({CARRIER: 1}, SZ110, SZ112)
    g.end()
    assert g.units(SZ112, UK) == {"fighter": 1, CARRIER: 1}


# --------------------------------------------------------------------------------------------
# §16 LU-1, LU-3, AU-2, AU-3, SU-1; §10.6 CO-2, CO-3


def test_LU_1_land_units_stay_in_territories() -> None:
    g = game(UK, NCM, {"United Kingdom": {UK: {"infantry": 1}}})
    g.refuse(move({"infantry": 1}, "United Kingdom", SZ110),
             "There is no friendly transport in Sea Zone 110 for infantry to board (SU-2, "
             "CM-23): move a transport there first, then load.")


def test_LU_3_every_land_unit_rides_a_transport_an_AA_gun_too() -> None:
    g = game(UK, NCM, {"United Kingdom": {UK: {"aa gun": 1, "infantry": 1, "tank": 1}},
                       SZ110: {UK: {"transport": 1}}})
    g.refuse(move({"aa gun": 1, "tank": 1}, "United Kingdom", SZ110),
             "a transport carries at most 2 infantry, or 1 artillery + 1 infantry, or 1 "
             "mechanized infantry + 1 infantry, or 1 tank + 1 infantry, or 1 aa gun + 1 "
             "infantry", "(SU-2)")
    g.move({"aa gun": 1, "infantry": 1}, "United Kingdom", SZ110)
    assert g.units(SZ110, UK) == {"transport": 1, "aa gun": 1, "infantry": 1}


def test_AU_2_no_landing_in_a_territory_captured_this_turn() -> None:
    g = _germans_take_holland({"infantry": 1, "fighter": 1}, (1, 1, 6))
    assert g.owner(HB) == GER
    g.refuse(od.EndPhase(phase=NCM),
             "These air units have no safe landing place and would be destroyed: fighter in "
             "Holland Belgium")
    g.move({"fighter": 1}, HB, WG)
    g.end()
    assert g.units(WG, GER)["fighter"] == 1


def test_AU_3_air_units_fly_over_hostile_territory_unfired() -> None:
    g = game(GER, CM, {WG: {GER: {"fighter": 1}},
                       HB: {FRA: {"infantry": 1, "aa gun": 1}}, NB: {FRA: {"infantry": 1}}},
             owners={HB: FRA, NB: FRA})
    (flown,) = g.move({"fighter": 1}, WG, NB, HB)
    assert isinstance(flown, ev.UnitsMoved)
    assert [m.path for m in flown.moves] == [(WG, HB, NB)]
    g.end()
    g.script(1, 6)  # the fighter and the defender only: no AA fire over Holland Belgium
    g.fight_out(NB)
    assert g.units(NB, GER) == {"fighter": 1}


def test_SU_1_ships_move_two_three_from_a_naval_base_zone() -> None:
    g = game(UK, CM, {SZ109: {UK: {"destroyer": 1}}, SZ125: {GER: {"cruiser": 1}}})
    g.refuse(move({"destroyer": 1}, SZ109, SZ125, SZ119, SZ111),
             "Destroyer moves 2; Sea Zone 109 → Sea Zone 125 is 3 (SU-1).")
    g = game(UK, CM, {"United Kingdom": {UK: {"naval base": 1}}, SZ109: {UK: {"destroyer": 1}},
                      SZ125: {GER: {"cruiser": 1}}})
    g.move({"destroyer": 1}, SZ109, SZ125, SZ119, SZ111)
    assert g.units(SZ125, UK) == {"destroyer": 1}


def test_CO_2_air_units_cannot_capture() -> None:
    g = game(GER, CM, {WG: {GER: {"fighter": 1}}, HB: {FRA: {"infantry": 1}}},
             owners={HB: FRA})
    g.move({"fighter": 1}, WG, HB)
    g.end()
    g.script(1, 6)
    evs = g.fight_out(HB)
    assert "Battle in Holland Belgium over: the attacker won." in said(g, len(evs))
    assert "captured" not in said(g, len(evs))
    assert g.owner(HB) == FRA and g.units(HB, GER) == {"fighter": 1}


def test_CO_3_control_and_income_change_at_once() -> None:
    g = game(GER, CM, {WG: {GER: {"infantry": 1}}, HB: {FRA: {"infantry": 1}}},
             owners={HB: FRA})
    before = g.state.income()
    g.move({"infantry": 1}, WG, HB)
    g.end()
    g.script(1, 6)
    evs = g.fight_out(HB)
    assert said(g, len(evs)).endswith("Germany captured Holland Belgium (+3 income; CO-1).")
    after = g.state.income()
    assert (after[GER] - before[GER], after[FRA] - before[FRA]) == (3, -3)
