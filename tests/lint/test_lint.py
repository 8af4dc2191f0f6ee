"""Style-check fixtures: fixtures/lint/checks/<check>.pp (and <check>.<variant>.pp) holds cases for one check (findings and
non-findings) and fixtures/lint/control/*.pp control-comment cases; each has an .expect file
with every diagnostic of the file (the default checks plus the fixture's own) and what control
comments silenced.  A fixture whose first line is ``# lint-path: <path>`` is checked as if it
were at that path (for the autoloader layout); others have no path.  When puppet-lint is
installed, every fixture is also run through it and the two must report the same checks on the
same lines, apart from the disagreements listed with their reason in
fixtures/lint/puppet_lint_disagreements.txt."""
from __future__ import annotations

import json
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.lint import CHECKS, all_checks, default_enabled
from puppet_ls.language.syntax.lines import LineIndex
from tests.corpus import puppet_lint_present
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lint"
CASES = sorted((FIXTURES / "checks").glob("*.pp")) + sorted((FIXTURES / "control").glob("*.pp"))
NEWER_THAN_3 = {"legacy_facts", "top_scope_facts"}
# The Vox Pupuli plugin checks (language/lint/plugins_*.py): Debian's puppet-lint has none of
# their gems, so they are left out of the comparison with it.
PLUGINS = {c.name for c in CHECKS.values() if c.family.startswith("plugins_")}


def virtual_path(text: str) -> str:
    first = text.split("\n", 1)[0]
    return "/" + first.split(":", 1)[1].strip() if first.startswith("# lint-path:") else ""


def check_name(path: Path) -> str:
    """The check a fixture is about: <check>.pp, or <check>.<variant>.pp."""
    return path.name.split(".")[0]


def enabled_for(path: Path) -> frozenset:
    return default_enabled() | ({check_name(path)} & set(CHECKS))


def check(path: Path) -> str:
    """Every diagnostic of the fixture, then what the control comments silenced."""
    text = path.read_bytes().decode("utf-8")   # as the CLI reads it: "\r\n" kept
    index = LineIndex(text)

    def pos(offset: int) -> str:
        line, col = index.position(offset)
        return f"{line + 1}:{col + 1}"

    ignored: list = []
    out = ["== diagnostics"]
    for d in file_diagnostics(parse_for_path(text, str(path)), None, path=virtual_path(text),
                              lint=enabled_for(path), ignored=ignored):
        out.append(f"{pos(d.offset)} {d.severity} {d.code} {d.message}")
    out.append("== ignored")
    for d, reason in sorted(ignored, key=lambda item: (item[0].offset, item[0].code)):
        out.append(f"{pos(d.offset)} {d.code}" + (f" ({reason})" if reason else ""))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.name}" for p in CASES])
def test_fixture(path: Path) -> None:
    assert_expected(path.with_name(path.name + ".expect"), check(path))


def test_every_check_has_a_fixture() -> None:
    assert {check_name(p) for p in (FIXTURES / "checks").glob("*.pp")} == set(CHECKS)
    assert len(list((FIXTURES / "control").glob("*.pp"))) >= 3


def test_every_fixture_finds_its_check() -> None:
    """Each check's fixture has at least one finding of that check (a positive case)."""
    missing = [p.name for p in (FIXTURES / "checks").glob("*.pp")
               if f" {check_name(p)} " not in check(p)]
    assert missing == []


# ---- agreement with puppet-lint ----------------------------------------------------------------

def _disagreements() -> set[tuple[str, int, str]]:
    out = set()
    for line in (FIXTURES / "puppet_lint_disagreements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            where, check_name = line.split()[:2]
            name, lineno = where.rsplit(":", 1)
            out.add((name, int(lineno), check_name))
    return out


@pytest.mark.skipif(not puppet_lint_present(), reason="puppet-lint is not installed")
def test_fixtures_agree_with_puppet_lint(tmp_path: Path) -> None:
    copies = {}
    for path in CASES:
        text = path.read_bytes().decode("utf-8")   # as the CLI reads it: "\r\n" kept
        target = tmp_path / (virtual_path(text).lstrip("/") or f"{path.parent.name}/{path.name}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        copies[str(target)] = (path, text)
    off = [f"--{c.name}-check" for c in CHECKS.values() if not c.enabled and c.name not in NEWER_THAN_3 | PLUGINS]
    run = subprocess.run([shutil.which("puppet-lint") or "puppet-lint", "--json", *off, *copies],
                         capture_output=True, text=True, check=False, cwd=tmp_path)
    theirs: Counter = Counter()
    for per_file in json.loads(run.stdout):
        for p in per_file:
            if p["kind"] != "ignored" and p["check"] != "syntax":
                theirs[(copies[p["path"]][0].name, int(p["line"]), p["check"])] += 1
    ours: Counter = Counter()
    lintable = all_checks() - NEWER_THAN_3 - PLUGINS
    for target, (path, text) in copies.items():
        index = LineIndex(text)
        for d in file_diagnostics(parse_for_path(text, target), None, path=target, lint=all_checks()):
            if d.code in lintable:
                ours[(path.name, index.position(d.offset)[0] + 1, d.code)] += 1
    accepted = _disagreements()
    differ = sorted(f"{k[0]}:{k[1]} {k[2]} puppet-lint {theirs[k]} puppet-ls {ours[k]}"
                    for k in set(theirs) | set(ours) if theirs[k] != ours[k] and k not in accepted)
    assert differ == [], "\n".join(differ)


def test_plugin_checks_are_off_by_default() -> None:
    """A puppet-lint plugin runs only where a team installed its gem: ours are opt-in too."""
    assert PLUGINS and not PLUGINS & default_enabled()
