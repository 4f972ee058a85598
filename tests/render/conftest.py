"""Shared positions for the render tests: the 1941 and Classic setups and a scripted battle for
Ukraine on each board."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from render.geo import Geometry, geometry_for, load_geometry
from rules import engine
from rules.events import BattleOpened, Event, UnitsMoved
from rules.state import GameState
from tests.rules.helpers import Game, position
from tools.doc_images import random_rounds


@dataclass
class UkraineBattle:
    """Germany attacks Ukraine and takes it; every die is scripted."""

    before: GameState  # combat move made, battle not fought
    moves: list[UnitsMoved]
    at_open: GameState
    events: list[Event]  # from BattleOpened on
    after: GameState


@pytest.fixture(scope="session")
def geometry() -> Geometry:
    return load_geometry("a1941")


@pytest.fixture(scope="session")
def setup_state() -> GameState:
    return engine.replay(engine.new_game("1941", (), None))


@pytest.fixture(scope="session")
def ukraine() -> UkraineBattle:
    g = Game(position("Germany", "combat_move", {
        "Eastern Europe": {"Germany": {"infantry": 3, "tank": 2, "fighter": 1}},
        "Ukraine": {"Soviet Union": {"infantry": 3, "tank": 1}},
    }, clear=False, owners={"Ukraine": "Soviet Union"}))
    g.move({"infantry": 3, "tank": 2}, "Eastern Europe", "Ukraine")
    g.move({"fighter": 1}, "Eastern Europe", "Ukraine")
    moves = [e for e in g.events if isinstance(e, UnitsMoved)]
    g.end()
    before = g.state
    i = max(i for i, e in enumerate(g.events) if isinstance(e, BattleOpened))
    at_open = engine.replay(g.events[: i + 1])
    # Round 1: attacker 1 hit by the fighter, tanks 5 2 (1 hit), infantry 3 3 2; defender tank
    # 6, infantry 4 1 2 (2 hits). Round 2 and 3 as below; Germany wins with a tank.
    g.script(1, 5, 2, 3, 3, 2, 6, 4, 1, 2, 4, 1, 6, 5, 3, 1, 2, 6, 6, 6, 6, 6, 6)
    g.fight_out("Ukraine")  # the defender answered by its defaults
    return UkraineBattle(before, moves, at_open, g.events[i:], g.state)


@pytest.fixture(scope="session")
def classic_geometry() -> Geometry:
    return geometry_for(engine.resolve_edition("classic"))


@pytest.fixture(scope="session")
def classic_state() -> GameState:
    return engine.replay(engine.new_game("classic", (), None))


@pytest.fixture(scope="session")
def classic_ukraine() -> UkraineBattle:
    """Germany attacks Ukraine S.S.R. on the Classic board, where an AA gun stands."""
    g = Game(position("Germany", "combat_move", {
        "Eastern Europe": {"Germany": {"infantry": 3, "tank": 2, "fighter": 1}},
        "Ukraine S.S.R.": {"Russia": {"infantry": 3, "tank": 1, "antiaircraft gun": 1}},
    }, clear=False, edition="classic", owners={"Ukraine S.S.R.": "Russia"}))
    g.move({"infantry": 3, "tank": 2}, "Eastern Europe", "Ukraine S.S.R.")
    g.move({"fighter": 1}, "Eastern Europe", "Ukraine S.S.R.")
    moves = [e for e in g.events if isinstance(e, UnitsMoved)]
    g.end()
    before = g.state
    i = max(i for i, e in enumerate(g.events) if isinstance(e, BattleOpened))
    at_open = engine.replay(g.events[: i + 1])
    # Before round 1 the AA gun fires at the fighter: 5 (R-LC-02). Round 1, column by column
    # (R-CBT-01): infantry 1 2 1, fighter 4, tanks 5 6 (2 hits); defender infantry 4 1 2, tank 6
    # (2 hits). Round 2: infantry 1, fighter 2, tanks 6 3 (2 hits count); defender 5 5. Germany
    # wins.
    g.script(5, 1, 2, 1, 4, 5, 6, 4, 1, 2, 6, 1, 2, 6, 3, 5, 5)
    g.fight_out("Ukraine S.S.R.")  # the defender answered by its defaults
    return UkraineBattle(before, moves, at_open, g.events[i:], g.state)


@pytest.fixture(scope="session")
def a1941_three_rounds() -> GameState:
    return random_rounds("1941", 3, 3)


@pytest.fixture(scope="session")
def classic_three_rounds() -> GameState:
    return random_rounds("classic", 3, 3)


@pytest.fixture(scope="session")
def a1941_mid_combat() -> GameState:
    """Round 3 of random play, battles open: markers, cargo, spent units on the board."""
    return random_rounds("1941", 5, 3, stop="conduct_combat")


@pytest.fixture(scope="session")
def classic_mid_combat() -> GameState:
    return random_rounds("classic", 5, 3, stop="conduct_combat")
