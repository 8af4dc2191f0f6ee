"""Data-driven tests of navigation across files and of rename: each folder of
fixtures/lsp/navigation is a small workspace (``modules/<name>/manifests/...``) whose files
mark cursor positions with ‸ (removed before indexing); a cursor followed by ⟦new⟧ also asks
to rename the symbol there to ``new``.  The folder's .expect file holds, for every cursor,
definition, references and highlights (``file:line:col``, ``(w)`` for a definition) and for a
rename what prepareRename answers and every edit.  Regenerate with UPDATE_EXPECT=1."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide import navigation, rename
from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.index import WorkspaceIndex, file_role, index_source
from puppet_ls.language.syntax.lines import LineIndex
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "navigation"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())
CURSOR = "‸"
NEW_NAME = re.compile(r"⟦([^⟧]*)⟧")


class Workspace:
    """The files of one fixture folder, their cursors, and an index of them."""

    def __init__(self, root: Path):
        self.root = root
        self.texts: dict = {}
        self.cursors: list = []          # (path, offset, new name or None)
        for f in sorted(root.rglob("*.pp")):
            raw = f.read_text(encoding="utf-8")
            text = ""
            pos = 0
            for m in re.finditer(CURSOR + "(?:" + NEW_NAME.pattern + ")?", raw):
                text += raw[pos:m.start()]
                self.cursors.append((str(f), len(text), m.group(1)))
                pos = m.end()
            text += raw[pos:]
            self.texts[str(f)] = text
        self.index = WorkspaceIndex(complete=True)
        for m in sorted((root / "modules").iterdir()) if (root / "modules").is_dir() else []:
            self.index.add_module(m.name, str(m))
        for path, text in self.texts.items():
            rel = Path(path).relative_to(root).parts
            module, role = "", "site"
            if rel[0] == "modules":
                module, role = rel[1], file_role("/".join(rel[2:])) or "manifest"
            self.index.add(index_source(path, text, module, role))

    def source(self, path: str) -> str | None:
        """A file's text: a manifest's without its cursor marks, any other file (a template)
        as it is."""
        if path in self.texts:
            return self.texts[path]
        f = Path(path)
        return f.read_text(encoding="utf-8") if f.is_file() and f.is_relative_to(self.root) else None

    def analysis(self, path: str):
        return analyze(parse_for_path(self.texts[path], path), self.index)

    def pos(self, path: str | None, offset: int, this: str) -> str:
        p = this if path is None else path
        line, col = LineIndex(self.source(p) or "").position(offset)
        return f"{Path(p).relative_to(self.root / 'modules') if 'modules' in p else Path(p).name}:{line + 1}:{col + 1}"

    def locs(self, items, this: str) -> str:
        return ", ".join(self.pos(x.path, x.start, this) + ("(w)" if x.write else "") for x in items) or "-"


def check(root: Path) -> str:
    ws = Workspace(root)
    out = []
    for path, offset, new_name in ws.cursors:
        an = ws.analysis(path)
        out.append(f"== {ws.pos(None, offset, path)}")
        out.append("definition: " + ws.locs(navigation.definition(an, offset, ws.source, path), path))
        refs = navigation.references(an, offset, True, path, ws.source)
        refs.sort(key=lambda x: (x.path or path, x.start))
        out.append("references: " + ws.locs(refs, path))
        out.append("highlights: " + ws.locs(navigation.highlights(an, offset), path))
        if new_name is not None:
            out += _rename(ws, an, path, offset, new_name)
    return "\n".join(out) + "\n"


def _rename(ws: Workspace, an, path: str, offset: int, new_name: str) -> list:
    out = []
    p = rename.prepare_rename(an, offset, ws.source, path)
    if isinstance(p, rename.Refusal):
        out.append(f"prepare: refused: {p.message}")
    else:
        out.append(f"prepare: {p.kind} {p.name} at {ws.pos(None, p.start, path)} {p.placeholder!r}")
    edits = rename.rename(an, offset, new_name, ws.source, path)
    if isinstance(edits, rename.Refusal):
        out.append(f"rename to {new_name}: refused: {edits.message}")
        return out
    by_file: dict = {}
    for e in edits:
        by_file.setdefault(e.path or path, []).append(e)
    out.append(f"rename to {new_name}: {len(edits)} edits in {len(by_file)} files")
    for f, es in sorted(by_file.items()):
        for e in es:
            out.append(f"  {ws.pos(f, e.start, f)} {(ws.source(f) or '')[e.start:e.end]!r} -> {e.new_text!r}")
    # rename back from where the name now is: the text comes back byte for byte
    before = {f: ws.source(f) or "" for f in set(ws.texts) | set(by_file)}
    renamed = Workspace.__new__(Workspace)
    renamed.root, renamed.cursors = ws.root, []
    renamed.texts = {f: rename.apply_edits(t, by_file.get(f, [])) for f, t in before.items()}
    renamed.index = WorkspaceIndex(complete=True)
    renamed.index.module_roots = ws.index.module_roots
    for f, t in renamed.texts.items():
        if not f.endswith(".pp"):
            continue
        rel = Path(f).relative_to(ws.root).parts
        module, role = (rel[1], file_role("/".join(rel[2:])) or "manifest") if rel[0] == "modules" else ("", "site")
        renamed.index.add(index_source(f, t, module, role))
    at = rename.moved_offset(offset, by_file.get(path, []))
    back = rename.rename(renamed.analysis(path), at, p.placeholder if not isinstance(p, rename.Refusal) else "",
                         renamed.source, path)
    if isinstance(back, rename.Refusal):
        out.append(f"rename back: refused: {back.message}")
        return out
    again = {f: rename.apply_edits(t, [e for e in back if (e.path or path) == f]) for f, t in renamed.texts.items()}
    out.append("rename back: " + ("restored" if again == before else
                                  "DIFFERS in " + ", ".join(sorted(f for f in before if again[f] != before[f]))))
    return out


@pytest.mark.parametrize("root", CASES, ids=[p.name for p in CASES])
def test_navigation(root: Path) -> None:
    assert_expected(root.with_name(root.name + ".expect"), check(root))


@pytest.mark.parametrize("root", CASES, ids=[p.name for p in CASES])
def test_round_trip(root: Path) -> None:
    """The round trip of benchmarks/rename_roundtrip.py over every class, defined type and
    variable of the fixture workspace: renamed and renamed back byte for byte, no new
    diagnostics; the counts and refusal reasons are in ``<case>.roundtrip.expect``."""
    from benchmarks.rename_roundtrip import report, run, symbols_of
    ws = Workspace(root)
    texts = dict(ws.texts)

    def source(path: str):
        return texts[path] if path in texts else ws.source(path)

    counts, failures = run(ws.index, source, texts, symbols_of(ws.index, source, sorted(ws.index.module_roots)))
    assert all(t == ws.source(p) for p, t in texts.items())     # every file left as it was
    assert failures == []
    assert_expected(root.with_name(root.name + ".roundtrip.expect"), "\n".join(report(counts, failures)) + "\n")
