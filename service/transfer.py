"""Exports and imports of whole games (``game export``, ``GameService.import_game``).

An export is one JSON document: the game's record, its orders, every event with its place in
the log's hash chain, and the final state, every field of it (``rules.codec``'s full document)
(``export``). An import (``import_game``) reads such a
document as a stranger's: everything in it is checked before anything is written, and then the
game is written in one store transaction (``EventStore.import_game``), so a refusal or a crash
leaves nothing behind. In order, an import is refused when

1. the document is not an export: not an object, a key missing, a value of the wrong type, a
   number out of range, text storage cannot hold, nesting too deep, too many events or orders,
   an event this referee does not know, an edition that is not installed here (checked against
   the installed editions before any file is opened). The answer begins "Not a game export:"
   and says what and where;
2. the log's hash chain breaks (an event edited, removed or reordered without rehashing);
3. the events do not replay, or replay to another state than the export says;
4. the dice do not verify: a revealed round's seed does not hash to the commitment, or a die
   differs from what the revealed seed gives (the answer names the round and the die);
5. the log matches no head hash the referee published for the original game (a head is posted
   with every phase summary), unless the import asks for an *unverified copy*: a log rewritten
   and rehashed throughout (an income raised by 500) passes 2-4, and only a published head
   tells it from the real one. An export that matches says so: "matches the head published at
   log #N";
6. the channel already has a game that is not over.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from rules import codec
from rules import dice_audit as da
from rules import events as ev
from rules.dice import FAIR_SCHEME
from rules.edition import available_editions
from rules.engine import replay, resolve_edition
from rules.messages import catalogue, msg
from rules.position import state_json
from rules.state import GameState
from rules.text import problem as text_problem
from service import fair
from service.core import GameInfo, Result, ServiceCore, ServiceError, new_dice_spec
from service.store import (
    ENDED,
    CorruptGame,
    DiceSpec,
    GameNotFound,
    GameStatus,
    ImportedOrder,
    StoreError,
)

log = logging.getLogger(__name__)

EXPORT_FORMAT = "umpire-game"
EXPORT_VERSION = 2  # 2: events carry "seq" and "hash" (the log's hash chain); 1 is still read
DICE_COMMIT_TEXT = "dice committed (imported game)"
UNVERIFIED_TEXT = "dice committed (imported game; unverified copy of {origin})"

# Bounds on what an import reads. A long game is a few thousand events.
MAX_EVENTS = 200_000
MAX_ORDERS = 200_000
MAX_NODES = 5_000_000  # JSON values in the whole document
MAX_DEPTH = 32  # nesting of objects and lists (an event is at most 6 deep)
MAX_STRING = 10_000  # characters in one text of the document
MAX_NUMBER = 10**12  # the largest integer anywhere in an export
MAX_FACES = 1_000_000  # scripted dice faces


class NotAnExport(Exception):
    """The document is not a game export; ``str(e)`` says what is wrong and where."""


def _fail(what: str) -> NoReturn:
    raise NotAnExport(what)


# --------------------------------------------------------------------------------------------
# Export


async def export(svc: ServiceCore, game_id: str) -> dict[str, Any]:
    """The game as one JSON document: record, orders, every event, and the final state."""
    try:
        loaded = await svc._load(game_id, verify=True)
    except (GameNotFound, CorruptGame) as e:
        raise ServiceError(str(e)) from None
    rec = loaded.record
    orders = await svc.store.orders(game_id)
    dice: dict[str, Any] = {"kind": GameInfo.of(rec).dice}
    if rec.dice.kind == "scripted":
        dice["faces"] = list(rec.dice.faces)
    else:
        dice["scheme"] = FAIR_SCHEME
        dice["commitment"] = rec.dice.commitment
        dice["chain_length"] = rec.dice.chain_length
        dice["master"] = rec.dice.master
    dice["used"] = sum(o.dice_used for o in orders)
    # The log's hash chain (DESIGN §6): each event carries its number and
    # hash_n = sha256(hash_{n-1} + canonical_json(event_n)), hash_0 = the game id.
    bodies = [ev.event_to_json(s.event) for s in loaded.events]
    hashes = fair.log_hashes(rec.id, bodies)
    events = [
        {**body, "seq": n, "hash": h}
        for n, (body, h) in enumerate(zip(bodies, hashes, strict=True), start=1)
    ]
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": {
            **GameInfo.of(rec).to_json(),
            "dice": dice,
            "position": rec.position,
        },
        "orders": [
            {
                "index": o.index,
                "person": o.person,
                "power": o.power,
                "text": o.text,
                "first_seq": o.first_seq,
                "count": o.count,
                "dice_used": o.dice_used,
            }
            for o in orders
        ],
        "log": {
            "hash": "sha256(previous hash + canonical JSON of the event), hex",
            "start": rec.id,
            "head": hashes[-1] if hashes else rec.id,
        },
        "events": events,
        "state": codec.state_to_json(loaded.state) if loaded.state is not None else None,
    }


# --------------------------------------------------------------------------------------------
# Reading a document as a stranger's


MAX_BYTES = 64 * 1024 * 1024  # an export file: a long game is a few megabytes


def parse_text(raw: str | bytes) -> Any:
    """An export file's text (or bytes) as JSON; ``NotAnExport`` for anything else: empty,
    truncated, binary, too big, nested too deep for the parser."""
    if len(raw) > MAX_BYTES:
        _fail(f"the file is {len(raw):,} bytes; the most an import takes is {MAX_BYTES:,}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            _fail(f"the file is not UTF-8 text (byte {e.start})")
    if not raw.strip():
        _fail("the file is empty")
    try:
        return json.loads(raw)
    except RecursionError:
        _fail("the JSON is nested too deep")
    except ValueError as e:  # json.JSONDecodeError included
        _fail(f"the file is not JSON ({str(e)[:120]})")


def check_document(data: Any) -> None:
    """Walk the whole document once (no recursion): only JSON values, none too deep, no text
    storage cannot hold, no number out of range, not too many values."""
    stack: list[tuple[Any, str, int]] = [(data, "the document", 0)]
    nodes = 0
    while stack:
        value, where, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            _fail(f"more than {MAX_NODES:,} values")
        if depth > MAX_DEPTH:
            _fail(f"nested more than {MAX_DEPTH} levels deep (at {where[:60]}...)")
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, str):
            why = text_problem(value, MAX_STRING)
            if why:
                _fail(f"the text at {where} {why}")
        elif isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                _fail(f"the number at {where} is out of range ({len(str(abs(value)))} digits)")
        elif isinstance(value, float):
            if not math.isfinite(value) or abs(value) > MAX_NUMBER:
                _fail(f"the number at {where} is out of range ({value})")
        elif isinstance(value, Mapping):
            for k, v in value.items():
                if not isinstance(k, str):
                    _fail(f"a key of {where} is not text")
                why = text_problem(k, 200)
                if why:
                    _fail(f"a key of {where} {why}")
                stack.append((v, f"{where}.{k}" if depth else k, depth + 1))
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                stack.append((v, f"{where}[{i}]", depth + 1))
        else:
            _fail(f"{where} is a {type(value).__name__}, not a JSON value")


def _get(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        _fail(f"{where} has no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        want = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        at = key if where == "the document" else f"{where}.{key}"
        _fail(f"{at} is {_type(value)}, not {_word(want)}")
    return value


def _opt(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str,
         default: Any) -> Any:
    if obj.get(key) is None:
        return default
    return _get(obj, key, kind, where)


_WORDS = {"str": "text", "int": "a whole number", "dict": "an object", "list": "a list",
          "NoneType": "null", "bool": "true/false", "float": "a number"}


def _word(name: str) -> str:
    return " or ".join(_WORDS.get(n, n) for n in name.split(" or "))


def _type(value: Any) -> str:
    return _WORDS.get(type(value).__name__, type(value).__name__)


@dataclass(frozen=True)
class Parsed:
    """An export read and type-checked; nothing about it trusted yet."""

    version: int
    origin: str  # the original game's id (the hash chain's start)
    edition: str
    options: tuple[str, ...]
    channel: str
    owner: str
    guild: str
    seats: dict[str, str]
    dice_kind: str
    faces: tuple[int, ...]
    position: dict[str, Any] | None
    orders: tuple[tuple[str, str, str, int, int], ...]  # person, power, text, count, dice_used
    raw_events: tuple[Mapping[str, Any], ...]
    events: tuple[ev.Event, ...]
    state: dict[str, Any] | None


def read(data: Any) -> Parsed:
    """Type-check an export; ``NotAnExport`` says what is wrong and where."""
    if not isinstance(data, Mapping):
        _fail(f"the document is {_type(data)}, not an object")
    fmt, version = data.get("format"), data.get("version")
    if fmt != EXPORT_FORMAT or version not in (1, EXPORT_VERSION) or isinstance(version, bool):
        _fail(f"expected format {EXPORT_FORMAT!r} version {EXPORT_VERSION}")
    check_document(data)
    meta = _get(data, "game", dict, "the document")
    origin = _get(meta, "id", str, "game")
    if not origin or len(origin) > 100:
        _fail("game.id is empty or longer than 100 characters")
    edition = _get(meta, "edition", str, "game")
    installed = available_editions()
    if edition not in installed:  # before any file is opened: no path is built from it
        _fail(f"edition {edition[:40]!r} is not installed here (installed: "
              f"{', '.join(installed)})")
    ed = resolve_edition(edition)
    options = _opt(meta, "options", list, "game", [])
    if not all(isinstance(o, str) for o in options):
        _fail("game.options holds something other than text")
    bad = sorted(set(options) - set(ed.rules.options))
    if bad:
        _fail(f"game.options names {bad[0]!r}, not an option of {edition}")
    seats = _opt(meta, "seats", dict, "game", {})
    for power, who in seats.items():
        if power not in ed.powers:
            _fail(f"game.seats names {power!r}, not a power of {edition}")
        if not isinstance(who, str):
            _fail(f"game.seats.{power} is {_type(who)}, not text")
    dice = _opt(meta, "dice", dict, "game", {})
    kind = _opt(dice, "kind", str, "game.dice", "fair")
    if kind not in ("fair", "scripted"):
        _fail(f"game.dice.kind is {kind[:20]!r}, not 'fair' or 'scripted'")
    faces: tuple[int, ...] = ()
    if kind == "scripted":
        raw_faces = _get(dice, "faces", list, "game.dice")
        if len(raw_faces) > MAX_FACES or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in raw_faces
        ):
            _fail(f"game.dice.faces must be at most {MAX_FACES:,} whole numbers from 1 to 6")
        faces = tuple(raw_faces)
    position = _opt(meta, "position", dict, "game", None)
    raw_events = _get(data, "events", list, "the document")
    if len(raw_events) > MAX_EVENTS:
        _fail(f"{len(raw_events):,} events; the most an import takes is {MAX_EVENTS:,}")
    events = tuple(_event(e, n, edition) for n, e in enumerate(raw_events, start=1))
    raw_orders = _opt(data, "orders", list, "the document", None)
    if raw_orders is None:
        orders: tuple[tuple[str, str, str, int, int], ...] = (
            (str(_opt(meta, "owner", str, "game", "")), "", "imported", len(events), 0),
        )
    else:
        if len(raw_orders) > MAX_ORDERS:
            _fail(f"{len(raw_orders):,} orders; the most an import takes is {MAX_ORDERS:,}")
        orders = tuple(_order(o, n) for n, o in enumerate(raw_orders, start=1))
    covered = sum(o[3] for o in orders)
    if covered != len(events):
        _fail(f"its orders cover {covered:,} events, but it holds {len(events):,}")
    state = data.get("state")
    if state is not None and not isinstance(state, dict):
        _fail(f"state is {_type(state)}, not an object")
    return Parsed(
        version=int(version),
        origin=origin,
        edition=ed.id,
        options=tuple(sorted(set(options))),
        channel=_get(meta, "channel", str, "game"),
        owner=_get(meta, "owner", str, "game"),
        guild=_opt(meta, "guild", str, "game", ""),
        seats=dict(seats),
        dice_kind=kind,
        faces=faces,
        position=position,
        orders=orders,
        raw_events=tuple(raw_events),
        events=events,
        state=state,
    )


def _event(raw: Any, n: int, edition: str) -> ev.Event:
    where = f"event #{n}"
    if not isinstance(raw, dict):
        _fail(f"{where} is {_type(raw)}, not an object")
    kind = _get(raw, "type", str, where)
    body = {k: v for k, v in raw.items() if k not in ("seq", "hash")}
    try:
        event = ev.event_from_json(body)
    except Exception as e:  # pydantic's ValidationError, or anything a crafted body causes
        _fail(f"{where} ({kind[:40]}) is not an event this referee knows: {_first_error(e)}")
    if isinstance(event, ev.GameStarted) and event.edition != edition:
        _fail(f"{where} starts a game of {event.edition[:40]!r}, but the export is of {edition}")
    if n == 1 and not isinstance(event, ev.GameStarted):
        _fail(f"event #1 is {kind[:40]}, not GameStarted")
    return event


def _first_error(e: Exception) -> str:
    errors = getattr(e, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            loc = ".".join(str(p) for p in first.get("loc", ()))
            said = str(first.get("msg", ""))
            return (f"{loc}: {said}" if loc else said)[:200]
        except Exception:
            pass
    return f"{type(e).__name__}: {e}"[:200]


def _order(raw: Any, n: int) -> tuple[str, str, str, int, int]:
    where = f"order #{n}"
    if not isinstance(raw, dict):
        _fail(f"{where} is {_type(raw)}, not an object")
    count = _get(raw, "count", int, where)
    used = _opt(raw, "dice_used", int, where, 0)
    if count < 0 or used < 0:
        _fail(f"{where} has a negative count")
    return (_get(raw, "person", str, where), _get(raw, "power", str, where),
            _get(raw, "text", str, where), count, used)


# --------------------------------------------------------------------------------------------
# Trusting it: the chain, the replay, the dice, the published heads


def _agrees(doc: dict[str, Any], state: GameState) -> bool:
    """The export's final state is the state its events replay to. It is the state's full
    document (``rules.codec``); one written for another shape of the state says less, and what
    it says must hold. An export written before that (version 1, or 2 until the codec) holds
    the document of 'state' (``rules.position.state_json``): the keys it has must hold."""
    if "format" in doc:
        return not codec.differences(doc, state)
    now = state_json(state)
    return {k: now.get(k) for k in doc} == doc


@dataclass(frozen=True)
class Verdict:
    """How an export compares with the heads the referee published for its game."""

    verified: bool
    line: str  # "matches the head published at log #N" / why not


async def published_heads(svc: ServiceCore, game_id: str) -> list[tuple[int, str]]:
    """(log length, head hash) pairs the referee published for ``game_id`` (the heads posted
    with phase summaries and the status, ``EventStore.published_heads``), oldest first."""
    try:
        return sorted(await svc.store.published_heads(game_id))
    except StoreError:  # no game of that id here
        return []


def compare_heads(parsed: Parsed, heads: Sequence[tuple[int, str]]) -> Verdict:
    """Whether the export's chain goes through a head the referee published for its game."""
    if parsed.version == 1:
        return Verdict(False, "it is a version 1 export, without a hash chain")
    hashes = [str(e.get("hash")) for e in parsed.raw_events]
    n = len(hashes)
    for seq, digest in reversed(heads):
        if 0 < seq <= n and hashes[seq - 1] != digest:
            return Verdict(False, f"its log differs from the head published here at log #{seq} "
                                  f"for game {parsed.origin}")
    covered = [seq for seq, _ in heads if 0 < seq <= n]
    if covered:
        top = max(covered)
        tail = "" if top == n else f" ({n - top} later events are not covered by a published head)"
        return Verdict(True, f"matches the head published at log #{top}{tail}")
    if heads:
        return Verdict(False, f"it is shorter than every head published for game {parsed.origin}")
    return Verdict(False, f"no head of game {parsed.origin} was published here")


def dice_refusal(events: Sequence[ev.Event]) -> str | None:
    """Why the log's dice do not verify (naming the round and the die), or None."""
    try:
        dice_log = da.read_log(events)
        report = da.verify(dice_log)
    except Exception as e:  # a crafted log the audit cannot even read
        return f"the dice cannot be read ({type(e).__name__})."
    if report.ok or report.scripted:
        return None
    if not dice_log.chains:
        if not dice_log.rolls:
            return None  # no dice and no commitment: nothing to check
        first = dice_log.rolls[0]
        return f"event #{first.seq} {first.where()} was rolled under no commitment."
    good = {r.line for r in report.rounds if r.ok}
    failed = [line for line in report.lines
              if line not in good and "gives every commitment" not in line]
    return " ".join(failed[:3])


# --------------------------------------------------------------------------------------------
# Import


async def import_game(
    svc: ServiceCore,
    data: Any,
    channel: str | None = None,
    owner: str | None = None,
    *,
    unverified: bool = False,
) -> Result:
    """Check an export whole, then write the game in one transaction (see the module doc)."""
    kind = "import"
    try:
        parsed = read(parse_text(data) if isinstance(data, str | bytes) else data)
    except NotAnExport as e:
        return Result.refused(msg("transfer.not_export", why=str(e)), kind=kind)
    except RecursionError:
        return Result.refused(msg("transfer.too_deep"), kind=kind)
    if parsed.version != 1:
        broken = fair.first_broken_link(parsed.origin, parsed.raw_events)
        if broken is not None:
            what = str(parsed.raw_events[broken - 1].get("type", "?"))[:40]
            return Result.refused(msg("transfer.chain_broken", number=broken, type=what),
                                  kind=kind)
    state: GameState | None = None
    if parsed.events:
        try:
            state = replay(list(parsed.events))
        except Exception as e:  # a crafted log: any failure of the fold is a refusal
            return Result.refused(msg("transfer.no_replay", why=_first_error(e)), kind=kind)
        if parsed.state is not None and not _agrees(parsed.state, state):
            return Result.refused(msg("transfer.other_state"), kind=kind)
    scripted = parsed.dice_kind == "scripted" or da.read_log(parsed.events).scripted
    if scripted and not svc.allow_scripted_dice:
        return Result.refused(fair.SCRIPTED_REFUSED, kind=kind)
    why = dice_refusal(parsed.events)
    if why is not None:
        return Result.refused(msg("transfer.dice", why=why), kind=kind)
    verdict = compare_heads(parsed, await published_heads(svc, parsed.origin))
    if not verdict.verified and not unverified:
        return Result.refused(msg("transfer.unpublished", why=verdict.line), kind=kind)
    target = channel if channel is not None else parsed.channel
    for text, what in ((target, "channel"), (owner or "", "owner")):
        problem = text_problem(text)
        if problem:
            return Result.refused(msg("transfer.bad_name", name=what, why=problem), kind=kind)
    for g in await svc.store.games_in_channel(target):
        if g.status not in ENDED:
            return Result.refused(
                msg("transfer.channel_busy", channel=target, game=g.id, status=g.status),
                kind=kind)
    master: bytes | None = None
    if scripted:
        spec = DiceSpec(kind="scripted", faces=parsed.faces)
    else:
        master = svc.draw_secret()
        spec = new_dice_spec(None, master, svc.chain_length)
    status: GameStatus = "lobby"
    if state is not None:
        status = "finished" if state.winner else "active"
        if state.ended:
            status = "cancelled" if state.ended == "cancelled" else "finished"
    commit_text = DICE_COMMIT_TEXT if verdict.verified else UNVERIFIED_TEXT.format(
        origin=parsed.origin)

    owner_id = owner if owner is not None else parsed.owner

    def orders(game_id: str) -> list[ImportedOrder]:
        out: list[ImportedOrder] = []
        seq = 0
        for person, power, text, count, used in parsed.orders:
            out.append(ImportedOrder(person, power, text, parsed.events[seq:seq + count], used))
            seq += count
        if master is not None and state is not None and not state.winner and not state.ended:
            # The rest of the game rolls under this service's own, newly committed secret.
            committed = fair.import_commitment(master, game_id, state.round, svc.chain_length)
            out.append(ImportedOrder(owner_id, "", commit_text, (committed,)))
        return out

    try:
        rec = await svc.store.import_game(
            edition=parsed.edition,
            options=parsed.options,
            channel=target,
            owner=owner_id,
            dice=spec,
            position=parsed.position,
            guild=parsed.guild,
            seats=parsed.seats,
            secrets={fair.MASTER: master} if master is not None else {},
            orders=orders,
            status=status,
        )
    except StoreError as e:
        return Result.refused(msg("transfer.store", why=str(e)), kind=kind)
    info = GameInfo.of(rec)
    n = len(parsed.events)
    head = f"the log {verdict.line}" if verdict.verified else (
        f"UNVERIFIED COPY: {verdict.line}, so nothing proves its events were not rewritten")
    lines = [f"Imported game {rec.id} from game {parsed.origin} ({n:,} events, {status}); "
             f"{head}."]
    if master is not None and status == "active":
        lines.append("Its dice verify; from now on they roll under a new commitment: "
                     f"{spec.commitment}.")
    if not verdict.verified:
        log.warning("game %s imported as an unverified copy of %s: %s", rec.id, parsed.origin,
                    verdict.line)
    data_out = {"origin": parsed.origin, "verified": verdict.verified, "events": n}
    return Result(ok=True, answer="\n".join(lines), kind=kind, game=info, data=data_out)


__all__ = [
    "DICE_COMMIT_TEXT",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "NotAnExport",
    "Parsed",
    "Verdict",
    "check_document",
    "compare_heads",
    "dice_refusal",
    "export",
    "import_game",
    "parse_text",
    "published_heads",
    "read",
]


catalogue("en", "transfer", {
    "not_export": "Not a game export: {why}.",
    "too_deep": "Not a game export: nested too deep.",
    "chain_broken": "The export's log was changed: event #{number} ({type}) does not match its "
                    "place in the hash chain. Nothing was imported.",
    "no_replay": "The exported events do not replay: {why}. Nothing was imported.",
    "other_state": "The exported events replay to a different state than the export says. "
                   "Nothing was imported.",
    "dice": "The export's dice do not verify: {why} Nothing was imported.",
    "unpublished": "The export matches no head hash the referee published: {why}. Its events "
                   "may have been rewritten and rehashed, so it is not imported as the game. "
                   "Import it as an unverified copy if you accept that (game import <file> "
                   "unverified). Nothing was imported.",
    "bad_name": lambda p: f"The {'channel name' if p['name'] == 'channel' else 'name'} "
                          f"{p['why']}. Nothing was imported.",
    "channel_busy": "Channel {channel!r} already has game {game} ({status}). Nothing was "
                    "imported.",
    "store": "{why} Nothing was imported.",
})
