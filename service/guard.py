"""The one gate for text at the service's entry points (issue 12, item 7).

``checks_text`` wraps every public ``async`` method of a class (``GameService``): before the
method runs, every text among its arguments (strings, and strings inside lists, tuples and
dicts, a position file's for example) passes ``rules.text.problem``. A text storage cannot hold
(a NUL, another control character, half a surrogate pair) or far too long is refused there,
before anything is read or written: a method that answers with a ``Result`` answers a refusal
("The order contains a control character (NUL); type it again without it."), any other raises
``ServiceError`` with the same sentence. A method added later is covered without a line more.

The parser checks every typed line the same way (``service.language``), and the SQL store checks
every statement's parameters once more (``db.engine``), so a path that slips past both entry
points still writes nothing.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from rules.text import MAX_TEXT, problem, refusal
from service.core import Result, ServiceError

T = TypeVar("T")

# What a parameter holds, in the words of a refusal ("The entropy phrase contains ...").
WORDS = {
    "text": "order",
    "order_text": "order",
    "entropy": "entropy phrase",
    "person": "name",
    "owner": "name",
    "user": "name",
    "newcomer": "name",
    "leaver": "name",
    "channel": "channel name",
    "guild": "server name",
    "power": "power name",
    "edition": "edition name",
    "options": "option",
    "space": "space name",
    "how": "choice",
    "game_id": "game id",
    "position": "position",
}
# Arguments checked by the method itself, with its own words (an export: "Not a game export").
SKIP = {"data"}
MAX_DEPTH = 20  # deeper nesting in an argument is refused (a position file is 4 levels deep)


class TextRefused(Exception):
    """A text argument storage cannot hold; ``str(e)`` is the refusal."""


def text_problem(value: Any, limit: int = MAX_TEXT, depth: int = 0) -> str | None:
    """What is wrong with a text in ``value`` (a string or strings nested in it), or None."""
    if isinstance(value, str):
        return problem(value, limit)
    if depth >= MAX_DEPTH:
        return f"is nested more than {MAX_DEPTH} levels deep"
    if isinstance(value, Mapping):
        for k, v in value.items():
            why = text_problem(k, limit, depth + 1) or text_problem(v, limit, depth + 1)
            if why:
                return why
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            why = text_problem(v, limit, depth + 1)
            if why:
                return why
    return None


def check_arguments(bound: Mapping[str, Any]) -> None:
    """Raise ``TextRefused`` for the first argument holding a text that cannot be stored."""
    for name, value in bound.items():
        if name in SKIP or name == "self":
            continue
        why = text_problem(value)
        if why is not None:
            raise TextRefused(refusal(WORDS.get(name, name.replace("_", " ")), why))


def _guard(fn: Callable[..., Any], answers_result: bool) -> Callable[..., Any]:
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return await fn(*args, **kwargs)  # let Python say what is wrong with the call
        try:
            check_arguments(bound.arguments)
        except TextRefused as e:
            if answers_result:
                return Result.refused(str(e), kind=fn.__name__)
            raise ServiceError(str(e)) from None
        return await fn(*args, **kwargs)

    return wrapper


def checks_text(cls: type[T]) -> type[T]:
    """Class decorator: every public coroutine method checks its text arguments first, the
    ones it inherits (from the service's rooms) too."""
    for name in dir(cls):
        attr = getattr(cls, name)
        if name.startswith("_") or not inspect.iscoroutinefunction(attr):
            continue
        ret = str(inspect.signature(attr).return_annotation)
        setattr(cls, name, _guard(attr, ret == "Result"))
    return cls


__all__ = ["WORDS", "TextRefused", "check_arguments", "checks_text", "text_problem"]
