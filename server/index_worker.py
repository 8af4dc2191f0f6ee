"""Indexing one file's bytes (``index_one``), and the worker process of the indexer that does it
for batches (``python -m puppet_ls.server.index_worker [CACHE_FOLDER]``): it reads framed
``marshal``-ed lists of (path, module, role, cache key, file bytes) items on stdin
(``pipes.send_message``), indexes each, stores each entry in the cache folder when one is named,
and answers each list with the list of stored forms (``None`` for a file that failed or took
longer than ``FILE_TIMEOUT``: it is left out of the index, with a warning on stderr, the
server's own, which editors show in its log), until its stdin ends.  Batches come as the
indexer reads the files, so that parsing starts before the walk of a large workspace ends.

A plain child process, not ``multiprocessing``: that would import the parent's ``__main__``
again in every worker (the language server, a test runner, a ``-c`` script that has no file),
while this imports only the indexer: not ``workspace`` (the walk and its exclude patterns, whose
configuration reader and pattern library were ~40 ms of every worker's start), which imports
this module instead.
"""
from __future__ import annotations

import gc
import logging
import os
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext

from puppet_ls.language.ide.index import FileEntry, index_source
from puppet_ls.language.syntax.parser import gc_paused

from .deadline import DEFAULT_FILE_TIMEOUT, left_out_of_index
from .index_cache import IndexCache, dumps
from .lifetime import die_with_parent
from .pipes import answers_stream, receive_message, send_message

log = logging.getLogger("puppet-ls")

# A worker's limit on one file (wall clock), as ``puppet-ls check`` has by default: the server
# waits for each batch, so a file that never ended would hold its index back for good.
FILE_TIMEOUT = DEFAULT_FILE_TIMEOUT


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


def time_limited(path: str) -> AbstractContextManager:
    """``index_one``'s guard in a worker: a file over ``FILE_TIMEOUT`` is left out, with a word."""
    return left_out_of_index(path, FILE_TIMEOUT, log.warning)


def index_batch(batch: list, cache: IndexCache | None) -> list:
    """Index (path, module, role, key, bytes) items, each under ``FILE_TIMEOUT``, store them
    in the cache (buffered: the caller closes it), and return each entry in its stored form
    (``marshal`` is the cheapest way back)."""
    out = []
    for path, module, role, key, data in batch:
        # The collector paused for the file, then one young collection: a file's objects are
        # freed by their counts as soon as it is done, save the few cycles of its scopes, so
        # the passes the collector would make over them meanwhile are wasted (~15% of the CPU
        # of indexing the corpus, a loop like this one with and without them).
        with gc_paused():
            entry = index_one(path, module, role, data, time_limited)
            blob = dumps(entry) if entry is not None else None
        gc.collect(0)
        if blob is not None and cache is not None:
            cache.put_blob(key, blob)
        out.append(blob)
    return out


def main() -> int:
    # A server killed while its workers parse must not leave them running a batch of seconds.
    parent = os.environ.get("PUPPET_LS_PARENT_PID", "")
    if parent.isdigit():
        die_with_parent(int(parent))
    cache = IndexCache(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] else None
    answers = answers_stream()
    try:
        while (batch := receive_message(sys.stdin.buffer)) is not None:
            send_message(answers, index_batch(batch, cache))
    finally:
        if cache is not None:
            cache.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
