"""Every event type has a one-line description."""

from __future__ import annotations

import pytest

from rules import events as ev
from rules.engine import new_game, replay
from rules.facilities import ComplexDowngraded, FacilityDamaged
from rules.mechanisms import (
    bombing,
    convoys,
    interception,
    liberation,
    neutrals,
    objectives,
    rockets,
    scramble,
    victory,
)
from rules.mechanisms.bombard import BombardmentChosen
from rules.mechanisms.combat import ShipsRepaired
from rules.mechanisms.facilities import ComplexUpgraded, FacilityRepaired
from rules.mechanisms.politics import BansLifted, WarDeclared
from rules.mechanisms.research import ResearchRolled, TechnologyDeveloped
from rules.mechanisms.withdrawal import SubmarinesWithdrew
from rules.state import GameState
from service.describe import describe, describe_all, describer, map_lines, status_lines


def event_types() -> list[type]:
    return list(ev.event_types().values())


@pytest.fixture(scope="module")
def state() -> GameState:
    return replay(new_game("1941"))


def some_units(state: GameState, power: str, n: int = 2) -> tuple[int, ...]:
    return tuple(u.id for u in state.units.values() if u.owner == power)[:n]


def samples(s: GameState) -> dict[type, ev.Event]:
    ger = some_units(s, "Germany")
    sov = some_units(s, "Soviet Union")
    return {
        ev.GameStarted: ev.GameStarted(edition="a1941", options=("short",)),
        ev.BattleRoundStarted: ev.BattleRoundStarted(space="Ukraine", round=2),
        ev.SubmarinesDeclared: ev.SubmarinesDeclared(
            space="Ukraine", side="defender", by="Soviet Union", strike=sov[:1], submerge=sov[1:2]
        ),
        SubmarinesWithdrew: SubmarinesWithdrew(
            space="Ukraine", side="defender", by="Soviet Union", units=sov[:1], to="Russia"
        ),
        bombing.RaidResolved: bombing.RaidResolved(
            space="Germany", attacker="United Kingdom", defender="Germany", bombers=ger[:1],
            damage=6,
        ),
        neutrals.NeutralInvaded: neutrals.NeutralInvaded(
            space="Sweden", attacker="Germany", seat="United Kingdom", joins="pro_allied",
            army={"infantry": 6}, turned=("Turkey", "Switzerland"), rule="UN-3, SN-2",
        ),
        neutrals.NeutralJoined: neutrals.NeutralJoined(
            space="Sweden", power="United Kingdom", army={"infantry": 4}, rule="UN-5, FN-3"
        ),
        neutrals.NeutralStood: neutrals.NeutralStood(
            space="Sweden", units=(), army={"infantry": 4}, joins="pro_allied"
        ),
        bombing.FacilityBombed: bombing.FacilityBombed(
            space="Germany", facility="industrial complex", owner="Germany",
            attacker="United Kingdom", bombers=ger[:2], lost=ger[:1], rolled=5,
        ),
        interception.InterceptorsCommitted: interception.InterceptorsCommitted(
            space="Germany", power="Germany", units=ger[:1]),
        interception.AirBattleFought: interception.AirBattleFought(
            space="Germany", attacker="United Kingdom", defenders=("Germany",),
            attacking=sov[:1], defending=ger[:1], attacker_hits=1, defender_hits=0),
        interception.AirCasualtiesChosen: interception.AirCasualtiesChosen(
            space="Germany", side="defender", by="Germany", lost=ger[:1]),
        interception.AirBattleEnded: interception.AirBattleEnded(
            space="Germany", bombers=sov[:1], escorts=(), interceptors=ger[1:2]),
        scramble.UnitsScrambled: scramble.UnitsScrambled(
            power="Germany", frm="Germany", to="Baltic Sea", units=ger[:1]),
        scramble.LandingHeld: scramble.LandingHeld(
            space="Ukraine", zone="Baltic Sea", aboard=((ger[0], ger[1]),)),
        ev.TurnStarted: ev.TurnStarted(round=2, power="Germany"),
        ev.PhaseChanged: ev.PhaseChanged(
            power="Germany", phase="mobilize", skipped=("purchase",), rule="T-4"
        ),
        ev.UnitsPurchased: ev.UnitsPurchased(
            power="Germany", units={"infantry": 3, "tank": 1}, cost=15
        ),
        ev.PurchaseCleared: ev.PurchaseCleared(power="Germany", refund=15),
        ev.UnitsMoved: ev.UnitsMoved(
            power="Germany",
            phase="combat_move",
            frm="Germany",
            to="Eastern Europe",
            moves=tuple(
                ev.UnitMove(id=i, path=("Germany", "Eastern Europe"), cost=1) for i in ger
            ),
        ),
        ev.TerritoryCaptured: ev.TerritoryCaptured(
            space="Ukraine", by="Germany", previous="Soviet Union", owner="Germany", how="battle"
        ),
        ev.BattleOpened: ev.BattleOpened(
            space="Ukraine",
            attacker="Germany",
            defenders=("Soviet Union",),
            sea=False,
            attacking=ger,
            defending=sov,
        ),
        ev.SeaborneLanded: ev.SeaborneLanded(space="Ukraine", units=ger),
        ev.NeutralViolated: ev.NeutralViolated(power="Germany", space="Turkey", fee=3),
        ev.DiceRolled: ev.DiceRolled(
            space="Ukraine",
            round=1,
            side="attacker",
            purpose="attack",
            groups=(("infantry", 1, (3, 1)), ("tank", 3, (6,))),
            hits=1,
        ),
        ev.CasualtiesChosen: ev.CasualtiesChosen(
            space="Ukraine", side="defender", by="Soviet Union", lost=sov[:1]
        ),
        ev.UnitsRemoved: ev.UnitsRemoved(ids=sov[:1], reason="casualties", rule="CC-5"),
        ev.BattleRoundEnded: ev.BattleRoundEnded(
            space="Ukraine", round=1, next_step="press_or_retreat"
        ),
        ev.BattlePressed: ev.BattlePressed(space="Ukraine"),
        ev.BattleRetreated: ev.BattleRetreated(space="Ukraine", to="Eastern Europe", units=ger),
        ev.BattleEnded: ev.BattleEnded(space="Ukraine", result="attacker"),
        ev.UnitsPlaced: ev.UnitsPlaced(
            power="Germany",
            space="Germany",
            units=((9001, "infantry", None), (9002, "infantry", None)),
            factory="Germany",
        ),
        ev.DamagePaid: ev.DamagePaid(
            power="Germany", amount=6, paid=4, debt=2, reason="a bombing raid on Germany",
            rule="R-SBR-05",
        ),
        ev.PurchaseRefunded: ev.PurchaseRefunded(power="Germany", units={"tank": 1}, amount=6),
        ev.IncomeCollected: ev.IncomeCollected(power="Germany", amount=12),
        ResearchRolled: ResearchRolled(
            power="Germany", dice=2, cost=10, rolls=(("research|Germany|round 1", (6, 3)),),
            breakthroughs=1,
        ),
        TechnologyDeveloped: TechnologyDeveloped(
            power="Germany", tech="jet_power", rolls=(("development|Germany|round 1", (1,)),)
        ),
        rockets.RocketFired: rockets.RocketFired(
            power="Germany", frm="Germany", target="Caucasus", victim="Soviet Union",
            rolls=(("rocket|Germany|Caucasus|round 1", (4,)),),
        ),
        ev.PurchaseLost: ev.PurchaseLost(power="Germany", units={"tank": 1}),
        WarDeclared: WarDeclared(power="Germany", on="Soviet Union", loading=("Baltic Sea",)),
        BansLifted: BansLifted(space="United Kingdom", by="Germany", powers=("Soviet Union",),
                               on=("Germany",)),
        convoys.ConvoyDisrupted: convoys.ConvoyDisrupted(
            power="United Kingdom", zone="Sea Zone 7", raiders=(("Germany", "submarine", 1),),
            rolls=(("convoy|Sea Zone 7|United Kingdom|round 1|Germany|submarine", (2, 5)),),
            total=2, cap=8, loss=2,
        ),
        objectives.ObjectivesPaid: objectives.ObjectivesPaid(
            power="Germany", paid=(("ger_trade", 5, ()), ("ger_middle_east", 4, ("Iraq", "Persia"))),
        ),
        liberation.LiberationBonusOwed: liberation.LiberationBonusOwed(
            power="United Kingdom", space="United Kingdom", bonus="uk_free", value=12,
        ),
        liberation.FreeUnitsPlaced: liberation.FreeUnitsPlaced(
            power="United Kingdom", space="United Kingdom", bonus="uk_free",
            units=((900, "infantry"), (901, "infantry")), cost=6,
        ),
        victory.VictoryCitiesCounted: victory.VictoryCitiesCounted(
            power="Germany", held=(("Axis", ("Germany",)), ("Allies", ("Russia",))), met=(),
        ),
        BombardmentChosen: BombardmentChosen(space="Ukraine", frm="Sea Zone 4",
                                             ships=ger[:1], rule="AA-2"),
        ShipsRepaired: ShipsRepaired(ids=ger[:1], rule="PU-4"),
        FacilityDamaged: FacilityDamaged(
            space="Germany", facility="major industrial complex", owner="Germany", markers=8,
            added=5, total=20, cap=20, rule="BR-10",
        ),
        ComplexDowngraded: ComplexDowngraded(
            space="Germany", unit=ger[0], frm="major industrial complex",
            to="minor industrial complex", damage=6, removed=4,
        ),
        FacilityRepaired: FacilityRepaired(
            power="Germany", space="Germany", facility="air base", markers=3, cost=3, left=1,
        ),
        ComplexUpgraded: ComplexUpgraded(
            power="Germany", space="Germany", unit=ger[0], upgrade="industrial complex upgrade",
            frm="minor industrial complex", to="major industrial complex", production=10,
        ),
        ev.GameWon: ev.GameWon(side="Axis", rule="V-1", capitals=("Moscow", "London")),
        ev.StandingOrderSet: ev.StandingOrderSet(power="Germany", order=("infantry", "tank")),
        ev.DiceCommitted: ev.DiceCommitted(
            scheme="umpire-fair-v1", game_id="g1", commitment="ab" * 32, chain_length=100
        ),
        ev.DiceEntropyFixed: ev.DiceEntropyFixed(phrases={"Germany": "cd" * 32}),
        ev.DiceSeedRevealed: ev.DiceSeedRevealed(round=1, seed="ef" * 32),
        ev.SideConceded: ev.SideConceded(side="Allies", powers=("Soviet Union",)),
        ev.GameEnded: ev.GameEnded(result="draw", powers=("Germany", "Soviet Union")),
        ev.EditApplied: ev.EditApplied(
            proposal=1, text="edit money Germany 50", proposer="alice", agreed="bob",
            agreed_for=("Soviet Union",), treasury=(("Germany", 50),),
        ),
    }


def test_every_event_type_has_a_describer() -> None:
    missing = [t.__name__ for t in event_types() if describer(t) is None]
    assert missing == []


def test_every_event_type_reads_as_one_line(state: GameState) -> None:
    table = samples(state)
    untested = [t.__name__ for t in event_types() if t not in table]
    assert untested == [], "add a sample event for each new event type"
    for t, e in table.items():
        line = describe(state, e)
        assert line and "\n" not in line and line.endswith("."), (t.__name__, line)


def test_examples_from_the_brief(state: GameState) -> None:
    table = samples(state)
    assert describe(state, table[ev.UnitsPurchased]) == "Germany bought 3 infantry, 1 tank (15 IPCs)."
    assert describe(state, table[ev.UnitsMoved]).startswith(
        "Germany moved 2 "
    ) and describe(state, table[ev.UnitsMoved]).endswith("from Germany to Eastern Europe.")
    assert describe(state, table[ev.DiceRolled]).startswith(
        "Battle in Ukraine, round 1: attacker rolled 3,1,6 → 1 hit"
    )
    assert describe(state, table[ev.TerritoryCaptured]).startswith(
        f"Germany captured Ukraine (+{state.edition.value('Ukraine')} income)"
    )


def test_describe_all_from_a_new_game() -> None:
    lines = describe_all(None, new_game("1941"))
    assert lines[0] == "A game of Axis & Allies 1941 began."
    assert lines[1] == "Round 1: Soviet Union's turn begins."


def test_text_views(state: GameState) -> None:
    assert status_lines(state)[0] == "Round 1, Soviet Union's turn, Purchase Units."
    (line, near) = map_lines(state, "Germany")
    assert line.startswith("Germany [Germany, ") and "capital of Germany" in line
    assert near.startswith("Next to it: ")


def test_an_edit_says_what_changed_and_who_agreed(state: GameState) -> None:
    line = describe(state, samples(state)[ev.EditApplied])
    was = state.treasury["Germany"]
    assert line == (f"Edit #1: Germany's treasury set to 50 IPCs (was {was}). Proposed by alice, "
                    "agreed by bob for Soviet Union; no dice involved.")


def test_CC_6B_air_units_that_stay_are_not_listed_as_retreating() -> None:
    """CC-6B: on a retreat the land units go to one space; the aircraft stay in the contested
    space and land in Noncombat Move. The answer and the battle board say where each went."""
    from render.battle import _outcome, battle_record
    from rules import engine
    from rules import orders as od
    from tests.rules.helpers import Game, position

    ger, sov = "Germany", "Soviet Union"
    g = Game(position(ger, "combat_move", {
        "Eastern Europe": {ger: {"tank": 2}},
        "Germany": {ger: {"fighter": 1}},
        "Ukraine": {sov: {"infantry": 3}},
    }, owners={"Ukraine": sov}))
    g.move({"tank": 2}, "Eastern Europe", "Ukraine")
    g.move({"fighter": 1}, "Germany", "Ukraine", "Eastern Europe")
    g.end()
    opened = len(g.events)
    g.script(6, 6, 6, 6, 6, 6)
    g.do(od.Battle(space="Ukraine"))
    before = g.state
    (retreat,) = [e for e in g.do(od.Retreat(space="Ukraine", to="Eastern Europe"))
                  if isinstance(e, ev.BattleRetreated)]
    line = describe(before, retreat)
    assert line == ("Germany retreated 2 tanks from Ukraine to Eastern Europe; 1 fighter stays "
                    "in Ukraine and lands in Noncombat Move (CC-6B).")
    assert g.units("Eastern Europe", ger) == {"tank": 2}
    assert g.units("Ukraine", ger) == {"fighter": 1}
    at_open = engine.replay(g.events[:opened])
    rec = battle_record(at_open, g.events[opened - 1:])
    assert (rec.retreated, rec.stayed) == ({"tank": 2}, {"fighter": 1})
    assert _outcome(rec, g.state.edition) == (
        "Germany retreats 2 tanks to Eastern Europe; 1 fighter stays in Ukraine to land later; "
        "Soviet Union holds Ukraine.")
