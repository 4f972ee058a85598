"""Weapons development (Classic R-TEC-01..06): the research phase, research dice and
breakthroughs. Editions without ``research`` in their rules have no research phase.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.errors import IllegalOrder, InvalidOrder
from rules.state import GameState
from rules.turn import registry as reg
from rules.turn.phases import phase_name

if TYPE_CHECKING:
    from rules.turn.tx import Tx


MAX_RESEARCH_DICE = 100  # per order: a typo guard far above any treasury of a real game



@reg.order(od.Research)
def decide_research(tx: Tx, order: od.Research, dice: Dice) -> None:
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
    if s.marks.researched:
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
    tx.emit(ev.ResearchRolled(power=p, dice=order.dice, cost=cost, rolls=((purpose, faces),),
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
        tx.emit(ev.TechnologyDeveloped(power=p, tech=found.id,
                                       rolls=((dpurpose, tuple(rolled)),),
                                       rule="R-TEC-04" if len(rolled) > 1 else "R-TEC-03"))



@reg.evolver(ev.ResearchRolled)
def _ev_research(s: GameState, e: ev.ResearchRolled) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] -= e.cost
    return replace(s, treasury=treasury, marks=replace(s.marks, researched=True))


@reg.evolver(ev.TechnologyDeveloped)
def _ev_tech(s: GameState, e: ev.TechnologyDeveloped) -> GameState:
    have = s.techs.get(e.power, ())
    if e.tech in have:
        return s
    return replace(s, techs={**s.techs, e.power: (*have, e.tech)})



reg.phase("research")  # played by orders only: 'research <n>', then 'end'
