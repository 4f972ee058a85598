"""The `game` words of a game's whole life: leave, cancel, concede, draw, list, mine."""

from __future__ import annotations

import pytest

from rules.errors import InvalidOrder
from service import language as ps


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("game leave", ps.GameLeave()),
        ("game cancel", ps.GameCancel()),
        ("game cancel withdraw", ps.GameCancel(withdraw=True)),
        ("Game Concede", ps.GameConcede()),
        ("game concede WITHDRAW", ps.GameConcede(withdraw=True)),
        ("game draw", ps.GameDraw()),
        ("game draw withdraw", ps.GameDraw(withdraw=True)),
        ("game list", ps.GameList()),
        ("game list all", ps.GameList(all=True)),
        ("game mine", ps.GameMine()),
    ],
)
def test_game_life_words(line: str, want: ps.Command) -> None:
    assert ps.parse(line, ps.Names()) == want


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("game cancel please", "'game cancel withdraw'"),
        ("game list finished", "'game list all'"),
        ("game mine now", "'game mine'"),
        ("game conceed", "Did you mean: game concede?"),
    ],
)
def test_game_life_mistakes_say_what_to_type(line: str, says: str) -> None:
    with pytest.raises(InvalidOrder) as e:
        ps.parse(line, ps.Names())
    assert says in str(e.value)


def test_usage_lists_the_new_words() -> None:
    assert "leave|cancel|concede|draw|list|mine" in ps.USAGE["game"]
