"""``puppet-ls format``: in place, --check, --diff, stdin, directories, broken and unreadable
files, exit codes."""
from __future__ import annotations

import os
import stat

import pytest
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


def _mixed_tree(root) -> dict:
    """Files of every outcome: reformatted, unchanged, partly formatted, unreadable."""
    files = {"ugly.pp": UGLY.encode(), "pretty.pp": PRETTY.encode(),
             "broken.pp": (UGLY + "class x {\n  $y =   \n").encode(), "bad.pp": b"$a = '\xff'\n",
             "t.epp": b'<%= "x"  +  "y" %>\n'}
    for n in range(6):
        files[f"more{n}.pp"] = UGLY.replace("/a", f"/a{n}").encode()
    for name, data in files.items():
        (root / name).write_bytes(data)
    return files


def _outcome(root, *args: str) -> tuple:
    code, out, err = run("format", *args, str(root))
    return code, out, err, {p.name: p.read_bytes() for p in sorted(root.iterdir())}


@pytest.mark.parametrize("mode", ["--check", "--diff", "in place"])
def test_worker_processes_give_what_one_process_gives(tmp_path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    from puppet_ls.server import format_cli
    monkeypatch.setattr(format_cli, "PARALLEL_MIN", 1)
    args = () if mode == "in place" else (mode,)
    one, many = tmp_path / "one", tmp_path / "many"
    one.mkdir()
    many.mkdir()
    _mixed_tree(one)
    _mixed_tree(many)
    expected = _outcome(one, "--jobs", "1", *args)
    got = _outcome(many, "--jobs", "2", *args)
    assert got[0] == expected[0]
    assert got[1].replace(str(many), "") == expected[1].replace(str(one), "")
    assert got[2].replace(str(many), "") == expected[2].replace(str(one), "")
    assert got[3] == expected[3]
    assert expected[0] == 1 and "NOT_UTF8" in expected[2] and "FORMAT_SKIPPED_STATEMENT" in expected[2]


def test_a_failed_worker_costs_nothing(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puppet_ls.server import format_cli
    monkeypatch.setattr(format_cli, "PARALLEL_MIN", 1)
    monkeypatch.setattr(format_cli, "WORKER_COMMAND", ["false"])     # every worker fails at once
    one, many = tmp_path / "one", tmp_path / "many"
    one.mkdir()
    many.mkdir()
    _mixed_tree(one)
    _mixed_tree(many)
    expected = _outcome(one, "--jobs", "1")
    got = _outcome(many, "--jobs", "2")
    assert (got[0], got[3]) == (expected[0], expected[3])
    assert got[2].replace(str(many), "") == expected[2].replace(str(one), "")
