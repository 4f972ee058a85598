"""Reading a received mail: headers, the plain-text orders and what was wrong; never raises."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.errors import (
    InvalidBase64CharactersDefect,
    InvalidBase64PaddingDefect,
    InvalidHeaderDefect,
)
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr, parsedate_to_datetime
from typing import TypeVar

MAX_MAIL_BYTES = 1_000_000
"""A mail longer than this is refused: only its headers are read (orders are a few lines)."""

_MAX_KEY_CHARS = 250
_MAX_SUBJECT_CHARS = 300
_MAX_HEADER_BYTES = 256_000  # the header block read of an oversized mail
_MAX_PARTS = 500  # parts looked at; a mail bomb of nested multiparts stops here
_MAX_DEPTH = 30
_MAX_REFERENCES = 100

_T = TypeVar("_T")
_D = TypeVar("_D")


@dataclass(frozen=True)
class InMail:
    """A received mail as the gateway needs it."""

    key: str  # the Message-ID as given, or "sha256:<hex of raw>" when absent, empty or too long
    message_id: str  # "" when absent
    sender: str  # the From addr-spec, lowercased; "" when missing, unparseable or several
    sender_name: str
    recipients: tuple[str, ...]  # To + Cc + Delivered-To addr-specs, lowercased, no duplicates
    subject: str  # decoded, whitespace collapsed, at most 300 characters
    date: datetime | None  # aware, UTC
    in_reply_to: str
    references: tuple[str, ...]
    text: str | None  # the first text/plain part that is not an attachment, decoded
    html_only: bool  # no text/plain part but a text/html one
    attachments: tuple[str, ...]  # file names (or content types) of the other parts
    problems: tuple[str, ...]  # sentences for the sender
    size: int


def parse_mail(raw: bytes) -> InMail:
    """Read a received mail; any input gives an InMail, problems say what could not be read."""
    problems: list[str] = []
    too_large = len(raw) > MAX_MAIL_BYTES
    try:
        msg = _parse(_header_block(raw) if too_large else raw)
    except Exception:  # the parser is lenient; this is the last guard against a crash
        msg = EmailMessage(policy=policy.default)
        problems.append("The mail could not be read as a mail at all.")
    if too_large:
        problems.append(
            f"The mail is {len(raw):,} bytes long, over the limit of {MAX_MAIL_BYTES:,}; "
            "only its headers were read. Send the orders as plain text without attachments."
        )
    message_id = "".join(_header(msg, "Message-ID").split())
    key = message_id
    if not key or len(key) > _MAX_KEY_CHARS:
        key = "sha256:" + hashlib.sha256(raw).hexdigest()
    try:
        sender, sender_name = _sender(msg, problems)
    except Exception:  # the last guard: a From no path above foresaw is no sender
        problems.append("The From address could not be read.")
        sender, sender_name = "", ""
    text: str | None = None
    html_only = False
    attachments: tuple[str, ...] = ()
    if not too_large:
        try:
            text, html_only, attachments = _body(msg, problems)
        except Exception:
            problems.append("The body of the mail could not be read.")
    return InMail(
        key=key,
        message_id=message_id,
        sender=sender,
        sender_name=sender_name,
        recipients=_recipients(msg),
        subject=_clean_line(_header(msg, "Subject"))[:_MAX_SUBJECT_CHARS],
        date=_date(msg),
        in_reply_to="".join(_header(msg, "In-Reply-To").split()),
        references=tuple(re.findall(r"<[^<>\s]+>", _header(msg, "References")))[
            :_MAX_REFERENCES
        ],
        text=text,
        html_only=html_only,
        attachments=attachments,
        problems=tuple(problems),
        size=len(raw),
    )


def _parse(raw: bytes) -> Message:
    return BytesParser(policy=policy.default).parsebytes(raw)


def _header_block(raw: bytes) -> bytes:
    """The header lines of a mail (up to the first empty line), for a mail too large to read."""
    head = raw[:_MAX_HEADER_BYTES]
    ends = [i for i in (head.find(b"\r\n\r\n"), head.find(b"\n\n")) if i >= 0]
    return head[: min(ends)] + b"\r\n\r\n" if ends else head


def _header(msg: Message, name: str) -> str:
    """The first header of that name as text (RFC 2047 decoded), "" when absent or unreadable."""
    try:
        value = msg.get(name)
        return "" if value is None else str(value)
    except Exception:  # a header the structured parser chokes on reads as absent
        return ""


def _headers(msg: Message, name: str) -> list[object]:
    try:
        return list(msg.get_all(name) or [])
    except Exception:  # a header the structured parser chokes on reads as absent
        return []


def _raw_header(msg: Message, name: str) -> str:
    """A header as written (folded, encoded words left as they are), "" when absent."""
    try:
        return next((str(v) for n, v in msg.raw_items() if n.lower() == name.lower()), "")
    except Exception:
        return ""


def _pairs(header: object) -> list[tuple[str, str]]:
    """(display name, addr-spec) of every address in a header, lowercased addresses."""
    try:
        # The structured parser of policy.default (address headers) is stricter than
        # getaddresses, which is left for the others (Delivered-To) and for its failures.
        pairs = [(a.display_name, a.addr_spec) for a in getattr(header, "addresses")]  # noqa: B009
    except Exception:
        pairs = getaddresses([str(header)])
    return [(_clean_line(n), a.strip().lower()) for n, a in pairs if a.strip()]


def _addr_specs(msg: Message, name: str) -> list[tuple[str, str]]:
    return [pair for header in _headers(msg, name) for pair in _pairs(header)]


_ADDR_SPEC = re.compile(r"[^@\s<>()\[\],;:\"]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?")


def _valid_addr(addr: str) -> bool:
    return _ADDR_SPEC.fullmatch(addr) is not None and ".." not in addr.split("@")[1]


def _sender(msg: Message, problems: list[str]) -> tuple[str, str]:
    headers = _headers(msg, "From")
    pairs = [pair for header in headers for pair in _pairs(header)]
    if len(headers) > 1 or len(pairs) > 1:
        problems.append("The mail has several From addresses; a mail for a seat needs exactly one.")
        return "", ""
    written = _clip(_raw_header(msg, "From"))
    if not written:
        problems.append("The mail has no From address.")
        return "", ""
    invalid = not headers or any(  # written but unreadable by the parser: not taken either
        isinstance(d, InvalidHeaderDefect) for d in getattr(headers[0], "defects", ())
    )
    if invalid or not pairs or not _valid_addr(pairs[0][1]):
        # 'alice@x.org <mallory@evil.org>' reads as alice@x.org with a defect: which one a mail
        # program shows is anyone's guess, so neither is taken.
        problems.append(f"The From address ({written}) could not be read as one mail address.")
        return "", ""
    name, addr = pairs[0]
    claimed = [a.lower() for a in _ADDR_SPEC.findall(name)]
    if any(a != addr for a in claimed):
        # '"alice@x.org" <mallory@evil.org>': the name says one thing, the address decides.
        problems.append(
            f"The sender's name ({_clip(name)}) looks like another address; "
            f"the mail is from {addr}."
        )
    return addr, name


def _recipients(msg: Message) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for header in ("To", "Cc", "Delivered-To"):
        for _, addr in _addr_specs(msg, header):
            if _valid_addr(addr):
                seen.setdefault(addr, None)
    return tuple(seen)


def _date(msg: Message) -> datetime | None:
    value = _header(msg, "Date").strip()
    if not value:
        return None
    try:
        when = parsedate_to_datetime(value)
    except Exception:
        return None
    # A "-0000" zone parses naive: the time is UTC, the sender's zone unknown (RFC 5322 3.3).
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _body(msg: Message, problems: list[str]) -> tuple[str | None, bool, tuple[str, ...]]:
    """The first plain-text part decoded, whether there is only HTML, and the other parts' names."""
    text: str | None = None
    html = False
    attachments: list[str] = []
    for part in _leaves(msg):
        content_type = _safe(part.get_content_type, "application/octet-stream")
        attached = _is_attachment(part)
        if content_type == "text/plain" and not attached and text is None:
            text = _decode_text(part, problems)
        elif content_type == "text/html" and not attached:
            html = True  # the HTML alternative of the text; not an attachment
        else:
            name = _safe(part.get_filename, None)
            attachments.append(_clean_line(name) if name else content_type)
    return text, text is None and html, tuple(attachments)


def _leaves(msg: Message) -> list[Message]:
    """The non-multipart parts in order; an attached mail (message/rfc822) counts as one part."""
    leaves: list[Message] = []
    stack: list[tuple[Message, int]] = [(msg, 0)]
    while stack and len(leaves) < _MAX_PARTS:
        part, depth = stack.pop()
        payload = part.get_payload()
        if part.get_content_maintype() == "multipart" and depth < _MAX_DEPTH:
            if isinstance(payload, list):
                stack.extend((p, depth + 1) for p in reversed(payload) if isinstance(p, Message))
        elif part.get_content_maintype() != "multipart":
            leaves.append(part)
    return leaves


def _is_attachment(part: Message) -> bool:
    disposition = _safe(part.get_content_disposition, None)
    return disposition == "attachment" or _safe(part.get_filename, None) is not None


def _decode_text(part: Message, problems: list[str]) -> str:
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    if any(isinstance(d, InvalidBase64CharactersDefect | InvalidBase64PaddingDefect)
           for d in part.defects):
        problems.append("The text's base64 encoding is damaged; what could be read was read.")
    declared = _safe(part.get_content_charset, None)
    text = _decode_bytes(data, declared, problems)
    text = text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")
    return _strip_controls(text, problems)


def _decode_bytes(data: bytes, declared: str | None, problems: list[str]) -> str:
    """Bytes to text by the declared charset, else UTF-8 with errors replaced (said in problems)."""
    if declared:
        try:
            return data.decode(declared)
        except LookupError:  # unknown name, or a codec that is no text encoding (rot13, base64)
            why = f"The text is in an unknown character set ({_clip(declared)})"
        except (UnicodeError, ValueError, TypeError):
            why = f"The text does not decode as its declared character set ({_clip(declared)})"
    else:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            why = "The text declares no character set and is not UTF-8"
    try:
        text = data.decode("utf-8")
        problems.append(f"{why}; it was read as UTF-8.")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        problems.append(f"{why}; it was read as UTF-8 with errors replaced.")
    return text


def _strip_controls(text: str, problems: list[str]) -> str:
    kept = [c for c in text if c in "\t\n" or unicodedata.category(c) != "Cc"]
    removed = len(text) - len(kept)
    if removed:
        nul = " (such as NUL)" if "\0" in text else ""
        problems.append(
            f"The text held {removed} control character{'s' if removed > 1 else ''}{nul}; "
            f"{'they were' if removed > 1 else 'it was'} removed."
        )
    return "".join(kept)


def _clean_line(value: str) -> str:
    """A header value on one line: control characters dropped, whitespace collapsed."""
    return " ".join("".join(c if unicodedata.category(c) != "Cc" else " " for c in value).split())


def _clip(value: str, limit: int = 60) -> str:
    value = _clean_line(value)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _safe(read: Callable[[], _T], default: _D) -> _T | _D:
    try:
        return read()
    except Exception:  # a malformed parameter the email package fails on reads as absent
        return default


# --- the order lines of a body ---------------------------------------------------------------

_QUOTED = re.compile(r"^\s*>")
# "On Fri, 27 Nov 2026 at 15:02, Alice <a@x.org> wrote:" and its kin in a few languages.
_WROTE = re.compile(
    r"(wrote|writes|schrieb|a écrit|escribió|ha scritto|schreef|skrev|napisał)\s*:\s*$",
    re.IGNORECASE,
)
_ON_WROTE = re.compile(r"^\s*(on|am|le|el|il|op|den|w dniu)\b.*", re.IGNORECASE)
# Where an earlier mail begins unquoted below the reply (Outlook, forwards): all of it dropped.
_HISTORY = re.compile(
    r"^\s*(-{2,}\s*original message\s*-{2,}|_{2,}|-{3,}\s*forwarded message\s*-{3,}"
    r"|begin forwarded message:)\s*$",
    re.IGNORECASE,
)
_OUTLOOK_FROM = re.compile(r"^\s*\*?from:\*?\s+\S", re.IGNORECASE)
_OUTLOOK_NEXT = re.compile(r"^\s*\*?(sent|date|to):\*?\s", re.IGNORECASE)
_SENT_FROM = re.compile(
    r"^\s*(sent|get|sent with|envoyé|gesendet)\b.{0,60}\b(from|with|for|de|von|mit)\b.{0,60}$",
    re.IGNORECASE,
)


def body_lines(text: str) -> tuple[list[str], bool]:
    """The order lines of a body, stripped and non-blank, and whether order markers were found.

    Between a line `orders` and a line `end orders` (any case and spacing, a colon allowed; several
    blocks are joined; quoted lines inside are dropped; a block left open runs to the end of the
    text, cleaned as a body without markers). Without markers: the whole body, less quoted lines
    and the line introducing them, and less everything from a signature separator on. A lone
    `end orders` ends the body. An earlier mail below the reply (Outlook's separator or header
    block, a forward) is never read, markers included, so a reply quoting old orders unquoted does
    not give them again.
    """
    lines = _before_history(text.splitlines())
    if not any(_marker(line) == "start" for line in lines):
        for i, line in enumerate(lines):
            if _marker(line) == "end":
                lines = lines[:i]
                break
        return _unquoted_body(lines), False
    found: list[str] = []
    block: list[str] | None = None
    for line in lines:
        mark = _marker(line)
        if block is None:
            if mark == "start":
                block = []
        elif mark == "end":
            found.extend(line.strip() for line in block if line.strip() and not _QUOTED.match(line))
            block = None
        elif mark is None:
            block.append(line)
    if block is not None:
        found.extend(_unquoted_body(block))
    return found, True


def _marker(line: str) -> str | None:
    words = " ".join(line.split()).lower().removesuffix(":").rstrip()
    return "start" if words == "orders" else "end" if words == "end orders" else None


def _before_history(lines: list[str]) -> list[str]:
    for i, line in enumerate(lines):
        if _HISTORY.match(line):
            return lines[:i]
        if _OUTLOOK_FROM.match(line) and any(
            _OUTLOOK_NEXT.match(n) for n in lines[i + 1 : i + 3]
        ):
            return lines[:i]
    return lines


def _unquoted_body(lines: list[str]) -> list[str]:
    """A body without quoted lines, their introduction, the signature and a 'Sent from' line."""
    kept: list[str] = []
    for i, line in enumerate(lines):
        if line.rstrip() == "--":  # "-- " by the standard, "--" as often typed
            break
        if _QUOTED.match(line):
            continue
        if _WROTE.search(line) and (_ON_WROTE.match(line) or _quote_follows(lines, i)):
            # Gmail folds a long "On ... wrote:" over two lines; the first goes too.
            if kept and _ON_WROTE.match(kept[-1]) and not _WROTE.search(kept[-1]):
                kept.pop()
            continue
        kept.append(line)
    stripped = [line.strip() for line in kept if line.strip()]
    while stripped and _SENT_FROM.match(stripped[-1]) and len(stripped[-1]) <= 80:
        stripped.pop()
    return stripped


def _quote_follows(lines: list[str], i: int) -> bool:
    for line in lines[i + 1 :]:
        if line.strip():
            return _QUOTED.match(line) is not None
    return False


# --- game tags -------------------------------------------------------------------------------

_GAME_ID = re.compile(r"g\d+", re.IGNORECASE)


def plus_tag(address: str, base: str) -> str | None:
    """The tag of a plus address of base ("umpire+g12@x.org" of "umpire@x.org" is "g12")."""
    addr = (parseaddr(address)[1] if "<" in address else address).strip().lower()
    base = base.strip().lower()
    base_local, _, base_domain = base.rpartition("@")
    local, _, domain = addr.rpartition("@")
    if not base_local or domain != base_domain or not local.startswith(base_local + "+"):
        return None
    tag = local[len(base_local) + 1 :]
    return tag if tag and not any(c.isspace() for c in tag) else None


def subject_tag(subject: str) -> str | None:
    """The game id in a bracketed tag of a subject ("Re: [Umpire g12] ..." gives "g12")."""
    for match in re.finditer(r"\[([^\[\]]{1,80})\]", subject):
        for word in match.group(1).split():
            if _GAME_ID.fullmatch(word):
                return word.lower()
    return None
