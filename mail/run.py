"""The e-mail gateway as a running service: settings → sender, receiver or poller, loop.

``serve`` runs until ``stop`` is set, beside the Discord bot (``bot.py`` starts it in the same
event loop when ``MAIL_ADDRESS`` is set) or alone (``python bot.py --mail``). Mail comes in
through the built-in SMTP receiver (``MAIL_INBOUND=smtp``) or a hosted mailbox over IMAP
(``imap``); it goes out through the SMTP server of ``MAIL_SMTP_*``. The gateway's loop
(``MailGateway.tick``) runs every ``TICK_SECONDS``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable

from mail.auth import AuthVerdict, check_auth, check_auth_results, dns_addrs, dns_txt
from mail.gateway import GatewayConfig, MailGateway, run_loop
from mail.imap import ImapPoller
from mail.message import InMail, plus_tag
from mail.transport import Received, SmtpReceiver, SmtpSender
from service.games import GameInfo, GameService
from settings import Settings

log = logging.getLogger(__name__)

TICK_SECONDS = 60.0


class SettingsError(ValueError):
    """The mail settings cannot run a gateway; the message says which to set."""


def _secret(value: object) -> str | None:
    get = getattr(value, "get_secret_value", None)
    return get() if callable(get) else None


def sender_from(settings: Settings) -> SmtpSender:
    """The outgoing SMTP client of the settings."""
    if settings.mail_address is None:
        raise SettingsError("MAIL_ADDRESS is empty: the e-mail gateway is off.")
    if settings.mail_smtp_host is None:
        raise SettingsError("MAIL_SMTP_HOST is empty: the gateway needs a server to send by.")
    return SmtpSender(
        host=settings.mail_smtp_host, port=settings.mail_smtp_port,
        sender=settings.mail_address, username=settings.mail_smtp_user,
        password=_secret(settings.mail_smtp_password), tls=settings.mail_smtp_tls,
    )


def authenticator(settings: Settings) -> Callable[[Received, InMail], AuthVerdict]:
    """The sender checks the receiving side can make (``mail.auth``)."""
    txt, addrs = dns_txt(), dns_addrs()
    require = settings.mail_require_dkim
    authserv = settings.mail_authserv_id

    def check(received: Received, mail: InMail) -> AuthVerdict:
        if received.via == "imap" and authserv:
            return check_auth_results(received.raw, mail.sender, authserv_id=authserv,
                                      require_dkim=require)
        return check_auth(received.raw, mail.sender, txt=txt, peer_ip=received.peer_ip,
                          mail_from=received.mail_from or None, helo=received.helo,
                          require_dkim=require, addrs=addrs)

    return check


def gateway_from(settings: Settings, service: GameService,
                 after_change: Callable[[GameInfo], Awaitable[None]] | None = None
                 ) -> MailGateway:
    """The gateway of the settings over ``service``."""
    sender = sender_from(settings)
    assert settings.mail_address is not None
    return MailGateway(
        service=service, outbox=sender,
        config=GatewayConfig(address=settings.mail_address,
                             rate_per_hour=settings.mail_rate_per_hour),
        authenticate=authenticator(settings), after_change=after_change,
    )


async def serve(settings: Settings, service: GameService, stop: asyncio.Event, *,
                after_change: Callable[[GameInfo], Awaitable[None]] | None = None) -> None:
    """Run the gateway until ``stop`` is set."""
    if settings.log_level != "DEBUG":  # aiosmtpd logs every SMTP command at INFO
        logging.getLogger("mail.log").setLevel(logging.WARNING)
    gateway = gateway_from(settings, service, after_change)
    # Claims name their process: a report claimed by one that died is taken over.
    gateway.process_id = f"mail-{socket.gethostname()}-{os.getpid()}"
    service.listeners.append(gateway.listen)  # changes made by the other front ends
    base = gateway.base

    def ours(rcpt: str) -> bool:
        rcpt = rcpt.lower().strip("<>")
        return rcpt == base or plus_tag(rcpt, base) is not None

    loop_task = asyncio.create_task(run_loop(gateway, stop, seconds=TICK_SECONDS))
    try:
        if settings.mail_inbound == "imap":
            if not (settings.mail_imap_host and settings.mail_imap_user):
                raise SettingsError("MAIL_INBOUND=imap needs MAIL_IMAP_HOST and MAIL_IMAP_USER.")
            poller = ImapPoller(
                gateway.receive, host=settings.mail_imap_host, port=settings.mail_imap_port,
                user=settings.mail_imap_user,
                password=_secret(settings.mail_imap_password) or "",
                folder=settings.mail_imap_folder, tls=settings.mail_imap_tls,
            )
            log.info("mail: polling %s@%s/%s", settings.mail_imap_user,
                     settings.mail_imap_host, settings.mail_imap_folder)
            await poller.run(stop)
        else:
            host, _, port = settings.mail_listen.rpartition(":")
            receiver = SmtpReceiver(gateway.receive, host=host or "127.0.0.1",
                                    port=int(port or 2525), accept=ours)
            await receiver.start()
            log.info("mail: receiving on %s:%s for %s", host, receiver.port, base)
            try:
                await stop.wait()
            finally:
                await receiver.stop()
    finally:
        stop.set()
        await loop_task


__all__ = ["TICK_SECONDS", "SettingsError", "authenticator", "gateway_from", "sender_from",
           "serve"]
