"""Test helpers: a game folded from events, driven by typed orders and scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from rules import engine
from rules import orders as od
from rules.dice import Dice, ScriptedDice
from rules.errors import RulesError
from rules.events import Event
from rules.position import state_json
from rules.state import GameState


class Game:
    """A live game: ``do`` applies an order (raising on refusal), ``refuse`` expects one."""

    def __init__(self, position: dict[str, Any] | None = None, options: tuple[str, ...] = (),
                 dice: list[int] | None = None, edition: str | None = None) -> None:
        name = edition or (position or {}).get("edition") or "1941"
        self.events: list[Event] = list(engine.new_game(name, options, position))
        self.state: GameState = engine.replay(self.events)
        self.dice: Dice = ScriptedDice(dice or [])

    def script(self, *faces: int) -> None:
        """Replace the dice with exactly these faces (tests fail if more are rolled)."""
        self.dice = ScriptedDice(faces)

    def do(self, order: od.Order, power: str | None = None) -> list[Event]:
        if not order.power:
            order = order.model_copy(update={"power": power or self.state.power})
        evs = engine.decide(self.state, order, self.dice)
        for e in evs:
            self.state = engine.evolve(self.state, e)
        self.events.extend(evs)
        return evs

    def refuse(self, order: od.Order, *fragments: str, power: str | None = None) -> RulesError:
        """Assert the order is refused, that its message holds every fragment, and that
        nothing changed."""
        before = state_json(self.state)
        seq = self.state.seq
        with pytest.raises(RulesError) as info:
            self.do(order, power)
        msg = str(info.value)
        for f in fragments:
            assert f in msg, f"{f!r} not in {msg!r}"
        assert state_json(self.state) == before
        assert self.state.seq == seq
        return info.value

    # --- shortcuts ------------------------------------------------------------------------
    def fight_out(self, space: str) -> list[Event]:
        """``battle <space> all``, the defender's decisions answered by the referee's defaults
        (see ``fight_to_the_end``)."""
        evs = fight_to_the_end(self.state, space, self.dice)
        for e in evs:
            self.state = engine.evolve(self.state, e)
        self.events.extend(evs)
        return evs

    def end(self, confirm: bool = False) -> list[Event]:
        """End the current phase, naming it (as Discord's /end does: no idle-phase question)."""
        return self.do(od.EndPhase(confirm=confirm, phase=self.state.phase))

    def move(self, units: dict[str, int], frm: str, to: str, *via: str) -> list[Event]:
        return self.do(od.Move(units=units, frm=frm, to=to, via=tuple(via)))

    @property
    def json(self) -> dict[str, Any]:
        return state_json(self.state)

    def units(self, space: str, power: str) -> dict[str, int]:
        return dict(self.json["units"].get(space, {}).get(power, {}))

    def owner(self, space: str) -> str | None:
        return self.state.owners.get(space)


def fight_to_the_end(state: GameState, space: str, dice: Dice) -> list[Event]:
    """``battle <space> all``, the defender's decisions answered by the referee's defaults
    (the deadline's answers, ``rules.defaults``): the whole battle fought out, as ``odds`` sees
    it. ``battle all`` alone stops for a defender with a real choice (H-1)."""
    from rules.defaults import default_orders

    out: list[Event] = []
    order: od.Order | None = od.Battle(power=state.power, space=space, all=True)
    while order is not None:
        evs = engine.decide(state, order, dice)
        for e in evs:
            state = engine.evolve(state, e)
        out.extend(evs)
        order = next((o for o in default_orders(state) if getattr(o, "space", None) == space),
                     None)
    return out


def position(power: str, phase: str, units: dict[str, dict[str, dict[str, int]]] | None = None,
             clear: bool = True, edition: str = "1941", **extra: Any) -> dict[str, Any]:
    """A position file dict (COMMANDS.md --position): empty board by default, factories kept."""
    pos: dict[str, Any] = {"edition": edition, "power": power, "phase": phase,
                           "units": units or {}, "clear_all_units": clear}
    pos.update(extra)
    return pos
