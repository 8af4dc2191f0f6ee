"""``puppet-ls --tcp HOST:PORT``: one client over a socket gets the same server, and the
process exits (code 0) after shutdown + exit, leaving nothing behind."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import time


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _send(sock, msg) -> None:
    body = json.dumps(msg).encode()
    sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def _recv(sock) -> dict:
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        chunk = sock.recv(1)
        assert chunk, "connection closed"
        head += chunk
    n = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
    body = b""
    while len(body) < n:
        body += sock.recv(n - len(body))
    return json.loads(body)


def test_tcp_session() -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "puppet_ls.server.cli", "--tcp", f"127.0.0.1:{port}"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen"
                time.sleep(0.1)
        with sock:
            _send(sock, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"processId": None, "rootUri": None, "capabilities": {}}})
            assert "hoverProvider" in _recv(sock)["result"]["capabilities"]
            _send(sock, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
            _send(sock, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file:///tmp/tcp.pp", "languageId": "puppet", "version": 1, "text": "class a { notice($x) }\n"}}})
            while True:
                msg = _recv(sock)
                if msg.get("method") == "textDocument/publishDiagnostics":
                    assert [d["code"] for d in msg["params"]["diagnostics"]] == \
                        ["documentation", "autoloader_layout", "UNDEFINED_VARIABLE", "variable_scope"]
                    break
            _send(sock, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
            while _recv(sock).get("id") != 2:
                pass
            _send(sock, {"jsonrpc": "2.0", "method": "exit"})
            assert proc.wait(timeout=10) == 0
        assert proc.stdout.read() == b""      # nothing but the protocol, and that went to the socket
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
