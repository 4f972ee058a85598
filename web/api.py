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




# --- a seat's view: what it may do now ---------------------------------------------------------
def acting_power(state: GameState | None, powers: Sequence[str]) -> str | None:
    """The seat's power the game waits for now (its turn first, then a decision it owes)."""
    if state is None or state.winner or state.ended:
        return None
    owed = [p.power for p in pending(state) if p.power in powers]
    if state.power in powers and state.power in owed:
        return state.power
    return owed[0] if owed else None


def _movable(state: GameState, power: str) -> dict[str, list[dict[str, Any]]]:
    from rules import board

    ed = state.edition
    groups: dict[tuple[str, str], list[int]] = {}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.owner != power or ed.units[u.type].abilities.fixed:
            continue
        left = board.remaining(state, u)
        aboard = u.carried_by is not None and ed.units[u.type].domain == "land"
        if left <= 0 and not aboard:
            continue
        groups.setdefault((u.space, u.type), []).append(max(0, left))
    out: dict[str, list[dict[str, Any]]] = {}
    for (space, kind), lefts in groups.items():
        out.setdefault(space, []).append(
            {"type": kind, "count": len(lefts), "moves_left": max(lefts)})
    return out


def seat_doc(state: GameState | None, powers: Sequence[str], holder: str) -> dict[str, Any]:
    """The ``seat.json`` document: what the seat may do now (buy, place, move, decide)."""
    from rules import tech
    from rules.legal import legal_orders
    from rules.orders import Place
    from service.choices import choice_label, decision_orders, order_text

    doc: dict[str, Any] = {"powers": list(powers), "holder": holder, "acting": None,
                           "phase": None, "buy": [], "ipcs": 0, "purchase": {}, "place": [],
                           "movable": {}, "decisions": []}
    acting = acting_power(state, powers)
    if state is None or acting is None:
        return doc
    doc.update(acting=acting, phase=state.phase, ipcs=state.treasury.get(acting, 0))
    turn = acting == state.power
    if turn and state.phase == "purchase":
        for name in state.edition.units:
            price = tech.cost(state, acting, name)
            if price is not None and state.edition.units[name].cost is not None:
                doc["buy"].append({"unit": name, "cost": price})
    if turn:
        doc["purchase"] = dict(state.purchase)
    if turn and state.phase == "mobilize" and state.purchase:
        spaces: dict[str, list[str]] = {}
        for o in legal_orders(state, acting):
            if isinstance(o, Place):
                for name in o.units:
                    if o.space not in spaces.setdefault(name, []):
                        spaces[name].append(o.space)
        doc["place"] = [{"unit": name, "count": n, "spaces": spaces.get(name, [])}
                        for name, n in state.purchase.items() if n]
    if turn and state.phase in ("combat_move", "noncombat_move"):
        doc["movable"] = _movable(state, acting)
    for p in pending(state):
        if p.power not in powers or p.turn:
            continue
        what = p.what + (f" in {p.space}" if p.space else "")
        doc["decisions"].append({
            "power": p.power, "text": f"{p.power}: {what}", "space": p.space, "what": p.what,
            "choices": [{"label": choice_label(o), "line": order_text(o)}
                        for o in decision_orders(state, p)]})
    return doc


def move_line(move: Any) -> str:
    """A move as the order line a player types (``move 2 tanks from Germany to Poland``)."""
    from rules.language.units import format_units

    line = f"move {format_units(move.units)} from {move.frm} to {move.to}"
    if move.via:
        line += " via " + ", ".join(move.via)
    return line + (" raid" if getattr(move, "raid", False) else "")


def moves_doc(state: GameState | None, power: str | None, frm: str) -> dict[str, Any]:
    """The ``moves.json`` document: the seat's units in ``frm`` and where each type may go
    (the legal candidates of ``rules.legal``, each checked by the engine)."""
    from rules.legal import accepted, candidate_orders
    from rules.orders import Move

    doc: dict[str, Any] = {"from": frm, "units": [], "to": []}
    if state is None or power is None or power != state.power:
        return doc
    doc["units"] = _movable(state, power).get(frm, [])
    to: dict[str, dict[str, Any]] = {}
    for cand in candidate_orders(state, power):
        if not isinstance(cand, Move) or cand.frm != frm:
            continue
        for move in accepted(state, cand):
            if not isinstance(move, Move):
                continue
            entry = to.setdefault(move.to, {"space": move.to, "units": [], "lines": []})
            for name in move.units:
                if name not in entry["units"]:
                    entry["units"].append(name)
            line = move_line(move)
            if line not in entry["lines"]:
                entry["lines"].append(line)
    order = list(state.edition.spaces)
    doc["to"] = sorted(to.values(), key=lambda e: order.index(e["space"]))
    return doc



# --- history, battles, odds ------------------------------------------------------------------
def _step_label(state: GameState) -> str:
    name = state.edition.phase_info[state.phase].name
    return f"Round {state.round} · {state.power} · {name}"


def history_all(events: Sequence[StoredEvent], orders: Sequence[Any],
                names: Names = shown_name) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every accepted order with its lines (as the answers told them), and the steps: the log's
    length at the end of each phase of each round (``state.json?at=`` shows the board then)."""
    from rules.engine import evolve

    by_start = {o.first_seq: o for o in orders if o.count}
    entries: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    state: GameState | None = None
    k = 0
    log_events = [s.event for s in events]
    while k < len(log_events):
        o = by_start.get(k)
        n = o.count if o is not None else 1
        chunk = log_events[k:k + n]
        before = state
        lines = ds.describe_all(before, chunk)
        for e in chunk:
            prev = state
            state = evolve(state, e) if state is not None else replay([e])
            k += 1
            if prev is not None and (prev.round, prev.power, prev.phase) != (
                    state.round, state.power, state.phase):
                steps.append({"seq": k - 1, "label": _step_label(prev)})
        if o is not None and state is not None:
            who = o.power or names(o.person)
            entries.append({"seq": k, "round": state.round if before is None else before.round,
                            "power": (before or state).power, "phase": (before or state).phase,
                            "who": who, "order": o.text, "lines": lines})
    if state is not None:
        steps.append({"seq": len(log_events), "label": _step_label(state) + " (now)"})
    return entries, steps


def battle_png(events: Sequence[StoredEvent], at: int, space: str, game_id: str) -> bytes | None:
    """The battle board of the last battle in ``space`` up to event ``at`` (as the bot posts
    it when it ends; an open battle as it stands), or None if there was none."""
    from rules import events as ev

    log_events = [s.event for s in events[:at]]
    opened = max((i for i, e in enumerate(log_events)
                  if isinstance(e, ev.BattleOpened) and e.space == space), default=None)
    if opened is None:
        return None
    ended = next((i for i in range(opened + 1, len(log_events))
                  if isinstance(log_events[i], ev.BattleEnded)
                  and getattr(log_events[i], "space", None) == space), None)
    from service import images as im

    if ended is not None:
        return im.battle_image(log_events, ended, game_id).png
    from render import png_bytes
    from render.battle import battle_record, render_battle

    at_open = replay(log_events[:opened + 1])
    rec = battle_record(at_open, log_events[opened:], space)
    odds_result = None
    note = ""
    try:
        from odds.ask import battle_odds

        odds_result = battle_odds(at_open, space)
    except Exception as e:
        note = f"Odds before the first roll: not available ({e})."
    image = render_battle(rec, at_open.edition, odds=odds_result, odds_note=note,
                          title=f"Game {game_id}, game round {at_open.round} (in progress)")
    return png_bytes(image)


def odds_doc(state: GameState, space: str) -> dict[str, Any]:
    """The odds of the battle open in ``space`` as it stands: the bot's words and figures."""
    from odds.ask import battle_odds, summary

    r = battle_odds(state, space)
    return {"space": space, "text": summary(r), "odds": r.to_json()}


__all__ = ["acting_power", "battle_png", "board_json", "boot_json", "dumps", "head",
           "history_all", "iso", "local_board_json", "move_line", "moves_doc", "odds_doc",
           "seat_doc", "shown_name", "state_at", "state_doc"]
