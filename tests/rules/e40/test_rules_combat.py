"""Europe 1940 rules by ID (digest ``shared/rules/europe1940.md`` §5-§17, §22): players and
powers (P-), the map's values (M-), the turn (TS-), purchase (PU-), combat move and conduct
combat (CM-, CC-, GC-), amphibious assaults (AA-), air units and submarines (AU-, SU-), convoy
disruption (CD-), multinational forces (MN-), and the Global-only rules Europe 1940 does not
offer (V-3, TS-4, RD-1..RD-3).

Dice are scripted; the lines asserted are those the referee gives players (``service.describe``,
or the local table's answers).
"""

from __future__ import annotations

from pathlib import Path

from rules import orders as od
from rules.combat import pending_decisions
from rules.errors import RulesError
from rules.events import DiceRolled, Event
from rules.mechanisms.politics import DeclareWar
from service.describe import describe_all
from tests.local.test_table import in_process
from tests.rules.e40._battles import BEACH, E40, FR, GER, ITA, LAND, OFFSHORE, SEA, UK, e40
from tests.rules.helpers import Game

US, SOV = "United States", "Soviet Union"
START_WAR = [[GER, UK], [GER, FR], [UK, ITA], [ITA, FR]]


def said(g: Game, evs: list[Event]) -> list[str]:
    """What players read for ``evs``, the last events of ``g``."""
    return describe_all(None, g.events)[len(g.events) - len(evs):]


def rolled(evs: list[Event], side: str) -> list[DiceRolled]:
    return [e for e in evs if isinstance(e, DiceRolled) and e.side == side]


def fighters(g: Game, space: str) -> list[str]:
    """'owner type' of every unit on the battle board in ``space``."""
    b = g.state.battles[space]
    return [f"{g.state.units[i].owner} {g.state.units[i].type}"
            for i in (*b.attacking, *b.seaborne, *b.defending)]


# --------------------------------------------------------------------------------------------
# Players and powers (§2: P-1, P-2, P-6)


def test_P_1_one_person_plays_one_side_and_the_UK_player_may_take_France(tmp_path: Path) -> None:
    """P-1: a person's powers are all of one side: Germany's player cannot take the United
    Kingdom, the British player may take France (an Allied power, played by the US or UK
    player) but not Italy."""
    script = tmp_path / "seats.txt"
    script.write_text("alice: game new europe1940\ngame join Germany\ngame join United Kingdom\n"
                      "bob: game join United Kingdom\ngame join France\ngame join Italy\n")
    code, out, _ = in_process("--script", str(script), "--keep-going", "--no-images")
    assert code == 1  # lines were refused
    assert ("Refused: You hold Germany (Axis); United Kingdom is on the Allies side. One person "
            "plays powers of one side only (P-1).") in out
    assert "bob joins as United Kingdom (Allies)." in out
    assert "bob joins as France (Allies)." in out
    assert ("Refused: You hold United Kingdom and France (Allies); Italy is on the Axis side. "
            "One person plays powers of one side only (P-1).") in out


def test_P_2_each_power_keeps_its_own_treasury_and_acts_on_its_own_turn() -> None:
    """P-2: the United Kingdom's purchase is paid from the British treasury only, France's is
    untouched; France (the same player's other power) cannot buy during the British turn."""
    g = e40(UK, "purchase", {})
    before = dict(g.state.treasury)
    evs = g.do(od.Buy(units={"infantry": 2}))
    assert said(g, evs) == ["United Kingdom bought 2 infantry (6 IPCs)."]
    assert g.state.treasury[UK] == before[UK] - 6 and g.state.treasury[FR] == before[FR]
    g.refuse(od.Buy(units={"infantry": 1}), "It is United Kingdom's turn (Purchase & Repair); "
             "France cannot give that order now.", power=FR)


def test_P_6_no_attack_on_a_power_not_at_war_with() -> None:
    """P-6 / §5: Germany, at peace with the Soviet Union, may not attack Eastern Poland; it
    must declare war first."""
    g = e40(GER, "combat_move", {"Poland": {GER: {"infantry": 2}},
                                 "Eastern Poland": {SOV: {"infantry": 1}}},
            owners={"Eastern Poland": SOV})
    g.refuse(od.Move(units={"infantry": 1}, frm="Poland", to="Eastern Poland"),
             "Eastern Poland is held by the Soviet Union, which Germany is not at war with: its "
             "units may neither attack it nor enter or pass through it (NW-2/NW-3). Declare war "
             "at the start of Combat Move first.")


def test_P_6_axis_never_attack_axis() -> None:
    """P-6: an Italian territory is friendly to Germany: a German combat move there is no
    attack and is refused (CM-2); Italy cannot take part in Germany's turn either."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 2}},
                                 "Northern Italy": {ITA: {"infantry": 1}}})
    g.refuse(od.Move(units={"infantry": 1}, frm="Western Germany", to="Northern Italy"),
             "Combat Move must end in combat: Northern Italy is friendly (CM-2).")


# --------------------------------------------------------------------------------------------
# The map and the turn (M-2, TS-3, TS-4, CD-5)


def test_M_2_income_values_a_territory_without_value_gives_nothing() -> None:
    """M-2: each territory gives its value to its controller: the United Kingdom collects 29
    from its territories; Gibraltar (no income value) lost to Italy changes nothing (the
    objective of the whole empire aside), Scotland (2) lost to Germany costs 2."""
    assert E40.spaces["Gibraltar"].value == 0 and E40.spaces["Scotland"].value == 2
    got = {}
    for lost in ({}, {"Gibraltar": ITA}, {"Scotland": GER}):
        g = e40(UK, "mobilize", {}, owners=lost)
        evs = g.end()
        got[tuple(lost)] = [x for x in said(g, evs) if x.startswith("United Kingdom collected")]
    assert got[()] == ["United Kingdom collected 34 IPCs (treasury now 63; 29 from its "
                       "territories, +5 national objectives; IN-1)."]
    assert got[("Gibraltar",)] == ["United Kingdom collected 29 IPCs (treasury now 58; IN-1)."]
    assert got[("Scotland",)] == ["United Kingdom collected 27 IPCs (treasury now 56; IN-1)."]


def test_TS_3_every_phase_but_collect_income_may_be_skipped() -> None:
    """TS-3: Germany ends each phase without doing anything; Collect Income is not skipped:
    it is done by the referee, and the turn ends with it."""
    g = e40(GER, "purchase", {})
    out: list[str] = []
    for _ in range(5):
        out += said(g, g.end())
    assert out[:4] == ["Germany: Combat Move.", "Germany: Conduct Combat.",
                       "Germany: Noncombat Move.", "Germany: Mobilize New Units."]
    assert out[4] == "Germany: Collect Income."
    assert any(x.startswith("Germany collected 40 IPCs (treasury now 70; 30 from its "
                            "territories, +10 national objectives; IN-1)") for x in out), out
    assert "Round 1: Soviet Union's turn begins." in out and g.state.power == SOV


def test_TS_4_no_research_phase_in_europe_1940() -> None:
    """TS-4 (Global only): Europe 1940 has no Research & Development phase: its turn starts with
    Purchase & Repair."""
    assert list(E40.phase_info) == ["purchase", "combat_move", "conduct_combat",
                                    "noncombat_move", "mobilize", "collect_income"]


def test_CD_5_convoy_disruption_is_found_by_the_referee_in_collect_income() -> None:
    """CD-5: nobody has to point convoy disruption out: ending Mobilize, the referee finds the
    German cruiser in Sea Zone 109 and takes the loss from the British income."""
    g = e40(UK, "mobilize", {"Sea Zone 109": {GER: {"cruiser": 1}}})
    g.script(2)
    out = said(g, g.end())
    assert out[:2] == [
        "United Kingdom: Collect Income.",
        "Convoy disruption in Sea Zone 109 against United Kingdom: Germany's 1 cruiser rolled "
        "2 → 2 (each 3 or less counts) → United Kingdom loses 2 IPCs (CD-2)."]
    assert ("United Kingdom collected 32 IPCs (treasury now 61; 29 from its territories, -2 "
            "convoy disruption, +5 national objectives; IN-1).") in out


def test_SU_3_warships_and_subs_disrupt_transports_do_not() -> None:
    """SU-3: a German submarine and a destroyer disrupt convoys (2 dice and 1); a German
    transport in Sea Zone 119 does not."""
    g = e40(UK, "mobilize", {"Sea Zone 109": {GER: {"submarine": 1, "destroyer": 1}},
                             "Sea Zone 119": {GER: {"transport": 1}}})
    g.script(1, 1, 3)
    out = said(g, g.end())
    assert ("Convoy disruption in Sea Zone 109 against United Kingdom: Germany's 1 destroyer, 1 "
            "submarine rolled 1, 1, 3 → 5 (each 3 or less counts) → United Kingdom loses 5 IPCs "
            "(CD-2).") in out
    assert not any("Sea Zone 119" in x for x in out)


# --------------------------------------------------------------------------------------------
# Purchase (PU-2, PU-6, PU-7)


def test_PU_2_the_cost_is_paid_to_the_bank() -> None:
    """PU-2: Germany pays 15 IPCs for 2 tanks and 1 infantry (30 -> 15); a battleship (20) is
    then more than it has."""
    g = e40(GER, "purchase", {})
    evs = g.do(od.Buy(units={"tank": 2, "infantry": 1}))
    assert said(g, evs) == ["Germany bought 2 tanks, 1 infantry (15 IPCs)."]
    assert g.state.treasury[GER] == 15
    g.refuse(od.Buy(units={"battleship": 1}), "1 battleship costs 20 IPCs; Germany has 15")


def test_PU_6_units_bought_are_not_on_the_board_until_mobilized() -> None:
    """PU-6: a tank bought in Purchase cannot move in Combat Move: it is placed in phase 5."""
    g = e40(GER, "purchase", {})
    g.do(od.Buy(units={"tank": 1}))
    g.end()
    g.refuse(od.Move(units={"tank": 1}, frm="Germany", to="Western Germany"),
             "Germany has no tank in Germany (Germany has no units there).")
    while g.state.phase != "mobilize":
        g.end()
    evs = g.do(od.Place(units={"tank": 1}, space="Germany"))
    assert said(g, evs) == ["Germany placed 1 tank in Germany."]
    assert g.units("Germany", GER)["tank"] == 1


def test_PU_7_a_power_whose_capital_is_held_by_the_enemy_buys_nothing() -> None:
    """PU-7: with Paris (France) held by Germany, France's Purchase is skipped: its turn begins
    in Combat Move, and 'buy' is refused."""
    g = e40(FR, "purchase", {}, owners={LAND: GER})
    assert describe_all(None, g.events)[-1] == (
        "France: Combat Move. Skipped Purchase & Repair (TS-5).")
    g.refuse(od.Buy(units={"infantry": 1}), "'buy' belongs to Purchase & Repair")


# --------------------------------------------------------------------------------------------
# Combat move and conduct combat (CM-1, CC-2, GC-1, GC-9)


def test_CM_1_declarations_come_first_in_combat_move() -> None:
    """CM-1 / DW-2: war is declared at the start of Combat Move, before any unit moves; not
    after a move, nor in another phase."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 2}},
                                 LAND: {FR: {"infantry": 1}}}, owners={LAND: FR})
    evs = g.do(DeclareWar(on=SOV))
    assert said(g, evs) == ["Germany declares war on the Soviet Union (DW-2)."]
    g.move({"infantry": 1}, "Western Germany", LAND)
    g.refuse(DeclareWar(on=US),
             "Germany has moved units in this Combat Move: war is declared at its start, before "
             "any unit moves (DW-2).")
    g = e40(GER, "noncombat_move", {})
    g.refuse(DeclareWar(on=SOV),
             "Germany declares war only on its own turn, at the start of its Combat Move before "
             "any unit moves (DW-2).")


def _two_battles() -> Game:
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 4}},
                                 LAND: {FR: {"infantry": 1}},
                                 "Holland Belgium": {UK: {"infantry": 1}}},
            owners={LAND: FR, "Holland Belgium": UK})
    g.move({"infantry": 2}, "Western Germany", LAND)
    g.move({"infantry": 2}, "Western Germany", "Holland Belgium")
    g.end()
    return g


def test_CC_2_the_attacker_chooses_which_battle_to_fight_first() -> None:
    """CC-2: Germany chooses the order: Holland Belgium, then France; no unit may join a
    battle once battles have begun (no moves in Conduct Combat)."""
    g = _two_battles()
    g.script(1, 1, 6)
    out = said(g, g.do(od.Battle(space="Holland Belgium")))
    assert out[0] == "Battle in Holland Belgium: round 1 begins."
    assert out[-2:] == ["Battle in Holland Belgium over: the attacker won.",
                        "Germany captured Holland Belgium (+3 income; CO-1)."]
    g.refuse(od.Move(units={"infantry": 1}, frm="Western Germany", to=LAND),
             "Moves are made in Combat Move or Noncombat Move; it is Conduct Combat now")
    g.script(1, 6, 6)
    out = said(g, g.do(od.Battle(space=LAND)))
    assert out[0] == "Battle in France: round 1 begins."
    assert "Battle in France over: the attacker won." in out


def test_CC_2_each_battle_is_fought_to_the_end_before_the_next() -> None:
    """CC-2: each space is fought to the end before the next one starts: after a round in
    Holland Belgium, the battle in France may not begin until Holland Belgium is over (the
    referee's next battle for an absent attacker is Holland Belgium too); once it is over,
    France may be fought."""
    from rules.combat import next_battles

    g = _two_battles()
    g.script(6, 6, 6)
    g.do(od.Battle(space="Holland Belgium"))
    assert g.state.battles["Holland Belgium"].step == "press_or_retreat"
    g.script(6, 6, 6)
    g.refuse(od.Battle(space=LAND), "The battle in Holland Belgium is fought to the end before "
             "the next one starts (CC-2); France waits for it.")
    assert next_battles(g.state) == ["Holland Belgium"]
    g.script(1, 1, 6)
    out = said(g, g.do(od.Press(space="Holland Belgium")))
    assert "Battle in Holland Belgium over: the attacker won." in out
    g.script(1, 6, 6)
    assert "Battle in France over: the attacker won." in said(g, g.do(od.Battle(space=LAND)))


def test_GC_1_attacker_rolls_first_both_sides_fire_at_once() -> None:
    """GC-1: the attacker rolls first, then the defender; the French infantry hit by the
    attack fires back all the same (it is removed after both rolls)."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 2}},
                                 LAND: {FR: {"infantry": 2}}}, owners={LAND: FR})
    g.move({"infantry": 2}, "Western Germany", LAND)
    g.end()
    g.script(1, 6, 1, 6)
    evs = g.do(od.Battle(space=LAND))
    assert [e.side for e in evs if isinstance(e, DiceRolled)] == ["attacker", "defender"]
    assert rolled(evs, "defender")[0].groups == (("infantry", 2, (1, 6)),)
    assert said(g, evs) == [
        "Battle in France: round 1 begins.",
        "Battle in France, round 1: attacker rolled 1,6 → 1 hit [scripted dice].",
        "Casualties in France: the defender loses 1 infantry (no choice).",
        "Battle in France, round 1: defender rolled 1,6 → 1 hit [scripted dice].",
        "Casualties in France: the attacker loses 1 infantry (no choice).",
        "Removed from the board: France: 1 infantry; Germany: 1 infantry (casualties in "
        "France, GC-7).",
        "Battle in France: round 1 over; the attacker may press or retreat."]


def test_GC_9_condition_A_the_defender_wiped_out_the_attacker_wins() -> None:
    """GC-9 condition A: the last French infantry is hit: the battle ends, Germany wins and
    captures France."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 2}},
                                 LAND: {FR: {"infantry": 1}}}, owners={LAND: FR})
    g.move({"infantry": 2}, "Western Germany", LAND)
    g.end()
    g.script(1, 6, 6)
    out = said(g, g.do(od.Battle(space=LAND)))
    assert "Battle in France over: the attacker won." in out
    assert "Germany captured France and took 17 IPCs from France (+4 income; CAP-1)." in out
    assert g.owner(LAND) == GER and g.units(LAND, GER)["infantry"] == 2


def test_GC_9_condition_B_land_units_retreat_together_air_units_stay() -> None:
    """GC-9 condition B: the attacker retreats its land units together to a space they came
    from (not Holland Belgium); the fighter stays in France and lands in Noncombat Move."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 2, "fighter": 1}},
                                 LAND: {FR: {"infantry": 3}}}, owners={LAND: FR})
    g.move({"infantry": 2}, "Western Germany", LAND)
    g.move({"fighter": 1}, "Western Germany", LAND)
    g.end()
    g.script(6, 6, 6, 6, 6, 6)
    g.do(od.Battle(space=LAND))
    g.refuse(od.Retreat(space=LAND, to="Holland Belgium"),
             "Attackers retreat together to one adjacent friendly space that at least one of "
             "them came from (GC-9). Possible: Western Germany.")
    evs = g.do(od.Retreat(space=LAND, to="Western Germany"))
    assert said(g, evs) == [
        "Germany retreated 2 infantry from France to Western Germany; 1 fighter stays in "
        "France and lands in Noncombat Move (GC-9).",
        "Battle in France over: the attacker retreated."]
    assert g.units(LAND, GER) == {"fighter": 1}
    assert g.units("Western Germany", GER)["infantry"] == 2


# --------------------------------------------------------------------------------------------
# Amphibious assaults (AA-3, AA-4, AA-7)


def _assault(fighters_to: tuple[str, ...] = ()) -> Game:
    """British infantry on a transport in Sea Zone 110 (with a destroyer) assault Normandy
    Bordeaux; a German destroyer in Sea Zone 110 makes a sea battle first. One fighter from
    the United Kingdom per entry of ``fighters_to``."""
    g = e40(UK, "combat_move", {
        OFFSHORE: {UK: {"transport": 1, "infantry": 1, "destroyer": 1}, GER: {"destroyer": 1}},
        "United Kingdom": {UK: {"fighter": len(fighters_to)}} if fighters_to else {},
        BEACH: {GER: {"infantry": 1}}}, owners={BEACH: GER})
    g.move({"infantry": 1}, OFFSHORE, BEACH)
    for to in fighters_to:
        g.move({"fighter": 1}, "United Kingdom", to)
    g.end()
    return g


def test_AA_3_the_land_battle_follows_a_sea_battle_won() -> None:
    """AA-3: the landing waits for the sea battle; once the German destroyer is sunk the
    infantry lands and the land battle is fought (no bombardment after a sea battle)."""
    g = _assault()
    g.refuse(od.Battle(space=BEACH), "The amphibious assault on Normandy Bordeaux waits for the "
             "sea battle in Sea Zone 110: sea combat comes first (AA-1).")
    g.script(1, 6)
    out = said(g, g.do(od.Battle(space=OFFSHORE)))
    assert out[-2:] == ["Battle in Sea Zone 110 over: the attacker won.",
                        "1 infantry landed from the sea in Normandy Bordeaux, joining the battle."]
    g.script(1, 6)
    out = said(g, g.do(od.Battle(space=BEACH)))
    assert not any("bombard" in x for x in out)
    assert out[-2:] == ["Battle in Normandy Bordeaux over: the attacker won.",
                        "United Kingdom liberated Normandy Bordeaux; it returns to France (+2 "
                        "income for France; LI-1)."]


def test_AA_3_no_land_battle_when_the_sea_battle_is_lost() -> None:
    """AA-3: the British destroyer and the laden transport are sunk: no land units are left to
    land, and Normandy Bordeaux stays German."""
    g = _assault()
    g.script(6, 1)
    g.do(od.Battle(space=OFFSHORE))
    g.script(6, 1)
    g.do(od.Battle(space=OFFSHORE))
    assert g.units(OFFSHORE, UK) == {}
    assert BEACH not in g.state.battles or g.state.battles[BEACH].step == "done"
    assert g.owner(BEACH) == GER


def test_AA_4_one_transport_unloads_into_one_territory() -> None:
    """AA-4: the two infantry of one transport go into one hostile territory: after one lands
    in Normandy Bordeaux, the other may not go to Holland Belgium."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"transport": 1, "infantry": 2}},
                                BEACH: {GER: {"infantry": 1}},
                                "Holland Belgium": {GER: {"infantry": 1}}},
            owners={BEACH: GER, "Holland Belgium": GER})
    evs = g.move({"infantry": 1}, OFFSHORE, BEACH)
    assert said(g, evs) == ["United Kingdom moved 1 infantry from Sea Zone 110 to Normandy "
                            "Bordeaux (offloading; amphibious assault on Normandy Bordeaux)."]
    g.refuse(od.Move(units={"infantry": 1}, frm=OFFSHORE, to="Holland Belgium"),
             "One transport offloads into only one territory per turn; this one already "
             "offloads into Normandy Bordeaux.")


def test_AA_7_air_units_fight_in_the_part_assigned_in_combat_move() -> None:
    """AA-7: one fighter is sent to the sea zone, one to Normandy Bordeaux: the first fights
    only in the sea battle, the second only in the land battle."""
    g = _assault((OFFSHORE, BEACH))
    assert fighters(g, OFFSHORE) == ["United Kingdom fighter", "United Kingdom destroyer",
                                     "United Kingdom transport", "Germany destroyer"]
    g.script(1, 6, 6)  # the fighter (3) and the destroyer (2) roll; the German destroyer misses
    evs = g.do(od.Battle(space=OFFSHORE))
    assert rolled(evs, "attacker")[0].groups == (("fighter", 3, (1,)), ("destroyer", 2, (6,)))
    g.script(6, 6, 6)
    evs = g.do(od.Battle(space=BEACH))
    assert rolled(evs, "attacker")[0].groups == (("fighter", 3, (6,)), ("infantry", 1, (6,)))
    assert g.units(OFFSHORE, UK)["fighter"] == 1


# --------------------------------------------------------------------------------------------
# Air units (AU-1, AU-4, AU-5)


def test_AU_1_AU_4_carrier_planes_defend_the_zone_coastal_planes_do_not() -> None:
    """AU-1: the fighter on the German carrier defends Sea Zone 112. AU-4: the two German
    fighters in Denmark (no air base) next to it do not."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"battleship": 1}},
                                "Denmark": {GER: {"fighter": 2}},
                                SEA: {GER: {"aircraft carrier": 1, "fighter": 1}}})
    evs = g.move({"battleship": 1}, OFFSHORE, SEA)
    evs += g.end()
    assert said(g, evs)[-1] == ("Sea battle in Sea Zone 112: United Kingdom (1 battleship) "
                                "against Germany: 1 aircraft carrier, 1 fighter.")
    g.script(6, 6, 6)
    evs = g.do(od.Battle(space=SEA))
    assert rolled(evs, "defender")[0].groups == (("fighter", 4, (6,)),
                                                 ("aircraft carrier", 2, (6,)))
    assert g.units("Denmark", GER) == {"fighter": 2}


def test_AU_1_air_units_attack_in_sea_zones() -> None:
    """AU-1: British fighters and a tactical bomber attack German ships in Sea Zone 112."""
    g = e40(UK, "combat_move", {"United Kingdom": {UK: {"fighter": 1, "tactical bomber": 1}},
                                SEA: {GER: {"cruiser": 1}}})
    g.move({"fighter": 1, "tactical bomber": 1}, "United Kingdom", SEA)
    g.end()
    g.script(4, 6, 6)  # the tactical bomber at 4 beside the fighter (CA-1)
    evs = g.do(od.Battle(space=SEA))
    assert rolled(evs, "attacker")[0].groups == (("tactical bomber", 4, (4,)),
                                                 ("fighter", 3, (6,)))
    assert "Casualties in Sea Zone 112: the defender loses 1 cruiser (no choice)." in said(g, evs)


def _sub_hunt(destroyer: bool) -> Game:
    ships = {"cruiser": 1, **({"destroyer": 1} if destroyer else {})}
    g = e40(UK, "combat_move", {OFFSHORE: {UK: ships}, "United Kingdom": {UK: {"fighter": 1}},
                                SEA: {GER: {"submarine": 1}}})
    g.move(ships, OFFSHORE, SEA)
    g.move({"fighter": 1}, "United Kingdom", SEA)
    g.end()
    return g


def test_AU_5_planes_hit_submarines_only_beside_a_destroyer() -> None:
    """AU-5: without a British destroyer, the fighter's 1 does not hit the German submarine;
    with one, it does."""
    g = _sub_hunt(destroyer=False)
    g.script(6, 6, 1)  # the submarine strikes and misses; the cruiser misses, the fighter hits
    g.do(od.Battle(space=SEA))
    assert [p.power for p in pending_decisions(g.state)] == [GER]
    evs = g.do(od.Strike(space=SEA), power=GER)
    assert ("Battle in Sea Zone 112, round 1: attacker rolled 6,1 → 0 hits (1 dice hit, 0 "
            "counted; cruiser at 3: 6; fighter at 3: 1) [scripted dice].") in said(g, evs)
    assert g.units(SEA, GER) == {"submarine": 1}
    g = _sub_hunt(destroyer=True)  # no surprise strike either beside a destroyer (SS-4)
    g.script(6, 1, 6, 6)
    evs = g.do(od.Battle(space=SEA))
    assert ("Battle in Sea Zone 112, round 1: attacker rolled 6,1,6 → 1 hit (cruiser at 3: 6; "
            "fighter at 3: 1; destroyer at 2: 6) [scripted dice].") in said(g, evs)
    assert g.units(SEA, GER) == {}


# --------------------------------------------------------------------------------------------
# Multinational forces (MN-1..MN-6)


def test_MN_1_allies_defend_together() -> None:
    """MN-1: British artillery and French infantry in France defend together: one defending
    roll holds both powers' units."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 3}},
                                 LAND: {FR: {"infantry": 2}, UK: {"artillery": 1}}},
            owners={LAND: FR})
    g.move({"infantry": 3}, "Western Germany", LAND)
    evs = g.end()
    assert said(g, evs)[-1] == ("Battle in France: Germany (3 infantry) against United Kingdom: "
                                "1 artillery; France: 2 infantry.")
    g.script(6, 6, 6, 6, 6, 6)
    evs = g.do(od.Battle(space=LAND))
    assert rolled(evs, "defender")[0].groups == (("artillery", 2, (6,)), ("infantry", 2, (6, 6)))


def test_MN_1_allies_never_attack_together() -> None:
    """MN-1: during Germany's turn the Italian infantry cannot move into the attack on France."""
    g = e40(GER, "combat_move", {"Northern Italy": {ITA: {"infantry": 1}},
                                 LAND: {FR: {"infantry": 1}}}, owners={LAND: FR})
    g.refuse(od.Move(units={"infantry": 1}, frm="Northern Italy", to=LAND),
             "It is Germany's turn (Combat Move); Italy cannot give that order now.", power=ITA)


def test_MN_2_an_allied_destroyer_in_the_zone_takes_no_part() -> None:
    """MN-2: an American destroyer in Sea Zone 112, where the United Kingdom attacks a German
    submarine, is not on the battle board and does not cancel the submarine's surprise strike:
    Germany may still choose it."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"cruiser": 1}},
                                SEA: {GER: {"submarine": 1}, US: {"destroyer": 1}}},
            war=[*START_WAR, [GER, US]])
    g.move({"cruiser": 1}, OFFSHORE, SEA)
    g.end()
    assert fighters(g, SEA) == ["United Kingdom cruiser", "Germany submarine"]
    g.script()
    g.do(od.Battle(space=SEA))
    assert [(p.power, p.space) for p in pending_decisions(g.state)] == [(GER, SEA)]
    g.script(1, 6)
    evs = g.do(od.Strike(space=SEA), power=GER)
    out = said(g, evs)
    assert out[:2] == ["In Sea Zone 112 the defending submarines: 1 submarine makes a surprise "
                       "strike (GC-3).",
                       "Battle in Sea Zone 112, round 1: defender's submarines strike: rolled 1 "
                       "→ 1 hit [scripted dice]."]
    assert g.units(SEA, US) == {"destroyer": 1}


def test_MN_3_a_british_fighter_flies_from_an_american_carrier_which_stays() -> None:
    """MN-3: the British fighter on an American carrier launches on the British turn; the
    carrier moves only on the American turn (the United Kingdom has none to move)."""
    g = e40(UK, "combat_move", {OFFSHORE: {US: {"aircraft carrier": 1}, UK: {"fighter": 1}},
                                SEA: {GER: {"cruiser": 1}}}, war=[*START_WAR, [GER, US]])
    g.refuse(od.Move(units={"aircraft carrier": 1}, frm=OFFSHORE, to=SEA),
             "United Kingdom has no aircraft carrier in Sea Zone 110")
    evs = g.move({"fighter": 1}, OFFSHORE, SEA)
    assert said(g, evs) == ["United Kingdom moved 1 fighter from Sea Zone 110 to Sea Zone 112."]


def test_MN_3_an_american_plane_on_a_british_carrier_is_cargo() -> None:
    """MN-3: an American fighter aboard an attacking British carrier does not fight: the carrier
    cannot attack with it alone (CM-10), and with a cruiser the fighter is not on the board."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"aircraft carrier": 1, "cruiser": 1},
                                           US: {"fighter": 1}},
                                SEA: {GER: {"cruiser": 1}}}, war=[*START_WAR, [GER, US]])
    g.refuse(od.Move(units={"aircraft carrier": 1}, frm=OFFSHORE, to=SEA),
             "Aircraft carriers cannot attack alone (CM-16)")
    g.move({"aircraft carrier": 1, "cruiser": 1}, OFFSHORE, SEA)
    evs = g.end()
    assert said(g, evs)[-1] == ("Sea battle in Sea Zone 112: United Kingdom (1 aircraft "
                                "carrier, 1 cruiser) against Germany: 1 cruiser.")
    assert fighters(g, SEA) == ["United Kingdom aircraft carrier", "United Kingdom cruiser",
                                "Germany cruiser"]
    assert g.units(SEA, US) == {"fighter": 1}


def test_MN_4_british_infantry_assault_from_an_american_transport() -> None:
    """MN-4: British infantry load onto an American transport on the British turn and unload
    from it into Normandy Bordeaux on a later British turn, both powers at war."""
    war = [*START_WAR, [GER, US]]
    g = e40(UK, "noncombat_move", {OFFSHORE: {US: {"transport": 1}},
                                   "United Kingdom": {UK: {"infantry": 1}}}, war=war)
    evs = g.move({"infantry": 1}, "United Kingdom", OFFSHORE)
    assert said(g, evs) == ["United Kingdom moved 1 infantry from United Kingdom to Sea Zone "
                            "110 (loading)."]
    g = e40(UK, "combat_move", {OFFSHORE: {US: {"transport": 1}, UK: {"infantry": 1}},
                                BEACH: {GER: {"infantry": 1}}}, owners={BEACH: GER}, war=war)
    g.refuse(od.Move(units={"transport": 1}, frm=OFFSHORE, to="Sea Zone 109"),
             "United Kingdom has no transport in Sea Zone 110")
    evs = g.move({"infantry": 1}, OFFSHORE, BEACH)
    assert said(g, evs) == ["United Kingdom moved 1 infantry from Sea Zone 110 to Normandy "
                            "Bordeaux (offloading; amphibious assault on Normandy Bordeaux)."]


def test_MN_4_not_onto_the_transport_of_an_ally_at_war_with_nobody() -> None:
    """MN-4: both powers must be at war: the United States at peace, the British infantry
    may not board its transport."""
    g = e40(UK, "noncombat_move", {OFFSHORE: {US: {"transport": 1}},
                                   "United Kingdom": {UK: {"infantry": 1}}})
    g.refuse(od.Move(units={"infantry": 1}, frm="United Kingdom", to=OFFSHORE),
             "The United Kingdom may not board or land on the United States' ships in Sea Zone "
             "110: while the United States is at war with nobody, allies share neither "
             "territories nor transports nor carriers (NW-1/NW-3).")


def test_MN_5_joint_defenders_casualties_name_each_powers_losses() -> None:
    """MN-5: two hits on British and French defenders in France: the defenders choose (here
    the United Kingdom), and the line names each power's losses."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 3}},
                                 LAND: {FR: {"infantry": 2}, UK: {"artillery": 1}}},
            owners={LAND: FR})
    g.move({"infantry": 3}, "Western Germany", LAND)
    g.end()
    g.script(1, 1, 6)
    g.do(od.Battle(space=LAND))
    assert g.state.battles[LAND].owed == (("defender", 2),)
    g.script(6, 6, 6)
    evs = g.do(od.Casualties(space=LAND, units={"infantry": 1, "artillery": 1}), power=UK)
    out = said(g, evs)
    assert out[0] == ("Casualties in France: United Kingdom loses 1 artillery; France loses 1 "
                      "infantry (chosen by United Kingdom).")
    assert ("Removed from the board: United Kingdom: 1 artillery; France: 1 infantry "
            "(casualties in France, GC-7).") in out
    assert g.units(LAND, FR)["infantry"] == 1 and g.units(LAND, UK) == {}


def test_MN_5_the_attacker_cannot_choose_the_defenders_casualties() -> None:
    """MN-5: the defenders choose; Germany's choice for them is refused."""
    g = e40(GER, "combat_move", {"Western Germany": {GER: {"infantry": 3}},
                                 LAND: {FR: {"infantry": 2}, UK: {"artillery": 1}}},
            owners={LAND: FR})
    g.move({"infantry": 3}, "Western Germany", LAND)
    g.end()
    g.script(1, 6, 6)
    g.do(od.Battle(space=LAND))
    g.refuse(od.Casualties(space=LAND, units={"artillery": 1}),
             "The defender's casualties in France are chosen by")


def test_MN_6_never_mobilize_at_an_allys_complex_nor_on_its_carrier() -> None:
    """MN-6: the United Kingdom may not place at the American complex in Eastern United States
    or at Normandy Bordeaux's (American-held here), nor a new fighter on the American carrier
    in Sea Zone 111."""
    g = e40(UK, "mobilize", {"Sea Zone 111": {US: {"aircraft carrier": 1}}},
            owners={BEACH: US}, purchase={"infantry": 1, "fighter": 1},
            war=[*START_WAR, [GER, US]])
    for space in ("Eastern United States", BEACH):
        g.refuse(od.Place(units={"infantry": 1}, space=space),
                 f"United Kingdom cannot place units in {space}: new units go only to "
                 "territories with an industrial complex United Kingdom itself has controlled "
                 "since the start of the turn, never one taken this turn nor an ally's "
                 "(MO-1/MO-3/MN-6).")
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 111"),
             "Sea Zone 111 is not next to an industrial complex United Kingdom may use (MO-4).")


# --------------------------------------------------------------------------------------------
# Global only: not in Europe 1940 (V-3, RD-1..RD-3)


def _research_refused(tmp_path: Path) -> str:
    (tmp_path / "pos.json").write_text(
        '{"edition": "europe1940", "power": "Germany", "phase": "purchase"}')
    (tmp_path / "r.txt").write_text("Germany: research 2\nbuy 1 infantry\n")
    code, out, _ = in_process("--position", str(tmp_path / "pos.json"), "--script",
                              str(tmp_path / "r.txt"), "--keep-going", "--no-images")
    assert code == 1
    return out


def test_RD_1_research_is_refused_with_its_reason(tmp_path: Path) -> None:
    """RD-1 (Global only, §19): Europe 1940 has no research: 'research 2' is refused with the
    reason, and the purchase goes on."""
    out = _research_refused(tmp_path)
    assert ("Refused: Axis & Allies Europe 1940, Second Edition has no weapons development: "
            "there is nothing to research. Buy units with 'buy <units>' in the Purchase "
            "phase.") in out
    assert "Germany bought 1 infantry (3 IPCs)." in out


def test_RD_2_no_research_dice_are_bought_or_rolled() -> None:
    """RD-2 (Global only): no research dice: the order is refused in the engine too, the
    treasury untouched and no die rolled."""
    from rules.mechanisms.research import Research

    g = e40(GER, "purchase", {})
    g.script()
    err = g.refuse(Research(dice=2), "has no weapons development")
    assert isinstance(err, RulesError)
    assert g.state.treasury[GER] == 30 and g.state.phase == "purchase"


def test_RD_3_no_technologies_to_share() -> None:
    """RD-3 (Global only): Europe 1940 has no technologies: no power has or may gain one."""
    g = e40(GER, "purchase", {})
    assert g.state.ruleset().research is None
    assert all(not techs for techs in g.state.techs.values())


def test_V_3_no_global_victory_seven_european_cities_do_not_win() -> None:
    """V-3 (Global only): Europe 1940 has no Pacific map nor Tokyo, and no alternative victory
    with fewer cities: the Axis holding 7 of the 11 victory cities for a whole round (Berlin
    and Rome among them) has not won."""
    from tests.rules.e40.test_economy import ALL_WAR
    from tests.rules.e40.test_victory import play_until

    assert len(E40.map.victory_cities) == 11 and "Tokyo" not in E40.map.victory_cities.values()
    g = Game({"edition": "europe1940", "power": GER, "phase": "mobilize", "units": {},
              "clear_all_units": True, "war": ALL_WAR,
              "owners": {"France": GER, "United Kingdom": GER, "Novgorod": GER,
                         "Volgograd": GER}})
    evs = play_until(g, GER, turns=1)
    assert g.state.power == GER and not g.state.winner
    assert any(x.startswith("Victory cities at the end of Germany's turn: the Axis 7 (")
               for x in said(g, evs))
