"""Completion against an indexed workspace (fixtures/lsp/completion_ws): class names ranked
with the current module and its metadata.json dependencies first, qualified variables mid-path,
custom facts (lib/facter) and external facts (facts.d) after ``$::`` and inside ``$facts['``,
resource references after ``=>`` and at statement start.  Each ‸ in a manifest of the fixture
is a cursor; the .expect file holds, per cursor, the first items as a client shows them (the
items whose filter text starts with what was typed, sorted by sort text).  Regenerate with
UPDATE_EXPECT=1."""
from __future__ import annotations

import re
from pathlib import Path

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import completion
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.index import WorkspaceIndex, file_role, index_source
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.workspace import build_index
from tests.expect import assert_expected

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "completion_ws"
MODULES = ROOT / "modules"
CASE = MODULES / "app" / "manifests" / "server.pp"
CURSOR = "‸"
SHOWN = 6


def shown(text: str, offset: int, items: list) -> list:
    """The labels a client lists first: filtered by the typed prefix, sorted by sort text."""
    line_start = text.rfind("\n", 0, offset) + 1
    word = re.search(r"[\w:]*\Z", text[line_start:offset]).group(0)
    keep = []
    for it in items:
        typed = text[it.edit_start:offset] if it.edit_start >= 0 else word
        if (it.filter_text or it.label).lower().startswith(typed.lower()):
            keep.append(it)
    keep.sort(key=lambda i: (i.sort_text or i.label, i.label))
    return [f"{i.label} ({i.detail})" if i.kind in ("fact", "variable") and "fact" in i.detail else i.label
            for i in keep[:SHOWN]]


def check() -> str:
    raw = CASE.read_text(encoding="utf-8")
    parts = raw.split(CURSOR)
    text, cursors = "", []
    for p in parts[:-1]:
        text += p
        cursors.append(len(text))
    text += parts[-1]
    index = build_index([], [str(MODULES)])
    entry = index.files.get(str(CASE))
    assert entry is not None, "the fixture's own file is indexed"
    index.add(index_source(str(CASE), text, entry.module, entry.role))
    an = analyze(parse_for_path(text, str(CASE)), index)
    lines = LineIndex(text)
    out = []
    for off in cursors:
        line, col = lines.position(off)
        typed = text[text.rfind("\n", 0, off) + 1:off].strip()
        out.append(f"{line + 1}:{col + 1} {typed}  ->  " + ", ".join(shown(text, off, completion.complete(an, off))))
    return "\n".join(out) + "\n"


def test_completion_in_a_workspace() -> None:
    assert_expected(CASE.with_name("server.pp.expect"), check())


def test_external_facts_are_indexed() -> None:
    assert file_role("facts.d/site.txt") == "external_fact"
    assert file_role("facts.d/deep/site.txt") is None
    names = {e.name for e in index_source("/m/app/facts.d/site.txt", "datacenter=ams1\n# no\nrack_row=4\n",
                                          "app", "external_fact").entities}
    assert names == {"datacenter", "rack_row"}
    names = {e.name for e in index_source("/m/app/facts.d/h.yaml", "---\ncabinet: c7\nnested:\n  key: v\n",
                                          "app", "external_fact").entities}
    assert names == {"cabinet", "nested"}
    names = {e.name for e in index_source("/m/app/facts.d/p.json", '{"power_feed": "a"}', "app",
                                          "external_fact").entities}
    assert names == {"power_feed"}
    assert index_source("/m/app/facts.d/bad.json", "[1]", "app", "external_fact").entities == []
    env = WorkspaceIndex()
    env.add(index_source("/m/app/facts.d/site.txt", "datacenter=ams1\n", "app", "external_fact"))
    assert env.has_fact("datacenter")
