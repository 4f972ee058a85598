"""Orders: what a player asks for, imperative and typed (DESIGN §4).

Every order names the acting ``power``. Front ends fill it in from the seat of the person who
gave the order; the engine checks that this power may give it now.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# unit type -> count (rulebook names, lowercase singular)
Units = dict[str, int]


class Order(BaseModel):
    """Base of every order; a subclass names itself in ``kind`` (a ``Literal`` with a default).
    The list of orders is open: each mechanism may define its own (``rules/mechanisms/``) and
    registers how it is decided (``rules.turn.registry.order``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    power: str = ""
    kind: str

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        name = cls.model_fields["kind"].default
        if not isinstance(name, str) or not name:
            raise TypeError(f"{cls.__name__}: an order names its kind in 'kind'")
        if name in _KINDS and _KINDS[name] is not cls:
            raise TypeError(f"two orders of kind {name!r}")
        _KINDS[name] = cls


_KINDS: dict[str, type[Order]] = {}


def order_types() -> dict[str, type[Order]]:
    """Every order type known now, by kind (a mechanism's once its module is imported)."""
    return dict(_KINDS)


class Buy(Order):
    """Purchase phase: add units to this turn's purchase (PU-2); cumulative."""

    kind: Literal["buy"] = "buy"
    units: Units


class ClearPurchase(Order):
    """Purchase phase: empty the purchase list, refunding it (PU-2: choices are free until end)."""

    kind: Literal["buy_clear"] = "buy_clear"


class Move(Order):
    """Combat or noncombat move of units of one power from one space to another.

    Land units moved into a sea zone load onto transports there; land units moved from a sea
    zone to a territory offload. ``via`` fixes intermediate spaces; otherwise the engine finds a
    legal path when it is unambiguous.
    """

    kind: Literal["move"] = "move"
    units: Units
    frm: str
    to: str
    via: tuple[str, ...] = ()
    # A declaration the move carries for a mechanism (rules/mechanisms/bombing.py says what it
    # means and checks it: ``rules.turn.hooks.MoveRule``); a field here only so that stored
    # orders read and hash as written.
    raid: bool = False
    # Fighters escorting the raid on ``to`` (Europe 1940 BR-3); their moves record it as
    # ``UnitMove.raid``, a unit flying with a raid.
    escort: bool = False


class Battle(Order):
    """Conduct combat: fight one round in a space, or to the end with ``all``."""

    kind: Literal["battle"] = "battle"
    space: str
    all: bool = False


class Casualties(Order):
    """Choose casualties for the hits owed by this power's side in a battle (H-1)."""

    kind: Literal["casualties"] = "casualties"
    space: str
    units: Units
    damaged: Units = Field(default_factory=dict)  # two-hit units taking a hit without sinking
    # Which units of a type go, by the space they started the turn in: {type: {space: n}}
    # ('casualties Ukraine 1 fighter from Germany'); the rest of a type, the one worth less now.
    origins: dict[str, dict[str, int]] = Field(default_factory=dict)


class Retreat(Order):
    """Attacker retreats all land and sea units of a battle to one space (CC-6B)."""

    kind: Literal["retreat"] = "retreat"
    space: str
    to: str


class Press(Order):
    """Attacker continues the battle with another round (CC-6)."""

    kind: Literal["press"] = "press"
    space: str


class Submerge(Order):
    """Submarines of this power submerge in a battle (SS-3); ``count`` None means all."""

    kind: Literal["submerge"] = "submerge"
    space: str
    count: int | None = None


class Strike(Order):
    """Submarines of this power make a surprise strike (SS-4/SS-5) rather than submerge."""

    kind: Literal["strike"] = "strike"
    space: str


class Place(Order):
    """Mobilize: place purchased units in a space (MB-1..MB-7)."""

    kind: Literal["place"] = "place"
    units: Units
    space: str


class EndPhase(Order):
    """End the current phase. Without ``confirm`` it refuses when something would be forfeited.

    ``phase`` is the phase the player means to end (Discord's ``/end`` fills it in when typed):
    refused if the game has moved on, so a repeated ``end`` never ends the next phase. A bare
    ``end`` (no phase) asks for ``confirm`` where it would pass a phase in which nothing was
    done although something could be (the phase handlers' idle checks, rules.turn.registry)."""

    kind: Literal["end"] = "end"
    confirm: bool = False
    phase: str | None = None


class StandingCasualties(Order):
    """A power's default order of casualties, cheapest first if not given (H-1, async play)."""

    kind: Literal["standing_casualties"] = "standing_casualties"
    order: tuple[str, ...]
