"""Fix fixtures: fixtures/lint/fix/<check>.pp (and <check>.<variant>.pp) is fixed by
``lint.fix.fix_text`` with only that check enabled; its .expect holds the fixed text (a carriage
return shown as <CR>), the fixes made, the fixes the proof refused and what the check still
finds afterwards.  Every result parses, and fixing it again changes nothing.  When puppet-lint is
installed, its ``--fix --only-checks <check>`` must write the same text, apart from the
disagreements listed with their reason in fixtures/lint/fix/puppet_lint_disagreements.txt."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.lint import CHECKS, all_checks, lint
from puppet_ls.language.lint.fix import fix_text
from puppet_ls.language.syntax.lines import LineIndex
from tests.corpus import puppet_lint_present
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lint" / "fix"
CASES = sorted(FIXTURES.glob("*.pp"))
NEWER_THAN_3 = {"legacy_facts", "top_scope_facts"}
# puppet-lint 4 fixes legacy_facts with a table from each legacy fact to its structured
# fact, which puppet-ls does not have: its findings carry no fix.
NO_FIX = {"legacy_facts"}


def check_name(path: Path) -> str:
    return path.name.split(".")[0]


def read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def fixed(path: Path):
    text = read(path)
    return fix_text(text, "", frozenset({check_name(path)}), reparse=lambda t: parse_for_path(t, str(path)))


def render(path: Path) -> str:
    res = fixed(path)
    index = LineIndex(res.text)
    out = ["== fixed text", res.text.replace("\r", "<CR>").rstrip("\n"), f"== fixes ({res.rounds} rounds)"]
    out += [f"{name} {n}" for name, n in sorted(res.fixed.items())]
    out.append("== refused")
    out += [f"{d.code} at offset {d.offset}" for d in res.rejected]
    out.append("== still found")
    for d in lint(parse_for_path(res.text, str(path)), "", frozenset({check_name(path)})):
        line, col = index.position(d.offset)
        out.append(f"{line + 1}:{col + 1} {d.code} {d.message}")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_fix_fixture(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), render(path))


COMBINED = sorted((FIXTURES / "combined").glob("*.pp"))


@pytest.mark.parametrize("path", COMBINED, ids=[p.name for p in COMBINED])
def test_combined_fixture(path: Path) -> None:
    """fixtures/lint/fix/combined/: several checks' fixes on the same text (every check on):
    fixes whose edits touch wait for the next round, and the result is stable."""
    text = read(path)
    res = fix_text(text, "", all_checks())
    assert fix_text(res.text, "", all_checks()).text == res.text
    out = ["== fixed text", res.text.rstrip("\n"), f"== fixes ({res.rounds} rounds)"]
    out += [f"{name} {n}" for name, n in sorted(res.fixed.items())]
    assert_expected(path.with_name(path.name + ".expect"), "\n".join(out) + "\n")


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_fixed_text_parses_and_is_stable(path: Path) -> None:
    res = fixed(path)
    assert res.changed, "a fix fixture must have something to fix"
    assert not parse_for_path(res.text, str(path)).errors
    again = fix_text(res.text, "", frozenset({check_name(path)}))
    assert again.text == res.text and not again.changed


def test_every_fixable_check_has_a_fix_fixture() -> None:
    fixable = {name for name, c in CHECKS.items() if c.fixable} - NO_FIX
    assert {check_name(p) for p in CASES} == fixable


def _disagreements() -> dict[str, str]:
    out = {}
    for line in (FIXTURES / "puppet_lint_disagreements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.partition(":")
            out[name.strip()] = reason.strip()
    return out


PUPPET_LINT_CASES = [p for p in CASES if check_name(p) not in NEWER_THAN_3]


@pytest.mark.skipif(not puppet_lint_present(), reason="puppet-lint is not installed (apt-get install puppet-lint)")
@pytest.mark.parametrize("path", PUPPET_LINT_CASES, ids=[p.name for p in PUPPET_LINT_CASES])
def test_same_as_puppet_lint(path: Path, tmp_path: Path) -> None:
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    exe = shutil.which("puppet-lint")
    assert exe is not None
    subprocess.run([exe, "--fix", "--only-checks", check_name(path), str(copy)], capture_output=True, check=False)
    theirs = read(copy)
    ours = fixed(path).text
    known = _disagreements()
    if path.name in known:
        assert theirs != ours, f"{path.name} is listed as a disagreement but puppet-lint now agrees"
    else:
        assert theirs == ours
