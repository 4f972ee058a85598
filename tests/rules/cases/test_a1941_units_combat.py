"""Rule cases for unit profiles and the parts of combat that shape every battle (§4, §9, §14)."""

from __future__ import annotations

from rules import orders as od
from rules.dice import HmacDice
from rules.edition import load_edition
from tests.rules.helpers import Game, position

GER, SU, UK, USA = "Germany", "Soviet Union", "United Kingdom", "United States"


def test_UL_2_UC_1_UD_1_USB_1_UT_1_unit_stats() -> None:
    """UL-2, UF-1, UB-1, USB-1, UT-1, UD-1, UC-1, UB-2 and PU-6: cost, attack, defence, move."""
    ed = load_edition("a1941")
    stats = {u.name: (u.cost, u.attack, u.defense, u.move, u.hits) for u in ed.units.values()}
    assert stats == {
        "infantry": (3, 1, 2, 1, 1),
        "tank": (6, 3, 3, 2, 1),
        "fighter": (10, 3, 4, 4, 1),
        "bomber": (12, 4, 1, 6, 1),
        "submarine": (6, 2, 1, 2, 1),
        "transport": (7, 0, 0, 2, 1),
        "destroyer": (8, 2, 2, 2, 1),
        "aircraft carrier": (12, 1, 2, 2, 1),
        "battleship": (16, 4, 4, 2, 2),
        "industrial complex": (None, 0, 0, 0, 1),
    }


def test_CMP_2_no_unit_limit() -> None:
    """CMP-2: purchases are limited by money only, never by the pieces in the box."""
    g = Game(position(GER, "purchase", treasury={GER: 999}))
    g.do(od.Buy(units={"infantry": 333}))
    assert g.state.purchase == {"infantry": 333}
    assert g.json["treasury"][GER] == 0


def test_A_19_dice_are_d6() -> None:
    """A-19 / CMP-3: dice are six-sided; fair dice give every face 1..6."""
    faces = HmacDice(b"key", "game").roll(600, "test")
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_UT_2_transports_never_roll() -> None:
    """UT-2: a transport may take part in a battle but never rolls."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1, "transport": 1}},
        "Sea Zone 6": {GER: {"destroyer": 1, "transport": 1}},
    }))
    g.move({"destroyer": 1, "transport": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(6, 6)  # exactly one die per side: the destroyers
    g.do(od.Battle(space="Sea Zone 6"))
    rolls = [e for e in g.events if e.type == "DiceRolled"]
    assert [grp[0] for e in rolls for grp in e.groups] == ["destroyer", "destroyer"]


def test_CC_1_industrial_complexes_take_no_part() -> None:
    """CC-1 / UL-4: an industrial complex neither rolls nor takes hits; with only a complex left
    the territory falls to the surviving land units."""
    g = Game(position(GER, "combat_move", {
        "West Russia": {GER: {"tank": 1}},
        "Russia": {SU: {"infantry": 1}},
    }))
    g.move({"tank": 1}, "West Russia", "Russia")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Russia"))
    assert g.owner("Russia") == GER
    assert g.units("Russia", GER) == {"tank": 1, "industrial complex": 1}


def test_A_17_damaged_battleship_fires_at_full_value() -> None:
    """A-17 / UB-2 best reading: a damaged battleship still fires at 4."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"battleship": 1}},
        "Sea Zone 6": {GER: {"destroyer": 2}},
    }, damaged={"Sea Zone 7": {UK: {"battleship": 1}}}))
    g.move({"battleship": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(4, 6, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    first = next(e for e in g.events if e.type == "DiceRolled")
    assert first.groups == (("battleship", 4, (4,)),) and first.hits == 1


def test_H_5_cargo_never_takes_hits() -> None:
    """H-5 / CC-2: land units aboard a transport can never be chosen as casualties."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"destroyer": 1, "submarine": 1, "transport": 1, "infantry": 2}},
    }))
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Sea Zone 6"))
    g.refuse(od.Casualties(space="Sea Zone 6", units={"infantry": 1}), "H-5", power=GER)


def test_MN_3_allies_in_an_attacked_sea_zone_stay_out() -> None:
    """MN-3 / CC-2: a friendly power's ships in the attacked zone neither fight nor take hits."""
    g = Game(position(UK, "combat_move", {
        "Sea Zone 7": {UK: {"destroyer": 1}},
        "Sea Zone 6": {GER: {"submarine": 1}, USA: {"destroyer": 1}},
    }))
    g.move({"destroyer": 1}, "Sea Zone 7", "Sea Zone 6")
    evs = g.end()
    opened = next(e for e in evs if e.type == "BattleOpened")
    assert [g.state.units[i].owner for i in opened.attacking] == [UK]
    assert [g.state.units[i].owner for i in opened.defending] == [GER]


def test_MN_6_H_8_defenders_choose_together_land_battles_land_and_air_only() -> None:
    """MN-6 / H-1: any defending power may answer for the defence; H-8: sea units in an adjacent
    zone play no part in a land battle."""
    g = Game(position(GER, "combat_move", {
        "Eastern Europe": {GER: {"tank": 2}},
        "Ukraine": {SU: {"infantry": 1}, UK: {"tank": 1}},
        "Sea Zone 18": {SU: {}},
    }, owners={"Ukraine": SU}))
    g.move({"tank": 2}, "Eastern Europe", "Ukraine")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Ukraine"))
    g.script(6, 6)
    g.do(od.Casualties(space="Ukraine", units={"tank": 1}), power=UK)
    assert g.units("Ukraine", UK) == {}
    assert g.units("Ukraine", SU) == {"infantry": 1}


def test_A_18_blitz_through_an_allys_territory_liberates_it() -> None:
    """A-18 / LIB-1: a tank blitzing through an empty enemy-held territory that was originally an
    ally's liberates it for that ally, and moves on."""
    g2 = Game(position(UK, "combat_move", {
        "Russia": {UK: {"tank": 1}},
        "Archangel": {GER: {}},
        "Karelia": {GER: {"infantry": 1}},
    }, owners={"Archangel": GER, "Karelia": GER}))
    g2.move({"tank": 1}, "Russia", "Karelia", "Archangel")
    assert g2.owner("Archangel") == SU
    assert any(e.type == "TerritoryCaptured" and e.how == "liberation" for e in g2.events)


def test_A_20_units_that_do_not_move_are_always_fine() -> None:
    """A-20: combat move must end in combat, but units that do not move are never a problem."""
    g = Game()
    g.end()
    evs = g.end()
    assert any(e.type == "PhaseChanged" and e.phase == "noncombat_move" for e in evs)


def test_A_21_two_players_one_per_side() -> None:
    """A-21 / P-1: every power belongs to one of two sides, so two players (one a side) suffice."""
    ed = load_edition("a1941")
    assert {ed.side_of(p) for p in ed.powers} == {"Axis", "Allies"}


def test_CMP_1_stacks_are_counted_not_capped() -> None:
    """CMP-1 / CMP-2: stacking counters only show counts; the referee reports exact counts."""
    g = Game(position(GER, "purchase", {"Germany": {GER: {"infantry": 17}}}))
    assert g.units("Germany", GER)["infantry"] == 17


def test_A_5_map_facts_come_from_the_board_data() -> None:
    """A-5: the rulebook lacks the map; our converted data gives every territory a value and an
    owner, and the incomes they add up to match the rulebook's (US: 17 by territories)."""
    ed = load_edition("a1941")
    owners = {s.name: s.original_owner for s in ed.spaces.values() if s.kind == "land"}
    assert ed.income_from(owners) == {"Soviet Union": 7, "Germany": 12, "United Kingdom": 12,
                                      "Japan": 9, "United States": 17}
