"""A game's public key and a seat's private link: what the web page's addresses carry.

Public key (``/g/{key}``): the game id and an HMAC tag of it under the game's web secret
(``EventStore.secret_once``: kept in the store, never exported, never in the log). Anyone with
the key sees the board; the tag stops the enumeration of games by id (``/g/g1``, ``g2``, ...).
The key holds no secret: it can be posted in a channel.

Private link (``/s/{token}``): a signed statement "this holder may act for this power of this
game", with the seat's *link version* and an expiry. It is the credential (there is no account
system): the server verifies it, sets a session cookie and redirects, so the secret leaves the
address bar. A link stops working when
- the seat's link version is bumped (``revoke``: a lost or leaked link; a new one is made),
- the seat changes hands (the holder in the link is no longer the seat's),
- it expires (``WEB_LINK_DAYS``).

The link version is a small counter per seat kept with the store's compare-and-set cursors
(``EventStore.report_cursor`` / ``advance_report`` under the reader name ``web-link:<power>``),
so every process agrees on it without a table of its own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from service.store import EventStore, GameNotFound

SECRET_NAME = "web-link-key"
_TAG_LEN = 16  # base-32 letters of a public key's tag (80 bits)
_VERSION_READER = "web-link:{power}"
DEFAULT_LINK_DAYS = 90


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(key: bytes, purpose: str, body: str) -> bytes:
    return hmac.new(key, f"{purpose}|{body}".encode(), hashlib.sha256).digest()


async def game_secret(store: EventStore, game_id: str) -> bytes:
    """The game's web secret (made at its first use; ``GameNotFound`` without the game)."""
    return await store.secret_once(game_id, SECRET_NAME, secrets.token_bytes(32))


def public_key_of(secret: bytes, game_id: str) -> str:
    """``g12-ABCDEFGHIJKLMNOP``: the game id and its tag."""
    tag = base64.b32encode(_mac(secret, "public", game_id)).decode()[:_TAG_LEN].lower()
    return f"{game_id}-{tag}"


async def public_key(store: EventStore, game_id: str) -> str:
    """The game's public key, for its page ``/g/{key}``."""
    return public_key_of(await game_secret(store, game_id), game_id)


async def game_of_key(store: EventStore, key: str) -> str | None:
    """The game a public key names, or None when it names none (unknown, forged, malformed).
    No secret is made for an unknown game."""
    game_id, sep, _ = key.rpartition("-")
    if not sep or not game_id or len(key) > 120:
        return None
    try:
        await store.get_game(game_id)
        secret = await game_secret(store, game_id)
    except GameNotFound:
        return None
    return game_id if hmac.compare_digest(public_key_of(secret, game_id), key) else None


# --- the seats' link versions --------------------------------------------------------------------
async def link_version(store: EventStore, game_id: str, power: str) -> int:
    """The seat's current link version (0 until its first revocation)."""
    return await store.report_cursor(game_id, _VERSION_READER.format(power=power))


async def revoke(store: EventStore, game_id: str, power: str) -> int:
    """Bump the seat's link version: every link and session of the seat made before stops
    working. Returns the new version."""
    reader = _VERSION_READER.format(power=power)
    while True:
        now = await store.report_cursor(game_id, reader)
        if await store.advance_report(game_id, reader, now, now + 1):
            return now + 1


# --- private links -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grant:
    """What a private link or a session says: ``holder`` acts for ``power`` in ``game``."""

    game: str
    power: str
    holder: str
    version: int
    expires: datetime

    def body(self) -> str:
        return json.dumps([self.game, self.power, self.holder, self.version,
                           int(self.expires.timestamp())], separators=(",", ":"))


def sign(secret: bytes, purpose: str, grant: Grant) -> str:
    """``<payload>.<tag>`` (base64url): the grant, readable, and its HMAC for ``purpose``."""
    body = grant.body()
    return f"{_b64(body.encode())}.{_b64(_mac(secret, purpose, body)[:20])}"


def unsigned(token: str) -> Grant | None:
    """The grant a token states, not yet checked (None when malformed)."""
    payload, dot, _ = token.partition(".")
    if not dot or len(token) > 2000:
        return None
    try:
        game, power, holder, version, expires = json.loads(_unb64(payload))
        return Grant(str(game), str(power), str(holder), int(version),
                     datetime.fromtimestamp(int(expires), UTC))
    except (ValueError, TypeError):
        return None


def verify(secret: bytes, purpose: str, token: str) -> Grant | None:
    """The grant if ``token`` carries a good tag for ``purpose`` under ``secret``."""
    grant = unsigned(token)
    if grant is None:
        return None
    _, _, tag = token.partition(".")
    if not hmac.compare_digest(tag, _b64(_mac(secret, purpose, grant.body())[:20])):
        return None
    return grant


async def private_token(store: EventStore, game_id: str, power: str, holder: str, *,
                        now: datetime | None = None, days: int = DEFAULT_LINK_DAYS) -> str:
    """The token of a seat's private link (its holder as the seats table holds it)."""
    now = now or datetime.now(UTC)
    grant = Grant(game_id, power, holder, await link_version(store, game_id, power),
                  now + timedelta(days=days))
    return sign(await game_secret(store, game_id), "link", grant)


async def private_link(store: EventStore, base_url: str, game_id: str, power: str,
                       holder: str, *, now: datetime | None = None,
                       days: int = DEFAULT_LINK_DAYS) -> str:
    """The private link of ``power``'s seat held by ``holder``: ``<base_url>/s/<token>``.
    Give it to the holder privately (a Discord direct message, a private mail)."""
    token = await private_token(store, game_id, power, holder, now=now, days=days)
    return f"{base_url.rstrip('/')}/s/{token}"


async def seat_link(store: EventStore, base_url: str, game_id: str, power: str, *,
                    now: datetime | None = None, days: int = DEFAULT_LINK_DAYS) -> str:
    """The private link of ``power``'s seat for whoever holds it now (``ValueError`` when the
    seat is open). Front ends call this to give a player their link, privately."""
    holder = (await store.get_game(game_id)).seats.get(power)
    if not holder:
        raise ValueError(f"{power}'s seat in game {game_id} is open: no link to give.")
    return await private_link(store, base_url, game_id, power, holder, now=now, days=days)


async def public_link(store: EventStore, base_url: str, game_id: str) -> str:
    """The game's public page: ``<base_url>/g/<key>`` (for the channel, the reports)."""
    return f"{base_url.rstrip('/')}/g/{await public_key(store, game_id)}"


async def check_grant(store: EventStore, grant: Grant, *, now: datetime) -> str | None:
    """None if ``grant`` still holds: not expired, the seat still the holder's, the link
    version current; else why not, in words for the person."""
    if grant.expires <= now:
        return "This link has expired."
    try:
        rec = await store.get_game(grant.game)
    except GameNotFound:
        return "This game no longer exists."
    if rec.seats.get(grant.power) != grant.holder:
        return f"{grant.power}'s seat is no longer held by the one this link was made for."
    if await link_version(store, grant.game, grant.power) != grant.version:
        return "This link was revoked."
    return None


__all__ = [
    "DEFAULT_LINK_DAYS",
    "SECRET_NAME",
    "Grant",
    "check_grant",
    "game_of_key",
    "game_secret",
    "link_version",
    "private_link",
    "private_token",
    "public_key",
    "public_key_of",
    "public_link",
    "revoke",
    "seat_link",
    "sign",
    "unsigned",
    "verify",
]
