"""Game-master edits with consent (COMMANDS.md, Admin): propose, confirm, reject, list.

The game's owner (or, where a front end vouches for it, a server manager) proposes an edit; it
is checked against the current position and kept as a pending proposal in the store, numbered
per game. It is applied only when a player of the other side confirms: then it is checked
again against the position of that moment (the game may have moved on) and appended as one
``EditApplied`` event, with who proposed and who agreed, in the same transaction that marks the
proposal applied (``EventStore.apply_edit``), so of two racing confirmations exactly one applies.

Who may confirm (the reading of "a player of the other side"): a person holding a seat of a side
other than the proposer's. A proposer who holds no seat (an owner who does not play, a server
manager) has no side: then any seated player other than the proposer may confirm. Who may
reject: the proposer, the game's owner, a server manager (``admin``), or anyone who may confirm.
An applied edit is not taken back by ``undo`` (only by another edit).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.edition import Edition
from rules.edits import EditChange, edit_event, format_edit
from rules.engine import resolve_edition
from rules.errors import RulesError
from rules.messages import Msg, catalogue, msg
from service import language as ps
from service.core import Folded, GameInfo, Result, ServiceCore, and_list, told
from service.store import EditDecided, EditProposal, StateMovedOn, StoreError

KIND = "edit"


def proposal_json(p: EditProposal, confirmers: list[str] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": p.number,
        "text": p.text,
        "proposer": p.proposer,
        "seq": p.seq,
        "status": p.status,
        "decided_by": p.decided_by,
    }
    if confirmers is not None:
        out["confirmers"] = confirmers
    return out


def _sides_of(ed: Edition, seats: Mapping[str, str], person: str) -> set[str]:
    return {ed.side_of(p) for p, who in seats.items() if who == person}


def confirmers(ed: Edition, seats: Mapping[str, str], proposer: str) -> list[str]:
    """The people who may confirm a proposal of ``proposer`` (in turn order of their seats)."""
    theirs = _sides_of(ed, seats, proposer)
    out: list[str] = []
    for power in ed.turn_order:
        who = seats.get(power)
        if who is None or who == proposer or who in out:
            continue
        if ed.side_of(power) not in theirs:
            out.append(who)
    return out


def why_not_confirm(
    ed: Edition, seats: Mapping[str, str], proposer: str, person: str
) -> Msg | None:
    """Why ``person`` may not confirm ``proposer``'s edit, or None if they may."""
    if person in confirmers(ed, seats, proposer):
        return None
    theirs = sorted(_sides_of(ed, seats, proposer))
    why = "proposer" if person == proposer else (
        "unseated" if not _sides_of(ed, seats, person) else "same_side")
    others = [side for side in ed.rules.sides if side not in theirs]
    return msg("edits_room.not_confirmer", why=why, theirs=theirs,
               others=others if theirs and others else [])


async def propose(
    svc: ServiceCore, game_id: str, person: str, change: EditChange, *, admin: bool = False
) -> Result:
    """Keep ``change`` as a pending proposal if ``person`` may propose it and it applies now."""
    got = await svc._as_admin(game_id, person, admin, KIND, msg("edits_room.owner_proposes"))
    if isinstance(got, Result):
        return got
    loaded_or = await svc._load_playing(game_id, KIND)
    if isinstance(loaded_or, Result):
        return loaded_or
    loaded, state = loaded_or
    rec = loaded.record
    info = GameInfo.of(rec)
    try:
        # Checked now, so that nobody is asked to agree to something that cannot be done; the
        # text kept is the complete one (the power filled in), which confirm checks again.
        event = edit_event(state, change, proposal=0, proposer=person, agreed="")
    except RulesError as e:
        return Result.refused(msg("edits_room.cannot", why=told(e)), kind=KIND, game=info)
    p = await svc.store.propose_edit(game_id, person, event.text, loaded.seq)
    who = confirmers(state.edition, rec.seats, person)
    if who:
        asked = f"{and_list(who)} may confirm it"
    else:
        asked = "nobody may confirm it yet (no player of the other side is seated)"
    answer = (
        f"Edit #{p.number} proposed by {person}: {p.text}. It is applied only when a player of "
        f"the other side agrees: {asked} with 'edit confirm {p.number}', or reject it with "
        f"'edit reject {p.number}'."
    )
    return Result(ok=True, answer=answer, kind=KIND, game=info,
                  data={"edit": proposal_json(p, who)})


def _refused(m: Msg, info: GameInfo, p: EditProposal) -> Result:
    """A refusal about proposal ``p``, which it carries (its text as it is, not tidied)."""
    return Result(ok=False, error=m.text(), message=m, kind=KIND, game=info,
                  data={"edit": proposal_json(p)})


def _stale(p: EditProposal, info: GameInfo) -> Result:
    """The answer to a confirm or reject of a proposal already decided: what happened to it."""
    e = EditDecided(p)
    return Result(ok=False, error=str(e), kind=KIND, game=info, data={"edit": proposal_json(p)})


async def confirm(svc: ServiceCore, game_id: str, person: str, number: int) -> Result:
    """Apply proposal ``number`` if ``person`` may confirm it and it still applies now."""
    got = await svc._load_playing(game_id, KIND)
    if isinstance(got, Result):
        return got
    loaded, state = got
    rec = loaded.record
    info = GameInfo.of(rec)
    try:
        p = await svc.store.get_edit(game_id, number)
    except StoreError as e:
        return Result.refused(str(e), kind=KIND, game=info)
    if p.status != "pending":
        return _stale(p, info)
    why = why_not_confirm(state.edition, rec.seats, p.proposer, person)
    if why is not None:
        return _refused(why, info, p)
    mine = tuple(x for x in state.edition.turn_order if rec.seats.get(x) == person)
    try:
        cmd = ps.parse(p.text, ps.names_for(rec.edition))
        if not isinstance(cmd, ps.EditPropose):
            raise StoreError(f"Edit #{number} is not an edit: {p.text!r}.")
        event = edit_event(state, cmd.change, proposal=p.number, proposer=p.proposer,
                           agreed=person, agreed_for=mine)
    except (RulesError, StoreError) as e:
        return _refused(msg("edits_room.no_longer", why=told(e), number=number), info, p)
    try:
        placed = await svc.store.apply_edit(
            game_id, number, person, loaded.seq, [event],
            text=f"edit confirm {number}: {format_edit(cmd.change)}", head=loaded.head,
        )
    except EditDecided as e:
        return _stale(e.proposal, info)
    except StateMovedOn as e:
        return Result.refused(msg("edits_room.moved", why=str(e), number=number), kind=KIND,
                              game=info)
    folded = Folded.of(state, [event])
    svc._remember(game_id, loaded, placed, folded)
    result = await svc._answer(game_id, folded, kind=KIND, loaded=loaded)
    lines = [result.answer]
    if p.seq != loaded.seq:
        lines.insert(0, f"The game moved on since edit #{number} was proposed (event #{p.seq} "
                        f"then, #{loaded.seq} now): it was checked again against this position.")
    decided = await svc.store.get_edit(game_id, number)
    return Result(ok=True, answer="\n".join(lines), events=result.events, kind=KIND,
                  game=result.game, images=result.images, after=result.after, head=result.head,
                  data={"edit": proposal_json(decided)})


async def reject(
    svc: ServiceCore, game_id: str, person: str, number: int, *, admin: bool = False
) -> Result:
    """Drop proposal ``number``: by its proposer, the owner, an admin or one who may confirm."""
    try:
        rec = await svc.store.get_game(game_id)
        p = await svc.store.get_edit(game_id, number)
    except StoreError as e:
        return Result.refused(str(e), kind=KIND)
    info = GameInfo.of(rec)
    if p.status != "pending":
        return _stale(p, info)
    ed = resolve_edition(rec.edition)
    allowed = person in (p.proposer, rec.owner) or admin
    if not allowed and why_not_confirm(ed, rec.seats, p.proposer, person):
        return _refused(msg("edits_room.not_rejecter", number=number), info, p)
    try:
        p = await svc.store.reject_edit(game_id, number, person)
    except EditDecided as e:
        return _stale(e.proposal, info)
    return Result(ok=True, answer=f"Edit #{number} rejected by {person}: {p.text}. Nothing "
                  "changed.", kind=KIND, game=info, data={"edit": proposal_json(p)})


async def listing(svc: ServiceCore, game_id: str) -> Result:
    """The game's proposals: number, status, text, who proposed and who decided."""
    try:
        rec = await svc.store.get_game(game_id)
        props = await svc.store.edit_proposals(game_id)
    except StoreError as e:
        return Result.refused(str(e), kind=KIND)
    info = GameInfo.of(rec)
    if not props:
        return Result(ok=True, answer="No edits proposed in this game.", kind=KIND, game=info,
                      data={"edits": []})
    lines = []
    for p in props:
        how = {"pending": "waiting for the other side", "applied": f"applied, confirmed by "
               f"{p.decided_by}", "rejected": f"rejected by {p.decided_by}"}[p.status]
        lines.append(f"#{p.number} {p.text} (proposed by {p.proposer}; {how})")
    return Result(ok=True, answer="\n".join(lines), kind=KIND, game=info,
                  data={"edits": [proposal_json(p) for p in props]})


__all__ = ["confirm", "confirmers", "listing", "propose", "reject", "why_not_confirm"]


def _not_confirmer(p: Mapping[str, Any]) -> str:
    why = {"proposer": "you proposed it", "unseated": "you hold no seat in this game",
           "same_side": f"you play the same side as the proposer ({and_list(p['theirs'])})"}
    who = (f"a player of the {and_list(p['others'])}" if p["others"]
           else "a seated player other than the proposer")
    return (f"You cannot confirm this edit: {why[p['why']]}. {who[0].upper()}{who[1:]} "
            "confirms it.")


catalogue("en", "edits_room", {
    "owner_proposes": "Only the game's owner ({owner}) or a server manager can propose an edit.",
    "cannot": "Cannot edit: {why}",
    "moved": "{why} Confirm edit #{number} again.",
    "not_confirmer": _not_confirmer,
    "no_longer": "Edit #{number} no longer applies: {why} It stays open; the owner may reject "
                 "it with 'edit reject {number}' and propose another.",
    "not_rejecter": "You cannot reject edit #{number}: its proposer, the game's owner or a "
                    "player of the other side can.",
})
