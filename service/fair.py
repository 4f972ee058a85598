"""Fair dice in the service: the secret, the commitment, the reveals (DESIGN §6, docs/dice.md).

The rules say how dice follow from a seed (``rules.dice``) and how a log is checked
(``rules.dice_audit``); this module holds what only the service may do: draw the secret master
with ``secrets``, keep it in the store's secrets area, build each order's ``FairDice`` from it,
and append the events that publish the commitment and, round by round, the seeds.

It also hash-chains exported logs: ``hash_n = sha256(hash_{n-1} ‖ canonical_json(event_n))`` in
hex, starting from the game id, so an edited, removed or reordered event is found.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from rules import dice as dc
from rules import events as ev
from rules.dice_audit import ChainInfo, DiceLog
from service.store import DiceSpec

MASTER = "dice-master"  # the name of the secret in the store
SCRIPTED_REFUSED = (
    "Scripted dice (--dice) are for the local table and tests only; games here roll fair dice "
    "that anyone can check ('dice verify')."
)


def draw_master() -> bytes:
    """A fresh secret master for a game's dice: 32 bytes from the operating system."""
    return secrets.token_bytes(32)


def chain_commitment(master: bytes, epoch: int, chain_length: int) -> str:
    """The published commitment H(s_0) (hex) of chain ``epoch`` of a master."""
    return dc.commitment(dc.make_chain(dc.chain_top(master, epoch), chain_length)[0]).hex()


def fair_spec(master: bytes, chain_length: int = dc.CHAIN_LENGTH) -> DiceSpec:
    """The public part of a game's fair dice: commitment of chain 0 and H(master)."""
    return DiceSpec(
        kind="fair",
        commitment=chain_commitment(master, 0, chain_length),
        chain_length=chain_length,
        master=dc.master_commitment(master),
    )


def start_events(
    spec: DiceSpec, game_id: str, first_round: int, entropy: Mapping[str, str]
) -> list[ev.Event]:
    """The dice events that follow ``GameStarted``: the commitment, then the frozen entropy."""
    if spec.kind == "scripted":
        return [ev.DiceCommitted(scheme=dc.SCRIPTED_SCHEME, game_id=game_id, faces=spec.faces)]
    return [
        ev.DiceCommitted(
            scheme=dc.FAIR_SCHEME,
            game_id=game_id,
            commitment=spec.commitment,
            chain_length=spec.chain_length,
            first_round=first_round,
            epoch=0,
            master=spec.master,
        ),
        ev.DiceEntropyFixed(phrases={p: dc.phrase_hash(x) for p, x in sorted(entropy.items())}),
    ]


def seed_of(master: bytes, chain: ChainInfo, round_: int) -> bytes:
    """The secret seed s_i that keys ``round_`` under ``chain``."""
    i = dc.chain_index(round_, chain.first_round, chain.chain_length)
    return dc.make_chain(dc.chain_top(master, chain.epoch), chain.chain_length)[i]


def dice_for(master: bytes, log: DiceLog, round_: int) -> dc.FairDice:
    """The dice of the next order in ``round_``: the round key, counting on from the log."""
    chain = log.chain
    if chain is None or chain.scheme != dc.FAIR_SCHEME:
        raise ValueError("the log has no fair dice commitment")
    return dc.FairDice(seed_of(master, chain, round_), chain.game_id, log.entropy, log.counter)


def rolled_after_new_round(events: Sequence[ev.Event], round_: int) -> bool:
    """Whether an order rolled dice after starting another round (its key would be wrong)."""
    rnd = round_
    for e in events:
        if isinstance(e, ev.TurnStarted):
            rnd = e.round
        elif (isinstance(e, ev.DiceRolled) or bool(getattr(e, "rolls", None))) and rnd != round_:
            return True
    return False


def epilogue(
    master: bytes, before: DiceLog, round_before: int, events: Sequence[ev.Event]
) -> list[ev.Event]:
    """Dice events an order's events call for: reveal a finished round's seed (and at the end
    of the game the master), and commit to the next chain when the game outlasts this one."""
    chain = before.chain
    if chain is None or chain.scheme != dc.FAIR_SCHEME:
        return []
    out: list[ev.Event] = []
    rnd = round_before
    for e in events:
        if isinstance(e, ev.TurnStarted) and e.round != rnd:
            out.append(ev.DiceSeedRevealed(round=rnd, seed=seed_of(master, chain, rnd).hex()))
            rnd = e.round
            if not chain.covers(rnd):
                epoch = chain.epoch + 1
                nxt = ev.DiceCommitted(
                    scheme=dc.FAIR_SCHEME,
                    game_id=chain.game_id,
                    commitment=chain_commitment(master, epoch, chain.chain_length),
                    chain_length=chain.chain_length,
                    first_round=rnd,
                    epoch=epoch,
                    master=chain.master,
                )
                out.append(nxt)
                chain = ChainInfo(
                    number=chain.number + 1,
                    seq=0,
                    scheme=nxt.scheme,
                    game_id=nxt.game_id,
                    commitment=nxt.commitment,
                    chain_length=nxt.chain_length,
                    first_round=nxt.first_round,
                    epoch=epoch,
                    master=nxt.master,
                )
        if isinstance(e, ev.GameWon | ev.GameEnded):  # any end of the game reveals the master
            out.append(
                ev.DiceSeedRevealed(
                    round=rnd, seed=seed_of(master, chain, rnd).hex(), master=master.hex()
                )
            )
    return out


def import_commitment(
    master: bytes, game_id: str, round_: int, chain_length: int = dc.CHAIN_LENGTH
) -> ev.DiceCommitted:
    """A fresh commitment for an imported game: its own secret, from its current round on."""
    return ev.DiceCommitted(
        scheme=dc.FAIR_SCHEME,
        game_id=game_id,
        commitment=chain_commitment(master, 0, chain_length),
        chain_length=chain_length,
        first_round=round_,
        epoch=0,
        master=dc.master_commitment(master),
    )


# --------------------------------------------------------------------------------------------
# The hash chain of an exported log


def canonical_json(obj: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: the bytes that are hashed."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def log_hashes(start: str, events: Sequence[Mapping[str, Any]]) -> list[str]:
    """``hash_n = sha256(hash_{n-1} ‖ canonical_json(event_n))`` (hex), ``hash_0 = start``."""
    out: list[str] = []
    prev = start
    for e in events:
        prev = hashlib.sha256(prev.encode("utf-8") + canonical_json(e)).hexdigest()
        out.append(prev)
    return out


def first_broken_link(start: str, events: Sequence[Mapping[str, Any]]) -> int | None:
    """The 1-based number of the first exported event whose ``seq`` or ``hash`` is off."""
    prev = start
    for n, e in enumerate(events, start=1):
        body = {k: v for k, v in e.items() if k not in ("seq", "hash")}
        prev = hashlib.sha256(prev.encode("utf-8") + canonical_json(body)).hexdigest()
        if e.get("seq") != n or e.get("hash") != prev:
            return n
    return None


__all__ = [
    "MASTER",
    "SCRIPTED_REFUSED",
    "canonical_json",
    "chain_commitment",
    "dice_for",
    "draw_master",
    "epilogue",
    "fair_spec",
    "first_broken_link",
    "import_commitment",
    "log_hashes",
    "rolled_after_new_round",
    "seed_of",
    "start_events",
]
