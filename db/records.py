"""What a game store holds and how it refuses: records shared by ``service`` and ``db``.

These were born in ``service.store``; they live here so that ``db`` (below ``service`` in the
layers, DESIGN §2) can implement the service's ``EventStore`` protocol without importing it.
``service.store`` re-exports every name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from rules import events as ev
from rules.text import problem, refusal

GameStatus = Literal["lobby", "active", "finished", "cancelled"]
# A game in one of these is over: archived (readable, listed), and its channel may start another.
ENDED: tuple[GameStatus, ...] = ("finished", "cancelled")
DiceKind = Literal["fair", "scripted"]
DeadlineAction = Literal["remind", "defaults", "end"]
DEADLINE_ACTIONS: tuple[DeadlineAction, ...] = ("remind", "defaults", "end")


class StoreError(Exception):
    """A storage-level refusal, with a message a player can read."""


class GameNotFound(StoreError):
    """No game with that id."""


class StateMovedOn(StoreError):
    """Someone else wrote to the game since this writer read it; nothing was written."""


class SeatTaken(StoreError):
    """The seat is held by ``holder`` (not by whom the writer expected); nothing was written."""

    def __init__(self, power: str, holder: str | None) -> None:
        self.power = power
        self.holder = holder
        super().__init__(
            f"{power} is taken by {holder}." if holder else f"{power} is open now."
        )


class OtherSide(StoreError):
    """The person holds ``held``, powers of the other side (P-1); nothing was written."""

    def __init__(self, person: str, held: tuple[str, ...]) -> None:
        self.person = person
        self.held = held
        super().__init__(f"{person} holds {', '.join(held)}, of the other side (P-1).")


class ChannelTaken(StoreError):
    """The channel has a game that is not over (``game_id``, ``status``); nothing was created."""

    def __init__(self, game_id: str, status: str) -> None:
        self.game_id = game_id
        self.status = status
        super().__init__(
            f"This channel already has game {game_id} ({status}); finish it before starting "
            "another, or use another channel or thread."
        )


SEATS_MOVED = (
    "The seats changed while the game was being started; nothing was started. "
    "Look at the lobby again ('game status') and start anew."
)


_STATUS_WORDS = {"lobby": "in the lobby", "active": "being played"}


def status_moved(have: str, expected: str) -> str:
    """Why a write that expected another status was refused."""
    now, was = (_STATUS_WORDS.get(s, s) for s in (have, expected))
    return f"The game moved on: it is {now} now, no longer {was}; nothing was written."


def undo_moved(have: int, expected: int) -> str:
    """Why an undo was refused because the log moved on (what the undoer is told)."""
    return (
        f"Someone else changed the game meanwhile (event {have}, expected {expected}); "
        "nothing was undone. Look at the game again ('state') before you undo."
    )


class UnstorableText(StoreError):
    """A text the database cannot hold (a NUL...) reached a statement; nothing was written."""


@dataclass(frozen=True)
class DiceSpec:
    """How a game's dice are made, public part only: fair dice's commitment, or a script.

    Fair dice (``rules.dice``): ``commitment`` is H(s_0) of the first chain (hex), published when
    the game is created; ``master`` is H(m) of the secret kept by ``put_secret``. Scripted dice
    (``--dice``, local table and tests only) list their ``faces``.
    """

    kind: DiceKind
    faces: tuple[int, ...] = ()
    commitment: str = ""
    chain_length: int = 0
    master: str = ""


@dataclass(frozen=True)
class GameRecord:
    """A game's metadata. Seats map power → person (a Discord id, an e-mail, a local name)."""

    id: str
    edition: str
    options: tuple[str, ...]
    channel: str
    owner: str
    status: GameStatus
    dice: DiceSpec
    seats: Mapping[str, str] = field(default_factory=dict)
    entropy: Mapping[str, str] = field(default_factory=dict)
    position: dict[str, Any] | None = None
    guild: str = ""  # the server (Discord guild id) the channel belongs to; "" at the table


@dataclass(frozen=True)
class OrderRecord:
    """One accepted order and the events it appended: ``first_seq`` .. ``first_seq+count-1``."""

    index: int
    person: str
    power: str
    text: str
    first_seq: int
    count: int
    dice_used: int = 0

    @property
    def end_seq(self) -> int:
        return self.first_seq + self.count


@dataclass(frozen=True)
class ImportedOrder:
    """One order of an imported game, with the events it appended (``import_game``)."""

    person: str
    power: str
    text: str
    events: tuple[ev.Event, ...]
    dice_used: int = 0


@dataclass(frozen=True)
class StoredEvent:
    """An event with its place in the log and the order that caused it."""

    seq: int
    order: int
    event: ev.Event
    hash: str = ""  # the log's hash after this event (``db.sql_core.next_hash``): the head it makes


def head_of(game_id: str, events: Sequence[StoredEvent]) -> str:
    """The log's head hash after ``events`` (the game id for an empty log): what a writer read,
    and names when it writes (compare-and-set on the exact head, with the event count)."""
    return events[-1].hash if events else game_id


@dataclass(frozen=True)
class DeadlineRecord:
    """A game's deadline: when the current wait ends and what the referee does then.

    ``every`` (seconds) re-arms it for each new wait (``service.waits.arm_deadline``);
    ``armed_for`` names the waits it was armed for (a hash, '' when set by hand);
    ``paused_at`` is set while it is paused (resuming shifts ``due_at`` by the time paused).
    """

    game_id: str
    due_at: datetime
    every: int | None = None
    action: DeadlineAction = "remind"
    paused_at: datetime | None = None
    armed_for: str = ""

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


# A menu claimed but never posted (its poster died in between) is posted anew after this long.
MENU_CLAIM_STALE = timedelta(minutes=2)


@dataclass(frozen=True)
class MenuRecord:
    """A decision menu posted in Discord (``cogs._views``), kept so that a restarted bot, a retry
    or a second bot process finds it: one row per (game, decision ``key``).

    A row is first *claimed* (``message_id`` empty) by the process that will post it; the
    message id is set once it is posted; ``closed_at`` once the menu was edited to show the
    answer (the decision is no longer owed).
    """

    game_id: str
    key: str
    channel: str
    message_id: str | None = None
    claimed_by: str = ""
    claimed_at: datetime | None = None
    closed_at: datetime | None = None

    @property
    def open(self) -> bool:
        return self.closed_at is None
NotifyHow = Literal["channel", "dm", "both"]
NOTIFY_HOWS: tuple[NotifyHow, ...] = ("channel", "dm", "both")


@dataclass(frozen=True)
class NotifyPrefRecord:
    """How a person is told that a game waits for them; ``game_id`` '' is their default.

    Quiet hours are minutes after midnight in ``tz`` (an IANA name or a UTC offset such as
    ``+02:00``); ``quiet_from`` > ``quiet_to`` spans midnight.
    """

    person: str
    game_id: str = ""
    how: NotifyHow = "channel"
    quiet_from: int | None = None
    quiet_to: int | None = None
    tz: str = "UTC"


@dataclass(frozen=True)
class VacationRecord:
    """A person's declared absence, from ``starts_at`` until ``ends_at``."""

    person: str
    starts_at: datetime
    ends_at: datetime


EditStatus = Literal["pending", "applied", "rejected"]


@dataclass(frozen=True)
class EditProposal:
    """A game-master edit waiting for (or given) the other side's consent (``service.edits``).

    ``number`` counts a game's proposals from 1; ``text`` is the edit's canonical line
    (``rules.edits.format_edit``); ``seq`` the game's event count when it was proposed;
    ``decided_by`` who confirmed or rejected it."""

    game_id: str
    number: int
    proposer: str
    text: str
    seq: int
    status: EditStatus = "pending"
    decided_by: str | None = None


class EditDecided(StoreError):
    """The proposal was already applied or rejected; ``proposal`` says how (nothing written)."""

    def __init__(self, proposal: EditProposal) -> None:
        self.proposal = proposal
        how = "applied" if proposal.status == "applied" else "rejected"
        by = f" by {proposal.decided_by}" if proposal.decided_by else ""
        verb = "confirmed" if proposal.status == "applied" else "rejected"
        super().__init__(f"Edit #{proposal.number} was already {how} ({verb}{by}).")


class CorruptGame(StoreError):
    """The stored log of a game fails its checks: a row was edited, removed or reordered (the
    hash chain breaks), or the log no longer reaches a head the referee published to the players
    (its end was cut, or it was rewritten and rehashed).

    ``seq`` is the 0-based sequence number of the first bad event (as in ``StoredEvent.seq``):
    the log is trusted up to it. The game refuses orders until its owner repairs it
    (``GameService.resolve_corruption``: ``game repair truncate|reseal``, ``/admin repair``).
    ``what`` replaces the default description of the damage; ``owner`` names who may repair.
    """

    def __init__(
        self, game_id: str, seq: int, why: str = "", *, what: str = "", owner: str = ""
    ) -> None:
        self.game_id = game_id
        self.seq = seq
        self.why = why
        self.what = what
        self.owner = owner
        detail = f" ({why})" if why else ""
        damage = what or (
            f"stored event #{seq + 1} (seq {seq}) does not match the log's hash chain{detail}"
        )
        who = f"the game's owner ({owner})" if owner else "the game's owner"
        super().__init__(
            f"Game {game_id} is corrupt: {damage}. No orders until {who} repairs it: "
            f"'game repair truncate' cuts the log before event #{seq + 1} (the orders from "
            "there on are given again), 'game repair reseal' accepts the stored events as they "
            "are."
        )

    def with_owner(self, owner: str) -> CorruptGame:
        """The same report, naming the owner who may repair it."""
        return CorruptGame(self.game_id, self.seq, self.why, what=self.what, owner=owner)


# --- mail (the e-mail front end, issue 17) ---------------------------------------------------
MAIL_KEY_MAX = 300  # characters of a key ``mail_seen`` keeps as it is
MAIL_ADDRESS_MAX = 320  # characters of an address (RFC 5321: 64 + "@" + 255)


def mail_key(key: str) -> str:
    """The key ``mail_seen`` keeps for ``key``: itself when it is at most ``MAIL_KEY_MAX``
    printable ASCII characters (a Message-ID), else ``sha256:`` and its hash, so that a mail
    with any Message-ID at all, however long or strange, is still recorded, and once."""
    if len(key) <= MAIL_KEY_MAX and key.isascii() and key.isprintable():
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def mail_address(address: str) -> str:
    """``address`` if a store can keep it; else ``UnstorableText`` (a control character, more
    than ``MAIL_ADDRESS_MAX`` characters), the same in every store."""
    why = problem(address, MAIL_ADDRESS_MAX)
    if why is not None:
        raise UnstorableText(refusal("address", why))
    return address


@dataclass(frozen=True)
class MailOffer:
    """A seat offered by mail to ``address`` (``power`` of ``game_id``), kept until the reply
    that carries ``code`` takes it (``EventStore.mail_take_offer``)."""

    code: str
    game_id: str
    power: str
    address: str
    created_at: datetime


__all__ = [
    "DEADLINE_ACTIONS",
    "ENDED",
    "MAIL_ADDRESS_MAX",
    "MAIL_KEY_MAX",
    "MENU_CLAIM_STALE",
    "NOTIFY_HOWS",
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
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "ImportedOrder",
    "MailOffer",
    "MenuRecord",
    "NotifyHow",
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
    "status_moved",
    "undo_moved",
]
