"""Where games live: the ``EventStore`` protocol (its in-memory implementation: ``service.memory``).

A game is a record (edition, options, channel, owner, status, seats, dice) plus an append-only
log of events grouped into *orders*: every accepted order appends its events in one go, with
the sequence number and the head hash the writer read (``head_of``). A writer that read an
older log gets ``StateMovedOn`` and nothing is written (optimistic concurrency, DESIGN §7): every
write to a log is a compare-and-set on its exact head. The one exception to "append-only" is
undo, which names the exact order it drops and the head it read, under the same check.

Lobby changes (``create_game``, ``take_seat``, ``free_seats``) and the start (``start_game``) check
what they depend on inside their own write: one game not over per channel, one person per seat,
one side per person (P-1), the seats the start was decided on. docs/store.md says what this
guarantees.

The protocol is ``async`` so that a database store (SQLite/PostgreSQL) fits it unchanged.

Secrets (the dice master of a game, DESIGN §6) live in their own area, ``put_secret`` /
``get_secret``: never in the game record, the events or an export. The log reveals what may be
revealed (a round's seed when the round is over) as events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from db.records import (
    DEADLINE_ACTIONS,
    ENDED,
    MAIL_ADDRESS_MAX,
    MAIL_KEY_MAX,
    MENU_CLAIM_STALE,
    SEATS_MOVED,
    ChannelTaken,
    CorruptGame,
    DeadlineAction,
    DeadlineRecord,
    DiceKind,
    DiceSpec,
    EditDecided,
    EditProposal,
    EditStatus,
    GameNotFound,
    GameRecord,
    GameStatus,
    ImportedOrder,
    MailOffer,
    MenuRecord,
    NotifyPrefRecord,
    OrderRecord,
    OtherSide,
    SeatTaken,
    StateMovedOn,
    StoredEvent,
    StoreError,
    UnstorableText,
    VacationRecord,
    head_of,
    mail_address,
    mail_key,
    undo_moved,
)
from rules import events as ev
from service.memory import MemoryStore  # the in-memory EventStore, named here with its protocol


class EventStore(Protocol):
    """Storage for games, seats and event logs. Every method may await I/O."""

    async def create_game(
        self,
        *,
        edition: str,
        options: tuple[str, ...],
        channel: str,
        owner: str,
        dice: DiceSpec,
        position: dict[str, Any] | None = None,
        guild: str = "",
        secrets: Mapping[str, bytes] | None = None,
    ) -> GameRecord:
        """Create a game in the lobby and give it an id (``guild``: the server it belongs to),
        with its ``secrets`` (``put_secret``) in the same write.

        ``ChannelTaken`` if ``channel`` already has a game that is not over (checked inside the
        write: of two racing creations in one channel exactly one succeeds)."""
        ...

    async def import_game(
        self,
        *,
        edition: str,
        options: tuple[str, ...],
        channel: str,
        owner: str,
        dice: DiceSpec,
        position: dict[str, Any] | None,
        guild: str,
        seats: Mapping[str, str],
        secrets: Mapping[str, bytes],
        orders: Callable[[str], Sequence[ImportedOrder]],
        status: GameStatus,
    ) -> GameRecord:
        """Create a whole game at once (an import), all of it or nothing: the record, its
        seats and secrets, every order with its events (``orders(game_id)`` gives them once the
        id is known), its status. ``StoreError`` when ``channel`` has a game that is not over."""
        ...

    async def get_game(self, game_id: str) -> GameRecord:
        """The game's record; ``GameNotFound`` if there is none."""
        ...

    async def games_in_channel(self, channel: str) -> list[GameRecord]:
        """Games bound to a channel, oldest first."""
        ...

    async def games_in_guild(self, guild: str) -> list[GameRecord]:
        """Games of a server (every game of the store whose ``guild`` is this), oldest first."""
        ...

    async def set_status(
        self, game_id: str, status: GameStatus, *, expected: GameStatus | None = None
    ) -> None:
        """Set the game's status; with ``expected``, only if it is that now (else
        ``StateMovedOn``, nothing written)."""
        ...

    async def set_seat(
        self, game_id: str, power: str, person: str | None, entropy: str = ""
    ) -> None:
        """Seat ``person`` at ``power`` (``None`` empties the seat), unchecked (imports)."""
        ...

    async def take_seat(
        self,
        game_id: str,
        power: str,
        person: str,
        *,
        entropy: str = "",
        holder: str | None = None,
        conflicts: Sequence[str] = (),
        statuses: Sequence[GameStatus] = ("lobby",),
    ) -> GameRecord:
        """In one write: seat ``person`` at ``power`` if the seat is held by ``holder`` now
        (``None``: open), ``person`` holds none of ``conflicts`` (the other side's powers, P-1)
        and the game's status is one of ``statuses``. Else ``SeatTaken`` (who holds it now),
        ``OtherSide`` (which of ``conflicts`` they hold) or ``StateMovedOn``; nothing written.
        The record after the write."""
        ...

    async def free_seats(
        self, game_id: str, person: str, *, statuses: Sequence[GameStatus] = ("lobby",)
    ) -> tuple[list[str], GameRecord]:
        """In one write: empty every seat ``person`` holds, if the game's status is one of
        ``statuses`` (else ``StateMovedOn``). The powers freed and the record after."""
        ...

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
    ) -> OrderRecord:
        """Append one order's events if the log has exactly ``expected_seq`` events and (when
        given) its head hash is ``head``: the head the writer read (``head_of``).

        Raises ``StateMovedOn`` otherwise. The order gets the next order index of the game;
        indexes are never reused, not even after an undo. ``status`` is set in the same write
        (an order that ends the game), so a crash leaves both or neither; so is, with
        ``publish``, the record of the head after the events as published (``publish_head``:
        the answer that ends a phase shows it), so an order is one write.
        """
        ...

    async def start_game(
        self,
        game_id: str,
        events: Sequence[ev.Event],
        *,
        person: str,
        text: str,
        seats: Mapping[str, str],
        entropy: Mapping[str, str],
    ) -> OrderRecord:
        """In one write: append the start's events as the first order and make the game
        active, if it is in the lobby with an empty log and exactly these ``seats`` and
        ``entropy`` phrases (what the start was decided on); else ``StateMovedOn``."""
        ...

    async def load_events(self, game_id: str) -> list[StoredEvent]: ...

    async def orders(self, game_id: str) -> list[OrderRecord]: ...

    async def last_order(self, game_id: str) -> OrderRecord | None:
        """The game's last order (None before any): what undo and "who acted last" need, read
        alone, so that neither grows with the length of the game."""
        ...

    async def drop_last_order(self, game_id: str, last: OrderRecord, head: str) -> OrderRecord:
        """Remove exactly the order ``last`` (the undoer read it as the last order) and its
        events, if it is still the last order, the log ends where it ends and the log's head
        hash is still ``head``. Else ``StateMovedOn``, nothing removed."""
        ...

    async def put_secret(self, game_id: str, name: str, value: bytes) -> None:
        """Keep a secret of the game (never part of its record, events or exports)."""
        ...

    # --- published heads (the log's head shown to the players: phase summaries, status) ----
    async def publish_head(self, game_id: str, seq: int, hash: str) -> None:
        """Record that the log's head, ``seq`` events with chain hash ``hash``, was shown to
        the players. A database store then finds a log that no longer reaches it corrupt (its
        end cut, or rewritten); an undo or a repair drops the heads beyond what it removes."""
        ...

    async def published_heads(self, game_id: str) -> list[tuple[int, str]]:
        """Every head published for the game as (event count, chain hash), oldest first."""
        ...

    async def get_secret(self, game_id: str, name: str) -> bytes:
        """A secret kept by ``put_secret``; ``StoreError`` if there is none."""
        ...

    # --- deadlines (the reminders of cogs.reminders and GameService.deadline_due) ----------
    async def set_deadline(
        self,
        game_id: str,
        due_at: datetime,
        every: int | None,
        action: DeadlineAction,
        armed_for: str = "",
    ) -> DeadlineRecord:
        """Set (or replace) the game's deadline, not paused, for the waits ``armed_for``."""
        ...

    async def get_deadline(self, game_id: str) -> DeadlineRecord | None: ...

    async def deadlines(self) -> list[DeadlineRecord]:
        """Every deadline of every game (the reminder loop walks them)."""
        ...

    async def pause_deadline(self, game_id: str, now: datetime) -> DeadlineRecord | None:
        """Mark it paused at ``now`` (no-op if already paused); ``None`` if there is none."""
        ...

    async def resume_deadline(self, game_id: str, now: datetime) -> DeadlineRecord | None:
        """Unpause it, moving ``due_at`` later by the time it was paused."""
        ...

    async def claim_reminder(
        self, game_id: str, kind: str, due_at: datetime, claimer: str
    ) -> bool:
        """True exactly once per (game, kind, due_at), among every process sharing the store."""
        ...

    # --- votes (cancel, draw, concede: GameService.vote) ------------------------------------
    async def cast_vote(self, game_id: str, kind: str, person: str) -> list[str]:
        """Record ``person``'s vote of ``kind`` (once: again is a no-op); every voter of it."""
        ...

    async def withdraw_vote(self, game_id: str, kind: str, person: str) -> list[str]:
        """Remove ``person``'s vote of ``kind`` if there is one; the voters left."""
        ...

    async def votes(self, game_id: str, kind: str) -> list[str]:
        """The people who voted ``kind`` in this game, in the order they voted."""
    # --- decision menus (cogs._views: the menus posted in Discord, closed once answered) ---
    async def claim_menu(
        self,
        game_id: str,
        key: str,
        channel: str,
        claimer: str,
        now: datetime,
        *,
        stale_after: timedelta = MENU_CLAIM_STALE,
    ) -> bool:
        """True for exactly one caller per (game, ``key``): that one posts the menu.

        A claim whose message was never recorded (its poster died between the claim and the
        post) may be taken over ``stale_after`` later, so a menu is never lost for good.
        """
        ...

    async def menu_posted(self, game_id: str, key: str, message_id: str) -> None:
        """Record the message of a claimed menu."""
        ...

    async def release_menu(self, game_id: str, key: str, claimer: str) -> None:
        """Drop ``claimer``'s claim of a menu not posted (the post failed): the next pass posts
        it. A posted menu is kept."""
        ...

    async def menus(self, game_id: str) -> list[MenuRecord]:
        """The game's menus, open and closed, oldest claim first."""
        ...

    async def close_menu(self, game_id: str, key: str, now: datetime) -> None:
        """Mark a menu closed (edited to show the answer); a closed menu stays closed."""
        ...

    # --- game-master edits (service.edits) --------------------------------------------------
    async def propose_edit(
        self, game_id: str, proposer: str, text: str, seq: int
    ) -> EditProposal:
        """Keep a pending edit proposal under the game's next number (1, 2, ...)."""
        ...

    async def get_edit(self, game_id: str, number: int) -> EditProposal:
        """A proposal; ``StoreError`` if the game has none with that number."""
        ...

    async def edit_proposals(self, game_id: str) -> list[EditProposal]:
        """Every proposal of the game, by number."""
        ...

    async def apply_edit(
        self,
        game_id: str,
        number: int,
        agreed: str,
        expected_seq: int,
        events: Sequence[ev.Event],
        *,
        text: str,
        head: str | None = None,
    ) -> OrderRecord:
        """In one transaction: append the edit's events as an order by ``agreed`` (as
        ``append``, ``head`` included) and mark the proposal applied. ``EditDecided`` if it
        is no longer pending, ``StateMovedOn`` if the log moved on; then nothing is written.
        Of two racing confirmations exactly one applies."""
        ...

    async def reject_edit(self, game_id: str, number: int, by: str) -> EditProposal:
        """Mark a pending proposal rejected; ``EditDecided`` if it was decided already."""
        ...

    # --- waits (service.waits): claims, the wait a deadline is armed for, settings --------
    async def active_games(self) -> list[GameRecord]:
        """Every game being played (status ``active``), oldest first: the reminder loop's."""
        ...

    async def claim(self, game_id: str, key: str, claimer: str) -> bool:
        """True exactly once per (game, key), among every process sharing the store."""
        ...

    async def claimed(self, game_id: str, keys: Sequence[str]) -> set[str]:
        """Which of ``keys`` are claimed (without claiming any)."""
        ...

    async def release_claim(self, game_id: str, key: str) -> None:
        """Forget a claim whose work failed, so that the next pass does it again."""
        ...

    async def claim_holder(self, game_id: str, key: str) -> tuple[str, datetime] | None:
        """Who holds the claim of ``key`` and since when (the store's clock, UTC); ``None``."""
        ...

    async def reclaim(self, game_id: str, key: str, was: str, claimer: str) -> bool:
        """Take over the claim of ``key`` if ``was`` still holds it (its holder died before
        finishing the work): True for exactly one of several racing callers."""
        ...

    async def rearm_deadline(
        self, game_id: str, was_for: str, armed_for: str, due_at: datetime
    ) -> DeadlineRecord | None:
        """Move the deadline to ``due_at`` for the waits ``armed_for``, only if it is still
        armed for ``was_for`` (of two processes re-arming at once, one wins); else ``None``."""
        ...

    async def set_notify_pref(self, pref: NotifyPrefRecord) -> None:
        """Keep (replace) a person's setting for ``pref.game_id`` ('' = every game)."""
        ...

    async def notify_prefs(self, persons: Sequence[str]) -> list[NotifyPrefRecord]:
        """Every setting (default and per game) of these persons."""
        ...

    async def set_vacation(self, vacation: VacationRecord | None, person: str) -> None:
        """Keep ``person``'s absence window (``None`` clears it)."""
        ...

    async def vacations(self, persons: Sequence[str]) -> list[VacationRecord]:
        """The absence windows of these persons (past, present or future)."""
        ...

    # --- mail (the e-mail front end, issue 17) and what front ends have reported ----------
    async def mail_seen(self, key: str, address: str, game_id: str, now: datetime) -> bool:
        """Record a received mail by its key (its Message-ID, or a hash of it): True exactly
        once per key among every process sharing the store; a replay, a duplicate or a second
        poller gets False. ``game_id`` may be '' (a mail for no game).

        A key longer than ``MAIL_KEY_MAX`` or not printable ASCII is kept as its hash
        (``mail_key``); an address a store cannot keep is ``UnstorableText`` (``mail_address``).
        """
        ...

    async def mail_forget(self, key: str) -> None:
        """Forget a mail recorded by ``mail_seen`` whose handling failed before it changed
        anything: the transport delivers it again, and that delivery is not a duplicate."""
        ...

    async def mail_received_since(self, address: str, since: datetime) -> int:
        """How many mails from ``address`` were recorded by ``mail_seen`` at or after ``since``
        (the rate limit). Addresses are compared exactly: the caller normalises them."""
        ...

    async def mail_offer(self, offer: MailOffer) -> None:
        """Keep a seat offered to an address, waiting for the reply that carries its ``code``
        (a new offer of the same game, power and address replaces the old one).
        ``GameNotFound`` if there is no such game; ``StoreError`` if ``code`` is in use."""
        ...

    async def mail_take_offer(self, code: str) -> MailOffer | None:
        """Remove and return the offer with ``code``; None if there is none: of several racing
        callers exactly one gets it."""
        ...

    async def mail_offers(self, game_id: str) -> list[MailOffer]:
        """The game's offers not yet taken, oldest first."""
        ...

    async def report_cursor(self, game_id: str, reader: str) -> int:
        """How many of the game's events ``reader`` (a front end that reports a game's
        changes: 'mail', 'discord') has reported; 0 when it never did."""
        ...

    async def advance_report(self, game_id: str, reader: str, old: int, new: int) -> bool:
        """Move ``reader``'s cursor from ``old`` to ``new`` (new may be smaller: an undo) only
        if it is ``old`` now: of several racing callers exactly one wins (compare-and-set), the
        others get False and nothing changes. ``GameNotFound`` if there is no such game."""
        ...

    async def secret_once(self, game_id: str, name: str, value: bytes) -> bytes:
        """The game's secret ``name``: ``value`` is stored if there is none yet, else the
        stored one is kept; returns the secret now stored (of two racing callers both get the
        same bytes). ``GameNotFound`` if there is no such game."""
        ...


__all__ = [
    "DEADLINE_ACTIONS",
    "ENDED",
    "MAIL_ADDRESS_MAX",
    "MAIL_KEY_MAX",
    "MENU_CLAIM_STALE",
    "SEATS_MOVED",
    "ChannelTaken",
    "CorruptGame",
    "DeadlineAction",
    "DeadlineRecord",
    "DiceKind",
    "DiceSpec",
    "EditDecided",
    "EditProposal",
    "EditStatus",
    "EventStore",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "ImportedOrder",
    "MailOffer",
    "MemoryStore",
    "MenuRecord",
    "NotifyPrefRecord",
    "OrderRecord",
    "OtherSide",
    "SeatTaken",
    "StateMovedOn",
    "StoreError",
    "StoredEvent",
    "UnstorableText",
    "VacationRecord",
    "head_of",
    "mail_address",
    "mail_key",
    "undo_moved",
]
