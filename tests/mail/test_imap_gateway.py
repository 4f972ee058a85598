"""The gateway fed from a hosted mailbox: a real IMAP server (a private Dovecot), the real
poller, and the provider's Authentication-Results trusted only under its own authserv-id."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from mail.auth import AuthVerdict, check_auth_results
from mail.imap import ImapPoller
from mail.message import InMail
from mail.transport import Received
from tests.mail._dovecot import PASSWORD, USER, Dovecot, start_dovecot
from tests.mail.test_gateway import ALICE, BOB, events, seated
from tests.mail.world import World, close_world, game, open_world, plain_mail

PROVIDER = "mx.example.org"


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    yield from start_dovecot()


def provider_checks(received: Received, mail: InMail) -> AuthVerdict:
    return check_auth_results(received.raw, mail.sender, authserv_id=PROVIDER)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    w = await open_world(tmp_path)
    yield w
    await close_world(w)


async def test_orders_fetched_from_the_mailbox_are_applied_once_and_answered(
        world: World, dovecot: Dovecot) -> None:
    w = world
    gid = await seated(w)  # seats taken over SMTP; the orders come from the mailbox
    w.gateway.authenticate = provider_checks
    folder = dovecot.new_folder()
    poller = ImapPoller(w.gateway.receive, host="127.0.0.1", port=dovecot.port, user=USER,
                        password=PASSWORD, folder=folder, tls="none", timeout=10)
    tok = w.token(BOB, "Soviet Union")
    passed = f"Authentication-Results: {PROVIDER}; dkim=pass header.d=example.net; " \
             "spf=pass smtp.mailfrom=example.net; dmarc=pass header.from=example.net\r\n"
    good = passed.encode() + plain_mail(BOB, game(gid), f"token {tok}\nbuy 2 infantry\n")
    # A forged mail in bob's name: the provider found no valid signature and DMARC failed;
    # its own Authentication-Results line claiming a pass is below the provider's, not trusted.
    failed = f"Authentication-Results: {PROVIDER}; dkim=none; spf=fail " \
             "smtp.mailfrom=example.net; dmarc=fail (p=reject) header.from=example.net\r\n"
    forged = failed.encode() + passed.replace(PROVIDER, "evil.example").encode() + plain_mail(
        BOB, game(gid), f"token {tok}\nbuy 1 infantry\n")
    dovecot.append(folder, forged)
    dovecot.append(folder, good)
    n = await events(w, gid)
    try:
        assert await poller.poll_once() == 2
        assert await poller.poll_once() == 0  # both flagged seen: handled once
    finally:
        import asyncio

        stop = asyncio.Event()
        stop.set()
        await poller.run(stop)
    answers = [m for m in w.catcher.to(BOB) if "Your mail:" in m.get_body(("plain",))
               .get_content()]  # type: ignore[union-attr]
    said = [f"{m['Subject']}\n{m.get_body(('plain',)).get_content()}"  # type: ignore[union-attr]
            for m in answers[-2:]]
    assert "Refused: sender not verified" in said[0]
    assert "All 1 line accepted" in said[1]
    assert await events(w, gid) > n
    report = w.report(ALICE)
    assert f"Soviet Union ({BOB}): buy 2 infantry" in report.get_body(("plain",)).get_content()  # type: ignore[union-attr]
