"""The workspace index of the last complete build, kept whole in the index cache with the state
of every folder and file it was read from, so that a start whose files did not change has its
index at once.

Building the index from the cache still walks the folders, reads and hashes every file and
looks each entry up (~190 ms for the 2,369 files of the corpus workspace); checking the
``os.stat`` of the same folders and files and loading one snapshot takes about half of that,
and the early front (early.py) does it while the protocol library loads.

A snapshot is named by what the build was given (roots, modulepath, the file limit, the
exclusions; ``plan``) and holds the (size, mtime, ctime, inode) of each root, modulepath
folder, folder read and file found, taken before they were read.  Adding, removing or renaming a file changes
its folder's times, writing one changes its own (ctime cannot be set back by a tool), so any
difference means the snapshot is not used and the index is built as usual (from the cache,
which remains the truth: entries named by content).  Like the cache, a snapshot that cannot be
read is simply not used.
"""
from __future__ import annotations

import logging
import marshal
import time

from puppet_ls.language.ide.index import WorkspaceIndex

from .index_cache import IndexCache, dumps, loads
from .workspace import stat_key

log = logging.getLogger("puppet-ls")

_MAGIC = "puppet-ls-index-snapshot-1"
# File systems whose clock ticks once a second or two (ext3, FAT, some network ones) exist.
RACY_SECONDS = 2.0


def plan(roots: list, modulepath: list, max_files: int, exclude_signature: tuple) -> tuple:
    """What an index build was given, as the snapshot's name and the server's comparison."""
    return (tuple(roots), tuple(modulepath), max_files, exclude_signature)


def _key(cache: IndexCache, build: tuple) -> str:
    return cache.key("", "index-snapshot", repr(build), b"")


def take(index: WorkspaceIndex) -> tuple:
    """What ``save`` keeps of a build's index, taken before anything else is added to it (the
    server adds the open documents' entries): cheap, the entries are shared."""
    return (index.complete, index.module_records(), list(index.files.values()))


def save(cache: IndexCache, build: tuple, taken_stamps: list, taken: tuple) -> None:
    """Keep a build's index: ``taken_stamps`` from its ``walked["stamps"]``, ``taken`` from
    ``take``.  A file or folder changed less than ``RACY_SECONDS`` ago may change again
    within the same tick of the file system's clock without its stamp changing: its stamp is
    kept as one that never matches (the next build, later, keeps a usable snapshot)."""
    recent = time.time_ns() - int(RACY_SECONDS * 1e9)
    taken_stamps = [(p, st if st is None or max(st[1], st[2]) < recent else "racy") for p, st in taken_stamps]
    try:
        complete, modules, entries = taken
        data = marshal.dumps((_MAGIC, taken_stamps, (complete, modules, [dumps(e) for e in entries])))
    except ValueError as exc:
        log.debug("index snapshot not kept: %s", exc)
        return
    cache.put_blob(_key(cache, build), data)
    cache.flush()


def load(cache: IndexCache, build: tuple) -> WorkspaceIndex | None:
    """The index kept for ``build`` when no folder or file it was read from changed, else None."""
    blob = cache.get_blob(_key(cache, build))
    if blob is None:
        return None
    try:
        magic, kept_stamps, (complete, modules, entries) = marshal.loads(blob)
        if magic != _MAGIC:
            return None
        for path, stat in kept_stamps:
            if stat_key(path) != stat:
                return None
        index = WorkspaceIndex(complete=complete)
        for name, root, meta in modules:
            index.add_module(name, root, meta)
        for data in entries:
            entry = loads(data)
            if entry is None:
                return None
            index.add(entry)
    except (EOFError, ValueError, TypeError):
        return None
    return index
