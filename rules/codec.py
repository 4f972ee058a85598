"""The state's codec: a ``GameState`` as JSON and back, derived from the state's model.

Every field of ``GameState``, and of every dataclass it holds (``Unit``, ``BattleState``, ...), is
written by walking the dataclasses and read back through pydantic's validation of the model's
own annotations, so a field added to ``rules/state.py`` is written and read without this module
knowing it. A field typed ``Edition`` is written as the edition's id; the mechanisms' parts
(``rules.state.Parts``) as an object with every registered part under its key, each part's
default included.

The state has two documents, both from this model:

- the *full document* (``state_to_json`` / ``state_from_json``): every field, exactly. Snapshots
  (``db/snapshot.py``) and exports (``service/transfer.py``) are written with it. A document
  written for another shape of the state (a field added or removed since, at any depth, or a
  part registered or dropped) is not guessed at: ``state_from_json`` raises ``CodecError`` (a
  snapshot is then replayed instead), and ``differences`` compares only the fields both shapes
  have, reading a part's fields where older documents kept them (``PartInfo.formerly``) (an
  old export on import);
- the *position document* (``rules/position.py``): the human-oriented keys of a position file
  and of ``state``. It declares, for every field that ``model_types`` finds, the keys that
  write it or why a position does not carry it, and refuses a model with an undeclared field.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

from pydantic import TypeAdapter, ValidationError

from rules.edition import Edition, load_edition
from rules.state import GameState, Parts, part_infos

# Of the full document. 1: fields listed by hand; 2: derived from the model; 3: with the
# mechanisms' parts, and read only if its shape is the model's at every depth.
FORMAT = 3


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
    if isinstance(value, Parts):
        return {i.key: plain(value.get(i.cls, i.default)) for i in part_infos()}
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


Reader = Callable[[Any], Any]
_READERS: dict[type, dict[str, Reader]] = {}


def _readers(model: type) -> dict[str, Reader]:
    """A reader per field of ``model`` from its annotation: the shape checked (``_checker``),
    then pydantic's validation; an ``Edition`` from its id; the parts (``_read_parts``)."""
    if model not in _READERS:
        hints = typing.get_type_hints(model)
        _READERS[model] = {f.name: _reader(hints[f.name]) for f in dataclasses.fields(model)}
    return _READERS[model]


def _reader(tp: Any) -> Reader:
    if _is_edition(tp):
        return lambda v: load_edition(str(v))
    if tp is Parts:
        return _read_parts
    return _validated(tp)


def _validated(tp: Any) -> Reader:
    adapter: TypeAdapter[Any] = TypeAdapter(tp)
    check = _checker(tp)
    if check is None:
        return adapter.validate_python

    def read(v: Any) -> Any:
        check(v)
        return adapter.validate_python(v)

    return read


_PART_READERS: dict[type, Reader] = {}


def _read_parts(doc: Any) -> Parts:
    infos = part_infos()
    if not isinstance(doc, dict) or doc.keys() != {i.key for i in infos}:
        raise CodecError("written for another shape of the state (the mechanisms' parts)")
    parts = Parts()
    for i in infos:
        if i.cls not in _PART_READERS:
            _PART_READERS[i.cls] = _validated(i.cls)
        value = _PART_READERS[i.cls](doc[i.key])
        if value != i.default:
            parts[i.cls] = value
    return parts


Checker = Callable[[Any], None]
_CHECKERS: dict[Any, Checker | None] = {}


def _checker(tp: Any) -> Checker | None:
    """What checks that a document's value of type ``tp`` has exactly the fields of every
    dataclass within it (pydantic would fill a missing field with its default and drop an
    unknown one); None when ``tp`` holds no dataclass."""
    if tp not in _CHECKERS:
        _CHECKERS[tp] = None  # a type that holds itself checks its outer level only
        _CHECKERS[tp] = _make_checker(tp)
    return _CHECKERS[tp]


def _make_checker(tp: Any) -> Checker | None:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        names = frozenset(_names(tp))
        inner = [(n, c) for n in _names(tp) if (c := _checker(hints[n])) is not None]
        cls_name = tp.__name__

        def check_fields(v: Any) -> None:
            if not isinstance(v, dict) or v.keys() != names:
                raise CodecError(f"written for another shape of the state ({cls_name})")
            for n, c in inner:
                c(v[n])

        return check_fields
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is dict:
        each = _checker(args[1])
        if each is None:
            return None

        def check_values(v: Any) -> None:
            for x in v.values() if isinstance(v, dict) else ():
                each(x)

        return check_values
    if origin in (tuple, list, set, frozenset):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            at = [(k, c) for k, a in enumerate(args) if (c := _checker(a)) is not None]
            if not at:
                return None

            def check_positions(v: Any) -> None:
                if isinstance(v, list) and len(v) == len(args):
                    for k, c in at:
                        c(v[k])

            return check_positions
        item = _checker(args[0]) if args else None
        if item is None:
            return None

        def check_items(v: Any) -> None:
            for x in v if isinstance(v, list) else ():
                item(x)

        return check_items
    if origin is typing.Union or isinstance(tp, types.UnionType):
        options = [c for a in args if a is not type(None) and (c := _checker(a)) is not None]
        if len(options) != 1:  # none to check, or several: pydantic tells them apart
            return None
        (option,) = options

        def check_option(v: Any) -> None:
            if v is not None:
                option(v)

        return check_option
    return None


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
    readers = _readers(model)
    # A document written before a field was added (or after one was removed) is not guessed
    # at: a snapshot is replayed instead.
    if set(doc) != {*readers, "format"}:
        raise CodecError("written for another shape of the state")
    try:
        return model(**{k: read(doc[k]) for k, read in readers.items()})
    except CodecError:
        raise
    except (KeyError, ValueError, TypeError, ValidationError) as e:
        raise CodecError(f"does not read as a state ({e})") from None


def differences(doc: dict[str, Any], state: GameState) -> list[str]:
    """The fields where a full document differs from ``state``: the fields both have (a
    document written for another shape of the state says less, and what it says must hold),
    a part's fields read where an older document kept them (``PartInfo.formerly``); a part
    that differs is named ``parts.<key>``."""
    now = state_to_json(state)
    doc = _upgraded(doc)
    out = [k for k in doc if k not in ("format", "parts") and k in now and doc[k] != now[k]]
    if "parts" in doc:
        said = doc["parts"]
        if not isinstance(said, dict):
            out.append("parts")
        else:
            for key, old in said.items():
                new = now["parts"].get(key)
                if new is not None and (not isinstance(old, dict)
                                        or any(f in new and v != new[f] for f, v in old.items())):
                    out.append(f"parts.{key}")
    return sorted(out)


def _upgraded(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with the fields that it kept elsewhere, being older than a part
    (``PartInfo.formerly``: ``"marks.disrupted"``, ``"debts"``), moved into its parts. A path
    ``"units.*.flag"`` is a flag kept on each item of a mapping: the part's field lists the keys
    of the items where it was set (as numbers where the keys are numbers, unit ids)."""
    out = dict(doc)
    said = doc.get("parts")
    parts: dict[str, Any] = dict(said) if isinstance(said, dict) else {}
    moved = False
    for info in part_infos():
        if info.key in parts:
            continue
        found: dict[str, Any] = {}
        for name, path in info.formerly:
            head, _, rest = path.partition(".")
            old = out.get(head)
            if (rest.startswith("*.") and isinstance(old, dict)
                    and any(isinstance(item, dict) and rest[2:] in item for item in old.values())):
                flag = rest[2:]
                found[name] = sorted(_key(k) for k, item in old.items()
                                     if isinstance(item, dict) and item.get(flag))
                out[head] = {k: {f: v for f, v in item.items() if f != flag}
                             if isinstance(item, dict) else item for k, item in old.items()}
            elif not rest and head in out:
                found[name] = out.pop(head)
            elif rest and isinstance(old, dict) and rest in old:
                found[name] = old[rest]
                out[head] = {k: v for k, v in old.items() if k != rest}
        if found:
            parts[info.key] = found
            moved = True
    if moved:
        out["parts"] = parts
    return out


def _key(k: str) -> int | str:
    return int(k) if k.isdigit() else k


__all__ = [
    "FORMAT",
    "CodecError",
    "differences",
    "model_types",
    "plain",
    "state_from_json",
    "state_to_json",
]
