"""Conduct Combat (§9): the combat, the evaluator of the battle model that rolls dice.

The rules of a battle round are stated once in ``rules/battle/model.py`` and
``rules/battle/casualties.py``; the combat plays them with dice, players' decisions and events,
in the modules of ``rules/battle``: finding battles (``opening``), the rounds (``rounds``),
casualty choices (``choice``), retreat (``retreat``), the end of a battle (``conclude``), and
the mechanisms of one edition each: submarines that declare and submerge (1941 SS-2/SS-3,
``submerge``). This module takes the orders of Conduct Combat and says who owes what; other
battle decisions are their mechanisms' own (``rules/mechanisms/``), and a mechanism with work
of its own before a battle is fought says so through ``rules.turn.hooks.before_fight``.

Asynchronous by design: each round stops where a player owes a decision (casualties, press
or retreat) and continues when it is given. ``battle <space> all`` fights to the end, answering
for the attacker who gave it with its standing casualty order or the default (cheapest first,
two-hit units absorb first, transports last, the attacker keeping its last land unit where
possible); it never answers for the defender (H-1): it stops where a defender without a
standing order has a real choice (casualties, submarines to declare), and goes on to the end
once the defender answers.

Edition differences hang off unit abilities and ``RuleSet`` switches, never an edition id:
submarines declare (1941 SS-2) or attacking ones always strike first (Classic R-SUB-02);
submarines submerge (SS-3) or leave between rounds (``sub_retreat``); antiaircraft
guns fire before a land battle (``anti_air``, R-LC-02); battleships bombard (``bombard``,
R-AMP-05); dice by column (R-CBT-01/04); who
retreats and where (CC-6B / R-RET, A-13, A-28).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import events as ev
from rules import orders as od
from rules.battle import model as bm
from rules.battle.choice import (
    default_choice,
    forced_choice,
    movement_left,
    validate_choice,
    worth_less_first,
    worth_now,
)
from rules.battle.forces import (
    attacker_can_fire,
    battle_at,
    decision_battle,
    owed_hits,
    owed_side,
    rules_of,
    side_word,
    sub_eligible,
    targets,
)
from rules.battle.opening import open_battles
from rules.battle.retreat import retreat, retreat_options
from rules.battle.rounds import auto_end_unfireable, fight, go_on
from rules.battle.submerge import awaiting_declaration, declare_subs
from rules.decisions import Owed, Pending
from rules.dice import Dice
from rules.errors import IllegalOrder, NotYourTurn
from rules.messages import catalogue, msg, own_rule
from rules.state import BattleState, GameState
from rules.turn import hooks

if TYPE_CHECKING:
    from rules.turn.tx import Tx

__all__ = [
    "decide_attacker", "decide_decision", "default_choice", "forced_choice",
    "movement_left", "next_battles", "open_battles", "owed_hits", "owed_side",
    "pending_decisions", "retreat_options", "targets", "validate_choice", "worth_less_first",
    "worth_now",
]

_targets = targets  # the name rules/legal.py reads


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
    return out


def decide_attacker(tx: Tx, order: od.Battle | od.Press | od.Retreat, dice: Dice) -> None:
    s = tx.state
    b = battle_at(s, order.space)
    if isinstance(order, od.Retreat):
        retreat(tx, b, order)
        return
    auto = isinstance(order, od.Battle) and order.all
    if b.step == "casualties" and not (auto and owed_side(b) == "attacker"):
        who = pending_decisions(s)
        raise IllegalOrder(msg("combat.awaits_casualties", "H-1", space=b.space,
                               powers=[p.power for p in who if p.space == b.space]))
    if b.blocked_by is not None:
        raise IllegalOrder(msg("combat.sea_first", "AA-1", space=b.space, sea=b.blocked_by))
    for check in hooks.fight_checks():  # a mechanism's work there comes first
        check(s, b.space)
    if not _is_amphibious_part(s, b) and rules_of(s).amphibious_first:
        # CC-0: general combat, sea battles included, waits for every announced assault.
        first = [x.space for x in s.battles.values()
                 if x.step != "done" and _is_amphibious_part(s, x)]
        if first:
            raise IllegalOrder(msg("combat.assaults_first", "CC-0", spaces=first))
    if isinstance(order, od.Battle) and b.round == 0 and rules_of(s).one_battle_at_a_time:
        going = [x.space for x in s.battles.values() if x.round > 0 and x.step != "done"]
        if going:  # CC-2: each space fought to the end before the next starts
            raise IllegalOrder(msg("combat.finish_first", own_rule("CC-2"), space=b.space,
                                   going=going))
    if b.step == "press_or_retreat":
        if not attacker_can_fire(s, b):
            if retreat_options(s, b):
                raise IllegalOrder(msg("combat.cannot_fire", "UT-3, R-TRP-06",
                                       options=retreat_options(s, b)))
            auto_end_unfireable(tx, b)  # CC-6C / A-10: they cannot retreat either
            return
        tx.emit(ev.BattlePressed(space=b.space, to_the_end=auto))
    elif isinstance(order, od.Press):
        raise IllegalOrder(msg("combat.press_first", s.edition.cite("CC-6", sea=b.sea),
                               space=b.space))
    fight(tx, b.space, dice, auto=auto)


def next_battles(s: GameState) -> list[str]:
    """Open battles that may be fought now: amphibious assaults (their sea battles included)
    before general combat where the edition says so (CC-0)."""
    open_ = sorted(b.space for b in s.battles.values() if b.step != "done")
    going = [x for x in open_ if s.battles[x].round > 0]
    if going and rules_of(s).one_battle_at_a_time:
        return going  # CC-2: the battle begun is fought to the end first
    if rules_of(s).amphibious_first:
        first = [x for x in open_ if _is_amphibious_part(s, s.battles[x])]
        if first:
            return first
    return open_


def _is_amphibious_part(s: GameState, b: BattleState) -> bool:
    if b.amphibious:
        return True
    return any(x.blocked_by == b.space for x in s.battles.values() if x.step != "done")


def decide_decision(tx: Tx, order: od.Casualties | od.Submerge | od.Strike, dice: Dice) -> None:
    for take in hooks.decision_takers():  # a mechanism's own fight there owes it (air battle)
        if take(tx, order, dice):
            return
    s = tx.state
    b = decision_battle(s, order.space)
    if isinstance(order, od.Submerge | od.Strike):
        if not bm.declares(rules_of(s)) or rules_of(s).sub_retreat != "submerge":
            raise IllegalOrder(  # the edition's order for leaving between rounds is its verb
                msg("combat.no_declarations", "R-SUB-02", verb=rules_of(s).sub_retreat,
                    space=b.space))
        declare_subs(tx, b, order, dice)
        return
    side = owed_side(b)
    if b.step != "casualties" or side is None:
        raise IllegalOrder(msg("combat.none_owed", space=b.space))
    powers = (b.attacker,) if side == "attacker" else b.defenders
    if order.power not in powers:
        raise NotYourTurn(msg("combat.not_yours", "H-1", side=side, space=b.space,
                              powers=powers, power=order.power))
    lost, damaged = validate_choice(s, b, side, order.units, order.origins)
    tx.emit(ev.CasualtiesChosen(space=b.space, side=side_word(side), by=order.power, lost=lost,
                                damaged=damaged, how="choice"))
    go_on(tx, b.space, dice)


catalogue("en", "combat", {
    "awaits_casualties": "The battle in {space} waits for casualties from {powers:join} ({rule}). "
                         "They answer with 'casualties <space> <units>'.",
    "finish_first": "The battle in {going:join} is fought to the end before the next one starts "
                    "({rule}); {space} waits for it.",
    "sea_first": "The amphibious assault on {space} waits for the sea battle in {sea}: sea combat "
                 "comes first ({rule}).",
    "assaults_first": "Resolve amphibious assaults first ({spaces:join}), then general combat "
                      "({rule}).",
    "cannot_fire": "The attacking units left cannot fire ({rule}): retreat with 'retreat <space> "
                   "to <space>' ({options:join}).",
    "press_first": "'press' follows a round of the battle in {space}; fight a round with "
                   "'battle {space}' first ({rule}).",
    "no_declarations": "Submarines neither submerge nor declare a strike in this game: attacking "
                       "submarines always strike first ({rule}), and submarines leave a battle "
                       "between rounds with '{verb} {space}' (R-SUB-05).",
    "none_owed": "No casualties are owed in {space} now.",
    "not_yours": "The {side}'s casualties in {space} are chosen by {powers:join: or }, not "
                 "{power} ({rule}).",
})
