"""The bundled example control repo (examples/control-repo, the README's first command) checks
as documented: the one deliberate typo it carries is reported, nothing else, exit status 0."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from puppet_ls.server.cli import main
from tests.expect import assert_expected

REPO = Path(__file__).resolve().parents[1]


def test_control_repo_check(monkeypatch) -> None:
    monkeypatch.chdir(REPO / "examples")
    result = CliRunner().invoke(main, ["check", "control-repo"], catch_exceptions=False)
    assert_expected(REPO / "fixtures" / "examples" / "control-repo.expect", result.stdout)
    assert result.exit_code == 0, result.stderr
