"""Classic rule cases, aircraft movement: R-AIR-02..07, R-AAG-03 and R-AIR-05 overflight fire
(A-04, A-06), R-CM-06, R-NCM-02, R-SBR-01 and R-BMB-03 raid declarations (A-16), Long-Range
Aircraft (R-TEC-05). Digest: shared/rules/classic.md §5.3, §6.8, §4.1."""

from __future__ import annotations

from dataclasses import replace

from rules import events as ev
from rules import legal
from rules import orders as od
from rules.mechanisms import bombing
from service.describe import describe
from service.language import names_for, parse
from tests.rules.cases._classic_common import (
    AA,
    CM,
    GER,
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
from tests.rules.helpers import Game

# --------------------------------------------------------------------------------------------
# Range and landing


def test_R_AIR_02_range_is_four_out_and_back() -> None:
    """R-AIR-02 / R-CM-06: a fighter may attack 2 away and come back 2; a target 3 away with no
    landing place 1 beyond it is refused."""
    g = game(GER, CM, {"Germany": {GER: {"fighter": 1}},
                       "Karelia S.S.R.": {RUS: {"infantry": 1}},
                       "Russia": {RUS: {"infantry": 1}}})
    g.refuse(move({"fighter": 1}, "Germany", "Russia"), "could not land", "R-CM-06")
    g.move({"fighter": 1}, "Germany", "Karelia S.S.R.")
    assert one(g, "Karelia S.S.R.", GER, "fighter").moved == 2


def test_R_AIR_03_islands_cost_two_and_carriers_save_one() -> None:
    """R-AIR-03: from the Hawaiian Islands, Midway is 3 (sea zone, sea zone, island): 6 there and
    back is too far for a fighter; from a carrier in the Hawaii Sea Zone it is 2 and back 2."""
    g = game(USA, CM, {"Hawaiian Islands": {USA: {"fighter": 1}},
                       "Midway": {JAP: {"infantry": 1}}},
             owners={"Midway": JAP})
    g.refuse(move({"fighter": 1}, "Hawaiian Islands", "Midway"), "could not land")
    h = game(USA, CM, {"Hawaii Sea Zone": {USA: {"aircraft carrier": 1, "fighter": 1}},
                       "Midway": {JAP: {"infantry": 1}}},
             owners={"Midway": JAP})
    h.move({"fighter": 1}, "Hawaii Sea Zone", "Midway")
    f = one(h, "Midway", USA, "fighter")
    assert f.moved == 2


def test_R_AIR_04_fighters_launch_from_where_the_carrier_started() -> None:
    """R-AIR-04 / A-19: a carrier that moves in Combat Movement leaves its fighter where it
    started; the fighter attacks from there under its own range, never from the new position."""
    g = game(JAP, CM, {"Caroline Islands Sea Zone": {JAP: {"aircraft carrier": 1,
                                                          "fighter": 1}},
                       "Philippines Sea Zone": {USA: {"submarine": 1}},
                       "Wake Island Sea Zone": {USA: {"transport": 1}}})
    g.move({"aircraft carrier": 1}, "Caroline Islands Sea Zone", "Philippines Sea Zone")
    g.refuse(move({"fighter": 1}, "Philippines Sea Zone", "Wake Island Sea Zone"),
             "no fighter in Philippines Sea Zone")
    g.move({"fighter": 1}, "Caroline Islands Sea Zone", "Wake Island Sea Zone")


def test_R_AIR_06_never_land_in_a_territory_conquered_this_turn() -> None:
    """R-AIR-06 / R-BMB-02: the fighter and bomber that helped take French Equatorial Africa may
    not land there; they must fly back to a territory friendly since the start of the turn."""
    g = game(GER, CM, {"Libya": {GER: {"tank": 1, "fighter": 1, "bomber": 1}},
                       "French Equatorial Africa": {UK: {"infantry": 1}}})
    g.move({"tank": 1, "fighter": 1, "bomber": 1}, "Libya", "French Equatorial Africa")
    g.end()
    g.script(1, 6, 6, 6)
    g.do(od.Battle(space="French Equatorial Africa", all=True))
    assert g.owner("French Equatorial Africa") == GER
    g.end()
    g.refuse(move({"fighter": 1}, "French Equatorial Africa", "French Equatorial Africa",
                  "Libya"), "safe landing place")
    g.move({"fighter": 1, "bomber": 1}, "French Equatorial Africa", "Libya")


def test_R_AIR_06_two_fighters_per_carrier() -> None:
    """R-AIR-06: a carrier takes at most two fighters, own and allied together."""
    g = game(UK, NCM, {"North Sea Zone": {UK: {"aircraft carrier": 1, "fighter": 1}},
                       "United Kingdom": {UK: {"fighter": 2}}})
    g.move({"fighter": 1}, "United Kingdom", "North Sea Zone")
    g.refuse(move({"fighter": 1}, "United Kingdom", "North Sea Zone"), "safe landing place")


def test_R_AIR_07_R_NCM_02_aircraft_that_cannot_land_are_lost() -> None:
    """R-NCM-02 / R-AIR-07: a fighter left where it cannot land is destroyed at the end of
    Non-combat Movement (after 'end confirm')."""
    g = game(GER, NCM, {"Karelia S.S.R.": {GER: {"fighter": 1}}})
    f = one(g, "Karelia S.S.R.", GER, "fighter")
    g.state = replace(g.state, units={**g.state.units, f.id: replace(f, moved=4)})
    g.refuse(od.EndPhase(), "no safe landing place")
    g.end(confirm=True)
    assert g.units("Karelia S.S.R.", GER) == {}


def test_R_TEC_05_long_range_aircraft_fly_six() -> None:
    """R-TEC-05: with Long-Range Aircraft a fighter flies 6: Germany to Russia (3) and back."""
    g = game(GER, CM, {"Germany": {GER: {"fighter": 1}}, "Russia": {RUS: {"infantry": 1}}})
    g.state = replace(g.state, techs={GER: ("long_range_aircraft",)})
    g.move({"fighter": 1}, "Germany", "Russia")


# --------------------------------------------------------------------------------------------
# AA fire at overflying aircraft (R-AIR-05, R-AAG-03, A-04, A-06)


def test_R_AIR_05_aa_guns_fire_at_aircraft_flying_over() -> None:
    """R-AIR-05 / R-AAG-03 (App. II): a British bomber that flies to Germany over Western Europe
    draws one die from the German AA gun there; a 1 destroys it."""
    g = game(UK, CM, {"United Kingdom": {UK: {"bomber": 1}},
                      "Western Europe": {GER: {AA: 1}},
                      "Germany": {GER: {"infantry": 1}}})
    g.script(1)
    evs = g.move({"bomber": 1}, "United Kingdom", "Germany", "North Sea Zone", "Western Europe")
    (dice,) = of_type(evs, ev.DiceRolled)
    assert (dice.space, dice.stage, dice.hits, dice.groups) == (
        "Western Europe", "overflight", 1, ((AA, 1, (1,)),))
    (gone,) = of_type(evs, ev.UnitsRemoved)
    assert gone.rule == "R-AIR-05" and not of_type(evs, ev.UnitsMoved)
    assert "bomber" not in g.units("United Kingdom", UK) and g.units("Germany", UK) == {}
    assert "rolled 1" in describe(g.state, dice)


def test_R_AIR_05_a_miss_lets_the_bomber_through() -> None:
    """R-AIR-05: a die other than 1 misses; the bomber arrives."""
    g = game(UK, CM, {"United Kingdom": {UK: {"bomber": 1}},
                      "Western Europe": {GER: {AA: 1}},
                      "Germany": {GER: {"infantry": 1}}})
    g.script(2)
    g.move({"bomber": 1}, "United Kingdom", "Germany", "North Sea Zone", "Western Europe")
    assert g.units("Germany", UK) == {"bomber": 1}


def test_R_AIR_05_the_route_avoids_aa_guns_when_it_can() -> None:
    """App. II: without 'via' the bomber goes round Western Europe by sea (3 spaces either way),
    so no die is rolled (the scripted dice are empty)."""
    g = game(UK, CM, {"United Kingdom": {UK: {"bomber": 1}},
                      "Western Europe": {GER: {AA: 1}},
                      "Germany": {GER: {"infantry": 1}}})
    evs = g.move({"bomber": 1}, "United Kingdom", "Germany")
    assert not of_type(evs, ev.DiceRolled)
    assert of_type(evs, ev.UnitsMoved)[0].moves[0].path == (
        "United Kingdom", "North Sea Zone", "Baltic Sea Zone", "Germany")


def test_A_04_one_die_per_aircraft_and_the_cheapest_is_lost() -> None:
    """R-AAG-03 / A-04: two fighters and a bomber fly over the AA gun: 3 dice; one 1 destroys one
    aircraft, the owner's cheapest (a fighter) as the referee's choice for a single order."""
    g = game(RUS, CM, {"Karelia S.S.R.": {RUS: {"bomber": 1, "fighter": 2}},
                       "Eastern Europe": {GER: {AA: 1}},
                       "Germany": {GER: {"infantry": 1}}})
    g.script(4, 1, 5)
    evs = g.move({"bomber": 1, "fighter": 2}, "Karelia S.S.R.", "Germany", "Eastern Europe")
    (dice,) = of_type(evs, ev.DiceRolled)
    assert dice.hits == 1 and len(dice.groups[0][2]) == 3
    assert g.units("Germany", RUS) == {"bomber": 1, "fighter": 1}


def test_A_06_no_overflight_fire_in_non_combat_movement_nor_at_the_destination() -> None:
    """A-06: AA guns fire at overflights in Combat Movement only; and never in movement at the
    destination (that gun fires in the battle or raid)."""
    g = game(UK, NCM, {"Eastern Europe": {UK: {"fighter": 1}},
                       "Germany": {GER: {AA: 1}}},
             owners={"Eastern Europe": UK, "Western Europe": UK})
    evs = g.move({"fighter": 1}, "Eastern Europe", "Western Europe", "Germany")
    assert not of_type(evs, ev.DiceRolled)
    h = game(UK, CM, {"United Kingdom": {UK: {"fighter": 1}},
                      "Western Europe": {GER: {AA: 1, "infantry": 1}}})
    evs = h.move({"fighter": 1}, "United Kingdom", "Western Europe")
    assert not of_type(evs, ev.DiceRolled)


async def test_R_AIR_05_an_order_that_rolled_dice_cannot_be_undone() -> None:
    """Undo is free until dice are rolled (service): the overflight roll is a DiceRolled."""
    from service.games import GameService

    svc = GameService()
    svc.allow_scripted_dice = True
    position = {"edition": "classic", "power": UK, "phase": CM, "clear_all_units": True,
                "units": {"United Kingdom": {UK: {"bomber": 1}},
                          "Western Europe": {GER: {AA: 1}},
                          "Germany": {GER: {"infantry": 1}}}}
    info = await svc.create("chan", "alice", "classic", dice=[3], position=position)
    for p in (GER, JAP):
        assert (await svc.join(info.id, "alice", p)).ok
    for p in (RUS, UK, USA):
        assert (await svc.join(info.id, "bob", p)).ok
    assert (await svc.start(info.id, "alice")).ok
    r = await svc.submit(info.id, "bob", "move 1 bomber from United Kingdom to Germany via "
                         "North Sea Zone, Western Europe raid")
    assert r.ok, r.error
    assert any(isinstance(e, ev.DiceRolled) and e.stage == "overflight" for e in r.events)
    r = await svc.undo(info.id, "bob")
    assert not r.ok and "dice were rolled" in (r.error or "")


# --------------------------------------------------------------------------------------------
# Strategic bombing raid declaration (R-SBR-01, R-BMB-03, A-16)


def _raid_game() -> Game:
    return game(UK, CM, {"United Kingdom": {UK: {"bomber": 2, "fighter": 1}},
                         "Western Europe": {GER: {"infantry": 1}},
                         "North Sea Zone": {UK: {"transport": 1, "infantry": 1}}})


def test_R_SBR_01_bombers_declare_a_raid_on_an_enemy_complex() -> None:
    """R-SBR-01: 'move 1 bomber from United Kingdom to Germany raid' declares a raid on the
    German complex; the bomber is marked as raiding."""
    g = _raid_game()
    evs = g.do(move({"bomber": 1}, "United Kingdom", "Germany", raid=True))
    (moved,) = of_type(evs, ev.UnitsMoved)
    assert moved.moves[0].raid
    assert one(g, "Germany", UK, "bomber").id in bombing.raiders(g.state)
    assert "strategic bombing raid on Germany" in describe(g.state, moved)


def test_R_SBR_01_only_bombers_only_on_complexes_only_in_combat_movement() -> None:
    """R-SBR-01: fighters cannot raid; a territory without a complex cannot be raided, nor a
    friendly one; raids are declared in Combat Movement only."""
    g = _raid_game()
    g.refuse(move({"fighter": 1}, "United Kingdom", "Germany", raid=True), "Only bombers",
             "R-SBR-01")
    g.refuse(move({"bomber": 1}, "United Kingdom", "Western Europe", raid=True),
             "no industrial complex", "R-SBR-01")
    g.refuse(move({"bomber": 1, "fighter": 1}, "United Kingdom", "Germany", raid=True),
             "Only bombers")
    h = game(UK, NCM, {"United Kingdom": {UK: {"bomber": 1}}})
    h.refuse(move({"bomber": 1}, "United Kingdom", "Germany", raid=True), "Combat Movement",
             "R-SBR-01")
    k = game(GER, CM, {"Germany": {GER: {"bomber": 1}}}, owners={"Southern Europe": GER})
    k.refuse(move({"bomber": 1}, "Germany", "Southern Europe", raid=True), "not enemy territory")


def test_A_16_raid_and_attack_on_the_same_territory() -> None:
    """A-16 / R-BMB-03: one bomber raids Germany's complex while the other attacks the units
    there; each does one or the other, and the raiding bomber is not in the land battle."""
    g = game(UK, CM, {"United Kingdom": {UK: {"bomber": 2}},
                      "Germany": {GER: {"infantry": 1}}})
    g.do(move({"bomber": 1}, "United Kingdom", "Germany", raid=True))
    g.move({"bomber": 1}, "United Kingdom", "Germany")
    g.end()
    b = battles(g)["Germany"]
    raiders = bombing.raiders(g.state)
    assert len(raiders) == 1 and raiders[0] not in b.attacking and len(b.attacking) == 1


def test_R_CM_06_raiding_bombers_need_a_landing_place_and_land_in_non_combat() -> None:
    """R-CM-06 / R-NCM-02: a raiding bomber must be able to land afterwards (from Germany, Russia
    is 3 out and 3 back; from the Western United States it could not land) and flies back in
    Non-combat Movement like any aircraft."""
    g = game(GER, CM, {"Germany": {GER: {"bomber": 1}},
                       "Western United States": {GER: {"bomber": 1}}},
             owners={"Western United States": GER})
    g.refuse(move({"bomber": 1}, "Western United States", "Russia", raid=True), "could not land")
    g.do(move({"bomber": 1}, "Germany", "Russia", raid=True))
    assert one(g, "Russia", GER, "bomber").id in bombing.raiders(g.state)
    g.state = replace(g.state, phase=NCM)  # the raid itself is resolved in Combat (R-SBR-02..05)
    g.move({"bomber": 1}, "Russia", "Germany")
    assert [u.moved for u in g.state.units_in("Germany") if u.type == "bomber"] == [6]


def test_R_SBR_01_no_raids_without_the_rule() -> None:
    """RuleSet.strategic_bombing: 1941 has no strategic bombing raids."""
    from tests.rules.helpers import position

    g = Game(position("United Kingdom", CM, {"United Kingdom": {UK: {"bomber": 1}}}))
    g.refuse(move({"bomber": 1}, "United Kingdom", "Germany", raid=True), "no strategic bombing")


def test_R_SBR_01_parse_and_legal_orders() -> None:
    """The order text: a trailing 'raid' (or 'bombing raid', 'bomb'); legal_orders lists the
    raid next to the plain attack."""
    names = names_for("classic")
    for text in ("move 1 bomber from United Kingdom to Germany raid",
                 "move 1 bomber from UK to Germany bombing raid",
                 "move 1 bmb from UK to Germany via North Sea Zone, Baltic Sea Zone raid"):
        order = parse(text, names)
        assert isinstance(order, od.Move) and order.raid and order.to == "Germany"
    plain = parse("move 1 bomber from UK to Germany", names)
    assert isinstance(plain, od.Move) and not plain.raid
    g = _raid_game()
    orders = [o for o in legal.legal_orders(g.state, UK) if isinstance(o, od.Move)]
    assert any(o.raid and o.to == "Germany" and "bomber" in o.units for o in orders)
    assert not any(o.raid and "fighter" in o.units for o in orders)


def test_R_BMB_01_bombers_fly_six() -> None:
    """R-BMB-01: a bomber flies 6 (3 out, 3 back): Germany → Russia and back; 4 out to Eastern
    Canada leaves 2, and no Axis territory is within 2 of it."""
    g = game(GER, CM, {"Germany": {GER: {"bomber": 2}}, "Russia": {RUS: {"infantry": 1}}})
    g.refuse(move({"bomber": 1}, "Germany", "Eastern Canada"), "could not land",
             "2 movement left")
    g.move({"bomber": 1}, "Germany", "Russia")
    assert one(g, "Russia", GER, "bomber").moved == 3


def test_R_BMB_02_bombers_never_land_on_carriers() -> None:
    """R-BMB-02: a bomber may not land on a carrier (nor, R-AIR-06, in a territory conquered this
    turn)."""
    g = game(UK, NCM, {"United Kingdom": {UK: {"bomber": 1}},
                       "North Sea Zone": {UK: {"aircraft carrier": 1}}})
    g.refuse(move({"bomber": 1}, "United Kingdom", "North Sea Zone"), "never land on carriers")


def test_R_AIR_01_aircraft_attack_in_combat_movement_and_land_in_non_combat() -> None:
    """R-AIR-01: a fighter flies into an attack in Combat Movement (land or sea) and must land in
    Non-combat Movement; it never ends Combat Movement in a friendly space."""
    g = game(UK, CM, {"United Kingdom": {UK: {"fighter": 2}},
                      "North Sea Zone": {GER: {"submarine": 1}},
                      "Western Europe": {GER: {"infantry": 1}}})
    g.refuse(move({"fighter": 1}, "United Kingdom", "Eire"), "neutral")
    g.move({"fighter": 1}, "United Kingdom", "North Sea Zone")
    g.move({"fighter": 1}, "United Kingdom", "Western Europe")
    assert g.units("North Sea Zone", UK) == {"fighter": 1}
    assert g.units("Western Europe", UK) == {"fighter": 1}


def test_R_CM_06_app_II_a_carrier_that_moves_in_non_combat_counts_for_landing() -> None:
    """R-CM-06 with the App. II example: fighters take off from a carrier in the Wake Island Sea
    Zone, fly through the Caroline and Philippines zones and attack the Philippines (3 spaces,
    1 left); no friendly territory is within 1, but the carrier can move 2 zones in Non-combat
    Movement to the Philippines Sea Zone, so the attack stands, with two fighters (R-AIR-06: two
    a carrier) though both sit on the carrier at the start. In Non-combat Movement the carrier is
    bound to go there: ending is refused with both moves named; then both land on it."""
    units = {"Wake Island Sea Zone": {USA: {"aircraft carrier": 1, "fighter": 2}},
             "Philippines": {JAP: {"infantry": 1}}}
    g = game(USA, CM, units)
    g.move({"fighter": 2}, "Wake Island Sea Zone", "Philippines")
    assert [f.moved for f in pieces(g, "Philippines", USA, "fighter")] == [3, 3]
    g.end()
    g.script(1, 6, 6)  # fighters 1 (hit) and 6; the infantry fires back 6 (miss)
    g.do(od.Battle(space="Philippines", all=True))
    g.end()
    assert g.owner("Philippines") == JAP and g.state.phase == NCM
    g.refuse(od.EndPhase(confirm=True), "fighter in Philippines can still land: move it to "
             "Philippines Sea Zone", "aircraft carrier in Wake Island Sea Zone must move to "
             "Philippines Sea Zone", "R-CM-06")
    g.move({"aircraft carrier": 1}, "Wake Island Sea Zone", "Philippines Sea Zone")
    g.move({"fighter": 2}, "Philippines", "Philippines Sea Zone")
    g.end()
    carrier = one(g, "Philippines Sea Zone", USA, "aircraft carrier")
    fighters = pieces(g, "Philippines Sea Zone", USA, "fighter")
    assert [f.carried_by for f in fighters] == [carrier.id] * 2


def test_R_AIR_06_fighters_refused_at_once_where_carriers_have_no_room() -> None:
    """R-AIR-06: at most 2 fighters a carrier, own and allied combined: a UK fighter may not fly
    in Non-combat Movement to a US carrier already carrying two US fighters (refused at once,
    citing Classic's rule); a third fighter cannot count on one carrier to attack either."""
    g = game(UK, NCM, {"North Sea Zone": {USA: {"aircraft carrier": 1, "fighter": 2}},
                       "United Kingdom": {UK: {"fighter": 1}}})
    err = g.refuse(move({"fighter": 1}, "United Kingdom", "North Sea Zone"),
                   "carriers in North Sea Zone have 0 free slots", "R-AIR-06")
    assert "UF-2" not in str(err) and "NC-6" not in str(err)
