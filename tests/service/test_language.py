"""The order-description registry (rules/language/registry.py): every verb described once, and
the parser, usage lines, help, autocomplete and slash hints derived from the descriptions, also
for a verb registered from another module."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import Any, get_args

import discord
import pytest
from discord import app_commands

from cogs import _complete as ac
from cogs._slash import specs, to_slash
from rules import orders as od
from rules.edition import edition_catalog
from rules.engine import resolve_edition
from rules.errors import InvalidOrder
from rules.language import ORDERS, Arg, Board, Grammar, Hint, OrderSyntax
from rules.language.names import Names
from service import help as hp
from service import language as lang
from service.meta import META, Meta

EDITIONS = [None, *(r.id for r in edition_catalog())]


def _members(union: Any) -> set[type]:
    args = get_args(union)
    if args and get_args(args[0]):  # Annotated[Union[...], ...]
        args = get_args(args[0])
    return set(args)


def test_every_command_class_is_made_by_one_description() -> None:
    made = [k for s in lang.LANGUAGE.syntaxes() for k in s.makes]  # load, unload: Move too
    assert _members(od.Order) <= set(made)
    assert _members(Meta) <= set(made)
    assert {s.verb for s in ORDERS.syntaxes()} | {s.verb for s in META.syntaxes()} == set(
        lang.VERBS)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_verb_in_help_has_a_description(edition: str | None) -> None:
    ed = resolve_edition(edition) if edition else None
    verbs = [t for t in hp.topics(ed) if t not in hp.TOPICS]
    assert verbs
    for verb in verbs:
        syntax = lang.LANGUAGE.syntax(verb)
        assert syntax is not None, verb
        assert syntax.explain and syntax.usage.startswith(syntax.verb.split()[0]), verb
        assert syntax.example is not None, verb
        assert syntax.available(ed)


@pytest.mark.parametrize("edition", EDITIONS)
def test_usage_lines_and_examples_come_from_the_descriptions(edition: str | None) -> None:
    ed = resolve_edition(edition) if edition else None
    assert lang.usage_for(ed) == {s.verb: s.usage for s in lang.LANGUAGE.syntaxes()
                                  if s.available(ed)}
    assert dict(lang.USAGE) == lang.LANGUAGE.usage()
    text = hp.orders_text(ed, "text")
    board = Board.of(ed or resolve_edition(next(e for e in EDITIONS if e)))
    for syntax in lang.LANGUAGE.syntaxes():
        if syntax.verb in ("game", "help", "state") or not syntax.available(ed):
            continue
        assert syntax.example is not None
        typed, slash = syntax.example(board)
        assert f"{syntax.usage}\n    e.g. {typed}" in text, syntax.verb
        assert slash in hp.orders_text(ed, "slash"), syntax.verb
        if ed is not None:  # the example is an order of that edition, of the verb's kind
            cmd = lang.parse(typed, lang.names_for(ed.id))
            assert isinstance(cmd, syntax.makes), (syntax.verb, cmd)


def test_refusals_name_the_descriptions_form() -> None:
    names = lang.names_for("a1941")
    for syntax in lang.LANGUAGE.syntaxes():
        assert syntax.expected().args[0] == f"Expected '{syntax.form}'."
    with pytest.raises(InvalidOrder, match=r"^Expected 'press <space>'\. For example"):
        lang.parse("press", names)


def test_game_and_edit_subcommands_are_described() -> None:
    game = lang.LANGUAGE.syntax("game")
    edit = lang.LANGUAGE.syntax("edit")
    assert game is not None and edit is not None
    assert game.usage == "game " + "|".join(s.word for s in game.subs) + " ..."
    assert all(f"{s.form} " in hp.help_text("game", None) for s in game.subs)
    assert edit.usage.startswith(" | ".join(s.form for s in edit.subs))
    with pytest.raises(InvalidOrder, match="Game commands: 'game new <edition> \\[options\\]'"):
        lang.parse("game nwe", Names())


def test_a_verb_or_word_described_twice_is_refused() -> None:
    grammar: Grammar[Any] = Grammar("test")
    first = grammar.register(OrderSyntax(verb="halt", usage="halt", read=lambda r, n, w: w))
    with pytest.raises(ValueError, match="described twice"):
        grammar.register(OrderSyntax(verb="halt", usage="halt!", read=lambda r, n, w: w))
    with pytest.raises(ValueError, match="starts both"):
        grammar.register(OrderSyntax(verb="stop", usage="stop", read=lambda r, n, w: w,
                                     words=("stop", "halt")))
    assert grammar.syntaxes() == (first,)
    both: Grammar[Any] = Grammar("both", grammar, Grammar("other"))
    assert both.parse("HALT now", Names()) == "halt"
    with pytest.raises(ValueError, match="described twice"):
        Grammar("clash", grammar, grammar).syntaxes()


# --- a verb registered from another module ------------------------------------------------------


@pytest.fixture
def plugin() -> Iterator[ModuleType]:
    name = "tests.rules.language_plugin"
    module = importlib.import_module(name)
    if ORDERS.syntax("charge") is None:  # taken out by an earlier test: import it again
        module = importlib.reload(module)
    try:
        yield module
    finally:
        ORDERS.unregister(module.CHARGE)


def test_a_registered_verb_is_parsed(plugin: ModuleType) -> None:
    names = lang.names_for("a1941")
    assert lang.parse("charge Ukraine", names) == od.Battle(space="Ukraine", all=True)
    assert lang.parse("Charges: ukraine", names) == od.Battle(space="Ukraine", all=True)
    assert ORDERS.parse("charge Ukraine", names) == od.Battle(space="Ukraine", all=True)
    with pytest.raises(InvalidOrder, match=r"^Expected 'charge <space>'\. For example"):
        lang.parse("charge", names)
    with pytest.raises(InvalidOrder, match="Did you mean: charge\\? Orders: buy, move, load, "
                                           "unload, battle, charge, casualties"):
        lang.parse("chrage Ukraine", names)


def test_a_registered_verb_is_listed_and_explained(plugin: ModuleType) -> None:
    classic, a1941 = resolve_edition("classic"), resolve_edition("a1941")
    assert lang.USAGE["charge"] == "charge <space>  (a battle fought to the end)"
    assert "charge" in lang.usage_for(classic) and "charge" not in lang.usage_for(a1941)
    assert list(lang.usage_for(None))[4:6] == ["battle", "charge"]
    assert "charge" in hp.topics(classic)
    text = hp.help_text("charge", classic, "text")
    assert text.startswith("charge <space>  (a battle fought to the end)\n    e.g. charge ")
    assert "fought to the end ('battle <space> all')" in text
    slash = hp.help_text("charge", classic, "slash")
    assert "fought to the end ('/battle space:<space> all:true')" in slash
    assert "not an order of this edition" in hp.help_text("charge", a1941)
    assert "(only in Axis & Allies Classic" in hp.orders_text(None)


def test_a_registered_verb_is_completed(plugin: ModuleType) -> None:
    syntax = lang.LANGUAGE.syntax("charge")
    assert syntax is not None
    arg = syntax.arg("space")
    assert arg is not None

    class Chosen:
        def fits(self, option: str, value: str) -> bool:
            return True

    legal = [od.Battle(space="Ukraine"), od.Buy(units={"infantry": 1}), od.Press(space="Egypt")]
    assert lang.LANGUAGE.offers(arg, legal, Chosen(), ["Karelia"]) == [
        "Ukraine", "Egypt", "Karelia"]

    @app_commands.command(name="charge", description="Fight to the end")
    async def charge(interaction: discord.Interaction[Any], space: str) -> None:
        del interaction, space

    assert not charge.parameters[0].autocomplete
    ac.completes("charge")(charge)
    assert charge.parameters[0].autocomplete
    assert to_slash("charge Ukraine") == "/battle space:Ukraine"
    assert ("charge", "/battle", (r"(?P<space>.+)",)) in specs()


def test_a_verb_taken_out_is_gone(plugin: ModuleType) -> None:
    ORDERS.unregister(plugin.CHARGE)
    try:
        with pytest.raises(InvalidOrder, match="Unknown order 'charge'"):
            lang.parse("charge Ukraine", lang.names_for("a1941"))
        assert "charge" not in lang.USAGE and to_slash("charge Ukraine") is None
    finally:
        ORDERS.register(plugin.CHARGE)


def test_completes_refuses_an_argument_without_its_option() -> None:
    @app_commands.command(name="move", description="Move")
    async def move(interaction: discord.Interaction[Any], units: str) -> None:
        del interaction, units

    with pytest.raises(LookupError, match="has no option 'from'"):
        ac.completes("move")(move)


def test_hints_and_args_are_plain_data() -> None:
    for syntax in lang.LANGUAGE.syntaxes():
        assert all(isinstance(h, Hint) for h in syntax.hints)
        assert all(isinstance(a, Arg) for a in syntax.args)
        assert all(h.words.split()[0] in (*syntax.first_words, syntax.verb.split()[0])
                   for h in syntax.hints), syntax.verb
