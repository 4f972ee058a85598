"""The state of war between pairs of powers (Europe 1940 §5.1, §22.1): the engine's notion of
"enemy" is the war matrix, not the sides. An edition without politics keeps every pair of
opposite sides at war throughout (1941, Classic unchanged)."""

from __future__ import annotations

import pytest

from rules import engine, position
from rules.edition import Edition, Politics, load_edition
from rules.errors import InvalidOrder
from rules.mechanisms.politics import War, at_war_with_anyone, with_war


def _a1941_with_politics() -> Edition:
    """1941's data with a war matrix: the Soviet Union and the USA at peace with everyone."""
    ed = load_edition("a1941")
    rules = ed.rules.model_copy(update={"politics": Politics(at_war=(
        ("Germany", "United Kingdom"), ("United Kingdom", "Japan")))})
    return Edition(rules, ed.map)


def test_without_politics_opposite_sides_are_at_war_throughout() -> None:
    s = engine.replay(engine.new_game("1941"))
    assert s.enemy("Germany", "Soviet Union") and s.enemy("United States", "Japan")
    assert not s.enemy("Germany", "Japan") and not s.enemy("Germany", None)
    assert not s.at_peace("Germany", "Soviet Union")
    assert "war" not in position.state_json(s)


def test_the_position_key_war_is_refused_without_politics() -> None:
    with pytest.raises(InvalidOrder) as e:
        engine.new_game("1941", (), {"war": [["Germany", "Soviet Union"]]})
    assert "at war throughout; leave 'war' out" in str(e.value)


def test_war_matrix_not_sides_at_the_start() -> None:
    ed = _a1941_with_politics()
    s = position.build_start(ed, (), None)
    assert s.part(War) == War()  # nothing recorded: the edition's start
    assert s.enemy("Germany", "United Kingdom") and s.enemy("Japan", "United Kingdom")
    assert not s.enemy("Germany", "Soviet Union") and s.at_peace("Germany", "Soviet Union")
    assert not at_war_with_anyone(s, "United States")
    assert position.state_json(s)["war"] == [["Germany", "United Kingdom"],
                                             ["United Kingdom", "Japan"]]


def test_a_declaration_puts_only_the_two_at_war() -> None:
    ed = _a1941_with_politics()
    s = with_war(position.build_start(ed, (), None), "Japan", "United States")
    assert s.enemy("United States", "Japan") and s.enemy("Japan", "United States")
    assert not s.enemy("Germany", "United States")  # DW-4: only the declarer and its target
    assert position.state_json(s)["war"] == [["Germany", "United Kingdom"],
                                             ["United Kingdom", "Japan"],
                                             ["Japan", "United States"]]


def test_the_position_key_war_reads_names_and_refuses_allies() -> None:
    ed = _a1941_with_politics()
    pos = position.canonical(ed, {"war": [["USA", "Japanese"]]})
    assert pos["war"] == [["Japan", "United States"]]
    s = position.build_start(ed, (), pos)
    assert s.enemy("Japan", "United States") and not s.enemy("Germany", "United Kingdom")
    with pytest.raises(InvalidOrder) as e:
        position.canonical(ed, {"war": [["Germany", "Japan"]]})
    assert "allies are never at war (P-6)" in str(e.value)
    for bad in ("Germany", [["Germany"]], [[1, 2]]):
        with pytest.raises(InvalidOrder):
            position.canonical(ed, {"war": bad})
