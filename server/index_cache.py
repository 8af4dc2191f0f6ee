"""The persistent index cache: what ``index_source`` found in a file, kept on disk between runs so
that a workspace whose files did not change is indexed without parsing anything.

One entry per indexed file, named by the hash of everything the entry depends on: the file's
bytes, its path (entities record it), its module and role, the puppet-ls version, this module's
format version and the Python version (``marshal``'s format may change between them).  A file
that changes gets a new name, so an entry is never updated in place.  ``puppet-ls check`` keeps
its results here too, under keys of its own (``get_blob``/``put_blob``).

The entries of one version live in one SQLite database (the standard library's ``sqlite3``) in
the cache folder, ``cache-v<format>-<version>.sqlite3``: creating a file costs about half a
millisecond of CPU on the machines measured, so one file per entry made a cold index of the
corpus modules write for ~1.7 s; a transaction of thousands of rows costs ~50 ms.  Writes are
buffered and committed in batches (``flush``, ``close``); SQLite's locking lets several servers,
their index workers and ``puppet-ls check`` share the database, and a process killed mid-write
leaves the last committed state.

The folder: ``$PUPPET_LS_CACHE_DIR``, else the ``index.cacheDir`` setting, else
``$XDG_CACHE_HOME/puppet-ls``, else ``~/.cache/puppet-ls``.  ``prune`` removes other versions'
databases (and the per-entry folders of older puppet-ls versions) and entries not used for
``STALE_DAYS`` (a hit refreshes an entry's day at most once a day).  Every failure (an
unreadable folder, a damaged database, a truncated or foreign entry, a locked or full disk) is
a cache miss, never an error: the cache only ever saves time.

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
import sqlite3
import sys
import threading
import time

from puppet_ls.language.check.env import Entity, ParamSig
from puppet_ls.language.ide.index import FileEntry

from . import __version__

log = logging.getLogger("puppet-ls")

FORMAT = 3      # 3: one SQLite database per version (2: a file per entry)
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
    return user_folder()


def user_folder() -> str:
    """puppet-ls's folder in the user's own cache: ``$XDG_CACHE_HOME/puppet-ls``, else
    ``~/.cache/puppet-ls``."""
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


_PARAMS_AT = _ENTITY_FIELDS.index("params")


def _frozen(cls, names: tuple, values) -> object:
    """An instance of the frozen dataclass ``cls`` with these field values, made without its
    ``__init__`` (which sets each field through ``object.__setattr__``: most of the time of
    reading an index back, ~28 µs an entity; neither class has a ``__post_init__``)."""
    obj = object.__new__(cls)
    obj.__dict__.update(zip(names, values))
    return obj


def _entity(t: tuple) -> Entity:
    values = list(t)
    values[_PARAMS_AT] = tuple(_frozen(ParamSig, _PARAM_FIELDS, p) for p in values[_PARAMS_AT])
    return _frozen(Entity, _ENTITY_FIELDS, values)      # type: ignore[return-value]


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


_FLUSH_EVERY = 2000     # buffered writes committed together (a cold corpus index: ~2,400)
_BUSY_SECONDS = 5.0     # how long a write waits for another process's transaction


def _today(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // _DAY)


class IndexCache:
    """The entries of one cache folder, for the running version.  One instance per thread
    (its connection is made on first use and guarded by a lock all the same)."""

    def __init__(self, folder: str):
        self.root = folder
        self.file = os.path.join(folder, f"cache-v{FORMAT}-{__version__}.sqlite3")
        self.hits = 0
        self.misses = 0
        self._db: sqlite3.Connection | None = None
        self._broken = False        # the database cannot be used: every get misses, puts are dropped
        self._pending: dict = {}    # key -> bytes, not yet committed
        self._touch: set = set()    # keys hit whose day is to be refreshed
        self._lock = threading.Lock()

    def key(self, path: str, module: str, role: str, data: bytes) -> str:
        h = hashlib.blake2b(digest_size=20)
        for part in (_SHAPE, __version__, path, module, role):
            h.update(part.encode("utf-8", "surrogateescape") + b"\0")
        h.update(data)
        return h.hexdigest()

    def _connect(self) -> sqlite3.Connection | None:
        """The database, opened (and made) on first use; None when it cannot be used.  A file
        that is not a database (damaged, or something else under that name) is replaced."""
        if self._db is not None or self._broken:
            return self._db
        for attempt in (1, 2):
            db = None
            try:
                os.makedirs(self.root, exist_ok=True)
                db = sqlite3.connect(self.file, timeout=_BUSY_SECONDS, isolation_level=None,
                                     check_same_thread=False)
                # WAL: readers never wait for a writer (not on every file system: then the
                # default rollback journal stays, which is only slower)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("CREATE TABLE IF NOT EXISTS entries "
                           "(key TEXT PRIMARY KEY, data BLOB NOT NULL, used INTEGER NOT NULL) WITHOUT ROWID")
                self._db = db
                return db
            except (OSError, sqlite3.Error) as e:
                if db is not None:
                    db.close()
                damaged = isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError)
                if damaged and attempt == 1:
                    log.info("index cache: %s is damaged (%s); starting it again", self.file, e)
                    self._remove_files()
                    continue
                log.debug("index cache: cannot use %s: %s", self.file, e)
                break
        self._broken = True
        return None

    def _failed(self, e: Exception) -> None:
        log.debug("index cache: %s failed: %s", self.file, e)
        if isinstance(e, sqlite3.DatabaseError) and not isinstance(e, sqlite3.OperationalError):
            # damaged under us: unusable for this run, and removed so that the next starts again
            self._broken = True
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None
            self._remove_files()

    def _remove_files(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(self.file + suffix)

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
        with self._lock:
            data = self._pending.get(key)
            if data is not None:
                return data
            db = self._connect()
            if db is None:
                return None
            try:
                row = db.execute("SELECT data, used FROM entries WHERE key = ?", (key,)).fetchone()
            except sqlite3.Error as e:
                self._failed(e)
                return None
            if row is None or not isinstance(row[0], bytes):
                return None
            if row[1] != _today():     # keep used entries from being pruned as stale
                self._touch.add(key)
            return row[0]

    def put_blob(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key``: buffered, committed by ``flush`` (every
        ``_FLUSH_EVERY`` entries, and when the caller is done)."""
        with self._lock:
            self._pending[key] = data
            self._touch.discard(key)
            full = len(self._pending) >= _FLUSH_EVERY
        if full:
            self.flush()

    def flush(self) -> None:
        """Commit the buffered writes and day refreshes in one transaction."""
        with self._lock:
            pending, touch = self._pending, self._touch
            if not pending and not touch:
                return
            self._pending, self._touch = {}, set()
            db = self._connect()
            if db is None:
                return
            today = _today()
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    db.executemany("INSERT OR REPLACE INTO entries (key, data, used) VALUES (?, ?, ?)",
                                   [(k, v, today) for k, v in pending.items()])
                    db.executemany("UPDATE entries SET used = ? WHERE key = ?", [(today, k) for k in touch])
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as e:     # locked for too long, read-only, full disk: these are lost
                self._failed(e)

    def close(self) -> None:
        """Flush, and close the database (the object may be used again: it reopens)."""
        self.flush()
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.close()
                self._db = None

    def prune(self, now: float | None = None) -> int:
        """Remove other versions' databases (and older puppet-ls versions' per-entry folders)
        and entries unused for ``STALE_DAYS``; the number of entries (or files and folders)
        removed."""
        self.flush()
        removed = 0
        try:
            names = os.listdir(self.root)
        except OSError:
            return 0
        mine = os.path.basename(self.file)
        for name in names:
            p = os.path.join(self.root, name)
            if name.startswith("index-v"):         # the per-entry folders of FORMAT 2 and before
                shutil.rmtree(p, ignore_errors=True)
                removed += 1
            elif name.startswith("cache-v") and name.split(".sqlite3")[0] + ".sqlite3" != mine:
                with contextlib.suppress(OSError):
                    os.unlink(p)
                    removed += name.endswith(".sqlite3")
        with self._lock:
            db = self._connect()
            if db is None:
                return removed
            try:
                cur = db.execute("DELETE FROM entries WHERE used < ?", (_today(now) - STALE_DAYS,))
                removed += max(cur.rowcount, 0)
            except sqlite3.Error as e:
                self._failed(e)
        return removed
