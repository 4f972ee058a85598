"""Casualties in the battle model: the constraints on assigning hits and the referee's default.

Constraints (H-2..H-7; R-SUB-02/03, A-04). Hits come in categories (``model.CATEGORIES``) and
go on units of casualty classes (``model.CLASSES``); a category may go only on the classes in
``model.ELIGIBLE``. An assignment is a number of hits per class; it is valid when some matching
of hits to eligible classes fills it exactly (``flow_ok``, Hall's condition of the bipartite
graph), puts as many hits as the constraints allow (H-7, ``best_total``), and puts on
transports only the hits nothing else can take (H-4, UT-4: the fewest any maximal assignment
needs). These are the closed forms of a maximum flow from categories to classes.

The default choice (``default_losses``), which the referee makes for a side whose player gave
no choice (a standing order, ``battle all``, a deadline) and which the odds assume:

1. free hits first: each undamaged two-hit unit absorbs one hit (H-6, UB-2);
2. then units are lost in the default casualty order: the standing order if the power gave one,
   else cheapest first, transports last (``casualty_rank``), and an attacker in a land battle
   keeps its last land unit, so that it can capture (``keep_last_land``, CC-7b);
3. when that would waste a hit or put one on a transport needlessly, the first valid class
   vector (in ``vectors`` order) is filled per class in the same order.

Ties within ``casualty_rank`` between unit types are broken by the lower printed value, then by
name (both evaluators: Europe 1940's artillery and mechanized infantry cost the same); between
units of one type the combat takes the unit worth less now (fewer spaces left to fly) first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import product
from typing import TypeVar

from rules.battle.model import AIR, AIR_ONLY, ATT, CLASSES, NO_AIR, NO_SUB, OTHER, SUB, TRANSPORT
from rules.edition import UnitType

__all__ = ["best_total", "casualty_rank", "default_losses", "flow_ok", "keep_last_land",
           "keeps_last_land", "max_flow", "vectors"]

T = TypeVar("T")


def _cats(cats: Sequence[int]) -> tuple[int, int, int, int]:
    """Hits per category; logs before AA fire recorded three categories (no ``AIR_ONLY``)."""
    return (cats[0], cats[NO_AIR], cats[NO_SUB], cats[AIR_ONLY] if len(cats) > AIR_ONLY else 0)


def flow_ok(cats: Sequence[int], counts: Sequence[int]) -> bool:
    """Can hits of these categories go to exactly ``counts`` hits per class (H-2, H-3, A-04)?

    Hall's condition: only the sets {air}, {submarines}, {submarines, others, transports} and
    all classes can lack hits to fill them."""
    a, na, ns, ao = _cats(cats)
    return (counts[AIR] <= a + ns + ao and counts[SUB] <= a + na
            and counts[SUB] + counts[OTHER] + counts[TRANSPORT] <= a + na + ns
            and sum(counts) <= a + na + ns + ao)


def max_flow(cats: Sequence[int], caps: Sequence[int]) -> int:
    """The most hits assignable to classes that can take ``caps`` hits each (a minimum cut)."""
    a, na, ns, ao = _cats(cats)
    ca, cs, co, ct = caps[AIR], caps[SUB], caps[OTHER], caps[TRANSPORT]
    return min(a + na + ns + ao, ca + cs + co + ct, a + ns + ao + cs + co + ct,
               a + na + ca + co + ct, a + na + ns + ca)


def best_total(caps: Sequence[int], cats: Sequence[int]) -> tuple[int, int]:
    """(the most hits that can be assigned, H-7; the fewest of them that must go on
    transports, H-4).

    Augmenting paths never lower a class's flow, so a maximum flow that first fills the other
    classes puts exactly ``best`` minus the most hits without transports on transports."""
    best = max_flow(cats, caps)
    return best, best - max_flow(cats, (caps[AIR], caps[SUB], caps[OTHER], 0))


def _free(steps: int) -> None:
    """Work not counted."""


def vectors(caps: Sequence[int], total: int,
            spend: Callable[[int], None] = _free) -> Iterator[tuple[int, int, int, int]]:
    """Hits per class adding up to ``total`` within ``caps``, in the order the default choice
    tries them (``spend`` counts each one tried: with hundreds of units there are millions)."""
    for a, s, o in product(range(min(caps[AIR], total) + 1), range(min(caps[SUB], total) + 1),
                           range(min(caps[OTHER], total) + 1)):
        spend(1)
        t = total - a - s - o
        if 0 <= t <= caps[TRANSPORT]:
            yield a, s, o, t


def casualty_rank(ut: UnitType, standing: Sequence[str]) -> tuple[int, int, int]:
    """Where a unit type comes in the default casualty order: transports last (H-4, UT-4),
    then the power's standing order, then cheapest first."""
    rank = standing.index(ut.name) if ut.name in standing else len(standing)
    return (1 if ut.abilities.chosen_last else 0, rank, ut.cost or 0)


def keeps_last_land(side: int, sea: bool) -> bool:
    """The attacker in a land battle keeps its last land unit to the end, so that a win can
    capture the territory (CC-7b, R-CON-02)."""
    return side == ATT and not sea


def keep_last_land(ordered: list[T], captures: Callable[[T], bool]) -> list[T]:
    """``ordered`` with its last land unit moved to the end (``keeps_last_land``)."""
    land = [x for x in ordered if captures(x)]
    if land:
        ordered.remove(land[-1])
        ordered.append(land[-1])
    return ordered


def default_losses(classes: Sequence[int], hp: Sequence[int], cats: Sequence[int], owed: int,
                   absorbers: Sequence[int] | None = None,
                   spend: Callable[[int], None] = _free) -> tuple[list[int], list[int]]:
    """The referee's default casualties: (lost, damaged) as positions in the default casualty
    order, of units of these classes with ``hp`` hits left each, for ``owed`` hits of these
    categories (see the module docstring). ``absorbers``: the two-hit units in the order they
    take free hits (by default the casualty order). Damaged units are never also lost."""
    caps = [0, 0, 0, 0]
    for c, h in zip(classes, hp, strict=True):
        caps[c] += h
    best, tmin = best_total(caps, cats)
    hits = min(owed, best)
    if hits <= 0:
        return [], []
    if absorbers is None:
        absorbers = [j for j in range(len(hp)) if hp[j] > 1]
    dmg = list(absorbers[:hits])
    lost = list(range(len(hp)))[: hits - len(dmg)]
    counts = [0, 0, 0, 0]
    for j in dmg + lost:
        counts[classes[j]] += 1
    if counts[TRANSPORT] <= tmin and flow_ok(cats, counts):
        return lost, [j for j in dmg if j not in lost]
    for v in vectors(caps, hits, spend):
        if v[TRANSPORT] == tmin and flow_ok(cats, v):
            dmg, lost = [], []
            for cls in CLASSES:
                n = v[cls]
                pool = [j for j in range(len(hp)) if classes[j] == cls]
                for j in pool:
                    if hp[j] > 1 and n and j not in dmg:
                        dmg.append(j)
                        n -= 1
                for j in pool:
                    if n <= 0:
                        break
                    lost.append(j)
                    if j in dmg:
                        dmg.remove(j)
                    n -= 1
            return lost, dmg
    return [], []
