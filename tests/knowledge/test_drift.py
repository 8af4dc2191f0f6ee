"""No second table of resource-type attributes or metaparameters may appear in language/: the
knowledge lives in language/knowledge/resource_types.json and is read through its loader.

A "table" is a literal collection of strings (set, frozenset, list, tuple, dict keys), a string of
bare words (the ``"alias audit before ...".split()`` idiom) or the names written in one
assignment (a table built by constructor calls) that names two relationship
metaparameters (subscribe and before, or three of the four), three other metaparameters, or
three attribute names that only a resource type has."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from puppet_ls.language.knowledge.resource_types import metaparameters, resource_types

ROOT = Path(__file__).resolve().parents[2]
LANGUAGE = ROOT / "language"
LOADER = LANGUAGE / "knowledge"
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_WORDS = re.compile(r"^[a-z_][a-z0-9_]*(\s+[a-z_][a-z0-9_]*)+\s*$")


def _distinctive_attributes() -> set:
    # Names no Puppet program uses for anything else: compound or long attribute names.
    names = {a for t in resource_types().values() for a in t.attributes}
    return {n for n in names if "_" in n or len(n) >= 9}


def _string_groups(tree: ast.AST):
    """(line, strings) for every literal collection of strings and every string of bare words."""
    for node in ast.walk(tree):
        elts = None
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            elts = node.elts
        elif isinstance(node, ast.Dict):
            elts = [k for k in node.keys if k is not None]
        if elts is not None:
            strs = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(strs) >= 2:
                yield node.lineno, set(strs)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _WORDS.match(node.value):
            yield node.lineno, set(node.value.split())
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.Return)):
            # A table built by calls (``{a.name: a for a in (Info('noop', ...), ...)}``): the
            # names written anywhere in one assignment.
            names = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and isinstance(c.value, str)
                     and _NAME.match(c.value)}
            if len(names) >= 2:
                yield node.lineno, names


def table_kind(strs: set) -> str | None:
    """What knowledge a group of strings duplicates, if any."""
    metas = set(metaparameters())
    relations = {"before", "require", "notify", "subscribe"} & metas
    # tag, alias and notify are ordinary words too (a notify resource, the tag function).
    if {"subscribe", "before"} <= strs or len(strs & relations) >= 3 or \
            len(strs & (metas - {"tag", "alias", "notify"})) >= 3:
        return "metaparameters " + ", ".join(sorted(strs & metas))
    if len(strs & _distinctive_attributes()) >= 3:
        return "attributes " + ", ".join(sorted(strs & _distinctive_attributes()))
    return None


def tables_in(source: str) -> list:
    return [(line, kind) for line, strs in _string_groups(ast.parse(source)) if (kind := table_kind(strs))]


def test_no_second_table() -> None:
    found = []
    for path in sorted(LANGUAGE.rglob("*.py")):
        if LOADER in path.parents:
            continue
        for line, kind in tables_in(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}:{line}: {kind}")
    assert not found, "resource-type knowledge written outside language/knowledge:\n" + "\n".join(found)


def test_the_scan_finds_tables() -> None:
    # The shapes the deleted tables had are found; ordinary code is not.
    for src in ('METAPARAMS = frozenset({"alias", "audit", "before", "loglevel", "subscribe"})',
                'M = frozenset("alias audit before loglevel noop notify require".split())',
                '_ATTRS = {"file": "backup force checksum_value source_permissions show_diff"}',
                'X = ("refreshonly", "logoutput", "try_sleep")',
                "M = {a.name: a for a in (Info('noop', 'Doc.'), Info('before', ''), Info('subscribe', ''))}"):
        assert tables_in(src), src
    for src in ('KINDS = ("class", "define", "node")', 'S = "notify before the tag"',
                'D = {"require": 1}'):
        assert not tables_in(src), src


def test_one_data_file() -> None:
    data = sorted(p.name for p in LOADER.iterdir() if p.suffix == ".json")
    assert data == ["bolt.json", "facts.json", "factsets.json", "functions.json", "resource_types.json"]
