"""The page's protections: headers on every response, sessions from private links, CSRF
tokens, rate limits.

- Every response carries the content security policy of the contract (no inline script: the
  boot JSON is ``type=application/json``, data, not code), ``nosniff``, ``same-origin``
  referrers and no framing.
- A session is a cookie holding a signed grant (``web.links.Grant`` under the purpose
  ``session``), scoped to the game's page (``Path=/g/<key>``), HttpOnly, SameSite=Strict, Secure
  when the public address is https. It is checked at every request against the store (the
  seat's holder and link version), so a revoked link ends its sessions too.
- The CSRF token of a session is an HMAC of the cookie (purpose ``csrf``): the page has it from
  its boot JSON and sends it with every POST (body ``csrf`` or header ``X-CSRF-Token``).
- Rate limits: a token bucket per session and one per client address (429, ``Retry-After``).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from web.links import Grant

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def headers_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The protective headers on every response (errors included)."""
    try:
        resp = await handler(request)
    except web.HTTPException as e:
        for k, v in HEADERS.items():
            e.headers.setdefault(k, v)
        raise
    if not resp.prepared:
        for k, v in HEADERS.items():
            resp.headers.setdefault(k, v)
    return resp


def csrf_token(secret: bytes, session: str) -> str:
    """The CSRF token of a session cookie's value."""
    return hmac.new(secret, f"csrf|{session}".encode(), hashlib.sha256).hexdigest()[:32]


def csrf_ok(secret: bytes, session: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(csrf_token(secret, session), given or "")


@dataclass
class Bucket:
    tokens: float
    at: float


@dataclass
class RateLimit:
    """A token bucket per key: ``burst`` requests at once, refilled at ``per_minute``."""

    per_minute: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, Bucket] = field(default_factory=dict, init=False)

    def take(self, key: str) -> float:
        """0 if a request of ``key`` may go now (and it is counted), else the seconds to wait."""
        now = self.clock()
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) > 10_000:  # forget the idle ones
                self._buckets = {k: v for k, v in self._buckets.items()
                                 if now - v.at < 600}
            b = self._buckets[key] = Bucket(float(self.burst), now)
        b.tokens = min(float(self.burst), b.tokens + (now - b.at) * self.per_minute / 60)
        b.at = now
        if b.tokens >= 1:
            b.tokens -= 1
            return 0.0
        return (1 - b.tokens) * 60 / self.per_minute


def too_many(wait: float, what: str) -> web.Response:
    seconds = max(1, math.ceil(wait))
    return web.json_response(
        {"error": f"Too many {what}: wait {seconds} seconds, then try again."},
        status=429, headers={"Retry-After": str(seconds)})




@dataclass(frozen=True)
class Session:
    """A request's session: its grant (game, power, holder, link version), the cookie's value,
    the CSRF token the page must send back, and every power the holder holds now."""

    grant: Grant
    cookie: str
    csrf: str
    powers: tuple[str, ...]


__all__ = ["CSP", "HEADERS", "RateLimit", "Session", "csrf_ok", "csrf_token", "headers_middleware",
           "too_many"]
