"""The page's JSON, built from the service: the game as it stands (or stood after an event of
its log), and the static board of its edition.

Nothing here decides or changes a game; what a person reads is the service's words
(``service.describe``) and the engine's state. ``state_doc`` follows ``/work/web-contract.md``'s
``state.json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from rules.engine import pending, phase_name, replay, resolve_edition
from rules.position import held_apart
from rules.state import GameState
from service import describe as ds
from service.core import HeadStore
from service.games import GameService
from service.store import GameRecord, StoredEvent, head_of

Names = Callable[[str], str]


def shown_name(holder: str) -> str:
    """How a seat's holder is shown to anyone who opens the public page: a mail address by its
    name part only (addresses stay private), a Discord id as 'a Discord player' (the bot
    passes its own ``names`` to show display names)."""
    if not holder:
        return ""
    if "@" in holder:
        return holder.split("@", 1)[0]
    if holder.isdigit():
        return "a Discord player"
    return holder


def iso(when: datetime | None) -> str | None:
    if when is None:
        return None
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def head(service: GameService, game_id: str) -> tuple[int, str]:
    """The log's head (event count, chain hash), read from the store alone when it can."""
    store = service.store
    if isinstance(store, HeadStore):
        return await store.head(game_id)
    events = await store.load_events(game_id)
    return len(events), head_of(game_id, events)


def _units(state: GameState) -> dict[str, list[dict[str, Any]]]:
    apart, held = held_apart(state)
    groups: dict[tuple[str, str, str, bool], list[int]] = {}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.id in apart:
            continue
        moved = bool(u.moved or u.combat_moved)
        groups.setdefault((u.space, u.owner, u.type, moved), []).append(u.damage)
    out: dict[str, list[dict[str, Any]]] = {}
    for (space, owner, kind, moved), damages in groups.items():
        out.setdefault(space, []).append({
            "type": kind, "power": owner, "count": len(damages),
            "damaged": sum(1 for d in damages if d), "moved": moved})
    for space, by_holder in held.items():
        for holder, units in by_holder.items():
            for kind, n in units.items():
                if n:
                    out.setdefault(space, []).append({
                        "type": kind, "power": holder, "count": n, "damaged": 0,
                        "moved": False})
    return out


def _battles(state: GameState, api: str) -> list[dict[str, Any]]:
    from urllib.parse import quote

    return [{"space": b.space, "attacker": b.attacker, "defenders": list(b.defenders),
             "sea": b.sea, "round": b.round, "step": b.step,
             "image": f"{api}/battle.png?space={quote(b.space)}"}
            for b in state.battles.values() if b.step != "done"]


def state_doc(rec: GameRecord, state: GameState | None, seq: int, hash_: str, at: int | None,
              api: str, *, deadline: datetime | None = None,
              names: Names = shown_name) -> dict[str, Any]:
    """The ``state.json`` document (see the module's docstring)."""
    doc: dict[str, Any] = {
        "head": {"seq": seq, "hash": hash_}, "at": at, "game": rec.id,
        "edition": rec.edition, "game_status": rec.status,
        "seats": {p: names(h) for p, h in rec.seats.items()},
        "round": None, "power": None, "phase": None, "phase_name": None, "waiting": [],
        "deadline": iso(deadline) if at is None else None, "status": [], "owners": {},
        "ipcs": {}, "units": {}, "battles": [], "finished": rec.status != "lobby" and
        rec.status != "active", "winner": None,
    }
    if state is None:
        ed = resolve_edition(rec.edition)
        open_ = [p for p in ed.turn_order if not rec.seats.get(p)]
        doc["status"] = [f"In the lobby: waiting for {rec.owner and names(rec.owner)} to start "
                         "the game." + (f" Open seats: {', '.join(open_)}." if open_ else "")]
        return doc
    waiting = []
    for p in pending(state):
        what = phase_name(state) if p.turn else p.what + (f" in {p.space}" if p.space else "")
        waiting.append({"power": p.power, "what": what, "space": p.space,
                        "holder": names(rec.seats.get(p.power, ""))})
    doc.update({
        "round": state.round, "power": state.power, "phase": state.phase,
        "phase_name": phase_name(state), "waiting": waiting,
        "status": [*ds.status_lines(state), ds.waiting_line(state, pending(state), {})],
        "owners": dict(state.owners), "ipcs": dict(state.treasury), "units": _units(state),
        "battles": _battles(state, api),
        "finished": bool(state.winner or state.ended), "winner": state.winner,
        "ended": state.ended,
    })
    return doc


def state_at(events: Sequence[StoredEvent], at: int) -> GameState | None:
    """The state after the log's first ``at`` events (None before the game started)."""
    if at <= 0:
        return None
    return replay([s.event for s in events[:at]])


def dumps(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def boot_json(doc: Mapping[str, Any]) -> str:
    """JSON safe inside ``<script type="application/json">``: no ``<``, ``>`` or ``&`` (so no
    ``</script>`` or ``<!--``), and no line separators JavaScript once choked on."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


# --- the static board ---------------------------------------------------------------------
def local_board_json(edition: str) -> dict[str, Any]:
    """REPLACED BY ``web.board_data.board_json`` once it exists (helper "board"): the edition's
    geometry alone, in the contract's shape, so that the server works before the page does."""
    from render.geo import geometry_for

    ed = resolve_edition(edition)
    geo = geometry_for(ed)
    spaces: dict[str, Any] = {}
    for name, shape in geo.spaces.items():
        sp = ed.spaces.get(name)
        spaces[name] = {
            "polygons": [[c for p in ring for c in p] for ring in shape.polygons],
            "centre": list(shape.centre), "label": list(shape.label),
            "units": [list(p) for p in shape.units],
            "sea": bool(sp is not None and sp.kind == "sea"),
            "value": sp.value if sp is not None else 0,
            "capital": list(shape.capital) if shape.capital else None,
            "victory": list(shape.victory) if shape.victory else None,
        }
    return {"map": geo.map_id, "size": list(geo.size), "wrap_x": geo.wrap_x, "spaces": spaces,
            "powers": {p: {"short": p[:3]} for p in ed.turn_order}, "units": {}}


def board_json(edition: str) -> dict[str, Any]:
    """The static board: board's ``web.board_data.board_json`` when present."""
    import importlib

    try:
        board_data = importlib.import_module("web.board_data")
    except ImportError:
        return local_board_json(edition)
    made = board_data.board_json(edition)
    assert isinstance(made, dict)
    return made


__all__ = ["board_json", "boot_json", "dumps", "head", "iso", "local_board_json",
           "shown_name", "state_at", "state_doc"]
