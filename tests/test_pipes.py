"""Framed messages between the server (or `check`) and its worker processes (server/pipes.py),
over a real pipe: what is sent comes back, and a frame that is cut short, too large or not
marshal is refused without the reader allocating what its header claims."""
from __future__ import annotations

import os
import struct
import threading
import tracemalloc

import pytest

from puppet_ls.server.pipes import READ_CHUNK, receive_message, send_message


def pipe_with(data: bytes):
    """A buffered reader of a pipe that holds ``data`` and then ends."""
    r, w = os.pipe()

    def feed() -> None:
        with os.fdopen(w, "wb") as out:
            out.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return os.fdopen(r, "rb")


MESSAGES = [None, 0, "text", ("indexed", 3, b"\x00" * 10, True, ()), [b"x" * (3 * READ_CHUNK + 7)], {"a": [1.5]}]


def test_messages_come_back_in_order() -> None:
    r, w = os.pipe()
    with os.fdopen(w, "wb") as out:
        writer = threading.Thread(target=lambda: [send_message(out, m) for m in MESSAGES])
        writer.start()
        with os.fdopen(r, "rb") as inp:
            got = [receive_message(inp) for _ in MESSAGES]
            writer.join()
            out.close()
            assert receive_message(inp) is None     # the end
    assert got == MESSAGES


REFUSED = [
    (b"", "nothing"),
    (b"\x05\x00", "a header cut short"),
    (struct.pack("<I", 100) + b"abc", "a body cut short"),
    (struct.pack("<I", 4) + b"\xff\xff\xff\xff", "a body that is not marshal"),
    (struct.pack("<I", 0), "an empty body"),
]


@pytest.mark.parametrize("data,what", REFUSED, ids=[r[1] for r in REFUSED])
def test_broken_frames_are_refused(data: bytes, what: str) -> None:
    with pipe_with(data) as inp:
        assert receive_message(inp) is None


def test_a_frame_over_the_limit_is_refused_unread() -> None:
    with pipe_with(struct.pack("<I", 2000) + b"x" * 2000) as inp:
        assert receive_message(inp, limit=1000) is None


def test_a_large_header_does_not_allocate_what_it_claims() -> None:
    # 256 MiB announced, ten bytes sent: a single buffered read of the announced size would
    # allocate it all before finding the end
    with pipe_with(struct.pack("<I", 256 << 20) + b"0123456789") as inp:
        tracemalloc.start()
        try:
            assert receive_message(inp) is None
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 16 << 20
