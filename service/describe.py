"""One short human line per event, and text views of a game (status, map overview).

Every event type of ``rules.events`` has a describer in ``DESCRIBERS`` (or its mechanism's
``reg.words``); a test checks that. A describer gets the state *before* its event, so unit ids
can be named by type and owner, and returns a message (``rules.messages.Msg``: key, parameters,
rule); the English of the lines is in ``service.describe_en``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules import combat, language
from rules import events as ev
from rules.battle.retreat import retreat_split
from rules.decisions import Pending
from rules.engine import evolve, phase_name
from rules.facilities import damage_table
from rules.messages import Msg, msg
from rules.position import held_apart
from rules.state import GameState
from rules.tech import technologies
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import possessive
from service import describe_en  # noqa: F401  (the English of the event lines)


def format_units(units: Mapping[str, int]) -> str:
    """``{"infantry": 3, "tank": 1}`` → ``"3 infantry, 1 tank"``: the parser's own spelling."""
    return language.format_units(units)


def _count_ids(state: GameState, ids: Iterable[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for uid in ids:
        u = state.units.get(uid)
        name = u.type if u is not None else "unit"
        out[name] = out.get(name, 0) + 1
    return out


def _by_owner(state: GameState, ids: Iterable[int]) -> list[tuple[str, dict[str, int]]]:
    """Units given by id, counted by type for each owner: ``[(power, {"infantry": 2})]``."""
    groups: dict[str, dict[str, int]] = {}
    for uid in ids:
        u = state.units.get(uid)
        owner, utype = (u.owner, u.type) if u is not None else ("?", "unit")
        g = groups.setdefault(owner, {})
        g[utype] = g.get(utype, 0) + 1
    return list(groups.items())


def _phase(state: GameState, phase: str) -> str:
    info = state.edition.phase_info.get(phase)
    return info.name if info is not None else phase.replace("_", " ").title()


# --------------------------------------------------------------------------------------------
# One describer per event type: the message (key, parameters, rule) that tells it. The English
# is in ``service.describe_en``.


def _game_started(s: GameState | None, e: ev.GameStarted) -> Msg:
    title = e.edition
    try:
        from rules.edition import load_edition

        title = load_edition(e.edition).rules.title
    except (OSError, ValueError):
        pass
    return msg("event.game_started", title=title, position=e.position is not None,
               options=list(e.options))


def _turn_started(s: GameState, e: ev.TurnStarted) -> Msg:
    return msg("event.turn_started", round=e.round, power=e.power)


def _phase_changed(s: GameState, e: ev.PhaseChanged) -> Msg:
    return msg("event.phase_changed", e.rule or None, power=e.power, phase=_phase(s, e.phase),
               skipped=[_phase(s, p) for p in e.skipped])


def _purchased(s: GameState, e: ev.UnitsPurchased) -> Msg:
    return msg("event.purchased", power=e.power, units=dict(e.units), cost=e.cost)


def _cleared(s: GameState, e: ev.PurchaseCleared) -> Msg:
    return msg("event.cleared", power=e.power, refund=e.refund)


def _moved(s: GameState, e: ev.UnitsMoved) -> Msg:
    if e.frm == e.to and all(len(m.path) == 1 for m in e.moves):
        units = _count_ids(s, (m.id for m in e.moves))
        if all(m.carried_by is not None for m in e.moves):
            return msg("event.landed_on_carrier", power=e.power, units=units, space=e.to)
        return msg("event.stayed", power=e.power, units=units, space=e.to)
    # units bound for a landing wait aboard (path 1) until their sea battle is won: they went
    went = [m for m in e.moves if len(m.path) > 1 or e.frm == e.to or m.assault]
    via = {m.path[1:-1] for m in e.moves if len(m.path) > 2}
    stayed = [m for m in e.moves if m not in went]
    return msg(
        "event.moved", power=e.power, units=_count_ids(s, (m.id for m in went)), frm=e.frm,
        to=e.to, via=list(next(iter(via))) if len(via) == 1 else [],
        loading=any(m.loaded for m in e.moves), offloading=any(m.offloaded for m in e.moves),
        assaults=sorted({m.assault for m in e.moves if m.assault}), blitzed=list(e.blitzed),
        # what the move declared for a mechanism, in the mechanism's own messages
        notes=[n for more in hooks.notes_for(ev.UnitsMoved) for n in more(s, e)],
        # fighters that stayed behind their carrier
        stayed=_count_ids(s, (m.id for m in stayed)),
    )


def _captured(s: GameState, e: ev.TerritoryCaptured) -> Msg:
    value = s.edition.spaces[e.space].value if e.space in s.edition.spaces else 0
    return msg("event.captured", e.rule or None, space=e.space, by=e.by, owner=e.owner,
               how=e.how, value=value, seized=e.seized, seized_from=e.seized_from)


def _neutral_violated(s: GameState, e: ev.NeutralViolated) -> Msg:
    return msg("event.neutral_violated", e.rule or None, power=e.power, space=e.space,
               fee=e.fee)


def _battle_opened(s: GameState, e: ev.BattleOpened) -> Msg:
    kind = "amphibious" if e.amphibious else ("sea" if e.sea else "land")
    return msg("event.battle_opened", kind=kind, space=e.space, attacker=e.attacker,
               units=_count_ids(s, e.attacking), defenders=_by_owner(s, e.defending),
               blocked_by=e.blocked_by)


def _seaborne(s: GameState, e: ev.SeaborneLanded) -> Msg:
    return msg("event.seaborne", units=_count_ids(s, e.units), space=e.space)


def _dice(s: GameState, e: ev.DiceRolled) -> Msg:
    own = hooks.stage_words_for(e.stage)  # a mechanism's own dice
    if own is not None:
        return own(s, e)
    return msg("event.dice", stage=e.stage, space=e.space, round=e.round, side=e.side,
               groups=[(utype, value, tuple(fs)) for utype, value, fs in e.groups],
               hits=e.hits, scripted=e.dice == "scripted")


def _which_units(s: GameState, space: str, side: str,
                 ids: Iterable[int]) -> list[tuple[str, int, bool, str | None, int | None]]:
    """Units by type, and where units of one type in the battle differ (start, movement left,
    damage), which ones: ``(type, count, damaged, start, moves left)``, the last three only
    where they tell units apart ('1 fighter from <space> (2 moves left)')."""
    b = s.battles.get(space)
    pool = [] if b is None else [
        s.units[i] for i in (b.attacking + b.seaborne if side == "attacker" else b.defending)
        if i in s.units]
    labels: dict[tuple[str, bool, str | None, int | None], int] = {}
    for i in ids:
        u = s.units.get(i)
        if u is None:
            continue
        same = [x for x in pool if x.type == u.type and x.owner == u.owner] or [u]
        start: str | None = None
        left: int | None = None
        if len({combat.worth_now(s, x)[1] for x in same}) > 1:
            start, left = u.start or u.space, combat.movement_left(s, u)
        damaged = len({x.damage for x in same}) > 1 and bool(u.damage)
        key = (u.type, damaged, start, left)
        labels[key] = labels.get(key, 0) + 1
    return [(utype, n, damaged, start, left)
            for (utype, damaged, start, left), n in labels.items()]


def _casualties(s: GameState, e: ev.CasualtiesChosen) -> Msg:
    by = e.by if e.by != "referee" else None
    owners = sorted({s.units[i].owner for i in (*e.lost, *e.damaged) if i in s.units},
                    key=lambda p: s.edition.turn_order.index(p)
                    if p in s.edition.turn_order else len(s.edition.turn_order))
    # Units of several powers defending together (MN-5): each power's share, as it loses it.
    shares = None if owners == [by] or (by is None and len(owners) < 2) else [
        (p, _which_units(s, e.space, e.side, [i for i in e.lost if s.units[i].owner == p]),
         _which_units(s, e.space, e.side, [i for i in e.damaged if s.units[i].owner == p]))
        for p in owners]
    return msg("event.casualties", space=e.space, side=e.side, by=by,
               lost=_which_units(s, e.space, e.side, e.lost) if e.lost else None,
               damaged=_which_units(s, e.space, e.side, e.damaged) if e.damaged else None,
               how=e.how, shares=shares)


def _removed(s: GameState, e: ev.UnitsRemoved) -> Msg:
    return msg("event.removed", e.rule or None, units=_by_owner(s, e.ids), reason=e.reason)


def _round_started(s: GameState, e: ev.BattleRoundStarted) -> Msg:
    return msg("event.round_started", space=e.space, round=e.round)


def _subs_declared(s: GameState, e: ev.SubmarinesDeclared) -> Msg:
    return msg("event.subs_declared", "SS-2", space=e.space, side=e.side,
               strike=_count_ids(s, e.strike), submerge=_count_ids(s, e.submerge), how=e.how)


def _round_ended(s: GameState, e: ev.BattleRoundEnded) -> Msg:
    return msg("event.round_ended", space=e.space, round=e.round,
               may_retreat=e.next_step == "press_or_retreat")


def _attacker(s: GameState, space: str) -> str | None:
    b = s.battles.get(space)
    return b.attacker if b is not None else None


def _pressed(s: GameState, e: ev.BattlePressed) -> Msg:
    return msg("event.pressed", attacker=_attacker(s, e.space), space=e.space)


def _retreated(s: GameState, e: ev.BattleRetreated) -> Msg:
    going, staying = retreat_split(s, e)
    return msg("event.retreated", s.edition.cite("CC-6B"), attacker=_attacker(s, e.space),
               space=e.space, to=e.to, going=_count_ids(s, going),
               staying=_count_ids(s, staying), n_staying=len(staying))


def _battle_ended(s: GameState, e: ev.BattleEnded) -> Msg:
    return msg("event.battle_ended", space=e.space, result=e.result,
               repaired=_count_ids(s, e.repaired),
               back_on_carriers=_count_ids(s, (f for f, _ in e.landed)),
               offloaded=_count_ids(s, e.offloaded), stranded=_count_ids(s, e.stranded))


def _damage(s: GameState, e: ev.DamagePaid) -> Msg:
    return msg("event.damage", e.rule or None, power=e.power, paid=e.paid, reason=e.reason,
               debt=e.debt)


def _lost(s: GameState, e: ev.PurchaseLost) -> Msg:
    return msg("event.purchase_lost", e.rule or None, power=e.power, units=dict(e.units))


def _placed(s: GameState, e: ev.UnitsPlaced) -> Msg:
    counts: dict[str, int] = {}
    for _, utype, _carried in e.units:
        counts[utype] = counts.get(utype, 0) + 1
    return msg("event.placed", power=e.power, units=counts, space=e.space,
               factory=e.factory if e.factory and e.factory != e.space else None)


def _refunded(s: GameState, e: ev.PurchaseRefunded) -> Msg:
    return msg("event.refunded", e.rule or None, power=e.power, amount=e.amount,
               units=dict(e.units))


def _income(s: GameState, e: ev.IncomeCollected) -> Msg:
    total = s.treasury.get(e.power, 0) + e.amount - e.debt_paid
    left = s.debts.get(e.power, 0) - e.debt_paid if e.debt_paid else 0
    # What mechanisms added to or took from the production (IN-1), as they recorded it.
    parts = [(step.label, n) for step in hooks.income_steps() if (n := step.adjust(s, e.power))]
    return msg("event.income", e.rule or None, power=e.power, amount=e.amount, total=total,
               debt_paid=e.debt_paid, left=left, production=s.income()[e.power],
               labels=[label for label, _ in parts], changes=[n for _, n in parts])


def _won(s: GameState, e: ev.GameWon) -> Msg:
    if e.rule == "concession":
        return msg("event.won_by_concession", side=e.side)
    return msg("event.won", e.rule or None, side=e.side, capitals=list(e.capitals),
               production=e.production)


def _conceded(s: GameState, e: ev.SideConceded) -> Msg:
    return msg("event.conceded", side=e.side, powers=list(e.powers))


def _ended(s: GameState, e: ev.GameEnded) -> Msg:
    return msg("event.ended", result=e.result, powers=list(e.powers))


def _standing(s: GameState, e: ev.StandingOrderSet) -> Msg:
    return msg("event.standing", power=e.power, order=list(e.order))


def _edit(s: GameState, e: ev.EditApplied) -> Msg:
    """A game-master edit: what it did, who proposed it and who agreed (COMMANDS.md, Admin)."""
    riders = [uid for uid, _space, _on in e.moved
              if (u := s.units.get(uid)) is not None and u.carried_by is not None
              and any(m[0] == u.carried_by for m in e.moved)]
    return msg(
        "event.edit", proposal=e.proposal, text=e.text.removeprefix("edit "),
        treasury=[(p, n, s.treasury.get(p, 0)) for p, n in e.treasury],
        owners=[(t, p, s.owners.get(t)) for t, p in e.owners],
        riders=_by_owner(s, riders) if riders else None,
        reowned=_count_ids(s, (uid for uid, _o in e.reowned)),
        proposer=e.proposer, agreed=e.agreed, agreed_for=list(e.agreed_for),
    )


def _dice_committed(s: GameState, e: ev.DiceCommitted) -> Msg:
    if e.scheme == "scripted":
        return msg("event.dice_scripted", faces=len(e.faces))
    return msg("event.dice_committed", first=e.first_round,
               last=e.first_round + e.chain_length - 1, commitment=e.commitment)


def _entropy_fixed(s: GameState, e: ev.DiceEntropyFixed) -> Msg:
    return msg("event.entropy", phrases=sorted(e.phrases))


def _seed_revealed(s: GameState, e: ev.DiceSeedRevealed) -> Msg:
    return msg("event.seed_revealed", round=e.round, seed=e.seed, master=bool(e.master))


DESCRIBERS: dict[type[Any], Callable[[GameState, Any], Msg]] = {
    ev.GameStarted: _game_started,
    ev.TurnStarted: _turn_started,
    ev.PhaseChanged: _phase_changed,
    ev.UnitsPurchased: _purchased,
    ev.PurchaseCleared: _cleared,
    ev.PurchaseLost: _lost,
    ev.UnitsMoved: _moved,
    ev.TerritoryCaptured: _captured,
    ev.BattleOpened: _battle_opened,
    ev.SeaborneLanded: _seaborne,
    ev.DiceRolled: _dice,
    ev.NeutralViolated: _neutral_violated,
    ev.CasualtiesChosen: _casualties,
    ev.UnitsRemoved: _removed,
    ev.BattleRoundEnded: _round_ended,
    ev.BattleRoundStarted: _round_started,
    ev.SubmarinesDeclared: _subs_declared,
    ev.BattlePressed: _pressed,
    ev.BattleRetreated: _retreated,
    ev.BattleEnded: _battle_ended,
    ev.DamagePaid: _damage,
    ev.UnitsPlaced: _placed,
    ev.PurchaseRefunded: _refunded,
    ev.IncomeCollected: _income,
    ev.GameWon: _won,
    ev.StandingOrderSet: _standing,
    ev.DiceCommitted: _dice_committed,
    ev.DiceEntropyFixed: _entropy_fixed,
    ev.DiceSeedRevealed: _seed_revealed,
    ev.SideConceded: _conceded,
    ev.GameEnded: _ended,
    ev.EditApplied: _edit,
}


def describer(event_type: type) -> Callable[[GameState, Any], Msg] | None:
    """The words for ``event_type``: here, or registered by its mechanism (``reg.words``)."""
    return DESCRIBERS.get(event_type) or reg.words_for(event_type)


def describe(before: GameState, event: ev.Event) -> str:
    """One line for ``event``, given the state just before it."""
    fn = describer(type(event))
    if fn is None:  # an event type without words (DESCRIBERS here, or its mechanism's)
        return f"{type(event).__name__}: {ev.event_to_json(event)}"
    return tidy(before.edition.cite_text(str(fn(before, event))))


_DOUBLE_STOP = re.compile(r"(?<=[A-Z])\.\.(?=[\s,;)]|$)")
_PLURAL_POSSESSIVE = re.compile(r"\b([A-Z][a-z]*s)'s\b")


def tidy(line: str) -> str:
    """One full stop after a name that ends with one ("to Karelia S.S.R.." -> "S.S.R."), and
    a name ending in s takes only an apostrophe ("the Philippines's" -> "the Philippines'")."""
    return _PLURAL_POSSESSIVE.sub(r"\1'", _DOUBLE_STOP.sub(".", line))


def describe_all(before: GameState | None, events: Sequence[ev.Event]) -> list[str]:
    """Lines for a run of events, folding the state along (``before`` None: a new game)."""
    lines: list[str] = []
    state = before
    for e in events:
        if state is None:
            if not isinstance(e, ev.GameStarted):
                raise ValueError("a run of events without a state must begin with GameStarted")
            lines.append(tidy(str(_game_started(None, e))))
            from rules.engine import replay

            state = replay([e])
            continue
        lines.append(describe(state, e))
        state = evolve(state, e)
    return lines


def describe_folded(
    before: Sequence[GameState | None], events: Sequence[ev.Event]
) -> list[str]:
    """The lines ``describe_all`` gives, for events whose states are known: ``before[i]`` is the
    state before ``events[i]`` (None before a ``GameStarted``), as deciding them folded it."""
    lines: list[str] = []
    for state, e in zip(before, events, strict=True):
        if state is None:
            if not isinstance(e, ev.GameStarted):
                raise ValueError("a run of events without a state must begin with GameStarted")
            lines.append(tidy(str(_game_started(None, e))))
        else:
            lines.append(describe(state, e))
    return lines


# --------------------------------------------------------------------------------------------
# Waiting, status and the text map


def waiting_line(state: GameState, pend: Sequence[Pending], seats: Mapping[str, str]) -> str:
    """``"Waiting for: <power> (<phase>)"``, or who won."""
    if state.winner:
        return f"Game over: the {state.winner} won."
    if state.ended:
        return "Game over: a draw." if state.ended == "draw" else "Game over: cancelled."
    if not pend:
        return "Waiting for: nobody."
    parts = []
    for p in pend:
        what = phase_name(state) if p.turn else p.what + (f" in {p.space}" if p.space else "")
        holder = seats.get(p.power)
        who = f"{p.power} [{holder}]" if holder and holder != p.power else p.power
        parts.append(f"{who} ({what})")
    return "Waiting for: " + ", ".join(parts)


def _units_table(state: GameState) -> dict[str, dict[str, dict[str, int]]]:
    """Space → holder → units: each power's, and those of a holder that is no power (a
    neutral territory's army), as 'state' writes them (``rules.position.held_apart``)."""
    apart, held = held_apart(state)
    table: dict[str, dict[str, dict[str, int]]] = {}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.id in apart:
            continue
        by_power = table.setdefault(u.space, {})
        counts = by_power.setdefault(u.owner, {})
        counts[u.type] = counts.get(u.type, 0) + 1
    for space, by_holder in held.items():
        table.setdefault(space, {}).update({k: v for k, v in by_holder.items() if v})
    return table


def space_line(state: GameState, space: str, table: Mapping[str, Any] | None = None) -> str:
    """``"<space> [<owner>, <value>]: <power> 2 infantry"``: owner, value and units."""
    ed = state.edition
    sp = ed.spaces[space]
    units = (table if table is not None else _units_table(state)).get(space, {})
    if sp.kind == "sea":
        head = f"{space} [sea]"
    elif sp.impassable:
        head = f"{space} [neutral, impassable]"
    else:
        owner = state.owners.get(space) or "neutral"
        extras = []
        if sp.capital_of:
            extras.append(f"capital of {sp.capital_of}")
        head = f"{space} [{owner}, {sp.value}{', ' + ', '.join(extras) if extras else ''}]"
    body = "; ".join(f"{p} {format_units(c)}" for p, c in units.items()) or "empty"
    battle = state.battles.get(space)
    if battle is not None and battle.step != "done":
        body += " (battle pending)"
    return f"{head}: {body}"


def map_lines(state: GameState, space: str | None = None) -> list[str]:
    """A text map: one space, or every territory and every sea zone with units in it."""
    table = _units_table(state)
    if space is not None:
        lines = [space_line(state, space, table)]
        near = sorted(state.edition.neighbours.get(space, ()))
        if near:
            lines.append("Next to it: " + ", ".join(near))
        return lines
    lines = []
    for name, sp in state.edition.spaces.items():
        if sp.kind == "sea" and name not in table:
            continue
        lines.append(space_line(state, name, table))
    return lines


def status_lines(state: GameState) -> list[str]:
    """Round, turn, phase, treasury, income, pending battles and purchase."""
    ed = state.edition
    income = state.income()
    lines = [
        tidy(f"Round {state.round}, {possessive(state.power)} turn, {phase_name(state)}."),
        "Treasury: " + ", ".join(f"{p} {state.treasury.get(p, 0)}" for p in ed.turn_order),
        "Income: " + ", ".join(f"{p} {income.get(p, 0)}" for p in ed.turn_order),
    ]
    if state.purchase:
        lines.append(f"Bought this turn: {format_units(state.purchase)}.")
    table = technologies(ed)
    owned = [(p, [table[t].name for t in state.techs.get(p, ()) if t in table])
             for p in ed.turn_order]
    if any(names for _, names in owned):
        lines.append("Weapons developments: "
                     + "; ".join(f"{p} {', '.join(n)}" for p, n in owned if n) + ".")
    damaged = sorted((u for u in state.units.values() if u.damage),
                     key=lambda u: (list(ed.spaces).index(u.space), u.owner, u.type))
    if damaged:
        lines.append("Damaged: " + "; ".join(
            f"{p}'s {format_units(_count_ids(state, (u.id for u in g)))} in {sp}"
            for (sp, p), g in itertools.groupby(damaged, key=lambda u: (u.space, u.owner))) + ".")
    marked = damage_table(state)  # facilities' damage markers (FA-5)
    if marked:
        lines.append("Facility damage: " + "; ".join(
            f"{f} in {t} {n}" for t, by in marked.items() for f, n in by.items()) + ".")
    owed = [(p, state.debts[p]) for p in ed.turn_order if state.debts.get(p)]
    if owed:
        lines.append("Owed to the bank (from its next income): "
                     + ", ".join(f"{p} {n}" for p, n in owed) + ".")
    open_battles = [s for s, b in state.battles.items() if b.step != "done"]
    if open_battles:
        lines.append("Battles pending: " + ", ".join(open_battles) + ".")
    return lines
