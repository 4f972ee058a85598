"""Messages as data (issue 15, deliverable 8): what the referee says, as a key, parameters and the
rule it cites; the words are produced in one place, from catalogues.

A refusal or an event's description is a ``Msg``: ``msg("mobilize.no_complex", "MB-1",
power=p, space=where, sites=sites)``. The rules decide *what* is said (the key), about *what* (the
parameters: names of powers, spaces and unit types as the edition spells them, counts, lists,
unit counts as mappings) and under *which rule* (``rule``: the rule IDs the text cites, also a
parameter ``{rule}`` of the template). They never hold the sentence.

The sentence is in a catalogue: each mechanism (or area of the rules) registers one, for one
language, beside its code::

    messages.catalogue("en", "mobilize", {
        "no_complex": "{power} has no industrial complex in {space} ({rule}). Its complexes: "
                      "{sites:join|none}.",
        "far": lambda p: f"...",   # a function of the parameters where a template cannot say it
    })

A template is ``str.format`` text whose fields may name a *form* after a colon, the words a
language gives a value: ``{n:ipcs}`` (3 IPCs), ``{n:counted:hit}`` (1 hit, 2 hits),
``{units:units}`` (3 infantry, 2 tanks; ``{units:units:singular}``: 2 tank), ``{x:join}``
(a, b), ``{x:and}`` (a, b and c), ``{x:join|none}`` (``none`` when empty),
``{power:possessive}``, ``{name:plural}``, ``{x:capitalize}``, ``{power:the}`` (the Soviet
Union; ``{power:the:cap}`` at a sentence's start). Forms are registered per
language (``form``); English's are at the end of this module. A parameter may itself be a
message, or a list of messages (a reason inside a refusal, a refusal quoted in another): it is
said in the language of the message that holds it. ``text(m, lang)`` renders a message in a
language, falling back to English for keys a catalogue lacks. Another language is another set
of catalogues and forms, registered by a module of its own: nothing in the rules changes.

Pure standard library; imports nothing of ``rules`` but ``rules.words`` (English word forms).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.words import counted, definite, ipcs, plural, possessive, unit_list

Template = str | Callable[[Mapping[str, Any]], str]
Form = Callable[..., str]

ENGLISH = "en"


@dataclass(frozen=True, slots=True)
class Msg:
    """One thing the referee says: ``key`` in a catalogue, its ``params``, the ``rule`` cited."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    rule: str | None = None

    def text(self, lang: str = ENGLISH) -> str:
        return text(self, lang)

    def __str__(self) -> str:
        return text(self)


def msg(key: str, rule: str | None = None, /, **params: Any) -> Msg:
    """The message ``key`` (``"<area>.<name>"``) citing ``rule``, with ``params``."""
    return Msg(key, params, rule)


# The engine's messages cite 1941 rule IDs, which an edition maps to its own digest's IDs when
# the text is shown (``Edition.cite_text``). A mechanism of one edition cites that edition's own
# rulebook: ``own_rule("FN-2, CM-3")`` writes its IDs with a non-breaking hyphen (U+2011), which
# no map touches and which is written back as "-" in what players read, so Europe 1940's CM-3
# stays CM-3 although the engine's (1941) CM-3 means Europe 1940's CM-7.
OWN_HYPHEN = "\u2011"
_RULE_ID = re.compile(
    r"(?<![A-Za-z0-9-])(?:R-[A-Z]{2,4}(?:-[0-9]+)?|[A-Z]{1,4}-[0-9]+[A-Za-z]?)(?![A-Za-z0-9])")


def own_rule(text: str) -> str:
    """``text`` (rule IDs, or words holding them) citing the game's own rulebook as written:
    never mapped by an edition's ``citations``. For mechanisms of one edition, which cite its
    digest rather than the engine's 1941 IDs, e.g. ``msg(key, own_rule("FN-2, CM-3"))`` or
    ``ev.UnitsRemoved(..., rule=own_rule("CC-3"))``."""
    return _RULE_ID.sub(lambda m: m.group(0).replace("-", OWN_HYPHEN), text)


_CATALOGUES: dict[str, dict[str, Template]] = {ENGLISH: {}}
_FORMS: dict[str, dict[str, Form]] = {ENGLISH: {}}


def catalogue(lang: str, area: str, entries: Mapping[str, Template]) -> Mapping[str, Template]:
    """Register the texts of ``area`` in ``lang``: key ``name`` is ``"<area>.<name>"``. A key
    registered twice for one language is a programming error."""
    book = _CATALOGUES.setdefault(lang, {})
    for name, template in entries.items():
        key = f"{area}.{name}"
        if key in book:
            raise RuntimeError(f"message {key!r} registered twice for {lang!r}")
        book[key] = template
    return entries


def form(lang: str, name: str) -> Callable[[Form], Form]:
    """Decorator: ``fn(value, *args)`` gives ``{field:name:arg}`` in ``lang``."""

    def put(fn: Form) -> Form:
        _FORMS.setdefault(lang, {})[name] = fn
        return fn

    return put


class _Formatter(string.Formatter):
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Msg):  # a refusal quoted in another: in the same language
            return text(value, self.lang)
        if not format_spec:
            return str(super().format_field(value, format_spec))
        spec, _, empty = format_spec.partition("|")
        name, *args = spec.split(":")
        fn = _FORMS.get(self.lang, {}).get(name) or _FORMS[ENGLISH].get(name)
        if fn is None:
            return str(super().format_field(value, format_spec))
        if empty and not value:
            return empty
        return fn(value, *args)


def text(m: Msg, lang: str = ENGLISH) -> str:
    """``m`` in ``lang`` (English where ``lang`` has no text for its key)."""
    params = {k: _rendered(v, lang) for k, v in m.params.items()}
    template = _CATALOGUES.get(lang, {}).get(m.key)
    if template is None:
        template = _CATALOGUES[ENGLISH].get(m.key)
        lang = ENGLISH
    if template is None:
        raise KeyError(f"no text for message {m.key!r}")
    params.setdefault("rule", m.rule or "")
    if callable(template):
        return template(params)
    return _Formatter(lang).vformat(template, (), params)


def _rendered(value: Any, lang: str) -> Any:
    """A parameter that is itself a message (a reason inside a refusal), or a list of them, is
    said in the same language."""
    if isinstance(value, Msg):
        return text(value, lang)
    if isinstance(value, list | tuple) and value and all(isinstance(v, Msg) for v in value):
        return [text(v, lang) for v in value]
    return value


def known_keys(lang: str = ENGLISH) -> frozenset[str]:
    """The keys ``lang``'s catalogues hold (the tests check every key the rules use is here)."""
    return frozenset(_CATALOGUES.get(lang, {}))


def template_of(key: str, lang: str = ENGLISH) -> Template | None:
    return _CATALOGUES.get(lang, {}).get(key)


# --- English forms ----------------------------------------------------------------------------
def and_list(items: Iterable[object]) -> str:
    """"a", "a and b", "a, b and c"."""
    xs = [str(x) for x in items]
    if len(xs) < 2:
        return "".join(xs)
    return ", ".join(xs[:-1]) + " and " + xs[-1]


form(ENGLISH, "join")(lambda v, sep=", ": sep.join(str(x) for x in v))
form(ENGLISH, "and")(and_list)
form(ENGLISH, "ipcs")(ipcs)
form(ENGLISH, "counted")(lambda n, noun, many=None: counted(n, noun, many))
form(ENGLISH, "possessive")(possessive)
form(ENGLISH, "plural")(plural)
form(ENGLISH, "units")(lambda v, how="": unit_list(v, how != "singular"))
form(ENGLISH, "capitalize")(lambda v: str(v).capitalize())
form(ENGLISH, "the")(lambda v, cap="": definite(str(v), capital=bool(cap)))

__all__ = [
    "ENGLISH", "OWN_HYPHEN", "Msg", "Template", "and_list", "catalogue", "form", "known_keys",
    "msg", "own_rule", "template_of", "text",
]
