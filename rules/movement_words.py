"""The words of movement (``rules.movement``): the English catalogue of its answers and
refusals, registered on import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.messages import catalogue, own_rule
from rules.words import counted, plural

# --------------------------------------------------------------------------------------------
# The words (English)


def _not_able(p: Mapping[str, Any]) -> str:
    cannot = f" ({p['unable']} cannot: {p['why']})" if p["unable"] > 0 else ""
    return (f"{p['power']} has {counted(p['able'], p['unit'])} in {p['space']} able to make this "
            f"move, not {p['count']}{cannot}.")


def _why_not_movable(p: Mapping[str, Any]) -> str:
    out = ("they moved in Combat Move, fought, or already moved as far as they may (NC-1/CM-3)"
           if p["noncombat"] else
           "they already moved into a hostile space or used their movement (CM-3/CM-8)")
    if p["boarding"]:
        out += "; loading uses a land unit's whole move, so a unit that moved cannot board (UT-10)"
    if p["transport"]:
        out += "; a transport that has offloaded may not move again this turn (UT-12/UT-13)"
    if p["cargo"]:
        out += ("; fighters left aboard a carrier that has moved are its cargo and cannot fight "
                "this turn: take off before the carrier moves (CM-21, R-AIR-04)")
    if p.get("committed"):
        out += ("; an air unit that made its combat move is committed to the battle it flew "
                "to, in an amphibious assault the sea battle or the land battle, and moves again "
                "only to land in Noncombat Move (" + own_rule("CM-6, CM-27, AA-7") + ")")
    if p["trapped"]:
        out += ("; planes aboard a damaged carrier can neither take off nor land until it is "
                "repaired (§16.3)")
    return out


def _transports_alone(p: Mapping[str, Any]) -> str:
    what = ", ".join(f"{n} {u}" for u, n in p["units"].items())
    example = (f" (e.g. 'move {what}, 1 {p['escort']} from {p['frm']} to {p['zone']}')"
               if p["escort"] else "")
    who = " and ".join(plural(n) for n in p["names"])
    return (f"{who[:1].upper()}{who[1:]} cannot attack alone ({p['rule']}): {p['zone']} is "
            f"hostile ({p['why']}) "
            f"and no {p['power']} unit with an attack value is there or moves in with the "
            f"{', '.join(p['names'])}. Move a warship or an air unit into {p['zone']} first, or "
            f"in the same order{example}.")


def _no_landing(p: Mapping[str, Any]) -> str:
    left, to, carriers = p["left"], p["to"], p["carriers"]
    if p["other"]:
        kind, space = p["other"]
        why = (f", and then the {kind} in {space} could not land: the carriers they can reach "
               "have no free slot left for both; each takes two fighters (guests included) and "
               f"ends the turn in one zone ({carriers})")
    elif p["alone"]:
        why = (", and the carriers that can be within reach have no free slot left for it: each "
               "takes two fighters (guests included) and ends the turn in one zone "
               f"({carriers})")
    elif p["fighter"]:
        why = (" and no safe landing place within reach: no territory friendly since the start "
               f"of the turn, and no carrier with room that can be within {left} of {to} at the "
               "end of the turn (a carrier counts if it is there, or makes no combat move and "
               "can get there in Noncombat Move)")
    else:
        why = (" and no territory friendly since the start of the turn within reach; "
               f"{p['unit']}s never land on carriers")
    advice = ("Send fewer fighters, or attack a closer space."
              if p["fighter"] and (p["alone"] or p["other"]) else "Attack a closer space.")
    return (f"{p['unit'].capitalize()} could not land anywhere after attacking {to}: it would "
            f"have {left} movement left{why} ({p['rule']}). {advice}")


def _no_deck(p: Mapping[str, Any]) -> str:
    here, seats, flying = p["zone"], p["seats"], p["flying"]
    if not p["carriers"]:
        there = f"there is no friendly carrier in {here}"
    else:
        there = (f"the friendly carriers in {here} have {seats} free "
                 f"slot{'s' if seats != 1 else ''} for the {flying} "
                 f"fighter{'s that' if flying != 1 else ' that'} would wait there (two fighters "
                 "a carrier, guests of allies included)")
    return (f"{p['unit'].capitalize()} must end Noncombat Move in a safe landing place: {there}; "
            "no other carrier with room can come there for it or be placed there this turn "
            f"({p['rule']}). Land it in a territory friendly since the start of the turn, or in "
            "a zone where a carrier has room.")


def _air_unsafe(p: Mapping[str, Any]) -> str:
    carriers = "; bombers never land on carriers (UB-1)" if p["sea"] else ""
    return (f"{p['unit'].capitalize()} must end Noncombat Move in a safe landing place: "
            f"{p['space']} is not a territory friendly since the start of the turn{carriers} "
            f"({p['rule']}).")


def _no_room(p: Mapping[str, Any]) -> str:
    barred = f"; {'; '.join(p['barred'])}" if p["barred"] else ""
    return (f"No friendly transport in {p['zone']} has room for {p['unit']}: "
            f"{p['capacity']}{barred}.")


def _capacity_text(p: Mapping[str, Any]) -> str:
    loads = ", or ".join(" + ".join(f"{c} {n}" for c, n in load) for load in p["loads"])
    never = (", never two " + " or two ".join(f"{n}s" for n in p["never"])) if p["never"] else ""
    return f"a transport carries at most {loads}{never} ({p['rule']})"


def _offload_limit(p: Mapping[str, Any]) -> str:
    n = p["limit"]
    territories = "one territory" if n == 1 else f"{n} territories"
    return (f"One transport offloads into only {territories} per turn ({p['rule']}); this one "
            f"already offloads into {', '.join(p['spaces'])}.")


catalogue("en", "move", {
    "none_there": "{power} has no {unit} in {space} ({power} has {units:units} there). Check the "
                  "space and the units with 'state' or 'game map <space>'.",
    "not_able": _not_able,
    "why_not_movable": _why_not_movable,
    "unknown_space": "Unknown space {space!r}.",
    "same_space": "{space} is where the units already are; name another space.",
    "nothing": "Name the units to move, e.g. 'move 2 infantry from A to B'.",
    "unknown_unit": "Unknown unit {unit!r}.",
    "not_positive": "Counts must be positive: {count} {unit}.",
    "factory": "Industrial complexes cannot move ({rule}).",
    "facility": "{unit:capitalize} cannot move: facilities stay where they were placed ({rule}).",
    "aa_in_combat": "{unit:capitalize}s move only into friendly territories, never into enemy or "
                    "neutral ones, and are landed only on friendly coasts ({rule}): move them in "
                    "Non-combat Movement.",
    "aa_noncombat_only": lambda p: (
        f"AA guns move only in Noncombat Move ({p['rule']})"
        + (": none boards a transport in Combat Move. " if p["boarding"] else ". ")
        + "In Combat Move an AA gun moves only aboard a transport it boarded in an earlier "
          "turn, and goes ashore only with that transport's amphibious assault."),
    "cargo_at_sea": "{unit:capitalize} at sea moves with its transport: move the transport "
                    "instead ({rule}).",
    "neutral_fee": "Violating {spaces:join} costs {fee} IPCs each, paid to the bank at once "
                   "({rule}); {power} has {have}. Choose another route or target (add 'via "
                   "<space>' for aircraft).",
    "transports_alone": _transports_alone,
    "no_landing": _no_landing,
    "no_deck": _no_deck,
    "no_dice": "Antiaircraft guns fire at this flight, but no dice were given.",
    "combat_friendly": "Combat Move must end in combat: {space} is friendly ({rule}). Move there "
                       "in Noncombat Move, or attack a hostile territory.",
    "air_nothing_hostile": "Combat Move must end in combat: there is nothing hostile in {space} "
                           "({rule}). Move air units to land in Noncombat Move.",
    "air_unsafe": _air_unsafe,
    "offloaded": "A transport that has offloaded may not move again this turn ({rule}).",
    "retreated": "Units that retreated may not move again this turn ({rule}).",
    "fought": "{unit:capitalize} moved or fought in combat this turn ({rule}).",
    "load_not_adjacent": "{space} does not border {zone}; units load only into an adjacent sea "
                         "zone ({rule}).",
    "load_hostile": "Transports may not load in hostile {zone} ({rule}).",
    "barred_offloaded": "a transport that offloaded or retreated loads no more this turn ({rule})",
    "barred_fought": "a transport that moved or fought in combat this turn cannot load in "
                     "Noncombat Move ({rule})",
    "moved_no_load": "{unit:capitalize} already moved this turn; loading uses a land unit's "
                     "whole move ({rule}).",
    "no_transport": "There is no friendly transport in {zone} for {unit} to board ({rule}): move "
                    "a transport there first, then load.",
    "no_room": _no_room,
    "no_capacity": "it has no room",
    "capacity": _capacity_text,
    "offload_not_adjacent": "{space} does not border {zone}; transports offload only into an "
                            "adjacent territory ({rule}).",
    "offload_impassable": "{space} is neutral and impassable ({rule}).",
    "offload_neutral": "{space} is neutral: in Non-combat Movement land units may not enter a "
                       "neutral territory ({rule}).",
    "offload_neutral_from_hostile": "{zone} is hostile: land in neutral {space} only from a zone "
                                    "free of enemy units ({rule}).",
    "offload_friendly": "{space} is friendly: in Combat Move transports offload only in an "
                        "amphibious assault on a hostile territory ({rule}). Offload there in "
                        "Noncombat Move.",
    "offload_hostile": "{space} is hostile: offloading there is an amphibious assault, made only "
                       "in Combat Move ({rule}).",
    "offload_in_hostile": "Transports may not offload in hostile {zone} ({rule}).",
    "offload_retreated": "A transport that retreated may not offload this turn ({rule}).",
    "offload_allied": "{unit:capitalize} boarded {owner:possessive} transport this turn; it "
                      "offloads on a later turn of its own power ({rule}).",
    "offload_fought": "That transport moved or fought in combat this turn; it cannot offload in "
                      "Noncombat Move ({rule}).",
    "offload_limit": _offload_limit,
    "assault_past_sub": "An enemy submarine is in {zone}: an amphibious assault may offload past "
                        "it only if a warship of {power} (a submarine counts, air units do not) "
                        "is in {zone} ({rule}). Move a warship into {zone} first, then offload.",
})
