"""The language server's kept code (server/code_cache.py): what is compiled inside ``kept`` is
the code ``compile`` makes, it is read back at the next start, and a cache that is damaged,
foreign or open to other users is never used."""
from __future__ import annotations

import marshal
import os
import stat

import pytest

from tests.stdio import full_start

from puppet_ls.server import code_cache

SOURCE = "def f(x: undefined_name) -> int:\n    return x + 1\n"
NAME = "<generated f>"


def compiled(folder) -> object:
    with code_cache.kept(str(folder)):
        return compile(SOURCE, NAME, "exec")


def planted(folder, code) -> None:
    """A cache file in ``folder`` whose entry for SOURCE (as this module compiles it) is ``code``."""
    folder.mkdir(mode=0o700, exist_ok=True)
    key = (SOURCE, NAME, "exec", compile(SOURCE, NAME, "exec").co_flags & code_cache._FUTURE_FLAGS)
    path = code_cache.cache_file(str(folder))
    with open(path, "wb") as f:
        marshal.dump((code_cache._MAGIC, {key: code}), f)
    os.chmod(path, 0o600)


def test_same_code_as_compile_and_kept(tmp_path):
    folder = tmp_path / "code"
    first = compiled(folder)
    # the caller's `from __future__ import annotations` is inherited, as compile() does:
    # the annotation is never evaluated
    assert first.co_flags == compile(SOURCE, NAME, "exec").co_flags
    ns: dict = {}
    exec(first, ns)  # noqa: S102 - the code compiled just above
    assert ns["f"](1) == 2 and ns["f"].__annotations__["x"] == "undefined_name"
    assert os.path.isfile(code_cache.cache_file(str(folder)))
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    again = compiled(folder)
    assert again is not first and again == first


def test_read_back_at_the_next_start(tmp_path):
    folder = tmp_path / "code"
    other = compile("def f(x):\n    return 'kept'\n", NAME, "exec")
    planted(folder, other)
    assert compiled(folder) == other


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file modes are POSIX")
@pytest.mark.parametrize("what", ["file", "folder"])
def test_open_to_others_is_not_read(tmp_path, what):
    folder = tmp_path / "code"
    planted(folder, compile("x = 'planted'", NAME, "exec"))
    target = code_cache.cache_file(str(folder)) if what == "file" else folder
    os.chmod(target, 0o666 if what == "file" else 0o777)
    if what == "folder":
        # a folder open to others is made private again only when it is written
        assert code_cache._load(code_cache.cache_file(str(folder))) == {}
        return
    assert compiled(folder) == compile(SOURCE, NAME, "exec")


@pytest.mark.parametrize("content", [b"", b"\x00garbage", marshal.dumps(("other", {})), marshal.dumps([1, 2])])
def test_damaged_cache_compiles_as_usual(tmp_path, content):
    folder = tmp_path / "code"
    folder.mkdir(mode=0o700)
    path = code_cache.cache_file(str(folder))
    with open(path, "wb") as f:
        f.write(content)
    os.chmod(path, 0o600)
    assert compiled(folder) == compile(SOURCE, NAME, "exec")
    with open(path, "rb") as f:
        assert marshal.load(f)[0] == code_cache._MAGIC      # written again, whole


def test_a_file_far_larger_than_the_cache_is_not_read(tmp_path, monkeypatch):
    folder = tmp_path / "code"
    planted(folder, compile("x = 'planted'", NAME, "exec"))
    monkeypatch.setattr(code_cache, "MAX_BYTES", 16)
    assert compiled(folder) == compile(SOURCE, NAME, "exec")


def test_no_folder_and_other_calls_untouched(tmp_path):
    with code_cache.kept(None):
        assert compile is code_cache.builtins.compile
    folder = tmp_path / "code"
    with code_cache.kept(str(folder)):
        import ast
        tree = compile(SOURCE, NAME, "exec", ast.PyCF_ONLY_AST)     # flags given: not kept
        assert isinstance(tree, ast.Module)
        with pytest.raises(SyntaxError):
            compile("def (", NAME, "exec")
    assert compile is code_cache.builtins.compile
    assert not os.path.exists(code_cache.cache_file(str(folder)))


def test_server_start_keeps_code(tmp_path):
    """The language server keeps the protocol's generated code in its folder, and a start that
    reads it writes nothing again."""
    env = dict(os.environ, PUPPET_LS_CODE_CACHE_DIR=str(tmp_path / "code"))
    env.pop("PUPPET_LS_NO_CACHE", None)
    path = code_cache.cache_file(str(tmp_path / "code"))
    for _ in range(2):
        status, err = full_start(env=env)
        assert status == 0 and "exiting (exit)" in err, err[-2000:]
        if _ == 0:
            written = os.stat(path).st_mtime_ns
            with open(path, "rb") as f:
                assert len(marshal.load(f)[1]) > 500      # lsprotocol's classes
    assert os.stat(path).st_mtime_ns == written
