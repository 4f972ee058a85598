"""A mail seat's secret token: proof, beside the bound address, that an order mail is theirs.

A mail's ``From`` can be forged, so every mail that acts for a seat (or for a game's owner)
carries the seat's current token on a line (``token ABCDE-FGHIJ``). The token is an HMAC of
the game, the power, the address and the seat's *epoch* under a secret kept in the store for
the game (``EventStore.secret_once``: never exported, never in the log). The epoch counts the
seat's turns begun so far, so the token changes at the start of each of the seat's turns
(and a token of an earlier turn is recognised as stale, not merely wrong). It holds steady
between two of its turns, while the seat answers battle decisions in the others' turns. The
referee sends each new token privately to the bound address.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from rules.state import GameState

SECRET_NAME = "mail-token-key"
OWNER = "owner"  # the 'power' of a game owner's token (it never rotates: epoch 0)

_TOKEN_LINE = re.compile(r"^\s*token\s*:?\s*([A-Za-z2-7]{5})-?([A-Za-z2-7]{5})\s*$",
                         re.IGNORECASE)
_TOKEN_ANYWHERE = re.compile(r"\btoken\s*:?\s*([A-Za-z2-7]{5})-?([A-Za-z2-7]{5})\b",
                             re.IGNORECASE)


def token(key: bytes, game_id: str, power: str, address: str, epoch: int) -> str:
    """The token of a seat (or ``OWNER``) at an epoch: ten base-32 letters, ``ABCDE-FGHIJ``."""
    body = f"{game_id}|{power}|{address.lower()}|{epoch}".encode()
    digest = hmac.new(key, body, hashlib.sha256).digest()
    letters = base64.b32encode(digest).decode()[:10]
    return f"{letters[:5]}-{letters[5:]}"


def epoch(state: GameState | None, power: str) -> int:
    """How many of ``power``'s turns have begun (0 before the game starts)."""
    if state is None or power not in state.edition.turn_order:
        return 0
    order = state.edition.turn_order
    begun = order.index(state.power) >= order.index(power) if state.power in order else False
    return max(0, state.round - 1) + (1 if begun else 0)


def same(a: str, b: str) -> bool:
    """Two tokens are the same (case and the hyphen do not matter), compared in constant time."""
    def norm(t: str) -> bytes:
        return t.replace("-", "").upper().encode()

    return hmac.compare_digest(norm(a), norm(b))


def split_token(lines: list[str], subject: str = "") -> tuple[str | None, list[str]]:
    """The token given on a line of its own (else in the subject), and the other lines."""
    found: str | None = None
    rest: list[str] = []
    for line in lines:
        m = _TOKEN_LINE.match(line)
        if m:
            found = found or f"{m.group(1)}-{m.group(2)}".upper()
            continue
        rest.append(line)
    if found is None:
        m = _TOKEN_ANYWHERE.search(subject)
        if m:
            found = f"{m.group(1)}-{m.group(2)}".upper()
    return found, rest


__all__ = ["OWNER", "SECRET_NAME", "epoch", "same", "split_token", "token"]
