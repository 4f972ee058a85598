"""A ``GameState`` as JSON and back, for the ``snapshot`` table.

This belongs in ``rules`` next to ``GameState`` (it must change whenever ``rules/state.py`` does);
it lives here because ``rules`` has its own owner. To stay safe meanwhile, a snapshot records the
field names of ``GameState``, ``Unit`` and ``BattleState``; a snapshot written under other fields is
ignored (``SnapshotMismatch``) and the game is replayed from the start instead.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rules.edition import load_edition
from rules.state import BattleState, GameState, Unit

FORMAT = 1


class SnapshotMismatch(Exception):
    """The snapshot was written for another shape of the state; replay instead."""


def _fields(cls: type[Any]) -> list[str]:
    return [f.name for f in dataclasses.fields(cls)]


SHAPE: dict[str, Any] = {
    "format": FORMAT,
    "GameState": _fields(GameState),
    "Unit": _fields(Unit),
    "BattleState": _fields(BattleState),
}


# The GameState fields ``state_to_json`` writes. If rules/state.py grows a field, snapshots are
# switched off (never written, never read) until this module learns it: loads replay in full.
_WRITTEN = frozenset(
    {
        "edition", "options", "round", "power", "phase", "treasury", "owners", "units",
        "next_id", "purchase", "placed", "turn_start_owners", "battles", "standing", "winner",
        "seq", "started", "carrier_promises", "captured_this_turn", "techs", "debts", "flags",
        "ended",
    }
)
ENABLED = frozenset(SHAPE["GameState"]) == _WRITTEN


def _tuples(value: Any) -> Any:
    """JSON lists back to the tuples the frozen dataclasses hold (recursively)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _plain(obj: Any) -> dict[str, Any]:
    return {f: getattr(obj, f) for f in _fields(type(obj))}


def state_to_json(state: GameState) -> dict[str, Any]:
    """Everything in ``state`` (not only the public ``state_json``), JSON-ready."""
    if not ENABLED:
        raise SnapshotMismatch("rules.state.GameState has fields this module does not write")
    return {
        "shape": SHAPE,
        "edition": state.edition.id,
        "options": sorted(state.options),
        "round": state.round,
        "power": state.power,
        "phase": state.phase,
        "treasury": dict(state.treasury),
        "owners": dict(state.owners),
        "units": [_plain(u) for u in state.units.values()],
        "next_id": state.next_id,
        "purchase": dict(state.purchase),
        "placed": dict(state.placed),
        "turn_start_owners": dict(state.turn_start_owners),
        "battles": {
            space: {k: list(v) if isinstance(v, tuple) else v for k, v in _plain(b).items()}
            for space, b in state.battles.items()
        },
        "standing": {p: list(v) for p, v in state.standing.items()},
        "winner": state.winner,
        "seq": state.seq,
        "started": state.started,
        "carrier_promises": [list(p) for p in state.carrier_promises],
        "captured_this_turn": sorted(state.captured_this_turn),
        "techs": {p: list(v) for p, v in state.techs.items()},
        "debts": dict(state.debts),
        "flags": sorted(state.flags),
        "ended": state.ended,
    }


def state_from_json(doc: dict[str, Any]) -> GameState:
    """The ``GameState`` that ``state_to_json`` wrote; ``SnapshotMismatch`` if shapes differ."""
    if not ENABLED or doc.get("shape") != SHAPE:
        raise SnapshotMismatch("snapshot written for another GameState shape")
    units = {int(u["id"]): Unit(**u) for u in doc["units"]}
    battles = {
        space: BattleState(**{k: _tuples(v) for k, v in b.items()})
        for space, b in doc["battles"].items()
    }
    return GameState(
        edition=load_edition(doc["edition"]),
        options=frozenset(doc["options"]),
        round=doc["round"],
        power=doc["power"],
        phase=doc["phase"],
        treasury=dict(doc["treasury"]),
        owners=dict(doc["owners"]),
        units=units,
        next_id=doc["next_id"],
        purchase=dict(doc["purchase"]),
        placed=dict(doc["placed"]),
        turn_start_owners=dict(doc["turn_start_owners"]),
        battles=battles,
        standing={p: tuple(v) for p, v in doc["standing"].items()},
        winner=doc["winner"],
        seq=doc["seq"],
        started=doc["started"],
        carrier_promises=tuple((int(a), str(b)) for a, b in doc["carrier_promises"]),
        captured_this_turn=frozenset(doc["captured_this_turn"]),
        techs={p: tuple(v) for p, v in doc["techs"].items()},
        debts=dict(doc["debts"]),
        flags=frozenset(doc["flags"]),
        ended=doc.get("ended"),
    )


__all__ = ["ENABLED", "SHAPE", "SnapshotMismatch", "state_from_json", "state_to_json"]
