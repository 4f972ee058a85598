"""The in-memory store: an ``EventStore`` (``service.store``) in a dict, for the local table
and tests. It keeps the same promises as the SQL store (``db.SqlStore``) within one process: every
write to a log is a compare-and-set on its exact head, the lobby's checks are made inside the
write (docs/store.md). Gone when the process ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from db.records import (
    ENDED,
    MENU_CLAIM_STALE,
    SEATS_MOVED,
    ChannelTaken,
    DeadlineAction,
    DeadlineRecord,
    DiceSpec,
    EditDecided,
    EditProposal,
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
    VacationRecord,
    head_of,
    mail_address,
    mail_key,
    status_moved,
    undo_moved,
)
from db.sql_core import next_hash
from rules import events as ev


@dataclass
class _Game:
    record: GameRecord
    events: list[StoredEvent] = field(default_factory=list)
    orders: list[OrderRecord] = field(default_factory=list)
    next_order: int = 0  # order indexes are never reused, not even after an undo
    edits: list[EditProposal] = field(default_factory=list)
    heads: dict[int, str] = field(default_factory=dict)  # published: event count -> hash


class MemoryStore:
    """An ``EventStore`` in a dict: for the local table and tests. Gone when the process ends."""

    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}
        self._secrets: dict[tuple[str, str], bytes] = {}
        self._deadlines: dict[str, DeadlineRecord] = {}
        self._claims: dict[tuple[str, str, datetime], str] = {}
        self._votes: dict[tuple[str, str], list[str]] = {}
        self._menus: dict[tuple[str, str], MenuRecord] = {}
        self._keys: dict[tuple[str, str], str] = {}
        self._key_times: dict[tuple[str, str], datetime] = {}
        self._prefs: dict[tuple[str, str], NotifyPrefRecord] = {}
        self._vacations: dict[str, VacationRecord] = {}
        self._mail_seen: dict[str, tuple[str, datetime]] = {}  # key -> (address, at)
        self._offers: dict[str, MailOffer] = {}  # by code, in the order kept
        self._cursors: dict[tuple[str, str], int] = {}
        self._next = 1

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
        for g in self._games.values():
            if g.record.channel == channel and g.record.status not in ENDED:
                raise ChannelTaken(g.record.id, g.record.status)
        game_id = f"g{self._next}"
        self._next += 1
        record = GameRecord(
            id=game_id,
            edition=edition,
            options=options,
            channel=channel,
            owner=owner,
            status="lobby",
            dice=dice,
            position=position,
            guild=guild,
        )
        self._games[game_id] = _Game(record)
        for name, value in (secrets or {}).items():
            self._secrets[(game_id, name)] = value
        return record

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
        for other in self._games.values():
            if other.record.channel == channel and other.record.status not in ENDED:
                raise ChannelTaken(other.record.id, other.record.status)
        game_id = f"g{self._next}"
        g = _Game(GameRecord(
            id=game_id, edition=edition, options=options, channel=channel, owner=owner,
            status=status, dice=dice, seats=dict(seats), position=position, guild=guild,
        ))
        for o in orders(game_id):  # built aside, then kept at once: all or nothing
            first = len(g.events)
            g.orders.append(OrderRecord(g.next_order, o.person, o.power, o.text, first,
                                        len(o.events), o.dice_used))
            g.events.extend(StoredEvent(first + i, g.next_order, e) for i, e in enumerate(o.events))
            g.next_order += 1
        self._next += 1
        self._games[game_id] = g
        for name, value in secrets.items():
            self._secrets[(game_id, name)] = value
        return g.record

    def _game(self, game_id: str) -> _Game:
        try:
            return self._games[game_id]
        except KeyError:
            raise GameNotFound(f"No game {game_id!r}.") from None

    async def get_game(self, game_id: str) -> GameRecord:
        return self._game(game_id).record

    async def games_in_channel(self, channel: str) -> list[GameRecord]:
        return [g.record for g in self._games.values() if g.record.channel == channel]

    async def games_in_guild(self, guild: str) -> list[GameRecord]:
        return [g.record for g in self._games.values() if g.record.guild == guild]

    # No await between a check and its write: each method is atomic on the event loop.
    async def set_status(
        self, game_id: str, status: GameStatus, *, expected: GameStatus | None = None
    ) -> None:
        g = self._game(game_id)
        if expected is not None and g.record.status != expected:
            raise StateMovedOn(status_moved(g.record.status, expected))
        g.record = replace(g.record, status=status)

    async def set_seat(
        self, game_id: str, power: str, person: str | None, entropy: str = ""
    ) -> None:
        g = self._game(game_id)
        seats = dict(g.record.seats)
        phrases = dict(g.record.entropy)
        if person is None:
            seats.pop(power, None)
            phrases.pop(power, None)
        else:
            seats[power] = person
            if entropy:
                phrases[power] = entropy
        g.record = replace(g.record, seats=seats, entropy=phrases)

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
        g = self._game(game_id)
        if g.record.status not in statuses:
            raise StateMovedOn(status_moved(g.record.status, statuses[0]))
        now = g.record.seats.get(power)
        if now != holder:
            raise SeatTaken(power, now)
        held = tuple(p for p in conflicts if g.record.seats.get(p) == person)
        if held:
            raise OtherSide(person, held)
        await self.set_seat(game_id, power, person, entropy)
        return g.record

    async def free_seats(
        self, game_id: str, person: str, *, statuses: Sequence[GameStatus] = ("lobby",)
    ) -> tuple[list[str], GameRecord]:
        g = self._game(game_id)
        if g.record.status not in statuses:
            raise StateMovedOn(status_moved(g.record.status, statuses[0]))
        held = [p for p, who in g.record.seats.items() if who == person]
        for p in held:
            await self.set_seat(game_id, p, None)
        return held, g.record

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
        g = self._game(game_id)
        if len(g.events) != expected_seq or (
            head is not None and head_of(game_id, g.events) != head
        ):
            raise StateMovedOn(
                f"The game moved on (event {len(g.events)}, expected {expected_seq}); "
                "nothing was written. Look at the game again and give the order anew."
            )
        index = g.next_order
        g.next_order += 1
        order = OrderRecord(
            index=index,
            person=person,
            power=power,
            text=text,
            first_seq=expected_seq,
            count=len(events),
            dice_used=dice_used,
        )
        prev = head_of(game_id, g.events)
        for i, e in enumerate(events):
            prev = next_hash(prev, ev.event_to_json(e))
            g.events.append(StoredEvent(seq=expected_seq + i, order=index, event=e, hash=prev))
        g.orders.append(order)
        if publish:
            g.heads.setdefault(len(g.events), prev)
        if status is not None:
            g.record = replace(g.record, status=status)
        return order

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
        g = self._game(game_id)
        if g.record.status != "lobby":
            raise StateMovedOn(status_moved(g.record.status, "lobby"))
        if dict(g.record.seats) != dict(seats) or dict(g.record.entropy) != dict(entropy):
            raise StateMovedOn(SEATS_MOVED)
        return await self.append(game_id, 0, events, person=person, power="", text=text,
                                 head=game_id, status="active")

    async def load_events(self, game_id: str) -> list[StoredEvent]:
        return list(self._game(game_id).events)

    async def orders(self, game_id: str) -> list[OrderRecord]:
        return list(self._game(game_id).orders)

    async def last_order(self, game_id: str) -> OrderRecord | None:
        orders = self._game(game_id).orders
        return orders[-1] if orders else None

    async def drop_last_order(self, game_id: str, last: OrderRecord, head: str) -> OrderRecord:
        g = self._game(game_id)
        now = g.orders[-1] if g.orders else None
        if now != last or len(g.events) != last.end_seq or head_of(game_id, g.events) != head:
            raise StateMovedOn(undo_moved(len(g.events), last.end_seq))
        g.orders.pop()
        del g.events[last.first_seq :]
        g.heads = {n: h for n, h in g.heads.items() if n <= last.first_seq}
        return last

    async def publish_head(self, game_id: str, seq: int, hash: str) -> None:
        self._game(game_id).heads.setdefault(seq, hash)

    async def published_heads(self, game_id: str) -> list[tuple[int, str]]:
        return sorted(self._game(game_id).heads.items())

    async def put_secret(self, game_id: str, name: str, value: bytes) -> None:
        self._game(game_id)
        self._secrets[(game_id, name)] = value

    async def get_secret(self, game_id: str, name: str) -> bytes:
        self._game(game_id)
        try:
            return self._secrets[(game_id, name)]
        except KeyError:
            raise StoreError(f"Game {game_id} keeps no secret {name!r}.") from None

    async def set_deadline(
        self,
        game_id: str,
        due_at: datetime,
        every: int | None,
        action: DeadlineAction,
        armed_for: str = "",
    ) -> DeadlineRecord:
        self._game(game_id)
        d = DeadlineRecord(game_id, due_at, every, action, armed_for=armed_for)
        self._deadlines[game_id] = d
        return d

    async def get_deadline(self, game_id: str) -> DeadlineRecord | None:
        return self._deadlines.get(game_id)

    async def deadlines(self) -> list[DeadlineRecord]:
        return list(self._deadlines.values())

    async def pause_deadline(self, game_id: str, now: datetime) -> DeadlineRecord | None:
        d = self._deadlines.get(game_id)
        if d is not None and d.paused_at is None:
            d = self._deadlines[game_id] = replace(d, paused_at=now)
        return d

    async def resume_deadline(self, game_id: str, now: datetime) -> DeadlineRecord | None:
        d = self._deadlines.get(game_id)
        if d is not None and d.paused_at is not None:
            shift = max(now - d.paused_at, timedelta(0))
            d = self._deadlines[game_id] = replace(d, due_at=d.due_at + shift, paused_at=None)
        return d

    async def claim_reminder(
        self, game_id: str, kind: str, due_at: datetime, claimer: str
    ) -> bool:
        key = (game_id, kind, due_at)
        if key in self._claims:
            return False
        self._claims[key] = claimer
        return True

    async def cast_vote(self, game_id: str, kind: str, person: str) -> list[str]:
        self._game(game_id)
        voters = self._votes.setdefault((game_id, kind), [])
        if person not in voters:
            voters.append(person)
        return list(voters)

    async def withdraw_vote(self, game_id: str, kind: str, person: str) -> list[str]:
        self._game(game_id)
        voters = self._votes.setdefault((game_id, kind), [])
        if person in voters:
            voters.remove(person)
        return list(voters)

    async def votes(self, game_id: str, kind: str) -> list[str]:
        self._game(game_id)
        return list(self._votes.get((game_id, kind), []))
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
        self._game(game_id)
        old = self._menus.get((game_id, key))
        if old is not None and (
            old.message_id is not None
            or old.closed_at is not None
            or (old.claimed_at is not None and now - old.claimed_at < stale_after)
        ):
            return False
        self._menus[(game_id, key)] = MenuRecord(game_id, key, channel, None, claimer, now)
        return True

    async def menu_posted(self, game_id: str, key: str, message_id: str) -> None:
        m = self._menus.get((game_id, key))
        if m is not None:
            self._menus[(game_id, key)] = replace(m, message_id=message_id)

    async def release_menu(self, game_id: str, key: str, claimer: str) -> None:
        m = self._menus.get((game_id, key))
        if m is not None and m.message_id is None and m.claimed_by == claimer:
            del self._menus[(game_id, key)]

    async def menus(self, game_id: str) -> list[MenuRecord]:
        found = [m for (g, _), m in self._menus.items() if g == game_id]
        return sorted(found, key=lambda m: (m.claimed_at or datetime.min, m.key))

    async def close_menu(self, game_id: str, key: str, now: datetime) -> None:
        m = self._menus.get((game_id, key))
        if m is not None and m.closed_at is None:
            self._menus[(game_id, key)] = replace(m, closed_at=now)

    # --- game-master edits ---------------------------------------------------------------
    # No await between a check and its write: each method is atomic on the event loop.
    async def propose_edit(
        self, game_id: str, proposer: str, text: str, seq: int
    ) -> EditProposal:
        g = self._game(game_id)
        p = EditProposal(game_id, len(g.edits) + 1, proposer, text, seq)
        g.edits.append(p)
        return p

    async def get_edit(self, game_id: str, number: int) -> EditProposal:
        g = self._game(game_id)
        if not 1 <= number <= len(g.edits):
            raise StoreError(f"This game has no edit #{number}.")
        return g.edits[number - 1]

    async def edit_proposals(self, game_id: str) -> list[EditProposal]:
        return list(self._game(game_id).edits)

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
        p = await self.get_edit(game_id, number)
        if p.status != "pending":
            raise EditDecided(p)
        placed = await self.append(game_id, expected_seq, events, person=agreed, power="",
                                   text=text, head=head)
        self._game(game_id).edits[number - 1] = replace(p, status="applied", decided_by=agreed)
        return placed

    async def reject_edit(self, game_id: str, number: int, by: str) -> EditProposal:
        p = await self.get_edit(game_id, number)
        if p.status != "pending":
            raise EditDecided(p)
        p = self._game(game_id).edits[number - 1] = replace(p, status="rejected", decided_by=by)
        return p

    async def active_games(self) -> list[GameRecord]:
        return [g.record for g in self._games.values() if g.record.status == "active"]

    async def claim(self, game_id: str, key: str, claimer: str) -> bool:
        self._game(game_id)
        if (game_id, key) in self._keys:
            return False
        self._keys[(game_id, key)] = claimer
        self._key_times[(game_id, key)] = datetime.now(UTC)
        return True

    async def claim_holder(self, game_id: str, key: str) -> tuple[str, datetime] | None:
        who = self._keys.get((game_id, key))
        return None if who is None else (who, self._key_times[(game_id, key)])

    async def reclaim(self, game_id: str, key: str, was: str, claimer: str) -> bool:
        if self._keys.get((game_id, key)) != was:
            return False
        self._keys[(game_id, key)] = claimer
        self._key_times[(game_id, key)] = datetime.now(UTC)
        return True

    async def claimed(self, game_id: str, keys: Sequence[str]) -> set[str]:
        return {k for k in keys if (game_id, k) in self._keys}

    async def release_claim(self, game_id: str, key: str) -> None:
        self._keys.pop((game_id, key), None)

    async def rearm_deadline(
        self, game_id: str, was_for: str, armed_for: str, due_at: datetime
    ) -> DeadlineRecord | None:
        d = self._deadlines.get(game_id)
        if d is None or d.armed_for != was_for:
            return None
        d = self._deadlines[game_id] = replace(d, due_at=due_at, armed_for=armed_for)
        return d

    async def set_notify_pref(self, pref: NotifyPrefRecord) -> None:
        self._prefs[(pref.person, pref.game_id)] = pref

    async def notify_prefs(self, persons: Sequence[str]) -> list[NotifyPrefRecord]:
        return [p for (who, _), p in self._prefs.items() if who in persons]

    async def set_vacation(self, vacation: VacationRecord | None, person: str) -> None:
        if vacation is None:
            self._vacations.pop(person, None)
        else:
            self._vacations[person] = vacation

    async def vacations(self, persons: Sequence[str]) -> list[VacationRecord]:
        return [v for who, v in self._vacations.items() if who in persons]


    # --- mail and report cursors ---------------------------------------------------------
    # No await between a check and its write: each method is atomic on the event loop.
    async def mail_seen(self, key: str, address: str, game_id: str, now: datetime) -> bool:
        key, address = mail_key(key), mail_address(address)
        if key in self._mail_seen:
            return False
        self._mail_seen[key] = (address, now)
        return True

    async def mail_forget(self, key: str) -> None:
        self._mail_seen.pop(mail_key(key), None)

    async def mail_received_since(self, address: str, since: datetime) -> int:
        return sum(1 for who, at in self._mail_seen.values() if who == address and at >= since)

    async def mail_offer(self, offer: MailOffer) -> None:
        self._game(offer.game_id)
        mail_address(offer.address)
        old = self._offers.get(offer.code)
        if old is not None and (old.game_id, old.power, old.address) != (
            offer.game_id, offer.power, offer.address
        ):
            raise StoreError(f"The offer code {offer.code!r} is in use.")
        for code, o in list(self._offers.items()):
            if (o.game_id, o.power, o.address) == (offer.game_id, offer.power, offer.address):
                del self._offers[code]
        self._offers[offer.code] = offer

    async def mail_take_offer(self, code: str) -> MailOffer | None:
        return self._offers.pop(code, None)

    async def mail_offers(self, game_id: str) -> list[MailOffer]:
        found = [o for o in self._offers.values() if o.game_id == game_id]
        return sorted(found, key=lambda o: (o.created_at, o.code))

    async def report_cursor(self, game_id: str, reader: str) -> int:
        return self._cursors.get((game_id, reader), 0)

    async def advance_report(self, game_id: str, reader: str, old: int, new: int) -> bool:
        self._game(game_id)
        if self._cursors.get((game_id, reader), 0) != old:
            return False
        self._cursors[(game_id, reader)] = new
        return True

    async def secret_once(self, game_id: str, name: str, value: bytes) -> bytes:
        self._game(game_id)
        return self._secrets.setdefault((game_id, name), value)

__all__ = ["MemoryStore"]
