"""Classic A-19 / R-AIR-04: a fighter attacking from a carrier flies under its own range from
where the carrier was at the start of the turn; carrying is for non-combat movement."""

from __future__ import annotations

from tests.rules.helpers import Game, position

ZONE, TARGET = "Caroline Islands Sea Zone", "Hawaii Sea Zone"


def _game() -> Game:
    return Game(position("Japan", "combat_move", {
        ZONE: {"Japan": {"aircraft carrier": 1, "fighter": 1}},
        TARGET: {"United States": {"submarine": 1}},
    }, edition="classic"))


def test_A_19_own_fighters_stay_when_their_carrier_moves_in_combat() -> None:
    g = _game()
    g.move({"aircraft carrier": 1}, ZONE, TARGET, "Wake Island Sea Zone")
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    assert fighter.space == ZONE and fighter.carried_by is None and fighter.moved == 0


def test_R_AIR_04_the_fighter_attacks_from_the_carriers_start_with_its_own_range() -> None:
    g = _game()
    g.move({"aircraft carrier": 1}, ZONE, TARGET, "Wake Island Sea Zone")
    g.move({"fighter": 1}, ZONE, TARGET, "Wake Island Sea Zone")
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    assert fighter.space == TARGET and fighter.moved == 2
    g.end()
    battle = g.state.battles[TARGET]
    assert fighter.id in battle.attacking


def test_A_19_in_noncombat_movement_the_carrier_still_carries_its_fighters() -> None:
    g = Game(position("Japan", "noncombat_move", {
        ZONE: {"Japan": {"aircraft carrier": 1, "fighter": 1}},
    }, edition="classic"))
    g.move({"aircraft carrier": 1}, ZONE, "Wake Island Sea Zone")
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    assert fighter.space == "Wake Island Sea Zone" and fighter.carried_by is not None


def test_R_AMP_03_battles_in_any_order_except_the_sea_battle_before_its_landing() -> None:
    """§4.3: Classic fixes no order between battles; 1941's CC-0 (amphibious first) is off."""
    from rules import orders as od

    g = Game(position("Germany", "combat_move", {
        "Southern Europe": {"Germany": {"infantry": 2}},
        "Central Mediterranean Sea Zone": {"Germany": {"transport": 1}},
        "Libya": {"United Kingdom": {"infantry": 1}},
        "Eastern Europe": {"Germany": {"tank": 1}},
        "Karelia S.S.R.": {"Russia": {"infantry": 1}},
    }, edition="classic", owners={"Libya": "United Kingdom"}))
    g.move({"infantry": 2}, "Southern Europe", "Central Mediterranean Sea Zone")
    g.move({"infantry": 2}, "Central Mediterranean Sea Zone", "Libya")
    g.move({"tank": 1}, "Eastern Europe", "Karelia S.S.R.")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Karelia S.S.R.", all=True))  # before the landing in Libya
    assert g.owner("Karelia S.S.R.") == "Germany"
