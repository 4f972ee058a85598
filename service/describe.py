"""One short human line per event, and text views of a game (status, map overview).

Every event type of ``rules.events`` has a describer in ``DESCRIBERS``; a test checks that. A
describer gets the state *before* its event, so unit ids can be named by type and owner.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules import combat, language
from rules import events as ev
from rules.decisions import Pending
from rules.engine import evolve, phase_name
from rules.state import GameState
from rules.tech import technologies
from rules.turn import registry as reg
from rules.words import agree, ipcs, possessive, rule_suffix


def format_units(units: Mapping[str, int]) -> str:
    """``{"infantry": 3, "tank": 1}`` → ``"3 infantry, 1 tank"``: the parser's own spelling."""
    return language.format_units(units)


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _count_ids(state: GameState, ids: Iterable[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for uid in ids:
        u = state.units.get(uid)
        name = u.type if u is not None else "unit"
        out[name] = out.get(name, 0) + 1
    return out


def _by_owner(state: GameState, ids: Iterable[int]) -> str:
    """``"<power>: 2 infantry; <power>: 1 fighter"`` for units given by id, by owner."""
    groups: dict[str, dict[str, int]] = {}
    for uid in ids:
        u = state.units.get(uid)
        owner, utype = (u.owner, u.type) if u is not None else ("?", "unit")
        g = groups.setdefault(owner, {})
        g[utype] = g.get(utype, 0) + 1
    if not groups:
        return "no units"
    return "; ".join(f"{o}: {format_units(g)}" for o, g in groups.items())


def _units_of_ids(state: GameState, ids: Iterable[int]) -> str:
    return format_units(_count_ids(state, ids))


def _phase(state: GameState, phase: str) -> str:
    info = state.edition.phase_info.get(phase)
    return info.name if info is not None else phase.replace("_", " ").title()


# --------------------------------------------------------------------------------------------
# One describer per event type


def _game_started(s: GameState | None, e: ev.GameStarted) -> str:
    title = e.edition
    try:
        from rules.edition import load_edition

        title = load_edition(e.edition).rules.title
    except (OSError, ValueError):
        pass
    how = " from a given position" if e.position is not None else ""
    opts = f" with options {', '.join(e.options)}" if e.options else ""
    return f"A game of {title} began{how}{opts}."


def _turn_started(s: GameState, e: ev.TurnStarted) -> str:
    return f"Round {e.round}: {possessive(e.power)} turn begins."


def _phase_changed(s: GameState, e: ev.PhaseChanged) -> str:
    line = f"{e.power}: {_phase(s, e.phase)}."
    if e.skipped:
        skipped = ", ".join(_phase(s, p) for p in e.skipped)
        line += f" Skipped {skipped}{rule_suffix(e.rule)}."
    return line


def _purchased(s: GameState, e: ev.UnitsPurchased) -> str:
    return f"{e.power} bought {format_units(e.units)} ({ipcs(e.cost)})."


def _cleared(s: GameState, e: ev.PurchaseCleared) -> str:
    return f"{e.power} cleared its purchase ({ipcs(e.refund)} back)."


def _moved(s: GameState, e: ev.UnitsMoved) -> str:
    if e.frm == e.to and all(len(m.path) == 1 for m in e.moves):
        what = _units_of_ids(s, (m.id for m in e.moves))
        if all(m.carried_by is not None for m in e.moves):
            return f"{e.power}: {what} landed on a carrier in {e.to}."
        return f"{e.power}: {what} stayed in {e.to}."
    went = [m for m in e.moves if len(m.path) > 1 or e.frm == e.to]
    line = f"{e.power} moved {_units_of_ids(s, (m.id for m in went))} from {e.frm} to {e.to}"
    via = {m.path[1:-1] for m in e.moves if len(m.path) > 2}
    if len(via) == 1:
        (path,) = via
        line += f" via {', '.join(path)}"
    notes: list[str] = []
    if any(m.loaded for m in e.moves):
        notes.append("loading")
    if any(m.offloaded for m in e.moves):
        notes.append("offloading")
    assaults = sorted({m.assault for m in e.moves if m.assault})
    if assaults:
        notes.append(f"amphibious assault on {', '.join(assaults)}")
    if e.blitzed:
        notes.append(f"blitzing through {', '.join(e.blitzed)}")
    if any(m.raid for m in e.moves):
        notes.append(f"strategic bombing raid on {e.to}")
    stayed = [m for m in e.moves if m not in went]
    if stayed:  # fighters that stayed behind their carrier
        notes.append(f"{_units_of_ids(s, (m.id for m in stayed))} stayed airborne in {e.frm}")
    if notes:
        line += f" ({'; '.join(notes)})"
    return line + "."


def _captured(s: GameState, e: ev.TerritoryCaptured) -> str:
    value = s.edition.spaces[e.space].value if e.space in s.edition.spaces else 0
    gain = f"+{value} income"
    if e.owner != e.by:
        line = f"{e.by} liberated {e.space}; it returns to {e.owner}"
        gain += f" for {e.owner}"
    else:
        verb = {"blitz": "blitzed into", "neutral violation": "took neutral"}.get(e.how, "captured")
        line = f"{e.by} {verb} {e.space}"
    notes = [gain]
    if e.seized:
        line += f" and took {ipcs(e.seized)} from {e.seized_from}"
    if e.rule:
        notes.append(e.rule)
    return f"{line} ({'; '.join(notes)})."


def _neutral_violated(s: GameState, e: ev.NeutralViolated) -> str:
    return (f"{e.power} violated the neutrality of {e.space} and paid {ipcs(e.fee)} to the bank"
            f"{rule_suffix(e.rule)}.")


def _battle_opened(s: GameState, e: ev.BattleOpened) -> str:
    kind = "Amphibious assault" if e.amphibious else ("Sea battle" if e.sea else "Battle")
    attack = _units_of_ids(s, e.attacking)
    defend = _by_owner(s, e.defending) if e.defending else "no defenders"
    line = f"{kind} in {e.space}: {e.attacker} ({attack}) against {defend}"
    if e.blocked_by:
        line += f"; waits for the sea battle in {e.blocked_by}"
    return line + "."


def _seaborne(s: GameState, e: ev.SeaborneLanded) -> str:
    units = _units_of_ids(s, e.units)
    return f"{units[:1].upper()}{units[1:]} landed from the sea in {e.space}, joining the battle."


_STAGES = {
    "strike": "'s submarines strike",
    "aa": "'s antiaircraft gun fires at the attacking aircraft",
    "bombard": "'s battleships bombard",
}


def _dice(s: GameState, e: ev.DiceRolled) -> str:
    faces = ",".join(str(f) for g in e.groups for f in g[2])
    if e.stage == "overflight":
        guns = format_units({g[0]: 1 for g in e.groups})
        line = (f"Aircraft flew over {e.space}: its {guns.removeprefix('1 ')} rolled "
                f"{faces or 'nothing'} → {_hits(e.hits)} (hits on 1, R-AIR-05)")
        return line + (" [scripted dice]." if e.dice == "scripted" else ".")
    if e.stage == "raid_aa":
        return (f"Bombing raid on {e.space}: the antiaircraft gun rolled {faces} → "
                f"{_n_bombers(e.hits)} shot down (R-SBR-02).")
    if e.stage == "raid":
        return (f"Bombing raid on {e.space}: the bombers rolled {faces} → "
                f"{sum(f for g in e.groups for f in g[2])} damage (R-SBR-03).")
    if not e.groups:
        return (f"Battle in {e.space}, round {e.round}: the {e.side} rolls no dice "
                "(no unit left to fire, or nothing left it can hit).")
    if e.stage in _STAGES:
        return _dice(s, e.model_copy(update={"stage": "fire"})).replace(
            f"{e.side} rolled", f"{e.side}{_STAGES[e.stage]}: rolled", 1)
    line = (
        f"Battle in {e.space}, round {e.round}: {e.side} rolled {faces or 'nothing'}"
        f" → {_hits(e.hits)}"
    )
    notes: list[str] = []
    scored = sum(1 for _, value, fs in e.groups for f in fs if f <= value)
    if scored > e.hits:  # more dice hit than there are units to take them
        notes.append(f"{scored} dice hit, {e.hits} counted")
    if len(e.groups) > 1:
        notes += [
            f"{utype} at {value}: {','.join(str(f) for f in fs)}" for utype, value, fs in e.groups
        ]
    if notes:
        line += f" ({'; '.join(notes)})"
    if e.dice == "scripted":
        line += " [scripted dice]"
    return line + "."


def _which_units(s: GameState, space: str, side: str, ids: Iterable[int]) -> str:
    """Units by type, and where units of one type in the battle differ (start, movement left,
    damage), which ones: '1 fighter from <space> (2 moves left)'."""
    b = s.battles.get(space)
    pool = [] if b is None else [
        s.units[i] for i in (b.attacking + b.seaborne if side == "attacker" else b.defending)
        if i in s.units]
    labels: dict[str, int] = {}
    for i in ids:
        u = s.units.get(i)
        if u is None:
            continue
        same = [x for x in pool if x.type == u.type and x.owner == u.owner] or [u]
        suffix = ""
        if len({combat.worth_now(s, x)[1] for x in same}) > 1:
            left = combat.movement_left(s, u)
            suffix = f" from {u.start or u.space} ({left} move{'' if left == 1 else 's'} left)"
        if len({x.damage for x in same}) > 1 and u.damage:
            suffix = " (damaged)" + suffix
        key = f"{u.type}\t{suffix}"
        labels[key] = labels.get(key, 0) + 1
    parts = []
    for key, n in labels.items():
        utype, suffix = key.split("\t")
        parts.append(format_units({utype: n}) + suffix)
    return ", ".join(parts) or "no units"


def _casualties(s: GameState, e: ev.CasualtiesChosen) -> str:
    parts: list[str] = []
    if e.lost:
        parts.append(f"loses {_which_units(s, e.space, e.side, e.lost)}")
    if e.damaged:
        parts.append(f"has {_which_units(s, e.space, e.side, e.damaged)} damaged")
    what = " and ".join(parts) if parts else "takes no losses"
    how = {
        "choice": "",
        "forced": " (no choice)",
        "default": " (default order)",
        "standing": " (standing order)",
    }.get(e.how, f" ({e.how})")
    who = e.by if e.by != "referee" else f"the {e.side}"
    return f"Casualties in {e.space}: {who} {what}{how}."


def _removed(s: GameState, e: ev.UnitsRemoved) -> str:
    why = f"{e.reason}, {e.rule}" if e.rule else e.reason
    return f"Removed from the board: {_by_owner(s, e.ids)} ({why})."


def _round_started(s: GameState, e: ev.BattleRoundStarted) -> str:
    return f"Battle in {e.space}: round {e.round} begins."


def _subs_declared(s: GameState, e: ev.SubmarinesDeclared) -> str:
    who = "attacking" if e.side == "attacker" else "defending"
    parts = []
    if e.strike:
        n = len(e.strike)
        parts.append(f"{_units_of_ids(s, e.strike)} {agree(n, 'makes', 'make')} a surprise strike")
    if e.submerge:
        n = len(e.submerge)
        parts.append(f"{_units_of_ids(s, e.submerge)} {agree(n, 'submerges', 'submerge')} and "
                     f"{agree(n, 'leaves', 'leave')} the battle")
    how = "" if e.how == "choice" else f", {e.how}"
    return f"In {e.space} the {who} submarines: {'; '.join(parts) or 'none'} (SS-2{how})."


def _subs_withdrew(s: GameState, e: ev.SubmarinesWithdrew) -> str:
    who = "attacking" if e.side == "attacker" else "defending"
    return (f"In {e.space} {possessive(e.by)} {who} {_units_of_ids(s, e.units)} withdrew to {e.to} "
            "(R-SUB-05).")


def _raid(s: GameState, e: ev.RaidResolved) -> str:
    line = f"Bombing raid on {e.space} by {e.attacker}"
    if e.note:
        return f"{line}: {e.note}."
    if e.lost:
        line += f" ({len(e.lost)} of {len(e.bombers)} bombers shot down)"
    who = e.defender or "nobody"
    return f"{line}: {ipcs(e.damage)} of damage for {who} (R-SBR-03)."


def _round_ended(s: GameState, e: ev.BattleRoundEnded) -> str:
    line = f"Battle in {e.space}: round {e.round} over"
    if e.next_step == "press_or_retreat":
        line += "; the attacker may press or retreat"
    return line + "."


def _attacker(s: GameState, space: str) -> str:
    b = s.battles.get(space)
    return b.attacker if b is not None else "The attacker"


def _pressed(s: GameState, e: ev.BattlePressed) -> str:
    return f"{_attacker(s, e.space)} presses the attack in {e.space}."


def retreat_split(s: GameState, e: ev.BattleRetreated) -> tuple[list[int], list[int]]:
    """(units that went to ``e.to``, air units that stay in the contested space to land in
    Noncombat Move, CC-6B): aircraft go along only where the edition says (R-RET-02, A-28)."""
    going: list[int] = []
    staying: list[int] = []
    for i in e.units:
        u = s.units.get(i)
        air = u is not None and s.edition.units[u.type].domain == "air"
        (going if e.to is not None and (not air or e.air_with) else staying).append(i)
    return going, staying


def _retreated(s: GameState, e: ev.BattleRetreated) -> str:
    who = _attacker(s, e.space)
    going, staying = retreat_split(s, e)
    rule = s.edition.cite("CC-6B")
    stay = ""
    if staying:
        verb = "stays" if len(staying) == 1 else "stay"
        stay = (f"{_units_of_ids(s, staying)} {verb} in {e.space} and "
                f"land{'s' if len(staying) == 1 else ''} in Noncombat Move")
    if not going:
        return f"{who} withdrew from the battle in {e.space}: {stay} ({rule})."
    line = f"{who} retreated {_units_of_ids(s, going)} from {e.space} to {e.to}"
    return f"{line}; {stay} ({rule})." if stay else f"{line}."


_RESULTS = {
    "attacker": "the attacker won",
    "defender": "the defender held",
    "both destroyed": "both sides were destroyed",
    "retreat": "the attacker retreated",
    "no combat": "no combat",
}


def _battle_ended(s: GameState, e: ev.BattleEnded) -> str:
    line = f"Battle in {e.space} over: {_RESULTS.get(e.result, e.result)}"
    notes: list[str] = []
    if e.repaired:
        notes.append(f"{_units_of_ids(s, e.repaired)} repaired")
    if e.landed:
        notes.append(f"{_units_of_ids(s, (f for f, _ in e.landed))} back on carriers")
    if e.offloaded:
        notes.append(f"{_units_of_ids(s, e.offloaded)} landed")
    if e.stranded:
        notes.append(f"{_units_of_ids(s, e.stranded)} must find a place to land")
    if notes:
        line += f" ({'; '.join(notes)})"
    return line + "."


def _damage(s: GameState, e: ev.DamagePaid) -> str:
    line = f"{e.power} paid {ipcs(e.paid)} to the bank for {e.reason}"
    if e.debt:
        line += f"; {ipcs(e.debt)} more is owed from its next income"
    return f"{line}{rule_suffix(e.rule)}."


def _lost(s: GameState, e: ev.PurchaseLost) -> str:
    return (f"{e.power} lost {format_units(e.units)} it could not place, without refund"
            f"{rule_suffix(e.rule)}.")


def _placed(s: GameState, e: ev.UnitsPlaced) -> str:
    counts: dict[str, int] = {}
    for _, utype, _carried in e.units:
        counts[utype] = counts.get(utype, 0) + 1
    line = f"{e.power} placed {format_units(counts)} in {e.space}"
    if e.factory and e.factory != e.space:
        line += f" (from the industrial complex in {e.factory})"
    return line + "."


def _refunded(s: GameState, e: ev.PurchaseRefunded) -> str:
    return (
        f"{e.power} got {ipcs(e.amount)} back for {format_units(e.units)} it could not place"
        f"{rule_suffix(e.rule)}."
    )


def _income(s: GameState, e: ev.IncomeCollected) -> str:
    total = s.treasury.get(e.power, 0) + e.amount - e.debt_paid
    rule = f"; {e.rule}" if e.rule else ""
    if e.debt_paid:
        left = s.debts.get(e.power, 0) - e.debt_paid
        still = f", {ipcs(left)} still owed" if left > 0 else ""
        return (f"{e.power} collected {ipcs(e.amount)}, of which {ipcs(e.debt_paid)} settled "
                f"unpaid damage{still} (treasury now {total}{rule}).")
    return f"{e.power} collected {ipcs(e.amount)} (treasury now {total}{rule})."


def _won(s: GameState, e: ev.GameWon) -> str:
    if e.rule == "concession":
        return f"The {e.side} won the game: the other side conceded."
    holding = f", holding {', '.join(e.capitals)}" if e.capitals else ""
    if e.production is not None:
        holding = f" with a combined national production of {e.production} IPCs"
    return f"The {e.side} won the game{holding}{rule_suffix(e.rule)}."


def _conceded(s: GameState, e: ev.SideConceded) -> str:
    return f"The {e.side} conceded ({', '.join(e.powers)})."


def _ended(s: GameState, e: ev.GameEnded) -> str:
    how = "in a draw, by" if e.result == "draw" else "cancelled by"
    return f"The game ended {how} the vote of every player ({', '.join(e.powers)})."


def _standing(s: GameState, e: ev.StandingOrderSet) -> str:
    order = ", ".join(e.order) or "cheapest first"
    return f"{possessive(e.power)} standing casualty order: {order}."


def _edit(s: GameState, e: ev.EditApplied) -> str:
    """A game-master edit: what it did, who proposed it and who agreed (COMMANDS.md, Admin)."""
    what = e.text.removeprefix("edit ")
    notes: list[str] = []
    if e.treasury:
        what = "; ".join(f"{p}'s treasury set to {ipcs(n)} (was {s.treasury.get(p, 0)})"
                         for p, n in e.treasury)
    if e.owners:
        what = "; ".join(f"{t} now held by {p} (was {s.owners.get(t) or 'nobody'})"
                         for t, p in e.owners)
    riders = [uid for uid, _space, _on in e.moved
              if (u := s.units.get(uid)) is not None and u.carried_by is not None
              and any(m[0] == u.carried_by for m in e.moved)]
    if riders:
        notes.append(f"with their cargo, {_by_owner(s, riders)}")
    if e.reowned:
        notes.append(f"{_units_of_ids(s, (uid for uid, _o in e.reowned))} changing hands")
    note = f" ({'; '.join(notes)})" if notes else ""
    side = f" for {', '.join(e.agreed_for)}" if e.agreed_for else ""
    return (f"Edit #{e.proposal}: {what}{note}. Proposed by {e.proposer}, agreed by "
            f"{e.agreed}{side}; no dice involved.")


def _short(hex_: str) -> str:
    return hex_[:16] + "…" if len(hex_) > 16 else hex_


def _dice_committed(s: GameState, e: ev.DiceCommitted) -> str:
    if e.scheme == "scripted":
        return (
            f"Dice are scripted (--dice): {len(e.faces)} faces given in advance, public; "
            "these are not fair dice."
        )
    last = e.first_round + e.chain_length - 1
    return (
        f"Fair dice for rounds {e.first_round} to {last}: commitment {_short(e.commitment)} "
        "(each round's seed is revealed when the round ends; 'dice verify' checks them)."
    )


def _entropy_fixed(s: GameState, e: ev.DiceEntropyFixed) -> str:
    if not e.phrases:
        return "No entropy phrases were given: the dice rest on the commitment alone."
    return f"Entropy phrases of {', '.join(sorted(e.phrases))} are mixed into every dice key."


def _seed_revealed(s: GameState, e: ev.DiceSeedRevealed) -> str:
    also = " and the game's master secret" if e.master else ""
    return (
        f"Round {e.round}'s dice seed {_short(e.seed)}{also} revealed: "
        f"'dice verify {e.round}' recomputes its rolls."
    )


DESCRIBERS: dict[type[Any], Callable[[GameState, Any], str]] = {
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
    ev.SubmarinesWithdrew: _subs_withdrew,
    ev.RaidResolved: _raid,
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


def describer(event_type: type) -> Callable[[GameState, Any], str] | None:
    """The words for ``event_type``: here, or registered by its mechanism (``reg.words``)."""
    return DESCRIBERS.get(event_type) or reg.words_for(event_type)


def describe(before: GameState, event: ev.Event) -> str:
    """One line for ``event``, given the state just before it."""
    fn = describer(type(event))
    if fn is None:  # an event type without words (DESCRIBERS here, or its mechanism's)
        return f"{type(event).__name__}: {ev.event_to_json(event)}"
    return tidy(before.edition.cite_text(fn(before, event)))


_DOUBLE_STOP = re.compile(r"(?<=[A-Z])\.\.(?=[\s,;)]|$)")
_PLURAL_POSSESSIVE = re.compile(r"\b([A-Z][a-z]*s)'s\b")


def _n_bombers(n: int) -> str:
    return "no bomber" if n == 0 else f"{n} bomber{'s' if n != 1 else ''}"


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
            lines.append(tidy(_game_started(None, e)))
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
            lines.append(tidy(_game_started(None, e)))
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
    table: dict[str, dict[str, dict[str, int]]] = {}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        by_power = table.setdefault(u.space, {})
        counts = by_power.setdefault(u.owner, {})
        counts[u.type] = counts.get(u.type, 0) + 1
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
    owed = [(p, state.debts[p]) for p in ed.turn_order if state.debts.get(p)]
    if owed:
        lines.append("Owed to the bank (from its next income): "
                     + ", ".join(f"{p} {n}" for p, n in owed) + ".")
    open_battles = [s for s, b in state.battles.items() if b.step != "done"]
    if open_battles:
        lines.append("Battles pending: " + ", ".join(open_battles) + ".")
    return lines
