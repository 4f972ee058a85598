"""The combat's rounds: the steps of ``model.round_steps`` played with dice and events.

A round stops where a player owes a decision (casualties, the defender's submarine declaration)
and goes on when it is given; ``battle <space> all`` fights to the end, answering for the
attacker who gave it with its standing casualty order or the referee's default
(``choice.default_choice``), never for the defender (H-1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules import tech
from rules.battle import model as bm
from rules.battle.choice import default_choice, forced_choice
from rules.battle.conclude import conclude
from rules.battle.forces import (
    alive,
    attacker_can_fire,
    can_hit,
    cargo_ids,
    category,
    chooser,
    has_destroyer,
    hit_points,
    kinds,
    max_assignable,
    owed_side,
    rules_of,
    side_units,
    side_word,
    strikers,
    sub_eligible,
    targets,
    value,
)
from rules.battle.forces import dice_per_unit as unit_dice
from rules.battle.model import AIR_ONLY, CATEGORIES, MAX_ROUNDS, Ending
from rules.battle.retreat import retreat, retreat_options
from rules.dice import Dice, roll_purpose
from rules.errors import IllegalOrder
from rules.messages import catalogue, msg, own_rule
from rules.state import BattleState, GameState, Unit

if TYPE_CHECKING:
    from rules.turn.tx import Tx


def fight(tx: Tx, space: str, dice: Dice, auto: bool, resume: bool = False) -> None:
    """Run the battle until it needs a decision, or to its end when ``auto``.

    A round (``next_step``): submarines declare, AA fire, bombardment, surprise strikes, the
    first victims leave, attackers fire (CC-3), defenders fire (CC-4), casualties are removed
    (CC-5) and the attacker presses or retreats (CC-6).
    """
    for _ in range(MAX_ROUNDS * 8):
        s = tx.state
        b = s.battles[space]
        if b.step == "done":
            return
        if b.step == "press_or_retreat":
            if not auto:
                return
            if not attacker_can_fire(s, b):
                auto_end_unfireable(tx, b)
                return
            tx.emit(ev.BattlePressed(space=space, to_the_end=True))
            continue
        if b.step == "ready":
            if resume:
                return
            if precheck_end(tx, b):
                return
            tx.emit(ev.BattleRoundStarted(space=space, round=b.round + 1, to_the_end=auto))
            continue
        # A round in progress: settle owed casualties first.
        side = owed_side(b)
        if side is not None:
            forced = forced_choice(s, b, side)
            standing = bool(s.standing.get(chooser(b, side, s)))
            if forced is None and not standing and (not auto or side == "defender"):
                # H-1: the side that owes the hits chooses; 'battle all' answers only for the
                # attacker who gave it, and waits for a defender with a real choice.
                return
            how = "forced" if forced is not None else "default"
            choice = forced if forced is not None else default_choice(s, b, side)
            if forced is None and standing:
                how = "standing"  # a standing casualty order answers for its power
            tx.emit(ev.CasualtiesChosen(space=space, side=side_word(side), by="referee",
                                        lost=choice[0], damaged=choice[1], how=how))
            continue
        if not next_step(tx, b, dice):
            return
        resume = False
    raise IllegalOrder(msg("rounds.endless", space=space, rounds=MAX_ROUNDS))


def go_on(tx: Tx, space: str, dice: Dice) -> None:
    """After an answer: to the end of the round, or of the battle under 'battle all' (H-1)."""
    to_end = tx.state.battles[space].to_the_end
    fight(tx, space, dice, auto=to_end, resume=not to_end)


def next_step(tx: Tx, b: BattleState, dice: Dice) -> bool:
    """Do the next step of the round (``model.round_steps``); False when it waits for a
    decision. A step whose units are absent, or done already this round, is skipped."""
    s = tx.state
    for step in bm.round_steps(rules_of(s), b.sea):
        if step.first_round and b.round != 1:
            continue
        side = bm.ROLES[step.side] if step.side is not None else ""
        if step.stage == "declare":
            # Declarations open the round; who may strike is fixed until the next round (CC-5).
            opening = not any(not x.startswith("declare:") for x in b.fired)
            if not opening or f"declare:{side}" in b.fired or not sub_eligible(s, b, side):
                continue
            if side == "defender":
                # SS-2, H-1: the defender declares (strike / submerge <space>), even under
                # 'battle <space> all'; its deadline's default is to strike (rules.defaults).
                return False
            # SS-2: the attacker declares first; its battle order means "strike".
            tx.emit(ev.SubmarinesDeclared(
                space=b.space, side="attacker", by=b.attacker,
                strike=tuple(u.id for u in sub_eligible(s, b, side)), how="battle order"))
            return True
        if step.stage == "aa":
            if "defender:aa" not in b.fired and aa_targets(s, b):
                fire_aa(tx, b, dice)
                return True
        elif step.stage == "bombard":
            if "attacker:bombard" not in b.fired and alive(s, b.bombarding):
                fire(tx, b, "attacker", dice, stage="bombard")
                return True
        elif step.stage == "strike":
            if strikers(s, b, side) and f"{side}:strike" not in b.fired:
                fire(tx, b, side, dice, stage="strike")
                return True
        elif step.stage == "leave":
            if "attacker" in b.fired:
                continue
            # The attacker's casualties never fire again; the defender's leave now when the
            # stage that hit them says so (strikes), else they fire back (bombardment).
            leave = any(not bm.VICTIMS_FIRE_BACK[x.split(":")[1]] for x in b.fired
                        if x.startswith("attacker:"))
            now = [i for i, _ in b.pending_casualties if leave or i not in b.defending]
            if now:
                remove_with_cargo(tx, b, now, step.rule)
                return True
            if precheck_end(tx, b):
                return True  # nothing left to fight (SS-3 submerged, CC-6C, R-LC-02)
        elif step.stage == "fire":
            if side not in b.fired:
                fire(tx, b, side, dice)
                return True
        elif step.stage == "end":
            end_round(tx, b)
            return True
    return True


def aa_guns(s: GameState, b: BattleState) -> list[Unit]:
    """The defender's antiaircraft guns in a territory under attack (R-LC-02, R-AAG-03)."""
    if b.sea:
        return []
    return [u for u in s.units_in(b.space)
            if s.edition.units[u.type].abilities.anti_air and s.enemy(u.owner, b.attacker)]


def aa_targets(s: GameState, b: BattleState) -> list[Unit]:
    """Attacking aircraft an antiaircraft gun fires at before round 1 (R-LC-02)."""
    if not aa_guns(s, b):
        return []
    return [u for u in side_units(s, b, "attacker") if s.edition.units[u.type].domain == "air"]


def fire_aa(tx: Tx, b: BattleState, dice: Dice) -> None:
    """One die per attacking aircraft, or up to 3 per gun (``model.aa_dice``: §16.1, §22.12);
    each 1 destroys an aircraft the attacker picks (A-04, §16.1).

    The guns fire once per battle, before round 1 (R-LC-02, §16.1); Classic's is never a
    casualty (R-AAG-04), Europe 1940's may be (GC-2)."""
    s = tx.state
    planes = aa_targets(s, b)
    guns: dict[str, int] = {}
    for u in aa_guns(s, b):
        guns[u.type] = guns.get(u.type, 0) + 1
    gun = next(iter(guns))
    n = bm.aa_dice(s.edition, guns, len(planes))
    faces = tuple(dice.roll(n, roll_purpose(b.space, b.round, "defender:aa", gun)))
    hits = min(sum(1 for f in faces if f <= bm.AA_HIT), len(planes))
    cats = [0] * len(CATEGORIES)
    cats[AIR_ONLY] = hits
    tx.emit(ev.DiceRolled(space=b.space, round=b.round, side="defender",
                          purpose=f"{b.space} round {b.round} defender:aa",
                          groups=((gun, bm.AA_HIT, faces),), hits=hits,
                          categories=tuple(cats), dice=dice.name, stage="aa"))


def remove_with_cargo(tx: Tx, b: BattleState, dead: list[int], rule: str) -> None:
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
                # UC-5: the planes in the air defending it; trapped aboard a damaged carrier,
                # they were cargo and sink with it (§16.3)
                (stranded if u.id in defending_ids else lost_cargo).append(u.id)
            elif ed.units[u.type].domain == "air" and u.owner == host.owner:
                launched.append(u.id)
            else:
                lost_cargo.append(u.id)  # CC-2, CM-22
    if dead or lost_cargo:
        tx.emit(ev.UnitsRemoved(ids=tuple(dead + lost_cargo), reason=CASUALTIES_IN + b.space,
                                rule=rule, stranded=tuple(stranded), launched=tuple(launched)))


# The stored reason of a battle's casualties (the event's text is in logs: it stays as it was).
CASUALTIES_IN = "casualties in "


def casualties_of(e: ev.UnitsRemoved) -> str | None:
    """The space whose battle's casualties ``e`` removed, or None for another removal
    (defenceless transports, air units without a landing place, ...)."""
    return e.reason.removeprefix(CASUALTIES_IN) if e.reason.startswith(CASUALTIES_IN) else None


def fire(tx: Tx, b: BattleState, side: str, dice: Dice, stage: str = "fire") -> None:
    """One side rolls. ``stage`` "fire": every unit with a value that did not fire first this
    round (CC-3/CC-4, R-LC-03/04, R-NC-04/05); "strike": its first-striking submarines (SS-4,
    SS-5, R-SUB-02); "bombard": the battleships' support shot (R-AMP-05).

    Dice roll in groups of one unit type and value: strongest first, or column by column from
    column 1 (``RuleSet.dice_order``, R-CBT-01), where a column is not rolled once the hits
    already scored can take every target, and units that can hit nothing there do not roll
    (R-CBT-04, R-SUB-03). Each group's hits fall in the category ``model.hit_category`` gives.
    """
    s = tx.state
    other = "defender" if side == "attacker" else "attacker"
    by_column = rules_of(s).dice_order == "by_column"
    if stage == "fire":
        first = {u.id for u in strikers(s, b, side)}
        firing = [u for u in side_units(s, b, side)
                  if value(s, u, side) > 0 and u.id not in first]
    elif stage == "strike":
        firing = strikers(s, b, side)
    else:
        firing = alive(s, b.bombarding)
    hit = targets(s, b, other)
    escort = has_destroyer(s, side_units(s, b, side))
    if by_column:
        firing = [u for u in firing if can_hit(s, [u], side, hit, escort)]
    groups: dict[tuple[str, int], int] = {}
    boost = paired_now(s, b) if side == "attacker" and stage == "fire" else {}
    for u in firing:
        key = (u.type, value(s, u, side))
        if boost.get(u.type, 0) > 0:  # CA-1: paired 1:1 with a unit that supports it
            boost[u.type] -= 1
            key = (u.type, bm.paired_value(s.edition, tech.owned(s, u.owner), u.type))
        groups[key] = groups.get(key, 0) + unit_dice(s, u, side)
    if by_column:
        order = sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    else:
        order = sorted(groups.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    need = sum(hit_points(s, u) for u in hit)
    out: list[tuple[str, int, tuple[int, ...]]] = []
    rnd = b.round
    label = side if stage == "fire" else f"{side}:{stage}"
    column: int | None = None

    def categories() -> list[int]:
        cats = [0] * len(CATEGORIES)
        for utype, val, faces in out:
            cats[category(s, utype, side, escort)] += sum(1 for f in faces if f <= val)
        return cats

    for (utype, val), n in order:
        if by_column and val != column:
            column = val
            if max_assignable(s, b, other, categories()) >= need:
                break  # R-CBT-04: every target is already hit
        faces = tuple(dice.roll(n, roll_purpose(b.space, rnd, label, utype)))
        out.append((utype, val, faces))
    hits = sum(1 for _, val, faces in out for f in faces if f <= val)  # CMP-3: roll <= value
    # Hits beyond what the other side can absorb are lost; record the assignable count (H-7).
    cats = categories()
    assignable = max_assignable(s, b, other, cats)
    tx.emit(ev.DiceRolled(space=b.space, round=rnd, side=side_word(side),
                          purpose=f"{b.space} round {rnd} {label}",
                          groups=tuple(out), hits=min(hits, assignable),
                          categories=tuple(cats), dice=dice.name,
                          stage=stage))


def paired_now(s: GameState, b: BattleState) -> dict[str, int]:
    """Attacking units of each type that fire at their paired value this round (CA-1..CA-4):
    pairs made among the attacker's units in the battle now, after the casualties of the
    rounds before (GC-7)."""
    present: dict[str, int] = {}
    for u in side_units(s, b, "attacker"):
        present[u.type] = present.get(u.type, 0) + 1
    return bm.paired(s.edition, present)


def _end(tx: Tx, b: BattleState, end: Ending) -> None:
    """Conclude a battle as ``model.battle_end`` says, the defenceless transports destroyed
    first (CC-6C)."""
    s = tx.state
    if end.transports_lost:
        ed = s.edition
        ids = tuple(u.id for u in side_units(s, b, "defender")
                    if ed.units[u.type].abilities.no_combat_value)
        tx.emit(ev.UnitsRemoved(ids=ids + cargo_ids(s, ids), reason="defenceless transports",
                                rule="CC-6C"))
        b = tx.state.battles[b.space]
    if end.unarmed_lost:
        remove_unarmed(tx, b.space, b.attacker, own_rule("GC-10/A-21"))
        b = tx.state.battles[b.space]
    conclude(tx, b, bm.RESULTS[end.result])


def remove_unarmed(tx: Tx, space: str, attacker: str, rule: str) -> None:
    """The attacker's enemies in a territory with no combat value left, AA guns alone, are
    destroyed, never captured (CC-3, GC-10, A-21)."""
    s = tx.state
    ids = tuple(u.id for u in s.units_in(space)
                if s.enemy(u.owner, attacker) and u.carried_by is None
                and bm.is_casualty(s.edition.units[u.type])
                and value(s, u, "defender") <= 0)
    if ids:
        tx.emit(ev.UnitsRemoved(ids=ids, reason=UNARMED, rule=rule))


UNARMED = "left alone without a combat value"


def precheck_end(tx: Tx, b: BattleState) -> bool:
    """Before a round, and once the first victims left: a side gone (every attacker submerged,
    SS-3), defenceless transports (CC-6C), battles nobody can fight (A-11)."""
    s = tx.state
    end = bm.battle_end(kinds(s, side_units(s, b, "attacker"), "attacker", b.sea),
                        kinds(s, side_units(s, b, "defender"), "defender", b.sea), b.sea)
    if end is None:
        return False
    if end.result == bm.BOTH_DESTROYED:
        # As the combat has always concluded it (the golden corpus): when the surprise strikes
        # leave neither side a unit (the only way both are gone here), the battle is the
        # attacker's. The model, and so the odds, say both are destroyed.
        end = Ending(bm.ATTACKER, end.rule)
    _end(tx, b, end)
    return True


def end_round(tx: Tx, b: BattleState) -> None:
    """Step 5: remove casualties with their cargo; then Step 6 (CC-6A, CC-6C, A-11)."""
    # A sea battle's casualties cite the sea rule where the digest has one (Classic R-NC-06).
    remove_with_cargo(tx, b, [i for i, _ in b.pending_casualties],
                      tx.state.edition.cite("CC-5", sea=b.sea))
    s = tx.state
    b = s.battles[b.space]
    end = bm.battle_end(kinds(s, side_units(s, b, "attacker"), "attacker", b.sea),
                        kinds(s, side_units(s, b, "defender"), "defender", b.sea), b.sea)
    if end is not None:
        _end(tx, b, end)
    else:
        tx.emit(ev.BattleRoundEnded(space=b.space, round=b.round, next_step="press_or_retreat"))


def auto_end_unfireable(tx: Tx, b: BattleState) -> None:
    """Attackers that cannot fire retreat; where they cannot, they are lost (CC-6C)."""
    s = tx.state
    options = retreat_options(s, b)
    if options:
        retreat(tx, b, od.Retreat(power=b.attacker, space=b.space, to=options[0]))
        return
    att = side_units(s, b, "attacker")
    ids = tuple(u.id for u in att)
    tx.emit(ev.UnitsRemoved(ids=ids + cargo_ids(s, ids), reason="defenceless transports",
                            rule="CC-6C"))
    conclude(tx, tx.state.battles[b.space], "defender")


catalogue("en", "rounds", {
    "endless": "The battle in {space} did not end after {rounds} rounds.",
})
