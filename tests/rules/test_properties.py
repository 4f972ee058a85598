"""Properties of random legal play from the 1941 setup (DESIGN §9).

Random play chooses among ``legal_orders`` of a power the game waits for, biased towards
``end`` so the phases advance, and checks after every order and event:

(a) a legal order is never refused, and ``decide`` raises nothing else either;
(b) ``replay(events)`` equals the live state;
(c) IPCs balance (every treasury change is a purchase, clearance, refund, income or capital
    seizure recorded in an event; no treasury is ever negative) and units appear only through
    ``GameStarted``/``UnitsPlaced`` and disappear only through ``UnitsRemoved``;
(d) every event round-trips through JSON;
(e) ``decide`` and ``evolve`` never change their input state.

In Combat and Noncombat Move a random move can leave the phase unable to end (a ship moved
into a friendly zone with no assault from it: CM-4 is checked at ``end``). Players fix that with
``undo``, which is free until dice are rolled (DESIGN §5); random play does the same, going back
to the last moment of the phase when ``end`` was legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, event, given, settings

from rules import engine
from rules import events as ev
from rules import orders as od
from rules.dice import Dice, HmacDice
from rules.edition import load_edition
from rules.legal import legal_orders
from rules.position import state_json
from rules.state import GameState
from rules.turn import hooks

MOVE_PHASES = ("combat_move", "noncombat_move")
# Chance (percent) that random play ends the phase when it may: low where the phase has work
# worth doing (placing what was bought), higher where every order is optional.
END_BIAS = {"purchase": 35, "combat_move": 15, "conduct_combat": 50, "noncombat_move": 20,
            "mobilize": 5}
# How many orders a movement phase may stay unable to end before random play takes them back.
DIRTY_LIMIT = 3


@dataclass
class Record:
    events: list[ev.Event]
    state: GameState
    orders: int = 0
    phases: set[str] = field(default_factory=set)
    kinds: dict[str, int] = field(default_factory=dict)
    undos: int = 0


def snapshot(s: GameState) -> tuple[Any, ...]:
    """Everything of a state that could be mutated in place (all containers copied)."""
    return (
        state_json(s),
        dict(s.units),
        dict(s.treasury),
        dict(s.owners),
        dict(s.purchase),
        dict(s.placed),
        dict(s.battles),
        dict(s.turn_start_owners),
        s.captured_this_turn,
        s.seq,
    )


def treasury_delta(before: GameState, e: ev.Event) -> dict[str, int]:
    """What an event says the treasuries change by (PU-3, PU-5/MB-9, IN-1, CAP-1)."""
    ed = before.edition
    match e:
        case ev.UnitsPurchased():
            assert e.cost == sum((ed.units[u].cost or 0) * n for u, n in e.units.items())
            assert e.cost <= before.treasury[e.power]
            return {e.power: -e.cost}
        case ev.PurchaseCleared():
            assert e.refund == sum((ed.units[u].cost or 0) * n for u, n in before.purchase.items())
            return {e.power: e.refund}
        case ev.PurchaseRefunded():
            assert e.amount == sum((ed.units[u].cost or 0) * n for u, n in e.units.items())
            assert all(before.purchase.get(u, 0) >= n for u, n in e.units.items())
            return {e.power: e.amount}
        case ev.IncomeCollected():
            # IN-1: production, changed by what mechanisms recorded in this Collect Income
            # (Europe 1940's convoy losses and national objectives; nothing in 1941).
            assert e.amount == max(0, before.income()[e.power] + sum(
                step.adjust(before, e.power) for step in hooks.income_steps()))
            return {e.power: e.amount}
        case ev.TerritoryCaptured() if e.seized:
            assert e.seized_from is not None
            assert e.seized == before.treasury[e.seized_from]
            return {e.seized_from: -e.seized, e.by: e.seized}
        case _:
            return {}


def committed_this_turn(turn: list[ev.Event]) -> set[int]:
    """Units that moved in Combat Move or took part in a battle this turn (NC-1), from the log."""
    out: set[int] = set()
    for e in turn:
        match e:
            case ev.UnitsMoved(phase="combat_move"):
                out.update(m.id for m in e.moves if m.cost > 0 or m.assault is not None)
            case ev.BattleOpened():
                out.update(e.attacking)
            case ev.SeaborneLanded():
                out.update(e.units)
            case ev.BattleEnded():
                out.update(e.offloaded)
            case _:
                pass
    return out


def check_board(s: GameState) -> None:
    """Board invariants: cargo sits on a host with room in its space (UT-7, UC-2), land units
    are never at sea on their own, sea units never on land, neutrals are never held (MAP-8)."""
    ed = s.edition
    load: dict[int, int] = {}
    for u in s.units.values():
        ut = ed.units[u.type]
        sea = ed.is_sea(u.space)
        assert not ed.spaces[u.space].impassable, f"{u} in a neutral territory (MAP-8)"
        if ut.domain == "sea":
            assert sea and u.carried_by is None, f"{u} off the sea"
        if ut.domain == "land":
            assert sea == (u.carried_by is not None), f"{u} at sea without a transport"
        if u.carried_by is not None:
            host = s.units.get(u.carried_by)
            assert host is not None and host.space == u.space, f"{u} carried by a missing host"
            hab = ed.units[host.type].abilities
            if ut.domain == "land":
                assert hab.transport_capacity and s.friendly(host.owner, u.owner)
                load[host.id] = load.get(host.id, 0) + ut.abilities.transport_cost
                assert load[host.id] <= hab.transport_capacity, f"{host} over capacity (UT-7)"
            else:
                assert ut.abilities.carrier_landable and hab.carrier_capacity
                load[host.id] = load.get(host.id, 0) + 1
                assert load[host.id] <= hab.carrier_capacity, f"{host} over capacity (UC-2)"
    for t, o in s.owners.items():
        assert not (o is not None and ed.spaces[t].impassable), f"{t} is neutral but held"


def check_turn_end(s: GameState, power: str) -> None:
    """After a power's turn: its air units have landed (NC-7), and no territory holds units
    of the side that does not control it (CC-7b: battles are over)."""
    ed = s.edition
    for u in s.units.values():
        if u.owner == power and ed.units[u.type].domain == "air" and u.carried_by is None:
            assert not ed.is_sea(u.space), f"{power}'s {u.type} left at sea without a carrier"
            assert s.friendly(s.owners.get(u.space), power), f"{u} ends the turn in hostile land"
        if not ed.is_sea(u.space) and not ed.units[u.type].abilities.factory:
            assert s.friendly(s.owners.get(u.space), u.owner), (
                f"{u.owner}'s {u.type} in {u.space}, held by {s.owners.get(u.space)}")


def check_event(before: GameState, e: ev.Event,
                turn: list[ev.Event] | None = None) -> GameState:
    """Apply one event and check properties (c), (d), (e) on it; ``turn`` is the log of the
    current turn so far, for the per-turn rules (NC-1)."""
    assert ev.event_from_json(ev.event_to_json(e)) == e, f"JSON round trip changed {e!r}"
    snap = snapshot(before)
    after = engine.evolve(before, e)
    assert snapshot(before) == snap, f"evolve mutated its input state on {type(e).__name__}"

    # IPCs
    delta = treasury_delta(before, e)
    for p in before.edition.powers:
        got = after.treasury[p] - before.treasury[p]
        assert got == delta.get(p, 0), f"{p}'s treasury changed by {got} on {e!r}"
        assert after.treasury[p] >= 0, f"{p}'s treasury is negative after {e!r} (PU-3)"

    # Units
    added = set(after.units) - set(before.units)
    gone = set(before.units) - set(after.units)
    if isinstance(e, ev.UnitsPlaced):
        assert added == {uid for uid, _, _ in e.units}
        assert all(before.purchase.get(t, 0) >= n for t, n in
                   _count(t for _, t, _ in e.units).items()), "placed more than was bought"
    else:
        assert not added, f"units {sorted(added)} appeared on {type(e).__name__}"
    if isinstance(e, ev.UnitsRemoved):
        assert gone == set(e.ids), f"UnitsRemoved {e.ids} removed {sorted(gone)}"
    else:
        assert not gone, f"units {sorted(gone)} vanished on {type(e).__name__}"
    for uid in set(after.units) & set(before.units):
        u0, u1 = before.units[uid], after.units[uid]
        assert u0.type == u1.type
        if u0.owner != u1.owner:  # complexes change hands with their territory (UL-4)
            assert isinstance(e, ev.TerritoryCaptured) and before.edition.units[u0.type].abilities.factory

    # Rules the flags on units implement, checked against the log instead.
    if isinstance(e, ev.UnitsMoved) and e.phase == "noncombat_move" and turn is not None:
        ed = before.edition
        again = committed_this_turn(turn) & {
            m.id for m in e.moves
            if ed.units[before.units[m.id].type].domain != "air" and m.cost > 0}
        assert not again, (f"units {sorted(again)} moved or fought in combat this turn and "
                           f"moved again in Noncombat Move (NC-1): {e!r}")
    if isinstance(e, ev.TurnStarted) and before.seq > 1:
        check_turn_end(after, before.power)
    check_board(after)
    return after


def _count(types: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in types:
        out[t] = out.get(t, 0) + 1
    return out


def play(pick: Callable[[int], int], want_end: Callable[[str], bool], dice: Dice,
         max_orders: int, max_rounds: int, position: dict[str, Any] | None = None,
         focus: Callable[[GameState, od.Order], bool] | None = None) -> Record:
    """Random legal play from the setup (or ``position``); ``pick(n)`` chooses an index below
    n; ``want_end(phase)`` says whether to end the phase when that is legal; when ``focus``
    is given, every other order is chosen among those it accepts, if there are any."""
    evs = list(engine.new_game("1941", (), position))
    state = engine.replay(evs)
    rec = Record(events=evs, state=state)
    # The last moment of this movement phase when it could end, or its start: 'undo' goes
    # back no further than the phase's start.
    clean: tuple[int, GameState] = (len(evs), state)
    turn_start = len(evs)
    dirty = 0
    force_end = False
    while (rec.orders < max_orders and rec.undos < max_orders and state.round <= max_rounds
           and state.winner is None):
        rec.phases.add(state.phase)
        waiting = engine.pending(state)
        assert waiting, "nobody to wait for in a game that is not over"
        power = waiting[pick(len(waiting))].power
        legal = list(legal_orders(state, power))
        ends = [o for o in legal if isinstance(o, od.EndPhase)]
        if _phase(clean[1]) != _phase(state):
            clean, dirty = (len(rec.events), state), 0
        if state.phase in MOVE_PHASES and power == state.power:
            if ends:
                clean, dirty = (len(rec.events), state), 0
            else:
                dirty += 1
                if (dirty > DIRTY_LIMIT or not legal) and clean[1] is not state:
                    # Take the phase's moves back to where it could end ('undo', DESIGN §5).
                    del rec.events[clean[0]:]
                    state = clean[1]
                    rec.undos += 1
                    dirty, force_end = 0, True
                    continue
        assert legal, f"{power} has no legal order in {state.phase}: {waiting}"
        others = [o for o in legal if not isinstance(o, od.EndPhase)]
        if focus is not None and rec.orders % 3 != 2:
            others = [o for o in others if focus(state, o)] or others
        if ends and (force_end or not others or want_end(state.phase)):
            order: od.Order = ends[0]
        else:
            order = others[pick(len(others))]
        force_end = False
        before = snapshot(state)
        new = engine.decide(state, order, dice)  # (a): raises nothing, refuses nothing
        assert snapshot(state) == before, f"decide mutated its input on {order!r}"
        for e in new:
            state = check_event(state, e, rec.events[turn_start:])
            rec.events.append(e)
            if isinstance(e, ev.TurnStarted):
                turn_start = len(rec.events)
        rec.orders += 1
        rec.kinds[order.kind] = rec.kinds.get(order.kind, 0) + 1
    rec.state = state
    rec.phases.add(state.phase)
    return rec


def _phase(s: GameState) -> tuple[int, str, str]:
    return (s.round, s.power, s.phase)


def check_record(rec: Record) -> None:
    """(b) replay equals live; (c) the IPC ledger over the whole log balances."""
    replayed = engine.replay(rec.events)
    assert state_json(replayed) == state_json(rec.state)
    assert replayed.units == rec.state.units
    assert replayed == rec.state
    start = engine.replay(rec.events[:1])
    total = dict(start.treasury)
    s = start
    for e in rec.events[1:]:
        for p, d in treasury_delta(s, e).items():
            total[p] += d
        s = engine.evolve(s, e)
    assert total == rec.state.treasury


# --------------------------------------------------------------------------------------------
# Hypothesis: the choices are drawn, so failures shrink to a short game.


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(key=st.binary(min_size=4, max_size=16), data=st.data())
def test_random_legal_play_properties(key: bytes, data: st.DataObject) -> None:
    def pick(n: int) -> int:
        return 0 if n == 1 else data.draw(st.integers(0, n - 1))

    def want_end(phase: str) -> bool:
        return data.draw(st.integers(0, 99)) < END_BIAS.get(phase, 50)

    rec = play(pick, want_end, HmacDice(key, game="prop"), max_orders=150, max_rounds=2)
    check_record(rec)
    for phase in sorted(rec.phases):
        event(f"reached {phase}")
    event(f"rounds reached: {rec.state.round}")


# --------------------------------------------------------------------------------------------
# Small random positions around one coastal target: transports with cargo, warships, defenders
# and overland attackers, so that amphibious assaults, sea battles and retreats come up often.

ED = load_edition("a1941")
CLOSED = set(ED.map.closed_sea_zones)
COASTAL = sorted(t for t, sp in ED.spaces.items() if sp.kind == "land" and not sp.impassable
                 and sp.original_owner and any(ED.is_sea(n) and n not in CLOSED
                                              for n in ED.neighbours[t]))
CARGO = ({"infantry": 1}, {"infantry": 2}, {"tank": 1}, {"tank": 1, "infantry": 1})
ESCORTS = ("destroyer", "battleship", "submarine", "aircraft carrier")
DEFENCE = ("destroyer", "submarine", "transport", "battleship", "aircraft carrier")


@st.composite
def assault_positions(draw: st.DrawFn) -> tuple[dict[str, Any], str, str]:
    """A position, its target territory and the sea zone next to it the assault may use."""
    target = draw(st.sampled_from(COASTAL))
    defender = ED.spaces[target].original_owner
    assert defender is not None
    attacker = draw(st.sampled_from(
        [p for p in ED.turn_order if ED.powers[p].side != ED.powers[defender].side]))
    zones = sorted(n for n in ED.neighbours[target] if ED.is_sea(n) and n not in CLOSED)
    zone = draw(st.sampled_from(zones))
    start = draw(st.sampled_from(sorted(
        [zone, *(n for n in ED.neighbours[zone] if ED.is_sea(n) and n not in CLOSED)])))
    units: dict[str, dict[str, dict[str, int]]] = {}

    def add(space: str, power: str, utype: str, n: int = 1) -> None:
        mine = units.setdefault(space, {}).setdefault(power, {})
        mine[utype] = mine.get(utype, 0) + n

    n_transports = draw(st.integers(1, 2))
    add(start, attacker, "transport", n_transports)
    cargo: dict[str, int] = {}
    for _ in range(n_transports):
        for utype, n in draw(st.sampled_from(CARGO)).items():
            cargo[utype] = cargo.get(utype, 0) + n
    for utype, n in cargo.items():
        if n:
            add(start, attacker, utype, n)
    for utype in draw(st.lists(st.sampled_from(ESCORTS), max_size=2)):
        add(start, attacker, utype)
        if utype == "aircraft carrier":
            add(start, attacker, "fighter", draw(st.integers(0, 2)))
    for utype in draw(st.lists(st.sampled_from(DEFENCE), max_size=2)):
        add(zone, defender, utype)
        if utype == "aircraft carrier":
            add(zone, defender, "fighter", draw(st.integers(0, 2)))
    add(target, defender, "infantry", draw(st.integers(1, 3)))
    # Friends of either side: out of play at sea (MN-3), defending together on land (MN-2).
    friends = [p for p in ED.turn_order if p != attacker
               and ED.powers[p].side == ED.powers[attacker].side]
    if friends and draw(st.booleans()):
        add(start, draw(st.sampled_from(friends)), "destroyer")
    allies = [p for p in ED.turn_order if p != defender
              and ED.powers[p].side == ED.powers[defender].side]
    if allies and draw(st.booleans()):
        add(target, draw(st.sampled_from(allies)), "infantry")
    if draw(st.booleans()):
        add(target, defender, "fighter")
    owners: dict[str, str] = {}
    lands = sorted(n for n in ED.neighbours[target]
                   if not ED.is_sea(n) and not ED.spaces[n].impassable)
    if lands and draw(st.booleans()):
        flank = draw(st.sampled_from(lands))
        owners[flank] = attacker
        add(flank, attacker, draw(st.sampled_from(("infantry", "tank"))), draw(st.integers(1, 2)))
    pos = {"edition": "1941", "power": attacker, "phase": "combat_move", "units": units,
           "owners": owners, "clear_all_units": True}
    return pos, target, zone


def amphibious_focus(target: str, zone: str) -> Callable[[GameState, od.Order], bool]:
    """Orders that lead to an amphibious assault on ``target`` from ``zone``, and fighting."""

    def focus(s: GameState, o: od.Order) -> bool:
        if isinstance(o, od.Move):
            return o.to in (target, zone)
        return isinstance(o, od.Battle | od.Retreat | od.Casualties)

    return focus


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=assault_positions(), key=st.binary(min_size=4, max_size=8), data=st.data())
def test_random_play_from_assault_positions(case: tuple[dict[str, Any], str, str], key: bytes,
                                            data: st.DataObject) -> None:
    pos, target, zone = case
    def pick(n: int) -> int:
        return 0 if n == 1 else data.draw(st.integers(0, n - 1))

    def want_end(phase: str) -> bool:
        return data.draw(st.integers(0, 99)) < END_BIAS.get(phase, 50) // 2

    rec = play(pick, want_end, HmacDice(key, game="pos"), max_orders=60, max_rounds=1,
               position=pos, focus=amphibious_focus(target, zone))
    check_record(rec)
    kinds = {type(e).__name__ for e in rec.events}
    for k in ("BattleOpened", "SeaborneLanded", "BattleRetreated", "TerritoryCaptured"):
        if k in kinds:
            event(f"saw {k}")
    if any(isinstance(e, ev.BattleOpened) and e.amphibious for e in rec.events):
        event("amphibious assault")


# --------------------------------------------------------------------------------------------
# A seeded companion: deterministic, long enough to prove random play gets everywhere.


def test_seeded_random_play_reaches_every_phase() -> None:
    rng = random.Random(1941)
    rec = play(lambda n: rng.randrange(n), lambda ph: rng.randrange(100) < END_BIAS.get(ph, 50),
               HmacDice(b"seeded", game="prop"), max_orders=400, max_rounds=2)
    check_record(rec)
    assert {"purchase", "combat_move", "conduct_combat", "noncombat_move",
            "mobilize"} <= rec.phases
    assert rec.state.round >= 2
    kinds = {type(e).__name__ for e in rec.events}
    assert {"UnitsPurchased", "UnitsMoved", "BattleOpened", "DiceRolled", "CasualtiesChosen",
            "UnitsRemoved", "UnitsPlaced", "IncomeCollected"} <= kinds, kinds
