"""`puppet-ls check`, `parse` and `symbols` against a folder of hostile files: every regular file
gets its own diagnostics, everything else gets one clear diagnostic, nothing hangs or traces back.

The folder is made by ``make_hostile_folder`` from the ``ENTRIES`` table (FIFO, socket, link
loop, dangling link, links to devices, a sparse 11 MB file, names that are not UTF-8 or hold a
newline, symlinked directories with a loop back up, files whose text makes a stage of the engine
fail or never end).  Every command runs in a child process under a generous time limit, so a
regression that blocks on a FIFO fails the test instead of hanging the suite; failures of the
engine are injected in that child by ``run-patched`` (see ``install_faults``).  The expected
outputs live in ``check_hostile.expect`` (``UPDATE_EXPECT=1`` regenerates it).

Run by hand: ``python -m tests.hostile.test_check_hostile make DIR`` builds the folder,
``python -m tests.hostile.test_check_hostile run-patched check DIR`` checks it with the faults.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.corpus import corpus_files
from tests.expect import assert_expected

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
LIMIT_S = 60          # generous: a hang, not slowness, is what these bounds catch

# Markers in a file's text that make the engine fail on it, when run with ``run-patched``.
RAISE_CHECKS = "# hostile: raise in static checks"
RAISE_VALIDATION = "# hostile: raise in validation"
RAISE_PARSER = "# hostile: raise in parser"
RAISE_OUTLINE = "# hostile: raise in outline"
NEVER_ENDS = "# hostile: never ends"

# (name, kind, data): kind is file (data: bytes), link (data: target), fifo, socket,
# sparse (data: size), unreadable (data: bytes; chmod 000), unlistable (a directory chmod 000).
ENTRIES: list[tuple[str | bytes, str, object]] = [
    ("ok.pp", "file", b"notice('fine')\n"),
    ("empty.pp", "file", b""),
    ("errors.pp", "file", b"class broken {\n  $x = \n"),
    ("latin1.pp", "file", b"$a = 'caf\xe9'\n"),
    ("utf16.pp", "file", b"\xff\xfen\x00"),
    ("template.epp", "file", b"<%- | String $x | -%>\n<%= $x %>\n"),
    ("fifo.pp", "fifo", None),
    ("socket.pp", "socket", None),
    ("loop_a.pp", "link", "loop_b.pp"),
    ("loop_b.pp", "link", "loop_a.pp"),
    ("self.pp", "link", "self.pp"),
    ("broken.pp", "link", "nowhere.pp"),
    ("zero.pp", "link", "/dev/zero"),
    ("null.epp", "link", "/dev/null"),
    ("urandom.pp", "link", "/dev/urandom"),
    ("huge.pp", "sparse", 11 * 1024 * 1024),
    (b"caf\xe9.pp", "file", b"notice('a name that is not UTF-8')\n$x = \n"),
    ("new\nline.pp", "file", b"$y = \n"),
    ("space and: colon.pp", "file", b"notice(\n"),
    ("raises_in_checks.pp", "file", (RAISE_CHECKS + "\n$z = \n").encode()),
    ("raises_in_validation.pp", "file", (RAISE_VALIDATION + "\n$v = 1\n").encode()),
    ("raises_in_parser.pp", "file", (RAISE_PARSER + "\n").encode()),
    ("raises_in_outline.pp", "file", (RAISE_OUTLINE + "\nclass outlined {}\n").encode()),
    ("never_ends.pp", "file", (NEVER_ENDS + "\n").encode()),
    ("dir.pp/inside.pp", "file", b"notice(1)\n"),
    (".hidden/skipped.pp", "file", b"class {\n"),
    ("modules/real/manifests/init.pp", "file", b"class real {\n  notice(\n}\n"),
    ("modules/linked", "link", "real"),
    ("modules/real/manifests/up", "link", "../.."),
    ("modules/real/manifests/here", "link", "."),
    ("modules/real/manifests/gone", "link", "nowhere"),
    ("modules/real/manifests/fifo.pp", "fifo", None),
]
# root reads whatever the mode says, so these two only mean something for other users.
PERMISSION_ENTRIES: list[tuple[str | bytes, str, object]] = [
    ("unreadable.pp", "unreadable", b"notice(1)\n"),
    ("unlistable/hidden_from_us.pp", "unlistable", b"notice(1)\n"),
]


def make_hostile_folder(root: Path, entries=ENTRIES) -> Path:
    """Create the hostile files of ``entries`` under ``root`` (which must exist)."""
    rootb = os.fsencode(root)
    for name, kind, data in entries:
        path = os.path.join(rootb, os.fsencode(name))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if kind == "file":
            with open(path, "wb") as fh:
                fh.write(data)  # type: ignore[arg-type]
        elif kind == "link":
            os.symlink(os.fsencode(data), path)  # type: ignore[arg-type]
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            # bind by a relative name: socket paths are limited to about 100 bytes
            with contextlib.chdir(os.path.dirname(path)), socket.socket(socket.AF_UNIX) as s:
                s.bind(os.path.basename(path))
        elif kind == "sparse":
            with open(path, "wb") as fh:
                fh.truncate(data)  # type: ignore[arg-type]
        elif kind == "unreadable":
            with open(path, "wb") as fh:
                fh.write(data)  # type: ignore[arg-type]
            os.chmod(path, 0)
        elif kind == "unlistable":
            with open(path, "wb") as fh:
                fh.write(data)  # type: ignore[arg-type]
            os.chmod(os.path.dirname(path), 0)
        else:  # pragma: no cover - a typo in the table
            raise ValueError(kind)
    return root


def install_faults() -> None:
    """Make the engine fail on files carrying one of the markers (in this process only)."""
    import puppet_ls.language.check as checks
    import puppet_ls.language.ide.diagnostics as engine
    from puppet_ls.server import check_run, commands, index_worker

    real_static, real_validate = checks.static_diagnostics, engine.validate
    real_parse, real_symbols = engine.parse_for_path, commands.document_symbols
    real_index = index_worker.index_source

    def static_diagnostics(result, env=None, analysis=None):
        if RAISE_CHECKS in result.text:
            raise RuntimeError("injected failure in the static checks")
        if NEVER_ENDS in result.text:
            while True:     # a CPU loop, not a sleep: the time limit must stop this too
                pass
        return real_static(result, env, analysis)

    def validate(result):
        if RAISE_VALIDATION in result.text:
            raise KeyError("injected")
        return real_validate(result)

    def parse_for_path(text, path=""):
        if RAISE_PARSER in text:
            raise RecursionError("injected failure in the parser")
        return real_parse(text, path)

    def document_symbols(result):
        if RAISE_OUTLINE in result.text:
            raise AttributeError("injected failure in the outline")
        return real_symbols(result)

    def index_source(path, text, module, role):
        while NEVER_ENDS in text:
            pass
        return real_index(path, text, module, role)

    checks.static_diagnostics = static_diagnostics
    index_worker.index_source = index_source    # what index_one calls
    # The faults exist in this process only: no worker processes, and no results taken from
    # or left in the cache.
    check_run.PARALLEL_MIN = sys.maxsize
    os.environ[check_run.NO_CACHE_VAR] = "1"
    engine.validate = validate
    engine.parse_for_path = commands.parse_for_path = parse_for_path
    commands.document_symbols = document_symbols


def run_cli(*args: str, patched: bool = True, limit: float = LIMIT_S) -> tuple[int, str, str, float]:
    """Run ``puppet-ls ARGS`` in a child process (with the injected faults unless
    ``patched=False``; ``each PATH...`` runs ``_each``); fails the test if it does not finish
    within ``limit`` seconds."""
    mode = "run" if not patched else "each" if args[0] == "each" else "run-patched"
    cmd = [sys.executable, "-m", "tests.hostile.test_check_hostile", mode, *args[mode == "each":]]
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, timeout=limit, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    elapsed = time.monotonic() - start
    out, err = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err, err
    return proc.returncode, out, err, elapsed


def normalise(text: str, root: Path) -> str:
    """Output independent of where the folder is and of line numbers inside puppet-ls."""
    text = text.replace(str(root), "<hostile>")
    return re.sub(r"(\.py):\d+ in ", r"\1:N in ", text)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    root = tmp_path / "hostile"
    root.mkdir()
    return make_hostile_folder(root)


def test_check_hostile_folder(hostile: Path) -> None:
    """One run over the whole folder: what each path gets, the count, the exit status."""
    code, out, err, _ = run_cli("check", "--file-timeout", "3", str(hostile))
    assert code == 1
    assert_expected(HERE / "check_hostile.expect", normalise(f"exit {code}\n{out}{err}", hostile))
    # the JSON format reports the same findings, with the same printable paths
    jcode, jout, _, _ = run_cli("check", "--format", "json", "--file-timeout", "3", str(hostile))
    records = json.loads(jout)
    assert jcode == code
    assert [f"{r['path']}:{r['line']}:{r['column']}: {r['severity']} {r['code']} {r['message']}" for r in records] \
        == out.splitlines()


def test_each_path_alone(hostile: Path) -> None:
    """check, parse and symbols on every top-level entry given by itself (one child process
    runs them all, in-process, so that 70 runs cost one start-up)."""
    paths = [os.fsdecode(os.path.join(os.fsencode(hostile), os.fsencode(name)))
             for name, _, _ in ENTRIES if not (isinstance(name, str) and "/" in name)]
    paths.append(str(hostile / "dir.pp"))     # a directory with a source suffix
    code, out, err, _ = run_cli("each", *paths, limit=3 * LIMIT_S)
    assert (code, err) == (0, "")
    assert_expected(HERE / "check_hostile_each.expect", normalise(out, hostile))


def test_isolation_keeps_other_findings(hostile: Path) -> None:
    """A failing stage costs only its own findings: the syntax error after the marker in
    raises_in_checks.pp is still reported next to the internal error."""
    code, out, _, _ = run_cli("check", "--format", "json", str(hostile / "raises_in_checks.pp"))
    assert code == 1
    assert ('"code": "SYNTAX_ERROR"' in out) and ('"code": "CHECK_INTERNAL_ERROR"' in out)


def test_timeout_is_bounded(hostile: Path) -> None:
    code, out, _, elapsed = run_cli("check", "--file-timeout", "1", str(hostile / "never_ends.pp"),
                                    str(hostile / "errors.pp"))
    assert code == 1
    assert "never_ends.pp:1:1: error CHECK_TIMEOUT" in out and "errors.pp:3:1: error" in out
    assert elapsed < 30


def test_catastrophic_regexp_in_a_static_check_is_bounded(hostile: Path) -> None:
    """The static checks match literal defaults against Pattern types: ``^(a|aa)+$`` against
    'aaa…b' backtracks exponentially in every backtracking engine.  The file's time limit
    stops it and the next file is still checked.  (What the file itself gets depends on
    whether the type system bounds its regexps, so only the bound and the other file are
    asserted.)"""
    redos = hostile / "redos.pp"
    redos.write_text("class redos(Pattern[/^(a|aa)+$/] $x = '" + "a" * 60 + "b') {}\n")
    code, out, _, elapsed = run_cli("check", "--file-timeout", "2", str(redos), str(hostile / "errors.pp"),
                                    patched=False)
    assert code == 1 and elapsed < 30
    assert "errors.pp:2:7: error SYNTAX_ERROR" in out


def test_index_survives_odd_module_files(tmp_path: Path, monkeypatch) -> None:
    """Indexing (what `check` does first) leaves out a FIFO, a FIFO metadata.json and a file
    that makes the indexer raise, and still knows the rest of the module."""
    import threading

    from puppet_ls.server import index_worker, workspace
    make_hostile_folder(tmp_path, [
        ("mod/metadata.json", "fifo", None),
        ("mod/manifests/init.pp", "file", b"class mod { }\n"),
        ("mod/manifests/fifo.pp", "fifo", None),
        ("mod/manifests/zero.pp", "link", "/dev/zero"),
        ("mod/manifests/bad.pp", "file", (RAISE_CHECKS + "\nclass mod::bad { }\n").encode()),
        ("mod/manifests/good.pp", "file", b"class mod::good { }\n"),
    ])
    real = index_worker.index_source

    def index_source(path, text, module, role):
        if RAISE_CHECKS in text:
            raise RuntimeError("injected failure in the indexer")
        return real(path, text, module, role)

    monkeypatch.setattr(index_worker, "index_source", index_source)     # what index_one calls
    done: list = []
    worker = threading.Thread(target=lambda: done.append(workspace.build_index([str(tmp_path / "mod")], [])),
                              daemon=True)
    worker.start()
    worker.join(LIMIT_S)
    assert done, "indexing blocked"
    assert sorted(done[0].files) == [str(tmp_path / "mod/manifests/good.pp"), str(tmp_path / "mod/manifests/init.pp")]


def test_indexing_a_file_is_bounded_too(tmp_path: Path) -> None:
    """The index `check` builds first puts each module file under the same time limit: one
    that never ends is left out, with a word on stderr, and the run goes on."""
    make_hostile_folder(tmp_path, [
        ("mod/manifests/init.pp", "file", b"class mod {\n  include mod::slow\n}\n"),
        ("mod/manifests/slow.pp", "file", (NEVER_ENDS + "\nclass mod::slow { }\n").encode()),
    ])
    code, out, err, elapsed = run_cli("check", "--file-timeout", "1", str(tmp_path / "mod/manifests/init.pp"))
    assert code == 0 and elapsed < 30
    assert f"indexing {tmp_path}/mod/manifests/slow.pp was stopped after 1 s" in err
    # what the left-out file defines is unknown, which is what the user is told
    assert out == (f"{tmp_path}/mod/manifests/init.pp:1:1: warning documentation Class 'mod' is not documented; "
                   "add a comment right above it\n"
                   f"{tmp_path}/mod/manifests/init.pp:2:11: warning UNDEFINED_CLASS Unknown class: 'mod::slow'\n")


def test_max_file_size_option(tmp_path: Path) -> None:
    f = tmp_path / "two_k.pp"
    f.write_text("# padding\n" * 205)
    code, out, _, _ = run_cli("check", "--max-file-size", "1K", str(f), patched=False)
    assert (code, out.split()[2]) == (1, "FILE_TOO_LARGE")
    assert "larger than the 1 KB limit (2.0 KB)" in out
    assert run_cli("check", "--max-file-size", "4K", str(f), patched=False)[0] == 0
    code, _, err, _ = run_cli("check", "--max-file-size", "lots", str(f), patched=False)
    assert code == 2 and "not a size" in err


def test_missing_path_is_usage_error(tmp_path: Path) -> None:
    code, out, err, _ = run_cli("check", str(tmp_path / "nothing.pp"), str(tmp_path), patched=False)
    assert (code, out) == (2, "")
    assert "no such file or directory" in err
    assert run_cli("parse", str(tmp_path / "nothing.pp"), patched=False)[0] == 2
    assert run_cli("symbols", str(tmp_path / "nothing.pp"), patched=False)[0] == 2


def test_file_deleted_between_listing_and_reading(tmp_path: Path) -> None:
    from puppet_ls.server.commands import check_file, collect_files
    (tmp_path / "gone.pp").write_text("notice(1)\n")
    files, missing, unlisted = collect_files((str(tmp_path),))
    (tmp_path / "gone.pp").unlink()
    report = check_file(files[0])
    assert (missing, unlisted) == ([], [])
    assert [(d.code, d.message) for d in report.diagnostics] == [
        ("FILE_UNREADABLE", f"Cannot read {tmp_path}/gone.pp: the file no longer exists")]


def test_permission_denied_injected(tmp_path: Path, monkeypatch) -> None:
    """What a non-root user meets on a file mode 000 and a directory it may not list, made to
    happen whoever runs the test."""
    from puppet_ls.server import files
    from puppet_ls.server.commands import check_file, collect_files
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "a.pp").write_text("notice(1)\n")
    (tmp_path / "secret.pp").write_text("notice(1)\n")
    real_open, real_scandir = os.open, os.scandir

    def deny_open(path, *args, **kwargs):
        if os.fspath(path).endswith("secret.pp"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)

    def deny_scandir(path="."):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(files.os, "open", deny_open)
    monkeypatch.setattr(files.os, "scandir", deny_scandir)
    found, _, unlisted = collect_files((str(tmp_path),))
    assert [f.name for f in found] == ["secret.pp"]
    assert [(r.path, d.code, d.message) for r in unlisted for d in r.diagnostics] == [
        (f"{tmp_path}/locked", "FILE_UNREADABLE", f"Cannot read {tmp_path}/locked: Permission denied")]
    assert [d.message for d in check_file(found[0]).diagnostics] == [
        f"Cannot read {tmp_path}/secret.pp: Permission denied"]


@pytest.mark.skipif(AS_ROOT, reason="running as root: mode 000 does not stop root from reading "
                                    "(test_permission_denied_injected covers it)")
def test_permission_denied_for_real(tmp_path: Path) -> None:
    make_hostile_folder(tmp_path, PERMISSION_ENTRIES)
    try:
        code, out, _, _ = run_cli("check", str(tmp_path), patched=False)
    finally:
        os.chmod(tmp_path / "unlistable", 0o755)
    assert code == 1
    assert sorted(line.split(": error ")[1].split()[0] + " " + line.split(":")[0] for line in out.splitlines()) == [
        f"FILE_UNREADABLE {tmp_path}/unlistable", f"FILE_UNREADABLE {tmp_path}/unreadable.pp"]


MODULES = "/usr/share/puppet/modules"


def _sources_under(root: str) -> int:
    """How many .pp/.epp files a walk that follows directory links once and skips hidden
    directories finds (counted here independently of server/files.py)."""
    seen, count = set(), 0
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen:
            dirnames[:] = []
            continue
        seen.add(real)
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        count += sum(1 for f in filenames if f.endswith((".pp", ".epp")))
    return count


@pytest.mark.corpus
@pytest.mark.skipif(not corpus_files() or not os.path.isdir(MODULES), reason="corpus not installed")
def test_corpus_and_hostile_folder_together(hostile: Path) -> None:
    """The acceptance run: the whole corpus plus the hostile folder in one `check`.  Every
    corpus file is checked with no error; the errors all belong to hostile paths."""
    from puppet_ls.server.commands import collect_files
    files = corpus_files()
    code, out, err, _ = run_cli("check", "--file-timeout", "3", *files, str(hostile), limit=900)
    assert code == 1
    # puppet-lint's style errors (tabs, odd indentation, layout) are real findings in the corpus;
    # every other error belongs to a hostile path
    from puppet_ls.language.lint import CHECKS
    error_paths = {line.split(":")[0] for line in out.splitlines()
                   if ": error " in line and line.split(": error ", 1)[1].split()[0] not in CHECKS}
    assert error_paths and all(p.startswith(str(hostile)) for p in error_paths)
    n_hostile = len(collect_files((str(hostile),))[0])
    assert f"{len(files) + n_hostile} files checked" in err


@pytest.mark.corpus
@pytest.mark.skipif(not os.path.isdir(MODULES), reason="corpus modules not installed")
def test_symlinked_module_folders_are_followed() -> None:
    """Debian's module folders are symbolic links: `check` on their parent finds every file
    (the full run is measured, not tested: see the corpus test above)."""
    from puppet_ls.server.commands import collect_files
    expected = _sources_under(MODULES)
    assert expected > 1000
    files, missing, unlisted = collect_files((MODULES,))
    assert (len(files), missing, unlisted) == (expected, [], [])


EACH_COMMANDS = (("check", "--file-timeout", "3"), ("parse",), ("symbols", "--file-timeout", "3"))


def _each(paths: list[str]) -> None:
    """Run EACH_COMMANDS on every path in this process, printing exit status and output."""
    from click.testing import CliRunner
    from puppet_ls.server.cli import main
    from puppet_ls.server.files import display_path
    for path in paths:
        for command in EACH_COMMANDS:
            result = CliRunner().invoke(main, [*command, path], catch_exceptions=False)
            print(f"## {command[0]} {display_path(path)}: exit {result.exit_code}\n{result.stdout}{result.stderr}", end="")


def _main(argv: list[str]) -> None:
    if argv[:1] == ["make"]:
        root = Path(argv[1])
        root.mkdir(parents=True, exist_ok=True)
        make_hostile_folder(root, ENTRIES + (PERMISSION_ENTRIES if "--permissions" in argv else []))
        return
    if argv[:1] != ["run"]:
        install_faults()
    if argv[:1] == ["each"]:
        _each(argv[1:])
        return
    from puppet_ls.server.cli import main
    main(argv[1:], prog_name="puppet-ls")


if __name__ == "__main__":
    _main(sys.argv[1:])
