"""Scramble (Europe 1940 §9.8 SC-1..SC-7, AA-1, AA-8, AU-4, NC-3, §22.7).

Where fighters and tactical bombers scramble (the ``scramble`` ability) from an air base (the
``air_base`` ability), the defender may send them into a battle at sea beside it:

- SC-1 / SC-8: once the attacker's Combat Move is over and before any combat (the same window
  as the interceptors), each power at war with the attacker whose eligible planes stand in a
  territory with an operational air base beside such a battle says what scrambles: 'scramble 2
  fighters from United Kingdom to Sea Zone 110' ('scramble none from United Kingdom', or
  'scramble none' for every territory). It is a decision owed by that power (``SCRAMBLE``), in
  or out of its turn, one per territory; it stays owed after a scramble while planes, room and
  battles are left. At the deadline the referee scrambles nothing more (best reading: an absent
  player's units do only what they were told, as for interceptors). No battle and no raid is
  fought while one is owed, and the attacker's moves are over (Conduct Combat has begun).
- SC-2: up to 3 fighters and tactical bombers (never strategic bombers) from an island or
  coastal territory whose air base is operational (``rules.facilities.base_serves``) into a
  sea zone beside it where the attacker fights friendly units, or from which it launched an
  amphibious assault (whatever the territory assaulted), even with no friendly ship there.
- SC-3: 3 per territory in all, split among its sea zones; a sea zone takes up to 3 from each
  territory beside it.
- SC-4: scrambled planes fly into the sea zone at once and defend there as ordinary defenders;
  they leave any battle in their own territory and fight nothing else; defenders never retreat.
- SC-6 / AA-1: a scramble into an assault's zone with no sea battle opens one there: every
  defending sea unit takes part (the submarines and transports the assault meant to pass by),
  the landing's units go back aboard their transports (as far as the state tells which: each
  offloaded transport of the zone takes them, fullest first) to land once the zone is cleared,
  and there is no bombardment (AA-2).
- SC-7: the attacker's planes were placed in Combat Move, at sea or over land; a scramble
  changes nothing of that.
- SC-5 / NC-3: at the start of Noncombat Move, before the attacker's own moves, surviving
  scrambled planes fly home; if home was captured, one space to a friendly territory or an
  allied carrier (``rules.stranded.land_near``), or they are lost.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import facilities
from rules import orders as od
from rules.board import enemy_units, transport_room
from rules.decisions import Owed, Pending
from rules.dice import Dice
from rules.edition import EditionRules
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import FROM, TO, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Board, Chosen, Hint, OrderSyntax
from rules.language.units import format_units, parse_units
from rules.mechanisms import bombing, interception
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import within_turn
from rules.state import GameState, Unit
from rules.stranded import land_near
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import unit_list

if TYPE_CHECKING:
    from rules.turn.tx import Tx

COMBAT = "combat_move"
CONDUCT = "conduct_combat"
NONCOMBAT = "noncombat_move"
LIMIT = 3  # SC-2 / SC-3: planes per territory

# --------------------------------------------------------------------------------------------
# The order, the events, the wait


class Scramble(od.Order):
    """Planes of the power in ``space`` (an air-base territory) that scramble into the sea zone
    ``to`` (SC-2): ``units`` by type ({}: none, and no more from there; None: all that may).
    ``space`` '' with ``units`` {}: none from any territory (the power's decisions owed)."""

    kind: Literal["scramble"] = "scramble"
    space: str = ""
    to: str | None = None
    units: od.Units | None = None


class UnitsScrambled(ev.Event):
    """A power's planes scramble from an air-base territory into a sea zone (SC-2, SC-4):
    they are there at once, out of any battle in their territory. ``units`` empty: the power
    scrambles nothing (more) from there."""

    type: Literal["UnitsScrambled"] = "UnitsScrambled"
    power: str
    frm: str
    to: str | None = None
    units: tuple[int, ...] = ()


class LandingHeld(ev.Event):
    """A scramble opened a sea battle in the zone an amphibious assault on ``space`` came from
    (SC-6): the landing waits for it (AA-1), its units back aboard (``aboard``: unit, transport),
    with no bombardment (AA-2)."""

    type: Literal["LandingHeld"] = "LandingHeld"
    space: str
    zone: str
    aboard: tuple[tuple[int, int], ...] = ()


SCRAMBLE = Owed("scramble", verb="scramble", menu=True)


@dataclass(frozen=True, slots=True)
class Scrambles:
    """The scrambles' part of the state, reset each turn."""

    decided: tuple[tuple[str, str], ...] = ()  # (territory, power) that scrambles no more
    flights: tuple[tuple[int, str, str], ...] = ()  # (unit id, territory, sea zone) (SC-5)


reg.part(Scrambles, key="scrambles", per_turn=True,
         position={"decided": within_turn("territories whose scramble is decided this turn"),
                   "flights": within_turn("planes scrambled this turn and where from")})


# --------------------------------------------------------------------------------------------
# Who may scramble, where to, and what is owed


def _has_scramble(er: EditionRules) -> bool:
    """The edition has scrambles: planes that scramble and air bases they scramble from (data)."""
    return (any(u.abilities.scramble for u in er.units)
            and any(u.abilities.air_base for u in er.units))


def _on(s: GameState) -> bool:
    return _has_scramble(s.edition.rules)


def _window(s: GameState) -> bool:
    """SC-1: Conduct Combat has begun and no battle has fought a round yet."""
    return s.phase == CONDUCT and not any(b.round > 0 or b.step == "done"
                                          for b in s.battles.values())


def scrambled(s: GameState, frm: str | None = None) -> list[Unit]:
    """The planes scrambled this turn still on the board (from ``frm`` when given)."""
    return [s.units[i] for i, t, _z in s.part(Scrambles).flights
            if i in s.units and (frm is None or t == frm)]


def _assault_zones(s: GameState) -> dict[str, list[str]]:
    """Sea zone -> territories the acting power assaults from it whose land battle is still to
    fight (CM-24, SC-2): its land units aboard there for the landing, or landed from there."""
    out: dict[str, set[str]] = {}
    for u in s.units.values():
        if u.owner != s.power or not u.assault:
            continue
        b = s.battles.get(u.assault)
        if b is None or b.sea or b.step == "done" or b.round:
            continue
        if u.carried_by is not None:
            out.setdefault(u.space, set()).add(u.assault)
        elif u.space == u.assault and u.came_from and s.edition.is_sea(u.came_from):
            out.setdefault(u.came_from, set()).add(u.assault)
    return {z: sorted(ts) for z, ts in out.items()}


def targets(s: GameState, power: str, territory: str) -> list[str]:
    """Sea zones beside ``territory`` where ``power``'s planes may scramble to (SC-2): a sea
    battle of the attacker's against friendly units, or an amphibious assault launched there."""
    ed = s.edition
    assaults = _assault_zones(s)
    out = []
    for z in sorted(ed.neighbours[territory]):
        if not ed.is_sea(z):
            continue
        b = s.battles.get(z)
        if (b is not None and b.sea and b.step != "done" and any(
                p == power or s.friendly(p, power) for p in b.defenders)) or z in assaults:
            out.append(z)
    return out


def eligible(s: GameState, power: str, territory: str) -> list[Unit]:
    """``power``'s planes in ``territory`` that may scramble (SC-2): of a type that scrambles,
    not intercepting a raid (SC-8: a unit does one or the other), in id order; none unless the
    power is at war with the attacker and the territory's air base is operational for it."""
    ed = s.edition
    if power == s.power or not s.enemy(power, s.power):
        return []
    if not facilities.base_serves(s, territory, "air_base", power):
        return []
    busy = s.part(interception.Interceptions).interceptors
    return sorted((u for u in s.units_in(territory)
                   if u.owner == power and u.carried_by is None and u.id not in busy
                   and ed.units[u.type].abilities.scramble), key=lambda u: u.id)


@hooks.standby_zone
def _may_scramble_into(s: GameState, zone: str, power: str) -> bool:
    """CM-26: a zone from which ``power`` launches a landing this turn, beside an air base
    from which a power at war with it has planes that could scramble there (the text's "if
    defenders might scramble into that sea zone"): ``power``'s air units may move in during
    Combat Move to fight them. If nobody scrambles they fight nothing there."""
    if not _on(s) or s.phase != COMBAT:
        return False
    if not any(u.owner == power and u.assault and (
            (u.carried_by is not None and u.space == zone)
            or (u.space == u.assault and u.came_from == zone)) for u in s.units.values()):
        return False
    return _could_scramble_into(s, zone, power)


def _could_scramble_into(s: GameState, zone: str, power: str) -> bool:
    """Planes of a power at war with ``power`` that could scramble into ``zone`` (SC-2)."""
    ed = s.edition
    return any(
        ed.units[u.type].abilities.scramble and u.carried_by is None and s.enemy(u.owner, power)
        and facilities.base_serves(s, t, "air_base", u.owner)
        for t in ed.neighbours[zone] if not ed.is_sea(t) for u in s.units_in(t))


@hooks.escape_zone
def _scrambles_reach(s: GameState, zone: str, power: str) -> bool:
    """CM-4 exception 2, A-14: "a zone into which scrambles are possible may be treated as
    hostile" for ships leaving it to avoid combat: beside an air base operational for a power
    at war with ``power``, with its planes that could scramble there."""
    return _on(s) and s.phase == COMBAT and _could_scramble_into(s, zone, power)


def room(s: GameState, territory: str) -> int:
    """Planes that may still scramble from ``territory`` (SC-3: 3 in all)."""
    return LIMIT - sum(1 for _i, t, _z in s.part(Scrambles).flights if t == territory)


def _bases(s: GameState) -> list[str]:
    ed = s.edition
    return [t for t in ed.spaces if not ed.is_sea(t)
            and any(ed.units[u.type].abilities.air_base for u in facilities.pieces(s, t))]


def owed_scrambles(s: GameState) -> list[tuple[str, str]]:
    """(territory, power) still to say what scrambles (SC-1), in board and turn order."""
    if not _on(s) or not _window(s):
        return []
    decided = set(s.part(Scrambles).decided)
    out = []
    for t in _bases(s):
        if room(s, t) <= 0:
            continue
        powers = sorted({u.owner for u in s.units_in(t)}, key=s.edition.turn_order.index)
        out += [(t, p) for p in powers if (t, p) not in decided and eligible(s, p, t)
                and targets(s, p, t)]
    return out


@reg.waits
def _waits(s: GameState) -> list[Pending]:
    return [Pending(p, SCRAMBLE, t) for t, p in owed_scrambles(s)]


def _owed_msg(s: GameState) -> Msg | None:
    owed = owed_scrambles(s)
    if owed:
        return msg("scramble.owed", own_rule("SC-1"), waiting=owed)
    return None


@hooks.before_fight
def _scrambles_first(s: GameState, space: str) -> None:
    """SC-1: the defender scrambles before any combat."""
    m = _owed_msg(s)
    if m is not None:
        raise IllegalOrder(m)


@bombing.before_raid
def _before_raid(s: GameState, space: str) -> Msg | None:
    return _owed_msg(s)


# --------------------------------------------------------------------------------------------
# How players write it


def _scramble(rest: str, names: Names, verb: str) -> Scramble:
    example = "scramble 2 fighters from United Kingdom to Sea Zone 110"
    words = rest.casefold().split()
    if not words:
        raise SCRAMBLE_ORDER.expected(example)
    if words in (["none"], ["no"], ["nothing"], ["0"]):
        return Scramble(units={})
    if words[0] in ("none", "no", "nothing", "0") and len(words) > 1:
        tail = rest.split(None, 1)[1]
        if tail.casefold().startswith("from "):
            tail = tail[5:]
        return Scramble(space=names.space(tail), units={})
    if words[0] == "from":
        units: od.Units | None = None
        where = rest.split(None, 1)[1] if len(words) > 1 else ""
    else:
        got = try_splits(split_all(rest, FROM), lambda x: parse_units(x, names), lambda x: x)
        if got is None:
            raise SCRAMBLE_ORDER.expected(example)
        units, where = got
    pair = try_splits(split_all(where, TO), names.space, names.space)
    if pair is None:
        raise SCRAMBLE_ORDER.expected(example)
    return Scramble(space=pair[0], to=pair[1], units=units)


def _write(o: Scramble) -> str:
    if o.units == {} or o.to is None:
        return "scramble none" + (f" from {o.space}" if o.space else "")
    what = f"{format_units(o.units)} " if o.units else ""
    return f"scramble {what}from {o.space} to {o.to}"


def _offer_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, Scramble) and o.space else None


def _offer_to(o: Any, c: Chosen) -> str | None:
    if isinstance(o, Scramble) and o.to and c.fits("from", o.space):
        return o.to
    return None


def _offer_units(o: Any, c: Chosen) -> str | None:
    if isinstance(o, Scramble) and c.fits("from", o.space) and o.units is not None:
        return format_units(o.units) if o.units else "none"
    return None


def _example(b: Board) -> tuple[str, str]:
    return (f"scramble 2 fighters from {b.home} to {b.sea}",
            f"/scramble from:{b.home} to:{b.sea} units:2 fighters")


SCRAMBLE_ORDER = ORDERS.register(OrderSyntax[od.Order](
    verb="scramble",
    usage="scramble <units> from <territory> to <sea zone> | scramble none [from <territory>]  "
          "(the defender's fighters from an air base into a sea battle beside it)",
    read=_scramble,
    rank=123,
    topic="battles",
    makes=(Scramble,),
    needs_edition=_has_scramble,  # Europe 1940 §9.8 SC-1..SC-7
    example=_example,
    explain="""\
By the defender, once the attacker's Combat Move is over and before any combat: up to 3 fighters
and tactical bombers from a territory with an operational air base fly into a sea zone beside it
where the attacker fights friendly units or launched an amphibious assault. They defend there
and fight nothing else; they come home at the start of Noncombat Move. 'scramble none from
<territory>' scrambles no more from there; 'scramble none', from nowhere. At the deadline the
referee scrambles nothing more.""",
    args=(Arg("from", "space", offer=_offer_space),
          Arg("to", "space", offer=_offer_to),
          Arg("units", "units", offer=_offer_units)),
    hints=(Hint("scramble", "/scramble", (r"(?P<units>none) from (?P<from>.+)",
                                          r"(?P<units>none)",
                                          r"(?P<units>.+?) from (?P<from>.+?) to (?P<to>.+)",
                                          r"from (?P<from>.+?) to (?P<to>.+)")),),
    write=_write,
))


# --------------------------------------------------------------------------------------------
# Deciding it


def _not_yet(s: GameState, order: Any) -> Msg:
    return msg("scramble.not_yet", own_rule("SC-1"), phase=s.edition.phase_info[s.phase].name)


@reg.order(Scramble, phases=(CONDUCT,), in_turn=False, answers=SCRAMBLE, wrong_phase=_not_yet)
def decide_scramble(tx: Tx, order: Scramble, dice: Dice) -> None:
    """SC-1..SC-4, SC-6: what a power scrambles from a territory, or that it scrambles no more."""
    s = tx.state
    ed = s.edition
    if not _on(s):
        raise IllegalOrder(msg("scramble.not_here"))
    if not _window(s):
        raise IllegalOrder(msg("scramble.too_late", own_rule("SC-1")))
    owed = [t for t, p in owed_scrambles(s) if p == order.power]
    if not order.space:  # 'scramble none': from every territory
        if order.units != {} or not owed:
            raise IllegalOrder(msg("scramble.nothing_owed", own_rule("SC-1"), power=order.power))
        for t in owed:
            tx.emit(UnitsScrambled(power=order.power, frm=t))
        return
    t = order.space
    for name in (t, order.to):
        if name is not None and name not in ed.spaces:
            raise InvalidOrder(msg("scramble.unknown_space", space=name))
    if t not in owed:
        _why_not_owed(s, order.power, t)
    if order.units == {}:
        tx.emit(UnitsScrambled(power=order.power, frm=t))
        return
    z = order.to or ""
    if z not in targets(s, order.power, t):
        raise IllegalOrder(msg("scramble.no_target", own_rule("SC-2"), space=t, zone=z,
                               targets=targets(s, order.power, t)))
    mine = eligible(s, order.power, t)
    have: dict[str, list[Unit]] = {}
    for u in mine:
        have.setdefault(u.type, []).append(u)
    left = room(s, t)
    if order.units is None:  # all that may, in the edition's order of types
        want: dict[str, int] = {}
        for utype in (x for x in ed.units if x in have):
            want[utype] = min(len(have[utype]), left - sum(want.values()))
        want = {k: v for k, v in want.items() if v}
    else:
        want = dict(order.units)
    for utype, n in want.items():
        if n < 1 or utype not in have or n > len(have[utype]):
            raise IllegalOrder(msg("scramble.too_many", own_rule("SC-2"), power=order.power,
                                   space=t, have={k: len(v) for k, v in have.items()},
                                   want=want))
    if sum(want.values()) > left:
        raise IllegalOrder(msg("scramble.limit", own_rule("SC-3"), space=t, left=left,
                               want=sum(want.values())))
    ids = tuple(sorted(u.id for k, n in want.items() for u in have[k][:n]))
    had_battle = z in s.battles and s.battles[z].step != "done"
    tx.emit(UnitsScrambled(power=order.power, frm=t, to=z, units=ids))
    if not had_battle:
        _open_sea_battle(tx, z)


def _why_not_owed(s: GameState, power: str, t: str) -> None:
    if (t, power) in s.part(Scrambles).decided:
        raise IllegalOrder(msg("scramble.decided", own_rule("SC-1"), power=power, space=t))
    if room(s, t) <= 0:
        raise IllegalOrder(msg("scramble.limit", own_rule("SC-3"), space=t, left=0, want=1))
    if not facilities.base_serves(s, t, "air_base", power):
        raise IllegalOrder(msg("scramble.no_base", own_rule("SC-2"), space=t))
    if not eligible(s, power, t):
        raise IllegalOrder(msg("scramble.no_planes", own_rule("SC-2"), power=power, space=t))
    raise IllegalOrder(msg("scramble.no_battle", own_rule("SC-2"), space=t))


def _open_sea_battle(tx: Tx, z: str) -> None:
    """SC-6 / AA-1: the scramble forces a sea battle in an assault's zone: every defending sea
    unit there takes part; the landings from there wait for it, their units back aboard."""
    s = tx.state
    ed = s.edition
    power = s.power
    mine = [u for u in s.units_in(z) if u.owner == power and u.carried_by is None]
    foes = [u for u in enemy_units(s, z, power) if ed.units[u.type].domain != "land"
            and (u.carried_by is None or s.units[u.carried_by].damage == 0)]
    launched = tuple(c.id for u in mine for c in s.units.values()
                     if c.carried_by == u.id and c.owner == power
                     and ed.units[c.type].domain == "air" and not u.damage)
    defenders = tuple(sorted({u.owner for u in foes}, key=ed.turn_order.index))
    tx.emit(ev.BattleOpened(space=z, attacker=power, defenders=defenders, sea=True,
                            attacking=tuple(u.id for u in mine),
                            defending=tuple(u.id for u in foes), launched=launched))
    for target in _assault_zones(tx.state).get(z, []):
        tx.emit(LandingHeld(space=target, zone=z, aboard=_aboard(tx.state, z, target)))


def _aboard(s: GameState, z: str, target: str) -> tuple[tuple[int, int], ...]:
    """The landed units of the assault on ``target`` from ``z``, each with a transport of the
    zone that offloaded with room for it (the largest first, each into the fullest that fits):
    best reading where the state does not keep which transport carried which unit."""
    ed = s.edition
    landed = sorted((u for u in s.units_in(target) if u.assault == target and u.came_from == z
                     and u.carried_by is None and ed.units[u.type].domain == "land"),
                    key=lambda u: (-ed.units[u.type].abilities.transport_cost, u.id))
    free = {t.id: transport_room(s, t) for t in s.units_in(z)
            if t.offloaded and t.owner == s.power and ed.units[t.type].abilities.transport_capacity}
    out: list[tuple[int, int]] = []
    for u in landed:
        need = ed.units[u.type].abilities.transport_cost
        host = next((i for i in sorted(free, key=lambda i: (free[i], i)) if free[i] >= need),
                    None)
        if host is None:
            continue
        free[host] -= need
        out.append((u.id, host))
    return tuple(out)


@reg.evolver(UnitsScrambled)
def _ev_scrambled(s: GameState, e: UnitsScrambled) -> GameState:
    part = s.part(Scrambles)
    if not e.units or e.to is None:
        return s.with_part(replace(part, decided=(*part.decided, (e.frm, e.power))))
    s = s.with_part(replace(part, flights=(*part.flights, *((i, e.frm, e.to) for i in e.units))))
    units = dict(s.units)
    for i in e.units:
        units[i] = replace(units[i], space=e.to, came_from=e.frm, fought=True)
    battles = dict(s.battles)
    gone = set(e.units)
    home = battles.get(e.frm)
    if home is not None:  # SC-4: they leave the battle in their territory
        battles[e.frm] = replace(home, defending=tuple(i for i in home.defending
                                                       if i not in gone))
    b = battles.get(e.to)
    if b is not None and b.step != "done":  # SC-4: ordinary defenders there
        order = s.edition.turn_order
        battles[e.to] = replace(
            b, defending=(*b.defending, *e.units),
            defenders=tuple(sorted({*b.defenders, e.power}, key=order.index)))
    return replace(s, units=units, battles=battles)


@reg.evolver(LandingHeld)
def _ev_held(s: GameState, e: LandingHeld) -> GameState:
    units = dict(s.units)
    back = {i for i, _t in e.aboard}
    for i, t in e.aboard:
        units[i] = replace(units[i], space=e.zone, carried_by=t)
        units[t] = replace(units[t], offloaded=False)
    battles = dict(s.battles)
    b = battles.get(e.space)
    if b is not None:
        battles[e.space] = replace(
            b, blocked_by=e.zone, bombarding=(),
            attacking=tuple(i for i in b.attacking if i not in back),
            seaborne=tuple(i for i in b.seaborne if i not in back))
    return replace(s, units=units, battles=battles)


# --------------------------------------------------------------------------------------------
# SC-5: home at the start of Noncombat Move, before the attacker's own moves


def _fly_home(tx: Tx, initial: bool) -> None:
    s = tx.state
    home_bound: dict[tuple[str, str, str], list[int]] = {}
    stranded: list[tuple[int, str]] = []
    for uid, home, _z in s.part(Scrambles).flights:
        u = s.units.get(uid)
        if u is None or u.space == home:
            continue
        if s.friendly(s.owners.get(home), u.owner):
            home_bound.setdefault((u.owner, u.space, home), []).append(uid)
        else:
            stranded.append((uid, home))
    for (power, z, home), ids in home_bound.items():
        tx.emit(ev.UnitsMoved(power=power, phase=s.phase, frm=z, to=home, moves=tuple(
            ev.UnitMove(id=i, path=(z, home), cost=1) for i in ids)))
    for uid, home in stranded:
        u = tx.state.units[uid]
        land_near(tx, u, own_rule("SC-5"),
                               f"scrambled {u.type} could not land: {home} was captured")


reg.phase(NONCOMBAT).enter.append(_fly_home)


# --------------------------------------------------------------------------------------------
# Legal candidates and the referee's default


def _counts(units: list[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return out


@reg.candidates(CONDUCT, anyone=True)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Each territory owed: none, then each mix of its planes (up to its room) into each sea
    zone it may scramble to."""
    for t, p in owed_scrambles(s):
        if p != power:
            continue
        yield Scramble(power=power, space=t, units={})
        have = _counts(eligible(s, power, t))
        names = [k for k in s.edition.units if k in have]
        left = room(s, t)
        for z in targets(s, power, t):
            for combo in itertools.product(*(range(min(have[k], left) + 1) for k in names)):
                if 0 < sum(combo) <= left:
                    yield Scramble(power=power, space=t, to=z,
                                   units={k: n for k, n in zip(names, combo, strict=True) if n})


@hooks.default(SCRAMBLE)
def _no_scramble(s: GameState, p: Pending) -> od.Order:
    """Best reading: an absent defender scrambles nothing (more) (SC-1 is its choice)."""
    return Scramble(power=p.power, space=p.space or "", units={})


# --------------------------------------------------------------------------------------------
# What the referee says


@reg.words(UnitsScrambled)
def _scrambled_words(s: GameState, e: UnitsScrambled) -> Msg:
    if not e.units:
        return msg("scramble.none_line", own_rule("SC-1"), power=e.power, space=e.frm,
                   any=any(t == e.frm for _i, t, _z in s.part(Scrambles).flights))
    units = _counts([s.units[i] for i in e.units if i in s.units])
    return msg("scramble.line", own_rule("SC-2, SC-4"), power=e.power, space=e.frm, zone=e.to,
               units=units)


@reg.words(LandingHeld)
def _held_words(s: GameState, e: LandingHeld) -> Msg:
    back = _counts([s.units[i] for i, _t in e.aboard if i in s.units])
    return msg("scramble.held", own_rule("SC-6, AA-1"), space=e.space, zone=e.zone, units=back)


def _owed_text(p: Mapping[str, Any]) -> str:
    who = ", ".join(f"{power} in {space}" for space, power in p["waiting"])
    return (f"First the defenders say what scrambles ({p['rule']}): waiting for {who} "
            f"('scramble <planes> from <territory> to <sea zone>' or 'scramble none from "
            f"<territory>').")


def _line_text(p: Mapping[str, Any]) -> str:
    return (f"{p['power']} scrambles {unit_list(p['units'])} from {p['space']} to {p['zone']}: "
            f"they defend there, cannot retreat and fight nothing else this turn ({p['rule']}).")


def _none_text(p: Mapping[str, Any]) -> str:
    more = " more" if p["any"] else ""
    return f"{p['power']} scrambles nothing{more} from {p['space']} ({p['rule']})."


def _held_text(p: Mapping[str, Any]) -> str:
    back = (f"; {unit_list(p['units'])} go back aboard to land once {p['zone']} is cleared"
            if p["units"] else "")
    return (f"The scramble makes a sea battle in {p['zone']}: the landing in {p['space']} waits "
            f"for it, with no bombardment{back} ({p['rule']}).")


catalogue("en", "scramble", {
    "owed": _owed_text,
    "not_yet": "Planes scramble once the attacker's Combat Move is over, before any combat "
               "({rule}); it is {phase} now.",
    "too_late": "Planes scramble before any combat ({rule}); a battle has been fought already.",
    "not_here": "This game has no scrambles.",
    "unknown_space": "Unknown space {space!r}.",
    "nothing_owed": "{power} has no scramble to decide now ({rule}).",
    "decided": "{power} scrambles no more from {space} this turn ({rule}).",
    "no_base": "{space} has no operational air base to scramble from ({rule}).",
    "no_planes": "{power} has no fighters or tactical bombers in {space} that may scramble "
                 "({rule}).",
    "no_target": "Planes from {space} scramble only into a sea zone beside it where the attacker "
                 "fights friendly units or launched an amphibious assault ({rule}): "
                 "{targets:join|none}, not {zone}.",
    "no_battle": "No sea battle beside {space} to scramble into: planes scramble where the "
                 "attacker fights friendly units at sea or launched an amphibious assault "
                 "({rule}).",
    "too_many": "{power:possessive} planes in {space} that may scramble: {have:units} ({rule}), "
                "not {want:units}.",
    "limit": "At most 3 planes scramble from {space} in all ({rule}): {left} more may, not "
             "{want}.",
    "line": _line_text,
    "none_line": _none_text,
    "held": _held_text,
})
