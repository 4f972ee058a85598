"""Rulebook cases, a1941 air movement: AIR-1..AIR-6, UF-1..UF-6, UC-2, UC-3, MN-4, MN-8, A-7,
A-15, A-22. Digest: shared/rules/a1941.md."""

from __future__ import annotations

from rules import events as ev
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
    pieces,
)


def test_AIR_1_fighters_on_an_island_do_not_defend_its_sea_zone() -> None:
    """AIR-1 / MAP-14: a Japanese fighter on Okinawa does not defend the transport in Sea Zone
    45; the US destroyer sinks the lone transport without dice (UT-6)."""
    g = game(USA, CM, {"Sea Zone 44": {USA: {"destroyer": 1}},
                       "Sea Zone 45": {JAP: {"transport": 1}},
                       "Okinawa": {JAP: {"fighter": 1}}})
    g.move({"destroyer": 1}, "Sea Zone 44", "Sea Zone 45")
    g.end()
    b = battles(g)["Sea Zone 45"]
    assert b.defending == (one(g, "Sea Zone 45", JAP, "transport").id,)
    g.do(od.Battle(space="Sea Zone 45"))
    assert g.units("Sea Zone 45", JAP) == {} and g.units("Okinawa", JAP) == {"fighter": 1}


def test_AIR_2_air_units_fly_over_hostile_spaces_as_if_friendly() -> None:
    """AIR-2: a German fighter flies over occupied Soviet Karelia to attack Archangel, then back
    to a territory friendly since the start of the turn."""
    g = game(GER, CM, {"Eastern Europe": {GER: {"fighter": 1}},
                       "Karelia": {SOV: {"infantry": 2}},
                       "Archangel": {SOV: {"infantry": 1}}})
    g.move({"fighter": 1}, "Eastern Europe", "Archangel", "Karelia")
    assert one(g, "Archangel", GER, "fighter").moved == 2
    g.end()
    fight_all(g, "Archangel", 1, 6)
    g.end()
    g.move({"fighter": 1}, "Archangel", "Eastern Europe", "Karelia")
    g.end()
    assert g.units("Eastern Europe", GER) == {"fighter": 1}
    assert g.owner("Archangel") == SOV  # air units never capture (CC-7b)


def test_AIR_3_air_units_cannot_hit_submarines_without_a_friendly_destroyer() -> None:
    """AIR-3 / §18 A-11: a German fighter alone against a UK submarine: nobody can hit, the
    battle ends with no dice. With a German destroyer in the battle the fighter's hit counts
    (fighter 1, destroyer 6; submarine 6)."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 1}}, "Sea Zone 8": {UK: {
        "submarine": 1}}})
    g.move({"fighter": 1}, "Western Europe", "Sea Zone 8")
    g.end()
    g.do(od.Battle(space="Sea Zone 8", all=True))  # no dice scripted: none may be rolled
    ended = [e for e in g.events if isinstance(e, ev.BattleEnded)]
    assert ended[-1].result == "no combat" and g.units("Sea Zone 8", UK) == {"submarine": 1}

    d = game(GER, CM, {"Western Europe": {GER: {"fighter": 1}},
                       "Sea Zone 7": {GER: {"destroyer": 1}},
                       "Sea Zone 8": {UK: {"submarine": 1}}})
    d.move({"fighter": 1}, "Western Europe", "Sea Zone 8")
    d.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 8")
    d.end()
    fight_all(d, "Sea Zone 8", 1, 6, 6)
    assert d.units("Sea Zone 8", UK) == {}


def test_AIR_4_landing_proof_may_rely_on_another_combat_move() -> None:
    """AIR-4: the fighter spends all 4 to attack Sea Zone 11; the German carrier joins that
    attack in Combat Move, which is proof enough (all attacking rolls assumed to hit)."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 1}},
                       "Sea Zone 11": {USA: {"transport": 1}},
                       "Sea Zone 13": {GER: {"aircraft carrier": 1}}})
    g.move({"fighter": 1}, "Western Europe", "Sea Zone 11")
    g.move({"aircraft carrier": 1}, "Sea Zone 13", "Sea Zone 11")
    g.end()
    assert set(battles(g)) == {"Sea Zone 11"}


def test_AIR_4_landing_proof_may_rely_on_a_carrier_to_be_placed() -> None:
    """AIR-4 / NC-6: a US fighter from Alaska spends 4 to attack Sea Zone 11 only because the US
    bought a carrier that can be placed there (next to Eastern United States)."""
    units = {"Alaska": {USA: {"fighter": 1}}, "Sea Zone 11": {GER: {"transport": 1}}}
    g = game(USA, "purchase", units)
    g.end()
    g.refuse(move({"fighter": 1}, "Alaska", "Sea Zone 11"), "could not land", "CM-15/AIR-4")
    b = game(USA, "purchase", units)
    b.do(od.Buy(units={"aircraft carrier": 1}))
    b.end()
    b.move({"fighter": 1}, "Alaska", "Sea Zone 11")
    assert one(b, "Sea Zone 11", USA, "fighter").moved == 4


def test_AIR_5_promise_lapses_when_the_fighter_lands_elsewhere() -> None:
    """AIR-5: the carrier need not come for a fighter that has since landed safely elsewhere."""
    g = game(USA, NCM, {"Sea Zone 42": {USA: {"aircraft carrier": 1}},
                        "Western United States": {USA: {"fighter": 1, "industrial complex": 1}}})
    g.move({"fighter": 1}, "Western United States", "Sea Zone 40")
    g.move({"fighter": 1}, "Sea Zone 40", "Western United States")
    g.end()
    assert g.state.phase == "mobilize"
    assert g.units("Sea Zone 42", USA) == {"aircraft carrier": 1}


def test_AIR_5_promised_new_carrier_must_be_placed_where_the_fighter_waits() -> None:
    """AIR-5 / MB-6: the fighter waits in Sea Zone 7 for the carrier the United Kingdom bought;
    placing that carrier in Sea Zone 8 instead is refused."""
    g = game(UK, "purchase", {"United Kingdom": {UK: {"fighter": 1, "industrial complex": 1}}})
    g.do(od.Buy(units={"aircraft carrier": 1}))
    g.end()
    g.end()
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 7")
    g.end()
    g.refuse(od.Place(units={"aircraft carrier": 1}, space="Sea Zone 8"), "MB-6")
    g.do(od.Place(units={"aircraft carrier": 1}, space="Sea Zone 7"))
    g.end()
    assert g.units("Sea Zone 7", UK) == {"aircraft carrier": 1, "fighter": 1}


def test_AIR_6_every_space_entered_costs_one() -> None:
    """AIR-6: coastal territory → adjacent sea zone costs 1; a fighter leaving a carrier does not
    pay for the carrier's zone; territory → territory across a border costs 1."""
    g = game(USA, NCM, {"Western United States": {USA: {"fighter": 2, "industrial complex": 1}},
                        "Sea Zone 42": {USA: {"aircraft carrier": 1, "fighter": 1}},
                        "Sea Zone 40": {USA: {"aircraft carrier": 1}}})
    g.move({"fighter": 1}, "Western United States", "Sea Zone 42")
    assert [f.moved for f in pieces(g, "Sea Zone 42", USA, "fighter")] == [1, 0]
    g.move({"fighter": 1}, "Western United States", "Eastern United States")
    assert one(g, "Eastern United States", USA, "fighter").moved == 1
    # The fighter with the most movement left goes: the one on the carrier, paying only for
    # Sea Zone 40.
    g.move({"fighter": 1}, "Sea Zone 42", "Sea Zone 40")
    assert one(g, "Sea Zone 40", USA, "fighter").moved == 1
    assert one(g, "Sea Zone 42", USA, "fighter").moved == 1


def test_UF_1_fighter_moves_four() -> None:
    """UF-1: Eastern United States → Midway is 4 for a fighter; Wake Island (5) is out of range."""
    g = game(USA, NCM, {"Eastern United States": {USA: {"fighter": 2, "industrial complex": 1}}})
    g.refuse(move({"fighter": 1}, "Eastern United States", "Wake Island"), "has 4 of 4 movement "
             "left", "is 5", "CM-14/AIR-6")
    g.move({"fighter": 1}, "Eastern United States", "Midway")
    assert one(g, "Midway", USA, "fighter").moved == 4


def test_UF_2_a_carrier_holds_two_fighters() -> None:
    """UF-2: a US carrier with one fighter aboard takes one more; a third is refused."""
    g = game(USA, NCM, {"Sea Zone 42": {USA: {"aircraft carrier": 1, "fighter": 1}},
                        "Western United States": {USA: {"fighter": 2, "industrial complex": 1}}})
    g.move({"fighter": 1}, "Western United States", "Sea Zone 42")
    g.refuse(move({"fighter": 1}, "Western United States", "Sea Zone 42"), "carrier has room",
             "UF-2")
    g.end()
    carrier = one(g, "Sea Zone 42", USA, "aircraft carrier")
    assert [f.carried_by for f in pieces(g, "Sea Zone 42", USA, "fighter")] == [carrier.id] * 2


def test_UF_3_fighter_launched_from_a_carrier_fights_and_lands_back() -> None:
    """UF-3: a Japanese fighter takes off from its carrier in Sea Zone 46, sinks a lone US
    transport in Sea Zone 31 (UT-6) and lands on the same carrier in Noncombat Move."""
    g = game(JAP, CM, {"Sea Zone 46": {JAP: {"aircraft carrier": 1, "fighter": 1}},
                       "Sea Zone 31": {USA: {"transport": 1}}})
    g.move({"fighter": 1}, "Sea Zone 46", "Sea Zone 31")
    g.end()
    g.do(od.Battle(space="Sea Zone 31"))
    g.end()
    g.move({"fighter": 1}, "Sea Zone 31", "Sea Zone 46")
    g.end()
    carrier = one(g, "Sea Zone 46", JAP, "aircraft carrier")
    f = one(g, "Sea Zone 46", JAP, "fighter")
    assert f.carried_by == carrier.id and f.moved == 2


def test_UF_4_carrier_that_picks_up_a_fighter_moves_no_further() -> None:
    """UF-4: the US carrier goes one zone to where its fighter waits and may not move on."""
    g = game(USA, NCM, {"Sea Zone 42": {USA: {"aircraft carrier": 1}},
                        "Western United States": {USA: {"fighter": 1, "industrial complex": 1}}})
    g.move({"fighter": 1}, "Western United States", "Sea Zone 40")
    g.move({"aircraft carrier": 1}, "Sea Zone 42", "Sea Zone 40")
    assert one(g, "Sea Zone 40", USA, "aircraft carrier").moved == 1
    g.refuse(move({"aircraft carrier": 1}, "Sea Zone 40", "Sea Zone 37"), "able to make this "
             "move")
    g.end()
    assert one(g, "Sea Zone 40", USA, "fighter").carried_by is not None


def test_UF_5_fighters_on_a_defending_carrier_fly_and_return_to_it() -> None:
    """UF-5: a German submarine attacks a UK carrier with a fighter: the fighter defends in the
    air (submarine hits can never fall on it) and lands back on the carrier (dice: sub 6;
    fighter 6, carrier 6; sub 6; fighter 6, carrier 1)."""
    g = game(GER, CM, {"Sea Zone 15": {GER: {"submarine": 1}},
                       "Sea Zone 14": {UK: {"aircraft carrier": 1, "fighter": 1}}})
    g.move({"submarine": 1}, "Sea Zone 15", "Sea Zone 14")
    g.end()
    fighter = one(g, "Sea Zone 14", UK, "fighter")
    assert fighter.id in battles(g)["Sea Zone 14"].defending
    fight_all(g, "Sea Zone 14", 6, 6, 6, 6, 6, 1)
    assert g.units("Sea Zone 14", GER) == {}
    carrier = one(g, "Sea Zone 14", UK, "aircraft carrier")
    assert one(g, "Sea Zone 14", UK, "fighter").carried_by == carrier.id


def test_UF_6_fighters_on_a_sunk_attacking_carrier_survive_and_must_land() -> None:
    """UF-6 / §18 A-7: two Japanese fighters ride their carrier into battle; they neither fire
    nor take hits; the carrier sinks (carrier 6; US destroyer 1) and they fly to land in
    Noncombat Move."""
    g = game(JAP, CM, {"Sea Zone 46": {JAP: {"aircraft carrier": 1, "fighter": 2}},
                       "Sea Zone 31": {USA: {"destroyer": 1}}})
    g.move({"aircraft carrier": 1}, "Sea Zone 46", "Sea Zone 31")
    g.end()
    b = battles(g)["Sea Zone 31"]
    assert len(b.launched) == 2 and len(b.attacking) == 1
    fight_all(g, "Sea Zone 31", 6, 1)
    rolled = [grp[0] for e in g.events if isinstance(e, ev.DiceRolled) and e.side == "attacker"
              for grp in e.groups]
    assert rolled == ["aircraft carrier"]
    assert g.units("Sea Zone 31", JAP) == {"fighter": 2}
    g.end()
    g.move({"fighter": 2}, "Sea Zone 31", "Southeast Asia")
    g.end()
    assert g.units("Southeast Asia", JAP) == {"fighter": 2}


def test_A_7_own_fighters_riding_an_attacking_carrier_stay_aboard_if_it_survives() -> None:
    """§18 A-7 / UF-6: the Japanese carrier wins (carrier 1; US transport cannot fire); the
    fighters that rode it as cargo are back aboard and end the turn there."""
    g = game(JAP, CM, {"Sea Zone 46": {JAP: {"aircraft carrier": 1, "fighter": 2,
                                             "destroyer": 1}},
                       "Sea Zone 31": {USA: {"destroyer": 1}}})
    g.move({"aircraft carrier": 1, "destroyer": 1}, "Sea Zone 46", "Sea Zone 31")
    g.end()
    fight_all(g, "Sea Zone 31", 1, 6, 6)
    carrier = one(g, "Sea Zone 31", JAP, "aircraft carrier")
    g.end()
    g.end()
    assert [f.carried_by for f in pieces(g, "Sea Zone 31", JAP, "fighter")] == [carrier.id] * 2


def test_UC_2_guest_fighters_move_only_on_their_owners_turn() -> None:
    """UC-2 / MN-8: a UK fighter lands on a US carrier on the UK turn; on the US turn the US
    cannot fly it."""
    g = game(UK, NCM, {"Western Canada": {UK: {"fighter": 1}},
                       "Sea Zone 49": {USA: {"aircraft carrier": 1}}})
    g.move({"fighter": 1}, "Western Canada", "Sea Zone 49")
    g.end()
    carrier = one(g, "Sea Zone 49", USA, "aircraft carrier")
    assert one(g, "Sea Zone 49", UK, "fighter").carried_by == carrier.id
    us = game(USA, NCM, {"Sea Zone 49": {USA: {"aircraft carrier": 1}, UK: {"fighter": 1}}})
    us.refuse(move({"fighter": 1}, "Sea Zone 49", "Alaska"), "United States has no fighter")


def test_UC_3_own_fighters_move_independently_of_their_carrier() -> None:
    """UC-3: the fighter leaves the carrier to land in Japan while the carrier sails on."""
    g = game(JAP, NCM, {"Sea Zone 45": {JAP: {"aircraft carrier": 1, "fighter": 1}}})
    g.move({"fighter": 1}, "Sea Zone 45", "Japan")
    g.move({"aircraft carrier": 1}, "Sea Zone 45", "Sea Zone 31", "Sea Zone 46")
    g.end()
    assert g.units("Japan", JAP) == {"fighter": 1, "industrial complex": 1}
    assert g.units("Sea Zone 31", JAP) == {"aircraft carrier": 1}


def test_MN_4_fighter_takes_off_from_an_allys_carrier_to_attack() -> None:
    """MN-4 / MN-8: a US fighter on a UK carrier attacks a German transport on the US turn (the
    carrier stays put) and lands back on the UK carrier."""
    g = game(USA, CM, {"Sea Zone 14": {UK: {"aircraft carrier": 1}, USA: {"fighter": 1}},
                       "Sea Zone 15": {GER: {"transport": 1}}})
    g.move({"fighter": 1}, "Sea Zone 14", "Sea Zone 15")
    g.end()
    g.do(od.Battle(space="Sea Zone 15"))
    assert g.units("Sea Zone 15", GER) == {}
    g.end()
    g.move({"fighter": 1}, "Sea Zone 15", "Sea Zone 14")
    g.end()
    carrier = one(g, "Sea Zone 14", UK, "aircraft carrier")
    assert one(g, "Sea Zone 14", USA, "fighter").carried_by == carrier.id
    assert carrier.moved == 0


def test_MN_8_own_air_units_land_in_allied_territories() -> None:
    """MN-8: a UK fighter and bomber land in Eastern United States, a US territory friendly since
    the start of the turn."""
    g = game(UK, NCM, {"Eastern Canada": {UK: {"fighter": 1, "bomber": 1}}})
    g.move({"fighter": 1, "bomber": 1}, "Eastern Canada", "Eastern United States")
    g.end()
    assert g.units("Eastern United States", UK) == {"fighter": 1, "bomber": 1}


def test_A_15_no_landing_in_a_territory_liberated_this_turn() -> None:
    """§18 A-15: Soviet infantry liberate Szechwan (US, held by Japan); control returns to the
    US (LIB-1) but a Soviet fighter may not land there this turn. It may land in US
    Northwestern China, friendly since the start of the turn."""
    g = game(SOV, CM, {"Caucasus": {SOV: {"infantry": 1, "fighter": 1,
                                          "industrial complex": 1}}},
             owners={"Szechwan": JAP})
    g.move({"infantry": 1}, "Caucasus", "Szechwan")
    g.end()
    assert g.owner("Szechwan") == USA
    g.refuse(move({"fighter": 1}, "Caucasus", "Szechwan"), "Szechwan is not a territory "
             "friendly since the start of the turn", "NC-6")
    g.move({"fighter": 1}, "Caucasus", "Northwestern China")
    g.end()
    assert g.units("Northwestern China", SOV) == {"fighter": 1}


def test_A_22_new_carrier_zone_needs_an_eligible_complex() -> None:
    """§18 A-22 / NC-6: Germany bought a carrier and took Caucasus (with its complex) this turn;
    a fighter may not wait for the carrier in Sea Zone 18, next to that complex only."""
    g = game(GER, "purchase", {"Ukraine": {GER: {"infantry": 1, "fighter": 1}}})
    g.do(od.Buy(units={"aircraft carrier": 1}))
    g.end()
    g.move({"infantry": 1}, "Ukraine", "Caucasus")
    g.end()
    assert g.owner("Caucasus") == GER and g.state.phase == NCM
    g.refuse(move({"fighter": 1}, "Ukraine", "Sea Zone 18"), "safe landing place", "NC-6")
    g.move({"fighter": 1}, "Ukraine", "Sea Zone 5", "Eastern Europe")
    assert g.units("Sea Zone 5", GER) == {"fighter": 1}


def test_UF_2_UC_2_NC_6_fighters_refused_at_once_where_carriers_have_no_room() -> None:
    """UF-2 / UC-2 / NC-6: the UK carrier in Sea Zone 7 carries two US guest fighters, so a UK
    fighter flying there in Noncombat Move is refused at once (no other carrier can come);
    with one slot free, two fighters in one order are refused and one is accepted."""
    g = game(UK, NCM, {"Sea Zone 7": {UK: {"aircraft carrier": 1}, USA: {"fighter": 2}},
                       "United Kingdom": {UK: {"fighter": 2, "industrial complex": 1}}})
    g.refuse(move({"fighter": 1}, "United Kingdom", "Sea Zone 7"), "safe landing place",
             "carriers in Sea Zone 7 have 0 free slots", "guests of allies included",
             "no other carrier with room can come there", "UF-2/UC-2", "NC-6")
    h = game(UK, NCM, {"Sea Zone 7": {UK: {"aircraft carrier": 1}, USA: {"fighter": 1}},
                       "United Kingdom": {UK: {"fighter": 2, "industrial complex": 1}}})
    h.refuse(move({"fighter": 2}, "United Kingdom", "Sea Zone 7"), "1 free slot",
             "for the 2 fighters that would wait there")
    h.move({"fighter": 1}, "United Kingdom", "Sea Zone 7")
    h.refuse(move({"fighter": 1}, "United Kingdom", "Sea Zone 7"), "1 free slot",
             "for the 2 fighters that would wait there")
    h.end()
    carrier = one(h, "Sea Zone 7", UK, "aircraft carrier")
    assert one(h, "Sea Zone 7", UK, "fighter").carried_by == carrier.id


def test_UF_2_NC_6_a_carrier_that_can_still_come_counts_once() -> None:
    """UF-2 / NC-6 / AIR-5: two US fighters may wait in Sea Zone 40 for the empty carrier in
    Sea Zone 42 (it can come in this Noncombat Move); a third is refused at once."""
    g = game(USA, NCM, {"Sea Zone 42": {USA: {"aircraft carrier": 1}},
                        "Western United States": {USA: {"fighter": 3, "industrial complex": 1}}})
    g.move({"fighter": 2}, "Western United States", "Sea Zone 40")
    g.refuse(move({"fighter": 1}, "Western United States", "Sea Zone 40"),
             "there is no friendly carrier in Sea Zone 40", "UF-2")
    g.move({"aircraft carrier": 1}, "Sea Zone 42", "Sea Zone 40")
    g.end()
    carrier = one(g, "Sea Zone 40", USA, "aircraft carrier")
    assert [f.carried_by for f in pieces(g, "Sea Zone 40", USA, "fighter")] == [carrier.id] * 2


def test_AIR_4_CM_15_a_carriers_later_move_counts_for_landing() -> None:
    """AIR-4 / CM-15: the German carrier in Sea Zone 9 carries two fighters; both take off and
    attack the UK transport in Sea Zone 11, two zones away, with two movement left, because the
    carrier can close the distance in Noncombat Move (or they fly back to it). Ending
    Noncombat Move with the fighters still at sea is refused with where they can land; the
    carrier goes to them and both land on it."""
    g = game(GER, CM, {"Sea Zone 9": {GER: {"aircraft carrier": 1, "fighter": 2}},
                       "Sea Zone 11": {UK: {"transport": 1}}})
    g.move({"fighter": 2}, "Sea Zone 9", "Sea Zone 11")
    assert [f.moved for f in pieces(g, "Sea Zone 11", GER, "fighter")] == [2, 2]
    g.end()
    g.do(od.Battle(space="Sea Zone 11"))  # a lone transport: destroyed without dice (UT-6)
    g.end()
    g.refuse(od.EndPhase(), "no safe landing place", "fighter in Sea Zone 11 (it can still "
             "reach the aircraft carrier in Sea Zone 9)")
    g.move({"aircraft carrier": 1}, "Sea Zone 9", "Sea Zone 11")
    g.end()
    carrier = one(g, "Sea Zone 11", GER, "aircraft carrier")
    assert [f.carried_by for f in pieces(g, "Sea Zone 11", GER, "fighter")] == [carrier.id] * 2


def test_AIR_4_CM_15_one_carrier_takes_two_fighters_and_ends_in_one_zone() -> None:
    """AIR-4 / CM-15 / UF-2: three German fighters from Western Europe spend all four to attack
    Sea Zone 11; the one carrier that can get there takes two, so the third is refused with
    advice that applies (send fewer fighters). A bomber is never told about carriers."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 3, "bomber": 1}},
                       "Sea Zone 11": {USA: {"transport": 1}},
                       "Sea Zone 13": {GER: {"aircraft carrier": 1}}})
    g.refuse(move({"fighter": 3}, "Western Europe", "Sea Zone 11"), "could not land",
             "no free slot left for it", "two fighters (guests included)", "CM-15/AIR-4",
             "Send fewer fighters")
    g.move({"fighter": 2}, "Western Europe", "Sea Zone 11")
    g.refuse(move({"fighter": 1}, "Western Europe", "Sea Zone 11"), "no free slot left",
             "Send fewer fighters")
    err = g.refuse(move({"bomber": 1}, "Western Europe", "Eastern United States"),
                   "could not land", "Attack a closer space")
    assert "carrier" not in str(err).replace("never land on carriers", "")
    g.end()
    assert set(battles(g)) == {"Sea Zone 11"}


def test_AIR_5_the_fighter_flies_to_meet_the_carrier() -> None:
    """AIR-5 / NC-10: a carrier that can reach a zone within the fighter's range, but not the
    fighter's zone, still counts; at the end of Noncombat Move the referee says both moves."""
    g = game(GER, CM, {"Sea Zone 9": {GER: {"aircraft carrier": 1, "fighter": 1}},
                       "Sea Zone 21": {UK: {"transport": 1}}})
    g.move({"fighter": 1}, "Sea Zone 9", "Sea Zone 21")
    assert one(g, "Sea Zone 21", GER, "fighter").moved == 3
    g.end()
    g.do(od.Battle(space="Sea Zone 21"))
    g.end()
    err = g.refuse(od.EndPhase(confirm=True), "fighter in Sea Zone 21 can still land: move it "
                   "to", "the aircraft carrier in Sea Zone 9 must move to", "AIR-5")
    meet = str(err).split("move it to ")[1].split(";")[0]
    g.move({"aircraft carrier": 1}, "Sea Zone 9", meet)
    g.move({"fighter": 1}, "Sea Zone 21", meet)
    g.end()
    assert one(g, meet, GER, "fighter").carried_by == one(g, meet, GER, "aircraft carrier").id
