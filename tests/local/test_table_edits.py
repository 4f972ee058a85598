"""Edits with consent at the local table, two people: the owner proposes, a player of the other
side confirms; the wrong person is refused and nothing changes; history shows the edit."""

from __future__ import annotations

from pathlib import Path

from tests.local.test_table import answers, in_process

SCRIPT = """\
alice: game new 1941
game join Germany
game join Japan
bob: game join Soviet Union
game join United Kingdom
game join United States
alice: game start
bob: edit money Germany 99
alice: edit add 2 inf in W Russia
alice: edit confirm 1
bob: edit confirm 1
bob: edit confirm 1
alice: edit money germans 99
bob: edit reject 2
alice: edit owner Karelia Germany
game history 2
edit list
state
"""


def test_owner_proposes_other_side_confirms_wrong_person_refused(tmp_path: Path) -> None:
    code, out, _err = in_process("--json", "--keep-going", "--db", str(tmp_path / "t.db"),
                                 stdin=SCRIPT)
    a = {i: x for i, x in enumerate(answers(out))}
    assert code == 0
    assert not a[7]["ok"] and "Only the game's owner (alice)" in a[7]["error"]
    assert a[8]["ok"] and "Edit #1 proposed by alice: edit add 2 infantry in West Russia for " \
        "Germany" in a[8]["answer"]
    assert not a[9]["ok"] and a[9]["error"] == (
        "You cannot confirm this edit: you proposed it. A player of the Allies confirms it.")
    assert a[10]["ok"] and [e["type"] for e in a[10]["events"]] == ["EditApplied"]
    assert a[10]["events"][0]["agreed"] == "bob"
    assert not a[11]["ok"] and a[11]["error"] == "Edit #1 was already applied (confirmed by bob)."
    assert a[12]["ok"] and a[13]["ok"] and "Edit #2 rejected by bob" in a[13]["answer"]
    assert not a[14]["ok"] and "Soviet Union's units stand in Karelia" in a[14]["error"]
    assert "Edit #1: add 2 infantry in West Russia for Germany. Proposed by alice, agreed by " \
        "bob" in a[15]["answer"]
    assert "#2 edit money Germany 99 (proposed by alice; rejected by bob)" in a[16]["answer"]
    state = a[17]["state"]
    assert state["units"]["West Russia"]["Germany"]["infantry"] == 5
    assert state["treasury"]["Germany"] != 99
