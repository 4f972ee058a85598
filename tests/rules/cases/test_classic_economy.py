"""Classic economy: income, debts, capitals and liberation (digest rules/classic.md §4.6, §6.7).

Each test is named after its rule ID in the digest.
"""

from __future__ import annotations

from rules import engine, territory
from rules import events as ev
from tests.rules.helpers import Game, position


def test_R_INC_03_unpaid_damage_comes_out_of_the_next_income_first() -> None:
    """R-INC-03 / R-SBR-05: what could not be paid is owed and settled out of the next income."""
    g = Game(position("Germany", "conduct_combat", edition="classic",
                      treasury={"Germany": 2}))
    tx = engine.Tx(g.state)
    territory.charge_damage(tx, "Germany", 5, "a rocket", "R-SBR-05")
    territory.charge_damage(tx, "Germany", 4, "a rocket", "R-SBR-05")
    assert tx.state.treasury["Germany"] == 0
    assert tx.state.debts == {"Germany": 7}
    g.state = tx.state
    g.events.extend(tx.events)
    g.end()  # conduct combat -> noncombat move
    g.end()  # -> mobilize
    evs = g.end()  # -> collect income: debt first
    income = next(e for e in evs if isinstance(e, ev.IncomeCollected))
    npl = g.state.income()["Germany"]
    assert income.amount == npl and income.debt_paid == 7 and income.rule == "R-INC-03"
    assert g.state.treasury["Germany"] == npl - 7
    assert g.state.debts == {}


GER, RUS, UK, JPN, USA = "Germany", "Russia", "United Kingdom", "Japan", "United States"


def test_R_INC_01_income_is_the_national_production_at_the_end_of_the_turn() -> None:
    """R-INC-01 / R-ECO-02: the NPL follows the territories held (Karelia, 3, German)."""
    g = Game(position(GER, "mobilize", edition="classic", owners={"Karelia S.S.R.": GER}))
    npl = g.state.income()[GER]
    assert npl == 32 + 3
    evs = g.end()
    income = next(e for e in evs if isinstance(e, ev.IncomeCollected))
    assert (income.amount, income.rule) == (npl, "R-INC-01")
    assert g.state.treasury[GER] == 32 + npl
    assert g.state.power == UK


def test_R_ECO_02_production_changes_the_moment_a_territory_changes_hands() -> None:
    """R-ECO-02 / R-CON-04: Germany walks into empty Ukraine S.S.R. (Russian, 3): Germany's NPL
    rises and Russia's falls at once, before any income is collected."""
    g = Game(position(GER, "combat_move", {"Eastern Europe": {GER: {"infantry": 1}}},
                      edition="classic", owners={"Ukraine S.S.R.": RUS}))
    before = g.state.income()
    g.move({"infantry": 1}, "Eastern Europe", "Ukraine S.S.R.")
    g.end()
    after = g.state.income()
    assert g.owner("Ukraine S.S.R.") == GER
    assert (after[GER] - before[GER], after[RUS] - before[RUS]) == (3, -3)
    assert g.state.treasury[GER] == 32 and g.state.treasury[RUS] == 24


def test_R_CAP_02_the_captor_of_a_capital_takes_all_its_owners_ipcs() -> None:
    g = Game(position(GER, "combat_move", {"Karelia S.S.R.": {GER: {"infantry": 1}}},
                      edition="classic", owners={"Karelia S.S.R.": GER}))
    g.move({"infantry": 1}, "Karelia S.S.R.", "Russia")
    evs = g.end()
    (cap,) = [e for e in evs if isinstance(e, ev.TerritoryCaptured)]
    assert (cap.seized, cap.seized_from, cap.rule) == (24, RUS, "R-CAP-02")
    assert g.state.treasury[GER] == 32 + 24 and g.state.treasury[RUS] == 0


def test_R_CAP_03_R_INC_02_no_capital_no_buying_no_placing_no_income() -> None:
    """R-CAP-03: Russia, its capital German-held, still moves and fights, but skips research,
    purchase, placement and income (R-BUY-04, R-INC-02)."""
    g = Game(position(RUS, "research", edition="classic", owners={"Russia": GER}))
    assert g.state.phase == "combat_move"
    skipped = next(e for e in g.events if isinstance(e, ev.PhaseChanged)
                   and e.phase == "combat_move")
    assert skipped.skipped == ("research", "purchase") and skipped.rule == "R-CAP-03"
    g.end()
    assert g.state.phase == "noncombat_move"
    evs = g.end()
    assert not any(isinstance(e, ev.IncomeCollected) for e in evs)
    assert g.state.power == GER and g.state.treasury[RUS] == 24


def test_R_LIB_01_liberated_territory_returns_to_its_original_owner() -> None:
    """R-LIB-01: the UK retakes Caucasus (Russian) from Germany while Moscow is Russian: it goes
    back to Russia, which gains its income; the UK gains nothing. A-14: the German AA gun there
    goes to Russia with it."""
    g = Game(position(UK, "combat_move", {"Karelia S.S.R.": {UK: {"infantry": 1}},
                                          "Caucasus": {GER: {"antiaircraft gun": 1}}},
                      edition="classic", owners={"Caucasus": GER}))
    before = g.state.income()
    g.move({"infantry": 1}, "Karelia S.S.R.", "Caucasus")
    evs = g.end()
    (lib,) = [e for e in evs if isinstance(e, ev.TerritoryCaptured)]
    assert (lib.owner, lib.how, lib.rule, lib.seized) == (RUS, "liberation", "R-LIB-01", 0)
    after = g.state.income()
    assert (after[RUS] - before[RUS], after[UK] - before[UK], after[GER] - before[GER]) == (
        3, 0, -3)
    assert g.units("Caucasus", RUS) == {"antiaircraft gun": 1}


def test_R_LIB_02_while_the_allys_capital_is_lost_the_liberator_keeps_it() -> None:
    """R-LIB-02: Moscow is German: the UK takes Caucasus for itself (and its income) until
    Russia's capital is liberated; then it returns to Russia (A-15: liberating the capital
    seizes no cash)."""
    g = Game(position(UK, "combat_move", {"Karelia S.S.R.": {UK: {"infantry": 2}}},
                      edition="classic", owners={"Caucasus": GER, "Russia": GER,
                                                 "Karelia S.S.R.": UK}))
    g.move({"infantry": 1}, "Karelia S.S.R.", "Caucasus")
    g.move({"infantry": 1}, "Karelia S.S.R.", "Russia")
    before = dict(g.state.treasury)
    evs = g.end()
    caps = [e for e in evs if isinstance(e, ev.TerritoryCaptured)]
    first = next(e for e in caps if e.space == "Caucasus")
    assert first.owner == UK
    capital = next(e for e in caps if e.space == "Russia")
    assert (capital.owner, capital.how, capital.seized) == (RUS, "liberation", 0)
    back = [e.space for e in caps if e.how == "capital liberated"]
    assert sorted(back) == ["Caucasus", "Karelia S.S.R."]
    assert all(g.owner(t) == RUS for t in ("Russia", "Caucasus", "Karelia S.S.R."))
    assert g.state.treasury == before


def test_R_LIB_02_the_liberator_collects_the_income_meanwhile() -> None:
    g = Game(position(UK, "combat_move", {"Karelia S.S.R.": {UK: {"infantry": 1}}},
                      edition="classic", owners={"Caucasus": GER, "Russia": GER,
                                                 "Karelia S.S.R.": UK}))
    before = g.state.income()[UK]
    g.move({"infantry": 1}, "Karelia S.S.R.", "Caucasus")
    evs = g.end()
    (cap,) = [e for e in evs if isinstance(e, ev.TerritoryCaptured)]
    assert cap.owner == UK and cap.rule != "R-LIB-01"
    assert g.state.income()[UK] == before + 3
