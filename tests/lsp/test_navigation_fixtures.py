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
from puppet_ls.language.ide import navigation
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
        for path, text in self.texts.items():
            rel = Path(path).relative_to(root).parts
            module, role = "", "site"
            if rel[0] == "modules":
                module, role = rel[1], file_role("/".join(rel[2:])) or "manifest"
            self.index.add(index_source(path, text, module, role))

    def analysis(self, path: str):
        return analyze(parse_for_path(self.texts[path], path), self.index)

    def pos(self, path: str | None, offset: int, this: str) -> str:
        p = this if path is None else path
        line, col = LineIndex(self.texts[p]).position(offset)
        return f"{Path(p).relative_to(self.root / 'modules') if 'modules' in p else Path(p).name}:{line + 1}:{col + 1}"

    def locs(self, items, this: str) -> str:
        return ", ".join(self.pos(x.path, x.start, this) + ("(w)" if x.write else "") for x in items) or "-"


def check(root: Path) -> str:
    ws = Workspace(root)
    out = []
    for path, offset, new_name in ws.cursors:
        an = ws.analysis(path)
        out.append(f"== {ws.pos(None, offset, path)}")
        out.append("definition: " + ws.locs(navigation.definition(an, offset, ws.texts.get, path), path))
        refs = navigation.references(an, offset, True, path, ws.texts.get)
        refs.sort(key=lambda x: (x.path or path, x.start))
        out.append("references: " + ws.locs(refs, path))
        out.append("highlights: " + ws.locs(navigation.highlights(an, offset), path))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("root", CASES, ids=[p.name for p in CASES])
def test_navigation(root: Path) -> None:
    assert_expected(root.with_name(root.name + ".expect"), check(root))
