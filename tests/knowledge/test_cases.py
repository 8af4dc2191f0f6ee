"""Built-in resource types in use: each fixtures/knowledge/cases/*.pp has an .expect file with
what ``check`` reports and what the evaluator's catalog compile says, and a .puppet file with the
installed Puppet's verdict on the same file (compile, then conversion to resources), which the
oracle-marked test recomputes (UPDATE_EXPECT=1 rewrites both)."""
from __future__ import annotations

from pathlib import Path

import pytest
from puppet_ls.language.eval.api import compile_catalog
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.syntax.lines import LineIndex

from tests.expect import assert_expected
from tests.knowledge import differential

CASES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "knowledge" / "cases").glob("*.pp"))


def check(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    index = LineIndex(text)

    def pos(offset: int | None) -> str:
        if offset is None:
            return "?"
        line, col = index.position(offset)
        return f"{line + 1}:{col + 1}"

    out = ["== check"]
    for d in file_diagnostics(parse_for_path(text, str(path)), None):
        out.append(f"{pos(d.offset)}-{pos(d.end)} {d.severity} {d.code} {d.message}")
    out.append("== evaluator (catalog compile)")
    result = compile_catalog(text)
    if result.ok:
        out.append("compiles")
    else:
        for d in result.diagnostics:
            out.append(f"{pos(d.offset)}-{pos(d.end)} {d.severity} {d.code} {d.message}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_case(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))


def test_cases_exist() -> None:
    assert len(CASES) >= 5


@pytest.mark.oracle
def test_puppet_verdicts() -> None:
    why = differential.puppet_available()
    if why is not None:
        pytest.skip(f"the installed Puppet is needed: {why}")
    with differential.PuppetProcess() as puppet:
        for path in CASES:
            v = puppet.verdict(path.read_text(encoding="utf-8"))
            text = f"compile: {v['compile'] or 'ok'}\nresources: {v['ral'] or 'ok'}\n"
            assert_expected(path.with_name(path.name + ".puppet"), text)
