"""A game's whole life at the local table: leave, cancel, concede, draw, list and mine lines."""

from __future__ import annotations

from tests.local.test_table import SEATS, answers, in_process


def run(script: str) -> list[dict[str, object]]:
    # Exit code 1: the script holds refused lines on purpose (--keep-going goes on after them).
    code, out, err = in_process("--script", "-", "--json", "--keep-going", stdin=script)
    assert code in (0, 1), err
    return answers(out)


def test_leave_then_cancel_in_the_lobby_then_a_new_game() -> None:
    got = run(
        "alice: game new 1941\n"
        "bob: game join Germany\n"
        "game leave\n"
        "game cancel\n"
        "alice: game cancel\n"
        "game list\n"
        "game list all\n"
        "bob: game new classic\n"
    )
    assert got[2]["ok"] and "bob leaves Germany" in str(got[2]["answer"])
    assert "Germany" in str(got[2]["answer"]).splitlines()[1]  # open again
    assert not got[3]["ok"] and "owner" in str(got[3]["error"])
    assert got[4]["ok"] and "cancelled" in str(got[4]["answer"])
    assert got[5]["ok"] and "No games here yet" in str(got[5]["answer"])
    assert got[6]["answer"] == "g1 in local: Axis & Allies 1941, over: cancelled before the start."
    assert got[7]["ok"], got[7]


def test_concede_list_mine_and_dice_verify() -> None:
    got = run(
        SEATS
        + "bob: game mine\n"
        + "game list\n"
        + "alice: game leave\n"
        + "game draw\n"
        + "bob: game draw withdraw\n"
        + "game concede\n"
        + "dice verify\n"
        + "buy 1 infantry\n"
    )
    mine, listed, leave, draw, withdraw, concede, verify, buy = got[-8:]
    assert mine["ok"] and "awaited: Soviet Union Purchase Units" in str(mine["answer"])
    assert "round 1, waiting for Soviet Union (bob)" in str(listed["answer"])
    assert not leave["ok"] and "game concede" in str(leave["error"])
    assert draw["ok"] and "Still needed: bob" in str(draw["answer"])
    assert not withdraw["ok"] and "not voted" in str(withdraw["error"])
    assert concede["ok"]
    types = [e["type"] for e in concede["events"]]  # type: ignore[union-attr]
    assert types == ["SideConceded", "GameWon", "DiceSeedRevealed"]
    assert verify["ok"], verify["error"]
    assert not buy["ok"] and "won" in str(buy["error"])
