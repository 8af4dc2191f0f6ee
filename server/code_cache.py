"""Keeping the code that attrs generates for the protocol's classes between starts of the
language server, as Python keeps a module's bytecode in ``__pycache__``.

Importing ``lsprotocol.types`` (which pygls needs before the server can read its first message)
defines about 570 attrs classes, and attrs writes each class's ``__init__``, ``__eq__``,
``__repr__``... as Python source and compiles it: 760 calls to ``compile`` that take a third of
the import.  ``kept(folder)`` is a context manager for that import: within it ``compile`` of a
string first looks for the code object it compiled from the same source, file name, mode and
``__future__`` flags at an earlier start, in one ``marshal`` file per Python version and
optimisation level; what it compiled is written back when it is done.

The file holds code that the server runs, so it is only read from the user's own private cache
folder: the folder and the file must belong to the user running the server and be writable by
nobody else (never a project's ``.puppet-ls-cache/``, which comes with a repository, nor
``$PUPPET_LS_CACHE_DIR``, which may be shared between users or CI jobs; its own variable,
``$PUPPET_LS_CODE_CACHE_DIR``, names another folder, as the tests do).  A missing, damaged,
foreign or unwritable cache only means compiling as usual; ``$PUPPET_LS_NO_CACHE`` turns it off.
"""
import __future__

import builtins
import contextlib
import importlib.util
import logging
import marshal
import os
import sys
import tempfile
import types
from collections.abc import Iterator

from .index_cache import user_folder

log = logging.getLogger("puppet-ls")

# Every ``__future__`` flag: code compiled by a module inherits its future statements, so they
# are part of what a compiled string means.
_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag
# with the bytecode's own magic number, which a patch release of Python may change
_MAGIC = f"puppet-ls-code-cache-1-{importlib.util.MAGIC_NUMBER.hex()}"
ENV_VAR = "PUPPET_LS_CODE_CACHE_DIR"
# A run that compiled fewer new strings than this share of what it looked up does not rewrite
# the file: some generated sources hold a number that changes with every start (attrs's
# ``__hash__`` methods carry a hash of a string, and string hashes are salted per process).
REWRITE_SHARE = 0.05
# The file is ~2 MB; anything far larger is not this cache's, and is not read.
MAX_BYTES = 64 * 1024 * 1024


def cache_file(folder: str) -> str:
    tag = sys.implementation.cache_tag or sys.implementation.name
    return os.path.join(folder, f"code-{tag}-marshal{marshal.version}-O{sys.flags.optimize}.bin")


def private_folder() -> str | None:
    """``$PUPPET_LS_CODE_CACHE_DIR`` when set, else a folder of the user's own cache
    (``$XDG_CACHE_HOME/puppet-ls/code``, else ``~/.cache/puppet-ls/code``); None when
    ``$PUPPET_LS_NO_CACHE`` is set."""
    if os.environ.get("PUPPET_LS_NO_CACHE"):
        return None
    if os.environ.get(ENV_VAR):
        return os.environ[ENV_VAR]
    return os.path.join(user_folder(), "code")


def _trusted(path: str) -> bool:
    """Does ``path`` belong to this user and is nobody else allowed to change it?"""
    getuid = getattr(os, "getuid", None)
    if getuid is None:      # Windows: a user's cache folder under their profile is theirs
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    return st.st_uid == getuid() and not st.st_mode & 0o022


def read_private(path: str) -> bytes | None:
    """The bytes of ``path`` when it and its folder are this user's own and nobody else may
    change them (None otherwise, or when it is missing or larger than ``MAX_BYTES``)."""
    if not (_trusted(os.path.dirname(path)) and _trusted(path)):
        return None
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def write_private(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step, in a folder only this user may change
    (made so when it is missing; nothing is written to a folder that is not)."""
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if hasattr(os, "getuid") and os.stat(folder).st_uid == os.getuid():
            # the folder is this cache's own: a umask of 002 must not leave it open to a group
            os.chmod(folder, 0o700)
        if not _trusted(folder):
            return
        fd, tmp = tempfile.mkstemp(prefix=".code-", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)       # another server starting at once reads one file or the other
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except (OSError, ValueError) as exc:
        log.debug("%s not written: %s", path, exc)


def _load(path: str) -> dict:
    data = read_private(path)
    if data is None:
        return {}
    try:
        magic, entries = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return {}
    if magic != _MAGIC or not isinstance(entries, dict):
        return {}
    return entries


def _save(path: str, entries: dict) -> None:
    try:
        data = marshal.dumps((_MAGIC, entries))
    except ValueError as exc:
        log.debug("code cache not written: %s", exc)
        return
    write_private(path, data)


@contextlib.contextmanager
def kept(folder: str | None) -> Iterator[None]:
    """Within this block, ``compile(source, filename, mode)`` answers from the cache in
    ``folder`` (None: no cache).  Only for a start-up import: no other thread may be
    compiling meanwhile, as ``builtins.compile`` is replaced until the block ends."""
    if folder is None:
        yield
        return
    path = cache_file(folder)
    known = _load(path)
    used: dict = {}
    new = 0
    real = builtins.compile

    def compile_kept(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **kwargs):
        nonlocal new
        if not isinstance(source, str) or flags or dont_inherit or optimize != -1 or kwargs:
            return real(source, filename, mode, flags, dont_inherit, optimize, **kwargs)
        # what compile() would inherit: the future statements of the calling module
        inherited = sys._getframe(1).f_code.co_flags & _FUTURE_FLAGS
        key = (source, str(filename), mode, inherited)
        code = known.get(key)
        if not isinstance(code, types.CodeType):
            code = real(source, filename, mode, inherited, True)
            new += 1
        used[key] = code
        return code

    builtins.compile = compile_kept
    try:
        yield
    finally:
        builtins.compile = real
        if used and new > REWRITE_SHARE * len(used):
            _save(path, used)
