"""What a game waits for, who is told and when, and deadlines that follow the waits.

A *wait* is one thing the game needs from one person: a power's phase (``phase``) or a battle
decision (``decision``: casualties, press or retreat, submerge or strike, a mechanism's own). Its
``key`` names the game, power, person, kind, what, space, battle round, game round and phase,
so the same wait seen twice has the same key and "a wait began" means "a key appeared". Waits
are computed from the stored game (``current_waits``), never remembered in memory.

Telling people (``notices``): each new wait is announced once, claimed in the store under
``line:<key>`` (one process wins, a retry or a second bot finds the claim); each person's ping
and DM are claimed per wait (``ping:``/``dm:``) when they are delivered, so a person in their
quiet hours or on vacation gets them when those end, if the game still waits for them. The
person whose own order began the wait (a player moving from one phase to the next) is not
pinged: they are at the keyboard. A "last one" nudge goes to a person who is the only one left
of a wait shared with others (``last:``).

Deadlines (``arm_deadline``, ``GameService.deadline_due``): a deadline with a period re-arms for
every new set of waits (each phase, each decision), ``now + period``. After the deadline acted
for absent people, a new wait for those same people in the same turn (or for people on
vacation) is due at once, so the action repeats until the game waits for someone present; then
the full period starts. A new turn gives everyone the full period again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Literal

from db.records import NOTIFY_HOWS, NotifyHow, NotifyPrefRecord, VacationRecord
from rules import events as ev
from rules.engine import pending, phase_name
from rules.state import GameState
from service.core import ServiceCore, ServiceError
from service.store import DeadlineRecord, StoreError

REFEREE_NOTE = " (by the referee at the deadline)"
REMIND_BEFORE = timedelta(hours=2)  # the early reminder, this long before the deadline
MAX_VACATION = timedelta(days=60)

WaitKind = Literal["phase", "decision"]


@dataclass(frozen=True)
class Wait:
    """One thing the game waits for from one person (see the module's docstring)."""

    game_id: str
    power: str
    person: str  # the seat holder ('' for an open seat)
    kind: WaitKind
    what: str  # the decision ("casualties"...) or the phase id
    space: str | None
    battle_round: int
    round: int
    phase: str
    title: str  # what to show: "Combat Move", "casualties in Ukraine"

    @property
    def key(self) -> str:
        parts = (self.power, self.person, self.kind, self.what, self.space or "",
                 str(self.battle_round), str(self.round), self.phase)
        return "|".join(parts)

    @property
    def label(self) -> str:
        return f"{self.power}: {self.title}"


def waits_key(waits: Sequence[Wait]) -> str:
    """One short name for a set of waits (what a deadline was armed for)."""
    if not waits:
        return ""
    body = "\n".join(sorted(w.key for w in waits)).encode("utf-8")
    return hashlib.sha256(body).hexdigest()[:32]


def reminder_lead(every: int | None) -> timedelta:
    """How long before the deadline the early reminder goes (every front end): ``REMIND_BEFORE``,
    or a quarter of a shorter period ``every`` (seconds; a 1-hour deadline per wait would
    otherwise remind as soon as it is armed)."""
    if every is not None:
        return min(REMIND_BEFORE, timedelta(seconds=every) / 4)
    return REMIND_BEFORE


async def current_waits(
    service: ServiceCore, game_id: str, state: GameState | None = None
) -> list[Wait]:
    """What the game waits for now, from the stored game ([] unless it is being played).
    ``state``: its state, when the caller has it (an answer's ``Result.after``): not loaded."""
    try:
        rec = await service.store.get_game(game_id)
        if rec.status != "active":
            return []
        if state is None:
            state = await service.state(game_id)
    except (StoreError, ServiceError):  # gone, corrupt (CorruptGame) or not started
        return []
    out: list[Wait] = []
    for p in pending(state):
        person = rec.seats.get(p.power, "")
        if p.space is None:
            out.append(Wait(game_id, p.power, person, "phase", state.phase, None, 0,
                            state.round, state.phase, phase_name(state)))
        else:
            battle = state.battles.get(p.space)
            out.append(Wait(game_id, p.power, person, "decision", p.what, p.space,
                            battle.round if battle else 0, state.round, state.phase,
                            f"{p.what} in {p.space}"))
    return out


# --------------------------------------------------------------------------------------------
# Notification settings


_OFFSET = re.compile(r"^(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)
_HOURS = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*-\s*(\d{1,2})(?::(\d{2}))?$")


def zone(name: str) -> tzinfo:
    """A time zone from an IANA name (``Europe/Paris``) or a UTC offset (``+02:00``, ``UTC-5``).

    Raises ``ValueError`` with what to type instead.
    """
    text = name.strip()
    if text.casefold() in ("", "utc", "gmt", "z"):
        return UTC
    m = _OFFSET.match(text)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise ValueError(f"{name!r} is not a UTC offset: use -12:00 to +14:00.")
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(delta if m.group(1) == "+" else -delta)
    try:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            return ZoneInfo(text)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    except ImportError:  # pragma: no cover - zoneinfo is in the standard library
        pass
    raise ValueError(
        f"Unknown time zone {name!r}: give a name such as 'Europe/Paris' or an offset such as "
        "'+02:00' or 'UTC-5'."
    )


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``22-7`` or ``22:30-07:00`` → minutes after midnight; ``off`` → None."""
    t = text.strip().casefold()
    if t in ("", "off", "none", "no"):
        return None
    m = _HOURS.match(t)
    if m:
        h1, m1 = int(m.group(1)), int(m.group(2) or 0)
        h2, m2 = int(m.group(3)), int(m.group(4) or 0)
        if h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60 and (h1, m1) != (h2, m2):
            return h1 * 60 + m1, h2 * 60 + m2
    raise ValueError(
        f"Cannot read the quiet hours {text!r}: give a range of hours such as '22-7' or "
        "'22:30-07:00' (your local time), or 'off'."
    )


def quiet_text(pref: NotifyPrefRecord) -> str:
    if pref.quiet_from is None or pref.quiet_to is None:
        return "no quiet hours"
    a, b = pref.quiet_from, pref.quiet_to
    return f"quiet {a // 60:02d}:{a % 60:02d}-{b // 60:02d}:{b % 60:02d} ({pref.tz})"


def in_quiet_hours(pref: NotifyPrefRecord, now: datetime) -> bool:
    if pref.quiet_from is None or pref.quiet_to is None:
        return False
    try:
        local = now.astimezone(zone(pref.tz))
    except ValueError:
        local = now.astimezone(UTC)
    m = local.hour * 60 + local.minute
    a, b = pref.quiet_from, pref.quiet_to
    return a <= m < b if a < b else (m >= a or m < b)


def effective_prefs(
    prefs: Iterable[NotifyPrefRecord], game_id: str, persons: Iterable[str]
) -> dict[str, NotifyPrefRecord]:
    """Each person's setting for this game: the game's override, else their default."""
    found: dict[tuple[str, str], NotifyPrefRecord] = {(p.person, p.game_id): p for p in prefs}
    out: dict[str, NotifyPrefRecord] = {}
    for who in persons:
        out[who] = found.get((who, game_id)) or found.get((who, "")) or NotifyPrefRecord(who)
    return out


def how_text(how: str) -> str:
    return {
        "channel": "a mention in the game's channel",
        "dm": "a direct message",
        "both": "a mention in the game's channel and a direct message",
    }[how]


async def set_notify(
    service: ServiceCore,
    person: str,
    *,
    how: str,
    quiet: str | None = None,
    tz: str | None = None,
    game_id: str = "",
) -> str:
    """Keep how ``person`` is told (every game, or ``game_id`` only). ``ValueError`` if bad.

    ``quiet``/``tz`` left ``None`` keep what was set before.
    """
    if how not in NOTIFY_HOWS:
        raise ValueError(f"Choose how to be told: {', '.join(NOTIFY_HOWS)}.")
    mine = await service.store.notify_prefs([person])
    old = effective_prefs(mine, game_id, [person])[person]
    span = (old.quiet_from, old.quiet_to) if quiet is None else parse_quiet(quiet)
    zone_name = old.tz if tz is None else (tz.strip() or "UTC")
    zone(zone_name)  # refuse an unknown zone before anything is kept
    chosen: NotifyHow = "both" if how == "both" else "dm" if how == "dm" else "channel"
    pref = NotifyPrefRecord(
        person, game_id, chosen,
        span[0] if span else None, span[1] if span else None, zone_name,
    )
    await service.store.set_notify_pref(pref)
    where = "in this game" if game_id else "in every game (a game's own setting wins there)"
    return f"When a game waits for you, you get {how_text(chosen)} {where}; {quiet_text(pref)}."


# --------------------------------------------------------------------------------------------
# Vacations


async def set_vacation(
    service: ServiceCore, person: str, starts: datetime, ends: datetime, now: datetime
) -> VacationRecord:
    """Keep ``person``'s absence window; ``ValueError`` with what to do instead."""
    if ends <= starts:
        raise ValueError("The vacation must end after it starts.")
    if ends <= now:
        raise ValueError("That vacation is already over: give an end in the future.")
    if ends - max(starts, now) > MAX_VACATION:
        raise ValueError("A vacation lasts at most 60 days; declare a shorter one.")
    v = VacationRecord(person, starts, ends)
    await service.store.set_vacation(v, person)
    return v


async def away(
    service: ServiceCore, persons: Iterable[str], now: datetime
) -> dict[str, VacationRecord]:
    """The persons on vacation at ``now``."""
    wanted = sorted({p for p in persons if p})
    return {
        v.person: v
        for v in await service.store.vacations(wanted)
        if v.starts_at <= now < v.ends_at
    }


# --------------------------------------------------------------------------------------------
# Deadlines that follow the waits


async def timed_out(service: ServiceCore, game_id: str) -> set[str]:
    """The persons the deadline answered for in the current turn who gave no order since.

    Within a turn, an absent player stays absent until they act: each of their waits is then
    answered at once. A new turn gives everyone the full period again (a fresh chance).
    """
    events = await service.store.load_events(game_id)
    start = max((s.seq for s in events if isinstance(s.event, ev.TurnStarted)), default=0)
    out: set[str] = set()
    for o in await service.store.orders(game_id):
        if o.first_seq < start:
            continue
        if o.text.endswith(REFEREE_NOTE):
            out.add(o.person)
        else:
            out.discard(o.person)
    return out


async def covered(
    service: ServiceCore, game_id: str, waits: Sequence[Wait], now: datetime
) -> bool:
    """Whether every person awaited is absent: on vacation, or just timed out by the deadline."""
    persons = {w.person for w in waits}
    if not persons:
        return False
    absent = set(await away(service, persons, now)) | await timed_out(service, game_id)
    return persons <= absent


async def arm_deadline(
    service: ServiceCore, game_id: str, now: datetime, state: GameState | None = None
) -> DeadlineRecord | None:
    """Re-arm a deadline with a period for the waits now, if they changed since it was armed.

    A wait of absent people only (``covered``) is due at once when the action can answer
    for them (``defaults``, ``end``); any other wait gets the full period from ``now``.
    ``state``: the game's state, when the caller has it (``current_waits``).
    """
    d = await service.store.get_deadline(game_id)
    if d is None or d.paused or d.every is None:
        return d
    waits = await current_waits(service, game_id, state)
    key = waits_key(waits)
    if not waits or key == d.armed_for:
        return d
    soon = d.action != "remind" and await covered(service, game_id, waits, now)
    due = now if soon else now + timedelta(seconds=d.every)
    moved = await service.store.rearm_deadline(game_id, d.armed_for, key, due)
    return moved or await service.store.get_deadline(game_id)


# --------------------------------------------------------------------------------------------
# Notices: what to announce now


@dataclass
class Notice:
    """What a front end posts for one game now.

    ``began``: the waits that began (one line naming them all); ``ping``: the persons to
    mention with a notification in that line (or, without ``began``, in a line of held pings);
    ``dm``: the persons to tell by direct message, with their waits; ``last``: persons to nudge
    as the last one the game waits for. ``claims``: the keys to release if posting fails.
    """

    game_id: str
    began: list[Wait] = field(default_factory=list)
    ping: list[str] = field(default_factory=list)
    held: list[Wait] = field(default_factory=list)  # waits of the held pings now delivered
    dm: dict[str, list[Wait]] = field(default_factory=dict)
    last: list[Wait] = field(default_factory=list)
    quiet: list[str] = field(default_factory=list)  # awaited, but quiet or away: not pinged
    claims: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.began or self.ping or self.dm or self.last)


async def last_actor(service: ServiceCore, game_id: str) -> str:
    """Who gave the game's last order ('' if it was the referee at a deadline)."""
    last = await service.store.last_order(game_id)
    if last is None or last.text.endswith(REFEREE_NOTE):
        return ""
    return last.person


async def notices(
    service: ServiceCore, game_id: str, now: datetime, claimer: str,
    state: GameState | None = None,
) -> Notice:
    """Claim and return what to announce for ``game_id`` now (see the module's docstring).
    ``state``: the game's state, when the caller has it (``current_waits``)."""
    store = service.store
    out = Notice(game_id)
    waits = [w for w in await current_waits(service, game_id, state) if w.person]
    if not waits:
        return out
    persons = sorted({w.person for w in waits})
    prefs = effective_prefs(await store.notify_prefs(persons), game_id, persons)
    absent = await away(service, persons, now)
    actor = await last_actor(service, game_id)
    for w in waits:
        if await store.claim(game_id, f"line:{w.key}", claimer):
            out.began.append(w)
            out.claims.append(f"line:{w.key}")
    began_keys = {w.key for w in out.began}
    if len({w.person for w in out.began}) > 1:
        for w in out.began:  # a wait shared with others: its last one gets a nudge
            await store.claim(game_id, f"shared:{w.key}", claimer)
    by_person: dict[str, list[Wait]] = {}
    for w in waits:
        by_person.setdefault(w.person, []).append(w)
    for who, theirs in by_person.items():
        pref = prefs[who]
        mine_new = [w for w in theirs if w.key in began_keys]
        if mine_new and who == actor:
            # Their own order began these waits: they know; never ping them for these.
            for w in mine_new:
                for kind in ("ping", "dm"):
                    await store.claim(game_id, f"{kind}:{w.key}", claimer)
            continue
        if who in absent or in_quiet_hours(pref, now):
            out.quiet.append(who)
            continue
        if pref.how in ("channel", "both"):
            for w in theirs:
                key = f"ping:{w.key}"
                if await store.claim(game_id, key, claimer):
                    out.claims.append(key)
                    if who not in out.ping:
                        out.ping.append(who)
                    if w.key not in began_keys:
                        out.held.append(w)
        if pref.how in ("dm", "both"):
            for w in theirs:
                if await store.claim(game_id, f"dm:{w.key}", claimer):
                    out.dm.setdefault(who, []).append(w)
    if len(persons) == 1 and not out.began:
        (who,) = persons
        shared = await store.claimed(game_id, [f"shared:{w.key}" for w in waits])
        if shared and who not in absent and not in_quiet_hours(prefs[who], now):
            lone = [w for w in waits if f"shared:{w.key}" in shared]
            if await store.claim(game_id, f"last:{lone[0].key}", claimer):
                if prefs[who].how in ("channel", "both"):
                    out.last.extend(lone)
                    out.claims.append(f"last:{lone[0].key}")
                if prefs[who].how in ("dm", "both"):
                    mine = out.dm.setdefault(who, [])
                    mine.extend(w for w in lone if w not in mine)
    if out.began and all(w.person == actor for w in out.began):
        out.began = []  # only the person at the keyboard: no line to post
    return out


__all__ = [
    "REFEREE_NOTE",
    "Notice",
    "Wait",
    "arm_deadline",
    "away",
    "covered",
    "current_waits",
    "effective_prefs",
    "in_quiet_hours",
    "notices",
    "parse_quiet",
    "set_notify",
    "set_vacation",
    "timed_out",
    "waits_key",
    "zone",
]
