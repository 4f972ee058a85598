"""Seat tokens (mail.tokens): bound to the game, the power and the address, changed at the
start of each of the seat's turns and steady between them."""

from __future__ import annotations

from mail import tokens as tk
from service.games import GameService

KEY = bytes(range(32))


def test_a_token_is_bound_to_game_power_address_and_turn() -> None:
    t = tk.token(KEY, "g1", "Germany", "alice@example.org", 1)
    assert len(t) == 11 and t[5] == "-"
    assert tk.token(KEY, "g1", "Germany", "ALICE@example.org", 1) == t  # case of the address
    for other in (tk.token(KEY, "g2", "Germany", "alice@example.org", 1),
                  tk.token(KEY, "g1", "Japan", "alice@example.org", 1),
                  tk.token(KEY, "g1", "Germany", "bob@example.org", 1),
                  tk.token(KEY, "g1", "Germany", "alice@example.org", 2),
                  tk.token(bytes(32), "g1", "Germany", "alice@example.org", 1)):
        assert not tk.same(t, other)
    assert tk.same(t, t.lower().replace("-", ""))


def test_the_token_line_is_taken_out_of_the_orders() -> None:
    token, rest = tk.split_token(["token: abcde-fghij", "buy 2 tanks", "end"])
    assert token == "ABCDE-FGHIJ" and rest == ["buy 2 tanks", "end"]
    token, rest = tk.split_token(["buy 2 tanks"], "Re: [Umpire g1] orders token KLMNO-PQRST")
    assert token == "KLMNO-PQRST" and rest == ["buy 2 tanks"]
    assert tk.split_token(["buy 2 tanks"])[0] is None


async def test_the_epoch_counts_the_seat_turns_begun() -> None:
    s = GameService(allow_scripted_dice=True, scripted_dice=[3] * 50)
    for who, line in [("a", "game new 1941"), ("a", "game join Germany"),
                      ("a", "game join Japan"), ("b", "game join Soviet Union"),
                      ("b", "game join United Kingdom"), ("b", "game join United States")]:
        assert (await s.handle("c", who, line)).ok
    game = await s.game_in("c")
    assert game is not None
    assert tk.epoch(None, "Germany") == 0  # in the lobby
    assert (await s.handle("c", "a", "game start")).ok
    state = await s.state(game.id)
    assert (tk.epoch(state, "Soviet Union"), tk.epoch(state, "Germany")) == (1, 0)
    for line in ("end confirm",) * 4:
        assert (await s.handle("c", "b", line)).ok, line
    state = await s.state(game.id)
    assert state.power == "Germany"
    # Germany's turn began: its epoch moved; the Soviet one holds through the others' turns.
    assert (tk.epoch(state, "Soviet Union"), tk.epoch(state, "Germany")) == (1, 1)
