"""Europe 1940 strategic and tactical bombing raids (digest §10.2 BR-1..BR-11, SC-8, §22.8,
CM-11, FA-2): escorts, interceptors, the air battle, the facilities' own air defense and the
damage they take."""

from __future__ import annotations

from typing import Any

from rules import orders as od
from rules.defaults import default_orders
from rules.engine import pending
from rules.events import DiceRolled, UnitsRemoved
from rules.facilities import facility_damage
from rules.legal import legal_orders
from rules.mechanisms import bombing, interception
from rules.mechanisms.bombing import Bomb
from rules.mechanisms.interception import AirBattle, Intercept
from rules.messages import own_rule
from service.describe import describe_all
from tests.rules.helpers import Game, position

GER, UK, FRA = "Germany", "United Kingdom", "France"
FACILITIES = {"major industrial complex": 1, "air base": 1, "naval base": 1}


def setup(uk: dict[str, int] | None = None, *, bombers: int = 2, tactical: int = 0,
          fighters: int = 0, target: dict[str, int] | None = None, **extra: Any) -> Game:
    """Germany to move: strategic bombers in Western Germany, tactical bombers and fighters in
    Holland Belgium (German); the United Kingdom holds its complex, air base and naval base
    (``target``) and ``uk`` units."""
    units: dict[str, dict[str, dict[str, int]]] = {
        "Western Germany": {GER: {"strategic bomber": bombers}} if bombers else {},
        "Holland Belgium": {GER: {k: v for k, v in (("tactical bomber", tactical),
                                                    ("fighter", fighters)) if v}},
        UK: {UK: {**(FACILITIES if target is None else target), **(uk or {})}},
        "Scotland": {UK: {"infantry": 1}},
    }
    return Game(position(GER, "combat_move", units, edition="europe1940",
                         owners={"Holland Belgium": GER}, **extra))


def fly(g: Game, bombers: int = 2, tactical: int = 0, fighters: int = 0,
        to: str = UK) -> None:
    if bombers:
        g.do(od.Move(units={"strategic bomber": bombers}, frm="Western Germany", to=to,
                     raid=True))
    if tactical:
        g.do(od.Move(units={"tactical bomber": tactical}, frm="Holland Belgium", to=to,
                     raid=True))
    if fighters:
        g.do(od.Move(units={"fighter": fighters}, frm="Holland Belgium", to=to, escort=True))


def lines(g: Game, n: int) -> list[str]:
    """The words of the last ``n`` events."""
    from rules import engine

    before = engine.replay(g.events[:-n])
    return describe_all(before, g.events[-n:])


def said(g: Game, order: od.Order, power: str | None = None) -> list[str]:
    """Give ``order``; the words of its events."""
    return lines(g, len(g.do(order, power)))


# --------------------------------------------------------------------------------------------
# BR-1, BR-2, BR-3: declaring raids and escorts


def test_BR_1_strategic_bombers_raid_a_complex_and_tactical_bombers_a_base() -> None:
    g = setup(bombers=1, tactical=1)
    fly(g, bombers=1, tactical=1)
    assert len(bombing.raiders(g.state)) == 2
    g.end()
    assert g.state.phase == "conduct_combat" and g.json["battles"] == []
    assert [(p.what, p.space) for p in pending(g.state)] == [("bombing raid", UK)]


def test_BR_1_tactical_bombers_never_raid_an_industrial_complex() -> None:
    g = setup(tactical=1, bombers=0, target={"major industrial complex": 1})
    g.refuse(od.Move(units={"tactical bomber": 1}, frm="Holland Belgium", to=UK, raid=True),
             "Tactical bombers raid only air and naval bases, never an industrial complex (BR-1)",
             "United Kingdom has no enemy air or naval base")


def test_BR_1_only_bombers_raid_and_only_enemy_territory() -> None:
    g = setup(fighters=1)
    g.refuse(od.Move(units={"fighter": 1}, frm="Holland Belgium", to=UK, raid=True),
             "Only strategic and tactical bombers raid (BR-1), not fighter",
             "fighters go with 'escort'")
    g.refuse(od.Move(units={"strategic bomber": 1}, frm="Western Germany", to="Denmark",
                     raid=True), "A raid targets a facility in an enemy territory (BR-1); Denmark is not "
             "enemy territory.")
    g.refuse(od.Move(units={"strategic bomber": 1}, frm="Western Germany", to="Scotland",
                     raid=True),
             "Scotland has no enemy industrial complex, air base or naval base to bomb (BR-1)")


def test_BR_2_bombers_move_into_the_territory_of_their_target_in_combat_move() -> None:
    g = setup(bombers=1, fighters=1)
    offered = [o for o in legal_orders(g.state, GER) if isinstance(o, od.Move) and o.raid]
    assert od.Move(power=GER, units={"strategic bomber": 1}, frm="Western Germany", to=UK,
                   raid=True) in offered
    fly(g, bombers=1)
    assert od.Move(power=GER, units={"fighter": 1}, frm="Holland Belgium", to=UK,
                   escort=True) in list(legal_orders(g.state, GER))
    g.end()
    g.script(6, 3)
    g.do(Bomb(space=UK, targets={"air base": {"strategic bomber": 1}}))
    g.end()
    g.refuse(od.Move(units={"fighter": 1}, frm="Holland Belgium", to="Denmark", raid=True),
             "A strategic bombing raid is declared in Combat Movement (BR-2)")


def test_BR_3_only_fighters_escort_and_only_a_raid() -> None:
    g = setup(tactical=1, fighters=2)
    g.refuse(od.Move(units={"fighter": 1}, frm="Holland Belgium", to=UK, escort=True),
             "Fighters escort the bombers of a raid (BR-3): no bombers of Germany raid United "
             "Kingdom yet.")
    fly(g, bombers=2)
    g.refuse(od.Move(units={"tactical bomber": 1}, frm="Holland Belgium", to=UK, escort=True),
             "Only fighters escort a raid (BR-3), not tactical bomber")
    g.do(od.Move(units={"fighter": 2}, frm="Holland Belgium", to=UK, escort=True))
    assert len(bombing.escorts(g.state, UK)) == 2
    assert "escorting the bombing raid on United Kingdom" in lines(g, 1)[0]


def test_BR_3_escorts_and_raiders_fight_no_battle_there() -> None:
    """BR-3, BR-11: raiders and escorts open no battle with the units of the raided territory
    (whether or not the defender intercepts)."""
    g = setup({"infantry": 1}, fighters=1)
    fly(g, bombers=1, fighters=1)
    g.end()
    assert g.json["battles"] == []


# --------------------------------------------------------------------------------------------
# SC-8, BR-4: interceptors


def test_SC_8_the_defender_owes_its_interceptors_before_any_combat() -> None:
    g = setup({"fighter": 3})
    fly(g)
    g.refuse(Intercept(space=UK, units={"fighter": 1}), "once the attacker's Combat Move is over",
             power=UK)
    g.end()
    assert [(p.power, p.what, p.space) for p in pending(g.state)] == [
        (UK, "interception", UK)]
    g.refuse(Bomb(space=UK), "First the defenders say how many fighters intercept each raid "
             "(SC-8): waiting for United Kingdom in United Kingdom")
    # the menu: none, 1, 2, 3
    offered = [o for o in legal_orders(g.state, UK) if isinstance(o, Intercept)]
    assert [o.units for o in offered] == [{}, {"fighter": 1}, {"fighter": 2}, {"fighter": 3}]
    # the deadline's default: none intercept (best reading)
    assert default_orders(g.state) == [Intercept(power=UK, space=UK, units={})]
    g.refuse(Intercept(space=UK, units={"fighter": 4}),
             "United Kingdom's fighters in United Kingdom that may intercept: 3 fighters (BR-4)",
             power=UK)
    g.do(Intercept(space=UK, units={"fighter": 2}), power=UK)
    assert [(p.power, p.what) for p in pending(g.state)] == [(GER, "air battle")]
    assert lines(g, 1) == ["United Kingdom intercepts the raid on United Kingdom with 2 fighters;"
                           " they fight nothing else this turn (BR-4)."]
    g.refuse(Intercept(space=UK), "already said how many fighters intercept", power=UK)


def test_BR_4_no_interceptors_means_no_air_battle() -> None:
    g = setup({"fighter": 1})
    fly(g)
    g.end()
    g.do(Intercept(space=UK, units={}), power=UK)
    assert lines(g, 1) == ["United Kingdom sends no interceptors against the raid on United "
                           "Kingdom (BR-4)."]
    g.refuse(AirBattle(space=UK), "Nobody intercepts the raid on United Kingdom",
             "the escorts withdraw at once (BR-6)")
    assert [(p.what, p.space) for p in pending(g.state)] == [("bombing raid", UK)]


# --------------------------------------------------------------------------------------------
# BR-5, BR-6: the air battle


def test_BR_5_one_round_every_unit_at_1_each_side_chooses() -> None:
    g = setup({"fighter": 2}, tactical=1, fighters=2)
    fly(g, bombers=2, tactical=1, fighters=2)
    g.end()
    g.do(Intercept(space=UK), power=UK)  # all (2 fighters)
    g.refuse(Bomb(space=UK), "fight the air battle first with 'air battle United Kingdom' "
             "(BR-5)")
    # attackers: 2 fighters, 2 strategic bombers, 1 tactical bomber: 1,1 hit; interceptors 1,2
    g.script(1, 3, 4, 1, 6, 1, 2)
    g.do(AirBattle(space=UK))
    dice = [e for e in g.events if isinstance(e, DiceRolled)]
    assert [(e.side, e.groups, e.hits) for e in dice] == [
        ("attacker", (("fighter", 1, (1, 3)), ("strategic bomber", 1, (4, 1)),
                      ("tactical bomber", 1, (6,))), 2),
        ("defender", (("fighter", 1, (1, 2)),), 1)]
    # the defender's 2 fighters are both lost (no choice); the attacker chooses its 1 loss
    assert interception.interceptors(g.state, UK) == []
    assert [(p.power, p.what) for p in pending(g.state)] == [(GER, "air battle casualties")]
    g.refuse(od.Casualties(space=UK, units={"fighter": 2}),
             "The air battle over United Kingdom owes 1 casualty (BR-5), not 2")
    offered = [o.units for o in legal_orders(g.state, GER) if isinstance(o, od.Casualties)]
    assert offered[0] == {"fighter": 1} and {"tactical bomber": 1} in offered
    g.do(od.Casualties(space=UK, units={"tactical bomber": 1}))
    assert g.units(UK, GER) == {"strategic bomber": 2, "fighter": 2}
    words = lines(g, 3)
    assert words[0] == ("Air battle over United Kingdom: the attacker loses 1 tactical bomber "
                        "(chosen by Germany) (BR-5).")
    assert words[2] == ("The air battle over United Kingdom is over: 2 strategic bombers fly on "
                        "to the raid; the escorts (2 fighters) withdraw (BR-6).")
    assert [(p.what, p.space) for p in pending(g.state)] == [("bombing raid", UK)]
    g.refuse(AirBattle(space=UK), "was fought already: it lasts one round (BR-5)")


def test_BR_5_air_battle_words_and_the_referee_defaults() -> None:
    g = setup({"fighter": 1}, fighters=1)
    fly(g, bombers=1, fighters=1)
    g.end()
    g.do(Intercept(space=UK), power=UK)
    assert default_orders(g.state) == [AirBattle(power=GER, space=UK)]
    g.script(2, 5, 1)  # raiders miss; the interceptor hits
    g.do(AirBattle(space=UK))
    text = lines(g, 3)
    assert text[0] == ("Air battle over United Kingdom: the raiders rolled 2,5 at 1 → 0 hits "
                       "(BR-5).")
    assert text[1] == ("Air battle over United Kingdom: the interceptors rolled 1 at 1 → 1 hit "
                       "(BR-5).")
    assert text[2] == ("Air battle over United Kingdom: Germany's 1 strategic bomber, 1 fighter "
                       "against United Kingdom's interceptors (1 fighter), every unit at 1: 0 hits "
                       "on the interceptors, 1 on the raiders (BR-5).")
    # the attacker's choice: the referee's default is the cheaper fighter
    assert default_orders(g.state) == [od.Casualties(power=GER, space=UK, units={"fighter": 1})]


def test_BR_6_every_bomber_shot_down_ends_the_raid() -> None:
    g = setup({"fighter": 2})
    fly(g, bombers=1)
    g.end()
    g.do(Intercept(space=UK), power=UK)
    g.script(6, 1, 4)
    g.do(AirBattle(space=UK))
    assert g.units(UK, GER) == {}
    assert lines(g, 1) == ["Bombing raid on United Kingdom by Germany: every bomber was shot "
                           "down in the air battle."]
    assert pending(g.state)[0].turn


# --------------------------------------------------------------------------------------------
# BR-7..BR-10: the raid


def test_BR_7_assigning_bombers_to_facilities() -> None:
    g = setup(bombers=2, tactical=1)
    fly(g, bombers=2, tactical=1)
    g.end()
    g.refuse(Bomb(space=UK), "Say which facility each bomber attacks (BR-7): the raid on United "
             "Kingdom has 1 tactical bomber, 2 strategic bombers, the targets there are major "
             "industrial complex, air base and naval base. For example 'bomb United Kingdom major "
             "industrial complex: 2 strategic bombers; air base: 1 tactical bomber'.")
    g.refuse(Bomb(space=UK, targets={"major industrial complex": {"tactical bomber": 1,
                                                                   "strategic bomber": 2}}),
             "A tactical bomber cannot attack the major industrial complex")
    g.refuse(Bomb(space=UK, targets={"major industrial complex": {"strategic bomber": 1}}),
             "the raid has 1 tactical bomber, 2 strategic bombers, the order names 1 strategic "
             "bomber")
    # defense: complex 2 dice (3,4), air base 1 die (1: the tactical bomber is lost);
    # damage: 5+2, 6+2 on the complex
    g.script(3, 4, 5, 6, 1)
    g.do(Bomb(space=UK, targets={"major industrial complex": {"strategic bomber": 2},
                                 "air base": {"tactical bomber": 1}}))
    dice = [(e.stage, e.groups) for e in g.events if isinstance(e, DiceRolled)]
    assert dice == [("raid_defense", (("major industrial complex", 1, (3, 4)),)),
                    ("raid_damage", (("strategic bomber", 2, (5, 6)),)),
                    ("raid_defense", (("air base", 1, (1,)),))]
    assert g.units(UK, GER) == {"strategic bomber": 2}
    raid = [e for e in g.events if isinstance(e, bombing.RaidResolved)][-1]
    assert raid.damage == 15 and len(raid.lost) == 1


def test_BR_8_CM_11_aa_guns_hold_fire_and_the_attacker_loses_the_cheapest() -> None:
    """BR-8, CM-11, FA-2: only the facility's air defense fires (1 die per bomber, hit on 1);
    AA guns do not fire at raids; the bomber lost is the attacker's (standing order, else
    cheapest)."""
    g = setup({"aa gun": 2}, bombers=1, tactical=1)
    fly(g, bombers=1, tactical=1)
    g.end()
    g.script(1, 6, 3)  # the air base hits once: the tactical bomber (11) goes, not the 12
    g.do(Bomb(space=UK, targets={"air base": {"strategic bomber": 1, "tactical bomber": 1}}))
    assert g.units(UK, GER) == {"strategic bomber": 1}
    removed = [e for e in g.events if isinstance(e, UnitsRemoved)][-1]
    assert removed.rule == own_rule("BR-8")
    assert not [e for e in g.events if isinstance(e, DiceRolled) and e.stage == "raid_aa"]


def test_BR_9_strategic_bombers_add_2_tactical_none() -> None:
    g = setup(bombers=1, tactical=1)
    fly(g, bombers=1, tactical=1)
    g.end()
    g.script(6, 6, 3, 4)  # no hits; strategic 3+2, tactical 4
    text = said(g, Bomb(space=UK, targets={"air base": {"strategic bomber": 1,
                                                        "tactical bomber": 1}}))
    raid = [e for e in g.events if isinstance(e, bombing.RaidResolved)][-1]
    assert raid.damage == 6  # 9 rolled, the air base's cap is 6 (BR-10)
    assert text[:3] == [
        "Bombing raid on United Kingdom: the air base's air defense rolled 6,6 → no bomber shot "
        "down (BR-8).",
        "Bombing raid on United Kingdom: the bombers rolled strategic bomber 3 +2; tactical "
        "bomber 4 → up to 9 damage (BR-9).",
        "2 bombers attacked United Kingdom's air base in United Kingdom: 9 damage rolled "
        "(BR-9)."]
    assert text[-1] == ("Bombing raid on United Kingdom by Germany over: 6 damage in all; the "
                        "bombers fly home in Noncombat Move (BR-11).")


def test_BR_10_caps_20_6_6() -> None:
    g = setup(bombers=4, target={"major industrial complex": 1})
    fly(g, bombers=4)
    g.end()
    g.script(6, 6, 6, 6, 6, 6, 6, 6)  # 4 x (6+2) = 32 rolled
    text = said(g, Bomb(space=UK, targets={"major industrial complex": {"strategic bomber": 4}}))
    raid = [e for e in g.events if isinstance(e, bombing.RaidResolved)][-1]
    assert raid.damage == 20
    assert facility_damage(g.state, UK, "major industrial complex") == 20
    assert g.json["damage"] == {UK: {"major industrial complex": 20}}
    assert any("20" in line and "major industrial complex" in line for line in text), text


def test_BR_10_damage_already_there_counts_toward_the_cap() -> None:
    """An air base with 4 damage takes 2 more of the 9 rolled (cap 6); the rest is lost."""
    g = setup(bombers=1, tactical=1, damage={UK: {"air base": 4}})
    fly(g, bombers=1, tactical=1)
    g.end()
    g.script(6, 6, 3, 4)  # no hits; 3+2 and 4
    g.do(Bomb(space=UK, targets={"air base": {"strategic bomber": 1, "tactical bomber": 1}}))
    raid = [e for e in g.events if isinstance(e, bombing.RaidResolved)][-1]
    assert raid.damage == 2
    assert g.json["damage"] == {UK: {"air base": 6}}


def test_BR_7_the_referee_leaves_a_facility_at_its_cap_for_one_that_takes_damage() -> None:
    g = setup(bombers=2, damage={UK: {"major industrial complex": 20}})
    fly(g, bombers=2)
    g.end()
    assert default_orders(g.state) == [Bomb(power=GER, space=UK, targets={
        "air base": {"strategic bomber": 2}})]


def test_BR_11_raiders_do_nothing_else_and_fly_home() -> None:
    g = setup(bombers=1, target={"major industrial complex": 1})
    fly(g, bombers=1)
    g.end()
    g.script(6, 1)
    g.do(Bomb(space=UK))
    g.refuse(Bomb(space=UK), "over already")
    g.end()
    assert g.state.phase == "noncombat_move"
    g.move({"strategic bomber": 1}, UK, "Western Germany")
    assert g.units("Western Germany", GER)["strategic bomber"] == 1


# --------------------------------------------------------------------------------------------
# A raid and a land attack on one territory (Normandy Bordeaux, France's minor complex and
# naval base): interceptors leave the battle, and land elsewhere when it falls (BR-4)


def normandy(french: dict[str, int], german: dict[str, int] | None = None) -> Game:
    units: dict[str, dict[str, dict[str, int]]] = {
        "Western Germany": {GER: {"strategic bomber": 1}},
        "Holland Belgium": {GER: german or {"infantry": 2}},
        "Normandy Bordeaux": {FRA: {"minor industrial complex": 1, **french}},
        "France": {FRA: {"infantry": 1}},
    }
    g = Game(position(GER, "combat_move", units, edition="europe1940",
                      owners={"Holland Belgium": GER}))
    g.do(od.Move(units={"strategic bomber": 1}, frm="Western Germany", to="Normandy Bordeaux",
                 raid=True))
    g.move(german or {"infantry": 2}, "Holland Belgium", "Normandy Bordeaux")
    g.end()
    return g


def test_BR_4_interceptors_fight_no_battle_in_their_own_territory() -> None:
    g = normandy({"fighter": 2, "infantry": 1})
    assert len(g.json["battles"]) == 1
    g.refuse(od.Battle(space="Normandy Bordeaux"),
             "Resolve the strategic bombing raid on Normandy Bordeaux first")
    g.refuse(Bomb(space="Normandy Bordeaux"), "First the defenders say how many fighters "
             "intercept each raid (SC-8): waiting for France in Normandy Bordeaux")
    g.do(Intercept(space="Normandy Bordeaux", units={"fighter": 1}), power=FRA)
    defending = g.state.battles["Normandy Bordeaux"].defending
    assert sorted(g.state.units[i].type for i in defending) == ["fighter", "infantry"]
    assert len(interception.interceptors(g.state, "Normandy Bordeaux")) == 1


def test_BR_4_interceptors_whose_territory_falls_land_one_space_away() -> None:
    g = normandy({"fighter": 1})
    g.do(Intercept(space="Normandy Bordeaux"), power=FRA)
    g.script(6, 6)  # the air battle: both miss
    g.do(AirBattle(space="Normandy Bordeaux"))
    g.script(6, 2)  # the minor complex's defense misses; 2+2 damage
    g.do(Bomb(space="Normandy Bordeaux"))
    g.do(od.Battle(space="Normandy Bordeaux"))  # nobody defends: taken
    assert g.owner("Normandy Bordeaux") == GER
    g.end()
    assert g.state.phase == "noncombat_move"
    assert g.units("France", FRA)["fighter"] == 1
    assert g.units("Normandy Bordeaux", FRA) == {}


def test_BR_4_interceptors_with_nowhere_to_land_are_lost() -> None:
    g2 = Game(position(GER, "combat_move", {
        "Western Germany": {GER: {"strategic bomber": 1}},
        "Holland Belgium": {GER: {"infantry": 2}},
        "Normandy Bordeaux": {FRA: {"minor industrial complex": 1, "fighter": 1}},
    }, edition="europe1940", owners={"Holland Belgium": GER, "France": GER,
                                     "Southern France": GER, "Spain": GER}))
    g2.do(od.Move(units={"strategic bomber": 1}, frm="Western Germany", to="Normandy Bordeaux",
                  raid=True))
    g2.move({"infantry": 2}, "Holland Belgium", "Normandy Bordeaux")
    g2.end()
    g2.do(Intercept(space="Normandy Bordeaux"), power=FRA)
    g2.script(6, 6)
    g2.do(AirBattle(space="Normandy Bordeaux"))
    g2.script(6, 2)
    g2.do(Bomb(space="Normandy Bordeaux"))
    g2.do(od.Battle(space="Normandy Bordeaux"))
    n = len(g2.events)
    g2.end()
    assert g2.units("Normandy Bordeaux", FRA) == {}
    words = lines(g2, len(g2.events) - n)
    assert words[-1] == ("Removed from the board: France: 1 fighter (interceptor could not land "
                         "from Normandy Bordeaux, BR-4).")


def test_CC_1_conduct_combat_does_not_end_with_a_raid_left() -> None:
    g = setup({"fighter": 1}, bombers=1)
    fly(g, bombers=1)
    g.end()
    g.refuse(od.EndPhase(phase="conduct_combat"), "Strategic bombing raids remain over United "
             "Kingdom. Resolve each with 'bomb <space>' before ending Combat (CC-1).")


# --------------------------------------------------------------------------------------------
# How players write them, the legal orders, the referee's answers


def test_BR_orders_as_players_write_them() -> None:
    from service.language import names_for, parse

    names = names_for("europe1940")
    assert parse("move 2 fighters from Holland Belgium to United Kingdom escort", names) == \
        od.Move(units={"fighter": 2}, frm="Holland Belgium", to=UK, escort=True)
    assert parse("move 1 tac from Holland Belgium to United Kingdom raid", names) == \
        od.Move(units={"tactical bomber": 1}, frm="Holland Belgium", to=UK, raid=True)
    assert parse("intercept United Kingdom 2 fighters", names) == \
        Intercept(space=UK, units={"fighter": 2})
    assert parse("intercept United Kingdom none", names) == Intercept(space=UK, units={})
    assert parse("intercept United Kingdom", names) == Intercept(space=UK)
    assert parse("air battle United Kingdom", names) == AirBattle(space=UK)
    assert parse("bomb United Kingdom major ic: 2 strategic bombers; air base: 1 tactical "
                 "bomber", names) == Bomb(space=UK, targets={
                     "major industrial complex": {"strategic bomber": 2},
                     "air base": {"tactical bomber": 1}})
    assert parse("bomb United Kingdom", names) == Bomb(space=UK)
    # written back as a line that reads to the same order (menus, the referee's answers)
    from service.language import LANGUAGE

    for order in (Intercept(space=UK, units={}), Intercept(space=UK, units={"fighter": 2}),
                  Intercept(space=UK), AirBattle(space=UK),
                  Bomb(space=UK, targets={"major industrial complex": {"strategic bomber": 2},
                                          "air base": {"tactical bomber": 1}})):
        line = LANGUAGE.line(order)
        assert line is not None and parse(line, names) == order, line
    assert LANGUAGE.line(Intercept(space=UK, units={})) == "intercept United Kingdom none"


def test_BR_7_the_referee_assigns_each_bomber_to_the_first_target_it_may_attack() -> None:
    g = setup(bombers=2, tactical=1)
    fly(g, bombers=2, tactical=1)
    g.end()
    want = Bomb(power=GER, space=UK, targets={"major industrial complex": {"strategic bomber": 2},
                                              "air base": {"tactical bomber": 1}})
    assert default_orders(g.state) == [want]
    offered = [o for o in legal_orders(g.state, GER) if isinstance(o, Bomb)]
    assert offered[0] == want and Bomb(power=GER, space=UK, targets={
        "air base": {"strategic bomber": 2, "tactical bomber": 1}}) in offered


def test_BR_raids_in_a_random_game_keep_the_legal_orders_legal() -> None:
    """Every order offered during a raid with interception is accepted."""
    from rules import engine
    from rules.dice import HmacDice

    g = setup({"fighter": 2}, tactical=1, fighters=1)
    fly(g, bombers=2, tactical=1, fighters=1)
    g.end()
    dice = HmacDice(b"raids")
    for _ in range(12):
        waits = pending(g.state)
        if waits[0].turn and g.state.phase != "conduct_combat":
            break
        who = waits[0].power
        options = list(legal_orders(g.state, who))
        assert options
        order = options[0]
        for e in engine.decide(g.state, order, dice):
            g.state = engine.evolve(g.state, e)
            g.events.append(e)
    assert g.state.phase == "noncombat_move"


def test_BR_1_a_raid_whose_target_is_taken_without_a_battle_ends_with_nothing_to_bomb() -> None:
    """Germany raids France's air base with a tactical bomber and moves infantry into France,
    which no armed unit defends: Conduct Combat begins with France taken, and its facilities
    Germany's. The raid no longer has an enemy facility to bomb (BR-1): 'bomb France' ends it
    with nothing bombed, the referee's default does the same, and the phase can end (a game
    once stopped here with nothing legal to say)."""
    g = Game(position(GER, "combat_move", {
        "France": {"France": {"air base": 1}},
        "Holland Belgium": {GER: {"tactical bomber": 1, "infantry": 1}}},
        edition="europe1940", owners={"Holland Belgium": GER}))
    g.do(od.Move(units={"tactical bomber": 1}, frm="Holland Belgium", to="France", raid=True))
    g.move({"infantry": 1}, "Holland Belgium", "France")
    g.end()
    assert g.owner("France") == GER
    assert [(p.what, p.space) for p in pending(g.state)] == [("bombing raid", "France")]
    (default,) = [o for o in default_orders(g.state) if isinstance(o, Bomb)]
    assert default.space == "France"
    assert Bomb(power=GER, space="France") in legal_orders(g.state, GER)
    assert said(g, Bomb(space="France")) == [
        "Bombing raid on France by Germany: France was taken before the raid, no enemy "
        "facility is left to bomb."]
    assert bombing.open_raids(g.state) == []
    g.end()
    assert g.state.phase == "noncombat_move"
