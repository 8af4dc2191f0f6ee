"""A language server started over stdio until it has loaded the protocol library: asked to
``initialize`` and to ``shutdown`` (answered by the server itself, never by the early front of
server/early.py), then told to ``exit``.  For tests of what a whole start does."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile

from puppet_ls.server.framing import FrameParser, encode

SERVER = ["-m", "puppet_ls.server.cli", "--stdio"]


def full_start(python_args: tuple = (), env: dict | None = None, timeout: float = 60.0) -> tuple:
    """(exit status, stderr text) of a server started, loaded and shut down."""
    # (stderr to a file: a pipe nobody reads while the server starts may fill and stop it)
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, *python_args, *SERVER], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=log, env=env)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(encode({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
        proc.stdin.write(encode({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        proc.stdin.flush()
        parser = FrameParser()
        answered = False
        while not answered:
            data = proc.stdout.read1(1 << 16)   # type: ignore[attr-defined]
            if not data:
                break
            answered = any(kind == "body" and json.loads(body).get("id") == 2 for kind, body in parser.feed(data))
        proc.stdin.write(encode({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.flush()
        proc.stdout.read()
        proc.wait(timeout)
        log.seek(0)
        err = log.read().decode(errors="replace")
    assert answered, err[-2000:]
    return proc.returncode, err
