"""The mail transports against real servers and clients on loopback (no library is mocked).

SmtpSender talks to a real aiosmtpd server (STARTTLS with a certificate made here, AUTH);
a real aiosmtplib client delivers to SmtpReceiver; ImapPoller reads a private Dovecot.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import ssl
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import aiosmtplib
import pytest
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from mail.imap import ImapError, ImapPoller
from mail.transport import (
    OutMail,
    Received,
    SendFailed,
    SmtpReceiver,
    SmtpSender,
    build_message,
)
from tests.mail._dovecot import PASSWORD, USER, Dovecot, start_dovecot
from tests.mail._tls import Cert, make_cert

SENDER = "Umpire <umpire@referee.example>"


@pytest.fixture(scope="session")
def cert(tmp_path_factory: pytest.TempPathFactory) -> Cert:
    """One self-signed certificate for 127.0.0.1 per test process."""
    return make_cert(tmp_path_factory.mktemp("tls"))


# --------------------------------------------------------------------------------------------
# A real SMTP server that keeps what it receives (for SmtpSender)
# --------------------------------------------------------------------------------------------


@dataclass
class Kept:
    """What the test server received: one entry per accepted mail."""

    envelope: Envelope
    tls: bool
    authenticated: bool

    def message(self) -> EmailMessage:
        """The received bytes parsed as a mail."""
        raw = self.envelope.original_content or b""
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        return parsed


@dataclass
class Inbox:
    """The test server's handler: refuses the recipients in ``refuse``, keeps every mail."""

    refuse: set[str] = field(default_factory=set)
    kept: list[Kept] = field(default_factory=list)

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address in self.refuse:
            return "550 5.1.1 unknown user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.kept.append(Kept(envelope, session.ssl is not None, bool(session.authenticated)))
        return "250 OK"


def _authenticator(
    server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
) -> AuthResult:
    ok = isinstance(auth_data, LoginPassword) and auth_data == (b"umpire", b"s3cret")
    return AuthResult(success=ok, handled=False)  # False: aiosmtpd answers 235 or 535


@dataclass
class Server:
    """A running test server: its port and its inbox."""

    port: int
    inbox: Inbox


ServerFactory = Callable[..., Any]


@pytest.fixture
async def smtp_server() -> AsyncIterator[ServerFactory]:
    """Start aiosmtpd servers on 127.0.0.1 (port 0) in this test's loop; all closed at the end."""
    servers: list[asyncio.Server] = []
    sessions: list[SMTP] = []

    async def start(
        *, starttls: Cert | None = None, implicit_tls: Cert | None = None, auth: bool = False
    ) -> Server:
        inbox = Inbox()
        loop = asyncio.get_running_loop()

        def factory() -> SMTP:
            smtp = SMTP(
                inbox,
                hostname="mx.test",
                tls_context=starttls.server_context() if starttls else None,
                authenticator=_authenticator if auth else None,
                # Over implicit TLS aiosmtpd cannot tell the session is encrypted.
                auth_require_tls=implicit_tls is None,
                loop=loop,
            )
            sessions.append(smtp)
            return smtp

        ssl_context = implicit_tls.server_context() if implicit_tls else None
        server = await loop.create_server(factory, "127.0.0.1", 0, ssl=ssl_context)
        servers.append(server)
        return Server(server.sockets[0].getsockname()[1], inbox)

    yield start
    for server in servers:
        server.close()
    for smtp in sessions:
        if smtp.transport is not None:
            smtp.transport.close()
    for server in servers:
        await server.wait_closed()


def _free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --------------------------------------------------------------------------------------------
# build_message
# --------------------------------------------------------------------------------------------


def test_build_message_makes_a_message_id_on_the_senders_domain_and_a_date() -> None:
    msg = build_message(OutMail(to=("a@example.org",), subject="s", text="hello"), SENDER)
    assert msg["Message-ID"].endswith("@referee.example>")
    assert msg["Date"]
    assert msg.get_content_type() == "text/plain"
    assert msg.get_content_charset() == "utf-8"


def test_build_message_keeps_a_given_message_id_and_refuses_to_override_from() -> None:
    out = OutMail(to=("a@example.org",), subject="s", text="t", headers={"Message-ID": "<x@y>"})
    assert build_message(out, SENDER)["Message-ID"] == "<x@y>"
    with pytest.raises(ValueError, match="From"):
        build_message(OutMail(("a@example.org",), "s", "t", headers={"From": "x@y"}), SENDER)


# --------------------------------------------------------------------------------------------
# SmtpSender → a real aiosmtpd server
# --------------------------------------------------------------------------------------------

PNG = bytes(range(256)) * 7  # every byte value, so a lossy encoding would show


async def test_sender_over_starttls_with_auth_delivers_headers_text_and_attachment(
    smtp_server: ServerFactory, cert: Cert
) -> None:
    server = await smtp_server(starttls=cert, auth=True)
    sender = SmtpSender(
        host="127.0.0.1",
        port=server.port,
        sender=SENDER,
        username="umpire",
        password="s3cret",
        tls="starttls",
        tls_context=cert.client_context(),
    )
    text = "Runde 2: Deutschland kauft 3 Infanterie.\nÜbermorgen ist die Frist. Der Schiedsrichter\n"
    out = OutMail(
        to=("Alice <alice@players.example>", "bob@players.example"),
        subject="Spiel 7 \N{EM DASH} Runde 2",
        text=text,
        headers={
            "In-Reply-To": "<order-1@players.example>",
            "References": "<game-7@referee.example> <order-1@players.example>",
            "Reply-To": "game-7@referee.example",
        },
        attachments=(("map.png", PNG, "image/png"),),
    )
    message_id = await sender.send(out)

    [kept] = server.inbox.kept
    assert kept.tls and kept.authenticated
    assert kept.envelope.mail_from == "umpire@referee.example"
    assert kept.envelope.rcpt_tos == ["alice@players.example", "bob@players.example"]
    msg = kept.message()
    assert msg["Message-ID"] == message_id
    assert msg["Subject"] == "Spiel 7 \N{EM DASH} Runde 2"
    assert msg["From"] == SENDER
    assert msg["To"] == "Alice <alice@players.example>, bob@players.example"
    assert msg["In-Reply-To"] == "<order-1@players.example>"
    assert msg["References"] == "<game-7@referee.example> <order-1@players.example>"
    assert msg["Reply-To"] == "game-7@referee.example"
    assert msg["Date"]
    body = msg.get_body(("plain",))
    assert body is not None
    assert body.get_content().replace("\r\n", "\n") == text  # CRLF on the wire
    [attachment] = list(msg.iter_attachments())
    assert attachment.get_filename() == "map.png"
    assert attachment.get_content_type() == "image/png"
    assert attachment.get_content() == PNG


async def test_sender_over_implicit_tls(smtp_server: ServerFactory, cert: Cert) -> None:
    server = await smtp_server(implicit_tls=cert)
    sender = SmtpSender(
        host="127.0.0.1", port=server.port, sender=SENDER, tls="ssl",
        tls_context=cert.client_context(),
    )
    message_id = await sender.send(OutMail(("a@players.example",), "hi", "hello"))
    [kept] = server.inbox.kept
    assert kept.message()["Message-ID"] == message_id


async def test_sender_refuses_clear_text_when_the_server_offers_no_starttls(
    smtp_server: ServerFactory,
) -> None:
    server = await smtp_server()
    sender = SmtpSender(host="127.0.0.1", port=server.port, sender=SENDER, tls="starttls")
    with pytest.raises(SendFailed, match="does not offer STARTTLS; refusing to send in clear"):
        await sender.send(OutMail(("a@players.example",), "hi", "secret orders"))
    assert server.inbox.kept == []


async def test_sender_without_tls_on_loopback(smtp_server: ServerFactory) -> None:
    server = await smtp_server()
    sender = SmtpSender(host="127.0.0.1", port=server.port, sender=SENDER, tls="none")
    await sender.send(OutMail(("a@players.example",), "hi", "hello"))
    [kept] = server.inbox.kept
    assert not kept.tls


async def test_sender_with_a_wrong_password_says_the_login_was_refused(
    smtp_server: ServerFactory, cert: Cert
) -> None:
    server = await smtp_server(starttls=cert, auth=True)
    sender = SmtpSender(
        host="127.0.0.1", port=server.port, sender=SENDER, username="umpire", password="wrong",
        tls_context=cert.client_context(),
    )
    with pytest.raises(SendFailed, match="refused the login for 'umpire'"):
        await sender.send(OutMail(("a@players.example",), "hi", "hello"))
    assert server.inbox.kept == []


async def test_sender_sends_nothing_when_one_recipient_is_refused(
    smtp_server: ServerFactory,
) -> None:
    server = await smtp_server()
    server.inbox.refuse.add("gone@players.example")
    sender = SmtpSender(host="127.0.0.1", port=server.port, sender=SENDER, tls="none")
    out = OutMail(("a@players.example", "gone@players.example"), "hi", "hello")
    with pytest.raises(SendFailed, match=r"refused recipient\(s\): gone@players.example \(550"):
        await sender.send(out)
    assert server.inbox.kept == []


async def test_sender_says_when_it_cannot_connect() -> None:
    port = _free_port()
    sender = SmtpSender(host="127.0.0.1", port=port, sender=SENDER, tls="none", timeout=5)
    with pytest.raises(SendFailed, match=f"cannot connect to 127.0.0.1:{port}"):
        await sender.send(OutMail(("a@players.example",), "hi", "hello"))


async def test_sender_does_not_trust_an_unknown_certificate(
    smtp_server: ServerFactory, cert: Cert
) -> None:
    server = await smtp_server(starttls=cert)
    sender = SmtpSender(host="127.0.0.1", port=server.port, sender=SENDER)  # system trust only
    with pytest.raises(SendFailed, match=r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        await sender.send(OutMail(("a@players.example",), "hi", "hello"))
    assert server.inbox.kept == []


# --------------------------------------------------------------------------------------------
# A real SMTP client (aiosmtplib) → SmtpReceiver
# --------------------------------------------------------------------------------------------


@dataclass
class Gateway:
    """A stand-in gateway: keeps what it is handed; fails while ``failing`` is set."""

    got: list[Received] = field(default_factory=list)
    failing: bool = False

    async def __call__(self, received: Received) -> None:
        await asyncio.sleep(0)  # let concurrent deliveries interleave
        if self.failing:
            raise RuntimeError("database is down")
        self.got.append(received)


@pytest.fixture
async def receiver() -> AsyncIterator[Callable[..., Any]]:
    """Start SmtpReceivers on 127.0.0.1:0; stopped at the end."""
    started: list[SmtpReceiver] = []

    async def start(handler: Any, **options: Any) -> SmtpReceiver:
        smtp = SmtpReceiver(handler, port=0, **options)
        await smtp.start()
        started.append(smtp)
        return smtp

    yield start
    for smtp in started:
        await smtp.stop()


RAW = (
    b"From: alice@players.example\r\n"
    b"To: game-7@referee.example\r\n"
    b"Subject: orders\r\n"
    b"Message-ID: <o1@players.example>\r\n"
    b"\r\n"
    b"orders\r\n"
    b".a line that starts with a dot\r\n"
    b"buy 3 infantry\r\n"
    b"end orders\r\n"
)


def _client(port: int, **options: Any) -> aiosmtplib.SMTP:
    return aiosmtplib.SMTP(
        hostname="127.0.0.1", port=port, start_tls=False, local_hostname="alice.example",
        timeout=10, **options,
    )


async def test_receiver_hands_the_exact_bytes_and_envelope_to_the_handler(
    receiver: Callable[..., Any],
) -> None:
    gateway = Gateway()
    smtp = await receiver(gateway)
    async with _client(smtp.port) as client:
        errors, answer = await client.sendmail(
            "alice@players.example", ["game-7@referee.example", "game-8@referee.example"], RAW
        )
    assert errors == {} and answer.startswith("2.0.0 OK")
    [got] = gateway.got
    assert got == Received(
        raw=RAW,
        mail_from="alice@players.example",
        rcpt_tos=("game-7@referee.example", "game-8@referee.example"),
        peer_ip="127.0.0.1",
        helo="alice.example",
        via="smtp",
    )


async def test_receiver_gives_a_bounce_an_empty_sender(receiver: Callable[..., Any]) -> None:
    gateway = Gateway()
    smtp = await receiver(gateway)
    async with _client(smtp.port) as client:
        await client.sendmail("", ["game-7@referee.example"], RAW)
    [got] = gateway.got
    assert got.mail_from == ""


async def test_receiver_answers_250_only_after_the_handler_returned(
    receiver: Callable[..., Any],
) -> None:
    entered, release = asyncio.Event(), asyncio.Event()
    got: list[Received] = []

    async def slow(received: Received) -> None:
        entered.set()
        await release.wait()
        got.append(received)

    smtp = await receiver(slow)
    client = _client(smtp.port)
    async with client:
        sending = asyncio.create_task(client.sendmail("a@players.example", ["g@r.example"], RAW))
        await entered.wait()
        # The server has not answered the DATA yet, so the client cannot have finished.
        assert not sending.done()
        release.set()
        await sending
    assert len(got) == 1


async def test_receiver_answers_451_when_the_handler_fails_and_takes_the_retry(
    receiver: Callable[..., Any],
) -> None:
    gateway = Gateway(failing=True)
    smtp = await receiver(gateway)
    async with _client(smtp.port) as client:
        with pytest.raises(aiosmtplib.SMTPDataError) as refused:
            await client.sendmail("alice@players.example", ["game-7@referee.example"], RAW)
    assert refused.value.code == 451
    assert "try again later" in refused.value.message
    assert gateway.got == []

    gateway.failing = False  # the client's queue retries later
    async with _client(smtp.port) as client:
        await client.sendmail("alice@players.example", ["game-7@referee.example"], RAW)
    assert [got.raw for got in gateway.got] == [RAW]


async def test_receiver_refuses_an_unknown_recipient_with_550_at_rcpt(
    receiver: Callable[..., Any],
) -> None:
    gateway = Gateway()
    smtp = await receiver(gateway, accept=lambda rcpt: rcpt.endswith("@referee.example"))
    async with _client(smtp.port) as client:
        await client.mail("alice@players.example")
        with pytest.raises(aiosmtplib.SMTPRecipientRefused) as refused:
            await client.rcpt("someone@elsewhere.example")
        assert refused.value.code == 550
        await client.rcpt("game-7@referee.example")
        await client.data(RAW)
    [got] = gateway.got
    assert got.rcpt_tos == ("game-7@referee.example",)


async def test_receiver_refuses_a_mail_over_max_bytes_with_552(
    receiver: Callable[..., Any],
) -> None:
    gateway = Gateway()
    smtp = await receiver(gateway, max_bytes=10_000)
    huge = RAW + b"x" * 998 + b"\r\n" + (b"y" * 998 + b"\r\n") * 20
    async with _client(smtp.port) as client:
        with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
            await client.sendmail("alice@players.example", ["game-7@referee.example"], huge)
    assert refused.value.code == 552
    assert gateway.got == []


async def test_receiver_takes_20_concurrent_deliveries_each_once(
    receiver: Callable[..., Any],
) -> None:
    gateway = Gateway()
    smtp = await receiver(gateway)

    async def deliver(n: int) -> None:
        raw = RAW.replace(b"<o1@", f"<o{n}-x@".encode())
        async with _client(smtp.port) as client:
            await client.sendmail(f"p{n}@players.example", ["game-7@referee.example"], raw)

    await asyncio.gather(*(deliver(n) for n in range(20)))
    senders = sorted(got.mail_from for got in gateway.got)
    assert senders == sorted(f"p{n}@players.example" for n in range(20))
    assert len({got.raw for got in gateway.got}) == 20


async def test_receiver_offers_starttls_with_a_certificate(
    receiver: Callable[..., Any], cert: Cert
) -> None:
    gateway = Gateway()
    smtp = await receiver(gateway, tls_context=cert.server_context())
    client = aiosmtplib.SMTP(
        hostname="127.0.0.1", port=smtp.port, start_tls=True, tls_context=cert.client_context(),
        timeout=10,
    )
    async with client:
        assert client.get_transport_info("sslcontext") is not None
        await client.sendmail("alice@players.example", ["game-7@referee.example"], RAW)
    assert [got.raw for got in gateway.got] == [RAW]


async def test_receiver_port_zero_binds_a_free_port_and_stop_closes_it(
    receiver: Callable[..., Any],
) -> None:
    smtp = SmtpReceiver(Gateway(), port=0)
    await smtp.start()
    port = smtp.port
    assert port != 0
    await smtp.stop()
    with pytest.raises(aiosmtplib.SMTPConnectError):
        async with _client(port):
            pass


def test_cert_helper_makes_files(tmp_path: Path) -> None:
    made = make_cert(tmp_path)
    assert made.cert.read_bytes().startswith(b"-----BEGIN CERTIFICATE-----")
    assert isinstance(made.server_context(), ssl.SSLContext)


# --------------------------------------------------------------------------------------------
# ImapPoller against a private Dovecot
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """One private Dovecot per test process (each test gets its own folder)."""
    yield from start_dovecot()


def _mail(subject: str, *top: str) -> bytes:
    head = "".join(f"{line}\r\n" for line in top)
    return (
        f"{head}From: alice@players.example\r\nTo: game-7@referee.example\r\n"
        f"Subject: {subject}\r\nMessage-ID: <{subject}@players.example>\r\n\r\n"
        f"orders\r\nbuy 1 tank\r\nend orders\r\n"
    ).encode()


def _poller(dovecot: Dovecot, folder: str, handler: Any, **options: Any) -> ImapPoller:
    settings: dict[str, Any] = {
        "host": "127.0.0.1", "port": dovecot.port, "user": USER, "password": PASSWORD,
        "folder": folder, "tls": "none", "timeout": 10,
    }
    settings.update(options)
    return ImapPoller(handler, **settings)


async def test_poll_once_hands_each_unseen_mail_once_and_flags_it_seen(dovecot: Dovecot) -> None:
    folder = dovecot.new_folder()
    first = _mail("one", "Return-Path: <alice@players.example>", "Delivered-To: game-7@referee.example")
    dovecot.append(folder, first)
    dovecot.append(folder, _mail("two"))
    gateway = Gateway()
    poller = _poller(dovecot, folder, gateway)
    try:
        assert await poller.poll_once() == 2
        assert dovecot.seen(folder) == {b"one": True, b"two": True}
        assert await poller.poll_once() == 0
    finally:
        await poller.run(_set_event())  # a set stop: run() only logs out
    assert [got.raw for got in gateway.got] == [first, _mail("two")]
    assert gateway.got[0] == Received(
        raw=first,
        mail_from="alice@players.example",
        rcpt_tos=("game-7@referee.example",),
        peer_ip=None,
        helo=None,
        via="imap",
    )
    assert gateway.got[1].mail_from == "" and gateway.got[1].rcpt_tos == ()


async def test_poll_once_leaves_a_mail_unseen_when_the_handler_fails_and_hands_it_again(
    dovecot: Dovecot,
) -> None:
    folder = dovecot.new_folder()
    dovecot.append(folder, _mail("good"))
    dovecot.append(folder, _mail("bad"))
    tries: list[bytes] = []

    async def handler(received: Received) -> None:
        tries.append(received.raw)
        if b"Subject: bad" in received.raw and tries.count(received.raw) == 1:
            raise RuntimeError("database is down")

    poller = _poller(dovecot, folder, handler)
    try:
        assert await poller.poll_once() == 1
        assert dovecot.seen(folder) == {b"good": True, b"bad": False}
        assert await poller.poll_once() == 1
        assert dovecot.seen(folder) == {b"good": True, b"bad": True}
    finally:
        await poller.run(_set_event())
    assert tries == [_mail("good"), _mail("bad"), _mail("bad")]


async def test_poll_once_reads_a_folder_with_a_space_and_skips_deleted_mail(
    dovecot: Dovecot,
) -> None:
    folder = dovecot.new_folder("Umpire Mail ")
    dovecot.append(folder, _mail("kept"))
    dovecot.append(folder, _mail("deleted"))
    with dovecot.session() as imap:
        imap.select(f'"{folder}"')
        imap.store("2", "+FLAGS", "(\\Deleted)")
    gateway = Gateway()
    poller = _poller(dovecot, folder, gateway)
    try:
        assert await poller.poll_once() == 1
    finally:
        await poller.run(_set_event())
    assert [got.raw for got in gateway.got] == [_mail("kept")]


async def test_poll_once_over_starttls_and_over_implicit_tls(dovecot: Dovecot) -> None:
    folder = dovecot.new_folder()
    context = dovecot.cert.client_context()
    for n, (tls, port) in enumerate((("starttls", dovecot.port), ("ssl", dovecot.ssl_port))):
        dovecot.append(folder, _mail(f"tls{n}"))
        gateway = Gateway()
        poller = _poller(dovecot, folder, gateway, tls=tls, port=port, ssl_context=context)
        try:
            assert await poller.poll_once() == 1
        finally:
            await poller.run(_set_event())
        assert [got.raw for got in gateway.got] == [_mail(f"tls{n}")]


async def test_poll_once_refuses_a_certificate_it_does_not_trust(dovecot: Dovecot) -> None:
    poller = _poller(dovecot, "INBOX", Gateway(), tls="ssl", port=dovecot.ssl_port)
    with pytest.raises(ImapError, match=r"CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        await poller.poll_once()


async def test_poll_once_says_the_login_was_refused(dovecot: Dovecot) -> None:
    poller = _poller(dovecot, "INBOX", Gateway(), password="wrong")
    with pytest.raises(ImapError, match="login refused"):
        await poller.poll_once()


async def test_poll_once_says_when_it_cannot_connect() -> None:
    port = _free_port()
    poller = ImapPoller(
        Gateway(), host="127.0.0.1", port=port, user=USER, password=PASSWORD, tls="none"
    )
    with pytest.raises(ImapError, match=f"cannot connect to 127.0.0.1:{port}"):
        await poller.poll_once()


async def test_starttls_is_required_when_asked_for_and_no_password_goes_out_in_clear() -> None:
    """A server (or a man in the middle) that does not offer STARTTLS never sees LOGIN."""
    commands: list[bytes] = []
    served = asyncio.Event()

    async def plain_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] plain text only\r\n")
        while line := await reader.readline():
            tag, _, rest = line.rstrip(b"\r\n").partition(b" ")
            commands.append(rest.split(b" ")[0].upper())
            if commands[-1] == b"CAPABILITY":
                writer.write(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n")
            else:
                writer.write(tag + b" OK whatever you say\r\n")
        writer.close()
        await writer.wait_closed()
        served.set()

    server = await asyncio.start_server(plain_server, "127.0.0.1", 0)
    try:
        port = server.sockets[0].getsockname()[1]
        poller = ImapPoller(
            Gateway(), host="127.0.0.1", port=port, user=USER, password=PASSWORD, tls="starttls"
        )
        with pytest.raises(ImapError, match="does not offer STARTTLS; refusing to log in"):
            await poller.poll_once()
        await asyncio.wait_for(served.wait(), timeout=60)  # the poller hung up
    finally:
        server.close()
    assert b"LOGIN" not in commands and b"AUTHENTICATE" not in commands


class Arrivals:
    """A handler that records mails and lets a test wait for the n-th one (bounded, generous)."""

    def __init__(self) -> None:
        self.got: list[Received] = []
        self._changed = asyncio.Condition()

    async def __call__(self, received: Received) -> None:
        async with self._changed:
            self.got.append(received)
            self._changed.notify_all()

    async def wait_for(self, count: int) -> None:
        async def reached() -> None:
            async with self._changed:
                await self._changed.wait_for(lambda: len(self.got) >= count)

        await asyncio.wait_for(reached(), timeout=60)


async def test_run_wakes_from_idle_when_a_mail_arrives(dovecot: Dovecot) -> None:
    folder = dovecot.new_folder()
    dovecot.append(folder, _mail("before"))
    arrivals = Arrivals()
    # No polling to fall back on: only the server's EXISTS during IDLE can bring the second mail.
    poller = _poller(dovecot, folder, arrivals, idle=True, poll_seconds=3600, idle_seconds=1200)
    stop = asyncio.Event()
    running = asyncio.create_task(poller.run(stop))
    try:
        await arrivals.wait_for(1)
        await asyncio.to_thread(dovecot.append, folder, _mail("during"))
        await arrivals.wait_for(2)
    finally:
        stop.set()
        await asyncio.wait_for(running, timeout=60)
    assert [got.raw for got in arrivals.got] == [_mail("before"), _mail("during")]
    assert dovecot.seen(folder) == {b"before": True, b"during": True}


async def test_run_polls_without_idle(dovecot: Dovecot) -> None:
    folder = dovecot.new_folder()
    arrivals = Arrivals()
    poller = _poller(dovecot, folder, arrivals, idle=False, poll_seconds=0.05)
    stop = asyncio.Event()
    running = asyncio.create_task(poller.run(stop))
    try:
        await asyncio.to_thread(dovecot.append, folder, _mail("polled"))
        await arrivals.wait_for(1)
    finally:
        stop.set()
        await asyncio.wait_for(running, timeout=60)
    assert [got.raw for got in arrivals.got] == [_mail("polled")]


async def test_run_reconnects_after_the_server_drops_it(dovecot: Dovecot) -> None:
    folder = dovecot.new_folder()
    dovecot.append(folder, _mail("first"))
    arrivals = Arrivals()
    # IDLE re-issued every 5 s: a new-mail notice that arrives while the reconnected poller is
    # between IDLE commands (aioimaplib drops those) delays the mail by 5 s, not 10 minutes;
    # the test is about the reconnection, which alone brings the second mail.
    poller = _poller(dovecot, folder, arrivals, idle=True, poll_seconds=3600, idle_seconds=5)
    stop = asyncio.Event()
    running = asyncio.create_task(poller.run(stop))
    try:
        await arrivals.wait_for(1)
        await asyncio.to_thread(dovecot.kick)
        await asyncio.to_thread(dovecot.append, folder, _mail("after"))
        await arrivals.wait_for(2)
    finally:
        stop.set()
        await asyncio.wait_for(running, timeout=60)
    assert [got.raw for got in arrivals.got] == [_mail("first"), _mail("after")]
    assert not running.cancelled() and running.exception() is None


async def test_run_keeps_trying_while_the_server_is_unreachable_and_returns_on_stop() -> None:
    poller = ImapPoller(
        Gateway(), host="127.0.0.1", port=_free_port(), user=USER, password=PASSWORD, tls="none"
    )
    stop = asyncio.Event()
    running = asyncio.create_task(poller.run(stop))
    await asyncio.sleep(0.1)  # let it fail at least once; no assertion depends on this time
    assert not running.done()
    stop.set()
    await asyncio.wait_for(running, timeout=60)
    assert running.exception() is None


def _set_event() -> asyncio.Event:
    event = asyncio.Event()
    event.set()
    return event
