"""Quick fixes of the checker's findings as data: fixtures/lsp/checker_actions/*.pp (first line
``# range: <line>`` or ``<first>-<last>``, the lines the actions are asked for; ``# env:
modulepath`` on the second line checks against the index of fixtures/check_static/modulepath)
and their .expect: the findings in the range, then each action offered (title, kind, whether
preferred) with the text its edit makes and how many findings of the code it answers are left
in the range once it is made ("ignore" actions, writing the control comment, included).  Regenerate with UPDATE_EXPECT=1."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.check import analyze
from puppet_ls.language.ide.code_actions import checker_fixes, quick_fixes
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.server.workspace import build_index
from tests.expect import assert_expected
from tests.lsp.test_code_action_data import edited

ROOT = Path(__file__).resolve().parents[2] / "fixtures"
FIXTURES = ROOT / "lsp" / "checker_actions"
CASES = sorted(FIXTURES.glob("*.pp"))
_INDEX: dict = {}
_LINT = frozenset({"parameter_documentation"})      # the style check these fixes answer too


def _env(text: str):
    if not text.split("\n", 2)[1].startswith("# env: modulepath"):
        return None
    if "index" not in _INDEX:
        _INDEX["index"] = build_index([], [str(ROOT / "check_static" / "modulepath")])
    return _INDEX["index"]


def _findings(text: str, path: str, env, start: int, end: int) -> list:
    return [d for d in file_diagnostics(parse_for_path(text, path), env, path=path, lint=_LINT)
            if d.offset <= end and start <= d.end and (not d.code.islower() or d.code in _LINT)]


def check(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    spec = text.split("\n", 1)[0].split(":", 1)[1].strip()
    first, _, last = spec.partition("-")
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    start, end = starts[int(first) - 1], starts[int(last or first)] - 1
    env = _env(text)
    an = analyze(parse_for_path(text, str(path)), env)
    found = _findings(text, str(path), env, start, end)
    out = [f"-- {d.code}: {d.message}" for d in found]
    for a in checker_fixes(an, found, start, end) + quick_fixes(an.result, found, start, end):
        new = edited(text, a.edits)
        out += [f"== {a.title} [{a.kind}{', preferred' if a.preferred else ''}]", new.rstrip("\n")]
        code = a.diagnostic.code if a.diagnostic is not None else ""
        grown = len(new) - len(text)
        left = [d for d in _findings(new, str(path), env, start, end + grown) if d.code == code]
        out.append(f"-- {code} left in the range: {len(left)}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_checker_actions(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))
