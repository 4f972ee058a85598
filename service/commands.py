"""Lines of the order language → service calls. Shared by every text front end.

``handle(service, channel, person, text)`` is what a front end calls with one line a person
typed in a channel (a Discord channel, the local table, an e-mail thread): it parses the line
with the names of the channel's game and runs it. Slash commands call the ``GameService``
methods directly with typed options instead.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from rules.edition import default_edition, edition_catalog
from rules.errors import RulesError
from rules.messages import Msg, catalogue, msg
from service import language as ps
from service.core import GameInfo, GameIsCorrupt, Result, ServiceError, told
from service.links import game_link
from service.store import CorruptGame, GameRecord

if TYPE_CHECKING:
    from rules.edition import Edition
    from rules.state import GameState
    from service.rooms import Rooms as GameService

def no_game() -> str:
    """The answer where a channel has no game: how to start one, for each installed edition."""
    return no_game_msg().text()


def no_game_msg() -> Msg:
    """``no_game`` as a message: the words to start a game of each installed edition."""
    return msg("commands.no_game", editions=[r.word for r in edition_catalog()])


def editions_text() -> str:
    """One line per installed edition: what to type, its title and its options."""
    lines = []
    for r in edition_catalog():
        opts = f" (options: {', '.join(r.options)})" if r.options else ""
        lines.append(f"game new {r.word}: {r.title}{opts}")
    return "\n".join(lines)


# Commands about a game's deadline, refused alike where the channel has no game.
_LATER = ("pause", "resume", "deadline")


def help_text(topic: str | None = None, edition: Edition | None = None) -> str:
    """``help [topic]`` in order-language words (``service.help`` has the topics, shared with
    Discord's ``/help``): the orders of ``edition`` in a game, or one topic."""
    from service.help import help_text as topic_text

    return topic_text(topic, edition, "text")


def names_for_game(edition: str | None) -> ps.Names:
    return ps.names_for(edition) if edition else ps.Names()


async def handle(
    service: GameService, channel: str, person: str, text: str, *, guild: str = ""
) -> Result:
    """Parse one line typed by ``person`` in ``channel`` (of server ``guild``) and run it."""
    game = await service.game_in(channel)
    names = names_for_game(game.edition if game else None)
    words = text.split(None, 1)
    if game is None and words and words[0].casefold().lstrip("/").rstrip(".:") == "odds":
        names = ps.names_for(_odds_edition().id)  # odds need no game: the default edition
    try:
        cmd = ps.parse(text, names)
    except RulesError as e:
        return Result.refused(told(e), kind="parse", game=game)
    if isinstance(cmd, ps.GameNew):
        return await _new(service, channel, person, cmd, guild)
    if isinstance(cmd, ps.GameList | ps.GameMine):
        return await _server(service, guild, person, cmd)
    if game is None:
        if isinstance(cmd, ps.Help):
            return Result(ok=True, answer=help_text(cmd.topic), kind="help")  # no game: all
        if isinstance(cmd, ps.Odds):
            return await _odds(_odds_edition(), cmd, None)
        if cmd.kind in _LATER:
            return Result.refused(msg("commands.later", command=cmd.kind), kind=cmd.kind)
        return Result.refused(no_game_msg(), kind=cmd.kind)
    return await execute(service, game.id, person, cmd, text)


async def run(service: GameService, rec: GameRecord, person: str, text: str) -> Result:
    """Parse one line in the context of a known game and run it."""
    try:
        cmd = ps.parse(text, ps.names_for(rec.edition))
    except RulesError as e:
        return Result.refused(told(e), kind="parse", game=GameInfo.of(rec))
    if isinstance(cmd, ps.GameNew):
        return await _new(service, rec.channel, person, cmd, rec.guild)
    return await execute(service, rec.id, person, cmd, text)


async def _server(
    service: GameService, guild: str, person: str, cmd: ps.GameList | ps.GameMine
) -> Result:
    """`game list` / `game mine`: about the server (the table's store), not one game."""
    if isinstance(cmd, ps.GameList):
        return await service.games_of(guild, finished=cmd.all)
    return await service.mine(guild, person)


async def _new(
    service: GameService, channel: str, person: str, cmd: ps.GameNew, guild: str = ""
) -> Result:
    try:
        info = await service.create(channel, person, cmd.edition, cmd.options, guild=guild)
    except ServiceError as e:
        return Result.refused(str(e), kind="game_new")
    from rules.engine import resolve_edition

    ed = resolve_edition(info.edition)
    sides = "; ".join(f"{side}: {', '.join(ed.powers_of_side(side))}" for side in ed.rules.sides)
    extra = f" with {', '.join(info.options)}" if info.options else ""
    if info.dice == "scripted":
        dice = " Dice are scripted (--dice): not fair dice."
    else:
        dice = (
            f" Fair dice, committed before anyone joins: {info.commitment} "
            "(each round's seed is revealed when the round ends; check with 'dice verify')."
        )
    answer = (
        f"Game {info.id}: {ed.rules.title}{extra}, created by {person}.{dice}\n"
        f"Take seats with 'game join <power>' ({sides}); then {person} says 'game start'."
    )
    return Result(ok=True, answer=answer, kind="game_new", game=info)


async def execute(
    service: GameService, game_id: str, person: str, cmd: ps.Command, text: str
) -> Result:
    """Run a parsed command in a game. A game whose stored log fails its checks is answered
    plainly by every command (what is wrong, and how its owner repairs it)."""
    try:
        result = await _execute(service, game_id, person, cmd, text)
    except CorruptGame as e:
        info = await service.info(game_id)
        return Result.refused(str(e.with_owner(info.owner)), kind=cmd.kind, game=info)
    if not result.ok and result.game is None:
        # The game a refusal is about, so that front ends name its people (Discord mentions).
        result = replace(result, game=await service.info(game_id))
    return result


async def _execute(
    service: GameService, game_id: str, person: str, cmd: ps.Command, text: str
) -> Result:
    if not isinstance(cmd, ps.MetaCommand):  # a rules order
        return await service.submit_order(game_id, person, cmd, text.strip())
    match cmd:
        case ps.GameNew():
            info = await service.info(game_id)
            return await _new(service, info.channel, person, cmd, info.guild)
        case ps.GameLeave():
            return await service.leave(game_id, person)
        case ps.GameCancel():
            return await service.cancel(game_id, person, withdraw=cmd.withdraw)
        case ps.GameConcede():
            return await service.concede(game_id, person, withdraw=cmd.withdraw)
        case ps.GameDraw():
            return await service.draw(game_id, person, withdraw=cmd.withdraw)
        case ps.GameList() | ps.GameMine():
            return await _server(service, (await service.info(game_id)).guild, person, cmd)
        case ps.GameJoin():
            return await service.join(game_id, person, cmd.power, cmd.entropy)
        case ps.GameStart():
            return await service.start(game_id, person)
        case ps.GameStatus():
            result = await service.status(game_id)
            return result if cmd.json else replace(result, state=None)
        case ps.GameMap():
            return await service.map(game_id, cmd.space)
        case ps.GameHistory():
            return await service.history(game_id, cmd.n if cmd.n is not None else 10**9)
        case ps.GameExport():
            try:
                doc = await service.export(game_id)
            except ServiceError as e:
                return Result.refused(str(e), kind="export")
            n = len(doc["events"])
            return Result(
                ok=True,
                answer=f"Game {game_id} exported: {n} events.",
                kind="export",
                game=await service.info(game_id),
                data=doc,
            )
        case ps.GameCheck():
            return await service.check_game(game_id)
        case ps.GameLink():
            return await game_link(service, service.web_links, game_id, person,
                                   revoke=cmd.revoke)
        case ps.GameRepair():
            return await service.resolve_corruption(game_id, person, cmd.how)
        case ps.Undo():
            return await service.undo(game_id, person)
        case ps.Substitute():
            return await service.substitute(game_id, person, cmd.power, cmd.user)
        case ps.Kick():
            return await service.kick(game_id, person, cmd.user)
        case ps.Deadline():
            return await service.set_deadline(game_id, person, cmd.text)
        case ps.Pause():
            return await service.pause(game_id, person)
        case ps.Resume():
            return await service.resume(game_id, person)
        case ps.DiceVerify():
            return await service.verify_dice(game_id, cmd.round)
        case ps.State():
            return await _state(service, game_id)
        case ps.Help():
            from rules.engine import resolve_edition

            edition = resolve_edition((await service.info(game_id)).edition)
            return Result(ok=True, answer=help_text(cmd.topic, edition), kind="help")
        case ps.Odds():
            info = await service.info(game_id)
            from rules.engine import resolve_edition

            try:  # the powers' weapons developments count (R-TEC-06)
                state: GameState | None = await service.state(game_id)
            except GameIsCorrupt as e:
                return Result.refused(str(e), kind="odds", game=info)
            except ServiceError:
                state = None  # not started yet
            return await _odds(resolve_edition(info.edition), cmd, info, state)
        case ps.Luck():
            return await _luck(service, game_id, cmd)
        case ps.EditPropose() | ps.EditConfirm() | ps.EditReject() | ps.EditList():
            return await _edit(service, game_id, person, cmd)


async def _edit(
    service: GameService,
    game_id: str,
    person: str,
    cmd: ps.EditPropose | ps.EditConfirm | ps.EditReject | ps.EditList,
) -> Result:
    """`edit ...`: game-master edits with the other side's consent (service.edits)."""
    from service import edits

    match cmd:
        case ps.EditPropose():
            return await edits.propose(service, game_id, person, cmd.change)
        case ps.EditConfirm():
            return await edits.confirm(service, game_id, person, cmd.number)
        case ps.EditReject():
            return await edits.reject(service, game_id, person, cmd.number)
        case ps.EditList():
            return await edits.listing(service, game_id)


async def _state(service: GameService, game_id: str) -> Result:
    from rules.position import state_json

    info = await service.info(game_id)
    try:
        state = await service.state(game_id)
    except ServiceError as e:
        return Result.refused(str(e), kind="state", game=info)
    return Result(ok=True, kind="state", game=info, state=state_json(state))


def _odds_edition() -> Edition:
    """The edition of 'odds' asked where no game is: the default edition (data)."""
    from rules.engine import resolve_edition

    return resolve_edition(default_edition())


async def _odds(ed: Edition, cmd: ps.Odds, game: GameInfo | None,
                state: GameState | None = None) -> Result:
    """`odds`: anyone may ask; exact odds, or Monte Carlo with its error bar (odds.ask).

    Developments named in the order count for both sides; in a game, so do those the attacker
    and the defender own (``odds.ask.game_developments``)."""
    from odds.ask import game_developments, odds, summary

    att, dfd = game_developments(state, cmd.space) if state is not None else ((), ())
    try:
        # A large battle takes a second or two of Monte Carlo: keep the event loop free.
        r = await asyncio.to_thread(
            partial(odds, ed, cmd.attackers, cmd.defenders, space=cmd.space,
                    attacker_techs=(*att, *cmd.developments),
                    defender_techs=(*dfd, *cmd.developments)))
    except RulesError as e:
        return Result.refused(told(e), kind="odds", game=game)
    where = f" in {cmd.space}" if cmd.space else (" at sea" if r.sea else "")
    head = (f"Odds{where}: {ps.format_units(cmd.attackers)} attacking "
            f"{ps.format_units(cmd.defenders)}, fought to the end with default casualties.")
    return Result(ok=True, answer=f"{head}\n{summary(r)}", kind="odds", game=game,
                  data=r.to_json())


async def _luck(service: GameService, game_id: str, cmd: ps.Luck) -> Result:
    """`luck [space]`: hits rolled against hits expected, per battle, power and side."""
    from rules.luck import game_luck, luck_text

    info = await service.info(game_id)
    try:
        state = await service.state(game_id)
    except ServiceError as e:
        return Result.refused(str(e), kind="luck", game=info)
    events = [stored.event for stored in await service.store.load_events(game_id)]
    report = game_luck(events, state.edition, cmd.space)
    return Result(ok=True, answer=luck_text(report, cmd.space), kind="luck", game=info,
                  data=report.to_json())


catalogue("en", "commands", {
    "no_game": lambda p: "No game in this channel yet: start one with "
                         + " or ".join(f"'game new {w}'" for w in p["editions"]) + ".",
    "later": "{command}: no game in this channel; start one with 'game new'",
})
