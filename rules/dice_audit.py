"""Reading a game's dice from its log, and checking them (DESIGN §6, ``docs/dice.md``).

``read_log`` walks the events in order and says, for every die, which commitment, game round,
entropy and counter it was rolled under; the service uses the same walk to build the next
order's dice, so what it rolls is what a verifier recomputes. ``verify`` checks every revealed
round: the seed hashes to the one before it and to the commitment, and it gives every face.

Pure: no secrets here, only what the log says. ``tools/verify_dice.py`` is an independent
re-implementation of the same checks for players (standard library only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from rules import dice as dc
from rules import events as ev


@dataclass(frozen=True)
class ChainInfo:
    """One ``DiceCommitted`` event: a commitment and the rounds it keys."""

    number: int  # 1-based, in log order
    seq: int  # event number (1-based, as ``game history`` numbers them)
    scheme: str
    game_id: str
    commitment: str
    chain_length: int
    first_round: int
    epoch: int
    master: str

    def covers(self, round_: int) -> bool:
        return self.first_round <= round_ < self.first_round + self.chain_length


@dataclass(frozen=True)
class GroupRoll:
    """The dice of one unit group in a ``DiceRolled`` event."""

    seq: int
    space: str
    battle_round: int
    side: str
    group: int  # 1-based within the event
    unit_type: str
    purpose: str
    counter: int  # dice rolled in the game before this group's first die
    faces: tuple[int, ...]
    chain: int | None  # ChainInfo.number in force, None before any commitment
    round: int  # game round
    entropy: bytes
    label: str = ""  # rolls outside battles: "<event type> (<purpose>)"

    def where(self) -> str:
        """The roll, for messages: "DiceRolled in Ukraine (battle round 1, ...)"."""
        if self.label:
            return f"{self.label}, {len(self.faces)} {'die' if len(self.faces) == 1 else 'dice'}"
        return (f"DiceRolled in {self.space} (battle round {self.battle_round}, {self.side}, "
                f"group {self.group}: {len(self.faces)} {self.unit_type})")


@dataclass(frozen=True)
class Reveal:
    seq: int
    chain: int | None
    round: int
    seed: str
    master: str


@dataclass
class DiceLog:
    """What a game's log says about its dice, up to its last event."""

    chains: list[ChainInfo] = field(default_factory=list)
    rolls: list[GroupRoll] = field(default_factory=list)
    reveals: list[Reveal] = field(default_factory=list)
    counter: int = 0  # dice rolled so far: the next die's counter
    round: int = 1  # the current game round
    entropy: bytes = b""
    phrases: dict[str, str] = field(default_factory=dict)

    @property
    def chain(self) -> ChainInfo | None:
        """The commitment in force now (the last one)."""
        return self.chains[-1] if self.chains else None

    @property
    def scripted(self) -> bool:
        return any(c.scheme == dc.SCRIPTED_SCHEME for c in self.chains)

    def revealed(self, chain: int, round_: int) -> Reveal | None:
        for r in self.reveals:
            if r.chain == chain and r.round == round_:
                return r
        return None


def group_purposes(e: ev.DiceRolled) -> list[str]:
    """The purpose each group of a ``DiceRolled`` was rolled for (as ``rules.combat`` gives it)."""
    return e.roll_purposes()


def read_log(
    events: Sequence[ev.Event], *, after: DiceLog | None = None, first: int = 1
) -> DiceLog:
    """Walk a log (from ``GameStarted``) and place every die under its commitment and round.
    ``after``: what the log before ``events`` said (left unchanged), ``first`` the number of
    the first of ``events``: a log read once is carried on by its new events alone."""
    log = DiceLog() if after is None else replace(
        after, chains=list(after.chains), rolls=list(after.rolls), reveals=list(after.reveals),
        phrases=dict(after.phrases))
    for n, e in enumerate(events, start=first):
        match e:
            case ev.GameStarted():
                log.round = int((e.position or {}).get("round", 1))
            case ev.TurnStarted():
                log.round = e.round
            case ev.DiceCommitted():
                log.chains.append(
                    ChainInfo(
                        number=len(log.chains) + 1,
                        seq=n,
                        scheme=e.scheme,
                        game_id=e.game_id,
                        commitment=e.commitment,
                        chain_length=e.chain_length,
                        first_round=e.first_round,
                        epoch=e.epoch,
                        master=e.master,
                    )
                )
            case ev.DiceEntropyFixed():
                log.phrases = dict(e.phrases)
                log.entropy = dc.combined_entropy(e.phrases)
            case ev.DiceSeedRevealed():
                chain = log.chain
                log.reveals.append(
                    Reveal(n, chain.number if chain else None, e.round, e.seed, e.master)
                )
            case ev.DiceRolled():
                chain = log.chain
                for g, (purpose, (utype, _value, faces)) in enumerate(
                    zip(group_purposes(e), e.groups, strict=True), start=1
                ):
                    log.rolls.append(
                        GroupRoll(
                            seq=n,
                            space=e.space,
                            battle_round=e.round,
                            side=e.side,
                            group=g,
                            unit_type=utype,
                            purpose=purpose,
                            counter=log.counter,
                            faces=tuple(faces),
                            chain=chain.number if chain else None,
                            round=log.round,
                            entropy=log.entropy,
                        )
                    )
                    log.counter += len(faces)
            case _:
                # Dice rolled outside battles (by mechanisms): ``rolls`` in the event.
                extra: ev.Rolls = getattr(e, "rolls", ())
                chain = log.chain
                for g, (purpose, faces) in enumerate(extra, start=1):
                    log.rolls.append(
                        GroupRoll(
                            seq=n,
                            space="",
                            battle_round=0,
                            side="",
                            group=g,
                            unit_type="",
                            purpose=purpose,
                            counter=log.counter,
                            faces=tuple(faces),
                            chain=chain.number if chain else None,
                            round=log.round,
                            entropy=log.entropy,
                            label=f"{type(e).__name__} ({purpose})",
                        )
                    )
                    log.counter += len(faces)
    return log


# --------------------------------------------------------------------------------------------
# Checking


@dataclass(frozen=True)
class RoundCheck:
    """The verdict on one game round of one chain."""

    round: int
    chain: int | None
    revealed: bool
    ok: bool
    dice: int
    rolls: int
    line: str


@dataclass(frozen=True)
class DiceReport:
    """Every round's verdict; ``ok`` when nothing failed (unrevealed rounds are no failure)."""

    ok: bool
    scripted: bool
    rounds: tuple[RoundCheck, ...]
    lines: tuple[str, ...]

    @property
    def verified(self) -> tuple[RoundCheck, ...]:
        return tuple(r for r in self.rounds if r.revealed and r.ok)


SCRIPTED_LINE = (
    "The dice of this game are scripted (--dice): their faces were given in advance and are "
    "public, so they are not fair dice and there is nothing to verify."
)
NO_COMMITMENT_LINE = (
    "This game's log has no dice commitment (it predates fair dice): its rolls cannot be checked."
)


def _faces(fs: Sequence[int]) -> str:
    return ",".join(str(f) for f in fs) or "none"


def _label(rnd: int, chain: int | None, several: bool) -> str:
    return f"Round {rnd}" + (f" (chain {chain})" if several and chain is not None else "")


def _seed_bytes(text: str) -> bytes | None:
    try:
        b = bytes.fromhex(text)
    except ValueError:
        return None
    return b if len(b) == 32 else None


def _check_round(
    log: DiceLog, chain: ChainInfo, rnd: int, several: bool
) -> RoundCheck:
    rolls = [r for r in log.rolls if r.chain == chain.number and r.round == rnd]
    n_dice = sum(len(r.faces) for r in rolls)
    n_rolls = len({r.seq for r in rolls})
    label = _label(rnd, chain.number, several)
    what = f"{n_dice} {'die' if n_dice == 1 else 'dice'} in {n_rolls} "
    what += "roll" if n_rolls == 1 else "rolls"
    reveal = log.revealed(chain.number, rnd)

    def fail(why: str) -> RoundCheck:
        return RoundCheck(rnd, chain.number, reveal is not None, False, n_dice, n_rolls,
                          f"{label}: {why}")

    if not chain.covers(rnd):
        first = rolls[0].seq if rolls else (reveal.seq if reveal else chain.seq)
        return fail(
            f"event #{first} belongs to a round outside the committed chain (rounds "
            f"{chain.first_round}..{chain.first_round + chain.chain_length - 1})."
        )
    if reveal is None:
        nxt = rnd + 1
        return RoundCheck(rnd, chain.number, False, True, n_dice, n_rolls,
                          f"{label}: {what}, not revealed yet (its seed is revealed when round "
                          f"{nxt} starts or the game ends).")
    dupes = [r for r in log.reveals if r.chain == chain.number and r.round == rnd]
    if any(r.seed != reveal.seed for r in dupes):
        return fail(f"two different seeds were revealed (events #{dupes[0].seq} and "
                    f"#{dupes[-1].seq}).")
    seed = _seed_bytes(reveal.seed)
    committed = _seed_bytes(chain.commitment)
    if seed is None:
        return fail(f"the seed revealed at event #{reveal.seq} is not 32 bytes of hex.")
    if committed is None:
        return fail(f"the commitment at event #{chain.seq} is not 32 bytes of hex.")
    index = dc.chain_index(rnd, chain.first_round, chain.chain_length)
    prev = log.revealed(chain.number, rnd - 1) if index > 1 else None
    prev_seed = _seed_bytes(prev.seed) if prev is not None else None
    if prev is not None and prev_seed is not None and not dc.verify_link(seed, prev_seed):
        return fail(
            f"the seed revealed at event #{reveal.seq} does not hash to round {rnd - 1}'s seed "
            f"(event #{prev.seq})."
        )
    if not dc.links_to_commitment(seed, index, committed):
        return fail(
            f"the seed revealed at event #{reveal.seq} does not link to the commitment "
            f"(event #{chain.seq})."
        )
    for r in rolls:
        key = dc.round_key(seed, chain.game_id, r.entropy)
        want = dc.recompute(key, chain.game_id, [(r.counter, r.purpose, len(r.faces))])[0]
        if list(r.faces) != want:
            return fail(
                f"event #{r.seq} {r.where()} shows {_faces(r.faces)}; the revealed seed gives "
                f"{_faces(want)}."
            )
    return RoundCheck(rnd, chain.number, True, True, n_dice, n_rolls,
                      f"{label}: {what} verified; seed links to the commitment.")


def _check_master(log: DiceLog) -> list[tuple[bool, str]]:
    out: list[tuple[bool, str]] = []
    for r in log.reveals:
        if not r.master:
            continue
        try:
            master = bytes.fromhex(r.master)
        except ValueError:
            out.append((False, f"The master secret revealed at event #{r.seq} is not hex."))
            continue
        # The chains that name this master (an imported game also has its first bot's chains).
        mine = [c for c in log.chains
                if c.scheme == dc.FAIR_SCHEME and c.master == dc.master_commitment(master)]
        bad = [
            c for c in mine
            if c.commitment != dc.commitment(
                dc.make_chain(dc.chain_top(master, c.epoch), c.chain_length)[0]
            ).hex()
        ]
        if not mine:
            out.append((False, f"The master secret revealed at event #{r.seq} is not the one "
                               "any commitment names."))
        elif bad:
            out.append((False, f"The master secret revealed at event #{r.seq} does not give "
                               f"the commitment at event #{bad[0].seq}."))
        else:
            out.append((True, f"The master secret revealed at event #{r.seq} gives every "
                              "commitment made with it."))
    return out


def verify(log: DiceLog, round_: int | None = None) -> DiceReport:
    """Check every revealed round (or only ``round_``) of the log's fair dice."""
    if log.scripted:
        return DiceReport(False, True, (), (SCRIPTED_LINE,))
    if not log.chains:
        return DiceReport(False, False, (), (NO_COMMITMENT_LINE,))
    lines: list[str] = []
    ok = True
    stray = [r for r in log.rolls if r.chain is None]
    if stray:
        r = stray[0]
        ok = False
        lines.append(f"Event #{r.seq} {r.where()} came before any dice commitment.")
    keys = sorted(
        {(r.round, r.chain) for r in log.rolls if r.chain is not None}
        | {(r.round, r.chain) for r in log.reveals if r.chain is not None}
    )
    if round_ is not None:
        keys = [k for k in keys if k[0] == round_]
    several = len(log.chains) > 1
    checks: list[RoundCheck] = []
    for rnd, number in keys:
        assert number is not None
        check = _check_round(log, log.chains[number - 1], rnd, several)
        checks.append(check)
        lines.append(check.line)
        ok = ok and check.ok
    if round_ is None:
        for good, line in _check_master(log):
            lines.append(line)
            ok = ok and good
    return DiceReport(ok, False, tuple(checks), tuple(lines))


__all__ = [
    "ChainInfo",
    "DiceLog",
    "DiceReport",
    "GroupRoll",
    "Reveal",
    "RoundCheck",
    "group_purposes",
    "read_log",
    "verify",
]
