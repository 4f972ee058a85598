"""The golden corpus (tools/golden_corpus.py, docs/testing.md): every recorded game replays to the
same answers, the same event log and the same final state.

Each game's lines are played again at an in-process local table over the service with the
memory store (``service.store.MemoryStore``): the corpus proves what the rules and the service
say and do; the stores have their own tests (tests/db, PostgreSQL included), and a SQLite file
costs about 150 ms an order here, which would make the corpus take minutes instead of seconds.
The final state is read by a fresh service over the same store (no cached state), and the
recorded log alone must fold to it.
"""

from __future__ import annotations

import asyncio

import pytest

from tools import golden_corpus as gc

GAMES = [(group, rec) for group in gc.GROUPS for rec in gc.read_group(group)]


def test_the_corpus_holds_every_scripted_game_and_30_random_games_of_each_edition() -> None:
    names = {rec.game.name for _, rec in GAMES}
    assert {g.name for g in gc.scripted_games()} <= names
    for edition in ("1941", "classic"):
        games = [rec for group, rec in GAMES if group == f"random-{edition}"]
        assert len(games) >= 30
        assert all(rec.final is not None for rec in games)
        # through whole rounds: at least 30 of them reached the next round (the random driver
        # can still corner itself in a Combat Move whose moves together block its end)
        whole = [rec for rec in games if rec.final is not None and rec.final["round"] >= 2]
        assert len(whole) >= 30, [rec.game.name for rec in games if rec not in whole]


def _verbs(group: str) -> set[str]:
    """The first words of the orders said in a group's games."""
    out = set()
    for g, rec in GAMES:
        if g == group:
            for line in rec.game.lines:
                words = line.removeprefix(f"{gc.AXIS}: ").removeprefix(f"{gc.ALLIES}: ").split()
                out.add(words[0] if words else "")
    return out


def test_the_random_games_cover_battles_and_decisions() -> None:
    both = {"buy", "move", "battle", "casualties", "press", "retreat", "place", "end", "undo"}
    assert (both | {"submerge", "strike"}) - _verbs("random-1941") == set()
    # Classic: weapons development, rockets, strategic bombing raids, submarines withdrawing
    assert (both | {"research", "rocket", "bomb", "withdraw"}) - _verbs("random-classic") == set()


@pytest.mark.parametrize(("group", "want"), GAMES,
                         ids=[f"{g}/{rec.game.name}" for g, rec in GAMES])
def test_golden_game_replays_identically(group: str, want: gc.Record) -> None:
    assert gc.folds_to_final(want), f"{want.game.name}: the recorded log does not fold to the " \
        "recorded final state"
    got = asyncio.run(gc.play(want.game))
    diff = gc.differences(want, got)
    assert not diff, (
        f"{group}/{want.game.name} ({want.game.source}) no longer replays as recorded:\n"
        + "\n".join(diff)
        + f"\n\nIf behaviour changed on purpose, re-record with `{gc.RERECORD}` and commit the "
        "corpus together with that change (docs/testing.md)."
    )
