"""tools/verify_dice.py: a player's standalone check of an exported game."""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules import dice as dc
from rules import events as ev
from rules.dice_audit import group_purposes
from tests.fair_game import exported
from tools import verify_dice as vd

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_dice.py"


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    """A fair game to the start of round 3: battles in rounds 1 and 2, both revealed."""
    return exported(3)


def check(d: dict[str, Any], **kw: Any) -> tuple[bool, list[str]]:
    return vd.verify(copy.deepcopy(d), **kw)


def rehash(d: dict[str, Any]) -> dict[str, Any]:
    """What a forger who knows the scheme does: renumber and rehash the whole log."""
    prev = d["game"]["id"]
    for n, e in enumerate(d["events"], start=1):
        body = {k: v for k, v in e.items() if k not in ("seq", "hash")}
        prev = hashlib.sha256(prev.encode() + vd.canonical(body)).hexdigest()
        e["seq"], e["hash"] = n, prev
    d["log"]["head"] = prev
    return d


def test_a_clean_export_passes(doc: dict[str, Any]) -> None:
    good, lines = check(doc)
    assert good, lines
    assert lines[2] == "Round 1: 9 dice in 4 rolls verified; seed links to the commitment."
    assert lines[3] == "Round 2: 11 dice in 6 rolls verified; seed links to the commitment."
    assert lines[-1] == "All checks passed."
    assert check(doc, only=2)[1][2].startswith("Round 2:")
    assert check(doc, head=doc["log"]["head"][:12])[0]


def test_it_runs_alone_with_the_standard_library(doc: dict[str, Any], tmp_path: Path) -> None:
    tree = ast.parse(TOOL.read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    # -I: isolated, so nothing of the project (or its venv paths) can be imported
    p = subprocess.run([sys.executable, "-I", str(TOOL), str(path)], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "All checks passed." in p.stdout
    p = subprocess.run([sys.executable, "-I", str(TOOL), str(tmp_path / "nope.json")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "cannot read" in p.stderr


def test_it_agrees_with_the_rules_on_many_rolls() -> None:
    for n in range(40):
        seed = hashlib.sha256(f"seed {n}".encode()).digest()
        entropy = vd.entropy_of({"Germany": dc.phrase_hash(f"p{n}"), "Japan": "ab" * 32})
        assert entropy == dc.combined_entropy({"Japan": "ab" * 32,
                                               "Germany": dc.phrase_hash(f"p{n}")})
        assert vd.round_key(seed, f"g{n}", entropy) == dc.round_key(seed, f"g{n}", entropy)
        purpose = dc.roll_purpose(f"Sea Zone {n}", n % 4 + 1, "defender", "battleship")
        ours = dc.FairDice(seed, f"g{n}", entropy, start=n * 100).roll(250, purpose)
        key = vd.round_key(seed, f"g{n}", entropy)
        assert vd.dice_of(key, f"g{n}", n * 100, purpose, 250) == ours
        chain = dc.make_chain(seed, 5)
        assert vd.hashed_times(chain[3], 4) == dc.commitment(chain[0])


def test_it_reads_purposes_as_the_rules_give_them(doc: dict[str, Any]) -> None:
    rolled = [e for e in doc["events"] if e["type"] == "DiceRolled"]
    assert rolled
    for e in rolled:
        body = {k: v for k, v in e.items() if k not in ("seq", "hash")}
        typed = ev.event_from_json(body)
        assert isinstance(typed, ev.DiceRolled)
        assert [vd.purpose_of(e, g[0]) for g in e["groups"]] == group_purposes(typed)
    # submarine surprise strikes roll apart from the rest of their side
    strike = ev.DiceRolled(space="Sea Zone 5", round=1, side="attacker", purpose="x",
                           groups=(("submarine", 2, (1,)),), hits=1, stage="strike")
    assert vd.purpose_of(ev.event_to_json(strike), "submarine") == group_purposes(strike)[0]
    assert group_purposes(strike)[0] == "Sea Zone 5|round 1|attacker:strike|submarine"


# --------------------------------------------------------------------------------------------
# Tampering


def test_a_changed_face_names_the_event(doc: dict[str, Any]) -> None:
    d = copy.deepcopy(doc)
    e = next(x for x in d["events"] if x["type"] == "DiceRolled")
    e["groups"][0][2][0] = e["groups"][0][2][0] % 6 + 1
    good, lines = check(d)
    assert not good
    assert f"Event #{e['seq']} (DiceRolled) was changed: it does not match its hash." in lines
    # a forger who rehashes the log is still caught by the dice
    good, lines = check(rehash(d))
    assert not good and "hash chain intact" in lines[1]
    assert lines[2].startswith(f"Round 1: event #{e['seq']} DiceRolled in Ukraine (battle round "
                               f"1, attacker, group 1: 1 tank) shows")


def test_any_changed_field_of_any_event_is_found(doc: dict[str, Any]) -> None:
    for i, e in enumerate(doc["events"]):
        for field in [k for k in e if k not in ("seq", "hash")]:
            d = copy.deepcopy(doc)
            value = d["events"][i][field]
            d["events"][i][field] = "tampered" if value != "tampered" else "other"
            good, lines = check(d)
            assert not good
            assert lines[1] == (f"Event #{i + 1} ({d['events'][i]['type']}) was changed: it "
                                "does not match its hash."), (field, lines[1])


def test_a_removed_event_is_found(doc: dict[str, Any]) -> None:
    for i in range(len(doc["events"]) - 1):
        d = copy.deepcopy(doc)
        del d["events"][i]
        good, lines = check(d)
        assert not good and lines[1].startswith(f"Event #{i + 1} was removed"), lines[1]
    # the last event: the export's own head hash tells, or the one the bot published
    d = copy.deepcopy(doc)
    d["events"].pop()
    good, lines = check(d)
    assert not good and "events were removed from the end" in lines[1]
    del d["log"]
    assert check(d)[0]
    good, lines = check(d, head=doc["log"]["head"])
    assert not good and "events were removed from the end" in lines[1]


def test_swapped_events_are_found(doc: dict[str, Any]) -> None:
    for i in range(len(doc["events"]) - 1):
        d = copy.deepcopy(doc)
        d["events"][i], d["events"][i + 1] = d["events"][i + 1], d["events"][i]
        good, lines = check(d)
        assert not good
        assert lines[1].startswith(f"Events out of order: event #{i + 1} "), lines[1]


def test_a_revealed_seed_that_does_not_hash_to_the_previous_one(doc: dict[str, Any]) -> None:
    d = copy.deepcopy(doc)
    reveals = [e for e in d["events"] if e["type"] == "DiceSeedRevealed"]
    reveals[1]["seed"] = hashlib.sha256(b"forged").hexdigest()
    good, lines = check(rehash(d))
    assert not good
    assert lines[3] == (f"Round 2: the seed revealed at event #{reveals[1]['seq']} does not "
                        f"hash to round 1's seed (event #{reveals[0]['seq']}).")
    reveals[0]["seed"] = hashlib.sha256(b"forged too").hexdigest()
    good, lines = check(rehash(d))
    assert lines[2] == (f"Round 1: the seed revealed at event #{reveals[0]['seq']} does not "
                        "link to the commitment (event #2).")


def test_exit_codes_and_summary(doc: dict[str, Any], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert vd.main([str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "All checks passed."
    assert vd.main([str(path), "--head", "00"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "FAILED: see above."


def test_scripted_games_are_not_called_fair() -> None:
    d = {"format": "umpire-game", "game": {"id": "g1"}, "events": []}
    body = {"type": "DiceCommitted", "scheme": "scripted", "game_id": "g1", "faces": [1, 2]}
    d["events"] = [{**body, "seq": 1,
                    "hash": hashlib.sha256(b"g1" + vd.canonical(body)).hexdigest()}]
    good, lines = vd.verify(d)
    assert not good and "scripted" in lines[2] and "not fair" in lines[2]


def _deep_event(depth: int) -> bytes:
    inner = "[" * depth + "]" * depth
    return ('{"format": "umpire-game", "game": {"id": "g1"}, "events": [{"type": "X", "v": '
            + inner + "}]}").encode()


MALFORMED: dict[str, bytes] = {
    "empty file": b"",
    "blank file": b" \n\t\n",
    "truncated JSON": b'{"format": "umpire-game", "events": [{"type": "GameStar',
    "binary garbage": bytes(range(256)) * 8,
    "a PNG header": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "deeply nested list": b"[" * 200_000 + b"]" * 200_000,
    "deeply nested object": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "deep inside an event": _deep_event(50_000),
    "a JSON list": b"[1, 2, 3]",
    "a JSON string": b'"umpire-game"',
    "null": b"null",
    "another format": b'{"format": "triplea", "events": []}',
    "events not a list": b'{"format": "umpire-game", "events": {"a": 1}}',
    "an event not an object": b'{"format": "umpire-game", "events": [1, 2]}',
    "NaN and nonsense": b'{"format": "umpire-game", "game": 5, "log": [], "events": [{"seq": NaN}]}',
    "latin-1 text": "{\"format\": \"umpire-game\", \"x\": \"caf\xe9\"}".encode("latin-1"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_file_is_not_a_game_export(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(MALFORMED[name])
    code = vd.main([str(path)])
    out = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in out.err + out.out
    if code == 2:
        assert f"{path}: not a game export: " in out.err, out.err
    else:  # an object with events that are objects: checked, and it fails plainly
        assert out.out.splitlines()[-1] == "FAILED: see above."


def test_deep_nesting_ends_without_a_traceback_in_a_fresh_python(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(MALFORMED["deeply nested list"])
    p = subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip() == f"{path}: not a game export: the JSON is nested too deep"
