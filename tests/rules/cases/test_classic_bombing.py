"""Classic strategic bombing raids (digest §6.8, R-SBR-01..05) and the damage they cost."""

from __future__ import annotations

from dataclasses import replace

from rules import codec, territory
from rules import orders as od
from rules.defaults import default_orders
from rules.engine import Tx, pending
from rules.events import DamagePaid, DiceRolled
from rules.legal import legal_orders
from rules.mechanisms import bombing
from tests.rules.helpers import Game, position

GER, UK = "Germany", "United Kingdom"


def test_R_SBR_05_shortfall_becomes_a_debt() -> None:
    """R-SBR-04/05: the owner pays what it has; the rest is owed from its next income."""
    g = Game(position(UK, "conduct_combat", edition="classic", treasury={GER: 4}))
    tx = Tx(g.state)
    territory.charge_damage(tx, GER, 6, "a bombing raid on Germany", "R-SBR-04")
    (e,) = tx.events
    assert (e.paid, e.debt) == (4, 2)
    assert tx.state.treasury[GER] == 0 and tx.state.debts == {GER: 2}
    tx2 = Tx(replace(g.state, debts={GER: 1}))
    territory.charge_damage(tx2, GER, 3, "a bombing raid on Germany", "R-SBR-04")
    assert tx2.state.treasury[GER] == 1 and tx2.state.debts == {GER: 1}
    territory.charge_damage(tx2, GER, 0, "nothing", "R-SBR-04")
    assert len(tx2.events) == 1


# --------------------------------------------------------------------------------------------
# Raids


def raid(target: str, bombers: int = 1, frm: str = "United Kingdom",
         via: tuple[str, ...] = ("North Sea Zone", "Baltic Sea Zone"),
         defend: dict[str, int] | None = None, also: dict[str, int] | None = None,
         treasury: int = 32) -> Game:
    """UK bombers fly ``frm`` → ``target`` and are declared on a raid; ``also`` attacks
    ``target`` normally from Eastern Europe (taken by the UK for the test)."""
    units: dict[str, dict[str, dict[str, int]]] = {
        frm: {UK: {"bomber": bombers}}, target: {GER: defend or {}}}
    if also:
        units["Eastern Europe"] = {UK: also}
    g = Game(position(UK, "combat_move", units, edition="classic",
                      owners={"Eastern Europe": UK}, treasury={GER: treasury}))
    g.do(od.Move(units={"bomber": bombers}, frm=frm, to=target, via=via, raid=True))
    if also:
        for utype, n in also.items():
            g.move({utype: n}, "Eastern Europe", target)
    g.end()
    return g


def test_App_II_SBR_example_Germany_pays_6() -> None:
    """App. II: a UK bomber flies UK → UK sea zone → next sea zone → Germany, rolls 6:
    Germany pays 6 IPCs to the bank (R-SBR-03/04)."""
    g = raid("Germany")
    assert g.state.phase == "conduct_combat" and g.json["battles"] == []
    assert [(p.what, p.space) for p in pending(g.state)] == [("bombing raid", "Germany")]
    g.script(6)
    g.do(bombing.Bomb(space="Germany"))
    assert g.state.treasury[GER] == 26
    paid = [e for e in g.events if isinstance(e, DamagePaid)]
    assert [(e.power, e.amount, e.paid, e.debt) for e in paid] == [(GER, 6, 6, 0)]
    assert pending(g.state)[0].what.startswith("turn")
    g.refuse(bombing.Bomb(space="Germany"), "over already")
    g.end()
    assert g.state.phase == "noncombat_move"


def test_R_SBR_02_antiaircraft_gun_fires_one_die_per_bomber() -> None:
    """R-SBR-02: the gun rolls one die per raiding bomber; each 1 destroys one, which does not
    roll; the survivors' dice are summed (R-SBR-03)."""
    g = raid("Germany", bombers=2, defend={"antiaircraft gun": 1, "infantry": 3})
    g.script(1, 3, 4)
    g.do(bombing.Bomb(space="Germany"))
    dice = [e for e in g.events if isinstance(e, DiceRolled)]
    assert [(e.stage, e.groups) for e in dice] == [
        ("raid_aa", (("antiaircraft gun", 1, (1, 3)),)), ("raid", (("bomber", 0, (4,)),))]
    assert g.units("Germany", UK) == {"bomber": 1}
    assert g.state.treasury[GER] == 28
    assert g.units("Germany", GER)["infantry"] == 3  # the raid fights no units


def test_R_SBR_03_heavy_bombers_roll_three_dice() -> None:
    """R-SBR-03 / R-TEC-05: with Heavy Bombers each surviving bomber rolls 3 dice."""
    g = raid("Germany")
    g.state = replace(g.state, techs={UK: ("heavy_bombers",)})
    g.script(2, 3, 4)
    g.do(bombing.Bomb(space="Germany"))
    assert g.state.treasury[GER] == 32 - 9


def test_R_SBR_05_the_shortfall_is_owed() -> None:
    """R-SBR-05: Germany with 2 IPCs pays 2 now and owes 3."""
    g = raid("Germany", treasury=2)
    g.script(5)
    g.do(bombing.Bomb(space="Germany"))
    assert g.state.treasury[GER] == 0 and g.state.debts == {GER: 3}


def test_R_SBR_01_combat_does_not_end_with_a_raid_unresolved() -> None:
    """R-SBR-01: Combat cannot end before every raid is resolved; legal orders list it and
    the referee resolves it for an absent player."""
    g = raid("Germany")
    g.refuse(od.EndPhase(), "bomb <space>", "R-SBR-01")
    assert bombing.Bomb(power=UK, space="Germany") in list(legal_orders(g.state, UK))
    assert default_orders(g.state) == [bombing.Bomb(power=UK, space="Germany")]
    g.refuse(bombing.Bomb(space="Western Europe"), "Raids to resolve: Germany")


def test_A_16_raid_and_battle_on_one_territory_antiaircraft_fires_in_both() -> None:
    """A-16: a raid and a normal attack on the same territory both happen, the raid first;
    the gun fires at the raiding bombers, then at the aircraft of the battle. Raiding bombers
    take no part in the battle (R-BMB-03)."""
    g = raid("Germany", defend={"antiaircraft gun": 1, "infantry": 1},
             also={"fighter": 1, "tank": 1})
    land = g.state.battles["Germany"]
    assert sorted(g.state.units[i].type for i in land.attacking) == ["fighter", "tank"]
    g.refuse(od.Battle(space="Germany"), "bomb Germany", "A-16")
    g.script(6, 2)
    g.do(bombing.Bomb(space="Germany"))
    assert g.state.treasury[GER] == 30
    g.script(6, 6, 6, 6)  # the gun at the fighter: 6; fighter, tank, infantry miss
    n = len(g.events)
    g.do(od.Battle(space="Germany"))
    dice = [e for e in g.events[n:] if isinstance(e, DiceRolled)]
    assert dice[0].stage == "aa" and dice[0].groups == (("antiaircraft gun", 1, (6,)),)


def test_R_SBR_01_no_raids_without_the_rule() -> None:
    """Editions without strategic bombing refuse 'bomb'."""
    g = Game(position("Germany", "conduct_combat", edition="1941"))
    g.refuse(bombing.Bomb(space="Germany"), "no strategic bombing raids")


def test_an_export_from_before_the_raids_part_still_checks() -> None:
    """Older full documents kept the raid on each unit ('raid') and the raids resolved in
    ``marks.raided``; the final state of an export written then still checks (rules.codec)."""
    g = raid("Germany")
    doc = codec.state_to_json(g.state)
    bombers = set(doc["parts"]["raids"]["bombers"])
    old = {**doc, "format": 2, "parts": {k: v for k, v in doc["parts"].items() if k != "raids"},
           "units": {k: {**u, "raid": int(k) in bombers} for k, u in doc["units"].items()},
           "marks": {**doc["marks"], "raided": doc["parts"]["raids"]["resolved"]}}
    assert bombers and codec.differences(old, g.state) == []
    lost = {**old, "units": {k: {**u, "raid": False} for k, u in old["units"].items()}}
    assert codec.differences(lost, g.state) == ["parts.raids"]
