"""Static-check fixtures: each fixtures/check_static/cases/*.pp has an .expect file with the
file's diagnostics and the inferred type of every variable it defines.  A case whose first
line is ``# env: modulepath`` is checked against the index of fixtures/check_static/modulepath
(complete, as with ``puppet-ls check --modulepath``); other cases are checked alone."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.language.types import type_to_string
from puppet_ls.server.workspace import build_index
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "check_static"
CASES = sorted((FIXTURES / "cases").rglob("*.pp"))
_INDEX = {}


def modulepath_index():
    if "index" not in _INDEX:
        _INDEX["index"] = build_index([], [str(FIXTURES / "modulepath")])
    return _INDEX["index"]


def check(path: Path) -> str:
    """The rendered diagnostics and variable types of one case."""
    text = path.read_text(encoding="utf-8")
    env = modulepath_index() if text.startswith("# env: modulepath") else None
    result = parse_for_path(text, str(path))
    analysis = analyze(result, env)
    index = LineIndex(text)

    def pos(offset: int) -> str:
        line, col = index.position(offset)
        return f"{line + 1}:{col + 1}"

    out = ["== diagnostics"]
    for d in file_diagnostics(result, env, analysis):
        out.append(f"{pos(d.offset)}-{pos(d.end)} {d.severity} {d.code} {d.message}")
    out.append("== types")
    for d in analysis.model.definitions:
        out.append(f"${d.name} ({d.kind}) @{pos(d.offset)} : {type_to_string(analysis.definition_type(d))}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(FIXTURES / "cases")) for p in CASES])
def test_case(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))


def test_cases_exist() -> None:
    assert len(CASES) >= 5
