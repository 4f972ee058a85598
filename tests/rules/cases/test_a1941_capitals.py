"""Axis & Allies 1941 rulebook cases: capture, liberation and capitals (§9.4) and the production
level changes they cause at once (P-4).

Rule IDs cite the digest ``shared/rules/a1941.md``; best readings cite its §18 (A-n). Battles use
scripted dice (a roll at or below the value hits, CMP-3), so every outcome is exact.
"""

from __future__ import annotations

from typing import Any

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.errors import WrongPhase
from rules.position import state_json
from tests.rules.helpers import Game, position

SU, GER, UK, JPN, US = "Soviet Union", "Germany", "United Kingdom", "Japan", "United States"
IC = {"industrial complex": 1}


def finish_turn(g: Game) -> list[ev.Event]:
    """End phases, doing nothing, until another power's turn begins or the game is won."""
    power, rnd = g.state.power, g.state.round
    out: list[ev.Event] = []
    while g.state.power == power and g.state.round == rnd and not g.state.winner:
        out.extend(g.end())
    return out


def of(evs: list[ev.Event], kind: type[Any]) -> list[Any]:
    return [e for e in evs if isinstance(e, kind)]


def captured(evs: list[ev.Event]) -> list[ev.TerritoryCaptured]:
    return of(evs, ev.TerritoryCaptured)


# --------------------------------------------------------------------------------------------
# P-4: production levels change at once


def test_P_4_capture_after_a_battle_changes_income_at_once() -> None:
    """P-4/CC-7c: Germany attacks Karelia (value 1, 1 Soviet infantry) with 2 infantry. Dice:
    German 1, 5 (one hit), Soviet 4 (miss). Germany captures Karelia at the end of the battle:
    Germany 12 -> 13 and the Soviet Union 7 -> 6 before any income is collected."""
    g = Game(position(GER, "combat_move", {
        "West Russia": {GER: {"infantry": 2}},
        "Karelia": {SU: {"infantry": 1}},
    }))
    g.move({"infantry": 2}, "West Russia", "Karelia")
    g.end()
    assert g.json["battles"] == ["Karelia"]
    g.script(1, 5, 4)
    evs = g.do(od.Battle(space="Karelia", all=True))
    rolls = of(evs, ev.DiceRolled)
    assert [(r.side, r.groups, r.hits) for r in rolls] == [
        ("attacker", (("infantry", 1, (1, 5)),), 1),
        ("defender", (("infantry", 2, (4,)),), 0),
    ]
    assert captured(evs) == [ev.TerritoryCaptured(space="Karelia", by=GER, previous=SU,
                                                  owner=GER, how="battle", rule="CC-7b")]
    assert g.units("Karelia", GER) == {"infantry": 2} and g.units("Karelia", SU) == {}
    assert g.json["income"][GER] == 13 and g.json["income"][SU] == 6
    assert g.json["treasury"] == {SU: 7, GER: 12, UK: 12, JPN: 9, US: 15}


def test_P_4_blitz_changes_income_during_combat_move() -> None:
    """P-4/CM-25: a German tank blitzes from Eastern Europe through empty Soviet Karelia to
    German West Russia. Karelia is German at that moment, in Combat Move: Germany 13, Soviet
    Union 6."""
    g = Game(position(GER, "combat_move", {"Eastern Europe": {GER: {"tank": 1}}}))
    evs = g.move({"tank": 1}, "Eastern Europe", "West Russia", "Karelia")
    assert captured(evs) == [ev.TerritoryCaptured(space="Karelia", by=GER, previous=SU,
                                                  owner=GER, how="blitz", rule="CM-25")]
    assert g.json["phase"] == "combat_move"
    assert g.owner("Karelia") == GER and g.units("West Russia", GER) == {"tank": 1}
    assert g.json["income"][GER] == 13 and g.json["income"][SU] == 6


# --------------------------------------------------------------------------------------------
# LIB-1..LIB-3 Liberation


def test_LIB_1_liberated_territory_returns_to_its_original_controller() -> None:
    """LIB-1/P-4: the United Kingdom takes German-held Karelia (originally Soviet) while Moscow
    is Soviet: Karelia is liberated to the Soviet Union (Soviet income 6 -> 7, Germany 13 ->
    12); the United Kingdom gains nothing (12)."""
    g = Game(position(UK, "combat_move", {"Archangel": {UK: {"infantry": 1}}},
                      owners={"Karelia": GER}))
    assert (g.json["income"][SU], g.json["income"][GER]) == (6, 13)
    g.move({"infantry": 1}, "Archangel", "Karelia")
    evs = g.end()
    assert captured(evs) == [ev.TerritoryCaptured(space="Karelia", by=UK, previous=GER,
                                                  owner=SU, how="liberation", rule="LIB-1")]
    assert g.owner("Karelia") == SU
    assert g.units("Karelia", UK) == {"infantry": 1}
    assert (g.json["income"][SU], g.json["income"][GER], g.json["income"][UK]) == (7, 12, 12)


def test_LIB_1_liberated_complex_returns_to_its_original_controller() -> None:
    """LIB-1: the industrial complex in a liberated territory returns with it: the United
    Kingdom frees German-held Caucasus (Soviet complex); territory and complex are Soviet."""
    g = Game(position(UK, "combat_move", {"Middle East": {UK: {"infantry": 1}}},
                      owners={"Caucasus": GER}))
    assert g.units("Caucasus", GER) == IC
    g.move({"infantry": 1}, "Middle East", "Caucasus")
    g.end()
    assert g.owner("Caucasus") == SU
    assert g.units("Caucasus", SU) == IC and g.units("Caucasus", UK) == {"infantry": 1}
    assert g.json["income"][SU] == 7


def test_LIB_2_captured_instead_while_the_original_capital_is_enemy_held() -> None:
    """LIB-2/P-4: Moscow is German. The United Kingdom takes German-held Karelia: it is captured
    by the United Kingdom (UK 12 -> 13, Germany loses 1), not liberated, and it stays British
    after Conduct Combat (A-14)."""
    g = Game(position(UK, "combat_move", {"Archangel": {UK: {"infantry": 1}}},
                      owners={"Karelia": GER, "Russia": GER}))
    before = g.json["income"]
    g.move({"infantry": 1}, "Archangel", "Karelia")
    evs = g.end()
    assert g.json["phase"] == "noncombat_move"
    assert captured(evs) == [ev.TerritoryCaptured(space="Karelia", by=UK, previous=GER,
                                                  owner=UK, how="no battle", rule="CC-0b")]
    assert g.owner("Karelia") == UK
    assert g.json["income"] == {**before, UK: before[UK] + 1, GER: before[GER] - 1}


def test_LIB_2_capturer_uses_the_complex_until_the_capital_is_liberated() -> None:
    """LIB-2/MB-1: the United Kingdom captured Soviet Caucasus while Moscow was German. On its
    next turn (Caucasus British since the start of the turn) it may place there, up to
    Caucasus's value 2."""
    g = Game(position(UK, "purchase", owners={"Caucasus": UK, "Russia": GER}))
    g.do(od.Buy(units={"infantry": 3}))
    while g.state.phase != "mobilize":
        g.end()
    g.do(od.Place(units={"infantry": 2}, space="Caucasus"))
    assert g.units("Caucasus", UK) == {"industrial complex": 1, "infantry": 2}
    g.refuse(od.Place(units={"infantry": 1}, space="Caucasus"), "Caucasus can place 0 more")


def test_A_14_capital_liberated_later_in_the_same_turn_settles_liberation() -> None:
    """LIB-2/A-14/CAP-3: Moscow is German. A British infantry takes German-held Karelia first
    (captured: Moscow is enemy-held), then another liberates Moscow. By the end of Conduct
    Combat Karelia and British-held Archangel are Soviet again; all Soviet income is back (7)."""
    g = Game(position(UK, "combat_move", {"Archangel": {UK: {"infantry": 2}}},
                      owners={"Karelia": GER, "Russia": GER, "Archangel": UK}))
    g.move({"infantry": 1}, "Archangel", "Karelia")
    g.move({"infantry": 1}, "Archangel", "Russia")
    evs = g.end()
    assert g.json["phase"] == "noncombat_move"
    assert captured(evs) == [
        ev.TerritoryCaptured(space="Karelia", by=UK, previous=GER, owner=UK, how="no battle",
                             rule="CC-0b"),
        ev.TerritoryCaptured(space="Russia", by=UK, previous=GER, owner=SU, how="liberation",
                             rule="LIB-1"),
        ev.TerritoryCaptured(space="Archangel", by=SU, previous=UK, owner=SU,
                             how="capital liberated", rule="CAP-3"),
        ev.TerritoryCaptured(space="Karelia", by=SU, previous=UK, owner=SU,
                             how="capital liberated", rule="CAP-3"),
    ]
    for t in ("Karelia", "Russia", "Archangel"):
        assert g.owner(t) == SU, t
    assert g.json["income"][SU] == 7 and g.json["income"][UK] == 12
    assert g.json["income"][GER] == 12


def test_LIB_3_retaking_an_own_territory_is_an_ordinary_capture() -> None:
    """LIB-3: the Soviet Union retakes its own Karelia from Germany under the normal capture
    rules (Soviet 6 -> 7, Germany 13 -> 12)."""
    g = Game(position(SU, "combat_move", {"Archangel": {SU: {"infantry": 1}}},
                      owners={"Karelia": GER}))
    g.move({"infantry": 1}, "Archangel", "Karelia")
    evs = g.end()
    assert captured(evs) == [ev.TerritoryCaptured(space="Karelia", by=SU, previous=GER,
                                                  owner=SU, how="no battle", rule="CC-0b")]
    assert (g.json["income"][SU], g.json["income"][GER]) == (7, 12)


# --------------------------------------------------------------------------------------------
# CAP-1..CAP-3 Capitals


def test_CAP_1_capturing_moscow_seizes_the_treasury() -> None:
    """CAP-1 (rulebook example): Germany takes Moscow while the Soviet Union has 6 IPCs: Germany
    gets the 6 at once (5 -> 11), the Soviet Union has 0. Battle: 2 German tanks against 1
    Soviet infantry; dice German 1, 6 (one hit), Soviet 6 (miss). Russia (value 3) and its
    complex become German: Germany 15, Soviet Union 4."""
    g = Game(position(GER, "combat_move", {
        "West Russia": {GER: {"tank": 2}},
        "Russia": {SU: {"infantry": 1, **IC}},
    }, treasury={SU: 6, GER: 5}))
    g.move({"tank": 2}, "West Russia", "Russia")
    g.end()
    g.script(1, 6, 6)
    evs = g.do(od.Battle(space="Russia", all=True))
    assert [(r.side, r.groups, r.hits) for r in of(evs, ev.DiceRolled)] == [
        ("attacker", (("tank", 3, (1, 6)),), 1),
        ("defender", (("infantry", 2, (6,)),), 0),
    ]
    assert captured(evs) == [ev.TerritoryCaptured(
        space="Russia", by=GER, previous=SU, owner=GER, how="battle", seized=6,
        seized_from=SU, rule="CAP-1")]
    assert g.json["phase"] == "conduct_combat"
    assert (g.json["treasury"][GER], g.json["treasury"][SU]) == (11, 0)
    assert g.units("Russia", GER) == {"industrial complex": 1, "tank": 2}
    assert (g.json["income"][GER], g.json["income"][SU]) == (15, 4)
    assert state_json(engine.replay(g.events)) == g.json  # the seizure is in the log


def test_CAP_1_treasury_seized_even_without_own_capital() -> None:
    """CAP-1: the capturer takes the treasury even if its own capital is in enemy hands.
    Germany, Berlin British-held, takes empty Moscow: the Soviet 7 IPCs go to Germany (0 ->
    7); Germany still collects no income (IN-2)."""
    g = Game(position(GER, "combat_move", {"West Russia": {GER: {"tank": 1}}},
                      owners={"Germany": UK}, treasury={GER: 0}))
    g.move({"tank": 1}, "West Russia", "Russia")
    evs = g.end()
    assert captured(evs) == [ev.TerritoryCaptured(
        space="Russia", by=GER, previous=SU, owner=GER, how="no battle", seized=7,
        seized_from=SU, rule="CAP-1")]
    assert (g.json["treasury"][GER], g.json["treasury"][SU]) == (7, 0)
    evs = finish_turn(g)
    assert of(evs, ev.IncomeCollected) == []
    assert g.json["treasury"][GER] == 7


def test_CAP_1_only_a_capital_moves_ipcs() -> None:
    """CAP-1/P-5: capturing an ordinary territory moves no IPCs: Germany takes empty Soviet
    Caucasus (with its complex); both treasuries stay as they were."""
    g = Game(position(GER, "combat_move", {"Ukraine": {GER: {"tank": 1}}}))
    g.move({"tank": 1}, "Ukraine", "Caucasus")
    evs = g.end()
    assert captured(evs) == [ev.TerritoryCaptured(space="Caucasus", by=GER, previous=SU,
                                                  owner=GER, how="no battle", rule="CC-0b")]
    assert (g.json["treasury"][GER], g.json["treasury"][SU]) == (12, 7)


def test_CAP_2_power_without_capital_cannot_buy() -> None:
    """CAP-2/T-4: the Soviet Union, Moscow German-held, starts its turn in Combat Move: a buy is
    refused (WrongPhase), though it has 7 IPCs."""
    g = Game(position(SU, "purchase", owners={"Russia": GER}))
    assert g.json["phase"] == "combat_move"
    err = g.refuse(od.Buy(units={"infantry": 1}), "'buy' belongs to Purchase Units")
    assert isinstance(err, WrongPhase)


def test_CAP_2_income_resumes_after_liberation() -> None:
    """CAP-2/CAP-3: the United Kingdom liberates Moscow; Karelia, which it held, returns to the
    Soviet Union. On its next turn the Soviet Union buys again and collects its full 7."""
    g = Game(position(UK, "combat_move", {"Archangel": {UK: {"infantry": 1}}},
                      owners={"Russia": GER, "Karelia": UK}, treasury={SU: 0}))
    g.move({"infantry": 1}, "Archangel", "Russia")
    finish_turn(g)  # United Kingdom
    finish_turn(g)  # Japan
    finish_turn(g)  # United States
    assert (g.json["round"], g.json["power"], g.json["phase"]) == (2, SU, "purchase")
    evs = finish_turn(g)
    assert ev.IncomeCollected(power=SU, amount=7) in evs
    assert g.json["treasury"][SU] == 7


def test_CAP_2_retaking_its_own_capital_restores_the_economy_that_turn() -> None:
    """CAP-2/LIB-3/CAP-3: the Soviet Union, Moscow German-held, began its turn in Combat Move
    (no purchase). It retakes Moscow itself; British-held Karelia returns with it. Mobilize and
    Collect Income are no longer skipped: it collects its full 7 this very turn (0 -> 7)."""
    g = Game(position(SU, "purchase", {"Archangel": {SU: {"infantry": 1}}},
                      owners={"Karelia": UK, "Russia": GER}, treasury={SU: 0}))
    assert g.json["phase"] == "combat_move"
    g.move({"infantry": 1}, "Archangel", "Russia")
    evs = g.end()
    assert captured(evs) == [
        ev.TerritoryCaptured(space="Russia", by=SU, previous=GER, owner=SU, how="no battle",
                             rule="CC-0b"),
        ev.TerritoryCaptured(space="Karelia", by=SU, previous=UK, owner=SU,
                             how="capital liberated", rule="CAP-3"),
    ]
    g.end()
    assert g.json["phase"] == "mobilize"
    evs = g.end()
    assert ev.IncomeCollected(power=SU, amount=7) in evs
    assert g.json["treasury"][SU] == 7


def test_CAP_3_liberating_a_capital_returns_territories_held_by_friends() -> None:
    """CAP-3: the United Kingdom liberates Moscow (German-held). Karelia (British) and
    Archangel (American), originally Soviet, return to the Soviet Union with Moscow; Caucasus,
    held by the enemy, stays German. Soviet income 7 - 2 (Caucasus) = 5."""
    g = Game(position(UK, "combat_move", {"West Russia": {UK: {"infantry": 1}}},
                      owners={"Russia": GER, "Karelia": UK, "Archangel": US, "Caucasus": GER,
                              "West Russia": UK}))
    g.move({"infantry": 1}, "West Russia", "Russia")
    evs = g.end()
    assert captured(evs) == [
        ev.TerritoryCaptured(space="Russia", by=UK, previous=GER, owner=SU, how="liberation",
                             rule="LIB-1"),
        ev.TerritoryCaptured(space="Archangel", by=SU, previous=US, owner=SU,
                             how="capital liberated", rule="CAP-3"),
        ev.TerritoryCaptured(space="Karelia", by=SU, previous=UK, owner=SU,
                             how="capital liberated", rule="CAP-3"),
    ]
    assert [g.owner(t) for t in ("Russia", "Karelia", "Archangel", "Caucasus")] == [
        SU, SU, SU, GER]
    assert g.units("Russia", SU) == IC
    assert g.json["income"][SU] == 5


def test_CAP_3_no_ipcs_change_hands_on_liberation() -> None:
    """CAP-3 (rulebook example): the United Kingdom takes Moscow back from Germany; Germany
    gives up nothing: every treasury is unchanged (Germany 30, Soviet Union 0, UK 12)."""
    g = Game(position(UK, "combat_move", {"Archangel": {UK: {"infantry": 1}}},
                      owners={"Russia": GER}, treasury={GER: 30, SU: 0}))
    before = g.json["treasury"]
    g.move({"infantry": 1}, "Archangel", "Russia")
    evs = g.end()
    assert [(e.space, e.seized, e.seized_from) for e in captured(evs)] == [("Russia", 0, None)]
    assert g.json["treasury"] == before
