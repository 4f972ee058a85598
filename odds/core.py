"""The odds evaluator of the battle model: exact distributions, or Monte Carlo samples.

``odds/ask.py`` asks it; the rules it evaluates are those of ``rules/battle/model.py``
(steps of a round, values, who may hit whom, the end of a battle) and
``rules/battle/casualties.py`` (the constraints on hits and the referee's default casualties),
as the combat applies them with ``battle <space> all``: the attacker presses every round,
every casualty is the default one, every submarine that may strike strikes.

Exact method (since issue 18 the reference: ``odds.grid`` and ``odds.joint`` answer, faster, and
the tests hold them to this one within 1e-9). The state between rounds is the multiset of surviving
units of both sides: a count per (unit type, hits left) for each side (a ``model.Kind``), so a
damaged battleship is its own kind. One round maps a state to a distribution of states. Each side's
hits are the convolution of one binomial per group of dice (value/6 each), kept per hit category
(any unit / not air units / not submarines) only where the targets make the category matter, and
capped at what the targets can absorb. Given the hits, the casualties follow from the default
order, so each side's next state is a function of the hits; the two sides' hits are independent
given the state (the strikes first add a stage in between). Every change removes hit points, so
states are processed in decreasing total hit points, each once: probability flows forward from the
starting state and collects in end states. Rounds in which nothing changes are a self-loop of
probability ``s``, removed by dividing the other transitions by ``1 - s`` (a geometric series); the
expected number of rounds spent in a state is ``1 / (1 - s)``. The steps before round 1 (AA fire,
round 1 with the bombardment) happen once, so they are applied to the starting state first and the
states they lead to start the flow.

Monte Carlo. The same round function is sampled, with a small deterministic generator
(SplitMix64) seeded by the caller: each group of dice is one binomial draw, so a battle costs
about its dice, not its distributions. ``rules`` never uses the global ``random`` (DESIGN §1).

Bounds (issue 13 item 12). Work, not time, is counted (``Model.spend``), so the switch to
Monte Carlo and the number of battles simulated are the same on every machine, and the caches
only hold what was paid for, so memory is bounded by the same budget.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping, Sequence

from rules.battle import model as bm
from rules.battle.casualties import (
    casualty_rank,
    default_losses,
    keep_last_land,
    keeps_last_land,
)
from rules.battle.model import (
    AIR,
    ANY,
    ATT,
    ATTACKER,
    DEF,
    DEFENDER,
    MAX_ROUNDS,
    NO_AIR,
    NO_SUB,
    STALEMATE,
    SUB,
    Kind,
)
from rules.edition import Edition, Technology

__all__ = ["ASSIGN_UNITS_PER_STEP", "ROUND_STEPS", "Model", "Side", "SplitMix64", "Tally",
           "TooBig", "binomial_draw", "exact", "monte_carlo"]

ROUND_STEPS = 20  # a round's bookkeeping (end checks, the joint state) weighs like this
ASSIGN_UNITS_PER_STEP = 4  # units put in casualty order per step

# What fires: every unit with a value; every unit but submarines that struck; only strikers;
# every unit plus the bombarding ships (round 1 of a land battle, R-AMP-05).
FIRE, FIRE_NOT_STRIKERS, STRIKE, FIRE_FIRST = 0, 1, 2, 3

State = tuple[int, ...]  # count per kind of one side
Cats = tuple[int, int, int]  # hits per category: any, not air (H-2), not submarines (H-3)
Dist = dict[State, float]


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
# The two sides


class Side:
    """One side of the battle: its kinds (``model.Kind``, per unit type and hits left) in the
    default casualty order, its starting state, and the units outside the state."""

    def __init__(self, ed: Edition, role: int, units: Mapping[str, int], sea: bool,
                 order: Sequence[str], techs: Sequence[Technology] = ()) -> None:
        self.role = role
        self.rules = ed.rules.rules
        standing = list(order)
        # Units outside the state: AA guns (never casualties, R-AAG-04) and bombarding ships
        # (never targets, R-AMP-06). They are in every outcome's survivors.
        self.fixed: dict[str, int] = {}
        bombard: dict[int, int] = {}  # attack value -> dice of the bombarding ships
        fighting: dict[str, int] = {}
        guns: dict[str, int] = {}  # AA guns of the defender in a territory
        for t, n in units.items():
            ut = ed.units[t]
            if not sea and role == DEF and ut.abilities.anti_air:
                guns[t] = n
            if not sea and role == DEF and not bm.is_casualty(ut):
                self.fixed[t] = n
            elif not sea and role == ATT and ut.domain == "sea" and bm.bombards(ed, t):
                self.fixed[t] = n
                v = bm.firing_value(ed, techs, t, ATT)
                bombard[v] = bombard.get(v, 0) + n * bm.dice_per_unit(techs, t, ATT)
            else:
                fighting[t] = n
        # Europe 1940's AA guns fight as defenders at 0 (GC-2) and fire before round 1 too.
        self.aa = bool(guns)
        self.guns = guns
        self.bombard = tuple(sorted(bombard.items()))
        self.edition = ed
        # CA-1: the attack of the units that may be paired, where a unit here supports them.
        helpers = {x for t in units if units[t] for x in ed.units[t].abilities.supports}
        self.paired_values = {t: bm.paired_value(ed, techs, t) for t in fighting
                              if role == ATT and t in helpers
                              and ed.units[t].abilities.paired_attack}
        self.bombarding = sum(n for t, n in self.fixed.items() if ed.units[t].domain == "sea")
        units = fighting
        types = sorted(units)

        def key(t: str) -> tuple[int, int, int, int, str]:
            # Ties within the rank: the lower printed value first, then the name.
            ut = ed.units[t]
            return (*casualty_rank(ut, standing), ut.attack if role == ATT else ut.defense, t)

        kinds: list[Kind] = []
        for t in sorted(types, key=key):  # kinds in the default casualty order
            for hp in range(1, ed.units[t].hits + 1):
                kinds.append(bm.kind(ed, t, role, techs, sea, hp))
        self.kinds = tuple(kinds)
        self.index = {(k.type, k.hp): i for i, k in enumerate(kinds)}
        self.keep_last_land = keeps_last_land(role, sea)
        self.start: State = tuple(
            units[k.type] if k.hp == ed.units[k.type].hits else 0 for k in kinds)

    def present(self, st: State) -> list[Kind]:
        """The kinds present in a state."""
        kinds = self.kinds
        return [kinds[i] for i, n in enumerate(st) if n]


# --------------------------------------------------------------------------------------------
# The battle: hits, casualties, rounds, end states


class Model:
    """The battle model's rules evaluated on states: which steps a round has (``round_steps``:
    who strikes first, AA fire and bombardment before round 1), hits, casualties, the end."""

    def __init__(self, att: Side, dfd: Side, sea: bool) -> None:
        self.sides = (att, dfd)
        self.sea = sea
        self.rules = att.rules
        steps = bm.round_steps(self.rules, sea)
        stages = {(st.stage, st.side) for st in steps}
        # Who strikes first (SS-4/SS-5; Classic R-SUB-02/06: the attacker only).
        self.strike_step = (("strike", ATT) in stages, ("strike", DEF) in stages)
        # The bombardment's victims fire back (R-AMP-05), so it joins round 1's attacker fire as
        # one volley; the victims of strikes leave before the fire (SS-6, R-NC-03).
        if not bm.VICTIMS_FIRE_BACK["bombard"] or bm.VICTIMS_FIRE_BACK["strike"]:
            raise NotImplementedError("a round whose first victims leave otherwise")
        # No battle without defenders that fight: a gun alone neither fires nor holds the
        # territory (A-05, R-AAG-04; as the combat opens no battle there).
        fight = any(n and k.value > 0 for k, n in zip(dfd.kinds, dfd.start, strict=True))
        self.aa = (fight and ("aa", DEF) in stages and dfd.aa
                   and any(k.air for k in att.kinds))
        self.opening = fight and (self.aa or (("bombard", ATT) in stages and bool(att.bombard)))
        self._hits_cache: dict[tuple[int, State, int, bool, bool, int],
                               tuple[tuple[Cats, ...], tuple[float, ...], tuple[float, ...]]] = {}
        self._assign_cache: dict[tuple[int, State, Cats], State] = {}
        self._outcome_cache: dict[tuple[int, State, int, State], Dist] = {}
        self._binom_cache: dict[tuple[int, int, int], tuple[float, ...]] = {}
        # Facts of a state the Monte Carlo asks again each time it passes by (the exact method
        # visits each state once): the end, who strikes, the dice groups, the targets.
        self._terminal_cache: dict[tuple[State, State], tuple[int, State, State] | None] = {}
        self._ending_cache: dict[tuple[tuple[int, ...], tuple[int, ...]], bm.Ending | None] = {}
        self._strike_cache: dict[tuple[State, State], tuple[bool, bool]] = {}
        self._groups_cache: dict[tuple[int, State, int, bool, bool],
                                 tuple[tuple[tuple[int, int], int], ...]] = {}
        self._flags_cache: dict[tuple[int, State], tuple[bool, bool, int]] = {}
        # Work done (elementary steps: terms convolved, units sorted into casualties, joint
        # states combined, dice sampled) and the budget it may not pass: counting work rather
        # than time keeps the switch to Monte Carlo, and the answer, deterministic. The caches
        # only hold what was paid for, so memory is bounded by the budget too.
        self.work = 0
        self.limit = 10**18
        # The exact method that answered (``OddsResult.solver``), set by each.
        self.solver = ""

    def spend(self, n: int) -> None:
        """Count ``n`` steps of work; past the budget the method in use gives up."""
        if self.work + n > self.limit:
            raise TooBig
        self.work += n

    # --- facts about a side -------------------------------------------------------------
    def _has(self, role: int, st: State, what: str) -> bool:
        kinds = self.sides[role].kinds
        return any(n and getattr(kinds[i], what) for i, n in enumerate(st))

    def hp(self, role: int, st: State) -> int:
        kinds = self.sides[role].kinds
        return sum(n * kinds[i].hp for i, n in enumerate(st))

    def terminal(self, a: State, d: State) -> tuple[int, State, State] | None:
        """How the battle ends in this state (with the survivors), or None if it goes on:
        ``model.battle_end``, then ``model.attacker_stuck`` (the attacker would press on with
        units that cannot fire: they retreat where they can, and count as survivors)."""
        key = (a, d)
        if key in self._terminal_cache:
            return self._terminal_cache[key]
        got = self._terminal(a, d)
        self._terminal_cache[key] = got
        return got

    def ending(self, a_kinds: tuple[int, ...], d_kinds: tuple[int, ...]) -> bm.Ending | None:
        """How the battle stands with units of only these kinds (indices into each side's
        ``kinds``) left: ``model.battle_end``, and an attacker left unable to fire loses
        (``model.attacker_stuck``); cached per pair, for the grid and joint methods."""
        key = (a_kinds, d_kinds)
        if key not in self._ending_cache:
            att, dfd = self.sides
            ak = [att.kinds[i] for i in a_kinds]
            got = bm.battle_end(ak, [dfd.kinds[i] for i in d_kinds], self.sea)
            if got is None and bm.attacker_stuck(ak):
                got = bm.Ending(DEFENDER, "")
            self._ending_cache[key] = got
        return self._ending_cache[key]

    def _terminal(self, a: State, d: State) -> tuple[int, State, State] | None:
        att, dfd = self.sides
        ak, dk = att.present(a), dfd.present(d)
        end = bm.battle_end(ak, dk, self.sea)
        if end is not None:
            if end.transports_lost:  # CC-6C: the defender's transports are lost at once
                kinds = dfd.kinds
                d = tuple(n if not kinds[i].no_combat else 0 for i, n in enumerate(d))
            if end.unarmed_lost:  # GC-10: AA guns left alone are destroyed
                d = tuple(0 for _ in d)
            return end.result, a, d
        if bm.attacker_stuck(ak):
            return DEFENDER, a, d
        return None

    # --- hits ---------------------------------------------------------------------------
    def _binom(self, n: int, value: int, cap: int) -> tuple[float, ...]:
        key = (n, value, cap)
        got = self._binom_cache.get(key)
        if got is None:
            self.spend(n + 1)
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
        dist: dict[Cats, float] = {(0, 0, 0): 1.0}
        for (value, cat), n in self._groups(role, st, mode, t_air, t_sub):
            pmf = self._binom(n, value, cap)
            self.spend(len(dist) * len(pmf))
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

    def _groups(self, role: int, st: State, mode: int, t_air: bool,
                t_sub: bool) -> tuple[tuple[tuple[int, int], int], ...]:
        """Dice ``role`` rolls, per (value, hit category), in that order."""
        key = (role, st, mode, t_air, t_sub)
        got = self._groups_cache.get(key)
        if got is None:
            got = tuple(sorted(self._dice_groups(role, st, mode, t_air, t_sub).items()))
            self._groups_cache[key] = got
        return got

    def _dice_groups(self, role: int, st: State, mode: int, t_air: bool,
                     t_sub: bool) -> dict[tuple[int, int], int]:
        side = self.sides[role]
        kinds = side.kinds
        escort = bm.escorted(side.present(st))
        groups: dict[tuple[int, int], int] = {}
        boost = self.paired(role, st) if mode != STRIKE else {}
        for i, n in enumerate(st):
            k = kinds[i]
            if not n or k.value <= 0:
                continue
            if mode == STRIKE and not k.strikes:
                continue
            if mode == FIRE_NOT_STRIKERS and k.strikes:
                continue
            cat = bm.hit_category(k, escort)
            if (cat == NO_AIR and not t_air) or (cat == NO_SUB and not t_sub):
                cat = ANY  # the category makes no difference to these targets
            up = min(n, boost.get(k.type, 0))  # CA-1: paired with a unit that supports it
            if up:
                boost[k.type] -= up
                v = side.paired_values[k.type]
                groups[(v, cat)] = groups.get((v, cat), 0) + up * k.dice
            if n > up:
                groups[(k.value, cat)] = groups.get((k.value, cat), 0) + (n - up) * k.dice
        if mode == FIRE_FIRST:  # the bombardment joins round 1's volley (R-AMP-05/06)
            for value, n in self.sides[role].bombard:
                groups[(value, ANY)] = groups.get((value, ANY), 0) + n
        return groups

    def paired(self, role: int, st: State) -> dict[str, int]:
        """Units of each type that fire at their paired value in this state (CA-1..CA-4; the
        attacker only, CA-3): ``model.paired`` on the units present."""
        side = self.sides[role]
        if role != ATT or not side.paired_values:
            return {}
        present: dict[str, int] = {}
        for k, n in zip(side.kinds, st, strict=True):
            if n:
                present[k.type] = present.get(k.type, 0) + n
        return bm.paired(side.edition, present)

    def sample_hits(self, role: int, st: State, mode: int, t_air: bool, t_sub: bool, cap: int,
                    uniform: Callable[[], float]) -> Cats:
        """One draw of the hits ``role`` scores (Monte Carlo): one binomial per group of dice,
        drawn directly, so a big battle costs its dice, not its distributions."""
        out = [0, 0, 0]
        for (value, cat), n in self._groups(role, st, mode, t_air, t_sub):
            h, steps = binomial_draw(n, min(max(value, 0), 6) / 6, uniform())
            self.spend(steps)
            out[cat] = min(cap, out[cat] + h)
        return out[0], out[1], out[2]

    # --- casualties: casualties.default_losses on counts --------------------------------
    def _pref_units(self, role: int, st: State) -> list[int]:
        """Kinds of the units one by one, in the default casualty order."""
        side = self.sides[role]
        units = [i for i, n in enumerate(st) for _ in range(n)]
        if side.keep_last_land:
            kinds = side.kinds
            keep_last_land(units, lambda i: kinds[i].captures)
        return units

    def assign(self, role: int, st: State, cats: Cats) -> State:
        """The state of ``role`` after taking these hits in the default casualty order."""
        key = (role, st, cats)
        got = self._assign_cache.get(key)
        if got is not None:
            return got
        self.spend(1 + sum(st) // ASSIGN_UNITS_PER_STEP)
        got = self._assign(role, st, cats)
        self._assign_cache[key] = got
        return got

    def _assign(self, role: int, st: State, cats: Cats) -> State:
        if not any(cats):
            return st
        side = self.sides[role]
        kinds = side.kinds
        units = self._pref_units(role, st)
        hp = [kinds[i].hp for i in units]
        lost, dmg = default_losses([kinds[i].cls for i in units], hp, cats, sum(cats),
                                   spend=self.spend)
        if not lost and not dmg:
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
        """Aircraft among the targets, submarines among them, their hit points."""
        got = self._flags_cache.get((role, st))
        if got is None:
            kinds = self.sides[role].kinds
            got = (any(n and kinds[i].cls == AIR for i, n in enumerate(st)),
                   any(n and kinds[i].cls == SUB for i, n in enumerate(st)), self.hp(role, st))
            self._flags_cache[(role, st)] = got
        return got

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
            self.spend(len(cats))
            for c, p in zip(cats, probs, strict=True):
                nxt = self.assign(1 - role, target, c)
                got[nxt] = got.get(nxt, 0.0) + p
        else:
            got = {target: 1.0}
        self._outcome_cache[key] = got
        return got

    def sample(self, role: int, st: State, mode: int, target: State,
               uniform: Callable[[], float]) -> State:
        """One draw of the other side's state after ``role`` fires at it."""
        t_air, t_sub, cap = self._target_flags(1 - role, target)
        if not cap:
            return target
        return self.assign(1 - role, target,
                           self.sample_hits(role, st, mode, t_air, t_sub, cap, uniform))

    # --- a round -------------------------------------------------------------------------
    def aa_dice(self, a: State) -> int:
        """Dice the AA guns roll at the attacking aircraft of ``a`` (``model.aa_dice``)."""
        kinds = self.sides[ATT].kinds
        planes = sum(n for k, n in zip(kinds, a, strict=True) if k.air)
        return bm.aa_dice(self.sides[DEF].edition, self.sides[DEF].guns, planes)

    def aa_fire(self, a: State) -> Dist:
        """The attacker's state after AA fire (R-LC-02): one die per aircraft (Europe 1940: up to
        3 per gun, §16.1), each hit on a 1 destroys an aircraft, lost in the attacker's casualty
        order (A-04)."""
        kinds = self.sides[ATT].kinds
        air = [i for i in self._pref_units(ATT, a) if kinds[i].air]
        out: Dist = {}
        for k, p in enumerate(self._binom(self.aa_dice(a), bm.AA_HIT, len(air))):
            nxt = list(a)
            for i in air[:k]:
                nxt[i] -= 1
            key = tuple(nxt)
            out[key] = out.get(key, 0.0) + p
        return out

    def round(self, a: State, d: State, fire: Callable[[int, State, int, State], Dist],
              first: bool = False) -> dict[tuple[State, State], float]:
        """One round (``model.round_steps`` after AA fire): the joint distribution of
        (attackers, defenders) after it.

        ``fire(role, shooters, mode, targets)`` gives the targets' next states: exact
        (``outcome``) or one sampled state (Monte Carlo). ``first``: round 1, in which the
        bombarding ships fire with the attackers (R-AMP-05). Nobody submerges: every submarine
        that may strike strikes (``model.may_strike``, the referee's default).
        """
        strikes = self._strike_cache.get((a, d))
        if strikes is None:
            att, dfd = self.sides
            strikes = (self.strike_step[ATT] and self._has(ATT, a, "strikes")
                       and bm.may_strike(self.rules, ATT, self.sea, dfd.present(d)),
                       self.strike_step[DEF] and self._has(DEF, d, "strikes")
                       and bm.may_strike(self.rules, DEF, self.sea, att.present(a)))
            self._strike_cache[(a, d)] = strikes
        a_strike, d_strike = strikes
        a_mode = (FIRE_FIRST if first and self.sides[ATT].bombard else
                  FIRE_NOT_STRIKERS if a_strike else FIRE)
        # The strikes (SS-4, SS-5) depend only on the state at the start of the round: the
        # defender's Step-2 casualties still strike, and leave before the fire (SS-6).
        d1s = fire(ATT, a, STRIKE, d) if a_strike else {d: 1.0}
        a1s = fire(DEF, d, STRIKE, a) if d_strike else {a: 1.0}
        out: dict[tuple[State, State], float] = {}
        for a1, pa in a1s.items():
            for d1, pd in d1s.items():
                # Step 3 / Step 4: the defender's Step-3 casualties still fire (CC-4a).
                d2s = fire(ATT, a1, a_mode, d1)
                a2s = fire(DEF, d1, FIRE_NOT_STRIKERS if d_strike else FIRE, a1)
                w = pa * pd
                self.spend(len(a2s) * len(d2s))
                for a2, q in a2s.items():
                    for d2, r in d2s.items():
                        out[(a2, d2)] = out.get((a2, d2), 0.0) + w * q * r
        return out


# --------------------------------------------------------------------------------------------
# Exact and Monte Carlo drivers


class TooBig(Exception):
    pass


class Tally:
    def __init__(self, model: Model) -> None:
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

    def add(self, other: Tally) -> None:
        self.p = [x + y for x, y in zip(self.p, other.p, strict=True)]
        self.captures += other.captures
        self.rounds += other.rounds
        for mine, theirs in zip(self.surv, other.surv, strict=True):
            for i, v in enumerate(theirs):
                mine[i] += v

    def survivors(self, role: int, scale: float) -> dict[str, float]:
        out: dict[str, float] = {}
        for k, v in zip(self.model.sides[role].kinds, self.surv[role], strict=True):
            out[k.type] = out.get(k.type, 0.0) + v * scale
        return out


Joint = tuple[State, State]


def _opening(model: Model, tally: Tally, p: float,
             fire: Callable[[int, State, int, State], Dist],
             aa: Callable[[State], Dist]) -> dict[Joint, float]:
    """AA fire and round 1 with the bombardment (land battles): the joint states after them,
    each with its probability (battles that end before round 1 go to the tally)."""
    a0, d0 = model.sides[ATT].start, model.sides[DEF].start
    out: dict[Joint, float] = {}
    for a1, q in (aa(a0) if model.aa else {a0: 1.0}).items():
        end = model.terminal(a1, d0)
        if end is not None:
            tally.end(end[0], end[1], end[2], p * q)
            continue
        tally.rounds += p * q
        for nxt, r in model.round(a1, d0, fire, first=True).items():
            out[nxt] = out.get(nxt, 0.0) + p * q * r
    return out


def exact(model: Model, max_states: int, max_work: int) -> tuple[Tally, int]:
    start = (model.sides[ATT].start, model.sides[DEF].start)
    model.work, model.limit, model.solver = 0, max_work, "reference"
    tally = Tally(model)
    mass: dict[Joint, float] = (_opening(model, tally, 1.0, model.outcome, model.aa_fire)
                                if model.opening else {start: 1.0})
    heap = [(-(model.hp(ATT, j[0]) + model.hp(DEF, j[1])), n, j) for n, j in enumerate(mass)]
    heapq.heapify(heap)
    seen = len(mass)
    per_state = ROUND_STEPS + len(model.sides[ATT].kinds) + len(model.sides[DEF].kinds)
    while heap:
        _, _, joint = heapq.heappop(heap)
        p = mass.pop(joint)
        a, d = joint
        model.spend(per_state)
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
                    raise TooBig
                heapq.heappush(heap, (-(model.hp(ATT, nxt[0]) + model.hp(DEF, nxt[1])), seen,
                                      nxt))
    return tally, seen


def monte_carlo(model: Model, trials: int, uniform: Callable[[], float],
                 budget: int) -> tuple[Tally, int]:
    """Up to ``trials`` simulated battles, as many as ``budget`` steps of work allow (a battle
    cut short by the budget is left out): the tally and the number of battles in it."""
    tally = Tally(model)
    model.work, model.limit = 0, budget
    # A round's bookkeeping (end checks, the joint state) weighs like this many steps.
    per_round = ROUND_STEPS + len(model.sides[ATT].kinds) + len(model.sides[DEF].kinds)

    def fire(role: int, st: State, mode: int, target: State) -> Dist:
        return {model.sample(role, st, mode, target, uniform): 1.0}

    def aa(a: State) -> Dist:
        return {_draw(model.aa_fire(a), uniform()): 1.0}

    start = (model.sides[ATT].start, model.sides[DEF].start)
    done = 0
    for _ in range(trials):
        one = Tally(model)
        try:
            model.spend(per_round)
            _simulate(model, one, start, fire, aa, per_round)
        except TooBig:
            break
        tally.add(one)
        done += 1
    return tally, done


def _simulate(model: Model, tally: Tally, start: Joint,
              fire: Callable[[int, State, int, State], Dist], aa: Callable[[State], Dist],
              per_round: int) -> None:
    """One battle fought with sampled dice, into ``tally``."""
    a, d = start
    if model.opening:
        after = _opening(model, tally, 1.0, fire, aa)
        if not after:
            return  # ended before round 1
        ((a, d),) = after
    for _r in range(MAX_ROUNDS):
        model.spend(per_round)
        end = model.terminal(a, d)
        if end is not None:
            tally.end(end[0], end[1], end[2], 1.0)
            return
        tally.rounds += 1
        ((a, d),) = model.round(a, d, fire)
    tally.end(STALEMATE, a, d, 1.0)


def binomial_draw(n: int, p: float, u: float) -> tuple[int, int]:
    """A Binomial(n, p) draw from one uniform ``u`` and the steps it took: inversion searching
    outwards from the mode (Kemp's chop-down), about sqrt(n p (1-p)) steps, in logarithms so
    that no probability underflows however many dice are rolled."""
    if n <= 0 or p <= 0.0:
        return 0, 1
    if p >= 1.0:
        return n, 1
    q = 1.0 - p
    m = min(n, int((n + 1) * p))
    pm = math.exp(math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1)
                  + m * math.log(p) + (n - m) * math.log(q))
    u -= pm
    if u <= 0.0:
        return m, 1
    lo = hi = m
    p_lo = p_hi = pm
    ratio = p / q
    steps = 1
    while lo > 0 or hi < n:
        if hi < n:
            p_hi *= (n - hi) / (hi + 1) * ratio
            hi += 1
            steps += 1
            u -= p_hi
            if u <= 0.0:
                return hi, steps
        if lo > 0:
            p_lo *= lo / (n - lo + 1) / ratio
            lo -= 1
            steps += 1
            u -= p_lo
            if u <= 0.0:
                return lo, steps
    return m, steps  # rounding left a sliver of probability: the mode takes it


def _draw(dist: Dist, u: float) -> State:
    acc = 0.0
    total = math.fsum(dist.values())
    last = next(iter(dist))
    for st, p in dist.items():
        acc += p
        last = st
        if u * total < acc:
            break
    return last

