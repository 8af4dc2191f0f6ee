"""A worker process of the indexer (``python -m puppet_ls.server.index_worker [CACHE_FOLDER]``):
reads a ``marshal``-ed list of (path, module, role, cache key, file bytes) items on stdin,
indexes each, stores each entry in the cache folder when one is named, and writes the list of
stored forms (``None`` for a file that failed) on stdout.

A plain child process, not ``multiprocessing``: that would import the parent's ``__main__``
again in every worker (the language server, a test runner, a ``-c`` script that has no file),
while this imports only the indexer.
"""
from __future__ import annotations

import marshal
import os
import sys

from .pipes import write_all
from .lifetime import die_with_parent
from .workspace import _index_batch


def main() -> int:
    # A server killed while its workers parse must not leave them running a batch of seconds.
    parent = os.environ.get("PUPPET_LS_PARENT_PID", "")
    if parent.isdigit():
        die_with_parent(int(parent))
    items = marshal.loads(sys.stdin.buffer.read())
    cache_root = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else None
    write_all(sys.stdout.buffer, marshal.dumps(_index_batch(items, cache_root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
