"""Luck report (issue 3, part 4): expected hits against rolled hits, from the event log.

Every battle roll is a ``DiceRolled`` event with its groups ``(unit type, value, faces)``. A die
rolled at value ``v`` hits with probability ``v/6`` (CMP-3, A-19), so a group of ``n`` dice is
expected to hit ``n*v/6`` times with variance ``n*(v/6)*(1-v/6)``. Summing over dice gives, per
side of each battle, the hits rolled (faces <= value, before any are lost for lack of targets),
the hits expected and a z-score ``(rolled - expected) / sqrt(variance)``; summing over battles
gives the same per power and per side of the game.

A multinational defence rolls its dice together (CC-2b), so its dice are counted for the
defending powers jointly ("United Kingdom + United States"); per side they add up exactly.
Dice a mechanism rolls outside any battle are left out, unless it registered them as an
engagement of their own (``rules.turn.hooks.apart``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from rules import events as ev
from rules.dice import SIDES
from rules.edition import Edition
from rules.turn import hooks

__all__ = ["BattleLuck", "GameLuck", "Luck", "battle_luck", "game_luck", "luck_text", "roll_luck"]


class Luck(BaseModel):
    """Dice of one side (of a battle, a power, a game): hits rolled against hits expected."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dice: int = 0
    rolled: int = 0
    expected: float = 0.0
    variance: float = 0.0

    @property
    def difference(self) -> float:
        """Hits rolled above (+) or below (-) expectation."""
        return self.rolled - self.expected

    @property
    def z(self) -> float:
        """The difference in standard deviations (0 when no die could go either way)."""
        return self.difference / math.sqrt(self.variance) if self.variance > 0 else 0.0

    def __add__(self, other: Luck) -> Luck:
        return Luck(dice=self.dice + other.dice, rolled=self.rolled + other.rolled,
                    expected=self.expected + other.expected,
                    variance=self.variance + other.variance)

    def to_json(self) -> dict[str, float | int]:
        return {"dice": self.dice, "rolled": self.rolled, "expected": self.expected,
                "difference": self.difference, "z": self.z}


def roll_luck(groups: Iterable[tuple[str, int, tuple[int, ...]]]) -> Luck:
    """The luck of one roll: ``(unit type, value, faces)`` groups as in ``DiceRolled``."""
    dice = rolled = 0
    expected = variance = 0.0
    for _utype, value, faces in groups:
        p = min(max(value, 0), SIDES) / SIDES
        n = len(faces)
        dice += n
        rolled += sum(1 for f in faces if f <= value)
        expected += n * p
        variance += n * p * (1 - p)
    return Luck(dice=dice, rolled=rolled, expected=expected, variance=variance)


class BattleLuck(BaseModel):
    """One battle: where, when, who, how it ended, and each side's luck."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    space: str
    round: int  # game round in which it was fought
    attacker: str
    defenders: tuple[str, ...]
    result: str | None = None  # BattleEnded.result; None while it goes on
    rounds: int = 0  # battle rounds with dice
    attacking: Luck = Luck()
    defending: Luck = Luck()

    @property
    def defenders_label(self) -> str:
        return " + ".join(self.defenders) if self.defenders else "defender"

    def to_json(self) -> dict[str, object]:
        return {"space": self.space, "round": self.round, "attacker": self.attacker,
                "defenders": list(self.defenders), "result": self.result, "rounds": self.rounds,
                "attacking": self.attacking.to_json(), "defending": self.defending.to_json()}


class GameLuck(BaseModel):
    """Battles in order, and the totals per power (or joint defenders) and per side."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    battles: tuple[BattleLuck, ...] = ()
    powers: dict[str, Luck] = {}
    sides: dict[str, Luck] = {}

    def to_json(self) -> dict[str, object]:
        return {"battles": [b.to_json() for b in self.battles],
                "powers": {k: v.to_json() for k, v in self.powers.items()},
                "sides": {k: v.to_json() for k, v in self.sides.items()}}


def battle_luck(events: Iterable[ev.Event], space: str | None = None) -> list[BattleLuck]:
    """Every battle in the log (only those in ``space`` when given), in the order fought
    (by first roll; battles without dice last)."""
    out: list[BattleLuck] = []
    current: dict[str, int] = {}  # space -> index in out of its battle going on
    apart = {a.stage: a for a in hooks.apart_rolls()}
    ends = {a.ended_by: a for a in apart.values()}
    engaged: dict[tuple[str, str], int] = {}  # (stage, space) -> index in out, going on
    game_round = 1
    rounds_seen: dict[int, set[int]] = {}
    first_roll: dict[int, int] = {}  # index in out -> position of its first roll in the log
    for pos, e in enumerate(events):
        if isinstance(e, ev.TurnStarted):
            game_round = e.round
            current = {}
            engaged = {}
        elif isinstance(e, ev.BattleOpened):
            current[e.space] = len(out)
            out.append(BattleLuck(space=e.space, round=game_round, attacker=e.attacker,
                                  defenders=e.defenders))
        elif isinstance(e, ev.DiceRolled) and e.stage in apart:
            # A mechanism's engagement of its own, beside any battle in the same space; who
            # fought it is known when it ends.
            i = engaged.get((e.stage, e.space))
            if i is None:
                engaged[(e.stage, e.space)] = i = len(out)
                out.append(BattleLuck(space=e.space, round=game_round, attacker="attacker",
                                      defenders=()))
            first_roll.setdefault(i, pos)
            side = "attacking" if e.side == "attacker" else "defending"
            out[i] = out[i].model_copy(update={side: getattr(out[i], side) + roll_luck(e.groups),
                                               "rounds": 1})
        elif type(e) in ends:
            a = ends[type(e)]
            where, attacker, defenders = a.ended(e)
            i = engaged.pop((a.stage, where), None)
            if i is not None:
                out[i] = out[i].model_copy(update={
                    "attacker": attacker, "result": a.result, "defenders": defenders})
        elif (isinstance(e, ev.DiceRolled) and e.stage != "overflight"
              and not ev.stage_apart(e.stage)):
            i = current.get(e.space)
            if i is None:  # dice without an opened battle: keep them, attacker unknown
                current[e.space] = i = len(out)
                out.append(BattleLuck(space=e.space, round=game_round, attacker="attacker",
                                      defenders=()))
            first_roll.setdefault(i, pos)
            b = out[i]
            luck = roll_luck(e.groups)
            rounds_seen.setdefault(i, set()).add(e.round)
            if e.side == "attacker":
                b = b.model_copy(update={"attacking": b.attacking + luck})
            else:
                b = b.model_copy(update={"defending": b.defending + luck})
            out[i] = b.model_copy(update={"rounds": len(rounds_seen[i])})
        elif isinstance(e, ev.BattleEnded):
            i = current.pop(e.space, None)
            if i is not None:
                out[i] = out[i].model_copy(update={"result": e.result})
    order = sorted(range(len(out)), key=lambda i: (first_roll.get(i, math.inf), i))
    return [out[i] for i in order if space is None or out[i].space == space]


def game_luck(events: Iterable[ev.Event], edition: Edition | None = None,
              space: str | None = None) -> GameLuck:
    """The luck of the whole game (or of the battles in ``space``): per battle, per power,
    and per side when the ``edition`` is given."""
    battles = battle_luck(events, space)
    powers: dict[str, Luck] = {}
    sides: dict[str, Luck] = {}

    def add(table: dict[str, Luck], key: str, luck: Luck) -> None:
        table[key] = table.get(key, Luck()) + luck

    for b in battles:
        add(powers, b.attacker, b.attacking)
        add(powers, b.defenders_label, b.defending)
        if edition is not None:
            if b.attacker in edition.powers:
                add(sides, edition.side_of(b.attacker), b.attacking)
            known = [p for p in b.defenders if p in edition.powers]
            if known:
                add(sides, edition.side_of(known[0]), b.defending)
    if edition is not None:
        order = {p: i for i, p in enumerate(edition.turn_order)}
        powers = dict(sorted(powers.items(),
                             key=lambda kv: order.get(kv[0].split(" + ")[0], len(order))))
        sides = {s: sides[s] for s in edition.rules.sides if s in sides}
    return GameLuck(battles=tuple(battles), powers=powers, sides=sides)


# --------------------------------------------------------------------------------------------
# Text


def _line(who: str, luck: Luck) -> str:
    if not luck.dice:
        return f"{who} rolled no dice"
    return (f"{who} {luck.rolled} hit{'s' if luck.rolled != 1 else ''} from {luck.dice} "
            f"{'die' if luck.dice == 1 else 'dice'}, expected {luck.expected:.1f} "
            f"({luck.difference:+.1f}, z {luck.z:+.1f})")


_RESULT = {"attacker": "attacker won", "defender": "defender held", "both destroyed":
           "both destroyed", "retreat": "attacker retreated", "no combat": "nobody could hit"}


def _apart_words() -> dict[str, str]:
    """How the report says the results of the mechanisms' engagements of their own."""
    return {a.result: a.words for a in hooks.apart_rolls()}


def luck_text(report: GameLuck, space: str | None = None) -> str:
    """Players' text: one line per battle, then the totals."""
    if not report.battles:
        where = f" in {space}" if space else ""
        return f"No battles{where} yet: no dice to judge."
    lines = [f"Luck{' in ' + space if space else ''}: hits rolled against hits expected "
             "(z: in standard deviations)."]
    results = {**_apart_words(), **_RESULT}
    for b in report.battles:
        how = results.get(b.result or "", "going on")
        lines.append(f"Round {b.round}, {b.space} ({b.attacker} attacking, {how}): "
                     f"{_line(b.attacker, b.attacking)}; {_line(b.defenders_label, b.defending)}.")
    lines.append("Per power: " + "; ".join(_line(k, v) for k, v in report.powers.items()) + ".")
    if report.sides:
        lines.append("Per side: " + "; ".join(_line(k, v) for k, v in report.sides.items())
                     + ".")
    return "\n".join(lines)
