"""A worker process of ``puppet-ls format --jobs N`` (``python -m puppet_ls.server.format_worker``):
reads a ``marshal``-ed (options, max bytes, time limit, paths) on stdin, formats each file as
``format_cli.format_path`` does in the calling process, and writes the list of plain results on
stdout.  A plain child process, for the reasons of ``index_worker.py``; it writes no file: the
parent writes (or diffs) the results in the order of the files.
"""
from __future__ import annotations

import marshal
import os
import sys

from .pipes import write_all
from .lifetime import die_with_parent


def main() -> int:
    parent = os.environ.get("PUPPET_LS_PARENT_PID", "")
    if parent.isdigit():
        die_with_parent(int(parent))
    from .format_cli import format_path, options_of
    options, max_bytes, file_timeout, paths = marshal.loads(sys.stdin.buffer.read())
    fmt = options_of(options)
    write_all(sys.stdout.buffer, marshal.dumps([format_path(p, fmt, max_bytes, file_timeout) for p in paths]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
