"""Battle odds (issue 3, part 3): exact by dynamic programming, Monte Carlo beyond a size limit.

``odds(edition, attackers, defenders)`` says how likely the attacker wins, the defender wins, or
nobody does (both sides destroyed, or nobody left who can hit), and how many units of each type
survive on average. It models what ``battle <space> all`` does in ``rules/combat.py``:

- the attacker presses every round (no retreat);
- hits are assigned in the default casualty order: two-hit units absorb a hit first (H-6), then
  the standing order if one is given, else cheapest first (equal costs: lower combat value
  first, then by name), transports last (H-4), and an attacker in a land battle keeps its last
  land unit; when that order would waste hits, the referee's fallback is used, so as many hits
  as the constraints allow count (H-7): submarine hits only on sea units (H-2), air hits on
  submarines only with a friendly destroyer (H-3);
- submarines surprise-strike in Step 2 of every round while the other side has no destroyer
  (SS-1..SS-9): attacking ones hit on their attack, defending ones on their defence; the
  defender's Step-2 casualties still strike but leave before Steps 3 and 4, the attacker's leave
  at once; submarines that struck do not fire again that round; nobody submerges;
- a battleship's first hit damages it for the rest of the battle (UB-2, SS-7); damaged ones fire
  at full value (A-17);
- defending transports left alone, or beside units that neither side can hit, are destroyed at
  once (CC-6C); an attacker left with units that cannot fire loses (it retreats, or is
  destroyed); a battle in which nobody can hit anybody ends (A-11), as does a sea battle with
  only transports on both sides (CC-6A).

Exact method. The state between rounds is the multiset of surviving units of both sides: a
count per (unit type, hits left) for each side, so a damaged battleship is its own kind. One
round maps a state to a distribution of states. Each side's hits are the convolution of one
binomial per group of dice (value/6 each), kept per hit category (any unit / not air units /
not submarines) only where the targets make the category matter, and capped at what the
targets can absorb. Given the hits, the casualties follow from the default order, so each
side's next state is a function of the hits; the two sides' hits are independent given the
state (Step 2 first adds a stage in between). Every change removes hit points, so states are
processed in decreasing total hit points, each once: probability flows forward from the
starting state and collects in end states. Rounds in which nothing changes are a self-loop of
probability ``s``, removed by dividing the other transitions by ``1 - s`` (a geometric series);
the expected number of rounds spent in a state is ``1 / (1 - s)``.

Monte Carlo. Beyond ``max_states`` states the same round function is sampled, with a small
deterministic generator (SplitMix64) seeded by the caller, and the result carries its standard
error. ``rules`` never uses the global ``random`` (DESIGN §1).
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from rules.edition import Edition
from rules.errors import InvalidOrder

__all__ = [
    "DEFAULT_MAX_STATES",
    "DEFAULT_SAMPLES",
    "OddsResult",
    "SplitMix64",
    "odds",
    "summary",
]

# Joint states before the exact method gives way to Monte Carlo: ~0.1 ms each, so an exact
# answer takes at most about a second, like 10,000 simulated battles.
DEFAULT_MAX_STATES = 10_000
DEFAULT_SAMPLES = 10_000  # battles simulated by the Monte Carlo method
DEFAULT_SEED = 1941
MAX_ROUNDS = 200  # as rules/combat.py: a simulated battle still going after this is a stalemate
Z95 = 1.959963984540054  # two-sided 95% normal quantile

Method = Literal["exact", "monte carlo"]

# Unit classes for casualties (as rules/combat.py) and hit categories (H-2, H-3).
AIR, SUB, OTHER, TRANSPORT = 0, 1, 2, 3
ANY, NO_AIR, NO_SUB = 0, 1, 2
ATT, DEF = 0, 1
# What fires: every unit with a value; every unit but submarines that struck; only strikers.
FIRE, FIRE_NOT_STRIKERS, STRIKE = 0, 1, 2
# How a battle ends.
ATTACKER, DEFENDER, BOTH_DESTROYED, STALEMATE = 0, 1, 2, 3

State = tuple[int, ...]  # count per kind of one side
Cats = tuple[int, int, int]  # hits per category: any, not air (H-2), not submarines (H-3)
Dist = dict[State, float]


class OddsResult(BaseModel):
    """The answer of ``odds``. Probabilities are 0..1; survivors are expected counts over all
    outcomes (a damaged battleship counts as a battleship)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attacker_win: float  # the defenders are gone and some attacker is left
    defender_win: float  # the attackers are gone (or left unable to fire) and a defender is left
    draw: float  # both_destroyed + stalemate
    both_destroyed: float
    stalemate: float  # nobody left can hit anybody, or only transports (CC-6A)
    attacker_captures: float | None  # land: the attacker wins with a land unit left (CC-7b)
    attacker_survivors: dict[str, float]
    defender_survivors: dict[str, float]
    expected_rounds: float
    method: Method
    sea: bool
    states: int  # joint states the exact method visited (Monte Carlo: 0)
    trials: int | None = None  # Monte Carlo: battles simulated
    std_error: float | None = None  # Monte Carlo: the largest standard error of the three
    half_width_95: float | None = None  # Monte Carlo: 95% half-width of that one

    def to_json(self) -> dict[str, object]:
        return self.model_dump()


class SplitMix64:
    """A small deterministic generator (Steele, Lea & Flood 2014) for the Monte Carlo method."""

    MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self.state = seed & self.MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self.MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self.MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """Uniform in [0, 1) with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))


# --------------------------------------------------------------------------------------------
# Hits that can be assigned (H-2, H-3, H-4, H-7): closed forms of the max-flow in combat.py


def _flow_ok(cats: Cats, counts: Sequence[int]) -> bool:
    """Can hits of these categories go to exactly ``counts`` hits per unit class?

    Hall's condition for the bipartite graph of rules/combat.py (any -> every class, no-air ->
    all but air, no-sub -> all but submarines): only the classes air and submarine alone and
    the total can fail it.
    """
    a, na, ns = cats
    return (sum(counts) <= a + na + ns and counts[AIR] <= a + ns and counts[SUB] <= a + na)


def _max_flow(cats: Cats, ca: int, cs: int, co: int, ct: int) -> int:
    """Most hits assignable to classes with these hit points (minimum cut)."""
    a, na, ns = cats
    return min(a + na + ns, ca + cs + co + ct, a + ns + cs + co + ct, a + na + ca + co + ct)


def _best_total(caps: Sequence[int], cats: Cats) -> tuple[int, int]:
    """(most hits that can be assigned, fewest of them on transports): combat._best_total."""
    ca, cs, co, ct = caps
    best = _max_flow(cats, ca, cs, co, ct)
    # Augmenting paths never lower a class's flow, so a maximum flow that first fills the other
    # classes puts exactly best - (most hits without transports) on transports.
    return best, best - _max_flow(cats, ca, cs, co, 0)


def _vectors(caps: Sequence[int], total: int) -> list[tuple[int, int, int, int]]:
    """Hits per class adding up to ``total``, in the order rules/combat.py tries them."""
    out = []
    for a, s, o in product(range(min(caps[AIR], total) + 1), range(min(caps[SUB], total) + 1),
                           range(min(caps[OTHER], total) + 1)):
        t = total - a - s - o
        if 0 <= t <= caps[TRANSPORT]:
            out.append((a, s, o, t))
    return out


# --------------------------------------------------------------------------------------------
# The two sides


class _Kind(NamedTuple):
    type: str
    hp: int  # hits left
    value: int  # attack for the attacker, defence for the defender
    cls: int  # AIR, SUB, OTHER, TRANSPORT
    air: bool
    cannot_hit_air: bool  # H-2 (submarines)
    anti_sub: bool  # destroyer (SS-1, H-3)
    strikes: bool  # may surprise-strike (SS-1)
    captures: bool  # land unit (CC-7b)
    no_combat: bool  # transport (UT-2)


class _Side:
    def __init__(self, ed: Edition, role: int, units: Mapping[str, int], sea: bool,
                 order: Sequence[str]) -> None:
        self.role = role
        types = sorted(units)
        standing = list(order)

        def key(t: str) -> tuple[int, int, int, int, str]:
            ut = ed.units[t]
            rank = standing.index(t) if t in standing else len(standing)
            value = ut.attack if role == ATT else ut.defense
            return (1 if ut.abilities.chosen_last else 0, rank, ut.cost or 0, value, t)

        kinds: list[_Kind] = []
        for t in sorted(types, key=key):  # kinds in the default casualty order
            ut = ed.units[t]
            ab = ut.abilities
            cls = (AIR if ut.domain == "air" else SUB if ab.cannot_be_hit_by_air
                   else TRANSPORT if ab.chosen_last else OTHER)
            for hp in range(1, ut.hits + 1):
                kinds.append(_Kind(
                    type=t, hp=hp, value=ut.attack if role == ATT else ut.defense, cls=cls,
                    air=ut.domain == "air", cannot_hit_air=ab.cannot_hit_air,
                    anti_sub=ab.anti_sub, strikes=sea and ab.surprise_strike,
                    captures=ab.can_capture, no_combat=ab.no_combat_value))
        self.kinds = tuple(kinds)
        self.index = {(k.type, k.hp): i for i, k in enumerate(kinds)}
        self.keep_last_land = role == ATT and not sea
        self.start: State = tuple(
            units[k.type] if k.hp == ed.units[k.type].hits else 0 for k in kinds)


# --------------------------------------------------------------------------------------------
# The battle model: hits, casualties, rounds, end states


class _Model:
    def __init__(self, att: _Side, dfd: _Side, sea: bool) -> None:
        self.sides = (att, dfd)
        self.sea = sea
        self._hits_cache: dict[tuple[int, State, int, bool, bool, int],
                               tuple[tuple[Cats, ...], tuple[float, ...], tuple[float, ...]]] = {}
        self._assign_cache: dict[tuple[int, State, Cats], State] = {}
        self._outcome_cache: dict[tuple[int, State, int, State], Dist] = {}
        self._binom_cache: dict[tuple[int, int, int], tuple[float, ...]] = {}

    # --- facts about a side -------------------------------------------------------------
    def _has(self, role: int, st: State, what: str) -> bool:
        kinds = self.sides[role].kinds
        return any(n and getattr(kinds[i], what) for i, n in enumerate(st))

    def hp(self, role: int, st: State) -> int:
        kinds = self.sides[role].kinds
        return sum(n * kinds[i].hp for i, n in enumerate(st))

    def _can_fire(self, role: int, st: State) -> bool:
        kinds = self.sides[role].kinds
        return any(n and kinds[i].value > 0 for i, n in enumerate(st))

    def _can_hit(self, role: int, shooters: State, targets: State) -> bool:
        """combat._can_hit: some unit with a value could hit some target."""
        sk = self.sides[role].kinds
        tk = self.sides[1 - role].kinds
        destroyer = self._has(role, shooters, "anti_sub")
        for i, n in enumerate(shooters):
            if not n or sk[i].value <= 0:
                continue
            for j, m in enumerate(targets):
                if not m:
                    continue
                if sk[i].cannot_hit_air and tk[j].cls == AIR:
                    continue
                if sk[i].air and tk[j].cls == SUB and not destroyer:
                    continue
                return True
        return False

    def terminal(self, a: State, d: State) -> tuple[int, State, State] | None:
        """How the battle ends in this state (with the survivors), or None if it goes on.

        The checks of combat._end_round, the press step and combat._precheck_end, in order. An
        attacker whose units cannot fire retreats where it can (its units count as survivors).
        """
        if not any(d):
            return (BOTH_DESTROYED if not any(a) else ATTACKER), a, d
        if not any(a):
            return DEFENDER, a, d
        ak, dk = self.sides[ATT].kinds, self.sides[DEF].kinds
        d_idle = all(not n or dk[i].no_combat for i, n in enumerate(d))
        if self.sea and d_idle and all(not n or ak[i].no_combat for i, n in enumerate(a)):
            return STALEMATE, a, d  # CC-6A: only transports on both sides
        if not self._can_fire(ATT, a):
            return DEFENDER, a, d  # the attackers that cannot fire retreat or are lost (CC-6C)
        if self.sea:
            d_tt = tuple(n if dk[i].no_combat else 0 for i, n in enumerate(d))
            d_war = tuple(n if not dk[i].no_combat else 0 for i, n in enumerate(d))
            a_war = tuple(n if not ak[i].no_combat else 0 for i, n in enumerate(a))
            if any(d_tt) and self._can_hit(ATT, a, d_tt) and (d_idle or (
                    not self._can_hit(ATT, a_war, d_war) and not self._can_hit(DEF, d_war, a_war))):
                # CC-6C: transports alone, or beside units nobody can hit, are lost at once.
                return (ATTACKER if d_idle else STALEMATE), a, d_war
        if not self._can_hit(ATT, a, d) and not self._can_hit(DEF, d, a):
            return STALEMATE, a, d
        return None

    # --- hits ---------------------------------------------------------------------------
    def _binom(self, n: int, value: int, cap: int) -> tuple[float, ...]:
        key = (n, value, cap)
        got = self._binom_cache.get(key)
        if got is None:
            p = min(max(value, 0), 6) / 6
            pmf = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
            if n > cap:
                pmf = [*pmf[:cap], math.fsum(pmf[cap:])]
            got = tuple(pmf)
            self._binom_cache[key] = got
        return got

    def hits(self, role: int, st: State, mode: int, t_air: bool, t_sub: bool,
             cap: int) -> tuple[tuple[Cats, ...], tuple[float, ...], tuple[float, ...]]:
        """Distribution of the hits ``role`` scores: (categories, probabilities, cumulative)."""
        key = (role, st, mode, t_air, t_sub, cap)
        got = self._hits_cache.get(key)
        if got is not None:
            return got
        kinds = self.sides[role].kinds
        destroyer = self._has(role, st, "anti_sub")
        groups: dict[tuple[int, int], int] = {}
        for i, n in enumerate(st):
            k = kinds[i]
            if not n or k.value <= 0:
                continue
            if mode == STRIKE and not k.strikes:
                continue
            if mode == FIRE_NOT_STRIKERS and k.strikes:
                continue
            cat = NO_AIR if k.cannot_hit_air else NO_SUB if k.air and not destroyer else ANY
            if (cat == NO_AIR and not t_air) or (cat == NO_SUB and not t_sub):
                cat = ANY  # the category makes no difference to these targets
            groups[(k.value, cat)] = groups.get((k.value, cat), 0) + n
        dist: dict[Cats, float] = {(0, 0, 0): 1.0}
        for (value, cat), n in sorted(groups.items()):
            pmf = self._binom(n, value, cap)
            nxt: dict[Cats, float] = {}
            for c, p in dist.items():
                for h, q in enumerate(pmf):
                    if not q:
                        continue
                    lst = list(c)
                    lst[cat] = min(cap, lst[cat] + h)
                    c2 = (lst[0], lst[1], lst[2])
                    nxt[c2] = nxt.get(c2, 0.0) + p * q
            dist = nxt
        cats = tuple(dist)
        probs = tuple(dist[c] for c in cats)
        cum: list[float] = []
        acc = 0.0
        for p in probs:
            acc += p
            cum.append(acc)
        got = (cats, probs, tuple(cum))
        self._hits_cache[key] = got
        return got

    # --- casualties (combat.default_choice on counts) ------------------------------------
    def _pref_units(self, role: int, st: State) -> list[int]:
        """Kinds of the units one by one, in the default casualty order."""
        side = self.sides[role]
        units = [i for i, n in enumerate(st) for _ in range(n)]
        if side.keep_last_land:
            land = [j for j, i in enumerate(units) if side.kinds[i].captures]
            if land:
                units.append(units.pop(land[-1]))
        return units

    def assign(self, role: int, st: State, cats: Cats) -> State:
        """The state of ``role`` after taking these hits in the default casualty order."""
        key = (role, st, cats)
        got = self._assign_cache.get(key)
        if got is not None:
            return got
        got = self._assign(role, st, cats)
        self._assign_cache[key] = got
        return got

    def _assign(self, role: int, st: State, cats: Cats) -> State:
        side = self.sides[role]
        kinds = side.kinds
        caps = [0, 0, 0, 0]
        for i, n in enumerate(st):
            caps[kinds[i].cls] += n * kinds[i].hp
        best, tmin = _best_total(caps, cats)
        hits = min(sum(cats), best)
        if hits <= 0:
            return st
        units = self._pref_units(role, st)
        hp = [kinds[i].hp for i in units]
        # Free hits first: undamaged two-hit units absorb one each (H-6); then the order.
        dmg = [j for j in range(len(units)) if hp[j] > 1][:hits]
        lost = list(range(len(units)))[: hits - len(dmg)]
        counts = [0, 0, 0, 0]
        for j in dmg + lost:
            counts[kinds[units[j]].cls] += 1
        if not (counts[TRANSPORT] <= tmin and _flow_ok(cats, counts)):
            # combat.default_choice's fallback: the first class vector that wastes no hit.
            for v in _vectors(caps, hits):
                if v[TRANSPORT] == tmin and _flow_ok(cats, v):
                    dmg, lost = [], []
                    for cls in (AIR, SUB, OTHER, TRANSPORT):
                        n = v[cls]
                        pool = [j for j in range(len(units)) if kinds[units[j]].cls == cls]
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
                    break
            else:
                return st
        left = list(hp)
        for j in dmg:
            left[j] -= 1
        for j in lost:
            left[j] = 0
        out = [0] * len(kinds)
        for j, i in enumerate(units):
            if left[j] > 0:
                out[side.index[(kinds[i].type, left[j])]] += 1
        return tuple(out)

    # --- one side firing at the other ----------------------------------------------------
    def _target_flags(self, role: int, st: State) -> tuple[bool, bool, int]:
        kinds = self.sides[role].kinds
        t_air = any(n and kinds[i].cls == AIR for i, n in enumerate(st))
        t_sub = any(n and kinds[i].cls == SUB for i, n in enumerate(st))
        return t_air, t_sub, self.hp(role, st)

    def outcome(self, role: int, st: State, mode: int, target: State) -> Dist:
        """Distribution of the other side's state after ``role`` fires at it."""
        key = (role, st, mode, target)
        got = self._outcome_cache.get(key)
        if got is not None:
            return got
        t_air, t_sub, cap = self._target_flags(1 - role, target)
        got = {}
        if cap:
            cats, probs, _ = self.hits(role, st, mode, t_air, t_sub, cap)
            for c, p in zip(cats, probs, strict=True):
                nxt = self.assign(1 - role, target, c)
                got[nxt] = got.get(nxt, 0.0) + p
        else:
            got = {target: 1.0}
        self._outcome_cache[key] = got
        return got

    def sample(self, role: int, st: State, mode: int, target: State, u: float) -> State:
        """One draw of the other side's state after ``role`` fires at it."""
        t_air, t_sub, cap = self._target_flags(1 - role, target)
        if not cap:
            return target
        cats, _, cum = self.hits(role, st, mode, t_air, t_sub, cap)
        k = min(bisect_right(cum, u * cum[-1]), len(cats) - 1)
        return self.assign(1 - role, target, cats[k])

    # --- a round -------------------------------------------------------------------------
    def round(self, a: State, d: State,
              fire: Callable[[int, State, int, State], Dist]) -> dict[tuple[State, State], float]:
        """Steps 2-5 of one round: the joint distribution of (attackers, defenders) after it.

        ``fire(role, shooters, mode, targets)`` gives the targets' next states: exact
        (``outcome``) or one sampled state (Monte Carlo).
        """
        a_strike = self.sea and self._has(ATT, a, "strikes") and not self._has(DEF, d, "anti_sub")
        d_strike = self.sea and self._has(DEF, d, "strikes") and not self._has(ATT, a, "anti_sub")
        # Step 2 (SS-4, SS-5): both sides' strikes depend only on the state at the start of the
        # round, since the defender's Step-2 casualties still strike.
        d1s = fire(ATT, a, STRIKE, d) if a_strike else {d: 1.0}
        a1s = fire(DEF, d, STRIKE, a) if d_strike else {a: 1.0}
        out: dict[tuple[State, State], float] = {}
        for a1, pa in a1s.items():
            for d1, pd in d1s.items():
                # Step 3 / Step 4: the defender's Step-3 casualties still fire (CC-4a).
                d2s = fire(ATT, a1, FIRE_NOT_STRIKERS if a_strike else FIRE, d1)
                a2s = fire(DEF, d1, FIRE_NOT_STRIKERS if d_strike else FIRE, a1)
                w = pa * pd
                for a2, q in a2s.items():
                    for d2, r in d2s.items():
                        out[(a2, d2)] = out.get((a2, d2), 0.0) + w * q * r
        return out


# --------------------------------------------------------------------------------------------
# Exact and Monte Carlo drivers


class _TooBig(Exception):
    pass


class _Tally:
    def __init__(self, model: _Model) -> None:
        self.model = model
        self.p = [0.0, 0.0, 0.0, 0.0]
        self.captures = 0.0
        self.surv = ([0.0] * len(model.sides[ATT].kinds), [0.0] * len(model.sides[DEF].kinds))
        self.rounds = 0.0

    def end(self, how: int, a: State, d: State, p: float) -> None:
        self.p[how] += p
        if how == ATTACKER and any(
                n and self.model.sides[ATT].kinds[i].captures for i, n in enumerate(a)):
            self.captures += p
        for role, st in ((ATT, a), (DEF, d)):
            acc = self.surv[role]
            for i, n in enumerate(st):
                if n:
                    acc[i] += p * n

    def survivors(self, role: int, scale: float) -> dict[str, float]:
        out: dict[str, float] = {}
        for k, v in zip(self.model.sides[role].kinds, self.surv[role], strict=True):
            out[k.type] = out.get(k.type, 0.0) + v * scale
        return out


def _exact(model: _Model, max_states: int) -> tuple[_Tally, int]:
    start = (model.sides[ATT].start, model.sides[DEF].start)
    tally = _Tally(model)
    mass: dict[tuple[State, State], float] = {start: 1.0}
    heap = [(-(model.hp(ATT, start[0]) + model.hp(DEF, start[1])), 0, start)]
    seen = 1
    while heap:
        _, _, joint = heapq.heappop(heap)
        p = mass.pop(joint)
        a, d = joint
        end = model.terminal(a, d)
        if end is not None:
            tally.end(end[0], end[1], end[2], p)
            continue
        trans = model.round(a, d, model.outcome)
        trans.pop(joint, None)  # the self-loop: rounds in which nothing changes
        go = math.fsum(trans.values())  # 1 - P(self-loop), without cancellation
        scale = p / go
        tally.rounds += scale
        for nxt, q in trans.items():
            if nxt in mass:
                mass[nxt] += scale * q
            else:
                mass[nxt] = scale * q
                seen += 1
                if seen > max_states:
                    raise _TooBig
                heapq.heappush(heap, (-(model.hp(ATT, nxt[0]) + model.hp(DEF, nxt[1])), seen,
                                      nxt))
    return tally, seen


def _monte_carlo(model: _Model, trials: int, uniform: Callable[[], float]) -> _Tally:
    tally = _Tally(model)

    def fire(role: int, st: State, mode: int, target: State) -> Dist:
        return {model.sample(role, st, mode, target, uniform()): 1.0}

    start = (model.sides[ATT].start, model.sides[DEF].start)
    for _ in range(trials):
        a, d = start
        for _r in range(MAX_ROUNDS):
            end = model.terminal(a, d)
            if end is not None:
                tally.end(end[0], end[1], end[2], 1.0)
                break
            tally.rounds += 1
            ((a, d),) = model.round(a, d, fire)
        else:
            tally.end(STALEMATE, a, d, 1.0)
    return tally


# --------------------------------------------------------------------------------------------
# The entry point


def _check_units(ed: Edition, units: Mapping[str, int], who: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for t, n in units.items():
        if t not in ed.units:
            raise InvalidOrder(f"Unknown unit {t!r}. Units: {', '.join(ed.units)}.")
        if n < 0:
            raise InvalidOrder(f"Bad count {n!r} of {t} for the {who}.")
        if ed.units[t].abilities.factory:
            raise InvalidOrder(f"An {t} takes no part in battles (CC-1); leave it out.")
        if n:
            out[t] = out.get(t, 0) + n
    return out


def _check_domains(ed: Edition, att: Mapping[str, int], dfd: Mapping[str, int],
                   sea: bool) -> None:
    for t in [*att, *dfd]:
        dom = ed.units[t].domain
        if sea and dom == "land":
            raise InvalidOrder(
                f"{t} cannot fight at sea (H-8): land units at sea are cargo and never fight "
                "(CC-2)."
            )
        if not sea and dom == "sea":
            raise InvalidOrder(
                f"{t} cannot fight in a territory (H-8): sea units stay in sea zones (US-1)."
            )
    if sea:
        for t in dfd:
            ut = ed.units[t]
            if ut.domain == "air" and not ut.abilities.carrier_landable:
                raise InvalidOrder(
                    f"{t} cannot defend at sea: only fighters on a defending aircraft carrier "
                    "do (AIR-1, UF-5)."
                )
        room = sum(n * ed.units[t].abilities.carrier_capacity for t, n in dfd.items())
        flying = sum(n for t, n in dfd.items() if ed.units[t].domain == "air")
        if flying > room:
            raise InvalidOrder(
                f"{flying} defending fighter(s) at sea need carriers with room for them "
                f"(UC-2); these carriers hold {room}."
            )


def odds(
    edition: Edition,
    attackers: Mapping[str, int],
    defenders: Mapping[str, int],
    *,
    sea: bool | None = None,
    space: str | None = None,
    attacker_order: Sequence[str] = (),
    defender_order: Sequence[str] = (),
    method: Literal["auto", "exact", "monte carlo"] = "auto",
    max_states: int = DEFAULT_MAX_STATES,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    uniform: Callable[[], float] | None = None,
) -> OddsResult:
    """The odds of a battle fought to the end (see the module docstring for the model).

    ``space`` (a space of the edition) or ``sea`` says whether it is a sea battle; with neither,
    it is one when any sea unit takes part. ``attacker_order``/``defender_order`` are standing
    casualty orders (unit types, first lost first). ``method="auto"`` is exact unless more than
    ``max_states`` joint states are needed, then Monte Carlo with ``samples`` battles drawn from
    ``uniform`` (a function returning floats in [0, 1)) or else a SplitMix64 seeded with
    ``seed``. Raises ``InvalidOrder`` for units that cannot fight there.
    """
    att = _check_units(edition, attackers, "attacker")
    dfd = _check_units(edition, defenders, "defender")
    if space is not None:
        if space not in edition.spaces:
            raise InvalidOrder(f"Unknown space {space!r}.")
        here = edition.is_sea(space)
        if sea is not None and sea != here:
            raise InvalidOrder(f"{space} is {'a sea zone' if here else 'a territory'}.")
        sea = here
    if sea is None:
        sea = any(edition.units[t].domain == "sea" for t in [*att, *dfd])
    _check_domains(edition, att, dfd, sea)
    for t in [*attacker_order, *defender_order]:
        if t not in edition.units:
            raise InvalidOrder(f"Unknown unit {t!r} in a casualty order.")
    if not att:
        raise InvalidOrder("No attacking units: name at least one.")
    if not any((edition.units[t].attack > 0) for t in att):
        raise InvalidOrder(
            "These attackers cannot fire: transports never attack alone (UT-3)."
        )
    if samples < 1 or max_states < 1:
        raise InvalidOrder("samples and max_states must be at least 1.")
    model = _Model(_Side(edition, ATT, att, sea, attacker_order),
                   _Side(edition, DEF, dfd, sea, defender_order), sea)
    tally: _Tally | None = None
    states = 0
    used: Method = "exact"
    if method != "monte carlo":
        try:
            tally, states = _exact(model, max_states if method == "auto" else 10**12)
        except _TooBig:
            tally = None
    trials: int | None = None
    se: float | None = None
    if tally is None:
        used = "monte carlo"
        trials = samples
        draw = uniform if uniform is not None else SplitMix64(seed).random
        tally = _monte_carlo(model, samples, draw)
    scale = 1.0 if trials is None else 1.0 / trials
    p = [x * scale for x in tally.p]
    if trials is not None:
        three = (p[ATTACKER], p[DEFENDER], p[BOTH_DESTROYED] + p[STALEMATE])
        se = max(math.sqrt(max(x * (1 - x), 0.0) / trials) for x in three)
    return OddsResult(
        attacker_win=p[ATTACKER],
        defender_win=p[DEFENDER],
        draw=p[BOTH_DESTROYED] + p[STALEMATE],
        both_destroyed=p[BOTH_DESTROYED],
        stalemate=p[STALEMATE],
        attacker_captures=None if sea else tally.captures * scale,
        attacker_survivors=tally.survivors(ATT, scale),
        defender_survivors=tally.survivors(DEF, scale),
        expected_rounds=tally.rounds * scale,
        method=used,
        sea=sea,
        states=states,
        trials=trials,
        std_error=se,
        half_width_95=None if se is None else Z95 * se,
    )


# --------------------------------------------------------------------------------------------
# Text


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _plural(name: str, n: float) -> str:
    if abs(n - 1) < 0.05 or name.endswith("infantry"):
        return name
    return name + "s"


def _survivors(units: Mapping[str, float]) -> str:
    shown = [f"{n:.1f} {_plural(t, n)}" for t, n in units.items() if n >= 0.05]
    return ", ".join(shown) if shown else "none"


def summary(r: OddsResult) -> str:
    """One paragraph for players: probabilities, method, expected survivors."""
    if r.method == "exact":
        how = "exact"
    else:
        how = (f"Monte Carlo, {r.trials:,} battles, ±{100 * (r.half_width_95 or 0):.1f} points "
               "at 95%")
    if r.stalemate >= 5e-4:
        draw = (f"draw {_pct(r.draw)} (both destroyed {_pct(r.both_destroyed)}, nobody can hit "
                f"{_pct(r.stalemate)})")
    else:
        draw = f"both destroyed {_pct(r.both_destroyed)}"
    lines = [f"Attacker wins {_pct(r.attacker_win)}, defender {_pct(r.defender_win)}, {draw} "
             f"({how})."]
    if r.attacker_captures is not None and r.attacker_captures < r.attacker_win - 5e-4:
        lines.append(f"Attacker wins with a land unit left to capture: "
                     f"{_pct(r.attacker_captures)}.")
    lines.append(f"Expected survivors: attacker {_survivors(r.attacker_survivors)}; "
                 f"defender {_survivors(r.defender_survivors)}. "
                 f"Expected rounds: {r.expected_rounds:.1f}.")
    return "\n".join(lines)
