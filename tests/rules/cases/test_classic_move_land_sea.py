"""Classic rule cases, land and sea movement: R-CM-01..05, R-NCM-01/03/05/06, R-ARM-01..06,
A-05, R-AAG-02/04, R-NAV-01, R-TRP-01..07, R-MAP-07..14 for moves. Digest:
shared/rules/classic.md §4.2, §4.4, §5.2, §5.4, §3.2."""

from __future__ import annotations

from rules import events as ev
from rules import orders as od
from tests.rules.cases._classic_common import (
    AA,
    CM,
    COMBAT,
    GER,
    IC,
    JAP,
    NCM,
    RUS,
    UK,
    USA,
    battles,
    game,
    move,
    of_type,
    one,
    pieces,
)

# --------------------------------------------------------------------------------------------
# Combat movement (§4.2)


def test_R_CM_01_attack_a_space_from_several_adjacent_spaces() -> None:
    """R-CM-01: Russia attacks German Eastern Europe from Karelia and Ukraine at once (one
    battle) and moves into an empty enemy territory elsewhere in the same Combat Movement."""
    g = game(RUS, CM, {"Karelia S.S.R.": {RUS: {"infantry": 1}},
                       "Caucasus": {RUS: {"tank": 1, "infantry": 1}},
                       "Eastern Europe": {GER: {"infantry": 1}}},
             owners={"Ukraine S.S.R.": RUS, "Persia": GER})
    g.move({"infantry": 1}, "Karelia S.S.R.", "Eastern Europe")
    g.move({"tank": 1}, "Caucasus", "Eastern Europe", "Ukraine S.S.R.")
    g.move({"infantry": 1}, "Caucasus", "Persia")
    g.end()
    b = battles(g)["Eastern Europe"]
    assert len(b.attacking) == 2 and b.defenders == (GER,)
    assert g.owner("Persia") == UK  # liberated: back to its original owner (R-LIB-01)


def test_R_CM_02_R_CM_04_every_combat_move_before_any_battle_and_no_reinforcement() -> None:
    """R-CM-02 / R-CM-04: once Combat Movement ends no unit may be moved in to join a battle
    (the German infantry left in Libya cannot follow the tank into Anglo-Egyptian Sudan)."""
    g = game(GER, CM, {"Libya": {GER: {"infantry": 1, "tank": 1}},
                       "Anglo-Egyptian Sudan": {UK: {"infantry": 1, "tank": 1}}})
    g.move({"tank": 1}, "Libya", "Anglo-Egyptian Sudan")
    g.end()
    assert g.state.phase == COMBAT
    g.refuse(move({"infantry": 1}, "Libya", "Anglo-Egyptian Sudan"), "Combat Move or Noncombat")


def test_R_CM_03_a_unit_takes_part_in_one_battle_only() -> None:
    """R-CM-03: a tank that moved into an occupied enemy territory cannot move on to another."""
    g = game(GER, CM, {"Libya": {GER: {"tank": 1}},
                       "French Equatorial Africa": {UK: {"infantry": 1}},
                       "Anglo-Egyptian Sudan": {UK: {"infantry": 1}}})
    g.move({"tank": 1}, "Libya", "French Equatorial Africa")
    g.refuse(move({"tank": 1}, "French Equatorial Africa", "Anglo-Egyptian Sudan"),
             "able to make this move")


def test_R_CM_05_taking_an_empty_enemy_territory_without_battle() -> None:
    """R-CM-05 / R-CON-04: German infantry walk into empty British French West Africa; at the
    end of Combat Movement it is German with no battle."""
    g = game(GER, CM, {"Algeria": {GER: {"infantry": 1}}})
    g.move({"infantry": 1}, "Algeria", "French West Africa")
    evs = g.end()
    assert "French West Africa" not in battles(g)
    assert [(c.space, c.how) for c in of_type(evs, ev.TerritoryCaptured)] == [
        ("French West Africa", "no battle")]
    assert g.owner("French West Africa") == GER


def test_R_CM_moving_into_a_friendly_territory_is_not_a_combat_move() -> None:
    """§4.2 definitions: moving into a friendly territory is a non-combat move."""
    g = game(GER, CM, {"Germany": {GER: {"infantry": 1}}})
    g.refuse(move({"infantry": 1}, "Germany", "Eastern Europe"), "friendly", "R-CM-01")


# --------------------------------------------------------------------------------------------
# Non-combat movement (§4.4)


def test_R_NCM_01_units_that_moved_in_combat_do_not_move_again_except_aircraft() -> None:
    """R-NCM-01: the tank that blitzed and the infantry that took an empty territory stay put
    in Non-combat Movement; the fighter that attacked flies home (R-NCM-02)."""
    g = game(GER, CM, {"Libya": {GER: {"tank": 1}}, "Algeria": {GER: {"infantry": 1,
                                                                      "fighter": 1}},
                       "Anglo-Egyptian Sudan": {UK: {"infantry": 1}}})
    g.move({"tank": 1}, "Libya", "Anglo-Egyptian Sudan", "French Equatorial Africa")
    g.move({"infantry": 1}, "Algeria", "French West Africa")
    g.move({"fighter": 1}, "Algeria", "Anglo-Egyptian Sudan")
    g.end()
    g.script(1, 1, 6)  # tank and fighter hit; UK infantry misses
    g.do(od.Battle(space="Anglo-Egyptian Sudan", all=True))
    g.end()
    assert g.state.phase == NCM
    g.refuse(move({"infantry": 1}, "French West Africa", "Algeria"), "able to make this move",
             "R-NCM-01")
    g.refuse(move({"tank": 1}, "Anglo-Egyptian Sudan", "Libya"), "able to make this move")
    g.move({"fighter": 1}, "Anglo-Egyptian Sudan", "Libya")
    assert g.units("Libya", GER) == {"fighter": 1}


def test_R_NCM_03_land_units_only_into_friendly_territories() -> None:
    """R-NCM-03: in Non-combat Movement German infantry cannot enter British Gibraltar, enemy
    French West Africa, nor pass through them; into a friendly territory it may."""
    g = game(GER, NCM, {"Algeria": {GER: {"infantry": 2}}})
    g.refuse(move({"infantry": 1}, "Algeria", "French West Africa"), "R-NCM-03")
    g.move({"infantry": 1}, "Algeria", "Libya")
    assert g.units("Libya", GER) == {"infantry": 1}


def test_R_NCM_05_naval_units_only_into_friendly_zones() -> None:
    """R-NCM-05 / R-NAV-01: in Non-combat Movement a British transport may not enter a zone
    holding a lone German submarine (any enemy unit makes it enemy-occupied)."""
    g = game(UK, NCM, {"North Sea Zone": {UK: {"transport": 1}},
                       "Baltic Sea Zone": {GER: {"submarine": 1}}})
    g.refuse(move({"transport": 1}, "North Sea Zone", "Baltic Sea Zone"), "hostile",
             "R-NCM-05")


def test_R_NCM_06_non_combat_moves_create_no_combat() -> None:
    """R-NCM-06: nothing a Non-combat move does opens a battle: landing aircraft and moving
    ships in friendly spaces; ending the phase opens none."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"fighter": 1}},
                       "North Sea Zone": {UK: {"battleship": 1}},
                       "Western Europe": {GER: {"infantry": 1}}})
    g.refuse(move({"fighter": 1}, "United Kingdom", "Western Europe"), "safe landing place")
    g.move({"battleship": 1}, "North Sea Zone", "West Spain Sea Zone")
    g.end()
    assert battles(g) == {}


# --------------------------------------------------------------------------------------------
# Tanks (R-ARM) and A-05


def test_R_ARM_01_tanks_move_one_or_two() -> None:
    """R-ARM-01: a tank moves 1 or 2 territories, not 3."""
    g = game(GER, NCM, {"Germany": {GER: {"tank": 2}}}, owners={"Caucasus": GER})
    g.refuse(move({"tank": 1}, "Germany", "Caucasus"), "moves 2", "is 3")
    g.move({"tank": 1}, "Germany", "Ukraine S.S.R.")
    g.move({"tank": 1}, "Germany", "Southern Europe")


def test_R_ARM_02_blitz_takes_the_empty_first_territory() -> None:
    """R-ARM-02 (App. II): a German tank from Libya blitzes through empty British French
    Equatorial Africa (taken on the way) into Anglo-Egyptian Sudan."""
    g = game(GER, CM, {"Libya": {GER: {"tank": 1}},
                       "Anglo-Egyptian Sudan": {UK: {"infantry": 1}}})
    evs = g.move({"tank": 1}, "Libya", "Anglo-Egyptian Sudan", "French Equatorial Africa")
    assert [(c.space, c.how) for c in of_type(evs, ev.TerritoryCaptured)] == [
        ("French Equatorial Africa", "blitz")]
    assert g.owner("French Equatorial Africa") == GER
    g.end()
    assert battles(g)["Anglo-Egyptian Sudan"].attacker == GER


def test_R_ARM_03_an_occupied_first_territory_stops_the_tank() -> None:
    """R-ARM-03: with a British infantry in French Equatorial Africa the tank must stop there;
    after winning it may not continue."""
    g = game(GER, CM, {"Libya": {GER: {"tank": 1}},
                       "French Equatorial Africa": {UK: {"infantry": 1}},
                       "Anglo-Egyptian Sudan": {UK: {"infantry": 1}}})
    g.refuse(move({"tank": 1}, "Libya", "Anglo-Egyptian Sudan", "French Equatorial Africa"),
             "must stop there", "R-ARM-03")


def test_A_05_an_aa_gun_alone_occupies_a_territory() -> None:
    """A-05 / R-ARM-03: a territory holding only an enemy AA gun is occupied, so a tank must
    stop there; the land units entering take it without a battle and the AA gun changes
    hands with it (R-AAG-04, R-CON-03)."""
    g = game(GER, CM, {"Libya": {GER: {"tank": 1}},
                       "French Equatorial Africa": {UK: {AA: 1}},
                       "Anglo-Egyptian Sudan": {UK: {"infantry": 1}}})
    g.refuse(move({"tank": 1}, "Libya", "Anglo-Egyptian Sudan", "French Equatorial Africa"),
             "antiaircraft gun alone stops a blitz", "A-05")
    g.move({"tank": 1}, "Libya", "French Equatorial Africa")
    evs = g.end()
    assert "French Equatorial Africa" not in battles(g)
    assert [c.space for c in of_type(evs, ev.TerritoryCaptured)] == ["French Equatorial Africa"]
    assert g.owner("French Equatorial Africa") == GER
    assert g.units("French Equatorial Africa", GER) == {"tank": 1, AA: 1}
    assert g.units("French Equatorial Africa", UK) == {}


def test_A_05_an_industrial_complex_alone_stops_a_blitz_and_falls_without_battle() -> None:
    """A-05 / R-IC-02: an enemy complex alone also stops the tank; it falls without battle."""
    g = game(RUS, CM, {"Caucasus": {RUS: {"tank": 1}}, "Ukraine S.S.R.": {GER: {IC: 1}}})
    g.refuse(move({"tank": 1}, "Caucasus", "Eastern Europe", "Ukraine S.S.R."),
             "industrial complex alone stops a blitz")
    g.move({"tank": 1}, "Caucasus", "Ukraine S.S.R.")
    g.end()
    assert "Ukraine S.S.R." not in battles(g) and g.owner("Ukraine S.S.R.") == RUS
    assert g.units("Ukraine S.S.R.", RUS) == {"tank": 1, IC: 1}


def test_R_ARM_04_through_a_friendly_territory_is_an_ordinary_move() -> None:
    """R-ARM-04: a German tank goes through German Eastern Europe into occupied Karelia: an
    ordinary combat move, nothing blitzed."""
    g = game(GER, CM, {"Germany": {GER: {"tank": 1}}, "Karelia S.S.R.": {RUS: {"infantry": 1}}})
    evs = g.move({"tank": 1}, "Germany", "Karelia S.S.R.")
    (moved,) = of_type(evs, ev.UnitsMoved)
    assert moved.blitzed == () and moved.moves[0].path == (
        "Germany", "Eastern Europe", "Karelia S.S.R.")


def test_R_ARM_06_loading_and_unloading_use_the_whole_move() -> None:
    """R-ARM-06: a tank that moved cannot load; a tank that unloaded cannot move on."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"tank": 1}},
                       "North Sea Zone": {UK: {"transport": 1}},
                       "Western Europe": {UK: {"tank": 1}}},
             owners={"Western Europe": UK, "Germany": UK})
    g.move({"tank": 1}, "Western Europe", "Germany")
    g.refuse(move({"tank": 1}, "Germany", "Baltic Sea Zone"), "able to make this move")
    g.move({"tank": 1}, "United Kingdom", "North Sea Zone")
    g.move({"tank": 1}, "North Sea Zone", "Western Europe")
    (tank,) = pieces(g, "Western Europe", UK, "tank")
    assert tank.stopped
    g.refuse(move({"tank": 1}, "Western Europe", "Southern Europe"), "able to make this move")


# --------------------------------------------------------------------------------------------
# AA guns (R-AAG)


def test_R_AAG_02_aa_guns_never_make_combat_moves() -> None:
    """R-AAG-02: an AA gun never moves into enemy or neutral territory, so never in Combat
    Movement; in Non-combat Movement it moves 1 into a friendly territory."""
    g = game(GER, CM, {"Western Europe": {GER: {AA: 1}}})
    g.refuse(move({AA: 1}, "Western Europe", "Spain"), "R-AAG-02")
    g.refuse(move({AA: 1}, "Western Europe", "Germany"), "R-AAG-02")
    h = game(GER, NCM, {"Western Europe": {GER: {AA: 1}}})
    h.refuse(move({AA: 1}, "Western Europe", "Eastern Europe"), "moves 1")
    h.refuse(move({AA: 1}, "Western Europe", "Spain"), "neutral", "R-NEU-05")
    h.move({AA: 1}, "Western Europe", "Germany")
    assert h.units("Germany", GER) == {AA: 1, IC: 1}


def test_R_AAG_02_an_aa_gun_fills_a_transport_and_lands_only_on_friendly_coasts() -> None:
    """R-AAG-02 / R-TRP-01: one AA gun takes a whole transport (no infantry beside it); it is
    landed on a friendly coast in Non-combat Movement, never in an amphibious assault."""
    g = game(UK, NCM, {"United Kingdom": {UK: {AA: 1, "infantry": 1}},
                       "North Sea Zone": {UK: {"transport": 1}}})
    g.move({AA: 1}, "United Kingdom", "North Sea Zone")
    g.refuse(move({"infantry": 1}, "United Kingdom", "North Sea Zone"), "has room",
             "never two tanks or two antiaircraft guns")
    g.refuse(move({AA: 1}, "North Sea Zone", "Western Europe"), "hostile")
    h = game(UK, CM, {"North Sea Zone": {UK: {"transport": 1, AA: 1}}})
    h.refuse(move({AA: 1}, "North Sea Zone", "Western Europe"), "R-AAG-02")


def test_R_AAG_04_aa_gun_changes_hands_with_its_territory() -> None:
    """R-AAG-04 / R-CON-03: British infantry take Western Europe (German infantry and AA gun):
    the AA gun is not a casualty and becomes British with the territory."""
    g = game(UK, CM, {"United Kingdom": {UK: {"infantry": 2}},
                      "North Sea Zone": {UK: {"transport": 1}},
                      "Western Europe": {GER: {"infantry": 1, AA: 1}}})
    g.move({"infantry": 2}, "United Kingdom", "North Sea Zone")
    g.move({"infantry": 2}, "North Sea Zone", "Western Europe")
    g.end()
    b = battles(g)["Western Europe"]
    assert [g.state.units[i].type for i in b.defending] == ["infantry"]  # not the AA gun
    g.script(1, 6, 6)  # one hit; the German infantry misses
    g.do(od.Battle(space="Western Europe", all=True))
    assert g.owner("Western Europe") == UK
    assert g.units("Western Europe", UK) == {"infantry": 2, AA: 1}


# --------------------------------------------------------------------------------------------
# Ships (R-NAV-01) and transports (R-TRP)


def test_R_NAV_01_any_enemy_unit_stops_ships() -> None:
    """R-NAV-01: a zone with any enemy unit, even a lone submarine or transport, stops a ship
    (and a submarine) on a 2-zone move; it may end its move there to fight."""
    g = game(UK, CM, {"East Canada Sea Zone": {UK: {"battleship": 1, "submarine": 1}},
                      "North Sea Zone": {GER: {"transport": 1}},
                      "Baltic Sea Zone": {GER: {"submarine": 1}}})
    g.refuse(move({"battleship": 1}, "East Canada Sea Zone", "Baltic Sea Zone"),
             "must stop in North Sea Zone", "R-NAV-01")
    g.refuse(move({"submarine": 1}, "East Canada Sea Zone", "Baltic Sea Zone"),
             "must stop in North Sea Zone")
    g.move({"battleship": 1}, "East Canada Sea Zone", "North Sea Zone")
    g.end()
    assert battles(g)["North Sea Zone"].defenders == (GER,)


def test_R_NAV_01_empty_or_friendly_first_zone_lets_ships_pass() -> None:
    """R-NAV-01: through an empty zone, or one holding only friendly units, ships go on."""
    g = game(UK, CM, {"East Canada Sea Zone": {UK: {"battleship": 1}},
                      "North Sea Zone": {USA: {"transport": 1}},
                      "Baltic Sea Zone": {GER: {"submarine": 1}}})
    g.move({"battleship": 1}, "East Canada Sea Zone", "Baltic Sea Zone")
    assert g.units("Baltic Sea Zone", UK) == {"battleship": 1}


def test_R_TRP_01_capacity() -> None:
    """R-TRP-01: 1 or 2 infantry, or 1 tank, or 1 AA gun: never a tank with an infantry."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"infantry": 3, "tank": 2}},
                       "North Sea Zone": {UK: {"transport": 2}}})
    g.move({"infantry": 2}, "United Kingdom", "North Sea Zone")
    g.move({"tank": 1}, "United Kingdom", "North Sea Zone")
    g.refuse(move({"infantry": 1}, "United Kingdom", "North Sea Zone"), "has room",
             "2 infantry", "1 tank", "R-TRP-01")
    g.refuse(move({"tank": 1}, "United Kingdom", "North Sea Zone"), "has room")
    h = game(UK, NCM, {"United Kingdom": {UK: {"infantry": 1, "tank": 1}},
                       "North Sea Zone": {UK: {"transport": 1}}})
    h.refuse(move({"infantry": 1, "tank": 1}, "United Kingdom", "North Sea Zone"), "has room")


def test_R_TRP_02_load_before_during_and_after_the_move() -> None:
    """R-TRP-02: load an infantry, move 1, load another, move 1 and stay at sea loaded; the
    same transport then may not move further but its cargo stays aboard."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"infantry": 1}},
                       "Western Europe": {UK: {"infantry": 1}},
                       "North Sea Zone": {UK: {"transport": 1}}},
             owners={"Western Europe": UK})
    g.move({"infantry": 1}, "United Kingdom", "North Sea Zone")
    g.move({"transport": 1}, "North Sea Zone", "West Spain Sea Zone")
    g.move({"infantry": 1}, "Western Europe", "West Spain Sea Zone")
    g.move({"transport": 1}, "West Spain Sea Zone", "West Mediterranean Sea Zone")
    assert g.units("West Mediterranean Sea Zone", UK) == {"transport": 1, "infantry": 2}
    g.end()
    assert g.units("West Mediterranean Sea Zone", UK) == {"transport": 1, "infantry": 2}


def test_R_TRP_03_unloading_ends_the_transports_move() -> None:
    """R-TRP-03: after unloading the transport moves no more this turn."""
    g = game(UK, NCM, {"North Sea Zone": {UK: {"transport": 1, "infantry": 1}}},
             owners={"Western Europe": UK})
    g.move({"infantry": 1}, "North Sea Zone", "Western Europe")
    g.refuse(move({"transport": 1}, "North Sea Zone", "West Spain Sea Zone"),
             "offloaded may not move")


def test_R_TRP_04_bridging_into_two_territories() -> None:
    """R-TRP-04 (the UK zone example): without leaving the North Sea Zone a British transport
    carries two infantry from the United Kingdom, one to Finland-Norway and one to Western
    Europe, both British."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"infantry": 2}},
                       "North Sea Zone": {UK: {"transport": 1}}},
             owners={"Finland Norway": UK, "Western Europe": UK})
    g.move({"infantry": 2}, "United Kingdom", "North Sea Zone")
    g.move({"infantry": 1}, "North Sea Zone", "Finland Norway")
    g.move({"infantry": 1}, "North Sea Zone", "Western Europe")
    assert g.units("Finland Norway", UK) == {"infantry": 1}
    assert g.units("Western Europe", UK) == {"infantry": 1}
    assert g.units("North Sea Zone", UK) == {"transport": 1}


def test_R_TRP_04_bridging_japan_to_manchuria() -> None:
    """R-TRP-04: in the Japan zone a transport ferries infantry from Japan to Manchuria."""
    g = game(JAP, NCM, {"Japan": {JAP: {"infantry": 2}}, "Japan Sea Zone": {JAP: {"transport": 1}}})
    g.move({"infantry": 2}, "Japan", "Japan Sea Zone")
    g.move({"infantry": 2}, "Japan Sea Zone", "Manchuria")
    assert g.units("Manchuria", JAP) == {"infantry": 2}


def test_R_TRP_06_a_transport_may_move_into_battle_alone() -> None:
    """R-TRP-06: a lone British transport may move into a zone with a German submarine; a sea
    battle opens (the transport cannot attack; the combat rules say what it suffers)."""
    g = game(UK, CM, {"North Sea Zone": {UK: {"transport": 1}},
                      "Baltic Sea Zone": {GER: {"submarine": 1}}})
    g.move({"transport": 1}, "North Sea Zone", "Baltic Sea Zone")
    g.end()
    b = battles(g)["Baltic Sea Zone"]
    assert [g.state.units[i].type for i in b.attacking] == ["transport"]


def test_R_TRP_07_allied_cargo() -> None:
    """R-TRP-07: a Russian infantry boards a British transport on Russia's turn; it cannot get
    off on the same turn (the transport moves on the UK's turn, the infantry lands on a later
    Russian turn)."""
    g = game(RUS, NCM, {"Karelia S.S.R.": {RUS: {"infantry": 1}},
                        "Karelia Sea Zone": {UK: {"transport": 1}}})
    g.move({"infantry": 1}, "Karelia S.S.R.", "Karelia Sea Zone")
    inf = one(g, "Karelia Sea Zone", RUS, "infantry")
    assert g.state.units[inf.carried_by or 0].owner == UK
    g.refuse(move({"infantry": 1}, "Karelia Sea Zone", "Karelia S.S.R."), "later turn")


# --------------------------------------------------------------------------------------------
# Map facts used by moves (R-MAP)


def test_R_MAP_07_panama_canal_needs_panama_at_the_start_of_the_turn() -> None:
    """R-MAP-07: US ships pass between the Caribbean and West Panama zones while the US held
    Panama at the start of its turn; with Panama Japanese they may not."""
    g = game(USA, NCM, {"Caribbean Sea Zone": {USA: {"battleship": 1}}})
    g.move({"battleship": 1}, "Caribbean Sea Zone", "West Panama Sea Zone")
    h = game(USA, NCM, {"Caribbean Sea Zone": {USA: {"battleship": 1}}},
             owners={"Panama": JAP})
    h.refuse(move({"battleship": 1}, "Caribbean Sea Zone", "West Panama Sea Zone"),
             "Panama Canal", "closed")


def test_R_MAP_08_A_07_suez_needs_sudan_and_syria_iraq() -> None:
    """R-MAP-08 / A-07: British ships use the Suez Canal (East Mediterranean to Red Sea) only while
    the Allies held both Anglo-Egyptian Sudan and Syria-Iraq at the start of the turn."""
    g = game(UK, NCM, {"East Mediterranean Sea Zone": {UK: {"battleship": 1}}})
    g.move({"battleship": 1}, "East Mediterranean Sea Zone", "Red Sea Zone")
    h = game(UK, NCM, {"East Mediterranean Sea Zone": {UK: {"battleship": 1}}},
             owners={"Syria-Iraq": GER})
    h.refuse(move({"battleship": 1}, "East Mediterranean Sea Zone", "Red Sea Zone"),
             "Suez Canal", "Syria-Iraq")


def test_R_MAP_09_R_MAP_11_R_MAP_14_land_moves_follow_the_board() -> None:
    """R-MAP-09: Anglo-Egyptian Sudan → Syria-Iraq by land; R-MAP-11: Finland-Norway →
    Eastern Europe is not a land move; R-MAP-14: Ukraine → Caucasus is, Caucasus → Eastern
    Europe is 2; R-MAP-12: Gibraltar ↛ Algeria."""
    g = game(UK, NCM, {"Anglo-Egyptian Sudan": {UK: {"infantry": 1}},
                       "Gibraltar": {UK: {"infantry": 1}}},
             owners={"Algeria": UK})
    g.move({"infantry": 1}, "Anglo-Egyptian Sudan", "Syria-Iraq")
    g.refuse(move({"infantry": 1}, "Gibraltar", "Algeria"), "Infantry moves 1")
    h = game(GER, NCM, {"Finland Norway": {GER: {"infantry": 1}},
                        "Ukraine S.S.R.": {GER: {"tank": 1}}}, owners={"Caucasus": GER})
    h.refuse(move({"infantry": 1}, "Finland Norway", "Eastern Europe"), "moves 1")
    h.move({"tank": 1}, "Ukraine S.S.R.", "Caucasus")


def test_R_TRP_08_cargo_is_in_the_sea_zone_with_its_transport() -> None:
    """R-TRP-08 / R-MAP-06: loaded units are at sea, in the transport's zone, until they land."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"infantry": 2}},
                       "North Sea Zone": {UK: {"transport": 1}}})
    g.move({"infantry": 2}, "United Kingdom", "North Sea Zone")
    assert g.units("North Sea Zone", UK) == {"transport": 1, "infantry": 2}
    t = one(g, "North Sea Zone", UK, "transport")
    assert all(u.carried_by == t.id for u in pieces(g, "North Sea Zone", UK, "infantry"))
