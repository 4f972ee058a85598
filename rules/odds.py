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

Everything above hangs off unit data and the edition's rule switches (``RuleSet``), never an
edition id, so the same model plays Classic (digest §6): battleships take one hit (``hits``);
transports defend at 1 and are ordinary casualties (no ``chosen_last``, no
``no_combat_value``); aircraft hit submarines without help (no ``cannot_be_hit_by_air``); with
``sub_first_strike="attacker_only"`` only attacking submarines strike first, every round, and
their victims leave without firing back (R-SUB-02, R-NC-02/03), while defending submarines fire
with everybody (R-SUB-06). Two steps come before round 1 of a land battle:

- AA fire (R-LC-02, R-AAG-03): a defending unit with the ``anti_air`` ability rolls one die per
  attacking aircraft, each 1 destroying an aircraft, once per battle; the attacker loses its
  aircraft in its casualty order, cheapest first (A-04: the attacker chooses). AA guns are never
  casualties and never count as defenders (R-AAG-04); one gun fires however many are listed.
  A territory held only by AA guns is taken without a battle, so nothing fires (A-05).
- Bombardment (R-AMP-05/06, with ``bombardment`` not "none"): attacking sea units with the
  ``bombard`` ability in a land battle fire once, in round 1, with the attacker's other units
  (their casualties still fire back, so it is one volley); they are never targets and do not
  count as attackers afterwards. The order names them among the attackers.

Weapons developments (R-TEC-05/06) change values only through ``rules.tech``: each side's
developments (``attacker_techs``/``defender_techs``, e.g. a power's own in a game) set its
attack, defence and dice per unit (Heavy Bombers: three attack dice per bomber).

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
the expected number of rounds spent in a state is ``1 / (1 - s)``. The steps before round 1
(AA fire, round 1 with the bombardment) happen once, so they are applied to the starting state
first and the states they lead to start the flow.

Monte Carlo. Beyond ``max_states`` states (or ``max_work`` steps of work) the same round
function is sampled, with a small deterministic generator (SplitMix64) seeded by the caller:
each group of dice is one binomial draw, so a battle costs about its dice, not its
distributions. It simulates ``samples`` battles or as many as ``mc_work`` steps allow, and the
result carries its standard error. More than ``MAX_UNITS`` units a side are refused with the
limit named. ``rules`` never uses the global ``random`` (DESIGN §1).

Bounds (issue 13 item 12). Work, not time, is counted (``_Model.spend``), so the switch to
Monte Carlo and the number of battles simulated are the same on every machine, and the caches
only hold what was paid for, so memory is bounded by the same budget.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import product
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from rules import tech
from rules.edition import Edition, Technology
from rules.errors import InvalidOrder
from rules.state import GameState
from rules.words import agree, counted

__all__ = [
    "DEFAULT_MAX_STATES",
    "DEFAULT_MAX_WORK",
    "DEFAULT_MC_WORK",
    "DEFAULT_SAMPLES",
    "MAX_UNITS",
    "OddsResult",
    "SplitMix64",
    "battle_forces",
    "battle_odds",
    "game_developments",
    "odds",
    "summary",
]

# Issue 13 item 12: no request may hold a worker for more than a few seconds, whatever it asks.
# Both methods count steps of work (terms convolved, units sorted into casualties, joint states
# combined, dice drawn, rounds kept), not time, so the same question gets the same answer on any
# machine. bench/odds.py measures 0.4-1.9 million steps a second here (2 cores, shared).
# Joint states before the exact method gives way to Monte Carlo.
DEFAULT_MAX_STATES = 10_000
# Steps before the exact method gives way (about 0.5-2 s). Big battles with AA fire need many:
# the aircraft the guns may shoot down multiply the states, each with wide hit distributions.
DEFAULT_MAX_WORK = 1_000_000
DEFAULT_SAMPLES = 10_000  # battles simulated by the Monte Carlo method, at most
# Steps the Monte Carlo method may spend (about 1-2.5 s): 10,000 battles of a dozen units a side
# fit (~170 steps each); 999 infantry against 999 get 2,663 battles (~750 steps each).
DEFAULT_MC_WORK = 2_000_000
# Units a side beyond which odds are refused (the limit is named in the refusal).
MAX_UNITS = 1_000
ROUND_STEPS = 20  # a round's bookkeeping (end checks, the joint state) weighs like this
ASSIGN_UNITS_PER_STEP = 4  # units put in casualty order per step
DEFAULT_SEED = 1941
MAX_ROUNDS = 200  # as rules/combat.py: a simulated battle still going after this is a stalemate
Z95 = 1.959963984540054  # two-sided 95% normal quantile
AA_HITS_ON = 1  # R-AAG-03 / R-LC-02: each AA die showing 1 destroys an aircraft

Method = Literal["exact", "monte carlo"]

# Unit classes for casualties (as rules/combat.py) and hit categories (H-2, H-3).
AIR, SUB, OTHER, TRANSPORT = 0, 1, 2, 3
ANY, NO_AIR, NO_SUB = 0, 1, 2
ATT, DEF = 0, 1
# What fires: every unit with a value; every unit but submarines that struck; only strikers;
# every unit plus the bombarding ships (round 1 of a land battle, R-AMP-05).
FIRE, FIRE_NOT_STRIKERS, STRIKE, FIRE_FIRST = 0, 1, 2, 3
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
    work: int = 0  # steps of work spent, the exact method's attempt included (see odds())
    trials: int | None = None  # Monte Carlo: battles simulated
    std_error: float | None = None  # Monte Carlo: the largest standard error of the three
    half_width_95: float | None = None  # Monte Carlo: 95% half-width of that one
    aa_fire: bool = False  # AA fire at the attacking aircraft before round 1 (R-LC-02)
    bombarding: int = 0  # attacking ships bombarding in round 1 (R-AMP-05)
    # Developments that changed a value of a unit in this battle, per side (R-TEC-05/06).
    attacker_developments: tuple[str, ...] = ()
    defender_developments: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return self.model_dump(mode="json")


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


def _free(steps: int) -> None:
    """Work not counted (tests that enumerate vectors)."""


def _vectors(caps: Sequence[int], total: int,
             spend: Callable[[int], None] = _free) -> Iterator[tuple[int, int, int, int]]:
    """Hits per class adding up to ``total``, in the order rules/combat.py tries them (each
    one tried is a step of work: with hundreds of units a side there are millions)."""
    for a, s, o in product(range(min(caps[AIR], total) + 1), range(min(caps[SUB], total) + 1),
                           range(min(caps[OTHER], total) + 1)):
        spend(1)
        t = total - a - s - o
        if 0 <= t <= caps[TRANSPORT]:
            yield a, s, o, t


# --------------------------------------------------------------------------------------------
# The two sides


class _Kind(NamedTuple):
    type: str
    hp: int  # hits left
    value: int  # attack for the attacker, defence for the defender (after developments)
    dice: int  # dice each unit rolls (Heavy Bombers: 3 per attacking bomber)
    cls: int  # AIR, SUB, OTHER, TRANSPORT
    air: bool
    cannot_hit_air: bool  # H-2 (submarines)
    anti_sub: bool  # destroyer (SS-1, H-3)
    strikes: bool  # may surprise-strike (SS-1)
    captures: bool  # land unit (CC-7b)
    no_combat: bool  # transport (UT-2)


class _Side:
    def __init__(self, ed: Edition, role: int, units: Mapping[str, int], sea: bool,
                 order: Sequence[str], techs: Sequence[Technology] = ()) -> None:
        self.role = role
        standing = list(order)
        # Units outside the state: AA guns (never casualties, R-AAG-04) and bombarding ships
        # (never targets, R-AMP-06). They are in every outcome's survivors.
        self.fixed: dict[str, int] = {}
        self.aa = False  # fires at the attacking aircraft before round 1 (R-LC-02)
        bombard: dict[int, int] = {}  # attack value -> dice of the bombarding ships
        fighting: dict[str, int] = {}
        for t, n in units.items():
            ut = ed.units[t]
            if not sea and role == DEF and ut.abilities.anti_air:
                self.fixed[t] = n
                self.aa = True
            elif not sea and role == ATT and ut.domain == "sea" and _bombards(ed, t):
                self.fixed[t] = n
                v = tech.attack_with(ed, techs, t)
                bombard[v] = bombard.get(v, 0) + n * tech.attack_dice_with(techs, t)
            else:
                fighting[t] = n
        self.bombard = tuple(sorted(bombard.items()))
        self.bombarding = sum(n for t, n in self.fixed.items() if ed.units[t].domain == "sea")
        units = fighting
        types = sorted(units)

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
            value = (tech.attack_with(ed, techs, t) if role == ATT
                     else tech.defense_with(ed, techs, t))
            dice = tech.attack_dice_with(techs, t) if role == ATT else 1
            for hp in range(1, ut.hits + 1):
                kinds.append(_Kind(
                    type=t, hp=hp, value=value, dice=dice, cls=cls,
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
    def __init__(self, att: _Side, dfd: _Side, sea: bool, defender_strikes: bool = True) -> None:
        self.sides = (att, dfd)
        self.sea = sea
        # RuleSet.sub_first_strike: "declared" (1941 SS-4/SS-5) lets both sides strike;
        # "attacker_only" (Classic R-SUB-02, R-SUB-06) only the attacker.
        self.defender_strikes = defender_strikes
        # No battle without defenders that fight: a gun alone neither fires nor holds the
        # territory (A-05, R-AAG-04; as rules/combat.py opens no battle there).
        fight = any(dfd.start)
        self.aa = fight and not sea and dfd.aa and any(k.air for k in att.kinds)
        self.opening = fight and (self.aa or (not sea and bool(att.bombard)))
        self._hits_cache: dict[tuple[int, State, int, bool, bool, int],
                               tuple[tuple[Cats, ...], tuple[float, ...], tuple[float, ...]]] = {}
        self._assign_cache: dict[tuple[int, State, Cats], State] = {}
        self._outcome_cache: dict[tuple[int, State, int, State], Dist] = {}
        self._binom_cache: dict[tuple[int, int, int], tuple[float, ...]] = {}
        # Work done (elementary steps: terms convolved, units sorted into casualties, joint
        # states combined, dice sampled) and the budget it may not pass: counting work rather
        # than time keeps the switch to Monte Carlo, and the answer, deterministic. The caches
        # only hold what was paid for, so memory is bounded by the budget too.
        self.work = 0
        self.limit = 10**18

    def spend(self, n: int) -> None:
        """Count ``n`` steps of work; past the budget the method in use gives up."""
        if self.work + n > self.limit:
            raise _TooBig
        self.work += n

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
        groups = self._groups(role, st, mode, t_air, t_sub)
        dist: dict[Cats, float] = {(0, 0, 0): 1.0}
        for (value, cat), n in sorted(groups.items()):
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
                t_sub: bool) -> dict[tuple[int, int], int]:
        """Dice ``role`` rolls, per (value, hit category)."""
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
            groups[(k.value, cat)] = groups.get((k.value, cat), 0) + n * k.dice
        if mode == FIRE_FIRST:  # the bombardment joins round 1's volley (R-AMP-05/06)
            for value, n in self.sides[role].bombard:
                groups[(value, ANY)] = groups.get((value, ANY), 0) + n
        return groups

    def sample_hits(self, role: int, st: State, mode: int, t_air: bool, t_sub: bool, cap: int,
                    uniform: Callable[[], float]) -> Cats:
        """One draw of the hits ``role`` scores (Monte Carlo): one binomial per group of dice,
        drawn directly, so a big battle costs its dice, not its distributions."""
        out = [0, 0, 0]
        for (value, cat), n in sorted(self._groups(role, st, mode, t_air, t_sub).items()):
            h, steps = _binomial_draw(n, min(max(value, 0), 6) / 6, uniform())
            self.spend(steps)
            out[cat] = min(cap, out[cat] + h)
        return out[0], out[1], out[2]

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
        self.spend(1 + sum(st) // ASSIGN_UNITS_PER_STEP)
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
            for v in _vectors(caps, hits, self.spend):
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
    def aa_fire(self, a: State) -> Dist:
        """The attacker's state after AA fire (R-LC-02): one die per aircraft, each hit on a 1
        destroys an aircraft, lost in the attacker's casualty order (A-04)."""
        kinds = self.sides[ATT].kinds
        air = [i for i in self._pref_units(ATT, a) if kinds[i].air]
        out: Dist = {}
        for k, p in enumerate(self._binom(len(air), AA_HITS_ON, len(air))):
            nxt = list(a)
            for i in air[:k]:
                nxt[i] -= 1
            key = tuple(nxt)
            out[key] = out.get(key, 0.0) + p
        return out

    def round(self, a: State, d: State, fire: Callable[[int, State, int, State], Dist],
              first: bool = False) -> dict[tuple[State, State], float]:
        """Steps 2-5 of one round: the joint distribution of (attackers, defenders) after it.

        ``fire(role, shooters, mode, targets)`` gives the targets' next states: exact
        (``outcome``) or one sampled state (Monte Carlo). ``first``: round 1, in which the
        bombarding ships fire with the attackers (R-AMP-05).
        """
        a_strike = self.sea and self._has(ATT, a, "strikes") and not self._has(DEF, d, "anti_sub")
        d_strike = (self.defender_strikes and self.sea and self._has(DEF, d, "strikes")
                    and not self._has(ATT, a, "anti_sub"))
        a_mode = (FIRE_FIRST if first and self.sides[ATT].bombard else
                  FIRE_NOT_STRIKERS if a_strike else FIRE)
        # Step 2 (SS-4, SS-5): both sides' strikes depend only on the state at the start of the
        # round, since the defender's Step-2 casualties still strike.
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

    def add(self, other: _Tally) -> None:
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


def _opening(model: _Model, tally: _Tally, p: float,
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


def _exact(model: _Model, max_states: int, max_work: int) -> tuple[_Tally, int]:
    start = (model.sides[ATT].start, model.sides[DEF].start)
    model.work, model.limit = 0, max_work
    tally = _Tally(model)
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
                    raise _TooBig
                heapq.heappush(heap, (-(model.hp(ATT, nxt[0]) + model.hp(DEF, nxt[1])), seen,
                                      nxt))
    return tally, seen


def _monte_carlo(model: _Model, trials: int, uniform: Callable[[], float],
                 budget: int) -> tuple[_Tally, int]:
    """Up to ``trials`` simulated battles, as many as ``budget`` steps of work allow (a battle
    cut short by the budget is left out): the tally and the number of battles in it."""
    tally = _Tally(model)
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
        one = _Tally(model)
        try:
            model.spend(per_round)
            _simulate(model, one, start, fire, aa, per_round)
        except _TooBig:
            break
        tally.add(one)
        done += 1
    return tally, done


def _simulate(model: _Model, tally: _Tally, start: Joint,
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


def _binomial_draw(n: int, p: float, u: float) -> tuple[int, int]:
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


# --------------------------------------------------------------------------------------------
# The entry point


def _bombards(ed: Edition, t: str) -> bool:
    """A unit that bombards in a land battle (Classic R-AMP-05; editions without the rule
    have bombardment "none")."""
    return ed.rules.rules.bombardment != "none" and ed.units[t].abilities.bombard


def _check_units(ed: Edition, units: Mapping[str, int], who: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for t, n in units.items():
        if t not in ed.units:
            raise InvalidOrder(f"Unknown unit {t!r}. Units: {', '.join(ed.units)}.")
        if n < 0:
            raise InvalidOrder(f"Bad count {n!r} of {t} for the {who}.")
        ut = ed.units[t]
        if ut.abilities.factory:
            raise InvalidOrder(f"An {t} takes no part in battles ({ut.rule}); leave it out.")
        if n and who == "attacker" and ut.abilities.anti_air:
            raise InvalidOrder(
                f"An {t} never attacks ({ut.rule}): it only fires at attacking aircraft. Leave "
                "it out of the attackers; list it among the defenders of a territory."
            )
        if n:
            out[t] = out.get(t, 0) + n
    return out


def _is_sea_battle(ed: Edition, att: Mapping[str, int], dfd: Mapping[str, int]) -> bool:
    """Without a space: a sea battle when sea units take part, unless the only ones are
    attacking ships that can bombard and land units are there too (R-AMP-05)."""
    ships = [t for t in [*att, *dfd] if ed.units[t].domain == "sea"]
    land = any(ed.units[t].domain == "land" for t in [*att, *dfd])
    support = all(t in att and t not in dfd and _bombards(ed, t) for t in ships)
    return bool(ships) and not (land and support)


def _check_domains(ed: Edition, att: Mapping[str, int], dfd: Mapping[str, int],
                   sea: bool) -> None:
    for t in [*att, *dfd]:
        ut = ed.units[t]
        dom = ut.domain
        if sea and dom == "land":
            raise InvalidOrder(
                f"{t} cannot fight at sea ({ut.rule}): land units at sea are cargo and never "
                "fight."
            )
        if not sea and dom == "sea" and not (t in att and _bombards(ed, t)):
            support = [u for u in ed.units if _bombards(ed, u)]
            also = (f" Only an attacking {' or '.join(support)} takes part, by bombardment "
                    "(R-AMP-05)." if support else "")
            raise InvalidOrder(
                f"{t} cannot fight in a territory ({ut.rule}): sea units stay in sea zones.{also}"
            )
    if not sea:
        if att and all(ed.units[t].domain == "sea" for t in att):
            raise InvalidOrder(
                "Ships alone cannot attack a territory: bombardment only supports land units "
                "attacking from the sea (R-AMP-05). Add the land units that land."
            )
        return
    for t in dfd:
        ut = ed.units[t]
        if ut.domain == "air" and not ut.abilities.carrier_landable:
            raise InvalidOrder(
                f"{t} cannot defend at sea ({ut.rule}): only fighters on a defending aircraft "
                "carrier do."
            )
    room = sum(n * ed.units[t].abilities.carrier_capacity for t, n in dfd.items())
    flying = sum(n for t, n in dfd.items() if ed.units[t].domain == "air")
    if flying > room:
        carriers = [u for u in ed.units.values() if u.abilities.carrier_capacity]
        rule = f" ({carriers[0].rule})" if carriers else ""
        raise InvalidOrder(
            f"{counted(flying, 'defending fighter')} at sea {agree(flying, 'needs', 'need')} "
            f"carriers with room for {agree(flying, 'it', 'them')}{rule}; "
            f"these carriers hold {room}."
        )


def _developments(ed: Edition, ids: Sequence[str], who: str) -> list[Technology]:
    table = tech.technologies(ed)
    for t in ids:
        if t not in table:
            known = ", ".join(x.name for x in table.values()) or "none in this edition"
            raise InvalidOrder(f"Unknown weapons development {t!r} for the {who}. "
                               f"Developments: {known}.")
    return tech.chosen(ed, ids)


def _changed(ed: Edition, techs: Sequence[Technology], units: Mapping[str, int],
             role: int) -> tuple[str, ...]:
    """Names of the developments that change a value of these units on this side."""
    out = []
    for t in techs:
        for u in units:
            if role == ATT and (tech.attack_with(ed, [t], u) != ed.units[u].attack
                                or tech.attack_dice_with([t], u) != 1):
                out.append(t.name)
                break
            if role == DEF and tech.defense_with(ed, [t], u) != ed.units[u].defense:
                out.append(t.name)
                break
    return tuple(out)


def odds(
    edition: Edition,
    attackers: Mapping[str, int],
    defenders: Mapping[str, int],
    *,
    sea: bool | None = None,
    space: str | None = None,
    attacker_order: Sequence[str] = (),
    defender_order: Sequence[str] = (),
    attacker_techs: Sequence[str] = (),
    defender_techs: Sequence[str] = (),
    method: Literal["auto", "exact", "monte carlo"] = "auto",
    max_states: int = DEFAULT_MAX_STATES,
    max_work: int = DEFAULT_MAX_WORK,
    samples: int = DEFAULT_SAMPLES,
    mc_work: int = DEFAULT_MC_WORK,
    max_units: int = MAX_UNITS,
    seed: int = DEFAULT_SEED,
    uniform: Callable[[], float] | None = None,
) -> OddsResult:
    """The odds of a battle fought to the end (see the module docstring for the model).

    ``space`` (a space of the edition) or ``sea`` says whether it is a sea battle; with neither,
    it is one when any sea unit takes part (except ships that bombard beside land units).
    ``attacker_order``/``defender_order`` are standing casualty orders (unit types, first lost
    first). ``attacker_techs``/``defender_techs`` are each side's weapons developments (ids of
    the edition's technologies, see ``game_developments``). ``method="auto"`` is exact unless
    more than ``max_states`` joint states or ``max_work`` steps of work are needed, then Monte
    Carlo: ``samples`` battles, or as many as ``mc_work`` steps allow (the error bar says how
    precise that is), drawn from ``uniform`` (a function returning floats in [0, 1)) or else a
    SplitMix64 seeded with ``seed``. Raises ``InvalidOrder`` for units that cannot fight there
    and for more than ``max_units`` units on a side. Work, not time, is counted, so the answer
    is the same on any machine; the defaults keep every answer within a few seconds
    (bench/odds.py).
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
        sea = _is_sea_battle(edition, att, dfd)
    _check_domains(edition, att, dfd, sea)
    for t in [*attacker_order, *defender_order]:
        if t not in edition.units:
            raise InvalidOrder(f"Unknown unit {t!r} in a casualty order.")
    if not att:
        raise InvalidOrder("No attacking units: name at least one.")
    a_techs = _developments(edition, attacker_techs, "attacker")
    d_techs = _developments(edition, defender_techs, "defender")
    if not any(tech.attack_with(edition, a_techs, t) > 0 for t in att):
        idle = ", ".join(f"{t} ({edition.units[t].rule})" for t in att)
        raise InvalidOrder(
            f"These attackers cannot fire (no attack value): {idle}. Add a unit that attacks."
        )
    if samples < 1 or max_states < 1 or max_work < 1 or mc_work < 1:
        raise InvalidOrder("samples, max_states, max_work and mc_work must be at least 1.")
    for who, units in (("attacker", att), ("defender", dfd)):
        n = sum(units.values())
        if n > max_units:
            raise InvalidOrder(
                f"Too many units for the odds: the {who} has {n:,}; the limit is "
                f"{max_units:,} units a side, so that every answer comes within a few seconds. "
                "Ask about a part of the battle."
            )
    a_side = _Side(edition, ATT, att, sea, attacker_order, a_techs)
    d_side = _Side(edition, DEF, dfd, sea, defender_order, d_techs)
    model = _Model(a_side, d_side, sea,
                   defender_strikes=edition.rules.rules.sub_first_strike == "declared")
    tally: _Tally | None = None
    states = 0
    work = 0
    used: Method = "exact"
    if method != "monte carlo":
        try:
            auto = method == "auto"
            tally, states = _exact(model, max_states if auto else 10**12,
                                   max_work if auto else 10**15)
        except _TooBig:
            tally = None
        work = model.work
    trials: int | None = None
    se: float | None = None
    if tally is None:
        used = "monte carlo"
        draw = uniform if uniform is not None else SplitMix64(seed).random
        tally, trials = _monte_carlo(model, samples, draw, mc_work)
        work += model.work
        if trials == 0:
            raise InvalidOrder(
                "This battle is too big for the odds: not one simulated battle fits in the "
                f"budget of {mc_work:,} steps. Ask about a part of the battle."
            )
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
        attacker_survivors={**tally.survivors(ATT, scale), **a_side.fixed},
        defender_survivors={**tally.survivors(DEF, scale), **d_side.fixed},
        expected_rounds=tally.rounds * scale,
        method=used,
        sea=sea,
        states=states,
        work=work,
        trials=trials,
        std_error=se,
        half_width_95=None if se is None else Z95 * se,
        aa_fire=model.aa,
        bombarding=a_side.bombarding,
        attacker_developments=_changed(edition, a_techs, att, ATT),
        defender_developments=_changed(edition, d_techs, dfd, DEF),
    )


def game_developments(s: GameState, space: str | None = None
                      ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Each side's weapons developments (ids) for odds asked in a running game (R-TEC-06:
    a development helps only the power that owns it).

    The attacker is the attacker of the battle open in ``space``, else the power to move. The
    defender is the defending power with the most units in the battle, or else in ``space``
    (enemies of the attacker), or else the owner of ``space``; without a space, nobody (a
    battle's defenders of several powers share one side here: the largest one's developments
    stand for all).
    """
    ed = s.edition
    b = s.battles.get(space) if space is not None else None
    attacker = b.attacker if b is not None else s.power
    counts: dict[str, int] = {}
    if b is not None:
        for i in b.defending:
            if i in s.units:
                o = s.units[i].owner
                counts[o] = counts.get(o, 0) + 1
    elif space is not None:
        mine = ed.side_of(attacker)
        for u in s.units_in(space):
            if ed.side_of(u.owner) != mine and not ed.units[u.type].abilities.factory:
                counts[u.owner] = counts.get(u.owner, 0) + 1
    defender: str | None = None
    if counts:
        order = ed.turn_order
        defender = min(counts, key=lambda o: (-counts[o], order.index(o)))
    elif space is not None and not ed.is_sea(space):
        owner = s.owners.get(space)
        if owner is not None and ed.side_of(owner) != ed.side_of(attacker):
            defender = owner
    a = tuple(s.techs.get(attacker, ()))
    d = tuple(s.techs.get(defender, ())) if defender is not None else ()
    return a, d


def battle_forces(s: GameState, space: str) -> tuple[dict[str, int], dict[str, int]]:
    """The units of the battle open in ``space``, as ``odds`` takes them: the attackers (with
    the ships bombarding in round 1, R-AMP-05) and the defenders (with the defender's AA guns in
    a territory, which fire before round 1 but are never casualties, R-LC-02, R-AAG-04)."""
    b = s.battles[space]
    ed = s.edition

    def count(ids: Sequence[int]) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in dict.fromkeys(ids):
            u = s.units.get(i)
            if u is not None:
                out[u.type] = out.get(u.type, 0) + 1
        return out

    guns: tuple[int, ...] = ()
    if not b.sea:
        guns = tuple(u.id for u in s.units_in(space) if ed.units[u.type].abilities.anti_air
                     and ed.side_of(u.owner) != ed.side_of(b.attacker))
    return (count((*b.attacking, *b.seaborne, *b.bombarding)),
            count((*b.defending, *guns)))


def battle_odds(s: GameState, space: str) -> OddsResult:
    """The odds of the battle open in ``space`` before its first roll: its units
    (``battle_forces``), each side's developments (``game_developments``), the standing
    casualty orders of the attacker and of the largest defending power."""
    b = s.battles[space]
    att, dfd = battle_forces(s, space)
    a_techs, d_techs = game_developments(s, space)
    owners = [s.units[i].owner for i in b.defending if i in s.units]
    # The defending power with the most units (first in turn order), as game_developments.
    lead = max(b.defenders, key=owners.count) if b.defenders else None
    return odds(s.edition, att, dfd, space=space, attacker_techs=a_techs,
                defender_techs=d_techs, attacker_order=s.standing.get(b.attacker, ()),
                defender_order=s.standing.get(lead, ()) if lead else ())




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
    before = []
    if r.aa_fire:
        before.append("AA fire at the attacking aircraft before round 1 (hits on 1)")
    if r.bombarding:
        before.append(f"bombardment by {r.bombarding} ship{'s' if r.bombarding > 1 else ''} "
                      "in round 1")
    dev = [f"{who} {', '.join(names)}" for who, names in (
        ("attacker", r.attacker_developments), ("defender", r.defender_developments)) if names]
    if dev:
        before.append("developments: " + "; ".join(dev))
    if before:
        lines.append("With " + "; ".join(before) + ".")
    if r.attacker_captures is not None and r.attacker_captures < r.attacker_win - 5e-4:
        lines.append(f"Attacker wins with a land unit left to capture: "
                     f"{_pct(r.attacker_captures)}.")
    lines.append(f"Expected survivors: attacker {_survivors(r.attacker_survivors)}; "
                 f"defender {_survivors(r.defender_survivors)}. "
                 f"Expected rounds: {r.expected_rounds:.1f}.")
    return "\n".join(lines)
