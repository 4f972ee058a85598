"""Battle boards for any battle (issue 14): every die shown, red dice adding up to the header's
hits (surplus included), the battle's own round in the title, odds never rounded to a
certainty."""

from __future__ import annotations

import random

import pytest

from render.battle import (
    BattleRecord,
    Fire,
    RoundRecord,
    SideRecord,
    _pct,
    battle_record,
    dice_lines,
    hits_text,
    render_battle,
)
from rules.dice import ScriptedDice
from rules.events import BattleOpened, DiceRolled
from tests.render.golden import compare
from tests.rules.helpers import Game, position

COLUMN = (1200 - 3 * 24) // 2  # a side's column on the board


@pytest.fixture(scope="module")
def big_battle() -> tuple[Game, int]:
    """Germany attacks Ukraine with 40 units against 26: dozens of dice per side and round."""
    g = Game(position("Germany", "combat_move", {
        "Eastern Europe": {"Germany": {"infantry": 18, "tank": 14, "fighter": 6, "bomber": 2}},
        "Ukraine": {"Soviet Union": {"infantry": 20, "tank": 5, "fighter": 1}},
    }, clear=False, owners={"Ukraine": "Soviet Union"}))
    g.move({"infantry": 18, "tank": 14}, "Eastern Europe", "Ukraine")
    g.move({"fighter": 6, "bomber": 2}, "Eastern Europe", "Ukraine")
    g.end()
    opened = max(i for i, e in enumerate(g.events) if isinstance(e, BattleOpened))
    rng = random.Random(14)
    g.dice = ScriptedDice([rng.randint(1, 6) for _ in range(2000)])
    g.fight_out("Ukraine")
    return g, opened


def test_every_die_of_a_big_battle_is_on_the_board(big_battle: tuple[Game, int]) -> None:
    g, opened = big_battle
    rec = battle_record(_at_open(g, opened), g.events[opened:])
    rolled = [e for e in g.events[opened:] if isinstance(e, DiceRolled)]
    assert sum(len(f) for e in rolled for _, _, f in e.groups) > 60
    for r in rec.rounds:
        for side in ("attacker", "defender"):
            shown = [f for line in dice_lines(r, side, COLUMN) for f in line.faces]
            fired = [f for x in r.fire if x.side == side for _, _, fs in x.groups for f in fs]
            assert sorted(shown) == sorted(fired), (r.number, side)
            red = sum(1 for line in dice_lines(r, side, COLUMN) for f in line.faces
                      if f <= line.value)
            head = hits_text(r, side)
            counted = sum(int(w) for w in head.replace("+", " ").split() if w.isdigit())
            assert red == counted, (r.number, side, head)
    image = render_battle(rec, g.state.edition, title="Game 7, game round 1")
    assert image.height > 600
    compare(image.resize((600, round(600 * image.height / image.width))), "battle-big-600",
            mean=2.0)


def _at_open(g: Game, opened: int) -> object:
    from rules.engine import replay

    return replay(g.events[: opened + 1])


def test_a_surplus_hit_is_shown_as_surplus() -> None:
    """Three hits rolled against two units: 2 hits count, 1 is surplus."""
    r = RoundRecord(1, [Fire("attacker", "fire", [("tank", 3, (1, 2, 3, 6))], 2)])
    assert hits_text(r, "attacker") == "2 hits + 1 surplus"
    r = RoundRecord(1, [Fire("defender", "fire", [("infantry", 2, (1, 5))], 1)])
    assert hits_text(r, "defender") == "1 hit"


def test_the_title_says_the_battles_own_round() -> None:
    side = SideRecord(["Germany"], {"tank": 2})
    other = SideRecord(["Soviet Union"], {"infantry": 2})
    rounds = [RoundRecord(n, [Fire("attacker", "fire", [("tank", 3, (1, 4))], 1)])
              for n in (1, 2, 3)]
    from rules import engine

    ed = engine.resolve_edition("1941")
    going = BattleRecord("Ukraine", False, False, side, other, rounds, None)
    done = BattleRecord("Ukraine", False, False, side, other, rounds, "attacker")
    from render import battle

    assert "battle round 3" in battle._title(going)
    assert "3 battle rounds" in battle._title(done)
    assert render_battle(going, ed).width == 1200


@pytest.mark.parametrize(("p", "text"), [
    (0.9996, ">99.9%"), (0.998, "99.8%"), (0.0004, "<0.1%"), (0.0, "0%"), (1.0, "100%"),
    (0.5, "50%"), (0.95, "95.0%"), (0.003, "0.3%"),
])
def test_odds_are_never_rounded_to_a_certainty(p: float, text: str) -> None:
    assert _pct(p) == text
