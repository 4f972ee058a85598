"""The e-mail gateway: mails in, through the one service, reports and answers out.

A thin front end like the cogs and the local table (DESIGN §1): it reads a mail, decides *who*
sent it and *which game* it is for, and hands its lines to the service's batch entry
(``service.batch.run_batch``), exactly as Discord's ``/orders`` does. No rule is decided here.

Who may act (issue 17, item 2). A mail's ``From`` alone is never trusted:

- the mail passes the sender checks the receiving side can make (DKIM, SPF, DMARC through
  ``mail.auth``; a failing check is refused with its reason);
- a seat is bound to an address only by a reply to a confirmation mail sent to that address
  (``join Germany`` → a code → the reply carrying it takes the seat);
- every mail that acts for a seat (or for a game's owner) carries the seat's current secret
  token (``mail.tokens``), sent privately and changed at the start of each of its turns;
- a Message-ID already seen (a replay, a duplicate, a second poller) is refused, recorded in
  the store so that every process agrees (``EventStore.mail_seen``); each address may send
  ``rate_per_hour`` mails an hour, and mails over it are dropped after one notice.

Which game: the plus tag of the address it was sent to (``umpire+g12@example.org``), else a
``[g12]``/``[Umpire g12]`` tag in the subject. Without one, a mail may create a game
(``game new 1941``) or ask for help.

Replies: a private answer to every mail (every line with its result, like the e-mail Diplomacy
judges' echo); the group's report (``report``) after every change, whoever made it, to every
mail player of the game, with the map after a phase change and battle boards after battles.
``tick`` (the gateway's loop) sends what is owed: reports of changes made elsewhere, new
tokens, reminders and late notices, and, for games played only by mail, the deadline's action.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from mail import report as rp
from mail import tokens as tk
from mail.auth import AuthVerdict
from mail.message import (
    MAX_MAIL_BYTES,
    InMail,
    body_lines,
    parse_mail,
    plus_tag,
    subject_tag,
)
from mail.transport import OutMail, Received
from rules.engine import resolve_edition
from rules.state import GameState
from service import waits as wt
from service.batch import run_batch
from service.core import GameInfo, ServiceError, head_line, resolve_power
from service.games import GameService
from service.relay import Changes, changes_since
from service.store import DeadlineRecord, MailOffer

log = logging.getLogger(__name__)

READER = "mail"  # the report cursor's reader name (service.relay)
READ_ONLY = ("help", "status", "history", "odds", "dice verify", "game map", "map", "games")
# Read-only too: the answer goes to the sender, whose own seats' links it gives ('game link
# revoke' changes the links: it acts, with the token).
READ_EXACT = ("game link",)
_CONFIRM = re.compile(r"\bconfirm\s*:?\s*([A-Z0-9]{8})\b", re.IGNORECASE)
_CODE = re.compile(r"\bcode\s*:?\s*([A-Z0-9]{8})\b", re.IGNORECASE)
_JOIN = re.compile(r"^(?:game\s+)?join\s+(.+?)\s*$", re.IGNORECASE)
_NEW = re.compile(r"^(?:game\s+new|new\s+game)\b(.*)$", re.IGNORECASE)
# What a late notice says happens at the deadline, by the deadline's action.
LATE = {
    "remind": "the referee only reminds; the game waits for your orders",
    "defaults": "the referee gives the default answer to each battle decision you owe (the "
                "report follows); a phase waits for your orders",
    "end": "the referee gives the default answers and ends the phase for you; the report "
           "follows",
}
_AUTOMATIC = ("mailer-daemon@", "postmaster@", "noreply@", "no-reply@")


def owner_token_text(game_id: str, token: str) -> str:
    """The owner's token on a short line of its own (easy to copy, whatever the encoding)."""
    return f"Your owner's token for game {game_id}:\n\n    {token}\n"


class Outbox(Protocol):
    """Where the gateway's mails go (``mail.transport.SmtpSender``)."""

    async def send(self, out: OutMail) -> str: ...


Authenticate = Callable[[Received, InMail], AuthVerdict]


@dataclass(frozen=True)
class GatewayConfig:
    """The gateway's settings (``settings.Settings`` builds it: ``mail.run``)."""

    address: str  # the referee's address; a game's is its plus address
    rate_per_hour: int = 30
    offer_ttl: timedelta = timedelta(days=2)
    images: bool = True  # maps and battle boards attached to reports


@dataclass
class MailGateway:
    """The gateway over a ``GameService`` and an ``Outbox`` (see the module's docstring)."""

    service: GameService
    outbox: Outbox
    config: GatewayConfig
    authenticate: Authenticate
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    process_id: str = "mail"
    # Called after the gateway changed a game (the Discord bot, in the same process, posts
    # what mail players did and the menus and waits that follow at once; else its loop does).
    after_change: Callable[[GameInfo], Awaitable[None]] | None = None
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict, init=False, repr=False)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False, repr=False)

    @property
    def base(self) -> str:
        return self.config.address.lower()

    # --- in ---------------------------------------------------------------------------------
    async def receive(self, received: Received) -> None:
        """Handle one received mail. Bad mail is answered, never raised; an error of the
        store or the outbox raises, so the transport does not acknowledge the mail and it
        comes again (its Message-ID is then known: it is answered as a duplicate only if the
        first pass got as far as acting on it)."""
        mail = parse_mail(received.raw)
        if not mail.sender:
            log.info("mail %s without a usable From: dropped", mail.key)
            return
        if self._automatic(mail, received):
            log.info("automatic mail from %s dropped (no answer to avoid loops)", mail.sender)
            return
        now = self.clock()
        game_id = self._game_tag(mail, received)
        store = self.service.store
        # The checks wait on DNS and verify RSA signatures: off the event loop. A mail over the
        # size limit is not checked (only its headers were read; it is refused anyway).
        verdict = (None if mail.size > MAX_MAIL_BYTES
                   else await asyncio.to_thread(self.authenticate, received, mail))
        # A mail that fails the sender checks is kept under its own hash, not its Message-ID:
        # a forged or altered copy must not make the genuine mail look like a duplicate.
        ok = verdict is not None and verdict.ok
        key = mail.key if ok else f"unverified:{hashlib.sha256(received.raw).hexdigest()}"
        recent = await store.mail_received_since(mail.sender, now - timedelta(hours=1))
        first = await store.mail_seen(key, mail.sender, game_id or "", now)
        if recent >= self.config.rate_per_hour:
            if recent == self.config.rate_per_hour and first:
                await self._answer(mail, game_id, "Too many mails",
                                   f"More than {self.config.rate_per_hour} mails from this "
                                   "address within an hour: the referee reads no more of them "
                                   "for now. Wait an hour, then send your orders in one mail.")
            return
        if not first:
            await self._answer(mail, game_id, "Already received",
                               f"This mail ({mail.message_id or 'the same text'}) was received "
                               "before and was handled then; it is not applied again. To give "
                               "more orders, write a new mail.")
            return
        if verdict is None:
            await self._answer(mail, game_id, "Refused: too large",
                               " ".join(mail.problems) or "This mail is too large to read.")
            return
        if not verdict.ok:
            await self._answer(mail, game_id, "Refused: sender not verified",
                               f"{verdict.reason} Nothing was done.")
            return
        try:
            await self._handle(mail, game_id)
        except BaseException:
            # Not handled: the transport does not acknowledge it, and the retry must not be
            # taken for a duplicate.
            await store.mail_forget(key)
            raise

    async def _handle(self, mail: InMail, game_id: str | None) -> None:
        if mail.text is None:
            if mail.html_only:
                why = ("This mail has only an HTML part; the referee reads plain text. Switch "
                       "your mail program to plain text (in Gmail: the three dots, 'Plain text "
                       "mode'; in Outlook: Format Text, 'Plain Text') and send it again.")
            else:
                why = " ".join(mail.problems) or "This mail has no text part to read."
            await self._answer(mail, game_id, "Refused: no plain text", why)
            return
        if game_id is None:
            await self._no_game(mail)
            return
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:  # one mail of a game at a time in this process (others: the store)
            await self._for_game(mail, game_id)

    def _automatic(self, mail: InMail, received: Received) -> bool:
        """A mail no one typed (a bounce, an auto-reply, a list) or our own: never answered."""
        sender = mail.sender
        if sender == self.base or plus_tag(sender, self.base) is not None:
            return True
        if sender.startswith(_AUTOMATIC) or (received.mail_from == "" and received.via == "smtp"):
            return True
        raw_head = received.raw[:8000].lower()
        if b"\nauto-submitted:" in raw_head and b"\nauto-submitted: no" not in raw_head:
            return True
        return any(f"\nprecedence: {p}".encode() in raw_head for p in ("bulk", "junk", "list"))

    def _game_tag(self, mail: InMail, received: Received) -> str | None:
        for rcpt in (*received.rcpt_tos, *mail.recipients):
            tag = plus_tag(rcpt.lower(), self.base)
            if tag:
                return tag
        return subject_tag(mail.subject)

    async def _answer(self, mail: InMail, game_id: str | None, title: str, text: str) -> None:
        quoted = f"Your mail: {mail.subject or '(no subject)'}"
        out = rp.private(mail.sender, game_id, self.base, title, f"{text}\n\n{quoted}",
                         answering=mail.message_id)
        await self.outbox.send(out)

    # --- a mail without a game ----------------------------------------------------------------
    async def _no_game(self, mail: InMail) -> None:
        lines, _ = body_lines(mail.text or "")
        first = next((ln.strip() for ln in lines if ln.strip()), "")
        m = _NEW.match(first) or _NEW.match(mail.subject.strip())
        if m:
            await self._new_game(mail, f"game new{m.group(1)}")
            return
        if first.lower() == "help" or mail.subject.strip().lower() == "help":
            await self._answer(mail, None, "Help", self._help())
            return
        await self._answer(
            mail, None, "Which game?",
            "This mail names no game. Write to the game's own address "
            f"({rp.game_address(self.base, 'g12')} for game g12) or put its id in the "
            "subject ('[g12] orders'). To start a new game, send 'game new 1941' (or classic, "
            f"europe1940) to {self.base}; 'help' explains the rest.")

    async def _new_game(self, mail: InMail, line: str) -> None:
        channel = f"mail:{secrets.token_hex(6)}"
        r = await self.service.handle(channel, mail.sender, line)
        if not r.ok or r.game is None:
            await self._answer(mail, None, "Refused: game new", r.error or "Refused.")
            return
        gid = r.game.id
        key = await self._key(gid)
        owner = tk.token(key, gid, tk.OWNER, mail.sender, 0)
        text = (
            f"{r.answer}\n\nGame {gid} is yours (its owner). Its address is "
            f"{rp.game_address(self.base, gid)}: players join it by sending 'join <power>' "
            "there; each gets a mail to confirm. You start it with 'game start' once the "
            "seats are taken.\n\n"
            f"{owner_token_text(gid, owner)}\nEvery mail you send to act for the game carries it "
            "on a line of its own ('token ...'); keep it to yourself.")
        try:  # the game exists: a retry must not create a second one
            await self._answer(mail, gid, f"Game {gid} created", text)
        except Exception:
            log.exception("telling the owner of the new game %s failed", gid)

    # --- a mail for a game --------------------------------------------------------------------
    async def _for_game(self, mail: InMail, game_id: str) -> None:
        try:
            info = await self.service.info(game_id)
        except ServiceError:
            await self._answer(mail, None, f"No game {game_id}",
                               f"There is no game {game_id}. Check the address or the subject "
                               "tag; 'help' to the referee's address explains how to begin.")
            return
        lines, _ = body_lines(mail.text or "")
        code = self._code(lines, mail.subject)
        if code is not None:
            await self._confirm(mail, info, code)
            return
        # The token may stand outside the 'orders' block; a quoted one (a reply) does not count.
        unquoted = [ln for ln in (mail.text or "").splitlines() if not ln.lstrip().startswith(">")]
        token, _ = tk.split_token(unquoted, mail.subject)
        lines = tk.split_token([ln for ln in lines if ln.strip()])[1]
        seats = [p for p, who in info.seats.items() if who == mail.sender]
        owner = info.owner == mail.sender
        first = lines[0].strip() if lines else ""
        m = _JOIN.match(first)
        if m and len(lines) == 1:  # the confirmation mail proves the address: no token
            await self._offer(mail, info, m.group(1))
            return
        if lines and all(ln.strip().lower().startswith(READ_ONLY)
                         or " ".join(ln.lower().split()) in READ_EXACT for ln in lines):
            await self._batch(mail, info, lines, acting=False)
            return
        if first.lower() in ("send token", "send tokens", "token", "tokens"):
            sent = await self._send_tokens(info, mail.sender, answering=mail.message_id,
                                           force=True)
            if owner:
                key = await self._key(info.id)
                value = tk.token(key, info.id, tk.OWNER, mail.sender, 0)
                await self._answer(mail, info.id, "Owner's token",
                                   owner_token_text(info.id, value))
            elif not sent:
                await self._answer(mail, info.id, "No token", "This address holds no seat.")
            return
        if not seats and not owner:
            await self._answer(
                mail, game_id, "Refused: not seated",
                f"This address ({mail.sender}) holds no seat in game {game_id}, so it cannot "
                "give its orders. To take an open seat, send one line 'join <power>' (e.g. "
                "'join Japan'); a mail to confirm follows.")
            return
        if token is None:
            await self._answer(
                mail, game_id, "Refused: no token",
                "Every mail that acts for a seat carries the seat's token on a line of its own "
                "('token ABCDE-FGHIJ'); it was sent to you privately at the start of your "
                "turn. Send 'send token' to have it sent again. Nothing was done.")
            return
        why = await self._check_token(info, mail.sender, seats, owner, token)
        if why is not None:
            await self._answer(mail, game_id, "Refused: token", f"{why} Nothing was done.")
            return
        if not lines:
            await self._answer(mail, game_id, "No orders",
                               "The mail carries your token but no orders: put one order on "
                               "each line between 'orders' and 'end orders'.")
            return
        await self._batch(mail, info, lines, acting=True)

    async def _batch(self, mail: InMail, info: GameInfo, lines: Sequence[str],
                     *, acting: bool) -> None:
        result = await run_batch(self.service, info.channel, mail.sender, "\n".join(lines))
        # From here the game has changed: a failure to tell it must not make the transport
        # deliver the mail again (it would be applied twice). The loop reports what is owed.
        try:
            title = ("Accepted" if result.ok else "Refused" if not result.accepted
                     else "Partly applied")
            # Pictures asked for ('game map') come with the answer; those of the game's
            # changes go to everyone with the group's report.
            attachments = [] if acting else [(i.name, i.png, "image/png")
                                             for i in result.images]
            await self._answer_with(mail, info.id, title, result.text(), attachments)
            if result.accepted:
                await self.report(info.id)
                info = await self.service.info(info.id)
                for person in self.mail_people(info):  # a turn that began: its token now
                    await self._send_tokens(info, person, answering="", force=False)
                await self._changed(info)
        except Exception:
            log.exception("answering a mail of game %s failed after its orders were applied; "
                          "the loop sends the report", info.id)

    async def _changed(self, info: GameInfo) -> None:
        if self.after_change is None:
            return
        try:
            await self.after_change(await self.service.info(info.id))
        except Exception:  # the order stands; the other front end catches up on its own
            log.exception("after-change hook of game %s failed", info.id)

    async def _answer_with(self, mail: InMail, game_id: str, title: str, text: str,
                           attachments: Sequence[tuple[str, bytes, str]]) -> None:
        out = rp.private(mail.sender, game_id, self.base, title,
                         f"{text}\n\nYour mail: {mail.subject or '(no subject)'}",
                         answering=mail.message_id, attachments=attachments)
        await self.outbox.send(out)

    @staticmethod
    def _code(lines: Sequence[str], subject: str) -> str | None:
        for line in lines:
            m = _CONFIRM.search(line)
            if m:
                return m.group(1).upper()
        m = _CODE.search(subject) if "confirm" in subject.lower() else None
        return m.group(1).upper() if m else None

    # --- seats: offer, confirm, tokens ------------------------------------------------------
    async def _offer(self, mail: InMail, info: GameInfo, power: str) -> None:
        if info.status != "lobby":
            await self._answer(mail, info.id, "Refused: join",
                               f"Game {info.id} has started; seats are taken before the "
                               "start (ask its owner to substitute you for a power).")
            return
        try:
            name = resolve_power(resolve_edition(info.edition).powers, power)
        except ServiceError as e:
            await self._answer(mail, info.id, "Refused: join", str(e))
            return
        holder = info.seats.get(name)
        if holder:
            await self._answer(mail, info.id, "Refused: join",
                               f"{name} is taken (by {holder}). Open seats: "
                               f"{', '.join(self._open(info)) or 'none'}.")
            return
        code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        await self.service.store.mail_offer(
            MailOffer(code=code, game_id=info.id, power=name, address=mail.sender,
                      created_at=self.clock()))
        text = (
            f"Someone asked, from this address, to take {name} in game {info.id} "
            f"({info.edition}). To confirm, reply to this mail (keep the subject), or send a "
            f"mail to {rp.game_address(self.base, info.id)} with the line\n\n"
            f"    confirm {code}\n\nIf it was not you, ignore this mail: nothing happens. The "
            f"code is good for {int(self.config.offer_ttl.total_seconds() // 3600)} hours.")
        await self._answer(mail, info.id, f"Confirm {name} (code {code})", text)

    async def _confirm(self, mail: InMail, info: GameInfo, code: str) -> None:
        offers = await self.service.store.mail_offers(info.id)
        offer = next((o for o in offers if o.code == code), None)
        if offer is None or offer.address != mail.sender:
            await self._answer(mail, info.id, "Refused: confirmation",
                               f"No seat waits for the code {code} from this address (used, "
                               "expired or sent to another address). Send 'join <power>' "
                               "again for a new code.")
            return
        if self.clock() - offer.created_at > self.config.offer_ttl:
            await self.service.store.mail_take_offer(code)
            await self._answer(mail, info.id, "Refused: confirmation",
                               f"The code {code} has expired. Send 'join {offer.power}' again.")
            return
        if await self.service.store.mail_take_offer(code) is None:
            return  # a racing copy of this reply took it
        r = await self.service.join(info.id, mail.sender, offer.power)
        if not r.ok:
            await self._answer(mail, info.id, "Refused: join", r.error or "Refused.")
            return
        info = r.game or await self.service.info(info.id)
        try:  # the seat is taken: a failure to tell it must not take it again on a retry
            await self._answer(mail, info.id, f"You hold {offer.power}", r.answer)
            await self._send_tokens(info, mail.sender, answering="", force=False)
            await self._tell_group(info, f"{mail.sender} joins as {offer.power}", r.answer,
                                   but=mail.sender)
            await self._changed(info)
        except Exception:
            log.exception("telling the seat taken in game %s failed; 'send token' resends "
                          "the token", info.id)

    async def _key(self, game_id: str) -> bytes:
        return await self.service.store.secret_once(game_id, tk.SECRET_NAME,
                                                    secrets.token_bytes(32))

    async def _state(self, info: GameInfo) -> GameState | None:
        """The game's state now (None in the lobby), whatever ``info`` was read before."""
        try:
            return await self.service.state(info.id)
        except ServiceError:
            return None

    async def _check_token(self, info: GameInfo, address: str, seats: Sequence[str],
                           owner: bool, given: str) -> str | None:
        """None if ``given`` is a current token of ``address`` here; else why not."""
        key = await self._key(info.id)
        state = await self._state(info)
        if owner and tk.same(given, tk.token(key, info.id, tk.OWNER, address, 0)):
            return None
        for power in seats:
            now = tk.epoch(state, power)
            if tk.same(given, tk.token(key, info.id, power, address, now)):
                return None
            if any(tk.same(given, tk.token(key, info.id, power, address, e))
                   for e in range(max(0, now - 3), now)):
                return (f"This token is {power}'s token of an earlier turn; a new one was sent "
                        "to you at the start of this turn. Send 'send token' to have it again.")
        return ("This token is not the current token of your seat. Check the last token mail, "
                "or send 'send token' to have it sent again.")

    async def _send_tokens(self, info: GameInfo, address: str, *, answering: str,
                           force: bool) -> int:
        """Send ``address`` the current token of each seat it holds (once per turn, unless
        ``force``: asked for again). Returns how many were sent."""
        key = await self._key(info.id)
        state = await self._state(info)
        sent = 0
        for power, who in info.seats.items():
            if who != address:
                continue
            epoch = tk.epoch(state, power)
            claim = f"mail-token:{power}:{address}:{epoch}"
            if not await self.service.store.claim(info.id, claim, self.process_id) and not force:
                continue
            value = tk.token(key, info.id, power, address, epoch)
            turn = "until your first turn" if epoch == 0 else f"for turn {epoch}"
            # The token on a short line of its own: easy to copy, whatever the encoding.
            text = (f"Your token for {power} in game {info.id}:\n\n    {value}\n\n"
                    f"It holds {turn} and through the other powers' turns after it, and "
                    "changes at the start of each of your turns. Put it on a line of its own "
                    "in every mail that gives orders ('token ...'); keep it to yourself.")
            await self.outbox.send(rp.private(address, info.id, self.base,
                                              f"Token for {power}", text, answering=answering))
            sent += 1
        return sent

    async def _tell_group(self, info: GameInfo, title: str, text: str, *, but: str = "") -> None:
        people = [p for p in self.mail_people(info) if p != but]
        if not people:
            return
        await self.outbox.send(OutMail(to=tuple(people), subject=rp.subject(info.id, title),
                                       text=text, headers=rp.thread_headers(info.id, self.base)))

    @staticmethod
    def mail_people(info: GameInfo) -> list[str]:
        """The game's mail players (seats bound to an address), and a mail owner."""
        people = sorted({who for who in info.seats.values() if "@" in who})
        if "@" in info.owner and info.owner not in people:
            people.append(info.owner)
        return people

    @staticmethod
    def _open(info: GameInfo) -> list[str]:
        return [p for p in resolve_edition(info.edition).turn_order if not info.seats.get(p)]

    def _help(self) -> str:
        from service.commands import help_text

        return (
            "Umpire referees Axis & Allies by mail.\n\n"
            f"- Start a game: send 'game new 1941' (or classic, europe1940) to {self.base}.\n"
            f"- Join game g12: send 'join Germany' to {rp.game_address(self.base, 'g12')}, "
            "then reply to the confirmation mail.\n"
            "- Give orders: your token on a line ('token ABCDE-FGHIJ'), then the orders "
            "between the lines 'orders' and 'end orders', one on each line.\n\n"
            + help_text())

    # --- out: reports, tokens, reminders ------------------------------------------------------
    async def listen(self, info: GameInfo, events: Sequence[object]) -> None:
        """A service listener (``ServiceCore.listeners``): a change made in this process by
        another front end (a Discord order) is reported to the mail players at once, not at
        the next pass of the loop."""
        if not self.mail_people(info):
            return
        task = asyncio.get_running_loop().create_task(self._report_soon(info))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _report_soon(self, info: GameInfo) -> None:
        await asyncio.sleep(0)  # after the answer that called the listener is complete
        try:
            async with self._locks.setdefault(info.id, asyncio.Lock()):
                await self.report(info.id)
                for person in self.mail_people(info):
                    await self._send_tokens(info, person, answering="", force=False)
        except Exception:
            log.exception("reporting game %s by mail failed; the loop retries", info.id)

    async def report(self, game_id: str) -> bool:
        """Tell the game's mail players what happened since the last report (one process does
        it: claimed in the store). Returns whether a report was sent."""
        store = self.service.store
        info = await self.service.info(game_id)
        people = self.mail_people(info)
        since = await store.report_cursor(game_id, READER)
        ch = await changes_since(self.service, game_id, since)
        if ch.empty:
            return False
        if not people:  # nobody to tell: the next mail player starts from here
            await store.advance_report(game_id, READER, since, ch.seq)
            return False
        claim = f"mail-report:{since}:{ch.seq}:{ch.head[:16]}"
        if not await store.claim(game_id, claim, self.process_id) and \
                not await self._take_over(game_id, claim):
            return False
        try:
            deadline = await store.get_deadline(game_id)
            head = ""
            if ch.new:
                seq, h = await self.service.publish_head(game_id, head=(ch.seq, ch.head))
                head = head_line(seq, h)
            links = self.service.web_links
            board = await links.public_link(game_id) if links is not None else ""
            text = rp.report_text(ch, base=self.base, seats=info.seats, deadline=deadline,
                                  mail_people=people, head_line=head, board=board)
            attachments = await self._images(ch) if self.config.images else []
            out = OutMail(to=tuple(people), subject=rp.subject(game_id, rp.state_subject(ch.state)),
                          text=text, headers=rp.thread_headers(game_id, self.base),
                          attachments=tuple(attachments))
            await self.outbox.send(out)
        except BaseException:
            await store.release_claim(game_id, claim)
            raise
        await store.advance_report(game_id, READER, since, ch.seq)
        return True

    async def _take_over(self, game_id: str, claim: str) -> bool:
        """Take over a report claimed by a process that died before sending it (the cursor
        did not move since, and the claim is older than ``claim_stale``): else the game's
        reports would stop there for ever."""
        held = await self.service.store.claim_holder(game_id, claim)
        if held is None or held[0] == self.process_id:
            return False
        if datetime.now(UTC) - held[1] < self.service.claim_stale:
            return False
        return await self.service.store.reclaim(game_id, claim, held[0], self.process_id)

    async def _images(self, ch: Changes) -> list[tuple[str, bytes, str]]:
        if not ch.new or ch.state is None:
            return []
        from service import images as im

        log_events = list(ch.log)
        if not im.wants_images(log_events[ch.since:]):
            return []
        try:
            drawn = await asyncio.to_thread(im.images_after, log_events, ch.new, ch.game.id,
                                            ch.state)
        except Exception:  # a picture that cannot be drawn must not stop the report
            log.exception("rendering the report's images of game %s failed", ch.game.id)
            return []
        return [(i.name, i.png, "image/png") for i in drawn]

    async def tick(self) -> int:
        """One pass over the games with mail players: reports, tokens, reminders, late notices,
        and the deadline's action where no Discord channel does it. Returns mails sent."""
        sent = 0
        for rec in await self.service.store.active_games():
            info = GameInfo.of(rec)
            if not self.mail_people(info):
                continue
            try:
                sent += await self._tick_game(info)
            except Exception:  # one game's failure must not stop the others
                log.exception("mail pass of game %s failed", info.id)
        return sent

    async def _tick_game(self, info: GameInfo) -> int:
        now = self.clock()
        store = self.service.store
        sent = 0
        await wt.arm_deadline(self.service, info.id, now)
        d = await store.get_deadline(info.id)
        waits = await wt.current_waits(self.service, info.id)
        mailed = sorted({w.person for w in waits if "@" in w.person})
        if d is not None and not d.paused and mailed:
            lead = wt.reminder_lead(d.every)
            if now >= d.due_at - lead and now < d.due_at and await store.claim_reminder(
                    info.id, "mail-before", d.due_at, self.process_id):
                sent += await self._remind(info, waits, mailed, d, late=False)
            if now >= d.due_at and await store.claim_reminder(
                    info.id, "mail-due", d.due_at, self.process_id):
                sent += await self._remind(info, waits, mailed, d, late=True)
        if not info.channel.isdigit():  # no Discord channel runs this game's deadline
            fired = await self.service.deadline_due(info.id, now)
            if (fired.data or {}).get("fired"):
                await self._changed(info)
        sent += int(await self.report(info.id))
        for person in self.mail_people(info):
            sent += await self._send_tokens(info, person, answering="", force=False)
        return sent

    async def _remind(self, info: GameInfo, waits: Sequence[wt.Wait], mailed: Sequence[str],
                      d: DeadlineRecord, *, late: bool) -> int:
        sent = 0
        due, action = d.due_at, d.action
        for person in mailed:
            theirs = ", ".join(w.label for w in waits if w.person == person)
            if late:
                what = LATE.get(action, LATE["remind"])
                text = (f"The deadline of game {info.id} ({rp.when(due)}) has passed and the "
                        f"game still waits for you: {theirs}. At this deadline {what}.")
                title = "Late: the deadline has passed"
            else:
                text = (f"Reminder: game {info.id} waits for you ({theirs}). The deadline is "
                        f"{rp.when(due)}.")
                title = "Reminder: the game waits for you"
            await self.outbox.send(rp.private(person, info.id, self.base, title, text))
            sent += 1
        return sent


async def run_loop(gateway: MailGateway, stop: asyncio.Event, *, seconds: float = 60.0,
                   tick: Callable[[], Awaitable[int]] | None = None) -> None:
    """Call ``gateway.tick`` every ``seconds`` until ``stop`` is set; a failed pass is logged."""
    step = tick or gateway.tick
    while not stop.is_set():
        try:
            await step()
        except Exception:
            log.exception("mail pass failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=seconds)


__all__ = ["READER", "Authenticate", "GatewayConfig", "MailGateway", "Outbox", "run_loop"]
