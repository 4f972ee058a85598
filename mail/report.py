"""What the referee writes by mail: the group's reports, private answers, their threading.

Every mail of one game belongs to one thread: its reports carry ``In-Reply-To`` and
``References`` naming the game's root (``<game-<id>@<domain>>``), a private answer names the
mail it answers too, and ``Reply-To`` is the game's own address (``umpire+<id>@domain``), so
that a reply reaches the right game. Subjects start with ``[Umpire <id>]``, which is also a way
in (``mail.message.subject_tag``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime

from mail.transport import OutMail
from rules.decisions import Pending
from rules.engine import pending, phase_name
from rules.state import GameState
from service.choices import decision_orders, order_text
from service.deadlines import deadline_line
from service.relay import Changes
from service.store import DeadlineRecord

HOW_TO = (
    "To give orders, write from your seat's address to {game_address} (replying to this mail "
    "does it) with your token on a line of its own ('token ABCDE-FGHIJ') and one order on each "
    "line between a line 'orders' and a line 'end orders'. The first refused line stops the "
    "rest; you get every line back with its result. Send 'help' for the order language, "
    "'send token' to have your token sent again."
)


def domain_of(address: str) -> str:
    return address.rpartition("@")[2] or "localhost"


def game_address(base: str, game_id: str) -> str:
    """``umpire+g12@example.org`` for ``umpire@example.org``."""
    local, _, domain = base.partition("@")
    return f"{local}+{game_id}@{domain}"


def root_id(game_id: str, base: str) -> str:
    """The Message-ID every mail of the game refers to (its thread)."""
    return f"<game-{game_id}@{domain_of(base)}>"


def new_id(game_id: str, base: str, what: str) -> str:
    return f"<{game_id}.{what}.{secrets.token_hex(6)}@{domain_of(base)}>"


def thread_headers(game_id: str, base: str, *, answering: str = "",
                   what: str = "report") -> dict[str, str]:
    """Message-ID, In-Reply-To, References and Reply-To of a mail of the game's thread."""
    root = root_id(game_id, base)
    refs = root if not answering or answering == root else f"{root} {answering}"
    return {
        "Message-ID": new_id(game_id, base, what),
        "In-Reply-To": answering or root,
        "References": refs,
        "Reply-To": game_address(base, game_id),
    }


def subject(game_id: str, text: str) -> str:
    return f"[Umpire {game_id}] {text}"[:200]


def state_subject(state: GameState | None) -> str:
    """``Round 2 · Germany · Combat Move`` (or the game's end)."""
    if state is None:
        return "In the lobby"
    if state.winner:
        return f"Game over: the {state.winner} won"
    if state.ended:
        return "Game over"
    return f"Round {state.round} · {state.power} · {phase_name(state)}"


def who(power: str, person: str) -> str:
    """``Germany (alice@example.org)``; a Discord player (an id) as ``(in Discord)``."""
    if not power:
        return f"{person} (in Discord)" if person.isdigit() else person or "The referee"
    if person.isdigit():
        return f"{power} (in Discord)"
    return f"{power} ({person})" if person and person != power else power


def decision_lines(state: GameState, owed: Pending) -> list[str]:
    """A decision a mail player owes: what it is and the lines that answer it."""
    head = f"{owed.power}: {owed.what}" + (f" in {owed.space}" if owed.space else "")
    lines = [f"{head}. Answer with one of these lines (or any other legal choice):"]
    for o in decision_orders(state, owed, limit=12):
        lines.append(f"    {order_text(o)}")
    return lines


def report_text(ch: Changes, *, base: str, seats: Mapping[str, str],
                deadline: DeadlineRecord | None, mail_people: Sequence[str],
                head_line: str = "", board: str = "") -> str:
    """The group's report of ``ch``: every order told (who gave it, its line, what it did),
    then whom the game waits for, the deadline, the decisions owed by mail, how to answer."""
    game = ch.game
    title = ch.state.edition.rules.title if ch.state is not None else game.edition
    out: list[str] = [f"Game {game.id} ({title}): what happened since the last report."]
    if ch.undone:
        out.append(f"({ch.undone} events of orders told before were taken back by undo.)")
    if ch.skipped:
        out.append(f"({ch.skipped} earlier orders are not repeated here: "
                   "'history' shows them.)")
    for t in ch.told:
        by = " (by the referee at the deadline)" if t.by_referee else ""
        text = t.text.replace(" (by the referee at the deadline)", "")
        out.append("")
        out.append(f"{who(t.power, t.person)}{by}: {text}")
        out.extend(f"    {line}" for line in t.lines)
    out.append("")
    if ch.waiting:
        out.append(ch.waiting)
    if deadline is not None and ch.state is not None and not ch.state.winner:
        out.append(deadline_line(deadline))
    state = ch.state
    if state is not None and not state.winner and not state.ended:
        owed = [p for p in pending(state)
                if p.space is not None and seats.get(p.power, "") in mail_people]
        for p in owed:
            out.append("")
            out.extend(decision_lines(state, p))
    if head_line:
        out.append("")
        out.append(head_line)
    if board:  # the web page (WEB_ENABLED): the live board; 'game link' for one's own link
        out.append("")
        out.append(f"The board, live: {board} ('game link' mails you your private link to "
                   "play there.)")
    out.append("")
    out.append(HOW_TO.format(game_address=game_address(base, game.id)))
    return "\n".join(out)


def private(to: str, game_id: str | None, base: str, title: str, text: str, *,
            answering: str = "", attachments: Sequence[tuple[str, bytes, str]] = ()) -> OutMail:
    """A mail to one person (an answer, a token, a confirmation), threaded in its game."""
    if game_id is None:
        headers = {"Message-ID": f"<umpire.{secrets.token_hex(8)}@{domain_of(base)}>"}
        if answering:
            headers["In-Reply-To"] = answering
            headers["References"] = answering
        return OutMail(to=(to,), subject=f"[Umpire] {title}"[:200], text=text,
                       headers=headers, attachments=tuple(attachments))
    return OutMail(to=(to,), subject=subject(game_id, title), text=text,
                   headers=thread_headers(game_id, base, answering=answering, what="answer"),
                   attachments=tuple(attachments))


def when(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M UTC")


__all__ = [
    "HOW_TO",
    "decision_lines",
    "game_address",
    "new_id",
    "private",
    "report_text",
    "root_id",
    "state_subject",
    "subject",
    "thread_headers",
    "when",
]
