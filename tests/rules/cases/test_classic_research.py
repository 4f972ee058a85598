"""Classic weapons development (digest rules/classic.md §4.1, R-TEC-01..06; A-03; §10 ex. 2).

Each test is named after its rule ID in the digest. Dice are scripted: research dice first, then
one development die per breakthrough (re-rolled while it names a development already owned).
"""

from __future__ import annotations

import pytest

from rules import engine, legal, tech
from rules import events as ev
from rules import orders as od
from rules.dice_audit import read_log
from rules.errors import InvalidOrder
from rules.mechanisms.research import (
    Research,
    ResearchMarks,
    ResearchRolled,
    TechnologyDeveloped,
)
from rules.position import state_json
from rules.state import TurnMarks
from tests.rules.helpers import Game, position

GER, JPN, UK, RUS, USA = "Germany", "Japan", "United Kingdom", "Russia", "United States"


def research_game(power: str = GER, **extra: object) -> Game:
    return Game(position(power, "research", edition="classic", **extra))


def grant(g: Game, power: str, *techs: str) -> None:
    """Give ``power`` developments as if researched earlier (no dice)."""
    for t in techs:
        e = TechnologyDeveloped(power=power, tech=t)
        g.state = engine.evolve(g.state, e)
        g.events.append(e)


def research(g: Game, n: int, *faces: int) -> list[ev.Event]:
    g.script(*faces)
    return g.do(Research(dice=n))


def test_10_example_2_japan_researches_super_submarines_then_buys() -> None:
    """§10 example 2 (App. I): Japan pays 5, rolls 6, then 3: Super Submarines; 20 IPCs are
    left, spent on a fighter (12) and a submarine (8)."""
    g = research_game(JPN)
    evs = research(g, 1, 6, 3)
    assert [type(e) for e in evs] == [ResearchRolled, TechnologyDeveloped]
    rolled, developed = evs
    assert isinstance(rolled, ResearchRolled) and isinstance(developed, TechnologyDeveloped)
    assert (rolled.dice, rolled.cost, rolled.faces, rolled.breakthroughs) == (1, 5, (6,), 1)
    assert developed.tech == "super_submarines"
    assert g.state.techs == {JPN: ("super_submarines",)}
    assert g.state.treasury[JPN] == 20
    g.end()
    assert g.state.phase == "purchase"
    g.do(od.Buy(units={"fighter": 1, "submarine": 1}))
    assert g.state.treasury[JPN] == 0


def test_R_TEC_01_research_dice_cost_5_each_and_are_never_refunded() -> None:
    """R-TEC-01: 5 IPCs a die, paid to the bank; a failed roll gives nothing back."""
    g = research_game()
    (rolled,) = research(g, 3, 1, 2, 5)
    assert isinstance(rolled, ResearchRolled) and rolled.cost == 15
    assert g.state.treasury[GER] == 32 - 15
    g.end()
    assert g.state.treasury[GER] == 17 and g.state.techs == {}


def test_R_TEC_01_research_only_what_you_can_afford() -> None:
    """R-TEC-01: dice are paid in advance; the treasury never goes negative."""
    g = research_game(treasury={GER: 9})
    g.refuse(Research(dice=2), "2 research dice cost 10 IPCs (5 each)", "has 9",
             "enough for 1", "R-TEC-01")
    research(g, 1, 4)
    assert g.state.treasury[GER] == 4


def test_R_TEC_01_a_positive_sensible_number_of_dice() -> None:
    g = research_game()
    g.refuse(Research(dice=0), "at least one research die")
    g.refuse(Research(dice=-2), "at least one research die")
    err = g.refuse(Research(dice=101), "more than one order may buy")
    assert isinstance(err, InvalidOrder)


def test_R_TEC_02_each_six_is_a_breakthrough() -> None:
    """R-TEC-02/03: two 6s among three dice: two development dice follow."""
    g = research_game()
    evs = research(g, 3, 6, 2, 6, 1, 5)
    assert [type(e) for e in evs] == [ResearchRolled, TechnologyDeveloped,
                                      TechnologyDeveloped]
    assert g.state.techs == {GER: ("jet_power", "industrial_technology")}


def test_R_TEC_02_no_six_means_research_failed_this_turn() -> None:
    g = research_game()
    (rolled,) = research(g, 2, 5, 5)
    assert isinstance(rolled, ResearchRolled) and rolled.breakthroughs == 0
    assert g.state.techs == {}


def test_R_TEC_02_all_dice_are_bought_at_once_one_research_order_a_turn() -> None:
    """R-TEC-01/02: buy the dice, then roll them all; no second purchase after seeing them."""
    g = research_game()
    research(g, 1, 2)
    g.refuse(Research(dice=1), "already rolled its research dice this turn", "R-TEC-01/02")


@pytest.mark.parametrize(
    ("die", "tech_id"),
    [(1, "jet_power"), (2, "rockets"), (3, "super_submarines"), (4, "long_range_aircraft"),
     (5, "industrial_technology"), (6, "heavy_bombers")],
)
def test_R_TEC_03_A_03_development_table_by_die(die: int, tech_id: str) -> None:
    """R-TEC-03 with A-03: development die 1..6 = Jets, Rockets, Super Subs, Long Range,
    Industrial Technology, Heavy Bombers."""
    g = research_game()
    research(g, 1, 6, die)
    assert g.state.techs == {GER: (tech_id,)}


def test_R_TEC_04_an_owned_development_is_rerolled() -> None:
    """R-TEC-04: the development die is re-rolled until it names one the power lacks."""
    g = research_game()
    grant(g, GER, "jet_power", "rockets")
    evs = research(g, 1, 6, 1, 2, 1, 4)
    developed = evs[-1]
    assert isinstance(developed, TechnologyDeveloped)
    assert developed.tech == "long_range_aircraft" and developed.rule == "R-TEC-04"
    assert developed.rolls[0][1] == (1, 2, 1, 4)
    assert g.state.techs[GER] == ("jet_power", "rockets", "long_range_aircraft")


def test_R_TEC_04_two_breakthroughs_never_give_the_same_development() -> None:
    g = research_game()
    research(g, 2, 6, 6, 3, 3, 6)
    assert g.state.techs[GER] == ("super_submarines", "heavy_bombers")


def test_R_TEC_04_breakthroughs_beyond_the_last_development_are_wasted() -> None:
    """R-TEC-04 [D]: with five developments owned, a second 6 is wasted."""
    g = research_game()
    grant(g, GER, "jet_power", "rockets", "super_submarines", "long_range_aircraft",
          "heavy_bombers")
    evs = research(g, 2, 6, 6, 5)
    rolled = evs[0]
    assert isinstance(rolled, ResearchRolled) and (rolled.breakthroughs, rolled.wasted) == (2, 1)
    assert len(g.state.techs[GER]) == 6


def test_R_TEC_04_a_power_with_every_development_is_not_sold_dice() -> None:
    g = research_game()
    grant(g, GER, "jet_power", "rockets", "super_submarines", "long_range_aircraft",
          "industrial_technology", "heavy_bombers")
    g.refuse(Research(dice=1), "already has every weapons development", "R-TEC-04")


def test_R_TEC_05_industrial_technology_cheapens_this_turns_purchase() -> None:
    """R-TEC-05 [D]: effective at once: this turn's units cost 1 IPC less (research dice do not)."""
    g = research_game()
    research(g, 1, 6, 5)
    assert g.state.treasury[GER] == 27
    g.end()
    evs = g.do(od.Buy(units={"infantry": 2, "fighter": 1, "antiaircraft gun": 1}))
    assert isinstance(evs[0], ev.UnitsPurchased) and evs[0].cost == 2 * 2 + 11 + 4
    assert g.state.treasury[GER] == 27 - 19
    g.do(od.ClearPurchase())
    assert g.state.treasury[GER] == 27


def test_R_TEC_05_developments_change_values_at_once() -> None:
    """R-TEC-05, development table: the owner's values change through rules/tech.py."""
    g = research_game(JPN)
    assert tech.attack(g.state, JPN, "submarine") == 2
    research(g, 2, 6, 6, 3, 1)
    s = g.state
    assert tech.attack(s, JPN, "submarine") == 3 and tech.defense(s, JPN, "submarine") == 2
    assert tech.defense(s, JPN, "fighter") == 5 and tech.attack(s, JPN, "fighter") == 3


def test_R_TEC_06_developments_are_never_shared_with_allies() -> None:
    g = research_game()
    research(g, 1, 6, 4)
    s = g.state
    assert tech.move(s, GER, "fighter") == 6 and tech.move(s, GER, "bomber") == 8
    assert tech.move(s, JPN, "fighter") == 4 and tech.move(s, JPN, "bomber") == 6
    assert s.techs.get(JPN) is None


def test_R_TEC_05_developments_last_beyond_the_turn() -> None:
    """The flags of a turn reset at the next turn; developments stay."""
    g = research_game()
    research(g, 1, 6, 1)
    assert g.state.part(ResearchMarks).rolled
    for _ in range(6):
        if g.state.power != GER:
            break
        g.end(confirm=True)
    assert g.state.power == UK and g.state.marks == TurnMarks()
    assert g.state.part(ResearchMarks) == ResearchMarks()
    assert g.state.techs == {GER: ("jet_power",)}


def test_R_TEC_01_research_comes_before_buying() -> None:
    """§4.1: research, if any, is done before buying units; once in Purchase, it is too late."""
    g = research_game()
    g.end()
    assert g.state.phase == "purchase"
    g.refuse(Research(dice=1), "before buying units", "Research next turn")


def test_R_TEC_01_an_edition_without_research() -> None:
    g = Game(position("Germany", "purchase"))
    g.refuse(Research(dice=1), "no weapons development")


def test_R_BUY_04_R_CAP_03_no_capital_no_research_and_no_buying() -> None:
    """R-BUY-04 / R-CAP-03: a power whose capital is enemy-held skips research and purchase."""
    g = Game(position(RUS, "research", edition="classic", owners={"Russia": GER}))
    assert g.state.phase == "combat_move"
    g.refuse(Research(dice=1), "before buying units")


def test_research_phase_orders_are_listed_and_defaulted() -> None:
    """legal.py offers 'research 1..n' as affordable; an absent power does no research."""
    from rules.defaults import default_orders

    g = research_game(treasury={GER: 12})
    orders = list(legal.legal_orders(g.state, GER))
    assert Research(power=GER, dice=1) in orders and Research(power=GER, dice=2) in orders
    assert Research(power=GER, dice=3) not in orders
    assert od.EndPhase(power=GER, phase="research") in orders
    assert default_orders(g.state) == [od.EndPhase(power=GER, phase="research")]


def test_research_dice_are_in_the_dice_audit() -> None:
    """Research and development dice are counted and named in the dice log (fair dice)."""
    g = research_game()
    research(g, 2, 6, 1, 3)
    log = read_log(g.events)
    assert [(r.purpose, r.faces, r.counter) for r in log.rolls] == [
        (f"research|{GER}|round 1", (6, 1), 0),
        (f"development|{GER}|round 1", (3,), 2),
    ]
    assert log.counter == 3


def test_R_TEC_05_status_shows_developments_and_debts() -> None:
    """The 'state' document gives developments and debts (docs/positions.md); 'game status'
    text names each power's developments and what it owes (R-SBR-05)."""
    from rules import territory
    from service.describe import status_lines

    g = research_game()
    research(g, 1, 6, 2)
    tx = engine.Tx(g.state)
    territory.charge_damage(tx, UK, 40, "a rocket", "R-SBR-05")
    lines = status_lines(tx.state)
    assert "Weapons developments: Germany Rockets." in lines
    assert "Owed to the bank (from its next income): United Kingdom 10." in lines
    doc = state_json(tx.state)
    assert (doc["techs"], doc["debts"]) == ({GER: ["rockets"]}, {UK: 10})
