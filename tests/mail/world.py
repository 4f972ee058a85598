"""The world around the mail gateway in tests: real SMTP on loopback both ways.

- ``Catcher``: the outgoing relay, a real aiosmtpd server on 127.0.0.1 that keeps every mail
  the referee sends (the gateway's ``SmtpSender`` delivers to it over SMTP).
- The gateway's own ``SmtpReceiver`` on 127.0.0.1; players deliver to it with a real SMTP
  client (aiosmtplib). The receiver answers 250 only once the gateway has handled the mail,
  so when ``World.mail`` returns, every answer is in the catcher.
- A real SQLite file under the test's tmp directory for the games.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

import aiosmtplib
from aiosmtpd.smtp import SMTP as SMTPServer

from db.repo import open_store
from mail.auth import AuthVerdict, check_auth
from mail.gateway import GatewayConfig, MailGateway
from mail.message import InMail
from mail.transport import Received, SmtpReceiver, SmtpSender
from service.games import GameService

REFEREE = "umpire@example.org"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


class _Keep:
    def __init__(self, catcher: Catcher) -> None:
        self.catcher = catcher

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.catcher.mails.append((tuple(envelope.rcpt_tos), msg))
        return "250 OK"


@dataclass
class Catcher:
    """A real SMTP server on loopback keeping what it receives (the outside world)."""

    mails: list[tuple[tuple[str, ...], EmailMessage]] = field(default_factory=list)
    server: Any = None
    port: int = 0

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: SMTPServer(_Keep(self)),
                                               "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self.server.close()
        await self.server.wait_closed()

    def to(self, address: str) -> list[EmailMessage]:
        """The mails delivered to ``address``, oldest first."""
        return [m for rcpts, m in self.mails if address in rcpts]

    def last(self, address: str) -> EmailMessage:
        got = self.to(address)
        assert got, f"no mail to {address}; sent: {[m['Subject'] for _, m in self.mails]}"
        return got[-1]


def text(msg: EmailMessage) -> str:
    """A mail's plain-text body."""
    part = msg.get_body(("plain",))
    assert part is not None, "no plain-text part"
    return str(part.get_content()).replace("\r\n", "\n")  # type: ignore[attr-defined]


def attachments(msg: EmailMessage) -> list[tuple[str, bytes]]:
    return [(str(p.get_filename()), p.get_payload(decode=True)) for p in msg.iter_attachments()]


def plain_mail(sender: str, to: str, body: str, *, subject: str = "orders",
               message_id: str | None = None, **headers: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate()
    msg["Message-ID"] = message_id or make_msgid(domain=sender.rpartition("@")[2])
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    return msg.as_bytes()


def no_dns(name: str) -> list[str]:
    return []


@dataclass
class World:
    """A gateway over a SQLite-backed service, with its SMTP in and out on loopback."""

    service: GameService
    gateway: MailGateway
    receiver: SmtpReceiver
    catcher: Catcher
    clock: Clock
    txt: Callable[[str], list[str]]

    async def deliver(self, raw: bytes, *, mail_from: str, to: Sequence[str]) -> None:
        """A real SMTP client delivers ``raw`` to the gateway's receiver (returns on 250)."""
        await aiosmtplib.send(raw, sender=mail_from, recipients=list(to), hostname="127.0.0.1",
                              port=self.receiver.port, timeout=120)

    async def mail(self, sender: str, to: str, *lines: str, subject: str = "orders",
                   token: str | None = None, **headers: str) -> str:
        """A player's plain mail, one argument per line (``token`` first when given).
        Returns its Message-ID."""
        body = "\n".join(([f"token {token}"] if token else []) + list(lines)) + "\n"
        mid = make_msgid(domain=sender.rpartition("@")[2])
        await self.deliver(plain_mail(sender, to, body, subject=subject, message_id=mid,
                                      **headers), mail_from=sender, to=[to])
        return mid

    def last(self, address: str) -> EmailMessage:
        return self.catcher.last(address)

    def report(self, address: str) -> EmailMessage:
        """The last group report mailed to ``address`` (its subject names the game's moment)."""
        got = [m for m in self.catcher.to(address)
               if re.search(r"\] (Round \d+ ·|Game over|In the lobby)", str(m["Subject"]))]
        assert got, f"no report to {address}"
        return got[-1]

    def answer(self, address: str) -> str:
        """The last private answer to a mail of ``address``: its subject and plain text."""
        for m in reversed(self.catcher.to(address)):
            if "Your mail:" in text(m):
                return f"{m['Subject']}\n{text(m)}"
        raise AssertionError(f"no answer to {address}")

    def said(self, address: str) -> str:
        """The last mail to ``address``: its subject and plain text."""
        m = self.last(address)
        return f"{m['Subject']}\n{text(m)}"

    def token(self, address: str, power: str) -> str:
        """The newest token mailed privately to ``address`` for ``power``."""
        for m in reversed(self.catcher.to(address)):
            found = re.search(rf"Your token for {re.escape(power)} in game \S+:\s+"
                              r"([A-Z2-7]{5}-[A-Z2-7]{5})", text(m))
            if found:
                return found.group(1)
        raise AssertionError(f"no token for {power} mailed to {address}")

    def owner_token(self, address: str) -> str:
        for m in reversed(self.catcher.to(address)):
            found = re.search(r"owner's token for game \S+:\s+([A-Z2-7]{5}-[A-Z2-7]{5})", text(m))
            if found:
                return found.group(1)
        raise AssertionError(f"no owner's token mailed to {address}")

    def code(self, address: str) -> str:
        for m in reversed(self.catcher.to(address)):
            found = re.search(r"\(code ([A-Z0-9]{8})\)", str(m["Subject"]))
            if found:
                return found.group(1)
        raise AssertionError(f"no confirmation code mailed to {address}")

    async def join(self, address: str, game_id: str, *powers: str) -> None:
        """Take ``powers`` by mail: ask, then reply to each confirmation."""
        for power in powers:
            await self.mail(address, game(game_id), f"join {power}")
            confirm = self.last(address)
            assert f"Confirm {power}" in str(confirm["Subject"]), self.said(address)
            await self.mail(address, game(game_id), "Thanks!",
                            subject=f"Re: {confirm['Subject']}",
                            In_Reply_To=str(confirm["Message-ID"]))
            assert f"You hold {power}" in self.said(address) or \
                f"Token for {power}" in self.said(address), self.said(address)


def game(game_id: str) -> str:
    return f"umpire+{game_id}@example.org"


def authenticate_with(txt: Callable[[str], list[str]]) -> Callable[[Received, InMail], AuthVerdict]:
    def check(received: Received, mail: InMail) -> AuthVerdict:
        return check_auth(received.raw, mail.sender, txt=txt, peer_ip=received.peer_ip,
                          mail_from=received.mail_from or None, helo=received.helo)
    return check


async def open_world(tmp: Path, *, dice: Sequence[int] | None = None, images: bool = False,
                     txt: Callable[[str], list[str]] = no_dns, rate: int = 30,
                     service: GameService | None = None, clock: Clock | None = None,
                     **gateway: Any) -> World:
    clock = clock or Clock()
    if service is None:
        store = await open_store(f"sqlite+aiosqlite:///{(tmp / 'mail.sqlite3').as_posix()}")
        service = GameService(store=store, scripted_dice=list(dice) if dice else None,
                              allow_scripted_dice=dice is not None, clock=clock,
                              draw_secret=lambda: bytes(range(32)))
    catcher = Catcher()
    await catcher.start()
    sender = SmtpSender(host="127.0.0.1", port=catcher.port, sender=REFEREE, tls="none")
    gw = MailGateway(service=service, outbox=sender,
                     config=GatewayConfig(address=REFEREE, rate_per_hour=rate, images=images),
                     authenticate=authenticate_with(txt), clock=clock, **gateway)
    receiver = SmtpReceiver(gw.receive, host="127.0.0.1", port=0)
    await receiver.start()
    return World(service, gw, receiver, catcher, clock, txt)


async def close_world(w: World) -> None:
    await w.receiver.stop()
    await w.catcher.stop()
    close = getattr(w.service.store, "close", None)
    if close is not None:
        await close()
