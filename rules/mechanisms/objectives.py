"""National objectives (Europe 1940 §14, §22.16): bonus income as edition data.

Each power's objectives are listed in its edition's data (``EditionRules.objectives``), in a
small language of conditions (``rules.edition.Condition``): who controls which territories
(all, at least n, or counted per territory), whose units are where (a German land unit in
Egypt; no Allied surface warships in sea zones 92-99), a neutral's sympathy, under war-state
group headers (at war with some power, with each of some, with none of some) and once per game.
They are evaluated at their power's own Collect Income, after its convoy losses (IN-1), on the
state at that moment; each objective paid is shown (``ObjectivesPaid``) and added to the income
(``rules.turn.hooks.income_step``). "Axis controls" (``by: side``) differs from "Germany
controls" (``by: self``), §22.16.

One-time bonuses paid (the Soviet Union's first Berlin, France's liberation units, FR-1) are
this module's lasting part of the state (``Bonuses``), the position key ``used_bonuses``; what
the objectives paid in this Collect Income is a per-turn part (``Objectives``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules.edition import Condition, Edition, NationalObjective
from rules.errors import InvalidOrder
from rules.mechanisms import neutrals
from rules.mechanisms.politics import at_war_with_anyone
from rules.messages import Msg, catalogue, msg
from rules.position import PartKey, Written, within_turn
from rules.state import GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg

if TYPE_CHECKING:
    from rules.turn.tx import Tx

# --------------------------------------------------------------------------------------------
# The parts of the state, the event


@dataclass(frozen=True, slots=True)
class Bonuses:
    """The one-time bonuses already paid (§14 one-time objectives, FR-1), by id."""

    used: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Objectives:
    """IPCs the national objectives paid in this Collect Income (reset each turn)."""

    paid: int = 0


class ObjectivesPaid(ev.Event):
    """The national objectives a power met at its Collect Income (§14): for each, its id, the
    IPCs it pays and, paid per territory, the territories counted."""

    type: Literal["ObjectivesPaid"] = "ObjectivesPaid"
    power: str
    paid: tuple[tuple[str, int, tuple[str, ...]], ...]
    rule: str = "§14"


def used(s: GameState) -> frozenset[str]:
    return s.part(Bonuses).used


# --------------------------------------------------------------------------------------------
# The conditions


def _whose(s: GameState, power: str, by: str) -> Callable[[str | None], bool]:
    if by == "self":
        return lambda o: o == power
    if by == "side":
        return lambda o: s.friendly(o, power)
    if by == "allies":
        return lambda o: o != power and s.friendly(o, power)
    return lambda o: o is not None and not s.friendly(o, power)  # other_side


@lru_cache(maxsize=256)
def spaces_of(ed: Edition, c: Condition) -> tuple[str, ...]:
    """The spaces a condition looks at: those it names, then the territories originally of its
    powers and those that began as neutrals of its alignments, in map order."""
    out = dict.fromkeys(c.spaces)
    printed = ed.map.neutrals
    for t, sp in ed.spaces.items():
        by_owner = sp.original_owner is not None and sp.original_owner in c.originally
        if by_owner or (t in printed and printed[t].alignment in c.neutrals):
            out[t] = None
    return tuple(out)


def _unit_is(s: GameState, u: Unit, kind: str) -> bool:
    ut = s.edition.units[u.type]
    ab = ut.abilities
    if ab.factory or ab.facility:
        return False  # facilities are no units of an army or a fleet (FA-1)
    if kind in ("land", "air", "sea"):
        return ut.domain == kind
    if kind == "warship":
        return ab.warship
    if kind == "surface_warship":
        return ab.surface_warship
    return True


def test(s: GameState, power: str, c: Condition) -> tuple[bool, tuple[str, ...]]:
    """Whether ``c`` holds for ``power`` now, and (``controls``) the territories found held."""
    spaces = spaces_of(s.edition, c)
    whose = _whose(s, power, c.by)
    found: tuple[str, ...] = ()
    if c.test == "controls":
        found = tuple(t for t in spaces if whose(s.owners.get(t)))
        ok = len(found) >= (c.need or len(spaces))
    elif c.test == "units":
        ok = any(whose(u.owner) and _unit_is(s, u, c.units)
                 for t in spaces for u in s.units_in(t))
    else:
        # A neutral still standing, whose sympathy now (UN-3, SN-2 change it) is one of these.
        ok = any(neutrals.standing(s, t) and neutrals.alignment(s, t) in c.alignments
                 for t in spaces)
    return ok != c.negate, found


def war_header(s: GameState, o: NationalObjective) -> bool:
    """The objective's war-state group header holds (§14 general, §22.16)."""
    p = o.power
    return ((not o.at_war or at_war_with_anyone(s, p))
            and all(s.enemy(p, x) for x in o.at_war_with)
            and not any(s.enemy(p, x) for x in o.not_at_war_with))


def payment(s: GameState, o: NationalObjective) -> tuple[int, tuple[str, ...]]:
    """What the objective pays its power now, and the territories it counted (per territory)."""
    if (o.one_time and o.id in used(s)) or not war_header(s, o):
        return 0, ()
    if not all(test(s, o.power, c)[0] for c in o.conditions):
        return 0, ()
    if o.count is None:
        return o.value, ()
    _, found = test(s, o.power, o.count)
    return o.value * len(found), found


def pay(tx: Tx) -> None:
    """§14: the objectives the power whose turn it is meets at its Collect Income."""
    s = tx.state
    paid = []
    for o in s.edition.rules.objectives:
        if o.power != s.power:
            continue
        amount, found = payment(s, o)
        if amount:
            paid.append((o.id, amount, found))
    if paid:
        tx.emit(ObjectivesPaid(power=s.power, paid=tuple(paid)))


@reg.evolver(ObjectivesPaid)
def _ev_paid(s: GameState, e: ObjectivesPaid) -> GameState:
    once = {o.id for o in s.edition.rules.objectives if o.one_time}
    firsts = {i for i, _, _ in e.paid if i in once}
    if firsts:
        s = s.with_part(Bonuses(used=used(s) | firsts))
    return s.with_part(Objectives(paid=s.part(Objectives).paid + sum(n for _, n, _ in e.paid)))


hooks.income_step(hooks.IncomeStep(
    run=pay,
    adjust=lambda s, power: s.part(Objectives).paid if power == s.power else 0,
    label=msg("objectives.label"),
))


# --------------------------------------------------------------------------------------------
# The position key 'used_bonuses' (COMMANDS.md): one-time bonuses already paid


def _read_used(ed: Edition, value: Any) -> list[str]:
    known = ed.one_time_bonuses
    if not known:
        raise InvalidOrder(msg("objectives.position_none", edition=ed.rules.title))
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
        raise InvalidOrder(msg("objectives.position_list", known=list(known)))
    unknown = [x for x in value if x not in known]
    if unknown:
        raise InvalidOrder(msg("objectives.position_unknown", unknown=unknown, known=list(known)))
    return [x for x in known if x in value]


def _build_used(ed: Edition, part: Bonuses, value: list[str]) -> Bonuses:
    return Bonuses(used=frozenset(value))


def _write_used(s: GameState) -> list[str] | None:
    known = s.edition.one_time_bonuses
    if not known:
        return None
    return [x for x in known if x in used(s)]


reg.part(Bonuses, key="bonuses", per_turn=False, position={"used": Written(("used_bonuses",))},
         keys=[PartKey("used_bonuses", _read_used, _build_used, _write_used)])
reg.part(Objectives, key="objectives", per_turn=True,
         position={"paid": within_turn("IPCs national objectives paid in this Collect Income")})


# --------------------------------------------------------------------------------------------
# Words


@reg.words(ObjectivesPaid)
def _paid_words(s: GameState, e: ObjectivesPaid) -> Msg:
    texts = {o.id: o for o in s.edition.rules.objectives}
    items = []
    for oid, amount, found in e.paid:
        o = texts.get(oid)
        items.append((o.text if o else oid, amount, list(found),
                      o.value if o else amount, bool(o and o.one_time)))
    return msg("objectives.paid", e.rule, power=e.power, items=items,
               total=sum(n for _, n, _ in e.paid))


def _paid_text(p: Mapping[str, Any]) -> str:
    parts = []
    for text, amount, found, each, once in p["items"]:
        line = f"+{amount} {text}"
        if found:
            line += f" ({', '.join(found)}: {each} each)"
        if once:
            line += " (once per game)"
        parts.append(line)
    return (f"National objectives of {p['power']}: {'; '.join(parts)} → +{p['total']} IPCs "
            f"({p['rule']}).")


catalogue("en", "objectives", {
    "label": "national objectives",
    "paid": _paid_text,
    "position_none": "Position used_bonuses: {edition} has no one-time bonuses; leave it out.",
    "position_list": "Position used_bonuses: a list of one-time bonuses already paid, of "
                     "{known:join}.",
    "position_unknown": "Position used_bonuses: unknown {unknown:join}; the one-time bonuses are "
                        "{known:join}.",
})
