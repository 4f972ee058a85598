"""The game service: the one place that sequences load → decide → append (→ render → notify).

Front ends (Discord cogs, the local table, later e-mail) translate what a person typed or clicked
into calls here and show the ``Result``. Nothing here knows about Discord or terminals, and no
rule is decided here: the service picks *which power* acts for a person (from the seats) and
lets ``rules.engine.decide`` say whether the order is legal. Nothing changes on any error.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rules import dice_audit as da
from rules import events as ev
from rules import orders as od
from rules.defaults import default_orders, phase_end_order
from rules.dice import CHAIN_LENGTH, Dice, OutOfDice, ScriptedDice
from rules.edition import default_edition
from rules.engine import (
    Pending,
    concession,
    decide,
    evolve,
    game_ended,
    new_game,
    pending,
    phase_name,
    replay,
    resolve_edition,
    state_json,
)
from rules.errors import InvalidOrder, NotYourTurn, RulesError
from rules.state import GameState
from rules.words import possessive
from service import describe as ds
from service import fair
from service.guard import checks_text
from service.store import (
    DEADLINE_ACTIONS,
    ENDED,
    ChannelTaken,
    CorruptGame,
    DeadlineAction,
    DeadlineRecord,
    DiceSpec,
    EventStore,
    GameNotFound,
    GameRecord,
    GameStatus,
    MemoryStore,
    OrderRecord,
    OtherSide,
    SeatTaken,
    StateMovedOn,
    StoredEvent,
    StoreError,
    head_of,
    undo_moved,
)

if TYPE_CHECKING:
    from service.images import RenderedImage

log = logging.getLogger(__name__)

# Seat changes by the owner or an admin (substitute, kick) are allowed whatever the status.
_ANY_STATUS: tuple[GameStatus, ...] = ("lobby", "active", "finished", "cancelled")

NOT_SEATED = "You hold no seat in this game; join with 'game join <power>' before the game starts."
EXPORT_FORMAT = "umpire-game"
EXPORT_VERSION = 2  # 2: events carry "seq" and "hash" (the log's hash chain); 1 is still read
START_TEXT = "game start"
MAX_DEADLINE_REPEATS = 60  # one deadline pass acts at most this often (a whole absent turn)
DICE_COMMIT_TEXT = "dice committed (imported game)"

# Orders a defender (or any side owing a battle decision) gives outside its own turn.
_DECISIONS = (od.Casualties, od.Submerge, od.Strike, od.Withdraw)


class ServiceError(Exception):
    """A request the service refuses, with a message for the person who made it."""


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

    @classmethod
    def refused(cls, error: str, *, kind: str = "", game: GameInfo | None = None) -> Result:
        return cls(ok=False, error=ds.tidy(error), kind=kind, game=game)


Listener = Callable[[GameInfo, Sequence[ev.Event]], Awaitable[None]]


@runtime_checkable
class SnapshotStore(Protocol):
    """A store that loads a game's state as its latest snapshot + the tail (``db.SqlStore``)."""

    async def load_state(
        self, game_id: str, events: Sequence[StoredEvent] | None = None
    ) -> GameState | None: ...


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


def start_events(rec: GameRecord) -> list[ev.Event]:
    """The events 'game start' writes for this lobby: the game, then its dice commitment
    (the entropy phrases are frozen here), then the first turn."""
    events = new_game(rec.edition, rec.options, rec.position)
    first_round = replay(events[:1]).round
    dice_events = fair.start_events(rec.dice, rec.id, first_round, rec.entropy)
    return [events[0], *dice_events, *events[1:]]


# --------------------------------------------------------------------------------------------


@dataclass
class _Loaded:
    record: GameRecord
    events: list[StoredEvent]
    state: GameState | None  # None while in the lobby

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def head(self) -> str:
        """The log's head hash as read: every write names it (compare-and-set)."""
        return head_of(self.record.id, self.events)


@checks_text  # every text argument is checked before a method runs (service.guard)
@dataclass
class GameService:
    """Games over an ``EventStore``. Every method is ``async`` so a database store fits."""

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
    _cache: dict[str, tuple[tuple[int, int, ev.Event], GameState]] = field(
        default_factory=dict, init=False, repr=False
    )

    # --- loading ------------------------------------------------------------------------------
    async def _load(self, game_id: str) -> _Loaded:
        rec = await self.store.get_game(game_id)
        try:
            events = await self.store.load_events(game_id)
        except CorruptGame as e:
            raise e.with_owner(rec.owner) from None
        if not events:
            return _Loaded(rec, events, None)
        # The replayed state is kept per game; it is valid while the log ends the same way
        # (same length, same last order, same last event), which an undo followed by another
        # order of the same length still changes.
        key = (len(events), events[-1].order, events[-1].event)
        hit = self._cache.get(game_id)
        if hit is not None and hit[0] == key:
            return _Loaded(rec, events, hit[1])
        if isinstance(self.store, SnapshotStore):
            state = await self.store.load_state(game_id, events)  # latest snapshot + tail
            assert state is not None
        else:
            state = replay([s.event for s in events])
        self._cache[game_id] = (key, state)
        return _Loaded(rec, events, state)

    def _remember(
        self, game_id: str, placed: OrderRecord, before: GameState, events: Sequence[ev.Event]
    ) -> None:
        """Cache the state after an accepted order, so the next load need not replay it."""
        after = before
        for e in events:
            after = evolve(after, e)
        self._cache[game_id] = ((placed.end_seq, placed.index, events[-1]), after)

    async def _load_playing(self, game_id: str, kind: str) -> tuple[_Loaded, GameState] | Result:
        """The loaded game and its state if it is being played, else the refusal."""
        try:
            loaded = await self._load(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        refusal = _not_playing(loaded)
        if refusal or loaded.state is None:
            return Result.refused(refusal or "", kind=kind, game=GameInfo.of(loaded.record))
        return loaded, loaded.state

    async def info(self, game_id: str) -> GameInfo:
        """The game's public record; ``ServiceError`` if there is no such game."""
        try:
            return GameInfo.of(await self.store.get_game(game_id))
        except (GameNotFound, CorruptGame) as e:
            raise ServiceError(str(e)) from None

    async def state(self, game_id: str) -> GameState:
        """The current state (``ServiceError`` before the game starts, ``GameIsCorrupt`` when
        its log fails its checks)."""
        try:
            loaded = await self._load(game_id)
        except CorruptGame as e:
            raise GameIsCorrupt(str(e)) from None
        if loaded.state is None:
            raise ServiceError("The game has not started yet: no state until 'game start'.")
        return loaded.state

    async def game_in(self, channel: str) -> GameInfo | None:
        """The channel's current game: the newest one that is not finished, else the newest."""
        games = await self.store.games_in_channel(channel)
        if not games:
            return None
        live = [g for g in games if g.status not in ENDED]
        return GameInfo.of((live or games)[-1])

    # --- lobby ------------------------------------------------------------------------------
    async def create(
        self,
        channel: str,
        owner: str,
        edition: str | None = None,
        options: Sequence[str] = (),
        *,
        dice: Sequence[int] | None = None,
        position: dict[str, Any] | None = None,
        guild: str = "",
    ) -> GameInfo:
        """Create a game in the lobby, bound to ``channel``. Raises ``ServiceError``.

        ``edition`` is an edition id or alias; ``None`` is the default edition (its data says so).
        ``guild`` is the server the channel belongs to (``/game list`` lists a server's games).
        """
        for g in await self.store.games_in_channel(channel):
            if g.status not in ENDED:
                raise ServiceError(
                    f"This channel already has game {g.id} ({g.status}); finish it before "
                    "starting another, or use another channel or thread."
                )
        script = dice if dice is not None else self.scripted_dice
        if script is not None and not self.allow_scripted_dice:
            raise ServiceError(fair.SCRIPTED_REFUSED)
        master = self.draw_secret() if script is None else None
        try:
            ed = resolve_edition(edition if edition is not None else default_edition())
            opts = tuple(sorted(set(options)))
            new_game(ed.id, opts, position)  # checks options and position; events made at start
            spec = new_dice_spec(script, master, self.chain_length)
        except RulesError as e:
            raise ServiceError(str(e)) from None
        except ValueError as e:
            raise ServiceError(f"Bad dice: {e}") from None
        except Exception as e:  # the engine choked on a malformed position: refuse it
            log.debug("new_game failed for a position in channel %s", channel, exc_info=True)
            why = f"{type(e).__name__}: {e}"
            raise ServiceError(f"Cannot start from this position ({why}).") from None
        try:
            rec = await self.store.create_game(
                edition=ed.id,
                options=opts,
                channel=channel,
                owner=owner,
                dice=spec,
                position=position,
                guild=guild,
                # Committed now, before anyone joins with an entropy phrase (DESIGN §6), in
                # the same write as the game: never a game whose dice cannot roll.
                secrets={fair.MASTER: master} if master is not None else None,
            )
        except ChannelTaken as e:  # another 'game new' in this channel came first
            raise ServiceError(str(e)) from None
        return GameInfo.of(rec)

    async def join(self, game_id: str, person: str, power: str, entropy: str = "") -> Result:
        """Take a seat before the start. One person: any number of powers, of one side (P-1)."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="join")
        info = GameInfo.of(rec)
        if rec.status in ENDED:
            return Result.refused(_OVER, kind="join", game=info)
        if rec.status != "lobby":
            return Result.refused(
                "The game has started; seats are taken before 'game start' "
                "(an admin can 'substitute' a player).",
                kind="join",
                game=info,
            )
        ed = resolve_edition(rec.edition)
        try:
            name = _resolve_power(ed.powers, power)
        except ServiceError as e:
            return Result.refused(str(e), kind="join", game=info)
        side = ed.side_of(name)
        try:
            # Seat, sides (P-1) and status are checked again inside the write, under the
            # game's lock: of racing joins of one seat exactly one is acknowledged.
            rec = await self.store.take_seat(
                game_id, name, person, entropy=entropy,
                conflicts=[p for p in ed.turn_order if ed.side_of(p) != side])
        except SeatTaken as e:
            if e.holder == person:
                return Result(ok=True, answer=f"You already hold {name}.", kind="join",
                              game=info)
            return Result.refused(f"{name} is taken by {e.holder}.", kind="join", game=info)
        except OtherSide as e:
            return Result.refused(
                f"You hold {_and(e.held)} ({ed.side_of(e.held[0])}); {name} is on the {side} "
                "side. One person plays powers of one side only (P-1).",
                kind="join",
                game=info,
            )
        except StateMovedOn:  # started or cancelled meanwhile: answer as for that status
            return await self.join(game_id, person, power, entropy)
        lines = [f"{person} joins as {name} ({side})."]
        lines.append(_open_seats_line(ed.turn_order, rec.seats))
        return Result(ok=True, answer="\n".join(lines), kind="join", game=GameInfo.of(rec))

    async def start(self, game_id: str, person: str) -> Result:
        """Start the game (owner only) once every power is seated.

        The start's events and the status ``active`` are written together
        (``EventStore.start_game``). A game left in the lobby with its start already in the
        log (a start cut short by a crash, before the two were one write) is completed.
        """
        try:
            rec = await self.store.get_game(game_id)
            logged = await self.store.load_events(game_id) if rec.status == "lobby" else []
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="start")
        info = GameInfo.of(rec)
        if logged:
            return await self._finish_start(rec, person, logged)
        if rec.status in ENDED:
            return Result.refused(_OVER, kind="start", game=info)
        if rec.status != "lobby":
            return Result.refused("The game has already started.", kind="start", game=info)
        if person != rec.owner:
            return Result.refused(
                f"Only the game's owner ({rec.owner}) can start it.", kind="start", game=info
            )
        ed = resolve_edition(rec.edition)
        missing = [p for p in ed.turn_order if p not in rec.seats]
        if missing:
            return Result.refused(
                f"Cannot start: no one holds {_and(missing)} yet. Every power needs a player; "
                "one person may hold all the powers of a side ('game join <power>').",
                kind="start",
                game=info,
            )
        try:
            events = start_events(rec)
            await self.store.start_game(game_id, events, person=person, text=START_TEXT,
                                        seats=rec.seats, entropy=rec.entropy)
        except RulesError as e:
            return Result.refused(str(e), kind="start", game=info)
        except StateMovedOn as e:
            now = await self.store.get_game(game_id)
            if now.status != "lobby":  # a second click, or another process, started it
                return await self.start(game_id, person)
            return Result.refused(str(e), kind="start", game=GameInfo.of(now))
        except StoreError as e:
            return Result.refused(str(e), kind="start", game=info)
        return await self._answer(game_id, None, events, kind="start")

    async def _finish_start(
        self, rec: GameRecord, person: str, logged: Sequence[StoredEvent]
    ) -> Result:
        """Complete a start whose events were written but whose status was not (a crash
        between the two writes of an older version): the game becomes active."""
        info = GameInfo.of(rec)
        if person != rec.owner:
            return Result.refused(
                f"Only the game's owner ({rec.owner}) can start it.", kind="start", game=info
            )
        if not isinstance(logged[0].event, ev.GameStarted):
            return Result.refused(
                "This game is in the lobby but its log does not begin with a start; nothing "
                "changed. Export it ('game export') and report this.", kind="start", game=info)
        try:
            await self.store.set_status(rec.id, "active", expected="lobby")
        except StateMovedOn:
            return await self.start(rec.id, person)
        r = await self._answer(rec.id, None, [s.event for s in logged], kind="start")
        note = ("This game's start had been cut short (its events were written, the game was "
                "still in the lobby); it is complete now.")
        return replace(r, answer=f"{note}\n{r.answer}")

    # --- seats (admin) ----------------------------------------------------------------------
    async def _as_admin(
        self, game_id: str, person: str, admin: bool, kind: str, may: str
    ) -> tuple[GameRecord, GameInfo] | Result:
        """The game's record if ``person`` owns it (or a front end vouches it is an admin);
        else the refusal, saying who may ``may``."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        info = GameInfo.of(rec)
        if person != rec.owner and not admin:
            return Result.refused(f"Only the game's owner ({rec.owner}) {may}.", kind=kind,
                                  game=info)
        return rec, info

    async def substitute(self, game_id: str, person: str, power: str, newcomer: str,
                         *, admin: bool = False) -> Result:
        """Give a power's seat to someone else (the owner, or a front end's admin). The
        newcomer may hold other powers only of the same side (P-1). Public; no event changes."""
        got = await self._as_admin(game_id, person, admin, "substitute",
                                   "or a server manager can substitute players")
        if isinstance(got, Result):
            return got
        rec, info = got
        ed = resolve_edition(rec.edition)
        try:
            name = _resolve_power(ed.powers, power)
        except ServiceError as e:
            return Result.refused(str(e), kind="substitute", game=info)
        newcomer = newcomer.strip()
        if not newcomer:
            return Result.refused("Name who takes the seat: 'substitute <power> <person>'.",
                                  kind="substitute", game=info)
        other = [p for p, who in rec.seats.items()
                 if who == newcomer and ed.side_of(p) != ed.side_of(name)]
        if other:
            return Result.refused(
                f"{newcomer} holds {_and(other)} ({ed.side_of(other[0])}); {name} is on the "
                f"{ed.side_of(name)} side. One person plays powers of one side only (P-1).",
                kind="substitute", game=info)
        before = rec.seats.get(name)
        try:
            rec = await self.store.take_seat(
                game_id, name, newcomer, entropy=rec.entropy.get(name, ""), holder=before,
                conflicts=[p for p in ed.turn_order if ed.side_of(p) != ed.side_of(name)],
                statuses=_ANY_STATUS)
        except (SeatTaken, OtherSide) as e:  # the seats changed since they were read
            return Result.refused(f"The seats changed meanwhile: {e} Nothing changed; look "
                                  "again ('game status').", kind="substitute", game=info)
        was = f" (was {before})" if before else ""
        return Result(ok=True, answer=f"{newcomer} now plays {name}{was}; set by {person}.",
                      kind="substitute", game=GameInfo.of(rec))

    async def kick(self, game_id: str, person: str, leaver: str, *, admin: bool = False) -> Result:
        """Take every seat from a person; the game waits until the owner substitutes."""
        got = await self._as_admin(game_id, person, admin, "kick",
                                   "or a server manager can remove players")
        if isinstance(got, Result):
            return got
        rec, info = got
        held, rec = await self.store.free_seats(game_id, leaver, statuses=_ANY_STATUS)
        if not held:
            return Result.refused(f"{leaver} holds no seat in this game.", kind="kick", game=info)
        return Result(
            ok=True,
            answer=f"{leaver} left {_and(held)}; the owner gives "
            f"{'the seat' if len(held) == 1 else 'the seats'} to someone with "
            "'substitute <power> <person>'.",
            kind="kick", game=GameInfo.of(rec))

    # --- orders -----------------------------------------------------------------------------
    async def handle(self, channel: str, person: str, text: str, *, guild: str = "") -> Result:
        """One line typed by ``person`` in ``channel`` (of server ``guild``): any command of the
        order language."""
        from service import commands

        return await commands.handle(self, channel, person, text, guild=guild)

    async def submit(self, game_id: str, person: str, text: str) -> Result:
        """Parse one line of the order language and carry it out for ``person`` in this game."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e))
        from service import commands

        return await commands.run(self, rec, person, text)

    async def submit_order(
        self, game_id: str, person: str, order: od.Order, text: str = ""
    ) -> Result:
        """Carry out a typed order for ``person``: pick the acting power, decide, append."""
        text = text or order.kind.replace("_", " ")
        got = await self._load_playing(game_id, "order")
        if isinstance(got, Result):
            return got
        loaded, state = got
        info = GameInfo.of(loaded.record)
        try:
            power = _acting_power(state, loaded.record.seats, person, order)
        except (ServiceError, RulesError) as e:
            return Result.refused(str(e), kind="order", game=info)
        order = order.model_copy(update={"power": power})
        spec = loaded.record.dice
        master = b""
        log_before: da.DiceLog | None = None
        try:
            if spec.kind == "scripted":
                orders = await self.store.orders(game_id)
                inner = make_dice(spec, game_id, sum(o.dice_used for o in orders))
            else:
                master = await self.store.get_secret(game_id, fair.MASTER)
                log_before = da.read_log([s.event for s in loaded.events])
                inner = fair.dice_for(master, log_before, state.round)
        except (StoreError, ValueError) as e:
            why = f"This game's dice cannot be rolled ({e}); nothing changed."
            return Result.refused(why, kind="order", game=info)
        dice = CountingDice(inner)
        try:
            events = decide(state, order, dice)
            if log_before is not None:
                if fair.rolled_after_new_round(events, state.round):
                    raise RuntimeError("dice were rolled after a new round started")
                events = [*events, *fair.epilogue(master, log_before, state.round, events)]
        except RulesError as e:
            return Result.refused(str(e), kind="order", game=info)
        except OutOfDice as e:
            return Result.refused(f"{e}; nothing changed.", kind="order", game=info)
        except Exception as e:  # an engine bug must not take the table down or change the game
            log.exception("decide failed for %r in game %s", order, game_id)
            return Result.refused(
                f"Internal error in the rules engine ({type(e).__name__}: {e}); nothing "
                "changed. Please report this with 'game export'.",
                kind="order",
                game=info,
            )
        if not events:
            return Result(ok=True, answer="Nothing changed.", kind="order", game=info)
        try:
            placed = await self.store.append(
                game_id,
                loaded.seq,
                events,
                person=person,
                power=power,
                text=text,
                dice_used=dice.used,
                head=loaded.head,
                # The win and the status 'finished' in one write: a crash leaves both or neither.
                status="finished" if any(isinstance(e, ev.GameWon) for e in events) else None,
            )
        except StateMovedOn as e:
            return Result.refused(str(e), kind="order", game=info)
        self._remember(game_id, placed, state, events)
        answer = await self._answer(game_id, state, events, kind="order")
        # The order's index in the log: which order an acknowledgement stands for.
        return replace(answer, data={**(answer.data or {}), "order": placed.index})

    async def undo(self, game_id: str, person: str) -> Result:
        """Take back the last order: only if it rolled no dice and no other power has acted since.

        DESIGN §5: "Undo is free until dice are rolled; never after." An ``end`` is undone whole
        (an ``end`` that passed the turn by its own power's player) unless it ended the game,
        finished a round (its seed is public) or was the referee's at a deadline (``_end_kept``).
        """
        got = await self._load_playing(game_id, "undo")
        if isinstance(got, Result):
            return got
        loaded, state = got
        info = GameInfo.of(loaded.record)
        seats = loaded.record.seats
        mine = [p for p, who in seats.items() if who == person]
        if not mine:
            return Result.refused(NOT_SEATED, kind="undo", game=info)
        orders = await self.store.orders(game_id)
        last = orders[-1] if orders else None
        if last is not None and last.end_seq != loaded.seq:  # an order came after the load
            return Result.refused(undo_moved(loaded.seq, last.end_seq), kind="undo", game=info)
        dropped = [s.event for s in loaded.events[last.first_seq : last.end_seq]] if last else []
        # An 'end' that passed the turn is its power's to take back while the next power has
        # done nothing (the last order is still that 'end').
        passed = last is not None and any(isinstance(e, ev.TurnStarted) for e in dropped)
        undoer = last.power if passed and last is not None and last.power else state.power
        if seats.get(undoer) != person and seats.get(state.power) == person and last:
            return Result.refused(
                f"Nothing of {possessive(state.power)} to undo: the last order was "
                f"{possessive(last.power)} '{last.text}' (only {possessive(undoer)} player can "
                "take it back).",
                kind="undo", game=info)
        if seats.get(undoer) != person:
            return Result.refused(
                f"Only {possessive(undoer)} player can undo now (it is "
                f"{possessive(state.power)} turn); you hold {_and(mine)}.",
                kind="undo",
                game=info,
            )
        edit = next((s.event for s in loaded.events[last.first_seq : last.end_seq]
                     if isinstance(s.event, ev.EditApplied)), None) if last else None
        if edit is not None:  # both sides agreed to it: one side alone does not take it back
            return Result.refused(
                f"Cannot undo: the last change was edit #{edit.proposal}, which both sides "
                "agreed to. Undo never takes back an edit; propose another edit to change it.",
                kind="undo", game=info)
        if last is None or last.power == "":  # the start, or an imported game's commitment
            return Result.refused("Nothing to undo yet.", kind="undo", game=info)
        if last.power != undoer:
            return Result.refused(
                f"Nothing of {possessive(state.power)} to undo: the last order was "
                f"{possessive(last.power)} "
                f"'{last.text}'.",
                kind="undo",
                game=info,
            )
        if last.dice_used or any(isinstance(e, ev.DiceRolled) for e in dropped):
            return Result.refused(
                f"Cannot undo '{last.text}': dice were rolled. Undo is free until dice are "
                "rolled; never after.",
                kind="undo",
                game=info,
            )
        why = _end_kept(last.text, dropped)
        if why:
            return Result.refused(f"Cannot undo '{last.text}': {why}", kind="undo", game=info)
        try:
            # Names the exact order looked at and the head read: refused if anything moved.
            await self.store.drop_last_order(game_id, last, loaded.head)
        except StoreError as e:
            return Result.refused(str(e), kind="undo", game=info)
        after = await self._load(game_id)
        assert after.state is not None
        lines = [f"Undone: {possessive(last.power)} '{last.text}' "
                 f"({_n(len(dropped), 'event')} taken back)."]
        lines.append(ds.waiting_line(after.state, pending(after.state), after.record.seats))
        return Result(
            ok=True,
            answer="\n".join(lines),
            kind="undo",
            game=GameInfo.of(after.record),
            data={
                "undone": {
                    "index": last.index,
                    "order": last.text,
                    "power": last.power,
                    "events": [ev.event_to_json(e) for e in dropped],
                }
            },
        )

    # --- deadlines ----------------------------------------------------------------------------
    async def set_deadline(
        self,
        game_id: str,
        person: str,
        text: str,
        *,
        admin: bool = False,
        now: datetime | None = None,
    ) -> Result:
        """``deadline <duration> [remind|defaults|end] [every]`` (owner, or ``admin``).

        ``every`` (or ``every turn``, ``every wait``) re-arms it by the same duration for each
        new wait (each phase, each decision; ``service.waits.arm_deadline``). The action is
        what the referee does when it passes (``deadline_due``).
        """
        got = await self._as_admin(game_id, person, admin, "deadline", "sets its deadline")
        if isinstance(got, Result):
            return got
        _, info = got
        try:
            period, action, every = parse_deadline(text)
        except ServiceError as e:
            return Result.refused(str(e), kind="deadline", game=info)
        from service.waits import current_waits, waits_key

        now = now or self.clock()
        d = await self.store.set_deadline(
            game_id, now + period, int(period.total_seconds()) if every else None, action,
            waits_key(await current_waits(self, game_id)),
        )
        return Result(
            ok=True, answer=deadline_line(d), kind="deadline", game=info,
            data={"deadline": deadline_json(d)},
        )

    async def deadline(self, game_id: str) -> DeadlineRecord | None:
        return await self.store.get_deadline(game_id)

    async def pause(
        self, game_id: str, person: str, *, admin: bool = False, now: datetime | None = None
    ) -> Result:
        """Pause the game's deadline (vacation): no reminders, no action until ``resume``."""
        return await self._pause(game_id, person, True, admin, now)

    async def resume(
        self, game_id: str, person: str, *, admin: bool = False, now: datetime | None = None
    ) -> Result:
        """Resume the deadline; it moves later by the time it was paused."""
        return await self._pause(game_id, person, False, admin, now)

    async def _pause(
        self, game_id: str, person: str, pause: bool, admin: bool, now: datetime | None
    ) -> Result:
        kind = "pause" if pause else "resume"
        got = await self._as_admin(game_id, person, admin, kind, f"can {kind} it")
        if isinstance(got, Result):
            return got
        _, info = got
        now = now or self.clock()
        if pause:
            d = await self.store.pause_deadline(game_id, now)
        else:
            d = await self.store.resume_deadline(game_id, now)
        if d is None:
            return Result.refused(
                f"This game has no deadline to {kind} (set one with 'deadline 24h').",
                kind=kind, game=info,
            )
        answer = "Paused: no reminders and no deadline action until 'resume'." if pause else (
            "Resumed. " + deadline_line(d)
        )
        return Result(ok=True, answer=answer, kind=kind, game=info,
                      data={"deadline": deadline_json(d)})

    async def deadline_due(self, game_id: str, now: datetime | None = None) -> Result:
        """Carry out the game's deadline action if it is due: once per arming, claimed.

        ``data["fired"]`` says whether this call claimed it (only one process ever does).
        ``remind`` does nothing more (the front end reminds); ``defaults`` answers each pending
        battle decision with ``rules.defaults.default_orders`` as the owing power; ``end`` does
        that too and then, if no battle decision is pending, ends the current phase (``end
        confirm``), or in Conduct Combat fights a round of the first open battle. A deadline
        with a period then re-arms (``service.waits.arm_deadline``): at once while the game
        waits only for the absent, so the action repeats until it waits for someone present;
        with the full period otherwise.
        """
        from service import waits as wt

        now = now or self.clock()
        quiet = Result(ok=True, answer="", kind="deadline", data={"fired": False})
        lines: list[str] = []
        events: list[ev.Event] = []
        fired = False
        action = ""
        for _ in range(MAX_DEADLINE_REPEATS):
            d = await wt.arm_deadline(self, game_id, now)
            if d is None or d.paused:
                break
            current = await wt.current_waits(self, game_id)
            due = now >= d.due_at or (
                d.action != "remind" and await wt.covered(self, game_id, current, now)
            )
            key = f"due:{d.due_at.isoformat()}:{d.armed_for}"
            if not due:
                break
            # The claim names the log's head: a claim whose holder died before its action
            # wrote anything (the head is the same, the action not marked done) is taken over
            # once it is stale, so a crash never leaves a deadline that no process carries out.
            head = (await self._load(game_id)).head
            me = f"{self.process_id} {head}"
            if not await self.store.claim(game_id, key, me) and not await self._reclaim(
                game_id, key, head, me
            ):
                break
            fired, action = True, d.action
            before = len(events)
            await self._deadline_action(game_id, d, lines, events)
            await self.store.claim(game_id, f"{key}:done", self.process_id)
            if d.every is None:
                break
            after = wt.waits_key(await wt.current_waits(self, game_id))
            if len(events) == before or after == d.armed_for:
                # Nothing moved (remind, or nothing to answer): the same waits get another
                # full period, so the reminder (or the action) repeats until someone acts.
                await self.store.rearm_deadline(
                    game_id, d.armed_for, after, now + timedelta(seconds=d.every)
                )
                break
        if not fired:
            return quiet
        return Result(
            ok=True, answer="\n".join(lines), events=tuple(events), kind="deadline",
            data={"fired": True, "action": action},
        )

    async def _reclaim(self, game_id: str, key: str, head: str, me: str) -> bool:
        """Take over a deadline's claim if its holder stalled: nothing written since it claimed
        (the log's head is the one it named), not done, and older than ``claim_stale``."""
        held = await self.store.claim_holder(game_id, key)
        if held is None or not held[0].endswith(f" {head}"):
            return False
        if await self.store.claimed(game_id, [f"{key}:done"]):
            return False
        if datetime.now(UTC) - held[1] < self.claim_stale:
            return False
        return await self.store.reclaim(game_id, key, held[0], me)

    # --- a game's whole life: leave, cancel, concede, draw; the games of a server -------------
    async def leave(self, game_id: str, person: str) -> Result:
        """Before the start, a seated person gives up every seat they hold (open again)."""
        kind = "leave"
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        info = GameInfo.of(rec)
        held = [p for p, who in rec.seats.items() if who == person]
        if rec.status in ENDED:
            return Result.refused("The game is over; there is no seat to leave.", kind=kind,
                                  game=info)
        if not held:
            return Result.refused("You hold no seat in this game; nothing to leave.", kind=kind,
                                  game=info)
        if rec.status != "lobby":
            return Result.refused(
                "The game has started: a seat is not given up in play. Ask the owner "
                f"({rec.owner}) to give yours to someone else ('substitute <power> <person>'), "
                "or give up for your side with 'game concede'.",
                kind=kind, game=info)
        try:
            held, rec = await self.store.free_seats(game_id, person)
        except StateMovedOn:  # started or cancelled meanwhile: answer as for that status
            return await self.leave(game_id, person)
        if not held:
            return Result.refused("You hold no seat in this game; nothing to leave.", kind=kind,
                                  game=GameInfo.of(rec))
        ed = resolve_edition(rec.edition)
        seats = "the seat is" if len(held) == 1 else "the seats are"
        lines = [f"{person} leaves {_and(held)}; {seats} open again.",
                 _open_seats_line(ed.turn_order, rec.seats)]
        return Result(ok=True, answer="\n".join(lines), kind=kind, game=GameInfo.of(rec))

    async def cancel(self, game_id: str, person: str, *, withdraw: bool = False) -> Result:
        """Before the start the owner cancels at once; after it, every seated person votes."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="cancel")
        if rec.status == "lobby":
            info = GameInfo.of(rec)
            if withdraw:
                return Result.refused("No vote to withdraw: the game has not started.",
                                      kind="cancel", game=info)
            if person != rec.owner:
                return Result.refused(
                    f"Only the game's owner ({rec.owner}) can cancel it before the start; "
                    "you can give up your seats with 'game leave'.", kind="cancel", game=info)
            try:
                await self.store.set_status(game_id, "cancelled", expected="lobby")
            except StateMovedOn:  # started meanwhile: now it takes everyone's vote
                return await self.cancel(game_id, person, withdraw=withdraw)
            rec = await self.store.get_game(game_id)
            return Result(
                ok=True,
                answer=f"Game {rec.id} was cancelled by {person} before the start; this channel "
                "can start a new game ('game new').",
                kind="cancel", game=GameInfo.of(rec))
        return await self._vote(game_id, person, "cancel", withdraw)

    async def draw(self, game_id: str, person: str, *, withdraw: bool = False) -> Result:
        """A draw, when every seated person has voted for it."""
        return await self._vote(game_id, person, "draw", withdraw)

    async def concede(self, game_id: str, person: str, *, withdraw: bool = False) -> Result:
        """Give up for one's side: when every holder of its seats conceded, the other side wins."""
        return await self._vote(game_id, person, "concede", withdraw)

    async def _vote(self, game_id: str, person: str, what: str, withdraw: bool) -> Result:
        """Record (or withdraw) ``person``'s vote; when nobody is missing, end the game."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=what)
        info = GameInfo.of(rec)
        if rec.status == "lobby":
            return Result.refused(
                "The game has not started: there is nothing to "
                f"{'concede' if what == 'concede' else 'vote on'}. Give up your seats with "
                "'game leave'; the owner can cancel the game with 'game cancel'.",
                kind=what, game=info)
        got = await self._load_playing(game_id, what)
        if isinstance(got, Result):
            return got
        _, state = got
        key, needed, label = _ballot(state, rec, person, what)
        if not needed:
            return Result.refused(
                "Only the seated players vote; you hold no seat in this game.", kind=what,
                game=info)
        if withdraw:
            if person not in await self.store.votes(game_id, key):
                return Result.refused(f"You have not voted {label}; nothing to withdraw.",
                                      kind=what, game=info)
            voters = await self.store.withdraw_vote(game_id, key, person)
            line = f"{person} withdraws their vote {label}."
            return self._tally(info, what, line, needed, voters)
        voters = await self.store.cast_vote(game_id, key, person)
        if any(p not in voters for p in needed):
            return self._tally(info, what, f"{person} votes {label}.", needed, voters)
        return await self._end_by_vote(game_id, person, what, f"{person} votes {label}.")

    @staticmethod
    def _tally(info: GameInfo, what: str, line: str, needed: Sequence[str],
               voters: Sequence[str]) -> Result:
        have = [p for p in needed if p in voters]
        missing = [p for p in needed if p not in voters]
        lines = [line, f"Voted: {_and(have) or 'nobody'} ({len(have)} of {len(needed)})."]
        if missing:
            again = "'game concede'" if what == "concede" else f"'game {what}'"
            lines.append(f"Still needed: {_and(missing)} ({again} to agree; "
                         f"'{again[1:-1]} withdraw' takes a vote back).")
        return Result(ok=True, answer="\n".join(lines), kind=what, game=info,
                      data={"votes": have, "missing": missing, "ended": False})

    async def _end_by_vote(self, game_id: str, person: str, what: str, line: str) -> Result:
        """Append the end of the game once: of racing last voters, one appends, the others
        find the game over (optimistic concurrency, ``StateMovedOn``)."""
        for _ in range(5):
            got = await self._load_playing(game_id, what)
            if isinstance(got, Result):  # over meanwhile: another last vote ended it
                over = got.error or "The game is over."
                return Result(ok=True, answer=f"{line}\n{over}", kind=what, game=got.game,
                              data={"ended": False})
            loaded, state = got
            rec = loaded.record
            try:
                if what == "concede":
                    key, _, _ = _ballot(state, rec, person, what)
                    events = concession(state, key.partition(":")[2])
                else:
                    seated = [p for p in state.edition.turn_order if p in rec.seats]
                    result = "cancelled" if what == "cancel" else "draw"
                    events = game_ended(state, result, seated)
                if rec.dice.kind == "fair":
                    # Any end of the game reveals the dice master, so 'dice verify' covers
                    # every round of it (DESIGN §6).
                    master = await self.store.get_secret(game_id, fair.MASTER)
                    log_before = da.read_log([s.event for s in loaded.events])
                    events = [*events, *fair.epilogue(master, log_before, state.round, events)]
            except (RulesError, StoreError) as e:
                return Result.refused(str(e), kind=what, game=GameInfo.of(rec))
            try:
                placed = await self.store.append(
                    game_id, loaded.seq, events, person=person, power="", text=f"game {what}",
                    head=loaded.head, status="cancelled" if what == "cancel" else "finished",
                )
            except StateMovedOn:
                continue  # an order or another last vote came first: look again
            self._remember(game_id, placed, state, events)
            answer = await self._answer(game_id, state, events, kind=what)
            return replace(answer, answer=f"{line}\n{answer.answer}",
                           data={"ended": True})
        return Result.refused("The game keeps moving on; vote again.", kind=what)

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
            held = _and(row["powers"]) or "no seat (owner)"
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
    async def _deadline_action(
        self, game_id: str, d: DeadlineRecord, lines: list[str], events: list[ev.Event]
    ) -> None:
        """The deadline's action, once: the referee's orders are noted as such in the log."""
        from service.waits import REFEREE_NOTE

        if d.action not in ("defaults", "end"):
            return
        try:
            state = await self.state(game_id)
            rec = await self.store.get_game(game_id)
        except (ServiceError, StoreError) as e:
            lines.append(str(e))
            return
        for order in default_orders(state):
            who = rec.seats.get(order.power, "")
            r = await self.submit_order(game_id, who, order, _order_text(order) + REFEREE_NOTE)
            lines.append(r.answer if r.ok else f"{order.power}: {r.error}")
            events.extend(r.events)
        if d.action == "end":
            state = await self.state(game_id)
            if not state.winner and not any(p.space is not None for p in pending(state)):
                who = rec.seats.get(state.power, "")
                last = phase_end_order(state)
                text = "end confirm" if isinstance(last, od.EndPhase) else _order_text(last)
                r = await self.submit_order(game_id, who, last, text + REFEREE_NOTE)
                lines.append(r.answer if r.ok else f"{state.power}: {r.error}")
                events.extend(r.events)

    # --- views ------------------------------------------------------------------------------
    async def status(self, game_id: str) -> Result:
        """Round, power, phase, treasury, income, battles, seats and who the game waits for.

        ``state`` is the state document (``state_json``); ``data`` has the game record and the
        list of pending decisions.
        """
        try:
            loaded = await self._load(game_id)
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
            lines.append(_open_seats_line(ed.turn_order, rec.seats))
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
            loaded = await self._load(game_id)
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
            state = await self.state(game_id)
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

    # --- dice -------------------------------------------------------------------------------
    async def verify_dice(self, game_id: str, round_: int | None = None) -> Result:
        """``dice verify [round]``: recompute every revealed round's rolls from the log alone.

        ``ok`` is False when anything fails (the answer says exactly what), when the dice were
        scripted (they are not fair; nothing to verify), or when ``round_`` is not revealed yet.
        """
        kind = "dice_verify"
        try:
            loaded = await self._load(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        rec = loaded.record
        info = GameInfo.of(rec)
        if not loaded.events:
            if rec.dice.kind == "scripted":
                return Result.refused(da.SCRIPTED_LINE, kind=kind, game=info)
            return Result(
                ok=True,
                answer=f"No dice yet: the game has not started. Commitment: {rec.dice.commitment}.",
                kind=kind,
                game=info,
            )
        log = da.read_log([s.event for s in loaded.events])
        report = da.verify(log, round_)
        head = fair.log_hashes(rec.id, [ev.event_to_json(s.event) for s in loaded.events])[-1]
        data: dict[str, Any] = {
            "ok": report.ok,
            "scripted": report.scripted,
            "rounds": [
                {
                    "round": r.round,
                    "chain": r.chain,
                    "revealed": r.revealed,
                    "ok": r.ok,
                    "dice": r.dice,
                    "rolls": r.rolls,
                    "line": r.line,
                }
                for r in report.rounds
            ],
            "log_head": head,
        }
        lines = list(report.lines)
        if report.scripted:
            return Result(ok=False, error=lines[0], kind=kind, game=info, data=data)
        if round_ is not None and not any(r.revealed for r in report.rounds):
            if round_ >= log.round and rec.status not in ENDED:
                why = (f"Round {round_} is not revealed yet: its seed comes when round "
                       f"{round_ + 1} starts or the game ends.")
            else:
                why = f"Round {round_} has no revealed seed in this game."
            return Result(ok=False, error=why, kind=kind, game=info, data=data)
        if not report.verified and report.ok:
            lines.insert(0, "No round is over yet: round seeds are revealed as rounds end.")
        lines.append(f"Log hash after event #{len(loaded.events)}: {head}.")
        text = "\n".join(lines)
        if not report.ok:
            return Result(ok=False, error=text, kind=kind, game=info, data=data)
        return Result(ok=True, answer=text, kind=kind, game=info, data=data)

    # --- the log's head and its checks -------------------------------------------------------
    async def publish_head(
        self, game_id: str, events: Sequence[StoredEvent] | None = None
    ) -> tuple[int, str]:
        """The log's head (event count, chain hash), recorded in the store as shown to the
        players (``EventStore.publish_head``). ``events``: the log just loaded, if any."""
        if events is None:
            events = await self.store.load_events(game_id)
        seq, h = len(events), head_of(game_id, events)
        await self.store.publish_head(game_id, seq, h)
        return seq, h

    async def _snapshot_warnings(self, game_id: str, owner: str) -> list[str]:
        if not isinstance(self.store, HashedStore):
            return []
        bad = await self.store.snapshot_problems(game_id)
        return [
            f"Warning: the snapshot after event #{seq} was ignored ({why}); the state was "
            f"replayed from the log. The owner ({owner}) drops it with 'game repair truncate'."
            for seq, why in bad
        ]

    async def check_game(self, game_id: str) -> Result:
        """``game check``: the stored log's hash chain, the heads published to the players,
        and the snapshots, each said to hold or not (anyone may ask)."""
        kind = "game_check"
        try:
            rec = await self.store.get_game(game_id)
        except GameNotFound as e:
            return Result.refused(str(e), kind=kind)
        info = GameInfo.of(rec)
        heads = await self.store.published_heads(game_id)
        try:
            events = await self.store.load_events(game_id)
        except CorruptGame as e:
            lines = [str(e.with_owner(rec.owner))]
            ok = False
        else:
            lines = [f"The log holds: {_n(len(events), 'event')}, its hash chain intact."]
            if heads:
                s, h = heads[-1]
                lines.append(f"It reaches every head published to the players "
                             f"({len(heads)}, the last {head_line(s, h)}).")
            ok = True
        if isinstance(self.store, HashedStore):
            bad = await self.store.snapshot_problems(game_id)
            lines.extend(
                f"The snapshot after event #{seq} is ignored ({why}); the state is replayed "
                "from the log instead." for seq, why in bad
            )
            if bad:
                lines.append(f"The owner ({rec.owner}) drops ignored snapshots with "
                             "'game repair truncate'.")
                ok = False
        data = {"ok": ok, "heads": [{"seq": s, "hash": h} for s, h in heads]}
        if not ok:
            return Result(ok=False, error="\n".join(lines), kind=kind, game=info, data=data)
        return Result(ok=True, answer="\n".join(lines), kind=kind, game=info, data=data)

    # --- corruption ---------------------------------------------------------------------------
    async def resolve_corruption(
        self, game_id: str, person: str, how: str = "truncate", *, admin: bool = False
    ) -> Result:
        """The owner's way out of a ``CorruptGame`` (``game repair``, ``/admin repair``): the log
        fails its hash chain, or no longer reaches a head published to the players.

        ``how="truncate"``: drop the order holding the first untrusted event and every order
        after it (the game continues from just before; those orders are given again).
        ``how="reseal"`` (or ``"accept"``): keep the stored events as they are and recompute
        the hash chain over them, after checking that they still replay (a missing event
        cannot be accepted). Either way the published heads beyond what is kept are retired,
        and snapshots that are ignored (edited, or following another log) are dropped.
        ``admin``: a front end vouches that ``person`` manages the server. Public and logged.
        """
        kind = "resolve"
        got = await self._as_admin(game_id, person, admin, kind,
                                   "or a server manager can repair a corrupt log")
        if isinstance(got, Result):
            return got
        _, info = got
        if not isinstance(self.store, RepairableStore):
            return Result.refused("This store keeps no log that can go corrupt.", kind=kind)
        how = "reseal" if how == "accept" else how
        if how not in ("truncate", "reseal"):
            return Result.refused("Repair with 'game repair truncate' or 'game repair reseal'.",
                                  kind=kind, game=info)
        bad = await self.store.check(game_id)
        if bad is None:
            answer = await self._drop_bad_snapshots(game_id)
            if answer is None:
                return Result(ok=True, answer="The log is intact; nothing to repair.", kind=kind,
                              game=info)
            self._cache.pop(game_id, None)
            log.warning("game %s: ignored snapshots dropped by %s", game_id, person)
            return Result(ok=True, answer=answer, kind=kind, game=info)
        seq, why = bad
        if how == "truncate":
            dropped = await self.store.truncate_from_bad(game_id)
            answer = (f"Log cut before event #{seq + 1} ({why}): {_n(dropped, 'event')} dropped; "
                      "the orders they belonged to must be given again.")
        else:
            try:
                events = await self.store.unchecked_events(game_id)
                if events:
                    replay([s.event for s in events])
                changed = await self.store.reseal(game_id)
            except (StoreError, RulesError, ValueError, KeyError, TypeError) as e:
                return Result.refused(
                    f"Cannot accept the stored log ({e}); use 'game repair truncate' instead.",
                    kind=kind, game=info,
                )
            answer = (f"Stored log accepted as it is from event #{seq + 1} ({why}); "
                      f"{_n(changed, 'hash')} recomputed.")
        self._cache.pop(game_id, None)
        extra = await self._drop_bad_snapshots(game_id)
        if extra:
            answer += " " + extra
        log.warning("game %s: corruption at seq %s repaired by %s (%s)", game_id, seq, person, how)
        try:
            answer += " " + head_line(*await self.publish_head(game_id)) + "."
        except StoreError:
            log.exception("publishing the head of game %s failed", game_id)
        return Result(ok=True, answer=answer, kind=kind, game=info)

    async def _drop_bad_snapshots(self, game_id: str) -> str | None:
        if not isinstance(self.store, HashedStore):
            return None
        bad = await self.store.snapshot_problems(game_id)
        if not bad:
            return None
        await self.store.drop_snapshots(game_id, [seq for seq, _ in bad])
        where = ", ".join(f"#{seq}" for seq, _ in bad)
        return f"Ignored {_n(len(bad), 'snapshot')} dropped (after event {where})."

    # --- export / import (service.transfer) -----------------------------------------------
    async def export(self, game_id: str) -> dict[str, Any]:
        """The game as one JSON document: record, orders, every event, and the final state."""
        from service import transfer

        return await transfer.export(self, game_id)

    async def import_game(
        self,
        data: Any,
        channel: str | None = None,
        owner: str | None = None,
        *,
        unverified: bool = False,
    ) -> Result:
        """Recreate an exported game under a new id, all of it or nothing; every check and
        every refusal is in ``service.transfer``. ``unverified``: accept a log that matches no
        head hash the referee published, as an unverified copy (the answer says so)."""
        from service import transfer

        return await transfer.import_game(self, data, channel, owner, unverified=unverified)

    async def import_(
        self,
        data: Any,
        channel: str | None = None,
        owner: str | None = None,
        *,
        unverified: bool = False,
    ) -> GameInfo:
        """``import_game`` for callers that want the game: raises ``ServiceError`` if refused."""
        r = await self.import_game(data, channel, owner, unverified=unverified)
        if not r.ok or r.game is None:
            raise ServiceError(r.error or "Not imported.")
        return r.game

    # --- answers ----------------------------------------------------------------------------
    async def _answer(
        self, game_id: str, before: GameState | None, events: Sequence[ev.Event], *, kind: str
    ) -> Result:
        lines = ds.describe_all(before, events)
        after = before
        if after is None:
            after = replay(list(events))
        else:
            for e in events:
                after = evolve(after, e)
        rec = await self.store.get_game(game_id)
        lines.append(ds.waiting_line(after, pending(after), rec.seats))
        if any(isinstance(e, _PHASE_ENDS) for e in events):
            # Every phase summary carries the log's head, so that the players hold what a cut
            # or rewritten log would no longer reach (checked at every load).
            try:
                lines.append(head_line(*await self.publish_head(game_id)))
            except StoreError:  # the order is stored; the next load reports the damage
                log.exception("publishing the head of game %s failed", game_id)
        info = GameInfo.of(rec)
        for listener in self.listeners:
            try:
                await listener(info, events)
            except Exception:  # a failing notifier must not undo an accepted order
                log.exception("listener failed for game %s", game_id)
        pictures = await self._images_after(game_id, events, after)
        return Result(ok=True, answer="\n".join(lines), events=tuple(events), kind=kind, game=info,
                      images=pictures)

    async def _images_after(
        self, game_id: str, events: Sequence[ev.Event], after: GameState
    ) -> tuple[RenderedImage, ...]:
        """The render hook: battle boards and the map when these events call for them."""
        if not self.images:
            return ()
        from service import images as im

        if not im.wants_images(events):
            return ()
        try:
            log_events = [s.event for s in await self.store.load_events(game_id)]
            # Pillow is CPU-bound: off the event loop (DESIGN §8).
            drawn = await asyncio.to_thread(
                im.images_after, log_events, len(events), game_id, after
            )
        except Exception:  # a picture that cannot be drawn must not undo an accepted order
            log.exception("rendering failed for game %s", game_id)
            return ()
        return tuple(drawn)


# --------------------------------------------------------------------------------------------
# Helpers


_OVER = "This game is over (finished or cancelled); start a new one here with 'game new'."


# A game listed whose stored log fails its checks ('game list', '/game list').
CORRUPT_LINE = (
    "its stored log is corrupt: no orders until its owner ({owner}) repairs it with "
    "'game repair truncate' or 'game repair reseal' ('game check' says what is wrong)."
)

# The events that end a phase (or the game): their summary carries the log's head.
_PHASE_ENDS = (ev.PhaseChanged, ev.GameWon, ev.GameEnded)


def head_line(seq: int, h: str) -> str:
    """The log's head as posted to the players: ``Log #412 · 3f9a1c2e``."""
    return f"Log #{seq} · {h[:8]}"


def _not_playing(loaded: _Loaded) -> str | None:
    if loaded.record.status in ENDED and loaded.state is None:
        return "The game was cancelled before the start; start a new one with 'game new'."
    if loaded.record.status == "lobby" or loaded.state is None:
        return "The game has not started yet; its owner starts it with 'game start'."
    if loaded.state.ended == "draw":
        return "The game is over: it ended in a draw. No more orders."
    if loaded.record.status == "cancelled" or loaded.state.ended:
        return "The game was cancelled. No more orders; the channel can start a new game."
    if loaded.record.status == "finished" or loaded.state.winner:
        return f"The game is over: the {loaded.state.winner or 'game'} won. No more orders."
    return None


def _end_kept(text: str, dropped: Sequence[ev.Event]) -> str:
    """Why an order that moved the game on (an ``end``) cannot be undone, or ``""``.

    Undo is free until dice are rolled (DESIGN §5) and while no other power has acted: an
    ``end`` is taken back whole, with what the referee did on its way (an empty Conduct Combat
    passed, income collected). Not when it ended the game, finished a round (its dice seed is
    then public: rolling again with it would be foreseeable), or when the referee gave it at a
    deadline."""
    moved_on = any(isinstance(e, ev.TurnStarted | ev.PhaseChanged) for e in dropped)
    if any(isinstance(e, ev.GameWon | ev.GameEnded) for e in dropped):
        return "it ended the game."
    if not moved_on:
        return ""
    from service.waits import REFEREE_NOTE

    if text.endswith(REFEREE_NOTE):
        return "the referee ended the phase at the deadline; the deadline stands."
    seed = next((e for e in dropped if isinstance(e, ev.DiceSeedRevealed)), None)
    if seed is not None:
        return (f"it ended round {seed.round}, and that round's dice seed is now public "
                "('dice verify'); a round is never reopened.")
    return ""


def _acting_power(state: GameState, seats: Mapping[str, str], person: str, order: od.Order) -> str:
    """The power ``person`` gives ``order`` for (DESIGN §5), or why they may not."""
    mine = [p for p in state.edition.turn_order if seats.get(p) == person]
    if not mine:
        raise ServiceError(NOT_SEATED)
    if isinstance(order, od.StandingCasualties):
        name = _resolve_power(state.edition.powers, order.power) if order.power else ""
        if not name:
            if len(mine) > 1:
                raise InvalidOrder(
                    f"Say whose standing order this is: 'standing casualties <power> ...' "
                    f"(you hold {_and(mine)})."
                )
            return mine[0]
        if name not in mine:
            raise NotYourTurn(f"{name} is not yours; you hold {_and(mine)}.")
        return name
    if isinstance(order, _DECISIONS):
        return _deciding_power(state, mine, order)
    if state.power in mine:
        return state.power
    raise NotYourTurn(f"It is {possessive(state.power)} turn; you hold {_and(mine)}.")


def _deciding_power(
    state: GameState,
    mine: Sequence[str],
    order: od.Casualties | od.Submerge | od.Strike | od.Withdraw,
) -> str:
    """Among ``mine``, the power that owes this battle decision per ``pending(state)``."""
    owed = [p for p in pending(state) if not p.turn]
    here = [p for p in owed if p.space is None or p.space.casefold() == order.space.casefold()]
    candidates = [p for p in here if p.power in mine]
    if len(candidates) > 1:
        keyed = [p for p in candidates if order.kind in p.kind.answers]
        candidates = keyed or candidates
    powers = list(dict.fromkeys(p.power for p in candidates))
    if powers:
        return powers[0]
    battle = state.battles.get(order.space)
    if battle is not None and battle.step != "done":
        # Not waited on, but a party to this battle: the rules say whether the order fits now
        # (e.g. a submarine choice the edition offers outside the pending list).
        parties = [p for p in (battle.attacker, *battle.defenders) if p in mine]
        if parties:
            return parties[0]
    if not owed and state.power in mine:
        # Nothing is pending: let the rules say why (e.g. no battle there).
        return state.power
    waiting = ", ".join(
        f"{p.power} ({p.what}{' in ' + p.space if p.space else ''})" for p in owed
    ) or "nobody"
    raise NotYourTurn(
        f"None of your powers ({_and(mine)}) owes a decision in {order.space} now; "
        f"waiting for: {waiting}."
    )


def _resolve_power(powers: Mapping[str, Any], name: str) -> str:
    key = name.strip().casefold()
    for p, info in powers.items():
        aliases = getattr(info, "aliases", ())
        if key == p.casefold() or key in (a.casefold() for a in aliases):
            return p
    raise ServiceError(f"Unknown power {name!r}. Powers: {', '.join(powers)}.")


def _resolve_space(state: GameState, name: str) -> str:
    key = name.strip().casefold()
    for s, info in state.edition.spaces.items():
        if key == s.casefold() or key in (a.casefold() for a in info.aliases):
            return s
    close = [s for s in state.edition.spaces if key in s.casefold()][:5]
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    raise ServiceError(f"Unknown space {name!r}.{hint}")


def _ballot(
    state: GameState, rec: GameRecord, person: str, what: str
) -> tuple[str, list[str], str]:
    """The vote ``person`` casts: its key in the store, the people who must all agree (in turn
    order; empty if ``person`` holds no seat) and how to say it."""
    ed = state.edition
    holders = list(dict.fromkeys(rec.seats[p] for p in ed.turn_order if p in rec.seats))
    if person not in holders:
        return what, [], what
    if what == "concede":
        side = next(state.side(p) for p in ed.turn_order if rec.seats.get(p) == person)
        side_holders = [rec.seats[p] for p in ed.turn_order
                        if p in rec.seats and state.side(p) == side]
        return f"concede:{side}", list(dict.fromkeys(side_holders)), f"to concede for the {side}"
    label = "to cancel the game" if what == "cancel" else "for a draw"
    return what, holders, label


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


def _open_seats_line(order: Sequence[str], seats: Mapping[str, str]) -> str:
    open_ = [p for p in order if p not in seats]
    if not open_:
        return "Every power is seated; the owner can 'game start'."
    return f"Open seats: {', '.join(open_)}."


def _pending_json(p: Pending, seats: Mapping[str, str], state: GameState) -> dict[str, Any]:
    """One wait; ``label`` is what people read: the phase's name for a turn ("Combat Move"),
    else the decision and its space ("casualties in Ukraine"); ``what`` stays the engine's."""
    label = phase_name(state) if p.turn else p.what + (f" in {p.space}" if p.space else "")
    return {"power": p.power, "what": p.what, "label": label, "space": p.space,
            "person": seats.get(p.power)}


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


__all__ = [
    "NOT_SEATED",
    "CountingDice",
    "GameInfo",
    "GameService",
    "OrderRecord",
    "Result",
    "ServiceError",
    "make_dice",
    "new_dice_spec",
    "phase_name",
]


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|s)", re.IGNORECASE)
_UNIT = {"d": 86400.0, "h": 3600.0, "m": 60.0, "s": 1.0}


def parse_deadline(text: str) -> tuple[timedelta, DeadlineAction, bool]:
    """``24h``, ``1d12h``, ``30m defaults``, ``2d end every``: duration, action, re-arm per wait."""
    words = text.casefold().split()
    action: DeadlineAction = "remind"
    every = False
    rest: list[str] = []
    for w in words:
        if w in DEADLINE_ACTIONS:
            action = w
        elif w in ("every", "turn", "per-turn", "wait", "per-wait"):
            every = True
        else:
            rest.append(w)
    spec = "".join(rest)
    pos, seconds = 0, 0.0
    for m in _DURATION.finditer(spec):
        if m.start() != pos:
            break
        seconds += float(m.group(1)) * _UNIT[m.group(2).lower()]
        pos = m.end()
    if not spec or pos != len(spec) or seconds <= 0:
        raise ServiceError(
            f"Cannot read the deadline {text.strip()!r}: give a duration such as '24h', '30m', "
            "'2d' or '1d12h', then optionally what happens at it (remind, defaults, end) and "
            "'every' to re-arm it for each new wait. Example: 'deadline 24h defaults every'."
        )
    if seconds > 60 * 86400:
        raise ServiceError("A deadline is at most 60 days away.")
    return timedelta(seconds=seconds), action, every


def deadline_line(d: DeadlineRecord) -> str:
    what = {
        "remind": "a reminder",
        "defaults": "default answers to pending battle decisions",
        "end": "default battle answers, then the end of the phase",
    }[d.action]
    renew = (
        f"; it re-arms for {timedelta(seconds=d.every)} at each new wait (phase or decision)"
        if d.every else ""
    )
    paused = " (paused)" if d.paused else ""
    when = f"{d.due_at:%Y-%m-%d %H:%M} UTC"
    return f"Deadline: {when}{paused}; at it the referee gives {what}{renew}."


def deadline_json(d: DeadlineRecord) -> dict[str, Any]:
    return {
        "due_at": d.due_at.isoformat(),
        "every": d.every,
        "action": d.action,
        "paused": d.paused,
    }


def _order_text(order: od.Order) -> str:
    if isinstance(order, od.Casualties):
        units = ", ".join(f"{n} {t}" for t, n in order.units.items())
        return f"casualties {order.space} {units}".strip()
    space = getattr(order, "space", "")
    return f"{order.kind.replace('_', ' ')} {space}".strip()
