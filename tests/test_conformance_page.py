"""docs/rules/<edition>.md are generated from the rule indexes and the tests; they must be current."""

from __future__ import annotations

import pytest

from tools import conformance

BOOKS = conformance.books()


def test_every_edition_has_a_page() -> None:
    assert {b.page.name for b in BOOKS} >= {"1941.md", "classic.md"}


def test_rule_index_is_stored_in_the_repo() -> None:
    rules = conformance.read_index(conformance.book("a1941").index)
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)), "duplicate rule IDs in the index"
    assert {"CM-12", "CC-0b", "CC-6A", "H-7", "A-1", "A-22", "B-12"} <= set(ids)
    assert all(r.title for r in rules)


def test_classic_rule_index_has_rules_readings_and_examples() -> None:
    rules = {r.id: r for r in conformance.read_index(conformance.book("classic").index)}
    assert len(rules) == len({r.id for r in rules.values()})
    assert {"R-TEC-01", "R-SUB-02", "R-LC-02", "R-NC-08", "R-NCM-02", "R-AMP-05", "O-3"} <= set(rules)
    assert {f"A-{n:02d}" for n in range(1, 31)} <= set(rules)
    assert {f"EX-{n}" for n in range(1, 8)} <= set(rules)
    assert rules["A-05"].best_reading and "occupied" in rules["A-05"].best_reading
    assert rules["R-WIN-01"].best_reading and "every turn" in rules["R-WIN-01"].best_reading
    assert rules["R-SUB-02"].title.startswith("First strike")
    assert rules["R-SUB-02"].section.startswith("5.4")
    assert all(r.title for r in rules.values())


@pytest.mark.parametrize("book", BOOKS, ids=[b.word for b in BOOKS])
def test_conformance_page_is_current(book: conformance.Book) -> None:
    assert book.index.exists(), (
        f"{book.index.name} is missing: run `python -m tools.conformance --refresh-index "
        f"--edition {book.word}`"
    )
    page = conformance.build_page(book)
    on_disk = book.page.read_text(encoding="utf-8") if book.page.exists() else ""
    assert on_disk == page, (
        f"docs/rules/{book.page.name} is stale: run `python -m tools.conformance`"
    )


def test_test_names_and_docstrings_map_to_rule_ids() -> None:
    rules = [conformance.Rule("CC-6A", "Condition A", "s"), conformance.Rule("CC-7b", "t", "s"),
             conformance.Rule("CM-4", "t", "s"), conformance.Rule("A-12", "t", "s")]
    known = {r.id.lower(): r.id for r in rules}
    assert conformance._name_ids("test_CC_6A_ends_and_CC_7b_capture", known) == ["CC-6A", "CC-7b"]
    assert conformance._name_ids("test_a_12_lowercase_is_not_an_id", known) == []
    assert conformance._doc_ids("A-12: no retreat before round one (CM-4s, CC-6a).", known) == [
        "A-12", "CM-4", "CC-6A"]


def test_classic_ids_in_names_and_docstrings() -> None:
    ids = ["R-SUB-02", "R-AAG-01", "R-AAG-02", "R-AAG-03", "R-AAG-04", "R-WIN-01", "R-WIN-02",
           "A-05", "EX-3", "MAP-12"]
    known = {i.lower(): i for i in ids}
    assert conformance._name_ids("test_R_SUB_02_subs_strike_first_and_A_05_x", known) == [
        "R-SUB-02", "A-05"]
    assert conformance._name_ids("test_EX_3_hawaiian_sea_battle", known) == ["EX-3"]
    # R-MAP-12 is not MAP-12, even where only MAP-12 is known
    assert conformance._name_ids("test_R_MAP_12_gibraltar", known) == []
    # leading zeros may be left out in an edition's own tests only
    assert conformance._name_ids("test_A_5_blitz", known) == []
    assert conformance._name_ids("test_A_5_blitz", known, lenient=True) == ["A-05"]
    assert conformance._doc_ids("R-AAG-01..04 and R-WIN-01/02 (R-SUB-02).", known) == [
        "R-AAG-01", "R-AAG-02", "R-AAG-03", "R-AAG-04", "R-WIN-01", "R-WIN-02", "R-SUB-02"]


def test_a_test_of_one_edition_does_not_cover_the_other() -> None:
    classic = conformance.book("classic")
    rules = conformance.read_index(classic.index)
    cover = conformance.scan_tests(classic, rules)
    everything = [t for tests in cover.values() for t in tests]
    assert not [t for t in everything if "a1941" in t]
    # a test of no edition by name that cites 1941-only IDs (CC-6C, A-10) is 1941's
    assert not [t for t in cover["A-10"] if "test_CC_6C" in t]
    a1941 = conformance.book("1941")
    cover = conformance.scan_tests(a1941, conformance.read_index(a1941.index))
    assert not [t for tests in cover.values() for t in tests if "classic" in t]


def test_a_rule_named_in_an_items_bold_title_is_indexed() -> None:
    """Europe 1940 §5.4 names FR-1 inside a nested item's title; an ID with an item of its own
    keeps that item."""
    text = ("## 5. Politics\n\n* **France**\n  * **Liberation bonus (FR-1):** free units.\n"
            "    * **Best reading:** land or air units.\n* **CM-1 Title.** text\n"
            "  * **Again (CM-1):** not a second definition.\n")
    rules = {r.id: r for r in conformance.parse_digest(text)}
    assert list(rules) == ["FR-1", "CM-1"]
    assert rules["FR-1"].title == "Liberation bonus"
    assert rules["FR-1"].best_reading == "land or air units."
    assert rules["CM-1"].title == "Title"
