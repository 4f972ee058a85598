"""Europe 1940 victory (§3: V-1, V-2, V-4, A-32; §22.15): victory cities held for a round,
recorded at the end of every turn and checked at the start of each power's turn.

Rule IDs cite ``shared/rules/europe1940.md``.
"""

from __future__ import annotations

from typing import Any

from rules import events as ev
from rules import orders as od
from rules.mechanisms.victory import VictoryCitiesCounted, Watch
from rules.messages import OWN_HYPHEN
from tests.rules.e40.test_economy import ALL_WAR, FRA, GER, ITA, SOV, UK, USA, lines, of, pos
from tests.rules.helpers import Game

# Eight victory cities for the Axis, Berlin and Rome among them.
AXIS_EIGHT = {"France": GER, "United Kingdom": GER, "Novgorod": GER, "Volgograd": GER,
              "Egypt": ITA}
# Nine for the Axis without Berlin or Rome (both Allied).
AXIS_NINE_NO_CAPITAL = {**AXIS_EIGHT, "Russia": GER, "Eastern United States": GER,
                        "Ontario": GER, "Germany": UK, "Southern Italy": UK}


def play_until(g: Game, power: str, turns: int = 1) -> list[ev.Event]:
    """End phases, doing nothing, until ``power``'s turn has started ``turns`` times or the
    game is won."""
    out: list[ev.Event] = []
    started = 0
    while not g.state.winner:
        evs = g.end(confirm=True)
        out += evs
        started += sum(1 for e in of(evs, ev.TurnStarted) if e.power == power)
        if started >= turns:
            break
    return out


def won(evs: list[ev.Event]) -> list[tuple[str, str]]:
    """Who won under which rules, as players read them (own_rule's hyphens are plain)."""
    return [(e.side, e.rule.replace(OWN_HYPHEN, "-")) for e in of(evs, ev.GameWon)]


def test_V_1_axis_wins_holding_8_victory_cities_for_a_round_with_an_axis_capital() -> None:
    """V-1 / A-32: the Axis holds 8 victory cities (Berlin and Rome among them) from the end of
    Germany's turn through every turn of the round: at the start of Germany's next turn the
    Axis wins."""
    g = Game(pos(GER, "mobilize", owners=AXIS_EIGHT, war=ALL_WAR))
    evs = play_until(g, GER)
    assert won(evs) == [("Axis", "V-1/A-32")]
    assert of(evs, ev.TurnStarted)[-1].power == GER and g.state.winner == "Axis"
    counted = of(evs, VictoryCitiesCounted)
    assert [c.power for c in counted] == [GER, SOV, USA, UK, ITA, FRA]
    assert all(len(dict(c.held)["Axis"]) == 8 for c in counted)
    said = lines(g, evs)
    assert any(x.startswith("Victory cities at the end of Germany's turn: the Axis 8 (") and
               "held now: V-1" in x for x in said), said
    assert said[-1].startswith("The Axis won the game, holding ") and said[-1].endswith(
        "(V-1/A-32).")


def test_A_32_the_round_counts_from_the_end_of_that_powers_previous_turn() -> None:
    """A-32: a game that starts from a position in the Soviet Union's turn has no previous turn
    of Germany: at Germany's first start nothing happens; the Axis, still holding 8, wins at the
    start of Germany's second turn (the round from the end of its first)."""
    g = Game(pos(SOV, "mobilize", owners=AXIS_EIGHT, war=ALL_WAR))
    evs = play_until(g, GER)
    assert won(evs) == [] and g.state.power == GER
    assert g.state.part(Watch).held  # the Axis powers' watches since their turns' ends
    evs = play_until(g, GER)
    assert won(evs) == [("Axis", "V-1/A-32")]


def test_A_32_a_city_lost_for_one_turn_end_restarts_the_count() -> None:
    """A-32: the condition must hold at the end of every turn since the power's previous turn:
    the UK retakes London in its turn (7 Axis cities at its turn's end), Germany takes it back
    in its own: no win at Germany's start, a win one round later."""
    g = Game(pos(GER, "mobilize", {"Scotland": {UK: {"infantry": 1}}},
                 owners={**AXIS_EIGHT, "Scotland": UK}, war=ALL_WAR))
    play_until(g, UK)
    assert g.state.phase == "combat_move"  # CAP-2: no purchase without London
    g.move({"infantry": 1}, "Scotland", "United Kingdom")
    evs = play_until(g, GER)
    assert g.owner("United Kingdom") == UK and won(evs) == []
    counted = of(evs, VictoryCitiesCounted)
    assert [len(dict(c.held)["Axis"]) for c in counted] == [7, 7, 7]  # UK, Italy, France


def test_V_1_without_a_capital_the_axis_wins_by_liberating_one_that_turn() -> None:
    """V-1: 9 Axis victory cities for a round, but Berlin and Rome Allied: no win at Germany's
    start; Germany liberates Berlin in its turn and wins at the end of it."""
    units = {"Western Germany": {GER: {"infantry": 1}}}
    g = Game(pos(GER, "mobilize", units, owners=AXIS_NINE_NO_CAPITAL, war=ALL_WAR))
    evs = play_until(g, GER)
    assert won(evs) == [] and g.state.power == GER
    assert g.state.phase == "combat_move"  # CAP-2 / TS-5: no purchase without Berlin
    g.move({"infantry": 1}, "Western Germany", "Germany")
    evs = []
    while not g.state.winner and g.state.power == GER:
        evs += g.end(confirm=True)
    assert g.owner("Germany") == GER
    assert won(evs) == [("Axis", "V-1/A-32")]


def test_V_2_allies_win_with_berlin_and_rome_for_a_round_and_an_allied_capital() -> None:
    """V-2: Berlin and Rome Allied from the end of the Soviet Union's turn through the round,
    London (and Moscow...) Allied: the Allies win at the start of the Soviet Union's next turn.
    V-4 / A-23: losing the last Axis capital did not end the game at once."""
    g = Game(pos(SOV, "mobilize", owners={"Germany": SOV, "Southern Italy": UK}, war=ALL_WAR))
    evs = play_until(g, SOV)
    assert won(evs) == [("Allies", "V-2/A-32")]
    assert of(evs, ev.TurnStarted)[-1].power == SOV
    assert [c.met for c in of(evs, VictoryCitiesCounted)] == [(1,)] * 6


def test_V_2_no_allied_capital_no_win() -> None:
    """V-2: Berlin and Rome held for a round but no Allied capital (Washington, London, Paris,
    Moscow all Axis): no win."""
    owners = {"Germany": SOV, "Southern Italy": UK, "Eastern United States": GER,
              "United Kingdom": GER, "France": GER, "Russia": ITA}
    g = Game(pos(SOV, "mobilize", owners=owners, war=ALL_WAR))
    evs = play_until(g, SOV)
    assert won(evs) == [] and g.state.power == SOV


def test_V_4_the_last_axis_capital_falls_and_the_game_goes_on() -> None:
    """V-4 / A-23: the UK takes Rome with Berlin already Allied: the Italian treasury changes
    hands (CAP-1) and the game goes on; the formal checks (V-2) decide later."""
    g = Game(pos(UK, "combat_move", {"Northern Italy": {UK: {"infantry": 1}}},
                 owners={"Germany": SOV, "Northern Italy": UK}, war=ALL_WAR,
                 treasury={ITA: 7, UK: 0}))
    g.move({"infantry": 1}, "Northern Italy", "Southern Italy")
    evs = g.end()
    evs += g.end()
    assert g.owner("Southern Italy") == UK and won(evs) == [] and not g.state.winner
    assert (g.state.treasury[ITA], g.state.treasury[UK]) == (0, 7)


def test_victory_of_1941_is_unchanged_and_records_nothing() -> None:
    """1941 keeps its own checks (capitals after a power's turn): no victory-city record."""
    g = Game()
    evs: list[Any] = []
    for _ in range(8):
        evs += g.do(od.EndPhase(confirm=True, phase=g.state.phase))
    assert of(evs, VictoryCitiesCounted) == []
