"""Messages over pipes: writing a whole message (what the language server's transport,
``framing``, and its worker processes share) and length-framed ``marshal`` messages (what the
``check`` and index workers and their parents say to each other).  Kept apart from ``framing``,
which needs asyncio, so that a worker does not import asyncio (25-45 ms of its start) for it."""
from __future__ import annotations

import marshal
import os
import select
import struct
import sys

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


# A framed message larger than this is refused unread (a worker answering rubbish must not make
# its parent allocate what four random bytes say).
MAX_MESSAGE = 1 << 30
READ_CHUNK = 1 << 20


def send_message(stream, message) -> None:
    """Write ``message`` (anything ``marshal`` takes) as one frame: its length, then its bytes."""
    data = marshal.dumps(message)
    write_all(stream, struct.pack("<I", len(data)) + data)


def receive_message(stream, limit: int = MAX_MESSAGE):
    """The next framed message on ``stream`` (None at its end, or for a frame that is cut
    short, larger than ``limit`` or not ``marshal``)."""
    head = stream.read(4)
    if len(head) < 4:
        return None
    (size,) = struct.unpack("<I", head)
    if size > limit:
        return None
    # in pieces: a buffered read of ``size`` bytes allocates them all first, whatever comes
    chunks = []
    left = size
    while left > 0:
        chunk = stream.read(min(left, READ_CHUNK))
        if not chunk:
            return None     # cut short
        chunks.append(chunk)
        left -= len(chunk)
    try:
        return marshal.loads(chunks[0] if len(chunks) == 1 else b"".join(chunks))
    except (EOFError, ValueError, TypeError):
        return None


def answers_stream():
    """A worker's stdout, kept for its framed answers: file descriptor 1 and ``sys.stdout`` go
    to stderr from now on, so that a stray print can never corrupt a frame."""
    stream = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return stream
