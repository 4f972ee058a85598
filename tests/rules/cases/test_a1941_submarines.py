"""Rule cases for submarines in battle: Step 2 surprise strike and submerge (§9.2, §14.10).

Dice order in a round: attacking submarines' strike, defending submarines' strike, then the
attackers' Step 3 fire (highest value first) and the defenders' Step 4 fire.
"""

from __future__ import annotations

from rules import orders as od
from rules.errors import IllegalOrder, NotYourTurn
from tests.rules.helpers import Game, position

GER, UK = "Germany", "United Kingdom"


def sea_attack(att: dict[str, int], dfd: dict[str, int]) -> Game:
    """The United Kingdom attacks German ships in Sea Zone 6 from Sea Zone 7."""
    g = Game(position(UK, "combat_move", {"Sea Zone 7": {UK: att}, "Sea Zone 6": {GER: dfd}}))
    g.move(att, "Sea Zone 7", "Sea Zone 6")
    g.end()
    return g


def rolls(g: Game) -> list[tuple[str, str, tuple[tuple[str, int, tuple[int, ...]], ...]]]:
    return [(e.side, e.stage, e.groups) for e in g.events if e.type == "DiceRolled"]


def test_SS_2_defender_declares_after_the_attacker() -> None:
    """SS-2: the attacker's battle order declares its submarines first; the defender then owes
    its own choice, and nothing is rolled before it."""
    g = sea_attack({"submarine": 1}, {"submarine": 1})
    g.script()
    g.do(od.Battle(space="Sea Zone 6"))
    decl = [e for e in g.events if e.type == "SubmarinesDeclared"]
    assert [(e.side, len(e.strike)) for e in decl] == [("attacker", 1)]
    assert rolls(g) == []
    from rules.engine import pending

    assert [(p.power, p.what) for p in pending(g.state)] == [(GER, "submerge or strike")]


def test_SS_4_SS_5_SS_6_A_13_surprise_strikes_and_their_casualties() -> None:
    """SS-4/SS-5/SS-6, A-13: attacking submarines hit on 2 or less and defending ones on 1; a
    defending submarine picked as a Step-2 casualty still strikes; Step-2 casualties and the
    submarines that struck do not fire in Steps 3 and 4."""
    g = sea_attack({"submarine": 1, "battleship": 1}, {"submarine": 1, "transport": 1})
    g.script()
    g.do(od.Battle(space="Sea Zone 6"))
    g.script(2, 1)  # UK sub strikes (hit); GER sub strikes (hit)
    g.do(od.Strike(space="Sea Zone 6"), power=GER)
    # The German hit may take the submarine or damage the battleship: the attacker chooses.
    g.do(od.Casualties(space="Sea Zone 6", units={"battleship": 1}))
    # The German submarine, already picked, struck; it leaves with the Step-2 casualties, and
    # the transport left alone is destroyed at once (CC-6C): no Step 3 roll is needed.
    assert rolls(g) == [
        ("attacker", "strike", (("submarine", 2, (2,)),)),
        ("defender", "strike", (("submarine", 1, (1,)),)),
    ]
    assert g.units("Sea Zone 6", GER) == {}
    assert g.units("Sea Zone 6", UK) == {"submarine": 1, "battleship": 1}
    ship = next(u for u in g.state.units.values() if u.type == "battleship")
    assert ship.damage == 0  # UB-2 / CC-7a: repaired after the battle


def test_SS_3_USB_3_defending_submarine_submerges() -> None:
    """SS-3 / USB-3: a submerged submarine leaves the battle at once and stays in the zone."""
    g = sea_attack({"destroyer": 1, "submarine": 1}, {"submarine": 1, "battleship": 1})
    # A British destroyer cancels the German submarine's choices (SS-1): no declaration.
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    assert not [e for e in g.events if e.type == "SubmarinesDeclared" and e.side == "defender"]
    g2 = sea_attack({"battleship": 1}, {"submarine": 1, "transport": 1})
    g2.script()
    g2.do(od.Battle(space="Sea Zone 6"))
    g2.do(od.Submerge(space="Sea Zone 6"), power=GER)
    # Only the transport is left against the battleship: defenceless (CC-6C) or fired upon.
    assert g2.units("Sea Zone 6", GER) == {"submarine": 1}
    assert g2.json["battles"] == []


def test_SS_1_UD_3_enemy_destroyer_cancels_step_2() -> None:
    """SS-1 / UD-3 / CC-4c: with an enemy destroyer in the battle, submarines neither strike nor
    submerge; they fire in Step 3 with the other units."""
    g = sea_attack({"submarine": 1}, {"destroyer": 1})
    g.script(1, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    assert rolls(g) == [("attacker", "fire", (("submarine", 2, (1,)),)),
                        ("defender", "fire", (("destroyer", 2, (6,)),))]
    g.refuse(od.Submerge(space="Sea Zone 6"), "no battle to fight")


def test_USB_3_attacker_submerges_before_the_round() -> None:
    """USB-3 / SS-2: the attacker may submerge its submarines before a round is fought."""
    g = sea_attack({"submarine": 1, "destroyer": 1}, {"battleship": 1})
    g.script(6, 6, 1)
    g.do(od.Battle(space="Sea Zone 6"))  # sub strikes, destroyer fires, battleship hits
    g.do(od.Casualties(space="Sea Zone 6", units={"destroyer": 1}))
    g.do(od.Submerge(space="Sea Zone 6"))
    assert g.json["battles"] == []  # its last unit left the battle: the defender holds
    assert g.units("Sea Zone 6", UK) == {"submarine": 1}
    assert g.units("Sea Zone 6", GER) == {"battleship": 1}


def test_SS_2_wrong_person_and_wrong_moment() -> None:
    """SS-2 / H-1: only the defender answers its submarines' question, and only when asked."""
    g = sea_attack({"submarine": 1}, {"submarine": 1})
    g.refuse(od.Strike(space="Sea Zone 6"), "No submarine decision is owed", power=GER)
    g.script()
    g.do(od.Battle(space="Sea Zone 6"))
    err = g.refuse(od.Strike(space="Sea Zone 6"), "before the round", "SS-2")
    assert isinstance(err, IllegalOrder)
    err = g.refuse(od.Strike(space="Sea Zone 6"), "no submarines", power="Japan")
    assert isinstance(err, NotYourTurn)


def test_SS_9_H_2_strike_hits_only_sea_units() -> None:
    """SS-4 / H-2 / UF-5: a submarine's strike cannot hit the fighters over their carrier."""
    g = sea_attack({"submarine": 2}, {"aircraft carrier": 1, "fighter": 2})
    g.script(1, 1, 6, 6, 6)  # two strike hits, only one sea unit: one hit counts
    g.do(od.Battle(space="Sea Zone 6"))
    strike = next(e for e in g.events if e.type == "DiceRolled")
    assert strike.stage == "strike" and strike.hits == 1
    assert g.units("Sea Zone 6", GER) == {"fighter": 2}


def test_SS_8_step_2_returns_when_the_destroyer_is_gone() -> None:
    """SS-8 / CC-5: once the last enemy destroyer is removed, submarines regain Step 2 from the
    next round, not in the round it sank."""
    g = sea_attack({"submarine": 1, "battleship": 1}, {"destroyer": 1, "battleship": 1})
    g.script(1, 6)  # round 1: no Step 2 (German destroyer); battleship hits, sub misses
    g.do(od.Battle(space="Sea Zone 6"))
    g.script(6, 6)  # the defender's battleship and destroyer (a casualty) fire back and miss
    g.do(od.Casualties(space="Sea Zone 6", units={"destroyer": 1}), power=GER)
    assert {r[1] for r in rolls(g)} == {"fire"}
    g.script(1, 6, 6)  # round 2: the submarine strikes first and hits; then Steps 3 and 4
    g.do(od.Press(space="Sea Zone 6"))
    second = [r for r in rolls(g)][-3:]
    assert second[0] == ("attacker", "strike", (("submarine", 2, (1,)),))
    assert [r[2][0][0] for r in second[1:]] == ["battleship", "battleship"]


def test_USB_7_air_hits_on_submarines_need_a_destroyer() -> None:
    """USB-7 / H-3: air units' hits may go on submarines only with a friendly destroyer."""
    g = Game(position(UK, "combat_move", {
        "United Kingdom": {UK: {"fighter": 1}},
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"submarine": 2}},
    }))
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 6")
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(1, 6, 6, 6)  # fighter hits, destroyer misses; subs fire normally (SS-1) and miss
    g.do(od.Battle(space="Sea Zone 6"))
    assert g.units("Sea Zone 6", GER) == {"submarine": 1}


def test_USB_6_submarines_cannot_hit_air_units() -> None:
    """USB-6 / H-2: a submarine's hits never go on air units."""
    g = Game(position(UK, "combat_move", {
        "United Kingdom": {UK: {"fighter": 1}},
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"submarine": 1}},
    }))
    g.move({"fighter": 1}, "United Kingdom", "Sea Zone 6")
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(6, 6, 1)  # attack misses; the submarine hits: only the destroyer may take it
    g.do(od.Battle(space="Sea Zone 6"))
    assert g.units("Sea Zone 6", UK) == {"fighter": 1}


def test_SS_7_USB_2_strike_damage_lasts_the_battle() -> None:
    """SS-7 / USB-2 / UB-2: a surprise strike's hit on a battleship damages it for the rest of
    the battle; a later strike sinks it. The struck submarine does not fire again that round."""
    g = sea_attack({"submarine": 1}, {"battleship": 1})
    g.script(1, 6)  # strike hits (damage); the battleship fires back and misses
    g.do(od.Battle(space="Sea Zone 6"))
    ship = next(u for u in g.state.units.values() if u.type == "battleship")
    assert ship.damage == 1
    # Step 3: the submarine struck, so the attacker has nothing left to roll (SS-6).
    assert [(r[0], r[1], len(r[2])) for r in rolls(g)] == [
        ("attacker", "strike", 1), ("attacker", "fire", 0), ("defender", "fire", 1)]
    g.script(2, 6)
    g.do(od.Press(space="Sea Zone 6"))
    assert g.units("Sea Zone 6", GER) == {}


def test_UC_4_fighters_on_a_carrier_defend_against_submarines() -> None:
    """UC-4 / UF-5: fighters on an attacked carrier defend in the air, even against
    submarines alone, rolling their defence of 4."""
    g = sea_attack({"submarine": 1}, {"aircraft carrier": 1, "fighter": 1})
    g.script(6, 4, 6)  # strike misses; fighter (4) hits, carrier (2) misses
    g.do(od.Battle(space="Sea Zone 6"))
    assert rolls(g)[-1] == ("defender", "fire", (("fighter", 4, (4,)),
                                                 ("aircraft carrier", 2, (6,))))
    # ...but an air unit's hit cannot go on a submarine without a friendly destroyer (H-3).
    assert g.units("Sea Zone 6", UK) == {"submarine": 1}


def test_SS_2_H_1_battle_all_waits_for_the_defenders_submarines() -> None:
    """SS-2 / H-1: 'battle <space> all' does not declare for the defender's submarines: it
    waits for 'strike' or 'submerge', then fights on to the end."""
    from rules.engine import pending

    g = sea_attack({"battleship": 1}, {"submarine": 1})
    g.script()
    g.do(od.Battle(space="Sea Zone 6", all=True))
    assert [(p.power, p.what) for p in pending(g.state)] == [(GER, "submerge or strike")]
    assert rolls(g) == []
    g.script(6, 1)  # the submarine's strike misses; the battleship sinks it
    g.do(od.Strike(space="Sea Zone 6"), power=GER)
    assert g.units("Sea Zone 6", GER) == {}
    assert g.json["battles"] == []
