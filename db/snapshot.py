"""A ``GameState`` as JSON and back, for the ``snapshot`` table, and the snapshot's own hash.

The codec derives from the state's model (DESIGN §3): every field of ``GameState`` (and of the
dataclasses it holds) is written by walking the dataclass, and read back through pydantic's
validation of ``GameState``'s own annotations, so a field added to ``rules/state.py`` is kept
without this module knowing it (a snapshot written before the field existed is not read: the
state is replayed instead). The edition is written as its id.

A snapshot is trusted only as far as it can be checked (``SqlStore.load_state``): its
``content_hash`` (sha256 of the canonical JSON below) and the log's hash at its ``seq`` must both
match, else it is ignored, the state is replayed from the events, and the mismatch is reported.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import typing
from enum import Enum
from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.edition import load_edition
from rules.state import GameState

FORMAT = 2  # 1: fields listed by hand; 2: derived from the model (this module)


class SnapshotMismatch(Exception):
    """The snapshot cannot be read as a state of this version; replay instead."""


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses → objects, tuples and sets → lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, frozenset | set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@cache
def _adapters() -> dict[str, TypeAdapter[Any]]:
    """A validator per field of ``GameState`` from its annotation (the edition is read apart)."""
    hints = typing.get_type_hints(GameState)
    return {
        f.name: TypeAdapter(hints[f.name])
        for f in dataclasses.fields(GameState)
        if f.name != "edition"
    }


def state_to_json(state: GameState) -> dict[str, Any]:
    """Everything in ``state`` (not only the public ``state_json``), JSON-ready."""
    doc = {
        f.name: _plain(getattr(state, f.name))
        for f in dataclasses.fields(state)
        if f.name != "edition"
    }
    doc["edition"] = state.edition.id
    doc["format"] = FORMAT
    return doc


def state_from_json(doc: dict[str, Any]) -> GameState:
    """The ``GameState`` that ``state_to_json`` wrote; ``SnapshotMismatch`` if it cannot be."""
    if doc.get("format") != FORMAT:
        raise SnapshotMismatch("snapshot written in another format")
    adapters = _adapters()
    # A snapshot written before a field was added (or after one was removed) is not guessed
    # at: the state is replayed instead.
    if set(doc) != {*adapters, "format", "edition"}:
        raise SnapshotMismatch("snapshot written for another shape of the state")
    try:
        values = {k: a.validate_python(doc[k]) for k, a in adapters.items()}
        return GameState(edition=load_edition(str(doc["edition"])), **values)
    except (KeyError, ValueError, TypeError, ValidationError) as e:
        raise SnapshotMismatch(f"snapshot does not read as a state ({e})") from None


def content_hash(doc: dict[str, Any]) -> str:
    """sha256 (hex) of the snapshot document's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


__all__ = ["FORMAT", "SnapshotMismatch", "content_hash", "state_from_json", "state_to_json"]
