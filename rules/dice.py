"""Dice: the only source of chance in the rules, always injected (DESIGN §1, §6).

``HmacDice`` derives each die from HMAC-SHA256(key, game ‖ counter ‖ purpose) with rejection
sampling (no modulo bias): anyone holding the key can recompute every roll. ``FairDice`` is
``HmacDice`` keyed per game round from a commit-reveal hash chain, so that anyone can check
every roll once the round's seed is revealed (the scheme is below and in ``docs/dice.md``).
``ScriptedDice`` replays a fixed sequence for tests and examples (``--dice``).

The fair scheme (``FAIR_SCHEME``), with H = SHA-256 and HMAC = HMAC-SHA256:

- The service draws a secret master ``m`` (32 random bytes) when a game is created; the rules
  never draw randomness. ``master_commitment = H(m)``.
- Chain ``e`` (0 first; a game longer than a chain gets the next one) of length N:
  ``s_N = HMAC(m, "umpire-chain|" ‖ e)`` and ``s_k = H(s_{k+1})`` down to ``s_0``; its
  commitment ``H(s_0)`` is published before anyone joins.
- Game round r of a chain that starts at round F uses ``s_i`` with ``i = r - F + 1`` (1..N).
- The round key is ``HMAC(s_i, "umpire-round|" ‖ game_id ‖ "|" ‖ E)`` where E is the players'
  entropy: ``"Power=sha256hex(phrase);..."`` sorted by power (empty without phrases).
- Each die: ``die_from_key(key, game_id ‖ "|" ‖ counter ‖ "|" ‖ purpose)``, counter = dice rolled
  before it in the game's log, purpose = ``roll_purpose(...)``.
- At the end of round r the service reveals ``s_i``: ``H(s_i) = s_{i-1}`` and ``H(s_1)`` hashes to
  the commitment; at the end of the game it also reveals ``m``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from typing import Protocol

from rules.errors import RulesError
from rules.messages import catalogue, msg

SIDES = 6  # CMP-3 / A-19: standard d6


def roll_purpose(space: str, round_: int, side: str, unit_type: str) -> str:
    """The purpose string of one battle roll: recomputable from its DiceRolled event."""
    return f"{space}|round {round_}|{side}|{unit_type}"


class Dice(Protocol):
    """A source of d6 rolls. ``purpose`` says what the roll is for (logged with it)."""

    name: str

    def roll(self, n: int, purpose: str) -> list[int]: ...


class OutOfDice(RulesError):
    """A scripted dice sequence ran out (``--dice``): the order is refused, nothing changes."""


class ScriptedDice:
    """Rolls taken from a fixed list, in order. Marked as scripted in the log."""

    name = "scripted"

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        for f in self.faces:
            if not 1 <= f <= SIDES:
                raise ValueError(f"dice faces are 1..{SIDES}, got {f}")
        self.pos = 0

    def roll(self, n: int, purpose: str) -> list[int]:
        if self.pos + n > len(self.faces):
            raise OutOfDice(msg("dice.ran_out", purpose=purpose, need=n,
                                left=len(self.faces) - self.pos, total=len(self.faces)))
        out = self.faces[self.pos : self.pos + n]
        self.pos += n
        return out


def die_from_key(key: bytes, message: bytes) -> int:
    """One fair d6 from a key and a message, by rejection sampling over HMAC bytes."""
    counter = 0
    while True:
        digest = hmac.new(key, message + b"|" + str(counter).encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:  # 252 = 42 * 6: accept only an unbiased range
                return byte % SIDES + 1
        counter += 1


class HmacDice:
    """Deterministic fair dice from a secret key; each call advances a counter."""

    name = "hmac-sha256"

    def __init__(self, key: bytes, game: str = "", start: int = 0) -> None:
        self.key = key
        self.game = game
        self.counter = start

    def roll(self, n: int, purpose: str) -> list[int]:
        out: list[int] = []
        for _ in range(n):
            msg = f"{self.game}|{self.counter}|{purpose}".encode()
            out.append(die_from_key(self.key, msg))
            self.counter += 1
        return out


# --------------------------------------------------------------------------------------------
# Fair dice: commit-reveal hash chains (DESIGN §6). Pure functions; the secret comes from outside.

FAIR_SCHEME = "umpire-fair-v1"
SCRIPTED_SCHEME = "scripted"
CHAIN_LENGTH = 100  # rounds per chain; a longer game continues on the next chain of the master


def sha256(data: bytes) -> bytes:
    """H: SHA-256, raw digest."""
    return hashlib.sha256(data).digest()


def master_commitment(master: bytes) -> str:
    """``H(m)`` in hex: published at the start, checked when ``m`` is revealed at the end."""
    return sha256(master).hex()


def chain_top(master: bytes, epoch: int) -> bytes:
    """``s_N`` of chain ``epoch``: HMAC(m, "umpire-chain|<epoch>")."""
    return hmac.new(master, f"umpire-chain|{epoch}".encode(), hashlib.sha256).digest()


def make_chain(seed: bytes, n: int) -> list[bytes]:
    """``[s_0, s_1, ..., s_n]`` with ``s_n = seed`` and ``s_k = H(s_{k+1})``."""
    if n < 1:
        raise ValueError("a chain needs at least one link")
    chain = [seed]
    for _ in range(n):
        chain.append(sha256(chain[-1]))
    chain.reverse()
    return chain


def commitment(s0: bytes) -> bytes:
    """The published commitment of a chain: ``H(s_0)``."""
    return sha256(s0)


def verify_link(revealed: bytes, previous: bytes) -> bool:
    """``H(revealed) == previous``: a revealed seed follows the one before it in the chain."""
    return hmac.compare_digest(sha256(revealed), previous)


def links_to_commitment(revealed: bytes, index: int, committed: bytes) -> bool:
    """``H^(index+1)(s_index) == commitment``: a seed belongs to the committed chain."""
    value = revealed
    for _ in range(index + 1):
        value = sha256(value)
    return hmac.compare_digest(value, committed)


def chain_index(round_: int, first_round: int, chain_length: int) -> int:
    """The link ``i`` (1..N) of a chain starting at ``first_round`` that keys ``round_``."""
    i = round_ - first_round + 1
    if not 1 <= i <= chain_length:
        raise ValueError(
            f"round {round_} is outside the chain for rounds {first_round}.."
            f"{first_round + chain_length - 1}"
        )
    return i


def phrase_hash(phrase: str) -> str:
    """What the log records of a player's entropy phrase: sha256 of its UTF-8 text, in hex."""
    return hashlib.sha256(phrase.encode("utf-8")).hexdigest()


def combined_entropy(phrase_hashes: Mapping[str, str]) -> bytes:
    """``"Power=hash;..."`` sorted by power: every phrase mixed into every round key."""
    return ";".join(f"{p}={phrase_hashes[p]}" for p in sorted(phrase_hashes)).encode("utf-8")


def round_key(seed: bytes, game_id: str, entropy: bytes = b"") -> bytes:
    """The key of one game round: HMAC(s_i, "umpire-round|" ‖ game_id ‖ "|" ‖ entropy)."""
    msg = b"umpire-round|" + game_id.encode("utf-8") + b"|" + entropy
    return hmac.new(seed, msg, hashlib.sha256).digest()


def fair_die(key: bytes, game_id: str, counter: int, purpose: str) -> int:
    """The die number ``counter`` of a game, for ``purpose``, under a round key."""
    return die_from_key(key, f"{game_id}|{counter}|{purpose}".encode())


def recompute(
    key: bytes, game_id: str, rolls: Iterable[tuple[int, str, int]]
) -> list[list[int]]:
    """Faces of rolls given as ``(first counter, purpose, number of dice)`` under a round key."""
    return [
        [fair_die(key, game_id, start + j, purpose) for j in range(n)]
        for start, purpose, n in rolls
    ]


class FairDice(HmacDice):
    """Dice of one game round: ``HmacDice`` under the round key of a revealed-later seed."""

    name = "fair"

    def __init__(self, seed: bytes, game: str, entropy: bytes = b"", start: int = 0) -> None:
        super().__init__(round_key(seed, game, entropy), game, start)


catalogue("en", "dice", {
    "ran_out": "scripted dice ran out: {purpose} needs {need}, {left} left of {total}",
})
