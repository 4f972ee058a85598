"""Interceptors and the air battle of a bombing raid (Europe 1940 BR-3..BR-6, SC-8, §22.8).

Where fighters escort raids and intercept them (the ``escort_interceptor`` ability), a raid
declared in Combat Move (``rules.mechanisms.bombing``) meets the defender's fighters:

- SC-8 / BR-4: once the attacker's Combat Move is over and before any combat, each power at
  war with the attacker whose fighters stand in a raided territory says how many of them
  intercept: 'intercept Germany 2 fighters' ('intercept Germany none'; bare: all of them). It
  is a decision owed by that power (``INTERCEPTION``), in or out of its turn; at the deadline
  the referee commits none (best reading: an absent player's units do only what they were told,
  as a submarine stays unless told to withdraw). No battle and no raid is fought while one is
  owed. Interceptors fight nothing else this turn: they leave the battle in their territory.
- BR-5: where interceptors were committed, the attacker fights one air battle per raided
  territory ('air battle Germany'): one round, only the raiding bombers, their escorts and the
  interceptors, every unit hitting on 1. Each side chooses its own casualties (best reading of
  the digest) with 'casualties <territory> <units>' (``AIR_CASUALTIES``); a side whose losses
  leave no choice loses them at once.
- BR-6: surviving escorts then withdraw (they stay in the territory, out of the raid, and fly
  on in Noncombat Move); the surviving bombers fly the raid ('bomb ...').
- BR-4: interceptors whose territory was captured move one space at the start of Noncombat
  Move, before the attacker's own moves, to a friendly territory or an allied carrier, or are
  lost (the referee lands them, as NC-3 lands a sunk carrier's fighters).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules import events as ev
from rules import orders as od
from rules.battle.casualties import casualty_rank
from rules.battle.choice import worth_less_first
from rules.decisions import Owed, Pending, answered_by
from rules.dice import Dice, roll_purpose
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import lead_name
from rules.language.registry import ORDERS, Arg, Board, Chosen, Hint, OrderSyntax
from rules.language.units import format_units, parse_units
from rules.mechanisms import bombing
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import within_turn
from rules.state import GameState, Unit
from rules.stranded import land_near
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import agree, possessive, unit_list

if TYPE_CHECKING:
    from rules.turn.tx import Tx

CONDUCT = "conduct_combat"
NONCOMBAT = "noncombat_move"
AIR_HIT = 1  # BR-5: every unit of the air battle attacks or defends at 1

# --------------------------------------------------------------------------------------------
# The orders, the events, the waits


class Intercept(od.Order):
    """The defender's fighters in a raided territory that intercept the raid (BR-4, SC-8):
    ``units`` by type ({}: none; None: every one that may)."""

    kind: Literal["intercept"] = "intercept"
    space: str
    units: od.Units | None = None


class AirBattle(od.Order):
    """Fight the air battle of the raid on a territory (BR-5)."""

    kind: Literal["air_battle"] = "air_battle"
    space: str


class InterceptorsCommitted(ev.Event):
    """A power's fighters in a raided territory that intercept its raid (``units``: none
    intercept when empty); they leave the battle there (BR-4)."""

    type: Literal["InterceptorsCommitted"] = "InterceptorsCommitted"
    space: str
    power: str
    units: tuple[int, ...] = ()
    by: str = "choice"  # or "referee" (the deadline's default)


class AirBattleFought(ev.Event):
    """The one round of an air battle (BR-5): who fought, and the hits each side scored (its
    ``DiceRolled`` come first)."""

    type: Literal["AirBattleFought"] = "AirBattleFought"
    space: str
    attacker: str
    defenders: tuple[str, ...]
    attacking: tuple[int, ...]
    defending: tuple[int, ...]
    attacker_hits: int  # scored by the bombers and escorts: interceptors to lose
    defender_hits: int  # scored by the interceptors: bombers and escorts to lose


class AirCasualtiesChosen(ev.Event):
    """One side's losses in an air battle (BR-5); ``UnitsRemoved`` follows."""

    type: Literal["AirCasualtiesChosen"] = "AirCasualtiesChosen"
    space: str
    side: Literal["attacker", "defender"]
    by: str  # the power that chose, or "referee"
    lost: tuple[int, ...]
    how: Literal["choice", "forced", "default"] = "choice"


class AirBattleEnded(ev.Event):
    """The air battle is over: the surviving bombers fly the raid, the surviving escorts
    withdraw (BR-6)."""

    type: Literal["AirBattleEnded"] = "AirBattleEnded"
    space: str
    bombers: tuple[int, ...]
    escorts: tuple[int, ...]
    interceptors: tuple[int, ...]


INTERCEPTION = Owed("interception", verb="intercept", menu=True)
AIR_BATTLE = Owed("air battle", verb="airbattle")
AIR_CASUALTIES = Owed("air battle casualties", verb="casualties", menu=True)
answered_by(AIR_CASUALTIES, od.Casualties.model_fields["kind"].default)

AIR_BATTLE_STAGE = ev.dice_stage("air_battle")


@dataclass(frozen=True, slots=True)
class Interceptions:
    """The interceptions' part of the state, reset each turn."""

    decided: tuple[tuple[str, str], ...] = ()  # (territory, power) that chose its interceptors
    interceptors: frozenset[int] = frozenset()  # ids of the fighters intercepting (BR-4)
    fought: frozenset[str] = frozenset()  # territories whose air battle was fought (BR-5)
    owed: tuple[tuple[str, str, int], ...] = ()  # (territory, side, losses still to choose)


reg.part(Interceptions, key="interceptions", per_turn=True,
         position={"decided": within_turn("interceptions decided this turn"),
                   "interceptors": within_turn("fighters intercepting a raid this turn"),
                   "fought": within_turn("air battles fought this turn"),
                   "owed": within_turn("air battle casualties still to choose")})


# --------------------------------------------------------------------------------------------
# Who may intercept, and what is owed


def _has_interceptors(s: GameState) -> bool:
    return any(u.abilities.escort_interceptor for u in s.edition.rules.units)


def _interceptor_type(s: GameState, utype: str) -> bool:
    return bombing.is_escort(s, utype)


def eligible(s: GameState, space: str) -> dict[str, list[Unit]]:
    """The fighters in ``space`` that may intercept the acting power's raid there, by power:
    those of every power at war with it (BR-4; best reading: an ally's fighters defending the
    territory decide for themselves), in id order."""
    out: dict[str, list[Unit]] = {}
    for u in sorted(s.units_in(space), key=lambda x: x.id):
        if (u.carried_by is None and _interceptor_type(s, u.type)
                and s.enemy(u.owner, s.power)):
            out.setdefault(u.owner, []).append(u)
    order = s.edition.turn_order
    return dict(sorted(out.items(), key=lambda kv: order.index(kv[0])))


def owed_interceptions(s: GameState) -> list[tuple[str, str]]:
    """(territory, power) still to say how many fighters intercept (SC-8)."""
    if s.phase != CONDUCT or not _has_interceptors(s):
        return []
    decided = set(s.part(Interceptions).decided)
    return [(space, p) for space in bombing.open_raids(s) for p in eligible(s, space)
            if (space, p) not in decided]


def interceptors(s: GameState, space: str) -> list[Unit]:
    """The interceptors in ``space`` still on the board, in id order."""
    return [s.units[i] for i in sorted(s.part(Interceptions).interceptors)
            if i in s.units and s.units[i].space == space]


def _attackers(s: GameState, space: str) -> list[Unit]:
    return [*bombing.bombers_in(s, space),
            *(s.units[i] for i in bombing.escorts(s, space) if s.units[i].owner == s.power)]


def _air_battles_due(s: GameState) -> list[str]:
    """Raided territories whose air battle is still to fight (BR-5)."""
    if not _has_interceptors(s) or owed_interceptions(s):
        return []
    fought = s.part(Interceptions).fought
    return [x for x in bombing.open_raids(s) if x not in fought and interceptors(s, x)]


def _owed_here(s: GameState, space: str) -> list[tuple[str, int]]:
    return [(side, n) for where, side, n in s.part(Interceptions).owed if where == space]


def _chooser(s: GameState, space: str, side: str) -> str:
    if side == "attacker":
        return s.power
    return next((u.owner for u in interceptors(s, space)), s.power)


def _choosers(s: GameState, space: str, side: str) -> set[str]:
    if side == "attacker":
        return {s.power}
    return {u.owner for u in interceptors(s, space)}


def _side_units(s: GameState, space: str, side: str) -> list[Unit]:
    return _attackers(s, space) if side == "attacker" else interceptors(s, space)


@reg.waits
def _waits(s: GameState) -> list[Pending]:
    if not _has_interceptors(s) or s.phase != CONDUCT:
        return []
    out = [Pending(p, INTERCEPTION, space) for space, p in owed_interceptions(s)]
    out += [Pending(s.power, AIR_BATTLE, x) for x in _air_battles_due(s)]
    out += [Pending(_chooser(s, space, side), AIR_CASUALTIES, space)
            for space, side, _n in s.part(Interceptions).owed]
    return out


@bombing.before_raid
def _before_raid(s: GameState, space: str) -> Msg | None:
    """SC-8: no raid while interceptors are being chosen; BR-5: the air battle first."""
    if not _has_interceptors(s):
        return None
    owed = owed_interceptions(s)
    if owed:
        return msg("interception.owed", own_rule("SC-8"), waiting=owed)
    if space in _air_battles_due(s):
        return msg("interception.air_battle_first", own_rule("BR-5"), space=space)
    if _owed_here(s, space):
        side = _owed_here(s, space)[0][0]
        return msg("interception.casualties_owed", own_rule("BR-5"), space=space,
                   power=_chooser(s, space, side))
    return None


@hooks.before_fight
def _interceptors_first(s: GameState, space: str) -> None:
    """SC-8: the defender fixes its interceptors before Conduct Combat begins."""
    owed = owed_interceptions(s)
    if owed:
        raise IllegalOrder(msg("interception.owed", own_rule("SC-8"), waiting=owed))


def _aside(s: GameState) -> list[int]:
    return sorted(i for i in s.part(Interceptions).interceptors if i in s.units)


# BR-4: interceptors fight in no other combat this turn.
hooks.aside(_aside)


# --------------------------------------------------------------------------------------------
# How players write them


def _intercept(rest: str, names: Names, verb: str) -> Intercept:
    example = "intercept Germany 2 fighters"
    if not rest:
        raise INTERCEPT.expected(example)
    lead = lead_name(rest, names.table("space"))
    if lead is None:
        return Intercept(space=names.space(rest))
    space, tail = lead
    words = tail.casefold().split()
    if not words:
        return Intercept(space=space)
    if words in (["none"], ["0"], ["no"], ["nothing"]) or (words[0] in ("no", "0")
                                                          and len(words) == 2):
        return Intercept(space=space, units={})
    if words == ["all"]:
        return Intercept(space=space)
    return Intercept(space=space, units=parse_units(tail, names))


def _air_battle(rest: str, names: Names, verb: str) -> AirBattle:
    example = "air battle Germany"
    if verb == "air":
        head, _, rest = rest.partition(" ")
        if head.casefold() != "battle":
            raise AIR.expected(example)
    if not rest.strip():
        raise AIR.expected(example)
    return AirBattle(space=names.space(rest))


def _offer_space(o: Any, c: Chosen) -> str | None:
    return o.space if isinstance(o, Intercept | AirBattle) else None


def _offer_units(o: Any, c: Chosen) -> str | None:
    if isinstance(o, Intercept) and c.fits("space", o.space) and o.units is not None:
        return format_units(o.units) if o.units else "none"
    return None


def _needs(r: Any) -> bool:
    return bool(r.strategic_bombing and r.raid_damage == "facilities")


def _write_intercept(o: Intercept) -> str:
    if o.units is None:
        return f"intercept {o.space}"
    return f"intercept {o.space} {format_units(o.units) if o.units else 'none'}"


INTERCEPT = ORDERS.register(OrderSyntax[od.Order](
    verb="intercept",
    usage="intercept <territory> [<fighters>|none]  (the defender's fighters against a raid, "
          "where the edition has interceptors)",
    read=_intercept,
    rank=122,
    topic="battles",
    makes=(Intercept,),
    needs=_needs,  # Europe 1940 BR-4, SC-8
    example=lambda b: (f"intercept {b.near} 2 fighters",
                       f"/intercept space:{b.near} units:2 fighters"),
    explain="""\
By the defender, once the attacker's Combat Move is over and before any combat: how many of
its fighters in a territory that bombers raid intercept them ('none': the fighters stay out of
it; without a count: all of them). Interceptors fight the raid's one-round air battle and
nothing else this turn. At the deadline the referee commits none.""",
    args=(Arg("space", "space", offer=_offer_space, battles=True),
          Arg("units", "units", offer=_offer_units)),
    hints=(Hint("intercept", "/intercept", (r"(?P<space>.+?)(?: (?P<units>(?:\d+|none|all)"
                                            r"(?: .+)?))?",)),),
    write=_write_intercept,
))


def _air_example(b: Board) -> tuple[str, str]:
    return f"air battle {b.near}", f"/airbattle space:{b.near}"


AIR = ORDERS.register(OrderSyntax[od.Order](
    verb="air battle",
    usage="air battle <territory>  (the air battle of a raid that was intercepted)",
    read=_air_battle,
    words=("air", "airbattle"),
    rank=121,
    topic="battles",
    makes=(AirBattle,),
    needs=_needs,  # Europe 1940 BR-5
    example=_air_example,
    explain="""\
Conduct Combat, by the attacker, where the defender intercepted a raid: one round between the
raiding bombers with their escorts and the interceptors, every unit hitting on 1. Each side
chooses its losses ('casualties <territory> <units>'); then the escorts withdraw and the
surviving bombers fly the raid ('bomb <territory>').""",
    args=(Arg("space", "space", offer=_offer_space, battles=True),),
    hints=(Hint("air battle", "/airbattle", (r"(?P<space>.+)",)),
           Hint("airbattle", "/airbattle", (r"(?P<space>.+)",))),
    write=lambda o: f"air battle {o.space}",
))


# --------------------------------------------------------------------------------------------
# Deciding them


def _not_yet(s: GameState, order: Any) -> Msg:
    return msg("interception.not_yet", own_rule("SC-8"), phase=s.edition.phase_info[s.phase].name)


@reg.order(Intercept, phases=(CONDUCT,), in_turn=False, answers=INTERCEPTION,
           wrong_phase=_not_yet)
def decide_intercept(tx: Tx, order: Intercept, dice: Dice) -> None:
    """SC-8 / BR-4: a power's fighters in a raided territory that intercept."""
    s = tx.state
    if not _has_interceptors(s):
        raise IllegalOrder(msg("interception.not_here"))
    space = order.space
    if space not in s.edition.spaces:
        raise InvalidOrder(msg("interception.unknown_space", space=space))
    mine = eligible(s, space).get(order.power, []) if space in bombing.open_raids(s) else []
    if (space, order.power) in s.part(Interceptions).decided:
        raise IllegalOrder(msg("interception.decided", own_rule("SC-8"), power=order.power,
                               space=space))
    if space not in bombing.open_raids(s):
        raise IllegalOrder(msg("interception.no_raid", own_rule("BR-4"), space=space,
                               raids=bombing.open_raids(s)))
    if not mine:
        raise IllegalOrder(msg("interception.no_fighters", own_rule("BR-4"), power=order.power,
                               space=space))
    have: dict[str, list[Unit]] = {}
    for u in mine:
        have.setdefault(u.type, []).append(u)
    want = {t: len(us) for t, us in have.items()} if order.units is None else order.units
    chosen: list[int] = []
    for utype, n in want.items():
        if n < 0 or utype not in have or n > len(have[utype]):
            raise IllegalOrder(msg("interception.too_many", own_rule("BR-4"), power=order.power,
                                   space=space, have={t: len(us) for t, us in have.items()},
                                   want=dict(want)))
        chosen.extend(u.id for u in have[utype][:n])
    tx.emit(InterceptorsCommitted(space=space, power=order.power, units=tuple(sorted(chosen))))


@reg.evolver(InterceptorsCommitted)
def _ev_committed(s: GameState, e: InterceptorsCommitted) -> GameState:
    part = s.part(Interceptions)
    part = replace(part, decided=(*part.decided, (e.space, e.power)),
                   interceptors=part.interceptors | set(e.units))
    s = s.with_part(part)
    b = s.battles.get(e.space)
    if b is not None and e.units:  # BR-4: they leave the battle in their territory
        gone = set(e.units)
        b = replace(b, defending=tuple(i for i in b.defending if i not in gone))
        s = replace(s, battles={**s.battles, e.space: b})
    return s


def _air_wrong_phase(s: GameState, order: Any) -> Msg:
    return msg("interception.air_battle_phase", own_rule("BR-5"),
               phase=s.edition.phase_info[s.phase].name)


@reg.order(AirBattle, phases=(CONDUCT,), answers=AIR_BATTLE, wrong_phase=_air_wrong_phase)
def decide_air_battle(tx: Tx, order: AirBattle, dice: Dice) -> None:
    """BR-5: one round, the bombers and escorts against the interceptors, every unit at 1."""
    s = tx.state
    space = order.space
    if space not in s.edition.spaces:
        raise InvalidOrder(msg("interception.unknown_space", space=space))
    if not _has_interceptors(s):
        raise IllegalOrder(msg("interception.not_here"))
    if space not in bombing.open_raids(s):
        raise IllegalOrder(msg("interception.no_raid", own_rule("BR-5"), space=space,
                               raids=bombing.open_raids(s)))
    owed = owed_interceptions(s)
    if owed:
        raise IllegalOrder(msg("interception.owed", own_rule("SC-8"), waiting=owed))
    if space in s.part(Interceptions).fought:
        raise IllegalOrder(msg("interception.fought", own_rule("BR-5"), space=space))
    defending = interceptors(s, space)
    if not defending:
        raise IllegalOrder(msg("interception.no_interceptors", own_rule("BR-6"), space=space))
    attacking = _attackers(s, space)
    hits: dict[str, int] = {}
    for side, units in (("attacker", attacking), ("defender", defending)):
        counts: dict[str, int] = {}
        for u in units:
            counts[u.type] = counts.get(u.type, 0) + 1
        groups = tuple(
            (utype, AIR_HIT, tuple(dice.roll(n, roll_purpose(space, 1,
                                                             f"{side}:{AIR_BATTLE_STAGE}", utype))))
            for utype, n in sorted(counts.items()))
        hits[side] = sum(1 for _t, _v, faces in groups for f in faces if f <= AIR_HIT)
        tx.emit(ev.DiceRolled(space=space, round=1, side=side,  # type: ignore[arg-type]
                              purpose=f"{space} air battle {side}:{AIR_BATTLE_STAGE}",
                              groups=groups, hits=hits[side], dice=dice.name,
                              stage=AIR_BATTLE_STAGE))
    defenders = tuple(dict.fromkeys(u.owner for u in defending))
    tx.emit(AirBattleFought(space=space, attacker=s.power, defenders=defenders,
                            attacking=tuple(u.id for u in attacking),
                            defending=tuple(u.id for u in defending),
                            attacker_hits=min(hits["attacker"], len(defending)),
                            defender_hits=min(hits["defender"], len(attacking))))
    _settle(tx, space)


@reg.evolver(AirBattleFought)
def _ev_fought(s: GameState, e: AirBattleFought) -> GameState:
    part = s.part(Interceptions)
    owed = [(e.space, side, n) for side, n in (("attacker", e.defender_hits),
                                               ("defender", e.attacker_hits)) if n > 0]
    return s.with_part(replace(part, fought=part.fought | {e.space},
                               owed=(*part.owed, *owed)))


def _forced(s: GameState, space: str, side: str, n: int) -> tuple[int, ...] | None:
    """The losses when there is no choice: all of them, or units all alike (BR-5)."""
    units = _side_units(s, space, side)
    if n >= len(units):
        return tuple(u.id for u in units)
    if len({(u.type, u.owner) for u in units}) == 1:
        return tuple(u.id for u in worth_less_first(s, units)[:n])
    return None


def default_losses(s: GameState, space: str, side: str, n: int) -> tuple[int, ...]:
    """The referee's losses for a side: its standing casualty order, else the cheapest first,
    and of one type the one worth less now (H-1's default)."""
    units = _side_units(s, space, side)
    standing = s.standing.get(_chooser(s, space, side), ())
    ranked = sorted(units, key=lambda u: (casualty_rank(s.edition.units[u.type], standing),
                                          worth_less_first(s, units).index(u)))
    return tuple(u.id for u in ranked[:n])


def _settle(tx: Tx, space: str) -> None:
    """Remove the losses that leave no choice; when none are owed, end the air battle."""
    for side, n in _owed_here(tx.state, space):
        lost = _forced(tx.state, space, side, n)
        if lost is not None:
            _remove(tx, space, side, "referee", lost, "forced")
    if not _owed_here(tx.state, space):
        _end(tx, space)


def _remove(tx: Tx, space: str, side: str, by: str, lost: tuple[int, ...],
            how: Literal["choice", "forced", "default"]) -> None:
    tx.emit(AirCasualtiesChosen(space=space, side=side,  # type: ignore[arg-type]
                                by=by, lost=lost, how=how))
    if lost:
        tx.emit(ev.UnitsRemoved(ids=lost, reason=f"shot down in the air battle over {space}",
                                rule=own_rule("BR-5")))


@reg.evolver(AirCasualtiesChosen)
def _ev_air_casualties(s: GameState, e: AirCasualtiesChosen) -> GameState:
    part = s.part(Interceptions)
    return s.with_part(replace(part, owed=tuple(
        x for x in part.owed if (x[0], x[1]) != (e.space, e.side))))


def _end(tx: Tx, space: str) -> None:
    s = tx.state
    tx.emit(AirBattleEnded(space=space, bombers=tuple(u.id for u in bombing.bombers_in(s, space)),
                           escorts=tuple(i for i in bombing.escorts(s, space)
                                         if s.units[i].owner == s.power),
                           interceptors=tuple(u.id for u in interceptors(s, space))))
    if not bombing.bombers_in(tx.state, space):
        bombing.raid_over(tx, space, "every bomber was shot down in the air battle")


@reg.evolver(AirBattleEnded)
def _ev_ended(s: GameState, e: AirBattleEnded) -> GameState:
    return s


@hooks.decision_taker
def _take_casualties(tx: Tx, order: od.Order, dice: Dice) -> bool:
    """'casualties <territory> <units>' where an air battle there owes this power's choice
    (BR-5: each side chooses its own)."""
    s = tx.state
    if not isinstance(order, od.Casualties) or s.phase != CONDUCT:
        return False
    sides = [side for side, _n in _owed_here(s, order.space)
             if order.power in _choosers(s, order.space, side)]
    if not sides:
        return False
    side = sides[0]
    n = dict(_owed_here(s, order.space))[side]
    if order.damaged or order.origins:
        raise InvalidOrder(msg("interception.plain_casualties", space=order.space))
    units = _side_units(s, order.space, side)
    total = sum(order.units.values())
    if total != n:
        raise IllegalOrder(msg("interception.wrong_total", own_rule("BR-5"), space=order.space,
                               hits=n, total=total))
    lost: list[int] = []
    for utype, k in order.units.items():
        pool = worth_less_first(s, [u for u in units if u.type == utype])
        if k > len(pool):
            raise IllegalOrder(msg("interception.not_there", own_rule("BR-5"), space=order.space,
                                   unit=utype, count=k, have=len(pool),
                                   units=_counts(units)))
        lost.extend(u.id for u in pool[:k])
    _remove(tx, order.space, side, order.power, tuple(sorted(lost)), "choice")
    if not _owed_here(tx.state, order.space):
        _end(tx, order.space)
    return True


def _counts(units: list[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.type] = out.get(u.type, 0) + 1
    return out


# --------------------------------------------------------------------------------------------
# Landing interceptors whose territory was captured (BR-4), at the start of Noncombat Move


def _land_interceptors(tx: Tx, initial: bool) -> None:
    for uid in sorted(tx.state.part(Interceptions).interceptors):
        s = tx.state
        u = s.units.get(uid)
        if u is None or s.friendly(s.owners.get(u.space), u.owner):
            continue
        land_near(tx, u, own_rule("BR-4"), f"interceptor could not land from {u.space}")


reg.phase(NONCOMBAT).enter.append(_land_interceptors)


# --------------------------------------------------------------------------------------------
# Legal candidates and the referee's defaults


@reg.candidates(CONDUCT, anyone=True)
def _decision_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """Interceptions owed by ``power`` (none, each count, all) and its air battle casualties."""
    for space, p in owed_interceptions(s):
        if p != power:
            continue
        yield Intercept(power=power, space=space, units={})
        have = _counts(eligible(s, space)[power])
        for utype, n in have.items():
            for k in range(1, n + 1):
                yield Intercept(power=power, space=space, units={utype: k})
    for space, side, n in s.part(Interceptions).owed:
        if power not in _choosers(s, space, side):
            continue
        first = _counts([s.units[i] for i in default_losses(s, space, side, n)])
        yield od.Casualties(power=power, space=space, units=first)
        have = _counts(_side_units(s, space, side))
        names = sorted(have)
        for combo in itertools.islice(
                (c for c in itertools.product(*(range(min(have[t], n) + 1) for t in names))
                 if sum(c) == n), 24):
            units = {t: k for t, k in zip(names, combo, strict=True) if k}
            if units != first:
                yield od.Casualties(power=power, space=space, units=units)


@reg.candidates(CONDUCT, first=True)
def _battle_candidates(s: GameState, power: str) -> Iterator[od.Order]:
    for space in _air_battles_due(s):
        yield AirBattle(power=power, space=space)


@hooks.default(INTERCEPTION)
def _no_interceptors(s: GameState, p: Pending) -> od.Order:
    """Best reading: an absent defender commits no interceptors (BR-4 is its choice)."""
    return Intercept(power=p.power, space=p.space or "", units={})


@hooks.default(AIR_BATTLE)
def _fight(s: GameState, p: Pending) -> od.Order:
    return AirBattle(power=p.power, space=p.space or "")


@hooks.default(AIR_CASUALTIES)
def _default_casualties(s: GameState, p: Pending) -> od.Order:
    space = p.space or ""
    side, n = next((side, n) for side, n in _owed_here(s, space)
                   if p.power in _choosers(s, space, side))
    return od.Casualties(power=p.power, space=space,
                         units=_counts([s.units[i] for i in default_losses(s, space, side, n)]))


# --------------------------------------------------------------------------------------------
# What the referee says


def _ids_units(s: GameState, ids: tuple[int, ...]) -> dict[str, int]:
    return _counts([s.units[i] for i in ids if i in s.units])


@reg.words(InterceptorsCommitted)
def _committed_words(s: GameState, e: InterceptorsCommitted) -> Msg:
    return msg("interception.committed", own_rule("BR-4"), power=e.power, space=e.space,
               units=_ids_units(s, e.units))


@hooks.stage_words(AIR_BATTLE_STAGE)
def _air_dice_words(s: GameState, e: ev.DiceRolled) -> Msg:
    faces = [f for g in e.groups for f in g[2]]
    return msg("interception.air_dice", own_rule("BR-5"), space=e.space, side=e.side, faces=faces,
               hits=e.hits)


@reg.words(AirBattleFought)
def _fought_words(s: GameState, e: AirBattleFought) -> Msg:
    return msg("interception.fought_line", own_rule("BR-5"), space=e.space, attacker=e.attacker,
               defenders=list(e.defenders), attacking=_ids_units(s, e.attacking),
               defending=_ids_units(s, e.defending), attacker_hits=e.attacker_hits,
               defender_hits=e.defender_hits)


@reg.words(AirCasualtiesChosen)
def _casualties_words(s: GameState, e: AirCasualtiesChosen) -> Msg:
    return msg("interception.casualties_line", own_rule("BR-5"), space=e.space, side=e.side,
               by=e.by, lost=_ids_units(s, e.lost), how=e.how)


@reg.words(AirBattleEnded)
def _ended_words(s: GameState, e: AirBattleEnded) -> Msg:
    return msg("interception.ended", own_rule("BR-6"), space=e.space,
               bombers=_ids_units(s, e.bombers), escorts=_ids_units(s, e.escorts),
               interceptors=_ids_units(s, e.interceptors))


def _owed_text(p: Mapping[str, Any]) -> str:
    who = ", ".join(f"{power} in {space}" for space, power in p["waiting"])
    return (f"First the defenders say how many fighters intercept each raid ({p['rule']}): "
            f"waiting for {who} ('intercept <territory> <fighters>' or 'intercept <territory> "
            f"none').")


def _fought_text(p: Mapping[str, Any]) -> str:
    return (f"Air battle over {p['space']}: {possessive(p['attacker'])} "
            f"{unit_list(p['attacking'])} against {' and '.join(p['defenders'])}'s interceptors "
            f"({unit_list(p['defending'])}), every unit at 1: {p['attacker_hits']} "
            f"hit{'s' if p['attacker_hits'] != 1 else ''} on the interceptors, "
            f"{p['defender_hits']} on the raiders ({p['rule']}).")


def _casualties_text(p: Mapping[str, Any]) -> str:
    who = "attacker" if p["side"] == "attacker" else "defender"
    how = {"choice": f"chosen by {p['by']}", "forced": "no choice",
           "default": "the referee's choice"}[p["how"]]
    return (f"Air battle over {p['space']}: the {who} loses {unit_list(p['lost'])} ({how}) "
            f"({p['rule']}).")


def _ended_text(p: Mapping[str, Any]) -> str:
    line = f"The air battle over {p['space']} is over: "
    if p["bombers"]:
        n = sum(p["bombers"].values())
        line += f"{unit_list(p['bombers'])} {agree(n, 'flies', 'fly')} on to the raid"
    else:
        line += "no bomber is left for the raid"
    if p["escorts"]:
        line += f"; the escorts ({unit_list(p['escorts'])}) withdraw"
    if p["interceptors"]:
        line += f"; the interceptors ({unit_list(p['interceptors'])}) stay in {p['space']}"
    return line + f" ({p['rule']})."


def _committed_text(p: Mapping[str, Any]) -> str:
    if not p["units"]:
        return f"{p['power']} sends no interceptors against the raid on {p['space']} ({p['rule']})."
    return (f"{p['power']} intercepts the raid on {p['space']} with {unit_list(p['units'])}; "
            f"they fight nothing else this turn ({p['rule']}).")


def _air_dice_text(p: Mapping[str, Any]) -> str:
    who = "the raiders" if p["side"] == "attacker" else "the interceptors"
    return (f"Air battle over {p['space']}: {who} rolled {','.join(map(str, p['faces']))} at 1 → "
            f"{p['hits']} hit{'s' if p['hits'] != 1 else ''} ({p['rule']}).")


catalogue("en", "interception", {
    "owed": _owed_text,
    "air_battle_first": "The raid on {space} was intercepted: fight the air battle first with "
                        "'air battle {space}' ({rule}).",
    "casualties_owed": "The air battle over {space} waits for {power:possessive} casualties "
                       "('casualties {space} <units>') ({rule}).",
    "not_yet": "Interceptors are chosen once the attacker's Combat Move is over, before any "
               "combat ({rule}); it is {phase} now.",
    "not_here": "This game has no interceptors.",
    "unknown_space": "Unknown space {space!r}.",
    "decided": "{power} has already said how many fighters intercept the raid on {space} "
               "({rule}).",
    "no_raid": "No raid on {space} to intercept ({rule}); raids now: {raids:join|none}.",
    "no_fighters": "{power} has no fighters in {space} that may intercept ({rule}).",
    "too_many": "{power:possessive} fighters in {space} that may intercept: {have:units} "
                "({rule}), not {want:units}.",
    "air_battle_phase": "An air battle is fought in Conduct Combat ({rule}); it is {phase} now.",
    "fought": "The air battle over {space} was fought already: it lasts one round ({rule}).",
    "no_interceptors": "Nobody intercepts the raid on {space}: there is no air battle, the "
                       "escorts withdraw at once ({rule}). Fly the raid with 'bomb {space}'.",
    "plain_casualties": "Casualties of an air battle are named by type only: 'casualties "
                        "{space} 1 fighter'.",
    "wrong_total": "The air battle over {space} owes {hits:counted:casualty} ({rule}), not "
                   "{total}.",
    "not_there": "Only {have} {unit} can be lost in the air battle over {space}, not {count} "
                 "({rule}); the side has {units:units}.",
    "committed": _committed_text,
    "air_dice": _air_dice_text,
    "fought_line": _fought_text,
    "casualties_line": _casualties_text,
    "ended": _ended_text,
})


# The luck report: an air battle is an engagement of its own, beside any battle there.
hooks.apart(hooks.Apart(
    stage=AIR_BATTLE_STAGE, ended_by=AirBattleFought,
    ended=lambda e: (e.space, e.attacker, e.defenders),
    result="air battle", words="air battle",
))
