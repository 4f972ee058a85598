"""Axis & Allies 1941 rulebook cases: powers (§2), victory (§3), turn order and phases (§6).

Rule IDs cite the digest ``shared/rules/a1941.md``; best readings cite its §18 (A-n). Every test
states exact outcomes: who plays, which phase, which round, treasuries and the events emitted.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.decisions import Owed
from rules.errors import IllegalOrder, InvalidOrder, NotYourTurn, WrongPhase
from tests.rules.helpers import Game, position

SU, GER, UK, JPN, US = "Soviet Union", "Germany", "United Kingdom", "Japan", "United States"
IC = {"industrial complex": 1}
PHASES = ["purchase", "combat_move", "conduct_combat", "noncombat_move", "mobilize",
          "collect_income"]
UNIT_NAMES = {"infantry", "tank", "fighter", "bomber", "submarine", "transport", "destroyer",
              "aircraft carrier", "battleship", "industrial complex"}


def finish_turn(g: Game) -> list[ev.Event]:
    """End phases, doing nothing, until another power's turn begins or the game is won."""
    power, rnd = g.state.power, g.state.round
    out: list[ev.Event] = []
    while g.state.power == power and g.state.round == rnd and not g.state.winner:
        out.extend(g.end())
    return out


def of(evs: list[ev.Event], kind: type[Any]) -> list[Any]:
    return [e for e in evs if isinstance(e, kind)]


# --------------------------------------------------------------------------------------------
# §2 Powers (P-1..P-6)


def test_P_1_each_power_is_on_one_side() -> None:
    """P-1: powers played together must be on one side, so each power has exactly one side:
    Allies = Soviet Union, United Kingdom, United States; Axis = Germany, Japan. (Seats are the
    service's business; the engine decides sides.)"""
    g = Game()
    sides = {p: g.state.side(p) for p in (SU, GER, UK, JPN, US)}
    assert sides == {SU: "Allies", GER: "Axis", UK: "Allies", JPN: "Axis", US: "Allies"}
    assert g.state.edition.powers_of_side("Allies") == (SU, UK, US)
    assert g.state.edition.powers_of_side("Axis") == (GER, JPN)


def test_P_2_only_the_power_whose_turn_it_is_may_act() -> None:
    """P-2: a player acts for only one power at a time. During the Soviet turn, an order for
    the United Kingdom (same side) or for Germany is refused with NotYourTurn."""
    g = Game()
    assert (g.state.power, g.state.phase) == (SU, "purchase")
    err = g.refuse(od.Buy(units={"infantry": 1}, power=UK), "It is Soviet Union's turn",
                   "United Kingdom cannot give that order now")
    assert isinstance(err, NotYourTurn)
    err = g.refuse(od.Buy(units={"infantry": 1}, power=GER), "It is Soviet Union's turn")
    assert isinstance(err, NotYourTurn)
    err = g.refuse(od.EndPhase(power=US), "It is Soviet Union's turn")
    assert isinstance(err, NotYourTurn)


def test_P_2_each_power_keeps_its_own_treasury() -> None:
    """P-2: each power's money is kept apart. A Soviet purchase is paid from the Soviet
    treasury only; the other four treasuries do not move."""
    g = Game()
    g.do(od.Buy(units={"infantry": 2}))
    assert g.json["treasury"] == {SU: 1, GER: 12, UK: 12, JPN: 9, US: 15}


def test_P_3_starting_treasury_and_production_level() -> None:
    """P-3: each power starts with its chart IPCs as treasury: 7/12/12/9/15. Its production
    level (P-4) is the value of the territories it holds: 7/12/12/9 and 17 for the United
    States, whose board territories add up to 17 (digest README, edition notes)."""
    g = Game()
    assert g.json["treasury"] == {SU: 7, GER: 12, UK: 12, JPN: 9, US: 15}
    assert g.json["income"] == {SU: 7, GER: 12, UK: 12, JPN: 9, US: 17}


def test_P_5_no_order_transfers_ipcs_between_powers() -> None:
    """P-5/IN-3: IPCs are never lent or given. There is no order kind that moves money between
    powers, and a whole round of turns changes each treasury only by that power's own income."""
    kinds = {m.model_fields["kind"].default for m in (
        od.Buy, od.ClearPurchase, od.Move, od.Battle, od.Casualties, od.Retreat, od.Press,
        od.Submerge, od.Strike, od.Place, od.EndPhase, od.StandingCasualties)}
    assert not any("transfer" in k or "give" in k or "lend" in k for k in kinds)
    g = Game()
    evs: list[ev.Event] = []
    for _ in range(5):
        evs.extend(finish_turn(g))
    assert [(e.power, e.amount) for e in of(evs, ev.IncomeCollected)] == [
        (SU, 7), (GER, 12), (UK, 12), (JPN, 9), (US, 17)]
    assert g.json["treasury"] == {SU: 14, GER: 24, UK: 24, JPN: 18, US: 32}


def test_P_6_no_attack_on_a_friendly_power_territory() -> None:
    """P-6: an Allied power may never attack another Allied power. A British tank may not make
    a combat move into the American-held Eastern United States: it is friendly, so the move
    would not end in combat (CM-4)."""
    g = Game(position(UK, "combat_move", {"Eastern Canada": {UK: {"tank": 1}}}))
    err = g.refuse(od.Move(units={"tank": 1}, frm="Eastern Canada", to="Eastern United States"),
                   "Combat Move must end in combat", "Eastern United States is friendly")
    assert isinstance(err, IllegalOrder)


def test_P_6_no_attack_on_a_friendly_power_fleet() -> None:
    """P-6: a British fighter may not attack a sea zone that holds only American ships: there is
    nothing hostile there (CM-4). A British battleship moved in beside them is no attack either:
    Combat Move cannot end with it there, and no battle is opened."""
    g = Game(position(UK, "combat_move", {
        "United Kingdom": {UK: {"fighter": 1, **IC}},
        "Sea Zone 7": {US: {"battleship": 1}},
        "Sea Zone 8": {UK: {"battleship": 1}},
    }))
    g.refuse(od.Move(units={"fighter": 1}, frm="United Kingdom", to="Sea Zone 7"),
             "Combat Move must end in combat", "nothing hostile in Sea Zone 7")
    g.move({"battleship": 1}, "Sea Zone 8", "Sea Zone 7")
    g.refuse(od.EndPhase(), "battleship in Sea Zone 7: Combat Move must end in combat (CM-4)")
    assert g.json["battles"] == []
    assert g.units("Sea Zone 7", US) == {"battleship": 1}


# --------------------------------------------------------------------------------------------
# §6 Turns (T-1..T-5)


def test_T_1_turn_order_and_round_increment() -> None:
    """T-1: in each round the powers play Soviet Union, Germany, United Kingdom, Japan, United
    States; the round number goes up after the United States' turn, and the Soviet Union
    starts round 2."""
    g = Game()
    assert (g.json["round"], g.json["power"]) == (1, SU)
    evs: list[ev.Event] = []
    for _ in range(5):
        evs.extend(finish_turn(g))
    assert [(e.round, e.power) for e in of(evs, ev.TurnStarted)] == [
        (1, GER), (1, UK), (1, JPN), (1, US), (2, SU)]
    assert (g.json["round"], g.json["power"], g.json["phase"]) == (2, SU, "purchase")


def test_T_2_six_phases_in_order() -> None:
    """T-2: a turn runs Purchase Units, Combat Move, Conduct Combat, Noncombat Move, Mobilize New
    Units, Collect Income, always in that order, then the next power's turn begins."""
    g = Game()
    finish_turn(g)
    phases = [e.phase for e in of(g.events, ev.PhaseChanged) if e.power == SU]
    assert phases == PHASES
    assert isinstance(g.events[-2], ev.TurnStarted) and g.events[-2].power == GER
    assert g.events[-1] == ev.PhaseChanged(power=GER, phase="purchase", rule="T-2")
    assert [e.phase for e in of(g.events, ev.PhaseChanged)][-1] == "purchase"


def test_T_3_optional_phases_and_automatic_income() -> None:
    """T-3: every phase but Collect Income is optional: the Soviet Union ends each one without
    an order. Collect Income is compulsory and played by the referee: the order that ends
    Mobilize also collects 7 IPCs and starts Germany's turn; the game never waits in it."""
    g = Game()
    for expected in ("combat_move", "noncombat_move", "mobilize"):
        g.end()
        assert g.json["phase"] == expected
    evs = g.end()
    assert evs == [
        ev.PhaseChanged(power=SU, phase="collect_income", rule="T-2"),
        ev.IncomeCollected(power=SU, amount=7),
        ev.TurnStarted(round=1, power=GER),
        ev.PhaseChanged(power=GER, phase="purchase", rule="T-2"),
    ]
    assert g.json["treasury"][SU] == 14
    assert engine.pending(g.state) == [engine.Pending(GER, Owed.TURN, phase="purchase")]


def test_T_4_power_without_capital_plays_only_the_movement_and_combat_phases() -> None:
    """T-4/CAP-2: a power whose capital is in enemy hands plays only Combat Move, Conduct
    Combat and Noncombat Move. The Soviet Union without Moscow (Russia held by Germany) starts
    its turn in Combat Move, cannot buy, skips Mobilize and Collect Income (treasury stays 7)."""
    g = Game(position(SU, "purchase", owners={"Russia": GER}))
    assert g.events[-1] == ev.PhaseChanged(power=SU, phase="combat_move", skipped=("purchase",),
                                           rule="T-4")
    assert g.json["phase"] == "combat_move"
    err = g.refuse(od.Buy(units={"infantry": 1}), "Purchase Units", "Combat Move")
    assert isinstance(err, WrongPhase)
    g.end()
    assert g.json["phase"] == "noncombat_move"
    evs = g.end()
    assert evs == [
        ev.PhaseChanged(power=SU, phase="collect_income", skipped=("mobilize", "collect_income"),
                        rule="T-4"),
        ev.TurnStarted(round=1, power=GER),
        ev.PhaseChanged(power=GER, phase="purchase", rule="T-2"),
    ]
    assert g.json["treasury"][SU] == 7


def test_T_5_victory_is_checked_at_the_end_of_a_turn_not_on_capture() -> None:
    """T-5/V-3 (short game): the United Kingdom takes Berlin in its Conduct Combat; the game is
    not won at that moment nor at the end of the British turn, but right after Japan's turn
    (A-1)."""
    g = Game(position(UK, "combat_move", {"Western Europe": {UK: {"infantry": 1}}},
                      owners={"Western Europe": UK}), options=("short",))
    g.move({"infantry": 1}, "Western Europe", "Germany")
    evs = g.end()
    assert ev.TerritoryCaptured(space="Germany", by=UK, previous=GER, owner=UK, how="no battle",
                                seized=12, seized_from=GER, rule="CAP-1") in evs
    assert g.json["winner"] is None
    evs = finish_turn(g)
    assert g.json["winner"] is None and (g.json["power"], g.json["round"]) == (JPN, 1)
    evs = finish_turn(g)
    assert evs[-1] == ev.GameWon(side="Allies", rule="V-3", capitals=("Germany",))
    assert g.json["winner"] == "Allies"


# --------------------------------------------------------------------------------------------
# §3 Victory (V-1..V-4, A-1, A-2)


def test_V_1_allies_win_holding_berlin_and_tokyo_after_japans_turn() -> None:
    """V-1: standard game; after Japan's turn the Allies hold both Berlin (Germany, Soviet-held)
    and Tokyo (Japan, American-held): the Allies win; any Allied power's control counts. The
    game is over: no next turn, nobody is waited on, and orders are refused."""
    g = Game(position(JPN, "noncombat_move", owners={"Germany": SU, "Japan": US}))
    evs = g.end()
    assert evs[-1] == ev.GameWon(side="Allies", rule="V-1", capitals=("Germany", "Japan"))
    assert of(evs, ev.TurnStarted) == []
    assert g.json["winner"] == "Allies"
    assert engine.pending(g.state) == []
    g.refuse(od.EndPhase(power=US), "The game is over")


def test_V_1_one_axis_capital_is_not_enough_in_the_standard_game() -> None:
    """V-1: the standard game needs both Axis capitals. With only Berlin in Allied hands after
    Japan's turn, play passes to the United States."""
    g = Game(position(JPN, "noncombat_move", owners={"Germany": UK}))
    evs = finish_turn(g)
    assert of(evs, ev.GameWon) == []
    assert (g.json["winner"], g.json["power"], g.json["phase"]) == (None, US, "purchase")


def test_V_2_axis_win_holding_two_allied_capitals_after_the_us_turn() -> None:
    """V-2: standard game; after the United States' turn the Axis hold London (German) and
    Moscow (Japanese): the Axis win. The US first collects its income (17)."""
    g = Game(position(US, "noncombat_move", owners={"United Kingdom": GER, "Russia": JPN}))
    evs = finish_turn(g)
    assert evs[-2:] == [
        ev.IncomeCollected(power=US, amount=17),
        ev.GameWon(side="Axis", rule="V-2", capitals=("United Kingdom", "Russia")),
    ]
    assert g.json["winner"] == "Axis" and g.json["round"] == 1


def test_V_2_one_allied_capital_is_not_enough_in_the_standard_game() -> None:
    """V-2: any two of London, Moscow, Washington. With only London held after the US turn
    the game goes on: round 2 begins with the Soviet Union."""
    g = Game(position(US, "noncombat_move", owners={"United Kingdom": GER}))
    evs = finish_turn(g)
    assert of(evs, ev.GameWon) == []
    assert (g.json["winner"], g.json["round"], g.json["power"]) == (None, 2, SU)


def test_V_3_short_game_allies_win_with_either_axis_capital() -> None:
    """V-3 (short game option): after Japan's turn the Allies hold Tokyo only: they win."""
    g = Game(position(JPN, "noncombat_move", owners={"Japan": US}), options=("short",))
    evs = finish_turn(g)
    assert evs[-1] == ev.GameWon(side="Allies", rule="V-3", capitals=("Japan",))
    assert g.json["winner"] == "Allies"


def test_V_4_short_game_axis_win_with_washington_or_london() -> None:
    """V-4 (short game option): after the US turn the Axis hold Washington (Eastern United
    States): they win. The US, without its capital, collects nothing first (IN-2)."""
    g = Game(position(US, "noncombat_move", owners={"Eastern United States": JPN}),
             options=("short",))
    evs = finish_turn(g)
    assert of(evs, ev.IncomeCollected) == []
    assert evs[-1] == ev.GameWon(side="Axis", rule="V-4", capitals=("Eastern United States",))


def test_A_2_moscow_does_not_count_for_the_axis_in_the_short_game() -> None:
    """V-4/A-2: the short game names only Washington and London. The Axis holding Moscow alone
    after the US turn do not win; round 2 begins."""
    g = Game(position(US, "noncombat_move", owners={"Russia": GER}), options=("short",))
    evs = finish_turn(g)
    assert of(evs, ev.GameWon) == []
    assert (g.json["winner"], g.json["round"], g.json["power"]) == (None, 2, SU)


def test_A_2_moscow_is_left_out_of_a_short_game_axis_win() -> None:
    """V-4/A-2: holding Moscow and London, the Axis win the short game on London alone: the
    GameWon event lists only the capital that counts."""
    g = Game(position(US, "noncombat_move", owners={"Russia": GER, "United Kingdom": GER}),
             options=("short",))
    evs = finish_turn(g)
    assert evs[-1] == ev.GameWon(side="Axis", rule="V-4", capitals=("United Kingdom",))


def test_A_1_allied_win_is_not_checked_after_other_turns() -> None:
    """A-1: the Allied conditions are checked right after Japan's turn only. The Allies hold
    Berlin and Tokyo throughout; nobody wins after Germany's or the United Kingdom's turn, the
    Allies win when Japan's turn ends."""
    g = Game(position(GER, "noncombat_move", owners={"Germany": UK, "Japan": US}))
    finish_turn(g)  # Germany (no capital: no Mobilize, no income)
    assert (g.json["winner"], g.json["power"]) == (None, UK)
    finish_turn(g)
    assert (g.json["winner"], g.json["power"], g.json["phase"]) == (None, JPN, "combat_move")
    evs = finish_turn(g)
    assert evs[-1] == ev.GameWon(side="Allies", rule="V-1", capitals=("Germany", "Japan"))


def test_A_1_allied_win_is_not_checked_after_the_us_turn() -> None:
    """A-1: Order of Play says "end of each round", but the victory sections win: with both Axis
    capitals Allied-held at the end of the US turn (the round's end), nobody wins yet."""
    g = Game(position(US, "noncombat_move", owners={"Germany": UK, "Japan": US}))
    evs = finish_turn(g)
    assert of(evs, ev.GameWon) == []
    assert (g.json["winner"], g.json["round"], g.json["power"]) == (None, 2, SU)


def test_A_1_axis_win_is_checked_after_the_us_turn_not_japans() -> None:
    """A-1: the Axis hold London and Moscow when Japan's turn ends: no win then. The Axis win
    when the United States' turn ends (V-2)."""
    g = Game(position(JPN, "noncombat_move", owners={"United Kingdom": GER, "Russia": GER}))
    evs = finish_turn(g)
    assert of(evs, ev.GameWon) == []
    assert (g.json["power"], g.json["phase"]) == (US, "purchase")
    evs = finish_turn(g)
    assert evs[-1] == ev.GameWon(side="Axis", rule="V-2", capitals=("United Kingdom", "Russia"))


def test_V_3_short_game_is_an_option_chosen_at_the_start() -> None:
    """V-3/V-4: the short game must be agreed at the start: it is a game option, recorded in
    GameStarted; unknown options are refused."""
    g = Game(options=("short",))
    assert isinstance(g.events[0], ev.GameStarted) and g.events[0].options == ("short",)
    assert g.state.options == frozenset({"short"})
    with pytest.raises(InvalidOrder, match="Unknown option 'shortest'"):
        engine.new_game("1941", ("shortest",))


# --------------------------------------------------------------------------------------------
# The state document (COMMANDS.md `state`)


def test_state_json_has_exactly_the_documented_keys() -> None:
    """state_json: exactly the keys of a position file (docs/positions.md) plus income,
    battles and winner; JSON-serialisable; unit names lowercase singular (rulebook names)."""
    import json

    from rules.position import DERIVED_KEYS, SETTING_KEYS

    g = Game()
    doc = g.json
    assert set(doc) == {"edition", "options", "round", "power", "phase", "treasury", "income",
                        "owners", "units", "clear_all_units", "damaged", "purchase", "techs",
                        "debts", "standing", "battles", "winner"}
    assert set(doc) == {*SETTING_KEYS, *DERIVED_KEYS}
    assert (doc["edition"], doc["round"], doc["power"], doc["phase"]) == ("a1941", 1, SU,
                                                                         "purchase")
    assert doc["battles"] == [] and doc["winner"] is None
    assert json.loads(json.dumps(doc)) == doc
    names = {u for by_power in doc["units"].values() for us in by_power.values() for u in us}
    assert names == UNIT_NAMES
    assert all(n == n.lower() and not n.endswith("s") for n in names)
    assert doc["owners"]["Germany"] == GER and doc["owners"]["Turkey"] is None
    assert doc["units"]["Sea Zone 42"] == {US: {"aircraft carrier": 1, "fighter": 2,
                                                "submarine": 1, "transport": 1}}


def test_state_json_lists_open_battles() -> None:
    """state_json ``battles``: the spaces whose battles are not yet fought, in Conduct Combat."""
    g = Game(position(GER, "combat_move", {
        "West Russia": {GER: {"tank": 2}},
        "Russia": {SU: {"infantry": 1, **IC}},
    }))
    g.move({"tank": 2}, "West Russia", "Russia")
    g.end()
    assert g.json["phase"] == "conduct_combat"
    assert g.json["battles"] == ["Russia"]
