"""Rule cases for Conduct Combat in 1941 (digest §9): the general path through a battle.

Dice are scripted. Each side's units roll in groups, highest value first (then by unit name),
so the faces below are given in that order: e.g. tanks (3) before infantry (1).
"""

from __future__ import annotations

from rules import engine
from rules import orders as od
from rules.errors import IllegalOrder, NotYourTurn
from tests.rules.helpers import Game, position

GER, SU, UK = "Germany", "Soviet Union", "United Kingdom"


def ukraine_attack(att: dict[str, int], dfd: dict[str, int]) -> Game:
    """Germany attacks Soviet-held Ukraine from Eastern Europe."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: att},
        "Ukraine": {SU: dfd},
    }, owners={"Ukraine": SU}))
    g.move(att, "Eastern Europe", "Ukraine")
    g.end()
    return g


def test_CC_3a_attack_rolls_hit_on_value_or_less() -> None:
    """CC-3a / CMP-3: a roll equal to or lower than the attack value hits."""
    g = ukraine_attack({"tank": 2, "infantry": 1}, {"infantry": 3})
    g.script(3, 4, 1, 6, 6, 6)  # tanks 3,4 -> 1 hit; infantry 1 -> 1 hit; defence misses
    evs = g.do(od.Battle(space="Ukraine"))
    rolls = [e for e in evs if e.type == "DiceRolled"]
    assert rolls[0].side == "attacker" and rolls[0].hits == 2
    assert rolls[0].groups == (("tank", 3, (3, 4)), ("infantry", 1, (1,)))


def test_CC_3b_defender_chooses_and_casualties_still_fire() -> None:
    """CC-3b / CC-4a: the defender picks its casualties; they still fire in Step 4."""
    g = ukraine_attack({"tank": 2}, {"infantry": 1, "tank": 1})
    g.script(1, 6)  # attacker: one hit
    g.do(od.Battle(space="Ukraine"))
    assert g.state.battles["Ukraine"].owed == (("defender", 1),)
    g.script(1, 1)  # defender: both units fire (the casualty too) -> 2 hits
    g.do(od.Casualties(space="Ukraine", units={"tank": 1}), power=SU)
    rolled = [e for e in g.events if e.type == "DiceRolled"][-1]
    assert rolled.side == "defender" and rolled.hits == 2
    assert sum(len(f) for _, _, f in rolled.groups) == 2


def test_H_1_only_the_owner_of_the_units_picks_casualties() -> None:
    """H-1: the defender picks defending casualties; the attacker may not."""
    g = ukraine_attack({"tank": 2}, {"infantry": 1, "tank": 1})
    g.script(1, 6)
    g.do(od.Battle(space="Ukraine"))
    err = g.refuse(od.Casualties(space="Ukraine", units={"tank": 1}), "chosen by Soviet Union",
                   power=GER)
    assert isinstance(err, NotYourTurn)


def test_H_7_all_hits_must_be_assigned() -> None:
    """H-7: as many hits as the constraints allow must be assigned."""
    g = ukraine_attack({"tank": 2}, {"infantry": 1, "tank": 1})
    g.script(1, 1, 6, 6)
    g.do(od.Battle(space="Ukraine"))
    # two hits on two units: everything dies, no choice to make; the defence still fires
    assert g.units("Ukraine", SU) == {}
    assert g.owner("Ukraine") == GER
    g2 = ukraine_attack({"tank": 2}, {"infantry": 2, "tank": 1})
    g2.script(1, 1, 6, 6, 6)
    g2.do(od.Battle(space="Ukraine"))
    g2.refuse(od.Casualties(space="Ukraine", units={"infantry": 1}), "2 hits must be assigned",
              power=SU)


def test_CC_4b_attacker_takes_hits_then_press_or_retreat() -> None:
    """CC-4b / CC-6: after both sides fired and casualties are removed the attacker decides."""
    g = ukraine_attack({"tank": 1, "infantry": 1}, {"infantry": 2})
    g.script(6, 6, 1, 6)  # attack misses; defence one hit
    g.do(od.Battle(space="Ukraine"))
    g.do(od.Casualties(space="Ukraine", units={"infantry": 1}))
    assert g.units("Ukraine", GER) == {"tank": 1}
    assert g.state.battles["Ukraine"].step == "press_or_retreat"
    g.script(3, 6, 6)
    g.do(od.Press(space="Ukraine"))
    assert g.units("Ukraine", SU) == {"infantry": 1}


def test_CC_6A_battle_ends_when_a_side_is_gone_and_CC_7b_capture() -> None:
    """CC-6A / CC-7b / CC-7c: defenders wiped out, a land unit survives: territory captured,
    production moves immediately (P-4)."""
    g = ukraine_attack({"tank": 2}, {"infantry": 1})
    before = g.json["income"]
    value = g.state.edition.value("Ukraine")
    g.script(1, 6, 6)  # one hit kills the lone defender; defence misses
    g.do(od.Battle(space="Ukraine"))
    assert g.owner("Ukraine") == GER
    assert g.json["income"][GER] == before[GER] + value
    assert g.json["income"][SU] == before[SU] - value
    assert g.json["battles"] == []


def test_CC_7b_air_units_never_capture() -> None:
    """CC-7b: with only air units left the defender keeps the territory."""
    g = Game(position(GER, "combat_move", {
        "Germany": {GER: {"fighter": 1}},
        "Eastern Europe": {GER: {}},
        "Ukraine": {SU: {"infantry": 1}},
    }, owners={"Ukraine": SU}))
    g.move({"fighter": 1}, "Germany", "Ukraine")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Ukraine"))
    assert g.units("Ukraine", SU) == {}
    assert g.owner("Ukraine") == SU
    assert g.units("Ukraine", GER) == {"fighter": 1}


def test_CC_0b_empty_territory_taken_without_battle() -> None:
    """CC-0b: land units entering an empty hostile territory take it with no battle."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"infantry": 1}},
        "Ukraine": {SU: {}},
    }, owners={"Ukraine": SU}))
    g.move({"infantry": 1}, "Eastern Europe", "Ukraine")
    evs = g.end()
    assert [e.type for e in evs if e.type == "TerritoryCaptured"] == ["TerritoryCaptured"]
    assert g.owner("Ukraine") == GER


def test_CC_6B_retreat_to_a_space_the_attackers_came_from() -> None:
    """CC-6B: all land units retreat together to one adjacent friendly space one came from."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 1}},
        "West Russia": {GER: {}},
        "Ukraine": {SU: {"infantry": 3}},
    }, owners={"Ukraine": SU, "West Russia": GER}))
    g.move({"tank": 1}, "Eastern Europe", "Ukraine")
    g.end()
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space="Ukraine"))
    g.refuse(od.Retreat(space="Ukraine", to="West Russia"), "Possible: Eastern Europe")
    g.do(od.Retreat(space="Ukraine", to="Eastern Europe"))
    assert g.units("Eastern Europe", GER) == {"tank": 1}
    assert g.owner("Ukraine") == SU
    assert g.json["battles"] == []


def test_A_12_no_retreat_before_the_first_round() -> None:
    """A-12: retreat is decided in Step 6, after a round of fire."""
    g = ukraine_attack({"tank": 1}, {"infantry": 1})
    g.refuse(od.Retreat(space="Ukraine", to="Eastern Europe"), "after a round", "CC-6B")


def test_CC_0_end_refused_while_battles_remain() -> None:
    """CC-0: every contested space is resolved before Conduct Combat ends."""
    g = ukraine_attack({"tank": 1}, {"infantry": 1})
    g.refuse(od.EndPhase(), "Battles remain in Ukraine")


def test_UB_2_battleship_takes_two_hits_and_is_repaired() -> None:
    """UB-2 / H-6 / CC-7a: the first hit damages a battleship; it is repaired after battle."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"battleship": 1}},
        "Sea Zone 6": {GER: {"destroyer": 1}},
    }))
    g.move({"battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(6, 1)  # battleship misses, destroyer hits
    g.do(od.Battle(space="Sea Zone 6"))
    ship = next(u for u in g.state.units.values() if u.type == "battleship")
    assert ship.damage == 1  # forced: a single unit absorbs the hit by damage
    g.script(1, 6)
    g.do(od.Press(space="Sea Zone 6"))
    ship = next(u for u in g.state.units.values() if u.type == "battleship")
    assert ship.damage == 0
    assert g.units("Sea Zone 6", UK) == {"battleship": 1}
    assert g.units("Sea Zone 6", GER) == {}


def test_CC_2_cargo_is_lost_with_its_transport() -> None:
    """CC-2 / CM-30: cargo never rolls nor is picked, and sinks with its transport."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"transport": 1, "infantry": 2, "submarine": 1}},
    }))
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(1, 6)  # destroyer hits; sub misses
    evs = g.do(od.Battle(space="Sea Zone 6"))
    # H-4: the hit takes the submarine, not the transport; the transport then stands alone and
    # is destroyed at once with its cargo (CC-6C), which is never picked nor rolls (CC-2).
    chosen = next(e for e in evs if e.type == "CasualtiesChosen")
    assert len(chosen.lost) == 1 and g.state.units.get(chosen.lost[0]) is None
    removed = [e for e in evs if e.type == "UnitsRemoved" and e.rule == "CC-6C"]
    assert len(removed) == 1 and len(removed[0].ids) == 3  # transport and 2 infantry
    assert g.units("Sea Zone 6", GER) == {}


def test_H_4_transport_chosen_last() -> None:
    """H-4 / UT-4: a transport takes a hit only when nothing else can."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 2}},
        "Sea Zone 6": {GER: {"transport": 1, "destroyer": 1, "battleship": 1}},
    }))
    g.move({"destroyer": 2}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    g.refuse(od.Casualties(space="Sea Zone 6", units={"transport": 1}), "H-4", power=GER)
    g.script(6, 6)
    g.do(od.Casualties(space="Sea Zone 6", units={"destroyer": 1}), power=GER)
    assert g.units("Sea Zone 6", GER) == {"transport": 1, "battleship": 1}


def test_CC_3c_submarine_hits_only_on_sea_units() -> None:
    """CC-3c / H-2 / H-7: the rulebook example — a destroyer and 2 submarines score 3 hits on a
    destroyer plus a carrier with fighters: the destroyer's hit must take a fighter, because
    the submarines' hits can only go on ships."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1, "submarine": 2}},
        "Sea Zone 6": {GER: {"destroyer": 1, "aircraft carrier": 1, "fighter": 2,
                             "battleship": 1}},
    }))
    g.move({"destroyer": 1, "submarine": 2}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(1, 1, 1)  # destroyer (2) then submarines (2): three hits
    g.do(od.Battle(space="Sea Zone 6"))
    g.refuse(od.Casualties(space="Sea Zone 6", units={"destroyer": 1, "fighter": 2}),
             "wastes hits", "H-2", power=GER)
    g.script(6, 6, 6, 6, 6)  # battleship, fighters, carrier, destroyer fire and miss
    g.do(od.Casualties(space="Sea Zone 6", units={"destroyer": 1, "aircraft carrier": 1,
                                                  "fighter": 1}), power=GER)
    assert g.units("Sea Zone 6", GER) == {"battleship": 1, "fighter": 1}


def test_H_3_air_hits_not_on_submarines_without_destroyer() -> None:
    """H-3 / A-11: air units cannot hit submarines without a friendly destroyer; if nobody can
    hit anybody the battle ends at once."""
    g = Game(position(UK, "combat_move", {
        "United Kingdom": {UK: {"fighter": 1}},
        "Sea Zone 6": {GER: {"submarine": 1}},
    }))
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 6")
    g.end()
    g.script()
    evs = g.do(od.Battle(space="Sea Zone 6"))
    assert [e.type for e in evs] == ["BattleEnded"]
    assert g.units("Sea Zone 6", GER) == {"submarine": 1}


def test_CC_6C_defenceless_transports_destroyed_without_dice() -> None:
    """CC-6C / UT-6: defending transports alone are destroyed with their cargo, no dice."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"transport": 1, "infantry": 1}},
    }))
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script()
    g.do(od.Battle(space="Sea Zone 6"))
    assert g.units("Sea Zone 6", GER) == {}
    assert g.units("Sea Zone 6", UK) == {"destroyer": 1}


def test_CC_2b_multinational_defenders_defend_together() -> None:
    """CC-2b / MN-2: all defending powers' units in the space defend together."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 1}},
        "Ukraine": {SU: {"infantry": 1}, UK: {"infantry": 1}},
    }, owners={"Ukraine": SU}))
    g.move({"tank": 1}, "Eastern Europe", "Ukraine")
    evs = g.end()
    opened = next(e for e in evs if e.type == "BattleOpened")
    assert opened.defenders == (SU, UK)
    g.script(6, 2, 2)
    g.do(od.Battle(space="Ukraine"))
    rolled = [e for e in g.events if e.type == "DiceRolled"][-1]
    assert rolled.side == "defender" and rolled.hits == 1  # one tank to lose: forced
    assert g.units("Ukraine", GER) == {}


def test_battle_all_uses_standing_orders() -> None:
    """COMMANDS `battle <space> all` fights to the end with standing casualty orders."""
    g = ukraine_attack({"tank": 1, "infantry": 2}, {"infantry": 1, "tank": 1})
    g.do(od.StandingCasualties(power=SU, order=("tank", "infantry")))
    g.script(1, 6, 6, 6, 6, 6, 1, 6, 6, 6, 6)
    g.do(od.Battle(space="Ukraine", all=True))
    lost = [e for e in g.events if e.type == "CasualtiesChosen" and e.side == "defender"]
    assert lost[0].how == "standing"
    assert g.units("Ukraine", SU) == {"infantry": 1} or g.owner("Ukraine") == GER


def test_CM_8_no_battle_for_a_space_without_one() -> None:
    """CC-0: only spaces with a battle can be fought."""
    g = ukraine_attack({"tank": 1}, {"infantry": 1})
    try:
        g.do(od.Battle(space="Germany"))
    except IllegalOrder as e:
        assert "no battle to fight in Germany" in str(e)
    else:  # pragma: no cover
        raise AssertionError("battle in a quiet space accepted")


def test_H_1_standing_order_answers_for_an_absent_defender() -> None:
    """H-1 (asynchronous play): a defender's standing casualty order answers its casualty
    questions as soon as they arise, round by round."""
    g = ukraine_attack({"tank": 2}, {"infantry": 1, "tank": 1})
    g.do(od.StandingCasualties(power=SU, order=("tank", "infantry")))
    g.script(1, 6, 6, 6)
    g.do(od.Battle(space="Ukraine"))
    chosen = next(e for e in g.events if e.type == "CasualtiesChosen")
    assert chosen.how == "standing"
    assert g.units("Ukraine", SU) == {"infantry": 1}
    assert g.state.battles["Ukraine"].step == "press_or_retreat"


def test_H_1_battle_all_waits_for_a_defender_with_a_real_choice() -> None:
    """H-1: 'battle <space> all' never chooses for the defender. It stops where the defender has
    a real casualty choice and no standing order, waits for the answer, then fights on to the
    end (a forced choice, all units lost or one kind only, needs nobody)."""
    from rules.engine import pending

    g = ukraine_attack({"tank": 3}, {"infantry": 1, "tank": 1})
    g.script(1, 6, 6)  # one hit: the defender may lose its infantry or its tank
    g.do(od.Battle(space="Ukraine", all=True))
    b = g.state.battles["Ukraine"]
    assert b.step == "casualties" and b.owed == (("defender", 1),)
    assert [(p.power, p.what, p.space) for p in pending(g.state)] == [
        (SU, "casualties", "Ukraine")]
    assert not [e for e in g.events if e.type == "CasualtiesChosen"]
    g.refuse(od.Battle(space="Ukraine", all=True), "waits for casualties from Soviet Union")
    g.script(6, 6,  # the defence misses (the chosen tank still fires)
             1, 6, 6,  # round 2: one hit on the last infantry (forced: nobody is asked)
             6)
    g.do(od.Casualties(space="Ukraine", units={"tank": 1}), power=SU)
    chosen = [(e.by, e.how) for e in g.events if e.type == "CasualtiesChosen"]
    assert chosen == [(SU, "choice"), ("referee", "forced")]
    assert g.owner("Ukraine") == GER and g.json["battles"] == []


def test_H_1_battle_all_answers_for_the_attacker_who_gave_it() -> None:
    """H-1: the attacker's own casualties under 'battle all' are its default (it asked for the
    battle to be fought out); only the defender is waited for."""
    g = ukraine_attack({"tank": 1, "infantry": 1}, {"infantry": 1})
    # Both attackers miss; the infantry's defence hits: the attacker has a choice. Round 2:
    # the tank hits; the defence misses.
    g.script(6, 6, 2, 1, 6)
    g.do(od.Battle(space="Ukraine", all=True))
    chosen = [(e.side, e.how) for e in g.events if e.type == "CasualtiesChosen"]
    assert chosen[0] == ("attacker", "default")
    assert g.owner("Ukraine") == GER


def two_fighters() -> Game:
    """Germany attacks Ukraine with a tank and two fighters that differ: one flew from Germany
    (2 spaces left to land), one from Eastern Europe (3 left). The defence scores one hit."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 1, "fighter": 1}},
        "Germany": {GER: {"fighter": 1}},
        "Ukraine": {SU: {"infantry": 2}},
    }, owners={"Ukraine": SU}))
    g.move({"tank": 1, "fighter": 1}, "Eastern Europe", "Ukraine")
    g.move({"fighter": 1}, "Germany", "Ukraine", "Eastern Europe")
    g.end()
    return g


def test_H_1_the_owner_says_which_unit_of_a_type_dies() -> None:
    """H-1: units of one type that differ (here movement left) are not interchangeable: the
    owner names which by where it started the turn ('1 fighter from Eastern Europe')."""
    from service.describe import describe

    g = two_fighters()
    g.script(6, 6, 6, 1, 6)
    g.do(od.Battle(space="Ukraine"))
    ids = {g.state.units[i].start: i for i in g.state.battles["Ukraine"].attacking
           if g.state.units[i].type == "fighter"}
    g.refuse(od.Casualties(space="Ukraine", units={"fighter": 1},
                           origins={"fighter": {"Karelia": 1}}),
             "has 0 fighter from Karelia, not 1", "came from: Eastern Europe (1), Germany (1)")
    before = g.state
    evs = g.do(od.Casualties(space="Ukraine", units={"fighter": 1},
                             origins={"fighter": {"Eastern Europe": 1}}))
    (chosen,) = [e for e in evs if e.type == "CasualtiesChosen"]
    assert chosen.lost == (ids["Eastern Europe"],)
    assert describe(before, chosen) == (
        "Casualties in Ukraine: Germany loses 1 fighter from Eastern Europe (3 moves left).")
    assert ids["Germany"] in g.state.units and ids["Eastern Europe"] not in g.state.units


def test_H_1_by_default_the_unit_worth_less_now_dies() -> None:
    """H-1: without an origin, and in the referee's default, the unit of the type worth less
    now goes: the fighter with less movement left; the answer names it."""
    from service.describe import describe

    g = two_fighters()
    g.script(6, 6, 6, 1, 6)
    g.do(od.Battle(space="Ukraine"))
    germany = next(i for i in g.state.battles["Ukraine"].attacking
                   if g.state.units[i].start == "Germany")
    evs = g.do(od.Casualties(space="Ukraine", units={"fighter": 1}))
    (chosen,) = [e for e in evs if e.type == "CasualtiesChosen"]
    assert chosen.lost == (germany,)
    g = two_fighters()
    g.script(6, 6, 6, 1, 6,  # round 1: the attacker's default loses a fighter
             1, 1, 6, 6)  # round 2: two hits take both infantry
    before = g.state
    evs = g.do(od.Battle(space="Ukraine", all=True))
    chosen = next(e for e in evs if e.type == "CasualtiesChosen")
    assert (chosen.how, chosen.lost) == ("default", (germany,))
    at = before
    for e in evs[:evs.index(chosen)]:
        at = engine.evolve(at, e)
    assert describe(at, chosen) == ("Casualties in Ukraine: the attacker loses 1 fighter from "
                                    "Germany (2 moves left) (default order).")
    assert g.owner("Ukraine") == GER


def test_H_1_fighters_that_differ_are_a_real_choice() -> None:
    """H-1: two fighters with different movement left are not interchangeable, so one hit on
    them waits for their owner (it would be answered at once if they were alike)."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"fighter": 1}},
        "Germany": {GER: {"fighter": 1}},
        "Ukraine": {SU: {"infantry": 2}},
    }, owners={"Ukraine": SU}))
    g.move({"fighter": 1}, "Eastern Europe", "Ukraine")
    g.move({"fighter": 1}, "Germany", "Ukraine", "Eastern Europe")
    g.end()
    g.script(6, 6, 1, 6)
    g.do(od.Battle(space="Ukraine"))
    assert g.state.battles["Ukraine"].owed == (("attacker", 1),)
    assert not [e for e in g.events if e.type == "CasualtiesChosen"]


def test_H_6_H_1_the_owner_names_which_battleship_takes_the_hit() -> None:
    """H-6 / H-1: with a damaged and a whole battleship, a hit damages the whole one by
    default; named by where it started, the damaged one may be sunk instead."""
    from rules import combat

    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"battleship": 1}},
        "Sea Zone 8": {UK: {"battleship": 1}},
        "Sea Zone 6": {GER: {"destroyer": 2}},
    }))
    g.move({"battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g.move({"battleship": 1}, "Sea Zone 8", "Sea Zone 6")
    g.end()
    g.script(6, 6, 1, 6)  # round 1: one hit damages a battleship (they are alike: no choice)
    g.do(od.Battle(space="Sea Zone 6"))
    ships = {g.state.units[i].start: g.state.units[i]
             for i in g.state.battles["Sea Zone 6"].attacking}
    hurt = next(u for u in ships.values() if u.damage)
    whole = next(u for u in ships.values() if not u.damage)
    g.script(6, 6, 1, 6)  # round 2: one hit, now a real choice
    g.do(od.Press(space="Sea Zone 6"))
    b = g.state.battles["Sea Zone 6"]
    assert b.owed == (("attacker", 1),)
    by_default = combat.validate_choice(g.state, b, "attacker", {"battleship": 1})
    assert by_default == ((), (whole.id,))
    named = combat.validate_choice(g.state, b, "attacker", {"battleship": 1},
                                   {"battleship": {whole.start or "": 1}})
    assert named == ((), (whole.id,))
    g.do(od.Casualties(space="Sea Zone 6", units={"battleship": 1},
                       origins={"battleship": {hurt.start or "": 1}}))
    assert hurt.id not in g.state.units and g.state.units[whole.id].damage == 0


def test_H_1_the_choices_offered_name_which_fighter() -> None:
    """H-1: the casualty choices offered (Discord's menu) include naming which fighter goes
    where the fighters differ; the plain choice loses the one worth less now."""
    from rules.legal import legal_orders

    g = two_fighters()
    g.script(6, 6, 6, 1, 6)
    g.do(od.Battle(space="Ukraine"))
    offered = [o for o in legal_orders(g.state, GER) if isinstance(o, od.Casualties)]
    assert od.Casualties(power=GER, space="Ukraine", units={"fighter": 1}) in offered
    assert od.Casualties(power=GER, space="Ukraine", units={"fighter": 1},
                         origins={"fighter": {"Eastern Europe": 1}}) in offered
    assert not any(o.origins.get("fighter", {}).get("Germany") for o in offered)
