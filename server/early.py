"""The early front of the language server over stdio: answering ``initialize`` and the first
hovers while pygls and lsprotocol load.

Importing ``lsprotocol.types`` and pygls takes ~300 ms, longer than everything else a first
hover needs (the engine's imports, the document's parse and its module's index: ~200 ms).  So
the server starts reading stdin at once, and before and while a thread imports the protocol
library (the import waits until the front is idle: ``Front.run``) this front, with only the
engine (``core.py``), answers what it can answer exactly as the server would, and keeps every
other message, in order, for the server:

* ``initialize`` with the server's own answer to a client with the same capabilities at an
  earlier start (kept in the user's private cache folder, keyed also by this package's source
  files and the protocol library's; ``keep_initialize_answer``); without one the front answers
  nothing;
* ``textDocument/hover`` on an open Puppet document, through ``core.hover_answer`` — unless the
  answer needs the evaluator (a value) or Hiera (a lookup key or class parameter): those wait
  for the server.

The server, once loaded, handles every kept message, ``initialize`` included (its answer is not
sent again, only compared with what was sent and kept for the next start), so its state is
what it would have been without the front.  Anything that makes the front unsure (another
``initialize``, a change of settings or folders, ``shutdown``) stops it answering.
``$PUPPET_LS_NO_EARLY_ANSWERS`` turns it off.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import threading
import time
from types import ModuleType
from typing import Any

from . import __version__, code_cache, framing

log = logging.getLogger("puppet-ls")

ENV_VAR = "PUPPET_LS_NO_EARLY_ANSWERS"
# How long the front waits for ``initialize`` (a client sends it at once) before loading the
# server anyway.
INITIALIZE_WAIT = 0.05
# The front is idle once no message came for this long (a client sends ``initialized`` and its
# first ``didOpen``s right after the answer to ``initialize``) ...
IDLE_WAIT = 0.02
# ... and the server's imports start then, or this long after the answer to initialize at the latest.
LOAD_DELAY = 0.3
# A larger document is left to the server: its parse would hold the front (the server parses
# and analyses in threads of its own).
MAX_TEXT = 200_000
ANSWERS_FILE = "initialize-answers.json"
# The ids of the front's own requests to the client (their answers are dropped).
REQUEST_PREFIX = "puppet-ls-early-"
MAX_ANSWERS = 16
# Messages that change what a hover would say in ways the front does not follow.
_STOPPERS = frozenset({"initialize", "shutdown", "workspace/didChangeConfiguration",
                       "workspace/didChangeWorkspaceFolders", "workspace/didChangeWatchedFiles"})


# ---- the kept answers to initialize --------------------------------------------------------------

def _stamp() -> str:
    """What the answer to initialize depends on besides the client's capabilities: this
    package's version and source files, the protocol library's files, Python's version."""
    import importlib.util
    parts = [__version__, sys.version]
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        # this package's server and language modules (the capabilities come from the first,
        # the semantic tokens' legend from the second): a changed source is another answer
        for folder in (here, os.path.join(os.path.dirname(here), "language")):
            for dirpath, dirnames, filenames in os.walk(folder):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for name in sorted(filenames):
                    if name.endswith(".py"):
                        st = os.stat(os.path.join(dirpath, name))
                        parts.append(f"{dirpath}/{name}:{st.st_mtime_ns}:{st.st_size}")
        for name in ("pygls", "lsprotocol"):
            spec = importlib.util.find_spec(name)
            if spec is None or not spec.origin:
                return ""
            st = os.stat(spec.origin)
            parts.append(f"{spec.origin}:{st.st_mtime_ns}:{st.st_size}")
    except (OSError, ImportError, ValueError):
        return ""
    return "\n".join(parts)


def _key(stamp: str, params: Any) -> str | None:
    if not stamp or not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return None
    try:
        caps = json.dumps(params["capabilities"], sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return None
    return hashlib.sha256(f"{stamp}\n{caps}".encode()).hexdigest()


def _answers_path() -> str | None:
    folder = code_cache.private_folder()
    return os.path.join(folder, ANSWERS_FILE) if folder else None


def _load_answers(path: str) -> dict:
    data = code_cache.read_private(path)
    if data is None:
        return {}
    try:
        answers = json.loads(data)
    except (ValueError, RecursionError):
        return {}
    return answers if isinstance(answers, dict) else {}


def kept_initialize_answer(params: Any) -> dict | None:
    """The server's answer to an earlier ``initialize`` with these capabilities (None: none kept)."""
    path = _answers_path()
    key = _key(_stamp(), params)
    if path is None or key is None:
        return None
    found = _load_answers(path).get(key)
    return found if isinstance(found, dict) else None


def keep_initialize_answer(params: Any, result: Any, sent: dict | None) -> None:
    """Keep the server's answer to ``initialize`` (``params`` as the client sent them) for the
    next start; ``sent`` is what the early front answered (a difference is logged: it means
    the key missed something the answer depends on)."""
    if sent is not None and sent != result:
        log.warning("the early answer to initialize differed from the server's; the server's is kept")
    path = _answers_path()
    key = _key(_stamp(), params)
    if path is None or key is None or not isinstance(result, dict):
        return
    answers = _load_answers(path)
    if answers.get(key) == result:
        return
    answers.pop(key, None)
    answers[key] = result
    while len(answers) > MAX_ANSWERS:       # the oldest first (dicts keep their order)
        answers.pop(next(iter(answers)))
    code_cache.write_private(path, json.dumps(answers).encode())


# ---- the front ----------------------------------------------------------------------------------

class _NeedsEvaluation(Exception):
    """Raised by the front's evaluator: the hover waits for the server."""


class Front:
    """Reads the first messages from ``reader`` while the server loads (``run``), answering
    what it can through ``writer``; ``handover()`` gives the server the rest."""

    def __init__(self, reader: framing.StdinReader, writer: framing.MessageWriter, lifetime: framing.Lifetime):
        self.reader = reader
        self.writer = writer
        self.lifetime = lifetime
        self.kept: list = []                    # messages for the server, in input order
        self.answered_initialize: tuple | None = None     # (id, result) sent
        self.answered_hovers = 0
        self.passive = os.environ.get(ENV_VAR, "") not in ("", "0")
        self.state: Any = None                  # core.ServerState, once the engine is loaded
        self._core: Any = None
        self._documents: Any = None
        self.loaded = threading.Event()         # the server's module is loaded: stop
        self._index_wanted = False
        self.ready_index: tuple | None = None   # (plan, index, seconds) for the server
        self.parsed: dict = {}                  # uri -> Document, at the handover, for the server

    # ---- the loop --------------------------------------------------------------------------
    def run(self) -> ModuleType:
        """Answer until the server's module is loaded; return it."""
        loaded = self.loaded
        found: list = []
        # The server's imports wait until the front has done what the first messages ask of
        # it (their parse, the hover, the index snapshot), or LOAD_DELAY at most: the two
        # threads share one interpreter lock, so each would otherwise take twice as long, and
        # the server, which takes over the front's parses and index, is not ready any sooner.
        go = threading.Event()

        def load() -> None:
            go.wait(LOAD_DELAY)
            try:
                with code_cache.kept(code_cache.private_folder()):
                    from . import lsp
                found.append(lsp)
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread, raised there
                found.append(exc)
            finally:
                loaded.set()
                self.reader.wake()

        first = None if self.passive else self.reader.take(INITIALIZE_WAIT)
        if first is not None:
            self._initialize(first)
        threading.Thread(target=load, name="puppet-ls-load", daemon=True).start()
        while not loaded.is_set():
            if self.passive or self.state is None:
                go.set()
            item = self.reader.take(IDLE_WAIT if not go.is_set() else 0 if self._index_wanted else None)
            if item is not None:
                self._handle(item)
            elif self._index_wanted:
                # nothing else to answer now: the workspace index, if its snapshot holds
                self._index_wanted = False
                self._load_index()
            else:
                go.set()
        if isinstance(found[0], BaseException):
            raise found[0]
        if self.answered_initialize is not None:
            log.info("answered initialize and %d hover(s) before the server was loaded", self.answered_hovers)
        return found[0]

    def handover(self) -> list:
        """The messages the server is to handle first (the front stops answering)."""
        self.passive = True
        kept, self.kept = self.kept, []
        # the documents' parses go to the server (open_document takes them when the server
        # opens the same text); the rest of the front's state is not the server's
        self.parsed = dict(self.state.docs) if self.state is not None else {}
        self.state = self._core = self._documents = None
        self.ready_index = None
        return kept

    def _send(self, msg_id, result) -> None:
        self.writer.write(framing.encode({"jsonrpc": "2.0", "id": msg_id, "result": result}))

    # ---- initialize ------------------------------------------------------------------------
    def _initialize(self, raw) -> None:
        self.kept.append(raw)
        if not isinstance(raw, dict) or raw.get("method") != "initialize" or not _is_id(raw.get("id")):
            self.passive = True
            return
        params = raw.get("params")
        result = kept_initialize_answer(params)
        if result is None or not isinstance(params, dict):
            self.passive = True
            return
        self._send(raw["id"], result)
        self.answered_initialize = (raw["id"], result)
        try:
            self._prepare(params, result)
        except Exception:
            log.exception("the early front could not start; the server answers everything")
            self.passive = True

    def _prepare(self, params: dict, result: dict) -> None:
        """The engine, and the state the server's initialize would make."""
        from puppet_ls.language import check  # noqa: F401 - loaded now, not by a hover while the server loads

        from . import core, documents, positions
        self._core, self._documents = core, documents
        state = core.ServerState()
        state.raw_capabilities = params["capabilities"]
        folders = params.get("workspaceFolders")
        uris = [f.get("uri") for f in folders if isinstance(f, dict) and isinstance(f.get("uri"), str)] \
            if isinstance(folders, list) else []
        if not uris:
            root = params.get("rootUri")
            if not isinstance(root, str) and isinstance(params.get("rootPath"), str):
                from pygls.uris import from_fs_path
                root = from_fs_path(params["rootPath"])
            uris = [root] if isinstance(root, str) else []
        state.folder_uris = uris
        caps = result.get("capabilities")
        encoding = caps.get("positionEncoding") if isinstance(caps, dict) else None
        state.encoding = {"utf-8": positions.UTF8, "utf-32": positions.UTF32}.get(str(encoding), positions.UTF16)
        options = params.get("initializationOptions")
        state.init_options = options
        if options is not None:
            core.apply_settings(state, options)
        self.state = state

    # ---- the other messages ----------------------------------------------------------------
    def _handle(self, raw) -> None:
        if isinstance(raw, dict) and "method" not in raw and str(raw.get("id", "")).startswith(REQUEST_PREFIX):
            return      # the client's answer to the front's own request (progress)
        if self.passive or self.state is None or not isinstance(raw, dict):
            self.kept.append(raw)
            return
        method = raw.get("method")
        if method == "textDocument/hover" and "id" in raw and self._hover(raw):
            return
        self.kept.append(raw)
        if method in _STOPPERS:
            self.passive = True
        elif method == "initialized":
            self.state.load_lint_config()
            self._index_wanted = self.state.settings.index_enable
        elif method == "textDocument/didOpen":
            self._open(raw.get("params"))
        elif method in ("textDocument/didChange", "textDocument/didClose"):
            # the front does not follow edits: that document's hovers wait for the server
            td = raw.get("params", {}).get("textDocument") if isinstance(raw.get("params"), dict) else None
            if isinstance(td, dict) and isinstance(td.get("uri"), str):
                self.state.docs.pop(td["uri"], None)

    def _load_index(self) -> None:
        """The snapshot of the workspace index the server would build now, when nothing it was
        read from changed (index_snapshot.py): handed to the server, and reported done."""
        core, state = self._core, self.state
        try:
            cache = core.index_cache_for(state)
            if cache is None:
                return
            from . import index_snapshot
            from .workspace import index_entry_for
            t0 = time.monotonic()
            build = core.index_plan(state)
            index = index_snapshot.load(cache, build)
            if index is None:
                return
            seconds = time.monotonic() - t0
            self.ready_index = (build, index, seconds)
            log.info("the workspace index from its snapshot: %d files in %.0f ms", len(index.files), seconds * 1000)
            if state.cap("window.work_done_progress", False):
                # (the token is named as the server names its indexing's)
                token = f"puppet-ls-index-{int(time.monotonic() * 1000)}"
                for message in (
                        {"jsonrpc": "2.0", "id": REQUEST_PREFIX + token, "method": "window/workDoneProgress/create",
                         "params": {"token": token}},
                        {"jsonrpc": "2.0", "method": "$/progress", "params": {"token": token, "value": {
                            "kind": "begin", "title": "puppet-ls: indexing", "percentage": 0, "cancellable": False}}},
                        {"jsonrpc": "2.0", "method": "$/progress", "params": {"token": token, "value": {
                            "kind": "end", "message": core.index_done_message(index, seconds)}}}):
                    self.writer.write(framing.encode(message))
            # the front's own hovers from now on see the workspace (a copy: the server adds
            # the open documents to its own when it takes the index)
            mine = index.copy()
            roots = state.roots() + state.modulepath()
            for doc in state.docs.values():
                entry = index_entry_for(doc.path, doc.text, roots)
                if entry is not None:
                    mine.add(entry)
            state.index, state.index_key, state.index_ready = mine, state.index_key + 1, True
        except Exception:
            log.exception("the early front could not load the index")

    def _open(self, params) -> None:
        td = params.get("textDocument") if isinstance(params, dict) else None
        if not isinstance(td, dict):
            return
        uri, text, lang, version = td.get("uri"), td.get("text"), td.get("languageId"), td.get("version")
        if not (isinstance(uri, str) and isinstance(text, str) and isinstance(lang, str) and _is_int(version)):
            return
        core, state = self._core, self.state
        path = core.uri_to_path(uri)
        if len(text) > MAX_TEXT or not self._documents.is_puppet_document(lang, path):
            return
        try:
            state.docs[uri] = self._documents.open_document(uri, path, version, text, state.encoding,
                                                            state.settings.documents_max_size, lang)
            root = core.early_module_root(state, path)
            if root is not None:
                from .workspace import build_index
                # (a module parsed without its cache may take longer than the server's loading:
                # then the server indexes it, as it does without the front)
                index = build_index([root], [], complete=False, cache=core.index_cache_for(state),
                                    cancelled=self.loaded.is_set)
                if not self.loaded.is_set():
                    core.merge_early(state, index)
        except Exception:
            log.exception("the early front could not open %s", uri)
            state.docs.pop(uri, None)

    def _hover(self, raw: dict) -> bool:
        """Answer a hover as the server would; False when it is the server's to answer."""
        params = raw.get("params")
        if not _is_id(raw.get("id")) or not isinstance(params, dict):
            return False
        td, pos = params.get("textDocument"), params.get("position")
        if not isinstance(td, dict) or not isinstance(pos, dict):
            return False
        uri, line, character = td.get("uri"), pos.get("line"), pos.get("character")
        if not (isinstance(uri, str) and _is_int(line) and _is_int(character)):
            return False
        core, state = self._core, self.state
        doc = state.docs.get(uri)
        if doc is None or doc.too_large:
            return False
        wanted: list = []

        def make_budget(budget):
            def evaluate(program, _budget):
                wanted.append(program)
                raise _NeedsEvaluation
            budget.evaluator = evaluate
            return budget

        try:
            if core.hiera_target(state, doc, doc.codec.offset(line, character)) is not None:
                return False
            found = core.hover_answer(state, doc, line, character, make_budget)
        except Exception:
            log.debug("the early front left a hover to the server", exc_info=True)
            return False
        if wanted:
            return False
        self._send(raw["id"], found)
        self.answered_hovers += 1
        return True


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def serve_stdio(log_file: str | None = None) -> int:
    """Run the language server over stdin/stdout, the early front first."""
    framing.configure_process(log_file)
    lifetime = framing.Lifetime()
    reader = framing.StdinReader(lifetime)
    reader.start()
    front = Front(reader, framing.MessageWriter(sys.stdout.buffer), lifetime)
    lsp = front.run()
    return lsp.run_server(log_file=log_file, front=front)
