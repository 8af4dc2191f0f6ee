"""`puppet-ls check` configured by .puppet-lint.rc, puppet-ls's TOML and the command line.

Each case is a folder of fixtures/config/cases/: its files are laid over a copy of the module
fixtures/config/module (a folder ``home/`` becomes $HOME, ``system.rc`` the system-wide
/etc/puppet-lint.rc, ``stdin`` is given on standard input), ``args`` holds the command's
arguments one per line (default: check ntp), and ``expect`` the exit status, standard output
and standard error (UPDATE_EXPECT=1 rewrites it).  The configuration files are written for
these tests in the forms teams use (none is copied from a project).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from puppet_ls.server import config as lintconfig
from puppet_ls.server.cli import main
from tests.expect import assert_expected

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "config"
CASES = sorted(p.name for p in (FIXTURES / "cases").iterdir() if p.is_dir())
SPECIAL = {"args", "expect", "stdin", "home", "system.rc"}


def check(case: str, tmp_path: Path, monkeypatch) -> str:
    """Run the case and return what it printed, as its expect file holds it."""
    src = FIXTURES / "cases" / case
    work = tmp_path / "work"
    home = tmp_path / "home"
    shutil.copytree(FIXTURES / "module", work, symlinks=True)
    home.mkdir()
    for item in src.iterdir():
        if item.name == "home":
            shutil.copytree(item, home, dirs_exist_ok=True)
        elif item.name not in SPECIAL:
            if item.is_dir():
                shutil.copytree(item, work / item.name, dirs_exist_ok=True)
            else:
                shutil.copy(item, work / item.name)
    system_rc = src / "system.rc"
    monkeypatch.setattr(lintconfig, "SYSTEM_RC", str(system_rc if system_rc.exists() else tmp_path / "none.rc"))
    monkeypatch.chdir(work)
    args_file = src / "args"
    args = args_file.read_text().splitlines() if args_file.exists() else ["check", "ntp"]
    stdin = (src / "stdin").read_bytes() if (src / "stdin").exists() else None
    result = CliRunner().invoke(main, args, env={"HOME": str(home), "NO_COLOR": None}, input=stdin,
                                catch_exceptions=False)
    out = (f"exit {result.exit_code}\n--- stdout\n{result.stdout}--- stderr\n{result.stderr}")
    return out.replace(str(tmp_path), "<tmp>")


@pytest.mark.parametrize("case", CASES)
def test_case(case: str, tmp_path: Path, monkeypatch) -> None:
    assert_expected(FIXTURES / "cases" / case / "expect", check(case, tmp_path, monkeypatch))
