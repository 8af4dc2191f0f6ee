"""What `check` and the indexer walk: the default excludes in one place for both, symbolic links
to module folders followed once (a loop ends), and a file given alone checked like its folder
(the environment.conf above it is read either way)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from puppet_ls.server import config as lintconfig
from puppet_ls.server.cli import main
from puppet_ls.server.commands import collect_files
from puppet_ls.server.workspace import build_index
from tests.corpus import corpus_files

REPO = Path(__file__).resolve().parents[2]
MODULE = REPO / "fixtures" / "config" / "module"


def _found(paths, cfg=None) -> list[str]:
    cfg = cfg or lintconfig.resolve([])
    files, missing, unlisted = collect_files(tuple(str(p) for p in paths), cfg.excluded)
    assert not missing and not unlisted
    return sorted(str(f) for f in files)


def test_default_excludes_are_the_indexers(tmp_path) -> None:
    """vendor/, pkg/ and spec/fixtures/ are skipped by `check` and by the index alike; an
    exclude pattern of the configuration is skipped by both too."""
    found = [os.path.relpath(f, MODULE) for f in _found([MODULE])]
    assert found == ["ntp/manifests/init.pp", "ntp/manifests/service.pp", "ntp/site/legacy/manifests/legacy.pp"]
    index = build_index([str(MODULE / "ntp")], [])
    classes = sorted(k for k in index.files.values() for k in getattr(k, "classes", ()))
    names = {os.path.relpath(p, MODULE) for p in index.files}
    assert names == {"ntp/manifests/init.pp", "ntp/manifests/service.pp", "ntp/site/legacy/manifests/legacy.pp"}, classes
    cfg = lintconfig.resolve([lintconfig.Layer(source="t", extend_exclude=("site/",), base=str(MODULE / "ntp"))])
    assert [os.path.relpath(f, MODULE) for f in _found([MODULE], cfg)] == ["ntp/manifests/init.pp",
                                                                          "ntp/manifests/service.pp"]
    index = build_index([str(MODULE / "ntp")], [], exclude=cfg.excluder)
    assert {os.path.relpath(p, MODULE) for p in index.files} == {"ntp/manifests/init.pp", "ntp/manifests/service.pp"}
    # a pattern that names files: the walks ask about every file, not only about folders
    cfg = lintconfig.resolve([lintconfig.Layer(source="t", extend_exclude=("service.pp",), base=str(MODULE / "ntp"))])
    assert not cfg.excluder.directories_only
    assert [os.path.relpath(f, MODULE) for f in _found([MODULE], cfg)] == ["ntp/manifests/init.pp",
                                                                          "ntp/site/legacy/manifests/legacy.pp"]
    index = build_index([str(MODULE / "ntp")], [], exclude=cfg.excluder)
    assert {os.path.relpath(p, MODULE) for p in index.files} == {"ntp/manifests/init.pp",
                                                                 "ntp/site/legacy/manifests/legacy.pp"}


def test_symlinked_modules_are_followed_once(tmp_path) -> None:
    modules = tmp_path / "modules"
    modules.mkdir()
    shutil.copytree(MODULE / "ntp", tmp_path / "store" / "ntp")
    (modules / "ntp").symlink_to(tmp_path / "store" / "ntp")
    (modules / "again").symlink_to(tmp_path / "store" / "ntp")        # the same folder twice
    (tmp_path / "store" / "ntp" / "manifests" / "loop").symlink_to(modules)   # a loop
    found = [os.path.relpath(f, tmp_path) for f in _found([modules])]
    assert found == ["modules/again/manifests/init.pp", "modules/again/manifests/service.pp",
                     "modules/again/site/legacy/manifests/legacy.pp"]


@pytest.mark.corpus
@pytest.mark.skipif(not corpus_files(), reason="the module corpus is not installed (/usr/share/puppet/modules)")
def test_debian_module_links_are_followed() -> None:
    """Debian installs each module as a link (through /etc/alternatives): `check` on the
    folder finds every corpus file in it but those under the default excludes."""
    root = "/usr/share/puppet/modules"
    expected = {f for f in corpus_files() if f.startswith(root + "/")
                and not lintconfig.DEFAULT_EXCLUDER.excluded(f, False, root)}
    assert expected
    found = set(_found([root]))
    assert expected <= found, sorted(expected - found)[:5]


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", "--isolated", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


def test_a_file_alone_is_checked_like_its_folder(monkeypatch) -> None:
    """The control repository's environment.conf (modulepath site:modules) is read whether
    its folder or one file of it is given: the modules it names are known, so a class found
    nowhere is reported in both cases, and the file's findings are the same."""
    monkeypatch.chdir(REPO / "fixtures" / "config")
    target = "control-repo/site/profile/manifests/base.pp"
    _, folder = _check("control-repo")
    _, alone = _check(target)
    from_folder = [line for line in folder.splitlines() if line.startswith(target + ":")]
    assert [line.split()[2] for line in from_folder] == ["UNDEFINED_CLASS"]
    assert "profile::nowhere" in from_folder[0]
    assert alone.splitlines() == from_folder
