"""The exact method of the odds on the grid of hits absorbed, as array arithmetic (issue 18).

Where it applies and what a state is: as ``odds.grid`` (``applies``): each side's state is the
hits it has absorbed, the defender's a column (one chain of multisets), the attacker's a row (a
tree of chains, one per number of aircraft AA fire shot down before round 1). ``Model`` still
states every rule: the chains come from ``Model.assign``, the ends from ``model.battle_end``, the
dice from the model's groups, AA fire and round 1 with the bombardment from the old method's
opening, which leaves a distribution over the grid's cells to start from.

The method. A round from cell (u, j) takes the attacker ``x`` hits down its path from row ``u``
(the defender's dice of column ``j``: ``g_j[x]``) and the defender ``y`` columns to the right
(the attacker's dice of row ``u``: ``f_u[y]``, every ``y`` that reaches the last column lumped
there), with the round in which nobody is hit divided out (a geometric series), as in the other
methods. Rows are processed with the most hit points first; a row is whole once every row above
it has poured into it, except for what flows along the row itself (the attacker not hit), so:

1. the row's masses ``m`` solve ``m = m0 + (s * m) F_u``, a triangular system (``F_u``: the
   Toeplitz matrix of ``f_u``, lumped at the last column, without its diagonal; ``s_j``: the
   chance that the attacker takes no hit, per round that changes something, in a live cell);
2. what leaves the row for the rows below is one matrix product: ``W F_u`` with ``W[x, j] =
   w_j g_j[x]`` (``w_j = m_j / go_j``, the expected rounds spent in the cell), whose row ``x``
   goes to the row ``x`` hits down the attacker's path.

Cells where the battle ends (``Model.ending`` per pair of kinds present) absorb their mass into the
tally. Work is counted in steps as elsewhere (``FLOPS_PER_STEP`` multiply-adds and
``ROW_STEPS`` per row), so the switch to Monte Carlo does not depend on the machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from odds.core import FIRE, FIRE_FIRST, Model, State, Tally, TooBig
from odds.grid import applies, attacker_tree, grid_exact
from rules.battle import model as bm
from rules.battle.model import ATT, DEF

__all__ = ["FLOPS_PER_STEP", "ROW_STEPS", "SMALL", "fast_exact"]

# A step of work (about a microsecond in the other methods) weighs this many multiply-adds of the
# arrays, and a row's bookkeeping (its ends, its matrices) this many steps.
FLOPS_PER_STEP = 2_000
ROW_STEPS = 20
EPS = 1e-22  # ends with less mass than this are not tallied (as odds.grid)
# Below this many cells (hit points of one side times the other's) the plain-Python grid
# (odds.grid) answers: the arrays' overhead per row outweighs what they save.
SMALL = 400

Array = npt.NDArray[np.float64]


@lru_cache(maxsize=4096)
def _binomial(n: int, value: int) -> Array:
    """The distribution of the hits of ``n`` dice hitting on ``value`` or less."""
    p = min(max(value, 0), 6) / 6
    out = np.array([math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])
    out.setflags(write=False)
    return out


def _pmf(groups: Sequence[tuple[tuple[int, int], int]]) -> Array:
    """Distribution of the hits of these groups of dice (uncapped), as ``odds.grid._pmf``."""
    out = np.ones(1)
    for (value, _cat), n in groups:
        if n > 0 and value > 0:
            out = np.convolve(out, _binomial(n, value))
    return out


def _tails(p: Array) -> Array:
    """``out[k]``: the sum of ``p[k:]`` (one more entry than ``p``: the last is 0), summed from
    the small end so that no tail cancels."""
    out = np.zeros(len(p) + 1)
    out[:-1] = np.cumsum(p[::-1])[::-1]
    return out


def fast_exact(model: Model, max_states: int, max_work: int,
               small: int = SMALL) -> tuple[Tally, int] | None:
    """The exact odds on the grid of hits absorbed, or None where the method does not apply
    (``odds.grid.applies``); raises ``TooBig`` past ``max_states`` cells or ``max_work``
    steps. Grids of fewer than ``small`` cells go to the plain-Python grid."""
    if not applies(model):
        return None
    att, dfd = model.sides
    if (model.hp(ATT, att.start) + 1) * (model.hp(DEF, dfd.start) + 1) < small:
        return grid_exact(model, max_states, max_work)
    model.work, model.limit, model.solver = 0, max_work, "grid arrays"
    tally = Tally(model)
    # The defender: one chain from its start.
    dchain = [dfd.start]
    for _ in range(model.hp(DEF, dfd.start)):
        dchain.append(model.assign(DEF, dchain[-1], (1, 0, 0)))
    n = len(dchain)
    last = n - 1
    # AA fire before round 1 (R-LC-02): the attacker's states it leaves, each a row to start
    # from (battles it ends go to the tally); round 1 with the bombardment is applied below.
    starts: dict[State, float] = {}
    for a, q in (model.aa_fire(att.start) if model.aa else {att.start: 1.0}).items():
        end = model.terminal(a, dfd.start)
        if end is not None:
            tally.end(end[0], end[1], end[2], q)
        else:
            starts[a] = starts.get(a, 0.0) + q
    if not starts:
        return tally, 0
    # The attacker: a tree of chains, from each state the opening leaves.
    node, states, parent = attacker_tree(model, starts)
    nrows = len(states)
    if nrows * n > max_states:
        raise TooBig
    order = sorted(range(nrows), key=lambda u: model.hp(ATT, states[u]))
    path: list[list[int]] = [[] for _ in states]
    for u in order:  # fewest hit points first: the parent's path is ready
        p = parent[u]
        path[u] = [u, *path[p]] if p >= 0 else [u]
    depth = max(len(p) for p in path)
    # The defender's hits per column: d[j, x], and the tails dt[j, x] = P(x hits or more).
    t_air = any(k.cls == bm.AIR and c for k, c in zip(att.kinds, att.start, strict=True))
    t_sub = any(k.cls == bm.SUB and c for k, c in zip(att.kinds, att.start, strict=True))
    d_pmfs = [_pmf(model._groups(DEF, s, FIRE, t_air, t_sub)) for s in dchain]
    width = max(depth, *map(len, d_pmfs)) + 1
    d = np.zeros((n, width))
    for j, g in enumerate(d_pmfs):
        d[j, :len(g)] = g
    dt = np.zeros((n, width + 1))
    dt[:, :-1] = np.cumsum(d[:, ::-1], axis=1)[:, ::-1]
    model.spend(n * width // 50 + 1)
    # The ends, by the kinds present: the defender's columns grouped by theirs.
    d_groups: dict[tuple[int, ...], list[int]] = {}
    for j, s in enumerate(dchain):
        d_groups.setdefault(tuple(i for i, c in enumerate(s) if c), []).append(j)
    d_cols = [(sig, np.array(cols)) for sig, cols in d_groups.items()]
    # The attacker's hits per row: the Toeplitz matrix F (lumped at the last column), per dice.
    t_air = any(k.cls == bm.AIR and c for k, c in zip(dfd.kinds, dfd.start, strict=True))
    t_sub = any(k.cls == bm.SUB and c for k, c in zip(dfd.kinds, dfd.start, strict=True))
    shift = np.arange(n)[None, :] - np.arange(n)[:, None]  # shift[j, c] = c - j
    upper = shift >= 0
    idx = np.clip(shift, 0, n)

    def matrix(s: State) -> tuple[Array, float]:
        """F for the dice of ``s`` and the chance that they hit at all (each row once: not
        kept, so memory stays at the grid's)."""
        groups = model._groups(ATT, s, FIRE, t_air, t_sub)
        f = np.array(_pmf(groups))
        fp = np.zeros(n + 1)
        k = min(len(f), n + 1)
        fp[:k] = f[:k]
        tails = np.zeros(n + 1)
        ft = _tails(f)
        tails[:min(len(ft), n + 1)] = ft[:n + 1]
        mat = np.where(upper, fp[idx], 0.0)
        mat[:, last] = tails[last - np.arange(n)]  # y >= last - j lands in the last column
        model.spend(n * n // 50 + 1)
        return mat, math.fsum(f[1:])

    grid = np.zeros((nrows, n))
    bombard = model.opening and bool(att.bombard)
    for a, q in starts.items():
        u = node[a]
        if not bombard:
            grid[u, 0] += q
            continue
        # Round 1 with the bombardment (R-AMP-05): the attackers' dice with the ships', once,
        # nothing divided out (a round in which nobody is hit leaves the cell as it was).
        tally.rounds += q
        f = _pmf(model._groups(ATT, a, FIRE_FIRST, t_air, t_sub))
        f1 = np.zeros(n)
        f1[:min(len(f), n)] = f[:n]
        f1[last] = _tails(f)[last] if len(f) > last else f1[last]
        pu = path[u]
        hu = len(pu) - 1
        g0 = d[0, :hu + 1].copy()
        g0[hu] = dt[0, hu]
        grid[pu] += q * np.outer(g0, f1)
    a_sig = [tuple(i for i, c in enumerate(s) if c) for s in states]
    eye = np.eye(n)
    diag = np.arange(n)
    no_hit = d[:, 0]
    some_hit = dt[:, 1]
    visited = 0
    for u in reversed(order):  # most hit points first
        m0 = grid[u]
        if not m0.any():
            continue
        pu = path[u]
        hu = len(pu) - 1
        live = np.ones(n, dtype=bool)
        ends: list[tuple[npt.NDArray[np.intp], bm.Ending]] = []
        for sig, cols in d_cols:
            ending = model.ending(a_sig[u], sig)
            if ending is not None:
                live[cols] = False
                ends.append((cols, ending))
        model.spend(ROW_STEPS)
        if live.any():
            mat, hit = matrix(states[u])
            go = some_hit + no_hit * hit  # 1 - P(nobody hit), without cancellation
            calm = np.where(live, no_hit / np.where(live, go, 1.0), 0.0)
            a_mat = calm[:, None] * mat
            a_mat[diag, diag] = 0.0  # the round in which nobody is hit: divided out
            m = np.linalg.solve(eye - a_mat.T, m0)
            w = np.where(live, m / np.where(live, go, 1.0), 0.0)
            tally.rounds += float(w.sum())
            if hu:
                g = d[:, :hu + 1].T.copy()
                g[hu] = dt[:, hu]  # x >= hu: the attacker is gone
                out = (g[1:] * w) @ mat
                grid[pu[1:]] += out
            model.spend((n * n * n // 3 + hu * n * n) // FLOPS_PER_STEP + 1)
        else:
            m = m0
        visited += int(np.count_nonzero(m > EPS))
        for cols, ending in ends:
            for j in cols.tolist():
                mass = float(m[j])
                if mass <= EPS:
                    continue
                dst = dchain[j]
                if ending.transports_lost:
                    dst = tuple(c if not dfd.kinds[i].no_combat else 0 for i, c in enumerate(dst))
                if ending.unarmed_lost:
                    dst = tuple(0 for _ in dst)
                tally.end(ending.result, states[u], dst, mass)
    return tally, visited
