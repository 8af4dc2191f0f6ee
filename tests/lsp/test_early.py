"""The early front (server/early.py): what it answers before pygls is loaded is what the server
answers, and it answers only from the server's own answer to ``initialize`` for the same
capabilities.

In process, a table of message sequences -> the requests the front answers and the messages it
keeps for the server, in order.  End to end, the same hovers asked of a server with the front
turned off (after its index is complete) and of a server started with the front: equal answers,
equal ``initialize`` results, and the second one says in its log that the front answered."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from puppet_ls.server import early, framing

SERVER = [sys.executable, "-m", "puppet_ls.server.cli", "--stdio"]

INIT_CLASS = """class demo (String $greeting = 'hi') {
  contain demo::install
  $doubled = [1, 2].map |$x| { $x * 2 }
  notify { 'greet': message => $greeting }
  package { 'demo': ensure => installed }
}
"""
INSTALL_CLASS = """# Installs the demo package.
class demo::install (String $version = 'latest') {
  package { 'demo-tools': ensure => $version }
}
"""
# (line, column) in INIT_CLASS: a class of the same module (from the index), a keyword, a
# resource type, an attribute, a function, variables (their value needs the evaluator), a
# parameter's type, nothing
HOVERS = [(1, 12), (1, 3), (4, 4), (4, 20), (2, 18), (2, 5), (3, 34), (0, 15), (0, 45), (5, 0)]


def _caps(markdown: bool = True, progress: bool = True) -> dict:
    return {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"] if markdown else ["plaintext"]}},
            "window": {"workDoneProgress": progress},
            "general": {"positionEncodings": ["utf-16"]}}


# ---- in process -----------------------------------------------------------------------------------

class _Reader:
    """The front's input: the messages of a table row, then nothing."""

    def __init__(self, messages: list) -> None:
        self.messages = list(messages)

    def take(self, timeout=None):
        return self.messages.pop(0) if self.messages else None


class _Writer:
    def __init__(self) -> None:
        self.sent: list = []

    def write(self, data: bytes) -> None:
        self.sent += [json.loads(body) for kind, body in framing.FrameParser().feed(data) if kind == "body"]


def _workspace(tmp: Path) -> Path:
    root = tmp / "repo"
    (root / "modules" / "demo" / "manifests").mkdir(parents=True)
    (root / "environment.conf").write_text("modulepath = modules\n")
    (root / "modules" / "demo" / "manifests" / "init.pp").write_text(INIT_CLASS)
    (root / "modules" / "demo" / "manifests" / "install.pp").write_text(INSTALL_CLASS)
    return root


def _uri(path: Path) -> str:
    return path.as_uri()


def _init(root: Path, caps: dict, msg_id=1) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize",
            "params": {"processId": None, "rootUri": _uri(root), "capabilities": caps}}


def _open(path: Path, text: str) -> dict:
    return {"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": _uri(path), "languageId": "puppet", "version": 1, "text": text}}}


def _hover(msg_id, path: Path, line, character) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": _uri(path)}, "position": {"line": line, "character": character}}}


def _note(method: str, params=None) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params if params is not None else {}}


def _row(name: str, root: Path) -> tuple:
    """(messages after initialize, ids the front answers, what it keeps after initialize)."""
    init_pp = root / "modules" / "demo" / "manifests" / "init.pp"
    opened = [_note("initialized"), _open(init_pp, INIT_CLASS)]
    rows = {
        # a class of the module, a keyword: answered; a variable's value needs the evaluator
        "answers what needs no evaluation": (
            [*opened, _hover(2, init_pp, 1, 12), _hover(3, init_pp, 1, 3), _hover(4, init_pp, 2, 5)],
            [2, 3], ["initialized", "textDocument/didOpen", 4]),
        "a document not opened": (
            [_note("initialized"), _hover(2, init_pp, 1, 12)], [], ["initialized", 2]),
        "params it cannot read are the server's to refuse": (
            [*opened, _hover(2, init_pp, "1", 12), _hover(3, init_pp, 1, True),
             {"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover", "params": None}],
            [], ["initialized", "textDocument/didOpen", 2, 3, 4]),
        "an edit: that document's hovers wait": (
            [*opened, _note("textDocument/didChange", {"textDocument": {"uri": _uri(init_pp), "version": 2},
                                                       "contentChanges": [{"text": "class demo {}\n"}]}),
             _hover(2, init_pp, 1, 12)],
            [], ["initialized", "textDocument/didOpen", "textDocument/didChange", 2]),
        "new settings: it stops": (
            [*opened, _note("workspace/didChangeConfiguration", {"settings": {"puppet": {}}}),
             _hover(2, init_pp, 1, 12)],
            [], ["initialized", "textDocument/didOpen", "workspace/didChangeConfiguration", 2]),
        "shutdown: it stops": (
            [*opened, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, _hover(3, init_pp, 1, 12)],
            [], ["initialized", "textDocument/didOpen", 2, 3]),
        "other requests are kept in order": (
            [*opened, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
                       "params": {"textDocument": {"uri": _uri(init_pp)}}},
             _hover(3, init_pp, 1, 12), framing.NOT_JSON, _hover(4, init_pp, 1, 3)],
            [3, 4], ["initialized", "textDocument/didOpen", 2, "not JSON"]),
    }
    return rows[name]


ROWS = ["answers what needs no evaluation", "a document not opened", "params it cannot read are the server's to refuse",
        "an edit: that document's hovers wait", "new settings: it stops", "shutdown: it stops",
        "other requests are kept in order"]


def _label(m) -> object:
    if m is framing.NOT_JSON:
        return "not JSON"
    return m["id"] if "id" in m else m["method"]


@pytest.mark.parametrize("name", ROWS)
def test_front_table(name, tmp_path, monkeypatch):
    monkeypatch.setenv("PUPPET_LS_CODE_CACHE_DIR", str(tmp_path / "code"))
    monkeypatch.setenv("PUPPET_LS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(early.ENV_VAR, raising=False)
    root = _workspace(tmp_path)
    init = _init(root, _caps())
    answer = {"capabilities": {"hoverProvider": True, "positionEncoding": "utf-16"}}
    early.keep_initialize_answer(init["params"], answer, None)
    messages, answered, kept = _row(name, root)
    writer = _Writer()
    front = early.Front(_Reader([]), writer, framing.Lifetime())   # type: ignore[arg-type]
    front._initialize(init)
    for m in messages:
        front._handle(m)
    assert writer.sent[0] == {"jsonrpc": "2.0", "id": 1, "result": answer}
    assert [m["id"] for m in writer.sent[1:]] == answered
    assert all(m["result"] is not None for m in writer.sent[1:])
    assert [_label(m) for m in front.handover()] == [1, *kept]


def test_no_answer_kept_for_these_capabilities(tmp_path, monkeypatch):
    monkeypatch.setenv("PUPPET_LS_CODE_CACHE_DIR", str(tmp_path / "code"))
    root = _workspace(tmp_path)
    early.keep_initialize_answer(_init(root, _caps())["params"], {"capabilities": {}}, None)
    writer = _Writer()
    front = early.Front(_Reader([]), writer, framing.Lifetime())   # type: ignore[arg-type]
    front._initialize(_init(root, _caps(markdown=False)))
    front._handle(_note("initialized"))
    assert writer.sent == [] and front.passive
    assert [_label(m) for m in front.handover()] == [1, "initialized"]


# ---- end to end ---------------------------------------------------------------------------------------

class _Client:
    def __init__(self, env: dict, log: Path) -> None:
        self.log = log.open("wb")
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                     bufsize=0, env=env)
        self.inbox: queue.Queue = queue.Queue()
        self.seen: list = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        parser = framing.FrameParser()
        while True:
            data = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not data:
                self.inbox.put(None)
                return
            for kind, body in parser.feed(data):
                if kind == "body":
                    self.inbox.put(json.loads(body))

    def send(self, obj: dict) -> None:
        self.proc.stdin.write(framing.encode(obj))

    def wait(self, pred, timeout: float = 30.0) -> dict:
        for m in self.seen:
            if pred(m):
                return m
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                m = self.inbox.get(timeout=0.1)
            except queue.Empty:
                continue
            assert m is not None, "the server closed its output"
            if m.get("method") == "window/workDoneProgress/create":
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            elif m.get("method") == "workspace/configuration":
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": [None]})
            elif m.get("method") == "client/registerCapability":
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            self.seen.append(m)
            if pred(m):
                return m
        raise AssertionError("no such message within the time")

    def close(self) -> int:
        self.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
        self.wait(lambda m: m.get("id") == "bye")
        self.send({"jsonrpc": "2.0", "method": "exit"})
        code = self.proc.wait(30)
        self.log.close()
        return code


def _session(root: Path, env: dict, log: Path, wait_index: bool) -> tuple:
    """(initialize result, hover results) of one server."""
    init_pp = root / "modules" / "demo" / "manifests" / "init.pp"
    c = _Client(env, log)
    c.send(_init(root, _caps()))
    result = c.wait(lambda m: m.get("id") == 1)["result"]
    c.send(_note("initialized"))
    c.send(_open(init_pp, INIT_CLASS))
    if wait_index:
        c.wait(lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "end")
    for i, (line, col) in enumerate(HOVERS):
        c.send(_hover(100 + i, init_pp, line, col))
    hovers = [c.wait(lambda m, i=i: m.get("id") == 100 + i)["result"] for i in range(len(HOVERS))]
    assert c.close() == 0
    return result, hovers


def test_early_answers_equal_the_servers(tmp_path):
    root = _workspace(tmp_path)
    env = {**os.environ, "PUPPET_LS_CODE_CACHE_DIR": str(tmp_path / "code"),
           "PUPPET_LS_CACHE_DIR": str(tmp_path / "cache")}
    late_init, late = _session(root, {**env, early.ENV_VAR: "1"}, tmp_path / "late.log", wait_index=True)
    early_init, first = _session(root, env, tmp_path / "early.log", wait_index=False)
    log = (tmp_path / "early.log").read_text()
    assert "answered initialize and" in log, log[-2000:]
    answered = int(log.split("answered initialize and ")[1].split()[0])
    assert answered >= 1, log[-2000:]
    assert "differed" not in log
    assert early_init == late_init
    assert first == late
    # the class of the module, from the index, and the plain answers
    assert "class demo::install" in first[0]["contents"]["value"]
    assert sum(h is not None for h in first) >= 6


def _symbols(root: Path, env: dict, log: Path, builds: bool) -> tuple:
    """(the log, every workspace symbol) of a server once its index is complete."""
    init_pp = root / "modules" / "demo" / "manifests" / "init.pp"
    c = _Client(env, log)
    c.send(_init(root, _caps()))
    c.wait(lambda m: m.get("id") == 1)
    c.send(_note("initialized"))
    c.send(_open(init_pp, INIT_CLASS))
    c.wait(lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "end")
    c.send({"jsonrpc": "2.0", "id": 7, "method": "workspace/symbol", "params": {"query": ""}})
    found = c.wait(lambda m: m.get("id") == 7)["result"]
    end = time.monotonic() + 30
    while builds and "index cache" not in log.read_text() and time.monotonic() < end:
        time.sleep(0.05)        # the snapshot is kept after the index is complete
    assert c.close() == 0
    creates = [m["id"] for m in c.seen if m.get("method") == "window/workDoneProgress/create"]
    return log.read_text(), sorted(json.dumps(s, sort_keys=True) for s in found), creates


def test_the_kept_index_is_taken_before_the_server_is_loaded(tmp_path):
    root = _workspace(tmp_path)
    # files written within the file system clock's last ticks are not trusted (index_snapshot)
    time.sleep(2.1)
    env = {**os.environ, "PUPPET_LS_CODE_CACHE_DIR": str(tmp_path / "code"),
           "PUPPET_LS_CACHE_DIR": str(tmp_path / "cache")}
    built_log, built, _ = _symbols(root, {**env, early.ENV_VAR: "1"}, tmp_path / "built.log", True)
    assert "from its snapshot" not in built_log
    taken_log, taken, creates = _symbols(root, env, tmp_path / "taken.log", False)
    assert "the workspace index from its snapshot: 2 files" in taken_log, taken_log[-2000:]
    assert taken == built and len(built) >= 2
    # the server took the front's index: no indexing of its own was reported
    assert len(creates) == 1 and creates[0].startswith(early.REQUEST_PREFIX), creates


def test_the_front_never_loads_the_protocol_library():
    """What the front imports before it answers (its module, the engine, the server's state
    and hover) loads neither lsprotocol nor pygls's protocol: that is its whole point."""
    code = ("import sys\n"
            "from puppet_ls.server import core, documents, early, index_snapshot, positions, workspace\n"
            "from puppet_ls.language import check\n"
            "print(sorted(m for m in sys.modules if m.startswith(('lsprotocol', 'pygls.protocol', 'pygls.lsp', 'cattrs'))))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout
