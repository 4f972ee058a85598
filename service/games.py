"""The game service: the one place that sequences load → decide → append (→ render → notify).

Front ends (Discord cogs, the local table, later e-mail) translate what a person typed or clicked
into calls here and show the ``Result``. Nothing here knows about Discord or terminals, and no
rule is decided here: the service picks *which power* acts for a person (from the seats) and
lets ``rules.engine.decide`` say whether the order is legal. Nothing changes on any error.

``GameService`` is the facade every front end holds. Its requests live in rooms, one module
each (``service.rooms`` lists them), over a shared core (``service.core``: the store, loading,
answers); this module adds the text entry points (a line of the order language, parsed by
``service.commands``) and the gate every text argument passes (``service.guard``). The names
front ends import from here (``Result``, ``GameInfo``, ``ServiceError``...) are the core's.
"""

from __future__ import annotations

from dataclasses import replace

from rules.engine import phase_name
from service import commands
from service.core import (
    NOT_SEATED,
    CountingDice,
    GameInfo,
    GameIsCorrupt,
    Result,
    ServiceError,
    head_line,
    make_dice,
    new_dice_spec,
)
from service.guard import checks_text
from service.lobby import start_events
from service.rooms import Rooms
from service.store import CorruptGame, GameNotFound, OrderRecord
from service.views import CORRUPT_LINE


@checks_text  # every text argument is checked before a method runs (service.guard)
class GameService(Rooms):
    """Games over an ``EventStore``. Every method is ``async`` so a database store fits."""

    # --- lines of the order language --------------------------------------------------------------
    async def handle(self, channel: str, person: str, text: str, *, guild: str = "") -> Result:
        """One line typed by ``person`` in ``channel`` (of server ``guild``): any command of the
        order language."""
        return await commands.handle(self, channel, person, text, guild=guild)

    async def submit(self, game_id: str, person: str, text: str) -> Result:
        """Parse one line of the order language and carry it out for ``person`` in this game."""
        # A held game's record tells how to read the line (its edition, fixed for life): no
        # read before the order's own. A refusal of the line names the game as stored.
        rec = self._held_record(game_id)
        held = rec is not None
        if rec is None:
            try:
                rec = await self.store.get_game(game_id)
            except (GameNotFound, CorruptGame) as e:
                return Result.refused(str(e))
        result = await commands.run(self, rec, person, text)
        if held and result.kind == "parse" and not result.ok:
            try:
                result = replace(result, game=await self.info(game_id))
            except ServiceError as e:
                return Result.refused(str(e))
        return result


__all__ = [
    "CORRUPT_LINE",
    "NOT_SEATED",
    "CountingDice",
    "GameInfo",
    "GameIsCorrupt",
    "GameService",
    "OrderRecord",
    "Result",
    "ServiceError",
    "head_line",
    "make_dice",
    "new_dice_spec",
    "phase_name",
    "start_events",
]
