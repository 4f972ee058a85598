"""Classic Rockets (digest §4.1 development table "Rockets", A-10; damage as R-SBR-04/05).

Once per turn, in Combat (A-10), an AA gun of a power with Rockets fires at an enemy industrial
complex within 3 spaces (counted as for aircraft): one die, paid by the complex's owner.
"""

from __future__ import annotations

from rules import engine, legal
from rules import events as ev
from rules.dice_audit import read_log
from rules.mechanisms import rockets
from rules.mechanisms.research import TechnologyDeveloped
from tests.rules.helpers import Game, position

GER, UK, RUS, USA = "Germany", "United Kingdom", "Russia", "United States"
AA = "antiaircraft gun"
WEU = "Western Europe"


def rocket_game(phase: str = "conduct_combat", techs: tuple[str, ...] = ("rockets",),
                **extra: object) -> Game:
    units = {WEU: {GER: {AA: 1}}, "Germany": {GER: {AA: 1}}}
    g = Game(position(GER, phase, units, edition="classic", **extra))
    for t in techs:
        e = TechnologyDeveloped(power=GER, tech=t)
        g.state = engine.evolve(g.state, e)
        g.events.append(e)
    return g


def fire(g: Game, frm: str, target: str, face: int) -> list[ev.Event]:
    g.script(face)
    return g.do(rockets.Rocket(frm=frm, target=target))


def test_A_10_rocket_damage_is_paid_by_the_complexs_owner() -> None:
    g = rocket_game()
    evs = fire(g, WEU, "United Kingdom", 4)
    assert [type(e) for e in evs] == [rockets.RocketFired, ev.DamagePaid]
    fired, paid = evs
    assert isinstance(fired, rockets.RocketFired) and isinstance(paid, ev.DamagePaid)
    assert (fired.victim, fired.damage) == (UK, 4)
    assert (paid.power, paid.amount, paid.paid, paid.debt) == (UK, 4, 4, 0)
    assert g.state.treasury[UK] == 30 - 4
    assert g.state.treasury[GER] == 32  # to the bank, not to the firer


def test_A_10_one_rocket_per_turn_whatever_the_number_of_guns() -> None:
    g = rocket_game()
    fire(g, WEU, "United Kingdom", 2)
    g.refuse(rockets.Rocket(frm="Germany", target="Russia"), "already fired its rocket this turn",
             "A-10")


def test_A_10_shortfall_becomes_a_debt_R_SBR_05() -> None:
    g = rocket_game(treasury={UK: 3})
    (_, paid) = fire(g, WEU, "United Kingdom", 5)
    assert isinstance(paid, ev.DamagePaid) and (paid.paid, paid.debt) == (3, 2)
    assert g.state.treasury[UK] == 0 and g.state.debts == {UK: 2}


def test_A_10_only_with_the_rockets_development() -> None:
    g = rocket_game(techs=("jet_power",))
    g.refuse(rockets.Rocket(frm=WEU, target="United Kingdom"), "has not developed Rockets")


def test_A_10_target_within_three_spaces_counted_as_for_aircraft() -> None:
    """Western Europe -> North Sea Zone -> United Kingdom is 2; Germany -> Eastern United
    States is more than 3."""
    g = rocket_game()
    g.refuse(rockets.Rocket(frm="Germany", target="Eastern United States"),
             "a rocket reaches 3 spaces", "A-10")
    fire(g, "Germany", "Russia", 1)  # Germany - Eastern Europe - Karelia - Russia: 3


def test_A_10_fired_from_an_own_antiaircraft_gun() -> None:
    g = rocket_game()
    g.refuse(rockets.Rocket(frm="Southern Europe", target="Russia"),
             "no antiaircraft gun in Southern Europe", "Its AA guns: Germany, Western Europe")


def test_A_10_only_at_an_enemy_industrial_complex() -> None:
    g = rocket_game()
    g.refuse(rockets.Rocket(frm=WEU, target="Southern Europe"), "no enemy industrial complex")
    g.refuse(rockets.Rocket(frm=WEU, target="Eastern Europe"), "no enemy industrial complex")
    g.refuse(rockets.Rocket(frm=WEU, target="North Sea Zone"), "no enemy industrial complex")


def test_A_10_rockets_are_fired_during_combat() -> None:
    g = rocket_game(phase="combat_move")
    g.refuse(rockets.Rocket(frm=WEU, target="United Kingdom"), "Rockets are fired during Combat",
             "A-10")


def test_A_10_combat_is_not_skipped_while_a_rocket_can_be_fired() -> None:
    """With no battle, Combat passes by itself, unless a rocket could still be fired."""
    g = rocket_game(phase="combat_move")
    g.end()
    assert g.state.phase == "conduct_combat"
    assert rockets.Rocket(power=GER, frm=WEU, target="United Kingdom") in list(
        legal.legal_orders(g.state, GER))
    g.end()
    assert g.state.phase == "noncombat_move"
    plain = rocket_game(phase="combat_move", techs=())
    plain.end()
    assert plain.state.phase == "noncombat_move"


def test_A_10_rocket_die_is_in_the_dice_audit() -> None:
    g = rocket_game()
    fire(g, WEU, "United Kingdom", 6)
    (roll,) = read_log(g.events).rolls
    assert roll.purpose == f"rocket|{WEU}|United Kingdom|round 1" and roll.faces == (6,)
