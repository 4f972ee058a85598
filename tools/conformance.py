"""Generate ``docs/rules/<edition>.md``: every rule of an edition's digest with its tests.

Usage (from the repository root)::

    python -m tools.conformance                  # regenerate every edition's page from the repo
    python -m tools.conformance --check          # exit 1 if a page is stale
    python -m tools.conformance --refresh-index [--edition classic] [--digest FILE]
                                                 # re-read the digest(s) into the rule index first

Editions come from their data (``rules.edition.edition_catalog()``): the page of an edition is
``docs/rules/<keyword>.md`` (``1941.md``, ``classic.md``), its rule index
``docs/rules/<id>_rule_index.json``, parsed from the digest its ``edition.json`` names
(``../shared/rules/a1941.md``, ``../shared/rules/classic.md``). Pages are built from the index and
the tests, so the project never reads ``../shared`` except when an index is refreshed on purpose.

The digests write rule IDs as bullet items (``* **CM-12 Title.**``, ``- **R-SUB-02 Title.**``,
``1. **R-LC-01** ...``), as rows of an ambiguity table (``| A-05 | place | problem | reading |``)
and as numbered worked examples under a "Worked examples" heading, which get the IDs ``EX-1``,
``EX-2``...

A test covers a rule when its function name holds the rule ID as tokens (``CM-12`` is written
``CM_12``: ``test_CM_12_no_noncombat_move``; ``R-SUB-02`` is ``test_R_SUB_02_...``; a worked
example ``test_EX_3_...``) or its docstring holds the ID (``CM-12: ...``, ``R-AAG-01..04``).
Tests are found by parsing ``tests/**/*.py``: module-level ``test_*`` functions and ``test_*``
methods of ``Test*`` classes. A test whose file path or name names another edition (its id or
keyword as a word: ``test_classic_*.py``, ``test_a_round_of_1941``) counts only for that one;
in a file or test of its own edition, ``A-5`` also finds ``A-05``.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from rules.edition import EditionRules, edition_catalog

ROOT = Path(__file__).resolve().parent.parent


def _shared_dir() -> Path:
    """``../shared``: $UMPIRE_SHARED, else next to this checkout or to the main checkout."""
    env = os.environ.get("UMPIRE_SHARED")
    if env:
        return Path(env)
    here = ROOT.parent / "shared"
    dot_git = ROOT / ".git"
    if not here.exists() and dot_git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/x"
        m = re.match(r"gitdir:\s*(.+)", dot_git.read_text("utf-8").strip())
        if m and (Path(m.group(1)).resolve().parents[2].parent / "shared").exists():
            return Path(m.group(1)).resolve().parents[2].parent / "shared"
    return here


SHARED = _shared_dir()
DOCS = ROOT / "docs" / "rules"
TESTS = ROOT / "tests"

ID_RE = r"[A-Z]{1,4}(?:-[A-Z]{1,4})?-\d+[A-Za-z]?"
BULLET = r"(?:[*-]|\d+\.)"
# A rule item: "* **CM-12 Title.** text", "- **R-ECO-01 Title.** text", "1. **R-LC-01** text"
# (§18 items "A-n"/"B-n" may have no title).
ITEM_RE = re.compile(
    rf"^(?P<indent>\s*){BULLET} \*\*(?P<id>{ID_RE})(?P<title>(?:[^*]|\*[^*]+\*)*)\*\*"
    r"(?P<rest>.*)$")
# A rule named inside an item's bold title: "  * **Liberation bonus (FR-1):** text" (Europe
# 1940 §5.4), at any depth: it defines the ID when no item of its own does.
NAMED_RE = re.compile(
    rf"^(?P<indent>\s*){BULLET} \*\*(?P<title>[^*()]+?) \((?P<id>{ID_RE})\):?\*\*(?P<rest>.*)$")
BULLET_RE = re.compile(rf"^(?P<indent>\s*){BULLET} ")
HEADING_RE = re.compile(r"^(?P<hashes>#{2,4}) (?P<text>.+?)\s*$")
READING_RE = re.compile(r"\*\*(?:Best reading|Reading)(?: \([^)]*\))?:\*\*|\b(?i:best reading): ")
# "- Best reading for R-WIN-01/02: ..." (a reading in a bullet of its own, plain text)
READING_FOR_RE = re.compile(r"^[*-] Best reading for (?P<ids>[^:]+):(?P<text>.*)$")
# "| A-05 | place in text | problem | best reading |"
TABLE_RE = re.compile(rf"^\|\s*(?P<id>{ID_RE})\s*\|(?P<cells>.*)\|\s*$")
EXAMPLES_RE = re.compile(r"worked examples", re.IGNORECASE)
EXAMPLE_RE = re.compile(r"^(?P<n>\d+)\. \*\*(?P<title>[^*]+)\*\*(?P<rest>.*)$")
DOC_ID_RE = re.compile(
    r"(?<![A-Za-z0-9-])([A-Z]{1,4}(?:-[A-Z]{1,4})?)-(\d+)([A-Za-z]?)(?![A-Za-z0-9])"
    r"((?:(?:/|\.\.|…)\d+(?![A-Za-z0-9]))*)")
SOURCE_TAG_RE = re.compile(r"\s*\[(?:T|D|X|EXT)(?:[:+][^\]]*)?\]")


@dataclass(frozen=True)
class Book:
    """One edition's conformance page: where its digest, index and page are."""

    id: str
    title: str
    word: str  # what players type after 'game new': names the page
    digest: str  # relative to the shared folder, e.g. "rules/classic.md"
    rule_ids: str = ""  # what its rule IDs look like (EditionRules.rule_ids)
    aliases: tuple[str, ...] = ()  # its other names (EditionRules.aliases)

    @property
    def index(self) -> Path:
        return DOCS / f"{self.id}_rule_index.json"

    @property
    def page(self) -> Path:
        return DOCS / f"{self.word}.md"

    @property
    def digest_path(self) -> Path:
        return SHARED / self.digest

    @property
    def markers(self) -> frozenset[str]:
        """Words that name this edition in a test's path or name."""
        return frozenset({self.id.casefold(), self.word.casefold()})

    @property
    def folders(self) -> frozenset[str]:
        """Names of a test folder that holds only this edition's tests: its markers and its
        one-word aliases (``tests/rules/e40``)."""
        return self.markers | {a.casefold() for a in self.aliases if a.isalnum()}

    @classmethod
    def of(cls, rules: EditionRules) -> Book:
        return cls(id=rules.id, title=rules.title, word=rules.word, digest=rules.digest,
                   rule_ids=rules.rule_ids, aliases=rules.aliases)


def books() -> list[Book]:
    """Every installed edition's page (from the editions' data)."""
    return [Book.of(r) for r in edition_catalog()]


def book(edition: str) -> Book:
    """The page of one edition, by id or keyword."""
    for b in books():
        if edition.casefold() in b.markers:
            return b
    raise SystemExit(f"Unknown edition {edition!r}: {', '.join(b.word for b in books())}.")


@dataclass(frozen=True)
class Rule:
    """One rule of the digest: its ID, title, section and best reading (if any)."""

    id: str
    title: str
    section: str
    best_reading: str | None = None


# --------------------------------------------------------------------------------------------
# Parsing the digest


def _clean(text: str) -> str:
    """Markdown item text as one plain line (bold and code marks dropped)."""
    text = re.sub(r"`\[RB:[^`]*\]`", "", text)
    text = SOURCE_TAG_RE.sub("", text)
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"(?<!\w)\*([^*\s][^*]*)\*(?!\w)", r"\1", text)  # *italic*
    return re.sub(r"\s+", " ", text).strip()


def _first_sentence(text: str, limit: int = 90) -> str:
    text = _clean(text)
    m = re.match(r"(.+?[.!?])(\s|$)", text)
    out = m.group(1) if m else text
    return out if len(out) <= limit else out[: limit - 1].rstrip() + "…"


def _reading(body: list[str]) -> str | None:
    """The text after 'Best reading:' / 'Reading:' in an item, with its sub-bullets."""
    for i, line in enumerate(body):
        m = READING_RE.search(line)
        if m is None:
            continue
        rest = [line[m.end():]]
        indent = len(line) - len(line.lstrip())
        for nxt in body[i + 1:]:
            b = BULLET_RE.match(nxt)
            if b and len(b.group("indent")) <= indent and not nxt.strip().startswith("* **Reading"):
                break
            rest.append(nxt)
        text = _join(rest)
        return text or None
    return None


def _join(lines: list[str]) -> str:
    """Lines of an item (sub-bullets included) as one sentence-like line."""
    out = ""
    for line in lines:
        bullet = BULLET_RE.match(line) is not None
        seg = _clean(BULLET_RE.sub("", line, count=1) if bullet else line)
        if not seg:
            continue
        wrapped = not bullet and seg[0].islower()  # a sentence going on on the next line
        if out and not wrapped and not out.endswith((".", ":", ";", "!", "?", ")")):
            out += ";"
        out = f"{out} {seg}" if out else seg
    return out


def parse_digest(text: str) -> list[Rule]:
    """Every rule ID of the digest with its title, section and best reading."""
    lines = text.splitlines()
    rules: dict[str, Rule] = {}
    order: list[str] = []
    extra: dict[str, list[str]] = {}  # readings in bullets of their own, by the rule they serve
    section = chapter = ""
    examples = False  # inside a "Worked examples" chapter: numbered items are EX-1, EX-2...
    last_id: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        h = HEADING_RE.match(line)
        if h:
            level, heading = len(h.group("hashes")), _clean(h.group("text"))
            if level == 2:
                section = chapter = heading
                examples = bool(EXAMPLES_RE.search(heading))
            elif level == 3 and re.match(r"\d+\.\d+ ", heading):
                section = heading  # a numbered subsection ("4.1 Action 1 ...") is a section
            elif level == 3:
                section = chapter
            last_id = None
            i += 1
            continue
        row = TABLE_RE.match(line)
        if row and row.group("id") not in rules:
            # An ambiguity table row: | id | place in text | problem | best reading |
            cells = [_clean(c) for c in row.group("cells").split("|")]
            problem = cells[-2] if len(cells) >= 2 else (cells[0] if cells else "")
            rid = row.group("id")
            rules[rid] = Rule(id=rid, title=_first_sentence(problem), section=section,
                              best_reading=cells[-1] if len(cells) >= 2 else None)
            order.append(rid)
            i += 1
            continue
        e = EXAMPLE_RE.match(line) if examples else None
        if e:
            rid = f"EX-{e.group('n')}"
            if rid not in rules:
                rules[rid] = Rule(id=rid, title=_clean(e.group("title")).rstrip("."),
                                  section=section)
                order.append(rid)
            i += 1
            continue
        f = READING_FOR_RE.match(line)
        if f:
            body = _item_body(lines, i)
            plain = _join([f.group("text"), *body[1:]])
            for t_id in _ids_in(f.group("ids")):
                extra.setdefault(t_id, []).append(plain)
            i += 1
            continue
        m = ITEM_RE.match(line)
        named = NAMED_RE.match(line) if m is None else None
        if named is not None and named.group("id") not in rules:
            rid = named.group("id")
            rules[rid] = Rule(id=rid, title=_clean(named.group("title")), section=section,
                              best_reading=_reading(_item_body(lines, i)))
            order.append(rid)
            i += 1
            continue
        if m is None:
            b = BULLET_RE.match(line)
            if b and not b.group("indent") and READING_RE.search(line):
                # A best reading in a bullet of its own: it serves the §18 A-item it cites, else
                # the rule IDs it cites, else the rule just before it.
                body = _item_body(lines, i)
                reading = _reading(body)
                cited = [c for c in _ids_in(" ".join(body)) if c.startswith("A-")] or [
                    c for c in _ids_in(" ".join(body))]
                targets = cited or ([last_id] if last_id else [])
                for target in targets:
                    if reading:
                        extra.setdefault(target, []).append(reading)
            i += 1
            continue
        rid = m.group("id")
        indent = len(m.group("indent"))
        body = _item_body(lines, i)
        title = _clean(m.group("title")).rstrip(".:").strip()
        rest = _clean(m.group("rest"))
        if not title:
            title = _first_sentence(rest)
        reading = _reading(body)
        if reading is None and rid.startswith(("A-", "B-")):
            # §18: the item is itself the reading ("reading given").
            reading = _join([rest, *body[1:]])
        if rid not in rules and indent == 0:
            rules[rid] = Rule(id=rid, title=title, section=section, best_reading=reading)
            order.append(rid)
            last_id = rid
        i += 1
    out: list[Rule] = []
    for rid in order:
        r = rules[rid]
        more = [x for x in extra.get(rid, []) if x != r.best_reading]
        if more:
            more = [m[:1].upper() + m[1:] for m in more]
            joined = " ".join(filter(None, [r.best_reading, *more]))
            r = Rule(id=r.id, title=r.title, section=r.section, best_reading=joined)
        out.append(r)
    return out


def _item_body(lines: list[str], start: int) -> list[str]:
    """The lines of the bullet item starting at ``start``: it and everything indented under it."""
    first = lines[start]
    indent = len(first) - len(first.lstrip())
    body = [first]
    for line in lines[start + 1:]:
        if not line.strip():
            # A blank line ends a top-level item unless an indented continuation follows.
            body.append(line)
            continue
        if HEADING_RE.match(line):
            break
        cur = len(line) - len(line.lstrip())
        if cur <= indent and (BULLET_RE.match(line) or cur == 0):
            break
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    return body


def _ids_in(text: str) -> list[str]:
    """IDs written in text; ``R-WIN-01/02`` and ``R-AAG-01..04`` name every ID they span."""
    out: list[str] = []
    for m in DOC_ID_RE.finditer(text):
        for rid in _expand(m):
            if rid not in out:
                out.append(rid)
    return out


def _expand(m: re.Match[str]) -> list[str]:
    """The IDs of one DOC_ID_RE match: itself, then those of its '/n' and '..n' tails."""
    head, number, suffix, tail = m.group(1), m.group(2), m.group(3), m.group(4)
    out = [f"{head}-{number}{suffix}"]
    width = len(number) if number.startswith("0") else 0
    last = int(number)
    for sep, n in re.findall(r"(/|\.\.|…)(\d+)", tail or ""):
        stop = int(n)
        span = range(last + 1, stop + 1) if sep != "/" and stop > last else [stop]
        out += [f"{head}-{k:0{width}d}" for k in span]
        last = stop
    return out


# --------------------------------------------------------------------------------------------
# The index file


def write_index(b: Book, rules: list[Rule], digest_text: str) -> None:
    doc = {
        "about": f"Rule index of the {b.title} digest (../shared/{b.digest}): "
                 "IDs, titles, sections and best readings. Generated by "
                 f"`python -m tools.conformance --refresh-index --edition {b.word}`; "
                 "do not edit by hand.",
        "digest": b.digest,
        "digest_sha256": hashlib.sha256(digest_text.encode("utf-8")).hexdigest(),
        "rules": [asdict(r) for r in rules],
    }
    b.index.parent.mkdir(parents=True, exist_ok=True)
    b.index.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_index(path: Path) -> list[Rule]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [Rule(**r) for r in doc["rules"]]


# --------------------------------------------------------------------------------------------
# Finding the tests that cover each rule

_NUMBER = re.compile(r"\d+[A-Za-z]?")


def _upper(token: str) -> bool:
    return token.isalpha() and token.isupper()


def _name_ids(name: str, known: dict[str, str], lenient: bool = False) -> list[str]:
    """Rule IDs written as tokens in a function name: ``test_CC_6A_x_and_CC_7b_y``,
    ``test_R_SUB_02_x`` (Classic's R-SUB-02).

    A token pair inside a longer ID (``test_R_MAP_12``: Classic's R-MAP-12, not 1941's MAP-12)
    is not one, as in docstrings (DOC_ID_RE).
    """
    tokens = name.split("_")
    out: list[str] = []
    for i, a in enumerate(tokens):
        if not _upper(a) or (i and _upper(tokens[i - 1])):
            continue
        rid = None
        if i + 2 < len(tokens) and _upper(tokens[i + 1]) and _NUMBER.fullmatch(tokens[i + 2]):
            rid = _known(f"{a}-{tokens[i + 1]}-{tokens[i + 2]}", known, lenient)
        elif i + 1 < len(tokens) and _NUMBER.fullmatch(tokens[i + 1]):
            rid = _known(f"{a}-{tokens[i + 1]}", known, lenient)
        if rid and rid not in out:
            out.append(rid)
    return out


def _norm(rule_id: str) -> str:
    """``A-05`` and ``A-5`` alike (numbers without leading zeros), lowercase."""
    return re.sub(r"\d+", lambda m: str(int(m.group())), rule_id.lower())


def _known(candidate: str, known: dict[str, str], lenient: bool = False) -> str | None:
    """The digest's spelling of ``candidate`` (suffix letters match in either case; with
    ``lenient``, numbers match without their leading zeros)."""
    base = re.sub(r"(?<=\d)[A-Za-z]$", "", candidate)  # "CM-4s" → "CM-4"
    for c in (candidate, base):
        if c.lower() in known:
            return known[c.lower()]
    if lenient:
        loose = {_norm(k): v for k, v in known.items()}
        for c in (candidate, base):
            if _norm(c) in loose:
                return loose[_norm(c)]
    return None


def _doc_ids(doc: str, known: dict[str, str], lenient: bool = False) -> list[str]:
    out: list[str] = []
    for m in DOC_ID_RE.finditer(doc):
        for candidate in _expand(m):
            rid = _known(candidate, known, lenient)
            if rid and rid not in out:
                out.append(rid)
    return out


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^0-9a-z]+", text.casefold()) if w}


def scan_tests(b: Book, rules: list[Rule], tests_dir: Path = TESTS,
               root: Path = ROOT) -> dict[str, list[str]]:
    """Rule ID → ``path::function`` of every test naming it, in path and line order.

    A test whose path or name names another edition and not ``b`` does not count for ``b``.
    Nor does a test that names no edition but cites rule IDs only another edition has and none
    only ``b`` has (``CC-6C, A-10`` is 1941's A-10, not Classic's). Where a later edition's
    digest numbers its rules as the default edition's does (the same ``rule_ids``: Europe 1940's
    ``CC-1`` is not 1941's), an ID both have is, in a test naming no edition, the default
    edition's: the later edition counts only the tests that name it
    (``tests/rules/test_europe1940_data.py``).
    """
    everyone = books()
    other_books = [x for x in everyone if x.id != b.id]
    others = frozenset().union(*(x.markers for x in other_books))
    other_folders = frozenset().union(*(x.folders for x in other_books))
    default = everyone[0] if everyone else b

    def ids_of(x: Book, x_rules: list[Rule] | None = None) -> dict[str, str]:
        found = x_rules if x_rules is not None else (
            read_index(x.index) if x.index.exists() else [])
        return {r.id.lower(): r.id for r in found}

    first = ids_of(default, rules if default.id == b.id else None)

    def owned(x: Book, x_rules: list[Rule] | None = None) -> dict[str, str]:
        """The IDs of ``x`` that a test naming no edition cites for ``x``."""
        mine = ids_of(x, x_rules)
        if x.id == default.id or x.rule_ids != default.rule_ids:
            return mine
        # 1941's tests write "CC_3" for its CC-3a..CC-3c: such an ID is the default's too
        parts = {f.rstrip("abcdefghijklmnopqrstuvwxyz") for f in first}
        return {k: v for k, v in mine.items() if k not in first and k not in parts}

    known = {r.id.lower(): r.id for r in rules}
    unmarked = owned(b, rules)
    foreign: dict[str, str] = {}
    for x in other_books:
        foreign.update(owned(x))
    only_foreign = {k: v for k, v in foreign.items() if k not in unmarked}
    only_mine = {k for k in unmarked if k not in foreign}
    cover: dict[str, list[str]] = {r.id: [] for r in rules}
    for path in sorted(tests_dir.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError):
            continue
        rel = path.relative_to(root).as_posix()
        for qual, fn in _test_functions(tree):
            words = _words(rel) | _words(qual)
            folders = {f.casefold() for f in Path(rel).parts[:-1]}
            mine = bool(words & b.markers) or bool(folders & b.folders)
            if (words & others or folders & other_folders) and not mine:
                continue
            doc = ast.get_docstring(fn) or ""
            cited = known if mine else unmarked
            ids = _name_ids(fn.name, cited, lenient=mine)
            for rid in _doc_ids(doc, cited, lenient=mine):
                if rid not in ids:
                    ids.append(rid)
            if not mine and not any(r.lower() in only_mine for r in ids) and (
                    _name_ids(fn.name, only_foreign) or _doc_ids(doc, only_foreign)):
                continue  # another edition's test
            mark = " (expected to fail: a known gap)" if _is_xfail(fn) else ""
            for rid in ids:
                cover[rid].append(f"{rel}::{qual}{mark}")
    return cover


def _is_xfail(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with ``pytest.mark.xfail`` (with or without arguments)."""
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == "xfail":
            return True
    return False


def _test_functions(
    tree: ast.Module,
) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    out: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test"):
            out.append((node.name, node))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef) and sub.name.startswith(
                        "test"):
                    out.append((f"{node.name}::{sub.name}", sub))
    return out


# --------------------------------------------------------------------------------------------
# The page


def _md(text: str) -> str:
    """Plain text safe in Markdown (emphasis marks and HTML-like brackets escaped)."""
    return re.sub(r"([*_<>\[\]])", r"\\\1", text)


def _naming(rules: list[Rule]) -> str:
    """How to name a test after a rule, with one ID of each shape this digest uses."""
    shown: dict[tuple[int, bool], str] = {}
    for r in rules:
        shown.setdefault((r.id.count("-"), r.id.startswith("EX-")), r.id)
    names = ", ".join(f"`test_{rid.replace('-', '_')}_...`" for rid in shown.values())
    return (f"Name a test after the rule it checks, `-` written `_` ({names}), or cite the ID in "
            "the first lines of its docstring.")


def render(b: Book, rules: list[Rule], cover: dict[str, list[str]]) -> str:
    covered = [r for r in rules if _passing(cover.get(r.id, []))]
    uncovered = [r for r in rules if not _passing(cover.get(r.id, []))]
    readings = sum(1 for r in rules if r.best_reading)
    index = b.index.relative_to(ROOT).as_posix()
    out: list[str] = [
        f"# {b.title}: the rules as implemented",
        "",
        f"<!-- Generated by `python -m tools.conformance` from {index} "
        "and the tests; do not edit by hand. -->",
        "",
        f"Every rule ID of the rulebook digest (`{b.digest}` of the shared rules folder), with "
        "the tests that cover it (a test covers a rule when its name or docstring names the rule "
        "ID; a rule whose only tests are expected failures counts as not covered) and the "
        "reading the referee follows where the rulebook is silent, garbled or ambiguous. "
        + _naming(rules),
        "",
        f"**{len(rules)} rules: {len(covered)} covered by tests, {len(uncovered)} not yet "
        f"covered; {readings} with a best reading.**",
        "",
    ]
    section = None
    for r in rules:
        if r.section != section:
            section = r.section
            n_cov = sum(1 for x in rules if x.section == section and _passing(cover.get(x.id, [])))
            n_all = sum(1 for x in rules if x.section == section)
            out += [f"## {section or 'Rules'}", "", f"{n_cov} of {n_all} rules covered.", ""]
        out.append(f"### {r.id} {_md(r.title)}")
        out.append("")
        tests = cover.get(r.id, [])
        if tests:
            out.append("Tests:")
            for t in tests:
                name, _, note = t.partition(" ")
                out.append(f"- `{name}`" + (f" {note}" if note else ""))
        else:
            out.append("Tests: none yet.")
        if r.best_reading:
            out += ["", f"Best reading: {_md(r.best_reading)}"]
        out.append("")
    out += ["## Rules not yet covered by a test", ""]
    if uncovered:
        out += [f"- {r.id} {_md(r.title)}" for r in uncovered]
    else:
        out.append("None.")
    out.append("")
    return "\n".join(out)


def _passing(tests: list[str]) -> bool:
    """Covered: at least one test that is not an expected failure."""
    return any(" " not in t for t in tests)


def build_page(b: Book, tests_dir: Path = TESTS, root: Path = ROOT) -> str:
    """An edition's page as it should be now, from its index file and the tests (no digest)."""
    rules = read_index(b.index)
    return render(b, rules, scan_tests(b, rules, tests_dir, root))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Generate docs/rules/<edition>.md (rules and their tests) for each edition.")
    ap.add_argument("--edition", action="append",
                    help="only this edition (id or keyword; repeatable); default: every edition")
    ap.add_argument("--refresh-index", action="store_true",
                    help="re-read the digest into docs/rules/<id>_rule_index.json first")
    ap.add_argument("--digest", type=Path,
                    help="the digest to read (one edition only; default: the one its data names)")
    ap.add_argument("--check", action="store_true", help="exit 1 if a page is stale")
    args = ap.parse_args(argv)
    chosen = [book(e) for e in args.edition] if args.edition else books()
    if args.digest and len(chosen) != 1:
        ap.error("--digest needs exactly one --edition")
    stale = 0
    for b in chosen:
        if args.refresh_index:
            digest = args.digest or b.digest_path
            text = digest.read_text(encoding="utf-8")
            rules = parse_digest(text)
            write_index(b, rules, text)
            print(f"{b.index.relative_to(ROOT)}: {len(rules)} rules from {digest}")
        if not b.index.exists():
            print(f"{b.index.relative_to(ROOT)} is missing: run `python -m tools.conformance "
                  f"--refresh-index --edition {b.word}`", file=sys.stderr)
            stale += 1
            continue
        page = build_page(b)
        if args.check:
            if not b.page.exists() or b.page.read_text(encoding="utf-8") != page:
                print(f"{b.page.relative_to(ROOT)} is stale: run `python -m tools.conformance`",
                      file=sys.stderr)
                stale += 1
            continue
        b.page.parent.mkdir(parents=True, exist_ok=True)
        b.page.write_text(page, encoding="utf-8")
        rules = read_index(b.index)
        cover = scan_tests(b, rules)
        n_cov = sum(1 for r in rules if _passing(cover[r.id]))
        print(f"{b.page.relative_to(ROOT)}: {len(rules)} rules, {n_cov} covered, "
              f"{len(rules) - n_cov} uncovered")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
