"""The service's core: what every room of the service shares.

``GameService`` (``service.games``) is one facade over rooms, each a module of its own concern:
``service.lobby`` (games, seats, votes), ``service.orders`` (orders and undo),
``service.deadlines``, ``service.views`` (status, history, map, lists) and ``service.archive``
(dice verification, checks, repair, export and import). They all stand on this module: the
answers (``Result``, ``GameInfo``, ``ServiceError``), the dice made for a game, and
``ServiceCore``, which holds the store and the settings and sequences load → (decide) → append
→ answer: it loads a game once (``_load``, cached per game), and answers an accepted change in
one place (``_answer``: its words, who the game waits for now, listeners, images).

Nothing here imports a room, ``service.commands`` or ``service.games``: the rooms import this.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from db.sql_core import next_hash
from rules import dice_audit as da
from rules import events as ev
from rules.dice import CHAIN_LENGTH, Dice, ScriptedDice
from rules.engine import evolve, pending, replay
from rules.errors import RulesError
from rules.messages import Msg, catalogue, msg
from rules.state import GameState
from service import describe as ds
from service import fair
from service.store import (
    ENDED,
    CorruptGame,
    DiceSpec,
    EventStore,
    GameNotFound,
    GameRecord,
    GameStatus,
    MemoryStore,
    OrderRecord,
    StoredEvent,
    StoreError,
    head_of,
)

if TYPE_CHECKING:
    from service.images import RenderedImage

log = logging.getLogger(__name__)


# The events that end a phase (or the game): their summary carries the log's head.
PHASE_ENDS = (ev.PhaseChanged, ev.GameWon, ev.GameEnded)


class ServiceError(Exception):
    """A request the service refuses, with a message for the person who made it: ``msg`` keeps
    it as data (``rules.messages``) where the service wrote it, the text is its English."""

    def __init__(self, message: str | Msg) -> None:
        self.msg = message if isinstance(message, Msg) else None
        super().__init__(str(message))


class GameIsCorrupt(ServiceError):
    """The game's stored log fails its checks (``CorruptGame``): the message says what is wrong
    and how its owner repairs it."""


@dataclass(frozen=True)
class GameInfo:
    """What anyone may know about a game (the dice secret stays in the store)."""

    id: str
    edition: str
    options: tuple[str, ...]
    channel: str
    owner: str
    status: GameStatus
    seats: dict[str, str]
    dice: str  # "fair" or "scripted"
    from_position: bool = False
    commitment: str = ""  # fair dice: H(s_0) of the first chain, hex, published at creation
    guild: str = ""  # the server (Discord guild id) of the channel; "" at the local table

    @classmethod
    def of(cls, rec: GameRecord) -> GameInfo:
        return cls(
            id=rec.id,
            edition=rec.edition,
            options=rec.options,
            channel=rec.channel,
            owner=rec.owner,
            status=rec.status,
            seats=dict(rec.seats),
            dice=rec.dice.kind,
            from_position=rec.position is not None,
            commitment=rec.dice.commitment,
            guild=rec.guild,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "edition": self.edition,
            "options": list(self.options),
            "channel": self.channel,
            "owner": self.owner,
            "status": self.status,
            "seats": dict(self.seats),
            "dice": self.dice,
            "from_position": self.from_position,
            "guild": self.guild,
        }


@dataclass(frozen=True)
class Result:
    """The answer to one request.

    ``answer`` is the text to show (what happened, then who the game waits for); ``events`` are
    the events appended; ``state`` is the state document when asked for; ``data`` carries a
    command's payload (an export, a map request, an undone order).
    """

    ok: bool
    answer: str = ""
    error: str | None = None
    events: tuple[ev.Event, ...] = ()
    state: dict[str, Any] | None = None
    data: dict[str, Any] | None = None
    game: GameInfo | None = None
    kind: str = ""
    images: tuple[RenderedImage, ...] = ()  # PNGs: maps, battle boards (service.images)
    # After an accepted change: the game's state and the log's head (event count, hash) it led
    # to, so that a front end shows more of the game without loading it again.
    after: GameState | None = None
    head: tuple[int, str] | None = None
    # A refusal's message as data (key, parameters, rule); ``error`` is its English. None when
    # the refusal passes on another's text (a store's or a parser's error).
    message: Msg | None = None

    @classmethod
    def refused(cls, error: Msg | str, *, kind: str = "", game: GameInfo | None = None) -> Result:
        """The refusal ``error``: a message (``rules.messages``), or the text of a refusal
        passed on (``told(e)``)."""
        message = error if isinstance(error, Msg) else None
        return cls(ok=False, error=ds.tidy(str(error)), kind=kind, game=game, message=message)


def told(e: Exception) -> Msg | str:
    """A refusal passed on: a rules refusal's message when it has one, else the error's text."""
    if isinstance(e, RulesError) and e.msg is not None and e.rule is None:
        return e.msg
    return str(e)


Listener = Callable[[GameInfo, Sequence[ev.Event]], Awaitable[None]]


@runtime_checkable
class SnapshotStore(Protocol):
    """A store that loads a game's state as its latest snapshot + the tail (``db.SqlStore``)."""

    snapshot_every: int

    async def load_state(
        self, game_id: str, events: Sequence[StoredEvent] | None = None
    ) -> GameState | None: ...

    async def save_snapshot(self, game_id: str, seq: int, state: GameState) -> None: ...


@runtime_checkable
class HashedStore(Protocol):
    """A store whose snapshots are checked against the log (``db.SqlStore``)."""

    async def snapshot_problems(self, game_id: str) -> list[tuple[int, str]]: ...

    async def drop_snapshots(self, game_id: str, seqs: Sequence[int]) -> None: ...


@runtime_checkable
class RepairableStore(Protocol):
    """A store whose log can be found corrupt, and repaired by the owner (``db.SqlStore``)."""

    async def check(self, game_id: str) -> tuple[int, str] | None: ...

    async def truncate_from_bad(self, game_id: str) -> int: ...

    async def reseal(self, game_id: str) -> int: ...

    async def unchecked_events(self, game_id: str) -> list[StoredEvent]: ...


# --------------------------------------------------------------------------------------------
# Dice: built in this one place. Fair commit-reveal dice (``service.fair``, DESIGN §6) unless a
# front end that may (the local table, tests) asks for scripted ones.


def new_dice_spec(
    scripted: Sequence[int] | None = None,
    master: bytes | None = None,
    chain_length: int = CHAIN_LENGTH,
) -> DiceSpec:
    """Fair dice committed to ``master``, or the given script (``--dice``; never on Discord)."""
    if scripted is not None:
        ScriptedDice(scripted)  # validates the faces
        return DiceSpec(kind="scripted", faces=tuple(scripted))
    return fair.fair_spec(master if master is not None else fair.draw_master(), chain_length)


def make_dice(spec: DiceSpec, game_id: str, used: int) -> Dice:
    """Scripted dice, positioned after the ``used`` faces already drawn (fair dice need the
    log and the secret: ``service.fair.dice_for``)."""
    if spec.kind != "scripted":
        raise ValueError("only scripted dice are made from their spec alone")
    return ScriptedDice(spec.faces[used:])


class CountingDice:
    """Wraps a game's dice and counts the faces drawn, so the next order starts after them."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.name = inner.name
        self.used = 0

    def roll(self, n: int, purpose: str) -> list[int]:
        faces = self.inner.roll(n, purpose)
        self.used += len(faces)
        return faces


# --------------------------------------------------------------------------------------------
# A game loaded, a change folded, and the core of the service


@dataclass(frozen=True)
class Folded:
    """Events about to be appended, folded once: ``before[i]`` is the state before
    ``events[i]`` (None before a game's ``GameStarted``), ``after`` the state after them all.
    The order's own fold (``rules.engine.decide_folded``) is kept this way, so that answering,
    caching and the front end need no fold of their own (issue 15, one fold per order)."""

    events: tuple[ev.Event, ...]
    before: tuple[GameState | None, ...]
    after: GameState

    @classmethod
    def of(cls, state: GameState | None, events: Sequence[ev.Event]) -> Folded:
        """Fold ``events`` onto ``state`` (None: a new game, begun by its ``GameStarted``)."""
        before: list[GameState | None] = []
        for e in events:
            before.append(state)
            state = replay([e]) if state is None else evolve(state, e)
        if state is None:
            raise ValueError("a new game is begun by its GameStarted")
        return cls(tuple(events), tuple(before), state)

    def then(self, events: Sequence[ev.Event]) -> Folded:
        """These events followed by ``events``, folded onto ``after``."""
        more = Folded.of(self.after, events)
        return Folded((*self.events, *more.events), (*self.before, *more.before), more.after)


def head_after(read: tuple[int, str], events: Sequence[ev.Event]) -> tuple[int, str]:
    """The log's head (event count, hash) once ``events`` are appended to a log read as
    ``read``: what the store computes as it writes them (``db.sql_core.next_hash``)."""
    seq, h = read
    for e in events:
        h = next_hash(h, ev.event_to_json(e))
    return seq + len(events), h


@dataclass
class Loaded:
    """A game as read from the store: its record, its log and the state it leads to."""

    record: GameRecord
    events: list[StoredEvent]  # shared with the service's cache: never changed in place
    state: GameState | None  # None while in the lobby
    dice: da.DiceLog | None = None  # what the log says of its dice, when known (``dice_log``)
    edits: int = -1  # the store's count of changed event rows the log was checked under

    def dice_log(self) -> da.DiceLog:
        """What the log says of its dice (``rules.dice_audit.read_log``), read once."""
        if self.dice is None:
            self.dice = da.read_log([s.event for s in self.events])
        return self.dice

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def head(self) -> str:
        """The log's head hash as read: every write names it (compare-and-set)."""
        return head_of(self.record.id, self.events)


@dataclass(frozen=True)
class _Held:
    """A game's log as the service last read or wrote it, with the state it leads to and
    (when read) what it says of its dice."""

    game_id: str
    events: list[StoredEvent]  # never changed in place: ``then`` makes a new list
    state: GameState
    dice: da.DiceLog | None = None
    edits: int = -1  # the store's count of changed event rows when the log was checked whole
    # The scripted dice faces its orders used (None: not counted): the next order's dice
    # start after them without reading every order (``OrdersRoom.submit_order``).
    scripted_used: int | None = None
    # The record as read or written with this log: its edition (fixed for life) tells how a
    # line is read before the game is loaded (``GameService.submit``).
    record: GameRecord | None = None

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def head(self) -> str:
        return head_of(self.game_id, self.events)

    def then(self, tail: Sequence[StoredEvent]) -> _Held:
        """This log followed by ``tail`` (read from the store, checked), folded on."""
        state = self.state
        for s in tail:
            state = evolve(state, s.event)
        dice = None
        if self.dice is not None:
            dice = da.read_log([s.event for s in tail], after=self.dice, first=self.seq + 1)
        return _Held(self.game_id, [*self.events, *tail], state, dice, self.edits)


@runtime_checkable
class HeadStore(Protocol):
    """A store that reads a log's head (event count, hash) alone (``db.SqlStore``)."""

    async def head(self, game_id: str) -> tuple[int, str]: ...


@runtime_checkable
class TailStore(Protocol):
    """A store that reads only what follows a head the reader holds (``db.SqlStore``)."""

    async def log_edits(self, game_id: str) -> int: ...

    async def load_after(
        self, game_id: str, seq: int, hash: str, edits: int
    ) -> tuple[GameRecord, list[StoredEvent]] | None: ...


@runtime_checkable
class HeldStore(TailStore, Protocol):
    """A ``TailStore`` whose append also checks the count of edited event rows (``log_edits``)
    the writer read its log under: the head and that count are then checked in the one
    statement that locks the game's row (``db.SqlStore``)."""

    async def append(
        self,
        game_id: str,
        expected_seq: int,
        events: Sequence[ev.Event],
        *,
        person: str,
        power: str,
        text: str,
        dice_used: int = 0,
        head: str | None = None,
        status: GameStatus | None = None,
        publish: bool = False,
        edits: int | None = None,
    ) -> OrderRecord: ...


# Games a service holds in memory at most (the least recently used is let go; it is read again
# from the store, from its latest snapshot, when next used): the setting ``HELD_GAMES``.
HELD_GAMES = 2000


@dataclass
class ServiceCore:
    """Games over an ``EventStore``: the store, the settings, loading and answering. Every
    method is ``async`` so a database store fits; the rooms add the requests."""

    store: EventStore = field(default_factory=MemoryStore)
    scripted_dice: Sequence[int] | None = None  # games created by ``handle`` use these dice
    listeners: list[Listener] = field(default_factory=list)
    # Scripted dice are refused unless the front end allows them: the local table and tests do,
    # the Discord bot never does (DESIGN §6, COMMANDS.md ``--dice``).
    allow_scripted_dice: bool = False
    # The render hook (service.images): maps after phase changes, battle boards, 'game map'
    # images. Off by default so that tests stay fast; the front ends turn it on.
    images: bool = False
    chain_length: int = CHAIN_LENGTH  # rounds per dice chain (tests shorten it)
    draw_secret: Callable[[], bytes] = fair.draw_master  # tests inject a fixed secret
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    process_id: str = "umpire"  # who claims reminders and deadline actions (cogs.reminders)
    # A deadline action claimed this long ago, with nothing written since and not done, is
    # taken over: its process died in between (store clock, not ``clock``).
    claim_stale: timedelta = timedelta(minutes=10)
    # Per game, the log as last read or written and the state it leads to (``_Held``): valid
    # only while the store's log still continues it (``TailStore.load_after``).
    # At most ``held_games`` of them, the least recently used let go first.
    _cache: OrderedDict[str, _Held] = field(default_factory=OrderedDict, init=False, repr=False)
    held_games: int = HELD_GAMES
    # Each game's dice master, read once: a game keeps its secret for life (DESIGN §6).
    _masters: dict[str, bytes] = field(default_factory=dict, init=False, repr=False)

    def _holding(self, game_id: str) -> _Held | None:
        """The game as held, if it is (now the most recently used)."""
        held = self._cache.get(game_id)
        if held is not None:
            self._cache.move_to_end(game_id)
        return held

    def _held_record(self, game_id: str) -> GameRecord | None:
        """The game's record as last read or written, if the game is held."""
        held = self._cache.get(game_id)
        return None if held is None else held.record

    def _scripted_used(self, game_id: str, loaded: Loaded) -> int | None:
        """The scripted dice faces used by the log as ``loaded``, if the game held counted
        them for that very log (None: count them from the orders)."""
        held = self._cache.get(game_id)
        if held is None or held.scripted_used is None or held.events is not loaded.events:
            return None
        return held.scripted_used

    def _hold(self, held: _Held) -> None:
        """Hold this game, letting go of the least recently used beyond ``held_games``."""
        self._cache[held.game_id] = held
        self._cache.move_to_end(held.game_id)
        while len(self._cache) > max(1, self.held_games):
            gone, _ = self._cache.popitem(last=False)
            self._masters.pop(gone, None)

    # --- loading ----------------------------------------------------------------------------------
    async def _load(self, game_id: str, *, verify: bool = False) -> Loaded:
        """The game: its record, log and state. Over a ``TailStore`` a game held in memory is
        brought up to date by reading only what follows the held head (nothing, unless another
        process wrote), its chain checked from there; the whole log is read and checked when
        nothing is held, when the log does not continue the one held (an undo, a repair, a
        rewrite), or when ``verify`` asks for it (what a person reads as the truth: status,
        dice, export)."""
        held = self._holding(game_id)
        if held is not None and not verify and isinstance(self.store, TailStore):
            got = await self.store.load_after(game_id, held.seq, held.head, held.edits)
            if got is not None:
                rec, tail = got
                held = replace(held.then(tail) if tail else held, record=rec)
                self._hold(held)
                return Loaded(rec, held.events, held.state, dice=held.dice, edits=held.edits)
        # Read before the log: a change made after this read is seen at the next load.
        edits = await self.store.log_edits(game_id) if isinstance(self.store, TailStore) else -1
        rec = await self.store.get_game(game_id)
        try:
            events = await self.store.load_events(game_id)
        except CorruptGame as e:
            self._cache.pop(game_id, None)
            raise e.with_owner(rec.owner) from None
        if not events:
            self._cache.pop(game_id, None)
            return Loaded(rec, events, None)
        # The state held is valid while the log ends the same way (same length, same hash).
        state: GameState | None
        if held is not None and (held.seq, held.head) == (len(events), head_of(game_id, events)):
            state, dice = held.state, held.dice
        elif isinstance(self.store, SnapshotStore):
            state = await self.store.load_state(game_id, events)  # latest snapshot + tail
            dice = None
        else:
            state, dice = replay([s.event for s in events]), None
        assert state is not None
        self._hold(_Held(game_id, events, state, dice, edits, record=rec))
        return Loaded(rec, events, state, dice=dice, edits=edits)

    async def _master(self, game_id: str) -> bytes:
        """The game's dice master (``StoreError`` if it keeps none), read once."""
        master = self._masters.get(game_id)
        if master is None:
            master = self._masters[game_id] = await self.store.get_secret(game_id, fair.MASTER)
        return master

    async def _snapshot_due(self, game_id: str, before: int, after: int, state: GameState) -> None:
        """Keep a snapshot of a held game each ``snapshot_every`` events, as loading the whole
        log does (``load_state``): a restart, an undo or a repair then folds at most that many
        events again. Checked like every snapshot: ignored unless the chain still holds it."""
        if not isinstance(self.store, SnapshotStore):
            return
        every = self.store.snapshot_every
        if every > 0 and before // every != after // every:
            try:
                await self.store.save_snapshot(game_id, after, state)
            except StoreError:  # the order is stored; a snapshot is only a shortcut
                log.exception("saving a snapshot of game %s failed", game_id)

    def _remember(
        self, game_id: str, loaded: Loaded, placed: OrderRecord, folded: Folded,
        dice: da.DiceLog | None = None, *, scripted_used: int | None = None,
        status: GameStatus | None = None,
    ) -> None:
        """Hold the log and state after an accepted order (appended to ``loaded``), so the next
        load reads nothing but the store's head. ``dice``: what the log said of its dice before
        the order, if read; ``scripted_used``: the scripted faces used by the log after the
        order, if counted; ``status``: the game's status the order set, if it did."""
        if loaded.state is None and not isinstance(folded.events[0], ev.GameStarted):
            return
        h = loaded.head
        added = []
        for i, e in enumerate(folded.events):
            h = next_hash(h, ev.event_to_json(e))
            added.append(StoredEvent(seq=loaded.seq + i, order=placed.index, event=e, hash=h))
        after = None
        if dice is not None:
            after = da.read_log(folded.events, after=dice, first=loaded.seq + 1)
        record = replace(loaded.record, status=status or loaded.record.status)
        self._hold(_Held(game_id, [*loaded.events, *added], folded.after, after, loaded.edits,
                         scripted_used, record))

    async def _load_playing(self, game_id: str, kind: str) -> tuple[Loaded, GameState] | Result:
        """The loaded game and its state if it is being played, else the refusal."""
        try:
            loaded = await self._load(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        refusal = not_playing(loaded)
        if refusal is not None or loaded.state is None:
            return Result.refused(refusal or "", kind=kind, game=GameInfo.of(loaded.record))
        return loaded, loaded.state

    async def info(self, game_id: str) -> GameInfo:
        """The game's public record; ``ServiceError`` if there is no such game."""
        try:
            return GameInfo.of(await self.store.get_game(game_id))
        except (GameNotFound, CorruptGame) as e:
            raise ServiceError(str(e)) from None

    async def state(self, game_id: str, *, verify: bool = False) -> GameState:
        """The current state (``ServiceError`` before the game starts, ``GameIsCorrupt`` when
        its log fails its checks; ``verify``: the whole log read and checked, ``_load``)."""
        try:
            loaded = await self._load(game_id, verify=verify)
        except CorruptGame as e:
            raise GameIsCorrupt(str(e)) from None
        if loaded.state is None:
            raise ServiceError(msg("core.no_state_yet"))
        return loaded.state

    async def game_in(self, channel: str) -> GameInfo | None:
        """The channel's current game: the newest one that is not finished, else the newest."""
        games = await self.store.games_in_channel(channel)
        if not games:
            return None
        live = [g for g in games if g.status not in ENDED]
        return GameInfo.of((live or games)[-1])

    # --- who may: the owner -----------------------------------------------------------------------
    async def _as_admin(
        self, game_id: str, person: str, admin: bool, kind: str, may: Msg
    ) -> tuple[GameRecord, GameInfo] | Result:
        """The game's record if ``person`` owns it (or a front end vouches it is an admin);
        else the refusal ``may``, saying who may, given the owner (parameter ``owner``)."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        info = GameInfo.of(rec)
        if person != rec.owner and not admin:
            return Result.refused(replace(may, params={**may.params, "owner": rec.owner}),
                                  kind=kind, game=info)
        return rec, info

    # --- the log's head ---------------------------------------------------------------------------
    async def publish_head(
        self,
        game_id: str,
        events: Sequence[StoredEvent] | None = None,
        *,
        head: tuple[int, str] | None = None,
    ) -> tuple[int, str]:
        """The log's head (event count, chain hash), recorded in the store as shown to the
        players (``EventStore.publish_head``). ``events``: the log just loaded, if any;
        ``head``: the head an answer carried (``Result.head``), if known: nothing is loaded."""
        if head is not None:
            seq, h = head
        else:
            if events is None:
                events = await self.store.load_events(game_id)
            seq, h = len(events), head_of(game_id, events)
        await self.store.publish_head(game_id, seq, h)
        return seq, h

    async def still_at(self, game_id: str, head: tuple[int, str]) -> bool:
        """Whether the game's log still holds as many events as ``head`` (an answer's
        ``Result.head``) says: nothing was appended or undone since. Read from the store's head
        (or the orders' event counts), without loading the log."""
        if isinstance(self.store, HeadStore):
            return (await self.store.head(game_id))[0] == head[0]
        orders = await self.store.orders(game_id)
        return (orders[-1].end_seq if orders else 0) == head[0]

    # --- answers ----------------------------------------------------------------------------------
    async def _answer(
        self, game_id: str, folded: Folded, *, kind: str, loaded: Loaded | None,
        status: GameStatus | None = None, published: bool = False,
    ) -> Result:
        """The answer to a change just appended to the log as ``loaded`` (None: to an empty log),
        which set the game's status to ``status`` if given (and recorded its head as published,
        if ``published``): what happened, whom the game waits for, the log's head at a phase's
        end; listeners and images. Nothing is loaded or folded
        again: ``folded`` has the states, ``loaded`` the record (read in the same moment as the
        head the write was checked against, so its seats are the ones the order was given
        under)."""
        events = folded.events
        lines = ds.describe_folded(folded.before, events)
        after = folded.after
        head = head_after((loaded.seq, loaded.head) if loaded else (0, game_id), events)
        if loaded is not None:
            rec = replace(loaded.record, status=status or loaded.record.status)
        else:
            rec = await self.store.get_game(game_id)
        lines.append(ds.waiting_line(after, pending(after), rec.seats))
        if published:
            lines.append(head_line(*head))
        elif publishes(events):
            # Every phase summary carries the log's head, so that the players hold what a cut
            # or rewritten log would no longer reach (checked at every load).
            try:
                lines.append(head_line(*await self.publish_head(game_id, head=head)))
            except StoreError:  # the order is stored; the next load reports the damage
                log.exception("publishing the head of game %s failed", game_id)
        info = GameInfo.of(rec)
        for listener in self.listeners:
            try:
                await listener(info, events)
            except Exception:  # a failing notifier must not undo an accepted order
                log.exception("listener failed for game %s", game_id)
        logged = [s.event for s in loaded.events] if loaded and self.images else []
        pictures = await self._images_after(game_id, [*logged, *events], len(events), after)
        return Result(ok=True, answer="\n".join(lines), events=tuple(events), kind=kind, game=info,
                      images=pictures, after=after, head=head)

    async def _images_after(
        self, game_id: str, log_events: Sequence[ev.Event], new: int, after: GameState
    ) -> tuple[RenderedImage, ...]:
        """The render hook: battle boards and the map when the last ``new`` events of the
        game's log (``log_events``) call for them."""
        if not self.images:
            return ()
        from service import images as im

        if not im.wants_images(log_events[len(log_events) - new:]):
            return ()
        try:
            # Pillow is CPU-bound: off the event loop (DESIGN §8).
            drawn = await asyncio.to_thread(im.images_after, log_events, new, game_id, after)
        except Exception:  # a picture that cannot be drawn must not undo an accepted order
            log.exception("rendering failed for game %s", game_id)
            return ()
        return tuple(drawn)


# --------------------------------------------------------------------------------------------
# Helpers the rooms share


def publishes(events: Sequence[ev.Event]) -> bool:
    """Whether the answer to these events shows the log's head: they end a phase (or the game).
    The write that appends them records the head as published at once (``append(publish=)``)."""
    return any(isinstance(e, PHASE_ENDS) for e in events)


def head_line(seq: int, h: str) -> str:
    """The log's head as posted to the players: ``Log #412 · 3f9a1c2e``."""
    return f"Log #{seq} · {h[:8]}"


def not_playing(loaded: Loaded) -> Msg | None:
    """Why no order can be given in this game now, or None while it is being played."""
    if loaded.record.status in ENDED and loaded.state is None:
        return msg("core.cancelled_before_start")
    if loaded.record.status == "lobby" or loaded.state is None:
        return msg("core.not_started")
    if loaded.state.ended == "draw":
        return msg("core.draw")
    if loaded.record.status == "cancelled" or loaded.state.ended:
        return msg("core.cancelled")
    if loaded.record.status == "finished" or loaded.state.winner:
        return msg("core.won", winner=loaded.state.winner)
    return None


def resolve_power(powers: Mapping[str, Any], name: str) -> str:
    """The power ``name`` means (its name or an alias, any case); ``ServiceError`` if none."""
    key = name.strip().casefold()
    for p, info in powers.items():
        aliases = getattr(info, "aliases", ())
        if key == p.casefold() or key in (a.casefold() for a in aliases):
            return p
    raise ServiceError(msg("core.unknown_power", name=name, powers=list(powers)))


def open_seats_line(order: Sequence[str], seats: Mapping[str, str]) -> str:
    open_ = [p for p in order if p not in seats]
    if not open_:
        return "Every power is seated; the owner can 'game start'."
    return f"Open seats: {', '.join(open_)}."


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def n_of(n: int, word: str) -> str:
    """``1 event``, ``2 events`` (a plain ``s``, as the answers have always said)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


__all__ = [
    "HELD_GAMES",
    "NOT_SEATED",
    "CountingDice",
    "Folded",
    "GameInfo",
    "GameIsCorrupt",
    "HashedStore",
    "HeadStore",
    "HeldStore",
    "Listener",
    "Loaded",
    "RepairableStore",
    "Result",
    "ServiceCore",
    "ServiceError",
    "SnapshotStore",
    "TailStore",
    "and_list",
    "head_after",
    "head_line",
    "make_dice",
    "n_of",
    "new_dice_spec",
    "not_playing",
    "open_seats_line",
    "publishes",
    "resolve_power",
    "told",
]


catalogue("en", "core", {
    "no_state_yet": "The game has not started yet: no state until 'game start'.",
    "unknown_power": "Unknown power {name!r}. Powers: {powers:join}.",
    "cancelled_before_start": "The game was cancelled before the start; start a new one with "
                              "'game new'.",
    "not_started": "The game has not started yet; its owner starts it with 'game start'.",
    "draw": "The game is over: it ended in a draw. No more orders.",
    "cancelled": "The game was cancelled. No more orders; the channel can start a new game.",
    "won": lambda p: f"The game is over: the {p['winner'] or 'game'} won. No more orders.",
    "not_seated": "You hold no seat in this game; join with 'game join <power>' before the game "
                  "starts.",
})

# For refusals raised as a ServiceError (and the tests' comparisons).
NOT_SEATED = msg("core.not_seated").text()
