"""Position files: the state's position document (docs/positions.md), read and written.

A position is the human-oriented form of the state (``rules/codec.py`` has the full one): the
keys of a position file, which ``state`` prints too. ``FIELDS`` says, for every field of the
state's model and of every dataclass it holds (``codec.model_types``: ``GameState``, ``Unit``,
``BattleState``, ``TurnMarks``) and of every mechanism's part (``rules.state.Parts``, declared
with the part by ``rules.turn.registry.part``), under which keys a position writes it and reads
it back, or why a position does not carry it: it follows from what is written, or it is
bookkeeping within a turn (a position starts its phase afresh). A model with a field ``FIELDS``
does not declare is refused (``UndeclaredField``) by ``state_json`` and ``canonical``, so a
field added to ``rules/state.py`` cannot silently be lost from positions.

Reading: names are read as orders read them (``language.Names``: any case, the same
aliases), and ``canonical`` returns the position in data names only, which is what
``GameStarted`` records; ``build_start`` makes the state from it when the engine folds that
event. Keys that ``state`` prints but that follow from the others (``income``, ``battles``,
``winner``) may be left in a position; they are checked against the game the position starts
(``check_derived``), never obeyed. Writing: ``state_json``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules import codec
from rules.edition import Edition, phase_id
from rules.errors import InvalidOrder
from rules.messages import Msg, catalogue, msg
from rules.state import BattleState, GameState, TurnMarks, Unit, part_infos
from rules.words import possessive

# --------------------------------------------------------------------------------------------
# What a position does with each field of the state


@dataclass(frozen=True, slots=True)
class Written:
    """The field is written under these keys and read back from them."""

    keys: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Derived:
    """The field is not written: reading a position computes it from what is written."""

    why: str


@dataclass(frozen=True, slots=True)
class NotCarried:
    """The field is not written, and a position starts without it (``why``)."""

    why: str


Treatment = Written | Derived | NotCarried


def _written(*keys: str) -> Written:
    return Written(keys)


_TURN = "bookkeeping within a turn (a position starts its phase afresh): "


def within_turn(what: str) -> NotCarried:
    """A field that is bookkeeping within a turn: a position starts its phase afresh."""
    return NotCarried(_TURN + what)


_BATTLE = "a battle's progress (a position in Conduct Combat opens its battles afresh): "
_SIDES = ("a battle is opened wherever enemies share a space, attacked by the power whose "
          "turn it is: ")

FIELDS: dict[type, dict[str, Treatment]] = {
    GameState: {
        "edition": _written("edition"),
        "options": _written("options"),
        "round": _written("round"),
        "power": _written("power"),
        "phase": _written("phase"),
        "treasury": _written("treasury"),
        "owners": _written("owners"),
        "units": _written("units", "damaged", "clear_all_units"),
        "next_id": Derived("the number of the next new piece: pieces are numbered afresh, in "
                           "board order, when a position is read"),
        "purchase": _written("purchase"),
        "placed": NotCarried(_TURN + "units placed this turn, per space (Mobilize)"),
        "turn_start_owners": NotCarried(_TURN + "the owners at the start of the turn; a "
                                        "position's turn starts with the owners it gives"),
        "battles": NotCarried(_BATTLE + "'battles', which state writes, is checked against "
                              "the battles the position opens, never obeyed"),
        "standing": _written("standing"),
        "winner": NotCarried("a position starts a game in play: 'winner', which state writes, "
                             "must be null"),
        "seq": NotCarried("the number of events applied: a game started from a position "
                          "counts its own log"),
        "started": NotCarried("whether the game has begun: a position starts it"),
        "carrier_promises": NotCarried(_TURN + "carriers promised to fighters in the air "
                                       "(AIR-5)"),
        "captured_this_turn": NotCarried(_TURN + "territories captured this turn"),
        "techs": _written("techs"),
        "debts": _written("debts"),
        "marks": NotCarried(_TURN + "what the power whose turn it is has done this turn"),
        "parts": NotCarried("the mechanisms' parts: each part declares its own fields where "
                            "it is registered (rules.turn.registry.part)"),
        "ended": NotCarried("a game over without a winner (a draw, cancelled): a position "
                            "starts a game in play"),
    },
    Unit: {
        "id": Derived("pieces are numbered afresh, in board order, when a position is read"),
        "type": _written("units"),
        "owner": _written("units"),
        "space": _written("units"),
        "carried_by": Derived("a land unit (a fighter) listed in a sea zone is put aboard the "
                              "first friendly transport (carrier) there with room"),
        "moved": NotCarried(_TURN + "movement points used this turn"),
        "combat_moved": NotCarried(_TURN + "moved in Combat Move"),
        "stopped": NotCarried(_TURN + "may not move again this phase"),
        "fought": NotCarried(_TURN + "took part in a battle this turn"),
        "damage": _written("damaged"),
        "loaded": NotCarried(_TURN + "cargo loaded this turn"),
        "offloaded": NotCarried(_TURN + "transport offloaded this turn"),
        "assault": NotCarried(_TURN + "cargo's declared amphibious assault"),
        "came_from": NotCarried(_TURN + "the space a piece moved from (retreats)"),
        "start": NotCarried(_TURN + "the space at the start of the turn; a position's pieces "
                            "start the turn where it puts them"),
        "retreated": NotCarried(_TURN + "transport retreated this turn"),
        "stranded": NotCarried(_TURN + "a defending fighter whose carrier sank"),
    },
    TurnMarks: {
        "moved_noncombat": NotCarried(_TURN + "a unit moved in this Noncombat Move"),
        "new_factories": NotCarried(_TURN + "industrial complexes placed this turn"),
    },
    BattleState: {
        "space": Derived(_SIDES + "its space"),
        "attacker": Derived(_SIDES + "its attacker"),
        "defenders": Derived(_SIDES + "its defenders"),
        "sea": Derived(_SIDES + "whether it is a sea battle"),
        "amphibious": NotCarried(_BATTLE + "an amphibious assault is declared in Combat Move"),
        "round": NotCarried(_BATTLE + "the round"),
        "step": NotCarried(_BATTLE + "what it waits for"),
        "attacking": Derived(_SIDES + "the attacker's pieces there"),
        "defending": Derived(_SIDES + "the defenders' pieces there"),
        "owed": NotCarried(_BATTLE + "hits owed this round"),
        "pending_casualties": NotCarried(_BATTLE + "hits already assigned"),
        "blocked_by": NotCarried(_BATTLE + "a sea battle to be resolved first"),
        "seaborne": NotCarried(_BATTLE + "land units arriving from transports"),
        "submerged": NotCarried(_BATTLE + "submarines submerged"),
        "fired": NotCarried(_BATTLE + "the stages fought this round"),
        "striking": NotCarried(_BATTLE + "submarines making a surprise strike"),
        "owed_cats": NotCarried(_BATTLE + "hits owed by category"),
        "hostile_at_start": NotCarried(_BATTLE + "enemy warships in the zone this turn"),
        "launched": NotCarried(_BATTLE + "fighters launched from an attacking carrier"),
        "bombarding": NotCarried(_BATTLE + "battleships giving the support shot"),
        "to_the_end": NotCarried(_BATTLE + "'battle <space> all'"),
    },
}


@dataclass(frozen=True, slots=True)
class PartKey:
    """A position key under which a mechanism's part of the state is written (registered with
    the part, ``rules.turn.registry.part(..., keys=...)``): ``read(edition, value)`` is the
    key's value with names resolved (raise ``InvalidOrder`` for a bad one), ``build(edition,
    part, value)`` the part of a game started with it, and ``write(state)`` what 'state'
    prints under it (None: the key is left out, as in an edition without the mechanism);
    ``check(state)``, if given, refuses (raise ``InvalidOrder``) a game started with the key
    whose other keys contradict it (damage on a facility the position does not have)."""

    key: str
    read: Callable[[Edition, Any], Any]
    build: Callable[[Edition, Any, Any], Any]
    write: Callable[[GameState], Any]
    check: Callable[[GameState], None] | None = None


_PART_KEYS: dict[str, tuple[type, PartKey]] = {}


def part_keys(cls: type, keys: Iterable[PartKey]) -> None:
    """The position keys of ``cls``, a mechanism's part (``rules.turn.registry.part``)."""
    for k in keys:
        known = _PART_KEYS.get(k.key)
        if k.key in SETTING_KEYS or k.key in DERIVED_KEYS or (known and known[0] is not cls):
            raise RuntimeError(f"two meanings for the position key {k.key!r}")
        _PART_KEYS[k.key] = (cls, k)


@dataclass(frozen=True, slots=True)
class Holder:
    """A holder of pieces that is no power, named under a space in ``units`` in place of a
    power (Europe 1940's ``"neutral"``: a neutral territory's army, §6), registered by the
    mechanism whose part of the state keeps them (``holder``):

    - ``read(edition, space, units)``: refuse (raise ``InvalidOrder``) pieces it cannot hold
      there; ``units`` are unit types (data names) and counts;
    - ``build(edition, part, given)``: its part of a game started with ``given`` (space →
      units) in the position's ``units``;
    - ``write(state)``: what 'state' prints under its name (space → units);
    - ``held(state)``: ids of pieces on the board written under its name (not their owner's).
    """

    name: str
    read: Callable[[Edition, str, dict[str, int]], None]
    build: Callable[[Edition, Any, dict[str, dict[str, int]]], Any]
    write: Callable[[GameState], dict[str, dict[str, int]]]
    held: Callable[[GameState], Iterable[int]]


_HOLDERS: dict[str, tuple[type, Holder]] = {}


def holder(cls: type, spec: Holder) -> None:
    """Register ``spec``, a holder of pieces kept in ``cls``, a mechanism's part."""
    known = _HOLDERS.get(spec.name)
    if known is not None and known[0] is not cls:
        raise RuntimeError(f"two holders named {spec.name!r}")
    _HOLDERS[spec.name] = (cls, spec)


def held_apart(state: GameState) -> tuple[set[int], dict[str, dict[str, dict[str, int]]]]:
    """What holders that are no power hold (``Holder``): the ids of their pieces on the board
    (not their owner's), and space → holder → units, as 'state' writes them."""
    apart = {i for _, hold in _HOLDERS.values() for i in hold.held(state)}
    held: dict[str, dict[str, dict[str, int]]] = {}
    for name_, (_, hold) in _HOLDERS.items():
        for space, got in hold.write(state).items():
            held.setdefault(space, {})[name_] = dict(got)
    return apart, held


def _holder_named(text: str) -> str | None:
    return next((n for n in _HOLDERS if n.casefold() == text.strip().casefold()), None)


def setting_keys() -> tuple[str, ...]:
    """Every key a position may set: the state's own and the mechanisms' parts'."""
    return (*SETTING_KEYS, *_PART_KEYS)


def declare(cls: type, fields: Mapping[str, Treatment]) -> None:
    """Declare how positions treat the fields of ``cls``, a mechanism's part of the state
    (``rules.turn.registry.part`` calls it)."""
    FIELDS[cls] = dict(fields)


class UndeclaredField(TypeError):
    """The state's model has a field that ``FIELDS`` does not say how a position treats."""


def _declared(cls: type) -> dict[str, Treatment] | None:
    """``FIELDS`` for ``cls`` or the nearest class it derives from."""
    for base in cls.__mro__:
        if base in FIELDS:
            return FIELDS[base]
    return None


def undeclared(model: type = GameState) -> list[str]:
    """What ``FIELDS`` fails to say about ``model`` and the dataclasses it holds: fields with no
    treatment, treatments of fields that do not exist, keys that are not position keys, and
    position keys that no field is written under. Empty when the model is fully declared."""
    out: list[str] = []
    claimed: set[str] = set()
    for cls in [*codec.model_types(model), *(i.cls for i in part_infos())]:
        table = _declared(cls) or {}
        names = [f.name for f in dataclasses.fields(cls)]
        out += [f"{cls.__name__}.{n} is neither written nor declared derived or not carried"
                for n in names if n not in table]
        out += [f"{cls.__name__}.{n} is declared but is no field" for n in table if n not in names]
        for n, t in table.items():
            if isinstance(t, Written):
                claimed.update(t.keys)
                out += [f"{cls.__name__}.{n} is written under {k!r}, not a position key"
                        for k in t.keys if k not in setting_keys()]
    out += [f"the position key {k!r} writes no field" for k in setting_keys()
            if k not in claimed]
    return out


_CHECKED: set[tuple[type, int]] = set()


def check_model(model: type) -> None:
    """Refuse a model that a position could lose fields of (``UndeclaredField``)."""
    key = (model, len(part_infos()))
    if key in _CHECKED:
        return
    missing = undeclared(model)
    if missing:
        raise UndeclaredField(
            "The position codec does not know what to do with: " + "; ".join(missing)
            + ". Declare each field in rules/position.py's FIELDS (written under a key that "
            "canonical reads and state_json writes, or derived, or not carried, with why) and "
            "update docs/positions.md."
        )
    _CHECKED.add(key)


def positional(state: GameState) -> dict[str, Any]:
    """What a position keeps of ``state``: every field ``FIELDS`` declares written, as JSON
    data; a table of dataclasses (the pieces) as the sorted list of what each keeps."""
    check_model(type(state))

    def keep(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            table = _declared(type(value)) or {}
            return {f.name: keep(getattr(value, f.name)) for f in dataclasses.fields(value)
                    if isinstance(table.get(f.name), Written)}
        if isinstance(value, dict) and any(dataclasses.is_dataclass(v) for v in value.values()):
            return sorted((keep(v) for v in value.values()), key=repr)
        return codec.plain(value)

    return keep(state)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------------------------
# Reading: the keys, their names resolved

# Keys that set something, in the order docs/positions.md lists them.
SETTING_KEYS = (
    "edition",
    "options",
    "round",
    "power",
    "phase",
    "treasury",
    "owners",
    "units",
    "clear_all_units",
    "damaged",
    "purchase",
    "techs",
    "debts",
    "standing",
)
# Keys 'state' prints that follow from the others: checked, not obeyed.
DERIVED_KEYS = ("income", "battles", "winner")
MAX_COUNT = 999

# Where in a position a refusal points: a key ("treasury") or a place under it (``_of``,
# ``_entry``: "owners of Ukraine", "units of Germany in Ukraine, tank").
Where = str | Msg


def _of(key: str, name: str) -> Msg:
    return msg("position.of", key=key, name=name)


def _entry(where: Where, unit: str) -> Msg:
    return msg("position.entry", where=where, unit=unit)


def canonical(ed: Edition, pos: dict[str, Any]) -> dict[str, Any]:
    """The position with every name resolved to the data's; raises ``InvalidOrder``."""
    from rules.language.names import names_for

    check_model(GameState)
    names = names_for(ed.id)
    allowed = (*setting_keys(), *DERIVED_KEYS)
    extra = [k for k in pos if k not in allowed]
    if extra:
        raise InvalidOrder(msg("position.unknown_keys", keys=sorted(extra), allowed=allowed))

    def name(kind: str, text: Any, where: Where) -> str:
        if not isinstance(text, str):
            raise InvalidOrder(msg("position.not_a_name", where=where, text=text))
        try:
            return names.resolve(kind, text)  # type: ignore[arg-type]
        except InvalidOrder as e:
            raise InvalidOrder(msg("position.refused", where=where, reason=e.msg or e.reason)
                               ) from None

    def mapping(v: Any, where: Where) -> dict[str, Any]:
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise InvalidOrder(msg("position.not_an_object", where=where, value=v))
        return v

    def keyed(kind: str, v: Any, where: Where) -> dict[str, Any]:
        """An object whose keys are names of ``kind``: resolved, each named once."""
        out: dict[str, Any] = {}
        spelt: dict[str, str] = {}
        for k, x in mapping(v, where).items():
            data_name = name(kind, k, where)
            if data_name in out:
                raise InvalidOrder(msg("position.twice", where=where, first=spelt[data_name],
                                       second=k, name=data_name))
            out[data_name] = x
            spelt[data_name] = k
        return out

    def count(n: Any, where: Where) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n > MAX_COUNT:
            raise InvalidOrder(msg("position.bad_count", where=where, count=n, most=MAX_COUNT))
        return n

    def units_table(v: Any, key: str) -> dict[str, dict[str, dict[str, int]]]:
        table: dict[str, dict[str, dict[str, int]]] = {}
        for space, by_power in keyed("space", v, key).items():
            table[space] = {}
            given = mapping(by_power, _of(key, space))
            held = {k: x for k, x in given.items()
                    if key == "units" and _holder_named(k)}
            powers = {k: x for k, x in given.items() if k not in held}
            for p, units in keyed("power", powers, _of(key, space)).items():
                where = msg("position.of_in", key=key, power=p, space=space)
                table[space][p] = {u: count(n, _entry(where, u))
                                   for u, n in keyed("unit", units, where).items()}
            for k, units in held.items():
                name_ = _holder_named(k) or k
                where = msg("position.of_in", key=key, power=name_, space=space)
                got = {u: count(n, _entry(where, u))
                       for u, n in keyed("unit", units, where).items()}
                _HOLDERS[name_][1].read(ed, space, got)
                table[space][name_] = got
        return table

    out: dict[str, Any] = {}
    if "edition" in pos:
        out["edition"] = ed.id
    if "options" in pos:
        opts = pos["options"]
        if not isinstance(opts, list | tuple) or not all(isinstance(o, str) for o in opts):
            raise InvalidOrder(msg("position.options"))
        unknown = [o for o in opts if o not in ed.rules.options]
        if unknown:
            raise InvalidOrder(msg("position.unknown_options", unknown=unknown,
                                   options=list(ed.rules.options)))
        out["options"] = sorted(set(opts))
    if "round" in pos:
        rnd = pos["round"]
        if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
            raise InvalidOrder(msg("position.round"))
        out["round"] = rnd
    if "power" in pos:
        out["power"] = name("power", pos["power"], "power")
    if "phase" in pos:
        out["phase"] = phase_id(ed, pos["phase"])
    if "treasury" in pos:
        out["treasury"] = {}
        for p, v in keyed("power", pos["treasury"], "treasury").items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidOrder(msg("position.treasury", "PU-3", power=p, value=v))
            out["treasury"][p] = v
    if "owners" in pos:
        out["owners"] = {}
        for t, o in keyed("space", pos["owners"], "owners").items():
            if ed.is_sea(t):
                raise InvalidOrder(msg("position.sea_owned", space=t))
            owner = None if o is None else name("power", o, _of("owners", t))
            if ed.spaces[t].impassable and owner is not None:
                raise InvalidOrder(msg("position.impassable", "MAP-8", space=t))
            out["owners"][t] = owner
    if "units" in pos:
        out["units"] = units_table(pos["units"], "units")
    if "clear_all_units" in pos:
        if not isinstance(pos["clear_all_units"], bool):
            raise InvalidOrder(msg("position.clear_all_units"))
        out["clear_all_units"] = pos["clear_all_units"]
    if "damaged" in pos:
        out["damaged"] = units_table(pos["damaged"], "damaged")
        for space, by_power in out["damaged"].items():
            for units in by_power.values():
                for u in units:
                    if ed.units[u].hits < 2:
                        two = [t.name for t in ed.units.values() if t.hits >= 2]
                        raise InvalidOrder(msg("position.one_hit", unit=u, space=space, two=two,
                                               edition=ed.rules.title))
    if "purchase" in pos:
        out["purchase"] = {}
        for u, n in keyed("unit", pos["purchase"], "purchase").items():
            if ed.units[u].cost is None:
                raise InvalidOrder(msg("position.not_for_sale", unit=u))
            out["purchase"][u] = count(n, _entry("purchase", u))
    if "techs" in pos:
        out["techs"] = {}
        for p, ts in keyed("power", pos["techs"], "techs").items():
            out["techs"][p] = developments(ed, ts, _of("techs", p))
    if "debts" in pos:
        out["debts"] = {}
        for p, v in keyed("power", pos["debts"], "debts").items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidOrder(msg("position.debts", power=p, value=v))
            out["debts"][p] = v
    if "standing" in pos:
        out["standing"] = {}
        for p, ts in keyed("power", pos["standing"], "standing").items():
            if not isinstance(ts, list | tuple):
                raise InvalidOrder(msg("position.standing", power=p))
            order = [name("unit", t, _of("standing", p)) for t in ts]
            if len(set(order)) != len(order):
                raise InvalidOrder(msg("position.standing_twice", power=p))
            out["standing"][p] = order
    for k, (_, spec) in _PART_KEYS.items():
        if k in pos:
            out[k] = spec.read(ed, pos[k])
    for k in DERIVED_KEYS:
        if k in pos:
            out[k] = pos[k]
    return out


def developments(ed: Edition, ts: Any, where: Where) -> list[str]:
    """Weapons development ids from ids, names or aliases (R-TEC-05), each once, as listed."""
    from rules.language.names import names_for
    from rules.language.units import development_ids

    if not isinstance(ts, list | tuple):
        raise InvalidOrder(msg("position.developments", where=where))
    if ts and not ed.developments:
        raise InvalidOrder(msg("position.no_developments", where=where, edition=ed.rules.title))
    out: list[str] = []
    for t in ts:
        if not isinstance(t, str):
            raise InvalidOrder(msg("position.not_a_development", where=where, text=t))
        try:
            ids = development_ids(t, names_for(ed.id))
        except InvalidOrder as e:
            raise InvalidOrder(msg("position.refused", where=where, reason=e.msg or e.reason)
                               ) from None
        out += [i for i in ids if i not in out]
    return out


def check_derived(pos: dict[str, Any], state_doc: dict[str, Any]) -> None:
    """The keys that follow from the others agree with the game the position starts."""
    if "income" in pos:
        given = pos["income"]
        if not isinstance(given, dict):
            raise InvalidOrder(msg("position.income"))
        for p, n in given.items():
            real = state_doc["income"].get(p)
            if n != real:
                raise InvalidOrder(msg("position.income_differs", "P-4", power=p, given=n,
                                       real=real))
    if "battles" in pos:
        given = pos["battles"]
        if not isinstance(given, list) or sorted(map(str, given)) != sorted(state_doc["battles"]):
            raise InvalidOrder(msg("position.battles_differ", given=given,
                                   real=list(state_doc["battles"])))
    if pos.get("winner") is not None:
        raise InvalidOrder(msg("position.winner"))


# --------------------------------------------------------------------------------------------
# Writing: the state document ('state', COMMANDS.md)


def state_json(state: GameState) -> dict[str, Any]:
    """The state document of 'state': the keys of a position file (docs/positions.md), so that
    it loads back as one, plus income, battles and winner."""
    check_model(type(state))
    ed = state.edition
    units: dict[str, dict[str, dict[str, int]]] = {}
    damaged: dict[str, dict[str, dict[str, int]]] = {}
    apart, held = held_apart(state)
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.id in apart:
            continue  # written under its holder
        for table in (units, damaged) if u.damage else (units,):
            pw = table.setdefault(u.space, {}).setdefault(u.owner, {})
            pw[u.type] = pw.get(u.type, 0) + 1
    for space, by_holder in held.items():
        units.setdefault(space, {}).update(by_holder)
    space_order = {name: i for i, name in enumerate(ed.spaces)}
    powers = [p for p in ed.powers]
    return {
        "edition": ed.id,
        "options": sorted(state.options),
        "round": state.round,
        "power": state.power,
        "phase": state.phase,
        "treasury": dict(state.treasury),
        "income": state.income(),
        "owners": {t: state.owners[t] for t in sorted(state.owners, key=space_order.__getitem__)},
        "units": {s: units[s] for s in sorted(units, key=space_order.__getitem__)},
        "clear_all_units": True,
        "damaged": {s: damaged[s] for s in sorted(damaged, key=space_order.__getitem__)},
        "purchase": {u: n for u, n in state.purchase.items() if n},
        "techs": {p: list(state.techs[p]) for p in powers if state.techs.get(p)},
        "debts": {p: state.debts[p] for p in powers if state.debts.get(p)},
        "standing": {p: list(state.standing[p]) for p in powers if state.standing.get(p)},
        **{k: v for k, (_, spec) in _PART_KEYS.items() if (v := spec.write(state)) is not None},
        "battles": [s for s, b in state.battles.items() if b.step != "done"],
        "winner": state.winner,
    }


# --------------------------------------------------------------------------------------------
# Reading: the state a position starts from (the fold of GameStarted)


def build_start(ed: Edition, options: Iterable[str], pos: dict[str, Any] | None) -> GameState:
    """The state of a game that starts from the edition's setup with the canonical position
    ``pos`` (None: the setup itself), before its first turn."""
    check_model(GameState)
    opts = frozenset(options)
    pos = pos or {}
    owners: dict[str, str | None] = {
        s.name: (None if s.impassable else s.original_owner)
        for s in ed.map.spaces
        if s.kind == "land"
    }
    setup = ed.map.setup
    if "errata" in opts:
        setup = ed.map.setup_variants.get("errata", setup)
        owners.update(ed.map.owners_variants.get("errata", {}))
    owners.update(pos.get("owners") or {})
    table: dict[str, dict[str, dict[str, int]]] = {
        s: {p: dict(u) for p, u in bp.items()} for s, bp in setup.items()
    }
    if pos.get("clear_all_units"):
        # Industrial complexes are printed on the board (UL-4): clearing pieces keeps them.
        table = {
            s: {p: {u: n for u, n in us.items() if ed.units[u].abilities.factory}
                for p, us in bp.items()}
            for s, bp in table.items()
        }
    held: dict[str, dict[str, dict[str, int]]] = {}  # holder -> space -> units (``Holder``)
    for space, by_power in (pos.get("units") or {}).items():
        given = {p: {u: n for u, n in us.items() if n > 0} for p, us in by_power.items()
                 if p not in _HOLDERS}
        for name_ in (p for p in by_power if p in _HOLDERS):
            held.setdefault(name_, {})[space] = {u: n for u, n in by_power[name_].items() if n}
        if not any(ed.units[k].abilities.factory for us in by_power.values() for k in us):
            # A printed industrial complex stays unless the position names one (UL-4).
            for holder, kept in table.get(space, {}).items():
                for kind, n in kept.items():
                    if ed.units[kind].abilities.factory:
                        given.setdefault(holder, {})[kind] = n
        table[space] = given
    units: dict[int, Unit] = {}
    next_id = 1
    damaged = pos.get("damaged") or {}
    for space in damaged:
        if not any(damaged[space].values()) or space in table:
            continue
        raise InvalidOrder(msg("position.nothing_damaged", space=space))
    for space in sorted(table, key=lambda s: list(ed.spaces).index(s)):
        by_power = table[space]
        sea = ed.is_sea(space)
        placed: list[Unit] = []
        # Ships first, then their cargo (fighters on carriers, land units on transports).
        # Larger cargo first, so that "2 transports, 2 tanks, 2 infantry" fits (UT-7).
        order = sorted(
            ((p, u, n) for p, us in by_power.items() for u, n in us.items()),
            key=lambda x: (ed.units[x[1]].domain != ("sea" if sea else "land"),
                           -ed.units[x[1]].abilities.transport_cost, x[0], x[1]),
        )
        for p, utype, n in order:
            for _ in range(n):
                carried: int | None = None
                ut = ed.units[utype]
                if sea and ut.domain != "sea":
                    carried = _find_berth(ed, placed, p, utype, owners)
                u = Unit(id=next_id, type=utype, owner=p, space=space, carried_by=carried,
                         start=space)
                next_id += 1
                placed.append(u)
        for p, dmg in (damaged.get(space) or {}).items():
            for utype, n in dmg.items():
                cands = [u for u in placed if u.owner == p and u.type == utype and u.damage == 0]
                if len(cands) < n:
                    raise InvalidOrder(msg("position.too_few_damaged", count=n, power=p,
                                           unit=utype, space=space, there=len(cands)))
                for u in cands[:n]:
                    placed[placed.index(u)] = replace(u, damage=1)
        for u in placed:
            units[u.id] = u
    # Industrial complexes and other facilities belong to whoever controls their territory
    # (UL-4, FA-3).
    for uid, u in list(units.items()):
        if ed.units[u.type].abilities.fixed:
            o = owners.get(u.space)
            if o is not None and o != u.owner:
                units[uid] = replace(u, owner=o)
    treasury = {p: ed.powers[p].starting_treasury for p in ed.powers}
    treasury.update(pos.get("treasury") or {})
    first = ed.turn_order[0]
    start = GameState(
        edition=ed,
        options=opts,
        round=int(pos.get("round", 1)),
        power=str(pos.get("power", first)),
        phase=ed.phase_ids[0],
        treasury=treasury,
        owners=owners,
        units=units,
        next_id=next_id,
        turn_start_owners=dict(owners),
        # Classic O-3: developments some powers start with when the option is chosen; a
        # position's 'techs' gives each power named its complete list.
        techs={p: tuple(ts) for p, ts in {**ed.ruleset(opts).starting_techs,
                                          **(pos.get("techs") or {})}.items() if ts},
        debts={p: n for p, n in (pos.get("debts") or {}).items() if n},
        standing={p: tuple(ts) for p, ts in (pos.get("standing") or {}).items() if ts},
    )
    for k, (cls, spec) in _PART_KEYS.items():
        if k in pos:
            start = start.with_part(spec.build(ed, start.part(cls), pos[k]))
    for name_, (cls, hold) in _HOLDERS.items():
        if name_ in held:
            start = start.with_part(hold.build(ed, start.part(cls), held[name_]))
    for k, (_, spec) in _PART_KEYS.items():
        if k in pos and spec.check is not None:
            spec.check(start)
    return start


def _find_berth(
    ed: Edition, placed: list[Unit], power: str, utype: str, owners: dict[str, str | None]
) -> int | None:
    ut = ed.units[utype]
    side = ed.powers[power].side
    for host in placed:
        ht = ed.units[host.type]
        if ed.powers[host.owner].side != side:
            continue
        if ut.domain == "air" and ut.abilities.carrier_landable and ht.abilities.carrier_capacity:
            aboard = sum(1 for x in placed if x.carried_by == host.id)
            if aboard < ht.abilities.carrier_capacity:
                return host.id
        if ut.domain == "land" and ht.abilities.transport_capacity:
            used = sum(ed.units[x.type].abilities.transport_cost for x in placed
                       if x.carried_by == host.id)
            if used + ut.abilities.transport_cost <= ht.abilities.transport_capacity:
                return host.id
    raise InvalidOrder(msg("position.no_berth", "UC-2/UT-7", power=power, unit=utype,
                           domain=ut.domain))


# --------------------------------------------------------------------------------------------
# The words of its refusals


def _one_hit(p: Mapping[str, Any]) -> str:
    which = (f"only units that take two hits ({', '.join(p['two'])}) can be" if p["two"]
             else f"no unit of {p['edition']} can be")
    return (f"Position damaged: {p['unit']} in {p['space']} is lost at its first hit; {which} "
            "damaged.")


catalogue("en", "position", {
    "of": "{key} of {name}",
    "of_in": "{key} of {power} in {space}",
    "entry": "{where}, {unit}",
    "unknown_keys": lambda p: (f"Unknown keys in position: {', '.join(map(repr, p['keys']))}. "
                               f"Allowed: {', '.join(p['allowed'])} (docs/positions.md)."),
    "not_a_name": "Position {where}: {text!r} is not a name.",
    "refused": "Position {where}: {reason}",
    "not_an_object": "Position {where} must be an object (name: value), not {value!r}.",
    "twice": "Position {where}: {first!r} and {second!r} both name {name}; give it once.",
    "bad_count": "Position {where}: bad count {count!r} (a whole number 0 to {most}).",
    "options": "Position options must be a list of option names.",
    "unknown_options": lambda p: (f"Position options: unknown {', '.join(map(repr, p['unknown']))}"
                                  f". Options: {', '.join(p['options'])}."),
    "round": "Position round must be a whole number from 1.",
    "treasury": "Position treasury: {power} {value!r} ({rule}: never negative).",
    "sea_owned": "Position owners: {space} is a sea zone; only territories are owned.",
    "impassable": "{space} is neutral and impassable; it cannot be owned ({rule}).",
    "clear_all_units": "Position clear_all_units must be true or false.",
    "one_hit": _one_hit,
    "not_for_sale": "Position purchase: a {unit} cannot be bought.",
    "debts": "Position debts: {power} {value!r} (a whole number of IPCs from 0).",
    "standing": "Position standing of {power}: a list of unit types, cheapest lost first, e.g. "
                "[\"infantry\", \"tank\"].",
    "standing_twice": "Position standing of {power}: name each unit type once.",
    "developments": "Position {where}: a list of developments, e.g. [\"jet_power\"].",
    "no_developments": "Position {where}: {edition} has no weapons developments.",
    "not_a_development": "Position {where}: {text!r} is not a development.",
    "income": "Position income must be an object (power: IPCs), as 'state' prints it.",
    "income_differs": "Position income: {power} {given!r}, but the territories it holds give "
                      "{real} (income follows the owners, {rule}). Leave 'income' out or change "
                      "'owners'.",
    "battles_differ": "Position battles: {given!r}, but the units given make battles in: "
                      "{real:join|none} (a battle is wherever enemies share a space). Leave "
                      "'battles' out or change 'units'.",
    "winner": "Position winner must be null: a position starts a game in play.",
    "nothing_damaged": "Position damaged: no units in {space} to be damaged.",
    "too_few_damaged": lambda p: (
        f"Position damaged: {p['count']} of {p['power']}'s {p['unit']} in {p['space']}, but "
        f"{p['there']} {'is' if p['there'] == 1 else 'are'} there."),
    "no_berth": lambda p: (
        f"No room for {possessive(p['power'])} {p['unit']} at sea: it needs a friendly "
        f"{'aircraft carrier' if p['domain'] == 'air' else 'transport'} there ({p['rule']})."),
})


__all__ = [
    "DERIVED_KEYS",
    "FIELDS",
    "SETTING_KEYS",
    "Derived",
    "Holder",
    "NotCarried",
    "PartKey",
    "UndeclaredField",
    "Written",
    "build_start",
    "canonical",
    "check_derived",
    "check_model",
    "declare",
    "developments",
    "held_apart",
    "holder",
    "part_keys",
    "phase_id",
    "positional",
    "setting_keys",
    "state_json",
    "undeclared",
    "within_turn",
]
