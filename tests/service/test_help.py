"""Help topics (service/help.py): the same topics at the table (order words) and in Discord
(slash commands), each order with an example the edition's own parser accepts."""

from __future__ import annotations

import re

import pytest

from rules.edition import edition_catalog
from rules.engine import resolve_edition
from service import help as hp
from service import language as ps
from service.games import GameService

EDITIONS = [r.id for r in edition_catalog()]
SLASH = re.compile(r"(?<![\w.])/(end|battle|dice|orders|casualties|game)\b")  # not docs/dice.md


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_order_example_parses_in_its_edition(edition: str) -> None:
    ed = resolve_edition(edition)
    names = ps.names_for(edition)
    text = hp.orders_text(ed, "text")
    examples = [line.strip()[len("e.g. "):] for line in text.splitlines()
                if line.strip().startswith("e.g. ")]
    assert len(examples) >= 15
    for example in examples:
        ps.parse(example, names)  # raises with the reason if an example is wrong


@pytest.mark.parametrize("edition", [None, *EDITIONS])
def test_every_topic_answers_in_both_styles(edition: str | None) -> None:
    ed = resolve_edition(edition) if edition else None
    offered = hp.topics(ed)
    assert offered[: len(hp.TOPICS)] == list(hp.TOPICS)
    for topic in offered:
        text = hp.help_text(topic, ed, "text")
        slash = hp.help_text(topic, ed, "slash")
        assert text and slash and not text.startswith("No help")
        assert not slash.startswith("No help")
    # order words at the table, slash commands in Discord
    for topic in ("turns", "battles", "dice", "batch"):
        text = hp.help_text(topic, ed, "text")
        assert not SLASH.search(text), text
    assert "'end confirm'" in hp.help_text("turns", ed, "text")
    assert "/end phase:<phase> confirm:true" in hp.help_text("turns", ed, "slash")
    assert "'dice verify [round]'" in hp.help_text("dice", ed, "text")
    assert "/dice verify" in hp.help_text("dice", ed, "slash")
    assert "docs/dice.md" in hp.help_text("dice", ed, "text")


def test_an_editions_own_orders_only() -> None:
    eds = [resolve_edition(e) for e in EDITIONS]
    for ed in eds:
        verbs = ps.usage_for(ed)
        for other in set(ps.USAGE) - set(verbs):
            assert other not in hp.topics(ed)
            assert "not an order of this edition" in hp.help_text(other, ed)
    everything = hp.help_text("orders", None)
    assert "(only in " in everything


async def test_the_table_help_shows_the_topics() -> None:
    svc = GameService(images=False)
    r = await svc.handle("room", "alice", "help battles")
    assert r.ok and "'battle <space>' fights one round" in r.answer
    r = await svc.handle("room", "alice", "help")
    assert r.ok and "More: help <topic>, a topic being orders, turns, battles, dice" in r.answer
    r = await svc.handle("room", "alice", "help s")  # every order that begins so
    assert r.ok and "strike <space>\n    e.g. strike" in r.answer and "submerge <space>" in r.answer
    r = await svc.handle("room", "alice", "help zeppelins")
    assert r.ok and "No help on 'zeppelins'. Topics: orders, turns" in r.answer


@pytest.mark.parametrize("edition", EDITIONS)
def test_help_order_has_example_and_says_what_it_does(edition: str) -> None:
    """Issue 13 item 14: 'help <order>' explains the order with an example, not only its form,
    for every order of the edition, at the table and in Discord."""
    ed = resolve_edition(edition)
    names = ps.names_for(edition)
    for verb in ps.usage_for(ed):
        if verb in ("game", "help"):
            continue
        for style in ("text", "slash"):
            lines = hp.help_text(verb, ed, style).splitlines()
            assert len(lines) >= 4, (verb, style, lines)  # form, example, explanation, more
            assert lines[-1] == "docs/orders.md has every order of every edition."
            if style == "text":
                assert lines[1].startswith("    e.g. "), (verb, lines)
                ps.parse(lines[1].removeprefix("    e.g. "), names)
            else:
                assert lines[0].startswith("/"), (verb, lines)


async def test_help_order_has_example_at_the_table() -> None:
    svc = GameService(images=False)
    r = await svc.handle("room", "alice", "help casualties")
    assert r.ok
    assert r.answer.splitlines()[:3] == [
        "casualties <space> <units>  (e.g. 'casualties Ukraine 2 infantry, 1 tank')",
        "    e.g. casualties Archangel 1 infantry",
        "By the side that owes casualties in a battle (the defender answers its own, even during "
        "the"]
    assert "Every hit must be assigned" in r.answer
    r = await svc.handle("room", "alice", "help move")
    assert "In Combat Move units move into" in r.answer and "'via'" in r.answer
