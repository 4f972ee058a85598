"""Europe 1940 scramble (digest §9.8 SC-1..SC-8, AA-1, AA-8, NC-3, §22.7): fighters and
tactical bombers from an operational air base into a sea battle beside it, decided by the
defender after Combat Move, fought as ordinary defenders, home at the start of Noncombat Move."""

from __future__ import annotations

from typing import Any

from rules import orders as od
from rules.defaults import default_orders
from rules.engine import pending
from rules.legal import legal_orders
from rules.mechanisms import interception, scramble
from rules.mechanisms.interception import Intercept
from rules.mechanisms.scramble import Scramble
from tests.rules.e40.test_raids import lines
from tests.rules.helpers import Game, position

GER, UK = "Germany", "United Kingdom"
SZ109, SZ110 = "Sea Zone 109", "Sea Zone 110"
HB, NB = "Holland Belgium", "Normandy Bordeaux"


def e40(power: str, units: dict[str, dict[str, dict[str, int]]], **extra: Any) -> Game:
    return Game(position(power, "combat_move", units, edition="europe1940", **extra))


def german_strike(uk: dict[str, int] | None = None, zones: tuple[str, ...] = (SZ110,),
                  more: dict[str, dict[str, dict[str, int]]] | None = None,
                  **extra: Any) -> Game:
    """A German submarine attacks a British destroyer in each of ``zones``; the United Kingdom
    has an air base and ``uk``."""
    units: dict[str, dict[str, dict[str, int]]] = {
        UK: {UK: {"air base": 1, **(uk or {"fighter": 3})}},
        **{z: {UK: {"destroyer": 1}, GER: {"submarine": 1}} for z in zones}, **(more or {})}
    g = e40(GER, units, **extra)
    g.end()
    return g


def owed(g: Game) -> list[tuple[str, str, str | None]]:
    return [(p.power, p.what, p.space) for p in pending(g.state)]


def offered(g: Game, power: str = UK) -> list[Scramble]:
    return [o for o in legal_orders(g.state, power) if isinstance(o, Scramble)]


def said(g: Game, order: od.Order, power: str | None = None) -> list[str]:
    return lines(g, len(g.do(order, power)))


# --------------------------------------------------------------------------------------------
# SC-1: the window, owed by the defender


def test_SC_1_the_defender_owes_its_scramble_before_any_combat() -> None:
    g = e40(GER, {HB: {GER: {"fighter": 2}}, SZ110: {UK: {"destroyer": 1}},
                  UK: {UK: {"air base": 1, "fighter": 2}}}, owners={HB: GER})
    g.move({"fighter": 2}, HB, SZ110)
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 1}),
             "Planes scramble once the attacker's Combat Move is over, before any combat (SC-1)",
             power=UK)
    g.end()
    assert owed(g) == [(UK, "scramble", UK)]
    g.refuse(od.Battle(space=SZ110), "First the defenders say what scrambles (SC-1): waiting "
             "for United Kingdom in United Kingdom")
    # the attacker's moves are over: Conduct Combat has begun
    g.refuse(od.Move(units={"fighter": 1}, frm=SZ110, to=HB))
    # the deadline's default: nothing scrambles (best reading)
    assert default_orders(g.state) == [Scramble(power=UK, space=UK, units={})]
    assert said(g, Scramble(space=UK, to=SZ110, units={"fighter": 1}), UK) == [
        "United Kingdom scrambles 1 fighter from United Kingdom to Sea Zone 110: they defend "
        "there, cannot retreat and fight nothing else this turn (SC-2, SC-4)."]
    # still owed: one more fighter may scramble
    assert owed(g) == [(UK, "scramble", UK)]
    assert said(g, Scramble(space=UK, units={}), UK) == [
        "United Kingdom scrambles nothing more from United Kingdom (SC-1)."]
    assert owed(g) == [(GER, "turn (conduct_combat)", None)]
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 1}), power=UK)
    assert g.units(SZ110, UK) == {"destroyer": 1, "fighter": 1}
    assert g.units(UK, UK) == {"major industrial complex": 1, "air base": 1, "fighter": 1}


def test_SC_1_no_scramble_once_a_battle_is_fought() -> None:
    g = german_strike({"fighter": 1})
    g.refuse(Scramble(space="Scotland", to=SZ109, units={}), "Scotland has no operational air "
             "base to scramble from (SC-2)", power=UK)
    g.do(Scramble(units={}), UK)  # 'scramble none': from every territory
    assert owed(g) == [(GER, "turn (conduct_combat)", None)]
    g.script(6, 6, 6)
    g.do(od.Battle(space=SZ110))
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 1}), "before any combat (SC-1)",
             power=UK)


def test_SC_8_a_unit_that_intercepts_cannot_scramble_and_the_reverse() -> None:
    """Both decisions are owed in the one window; a fighter does one or the other."""
    g = e40(GER, {"Western Germany": {GER: {"strategic bomber": 1}}, HB: {GER: {"fighter": 2}},
                  SZ110: {UK: {"destroyer": 1}},
                  UK: {UK: {"air base": 1, "major industrial complex": 1, "fighter": 3}}},
            owners={HB: GER})
    g.do(od.Move(units={"strategic bomber": 1}, frm="Western Germany", to=UK, raid=True))
    g.move({"fighter": 2}, HB, SZ110)
    g.end()
    assert owed(g) == [(UK, "interception", UK), (UK, "scramble", UK)]
    g.do(Intercept(space=UK, units={"fighter": 2}), UK)
    assert interception.interceptors(g.state, UK) != []
    assert [o.units for o in offered(g) if o.units] == [{"fighter": 1}]
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 2}),
             "United Kingdom's planes in United Kingdom that may scramble: 1 fighter (SC-2)",
             power=UK)
    # the other way round: the scrambled fighters are no longer there to intercept
    g = e40(GER, {"Western Germany": {GER: {"strategic bomber": 1}}, HB: {GER: {"fighter": 2}},
                  SZ110: {UK: {"destroyer": 1}},
                  UK: {UK: {"air base": 1, "major industrial complex": 1, "fighter": 3}}},
            owners={HB: GER})
    g.do(od.Move(units={"strategic bomber": 1}, frm="Western Germany", to=UK, raid=True))
    g.move({"fighter": 2}, HB, SZ110)
    g.end()
    g.do(Scramble(space=UK, to=SZ110), UK)  # all that may: 3 fighters
    assert g.units(SZ110, UK) == {"destroyer": 1, "fighter": 3}
    assert owed(g) == [(GER, "bombing raid", UK)]


# --------------------------------------------------------------------------------------------
# SC-2: who scrambles, from where, to where


def test_SC_2_fighters_and_tactical_bombers_never_strategic_bombers() -> None:
    g = german_strike({"fighter": 1, "tactical bomber": 1, "strategic bomber": 1})
    assert [o.units for o in offered(g)] == [
        {}, {"tactical bomber": 1}, {"fighter": 1}, {"fighter": 1, "tactical bomber": 1}]
    g.refuse(Scramble(space=UK, to=SZ110, units={"strategic bomber": 1}),
             "United Kingdom's planes in United Kingdom that may scramble: 1 fighter, 1 tactical "
             "bomber (SC-2)", power=UK)
    g.do(Scramble(space=UK, to=SZ110, units={"fighter": 1, "tactical bomber": 1}), UK)
    assert g.units(SZ110, UK) == {"destroyer": 1, "fighter": 1, "tactical bomber": 1}
    assert g.units(UK, UK) == {"major industrial complex": 1, "air base": 1,
                               "strategic bomber": 1}


def test_SC_2_only_from_an_operational_air_base_into_a_battle_beside_it() -> None:
    # an air base with 3 damage is not operational (§15.3): nothing is owed
    g = german_strike(damage={UK: {"air base": 3}})
    assert owed(g) == [(GER, "turn (conduct_combat)", None)]
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 1}),
             "United Kingdom has no operational air base to scramble from (SC-2)", power=UK)
    # no air base at all
    g = german_strike({"fighter": 1}, more={"Scotland": {UK: {"fighter": 2}}})
    g.refuse(Scramble(space="Scotland", to=SZ109, units={"fighter": 1}),
             "Scotland has no operational air base", power=UK)
    # an air base with no sea battle beside it
    g = german_strike({"fighter": 1}, more={"Scotland": {UK: {"air base": 1, "fighter": 2}}})
    assert owed(g) == [(UK, "scramble", UK)]
    g.refuse(Scramble(space="Scotland", to=SZ109, units={"fighter": 1}),
             "No sea battle beside Scotland to scramble into", power=UK)
    # at 2 damage it still works; but only into a sea zone beside it with a battle
    g = german_strike(damage={UK: {"air base": 2}})
    assert owed(g) == [(UK, "scramble", UK)]
    g.refuse(Scramble(space=UK, to=SZ109, units={"fighter": 1}),
             "Planes from United Kingdom scramble only into a sea zone beside it where the "
             "attacker fights friendly units or launched an amphibious assault (SC-2): Sea Zone "
             "110, not Sea Zone 109.", power=UK)


def test_SC_2_into_the_zone_of_a_landing_whatever_territory_it_assaults() -> None:
    """British transports land in Normandy Bordeaux from Sea Zone 110, where no German unit is:
    German fighters scramble from Holland Belgium's air base; the sea battle they make comes
    first (SC-6, AA-1), even with no German ship there."""
    g = e40(UK, {SZ110: {UK: {"transport": 1, "infantry": 2}},
                 NB: {GER: {"infantry": 1}}, HB: {GER: {"air base": 1, "fighter": 2}}},
            owners={NB: GER, HB: GER})
    g.move({"infantry": 2}, SZ110, NB)
    g.end()
    assert owed(g) == [(GER, "scramble", HB)]
    assert said(g, Scramble(space=HB, to=SZ110, units={"fighter": 2}), GER) == [
        "Germany scrambles 2 fighters from Holland Belgium to Sea Zone 110: they defend there, "
        "cannot retreat and fight nothing else this turn (SC-2, SC-4).",
        "Sea battle in Sea Zone 110: United Kingdom (1 transport) against Germany: 2 fighters.",
        "The scramble makes a sea battle in Sea Zone 110: the landing in Normandy Bordeaux "
        "waits for it, with no bombardment; 2 infantry go back aboard to land once Sea Zone "
        "110 is cleared (SC-6, AA-1)."]
    assert g.units(SZ110, UK) == {"transport": 1, "infantry": 2}
    g.refuse(od.Battle(space=NB), "Sea Zone 110")
    # the defenceless transport is sunk with its cargo: the landing failed
    g.script(4, 5)
    g.fight_out(SZ110)
    assert g.units(SZ110, UK) == {}
    assert g.json["battles"] == []


# --------------------------------------------------------------------------------------------
# SC-3: three per territory, split among its sea zones; three from each territory into a zone


def test_SC_3_three_per_territory_split_among_its_sea_zones() -> None:
    g = german_strike({"fighter": 4}, zones=(SZ110, SZ109))
    g.do(Scramble(space=UK, to=SZ109, units={"fighter": 2}), UK)
    assert owed(g) == [(UK, "scramble", UK)]
    assert [(o.to, o.units) for o in offered(g)] == [
        (None, {}), (SZ109, {"fighter": 1}), (SZ110, {"fighter": 1})]
    g.refuse(Scramble(space=UK, to=SZ110, units={"fighter": 2}),
             "At most 3 planes scramble from United Kingdom in all (SC-3): 1 more may, not 2.",
             power=UK)
    g.do(Scramble(space=UK, to=SZ110, units={"fighter": 1}), UK)
    # the territory's 3 are out: nothing more is owed, the fourth fighter stays home
    assert owed(g) == [(GER, "turn (conduct_combat)", None)]
    assert g.units(SZ109, UK) == {"destroyer": 1, "fighter": 2}
    assert g.units(SZ110, UK) == {"destroyer": 1, "fighter": 1}
    assert g.units(UK, UK)["fighter"] == 1
    assert sorted(scramble.scrambled(g.state, UK), key=lambda u: u.id) == sorted(
        scramble.scrambled(g.state), key=lambda u: u.id)


def test_SC_3_a_sea_zone_takes_three_from_each_air_base_beside_it() -> None:
    """Sea Zone 109 borders the United Kingdom and Scotland: with an air base in each, six
    fighters defend there."""
    g = german_strike({"fighter": 3}, zones=(SZ109,),
                      more={"Scotland": {UK: {"air base": 1, "fighter": 3}}})
    assert owed(g) == [(UK, "scramble", "Scotland"), (UK, "scramble", UK)]
    g.do(Scramble(space=UK, to=SZ109), UK)
    g.do(Scramble(space="Scotland", to=SZ109, units={"fighter": 3}), UK)
    assert g.units(SZ109, UK) == {"destroyer": 1, "fighter": 6}
    assert len(g.state.battles[SZ109].defending) == 7


# --------------------------------------------------------------------------------------------
# SC-4, SC-5: ordinary defenders at sea, out of their territory's battle, home afterwards


def landing(ships: dict[str, int], germans: dict[str, dict[str, dict[str, int]]],
            air: dict[str, int] | None = None, **extra: Any) -> Game:
    """British transports land 2 infantry in German Normandy Bordeaux from Sea Zone 110 with
    ``ships``; ``air``: British fighters from the United Kingdom, 'land' into Normandy
    Bordeaux, 'sea' into the zone (SC-7)."""
    units: dict[str, dict[str, dict[str, int]]] = {
        SZ110: {UK: {"transport": 1, "infantry": 2, **ships}},
        UK: {UK: {"fighter": sum((air or {}).values())}} if air else {}}
    for space, by_power in germans.items():
        units.setdefault(space, {}).update(by_power)
    g = e40(UK, units, owners={NB: GER, HB: GER}, **extra)
    g.move({"infantry": 2}, SZ110, NB)
    if (air or {}).get("land"):
        g.move({"fighter": (air or {})["land"]}, UK, NB)
    if (air or {}).get("sea"):
        g.move({"fighter": (air or {})["sea"]}, UK, SZ110)
    g.end()
    return g


def test_SC_4_scrambled_fighters_defend_at_sea_and_leave_their_territorys_battle() -> None:
    """AA-8: fighters in an assaulted territory defend it only, unless they scramble; then they
    fight at sea and not in their territory."""
    g = landing({"destroyer": 1}, {NB: {GER: {"air base": 1, "fighter": 2, "infantry": 1}}})
    before = g.state.battles[NB].defending
    assert len(before) == 3
    g.do(Scramble(space=NB, to=SZ110, units={"fighter": 2}), GER)
    b = g.state.battles[NB]
    assert [g.state.units[i].type for i in b.defending] == ["infantry"]
    assert b.blocked_by == SZ110
    sea = g.state.battles[SZ110]
    assert sorted(g.state.units[i].type for i in sea.defending) == ["fighter", "fighter"]
    # the destroyer misses; the fighters defend at 4: both hit, the British ships are gone
    g.script(6, 4, 4)
    g.fight_out(SZ110)
    assert g.units(SZ110, UK) == {} and g.units(SZ110, GER) == {"fighter": 2}
    assert g.json["battles"] == []  # the landing failed (AA-5)
    # SC-5: home at the start of Noncombat Move, before the attacker's moves
    n = len(g.end())
    assert g.state.phase == "noncombat_move"
    assert g.units(NB, GER) == {"minor industrial complex": 1, "air base": 1, "fighter": 2,
                                "infantry": 1}
    assert lines(g, n) == ["United Kingdom: Noncombat Move.",
                           "Germany moved 2 fighters from Sea Zone 110 to Normandy Bordeaux."]


def british_coast(**extra: Any) -> Game:
    """Normandy Bordeaux is British, with an air base and a fighter; Germany attacks it by land
    from France and a British destroyer in Sea Zone 110 with a submarine there."""
    g = e40(GER, {NB: {UK: {"air base": 1, "fighter": 1}}, "France": {GER: {"tank": 2}},
                  SZ110: {UK: {"destroyer": 1}, GER: {"submarine": 1}}},
            owners={NB: UK, "France": GER, **extra.pop("owners", {})}, **extra)
    g.move({"tank": 2}, "France", NB)
    g.end()
    g.do(Scramble(space=NB, to=SZ110, units={"fighter": 1}), UK)
    # Normandy Bordeaux has no defender left: taken; the submarine misses and is sunk
    g.fight_out(NB)
    assert g.owner(NB) == GER
    g.script(6, 1, 6)
    g.fight_out(SZ110)
    assert g.units(SZ110, GER) == {}
    return g


def test_SC_5_home_captured_one_space_to_a_friendly_territory() -> None:
    g = british_coast()
    n = len(g.end())
    assert g.units(UK, UK) == {"major industrial complex": 1, "fighter": 1}
    assert "Germany moves" not in " ".join(lines(g, n))


def test_SC_5_home_captured_and_nowhere_within_one_space_lost() -> None:
    g = british_coast(owners={UK: GER, "Scotland": GER})
    evs = g.end()
    assert g.units(UK, UK) == {} and g.units(SZ110, UK) == {"destroyer": 1}
    assert ("United Kingdom: 1 fighter (scrambled fighter could not land: Normandy Bordeaux "
            "was captured, SC-5)"
            in " ".join(lines(g, len(evs))))


# --------------------------------------------------------------------------------------------
# SC-6, SC-7: a scramble makes the sea battle of a landing


def test_SC_6_the_scramble_forces_a_sea_battle_with_the_ignored_submarine_and_transport() -> None:
    g = landing({"destroyer": 1, "cruiser": 1},
                {SZ110: {GER: {"submarine": 1, "transport": 1}},
                 NB: {GER: {"infantry": 1}}, HB: {GER: {"air base": 1, "fighter": 1}}})
    # the landing passed the submarine by (CM-29): no sea battle, the cruiser bombards
    assert list(g.state.battles) == [NB] and g.state.battles[NB].bombarding
    g.do(Scramble(space=HB, to=SZ110, units={"fighter": 1}), GER)
    sea = g.state.battles[SZ110]
    assert sorted(g.state.units[i].type for i in sea.defending) == [
        "fighter", "submarine", "transport"]
    land = g.state.battles[NB]
    assert land.blocked_by == SZ110 and land.bombarding == () and land.seaborne == ()
    g.refuse(od.Battle(space=NB), "Sea Zone 110")
    # the British win the sea battle: the infantry land, and the land battle is fought
    g.script(1, 1, 6, 6)
    g.fight_out(SZ110)
    assert g.units(SZ110, GER) == {}
    assert g.units(NB, UK) == {"infantry": 2}
    assert g.state.battles[NB].blocked_by is None and len(g.state.battles[NB].seaborne) == 2


def test_SC_7_the_attackers_planes_fight_where_combat_move_put_them() -> None:
    g = landing({"destroyer": 1}, {NB: {GER: {"infantry": 1}}, SZ110: {GER: {"submarine": 1}},
                                   HB: {GER: {"air base": 1, "fighter": 1}}},
                air={"land": 1, "sea": 1})
    g.do(Scramble(space=HB, to=SZ110, units={"fighter": 1}), GER)
    sea, land = g.state.battles[SZ110], g.state.battles[NB]
    types = g.state.units
    assert sorted(types[i].type for i in sea.attacking) == ["destroyer", "fighter", "transport"]
    assert sorted(types[i].type for i in land.attacking) == ["fighter"]
    assert sorted(types[i].type for i in sea.defending) == ["fighter", "submarine"]


# --------------------------------------------------------------------------------------------
# How players write it, the legal orders, a game played by them


def test_SC_orders_as_players_write_them() -> None:
    from service.language import LANGUAGE, names_for, parse

    names = names_for("europe1940")
    assert parse("scramble 2 fighters from United Kingdom to Sea Zone 110", names) == \
        Scramble(space=UK, to=SZ110, units={"fighter": 2})
    assert parse("scramble 1 fighter, 1 tac from uk to sz 110", names) == \
        Scramble(space=UK, to=SZ110, units={"fighter": 1, "tactical bomber": 1})
    assert parse("scramble from United Kingdom to Sea Zone 110", names) == \
        Scramble(space=UK, to=SZ110)
    assert parse("scramble none from United Kingdom", names) == Scramble(space=UK, units={})
    assert parse("scramble none", names) == Scramble(units={})
    for order in (Scramble(space=UK, to=SZ110, units={"fighter": 2}), Scramble(units={}),
                  Scramble(space=UK, units={}), Scramble(space=UK, to=SZ110)):
        line = LANGUAGE.line(order)
        assert line is not None and parse(line, names) == order, line
    assert LANGUAGE.line(Scramble(space=UK, to=SZ110, units={"fighter": 2})) == \
        "scramble 2 fighters from United Kingdom to Sea Zone 110"


def test_SC_the_legal_orders_play_a_scramble_through() -> None:
    """Every order offered while scrambles are owed and fought is accepted, to Noncombat Move."""
    from rules import engine
    from rules.dice import HmacDice

    g = landing({"destroyer": 1}, {NB: {GER: {"air base": 1, "fighter": 2, "infantry": 1}},
                                   HB: {GER: {"air base": 1, "fighter": 1,
                                              "tactical bomber": 1}}})
    dice = HmacDice(b"scramble")
    for step in range(40):
        waits = pending(g.state)
        if g.state.phase != "conduct_combat":
            break
        who = waits[0].power
        options = list(legal_orders(g.state, who))
        assert options
        order = options[-1] if step < 2 else options[0]  # scramble some, then fight
        for e in engine.decide(g.state, order, dice):
            g.state = engine.evolve(g.state, e)
            g.events.append(e)
    assert g.state.phase == "noncombat_move"
    assert g.state.part(scramble.Scrambles).flights


# --------------------------------------------------------------------------------------------
# CM-26: planes standing by in a landing's zone for the planes the defender may scramble


def standby(germans: dict[str, dict[str, dict[str, int]]]) -> Game:
    """British transports land 2 infantry in German Normandy Bordeaux from an empty Sea Zone
    110; 2 British fighters wait in the United Kingdom."""
    units: dict[str, dict[str, dict[str, int]]] = {
        SZ110: {UK: {"transport": 1, "infantry": 2}}, UK: {UK: {"fighter": 2}},
        NB: {GER: {"infantry": 1}}, **germans}
    g = e40(UK, units, owners={NB: GER, HB: GER})
    g.move({"infantry": 2}, SZ110, NB)
    return g


def test_CM_26_planes_stand_by_in_a_landings_zone_and_fight_the_scrambled_planes() -> None:
    """CM-26: "If defenders might scramble into that sea zone, you may move additional units
    there to fight the scrambled aircraft": a German air base with a fighter beside the
    landing's zone; a British fighter moves into the empty zone in Combat Move. Germany
    scrambles; the sea battle has the British fighter and transport against it."""
    g = standby({HB: {GER: {"air base": 1, "fighter": 1}}})
    g.move({"fighter": 1}, UK, SZ110)
    assert g.units(SZ110, UK) == {"transport": 1, "fighter": 1}
    g.end()
    g.do(Scramble(space=HB, to=SZ110, units={"fighter": 1}), GER)
    sea = g.state.battles[SZ110]
    types = g.state.units
    assert sorted(types[i].type for i in sea.attacking) == ["fighter", "transport"]
    assert [types[i].type for i in sea.defending] == ["fighter"]
    g.script(1, 6)  # the British fighter hits (3), the German fighter misses (4)
    g.fight_out(SZ110)
    assert g.units(SZ110, GER) == {} and g.units(SZ110, UK) == {"transport": 1, "fighter": 1}


def test_CM_26_no_scramble_the_planes_fight_nothing_there() -> None:
    g = standby({HB: {GER: {"air base": 1, "fighter": 1}}})
    g.move({"fighter": 1}, UK, SZ110)
    g.end()
    g.do(Scramble(space=HB, units={}), GER)
    assert SZ110 not in g.state.battles
    assert g.units(SZ110, UK) == {"transport": 1, "fighter": 1}


def test_CM_26_no_standing_by_where_no_defender_could_scramble() -> None:
    """No air base beside the zone (a fighter alone in Holland Belgium), or an air base whose
    planes cannot scramble (a strategic bomber): nothing hostile may come; the move is refused
    as any combat move into an empty zone (CM-4)."""
    for germans in ({HB: {GER: {"fighter": 1}}}, {HB: {GER: {"air base": 1,
                                                             "strategic bomber": 1}}}):
        g = standby(germans)
        g.refuse(od.Move(units={"fighter": 1}, frm=UK, to=SZ110),
                 "Combat Move must end in combat: there is nothing hostile in Sea Zone 110")


def test_CM_26_only_the_zone_a_landing_leaves_from() -> None:
    """No landing leaves from Sea Zone 109, the United Kingdom's other zone: planes may not
    stand by there."""
    g = standby({HB: {GER: {"air base": 1, "fighter": 1}}})
    g.refuse(od.Move(units={"fighter": 1}, frm=UK, to=SZ109),
             "Combat Move must end in combat: there is nothing hostile in Sea Zone 109")


def test_AA_3_CM_25_a_landing_that_waits_for_its_sea_battle_is_told_as_a_move() -> None:
    """CM-25: a landing announced in Combat Move behind a sea battle in its zone waits aboard
    until the zone is cleared (AA-3); the referee tells the move as made (not 'moved no units
    ... stayed airborne', as it once said)."""
    g = e40(UK, {SZ110: {UK: {"transport": 1, "infantry": 1, "destroyer": 1},
                         GER: {"destroyer": 1}},
                 NB: {GER: {"infantry": 1}}}, owners={NB: GER})
    n = len(g.move({"infantry": 1}, SZ110, NB))
    assert lines(g, n) == [
        "United Kingdom moved 1 infantry from Sea Zone 110 to Normandy Bordeaux (amphibious "
        "assault on Normandy Bordeaux)."]
