"""Convoy disruption (Europe 1940 §13.1, CD-1..CD-5, IN-1, IN-2; A-20).

In its own Collect Income, before it collects, a power loses income to enemy warships in convoy
zones (the map's ``convoy_zones``) next to territories it controls. A sea zone disrupts the
power's convoys when it has the convoy symbol, is adjacent to a territory the power controls
and holds at least one warship of a power at war with it (CD-1); its own and its allies' ships
there change nothing. Each unit of a power at war with it rolls its ``convoy_dice``
(battleship, cruiser and destroyer 1, submarine 2), each of their planes aboard a carrier there
its ``convoy_dice_on_carrier`` (2), carriers none (CD-2, A-20); faces of 3 or less count at face
value and are added up. The loss from one zone is at most the value of the adjacent territories
the power controls, and a territory loses at most its own value across all zones (CD-3).

Best reading of CD-3 (the rulebook gives caps, not an order): the losses stand wherever no cap
forbids them, i.e. the largest total both caps allow, zones taken in the map's order; CD-4's
worked example (three German submarines in sea zone 109, then one in 119) comes out as the
rulebook says. Best reading of §22.6: planes aboard a damaged carrier cannot take off and roll
no convoy dice. A power without its capital collects nothing and skips Collect Income, so its
convoys are never disrupted (IN-2, CAP-2).

The losses of the turn are this module's part of the state (``Convoys``), read when the income
is collected (``rules.turn.hooks.income_step``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules.errors import InvalidOrder
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import within_turn
from rules.state import GameState, Unit
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import counted, ipcs, possessive, unit_list

if TYPE_CHECKING:
    from rules.turn.tx import Tx

COUNTS_UP_TO = 3  # CD-2: faces of 3 or less count at face value


@dataclass(frozen=True, slots=True)
class Convoys:
    """Convoy disruption's part of the state: IPCs the power whose turn it is lost to convoy
    disruption this turn (reset each turn)."""

    loss: int = 0


reg.part(Convoys, key="convoys", per_turn=True,
         position={"loss": within_turn("IPCs lost to convoy disruption in this Collect Income")})


class ConvoyDisrupted(ev.Event):
    """Enemy warships in a convoy zone disrupted a power's income (CD-1..CD-3): the units that
    rolled, their dice, the faces of 3 or less added up (``total``), the zone's cap (the value
    of the adjacent territories the power controls) and what it loses from this zone once
    every territory's own cap is kept across zones (``loss``)."""

    type: Literal["ConvoyDisrupted"] = "ConvoyDisrupted"
    power: str  # whose convoys
    zone: str
    raiders: tuple[tuple[str, str, int], ...]  # (owner, unit type, how many) that rolled
    rolls: ev.Rolls = ()  # one roll per raider group, in that order
    total: int = 0
    cap: int = 0
    loss: int = 0
    rule: str = own_rule("CD-2")


def _dice_of(s: GameState, u: Unit) -> int:
    """CD-2 / A-20: a ship's convoy dice; a plane's only aboard an undamaged carrier."""
    ab = s.edition.units[u.type].abilities
    if s.edition.units[u.type].domain != "air":
        return ab.convoy_dice
    carrier = s.units.get(u.carried_by) if u.carried_by is not None else None
    if carrier is None or carrier.damage:
        return 0
    return ab.convoy_dice_on_carrier


def disrupted_zones(s: GameState, power: str) -> list[tuple[str, list[Unit], tuple[str, ...]]]:
    """CD-1: each convoy zone that disrupts ``power``'s income now, with the units of powers at
    war with it there and the adjacent territories it controls (in map order)."""
    ed = s.edition
    order = {name: i for i, name in enumerate(ed.spaces)}
    out = []
    for zone in ed.map.convoy_zones:
        lands = tuple(sorted((t for t in ed.neighbours[zone]
                              if not ed.is_sea(t) and s.owners.get(t) == power),
                             key=order.__getitem__))
        if not lands:
            continue
        foes = sorted((u for u in s.units_in(zone) if s.enemy(u.owner, power)),
                      key=lambda u: u.id)
        if not any(ed.units[u.type].abilities.warship for u in foes):
            continue
        out.append((zone, foes, lands))
    return out


def allocate(demands: list[tuple[str, int, tuple[str, ...]]],
             values: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """CD-3: what each zone takes from each of its territories: each zone at most its demand
    (already within its own cap), each territory at most its value across zones, and the total
    as large as these caps allow (zones in the order given; an earlier zone's loss is never
    cut to make room for a later one)."""
    left = dict(values)
    flow: dict[str, dict[str, int]] = {z: {} for z, _, _ in demands}
    adj = {z: lands for z, _, lands in demands}
    for zone, want, _ in demands:
        for _ in range(want):
            if not _push_one(zone, adj, left, flow):
                break
    return flow


def _push_one(start: str, adj: Mapping[str, tuple[str, ...]], left: dict[str, int],
              flow: dict[str, dict[str, int]]) -> bool:
    """One more IPC for ``start``: from a territory with value left, or by moving another
    zone's take to a territory with value left (an augmenting path)."""
    parent: dict[str, tuple[str, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        z = queue.popleft()
        for t in adj[z]:
            if left.get(t, 0) > 0:
                left[t] -= 1
                flow[z][t] = flow[z].get(t, 0) + 1
                while (back := parent[z]) is not None:
                    prev, via = back  # ``prev`` takes ``via`` over from ``z``
                    flow[z][via] -= 1
                    flow[prev][via] = flow[prev].get(via, 0) + 1
                    z = prev
                return True
        for t in adj[z]:
            for other, takes in flow.items():
                if other not in parent and takes.get(t, 0) > 0:
                    parent[other] = (z, t)
                    queue.append(other)
    return False


def disrupt(tx: Tx) -> None:
    """CD-1..CD-3: the convoy disruption against the power whose turn it is, before its income."""
    s = tx.state
    power = s.power
    zones = disrupted_zones(s, power)
    if not zones:
        return
    roller = tx.dice
    if roller is None:  # a position that starts in Collect Income: nobody rolls
        raise InvalidOrder(msg("convoys.no_dice", own_rule("CD-1"), power=power,
                               zones=[z for z, _, _ in zones]))
    rolled: list[tuple[str, tuple[tuple[str, str, int], ...], ev.Rolls, int, int,
                       tuple[str, ...]]] = []
    for zone, foes, lands in zones:
        groups: dict[tuple[str, str], list[Unit]] = {}
        for u in foes:
            if _dice_of(s, u):
                groups.setdefault((u.owner, u.type), []).append(u)
        raiders: list[tuple[str, str, int]] = []
        rolls: list[tuple[str, tuple[int, ...]]] = []
        kinds, powers = list(s.edition.units), s.edition.turn_order
        for (owner, utype), units in sorted(groups.items(), key=lambda g: (
                powers.index(g[0][0]), kinds.index(g[0][1]))):
            n = sum(_dice_of(s, u) for u in units)
            purpose = f"convoy|{zone}|{power}|round {s.round}|{owner}|{utype}"
            rolls.append((purpose, tuple(roller.roll(n, purpose))))
            raiders.append((owner, utype, len(units)))
        total = sum(f for _, faces in rolls for f in faces if f <= COUNTS_UP_TO)
        cap = sum(s.edition.value(t) for t in lands)
        rolled.append((zone, tuple(raiders), tuple(rolls), total, cap, lands))
    takes = allocate([(z, min(total, cap), lands) for z, _, _, total, cap, lands in rolled],
                     {t: s.edition.value(t) for *_, lands in rolled for t in lands})
    for zone, raiders_, rolls_, total, cap, _ in rolled:
        loss = sum(takes[zone].values())
        tx.emit(ConvoyDisrupted(
            power=power, zone=zone, raiders=raiders_, rolls=rolls_, total=total, cap=cap,
            loss=loss, rule=own_rule("CD-2/CD-3") if loss < total else own_rule("CD-2")))


@reg.evolver(ConvoyDisrupted)
def _ev_disrupted(s: GameState, e: ConvoyDisrupted) -> GameState:
    return s.with_part(Convoys(loss=s.part(Convoys).loss + e.loss))


hooks.income_step(hooks.IncomeStep(
    run=disrupt,
    adjust=lambda s, power: -s.part(Convoys).loss if power == s.power else 0,
    label=msg("convoys.label"),
))


# --------------------------------------------------------------------------------------------
# Words


@reg.words(ConvoyDisrupted)
def _words(s: GameState, e: ConvoyDisrupted) -> Msg:
    by_owner: dict[str, dict[str, int]] = {}
    for owner, utype, n in e.raiders:
        by_owner.setdefault(owner, {})[utype] = n
    return msg("convoys.disrupted", e.rule, power=e.power, zone=e.zone,
               raiders=[(owner, units) for owner, units in by_owner.items()],
               faces=[f for _, faces in e.rolls for f in faces], total=e.total, cap=e.cap,
               loss=e.loss)


def _disrupted_text(p: Mapping[str, Any]) -> str:
    who = "; ".join(f"{possessive(owner)} {unit_list(units)}" for owner, units in p["raiders"])
    faces = p["faces"]
    if not faces:
        rolled = f"{who or 'enemy warships'} roll no dice"
    else:
        rolled = (f"{who} rolled {', '.join(map(str, faces))} → {p['total']} "
                  f"(each 3 or less counts)")
    line = f"Convoy disruption in {p['zone']} against {p['power']}: {rolled}"
    if p["total"] > p["cap"]:
        line += f"; at most {ipcs(p['cap'])} from this zone (its territories there)"
    if p["loss"] < min(p["total"], p["cap"]):
        line += "; its territories there have already lost their value to other zones"
    lost = f"{p['power']} loses {ipcs(p['loss'])}" if p["loss"] else "nothing lost"
    return f"{line} → {lost} ({p['rule']})."


catalogue("en", "convoys", {
    "label": "convoy disruption",
    "no_dice": "{power:possessive} convoys are disrupted in {zones:and} ({rule}): a position "
               "cannot start in Collect Income with dice to roll; start it in Mobilize New Units "
               "and end that phase.",
    "disrupted": _disrupted_text,
})

__all__ = ["ConvoyDisrupted", "Convoys", "allocate", "counted", "disrupt", "disrupted_zones"]
