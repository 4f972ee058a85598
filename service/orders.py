"""Orders: one typed order carried out for a person (``submit_order``), and ``undo``.

The service picks *which power* acts for the person (their seats, the turn, the battle decision
they owe), rolls the game's dice (fair commit-reveal dice, or a script) and lets
``rules.engine.decide`` say whether the order is legal; an accepted order's events are appended
in one write that names the log's head read (nothing changes on any refusal). Lines of the
order language reach this through ``service.commands``, several at once through
``service.batch``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules import dice_audit as da
from rules import events as ev
from rules import orders as od
from rules.dice import OutOfDice
from rules.engine import decide_folded, pending
from rules.errors import InvalidOrder, NotYourTurn, RulesError
from rules.messages import Msg, catalogue, msg
from rules.state import GameState
from rules.turn import registry as reg
from rules.words import possessive
from service import describe as ds
from service import fair
from service.core import (
    NOT_SEATED,
    CountingDice,
    Folded,
    GameInfo,
    HeldStore,
    Result,
    ServiceCore,
    ServiceError,
    and_list,
    make_dice,
    n_of,
    publishes,
    resolve_power,
    told,
)
from service.store import GameStatus, StateMovedOn, StoreError, undo_moved
from service.waits import REFEREE_NOTE

log = logging.getLogger(__name__)

class OrdersRoom(ServiceCore):
    """Orders and undo."""

    async def submit_order(
        self, game_id: str, person: str, order: od.Order, text: str = ""
    ) -> Result:
        """Carry out a typed order for ``person``: pick the acting power, decide, append."""
        text = text or order.kind.replace("_", " ")
        got = await self._load_playing(game_id, "order")
        if isinstance(got, Result):
            return got
        loaded, state = got
        info = GameInfo.of(loaded.record)
        try:
            power = _acting_power(state, loaded.record.seats, person, order)
        except (ServiceError, RulesError) as e:
            return Result.refused(told(e), kind="order", game=info)
        order = order.model_copy(update={"power": power})
        spec = loaded.record.dice
        master = b""
        used = 0
        log_before: da.DiceLog | None = None
        try:
            if spec.kind == "scripted":
                counted = self._scripted_used(game_id, loaded)
                used = (counted if counted is not None
                        else sum(o.dice_used for o in await self.store.orders(game_id)))
                inner = make_dice(spec, game_id, used)
            else:
                master = await self._master(game_id)
                log_before = loaded.dice_log()
                inner = fair.dice_for(master, log_before, state.round)
        except (StoreError, ValueError) as e:
            return Result.refused(msg("orders_room.no_dice", why=str(e)), kind="order", game=info)
        dice = CountingDice(inner)
        try:
            # Decided once, folded once: the states the events lead through come with them.
            tx = decide_folded(state, order, dice)
            folded = Folded(tuple(tx.events), tuple(tx.before), tx.state)
            if log_before is not None:
                if fair.rolled_after_new_round(tx.events, state.round):
                    raise RuntimeError("dice were rolled after a new round started")
                folded = folded.then(fair.epilogue(master, log_before, state.round, tx.events))
        except RulesError as e:
            return Result.refused(told(e), kind="order", game=info)
        except OutOfDice as e:
            return Result.refused(msg("orders_room.out_of_dice", why=str(e)), kind="order",
                                  game=info)
        except Exception as e:  # an engine bug must not take the table down or change the game
            log.exception("decide failed for %r in game %s", order, game_id)
            return Result.refused(msg("orders_room.engine_bug", error=type(e).__name__, why=str(e)),
                                  kind="order", game=info)
        events = list(folded.events)
        if not events:
            return Result(ok=True, answer="Nothing changed.", kind="order", game=info)
        # The win and the status 'finished' in one write: a crash leaves both or neither.
        status: GameStatus | None = (
            "finished" if any(isinstance(e, ev.GameWon) for e in events) else None)
        publish = publishes(events)
        try:
            if isinstance(self.store, HeldStore) and loaded.edits >= 0:
                # The log's head and its count of edited rows checked in one statement.
                placed = await self.store.append(
                    game_id, loaded.seq, events, person=person, power=power, text=text,
                    dice_used=dice.used, head=loaded.head, status=status, publish=publish,
                    edits=loaded.edits)
            else:
                placed = await self.store.append(
                    game_id, loaded.seq, events, person=person, power=power, text=text,
                    dice_used=dice.used, head=loaded.head, status=status, publish=publish)
        except StateMovedOn as e:
            return Result.refused(str(e), kind="order", game=info)
        self._remember(game_id, loaded, placed, folded, log_before, status=status,
                       scripted_used=used + dice.used if spec.kind == "scripted" else None)
        await self._snapshot_due(game_id, loaded.seq, placed.end_seq, folded.after)
        answer = await self._answer(game_id, folded, kind="order", loaded=loaded,
                                    status=status, published=publish)
        # The order's index in the log: which order an acknowledgement stands for.
        return replace(answer, data={**(answer.data or {}), "order": placed.index})

    async def undo(self, game_id: str, person: str) -> Result:
        """Take back the last order: only if it rolled no dice and no other power has acted since.

        DESIGN §5: "Undo is free until dice are rolled; never after." An ``end`` is undone whole
        (an ``end`` that passed the turn by its own power's player) unless it ended the game,
        finished a round (its seed is public) or was the referee's at a deadline (``_end_kept``).
        """
        got = await self._load_playing(game_id, "undo")
        if isinstance(got, Result):
            return got
        loaded, state = got
        info = GameInfo.of(loaded.record)
        seats = loaded.record.seats
        mine = [p for p, who in seats.items() if who == person]
        if not mine:
            return Result.refused(msg("core.not_seated"), kind="undo", game=info)
        last = await self.store.last_order(game_id)
        if last is not None and last.end_seq != loaded.seq:  # an order came after the load
            return Result.refused(undo_moved(loaded.seq, last.end_seq), kind="undo", game=info)
        dropped = [s.event for s in loaded.events[last.first_seq : last.end_seq]] if last else []
        # An 'end' that passed the turn is its power's to take back while the next power has
        # done nothing (the last order is still that 'end').
        passed = last is not None and any(isinstance(e, ev.TurnStarted) for e in dropped)
        undoer = last.power if passed and last is not None and last.power else state.power
        if seats.get(undoer) != person and seats.get(state.power) == person and last:
            return Result.refused(
                msg("orders_room.not_yours_to_undo", power=state.power, last=last.power,
                    text=last.text, undoer=undoer),
                kind="undo", game=info)
        if seats.get(undoer) != person:
            return Result.refused(
                msg("orders_room.undoer_only", undoer=undoer, power=state.power, mine=mine),
                kind="undo", game=info)
        edit = next((s.event for s in loaded.events[last.first_seq : last.end_seq]
                     if isinstance(s.event, ev.EditApplied)), None) if last else None
        if edit is not None:  # both sides agreed to it: one side alone does not take it back
            return Result.refused(msg("orders_room.edit_kept", number=edit.proposal), kind="undo",
                                  game=info)
        if last is None or last.power == "":  # the start, or an imported game's commitment
            return Result.refused(msg("orders_room.nothing_yet"), kind="undo", game=info)
        if last.power != undoer:
            return Result.refused(
                msg("orders_room.nothing_of", power=state.power, last=last.power, text=last.text),
                kind="undo", game=info)
        if last.dice_used or any(isinstance(e, ev.DiceRolled) for e in dropped):
            return Result.refused(msg("orders_room.dice_rolled", text=last.text), kind="undo",
                                  game=info)
        kept = _end_kept(last.text, dropped)
        if kept is not None:
            return Result.refused(kept, kind="undo", game=info)
        try:
            # Names the exact order looked at and the head read: refused if anything moved.
            await self.store.drop_last_order(game_id, last, loaded.head)
        except StoreError as e:
            return Result.refused(str(e), kind="undo", game=info)
        after = await self._load(game_id)
        assert after.state is not None
        lines = [f"Undone: {possessive(last.power)} '{last.text}' "
                 f"({n_of(len(dropped), 'event')} taken back)."]
        lines.append(ds.waiting_line(after.state, pending(after.state), after.record.seats))
        return Result(
            ok=True,
            answer="\n".join(lines),
            kind="undo",
            game=GameInfo.of(after.record),
            data={
                "undone": {
                    "index": last.index,
                    "order": last.text,
                    "power": last.power,
                    "events": [ev.event_to_json(e) for e in dropped],
                }
            },
        )


def _end_kept(text: str, dropped: Sequence[ev.Event]) -> Msg | None:
    """Why an order that moved the game on (an ``end``) cannot be undone, or None.

    Undo is free until dice are rolled (DESIGN §5) and while no other power has acted: an
    ``end`` is taken back whole, with what the referee did on its way (an empty Conduct Combat
    passed, income collected). Not when it ended the game, finished a round (its dice seed is
    then public: rolling again with it would be foreseeable), or when the referee gave it at a
    deadline."""
    moved_on = any(isinstance(e, ev.TurnStarted | ev.PhaseChanged) for e in dropped)
    if any(isinstance(e, ev.GameWon | ev.GameEnded) for e in dropped):
        return msg("orders_room.ended_game", text=text)
    if not moved_on:
        return None
    if text.endswith(REFEREE_NOTE):
        return msg("orders_room.deadline_stands", text=text)
    seed = next((e for e in dropped if isinstance(e, ev.DiceSeedRevealed)), None)
    if seed is not None:
        return msg("orders_room.round_public", text=text, round=seed.round)
    return None


def _acting_power(state: GameState, seats: Mapping[str, str], person: str, order: od.Order) -> str:
    """The power ``person`` gives ``order`` for (DESIGN §5), or why they may not."""
    mine = [p for p in state.edition.turn_order if seats.get(p) == person]
    if not mine:
        raise ServiceError(NOT_SEATED)
    if isinstance(order, od.StandingCasualties):
        name = resolve_power(state.edition.powers, order.power) if order.power else ""
        if not name:
            if len(mine) > 1:
                raise InvalidOrder(msg("orders_room.whose_standing", mine=mine))
            return mine[0]
        if name not in mine:
            raise NotYourTurn(msg("orders_room.not_yours", power=name, mine=mine))
        return name
    # A battle decision: a defender (or any side owing one) gives it outside its own turn.
    space = reg.decision_space(order)
    if space is not None:
        return _deciding_power(state, mine, order.kind, space)
    if state.power in mine:
        return state.power
    raise NotYourTurn(msg("orders_room.turn_of", power=state.power, mine=mine))


def _deciding_power(state: GameState, mine: Sequence[str], kind: str, space: str) -> str:
    """Among ``mine``, the power that owes this battle decision (an order of ``kind`` about the
    battle in ``space``) per ``pending(state)``."""
    owed = [p for p in pending(state) if not p.turn]
    # '' for a decision about every space it is owed in ('scramble none')
    here = [p for p in owed if p.space is None or not space
            or p.space.casefold() == space.casefold()]
    candidates = [p for p in here if p.power in mine]
    if len(candidates) > 1:
        keyed = [p for p in candidates if kind in p.kind.answers]
        candidates = keyed or candidates
    powers = list(dict.fromkeys(p.power for p in candidates))
    if powers:
        return powers[0]
    battle = state.battles.get(space)
    if battle is not None and battle.step != "done":
        # Not waited on, but a party to this battle: the rules say whether the order fits now
        # (e.g. a submarine choice the edition offers outside the pending list).
        parties = [p for p in (battle.attacker, *battle.defenders) if p in mine]
        if parties:
            return parties[0]
    if not owed and state.power in mine:
        # Nothing is pending: let the rules say why (e.g. no battle there).
        return state.power
    raise NotYourTurn(msg("orders_room.owes_nothing", mine=mine, space=space,
                          waiting=[(p.power, p.what, p.space) for p in owed]))


__all__ = ["OrdersRoom"]


catalogue("en", "orders_room", {
    "no_dice": "This game's dice cannot be rolled ({why}); nothing changed.",
    "out_of_dice": "{why}; nothing changed.",
    "engine_bug": "Internal error in the rules engine ({error}: {why}); nothing changed. Please "
                  "report this with 'game export'.",
    "not_yours_to_undo": "Nothing of {power:possessive} to undo: the last order was "
                         "{last:possessive} '{text}' (only {undoer:possessive} player can take "
                         "it back).",
    "undoer_only": "Only {undoer:possessive} player can undo now (it is {power:possessive} "
                   "turn); you hold {mine:and}.",
    "edit_kept": "Cannot undo: the last change was edit #{number}, which both sides agreed to. "
                 "Undo never takes back an edit; propose another edit to change it.",
    "nothing_yet": "Nothing to undo yet.",
    "nothing_of": "Nothing of {power:possessive} to undo: the last order was {last:possessive} "
                  "'{text}'.",
    "dice_rolled": "Cannot undo '{text}': dice were rolled. Undo is free until dice are rolled; "
                   "never after.",
    "ended_game": "Cannot undo '{text}': it ended the game.",
    "deadline_stands": "Cannot undo '{text}': the referee ended the phase at the deadline; the "
                       "deadline stands.",
    "whose_standing": "Say whose standing order this is: 'standing casualties <power> ...' (you "
                      "hold {mine:and}).",
    "not_yours": "{power} is not yours; you hold {mine:and}.",
    "turn_of": "It is {power:possessive} turn; you hold {mine:and}.",
    "owes_nothing": lambda p: f"None of your powers ({and_list(p['mine'])}) owes a decision in "
                              f"{p['space']} now; waiting for: "
                              + (", ".join(f"{who} ({what}{' in ' + at if at else ''})"
                                           for who, what, at in p["waiting"]) or "nobody") + ".",
    "round_public": "Cannot undo '{text}': it ended round {round}, and that round's dice seed "
                    "is now public ('dice verify'); a round is never reopened.",
})
