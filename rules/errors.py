"""Errors the rules raise. Every message says what is wrong and what to do instead.

A refusal carries its message as data (``rules.messages.Msg``: key, parameters, cited rule);
``reason`` is its English text, which front ends show. A refusal built from a plain string
(``msg`` is then ``None``) is only for text that is not the referee's own words (a quoted
parser error); ``tests/test_messages.py`` keeps the rules to messages.
"""

from __future__ import annotations

from rules.messages import Msg


class RulesError(Exception):
    """Base class: an order could not be accepted. Nothing changed."""

    def __init__(self, message: str | Msg, rule: str | None = None) -> None:
        self.msg = message if isinstance(message, Msg) else None
        text = str(message)
        self.rule = rule
        self.reason = text
        super().__init__(f"{text} (rule {rule})" if rule else text)


class InvalidOrder(RulesError):
    """The order is malformed: unknown names, bad numbers, missing parts."""


class IllegalOrder(RulesError):
    """The order is well formed but the rules forbid it now."""


class AmbiguousOrder(InvalidOrder):
    """A name or a choice matches several things; the message lists them."""

    def __init__(self, message: str | Msg, choices: list[str], rule: str | None = None) -> None:
        self.choices = choices
        super().__init__(message, rule)


class NotYourTurn(IllegalOrder):
    """Someone other than the power that owes this decision gave the order."""


class WrongPhase(IllegalOrder):
    """The order belongs to another phase."""
