"""Help topics, the same for every front end: the local table's ``help <topic>`` and Discord's
``/help topic:<topic>`` (later the e-mail gateway).

A topic is an order (``move``, ``casualties``...) or one of ``TOPICS`` (how turns and battles
work, how to check the dice, several orders at once, the game commands, the editions). The
words a person types differ by front end, so every text here is written once with placeholders
that ``Style`` fills: order-language words at the table (``end confirm``), slash commands with
their options in Discord (``/end confirm:true``).

Examples use the names of the edition's own board and units (its first power's capital, a land
neighbour and a sea zone beside it, its cheapest land units), so each example is one the
edition's parser understands; nothing here names an edition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rules import parse as ps
from rules.edition import edition_catalog
from rules.words import possessive

if TYPE_CHECKING:
    from rules.edition import Edition

Style = Literal["text", "slash"]

# The topics besides the orders, in the order they are listed.
TOPICS: dict[str, str] = {
    "orders": "every order of this game's edition, with an example each",
    "turns": "how a turn goes: phases, who gives orders, ending a phase, undo",
    "battles": "how battles are fought: rounds, casualties, press or retreat, defaults",
    "dice": "how the dice are fair and how to check them",
    "batch": "several orders at once (a whole phase)",
    "game": "creating, joining, starting and looking at a game",
    "editions": "the editions installed and their options",
}
_ALIASES = {"order": "orders", "turn": "turns", "phases": "turns", "battle rules": "battles",
            "combat": "battles", "die": "dice", "fair dice": "dice", "verify": "dice verify",
            "several": "batch", "block": "batch", "new": "editions", "edition": "editions",
            "games": "game", "game new": "editions"}

# Words a text names, written once: (order language, slash command).
_WORDS: dict[str, tuple[str, str]] = {
    "help": ("help <topic>", "/help topic:<topic>"),
    "end": ("end", "/end phase:<phase>"),
    "end_confirm": ("end confirm", "/end phase:<phase> confirm:true"),
    "undo": ("undo", "/undo"),
    "battle": ("battle <space>", "/battle space:<space>"),
    "battle_all": ("battle <space> all", "/battle space:<space> all:true"),
    "casualties": ("casualties <space> <units>", "/casualties space:<space> units:<units>"),
    "press": ("press <space>", "/press space:<space>"),
    "retreat": ("retreat <space> to <space>", "/retreat space:<space> to:<space>"),
    "standing": ("standing casualties <power> <unit>, <unit>, ...",
                 "/standing power:<power> units:<unit>, <unit>, ..."),
    "odds": ("odds <units> vs <units> [in <space>]",
             "/odds attackers:<units> defenders:<units> space:<space>"),
    "luck": ("luck [space]", "/luck"),
    "dice_verify": ("dice verify [round]", "/dice verify"),
    "export": ("game export", "/game export"),
    "status": ("game status", "/game status"),
    "game_new": ("game new", "/game new"),
    "deadline": ("deadline 24h", "/admin deadline"),
    "orders": ("a line 'orders', one order per line, then a line 'end orders'",
               "/orders (a box where you paste one order per line)"),
}

_TURNS = """\
A game is played in rounds; in each round every power takes a turn, in this order: {powers}.
A turn goes through these phases, in order: {phases}.
Only the player holding the seat of the power whose turn it is gives its orders, phase by phase;
'{end}' ends the phase (when ending would forfeit something, e.g. units left unplaced, the
referee says so and '{end_confirm}' ends it anyway; so does passing an empty Purchase with money
to spend, or an empty Noncombat Move with units able to move, so that an end typed twice never
skips a phase). A phase with nothing to do passes by itself.
'{undo}' takes back your last order, an end included, as long as no dice were rolled since and no
other power has acted.
The side that owes a battle decision answers it itself, even during the other side's turn.
Every answer ends with whom the game now waits for; '{status}' shows the round, the phase,
money and battles. The owner may set a deadline ('{deadline}').
Several orders at once: {orders} ('{help_batch}')."""

_BATTLES = """\
In the combat move the attacker moves units into enemy spaces; each such space is a battle.
In the combat phase the attacker fights them one at a time: '{battle}' fights one round
('{battle_all}' fights to the end, the attacker losing units in its default order; it
stops for a defender with a real casualty choice and no standing order, and goes on once
the defender answers).
After each round of fire, the side that owes casualties chooses them: '{casualties}'
(in Discord a menu is posted for the player who owes them). Then the attacker fights on
with '{press}' or leaves with '{retreat}'.
A defender sets the order in which its units are lost by default: '{standing}';
at a deadline with the 'defaults' action the referee answers owed decisions that way.
Before attacking, '{odds}' gives the odds of a battle fought to the end.
Every die is shown in the answer that rolled it.{subs}"""

_DICE = """\
Dice are fair and anyone can check them. At '{game_new}' the referee commits to a secret
(the commitment is in its answer) before anyone joins; players may add an entropy phrase
when they join. Each round's seed is revealed when the round ends.
'{dice_verify}' recomputes every revealed round's rolls from its seed and checks the seeds
against the commitment; '{export}' gives the whole log to check offline
(tools/verify_dice.py). '{luck}' compares the hits rolled with the hits expected.
The scheme in full: docs/dice.md. Scripted dice (the local table's --dice) are marked as such
and cannot be verified."""

_BATCH = {
    "text": """\
Several orders at once, e.g. a whole purchase or combat move: {orders}.
Each line is checked and applied in turn, exactly as if it had been sent alone; blank lines
and lines starting with '#' are ignored. The first refused line stops the batch: the lines
before it stay applied, nothing after it is applied, and the answer lists every line with its
result. At most 100 orders and 20,000 characters at once.
Example:
  orders
  {example_buy}
  end
  {example_move}
  end orders""",
    "slash": """\
Several orders at once, e.g. a whole purchase or combat move: {orders}.
Each line is checked and applied in turn, exactly as if it had been sent alone; blank lines
and lines starting with '#' are ignored. The first refused line stops the batch: the lines
before it stay applied, nothing after it is applied. The channel sees what was applied; you
see every line with its result. At most 100 orders at once.
Example (pasted in the box):
  {example_buy}
  end
  {example_move}""",
}

_GAME_TEXT = (
    "game new <edition> [options]          create a game here ('help editions' lists them)",
    "game join <power> [entropy phrase]    take a seat before the start (powers of one side)",
    "game start                            the owner starts once every power is seated",
    "game status [--json]                  round, turn, phase, money, battles, who is waited for",
    "game map [space]                      the map (a text overview at the local table)",
    "game history [n]                      the last n events (all without n)",
    "game export                           the whole game as JSON",
    "game check                            whether the stored log holds (hash chain, heads)",
    "game repair truncate|reseal           the owner repairs a corrupt log (docs/store.md)",
    "game leave                            give up your seats before the start",
    "game cancel [withdraw]                the owner before the start; after it, all players vote",
    "game concede [withdraw]               give up for your side: the other side wins",
    "game draw [withdraw]                  a draw, when every player has voted for it",
    "game list [all]                       the games here (all: finished ones too)",
    "game mine                             your seats here and where you are awaited",
)
_GAME_SLASH = (
    "/game new edition:<edition>   create a game in this channel ('/help topic:editions')",
    "/game join power:<power>      take a seat before the start (powers of one side)",
    "/game start                   the owner starts once every power is seated",
    "/game status                  round, turn, phase, money, battles, who is waited for",
    "/game map                     the map",
    "/game history                 the last events",
    "/game export                  the whole game as JSON",
    "/game leave                   give up your seats before the start",
    "/game cancel                  the owner before the start; after it, all players vote",
    "/game concede                 give up for your side: the other side wins",
    "/game draw                    a draw, when every player has voted for it",
    "/game list                    the games of this server (finished:true: finished ones too)",
    "/game mine                    your seats here and where you are awaited",
)
_GAME = {"text": _GAME_TEXT, "slash": _GAME_SLASH}


# What each order does, when and by whom, and what the referee answers (issue 13 item 14):
# ``help <order>`` shows its form, an example and this. Placeholders are ``_WORDS``.
_EXPLAIN: dict[str, str] = {
    "buy": """\
Purchase Units, by the power whose turn it is: adds units to this turn's purchase and pays for
them at once from the treasury (a purchase you cannot afford is refused with what is left).
Orders add up; 'buy clear' empties the list and refunds it. The units are placed at the end of
the turn (Mobilize New Units). Answer: '{buy_answer}'""",
    "move": """\
Combat Move or Noncombat Move, by the power whose turn it is. In Combat Move units move into
enemy spaces (each becomes a battle) or wherever a combat move may end; in Noncombat Move into
friendly spaces only, and aircraft land. The referee finds the path; 'via' names the spaces to
pass when several paths exist. Land units move into a sea zone onto a transport there (load)
and from a sea zone onto land (unload, an amphibious assault in Combat Move). 'raid' at the end
sends bombers on a strategic bombing raid where the edition has them. A move the rules forbid
is refused with the rule and changes nothing.""",
    "load": """\
The same as 'move' from a territory to a sea zone: the land units board a friendly transport
there (they may not have moved this turn).""",
    "unload": """\
The same as 'move' from a sea zone to a territory: the land units leave their transport; into
an enemy territory in Combat Move this is an amphibious assault.""",
    "battle": """\
Conduct Combat, by the attacker: fights one round of the battle in that space (both sides
fire; every die is in the answer). When a side has a choice of casualties the game waits for
'{casualties}' from it; then the attacker continues with '{press}' or leaves with '{retreat}'.
'all' fights to the end, each side losing units in its default order where it has given one
('{standing}'); a defender with a real choice is still asked.""",
    "casualties": """\
By the side that owes casualties in a battle (the defender answers its own, even during the
other side's turn): names the units that take the hits scored. Every hit must be assigned, to
units that may take it (a unit with two hits, where the edition has one, may take one and stay,
damaged). Answer:
'{casualties_answer}'""",
    "retreat": """\
By the attacker, after a round of a battle: all attacking units there leave for one adjacent
friendly space at least one of them came from; the defender keeps the space.""",
    "press": """\
By the attacker, after a round of a battle: the battle goes on with the next round (fight it
with '{battle}').""",
    "submerge": """\
By the owner of submarines in a sea battle, where the edition lets them submerge: they leave the
battle before a round; a number submerges only that many.""",
    "strike": """\
By the owner of submarines in a sea battle, where the edition lets them declare it: they make a
surprise strike this round (their victims may not fire back when the other side has no
destroyer).""",
    "withdraw": """\
By the owner of submarines in a sea battle, where the edition has it: between rounds, once the
round's casualties are removed, they leave for an adjacent sea zone ('to' chooses it when there
are several).""",
    "bomb": """\
Conduct Combat, by the attacker: carries out the strategic bombing raid declared on that
territory in Combat Move (move bombers with 'raid'). The antiaircraft gun fires first, then each
surviving bomber rolls its damage, which the owner pays to the bank.""",
    "place": """\
Mobilize New Units, by the power whose turn it is: puts units bought this turn on the board in
a territory with your industrial complex (sea units in a sea zone next to it), up to what that
territory may produce. Units left unplaced at the end of the phase are lost or refunded as the
edition says.""",
    "research": """\
Weapons Development, by the power whose turn it is, where the edition has it: buys that many
research dice and rolls them; a 6 is a breakthrough, and a development die picks which weapons
development the power gains. Use '{end}' to skip research.""",
    "rocket": """\
By a power with the Rockets development, in its Combat phase: an antiaircraft gun in a
territory of yours fires at an enemy industrial complex within reach; the die is the damage,
paid by its owner to the bank.""",
    "end": """\
Ends the current phase and moves on to the next (the answer says what comes next and whom the
game waits for). When ending would forfeit something (money unspent, units left unplaced, units
that could still move) the referee says so and '{end_confirm}' ends it anyway.""",
    "undo": """\
Takes back your last order of the phase, as long as no dice were rolled since and no other
power has acted since. Answer:
{undo_answer}""",
    "odds": """\
Anyone, in a game or not: the chances of a battle fought to the end with default casualties,
exact where feasible, else by simulating battles, with its error bar; every answer comes within
a few seconds (more than 1,000 units a side are refused). 'in <space>' makes it that space's
battle (a sea zone: a sea battle); 'with <developments>' adds weapons developments.""",
    "luck": """\
Anyone: the hits rolled against the hits expected, per battle and side, for the whole game or
the battles in one space.""",
    "dice verify": """\
Anyone: recomputes every revealed round's dice from its seed and checks the seeds against the
commitment published at the start ('{help_dice}' explains the scheme).""",
    "standing casualties": """\
By a power's player, at any time: the order in which its units are lost by default (first
named, first lost), used by 'battle <space> all' and when a deadline answers for an absent
player. Unnamed units come after, cheapest first.""",
    "state": """\
Anyone: the whole position as JSON (owners, units, treasuries, battles, developments...), the
same keys a position file takes.""",
    "help": """\
This help: the topics, or one order with its example.""",
    "pause": """\
The game's owner (or a server manager): stops deadlines and reminders until 'resume'.""",
    "resume": """\
The game's owner (or a server manager): deadlines and reminders run again.""",
    "deadline": """\
The game's owner (or a server manager): how long each wait may last; the players waited for are
reminded before it passes, and then the referee acts for the absent as set.""",
    "substitute": """\
The game's owner (or a server manager): gives a power's seat to another person (one side per
person).""",
    "kick": """\
The game's owner (or a server manager): empties every seat the person holds; 'substitute' fills
them again.""",
    "edit": """\
The game's owner proposes a correction of the board (units added, removed or moved, an owner, a
treasury); a player of the other side confirms it with 'edit confirm <n>' or rejects it. An
applied edit is public and in the log.""",
    "game": """\
Creating, joining, starting and looking at games ('{help_game}' lists them).""",
}


@dataclass(frozen=True)
class _Names:
    """Names of one edition's board and units for the examples."""

    power: str
    home: str
    near: str
    sea: str
    cheap: str  # the cheapest land unit that can be bought
    second: str  # the next one

    @classmethod
    def of(cls, ed: Edition) -> _Names:
        power = ed.turn_order[0]
        home = ed.powers[power].capital
        spaces = ed.spaces
        around = sorted(ed.neighbours.get(home, ()))
        land = [s for s in around if spaces[s].kind != "sea" and not spaces[s].impassable]
        sea = [s for s in around if spaces[s].kind == "sea"]
        if not sea:
            sea = sorted(s for s, sp in spaces.items() if sp.kind == "sea")
        units = sorted((u for u in ed.units.values()
                        if u.domain == "land" and u.cost and u.attack > 0),
                       key=lambda u: (u.cost or 0, u.name))
        cheap = units[0].name if units else "infantry"
        second = units[1].name if len(units) > 1 else cheap
        return cls(power, home, land[0] if land else home, sea[0] if sea else home, cheap, second)


def _examples(n: _Names) -> dict[str, tuple[str, str]]:
    """Each order's example: (order language, slash command)."""
    two = ps.format_units({n.cheap: 3, n.second: 1}) if n.second != n.cheap \
        else ps.format_units({n.cheap: 3})
    return {
        "buy": (f"buy {two}", f"/buy units:{two}"),
        "move": (f"move 2 {ps.plural(n.cheap)} from {n.home} to {n.near}",
                 f"/move units:2 {ps.plural(n.cheap)} from:{n.home} to:{n.near}"),
        "load": (f"load 1 {n.cheap} from {n.home} to {n.sea}",
                 f"/move units:1 {n.cheap} from:{n.home} to:{n.sea}"),
        "unload": (f"unload 1 {n.cheap} from {n.sea} to {n.home}",
                   f"/move units:1 {n.cheap} from:{n.sea} to:{n.home}"),
        "battle": (f"battle {n.near}", f"/battle space:{n.near}"),
        "casualties": (f"casualties {n.near} 1 {n.cheap}",
                       f"/casualties space:{n.near} units:1 {n.cheap}"),
        "retreat": (f"retreat {n.near} to {n.home}", f"/retreat space:{n.near} to:{n.home}"),
        "press": (f"press {n.near}", f"/press space:{n.near}"),
        "submerge": (f"submerge {n.sea}", f"/submerge space:{n.sea}"),
        "strike": (f"strike {n.sea}", f"/strike space:{n.sea}"),
        "withdraw": (f"withdraw {n.sea}", f"/withdraw space:{n.sea}"),
        "bomb": (f"bomb {n.near}", f"/bomb space:{n.near}"),
        "place": (f"place 2 {ps.plural(n.cheap)} in {n.home}",
                  f"/place units:2 {ps.plural(n.cheap)} in:{n.home}"),
        "research": ("research 2", "/research dice:2"),
        "rocket": (f"rocket {n.home} at {n.near}", f"/rocket from:{n.home} at:{n.near}"),
        "end": ("end", "/end"),
        "undo": ("undo", "/undo"),
        "odds": (f"odds {two} vs 2 {ps.plural(n.cheap)} in {n.near}",
                 f"/odds attackers:{two} defenders:2 {ps.plural(n.cheap)} space:{n.near}"),
        "luck": (f"luck {n.near}", f"/luck space:{n.near}"),
        "dice verify": ("dice verify 1", "/dice verify round:1"),
        "standing casualties": (f"standing casualties {n.power} {n.cheap}, {n.second}",
                                f"/standing power:{n.power} units:{n.cheap}, {n.second}"),
        "state": ("state", "/game status"),
        "help": ("help battles", "/help topic:battles"),
        "pause": ("pause", "/admin pause"),
        "resume": ("resume", "/admin resume"),
        "deadline": ("deadline 24h", "/admin deadline hours:24"),
        "substitute": (f"substitute {n.power} carol", f"/admin substitute power:{n.power} "
                       "member:@carol"),
        "kick": ("kick carol", "/admin kick member:@carol"),
        "edit": (f"edit add 2 {ps.plural(n.cheap)} in {n.home}",
                 f"/admin edit change:add 2 {ps.plural(n.cheap)} in {n.home}"),
    }


def _editions() -> list[Edition]:
    from rules.engine import resolve_edition

    return [resolve_edition(r.id) for r in edition_catalog()]


def topics(edition: Edition | None) -> list[str]:
    """Every topic offered: the general ones, then the orders of ``edition`` (all without)."""
    verbs = [v for v in ps.usage_for(edition) if v not in ("game", "help")]
    return [*TOPICS, *verbs]


def _fill(template: str, style: Style, **extra: str) -> str:
    i = 0 if style == "text" else 1
    words = {k: v[i] for k, v in _WORDS.items()}
    for topic in ("batch", "dice", "game"):
        words[f"help_{topic}"] = _help_of(topic, style)
    return template.format(**words, **extra)


def _order_line(verb: str, usage: str, example: tuple[str, str], style: Style,
                only: str = "") -> str:
    if style == "text":
        return f"{usage}\n    e.g. {example[0]}{only}"
    return f"{example[1]}{only}\n    (order: {usage.split('  (')[0]})"


def orders_text(edition: Edition | None, style: Style = "text") -> str:
    """Every order of ``edition`` (of all installed editions without one), an example each."""
    eds = _editions()
    shown = edition or (eds[0] if eds else None)
    names = _Names.of(shown) if shown is not None else None
    examples = _examples(names) if names is not None else {}
    usage = ps.usage_for(edition)
    head = (f"Orders ({edition.rules.title}):" if edition is not None
            else "Orders: (of every installed edition; the examples on the board of "
                 f"{shown.rules.title if shown else 'the default edition'})")
    lines = [head]
    for verb, text in usage.items():
        if verb in ("game", "help", "state"):
            continue
        only = ""
        if edition is None:
            having = [e.rules.title for e in eds if verb in ps.usage_for(e)]
            if len(having) < len(eds):
                only = f"  (only in {', '.join(having)})"
        example = examples.get(verb, (verb, f"/{verb}"))
        lines.append(_order_line(verb, text, example, style, only))
    return "\n".join(lines)


def help_text(topic: str | None, edition: Edition | None, style: Style = "text") -> str:
    """The answer to ``help [topic]`` in a game of ``edition`` (or where there is none)."""
    if not topic:
        return _overview(edition, style)
    key = " ".join(topic.casefold().lstrip("/").split())
    key = _ALIASES.get(key, key)
    shown = edition or next(iter(_editions()), None)
    names = _Names.of(shown) if shown is not None else None
    match key:
        case "orders":
            return orders_text(edition, style)
        case "turns":
            powers = ", ".join(shown.turn_order) if shown else "the edition's order"
            phases = ", ".join(p.name for p in shown.rules.phases) if shown else ""
            if edition is None:
                powers += " (in " + (shown.rules.title if shown else "the default edition") + ")"
            return _fill(_TURNS, style, powers=powers, phases=phases)
        case "battles":
            subs = ""
            verbs = ps.usage_for(edition)
            extra = [v for v in ("submerge", "strike", "withdraw", "bomb") if v in verbs]
            if extra:
                forms = ", ".join(f"'{_order_form(v, style)}'" for v in extra)
                subs = f"\nWhere the edition has them: {forms} ('{_help_of(extra[0], style)}')."
            return _fill(_BATTLES, style, subs=subs)
        case "dice":
            return _fill(_DICE, style)
        case "batch":
            ex = _examples(names) if names else {}
            return _fill(_BATCH[style], style, example_buy=ex.get("buy", ("buy",))[0],
                         example_move=ex.get("move", ("move",))[0])
        case "game":
            return "\n".join(_GAME[style])
        case "editions":
            return _editions_text(style)
    usage = ps.usage_for(edition)
    found = usage.get(key)
    examples = _examples(names) if names else {}
    if found is None:
        matches = [v for v in usage if v.startswith(key) and v not in ("game", "help")]
        if len(matches) == 1:
            key, found = matches[0], usage[matches[0]]
        elif matches:  # 'help s': every order that begins so
            return "\n".join(_order_line(v, usage[v], examples.get(v, (v, f"/{v}")), style)
                             for v in matches)
    if found is None:
        elsewhere = " (not an order of this edition)" if key in ps.USAGE else ""
        offered = ", ".join(topics(edition))
        return f"No help on {topic!r}{elsewhere}. Topics: {offered}."
    line = _order_line(key, found, examples.get(key, (key, f"/{key}")), style)
    explained = _EXPLAIN.get(key)
    if explained is None:
        return line
    more = "docs/orders.md has every order of every edition."
    return f"{line}\n{_fill(explained, style, **_answers(shown, names))}\n{more}"


def _answers(ed: Edition | None, n: _Names | None) -> dict[str, str]:
    """Answers the referee gives, on the edition's own board, for the explanations."""
    if ed is None or n is None:
        return {"buy_answer": "...", "casualties_answer": "...", "undo_answer": "..."}
    cost = (ed.units[n.cheap].cost or 0) * 2
    return {
        "buy_answer": f"{n.power} bought {ps.format_units({n.cheap: 2})} ({cost} IPCs).",
        "casualties_answer": f"Casualties in {n.near}: {n.power} loses 1 {n.cheap}.",
        "undo_answer": f"Undone: {possessive(n.power)} 'buy 1 {n.cheap}' (1 event taken back).",
    }


def _order_form(verb: str, style: Style) -> str:
    form = ps.USAGE[verb].split("  (")[0]
    return form if style == "text" else f"/{verb}"


def _help_of(topic: str, style: Style) -> str:
    return f"help {topic}" if style == "text" else f"/help topic:{topic}"


def _editions_text(style: Style) -> str:
    lines = []
    for r in edition_catalog():
        opts = f" (options: {', '.join(r.options)})" if r.options else ""
        start = f"game new {r.word}" if style == "text" else f"/game new edition:{r.word}"
        lines.append(f"{start}: {r.title}{opts}")
    return "\n".join(lines)


def _overview(edition: Edition | None, style: Style) -> str:
    """``help`` alone: the game commands, the orders with an example each, the topics."""
    lines = ["Game:", *(f"  {line}" for line in _GAME[style])]
    if edition is None:
        lines += ["Editions:", *(f"  {line}" for line in _editions_text(style).splitlines())]
    head, *orders = orders_text(edition, style).splitlines()
    lines += [head, *(f"  {line}" for line in orders)]
    lines.append("Names are forgiving: 'e europe', '3 inf, 1 arm'.")
    more = ", ".join(TOPICS)
    lines.append(f"More: {_help_of('<topic>', style)}, a topic being {more} or an order's name.")
    return "\n".join(lines)
