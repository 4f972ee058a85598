"""Europe 1940: the digest's best readings (§23, A-1..A-34) where the rulebook's OCR is garbled
or the text is silent, each shown in a Europe 1940 position (or, where the reading is only
about a garbled fact the board carries, in the converted edition data). Tests are named after
the reading and the rule it concerns."""

from __future__ import annotations

from typing import Any

import pytest

from rules import orders as od
from rules.edition import Edition, load_edition
from rules.mechanisms.neutrals import NeutralStood, repelled
from rules.mechanisms.politics import DeclareWar
from rules.mechanisms.research import Research
from rules.mechanisms.rockets import Rocket
from rules.mechanisms.scramble import Scramble
from rules.turn import hooks
from service.describe import map_lines
from service.language import names_for, parse
from tests.rules.e40._battles import sea_attack
from tests.rules.e40.test_raids import lines
from tests.rules.helpers import Game, position

E40 = "europe1940"
GER, SOV, USA, UK, ITA = "Germany", "Soviet Union", "United States", "United Kingdom", "Italy"
SZ109, SZ110, SZ111, SZ112 = "Sea Zone 109", "Sea Zone 110", "Sea Zone 111", "Sea Zone 112"
HB, NB = "Holland Belgium", "Normandy Bordeaux"


@pytest.fixture(scope="module")
def ed() -> Edition:
    return load_edition(E40)


def e40(power: str, phase: str, units: dict[str, Any] | None = None, **extra: Any) -> Game:
    return Game(position(power, phase, units or {}, edition=E40, **extra))


def said(g: Game, order: od.Order, power: str | None = None) -> list[str]:
    """Give ``order``; the words of its events, as the players read them."""
    return lines(g, len(g.do(order, power)))


def moved(g: Game, units: dict[str, int], frm: str, to: str) -> list[str]:
    return lines(g, len(g.move(units, frm, to)))


# --------------------------------------------------------------------------------------------
# The board (§4.1): garbled facts the converted map carries


def test_A_1_M_2_most_territories_are_worth_1_to_10_some_nothing_as_the_board_prints(
        ed: Edition) -> None:
    """A-1 / M-2: the range of values is garbled ("vo?0"), the worthless example too: the
    board's values are used. Most territories give 1 to 10 IPCs, some none (Iceland, the
    likely example), and the digest's stated values hold (United Kingdom 6, Scotland 2,
    Yugoslavia 2)."""
    land = [s for s in ed.map.spaces if s.kind == "land" and not s.impassable]
    worth = [s for s in land if 1 <= s.value <= 10]
    nothing = {s.name for s in land if s.value == 0}
    assert len(worth) > len(land) / 2
    assert "Iceland" in nothing and len(nothing) < len(worth)
    assert {s.name: s.value for s in land if s.value > 10} == {
        "Central United States": 12, "Eastern United States": 20}
    assert (ed.spaces["United Kingdom"].value, ed.spaces["Scotland"].value,
            ed.spaces["Yugoslavia"].value) == (6, 2, 2)
    g = e40(GER, "combat_move")
    assert map_lines(g.state, "Iceland")[0] == "Iceland [United Kingdom, 0]: empty"


def test_A_3_M_8_unnamed_islands_of_sea_zone_114_are_no_spaces(ed: Edition) -> None:
    """A-3 / M-8: "wie zum Beispiel in der Seezone 1…" (truncated); the clear example is sea
    zone 114, whose unnamed islands are not spaces: the zone borders only the coasts of
    Germany, Poland and Sweden, and no island territory. Named islands are territories of
    their own (Sardinia and Sicily in sea zone 95)."""
    assert sorted(ed.neighbours["Sea Zone 114"]) == [
        "Germany", "Poland", "Sea Zone 113", "Sea Zone 115", "Sweden"]
    assert not [t for t in ed.neighbours["Sea Zone 114"] if ed.spaces[t].island]
    assert {t for t in ed.neighbours["Sea Zone 95"] if ed.spaces[t].island} == {
        "Sardinia", "Sicily"}


def test_A_25_the_global_sea_links_across_the_wrap_are_not_on_the_europe_map(
        ed: Edition) -> None:
    """A-25 (§18.3, Global only): the garbled table joins sea zones 64, 65 and 66 to the
    Pacific map's 11, 28, 51 and 52. Europe 1940 stands alone: those zones border only Europe
    map spaces, and the Pacific zones are not on the board."""
    pacific = {"Sea Zone 11", "Sea Zone 28", "Sea Zone 51", "Sea Zone 52"}
    assert not pacific & set(ed.spaces)
    assert sorted(ed.neighbours["Sea Zone 64"]) == [
        "Central America", "Colombia", "Ecuador", "Sea Zone 65", "Sea Zone 89",
        "Southeast Mexico"]
    assert sorted(ed.neighbours["Sea Zone 65"]) == ["Chile", "Peru", "Sea Zone 64",
                                                    "Sea Zone 66"]
    assert sorted(ed.neighbours["Sea Zone 66"]) == ["Argentina", "Chile", "Sea Zone 65",
                                                    "Sea Zone 67", "Sea Zone 85"]


def test_A_26_alberta_links_to_yukon_and_british_columbia_only_in_global(
        ed: Edition) -> None:
    """A-26 (§18.3): Alberta Saskatchewan Manitoba borders Yukon and British Columbia on the
    joined Global map (the rulebook's two links). Neither is on the Europe map: Alberta borders
    only Europe map spaces there."""
    assert not {"Yukon", "British Columbia"} & set(ed.spaces)
    assert sorted(ed.neighbours["Alberta Saskatchewan Manitoba"]) == [
        "Central United States", "Ontario", "Sea Zone 120", "Sea Zone 121"]


# --------------------------------------------------------------------------------------------
# Politics (§5.4)


def test_A_5_the_ussr_declares_on_germany_or_italy_from_its_4th_turn_or_once_provoked() -> None:
    """A-5 (§5.4, DW-1): "vor dem viertery Xeiner…": the Soviet Union may not declare war on a
    European Axis power before its 4th turn (round 4), unless a European Axis power declared
    war on it first (Italy here: the ban lifts for both, as §5.4 reads) or London is
    Axis-held."""
    g = e40(SOV, "combat_move", round=3)
    g.refuse(DeclareWar(on=GER), "The Soviet Union may not declare war on Germany before "
             "round 4, unless Germany or Italy declares war on it first or the other side takes "
             "United Kingdom (§5.4).")
    g = e40(SOV, "combat_move", round=4)
    assert said(g, DeclareWar(on=GER)) == ["The Soviet Union declares war on Germany (DW-2)."]
    g = e40(SOV, "combat_move", round=2,
            war=[[GER, UK], [GER, "France"], [UK, ITA], [ITA, "France"], [ITA, SOV]])
    assert said(g, DeclareWar(on=GER)) == [
        "The Soviet Union declares war on Germany (provoked) (DW-2)."]
    g = e40(SOV, "combat_move", round=1, owners={"United Kingdom": ITA})
    assert said(g, DeclareWar(on=GER)) == [
        "The Soviet Union declares war on Germany (provoked) (DW-2)."]


@pytest.mark.parametrize("taken", ["Central United States", "Alberta Saskatchewan Manitoba",
                                   "Southeast Mexico", "West Indies", "Greenland"])
def test_A_6_the_usa_may_declare_once_the_axis_takes_a_territory_in_north_america(
        taken: str) -> None:
    """A-6 (§5.4): "ein beliebiges Territorium in Nordarkari" is North America (Nordamerika):
    an Axis capture of any territory there, Canada, Mexico and the Caribbean included, lets
    the USA declare war before round 4."""
    g = e40(USA, "combat_move", round=2, owners={taken: GER})
    assert said(g, DeclareWar(on=ITA)) == [
        "The United States declares war on Italy (provoked) (DW-2)."]


def test_A_6_a_capture_outside_north_america_does_not_free_the_usa() -> None:
    """A-6 (§5.4): Gibraltar or Brazil held by the Axis is not North America."""
    for taken in ("Gibraltar", "Union of South Africa"):
        g = e40(USA, "combat_move", round=2, owners={taken: GER})
        g.refuse(DeclareWar(on=GER), "The United States may not declare war on Germany before "
                 "round 4, unless Germany or Italy declares war on it first or the other side "
                 "takes any of United Kingdom, Eastern United States, Central United States")


def test_A_24_DW_1_there_is_no_japan_to_declare_war_on_in_europe_1940() -> None:
    """A-24 (§18.5, Global only): the Soviet Union "may declare war on Japan at the start of
    Combat Move in any round". Europe 1940 stands alone: Japan is no power of it, and a
    declaration on Japan is refused by name."""
    err = parse_error("declare war on Japan")
    assert err == ("Unknown power 'Japan'. Powers: Germany, Soviet Union, United States, "
                   "United Kingdom, Italy, France.")
    g = e40(SOV, "combat_move", round=4)
    g.refuse(DeclareWar(on="Japan"), "Unknown power 'Japan'.")


def parse_error(text: str) -> str:
    from rules.errors import RulesError

    with pytest.raises(RulesError) as info:
        parse(text, names_for(E40))
    return str(info.value)


# --------------------------------------------------------------------------------------------
# Combat Move (§9): its exceptions (CM-4), carriers (CM-18), scramble (SC-2, SC-3)


def test_A_14_CM_4_ships_leaving_a_hostile_zone_to_avoid_combat_may_end_in_a_friendly_one(
) -> None:
    """A-14 / CM-4 exception 2: a British destroyer shares Sea Zone 110 with a German
    destroyer at the start of its Combat Move; it leaves for friendly Sea Zone 109 and does not
    fight. Combat Move ends there."""
    g = e40(UK, "combat_move", {SZ110: {UK: {"destroyer": 1}, GER: {"destroyer": 1}}})
    assert moved(g, {"destroyer": 1}, SZ110, SZ109) == [
        "United Kingdom moved 1 destroyer from Sea Zone 110 to Sea Zone 109."]
    assert lines(g, len(g.end())) == ["United Kingdom: Conduct Combat.",
                                      "United Kingdom: Noncombat Move."]
    assert g.units(SZ109, UK) == {"destroyer": 1}


def test_A_14_CM_4_a_zone_enemy_planes_could_scramble_into_counts_as_hostile() -> None:
    """A-14: "A zone into which scrambles are possible may be treated as hostile for this
    purpose": a British destroyer in Sea Zone 110, beside German Holland Belgium with an air
    base and a fighter, leaves for Sea Zone 109 as a combat move. Without the air base no
    German plane could scramble there: the move must end in combat (CM-2)."""
    g = e40(UK, "combat_move", {SZ110: {UK: {"destroyer": 1}},
                                HB: {GER: {"air base": 1, "fighter": 1}}}, owners={HB: GER})
    g.move({"destroyer": 1}, SZ110, SZ109)
    assert lines(g, len(g.end())) == ["United Kingdom: Conduct Combat.",
                                      "United Kingdom: Noncombat Move."]
    g = e40(UK, "combat_move", {SZ110: {UK: {"destroyer": 1}}, HB: {GER: {"fighter": 1}}},
            owners={HB: GER})
    g.move({"destroyer": 1}, SZ110, SZ109)
    g.refuse(od.EndPhase(phase="combat_move"), "Cannot end Combat Move yet: destroyer in Sea "
             "Zone 109: Combat Move must end in combat (CM-2)")


def test_A_15_CM_18_planes_land_on_a_moved_carrier_only_where_its_move_ends() -> None:
    """A-15 / CM-18: "können veudste … in der sein Zug endet": a fighter may land on a
    carrier that moved only in the zone where the carrier's move ends. The British carrier
    moves Sea Zone 110 -> 109; a fighter flies to 109; the carrier moves on to 108: the
    fighter is not aboard (it did not land where the move ended) and has nowhere to land in
    109. Flying to 108, where the carrier's move ended, it lands."""
    units = {SZ110: {UK: {"aircraft carrier": 1}}, UK: {UK: {"fighter": 1}}}
    g = e40(UK, "noncombat_move", units)
    g.move({"aircraft carrier": 1}, SZ110, SZ109)
    g.move({"fighter": 1}, UK, SZ109)
    assert moved(g, {"aircraft carrier": 1}, SZ109, "Sea Zone 108") == [
        "United Kingdom moved 1 aircraft carrier from Sea Zone 109 to Sea Zone 108."]
    assert g.units(SZ109, UK) == {"fighter": 1}
    g.refuse(od.EndPhase(phase="noncombat_move"), "These air units have no safe landing place "
             "and would be destroyed: fighter in Sea Zone 109 (it can still reach Scotland) "
             "(NC-7).")
    g = e40(UK, "noncombat_move", units)
    g.move({"aircraft carrier": 1}, SZ110, SZ109)
    g.move({"aircraft carrier": 1}, SZ109, "Sea Zone 108")
    g.move({"fighter": 1}, UK, "Sea Zone 108")
    assert lines(g, len(g.end()))[:2] == [
        "United Kingdom: 1 fighter landed on a carrier in Sea Zone 108.",
        "United Kingdom: Mobilize New Units."]
    carrier = next(u for u in g.state.units_in("Sea Zone 108") if u.type == "aircraft carrier")
    fighter = next(u for u in g.state.units_in("Sea Zone 108") if u.type == "fighter")
    assert fighter.carried_by == carrier.id


def test_A_10_SC_3_no_more_than_3_defending_planes_scramble_from_a_territory() -> None:
    """A-10 / SC-2 / SC-3: "nicht mehr als r&ickgenden" is "not more than 3 defending" (the
    later "bis zu 3"): of four British fighters at an air base, three scramble, not four."""
    g = e40(GER, "combat_move", {UK: {UK: {"air base": 1, "fighter": 4}},
                                 SZ110: {UK: {"destroyer": 1}, GER: {"submarine": 1}}})
    g.end()
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 4}),
             "At most 3 planes scramble from United Kingdom in all (SC-3): 3 more may, not 4.",
             power=UK)
    assert said(g, Scramble(space=UK, to=SZ110, units={"fighter": 3}), UK) == [
        "United Kingdom scrambles 3 fighters from United Kingdom to Sea Zone 110: they defend "
        "there, cannot retreat and fight nothing else this turn (SC-2, SC-4)."]
    assert g.units(UK, UK)["fighter"] == 1


def test_A_30_A_34_CM_4_transports_and_standing_by_units_in_a_friendly_zone_do_not_attack(
) -> None:
    """A-30 / CM-4 exception 3: a transport moving into friendly Sea Zone 110 to land in
    German Normandy Bordeaux is not attacking there: no battle in the zone, only the landing.
    A-34 / CM-26: a destroyer and a fighter may move into that zone in case German planes
    scramble from Holland Belgium's air base (sea or air units, never land units: they are in
    a sea zone only as cargo); the scramble makes the sea battle they fight."""
    g = e40(UK, "combat_move", {
        SZ111: {UK: {"transport": 1, "infantry": 2, "destroyer": 1}},
        UK: {UK: {"fighter": 1, "infantry": 1}},
        HB: {GER: {"air base": 1, "fighter": 1}}, NB: {GER: {"infantry": 1}}},
        owners={HB: GER, NB: GER})
    assert moved(g, {"transport": 1}, SZ111, SZ110) == [
        "United Kingdom moved 1 transport, 2 infantry from Sea Zone 111 to Sea Zone 110."]
    assert moved(g, {"infantry": 2}, SZ110, NB) == [
        "United Kingdom moved 2 infantry from Sea Zone 110 to Normandy Bordeaux (offloading; "
        "amphibious assault on Normandy Bordeaux)."]
    assert moved(g, {"destroyer": 1}, SZ111, SZ110) == [
        "United Kingdom moved 1 destroyer from Sea Zone 111 to Sea Zone 110."]
    assert moved(g, {"fighter": 1}, UK, SZ110) == [
        "United Kingdom moved 1 fighter from United Kingdom to Sea Zone 110."]
    g.refuse(od.Move(units={"infantry": 1}, frm=UK, to=SZ110),
             "No friendly transport in Sea Zone 110 has room for infantry")
    assert lines(g, len(g.end())) == [
        "United Kingdom: Conduct Combat.",
        "Amphibious assault in Normandy Bordeaux: United Kingdom (2 infantry) against Germany: "
        "1 infantry."]
    assert sorted(g.state.battles) == [NB]
    assert said(g, Scramble(space=HB, to=SZ110, units={"fighter": 1}), GER)[1] == (
        "Sea battle in Sea Zone 110: United Kingdom (1 fighter, 1 destroyer, 1 transport) "
        "against Germany: 1 fighter.")


def test_A_30_a_transport_alone_in_a_friendly_zone_stays_out_of_any_battle() -> None:
    """A-30: no scramble possible: the landing's zone stays friendly and the transport, with
    no warship beside it, takes part in no battle (1940 has no 1941 exception to cite; the
    reading gives the same result)."""
    g = e40(UK, "combat_move", {SZ111: {UK: {"transport": 1, "infantry": 2}},
                                NB: {GER: {"infantry": 1}}}, owners={NB: GER})
    g.move({"transport": 1}, SZ111, SZ110)
    g.move({"infantry": 2}, SZ110, NB)
    g.end()
    assert sorted(g.state.battles) == [NB]
    assert g.units(SZ110, UK) == {"transport": 1}


# --------------------------------------------------------------------------------------------
# Combat (§10): surprise strikes (GC-3); neutrals (UN-5)


def test_A_17_GC_3_a_defending_sub_hit_by_a_surprise_strike_still_strikes() -> None:
    """A-17 / GC-3: defender casualties are removed only at the end of step 2: the German
    submarine hit by the British surprise strike still makes its own and damages the
    battleship, then leaves with the step-2 casualties."""
    g = sea_attack({"submarine": 1, "battleship": 1}, {"submarine": 1, "transport": 1})
    g.script()
    n = len(g.events)
    g.do(od.Battle(space=SZ112))
    g.script(2, 1)  # the British sub strikes (hits on 2); the German sub strikes (hits on 1)
    g.do(od.Strike(space=SZ112), power=GER)
    g.do(od.Casualties(space=SZ112, units={"battleship": 1}))
    assert lines(g, len(g.events) - n)[1:7] == [
        "In Sea Zone 112 the attacking submarines: 1 submarine makes a surprise strike (GC-3, "
        "battle order).",
        "In Sea Zone 112 the defending submarines: 1 submarine makes a surprise strike (GC-3).",
        "Battle in Sea Zone 112, round 1: attacker's submarines strike: rolled 2 → 1 hit "
        "[scripted dice].",
        "Casualties in Sea Zone 112: the defender loses 1 submarine (no choice).",
        "Battle in Sea Zone 112, round 1: defender's submarines strike: rolled 1 → 1 hit "
        "[scripted dice].",
        "Casualties in Sea Zone 112: United Kingdom has 1 battleship damaged."]
    assert g.units(SZ112, GER) == {}
    assert g.json["damaged"] == {SZ112: {UK: {"battleship": 1}}}


def test_A_18_UN_5_a_failed_attack_marks_the_neutral_uncontrolled_and_friendly_to_a_side(
) -> None:
    """A-18 / UN-5: "lege einen umgedrehten nationalen Marker": the territory of a failed
    attack is shown uncontrolled and now friendly to the side it joined: the referee says so,
    the map draws the upside-down marker, and that side's units may walk in (FN-3) while the
    attacker's may not."""
    g = e40(GER, "combat_move", {"Greater Southern Germany": {GER: {"infantry": 2}}})
    g.move({"infantry": 2}, "Greater Southern Germany", "Yugoslavia")
    g.end()
    g.script(6, 6, 1, 1, 6, 6, 6)  # Germany misses twice; Yugoslavia hits twice
    g.fight_out("Yugoslavia")
    evs = g.end()
    n = [type(e) for e in evs].index(NeutralStood)
    assert lines(g, len(evs))[n] == (
        "The attack on Yugoslavia failed: it stays uncontrolled, now a pro-Allied neutral; its "
        "army (5 infantry) stays there and cannot move (UN-5).")
    assert g.owner("Yugoslavia") is None and repelled(g.state) == ["Yugoslavia"]
    (mark,) = [m for m in hooks.markers() if m.glyph == "repelled"]
    assert mark.legend == "neutral that repelled an attack"
    assert list(mark.spaces(g.state)) == ["Yugoslavia"]
    g = e40(GER, "noncombat_move", {"Greater Southern Germany": {GER: {"infantry": 1}},
                                    "Yugoslavia": {"neutral": {"infantry": 3}}},
            failed_attacks=["Yugoslavia"])
    g.refuse(od.Move(units={"infantry": 1}, frm="Greater Southern Germany", to="Yugoslavia"),
             "Yugoslavia is a pro-Allied neutral, not friendly to your side: entering it is an "
             "attack, made in Combat Move (UN-1, NC-4).")
    g = e40(UK, "noncombat_move", {"Romania": {UK: {"infantry": 1}},
                                   "Yugoslavia": {"neutral": {"infantry": 3}}},
            owners={"Romania": UK}, failed_attacks=["Yugoslavia"])
    assert moved(g, {"infantry": 1}, "Romania", "Yugoslavia")[2] == (
        "United Kingdom took the friendly neutral Yugoslavia; its army (3 infantry) joins "
        "United Kingdom, free to move from its next turn (UN-5, FN-3).")
    assert repelled(g.state) == []


# --------------------------------------------------------------------------------------------
# Research & Development (§19, Global only) and the US Global objective


def test_A_27_A_28_RD_2_europe_1940_plays_without_research_dice_or_rockets() -> None:
    """A-27 (failed research dice are spent, no carry-over) and A-28 (rockets may not fly over
    neutrals) read the optional Global R&D rules (§19, RD-1: "Global only"). Europe 1940 plays
    without them: no research dice to buy, no rockets to fire."""
    assert parse("research 2", names_for(E40)) == Research(dice=2)
    g = e40(GER, "purchase")
    g.refuse(Research(dice=2), "Axis & Allies Europe 1940, Second Edition has no weapons "
             "development: there is nothing to research.")
    assert g.state.treasury[GER] == 30
    g = e40(GER, "conduct_combat", {"Western Germany": {GER: {"aaGun": 1, "air base": 1}}})
    g.refuse(Rocket(frm="Western Germany", target="United Kingdom"),
             "Germany has not developed Rockets")


def test_A_33_the_us_france_objective_is_global_only(ed: Edition) -> None:
    """A-33 (§18, Global): 5 IPCs while at least one US land unit is in "France". Europe 1940's
    US objectives (§14.1) are the homeland and the Caribbean only."""
    us = [o for o in ed.rules.objectives if o.power == USA]
    assert [(o.id, o.value) for o in us] == [("usa_homeland", 20), ("usa_caribbean", 5)]
    assert not [o for o in us if "France" in str(o)]
