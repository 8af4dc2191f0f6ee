"""The persistent index cache (server/index_cache.py) and its use by build_index: every entry
survives the round trip through the stored form (the fixture workspace's files, and the corpus
when present), a second build is served from the cache and equals an uncached build, a changed
file, a new version, a damaged entry or a damaged database is a miss (never an error),
concurrent writers leave only whole entries, and indexing in worker processes builds the same
index as in one process, whatever the workers do."""
from __future__ import annotations

import multiprocessing
import os
import shutil
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from puppet_ls.server import index_cache
from puppet_ls.server.index_cache import IndexCache, default_folder, dumps, loads
from puppet_ls.server.workspace import build_index, settle_workers
from tests.corpus import corpus_files
from tests.lsp.conftest import WORKSPACE


def snapshot(index) -> dict:
    """Everything an index holds, comparable (Entity's ``extra`` is left out of its ==)."""
    return {path: (e.module, e.role, [(x, x.extra) for x in e.entities], e.uses, e.top_variables)
            for path, e in index.files.items()}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    return ws


def build(ws: Path, cache: IndexCache | None):
    return build_index([str(ws)], [], cache=cache)


def entries_of(index) -> list:
    return sorted(index.files.values(), key=lambda e: e.path)


def check_round_trip(index) -> None:
    for entry in entries_of(index):
        back = loads(dumps(entry))
        assert back is not None, entry.path
        assert snapshot_entry(back) == snapshot_entry(entry), entry.path


def snapshot_entry(e) -> tuple:
    return (e.path, e.module, e.role, [(x, x.extra) for x in e.entities], e.uses, e.top_variables)


def test_round_trip_fixture_workspace(workspace: Path) -> None:
    index = build(workspace, None)
    assert len(index.files) >= 7
    check_round_trip(index)


def test_round_trip_corpus_modules() -> None:
    files = corpus_files()
    if not files:
        pytest.skip("missing: the shared corpus (../shared/corpus/corpus_files.txt)")
    modules = sorted({p.split("/manifests/")[0] for p in files if "/manifests/" in p})[:12]
    index = build_index(modules, [])
    assert index.files
    check_round_trip(index)


def test_second_build_hits_and_equals_uncached(workspace: Path, tmp_path: Path) -> None:
    plain = snapshot(build(workspace, None))
    first = IndexCache(str(tmp_path / "cache"))
    assert snapshot(build(workspace, first)) == plain
    assert (first.hits, first.misses) == (0, len(plain))
    second = IndexCache(str(tmp_path / "cache"))
    assert snapshot(build(workspace, second)) == plain
    assert (second.hits, second.misses) == (len(plain), 0)


def test_changed_file_misses(workspace: Path, tmp_path: Path) -> None:
    build(workspace, IndexCache(str(tmp_path / "cache")))
    init = workspace / "modules" / "webapp" / "manifests" / "init.pp"
    init.write_text(init.read_text() + "\nclass webapp::added_later {}\n")
    cache = IndexCache(str(tmp_path / "cache"))
    index = build(workspace, cache)
    assert cache.misses == 1
    assert cache.hits == len(index.files) - 1
    assert index.lookup("class", "webapp::added_later")
    assert snapshot(index) == snapshot(build(workspace, None))


def rows(cache: IndexCache) -> dict:
    """key -> (data, used) of every committed entry of ``cache``'s database."""
    with sqlite3.connect(cache.file) as db:
        return {k: (d, u) for k, d, u in db.execute("SELECT key, data, used FROM entries")}


def test_new_version_misses_and_prune_removes_the_old_database(workspace: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "cache"
    old = IndexCache(str(root))
    n = len(build(workspace, old).files)
    old.close()
    legacy = root / "index-v2-0.0.9" / "ab"       # an older puppet-ls's file per entry
    legacy.mkdir(parents=True)
    (legacy / "cdef").write_bytes(b"an entry")
    monkeypatch.setattr(index_cache, "__version__", "99.0.0")
    new = IndexCache(str(root))
    build(workspace, new)
    assert (new.hits, new.misses) == (0, n)
    assert new.file != old.file
    assert new.prune() == 2
    assert sorted(p.name for p in root.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [Path(new.file).name]


DAMAGE = [
    ("empty", lambda data: b""),
    ("truncated", lambda data: data[: len(data) // 2]),
    ("garbage", lambda data: b"\x00\xff not marshal at all"),
    ("another marshalled value", lambda data: __import__("marshal").dumps(("puppet-ls-index", 1))),
    ("wrong magic", lambda data: __import__("marshal").dumps(("other", "", "", "", (), (), frozenset()))),
]


def built(workspace: Path, root: Path) -> tuple:
    """(the cache, the index snapshot) of a build into an empty cache folder, committed."""
    first = IndexCache(str(root))
    plain = snapshot(build(workspace, first))
    first.close()
    return first, plain


@pytest.mark.parametrize("name,damage", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_damaged_entries_are_misses(workspace: Path, tmp_path: Path, name, damage) -> None:
    root = tmp_path / "cache"
    first, plain = built(workspace, root)
    with sqlite3.connect(first.file) as db:
        stored = list(db.execute("SELECT key, data FROM entries"))
        assert len(stored) == len(plain)
        db.executemany("UPDATE entries SET data = ? WHERE key = ?", [(damage(d), k) for k, d in stored])
    cache = IndexCache(str(root))
    assert snapshot(build(workspace, cache)) == plain
    assert (cache.hits, cache.misses) == (0, len(plain))
    again = IndexCache(str(root))     # the damaged entries were replaced
    build(workspace, again)
    assert again.misses == 0


DAMAGED_FILE = [
    ("empty", lambda data: b""),
    ("truncated", lambda data: data[: len(data) // 3]),
    ("garbage", lambda data: b"not a database at all" * 100),
]


@pytest.mark.parametrize("name,damage", DAMAGED_FILE, ids=[d[0] for d in DAMAGED_FILE])
def test_damaged_database_is_started_again(workspace: Path, tmp_path: Path, name, damage) -> None:
    root = tmp_path / "cache"
    first, plain = built(workspace, root)
    path = Path(first.file)
    path.write_bytes(damage(path.read_bytes()))
    cache = IndexCache(str(root))
    assert snapshot(build(workspace, cache)) == plain       # every entry a miss, no error
    assert cache.hits == 0
    cache.close()
    again = IndexCache(str(root))
    build(workspace, again)
    assert (again.hits, again.misses) == (len(plain), 0)


def test_unusable_cache_folder_is_no_error(workspace: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    cache = IndexCache(str(blocker))
    assert snapshot(build(workspace, cache)) == snapshot(build(workspace, None))
    assert cache.hits == 0 and cache.prune() == 0
    assert blocker.read_text() == "a file where the cache folder should be"


def test_writes_are_committed_by_flush(workspace: Path, tmp_path: Path) -> None:
    cache = IndexCache(str(tmp_path / "cache"))
    entry = next(iter(build(workspace, None).files.values()))
    cache.put("k" * 40, entry)
    assert cache.get("k" * 40) is not None       # this process sees what it buffered
    other = IndexCache(str(tmp_path / "cache"))
    assert other.get_blob("k" * 40) is None      # others see it once committed
    cache.flush()
    assert other.get_blob("k" * 40) == dumps(entry)


def _build_into(args) -> dict:
    ws, root = args
    cache = IndexCache(root)
    return {p: snapshot_entry(e) for p, e in build_index([ws], [], cache=cache).files.items()}


def test_concurrent_writers(workspace: Path, tmp_path: Path) -> None:
    root = str(tmp_path / "cache")
    plain = {p: snapshot_entry(e) for p, e in build(workspace, None).files.items()}
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        results = pool.map(_build_into, [(str(workspace), root)] * 8)
    assert all(r == plain for r in results)
    cache = IndexCache(root)
    stored = rows(cache)
    assert len(stored) == len(plain)
    assert all(loads(data) is not None for data, _ in stored.values())
    build(workspace, cache)
    assert cache.misses == 0


def test_prune_removes_stale_entries(workspace: Path, tmp_path: Path) -> None:
    root = tmp_path / "cache"
    cache = IndexCache(str(root))
    n = len(build(workspace, cache).files)
    keys = sorted(rows(cache))
    assert len(keys) == n
    with sqlite3.connect(cache.file) as db:
        db.execute("UPDATE entries SET used = 1 WHERE key = ?", (keys[0],))
    assert cache.prune() == 1
    assert sorted(rows(cache)) == keys[1:]


def test_a_hit_refreshes_the_day_once(workspace: Path, tmp_path: Path) -> None:
    root = tmp_path / "cache"
    cache = IndexCache(str(root))
    build(workspace, cache)
    keys = sorted(rows(cache))
    with sqlite3.connect(cache.file) as db:
        db.execute("UPDATE entries SET used = 5")
    again = IndexCache(str(root))
    build(workspace, again)
    today = index_cache._today()
    assert {u for _, u in rows(again).values()} == {today}
    assert sorted(rows(again)) == keys


FOLDERS = [
    # (PUPPET_LS_CACHE_DIR, setting, XDG_CACHE_HOME, expected)
    ("/env/dir", "/setting/dir", "/xdg", "/env/dir"),
    (None, "/setting/dir", "/xdg", "/setting/dir"),
    (None, "", "/xdg", "/xdg/puppet-ls"),
    (None, None, None, "~/.cache/puppet-ls"),
]


@pytest.mark.parametrize("env,setting,xdg,expected", FOLDERS)
def test_default_folder(monkeypatch: pytest.MonkeyPatch, env, setting, xdg, expected) -> None:
    for var, value in (("PUPPET_LS_CACHE_DIR", env), ("XDG_CACHE_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(var, raising=False)
        else:
            monkeypatch.setenv(var, value)
    assert default_folder(setting) == os.path.expanduser(expected)


# The real worker with a stray print inside the indexer: the print goes to stderr, not into
# the framed answers.
_PRINTING = ("import sys; from puppet_ls.server import index_worker as w; real = w.index_source; "
             "w.index_source = lambda *a: (print('stray output'), real(*a))[1]; sys.exit(w.main())")
WORKERS = [
    # (worker command, or None for the real one; whether this process indexes files itself; what it shows)
    (None, False, "the worker processes index every file"),
    ([sys.executable, "-c", _PRINTING], False, "a worker that prints on its stdout"),
    (["false"], True, "a worker that fails: this process indexes its files"),
    ([sys.executable, "-c", "import sys; sys.stdout.buffer.write(b'not marshal')"], True, "a worker answering rubbish"),
    (["/nonexistent/python"], True, "a worker that cannot start"),
]


@pytest.mark.parametrize("command,fallback,what", WORKERS, ids=[w[2] for w in WORKERS])
@pytest.mark.parametrize("start", [1, 5], ids=["workers from the first miss", "workers from the fifth"])
def test_indexing_in_processes_equals_serial(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             command, fallback: bool, what, start: int) -> None:
    from puppet_ls.server import workspace as ws_mod
    monkeypatch.setattr(ws_mod, "PARALLEL_MIN", start)     # the misses before it are batched too
    monkeypatch.setattr(ws_mod, "BATCH", 2)     # several batches, handed out while the walk goes on
    if command is not None:
        monkeypatch.setattr(ws_mod, "WORKER_COMMAND", command)
    here: list = []
    real_index_one = ws_mod.index_one
    monkeypatch.setattr(ws_mod, "index_one", lambda path, *a: here.append(path) or real_index_one(path, *a))
    index = build_index([str(workspace)], [], jobs=2, cache=IndexCache(str(tmp_path / "cache")))
    # files before the workers start are theirs too; a failed worker's are indexed here
    assert bool(here) is fallback, here
    serial = build_index([str(workspace)], [])
    assert snapshot(index) == snapshot(serial)
    assert list(index._by_name.items()) == list(serial._by_name.items())    # the same order of definitions
    assert settle_workers(30)       # (the build does not wait for the workers to store and end)
    cache = IndexCache(str(tmp_path / "cache"))
    build(workspace, cache)
    assert cache.misses == 0        # the workers (or the fallback) stored every entry


# The real worker, slow to end once its input is closed (as one storing a large workspace's
# entries is, one after the other, in the cache's one database).
_SLOW_TO_END = """import sys, time
from puppet_ls.server import index_worker as w
code = w.main()
time.sleep(3)
sys.exit(code)
"""


def test_the_index_is_complete_before_its_workers_end(workspace: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from puppet_ls.server import workspace as ws_mod
    monkeypatch.setattr(ws_mod, "PARALLEL_MIN", 1)
    monkeypatch.setattr(ws_mod, "WORKER_COMMAND", [sys.executable, "-c", _SLOW_TO_END])
    serial = snapshot(build_index([str(workspace)], []))
    index = build_index([str(workspace)], [], jobs=2, cache=IndexCache(str(tmp_path / "cache")))
    assert not settle_workers(0), "the build waited for its workers to end"
    assert snapshot(index) == serial
    assert settle_workers(30)
    cache = IndexCache(str(tmp_path / "cache"))
    build(workspace, cache)
    assert cache.misses == 0        # what the workers stored after the build is there


# The real worker with a half-second limit per file and an indexer that never ends on one file.
_NEVER_ENDS = """import sys
from puppet_ls.server import index_worker as w
real = w.index_source
w.FILE_TIMEOUT = 0.5
def never_ends(path, *args):
    while path == {path!r}:
        pass
    return real(path, *args)
w.index_source = never_ends
sys.exit(w.main())
"""


def test_a_file_that_never_ends_is_left_out_by_its_worker(workspace: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capfd: pytest.CaptureFixture) -> None:
    from puppet_ls.server import workspace as ws_mod
    monkeypatch.setattr(ws_mod, "PARALLEL_MIN", 1)
    slow = str(min(workspace.rglob("*.pp")))
    monkeypatch.setattr(ws_mod, "WORKER_COMMAND", [sys.executable, "-c", _NEVER_ENDS.format(path=slow)])
    built: list = []
    thread = threading.Thread(target=lambda: built.append(build_index([str(workspace)], [], jobs=2)), daemon=True)
    thread.start()
    thread.join(60)
    assert built, "the index waited for the file that never ends"
    expected = snapshot(build_index([str(workspace)], []))
    del expected[slow]
    # the other files of its batch and of the workspace are indexed; the server waits for no one
    assert snapshot(built[0]) == expected
    assert f"indexing {slow} was stopped after 0.5 s; what it defines is unknown" in capfd.readouterr().err


def test_cancelling_stops_the_workers(workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from puppet_ls.server import workspace as ws_mod
    monkeypatch.setattr(ws_mod, "PARALLEL_MIN", 1)
    # a worker that never answers: only cancelling ends the build
    monkeypatch.setattr(ws_mod, "WORKER_COMMAND", [sys.executable, "-c", "import time; time.sleep(600)"])
    started = []
    real_popen = ws_mod.subprocess.Popen

    def popen(*args, **kwargs):
        proc = real_popen(*args, **kwargs)
        started.append(proc)
        return proc

    monkeypatch.setattr(ws_mod.subprocess, "Popen", popen)
    def cancelled() -> bool:
        return len(started) == 2     # once both workers run

    index = build_index([str(workspace)], [], jobs=2, cancelled=cancelled)
    assert index.files == {}
    assert [p.poll() is not None for p in started] == [True, True]
