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

from typing import TYPE_CHECKING, Literal

from rules.edition import edition_catalog
from rules.language.registry import Board
from rules.language.units import format_units
from rules.words import possessive
from service.language import LANGUAGE, usage_for

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

def _game_lines(style: Style) -> list[str]:
    """The game commands, one a line with what each does (``game``'s subcommands)."""
    game = LANGUAGE.syntax("game")
    subs = game.subs if game is not None else ()
    if style == "text":
        return [f"{s.form:<37} {s.about}" for s in subs]
    return [f"{s.slash:<29} {s.slash_about}" for s in subs if s.slash]


def _editions() -> list[Edition]:
    from rules.engine import resolve_edition

    return [resolve_edition(r.id) for r in edition_catalog()]


def topics(edition: Edition | None) -> list[str]:
    """Every topic offered: the general ones, then the orders of ``edition`` (all without)."""
    verbs = [v for v in usage_for(edition) if v not in ("game", "help")]
    return [*TOPICS, *verbs]


def _fill(template: str, style: Style, **extra: str) -> str:
    i = 0 if style == "text" else 1
    words = {k: v[i] for k, v in _WORDS.items()}
    for topic in ("batch", "dice", "game"):
        words[f"help_{topic}"] = _help_of(topic, style)
    return template.format(**words, **extra)


def _example(verb: str, board: Board | None) -> tuple[str, str]:
    """An order's example on the board of the edition shown: (as typed, as a slash command)."""
    syntax = LANGUAGE.syntax(verb)
    if board is None or syntax is None or syntax.example is None:
        return verb, f"/{verb}"
    return syntax.example(board)


def _order_line(verb: str, usage: str, example: tuple[str, str], style: Style,
                only: str = "") -> str:
    if style == "text":
        return f"{usage}\n    e.g. {example[0]}{only}"
    return f"{example[1]}{only}\n    (order: {usage.split('  (')[0]})"


def orders_text(edition: Edition | None, style: Style = "text") -> str:
    """Every order of ``edition`` (of all installed editions without one), an example each."""
    eds = _editions()
    shown = edition or (eds[0] if eds else None)
    board = Board.of(shown) if shown is not None else None
    usage = usage_for(edition)
    head = (f"Orders ({edition.rules.title}):" if edition is not None
            else "Orders: (of every installed edition; the examples on the board of "
                 f"{shown.rules.title if shown else 'the default edition'})")
    lines = [head]
    for verb, text in usage.items():
        if verb in ("game", "help", "state"):
            continue
        only = ""
        if edition is None:
            having = [e.rules.title for e in eds if verb in usage_for(e)]
            if len(having) < len(eds):
                only = f"  (only in {', '.join(having)})"
        lines.append(_order_line(verb, text, _example(verb, board), style, only))
    return "\n".join(lines)


def help_text(topic: str | None, edition: Edition | None, style: Style = "text") -> str:
    """The answer to ``help [topic]`` in a game of ``edition`` (or where there is none)."""
    if not topic:
        return _overview(edition, style)
    key = " ".join(topic.casefold().lstrip("/").split())
    key = _ALIASES.get(key, key)
    shown = edition or next(iter(_editions()), None)
    board = Board.of(shown) if shown is not None else None
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
            extra = [s.verb for s in LANGUAGE.syntaxes()
                     if s.topic == "battles" and s.available(edition)]
            if extra:
                forms = ", ".join(f"'{_order_form(v, style)}'" for v in extra)
                subs = f"\nWhere the edition has them: {forms} ('{_help_of(extra[0], style)}')."
            return _fill(_BATTLES, style, subs=subs)
        case "dice":
            return _fill(_DICE, style)
        case "batch":
            return _fill(_BATCH[style], style, example_buy=_example("buy", board)[0],
                         example_move=_example("move", board)[0])
        case "game":
            return "\n".join(_game_lines(style))
        case "editions":
            return _editions_text(style)
    usage = usage_for(edition)
    found = usage.get(key)
    if found is None and LANGUAGE.syntax(key) is None:  # another edition's verb is no prefix
        matches = [v for v in usage if v.startswith(key) and v not in ("game", "help")]
        if len(matches) == 1:
            key, found = matches[0], usage[matches[0]]
        elif matches:  # 'help s': every order that begins so
            return "\n".join(_order_line(v, usage[v], _example(v, board), style)
                             for v in matches)
    if found is None:
        elsewhere = " (not an order of this edition)" if LANGUAGE.syntax(key) else ""
        offered = ", ".join(topics(edition))
        return f"No help on {topic!r}{elsewhere}. Topics: {offered}."
    line = _order_line(key, found, _example(key, board), style)
    syntax = LANGUAGE.syntax(key)
    if syntax is None or not syntax.explain:
        return line
    more = "docs/orders.md has every order of every edition."
    return f"{line}\n{_fill(syntax.explain, style, **_answers(shown, board))}\n{more}"


def _answers(ed: Edition | None, n: Board | None) -> dict[str, str]:
    """Answers the referee gives, on the edition's own board, for the explanations."""
    if ed is None or n is None:
        return {"buy_answer": "...", "casualties_answer": "...", "undo_answer": "..."}
    cost = (ed.units[n.cheap].cost or 0) * 2
    return {
        "buy_answer": f"{n.power} bought {format_units({n.cheap: 2})} ({cost} IPCs).",
        "casualties_answer": f"Casualties in {n.near}: {n.power} loses 1 {n.cheap}.",
        "undo_answer": f"Undone: {possessive(n.power)} 'buy 1 {n.cheap}' (1 event taken back).",
    }


def _order_form(verb: str, style: Style) -> str:
    syntax = LANGUAGE.syntax(verb)
    form = syntax.form if syntax is not None else verb
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
    lines = ["Game:", *(f"  {line}" for line in _game_lines(style))]
    if edition is None:
        lines += ["Editions:", *(f"  {line}" for line in _editions_text(style).splitlines())]
    head, *orders = orders_text(edition, style).splitlines()
    lines += [head, *(f"  {line}" for line in orders)]
    lines.append("Names are forgiving: 'e europe', '3 inf, 1 arm'.")
    more = ", ".join(TOPICS)
    lines.append(f"More: {_help_of('<topic>', style)}, a topic being {more} or an order's name.")
    return "\n".join(lines)
