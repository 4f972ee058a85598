"""Fair dice (DESIGN §6): hash chains, round keys, rejection sampling, and checking a log."""

from __future__ import annotations

import ast
import hashlib
import hmac
from pathlib import Path

import pytest

from rules import dice as dc
from rules import events as ev
from rules.dice_audit import read_log, verify

SEED = hashlib.sha256(b"test seed").digest()
MASTER = bytes(range(32))


# --------------------------------------------------------------------------------------------
# Chains and commitments


def test_chain_links_and_commitment() -> None:
    chain = dc.make_chain(SEED, 5)
    assert len(chain) == 6 and chain[-1] == SEED
    committed = dc.commitment(chain[0])
    assert committed == hashlib.sha256(chain[0]).digest()
    for k in range(5):
        assert chain[k] == hashlib.sha256(chain[k + 1]).digest()
        assert dc.verify_link(chain[k + 1], chain[k])
        assert not dc.verify_link(chain[k], chain[k + 1])
    for i in range(6):
        assert dc.links_to_commitment(chain[i], i, committed)
        assert not dc.links_to_commitment(chain[i], i + 1, committed)
    assert not dc.links_to_commitment(hashlib.sha256(b"forged").digest(), 3, committed)
    with pytest.raises(ValueError):
        dc.make_chain(SEED, 0)


def test_chain_index_covers_the_rounds_of_its_chain() -> None:
    assert dc.chain_index(1, 1, 100) == 1 and dc.chain_index(100, 1, 100) == 100
    assert dc.chain_index(3, 3, 2) == 1 and dc.chain_index(4, 3, 2) == 2
    for bad in (0, 101):
        with pytest.raises(ValueError, match="outside the chain"):
            dc.chain_index(bad, 1, 100)


def test_chains_of_a_master_are_distinct_and_committed_by_its_hash() -> None:
    tops = {dc.chain_top(MASTER, e) for e in range(5)}
    assert len(tops) == 5
    assert dc.chain_top(MASTER, 0) == hmac.new(MASTER, b"umpire-chain|0", "sha256").digest()
    assert dc.master_commitment(MASTER) == hashlib.sha256(MASTER).hexdigest()


# --------------------------------------------------------------------------------------------
# Keys and dice


def test_round_key_depends_on_seed_game_and_entropy() -> None:
    key = dc.round_key(SEED, "g1", b"Germany=ab")
    assert key == hmac.new(SEED, b"umpire-round|g1|Germany=ab", "sha256").digest()
    assert len({key, dc.round_key(SEED, "g2", b"Germany=ab"), dc.round_key(SEED, "g1", b""),
                dc.round_key(hashlib.sha256(SEED).digest(), "g1", b"Germany=ab")}) == 4


def test_entropy_mixes_every_phrase_sorted_by_power() -> None:
    a = {"Japan": dc.phrase_hash("banzai"), "Germany": dc.phrase_hash("blitz")}
    b = dict(reversed(list(a.items())))
    assert dc.combined_entropy(a) == dc.combined_entropy(b)
    assert dc.combined_entropy(a) == (
        f"Germany={hashlib.sha256(b'blitz').hexdigest()};"
        f"Japan={hashlib.sha256(b'banzai').hexdigest()}"
    ).encode()
    assert dc.combined_entropy({}) == b""


def test_fair_dice_are_hmac_dice_under_the_round_key_counting_on() -> None:
    d = dc.FairDice(SEED, "g1", b"e", start=7)
    first = d.roll(3, "Ukraine|round 1|attacker|infantry")
    second = d.roll(2, "Ukraine|round 1|attacker|tank")
    key = dc.round_key(SEED, "g1", b"e")
    assert first == dc.HmacDice(key, "g1", 7).roll(3, "Ukraine|round 1|attacker|infantry")
    assert dc.recompute(key, "g1", [(7, "Ukraine|round 1|attacker|infantry", 3),
                                    (10, "Ukraine|round 1|attacker|tank", 2)]) == [first, second]
    assert d.counter == 12 and d.name == "fair"


def test_rejection_sampling_skips_bytes_from_252() -> None:
    """Find messages whose first HMAC bytes are rejected; the die comes from the next byte."""
    key = b"k"
    seen = 0
    for n in range(3000):
        msg = f"m{n}".encode()
        digest = hmac.new(key, msg + b"|0", "sha256").digest()
        if digest[0] >= 252:
            accepted = next(b for b in digest if b < 252)
            assert dc.die_from_key(key, msg) == accepted % 6 + 1
            seen += 1
    assert seen > 0


def test_chi_square_of_60000_rolls_is_unremarkable() -> None:
    """Deterministic (fixed seed), so it cannot flake: below the 99.9% value for 5 d.o.f."""
    faces = dc.FairDice(SEED, "chi-square", b"").roll(60_000, "chi-square")
    counts = [faces.count(f) for f in range(1, 7)]
    assert all(c > 0 for c in counts)
    expected = len(faces) / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 20.515, (counts, chi2)


def test_rules_draw_no_randomness() -> None:
    """rules/ stays pure: no secrets, random, time or os.urandom anywhere in it."""
    banned = {"secrets", "random", "time", "datetime", "os"}
    for path in Path(dc.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module.split(".")[0]]
            assert not banned & set(names), (path.name, names)


# --------------------------------------------------------------------------------------------
# Reading and checking a log (rules.dice_audit)


def _log(
    reveal: dict[int, bytes] | None = None, faces: dict[int, list[int]] | None = None,
    chain_length: int = 10,
) -> list[ev.Event]:
    """A log with a commitment, entropy and one roll in rounds 1 and 2; both rounds revealed."""
    chain = dc.make_chain(dc.chain_top(MASTER, 0), chain_length)
    phrases = {"Germany": dc.phrase_hash("blitz")}
    out: list[ev.Event] = [
        ev.GameStarted(edition="a1941"),
        ev.DiceCommitted(scheme=dc.FAIR_SCHEME, game_id="g9",
                         commitment=dc.commitment(chain[0]).hex(), chain_length=chain_length,
                         master=dc.master_commitment(MASTER)),
        ev.DiceEntropyFixed(phrases=phrases),
    ]
    counter = 0
    for rnd in (1, 2):
        out.append(ev.TurnStarted(round=rnd, power="Germany"))
        key = dc.round_key(chain[rnd], "g9", dc.combined_entropy(phrases))
        purpose = dc.roll_purpose("Ukraine", 1, "attacker", "infantry")
        got = dc.recompute(key, "g9", [(counter, purpose, 3)])[0]
        got = (faces or {}).get(rnd, got)
        counter += 3
        out.append(ev.DiceRolled(space="Ukraine", round=1, side="attacker", purpose="x",
                                 groups=(("infantry", 1, tuple(got)),), hits=0))
        seed = (reveal or {}).get(rnd, chain[rnd])
        out.append(ev.DiceSeedRevealed(round=rnd, seed=seed.hex()))
    return out


def test_read_log_places_every_die() -> None:
    log = read_log(_log())
    assert [r.counter for r in log.rolls] == [0, 3] and log.counter == 6
    assert [r.round for r in log.rolls] == [1, 2]
    assert log.entropy == dc.combined_entropy({"Germany": dc.phrase_hash("blitz")})
    assert [(r.round, r.chain) for r in log.reveals] == [(1, 1), (2, 1)]


def test_verify_a_good_log() -> None:
    report = verify(read_log(_log()))
    assert report.ok, report.lines
    assert report.lines == (
        "Round 1: 3 dice in 1 roll verified; seed links to the commitment.",
        "Round 2: 3 dice in 1 roll verified; seed links to the commitment.",
    )
    only = verify(read_log(_log()), 2)
    assert [r.round for r in only.rounds] == [2]


def test_verify_names_a_changed_face() -> None:
    good = read_log(_log()).rolls[1].faces
    bad = [good[0] % 6 + 1, *good[1:]]
    report = verify(read_log(_log(faces={2: bad})))
    assert not report.ok
    assert report.lines[1].startswith(
        "Round 2: event #8 DiceRolled in Ukraine (battle round 1, attacker, group 1: 3 infantry)"
    )
    assert "the revealed seed gives" in report.lines[1]


def test_verify_a_seed_that_does_not_hash_to_the_previous_one() -> None:
    forged = hashlib.sha256(b"forged").digest()
    report = verify(read_log(_log(reveal={2: forged})))
    assert not report.ok and report.rounds[0].ok
    assert report.lines[1] == (
        "Round 2: the seed revealed at event #9 does not hash to round 1's seed (event #6)."
    )
    report = verify(read_log(_log(reveal={1: forged})))
    assert report.lines[0] == (
        "Round 1: the seed revealed at event #6 does not link to the commitment (event #2)."
    )


def test_verify_checks_a_revealed_master() -> None:
    log = _log()
    log.append(ev.DiceSeedRevealed(round=3, seed=dc.make_chain(dc.chain_top(MASTER, 0), 10)[3]
                                   .hex(), master=MASTER.hex()))
    report = verify(read_log(log))
    assert report.ok and report.lines[-1].startswith("The master secret revealed at event #10")
    log[-1] = log[-1].model_copy(update={"master": bytes(32).hex()})
    assert not verify(read_log(log)).ok


def test_verify_scripted_and_uncommitted_logs_say_so() -> None:
    scripted = [ev.GameStarted(edition="a1941"),
                ev.DiceCommitted(scheme="scripted", game_id="g1", faces=(1, 2))]
    report = verify(read_log(scripted))
    assert not report.ok and report.scripted and "not fair dice" in report.lines[0]
    report = verify(read_log([ev.GameStarted(edition="a1941")]))
    assert not report.ok and "no dice commitment" in report.lines[0]
