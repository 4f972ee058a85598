"""The fast exact method of the odds (issue 18 item 3): hits absorbed, not multisets.

Where it applies. With the referee's default casualties fixed, a side that only ever takes hits
any of its units may absorb (no hit category that spares some of them: a land battle, or a sea
battle in which no submarine fires at aircraft and no aircraft at submarines) loses its units
one hit at a time in one order, and ``h`` hits at once leave it as ``h`` single hits do. Its
state is then how many hits it has absorbed: an index into a chain of multisets (the defender),
or a node of a tree of such chains (the attacker, whose aircraft AA fire may shoot down before
round 1: each number of aircraft lost starts a chain, and the chains join where the casualty
order reaches the aircraft). ``Model`` (``odds.core``) still states every rule: the chains are
built with ``Model.assign``, the ends with ``model.battle_end``, the dice with the model's
groups (combined arms, developments), AA fire and round 1 with the bombardment with the old
method's own opening.

The method. Each state's hits are one distribution (the convolution of one binomial per group
of dice), computed once per state, not per pair; capping them at what the other side can absorb
lumps the tail into its last index. The joint states form a grid, rows the attacker's states
(most hit points first), columns the defender's hits absorbed; every round moves right or down
or both, so one pass in row order visits each state once, with probability flowing forward,
and the self-loop (a round in which nothing is hit) is divided out (a geometric series) as in
the old method. A state's mass spreads as whole row segments (``map`` over lists), so the work
is a few dozen nanoseconds per term.

Probabilities below ``EPS`` are dropped (at most ``EPS`` times the states in all, far below a
double's precision of the total); the tests hold this method to the old one within 1e-9.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from operator import add

from odds.core import FIRE, Model, State, Tally, TooBig, _opening
from rules.battle import model as bm
from rules.battle.model import ANY, ATT, DEF

__all__ = ["EPS", "TERMS_PER_STEP", "applies", "grid_exact"]

EPS = 1e-22  # masses and terms below this are dropped (see the module docstring)
# Terms of the grid added per step of work: a step of the old method (a dict update, a
# casualty sorted) costs about as much time as this many terms added as list segments.
TERMS_PER_STEP = 6


def _pmf(groups: Sequence[tuple[tuple[int, int], int]]) -> list[float]:
    """Distribution of the hits of these groups of dice (uncapped), all of category ANY."""
    out = [1.0]
    for (value, _cat), n in groups:
        p = min(max(value, 0), 6) / 6
        if n <= 0 or p <= 0.0:
            continue
        b = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
        nxt = [0.0] * (len(out) + n)
        for i, x in enumerate(out):
            if x:
                seg = nxt[i:i + n + 1]
                nxt[i:i + n + 1] = list(map(add, seg, map(x.__mul__, b)))
        out = nxt
    return out


def _tails(pmf: list[float]) -> list[float]:
    """``tails[k]``: the probability of ``k`` hits or more, summed without cancellation."""
    out = [0.0] * (len(pmf) + 1)
    for k in range(len(pmf) - 1, -1, -1):
        out[k] = math.fsum(pmf[k:]) if k < 8 else out[k + 1] + pmf[k]
    return out


def _capped(pmf: list[float], tails: list[float], cap: int) -> list[float]:
    """The distribution with every outcome from ``cap`` up lumped at ``cap``."""
    if cap >= len(pmf) - 1:
        return pmf
    return [*pmf[:cap], tails[cap]]


def applies(model: Model) -> bool:
    """Every hit either side may score can go on any unit of the other (category ANY), and no
    submarine strikes first: the states are hits absorbed."""
    att, dfd = model.sides
    if any(n and k.strikes for s in (att, dfd) for k, n in zip(s.kinds, s.start, strict=True)):
        return False  # submarines that may strike first: left to the old method
    for role, side in ((ATT, att), (DEF, dfd)):
        other = model.sides[1 - role]
        t_air = any(n and k.cls == bm.AIR for k, n in zip(other.kinds, other.start, strict=True))
        t_sub = any(n and k.cls == bm.SUB for k, n in zip(other.kinds, other.start, strict=True))
        # Categories only collapse as the targets dwindle, so the starting targets decide.
        groups = model._dice_groups(role, side.start, FIRE, t_air, t_sub)
        if any(cat != ANY for (_v, cat) in groups):
            return False
        if any(n and k.cls == bm.TRANSPORT for k, n in zip(side.kinds, side.start, strict=True)):
            return False  # transports last with H-4's fallback: left to the old method
    return True


def _chain(model: Model, role: int, st: State) -> list[State]:
    """The states of ``role`` from ``st`` one hit at a time, down to none left."""
    out = [st]
    hp = model.hp(role, st)
    for _ in range(hp):
        st = model.assign(role, st, (1, 0, 0))
        out.append(st)
    return out


def attacker_tree(model: Model, starts: Iterable[State]
                  ) -> tuple[dict[State, int], list[State], list[int]]:
    """The attacker's states as a tree of chains, from each state the opening leaves: each
    state's row (``node``), the states by row, and each row's parent (the state one more hit
    leaves; -1 for none left)."""
    node: dict[State, int] = {}
    states: list[State] = []
    parent: list[int] = []
    for a in sorted(starts, key=lambda s: -model.hp(ATT, s)):
        walk: list[State] = []
        s = a
        while s not in node:
            walk.append(s)
            node[s] = len(states)
            states.append(s)
            parent.append(-1)
            if not any(s):
                break
            s = model.assign(ATT, s, (1, 0, 0))
        for s0 in walk:
            if any(s0):
                parent[node[s0]] = node[model.assign(ATT, s0, (1, 0, 0))]
    return node, states, parent


def grid_exact(model: Model, max_states: int, max_work: int) -> tuple[Tally, int] | None:
    """The exact odds on the grid of hits absorbed, or None where the method does not apply
    (``applies``); raises ``TooBig`` past ``max_states`` states or ``max_work`` steps."""
    if not applies(model):
        return None
    model.work, model.limit, model.solver = 0, max_work, "grid"
    att, dfd = model.sides
    tally = Tally(model)
    start = (att.start, dfd.start)
    mass0 = (_opening(model, tally, 1.0, model.outcome, model.aa_fire)
             if model.opening else {start: 1.0})
    # The defender: one chain from its start (AA fire and bombardment hit it in its order).
    dchain = _chain(model, DEF, dfd.start)
    dpos = {s: j for j, s in enumerate(dchain)}
    if any(d not in dpos for _a, d in mass0):
        return None
    ncols = len(dchain)
    # The attacker: a tree of chains, from each state the opening leaves.
    node, states, parent = attacker_tree(model, {a for a, _d in mass0})
    nrows = len(states)
    if nrows * ncols > max_states:
        raise TooBig
    model.spend(nrows * ncols // TERMS_PER_STEP)
    path: list[list[int]] = [[] for _ in states]
    order = sorted(range(nrows), key=lambda u: model.hp(ATT, states[u]))
    for u in order:  # fewest hit points first: the parent's path is ready
        p = parent[u]
        path[u] = [u, *path[p]] if p >= 0 else [u]
    # Hits per state, once: the attacker's per row, the defender's per column.
    t_air = any(n and k.cls == bm.AIR for k, n in zip(dfd.kinds, dfd.start, strict=True))
    t_sub = any(n and k.cls == bm.SUB for k, n in zip(dfd.kinds, dfd.start, strict=True))
    a_pmf = [_pmf(model._groups(ATT, s, FIRE, t_air, t_sub)) for s in states]
    t_air = any(n and k.cls == bm.AIR for k, n in zip(att.kinds, att.start, strict=True))
    t_sub = any(n and k.cls == bm.SUB for k, n in zip(att.kinds, att.start, strict=True))
    d_pmf = [_pmf(model._groups(DEF, s, FIRE, t_air, t_sub)) for s in dchain]
    a_tails = [_tails(f) for f in a_pmf]
    d_tails = [_tails(g) for g in d_pmf]
    model.spend(sum(map(len, a_pmf)) + sum(map(len, d_pmf)))
    # The ends, by the kinds present on each side.
    a_sig = [tuple(i for i, n in enumerate(s) if n) for s in states]
    d_sig = [tuple(i for i, n in enumerate(s) if n) for s in dchain]

    def end_of(u: int, j: int) -> bm.Ending | None:
        return model.ending(a_sig[u], d_sig[j])

    grid = [[0.0] * ncols for _ in range(nrows)]
    for (a, d), q in mass0.items():
        grid[node[a]][dpos[d]] += q
    last = ncols - 1
    visited = 0
    for u in reversed(order):  # most hit points first
        row = grid[u]
        pu = path[u]
        hu = len(pu) - 1
        fa, ta = a_pmf[u], a_tails[u]
        for j in range(ncols):
            m = row[j]
            if m <= EPS:
                continue
            visited += 1
            end = end_of(u, j)
            if end is not None:
                d = dchain[j]
                if end.transports_lost:
                    d = tuple(n if not dfd.kinds[i].no_combat else 0 for i, n in enumerate(d))
                if end.unarmed_lost:
                    d = tuple(0 for _ in d)
                tally.end(end.result, states[u], d, m)
                continue
            f = _capped(fa, ta, last - j)
            g = _capped(d_pmf[j], d_tails[j], hu)
            # 1 - P(nobody hit), without cancellation: P(some attacker hit) + P(none) P(some
            # defender hit).
            go = d_tails[j][1] + g[0] * ta[1]
            if go <= 0.0:
                continue  # cannot happen: a state that goes on has a unit that can hit
            w = m / go
            tally.rounds += w
            lf = len(f)
            model.spend(1 + len(g) * lf // TERMS_PER_STEP)
            end_j = j + lf
            for x, gx in enumerate(g):
                c = w * gx
                if c <= EPS:
                    continue
                tgt = grid[pu[x]]
                tgt[j:end_j] = map(add, tgt[j:end_j], map(c.__mul__, f))
    return tally, visited
