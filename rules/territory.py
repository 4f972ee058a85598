"""Control of territories: capture, liberation (LIB-1, LIB-2), capitals (CAP-1, CAP-3), and
damage a power pays to the bank, a debt when its treasury falls short (R-INC-03). Used by several
mechanisms; no orders of its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules import events as ev
from rules.messages import own_rule
from rules.state import GameState
from rules.turn import hooks
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def charge_damage(tx: Tx, power: str, amount: int, reason: str, rule: str) -> None:
    """``power`` pays ``amount`` to the bank; a shortfall becomes a debt, settled out of its
    next income (R-INC-03)."""
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
    # CC-3 / CO-1 (Europe 1940): AA guns are destroyed with the territory, never captured.
    guns = tuple(u.id for u in s.units_in(space) if u.carried_by is None and not
                 s.friendly(u.owner, by) and ed.units[u.type].abilities.aa_lost_on_capture)
    if guns:
        tx.emit(ev.UnitsRemoved(ids=guns, reason="destroyed on capture", rule=own_rule("CC-3")))
    taken = ev.TerritoryCaptured(space=space, by=by, previous=prev, owner=new_owner, how=how_,
                                 seized=seized, seized_from=seized_from, rule=rule)
    tx.emit(taken)
    if cap_of is not None and new_owner == cap_of and prev is not None and s.enemy(prev, cap_of):
        _liberate_capital(tx, cap_of)
    for after in hooks.capture_rules():
        after(tx, taken)


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



@reg.evolver(ev.TerritoryCaptured)
def _ev_captured(s: GameState, e: ev.TerritoryCaptured) -> GameState:
    owners = dict(s.owners)
    owners[e.space] = e.owner
    treasury = dict(s.treasury)
    if e.seized and e.seized_from:
        treasury[e.seized_from] -= e.seized
        treasury[e.by] += e.seized
    units = dict(s.units)
    for uid, u in s.units.items():
        ab = s.edition.units[u.type].abilities
        # Complexes, other facilities and antiaircraft guns change hands with their territory
        # (UL-4, FA-3, R-AAG-04); where enemy AA guns are destroyed instead (Europe 1940 CC-3),
        # those left are the captor's side's own, landed with the attack, and stay so.
        if u.space == e.space and u.carried_by is None and (
                ab.fixed or (ab.anti_air and not ab.aa_lost_on_capture)):
            units[uid] = replace(u, owner=e.owner)
    return replace(
        s,
        owners=owners,
        treasury=treasury,
        units=units,
        captured_this_turn=s.captured_this_turn | {e.space},
    )


@reg.evolver(ev.NeutralViolated)
def _ev_neutral(s: GameState, e: ev.NeutralViolated) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] -= e.fee
    return replace(s, treasury=treasury)


@reg.evolver(ev.DamagePaid)
def _ev_damage(s: GameState, e: ev.DamagePaid) -> GameState:
    treasury = dict(s.treasury)
    treasury[e.power] = treasury.get(e.power, 0) - e.paid
    debts = dict(s.debts)
    if e.debt:
        debts[e.power] = debts.get(e.power, 0) + e.debt
    return replace(s, treasury=treasury, debts=debts)


def add_debt(debts: dict[str, int], power: str, delta: int) -> dict[str, int]:
    if not delta:
        return debts
    out = dict(debts)
    out[power] = out.get(power, 0) + delta
    if out[power] <= 0:
        del out[power]
    return out
