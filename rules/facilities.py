"""Facilities (Europe 1940 §15, FA-1..FA-5) as the shared rules see them: their damage, whether
one is operational, what a complex produces (MO-2), the bases' movement bonuses (CM-21, CM-22),
where a new one may go (MO-6, FA-4) and what becomes of a major complex that is captured
(CO-4). Queries, the damage event and its fold; the orders (repair, the complex upgrade) and free
ship repair are in ``rules.mechanisms.facilities``.

Facility damage is a part of the state (``FacilityDamage``), not a field of the facility pieces:

- a facility holds up to 20 markers, where ``Unit.damage`` counts the hits a two-hit unit
  carries and positions write it under ``damaged`` as a count of damaged units;
- the markers are kept per territory and facility type, exactly as the position key ``damage``
  gives them (``{"Germany": {"major industrial complex": 3}}``), and stay with the territory when
  its facilities change hands (CO-4: damage stays until repaired), whatever becomes of the
  pieces;
- an edition whose raids do not damage facilities (``takes_damage``: 1941, Classic) keeps the
  part empty, refuses the key and never prints it.

For the bombing raids: ``add_damage(tx, territory, facility, markers, rule)`` adds markers up to
the facility's cap (BR-10: the rest is lost) with one ``FacilityDamaged`` event and returns the
markers added; ``facility_damage`` and ``operational`` read the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules.edition import Edition, RuleSet
from rules.errors import InvalidOrder
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import PartKey, Written
from rules.state import GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx

Base = Literal["air_base", "naval_base"]

# --------------------------------------------------------------------------------------------
# The part of the state: damage markers per territory and facility type


def takes_damage(rules: RuleSet) -> bool:
    """Facilities carry damage markers (FA-5): where raids damage facilities, not the owner's
    treasury (``RuleSet.raid_damage`` "facilities", BR-9), and are repaired (PU-3)."""
    return rules.raid_damage == "facilities"


@dataclass(frozen=True, slots=True)
class FacilityDamage:
    """Damage markers on facilities (FA-5): ``(territory, facility type, markers)``, sorted,
    markers at least 1 and at most the type's cap (BR-10)."""

    markers: tuple[tuple[str, str, int], ...] = ()


def facility_damage(s: GameState, territory: str, facility: str) -> int:
    """The damage markers on the ``facility`` (a unit type's data name, 'major industrial
    complex') in ``territory``: 0 when it has none, or there is no such facility."""
    for t, f, n in s.part(FacilityDamage).markers:
        if t == territory and f == facility:
            return n
    return 0


def damage_table(s: GameState) -> dict[str, dict[str, int]]:
    """Every damaged facility: territory → facility type → markers."""
    out: dict[str, dict[str, int]] = {}
    for t, f, n in s.part(FacilityDamage).markers:
        out.setdefault(t, {})[f] = n
    return out


def with_damage(s: GameState, territory: str, facility: str, markers: int) -> GameState:
    """``s`` with exactly ``markers`` on that facility (0: none). Unchecked (a fold's helper)."""
    rest = [m for m in s.part(FacilityDamage).markers if (m[0], m[1]) != (territory, facility)]
    if markers > 0:
        rest.append((territory, facility, markers))
    return s.with_part(FacilityDamage(markers=tuple(sorted(rest))))


# --------------------------------------------------------------------------------------------
# The facilities on the board


def fixed(ed: Edition, unit_type: str) -> bool:
    """A piece that never moves, fights nor is lost, and changes hands with its territory: an
    industrial complex (UL-4) or another facility (FA-1, FA-3)."""
    ab = ed.units[unit_type].abilities
    return ab.factory or ab.facility


def pieces(s: GameState, territory: str) -> list[Unit]:
    """The facilities in ``territory`` (complexes included), in id order."""
    ed = s.edition
    return sorted((u for u in s.units_in(territory) if fixed(ed, u.type)), key=lambda u: u.id)


def piece(s: GameState, territory: str, facility: str) -> Unit | None:
    """The ``facility`` in ``territory``, if it has one."""
    return next((u for u in pieces(s, territory) if u.type == facility), None)


def complex_in(s: GameState, territory: str) -> Unit | None:
    """The industrial complex in ``territory``, if it has one."""
    ed = s.edition
    return next((u for u in pieces(s, territory) if ed.units[u.type].abilities.factory), None)


def damage_cap(ed: Edition, facility: str) -> int:
    """The most markers the facility type holds (BR-10, FA-5); 0: it takes no damage."""
    return ed.units[facility].abilities.max_damage


def limit(ed: Edition, facility: str) -> int:
    """The damage from which the facility no longer works (0: never): a base's ``inoperative_at``
    (§15.3, §15.4, A-9: 3), a complex's production (MO-2: it produces nothing)."""
    ab = ed.units[facility].abilities
    return ab.inoperative_at or ab.production


def operational(s: GameState, territory: str, facility: str) -> bool:
    """``territory`` has the ``facility`` and its damage is below the limit at which it stops
    working (MO-2 complexes, §15.3/§15.4 bases: 3)."""
    if piece(s, territory, facility) is None:
        return False
    stop = limit(s.edition, facility)
    return stop == 0 or facility_damage(s, territory, facility) < stop


def production(s: GameState, territory: str) -> tuple[str, int, int] | None:
    """The complex in ``territory`` with a production of its own (MO-2: major 10, minor 3), as
    (its type, its production, its damage); None where the complex produces by the territory's
    value (1941 MB-2, Classic R-PLC-04) or there is none."""
    c = complex_in(s, territory)
    if c is None:
        return None
    made = s.edition.units[c.type].abilities.production
    if not made:
        return None
    return c.type, made, facility_damage(s, territory, c.type)


# --------------------------------------------------------------------------------------------
# Damage: the raids add it (BR-9, BR-10)


class FacilityDamaged(ev.Event):
    """Damage markers put on a facility (BR-9), up to its cap (BR-10): ``markers`` asked,
    ``added`` of them placed, ``total`` on it now."""

    type: Literal["FacilityDamaged"] = "FacilityDamaged"
    space: str
    facility: str
    owner: str | None
    markers: int
    added: int
    total: int
    cap: int
    rule: str = ""


def add_damage(tx: Tx, territory: str, facility: str, markers: int,
               rule: str = own_rule("BR-10")) -> int:
    """Put ``markers`` damage on the ``facility`` in ``territory``, up to its cap (BR-10: what
    is beyond it is lost), with one ``FacilityDamaged`` event; returns the markers added.

    Unchecked beyond the cap: the raid has checked its target. Nothing is emitted for 0 markers;
    a facility at its cap still gets the event (0 added), so that the log says so."""
    s = tx.state
    if markers <= 0:
        return 0
    p = piece(s, territory, facility)
    have = facility_damage(s, territory, facility)
    total = min(have + markers, damage_cap(s.edition, facility))
    tx.emit(FacilityDamaged(space=territory, facility=facility,
                            owner=p.owner if p else s.owners.get(territory), markers=markers,
                            added=max(total - have, 0), total=max(total, have),
                            cap=damage_cap(s.edition, facility), rule=rule))
    return max(total - have, 0)


@reg.evolver(FacilityDamaged)
def _ev_damaged(s: GameState, e: FacilityDamaged) -> GameState:
    return with_damage(s, e.space, e.facility, e.total)


@reg.words(FacilityDamaged)
def _damaged_words(s: GameState, e: FacilityDamaged) -> Msg:
    return msg("facilities.damaged", e.rule, owner=e.owner, facility=e.facility, space=e.space,
               added=e.added, lost=e.markers - e.added, total=e.total, cap=e.cap)


# --------------------------------------------------------------------------------------------
# Capture (CO-4): a major complex taken becomes a minor one at once, damage above its cap removed


class ComplexDowngraded(ev.Event):
    """A captured major complex becomes a minor one (CO-4, §15.2): the piece changes type and
    the damage beyond the minor's cap is removed."""

    type: Literal["ComplexDowngraded"] = "ComplexDowngraded"
    space: str
    unit: int
    frm: str
    to: str
    damage: int  # on it now
    removed: int = 0
    rule: str = own_rule("CO-4")


@hooks.captured
def captured(tx: Tx, e: ev.TerritoryCaptured) -> None:
    """What a capture does to the territory's facilities (after a capture or a liberation,
    ``rules.territory.capture``): a facility taken from the other side (or a neutral) whose type
    says ``captured_as`` becomes that type (CO-4: major → minor), keeping the damage up to the
    new type's cap. A territory passing between allies (liberation settled, CAP-3) keeps its
    facilities as they are: the downgrade happened when the enemy took it (LI-1)."""
    s = tx.state
    ed = s.edition
    if e.previous is not None and s.friendly(e.previous, e.owner):
        return
    for u in pieces(s, e.space):
        to = ed.units[u.type].abilities.captured_as
        if not to:
            continue
        have = facility_damage(s, e.space, u.type)
        kept = min(have, damage_cap(ed, to))
        tx.emit(ComplexDowngraded(space=e.space, unit=u.id, frm=u.type, to=to, damage=kept,
                                  removed=have - kept))


@reg.evolver(ComplexDowngraded)
def _ev_downgraded(s: GameState, e: ComplexDowngraded) -> GameState:
    u = s.units[e.unit]
    s = replace(s, units=s.with_units([replace(u, type=e.to)]))
    return with_damage(with_damage(s, e.space, e.frm, 0), e.space, e.to, e.damage)


@reg.words(ComplexDowngraded)
def _downgraded_words(s: GameState, e: ComplexDowngraded) -> Msg:
    return msg("facilities.downgraded", e.rule, space=e.space, frm=e.frm, to=e.to,
               removed=e.removed, damage=e.damage)


# --------------------------------------------------------------------------------------------
# Bases: the movement bonuses (CM-21, CM-22, §15.3, §15.4)


@cache
def _has_bases(ed: Edition) -> bool:
    return any(u.abilities.air_base or u.abilities.naval_base for u in ed.units.values())


def base_serves(s: GameState, territory: str, kind: Base, power: str) -> bool:
    """``territory`` has an operational base of ``kind`` that serves ``power``: its owner's or a
    friendly power's (both at war with someone: a power at war with nobody uses no other power's
    base, nor another power its, NW-3, A-16), not captured this turn (CO-4, A-22)."""
    ed = s.edition
    if territory in s.captured_this_turn:
        return False
    for u in pieces(s, territory):
        if not getattr(ed.units[u.type].abilities, kind):
            continue
        if not operational(s, territory, u.type):
            continue
        if u.owner == power or (s.friendly(u.owner, power) and _at_war(s, u.owner)
                                and _at_war(s, power)):
            return True
    return False


def _at_war(s: GameState, power: str) -> bool:
    return any(s.enemy(power, p) for p in s.edition.powers)


def move_bonus(s: GameState, u: Unit) -> int:
    """Extra movement this turn from a base (``rules.board.full_move``): +1 for an air unit
    that took off from a territory with an operational air base (CM-21; planes that start on a
    carrier get nothing), +1 for a ship that started in a sea zone next to a territory with an
    operational naval base friendly to it (CM-22, §15.4)."""
    ed = s.edition
    if not _has_bases(ed):
        return 0
    start = u.start or u.space
    domain = ed.units[u.type].domain
    if domain == "air":
        return 1 if not ed.is_sea(start) and base_serves(s, start, "air_base", u.owner) else 0
    if domain == "sea" and ed.is_sea(start):
        return 1 if any(not ed.is_sea(t) and base_serves(s, t, "naval_base", u.owner)
                        for t in ed.neighbours[start]) else 0
    return 0


# --------------------------------------------------------------------------------------------
# Where a new facility goes (MO-6, FA-4, §15.2-§15.4)


def site_problem(s: GameState, power: str, facility: str, space: str) -> Msg | None:
    """Why ``power`` may not place a new ``facility`` (or the complex upgrade) in ``space`` now,
    or None: in a territory it has held since the start of its turn, one facility of each kind
    per territory (MO-6, FA-4), the type's own conditions (value, original owner, islands, a
    coast: MO-6, A-12, A-13, AN-1); an upgrade needs the power's own undamaged minor complex
    there (§15.2)."""
    ed = s.edition
    ab = ed.units[facility].abilities
    sp = ed.spaces[space]
    if ed.is_sea(space):
        return msg("mobilize.site_at_sea")
    if not ab.upgrades and any(u.type == facility or (ab.factory and ed.units[u.type].abilities
                                                      .factory) for u in pieces(s, space)):
        return msg("mobilize.site_has_one")
    if s.owners.get(space) != power:
        return msg("mobilize.site_not_owned", power=power)
    if s.turn_start_owners.get(space) != power or space in s.captured_this_turn:
        return msg("mobilize.site_not_held", power=power)
    if ab.upgrades:
        c = complex_in(s, space)
        if c is None or c.type != ab.upgrades[0] or c.owner != power:
            return msg("facilities.site_no_minor", frm=ab.upgrades[0])
    if ab.not_on_islands and sp.island:
        return msg("facilities.site_island")
    if ab.min_value and ed.value(space) < ab.min_value:
        return msg("facilities.site_value", value=ed.value(space), least=ab.min_value)
    if ab.original_territory_only and sp.original_owner != power:
        if sp.original_owner is None:
            return msg("facilities.site_former_neutral")
        return msg("facilities.site_not_original", power=power, owner=sp.original_owner)
    if ab.coastal_only and not any(ed.is_sea(n) for n in ed.neighbours[space]):
        return msg("facilities.site_inland")
    if ab.upgrades:
        have = facility_damage(s, space, ab.upgrades[0])
        if have:
            return msg("facilities.site_damaged", frm=ab.upgrades[0], damage=have)
    return None


def sites(s: GameState, power: str, facility: str) -> list[str]:
    """Where ``power`` may place a new ``facility`` now (``site_problem`` is None), sorted."""
    return sorted(t for t, o in s.owners.items()
                  if o == power and site_problem(s, power, facility, t) is None)


# --------------------------------------------------------------------------------------------
# The position key 'damage' (COMMANDS.md): territory → facility → markers


def _read_damage(ed: Edition, value: Any) -> dict[str, dict[str, int]]:
    from rules.language.names import names_for

    if not takes_damage(ed.rules.rules):
        raise InvalidOrder(msg("facilities.position_none", edition=ed.rules.title))
    if not isinstance(value, Mapping):
        raise InvalidOrder(msg("facilities.position_object"))
    names = names_for(ed.id)
    out: dict[str, dict[str, int]] = {}
    for t_text, by_type in value.items():
        t = names.resolve("space", str(t_text))
        if ed.is_sea(t):
            raise InvalidOrder(msg("facilities.position_sea", space=t))
        if not isinstance(by_type, Mapping):
            raise InvalidOrder(msg("facilities.position_object"))
        for f_text, n in by_type.items():
            f = names.resolve("unit", str(f_text))
            cap = damage_cap(ed, f)
            if not cap:
                raise InvalidOrder(msg("facilities.position_not_facility", unit=f))
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= cap:
                raise InvalidOrder(msg("facilities.position_count", space=t,
                                       facility=f, count=n, cap=cap))
            if n:
                out.setdefault(t, {})[f] = n
    return out


def _build_damage(ed: Edition, part: FacilityDamage, value: dict[str, dict[str, int]]
                  ) -> FacilityDamage:
    return FacilityDamage(markers=tuple(sorted((t, f, n) for t, by in value.items()
                                               for f, n in by.items())))


def _check_damage(s: GameState) -> None:
    for t, f, _n in s.part(FacilityDamage).markers:
        if piece(s, t, f) is None:
            raise InvalidOrder(msg("facilities.position_missing", space=t, facility=f))


def _write_damage(s: GameState) -> dict[str, dict[str, int]] | None:
    if not takes_damage(s.edition.rules.rules):
        return None
    order = {name: i for i, name in enumerate(s.edition.spaces)}
    table = damage_table(s)
    return {t: dict(sorted(table[t].items())) for t in sorted(table, key=order.__getitem__)}


reg.part(FacilityDamage, key="damage", per_turn=False,
         position={"markers": Written(("damage",))},
         keys=[PartKey("damage", _read_damage, _build_damage, _write_damage, _check_damage)])


# --------------------------------------------------------------------------------------------
# Words

catalogue("en", "facilities", {
    "damaged": lambda p: (
        f"{p['owner'] + chr(39) + 's ' if p['owner'] else ''}{p['facility']} in {p['space']} "
        f"takes {p['added']} damage (now {p['total']}"
        + (f"; {p['lost']} beyond its cap of {p['cap']} lost" if p["lost"] else "")
        + f", {p['rule']})."),
    "downgraded": lambda p: (
        f"The {p['frm']} in {p['space']} is captured and becomes a {p['to']}"
        + (f"; {p['removed']} damage beyond its cap removed, {p['damage']} left"
           if p["removed"] else "") + f" ({p['rule']})."),
    "site": "{power} cannot place a {unit} in {space}: {why}. Facilities go in territories you "
            "have held since the start of your turn, never one taken this turn, one of each kind "
            "per territory ({rule}).",
    "site_no_minor": "there is no {frm} of yours to upgrade",
    "site_value": "it is worth {value:ipcs}; this needs a territory worth at least {least:ipcs}",
    "site_former_neutral": "it was neutral at the start: it has no original owner ("
                           + own_rule("AN-1") + ")",
    "site_not_original": "it is originally {owner:possessive}, not {power:possessive} ("
                         + own_rule("A-13") + ")",
    "site_island": "it is an island",
    "site_inland": "it has no coast",
    "site_damaged": "its {frm} has {damage} damage: repair it all first, in Purchase & Repair",
    "position_none": "Position damage: {edition} has no damage on facilities; leave 'damage' "
                     "out.",
    "position_object": 'Position damage: an object territory → facility → markers, e.g. '
                       '{{"Germany": {{"major industrial complex": 3}}}}.',
    "position_sea": "Position damage: {space} is a sea zone; facilities are in territories.",
    "position_not_facility": "Position damage: a {unit} takes no damage markers; only "
                             "facilities do.",
    "position_count": "Position damage: {count!r} on the {facility} in {space} (a whole number "
                      "from 0 to its cap, {cap}).",
    "position_missing": "Position damage: {space} has no {facility} to be damaged.",
})
