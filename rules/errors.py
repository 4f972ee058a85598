"""Errors the rules raise. Every message says what is wrong and what to do instead."""

from __future__ import annotations


class RulesError(Exception):
    """Base class: an order could not be accepted. Nothing changed."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        self.reason = message
        super().__init__(f"{message} (rule {rule})" if rule else message)


class InvalidOrder(RulesError):
    """The order is malformed: unknown names, bad numbers, missing parts."""


class IllegalOrder(RulesError):
    """The order is well formed but the rules forbid it now."""


class AmbiguousOrder(InvalidOrder):
    """A name or a choice matches several things; the message lists them."""

    def __init__(self, message: str, choices: list[str], rule: str | None = None) -> None:
        self.choices = choices
        super().__init__(message, rule)


class NotYourTurn(IllegalOrder):
    """Someone other than the power that owes this decision gave the order."""


class WrongPhase(IllegalOrder):
    """The order belongs to another phase."""
