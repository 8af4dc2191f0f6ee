"""The persistent index cache: what ``index_source`` found in a file, kept on disk between runs so
that a workspace whose files did not change is indexed without parsing anything.

One entry per indexed file, named by the hash of everything the entry depends on: the file's
bytes, its path (entities record it), its module and role, the puppet-ls version, this module's
format version and the Python version (``marshal``'s format may change between them).  A file
that changes gets a new name, so an entry is never updated in place; it is written to a temporary
file in the same folder and renamed over the final name, so concurrent writers (two servers, a
server and ``puppet-ls check``) each leave a whole entry and readers never see half of one.

The folder: ``$PUPPET_LS_CACHE_DIR``, else the ``index.cacheDir`` setting, else
``$XDG_CACHE_HOME/puppet-ls``, else ``~/.cache/puppet-ls``; entries live in
``index-v<format>-<version>/`` beneath it, two hex digits of fan-out below that.  ``prune``
removes the folders of other versions and entries not used for ``STALE_DAYS`` (a hit refreshes
an entry's time at most once a day).  Every failure (an unreadable folder, a truncated or
foreign file, a full disk) is a cache miss, never an error: the cache only ever saves time.

Entries are ``marshal``-ed tuples (docs/decisions.md says why not pickle or JSON).
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import marshal
import os
import shutil
import sys
import tempfile
import time

from puppet_ls.language.check.env import Entity, ParamSig
from puppet_ls.language.ide.index import FileEntry

from . import __version__

log = logging.getLogger("puppet-ls")

FORMAT = 2
ENV_VAR = "PUPPET_LS_CACHE_DIR"
STALE_DAYS = 30
_DAY = 86_400.0

_ENTITY_FIELDS = tuple(f.name for f in dataclasses.fields(Entity))
_PARAM_FIELDS = tuple(f.name for f in dataclasses.fields(ParamSig))
# A change to the shape of what is stored changes every key, without anyone having to
# remember to bump FORMAT.
_SHAPE = f"{FORMAT}|{','.join(_ENTITY_FIELDS)}|{','.join(_PARAM_FIELDS)}|{sys.version_info[:2]}"
_MAGIC = "puppet-ls-index"


def default_folder(setting: str | None = None) -> str:
    """Where the cache lives (see the module docstring for the order)."""
    explicit = os.environ.get(ENV_VAR) or setting
    if explicit:
        return os.path.expanduser(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "puppet-ls")


def _entity_tuple(e: Entity) -> tuple:
    values = []
    for name in _ENTITY_FIELDS:
        v = getattr(e, name)
        if name == "params":
            v = tuple(tuple(getattr(p, f) for f in _PARAM_FIELDS) for p in v)
        values.append(v)
    return tuple(values)


def _entity(t: tuple) -> Entity:
    values = dict(zip(_ENTITY_FIELDS, t))
    values["params"] = tuple(ParamSig(*p) for p in values["params"])
    return Entity(**values)


def dumps(entry: FileEntry) -> bytes:
    """The stored form of an entry."""
    return marshal.dumps((_MAGIC, entry.path, entry.module, entry.role,
                          tuple(_entity_tuple(e) for e in entry.entities),
                          tuple(tuple(u) for u in entry.uses), entry.top_variables))


def loads(data: bytes) -> FileEntry | None:
    """The entry ``dumps`` stored, or None for anything else (never raises)."""
    try:
        magic, path, module, role, entities, uses, top = marshal.loads(data)
        if magic != _MAGIC:
            return None
        return FileEntry(path, module, role, [_entity(t) for t in entities], list(uses), frozenset(top))
    except (EOFError, ValueError, TypeError, KeyError, AttributeError):   # a truncated, foreign or older file
        return None


class IndexCache:
    """The entries of one cache folder, for the running version."""

    def __init__(self, folder: str):
        self.root = folder
        self.folder = os.path.join(folder, f"index-v{FORMAT}-{__version__}")
        self.hits = 0
        self.misses = 0
        self._made: set = set()

    def key(self, path: str, module: str, role: str, data: bytes) -> str:
        h = hashlib.blake2b(digest_size=20)
        for part in (_SHAPE, __version__, path, module, role):
            h.update(part.encode("utf-8", "surrogateescape") + b"\0")
        h.update(data)
        return h.hexdigest()

    def _path(self, key: str) -> str:
        return os.path.join(self.folder, key[:2], key[2:])

    def get(self, key: str) -> FileEntry | None:
        data = self.get_blob(key)
        entry = loads(data) if data is not None else None
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        return entry

    def put(self, key: str, entry: FileEntry) -> None:
        self.put_blob(key, dumps(entry))

    def get_blob(self, key: str) -> bytes | None:
        """The bytes stored under ``key`` (None when there are none).  ``puppet-ls check``
        keeps its results per file here too (``server/check_run.py``), under keys of its own."""
        path = self._path(key)
        try:
            with open(path, "rb") as f:
                data = f.read()
                mtime = os.fstat(f.fileno()).st_mtime
        except OSError:
            return None
        if time.time() - mtime > _DAY:   # keep used entries from being pruned as stale
            with contextlib.suppress(OSError):
                os.utime(path)
        return data

    def put_blob(self, key: str, data: bytes) -> None:
        path = self._path(key)
        folder = os.path.dirname(path)
        try:
            if folder not in self._made:
                os.makedirs(folder, exist_ok=True)
                self._made.add(folder)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as e:    # a read-only or full disk: run without the cache
            log.debug("index cache: cannot write %s: %s", path, e)

    def prune(self, now: float | None = None) -> int:
        """Remove other versions' folders and entries unused for ``STALE_DAYS``; the number of
        entries (or folders) removed."""
        now = time.time() if now is None else now
        removed = 0
        try:
            names = os.listdir(self.root)
        except OSError:
            return 0
        mine = os.path.basename(self.folder)
        for name in names:
            if name.startswith("index-v") and name != mine:
                shutil.rmtree(os.path.join(self.root, name), ignore_errors=True)
                removed += 1
        for dirpath, _dirs, files in os.walk(self.folder):
            for name in files:
                p = os.path.join(dirpath, name)
                try:
                    # leftover temporary files of a killed writer are stale after a day
                    limit = _DAY if name.startswith(".tmp-") else STALE_DAYS * _DAY
                    if now - os.stat(p).st_mtime > limit:
                        os.unlink(p)
                        removed += 1
                except OSError:
                    pass
        return removed
