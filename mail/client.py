"""A player's mail from the command line, for trying the gateway on loopback (docs/mail.md).

``python -m mail.client --from alice@localhost --to umpire+g1@localhost "join Germany"``
sends one plain-text mail, each argument a line of its body, to the gateway's SMTP receiver
(``--server``, default ``127.0.0.1:2525``, the default of ``MAIL_LISTEN``).
"""

from __future__ import annotations

import argparse
import smtplib
import sys
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import formatdate, make_msgid


def build(sender: str, to: str, subject: str, lines: Sequence[str]) -> EmailMessage:
    """A plain-text mail with a fresh Message-ID."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "localhost")
    msg.set_content("\n".join(lines) + "\n")
    return msg


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mail.client", description=__doc__)
    parser.add_argument("--from", dest="sender", required=True, help="the player's address")
    parser.add_argument("--to", required=True, help="the game's address (umpire+g1@localhost)")
    parser.add_argument("--subject", default="orders", help="the subject (default: orders)")
    parser.add_argument("--server", default="127.0.0.1:2525", help="host:port of the receiver")
    parser.add_argument("lines", nargs="+", help="the body, one argument per line")
    args = parser.parse_args(argv)
    host, _, port = args.server.rpartition(":")
    msg = build(args.sender, args.to, args.subject, args.lines)
    try:
        with smtplib.SMTP(host or "127.0.0.1", int(port or 2525), timeout=120) as smtp:
            smtp.send_message(msg)
    except (OSError, smtplib.SMTPException) as e:
        sys.stderr.write(f"error: the mail was not delivered: {e}\n")
        return 1
    print(f"sent {msg['Message-ID']} to {args.to}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
