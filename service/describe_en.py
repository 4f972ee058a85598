"""The English of the referee's event lines (``service.describe``): one text per message key.

A describer in ``service.describe`` turns an event into a message (``rules.messages.Msg``): a
key, parameters (names, counts, unit counts by type, lists) and the rule it cites. The words
are here; another language registers its own catalogue under the same keys (area ``event``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.messages import catalogue
from rules.words import agree, ipcs, plural, possessive, rule_suffix, unit_list

P = Mapping[str, Any]


def _units(units: Mapping[str, int]) -> str:
    return unit_list(units)


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _owners(groups: Sequence[tuple[str, Mapping[str, int]]]) -> str:
    """``"<power>: 2 infantry; <power>: 1 fighter"``."""
    if not groups:
        return "no units"
    return "; ".join(f"{o}: {_units(g)}" for o, g in groups)


def _which(labels: Sequence[tuple[str, int, bool, str | None, int | None]]) -> str:
    """'1 fighter from <space> (2 moves left)', '1 battleship (damaged)'."""
    parts = []
    for utype, n, damaged, start, left in labels:
        suffix = ""
        if start is not None and left is not None:
            suffix = f" from {start} ({left} move{'' if left == 1 else 's'} left)"
        if damaged:
            suffix = " (damaged)" + suffix
        parts.append(_units({utype: n}) + suffix)
    return ", ".join(parts) or "no units"


def _short(hex_: str) -> str:
    return hex_[:16] + "…" if len(hex_) > 16 else hex_


def _game_started(p: P) -> str:
    how = " from a given position" if p["position"] else ""
    opts = f" with options {', '.join(p['options'])}" if p["options"] else ""
    return f"A game of {p['title']} began{how}{opts}."


def _phase_changed(p: P) -> str:
    line = f"{p['power']}: {p['phase']}."
    if p["skipped"]:
        line += f" Skipped {', '.join(p['skipped'])}{rule_suffix(p['rule'])}."
    return line


def _moved(p: P) -> str:
    line = f"{p['power']} moved {_units(p['units'])} from {p['frm']} to {p['to']}"
    if p["via"]:
        line += f" via {', '.join(p['via'])}"
    notes: list[str] = []
    if p["loading"]:
        notes.append("loading")
    if p["offloading"]:
        notes.append("offloading")
    if p["assaults"]:
        notes.append(f"amphibious assault on {', '.join(p['assaults'])}")
    if p["blitzed"]:
        notes.append(f"blitzing through {', '.join(p['blitzed'])}")
    notes += [str(n) for n in p["notes"]]  # a mechanism's notes (English: str)
    if p["stayed"]:
        notes.append(f"{_units(p['stayed'])} stayed airborne in {p['frm']}")
    if notes:
        line += f" ({'; '.join(notes)})"
    return line + "."


def _captured(p: P) -> str:
    gain = f"+{p['value']} income"
    if p["owner"] != p["by"]:
        line = f"{p['by']} liberated {p['space']}; it returns to {p['owner']}"
        gain += f" for {p['owner']}"
    else:
        verb = {"blitz": "blitzed into", "neutral violation": "took neutral",
                "friendly neutral": "took the friendly neutral"}.get(p["how"], "captured")
        line = f"{p['by']} {verb} {p['space']}"
    notes = [gain]
    if p["seized"]:
        line += f" and took {ipcs(p['seized'])} from {p['seized_from']}"
    if p["rule"]:
        notes.append(p["rule"])
    return f"{line} ({'; '.join(notes)})."


def _battle_opened(p: P) -> str:
    kind = {"amphibious": "Amphibious assault", "sea": "Sea battle"}.get(p["kind"], "Battle")
    defend = _owners(p["defenders"]) if p["defenders"] else "no defenders"
    line = (f"{kind} in {p['space']}: {p['attacker']} ({_units(p['units'])}) against "
            f"{defend}")
    if p["blocked_by"]:
        line += f"; waits for the sea battle in {p['blocked_by']}"
    return line + "."


def _seaborne(p: P) -> str:
    units = _units(p["units"])
    return (f"{units[:1].upper()}{units[1:]} landed from the sea in {p['space']}, joining "
            "the battle.")


_STAGES = {
    "strike": "'s submarines strike",
    "aa": "'s antiaircraft gun fires at the attacking aircraft",
    "bombard": "'s battleships bombard",
}


def _dice(p: P) -> str:
    groups = p["groups"]
    faces = ",".join(str(f) for g in groups for f in g[2])
    space, side, stage = p["space"], p["side"], p["stage"]
    if stage == "overflight":
        guns = _units({g[0]: 1 for g in groups})
        line = (f"Aircraft flew over {space}: its {guns.removeprefix('1 ')} rolled "
                f"{faces or 'nothing'} → {_hits(p['hits'])} (hits on 1, R-AIR-05)")
        return line + (" [scripted dice]." if p["scripted"] else ".")
    if not groups:
        return (f"Battle in {space}, round {p['round']}: the {side} rolls no dice "
                "(no unit left to fire, or nothing left it can hit).")
    says = _STAGES.get(stage, "")
    if stage == "bombard":  # the ships that fire: battleships, cruisers (1940 AA-2)
        kinds = list(dict.fromkeys(plural(g[0]) for g in groups)) or ["battleships"]
        says = f"'s {' and '.join(kinds)} bombard"
    line = (f"Battle in {space}, round {p['round']}: {side}{says}"
            f"{':' if stage in _STAGES else ''} rolled {faces or 'nothing'} → {_hits(p['hits'])}")
    notes: list[str] = []
    scored = sum(1 for _, value, fs in groups for f in fs if f <= value)
    if scored > p["hits"]:  # more dice hit than there are units to take them
        notes.append(f"{scored} dice hit, {p['hits']} counted")
    if len(groups) > 1:
        notes += [f"{utype} at {value}: {','.join(str(f) for f in fs)}"
                  for utype, value, fs in groups]
    if notes:
        line += f" ({'; '.join(notes)})"
    if p["scripted"]:
        line += " [scripted dice]"
    return line + "."


def _casualties(p: P) -> str:
    parts: list[str] = []
    if p["lost"]:
        parts.append(f"loses {_which(p['lost'])}")
    if p["damaged"]:
        parts.append(f"has {_which(p['damaged'])} damaged")
    what = " and ".join(parts) if parts else "takes no losses"
    how = {
        "choice": "",
        "forced": " (no choice)",
        "default": " (default order)",
        "standing": " (standing order)",
    }.get(p["how"], f" ({p['how']})")
    who = p["by"] or f"the {p['side']}"
    if p.get("shares"):  # several powers' units (MN-5): each one's losses
        each = []
        for power, lost, damaged in p["shares"]:
            bits = ([f"loses {_which(lost)}"] if lost else []) + (
                [f"has {_which(damaged)} damaged"] if damaged else [])
            each.append(f"{power} {' and '.join(bits)}")
        chosen = f"chosen by {p['by']}" if p["by"] else ""
        notes = ", ".join(x for x in (chosen, how.strip(" ()")) if x)
        return f"Casualties in {p['space']}: {'; '.join(each)}" + (
            f" ({notes})." if notes else ".")
    return f"Casualties in {p['space']}: {who} {what}{how}."


def _removed(p: P) -> str:
    why = f"{p['reason']}, {p['rule']}" if p["rule"] else p["reason"]
    return f"Removed from the board: {_owners(p['units'])} ({why})."


def _subs_declared(p: P) -> str:
    who = "attacking" if p["side"] == "attacker" else "defending"
    parts = []
    if p["strike"]:
        n = sum(p["strike"].values())
        parts.append(f"{_units(p['strike'])} {agree(n, 'makes', 'make')} a surprise strike")
    if p["submerge"]:
        n = sum(p["submerge"].values())
        parts.append(f"{_units(p['submerge'])} {agree(n, 'submerges', 'submerge')} and "
                     f"{agree(n, 'leaves', 'leave')} the battle")
    how = "" if p["how"] == "choice" else f", {p['how']}"
    return (f"In {p['space']} the {who} submarines: {'; '.join(parts) or 'none'} "
            f"({p['rule']}{how}).")


def _round_ended(p: P) -> str:
    line = f"Battle in {p['space']}: round {p['round']} over"
    if p["may_retreat"]:
        line += "; the attacker may press or retreat"
    return line + "."


def _retreated(p: P) -> str:
    who = p["attacker"] or "The attacker"
    going, staying, n = p["going"], p["staying"], p["n_staying"]
    stay = ""
    if staying:
        verb = "stays" if n == 1 else "stay"
        stay = (f"{_units(staying)} {verb} in {p['space']} and "
                f"land{'s' if n == 1 else ''} in Noncombat Move")
    if not going:
        return f"{who} withdrew from the battle in {p['space']}: {stay} ({p['rule']})."
    line = f"{who} retreated {_units(going)} from {p['space']} to {p['to']}"
    return f"{line}; {stay} ({p['rule']})." if stay else f"{line}."


_RESULTS = {
    "attacker": "the attacker won",
    "defender": "the defender held",
    "both destroyed": "both sides were destroyed",
    "retreat": "the attacker retreated",
    "no combat": "no combat",
}


def _battle_ended(p: P) -> str:
    line = f"Battle in {p['space']} over: {_RESULTS.get(p['result'], p['result'])}"
    notes: list[str] = []
    if p["repaired"]:
        notes.append(f"{_units(p['repaired'])} repaired")
    if p["back_on_carriers"]:
        notes.append(f"{_units(p['back_on_carriers'])} back on carriers")
    if p["offloaded"]:
        notes.append(f"{_units(p['offloaded'])} landed")
    if p["stranded"]:
        notes.append(f"{_units(p['stranded'])} must find a place to land")
    if notes:
        line += f" ({'; '.join(notes)})"
    return line + "."


def _damage(p: P) -> str:
    line = f"{p['power']} paid {ipcs(p['paid'])} to the bank for {p['reason']}"
    if p["debt"]:
        line += f"; {ipcs(p['debt'])} more is owed from its next income"
    return f"{line}{rule_suffix(p['rule'])}."


def _income(p: P) -> str:
    rule = f"; {p['rule']}" if p["rule"] else ""
    if p.get("changes"):  # what mechanisms added to or took from the production (IN-1)
        rule = (f"; {p['production']} from its territories, "
                + ", ".join(f"{'+' if n > 0 else '-'}{abs(n)} {label}"
                            for label, n in zip(p["labels"], p["changes"], strict=True))
                + rule)
    if p["debt_paid"]:
        still = f", {ipcs(p['left'])} still owed" if p["left"] > 0 else ""
        return (f"{p['power']} collected {ipcs(p['amount'])}, of which {ipcs(p['debt_paid'])} "
                f"settled unpaid damage{still} (treasury now {p['total']}{rule}).")
    return f"{p['power']} collected {ipcs(p['amount'])} (treasury now {p['total']}{rule})."


def _won(p: P) -> str:
    holding = f", holding {', '.join(p['capitals'])}" if p["capitals"] else ""
    if p["production"] is not None:
        holding = f" with a combined national production of {p['production']} IPCs"
    return f"The {p['side']} won the game{holding}{rule_suffix(p['rule'])}."


def _ended(p: P) -> str:
    how = "in a draw, by" if p["result"] == "draw" else "cancelled by"
    return f"The game ended {how} the vote of every player ({', '.join(p['powers'])})."


def _edit(p: P) -> str:
    what = p["text"]
    notes: list[str] = []
    if p["treasury"]:
        what = "; ".join(f"{who}'s treasury set to {ipcs(n)} (was {was})"
                         for who, n, was in p["treasury"])
    if p["owners"]:
        what = "; ".join(f"{t} now held by {who} (was {was or 'nobody'})"
                         for t, who, was in p["owners"])
    if p["riders"]:
        notes.append(f"with their cargo, {_owners(p['riders'])}")
    if p["reowned"]:
        notes.append(f"{_units(p['reowned'])} changing hands")
    note = f" ({'; '.join(notes)})" if notes else ""
    side = f" for {', '.join(p['agreed_for'])}" if p["agreed_for"] else ""
    return (f"Edit #{p['proposal']}: {what}{note}. Proposed by {p['proposer']}, agreed by "
            f"{p['agreed']}{side}; no dice involved.")


def _entropy(p: P) -> str:
    if not p["phrases"]:
        return "No entropy phrases were given: the dice rest on the commitment alone."
    return f"Entropy phrases of {', '.join(p['phrases'])} are mixed into every dice key."


def _seed_revealed(p: P) -> str:
    also = " and the game's master secret" if p["master"] else ""
    return (f"Round {p['round']}'s dice seed {_short(p['seed'])}{also} revealed: "
            f"'dice verify {p['round']}' recomputes its rolls.")


catalogue("en", "event", {
    "game_started": _game_started,
    "turn_started": "Round {round}: {power:possessive} turn begins.",
    "phase_changed": _phase_changed,
    "purchased": "{power} bought {units:units} ({cost:ipcs}).",
    "cleared": "{power} cleared its purchase ({refund:ipcs} back).",
    "landed_on_carrier": "{power}: {units:units} landed on a carrier in {space}.",
    "stayed": "{power}: {units:units} stayed in {space}.",
    "moved": _moved,
    "captured": _captured,
    "neutral_violated": lambda p: (f"{p['power']} violated the neutrality of {p['space']} and "
                                   f"paid {ipcs(p['fee'])} to the bank"
                                   f"{rule_suffix(p['rule'])}."),
    "battle_opened": _battle_opened,
    "seaborne": _seaborne,
    "dice": _dice,
    "casualties": _casualties,
    "removed": _removed,
    "round_started": "Battle in {space}: round {round} begins.",
    "subs_declared": _subs_declared,
    "round_ended": _round_ended,
    "pressed": lambda p: f"{p['attacker'] or 'The attacker'} presses the attack in {p['space']}.",
    "retreated": _retreated,
    "battle_ended": _battle_ended,
    "damage": _damage,
    "purchase_lost": lambda p: (f"{p['power']} lost {_units(p['units'])} it could not place, "
                                f"without refund{rule_suffix(p['rule'])}."),
    "placed": lambda p: (f"{p['power']} placed {_units(p['units'])} in {p['space']}"
                         + (f" (from the industrial complex in {p['factory']})"
                            if p["factory"] else "") + "."),
    "refunded": lambda p: (f"{p['power']} got {ipcs(p['amount'])} back for "
                           f"{_units(p['units'])} it could not place"
                           f"{rule_suffix(p['rule'])}."),
    "income": _income,
    "won_by_concession": "The {side} won the game: the other side conceded.",
    "won": _won,
    "conceded": "The {side} conceded ({powers:join}).",
    "ended": _ended,
    "standing": lambda p: (f"{possessive(p['power'])} standing casualty order: "
                           f"{', '.join(p['order']) or 'cheapest first'}."),
    "edit": _edit,
    "dice_scripted": "Dice are scripted (--dice): {faces} faces given in advance, public; these "
                     "are not fair dice.",
    "dice_committed": lambda p: (f"Fair dice for rounds {p['first']} to {p['last']}: commitment "
                                 f"{_short(p['commitment'])} (each round's seed is revealed "
                                 "when the round ends; 'dice verify' checks them)."),
    "entropy": _entropy,
    "seed_revealed": _seed_revealed,
})
