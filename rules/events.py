"""Events: what happened, past tense, JSON-serialisable (DESIGN §1, §4).

State is the fold of events (``engine.evolve``). Events carry every fact the fold needs (unit
ids, dice faces, amounts), so replay never rolls dice or re-checks rules.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

_TYPES: dict[str, type[Event]] = {}


class Event(BaseModel):
    """Base of every event. A subclass names itself in its ``type`` field (a ``Literal`` with a
    default) and is then known by that name to ``event_from_json``: the list of events is open,
    each mechanism defines its own (``rules/mechanisms/``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: str

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        name = cls.model_fields["type"].default
        if not isinstance(name, str) or not name:
            raise TypeError(f"{cls.__name__}: an event names its type in 'type'")
        if name in _TYPES and _TYPES[name] is not cls:
            raise TypeError(f"two events of type {name!r}")
        _TYPES[name] = cls


class GameStarted(Event):
    """A game began from the edition's setup, or from a given position."""

    type: Literal["GameStarted"] = "GameStarted"
    edition: str
    options: tuple[str, ...] = ()
    position: dict[str, Any] | None = None


class TurnStarted(Event):
    """A power's turn began: per-turn flags reset, start-of-turn control recorded."""

    type: Literal["TurnStarted"] = "TurnStarted"
    round: int
    power: str


class PhaseChanged(Event):
    """The current phase changed; ``skipped`` lists phases passed over, with the rule."""

    type: Literal["PhaseChanged"] = "PhaseChanged"
    power: str
    phase: str
    skipped: tuple[str, ...] = ()
    rule: str = ""


class UnitsPurchased(Event):
    type: Literal["UnitsPurchased"] = "UnitsPurchased"
    power: str
    units: dict[str, int]
    cost: int


Rolls = tuple[tuple[str, tuple[int, ...]], ...]
"""Dice rolled outside a battle, as ``(purpose, faces)`` in the order rolled. The dice audit
(``rules.dice_audit``, ``tools/verify_dice.py``) counts and checks every event with a ``rolls``
field, so any event that rolls dice outside ``DiceRolled`` records them here."""


class PurchaseLost(Event):
    """Bought units that were not placed go back to the box without a refund (Classic
    R-PLC-08, R-BUY-03)."""

    type: Literal["PurchaseLost"] = "PurchaseLost"
    power: str
    units: dict[str, int]
    rule: str = "R-PLC-08"


class PurchaseCleared(Event):
    type: Literal["PurchaseCleared"] = "PurchaseCleared"
    power: str
    refund: int


class UnitMove(BaseModel):
    """One unit's move: its path (first = where it was) and its state afterwards."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: int
    path: tuple[str, ...]
    cost: int  # movement points spent
    carried_by: int | None = None
    stopped: bool = False
    loaded: bool = False  # boarded a transport/carrier with this move
    offloaded: bool = False  # left a transport with this move
    assault: str | None = None  # amphibious assault target declared (CM-17)
    # Kept here only so that stored logs read and hash as written: a declaration a mechanism
    # records on the move (``rules.turn.hooks.MoveRule.mark``; rules/mechanisms/bombing.py).
    raid: bool = False


class UnitsMoved(Event):
    type: Literal["UnitsMoved"] = "UnitsMoved"
    power: str
    phase: str
    frm: str
    to: str
    moves: tuple[UnitMove, ...]
    blitzed: tuple[str, ...] = ()  # territories taken on the way (CM-25)


class TerritoryCaptured(Event):
    """Control of a territory changed (CC-7c, CM-25, LIB-1..3, CAP-1..3)."""

    type: Literal["TerritoryCaptured"] = "TerritoryCaptured"
    space: str
    by: str  # the power whose units took it
    previous: str | None
    owner: str  # new controller (differs from ``by`` on liberation)
    how: str  # "battle", "no battle", "blitz", "liberation", "capital liberated"
    seized: int = 0  # CAP-1: treasury taken
    seized_from: str | None = None
    rule: str = ""


class NeutralViolated(Event):
    """A power entered or flew over a neutral territory in Combat Move and paid the fee to the
    bank (Classic R-NEU-02); a ``TerritoryCaptured`` (how "neutral violation") follows."""

    type: Literal["NeutralViolated"] = "NeutralViolated"
    power: str
    space: str
    fee: int
    rule: str = "R-NEU-02"


class BattleOpened(Event):
    """A battle exists in a space (found at the end of Combat Move)."""

    type: Literal["BattleOpened"] = "BattleOpened"
    space: str
    attacker: str
    defenders: tuple[str, ...]
    sea: bool
    attacking: tuple[int, ...]
    defending: tuple[int, ...]
    amphibious: bool = False
    blocked_by: str | None = None
    seaborne: tuple[int, ...] = ()
    launched: tuple[int, ...] = ()
    hostile_at_start: bool = False
    bombarding: tuple[int, ...] = ()  # battleships giving the support shot (R-AMP-05)


class SeaborneLanded(Event):
    """Seaborne units land after their sea battle cleared the zone (AA-3); they join the
    land battle in ``space`` as its seaborne attackers."""

    type: Literal["SeaborneLanded"] = "SeaborneLanded"
    space: str
    units: tuple[int, ...]


_STAGES = frozenset({"fire", "strike", "overflight", "aa", "bombard"})
_APART: set[str] = set()


def dice_stage(name: str) -> str:
    """Register a ``DiceRolled`` stage that a mechanism rolls outside any battle (its own dice:
    the battles' fold, pictures and luck report leave them to it, ``stage_apart``). Returns it."""
    if name in _STAGES:
        raise ValueError(f"{name!r} is a stage of the battles")
    _APART.add(name)
    return name


def stage_apart(name: str) -> bool:
    """A stage a mechanism rolls outside any battle (``dice_stage``)."""
    return name in _APART


class DiceRolled(Event):
    """One side fired: dice per unit group, faces, hits (CC-3a, CC-4a).

    ``stage`` says which fire: "fire" (the round's Steps 3/4), "strike" (submarines first, SS-4
    / R-SUB-02), "aa" (antiaircraft gun before a land battle, R-LC-02), "bombard" (battleships'
    support shot, R-AMP-05), or a stage a mechanism rolls outside any battle, registered with
    ``dice_stage`` (its module says what ``hits`` means there).
    """

    type: Literal["DiceRolled"] = "DiceRolled"
    space: str
    round: int
    side: Literal["attacker", "defender"]
    purpose: str
    groups: tuple[tuple[str, int, tuple[int, ...]], ...]  # (unit type, value, faces)
    hits: int
    # hits by kind: any, no_air (H-2, R-SUB-02), no_sub (H-3), air_only (AA fire, R-LC-02/A-04)
    categories: tuple[int, ...] = (0, 0, 0)
    dice: str = ""  # which dice source rolled them
    # "strike": submarines first (SS-4/SS-5, R-SUB-02); "overflight": an antiaircraft gun firing
    # at aircraft flying over its territory in Combat Move (Classic R-AIR-05/R-AAG-03), outside
    # any battle (``round`` 0); see the class docstring for the others.
    stage: str = "fire"

    @field_validator("stage")
    @classmethod
    def _known_stage(cls, v: str) -> str:
        if v not in _STAGES and v not in _APART:
            raise ValueError(f"unknown stage {v[:40]!r}")
        return v

    def roll_purposes(self) -> list[str]:
        """The purpose of each group's roll, as given to the dice (for verification)."""
        from rules.dice import roll_purpose

        side = self.side if self.stage == "fire" else f"{self.side}:{self.stage}"
        return [roll_purpose(self.space, self.round, side, g[0]) for g in self.groups]


class BattleRoundStarted(Event):
    """A round of a battle begins (Steps 2-6 follow)."""

    type: Literal["BattleRoundStarted"] = "BattleRoundStarted"
    space: str
    round: int
    to_the_end: bool = False  # 'battle <space> all': fought on after each defender's answer


class SubmarinesDeclared(Event):
    """Submarines of one side choose surprise strike or submerge (SS-2, SS-3)."""

    type: Literal["SubmarinesDeclared"] = "SubmarinesDeclared"
    space: str
    side: Literal["attacker", "defender"]
    by: str
    strike: tuple[int, ...] = ()
    submerge: tuple[int, ...] = ()
    how: str = "choice"


class CasualtiesChosen(Event):
    """Hits assigned to units of one side (H-1..H-7). ``how``: choice/forced/default/standing."""

    type: Literal["CasualtiesChosen"] = "CasualtiesChosen"
    space: str
    side: Literal["attacker", "defender"]
    by: str  # the power that chose, or "referee"
    lost: tuple[int, ...]
    damaged: tuple[int, ...] = ()
    how: str = "choice"


class UnitsRemoved(Event):
    """Units leave the board (casualties removed, cargo lost, air units unable to land)."""

    type: Literal["UnitsRemoved"] = "UnitsRemoved"
    ids: tuple[int, ...]
    reason: str
    rule: str = ""
    stranded: tuple[int, ...] = ()  # defending fighters whose carrier sank: airborne (UC-5)
    launched: tuple[int, ...] = ()  # own fighters of a sunk attacking carrier: airborne




class BattleRoundEnded(Event):
    type: Literal["BattleRoundEnded"] = "BattleRoundEnded"
    space: str
    round: int
    next_step: str  # "press_or_retreat" or "done"


class BattlePressed(Event):
    type: Literal["BattlePressed"] = "BattlePressed"
    space: str
    to_the_end: bool = False  # 'battle <space> all' (see BattleRoundStarted)


class BattleRetreated(Event):
    type: Literal["BattleRetreated"] = "BattleRetreated"
    space: str
    to: str | None  # None: air units only, they stay and land later (CC-6B)
    units: tuple[int, ...]
    air_with: bool = False  # air units go along to ``to`` (Classic R-RET-02, A-28)


class BattleEnded(Event):
    type: Literal["BattleEnded"] = "BattleEnded"
    space: str
    result: Literal["attacker", "defender", "both destroyed", "retreat", "no combat"]
    repaired: tuple[int, ...] = ()  # battleships repaired (CC-7a)
    landed: tuple[tuple[int, int], ...] = ()  # fighters back onto carriers (UF-5)
    offloaded: tuple[int, ...] = ()  # seaborne units landing after a won sea battle (AA-3)
    stranded: tuple[int, ...] = ()  # defending fighters whose carrier sank (UC-5, NC-3)


class DamagePaid(Event):
    """A power pays damage to the bank (attacks on its industrial complexes); what its
    treasury cannot cover becomes a debt, settled out of its next income (Classic R-INC-03)."""

    type: Literal["DamagePaid"] = "DamagePaid"
    power: str
    amount: int  # damage charged
    paid: int  # taken from the treasury now
    debt: int  # added to the power's debt
    reason: str
    rule: str = ""


class UnitsPlaced(Event):
    type: Literal["UnitsPlaced"] = "UnitsPlaced"
    power: str
    space: str
    units: tuple[tuple[int, str, int | None], ...]  # (new id, type, carried_by)
    factory: str  # territory whose production cap pays for them (MB-2, A-16)


class PurchaseRefunded(Event):
    type: Literal["PurchaseRefunded"] = "PurchaseRefunded"
    power: str
    units: dict[str, int]
    amount: int
    rule: str = "MB-9"


class IncomeCollected(Event):
    """Income collected (IN-1 / R-INC-01); ``debt_paid`` of it settles earlier unpaid damage first
    (Classic R-INC-03), so the treasury grows by ``amount - debt_paid``."""

    type: Literal["IncomeCollected"] = "IncomeCollected"
    power: str
    amount: int
    rule: str = "IN-1"
    debt_paid: int = 0


class GameWon(Event):
    type: Literal["GameWon"] = "GameWon"
    side: str
    rule: str
    capitals: tuple[str, ...]
    production: int | None = None  # economic victory: the side's combined income (R-WIN-03)


class StandingOrderSet(Event):
    type: Literal["StandingOrderSet"] = "StandingOrderSet"
    power: str
    order: tuple[str, ...]


class DiceCommitted(Event):
    """The game's dice: a published commitment (DESIGN §6), or a public script (``--dice``).

    Fair dice (``scheme`` "umpire-fair-v1"): ``commitment`` is H(s_0) of a hash chain of
    ``chain_length`` links keying rounds ``first_round`` onwards; ``master`` is H(m) of the secret
    every chain of the game comes from (``epoch`` numbers them). It follows ``GameStarted`` and
    comes again when a game outlasts its chain or is imported. Scripted dice (``scheme``
    "scripted") list their ``faces``: nothing is secret and nothing is fair about them.
    """

    type: Literal["DiceCommitted"] = "DiceCommitted"
    scheme: str
    game_id: str
    commitment: str = ""  # hex
    chain_length: int = 0
    first_round: int = 1
    epoch: int = 0
    master: str = ""  # hex H(m)
    faces: tuple[int, ...] = ()


class DiceEntropyFixed(Event):
    """The players' entropy phrases, frozen at the start: power -> sha256 hex of the phrase."""

    type: Literal["DiceEntropyFixed"] = "DiceEntropyFixed"
    phrases: dict[str, str]


class DiceSeedRevealed(Event):
    """A game round is over: its chain seed (hex) is public; at the end also the master."""

    type: Literal["DiceSeedRevealed"] = "DiceSeedRevealed"
    round: int
    seed: str
    master: str = ""


# --- a game's whole life: ends other than a victory on the board (issue 11, item 5) -------------


class SideConceded(Event):
    """A side gave up: every person holding its seats conceded. ``GameWon`` (rule
    "concession") for the other side follows it."""

    type: Literal["SideConceded"] = "SideConceded"
    side: str
    powers: tuple[str, ...]


class GameEnded(Event):
    """The game ended without a winner: a ``draw`` or ``cancelled``, by the unanimous vote of
    the players (``powers``: every seated power)."""

    type: Literal["GameEnded"] = "GameEnded"
    result: Literal["draw", "cancelled"]
    powers: tuple[str, ...]
class EditApplied(Event):
    """A game-master edit (COMMANDS.md, Admin): proposed by the game's owner (or a server
    manager), agreed by a player of the other side, then applied as this one event. It carries
    every fact the fold needs (unit ids, berths, amounts) and changes units, territory owners and
    treasuries only: never a die, a phase, a turn or a battle (``rules.edits``)."""

    type: Literal["EditApplied"] = "EditApplied"
    proposal: int  # the proposal's number in its game
    text: str  # the edit as proposed, e.g. "edit add 2 infantry in Germany for Germany"
    proposer: str  # who proposed it (a person, as in the seats)
    agreed: str  # who confirmed it
    agreed_for: tuple[str, ...] = ()  # the powers the confirming person holds
    added: tuple[tuple[int, str, str, str, int | None], ...] = ()  # (id, type, owner, space, on)
    removed: tuple[int, ...] = ()
    moved: tuple[tuple[int, str, int | None], ...] = ()  # (id, new space, carried by)
    owners: tuple[tuple[str, str], ...] = ()  # (territory, new owner)
    reowned: tuple[tuple[int, str], ...] = ()  # complexes/AA guns changing hands with a territory
    treasury: tuple[tuple[str, int], ...] = ()  # (power, new treasury)


def event_to_json(e: BaseModel) -> dict[str, Any]:
    return e.model_dump(mode="json")


def event_from_json(data: dict[str, Any]) -> Event:
    """The event ``data`` describes (``ValueError`` if it is not one). Events of a mechanism are
    known once its module is imported: ``rules.engine`` imports them all."""
    name = data.get("type")
    cls = _TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown event type {str(name)[:40]!r}")
    return cls.model_validate(data)


def event_types() -> dict[str, type[Event]]:
    """Every event type known now, by name."""
    return dict(_TYPES)
