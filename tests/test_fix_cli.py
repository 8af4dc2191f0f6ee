"""``puppet-ls check --fix`` and ``--diff``: what is written (atomically, keeping the file's mode,
byte order mark and line breaks), what is shown, the exit status, and that nothing is written
when nothing can be proven."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from puppet_ls.server.cli import main

UNFIXED = "# demo\nclass demo {\n  file { \"/a\":\n    ensure => file,\n    mode => 644,\n  }   \n}\n"
FIXED = "# demo\nclass demo {\n  file { '/a':\n    ensure => file,\n    mode   => '0644',\n  }\n}\n"


def run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def write(path: Path, text: str, mode: int = 0o640, bom: bool = False) -> Path:
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    path.chmod(mode)
    return path


def test_fix_writes_the_file_and_reports_what_remains(tmp_path: Path) -> None:
    f = write(tmp_path / "init.pp", UNFIXED)
    code, out, err = run("check", "--fix", str(f))
    assert f.read_text(encoding="utf-8") == FIXED
    assert "fixed 4 problems in 1 file (1 arrow_alignment, 1 double_quoted_strings, 1 file_mode, 1 trailing_whitespace)" in err
    # what cannot be fixed is still reported: the class is not where the autoloader looks
    assert "autoloader_layout" in out and "double_quoted_strings" not in out
    assert code == 1
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["init.pp"]     # no temporary file left
    # a second run changes nothing
    run("check", "--fix", str(f))
    assert f.read_text(encoding="utf-8") == FIXED


def test_fix_keeps_crlf_and_bom(tmp_path: Path) -> None:
    f = write(tmp_path / "a.pp", UNFIXED.replace("\n", "\r\n"), bom=True)
    run("check", "--fix", str(f))
    assert f.read_bytes() == b"\xef\xbb\xbf" + FIXED.replace("\n", "\r\n").encode("utf-8")


def test_fix_writes_through_a_symlink(tmp_path: Path) -> None:
    real = write(tmp_path / "real.pp", UNFIXED)
    link = tmp_path / "link.pp"
    link.symlink_to(real)
    run("check", "--fix", str(link))
    assert link.is_symlink() and real.read_text(encoding="utf-8") == FIXED


def test_diff_shows_and_writes_nothing(tmp_path: Path) -> None:
    f = write(tmp_path / "a.pp", UNFIXED)
    code, out, err = run("check", "--diff", str(f))
    assert code == 1
    assert f.read_text(encoding="utf-8") == UNFIXED
    assert out.startswith(f"--- {f}\n+++ {f}\n@@ ")
    assert "-  file { \"/a\":\n+  file { '/a':\n" in out
    assert "would fix 4 problems in 1 file" in err
    assert run("check", "--fix", "--diff", str(f))[:2] == (code, out)      # --diff wins: nothing written
    assert f.read_text(encoding="utf-8") == UNFIXED
    write(f, FIXED)
    assert run("check", "--diff", str(f)) == (0, "", "")


def test_file_with_syntax_errors_is_not_touched(tmp_path: Path) -> None:
    text = "file { \"/a\":\n  mode => 644,\n"       # unclosed brace
    f = write(tmp_path / "a.pp", text)
    code, out, err = run("check", "--fix", str(f))
    assert f.read_text(encoding="utf-8") == text
    assert code == 1 and " error MISSING_RBRACE " in out
    assert f"puppet-ls check: not fixed, the file has syntax errors: {f}" in err


def test_unwritable_directory_is_reported(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("running as root, who may write in a read-only directory")
    d = tmp_path / "ro"
    d.mkdir()
    f = write(d / "a.pp", UNFIXED)
    d.chmod(0o555)
    try:
        _, _, err = run("check", "--fix", str(f))
    finally:
        d.chmod(0o755)
    assert "cannot write" in err and f.read_text(encoding="utf-8") == UNFIXED
