"""The meta-commands: what a line of the order language can say besides a rules order.

``game new``, ``undo``, ``odds``, ``pause``, ``edit ...``: the service's own verbs (a game's
life, its seats, its log, the referee's tools and the owner's), plain frozen data that the
service decides what to do with (``service.commands``). Their descriptions are registered in
``META`` by ``service.meta_grammar`` and ``service.meta_admin``.
"""

from __future__ import annotations

import warnings
from typing import Literal

from pydantic import BaseModel, ConfigDict

from rules.edits import EditChange, format_edit
from rules.language.registry import Grammar
from rules.orders import Units

__all__ = [
    "META",
    "Deadline",
    "DiceVerify",
    "EditConfirm",
    "EditList",
    "EditPropose",
    "EditReject",
    "GameCancel",
    "GameCheck",
    "GameConcede",
    "GameDraw",
    "GameExport",
    "GameHistory",
    "GameJoin",
    "GameLeave",
    "GameLink",
    "GameList",
    "GameMap",
    "GameMine",
    "GameNew",
    "GameRepair",
    "GameStart",
    "GameStatus",
    "Help",
    "Kick",
    "Luck",
    "Meta",
    "MetaCommand",
    "Odds",
    "Pause",
    "Resume",
    "State",
    "Substitute",
    "Undo",
]


class MetaCommand(BaseModel):
    """The base of every meta-command (a command that is not a rules order)."""

    model_config = ConfigDict(frozen=True, extra="forbid")



class GameNew(MetaCommand):
    """`game new <edition> [short] [errata]`: create a game bound to this channel."""

    kind: Literal["game_new"] = "game_new"
    edition: str  # edition id, as its data names it
    options: tuple[str, ...] = ()  # lowercase words as typed, e.g. ("short",), ("errata",)


class GameJoin(MetaCommand):
    """`game join <power> [entropy phrase]`: take a seat before the start."""

    kind: Literal["game_join"] = "game_join"
    power: str
    entropy: str = ""  # the phrase as typed (mixed into the dice keys, DESIGN §6)


class GameStart(MetaCommand):
    """`game start`."""

    kind: Literal["game_start"] = "game_start"


with warnings.catch_warnings():
    # COMMANDS.md names the flag `--json`; the field keeps that name although BaseModel has a
    # (deprecated) ``json()`` method. The field wins on the instance, so ``status.json`` is a bool.
    warnings.filterwarnings("ignore", message='Field name "json"', category=UserWarning)

    class GameStatus(MetaCommand):
        """`game status [--json]`."""

        kind: Literal["game_status"] = "game_status"
        json: bool = False  # type: ignore[assignment]


class GameMap(MetaCommand):
    """`game map [space]`: the map image, optionally centred on a space."""

    kind: Literal["game_map"] = "game_map"
    space: str | None = None


class GameHistory(MetaCommand):
    """`game history [n]`: the last n events (all when None)."""

    kind: Literal["game_history"] = "game_history"
    n: int | None = None


class GameExport(MetaCommand):
    """`game export`: the full event log as JSON."""

    kind: Literal["game_export"] = "game_export"


class GameCheck(MetaCommand):
    """`game check`: the stored log's checks (hash chain, published heads, snapshots)."""

    kind: Literal["game_check"] = "game_check"


class GameRepair(MetaCommand):
    """`game repair truncate|reseal`: the owner's way out of a corrupt log."""

    kind: Literal["game_repair"] = "game_repair"
    how: Literal["truncate", "reseal"]


# --- a game's whole life (issue 11, item 5) ---------------------------------------------------


class GameLeave(MetaCommand):
    """`game leave`: give up one's seats before the start."""

    kind: Literal["game_leave"] = "game_leave"


class GameCancel(MetaCommand):
    """`game cancel [withdraw]`: the owner before the start; after it, a vote of the players."""

    kind: Literal["game_cancel"] = "game_cancel"
    withdraw: bool = False


class GameConcede(MetaCommand):
    """`game concede [withdraw]`: give up for one's side (every holder of its seats concedes)."""

    kind: Literal["game_concede"] = "game_concede"
    withdraw: bool = False


class GameDraw(MetaCommand):
    """`game draw [withdraw]`: vote for a draw (every seated player must)."""

    kind: Literal["game_draw"] = "game_draw"
    withdraw: bool = False


class GameList(MetaCommand):
    """`game list [all]`: the games of this server (`all`: finished and cancelled ones too)."""

    kind: Literal["game_list"] = "game_list"
    all: bool = False


class GameLink(MetaCommand):
    """`game link [revoke]`: the game's web page; for a seat holder, their private link
    (``revoke``: the links given before stop working and a new one is given)."""

    kind: Literal["game_link"] = "game_link"
    revoke: bool = False


class GameMine(MetaCommand):
    """`game mine`: my seats across this server and where I am awaited."""

    kind: Literal["game_mine"] = "game_mine"


class Undo(MetaCommand):
    """`undo`: take back the last order of this phase (only if no dice were rolled since)."""

    kind: Literal["undo"] = "undo"


class Odds(MetaCommand):
    """`odds <units> vs <units> [in <space>] [with <developments>]`."""

    kind: Literal["odds"] = "odds"
    attackers: Units
    defenders: Units
    space: str | None = None
    developments: tuple[str, ...] = ()  # technology ids, for both sides (rules.odds)


class Luck(MetaCommand):
    """`luck [space]`: expected against rolled hits, the whole game or battles in one space."""

    kind: Literal["luck"] = "luck"
    space: str | None = None


class DiceVerify(MetaCommand):
    """`dice verify [round]`: recompute revealed rolls (all revealed rounds when None)."""

    kind: Literal["dice_verify"] = "dice_verify"
    round: int | None = None


class State(MetaCommand):
    """`state`: the full state (JSON at the local table)."""

    kind: Literal["state"] = "state"


class Help(MetaCommand):
    """`help [topic]`."""

    kind: Literal["help"] = "help"
    topic: str | None = None  # lowercase, e.g. "move"


class Pause(MetaCommand):
    """Admin: `pause` the game's deadlines."""

    kind: Literal["pause"] = "pause"


class Resume(MetaCommand):
    """Admin: `resume`."""

    kind: Literal["resume"] = "resume"


class Deadline(MetaCommand):
    """Admin: `deadline <text>`, e.g. `deadline 24h`; the text is interpreted by the service."""

    kind: Literal["deadline"] = "deadline"
    text: str


class Substitute(MetaCommand):
    """Admin: `substitute <power> <user>`; the user as typed (a mention, a name...)."""

    kind: Literal["substitute"] = "substitute"
    power: str
    user: str


class Kick(MetaCommand):
    """Admin: `kick <user>`."""

    kind: Literal["kick"] = "kick"
    user: str


class EditPropose(MetaCommand):
    """Admin: `edit add|remove|move|owner|money ...`: propose a game-master edit (rules.edits)."""

    kind: Literal["edit_propose"] = "edit_propose"
    change: EditChange

    @property
    def text(self) -> str:
        return format_edit(self.change)


class EditConfirm(MetaCommand):
    """`edit confirm <n>`: a player of the other side agrees to proposal n; it is applied."""

    kind: Literal["edit_confirm"] = "edit_confirm"
    number: int


class EditReject(MetaCommand):
    """`edit reject <n>`: proposal n is dropped."""

    kind: Literal["edit_reject"] = "edit_reject"
    number: int


class EditList(MetaCommand):
    """`edit list`: the game's edit proposals and what became of them."""

    kind: Literal["edit_list"] = "edit_list"


Meta = (
    GameNew
    | GameJoin
    | GameStart
    | GameStatus
    | GameMap
    | GameHistory
    | GameExport
    | GameCheck
    | GameRepair
    | GameLeave
    | GameCancel
    | GameConcede
    | GameDraw
    | GameList
    | GameMine
    | GameLink
    | Undo
    | Odds
    | Luck
    | DiceVerify
    | State
    | Help
    | Pause
    | Resume
    | Deadline
    | Substitute
    | Kick
    | EditPropose
    | EditConfirm
    | EditReject
    | EditList
)
"""Every meta-command (discriminated by ``kind``)."""

META: Grammar[Meta] = Grammar("meta")
"""The service's verbs (``service.language`` reads them with the rules' orders)."""
