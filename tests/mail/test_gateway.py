"""The e-mail gateway end to end: real SMTP in (a client delivering to the gateway's receiver)
and out (the gateway sending to a real SMTP server on loopback), a real SQLite file, the one
service. Every assertion is on the mails a person gets: their subject, text and attachments.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiosmtplib
import pytest
from PIL import Image

from mail.gateway import MailGateway
from mail.transport import Received
from tests.mail.world import (
    REFEREE,
    World,
    attachments,
    close_world,
    game,
    open_world,
    plain_mail,
    text,
)

ALICE = "alice@example.org"  # the Axis and the owner
BOB = "bob@example.net"  # the Allies
MALLORY = "mallory@evil.example"


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    w = await open_world(tmp_path)
    yield w
    await close_world(w)


async def new_game(w: World) -> str:
    await w.mail(ALICE, REFEREE, "game new 1941", subject="new game")
    subject = str(w.last(ALICE)["Subject"])
    found = re.search(r"Game (g\d+) created", subject)
    assert found, w.said(ALICE)
    return found.group(1)


async def seated(w: World) -> str:
    """A 1941 game by mail: alice holds the Axis, bob the Allies, started by alice."""
    gid = await new_game(w)
    await w.join(ALICE, gid, "Germany", "Japan")
    await w.join(BOB, gid, "Soviet Union", "United Kingdom", "United States")
    await w.mail(ALICE, game(gid), "game start", token=w.owner_token(ALICE))
    return gid


async def purchases(w: World, gid: str) -> list[dict[str, int]]:
    from rules import events as ev

    return [s.event.units for s in await w.service.store.load_events(gid)
            if isinstance(s.event, ev.UnitsPurchased)]


async def events(w: World, gid: str) -> int:
    return len(await w.service.store.load_events(gid))


async def test_a_game_is_created_joined_started_and_played_by_mail(world: World) -> None:
    w = world
    gid = await new_game(w)
    created = w.said(ALICE)
    assert f"Game {gid} is yours" in created and f"umpire+{gid}@example.org" in created
    await w.mail(ALICE, game(gid), "join Germany")
    confirm = w.last(ALICE)
    code = w.code(ALICE)
    assert f"confirm {code}" in text(confirm) and "If it was not you" in text(confirm)
    # The seat is taken only by the reply from that address.
    assert (await w.service.info(gid)).seats == {}
    await w.mail(ALICE, game(gid), "ok", subject=f"Re: {confirm['Subject']}")
    assert (await w.service.info(gid)).seats == {"Germany": ALICE}
    assert "Your token for Germany" in w.said(ALICE)
    await w.join(ALICE, gid, "Japan")
    await w.join(BOB, gid, "Soviet Union", "United Kingdom", "United States")
    # alice is told that bob joined (the group is told of each seat taken by mail).
    assert any(f"{BOB} joins as Soviet Union" in str(m["Subject"])
               for m in w.catcher.to(ALICE))
    await w.mail(ALICE, game(gid), "game start", token=w.owner_token(ALICE))
    assert any("Accepted" in str(m["Subject"]) for m in w.catcher.to(ALICE)[-2:])
    report = w.report(BOB)
    assert "Round 1 · Soviet Union · Purchase Units" in str(report["Subject"])
    assert ALICE in str(report["To"]) and BOB in str(report["To"])
    # bob's orders, with his Soviet token, between the markers; a signature below is ignored.
    before = await events(w, gid)
    await w.mail(BOB, game(gid), "Hello all,", "orders", "buy 2 infantry", "end",
                 "end orders", "-- ", "Bob, moving slowly", token=w.token(BOB, "Soviet Union"))
    answers = [m for m in w.catcher.to(BOB) if "Accepted" in str(m["Subject"])]
    assert answers, [str(m["Subject"]) for m in w.catcher.to(BOB)]
    said = text(answers[-1])
    assert "1. buy 2 infantry" in said or "buy 2 infantry" in said
    assert "All 2 lines accepted, in order." in said
    assert await events(w, gid) > before
    # The group's report names who did what, threaded under the game's root, answerable.
    report = w.report(ALICE)
    body = text(report)
    assert f"Soviet Union ({BOB}): buy 2 infantry" in body
    assert "Waiting for: Soviet Union" in body and "Combat Move" in body
    assert f"<game-{gid}@example.org>" in str(report["References"])
    assert str(report["Reply-To"]) == game(gid)
    assert str(report["Subject"]).startswith(f"[Umpire {gid}] Round 1 · Soviet Union")


async def test_order_mails_are_refused_without_the_seat_token_and_change_nothing(
        world: World) -> None:
    w = world
    gid = await seated(w)
    n = await events(w, gid)
    # Someone else, and someone forging bob's address without his token.
    await w.mail(MALLORY, game(gid), "buy 2 infantry")
    assert "Refused: not seated" in w.said(MALLORY)
    assert "join <power>" in w.said(MALLORY)
    await w.mail(BOB, game(gid), "buy 2 infantry")
    assert "Refused: no token" in w.said(BOB)
    await w.mail(BOB, game(gid), "buy 2 infantry", token="AAAAA-BBBBB")
    assert "not the current token" in w.said(BOB)
    # alice's token is hers: the same token from bob's address is not his.
    await w.mail(BOB, game(gid), "buy 2 infantry", token=w.token(ALICE, "Germany"))
    assert "not the current token" in w.said(BOB)
    assert await events(w, gid) == n
    # 'send token' sends it again, to the bound address only.
    await w.mail(BOB, game(gid), "send token")
    resent = [text(m) for m in w.catcher.to(BOB)[-3:]]  # one for each of his seats
    assert any("Your token for Soviet Union" in t for t in resent), resent


async def test_a_replayed_mail_is_refused_and_applied_once(world: World) -> None:
    w = world
    gid = await seated(w)
    raw = plain_mail(BOB, game(gid), f"token {w.token(BOB, 'Soviet Union')}\nbuy 2 infantry\n",
                     message_id="<replay-1@example.net>")
    await w.deliver(raw, mail_from=BOB, to=[game(gid)])
    n = await events(w, gid)
    await w.deliver(raw, mail_from=BOB, to=[game(gid)])
    assert "Already received" in w.said(BOB)
    assert "<replay-1@example.net>" in w.said(BOB)
    assert await events(w, gid) == n


async def test_a_stale_token_of_an_earlier_turn_is_refused(world: World) -> None:
    w = world
    gid = await seated(w)
    first = w.token(ALICE, "Germany")  # sent when she joined: good until her first turn
    tok = w.token(BOB, "Soviet Union")
    await w.mail(BOB, game(gid), *["end confirm"] * 4, token=tok)
    assert "Round 1 · Germany · Purchase Units" in str(w.report(BOB)["Subject"])
    new = w.token(ALICE, "Germany")
    assert new != first
    await w.mail(ALICE, game(gid), "buy 1 tank", token=first)
    assert "earlier turn" in w.said(ALICE)
    await w.mail(ALICE, game(gid), "buy 1 tank", token=new)
    assert any("Accepted" in str(m["Subject"]) for m in w.catcher.to(ALICE)[-3:])


async def test_html_only_and_oversized_mails_are_answered_with_what_to_do(world: World) -> None:
    w = world
    gid = await seated(w)
    html = (f"From: {BOB}\r\nTo: {game(gid)}\r\nSubject: orders\r\nMessage-ID: <h1@x.net>\r\n"
            "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
            "<p>buy 2 infantry</p>\r\n").encode()
    await w.deliver(html, mail_from=BOB, to=[game(gid)])
    assert "Refused: no plain text" in w.said(BOB)
    assert "Plain text" in w.said(BOB)
    # Over 1 MB: the SMTP receiver refuses it (552) before reading it, so the sender's
    # mail server bounces it with that reason; fetched from a mailbox, it is answered.
    big = plain_mail(BOB, game(gid), "buy 1 infantry\n" * 80_000)
    with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
        await w.deliver(big, mail_from=BOB, to=[game(gid)])
    assert refused.value.code == 552
    await w.gateway.receive(Received(raw=big, mail_from=BOB, rcpt_tos=(game(gid),),
                                     peer_ip=None, helo=None, via="imap"))
    assert "Refused: too large" in w.said(BOB)
    assert "over the limit of 1,000,000" in w.said(BOB)
    too_many = ["buy 1 infantry"] * 150
    await w.mail(BOB, game(gid), *too_many, token=w.token(BOB, "Soviet Union"))
    assert "Too many orders at once" in w.said(BOB)


async def test_the_first_refused_line_stops_the_batch(world: World) -> None:
    w = world
    gid = await seated(w)
    await w.mail(BOB, game(gid), "buy 1 infantry", "buy 9 battleships", "end",
                 token=w.token(BOB, "Soviet Union"))
    said = w.answer(BOB)
    assert "Partly applied" in said
    assert "REFUSED" in said and "3. end\n   not tried" in said
    assert "nothing after line 2 was applied" in said


async def test_mail_no_one_typed_is_never_answered(world: World) -> None:
    w = world
    gid = await seated(w)
    before = len(w.catcher.mails)
    await w.deliver(plain_mail(BOB, game(gid), "I am on holiday.",
                               Auto_Submitted="auto-replied"), mail_from=BOB, to=[game(gid)])
    async with aiosmtplib.SMTP(hostname="127.0.0.1", port=w.receiver.port) as smtp:
        await smtp.sendmail("", [game(gid)],
                            plain_mail("MAILER-DAEMON@example.net", game(gid), "Undeliverable"))
    assert len(w.catcher.mails) == before


async def test_too_many_mails_from_one_address_are_dropped_after_one_notice(
        tmp_path: Path) -> None:
    w = await open_world(tmp_path, rate=3)
    try:
        for _ in range(5):
            await w.mail(MALLORY, REFEREE, "help")
        subjects = [str(m["Subject"]) for m in w.catcher.to(MALLORY)]
        assert subjects.count("[Umpire] Help") == 3
        assert subjects[-1] == "[Umpire] Too many mails"
        assert len(subjects) == 4
    finally:
        await close_world(w)


async def test_two_mails_racing_for_one_turn_apply_exactly_once(tmp_path: Path) -> None:
    """Two gateways (two processes) over one SQLite file: the same mail delivered to both at
    once is applied once; two different mails spending the same IPCs: exactly one buys."""
    w = await open_world(tmp_path)
    try:
        gid = await seated(w)
        from db.repo import open_store
        from service.games import GameService

        store2 = await open_store(f"sqlite+aiosqlite:///{(tmp_path / 'mail.sqlite3').as_posix()}")
        other = await open_world(tmp_path / "..", service=GameService(store=store2),
                                 clock=w.clock)
        try:
            tok = w.token(BOB, "Soviet Union")
            # The same mail (one Message-ID) delivered to both at once: applied once.
            raw = plain_mail(BOB, game(gid), f"token {tok}\nbuy 1 infantry\n",
                             message_id="<race-1@example.net>")
            await asyncio.gather(w.deliver(raw, mail_from=BOB, to=[game(gid)]),
                                 other.deliver(raw, mail_from=BOB, to=[game(gid)]))
            assert await purchases(w, gid) == [{"infantry": 1}]
            said = [text(m) for m in (*w.catcher.to(BOB), *other.catcher.to(BOB))]
            assert sum("All 1 line accepted" in s for s in said) == 1
            assert sum("was received before" in s for s in said) == 1
            # Two different mails, each spending 3 of the 4 IPCs left: exactly one buys.
            a = plain_mail(BOB, game(gid), f"token {tok}\nbuy 1 infantry\n")
            b = plain_mail(BOB, game(gid), f"token {tok}\nbuy 1 infantry\n")
            na, nb = len(w.catcher.to(BOB)), len(other.catcher.to(BOB))
            await asyncio.gather(w.deliver(a, mail_from=BOB, to=[game(gid)]),
                                 other.deliver(b, mail_from=BOB, to=[game(gid)]))
            said = [text(m) for m in (*w.catcher.to(BOB)[na:], *other.catcher.to(BOB)[nb:])]
            private = [s for s in said if "Your mail:" in s]
            assert len(private) == 2, said
            assert sum("All 1 line accepted" in s for s in private) == 1
            assert sum("REFUSED" in s for s in private) == 1
            assert await purchases(w, gid) == [{"infantry": 1}, {"infantry": 1}]
            assert (await w.service.check_game(gid)).ok
        finally:
            await close_world(other)
    finally:
        await close_world(w)


async def test_a_deadline_reminds_then_the_referee_answers_for_the_absent(world: World) -> None:
    w = world
    gid = await seated(w)
    await w.mail(ALICE, game(gid), "deadline 1h end every", token=w.owner_token(ALICE))
    assert "Deadline: 2026-11-27 13:00 UTC" in w.said(ALICE)
    await w.gateway.tick()
    w.clock.advance(minutes=50)
    await w.gateway.tick()
    assert "Reminder: the game waits for you" in str(w.last(BOB)["Subject"])
    assert "Soviet Union: Purchase Units" in w.said(BOB)
    w.clock.advance(minutes=15)
    await w.gateway.tick()
    late = [m for m in w.catcher.to(BOB) if "Late" in str(m["Subject"])]
    assert late and "has passed" in text(late[-1])
    assert "ends the phase for you" in text(late[-1])
    reports = [text(m) for m in w.catcher.to(BOB) if "(by the referee at the deadline)"
               in text(m)]
    assert reports, [str(m["Subject"]) for m in w.catcher.to(BOB)]


async def test_the_report_after_a_phase_change_carries_the_map(tmp_path: Path) -> None:
    w = await open_world(tmp_path, images=True)
    try:
        gid = await seated(w)
        await w.mail(BOB, game(gid), "buy 2 infantry", "end",
                     token=w.token(BOB, "Soviet Union"))
        report = w.report(ALICE)
        pngs = [(name, data) for name, data in attachments(report) if name.endswith(".png")]
        assert pngs, [str(m["Subject"]) for m in w.catcher.to(ALICE)]
        name, data = pngs[-1]
        assert "map" in name
        image = Image.open(io.BytesIO(data))
        assert image.width == 2000 and image.height > 500
        image.save(tmp_path / name)
    finally:
        await close_world(w)


def test_a_mail_player_is_an_address() -> None:
    from service.games import GameInfo

    info = GameInfo(id="g1", edition="1941", options=(), channel="123", owner="42",
                    status="active", seats={"Germany": ALICE, "Japan": "42"}, dice="fair")
    assert MailGateway.mail_people(info) == [ALICE]


async def test_a_forged_or_altered_mail_fails_the_sender_checks_and_is_refused(
        tmp_path: Path) -> None:
    """bob's domain signs its mail (DKIM) and asks receivers to reject what fails (DMARC): his
    signed mail is applied; the same orders unsigned, from elsewhere, and his signed mail with
    a line added on the way are refused with the reason, and change nothing."""
    import dkim

    from tests.mail._rsakey import rsa_key

    private, public = rsa_key(seed=23)
    records = {"s1._domainkey.example.net": [f"v=DKIM1; k=rsa; p={public}"],
               "_dmarc.example.net": ["v=DMARC1; p=reject"]}
    w = await open_world(tmp_path, txt=lambda name: records.get(name.lower().rstrip("."), []))
    try:
        gid = await seated_signed(w, private)
        n = await events(w, gid)
        tok = w.token(BOB, "Soviet Union")
        forged = plain_mail(BOB, game(gid), f"token {tok}\nbuy 2 infantry\n")
        await w.deliver(forged, mail_from="x@evil.example", to=[game(gid)])
        said = w.answer(BOB)
        assert "Refused: sender not verified" in said
        assert "example.net asks receivers to reject mail" in said
        raw = plain_mail(BOB, game(gid), f"token {tok}\nbuy 2 infantry\n")
        signed = dkim.sign(raw, b"s1", b"example.net", private,
                           include_headers=[b"from", b"to", b"subject", b"message-id"]) + raw
        altered = signed.replace(b"buy 2 infantry", b"buy 1 infantry")
        await w.deliver(altered, mail_from=BOB, to=[game(gid)])
        assert "The DKIM signature of example.net on your mail does not verify" in w.answer(BOB)
        assert await events(w, gid) == n
        await w.deliver(signed, mail_from=BOB, to=[game(gid)])
        assert "All 1 line accepted" in w.answer(BOB)
        assert await purchases(w, gid) == [{"infantry": 2}]
    finally:
        await close_world(w)


async def seated_signed(w: World, private: bytes) -> str:
    """``seated``, with every mail of bob's signed by his domain (its DMARC policy rejects
    the unsigned)."""
    import dkim

    deliver = w.deliver

    async def signing(raw: bytes, *, mail_from: str, to: list[str]) -> None:
        if mail_from == BOB:
            raw = dkim.sign(raw, b"s1", b"example.net", private,
                            include_headers=[b"from", b"to", b"subject", b"message-id"]) + raw
        await deliver(raw, mail_from=mail_from, to=to)

    w.deliver = signing  # type: ignore[method-assign]
    try:
        return await seated(w)
    finally:
        w.deliver = deliver  # type: ignore[method-assign]


async def test_orders_are_read_from_the_text_part_whatever_comes_with_them(world: World) -> None:
    """An attachment (a screenshot) is never read; a text in latin-1, or in a character set
    the mail names wrongly, is read and its orders applied; a reply's quoted history is not."""
    from email.message import EmailMessage

    w = world
    gid = await seated(w)
    tok = w.token(BOB, "Soviet Union")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = BOB, game(gid), "orders, with my board"
    msg.set_content(f"token {tok}\nbuy 1 infantry\n\n> On Monday, alice wrote:\n> end\n")
    msg.add_attachment(b"\x89PNG\r\n\x1a\n" + bytes(64), maintype="image", subtype="png",
                       filename="board.png")
    await w.deliver(msg.as_bytes(), mail_from=BOB, to=[game(gid)])
    assert "All 1 line accepted" in w.answer(BOB)
    latin = (f"From: {BOB}\r\nTo: {game(gid)}\r\nSubject: =?iso-8859-1?q?ordres_d=E9j=E0?=\r\n"
             "Message-ID: <latin-1@example.net>\r\nMIME-Version: 1.0\r\n"
             "Content-Type: text/plain; charset=x-unknown-charset\r\n"
             "Content-Transfer-Encoding: 8bit\r\n\r\n"
             f"token {tok}\r\n# d\xe9j\xe0 vu\r\nbuy 1 infantry\r\n").encode("latin-1")
    await w.deliver(latin, mail_from=BOB, to=[game(gid)])
    assert "All 1 line accepted" in w.answer(BOB)
    assert await purchases(w, gid) == [{"infantry": 1}, {"infantry": 1}]


async def test_a_change_made_elsewhere_in_the_process_is_reported_at_once(world: World) -> None:
    """The gateway listens to the service (as ``mail.run.serve`` wires it): an order given
    through another front end of the same process (here the service's own text entry, as the
    local table or a cog calls it) is mailed to the group without waiting for the loop."""
    w = world
    gid = await seated(w)
    w.service.listeners.append(w.gateway.listen)
    before = len(w.catcher.to(ALICE))
    r = await w.service.submit(gid, BOB, "buy 2 infantry")
    assert r.ok, r.error
    for _ in range(200):
        if len(w.catcher.to(ALICE)) > before:
            break
        await asyncio.sleep(0.02)
    assert f"Soviet Union ({BOB}): buy 2 infantry" in text(w.report(ALICE))


async def test_a_report_claimed_by_a_process_that_died_is_sent_by_another(world: World) -> None:
    """A process claimed the report and died before sending it: once the claim is stale, the
    next pass takes it over, so the game's reports do not stop there."""
    from datetime import timedelta

    w = world
    gid = await seated(w)
    r = await w.service.submit(gid, BOB, "buy 2 infantry")  # nobody reported it yet
    assert r.ok, r.error
    store = w.service.store
    since = await store.report_cursor(gid, "mail")
    ch_seq = len(await store.load_events(gid))
    head = (await store.load_events(gid))[-1].hash
    assert await store.claim(gid, f"mail-report:{since}:{ch_seq}:{head[:16]}", "dead-process")
    assert not await w.gateway.report(gid)  # claimed, and not stale yet: left to its holder
    w.service.claim_stale = timedelta(0)
    assert await w.gateway.report(gid)
    assert f"Soviet Union ({BOB}): buy 2 infantry" in text(w.report(ALICE))
    assert await store.report_cursor(gid, "mail") == ch_seq
