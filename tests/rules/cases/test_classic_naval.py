"""Classic naval combat (digest §5.4, §6.3): submarines' first strike and withdrawal,
transports, one-hit battleships, fighters at sea; worked example §10 no. 3.

Dice are scripted exactly; a side rolls column by column from column 1 (R-CBT-01).
"""

from __future__ import annotations

from dataclasses import replace

from rules import orders as od
from rules.dice import ScriptedDice
from rules.events import DiceRolled, UnitsRemoved
from rules.legal import legal_orders
from rules.mechanisms.withdrawal import Withdraw
from tests.rules.helpers import Game, position

GER, UK, JPN, US, SU = "Germany", "United Kingdom", "Japan", "United States", "Russia"
NSZ, BSZ, WSZ = "North Sea Zone", "Baltic Sea Zone", "West Spain Sea Zone"
HZ = "Hawaii Sea Zone"


def rolls(g: Game, since: int = 0) -> list[DiceRolled]:
    return [e for e in g.events[since:] if isinstance(e, DiceRolled)]


def spent(g: Game) -> None:
    assert isinstance(g.dice, ScriptedDice)
    assert g.dice.pos == len(g.dice.faces), f"{len(g.dice.faces) - g.dice.pos} dice unrolled"


def attack(power: str, frm: str, to: str, units: dict[str, dict[str, dict[str, int]]],
           moving: dict[str, int]) -> Game:
    """``power`` moves ``moving`` from ``frm`` into ``to`` in Combat Movement; Combat begins."""
    g = Game(position(power, "combat_move", units, edition="classic"))
    g.move(moving, frm, to)
    g.end()
    return g


def sub_raid_on_north_sea(defend: dict[str, int], with_fighter: bool = False) -> Game:
    """A German submarine (and maybe a fighter) from the Baltic attacks the North Sea Zone."""
    units = {BSZ: {GER: {"submarine": 1}}, NSZ: {UK: defend}}
    if with_fighter:
        units["Germany"] = {GER: {"fighter": 1}}
    g = Game(position(GER, "combat_move", units, edition="classic"))
    g.move({"submarine": 1}, BSZ, NSZ)
    if with_fighter:
        g.move({"fighter": 1}, "Germany", NSZ)
    g.end()
    return g


# --------------------------------------------------------------------------------------------
# Worked example (§10 no. 3)


def test_example_3_Hawaiian_sea_battle_R_SUB_02_R_NC_03() -> None:
    """§10 no. 3: Japan's super submarine strikes first (3, a hit at 3) and the US picks its
    submarine, removed without firing; the fighter (3) and battleship (2) hit the carrier and
    the fighter; the US carrier (5) and fighter (6) miss. The US infantry on Hawaii keeps the
    islands American: sea battles conquer nothing."""
    g = Game(position(JPN, "combat_move", {
        "Caroline Islands Sea Zone": {JPN: {"aircraft carrier": 1, "fighter": 1,
                                            "battleship": 1}},
        "Wake Island Sea Zone": {JPN: {"submarine": 1}},
        HZ: {US: {"submarine": 1, "aircraft carrier": 1, "fighter": 1}},
        "Hawaiian Islands": {US: {"infantry": 1}},
    }, edition="classic"))
    g.state = replace(g.state, techs={JPN: ("super_submarines",)})
    g.move({"submarine": 1}, "Wake Island Sea Zone", HZ)
    g.move({"battleship": 1}, "Caroline Islands Sea Zone", HZ)
    g.move({"fighter": 1}, "Caroline Islands Sea Zone", HZ)
    g.end()
    g.script(3)
    g.do(od.Battle(space=HZ))
    strike = rolls(g)[0]
    assert (strike.stage, strike.groups, strike.hits) == ("strike", (("submarine", 3, (3,)),), 1)
    g.refuse(od.Casualties(space=HZ, units={"fighter": 1}), "only on ships", "R-SUB-02",
             power=US)
    g.script(3, 2, 5, 6)
    g.do(od.Casualties(space=HZ, units={"submarine": 1}), power=US)
    spent(g)
    removed = [e for e in g.events if isinstance(e, UnitsRemoved)]
    assert removed[0].rule == "R-NC-03"
    fire = rolls(g)[1:]
    assert [r.groups for r in fire] == [
        (("fighter", 3, (3,)), ("battleship", 4, (2,))),
        (("aircraft carrier", 3, (5,)), ("fighter", 4, (6,))),
    ]
    assert g.units(HZ, US) == {}
    assert g.units(HZ, JPN) == {"submarine": 1, "battleship": 1, "fighter": 1}
    assert g.owner("Hawaiian Islands") == US


# --------------------------------------------------------------------------------------------
# Submarines (R-SUB-01..06, R-NC-02/03/07)


def test_R_SUB_02_first_strike_on_ships_only_every_round() -> None:
    """R-SUB-02: attacking submarines fire first every round; their hits go on ships only
    (never aircraft), removed at once without return fire (R-NC-03)."""
    g = sub_raid_on_north_sea({"aircraft carrier": 1, "fighter": 1, "transport": 1},
                              with_fighter=True)
    g.script(1)
    g.do(od.Battle(space=NSZ))
    g.refuse(od.Casualties(space=NSZ, units={"fighter": 1}), "only on ships", power=UK)
    g.script(6, 6, 6)  # German fighter 6; UK carrier 6, fighter 6: the transport never fires
    g.do(od.Casualties(space=NSZ, units={"transport": 1}), power=UK)
    spent(g)
    assert [grp[0] for grp in rolls(g)[-1].groups] == ["aircraft carrier", "fighter"]
    g.script(6, 6, 6, 6)
    g.do(od.Press(space=NSZ))
    spent(g)
    assert [r.stage for r in rolls(g)] == ["strike", "fire", "fire", "strike", "fire", "fire"]


def test_R_SUB_02_forced_ship_hit_applies_itself() -> None:
    """R-SUB-02: with one ship beside aircraft there is no choice: it is sunk at once."""
    g = sub_raid_on_north_sea({"aircraft carrier": 1, "fighter": 2})
    g.script(2, 6, 6)  # the carrier sinks at once; its fighters keep fighting (R-AIR-10)
    g.do(od.Battle(space=NSZ))
    spent(g)
    assert g.units(NSZ, UK) == {"fighter": 2}
    assert rolls(g)[-1].groups == (("fighter", 4, (6, 6)),)


def test_R_SUB_06_defending_submarines_fire_with_the_defender() -> None:
    """R-SUB-06: defending submarines have no first strike and owe no declaration."""
    g = attack(UK, NSZ, BSZ, {NSZ: {UK: {"battleship": 1}}, BSZ: {GER: {"submarine": 1}}},
               {"battleship": 1})
    g.script(6, 6)
    g.do(od.Battle(space=BSZ))
    spent(g)
    assert [(r.side, r.stage) for r in rolls(g)] == [("attacker", "fire"), ("defender", "fire")]
    assert rolls(g)[-1].groups == (("submarine", 2, (6,)),)


def test_R_SUB_03_A_11_submarine_attacked_by_aircraft_cannot_fire_back() -> None:
    """R-SUB-03 / R-SUB-04 / A-11 (the Baltic example): Russian aircraft attack the German
    submarine; it cannot hit aircraft, so it rolls nothing, and aircraft can sink it."""
    g = attack(SU, "Karelia S.S.R.", BSZ, {
        "Karelia S.S.R.": {SU: {"fighter": 1}}, BSZ: {GER: {"submarine": 1}}}, {"fighter": 1})
    g.script(6)
    g.do(od.Battle(space=BSZ))
    spent(g)
    assert rolls(g)[-1].side == "defender" and rolls(g)[-1].groups == ()
    g.script(3)
    g.do(od.Press(space=BSZ))
    assert g.units(BSZ, GER) == {}


def test_R_SUB_05_defending_sub_with_no_free_zone_cannot_withdraw() -> None:
    """R-SUB-05's example: the German Baltic submarine cannot flee, the only neighbouring zone
    holding British ships."""
    g = attack(SU, "Karelia S.S.R.", BSZ, {
        "Karelia S.S.R.": {SU: {"fighter": 1}}, BSZ: {GER: {"submarine": 1}},
        NSZ: {UK: {"battleship": 1}}}, {"fighter": 1})
    g.script(6)
    g.do(od.Battle(space=BSZ))
    g.refuse(Withdraw(space=BSZ), "cannot withdraw", "R-SUB-05", power=GER)


def test_R_SUB_05_attacking_submarines_withdraw_where_they_came_from() -> None:
    """R-SUB-05 / R-NC-07: after a round the attacking submarines may go back to the zone they
    came from, and nowhere else; with nobody left the battle is over."""
    g = sub_raid_on_north_sea({"battleship": 1})
    g.refuse(Withdraw(space=NSZ), "not yet fought")
    g.script(6, 6)
    g.do(od.Battle(space=NSZ))
    g.refuse(Withdraw(space=NSZ, to=WSZ), "back to the zone they came from", BSZ)
    assert Withdraw(power=GER, space=NSZ, to=BSZ) in list(legal_orders(g.state, GER))
    g.do(Withdraw(space=NSZ))
    assert g.units(BSZ, GER) == {"submarine": 1}
    assert g.json["battles"] == []
    assert g.state.battles[NSZ].step == "done"


def test_R_SUB_05_defending_submarines_withdraw_to_a_free_zone() -> None:
    """R-SUB-05: defending submarines may withdraw to an adjacent zone that is friendly or
    empty, until the attacker presses; the battle goes on against what stays."""
    g = attack(UK, WSZ, NSZ, {WSZ: {UK: {"battleship": 1}},
                              NSZ: {GER: {"submarine": 2, "transport": 1}},
                              BSZ: {SU: {"submarine": 1}}}, {"battleship": 1})
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space=NSZ))
    g.refuse(Withdraw(space=NSZ, to=BSZ), "free of enemy units", power=GER)
    g.refuse(Withdraw(space=NSZ), "Say where", power=GER)
    g.do(Withdraw(space=NSZ, count=1, to="Karelia Sea Zone"), power=GER)
    assert g.units("Karelia Sea Zone", GER) == {"submarine": 1}
    assert g.units(NSZ, GER) == {"submarine": 1, "transport": 1}
    g.script(6, 6, 6)
    g.do(od.Press(space=NSZ))
    spent(g)
    g.do(Withdraw(space=NSZ, to="East Canada Sea Zone"), power=GER)
    assert g.units(NSZ, GER) == {"transport": 1}


def test_R_SUB_05_last_defenders_withdraw_the_attacker_holds_the_zone() -> None:
    """R-SUB-05: when every defender withdraws the battle is over."""
    g = attack(UK, WSZ, NSZ, {WSZ: {UK: {"battleship": 1}}, NSZ: {GER: {"submarine": 1}}},
               {"battleship": 1})
    g.script(6, 6)
    g.do(od.Battle(space=NSZ))
    g.do(Withdraw(space=NSZ, to=BSZ), power=GER)
    assert g.json["battles"] == [] and g.units(BSZ, GER) == {"submarine": 1}


def test_R_SUB_02_R_SUB_05_submerge_and_strike_refused() -> None:
    """R-SUB-02 / R-SUB-05: 1941's submerge and strike orders do not exist here: use withdraw;
    and where submarines submerge instead, 'withdraw' is refused."""
    g = sub_raid_on_north_sea({"battleship": 1})
    g.refuse(od.Submerge(space=NSZ), "withdraw", "R-SUB-05")
    g.refuse(od.Strike(space=NSZ), "always strike first", "R-SUB-02")
    g1941 = Game(position(GER, "conduct_combat", {
        "Sea Zone 5": {GER: {"submarine": 1}, UK: {"battleship": 1}}}))
    g1941.refuse(Withdraw(space="Sea Zone 5"), "submerge Sea Zone 5")


def test_R_SUB_05_withdraw_after_any_round() -> None:
    """R-SUB-05 / R-NC-07: submarines may withdraw after every round, not only the first;
    'press' fights the next round at once, so the chance lasts until the attacker presses."""
    g = sub_raid_on_north_sea({"battleship": 1, "transport": 1})
    g.script(6, 6, 6)
    g.do(od.Battle(space=NSZ))
    g.script(6, 6, 6)
    g.do(od.Press(space=NSZ))
    g.script()
    g.do(Withdraw(space=NSZ))
    assert g.units(BSZ, GER) == {"submarine": 1}


# --------------------------------------------------------------------------------------------
# Transports, battleships, fighters at sea


def test_R_TRP_05_transports_defend_at_1_and_are_chosen_freely() -> None:
    """R-TRP-05: transports defend at 1 and may be taken as the first casualty."""
    g = attack(GER, BSZ, NSZ, {BSZ: {GER: {"submarine": 1}},
                               NSZ: {UK: {"battleship": 1, "transport": 1}}},
               {"submarine": 1})
    g.script(1)
    g.do(od.Battle(space=NSZ))
    g.script(6)  # the battleship fires; the transport went down before it could
    g.do(od.Casualties(space=NSZ, units={"transport": 1}), power=UK)
    spent(g)
    assert rolls(g)[-1].groups == (("battleship", 4, (6,)),)
    g2 = attack(UK, WSZ, NSZ, {WSZ: {UK: {"battleship": 1}},
                               NSZ: {GER: {"transport": 1, "submarine": 1}}},
                {"battleship": 1})
    g2.script(1)
    g2.do(od.Battle(space=NSZ))
    g2.script(1)  # the casualty transport hits at 1; the submarine's column is not rolled
    g2.do(od.Casualties(space=NSZ, units={"transport": 1}), power=GER)
    spent(g2)
    assert rolls(g2)[-1].groups == (("transport", 1, (1,)),)
    assert g2.units(NSZ, UK) == {}


def test_R_TRP_05_cargo_is_lost_with_its_transport() -> None:
    """R-TRP-05: a loaded transport sunk takes its cargo down; cargo never fires."""
    g = attack(UK, WSZ, NSZ, {WSZ: {UK: {"battleship": 1}},
                              NSZ: {GER: {"transport": 1, "infantry": 2}}}, {"battleship": 1})
    g.script(2, 6)
    g.do(od.Battle(space=NSZ))
    spent(g)
    assert rolls(g)[-1].groups == (("transport", 1, (6,)),)
    assert g.units(NSZ, GER) == {}


def test_R_TRP_05_R_NC_05_attacking_transports_may_be_casualties() -> None:
    """R-TRP-05 / R-NC-05: the attacker may take a hit on a transport it brought."""
    g = Game(position(UK, "combat_move", {
        WSZ: {UK: {"battleship": 1, "transport": 1}},
        NSZ: {GER: {"submarine": 1}}}, edition="classic"))
    g.move({"battleship": 1, "transport": 1}, WSZ, NSZ)
    g.end()
    g.script(6, 2)
    g.do(od.Battle(space=NSZ))
    g.do(od.Casualties(space=NSZ, units={"transport": 1}))
    assert g.units(NSZ, UK) == {"battleship": 1}


def test_R_TRP_06_a_lone_transport_takes_a_round_before_it_retreats() -> None:
    """R-TRP-06: a transport alone cannot attack; it takes one round of fire, then may only
    retreat."""
    g = attack(GER, BSZ, NSZ, {BSZ: {GER: {"transport": 1, "infantry": 2}},
                               NSZ: {UK: {"battleship": 1}}}, {"transport": 1})
    g.refuse(od.Retreat(space=NSZ, to=BSZ), "after a round")
    g.script(6)
    g.do(od.Battle(space=NSZ))
    spent(g)
    assert [(r.side, r.groups) for r in rolls(g)] == [
        ("attacker", ()), ("defender", (("battleship", 4, (6,)),))]
    g.refuse(od.Press(space=NSZ), "cannot fire", "R-TRP-06")
    g.do(od.Retreat(space=NSZ, to=BSZ))
    assert g.units(BSZ, GER) == {"transport": 1, "infantry": 2}


def test_battleship_sinks_with_one_hit() -> None:
    """§5.1 / R-NAV: every unit, battleships included, is destroyed by one hit (data hits=1;
    no repair, RuleSet.battleship_repair off)."""
    g = attack(GER, BSZ, NSZ, {BSZ: {GER: {"submarine": 1}}, NSZ: {UK: {"battleship": 1}}},
               {"submarine": 1})
    g.script(2)
    g.do(od.Battle(space=NSZ))
    assert g.units(NSZ, UK) == {} and g.json["battles"] == []


def test_R_AIR_08_fighters_on_land_do_not_defend_the_sea_zone() -> None:
    """R-AIR-08's example: German aircraft attack the British battleship and transport in the
    UK sea zone; the two British fighters in the UK cannot help."""
    g = Game(position(GER, "combat_move", {
        "Western Europe": {GER: {"fighter": 1}},
        "United Kingdom": {UK: {"fighter": 2}},
        NSZ: {UK: {"battleship": 1, "transport": 1}}}, edition="classic"))
    g.move({"fighter": 1}, "Western Europe", NSZ)
    g.end()
    b = g.state.battles[NSZ]
    assert sorted(g.state.units[i].type for i in b.defending) == ["battleship", "transport"]


def sink_the_carrier(zone: str, frm: str, end: bool = True) -> Game:
    """A Japanese submarine sinks a US carrier in ``zone``; its two fighters fight on; the
    submarine withdraws, which ends the battle."""
    g = attack(JPN, frm, zone, {frm: {JPN: {"submarine": 1}},
                                zone: {US: {"aircraft carrier": 1, "fighter": 2}}},
               {"submarine": 1})
    g.script(1, 6, 6)
    g.do(od.Battle(space=zone))
    spent(g)
    assert rolls(g)[-1].groups == (("fighter", 4, (6, 6)),)  # R-AIR-10: they keep defending
    g.do(Withdraw(space=zone))
    if end:
        g.end()
    return g


def test_R_AIR_10_fighters_of_a_sunk_carrier_are_lost_when_the_battle_ends() -> None:
    """R-AIR-10: the fighters' fate is settled as their battle ends, not later: with no island
    or carrier in the zone they are lost at once; with an island there they land on it."""
    g = sink_the_carrier("Western United States Sea Zone", HZ, end=False)
    assert g.state.phase == "conduct_combat" and g.json["battles"] == []
    assert g.units("Western United States Sea Zone", US) == {}
    lost = [e for e in g.events if isinstance(e, UnitsRemoved) and e.rule == "R-AIR-10"]
    assert len(lost) == 2
    g = sink_the_carrier(HZ, "Wake Island Sea Zone", end=False)
    assert g.state.phase == "conduct_combat"
    assert g.units("Hawaiian Islands", US) == {"fighter": 2}
    assert not any(u.stranded for u in g.state.units.values())
    g.end()  # Noncombat Move: nothing left to land, they stay on the island
    assert g.units("Hawaiian Islands", US) == {"fighter": 2}


def test_R_AIR_10_fighters_of_a_sunk_carrier_land_on_an_island_there() -> None:
    """R-AIR-10: surviving fighters may land in the same zone, on an island there."""
    g = sink_the_carrier(HZ, "Wake Island Sea Zone")
    assert g.units("Hawaiian Islands", US) == {"fighter": 2}


def test_R_AIR_10_otherwise_they_are_lost() -> None:
    """R-AIR-10: no island or carrier in that zone: they are lost, even beside a friendly
    coast (1941's NC-3 would let them fly one space)."""
    g = sink_the_carrier("Western United States Sea Zone", HZ)
    assert "fighter" not in g.units("Western United States", US)
    assert g.units("Western United States Sea Zone", US) == {}
    lost = [e for e in g.events if isinstance(e, UnitsRemoved) and e.rule == "R-AIR-10"]
    assert len(lost) == 2
