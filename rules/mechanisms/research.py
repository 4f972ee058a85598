"""Weapons development (Classic R-TEC-01..06): the research phase, research dice and
breakthroughs. Editions without ``research`` in their rules have no research phase. Whether
this turn's research dice were rolled is the mechanism's own part of the state
(``ResearchMarks``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import small_int
from rules.language.registry import ORDERS, Hint, OrderSyntax
from rules.language.units import MAX_COUNT
from rules.messages import Msg, catalogue, msg
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
        raise IllegalOrder(msg("research.none", edition=ed.rules.title))
    if s.phase != "research":
        raise IllegalOrder(msg("research.wrong_phase", "§4.1, R-TEC-01",
                               phase=ed.phase_info["research"].name, now=phase_name(s)))
    if order.dice <= 0:
        raise InvalidOrder(msg("research.no_dice", dice=order.dice))
    if order.dice > MAX_RESEARCH_DICE:
        raise InvalidOrder(msg("research.too_many", dice=order.dice, most=MAX_RESEARCH_DICE))
    if s.part(ResearchMarks).rolled:
        raise IllegalOrder(msg("research.already_rolled", "R-TEC-01/02", power=p))
    table = {t.die: t for t in research.technologies}
    have = set(s.techs.get(p, ()))
    left = [t for t in research.technologies if t.id not in have]
    if not left:
        raise IllegalOrder(msg("research.all_developed", "R-TEC-04", power=p))
    cost = order.dice * research.die_cost
    money = s.treasury.get(p, 0)
    if cost > money:
        can = money // research.die_cost
        raise IllegalOrder(msg("research.too_dear", "R-TEC-01", dice=order.dice, cost=cost,
                               each=research.die_cost, power=p, money=money, can=can))
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
def _rolled(s: GameState, e: ResearchRolled) -> Msg:
    return msg("research.rolled", e.rule or None, power=e.power, dice=e.dice, cost=e.cost,
               faces=list(e.faces), breakthroughs=e.breakthroughs, wasted=e.wasted)


@reg.words(TechnologyDeveloped)
def _developed(s: GameState, e: TechnologyDeveloped) -> Msg:
    return msg("research.developed", e.rule or None, power=e.power,
               tech=_tech_name(s, e.tech), faces=[f for _, fs in e.rolls for f in fs])


# --------------------------------------------------------------------------------------------
# The English of its words and refusals


def _faces_text(faces: Sequence[int]) -> str:
    return ",".join(str(f) for f in faces) or "nothing"


def _rolled_text(p: Mapping[str, Any]) -> str:
    n, found, wasted = p["dice"], p["breakthroughs"], p["wasted"]
    dice = "1 research die" if n == 1 else f"{n} research dice"
    line = f"{p['power']} bought {dice} ({ipcs(p['cost'])}) and rolled {_faces_text(p['faces'])}: "
    if not found:
        line += "no breakthrough, research failed this turn"
    else:
        line += "1 breakthrough" if found == 1 else f"{found} breakthroughs"
        if wasted:
            line += f", {wasted} wasted as no development was left to find (R-TEC-04)"
    return f"{line}{rule_suffix(p['rule'])}."


def _developed_text(p: Mapping[str, Any]) -> str:
    faces = p["faces"]
    how = ""
    if len(faces) > 1:
        how = f" (development dice {_faces_text(faces)}, re-rolled past what it had)"
    elif faces:
        how = f" (development die {faces[0]})"
    return f"{p['power']} developed {p['tech']}{how}, in effect at once{rule_suffix(p['rule'])}."


catalogue("en", "research", {
    "none": "{edition} has no weapons development: there is nothing to research. Buy units with "
            "'buy <units>' in the Purchase phase.",
    "wrong_phase": "Research is done in {phase}, before buying units ({rule}); it is {now} now, "
                   "so this turn's chance has passed. Research next turn.",
    "no_dice": "Buy at least one research die, e.g. 'research 2' (not {dice}).",
    "too_many": "{dice} research dice is more than one order may buy ({most}).",
    "already_rolled": "{power} has already rolled its research dice this turn: all of a turn's "
                      "research dice are bought at once and rolled together ({rule}). Use 'end' "
                      "to go on to Purchase.",
    "all_developed": "{power} already has every weapons development: a breakthrough could only "
                     "be wasted ({rule}). Use 'end' to go on to Purchase.",
    "too_dear": "{dice} research dice cost {cost} IPCs ({each} each); {power} has {money}, "
                "enough for {can} ({rule}: research dice are paid for in advance).",
    "rolled": _rolled_text,
    "developed": _developed_text,
})

