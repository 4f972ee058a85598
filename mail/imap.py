"""The IMAP way in: poll a hosted mailbox (aioimaplib), waiting with IDLE where the server has it.

A mail is handed to the gateway, then flagged ``\\Seen``; a mail whose handling failed stays
unseen and is handed again on a later pass. A mail may be handed twice when the connection drops
between the handler's return and the flag: the gateway refuses a Message-ID it has seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.parser
import email.utils
import logging
import ssl
from typing import Any, Literal

import aioimaplib

from mail.transport import Handler, Received

log = logging.getLogger(__name__)

# RFC 2177: a client re-issues IDLE at least every 29 minutes, since servers may log it out after
# 30; 25 keeps a margin for slow links.
MAX_IDLE_SECONDS = 25 * 60
# aioimaplib drops an unsolicited EXISTS that comes with the answer to another command (a mail
# arriving during a pass), and the server does not repeat it when IDLE starts; such a mail waits
# for the next wake, so IDLE is re-issued more often than the maximum by default: every 2
# minutes, so such a mail waits at most that long (a pass on an idle mailbox is one SEARCH).
IDLE_SECONDS = 2 * 60
_FIRST_RETRY_SECONDS = 1.0
_LAST_RETRY_SECONDS = 300.0


class ImapError(Exception):
    """The IMAP server refused something or the connection is gone; the message says what."""


class ImapPoller:
    """Hands every unseen mail of one mailbox folder to the gateway, then flags it seen.

    ``tls`` is "ssl" (implicit TLS, port 993), "starttls" (upgrade on port 143; refuses to log in
    when the server does not offer it) or "none" (loopback tests only). ``folder`` is an ASCII
    name. ``poll_once`` and ``run`` share one connection (a lock keeps them apart).
    """

    def __init__(
        self,
        handler: Handler,
        *,
        host: str,
        port: int = 993,
        user: str,
        password: str,
        folder: str = "INBOX",
        tls: Literal["ssl", "starttls", "none"] = "ssl",
        idle: bool = True,
        poll_seconds: float = 60.0,
        ssl_context: ssl.SSLContext | None = None,
        idle_seconds: float = IDLE_SECONDS,
        timeout: float = 30.0,
    ) -> None:
        if tls not in ("ssl", "starttls", "none"):
            raise ValueError(f"tls must be 'ssl', 'starttls' or 'none', not {tls!r}")
        self._handler = handler
        self._host = host
        self._port = port
        self._user = user
        self._password = password
        self._folder = folder
        self._tls = tls
        self._idle = idle
        self._poll_seconds = poll_seconds
        self._ssl_context = ssl_context
        self._idle_seconds = min(idle_seconds, MAX_IDLE_SECONDS)
        self._timeout = timeout
        self._client: Any = None  # aioimaplib.IMAP4 once connected and the folder selected
        self._lost = asyncio.Event()
        self._lock = asyncio.Lock()
        self._failed_last_pass = False

    @property
    def _where(self) -> str:
        return f"{self._user}@{self._host}:{self._port}"

    # ----------------------------------------------------------------------------------------
    # Connection
    # ----------------------------------------------------------------------------------------

    def _context(self) -> ssl.SSLContext:
        return self._ssl_context or ssl.create_default_context()

    async def _connect(self) -> None:
        """Connect, secure the connection as configured, log in and select the folder."""
        self._lost = asyncio.Event()
        lost = self._lost

        def connection_lost(error: Exception | None) -> None:
            lost.set()

        client = aioimaplib.IMAP4(
            host=self._host,
            port=self._port,
            timeout=self._timeout,
            conn_lost_cb=connection_lost,
            ssl_context=self._context() if self._tls == "ssl" else None,
        )
        try:
            await self._open(client)
        except BaseException:
            _close(client)
            raise
        self._client = client
        log.info("IMAP connected to %s, folder %s", self._where, self._folder)

    async def _open(self, client: Any) -> None:
        try:
            await client.wait_hello_from_server()
        except (OSError, TimeoutError) as error:
            raise ImapError(f"cannot connect to {self._host}:{self._port}: {error}") from error
        if self._tls == "starttls":
            await self._starttls(client)
        response = await client.login(self._user, self._password)
        if response.result != "OK":
            raise ImapError(f"{self._where}: login refused: {_text(response)}")
        response = await client.select(aioimaplib.quoted(self._folder))
        if response.result != "OK":
            raise ImapError(f"{self._where}: cannot select {self._folder!r}: {_text(response)}")

    async def _starttls(self, client: Any) -> None:
        """Upgrade to TLS (RFC 3501 6.2.1); aioimaplib has no STARTTLS of its own."""
        protocol = client.protocol
        if "STARTTLS" not in protocol.capabilities:
            raise ImapError(
                f"{self._host}:{self._port} does not offer STARTTLS; refusing to log in "
                "in clear text (tls='starttls'; use tls='ssl' for port 993)"
            )
        command = aioimaplib.Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)
        response = await asyncio.wait_for(protocol.execute(command), self._timeout)
        if response.result != "OK":
            raise ImapError(f"{self._host}:{self._port}: STARTTLS refused: {_text(response)}")
        loop = asyncio.get_running_loop()
        protocol.transport = await loop.start_tls(
            protocol.transport, protocol, self._context(), server_hostname=self._host
        )
        # What the server offered before TLS may have been tampered with: ask again.
        await asyncio.wait_for(protocol.capability(), self._timeout)

    async def _disconnect(self) -> None:
        """Log out if still connected; never raises."""
        client, self._client = self._client, None
        if client is None:
            return
        if not self._lost.is_set():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.logout(), 5)
        _close(client)

    def _alive(self) -> Any:
        if self._client is None or self._lost.is_set():
            raise ImapError(f"{self._where}: connection lost")
        return self._client

    # ----------------------------------------------------------------------------------------
    # One pass
    # ----------------------------------------------------------------------------------------

    async def poll_once(self) -> int:
        """Hand each unseen mail to the handler, flag it seen; returns how many were handled."""
        async with self._lock:
            if self._client is None or self._lost.is_set():
                await self._disconnect()
                await self._connect()
            return await self._pass()

    async def _pass(self) -> int:
        client = self._alive()
        # A mail deleted in a mail client but not yet expunged is not an order any more.
        response = await client.uid_search("UNSEEN", "UNDELETED", charset=None)
        if response.result != "OK":
            raise ImapError(f"{self._where}: UID SEARCH UNSEEN refused: {_text(response)}")
        uids = [uid for line in response.lines[:-1] for uid in _search_uids(line)]
        handled = 0
        failed = False
        for uid in uids:
            raw = await self._fetch(uid)
            if raw is None:
                continue  # expunged meanwhile
            try:
                await self._handler(_received(raw))
            except Exception:
                log.exception("the mail handler failed on UID %s; left unseen to retry", uid)
                failed = True
                continue
            response = await self._alive().uid("store", uid, "+FLAGS.SILENT", r"(\Seen)")
            if response.result != "OK":
                raise ImapError(f"{self._where}: cannot flag UID {uid} seen: {_text(response)}")
            handled += 1
        self._failed_last_pass = failed
        return handled

    async def _fetch(self, uid: str) -> bytes | None:
        """The whole mail by UID, without setting \\Seen (BODY.PEEK); None if it is gone."""
        response = await self._alive().uid("fetch", uid, "(BODY.PEEK[])")
        if response.result != "OK":
            raise ImapError(f"{self._where}: UID FETCH {uid} refused: {_text(response)}")
        for line in response.lines:
            # aioimaplib gives a literal (the message) as a bytearray, status lines as bytes.
            if isinstance(line, bytearray):
                return bytes(line)
        return None

    # ----------------------------------------------------------------------------------------
    # The loop
    # ----------------------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Poll until ``stop`` is set: IDLE between passes when offered, reconnect after errors."""
        retry = _FIRST_RETRY_SECONDS
        try:
            while not stop.is_set():
                try:
                    async with self._lock:
                        if self._client is None or self._lost.is_set():
                            await self._disconnect()
                            await self._connect()
                        retry = _FIRST_RETRY_SECONDS
                        count = await self._pass()
                    if count:
                        log.info("IMAP: %d mail(s) handed to the gateway", count)
                        continue  # more may have come meanwhile (see IDLE_SECONDS)
                    await self._wait(stop)
                except Exception as error:  # the loop must outlive any server or network trouble
                    log.warning("IMAP %s: %s; retrying in %.0f s", self._where, error, retry)
                    await self._disconnect()
                    await _sleep_unless(stop, retry)
                    retry = min(retry * 2, _LAST_RETRY_SECONDS)
        finally:
            await self._disconnect()

    async def _wait(self, stop: asyncio.Event) -> None:
        """Until the next pass: IDLE when offered, else sleep; a failed mail is retried soon."""
        client = self._alive()
        if not (self._idle and client.has_capability("IDLE")):
            await _sleep_unless(stop, self._poll_seconds, self._lost)
            return
        seconds = self._idle_seconds
        if self._failed_last_pass:
            seconds = min(seconds, self._poll_seconds)
        await self._idle_until_news(client, stop, seconds)

    async def _idle_until_news(self, client: Any, stop: asyncio.Event, seconds: float) -> None:
        """IDLE until the server reports EXISTS (new mail), ``seconds`` pass, or ``stop``."""
        idle = await client.idle_start(timeout=seconds)
        try:
            while True:
                push = asyncio.ensure_future(client.wait_server_push(timeout=seconds + 60))
                stopped = asyncio.ensure_future(stop.wait())
                lost = asyncio.ensure_future(self._lost.wait())
                done, pending = await asyncio.wait(
                    {push, stopped, lost}, return_when=asyncio.FIRST_COMPLETED
                )
                for task in pending:
                    task.cancel()
                if push not in done:
                    break
                try:
                    lines = push.result()
                except TimeoutError:
                    break
                if lines == aioimaplib.STOP_WAIT_SERVER_PUSH:
                    break  # the IDLE timer ran out: re-issue it after a pass
                if any(b"EXISTS" in line for line in lines):
                    break
        finally:
            if not self._lost.is_set():
                client.idle_done()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(idle, self._timeout)
            else:
                idle.cancel()
        self._alive()  # a lost connection is an error for run() to reconnect after


def _close(client: Any) -> None:
    """Close a client's connection, if it has one."""
    transport = getattr(client.protocol, "transport", None)
    if transport is not None:
        transport.close()
    else:
        client._client_task.cancel()  # still connecting


def _text(response: Any) -> str:
    """A server's status text for an error message."""
    lines = [line for line in response.lines if isinstance(line, bytes)]
    return lines[-1].decode("utf-8", "replace") if lines else str(response.result)


def _search_uids(line: Any) -> list[str]:
    """The UIDs in a SEARCH answer line (aioimaplib strips the leading ``SEARCH``)."""
    if not isinstance(line, bytes):
        return []
    return [word for word in line.decode("ascii", "replace").split() if word.isdigit()]


def _received(raw: bytes) -> Received:
    """A mail fetched from the mailbox, with the envelope the delivering server recorded.

    The final delivery writes ``Return-Path`` (the envelope sender) and usually ``Delivered-To``
    on top of the mail: the topmost ``Return-Path`` is that server's (a sender's own is below it);
    ``rcpt_tos`` holds every ``Delivered-To``, topmost (the mailbox) first, forwarders after.
    """
    headers = email.parser.BytesHeaderParser().parsebytes(raw)
    return_path = headers.get("Return-Path")
    mail_from = email.utils.parseaddr(str(return_path))[1] if return_path else ""
    delivered = headers.get_all("Delivered-To") or []
    rcpt_tos = tuple(
        dict.fromkeys(a for _, a in email.utils.getaddresses([str(v) for v in delivered]) if a)
    )
    return Received(
        raw=raw, mail_from=mail_from, rcpt_tos=rcpt_tos, peer_ip=None, helo=None, via="imap"
    )


async def _sleep_unless(stop: asyncio.Event, seconds: float, *also: asyncio.Event) -> None:
    """Sleep ``seconds`` or until ``stop`` (or any of ``also``) is set."""
    waits = [asyncio.ensure_future(event.wait()) for event in (stop, *also)]
    try:
        await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in waits:
            task.cancel()
