"""Indexing one file's bytes (``index_one``), and the worker process of the indexer that does it
for a batch (``python -m puppet_ls.server.index_worker [CACHE_FOLDER]``): it reads a
``marshal``-ed list of (path, module, role, cache key, file bytes) items on stdin, indexes each,
stores each entry in the cache folder when one is named, and writes the list of stored forms
(``None`` for a file that failed) on stdout.

A plain child process, not ``multiprocessing``: that would import the parent's ``__main__``
again in every worker (the language server, a test runner, a ``-c`` script that has no file),
while this imports only the indexer: not ``workspace`` (the walk and its exclude patterns, whose
configuration reader and pattern library were ~40 ms of every worker's start), which imports
this module instead.
"""
from __future__ import annotations

import logging
import marshal
import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from puppet_ls.language.ide.index import FileEntry, index_source

from .index_cache import IndexCache, dumps
from .lifetime import die_with_parent
from .pipes import write_all

log = logging.getLogger("puppet-ls")


def decode(data: bytes) -> str:
    """A source file's text: UTF-8 without its byte order mark, undecodable bytes replaced."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def index_one(path: str, module: str, role: str, data: bytes,
              guard: Callable[[str], AbstractContextManager] | None = None) -> FileEntry | None:
    """The index entry of one file's bytes (None when it failed or ``guard`` stopped it)."""
    try:
        with guard(path) if guard is not None else nullcontext():
            return index_source(path, decode(data), module, role)
        return None     # the guard stopped it (and said so)
    except Exception:   # one odd file must not stop indexing
        log.exception("indexing %s failed", path)
        return None


def index_batch(batch: list, cache_root: str | None) -> list:
    """Index (path, module, role, key, bytes) items, store them in the cache, and return each
    entry in its stored form (``marshal`` is the cheapest way back)."""
    cache = IndexCache(cache_root) if cache_root is not None else None
    out = []
    for path, module, role, key, data in batch:
        entry = index_one(path, module, role, data)
        blob = dumps(entry) if entry is not None else None
        if blob is not None and cache is not None:
            cache.put_blob(key, blob)
        out.append(blob)
    if cache is not None:
        cache.close()
    return out


def main() -> int:
    # A server killed while its workers parse must not leave them running a batch of seconds.
    parent = os.environ.get("PUPPET_LS_PARENT_PID", "")
    if parent.isdigit():
        die_with_parent(int(parent))
    items = marshal.loads(sys.stdin.buffer.read())
    cache_root = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else None
    write_all(sys.stdout.buffer, marshal.dumps(index_batch(items, cache_root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
