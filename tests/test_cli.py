"""The command line: output formats, exit codes, and clear diagnostics for bad input."""
from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from puppet_ls.server.cli import main
from tests.expect import assert_expected

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures" / "check"


def run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_check_text_output(monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    code, out, err = run("check", "fixtures/check")
    assert code == 1
    assert_expected(FIXTURES / "check.expect", out)
    assert "2 files checked" in err


def test_check_json_output(monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    code, out, _ = run("check", "--format", "json", "fixtures/check/example.pp")
    assert code == 1
    records = json.loads(out)
    assert [r["code"] for r in records] == ["autoloader_layout", "documentation", "autoloader_layout", "SYNTAX_ERROR",
                                            "documentation", "autoloader_layout", "DUPLICATE_PARAMETER"]
    assert set(records[3]) == {"path", "line", "column", "end_line", "end_column", "severity", "code", "message"}
    assert (records[3]["line"], records[3]["column"]) == (23, 3)


def test_check_show_ignored(tmp_path) -> None:
    """Control comments silence findings; --show-ignored prints them with their reason."""
    f = tmp_path / "site.pp"
    f.write_text('$a = "x" # lint:ignore:double_quoted_strings kept for the diff\n$b = "y"\n')
    code, out, _ = run("check", str(f))
    assert code == 0
    assert [line.split()[2] for line in out.splitlines()] == ["double_quoted_strings"]
    assert ":2:6: warning" in out
    code, out, _ = run("check", "--show-ignored", str(f))
    assert out.splitlines()[1].endswith("ignored double_quoted_strings Double-quoted string without variables "
                                        "or escapes; use single quotes (kept for the diff)")
    code, out, _ = run("check", "--show-ignored", "--format", "json", str(f))
    records = json.loads(out)
    assert [(r["line"], r["severity"], r.get("reason")) for r in records] == \
        [(2, "warning", None), (1, "ignored", "kept for the diff")]


def test_clean_file_exits_zero(tmp_path) -> None:
    f = tmp_path / "ok.pp"
    f.write_text("notice('fine')\n")
    assert run("check", str(f))[0] == 0


def test_bad_usage_exits_two(tmp_path) -> None:
    assert run("check", str(tmp_path / "missing.pp"))[0] == 2
    assert run("check")[0] == 2
    assert run("check", "--format", "xml", str(tmp_path))[0] == 2
    assert run("parse", str(tmp_path))[0] == 2


def test_unreadable_inputs_are_diagnostics(tmp_path) -> None:
    (tmp_path / "bom.pp").write_bytes(b"\xff\xfen\x00")
    (tmp_path / "latin1.pp").write_bytes(b"$a = 'caf\xe9'\n")
    os.symlink(tmp_path / "nowhere.pp", tmp_path / "dangling.pp")
    code, out, _ = run("check", str(tmp_path))
    assert code == 1
    lines = sorted(out.splitlines())
    assert len(lines) == 3
    assert "FILE_UNREADABLE" in lines[1] and "dangling.pp" in lines[1]
    assert "ILLEGAL_BOM" in lines[0] and "UTF-16 (LE)" in lines[0]
    assert "NOT_UTF8" in lines[2] and ":1:10:" in lines[2]


def test_symbols_json(monkeypatch) -> None:
    monkeypatch.chdir(REPO)
    code, out, _ = run("symbols", "--format", "json", "fixtures/check/example.pp")
    assert code == 0
    names = [(s["kind"], s["name"]) for s in json.loads(out)]
    assert names == [("class", "example"), ("class", "broken"), ("define", "example::vhost")]


def test_parse_dump_puppet_format(tmp_path) -> None:
    f = tmp_path / "a.pp"
    f.write_text("$a = 1 + 2 * 3\n")
    code, out, _ = run("parse", "--dump", "--format", "puppet", str(f))
    assert code == 0
    assert out.strip() == "(= $a (+ 1 (* 2 3)))"


def test_the_server_start_imports_no_tool() -> None:
    """`puppet-ls --stdio`, as editors start it, loads the server and none of the tools'
    modules (their imports were ~60 ms of every start); `--help` still lists every tool."""
    import subprocess
    import sys
    code = ("import sys; from puppet_ls.server import cli, code_cache\n"
            "with code_cache.kept(None):\n"
            "    from puppet_ls.server import lsp\n"
            "tools = ('commands', 'check_run', 'report_formats', 'format_cli', 'fix_cli')\n"
            "print(sorted(m for m in sys.modules if m.rsplit('.', 1)[-1] in tools))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    code, out, _ = run("--help")
    assert code == 0
    listed = out.split("Commands:", 1)[1].split()
    for tool in ("check", "eval", "format", "parse", "preview", "symbols"):
        assert tool in listed


def test_the_server_starts_without_click() -> None:
    """`puppet-ls --stdio` starts the server without importing click (~30 ms of every start):
    ``-X importtime`` lists each module a process imports."""
    from tests.stdio import full_start
    status, err = full_start(("-X", "importtime"))
    assert status == 0
    imported = {line.rsplit("|", 1)[-1].strip() for line in err.splitlines() if line.startswith("import time:")}
    assert "puppet_ls.server.lsp" in imported
    assert "click" not in imported
