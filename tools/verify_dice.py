#!/usr/bin/env python3
"""Check an exported Umpire game: its log's hash chain and every revealed die.

    python tools/verify_dice.py game.json [--round N] [--head HASH]

Runs with the Python standard library alone (3.9+) and imports nothing from Umpire, so a player
can run it anywhere on a file from ``game export``. It is an independent re-implementation of
the scheme in ``docs/dice.md``; Umpire's tests check that it agrees with the bot.

It checks, and reports the first problem of each kind:

1. The hash chain of the log: ``hash_n = sha256(hash_{n-1} + canonical_json(event_n))`` with
   ``hash_0`` the game id; an edited, removed or reordered event is named by number and type.
   With ``--head`` (the log hash the bot showed, e.g. in ``dice verify``) it also catches a log
   cut short or rewritten as a whole.
2. Every revealed round seed: it hashes to the seed before it and to the published commitment.
3. Every die of every revealed round: recomputed from the seed, the game id, the players'
   entropy, the die's counter and its purpose, and compared with the faces in the log.

Exit status: 0 all is well, 1 something failed (or the dice were scripted, not fair), 2 the file
could not be read or is not a game export (empty, truncated, binary, not JSON, nested too deep,
malformed events): then it says "not a game export: <why>" and never shows a traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys
from typing import Any

FAIR_SCHEME = "umpire-fair-v1"
SCRIPTED_SCHEME = "scripted"
SIDES = 6
ACCEPT_BELOW = 252  # 42 * 6: bytes from 252 up are rejected, so every face is equally likely

Json = dict[str, Any]
Reveals = list[tuple[int, "Chain | None", Json]]  # (event number, chain in force, event)


# --------------------------------------------------------------------------------------------
# The scheme, written out again from docs/dice.md


def h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def hmac256(key: bytes, message: bytes) -> bytes:
    return hmac.new(key, message, hashlib.sha256).digest()


def die(key: bytes, message: bytes) -> int:
    """One d6: the first byte below 252 of HMAC(key, message|0), HMAC(key, message|1), ..."""
    attempt = 0
    while True:
        for byte in hmac256(key, message + b"|" + str(attempt).encode("ascii")):
            if byte < ACCEPT_BELOW:
                return byte % SIDES + 1
        attempt += 1


def round_key(seed: bytes, game_id: str, entropy: bytes) -> bytes:
    return hmac256(seed, b"umpire-round|" + game_id.encode("utf-8") + b"|" + entropy)


def entropy_of(phrase_hashes: dict[str, str]) -> bytes:
    return ";".join(f"{p}={phrase_hashes[p]}" for p in sorted(phrase_hashes)).encode("utf-8")


def purpose_of(event: Json, unit_type: str) -> str:
    side = str(event["side"])
    if event.get("stage", "fire") != "fire":
        side = f"{side}:{event.get('stage')}"
    return f"{event['space']}|round {event['round']}|{side}|{unit_type}"


def dice_of(key: bytes, game_id: str, counter: int, purpose: str, n: int) -> list[int]:
    return [die(key, f"{game_id}|{counter + j}|{purpose}".encode()) for j in range(n)]


def hashed_times(value: bytes, times: int) -> bytes:
    for _ in range(times):
        value = h(value)
    return value


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def unhex(text: Any) -> bytes | None:
    if not isinstance(text, str):
        return None
    try:
        value = bytes.fromhex(text)
    except ValueError:
        return None
    return value if len(value) == 32 else None


# --------------------------------------------------------------------------------------------
# 1. The log's hash chain


def check_chain(
    start: str, events: list[Json], head: str | None, export_head: str | None = None
) -> tuple[bool, str]:
    """Is every event where the chain says it was? The first problem, named by event number.

    ``head`` is a last hash published elsewhere (trusted); ``export_head`` the one the export
    itself states (catches a naive cut at the end).
    """
    prev = start
    for pos, e in enumerate(events, start=1):
        seq = e.get("seq")
        kind = e.get("type", "?")
        if seq != pos:
            if isinstance(seq, int) and seq > pos:
                later = [x for x in events[pos:] if x.get("seq") == pos]
                if later:
                    return False, (
                        f"Events out of order: event #{pos} ({later[0].get('type', '?')}) comes "
                        f"after event #{seq} ({kind})."
                    )
                return False, f"Event #{pos} was removed (the next one is #{seq}, {kind})."
            if isinstance(seq, int) and seq < pos:
                return False, f"Events out of order: event #{seq} ({kind}) is at place {pos}."
            return False, f"Event at place {pos} ({kind}) has no sequence number."
        body = {k: v for k, v in e.items() if k not in ("seq", "hash")}
        prev = hashlib.sha256(prev.encode("utf-8") + canonical(body)).hexdigest()
        if e.get("hash") != prev:
            return False, f"Event #{pos} ({kind}) was changed: it does not match its hash."
    for given, where in ((head, "given"), (export_head, "the export states")):
        if given is not None and not prev.startswith(given.lower()):
            return False, (
                f"The log's last hash ({prev[:16]}…, after event #{len(events)}) is not the one "
                f"{where} ({given[:16]}…): events were removed from the end or the log was "
                "rewritten."
            )
    note = " and matches the one given" if head is not None else ""
    return True, f"Log: {len(events)} events, hash chain intact{note}; last hash {prev}."


# --------------------------------------------------------------------------------------------
# 2 and 3. Seeds and dice


class Chain:
    def __init__(self, number: int, seq: int, e: Json) -> None:
        self.number = number
        self.seq = seq
        self.scheme = str(e.get("scheme", ""))
        self.game_id = str(e.get("game_id", ""))
        self.commitment = e.get("commitment", "")
        self.length = int(e.get("chain_length", 0))
        self.first = int(e.get("first_round", 1))
        self.epoch = int(e.get("epoch", 0))
        self.master = str(e.get("master", ""))

    def index(self, rnd: int) -> int | None:
        i = rnd - self.first + 1
        return i if 1 <= i <= self.length else None


class Roll:
    """One group of dice: a unit group of a ``DiceRolled`` event, or one ``(purpose, faces)``
    entry of an event's ``rolls`` (dice rolled outside battles, by the mechanisms)."""

    def __init__(self, seq: int, e: Json, group: int, counter: int, chain: Chain | None,
                 rnd: int, entropy: bytes) -> None:
        self.seq = seq
        self.event = e
        self.group = group
        if e.get("type") == "DiceRolled":
            unit_type, _value, faces = e["groups"][group - 1]
            self.unit_type = str(unit_type)
            self.purpose = purpose_of(e, self.unit_type)
        else:
            purpose, faces = e["rolls"][group - 1]
            self.unit_type = ""
            self.purpose = str(purpose)
        self.faces = [int(f) for f in faces]
        self.counter = counter
        self.chain = chain
        self.round = rnd
        self.entropy = entropy

    def where(self) -> str:
        e = self.event
        if e.get("type") != "DiceRolled":
            n = len(self.faces)
            return (f"event #{self.seq} {e.get('type')} ({self.purpose}), {n} "
                    f"{'die' if n == 1 else 'dice'}")
        return (
            f"event #{self.seq} DiceRolled in {e['space']} (battle round {e['round']}, "
            f"{e['side']}, group {self.group}: {len(self.faces)} {self.unit_type})"
        )


def walk(events: list[Json]) -> tuple[list[Chain], list[Roll], Reveals]:
    """Place every die: its commitment, game round, entropy and counter, in log order."""
    chains: list[Chain] = []
    rolls: list[Roll] = []
    reveals: Reveals = []
    rnd = 1
    counter = 0
    entropy = b""
    for seq, e in enumerate(events, start=1):
        kind = e.get("type")
        chain = chains[-1] if chains else None
        if kind == "GameStarted":
            rnd = int((e.get("position") or {}).get("round", 1))
        elif kind == "TurnStarted":
            rnd = int(e["round"])
        elif kind == "DiceCommitted":
            chains.append(Chain(len(chains) + 1, seq, e))
        elif kind == "DiceEntropyFixed":
            entropy = entropy_of({str(k): str(v) for k, v in (e.get("phrases") or {}).items()})
        elif kind == "DiceSeedRevealed":
            reveals.append((seq, chain, e))
        elif kind == "DiceRolled":
            for g in range(1, len(e["groups"]) + 1):
                roll = Roll(seq, e, g, counter, chain, rnd, entropy)
                rolls.append(roll)
                counter += len(roll.faces)
        elif isinstance(e.get("rolls"), list):
            for g in range(1, len(e["rolls"]) + 1):
                roll = Roll(seq, e, g, counter, chain, rnd, entropy)
                rolls.append(roll)
                counter += len(roll.faces)
    return chains, rolls, reveals


def check_dice(events: list[Json], only: int | None) -> tuple[bool, list[str], bool]:
    """(all well, lines, scripted) for every round with dice or a revealed seed."""
    chains, rolls, reveals = walk(events)
    if any(c.scheme == SCRIPTED_SCHEME for c in chains):
        return False, ["Dice: scripted (--dice), given in advance and public: not fair dice, "
                       "nothing to verify."], True
    if not chains:
        return False, ["Dice: the log has no dice commitment; its rolls cannot be checked."], False
    ok = True
    lines: list[str] = []
    stray = [r for r in rolls if r.chain is None]
    if stray:
        ok = False
        lines.append(f"The dice of {stray[0].where()} came before any commitment.")
    several = len(chains) > 1
    keys = sorted({(r.round, r.chain.number) for r in rolls if r.chain is not None}
                  | {(int(e["round"]), c.number) for _, c, e in reveals if c is not None})
    for rnd, number in keys:
        if only is not None and rnd != only:
            continue
        good, line = check_round(chains[number - 1], rnd, rolls, reveals, several)
        ok = ok and good
        lines.append(line)
    if only is None:
        for seq, _chain, e in reveals:
            if e.get("master"):
                good, line = check_master(seq, str(e["master"]), chains)
                ok = ok and good
                lines.append(line)
    return ok, lines, False


def check_round(chain: Chain, rnd: int, rolls: list[Roll],
                reveals: Reveals, several: bool) -> tuple[bool, str]:
    mine = [r for r in rolls if r.chain is chain and r.round == rnd]
    n_dice = sum(len(r.faces) for r in mine)
    n_rolls = len({r.seq for r in mine})
    label = f"Round {rnd}" + (f" (chain {chain.number})" if several else "")
    what = f"{n_dice} {'die' if n_dice == 1 else 'dice'} in {n_rolls} "
    what += "roll" if n_rolls == 1 else "rolls"
    shown = [(seq, e) for seq, c, e in reveals if c is chain and int(e["round"]) == rnd]
    index = chain.index(rnd)
    if index is None:
        return False, f"{label}: outside the committed chain (from round {chain.first})."
    if not shown:
        return True, f"{label}: {what}, not revealed yet."
    if len({str(e.get("seed")) for _, e in shown}) > 1:
        return False, (f"{label}: different seeds revealed at events #{shown[0][0]} and "
                       f"#{shown[-1][0]}.")
    seq, e = shown[0]
    seed = unhex(e.get("seed"))
    committed = unhex(chain.commitment)
    if seed is None:
        return False, f"{label}: the seed revealed at event #{seq} is not 32 bytes of hex."
    if committed is None:
        return False, f"{label}: the commitment at event #{chain.seq} is not 32 bytes of hex."
    before = [(s, x) for s, c, x in reveals if c is chain and int(x["round"]) == rnd - 1]
    if index > 1 and before:
        prev = unhex(before[0][1].get("seed"))
        if prev is not None and not hmac.compare_digest(h(seed), prev):
            return False, (f"{label}: the seed revealed at event #{seq} does not hash to round "
                           f"{rnd - 1}'s seed (event #{before[0][0]}).")
    if not hmac.compare_digest(hashed_times(seed, index + 1), committed):
        return False, (f"{label}: the seed revealed at event #{seq} does not link to the "
                       f"commitment (event #{chain.seq}).")
    for r in mine:
        key = round_key(seed, chain.game_id, r.entropy)
        want = dice_of(key, chain.game_id, r.counter, r.purpose, len(r.faces))
        if want != r.faces:
            return False, (f"{label}: {r.where()} shows {','.join(map(str, r.faces))}; the "
                           f"revealed seed gives {','.join(map(str, want))}.")
    return True, f"{label}: {what} verified; seed links to the commitment."


def check_master(seq: int, master_hex: str, chains: list[Chain]) -> tuple[bool, str]:
    master = unhex(master_hex)
    if master is None:
        return False, f"The master secret revealed at event #{seq} is not 32 bytes of hex."
    # The chains that name this master (an imported game also has its first bot's chains).
    mine = [c for c in chains if c.scheme == FAIR_SCHEME and c.master == h(master).hex()]
    if not mine:
        return False, (f"The master secret revealed at event #{seq} is not the one any "
                       "commitment names.")
    for c in mine:
        top = hmac256(master, f"umpire-chain|{c.epoch}".encode())
        if h(hashed_times(top, c.length)).hex() != c.commitment:
            return False, (f"The master secret revealed at event #{seq} does not give the "
                           f"commitment at event #{c.seq}.")
    return True, f"The master secret revealed at event #{seq} gives every commitment made with it."


# --------------------------------------------------------------------------------------------


def verify(doc: Json, only: int | None = None, head: str | None = None) -> tuple[bool, list[str]]:
    """All checks of an exported game: (all well, report lines)."""
    if doc.get("format") != "umpire-game":
        return False, ["Not an Umpire game export (format 'umpire-game')."]
    events = doc.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        return False, ["The export has no list of events."]
    game = doc.get("game") or {}
    start = str((doc.get("log") or {}).get("start") or game.get("id", ""))
    lines = [f"Game {game.get('id', '?')} ({game.get('edition', '?')}): {len(events)} events."]
    stated = (doc.get("log") or {}).get("head")
    chain_ok, line = check_chain(start, events, head, stated if isinstance(stated, str) else None)
    lines.append(line)
    try:
        dice_ok, dice_lines, _scripted = check_dice(events, only)
    except (AttributeError, KeyError, TypeError, ValueError, IndexError) as e:
        dice_ok, dice_lines = False, [f"Dice: a dice event is malformed ({type(e).__name__}: {e})."]
    lines += dice_lines
    ok = chain_ok and dice_ok
    lines.append("All checks passed." if ok else "FAILED: see above.")
    return ok, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="verify_dice.py", description="Check an exported Umpire game's log and dice."
    )
    parser.add_argument("export", help="the JSON file from 'game export'")
    parser.add_argument("--round", type=int, help="check only this game round's dice")
    parser.add_argument("--head", help="the log hash the bot published (a prefix will do)")
    args = parser.parse_args(argv)
    try:
        with open(args.export, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as e:
        print(f"error: cannot read {args.export}: {e}", file=sys.stderr)
        return 2
    try:
        doc = load(raw)
        ok, lines = verify(doc, args.round, args.head)
    except NotAnExport as e:
        print(f"{args.export}: not a game export: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a malformed file ends in a sentence, never a traceback
        what = "nested too deep" if isinstance(e, RecursionError) else type(e).__name__
        print(f"{args.export}: not a game export: {what}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if ok else 1


MAX_BYTES = 64 * 1024 * 1024


class NotAnExport(Exception):
    """The file is not a game export; the message says why."""


def load(raw: bytes) -> Json:
    """The export in a file's bytes, or ``NotAnExport``: empty, too big, not UTF-8, not JSON
    (truncated included), nested too deep, or not an object."""
    if len(raw) > MAX_BYTES:
        raise NotAnExport(f"larger than {MAX_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise NotAnExport(f"not UTF-8 text (byte {e.start})") from None
    if not text.strip():
        raise NotAnExport("the file is empty")
    try:
        doc = json.loads(text)
    except RecursionError:
        raise NotAnExport("the JSON is nested too deep") from None
    except ValueError as e:
        raise NotAnExport(f"not JSON ({e})") from None
    if not isinstance(doc, dict):
        raise NotAnExport(f"a JSON {type(doc).__name__}, not an object")
    if doc.get("format") != "umpire-game":
        raise NotAnExport("no format 'umpire-game'")
    events = doc.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise NotAnExport("no list of events")
    return doc


if __name__ == "__main__":
    sys.exit(main())
