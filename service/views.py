"""Views for the front ends: a game's status, history and map, and the games of a server.

Nothing here changes a game (``status`` records the log's head it shows as published): each
view reads the stored game and answers in words, with the data a front end draws its own
view from (``Result.data``, ``Result.state``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.engine import Pending, pending, phase_name, replay, resolve_edition
from rules.messages import catalogue, msg
from rules.position import state_json
from rules.state import GameState
from service import describe as ds
from service.core import (
    GameInfo,
    HashedStore,
    Result,
    ServiceCore,
    ServiceError,
    and_list,
    head_line,
    open_seats_line,
)
from service.store import ENDED, CorruptGame, GameNotFound, GameRecord, StoreError

if TYPE_CHECKING:
    from service.images import RenderedImage

log = logging.getLogger(__name__)

# A game listed whose stored log fails its checks ('game list', '/game list').
CORRUPT_LINE = (
    "its stored log is corrupt: no orders until its owner ({owner}) repairs it with "
    "'game repair truncate' or 'game repair reseal' ('game check' says what is wrong)."
)


class ViewsRoom(ServiceCore):
    """What the front ends show: status, history, map, lists."""

    async def status(self, game_id: str) -> Result:
        """Round, power, phase, treasury, income, battles, seats and who the game waits for.

        ``state`` is the state document (``state_json``); ``data`` has the game record and the
        list of pending decisions.
        """
        try:
            loaded = await self._load(game_id, verify=True)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="status")
        rec = loaded.record
        info = GameInfo.of(rec)
        ed = resolve_edition(rec.edition)
        head = f"Game {rec.id}: {ed.rules.title}, {rec.status}, owner {rec.owner}"
        if rec.options:
            head += f", options {', '.join(rec.options)}"
        if rec.dice.kind == "scripted":
            head += ", scripted dice"
        lines = [head + "."]
        seats = ", ".join(
            f"{p} {rec.seats[p]}" if p in rec.seats else f"{p} (open)" for p in ed.turn_order
        )
        lines.append(f"Seats: {seats}.")
        data: dict[str, Any] = {"game": info.to_json()}
        if loaded.state is None:
            lines.append(open_seats_line(ed.turn_order, rec.seats))
            lines.append(f"Waiting for: {rec.owner} to start the game ('game start').")
            data["waiting"] = []
            return Result(ok=True, answer="\n".join(lines), kind="status", game=info, data=data)
        state = loaded.state
        pend = pending(state)
        lines.extend(ds.status_lines(state))
        lines.append(ds.waiting_line(state, pend, rec.seats))
        data["waiting"] = [_pending_json(p, rec.seats, state) for p in pend]
        seq, h = await self.publish_head(game_id, loaded.events)
        lines.append(head_line(seq, h))
        data["log_head"] = {"seq": seq, "hash": h}
        lines.extend(await self._snapshot_warnings(game_id, rec.owner))
        return Result(
            ok=True,
            answer="\n".join(lines),
            kind="status",
            game=info,
            state=state_json(state),
            data=data,
        )

    async def history(self, game_id: str, n: int = 10) -> Result:
        """The last ``n`` events as text lines, numbered by sequence."""
        try:
            loaded = await self._load(game_id, verify=True)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="history")
        info = GameInfo.of(loaded.record)
        if not loaded.events:
            return Result(ok=True, answer="No events yet.", kind="history", game=info)
        n = max(1, n)
        events = [s.event for s in loaded.events]
        first = max(0, len(events) - n)
        state = replay(events[:first]) if first else None
        lines = ds.describe_all(state, events[first:])
        numbered = [f"#{first + i + 1} {line}" for i, line in enumerate(lines)]
        return Result(ok=True, answer="\n".join(numbered), kind="history", game=info)

    async def map(self, game_id: str, space: str | None = None) -> Result:
        """The map: a text overview (one space with its neighbours, or all of them), and with
        images on, the map image (around ``space`` if given)."""
        try:
            state = await self.state(game_id, verify=True)
            info = await self.info(game_id)
        except (ServiceError, StoreError) as e:
            return Result.refused(str(e), kind="map")
        if space is not None:
            try:
                space = _resolve_space(state, space)
            except ServiceError as e:
                return Result.refused(str(e), kind="map", game=info)
        pictures: tuple[RenderedImage, ...] = ()
        if self.images:
            from service import images as im

            try:
                log_events = [s.event for s in await self.store.load_events(game_id)]
                pictures = (
                    await asyncio.to_thread(im.map_image, state, log_events, game_id, focus=space),
                )
            except Exception:  # the text map still answers
                log.exception("rendering the map failed for game %s", game_id)
        return Result(
            ok=True,
            answer="\n".join(ds.map_lines(state, space)),
            kind="map",
            game=info,
            data={"space": space},
            images=pictures,
        )

    async def _snapshot_warnings(self, game_id: str, owner: str) -> list[str]:
        if not isinstance(self.store, HashedStore):
            return []
        bad = await self.store.snapshot_problems(game_id)
        return [
            f"Warning: the snapshot after event #{seq} was ignored ({why}); the state was "
            f"replayed from the log. The owner ({owner}) drops it with 'game repair truncate'."
            for seq, why in bad
        ]

    # --- the games of a server --------------------------------------------------------------------
    async def games_of(self, guild: str, *, finished: bool = False) -> Result:
        """``game list``: the games of a server (of the store at the local table): channel,
        edition, round, whose turn, deadline; finished and cancelled ones with ``finished``."""
        rows: list[dict[str, Any]] = []
        lines: list[str] = []
        for rec in await self.store.games_in_guild(guild):
            if rec.status in ENDED and not finished:
                continue
            row = await self._list_row(rec)
            rows.append(row)
            lines.append(_list_line(row))
        if not lines:
            more = "" if finished else " (finished games: 'game list all')"
            lines = [f"No games here yet{more}; start one with 'game new'."]
        return Result(ok=True, answer="\n".join(lines), kind="list", data={"games": rows})

    async def mine(self, guild: str, person: str) -> Result:
        """``game mine``: the games of a server where ``person`` holds seats, and where the game
        waits for them now (their turn, a battle decision, a vote, the start)."""
        rows: list[dict[str, Any]] = []
        lines: list[str] = []
        for rec in await self.store.games_in_guild(guild):
            powers = [p for p, who in rec.seats.items() if who == person]
            if rec.status in ENDED or not (powers or rec.owner == person):
                continue
            row = await self._list_row(rec)
            ed = resolve_edition(rec.edition)
            row["powers"] = [p for p in ed.turn_order if p in powers]
            awaited = [w for w in row["waiting"] if w["person"] == person]
            if rec.status == "lobby" and rec.owner == person:
                awaited.append({"power": "", "person": person, "what": "the start (game start)"})
            if rec.status == "active":
                for what in ("cancel", "draw", f"concede:{ed.side_of(powers[0])}" if powers
                             else ""):
                    voters = await self.store.votes(rec.id, what) if what else []
                    if voters and person not in voters:
                        word = what.partition(":")[0]
                        awaited.append({"power": "", "person": person,
                                        "what": f"a vote to {word} (game {word})"})
            row["awaited"] = awaited
            rows.append(row)
            held = and_list(row["powers"]) or "no seat (owner)"
            now = "; ".join(
                f"{w['power']} {w['what']}".strip() for w in awaited
            ) or "nothing now"
            lines.append(f"{_list_line(row)}\n  You hold {held}; awaited: {now}.")
        if not lines:
            lines = ["You hold no seat in a game here; 'game list' shows the games."]
        return Result(ok=True, answer="\n".join(lines), kind="mine", data={"games": rows})

    async def _list_row(self, rec: GameRecord) -> dict[str, Any]:
        ed = resolve_edition(rec.edition)
        row: dict[str, Any] = {
            "id": rec.id, "channel": rec.channel, "guild": rec.guild, "edition": rec.edition,
            "title": ed.rules.title, "status": rec.status, "owner": rec.owner,
            "round": None, "power": None, "phase": None, "waiting": [], "deadline": None,
            "result": None,
        }
        if rec.status == "lobby":
            return row
        try:
            loaded = await self._load(rec.id)
        except GameNotFound:
            return row
        except CorruptGame:
            row["corrupt"] = True
            return row
        state = loaded.state
        if state is None:  # cancelled by its owner before the start
            row["result"] = "cancelled before the start"
            return row
        row.update(round=state.round, power=state.power, phase=phase_name(state))
        if state.winner:
            row["result"] = f"won by the {state.winner}"
        elif state.ended:
            row["result"] = "a draw" if state.ended == "draw" else "cancelled"
        elif rec.status == "active":
            row["waiting"] = [
                {"power": p.power, "person": rec.seats.get(p.power, ""),
                 "what": phase_name(state) if p.turn
                 else p.what + (f" in {p.space}" if p.space else "")}
                for p in pending(state)
            ]
            d = await self.store.get_deadline(rec.id)
            if d is not None:
                row["deadline"] = d.due_at.isoformat()
                row["paused"] = d.paused
        return row


def _resolve_space(state: GameState, name: str) -> str:
    key = name.strip().casefold()
    for s, info in state.edition.spaces.items():
        if key == s.casefold() or key in (a.casefold() for a in info.aliases):
            return s
    close = [s for s in state.edition.spaces if key in s.casefold()][:5]
    raise ServiceError(msg("views.unknown_space", name=name, close=close))


def _list_line(row: Mapping[str, Any]) -> str:
    """One game of 'game list', in words (the Discord cog writes its own line from the row)."""
    head = f"{row['id']} in {row['channel']}: {row['title']}"
    if row["status"] == "lobby":
        return f"{head}, waiting for players and the start."
    if row.get("corrupt"):
        return f"{head}, {CORRUPT_LINE.format(owner=row['owner'])}"
    if row["result"]:
        when = f", round {row['round']}" if row["round"] is not None else ""
        return f"{head}{when}, over: {row['result']}."
    who = "; ".join(
        f"{w['power']} ({w['person'] or 'open seat'}) {w['what']}" for w in row["waiting"]
    )
    line = f"{head}, round {row['round']}, waiting for {who or 'nobody'}"
    if row["deadline"]:
        line += f"; deadline {row['deadline'][:16].replace('T', ' ')} UTC"
    return line + "."


def _pending_json(p: Pending, seats: Mapping[str, str], state: GameState) -> dict[str, Any]:
    """One wait; ``label`` is what people read: the phase's name for a turn ("Combat Move"),
    else the decision and its space ("casualties in Ukraine"); ``what`` stays the engine's."""
    label = phase_name(state) if p.turn else p.what + (f" in {p.space}" if p.space else "")
    return {"power": p.power, "what": p.what, "label": label, "space": p.space,
            "person": seats.get(p.power)}


__all__ = ["CORRUPT_LINE", "ViewsRoom"]


catalogue("en", "views", {
    "unknown_space": lambda p: (
        f"Unknown space {p['name']!r}."
        + (f" Did you mean {', '.join(p['close'])}?" if p["close"] else "")),
})
