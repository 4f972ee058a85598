"""The grammar of the meta-commands (``service.meta``), described once each like the rules'
orders (``rules.language.registry``): the verbs of a game's life (``game ...``), the referee's
tools (``undo``, ``odds``, ``luck``, ``dice verify``, ``state``, ``help``); the owner's are in
``service.meta_admin``.

``service.meta.META`` holds them; ``service.language`` reads lines with the rules' orders and
these together.
"""

from __future__ import annotations

import difflib
import re

from rules.errors import InvalidOrder
from rules.language.names import Names
from rules.language.orders import two_units
from rules.language.reading import (
    EXAMPLE_POWER,
    IN,
    lead_name,
    no_args,
    small_int,
    split_all,
    try_splits,
)
from rules.language.registry import Arg, Board, Hint, OrderSyntax, Sub
from rules.language.units import development_ids, parse_units, plural
from rules.messages import catalogue, msg
from service.meta import (
    META,
    DiceVerify,
    GameCancel,
    GameCheck,
    GameConcede,
    GameDraw,
    GameExport,
    GameHistory,
    GameJoin,
    GameLeave,
    GameLink,
    GameList,
    GameMap,
    GameMine,
    GameNew,
    GameRepair,
    GameStart,
    GameStatus,
    Help,
    Luck,
    Meta,
    Odds,
    State,
    Undo,
)

__all__ = ["GAME", "MAX_HISTORY", "MAX_ROUND", "ODDS"]

MAX_HISTORY = 10000  # events in `game history n`
MAX_ROUND = 10000  # `dice verify n`

_JSON_FLAGS = frozenset({"--json", "-j", "json", "—json"})


# --- game ... ----------------------------------------------------------------------------------

_GAME_SUBS = (
    Sub("new", "game new <edition> [options]", "create a game here ('help editions' lists them)",
        "/game new edition:<edition>", "create a game in this channel ('/help topic:editions')"),
    Sub("join", "game join <power> [entropy phrase]",
        "take a seat before the start (powers of one side)",
        "/game join power:<power>", "take a seat before the start (powers of one side)"),
    Sub("start", "game start", "the owner starts once every power is seated",
        "/game start", "the owner starts once every power is seated"),
    Sub("status", "game status [--json]", "round, turn, phase, money, battles, who is waited for",
        "/game status", "round, turn, phase, money, battles, who is waited for"),
    Sub("map", "game map [space]", "the map (a text overview at the local table)",
        "/game map", "the map"),
    Sub("history", "game history [n]", "the last n events (all without n)",
        "/game history", "the last events"),
    Sub("export", "game export", "the whole game as JSON",
        "/game export", "the whole game as JSON"),
    Sub("check", "game check", "whether the stored log holds (hash chain, heads)"),
    Sub("repair", "game repair truncate|reseal", "the owner repairs a corrupt log (docs/store.md)"),
    Sub("leave", "game leave", "give up your seats before the start",
        "/game leave", "give up your seats before the start"),
    Sub("cancel", "game cancel [withdraw]",
        "the owner before the start; after it, all players vote",
        "/game cancel", "the owner before the start; after it, all players vote"),
    Sub("concede", "game concede [withdraw]", "give up for your side: the other side wins",
        "/game concede", "give up for your side: the other side wins"),
    Sub("draw", "game draw [withdraw]", "a draw, when every player has voted for it",
        "/game draw", "a draw, when every player has voted for it"),
    Sub("list", "game list [all]", "the games here (all: finished ones too)",
        "/game list", "the games of this server (finished:true: finished ones too)"),
    Sub("mine", "game mine", "your seats here and where you are awaited",
        "/game mine", "your seats here and where you are awaited"),
    Sub("link", "game link [revoke]",
        "the game's web page: your private link to play there, and the public one",
        "/game link", "the game's web page: your private link to play there (sent privately)"),
)


def _game_new(args: str, names: Names) -> GameNew:
    if not args:
        known = [names.edition_word(e) for e in names.all("edition")]
        raise InvalidOrder(msg("meta.game_new", known=known,
                               example=names.edition_word() if known else None))
    lead = lead_name(args, names.table("edition"))
    if lead is None:
        first, _, more = args.partition(" ")
        lead = names.edition_id(first), more
    edition, more = lead
    options: list[str] = []
    for word in more.split():
        opt = word.casefold().lstrip("-—")
        if not re.fullmatch(r"[a-z][a-z0-9_-]{0,31}", opt):
            raise InvalidOrder(msg("meta.bad_option", word=word))
        if opt not in options:
            options.append(opt)
    return GameNew(edition=edition, options=tuple(options))


def _game_join(args: str, names: Names) -> GameJoin:
    if not args:
        raise InvalidOrder(msg("meta.game_join", example=EXAMPLE_POWER))
    lead = lead_name(args, names.table("power"))
    if lead is None:
        first, _, more = args.partition(" ")
        lead = names.power(first), more.strip()
    return GameJoin(power=lead[0], entropy=lead[1])


def _game_life(sub: str, args: str) -> Meta | None:
    """The `game` words of a game's whole life, or None if ``sub`` is not one of them."""
    word = args.casefold()
    if sub in ("cancel", "concede", "draw"):
        if word not in ("", "withdraw"):
            raise InvalidOrder(msg("meta.vote", sub=sub))
        withdraw = word == "withdraw"
        if sub == "cancel":
            return GameCancel(withdraw=withdraw)
        return GameConcede(withdraw=withdraw) if sub == "concede" else GameDraw(withdraw=withdraw)
    if sub == "leave":
        no_args("game leave", args)
        return GameLeave()
    if sub == "list":
        if word not in ("", "all"):
            raise InvalidOrder(msg("meta.game_list"))
        return GameList(all=word == "all")
    if sub == "mine":
        no_args("game mine", args)
        return GameMine()
    if sub == "link":
        if word not in ("", "revoke"):
            raise InvalidOrder(msg("meta.game_link"))
        return GameLink(revoke=word == "revoke")
    return None


def _game(rest: str, names: Names, verb: str) -> Meta:
    sub, _, args = rest.partition(" ")
    sub, args = sub.casefold(), args.strip()
    if sub == "new":
        return _game_new(args, names)
    if sub == "join":
        return _game_join(args, names)
    if sub == "start":
        no_args("game start", args)
        return GameStart()
    if sub == "status":
        flags = args.casefold().split()
        if any(f not in _JSON_FLAGS for f in flags):
            raise InvalidOrder(msg("meta.game_status"))
        return GameStatus(json=bool(flags))
    if sub == "map":
        return GameMap(space=names.space(args) if args else None)
    if sub == "history":
        if not args:
            return GameHistory()
        if args.casefold() == "all":
            return GameHistory()
        return GameHistory(n=small_int(args, "number of events", MAX_HISTORY))
    if sub == "export":
        no_args("game export", args)
        return GameExport()
    if sub == "check":
        no_args("game check", args)
        return GameCheck()
    if sub == "repair":
        how = {"truncate": "truncate", "reseal": "reseal", "accept": "reseal"}.get(args.casefold())
        if how is None:
            raise InvalidOrder(msg("meta.game_repair"))
        return GameRepair(how="truncate" if how == "truncate" else "reseal")
    life = _game_life(sub, args)
    if life is not None:
        return life
    forms = [s.form for s in _GAME_SUBS]
    if not sub:
        raise InvalidOrder(msg("meta.game_expected", forms=forms))
    close = difflib.get_close_matches(sub, [s.word for s in _GAME_SUBS], n=1, cutoff=0.6)
    raise InvalidOrder(msg("meta.game_unknown", sub=sub, close=close[0] if close else None,
                           forms=forms))


def _game_hints() -> tuple[Hint, ...]:
    patterns: dict[str, tuple[str, ...]] = {
        "new": (r"(?P<edition>\S+)(?: (?P<options>.+))?",),
        "join": (r"(?P<power>.+)",),
        "status": (r"--json",),
        "map": (r"(?P<space>.+)",),
        "history": (r"(?P<n>.+)",),
        "repair": (r"(?P<how>truncate|reseal)",),
        "cancel": (r"(?P<withdraw>withdraw)",),
        "concede": (r"(?P<withdraw>withdraw)",),
        "draw": (r"(?P<withdraw>withdraw)",),
        "list": (r"(?P<finished>all)",),
        "link": (r"(?P<revoke>revoke)",),
    }
    commands = {"repair": "/admin repair"}
    return tuple(Hint(f"game {s.word}", commands.get(s.word, f"/game {s.word}"),
                      patterns.get(s.word, ())) for s in _GAME_SUBS)


GAME = META.register(OrderSyntax[Meta](
    verb="game",
    usage="game " + "|".join(s.word for s in _GAME_SUBS) + " ...",
    read=_game,
    rank=220,
    makes=(GameNew, GameJoin, GameStart, GameStatus, GameMap, GameHistory, GameExport, GameCheck,
           GameRepair, GameLeave, GameCancel, GameConcede, GameDraw, GameList, GameMine,
           GameLink),
    explain="""\
Creating, joining, starting and looking at games ('{help_game}' lists them).""",
    args=(Arg("edition", "edition", sub="new"), Arg("options", "options", sub="new"),
          Arg("power", "power", sub="join"), Arg("space", "space", sub="map")),
    hints=_game_hints(),
    subs=_GAME_SUBS,
))


# --- undo --------------------------------------------------------------------------------------


def _undo(rest: str, names: Names, verb: str) -> Undo:
    no_args("undo", rest)
    return Undo()


META.register(OrderSyntax[Meta](
    verb="undo",
    usage="undo",
    read=_undo,
    rank=170,
    makes=(Undo,),
    example=lambda b: ("undo", "/undo"),
    explain="""\
Takes back your last order of the phase, as long as no dice were rolled since and no other
power has acted since. Answer:
{undo_answer}""",
    hints=(Hint("undo", "/undo"),),
))


# --- odds, luck --------------------------------------------------------------------------------

_WITH = re.compile(r"\bwith\b(?P<what>.*?)(?=\bvs\b|\bversus\b|\bagainst\b|\bin\b|\bat\b|$)",
                   re.I)
_VS = re.compile(r"\bvs\b\.?|\bversus\b|\bagainst\b|\bv\b\.?", re.I)


def _odds(rest: str, names: Names, verb: str) -> Odds:
    example = "odds 3 infantry, 1 tank vs 2 infantry in Ukraine"
    developments: list[str] = []
    for w in _WITH.finditer(rest):
        developments += [t for t in development_ids(w["what"], names) if t not in developments]
    if developments:
        rest = " ".join(_WITH.sub(" ", rest).split())
        return _odds(rest, names, verb).model_copy(update={"developments": tuple(developments)})
    m = _VS.search(rest)
    if m is None:
        raise ODDS.expected(example)
    left, right = rest[: m.start()].strip(), rest[m.end() :].strip()
    if not left or not right:
        raise ODDS.expected(example)
    attackers = parse_units(left, names)
    try:
        got = try_splits(split_all(right, IN), lambda s: parse_units(s, names), names.space)
    except InvalidOrder as e:
        try:  # perhaps there is no space after all
            return Odds(attackers=attackers, defenders=parse_units(right, names))
        except InvalidOrder:
            raise e from None
    if got is not None:
        return Odds(attackers=attackers, defenders=got[0], space=got[1])
    return Odds(attackers=attackers, defenders=parse_units(right, names))


def _odds_example(b: Board) -> tuple[str, str]:
    two = two_units(b)
    return (f"odds {two} vs 2 {plural(b.cheap)} in {b.near}",
            f"/odds attackers:{two} defenders:2 {plural(b.cheap)} space:{b.near}")


ODDS = META.register(OrderSyntax[Meta](
    verb="odds",
    usage="odds <units> vs <units> [in <space>] [with <developments>]",
    read=_odds,
    rank=180,
    makes=(Odds,),
    example=_odds_example,
    explain="""\
Anyone, in a game or not: the chances of a battle fought to the end with default casualties,
exact where feasible, else by simulating battles, with its error bar; every answer comes within
a few seconds (more than 1,000 units a side are refused). 'in <space>' makes it that space's
battle (a sea zone: a sea battle); 'with <developments>' adds weapons developments.""",
    args=(Arg("attackers", "units"), Arg("defenders", "units"), Arg("space", "space")),
    hints=(Hint("odds", "/odds",
                (r"(?P<attackers>.+?) vs (?P<defenders>.+?)(?: in (?P<space>.+))?",)),),
))


def _luck(rest: str, names: Names, verb: str) -> Luck:
    return Luck(space=names.space(rest) if rest else None)


META.register(OrderSyntax[Meta](
    verb="luck",
    usage="luck [space]  (hits rolled against hits expected: the game, or one space's battles)",
    read=_luck,
    rank=190,
    makes=(Luck,),
    example=lambda b: (f"luck {b.near}", f"/luck space:{b.near}"),
    explain="""\
Anyone: the hits rolled against the hits expected, per battle and side, for the whole game or
the battles in one space.""",
    args=(Arg("space", "space"),),
    hints=(Hint("luck", "/luck", (r"(?P<space>.+)",)),),
))


# --- dice verify, state, help ------------------------------------------------------------------


def _dice(rest: str, names: Names, verb: str) -> DiceVerify:
    words = rest.split()
    if not words or words[0].casefold() != "verify" or len(words) > 2:
        raise InvalidOrder(msg("meta.dice_verify"))
    if len(words) == 1:
        return DiceVerify()
    return DiceVerify(round=small_int(words[1], "round", MAX_ROUND))


META.register(OrderSyntax[Meta](
    verb="dice verify",
    usage="dice verify [round]",
    read=_dice,
    rank=200,
    makes=(DiceVerify,),
    example=lambda b: ("dice verify 1", "/dice verify round:1"),
    explain="""\
Anyone: recomputes every revealed round's dice from its seed and checks the seeds against the
commitment published at the start ('{help_dice}' explains the scheme).""",
    hints=(Hint("dice verify", "/dice verify", (r"(?P<round>.+)",)),),
))


def _state(rest: str, names: Names, verb: str) -> State:
    if rest.casefold() not in ("", "--json", "json"):
        raise InvalidOrder(msg("meta.state"))
    return State()


META.register(OrderSyntax[Meta](
    verb="state",
    usage="state",
    read=_state,
    rank=230,
    makes=(State,),
    example=lambda b: ("state", "/game status"),
    explain="""\
Anyone: the whole position as JSON (owners, units, treasuries, battles, developments...), the
same keys a position file takes.""",
    hints=(Hint("state", "/game map"),),
))


def _help(rest: str, names: Names, verb: str) -> Help:
    topic = " ".join(rest.casefold().split())
    return Help(topic=topic or None)


META.register(OrderSyntax[Meta](
    verb="help",
    usage="help [order]",
    read=_help,
    rank=240,
    makes=(Help,),
    example=lambda b: ("help battles", "/help topic:battles"),
    explain="""\
This help: the topics, or one order with its example.""",
    hints=(Hint("help", "/help", (r"(?P<topic>.+)",)),),
))


def _quoted(forms: list[str]) -> str:
    return "; ".join(f"'{f}'" for f in forms)


catalogue("en", "meta", {
    "game_new": lambda p: ("Expected 'game new <edition> [options]'"
                           + (f", e.g. 'game new {p['example']}'" if p["known"] else "") + "."
                           + (f" Editions: {', '.join(p['known'])}." if p["known"] else "")),
    "bad_option": "Unknown game option {word!r}: options are single words such as 'short' or "
                  "'errata'.",
    "game_join": "Expected 'game join <power> [entropy phrase]', e.g. 'game join {example}'.",
    "vote": "Expected 'game {sub}' (your vote) or 'game {sub} withdraw' (take it back).",
    "game_list": "Expected 'game list' or 'game list all' (finished games too).",
    "game_link": "Expected 'game link' (your link to the game's web page) or 'game link revoke' "
                 "(the links given before stop working; a new one is given).",
    "game_status": "Expected 'game status' or 'game status --json'.",
    "game_repair": "Expected 'game repair truncate' (cut the log before its first bad event) or "
                   "'game repair reseal' (accept the stored events as they are).",
    "game_expected": lambda p: f"Expected a game command: {_quoted(p['forms'])}.",
    "game_unknown": lambda p: (f"Unknown game command {p['sub']!r}."
                               + (f" Did you mean: game {p['close']}?" if p["close"] else "")
                               + f" Game commands: {_quoted(p['forms'])}."),
    "dice_verify": "Expected 'dice verify' or 'dice verify <round>'.",
    "state": "'state' takes nothing after it: write just 'state'.",
})
