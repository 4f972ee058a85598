"""Server-sent events: each open page is told the game's log head when it changes.

Two sources of changes: the service's listeners (``ServiceCore.listeners``: an order given in
this process, whichever front end gave it, is told at once) and a poll of the store's head
every ``poll`` seconds for the games someone watches (a change written by another process on
the same database: a second bot, the mail gateway run alone, the local table). A page that
gets a head it has not seen refetches ``state.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from aiohttp import web

from service.core import GameInfo
from service.games import GameService
from web.api import head

log = logging.getLogger(__name__)


@dataclass(eq=False)
class _Watcher:
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Live:
    """The watchers of each game and the heads they were last told."""

    service: GameService
    poll: float = 2.0
    ping: float = 15.0
    _watchers: dict[str, set[_Watcher]] = field(default_factory=dict, init=False)
    _heads: dict[str, tuple[int, str]] = field(default_factory=dict, init=False)
    _closing: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _poller: asyncio.Task[None] | None = field(default=None, init=False)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False)

    # --- life ------------------------------------------------------------------------------------
    def start(self) -> None:
        self.service.listeners.append(self.listen)
        self._poller = asyncio.get_running_loop().create_task(self._poll())

    async def stop(self) -> None:
        self._closing.set()
        with contextlib.suppress(ValueError):
            self.service.listeners.remove(self.listen)
        for watchers in self._watchers.values():
            for w in watchers:
                w.wake.set()
        tasks = [t for t in (self._poller, *self._tasks) if t is not None]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- changes ---------------------------------------------------------------------------------
    async def listen(self, info: GameInfo, events: Sequence[object]) -> None:
        """A service listener: a change made in this process."""
        if not self._watchers.get(info.id):
            return
        task = asyncio.get_running_loop().create_task(self.refresh(info.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def refresh(self, game_id: str) -> None:
        """Read the game's head; wake its watchers if it moved."""
        try:
            now = await head(self.service, game_id)
        except Exception:
            log.exception("reading the head of game %s failed", game_id)
            return
        if self._heads.get(game_id) != now:
            self._heads[game_id] = now
            for w in self._watchers.get(game_id, ()):
                w.wake.set()

    async def _poll(self) -> None:
        while not self._closing.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), self.poll)
            for game_id in [g for g, ws in self._watchers.items() if ws]:
                await self.refresh(game_id)

    # --- one page's stream -----------------------------------------------------------------------
    async def stream(self, request: web.Request, game_id: str) -> web.StreamResponse:
        resp = web.StreamResponse(headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-cache, no-store", "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        me = _Watcher()
        self._watchers.setdefault(game_id, set()).add(me)
        try:
            now = await head(self.service, game_id)
            self._heads[game_id] = now
            told = now
            await resp.write(_head_event(now))
            while not self._closing.is_set():
                try:
                    await asyncio.wait_for(me.wake.wait(), self.ping)
                except TimeoutError:
                    await resp.write(b": ping\n\n")
                    continue
                me.wake.clear()
                now = self._heads.get(game_id, told)
                if now != told and not self._closing.is_set():
                    told = now
                    await resp.write(_head_event(now))
        except (ConnectionResetError, ConnectionError):
            pass
        finally:
            watchers = self._watchers.get(game_id)
            if watchers is not None:
                watchers.discard(me)
                if not watchers:
                    del self._watchers[game_id]
        return resp

    def watching(self, game_id: str) -> int:
        """How many pages watch the game (tests, the bot's status)."""
        return len(self._watchers.get(game_id, ()))


def _head_event(h: tuple[int, str]) -> bytes:
    data = json.dumps({"seq": h[0], "hash": h[1]})
    return f"event: head\ndata: {data}\n\n".encode()


__all__ = ["Live"]
