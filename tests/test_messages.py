"""Messages as data (issue 15, deliverable 8): refusals and the referee's words are a key,
parameters and a rule ID (``rules.messages``); the English text is in catalogues.

The rules' refusals are checked by reading the code: a refusal raised with a string built on the
spot (a literal, an f-string, ``+`` or ``.format``/``.join``) is English in the rules. Modules
not yet converted are listed in ``NOT_YET``, which may only shrink: a listed module that no
longer builds English must leave the list.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import odds.ask  # noqa: F401  (its catalogue too: the engine never imports it)
import rules.edits
import rules.engine
import service.describe
import service.edits  # its catalogue (the room is imported on demand)
import service.meta_admin  # the meta-commands' catalogues
from rules import messages
from rules.errors import IllegalOrder
from rules.messages import Msg, msg

ROOT = Path(__file__).resolve().parent.parent
ERRORS = {"RulesError", "InvalidOrder", "IllegalOrder", "AmbiguousOrder", "NotYourTurn",
          "WrongPhase", "ServiceError"}

# Modules whose refusals still hold English (shrinks to nothing; never grows).
NOT_YET: set[str] = set()


def _is_english(node: ast.expr) -> bool:
    """A string made on the spot: literal, f-string, concatenation, ``.format``, ``.join``."""
    if (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(
        node, ast.JoinedStr
    ):
        return True
    if isinstance(node, ast.BinOp):
        return _is_english(node.left) or _is_english(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("format", "join") and _is_english(node.func.value)
    if isinstance(node, ast.IfExp):
        return _is_english(node.body) or _is_english(node.orelse)
    return False


def english_refusals(path: Path) -> list[int]:
    """Lines of ``path`` that make a rules error from English built on the spot."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or not call.args:
            continue
        name = call.func.id if isinstance(call.func, ast.Name) else (
            call.func.attr if isinstance(call.func, ast.Attribute) else "")
        if name in ERRORS and _is_english(call.args[0]):
            out.append(call.lineno)
    return out


def _modules() -> list[Path]:
    """The engine's modules and the odds' (a package above it that refuses with messages)."""
    return sorted(p for pkg in ("rules", "odds") for p in (ROOT / pkg).rglob("*.py")
                  if "editions" not in p.parts)


def test_rules_refuse_with_messages_not_english() -> None:
    found = {str(p.relative_to(ROOT)): english_refusals(p) for p in _modules()}
    new = {f: lines for f, lines in found.items() if lines and f not in NOT_YET}
    assert not new, f"refusals built from English (use rules.messages.msg): {new}"
    done = sorted(f for f in NOT_YET if not found.get(f))
    assert not done, f"converted: take these out of NOT_YET: {done}"


# Service modules whose refusals (``Result.refused``) still hold English (shrinks; never grows).
SERVICE_NOT_YET: set[str] = set()


def english_results(path: Path) -> list[int]:
    """Lines of ``path`` that refuse a request (``Result.refused``) with English built on the
    spot rather than a message (a refusal passed on, ``told(e)``, is not English built here)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [call.lineno for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "refused" and call.args and _is_english(call.args[0])]


def test_service_refuses_with_messages_not_english() -> None:
    found = {str(p.relative_to(ROOT)): english_results(p) + english_refusals(p)
             for p in sorted((ROOT / "service").rglob("*.py"))}
    new = {f: lines for f, lines in found.items() if lines and f not in SERVICE_NOT_YET}
    assert not new, f"service refusals built from English (use rules.messages.msg): {new}"
    done = sorted(f for f in SERVICE_NOT_YET if not found.get(f))
    assert not done, f"converted: take these out of SERVICE_NOT_YET: {done}"


def _used_keys() -> set[str]:
    keys = set()
    for p in [*_modules(), *(ROOT / "service").rglob("*.py")]:
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "msg" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                keys.add(str(node.args[0].value))
    return keys


def test_every_message_used_has_english_text_and_every_text_is_used() -> None:
    used, known = _used_keys(), messages.known_keys()
    assert used - known == set(), "messages without English text"
    assert known - used == set(), "English texts no code uses"


def test_templates_name_known_forms() -> None:
    for key in messages.known_keys():
        template = messages.template_of(key)
        if not isinstance(template, str):
            continue
        for _, field, spec, _ in string.Formatter().parse(template):
            if field is None or not spec:
                continue
            form = spec.partition("|")[0].split(":")[0]
            assert form in messages._FORMS["en"], f"{key}: unknown form {form!r}"


def test_message_renders_with_forms_and_rule() -> None:
    m = msg("purchase.too_dear", "PU-2", units={"infantry": 2, "tank": 1}, cost=12,
            power="Germany", have=5)
    assert m.text() == ("2 infantry, 1 tank costs 12 IPCs; Germany has 5 (PU-2: buy only what "
                        "you can afford; the treasury never goes negative).")
    assert str(m) == m.text() and m.rule == "PU-2" and m.key == "purchase.too_dear"


def test_refusal_carries_its_message() -> None:
    e = IllegalOrder(msg("purchase.not_positive", count=0, unit="tank"))
    assert isinstance(e.msg, Msg) and e.msg.params == {"count": 0, "unit": "tank"}
    assert e.reason == str(e) == "Counts must be positive: 0 tank."


def test_another_language_needs_no_change_in_the_rules() -> None:
    """A catalogue and a form registered for a new language render the same message in it;
    keys it lacks fall back to English."""
    messages.catalogue("xx-test", "purchase", {"not_positive": "Anzahl muss positiv sein: "
                                                                "{count} {unit:shout}."})
    messages.form("xx-test", "shout")(lambda v: str(v).upper())
    m = msg("purchase.not_positive", count=0, unit="tank")
    assert m.text("xx-test") == "Anzahl muss positiv sein: 0 TANK."
    assert msg("purchase.nothing").text("xx-test") == msg("purchase.nothing").text()


def test_a_key_without_text_is_an_error() -> None:
    with pytest.raises(KeyError):
        msg("nowhere.nothing").text()


def test_event_lines_are_messages() -> None:
    """Every event line is a message with a key and English text (``service.describe_en``)."""
    from tests.service.test_describe import samples

    state = rules.engine.replay(rules.engine.new_game("1941"))
    for t, e in samples(state).items():
        fn = service.describe.describer(t)
        assert fn is not None
        m = fn(state, e)
        if t in service.describe.DESCRIBERS:
            assert isinstance(m, Msg) and m.key in messages.known_keys(), t.__name__


def test_a_message_inside_a_message_is_said_in_the_same_language() -> None:
    """A reason inside a refusal (a parameter that is a message, or a list of them) is said in
    the language of the refusal."""
    messages.catalogue("xx-nested", "board", {"hostile_sea_any": "feindliche Einheiten ({rule})"})
    why = msg("board.hostile_sea_any", "R-NAV-01")
    m = msg("paths.sea_must_stop", "CM-27/US-2", unit="destroyer", space="5 Sea Zone", why=why)
    assert m.text() == ("Destroyer must stop in 5 Sea Zone: it is hostile, enemy units there "
                        "(R-NAV-01) (CM-27/US-2).")
    assert "feindliche Einheiten (R-NAV-01)" in m.text("xx-nested")
    both = msg("movement_end.cannot_end", problems=[msg("movement_end.transports_alone", "UT-3",
                                                        space="5 Sea Zone")] * 2)
    assert both.text().count("Transports cannot attack alone (UT-3)") == 2


def test_a_service_refusal_keeps_its_message() -> None:
    """``Result.refused`` keeps the message and renders ``error`` in English; a rules refusal
    passed on (``told``) keeps its own message, any other error its text."""
    from service.core import Result, told

    m = msg("lobby.taken", power="Germany", holder="ann")
    r = Result.refused(m, kind="join")
    assert not r.ok and r.message == m and r.error == "Germany is taken by ann."
    e = IllegalOrder(msg("purchase.not_positive", count=0, unit="tank"))
    assert told(e) == e.msg and Result.refused(told(e)).error == e.reason
    assert told(ValueError("bad")) == "bad" and Result.refused("bad").message is None
