"""The loop behind ``puppet-ls check`` (server/check_run.py): every way of running it gives the
same reports (in one process or in worker processes, without the cache, with a cold or a warm
one), a cached result is used again only while what its checks asked of the index has the same
answers, and a worker that dies or hangs costs one diagnostic on the file it had, not the run."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from puppet_ls.language.lint import default_enabled
from puppet_ls.server import check_run
from puppet_ls.server.check_run import CheckOptions, run_check

MODULES = {
    "app/metadata.json": '{"name": "acme-app", "version": "1.0.0"}\n',
    "app/manifests/init.pp": "# The application.\nclass app (Integer $port = 80) {\n  include app::config\n}\n",
    "app/manifests/config.pp": "# Its configuration.\nclass app::config {\n  file { '/etc/app.conf': ensure => file }\n}\n",
    "app/manifests/site.pp": "# Uses the application.\nclass app::site {\n  class { 'app': port => 8080 }\n}\n",
    "app/examples/init.pp": "include app\nnotify { $undefined_here: }\n",
    "app/manifests/broken.pp": "class app::broken {\n  $x = [1, 2\n}\n",
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for rel, text in MODULES.items():
        path = tmp_path / "modules" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path / "modules"


def files_of(tree: Path) -> list:
    return sorted(str(p) for p in tree.rglob("*.pp"))


def run(tree: Path, cache: Path | None = None, jobs: int = 1) -> list:
    options = CheckOptions(lint=default_enabled(), cache_dir=str(cache) if cache else None, jobs=jobs)
    return [(r.path, r.text, [(d.offset, d.end, d.severity, d.code, d.message, d.related) for d in r.diagnostics],
             [((d.code, d.offset), reason) for d, reason in r.ignored])
            for r in run_check(files_of(tree), [], options)]


@pytest.fixture
def counted(monkeypatch) -> list:
    """The paths checked in this process (not taken from the cache)."""
    seen: list = []
    real = check_run.check_data

    def check_data(path, *args, **kwargs):
        seen.append("/".join(Path(path).parts[-2:]))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(check_run, "check_data", check_data)
    return seen


def test_every_way_of_running_gives_the_same_reports(tree: Path, tmp_path: Path, monkeypatch) -> None:
    plain = run(tree)
    codes = {d[3] for _, _, diags, _ in plain for d in diags}
    assert {"SYNTAX_ERROR", "documentation"} <= codes, plain
    assert run(tree, tmp_path / "cache") == plain      # cold
    assert run(tree, tmp_path / "cache") == plain      # warm
    monkeypatch.setattr(check_run, "PARALLEL_MIN", 1)
    assert run(tree, jobs=2) == plain
    assert run(tree, tmp_path / "cache2", jobs=2) == plain
    assert run(tree, tmp_path / "cache2", jobs=2) == plain


def test_warm_cache_checks_nothing(tree: Path, tmp_path: Path, counted: list) -> None:
    run(tree, tmp_path / "cache")
    assert len(counted) == len(files_of(tree))
    counted.clear()
    run(tree, tmp_path / "cache")
    assert counted == []


def test_a_change_rechecks_the_file_and_those_whose_answers_changed(tree: Path, tmp_path: Path,
                                                                     counted: list, monkeypatch) -> None:
    cache = tmp_path / "cache"
    # made by worker processes (other string hashes), checked against in this one
    monkeypatch.setattr(check_run, "PARALLEL_MIN", 1)
    run(tree, cache, jobs=2)
    monkeypatch.setattr(check_run, "PARALLEL_MIN", 10_000)
    # app::config changes but defines the same: only it is checked again
    config = tree / "app/manifests/config.pp"
    config.write_text(config.read_text().replace("ensure => file", "ensure => file, mode => '0644'"))
    counted.clear()
    run(tree, cache)
    assert counted == ["manifests/config.pp"]
    counted.clear()
    run(tree, cache)        # the results found still right were recorded as such
    assert counted == []
    # class app moves down its file and its documentation changes: nothing else depends on that
    init = tree / "app/manifests/init.pp"
    init.write_text("# The application,\n# documented at more length.\n" + init.read_text().split("\n", 1)[1])
    counted.clear()
    run(tree, cache)
    assert counted == ["manifests/init.pp"]
    # class app loses its parameter: site.pp, which passes it, and the example that includes
    # it must be checked again
    init.write_text(init.read_text().replace("(Integer $port = 80) ", ""))
    counted.clear()
    after = run(tree, cache)
    assert sorted(counted) == ["examples/init.pp", "manifests/init.pp", "manifests/site.pp"]
    assert after == run(tree)       # the same as without any cache
    site = next(diags for path, _, diags, _ in after if path.endswith("site.pp"))
    assert any(d[3] == "UNKNOWN_PARAMETER" for d in site)


def test_a_fingerprint_depends_on_the_answer_only() -> None:
    """Which strings are interned and which objects are shared depends on what a process has
    imported; a fingerprint must not (a worker's once never matched the main process's)."""
    class Env:
        def __init__(self, names: list) -> None:
            self._names = names

        def names(self, kind: str) -> list:
            return self._names

    def fresh(text: str) -> str:
        return text.encode().decode()    # a string object of its own: neither shared nor interned

    word = fresh("String")
    shared = Env([word, word])
    separate = Env([sys.intern(fresh("String")), fresh("String")])
    assert check_run.fingerprint(shared, ("names", "class")) == check_run.fingerprint(separate, ("names", "class"))
    assert check_run.fingerprint(shared, ("names", "class")) != check_run.fingerprint(Env([word]), ("names", "class"))


def test_configuration_is_part_of_the_key(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    run(tree, cache)
    options = CheckOptions(lint=frozenset(), cache_dir=str(cache))
    reports = list(run_check(files_of(tree), [], options))
    assert not any(d.code == "documentation" for r in reports for d in r.diagnostics)


def test_a_damaged_cache_entry_is_a_miss(tree: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    plain = run(tree, cache)
    for path in cache.rglob("*"):
        if path.is_file() and not path.name.startswith("."):
            path.write_bytes(b"\x00garbage")
    assert run(tree, cache) == plain


@pytest.mark.parametrize("command", ["import sys; sys.exit(3)", "import time; time.sleep(60)"])
def test_a_worker_that_dies_or_hangs_costs_a_diagnostic(tree: Path, monkeypatch, command: str) -> None:
    monkeypatch.setattr(check_run, "PARALLEL_MIN", 1)
    monkeypatch.setattr(check_run, "WORKER_COMMAND", [sys.executable, "-c", command])
    monkeypatch.setattr(check_run, "_GRACE", 0.2)
    options = CheckOptions(lint=default_enabled(), jobs=2, file_timeout=0.3)
    reports = list(run_check(files_of(tree), [], options))
    assert [r.path for r in reports] == files_of(tree)
    expected = "CHECK_INTERNAL_ERROR" if "exit" in command else "CHECK_TIMEOUT"
    assert all([d.code for d in r.diagnostics] == [expected] for r in reports)


def test_default_cache_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("PUPPET_LS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    project = tmp_path / "project"
    (project / "manifests").mkdir(parents=True)
    (project / "environment.conf").write_text("")
    folder = check_run.default_cache_dir(str(project / "manifests"))
    assert folder == str(project / ".puppet-ls-cache")
    assert (project / ".puppet-ls-cache" / ".gitignore").read_text().endswith("*\n")
    assert check_run.default_cache_dir(str(tmp_path)) == str(tmp_path / "xdg" / "puppet-ls")
    monkeypatch.setenv(check_run.NO_CACHE_VAR, "1")
    assert check_run.default_cache_dir(str(project)) is None


def test_cli_options(tree: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from puppet_ls.server.cli import main
    runner = CliRunner()
    cache = tmp_path / "c"
    first = runner.invoke(main, ["check", "--cache-dir", str(cache), "-j", "1", str(tree)])
    assert (cache / "CACHEDIR.TAG").exists()
    again = runner.invoke(main, ["check", "--cache-dir", str(cache), str(tree)])
    none = runner.invoke(main, ["check", "--no-cache", "--jobs", "2", str(tree)])
    assert first.exit_code == again.exit_code == none.exit_code == 1
    assert first.output == again.output == none.output
    shutil.rmtree(cache)
