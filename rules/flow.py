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
from rules.errors import IllegalOrder, InvalidOrder, WrongPhase
from rules.state import GameState, Unit
from rules.words import counted, possessive

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
                                rule=ed.cite("T-4")))
        end_turn(tx)
        return
    pid = ids[i]
    rule = ed.cite("T-4") if skipped else ed.cite("T-2")
    tx.emit(ev.PhaseChanged(power=tx.state.power, phase=pid, skipped=tuple(skipped), rule=rule))
    if pid == "conduct_combat" and not initial:
        combat.open_battles(tx)
        # No battle or raid: the phase passes, unless a rocket could still be fired.
        if (not any(b.step != "done" for b in tx.state.battles.values())
                and not combat.open_raids(tx.state)
                and not rocket_possible(tx.state, tx.state.power)):
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
    if order.phase is not None and order.phase != s.phase:
        raise WrongPhase(stale_end(s, order.phase))
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
    # After the phase's own checks, whose refusals say more (air without a landing, NC-7).
    if order.phase is None and not order.confirm:
        idle = idle_end(s)
        if idle is not None:
            raise IllegalOrder(idle)
    enter_phase(tx, _after(tx.state, s.phase))
    del dice


def stale_end(s: GameState, phase: str) -> str:
    """Why an ``end`` meant for ``phase`` is refused now that the game is elsewhere."""
    info = s.edition.phase_info
    meant = info[phase].name if phase in info else phase
    ids = s.edition.phase_ids
    if phase in ids and ids.index(phase) < ids.index(s.phase):
        return (f"{meant} has already ended; it is {_phase_name(s)} now. Nothing was ended: "
                f"'end' again to end {_phase_name(s)}.")
    return (f"It is {s.power}'s {_phase_name(s)} now, not {meant}: nothing was ended. "
            f"'end' again to end {_phase_name(s)}.")


def idle_end(s: GameState) -> str | None:
    """Why a bare ``end`` asks for ``end confirm``: it would pass an empty Purchase with money to
    spend, or an empty Noncombat Move while units can still move (a second ``end`` typed for the
    phase before is the usual cause). ``None`` when nothing would be passed over."""
    from rules import movement, tech

    p = s.power
    if s.phase == "purchase" and not any(s.purchase.values()):
        prices = [c for u in s.edition.units
                  if (c := tech.cost(s, p, u)) is not None and c > 0]
        money = s.treasury.get(p, 0)
        if prices and money >= min(prices):
            return (f"{p} has bought nothing and has {money} IPCs to spend. Buy with "
                    f"'buy <units>', or 'end confirm' to end {_phase_name(s)} without buying.")
    if s.phase == "noncombat_move" and not s.marks.moved_noncombat:
        able: dict[str, int] = {}
        for u in s.units.values():
            if (u.owner != p or u.combat_moved or u.fought or u.stopped
                    or u.carried_by is not None or movement.remaining(s, u) <= 0):
                continue
            able[u.space] = able.get(u.space, 0) + 1
        if able:
            where = sorted(able, key=lambda x: (-able[x], x))
            shown = ", ".join(f"{able[x]} in {x}" for x in where[:3])
            more = f" and {len(where) - 3} more spaces" if len(where) > 3 else ""
            n = sum(able.values())
            return (f"Nothing has moved in {_phase_name(s)} and {n} of {p}'s "
                    f"{'unit' if n == 1 else 'units'} can still move ({shown}{more}). Move "
                    f"them, or 'end confirm' to end {_phase_name(s)} without moving.")
    return None


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
                                         how="liberation", rule=s.edition.cite("LIB-2")))


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
# Weapons development (Classic R-TEC-01..06)

MAX_RESEARCH_DICE = 100  # per order: a typo guard far above any treasury of a real game


def decide_research(tx: Tx, order: od.Research, dice: Dice) -> None:
    """Buy research dice and roll them all; each breakthrough rolls for a development.

    One research order per turn: the rulebook buys the dice, then rolls them all (R-TEC-01/02),
    so a second purchase after seeing the dice is not allowed.
    """
    s = tx.state
    ed = s.edition
    p = order.power
    research = s.ruleset().research
    if research is None:
        raise IllegalOrder(
            f"{ed.rules.title} has no weapons development: there is nothing to research. "
            "Buy units with 'buy <units>' in the Purchase phase."
        )
    if s.phase != "research":
        phase = ed.phase_info["research"].name
        raise IllegalOrder(
            f"Research is done in {phase}, before buying units (§4.1, R-TEC-01); it is "
            f"{_phase_name(s)} now, so this turn's chance has passed. Research next turn."
        )
    if order.dice <= 0:
        raise InvalidOrder(f"Buy at least one research die, e.g. 'research 2' (not {order.dice}).")
    if order.dice > MAX_RESEARCH_DICE:
        raise InvalidOrder(
            f"{order.dice} research dice is more than one order may buy ({MAX_RESEARCH_DICE})."
        )
    if s.marks.researched:
        raise IllegalOrder(
            f"{p} has already rolled its research dice this turn: all of a turn's research dice "
            "are bought at once and rolled together (R-TEC-01/02). Use 'end' to go on to "
            "Purchase."
        )
    table = {t.die: t for t in research.technologies}
    have = set(s.techs.get(p, ()))
    left = [t for t in research.technologies if t.id not in have]
    if not left:
        raise IllegalOrder(
            f"{p} already has every weapons development: a breakthrough could only be wasted "
            "(R-TEC-04). Use 'end' to go on to Purchase."
        )
    cost = order.dice * research.die_cost
    money = s.treasury.get(p, 0)
    if cost > money:
        can = money // research.die_cost
        raise IllegalOrder(
            f"{order.dice} research dice cost {cost} IPCs ({research.die_cost} each); {p} has "
            f"{money}, enough for {can} (R-TEC-01: research dice are paid for in advance)."
        )
    purpose = f"research|{p}|round {s.round}"
    faces = tuple(dice.roll(order.dice, purpose))
    hits = sum(1 for f in faces if f == research.breakthrough)
    tx.emit(ev.ResearchRolled(power=p, dice=order.dice, cost=cost, rolls=((purpose, faces),),
                              breakthroughs=hits, wasted=max(0, hits - len(left))))
    for _ in range(min(hits, len(left))):
        owned = set(tx.state.techs.get(p, ()))
        dpurpose = f"development|{p}|round {s.round}"
        rolled: list[int] = []
        while True:  # R-TEC-04: re-roll a development already owned
            (f,) = dice.roll(1, dpurpose)
            rolled.append(f)
            found = table.get(f)
            if found is not None and found.id not in owned:
                break
        tx.emit(ev.TechnologyDeveloped(power=p, tech=found.id,
                                       rolls=((dpurpose, tuple(rolled)),),
                                       rule="R-TEC-04" if len(rolled) > 1 else "R-TEC-03"))


def _phase_name(s: GameState) -> str:
    return s.edition.phase_info[s.phase].name


# --------------------------------------------------------------------------------------------
# Rockets (Classic R-TEC table "Rockets", A-10)


def rocket_targets(s: GameState, power: str, frm: str) -> list[str]:
    """Enemy-owned industrial complexes within rocket range of ``frm`` (A-10)."""
    from rules import movement, tech

    ed = s.edition
    reach = tech.rocket_range(s, power)
    out = []
    for u in s.units.values():
        if not ed.units[u.type].abilities.factory or not s.enemy(u.owner, power):
            continue
        if movement.air_distance(ed, frm, u.space) <= reach:
            out.append(u.space)
    return sorted(set(out))


def rocket_sites(s: GameState, power: str) -> list[str]:
    """Territories holding an AA gun of ``power`` (where a rocket can be fired from)."""
    ed = s.edition
    return sorted({u.space for u in s.units.values()
                   if u.owner == power and ed.units[u.type].abilities.anti_air
                   and not ed.is_sea(u.space)})


def rocket_possible(s: GameState, power: str) -> bool:
    """The power may still fire this turn's rocket at something."""
    from rules import tech

    if not tech.has_rockets(s, power) or s.marks.rocket_fired:
        return False
    return any(rocket_targets(s, power, f) for f in rocket_sites(s, power))


def decide_rocket(tx: Tx, order: od.Rocket, dice: Dice) -> None:
    """Fire the turn's rocket: one die of damage to an enemy complex within range (A-10)."""
    from rules import tech

    s = tx.state
    ed = s.edition
    p = order.power
    for name in (order.frm, order.target):
        if name not in ed.spaces:
            raise InvalidOrder(f"Unknown space {name!r}.")
    if not tech.has_rockets(s, p):
        raise IllegalOrder(
            f"{p} has not developed Rockets: only a power with that weapons development may fire "
            "rockets (R-TEC-05, development table)."
        )
    if s.phase != "conduct_combat":
        phase = ed.phase_info["conduct_combat"].name
        raise IllegalOrder(
            f"Rockets are fired during {phase}, alongside bombing raids (A-10); it is "
            f"{_phase_name(s)} now."
        )
    if s.marks.rocket_fired:
        raise IllegalOrder(
            f"{p} has already fired its rocket this turn: one rocket attack per turn in all, "
            "whatever the number of AA guns (A-10)."
        )
    sites = rocket_sites(s, p)
    if order.frm not in sites:
        raise IllegalOrder(
            f"{p} has no antiaircraft gun in {order.frm} to fire a rocket from (A-10). "
            f"Its AA guns: {', '.join(sites) or 'none'}."
        )
    victim = next((u.owner for u in s.units_in(order.target)
                   if ed.units[u.type].abilities.factory), None)
    if ed.is_sea(order.target) or victim is None or not s.enemy(victim, p):
        raise IllegalOrder(
            f"{order.target} holds no enemy industrial complex: a rocket's target is an enemy "
            "industrial complex (R-TEC table, R-IC-04)."
        )
    targets = rocket_targets(s, p, order.frm)
    if order.target not in targets:
        from rules import movement

        d = movement.air_distance(ed, order.frm, order.target)
        far = f"{d} spaces" if d < 10**6 else "out of reach"
        raise IllegalOrder(
            f"{order.target} is {far} from {order.frm}; a rocket reaches "
            f"{tech.rocket_range(s, p)} spaces, counted as for aircraft (A-10). In range of "
            f"{order.frm}: {', '.join(targets) or 'no enemy complex'}."
        )
    purpose = f"rocket|{order.frm}|{order.target}|round {s.round}"
    faces = tuple(dice.roll(1, purpose))
    tx.emit(ev.RocketFired(power=p, frm=order.frm, target=order.target, victim=victim,
                           rolls=((purpose, faces),)))
    charge_damage(tx, victim, sum(faces), f"a rocket from {order.frm} at {order.target}", "A-10")


# --------------------------------------------------------------------------------------------
# Purchase (PU-1..PU-6)


def decide_purchase(tx: Tx, order: od.Buy | od.ClearPurchase) -> None:
    s = tx.state
    if isinstance(order, od.ClearPurchase):
        refund = purchase_cost(s, s.purchase, order.power)
        tx.emit(ev.PurchaseCleared(power=order.power, refund=refund))
        return
    ed = s.edition
    if not order.units:
        raise InvalidOrder("Name what to buy, e.g. 'buy 3 infantry, 1 tank'.")
    for u, n in order.units.items():
        ut = ed.units.get(u)
        if ut is None:
            raise InvalidOrder(f"Unknown unit {u!r}.")
        if ut.abilities.factory and ut.cost is not None and not s.ruleset().buy_factories:
            raise IllegalOrder(
                f"No {u} may be bought in this game (option O-5 'No New Complexes'): only the "
                "complexes on the board at the start are used."
            )
        if ut.cost is None:
            raise IllegalOrder(
                f"{u.capitalize()} cannot be bought in {ed.rules.title} ({ed.cite('PU-6')}: the "
                "Mobilization Zone chart lists what can be bought)."
            )
        if n <= 0:
            raise InvalidOrder(f"Counts must be positive: {n} {u}.")
    cost = purchase_cost(s, order.units, order.power)
    have = s.treasury[order.power]
    if cost > have:
        raise IllegalOrder(
            f"{fmt_units(order.units)} costs {cost} IPCs; {order.power} has {have} "
            f"({ed.cite('PU-2', 'PU-3')}: buy only what you can afford; the treasury never goes "
            "negative)."
        )
    tx.emit(ev.UnitsPurchased(power=order.power, units=dict(order.units), cost=cost))


def purchase_cost(s: GameState, units: dict[str, int], power: str | None = None) -> int:
    """What ``units`` cost ``power`` (the power whose turn it is by default), weapons
    developments included (Industrial Technology, R-TEC-05)."""
    from rules import tech

    who = power or s.power
    return sum((tech.cost(s, who, u) or 0) * n for u, n in units.items())


# --------------------------------------------------------------------------------------------
# Mobilize (MB-1..MB-9; Classic R-PLC-01..08)

UNLIMITED = 10**6  # production of an original complex in Classic (R-PLC-04)


def eligible_factories(s: GameState, power: str) -> list[str]:
    """Territories with a complex the power has controlled since the turn began (MB-1,
    R-PLC-01): never one conquered this turn, never an ally's (MN-7, R-PLC-07; a complex the
    power liberated while its ally's capital is enemy-held is the power's own, R-LIB-02)."""
    out = []
    for u in s.units.values():
        if not s.edition.units[u.type].abilities.factory:
            continue
        t = u.space
        if (s.owners.get(t) == power and s.turn_start_owners.get(t) == power
                and t not in s.captured_this_turn and t not in s.marks.new_factories):
            out.append(t)
    return sorted(set(out))


def factory_capacity(s: GameState, factory: str, power: str) -> int | None:
    """Units the complex in ``factory`` may place per turn; None: no limit.

    1941 (MB-2): the territory's value. Classic (R-PLC-04): a complex the power had at the
    start of the game (printed on the board in its own territory) is unlimited; a new or
    captured one takes the territory's value, at least ``min_factory_capacity`` (1).
    """
    ed = s.edition
    rs = s.ruleset()
    sp = ed.spaces[factory]
    if rs.original_factories_unlimited and sp.factory and sp.original_owner == power:
        return None
    return max(ed.value(factory), rs.min_factory_capacity)


def cap_left(s: GameState, factory: str) -> int:
    """Units the complex may still place this turn (MB-2, R-PLC-04; sea zones included, A-12)."""
    cap = factory_capacity(s, factory, s.power)
    if cap is None:
        return UNLIMITED
    return cap - s.placed.get(factory, 0)


def hostile_for_placement(s: GameState, zone: str, power: str) -> bool:
    """Classic R-PLC-02: new ships go only into a zone without enemy units (1941 MB-4: any)."""
    if s.ruleset().ships_into_hostile_zones:
        return False
    return any(s.enemy(u.owner, power) for u in s.units_in(zone))


def new_factory_sites(s: GameState, power: str) -> list[str]:
    """Where a new industrial complex may go (R-PLC-03): a territory the power has owned since
    the start of its turn (not conquered this turn) that has no complex yet."""
    ed = s.edition
    with_factory = {u.space for u in s.units.values() if ed.units[u.type].abilities.factory}
    return sorted(
        t for t, o in s.owners.items()
        if o == power and s.turn_start_owners.get(t) == power and t not in s.captured_this_turn
        and t not in with_factory
    )


def _aa_guns(s: GameState, space: str) -> int:
    return sum(1 for u in s.units_in(space) if s.edition.units[u.type].abilities.anti_air)


def decide_place(tx: Tx, order: od.Place) -> None:
    s = tx.state
    ed = s.edition
    rs = s.ruleset()
    p = order.power
    space = order.space
    if space not in ed.spaces:
        raise InvalidOrder(f"Unknown space {space!r}.")
    if not order.units:
        raise InvalidOrder("Name what to place, e.g. 'place 2 infantry in Germany'.")
    for u, n in order.units.items():
        if s.purchase.get(u, 0) < n:
            raise IllegalOrder(
                f"{p} has {s.purchase.get(u, 0)} {u} waiting to be placed, not {n} "
                f"({ed.cite('PU-4')}: only units bought this turn are placed). Waiting: "
                f"{fmt_units(s.purchase) or 'none'}."
            )
    if any(ed.units[u].abilities.factory for u in order.units):
        _place_factory(tx, order)
        return
    factories = eligible_factories(s, p)
    sea = ed.is_sea(space)
    if not sea:
        if space not in factories:
            raise IllegalOrder(
                f"{p} cannot place units in {space}: new units go only to territories with an "
                f"industrial complex {p} itself has controlled since the start of the turn, "
                f"never one taken this turn nor an ally's ({ed.cite('MB-1', 'MB-3', 'MN-7')}). "
                f"Eligible: {', '.join(factories) or 'none'}."
            )
        for u in order.units:
            if ed.units[u].domain == "sea":
                raise IllegalOrder(
                    f"{u} is a sea unit: place it in an adjacent sea zone ({ed.cite('MB-4')})."
                )
        aa = sum(n for u, n in order.units.items() if ed.units[u].abilities.anti_air)
        if rs.one_aa_gun_per_territory and aa and _aa_guns(s, space) + aa > 1:
            raise IllegalOrder(
                f"{space} would hold {_aa_guns(s, space) + aa} antiaircraft guns: at most one per "
                "territory (R-PLC-05). An AA gun with no territory left for it is lost at the "
                "end of the phase."
            )
        payers = [space]
    else:
        payers = [f for f in factories if space in ed.neighbours[f]]
        if not payers:
            raise IllegalOrder(
                f"{space} is not next to an industrial complex {p} may use "
                f"({ed.cite('MB-4')}). Eligible complexes: {', '.join(factories) or 'none'}."
            )
        for u in order.units:
            d = ed.units[u].domain
            if d == "land":
                raise IllegalOrder(
                    "Land units are placed only in a territory with an eligible complex, never "
                    f"onto transports ({ed.cite('MB-3')})."
                )
            if d == "air" and not rs.new_fighters_on_carriers:
                raise IllegalOrder(
                    f"New {u}s are never placed on aircraft carriers: place them in a territory "
                    f"with your industrial complex ({ed.cite('MB-5')}). "
                    f"Eligible: {', '.join(payers)}."
                )
            if d == "air" and not ed.units[u].abilities.carrier_landable:
                raise IllegalOrder(
                    f"{u} cannot land on carriers; place it in a territory ({ed.cite('UB-1')})."
                )
        if hostile_for_placement(s, space, p):
            raise IllegalOrder(
                f"{space} holds enemy units: new ships go only into sea zones with no enemy units "
                f"({ed.cite('MB-4')}). Units that cannot be placed are lost at the end of the "
                "phase (R-PLC-08)."
            )
    total = sum(order.units.values())
    payer = max(payers, key=lambda f: cap_left(s, f))
    if cap_left(s, payer) < total:
        least = rs.min_factory_capacity
        minimum = f", at least {least}" if least else ""
        raise IllegalOrder(
            f"{payer} can place {counted(max(cap_left(s, payer), 0), 'more unit', 'more units')} "
            "this turn: its "
            f"production is limited to its IPC value {ed.value(payer)}{minimum}, sea zones "
            f"next to it included ({ed.cite('MB-2')})."
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
                        f"No room for a new fighter in {space}: it needs a carrier of "
                        f"{possessive(p)} own "
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


def _place_factory(tx: Tx, order: od.Place) -> None:
    """A new industrial complex (R-PLC-03): in a territory owned since the start of the turn,
    one per territory; it produces from the power's next turn."""
    s = tx.state
    ed = s.edition
    p = order.power
    space = order.space
    kinds = [u for u in order.units if ed.units[u].abilities.factory]
    if len(order.units) > 1 or sum(order.units.values()) > 1:
        raise IllegalOrder(
            f"Place a new {kinds[0]} on its own, one per territory (R-PLC-03), e.g. "
            f"'place 1 {kinds[0]} in {space}'; other units are placed at complexes you already "
            "had at the start of the turn."
        )
    sites = new_factory_sites(s, p)
    if space not in sites:
        if ed.is_sea(space):
            why = "it is a sea zone"
        elif any(ed.units[u.type].abilities.factory for u in s.units_in(space)):
            why = "it already has one (one per territory)"
        elif s.owners.get(space) != p:
            why = f"{p} does not control it"
        else:
            why = f"{p} has not held it since the start of its turn"
        raise IllegalOrder(
            f"{p} cannot place a new {kinds[0]} in {space}: {why}. New complexes go in "
            "territories you have owned since the start of your turn, not conquered this turn, "
            "one per territory (R-PLC-03)."
        )
    tx.emit(ev.UnitsPlaced(power=p, space=space, units=((s.next_id, kinds[0], None),),
                           factory=space))


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
    demands = [z for z, n in per_zone.items() for _ in range(n)]
    # No complex needs more slots than there are carriers (unlimited ones, R-PLC-04).
    slots = [f for f, n in caps.items() for _ in range(max(min(n, len(demands)), 0))]
    owner: dict[int, int] = {}

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
        ed = s.edition
        lost = s.ruleset().unplaced_units == "lost"
        placeable = [u for u in s.purchase if _could_place(s, u)]
        if placeable and not confirm:
            fate = ("to give them up: units not placed are lost, without refund"
                    if lost else "to return them to the box with a refund")
            raise IllegalOrder(
                f"Still waiting to be placed: {fmt_units(s.purchase)}. Place them with "
                f"'place <units> in <space>', or 'end confirm' {fate} ({ed.cite('MB-9')})."
            )
        if lost:
            tx.emit(ev.PurchaseLost(power=s.power, units=dict(s.purchase),
                                    rule=ed.cite("MB-9")))
        else:
            amount = purchase_cost(s, s.purchase)
            tx.emit(ev.PurchaseRefunded(power=s.power, units=dict(s.purchase), amount=amount))
    movement.remove_unlanded_air(tx, final=True)


def _could_place(s: GameState, utype: str) -> bool:
    """Some placement of one ``utype`` is still open this phase (R-PLC-08 / MB-9 warn)."""
    ed = s.edition
    ut = ed.units[utype]
    p = s.power
    if ut.abilities.factory:
        return bool(new_factory_sites(s, p))
    for f in eligible_factories(s, p):
        if cap_left(s, f) <= 0:
            continue
        if ut.domain != "sea":
            if (ut.abilities.anti_air and s.ruleset().one_aa_gun_per_territory
                    and _aa_guns(s, f) >= 1):
                continue  # R-PLC-05
            return True
        if any(ed.is_sea(n) and not hostile_for_placement(s, n, p) for n in ed.neighbours[f]):
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
                               rule=s.edition.cite("IN-1") if not debt_paid else "R-INC-03"))




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
        rule = ed.cite("LIB-1")
    seized = 0
    seized_from: str | None = None
    cap_of = ed.spaces[space].capital_of
    if cap_of is not None and s.enemy(cap_of, by):
        seized = s.treasury[cap_of]  # CAP-1
        seized_from = cap_of
        rule = ed.cite("CAP-1")
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
                                         how="capital liberated", rule=s.edition.cite("CAP-3")))


def unit_list(units: list[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return out
