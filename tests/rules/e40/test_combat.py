"""Europe 1940 combat with its own units (digest §10.3-§10.5, §16, §22.5/6/10/11/12).

Dice are scripted. Each side's units roll in groups of one type and value, the highest value
first (then by unit name), so the faces below are given in that order.
"""

from __future__ import annotations

from rules import orders as od
from rules.events import BattleEnded, CasualtiesChosen, DiceRolled, Event, UnitsRemoved
from rules.messages import own_rule
from tests.rules.e40._battles import (
    BEACH,
    FR,
    GER,
    LAND,
    OFFSHORE,
    SEA,
    UK,
    e40,
    land_attack,
    landing,
    sea_attack,
)
from tests.rules.helpers import Game


def rolls(evs: list[Event], side: str = "attacker") -> list[DiceRolled]:
    return [e for e in evs if isinstance(e, DiceRolled) and e.side == side]


# --------------------------------------------------------------------------------------------
# Combined arms (§10.5)


def test_CA_4_two_artillery_five_infantry_two_at_2_three_at_1() -> None:
    """CA-4 (the digest's example): 2 artillery and 5 infantry attack; two infantry attack at 2
    and the other three at 1 (CA-1: 1:1)."""
    g = land_attack({"artillery": 2, "infantry": 5}, {"infantry": 6})
    g.script(6, 6, 2, 2, 2, 2, 2, *[6] * 6)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6, 6)), ("infantry", 2, (2, 2)),
                           ("infantry", 1, (2, 2, 2)))
    assert fire.hits == 2


def test_CA_1_artillery_raises_mechanized_infantry_too() -> None:
    """CA-1: artillery raises one mechanized infantry to attack 2."""
    g = land_attack({"artillery": 1, "mechanized infantry": 2}, {"infantry": 3})
    g.script(6, 2, 2, *[6] * 3)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6,)), ("mechanized infantry", 2, (2,)),
                           ("mechanized infantry", 1, (2,)))
    assert fire.hits == 1


def test_CA_2_one_artillery_boosts_one_unit_not_two() -> None:
    """CA-2: an artillery cannot boost both an infantry and a mechanized infantry in the same
    battle: one of them attacks at 2, the other at 1."""
    g = land_attack({"artillery": 1, "infantry": 1, "mechanized infantry": 1}, {"infantry": 3})
    g.script(6, 6, 6, *[6] * 3)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6,)), ("infantry", 2, (6,)),
                           ("mechanized infantry", 1, (6,)))


def test_CA_1_tactical_bomber_at_4_with_a_tank_or_a_fighter() -> None:
    """CA-1: a tactical bomber attacks at 4 paired 1:1 with a tank or a fighter; a third
    tactical bomber without a partner attacks at 3 (CA-4)."""
    g = land_attack({"tank": 1, "fighter": 1, "tactical bomber": 3}, {"infantry": 6})
    g.script(6, 4, 3, 3, 3, *[6] * 6)
    fire = rolls(g.do(od.Battle(space=LAND)))[0]
    assert fire.groups == (("tactical bomber", 4, (6, 4)), ("fighter", 3, (3,)),
                           ("tactical bomber", 3, (3,)), ("tank", 3, (3,)))
    assert fire.hits == 4


def test_CA_3_no_support_on_defence() -> None:
    """CA-3: the bonuses apply only when attacking: defending infantry beside artillery defend
    at 2, a defending tactical bomber beside a fighter and a tank at 3."""
    g = land_attack({"infantry": 1}, {"artillery": 1, "infantry": 2, "tank": 1, "fighter": 1,
                                      "tactical bomber": 1})
    g.script(6, *[6] * 6)
    evs = g.do(od.Battle(space=LAND))
    assert rolls(evs, "defender")[0].groups == (
        ("fighter", 4, (6,)), ("tactical bomber", 3, (6,)), ("tank", 3, (6,)),
        ("artillery", 2, (6,)), ("infantry", 2, (6, 6)))


def test_CA_2_GC_7_pairs_made_again_each_round_with_the_units_left() -> None:
    """GC-7 / §22.11: pairings are re-evaluated each round after casualties: an artillery lost in
    round 1 raises one infantry fewer in round 2."""
    g = land_attack({"artillery": 2, "infantry": 2}, {"infantry": 6}, standing={GER: ["artillery"]})
    g.script(6, 6, 6, 6, 1, *[6] * 5)  # attack misses; the defence hits once
    g.do(od.Battle(space=LAND))  # the standing order loses an artillery
    assert g.units(LAND, GER) == {"artillery": 1, "infantry": 2}
    g.script(6, 6, 6, *[6] * 6)
    fire = rolls(g.do(od.Press(space=LAND)))[0]
    assert fire.groups == (("artillery", 2, (6,)), ("infantry", 2, (6,)), ("infantry", 1, (6,)))
    assert g.units(LAND, FR)["infantry"] == 6


# --------------------------------------------------------------------------------------------
# AA guns (§16.1, §22.12)


def test_A_21_AA_dice_min_of_three_per_gun_and_the_attacking_aircraft() -> None:
    """§16.1 / §22.12 (the digest's examples): 5 fighters attack a territory with 2 AA guns: 5
    dice; with 1 AA gun: 3 dice. Each 1 hits."""
    for guns, dice in ((2, 5), (1, 3)):
        g = land_attack({"fighter": 5}, {"infantry": 2, "aa gun": guns})
        g.script(1, *[6] * (dice - 1), *[6] * 5, *[6] * 2)
        aa = rolls(g.do(od.Battle(space=LAND)), "defender")[0]
        assert aa.stage == "aa" and aa.groups == (("aa gun", 1, (1, *[6] * (dice - 1))),)
        assert aa.hits == 1


def test_CC_3_the_attacker_chooses_which_aircraft_the_AA_guns_destroy() -> None:
    """§16.1 / §22.12: each 1 is a hit and the attacker chooses which air unit is lost; the hits
    go on aircraft only."""
    g = land_attack({"infantry": 2, "fighter": 1, "tactical bomber": 1}, {"infantry": 2,
                                                                        "aa gun": 1})
    g.script(1, 6)
    g.do(od.Battle(space=LAND))
    assert g.state.battles[LAND].owed == (("attacker", 1),)
    g.refuse(od.Casualties(space=LAND, units={"infantry": 1}), "That choice wastes hits",
             "antiaircraft hits only on aircraft")
    g.script(6, 6, 6, 6, 6, 6)
    g.do(od.Casualties(space=LAND, units={"tactical bomber": 1}))
    assert g.units(LAND, GER) == {"infantry": 2, "fighter": 1}


def test_GC_2_AA_guns_defend_at_0_never_fire_in_rounds_and_may_be_casualties() -> None:
    """GC-2 / §16.1: an AA gun has no combat value: it does not roll in Step 4 and the defender
    may choose it as a casualty."""
    g = land_attack({"infantry": 2}, {"infantry": 1, "aa gun": 1})
    g.script(1, 6)  # no aircraft: the gun does not fire; one hit
    g.do(od.Battle(space=LAND))
    g.script(6)
    evs = g.do(od.Casualties(space=LAND, units={"aa gun": 1}), power=FR)
    assert rolls(evs, "defender")[0].groups == (("infantry", 2, (6,)),)
    assert "aa gun" not in g.units(LAND, FR)


def test_CC_3_territory_held_only_by_AA_guns_taken_without_combat_guns_destroyed() -> None:
    """CC-3: a hostile territory holding only AA guns (and facilities) is entered without
    combat; the guns are destroyed, not captured; the facilities change hands."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 1}},
                                 LAND: {FR: {"aa gun": 2}}}, owners={LAND: FR})
    g.move({"infantry": 1}, "Western Germany", LAND)
    evs = g.end()
    assert LAND not in g.state.battles
    assert g.owner(LAND) == GER
    assert g.units(LAND, FR) == {}
    assert "aa gun" not in g.units(LAND, GER)
    gone = [e for e in evs if isinstance(e, UnitsRemoved)]
    assert gone and gone[0].rule == own_rule("CC-3") and len(gone[0].ids) == 2


def test_GC_10_A_21_defender_left_with_AA_guns_only_loses_them() -> None:
    """GC-10 / A-21: a defender reduced to AA guns can no longer fire: the attacker wins at
    once, captures with its land unit, and the guns are destroyed."""
    g = land_attack({"tank": 2}, {"infantry": 1, "aa gun": 1})
    g.script(3, 6, 6)  # one hit: the defender keeps its gun; its infantry misses
    g.do(od.Battle(space=LAND))
    evs = g.do(od.Casualties(space=LAND, units={"infantry": 1}), power=FR)
    ended = [e for e in evs if isinstance(e, BattleEnded)]
    assert ended and ended[0].result == "attacker"
    assert g.owner(LAND) == GER
    assert g.units(LAND, FR) == {}
    assert [e.rule for e in evs if isinstance(e, UnitsRemoved)][-1] == own_rule("GC-10/A-21")


def test_CO_1_AA_guns_cannot_capture() -> None:
    """CO-1 / A-31: an attacking AA gun left alone wins nothing: the territory stays the
    defender's."""
    g = e40(GER, "conduct_combat", {LAND: {GER: {"infantry": 1, "aa gun": 1},
                                           FR: {"infantry": 1}}}, owners={LAND: FR})
    g.script(1, 1)  # both sides hit; Germany loses its infantry
    g.do(od.Battle(space=LAND))
    g.do(od.Casualties(space=LAND, units={"infantry": 1}))
    assert g.state.battles[LAND].step == "done"
    assert g.owner(LAND) == FR
    assert g.units(LAND, GER) == {"aa gun": 1}


# --------------------------------------------------------------------------------------------
# Sea units: cruisers, two-hit carriers and battleships, damage that persists (§16.3)


def test_16_3_cruiser_attacks_and_defends_at_3() -> None:
    """§16.3 / §16.0: a cruiser attacks at 3 and defends at 3."""
    g = sea_attack({"cruiser": 1}, {"cruiser": 1})
    g.script(3, 4)
    evs = g.do(od.Battle(space=SEA))
    assert rolls(evs)[0].groups == (("cruiser", 3, (3,)),)
    assert rolls(evs, "defender")[0].groups == (("cruiser", 3, (4,)),)


def test_GC_3_partial_damage_persists_after_the_battle_and_across_turns() -> None:
    """GC-3 / §16.3 / §22.6: a battleship or carrier that survives its first hit stays damaged
    after the battle and in later turns (1940 has no repair after combat: 1941 does, UB-2);
    'state' shows it under 'damaged'."""
    g = sea_attack({"destroyer": 2}, {"battleship": 1, "aircraft carrier": 1})
    g.script(1, 1, 6, 6)  # two hits: Germany puts one on each two-hit ship
    g.do(od.Battle(space=SEA))
    g.do(od.Casualties(space=SEA, units={"battleship": 1, "aircraft carrier": 1}), power=GER)
    assert g.json["damaged"] == {SEA: {GER: {"aircraft carrier": 1, "battleship": 1}}}
    g.do(od.Retreat(space=SEA, to=OFFSHORE))
    ended = [e for e in g.events if isinstance(e, BattleEnded)][-1]
    assert ended.repaired == ()
    while g.state.power == UK:
        g.end(confirm=True)
    assert g.json["damaged"] == {SEA: {GER: {"aircraft carrier": 1, "battleship": 1}}}


def test_16_3_carrier_takes_two_hits() -> None:
    """§16.3: a carrier takes 2 hits: the second sinks it."""
    g = sea_attack({"destroyer": 2}, {"aircraft carrier": 1})
    g.script(1, 1, 6)
    g.do(od.Battle(space=SEA))
    assert g.units(SEA, GER) == {}


def test_16_3_damaged_carrier_planes_are_trapped_cargo_and_sink_with_it() -> None:
    """§16.3 / §22.6: the planes aboard a damaged carrier do not defend: they are cargo, and are
    lost when it sinks."""
    g = sea_attack({"destroyer": 1}, {"aircraft carrier": 1, "fighter": 1, "tactical bomber": 1},
                   damaged={SEA: {GER: {"aircraft carrier": 1}}})
    b = g.state.battles[SEA]
    assert [g.state.units[i].type for i in b.defending] == ["aircraft carrier"]
    g.script(1, 6)
    evs = g.do(od.Battle(space=SEA))
    assert rolls(evs, "defender")[0].groups == (("aircraft carrier", 2, (6,)),)
    assert g.units(SEA, GER) == {}
    lost = [e for e in evs if isinstance(e, UnitsRemoved)][-1]
    assert len(lost.ids) == 3


def test_16_3_planes_of_a_carrier_damaged_in_battle_defend_then_land_elsewhere() -> None:
    """§16.3: an undamaged carrier's planes defend in the air; once it is damaged they cannot
    land on it: they land 1 space away in Noncombat Move (as those of a sunk carrier)."""
    g = sea_attack({"cruiser": 1}, {"aircraft carrier": 1, "fighter": 1})
    g.script(1, 6, 6)  # the cruiser hits; carrier and fighter miss
    g.do(od.Battle(space=SEA))
    evs = g.do(od.Casualties(space=SEA, units={"aircraft carrier": 1}), power=GER)
    assert {x[0] for x in rolls(evs, "defender")[0].groups} == {"aircraft carrier", "fighter"}
    g.do(od.Retreat(space=SEA, to=OFFSHORE))
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    assert fighter.stranded and fighter.carried_by is None
    g.end()  # Conduct Combat ends; Noncombat Move begins with the stranded fighters (NC-3)
    assert g.units(SEA, GER) == {"aircraft carrier": 1}
    assert any(g.units(t, GER).get("fighter") for t in ("Western Germany", "Denmark", "Norway"))


def test_16_3_no_take_off_from_or_landing_on_a_damaged_carrier() -> None:
    """§16.3 / §22.6: no plane may take off from a damaged carrier or land on it."""
    g = e40(GER, "combat_move", {SEA: {GER: {"aircraft carrier": 1, "fighter": 1}}},
            damaged={SEA: {GER: {"aircraft carrier": 1}}})
    g.refuse(od.Move(units={"fighter": 1}, frm=SEA, to="Sea Zone 113"),
             "planes aboard a damaged carrier can neither take off nor land")
    g = e40(GER, "noncombat_move", {SEA: {GER: {"aircraft carrier": 1}},
                                    "Western Germany": {GER: {"fighter": 1}}},
            damaged={SEA: {GER: {"aircraft carrier": 1}}})
    g.refuse(od.Move(units={"fighter": 1}, frm="Western Germany", to=SEA))


def test_CM_16_a_carrier_attacks_only_with_a_unit_that_has_an_attack_value() -> None:
    """CM-16: a carrier has attack 0 and joins an attack only beside a unit with an attack
    value."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"aircraft carrier": 1, "cruiser": 1}},
                                SEA: {GER: {"destroyer": 1}}})
    g.refuse(od.Move(units={"aircraft carrier": 1}, frm=OFFSHORE, to=SEA),
             "Aircraft carriers cannot attack alone")
    g.move({"aircraft carrier": 1, "cruiser": 1}, OFFSHORE, SEA)
    g.end()
    assert len(g.state.battles[SEA].attacking) == 2


def test_GC_3_PU_4_repair_ships_removes_the_damage_and_tells_it() -> None:
    """GC-3 / PU-4: a damaged ship stays damaged until repaired; ``repair_ships`` (for the
    Purchase & Repair phase, beside a naval base) removes the hit, with an event of its own."""
    from rules import engine
    from rules.mechanisms.combat import ShipsRepaired, repair_ships
    from rules.turn.tx import Tx
    from service.describe import describe

    g = e40(GER, "purchase", {SEA: {GER: {"battleship": 1, "cruiser": 1}}},
            damaged={SEA: {GER: {"battleship": 1}}})
    tx = Tx(g.state)
    repair_ships(tx, [u.id for u in g.state.units_in(SEA)], own_rule("PU-4"))
    (e,) = tx.events
    assert isinstance(e, ShipsRepaired) and len(e.ids) == 1
    assert describe(g.state, e) == "Germany's 1 battleship in Sea Zone 112 is repaired (PU-4)."
    g.state = engine.evolve(g.state, e)
    assert g.json.get("damaged", {}) == {}


# --------------------------------------------------------------------------------------------
# Amphibious assaults: shore bombardment (§10.3)


def test_AA_2_no_more_bombarding_ships_than_units_unloaded() -> None:
    """AA-2: no more bombarding ships than land units unloaded from transports into the
    territory: 1 infantry landed, 1 of 3 ships bombards (the battleship, the strongest)."""
    g = landing({"battleship": 1, "cruiser": 2}, {"infantry": 1}, {"infantry": 1})
    b = g.state.battles[BEACH]
    assert [g.state.units[i].type for i in b.bombarding] == ["battleship"]


def test_AA_2_battleship_hits_on_4_cruiser_on_3_casualties_fire_back() -> None:
    """AA-2: a battleship bombards hitting on 4 or less, a cruiser on 3 or less; the defender's
    casualties still fire back in round 1 of the land battle."""
    g = landing({"battleship": 1, "cruiser": 1}, {"infantry": 2}, {"infantry": 3})
    g.script(4, 3, 6, 6, 2, 6, 6)  # bombardment: two hits; the British infantry miss
    evs = g.do(od.Battle(space=BEACH))
    bombard = [e for e in evs if isinstance(e, DiceRolled) and e.stage == "bombard"]
    assert bombard[0].groups == (("battleship", 4, (4,)), ("cruiser", 3, (3,)))
    assert bombard[0].hits == 2
    # all three German infantry fire, the two casualties of the bombardment too
    assert rolls(evs, "defender")[0].groups == (("infantry", 2, (2, 6, 6)),)
    assert g.units(BEACH, GER)["infantry"] == 1
    assert g.units(BEACH, UK) == {"infantry": 1}


def test_AA_2_no_bombardment_after_a_sea_battle() -> None:
    """AA-1 / AA-2: after a sea battle in the zone the land units unload from there is no
    bombardment."""
    g = landing({"battleship": 1, "cruiser": 1}, {"infantry": 2}, {"infantry": 1},
                units_extra={OFFSHORE: {GER: {"destroyer": 1}}})
    assert g.state.battles[BEACH].blocked_by == OFFSHORE
    g.script(1, 6, 6)  # the battleship sinks the destroyer, which misses
    g.do(od.Battle(space=OFFSHORE))
    assert g.state.battles[BEACH].bombarding == ()


def test_GC_8_AA_2_defenceless_transports_destroyed_count_as_combat() -> None:
    """GC-8 / AA-2: enemy transports alone in the zone, destroyed at once by the ships that
    came in (CC-6C), count as combat there: no bombardment from that zone."""
    g = e40(UK, "combat_move", {"Sea Zone 109": {UK: {"cruiser": 1}},
                                OFFSHORE: {UK: {"battleship": 1, "transport": 1,
                                                "infantry": 2}, GER: {"transport": 1}},
                                BEACH: {GER: {"infantry": 1}}}, owners={BEACH: GER})
    g.move({"cruiser": 1}, "Sea Zone 109", OFFSHORE)
    g.move({"infantry": 2}, OFFSHORE, BEACH)
    g.end()
    assert OFFSHORE in g.state.battles
    assert g.state.battles[BEACH].bombarding == ()
    g.script(1, 1, 6)
    g.do(od.Battle(space=BEACH))
    g.do(od.Battle(space=OFFSHORE))
    assert g.units(OFFSHORE, GER) == {}
    removed = [e for e in g.events if isinstance(e, UnitsRemoved)][-1]
    assert removed.rule == "CC-6C"


def test_AA_2_each_ship_supports_one_of_the_landings_from_its_zone() -> None:
    """AA-2: assaulting two territories from one zone, each ship supports only one of them,
    within that landing's count of unloaded units."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"battleship": 2, "transport": 2, "tank": 2}},
                                BEACH: {GER: {"infantry": 1}},
                                "Holland Belgium": {GER: {"infantry": 1}}},
            owners={BEACH: GER, "Holland Belgium": GER})
    g.move({"tank": 1}, OFFSHORE, BEACH)
    g.move({"tank": 1}, OFFSHORE, "Holland Belgium")
    g.end()
    one = set(g.state.battles[BEACH].bombarding)
    two = set(g.state.battles["Holland Belgium"].bombarding)
    assert len(one) == len(two) == 1 and not one & two


# --------------------------------------------------------------------------------------------
# Sea battles: hits that must count (§10.4)


def test_GC_4_example_cruiser_and_submarines_against_a_carrier_with_its_fighter() -> None:
    """GC-4 (the digest's example): a cruiser and submarines score 3 hits against a carrier
    carrying a fighter: the submarines' hits go on the carrier, which sinks with its 2 hits,
    the cruiser's on the fighter; no hit is wasted."""
    g = sea_attack({"submarine": 2, "cruiser": 1}, {"aircraft carrier": 1, "fighter": 1})
    types = {u.id: u.type for u in g.state.units.values()}
    g.script(1, 1, 1, 6)  # the submarines strike first (GC-3): 2 hits; the cruiser: 1
    evs = g.do(od.Battle(space=SEA))
    chosen = [[types[i] for i in e.lost] for e in evs if isinstance(e, CasualtiesChosen)]
    assert chosen == [["aircraft carrier"], ["fighter"]]
    assert g.units(SEA, GER) == {}


def test_GC_4_submarine_hits_may_not_be_put_on_aircraft() -> None:
    """GC-4 / GC-6: the defender assigns the hits so that as many as possible count: a
    submarine's hit cannot be taken by a fighter, so a choice that puts one there is refused."""
    g = sea_attack({"submarine": 2}, {"aircraft carrier": 1, "fighter": 1, "cruiser": 1})
    g.script(1, 1)
    g.do(od.Battle(space=SEA))
    g.refuse(od.Casualties(space=SEA, units={"fighter": 1, "aircraft carrier": 1}),
             "That choice wastes hits", "submarine hits may go only on ships", power=GER)
    g.script(6, 6, 6)
    g.do(od.Casualties(space=SEA, units={"aircraft carrier": 1, "cruiser": 1}), power=GER)
    assert g.units(SEA, GER) == {"aircraft carrier": 1, "fighter": 1}


def test_GC_5_example_defending_cruiser_and_sub_against_destroyer_and_fighter() -> None:
    """GC-5 (the digest's example): a defending cruiser and submarine score 2 hits against an
    attacking destroyer and fighter (the destroyer cancels the submarine's surprise strike, so
    it fires in Step 4): the submarine's hit goes on the destroyer, the cruiser's on the
    fighter, the only assignment where both count: the referee makes it."""
    g = sea_attack({"destroyer": 1, "fighter": 1}, {"cruiser": 1, "submarine": 1})
    g.script(6, 6, 1, 1)  # the attack misses; cruiser and submarine hit
    evs = g.do(od.Battle(space=SEA))
    assert rolls(evs, "defender")[0].groups == (("cruiser", 3, (1,)), ("submarine", 1, (1,)))
    forced = [e for e in evs if isinstance(e, CasualtiesChosen)]
    assert forced[0].how == "forced" and len(forced[0].lost) == 2
    assert g.units(SEA, UK) == {}


def test_GC_5_two_fighters_would_waste_the_submarines_hit() -> None:
    """GC-5 / GC-6: the attacker may not put a cruiser's and a submarine's hits on two fighters:
    the submarine's hit would be wasted."""
    g = sea_attack({"destroyer": 1, "cruiser": 1, "fighter": 2}, {"cruiser": 1, "submarine": 1})
    g.script(6, 6, 6, 6, 1, 1)
    g.do(od.Battle(space=SEA))
    g.refuse(od.Casualties(space=SEA, units={"fighter": 2}), "That choice wastes hits",
             "submarine hits may go only on ships")
    g.do(od.Casualties(space=SEA, units={"cruiser": 1, "fighter": 1}))
    assert g.units(SEA, UK) == {"destroyer": 1, "fighter": 1}


# --------------------------------------------------------------------------------------------
# Amphibious assaults: retreats and failed landings (§10.3)


def _two_pronged(sea_foes: dict[str, int] | None = None) -> Game:
    """A British tank attacks Normandy Bordeaux overland from Holland Belgium while infantry
    lands from Sea Zone 110 (where a destroyer escorts the transport)."""
    g = e40(UK, "combat_move", {
        "Holland Belgium": {UK: {"tank": 1}},
        OFFSHORE: {UK: {"destroyer": 1, "transport": 1, "infantry": 1},
                   **({GER: sea_foes} if sea_foes else {})},
        BEACH: {GER: {"infantry": 2}}}, owners={BEACH: GER, "Holland Belgium": UK})
    g.move({"tank": 1}, "Holland Belgium", BEACH)
    g.move({"infantry": 1}, OFFSHORE, BEACH)
    g.end()
    return g


def test_AA_6_seaborne_units_never_retreat_overland_units_do() -> None:
    """AA-6: overland attackers retreat to a territory one of them came from; the seaborne
    land units cannot retreat and fight on."""
    g = _two_pronged()
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space=BEACH))
    g.do(od.Retreat(space=BEACH, to="Holland Belgium"))
    assert g.units("Holland Belgium", UK) == {"tank": 1}
    assert g.units(BEACH, UK) == {"infantry": 1}
    b = g.state.battles[BEACH]
    assert b.step == "ready" and len(b.attacking + b.seaborne) >= 1


def test_AA_5_failed_landing_the_others_fight_one_round_first() -> None:
    """AA-5: when no seaborne unit survives the sea battle, the overland attackers must still
    fight at least one round of the land battle before they may retreat."""
    g = _two_pronged({"destroyer": 1})
    assert g.state.battles[BEACH].blocked_by == OFFSHORE
    g.script(6, 1)  # the British destroyer misses and is sunk; the laden transport is lost
    g.do(od.Battle(space=OFFSHORE))
    g.do(od.Battle(space=OFFSHORE))
    assert g.units(OFFSHORE, UK) == {}
    b = g.state.battles[BEACH]
    assert b.blocked_by is None and b.step == "ready"
    g.refuse(od.Retreat(space=BEACH, to="Holland Belgium"), "Retreat is decided after a round")
    g.script(6, 6, 6)
    g.do(od.Battle(space=BEACH))
    g.do(od.Retreat(space=BEACH, to="Holland Belgium"))
    assert g.units("Holland Belgium", UK) == {"tank": 1}
