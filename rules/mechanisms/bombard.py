"""Choosing the ships that bombard a landing (Europe 1940 AA-2): 'bombard <territory> from <sea
zone> with 1 battleship, 1 cruiser'.

Where an edition limits bombardment (``RuleSet.bombardment_limit``), the ships that bombard are
chosen, as in Classic, when Conduct Combat opens the battles (``rules.battle.opening``): the
strongest first, no more than the land units unloaded into the territory, each ship for one
landing. Before a landing's first round the attacker may choose others: the ships it names from
a sea zone replace those from that zone, and leave any other landing not yet fought. Nothing is
owed: without the order, the ships chosen at the opening bombard.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import orders as od
from rules.battle import model as bm
from rules.battle.forces import alive
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import FROM, split_all, try_splits
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.language.units import format_units, parse_units
from rules.messages import Msg, catalogue, msg, own_rule
from rules.state import BattleState, GameState, Unit
from rules.turn import registry as reg
from rules.words import possessive, rule_suffix, unit_list

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.turn.tx import Tx

CONDUCT = "conduct_combat"
AA_2 = own_rule("AA-2")  # Europe 1940's AA-2 (1941's AA-2 is its AA-1)

# --------------------------------------------------------------------------------------------
# The order and the event


class Bombard(od.Order):
    """The ships of ``units`` in the sea zone ``frm`` bombard the landing in ``space`` in its
    round 1 (AA-2), instead of those chosen from that zone when the battles opened."""

    kind: Literal["bombard"] = "bombard"
    space: str
    frm: str
    units: od.Units


class BombardmentChosen(ev.Event):
    """The attacker chose the ships from ``frm`` that bombard the landing in ``space`` (AA-2):
    they replace that zone's ships there and bombard no other landing."""

    type: Literal["BombardmentChosen"] = "BombardmentChosen"
    space: str
    frm: str
    ships: tuple[int, ...]
    rule: str = AA_2


# --------------------------------------------------------------------------------------------
# The order as players write it (rules.language: parsing, usage, help, autocomplete)

_WITH = re.compile(r"\s+with\s+", re.I)


def _bombard(rest: str, names: Names, verb: str) -> Bombard:
    example = "bombard Normandy Bordeaux from Sea Zone 110 with 1 battleship, 1 cruiser"
    for head, units_text in split_all(rest, _WITH):
        ends = try_splits(split_all(head, FROM), names.space, names.space)
        if ends is not None:
            return Bombard(space=ends[0], frm=ends[1], units=parse_units(units_text, names))
    raise BOMBARD.expected(example)


def _bombard_from(o: Any, c: Chosen) -> str | None:
    return o.frm if isinstance(o, Bombard) and c.fits("space", o.space) else None


def _bombard_units(o: Any, c: Chosen) -> str | None:
    return (format_units(o.units) if isinstance(o, Bombard) and c.fits("space", o.space)
            and c.fits("from", o.frm) else None)


BOMBARD = ORDERS.register(OrderSyntax[od.Order](
    verb="bombard",
    usage="bombard <territory> from <sea zone> with <ships>  (before a landing's first round, "
          "where the edition limits bombardment)",
    read=_bombard,
    rank=75,
    topic="battles",
    makes=(Bombard,),
    needs=lambda r: r.bombardment != "none" and r.bombardment_limit != "none",  # 1940 AA-2
    example=lambda b: (f"bombard {b.near} from {b.sea} with 1 battleship",
                       f"/bombard space:{b.near} from:{b.sea} units:1 battleship"),
    explain="""\
By the attacker, before the first round of an amphibious assault that followed no sea battle:
the battleships and cruisers named, in a sea zone the landing came from, bombard the territory
(one shot each in round 1), no more ships than the land units unloaded there; they replace the
ships the referee chose from that zone, and support no other landing.""",
    args=(Arg("space", "battle"), Arg("from", "space", offer=_bombard_from),
          Arg("units", "units", offer=_bombard_units)),
    hints=(Hint("bombard", "/bombard",
                (r"(?P<space>.+?) from (?P<from>.+?) with (?P<units>.+)",)),),
))


# --------------------------------------------------------------------------------------------
# Which ships may bombard which landing


def landing_zones(s: GameState, b: BattleState) -> list[str]:
    """The sea zones the land units of the assault on ``b.space`` were unloaded from."""
    return sorted({u.came_from for u in alive(s, b.seaborne)
                   if u.came_from and s.edition.is_sea(u.came_from)})


def unloaded(s: GameState, b: BattleState) -> int:
    """Land units unloaded from transports into the territory (AA-2: the most ships that may
    bombard it)."""
    return len(alive(s, b.seaborne))


def ships_in(s: GameState, power: str, zone: str) -> list[Unit]:
    """``power``'s ships in ``zone`` that may bombard: not cargo, no battle this turn."""
    ed = s.edition
    return [u for u in s.units_in(zone) if u.owner == power and u.carried_by is None
            and bm.bombards(ed, u.type) and not u.fought]


def _committed(s: GameState, ship: int, space: str) -> str | None:
    """The landing already fought that ``ship`` bombards (it cannot change), else None."""
    for x in s.battles.values():
        if x.space != space and ship in x.bombarding and (x.round > 0 or x.step != "ready"):
            return x.space
    return None


def open_landings(s: GameState, power: str) -> list[BattleState]:
    """The attacker's landings not fought yet that may be bombarded: no sea battle in a zone
    they came from (AA-2)."""
    out = []
    for b in s.battles.values():
        if (b.attacker != power or b.sea or not b.amphibious or b.round > 0
                or b.step != "ready" or b.blocked_by is not None):
            continue
        zones = landing_zones(s, b)
        if zones and not any(z in s.battles for z in zones):
            out.append(b)
    return out


# --------------------------------------------------------------------------------------------
# Deciding it


@reg.order(Bombard, phases=(CONDUCT,))
def decide_bombard(tx: Tx, order: Bombard, dice: Dice) -> None:
    """The ships named bombard the landing (AA-2), checked as the module docstring says."""
    s = tx.state
    ed = s.edition
    rules = ed.rules.rules
    for name in (order.space, order.frm):
        if name not in ed.spaces:
            raise InvalidOrder(msg("bombard.unknown_space", space=name))
    if rules.bombardment == "none":
        raise IllegalOrder(msg("bombard.none"))
    if rules.bombardment_limit == "none":
        raise IllegalOrder(msg("bombard.every_ship", "R-AMP-05"))
    b = s.battles.get(order.space)
    if b is None or b.sea or not b.amphibious or b.attacker != order.power:
        raise IllegalOrder(msg("bombard.no_landing", AA_2, space=order.space,
                               landings=[x.space for x in open_landings(s, order.power)]))
    if b.round > 0 or b.step != "ready":
        raise IllegalOrder(msg("bombard.too_late", AA_2, space=order.space))
    zones = landing_zones(s, b)
    fought = [z for z in zones if z in s.battles]
    if b.blocked_by is not None or fought:
        raise IllegalOrder(msg("bombard.sea_battle", own_rule("AA-1, AA-2"), space=order.space,
                               zone=b.blocked_by or fought[0]))
    if order.frm not in zones:
        raise IllegalOrder(msg("bombard.not_from", AA_2, space=order.space, zone=order.frm,
                               zones=zones))
    ships = ships_in(s, order.power, order.frm)
    chosen: list[int] = []
    for utype, n in order.units.items():
        if utype not in ed.units:
            raise InvalidOrder(msg("bombard.unknown_unit", unit=utype))
        if not bm.bombards(ed, utype):
            raise IllegalOrder(msg("bombard.cannot", AA_2, unit=utype,
                                   ships=sorted(t for t in ed.units if bm.bombards(ed, t))))
        # Ships already bombarding here first, then free ones, then those of landings to come.
        pool = sorted((u for u in ships if u.type == utype
                       and _committed(s, u.id, order.space) is None),
                      key=lambda u: (u.id not in b.bombarding,
                                     any(u.id in x.bombarding for x in s.battles.values()), u.id))
        if n < 1 or n > len(pool):
            raise IllegalOrder(msg("bombard.too_few", AA_2, power=order.power, unit=utype,
                                   zone=order.frm, have=len(pool), count=n))
        chosen += [u.id for u in pool[:n]]
    others = [i for i in b.bombarding if i in s.units and s.units[i].space != order.frm]
    most = unloaded(s, b)
    if len(others) + len(chosen) > most:  # the limit (checked above: there is one)
        raise IllegalOrder(msg("bombard.too_many", AA_2, space=order.space, most=most,
                               others=len(others), count=len(chosen)))
    tx.emit(BombardmentChosen(space=order.space, frm=order.frm, ships=tuple(sorted(chosen))))


@reg.evolver(BombardmentChosen)
def _ev_chosen(s: GameState, e: BombardmentChosen) -> GameState:
    from dataclasses import replace

    battles = dict(s.battles)
    mine = set(e.ships)
    for sp, b in s.battles.items():
        if sp == e.space:
            keep = tuple(i for i in b.bombarding if i in s.units and s.units[i].space != e.frm)
            battles[sp] = replace(b, bombarding=tuple(sorted((*keep, *e.ships))))
        elif mine & set(b.bombarding):
            battles[sp] = replace(b, bombarding=tuple(i for i in b.bombarding if i not in mine))
    return replace(s, battles=battles)


@reg.candidates(CONDUCT)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """For each landing not fought yet, each ship type in each zone it came from, one ship."""
    if s.edition.rules.rules.bombardment_limit == "none":
        return
    for b in open_landings(s, power):
        for z in landing_zones(s, b):
            for utype in sorted({u.type for u in ships_in(s, power, z)}):
                yield Bombard(power=power, space=b.space, frm=z, units={utype: 1})


def _count(s: GameState, ids: Iterable[int]) -> dict[str, int]:
    return dict(Counter(s.units[i].type for i in ids if i in s.units))


@reg.words(BombardmentChosen)
def _words(s: GameState, e: BombardmentChosen) -> Msg:
    owner = next((s.units[i].owner for i in e.ships if i in s.units), "")
    return msg("bombard.chosen", e.rule or None, power=owner, units=_count(s, e.ships),
               zone=e.frm, space=e.space)


# --------------------------------------------------------------------------------------------
# The English of its words and refusals


def _too_few(p: Mapping[str, Any]) -> str:
    return (f"{p['power']} has {p['have']} {p['unit']} in {p['zone']} free to bombard, not "
            f"{p['count']}: a ship bombards once, for one landing, if it fought no battle this "
            f"turn ({p['rule']}).")


catalogue("en", "bombard", {
    "unknown_space": "Unknown space {space!r}.",
    "unknown_unit": "Unknown unit {unit!r}.",
    "none": "There is no shore bombardment in this game.",
    "every_ship": "Every ship that may bombard a landing does, without an order ({rule}).",
    "no_landing": "There is no amphibious assault of yours to bombard in {space} ({rule}). "
                  "Landings not fought yet: {landings:join|none}.",
    "too_late": "The ships bombarding {space} are chosen before its first round ({rule}).",
    "sea_battle": "No bombardment of {space}: a sea battle was fought in {zone}, a zone its "
                  "land units came from ({rule}).",
    "not_from": "Ships bombard from a sea zone the assault's land units were unloaded from "
                "({rule}): {space}'s came from {zones:join|none}, not {zone}.",
    "cannot": "A {unit} does not bombard ({rule}); ships that do: {ships:join|none}.",
    "too_few": _too_few,
    "too_many": "No more ships may bombard {space} than land units were unloaded there: "
                "{most} ({rule}); {others} from other zones already do, and the order names "
                "{count}.",
    "chosen": lambda p: (f"{possessive(p['power'])} {unit_list(p['units'])} in {p['zone']} "
                         f"will bombard {p['space']}{rule_suffix(p['rule'])}."),
})
