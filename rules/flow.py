"""Turn structure and the economy: phases (T-1..T-5), purchase (PU), mobilize (MB), income (IN),
victory (V) and the capital rules (CAP) that hang off them.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.dice import Dice
from rules.edition import Edition
from rules.errors import IllegalOrder, InvalidOrder
from rules.state import GameState, Unit

if TYPE_CHECKING:
    from rules.engine import Tx


def fmt_units(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {u}" for u, n in units.items())


# --------------------------------------------------------------------------------------------
# Phases


def enter_phase(tx: Tx, phase: str, initial: bool = False) -> None:
    """Enter ``phase`` (or the next one the power plays), running automatic phases."""
    from rules import combat, movement

    ed = tx.state.edition
    ids = ed.phase_ids
    i = ids.index(phase)
    skipped: list[str] = []
    while i < len(ids):
        pid = ids[i]
        info = ed.phase_info[pid]
        if info.skipped_without_capital and not tx.state.capital_held(tx.state.power):
            skipped.append(pid)  # T-4 / CAP-2
            i += 1
            continue
        break
    if i >= len(ids):
        tx.emit(ev.PhaseChanged(power=tx.state.power, phase=ids[-1], skipped=tuple(skipped),
                                rule="T-4"))
        end_turn(tx)
        return
    pid = ids[i]
    rule = "T-4" if skipped else "T-2"
    tx.emit(ev.PhaseChanged(power=tx.state.power, phase=pid, skipped=tuple(skipped), rule=rule))
    if pid == "conduct_combat" and not initial:
        combat.open_battles(tx)
        if not any(b.step != "done" for b in tx.state.battles.values()) and not \
                combat.open_raids(tx.state):
            leave_conduct_combat(tx)
            enter_phase(tx, _after(tx.state, pid))
            return
    elif pid == "conduct_combat" and initial:
        combat.open_battles(tx, from_position=True)
    elif pid == "noncombat_move":
        movement.land_stranded_fighters(tx)
    elif pid == "collect_income":
        collect_income(tx)
        end_turn(tx)


def _after(state: GameState, phase: str) -> str:
    ids = state.edition.phase_ids
    return ids[ids.index(phase) + 1]


def decide_end(tx: Tx, order: od.EndPhase, dice: Dice) -> None:
    """End the current phase after its closing checks."""
    from rules import combat, movement

    s = tx.state
    match s.phase:
        case "purchase":
            pass
        case "combat_move":
            movement.check_end_combat_move(s)
        case "conduct_combat":
            raids = combat.open_raids(s)
            if raids:
                raise IllegalOrder(
                    "Strategic bombing raids remain over " + ", ".join(raids) + ". Resolve "
                    "each with 'bomb <space>' before ending Combat (R-SBR-01)."
                )
            open_ = [b.space for b in s.battles.values() if b.step != "done"]
            if open_:
                raise IllegalOrder(
                    "Battles remain in " + ", ".join(open_) + ". Fight them with "
                    "'battle <space>' (or 'battle <space> all') before ending Conduct Combat "
                    "(CC-0)."
                )
            leave_conduct_combat(tx)
        case "noncombat_move":
            movement.end_noncombat(tx, confirm=order.confirm)
        case "mobilize":
            end_mobilize(tx, order.confirm)
        case _:
            pass
    enter_phase(tx, _after(tx.state, s.phase))
    del dice


def leave_conduct_combat(tx: Tx) -> None:
    """Settle liberations whose capital test waits for the end of combat (LIB-2, A-14)."""
    s = tx.state
    for t in sorted(s.captured_this_turn):
        owner = s.owners.get(t)
        orig = s.edition.spaces[t].original_owner
        if owner != s.power or orig is None or orig == owner:
            continue
        if s.friendly(orig, owner) and s.capital_held(orig):
            tx.emit(ev.TerritoryCaptured(space=t, by=s.power, previous=owner, owner=orig,
                                         how="liberation", rule="LIB-2"))


def end_turn(tx: Tx) -> None:
    """Victory checks for this power's turn end (V-1..V-4, A-1), then the next turn."""
    s = tx.state
    key = "short" if "short" in s.options else "standard"
    for cond in s.edition.rules.victory.get(key, ()):
        if cond.check_after not in (s.power, "*"):
            continue
        if cond.kind == "production":
            income = s.income()
            total = sum(income[p] for p in s.edition.powers_of_side(cond.side))
            if total >= cond.threshold:
                tx.emit(ev.GameWon(side=cond.side, rule=cond.rule, capitals=(), production=total))
                return
            continue
        held = tuple(
            c for c in cond.capitals
            if s.owners.get(c) is not None and s.side(s.owners[c] or "") == cond.side
        )
        if len(held) >= cond.need:
            tx.emit(ev.GameWon(side=cond.side, rule=cond.rule, capitals=held))
            return
    order = s.edition.turn_order
    i = order.index(s.power)
    nxt = order[(i + 1) % len(order)]
    rnd = s.round + (1 if i + 1 == len(order) else 0)
    tx.emit(ev.TurnStarted(round=rnd, power=nxt))
    enter_phase(tx, s.edition.phase_ids[0])


# --------------------------------------------------------------------------------------------
# Purchase (PU-1..PU-6)


def decide_purchase(tx: Tx, order: od.Buy | od.ClearPurchase) -> None:
    s = tx.state
    if isinstance(order, od.ClearPurchase):
        refund = purchase_cost(s, s.purchase)
        tx.emit(ev.PurchaseCleared(power=order.power, refund=refund))
        return
    ed = s.edition
    if not order.units:
        raise InvalidOrder("Name what to buy, e.g. 'buy 3 infantry, 1 tank'.")
    for u, n in order.units.items():
        ut = ed.units.get(u)
        if ut is None:
            raise InvalidOrder(f"Unknown unit {u!r}.")
        if ut.cost is None:
            raise IllegalOrder(
                f"{u.capitalize()} cannot be bought in {ed.rules.title} (PU-6: the Mobilization "
                "Zone chart lists what can be bought)."
            )
        if n <= 0:
            raise InvalidOrder(f"Counts must be positive: {n} {u}.")
    cost = purchase_cost(s, order.units)
    have = s.treasury[order.power]
    if cost > have:
        raise IllegalOrder(
            f"{fmt_units(order.units)} costs {cost} IPCs; {order.power} has {have} "
            "(PU-2/PU-3: buy only what you can afford; the treasury never goes negative)."
        )
    tx.emit(ev.UnitsPurchased(power=order.power, units=dict(order.units), cost=cost))


def purchase_cost(s: GameState, units: dict[str, int]) -> int:
    return sum((s.edition.units[u].cost or 0) * n for u, n in units.items())


# --------------------------------------------------------------------------------------------
# Mobilize (MB-1..MB-9)


def eligible_factories(s: GameState, power: str) -> list[str]:
    """Territories with a complex the power has controlled since the turn began (MB-1)."""
    out = []
    for u in s.units.values():
        if not s.edition.units[u.type].abilities.factory:
            continue
        t = u.space
        if (s.owners.get(t) == power and s.turn_start_owners.get(t) == power
                and t not in s.captured_this_turn):
            out.append(t)
    return sorted(set(out))


def cap_left(s: GameState, factory: str) -> int:
    return s.edition.value(factory) - s.placed.get(factory, 0)  # MB-2


def decide_place(tx: Tx, order: od.Place) -> None:
    s = tx.state
    ed = s.edition
    p = order.power
    space = order.space
    if space not in ed.spaces:
        raise InvalidOrder(f"Unknown space {space!r}.")
    if not order.units:
        raise InvalidOrder("Name what to place, e.g. 'place 2 infantry in Germany'.")
    for u, n in order.units.items():
        if s.purchase.get(u, 0) < n:
            raise IllegalOrder(
                f"{p} has {s.purchase.get(u, 0)} {u} waiting to be placed, not {n} (PU-4: only "
                f"units bought this turn are placed). Waiting: {fmt_units(s.purchase) or 'none'}."
            )
    factories = eligible_factories(s, p)
    sea = ed.is_sea(space)
    if not sea:
        if space not in factories:
            raise IllegalOrder(
                f"{p} cannot place units in {space}: new units go only to territories with an "
                f"industrial complex {p} has controlled since the start of the turn (MB-1/MB-3). "
                f"Eligible: {', '.join(factories) or 'none'}."
            )
        for u in order.units:
            if ed.units[u].domain == "sea":
                raise IllegalOrder(f"{u} is a sea unit: place it in an adjacent sea zone (MB-4).")
        payers = [space]
    else:
        payers = [f for f in factories if space in ed.neighbours[f]]
        if not payers:
            raise IllegalOrder(
                f"{space} is not next to an industrial complex {p} may use (MB-4). "
                f"Eligible complexes: {', '.join(factories) or 'none'}."
            )
        for u in order.units:
            d = ed.units[u].domain
            if d == "land":
                raise IllegalOrder(
                    "Land units are placed only in a territory with an eligible complex, never "
                    "onto transports (MB-3)."
                )
            if d == "air" and not ed.units[u].abilities.carrier_landable:
                raise IllegalOrder(f"{u} cannot land on carriers; place it in a territory (UB-1).")
    total = sum(order.units.values())
    payer = max(payers, key=lambda f: cap_left(s, f))
    if cap_left(s, payer) < total:
        raise IllegalOrder(
            f"{payer} can place {max(cap_left(s, payer), 0)} more unit(s) this turn: its "
            f"production is limited to its IPC value {ed.value(payer)}, sea zones next to it "
            "included (MB-2)."
        )
    # Fighters at sea need room on the power's own carriers, new ones included (MB-5).
    new: list[tuple[int, str, int | None]] = []
    nid = s.next_id
    carriers_room: dict[int, int] = {}
    if sea:
        for c in s.units_in(space):
            cap = ed.units[c.type].abilities.carrier_capacity
            if cap and c.owner == p:
                aboard = sum(1 for x in s.units_in(space) if x.carried_by == c.id)
                carriers_room[c.id] = cap - aboard
    ordered = sorted(order.units.items(), key=lambda kv: ed.units[kv[0]].domain != "sea")
    for u, n in ordered:
        ut = ed.units[u]
        for _ in range(n):
            carried: int | None = None
            if sea and ut.domain == "air":
                room = [cid for cid, r in carriers_room.items() if r > 0]
                if not room:
                    raise IllegalOrder(
                        f"No room for a new fighter in {space}: it needs a carrier of {p}'s own "
                        "with a free slot there, new ones included (MB-5; not an ally's, MN-7)."
                    )
                carried = room[0]
                carriers_room[carried] -= 1
            new.append((nid, u, carried))
            if ut.abilities.carrier_capacity:
                carriers_room[nid] = ut.abilities.carrier_capacity
            nid += 1
    before = _fighters_left_waiting(s, p)
    tx.emit(ev.UnitsPlaced(power=p, space=space, units=tuple(new), factory=payer))
    # MB-6/AIR-5: a fighter waiting at sea for a carrier bought this turn keeps its promise:
    # no placement may leave more waiting fighters without a berth than before.
    if _fighters_left_waiting(tx.state, p) > before:
        zones = ", ".join(sorted(_waiting_fighters(s, p)))
        raise IllegalOrder(
            f"A fighter waits in {zones} for a new aircraft carrier: place the carrier there "
            "first, and keep room for it on the production cap (MB-6/AIR-5)."
        )


def _waiting_fighters(s: GameState, power: str) -> dict[str, int]:
    """Own fighters at sea with no carrier berth, by zone: they wait for a new carrier (NC-6)."""
    from rules import movement

    ed = s.edition
    out: dict[str, int] = {}
    for u in s.units.values():
        if (u.owner == power and u.carried_by is None and ed.is_sea(u.space)
                and ed.units[u.type].abilities.carrier_landable):
            out[u.space] = out.get(u.space, 0) + 1
    for z in list(out):
        room = sum(movement.carrier_room(s, c) for c in s.units_in(z)
                   if ed.units[c.type].abilities.carrier_capacity and s.friendly(c.owner, power))
        out[z] -= room
        if out[z] <= 0:
            del out[z]
    return out


def _fighters_left_waiting(s: GameState, power: str) -> int:
    """Waiting fighters that no placement of the carriers still to be placed can catch."""
    ed = s.edition
    waiting = _waiting_fighters(s, power)
    total = sum(waiting.values())
    carriers = [u for u, n in s.purchase.items() for _ in range(n)
                if ed.units[u].abilities.carrier_capacity]
    if not waiting or not carriers:
        return total
    size = max(ed.units[u].abilities.carrier_capacity for u in carriers)
    caps = {f: cap_left(s, f) for f in eligible_factories(s, power)}
    zones = sorted(waiting)
    best = 0
    # Few zones and carriers: try every split of the carriers among the zones (MB-2 caps).
    ranges = [range(0, -(-waiting[z] // size) + 1) for z in zones]
    for split in itertools.product(*ranges):
        if sum(split) > len(carriers) or not _caps_allow(ed, caps, dict(zip(zones, split,
                                                                            strict=True))):
            continue
        best = max(best, sum(min(waiting[z], n * size) for z, n in zip(zones, split,
                                                                       strict=True)))
    return total - best


def _caps_allow(ed: Edition, caps: dict[str, int], per_zone: dict[str, int]) -> bool:
    """Can these carriers per zone be charged to adjacent complexes within caps (A-16)?"""
    slots = [f for f, n in caps.items() for _ in range(max(n, 0))]
    owner: dict[int, int] = {}
    demands = [z for z, n in per_zone.items() for _ in range(n)]

    def augment(d: int, seen: set[int]) -> bool:
        for i, f in enumerate(slots):
            if i in seen or demands[d] not in ed.neighbours[f]:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = d
                return True
        return False

    return all(augment(d, set()) for d in range(len(demands)))


def end_mobilize(tx: Tx, confirm: bool) -> None:
    s = tx.state
    from rules import movement

    if _fighters_left_waiting(s, s.power) < sum(_waiting_fighters(s, s.power).values()):
        # MB-6/AIR-5: a promised carrier that can still be placed must be placed.
        raise IllegalOrder(
            f"A fighter waits in {', '.join(sorted(_waiting_fighters(s, s.power)))} for a new "
            "aircraft carrier that can still be placed there: place it (MB-6/AIR-5)."
        )
    if s.purchase:
        placeable = [u for u in s.purchase if _could_place(s, u)]
        if placeable and not confirm:
            raise IllegalOrder(
                f"Still waiting to be placed: {fmt_units(s.purchase)}. Place them with "
                "'place <units> in <space>', or 'end confirm' to return them to the box with a "
                "refund (MB-9)."
            )
        amount = purchase_cost(s, s.purchase)
        tx.emit(ev.PurchaseRefunded(power=s.power, units=dict(s.purchase), amount=amount))
    movement.remove_unlanded_air(tx, final=True)


def _could_place(s: GameState, utype: str) -> bool:
    ed = s.edition
    for f in eligible_factories(s, s.power):
        if cap_left(s, f) <= 0:
            continue
        if ed.units[utype].domain != "sea":
            return True
        if any(ed.is_sea(n) for n in ed.neighbours[f]):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Income (IN-1..IN-4) and capitals


def collect_income(tx: Tx) -> None:
    s = tx.state
    if not s.capital_held(s.power):
        return  # IN-2 / R-INC-02 (the phase is skipped before we get here; kept for safety)
    amount = s.income()[s.power]
    # R-INC-03 / R-SBR-05: unpaid damage is settled out of this income first.
    debt_paid = min(s.debts.get(s.power, 0), amount)
    tx.emit(ev.IncomeCollected(power=s.power, amount=amount, debt_paid=debt_paid,
                               rule="IN-1" if not debt_paid else "R-INC-03"))




def charge_damage(tx: Tx, power: str, amount: int, reason: str, rule: str) -> None:
    """``power`` pays ``amount`` to the bank; a shortfall becomes a debt (R-SBR-04/05)."""
    if amount <= 0:
        return
    paid = min(amount, max(tx.state.treasury.get(power, 0), 0))
    tx.emit(ev.DamagePaid(power=power, amount=amount, paid=paid, debt=amount - paid,
                          reason=reason, rule=rule))


def capture(tx: Tx, space: str, by: str, how: str, rule: str) -> None:
    """Take control of a territory (CC-7b/c, CM-25), with liberation and capital rules."""
    s = tx.state
    ed = s.edition
    prev = s.owners.get(space)
    orig = ed.spaces[space].original_owner
    new_owner = by
    how_ = how
    # LIB-1; LIB-2: liberated only while the original owner's capital is friendly-held.
    if (orig is not None and orig != by and s.friendly(orig, by)
            and (s.capital_held(orig) or ed.powers[orig].capital == space)):
        new_owner = orig
        how_ = "liberation"
        rule = "LIB-1"
    seized = 0
    seized_from: str | None = None
    cap_of = ed.spaces[space].capital_of
    if cap_of is not None and s.enemy(cap_of, by):
        seized = s.treasury[cap_of]  # CAP-1
        seized_from = cap_of
        rule = "CAP-1"
    tx.emit(ev.TerritoryCaptured(space=space, by=by, previous=prev, owner=new_owner, how=how_,
                                 seized=seized, seized_from=seized_from, rule=rule))
    if cap_of is not None and new_owner == cap_of and prev is not None and s.enemy(prev, cap_of):
        _liberate_capital(tx, cap_of)


def _liberate_capital(tx: Tx, power: str) -> None:
    """CAP-3: the power's original territories held by friendly powers return to it."""
    s = tx.state
    for t, sp in s.edition.spaces.items():
        if sp.original_owner != power or sp.kind != "land":
            continue
        o = s.owners.get(t)
        if o is not None and o != power and s.friendly(o, power):
            tx.emit(ev.TerritoryCaptured(space=t, by=power, previous=o, owner=power,
                                         how="capital liberated", rule="CAP-3"))


def unit_list(units: list[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return out
