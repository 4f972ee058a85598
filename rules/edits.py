"""Game-master edits (COMMANDS.md, Admin): fix a mistake by adding, removing or moving units,
setting a territory's owner or a power's treasury.

An edit is proposed by the game's owner and applied only once a player of the other side agrees
(``service.edits``); this module is the rules side: the typed ``EditChange``, its text form
(``format_edit``), and ``edit_event``, which checks the change against a state and computes the one
``EditApplied`` event that carries it out. An edit touches units, owners and money only: never a
die, a phase, a turn or a battle. Whatever would leave the state inconsistent is refused with the
reason (``IllegalOrder``):

- land units stand in territories their side controls; at sea they ride a friendly transport
  with room (UT-7); aircraft land in friendly territories or on a friendly carrier with room
  (UC-2); ships stay at sea;
- an industrial complex belongs to its territory's owner (UL-4), one per territory;
- a transport or carrier that carries something is not removed (remove its cargo first); moved,
  its cargo goes along;
- no edit touches a space with a battle in progress;
- a territory's new owner must be friendly to every unit standing there (complexes and AA guns
  change hands with it, as on a capture);
- a treasury is a whole number from 0 (PU-3).
Added units start undamaged and unmoved; moved units keep their damage and what they did this
turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules import events as ev
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.units import format_units
from rules.messages import catalogue, msg
from rules.state import GameState, Unit
from rules.words import possessive

EditAction = Literal["add", "remove", "move", "owner", "money"]
MAX_TREASURY = 9999


class EditChange(BaseModel):
    """One edit as typed: ``space`` is where (add), where from (remove, move) or the territory
    (owner); ``to`` where to (move); ``power`` whose units, the new owner, or whose treasury."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    action: EditAction
    units: dict[str, int] = Field(default_factory=dict)
    space: str = ""
    to: str = ""
    power: str = ""
    amount: int = 0


def _units_text(units: Mapping[str, int]) -> str:
    return format_units(units)


def format_edit(c: EditChange) -> str:
    """The canonical line of an edit, which parses back to the same change."""
    match c.action:
        case "add":
            text = f"edit add {_units_text(c.units)} in {c.space}"
            return text + (f" for {c.power}" if c.power else "")
        case "remove":
            text = f"edit remove {_units_text(c.units)} from {c.space}"
            return text + (f" of {c.power}" if c.power else "")
        case "move":
            text = f"edit move {_units_text(c.units)} from {c.space} to {c.to}"
            return text + (f" of {c.power}" if c.power else "")
        case "owner":
            return f"edit owner {c.space} {c.power}"
        case "money":
            return f"edit money {c.power} {c.amount}"
    raise InvalidOrder(msg("edits.unknown", action=c.action))


def complete(state: GameState, c: EditChange) -> EditChange:
    """The change with its power filled in where the text left it out, or why it cannot be.

    ``add`` without ``for``: the territory's owner. ``remove``/``move`` without ``of``: the one
    power with such units there."""
    if c.power:
        if c.power not in state.edition.powers:
            raise InvalidOrder(msg("edits.unknown_power", power=c.power))
        return c
    if c.action == "add":
        owner = state.owners.get(c.space) if not state.edition.is_sea(c.space) else None
        if owner is None:
            raise InvalidOrder(msg("edits.whose", line=format_edit(c)))
        return c.model_copy(update={"power": owner})
    if c.action in ("remove", "move"):
        holders = sorted({u.owner for u in state.units_in(c.space) if u.type in c.units})
        if len(holders) == 1:
            return c.model_copy(update={"power": holders[0]})
        if not holders:
            raise IllegalOrder(msg("edits.none_there", units=list(c.units), space=c.space,
                                   action=c.action))
        raise InvalidOrder(msg("edits.several", space=c.space, holders=holders,
                               line=format_edit(c)))
    raise InvalidOrder(msg("edits.name_power", line=format_edit(c)))


def edit_event(
    state: GameState,
    c: EditChange,
    *,
    proposal: int,
    proposer: str,
    agreed: str,
    agreed_for: Sequence[str] = (),
) -> ev.EditApplied:
    """The event that carries out ``c`` on ``state``; ``IllegalOrder`` says why it cannot."""
    if state.winner:
        raise IllegalOrder(msg("edits.over", side=state.winner))
    c = complete(state, c)
    base = ev.EditApplied(proposal=proposal, text=format_edit(c), proposer=proposer,
                          agreed=agreed, agreed_for=tuple(agreed_for))
    ed = state.edition
    for space in (c.space, c.to):
        if space and space not in ed.spaces:
            raise InvalidOrder(msg("edits.unknown_space", space=space))
        b = state.battles.get(space) if space else None
        if b is not None and b.step != "done":
            raise IllegalOrder(msg("edits.battle", space=space))
    for u in c.units:
        if u not in ed.units:
            raise InvalidOrder(msg("edits.unknown_unit", unit=u))
    match c.action:
        case "add":
            return base.model_copy(update={"added": tuple(_add(state, c))})
        case "remove":
            return base.model_copy(update={"removed": tuple(u.id for u in _pick(state, c))})
        case "move":
            return base.model_copy(update={"moved": tuple(_move(state, c))})
        case "owner":
            owners, reowned = _owner(state, c)
            return base.model_copy(update={"owners": owners, "reowned": reowned})
        case "money":
            if not 0 <= c.amount <= MAX_TREASURY:
                raise IllegalOrder(msg("edits.treasury", "PU-3", most=MAX_TREASURY,
                                       amount=c.amount))
            return base.model_copy(update={"treasury": ((c.power, c.amount),)})
    raise InvalidOrder(msg("edits.unknown", action=c.action))


# --------------------------------------------------------------------------------------------
# Where units may stand


def _land_ok(state: GameState, power: str, utype: str, space: str) -> None:
    """Refuse a unit of ``power`` standing in land territory ``space`` unless consistent."""
    ed = state.edition
    info = ed.spaces[space]
    ut = ed.units[utype]
    if ut.domain == "sea":
        raise IllegalOrder(msg("edits.ship_on_land", unit=utype, space=space))
    if info.impassable:
        raise IllegalOrder(msg("edits.impassable", "MAP-8", space=space))
    owner = state.owners.get(space)
    if owner is None:
        raise IllegalOrder(msg("edits.no_owner", space=space))
    if not state.friendly(owner, power):
        raise IllegalOrder(msg("edits.enemy_land", space=space, owner=owner, power=power))
    if ut.abilities.fixed and owner != power:
        raise IllegalOrder(msg("edits.complex_owner", "UL-4", unit=utype, owner=owner,
                               space=space, power=power))


def _berths(state: GameState, units: Iterable[Unit], power: str, space: str,
            extra: Sequence[Unit]) -> dict[int, int | None]:
    """A host for each unit going to sea zone ``space`` (``None`` for ships), or why not.

    Hosts are friendly transports/carriers already there or arriving in ``extra``; room counts
    what they carry already (UT-7, UC-2), as a position's cargo is placed."""
    ed = state.edition
    arriving = {x.id for x in extra}
    present = [u for u in state.units_in(space) if u.id not in arriving]
    hosts = [u for u in (*present, *extra) if ed.units[u.type].domain == "sea"]
    load: dict[int, int] = {}
    # What rides already: cargo staying aboard, and cargo travelling with its host.
    for u in (*(x for x in state.units.values() if x.id not in arriving), *extra):
        if u.carried_by is None:
            continue
        ut = ed.units[u.type]
        cost = ut.abilities.transport_cost if ut.domain == "land" else 1
        load[u.carried_by] = load.get(u.carried_by, 0) + cost
    out: dict[int, int | None] = {}
    # Larger cargo first, so that "1 tank, 1 infantry" fits one transport (UT-7).
    order = sorted(units, key=lambda u: (0 if ed.units[u.type].domain == "sea" else 1,
                                         -ed.units[u.type].abilities.transport_cost, u.id))
    for u in order:
        ut = ed.units[u.type]
        if ut.domain == "sea":
            out[u.id] = None
            continue
        if u.carried_by is not None and u.carried_by in arriving:
            out[u.id] = u.carried_by  # cargo travelling with its host
            continue
        found: int | None = None
        for h in hosts:
            ha = ed.units[h.type].abilities
            if not state.friendly(h.owner, power):
                continue
            if ut.domain == "land" and ha.transport_capacity:
                cost = ut.abilities.transport_cost
                cap = ha.transport_capacity
            elif ut.domain == "air" and ut.abilities.carrier_landable and ha.carrier_capacity:
                cost, cap = 1, ha.carrier_capacity
            else:
                continue
            if load.get(h.id, 0) + cost <= cap:
                found = h.id
                load[h.id] = load.get(h.id, 0) + cost
                break
        if found is None:
            raise IllegalOrder(msg("edits.no_room", "UT-7" if ut.domain == "land" else "UC-2",
                                   power=power, unit=u.type, space=space, domain=ut.domain))
        out[u.id] = found
    return out


def _place(state: GameState, units: Sequence[Unit], power: str, space: str,
           arriving: Sequence[Unit]) -> dict[int, int | None]:
    """Where each of ``units`` rides after arriving in ``space`` (None: on its own)."""
    ed = state.edition
    if ed.is_sea(space):
        return _berths(state, units, power, space, arriving)
    for u in units:
        _land_ok(state, power, u.type, space)
    factories = [u for u in units if ed.units[u.type].abilities.factory]
    if factories:
        have = any(ed.units[x.type].abilities.factory for x in state.units_in(space))
        if have or len(factories) > 1:
            raise IllegalOrder(msg("edits.one_complex", space=space))
    return {u.id: None for u in units}


def _add(state: GameState, c: EditChange) -> list[tuple[int, str, str, str, int | None]]:
    nid = state.next_id
    new: list[Unit] = []
    for utype, n in c.units.items():
        for _ in range(n):
            new.append(Unit(id=nid, type=utype, owner=c.power, space=c.space))
            nid += 1
    where = _place(state, new, c.power, c.space, new)
    return [(u.id, u.type, u.owner, u.space, where[u.id]) for u in new]


def _pick(state: GameState, c: EditChange) -> list[Unit]:
    """The units of ``c.power`` named in ``c.units`` in ``c.space``: unladen ones first."""
    cargo: dict[int, list[Unit]] = {}
    for u in state.units.values():
        if u.carried_by is not None:
            cargo.setdefault(u.carried_by, []).append(u)
    chosen: list[Unit] = []
    for utype, n in c.units.items():
        mine = sorted((u for u in state.units_in(c.space)
                       if u.owner == c.power and u.type == utype),
                      key=lambda u: (u.id in cargo, u.id))
        if len(mine) < n:
            raise IllegalOrder(msg("edits.too_few", power=c.power, have=len(mine), unit=utype,
                                   space=c.space, action=c.action, count=n))
        chosen += mine[:n]
    if c.action == "remove":
        going = {u.id for u in chosen}
        for u in chosen:
            left = [x for x in cargo.get(u.id, []) if x.id not in going]
            if left:
                counts: dict[str, int] = {}
                for x in left:
                    counts[x.type] = counts.get(x.type, 0) + 1
                raise IllegalOrder(msg("edits.carries", power=c.power, unit=u.type,
                                       space=c.space, cargo=counts))
    return chosen


def _move(state: GameState, c: EditChange) -> list[tuple[int, str, int | None]]:
    if not c.to:
        raise InvalidOrder(msg("edits.where_to"))
    if c.to == c.space:
        raise IllegalOrder(msg("edits.already_there", space=c.space))
    chosen = _pick(state, c)
    going = {u.id for u in chosen}
    riders = [u for u in state.units.values() if u.carried_by in going and u.id not in going]
    travelling = [*chosen, *riders]
    ed = state.edition
    if not ed.is_sea(c.to) and riders:
        raise IllegalOrder(msg("edits.ships_to_land", space=c.to))
    # Cargo taken off its ship leaves it: it rides whatever it finds at the destination.
    movers = [u if u.carried_by is None or u.carried_by in going or u in riders
              else replace(u, carried_by=None) for u in travelling]
    where = _place(state, movers, c.power, c.to, movers)
    return [(u.id, c.to, where[u.id]) for u in movers]


def _owner(
    state: GameState, c: EditChange
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[int, str], ...]]:
    ed = state.edition
    if ed.is_sea(c.space):
        raise IllegalOrder(msg("edits.sea_owner", space=c.space))
    if ed.spaces[c.space].impassable:
        raise IllegalOrder(msg("edits.impassable_owner", "MAP-8", space=c.space))
    if state.owners.get(c.space) == c.power:
        raise IllegalOrder(msg("edits.already_held", space=c.space, power=c.power))
    reowned: list[tuple[int, str]] = []
    for u in state.units_in(c.space):
        ab = ed.units[u.type].abilities
        if ab.fixed or ab.anti_air:
            reowned.append((u.id, c.power))  # they change hands with the territory (UL-4, FA-3)
        elif not state.friendly(u.owner, c.power):
            raise IllegalOrder(msg("edits.enemies_there", owner=u.owner, space=c.space,
                                   power=c.power))
    return ((c.space, c.power),), tuple(reowned)


__all__ = ["MAX_TREASURY", "EditChange", "complete", "edit_event", "format_edit"]


def _too_few(p: Mapping[str, Any]) -> str:
    have = f"only {p['have']}" if p["have"] else "no"
    return (f"{p['power']} has {have} {p['unit']} in {p['space']}; cannot {p['action']} "
            f"{p['count']}.")


catalogue("en", "edits", {
    "unknown": "Unknown edit {action!r}.",
    "unknown_power": "Unknown power {power!r}.",
    "whose": "Say whose units these are: '{line} for <power>'.",
    "none_there": "No {units:join: or } in {space} to {action}.",
    "several": "Several powers have such units in {space} ({holders:join}): say whose, "
               "'{line} of <power>'.",
    "name_power": "Name the power: '{line}'.",
    "over": "The game is over: the {side} won. Nothing to edit.",
    "unknown_space": "Unknown space {space!r}.",
    "battle": "A battle is in progress in {space}: finish it before editing there.",
    "unknown_unit": "Unknown unit {unit!r}.",
    "treasury": "A treasury is a whole number from 0 to {most} ({rule}), not {amount}.",
    "ship_on_land": "A {unit} is a ship; {space} is a land territory.",
    "impassable": "{space} is impassable; no unit may stand there ({rule}).",
    "no_owner": "{space} belongs to no power: set its owner first ('edit owner {space} "
                "<power>').",
    "enemy_land": "{space} is held by {owner}, an enemy of {power}: units stand only where their "
                  "side holds the territory (set its owner first with 'edit owner {space} "
                  "{power}').",
    "complex_owner": "An {unit} belongs to its territory's owner ({owner} in {space}), not "
                     "{power} ({rule}).",
    "no_room": lambda p: (
        f"No room for {possessive(p['power'])} {p['unit']} in {p['space']}: at sea it needs a "
        f"friendly {'transport' if p['domain'] == 'land' else 'aircraft carrier'} there with "
        f"room ({p['rule']}). Add or move one first."),
    "one_complex": "{space} can hold one industrial complex only.",
    "too_few": _too_few,
    "carries": "{power:possessive} {unit} in {space} carries {cargo:units}: remove or move that "
               "cargo first (or remove it in the same edit).",
    "where_to": "Say where to: 'edit move <units> from <space> to <space>'.",
    "already_there": "The units are already in {space}.",
    "ships_to_land": "Ships cannot go to {space}, a land territory.",
    "sea_owner": "{space} is a sea zone: only land territories have owners.",
    "impassable_owner": "{space} is impassable; it cannot be owned ({rule}).",
    "already_held": "{space} is already held by {power}.",
    "enemies_there": "{owner:possessive} units stand in {space}, enemies of {power}: remove or "
                     "move them first.",
})
