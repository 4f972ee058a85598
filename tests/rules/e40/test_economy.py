"""Europe 1940 economy: Collect Income with convoy disruption (§13, IN-1..IN-3, CD-1..CD-5),
national objectives of every power (§14.1, §22.16), capitals and liberation on the income side
(§10.7-§10.8: LI-1..LI-3, CAP-1..CAP-5) and France's liberation bonus (FR-1, §22.14).

Rule IDs cite ``shared/rules/europe1940.md``. Dice are scripted; every event's line is asserted
as players read it (``service.describe``).
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.mechanisms import objectives as no
from rules.mechanisms.convoys import ConvoyDisrupted, allocate
from rules.mechanisms.liberation import FREE_UNITS, FreeUnits, FreeUnitsPlaced, LiberationBonusOwed
from rules.mechanisms.objectives import ObjectivesPaid
from rules.state import GameState
from service.describe import describe_all
from tests.rules.helpers import Game

GER, SOV, USA, UK, ITA, FRA = ("Germany", "Soviet Union", "United States", "United Kingdom",
                               "Italy", "France")
START_WAR = [[GER, UK], [GER, FRA], [UK, ITA], [ITA, FRA]]
ALL_WAR = [[a, b] for a in (GER, ITA) for b in (SOV, USA, UK, FRA)]


def pos(power: str, phase: str, units: dict[str, Any] | None = None, **extra: Any
        ) -> dict[str, Any]:
    """A Europe 1940 position: an empty board (complexes kept) unless units are given."""
    out: dict[str, Any] = {"edition": "europe1940", "power": power, "phase": phase,
                           "units": units or {}, "clear_all_units": True}
    out.update(extra)
    return out


def of(evs: list[ev.Event], kind: type[Any]) -> list[Any]:
    return [e for e in evs if isinstance(e, kind)]


def lines(g: Game, evs: list[ev.Event]) -> list[str]:
    """What players read for ``evs``, the last events of ``g``."""
    start = len(g.events) - len(evs)
    return describe_all(None, g.events)[start:]


def state(p: dict[str, Any]) -> GameState:
    return engine.replay(engine.new_game("europe1940", (), p))


def paid(s: GameState, power: str) -> dict[str, int]:
    """The objectives ``power`` would be paid now (id -> IPCs)."""
    out = {}
    for o in s.edition.rules.objectives:
        if o.power == power and (n := no.payment(s, o)[0]):
            out[o.id] = n
    return out


# --------------------------------------------------------------------------------------------
# Convoy disruption (CD-1..CD-5)


def test_CD_4_three_submarines_in_sea_zone_109_then_one_in_119() -> None:
    """CD-4, the rulebook's worked example: three German submarines in sea zone 109 roll
    1,2,3,3,5,6 = 9, but the UK territories around 109 (United Kingdom 6 + Scotland 2) are worth
    8: the UK loses 8. A German submarine in sea zone 119 then costs nothing: Scotland's 2 were
    lost through 109 (CD-3). The UK still meets its national objective (+5): 29 - 8 + 5 = 26."""
    g = Game(pos(UK, "mobilize", {"Sea Zone 109": {GER: {"submarine": 3}},
                                  "Sea Zone 119": {GER: {"submarine": 1}}}))
    g.script(1, 2, 3, 3, 5, 6, 2, 3)
    evs = g.end()
    cd = of(evs, ConvoyDisrupted)
    assert [(e.zone, e.rolls[0][1], e.total, e.cap, e.loss) for e in cd] == [
        ("Sea Zone 109", (1, 2, 3, 3, 5, 6), 9, 8, 8),
        ("Sea Zone 119", (2, 3), 5, 2, 0),
    ]
    assert of(evs, ev.IncomeCollected)[0].amount == 26
    said = lines(g, evs)
    assert ("Convoy disruption in Sea Zone 109 against United Kingdom: Germany's 3 submarines "
            "rolled 1, 2, 3, 3, 5, 6 → 9 (each 3 or less counts); at most 8 IPCs from this zone "
            "(its territories there) → United Kingdom loses 8 IPCs (CD-2/CD-3).") in said
    assert ("Convoy disruption in Sea Zone 119 against United Kingdom: Germany's 1 submarine "
            "rolled 2, 3 → 5 (each 3 or less counts); at most 2 IPCs from this zone (its "
            "territories there); its territories there have already lost their value to other "
            "zones → nothing lost (CD-2/CD-3).") in said
    assert any(x.startswith("United Kingdom collected 26 IPCs (treasury now 55; 29 from its "
                            "territories, -8 convoy disruption, +5 national objectives; IN-1)")
               for x in said), said


def test_CD_1_own_and_allied_warships_change_nothing_and_all_three_conditions_are_needed() -> None:
    """CD-1: a zone disrupts only with the convoy symbol, a territory of the victim next to it and
    a warship of a power at war with it; British and American ships there do not prevent it;
    a German transport alone (no warship), a sub in a zone without the symbol (Sea Zone 110), or
    an Italian cruiser in a convoy zone next to no British territory change nothing."""
    g = Game(pos(UK, "mobilize", {
        "Sea Zone 109": {GER: {"destroyer": 1}, UK: {"battleship": 1, "destroyer": 2},
                         USA: {"cruiser": 1}},
        "Sea Zone 119": {GER: {"transport": 1}},
        "Sea Zone 110": {GER: {"submarine": 2}},
        "Sea Zone 93": {ITA: {"cruiser": 1}},
    }, war=[*START_WAR, [GER, USA]]))
    g.script(3)
    evs = g.end()
    assert [(e.zone, e.raiders, e.loss) for e in of(evs, ConvoyDisrupted)] == [
        ("Sea Zone 109", ((GER, "destroyer", 1),), 3)]


def test_CD_1_only_powers_at_war_disrupt() -> None:
    """CD-1 / §5.3: a warship of an other-side power not at war with the victim does nothing:
    German submarines next to the Soviet Union's coast while they are at peace, then at war."""
    zone = "Sea Zone 125"  # next to Norway in the map data: give Norway to the Soviet Union
    p = pos(SOV, "mobilize", {zone: {GER: {"submarine": 1}}}, owners={"Norway": SOV})
    g = Game(p)
    assert of(g.end(), ConvoyDisrupted) == []
    g = Game({**p, "war": [*START_WAR, [GER, SOV]]})
    g.script(1, 4)
    evs = g.end()
    assert [(e.zone, e.total, e.loss) for e in of(evs, ConvoyDisrupted)] == [(zone, 1, 1)]


def test_CD_2_dice_per_unit_carriers_none_planes_aboard_two() -> None:
    """CD-2 / A-20: battleship, cruiser, destroyer 1 die each, submarine 2, a plane aboard a
    carrier 2, the carrier none; faces of 4 or more are ignored. In Sea Zone 109: 1 battleship,
    1 carrier with 2 fighters, 1 submarine = 1 + 4 + 2 = 7 dice."""
    g = Game(pos(UK, "mobilize", {"Sea Zone 109": {GER: {
        "battleship": 1, "aircraft carrier": 1, "fighter": 2, "submarine": 1}}}))
    g.script(1, 1, 6, 6, 4, 2, 5)
    evs = g.end()
    (cd,) = of(evs, ConvoyDisrupted)
    assert [(r[0].split("|")[-1], r[1]) for r in cd.rolls] == [
        ("fighter", (1, 1, 6, 6)), ("battleship", (4,)), ("submarine", (2, 5))]
    assert (cd.total, cd.loss) == (4, 4)


def test_CD_2_planes_on_a_damaged_carrier_roll_no_convoy_dice() -> None:
    """§22.6 best reading: a damaged carrier cannot launch its planes: they roll no convoy dice;
    the carrier itself is a warship, so the zone is disrupted, with no dice at all."""
    g = Game(pos(UK, "mobilize", {"Sea Zone 109": {GER: {"aircraft carrier": 1, "fighter": 2}}},
                 damaged={"Sea Zone 109": {GER: {"aircraft carrier": 1}}}))
    evs = g.end()
    (cd,) = of(evs, ConvoyDisrupted)
    assert (cd.raiders, cd.rolls, cd.loss) == ((), (), 0)
    assert ("Convoy disruption in Sea Zone 109 against United Kingdom: enemy warships roll no "
            "dice → nothing lost (CD-2).") in lines(g, evs)


def test_CD_3_a_zone_loses_at_most_the_value_of_the_territories_it_touches() -> None:
    """CD-4's second example (A-19 best reading): a British submarine in Sea Zone 97 disrupts
    Italy in Italy's turn (up to 6, two dice); in Germany's turn it costs Germany at most 2, the
    value of Yugoslavia, the only German territory next to the zone."""
    g = Game(pos(ITA, "mobilize", {"Sea Zone 97": {UK: {"submarine": 1}}},
                 owners={"Yugoslavia": GER}))
    g.script(3, 3)
    (cd,) = of(g.end(), ConvoyDisrupted)
    assert (cd.power, cd.total, cd.cap, cd.loss) == (ITA, 6, 8, 6)
    g = Game(pos(GER, "mobilize", {"Sea Zone 97": {UK: {"submarine": 1}}},
                 owners={"Yugoslavia": GER}))
    g.script(3, 3)
    (cd,) = of(g.end(), ConvoyDisrupted)
    assert (cd.power, cd.total, cd.cap, cd.loss) == (GER, 6, 2, 2)


def test_CD_3_caps_allow_the_largest_total_whatever_the_order_of_zones() -> None:
    """CD-3 best reading: losses stand where no cap forbids them. Zone A (demand 5) touches
    United Kingdom (6) and Scotland (2); zone B (demand 2) touches only Scotland: A's 5 come
    from the United Kingdom, B's 2 from Scotland: 7 lost, not 5."""
    takes = allocate([("A", 5, ("Scotland", "United Kingdom")), ("B", 2, ("Scotland",))],
                     {"United Kingdom": 6, "Scotland": 2})
    assert {z: sum(t.values()) for z, t in takes.items()} == {"A": 5, "B": 2}
    assert takes["A"] == {"Scotland": 0, "United Kingdom": 5}


def test_IN_2_no_income_and_no_convoy_disruption_without_the_capital() -> None:
    """IN-2 / CAP-2: the United Kingdom without London skips Collect Income: no convoy dice,
    no income, whatever enemy submarines lie next to Scotland."""
    g = Game(pos(UK, "noncombat_move", {"Sea Zone 119": {GER: {"submarine": 2}}},
                 owners={"United Kingdom": GER}))
    evs = g.end()
    assert of(evs, ConvoyDisrupted) == [] and of(evs, ev.IncomeCollected) == []
    assert [e.power for e in of(evs, ev.TurnStarted)] == [ITA]


def test_IN_1_income_is_production_plus_objectives_minus_convoy_losses() -> None:
    """IN-1: convoy disruption first, then national production + objectives - losses. Italy
    (production 10 at the start) at war, a British destroyer in Sea Zone 97 rolling a 2: Mare
    Nostrum is broken by that surface warship; Italy holds Libya, Tobruk but not Morocco...: no
    objective; income 10 - 2 = 8."""
    g = Game(pos(ITA, "mobilize", {"Sea Zone 97": {UK: {"destroyer": 1}}}))
    g.script(2)
    evs = g.end()
    assert of(evs, ObjectivesPaid) == []
    assert [(e.power, e.amount) for e in of(evs, ev.IncomeCollected)] == [(ITA, 8)]


def test_IN_3_no_transfers_between_powers() -> None:
    """IN-3 / P-5: there is no order that gives IPCs to another power; income goes to the power
    collecting it only (Germany's income leaves Italy's treasury as it was)."""
    g = Game(pos(GER, "mobilize"))
    before = dict(g.state.treasury)
    evs = g.end()
    (inc,) = of(evs, ev.IncomeCollected)
    assert inc.power == GER
    assert {p: n for p, n in g.state.treasury.items() if p != GER} == {
        p: n for p, n in before.items() if p != GER}


# --------------------------------------------------------------------------------------------
# National objectives (§14.1), evaluated at the owner's Collect Income


def test_NO_germany_lebensraum_at_the_start_trade_and_scandinavia() -> None:
    """§14.1 Germany: not at war with the Soviet Union, 5 (wheat and oil trade); at war with the
    UK and France, Denmark and Norway German and Sweden neither pro-Allied nor Allied: 5."""
    assert paid(state(pos(GER, "purchase")), GER) == {"ger_trade": 5, "ger_scandinavia": 5}


def test_NO_germany_lebensraum_at_war_with_the_soviet_union() -> None:
    """§14.1 Germany at war with the USSR: the trade stops; 5 per city territory Germany holds
    (Novgorod, Russia: 10); Caucasus held by any Axis power (Italy here): 5."""
    s = state(pos(GER, "purchase", war=[*START_WAR, [GER, SOV]],
                  owners={"Novgorod": GER, "Russia": GER, "Caucasus": ITA}))
    assert paid(s, GER) == {"ger_russian_cities": 10, "ger_caucasus": 5, "ger_scandinavia": 5}
    s = state(pos(GER, "purchase", war=[*START_WAR, [GER, SOV]],
                  owners={"Novgorod": ITA, "Volgograd": ITA}))
    assert "ger_russian_cities" not in paid(s, GER)  # "Germany controls": Italy's do not count


def test_NO_germany_lebensraum_egypt_needs_a_german_land_unit_in_axis_egypt() -> None:
    """§14.1: at least one German land unit in Axis-controlled Egypt; an Italian unit, or a
    German plane, does not do."""
    for units, owner, want in (({GER: {"infantry": 1}}, ITA, True),
                               ({ITA: {"infantry": 1}}, ITA, False),
                               ({GER: {"fighter": 1}}, ITA, False),
                               ({GER: {"infantry": 1}}, UK, False)):
        s = state(pos(GER, "purchase", {"Egypt": units}, owners={"Egypt": owner}))
        assert ("ger_egypt" in paid(s, GER)) is want, (units, owner)


def test_NO_germany_lebensraum_sweden_allied_or_pro_allied_and_the_war_header() -> None:
    """§14.1: Sweden Allied-controlled, or pro-Allied (a strict neutral turned, SN-2), ends the
    Scandinavian bonus; at peace with the UK and France, none of that group is paid (§22.16
    group headers)."""
    assert "ger_scandinavia" not in paid(state(pos(GER, "purchase", owners={"Sweden": UK})),
                                         GER)
    s = state(pos(GER, "purchase", neutrals={"Sweden": "pro_allied"}))
    assert "ger_scandinavia" not in paid(s, GER)
    s = state(pos(GER, "purchase", neutrals={"Sweden": "pro_axis"}))
    assert "ger_scandinavia" in paid(s, GER)
    assert paid(state(pos(GER, "purchase", war=[[GER, SOV]])), GER) == {}


def test_NO_germany_lebensraum_middle_east_per_territory() -> None:
    """§14.1: 2 per territory Germany controls among Iraq, Persia and Northwest Persia."""
    s = state(pos(GER, "purchase", owners={"Iraq": GER, "Persia": GER, "Northwest Persia": ITA}))
    assert paid(s, GER)["ger_middle_east"] == 4


def test_NO_soviet_union_great_patriotic_war_only_at_war() -> None:
    """§14.1 Soviet Union, only while it is at war: nothing at the start (at peace with all);
    at war with Germany: Novosibirsk 9 (A-8), Sea Zone 125 free of Axis warships with Archangel
    Soviet and no other Allied units in Soviet territories 5."""
    assert paid(state(pos(SOV, "purchase")), SOV) == {}
    s = state(pos(SOV, "purchase", war=[*START_WAR, [GER, SOV]]))
    assert paid(s, SOV) == {"sov_novosibirsk": 9, "sov_convoy": 5}


def test_NO_soviet_union_convoy_broken_by_axis_warships_or_allied_guests() -> None:
    """§14.1: an Axis submarine in Sea Zone 125 (at war or not: "Axis warships"), a British
    infantry in Karelia (originally Soviet), or Archangel lost, each end the 5."""
    war = [*START_WAR, [GER, SOV]]
    for units, owners in (({"Sea Zone 125": {ITA: {"submarine": 1}}}, {}),
                          ({"Karelia": {UK: {"infantry": 1}}}, {}),
                          ({}, {"Archangel": GER})):
        s = state(pos(SOV, "purchase", units, war=war, owners=owners))
        assert "sov_convoy" not in paid(s, SOV), (units, owners)


def test_NO_soviet_union_axis_territories_per_territory_and_berlin_once() -> None:
    """§14.1: 3 per territory originally German, Italian or pro-Axis neutral that the USSR
    controls (Germany, Libya, Bulgaria: 9), and the first time it controls Germany (Berlin),
    10 once per game: recorded in used_bonuses, not paid again."""
    p = pos(SOV, "mobilize", war=ALL_WAR,
            owners={"Germany": SOV, "Libya": SOV, "Bulgaria": SOV})
    s = state(p)
    got = paid(s, SOV)
    assert got["sov_axis_territories"] == 9 and got["sov_berlin"] == 10
    g = Game(p)
    evs = g.end()
    (o,) = of(evs, ObjectivesPaid)
    assert ("sov_berlin", 10, ()) in o.paid
    assert g.json["used_bonuses"] == ["sov_berlin"]
    said = lines(g, evs)
    assert any("+10 The Great Patriotic War: the Soviet Union controls Germany (Berlin) for the "
               "first time (once per game)" in x for x in said), said
    assert any("+9 The Great Patriotic War: the Soviet Union controls originally German, Italian "
               "or pro-Axis neutral territories, each (Bulgaria, Germany, Libya: 3 each)" in x
               for x in said), said
    again = state({**p, "used_bonuses": ["sov_berlin"]})
    assert "sov_berlin" not in paid(again, SOV)


def test_NO_usa_sleeping_giant_only_at_war() -> None:
    """§14.1 USA, only while at war: Eastern and Central United States 20; Southeast Mexico,
    Central America and West Indies 5."""
    assert paid(state(pos(USA, "purchase")), USA) == {}
    s = state(pos(USA, "purchase", war=[*START_WAR, [GER, USA]]))
    assert paid(s, USA) == {"usa_homeland": 20, "usa_caribbean": 5}
    s = state(pos(USA, "purchase", war=[*START_WAR, [GER, USA]], owners={"West Indies": GER}))
    assert paid(s, USA) == {"usa_homeland": 20}


def test_NO_united_kingdom_british_empire_all_original_territories() -> None:
    """§14.1 UK, at war: all its original territories (Canada's included, P-4) held: 5; one lost
    (Gibraltar, worth 0) ends it."""
    assert paid(state(pos(UK, "purchase")), UK) == {"uk_empire": 5}
    assert paid(state(pos(UK, "purchase", owners={"Gibraltar": ITA})), UK) == {}
    assert paid(state(pos(UK, "purchase", war=[])), UK) == {}


def test_NO_italy_mare_nostrum_no_allied_surface_warships_in_92_to_99() -> None:
    """§14.1 Italy / A-7: no Allied surface warships in Sea Zones 92 to 99: 5. An American
    cruiser (at peace with Italy: still Allied) breaks it; a British submarine does not."""
    assert paid(state(pos(ITA, "purchase")), ITA) == {"ita_mare_nostrum": 5}
    assert paid(state(pos(ITA, "purchase", {"Sea Zone 99": {USA: {"cruiser": 1}}})), ITA) == {}
    s = state(pos(ITA, "purchase", {"Sea Zone 92": {UK: {"submarine": 1}}}))
    assert paid(s, ITA) == {"ita_mare_nostrum": 5}


def test_NO_italy_mare_nostrum_axis_holdings_and_middle_east() -> None:
    """§14.1: the Axis holds at least 3 of Gibraltar, Southern France, Greece, Egypt: 5; all of
    Morocco, Algeria, Tunisia, Libya, Tobruk, Alexandria: 5; 2 per Iraq, Persia, Northwest
    Persia held by Italy."""
    s = state(pos(ITA, "purchase", owners={
        "Gibraltar": ITA, "Southern France": GER, "Greece": ITA,
        "Morocco": GER, "Algeria": ITA, "Tunisia": ITA, "Alexandria": ITA, "Iraq": ITA}))
    assert paid(s, ITA) == {"ita_mare_nostrum": 5, "ita_mediterranean": 5,
                            "ita_north_africa": 5, "ita_middle_east": 2}
    s = state(pos(ITA, "purchase", owners={"Gibraltar": ITA, "Southern France": GER}))
    assert "ita_mediterranean" not in paid(s, ITA)


def test_NO_france_has_none_and_no_objective_is_paid_in_another_turn() -> None:
    """§14.1: France has no national objectives; objectives are paid only at their power's own
    Collect Income (Germany's are not paid in France's)."""
    assert paid(state(pos(FRA, "purchase")), FRA) == {}
    g = Game(pos(FRA, "mobilize"))
    evs = g.end()
    assert of(evs, ObjectivesPaid) == []
    assert [(e.power, e.amount) for e in of(evs, ev.IncomeCollected)] == [(FRA, 17)]


def test_NO_paid_at_collect_income_and_shown_in_the_income_line() -> None:
    """§14 / IN-1: Germany's objectives at its Collect Income: 30 + 10 = 40, each shown."""
    g = Game(pos(GER, "mobilize"))
    evs = g.end()
    assert [(e.power, e.amount) for e in of(evs, ev.IncomeCollected)] == [(GER, 40)]
    said = lines(g, evs)
    assert ("National objectives of Germany: +5 Lebensraum: not at war with the Soviet Union "
            "(Soviet wheat and oil trade); +5 Lebensraum: Germany controls Denmark and Norway, "
            "and Sweden is neither pro-Allied nor Allied-controlled → +10 IPCs (§14).") in said
    assert any(x.startswith("Germany collected 40 IPCs (treasury now 70; 30 from its "
                            "territories, +10 national objectives; IN-1)") for x in said), said


def test_NO_used_bonuses_position_key() -> None:
    """COMMANDS.md: 'used_bonuses' lists one-time bonuses already paid; unknown ids are refused;
    1941 has none."""
    s = state(pos(GER, "purchase", used_bonuses=["fr_liberation"]))
    assert no.used(s) == {"fr_liberation"}
    from rules.errors import InvalidOrder

    with pytest.raises(InvalidOrder, match="unknown sov_paris"):
        engine.new_game("europe1940", (), pos(GER, "purchase", used_bonuses=["sov_paris"]))
    with pytest.raises(InvalidOrder, match="no one-time bonuses"):
        engine.new_game("1941", (), {"used_bonuses": []})
    assert "used_bonuses" not in Game().json


# --------------------------------------------------------------------------------------------
# Capitals and liberation (§10.7-§10.8), the income side


def captured(evs: list[ev.Event]) -> list[tuple[str, str, str, str]]:
    return [(e.space, e.by, e.owner, e.how) for e in of(evs, ev.TerritoryCaptured)]


def test_CAP_1_capturing_a_capital_takes_the_whole_treasury_even_without_ones_own() -> None:
    """CAP-1: Germany, its own capital held by the UK, takes Russia (Moscow): the Soviet
    Union's 20 unspent IPCs go to Germany at once."""
    g = Game(pos(GER, "combat_move", {"Smolensk": {GER: {"infantry": 1}}},
                 owners={"Germany": UK, "Smolensk": GER}, war=ALL_WAR,
                 treasury={SOV: 20, GER: 3}))
    g.move({"infantry": 1}, "Smolensk", "Russia")
    evs = g.end()
    (cap,) = of(evs, ev.TerritoryCaptured)
    assert (cap.space, cap.owner, cap.seized, cap.seized_from) == ("Russia", GER, 20, SOV)
    assert (g.state.treasury[GER], g.state.treasury[SOV]) == (23, 0)


def test_CAP_2_a_power_without_its_capital_plays_only_movement_and_combat() -> None:
    """CAP-2 / TS-5: France without Paris: Purchase & Repair, Mobilize and Collect Income are
    skipped; no income, no purchase."""
    g = Game(pos(ITA, "collect_income", owners={"France": GER}))
    assert g.state.power == FRA and g.state.phase == "combat_move"
    first = g.events[-1]
    assert isinstance(first, ev.PhaseChanged) and first.skipped == ("purchase",)
    evs = g.end()
    evs += g.end()
    evs += g.end()
    assert of(evs, ev.IncomeCollected) == []
    skipped = [e.skipped for e in of(evs, ev.PhaseChanged) if e.skipped]
    assert skipped == [("mobilize", "collect_income")]
    assert g.state.power == GER


def test_LI_2_an_allys_territory_is_captured_while_its_capital_is_enemy_held() -> None:
    """LI-2: with Paris German, the UK taking Normandy Bordeaux (originally French) captures it
    for itself and counts its income."""
    g = Game(pos(UK, "combat_move", {"United Kingdom": {UK: {"infantry": 1}},
                                     "Sea Zone 110": {UK: {"transport": 1, "infantry": 1}}},
                 owners={"France": GER, "Normandy Bordeaux": GER}))
    g.move({"infantry": 1}, "Sea Zone 110", "Normandy Bordeaux")
    evs = g.end()
    assert captured(evs) == [("Normandy Bordeaux", UK, UK, "no battle")]


def test_CAP_3_CAP_4_CAP_5_FR_1_liberating_paris() -> None:
    """CAP-3: the UK liberates France (Paris): it returns to France, and so do France's other
    original territories held by the UK (Normandy Bordeaux). CAP-4: no IPCs change hands (the
    German treasury stays). FR-1: France owes its free units at once; Conduct Combat cannot end
    until it places them; 'free units 2 infantry, 1 artillery in France' (10 of 12 IPCs)."""
    g = Game(pos(UK, "combat_move", {"Normandy Bordeaux": {UK: {"infantry": 1}}},
                 owners={"France": GER, "Normandy Bordeaux": UK},
                 treasury={GER: 9, FRA: 0, UK: 4}))
    g.move({"infantry": 1}, "Normandy Bordeaux", "France")
    evs = g.end()
    assert captured(evs) == [("France", UK, FRA, "liberation"),
                             ("Normandy Bordeaux", FRA, FRA, "capital liberated")]
    assert (g.state.treasury[GER], g.state.treasury[UK], g.state.treasury[FRA]) == (9, 4, 0)
    (owed,) = of(evs, LiberationBonusOwed)
    assert (owed.power, owed.space, owed.value) == (FRA, "France", 12)
    assert ("France is liberated: France places free units there worth up to 12 IPCs (e.g. "
            "'free units 4 infantry in France', FR-1).") in lines(g, evs)
    assert [(p.power, p.kind, p.space) for p in engine.pending(g.state)] == [
        (FRA, FREE_UNITS, "France")]
    g.refuse(od.EndPhase(phase="conduct_combat"), "France first places its free units in "
             "France, worth up to 12 IPCs")
    g.refuse(FreeUnits(units={"tank": 1, "artillery": 2}, space="France"),
             "1 tank, 2 artillery cost 14 IPCs; the liberation bonus is worth 12 IPCs at normal "
             "costs (FR-1).", power=FRA)
    g.refuse(FreeUnits(units={"destroyer": 1}, space="France"),
             "Free units are land or air units (FR-1): not destroyer.", power=FRA)
    g.refuse(FreeUnits(units={"infantry": 1}, space="Normandy Bordeaux"),
             "France's free units go to France, not Normandy Bordeaux (FR-1).", power=FRA)
    g.refuse(FreeUnits(units={"infantry": 1}, space="France"), "owes no free units",
             power=UK)
    evs = g.do(FreeUnits(units={"infantry": 2, "artillery": 1}, space="France"), FRA)
    (placed,) = of(evs, FreeUnitsPlaced)
    assert placed.cost == 10
    # CO-4/LI-1: the major complex Germany held is taken back as a minor one
    assert g.units("France", FRA) == {"minor industrial complex": 1, "infantry": 2,
                                      "artillery": 1}
    assert ("France placed free units in France: 2 infantry, 1 artillery (10 IPCs of the "
            "liberation bonus, FR-1).") in lines(g, evs)
    assert g.json["used_bonuses"] == ["fr_liberation"]
    assert engine.pending(g.state)[0].kind is not FREE_UNITS
    g.end()  # Conduct Combat ends now


def test_FR_1_once_per_game_and_the_referees_default() -> None:
    """FR-1: the bonus is owed once per game (used_bonuses); an absent French player gets the
    referee's answer (best reading): as many of the cheapest unit as 12 IPCs buy, 4 infantry."""
    from rules.defaults import default_orders

    p = pos(UK, "combat_move", {"Normandy Bordeaux": {UK: {"infantry": 1}}},
            owners={"France": GER, "Normandy Bordeaux": UK})
    g = Game(p)
    g.move({"infantry": 1}, "Normandy Bordeaux", "France")
    g.end()
    (answer,) = [o for o in default_orders(g.state) if isinstance(o, FreeUnits)]
    assert answer == FreeUnits(power=FRA, units={"infantry": 4}, space="France")
    g.do(answer)
    assert g.units("France", FRA) == {"minor industrial complex": 1, "infantry": 4}
    g = Game({**p, "used_bonuses": ["fr_liberation"]})
    g.move({"infantry": 1}, "Normandy Bordeaux", "France")
    evs = g.end()
    assert of(evs, LiberationBonusOwed) == [] and g.owner("France") == FRA


def test_FR_1_the_order_as_players_write_it() -> None:
    """COMMANDS.md: 'free units 2 infantry, 1 artillery in France'."""
    from rules.language.names import names_for
    from service.language import parse

    got = parse("free units 2 infantry, 1 artillery in Paris", names_for("europe1940"))
    assert got == FreeUnits(units={"infantry": 2, "artillery": 1}, space="France")


def test_IN_1_the_us_round_3_declaration_comes_before_income_and_objectives() -> None:
    """IN-1 / §5.4: in round 3 the USA may declare war at the start of its Collect Income,
    before income and national objectives are worked out: declared, it is at war and collects
    its objectives (20 + 5) with its 35."""
    from rules.language.names import names_for
    from service.language import parse

    g = Game(pos(USA, "mobilize", round=3))
    g.end()
    assert g.state.phase == "collect_income" and of(g.events, ev.IncomeCollected) == []
    evs = g.do(parse("declare war on Germany", names_for("europe1940")), USA)
    evs += g.end()
    (o,) = of(evs, ObjectivesPaid)
    assert [(i, n) for i, n, _ in o.paid] == [("usa_homeland", 20), ("usa_caribbean", 5)]
    assert [(e.power, e.amount) for e in of(evs, ev.IncomeCollected)] == [(USA, 60)]
