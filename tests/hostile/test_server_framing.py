"""The frame parser of the stdio transport (``puppet_ls.server.framing.FrameParser``), fed
byte strings: a table of inputs -> the bodies it yields and how many complaints it logs.  The
end-to-end tests (test_server_hostile.py) check the same through a running server."""
from __future__ import annotations

import pytest

from puppet_ls.server.framing import FrameParser


def frame(body: bytes, length: bytes | None = None, eol: bytes = b"\r\n") -> bytes:
    return b"Content-Length: " + (length if length is not None else str(len(body)).encode()) + eol + eol + body


A = b'{"a":1}'
B = b'{"b":2}'

# name -> (chunks fed in order, bodies expected, number of complaints expected: a refused
# header is one, the body it announced, skipped as garbage, another)
CASES = {
    "one frame": ([frame(A)], [A], 0),
    "two frames in one read": ([frame(A) + frame(B)], [A, B], 0),
    "split anywhere": ([frame(A)[:5], frame(A)[5:20], frame(A)[20:]], [A], 0),
    "content-type first": ([b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(A)], [A], 0),
    "lower-case header name": ([b"content-length: 7\r\n\r\n" + A], [A], 0),
    "LF-only headers": ([frame(A, eol=b"\n")], [A], 0),
    "garbage before": ([b"hello world" + frame(A)], [A], 1),
    "garbage lines before": ([b"junk\r\njunk\r\n\r\n" + frame(A)], [A], 1),
    "non-numeric length": ([frame(A, b"abc") + frame(B)], [B], 2),
    "negative length": ([frame(A, b"-7") + frame(B)], [B], 2),
    "zero length": ([frame(A, b"0") + frame(B)], [B], 2),
    "absurd length": ([frame(A, b"1000000000000") + frame(B)], [B], 2),
    "no length at all": ([b"Content-Type: x\r\n\r\n" + frame(B)], [B], 0),
    "garbage without newline, then nothing": ([b"garbage garbage garbage garbage garbage garbage"], [], 1),
}


@pytest.mark.parametrize("name", list(CASES))
def test_frames(name):
    chunks, bodies, complaints = CASES[name]
    p = FrameParser(max_frame=1 << 20)
    events = []
    for c in chunks:
        events += p.feed(c)
    assert [v for k, v in events if k == "body"] == bodies
    assert len([v for k, v in events if k == "error"]) == complaints


def test_length_too_long_recovers_at_the_next_header():
    p = FrameParser()
    (kind, body), = p.feed(frame(A, b"30") + frame(B))
    # the first frame swallowed the start of the second: not JSON, and it holds a header
    assert kind == "body" and body.startswith(A + b"Content-Length")
    p.reject(body)
    assert p.feed(b"") == [("body", B)]


def test_length_too_long_and_nothing_after_is_given_up_when_input_stalls():
    p = FrameParser()
    assert p.feed(frame(A, b"500") + frame(B)) == []      # waiting for 500 bytes
    events = p.stalled()
    assert [v for k, v in events if k == "body"] == [B]
    assert [k for k, _ in events].count("error") == 1


class _Trickle:
    """A raw stdout (``PYTHONUNBUFFERED``) whose writes take at most ``step`` bytes, as a pipe
    does when a signal interrupts a write larger than its buffer."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.data = bytearray()

    def write(self, chunk) -> int:
        taken = bytes(chunk[:self.step])
        self.data += taken
        return len(taken)

    def flush(self) -> None:
        pass


def test_writer_sends_whole_messages_from_many_threads():
    """Every byte of every message, and no message inside another, when the stream takes a
    little at a time and four threads send at once (pygls's own writer lost the rest)."""
    import threading

    from puppet_ls.server.framing import MessageWriter

    stream = _Trickle(1000)
    writer = MessageWriter(stream)
    messages = [frame(b'{"n":%d,"pad":"%s"}' % (i, b"x" * (7000 + i))) for i in range(40)]

    def send(part):
        for m in part:
            writer.write(m)

    threads = [threading.Thread(target=send, args=(messages[k::4],)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out = FrameParser().feed(bytes(stream.data))
    assert not [x for kind, x in out if kind == "error"]
    bodies = sorted(body for kind, body in out if kind == "body")
    assert bodies == sorted(m.split(b"\r\n\r\n", 1)[1] for m in messages)
