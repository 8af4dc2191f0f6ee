"""Bolt code under the checker: every .pp of fixtures/bolt/modulepath (a peadm-like module
``deploy`` with plans, helper functions, a type and tasks; an ordinary module ``plain``) is
checked against the complete index of that modulepath, as ``puppet-ls check --modulepath``
does; fixtures/bolt/check.expect holds the findings (UPDATE_EXPECT=1 rewrites it)."""
from __future__ import annotations

from pathlib import Path

from puppet_ls.language.check import analyze
from puppet_ls.language.check.bolt import is_bolt_code
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.server.workspace import build_index
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "bolt"
MODULEPATH = FIXTURES / "modulepath"


def check(root: Path) -> str:
    """Per file: whether it is Bolt code, then its findings."""
    index = build_index([], [str(root)])
    out = []
    for path in sorted(root.rglob("*.pp")):
        text = path.read_text(encoding="utf-8")
        result = parse_for_path(text, str(path))
        an = analyze(result, index)
        lines = LineIndex(text)
        out.append(f"== {path.relative_to(root)} (bolt code: {is_bolt_code(an)})")
        for d in file_diagnostics(result, index, an):
            line, col = lines.position(d.offset)
            out.append(f"{line + 1}:{col + 1} {d.severity} {d.code} {d.message}")
    return "\n".join(out) + "\n"


def test_bolt_modules() -> None:
    assert_expected(FIXTURES / "check.expect", check(MODULEPATH))
