"""The `.puppet-lint.rc` cases run through the real puppet-lint (Debian's 3.0.1) too: for the
checks puppet-lint has, it reports the same (file, line, check) findings and the same exit status
as `puppet-ls check` under the same file, so a team's existing set-up gives the same result.
Skipped without puppet-lint; cases whose file puppet-lint refuses (rc_mistakes: puppet-lint stops
at the first unknown option, puppet-ls warns and goes on) or that need /etc/puppet-lint.rc are
left out."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.config.test_config import FIXTURES, check
from tests.corpus import puppet_lint_present

CASES = ["rc_module_ci", "rc_only_checks_next_line", "rc_only_checks_and_error_level", "rc_ignore_paths",
         "rc_config_include"]
FILES = ["ntp/manifests/init.pp", "ntp/manifests/service.pp", "ntp/site/legacy/manifests/legacy.pp"]

pytestmark = pytest.mark.skipif(not puppet_lint_present(), reason="puppet-lint is not installed")


def _puppet_lint(work, home) -> tuple[int, set]:
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    checks = set(subprocess.run(["puppet-lint", "--list-checks"], capture_output=True, text=True, env=env,
                                check=True).stdout.split())
    # exit status 1 is puppet-lint's answer for findings, compared below
    run = subprocess.run(["puppet-lint", "--log-format=%{path}|%{line}|%{check}", *FILES], cwd=work,
                         capture_output=True, text=True, env=env, check=False)
    found = {tuple(line.split("|")) for line in run.stdout.splitlines() if line.count("|") == 2}
    return run.returncode, {(p, int(n), c) for p, n, c in found} | {("checks", 0, ",".join(sorted(checks)))}


@pytest.mark.parametrize("case", CASES)
def test_puppet_lint_agrees(case, tmp_path, monkeypatch) -> None:
    src = FIXTURES / "cases" / case
    # puppet-ls's side, with the case's files as the case test lays them out
    out = check(case, tmp_path / "ls", monkeypatch)
    status = int(out.split("\n", 1)[0].split()[1])
    ours = set()
    for line in out.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0].splitlines():
        path, row, _, rest = line.split(":", 3)
        ours.add((path, int(row), rest.split()[1]))
    # puppet-lint's, in a copy laid out the same way
    work, home = tmp_path / "pl", tmp_path / "pl-home"
    shutil.copytree(FIXTURES / "module", work)
    home.mkdir()
    for item in src.iterdir():
        if item.name == "home":
            shutil.copytree(item, home, dirs_exist_ok=True)
        elif item.name not in ("args", "expect", "stdin"):
            (shutil.copytree if item.is_dir() else shutil.copy)(item, work / item.name)
    pl_status, theirs = _puppet_lint(work, home)
    known = next(c for p, _, c in theirs if p == "checks").split(",")
    theirs = {t for t in theirs if t[0] != "checks"}
    ours = {f for f in ours if f[2] in known and f[0] in FILES}
    assert ours == theirs
    assert status == pl_status
