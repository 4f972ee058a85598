"""Battle odds (issue 3, part 3): exact by dynamic programming, Monte Carlo beyond a size limit.

``odds(edition, attackers, defenders)`` says how likely the attacker wins, the defender wins, or
nobody does (both sides destroyed, or nobody left who can hit), and how many units of each type
survive on average. It evaluates the battle model (``rules/battle/model.py``,
``rules/battle/casualties.py``) as the combat plays ``battle <space> all`` with the referee's
defaults (``odds/core.py`` has the method):

- the attacker presses every round (no retreat); every casualty is the default one: two-hit
  units absorb a hit first (H-6), then the standing order if one is given, else cheapest first
  (equal ranks: lower printed value first, then by name), transports last (H-4), and an
  attacker in a land battle keeps its last land unit; as many hits count as the constraints
  allow (H-7): submarine hits only on sea units (H-2), air hits on submarines only with a
  friendly destroyer (H-3);
- submarines strike first every round while the other side has no destroyer (SS-1..SS-9):
  attacking ones hit on their attack, defending ones on their defence; the defender's Step-2
  casualties still strike but leave before Steps 3 and 4, the attacker's leave at once;
  submarines that struck do not fire again that round; nobody submerges;
- a battleship's first hit damages it for the rest of the battle (UB-2, SS-7); damaged ones fire
  at full value (A-17);
- the battle ends as ``model.battle_end`` says (CC-6A, CC-6C, A-11); an attacker left with units
  that cannot fire loses (it retreats, or is destroyed).

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

Weapons developments (R-TEC-05/06) change values only through the model (``rules.tech``): each
side's developments (``attacker_techs``/``defender_techs``, e.g. a power's own in a game) set its
attack, defence and dice per unit (Heavy Bombers: three attack dice per bomber).

The exact method (issue 18) is the grid of hits absorbed where each side's state is the number of
hits it has absorbed (land battles; sea battles without submarines striking or hits that spare
some units): ``odds.fast`` as array arithmetic (numpy), ``odds.grid`` in plain Python for small
grids; else ``odds.joint`` (the joint multisets of ``odds.core``, numbered and with each state's
dice computed once); ``odds.core.exact``, the method before them, is the reference the tests hold
them to (``reference=True``). Beyond ``max_states`` states (or ``max_work`` steps of work) the
exact method gives way to Monte Carlo: ``samples`` battles, or as many as ``mc_work`` steps
allow, and the result carries its standard error. More than ``MAX_UNITS`` units a side are
refused with the limit named.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from odds.core import Model, Side, SplitMix64, Tally, TooBig, exact, monte_carlo
from odds.fast import fast_exact
from odds.grid import grid_exact
from odds.joint import joint_exact
from rules import tech
from rules.battle import model as bm
from rules.battle.model import ATT, ATTACKER, BOTH_DESTROYED, DEF, DEFENDER, STALEMATE
from rules.edition import Edition, Technology
from rules.errors import InvalidOrder
from rules.messages import catalogue, msg
from rules.state import GameState
from rules.words import agree, counted, plural

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
# Joint states before the exact method gives way to Monte Carlo: the grid of hits absorbed
# (odds.fast) of 80 units a side has about 6,000-9,500 cells, and up to 75,000 with AA fire
# (a chain of rows per number of aircraft shot down).
DEFAULT_MAX_STATES = 150_000
# Steps before the exact method gives way (about 1-2 s: every method counts about a million
# steps a second here, bench/odds.py). Issue 18: on the grid (land with AA fire and
# bombardment, sea without submarines) 80 units a side are exact, using at most ~420,000 steps;
# the joint method (submarines, transports) reaches about 20 ships and aircraft a side.
DEFAULT_MAX_WORK = 2_000_000
DEFAULT_SAMPLES = 10_000  # battles simulated by the Monte Carlo method, at most
# Steps the Monte Carlo method may spend (about 1-2.5 s): 10,000 battles of a dozen units a side
# fit (~170 steps each); 999 infantry against 999 get 2,663 battles (~750 steps each).
DEFAULT_MC_WORK = 2_000_000
# Units a side beyond which odds are refused (the limit is named in the refusal).
MAX_UNITS = 1_000
DEFAULT_SEED = 1941
Z95 = 1.959963984540054  # two-sided 95% normal quantile

Method = Literal["exact", "monte carlo"]


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
    # The exact method that answered: "grid arrays" (odds.fast), "grid" (odds.grid), "joint"
    # (odds.joint) or "reference" (odds.core.exact); "" for Monte Carlo.
    solver: str = ""
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


def _check_units(ed: Edition, units: Mapping[str, int], who: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for t, n in units.items():
        if t not in ed.units:
            raise InvalidOrder(msg("odds.unknown_unit", unit=t, units=list(ed.units)))
        if n < 0:
            raise InvalidOrder(msg("odds.bad_count", count=n, unit=t, side=who))
        ut = ed.units[t]
        if ut.abilities.fixed:
            raise InvalidOrder(msg("odds.no_part", ut.rule, unit=t))
        if n and who == "attacker" and ut.abilities.anti_air:
            raise InvalidOrder(msg("odds.never_attacks", ut.rule, unit=t))
        if n:
            out[t] = out.get(t, 0) + n
    return out


def _is_sea_battle(ed: Edition, att: Mapping[str, int], dfd: Mapping[str, int]) -> bool:
    """Without a space: a sea battle when sea units take part, unless the only ones are
    attacking ships that can bombard and land units are there too (R-AMP-05)."""
    ships = [t for t in [*att, *dfd] if ed.units[t].domain == "sea"]
    land = any(ed.units[t].domain == "land" for t in [*att, *dfd])
    support = all(t in att and t not in dfd and bm.bombards(ed, t) for t in ships)
    return bool(ships) and not (land and support)


def _check_domains(ed: Edition, att: Mapping[str, int], dfd: Mapping[str, int],
                   sea: bool) -> None:
    for t in [*att, *dfd]:
        ut = ed.units[t]
        dom = ut.domain
        if sea and dom == "land":
            raise InvalidOrder(msg("odds.land_at_sea", ut.rule, unit=t))
        if not sea and dom == "sea" and not (t in att and bm.bombards(ed, t)):
            support = [u for u in ed.units if bm.bombards(ed, u)]
            raise InvalidOrder(msg("odds.sea_on_land", ut.rule, unit=t, support=support))
    if not sea:
        if att and all(ed.units[t].domain == "sea" for t in att):
            raise InvalidOrder(msg("odds.ships_alone", "R-AMP-05"))
        return
    for t in dfd:
        ut = ed.units[t]
        if ut.domain == "air" and not ut.abilities.carrier_landable:
            raise InvalidOrder(msg("odds.air_at_sea", ut.rule, unit=t))
    room = sum(n * ed.units[t].abilities.carrier_capacity for t, n in dfd.items())
    flying = sum(n for t, n in dfd.items() if ed.units[t].domain == "air")
    if flying > room:
        carriers = [u for u in ed.units.values() if u.abilities.carrier_capacity]
        raise InvalidOrder(msg("odds.no_deck", carriers[0].rule if carriers else None,
                               flying=flying, room=room, carriers=bool(carriers)))


def _developments(ed: Edition, ids: Sequence[str], who: str) -> list[Technology]:
    table = tech.technologies(ed)
    for t in ids:
        if t not in table:
            raise InvalidOrder(msg("odds.unknown_development", development=t, side=who,
                                   known=[x.name for x in table.values()]))
    return tech.chosen(ed, ids)


def _changed(ed: Edition, techs: Sequence[Technology], units: Mapping[str, int],
             role: int) -> tuple[str, ...]:
    """Names of the developments that change a value of these units on this side."""
    out = []
    for t in techs:
        for u in units:
            if role == ATT and (bm.firing_value(ed, [t], u, ATT) != ed.units[u].attack
                                or bm.dice_per_unit([t], u, ATT) != 1):
                out.append(t.name)
                break
            if role == DEF and bm.firing_value(ed, [t], u, DEF) != ed.units[u].defense:
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
    reference: bool = False,
    grid: Literal["auto", "fast", "plain"] = "auto",
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
    (bench/odds.py). The exact method is the grid of hits absorbed (``odds.grid``) where it
    applies (as array arithmetic, ``odds.fast``, or in plain Python, ``odds.grid``, for small
    grids; ``grid="fast"`` or ``"plain"`` takes one of them whatever the size), else the joint
    multisets (``odds.joint``); ``reference`` takes the old method (``odds.core.exact``), which
    the tests and the bench compare them with.
    """
    att = _check_units(edition, attackers, "attacker")
    dfd = _check_units(edition, defenders, "defender")
    if space is not None:
        if space not in edition.spaces:
            raise InvalidOrder(msg("odds.unknown_space", space=space))
        here = edition.is_sea(space)
        if sea is not None and sea != here:
            raise InvalidOrder(msg("odds.space_is", space=space, sea=here))
        sea = here
    if sea is None:
        sea = _is_sea_battle(edition, att, dfd)
    _check_domains(edition, att, dfd, sea)
    for t in [*attacker_order, *defender_order]:
        if t not in edition.units:
            raise InvalidOrder(msg("odds.unknown_casualty", unit=t))
    if not att:
        raise InvalidOrder(msg("odds.no_attackers"))
    a_techs = _developments(edition, attacker_techs, "attacker")
    d_techs = _developments(edition, defender_techs, "defender")
    if not any(bm.firing_value(edition, a_techs, t, ATT) > 0 for t in att):
        raise InvalidOrder(msg("odds.cannot_fire",
                               units=[(t, edition.units[t].rule) for t in att]))
    if samples < 1 or max_states < 1 or max_work < 1 or mc_work < 1:
        raise InvalidOrder(msg("odds.budget"))
    for who, units in (("attacker", att), ("defender", dfd)):
        n = sum(units.values())
        if n > max_units:
            raise InvalidOrder(msg("odds.too_many", side=who, count=n, most=max_units))
    a_side = Side(edition, ATT, att, sea, attacker_order, a_techs)
    d_side = Side(edition, DEF, dfd, sea, defender_order, d_techs)
    model = Model(a_side, d_side, sea)
    tally: Tally | None = None
    states = 0
    work = 0
    used: Method = "exact"
    on_grid: Callable[[Model, int, int], tuple[Tally, int] | None] = (
        grid_exact if grid == "plain" else
        functools.partial(fast_exact, small=0) if grid == "fast" else fast_exact)
    if method != "monte carlo":
        try:
            auto = method == "auto"
            limits = (max_states, max_work) if auto else (10**12, 10**15)
            got = None if reference else on_grid(model, *limits)
            if got is None:
                got = exact(model, *limits) if reference else joint_exact(model, *limits)
            tally, states = got
        except TooBig:
            tally = None
        work = model.work
    trials: int | None = None
    se: float | None = None
    if tally is None:
        used = "monte carlo"
        draw = uniform if uniform is not None else SplitMix64(seed).random
        tally, trials = monte_carlo(model, samples, draw, mc_work)
        work += model.work
        if trials == 0:
            raise InvalidOrder(msg("odds.too_big", steps=mc_work))
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
        solver=model.solver if used == "exact" else "",
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
            if ed.side_of(u.owner) != mine and not ed.units[u.type].abilities.fixed:
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
    return name if abs(n - 1) < 0.05 else plural(name)


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


# --- the words of its refusals ----------------------------------------------------------------
def _sea_on_land(p: Mapping[str, Any]) -> str:
    also = (f" Only an attacking {' or '.join(p['support'])} takes part, by bombardment "
            "(R-AMP-05)." if p["support"] else "")
    return (f"{p['unit']} cannot fight in a territory ({p['rule']}): sea units stay in sea "
            f"zones.{also}")


def _no_deck(p: Mapping[str, Any]) -> str:
    n = p["flying"]
    cite = f" ({p['rule']})" if p["carriers"] else ""
    return (f"{counted(n, 'defending fighter')} at sea {agree(n, 'needs', 'need')} carriers with "
            f"room for {agree(n, 'it', 'them')}{cite}; these carriers hold "
            f"{p['room']}.")


catalogue("en", "odds", {
    "unknown_unit": "Unknown unit {unit!r}. Units: {units:join}.",
    "bad_count": "Bad count {count!r} of {unit} for the {side}.",
    "no_part": "An {unit} takes no part in battles ({rule}); leave it out.",
    "never_attacks": "An {unit} never attacks ({rule}): it only fires at attacking aircraft. "
                     "Leave it out of the attackers; list it among the defenders of a territory.",
    "land_at_sea": "{unit} cannot fight at sea ({rule}): land units at sea are cargo and never "
                   "fight.",
    "sea_on_land": _sea_on_land,
    "ships_alone": "Ships alone cannot attack a territory: bombardment only supports land units "
                   "attacking from the sea ({rule}). Add the land units that land.",
    "air_at_sea": "{unit} cannot defend at sea ({rule}): only fighters on a defending aircraft "
                  "carrier do.",
    "no_deck": _no_deck,
    "unknown_development": "Unknown weapons development {development!r} for the {side}. "
                           "Developments: {known:join|none in this edition}.",
    "unknown_space": "Unknown space {space!r}.",
    "space_is": lambda p: f"{p['space']} is {'a sea zone' if p['sea'] else 'a territory'}.",
    "unknown_casualty": "Unknown unit {unit!r} in a casualty order.",
    "no_attackers": "No attacking units: name at least one.",
    "cannot_fire": lambda p: ("These attackers cannot fire (no attack value): "
                              + ", ".join(f"{u} ({rule})" for u, rule in p["units"])
                              + ". Add a unit that attacks."),
    "budget": "samples, max_states, max_work and mc_work must be at least 1.",
    "too_many": lambda p: (f"Too many units for the odds: the {p['side']} has {p['count']:,}; "
                           f"the limit is {p['most']:,} units a side, so that every answer comes "
                           "within a few seconds. Ask about a part of the battle."),
    "too_big": lambda p: ("This battle is too big for the odds: not one simulated battle fits in "
                          f"the budget of {p['steps']:,} steps. Ask about a part of the battle."),
})
