"""``puppet-ls format``: in place, --check, --diff, stdin, directories, broken and unreadable
files, exit codes."""
from __future__ import annotations

import os
import stat

from click.testing import CliRunner

from puppet_ls.server.cli import main

UGLY = "file { '/a': mode=>'0644', ensure=>file }\n"
PRETTY = "file { '/a':\n  ensure => file,\n  mode   => '0644',\n}\n"


def run(*args: str, stdin: bytes | None = None):
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_formats_in_place_keeping_permissions(tmp_path) -> None:
    f = tmp_path / "a.pp"
    f.write_text(UGLY)
    f.chmod(0o640)
    code, _, err = run("format", str(f))
    assert (code, f.read_text()) == (0, PRETTY)
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o640
    assert "1 file reformatted, 0 left unchanged" in err
    assert [p.name for p in tmp_path.iterdir()] == ["a.pp"]      # no temporary left behind
    code, _, err = run("format", str(f))
    assert code == 0 and "0 files reformatted, 1 left unchanged" in err


def test_check_and_diff_write_nothing(tmp_path) -> None:
    f = tmp_path / "a.pp"
    f.write_text(UGLY)
    code, _, err = run("format", "--check", str(f))
    assert (code, f.read_text()) == (1, UGLY)
    assert f"would reformat {f}" in err
    code, out, _ = run("format", "--diff", str(f))
    assert (code, f.read_text()) == (1, UGLY)
    assert "-file { '/a': mode=>'0644', ensure=>file }\n" in out and "+  ensure => file,\n" in out
    f.write_text(PRETTY)
    assert run("format", "--check", str(f))[0] == 0


def test_stdin_to_stdout_with_a_filename() -> None:
    code, out, _ = run("format", "-", stdin=UGLY.encode())
    assert (code, out) == (0, PRETTY)
    code, out, _ = run("format", "-", "--stdin-filename", "t.epp", stdin=b'<%= "x"  +  "y" %>\n')
    assert (code, out) == (0, "<%= 'x' + 'y' %>\n")
    assert run("format", "--check", "-", stdin=UGLY.encode())[0] == 1


def test_directories_are_searched_like_check(tmp_path) -> None:
    (tmp_path / "manifests").mkdir()
    (tmp_path / "manifests" / "init.pp").write_text(UGLY)
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.epp").write_text("<%= $x %>\n")
    (tmp_path / "README.md").write_text("not puppet")
    code, _, err = run("format", str(tmp_path))
    assert code == 0 and "1 file reformatted, 1 left unchanged" in err
    assert (tmp_path / "manifests" / "init.pp").read_text() == PRETTY


def test_broken_file_formats_only_clean_statements(tmp_path) -> None:
    f = tmp_path / "a.pp"
    f.write_text(UGLY + "class x {\n  $y =   \n")
    code, _, err = run("format", str(f))
    assert code == 0
    assert f.read_text() == PRETTY + "class x {\n  $y =   \n"
    assert ":2:1: info FORMAT_SKIPPED_STATEMENT" in err


def test_usage_and_unreadable(tmp_path) -> None:
    assert run("format", str(tmp_path / "missing.pp"))[0] == 2
    assert run("format", "-", str(tmp_path))[0] == 2
    bad = tmp_path / "bad.pp"
    bad.write_bytes(b"$a = '\xff'\n")
    code, _, err = run("format", str(bad))
    assert code == 1 and "NOT_UTF8" in err
    assert bad.read_bytes() == b"$a = '\xff'\n"
