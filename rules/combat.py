"""Conduct Combat (§9): finding battles, rounds of fire, casualties, retreat, conclusion.

Asynchronous by design: each round stops where a player owes a decision (casualties, press
or retreat) and continues when it is given. ``battle <space> all`` fights to the end, answering
for the attacker who gave it with its standing casualty order or the default (cheapest first,
two-hit units absorb first, transports last, the attacker keeping its last land unit where
possible); it never answers for the defender (H-1): it stops where a defender without a
standing order has a real choice (casualties, submarines to declare), and goes on to the end
once the defender answers.

Edition differences hang off unit abilities and ``RuleSet`` switches, never an edition id:
submarines declare (1941 SS-2) or attacking ones always strike first (Classic R-SUB-02);
submarines submerge (SS-3) or withdraw between rounds (R-SUB-05, ``withdraw``); antiaircraft
guns fire before a land battle (``anti_air``, R-LC-02); battleships bombard (``bombard``,
R-AMP-05); strategic bombing raids (``bomb``, R-SBR); dice by column (R-CBT-01/04); who
retreats and where (CC-6B / R-RET, A-13, A-28).

Asynchronous reading of submarine withdrawal (R-SUB-05, R-NC-07): between rounds (step
``press_or_retreat``) the attacker may withdraw its submarines before it presses or retreats,
and the defender may withdraw its own until the attacker presses. Nobody waits for the
defender's withdrawal: it is never owed, and the referee's default is to stay.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from typing import TYPE_CHECKING, Literal

from rules import events as ev
from rules import orders as od
from rules import tech
from rules.decisions import Owed, Pending
from rules.dice import Dice, roll_purpose
from rules.edition import RuleSet
from rules.errors import IllegalOrder, InvalidOrder, NotYourTurn, WrongPhase
from rules.movement import canal_open, enemy_units, is_hostile_sea, is_hostile_territory
from rules.state import BattleState, GameState, Unit
from rules.words import agree, counted, possessive

if TYPE_CHECKING:
    from rules.turn.tx import Tx

MAX_ROUNDS = 200  # guard against a loop in "battle all"; real battles end long before

AA_HIT = 1  # an antiaircraft die hits on a 1 (R-AAG-03)

# Hit categories (H-2, H-3; antiaircraft hits A-04) and unit classes for the casualty
# matching (H-7). Categories are recorded in this order (DiceRolled.categories).
ANY, NO_AIR, NO_SUB, AIR_ONLY = "any", "no_air", "no_sub", "air_only"
CATEGORIES = (ANY, NO_AIR, NO_SUB, AIR_ONLY)
AIR, SUB, OTHER, TRANSPORT = "air", "sub", "other", "transport"
CLASSES = (AIR, SUB, OTHER, TRANSPORT)
ELIGIBLE = {ANY: (AIR, SUB, OTHER, TRANSPORT), NO_AIR: (SUB, OTHER, TRANSPORT),
            NO_SUB: (AIR, OTHER, TRANSPORT), AIR_ONLY: (AIR,)}


def _rules(s: GameState) -> RuleSet:
    return s.edition.rules.rules


# --------------------------------------------------------------------------------------------
# Finding battles at the start of Conduct Combat


def open_battles(tx: Tx, from_position: bool = False) -> None:
    """Open every battle of the acting power; take empty territories (CC-0b)."""
    from rules.mechanisms import territory

    s = tx.state
    ed = s.edition
    power = s.power
    # Sea battles first, so amphibious land battles can name the sea battle that blocks them.
    sea_battles: set[str] = set()
    for z in [n for n in ed.spaces if ed.is_sea(n)]:
        mine = [u for u in s.units_in(z) if u.owner == power and u.carried_by is None]
        if not mine:
            continue
        foes = [u for u in enemy_units(s, z, power)
                if ed.units[u.type].domain != "land" and not _is_cargo_of_enemy(s, u)]
        if not foes:
            continue
        hostile = is_hostile_sea(s, z, power)
        moved_in = any(u.combat_moved and ed.units[u.type].domain != "land"
                       and not ed.units[u.type].abilities.no_combat_value for u in mine)
        can_attack = any(not ed.units[u.type].abilities.no_combat_value for u in mine)
        if not can_attack:
            continue  # transports alone never start a battle
        subs_only = all(ed.units[u.type].abilities.submersible for u in foes)
        assault_zone = any(c.owner == power and c.assault and (c.space == z or c.came_from == z)
                           for c in s.units.values())
        if not hostile and subs_only and assault_zone and not from_position:
            continue  # A-8 / CM-29: an assault may ignore enemy submarines (warship present)
        if hostile or moved_in or from_position:
            attacking = tuple(u.id for u in mine)
            defending = tuple(u.id for u in foes)  # fighters on carriers included (UC-4)
            launched = tuple(
                c.id for u in mine for c in s.units.values()
                if c.carried_by == u.id and c.owner == power and ed.units[c.type].domain == "air")
            tx.emit(ev.BattleOpened(space=z, attacker=power, defenders=_powers(s, defending),
                                    sea=True, attacking=attacking, defending=defending,
                                    launched=launched, hostile_at_start=hostile))
            sea_battles.add(z)
    s = tx.state
    bombarded: set[int] = set()
    for t in [n for n in ed.spaces if not ed.is_sea(n)]:
        if not is_hostile_territory(s, t, power):
            continue
        # R-BMB-03 / A-16: bombers on a strategic bombing raid fight no battle there.
        present = [u for u in s.units_in(t) if u.owner == power and not u.raid]
        pending_cargo = [c for c in s.units.values()
                         if c.owner == power and c.assault == t and c.carried_by is not None]
        if not present and not pending_cargo:
            continue
        # Complexes and antiaircraft guns never defend: taken with the territory (R-AAG-04, A-05).
        foes = [u for u in enemy_units(s, t, power)
                if not (ed.units[u.type].abilities.factory or ed.units[u.type].abilities.anti_air)]
        blocked = sorted({c.space for c in pending_cargo if c.space in sea_battles})
        seaborne = tuple(u.id for u in present if u.assault == t)
        amphibious = bool(pending_cargo) or bool(seaborne)
        if not foes and not blocked:
            if any(ed.units[u.type].abilities.can_capture for u in present):
                territory.capture(tx, t, power, "no battle", "CC-0b")
                s = tx.state
            continue
        zones = {u.came_from for u in present if u.assault == t and u.came_from} | {
            c.space for c in pending_cargo}
        support: tuple[int, ...] = ()
        if amphibious and not blocked and not zones & sea_battles:
            support = _bombarding(s, power, zones, bombarded)
            bombarded.update(support)
        tx.emit(ev.BattleOpened(space=t, attacker=power, defenders=_powers(s, [u.id for u in foes]),
                                sea=False, attacking=tuple(u.id for u in present),
                                defending=tuple(u.id for u in foes), amphibious=amphibious,
                                blocked_by=blocked[0] if blocked else None, seaborne=seaborne,
                                bombarding=support))
        s = tx.state


def _bombarding(s: GameState, power: str, zones: set[str], taken: set[int]) -> tuple[int, ...]:
    """Battleships that support a landing from ``zones`` with one shot (R-AMP-05).

    Best reading of "accompany": the attacker's bombarding ships in a sea zone the assault's
    land units were unloaded from, that fought no sea battle this turn; each supports one
    landing. No bombardment when the landing zone saw a sea battle (R-AMP-04; the caller checks).
    """
    if _rules(s).bombardment == "none":
        return ()
    ed = s.edition
    return tuple(sorted(
        u.id for z in zones for u in s.units_in(z)
        if u.owner == power and ed.units[u.type].abilities.bombard and u.carried_by is None
        and not u.fought and u.id not in taken))


def _is_cargo_of_enemy(s: GameState, u: Unit) -> bool:
    return u.carried_by is not None and s.edition.units[u.type].domain == "land"


def _powers(s: GameState, ids: Iterable[int]) -> tuple[str, ...]:
    seen: list[str] = []
    for i in ids:
        o = s.units[i].owner
        if o not in seen:
            seen.append(o)
    order = s.edition.turn_order
    return tuple(sorted(seen, key=order.index))


# --------------------------------------------------------------------------------------------
# Who owes what


def awaiting_declaration(s: GameState, b: BattleState) -> bool:
    """The defender's submarines must choose strike or submerge before any die (SS-2)."""
    if _rules(s).sub_first_strike != "declared":
        return False  # R-SUB-02/06: no declarations
    opening = not any(not x.startswith("declare:") for x in b.fired)
    return (b.step == "casualties" and opening and not b.owed
            and "declare:defender" not in b.fired and bool(sub_eligible(s, b, "defender"))
            and ("declare:attacker" in b.fired or not sub_eligible(s, b, "attacker")))


def pending_decisions(s: GameState) -> list[Pending]:
    out: list[Pending] = []
    for b in s.battles.values():
        if awaiting_declaration(s, b):
            subs = sub_eligible(s, b, "defender")
            out.append(Pending(subs[0].owner, Owed.SUBMERGE_OR_STRIKE, b.space))
        elif b.step == "casualties":
            for side, _n in b.owed:
                if side == "attacker":
                    out.append(Pending(b.attacker, Owed.CASUALTIES, b.space))
                else:
                    alive = [p for p in b.defenders
                             if any(s.units[i].owner == p for i in b.defending if i in s.units)]
                    out.append(Pending((alive or list(b.defenders))[0], Owed.CASUALTIES,
                                        b.space))
        elif b.step == "press_or_retreat":
            out.append(Pending(b.attacker, Owed.PRESS_OR_RETREAT, b.space))
    out.extend(Pending(s.power, Owed.BOMBING_RAID, x) for x in open_raids(s))
    return out


def open_raids(s: GameState) -> list[str]:
    """Territories the acting power's bombers raid this turn, not yet resolved (R-SBR-01)."""
    if not _rules(s).strategic_bombing or s.phase != "conduct_combat":
        return []
    spaces = {u.space for u in s.units.values() if u.raid and u.owner == s.power}
    return sorted(x for x in spaces if x not in s.marks.raided)


def owed_side(b: BattleState) -> str | None:
    return b.owed[0][0] if b.owed else None


def owed_hits(b: BattleState) -> int:
    return b.owed[0][1] if b.owed else 0


# --------------------------------------------------------------------------------------------
# Orders


def _battle(s: GameState, space: str) -> BattleState:
    if space not in s.edition.spaces:
        raise InvalidOrder(f"Unknown space {space!r}.")
    b = s.battles.get(space)
    if b is None or b.step == "done":
        open_ = [x.space for x in s.battles.values() if x.step != "done"]
        raise IllegalOrder(
            f"There is no battle to fight in {space}. Open battles: {', '.join(open_) or 'none'}."
        )
    return b


def decide_attacker(tx: Tx, order: od.Battle | od.Press | od.Retreat, dice: Dice) -> None:
    s = tx.state
    b = _battle(s, order.space)
    if isinstance(order, od.Retreat):
        _retreat(tx, b, order)
        return
    auto = isinstance(order, od.Battle) and order.all
    if b.step == "casualties" and not (auto and owed_side(b) == "attacker"):
        who = pending_decisions(s)
        raise IllegalOrder(
            f"The battle in {b.space} waits for casualties from "
            + ", ".join(p.power for p in who if p.space == b.space)
            + " (H-1). They answer with 'casualties <space> <units>'."
        )
    if b.blocked_by is not None:
        raise IllegalOrder(
            f"The amphibious assault on {b.space} waits for the sea battle in {b.blocked_by}: "
            "sea combat comes first (AA-1)."
        )
    if b.space in open_raids(s):
        raise IllegalOrder(
            f"Resolve the strategic bombing raid on {b.space} first, with 'bomb {b.space}'; the "
            "battle there follows (A-16)."
        )
    if not _is_amphibious_part(s, b) and _rules(s).amphibious_first:
        # CC-0: general combat, sea battles included, waits for every announced assault.
        first = [x.space for x in s.battles.values()
                 if x.step != "done" and _is_amphibious_part(s, x)]
        if first:
            raise IllegalOrder(
                f"Resolve amphibious assaults first ({', '.join(first)}), then general combat "
                "(CC-0)."
            )
    if b.step == "press_or_retreat":
        if not _attacker_can_fire(s, b):
            if retreat_options(s, b):
                raise IllegalOrder(
                    "The attacking units left cannot fire (UT-3, R-TRP-06): retreat with "
                    "'retreat <space> "
                    f"to <space>' ({', '.join(retreat_options(s, b))})."
                )
            _auto_end_unfireable(tx, b)  # CC-6C / A-10: they cannot retreat either
            return
        tx.emit(ev.BattlePressed(space=b.space, to_the_end=auto))
    elif isinstance(order, od.Press):
        raise IllegalOrder(f"'press' follows a round of the battle in {b.space}; fight a round "
                           f"with 'battle {b.space}' first ({s.edition.cite('CC-6', sea=b.sea)}).")
    fight(tx, b.space, dice, auto=auto)


def next_battles(s: GameState) -> list[str]:
    """Open battles that may be fought now: amphibious assaults (their sea battles included)
    before general combat where the edition says so (CC-0)."""
    open_ = sorted(b.space for b in s.battles.values() if b.step != "done")
    if _rules(s).amphibious_first:
        first = [x for x in open_ if _is_amphibious_part(s, s.battles[x])]
        if first:
            return first
    return open_


def _is_amphibious_part(s: GameState, b: BattleState) -> bool:
    if b.amphibious:
        return True
    return any(x.blocked_by == b.space for x in s.battles.values() if x.step != "done")


def decide_decision(tx: Tx, order: od.Casualties | od.Submerge | od.Strike | od.Withdraw,
                    dice: Dice) -> None:
    s = tx.state
    if s.phase != "conduct_combat":
        raise WrongPhase("Casualties are chosen during Conduct Combat (§9).")
    b = _battle(s, order.space)
    if isinstance(order, od.Withdraw):
        _withdraw(tx, b, order)
        return
    if isinstance(order, od.Submerge | od.Strike):
        if _rules(s).sub_first_strike != "declared" or _rules(s).sub_retreat != "submerge":
            raise IllegalOrder(
                f"Submarines neither submerge nor declare a strike in this game: attacking "
                f"submarines always strike first (R-SUB-02), and submarines leave a battle "
                f"between rounds with 'withdraw {b.space}' (R-SUB-05)."
            )
        _declare_subs(tx, b, order, dice)
        return
    side = owed_side(b)
    if b.step != "casualties" or side is None:
        raise IllegalOrder(f"No casualties are owed in {b.space} now.")
    powers = (b.attacker,) if side == "attacker" else b.defenders
    if order.power not in powers:
        raise NotYourTurn(
            f"The {side}'s casualties in {b.space} are chosen by {' or '.join(powers)}, not "
            f"{order.power} (H-1)."
        )
    lost, damaged = validate_choice(s, b, side, order.units, order.origins)
    tx.emit(ev.CasualtiesChosen(space=b.space, side=_side(side), by=order.power, lost=lost,
                                damaged=damaged, how="choice"))
    _go_on(tx, b.space, dice)


def _go_on(tx: Tx, space: str, dice: Dice) -> None:
    """After an answer: to the end of the round, or of the battle under 'battle all' (H-1)."""
    to_end = tx.state.battles[space].to_the_end
    fight(tx, space, dice, auto=to_end, resume=not to_end)


def _declare_subs(tx: Tx, b: BattleState, order: od.Submerge | od.Strike, dice: Dice) -> None:
    """Submarines strike or submerge (SS-2, SS-3): the attacker before its round, the defender
    when the round asks for it."""
    s = tx.state
    if order.power == b.attacker:
        if b.step not in ("ready", "press_or_retreat"):
            raise IllegalOrder(
                f"The attacker declares its submarines before the round, with 'submerge "
                f"{b.space}' ahead of 'battle {b.space}' or 'press {b.space}' (SS-2)."
            )
        if isinstance(order, od.Strike):
            raise IllegalOrder(f"Attacking submarines strike when the round is fought: use "
                               f"'battle {b.space}' (SS-2).")
        subs = [u for u in _eligible_next_round(s, b, "attacker")]
        side: Literal["attacker", "defender"] = "attacker"
    elif order.power in b.defenders:
        if not awaiting_declaration(s, b):
            raise IllegalOrder(
                f"No submarine decision is owed in {b.space} now: the defender declares when a "
                "round begins and its submarines may strike or submerge (SS-1, SS-2)."
            )
        subs = sub_eligible(s, b, "defender")
        side = "defender"
    else:
        raise NotYourTurn(f"{order.power} has no submarines in the battle in {b.space}.")
    if not subs:
        raise IllegalOrder(
            f"No submarines of the {side} in {b.space} may strike or submerge: an enemy "
            "destroyer in the battle cancels both (SS-1, UD-3)."
        )
    if isinstance(order, od.Submerge):
        n = len(subs) if order.count is None else order.count
        if n < 1 or n > len(subs):
            raise IllegalOrder(f"{counted(len(subs), 'submarine')} of the {side} may submerge in "
                               f"{b.space}, not {n}.")
        own = sorted(subs, key=lambda u: (u.owner != order.power, u.id))
        down = own[:n]
    else:
        down = []
    up = [u for u in subs if u not in down]
    tx.emit(ev.SubmarinesDeclared(space=b.space, side=side, by=order.power,
                                  strike=tuple(u.id for u in up) if side == "defender" else (),
                                  submerge=tuple(u.id for u in down)))
    if side == "defender":
        _go_on(tx, b.space, dice)
    elif not _side_units(tx.state, tx.state.battles[b.space], "attacker"):
        _conclude(tx, tx.state.battles[b.space], "defender")  # every attacker submerged


def _eligible_next_round(s: GameState, b: BattleState, side: str) -> list[Unit]:
    return sub_eligible(s, b, side)


# --------------------------------------------------------------------------------------------
# A round (Steps 2-5) and its end (Step 6/7)


def fight(tx: Tx, space: str, dice: Dice, auto: bool, resume: bool = False) -> None:
    """Run the battle until it needs a decision, or to its end when ``auto``.

    A round: the attacker's submarines declare (implicitly: they strike unless submerged by an
    earlier order), the defender's submarines declare (SS-2), surprise strikes (SS-4, SS-5),
    the defender's Step-2 casualties leave (SS-6), attackers fire (CC-3), defenders fire (CC-4),
    casualties are removed (CC-5) and the attacker presses or retreats (CC-6).
    """
    for _ in range(MAX_ROUNDS * 8):
        s = tx.state
        b = s.battles[space]
        if b.step == "done":
            return
        if b.step == "press_or_retreat":
            if not auto:
                return
            if not _attacker_can_fire(s, b):
                _auto_end_unfireable(tx, b)
                return
            tx.emit(ev.BattlePressed(space=space, to_the_end=True))
            continue
        if b.step == "ready":
            if resume:
                return
            if _precheck_end(tx, b):
                return
            tx.emit(ev.BattleRoundStarted(space=space, round=b.round + 1, to_the_end=auto))
            continue
        # A round in progress: settle owed casualties first.
        side = owed_side(b)
        if side is not None:
            forced = forced_choice(s, b, side)
            standing = bool(s.standing.get(_chooser(b, side, s)))
            if forced is None and not standing and (not auto or side == "defender"):
                # H-1: the side that owes the hits chooses; 'battle all' answers only for the
                # attacker who gave it, and waits for a defender with a real choice.
                return
            how = "forced" if forced is not None else "default"
            choice = forced if forced is not None else default_choice(s, b, side)
            if forced is None and standing:
                how = "standing"  # a standing casualty order answers for its power
            tx.emit(ev.CasualtiesChosen(space=space, side=_side(side), by="referee", lost=choice[0],
                                        damaged=choice[1], how=how))
            continue
        if not _next_stage(tx, b, dice):
            return
        resume = False
    raise IllegalOrder(f"The battle in {space} did not end after {MAX_ROUNDS} rounds.")


def sub_eligible(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Submarines of ``side`` that may strike or submerge: no enemy destroyer (SS-1, UD-3)."""
    ed = s.edition
    if not b.sea:
        return []
    other = "defender" if side == "attacker" else "attacker"
    if _has_destroyer(s, _side_units(s, b, other)):
        return []
    return [u for u in _side_units(s, b, side) if ed.units[u.type].abilities.surprise_strike]


def _next_stage(tx: Tx, b: BattleState, dice: Dice) -> bool:
    """Do the next step of the round; False when it waits for a decision.

    A round, in order (a step that does not apply is skipped):

    0. 1941: submarines declare strike or submerge, the attacker first (SS-2).
    1. Round 1 of a land battle: the defender's antiaircraft gun fires at the attacking
       aircraft (R-LC-02, R-AAG-03).
    2. Round 1 of an amphibious assault: the battleships' support shot (R-AMP-05).
    3. Submarines strike first: 1941 the declared ones of each side (SS-4, SS-5); Classic every
       attacking submarine, every round (R-SUB-02, R-NC-02).
    4. The victims of steps 1 and 3 leave at once, without firing back (SS-6, R-NC-03,
       R-LC-02); the victims of step 2 stay and fire back (R-AMP-05).
    5. The attacker fires (CC-3, R-LC-03, R-NC-04); 6. the defender fires (CC-4, R-LC-04).
    7. Casualties are removed, then the attacker presses or retreats (CC-5, CC-6).
    """
    s = tx.state
    if _rules(s).sub_first_strike == "declared":
        # Declarations open the round; who may strike is fixed until the next round (CC-5).
        opening = not any(not x.startswith("declare:") for x in b.fired)
        if opening and "declare:attacker" not in b.fired:
            subs = sub_eligible(s, b, "attacker")
            if subs:  # SS-2: the attacker declares first; its battle order means "strike"
                tx.emit(ev.SubmarinesDeclared(space=b.space, side="attacker", by=b.attacker,
                                              strike=tuple(u.id for u in subs),
                                              how="battle order"))
                return True
        if opening and "declare:defender" not in b.fired and sub_eligible(s, b, "defender"):
            # SS-2, H-1: the defender declares (strike / submerge <space>), even under
            # 'battle <space> all'; its deadline's default is to strike (rules.defaults).
            return False
    if b.round == 1 and "defender:aa" not in b.fired and _aa_targets(s, b):
        _fire_aa(tx, b, dice)  # step 1
        return True
    if b.round == 1 and "attacker:bombard" not in b.fired and _alive(s, b.bombarding):
        _fire(tx, b, "attacker", dice, stage="bombard")  # step 2
        return True
    for side in ("attacker", "defender"):  # step 3
        if _strikers(s, b, side) and f"{side}:strike" not in b.fired:
            _fire(tx, b, side, dice, stage="strike")
            return True
    if "attacker" not in b.fired:  # step 4
        # Attacking casualties never fire again; defending ones leave now only in a sea battle
        # (strike victims), a land battle's (bombardment victims) fire back.
        now = [i for i, _ in b.pending_casualties if b.sea or i not in b.defending]
        if now:
            rule = ("SS-6" if _rules(s).sub_first_strike == "declared" else "R-NC-03") if b.sea \
                else "R-LC-02"
            _remove_with_cargo(tx, b, now, rule)
            return True
        if (b.sea or "defender:aa" in b.fired) and _precheck_end(tx, b):
            return True  # nothing left to fight (SS-3 submerged, CC-6C transports alone, R-LC-02)
        _fire(tx, b, "attacker", dice)  # step 5
        return True
    if "defender" not in b.fired:
        _fire(tx, b, "defender", dice)  # step 6
        return True
    _end_round(tx, b)  # step 7
    return True


def _strikers(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Submarines of ``side`` that fire first this round (step 3 of ``_next_stage``)."""
    if _rules(s).sub_first_strike == "attacker_only":
        # R-SUB-02: every attacking submarine, every round; R-SUB-06: defenders never.
        return sub_eligible(s, b, "attacker") if side == "attacker" else []
    striking = set(b.striking)
    return [u for u in _side_units(s, b, side) if u.id in striking]


def _aa_guns(s: GameState, b: BattleState) -> list[Unit]:
    """The defender's antiaircraft guns in a territory under attack (R-LC-02, R-AAG-03)."""
    if b.sea:
        return []
    return [u for u in s.units_in(b.space)
            if s.edition.units[u.type].abilities.anti_air and s.enemy(u.owner, b.attacker)]


def _aa_targets(s: GameState, b: BattleState) -> list[Unit]:
    """Attacking aircraft an antiaircraft gun fires at before round 1 (R-LC-02)."""
    if not _aa_guns(s, b):
        return []
    return [u for u in _side_units(s, b, "attacker") if s.edition.units[u.type].domain == "air"]


def _fire_aa(tx: Tx, b: BattleState, dice: Dice) -> None:
    """One die per attacking aircraft; each 1 destroys an aircraft the attacker picks (A-04).

    The gun fires once per battle (R-LC-02), never is a casualty (R-AAG-04)."""
    s = tx.state
    planes = _aa_targets(s, b)
    gun = _aa_guns(s, b)[0].type
    faces = tuple(dice.roll(len(planes), roll_purpose(b.space, b.round, "defender:aa", gun)))
    hits = min(sum(1 for f in faces if f <= AA_HIT), len(planes))
    tx.emit(ev.DiceRolled(space=b.space, round=b.round, side="defender",
                          purpose=f"{b.space} round {b.round} defender:aa",
                          groups=((gun, AA_HIT, faces),), hits=hits,
                          categories=(0, 0, 0, hits), dice=dice.name, stage="aa"))


def _remove_with_cargo(tx: Tx, b: BattleState, dead: list[int], rule: str) -> None:
    """Remove casualties; cargo goes with its ship, fighters of a sunk carrier take off."""
    s = tx.state
    ed = s.edition
    dead_set = set(dead)
    lost_cargo: list[int] = []
    stranded: list[int] = []
    launched: list[int] = []
    defending_ids = set(b.defending)
    for u in s.units.values():
        if u.carried_by in dead_set and u.id not in dead_set:
            host = s.units[u.carried_by]
            if ed.units[u.type].domain == "air" and host.id in defending_ids:
                stranded.append(u.id)  # UC-5
            elif ed.units[u.type].domain == "air" and u.owner == host.owner:
                launched.append(u.id)
            else:
                lost_cargo.append(u.id)  # CC-2, CM-22
    if dead or lost_cargo:
        tx.emit(ev.UnitsRemoved(ids=tuple(dead + lost_cargo), reason=f"casualties in {b.space}",
                                rule=rule, stranded=tuple(stranded), launched=tuple(launched)))


def _side(side: str) -> Literal["attacker", "defender"]:
    return "attacker" if side == "attacker" else "defender"


def _chooser(b: BattleState, side: str, s: GameState | None = None) -> str:
    """The power whose standing order answers for a side: the attacker, or the first defending
    power that has one (defenders choose together, H-1 / MN-6)."""
    if side == "attacker":
        return b.attacker
    if s is not None:
        for p in b.defenders:
            if s.standing.get(p):
                return p
    return b.defenders[0]


def _alive(s: GameState, ids: Iterable[int]) -> list[Unit]:
    return [s.units[i] for i in ids if i in s.units]


def _side_units(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Units of a side still in the battle: not submerged (SS-3); the attacker's chosen
    casualties are gone at once (CC-4b), the defender's fire back first (CC-3b)."""
    ids = b.attacking + b.seaborne if side == "attacker" else b.defending
    pend = {i for i, _ in b.pending_casualties}
    down = set(b.submerged)
    return [u for u in _alive(s, dict.fromkeys(ids))
            if u.id not in down and (u.id not in pend or side == "defender")]


def _value(s: GameState, u: Unit, side: str) -> int:
    """Attack or defence value, after weapons developments (R-TEC-05: Jet Power, Super Subs)."""
    if side == "attacker":
        return tech.attack(s, u.owner, u.type)
    return tech.defense(s, u.owner, u.type)


def _dice_per_unit(s: GameState, u: Unit, side: str) -> int:
    """Dice one unit rolls: Heavy Bombers roll 3 per attacking bomber (R-TEC-05)."""
    return tech.attack_dice(s, u.owner, u.type) if side == "attacker" else 1


def _has_destroyer(s: GameState, units: list[Unit]) -> bool:
    return any(s.edition.units[u.type].abilities.anti_sub for u in units)


def _fire(tx: Tx, b: BattleState, side: str, dice: Dice, stage: str = "fire") -> None:
    """One side rolls. ``stage`` "fire": every unit with a value that did not fire first this
    round (CC-3/CC-4, R-LC-03/04, R-NC-04/05); "strike": its first-striking submarines (SS-4,
    SS-5, R-SUB-02); "bombard": the battleships' support shot (R-AMP-05).

    Dice roll in groups of one unit type and value: strongest first, or column by column from
    column 1 (``RuleSet.dice_order``, R-CBT-01), where a column is not rolled once the hits
    already scored can take every target, and units that can hit nothing there do not roll
    (R-CBT-04, R-SUB-03).
    """
    s = tx.state
    other = "defender" if side == "attacker" else "attacker"
    by_column = _rules(s).dice_order == "by_column"
    if stage == "fire":
        first = {u.id for u in _strikers(s, b, side)}
        firing = [u for u in _side_units(s, b, side)
                  if _value(s, u, side) > 0 and u.id not in first]
    elif stage == "strike":
        firing = _strikers(s, b, side)
    else:
        firing = _alive(s, b.bombarding)
    targets = _targets(s, b, other)
    if by_column:
        escort = _has_destroyer(s, _side_units(s, b, side))
        firing = [u for u in firing if _can_hit(s, [u], side, targets, escort)]
    groups: dict[tuple[str, int], int] = {}
    for u in firing:
        key = (u.type, _value(s, u, side))
        groups[key] = groups.get(key, 0) + _dice_per_unit(s, u, side)
    if by_column:
        order = sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    else:
        order = sorted(groups.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    need = sum(_hit_points(s, u) for u in targets)
    out: list[tuple[str, int, tuple[int, ...]]] = []
    rnd = b.round
    label = side if stage == "fire" else f"{side}:{stage}"
    column: int | None = None
    for (utype, val), n in order:
        if by_column and val != column:
            column = val
            if _max_assignable(s, b, other, _hit_categories(s, b, side, tuple(out))) >= need:
                break  # R-CBT-04: every target is already hit
        faces = tuple(dice.roll(n, roll_purpose(b.space, rnd, label, utype)))
        out.append((utype, val, faces))
    hits = sum(1 for _, val, faces in out for f in faces if f <= val)  # CMP-3: roll <= value
    # Hits beyond what the other side can absorb are lost; record the assignable count (H-7).
    cats = _hit_categories(s, b, side, tuple(out))
    assignable = _max_assignable(s, b, other, cats)
    tx.emit(ev.DiceRolled(space=b.space, round=rnd, side=side,  # type: ignore[arg-type]
                          purpose=f"{b.space} round {rnd} {label}",
                          groups=tuple(out), hits=min(hits, assignable),
                          categories=tuple(cats[c] for c in CATEGORIES), dice=dice.name,
                          stage=stage))  # type: ignore[arg-type]


def _hit_categories(s: GameState, b: BattleState, side: str,
                    groups: tuple[tuple[str, int, tuple[int, ...]], ...]) -> dict[str, int]:
    ed = s.edition
    own = _side_units(s, b, side)
    destroyer = _has_destroyer(s, own)
    cats = dict.fromkeys(CATEGORIES, 0)
    for utype, val, faces in groups:
        n = sum(1 for f in faces if f <= val)
        ab = ed.units[utype].abilities
        if ab.cannot_hit_air:
            cats[NO_AIR] += n  # H-2, R-SUB-02/03
        elif ed.units[utype].domain == "air" and not destroyer:
            cats[NO_SUB] += n  # H-3
        else:
            cats[ANY] += n
    return cats


def _unit_class(s: GameState, u: Unit) -> str:
    ed = s.edition
    ut = ed.units[u.type]
    if ut.domain == "air":
        return AIR
    if ut.abilities.cannot_be_hit_by_air:
        return SUB
    if ut.abilities.chosen_last:
        return TRANSPORT
    return OTHER


def _hit_points(s: GameState, u: Unit) -> int:
    return s.edition.units[u.type].hits - u.damage


def _targets(s: GameState, b: BattleState, side: str) -> list[Unit]:
    """Units of ``side`` that can take hits now (not cargo, not out of play: H-5)."""
    pend = {i for i, _ in b.pending_casualties}
    return [u for u in _side_units(s, b, side) if u.id not in pend]


def _flow_ok(cats: dict[str, int], counts: dict[str, int]) -> bool:
    """Can hits of these categories be spread to exactly ``counts`` hits per unit class?

    A maximum flow from hit categories to unit classes (H-2, H-3, H-7, A-04); the graph has ten
    nodes, so a plain augmenting-path search is enough.
    """
    need = sum(counts.values())
    if need > sum(cats.get(c, 0) for c in CATEGORIES):
        return False
    nodes = 2 + len(CATEGORIES) + len(CLASSES)
    first_cls = 1 + len(CATEGORIES)
    src, sink = 0, nodes - 1
    cap = [[0] * nodes for _ in range(nodes)]
    for i, c in enumerate(CATEGORIES, start=1):
        cap[src][i] = cats.get(c, 0)
        for j, k in enumerate(CLASSES, start=first_cls):
            if k in ELIGIBLE[c]:
                cap[i][j] = need
    for j, k in enumerate(CLASSES, start=first_cls):
        cap[j][sink] = counts[k]
    flow = 0
    while True:
        parent = [-1] * nodes
        parent[src] = src
        queue = [src]
        while queue and parent[sink] < 0:
            x = queue.pop(0)
            for y in range(nodes):
                if parent[y] < 0 and cap[x][y] > 0:
                    parent[y] = x
                    queue.append(y)
        if parent[sink] < 0:
            return flow == need
        push = need
        y = sink
        while y != src:
            push = min(push, cap[parent[y]][y])
            y = parent[y]
        y = sink
        while y != src:
            cap[parent[y]][y] -= push
            cap[y][parent[y]] += push
            y = parent[y]
        flow += push


def _class_caps(s: GameState, units: list[Unit]) -> dict[str, int]:
    caps = {AIR: 0, SUB: 0, OTHER: 0, TRANSPORT: 0}
    for u in units:
        caps[_unit_class(s, u)] += _hit_points(s, u)
    return caps


def _vectors(caps: dict[str, int], total: int) -> Iterable[dict[str, int]]:
    for a, sb, o in product(range(min(caps[AIR], total) + 1), range(min(caps[SUB], total) + 1),
                            range(min(caps[OTHER], total) + 1)):
        t = total - a - sb - o
        if 0 <= t <= caps[TRANSPORT]:
            yield {AIR: a, SUB: sb, OTHER: o, TRANSPORT: t}


def _best_total(caps: dict[str, int], cats: dict[str, int]) -> tuple[int, int]:
    """(most hits that can be assigned, fewest of them on transports) — H-4, H-7."""
    for total in range(min(sum(caps.values()), sum(cats.get(c, 0) for c in CATEGORIES)), -1, -1):
        ts = [v[TRANSPORT] for v in _vectors(caps, total) if _flow_ok(cats, v)]
        if ts:
            return total, min(ts)
    return 0, 0


def _max_assignable(s: GameState, b: BattleState, side: str, cats: dict[str, int]) -> int:
    return _best_total(_class_caps(s, _targets(s, b, side)), cats)[0]


def _cats_for_owed(s: GameState, b: BattleState, side: str) -> dict[str, int]:
    """Categories of the hits this side owes (recorded with the roll that scored them)."""
    del s, side
    padded = (*b.owed_cats, *(0,) * len(CATEGORIES))  # logs before air_only have three
    return dict(zip(CATEGORIES, padded, strict=False))


def movement_left(s: GameState, u: Unit) -> int:
    """Spaces ``u`` may still move this turn (CM-14: air units' budget spans both phases)."""
    return max(tech.move(s, u.owner, u.type) - u.moved, 0)


def worth_now(s: GameState, u: Unit) -> tuple[int, int]:
    """What tells apart units of one type now: damage (H-6) and, for aircraft, the movement
    left to land with (units that fought on land or at sea move no further this turn)."""
    air = s.edition.units[u.type].domain == "air"
    return (u.damage, movement_left(s, u) if air else 0)


def worth_less_first(s: GameState, units: Iterable[Unit]) -> list[Unit]:
    """Units of one type, the one worth less now first: damaged before whole (H-6), then less
    movement left (an attacking aircraft with fewer spaces to land in)."""
    return sorted(units, key=lambda u: (-worth_now(s, u)[0], worth_now(s, u)[1], u.id))


def _picked(s: GameState, b: BattleState, utype: str, mine: list[Unit],
            origins: dict[str, int]) -> list[Unit]:
    """The units of ``utype`` a casualty order names by the space they started the turn in."""
    out: list[Unit] = []
    for where, n in origins.items():
        found = [u for u in worth_less_first(s, mine) if u.start == where and u not in out]
        if len(found) < n:
            came: dict[str, int] = {}
            for u in mine:
                came[u.start or u.space] = came.get(u.start or u.space, 0) + 1
            listed = ", ".join(f"{k} ({v})" for k, v in sorted(came.items()))
            raise IllegalOrder(
                f"The battle in {b.space} has {len(found)} {utype} from {where}, not {n}; the "
                f"{utype} units there came from: {listed or 'nowhere'}."
            )
        out.extend(found[:n])
    return out


def validate_choice(s: GameState, b: BattleState, side: str, units: dict[str, int],
                    origins: dict[str, dict[str, int]] | None = None,
                    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Turn ``{type: hits}`` into lost/damaged unit ids, enforcing H-2..H-7.

    Within a type, the units named by where they started the turn (``origins``) take the hits
    first, then the one worth less now (``worth_less_first``)."""
    ed = s.edition
    hits = owed_hits(b)
    total = sum(units.values())
    if total != hits:
        raise IllegalOrder(
            f"{counted(hits, 'hit')} must be assigned in {b.space}; the order assigns "
            f"{total} (H-7)."
        )
    targets = _targets(s, b, side)
    lost: list[int] = []
    damaged: list[int] = []
    counts = {AIR: 0, SUB: 0, OTHER: 0, TRANSPORT: 0}
    origins = origins or {}
    for utype in origins:
        if utype not in units:
            raise InvalidOrder(f"'{utype} from ...' names a unit type the order does not list.")
    for utype, n in units.items():
        if utype not in ed.units:
            raise InvalidOrder(f"Unknown unit {utype!r}.")
        if sum(origins.get(utype, {}).values()) > n:
            raise InvalidOrder(f"The order names more {utype} by origin than it loses ({n}).")
        pool = [u for u in targets if u.type == utype]
        picked = _picked(s, b, utype, pool, origins.get(utype, {}))
        mine = picked + [u for u in worth_less_first(s, pool) if u not in picked]
        points = sum(_hit_points(s, u) for u in mine)
        if not mine:
            raise IllegalOrder(f"The {side} has no {utype} in the battle in {b.space} to take a "
                               f"hit (H-5).")
        if n > points:
            raise IllegalOrder(
                f"There {agree(len(mine), 'is', 'are')} {counted(len(mine), utype)} in the battle "
                f"in {b.space}, able to take {counted(points, 'hit')}, not {n} (H-5)."
            )
        left = n
        # Units named by origin take a hit each first: a whole two-hit unit is damaged (H-6).
        for u in picked:
            (damaged if _hit_points(s, u) > 1 else lost).append(u.id)
            left -= 1
        # Two-hit units: first hits damage undamaged ones (H-6), further hits sink.
        undamaged = [u for u in mine if _hit_points(s, u) > 1 and u not in picked]
        for u in undamaged:
            if left == 0:
                break
            damaged.append(u.id)
            left -= 1
        rank = {u.id: i for i, u in enumerate(mine)}
        for u in sorted(mine, key=lambda u: (-u.damage - (1 if u.id in damaged else 0),
                                             rank[u.id])):
            if left == 0:
                break
            if u.id in lost:
                continue
            if _hit_points(s, u) - (1 if u.id in damaged else 0) >= 1:
                lost.append(u.id)
                if u.id in damaged:
                    damaged.remove(u.id)
                    left -= 1
                else:
                    left -= 1
        counts[_unit_class(s, mine[0])] += n if mine else 0
    cats = _cats_for_owed(s, b, side)
    best, tmin = _best_total(_class_caps(s, targets), cats)
    if counts[TRANSPORT] > tmin:
        raise IllegalOrder(
            "Transports are chosen as casualties only when no other unit can take the hit "
            "(H-4/UT-4)."
        )
    if not _flow_ok(cats, counts):
        why = {NO_AIR: "submarine hits may go only on ships, never on aircraft (H-2, R-SUB-02)",
               NO_SUB: "air hits on submarines only with a friendly destroyer in the battle "
                       "(H-3)",
               AIR_ONLY: "antiaircraft hits only on aircraft (R-LC-02, A-04)"}
        raise IllegalOrder(
            "That choice wastes hits: " + "; ".join(w for c, w in why.items() if cats.get(c))
            + "; assign them so that as many hits as possible count (H-7)."
        )
    del best
    return tuple(lost), tuple(damaged)


def _preference(s: GameState, b: BattleState, side: str, units: list[Unit]) -> list[Unit]:
    """Default casualty order: standing order, else cheapest first; keep the last land unit."""
    ed = s.edition
    power = _chooser(b, side, s)
    standing = s.standing.get(power, ())

    def key(u: Unit) -> tuple[int, int, int, int, int]:
        ut = ed.units[u.type]
        rank = standing.index(u.type) if u.type in standing else len(standing)
        # Within a type the one worth less now goes first: less movement left.
        return (1 if ut.abilities.chosen_last else 0, rank, ut.cost or 0, worth_now(s, u)[1],
                (ut.cost or 0) * 10 + u.id % 10)

    ordered = sorted(units, key=key)
    if side == "attacker" and not b.sea:
        land = [u for u in ordered if ed.units[u.type].abilities.can_capture]
        if land:
            last = land[-1]
            ordered.remove(last)
            ordered.append(last)
    return ordered


def default_choice(s: GameState, b: BattleState,
                   side: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    targets = _targets(s, b, side)
    hits = owed_hits(b)
    cats = _cats_for_owed(s, b, side)
    caps = _class_caps(s, targets)
    best, tmin = _best_total(caps, cats)
    hits = min(hits, best)
    # Free hits first: two-hit units that are undamaged absorb one hit each (H-6).
    damaged = [u for u in targets if _hit_points(s, u) > 1][:hits]
    pref = _preference(s, b, side, [u for u in targets])
    chosen: list[tuple[str, Unit]] = [("damage", u) for u in damaged]
    for u in pref:
        if len(chosen) >= hits:
            break
        left = _hit_points(s, u) - (1 if u in damaged else 0)
        if left <= 0:
            continue
        chosen.append(("lose", u))
    chosen = chosen[:hits]
    counts = {AIR: 0, SUB: 0, OTHER: 0, TRANSPORT: 0}
    for _, u in chosen:
        counts[_unit_class(s, u)] += 1
    if counts[TRANSPORT] <= tmin and _flow_ok(cats, counts):
        lost = [u.id for k, u in chosen if k == "lose"]
        dmg = [u.id for k, u in chosen if k == "damage" and u.id not in lost]
        return tuple(lost), tuple(dmg)
    # Fall back: the best feasible class vector, filled per class in preference order.
    for v in _vectors(caps, hits):
        if v[TRANSPORT] == tmin and _flow_ok(cats, v):
            lost2: list[int] = []
            dmg2: list[int] = []
            for cls, n in v.items():
                pool = [u for u in pref if _unit_class(s, u) == cls]
                for u in [u for u in pool if _hit_points(s, u) > 1]:
                    if n and u.id not in dmg2:
                        dmg2.append(u.id)
                        n -= 1
                for u in pool:
                    if n <= 0:
                        break
                    lost2.append(u.id)
                    if u.id in dmg2:
                        dmg2.remove(u.id)
                    n -= 1
            return tuple(lost2), tuple(dmg2)
    return (), ()


def forced_choice(s: GameState, b: BattleState,
                  side: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The choice when there is none to make: everything that may be hit dies, or only one
    kind of unit may take the hits (transports count only when they must, H-4)."""
    targets = _targets(s, b, side)
    hits = owed_hits(b)
    if hits <= 0:
        return (), ()
    if hits >= sum(_hit_points(s, u) for u in targets):
        return tuple(u.id for u in targets), ()
    cats = _cats_for_owed(s, b, side)
    caps = _class_caps(s, targets)
    best, tmin = _best_total(caps, cats)
    vectors = [v for v in _vectors(caps, best) if v[TRANSPORT] == tmin and _flow_ok(cats, v)]
    if len(vectors) != 1:
        return None
    for cls, n in vectors[0].items():
        pool = [u for u in targets if _unit_class(s, u) == cls]
        if n and n < sum(_hit_points(s, u) for u in pool) and len(
                {(u.type, *worth_now(s, u)) for u in pool}) > 1:
            return None  # a real choice within this class (H-1: which unit of a type too)
    return default_choice(s, b, side)


def _attacker_can_fire(s: GameState, b: BattleState) -> bool:
    return any(_value(s, u, "attacker") > 0 for u in _side_units(s, b, "attacker"))


def _can_hit(s: GameState, shooters: list[Unit], side: str, targets: list[Unit],
             destroyer: bool | None = None) -> bool:
    ed = s.edition
    if destroyer is None:
        destroyer = _has_destroyer(s, shooters)
    for x in shooters:
        if _value(s, x, side) <= 0:
            continue
        xa = ed.units[x.type].abilities
        for y in targets:
            ycls = _unit_class(s, y)
            if xa.cannot_hit_air and ycls == AIR:
                continue
            if ed.units[x.type].domain == "air" and ycls == SUB and not destroyer:
                continue
            return True
    return False


def _precheck_end(tx: Tx, b: BattleState) -> bool:
    """Before a round: defenceless transports (CC-6C) and battles nobody can fight (A-11)."""
    s = tx.state
    ed = s.edition
    att = _side_units(s, b, "attacker")
    dfd = _side_units(s, b, "defender")
    if not dfd:
        _conclude(tx, b, "attacker")
        return True
    if not att:
        _conclude(tx, b, "defender")  # e.g. every attacker submerged (SS-3)
        return True
    transports = [u for u in dfd if ed.units[u.type].abilities.no_combat_value]
    fighters = [u for u in dfd if not ed.units[u.type].abilities.no_combat_value]
    att_fighters = [u for u in att if not ed.units[u.type].abilities.no_combat_value]
    stalemate = not _can_hit(s, att_fighters, "attacker", fighters) and not _can_hit(
        s, fighters, "defender", att_fighters)
    if (b.sea and transports and _can_hit(s, att, "attacker", transports)
            and (not fighters or stalemate)):
        # CC-6C: transports alone, or beside units nobody can hit, are destroyed at once.
        ids = tuple(u.id for u in transports)
        tx.emit(ev.UnitsRemoved(ids=ids + _cargo_ids(s, ids), reason="defenceless transports",
                                rule="CC-6C"))
        _conclude(tx, tx.state.battles[b.space], "attacker" if not fighters else "no combat")
        return True
    if not _can_hit(s, att, "attacker", dfd) and not _can_hit(s, dfd, "defender", att):
        _conclude(tx, b, "no combat")  # nobody can hit anybody
        return True
    return False


def _cargo_ids(s: GameState, hosts: Iterable[int]) -> tuple[int, ...]:
    hs = set(hosts)
    return tuple(u.id for u in s.units.values() if u.carried_by in hs)


def _end_round(tx: Tx, b: BattleState) -> None:
    """Step 5: remove casualties with their cargo; then Step 6 (CC-6A/CC-6C)."""
    # A sea battle's casualties cite the sea rule where the digest has one (Classic R-NC-06).
    _remove_with_cargo(tx, b, [i for i, _ in b.pending_casualties],
                       tx.state.edition.cite("CC-5", sea=b.sea))
    ed = tx.state.edition
    s = tx.state
    b = s.battles[b.space]
    att = _side_units(s, b, "attacker")
    dfd = _side_units(s, b, "defender")
    if not att and not dfd:
        _conclude(tx, b, "both destroyed")
    elif not dfd:
        _conclude(tx, b, "attacker")
    elif not att:
        _conclude(tx, b, "defender")
    elif b.sea and all(ed.units[u.type].abilities.no_combat_value for u in dfd) and all(
            ed.units[u.type].abilities.no_combat_value for u in att):
        _conclude(tx, b, "no combat")  # CC-6A: only transports on both sides
    elif not _precheck_end(tx, b):  # CC-6C defenceless transports, A-11 nobody can hit
        tx.emit(ev.BattleRoundEnded(space=b.space, round=b.round, next_step="press_or_retreat"))


def _auto_end_unfireable(tx: Tx, b: BattleState) -> None:
    """Attackers that cannot fire and cannot retreat are lost (CC-6C)."""
    s = tx.state
    options = retreat_options(s, b)
    if options:
        _retreat(tx, b, od.Retreat(power=b.attacker, space=b.space, to=options[0]))
        return
    att = _side_units(s, b, "attacker")
    ids = tuple(u.id for u in att)
    tx.emit(ev.UnitsRemoved(ids=ids + _cargo_ids(s, ids), reason="defenceless transports",
                            rule="CC-6C"))
    _conclude(tx, tx.state.battles[b.space], "defender")


def _no_retreat(s: GameState, b: BattleState) -> bool:
    """R-AMP-07 / R-RET-04 / A-13: nobody retreats from a battle with units landed this turn."""
    return _rules(s).amphibious_retreat == "none" and bool(_alive(s, b.seaborne))


def _retreating(s: GameState, b: BattleState) -> list[Unit]:
    """Attackers that move with a retreat: land and sea units (CC-6B), and aircraft too where
    they go along (R-RET-02, A-28); never seaborne units (AA-7)."""
    ed = s.edition
    air_too = _rules(s).air_retreat == "with_retreat"
    return [u for u in _alive(s, b.attacking) if u.id not in b.seaborne
            and (air_too or ed.units[u.type].domain != "air")]


def retreat_options(s: GameState, b: BattleState) -> list[str]:
    """Adjacent friendly spaces at least one retreating attacker came from (CC-6B, R-RET-02)."""
    ed = s.edition
    if _no_retreat(s, b):
        return []
    movers = _retreating(s, b)
    froms: set[str] = {u.came_from for u in movers if u.came_from and u.came_from != b.space}
    out = []
    for x in sorted(f for f in froms if f):
        if x not in ed.neighbours[b.space]:
            continue
        if ed.is_sea(x):
            # Sea units retreat only to a zone friendly at the start of the turn (CC-6B).
            earlier = s.battles.get(x)
            was_hostile = earlier is not None and earlier.hostile_at_start
            if is_hostile_sea(s, x, b.attacker) or was_hostile:
                continue
        elif not s.friendly(s.owners.get(x), b.attacker):
            continue
        out.append(x)
    return out


def _retreat(tx: Tx, b: BattleState, order: od.Retreat) -> None:
    s = tx.state
    ed = s.edition
    if b.step != "press_or_retreat":
        raise IllegalOrder(
            f"Retreat is decided after a round of fire (CC-6B, A-12); the battle in {b.space} is "
            f"{'waiting for casualties' if b.step == 'casualties' else 'not yet fought'}."
        )
    if order.to not in ed.spaces:
        raise InvalidOrder(f"Unknown space {order.to!r}.")
    if _no_retreat(s, b):
        raise IllegalOrder(
            f"No attacker may retreat from {b.space}: units that came ashore this turn never "
            "retreat, and all attackers retreat together (R-AMP-07, R-RET-04, A-13). Press "
            f"with 'press {b.space}'."
        )
    movers = _retreating(s, b)
    air = [u for u in _alive(s, b.attacking)
           if ed.units[u.type].domain == "air" and u not in movers]
    if movers:
        options = retreat_options(s, b)
        if order.to not in options:
            raise IllegalOrder(
                f"Attackers retreat together to one adjacent friendly space that at least one of "
                f"them came from (CC-6B, R-RET-02). Possible: {', '.join(options) or 'none'}."
            )
        to: str | None = order.to
    else:
        if order.to != b.space and order.to not in ed.neighbours[b.space]:
            raise IllegalOrder("Air units retreat in place and land in Noncombat Move (CC-6B).")
        to = None
    ids = tuple(u.id for u in movers + air)
    tx.emit(ev.BattleRetreated(space=b.space, to=to, units=ids,
                               air_with=_rules(s).air_retreat == "with_retreat"))
    b = tx.state.battles[b.space]
    if b.seaborne and any(i in tx.state.units for i in b.seaborne):
        # AA-7: seaborne units never retreat; the battle goes on with them.
        tx.emit(ev.BattleRoundEnded(space=b.space, round=b.round, next_step="ready"))
        return
    _conclude(tx, b, "retreat")


# --------------------------------------------------------------------------------------------
# Submarines withdraw between rounds (Classic R-SUB-05, R-NC-07)


def submarines(s: GameState, b: BattleState, power: str) -> list[Unit]:
    """``power``'s submarines still fighting in a sea battle."""
    side = "attacker" if power == b.attacker else "defender"
    if not b.sea:
        return []
    return [u for u in _side_units(s, b, side) if u.owner == power
            and s.edition.units[u.type].abilities.surprise_strike]


def withdraw_zones(s: GameState, b: BattleState, u: Unit) -> list[str]:
    """Where one submarine may withdraw to (R-SUB-05).

    An attacking submarine goes back to the adjacent zone it came from, or, if it came from
    none (it started there), to where the ships with it came from. A defending one goes to any
    adjacent sea zone holding no enemy unit; none such, it cannot withdraw.
    """
    ed = s.edition

    def near(z: str | None) -> bool:
        return (z is not None and z != b.space and z in ed.neighbours[b.space] and ed.is_sea(z)
                and canal_open(s, b.space, z, u.owner))

    if u.owner == b.attacker:
        if near(u.came_from):
            return [u.came_from or ""]
        ships = [x.came_from for x in _alive(s, b.attacking)
                 if ed.units[x.type].domain == "sea" and near(x.came_from)]
        return sorted({z for z in ships if z})
    return sorted(z for z in ed.neighbours[b.space]
                  if near(z) and not enemy_units(s, z, u.owner))


def _withdraw(tx: Tx, b: BattleState, order: od.Withdraw) -> None:
    s = tx.state
    ed = s.edition
    if _rules(s).sub_retreat != "withdraw":
        raise IllegalOrder(
            f"Submarines do not withdraw in this game; they submerge with 'submerge {b.space}' "
            "(SS-3)."
        )
    if order.power != b.attacker and order.power not in b.defenders:
        raise NotYourTurn(f"{order.power} takes no part in the battle in {b.space}.")
    side: Literal["attacker", "defender"] = "attacker" if order.power == b.attacker \
        else "defender"
    if order.to is not None and order.to not in ed.spaces:
        raise InvalidOrder(f"Unknown space {order.to!r}.")
    subs = submarines(s, b, order.power)
    if not subs:
        raise IllegalOrder(f"{order.power} has no submarines in a sea battle in {b.space}.")
    if b.step != "press_or_retreat":
        when = "waiting for casualties" if b.step == "casualties" else "not yet fought"
        raise IllegalOrder(
            f"Submarines withdraw after a round, once its casualties are removed (R-SUB-05, "
            f"R-NC-07); the battle in {b.space} is {when}."
        )
    options = sorted({z for u in subs for z in withdraw_zones(s, b, u)})
    if not options:
        why = ("came from no adjacent sea zone" if side == "attacker"
               else "have no adjacent sea zone free of enemy units")
        raise IllegalOrder(f"{possessive(order.power)} submarines in {b.space} {why}, so "
                           f"they cannot "
                           "withdraw (R-SUB-05).")
    to = order.to
    if to is None:
        if len(options) > 1:
            raise IllegalOrder(
                f"Say where the submarines withdraw to: 'withdraw {b.space} to <zone>' "
                f"({', '.join(options)}) (R-SUB-05)."
            )
        to = options[0]
    going = [u for u in subs if to in withdraw_zones(s, b, u)]
    if not going:
        rule = ("back to the zone they came from" if side == "attacker"
                else "to an adjacent sea zone free of enemy units")
        raise IllegalOrder(f"Submarines withdraw {rule} (R-SUB-05): {', '.join(options)}, not "
                           f"{to}.")
    n = len(going) if order.count is None else order.count
    if n < 1 or n > len(going):
        raise IllegalOrder(f"{counted(len(going), 'submarine')} of {order.power} in {b.space} may "
                           f"withdraw to {to}, not {n}.")
    tx.emit(ev.SubmarinesWithdrew(space=b.space, side=side, by=order.power,
                                  units=tuple(u.id for u in going[:n]), to=to))
    b = tx.state.battles[b.space]
    if not _side_units(tx.state, b, "attacker"):
        _conclude(tx, b, "retreat")
    elif not _side_units(tx.state, b, "defender"):
        _conclude(tx, b, "attacker")


# --------------------------------------------------------------------------------------------
# Strategic bombing raids (Classic R-SBR-01..05, A-16)


def decide_raid(tx: Tx, order: od.Bomb, dice: Dice) -> None:
    """The antiaircraft gun fires one die per raiding bomber (each 1 destroys one, R-SBR-02);
    each survivor rolls its attack dice (R-SBR-03) and the territory's owner pays the sum to
    the bank, a shortfall becoming a debt (R-SBR-04/05)."""
    from rules.mechanisms import territory

    s = tx.state
    ed = s.edition
    if not _rules(s).strategic_bombing:
        raise IllegalOrder("There are no strategic bombing raids in this edition.")
    if order.space not in ed.spaces:
        raise InvalidOrder(f"Unknown space {order.space!r}.")
    waiting = open_raids(s)
    if order.space not in waiting:
        if order.space in s.marks.raided:
            raise IllegalOrder(f"The bombing raid on {order.space} is over already (R-SBR).")
        raise IllegalOrder(
            f"No bombers of {order.power} raid {order.space}: raids are declared in Combat "
            f"Movement (R-SBR-01). Raids to resolve: {', '.join(waiting) or 'none'}."
        )
    power = s.power
    bombers = sorted((u for u in s.units_in(order.space) if u.owner == power and u.raid),
                     key=lambda u: u.id)
    owner = s.owners.get(order.space)
    target = any(ed.units[u.type].abilities.factory for u in s.units_in(order.space))
    if not target or not s.enemy(owner, power):
        tx.emit(ev.RaidResolved(space=order.space, attacker=power, defender=owner,
                                bombers=tuple(u.id for u in bombers),
                                note="no enemy industrial complex to bomb"))
        return
    guns = [u for u in s.units_in(order.space)
            if ed.units[u.type].abilities.anti_air and s.enemy(u.owner, power)]
    lost: tuple[int, ...] = ()
    if guns:
        gun = guns[0].type
        faces = tuple(dice.roll(len(bombers), roll_purpose(order.space, 1, "defender:raid_aa",
                                                           gun)))
        hits = min(sum(1 for f in faces if f <= AA_HIT), len(bombers))
        tx.emit(ev.DiceRolled(space=order.space, round=1, side="defender",
                              purpose=f"{order.space} raid defender:raid_aa",
                              groups=((gun, AA_HIT, faces),), hits=hits, dice=dice.name,
                              stage="raid_aa"))
        lost = tuple(u.id for u in bombers[:hits])
        if lost:
            tx.emit(ev.UnitsRemoved(ids=lost, reason=f"shot down over {order.space}",
                                    rule="R-SBR-02"))
    survivors = [u for u in bombers if u.id not in lost]
    groups: dict[str, int] = {}
    for u in survivors:
        groups[u.type] = groups.get(u.type, 0) + _dice_per_unit(s, u, "attacker")
    rolled: list[tuple[str, int, tuple[int, ...]]] = []
    for utype, n in sorted(groups.items()):
        rolled.append((utype, 0, tuple(dice.roll(n, roll_purpose(order.space, 1, "attacker:raid",
                                                                  utype)))))
    if rolled:
        tx.emit(ev.DiceRolled(space=order.space, round=1, side="attacker",
                              purpose=f"{order.space} raid attacker:raid", groups=tuple(rolled),
                              hits=0, dice=dice.name, stage="raid"))
    damage = sum(f for _, _, faces in rolled for f in faces)
    tx.emit(ev.RaidResolved(space=order.space, attacker=power, defender=owner,
                            bombers=tuple(u.id for u in bombers), lost=lost, damage=damage))
    if owner is not None:
        territory.charge_damage(tx, owner, damage, f"the bombing raid on {order.space}", "R-SBR-04")


def _conclude(tx: Tx, b: BattleState, result: str) -> None:
    """Step 7: repair, land fighters, capture (CC-7a..c), seaborne landing (AA-3)."""
    from rules.mechanisms import territory

    s = tx.state
    ed = s.edition
    b = s.battles[b.space]
    repaired = tuple(u.id for u in _alive(s, b.attacking + b.defending)
                     if u.damage and _rules(s).battleship_repair)  # CC-7a / UB-2
    offloaded: tuple[int, ...] = ()
    if b.sea and result in ("attacker", "no combat"):
        offloaded = tuple(c.id for c in s.units.values()
                          if c.owner == b.attacker and c.space == b.space and c.assault
                          and c.carried_by is not None)
    tx.emit(ev.BattleEnded(space=b.space, result=result, repaired=repaired,  # type: ignore[arg-type]
                           offloaded=()))
    if offloaded:
        by_target: dict[str, list[int]] = {}
        for i in offloaded:
            by_target.setdefault(tx.state.units[i].assault or "", []).append(i)
        for target, ids in by_target.items():
            tx.emit(ev.SeaborneLanded(space=target, units=tuple(ids)))
            lb = tx.state.battles.get(target)
            if (lb is not None and lb.step != "done" and lb.blocked_by is None
                    and not _side_units(tx.state, lb, "defender")):
                _conclude(tx, lb, "attacker")
    if b.sea and result not in ("attacker", "no combat"):
        # AA-5/AA-6: the landing failed; land battles it blocked go on without seaborne units.
        for lb in list(tx.state.battles.values()):
            if (lb.blocked_by is None and lb.step != "done" and lb.amphibious
                    and not _side_units(tx.state, lb, "attacker")):
                tx.emit(ev.BattleEnded(space=lb.space, result="defender"))
    if b.sea and _rules(s).stranded_fighters == "same_zone":
        # R-AIR-10: fighters of a sunk carrier that survived land in this zone (another carrier,
        # an island there) as the battle ends, or are lost.
        from rules import movement

        movement.land_stranded_fighters(tx, b.space)
    if not b.sea and result == "attacker":
        land = [u for u in _alive(tx.state, b.attacking + b.seaborne)
                if ed.units[u.type].abilities.can_capture and u.space == b.space]
        if land and is_hostile_territory(tx.state, b.space, b.attacker):
            territory.capture(tx, b.space, b.attacker, "battle", "CC-7b")
