"""France's liberation bonus (Europe 1940 FR-1, CAP-5; §22.14): free units when a territory is
liberated, once per game, as edition data (``RuleSet.liberation_bonuses``).

When the bonus territory ("France") returns to its power from a power at war with it, that
power owes a decision at once, whoever's turn it is: 'free units 2 infantry, 1 artillery in
France', units of the bonus's domains (land or air) worth up to its value (12 IPCs) at their
normal costs, placed there free of charge. The bonus is used from that moment
(``used_bonuses``, kept with the one-time national objectives): it is owed once per game. The
phase in which the liberation happened does not end until the decision is given.

Best readings: "liberated by the Allies" includes the owner itself retaking it (CAP-3 speaks of
a capital liberated "by its owner or by an ally"); the referee's answer for an absent player is
as many of the cheapest unit allowed as the value buys (12 IPCs: 4 infantry), the most units,
as its casualty default loses the cheapest first (H-1); should the territory be lost again
before the answer, the bonus lapses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import orders as od
from rules.decisions import Owed, Pending
from rules.edition import Edition, LiberationBonus
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import IN, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.language.units import format_units, parse_units
from rules.mechanisms.objectives import Bonuses, used
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import NotCarried
from rules.state import GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import ipcs, plural, unit_list

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.turn.tx import Tx

# The phases in which a territory can be liberated: their end waits for the free units.
PHASES = ("combat_move", "conduct_combat")

# Offered as a menu: the owing seat may answer out of its turn (FR-1: "immediately").
FREE_UNITS = Owed("free units", verb="free", menu=True)
MENU = 25  # Discord's limit on a select's options


class FreeUnits(od.Order):
    """Place the free units a liberation bonus owes (FR-1)."""

    kind: Literal["free_units"] = "free_units"
    units: od.Units
    space: str


class LiberationBonusOwed(ev.Event):
    """A bonus territory was liberated: its power owes the choice of its free units (FR-1)."""

    type: Literal["LiberationBonusOwed"] = "LiberationBonusOwed"
    power: str
    space: str
    bonus: str
    value: int
    rule: str = own_rule("FR-1")


class FreeUnitsPlaced(ev.Event):
    """The liberation bonus's free units are on the board (FR-1)."""

    type: Literal["FreeUnitsPlaced"] = "FreeUnitsPlaced"
    power: str
    space: str
    bonus: str
    units: tuple[tuple[int, str], ...]  # (new id, unit type)
    cost: int
    rule: str = own_rule("FR-1")


@dataclass(frozen=True, slots=True)
class Liberations:
    """The liberation bonuses owed and not yet chosen, by id."""

    owed: tuple[str, ...] = ()


reg.part(Liberations, key="liberations",
         per_turn=False,
         position={"owed": NotCarried("a liberation bonus is chosen at once, in the phase of the "
                                      "liberation; a position starts with none owed")})


def bonus(ed: Edition, bid: str) -> LiberationBonus:
    return next(b for b in ed.rules.rules.liberation_bonuses if b.id == bid)


def owed(s: GameState) -> list[LiberationBonus]:
    """The bonuses owed now: liberated, not chosen, the territory still its power's."""
    return [b for bid in s.part(Liberations).owed
            if s.owners.get((b := bonus(s.edition, bid)).territory) == b.power]


def allowed(ed: Edition, b: LiberationBonus) -> list[str]:
    """The unit types a bonus may place, cheapest first (FR-1 best reading: land or air units
    at their normal costs; no facilities)."""
    return [u.name for u in sorted(ed.units.values(), key=lambda u: (u.cost or 0, u.name))
            if u.cost is not None and u.domain in b.domains
            and not (u.abilities.factory or u.abilities.facility)]


# --------------------------------------------------------------------------------------------
# The liberation


@hooks.captured
def _liberated(tx: Tx, e: ev.TerritoryCaptured) -> None:
    s = tx.state
    for b in s.edition.rules.rules.liberation_bonuses:
        if (e.space == b.territory and e.owner == b.power and b.id not in used(s)
                and e.previous is not None and s.enemy(e.previous, b.power)):
            tx.emit(LiberationBonusOwed(power=b.power, space=b.territory, bonus=b.id,
                                        value=b.value, rule=own_rule(b.rule or "FR-1")))


@reg.evolver(LiberationBonusOwed)
def _ev_owed(s: GameState, e: LiberationBonusOwed) -> GameState:
    s = s.with_part(Bonuses(used=used(s) | {e.bonus}))
    return s.with_part(Liberations(owed=(*s.part(Liberations).owed, e.bonus)))


# --------------------------------------------------------------------------------------------
# The choice


@reg.order(FreeUnits, in_turn=False, answers=FREE_UNITS)
def decide_free_units(tx: Tx, order: FreeUnits, dice: Dice) -> None:
    """FR-1: units of the bonus's domains worth up to its value, placed in its territory."""
    s = tx.state
    ed = s.edition
    mine = [b for b in owed(s) if b.power == order.power]
    if not mine:
        raise IllegalOrder(msg("liberation.none_owed", own_rule("FR-1"), power=order.power,
                               known=[(b.power, b.territory) for b in
                                      ed.rules.rules.liberation_bonuses]))
    b = next((x for x in mine if x.territory == order.space), None)
    if b is None:
        raise IllegalOrder(msg("liberation.elsewhere", own_rule("FR-1"), power=order.power,
                               space=order.space, where=mine[0].territory))
    unknown = [u for u in order.units if u not in ed.units]
    if unknown:
        raise InvalidOrder(msg("liberation.unknown_units", units=unknown))
    kinds = allowed(ed, b)
    barred = [u for u in order.units if u not in kinds]
    if barred:
        raise IllegalOrder(msg("liberation.barred", own_rule("FR-1"), units=barred, allowed=kinds))
    if not any(n > 0 for n in order.units.values()) or any(n < 0 for n in order.units.values()):
        raise InvalidOrder(msg("liberation.no_units", space=b.territory))
    cost = sum((ed.units[u].cost or 0) * n for u, n in order.units.items())
    if cost > b.value:
        raise IllegalOrder(msg("liberation.too_dear", own_rule("FR-1"), units=dict(order.units),
                               cost=cost, value=b.value))
    new: list[tuple[int, str]] = []
    nid = s.next_id
    for u, n in order.units.items():
        for _ in range(n):
            new.append((nid, u))
            nid += 1
    tx.emit(FreeUnitsPlaced(power=b.power, space=b.territory, bonus=b.id, units=tuple(new),
                            cost=cost, rule=own_rule(b.rule or "FR-1")))


@reg.evolver(FreeUnitsPlaced)
def _ev_placed(s: GameState, e: FreeUnitsPlaced) -> GameState:
    units = dict(s.units)
    for uid, utype in e.units:
        units[uid] = Unit(id=uid, type=utype, owner=e.power, space=e.space, start=e.space)
    nid = max([s.next_id, *(uid + 1 for uid, _ in e.units)])
    left = tuple(x for x in s.part(Liberations).owed if x != e.bonus)
    return replace(s, units=units, next_id=nid).with_part(Liberations(owed=left))


@reg.waits
def _waits(s: GameState) -> list[Pending]:
    return [Pending(b.power, FREE_UNITS, b.territory) for b in owed(s)]


def default_choice(ed: Edition, b: LiberationBonus) -> od.Units:
    """The referee's choice (best reading): as many of the cheapest allowed unit as the value
    buys."""
    kinds = allowed(ed, b)
    if not kinds:
        return {}
    cheap = kinds[0]
    n = b.value // (ed.units[cheap].cost or 1)
    return {cheap: n} if n else {}


@hooks.default(FREE_UNITS)
def _default(s: GameState, p: Pending) -> od.Order:
    b = next(x for x in owed(s) if x.power == p.power and x.territory == p.space)
    return FreeUnits(power=p.power, units=default_choice(s.edition, b), space=b.territory)


def _end_check(tx: Tx, order: od.EndPhase) -> None:
    waiting = owed(tx.state)
    if waiting:
        b = waiting[0]
        raise IllegalOrder(msg("liberation.owed_first", own_rule("FR-1"), power=b.power,
                               space=b.territory, value=b.value))


for _phase in PHASES:
    _handler = reg.phase(_phase)
    _handler.end.insert(0, _end_check)
    _handler.busy.append(lambda s: bool(owed(s)))


def choices(ed: Edition, b: LiberationBonus, limit: int = MENU) -> list[od.Units]:
    """The choices a menu offers (at most ``limit``): the referee's default first, then every
    selection to which no allowed unit can be added (nothing left on the table), dearest
    first, then the most units, then by name. Any other selection is still an order."""
    kinds = allowed(ed, b)
    cost = {k: ed.units[k].cost or 0 for k in kinds}
    cheapest = min(cost.values(), default=0)
    found: list[od.Units] = []

    def walk(i: int, left: int, picked: dict[str, int]) -> None:
        if len(found) >= 400:  # far more than a menu shows; the order takes any selection
            return
        if i == len(kinds):
            if picked and left < cheapest:
                found.append(dict(picked))
            return
        k = kinds[i]
        for n in range(left // cost[k], -1, -1) if cost[k] else (0,):
            if n:
                picked[k] = n
            walk(i + 1, left - n * cost[k], picked)
            picked.pop(k, None)

    walk(0, b.value, {})
    first = default_choice(ed, b)
    found.sort(key=lambda u: (-sum(cost[k] * n for k, n in u.items()), -sum(u.values()),
                              sorted(u.items())))
    out = [first] if first else []
    out += [u for u in found if u != first]
    return out[:limit]


def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    for b in owed(s):
        for units in choices(s.edition, b):
            yield FreeUnits(power=b.power, units=units, space=b.territory)


for _phase in PHASES:
    reg.candidates(_phase, anyone=True)(_candidates)


# --------------------------------------------------------------------------------------------
# How players write it: 'free units 2 infantry, 1 artillery in France'


def _free(rest: str, names: Names, verb: str) -> FreeUnits:
    words = rest.split(" ", 1)
    if words[0].casefold() in ("unit", "units") and len(words) == 2:
        rest = words[1]
    got = try_splits(split_all(rest, IN), lambda x: parse_units(x, names), names.space)
    if got is None:
        raise FREE.expected("free units 2 infantry, 1 artillery in France")
    return FreeUnits(units=got[0], space=got[1])


def _free_units(o: Any, c: Chosen) -> str | None:
    return format_units(o.units) if isinstance(o, FreeUnits) else None


def _free_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, FreeUnits) else None


FREE = ORDERS.register(OrderSyntax[od.Order](
    verb="free units",
    usage="free units <units> in <territory>  (a liberated power's free units, where the "
          "edition has them)",
    read=_free,
    words=("free",),
    rank=135,
    makes=(FreeUnits,),
    write=lambda o: f"free units {format_units(o.units)} in {o.space}",
    needs=lambda r: bool(r.liberation_bonuses),  # Europe 1940 FR-1
    example=lambda b: (f"free units 2 {plural(b.cheap)}, 1 {b.second} in {b.home}",
                       f"/free units:2 {plural(b.cheap)}, 1 {b.second} in:{b.home}"),
    explain="""\
By a power whose territory with a liberation bonus was just liberated (Europe 1940: France):
at once, whoever's turn it is, it places free units there, land or air units worth up to the
bonus at their normal costs. Once per game.""",
    args=(Arg("units", "units", offer=_free_units), Arg("in", "space", offer=_free_space)),
    hints=(Hint("free units", "/free", (r"(?P<units>.+?) in (?P<in>.+)",)),),
))


# --------------------------------------------------------------------------------------------
# Words


@reg.words(LiberationBonusOwed)
def _owed_words(s: GameState, e: LiberationBonusOwed) -> Msg:
    b = next((x for x in s.edition.rules.rules.liberation_bonuses if x.id == e.bonus), None)
    example = format_units(default_choice(s.edition, b)) if b is not None else "2 infantry"
    return msg("liberation.owed", e.rule, power=e.power, space=e.space, value=e.value,
               example=example)


@reg.words(FreeUnitsPlaced)
def _placed_words(s: GameState, e: FreeUnitsPlaced) -> Msg:
    counts: dict[str, int] = {}
    for _, u in e.units:
        counts[u] = counts.get(u, 0) + 1
    return msg("liberation.placed", e.rule, power=e.power, space=e.space, units=counts,
               cost=e.cost)


def _too_dear(p: Mapping[str, Any]) -> str:
    return (f"{unit_list(p['units'])} cost {ipcs(p['cost'])}; the liberation bonus is worth "
            f"{ipcs(p['value'])} at normal costs ({p['rule']}).")


catalogue("en", "liberation", {
    "none_owed": lambda p: (f"{p['power']} owes no free units now: a liberation bonus is owed "
                            "when its territory is liberated, once per game"
                            + (" (" + ", ".join(f"{w} in {t}" for w, t in p["known"]) + ")"
                               if p["known"] else "") + f" ({p['rule']})."),
    "elsewhere": "{power:possessive} free units go to {where}, not {space} ({rule}).",
    "unknown_units": "Unknown units: {units:join}.",
    "barred": "Free units are land or air units ({rule}): not {units:join}. Choose among "
              "{allowed:join}.",
    "no_units": "Name the free units to place in {space}, e.g. 'free units 2 infantry in "
                "{space}'.",
    "too_dear": _too_dear,
    "owed_first": "{power} first places its free units in {space}, worth up to {value:ipcs} "
                  "('free units ... in {space}', {rule}).",
    "owed": "{space} is liberated: {power} places free units there worth up to {value:ipcs} "
            "(e.g. 'free units {example} in {space}', {rule}).",
    "placed": "{power} placed free units in {space}: {units:units} ({cost:ipcs} of the "
              "liberation bonus, {rule}).",
})
