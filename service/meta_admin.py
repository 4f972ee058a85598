"""The grammar of the owner's meta-commands (``service.meta``), described once each: ``pause``,
``resume``, ``deadline``, ``substitute``, ``kick`` and the game-master edits ``edit ...``.
Registered in ``service.meta.META`` at import."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from typing import Any

from rules.edits import EditChange
from rules.errors import InvalidOrder
from rules.language.names import Names
from rules.language.reading import (
    EXAMPLE_POWER,
    EXAMPLE_RIVAL,
    FROM,
    IN,
    TO,
    lead_name,
    no_args,
    small_int,
    split_all,
    try_splits,
)
from rules.language.registry import Hint, OrderSyntax, Sub
from rules.language.units import parse_units, plural
from rules.messages import catalogue, msg
from service.meta import (
    META,
    Deadline,
    EditConfirm,
    EditList,
    EditPropose,
    EditReject,
    Kick,
    Meta,
    Pause,
    Resume,
    Substitute,
)

__all__ = ["DEADLINE", "EDIT", "KICK", "PAUSE", "RESUME", "SUBSTITUTE"]

_OWNER = "The game's owner (or a server manager): "


def _pause(rest: str, names: Names, verb: str) -> Pause:
    no_args("pause", rest)
    return Pause()


PAUSE = META.register(OrderSyntax[Meta](
    verb="pause",
    usage="pause",
    read=_pause,
    rank=250,
    makes=(Pause,),
    example=lambda b: ("pause", "/admin pause"),
    explain=_OWNER + "stops deadlines and reminders until 'resume'.",
    hints=(Hint("pause", "/admin pause"),),
))


def _resume(rest: str, names: Names, verb: str) -> Resume:
    no_args("resume", rest)
    return Resume()


RESUME = META.register(OrderSyntax[Meta](
    verb="resume",
    usage="resume",
    read=_resume,
    rank=260,
    makes=(Resume,),
    example=lambda b: ("resume", "/admin resume"),
    explain=_OWNER + "deadlines and reminders run again.",
    hints=(Hint("resume", "/admin resume"),),
))


def _deadline(rest: str, names: Names, verb: str) -> Deadline:
    if not rest:
        raise DEADLINE.expected("deadline 24h")
    return Deadline(text=rest)


DEADLINE = META.register(OrderSyntax[Meta](
    verb="deadline",
    usage="deadline <time>  (e.g. 'deadline 24h')",
    read=_deadline,
    rank=270,
    makes=(Deadline,),
    example=lambda b: ("deadline 24h", "/admin deadline hours:24"),
    explain=_OWNER + """how long each wait may last; the players waited for are
reminded before it passes, and then the referee acts for the absent as set.""",
    hints=(Hint("deadline", "/admin deadline", (
        r"(?P<hours>\d+(?:\.\d+)?)h(?: (?P<action>remind|defaults|end))?"
        r"(?P<every_turn> every(?: turn)?)?",
    )),),
))


def _substitute(rest: str, names: Names, verb: str) -> Substitute:
    usage = SUBSTITUTE.expected(f"substitute {EXAMPLE_POWER} @alice")
    if not rest:
        raise usage
    lead = lead_name(rest, names.table("power"))
    if lead is None:
        first, _, more = rest.partition(" ")
        lead = names.power(first), more.strip()
    if not lead[1]:
        raise usage
    return Substitute(power=lead[0], user=lead[1])


SUBSTITUTE = META.register(OrderSyntax[Meta](
    verb="substitute",
    usage="substitute <power> <user>",
    read=_substitute,
    rank=280,
    makes=(Substitute,),
    example=lambda b: (f"substitute {b.power} carol",
                       f"/admin substitute power:{b.power} member:@carol"),
    explain=_OWNER + """gives a power's seat to another person (one side per
person).""",
    hints=(Hint("substitute", "/admin substitute", (r"(?P<power>.+?) (?P<member><[^>]+>|\S+)",)),),
))


def _kick(rest: str, names: Names, verb: str) -> Kick:
    if not rest:
        raise KICK.expected("kick @alice")
    return Kick(user=rest)


KICK = META.register(OrderSyntax[Meta](
    verb="kick",
    usage="kick <user>",
    read=_kick,
    rank=290,
    makes=(Kick,),
    example=lambda b: ("kick carol", "/admin kick member:@carol"),
    explain=_OWNER + """empties every seat the person holds; 'substitute' fills
them again.""",
    hints=(Hint("kick", "/admin kick", (r"(?P<member>.+)",)),),
))


# --- edit ... (rules.edits) --------------------------------------------------------------------

_EDIT_SUBS = (
    Sub("add", "edit add <units> in <space> [for <power>]",
        example=f"edit add 2 infantry in {EXAMPLE_POWER}"),
    Sub("remove", "edit remove <units> from <space> [of <power>]",
        example=f"edit remove 1 tank from Ukraine of {EXAMPLE_RIVAL}"),
    Sub("move", "edit move <units> from <space> to <space> [of <power>]",
        example=f"edit move 2 infantry from {EXAMPLE_POWER} to Poland"),
    Sub("owner", "edit owner <territory> <power>", example=f"edit owner Ukraine {EXAMPLE_POWER}"),
    Sub("money", "edit money <power> <n>", example=f"edit money {EXAMPLE_POWER} 30"),
    Sub("confirm", "edit confirm <n>", example="edit confirm 1"),
    Sub("reject", "edit reject <n>", example="edit reject 1"),
    Sub("list", "edit list"),
)
_FOR = re.compile(r"\bfor\b", re.I)
_OF = re.compile(r"\bof\b|\bfor\b", re.I)
_EDIT_VERBS = {"add": "add", "remove": "remove", "delete": "remove", "move": "move",
               "owner": "owner", "own": "owner", "control": "owner", "money": "money",
               "ipcs": "money", "ipc": "money", "treasury": "money", "pus": "money",
               "confirm": "confirm", "accept": "confirm", "agree": "confirm", "yes": "confirm",
               "reject": "reject", "refuse": "reject", "no": "reject", "list": "list"}


def _edit_sub(word: str) -> Sub:
    return next(s for s in _EDIT_SUBS if s.word == word)


def _edit_usage(word: str) -> InvalidOrder:
    sub = _edit_sub(word)
    return InvalidOrder(msg("admin.usage", form=sub.form, example=sub.example or sub.form))


def _with_power(
    rest: str, names: Names, word: re.Pattern[str], body: Callable[[str], EditChange]
) -> EditChange:
    """``body`` of the text, with an optional trailing '<word> <power>' (for/of <power>)."""
    splits = split_all(rest, word)
    for left, right in reversed(splits):
        power = names.table("power").strict(right)
        if power is not None:
            try:
                return body(left).model_copy(update={"power": power})
            except InvalidOrder:
                continue
    try:
        return body(rest)
    except InvalidOrder as first:
        if not splits:
            raise
        left, right = splits[-1]
        try:
            change = body(left)
        except InvalidOrder:
            raise first from None
        return change.model_copy(update={"power": names.power(right)})  # suggests, or raises


def _edit_number(args: str, sub: str) -> int:
    words = args.replace("#", " ").split()
    if len(words) != 1:
        raise _edit_usage(sub)
    return small_int(words[0], "edit number", 10**6)


def _edit(rest: str, names: Names, verb: str) -> Meta:
    sub_word, _, args = rest.partition(" ")
    args = args.strip()
    sub = _EDIT_VERBS.get(sub_word.casefold())
    if sub is None:
        close = difflib.get_close_matches(sub_word.casefold(), list(_EDIT_VERBS), n=1, cutoff=0.6)
        raise InvalidOrder(msg("admin.unknown", word=sub_word,
                               close=_EDIT_VERBS[close[0]] if close else None,
                               forms=[s.form for s in _EDIT_SUBS]))
    if sub == "list":
        no_args("edit list", args)
        return EditList()
    if sub in ("confirm", "reject"):
        n = _edit_number(args, sub)
        return EditConfirm(number=n) if sub == "confirm" else EditReject(number=n)
    if not args:
        raise _edit_usage(sub)
    if sub == "add":
        def add(text: str) -> EditChange:
            got = try_splits(split_all(text, IN), lambda x: parse_units(x, names), names.space)
            if got is None:
                raise _edit_usage("add")
            return EditChange(action="add", units=got[0], space=got[1])

        return EditPropose(change=_with_power(args, names, _FOR, add))
    if sub == "remove":
        def remove(text: str) -> EditChange:
            got = try_splits(split_all(text, FROM), lambda x: parse_units(x, names),
                              names.space)
            if got is None:
                raise _edit_usage("remove")
            return EditChange(action="remove", units=got[0], space=got[1])

        return EditPropose(change=_with_power(args, names, _OF, remove))
    if sub == "move":
        def move(text: str) -> EditChange:
            m = FROM.search(text)
            if m is None:
                raise _edit_usage("move")
            units_text, path = text[: m.start()].strip(), text[m.end() :].strip()
            if not units_text or not path:
                raise _edit_usage("move")
            units = parse_units(units_text, names)
            ends = try_splits(split_all(path, TO), names.space, names.space)
            if ends is None:
                raise _edit_usage("move")
            return EditChange(action="move", units=units, space=ends[0], to=ends[1])

        return EditPropose(change=_with_power(args, names, _OF, move))
    if sub == "owner":
        text = re.sub(r"^of\s+", "", args, flags=re.I)
        got = try_splits(split_all(text, re.compile(r"\bto\b|:|->|→", re.I)), names.space,
                         names.power)
        if got is None:
            lead = lead_name(text, names.table("space"))
            if lead is None or not lead[1]:
                words = text.split()
                if len(words) < 2:
                    raise _edit_usage("owner")
                lead = names.space(" ".join(words[:-1])), words[-1]
            got = lead[0], names.power(lead[1])
        return EditPropose(change=EditChange(action="owner", space=got[0], power=got[1]))
    # money
    words = args.replace(":", " ").split()
    if len(words) >= 2 and words[-2].casefold() == "to":
        words = [*words[:-2], words[-1]]
    if len(words) < 2:
        raise _edit_usage("money")
    amount_text = words[-1]
    if not re.fullmatch(r"[0-9]{1,4}", amount_text):
        raise InvalidOrder(msg("admin.money", text=amount_text,
                               example=_edit_sub("money").example))
    power = names.power(" ".join(words[:-1]))
    return EditPropose(change=EditChange(action="money", power=power, amount=int(amount_text)))


EDIT = META.register(OrderSyntax[Meta](
    verb="edit",
    usage=" | ".join(s.form for s in _EDIT_SUBS)
    + "  (the owner proposes; a player of the other side confirms)",
    read=_edit,
    rank=300,
    makes=(EditPropose, EditConfirm, EditReject, EditList),
    example=lambda b: (f"edit add 2 {plural(b.cheap)} in {b.home}",
                       f"/admin edit change:add 2 {plural(b.cheap)} in {b.home}"),
    explain="""\
The game's owner proposes a correction of the board (units added, removed or moved, an owner, a
treasury); a player of the other side confirms it with 'edit confirm <n>' or rejects it. An
applied edit is public and in the log.""",
    subs=_EDIT_SUBS,
))


def _unknown(p: Mapping[str, Any]) -> str:
    if p["word"]:
        what = f"Unknown edit {p['word']!r}." + (
            f" Did you mean: edit {p['close']}?" if p["close"] else "")
    else:
        what = "Expected an edit."
    forms = "; ".join(f"'{f}'" for f in p["forms"])
    return f"{what} Edits: {forms}."


catalogue("en", "admin", {
    "usage": "Expected '{form}'. For example: '{example}'.",
    "unknown": _unknown,
    "money": "The treasury is a whole number from 0 to 9999, not {text!r}: '{example}'.",
})
