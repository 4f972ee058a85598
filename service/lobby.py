"""The lobby: games and seats, from 'game new' to the end of a game by its players' vote.

``create`` a game in a channel, ``join`` and ``leave`` its seats before the start, ``start`` it.
At any time the owner (or a front end's admin) gives a seat to someone else (``substitute``) or
takes a person's seats (``kick``). The seated players ``cancel``, ``draw`` or ``concede`` a game
by vote; the owner cancels a game in the lobby alone.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules import events as ev
from rules.edition import default_edition
from rules.engine import concession, game_ended, new_game, replay, resolve_edition
from rules.errors import RulesError
from rules.messages import catalogue, msg
from rules.state import GameState
from service import fair
from service.core import (
    Folded,
    GameInfo,
    Result,
    ServiceCore,
    ServiceError,
    and_list,
    new_dice_spec,
    open_seats_line,
    resolve_power,
    told,
)
from service.store import (
    ENDED,
    ChannelTaken,
    CorruptGame,
    GameNotFound,
    GameRecord,
    GameStatus,
    OtherSide,
    SeatTaken,
    StateMovedOn,
    StoredEvent,
    StoreError,
)

log = logging.getLogger(__name__)

START_TEXT = "game start"

# Seat changes by the owner or an admin (substitute, kick) are allowed whatever the status.
_ANY_STATUS: tuple[GameStatus, ...] = ("lobby", "active", "finished", "cancelled")


def start_events(rec: GameRecord) -> list[ev.Event]:
    """The events 'game start' writes for this lobby: the game, then its dice commitment
    (the entropy phrases are frozen here), then the first turn."""
    events = new_game(rec.edition, rec.options, rec.position)
    first_round = replay(events[:1]).round
    dice_events = fair.start_events(rec.dice, rec.id, first_round, rec.entropy)
    return [events[0], *dice_events, *events[1:]]


class LobbyRoom(ServiceCore):
    """Games and seats; the end of a game by vote."""

    async def create(
        self,
        channel: str,
        owner: str,
        edition: str | None = None,
        options: Sequence[str] = (),
        *,
        dice: Sequence[int] | None = None,
        position: dict[str, Any] | None = None,
        guild: str = "",
    ) -> GameInfo:
        """Create a game in the lobby, bound to ``channel``. Raises ``ServiceError``.

        ``edition`` is an edition id or alias; ``None`` is the default edition (its data says so).
        ``guild`` is the server the channel belongs to (``/game list`` lists a server's games).
        """
        for g in await self.store.games_in_channel(channel):
            if g.status not in ENDED:
                raise ServiceError(msg("lobby.channel_taken", game=g.id, status=g.status))
        script = dice if dice is not None else self.scripted_dice
        if script is not None and not self.allow_scripted_dice:
            raise ServiceError(fair.SCRIPTED_REFUSED)
        master = self.draw_secret() if script is None else None
        try:
            ed = resolve_edition(edition if edition is not None else default_edition())
            opts = tuple(sorted(set(options)))
            new_game(ed.id, opts, position)  # checks options and position; events made at start
            spec = new_dice_spec(script, master, self.chain_length)
        except RulesError as e:
            raise ServiceError(str(e)) from None
        except ValueError as e:
            raise ServiceError(msg("lobby.bad_dice", why=str(e))) from None
        except Exception as e:  # the engine choked on a malformed position: refuse it
            log.debug("new_game failed for a position in channel %s", channel, exc_info=True)
            why = f"{type(e).__name__}: {e}"
            raise ServiceError(msg("lobby.bad_position", why=why)) from None
        try:
            rec = await self.store.create_game(
                edition=ed.id,
                options=opts,
                channel=channel,
                owner=owner,
                dice=spec,
                position=position,
                guild=guild,
                # Committed now, before anyone joins with an entropy phrase (DESIGN §6), in
                # the same write as the game: never a game whose dice cannot roll.
                secrets={fair.MASTER: master} if master is not None else None,
            )
        except ChannelTaken as e:  # another 'game new' in this channel came first
            raise ServiceError(str(e)) from None
        return GameInfo.of(rec)

    async def join(self, game_id: str, person: str, power: str, entropy: str = "") -> Result:
        """Take a seat before the start. One person: any number of powers, of one side (P-1)."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="join")
        info = GameInfo.of(rec)
        if rec.status in ENDED:
            return Result.refused(msg("lobby.over"), kind="join", game=info)
        if rec.status != "lobby":
            return Result.refused(msg("lobby.started_no_join"), kind="join", game=info)
        ed = resolve_edition(rec.edition)
        try:
            name = resolve_power(ed.powers, power)
        except ServiceError as e:
            return Result.refused(str(e), kind="join", game=info)
        side = ed.side_of(name)
        try:
            # Seat, sides (P-1) and status are checked again inside the write, under the
            # game's lock: of racing joins of one seat exactly one is acknowledged.
            rec = await self.store.take_seat(
                game_id, name, person, entropy=entropy,
                conflicts=[p for p in ed.turn_order if ed.side_of(p) != side])
        except SeatTaken as e:
            if e.holder == person:
                return Result(ok=True, answer=f"You already hold {name}.", kind="join",
                              game=info)
            return Result.refused(msg("lobby.taken", power=name, holder=e.holder), kind="join",
                                  game=info)
        except OtherSide as e:
            return Result.refused(
                msg("lobby.other_side", "P-1", held=e.held, held_side=ed.side_of(e.held[0]),
                    power=name, side=side),
                kind="join", game=info)
        except StateMovedOn:  # started or cancelled meanwhile: answer as for that status
            return await self.join(game_id, person, power, entropy)
        lines = [f"{person} joins as {name} ({side})."]
        lines.append(open_seats_line(ed.turn_order, rec.seats))
        return Result(ok=True, answer="\n".join(lines), kind="join", game=GameInfo.of(rec))

    async def start(self, game_id: str, person: str) -> Result:
        """Start the game (owner only) once every power is seated.

        The start's events and the status ``active`` are written together
        (``EventStore.start_game``). A game left in the lobby with its start already in the
        log (a start cut short by a crash, before the two were one write) is completed.
        """
        try:
            rec = await self.store.get_game(game_id)
            logged = await self.store.load_events(game_id) if rec.status == "lobby" else []
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="start")
        info = GameInfo.of(rec)
        if logged:
            return await self._finish_start(rec, person, logged)
        if rec.status in ENDED:
            return Result.refused(msg("lobby.over"), kind="start", game=info)
        if rec.status != "lobby":
            return Result.refused(msg("lobby.already_started"), kind="start", game=info)
        if person != rec.owner:
            return Result.refused(msg("lobby.owner_starts", owner=rec.owner), kind="start",
                                  game=info)
        ed = resolve_edition(rec.edition)
        missing = [p for p in ed.turn_order if p not in rec.seats]
        if missing:
            return Result.refused(msg("lobby.unseated", missing=missing), kind="start",
                                  game=info)
        try:
            events = start_events(rec)
            await self.store.start_game(game_id, events, person=person, text=START_TEXT,
                                        seats=rec.seats, entropy=rec.entropy)
        except RulesError as e:
            return Result.refused(told(e), kind="start", game=info)
        except StateMovedOn as e:
            now = await self.store.get_game(game_id)
            if now.status != "lobby":  # a second click, or another process, started it
                return await self.start(game_id, person)
            return Result.refused(str(e), kind="start", game=GameInfo.of(now))
        except StoreError as e:
            return Result.refused(str(e), kind="start", game=info)
        return await self._answer(game_id, Folded.of(None, events), kind="start", loaded=None)

    async def _finish_start(
        self, rec: GameRecord, person: str, logged: Sequence[StoredEvent]
    ) -> Result:
        """Complete a start whose events were written but whose status was not (a crash
        between the two writes of an older version): the game becomes active."""
        info = GameInfo.of(rec)
        if person != rec.owner:
            return Result.refused(msg("lobby.owner_starts", owner=rec.owner), kind="start",
                                  game=info)
        if not isinstance(logged[0].event, ev.GameStarted):
            return Result.refused(msg("lobby.no_start_logged"), kind="start", game=info)
        try:
            await self.store.set_status(rec.id, "active", expected="lobby")
        except StateMovedOn:
            return await self.start(rec.id, person)
        r = await self._answer(rec.id, Folded.of(None, [s.event for s in logged]), kind="start",
                               loaded=None)
        note = ("This game's start had been cut short (its events were written, the game was "
                "still in the lobby); it is complete now.")
        return replace(r, answer=f"{note}\n{r.answer}")

    # --- seats (admin) ----------------------------------------------------------------------------
    async def substitute(self, game_id: str, person: str, power: str, newcomer: str,
                         *, admin: bool = False) -> Result:
        """Give a power's seat to someone else (the owner, or a front end's admin). The
        newcomer may hold other powers only of the same side (P-1). Public; no event changes."""
        got = await self._as_admin(game_id, person, admin, "substitute",
                                   msg("lobby.owner_substitutes"))
        if isinstance(got, Result):
            return got
        rec, info = got
        ed = resolve_edition(rec.edition)
        try:
            name = resolve_power(ed.powers, power)
        except ServiceError as e:
            return Result.refused(str(e), kind="substitute", game=info)
        newcomer = newcomer.strip()
        if not newcomer:
            return Result.refused(msg("lobby.name_newcomer"), kind="substitute", game=info)
        other = [p for p, who in rec.seats.items()
                 if who == newcomer and ed.side_of(p) != ed.side_of(name)]
        if other:
            return Result.refused(
                msg("lobby.newcomer_other_side", "P-1", person=newcomer, held=other,
                    held_side=ed.side_of(other[0]), power=name, side=ed.side_of(name)),
                kind="substitute", game=info)
        before = rec.seats.get(name)
        try:
            rec = await self.store.take_seat(
                game_id, name, newcomer, entropy=rec.entropy.get(name, ""), holder=before,
                conflicts=[p for p in ed.turn_order if ed.side_of(p) != ed.side_of(name)],
                statuses=_ANY_STATUS)
        except (SeatTaken, OtherSide) as e:  # the seats changed since they were read
            return Result.refused(msg("lobby.seats_changed", why=str(e)), kind="substitute",
                                  game=info)
        was = f" (was {before})" if before else ""
        return Result(ok=True, answer=f"{newcomer} now plays {name}{was}; set by {person}.",
                      kind="substitute", game=GameInfo.of(rec))

    async def kick(self, game_id: str, person: str, leaver: str, *, admin: bool = False) -> Result:
        """Take every seat from a person; the game waits until the owner substitutes."""
        got = await self._as_admin(game_id, person, admin, "kick",
                                   msg("lobby.owner_kicks"))
        if isinstance(got, Result):
            return got
        rec, info = got
        held, rec = await self.store.free_seats(game_id, leaver, statuses=_ANY_STATUS)
        if not held:
            return Result.refused(msg("lobby.no_seat_held", person=leaver), kind="kick",
                                  game=info)
        return Result(
            ok=True,
            answer=f"{leaver} left {and_list(held)}; the owner gives "
            f"{'the seat' if len(held) == 1 else 'the seats'} to someone with "
            "'substitute <power> <person>'.",
            kind="kick", game=GameInfo.of(rec))

    # --- a game's whole life: leave, cancel, concede, draw ----------------------------------------
    async def leave(self, game_id: str, person: str) -> Result:
        """Before the start, a seated person gives up every seat they hold (open again)."""
        kind = "leave"
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=kind)
        info = GameInfo.of(rec)
        held = [p for p, who in rec.seats.items() if who == person]
        if rec.status in ENDED:
            return Result.refused(msg("lobby.over_no_leave"), kind=kind, game=info)
        if not held:
            return Result.refused(msg("lobby.nothing_to_leave"), kind=kind, game=info)
        if rec.status != "lobby":
            return Result.refused(msg("lobby.started_no_leave", owner=rec.owner), kind=kind,
                                  game=info)
        try:
            held, rec = await self.store.free_seats(game_id, person)
        except StateMovedOn:  # started or cancelled meanwhile: answer as for that status
            return await self.leave(game_id, person)
        if not held:
            return Result.refused(msg("lobby.nothing_to_leave"), kind=kind,
                                  game=GameInfo.of(rec))
        ed = resolve_edition(rec.edition)
        seats = "the seat is" if len(held) == 1 else "the seats are"
        lines = [f"{person} leaves {and_list(held)}; {seats} open again.",
                 open_seats_line(ed.turn_order, rec.seats)]
        return Result(ok=True, answer="\n".join(lines), kind=kind, game=GameInfo.of(rec))

    async def cancel(self, game_id: str, person: str, *, withdraw: bool = False) -> Result:
        """Before the start the owner cancels at once; after it, every seated person votes."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind="cancel")
        if rec.status == "lobby":
            info = GameInfo.of(rec)
            if withdraw:
                return Result.refused(msg("lobby.no_vote_yet"), kind="cancel", game=info)
            if person != rec.owner:
                return Result.refused(msg("lobby.owner_cancels", owner=rec.owner),
                                      kind="cancel", game=info)
            try:
                await self.store.set_status(game_id, "cancelled", expected="lobby")
            except StateMovedOn:  # started meanwhile: now it takes everyone's vote
                return await self.cancel(game_id, person, withdraw=withdraw)
            rec = await self.store.get_game(game_id)
            return Result(
                ok=True,
                answer=f"Game {rec.id} was cancelled by {person} before the start; this channel "
                "can start a new game ('game new').",
                kind="cancel", game=GameInfo.of(rec))
        return await self._vote(game_id, person, "cancel", withdraw)

    async def draw(self, game_id: str, person: str, *, withdraw: bool = False) -> Result:
        """A draw, when every seated person has voted for it."""
        return await self._vote(game_id, person, "draw", withdraw)

    async def concede(self, game_id: str, person: str, *, withdraw: bool = False) -> Result:
        """Give up for one's side: when every holder of its seats conceded, the other side wins."""
        return await self._vote(game_id, person, "concede", withdraw)

    async def _vote(self, game_id: str, person: str, what: str, withdraw: bool) -> Result:
        """Record (or withdraw) ``person``'s vote; when nobody is missing, end the game."""
        try:
            rec = await self.store.get_game(game_id)
        except (GameNotFound, CorruptGame) as e:
            return Result.refused(str(e), kind=what)
        info = GameInfo.of(rec)
        if rec.status == "lobby":
            return Result.refused(msg("lobby.not_started_vote", vote=what), kind=what,
                                  game=info)
        got = await self._load_playing(game_id, what)
        if isinstance(got, Result):
            return got
        _, state = got
        key, needed, label = _ballot(state, rec, person, what)
        if not needed:
            return Result.refused(msg("lobby.seated_vote"), kind=what, game=info)
        if withdraw:
            if person not in await self.store.votes(game_id, key):
                return Result.refused(
                    msg("lobby.not_voted", vote=what, side=key.partition(":")[2]), kind=what,
                    game=info)
            voters = await self.store.withdraw_vote(game_id, key, person)
            line = f"{person} withdraws their vote {label}."
            return self._tally(info, what, line, needed, voters)
        voters = await self.store.cast_vote(game_id, key, person)
        if any(p not in voters for p in needed):
            return self._tally(info, what, f"{person} votes {label}.", needed, voters)
        return await self._end_by_vote(game_id, person, what, f"{person} votes {label}.")

    @staticmethod
    def _tally(info: GameInfo, what: str, line: str, needed: Sequence[str],
               voters: Sequence[str]) -> Result:
        have = [p for p in needed if p in voters]
        missing = [p for p in needed if p not in voters]
        lines = [line, f"Voted: {and_list(have) or 'nobody'} ({len(have)} of {len(needed)})."]
        if missing:
            again = "'game concede'" if what == "concede" else f"'game {what}'"
            lines.append(f"Still needed: {and_list(missing)} ({again} to agree; "
                         f"'{again[1:-1]} withdraw' takes a vote back).")
        return Result(ok=True, answer="\n".join(lines), kind=what, game=info,
                      data={"votes": have, "missing": missing, "ended": False})

    async def _end_by_vote(self, game_id: str, person: str, what: str, line: str) -> Result:
        """Append the end of the game once: of racing last voters, one appends, the others
        find the game over (optimistic concurrency, ``StateMovedOn``)."""
        for _ in range(5):
            got = await self._load_playing(game_id, what)
            if isinstance(got, Result):  # over meanwhile: another last vote ended it
                over = got.error or "The game is over."
                return Result(ok=True, answer=f"{line}\n{over}", kind=what, game=got.game,
                              data={"ended": False})
            loaded, state = got
            rec = loaded.record
            try:
                if what == "concede":
                    key, _, _ = _ballot(state, rec, person, what)
                    events = concession(state, key.partition(":")[2])
                else:
                    seated = [p for p in state.edition.turn_order if p in rec.seats]
                    result = "cancelled" if what == "cancel" else "draw"
                    events = game_ended(state, result, seated)
                if rec.dice.kind == "fair":
                    # Any end of the game reveals the dice master, so 'dice verify' covers
                    # every round of it (DESIGN §6).
                    master = await self._master(game_id)
                    log_before = loaded.dice_log()
                    events = [*events, *fair.epilogue(master, log_before, state.round, events)]
            except (RulesError, StoreError) as e:
                return Result.refused(told(e), kind=what, game=GameInfo.of(rec))
            folded = Folded.of(state, events)
            try:
                placed = await self.store.append(
                    game_id, loaded.seq, events, person=person, power="", text=f"game {what}",
                    head=loaded.head, status="cancelled" if what == "cancel" else "finished",
                )
            except StateMovedOn:
                continue  # an order or another last vote came first: look again
            self._remember(game_id, loaded, placed, folded)
            answer = await self._answer(
                game_id, folded, kind=what, loaded=loaded,
                status="cancelled" if what == "cancel" else "finished")
            return replace(answer, answer=f"{line}\n{answer.answer}",
                           data={"ended": True})
        return Result.refused(msg("lobby.keeps_moving"), kind=what)


def _ballot(
    state: GameState, rec: GameRecord, person: str, what: str
) -> tuple[str, list[str], str]:
    """The vote ``person`` casts: its key in the store, the people who must all agree (in turn
    order; empty if ``person`` holds no seat) and how to say it."""
    ed = state.edition
    holders = list(dict.fromkeys(rec.seats[p] for p in ed.turn_order if p in rec.seats))
    if person not in holders:
        return what, [], what
    if what == "concede":
        side = next(state.side(p) for p in ed.turn_order if rec.seats.get(p) == person)
        side_holders = [rec.seats[p] for p in ed.turn_order
                        if p in rec.seats and state.side(p) == side]
        return f"concede:{side}", list(dict.fromkeys(side_holders)), f"to concede for the {side}"
    label = "to cancel the game" if what == "cancel" else "for a draw"
    return what, holders, label



__all__ = ["START_TEXT", "LobbyRoom", "start_events"]

def _voted(p: Mapping[str, Any]) -> str:
    """How a vote is said: to concede for a side, to cancel the game, for a draw."""
    if p["vote"] == "concede":
        return f"to concede for the {p['side']}"
    return "to cancel the game" if p["vote"] == "cancel" else "for a draw"


catalogue("en", "lobby", {
    "channel_taken": "This channel already has game {game} ({status}); finish it before starting "
                     "another, or use another channel or thread.",
    "bad_dice": "Bad dice: {why}",
    "bad_position": "Cannot start from this position ({why}).",
    "over": "This game is over (finished or cancelled); start a new one here with 'game new'.",
    "started_no_join": "The game has started; seats are taken before 'game start' (an admin can "
                       "'substitute' a player).",
    "taken": "{power} is taken by {holder}.",
    "other_side": "You hold {held:and} ({held_side}); {power} is on the {side} side. One person "
                  "plays powers of one side only ({rule}).",
    "already_started": "The game has already started.",
    "owner_starts": "Only the game's owner ({owner}) can start it.",
    "unseated": "Cannot start: no one holds {missing:and} yet. Every power needs a player; one "
                "person may hold all the powers of a side ('game join <power>').",
    "no_start_logged": "This game is in the lobby but its log does not begin with a start; "
                       "nothing changed. Export it ('game export') and report this.",
    "owner_substitutes": "Only the game's owner ({owner}) or a server manager can substitute "
                         "players.",
    "name_newcomer": "Name who takes the seat: 'substitute <power> <person>'.",
    "newcomer_other_side": "{person} holds {held:and} ({held_side}); {power} is on the {side} "
                           "side. One person plays powers of one side only ({rule}).",
    "seats_changed": "The seats changed meanwhile: {why} Nothing changed; look again "
                     "('game status').",
    "owner_kicks": "Only the game's owner ({owner}) or a server manager can remove players.",
    "no_seat_held": "{person} holds no seat in this game.",
    "over_no_leave": "The game is over; there is no seat to leave.",
    "nothing_to_leave": "You hold no seat in this game; nothing to leave.",
    "started_no_leave": "The game has started: a seat is not given up in play. Ask the owner "
                        "({owner}) to give yours to someone else ('substitute <power> "
                        "<person>'), or give up for your side with 'game concede'.",
    "no_vote_yet": "No vote to withdraw: the game has not started.",
    "owner_cancels": "Only the game's owner ({owner}) can cancel it before the start; you can "
                     "give up your seats with 'game leave'.",
    "not_started_vote": lambda p: "The game has not started: there is nothing to "
                                  f"{'concede' if p['vote'] == 'concede' else 'vote on'}. Give "
                                  "up your seats with 'game leave'; the owner can cancel the "
                                  "game with 'game cancel'.",
    "seated_vote": "Only the seated players vote; you hold no seat in this game.",
    "not_voted": lambda p: f"You have not voted {_voted(p)}; nothing to withdraw.",
    "keeps_moving": "The game keeps moving on; vote again.",
})
