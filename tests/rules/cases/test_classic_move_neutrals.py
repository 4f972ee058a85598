"""Classic rule cases, neutral territories: R-NEU-01..05, R-ARM-05, A-30. Digest:
shared/rules/classic.md §7.1 (rule IDs R-..., readings A-n)."""

from __future__ import annotations

from dataclasses import replace

from rules import events as ev
from tests.rules.cases._classic_common import (
    CM,
    GER,
    JAP,
    NCM,
    RUS,
    UK,
    USA,
    battles,
    game,
    move,
    of_type,
    one,
)


def test_R_NEU_01_neutrals_belong_to_nobody_and_yield_nothing() -> None:
    """R-NEU-01: Spain, Turkey and Mongolia start unowned and worth 0."""
    g = game(GER, CM)
    for t in ("Spain", "Turkey", "Mongolia", "Sweden", "Switzerland"):
        assert g.owner(t) is None and g.state.edition.value(t) == 0


def test_R_NEU_02_land_units_entering_a_neutral_take_it_and_pay_three() -> None:
    """R-NEU-02: two German infantry enter Spain in Combat Movement: Spain is German at once,
    without a battle; Germany pays 3 IPCs once; the infantry stop there."""
    g = game(GER, CM, {"Western Europe": {GER: {"infantry": 2}}}, treasury={GER: 10})
    evs = g.move({"infantry": 2}, "Western Europe", "Spain")
    (fee,) = of_type(evs, ev.NeutralViolated)
    assert (fee.power, fee.space, fee.fee) == (GER, "Spain", 3)
    (cap,) = of_type(evs, ev.TerritoryCaptured)
    assert (cap.space, cap.owner, cap.previous, cap.how) == ("Spain", GER, None,
                                                             "neutral violation")
    assert g.owner("Spain") == GER and g.state.treasury[GER] == 7
    assert g.units("Spain", GER) == {"infantry": 2}
    assert all(u.stopped for u in g.state.units_in("Spain"))
    g.end()
    assert "Spain" not in battles(g)  # no battle (R-NEU-02)


def test_R_NEU_02_a_power_that_cannot_pay_cannot_violate() -> None:
    """R-NEU-02: the fee is paid at once; with 2 IPCs Germany cannot enter Spain."""
    g = game(GER, CM, {"Western Europe": {GER: {"infantry": 1}}}, treasury={GER: 2})
    g.refuse(move({"infantry": 1}, "Western Europe", "Spain"), "costs 3 IPCs", "has 2",
             "R-NEU-02")


def test_R_NEU_02_land_units_must_stop_in_the_neutral() -> None:
    """R-NEU-02 (A) / R-ARM-03 / R-ARM-05: a tank cannot blitz through Spain into British
    Gibraltar; it may stop in Spain."""
    g = game(GER, CM, {"Western Europe": {GER: {"tank": 1}}}, treasury={GER: 10})
    g.refuse(move({"tank": 1}, "Western Europe", "Gibraltar", "Spain"), "must stop there",
             "R-ARM-05")
    g.move({"tank": 1}, "Western Europe", "Spain")
    tank = one(g, "Spain", GER, "tank")
    assert tank.stopped and tank.moved == 1
    g.refuse(move({"tank": 1}, "Spain", "Gibraltar"), "able to make this move")


def test_R_ARM_05_a_blitz_may_end_in_a_neutral() -> None:
    """R-ARM-02: the second territory of a blitz may be neutral (a violation): a German tank
    blitzes through empty British Persia into Turkey, taking both."""
    g = game(GER, CM, {"Caucasus": {GER: {"tank": 1}}}, owners={"Caucasus": GER},
             treasury={GER: 5})
    evs = g.move({"tank": 1}, "Caucasus", "Turkey", "Persia")
    assert [(c.space, c.how) for c in of_type(evs, ev.TerritoryCaptured)] == [
        ("Turkey", "neutral violation"), ("Persia", "blitz")]
    assert g.owner("Persia") == GER and g.owner("Turkey") == GER
    assert g.state.treasury[GER] == 2


def test_A_30_aircraft_flying_over_a_neutral_violate_it() -> None:
    """A-30 / R-NEU-02: a German fighter flies over Spain to attack British Gibraltar: Spain is
    German and Germany pays 3. Without 'via' the referee takes the route by sea (no fee)."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 2}},
                       "Gibraltar": {UK: {"infantry": 1}}}, treasury={GER: 10})
    evs = g.move({"fighter": 1}, "Western Europe", "Gibraltar")
    assert not of_type(evs, ev.NeutralViolated) and g.owner("Spain") is None
    assert of_type(evs, ev.UnitsMoved)[0].moves[0].path == (
        "Western Europe", "West Mediterranean Sea Zone", "Gibraltar")
    evs = g.move({"fighter": 1}, "Western Europe", "Gibraltar", "Spain")
    assert [e.space for e in of_type(evs, ev.NeutralViolated)] == ["Spain"]
    assert g.owner("Spain") == GER and g.state.treasury[GER] == 7
    assert g.units("Spain", GER) == {}  # aircraft never stop in the neutral


def test_A_30_aircraft_may_not_end_in_a_neutral() -> None:
    """R-NEU-02 (A): aircraft may not stop in a neutral, in either movement phase."""
    g = game(GER, CM, {"Western Europe": {GER: {"fighter": 1, "bomber": 1}}},
             treasury={GER: 10})
    g.refuse(move({"fighter": 1}, "Western Europe", "Spain"), "may not end a move in a neutral",
             "R-NEU-02")
    g.refuse(move({"bomber": 1}, "Western Europe", "Switzerland"), "neutral", "R-NEU-02")


def test_R_NEU_03_afterwards_an_ordinary_territory_of_value_0() -> None:
    """R-NEU-03: once violated, Spain is a German territory worth 0: German income does not
    change, and later moves into it pay nothing (a Non-combat move there is allowed)."""
    g = game(GER, CM, {"Western Europe": {GER: {"infantry": 2}}}, treasury={GER: 10})
    before = g.state.income()[GER]
    g.move({"infantry": 1}, "Western Europe", "Spain")
    assert g.state.income()[GER] == before
    while g.state.phase != NCM:
        g.end()
    evs = g.move({"infantry": 1}, "Western Europe", "Spain")
    assert not of_type(evs, ev.NeutralViolated) and g.state.treasury[GER] == 7
    assert g.units("Spain", GER) == {"infantry": 2}


def test_R_NEU_04_an_occupied_former_neutral_means_a_battle() -> None:
    """R-NEU-04: Turkey, taken by Germany and held by a German infantry, is attacked by Russia:
    an ordinary battle, no fee. An empty German-held Spain is simply taken."""
    g = game(RUS, CM, {"Caucasus": {RUS: {"infantry": 1, "tank": 1}},
                       "Turkey": {GER: {"infantry": 1}}},
             owners={"Turkey": GER}, treasury={RUS: 0})
    evs = g.move({"infantry": 1, "tank": 1}, "Caucasus", "Turkey")
    assert not of_type(evs, ev.NeutralViolated)
    g.end()
    assert battles(g)["Turkey"].defenders == (GER,)


def test_R_NEU_05_no_neutrals_in_non_combat_movement() -> None:
    """R-NEU-05 / R-NCM-03 / R-NCM-04: in Non-combat Movement land units may not enter a neutral
    and aircraft may not fly over one."""
    g = game(GER, NCM, {"Western Europe": {GER: {"infantry": 1, "fighter": 1}},
                        "Caucasus": {GER: {"fighter": 1}}},
             owners={"Caucasus": GER, "Syria-Iraq": GER}, treasury={GER: 10})
    g.refuse(move({"infantry": 1}, "Western Europe", "Spain"), "neutral", "R-NEU-05")
    g.refuse(move({"fighter": 1}, "Caucasus", "Syria-Iraq", "Turkey"),
             "may not fly over a neutral", "R-NCM-04")
    evs = g.move({"fighter": 1}, "Caucasus", "Syria-Iraq")  # round Turkey, through Persia
    assert of_type(evs, ev.UnitsMoved)[0].moves[0].path == ("Caucasus", "Persia", "Syria-Iraq")
    assert g.owner("Turkey") is None and g.state.treasury[GER] == 10


def test_R_NEU_05_landing_range_goes_around_neutrals() -> None:
    """R-NEU-05 / R-NCM-04 / R-CM-06: flights in Non-combat Movement go around unowned neutrals,
    so a US fighter in Panama with 2 of 4 left cannot reach Brazil (2 over Columbia, 3
    around). A neutral violated by the attacking flight itself may be crossed on the way back:
    from Brazil over Argentina-Chile to the Peru Sea Zone (2) and back the same way (2)."""
    g = game(USA, NCM, {"Panama": {USA: {"fighter": 1}}})
    f = one(g, "Panama", USA, "fighter")
    g.state = replace(g.state, units={**g.state.units, f.id: replace(f, moved=2)})
    g.refuse(move({"fighter": 1}, "Panama", "Brazil"), "is 3 going around neutral",
             "R-NCM-04")
    h = game(USA, CM, {"Brazil": {USA: {"fighter": 1}}, "Peru Sea Zone": {JAP: {"submarine": 1}}},
             treasury={USA: 3})
    evs = h.move({"fighter": 1}, "Brazil", "Peru Sea Zone")
    assert [e.space for e in of_type(evs, ev.NeutralViolated)] == ["Argentina-Chile"]
    assert h.owner("Argentina-Chile") == USA and h.state.treasury[USA] == 0


def test_R_NEU_02_landing_from_a_transport_violates_a_neutral() -> None:
    """R-NEU-02: land units brought by sea into a neutral also violate it (Eire, reached only
    from the North Sea Zone); in Non-combat Movement they may not land there (R-NEU-05)."""
    g = game(UK, NCM, {"North Sea Zone": {UK: {"transport": 1, "infantry": 1}}})
    g.refuse(move({"infantry": 1}, "North Sea Zone", "Eire"), "neutral", "R-NEU-05")
    h = game(UK, CM, {"North Sea Zone": {UK: {"transport": 1, "infantry": 1}}},
             treasury={UK: 3})
    evs = h.move({"infantry": 1}, "North Sea Zone", "Eire")
    assert [e.space for e in of_type(evs, ev.NeutralViolated)] == ["Eire"]
    assert h.owner("Eire") == UK and h.units("Eire", UK) == {"infantry": 1}
    h.end()
    assert battles(h) == {}
