"""docs/rules/1941.md is generated from the rule index and the tests; it must be current."""

from __future__ import annotations

from tools import conformance


def test_rule_index_is_stored_in_the_repo() -> None:
    rules = conformance.read_index()
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)), "duplicate rule IDs in the index"
    assert {"CM-12", "CC-0b", "CC-6A", "H-7", "A-1", "A-22", "B-12"} <= set(ids)
    assert all(r.title for r in rules)


def test_conformance_page_is_current() -> None:
    page = conformance.build_page()
    on_disk = conformance.PAGE.read_text(encoding="utf-8") if conformance.PAGE.exists() else ""
    assert on_disk == page, "docs/rules/1941.md is stale: run `python -m tools.conformance`"


def test_test_names_and_docstrings_map_to_rule_ids() -> None:
    rules = [conformance.Rule("CC-6A", "Condition A", "s"), conformance.Rule("CC-7b", "t", "s"),
             conformance.Rule("CM-4", "t", "s"), conformance.Rule("A-12", "t", "s")]
    known = {r.id.lower(): r.id for r in rules}
    assert conformance._name_ids("test_CC_6A_ends_and_CC_7b_capture", known) == ["CC-6A", "CC-7b"]
    assert conformance._name_ids("test_a_12_lowercase_is_not_an_id", known) == []
    assert conformance._doc_ids("A-12: no retreat before round one (CM-4s, CC-6a).", known) == [
        "A-12", "CM-4", "CC-6A"]
