"""The local table's ``orders`` ... ``end orders`` block: one batch (service/batch.py)."""

from __future__ import annotations

from pathlib import Path

from service import batch as bt
from tests.local.test_table import SEATS, answers, doc_block, in_process

BLOCK = """\
bob: orders
# the Soviet purchase and combat move at once
buy 2 infantry
end

move 3 infantry from Karelia to West Russia
end orders
"""


def test_a_block_is_one_answer_listing_every_line(tmp_path: Path) -> None:
    code, out, err = in_process("--script", "-", "--json", stdin=SEATS + BLOCK + "game status\n")
    assert code == 0, err
    got = answers(out)
    assert len(got) == 9  # 7 seat lines, the block, the status
    block = got[7]
    assert block["line"] == "bob: orders" and block["ok"] and block["error"] is None
    assert [(x["number"], x["line"], x["status"]) for x in block["lines"]] == [
        (2, "buy 2 infantry", "accepted"),
        (3, "end", "accepted"),
        (5, "move 3 infantry from Karelia to West Russia", "accepted"),
    ]
    assert block["lines"][0]["events"][0]["type"] == "UnitsPurchased"
    assert "Soviet Union bought 2 infantry" in block["lines"][0]["answer"]
    # the block's events are those of its lines, in order
    assert block["events"] == [e for x in block["lines"] for e in x["events"]]
    assert block["answer"].endswith("All 3 lines accepted, in order.")
    assert "Combat Move" in got[8]["answer"]


def test_a_refused_line_stops_the_block_and_the_script(tmp_path: Path) -> None:
    block = "bob: orders\nbuy 2 infantry\nplace 1 infantry in Russia\nbuy 1 tank\nend orders\n"
    code, out, _ = in_process("--script", "-", "--json",
                              stdin=SEATS + block + "bob: buy 1 tank\n")
    got = answers(out)
    assert code == 1 and len(got) == 8  # the script stops at the refused block
    b = got[7]
    assert not b["ok"]
    assert [x["status"] for x in b["lines"]] == ["accepted", "refused", "not tried"]
    assert b["lines"][1]["error"] and b["lines"][2]["error"] is None
    assert b["error"].startswith("Line 2 (place 1 infantry in Russia) refused: ")
    assert "nothing after line 2 was applied (1 line not tried)" in b["error"]
    # with --keep-going the table goes on, and only the first purchase was applied
    code, out, _ = in_process("--script", "-", "--json", "--keep-going",
                              stdin=SEATS + block + "state\n")
    got = answers(out)
    assert code == 1 and got[-1]["state"]["phase"] == "purchase"


def test_text_answer_lists_the_lines(tmp_path: Path) -> None:
    block = "bob: orders\nbuy 2 infantry\nbuy 2 zeppelins\nend\nend orders\n"
    code, out, _ = in_process("--script", "-", stdin=SEATS + block)
    assert code == 1
    tail = out[out.index("1. buy 2 infantry") :]  # numbered inside the block
    assert "   Soviet Union bought 2 infantry (6 IPCs)." in tail
    assert "2. buy 2 zeppelins\n   REFUSED: " in tail
    assert "3. end\n   not tried" in tail
    assert "nothing after line 2 was applied (1 line not tried)" in tail


def test_an_unclosed_block_applies_nothing(tmp_path: Path) -> None:
    code, out, _ = in_process("--script", "-", "--json",
                              stdin=SEATS + "bob: orders\nbuy 2 infantry\n")
    got = answers(out)
    assert code == 1 and len(got) == 8
    assert got[-1]["error"] == (
        "The block of orders begun with 'bob: orders' was not closed with 'end orders'; "
        "its order line was not applied."
    )
    code, out, _ = in_process("--script", "-", "--json",
                              stdin=SEATS + "bob: orders\nbuy 2 infantry\n\nstate\nend orders\n"
                              "state\n")
    assert answers(out)[-1]["state"]["phase"] == "purchase"


def test_block_needs_a_speaker_and_end_orders_needs_a_block(tmp_path: Path) -> None:
    code, out, _ = in_process("--script", "-", "--json", stdin="orders\n")
    (got,) = answers(out)
    assert code == 1 and "Who is speaking?" in got["error"]
    code, out, _ = in_process("--script", "-", "--json", stdin="alice: end orders\n")
    (got,) = answers(out)
    assert code == 1 and "No block of orders is open" in got["error"]


def test_a_block_over_the_limits_applies_nothing(tmp_path: Path) -> None:
    lines = "buy 1 infantry\n" * (bt.MAX_LINES + 1)
    code, out, _ = in_process("--script", "-", "--json", "--keep-going",
                              stdin=SEATS + f"state\nbob: orders\n{lines}end orders\nstate\n")
    got = answers(out)
    assert code == 1 and f"more than {bt.MAX_LINES}" in got[8]["error"]
    assert got[8]["lines"] == [] and got[8]["events"] == []
    assert got[9]["state"] == got[7]["state"]


def test_the_documented_block_plays_through(tmp_path: Path) -> None:
    """docs/local-table.md: the block example is accepted, every line of it."""
    script = tmp_path / "block.txt"
    script.write_text(doc_block("orders-block-script"))
    code, out, err = in_process("--script", str(script), "--json")
    got = answers(out)
    assert code == 0 and all(a["ok"] for a in got), err
    blocks = [a for a in got if "lines" in a]
    assert len(blocks) == 2 and all(x["status"] == "accepted" for b in blocks
                                    for x in b["lines"])
