"""The game service: load → decide → append (→ render → notify), for every front end."""

from service.games import GameInfo, GameService, Result, ServiceError
from service.store import EventStore, GameNotFound, MemoryStore, StateMovedOn

__all__ = [
    "EventStore",
    "GameInfo",
    "GameNotFound",
    "GameService",
    "MemoryStore",
    "Result",
    "ServiceError",
    "StateMovedOn",
]
