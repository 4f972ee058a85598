"""Europe 1940 politics (digest §5, §4.2, §22.1, §22.3, §22.17): declaring war (DW-1..DW-5), the
power-specific rules (§5.4), powers not at war with each other (NW-1..NW-5), hostility by the
war matrix (M-4, M-5), and canals and straits (CS-1..CS-8)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import board, engine, legal
from rules import events as ev
from rules import orders as od
from rules.errors import RulesError
from rules.mechanisms.politics import BansLifted, DeclareWar, WarDeclared
from service.describe import describe
from service.language import names_for, parse
from tests.rules.helpers import Game

E40 = "europe1940"
START_WAR = [["Germany", "United Kingdom"], ["Germany", "France"],
             ["United Kingdom", "Italy"], ["Italy", "France"]]


def game(power: str = "Germany", phase: str = "combat_move", round: int = 1,
         units: dict[str, Any] | None = None, war: list[list[str]] | None = None,
         owners: dict[str, str | None] | None = None, clear: bool = True) -> Game:
    pos: dict[str, Any] = {"edition": E40, "round": round, "power": power, "phase": phase,
                           "clear_all_units": clear, "units": units or {}}
    if war is not None:
        pos["war"] = war
    if owners:
        pos["owners"] = owners
    return Game(pos)


def words(g: Game, events: list[ev.Event]) -> list[str]:
    """What the players read for ``events`` (just applied to ``g``)."""
    s = engine.replay(g.events[: len(g.events) - len(events)])
    out = []
    for e in events:
        out.append(describe(s, e))
        s = engine.evolve(s, e)
    return out


def declare(g: Game, on: str, power: str | None = None) -> list[ev.Event]:
    return g.do(DeclareWar(on=on), power)


def wars(g: Game) -> list[list[str]]:
    return list(g.json["war"])


# --------------------------------------------------------------------------------------------
# Declaring war (DW-1..DW-5)


def test_DW_2_germany_declares_war_on_the_soviet_union_at_the_start_of_combat_move() -> None:
    g = game()
    order = parse("declare war on USSR", names_for(E40))
    assert order == DeclareWar(on="Soviet Union")
    evs = g.do(order, "Germany")
    assert [type(e) for e in evs] == [WarDeclared]
    assert words(g, evs) == ["Germany declares war on the Soviet Union (DW-2)."]
    assert ["Germany", "Soviet Union"] in wars(g)
    assert g.state.enemy("Germany", "Soviet Union") and g.state.enemy("Soviet Union", "Germany")


def test_DW_2_declared_only_before_any_unit_moves_in_combat_move() -> None:
    g = game(units={"Western Germany": {"Germany": {"infantry": 1}},
                    "Holland Belgium": {"United Kingdom": {"infantry": 1}}},
             owners={"Holland Belgium": "United Kingdom"})
    g.move({"infantry": 1}, "Western Germany", "Holland Belgium")
    g.refuse(DeclareWar(on="Soviet Union"), "Germany has moved units in this Combat Move: war is "
             "declared at its start, before any unit moves (DW-2).")


def test_DW_2_declared_only_in_combat_move_on_ones_own_turn() -> None:
    g = game(phase="purchase")
    g.refuse(DeclareWar(on="Soviet Union"), "Germany declares war only on its own turn, at the "
             "start of its Combat Move before any unit moves (DW-2).")
    g = game(phase="noncombat_move")
    g.refuse(DeclareWar(on="Soviet Union"), "(DW-2)")
    g = game()
    g.refuse(DeclareWar(on="Germany"), "It is Germany's turn", power="Soviet Union")


def test_DW_1_only_on_a_power_of_the_other_side_not_yet_at_war() -> None:
    g = game(war=START_WAR)
    g.refuse(DeclareWar(on="Italy"), "Germany and Italy are on one side; a power declares war "
             "only on a power of the other side (DW-1).")
    g.refuse(DeclareWar(on="United Kingdom"),
             "Germany is already at war with the United Kingdom (DW-4).")
    g.refuse(DeclareWar(on="Germany"), "(DW-1)")


def test_DW_4_a_declaration_puts_only_the_two_at_war() -> None:
    g = game()
    declare(g, "United States")
    s = g.state
    assert s.enemy("Germany", "United States")
    assert not s.enemy("Italy", "United States") and s.at_peace("Italy", "United States")
    assert not s.enemy("Germany", "Soviet Union")
    assert wars(g) == [["Germany", "United States"], ["Germany", "United Kingdom"],
                       ["Germany", "France"], ["United Kingdom", "Italy"], ["Italy", "France"]]


def test_DW_4_germany_declares_on_both_the_usa_and_the_ussr_at_one_combat_move_start() -> None:
    # §5.4 Germany: may declare on the USA and/or the USSR; the relations are independent.
    g = game()
    declare(g, "United States")
    declare(g, "Soviet Union")
    assert g.state.enemy("Germany", "United States") and g.state.enemy("Germany", "Soviet Union")
    assert not g.state.enemy("Soviet Union", "Italy")


def test_DW_5_a_declaration_a_political_rule_permits_after_another_powers_act_is_provoked() -> None:
    # DW-5's example: once Germany declares war on the USA, a US declaration on Italy is
    # provoked; Germany's own declaration is not.
    g = game()
    evs = declare(g, "United States")
    assert not evs[0].provoked  # type: ignore[attr-defined]
    g = game(power="United States", war=[*START_WAR, ["Germany", "United States"]])
    evs = declare(g, "Italy")
    assert evs[0].provoked  # type: ignore[attr-defined]
    assert words(g, evs) == ["The United States declares war on Italy (provoked) (DW-2)."]


def test_DW_3_transports_already_in_a_zone_just_made_hostile_may_still_load_there() -> None:
    units = {"Poland": {"Germany": {"infantry": 2}},
             "Sea Zone 115": {"Germany": {"transport": 1}, "Soviet Union": {"cruiser": 1}}}
    g = game(units=units)
    assert not board.is_hostile_sea(g.state, "Sea Zone 115", "Germany")  # M-5: not at war
    evs = declare(g, "Soviet Union")
    assert board.is_hostile_sea(g.state, "Sea Zone 115", "Germany")  # DW-3
    assert words(g, evs) == ["Germany declares war on the Soviet Union (DW-2). Its transports in "
                             "Sea Zone 115 may still load there this Combat Move (DW-3)."]
    g.move({"infantry": 2}, "Poland", "Sea Zone 115")
    assert g.units("Sea Zone 115", "Germany") == {"transport": 1, "infantry": 2}
    # Without a declaration this turn the zone is simply hostile: no loading there (UT-12).
    g = game(units=units, war=[*START_WAR, ["Germany", "Soviet Union"]])
    g.refuse(od.Move(units={"infantry": 1}, frm="Poland", to="Sea Zone 115"),
             "Transports may not load in hostile Sea Zone 115")


# --------------------------------------------------------------------------------------------
# Power-specific rules (§5.4)


def test_5_4_the_ussr_may_not_declare_on_a_european_axis_power_before_its_4th_turn() -> None:
    g = game(power="Soviet Union", round=3)
    g.refuse(DeclareWar(on="Germany"), "The Soviet Union may not declare war on Germany before "
             "round 4, unless Germany or Italy declares war on it first or the other side takes "
             "United Kingdom (§5.4).")
    g.refuse(DeclareWar(on="Italy"), "may not declare war on Italy before round 4")
    g = game(power="Soviet Union", round=4)
    evs = declare(g, "Italy")
    assert words(g, evs) == ["The Soviet Union declares war on Italy (DW-2)."]


def test_5_4_the_ussr_ban_lifts_when_a_european_axis_power_declares_war_on_it_first() -> None:
    g = game(power="Soviet Union", round=2, war=[*START_WAR, ["Germany", "Soviet Union"]])
    evs = declare(g, "Italy")
    assert evs[0].provoked  # type: ignore[attr-defined]


def test_5_4_the_ussr_ban_lifts_when_london_is_axis_held() -> None:
    g = game(power="Soviet Union", round=2, owners={"United Kingdom": "Germany"})
    evs = declare(g, "Germany")
    assert words(g, evs) == ["The Soviet Union declares war on Germany (provoked) (DW-2)."]


def test_5_4_the_usa_may_not_declare_on_the_axis_before_a_trigger() -> None:
    g = game(power="United States", round=2)
    g.refuse(DeclareWar(on="Germany"), "The United States may not declare war on Germany before "
             "round 4, unless Germany or Italy declares war on it first or the other side takes "
             "any of United Kingdom, ")
    # any territory in North America, Canada's included (the data names them).
    g = game(power="United States", round=2, owners={"Quebec": "Germany"})
    declare(g, "Italy")
    assert g.state.enemy("United States", "Italy")


def test_5_4_the_usa_may_declare_once_an_axis_power_declared_war_on_it() -> None:
    g = game(power="United States", round=1, war=[*START_WAR, ["Italy", "United States"]])
    declare(g, "Germany")
    assert g.state.enemy("United States", "Germany")


def test_5_4_the_usa_declares_at_the_start_of_its_collect_income_in_round_3() -> None:
    g = game(power="United States", phase="mobilize", round=3, units={
        "Eastern United States": {"United States": {"infantry": 1}}}, clear=True)
    g.end()
    assert g.state.phase == "collect_income" and g.state.power == "United States"
    assert engine.pending(g.state)[0].power == "United States"
    assert DeclareWar(power="United States", on="Germany") in list(
        legal.legal_orders(g.state, "United States"))
    evs = declare(g, "Germany")
    assert words(g, evs) == ["The United States declares war on Germany (§5.4)."]
    declare(g, "Italy")
    treasury = g.state.treasury["United States"]
    evs = g.end()
    assert any(isinstance(e, ev.IncomeCollected) for e in evs)
    assert g.state.treasury["United States"] > treasury
    assert g.state.power == "United Kingdom"


def test_5_4_the_usa_may_let_its_round_3_collect_income_pass_without_declaring() -> None:
    g = game(power="United States", phase="mobilize", round=3)
    g.end()
    assert g.state.phase == "collect_income"
    g.end()
    assert g.state.power == "United Kingdom" and not g.state.enemy("United States", "Germany")
    # In round 2 Collect Income does not wait.
    g = game(power="United States", phase="mobilize", round=2)
    g.end()
    assert g.state.power == "United Kingdom"


def test_5_4_a_capture_of_london_lifts_the_bans_for_good() -> None:
    g = game(phase="conduct_combat", round=2, owners={"United Kingdom": "Germany"})
    evs = g.end()
    lifted = [e for e in evs if isinstance(e, BansLifted)]
    assert len(lifted) == 1
    assert words(g, evs)[[type(e) for e in evs].index(BansLifted)] == (
        "Germany holds United Kingdom: the Soviet Union and the United States may declare war "
        "on Germany and Italy from now on (§5.4).")
    # London liberated later: the bans stay lifted.
    s = replace(g.state, owners={**g.state.owners, "United Kingdom": "United Kingdom"},
                power="Soviet Union", phase="combat_move")
    assert DeclareWar(power="Soviet Union", on="Germany") in list(
        legal.legal_orders(s, "Soviet Union"))


def test_5_4_us_sea_units_end_only_next_to_us_territory_while_neutral() -> None:
    units = {"Sea Zone 101": {"United States": {"cruiser": 1, "transport": 1}}}
    g = game(power="United States", phase="noncombat_move", units=units)
    g.refuse(od.Move(units={"cruiser": 1}, frm="Sea Zone 101", to="Sea Zone 106"),
             "While the United States is at war with neither Germany nor Italy, its sea units "
             "end their moves only in sea zones next to a territory it controls; its warships, "
             "not transports, may also patrol to Sea Zone 102 (§5.4); Sea Zone 106 is not one.")
    g.refuse(od.Move(units={"transport": 1}, frm="Sea Zone 101", to="Sea Zone 102"), "(§5.4)")
    g.move({"cruiser": 1}, "Sea Zone 101", "Sea Zone 102")  # a long-range patrol
    g.move({"transport": 1}, "Sea Zone 101", "Sea Zone 89")  # next to West Indies
    g = game(power="United States", phase="noncombat_move", units=units,
             war=[*START_WAR, ["Germany", "United States"]])
    g.move({"cruiser": 1}, "Sea Zone 101", "Sea Zone 106")


# --------------------------------------------------------------------------------------------
# Powers not at war (NW-1..NW-5)


def test_NW_5_a_power_at_war_with_nobody_skips_combat_move_and_conduct_combat() -> None:
    g = game(power="Soviet Union", phase="purchase")
    evs = g.end()
    assert g.state.phase == "noncombat_move"
    changed = [e for e in evs if isinstance(e, ev.PhaseChanged)]
    assert changed[-1].skipped == ("combat_move", "conduct_combat")
    assert words(g, evs)[-1] == ("Soviet Union: Noncombat Move. Skipped Combat Move, Conduct "
                                 "Combat (NW-5).")


def test_NW_5_a_neutral_power_that_may_declare_enters_combat_move_but_only_declares() -> None:
    units = {"Eastern Poland": {"Soviet Union": {"infantry": 1}},
             "Poland": {"Germany": {"infantry": 1}}}
    g = game(power="Soviet Union", phase="purchase", round=4, units=units)
    g.end()
    assert g.state.phase == "combat_move"
    g.refuse(od.Move(units={"infantry": 1}, frm="Eastern Poland", to="Poland"),
             "The Soviet Union is at war with nobody: a power not at war makes no combat moves "
             "(NW-5). Declare war first ('declare war on Germany'), or 'end' the phase.")
    declare(g, "Germany")
    g.move({"infantry": 1}, "Eastern Poland", "Poland")
    g.end()
    assert g.state.phase == "conduct_combat" and "Poland" in g.state.battles


def test_NW_2_no_attack_on_a_territory_of_a_power_one_is_not_at_war_with() -> None:
    units = {"Poland": {"Germany": {"infantry": 1}}, "Germany": {"Germany": {"fighter": 1}},
             "Eastern Poland": {"Soviet Union": {"infantry": 1}}}
    g = game(units=units)
    text = ("Eastern Poland is held by the Soviet Union, which Germany is not at war with: its "
            "units may neither attack it nor enter or pass through it (NW-2/NW-3). Declare war "
            "at the start of Combat Move first.")
    g.refuse(od.Move(units={"infantry": 1}, frm="Poland", to="Eastern Poland"), text)
    g.refuse(od.Move(units={"fighter": 1}, frm="Germany", to="Eastern Poland"), text)
    declare(g, "Soviet Union")
    g.move({"infantry": 1}, "Poland", "Eastern Poland")


def test_NW_2_no_attack_on_a_territory_holding_units_of_a_power_one_is_not_at_war_with() -> None:
    units = {"Western Germany": {"Germany": {"infantry": 1}},
             "Holland Belgium": {"France": {"infantry": 1}, "Soviet Union": {"infantry": 1}}}
    g = game(units=units, owners={"Holland Belgium": "France"})
    g.refuse(od.Move(units={"infantry": 1}, frm="Western Germany", to="Holland Belgium"),
             "Holland Belgium holds units of the Soviet Union, which Germany is not at war with: "
             "a power may not attack a territory holding units of a power it is not at war with "
             "(NW-2).")


def test_NW_2_a_sea_zone_with_units_at_war_and_at_peace_may_be_attacked() -> None:
    units = {"Sea Zone 113": {"Germany": {"battleship": 1}},
             "Sea Zone 112": {"United Kingdom": {"destroyer": 1}, "Soviet Union": {"cruiser": 1}}}
    g = game(units=units)
    g.move({"battleship": 1}, "Sea Zone 113", "Sea Zone 112")
    g.end()
    b = g.state.battles["Sea Zone 112"]
    assert b.defenders == ("United Kingdom",)
    soviet = [u.id for u in g.state.units_in("Sea Zone 112") if u.owner == "Soviet Union"]
    assert soviet and not set(soviet) & set(b.defending)  # ignored, not at war (NW-2)
    assert not g.state.enemy("Germany", "Soviet Union")


def test_NW_1_ships_of_powers_not_at_war_do_not_block_each_other() -> None:
    units = {"Sea Zone 103": {"Germany": {"destroyer": 1}},
             "Sea Zone 102": {"United States": {"cruiser": 1}}}
    g = game(phase="noncombat_move", units=units)
    assert not board.is_hostile_sea(g.state, "Sea Zone 102", "Germany")  # M-5
    g.move({"destroyer": 1}, "Sea Zone 103", "Sea Zone 101", "Sea Zone 102")
    assert g.units("Sea Zone 101", "Germany") == {"destroyer": 1}


def test_NW_3_a_neutral_power_and_its_allies_keep_out_of_each_others_territories() -> None:
    units = {"Eastern United States": {"United States": {"infantry": 1, "fighter": 1}},
             "Quebec": {"United Kingdom": {"infantry": 1}}}
    g = game(power="United States", phase="noncombat_move", units=units)
    g.refuse(od.Move(units={"infantry": 1}, frm="Eastern United States", to="Quebec"),
             "Quebec is held by the United Kingdom; while the United States is at war with "
             "nobody, allies do not enter each other's territories, nor share transports or "
             "carriers (NW-3/NW-4).")
    g.refuse(od.Move(units={"fighter": 1}, frm="Eastern United States", to="Quebec"),
             "(NW-3/NW-4)")
    g = game(power="United Kingdom", phase="noncombat_move", units=units, war=START_WAR)
    g.refuse(od.Move(units={"infantry": 1}, frm="Quebec", to="Eastern United States"),
             "Eastern United States is held by the United States; while the United States is at "
             "war with nobody")
    # At war, allies share territories again (NW-1).
    g = game(power="United States", phase="noncombat_move", units=units,
             war=[*START_WAR, ["Germany", "United States"]])
    g.move({"infantry": 1}, "Eastern United States", "Quebec")


def test_NW_1_a_neutral_power_does_not_board_an_allys_transport() -> None:
    units = {"Eastern United States": {"United States": {"infantry": 1}},
             "Sea Zone 101": {"United Kingdom": {"transport": 1}}}
    g = game(power="United States", phase="noncombat_move", units=units)
    g.refuse(od.Move(units={"infantry": 1}, frm="Eastern United States", to="Sea Zone 101"),
             "The United States may not board or land on the United Kingdom's ships in Sea Zone "
             "101: while the United States is at war with nobody, allies share neither "
             "territories nor transports nor carriers (NW-1/NW-3).")
    g = game(power="United States", phase="noncombat_move", units=units,
             war=[*START_WAR, ["Italy", "United States"]])
    g.move({"infantry": 1}, "Eastern United States", "Sea Zone 101")


def test_NW_4_a_neutral_power_lands_no_aircraft_on_allied_carriers() -> None:
    units = {"Eastern United States": {"United States": {"fighter": 1}},
             "Sea Zone 101": {"United Kingdom": {"aircraft carrier": 1}}}
    g = game(power="United States", phase="noncombat_move", units=units)
    g.refuse(od.Move(units={"fighter": 1}, frm="Eastern United States", to="Sea Zone 101"),
             "The United States may not board or land on the United Kingdom's ships in Sea Zone "
             "101: while the United States is at war with nobody")


# --------------------------------------------------------------------------------------------
# Hostility by the war matrix (M-4, M-5)


def test_M_4_a_territory_of_a_power_one_is_not_at_war_with_is_neutral_to_it() -> None:
    g = game(war=START_WAR)
    s = g.state
    assert board.is_hostile_territory(s, "France", "Germany")  # at war: hostile
    assert not board.is_hostile_territory(s, "Eastern Poland", "Germany")  # at peace: neutral
    assert not s.friendly(s.owners["Eastern Poland"], "Germany")
    assert board.barred_territory(s, "Eastern Poland", "Germany") is not None
    assert board.barred_territory(s, "Poland", "Germany") is None  # its own


def test_M_5_a_sea_zone_is_hostile_only_by_surface_warships_of_a_power_at_war() -> None:
    g = game(units={"Sea Zone 115": {"Soviet Union": {"submarine": 1, "transport": 1}},
                    "Sea Zone 114": {"Soviet Union": {"destroyer": 1}}},
             war=[*START_WAR, ["Germany", "Soviet Union"]])
    s = g.state
    assert not board.is_hostile_sea(s, "Sea Zone 115", "Germany")  # subs and transports
    assert board.is_hostile_sea(s, "Sea Zone 114", "Germany")
    assert not board.is_hostile_sea(s, "Sea Zone 114", "Italy")  # Italy is not at war with it


# --------------------------------------------------------------------------------------------
# Canals and straits (CS-1..CS-8)


def test_CS_1_a_passage_opens_to_the_side_that_held_it_at_the_start_of_the_turn() -> None:
    units = {"Sea Zone 91": {"Germany": {"destroyer": 1}}}
    g = game(phase="noncombat_move", units=units, owners={"Gibraltar": "Italy"})
    g.move({"destroyer": 1}, "Sea Zone 91", "Sea Zone 92")
    # Taken this turn: not usable until a later turn (CS-1).
    g = game(phase="noncombat_move", units=units)
    g.state = replace(g.state, owners={**g.state.owners, "Gibraltar": "Germany"})
    with pytest.raises(RulesError) as info:
        g.do(od.Move(units={"destroyer": 1}, frm="Sea Zone 91", to="Sea Zone 92"))
    assert "Strait of Gibraltar" in str(info.value) and "at the start of this turn" in str(
        info.value)


def test_CS_2_a_passage_held_by_a_power_one_is_not_at_war_with_is_taken_as_refused() -> None:
    g = game(phase="noncombat_move", units={"Sea Zone 113": {"Germany": {"cruiser": 1}}},
             owners={"Denmark": "Soviet Union"})
    g.refuse(od.Move(units={"cruiser": 1}, frm="Sea Zone 113", to="Sea Zone 112"),
             "The Danish Straits between Sea Zone 113 and Sea Zone 112 is held by the Soviet "
             "Union, which Germany is not at war with: its ships pass only with that power's "
             "permission, which the referee takes as refused (CS-2, best reading).")


def test_CS_3_CS_5_closed_when_the_controller_is_neutral_or_at_war_with_you() -> None:
    g = game(power="Italy", phase="noncombat_move",
             units={"Sea Zone 99": {"Italy": {"cruiser": 1}}})
    g.refuse(od.Move(units={"cruiser": 1}, frm="Sea Zone 99", to="Sea Zone 100"),
             "The Turkish Straits between Sea Zone 99 and Sea Zone 100 is closed to all ships: "
             "Turkey was neutral at the start of this turn; no side passes until it is taken "
             "(CS-3/CS-5).")
    g = game(power="United Kingdom", phase="noncombat_move",
             units={"Sea Zone 113": {"United Kingdom": {"cruiser": 1}}}, war=START_WAR)
    g.refuse(od.Move(units={"cruiser": 1}, frm="Sea Zone 113", to="Sea Zone 112"),
             "The Danish Straits between Sea Zone 113 and Sea Zone 112 is closed to Allies ships: "
             "Allies did not control Denmark at the start of this turn (CS-1).")  # German


def test_CS_4_suez_needs_egypt_and_trans_jordan_and_is_closed_to_all_when_split() -> None:
    units = {"Sea Zone 98": {"United Kingdom": {"cruiser": 1}}}
    g = game(power="United Kingdom", phase="noncombat_move", units=units, war=START_WAR)
    g.move({"cruiser": 1}, "Sea Zone 98", "Sea Zone 81")
    g = game(power="United Kingdom", phase="noncombat_move", units=units, war=START_WAR,
             owners={"Trans-Jordan": "Italy"})
    g.refuse(od.Move(units={"cruiser": 1}, frm="Sea Zone 98", to="Sea Zone 81"), "Suez Canal")
    g = game(power="Italy", phase="noncombat_move", units={"Sea Zone 98": {"Italy": {
        "cruiser": 1}}}, war=START_WAR, owners={"Trans-Jordan": "Italy"})
    g.refuse(od.Move(units={"cruiser": 1}, frm="Sea Zone 98", to="Sea Zone 81"), "Suez Canal")


def test_CS_6_submarines_of_any_power_pass_gibraltar() -> None:
    units = {"Sea Zone 91": {"Germany": {"submarine": 1, "destroyer": 1}}}
    g = game(phase="noncombat_move", units=units, war=START_WAR)
    g.refuse(od.Move(units={"destroyer": 1}, frm="Sea Zone 91", to="Sea Zone 92"),
             "Strait of Gibraltar")
    g.move({"submarine": 1}, "Sea Zone 91", "Sea Zone 92")
    # Not another passage: the Danish Straits stay closed to submarines.
    g = game(power="United Kingdom", phase="noncombat_move", war=START_WAR,
             units={"Sea Zone 113": {"United Kingdom": {"submarine": 1}}})
    g.refuse(od.Move(units={"submarine": 1}, frm="Sea Zone 113", to="Sea Zone 112"),
             "Danish Straits")


def test_CS_7_air_units_ignore_canals_and_straits() -> None:
    g = game(phase="noncombat_move", units={"Morocco": {"Germany": {"fighter": 1}}},
             owners={"Morocco": "Germany", "Algeria": "Germany"}, war=START_WAR)
    g.move({"fighter": 1}, "Morocco", "Algeria", "Sea Zone 91", "Sea Zone 92")
    assert g.units("Algeria", "Germany") == {"fighter": 1}


def test_CS_8_canals_are_no_water_barrier_for_land_units() -> None:
    g = game(power="United Kingdom", phase="noncombat_move", war=START_WAR,
             units={"Egypt": {"United Kingdom": {"infantry": 1}}},
             owners={"Trans-Jordan": "United Kingdom"})
    g.move({"infantry": 1}, "Egypt", "Trans-Jordan")
    g = game(power="Italy", phase="noncombat_move", war=START_WAR,
             units={"Greece": {"Italy": {"infantry": 1}}},
             owners={"Greece": "Italy", "Turkey": "Italy", "Bulgaria": "Italy"})
    g.move({"infantry": 1}, "Greece", "Turkey")


# --------------------------------------------------------------------------------------------
# Random legal play can declare


def test_DW_1_legal_orders_include_declarations_where_allowed() -> None:
    g = game()
    orders = list(legal.legal_orders(g.state, "Germany"))
    declared = sorted(o.on for o in orders if isinstance(o, DeclareWar))
    assert declared == ["Soviet Union", "United States"]
    g = game(power="Soviet Union", round=2)
    assert not [o for o in legal.legal_orders(g.state, "Soviet Union")
                if isinstance(o, DeclareWar)]
