"""Classic amphibious assaults (digest §6.5, R-AMP-01..08): bombardment, the preliminary sea
battle, no retreat; worked examples §10 no. 4 and 7.

"Accompanying" battleships (R-AMP-02/05), our reading: the attacker's battleships in a sea
zone the assault's land units were unloaded from, that fought no sea battle this turn; each
supports one landing.
"""

from __future__ import annotations

from rules import orders as od
from rules.dice import ScriptedDice
from rules.events import DiceRolled
from tests.rules.helpers import Game, position

JPN, US, UK, GER = "Japan", "United States", "United Kingdom", "Germany"
MZ, HZ = "Midway Sea Zone", "Hawaii Sea Zone"


def rolls(g: Game) -> list[DiceRolled]:
    return [e for e in g.events if isinstance(e, DiceRolled)]


def spent(g: Game) -> None:
    assert isinstance(g.dice, ScriptedDice)
    assert g.dice.pos == len(g.dice.faces), f"{len(g.dice.faces) - g.dice.pos} dice unrolled"


def midway(defend: dict[str, int] | None = None) -> Game:
    """§10 no. 4: a Japanese battleship and a transport with 2 infantry go to the Midway zone;
    the infantry land on Midway, held by American infantry."""
    g = Game(position(JPN, "combat_move", {
        "Wake Island Sea Zone": {JPN: {"transport": 1, "infantry": 2, "battleship": 1}},
        "Midway": {US: defend or {"infantry": 1}},
    }, edition="classic"))
    g.move({"transport": 1, "battleship": 1}, "Wake Island Sea Zone", MZ)
    g.move({"infantry": 2}, MZ, "Midway")
    g.end()
    return g


def test_example_4_Midway_R_AMP_05_R_CON_01() -> None:
    """§10 no. 4: the battleship's support shot 5 misses; the infantry roll 3 and 6; the US
    infantry's 2 kills one. Round 2: the Japanese 1 hits, the US casualty fires back 2 and
    hits: both sides' land units are gone, so the US keeps Midway; the battleship and the
    transport cannot take it (R-CON-01, R-CON-02)."""
    g = midway()
    assert g.state.battles["Midway"].bombarding
    g.script(5, 3, 6, 2)
    g.do(od.Battle(space="Midway"))
    assert [(r.stage, r.groups) for r in rolls(g)] == [
        ("bombard", (("battleship", 4, (5,)),)),
        ("fire", (("infantry", 1, (3, 6)),)),
        ("fire", (("infantry", 2, (2,)),)),
    ]
    g.script(1, 2)
    g.do(od.Press(space="Midway"))
    spent(g)
    assert g.owner("Midway") == US and g.units("Midway", JPN) == {}
    assert g.units(MZ, JPN) == {"battleship": 1, "transport": 1}
    assert g.json["battles"] == []


def test_R_AMP_05_bombardment_casualties_fire_back_in_round_1() -> None:
    """R-AMP-05 / R-AMP-06: the defender's bombardment casualty goes to the casualty line and
    still fires in round 1; the battleship shoots once, in round 1 only, and is no target."""
    g = midway({"infantry": 2})
    # The battleship hits; the infantry miss; both US infantry fire (one a casualty): one hit.
    g.script(2, 6, 6, 2, 6)
    g.do(od.Battle(space="Midway"))
    spent(g)
    assert rolls(g)[-1].groups == (("infantry", 2, (2, 6)),)
    assert g.units("Midway", US) == {"infantry": 1}
    assert g.units("Midway", JPN) == {"infantry": 1}
    assert g.units(MZ, JPN) == {"battleship": 1, "transport": 1}
    g.script(6, 6)
    g.do(od.Press(space="Midway"))
    spent(g)
    assert [r.stage for r in rolls(g)].count("bombard") == 1


def test_example_7_Hawaii_R_AMP_03_R_AMP_04_no_bombardment_after_a_sea_battle() -> None:
    """§10 no. 7 (App. II Ex. 2): the battleship sinks the US submarine, which misses and is
    removed; the 2 infantry land without bombardment (there was a sea battle), hit the US
    infantry, which misses back: Japan takes Hawaii (A-18: the sea battle comes first)."""
    g = Game(position(JPN, "combat_move", {
        MZ: {JPN: {"transport": 1, "infantry": 2, "battleship": 1}},
        HZ: {US: {"submarine": 1}},
        "Hawaiian Islands": {US: {"infantry": 1}},
    }, edition="classic"))
    g.move({"transport": 1, "battleship": 1}, MZ, HZ)
    g.move({"infantry": 2}, HZ, "Hawaiian Islands")
    g.end()
    assert g.state.battles["Hawaiian Islands"].bombarding == ()
    g.script(1, 5)
    g.do(od.Battle(space=HZ))
    assert g.units(HZ, US) == {}
    g.script(1, 4, 3)
    g.do(od.Battle(space="Hawaiian Islands"))
    spent(g)
    assert "bombard" not in [r.stage for r in rolls(g)]
    assert g.owner("Hawaiian Islands") == JPN
    assert g.units("Hawaiian Islands", JPN) == {"infantry": 2}


def test_R_AMP_07_R_RET_04_A_13_nobody_retreats_from_a_landing() -> None:
    """R-AMP-07 / R-RET-04 / A-13: with units landed from the sea in the battle, no attacker
    retreats, not even the ones that came overland."""
    g = Game(position(UK, "combat_move", {
        "North Sea Zone": {UK: {"transport": 1, "infantry": 1}},
        "Germany": {UK: {"tank": 1}},
        "Western Europe": {GER: {"infantry": 2}},
    }, edition="classic", owners={"Germany": UK}))
    g.move({"infantry": 1}, "North Sea Zone", "Western Europe")
    g.move({"tank": 1}, "Germany", "Western Europe")
    g.end()
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space="Western Europe"))
    g.refuse(od.Retreat(space="Western Europe", to="Germany"), "R-AMP-07", "A-13")
    g.script(6, 6, 6, 6)
    g.do(od.Press(space="Western Europe"))


def test_R_AMP_05_each_battleship_supports_one_landing() -> None:
    """R-AMP-05: one battleship, two landings from its zone: one support shot in all."""
    g = Game(position(UK, "combat_move", {
        "North Sea Zone": {UK: {"transport": 2, "infantry": 1, "tank": 1, "battleship": 1}},
        "Western Europe": {GER: {"infantry": 1}},
        "Finland Norway": {GER: {"infantry": 1}},
    }, edition="classic"))
    g.move({"tank": 1}, "North Sea Zone", "Western Europe")
    g.move({"infantry": 1}, "North Sea Zone", "Finland Norway")
    g.end()
    support = [b.bombarding for b in g.state.battles.values()]
    assert sorted(len(x) for x in support) == [0, 1]
