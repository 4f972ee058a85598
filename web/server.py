"""The web server: one page per game, beside the bot in its process (issue 19).

``make_app(service, settings)`` builds the aiohttp application; ``WebServer`` runs it on a host
and port (port 0: any free port, ``url`` says which); ``serve(settings, service, stop)`` runs it
until ``stop`` is set, as ``mail.run.serve`` does for the mail gateway. The URLs and their JSON
are those of ``/work/web-contract.md`` (``docs/web.md``).
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from rules.engine import resolve_edition
from service.batch import BatchResult, LineResult, run_batch
from service.core import GameInfo, ServiceError
from service.games import GameService
from service.store import GameNotFound, StoreError, head_of
from web import api
from web import links as lk
from web.live import Live
from web.security import (
    RateLimit,
    Session,
    csrf_ok,
    csrf_token,
    headers_middleware,
    too_many,
)

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
TEMPLATE = HERE / "templates" / "page.html"
# Used only while web/templates/page.html does not exist (helper "board" writes it).
FALLBACK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title></head>
<body><h1>{{TITLE}}</h1><p>The board page is not installed.</p>
{{BOOT}}
</body></html>
"""


@dataclass(frozen=True)
class WebConfig:
    """The server's settings (``settings.Settings``' ``web_*`` fields, ``WebConfig.of``)."""

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""  # how people reach it (https://umpire.example.org); "" = http://host:port
    link_days: int = lk.DEFAULT_LINK_DAYS
    max_body: int = 16 * 1024  # bytes of a POST
    orders_per_minute: int = 30  # a session's POSTs
    requests_per_minute: int = 600  # an address's requests
    poll_seconds: float = 2.0
    ping_seconds: float = 15.0

    @property
    def base_url(self) -> str:
        """The address in the links the referee gives (``public_url``, else host and port)."""
        return (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")

    @classmethod
    def of(cls, settings: Any) -> WebConfig:
        """From ``settings.Settings`` (or anything with ``web_*`` attributes, or a WebConfig)."""
        if settings is None:
            return cls()
        if isinstance(settings, WebConfig):
            return settings
        d = cls()
        return cls(
            host=getattr(settings, "web_host", d.host),
            port=getattr(settings, "web_port", d.port),
            public_url=getattr(settings, "web_public_url", None) or "",
            link_days=getattr(settings, "web_link_days", d.link_days),
            max_body=getattr(settings, "web_max_body", d.max_body),
            orders_per_minute=getattr(settings, "web_orders_per_minute", d.orders_per_minute),
            requests_per_minute=getattr(settings, "web_requests_per_minute",
                                        d.requests_per_minute),
        )


def static_version() -> str:
    """A short hash of the static files (names and contents): their URLs change with them."""
    h = hashlib.sha256()
    if STATIC_DIR.is_dir():
        for p in sorted(STATIC_DIR.rglob("*")):
            if p.is_file():
                h.update(p.relative_to(STATIC_DIR).as_posix().encode())
                h.update(p.read_bytes())
    return h.hexdigest()[:12]


def _error(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


NO_GAME = "No game at this address: check the link (the game's page is /g/<key>, as posted)."
COOKIE = "umpire_session"
NOT_SEATED = ("Only a seated player may do this: open your seat's private link (the referee "
              "gives it to you privately, in Discord or by mail). Anyone may watch the board.")
BAD_CSRF = ("This page's security token is missing or stale: reload the page and send again. "
            "Nothing was done.")
NEW_LINK = ("Ask the referee for a new private link where you play (it is sent to you "
            "privately, in Discord or by mail). The game's public page still shows the board.")
# Given on the page: orders (and undo). The game's own commands stay in Discord and mail.
WEB_COMMANDS = ("undo",)

AfterOrders = Callable[[GameInfo, str, BatchResult], Awaitable[None]]


class Site:
    """The handlers over one service (``make_app`` routes them)."""

    def __init__(self, service: GameService, config: WebConfig, *,
                 names: Callable[[str], str] = api.shown_name,
                 clock: Callable[[], datetime] | None = None,
                 after_orders: AfterOrders | None = None) -> None:
        self.service = service
        self.config = config
        self.names = names
        self.after_orders = after_orders
        self.per_session = RateLimit(config.orders_per_minute, config.orders_per_minute)
        self.per_address = RateLimit(config.requests_per_minute, config.requests_per_minute)
        self.clock = clock or (lambda: datetime.now(UTC))
        self.live = Live(service, poll=config.poll_seconds, ping=config.ping_seconds)
        self.version = static_version()
        self._keys: dict[str, str] = {}  # public key -> game id (verified)
        self._boards: dict[str, tuple[bytes, str]] = {}  # edition -> (JSON, ETag)
        self._at: dict[tuple[str, int, str], dict[str, Any]] = {}  # past states' documents
        self._history: dict[tuple[str, str, int, str],
                            tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {}
        self._images: dict[tuple[str, str, str, int, str], bytes] = {}

    @property
    def static(self) -> str:
        return f"/static/{self.version}/"

    # --- which game ------------------------------------------------------------------------------
    async def game(self, request: web.Request) -> str:
        key = request.match_info["key"]
        gid = self._keys.get(key)
        if gid is None:
            gid = await lk.game_of_key(self.service.store, key)
            if gid is None:
                raise web.HTTPNotFound(text=NO_GAME, content_type="text/plain")
            if len(self._keys) > 10_000:
                self._keys.clear()
            self._keys[key] = gid
        return gid

    # --- the page --------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        rec = await self.service.store.get_game(gid)
        ed = resolve_edition(rec.edition)
        title = f"{ed.rules.title} · game {gid}"
        boot = {"game": gid, "title": title, "edition": rec.edition,
                "api": f"/g/{request.match_info['key']}", "csrf": None, "seat": None,
                "static": self.static}
        await self.session_boot(request, gid, boot)
        text = TEMPLATE.read_text("utf-8") if TEMPLATE.is_file() else FALLBACK_PAGE
        data = api.boot_json(boot)
        if 'id="boot"' in text:  # the template holds the script element; {{BOOT}} its JSON
            text = text.replace("{{BOOT}}", data)
        else:
            text = text.replace(
                "{{BOOT}}", f'<script type="application/json" id="boot">{data}</script>')
        text = text.replace("{{STATIC}}", self.static).replace("{{TITLE}}", html.escape(title))
        return web.Response(text=text, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def session_boot(self, request: web.Request, gid: str, boot: dict[str, Any]) -> None:
        """The boot JSON's ``csrf`` and ``seat`` when the request carries a session."""
        session = await self.session(request, gid)
        if session is not None:
            boot["csrf"] = session.csrf
            boot["seat"] = {"powers": list(session.powers),
                            "holder": self.names(session.grant.holder)}

    # --- sessions --------------------------------------------------------------------------------
    def hosts(self, request: web.Request) -> set[str]:
        """The page's own origins' host[:port]: as asked (the Host header) and as published
        (``WEB_PUBLIC_URL``: a proxy may forward another Host)."""
        own = {request.host}
        if self.config.public_url:
            own.add(urlsplit(self.config.public_url).netloc)
        return own

    @property
    def secure(self) -> bool:
        return self.config.public_url.startswith("https://")

    async def session(self, request: web.Request, gid: str) -> Session | None:
        """The request's session for this game, if it carries one that still holds."""
        raw = request.cookies.get(COOKIE)
        if not raw:
            return None
        store = self.service.store
        secret = await lk.game_secret(store, gid)
        grant = lk.verify(secret, "session", raw)
        if grant is None or grant.game != gid:
            return None
        if await lk.check_grant(store, grant, now=self.clock()) is not None:
            return None
        rec = await store.get_game(gid)
        powers = tuple(p for p in resolve_edition(rec.edition).turn_order
                       if rec.seats.get(p) == grant.holder)
        return Session(grant, raw, csrf_token(secret, raw), powers)

    async def private(self, request: web.Request) -> web.StreamResponse:
        """``/s/{token}``: a seat's private link. A good one sets the session cookie and sends
        the browser on to the game's page (the token leaves the address bar)."""
        token = request.match_info["token"]
        store = self.service.store
        claimed = lk.unsigned(token)
        if claimed is None:
            return _refused_link("This is not a private link of this referee (mistyped or cut "
                                 "short?).")
        try:
            secret = await lk.game_secret(store, claimed.game)
        except GameNotFound:
            return _refused_link("This link's game does not exist.")
        grant = lk.verify(secret, "link", token)
        if grant is None:
            return _refused_link("This link is not valid: it was changed or mistyped.")
        now = self.clock()
        why = await lk.check_grant(store, grant, now=now)
        if why is not None:
            return _refused_link(why)
        key = lk.public_key_of(secret, grant.game)
        session = lk.sign(secret, "session", grant)
        resp = web.Response(status=303, headers={
            "Location": f"/g/{key}", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})
        max_age = max(60, int((grant.expires - now).total_seconds()))
        resp.set_cookie(COOKIE, session, path=f"/g/{key}", httponly=True, samesite="Strict",
                        secure=self.secure, max_age=max_age)
        return resp

    async def seated(self, request: web.Request, gid: str) -> Session:
        session = await self.session(request, gid)
        if session is None or not session.powers:
            raise _json_error(403, NOT_SEATED)
        return session

    # --- the seat's view and orders --------------------------------------------------------------
    async def seat(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        session = await self.seated(request, gid)
        state = await self._state_now(gid)
        doc = await asyncio.to_thread(api.seat_doc, state, session.powers,
                                      self.names(session.grant.holder))
        doc["csrf"] = session.csrf
        return self._json(doc)

    async def moves(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        session = await self.seated(request, gid)
        frm = request.query.get("from", "")
        state = await self._state_now(gid)
        if state is not None and frm not in state.edition.spaces:
            return _error(400, f"No space {frm!r}: moves.json?from=<space name>.")
        power = api.acting_power(state, session.powers)
        doc = await asyncio.to_thread(api.moves_doc, state, power, frm)
        return self._json(doc)

    async def _state_now(self, gid: str) -> Any:
        try:
            return await self.service.state(gid)
        except ServiceError:
            return None

    async def orders(self, request: web.Request) -> web.Response:
        """POST the seat's order lines: through ``run_batch`` as the seat's holder, exactly as
        Discord's ``/orders`` and the mail gateway do."""
        gid = await self.game(request)
        session = await self.seated(request, gid)
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] not in self.hosts(request):
            return _error(403, "Orders are taken only from the game's own page. Nothing was "
                               "done.")
        wait = self.per_session.take(f"{gid}|{session.grant.holder}")
        if wait:
            return too_many(wait, "orders from this seat")
        if (request.content_length or 0) > self.config.max_body:
            return _too_large(self.config.max_body)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _too_large(self.config.max_body)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return _error(400, 'Send JSON: {"lines": "buy 1 tank", "csrf": "..."}.')
        given = request.headers.get("X-CSRF-Token") or body.get("csrf")
        if not csrf_ok(await lk.game_secret(self.service.store, gid), session.cookie,
                       given if isinstance(given, str) else None):
            return _error(403, BAD_CSRF)
        text = body.get("lines")
        if not isinstance(text, str):
            return _error(400, 'Send the order lines as one text: {"lines": "..."}.')
        info = await self.service.info(gid)
        current = await self.service.game_in(info.channel)
        if current is None or current.id != gid:
            return _error(409, f"Game {gid} is over; its channel plays game "
                               f"{current.id if current else 'none'} now. Nothing was done.")
        refused = await self._not_on_the_web(info, text)
        if refused is not None:
            return self._json({"ok": False, "results": [], "error": refused,
                               "summary": refused, "head": await self._head(gid)})
        batch = await run_batch(self.service, info.channel, session.grant.holder, text)
        if batch.accepted and self.after_orders is not None:
            try:
                await self.after_orders(batch.game or info, session.grant.holder, batch)
            except Exception:  # the orders stand; the other front ends catch up on their own
                log.exception("after-orders hook of game %s failed", gid)
        return self._json({
            "ok": batch.ok, "results": [_line(x) for x in batch.lines],
            "error": None if batch.ok else _batch_error(batch), "summary": batch.summary(),
            "head": await self._head(gid)})

    async def _head(self, gid: str) -> dict[str, Any]:
        seq, h = await api.head(self.service, gid)
        return {"seq": seq, "hash": h}

    @staticmethod
    async def _not_on_the_web(info: GameInfo, text: str) -> str | None:
        """Why a line is not taken on the page (a game command), or None."""
        from rules.orders import Order
        from service import language as ps
        from service.batch import BatchTooLarge, order_lines

        try:
            lines = order_lines(text)
        except BatchTooLarge:
            return None  # run_batch says so in its words
        names = ps.names_for(info.edition)
        for number, line in lines:
            try:
                cmd = ps.parse(line, names)
            except Exception:
                continue  # the refusal comes from the service, in its words
            if not isinstance(cmd, Order) and cmd.kind not in WEB_COMMANDS:
                return (f"Line {number}: '{line}' is not given on the web page; "
                        "use Discord or mail for the game's commands. This page gives orders "
                        "(and undo). Nothing was done.")
        return None

    # --- the board and the state -----------------------------------------------------------------
    async def board(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        rec = await self.service.store.get_game(gid)
        got = self._boards.get(rec.edition)
        if got is None:
            doc = await asyncio.to_thread(api.board_json, rec.edition)
            body = api.dumps(doc).encode()
            got = self._boards[rec.edition] = (body, f'"{hashlib.sha256(body).hexdigest()[:20]}"')
        body, etag = got
        headers = {"ETag": etag, "Cache-Control": "public, max-age=3600"}
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, content_type="application/json", charset="utf-8",
                            headers=headers)

    async def state(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        api_base = f"/g/{request.match_info['key']}"
        at_text = request.query.get("at")
        store = self.service.store
        if at_text is None:
            seq, h = await api.head(self.service, gid)  # before the state: never newer than it
            rec = await store.get_game(gid)
            state = None
            if seq:
                try:
                    state = await self.service.state(gid)
                except ServiceError as e:
                    return _error(409, str(e))
            deadline = await store.get_deadline(gid)
            due = deadline.due_at if deadline is not None and deadline.paused_at is None else None
            doc = api.state_doc(rec, state, seq, h, None, api_base, deadline=due,
                                names=self.names)
            return self._json(doc)
        try:
            at = int(at_text)
        except ValueError:
            return _error(400, "?at= takes an event number of the log (state.json?at=12).")
        events = await store.load_events(gid)
        if not 0 <= at <= len(events):
            return _error(400, f"The log has {len(events)} events: ?at= takes 0 to "
                               f"{len(events)}.")
        h = head_of(gid, events[:at])
        cached = self._at.get((gid, at, h))
        if cached is None:
            rec = await store.get_game(gid)
            state = await asyncio.to_thread(api.state_at, events, at)
            cached = api.state_doc(rec, state, at, h, at, api_base, names=self.names)
            if len(self._at) > 256:
                self._at.clear()
            self._at[(gid, at, h)] = cached
        return self._json(cached)

    # --- history, battles, odds, the record ------------------------------------------------------
    async def history(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        try:
            n = min(500, max(1, int(request.query.get("n", "50"))))
            before = int(request.query["before"]) if "before" in request.query else None
        except ValueError:
            return _error(400, "history.json takes ?before=<event number>&n=<how many>.")
        store = self.service.store
        events = await store.load_events(gid)
        key = ("history", gid, len(events), head_of(gid, events))
        cached = self._history.get(key)
        if cached is None:
            orders = await store.orders(gid)
            cached = await asyncio.to_thread(api.history_all, events, orders, self.names)
            if len(self._history) > 64:
                self._history.clear()
            self._history[key] = cached
        entries, steps = cached
        if before is not None:
            entries = [e for e in entries if e["seq"] < before]
        return self._json({"entries": entries[-n:], "more": len(entries) > n, "steps": steps,
                           "head": {"seq": len(events), "hash": key[3]}})

    async def battle_png(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        space = request.query.get("space", "")
        events = await self.service.store.load_events(gid)
        try:
            at = int(request.query.get("at", len(events)))
        except ValueError:
            return _error(400, "battle.png takes ?space=<space>&at=<event number>.")
        at = max(0, min(at, len(events)))
        key = ("battle", gid, space, at, head_of(gid, events[:at]))
        png = self._images.get(key)
        if png is None:
            png = await asyncio.to_thread(api.battle_png, events, at, space, gid)
            if png is None:
                return _error(404, f"No battle in {space!r} in this game"
                                   + (f" up to event {at}." if at < len(events) else "."))
            if len(self._images) > 32:
                self._images.clear()
            self._images[key] = png
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=60"})

    async def odds(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        space = request.query.get("space", "")
        state = await self._state_now(gid)
        if state is None or space not in state.battles or state.battles[space].step == "done":
            return _error(404, f"No open battle in {space!r} now: odds.json?space= takes a "
                               "space where a battle is open (state.json's battles).")
        try:
            doc = await asyncio.to_thread(api.odds_doc, state, space)
        except Exception as e:  # odds cannot model every battle (the bot says the same)
            return _error(422, f"Odds of the battle in {space}: not available ({e}).")
        return self._json(doc)

    async def export(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        try:
            doc = await self.service.export(gid)
        except ServiceError as e:
            return _error(409, str(e))
        rec = await self.service.store.get_game(gid)
        hidden = {p for p in (*rec.seats.values(), rec.owner) if "@" in p}
        return web.Response(
            text=api.dumps(_masked(doc, {a: self.names(a) + "@…" for a in hidden})),
            content_type="application/json", charset="utf-8", headers={
                "Content-Disposition": f'attachment; filename="umpire-{gid}.json"',
                "Cache-Control": "no-store"})

    async def verify(self, request: web.Request) -> web.Response:
        gid = await self.game(request)
        r = await self.service.verify_dice(gid)
        text = r.answer if r.ok else (r.error or r.answer or "Refused.")
        return web.Response(text=text + "\n", content_type="text/plain", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    @staticmethod
    def _json(doc: Any, status: int = 200) -> web.Response:
        return web.Response(text=api.dumps(doc), status=status, content_type="application/json",
                            charset="utf-8", headers={"Cache-Control": "no-store"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        gid = await self.game(request)
        return await self.live.stream(request, gid)

    # --- static files ----------------------------------------------------------------------------
    async def static_file(self, request: web.Request) -> web.StreamResponse:
        root = STATIC_DIR.resolve()
        path = (root / request.match_info["path"]).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise web.HTTPNotFound(text="No such file.", content_type="text/plain")
        cache = ("public, max-age=31536000, immutable"
                 if request.match_info["version"] == self.version else "no-cache")
        return web.FileResponse(path, headers={"Cache-Control": cache})


def _json_error(status: int, text: str) -> web.HTTPException:
    exc = {403: web.HTTPForbidden, 404: web.HTTPNotFound, 400: web.HTTPBadRequest}[status]
    return exc(text=json.dumps({"error": text}), content_type="application/json")


def _too_large(limit: int) -> web.Response:
    return _error(413, f"Too much at once: at most {limit:,} bytes a request. Send the orders "
                       "of one phase at a time. Nothing was done.")


def _refused_link(why: str) -> web.Response:
    body = (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>Private link refused</title></head><body>"
            f"<h1>This private link does not work</h1><p>{html.escape(why)}</p>"
            f"<p>{html.escape(NEW_LINK)}</p></body></html>")
    return web.Response(text=body, status=403, content_type="text/html", charset="utf-8",
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


def _masked(doc: Any, hide: dict[str, str]) -> Any:
    """``doc`` with every string that is a hidden address replaced (mail addresses are not
    shown on a public page)."""
    if not hide:
        return doc
    if isinstance(doc, str):
        return hide.get(doc, doc)
    if isinstance(doc, list):
        return [_masked(x, hide) for x in doc]
    if isinstance(doc, dict):
        return {hide.get(k, k): _masked(v, hide) for k, v in doc.items()}
    return doc


_STATUS = {"accepted": "accepted", "refused": "refused", "not tried": "skipped"}


def _line(x: LineResult) -> dict[str, Any]:
    r = x.result
    if x.status == "accepted":
        text = (r.answer if r is not None else "") or "Accepted."
    elif x.status == "refused":
        text = (r.error if r is not None else "") or "Refused."
    else:
        text = "Not tried: a line before it was refused."
    return {"number": x.number, "line": x.line, "status": _STATUS[x.status], "text": text}


def _batch_error(batch: BatchResult) -> str:
    bad = batch.refused
    if batch.error is not None or bad is None or bad.result is None:
        return batch.summary()
    return f"{bad.line}: {bad.result.error}"


@web.middleware
async def _errors(request: web.Request,
                  handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                  ) -> web.StreamResponse:
    """A store's refusal as a JSON error (the page shows it), not a bare 500."""
    try:
        return await handler(request)
    except GameNotFound:
        return _error(404, NO_GAME)
    except StoreError as e:
        log.exception("store error on %s", request.path)
        return _error(503, f"The referee's store failed ({type(e).__name__}); try again soon.")


SITE: web.AppKey[Site] = web.AppKey("site", Site)


def make_app(service: GameService, settings: Any = None, *,
             names: Callable[[str], str] = api.shown_name,
             clock: Callable[[], datetime] | None = None,
             after_orders: AfterOrders | None = None) -> web.Application:
    """The web application over ``service`` (``settings``: ``settings.Settings``, a
    ``WebConfig`` or None for the defaults). ``names`` shows a seat's holder to the public;
    ``after_orders(game, holder, batch)`` is called after orders given on a page were accepted
    (the Discord bot posts them in the game's channel: ``cogs._follow.relay_web``)."""
    config = WebConfig.of(settings)
    site = Site(service, config, names=names, clock=clock, after_orders=after_orders)

    @web.middleware
    async def per_address(request: web.Request,
                          handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                          ) -> web.StreamResponse:
        if not request.path.startswith("/static/"):
            wait = site.per_address.take(request.remote or "?")
            if wait:
                return too_many(wait, "requests from this address")
        return await handler(request)

    app = web.Application(middlewares=[headers_middleware, per_address, _errors],
                          client_max_size=config.max_body)
    app[SITE] = site
    r = app.router
    r.add_get("/g/{key}", site.page)
    r.add_get("/g/{key}/board.json", site.board)
    r.add_get("/g/{key}/state.json", site.state)
    r.add_get("/g/{key}/events", site.events)
    r.add_get("/g/{key}/history.json", site.history)
    r.add_get("/g/{key}/battle.png", site.battle_png)
    r.add_get("/g/{key}/odds.json", site.odds)
    r.add_get("/g/{key}/export.json", site.export)
    r.add_get("/g/{key}/verify.txt", site.verify)
    r.add_get("/g/{key}/seat.json", site.seat)
    r.add_get("/g/{key}/moves.json", site.moves)
    r.add_post("/g/{key}/orders", site.orders)
    r.add_get("/s/{token}", site.private)
    r.add_get("/static/{version}/{path:.+}", site.static_file)

    async def on_startup(app: web.Application) -> None:
        site.live.start()

    async def on_shutdown(app: web.Application) -> None:
        await site.live.stop()

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    return app


class WebServer:
    """The application run on ``config.host``:``config.port`` (0: any free port)."""

    def __init__(self, service: GameService, settings: Any = None, **kw: Any) -> None:
        self.config = WebConfig.of(settings)
        self.app = make_app(service, self.config, **kw)
        self._runner: web.AppRunner | None = None
        self.port = self.config.port

    @property
    def site(self) -> Site:
        return self.app[SITE]

    @property
    def url(self) -> str:
        """The address it listens on (``http://127.0.0.1:54321``)."""
        return f"http://{self.config.host}:{self.port}"

    @property
    def public_url(self) -> str:
        """The address people reach it at (``WEB_PUBLIC_URL``, else ``url``)."""
        return (self.config.public_url or self.url).rstrip("/")

    async def seat_link(self, game_id: str, power: str) -> str:
        """The private link of ``power``'s seat for its holder now (``web.links.seat_link``)."""
        return await lk.seat_link(self.site.service.store, self.public_url, game_id, power,
                                  days=self.config.link_days)

    async def public_link(self, game_id: str) -> str:
        """The game's public page."""
        return await lk.public_link(self.site.service.store, self.public_url, game_id)

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=5)
        await runner.setup()
        tcp = web.TCPSite(runner, self.config.host, self.config.port)
        await tcp.start()
        self._runner = runner
        address = runner.addresses[0]
        self.port = int(address[1])
        log.info("web pages at %s (public %s)", self.url, self.public_url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


async def serve(settings: Any, service: GameService, stop: asyncio.Event, **kw: Any) -> None:
    """Run the web server beside the bot (or alone) until ``stop`` is set; ``kw`` go to
    ``make_app`` (``names``, ``after_orders``)."""
    server = WebServer(service, settings, **kw)
    await server.start()
    try:
        await stop.wait()
    finally:
        await server.stop()


__all__ = ["SITE", "Site", "WebConfig", "WebServer", "make_app", "serve", "static_version"]
