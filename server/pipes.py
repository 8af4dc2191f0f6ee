"""Writing a whole message to a pipe: what the language server's transport (``framing``) and its
worker processes (evaluation, indexing, formatting) share.  Kept apart from ``framing``, which
needs asyncio, so that a worker does not import asyncio (25-45 ms of its start) for it."""
from __future__ import annotations

import select

# How long to wait for a full non-blocking pipe to drain before trying again.
DRAIN_SECONDS = 0.5


def write_all(stream, data: bytes) -> None:
    """Write every byte of ``data`` and flush: a raw file (stdout under ``PYTHONUNBUFFERED``)
    may take only part of it."""
    view = memoryview(data)
    while view:
        n = stream.write(view)
        if n is None:     # a non-blocking pipe that is full: wait until it drains
            select.select([], [stream], [], DRAIN_SECONDS)
            continue
        view = view[n:]
    stream.flush()
