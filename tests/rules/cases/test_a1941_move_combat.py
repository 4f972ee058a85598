"""Rulebook cases, a1941 §8 Combat Move: CM-1..CM-30. Digest: shared/rules/a1941.md."""

from __future__ import annotations

from rules import orders as od
from tests.rules.cases._move_common import (
    CM,
    GER,
    JAP,
    NCM,
    SOV,
    UK,
    USA,
    battles,
    fight_all,
    game,
    move,
    one,
    open_battles,
    setup_game,
)


def test_CM_1_units_move_only_in_the_two_movement_phases() -> None:
    """CM-1: movement towards combat happens in Combat Move, the rest in Noncombat Move; a move
    given in Purchase (or Conduct Combat) is refused with the way forward."""
    g = game(GER, "purchase", {"Eastern Europe": {GER: {"infantry": 1}}})
    g.refuse(move({"infantry": 1}, "Eastern Europe", "Karelia"), "Moves are made in Combat Move "
             "or Noncombat Move", "CM-1", "'end'")
    g.end()
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    assert g.units("Karelia", GER) == {"infantry": 1}


def test_CM_2_units_from_several_spaces_attack_one_space() -> None:
    """CM-2: with the printed setup Germany attacks Karelia from Norway Finland, Eastern Europe,
    West Russia and by air from Germany; each unit within its own Move."""
    g = setup_game(GER, CM)
    g.move({"infantry": 1}, "Norway Finland", "Karelia")
    g.move({"tank": 2}, "Eastern Europe", "Karelia")
    g.move({"infantry": 1}, "West Russia", "Karelia")
    g.move({"fighter": 1}, "Germany", "Karelia")
    assert one(g, "Karelia", GER, "fighter").moved == 2
    g.end()
    b = battles(g)["Karelia"]
    assert len(b.attacking) == 5 and len(b.defending) == 3
    assert g.units("Karelia", GER) == {"infantry": 2, "tank": 2, "fighter": 1}
    assert g.units("Norway Finland", GER) == {"infantry": 1}
    assert g.units("Eastern Europe", GER) == {"infantry": 4}


def test_CM_3_units_pass_friendly_spaces_and_stop_in_hostile_ones() -> None:
    """CM-3: a tank goes friendly → hostile (Germany → Eastern Europe → Karelia) but stops on
    entering hostile Karelia and cannot move on."""
    g = game(GER, CM, {"Germany": {GER: {"tank": 1, "industrial complex": 1}},
                       "Karelia": {SOV: {"infantry": 1}}})
    g.move({"tank": 1}, "Germany", "Karelia")
    t = one(g, "Karelia", GER, "tank")
    assert t.moved == 2 and t.stopped
    g.refuse(move({"tank": 1}, "Karelia", "Archangel"), "able to make this move", "CM-3")


def test_CM_4_combat_move_must_end_in_combat() -> None:
    """CM-4: in Combat Move land, air and sea units may not end in a friendly space; they move
    there in Noncombat Move instead."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 1, "fighter": 1}},
                       "Sea Zone 5": {GER: {"destroyer": 1}}})
    g.refuse(move({"infantry": 1}, "Eastern Europe", "Southern Europe"),
             "Combat Move must end in combat", "CM-4", "Noncombat Move")
    g.refuse(move({"fighter": 1}, "Eastern Europe", "Southern Europe"),
             "nothing hostile in Southern Europe", "CM-4")
    g.move({"destroyer": 1}, "Sea Zone 5", "Sea Zone 6")
    g.refuse(od.EndPhase(), "destroyer in Sea Zone 6", "Combat Move must end in combat (CM-4)",
             "Noncombat Move")


def test_CM_5_empty_hostile_territory_is_a_combat_move_and_is_taken() -> None:
    """CM-5, CC-0b: entering an empty enemy territory is a combat move; it is taken without a
    battle, with the production change (P-4)."""
    g = game(SOV, CM, {"Karelia": {SOV: {"infantry": 1}}})
    g.move({"infantry": 1}, "Karelia", "Norway Finland")
    assert g.owner("Norway Finland") == GER  # not yet: taken at Conduct Combat
    g.end()
    assert g.owner("Norway Finland") == SOV
    assert g.json["income"][SOV] == 8 and g.json["income"][GER] == 11
    assert battles(g) == {} and g.state.phase == NCM


def test_CM_6_a_territory_emptied_of_its_units_stays_yours() -> None:
    """CM-6: Germany moves every unit out of Norway Finland; it stays German until an enemy
    captures it, through the end of the turn and into the next."""
    g = game(GER, CM, {"Norway Finland": {GER: {"infantry": 2}}})
    g.move({"infantry": 2}, "Norway Finland", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER
    assert g.units("Norway Finland", GER) == {}
    while g.state.power == GER:
        g.end(confirm=True)
    assert g.state.power == UK and g.owner("Norway Finland") == GER


def test_CM_7_powers_of_one_side_share_territories() -> None:
    """CM-7 / MN-1: a UK unit may move into a US territory and share it; control and income
    stay with the United States."""
    g = game(UK, NCM, {"Eastern Canada": {UK: {"tank": 1}},
                       "Eastern United States": {USA: {"infantry": 1, "industrial complex": 1}}})
    g.move({"tank": 1}, "Eastern Canada", "Eastern United States")
    assert g.units("Eastern United States", UK) == {"tank": 1}
    assert g.units("Eastern United States", USA) == {"infantry": 1, "industrial complex": 1}
    assert g.owner("Eastern United States") == USA


def test_CM_8_no_second_move_and_no_reinforcement_once_combat_starts() -> None:
    """CM-8: combat moves are simultaneous: a unit that moved into a hostile space cannot move
    again, and in Conduct Combat no more units are sent."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"infantry": 2}},
                       "Karelia": {SOV: {"infantry": 1}}})
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.refuse(move({"infantry": 1}, "Karelia", "Archangel"), "able to make this move", "CM-8")
    g.end()
    assert g.state.phase == "conduct_combat" and open_battles(g) == ["Karelia"]
    g.refuse(move({"infantry": 1}, "Eastern Europe", "Karelia"), "Moves are made in Combat "
             "Move or Noncombat Move", "CM-1")


def test_CM_9_enemy_submarines_and_transports_do_not_block() -> None:
    """CM-9: a UK destroyer sails through a zone holding a German submarine and transport to
    attack beyond it; nothing happens where it only passed (§18 A-8)."""
    g = game(UK, CM, {"Sea Zone 8": {UK: {"destroyer": 1}},
                      "Sea Zone 6": {GER: {"submarine": 1, "transport": 1}},
                      "Sea Zone 5": {GER: {"battleship": 1}}})
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 5", "Sea Zone 6")
    g.end()
    assert set(battles(g)) == {"Sea Zone 5"}
    assert g.units("Sea Zone 6", GER) == {"submarine": 1, "transport": 1}


def test_CM_9_a_warship_may_stop_to_attack_submarines_and_transports() -> None:
    """CM-9 / CM-4 exception 4: the moving player may end in a zone holding only enemy
    submarines and transports to attack them; a battle is opened there."""
    g = game(UK, CM, {"Sea Zone 8": {UK: {"destroyer": 1}},
                      "Sea Zone 6": {GER: {"submarine": 1, "transport": 1}}})
    g.move({"destroyer": 1}, "Sea Zone 8", "Sea Zone 6")
    g.end()
    b = battles(g)["Sea Zone 6"]
    assert b.attacker == UK and len(b.defending) == 2


def test_CM_10_enemy_submarines_alone_do_not_make_a_start_zone_hostile() -> None:
    """CM-10: a German destroyer sharing its start zone with only a UK submarine and transport
    is not in a hostile zone: no battle unless it chooses one, and it may move in Noncombat."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"destroyer": 1}, UK: {"submarine": 1,
                                                                  "transport": 1}}})
    g.end()
    assert battles(g) == {} and g.state.phase == NCM
    g.move({"destroyer": 1}, "Sea Zone 5", "Sea Zone 6")
    assert g.units("Sea Zone 6", GER) == {"destroyer": 1}


def test_CM_11a_units_starting_in_a_hostile_zone_may_stay_and_fight() -> None:
    """CM-11 (a): a German battleship starting with a UK destroyer (placed there by the UK)
    stays; a sea battle follows in that zone."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"battleship": 1}, UK: {"destroyer": 1}}})
    g.end()
    b = battles(g)["Sea Zone 5"]
    assert b.attacker == GER and b.defenders == (UK,)
    g.script(1, 6)
    g.do(od.Battle(space="Sea Zone 5", all=True))
    assert g.units("Sea Zone 5", UK) == {} and g.units("Sea Zone 5", GER) == {"battleship": 1}


def test_CM_11b_units_starting_in_a_hostile_zone_may_leave_and_fight_elsewhere() -> None:
    """CM-11 (b): the German battleship leaves the hostile zone and attacks next door; no battle
    in the zone it left."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"battleship": 1}, UK: {"destroyer": 1}},
                       "Sea Zone 6": {UK: {"transport": 1}}})
    g.move({"battleship": 1}, "Sea Zone 5", "Sea Zone 6")
    g.end()
    assert set(battles(g)) == {"Sea Zone 6"}


def test_CM_11c_leave_load_and_come_back_to_fight() -> None:
    """CM-11 (c): loading is impossible in the hostile start zone, so the German transport
    leaves, loads in a friendly zone and returns for an assault behind the battleship."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"battleship": 1, "transport": 1},
                                      UK: {"destroyer": 1}},
                       "Eastern Europe": {GER: {"infantry": 1}},
                       "Western Europe": {GER: {"infantry": 1}}})
    g.refuse(move({"infantry": 1}, "Eastern Europe", "Sea Zone 5"), "may not load in hostile "
             "Sea Zone 5", "UT-12")
    g.move({"transport": 1}, "Sea Zone 5", "Sea Zone 6")
    g.move({"infantry": 1}, "Western Europe", "Sea Zone 6")
    g.move({"transport": 1}, "Sea Zone 6", "Sea Zone 5")
    g.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    g.end()
    bs = battles(g)
    assert set(bs) == {"Sea Zone 5", "Karelia"}
    assert bs["Karelia"].blocked_by == "Sea Zone 5" and bs["Karelia"].amphibious


def test_CM_12_sea_units_that_fought_from_a_hostile_start_make_no_noncombat_move() -> None:
    """CM-12: the battleship that stayed and fought (CM-11 a) may not move in Noncombat Move."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"battleship": 1}, UK: {"destroyer": 1}}})
    g.end()
    fight_all(g, "Sea Zone 5", 1, 6)
    g.end()
    assert g.state.phase == NCM
    g.refuse(move({"battleship": 1}, "Sea Zone 5", "Sea Zone 6"), "able to make this move",
             "NC-1")


def test_CM_13_sea_units_may_escape_a_hostile_start_zone() -> None:
    """CM-13 / CM-4 exception 3: leaving a hostile zone for a friendly one ends Combat Move
    legally with no battle; the ship may not move again in Noncombat Move (CM-12)."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"battleship": 1}, UK: {"destroyer": 1}}})
    g.move({"battleship": 1}, "Sea Zone 5", "Sea Zone 6")
    g.end()
    assert battles(g) == {} and g.state.phase == NCM
    g.refuse(move({"battleship": 1}, "Sea Zone 6", "Sea Zone 3"), "able to make this move",
             "NC-1")


def test_CM_14_air_units_share_one_movement_budget_across_both_phases() -> None:
    """CM-14 / NC-2: a fighter that spent 2 attacking has 2 left for Noncombat Move."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 1}},
                       "Sea Zone 9": {UK: {"transport": 1}}})
    g.move({"fighter": 1}, "Western Europe", "Sea Zone 9", "Sea Zone 8")
    assert one(g, "Sea Zone 9", GER, "fighter").moved == 2
    g.end()
    g.do(od.Battle(space="Sea Zone 9"))  # a lone transport: destroyed without dice (UT-6)
    g.end()
    assert g.state.phase == NCM and g.units("Sea Zone 9", UK) == {}
    g.refuse(move({"fighter": 1}, "Sea Zone 9", "Germany"), "has 2 of 4 movement left",
             "is 3", "CM-14")
    g.move({"fighter": 1}, "Sea Zone 9", "Western Europe", "Sea Zone 8")
    assert one(g, "Western Europe", GER, "fighter").moved == 4


def test_CM_15_bomber_may_not_spend_all_its_movement_to_attack() -> None:
    """CM-15: a bomber (Move 6) may not end its combat move 6 spaces away: it could not land."""
    g = game(GER, CM, {"Germany": {GER: {"bomber": 1, "industrial complex": 1}}})
    g.refuse(move({"bomber": 1}, "Germany", "Eastern United States"), "could not land",
             "0 movement left", "CM-15/AIR-4")
    g.move({"bomber": 1}, "Germany", "United Kingdom")
    assert one(g, "United Kingdom", GER, "bomber").moved == 3


def test_CM_15_fighter_spends_all_four_at_sea_only_if_a_carrier_can_be_there() -> None:
    """CM-15: a fighter may spend its full 4 to attack at sea only if a carrier could be in that
    zone by the end of the turn: refused without one, accepted when a German carrier that has
    not moved can reach the zone in Noncombat Move."""
    units = {"Western Europe": {GER: {"fighter": 1}}, "Sea Zone 11": {USA: {"transport": 1}}}
    g = game(GER, CM, units)
    g.refuse(move({"fighter": 1}, "Western Europe", "Sea Zone 11"), "could not land",
             "CM-15/AIR-4", "carrier")
    g2 = game(GER, CM, {**units, "Sea Zone 13": {GER: {"aircraft carrier": 1}}})
    g2.move({"fighter": 1}, "Western Europe", "Sea Zone 11")
    assert one(g2, "Sea Zone 11", GER, "fighter").moved == 4


def test_CM_16_landing_proof_is_checked_before_any_combat() -> None:
    """CM-16 / AIR-4: the fighter relied on the carrier's noncombat move; once that carrier
    makes a combat move elsewhere, Combat Move cannot end until the fighter can land."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 1}},
                       "Sea Zone 11": {USA: {"transport": 1}},
                       "Sea Zone 13": {GER: {"aircraft carrier": 1}},
                       "Sea Zone 14": {UK: {"transport": 1}}})
    g.move({"fighter": 1}, "Western Europe", "Sea Zone 11")
    g.move({"aircraft carrier": 1}, "Sea Zone 13", "Sea Zone 14")
    g.refuse(od.EndPhase(), "fighter in Sea Zone 11 has no possible landing place (AIR-4)")


def test_CM_17_amphibious_assaults_are_announced_in_combat_move() -> None:
    """CM-17: offloading into a hostile territory is the announcement of an amphibious assault;
    it is refused in Noncombat Move."""
    units = {"Sea Zone 5": {GER: {"transport": 1, "infantry": 1}}}
    g = game(GER, NCM, units)
    g.refuse(move({"infantry": 1}, "Sea Zone 5", "Karelia"), "Karelia is hostile",
             "amphibious assault, made only in Combat Move")
    c = game(GER, CM, units)
    c.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    assert one(c, "Karelia", GER, "infantry").assault == "Karelia"


def test_CM_18_amphibious_assault_combined_with_overland_and_air_attack() -> None:
    """CM-18: seaborne infantry and tank, overland infantry and a fighter take Karelia
    together (dice: fighter 6, tank 6, infantry 1 and 6; defender 6)."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"transport": 1, "infantry": 1, "tank": 1}},
                       "Eastern Europe": {GER: {"infantry": 1}},
                       "Western Europe": {GER: {"fighter": 1}},
                       "Karelia": {SOV: {"infantry": 1}}})
    g.move({"infantry": 1, "tank": 1}, "Sea Zone 5", "Karelia")
    g.move({"infantry": 1}, "Eastern Europe", "Karelia")
    g.move({"fighter": 1}, "Western Europe", "Karelia")
    g.end()
    b = battles(g)["Karelia"]
    assert b.amphibious and len(b.seaborne) == 2 and len(b.attacking) == 4
    fight_all(g, "Karelia", 6, 6, 1, 6, 6)
    assert g.owner("Karelia") == GER
    assert g.units("Karelia", GER) == {"infantry": 2, "tank": 1, "fighter": 1}
    assert g.json["income"][GER] == 13 and g.json["income"][SOV] == 6


def test_CM_19_moving_transports_into_position_is_a_combat_move() -> None:
    """CM-19 / CM-4 exception 2: a loaded transport moves into an empty zone and its cargo
    assaults; without the assault the same move is refused at the end of Combat Move."""
    units = {"Sea Zone 6": {GER: {"transport": 1, "infantry": 2}}}
    g = game(GER, CM, units)
    g.move({"transport": 1}, "Sea Zone 6", "Sea Zone 5")
    g.refuse(od.EndPhase(), "transport in Sea Zone 5", "CM-4")
    g.move({"infantry": 2}, "Sea Zone 5", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER and g.units("Karelia", GER) == {"infantry": 2}


def test_CM_20_air_units_are_assigned_to_the_sea_or_the_land_battle() -> None:
    """CM-20: in an assault with a sea battle, a fighter sent to the sea zone fights only there;
    one sent to the territory fights only in the land battle."""
    g = game(GER, CM, {"Sea Zone 6": {GER: {"battleship": 1, "transport": 1, "infantry": 1}},
                       "Sea Zone 5": {UK: {"destroyer": 1}},
                       "Western Europe": {GER: {"fighter": 2}},
                       "Karelia": {SOV: {"infantry": 1}}})
    g.move({"battleship": 1, "transport": 1}, "Sea Zone 6", "Sea Zone 5")
    g.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    g.move({"fighter": 1}, "Western Europe", "Sea Zone 5")
    g.move({"fighter": 1}, "Western Europe", "Karelia")
    g.end()
    bs = battles(g)
    sea_f = one(g, "Sea Zone 5", GER, "fighter").id
    land_f = one(g, "Karelia", GER, "fighter").id
    assert sea_f in bs["Sea Zone 5"].attacking and land_f not in bs["Sea Zone 5"].attacking
    assert bs["Karelia"].attacking == (land_f,) and bs["Karelia"].blocked_by == "Sea Zone 5"


def test_CM_21_own_fighters_take_off_before_their_carrier_moves() -> None:
    """CM-21: a fighter that takes off before its carrier moves fights on its own; one that
    stays aboard while the carrier moves is cargo and cannot make a combat move (§18 A-7)."""
    units = {"Sea Zone 46": {JAP: {"aircraft carrier": 1, "fighter": 2}},
             "Sea Zone 31": {USA: {"destroyer": 1}}, "Sea Zone 30": {UK: {"transport": 1}}}
    g = game(JAP, CM, units)
    g.move({"fighter": 1}, "Sea Zone 46", "Sea Zone 31")
    assert one(g, "Sea Zone 31", JAP, "fighter").moved == 1
    g.move({"aircraft carrier": 1}, "Sea Zone 46", "Sea Zone 31")
    aboard = [f for f in g.state.units_in("Sea Zone 31") if f.type == "fighter"
              and f.carried_by is not None]
    assert len(aboard) == 1 and aboard[0].moved == 0
    g.refuse(move({"fighter": 2}, "Sea Zone 31", "Sea Zone 30"), "Japan has 1 fighter",
             "not 2", "cargo", "CM-21")
    g.end()
    b = battles(g)["Sea Zone 31"]
    assert aboard[0].id not in b.attacking and aboard[0].id in b.launched


def test_CM_22_guest_fighters_ride_as_cargo_and_sink_with_the_carrier() -> None:
    """CM-22: a US fighter on a UK carrier stays aboard when the carrier attacks; it cannot
    fight, the UK cannot fly it, and it is lost when the carrier sinks (dice: carrier 6;
    German destroyer 1)."""
    g = game(UK, CM, {"Sea Zone 14": {UK: {"aircraft carrier": 1}, USA: {"fighter": 1}},
                      "Sea Zone 15": {GER: {"destroyer": 1}}})
    g.refuse(move({"fighter": 1}, "Sea Zone 14", "Sea Zone 15"), "United Kingdom has no fighter")
    g.move({"aircraft carrier": 1}, "Sea Zone 14", "Sea Zone 15")
    assert g.units("Sea Zone 15", USA) == {"fighter": 1}
    g.end()
    b = battles(g)["Sea Zone 15"]
    assert b.attacking == (one(g, "Sea Zone 15", UK, "aircraft carrier").id,)
    fight_all(g, "Sea Zone 15", 6, 1)
    assert g.units("Sea Zone 15", UK) == {} and g.units("Sea Zone 15", USA) == {}
    assert g.units("Sea Zone 15", GER) == {"destroyer": 1}


def test_CM_23_fighters_land_where_the_carrier_ends_its_move() -> None:
    """CM-23: the US carrier moves Sea Zone 42 → 40 in Noncombat Move and a fighter from Western
    United States lands on it there."""
    g = game(USA, NCM, {"Sea Zone 42": {USA: {"aircraft carrier": 1}},
                        "Western United States": {USA: {"fighter": 1, "industrial complex": 1}}})
    g.move({"aircraft carrier": 1}, "Sea Zone 42", "Sea Zone 40")
    g.move({"fighter": 1}, "Western United States", "Sea Zone 40")
    g.end()
    carrier = one(g, "Sea Zone 40", USA, "aircraft carrier")
    assert one(g, "Sea Zone 40", USA, "fighter").carried_by == carrier.id


def test_CM_24_submarine_moves_through_enemy_warships_but_stops_at_a_destroyer() -> None:
    """CM-24: with no destroyer, a German submarine passes a zone holding a UK battleship to
    attack beyond; a UK destroyer on the way stops it, and stopping there means a battle."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"submarine": 2}},
                       "Sea Zone 6": {UK: {"battleship": 1}},
                       "Sea Zone 8": {UK: {"transport": 1}}})
    g.move({"submarine": 1}, "Sea Zone 5", "Sea Zone 8", "Sea Zone 6")
    assert g.units("Sea Zone 8", GER) == {"submarine": 1}
    d = game(GER, CM, {"Sea Zone 5": {GER: {"submarine": 1}},
                       "Sea Zone 6": {UK: {"destroyer": 1}},
                       "Sea Zone 8": {UK: {"transport": 1}}})
    d.refuse(move({"submarine": 1}, "Sea Zone 5", "Sea Zone 8", "Sea Zone 6"), "must stop",
             "Sea Zone 6", "enemy destroyer", "CM-24")
    d.move({"submarine": 1}, "Sea Zone 5", "Sea Zone 6")
    d.end()
    assert set(battles(d)) == {"Sea Zone 6"}


def test_CM_25_tank_blitz_captures_empty_territory_and_income() -> None:
    """CM-25: a tank blitzes through empty Karelia into empty Archangel. Karelia is taken at
    once, with production (P-4), before Conduct Combat; Archangel when combat begins."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"tank": 1}}})
    g.move({"tank": 1}, "Eastern Europe", "Archangel", "Karelia")
    assert g.owner("Karelia") == GER and g.owner("Archangel") == SOV
    assert g.json["income"][GER] == 13 and g.json["income"][SOV] == 6
    assert g.json["treasury"][GER] == 12
    g.end()
    assert g.owner("Archangel") == GER
    assert g.json["income"][GER] == 14 and g.json["income"][SOV] == 5


def test_CM_25_blitz_may_end_in_a_friendly_territory_or_back_at_the_start() -> None:
    """CM-25 / CM-4 exception 1: the second space may be friendly, even the start territory."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"tank": 1}}, "West Russia": {GER: {"tank": 1}}})
    g.move({"tank": 1}, "Eastern Europe", "West Russia", "Karelia")
    assert g.owner("Karelia") == GER and g.units("West Russia", GER) == {"tank": 2}
    g.move({"tank": 1}, "West Russia", "West Russia", "Archangel")
    assert g.owner("Archangel") == GER
    assert [t.moved for t in g.state.units_in("West Russia") if t.type == "tank"] == [2, 2]
    g.end()
    assert g.state.phase == NCM and battles(g) == {}
    assert g.json["income"][GER] == 12 + 1 + 1 and g.json["income"][SOV] == 7 - 2


def test_CM_26_blitz_stops_at_any_enemy_unit() -> None:
    """CM-26: one Soviet infantry in Karelia stops the tank there; it may attack Karelia but
    not blitz through it."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"tank": 1}}, "Karelia": {SOV: {"infantry": 1}}})
    g.refuse(move({"tank": 1}, "Eastern Europe", "Archangel", "Karelia"), "Karelia holds enemy "
             "units", "must stop there", "CM-26")
    g.move({"tank": 1}, "Eastern Europe", "Karelia")
    assert g.owner("Karelia") == SOV


def test_CM_26_an_industrial_complex_alone_stops_a_blitz() -> None:
    """CM-26 / UL-3: the Soviet complex in empty Caucasus stops a German tank's blitz."""
    g = game(GER, CM, {"Ukraine": {GER: {"tank": 1}}})
    assert g.units("Caucasus", SOV) == {"industrial complex": 1}
    g.refuse(move({"tank": 1}, "Ukraine", "Russia", "Caucasus"), "industrial complex alone "
             "stops a blitz", "CM-26")
    assert g.owner("Caucasus") == SOV


def test_CM_27_transport_stops_on_meeting_enemy_surface_warships() -> None:
    """CM-27: a UK transport may not sail through a zone with a German destroyer; the zone it
    starts in does not count, so it may leave a hostile start zone for two zones."""
    g = game(UK, CM, {"Sea Zone 8": {UK: {"transport": 1}},
                      "Sea Zone 6": {GER: {"destroyer": 1}}})
    g.refuse(move({"transport": 1}, "Sea Zone 8", "Sea Zone 5", "Sea Zone 6"), "must stop in Sea "
             "Zone 6", "CM-27")
    h = game(UK, CM, {"Sea Zone 6": {UK: {"transport": 1}, GER: {"destroyer": 1}}})
    h.move({"transport": 1}, "Sea Zone 6", "Sea Zone 4", "Sea Zone 3")
    assert one(h, "Sea Zone 4", UK, "transport").moved == 2
    h.end()
    assert battles(h) == {}


def test_CM_28_transport_loads_along_its_route_and_must_assault() -> None:
    """CM-28: a transport loads in its start zone and in a friendly zone on its way; cargo loaded
    in Combat Move must be offloaded in an amphibious assault."""
    g = game(GER, CM, {"Sea Zone 6": {GER: {"transport": 1}},
                       "Western Europe": {GER: {"infantry": 1}},
                       "Eastern Europe": {GER: {"tank": 1}}})
    g.move({"infantry": 1}, "Western Europe", "Sea Zone 6")
    g.move({"transport": 1}, "Sea Zone 6", "Sea Zone 5")
    g.move({"tank": 1}, "Eastern Europe", "Sea Zone 5")
    assert g.units("Sea Zone 5", GER) == {"transport": 1, "infantry": 1, "tank": 1}
    g.refuse(od.EndPhase(), "loaded in Combat Move", "must offload in an amphibious assault",
             "CM-28")
    g.move({"infantry": 1, "tank": 1}, "Sea Zone 5", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER
    assert g.units("Karelia", GER) == {"infantry": 1, "tank": 1}


def test_CM_29_assault_past_enemy_submarines_needs_an_own_warship() -> None:
    """CM-29: an assault may ignore a UK submarine in the offloading zone only if a German
    warship is in that zone: without one the offload is refused at once, with the reason."""
    units = {"Sea Zone 5": {GER: {"transport": 1, "infantry": 1}, UK: {"submarine": 1}}}
    g = game(GER, CM, units)
    g.refuse(move({"infantry": 1}, "Sea Zone 5", "Karelia"), "enemy submarine is in Sea Zone 5",
             "warship of Germany", "air units do not", "CM-29/AA-2",
             "Move a warship into Sea Zone 5 first")
    w = game(GER, CM, {"Sea Zone 5": {GER: {"transport": 1, "infantry": 1, "submarine": 1},
                                      UK: {"submarine": 1}}})
    w.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    w.end()
    assert w.owner("Karelia") == GER and battles(w) == {}


def test_CM_29_AA_2_a_warship_moved_in_this_phase_lets_the_assault_pass_the_submarine() -> None:
    """CM-29 / AA-2: a German destroyer that moves into the offloading zone in this Combat Move
    counts. If the warship then leaves, Combat Move cannot end."""
    g = game(GER, CM, {"Sea Zone 5": {GER: {"transport": 1, "infantry": 1}, UK: {"submarine": 1}},
                       "Sea Zone 6": {GER: {"destroyer": 1}}})
    g.refuse(move({"infantry": 1}, "Sea Zone 5", "Karelia"), "CM-29")
    g.move({"destroyer": 1}, "Sea Zone 6", "Sea Zone 5")
    g.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    g.end()
    assert g.owner("Karelia") == GER and "Sea Zone 5" not in battles(g)
    a = game(GER, CM, {"Sea Zone 5": {GER: {"transport": 1, "infantry": 1, "destroyer": 1},
                                      UK: {"submarine": 1}},
                       "Sea Zone 6": {UK: {"destroyer": 1}}})
    a.move({"infantry": 1}, "Sea Zone 5", "Karelia")
    a.move({"destroyer": 1}, "Sea Zone 5", "Sea Zone 6")
    a.refuse(od.EndPhase(), "Enemy submarines in Sea Zone 5", "CM-29")


def test_CM_30_cargo_is_destroyed_with_its_transport() -> None:
    """CM-30 / CC-6C: two German infantry aboard a transport never fight and sink with it (UK
    battleship 1; German destroyer 6; then the lone transport is defenceless)."""
    g = game(UK, CM, {"Sea Zone 7": {UK: {"battleship": 1}},
                      "Sea Zone 6": {GER: {"destroyer": 1, "transport": 1, "infantry": 2}}})
    g.move({"battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    b = battles(g)["Sea Zone 6"]
    assert len(b.defending) == 2  # destroyer and transport; the infantry is cargo
    fight_all(g, "Sea Zone 6", 1, 6)
    assert g.units("Sea Zone 6", GER) == {}
    assert g.units("Sea Zone 6", UK) == {"battleship": 1}
    assert JAP not in b.defenders
