"""Position files: a game that starts from a given position instead of the setup.

The format is documented in docs/positions.md. A position may hold everything the game's state
holds (``state`` prints the same keys): names are read as orders read them (``language.Names``:
any case, the same aliases), and ``canonical`` returns the position in data names only, which is
what ``GameStarted`` records and the engine folds. Keys that ``state`` prints but that follow from
the others (``income``, ``battles``, ``winner``) may be left in a position; they are checked
against the game the position starts (``check_derived``), never obeyed.
"""

from __future__ import annotations

from typing import Any

from rules.edition import Edition
from rules.errors import InvalidOrder

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


def canonical(ed: Edition, pos: dict[str, Any]) -> dict[str, Any]:
    """The position with every name resolved to the data's; raises ``InvalidOrder``."""
    from rules.language.names import names_for

    names = names_for(ed.id)
    allowed = (*SETTING_KEYS, *DERIVED_KEYS)
    extra = [k for k in pos if k not in allowed]
    if extra:
        raise InvalidOrder(
            f"Unknown keys in position: {', '.join(map(repr, sorted(extra)))}. "
            f"Allowed: {', '.join(allowed)} (docs/positions.md)."
        )

    def name(kind: str, text: Any, where: str) -> str:
        if not isinstance(text, str):
            raise InvalidOrder(f"Position {where}: {text!r} is not a name.")
        try:
            return names.resolve(kind, text)  # type: ignore[arg-type]
        except InvalidOrder as e:
            raise InvalidOrder(f"Position {where}: {e}") from None

    def mapping(v: Any, where: str) -> dict[str, Any]:
        if v is None:
            return {}
        if not isinstance(v, dict):
            raise InvalidOrder(f"Position {where} must be an object (name: value), not {v!r}.")
        return v

    def keyed(kind: str, v: Any, where: str) -> dict[str, Any]:
        """An object whose keys are names of ``kind``: resolved, each named once."""
        out: dict[str, Any] = {}
        spelt: dict[str, str] = {}
        for k, x in mapping(v, where).items():
            data_name = name(kind, k, where)
            if data_name in out:
                raise InvalidOrder(
                    f"Position {where}: {spelt[data_name]!r} and {k!r} both name {data_name}; "
                    "give it once."
                )
            out[data_name] = x
            spelt[data_name] = k
        return out

    def count(n: Any, where: str) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n > MAX_COUNT:
            raise InvalidOrder(f"Position {where}: bad count {n!r} (a whole number 0 to "
                               f"{MAX_COUNT}).")
        return n

    def units_table(v: Any, key: str) -> dict[str, dict[str, dict[str, int]]]:
        table: dict[str, dict[str, dict[str, int]]] = {}
        for space, by_power in keyed("space", v, key).items():
            table[space] = {}
            for p, units in keyed("power", by_power, f"{key} of {space}").items():
                where = f"{key} of {p} in {space}"
                table[space][p] = {u: count(n, f"{where}, {u}")
                                   for u, n in keyed("unit", units, where).items()}
        return table

    out: dict[str, Any] = {}
    if "edition" in pos:
        out["edition"] = ed.id
    if "options" in pos:
        opts = pos["options"]
        if not isinstance(opts, list | tuple) or not all(isinstance(o, str) for o in opts):
            raise InvalidOrder("Position options must be a list of option names.")
        unknown = [o for o in opts if o not in ed.rules.options]
        if unknown:
            raise InvalidOrder(f"Position options: unknown {', '.join(map(repr, unknown))}. "
                               f"Options: {', '.join(ed.rules.options)}.")
        out["options"] = sorted(set(opts))
    if "round" in pos:
        rnd = pos["round"]
        if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
            raise InvalidOrder("Position round must be a whole number from 1.")
        out["round"] = rnd
    if "power" in pos:
        out["power"] = name("power", pos["power"], "power")
    if "phase" in pos:
        out["phase"] = phase_id(ed, pos["phase"])
    if "treasury" in pos:
        out["treasury"] = {}
        for p, v in keyed("power", pos["treasury"], "treasury").items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidOrder(f"Position treasury: {p} {v!r} (PU-3: never negative).")
            out["treasury"][p] = v
    if "owners" in pos:
        out["owners"] = {}
        for t, o in keyed("space", pos["owners"], "owners").items():
            if ed.is_sea(t):
                raise InvalidOrder(f"Position owners: {t} is a sea zone; only territories are "
                                   "owned.")
            owner = None if o is None else name("power", o, f"owners of {t}")
            if ed.spaces[t].impassable and owner is not None:
                raise InvalidOrder(f"{t} is neutral and impassable; it cannot be owned (MAP-8).")
            out["owners"][t] = owner
    if "units" in pos:
        out["units"] = units_table(pos["units"], "units")
    if "clear_all_units" in pos:
        if not isinstance(pos["clear_all_units"], bool):
            raise InvalidOrder("Position clear_all_units must be true or false.")
        out["clear_all_units"] = pos["clear_all_units"]
    if "damaged" in pos:
        out["damaged"] = units_table(pos["damaged"], "damaged")
        for space, by_power in out["damaged"].items():
            for units in by_power.values():
                for u in units:
                    if ed.units[u].hits < 2:
                        two = [t.name for t in ed.units.values() if t.hits >= 2]
                        which = (f"only units that take two hits ({', '.join(two)}) can be"
                                 if two else f"no unit of {ed.rules.title} can be")
                        raise InvalidOrder(
                            f"Position damaged: {u} in {space} is lost at its first hit; "
                            f"{which} damaged.")
    if "purchase" in pos:
        out["purchase"] = {}
        for u, n in keyed("unit", pos["purchase"], "purchase").items():
            if ed.units[u].cost is None:
                raise InvalidOrder(f"Position purchase: a {u} cannot be bought.")
            out["purchase"][u] = count(n, f"purchase, {u}")
    if "techs" in pos:
        out["techs"] = {}
        for p, ts in keyed("power", pos["techs"], "techs").items():
            out["techs"][p] = developments(ed, ts, f"techs of {p}")
    if "debts" in pos:
        out["debts"] = {}
        for p, v in keyed("power", pos["debts"], "debts").items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidOrder(f"Position debts: {p} {v!r} (a whole number of IPCs from 0).")
            out["debts"][p] = v
    if "standing" in pos:
        out["standing"] = {}
        for p, ts in keyed("power", pos["standing"], "standing").items():
            if not isinstance(ts, list | tuple):
                raise InvalidOrder(f"Position standing of {p}: a list of unit types, cheapest "
                                   "lost first, e.g. [\"infantry\", \"tank\"].")
            order = [name("unit", t, f"standing of {p}") for t in ts]
            if len(set(order)) != len(order):
                raise InvalidOrder(f"Position standing of {p}: name each unit type once.")
            out["standing"][p] = order
    for k in DERIVED_KEYS:
        if k in pos:
            out[k] = pos[k]
    return out


def phase_id(ed: Edition, text: Any) -> str:
    """A phase's id from its id or its name, any case ('Combat Move' -> 'combat_move')."""
    def norm(x: str) -> str:
        return " ".join(x.replace("_", " ").replace("-", " ").casefold().split())

    if isinstance(text, str):
        for p in ed.rules.phases:
            if norm(text) in (norm(p.id), norm(p.name)):
                return p.id
    raise InvalidOrder(
        f"Unknown phase {text!r}. Phases: "
        + ", ".join(f"{p.id} ({p.name})" for p in ed.rules.phases) + "."
    )


def developments(ed: Edition, ts: Any, where: str) -> list[str]:
    """Weapons development ids from ids, names or aliases (R-TEC-05), each once, as listed."""
    from rules.language.names import names_for
    from rules.language.units import development_ids

    if not isinstance(ts, list | tuple):
        raise InvalidOrder(f"Position {where}: a list of developments, e.g. [\"jet_power\"].")
    if ts and ed.rules.rules.research is None:
        raise InvalidOrder(f"Position {where}: {ed.rules.title} has no weapons developments.")
    out: list[str] = []
    for t in ts:
        if not isinstance(t, str):
            raise InvalidOrder(f"Position {where}: {t!r} is not a development.")
        try:
            ids = development_ids(t, names_for(ed.id))
        except InvalidOrder as e:
            raise InvalidOrder(f"Position {where}: {e}") from None
        out += [i for i in ids if i not in out]
    return out


def check_derived(pos: dict[str, Any], state_doc: dict[str, Any]) -> None:
    """The keys that follow from the others agree with the game the position starts."""
    if "income" in pos:
        given = pos["income"]
        if not isinstance(given, dict):
            raise InvalidOrder("Position income must be an object (power: IPCs), as 'state' "
                               "prints it.")
        for p, n in given.items():
            real = state_doc["income"].get(p)
            if n != real:
                raise InvalidOrder(
                    f"Position income: {p} {n!r}, but the territories it holds give {real} "
                    "(income follows the owners, P-4). Leave 'income' out or change 'owners'."
                )
    if "battles" in pos:
        given = pos["battles"]
        if not isinstance(given, list) or sorted(map(str, given)) != sorted(state_doc["battles"]):
            real = ", ".join(state_doc["battles"]) or "none"
            raise InvalidOrder(
                f"Position battles: {given!r}, but the units given make battles in: {real} "
                "(a battle is wherever enemies share a space). Leave 'battles' out or change "
                "'units'."
            )
    if pos.get("winner") is not None:
        raise InvalidOrder("Position winner must be null: a position starts a game in play.")


__all__ = ["DERIVED_KEYS", "SETTING_KEYS", "canonical", "check_derived", "developments",
           "phase_id"]
