"""Orders: what a player asks for, imperative and typed (DESIGN §4).

Every order names the acting ``power``. Front ends fill it in from the seat of the person who
gave the order; the engine checks that this power may give it now.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# unit type -> count (rulebook names, lowercase singular)
Units = dict[str, int]


class _Order(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    power: str = ""


class Buy(_Order):
    """Purchase phase: add units to this turn's purchase (PU-2); cumulative."""

    kind: Literal["buy"] = "buy"
    units: Units


class ClearPurchase(_Order):
    """Purchase phase: empty the purchase list, refunding it (PU-2: choices are free until end)."""

    kind: Literal["buy_clear"] = "buy_clear"


class Research(_Order):
    """Weapons development: buy ``dice`` research dice and roll them all (Classic R-TEC-01/02)."""

    kind: Literal["research"] = "research"
    dice: int


class Rocket(_Order):
    """Rockets development: an AA gun in ``frm`` fires at an enemy industrial complex in
    ``target`` within 3 spaces, once per turn, in Conduct Combat (Classic R-TEC table, A-10)."""

    kind: Literal["rocket"] = "rocket"
    frm: str
    target: str


class Move(_Order):
    """Combat or noncombat move of units of one power from one space to another.

    Land units moved into a sea zone load onto transports there; land units moved from a sea
    zone to a territory offload. ``via`` fixes intermediate spaces; otherwise the engine finds a
    legal path when it is unambiguous. ``raid``: bombers declare a strategic bombing raid on the
    industrial complex in ``to`` (Classic R-SBR-01) instead of attacking its units.
    """

    kind: Literal["move"] = "move"
    units: Units
    frm: str
    to: str
    via: tuple[str, ...] = ()
    raid: bool = False


class Battle(_Order):
    """Conduct combat: fight one round in a space, or to the end with ``all``."""

    kind: Literal["battle"] = "battle"
    space: str
    all: bool = False


class Casualties(_Order):
    """Choose casualties for the hits owed by this power's side in a battle (H-1)."""

    kind: Literal["casualties"] = "casualties"
    space: str
    units: Units
    damaged: Units = Field(default_factory=dict)  # two-hit units taking a hit without sinking
    # Which units of a type go, by the space they started the turn in: {type: {space: n}}
    # ('casualties Ukraine 1 fighter from Germany'); the rest of a type, the one worth less now.
    origins: dict[str, dict[str, int]] = Field(default_factory=dict)


class Retreat(_Order):
    """Attacker retreats all land and sea units of a battle to one space (CC-6B)."""

    kind: Literal["retreat"] = "retreat"
    space: str
    to: str


class Press(_Order):
    """Attacker continues the battle with another round (CC-6)."""

    kind: Literal["press"] = "press"
    space: str


class Submerge(_Order):
    """Submarines of this power submerge in a battle (SS-3); ``count`` None means all."""

    kind: Literal["submerge"] = "submerge"
    space: str
    count: int | None = None


class Strike(_Order):
    """Submarines of this power make a surprise strike (SS-4/SS-5) rather than submerge."""

    kind: Literal["strike"] = "strike"
    space: str


class Withdraw(_Order):
    """Submarines of this power leave a sea battle between rounds (Classic R-SUB-05).

    ``count`` None means all of them; ``to`` names the zone (the attacker's is implied: where
    they came from; the defender's may be any adjacent zone without enemy units).
    """

    kind: Literal["withdraw"] = "withdraw"
    space: str
    count: int | None = None
    to: str | None = None


class Bomb(_Order):
    """Resolve the strategic bombing raid on a territory (Classic R-SBR-01..05)."""

    kind: Literal["bomb"] = "bomb"
    space: str


class Place(_Order):
    """Mobilize: place purchased units in a space (MB-1..MB-7)."""

    kind: Literal["place"] = "place"
    units: Units
    space: str


class EndPhase(_Order):
    """End the current phase. Without ``confirm`` it refuses when something would be forfeited.

    ``phase`` is the phase the player means to end (Discord's ``/end`` fills it in when typed):
    refused if the game has moved on, so a repeated ``end`` never ends the next phase. A bare
    ``end`` (no phase) asks for ``confirm`` where it would pass a phase in which nothing was
    done although something could be (the phase handlers' idle checks, rules.turn.registry)."""

    kind: Literal["end"] = "end"
    confirm: bool = False
    phase: str | None = None


class StandingCasualties(_Order):
    """A power's default order of casualties, cheapest first if not given (H-1, async play)."""

    kind: Literal["standing_casualties"] = "standing_casualties"
    order: tuple[str, ...]


Order = Annotated[
    Buy
    | ClearPurchase
    | Research
    | Rocket
    | Move
    | Battle
    | Casualties
    | Retreat
    | Press
    | Submerge
    | Strike
    | Withdraw
    | Bomb
    | Place
    | EndPhase
    | StandingCasualties,
    Field(discriminator="kind"),
]
