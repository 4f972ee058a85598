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
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

from rules.engine import resolve_edition
from service.core import ServiceError
from service.games import GameService
from service.store import GameNotFound, StoreError, head_of
from web import api
from web import links as lk
from web.live import Live
from web.security import headers_middleware

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


class Site:
    """The handlers over one service (``make_app`` routes them)."""

    def __init__(self, service: GameService, config: WebConfig, *,
                 names: Callable[[str], str] = api.shown_name,
                 clock: Callable[[], datetime] | None = None) -> None:
        self.service = service
        self.config = config
        self.names = names
        self.clock = clock or (lambda: datetime.now(UTC))
        self.live = Live(service, poll=config.poll_seconds, ping=config.ping_seconds)
        self.version = static_version()
        self._keys: dict[str, str] = {}  # public key -> game id (verified)
        self._boards: dict[str, tuple[bytes, str]] = {}  # edition -> (JSON, ETag)
        self._at: dict[tuple[str, int, str], dict[str, Any]] = {}  # past states' documents

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
        """Fill the boot JSON's ``csrf`` and ``seat`` for a session (step 2)."""

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
             clock: Callable[[], datetime] | None = None) -> web.Application:
    """The web application over ``service`` (``settings``: ``settings.Settings``, a
    ``WebConfig`` or None for the defaults). ``names`` shows a seat's holder to the public."""
    config = WebConfig.of(settings)
    site = Site(service, config, names=names, clock=clock)
    app = web.Application(middlewares=[headers_middleware, _errors],
                          client_max_size=config.max_body)
    app[SITE] = site
    r = app.router
    r.add_get("/g/{key}", site.page)
    r.add_get("/g/{key}/board.json", site.board)
    r.add_get("/g/{key}/state.json", site.state)
    r.add_get("/g/{key}/events", site.events)
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


async def serve(settings: Any, service: GameService, stop: asyncio.Event) -> None:
    """Run the web server beside the bot (or alone) until ``stop`` is set."""
    server = WebServer(service, settings)
    await server.start()
    try:
        await stop.wait()
    finally:
        await server.stop()


__all__ = ["SITE", "Site", "WebConfig", "WebServer", "make_app", "serve", "static_version"]
