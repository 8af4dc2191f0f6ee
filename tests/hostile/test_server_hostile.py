"""The language server survives hostile clients and hostile files, end to end over raw pipes:
its lifetime (exit codes, stdin EOF, the editor's death), requests with invalid params (a
table: request -> expected error code), broken frames, cancellation, runaway previews and a
huge document.  Bounds are generous (seconds): they catch hangs, they do not measure speed
(benchmarks/hostile_server.py does)."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

SERVER = [sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]
URI = "file:///hostile/demo.pp"
# Exponential for every backtracking engine, `regex` included (which answers the classic
# /^(a+)+$/ at once): only the deadline stops it.
REGEXP = "$m = '" + "a" * 60 + "!' =~ /^(a|aa)+$/\n"
DEMO = "$d = [1, 2, 3].map |$x| { $x * 2 }\n$w = 'a b'.split(' ')\n"


class Client:
    """A bare LSP client: frames in, JSON messages out (a reader thread fills a queue)."""

    def __init__(self, options=None, process_id=None, env=None):
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0, env=env)
        self.inbox: queue.Queue = queue.Queue()
        self.notes: list = []
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": process_id, "rootUri": None, "capabilities": {},
                                    "initializationOptions": options}, timeout=30)
        self.notify("initialized", {})

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            head = out.readline()
            if not head:
                self.inbox.put(None)
                return
            n = int(head.split(b":")[1])
            while out.readline() not in (b"\r\n", b""):
                pass
            self.inbox.put(json.loads(_read_exactly(out, n)))

    def raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)

    def send(self, obj) -> None:
        body = json.dumps(obj).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def start(self, method: str, params="absent") -> int:
        msg_id = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params != "absent":
            msg["params"] = params
        self.send(msg)
        return msg_id

    def answer(self, msg_id, timeout: float = 10.0) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                m = self.inbox.get(timeout=0.05)
            except queue.Empty:
                continue
            if m is None:
                raise AssertionError("the server closed its output")
            if m.get("id") == msg_id and "method" not in m:
                return m
            if "method" in m:
                self.notes.append(m)
        raise AssertionError(f"no answer to request {msg_id} within {timeout} s")

    def request(self, method: str, params="absent", timeout: float = 10.0) -> dict:
        return self.answer(self.start(method, params), timeout)

    def open(self, text: str, uri: str = URI) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "puppet",
                                                              "version": 1, "text": text}})

    def diagnostics(self, uri: str, timeout: float = 10.0) -> list:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for m in self.notes:
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                    return m["params"]["diagnostics"]
            try:
                m = self.inbox.get(timeout=0.05)
            except queue.Empty:
                continue
            if m is not None and "method" in m:
                self.notes.append(m)
        raise AssertionError(f"no diagnostics for {uri} within {timeout} s")

    def exited(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _read_exactly(out, n: int) -> bytes:
    """An unbuffered pipe returns what it has: read until ``n`` bytes."""
    data = b""
    while len(data) < n:
        chunk = out.read(n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _children(pid: int) -> set:
    out = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            pass
    return out


def _hints(client: Client, uri: str = URI, lines: int = 10) -> int:
    return client.start("textDocument/inlayHint", {"textDocument": {"uri": uri},
                                                   "range": {"start": {"line": 0, "character": 0},
                                                             "end": {"line": lines, "character": 0}}})


@pytest.fixture(scope="module")
def client():
    c = Client()
    c.open(DEMO)
    c.diagnostics(URI)
    yield c
    c.kill()


# ---- invalid params: every request gets an answer ----------------------------------------------

POS = {"line": 0, "character": 1}
TD = {"uri": URI}
# (method, params, expected): an error code, or "result" when the spec allows a plain answer.
BAD_REQUESTS = [
    ("textDocument/hover", None, -32602),
    ("textDocument/hover", "absent", -32602),
    ("textDocument/hover", {"textDocument": TD}, -32602),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": -1, "character": 0}}, -32602),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": 0, "character": -5}}, -32602),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": 2 ** 31, "character": 0}}, -32602),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": 0, "character": 2 ** 40}}, -32602),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": "0", "character": 0}}, -32602),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": 0.5, "character": 0}}, -32602),
    ("textDocument/hover", {"textDocument": {"uri": 5}, "position": POS}, -32602),
    ("textDocument/hover", [1, 2], -32602),
    ("textDocument/completion", {"textDocument": TD, "position": POS, "context": {"triggerKind": 99}}, -32602),
    ("textDocument/completion", {"textDocument": TD, "position": POS, "context": {"triggerKind": "x"}}, -32602),
    ("textDocument/definition", {"position": POS}, -32602),
    ("textDocument/references", {"textDocument": TD, "position": POS}, -32602),
    ("textDocument/inlayHint", {"textDocument": TD}, -32602),
    ("textDocument/inlayHint", {"textDocument": TD, "range": {"start": POS}}, -32602),
    ("textDocument/semanticTokens/full", [], -32602),
    ("textDocument/foldingRange", None, -32602),
    ("textDocument/documentSymbol", {"textDocument": None}, -32602),
    ("textDocument/signatureHelp", {"textDocument": TD, "position": {"line": None, "character": 0}}, -32602),
    ("textDocument/codeLens", {"textDocument": "file:///x"}, -32602),
    ("workspace/symbol", {"query": 5}, -32602),
    ("workspace/executeCommand", {"command": 5}, -32602),
    # valid requests about things that do not exist: plain empty answers
    ("textDocument/hover", {"textDocument": {"uri": "file:///nowhere.pp"}, "position": POS}, "result"),
    ("textDocument/hover", {"textDocument": TD, "position": {"line": 2 ** 31 - 1, "character": 0}}, "result"),
    ("textDocument/foldingRange", {"textDocument": {"uri": "not a uri"}}, "result"),
    ("workspace/executeCommand", {"command": "puppet-ls.evaluateSelection", "arguments": ["junk"]}, "result"),
    ("puppet-ls/noSuchMethod", {}, -32601),
]


@pytest.mark.parametrize("method,params,expected", BAD_REQUESTS,
                         ids=[f"{i}-{m}" for i, (m, _, _) in enumerate(BAD_REQUESTS)])
def test_invalid_params_are_answered(client, method, params, expected):
    got = client.request(method, params, timeout=10)
    if expected == "result":
        assert "result" in got and "error" not in got, got
    else:
        assert got.get("error", {}).get("code") == expected, got
    # and the server still works
    assert "result" in client.request("textDocument/hover", {"textDocument": TD, "position": POS})


def test_bad_messages_get_error_responses(client):
    body = b"{not json"
    client.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    got = client.answer(None)
    assert got["error"]["code"] == -32700
    client.send({"jsonrpc": "1.0", "id": 77, "method": "textDocument/hover"})
    assert client.answer(77)["error"]["code"] == -32600


# ---- framing: recover at the next valid header ---------------------------------------------------

def _hover_frame(msg_id: int) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover",
                       "params": {"textDocument": TD, "position": POS}}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _json_frame(length_header: bytes, body: bytes = b'{"jsonrpc": "2.0", "method": "x"}') -> bytes:
    return b"Content-Length: " + length_header + b"\r\n\r\n" + body


BAD_FRAMES = {
    "non-numeric length": _json_frame(b"abc"),
    "negative length": _json_frame(b"-20"),
    "zero length": _json_frame(b"0"),
    "too short": _json_frame(b"10"),
    "too long": _json_frame(b"400"),
    "absurd length": _json_frame(b"1000000000000"),
    "garbage without newline": b"GET / HTTP/1.1 garbage garbage",
    "garbage lines": b"hello\r\nworld\r\n\r\n",
    "header without length": b"Content-Type: application/json\r\n\r\n{}",
}


@pytest.mark.parametrize("name", list(BAD_FRAMES))
def test_bad_frames_are_survived(client, name):
    msg_id = 1000 + list(BAD_FRAMES).index(name)
    client.raw(BAD_FRAMES[name] + _hover_frame(msg_id))
    try:
        got = client.answer(msg_id, timeout=3)
    except AssertionError:
        # the broken frame may swallow the request that follows it; the next one must get through
        client.raw(_hover_frame(msg_id + 100))
        got = client.answer(msg_id + 100, timeout=10)
    assert "result" in got
    assert client.proc.poll() is None


def test_lf_only_headers_are_accepted(client):
    body = json.dumps({"jsonrpc": "2.0", "id": 1200, "method": "textDocument/hover",
                       "params": {"textDocument": TD, "position": POS}}).encode()
    client.raw(b"Content-Length: %d\n\n" % len(body) + body)
    assert "result" in client.answer(1200)


# ---- lifetime ------------------------------------------------------------------------------------

def test_exit_after_shutdown_is_status_0():
    c = Client()
    try:
        assert c.request("shutdown")["result"] is None
        assert c.request("textDocument/hover", {"textDocument": TD, "position": POS})["error"]["code"] == -32600
        c.notify("exit", None)
        assert c.exited(5) == 0
    finally:
        c.kill()


def test_exit_without_shutdown_is_status_1_even_while_evaluating():
    c = Client({"previews": {"timeoutMs": 10000}})
    try:
        c.open(REGEXP)
        _hints(c)
        time.sleep(0.5)
        c.notify("exit", None)
        assert c.exited(5) == 1
    finally:
        c.kill()


def test_stdin_eof_ends_the_server_and_its_worker():
    c = Client({"previews": {"timeoutMs": 10000}})
    try:
        c.open(REGEXP)
        _hints(c)
        # (the server may still be loading: its hints start the worker once it is)
        deadline = time.monotonic() + 10
        while not (workers := _children(c.proc.pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert workers, "the evaluation worker is not running"
        time.sleep(0.3)     # the runaway evaluation under way
        c.proc.stdin.close()
        assert c.exited(5) is not None
        time.sleep(0.5)
        for pid in workers:
            assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[1][:3]
    finally:
        c.kill()


def test_death_of_the_editor_process_ends_the_server():
    editor = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    c = Client({"previews": {"timeoutMs": 10000}}, process_id=editor.pid)
    try:
        c.open(REGEXP)
        _hints(c)
        time.sleep(0.3)
        editor.kill()        # left unreaped on purpose: a zombie counts as dead
        assert c.exited(5) is not None
    finally:
        editor.wait()
        c.kill()


# ---- runaway previews and cancellation -----------------------------------------------------------

def test_runaway_preview_is_stopped_and_other_requests_are_answered():
    c = Client()
    try:
        c.open(REGEXP + DEMO)
        c.diagnostics(URI)
        t0 = time.monotonic()
        hints = _hints(c)
        done = c.request("textDocument/completion", {"textDocument": TD, "position": {"line": 1, "character": 1}})
        assert "result" in done
        got = c.answer(hints, timeout=5)
        assert time.monotonic() - t0 < 5
        # the runaway (line 0) has no hint; the others may be missing while the worker restarts
        assert all(h["position"]["line"] >= 1 for h in got["result"]), got["result"]
        # asked again (as editors do after an edit): answered, the known runaway not rerun
        again = c.answer(_hints(c), timeout=5)
        assert [h["label"] for h in again["result"]] == ["⟶ [2, 4, 6]", "⟶ ['a', 'b']"]
    finally:
        c.kill()


def test_cancel_request_stops_a_running_evaluation():
    c = Client({"previews": {"timeoutMs": 10000}})
    try:
        c.open(REGEXP + DEMO)
        c.diagnostics(URI)
        # a hover with a value: the worker is up (waiting for its start-up)
        hover = c.request("textDocument/hover", {"textDocument": TD, "position": {"line": 1, "character": 1}})
        assert "[2, 4, 6]" in hover["result"]["contents"]["value"]
        before = _children(c.proc.pid)
        msg_id = _hints(c)
        time.sleep(0.5)
        t0 = time.monotonic()
        c.notify("$/cancelRequest", {"id": msg_id})
        got = c.answer(msg_id, timeout=5)
        assert time.monotonic() - t0 < 5
        assert got.get("error", {}).get("code") == -32800 or got.get("result") == [], got
        deadline = time.monotonic() + 5
        while before & _children(c.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not before & _children(c.proc.pid), "the busy worker was not killed"
        assert "result" in c.request("textDocument/hover", {"textDocument": TD, "position": POS})
    finally:
        c.kill()


# ---- huge documents ------------------------------------------------------------------------------

def test_huge_document_gets_one_diagnostic_and_prompt_answers():
    c = Client()
    try:
        uri = "file:///hostile/huge.pp"
        c.open("$a = [" + ",".join(["1"] * 2_500_000) + "]\n", uri)
        diags = c.diagnostics(uri, timeout=20)
        assert [d["code"] for d in diags] == ["DOCUMENT_TOO_LARGE"]
        for method in ("textDocument/semanticTokens/full", "textDocument/foldingRange",
                       "textDocument/documentSymbol"):
            assert "result" in c.request(method, {"textDocument": {"uri": uri}}, timeout=10)
        assert c.answer(_hints(c, uri), timeout=10)["result"] == []
        assert "result" in c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": POS})
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": DEMO}]})
        c.notes.clear()
        assert c.diagnostics(uri, timeout=10) == []        # small again: analysed again
    finally:
        c.kill()


def test_unknown_capability_values_do_not_prevent_start():
    c = Client.__new__(Client)
    c.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, bufsize=0)
    c.inbox, c.notes, c.next_id = queue.Queue(), [], 1
    threading.Thread(target=c._read, daemon=True).start()
    try:
        caps = {"textDocument": {"documentSymbol": {"symbolKind": {"valueSet": [1, 2, 99]}},
                                 "hover": {"contentFormat": ["markdown", "html"]}}}
        got = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": caps}, timeout=30)
        assert "capabilities" in got["result"]
        c.notify("initialized", {})
        c.open(DEMO)
        assert "result" in c.request("textDocument/documentSymbol", {"textDocument": TD})
    finally:
        c.kill()


def test_an_index_worker_ends_with_the_server_that_started_it():
    """A server killed (SIGKILL: no clean-up runs) while an indexing worker parses a long batch
    must not leave the worker to finish it: the worker is started the way the indexer starts
    it, given a batch of minutes of parsing, and its starter is killed."""
    starter = subprocess.Popen(
        [sys.executable, "-c", (
         "import os, subprocess, sys, time\n"
         "from puppet_ls.server.pipes import send_message\n"
         "from puppet_ls.server.workspace import WORKER_COMMAND\n"
         "p = subprocess.Popen([*WORKER_COMMAND, ''], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,\n"
         "                     env={**os.environ, 'PUPPET_LS_PARENT_PID': str(os.getpid())})\n"
         "code = ''.join(f'class m::c{i} {{ file {{ \"/f{i}\": ensure => present }} }}\\n' for i in range(2000))\n"
         "send_message(p.stdin, [(f'/m/manifests/c{k}.pp', 'm', 'manifest', '', code.encode())\n"
         "                       for k in range(1000)])\n"
         "p.stdin.close()\n"
         "print(p.pid, flush=True)\n"
         "time.sleep(600)\n")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert starter.stdout is not None
        worker = int(starter.stdout.readline())
        time.sleep(1.0)                # the worker is parsing its batch
        assert _alive(worker)
        starter.kill()
        starter.wait()
        deadline = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(worker), "the index worker outlived the server that started it"
    finally:
        starter.kill()


def _alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        return "Z" not in stat.read_text().split(")")[1][:3]
    except OSError:
        return False
