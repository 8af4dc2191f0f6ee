"""The snapshot of the last complete index build (server/index_snapshot.py): loaded when nothing
it was read from changed, it equals a fresh build; a table of changes to the workspace and to
what the build is given -> the snapshot is not used; a damaged one is not used either; a file
changed within the file system clock's last ticks is never trusted."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from puppet_ls.server import index_snapshot
from puppet_ls.server.config import DEFAULT_EXCLUDER, Excluder
from puppet_ls.server.index_cache import IndexCache
from puppet_ls.server.workspace import build_index
from tests.lsp.conftest import WORKSPACE
from tests.lsp.test_index_cache import snapshot as content


def _everything(index) -> tuple:
    return (index.complete, index.module_records(), content(index), sorted(index._by_name),
            {k: [e.path for e in v] for k, v in index._by_name.items()}, index._top_vars, index._facts)


def _plan(ws: Path, max_files: int = 50_000, exclude: Excluder = DEFAULT_EXCLUDER) -> tuple:
    return index_snapshot.plan([str(ws)], [str(ws / "modules")], max_files, exclude.signature)


def _build_and_keep(ws: Path, cache: IndexCache):
    walked: dict = {}
    index = build_index([str(ws)], [str(ws / "modules")], cache=cache, walked=walked)
    index_snapshot.save(cache, _plan(ws), walked["stamps"], index_snapshot.take(index))
    return index


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """(workspace, cache, the index built and kept): the files were just written, so the
    file-clock window is closed for these tests (one test opens it)."""
    monkeypatch.setattr(index_snapshot, "RACY_SECONDS", 0.0)
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    cache = IndexCache(str(tmp_path / "cache"))
    return ws, cache, _build_and_keep(ws, cache)


def test_unchanged_loads_and_equals_a_fresh_build(kept) -> None:
    ws, cache, built = kept
    loaded = index_snapshot.load(cache, _plan(ws))
    assert loaded is not None
    fresh = build_index([str(ws)], [str(ws / "modules")])
    assert _everything(loaded) == _everything(built) == _everything(fresh)


def _append(ws: Path) -> None:
    with open(ws / "modules" / "webapp" / "manifests" / "init.pp", "a") as f:
        f.write("\n# more\n")


def _same_size(ws: Path) -> None:
    p = ws / "modules" / "webapp" / "manifests" / "init.pp"
    text = p.read_text()
    p.write_text(text.replace("class", "CLASS", 1))


def _new_file(ws: Path) -> None:
    (ws / "modules" / "webapp" / "manifests" / "extra.pp").write_text("class webapp::extra {}\n")


def _removed(ws: Path) -> None:
    os.unlink(ws / "modules" / "webapp" / "manifests" / "vhost.pp")


def _renamed(ws: Path) -> None:
    os.rename(ws / "modules" / "webapp" / "manifests" / "vhost.pp", ws / "modules" / "webapp" / "manifests" / "site.pp")


def _new_module(ws: Path) -> None:
    (ws / "modules" / "other" / "manifests").mkdir(parents=True)
    (ws / "modules" / "other" / "manifests" / "init.pp").write_text("class other {}\n")


def _metadata(ws: Path) -> None:
    with open(ws / "modules" / "webapp" / "metadata.json", "a") as f:
        f.write("\n")


def _modulepath_gone(ws: Path) -> None:
    shutil.rmtree(ws / "modules")


CHANGES = {"a file grew": _append, "a file changed, same size": _same_size, "a new file": _new_file,
           "a file removed": _removed, "a file renamed": _renamed, "a new module": _new_module,
           "a module's metadata.json": _metadata, "the modulepath folder removed": _modulepath_gone}


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_change_on_disk_is_not_loaded(kept, name) -> None:
    ws, cache, _ = kept
    CHANGES[name](ws)
    assert index_snapshot.load(cache, _plan(ws)) is None


PLANS = {"a file limit": {"max_files": 10},
         "exclusions": {"exclude": Excluder([(str(WORKSPACE), ("site/",))])}}


@pytest.mark.parametrize("name", list(PLANS))
def test_another_plan_is_not_loaded(kept, name) -> None:
    ws, cache, _ = kept
    assert index_snapshot.load(cache, _plan(ws, **PLANS[name])) is None


def test_a_damaged_snapshot_is_not_loaded(kept) -> None:
    ws, cache, _ = kept
    key = index_snapshot._key(cache, _plan(ws))
    blob = cache.get_blob(key)
    assert blob is not None
    for damaged in (blob[:len(blob) // 2], b"\x00" * 40, b""):
        cache.put_blob(key, damaged)
        cache.flush()
        assert index_snapshot.load(cache, _plan(ws)) is None


def test_files_changed_within_the_clock_window_are_never_trusted(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(index_snapshot, "RACY_SECONDS", 3600.0)
    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    cache = IndexCache(str(tmp_path / "cache"))
    _build_and_keep(ws, cache)
    assert index_snapshot.load(cache, _plan(ws)) is None
