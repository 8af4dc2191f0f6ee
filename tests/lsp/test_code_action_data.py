"""Code actions as data: fixtures/lsp/actions/*.pp (first line ``# range: <line>``, the line the
actions are asked for) and their .expect: each action offered there (title, kind) with the text
its edits make (and, for an "ignore" action, how many findings of the check are still reported
once the control comment is written: 0 when it is the only one); then the "fix all" action."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.ide.code_actions import fix_all, quick_fixes
from puppet_ls.language.ide.diagnostics import file_diagnostics
from puppet_ls.language.lint import default_enabled, lint
from puppet_ls.language.syntax import parse
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "actions"
CASES = sorted(FIXTURES.glob("*.pp"))


def edited(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[:e.start] + e.text + text[e.end:]
    return text


def render(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    line = int(text.split("\n", 1)[0].split(":", 1)[1])
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    start, end = starts[line - 1], starts[line] - 1
    result = parse(text)
    out = []
    for a in quick_fixes(result, lint(result, "", default_enabled()), start, end):
        new = edited(text, a.edits)
        out += [f"== {a.title} [{a.kind}]", new.rstrip("\n")]
        if a.title.startswith("Ignore") and a.diagnostic is not None:
            # the control comment written must silence the finding
            left = [d.code for d in file_diagnostics(parse(new), None, lint=default_enabled())]
            out.append(f"-- {a.diagnostic.code} still reported: {left.count(a.diagnostic.code)}")
    every = fix_all(result, "", default_enabled())
    out += [f"== {every.title} [{every.kind}]", edited(text, every.edits).rstrip("\n")] if every else ["== nothing to fix"]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_code_actions(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), render(path))
