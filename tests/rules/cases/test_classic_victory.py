"""Classic victory (digest §2: R-WIN-01..03, A-01, A-29): capitals are checked at the end of
every turn; the Axis economic victory (combined NPL >= 84) after the United States' turn, the
end of a full round. There is no Allied economic victory."""

from __future__ import annotations

from rules import events as ev
from rules.edition import load_edition
from tests.rules.helpers import Game, position

GER, RUS, UK, JPN, USA = "Germany", "Russia", "United Kingdom", "Japan", "United States"
CAPITALS = ("Germany", "Japan", "Russia", "United Kingdom", "Eastern United States")


def finish_turn(g: Game) -> list[ev.Event]:
    """End phases until the turn passes (or the game ends)."""
    power = g.state.power
    out: list[ev.Event] = []
    while g.state.power == power and g.state.winner is None:
        out += g.end(confirm=True)
    return out


def won(evs: list[ev.Event]) -> ev.GameWon | None:
    return next((e for e in evs if isinstance(e, ev.GameWon)), None)


def axis_extra(total: int) -> dict[str, str]:
    """Allied non-capital territories worth at least ``total`` more for Japan."""
    ed = load_edition("classic")
    allied = sorted(
        (sp for sp in ed.map.spaces
         if sp.kind == "land" and sp.original_owner in (UK, RUS, USA)
         and sp.name not in CAPITALS and sp.value > 0),
        key=lambda sp: (-sp.value, sp.name),
    )
    out: dict[str, str] = {}
    got = 0
    for sp in allied:
        if got >= total:
            break
        out[sp.name] = JPN
        got += sp.value
    assert got >= total
    return out


def test_R_WIN_01_A_01_allies_win_holding_germany_and_japan_at_a_turns_end() -> None:
    """R-WIN-01 with A-01: checked at the end of every turn, here Russia's."""
    g = Game(position(RUS, "mobilize", edition="classic",
                      owners={"Germany": UK, "Japan": USA}))
    e = won(finish_turn(g))
    assert e is not None and (e.side, e.rule) == ("Allies", "R-WIN-01")
    assert sorted(e.capitals) == ["Germany", "Japan"] and g.state.winner == "Allies"


def test_R_WIN_01_one_axis_capital_is_not_enough() -> None:
    g = Game(position(RUS, "mobilize", edition="classic", owners={"Germany": RUS}))
    assert won(finish_turn(g)) is None and g.state.power == GER


def test_R_WIN_02_axis_win_holding_two_of_the_three_allied_capitals() -> None:
    """R-WIN-02 with A-01: at the end of any turn, here Germany's."""
    g = Game(position(GER, "mobilize", edition="classic",
                      owners={"United Kingdom": GER, "Russia": JPN}))
    e = won(finish_turn(g))
    assert e is not None and (e.side, e.rule) == ("Axis", "R-WIN-02")
    assert sorted(e.capitals) == ["Russia", "United Kingdom"]


def test_R_WIN_02_after_an_allied_turn_too() -> None:
    g = Game(position(UK, "mobilize", edition="classic",
                      owners={"Eastern United States": JPN, "Russia": GER}))
    e = won(finish_turn(g))
    assert e is not None and e.side == "Axis"


def test_R_WIN_03_A_29_axis_economic_victory_after_the_united_states_turn() -> None:
    """R-WIN-03 / A-29: Germany + Japan NPL >= 84 counts at the end of a full round only."""
    g = Game(position(JPN, "mobilize", edition="classic", owners=axis_extra(84 - 57)))
    inc = g.state.income()
    assert inc[GER] + inc[JPN] >= 84
    assert won(finish_turn(g)) is None  # end of Japan's turn: not yet
    assert g.state.power == USA
    e = won(finish_turn(g))
    assert e is not None and (e.side, e.rule) == ("Axis", "R-WIN-03")
    assert e.production is not None and e.production >= 84


def test_R_WIN_03_below_84_no_economic_victory() -> None:
    g = Game(position(USA, "mobilize", edition="classic"))
    inc = g.state.income()
    assert inc[GER] + inc[JPN] < 84
    assert won(finish_turn(g)) is None and g.state.power == RUS and g.state.round == 2


def test_R_WIN_03_there_is_no_allied_economic_victory() -> None:
    """§2 [D]: TripleA's Allied economic victory is not in the rulebook."""
    ed = load_edition("classic")
    axis_land = {sp.name: USA for sp in ed.map.spaces
                 if sp.kind == "land" and sp.original_owner in (GER, JPN)
                 and sp.name not in CAPITALS}
    g = Game(position(USA, "mobilize", edition="classic", owners=axis_land))
    inc = g.state.income()
    assert inc[UK] + inc[RUS] + inc[USA] >= 120
    assert won(finish_turn(g)) is None and g.state.winner is None
