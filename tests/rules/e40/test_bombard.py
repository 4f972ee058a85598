"""Choosing the ships that bombard a landing (Europe 1940 AA-2, rules/mechanisms/bombard.py):
'bombard <territory> from <sea zone> with 1 battleship, 1 cruiser' (COMMANDS.md)."""

from __future__ import annotations

from rules import orders as od
from rules.language.names import names_for
from rules.language.registry import ORDERS
from rules.mechanisms.bombard import Bombard, BombardmentChosen
from service.describe import describe
from tests.rules.e40._battles import BEACH, GER, OFFSHORE, UK, e40, landing
from tests.rules.helpers import Game

HOLLAND = "Holland Belgium"


def _types(g: Game, space: str) -> list[str]:
    return sorted(g.state.units[i].type for i in g.state.battles[space].bombarding)


def test_AA_2_bombard_order_reads() -> None:
    order = ORDERS.parse("bombard Normandy Bordeaux from sz110 with 1 bb, 1 cruiser",
                         names_for("europe1940"))
    assert order == Bombard(space=BEACH, frm=OFFSHORE, units={"battleship": 1, "cruiser": 1})


def test_AA_2_the_attacker_chooses_the_ships_that_bombard() -> None:
    """AA-2: the referee picks the strongest ships; the attacker may name others before the
    landing's first round; the event says which."""
    g = landing({"battleship": 1, "cruiser": 1}, {"infantry": 1}, {"infantry": 1})
    assert _types(g, BEACH) == ["battleship"]
    before = g.state
    evs = g.do(Bombard(space=BEACH, frm=OFFSHORE, units={"cruiser": 1}))
    assert _types(g, BEACH) == ["cruiser"]
    (e,) = evs
    assert isinstance(e, BombardmentChosen)
    assert describe(before, e) == ("United Kingdom's 1 cruiser in Sea Zone 110 will bombard "
                                   "Normandy Bordeaux (AA-2).")
    g.script(3, 6, 6)
    fired = g.do(od.Battle(space=BEACH))
    assert fired[1].groups == (("cruiser", 3, (3,)),)  # type: ignore[attr-defined]


def test_AA_2_bombard_refusals() -> None:
    """AA-2: no more ships than land units unloaded; only ships that bombard; only from a zone
    the landing came from; only before its first round."""
    g = landing({"battleship": 1, "cruiser": 1, "destroyer": 1}, {"infantry": 1},
                {"infantry": 2})
    g.refuse(Bombard(space=BEACH, frm=OFFSHORE, units={"battleship": 1, "cruiser": 1}),
             "No more ships may bombard Normandy Bordeaux than land units were unloaded "
             "there: 1 (AA-2)")
    g.refuse(Bombard(space=BEACH, frm=OFFSHORE, units={"destroyer": 1}),
             "A destroyer does not bombard (AA-2)")
    g.refuse(Bombard(space=BEACH, frm=OFFSHORE, units={"battleship": 2}),
             "has 1 battleship in Sea Zone 110 free to bombard, not 2")
    g.refuse(Bombard(space=BEACH, frm="Sea Zone 109", units={"battleship": 1}),
             "came from Sea Zone 110, not Sea Zone 109")
    g.refuse(Bombard(space=HOLLAND, frm=OFFSHORE, units={"battleship": 1}),
             "no amphibious assault of yours to bombard in Holland Belgium")
    g.script(6, 6, 6, 6)
    g.do(od.Battle(space=BEACH))
    g.refuse(Bombard(space=BEACH, frm=OFFSHORE, units={"cruiser": 1}),
             "chosen before its first round")


def test_AA_2_no_bombard_order_after_a_sea_battle() -> None:
    """AA-1 / AA-2: no bombardment after a sea battle in the landing's zone."""
    g = landing({"battleship": 1, "cruiser": 1}, {"infantry": 2}, {"infantry": 1},
                units_extra={OFFSHORE: {GER: {"destroyer": 1}}})
    g.refuse(Bombard(space=BEACH, frm=OFFSHORE, units={"cruiser": 1}),
             "a sea battle was fought in Sea Zone 110")


def test_AA_2_a_ship_supports_one_landing_the_order_moves_it() -> None:
    """AA-2: assaulting two territories from one zone, the attacker splits the ships: a ship
    named for one landing no longer bombards the other."""
    g = e40(UK, "combat_move", {OFFSHORE: {UK: {"battleship": 1, "cruiser": 1, "transport": 3,
                                                "tank": 3}},
                                BEACH: {GER: {"infantry": 1}}, HOLLAND: {GER: {"infantry": 1}}},
            owners={BEACH: GER, HOLLAND: GER})
    g.move({"tank": 2}, OFFSHORE, BEACH)
    g.move({"tank": 1}, OFFSHORE, HOLLAND)
    g.end()
    both = _types(g, BEACH) + _types(g, HOLLAND)
    assert sorted(both) == ["battleship", "cruiser"]
    g.do(Bombard(space=HOLLAND, frm=OFFSHORE, units={"battleship": 1}))
    assert _types(g, HOLLAND) == ["battleship"]
    assert "battleship" not in _types(g, BEACH)
