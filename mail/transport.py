"""Mail transports for the gateway: in by SMTP or IMAP, out by SMTP.

These move bytes and envelopes only; reading a mail and deciding what it means is the gateway's.
The IMAP poller lives in ``mail.imap``; the shared ``Received`` and ``Handler`` are here.
"""

from __future__ import annotations

import asyncio
import email.message
import email.utils
import logging
import ssl
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import aiosmtplib
from aiosmtpd.smtp import SMTP, Envelope, Session
from aiosmtplib.email import flatten_message

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Received:
    """One mail as it arrived, before anyone has read it."""

    raw: bytes
    mail_from: str  # the envelope sender; "" for a bounce (MAIL FROM:<>)
    rcpt_tos: tuple[str, ...]
    peer_ip: str | None  # the SMTP client's address; None when fetched over IMAP
    helo: str | None
    via: Literal["smtp", "imap"]


# The gateway's entry for one mail. Returning means the mail is taken (durably); raising means it
# is not acknowledged: the SMTP client hears 451 and tries again later, an IMAP mail stays unseen.
Handler = Callable[[Received], Awaitable[None]]


# --------------------------------------------------------------------------------------------
# In: the built-in SMTP receiver (self-hosting)
# --------------------------------------------------------------------------------------------


class _Hooks:
    """aiosmtpd handler hooks: recipients through ``accept``, the data through the gateway."""

    def __init__(self, handler: Handler, accept: Callable[[str], bool]) -> None:
        self._handler = handler
        self._accept = accept

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        """Take a recipient the gateway serves; refuse any other at once (550)."""
        try:
            wanted = self._accept(address)
        except Exception:
            log.exception("accept(%r) failed", address)
            return "451 4.3.0 Cannot check this recipient now; try again later"
        if not wanted:
            return "550 5.1.1 No such recipient here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        """Answer 250 only once the gateway has taken the mail; its failure answers 451."""
        peer: Any = session.peer
        mail_from = envelope.mail_from or ""
        received = Received(
            raw=envelope.original_content or b"",
            # aiosmtpd spells the null reverse path of a bounce as "<>".
            mail_from="" if mail_from == "<>" else mail_from,
            rcpt_tos=tuple(envelope.rcpt_tos),
            peer_ip=str(peer[0]) if isinstance(peer, tuple) and peer else None,
            helo=session.host_name,
            via="smtp",
        )
        try:
            await self._handler(received)
        except Exception:
            log.exception("the mail handler failed; answering 451 (the client will retry)")
            return "451 4.3.0 Not accepted now (local error); try again later"
        return "250 2.0.0 OK"


class SmtpReceiver:
    """The built-in SMTP receiver (aiosmtpd) for self-hosting, served in the caller's event loop.

    Not aiosmtpd's ``Controller``: that runs a second event loop in a thread, and the handler
    (the gateway, its database engine, its locks) belongs to the caller's loop. With a
    ``tls_context`` the receiver offers STARTTLS (senders that use it are not required to).
    """

    def __init__(
        self,
        handler: Handler,
        *,
        host: str = "127.0.0.1",
        port: int = 2525,
        hostname: str = "umpire",
        max_bytes: int = 1_000_000,
        accept: Callable[[str], bool] = lambda rcpt: True,
        tls_context: ssl.SSLContext | None = None,
    ) -> None:
        self._hooks = _Hooks(handler, accept)
        self._tls_context = tls_context
        self._host = host
        self._port = port
        self._hostname = hostname
        self._max_bytes = max_bytes
        self._server: asyncio.Server | None = None
        self._sessions: weakref.WeakSet[SMTP] = weakref.WeakSet()

    @property
    def port(self) -> int:
        """The bound port (the one the OS chose when asked for port 0)."""
        if self._server is None or not self._server.sockets:
            return self._port
        return int(self._server.sockets[0].getsockname()[1])

    def _session(self) -> SMTP:
        smtp = SMTP(
            self._hooks,
            hostname=self._hostname,
            data_size_limit=self._max_bytes,
            enable_SMTPUTF8=True,  # international addresses; the content stays bytes
            tls_context=self._tls_context,  # offers STARTTLS when given
            loop=asyncio.get_running_loop(),
        )
        self._sessions.add(smtp)
        return smtp

    async def start(self) -> None:
        """Listen; returns once the port is bound."""
        if self._server is not None:
            raise RuntimeError("SmtpReceiver already started")
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._session, self._host, self._port)
        log.info("SMTP receiver listening on %s:%d", self._host, self.port)

    async def stop(self) -> None:
        """Stop listening and drop open sessions (a mail not yet answered 250 is not taken)."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for smtp in list(self._sessions):
            if smtp.transport is not None:
                smtp.transport.close()
        await server.wait_closed()


# --------------------------------------------------------------------------------------------
# Out: SMTP submission (aiosmtplib)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OutMail:
    """One mail to send: plain text, optional headers (threading, Reply-To) and attachments."""

    to: tuple[str, ...]
    subject: str
    text: str
    # Message-ID, In-Reply-To, References, Reply-To... (From, To and Subject are set from above).
    headers: Mapping[str, str] = field(default_factory=dict)
    # (file name, content, MIME type such as "image/png")
    attachments: tuple[tuple[str, bytes, str], ...] = ()


class SendFailed(Exception):
    """A mail was not sent; the message says why in words an operator can act on."""


_BUILT_HEADERS = frozenset({"from", "to", "subject"})


def build_message(out: OutMail, sender: str) -> email.message.EmailMessage:
    """Build the MIME message: UTF-8 plain text, Date, a Message-ID unless given, attachments."""
    msg = email.message.EmailMessage()
    msg["From"] = sender
    msg["To"] = ", ".join(out.to)
    msg["Subject"] = out.subject
    given = {name.lower(): name for name in out.headers}
    if "date" not in given:
        msg["Date"] = email.utils.format_datetime(datetime.now(UTC))
    if "message-id" not in given:
        domain = email.utils.parseaddr(sender)[1].rpartition("@")[2] or None
        msg["Message-ID"] = email.utils.make_msgid(domain=domain)
    for name, value in out.headers.items():
        if name.lower() in _BUILT_HEADERS:
            raise ValueError(f"header {name!r} comes from OutMail's own fields, not from headers")
        msg[name] = value
    msg.set_content(out.text, charset="utf-8")
    for filename, content, mime_type in out.attachments:
        maintype, _, subtype = mime_type.partition("/")
        if not subtype:
            raise ValueError(f"attachment {filename!r}: MIME type {mime_type!r} lacks a subtype")
        msg.add_attachment(content, maintype=maintype, subtype=subtype, filename=filename)
    return msg


class SmtpSender:
    """Sends mail through an SMTP submission server (aiosmtplib), one connection per mail.

    With ``tls="starttls"`` nothing is sent unless the server offers STARTTLS: a server that
    does not (or a man in the middle that strips it) gets no password and no mail in clear text.
    A mail goes to all its recipients or to none: if the server refuses one, nothing is sent.
    """

    def __init__(
        self,
        *,
        host: str,
        port: int = 587,
        sender: str,
        username: str | None = None,
        password: str | None = None,
        tls: Literal["starttls", "ssl", "none"] = "starttls",
        timeout: float = 30.0,
        tls_context: ssl.SSLContext | None = None,
    ) -> None:
        if tls not in ("starttls", "ssl", "none"):
            raise ValueError(f"tls must be 'starttls', 'ssl' or 'none', not {tls!r}")
        self._host = host
        self._port = port
        self._sender = sender
        self._envelope_from = email.utils.parseaddr(sender)[1] or sender
        self._username = username
        self._password = password
        self._tls = tls
        self._timeout = timeout
        self._tls_context = tls_context

    @property
    def _where(self) -> str:
        return f"{self._host}:{self._port}"

    async def send(self, out: OutMail) -> str:
        """Send one mail; returns its Message-ID, raises SendFailed with the reason."""
        msg = build_message(out, self._sender)
        recipients = [address for _, address in email.utils.getaddresses(list(out.to)) if address]
        if not recipients:
            raise SendFailed("no recipient address in OutMail.to")
        client = aiosmtplib.SMTP(
            hostname=self._host,
            port=self._port,
            use_tls=self._tls == "ssl",
            start_tls=False,  # done below by hand, to refuse a server that does not offer it
            timeout=self._timeout,
            tls_context=self._tls_context,
        )
        try:
            await client.connect()
            try:
                await self._prepare(client)
                await self._transmit(client, msg, recipients)
            finally:
                try:
                    await client.quit()
                except aiosmtplib.SMTPException:
                    client.close()
        except SendFailed:
            raise
        except aiosmtplib.SMTPAuthenticationError as error:
            raise SendFailed(
                f"{self._where} refused the login for {self._username!r}: "
                f"{error.code} {error.message}"
            ) from error
        except aiosmtplib.SMTPTimeoutError as error:
            raise SendFailed(f"{self._where} timed out: {error}") from error
        except aiosmtplib.SMTPConnectError as error:
            raise SendFailed(f"cannot connect to {self._where}: {error}") from error
        except aiosmtplib.SMTPServerDisconnected as error:
            raise SendFailed(f"{self._where} closed the connection: {error}") from error
        except aiosmtplib.SMTPResponseException as error:
            raise SendFailed(f"{self._where} answered {error.code} {error.message}") from error
        except aiosmtplib.SMTPException as error:
            raise SendFailed(f"sending through {self._where} failed: {error}") from error
        except (OSError, ssl.SSLError) as error:
            raise SendFailed(f"sending through {self._where} failed: {error}") from error
        return str(msg["Message-ID"])

    async def _prepare(self, client: aiosmtplib.SMTP) -> None:
        """Say EHLO, upgrade to TLS when asked (refusing a server without it), log in."""
        await client.ehlo()
        if self._tls == "starttls":
            if not client.supports_extension("starttls"):
                raise SendFailed(
                    f"{self._where} does not offer STARTTLS; refusing to send in clear text "
                    "(tls='starttls'; use tls='ssl' for a TLS port, or tls='none' only on loopback)"
                )
            await client.starttls()
            await client.ehlo()  # RFC 3207: what the server offers is asked again over TLS
        if self._username is not None:
            if not client.supports_extension("auth"):
                raise SendFailed(f"{self._where} offers no AUTH; cannot log in as {self._username}")
            await client.login(self._username, self._password or "")

    async def _transmit(
        self, client: aiosmtplib.SMTP, msg: email.message.EmailMessage, recipients: list[str]
    ) -> None:
        """MAIL, every RCPT (all must pass, else RSET and nothing is sent), then DATA."""
        utf8 = not all(address.isascii() for address in [self._envelope_from, *recipients])
        if utf8 and not client.supports_extension("smtputf8"):
            raise SendFailed(f"{self._where} cannot take non-ASCII addresses (no SMTPUTF8)")
        options = ["SMTPUTF8"] if utf8 else []
        eight_bit = client.supports_extension("8bitmime")
        if eight_bit:
            options.append("BODY=8BITMIME")
        data = flatten_message(msg, utf8=utf8, cte_type="8bit" if eight_bit else "7bit")
        try:
            await client.mail(self._envelope_from, options=options)
        except aiosmtplib.SMTPSenderRefused as error:
            raise SendFailed(
                f"{self._where} refused the sender {error.sender}: {error.code} {error.message}"
            ) from error
        refused: list[str] = []
        for address in recipients:
            try:
                await client.rcpt(address)
            except aiosmtplib.SMTPRecipientRefused as error:
                refused.append(f"{error.recipient} ({error.code} {error.message})")
        if refused:
            await client.rset()
            raise SendFailed(f"{self._where} refused recipient(s): {', '.join(refused)}; not sent")
        await client.data(data)
