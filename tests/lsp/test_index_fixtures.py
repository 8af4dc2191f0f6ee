"""The workspace index on small module trees: each folder of fixtures/lsp/index is a case with a
modulepath (its ``mp*`` folders, in order) and a workspace ``ws``; the .expect file beside it
lists the modules and their roots, every indexed entity (kind, name, file, line, doc) and the
diagnostics of each manifest of ``ws`` checked against that index.  Regenerate with
UPDATE_EXPECT=1."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.workspace import build_index
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "index"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir())


def check(case: Path) -> str:
    modulepath = [str(p) for p in sorted(case.glob("mp*"))]
    ws = case / "ws"
    index = build_index([str(ws)], modulepath, complete=True)

    def rel(path: str) -> str:
        return Path(path).relative_to(case).as_posix()

    out = ["== modules"]
    out += [f"{name}: {rel(root)}" for name, root in sorted(index.module_roots.items())]
    out.append("== entities")
    rows = []
    for entry in index.files.values():
        text = Path(entry.path).read_text(encoding="utf-8")
        lines = LineIndex(text)
        for e in entry.entities:
            doc = " ".join(e.doc.split())
            body = " ".join(e.extra.get("text", "").split())
            rows.append(f"{e.kind} {e.name} {rel(e.path)}:{lines.position(e.offset)[0] + 1}"
                        f" | {doc or '-'}" + (f" | {body}" if body and body != doc else ""))
    out += sorted(rows)
    for path in sorted(ws.rglob("*.pp")):
        text = path.read_text(encoding="utf-8")
        lines = LineIndex(text)
        out.append(f"== diagnostics of {rel(str(path))}")
        for d in file_diagnostics(parse_for_path(text, str(path)), index, path=str(path)):
            line, col = lines.position(d.offset)
            out.append(f"{line + 1}:{col + 1} {d.code} {d.message}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("case", CASES, ids=[p.name for p in CASES])
def test_index(case: Path) -> None:
    assert_expected(case.with_name(case.name + ".expect"), check(case))
