"""Weapons development (Classic R-TEC-01..06): the research phase, research dice and
breakthroughs. Editions without ``research`` in their rules have no research phase. Whether
this turn's research dice were rolled is the mechanism's own part of the state
(``ResearchMarks``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import small_int
from rules.language.registry import ORDERS, Hint, OrderSyntax
from rules.language.units import MAX_COUNT
from rules.position import within_turn
from rules.state import GameState
from rules.turn import registry as reg
from rules.turn.phases import phase_name
from rules.words import ipcs, rule_suffix

if TYPE_CHECKING:
    from rules.turn.tx import Tx


# --------------------------------------------------------------------------------------------
# The order and its events


class Research(od.Order):
    """Weapons development: buy ``dice`` research dice and roll them all (Classic R-TEC-01/02)."""

    kind: Literal["research"] = "research"
    dice: int


class ResearchRolled(ev.Event):
    """Research dice bought and rolled (Classic R-TEC-01/02): ``cost`` goes to the bank and is
    never refunded; each die showing the breakthrough number is a breakthrough. ``wasted``
    breakthroughs found no development left to develop (R-TEC-04)."""

    type: Literal["ResearchRolled"] = "ResearchRolled"
    power: str
    dice: int
    cost: int
    rolls: ev.Rolls
    breakthroughs: int
    wasted: int = 0
    rule: str = "R-TEC-02"

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(f for _, fs in self.rolls for f in fs)


class TechnologyDeveloped(ev.Event):
    """A breakthrough's development die picked ``tech`` (R-TEC-03), re-rolled past developments
    the power already had (R-TEC-04); it takes effect at once, for this power only
    (R-TEC-05/06). ``rolls`` is empty when a development is granted without dice."""

    type: Literal["TechnologyDeveloped"] = "TechnologyDeveloped"
    power: str
    tech: str  # Technology.id
    rolls: ev.Rolls = ()
    rule: str = "R-TEC-03"


@dataclass(frozen=True, slots=True)
class ResearchMarks:
    """The research's part of the state, reset each turn."""

    rolled: bool = False  # this turn's research dice are rolled (R-TEC-01: once per turn)


reg.part(ResearchMarks, key="research", per_turn=True,
         position={"rolled": within_turn("research rolled this turn")},
         formerly={"rolled": "marks.researched"})


# --------------------------------------------------------------------------------------------
# The order as players write it (rules.language: parsing, usage, help, autocomplete)


def _research(rest: str, names: Names, verb: str) -> Research:
    words = rest.split()
    if words and words[-1].casefold() in ("dice", "die", "research"):
        words = words[:-1]
    if len(words) != 1:
        raise RESEARCH.expected("research 2")
    return Research(dice=small_int(words[0], "number of research dice", MAX_COUNT))


RESEARCH = ORDERS.register(OrderSyntax[od.Order](
    verb="research",
    usage="research <n>  (buy and roll n research dice, e.g. 'research 2')",
    read=_research,
    rank=140,
    makes=(Research,),
    needs=lambda r: r.research is not None,  # Classic R-TEC
    example=lambda b: ("research 2", "/research dice:2"),
    explain="""\
Weapons Development, by the power whose turn it is, where the edition has it: buys that many
research dice and rolls them; a 6 is a breakthrough, and a development die picks which weapons
development the power gains. Use '{end}' to skip research.""",
    hints=(Hint("research", "/research", (r"(?P<dice>.+)",)),),
))


# --------------------------------------------------------------------------------------------
# Deciding and folding


MAX_RESEARCH_DICE = 100  # per order: a typo guard far above any treasury of a real game



@reg.order(Research)
def decide_research(tx: Tx, order: Research, dice: Dice) -> None:
    """Buy research dice and roll them all; each breakthrough rolls for a development.

    One research order per turn: the rulebook buys the dice, then rolls them all (R-TEC-01/02),
    so a second purchase after seeing the dice is not allowed.
    """
    s = tx.state
    ed = s.edition
    p = order.power
    research = s.ruleset().research
    if research is None:
        raise IllegalOrder(
            f"{ed.rules.title} has no weapons development: there is nothing to research. "
            "Buy units with 'buy <units>' in the Purchase phase."
        )
    if s.phase != "research":
        phase = ed.phase_info["research"].name
        raise IllegalOrder(
            f"Research is done in {phase}, before buying units (§4.1, R-TEC-01); it is "
            f"{phase_name(s)} now, so this turn's chance has passed. Research next turn."
        )
    if order.dice <= 0:
        raise InvalidOrder(f"Buy at least one research die, e.g. 'research 2' (not {order.dice}).")
    if order.dice > MAX_RESEARCH_DICE:
        raise InvalidOrder(
            f"{order.dice} research dice is more than one order may buy ({MAX_RESEARCH_DICE})."
        )
    if s.part(ResearchMarks).rolled:
        raise IllegalOrder(
            f"{p} has already rolled its research dice this turn: all of a turn's research dice "
            "are bought at once and rolled together (R-TEC-01/02). Use 'end' to go on to "
            "Purchase."
        )
    table = {t.die: t for t in research.technologies}
    have = set(s.techs.get(p, ()))
    left = [t for t in research.technologies if t.id not in have]
    if not left:
        raise IllegalOrder(
            f"{p} already has every weapons development: a breakthrough could only be wasted "
            "(R-TEC-04). Use 'end' to go on to Purchase."
        )
    cost = order.dice * research.die_cost
    money = s.treasury.get(p, 0)
    if cost > money:
        can = money // research.die_cost
        raise IllegalOrder(
            f"{order.dice} research dice cost {cost} IPCs ({research.die_cost} each); {p} has "
            f"{money}, enough for {can} (R-TEC-01: research dice are paid for in advance)."
        )
    purpose = f"research|{p}|round {s.round}"
    faces = tuple(dice.roll(order.dice, purpose))
    hits = sum(1 for f in faces if f == research.breakthrough)
    tx.emit(ResearchRolled(power=p, dice=order.dice, cost=cost, rolls=((purpose, faces),),
                              breakthroughs=hits, wasted=max(0, hits - len(left))))
    for _ in range(min(hits, len(left))):
        owned = set(tx.state.techs.get(p, ()))
        dpurpose = f"development|{p}|round {s.round}"
        rolled: list[int] = []
        while True:  # R-TEC-04: re-roll a development already owned
            (f,) = dice.roll(1, dpurpose)
            rolled.append(f)
            found = table.get(f)
            if found is not None and found.id not in owned:
                break
        tx.emit(TechnologyDeveloped(power=p, tech=found.id,
                                       rolls=((dpurpose, tuple(rolled)),),
                                       rule="R-TEC-04" if len(rolled) > 1 else "R-TEC-03"))



@reg.evolver(ResearchRolled)
def _ev_research(s: GameState, e: ResearchRolled) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] -= e.cost
    return replace(s, treasury=treasury).with_part(ResearchMarks(rolled=True))


@reg.evolver(TechnologyDeveloped)
def _ev_tech(s: GameState, e: TechnologyDeveloped) -> GameState:
    have = s.techs.get(e.power, ())
    if e.tech in have:
        return s
    return replace(s, techs={**s.techs, e.power: (*have, e.tech)})



_phase = reg.phase("research")  # played by orders only: 'research <n>', then 'end'
_phase.absent_ends = True  # research is optional (R-TEC-01): an absent power's phase is ended


# --------------------------------------------------------------------------------------------
# Candidates and words


MAX_RESEARCH_CHOICES = 6


@reg.candidates("research")
def _research_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    research = s.edition.rules.rules.research
    if research is None:
        return
    afford = s.treasury.get(power, 0) // research.die_cost
    for n in range(1, min(afford, MAX_RESEARCH_CHOICES) + 1):
        yield Research(power=power, dice=n)


def _tech_name(s: GameState, tech_id: str) -> str:
    from rules import tech

    t = tech.technologies(s.edition).get(tech_id)
    return t.name if t is not None else tech_id


@reg.words(ResearchRolled)
def _rolled(s: GameState, e: ResearchRolled) -> str:
    dice = "1 research die" if e.dice == 1 else f"{e.dice} research dice"
    line = f"{e.power} bought {dice} ({ipcs(e.cost)}) and rolled {_faces_text(e.faces)}: "
    if not e.breakthroughs:
        line += "no breakthrough, research failed this turn"
    else:
        line += "1 breakthrough" if e.breakthroughs == 1 else f"{e.breakthroughs} breakthroughs"
        if e.wasted:
            line += f", {e.wasted} wasted as no development was left to find (R-TEC-04)"
    return f"{line}{rule_suffix(e.rule)}."


@reg.words(TechnologyDeveloped)
def _developed(s: GameState, e: TechnologyDeveloped) -> str:
    faces = [f for _, fs in e.rolls for f in fs]
    how = ""
    if len(faces) > 1:
        how = f" (development dice {_faces_text(faces)}, re-rolled past what it had)"
    elif faces:
        how = f" (development die {faces[0]})"
    return (f"{e.power} developed {_tech_name(s, e.tech)}{how}, in effect at once"
            f"{rule_suffix(e.rule)}.")


def _faces_text(faces: Sequence[int]) -> str:
    return ",".join(str(f) for f in faces) or "nothing"

