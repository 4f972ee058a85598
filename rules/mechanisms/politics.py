"""Politics (Europe 1940 §5): the state of war between each pair of powers, and declaring war.

Being on opposite sides is not being at war (§0 "Enemy", M-4, §22.1): a power is at war only
with the powers it declared war on, or that declared war on it, or that it was at war with when
the game began (§5.1, the edition's ``politics``). This module owns that matrix (``War``, a part
of the state) and tells the engine whether two powers are at war (``GameState.enemy``). An
edition without politics has every pair of opposite sides at war throughout.

Declaring war ('declare war on <power>'): on one's own turn, at the start of Combat Move before
any unit moves (DW-2), or in a window the edition names (§5.4: the USA at the start of its
Collect Income in round 3, the phase then waits for it); only on a power of the other side
(DW-1) that no ban of the edition protects (§5.4); it puts only the two at war (DW-4) and says
whether it was provoked (DW-5). Transports of the declarer in sea zones the declaration made
hostile may still load there in that Combat Move (DW-3, ``Declared``).

A power at war with nobody has no Combat Move or Conduct Combat (NW-5): they are skipped, unless
it may declare war at the start of Combat Move, where it may then only declare or end the phase.
The naval limits of §5.4 (the USA's sea units while neutral) are checked with each move.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from rules import board
from rules import events as ev
from rules import orders as od
from rules.edition import Edition, NavalLimit, Politics, WarBan, WarWindow
from rules.errors import IllegalOrder, InvalidOrder
from rules.language.names import Names
from rules.language.reading import EXAMPLE_RIVAL
from rules.language.registry import ORDERS, Arg, Chosen, Hint, OrderSyntax
from rules.messages import Msg, catalogue, msg, own_rule
from rules.position import NotCarried, PartKey, Written, within_turn
from rules.state import GameState, at_war_rule
from rules.turn import hooks
from rules.turn import registry as reg
from rules.words import definite as _the
from rules.words import rule_suffix

if TYPE_CHECKING:
    from rules.dice import Dice
    from rules.turn.tx import Tx

Pair = tuple[str, str]
COMBAT = board.COMBAT
CONDUCT = "conduct_combat"


@dataclass(frozen=True, slots=True)
class War:
    """The politics' part of the state: the pairs of powers at war, each pair in turn order,
    the pairs in turn order; None while nothing has changed since the start (the edition's
    ``politics.at_war``, ``Edition.war_at_start``). ``taken``: territories named by a ban
    (``WarBan.lifted_by_capture``) that the other side has taken at some time (§5.4)."""

    pairs: tuple[Pair, ...] | None = None
    taken: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Declared:
    """This turn's declarations: sea zones where the declarer's transports may still load
    although the declaration made them hostile (DW-3). Reset each turn."""

    loading: frozenset[str] = frozenset()
    window: bool = False  # war was declared in a window (§5.4): it stays open this phase


def pair(ed: Edition, a: str, b: str) -> Pair:
    """The pair ``{a, b}`` in turn order."""
    order = ed.turn_order
    return (a, b) if order.index(a) <= order.index(b) else (b, a)


def at_war_pairs(s: GameState) -> frozenset[frozenset[str]]:
    """Every pair of powers at war now (each a frozenset of two)."""
    pairs = s.part(War).pairs
    if pairs is None:
        return s.edition.war_at_start
    return frozenset(frozenset(p) for p in pairs)


@at_war_rule
def _at_war(s: GameState, a: str, b: str) -> bool:
    pairs = s.part(War).pairs
    if pairs is None:
        return frozenset((a, b)) in s.edition.war_at_start
    return pair(s.edition, a, b) in pairs


def at_war_with_anyone(s: GameState, power: str) -> bool:
    """``power`` is at war with some power (NW-3: else it is a "neutral power")."""
    return any(power in p for p in at_war_pairs(s))


def with_war(s: GameState, a: str, b: str) -> GameState:
    """``s`` with ``a`` and ``b`` at war (DW-3/DW-4: only these two)."""
    ed = s.edition
    now = {pair(ed, *sorted(p, key=ed.turn_order.index)) for p in at_war_pairs(s)}
    now.add(pair(ed, a, b))
    return s.with_part(replace(s.part(War), pairs=_ordered(ed, now)))


def _ordered(ed: Edition, pairs: set[Pair]) -> tuple[Pair, ...]:
    rank = {p: i for i, p in enumerate(ed.turn_order)}
    return tuple(sorted(pairs, key=lambda p: (rank[p[0]], rank[p[1]])))


def _politics(s: GameState) -> Politics | None:
    return s.edition.rules.politics


# --------------------------------------------------------------------------------------------
# The order and the events


class DeclareWar(od.Order):
    """Declare war on a power of the other side (Europe 1940 DW-1..DW-5)."""

    kind: Literal["declare_war"] = "declare_war"
    on: str


class WarDeclared(ev.Event):
    """``power`` declared war on ``on``: the two are at war from now on (DW-3, DW-4).
    ``provoked`` (DW-5): a political rule let it because another power met the rule's
    condition; ``loading``: sea zones the declaration made hostile where the declarer's
    transports may still load this Combat Move (DW-3)."""

    type: Literal["WarDeclared"] = "WarDeclared"
    power: str
    on: str
    provoked: bool = False
    rule: str = own_rule("DW-2")
    loading: tuple[str, ...] = ()
    window: bool = False  # in a window of the edition's (§5.4), not at Combat Move's start


class BansLifted(ev.Event):
    """The other side took a territory that lifts bans on declaring war (§5.4): ``powers`` may
    declare war on ``on`` from now on, whoever holds ``space`` later."""

    type: Literal["BansLifted"] = "BansLifted"
    space: str
    by: str
    powers: tuple[str, ...]
    on: tuple[str, ...]
    rule: str = ""


# --------------------------------------------------------------------------------------------
# How players write it: 'declare war on <power>'


def _declare(rest: str, names: Names, verb: str) -> DeclareWar:
    words = rest.split(" ")
    for word in ("war", "on"):
        if words[:1] and words[0].casefold() == word:
            words = words[1:]
    if not words or not words[0]:
        raise DECLARE.expected(f"declare war on {EXAMPLE_RIVAL}")
    return DeclareWar(on=names.power(" ".join(words)))


def _declared_on(o: Any, c: Chosen) -> str | None:
    return o.on if isinstance(o, DeclareWar) else None


DECLARE = ORDERS.register(OrderSyntax[od.Order](
    verb="declare war",
    usage="declare war on <power>  (at the start of your Combat Move, where the edition has "
          "politics)",
    read=_declare,
    words=("declare",),
    rank=105,
    makes=(DeclareWar,),
    needs_edition=lambda r: r.politics is not None,  # Europe 1940 §5
    example=lambda b: (f"declare war on {EXAMPLE_RIVAL}", f"/declare power:{EXAMPLE_RIVAL}"),
    explain="""\
By the power whose turn it is, at the start of its Combat Move before any unit moves (or when
the edition's political rules give another time): it and that power of the other side are at
war from now on, and only those two. Some powers may declare war only once their rules allow
it.""",
    args=(Arg("power", "power", offer=_declared_on),),
    hints=(Hint("declare war", "/declare", (r"(?:on )?(?P<power>.+)",)),),
))


# --------------------------------------------------------------------------------------------
# Who may declare war on whom, and when


def bans_on(s: GameState, power: str, on: str) -> list[WarBan]:
    """The edition's bans that would keep ``power`` from declaring war on ``on``."""
    pol = _politics(s)
    return [b for b in (pol.bans if pol else ()) if b.power == power and on in b.on]


def _taken(s: GameState, ban: WarBan) -> list[str]:
    """The territories of ``ban`` the other side holds now or took at some time (§5.4)."""
    once = set(s.part(War).taken)
    out = []
    for t in ban.lifted_by_capture:
        owner = s.owners.get(t)
        if t in once or (owner is not None and s.side(owner) != s.side(ban.power)):
            out.append(t)
    return out


def lifted_by_event(s: GameState, ban: WarBan) -> bool:
    """A condition of ``ban`` other than the round is met: another power's act lifted it (a
    declaration on the banned power, a capture): a declaration it permits is provoked (DW-5)."""
    return any(s.enemy(ban.power, p) for p in ban.lifted_by_war_with) or bool(_taken(s, ban))


def ban_holds(s: GameState, ban: WarBan) -> bool:
    """``ban`` forbids its power's declarations now (§5.4)."""
    if ban.until_round is not None and s.round >= ban.until_round:
        return False
    return not lifted_by_event(s, ban)


def window(s: GameState, power: str) -> WarWindow | None:
    """The edition's window open now for ``power``: its round and phase, while the power is at
    war with nobody (§5.4)."""
    pol = _politics(s)
    if pol is None or s.power != power:
        return None
    if at_war_with_anyone(s, power) and not s.part(Declared).window:
        return None  # "if not yet at war": as the phase began
    return next((w for w in pol.windows if w.power == power and w.round == s.round
                 and w.phase == s.phase), None)


def _moved_this_turn(s: GameState, power: str) -> bool:
    return any(u.owner == power and (u.moved or u.combat_moved) for u in s.units.values())


def refusal(s: GameState, power: str, on: str) -> Msg | None:
    """Why ``power`` may not declare war on ``on`` now, or None (DW-1, DW-2, §5.4)."""
    ed = s.edition
    if _politics(s) is None:
        return msg("politics.no_politics", edition=ed.rules.title)
    if on == power or s.friendly(on, power):
        return msg("politics.allies", own_rule("DW-1"), power=power, on=on)
    if s.enemy(on, power):
        return msg("politics.already", own_rule("DW-4"), power=power, on=on)
    opened = window(s, power)
    if opened is None:
        if s.phase != COMBAT or s.power != power:
            return msg("politics.when", own_rule("DW-2"), power=power,
                       windows=[(w.round, ed.phase_info[w.phase].name)
                                for w in (_politics(s) or Politics(at_war=())).windows
                                if w.power == power])
        if _moved_this_turn(s, power):
            return msg("politics.after_moves", own_rule("DW-2"), power=power)
        for ban in bans_on(s, power, on):
            if ban_holds(s, ban):
                return msg("politics.banned", ban.rule or "§5.4", power=power, on=on,
                           round=ban.until_round, war=list(ban.lifted_by_war_with),
                           capture=list(ban.lifted_by_capture), note=ban.note)
    return None


def may_declare_on(s: GameState, power: str) -> list[str]:
    """The powers ``power`` may declare war on now (none in an edition without politics)."""
    if _politics(s) is None:
        return []
    return [p for p in s.edition.turn_order if refusal(s, power, p) is None]


def provoked(s: GameState, power: str, on: str) -> bool:
    """DW-5: a ban would forbid the declaration but another power's act lifted it."""
    return any(lifted_by_event(s, b) for b in bans_on(s, power, on))


@reg.order(DeclareWar)
def decide_declare(tx: Tx, order: DeclareWar, dice: Dice) -> None:
    """``order.power`` declares war on ``order.on`` (DW-1..DW-5)."""
    s = tx.state
    if order.on not in s.edition.powers:
        raise InvalidOrder(msg("politics.unknown_power", power=order.on))
    why = refusal(s, order.power, order.on)
    if why is not None:
        raise IllegalOrder(why)
    opened = window(s, order.power)
    loading: tuple[str, ...] = ()
    if s.phase == COMBAT:
        after = with_war(s, order.power, order.on)
        ed = s.edition
        zones = {u.space for u in s.units.values()
                 if u.owner == order.power and ed.is_sea(u.space)
                 and ed.units[u.type].abilities.transport_capacity}
        loading = tuple(sorted(z for z in zones if board.is_hostile_sea(after, z, order.power)
                               and not board.is_hostile_sea(s, z, order.power)))
    rule = (opened.rule or "§5.4") if opened is not None else own_rule("DW-2")
    tx.emit(WarDeclared(power=order.power, on=order.on,
                        provoked=provoked(s, order.power, order.on), rule=rule,
                        loading=loading, window=opened is not None))
    del dice


@reg.evolver(WarDeclared)
def _ev_declared(s: GameState, e: WarDeclared) -> GameState:
    s = with_war(s, e.power, e.on)
    if e.loading or e.window:
        d = s.part(Declared)
        s = s.with_part(replace(d, loading=d.loading | frozenset(e.loading),
                                window=d.window or e.window))
    return s


def _may_load(s: GameState, zone: str, power: str) -> bool:
    """DW-3: the declarer's transports in a zone its declaration just made hostile."""
    return s.phase == COMBAT and zone in s.part(Declared).loading


hooks.hostile_loading(_may_load)


# --------------------------------------------------------------------------------------------
# Bans lifted by a capture (§5.4): remembered when the acting power's combat is over


def _note_captures(tx: Tx, initial: bool) -> None:
    s = tx.state
    pol = _politics(s)
    if pol is None:
        return
    known = set(s.part(War).taken)
    for t in dict.fromkeys(t for b in pol.bans for t in b.lifted_by_capture):
        owner = s.owners.get(t)
        if t in known or owner is None:
            continue
        lifted = [b for b in pol.bans if t in b.lifted_by_capture
                  and s.side(owner) != s.side(b.power)]
        if not lifted:
            continue
        known.add(t)
        tx.emit(BansLifted(space=t, by=owner, powers=tuple(dict.fromkeys(b.power for b in lifted)),
                           on=tuple(dict.fromkeys(p for b in lifted for p in b.on)),
                           rule=lifted[0].rule or "§5.4"))


@reg.evolver(BansLifted)
def _ev_lifted(s: GameState, e: BansLifted) -> GameState:
    war = s.part(War)
    return s.with_part(replace(war, taken=(*war.taken, e.space)))


reg.phase(board.NONCOMBAT).enter.append(_note_captures)


# --------------------------------------------------------------------------------------------
# Powers at war with nobody (NW-5), and the phases that wait for a declaration (§5.4)


def _neutral(s: GameState) -> bool:
    return _politics(s) is not None and not at_war_with_anyone(s, s.power)


def _skip_combat_move(s: GameState) -> str | None:
    """NW-5: no Combat Move for a power at war with nobody that may not declare war at its
    start."""
    if not _neutral(s):
        return None
    return None if may_declare_on(replace(s, phase=COMBAT), s.power) else own_rule("NW-5")


def _skip_conduct_combat(s: GameState) -> str | None:
    return own_rule("NW-5") if _neutral(s) else None


reg.phase(COMBAT).skip.append(_skip_combat_move)
reg.phase(CONDUCT).skip.append(_skip_conduct_combat)


def _window_open(s: GameState) -> bool:
    """A window (§5.4) holds the phase for the acting power while it may declare war."""
    return window(s, s.power) is not None and bool(may_declare_on(s, s.power))


def _hold_phases(pol_windows: tuple[str, ...]) -> None:
    for pid in pol_windows:
        handler = reg.phase(pid)
        if _window_open not in handler.busy:
            handler.busy.append(_window_open)
            handler.absent_ends = True  # an absent power declares nothing (§5.4)


# The phases an edition may open a window in: Collect Income (the USA, round 3).
_hold_phases(("collect_income",))


def _check_move(s: GameState, order: od.Move) -> None:
    """NW-5: a power at war with nobody makes no combat moves; §5.4: naval limits."""
    pol = _politics(s)
    if pol is None:
        return
    if s.phase == COMBAT and not at_war_with_anyone(s, order.power):
        raise IllegalOrder(msg("politics.no_combat_move", own_rule("NW-5"), power=order.power,
                               may=may_declare_on(s, order.power)))
    for lim in pol.naval_limits:
        if lim.power == order.power:
            _check_naval_limit(s, order, lim)


def _check_naval_limit(s: GameState, order: od.Move, lim: NavalLimit) -> None:
    """§5.4: while at war with none of ``while_at_peace_with``, sea units end their moves only
    next to a territory the power controls; warships may also patrol to ``patrol_zones``."""
    ed = s.edition
    if any(s.enemy(lim.power, p) for p in lim.while_at_peace_with):
        return
    to = order.to
    ships = [n for n in order.units if ed.units[n].domain == "sea"]
    if not ships or not ed.is_sea(to):
        return
    if any(s.owners.get(t) == lim.power for t in ed.neighbours[to] if not ed.is_sea(t)):
        return
    if to in lim.patrol_zones and all(ed.units[n].abilities.warship for n in ships):
        return
    raise IllegalOrder(msg("politics.naval_limit", lim.rule or "§5.4", power=lim.power,
                           zone=to, foes=list(lim.while_at_peace_with),
                           patrol=list(lim.patrol_zones),
                           transports=to in lim.patrol_zones))


hooks.move_rule(hooks.MoveRule(check=_check_move, mark=lambda s, o, m: m))


# --------------------------------------------------------------------------------------------
# Legal candidates


@reg.candidates(COMBAT, first=True)
def _candidates(s: GameState, power: str) -> Iterator[od.Order]:
    """A declaration on each power of the other side not at war with ``power`` (checked)."""
    if _politics(s) is None:
        return
    for p in s.edition.turn_order:
        if s.at_peace(p, power):
            yield DeclareWar(power=power, on=p)


reg.candidates("collect_income", first=True)(_candidates)


# --------------------------------------------------------------------------------------------
# The position key 'war' (COMMANDS.md): the complete list of pairs at war


def _read_war(ed: Edition, value: Any) -> list[list[str]]:
    from rules.language.names import names_for

    if ed.rules.politics is None:
        raise InvalidOrder(msg("politics.position_none", edition=ed.rules.title))
    if not isinstance(value, list | tuple):
        raise InvalidOrder(msg("politics.position_list"))
    names = names_for(ed.id)
    out: set[Pair] = set()
    for item in value:
        if not isinstance(item, list | tuple) or len(item) != 2 \
                or not all(isinstance(x, str) for x in item):
            raise InvalidOrder(msg("politics.position_pair", item=item))
        a, b = (names.resolve("power", x) for x in item)
        if ed.side_of(a) == ed.side_of(b):
            raise InvalidOrder(msg("politics.position_allies", "P-6", a=a, b=b))
        out.add(pair(ed, a, b))
    return [list(p) for p in _ordered(ed, out)]


def _build_war(ed: Edition, part: War, value: list[list[str]]) -> War:
    return replace(part, pairs=tuple((a, b) for a, b in value))


def _write_war(s: GameState) -> list[list[str]] | None:
    ed = s.edition
    if ed.rules.politics is None:
        return None
    return [list(p) for p in _ordered(ed, {pair(ed, *sorted(x, key=ed.turn_order.index))
                                           for x in at_war_pairs(s)})]


reg.part(War, key="war", per_turn=False,
         position={"pairs": Written(("war",)),
                   "taken": NotCarried("territories whose capture lifted a ban on declaring "
                                       "war (§5.4): a position counts those the other side "
                                       "holds")},
         keys=[PartKey("war", _read_war, _build_war, _write_war)])
reg.part(Declared, key="declared", per_turn=True,
         position={"loading": within_turn("sea zones where transports may load after a "
                                          "declaration of war"),
                   "window": within_turn("a declaration of war made in a window (§5.4)")})


# --------------------------------------------------------------------------------------------
# Words


@reg.words(WarDeclared)
def _declared_words(s: GameState, e: WarDeclared) -> Msg:
    return msg("politics.declared", e.rule, power=e.power, on=e.on, provoked=e.provoked,
               loading=list(e.loading))


@reg.words(BansLifted)
def _lifted_words(s: GameState, e: BansLifted) -> Msg:
    return msg("politics.lifted", e.rule, space=e.space, by=e.by, powers=list(e.powers),
               on=list(e.on))


def _declared_text(p: Mapping[str, Any]) -> str:
    how = " (provoked)" if p["provoked"] else ""
    load = (f" Its transports in {', '.join(p['loading'])} may still load there this Combat "
            f"Move ({own_rule('DW-3')})." if p["loading"] else "")
    who = _the(p["power"], capital=True)
    return f"{who} declares war on {_the(p['on'])}{how} ({p['rule']}).{load}"


def _when(p: Mapping[str, Any]) -> str:
    extra = "".join(f"; in round {r} also at the start of its {ph}" for r, ph in p["windows"])
    return (f"{_the(p['power'], capital=True)} declares war only on its own turn, at the start "
            f"of its Combat Move before any unit moves{extra} ({p['rule']}).")


def _banned(p: Mapping[str, Any]) -> str:
    unless = []
    if p["war"]:
        unless.append(f"{' or '.join(p['war'])} declares war on it first")
    if p["capture"]:
        held = p["capture"]
        where = held[0] if len(held) == 1 else f"any of {', '.join(held)}"
        unless.append(f"the other side takes {where}")
    before = f" before round {p['round']}" if p["round"] is not None else ""
    cond = f", unless {' or '.join(unless)}" if unless else ""
    note = f" {p['note']}" if p["note"] else ""
    who = _the(p["power"], capital=True)
    return f"{who} may not declare war on {_the(p['on'])}{before}{cond} ({p['rule']}).{note}"


def _no_combat_move(p: Mapping[str, Any]) -> str:
    may = p["may"]
    then = (f" Declare war first ('declare war on {may[0]}'), or 'end' the phase."
            if may else " Use 'end'.")
    return (f"{_the(p['power'], capital=True)} is at war with nobody: a power not at war makes no "
            f"combat moves ({p['rule']}).{then}")


def _naval_limit(p: Mapping[str, Any]) -> str:
    foes = " nor ".join(_the(f) for f in p["foes"])
    patrol = (f"; its warships, not transports, may also patrol to {' or '.join(p['patrol'])}"
              if p["patrol"] else "")
    return (f"While {_the(p['power'])} is at war with neither {foes}, its sea units end their "
            f"moves only in sea zones next to a territory it controls{patrol} ({p['rule']}); "
            f"{p['zone']} is not one.")


def _lifted_text(p: Mapping[str, Any]) -> str:
    who = " and ".join(_the(x) for x in p["powers"])
    on = " and ".join(_the(x) for x in p["on"])
    by = _the(p["by"], capital=True)
    rule = rule_suffix(p["rule"])
    return f"{by} holds {p['space']}: {who} may declare war on {on} from now on{rule}."


catalogue("en", "politics", {
    "declared": _declared_text,
    "lifted": _lifted_text,
    "no_politics": "In {edition} the powers of opposite sides are at war throughout: there is "
                   "no war to declare.",
    "unknown_power": "Unknown power {power!r}.",
    "allies": "{power:the:cap} and {on:the} are on one side; a power declares war only on a "
              "power of the other side ({rule}).",
    "already": "{power:the:cap} is already at war with {on:the} ({rule}).",
    "when": _when,
    "after_moves": "{power:the:cap} has moved units in this Combat Move: war is declared at its "
                   "start, before any unit moves ({rule}).",
    "banned": _banned,
    "no_combat_move": _no_combat_move,
    "naval_limit": _naval_limit,
    "position_none": "Position war: in {edition} the powers of opposite sides are at war "
                     "throughout; leave 'war' out.",
    "position_list": 'Position war: a list of pairs of powers at war, e.g. [["Germany", '
                     '"France"]]; an empty list: nobody is at war.',
    "position_pair": "Position war: {item!r} is not a pair of power names.",
    "position_allies": "Position war: {a} and {b} are allies; allies are never at war ({rule}).",
})
