"""Parser fixtures: each fixtures/syntax/*.pp|epp has an .expect file holding its diagnostics,
Puppet-format dump and our tree; the text must round-trip and nothing may raise."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.ide.symbols import document_symbols, flatten
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.language.syntax.puppet_format import puppet_dump
from puppet_ls.language.syntax.tree import dump_tree
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "syntax"
CASES = sorted(p for p in FIXTURES.iterdir() if p.suffix in (".pp", ".epp"))


def render(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    result = parse_for_path(text, str(path))
    assert result.green.text() == text, "the tree does not round-trip"
    index = LineIndex(text)

    def pos(offset: int) -> str:
        line, col = index.position(offset)
        return f"{line + 1}:{col + 1}"

    out = ["== diagnostics"]
    for d in file_diagnostics(result):
        out.append(f"{pos(d.offset)}-{pos(d.end)} {d.severity} {d.code} {d.message}")
    out.append("== symbols")
    for s in flatten(document_symbols(result)):
        out.append(f"{s.kind} {s.name} @{pos(s.selection_range[0])}")
    out.append("== puppet")
    out.append(puppet_dump(result.root))
    out.append("== tree")
    out.append(dump_tree(result.root))
    return "\n".join(out)


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_fixture(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), render(path))
