"""mail.message: real mails (built with the email package and as raw bytes) read as the gateway needs."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mail.message import MAX_MAIL_BYTES, InMail, body_lines, parse_mail, plus_tag, subject_tag

# The smallest valid PNG (1x1 pixel): an attachment that must never be decoded as text.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def mail(body: str = "buy 3 infantry\n", **headers: str) -> EmailMessage:
    """A plain-text mail from Alice to the referee, headers overridable (None-like '' drops one)."""
    msg = EmailMessage()
    defaults = {
        "From": "Alice Example <Alice@X.org>",
        "To": "umpire+g12@referee.org",
        "Subject": "[Umpire g12] Germany, round 1",
        "Date": "Fri, 27 Nov 2026 15:02:00 +0100",
        "Message-ID": "<m1@x.org>",
    }
    for name, value in (defaults | headers).items():
        if value:
            msg[name] = value
    msg.set_content(body)
    return msg


def raw_mail(head: str, body: bytes) -> bytes:
    """Raw bytes as a mail server hands them over: CRLF line ends."""
    return head.strip().replace("\n", "\r\n").encode() + b"\r\n\r\n" + body


HEAD = """
From: alice@x.org
To: umpire@referee.org
Subject: orders
Message-ID: <raw@x.org>
MIME-Version: 1.0
"""


def test_plain_mail_gives_every_field() -> None:
    msg = mail(
        "orders\nbuy 3 infantry\nend orders\n",
        Cc="Bob <BOB@y.org>, umpire+g12@referee.org",
        **{"In-Reply-To": "<r0@referee.org>", "References": "<r0@referee.org> <r1@referee.org>"},
    )
    raw = bytes(msg)
    got = parse_mail(raw)
    assert got == InMail(
        key="<m1@x.org>",
        message_id="<m1@x.org>",
        sender="alice@x.org",
        sender_name="Alice Example",
        recipients=("umpire+g12@referee.org", "bob@y.org"),
        subject="[Umpire g12] Germany, round 1",
        date=datetime(2026, 11, 27, 14, 2, tzinfo=UTC),
        in_reply_to="<r0@referee.org>",
        references=("<r0@referee.org>", "<r1@referee.org>"),
        text="orders\nbuy 3 infantry\nend orders\n",
        html_only=False,
        attachments=(),
        problems=(),
        size=len(raw),
    )


def test_multipart_alternative_reads_the_plain_text_and_lists_no_attachment() -> None:
    msg = mail("move 2 tanks from Germany to Poland\n")
    msg.add_alternative("<p>move 2 <b>tanks</b> from Germany to Poland</p>", subtype="html")
    got = parse_mail(bytes(msg))
    assert got.text == "move 2 tanks from Germany to Poland\n"
    assert not got.html_only
    assert got.attachments == ()


def test_html_only_mail_has_no_text() -> None:
    msg = mail()
    msg.set_content("<p>buy 3 infantry</p>", subtype="html")
    got = parse_mail(bytes(msg))
    assert got.text is None
    assert got.html_only


def test_attachments_are_named_never_read_as_text() -> None:
    msg = mail("buy 1 tank\n")
    msg.add_attachment(PNG, maintype="image", subtype="png", filename="map.png")
    msg.add_attachment(b"\x00\x01binary", maintype="application", subtype="octet-stream")
    msg.add_attachment("old orders\n", filename="orders.txt")  # text/plain, but attached
    got = parse_mail(bytes(msg))
    assert got.text == "buy 1 tank\n"
    assert got.attachments == ("map.png", "application/octet-stream", "orders.txt")
    assert got.problems == ()


def test_an_attached_text_file_is_not_the_text() -> None:
    msg = EmailMessage()
    msg["From"] = "alice@x.org"
    msg.add_attachment("buy 9 bombers\n", filename="old orders.txt")
    got = parse_mail(bytes(msg))
    assert (got.text, got.html_only, got.attachments) == (None, False, ("old orders.txt",))


def test_an_attached_mail_is_one_attachment_and_its_text_is_not_the_orders() -> None:
    inner = mail("buy 99 bombers\n", Subject="forwarded")
    outer = EmailMessage()
    outer["From"] = "alice@x.org"
    outer.set_content("see below\n")
    outer.add_attachment(inner)
    got = parse_mail(bytes(outer))
    assert got.text == "see below\n"
    assert got.attachments == ("message/rfc822",)


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_transfer_encodings_are_decoded(cte: str) -> None:
    body = "move 1 infantry from Württemberg to Österreich " + "x" * 120 + "\n"
    msg = mail(body)
    msg.set_content(body, cte=cte)
    raw = bytes(msg)
    assert cte.encode() in raw and "Württemberg".encode() not in raw
    got = parse_mail(raw)
    assert got.text == body
    assert got.problems == ()


def test_raw_quoted_printable_with_soft_breaks_and_crlf() -> None:
    body = b"buy 2 infan=\r\ntry=0D=0A\r\nmove 1 fighter from G=C3=A9orgie to sz5\r\n"
    head = HEAD + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable"
    got = parse_mail(raw_mail(head, body))
    assert got.text == "buy 2 infantry\n\nmove 1 fighter from Géorgie to sz5\n"
    assert "\r" not in (got.text or "")


def test_latin1_text() -> None:
    head = HEAD + "Content-Type: text/plain; charset=ISO-8859-1"
    got = parse_mail(raw_mail(head, "move 1 tank to Géorgie\r\n".encode("latin-1")))
    assert got.text == "move 1 tank to Géorgie\n"
    assert got.problems == ()


def test_declared_charset_that_does_not_decode_is_read_as_utf8_and_said() -> None:
    head = HEAD + "Content-Type: text/plain; charset=utf-8"
    got = parse_mail(raw_mail(head, "move 1 tank to G\xe9orgie\n".encode("latin-1")))
    assert got.text == "move 1 tank to G\ufffdorgie\n"
    assert got.problems == (
        "The text does not decode as its declared character set (utf-8); "
        "it was read as UTF-8 with errors replaced.",
    )


def test_unknown_charset_is_read_as_utf8_and_said() -> None:
    head = HEAD + "Content-Type: text/plain; charset=x-foo"
    got = parse_mail(raw_mail(head, "buy 3 infantry — now\n".encode()))
    assert got.text == "buy 3 infantry — now\n"
    assert got.problems == (
        "The text is in an unknown character set (x-foo); it was read as UTF-8.",
    )


@pytest.mark.parametrize("charset", ["base64", "rot13", "zlib"])
def test_a_codec_that_is_no_text_encoding_counts_as_unknown(charset: str) -> None:
    head = HEAD + f"Content-Type: text/plain; charset={charset}"
    got = parse_mail(raw_mail(head, b"YnV5IDMgaW5mYW50cnk=\n\xff"))
    assert got.text == "YnV5IDMgaW5mYW50cnk=\n\ufffd"
    assert got.problems == (
        f"The text is in an unknown character set ({charset}); "
        "it was read as UTF-8 with errors replaced.",
    )


def test_no_charset_and_not_utf8() -> None:
    head = HEAD + "Content-Type: text/plain"
    got = parse_mail(raw_mail(head, b"buy \xff\xfe 3 infantry\n"))
    assert got.text == "buy \ufffd\ufffd 3 infantry\n"
    assert got.problems == (
        "The text declares no character set and is not UTF-8; "
        "it was read as UTF-8 with errors replaced.",
    )


def test_damaged_base64_is_said() -> None:
    head = HEAD + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64"
    got = parse_mail(raw_mail(head, b"YnV5IDMgaW5mYW50cnk*\n"))
    assert (got.text or "").startswith("buy 3 infantr")
    assert "The text's base64 encoding is damaged; what could be read was read." in got.problems


def test_nul_and_control_characters_are_stripped_and_said() -> None:
    head = HEAD + "Content-Type: text/plain; charset=utf-8"
    got = parse_mail(raw_mail(head, b"buy 3 inf\x00antry\x07\r\n\tmove\x1b[31m 1 tank\r\n"))
    assert got.text == "buy 3 infantry\n\tmove[31m 1 tank\n"
    assert got.problems == ("The text held 3 control characters (such as NUL); they were removed.",)


def test_huge_mail_reads_only_the_headers() -> None:
    msg = mail("buy 3 infantry\n" + "padding line of a huge mail\n" * 40_000)
    raw = bytes(msg)
    assert len(raw) > MAX_MAIL_BYTES
    got = parse_mail(raw)
    assert (got.sender, got.key, got.subject) == ("alice@x.org", "<m1@x.org>", msg["Subject"])
    assert got.text is None and not got.html_only and got.attachments == ()
    assert got.size == len(raw)
    assert got.problems == (
        f"The mail is {len(raw):,} bytes long, over the limit of 1,000,000; only its headers "
        "were read. Send the orders as plain text without attachments.",
    )


def test_huge_mail_without_a_blank_line() -> None:
    raw = b"From: alice@x.org\r\nX-Junk: " + b"a" * (MAX_MAIL_BYTES + 10)
    got = parse_mail(raw)
    assert (got.sender, got.text) == ("alice@x.org", None)
    assert got.problems[-1].startswith(f"The mail is {len(raw):,} bytes long")


def test_missing_from() -> None:
    got = parse_mail(bytes(mail(From="")))
    assert (got.sender, got.sender_name) == ("", "")
    assert got.problems == ("The mail has no From address.",)


@pytest.mark.parametrize(
    "raw_from",
    [
        b"From: alice@x.org, mallory@evil.org\r\n",
        b"From: alice@x.org\r\nFrom: mallory@evil.org\r\n",
    ],
)
def test_two_from_addresses_give_no_sender(raw_from: bytes) -> None:
    got = parse_mail(raw_from + b"Subject: hi\r\n\r\nbuy 1 tank\r\n")
    assert got.sender == ""
    assert got.problems == (
        "The mail has several From addresses; a mail for a seat needs exactly one.",
    )


@pytest.mark.parametrize(
    "written",
    [
        "alice at x dot org",
        "alice@x.org <mallory@evil.org>",  # read as alice@x.org with a defect: ambiguous
        "alice@x.org)<mallory@evil.org>",
        "a@b@c.org",
        "undisclosed-recipients:;",
    ],
)
def test_unreadable_from(written: str) -> None:
    got = parse_mail(f"From: {written}\r\n\r\nbuy 1 tank\r\n".encode())
    assert (got.sender, got.sender_name) == ("", "")
    assert got.problems == (f"The From address ({written}) could not be read as one mail address.",)


def test_a_comment_in_from_is_no_name() -> None:
    got = parse_mail(b"From: mallory@evil.org (alice@x.org)\r\n\r\nbuy 1 tank\r\n")
    assert (got.sender, got.sender_name, got.problems) == ("mallory@evil.org", "", ())


def test_forged_display_name_does_not_change_the_sender() -> None:
    got = parse_mail(bytes(mail(From='"alice@x.org" <Mallory@Evil.org>')))
    assert (got.sender, got.sender_name) == ("mallory@evil.org", "alice@x.org")
    assert got.problems == (
        "The sender's name (alice@x.org) looks like another address; "
        "the mail is from mallory@evil.org.",
    )


def test_key_is_the_message_id_or_a_hash_of_the_mail() -> None:
    with_id = parse_mail(bytes(mail(**{"Message-ID": "<a@x.org>"})))
    assert with_id.key == "<a@x.org>"
    for headers in ({"Message-ID": ""}, {"Message-ID": "<" + "a" * 260 + "@x.org>"}):
        raw = bytes(mail(**headers))
        assert parse_mail(raw).key == "sha256:" + hashlib.sha256(raw).hexdigest()
    assert parse_mail(bytes(mail(**{"Message-ID": ""}))).message_id == ""


def test_dates() -> None:
    assert parse_mail(bytes(mail(Date=""))).date is None
    assert parse_mail(bytes(mail(Date="next Tuesday-ish"))).date is None
    assert parse_mail(bytes(mail(Date="Fri, 27 Nov 2026 15:02:00 -0000"))).date == datetime(
        2026, 11, 27, 15, 2, tzinfo=UTC
    )
    when = datetime(2026, 11, 27, 23, 59, tzinfo=UTC)
    assert parse_mail(bytes(mail(Date=format_datetime(when)))).date == when


def test_subject_is_decoded_collapsed_and_cut() -> None:
    got = parse_mail(b"From: a@x.org\r\nSubject: =?iso-8859-1?q?G=E9orgie?=\r\n  \tand\x00 more\r\n\r\n")
    assert got.subject == "Géorgie and more"
    long_subject = parse_mail(bytes(mail(Subject="word " * 100))).subject
    assert len(long_subject) == 300


def test_recipients_include_delivered_to_without_duplicates() -> None:
    raw = b"Delivered-To: Umpire+G12@referee.org\r\n" + bytes(
        mail(To="umpire+g12@referee.org, bob@y.org", Cc="BOB@y.org")
    )
    assert parse_mail(raw).recipients == ("umpire+g12@referee.org", "bob@y.org")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\r\n\r\n",
        b"garbage without headers",
        b"From: \r\nTo: <<<@@@>>>\r\nDate: 99 Foo 99999\r\n\r\n",
        b"Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain; charset=\"\r\n\r\nhi\r\n",
        b"Content-Type: text/plain; charset*=utf-8''%FF%FE\r\n\r\nhi",
        b"Content-Type: multipart/mixed\r\n\r\nno boundary",
        b"Subject: =?utf-8?b?////?=\r\nMessage-ID: \x00\r\n\r\n",
        b"Content-Type: multipart/mixed; boundary=b\r\n\r\n" + b"--b\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n" * 200,
    ],
)
def test_malformed_mails_do_not_raise(raw: bytes) -> None:
    assert isinstance(parse_mail(raw), InMail)


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=3000))
def test_any_bytes_give_an_inmail(raw: bytes) -> None:
    got = parse_mail(raw)
    assert got.size == len(raw)
    assert got.key


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_damaged_real_mail_gives_an_inmail(data: st.DataObject) -> None:
    msg = mail("orders\nbuy 3 infantry\nend orders\n")
    msg.add_alternative("<p>hi</p>", subtype="html")
    msg.add_attachment(PNG, maintype="image", subtype="png", filename="map.png")
    raw = bytearray(bytes(msg))
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at : at + data.draw(st.integers(0, 5))] = data.draw(st.binary(max_size=6))
    assert isinstance(parse_mail(bytes(raw)), InMail)


def test_a_from_the_header_parser_cannot_read_is_no_sender() -> None:
    """Found by the test above: a From written in the raw mail whose parsed header is gone."""
    for written in (b'"', b"<"):  # the structured parser gives no header for these
        raw = b"From: " + written + b"\r\nTo: u@referee.org\r\n\r\nbuy 1 tank\r\n"
        got = parse_mail(raw)
        assert got.sender == ""
        assert got.text == "buy 1 tank\r\n" or got.text == "buy 1 tank\n"


# --- body_lines ------------------------------------------------------------------------------


def test_markers_are_case_insensitive_and_trimmed() -> None:
    text = "Hi all,\n  ORDERS: \nbuy 3 infantry\n\n  move 1 tank to Poland \nEnd   Orders\nCheers, A\n"
    assert body_lines(text) == (["buy 3 infantry", "move 1 tank to Poland"], True)


def test_several_blocks_are_joined_and_quotes_inside_dropped() -> None:
    text = "orders\nbuy 1 tank\n> buy 9 bombers\nend orders\nchat\norders\n  >> old\nend\nend orders\n"
    assert body_lines(text) == (["buy 1 tank", "end"], True)


def test_an_open_block_runs_to_the_end_less_signature() -> None:
    text = "orders\nbuy 1 tank\n\n-- \nAlice\nbuy 2 tanks\n"
    assert body_lines(text) == (["buy 1 tank"], True)


def test_a_lone_end_marker_ends_the_body() -> None:
    assert body_lines("buy 1 tank\nend orders\nthanks\n") == (["buy 1 tank"], False)


def test_without_markers_gmail_reply_loses_quote_and_header() -> None:
    text = (
        "buy 2 tanks\r\n"
        "move 1 fighter from Germany to sz5\r\n"
        "\r\n"
        "On Fri, 27 Nov 2026 at 15:02, Umpire Referee <\r\n"
        "umpire+g12@referee.org> wrote:\r\n"
        "\r\n"
        "> Germany to move. Your token: abc\r\n"
        ">\r\n"
        "> orders\r\n"
        "> buy 9 bombers\r\n"
        "> end orders\r\n"
    )
    assert body_lines(text) == (["buy 2 tanks", "move 1 fighter from Germany to sz5"], False)


def test_one_line_on_wrote_header_is_dropped_even_without_a_quote() -> None:
    text = "buy 2 tanks\nOn Friday, Bob wrote:\n"
    assert body_lines(text) == (["buy 2 tanks"], False)


def test_a_named_wrote_line_is_dropped_only_before_a_quote() -> None:
    assert body_lines("Bob wrote:\n> hi\nbuy 1 tank\n") == (["buy 1 tank"], False)
    assert body_lines("buy 1 tank\nAs I wrote:\nmove it\n") == (
        ["buy 1 tank", "As I wrote:", "move it"],
        False,
    )


@pytest.mark.parametrize(
    "history",
    [
        "________________________________\nFrom: Umpire <umpire@referee.org>\nSent: Friday\n",
        "-----Original Message-----\nFrom: Umpire\n",
        "From: Umpire <umpire@referee.org>\nSent: Friday, November 27, 2026 3:02 PM\nTo: Alice\n",
        "---------- Forwarded message ---------\nFrom: Umpire\n",
    ],
)
def test_outlook_history_below_the_reply_is_never_read(history: str) -> None:
    old = "orders\nbuy 9 bombers\nend orders\n"
    assert body_lines("buy 1 tank\n\n" + history + old) == (["buy 1 tank"], False)
    assert body_lines("orders\nbuy 1 tank\nend orders\n" + history + old) == (["buy 1 tank"], True)


@pytest.mark.parametrize("separator", ["-- ", "--", "__", "_____"])
def test_signature_is_dropped(separator: str) -> None:
    text = f"buy 1 tank\n{separator}\nAlice Example\nbuy 2 tanks in my sig\n"
    assert body_lines(text) == (["buy 1 tank"], False)


@pytest.mark.parametrize(
    "last", ["Sent from my iPhone", "Get Outlook for iOS", "Sent from Mail for Windows"]
)
def test_sent_from_line_is_dropped(last: str) -> None:
    text = f"buy 1 tank\n\n{last}\n\nOn Fri, Alice wrote:\n> old\n"
    assert body_lines(text) == (["buy 1 tank"], False)


def test_a_mail_of_only_quotes_has_no_lines() -> None:
    assert body_lines("> buy 1 tank\n>> end orders\n") == ([], False)


# --- tags ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "base", "tag"),
    [
        ("umpire+g12@x.org", "umpire@x.org", "g12"),
        ("Umpire+G12@X.ORG", "umpire@x.org", "g12"),
        ("Referee <umpire+g7@x.org>", "umpire@x.org", "g7"),
        ("umpire@x.org", "umpire@x.org", None),
        ("umpire+@x.org", "umpire@x.org", None),
        ("umpire+g12@y.org", "umpire@x.org", None),
        ("umpires+g12@x.org", "umpire@x.org", None),
        ("other+g12@x.org", "umpire@x.org", None),
        ("", "umpire@x.org", None),
    ],
)
def test_plus_tag(address: str, base: str, tag: str | None) -> None:
    assert plus_tag(address, base) == tag


@pytest.mark.parametrize(
    ("subject", "tag"),
    [
        ("[g12] orders", "g12"),
        ("[Umpire g12]", "g12"),
        ("Re: [Umpire G12] Germany to move", "g12"),
        ("Fwd: Re: [list] [Umpire g3] round 2", "g3"),
        ("g12 orders", None),
        ("[Umpire game12]", None),
        ("[Umpire g]", None),
        ("", None),
    ],
)
def test_subject_tag(subject: str, tag: str | None) -> None:
    assert subject_tag(subject) == tag
