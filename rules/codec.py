"""The state's codec: a ``GameState`` as JSON and back, derived from the state's model.

Every field of ``GameState``, and of every dataclass it holds (``Unit``, ``BattleState``, ...), is
written by walking the dataclasses and read back through pydantic's validation of the model's
own annotations, so a field added to ``rules/state.py`` is written and read without this module
knowing it. A field typed ``Edition`` is written as the edition's id.

The state has two documents, both from this model:

- the *full document* (``state_to_json`` / ``state_from_json``): every field, exactly. Snapshots
  (``db/snapshot.py``) and exports (``service/transfer.py``) are written with it. A document
  written for another shape of the state (a field added or removed since) is not guessed at:
  ``state_from_json`` raises ``CodecError`` (a snapshot is then replayed instead), and
  ``differences`` compares only the fields both shapes have (an old export on import);
- the *position document* (``rules/position.py``): the human-oriented keys of a position file
  and of ``state``. It declares, for every field that ``model_types`` finds, the keys that
  write it or why a position does not carry it, and refuses a model with an undeclared field.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from enum import Enum
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.edition import Edition, load_edition
from rules.state import GameState

FORMAT = 2  # of the full document. 1: fields listed by hand; 2: derived from the model


class CodecError(ValueError):
    """A document that cannot be read as a state of this model."""


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses → objects, tuples and sets → lists (sets
    sorted), enums → their values, editions → their ids, dict keys → text."""
    if value is None or type(value) in _SCALARS:  # exactly: an enum of str is not one
        return value
    if isinstance(value, Edition):
        return value.id
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: plain(getattr(value, name)) for name in _names(type(value))}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


_SCALARS = frozenset({str, int, float, bool})
_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The field names of a dataclass (``dataclasses.fields`` is slow for every piece)."""
    if cls not in _NAMES:
        _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return _NAMES[cls]


def model_types(model: type) -> list[type]:
    """``model`` and every dataclass its fields' annotations reach (``GameState`` → ``Unit``,
    ``BattleState``), in the order first met."""
    found: list[type] = []

    def visit(tp: Any) -> None:
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            if tp in found:
                return
            found.append(tp)
            hints = typing.get_type_hints(tp)
            for f in dataclasses.fields(tp):
                visit(hints[f.name])
            return
        for arg in typing.get_args(tp):
            visit(arg)

    visit(model)
    return found


def _is_edition(tp: Any) -> bool:
    return tp is Edition or (isinstance(tp, types.UnionType) and Edition in typing.get_args(tp))


_ADAPTERS: dict[type, dict[str, TypeAdapter[Any] | None]] = {}


def _adapters(model: type) -> dict[str, TypeAdapter[Any] | None]:
    """A validator per field of ``model`` from its annotation (None: an ``Edition``)."""
    if model not in _ADAPTERS:
        hints = typing.get_type_hints(model)
        _ADAPTERS[model] = {
            f.name: None if _is_edition(hints[f.name]) else TypeAdapter(hints[f.name])
            for f in dataclasses.fields(model)
        }
    return _ADAPTERS[model]


def state_to_json(state: GameState) -> dict[str, Any]:
    """Every field of ``state`` (not only what ``state`` prints), JSON-ready."""
    doc = {f.name: plain(getattr(state, f.name)) for f in dataclasses.fields(state)}
    doc["format"] = FORMAT
    return doc


def state_from_json(doc: dict[str, Any], model: type[GameState] = GameState) -> GameState:
    """The state that ``state_to_json`` wrote; ``CodecError`` if it cannot be read as one of
    ``model`` (another format, another shape of the state, a value of the wrong type)."""
    if doc.get("format") != FORMAT:
        raise CodecError("written in another format")
    adapters = _adapters(model)
    # A document written before a field was added (or after one was removed) is not guessed
    # at: a snapshot is replayed instead.
    if set(doc) != {*adapters, "format"}:
        raise CodecError("written for another shape of the state")
    try:
        values: dict[str, Any] = {
            k: load_edition(str(doc[k])) if a is None else a.validate_python(doc[k])
            for k, a in adapters.items()
        }
        return model(**values)
    except (KeyError, ValueError, TypeError, ValidationError) as e:
        raise CodecError(f"does not read as a state ({e})") from None


def differences(doc: dict[str, Any], state: GameState) -> list[str]:
    """The fields where a full document differs from ``state``: the fields both have (a
    document written for another shape of the state says less, and what it says must hold)."""
    now = state_to_json(state)
    return sorted(k for k in doc if k != "format" and k in now and doc[k] != now[k])


__all__ = [
    "FORMAT",
    "CodecError",
    "differences",
    "model_types",
    "plain",
    "state_from_json",
    "state_to_json",
]
