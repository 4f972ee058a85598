"""Answers and refusals in a Classic game cite Classic's rulebook, not 1941's (edition data)."""

from __future__ import annotations

import json
from pathlib import Path

from rules import orders as od
from rules.edition import load_edition
from service.describe import describe_all
from tests.rules.helpers import Game, position

ROOT = Path(__file__).resolve().parents[3]


def test_every_citation_names_a_rule_of_the_classic_digest() -> None:
    index = json.loads((ROOT / "docs/rules/classic_rule_index.json").read_text("utf-8"))
    ids = {r["id"] for r in index["rules"]}
    citations = load_edition("classic").rules.citations
    assert citations and set(citations.values()) <= ids, set(citations.values()) - ids


def test_R_AIR_07_a_refusal_cites_the_classic_rule() -> None:
    g = Game(position("Germany", "noncombat_move",
                      {"Western Europe": {"Germany": {"fighter": 1}},
                       "Eastern Europe": {"Germany": {"infantry": 1}}},
                      edition="classic",
                      owners={"Western Europe": "United Kingdom", "Germany": "United Kingdom",
                              "Southern Europe": "United Kingdom"}))
    err = g.refuse(od.EndPhase(), "R-AIR-07")
    assert "NC-7" not in str(err)


def test_R_LC_05_event_lines_cite_the_classic_rule() -> None:
    g = Game(position("Germany", "combat_move",
                      {"Eastern Europe": {"Germany": {"tank": 1}},
                       "Karelia S.S.R.": {"Russia": {"infantry": 1}}},
                      edition="classic"))
    before = len(g.events)
    g.move({"tank": 1}, "Eastern Europe", "Karelia S.S.R.")
    g.end()
    g.script(1, 6)
    g.do(od.Battle(space="Karelia S.S.R.", all=True))
    lines = describe_all(None, g.events)[before:]
    text = "\n".join(lines)
    assert "R-LC-05" in text and "R-CON-03" in text
    assert "CC-5" not in text and "CC-7b" not in text


def test_1941_keeps_its_own_rule_ids() -> None:
    assert load_edition("a1941").cite_text("casualties (CC-5)") == "casualties (CC-5)"
