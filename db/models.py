"""The tables (DESIGN §7), as SQLModel classes; the Alembic migrations in ``db/migrations`` create
exactly these (a test compares them).

- ``game``: one row per game; ``next_order`` numbers orders (never reused, not even after undo);
  every write to a game first updates this row, which serialises writers of one game.
- ``seat``: power ↔ person of a game, with the entropy phrase and a substitute.
- ``event``: the log. Primary key ``(game_id, seq)``: two writers appending at the same ``seq``
  collide on it, and the second gets ``StateMovedOn`` (optimistic concurrency). ``hash`` chains
  the log: ``hash_n = sha256(hash_{n-1} ‖ canonical_json(payload_n))``, ``hash_0`` = the game id
  (the same chain as a game export, so an export's ``log.head`` equals the last row's hash).
- ``game_order``: one row per accepted order and the range of events it appended.
- ``snapshot``: the state after ``seq`` events, so a long game loads as snapshot + tail.
- ``secret``: a game's secrets (the dice master); never exported.
- ``game_deadline``: a game's deadline (due time, renewal period, action, paused since).
- ``deadline``: the reminders and deadline actions claimed, one row per (game, kind, due_at):
  the unique key lets exactly one of several bot processes claim each (revision 0002).
- ``game.guild`` and ``game_vote`` (revision 0003): the server a game belongs to (``/game list``)
  and the votes to cancel, draw or concede, one row per (game, kind, person): a person's vote
  counts once however often or concurrently it is given.
- ``decision_menu``: the decision menus posted in Discord, one row per (game, decision key):
  the primary key lets exactly one process (or retry) post each menu; the message id is kept
  so that the menu is closed (edited to show the answer) once the decision is answered,
  after a restart too (revision 0004).
- ``edit_proposal``: game-master edits waiting for the other side's consent, and what became of
  them (``service.edits``); numbered per game (revision 0005).
- ``claim``: one row per announcement made once (a wait announced, a ping, a DM, a "last one"
  nudge, a deadline action of one wait), keyed by (game, key): the primary key lets exactly one
  process make each (revision 0006). ``game_deadline.armed_for`` is the wait it was armed for.
- ``notify_pref``: how a person is told that a game waits for them (channel mention, DM, both),
  with optional quiet hours; ``game_id`` '' is their default, a game id overrides it there.
- ``vacation``: a person's declared absence window (the deadline action covers their seats).
- ``uq_game_live_channel`` (revision 0007): a unique index on ``game.channel`` over the games
  not over (status neither finished nor cancelled): of two racing ``game new`` in one channel
  the database lets exactly one create its game.
- ``snapshot.state_hash`` and ``published_head`` (revision 0008): a snapshot's own content hash
  (a snapshot is used only if it and the log's hash at its ``seq`` both match), and every head of
  the log (event count and chain hash) the referee posted to the players: a log shorter than a
  published head, or with another hash there, is corrupt (its end was cut or rewritten).
- ``mail_seen`` (revision 0009): every mail received by the e-mail front end, one row per key
  (its Message-ID, or a hash of it): the primary key lets exactly one poller or process handle
  each mail, and refuses a replay; indexed by (address, at) for the rate limit per address.
  No foreign key: a mail may be for no game (``game_id`` '').
- ``mail_offer``: seats offered by mail, one row per confirmation code, waiting for the reply that
  carries it; a new offer of one (game, power, address) replaces the old (unique). Taking an
  offer deletes its row: of racing replies exactly one gets it.
- ``report_cursor``: how many of a game's events a front end (``reader``: 'mail', 'discord') has
  reported, one row per (game, reader), moved by compare-and-set.
  Mails seen and offers are never exported with a game (``service.transfer``), nor is a cursor.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


def _json(nullable: bool = False) -> Any:
    return Field(sa_column=sa.Column(sa.JSON, nullable=nullable))


# The games that are not over: at most one per channel (revision 0007).
LIVE = sa.text("status NOT IN ('finished', 'cancelled')")


class Game(SQLModel, table=True):
    __tablename__ = "game"
    __table_args__ = (
        sa.Index(
            "uq_game_live_channel", "channel", unique=True, sqlite_where=LIVE,
            postgresql_where=LIVE,
        ),
    )

    id: str = Field(primary_key=True, max_length=64)
    edition: str = Field(max_length=64)
    options: list[str] = _json()
    channel: str = Field(index=True, max_length=200)
    owner: str = Field(max_length=200)
    status: str = Field(max_length=16)
    dice: dict[str, Any] = _json()
    position: dict[str, Any] | None = _json(nullable=True)
    next_order: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    guild: str = Field(default="", index=True, max_length=200)
    # Event rows of the game changed or removed, counted by the database's own triggers
    # (migration 0010): a reader holding the log sees a change below its head by this alone.
    log_edits: int = 0


class Seat(SQLModel, table=True):
    __tablename__ = "seat"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    power: str = Field(primary_key=True, max_length=64)
    person: str = Field(max_length=200)
    entropy: str = ""
    substitute: str | None = Field(default=None, max_length=200)


class Event(SQLModel, table=True):
    __tablename__ = "event"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    seq: int = Field(primary_key=True)  # 0-based, as StoredEvent.seq
    order_index: int = Field(index=True)
    payload: dict[str, Any] = _json()
    hash: str = Field(max_length=64)


class GameOrder(SQLModel, table=True):
    __tablename__ = "game_order"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    index: int = Field(primary_key=True)
    person: str = Field(max_length=200)
    power: str = Field(max_length=64)
    text: str
    first_seq: int
    count: int
    dice_used: int = 0
    created_at: datetime = Field(default_factory=utcnow)


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshot"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    seq: int = Field(primary_key=True)  # the state after this many events
    hash: str = Field(max_length=64)  # the log's hash after those events: a stale one is ignored
    state: dict[str, Any] = _json()
    # sha256 of canonical_json(state) (revision 0008): an edited state is ignored, and reported
    state_hash: str = Field(default="", max_length=64)


class PublishedHead(SQLModel, table=True):
    __tablename__ = "published_head"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    seq: int = Field(primary_key=True)  # the log had this many events when it was published
    hash: str = Field(max_length=64)  # the log's hash after those events
    published_at: datetime = Field(default_factory=utcnow)


class Secret(SQLModel, table=True):
    __tablename__ = "secret"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    name: str = Field(primary_key=True, max_length=64)
    value: bytes


class GameDeadline(SQLModel, table=True):
    __tablename__ = "game_deadline"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    due_at: datetime
    every: int | None = None  # seconds; renews the deadline at each new turn
    action: str = Field(default="remind", max_length=16)
    paused_at: datetime | None = None
    armed_for: str = Field(default="", max_length=64)  # the waits (a hash) it was armed for


class Deadline(SQLModel, table=True):
    __tablename__ = "deadline"
    __table_args__ = (sa.UniqueConstraint("game_id", "kind", "due_at", name="uq_deadline_claim"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    due_at: datetime = Field(index=True)
    kind: str = Field(max_length=32)
    claimed_by: str | None = Field(default=None, max_length=200)
    claimed_at: datetime | None = None


class GameVote(SQLModel, table=True):
    __tablename__ = "game_vote"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    kind: str = Field(primary_key=True, max_length=64)  # "cancel", "draw", "concede:<side>"
    person: str = Field(primary_key=True, max_length=200)
    created_at: datetime = Field(default_factory=utcnow)


class DecisionMenu(SQLModel, table=True):
    __tablename__ = "decision_menu"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    key: str = Field(primary_key=True, max_length=200)  # cogs._views.decision_key
    channel: str = Field(max_length=200)
    message_id: str | None = Field(default=None, max_length=32)  # None: claimed, not posted yet
    claimed_by: str = Field(max_length=200)
    claimed_at: datetime
    closed_at: datetime | None = None


class EditProposalRow(SQLModel, table=True):
    __tablename__ = "edit_proposal"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    number: int = Field(primary_key=True)  # 1, 2, ... per game
    proposer: str = Field(max_length=200)
    text: str
    seq: int  # the game's event count when proposed
    status: str = Field(default="pending", max_length=16)  # pending, applied, rejected
    decided_by: str | None = Field(default=None, max_length=200)
    created_at: datetime = Field(default_factory=utcnow)
    decided_at: datetime | None = None


class Claim(SQLModel, table=True):
    __tablename__ = "claim"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    key: str = Field(primary_key=True, max_length=400)
    claimed_by: str = Field(max_length=200)
    claimed_at: datetime = Field(default_factory=utcnow)


class NotifyPref(SQLModel, table=True):
    __tablename__ = "notify_pref"

    person: str = Field(primary_key=True, max_length=200)
    game_id: str = Field(primary_key=True, max_length=64)  # '' = every game of the person
    how: str = Field(max_length=16)  # channel | dm | both
    quiet_from: int | None = None  # minutes after local midnight
    quiet_to: int | None = None
    tz: str = Field(default="UTC", max_length=64)


class Vacation(SQLModel, table=True):
    __tablename__ = "vacation"

    person: str = Field(primary_key=True, max_length=200)
    starts_at: datetime
    ends_at: datetime


class MailSeen(SQLModel, table=True):
    __tablename__ = "mail_seen"
    __table_args__ = (sa.Index("ix_mail_seen_address_at", "address", "at"),)

    key: str = Field(primary_key=True, max_length=300)  # records.mail_key of the Message-ID
    address: str = Field(max_length=320)
    game_id: str = Field(max_length=64)  # no foreign key: '' is a mail for no game
    at: datetime


class MailOfferRow(SQLModel, table=True):
    __tablename__ = "mail_offer"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "power", "address", name="uq_mail_offer_seat"),
    )

    code: str = Field(primary_key=True, max_length=200)
    game_id: str = Field(foreign_key="game.id", max_length=64)
    power: str = Field(max_length=64)
    address: str = Field(max_length=320)
    created_at: datetime


class ReportCursor(SQLModel, table=True):
    __tablename__ = "report_cursor"

    game_id: str = Field(foreign_key="game.id", primary_key=True, max_length=64)
    reader: str = Field(primary_key=True, max_length=64)  # 'mail', 'discord'
    seq: int  # the game's events reported so far


def table(model: type[SQLModel]) -> sa.Table:
    """The Core table of a model (typed)."""
    t = model.__table__  # type: ignore[attr-defined]
    assert isinstance(t, sa.Table)
    return t


GAME = table(Game)
SEAT = table(Seat)
EVENT = table(Event)
ORDER = table(GameOrder)
SNAPSHOT = table(Snapshot)
SECRET = table(Secret)
DEADLINE = table(Deadline)
GAME_DEADLINE = table(GameDeadline)
GAME_VOTE = table(GameVote)
DECISION_MENU = table(DecisionMenu)
EDIT_PROPOSAL = table(EditProposalRow)
CLAIM = table(Claim)
NOTIFY_PREF = table(NotifyPref)
VACATION = table(Vacation)
PUBLISHED_HEAD = table(PublishedHead)
MAIL_SEEN = table(MailSeen)
MAIL_OFFER = table(MailOfferRow)
REPORT_CURSOR = table(ReportCursor)
metadata = SQLModel.metadata
