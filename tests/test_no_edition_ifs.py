"""Issue 7: a second edition is data plus small hooks, not a fork.

Front ends, the service, storage and rendering never name an edition: no edition id or keyword,
no edition title and no power name of any installed edition appears in their source (comments
and docstrings included, so that nothing hints at a special case). What differs between
editions comes from ``rules/editions/*/`` through ``rules.edition``.
"""

from __future__ import annotations

import re
from pathlib import Path

from rules.edition import edition_catalog

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("service", "cogs", "local", "db", "render")
FILES = ("bot.py", "settings.py")


def _sources() -> list[Path]:
    out = [p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))]
    return out + [ROOT / f for f in FILES if (ROOT / f).exists()]


def _forbidden() -> list[tuple[str, re.Pattern[str]]]:
    """(what, pattern): edition ids and keywords (any case), titles and power names."""
    out: list[tuple[str, re.Pattern[str]]] = []
    for r in edition_catalog():
        for word in {r.id, r.word}:
            out.append((f"edition {word!r}", re.compile(rf"(?<![\w-]){re.escape(word)}(?![\w-])",
                                                        re.IGNORECASE)))
        out.append((f"edition title {r.title!r}", re.compile(re.escape(r.title))))
        for p in r.powers:
            out.append((f"power {p.name!r} of {r.id}",
                        re.compile(rf"(?<!\w){re.escape(p.name)}(?!\w)")))
    return out


def find_edition_names(text: str) -> list[str]:
    """What of the installed editions ``text`` names, one entry per line that does."""
    patterns = _forbidden()
    hits: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        hits += [f"line {n}: {what}: {line.strip()}" for what, pat in patterns if pat.search(line)]
    return hits


def test_there_are_editions_to_look_for() -> None:
    catalog = edition_catalog()
    assert len(catalog) >= 2
    assert all(r.powers for r in catalog)


def test_the_check_finds_an_edition_if() -> None:
    word = edition_catalog()[0].word
    power = edition_catalog()[-1].powers[0].name
    assert find_edition_names(f'if game.edition == "{word}":\n    pass')
    assert find_edition_names(f'    power = "{power}"  # the first to play')
    assert not find_edition_names("ed = resolve_edition(rec.edition)")


def test_front_ends_service_storage_and_rendering_name_no_edition() -> None:
    problems = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        problems += [f"{rel} {hit}" for hit in find_edition_names(path.read_text("utf-8"))]
    assert not problems, (
        "Edition-specific code outside rules/ (issue 7: put the difference in the edition's "
        "data, rules/editions/<id>/, and read it through rules.edition):\n" + "\n".join(problems)
    )
