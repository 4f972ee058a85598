"""Generate ``docs/rules/1941.md``: every rule of the 1941 digest with the tests that cover it.

Usage (from the repository root)::

    python -m tools.conformance                  # regenerate the page from the repo alone
    python -m tools.conformance --check          # exit 1 if the page is stale
    python -m tools.conformance --refresh-index  # re-read the digest into the rule index first
        [--digest ../shared/rules/a1941.md]

The rule index (ID, title, section, best reading) is parsed from the digest
``../shared/rules/a1941.md`` and stored in ``docs/rules/a1941_rule_index.json``; the page is
built from that index and the tests, so the project never reads ``../shared`` except when the
index is refreshed on purpose.

A test covers a rule when its function name holds the rule ID as a token (``CM-12`` is written
``CM_12`` in a name: ``test_CM_12_no_noncombat_move``) or its docstring holds the ID
(``CM-12: ...`` in its first lines). Tests are found by parsing ``tests/**/*.py``: module-level
``test_*`` functions and ``test_*`` methods of ``Test*`` classes.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import itertools
import json
import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIGEST = ROOT.parent / "shared" / "rules" / "a1941.md"
INDEX = ROOT / "docs" / "rules" / "a1941_rule_index.json"
PAGE = ROOT / "docs" / "rules" / "1941.md"
TESTS = ROOT / "tests"

ID_RE = r"[A-Z]{1,4}-\d+[A-Za-z]?"
# A rule item: "* **CM-12 Title.** text" (§18 items "A-n"/"B-n" may have no title).
ITEM_RE = re.compile(rf"^(?P<indent>\s*)\* \*\*(?P<id>{ID_RE})(?P<title>[^*]*)\*\*(?P<rest>.*)$")
BULLET_RE = re.compile(r"^(?P<indent>\s*)\* ")
HEADING_RE = re.compile(r"^(?P<hashes>#{2,4}) (?P<text>.+?)\s*$")
READING_RE = re.compile(r"\*\*(?:Best reading|Reading)(?: \([^)]*\))?:\*\*")
DOC_ID_RE = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{1,4})-(\d+)([A-Za-z]?)(?![A-Za-z0-9])")


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
    text = text.replace("**", "").replace("`", "")
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
        seg = _clean(line.strip().removeprefix("* "))
        if not seg:
            continue
        if out and not out.endswith((".", ":", ";", "!", "?", ")")):
            out += ";"
        out = f"{out} {seg}" if out else seg
    return out


def parse_digest(text: str) -> list[Rule]:
    """Every rule ID of the digest with its title, section and best reading."""
    lines = text.splitlines()
    rules: dict[str, Rule] = {}
    order: list[str] = []
    extra: dict[str, list[str]] = {}  # readings in bullets of their own, by the rule they serve
    section = ""
    last_id: str | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        h = HEADING_RE.match(line)
        if h:
            if len(h.group("hashes")) == 2:
                section = _clean(h.group("text"))
            last_id = None
            i += 1
            continue
        m = ITEM_RE.match(line)
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
                for t in targets:
                    if reading:
                        extra.setdefault(t, []).append(reading)
            i += 1
            continue
        rid = m.group("id")
        indent = len(m.group("indent"))
        body = _item_body(lines, i)
        title = _clean(m.group("title")).rstrip(".").strip()
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
    out: list[str] = []
    for m in DOC_ID_RE.finditer(text):
        rid = f"{m.group(1)}-{m.group(2)}{m.group(3)}"
        if rid not in out:
            out.append(rid)
    return out


# --------------------------------------------------------------------------------------------
# The index file


def write_index(rules: list[Rule], digest_text: str, path: Path = INDEX) -> None:
    doc = {
        "about": "Rule index of the Axis & Allies 1941 digest (../shared/rules/a1941.md): "
                 "IDs, titles, sections and best readings. Generated by "
                 "`python -m tools.conformance --refresh-index`; do not edit by hand.",
        "digest": "rules/a1941.md",
        "digest_sha256": hashlib.sha256(digest_text.encode("utf-8")).hexdigest(),
        "rules": [asdict(r) for r in rules],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_index(path: Path = INDEX) -> list[Rule]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [Rule(**r) for r in doc["rules"]]


# --------------------------------------------------------------------------------------------
# Finding the tests that cover each rule


def _name_ids(name: str, known: dict[str, str]) -> list[str]:
    """Rule IDs written as tokens in a function name: ``test_CC_6A_x_and_CC_7b_y``.

    A token pair inside a longer ID (``test_R_MAP_12``: Classic's R-MAP-12) is not one, as in
    docstrings (DOC_ID_RE).
    """
    tokens = name.split("_")
    out: list[str] = []
    for i, (a, b) in enumerate(itertools.pairwise(tokens)):
        if not (a.isalpha() and a.isupper() and re.fullmatch(r"\d+[A-Za-z]?", b)):
            continue
        if i and tokens[i - 1].isalpha() and tokens[i - 1].isupper():
            continue
        rid = _known(f"{a}-{b}", known)
        if rid and rid not in out:
            out.append(rid)
    return out


def _known(candidate: str, known: dict[str, str]) -> str | None:
    """The digest's spelling of ``candidate`` (suffix letters match in either case)."""
    if candidate.lower() in known:
        return known[candidate.lower()]
    base = re.sub(r"(?<=\d)[A-Za-z]$", "", candidate)  # "CM-4s" → "CM-4"
    return known.get(base.lower())


def _doc_ids(doc: str, known: dict[str, str]) -> list[str]:
    out: list[str] = []
    for m in DOC_ID_RE.finditer(doc):
        rid = _known(f"{m.group(1)}-{m.group(2)}{m.group(3)}", known)
        if rid and rid not in out:
            out.append(rid)
    return out


def scan_tests(rules: list[Rule], tests_dir: Path = TESTS,
               root: Path = ROOT) -> dict[str, list[str]]:
    """Rule ID → ``path::function`` of every test naming it, in path and line order."""
    known = {r.id.lower(): r.id for r in rules}
    cover: dict[str, list[str]] = {r.id: [] for r in rules}
    for path in sorted(tests_dir.rglob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except (SyntaxError, UnicodeDecodeError):
            continue
        rel = path.relative_to(root).as_posix()
        if path.name.startswith("test_classic"):
            continue  # Classic's cases cite the Classic digest (its A-n are not 1941's A-n)
        for qual, fn in _test_functions(tree):
            ids = _name_ids(fn.name, known)
            for rid in _doc_ids(ast.get_docstring(fn) or "", known):
                if rid not in ids:
                    ids.append(rid)
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


def render(rules: list[Rule], cover: dict[str, list[str]]) -> str:
    covered = [r for r in rules if _passing(cover.get(r.id, []))]
    uncovered = [r for r in rules if not _passing(cover.get(r.id, []))]
    readings = sum(1 for r in rules if r.best_reading)
    out: list[str] = [
        "# Axis & Allies 1941: the rules as implemented",
        "",
        "<!-- Generated by `python -m tools.conformance` from docs/rules/a1941_rule_index.json "
        "and the tests; do not edit by hand. -->",
        "",
        "Every rule ID of the rulebook digest (`rules/a1941.md` of the shared rules folder), with "
        "the tests that cover it (a test covers a rule when its name or docstring names the rule "
        "ID; a rule whose only tests are expected failures counts as not covered) and the "
        "reading the referee follows where the rulebook is silent, garbled or ambiguous.",
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


def build_page(index: Path = INDEX, tests_dir: Path = TESTS, root: Path = ROOT) -> str:
    """The page as it should be now, from the index file and the tests (no digest needed)."""
    rules = read_index(index)
    return render(rules, scan_tests(rules, tests_dir, root))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Generate docs/rules/1941.md (rules and their tests).")
    ap.add_argument("--refresh-index", action="store_true",
                    help="re-read the digest into docs/rules/a1941_rule_index.json first")
    ap.add_argument("--digest", type=Path, default=DIGEST, help="the digest to read")
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = ap.parse_args(argv)
    if args.refresh_index:
        text = args.digest.read_text(encoding="utf-8")
        rules = parse_digest(text)
        write_index(rules, text)
        print(f"{INDEX.relative_to(ROOT)}: {len(rules)} rules from {args.digest}")
    page = build_page()
    if args.check:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != page:
            print(f"{PAGE.relative_to(ROOT)} is stale: run `python -m tools.conformance`",
                  file=sys.stderr)
            return 1
        return 0
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(page, encoding="utf-8")
    rules = read_index()
    cover = scan_tests(rules)
    n_cov = sum(1 for r in rules if _passing(cover[r.id]))
    print(f"{PAGE.relative_to(ROOT)}: {len(rules)} rules, {n_cov} covered, "
          f"{len(rules) - n_cov} uncovered")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
