"""Neutral territories (Europe 1940 §6: NT-1..NT-3, FN-1..FN-3, UN-1..UN-5, SN-1, SN-2, AN-1;
CM-3, CM-10, NC-4, NC-5, LI-3; the referee's checklist §22.2).

Where an edition's map gives its neutral territories an alignment (``MapData.neutrals``:
strict, pro-Axis or pro-Allied, and the infantry printed there), this mechanism governs them in
place of the shared rules' own (impassable, 1941 MAP-8; violated for a fee, Classic R-NEU-02),
through ``rules.turn.hooks.neutral_rules``:

- a *friendly* neutral (of the mover's side) is never attacked nor flown over, and no aircraft
  lands there (FN-1, CM-10, NC-5); land units of a power at war move into it, not through it,
  in Noncombat Move (FN-2, NC-4): the first that can capture takes it, with its value, and its
  printed army becomes that power's infantry, which moves from its next turn (FN-3);
- an *unfriendly* or *strict* neutral is entered only as an attack (UN-1, SN-1), flown over
  only by aircraft attacking it (UN-2, CM-10). Invaded, it joins the side opposing the
  attacker and its army is placed at once (UN-3); an attack on a strict neutral turns every
  other strict neutral to that side (SN-2). Taken, it is the conqueror's, with its value (UN-4);
  if the attack fails, the survivors stay, frozen, the territory uncontrolled and friendly to
  the side it joined, whose powers may walk in as into a friendly neutral (UN-5, A-18);
- each neutral stands alone, and war is never declared on one (NT-3); once a power holds it,
  it is an ordinary territory without an original owner: captured, never liberated (AN-1,
  LI-3; ``former_neutral`` tells the facilities it may never hold a major complex).

How a neutral's army is held. While the neutral stands, its army belongs to no power: it is a
count in this mechanism's part of the state (``Neutrals.armies``, the printed army unless it
changed), written in positions under ``"neutral"`` in ``units`` (``rules.position.Holder``), so
that no power's rule (income, movement, war) ever sees it. When a power invades the neutral
(UN-3), the army is placed on the board as units of the *seat*: the first power after the
attacker in turn order that is at war with it (best reading of "a player of the defending side
is chosen to control it"; such a power exists, as only powers at war move to attack, NW-5).
The battle, its casualties, the referee's defaults and the words then treat them as that
power's defenders; ``Invasions`` keeps them apart (positions write them as the neutral's army,
and they never move: they are on the board only during the attacker's turn). When Conduct Combat
ends, the survivors of a failed attack become the neutral's army again, and the territory keeps
the failed attack's marker (UN-5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from rules import board, territory
from rules import events as ev
from rules import orders as od
from rules.edition import Edition
from rules.errors import IllegalOrder, InvalidOrder
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import Derived, Holder, PartKey, Written, holder
from rules.state import GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import unit_list

if TYPE_CHECKING:
    from rules.turn.tx import Tx

COMBAT = board.COMBAT
NONCOMBAT = board.NONCOMBAT
CONDUCT = "conduct_combat"

Alignment = Literal["strict", "pro_axis", "pro_allied"]
ALIGNMENTS: tuple[str, ...] = ("strict", "pro_axis", "pro_allied")
ARMY = "infantry"  # NT-2: the printed army is infantry
HOLDER = "neutral"  # its name in a position's 'units' (COMMANDS.md)

Army = tuple[tuple[str, int], ...]  # unit type -> count, sorted


# --------------------------------------------------------------------------------------------
# The edition's neutrals (data)


@lru_cache(maxsize=32)
def printed(ed: Edition) -> dict[str, tuple[str, Army]]:
    """The edition's neutral territories: territory -> (alignment, army) as printed (NT-1,
    NT-2); empty where the edition has no aligned neutrals. (Read only: cached.)"""
    return {t: (info.alignment, ((ARMY, info.army),) if info.army else ())
            for t, info in ed.map.neutrals.items()}


def governs(s: GameState) -> bool:
    """This mechanism governs the game's neutrals: its edition's map gives their alignments."""
    return bool(printed(s.edition))


def side_of(ed: Edition, alignment: str) -> str | None:
    """The side a neutral of this alignment is friendly to (None: strict, NT-1, §6.2)."""
    want = {"pro_axis": "axis", "pro_allied": "allies"}.get(alignment)
    return next((x for x in ed.rules.sides if x.casefold() == want), None)


def alignment_of(ed: Edition, side: str) -> str:
    """The alignment of a neutral friendly to ``side``."""
    return next(a for a in ALIGNMENTS if side_of(ed, a) == side)


def former_neutral(where: GameState | Edition, space: str) -> bool:
    """``space`` is one of the edition's neutral territories, whoever holds it now: taken, it
    has no original owner, is captured and never liberated, and may never hold a major
    industrial complex (AN-1, LI-3, §15)."""
    ed = where.edition if isinstance(where, GameState) else where
    return space in printed(ed)


def standing(s: GameState, space: str) -> bool:
    """``space`` is a neutral that still stands: one of the edition's, held by nobody."""
    return space in printed(s.edition) and s.owners.get(space) is None


def alignment(s: GameState, space: str) -> str:
    """The neutral's alignment now (NT-1; UN-3 and SN-2 change it)."""
    changed = dict(s.part(Neutrals).alignment)
    return changed.get(space) or printed(s.edition)[space][0]


def friendly_to(s: GameState, space: str, power: str) -> bool:
    """The neutral sympathises with ``power``'s side (§6.2): a friendly neutral to it."""
    return side_of(s.edition, alignment(s, space)) == s.side(power)


def army(s: GameState, space: str) -> dict[str, int]:
    """The neutral's army waiting to be placed (NT-2): printed, or what is left of it."""
    changed = dict(s.part(Neutrals).armies)
    got = changed[space] if space in changed else printed(s.edition)[space][1]
    return dict(got)


def seat(s: GameState, attacker: str) -> str | None:
    """Who runs a neutral's army against ``attacker`` (UN-3): the first power after it in turn
    order that is at war with it (best reading: "a player of the defending side is chosen")."""
    order = s.edition.turn_order
    i = order.index(attacker)
    return next((p for p in (*order[i + 1:], *order[:i]) if s.enemy(p, attacker)), None)


def _army_tuple(units: Mapping[str, int]) -> Army:
    return tuple(sorted((u, n) for u, n in units.items() if n))


# --------------------------------------------------------------------------------------------
# The parts of the state


@dataclass(frozen=True, slots=True)
class Neutrals:
    """The neutrals' part of the state: what changed since the edition's setup."""

    # territory -> alignment, where it is no longer the printed one (UN-3, SN-2)
    alignment: tuple[tuple[str, str], ...] = ()
    # territory -> its army waiting to be placed, where it is no longer the printed one
    armies: tuple[tuple[str, Army], ...] = ()
    # territories where an attack failed: uncontrolled, friendly to the side they joined (UN-5)
    failed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Invasions:
    """The neutrals invaded this turn (UN-3): territory -> the ids of its army on the board,
    run by the seat and kept apart from every power's units. Reset each turn."""

    placed: tuple[tuple[str, tuple[int, ...]], ...] = ()


def _set(pairs: Iterable[tuple[str, Any]], key: str, value: Any) -> tuple[tuple[str, Any], ...]:
    d = dict(pairs)
    d[key] = value
    return tuple(sorted(d.items()))


def _with_alignment(s: GameState, changes: Mapping[str, str]) -> Neutrals:
    part = s.part(Neutrals)
    d = dict(part.alignment)
    for t, a in changes.items():
        if a == printed(s.edition)[t][0]:
            d.pop(t, None)
        else:
            d[t] = a
    return replace(part, alignment=tuple(sorted(d.items())))


def _with_army(ed: Edition, part: Neutrals, space: str, units: Mapping[str, int]) -> Neutrals:
    got = _army_tuple(units)
    d = dict(part.armies)
    if got == printed(ed)[space][1]:
        d.pop(space, None)
    else:
        d[space] = got
    return replace(part, armies=tuple(sorted(d.items())))


def placed_armies(s: GameState) -> list[int]:
    """Ids of invaded neutrals' armies on the board (UN-3)."""
    return [i for _, ids in s.part(Invasions).placed for i in ids if i in s.units]


# --------------------------------------------------------------------------------------------
# Positions: 'neutrals', 'failed_attacks' and the "neutral" armies in 'units' (COMMANDS.md)


def _names(ed: Edition) -> Any:
    from rules.language.names import names_for

    return names_for(ed.id)


def _a_neutral(ed: Edition, text: Any, key: str) -> str:
    if not isinstance(text, str):
        raise InvalidOrder(msg("neutrals.position_name", key=key, text=text))
    t = _names(ed).resolve("space", text)
    if t not in printed(ed):
        raise InvalidOrder(msg("neutrals.position_not_neutral", key=key, space=t,
                               neutrals=sorted(printed(ed))))
    return str(t)


def _no_neutrals(ed: Edition, key: str) -> None:
    if not printed(ed):
        raise InvalidOrder(msg("neutrals.position_none", key=key, edition=ed.rules.title))


def _read_alignments(ed: Edition, value: Any) -> dict[str, str]:
    _no_neutrals(ed, "neutrals")
    if not isinstance(value, dict):
        raise InvalidOrder(msg("neutrals.position_alignments"))
    out: dict[str, str] = {}
    for k, a in value.items():
        t = _a_neutral(ed, k, "neutrals")
        if a not in ALIGNMENTS:
            raise InvalidOrder(msg("neutrals.position_alignment", space=t, value=a,
                                   alignments=ALIGNMENTS))
        out[t] = a
    return dict(sorted(out.items()))


def _build_alignments(ed: Edition, part: Neutrals, value: dict[str, str]) -> Neutrals:
    d = dict(part.alignment)
    for t, a in value.items():
        if a == printed(ed)[t][0]:
            d.pop(t, None)
        else:
            d[t] = a
    return replace(part, alignment=tuple(sorted(d.items())))


def _write_alignments(s: GameState) -> dict[str, str] | None:
    if not governs(s):
        return None
    return {t: a for t, a in s.part(Neutrals).alignment if standing(s, t)}


def _read_failed(ed: Edition, value: Any) -> list[str]:
    _no_neutrals(ed, "failed_attacks")
    if not isinstance(value, list | tuple):
        raise InvalidOrder(msg("neutrals.position_failed"))
    return sorted({_a_neutral(ed, x, "failed_attacks") for x in value})


def _build_failed(ed: Edition, part: Neutrals, value: list[str]) -> Neutrals:
    return replace(part, failed=tuple(value))


def _write_failed(s: GameState) -> list[str] | None:
    if not governs(s):
        return None
    return [t for t in s.part(Neutrals).failed if standing(s, t)]


def _read_army(ed: Edition, space: str, units: dict[str, int]) -> None:
    _no_neutrals(ed, "units")
    if space not in printed(ed):
        raise InvalidOrder(msg("neutrals.position_army_where", space=space,
                               neutrals=sorted(printed(ed))))
    wrong = sorted(u for u in units if ed.units[u].domain != "land"
                   or ed.units[u].abilities.factory)
    if wrong:
        raise InvalidOrder(msg("neutrals.position_army_units", space=space, units=wrong))


def _build_armies(ed: Edition, part: Neutrals, given: dict[str, dict[str, int]]) -> Neutrals:
    for space, units in given.items():
        part = _with_army(ed, part, space, units)
    return part


def _write_armies(s: GameState) -> dict[str, dict[str, int]]:
    if not governs(s):
        return {}
    out: dict[str, dict[str, int]] = {}
    changed = dict(s.part(Neutrals).armies)
    for t in printed(s.edition):
        if standing(s, t):
            got = army(s, t)
            if got or t in changed:  # an army gone is written too: {} (the printed one stays)
                out[t] = got
    for t, ids in s.part(Invasions).placed:
        for i in ids:
            if i in s.units:
                u = s.units[i]
                out.setdefault(t, {})[u.type] = out.get(t, {}).get(u.type, 0) + 1
    return out


reg.part(Neutrals, key="neutrals", per_turn=False,
         position={"alignment": Written(("neutrals",)), "armies": Written(("units",)),
                   "failed": Written(("failed_attacks",))},
         keys=[PartKey("neutrals", _read_alignments, _build_alignments, _write_alignments),
               PartKey("failed_attacks", _read_failed, _build_failed, _write_failed)])
reg.part(Invasions, key="invasions", per_turn=True,
         position={"placed": Derived("an invaded neutral's army is written under 'neutral' in "
                                     "'units' as the territory's army, placed again when the "
                                     "attack goes on " + own_rule("(UN-3)"))})
holder(Neutrals, Holder(name=HOLDER, read=_read_army, build=_build_armies, write=_write_armies,
                        held=placed_armies))


# --------------------------------------------------------------------------------------------
# The events


class NeutralInvaded(ev.Event):
    """A power invaded a neutral territory (UN-1, UN-3): it joins the side opposing the
    attacker (``joins``, an alignment) and its army is placed at once as units of ``seat``,
    whose player runs them; an attack on a strict neutral turns the other strict neutrals
    (``turned``) to that side too (SN-2)."""

    type: Literal["NeutralInvaded"] = "NeutralInvaded"
    space: str
    attacker: str
    seat: str
    joins: str
    army: dict[str, int]
    turned: tuple[str, ...] = ()
    rule: str = own_rule("UN-3")


class NeutralJoined(ev.Event):
    """A power's land units entered a friendly neutral (FN-2, FN-3; UN-5 after a failed
    attack): the power took it (a ``TerritoryCaptured`` precedes) and its army is placed as
    the power's own units, which move from its next turn."""

    type: Literal["NeutralJoined"] = "NeutralJoined"
    space: str
    power: str
    army: dict[str, int]
    rule: str = own_rule("FN-3")


class NeutralStood(ev.Event):
    """An attack on a neutral failed (UN-5): ``units``, the survivors of its army, are its army
    again, frozen; the territory stays uncontrolled, friendly to the side it joined."""

    type: Literal["NeutralStood"] = "NeutralStood"
    space: str
    units: tuple[int, ...]
    army: dict[str, int]
    joins: str
    rule: str = own_rule("UN-5")


@reg.evolver(NeutralInvaded)
def _ev_invaded(s: GameState, e: NeutralInvaded) -> GameState:
    units = dict(s.units)
    next_id = s.next_id
    ids: list[int] = []
    for utype, n in sorted(e.army.items()):
        for _ in range(n):
            units[next_id] = Unit(id=next_id, type=utype, owner=e.seat, space=e.space,
                                  start=e.space, stopped=True)
            ids.append(next_id)
            next_id += 1
    s = replace(s, units=units, next_id=next_id)
    part = _with_alignment(s, {e.space: e.joins, **{t: e.joins for t in e.turned}})
    s = s.with_part(_with_army(s.edition, part, e.space, {}))
    inv = s.part(Invasions)
    return s.with_part(Invasions(placed=_set(inv.placed, e.space, tuple(ids))))


@reg.evolver(NeutralJoined)
def _ev_joined(s: GameState, e: NeutralJoined) -> GameState:
    units = dict(s.units)
    next_id = s.next_id
    for utype, n in sorted(e.army.items()):
        for _ in range(n):
            # FN-3: its own units, free to move from the start of its next turn.
            units[next_id] = Unit(id=next_id, type=utype, owner=e.power, space=e.space,
                                  start=e.space, stopped=True)
            next_id += 1
    s = replace(s, units=units, next_id=next_id)
    part = s.part(Neutrals)
    part = replace(_with_army(s.edition, part, e.space, {}),
                   alignment=tuple(x for x in part.alignment if x[0] != e.space),
                   failed=tuple(t for t in part.failed if t != e.space))
    return s.with_part(part)


@reg.evolver(NeutralStood)
def _ev_stood(s: GameState, e: NeutralStood) -> GameState:
    gone = set(e.units)
    s = replace(s, units={i: u for i, u in s.units.items() if i not in gone})
    part = _with_alignment(s, {e.space: e.joins})
    part = _with_army(s.edition, part, e.space, e.army)
    part = replace(part, failed=tuple(sorted({*part.failed, e.space})))
    s = s.with_part(part)
    inv = s.part(Invasions)
    return s.with_part(Invasions(placed=tuple(x for x in inv.placed if x[0] != e.space)))


# --------------------------------------------------------------------------------------------
# The rules of a move (rules.turn.hooks.neutral_rules)


def _enter(s: GameState, power: str, space: str, phase: str, last: bool,
           domain: str) -> Msg | None:
    """Why a unit of ``power`` may not enter the standing neutral ``space`` (FN-1, FN-2, UN-1,
    UN-2, SN-1, CM-3, CM-10, NC-4, NC-5), or None."""
    kind = alignment(s, space)
    friendly = friendly_to(s, space, power)
    strict = kind == "strict"
    if domain == "air":
        if friendly:
            return msg("neutrals.air_friendly", own_rule("FN-1, CM-10, NC-5"), space=space,
                       kind=kind)
        if phase != COMBAT:
            return msg("neutrals.air_noncombat", own_rule("NC-5"), space=space, kind=kind)
        if not last:
            return msg("neutrals.air_over", own_rule("UN-2, CM-10"), space=space, kind=kind)
        return _seated(s, power, space)
    if friendly:
        if phase == COMBAT:
            return msg("neutrals.friendly_attack", own_rule("FN-1, FN-2"), space=space, kind=kind)
        if not last:
            return msg("neutrals.friendly_through", own_rule("FN-2, CM-3"), space=space)
        if not _at_war(s, power):
            return msg("neutrals.not_at_war", own_rule("FN-2, NW-4"), space=space, power=power)
        return None
    rule = own_rule("SN-1, UN-1" if strict else "UN-1")
    if phase != COMBAT:
        return msg("neutrals.unfriendly_noncombat", own_rule(f"{rule}, NC-4"), space=space,
                   kind=kind)
    if not last:
        return msg("neutrals.must_stop", own_rule(f"{rule}, CM-3"), space=space, kind=kind)
    return _seated(s, power, space)


def _seated(s: GameState, power: str, space: str) -> Msg | None:
    if space in dict(s.part(Invasions).placed) or seat(s, power) is not None:
        return None
    return msg("neutrals.no_seat", own_rule("UN-3, NW-5"), space=space, power=power)


def _at_war(s: GameState, power: str) -> bool:
    from rules.mechanisms.politics import at_war_with_anyone

    return at_war_with_anyone(s, power)


def _attacked(s: GameState, space: str, power: str) -> bool:
    """``power`` attacks ``space``: a standing neutral that is not friendly to it."""
    return standing(s, space) and not friendly_to(s, space, power)


hooks.neutral_rules(hooks.NeutralRules(governs=governs, enter=_enter, attacked=_attacked))


def _map_look(s: GameState) -> dict[str, hooks.NeutralLook]:
    """What the map shows of the neutrals that stand: each one's alignment now (UN-3, SN-2)
    and its army waiting to be placed (NT-2, UN-5)."""
    return {t: hooks.NeutralLook(alignment(s, t), _army_tuple(army(s, t)))
            for t in printed(s.edition) if standing(s, t)}


hooks.neutral_look(_map_look)


def repelled(s: GameState) -> list[str]:
    """The neutrals standing after an attack on them failed (UN-5): the map marks each with an
    upside-down control marker, as the rulebook does."""
    return [t for t in s.part(Neutrals).failed if standing(s, t)] if governs(s) else []


hooks.marker(hooks.MapMarker(glyph="repelled", legend="neutral that repelled an attack",
                             spaces=repelled, shown=lambda ed: bool(printed(ed))))


def _check(s: GameState, order: od.Move) -> None:
    """FN-3: only land units that can capture take a friendly neutral (LU-2); an order of land
    units alone without one is refused (aircraft are refused on their way, NC-5)."""
    if (not governs(s) or s.phase != NONCOMBAT or order.to not in printed(s.edition)
            or not standing(s, order.to) or not friendly_to(s, order.to, order.power)):
        return
    ed = s.edition
    if any(ed.units[u].domain != "land" for u in order.units if u in ed.units):
        return
    if not any(ed.units[u].abilities.can_capture for u in order.units if u in ed.units):
        able = sorted(n for n, ut in ed.units.items() if ut.abilities.can_capture)
        raise IllegalOrder(msg("neutrals.cannot_take", own_rule("FN-3, LU-2"), space=order.to,
                               units=sorted(order.units), able=able))


def _after(tx: Tx, order: od.Move, moves: tuple[ev.UnitMove, ...]) -> None:
    """A neutral entered: invaded in Combat Move (UN-3), taken in Noncombat Move (FN-3)."""
    s = tx.state
    if not governs(s) or s.phase not in (COMBAT, NONCOMBAT):
        return
    ends: list[str] = []
    for m in moves:
        end = m.assault or m.path[-1]
        if end not in ends and standing(s, end):
            ends.append(end)
    for t in ends:
        if s.phase == COMBAT:
            invade(tx, t, order.power)
        else:
            join(tx, t, order.power)


def _mark(s: GameState, order: od.Move, move: ev.UnitMove) -> ev.UnitMove:
    return move


hooks.move_rule(hooks.MoveRule(check=_check, mark=_mark, after=_after))


def invade(tx: Tx, space: str, attacker: str) -> None:
    """``attacker`` invades the neutral ``space`` (UN-3, SN-2): once a turn."""
    s = tx.state
    if space in dict(s.part(Invasions).placed):
        return
    who = seat(s, attacker)
    if who is None:
        raise IllegalOrder(msg("neutrals.no_seat", own_rule("UN-3, NW-5"), space=space,
                                   power=attacker))
    joins = alignment_of(s.edition, s.side(who))
    turned: tuple[str, ...] = ()
    if alignment(s, space) == "strict":
        turned = tuple(t for t in printed(s.edition)
                       if t != space and standing(s, t) and alignment(s, t) == "strict")
    tx.emit(NeutralInvaded(space=space, attacker=attacker, seat=who, joins=joins,
                           army=army(s, space), turned=turned,
                           rule=own_rule("UN-3, SN-2" if turned else "UN-3")))


def join(tx: Tx, space: str, power: str) -> None:
    """``power``'s land units entered the friendly neutral ``space`` (FN-3, UN-5)."""
    s = tx.state
    if not friendly_to(s, space, power):
        return
    left = army(s, space)
    territory.capture(tx, space, power, "friendly neutral", own_rule("FN-3"))
    tx.emit(NeutralJoined(space=space, power=power, army=left,
                          rule=own_rule("UN-5, FN-3" if space in s.part(Neutrals).failed
                                            else "FN-3")))


# --------------------------------------------------------------------------------------------
# Conduct Combat: armies of invaded neutrals placed (a position's), survivors frozen (UN-5)


def _enter_conduct(tx: Tx, initial: bool) -> None:
    """The acting power's units in a standing neutral invade it if its army is not yet placed
    (a position that starts with them there)."""
    s = tx.state
    if not governs(s):
        return
    for t in printed(s.edition):
        if (standing(s, t) and not friendly_to(s, t, s.power)
                and any(u.owner == s.power for u in s.units_in(t))):
            invade(tx, t, s.power)


def _leave_conduct(tx: Tx, order: Any = None) -> None:
    """UN-5: where an invaded neutral still stands, its survivors are its army again."""
    s = tx.state
    if not governs(s):
        return
    for t, ids in s.part(Invasions).placed:
        if not standing(s, t):
            continue
        alive = [s.units[i] for i in ids if i in s.units]
        left: dict[str, int] = {}
        for u in alive:
            left[u.type] = left.get(u.type, 0) + 1
        tx.emit(NeutralStood(space=t, units=tuple(u.id for u in alive), army=left,
                             joins=alignment(s, t)))


_conduct = reg.phase(CONDUCT)
_conduct.enter.insert(0, _enter_conduct)
_conduct.end.append(_leave_conduct)
_conduct.leave.append(_leave_conduct)


# --------------------------------------------------------------------------------------------
# The words


_KIND = {"strict": "a strict neutral", "pro_axis": "a pro-Axis neutral",
         "pro_allied": "a pro-Allied neutral"}


def _kind(p: Mapping[str, Any]) -> str:
    return _KIND.get(str(p["kind"]), "a neutral")


@reg.words(NeutralInvaded)
def _invaded_words(s: GameState, e: NeutralInvaded) -> Msg:
    return msg("neutrals.invaded", e.rule, space=e.space, attacker=e.attacker, seat=e.seat,
               kind=e.joins, army=unit_list(e.army) if e.army else "", turned=list(e.turned))


@reg.words(NeutralJoined)
def _joined_words(s: GameState, e: NeutralJoined) -> Msg:
    return msg("neutrals.joined", e.rule, space=e.space, power=e.power,
               army=unit_list(e.army) if e.army else "")


@reg.words(NeutralStood)
def _stood_words(s: GameState, e: NeutralStood) -> Msg:
    return msg("neutrals.stood", e.rule, space=e.space, kind=e.joins,
               army=unit_list(e.army) if e.army else "")


def _invaded_text(p: Mapping[str, Any]) -> str:
    line = (f"{p['attacker']} invaded {p['space']}, which joins the other side as "
            f"{_kind(p)}")
    if p["army"]:
        line += f"; its army ({p['army']}) is placed at once, run by {p['seat']}"
    if p["turned"]:
        kind = _kind(p).removeprefix("a ").removesuffix(" neutral")
        line += f"; the other strict neutrals turn {kind} too: {', '.join(p['turned'])}"
    return f"{line} ({p['rule']})."


catalogue("en", "neutrals", {
    "air_friendly": lambda p: (f"{p['space']} is {_kind(p)}, friendly to your side: air units "
                               f"may neither fly over it nor land there ({p['rule']}). Choose a "
                               "route around it."),
    "air_noncombat": lambda p: (f"{p['space']} is {_kind(p)}: air units land only in "
                                "territories friendly since the start of the turn, never in a "
                                f"neutral, nor fly over one ({p['rule']})."),
    "air_over": lambda p: (f"{p['space']} is {_kind(p)}: air units may not fly over it unless "
                           f"they attack it ({p['rule']}). Choose a route around it (add 'via "
                           "<space>')."),
    "friendly_attack": lambda p: (f"{p['space']} is {_kind(p)}, friendly to your side: it "
                                  f"cannot be attacked ({p['rule']}). Land units move into it "
                                  "in Noncombat Move."),
    "friendly_through": "{space} is a friendly neutral: land units may move into it but not "
                        "through it ({rule}).",
    "not_at_war": "{power} is at war with no power: it may not move units into the friendly "
                  "neutral {space} ({rule}).",
    "unfriendly_noncombat": lambda p: (f"{p['space']} is {_kind(p)}, not friendly to your "
                                       "side: entering it is an attack, made in Combat Move "
                                       f"({p['rule']})."),
    "must_stop": lambda p: (f"{p['space']} is {_kind(p)}: land units that enter it attack it "
                            f"and stop there; they cannot move on through it ({p['rule']})."),
    "no_seat": "{power} is at war with no power of the other side: it cannot attack the "
               "neutral {space} ({rule}).",
    "cannot_take": "Only land units that can capture ({able:and}) take the friendly neutral "
                   "{space} ({rule}); move one of them in with the {units:and}.",
    "invaded": _invaded_text,
    "joined": lambda p: (f"{p['power']} took the friendly neutral {p['space']}"
                         + (f"; its army ({p['army']}) joins {p['power']}, free to move from "
                            "its next turn" if p["army"] else "")
                         + f" ({p['rule']})."),
    "stood": lambda p: (f"The attack on {p['space']} failed: it stays uncontrolled, now "
                        f"{_kind(p)}"
                        + (f"; its army ({p['army']}) stays there and cannot move"
                           if p["army"] else "")
                        + f" ({p['rule']})."),
    "position_none": "Position {key}: {edition} has no aligned neutral territories; leave "
                     "'{key}' out.",
    "position_name": "Position {key}: {text!r} is not a name.",
    "position_not_neutral": "Position {key}: {space} is not a neutral territory; the neutrals "
                            "are {neutrals:join}.",
    "position_alignments": 'Position neutrals: an object of alignments, e.g. {{"Spain": '
                           '"pro_allied"}}.',
    "position_alignment": "Position neutrals: {space} {value!r}; the alignments are "
                          "{alignments:join}.",
    "position_failed": 'Position failed_attacks: a list of neutral territories, e.g. '
                       '["Sweden"].',
    "position_army_where": "Position units: only a neutral territory has a neutral army; "
                           "{space} is none (the neutrals are {neutrals:join}).",
    "position_army_units": "Position units: a neutral army in {space} is land units only, not "
                           "{units:join}.",
})
