"""Classic land combat (digest §6.1, §6.2, §6.4, §6.6): rounds, dice by column, antiaircraft
fire, weapons developments, retreat and conquest; worked examples §10 no. 1 and 5.

Dice are scripted exactly as the rulebook prints them. A side rolls column by column from
column 1 (R-CBT-01); within a column, unit types in name order; a column is not rolled once the
hits already scored can take every target (R-CBT-04).
"""

from __future__ import annotations

from dataclasses import replace

from rules import orders as od
from rules.defaults import default_orders
from rules.dice import ScriptedDice
from rules.events import DiceRolled
from tests.rules.helpers import Game, position

GER, UK, JPN, US, SU = "Germany", "United Kingdom", "Japan", "United States", "Russia"
AES = "Anglo-Egyptian Sudan"
UKR = "Ukraine S.S.R."


def battle_at(power: str, space: str, attack: dict[str, int], defender: str,
              defend: dict[str, int], **extra: object) -> Game:
    """A battle already under way: ``power``'s units in ``space`` against ``defender``'s, who
    holds the territory."""
    extra.setdefault("owners", {space: defender})
    return Game(position(power, "conduct_combat", {
        space: {power: attack, defender: defend}}, edition="classic", **extra))


def rolls(g: Game, since: int = 0) -> list[DiceRolled]:
    return [e for e in g.events[since:] if isinstance(e, DiceRolled)]


def spent(g: Game) -> None:
    """Every scripted die was rolled: no die more, none less, than the rulebook shows."""
    assert isinstance(g.dice, ScriptedDice)
    assert g.dice.pos == len(g.dice.faces), f"{len(g.dice.faces) - g.dice.pos} dice unrolled"


def with_techs(g: Game, power: str, *techs: str) -> None:
    g.state = replace(g.state, techs={**g.state.techs, power: techs})


# --------------------------------------------------------------------------------------------
# Worked examples (§10)


def test_example_1_AES_A_02_R_LC_03_to_06() -> None:
    """§10 no. 1 (A-02: the German tank's 2 is a hit): Germany's infantry and tank take
    Anglo-Egyptian Sudan from a British tank and infantry in two rounds; the tank survives,
    Germany's production rises by 2 and the UK's falls by 2 (R-LC-03..06, R-CON-03)."""
    g = battle_at(GER, AES, {"infantry": 1, "tank": 1}, UK, {"infantry": 1, "tank": 1})
    before = g.json["income"]
    g.script(4, 2)  # German infantry 4 (miss), tank 2 (hit, A-02)
    g.do(od.Battle(space=AES))
    assert [r.groups for r in rolls(g)] == [(("infantry", 1, (4,)), ("tank", 3, (2,)))]
    g.script(4, 5)  # the UK fires with its tank and its casualty infantry: both miss
    g.do(od.Casualties(space=AES, units={"infantry": 1}), power=UK)  # R-CBT-03: still fires
    spent(g)
    assert g.units(AES, UK) == {"tank": 1}
    assert g.state.battles[AES].step == "press_or_retreat"
    g.script(1, 2)  # round 2: German infantry 1 (hit); the tank does not roll; UK tank 2 (hit)
    g.do(od.Press(space=AES))
    g.do(od.Casualties(space=AES, units={"infantry": 1}))
    spent(g)
    assert rolls(g)[-2].groups == (("infantry", 1, (1,)),)  # R-CBT-04
    assert g.owner(AES) == GER and g.units(AES, GER) == {"tank": 1}
    assert g.json["income"][GER] == before[GER] + 2
    assert g.json["income"][UK] == before[UK] - 2


def test_example_5_Manchuria_R_CON_02_R_CBT_04() -> None:
    """§10 no. 5: Japan's 2 infantry, 2 fighters and a bomber retake Manchuria from a Russian
    tank and infantry; Japan keeps a land unit to occupy it (R-CON-02); in round 2 the
    fighter and bomber do not roll once the last defender is hit (R-CBT-04)."""
    g = battle_at(JPN, "Manchuria", {"infantry": 2, "fighter": 2, "bomber": 1}, SU,
                  {"infantry": 1, "tank": 1})
    before = g.json["income"]
    g.script(3, 2, 6, 5, 4)  # infantry 3, 2; fighters 6, 5; bomber 4 (hit)
    g.do(od.Battle(space="Manchuria"))
    assert rolls(g)[-1].groups == (("infantry", 1, (3, 2)), ("fighter", 3, (6, 5)),
                                   ("bomber", 4, (4,)))
    g.script(2, 1)  # Russia fires 2 and 1: two hits
    g.do(od.Casualties(space="Manchuria", units={"infantry": 1}), power=SU)
    g.do(od.Casualties(space="Manchuria", units={"infantry": 1, "fighter": 1}))
    spent(g)
    g.script(1, 6)  # round 2: infantry 1 (hit); no Russian unit left to hit; the tank 6
    g.do(od.Press(space="Manchuria"))
    spent(g)
    assert rolls(g)[-2].groups == (("infantry", 1, (1,)),)
    assert g.owner("Manchuria") == JPN
    assert g.units("Manchuria", JPN) == {"infantry": 1, "fighter": 1, "bomber": 1}
    assert g.json["income"][JPN] == before[JPN] + 3
    assert g.json["income"][SU] == before[SU] - 3


# --------------------------------------------------------------------------------------------
# Rounds and dice (§6.1)


def test_R_CBT_01_dice_roll_column_by_column_from_column_1() -> None:
    """R-CBT-01: infantry (column 1) before tanks (3) before bombers (4)."""
    g = battle_at(GER, UKR, {"bomber": 1, "tank": 1, "infantry": 1}, SU, {"infantry": 3})
    g.script(6, 6, 6, 6, 6, 6)
    g.do(od.Battle(space=UKR))
    assert [grp[0] for grp in rolls(g)[0].groups] == ["infantry", "tank", "bomber"]


def test_R_CBT_04_hits_beyond_the_units_are_lost() -> None:
    """R-CBT-04: two hits on one defender: one counts, the later column is not rolled."""
    g = battle_at(GER, UKR, {"infantry": 2, "tank": 1}, SU, {"infantry": 1})
    g.script(1, 1, 6)  # both infantry hit, the tank (column 3) does not roll; the casualty 6
    g.do(od.Battle(space=UKR))
    spent(g)
    first = rolls(g)[0]
    assert first.groups == (("infantry", 1, (1, 1)),) and first.hits == 1
    assert g.owner(UKR) == GER


def test_R_CBT_03_defender_casualties_fire_back() -> None:
    """R-CBT-03: the defender's casualty fires in the same round; the attacker's are gone at
    once."""
    g = battle_at(GER, UKR, {"tank": 1}, SU, {"infantry": 2})
    g.script(3, 2, 2)  # tank hits; both infantry (one a casualty) fire and hit
    g.do(od.Battle(space=UKR))
    assert rolls(g)[-1].groups == (("infantry", 2, (2, 2)),)
    assert rolls(g)[-1].hits == 1  # only one attacker to take them
    assert g.units(UKR, GER) == {} and g.owner(UKR) == SU


def test_R_CON_01_both_destroyed_the_defender_keeps_the_territory() -> None:
    """R-CON-01: attacker and defender destroyed in the same round: the defender keeps it."""
    g = battle_at(GER, UKR, {"infantry": 1}, SU, {"infantry": 1})
    g.script(1, 2)
    g.do(od.Battle(space=UKR))
    assert g.json["battles"] == [] and g.owner(UKR) == SU


def test_R_CON_02_only_land_units_conquer() -> None:
    """R-CON-02: with only aircraft left the defender keeps the territory."""
    g = battle_at(GER, UKR, {"fighter": 1}, SU, {"infantry": 1})
    g.script(1, 6)
    g.do(od.Battle(space=UKR))
    assert g.units(UKR, SU) == {} and g.owner(UKR) == SU
    assert g.units(UKR, GER) == {"fighter": 1}


# --------------------------------------------------------------------------------------------
# Antiaircraft guns (R-LC-02, R-AAG-03/04, A-04, A-05)


def test_R_LC_02_antiaircraft_gun_fires_once_before_round_1() -> None:
    """R-LC-02 / R-AAG-03: one die per attacking aircraft before round 1; each 1 destroys one,
    which does not fire; the gun fires no more in that battle and is never a casualty
    (R-AAG-04); the captured gun changes hands (R-CON-03)."""
    g = battle_at(GER, UKR, {"fighter": 1, "bomber": 1, "tank": 1}, SU,
                  {"infantry": 1, "antiaircraft gun": 1})
    assert [g.state.units[i].type for i in g.state.battles[UKR].defending] == ["infantry"]
    g.script(1, 6)
    g.do(od.Battle(space=UKR))
    aa = rolls(g)[0]
    assert (aa.stage, aa.side, aa.groups, aa.hits) == (
        "aa", "defender", (("antiaircraft gun", 1, (1, 6)),), 1)
    assert g.state.battles[UKR].owed == (("attacker", 1),)  # the attacker chooses
    g.refuse(od.Casualties(space=UKR, units={"tank": 1}), "antiaircraft hits only on aircraft",
             "A-04")
    assert default_orders(g.state) == [
        od.Casualties(power=GER, space=UKR, units={"fighter": 1})]  # the cheaper aircraft
    g.script(6, 6, 6)  # fighter, tank (column 3) miss; the infantry misses
    g.do(od.Casualties(space=UKR, units={"bomber": 1}))
    assert g.units(UKR, GER) == {"fighter": 1, "tank": 1}
    assert [grp[0] for grp in rolls(g)[1].groups] == ["fighter", "tank"]
    g.script(1, 6, 6)  # round 2: no antiaircraft fire; the fighter hits
    g.do(od.Press(space=UKR))
    spent(g)
    assert [r.stage for r in rolls(g)].count("aa") == 1
    assert g.owner(UKR) == GER
    assert g.units(UKR, GER) == {"fighter": 1, "tank": 1, "antiaircraft gun": 1}


def test_A_04_antiaircraft_hits_on_one_kind_of_aircraft_apply_themselves() -> None:
    """A-04: when only one kind of aircraft can be hit there is no choice to wait for."""
    g = battle_at(GER, UKR, {"fighter": 2, "infantry": 1}, SU,
                  {"infantry": 1, "antiaircraft gun": 1})
    g.script(1, 1, 6, 6)  # both fighters shot down; the infantry misses, so does the defence
    g.do(od.Battle(space=UKR))
    spent(g)
    assert g.units(UKR, GER) == {"infantry": 1}
    assert g.state.battles[UKR].step == "press_or_retreat"


def test_R_LC_02_no_antiaircraft_fire_without_aircraft() -> None:
    """R-LC-02: the gun fires only at attacking aircraft."""
    g = battle_at(GER, UKR, {"tank": 1}, SU, {"infantry": 1, "antiaircraft gun": 1})
    g.script(3, 6)
    g.do(od.Battle(space=UKR))
    spent(g)
    assert [r.stage for r in rolls(g)] == ["fire", "fire"]


def test_A_05_R_AAG_04_a_gun_alone_does_not_hold_a_territory() -> None:
    """A-05 / R-AAG-04: a territory held only by an antiaircraft gun is taken by the land
    units that enter; the gun changes hands with it (R-CON-04)."""
    g = battle_at(GER, UKR, {"tank": 1}, SU, {"antiaircraft gun": 1})
    assert g.json["battles"] == []
    assert g.owner(UKR) == GER
    assert g.units(UKR, GER) == {"tank": 1, "antiaircraft gun": 1}


# --------------------------------------------------------------------------------------------
# Weapons developments in battle (R-TEC-05, rules/tech.py)


def test_R_TEC_05_jet_power_fighters_defend_at_5() -> None:
    """Jet Power: the owner's fighters defend at 5."""
    g = battle_at(GER, UKR, {"infantry": 1}, UK, {"fighter": 1})
    with_techs(g, UK, "jet_power")
    g.script(6, 5)
    g.do(od.Battle(space=UKR))
    assert rolls(g)[-1].groups == (("fighter", 5, (5,)),)
    assert g.units(UKR, GER) == {}


def test_R_TEC_05_heavy_bombers_roll_three_dice_each() -> None:
    """Heavy Bombers: each attacking bomber rolls 3 dice, each hitting on 4 or less."""
    g = battle_at(GER, UKR, {"bomber": 1}, SU, {"infantry": 3})
    with_techs(g, GER, "heavy_bombers")
    g.script(4, 5, 1, 6, 6, 6)
    g.do(od.Battle(space=UKR))
    first = rolls(g)[0]
    assert first.groups == (("bomber", 4, (4, 5, 1)),) and first.hits == 2


def test_R_TEC_05_developments_belong_to_their_owner_only() -> None:
    """R-TEC-06: an ally's development does not help (the defender's fighter defends at 4)."""
    g = battle_at(GER, UKR, {"infantry": 1}, UK, {"fighter": 1})
    with_techs(g, US, "jet_power")
    g.script(6, 5)
    g.do(od.Battle(space=UKR))
    assert rolls(g)[-1].groups == (("fighter", 4, (5,)),)


# --------------------------------------------------------------------------------------------
# Retreat (R-RET-01..04)


def manchuria_from_two_sides() -> Game:
    """R-RET-02's example: Russian units from Yakut and Eastern Russia attack Manchuria."""
    g = Game(position(SU, "combat_move", {
        "Yakut S.S.R.": {SU: {"infantry": 1, "fighter": 1}},
        "Soviet Far East": {SU: {"tank": 1}},
        "Manchuria": {JPN: {"infantry": 2}},
    }, edition="classic"))
    g.move({"infantry": 1}, "Yakut S.S.R.", "Manchuria")
    g.move({"fighter": 1}, "Yakut S.S.R.", "Manchuria")
    g.move({"tank": 1}, "Soviet Far East", "Manchuria")
    g.end()
    return g


def test_R_RET_01_no_retreat_before_the_first_round() -> None:
    """R-RET-01: retreat is decided between rounds, never before the first."""
    g = manchuria_from_two_sides()
    g.refuse(od.Retreat(space="Manchuria", to="Yakut S.S.R."), "after a round of fire")


def test_R_RET_02_all_together_to_one_space_one_came_from_A_28() -> None:
    """R-RET-02: all attackers, aircraft included (A-28), go to one adjacent friendly space
    from which one of them came: Yakut or Eastern Russia, never China."""
    g = manchuria_from_two_sides()
    g.script(6, 6, 6, 6, 6)
    g.do(od.Battle(space="Manchuria"))
    g.refuse(od.Retreat(space="Manchuria", to="China"), "R-RET-02", "Soviet Far East",
             "Yakut S.S.R.")
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    g.do(od.Retreat(space="Manchuria", to="Yakut S.S.R."))
    assert g.units("Yakut S.S.R.", SU) == {"infantry": 1, "tank": 1, "fighter": 1}
    assert g.state.units[fighter.id].moved == fighter.moved + 1  # R-RET-03: range counts
    assert g.json["battles"] == [] and g.owner("Manchuria") == JPN


def test_R_CBT_02_the_owner_names_which_fighter_is_lost() -> None:
    """R-CBT-02: the owner chooses each casualty, down to which of two fighters that differ
    in movement left ('1 fighter from Eastern Europe'); by default the one with less left."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"fighter": 1}},
        "Germany": {GER: {"fighter": 1}},
        UKR: {SU: {"infantry": 2}},
    }, edition="classic", owners={UKR: SU}))
    g.move({"fighter": 1}, "Eastern Europe", UKR)
    g.move({"fighter": 1}, "Germany", UKR, "Eastern Europe")
    g.end()
    g.script(6, 6, 1, 6)  # the fighters miss; the infantry score one hit
    g.do(od.Battle(space=UKR))
    fighters = {g.state.units[i].start: i for i in g.state.battles[UKR].attacking}
    [default] = default_orders(g.state)
    assert isinstance(default, od.Casualties) and default.units == {"fighter": 1}
    g.do(od.Casualties(space=UKR, units={"fighter": 1},
                       origins={"fighter": {"Eastern Europe": 1}}))
    assert fighters["Eastern Europe"] not in g.state.units
    assert fighters["Germany"] in g.state.units
