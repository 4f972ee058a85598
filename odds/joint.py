"""The exact method of the odds for battles off the grid (issue 18 item 3): sea battles with
submarines (first strikes, hits that spare aircraft or submarines), transports.

The method is the old one (``odds.core.exact``: joint states of the two sides' multisets,
processed once each with the self-loop divided out), organised for speed: each side's states
are numbered once; each state's dice are one distribution per hit category, computed once per
state (not per pair of states), and capped per target by lumping; the other side's next states
are lists of (number, probability) cached per pair; the joint states are processed row by row
(the attacker's states, most hit points first, each row's defender states likewise), which is
an order in which every state comes after every state that leads to it, without a heap over
pairs. ``Model`` still states every rule (casualties, strikes, ends, the opening).
"""

from __future__ import annotations

import heapq
import math

from odds.core import (
    FIRE,
    FIRE_NOT_STRIKERS,
    ROUND_STEPS,
    STRIKE,
    Model,
    State,
    Tally,
    TooBig,
    _opening,
)
from odds.grid import _pmf
from rules.battle import model as bm
from rules.battle.model import ATT, DEF

__all__ = ["JOINT_TERMS_PER_STEP", "joint_exact"]

# Terms (dict updates) per step of work: a step weighs about as much time in every method.
JOINT_TERMS_PER_STEP = 2

Next = list[tuple[int, float]]


class _Side:
    """One side's states, numbered."""

    def __init__(self, model: Model, role: int) -> None:
        self.model = model
        self.role = role
        self.ids: dict[State, int] = {}
        self.states: list[State] = []
        self.hp: list[int] = []
        self.sig: list[tuple[int, ...]] = []
        self.flags: list[tuple[bool, bool, int]] = []
        self.after: dict[tuple[int, tuple[int, int, int]], int] = {}

    def id(self, st: State) -> int:
        got = self.ids.get(st)
        if got is None:
            got = self.ids[st] = len(self.states)
            self.states.append(st)
            self.hp.append(self.model.hp(self.role, st))
            self.sig.append(tuple(i for i, n in enumerate(st) if n))
            self.flags.append(self.model._target_flags(self.role, st))
        return got

    def assign(self, s: int, cats: tuple[int, int, int]) -> int:
        """The state after these hits (``Model.assign``). Hits any unit may take are taken in
        the default order one by one, so ``h`` of them are one hit ``h`` times over: each state
        is sorted into casualties once, not once per number of hits."""
        key = (s, cats)
        got = self.after.get(key)
        if got is not None:
            return got
        h, na, ns = cats
        if h > 1 and not na and not ns:
            got = s
            for _ in range(h):
                got = self.assign(got, (1, 0, 0))
        else:
            got = self.id(self.model.assign(self.role, self.states[s], cats))
        self.after[key] = got
        return got


def joint_exact(model: Model, max_states: int, max_work: int) -> tuple[Tally, int]:
    """The exact odds (see the module docstring); raises ``TooBig`` past ``max_states`` joint
    states or ``max_work`` steps."""
    model.work, model.limit, model.solver = 0, max_work, "joint"
    att, dfd = model.sides
    sides = (_Side(model, ATT), _Side(model, DEF))
    A, D = sides
    tally = Tally(model)
    start = (att.start, dfd.start)
    mass0 = (_opening(model, tally, 1.0, model.outcome, model.aa_fire)
             if model.opening else {start: 1.0})
    # The dice a state rolls, numbered: states that roll the same dice share their outcomes.
    dice_ids: dict[tuple[tuple[tuple[int, int], int], ...], int] = {}
    dice_of: dict[tuple[int, int, int, bool, bool], int] = {}
    pmfs: list[tuple[list[float], ...]] = []
    outs: dict[tuple[int, int, int], Next] = {}

    def dice(role: int, s: int, mode: int, t_air: bool, t_sub: bool) -> int:
        key = (role, s, mode, t_air, t_sub)
        got = dice_of.get(key)
        if got is None:
            groups = model._groups(role, sides[role].states[s], mode, t_air, t_sub)
            got = dice_ids.get(groups)
            if got is None:
                got = dice_ids[groups] = len(pmfs)
                pmfs.append(tuple(_pmf([g for g in groups if g[0][1] == cat])
                                  for cat in range(3)))
                model.spend(sum(map(len, pmfs[got])))
            dice_of[key] = got
        return got

    def outcome(role: int, s: int, mode: int, t: int) -> Next:
        """The target's next states after ``role``'s state ``s`` fires at its state ``t``."""
        tside = sides[1 - role]
        t_air, t_sub, cap = tside.flags[t]
        if not cap:
            return [(t, 1.0)]
        g = dice(role, s, mode, t_air, t_sub)
        key = (role, g, t)
        got = outs.get(key)
        if got is not None:
            return got
        p0, p1, p2 = (_lump(x, cap) for x in pmfs[g])
        acc: dict[int, float] = {}
        after = tside.after
        for i, x in enumerate(p0):
            for j, y in enumerate(p1):
                xy = x * y
                for k, z in enumerate(p2):
                    nxt = after.get((t, (i, j, k)))
                    if nxt is None:
                        nxt = tside.assign(t, (i, j, k))
                    acc[nxt] = acc.get(nxt, 0.0) + xy * z
        model.spend(1 + len(p0) * len(p1) * len(p2) // JOINT_TERMS_PER_STEP)
        got = outs[key] = list(acc.items())
        return got

    strikes_of: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[bool, bool]] = {}

    def end_of(a: int, d: int) -> bm.Ending | None:
        return model.ending(A.sig[a], D.sig[d])

    def strikes(a: int, d: int) -> tuple[bool, bool]:
        key = (A.sig[a], D.sig[d])
        got = strikes_of.get(key)
        if got is None:
            ak = [att.kinds[i] for i in key[0]]
            dk = [dfd.kinds[i] for i in key[1]]
            got = (model.strike_step[ATT] and any(k.strikes for k in ak)
                   and bm.may_strike(model.rules, ATT, model.sea, dk),
                   model.strike_step[DEF] and any(k.strikes for k in dk)
                   and bm.may_strike(model.rules, DEF, model.sea, ak))
            strikes_of[key] = got
        return got

    # Rows: the attacker's states, most hit points first; in each, the defender's states
    # likewise (a heap per row): every state comes after the states that lead to it.
    rows: dict[int, dict[int, float]] = {}
    row_heap: dict[int, list[tuple[int, int]]] = {}
    a_heap: list[tuple[int, int]] = []
    seen = 0

    def spread(a: int, d: int, w: float, a2s: Next, d2s: Next) -> None:
        """Add ``w`` times the product of the two sides' next states, but the state itself."""
        nonlocal seen
        new = 0
        for a2, q in a2s:
            wq = w * q
            tgt = rows.get(a2)
            if tgt is None:
                tgt = rows[a2] = {}
                row_heap[a2] = []
                heapq.heappush(a_heap, (-A.hp[a2], a2))
            th = row_heap[a2]
            for d2, r in d2s:
                if d2 in tgt:
                    tgt[d2] += wq * r
                elif a2 != a or d2 != d:
                    tgt[d2] = wq * r
                    heapq.heappush(th, (-D.hp[d2], d2))
                    new += 1
        seen += new
        if seen > max_states:
            raise TooBig

    def others(nxt: Next, st: int) -> tuple[float, float]:
        """P(the state stays ``st``) and P(it changes), the latter without cancellation."""
        stay = 0.0
        for x, q in nxt:
            if x == st:
                stay = q
        return stay, math.fsum(q for x, q in nxt if x != st)

    for (a0, d0), q0 in mass0.items():
        spread(-1, -1, q0, [(A.id(a0), 1.0)], [(D.id(d0), 1.0)])
    per_state = ROUND_STEPS // 4
    while a_heap:
        _, a = heapq.heappop(a_heap)
        row = rows[a]  # kept in place: the row receives more while it is processed
        heap = row_heap[a]
        while heap:
            _, d = heapq.heappop(heap)
            m = row.pop(d)
            model.spend(per_state)
            end = end_of(a, d)
            if end is not None:
                dst = D.states[d]
                if end.transports_lost:
                    dst = tuple(n if not dfd.kinds[i].no_combat else 0
                                for i, n in enumerate(dst))
                if end.unarmed_lost:
                    dst = tuple(0 for _ in dst)
                tally.end(end.result, A.states[a], dst, m)
                continue
            a_strike, d_strike = strikes(a, d)
            a_mode = FIRE_NOT_STRIKERS if a_strike else FIRE
            d_mode = FIRE_NOT_STRIKERS if d_strike else FIRE
            # The strikes first (SS-4, SS-5): each side's state after the other's strike.
            d1s = outcome(ATT, a, STRIKE, d) if a_strike else [(d, 1.0)]
            a1s = outcome(DEF, d, STRIKE, a) if d_strike else [(a, 1.0)]
            fire = [(a1 == a and d1 == d, pa * pd, outcome(DEF, d1, d_mode, a1),
                     outcome(ATT, a1, a_mode, d1)) for a1, pa in a1s for d1, pd in d1s]
            # 1 - P(nothing changes): only the pair (a, d) after the strikes can stay, so
            # 1 - s1 * sa * sd = (1 - s1) + s1 * ((1 - sa) + sa * (1 - sd)).
            go = math.fsum(w for same, w, _a2s, _d2s in fire if not same)
            for same, w, a2s, d2s in fire:
                if same:
                    sa, ga = others(a2s, a)
                    gd = others(d2s, d)[1]
                    go += w * (ga + sa * gd)
            if go <= 0.0:
                continue  # cannot happen: a state that goes on has a unit that can hit
            scale = m / go
            tally.rounds += scale
            for _same, w, a2s, d2s in fire:
                model.spend(1 + len(a2s) * len(d2s) // JOINT_TERMS_PER_STEP)
                spread(a, d, scale * w, a2s, d2s)
        del rows[a], row_heap[a]
    return tally, seen


def _lump(pmf: list[float], cap: int) -> list[float]:
    """The distribution with every outcome from ``cap`` up lumped at ``cap``."""
    if cap >= len(pmf) - 1:
        return pmf
    return [*pmf[:cap], math.fsum(pmf[cap:])]
