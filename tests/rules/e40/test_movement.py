"""Europe 1940 movement and placement (digest §9 CM-13/CM-20..CM-27, §11 NC-4, §12 MO-5, §5.3
NW-3, §16.1 AA guns, §16.3 damaged carriers, A-22, A-31): scripted positions, each test named
after the rule it checks, the referee's refusals asserted as players read them."""

from __future__ import annotations

from typing import Any

from rules import orders as od
from tests.rules.helpers import Game, position

E40 = "europe1940"
GER, UK, ITA, FRA, USA, SOV = ("Germany", "United Kingdom", "Italy", "France", "United States",
                               "Soviet Union")
CM, NCM, MOB = "combat_move", "noncombat_move", "mobilize"
WG, FR, NB, HB = "Western Germany", "France", "Normandy Bordeaux", "Holland Belgium"
MECH = "mechanized infantry"


def game(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]],
         **extra: Any) -> Game:
    return Game(position(power, phase, units, edition=E40, **extra))


def move(units: dict[str, int], frm: str, to: str, *via: str) -> od.Move:
    return od.Move(units=units, frm=frm, to=to, via=via)


# --------------------------------------------------------------------------------------------
# CM-20: mechanized infantry blitz only paired 1:1 with a tank


def _blitz_game() -> Game:
    """Germany in Western Germany; Holland Belgium empty and French; French infantry in
    Normandy Bordeaux."""
    return game(GER, CM, {WG: {GER: {MECH: 3, "tank": 1, "infantry": 1}},
                          NB: {FRA: {"infantry": 1}}},
                owners={FR: FRA, NB: FRA, HB: FRA})


def test_CM_20_mechanized_infantry_blitz_with_a_tank_one_each() -> None:
    g = _blitz_game()
    g.do(move({MECH: 1, "tank": 1}, WG, NB, HB))
    assert g.owner(HB) == GER  # taken on the way (CM-20: control before moving on)
    assert g.units(NB, GER) == {MECH: 1, "tank": 1}


def test_CM_20_mechanized_infantry_cannot_blitz_alone() -> None:
    g = _blitz_game()
    g.refuse(move({MECH: 1}, WG, NB, HB),
             "Mechanized infantry blitzes only together with a tank, one tank for each, the "
             "two starting and ending together (CM-20): this move takes 1 mechanized infantry "
             "through empty hostile Holland Belgium without a tank. Move them in one order, "
             "e.g. 'move 1 mechanized infantry, 1 tank from Western Germany to Normandy "
             "Bordeaux', or stop in Holland Belgium.")
    assert g.owner(HB) == FRA


def test_CM_20_two_mechanized_infantry_with_one_tank_is_one_too_many() -> None:
    g = _blitz_game()
    g.refuse(move({MECH: 2, "tank": 1}, WG, NB, HB),
             "this move takes 2 mechanized infantry through empty hostile Holland Belgium with "
             "1 tank")
    g.do(move({MECH: 2, "tank": 1, "infantry": 1}, WG, HB))  # no blitz: all stop there


def test_CM_20_the_tank_must_make_the_same_blitz_not_an_earlier_one() -> None:
    """A tank that blitzed on its own takes no mechanized infantry along afterwards: the
    territory is German now, and a move of the mechanized infantry that ends there is no
    combat move (CM-2)."""
    g = _blitz_game()
    g.do(move({"tank": 1}, WG, NB, HB))
    g.refuse(move({MECH: 1}, WG, HB), "Combat Move must end in combat: Holland Belgium is "
                                      "friendly (CM-2)")


def test_CM_20_blitz_may_end_in_a_friendly_territory() -> None:
    """... or back where it came from (CM-20: friendly, hostile, or the territory it came
    from)."""
    g = _blitz_game()
    g.do(move({MECH: 1, "tank": 1}, WG, WG, HB))
    assert g.units(WG, GER)[MECH] == 3 and g.units(HB, GER) == {}
    assert g.owner(HB) == GER


def test_CM_20_an_occupied_territory_stops_the_pair() -> None:
    """Any enemy unit stops a blitz, a facility or an AA gun alone included (CM-20)."""
    g = game(GER, CM, {WG: {GER: {MECH: 1, "tank": 1}}, NB: {FRA: {"infantry": 1}}},
             owners={FR: FRA, NB: FRA})
    g.refuse(move({MECH: 1, "tank": 1}, WG, NB, FR),
             "Tanks blitz only through unoccupied hostile territories; France holds enemy units "
             "(a major industrial complex alone stops a blitz too), so the "
             "mechanized infantry must stop there (CM-20).")


def test_CM_20_infantry_never_blitzes() -> None:
    g = _blitz_game()
    g.refuse(move({"infantry": 1, "tank": 1}, WG, NB, HB), "Infantry moves 1")


# --------------------------------------------------------------------------------------------
# §16.1, NC-4, A-31: AA guns move only in Noncombat Move, or aboard a transport loaded before


def test_NC_4_AA_guns_do_not_move_in_combat_move() -> None:
    g = game(GER, CM, {WG: {GER: {"aa gun": 1, "infantry": 1}}, "Sea Zone 112": {GER: {
        "transport": 1}}}, owners={FR: FRA})
    g.refuse(move({"aa gun": 1}, WG, FR),
             "AA guns move only in Noncombat Move (NC-4, A-31). In Combat Move an AA gun "
             "moves only aboard a transport it boarded in an earlier turn, and goes ashore only "
             "with that transport's amphibious assault.")
    g.refuse(move({"aa gun": 1}, WG, "Sea Zone 112"),
             "AA guns move only in Noncombat Move (NC-4, A-31): none boards a transport "
             "in Combat Move.")
    while g.state.phase != NCM:
        g.end()
    g.do(move({"aa gun": 1}, WG, "Germany"))
    assert g.units("Germany", GER)["aa gun"] == 1


def test_A_31_an_AA_gun_aboard_since_an_earlier_turn_lands_in_an_amphibious_assault() -> None:
    """Aboard a British transport in Sea Zone 110 since the turn before, an AA gun sails with
    it in Combat Move and goes ashore in Normandy Bordeaux with the infantry (A-31); it
    attacks nothing, the infantry liberates the territory for France (LI-1)."""
    g = game(UK, CM, {"Sea Zone 111": {UK: {"transport": 1, "aa gun": 1, "infantry": 1}},
                      NB: {GER: {"infantry": 1}}}, owners={NB: GER})
    g.do(move({"transport": 1}, "Sea Zone 111", "Sea Zone 110"))
    g.do(move({"aa gun": 1, "infantry": 1}, "Sea Zone 110", NB))
    assert g.units(NB, UK) == {"aa gun": 1, "infantry": 1}
    g.end()
    g.script(1, 6)  # the British infantry hits at 1, the German infantry misses
    g.fight_out(NB)
    assert g.owner(NB) == FRA
    assert g.units(NB, UK) == {"aa gun": 1, "infantry": 1}


# --------------------------------------------------------------------------------------------
# §16.3, §22.6, MO-5, NC-6, CM-13: a damaged carrier has no air operations


def test_MO_5_no_new_plane_onto_a_damaged_carrier() -> None:
    """A new fighter goes onto one's own carrier next to the complex (MO-5), not onto a
    damaged one (§16.3: no plane may land on it), not even when a new carrier is placed
    beside it: it goes on the new one."""
    units = {"Sea Zone 97": {ITA: {"aircraft carrier": 1}}}
    damaged = {"Sea Zone 97": {ITA: {"aircraft carrier": 1}}}
    g = game(ITA, MOB, units, damaged=damaged, purchase={"fighter": 1})
    g.refuse(od.Place(units={"fighter": 1}, space="Sea Zone 97"),
             "No room for a new fighter in Sea Zone 97: it needs a carrier of Italy's own with a "
             "free slot there, new ones included (MO-5; not an ally's, MN-6); a damaged carrier "
             "takes no plane until it is repaired (§16.3).")
    g.do(od.Place(units={"fighter": 1}, space="Southern Italy"))
    g = game(ITA, MOB, units, damaged=damaged, purchase={"fighter": 2, "aircraft carrier": 1})
    g.do(od.Place(units={"aircraft carrier": 1, "fighter": 2}, space="Sea Zone 97"))
    new = [u for u in g.state.units_in("Sea Zone 97") if u.type == "aircraft carrier"
           and not u.damage]
    assert sum(1 for u in g.state.units_in("Sea Zone 97") if u.carried_by == new[0].id) == 2


def test_NC_6_no_landing_on_a_damaged_carrier() -> None:
    g = game(ITA, NCM, {"Sea Zone 97": {ITA: {"aircraft carrier": 1}},
                        "Southern Italy": {ITA: {"fighter": 1}}},
             damaged={"Sea Zone 97": {ITA: {"aircraft carrier": 1}}})
    g.refuse(move({"fighter": 1}, "Southern Italy", "Sea Zone 97"),
             "Fighter must end Noncombat Move in a safe landing place: the friendly carriers in "
             "Sea Zone 97 have 0 free slots for the 1 fighter that would wait there")


def test_CM_13_a_damaged_carrier_is_no_landing_place_in_the_plan() -> None:
    """A tactical bomber that spends all 4 of its movement attacking Sea Zone 91 needs a
    carrier that can be there at the end of the turn (CM-9, CM-13): the carrier next door in
    Sea Zone 92 can sail there in Noncombat Move, unless it is damaged."""
    units = {"Sea Zone 92": {ITA: {"aircraft carrier": 1}},
             "Southern Italy": {ITA: {"tactical bomber": 1}},
             "Sea Zone 91": {UK: {"destroyer": 1}}}
    g = game(ITA, CM, units, damaged={"Sea Zone 92": {ITA: {"aircraft carrier": 1}}})
    g.refuse(move({"tactical bomber": 1}, "Southern Italy", "Sea Zone 91"),
             "Tactical bomber could not land anywhere after attacking Sea Zone 91: it would "
             "have 0 movement left and no safe landing place within reach")
    g = game(ITA, CM, units)
    g.do(move({"tactical bomber": 1}, "Southern Italy", "Sea Zone 91"))


# --------------------------------------------------------------------------------------------
# NW-3, A-16, CM-22: a power at war with nobody uses no other power's naval base, nor another
# power its


START_WAR = [[GER, UK], [GER, FRA], [UK, ITA], [ITA, FRA]]
SHIPS = ("destroyer", "cruiser")


def _bases_game(power: str, units: dict[str, dict[str, dict[str, int]]],
                war: list[list[str]]) -> Game:
    bases = {"United Kingdom": {UK: {"naval base": 1}},
                "Normandy Bordeaux": {FRA: {"naval base": 1}},
                "Eastern United States": {USA: {"naval base": 1}}}
    return game(power, NCM, {**bases, **units}, war=war)


def test_NW_3_a_neutral_power_uses_no_other_powers_naval_base() -> None:
    """The United States, at war with nobody, gets no +1 from the British and French bases
    beside Sea Zone 110; the United Kingdom gets none from the American base beside Sea Zone
    101 (NW-3, A-16). Once the United States is at war, both do (CM-22: friendly to them)."""
    from rules.board import full_move

    units = {"Sea Zone 110": {USA: {"destroyer": 1}, UK: {"cruiser": 1}},
             "Sea Zone 101": {UK: {"destroyer": 1}}}
    g = _bases_game(UK, units, START_WAR)
    moves = {(u.owner, u.space): full_move(g.state, u) for u in g.state.units.values()
             if u.type in SHIPS}
    assert moves == {(USA, "Sea Zone 110"): 2, (UK, "Sea Zone 110"): 3,
                     (UK, "Sea Zone 101"): 2}
    g.refuse(move({"destroyer": 1}, "Sea Zone 101", "Sea Zone 104"),
             "Destroyer moves 2; Sea Zone 101 → Sea Zone 104 is 3")
    g.do(move({"cruiser": 1}, "Sea Zone 110", "Sea Zone 92"))
    g = _bases_game(UK, units, [*START_WAR, [GER, USA]])
    moves = {(u.owner, u.space): full_move(g.state, u) for u in g.state.units.values()
             if u.type in SHIPS}
    assert moves == {(USA, "Sea Zone 110"): 3, (UK, "Sea Zone 110"): 3,
                     (UK, "Sea Zone 101"): 3}
    g.do(move({"destroyer": 1}, "Sea Zone 101", "Sea Zone 104"))


# --------------------------------------------------------------------------------------------
# CM-27, AA-7: air units in an amphibious assault with a sea battle fight only where they went


def test_CM_27_AA_7_air_units_fight_in_the_sea_battle_or_the_land_battle_never_both() -> None:
    """A British landing in Normandy Bordeaux from Sea Zone 110, where a German destroyer waits:
    the fighter is sent to the sea zone, the tactical bomber to the territory (CM-27). The
    fighter cannot then fly on to the land battle, fights only at sea, and so does not raise
    the tactical bomber to 4 in the land battle (CA-1 pairs within one battle)."""
    sz, sz2 = "Sea Zone 110", "Sea Zone 111"
    g = game(UK, CM, {sz2: {UK: {"transport": 1, "infantry": 1, "cruiser": 1}},
                      "United Kingdom": {UK: {"fighter": 1, "tactical bomber": 1}},
                      sz: {GER: {"destroyer": 1}}, NB: {GER: {"infantry": 1}}},
             owners={NB: GER})
    g.do(move({"transport": 1, "cruiser": 1}, sz2, sz))
    g.do(move({"fighter": 1}, "United Kingdom", sz))
    g.do(move({"tactical bomber": 1}, "United Kingdom", NB))
    g.do(move({"infantry": 1}, sz, NB))
    g.refuse(move({"fighter": 1}, sz, NB),
             "an air unit that made its combat move is committed to the battle it flew to, in "
             "an amphibious assault the sea battle or the land battle, and moves again only to "
             "land in Noncombat Move (CM-6, CM-27, AA-7)")
    g.end()

    def fighting(space: str) -> list[str]:
        return sorted(g.state.units[i].type for i in g.state.battles[space].attacking)

    assert fighting(sz) == ["cruiser", "fighter", "transport"]
    assert fighting(NB) == ["tactical bomber"]
    g.script(1, 6, 6)  # the cruiser sinks the destroyer, the fighter misses; the destroyer too
    g.fight_out(sz)
    g.script(4, 1, 6)  # the tactical bomber at 3 misses with a 4, the infantry hits
    g.fight_out(NB)
    assert g.owner(NB) == FRA  # liberated for France (LI-1)
    fighter = next(u for u in g.state.units.values() if u.type == "fighter")
    assert fighter.space == sz  # it stays over the sea zone and lands in Noncombat Move


def test_air_units_committed_in_combat_move_only_in_europe_1940() -> None:
    """The switch is Europe 1940's: 1941 keeps its own reading (its golden games replay)."""
    from rules.edition import load_edition

    assert load_edition(E40).rules.rules.air_committed_in_combat_move
    assert not load_edition("a1941").rules.rules.air_committed_in_combat_move
    assert not load_edition("classic").rules.rules.air_committed_in_combat_move


def test_CM_13_a_tactical_bomber_may_count_on_a_carrier_to_be_mobilized() -> None:
    """A tactical bomber from Morocco spends all 4 of its movement attacking Sea Zone 97: it
    may, only because Italy bought a carrier it can place there, next to its complexes (CM-9,
    CM-13, NC-6)."""
    units = {"Morocco": {ITA: {"tactical bomber": 1}}, "Sea Zone 97": {UK: {"destroyer": 1}}}
    g = game(ITA, CM, units, owners={"Morocco": ITA})
    g.refuse(move({"tactical bomber": 1}, "Morocco", "Sea Zone 97"),
             "Tactical bomber could not land anywhere after attacking Sea Zone 97: it would "
             "have 0 movement left")
    g = game(ITA, CM, units, owners={"Morocco": ITA}, purchase={"aircraft carrier": 1})
    g.do(move({"tactical bomber": 1}, "Morocco", "Sea Zone 97"))


# --------------------------------------------------------------------------------------------
# A-22, FA-3, CO-4: bases change hands with their territory, usable from the next turn


def test_A_22_captured_bases_become_the_captors_and_serve_its_allies_from_their_next_turn(
) -> None:
    """Germany takes France (its air base) and Normandy Bordeaux (its naval base). They are
    German at once (FA-3), but give no bonus on the turn of the capture (A-22). On Italy's turn
    the Italian fighter taking off from France flies 5 and the Italian destroyer beside
    Normandy Bordeaux sails 3; the British destroyer there gets nothing from a German base."""
    from rules.board import full_move

    g = game(GER, CM, {WG: {GER: {"infantry": 1, "tank": 1}},
                       HB: {GER: {"infantry": 1}},
                       FR: {FRA: {"air base": 1}}, NB: {FRA: {"naval base": 1}}},
             owners={FR: FRA, NB: FRA})
    g.do(move({"infantry": 1, "tank": 1}, WG, FR))
    g.do(move({"infantry": 1}, HB, NB))
    while g.state.phase != NCM:
        g.end()
    assert (g.owner(FR), g.owner(NB)) == (GER, GER)
    assert g.units(FR, GER)["air base"] == 1 and g.units(NB, GER)["naval base"] == 1
    pos = g.json
    pos.update(power=ITA, phase=NCM)
    pos["units"].setdefault(FR, {})[ITA] = {"fighter": 1}
    pos["units"]["Sea Zone 105"] = {ITA: {"destroyer": 1}, UK: {"destroyer": 1}}
    later = Game(pos)
    reach = {(u.owner, u.type): full_move(later.state, u) for u in later.state.units.values()
             if u.type in ("fighter", "destroyer")}
    assert reach == {(ITA, "fighter"): 5, (ITA, "destroyer"): 3, (UK, "destroyer"): 2}
    later.do(move({"destroyer": 1}, "Sea Zone 105", "Sea Zone 90"))
