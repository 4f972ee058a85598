"""The rule IDs the engine cites, found by reading its source: what an edition's ``citations``
must map when its digest's IDs look like 1941's (Europe 1940), so that its players never read
another rulebook's number.

Usage (from the repository root)::

    python -m tools.citations                     # every cited ID, with where it is cited
    python -m tools.citations --edition europe1940  # exit 1 if the edition misses one

The engine cites rules in strings: ``msg(key, "UT-3")``, ``rule="CC-6C"``, an event's
``rule: str = "R-PLC-08"``, ``ed.cite("MB-1", "MB-3")``, the words of a catalogue ("... (UT-10)")
and a section before a reading ("§18 A-9"). Every string constant of the packages that make
what players read (``rules``, ``service``, ``render``, ``local``, ``cogs``, ``db``) is read, but
docstrings, and the IDs in a call of ``own_rule`` (``rules.messages``), which cite the game's
own rulebook as written. What it finds is mostly the 1941 digest's IDs, and Classic's where
the engine serves Classic (``R-TRP-06``, ``A-13``). ``NOT_RULES`` lists strings of the same shape
that are not citations ("UTF-8").
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "odds", "service", "render", "local", "cogs", "db")
# A rule ID of any edition's digest (rules.edition._ANY_RULE_ID), or a section of a digest
# followed by the ID it points into ("§18 A-9", "§4.1, R-TEC-01").
_ID = r"R-[A-Z]{2,4}(?:-[0-9]+)?|[A-Z]{1,4}-[0-9]+[A-Za-z]?"
CITATION = re.compile(
    rf"(?<![A-Za-z0-9-])(§[0-9]+(?:\.[0-9]+)*,? (?:{_ID})|{_ID})(?![A-Za-z0-9])")
# Strings of a rule ID's shape that cite no rule.
NOT_RULES = frozenset({"UTF-8", "UTC-5"})
OWN_CALL = "own_rule"


@dataclass(frozen=True, order=True)
class Site:
    """Where a rule is cited: file (from the repository root) and line."""

    path: str
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _own(tree: ast.AST) -> set[int]:
    """The string constants inside calls of ``own_rule``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            if name == OWN_CALL:
                out.update(id(n) for a in node.args for n in ast.walk(a))
    return out


def cited_in(source: str, path: str = "<string>") -> Iterator[tuple[str, Site]]:
    """The rule IDs that string constants of ``source`` cite (not docstrings, not ``own_rule``)."""
    tree = ast.parse(source)
    skip = _docstrings(tree) | _own(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            for m in CITATION.finditer(node.value):
                if m.group(1) not in NOT_RULES:
                    yield m.group(1), Site(path, node.lineno)


def own_cited_in(source: str, path: str = "<string>") -> Iterator[tuple[str, Site]]:
    """The rule IDs ``source`` cites through ``own_rule`` (its edition's own, as written)."""
    tree = ast.parse(source)
    own = _own(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) in own:
            for m in CITATION.finditer(node.value):
                yield m.group(1), Site(path, node.lineno)


def _files(root: Path, packages: Iterable[str]) -> Iterator[Path]:
    for pkg in packages:
        yield from sorted((root / pkg).rglob("*.py"))


def engine_citations(root: Path = ROOT,
                     packages: Iterable[str] = PACKAGES) -> dict[str, list[Site]]:
    """Every rule ID the engine cites, with where: ID -> sites, IDs sorted."""
    out: dict[str, list[Site]] = {}
    for f in _files(root, packages):
        rel = f.relative_to(root).as_posix()
        for rule, site in cited_in(f.read_text("utf-8"), rel):
            out.setdefault(rule, []).append(site)
    return {k: sorted(out[k]) for k in sorted(out)}


def own_citations(root: Path = ROOT,
                  packages: Iterable[str] = PACKAGES) -> dict[str, list[Site]]:
    """Every rule ID cited through ``own_rule``, with where."""
    out: dict[str, list[Site]] = {}
    for f in _files(root, packages):
        rel = f.relative_to(root).as_posix()
        for rule, site in own_cited_in(f.read_text("utf-8"), rel):
            out.setdefault(rule, []).append(site)
    return {k: sorted(out[k]) for k in sorted(out)}


def missing(edition: str, root: Path = ROOT) -> dict[str, list[Site]]:
    """The engine's citations that ``edition`` has no entry for in its ``citations``."""
    from rules.edition import load_edition

    have = load_edition(edition).rules.citations
    return {k: v for k, v in engine_citations(root).items() if k not in have}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--edition", help="exit 1 if this edition's citations miss a cited ID")
    args = ap.parse_args(argv)
    found = missing(args.edition) if args.edition else engine_citations()
    for rule, sites in found.items():
        print(f"{rule:16} {len(sites):3}  {', '.join(map(str, sites[:4]))}"
              + (" ..." if len(sites) > 4 else ""))
    if args.edition:
        print(f"{len(found)} cited IDs without a citation in {args.edition}", file=sys.stderr)
        return 1 if found else 0
    print(f"{len(found)} cited IDs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
