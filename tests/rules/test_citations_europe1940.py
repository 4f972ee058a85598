"""Answers and refusals in a Europe 1940 game cite the Europe 1940 digest, never a 1941 (or
Classic) number: the engine's words cite 1941's IDs, which Europe 1940's digest also uses with
other meanings, so its ``citations`` must map every ID the engine cites (``tools/citations.py``
reads them from the source) to one of its own, or leave it out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import orders as od
from rules.edition import DROPPED, load_edition
from rules.messages import OWN_HYPHEN, own_rule
from service.describe import describe_all
from tests.rules.helpers import Game, position
from tools.citations import CITATION, cited_in, engine_citations, own_citations

ROOT = Path(__file__).resolve().parents[2]
E40 = "europe1940"


def rule_index(edition: str) -> set[str]:
    data = json.loads((ROOT / f"docs/rules/{edition}_rule_index.json").read_text("utf-8"))
    return {r["id"] for r in data["rules"]}


def citations() -> dict[str, str]:
    return load_edition(E40).rules.citations


# --------------------------------------------------------------------------------------------
# The map: total, and only Europe 1940's IDs


def test_every_rule_the_engine_cites_has_a_europe1940_citation() -> None:
    cited = engine_citations()
    assert len(cited) > 100  # the scan finds the engine's citations
    missing = {k: [str(s) for s in v[:3]] for k, v in cited.items() if k not in citations()}
    assert not missing, (
        "rule IDs the engine cites without a Europe 1940 citation (add them to "
        "rules/editions/europe1940/edition.json 'citations'; a mechanism citing its own "
        f"edition's rule writes own_rule(...)): {missing}")


def test_every_citation_is_of_a_rule_the_engine_cites() -> None:
    """An entry for an ID nobody cites any more would also rewrite the same ID where a Europe
    1940 mechanism cites it for its own meaning."""
    stale = sorted(set(citations()) - set(engine_citations()))
    assert not stale, f"citations of IDs the engine no longer cites: {stale}"


def test_every_citation_names_a_rule_of_the_europe1940_digest() -> None:
    ids = rule_index(E40)
    bad = {k: v for k, v in citations().items()
           if v and not set(v.split("/")) <= ids}
    assert not bad, bad
    assert all(load_edition(E40).cite(k) for k in citations())


def test_the_editions_own_data_is_cited_as_written() -> None:
    """Victory conditions, units and politics in edition.json cite Europe 1940's own IDs (its
    Axis victory has the number of 1941's Allied one): the map must not rewrite them."""
    ed = load_edition(E40)
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "rule" and isinstance(v, str):
                    found.update(m.group(1) for m in CITATION.finditer(v))
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(ed.rules.model_dump(exclude={"citations", "sea_citations", "notes"}))
    assert {"V-1", "V-2"} <= found
    assert {r: ed.cite(r) for r in found} == {r: r for r in found}


def test_own_rule_citations_name_rules_of_a_digest() -> None:
    ids = rule_index(E40) | rule_index("a1941") | rule_index("classic")
    bad = {k: [str(s) for s in v] for k, v in own_citations().items() if k not in ids}
    assert not bad, bad


def test_the_scan_finds_new_citations() -> None:
    source = '''
def f(ed):
    """A docstring citing CM-99 is no citation."""
    raise IllegalOrder(msg("a.b", "UT-3", x=1))
    tx.emit(ev.UnitsRemoved(ids=(), rule="CC-6C"))
    text = "utf: UTF-8"
    mine = msg("c.d", own_rule("FN-2, CM-3"))
    return ed.cite("MB-1", "MB-3"), "(UT-3, §18 A-9)"
'''
    found = sorted({i for i, _ in cited_in(source)})
    assert found == ["CC-6C", "MB-1", "MB-3", "UT-3", "§18 A-9"]


# --------------------------------------------------------------------------------------------
# Citations left out, and a mechanism's own citations


def test_a_citation_left_out_goes_with_its_separator_or_parenthesis() -> None:
    ed = load_edition(E40)
    assert citations()["UT-12"] == ""
    assert ed.cite("UT-12") == DROPPED
    assert ed.cite("UT-12", "AA-4") == own_rule("AA-4")
    assert ed.cite_text(f"Transports may not load there ({ed.cite('UT-12')}).") == (
        "Transports may not load there.")
    assert ed.cite_text("may not move (UT-12/UT-13). It") == "may not move. It"
    assert ed.cite_text("one territory (AA-4/UT-12), (UT-12, CM-4; x)") == (
        "one territory (AA-4), (CM-2; x)")
    assert ed.cite("H-1", "H-7").replace(OWN_HYPHEN, "-") == "GC-4/GC-5"
    # 1941 and Classic read what they read before
    assert load_edition("a1941").cite_text("may not move (UT-12/UT-13).") == (
        "may not move (UT-12/UT-13).")
    assert load_edition("classic").cite("UT-13") == "R-TRP-04"


def test_a_citation_already_this_editions_is_not_translated_again() -> None:
    """The engine's UT-3 is Europe 1940's A-30 reading, and the engine's A-30 is Europe 1940's
    CM-10: a message that cites ``cite("UT-3")`` reads A-30 when shown, not CM-10 (overflight).
    1941 and Classic have no such chains: their citations read as before."""
    ed = load_edition(E40)
    assert citations()["UT-3"] == "A-30" and citations()["A-30"] == "CM-10"
    assert ed.cite_text(f"Transports cannot attack alone ({ed.cite('UT-3')}).") == (
        "Transports cannot attack alone (A-30).")
    assert load_edition("a1941").cite("UT-3") == "UT-3"
    assert OWN_HYPHEN not in load_edition("classic").cite("UT-3", "UT-13", "CM-4")


def test_a_mechanisms_own_citation_is_left_as_written() -> None:
    """A Europe 1940 mechanism cites its rule against passing through friendly neutrals by the
    number 1941 gives its rule that units stop in hostile spaces: it is left as written."""
    text = f"through a friendly neutral ({own_rule('FN-2, CM-3')}); stop there (CM-3)"
    assert OWN_HYPHEN in text
    assert load_edition(E40).cite_text(text) == (
        "through a friendly neutral (FN-2, CM-3); stop there (CM-7)")
    for edition in ("a1941", "classic"):
        assert OWN_HYPHEN not in load_edition(edition).cite_text(text)


@pytest.mark.parametrize(("engine", "e40"), [
    ("cannot fire (UT-3, R-TRP-06)", "cannot fire (A-30)"),
    ("Transports alone cannot stay in hostile Sea Zone 113 (UT-3, §18 A-9).",
     "Transports alone cannot stay in hostile Sea Zone 113 (A-30, CM-14)."),
    ("retreat (CM-14/AIR-6, R-AIR-02); (casualties in X, CC-5)",
     "retreat (CM-9/CM-12); (casualties in X, GC-7)"),
    ("(CC-6B, A-12) (H-4/UT-4) (SS-1, UD-3) (CM-26, R-ARM-03, A-05)",
     "(GC-9) (GC-6) (GC-3) (CM-20)"),
])
def test_engine_words_read_with_europe1940_ids(engine: str, e40: str) -> None:
    assert load_edition(E40).cite_text(engine) == e40


# --------------------------------------------------------------------------------------------
# What a Europe 1940 player reads


def test_CM_2_a_move_in_purchase_is_refused_citing_europe1940() -> None:
    g = Game(position("Germany", "purchase", {"Germany": {"Germany": {"infantry": 1}}},
                      edition=E40))
    err = g.refuse(od.Move(units={"infantry": 1}, frm="Germany", to="Western Germany"))
    assert str(err) == ("Moves are made in Combat Move or Noncombat Move; it is Purchase & "
                        "Repair now (CM-2). Use 'end' to finish this phase.")


def test_SU_2_a_transport_load_beyond_capacity_is_refused_citing_europe1940() -> None:
    g = Game(position("Germany", "noncombat_move", {
        "Germany": {"Germany": {"tank": 2}}, "Sea Zone 113": {"Germany": {"transport": 1}}},
        edition=E40))
    err = g.refuse(od.Move(units={"tank": 2}, frm="Germany", to="Sea Zone 113"))
    assert str(err).endswith("never two artillerys or two mechanized infantrys or two tanks "
                             "or two aa guns (SU-2).")
    assert "UT-7" not in str(err) and "R-TRP-01" not in str(err)


def test_a_load_in_a_hostile_sea_zone_is_refused_without_a_1941_number() -> None:
    """The Europe 1940 digest states it in its transport profile without an ID of its own: the
    refusal cites nothing rather than 1941's number."""
    g = Game(position("Germany", "noncombat_move", {
        "Germany": {"Germany": {"tank": 1}},
        "Sea Zone 113": {"Germany": {"transport": 1}, "United Kingdom": {"destroyer": 1}}},
        edition=E40))
    err = g.refuse(od.Move(units={"tank": 1}, frm="Germany", to="Sea Zone 113"))
    assert str(err) == "Transports may not load in hostile Sea Zone 113."
    assert err.rule is None
    g1941 = Game(position("Germany", "noncombat_move", {
        "Germany": {"Germany": {"tank": 1}},
        "Sea Zone 5": {"Germany": {"transport": 1}, "United Kingdom": {"destroyer": 1}}}))
    err = g1941.refuse(od.Move(units={"tank": 1}, frm="Germany", to="Sea Zone 5"))
    assert str(err) == "Transports may not load in hostile Sea Zone 5 (UT-12)."


def test_GC_7_CAP_1_battle_lines_cite_europe1940() -> None:
    g = Game(position("Germany", "combat_move", {
        "Western Germany": {"Germany": {"tank": 3}}, "France": {"France": {"infantry": 1}}},
        edition=E40))
    before = len(g.events)
    g.move({"tank": 3}, "Western Germany", "France")
    g.end()
    g.script(1, 1, 1, 6)
    g.do(od.Battle(space="France", all=True))
    text = "\n".join(describe_all(None, g.events)[before:])
    assert "Removed from the board: France: 1 infantry (casualties in France, GC-7)." in text
    assert "Germany captured France and took 17 IPCs from France (+4 income; CAP-1)." in text
    assert "CC-5" not in text and "CC-7" not in text


async def test_a_refusal_cites_the_1940_digest_where_the_service_answers(tmp_path: Path) -> None:
    """What a player reads at the table (the service's answer, from the refusal's message as
    data) cites Europe 1940's numbers too: an infantry two spaces away is refused citing CM-7
    (movement points), not the engine's CM-2 (in Europe 1940, where combat moves may end)."""
    from local.table import Table as LocalTable
    from service.games import GameService

    table = LocalTable(GameService(), tmp_path)
    for line in ("alice: game new europe1940", "alice: game join Germany",
                 "alice: game join Italy", "bob: game join Soviet Union",
                 "bob: game join United States", "bob: game join United Kingdom",
                 "bob: game join France", "alice: game start", "alice: end confirm"):
        await table.answer(line)
    said = await table.answer("alice: move 1 infantry from Germany to France")
    assert said is not None
    assert "Infantry moves 1; Germany → France is 2 (CM-7). Choose a closer space." in str(said)
