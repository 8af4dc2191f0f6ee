"""The language server over LSP (pygls 2 + lsprotocol): keeps the state of open documents,
the settings and the workspace index, and turns each request into one call of
puppet_ls.language (ide/check) and its plain answer back into protocol types.

Robustness rules implemented here:
* every request handler is isolated: an exception is logged and an empty result returned;
* a request whose document changed while it waited is dropped (answered with an empty result),
  and cancelled requests that have not started are never run;
* diagnostics are debounced per document; indexing runs in a background thread that reports
  ``$/progress`` and never writes to the client itself (everything it sends goes through the
  event loop);
* evaluation (inlay hints, code lenses, hover values, "evaluate selection") never runs on the
  event loop thread: those handlers run in a small thread pool, and the evaluator itself in a
  supervised worker process (``evalworker``) that is killed at the request's deadline, on
  ``$/cancelRequest`` and when the server ends;
* over stdio, ``framing`` reads the input (robust framing, error responses to requests whose
  params cannot be read) and ends the process on ``exit``, stdin EOF or the editor's death;
* every other analysis (diagnostics, tokens, folding, completion, …) runs in a second thread
  pool, so that a document near the size limit (seconds of work) never freezes the event loop;
* documents above ``puppet.documents.maxSize`` are not analysed (one diagnostic says so);
* nothing is written to stdout but the protocol.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import json
import logging
import os
import threading
import time

from lsprotocol import types as lsp
from puppet_ls.language import formatter
from puppet_ls.language.diagnostics import Diagnostic
from puppet_ls.language.ide import calls as ide_calls
from puppet_ls.language.ide import code_actions as ide_actions
from puppet_ls.language.ide import completion as ide_completion
from puppet_ls.language.ide import folding as ide_folding
from puppet_ls.language.ide import links as ide_links
from puppet_ls.language.ide import navigation as ide_nav
from puppet_ls.language.ide import preview as ide_preview
from puppet_ls.language.ide import rename as ide_rename
from puppet_ls.language.ide import selection as ide_selection
from puppet_ls.language.ide import semantic_tokens as ide_tokens
from puppet_ls.language.ide import signature as ide_signature
from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.ide.index import PUPPET_ROLES, WorkspaceIndex
from puppet_ls.language.ide.symbols import document_symbols, workspace_symbols
from puppet_ls.language.ide.completion import CompletionItem
from puppet_ls.language.ide.navigation import Location
from puppet_ls.language.hiera import editor as hiera_editor
from puppet_ls.language.syntax.lines import LineIndex
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import from_fs_path

from . import __version__, controlrepo, convert, early, framing, index_snapshot, lens
from . import config as lintconfig
from .core import (ServerState, apply_settings, budget_for, early_module_root, file_text, hiera_target,
                   index_cache_for, index_done_message, index_plan, merge_early,
                   hover_answer, uri_to_path)
from .documents import Document, SemanticTokensCache, apply_changes, is_puppet_document, open_document
from .evalworker import EvalWorker
from .hiera_ls import DataDocument, is_data_document
from .positions import UTF8, UTF16, UTF32, PositionCodec
from .settings import Settings
from .workspace import (
    build_index,
    index_entry_for,
    module_root_of,
    read_text,
    walked_root,
)

log = logging.getLogger("puppet-ls")

EVALUATE_COMMAND = "puppet-ls.evaluateSelection"
SHOW_VALUE_COMMAND = "puppet-ls.showValue"
REINDEX_COMMAND = "puppet-ls.reindex"
# How long a preview may wait for the first evaluation worker to start.
STARTUP_WAIT_SECONDS = 5.0


class PuppetProtocol(LanguageServerProtocol):
    """pygls's protocol, minus its own copy of document texts (this server keeps its own,
    with line indexes and parse trees), and choosing UTF-8 positions when the client offers
    them."""

    # (id, result JSON) of the initialize request the early front answered (early.py)
    answered_early: tuple | None = None
    initialize_id = None

    @lsp_method(lsp.INITIALIZE)
    def lsp_initialize(self, params: lsp.InitializeParams):
        self.initialize_id = self.msg_id
        general = params.capabilities.general
        offered = list(general.position_encodings or []) if general is not None else []
        if general is not None and offered:
            # UTF-8 when offered, otherwise the mandatory UTF-16 (never UTF-32, which some
            # clients list first but which buys nothing here).
            chosen = lsp.PositionEncodingKind.Utf8 if lsp.PositionEncodingKind.Utf8 in offered \
                else lsp.PositionEncodingKind.Utf16
            general.position_encodings = [chosen]
        result = yield from super().lsp_initialize(params)
        text_caps = params.capabilities.text_document
        if text_caps is None or text_caps.diagnostic is None:
            result.capabilities.diagnostic_provider = None     # a client without pull diagnostics
        return result

    def _send_response(self, msg_id, result=None, error=None):
        if msg_id is not None and msg_id == self.initialize_id and error is None:
            # the answer to initialize is kept for the early front of the next start, which
            # may have sent it already (early.py)
            sent = self.answered_early if self.answered_early and self.answered_early[0] == msg_id else None
            early.keep_initialize_answer(framing.initialize_params(self), json.loads(json.dumps(
                result, default=self._serialize_message)), sent[1] if sent else None)
            if sent is not None:
                self._result_types.pop(msg_id, None)
                return
        if error is None and isinstance(result, convert.Wire):
            # already in its JSON form: no lsprotocol objects to take apart (convert.Wire)
            self._result_types.pop(msg_id, None)
            self._send_data({"jsonrpc": "2.0", "id": msg_id, "result": result})
            return
        super()._send_response(msg_id, result, error)

    def handle_message(self, message):
        # The protocol: after shutdown, every request but exit is an InvalidRequest error
        # (pygls drops them silently, leaving the client waiting).
        if self._shutdown and getattr(message, "method", None) not in (None, lsp.EXIT):
            if getattr(message, "id", None) is not None:
                framing.send_error(self, message.id, framing.INVALID_REQUEST,
                                   f"Invalid request: {message.method} after shutdown")
            return None
        return super().handle_message(message)

    @lsp_method(lsp.EXIT)
    def lsp_exit(self, *args):
        # Over TCP, pygls calls sys.exit() inside asyncio's connection callback, which asyncio
        # reports as an unhandled exception and which does not end serve_forever(); there is
        # nothing to clean up (no child processes, no open files but the log), so exit here.
        if isinstance(self.writer, asyncio.StreamWriter):
            if (handler := self.fm.features.get(lsp.EXIT)) is not None:
                yield handler, args, None
            try:
                worker = getattr(self._server, "worker", None)
                if worker is not None:
                    worker.close()
                self.writer.close()
            finally:
                logging.shutdown()
                os._exit(0 if self._shutdown else 1)
            return None
        result = yield from super().lsp_exit(*args)
        return result

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


class PuppetServer(ServerState, LanguageServer):
    """The server: its state (``core.ServerState``) and pygls's protocol, touched only from
    the event loop thread."""

    def __init__(self) -> None:
        LanguageServer.__init__(self, "puppet-ls", __version__, protocol_cls=PuppetProtocol, max_workers=4,
                                converter_factory=framing.strict_converter)
        ServerState.__init__(self)
        self.index_thread: threading.Thread | None = None
        self.index_cancel = threading.Event()
        # the last long completion list sent without documentation: (items, documentation formats)
        self.completion_list: tuple = ([], [])
        self.timers: dict = {}                 # uri -> asyncio.TimerHandle
        self.last_change: dict = {}            # uri -> time of the last edit (for debouncing)
        self.loop: asyncio.AbstractEventLoop | None = None
        # Handlers that evaluate run in this pool, never on the event loop.
        self.eval_pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="puppet-ls-eval")
        # Every other analysis (diagnostics, tokens, folding, completion, …) runs here: on a
        # document near the size limit it takes seconds, and the event loop must stay free to
        # read input, apply edits and answer the other requests meanwhile.
        self.work_pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="puppet-ls-work")
        self.interactive_pool = concurrent.futures.ThreadPoolExecutor(max_workers=3, thread_name_prefix="puppet-ls-ask")
        self.running: dict[int | str, threading.Event] = {}   # request id -> its evaluations' token
        self.previews_skipped = False          # the worker was not ready: ask for a refresh later
        self.semantic_tokens_cache = SemanticTokensCache()
        self.workspace_cursor = 0              # where the next workspace diagnostics round starts
        self.early_docs: dict = {}             # uri -> the early front's Document (its parse is taken)

    def show_warning(self, message: str) -> None:
        try:
            self.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=message))
        except Exception:
            log.exception("could not show a message")

    def capabilities(self) -> object:
        return self.client_capabilities

    def roots(self) -> list:
        try:
            folders = list(self.workspace.folders.values())
        except RuntimeError:
            return []
        out = [uri_to_path(f.uri) for f in folders]
        if not out and self.workspace.root_uri:
            out = [uri_to_path(self.workspace.root_uri)]
        return [r for r in out if r]

    def start_worker(self) -> None:
        self.worker = EvalWorker(memory_mb=self.settings.previews_memory_mb)
        self.worker.on_ready = self._worker_ready

    def _worker_ready(self) -> None:
        # Inlay hints asked for before the worker was up came back without previews: ask the
        # client for them again (from the event loop, which owns the writer).
        loop = self.loop
        if loop is None or not self.previews_skipped or loop.is_closed():
            return
        self.previews_skipped = False
        if self.cap("workspace.inlay_hint.refresh_support", False):
            loop.call_soon_threadsafe(self._refresh_hints)

    def _refresh_hints(self) -> None:
        try:
            self.workspace_inlay_hint_refresh(None)
        except Exception:
            log.debug("inlay hint refresh failed", exc_info=True)

    def cancel_running(self, msg_id) -> None:
        """$/cancelRequest: stop the worker if it is evaluating for that request (any thread)."""
        token = self.running.get(msg_id)
        if token is not None and self.worker is not None:
            self.worker.cancel(token)

    def evaluator(self, deadline: float, token: threading.Event):
        """The evaluator for one request: the worker's, bounded by the request's deadline."""
        worker = self.worker
        if worker is None:
            return None

        limit = [deadline]

        def evaluate(program: str, budget: ide_preview.PreviewBudget) -> tuple:
            if not worker.ever_ready.is_set():
                # Only the very first worker is waited for (it starts with the server, ~0.5 s):
                # the request's deadline counts from when it is ready.  A worker restarting
                # after a kill is not waited for beyond the deadline.
                t0 = time.monotonic()
                worker.ever_ready.wait(STARTUP_WAIT_SECONDS)
                limit[0] += time.monotonic() - t0
            if not worker.wait_ready(0):
                self.previews_skipped = True
            return worker.evaluate(program, budget.steps, budget.seconds, limit[0], token, budget.context)
        return evaluate


def _isolated(empty, evaluates: bool = False, heavy: bool = False, data: bool = False):
    """Request handler wrapper: drop the request if its document changed while it waited,
    and turn any exception into a logged empty answer.  A handler that ``evaluates`` runs in
    the evaluation thread pool (the event loop stays free) with ``ls.request_budget`` bound
    to this request (its deadline, its cancellation); a ``heavy`` one (whole-document work:
    tokens, folding, symbols) runs in the work pool, the others in the interactive pool, so
    that completion never queues behind the tokens of a large document."""
    def deco(fn):
        @functools.wraps(fn)
        async def handler(ls: PuppetServer, params):
            uri = getattr(getattr(params, "text_document", None), "uri", None)
            before = ls.docs.get(uri) if uri else None
            await asyncio.sleep(0)     # let queued edits and cancellations run first
            doc = ls.docs.get(uri) if uri else None
            if doc is None and data and uri is not None:
                # an open Hiera data file (a DataDocument, never parsed as Puppet)
                doc = before = ls.hiera_support.docs.get(uri)
            if uri is not None and before is not None and doc is not before:
                # the answer would be for a text the client no longer has: drop it
                log.debug("dropping %s: %s changed while it waited", fn.__name__, uri)
                return empty() if callable(empty) else empty
            if uri is not None and (doc is None or getattr(doc, "too_large", False)):
                return empty() if callable(empty) else empty
            t0 = time.perf_counter()
            try:
                if evaluates:
                    return await _offload(ls, fn, params, doc)
                pool = ls.work_pool if heavy else ls.interactive_pool
                return await asyncio.get_running_loop().run_in_executor(pool, fn, ls, params, doc)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed", fn.__name__)
                return empty() if callable(empty) else empty
            finally:
                dt = (time.perf_counter() - t0) * 1000
                if dt > 200:
                    log.info("%s took %.0f ms", fn.__name__, dt)
        return handler
    return deco


async def _offload(ls: PuppetServer, fn, params, doc):
    """Run ``fn(ls, params, doc, make_budget)`` in the evaluation pool; on cancellation the
    worker is stopped if it is evaluating for this request."""
    token = threading.Event()       # set when the request is cancelled
    msg_id = ls.protocol.msg_id

    def make_budget(budget: ide_preview.PreviewBudget) -> ide_preview.PreviewBudget:
        deadline = time.monotonic() + budget.total_seconds
        budget.evaluator = ls.evaluator(deadline, token)
        return budget

    if msg_id is not None:
        ls.running[msg_id] = token
    try:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(ls.eval_pool, fn, ls, params, doc, make_budget)
    except asyncio.CancelledError:
        if ls.worker is not None:
            ls.worker.cancel(token)
        raise
    finally:
        if msg_id is not None:
            ls.running.pop(msg_id, None)


RESOLVE_MIN = 100      # completion lists longer than this leave documentation to completionItem/resolve


def build_server() -> PuppetServer:
    server = PuppetServer()

    # ---- lifecycle -------------------------------------------------------------------------------
    @server.feature(lsp.INITIALIZE)
    def initialize(ls: PuppetServer, params: lsp.InitializeParams) -> None:
        enc = ls.workspace.position_encoding
        encodings: dict[str | None, str] = {lsp.PositionEncodingKind.Utf8: UTF8,
                                            lsp.PositionEncodingKind.Utf32: UTF32}
        ls.encoding = encodings.get(enc, UTF16)
        ls.init_options = params.initialization_options
        if params.initialization_options is not None:
            apply_settings(ls, params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    async def initialized(ls: PuppetServer, params) -> None:
        ls.loop = asyncio.get_running_loop()
        # before awaiting the client's settings: a document opened meanwhile is checked under
        # the workspace's configuration, not the defaults
        ls.load_lint_config()
        if ls.cap("workspace.configuration", False):
            await _pull_configuration(ls)
            ls.load_lint_config()
        _start_indexing(ls)
        _watch_files(ls)

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: PuppetServer, params) -> None:
        ls.index_cancel.set()
        for h in ls.timers.values():
            h.cancel()
        ls.timers.clear()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: PuppetServer, params: lsp.DidChangeConfigurationParams) -> None:
        before = (ls.settings.modulepath, ls.settings.index_enable)
        previews_before = _previews_key(ls.settings)
        settings = params.settings
        ours = {"modulepath", "index", "diagnostics", "previews", "hover", "completion", "log"}
        if isinstance(settings, dict) and ("puppet" in settings or ours & set(settings)):
            apply_settings(ls, settings)       # pushed settings (the section, or an object holding it)
        elif ls.cap("workspace.configuration", False):
            await _pull_configuration(ls)       # "something changed": ask for our section
        config_changed = ls.load_lint_config()
        if (ls.settings.modulepath, ls.settings.index_enable) != before or config_changed:
            _start_indexing(ls)
        _apply_size_limit(ls)
        for uri in list(ls.docs):
            _schedule_diagnostics(ls, uri, 0)
        if _previews_key(ls.settings) != previews_before:
            lens.refresh_previews(ls)       # another fact set: the hints and lens titles change

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_folders(ls: PuppetServer, params) -> None:
        ls.load_lint_config()
        _start_indexing(ls)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: PuppetServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        # A client that watches the configuration files (puppet-ls.toml, .puppet-ls.toml,
        # pyproject.toml, .puppet-lint.rc) tells us when one changes: read them again.
        names = (*lintconfig.TOML_NAMES, ".puppet-lint.rc")
        paths = [uri_to_path(c.uri) for c in params.changes]
        facts_changed = any(f"{os.sep}facts.d{os.sep}" in p for p in paths)
        if facts_changed:
            ls._preview_context = None       # a module's external facts changed: read them again
        if facts_changed or any(p.endswith((".yaml", ".yml", ".json", ".eyaml")) for p in paths):
            # Hiera data or a hiera.yaml changed on disk (a pull, a checkout): read them again
            _data_changed(ls)
        if any(p.endswith(names) for p in paths) and ls.load_lint_config():
            _start_indexing(ls)
            for uri in list(ls.docs):
                _schedule_diagnostics(ls, uri, 0)
            return
        _sources_changed(ls, [(p, c.type) for p, c in zip(paths, params.changes)])

    # ---- documents -------------------------------------------------------------------------------
    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: PuppetServer, params: lsp.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        if controlrepo.did_open(ls, td, uri_to_path(td.uri)):    # a Puppetfile: never parsed as Puppet
            return
        if not is_puppet_document(td.language_id or "", uri_to_path(td.uri)):
            if is_data_document(td.language_id or "", uri_to_path(td.uri)):
                ls.hiera_support.docs[td.uri] = DataDocument(td.uri, uri_to_path(td.uri), td.version, td.text)
                _publish_data(ls, td.uri)
                return
            log.info("not analysing %s: language %r is not Puppet", td.uri, td.language_id)
            return
        ls.docs[td.uri] = open_document(td.uri, uri_to_path(td.uri), td.version, td.text, ls.encoding,
                                        ls.settings.documents_max_size, td.language_id or "",
                                        parsed=ls.early_docs.pop(td.uri, None))
        _index_module_early(ls, ls.docs[td.uri].path)
        _publish(ls, td.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: PuppetServer, params: lsp.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if controlrepo.did_change(ls, params):
            return
        doc = ls.docs.get(uri)
        if doc is None:
            data_doc = ls.hiera_support.docs.get(uri)
            if data_doc is not None:
                data_doc.text = _apply_text_changes(data_doc.text, params.content_changes, ls.encoding)
                data_doc.version = params.text_document.version
                _publish_data(ls, uri)
            return
        try:
            ls.docs[uri] = apply_changes(doc, params.content_changes, params.text_document.version,
                                         ls.settings.documents_max_size)
        except Exception:
            log.exception("applying an edit to %s failed; reparsing the whole text", uri)
            return
        # Debounce: an edit after a pause is diagnosed at once; edits in quick succession
        # (less than three debounce times apart: keystrokes come unevenly) wait until typing
        # pauses for the debounce time.
        now = time.monotonic()
        prev = ls.last_change.get(uri)
        ls.last_change[uri] = now
        debounce = ls.settings.diagnostics_debounce_ms
        typing = prev is not None and (now - prev) * 1000 < 3 * debounce
        _schedule_diagnostics(ls, uri, debounce if typing else 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: PuppetServer, params: lsp.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.docs.get(uri)
        if doc is None:
            if uri in ls.hiera_support.docs:
                # the data on disk changed: lookups read it again
                _data_changed(ls)
                for other in list(ls.hiera_support.docs):
                    _publish_data(ls, other)
            return
        try:
            entry = index_entry_for(doc.path, doc.text, ls.roots() + ls.modulepath())
            if entry is not None and not doc.too_large:
                ls.index.add(entry)
                ls.index_key += 1
        except Exception:
            log.exception("re-indexing %s failed", uri)
        _publish(ls, uri)
        for other in ls.docs:
            if other != uri:
                _schedule_diagnostics(ls, other, ls.settings.diagnostics_debounce_ms)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: PuppetServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if controlrepo.did_close(ls, uri):
            return
        ls.docs.pop(uri, None)
        ls.hiera_support.docs.pop(uri, None)
        ls.last_change.pop(uri, None)
        ls.semantic_tokens_cache.forget(uri)
        h = ls.timers.pop(uri, None)
        if h is not None:
            h.cancel()
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # ---- features --------------------------------------------------------------------------------
    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_isolated(None, evaluates=True, data=True)
    def hover(ls: PuppetServer, params: lsp.HoverParams, doc: Document, make_budget):
        found = hover_answer(ls, doc, params.position.line, params.position.character, make_budget)
        return None if found is None else convert.Wire(found)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=["$", ":", "[", ".", "'", "\"", ">", " "],
                                          resolve_provider=True))
    @_isolated(lambda: lsp.CompletionList(is_incomplete=False, items=[]), data=True)
    def completion(ls: PuppetServer, params: lsp.CompletionParams, doc: Document):
        if isinstance(doc, DataDocument):
            return _data_completion(ls, params, doc)
        codec = doc.codec
        offset = codec.offset(params.position.line, params.position.character)
        keys = _hiera_key_completion(ls, doc, offset)
        items = keys if keys is not None else ide_completion.complete(ls.analysis(doc), offset)
        if params.context is not None and params.context.trigger_character in (" ", ">"):
            # space and '>' only complete attribute values ("ensure => ")
            items = [i for i in items if i.kind == "value"]
        snippets = bool(ls.settings.completion_snippets and
                        ls.cap("text_document.completion.completion_item.snippet_support", False))
        fmts = list(ls.cap("text_document.completion.completion_item.documentation_format", None) or [])
        # A long list (every class of the workspace) goes without documentation when the
        # client asks for it item by item: ~20 ms and ~1.4 KB less per hundred items.
        resolve = len(items) > RESOLVE_MIN and "documentation" in (
            ls.cap("text_document.completion.completion_item.resolve_support.properties", None) or [])
        if resolve:
            ls.completion_list = (items, fmts)
        defaults = {"editRange", "insertTextFormat"} <= set(
            ls.cap("text_document.completion.completion_list.item_defaults", None) or [])
        return convert.completion_list(codec, offset, items, snippets, fmts, resolve, defaults)

    @server.feature(lsp.COMPLETION_ITEM_RESOLVE)
    def completion_resolve(ls: PuppetServer, item: lsp.CompletionItem) -> lsp.CompletionItem:
        """The documentation of an item of the last long list (one item: a lookup and its
        markdown, well under a millisecond, answered on the event loop)."""
        items, fmts = ls.completion_list
        n = item.data
        if (item.documentation is None and isinstance(n, int) and 0 <= n < len(items)
                and items[n].label == item.label):
            try:
                item.documentation = convert.completion_documentation(items[n].full_documentation(), fmts)
            except Exception:   # documentation is a nicety: the item goes back as it came
                log.exception("completionItem/resolve failed")
        return item

    @server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP,
                    lsp.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]))
    @_isolated(None)
    def signature_help(ls: PuppetServer, params: lsp.SignatureHelpParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        res = ide_signature.signature_help(ls.analysis(doc), offset)
        if res is None:
            return None
        fmts = ls.cap("text_document.signature_help.signature_information.documentation_format", None) or []
        md = lsp.MarkupKind.Markdown in fmts
        sigs = []
        for s in res.signatures:
            doc_ = convert.markup(s.documentation, md) if s.documentation and fmts else (s.documentation or None)
            # Each signature says its own active parameter: lsprotocol writes an unset one as
            # `"activeParameter": null`, which LSP 3.18 reads as "none" and which overrides the
            # top-level value, so no parameter would ever be highlighted.  A variadic tail stays
            # highlighted on its last parameter.
            active = min(res.active_parameter, len(s.parameters) - 1) if s.parameters else None
            sigs.append(lsp.SignatureInformation(
                label=s.label, documentation=doc_,
                parameters=[lsp.ParameterInformation(label=p) for p in s.parameters],
                active_parameter=active))
        return lsp.SignatureHelp(signatures=sigs, active_signature=res.active_signature,
                                 active_parameter=res.active_parameter)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_isolated(list)
    def definition(ls: PuppetServer, params: lsp.DefinitionParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        hiera_locs = _hiera_definition(ls, doc, offset)
        if hiera_locs:
            return _locations(ls, doc, hiera_locs)
        return _locations(ls, doc, ide_nav.definition(ls.analysis(doc), offset, _sources(ls), doc.path))

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @_isolated(list)
    def references(ls: PuppetServer, params: lsp.ReferenceParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        locs = ide_nav.references(ls.analysis(doc), offset, params.context.include_declaration, doc.path,
                                  _sources(ls))
        return _locations(ls, doc, locs)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @_isolated(list)
    def highlight(ls: PuppetServer, params: lsp.DocumentHighlightParams, doc: Document):
        codec = doc.codec
        offset = codec.offset(params.position.line, params.position.character)
        return [lsp.DocumentHighlight(range=convert.rng(codec, h.start, h.end),
                                      kind=lsp.DocumentHighlightKind.Write if h.write else lsp.DocumentHighlightKind.Read)
                for h in ide_nav.highlights(ls.analysis(doc), offset) if h.path is None]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_isolated(list, heavy=True)
    def symbols(ls: PuppetServer, params: lsp.DocumentSymbolParams, doc: Document):
        hier = bool(ls.cap("text_document.document_symbol.hierarchical_document_symbol_support", False))
        return convert.document_symbols(doc.codec, document_symbols(doc.result), hier, doc.uri)

    @server.feature(lsp.WORKSPACE_SYMBOL)
    @_isolated(list, heavy=True)
    def workspace_symbol(ls: PuppetServer, params: lsp.WorkspaceSymbolParams, doc):
        out = []
        for e in workspace_symbols(ls.index, params.query, limit=200):
            text = file_text(ls, e.path)
            if text is None:
                continue
            codec = PositionCodec(LineIndex(text), ls.encoding)
            out.append(lsp.SymbolInformation(name=e.name, kind=convert._SYMBOL_KIND.get(e.kind, lsp.SymbolKind.Object),
                                             location=lsp.Location(from_fs_path(e.path) or e.path,
                                                                   convert.rng(codec, e.offset, e.end))))
        return out

    # ---- document links and selection ranges (issue 17) -------------------------------------
    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_LINK, lsp.DocumentLinkOptions(resolve_provider=False))
    @_isolated(list, heavy=True, data=True)
    def document_link(ls: PuppetServer, params: lsp.DocumentLinkParams, doc: Document):
        out = []
        tooltips = bool(ls.cap("text_document.document_link.tooltip_support", False))
        if isinstance(doc, DataDocument):
            return _class_links(ls, doc, tooltips)
        for link in ide_links.document_links(doc.result):
            target = _module_file(ls, doc, link.module, link.folder, link.path)
            if target is not None:
                out.append(lsp.DocumentLink(range=convert.rng(doc.codec, link.start, link.end),
                                            target=from_fs_path(target),
                                            tooltip=link.relative if tooltips else None))
        return out

    @server.feature(lsp.TEXT_DOCUMENT_SELECTION_RANGE)
    @_isolated(list)
    def selection_range(ls: PuppetServer, params: lsp.SelectionRangeParams, doc: Document):
        codec = doc.codec
        out = []
        for pos in params.positions:
            parent = None
            for start, end in reversed(ide_selection.selection_range(doc.result, codec.offset(pos.line, pos.character))):
                parent = lsp.SelectionRange(range=convert.rng(codec, start, end), parent=parent)
            out.append(parent or lsp.SelectionRange(range=lsp.Range(pos, pos)))
        return out

    # ---- call hierarchy, type definition, workspace diagnostics (issue 17) ----------------------
    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)
    @_isolated(list)
    def prepare_call_hierarchy(ls: PuppetServer, params: lsp.CallHierarchyPrepareParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        items = [_call_item(ls, doc, it) for it in ide_calls.prepare(ls.analysis(doc), offset, _sources(ls), doc.path)]
        return [it for it in items if it is not None]

    @server.feature(lsp.CALL_HIERARCHY_INCOMING_CALLS)
    @_isolated(list, heavy=True)
    def incoming_calls(ls: PuppetServer, params: lsp.CallHierarchyIncomingCallsParams, _doc):
        item, doc = _call_item_back(ls, params.item)
        an = ls.analysis(doc) if doc is not None else None
        return [lsp.CallHierarchyIncomingCall(from_=it, from_ranges=_ranges(ls, doc, c.path, c.ranges))
                for c in ide_calls.incoming(item, ls.index, _sources(ls), an, doc.path if doc is not None else "",
                                            tuple(d.path for d in list(ls.docs.values())
                                                  if d.path and not d.too_large and not d.is_epp))
                if (it := _call_item(ls, doc, c.item)) is not None]

    @server.feature(lsp.CALL_HIERARCHY_OUTGOING_CALLS)
    @_isolated(list, heavy=True)
    def outgoing_calls(ls: PuppetServer, params: lsp.CallHierarchyOutgoingCallsParams, _doc):
        item, doc = _call_item_back(ls, params.item)
        an = ls.analysis(doc) if doc is not None else None
        return [lsp.CallHierarchyOutgoingCall(to=it, from_ranges=_ranges(ls, doc, c.path, c.ranges))
                for c in ide_calls.outgoing(item, ls.index, _sources(ls), an, doc.path if doc is not None else "")
                if (it := _call_item(ls, doc, c.item)) is not None]

    @server.feature(lsp.TEXT_DOCUMENT_TYPE_DEFINITION)
    @_isolated(list)
    def type_definition(ls: PuppetServer, params: lsp.TypeDefinitionParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        return _locations(ls, doc, ide_nav.type_definition(ls.analysis(doc), offset, _sources(ls), doc.path))

    # Pull diagnostics: the capability is removed at initialize for a client that has no pull
    # support (PuppetProtocol.lsp_initialize).  Open documents keep their pushed diagnostics, so
    # that a client using both models shows each finding once: the per-document pull answers
    # nothing for them, and the workspace report leaves them out.
    @server.feature(lsp.TEXT_DOCUMENT_DIAGNOSTIC,
                    lsp.DiagnosticOptions(identifier="puppet-ls", inter_file_dependencies=True,
                                          workspace_diagnostics=True))
    def document_diagnostic(ls: PuppetServer, params: lsp.DocumentDiagnosticParams):
        return lsp.RelatedFullDocumentDiagnosticReport(items=[], result_id="pushed")

    @server.feature(lsp.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls: PuppetServer, params: lsp.WorkspaceDiagnosticParams):
        previous = {p.uri: p.value for p in params.previous_result_ids or []}
        try:
            return await asyncio.get_running_loop().run_in_executor(
                ls.work_pool, _workspace_diagnostics, ls, previous, params.work_done_token)
        except Exception:
            log.exception("workspace diagnostics failed")
            return lsp.WorkspaceDiagnosticReport(items=[])

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    @_isolated(list, heavy=True)
    def folding(ls: PuppetServer, params: lsp.FoldingRangeParams, doc: Document):
        return convert.folding_ranges(doc.codec, ide_folding.folding_ranges(doc.result))

    # Full, delta and range: after an edit the client asks for a delta against the result it
    # has (one splice of the integer array, a few dozen numbers for a keystroke instead of the
    # whole file's), and for the visible range of a large file before the full answer.
    def _full_tokens(ls: PuppetServer, doc: Document) -> lsp.SemanticTokens:
        toks = ide_tokens.semantic_tokens(ls.analysis(doc), memo=ls.semantic_tokens_cache.memo(doc.uri))
        data = convert.semantic_tokens(doc.codec, doc.text, toks, False)
        result_id = ls.semantic_tokens_cache.store(doc.uri, data)
        return lsp.SemanticTokens(data=data, result_id=result_id)

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, convert.LEGEND)
    @_isolated(lambda: lsp.SemanticTokens(data=[]), heavy=True)
    def semantic_tokens(ls: PuppetServer, params: lsp.SemanticTokensParams, doc: Document):
        return _full_tokens(ls, doc)

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
    @_isolated(lambda: lsp.SemanticTokens(data=[]), heavy=True)
    def semantic_tokens_delta(ls: PuppetServer, params: lsp.SemanticTokensDeltaParams, doc: Document):
        previous = ls.semantic_tokens_cache.get(doc.uri, params.previous_result_id)
        full = _full_tokens(ls, doc)
        if previous is None:            # not the result we hold (or none): the whole answer
            return full
        start, delete, insert = convert.tokens_splice(previous, full.data)
        edits = [lsp.SemanticTokensEdit(start=start, delete_count=delete, data=insert)] if delete or insert else []
        return lsp.SemanticTokensDelta(edits=edits, result_id=full.result_id)

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE)
    @_isolated(lambda: lsp.SemanticTokens(data=[]), heavy=True)
    def semantic_tokens_range(ls: PuppetServer, params: lsp.SemanticTokensRangeParams, doc: Document):
        start, end = convert.offsets(doc.codec, params.range)
        toks = ide_tokens.semantic_tokens(ls.analysis(doc), start, end)
        return lsp.SemanticTokens(data=convert.semantic_tokens(doc.codec, doc.text, toks, False))

    # ---- formatting (language/formatter; the client's tab size is not used: the style guide's
    # two spaces are the layout) -----------------------------------------------------------
    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    @_isolated(list, heavy=True)
    def formatting(ls: PuppetServer, params: lsp.DocumentFormattingParams, doc: Document):
        res = formatter.format_text(doc.text, doc.is_epp, tasks=doc.tasks)
        for d in res.diagnostics:
            if d.code == "FORMAT_UNSAFE":
                log.error("%s: %s", doc.uri, d.message)
        return convert.text_edits(doc.codec, formatter.minimal_edits(doc.text, res.text))

    @server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
    @_isolated(list)
    def range_formatting(ls: PuppetServer, params: lsp.DocumentRangeFormattingParams, doc: Document):
        codec = doc.codec
        r = params.range
        start = codec.offset(r.start.line, r.start.character)
        end = codec.offset(r.end.line, r.end.character)
        return convert.text_edits(codec, formatter.format_range(doc.text, start, end, doc.is_epp, tasks=doc.tasks))

    @server.feature(lsp.TEXT_DOCUMENT_ON_TYPE_FORMATTING,
                    lsp.DocumentOnTypeFormattingOptions(first_trigger_character=">"))
    @_isolated(list)
    def on_type_formatting(ls: PuppetServer, params: lsp.DocumentOnTypeFormattingParams, doc: Document):
        codec = doc.codec
        offset = codec.offset(params.position.line, params.position.character)
        return convert.text_edits(codec, formatter.on_type_edits(doc.text, offset, doc.is_epp, tasks=doc.tasks))

    # ---- code actions: fixes and refactors (language/ide/code_actions) --------------------------
    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, ide_actions.FIX_ALL,
                                                             lsp.CodeActionKind.RefactorExtract,
                                                             lsp.CodeActionKind.RefactorRewrite]))
    @_isolated(list, heavy=True)
    def code_action(ls: PuppetServer, params: lsp.CodeActionParams, doc: Document):
        return _code_actions(ls, params, doc)

    # ---- rename (language/ide/rename) ------------------------------------------------------------
    # A refusal is answered as a request error carrying its reason, which editors show; outside
    # `_isolated` so that its isolation (an empty answer for any failure) does not swallow it.
    @_isolated(None)
    def _prepare_rename(ls: PuppetServer, params: lsp.PrepareRenameParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        res = ide_rename.prepare_rename(ls.analysis(doc), offset, _sources(ls), doc.path)
        if isinstance(res, ide_rename.Refusal):
            return res
        return lsp.PrepareRenamePlaceholder(range=convert.rng(doc.codec, res.start, res.end),
                                            placeholder=res.placeholder)

    @_isolated(None)
    def _rename(ls: PuppetServer, params: lsp.RenameParams, doc: Document):
        offset = doc.codec.offset(params.position.line, params.position.character)
        res = ide_rename.rename(ls.analysis(doc), offset, params.new_name, _sources(ls), doc.path)
        if isinstance(res, ide_rename.Refusal):
            return res
        return _workspace_edit(ls, doc, res)

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: PuppetServer, params: lsp.PrepareRenameParams):
        return _refused(await _prepare_rename(ls, params))

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    async def rename(ls: PuppetServer, params: lsp.RenameParams):
        return _refused(await _rename(ls, params))

    @server.feature(lsp.TEXT_DOCUMENT_INLAY_HINT)
    @_isolated(list, evaluates=True)
    def inlay_hints(ls: PuppetServer, params: lsp.InlayHintParams, doc: Document, make_budget):
        if not ls.settings.previews_enable:
            return []
        codec = doc.codec
        start = codec.offset(params.range.start.line, params.range.start.character)
        end = codec.offset(params.range.end.line, params.range.end.character)
        return [lsp.InlayHint(position=lsp.Position(*codec.position(p.offset)), label=p.label,
                              padding_left=True, tooltip=f"{p.value} : {p.type}")
                for p in ide_preview.previews(ls.analysis(doc), start, end, make_budget(budget_for(ls)))]

    @server.feature(lsp.TEXT_DOCUMENT_CODE_LENS)
    @_isolated(list, evaluates=True)
    def code_lens(ls: PuppetServer, params: lsp.CodeLensParams, doc: Document, make_budget):
        # "Preview catalog" on each class; evaluated previews as code lenses too, for clients
        # that cannot show inlay hints.
        if not ls.settings.previews_enable:
            return []
        out = [] if doc.is_epp else lens.class_lenses(doc, ls.settings)
        if ls.cap("text_document.inlay_hint", None) is not None:
            return out
        codec = doc.codec
        for p in ide_preview.previews(ls.analysis(doc), 0, len(doc.text), make_budget(budget_for(ls))):
            pos = lsp.Position(*codec.position(p.offset))
            out.append(lsp.CodeLens(range=lsp.Range(pos, pos),
                                    command=lsp.Command(title=p.label, command=SHOW_VALUE_COMMAND,
                                                       arguments=[p.value, p.type])))
        return out

    @server.command(EVALUATE_COMMAND)
    async def evaluate_selection(ls: PuppetServer, *args):
        """Arguments: a Location-like {uri, range}, or (uri, range)."""
        try:
            uri, rng_ = _command_location(args)
            doc = ls.docs.get(uri)
            if doc is None:
                return {"ok": False, "error": f"{uri} is not open"}
            if doc.too_large:
                return {"ok": False, "error": f"{uri} is larger than puppet.documents.maxSize"}
            codec = doc.codec
            start = codec.offset(rng_["start"]["line"], rng_["start"]["character"])
            end = codec.offset(rng_["end"]["line"], rng_["end"]["character"])

            def run(ls, params, doc, make_budget):
                budget = make_budget(ide_preview.PreviewBudget(steps=200_000, seconds=1.0, total_seconds=1.5))
                return ide_preview.evaluate_range(ls.analysis(doc), start, end, budget)
            p = await _offload(ls, run, None, doc)
            text = f"{p.value} : {p.type}" if p.ok else p.error
            ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Info if p.ok else lsp.MessageType.Warning,
                                                         message=text))
            return {"ok": p.ok, "value": p.value, "type": p.type, "error": p.error}
        except Exception as exc:
            log.exception("evaluate selection failed")
            return {"ok": False, "error": f"cannot evaluate: {exc}"}

    @server.command(lens.PREVIEW_CATALOG_COMMAND)
    async def preview_catalog(ls: PuppetServer, *args):
        return await lens.preview_catalog(ls, args)

    @server.command(lens.FACT_SETS_COMMAND)
    def fact_sets(ls: PuppetServer, *args):
        return lens.fact_sets(ls.settings)

    @server.command(SHOW_VALUE_COMMAND)
    def show_value(ls: PuppetServer, *args):
        if args:
            ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Info,
                                                         message=" : ".join(str(a) for a in args)))

    @server.command(REINDEX_COMMAND)
    def reindex(ls: PuppetServer, *args):
        _start_indexing(ls)

    return server


# ---- helpers ------------------------------------------------------------------------------------

def _previews_key(s: Settings) -> tuple:
    return (s.previews_enable, s.previews_facts, s.previews_node, s.previews_max_steps, s.previews_timeout_ms)




def _command_location(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and len(args[0]) == 2:
        args = tuple(args[0])
    if len(args) == 1 and isinstance(args[0], dict):
        d = args[0]
        uri = d.get("uri") or (d.get("textDocument") or {}).get("uri")
        return uri, d["range"]
    if len(args) >= 2:
        rng_ = args[1]
        if not isinstance(rng_, dict):
            rng_ = {"start": {"line": rng_.start.line, "character": rng_.start.character},
                    "end": {"line": rng_.end.line, "character": rng_.end.character}}
        return args[0], rng_
    raise ValueError("expected a document URI and a range")


def _module_file(ls: PuppetServer, doc: Document, module: str, folder: str, rel: str) -> str | None:
    """The existing file ``<module>/<folder>/<rel>``: the module as indexed, else the module the
    document itself is in (before the index is ready)."""
    roots = [ls.index.module_roots.get(module)]
    own = module_root_of(doc.path)
    if own is not None and os.path.basename(own) == module:
        roots.append(own)
    for root in roots:
        if root:
            path = os.path.join(root, folder, *rel.split("/"))
            if ".." not in rel.split("/") and os.path.isfile(path):
                return path
    return None




def _sources(ls: PuppetServer):
    """The text of a workspace file by path, for questions that read other files: an open
    document's text, else the file's."""
    return lambda path: file_text(ls, path)


def _refused(res):
    """A rename's answer, or its refusal as a request error (LSP's RequestFailed) whose message
    the editor shows."""
    if isinstance(res, ide_rename.Refusal):
        raise JsonRpcException(message=res.message, code=_REQUEST_FAILED)
    return res


_REQUEST_FAILED = -32803


def _workspace_edit(ls: PuppetServer, doc: Document, edits: list) -> lsp.WorkspaceEdit:
    """Rename's edits as a WorkspaceEdit: versioned document edits when the client takes
    them (an open document's version, so a stale edit is rejected), else a ``changes`` map."""
    by_uri: dict = {}
    for e in edits:
        if e.path is None or e.path == doc.path:
            uri, codec, version = doc.uri, doc.codec, doc.version
        else:
            uri = from_fs_path(e.path) or e.path
            open_doc = ls.docs.get(uri)
            text = open_doc.text if open_doc is not None else read_text(e.path)
            if text is None:
                continue
            codec = open_doc.codec if open_doc is not None else PositionCodec(LineIndex(text), ls.encoding)
            version = open_doc.version if open_doc is not None else None
        entry = by_uri.setdefault(uri, (codec, version, []))
        entry[2].append(lsp.TextEdit(range=convert.rng(entry[0], e.start, e.end), new_text=e.new_text))
    if ls.cap("workspace.workspace_edit.document_changes", False):
        return lsp.WorkspaceEdit(document_changes=[
            lsp.TextDocumentEdit(text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
                                 edits=list(tes))
            for uri, (_, version, tes) in by_uri.items()])
    return lsp.WorkspaceEdit(changes={uri: tes for uri, (_, _, tes) in by_uri.items()})


def _locations(ls: PuppetServer, doc: Document, locs: list) -> list:
    out = []
    texts: dict = {}
    for loc in locs:
        if loc.path is None or loc.path == doc.path:
            out.append(lsp.Location(doc.uri, convert.rng(doc.codec, loc.start, loc.end)))
            continue
        if loc.path not in texts:
            t = file_text(ls, loc.path)
            texts[loc.path] = PositionCodec(LineIndex(t), ls.encoding) if t is not None else None
        codec = texts[loc.path]
        if codec is None:
            continue
        out.append(lsp.Location(from_fs_path(loc.path) or loc.path, convert.rng(codec, loc.start, loc.end)))
    return out


def _class_links(ls: PuppetServer, doc: DataDocument, tooltips: bool) -> list:
    """Links from the classes of a Hiera data file's ``classes`` array to their manifests
    (classes the index knows, in a Puppet file)."""
    if os.path.basename(doc.path) == "hiera.yaml":
        return []
    codec = PositionCodec(LineIndex(doc.text), ls.encoding)
    out = []
    for start, end, name in hiera_editor.class_links(doc.text):
        found = [e for e in ls.index.lookup("class", name) if e.path and e.path.endswith(".pp")]
        if found:
            out.append(lsp.DocumentLink(range=convert.rng(codec, start, end), target=from_fs_path(found[0].path),
                                        tooltip=f"class {name}" if tooltips else None))
    return out


# ---- call hierarchy and workspace diagnostics ------------------------------------------------------

def _codec_of(ls: PuppetServer, doc: Document | None, path: str | None) -> tuple:
    """(uri, codec) of ``path`` (None: ``doc``), from its open document or its file."""
    if path is None or (doc is not None and path == doc.path):
        return (doc.uri, doc.codec) if doc is not None else (None, None)
    uri = from_fs_path(path) or path
    open_doc = ls.docs.get(uri)
    if open_doc is not None:
        return uri, open_doc.codec
    text = read_text(path)
    return (uri, PositionCodec(LineIndex(text), ls.encoding)) if text is not None else (None, None)


def _call_item(ls: PuppetServer, doc: Document | None, item: ide_calls.CallItem) -> lsp.CallHierarchyItem | None:
    """The protocol's item (None for a file that cannot be read any more); its ``data`` keeps
    what ``_call_item_back`` needs to make the ``CallItem`` again."""
    uri, codec = _codec_of(ls, doc, item.path)
    if codec is None:
        return None
    path = item.path if item.path is not None else (doc.path if doc is not None else "")
    kind = convert._SYMBOL_KIND.get(item.kind, lsp.SymbolKind.File)
    return lsp.CallHierarchyItem(
        name=item.name, kind=kind, uri=uri, range=convert.rng(codec, item.start, item.end),
        selection_range=convert.rng(codec, item.sel_start, item.sel_end),
        detail="built-in function" if item.builtin else os.path.basename(path or "") or None,
        data={"kind": item.kind, "name": item.name, "path": path, "uri": uri, "start": item.start, "end": item.end,
              "sel": [item.sel_start, item.sel_end], "builtin": item.builtin})


def _call_item_back(ls: PuppetServer, item: lsp.CallHierarchyItem) -> tuple:
    """The ``CallItem`` an editor sends back, and the open document it is in (None: a file)."""
    data = item.data if isinstance(item.data, dict) else {}
    doc = ls.docs.get(data.get("uri") or item.uri)
    path = data.get("path") or uri_to_path(item.uri)
    sel = data.get("sel") or [0, 0]
    back = ide_calls.CallItem(str(data.get("kind", "function")), str(data.get("name", item.name)),
                              None if doc is not None else path, int(data.get("start", 0)), int(data.get("end", 0)),
                              int(sel[0]), int(sel[1]), bool(data.get("builtin", False)))
    return back, doc


def _ranges(ls: PuppetServer, doc: Document | None, path: str | None, ranges: list) -> list:
    _, codec = _codec_of(ls, doc, path)
    return [convert.rng(codec, s, e) for s, e in ranges] if codec is not None else []


# A workspace report covers what this many seconds of checking allow; the files left are
# reported by the next pull (a client pulls again when an answer arrives), starting there.
WORKSPACE_ROUND_SECONDS = 5.0


def _workspace_diagnostics(ls: PuppetServer, previous: dict, token) -> lsp.WorkspaceDiagnosticReport:
    """In the work pool: the diagnostics of the workspace's Puppet files that are not open, as
    `puppet-ls check` reports them; a file whose text, index and configuration are those of
    the result id the client holds is reported unchanged without being checked."""
    index, index_key, config_key = ls.index, ls.index_key, ls.config_key
    # (a copy made in one step: the event loop may add files to the index meanwhile)
    paths = sorted(p for p, e in list(index.files.items()) if e.role in PUPPET_ROLES)
    start = ls.workspace_cursor % len(paths) if paths else 0
    paths = paths[start:] + paths[:start]
    loop = ls.loop

    def progress(kind: str, message: str = "", pct: int = 0) -> None:
        if token is None or loop is None or loop.is_closed():
            return
        def send():
            try:
                if kind == "begin":
                    ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(
                        title="puppet-ls: checking the workspace", percentage=0, cancellable=False))
                elif kind == "report":
                    ls.work_done_progress.report(token, lsp.WorkDoneProgressReport(message=message, percentage=pct))
                else:
                    ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=message))
            except Exception:   # progress is cosmetic
                log.debug("progress failed", exc_info=True)
        loop.call_soon_threadsafe(send)

    progress("begin")
    deadline = time.monotonic() + WORKSPACE_ROUND_SECONDS
    items: list = []
    done = 0
    for i, path in enumerate(paths):
        if i > 0 and time.monotonic() > deadline:      # (at least one file a round: it always moves on)
            break
        done = i + 1
        uri = from_fs_path(path) or path
        if uri in ls.docs:
            continue        # pushed
        text = read_text(path)
        if text is None:
            continue
        result_id = f"{hashlib.sha1(text.encode('utf-8', 'replace')).hexdigest()[:16]}.{index_key}.{config_key}"
        if previous.get(uri) == result_id:
            items.append(lsp.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=result_id, version=None))
            continue
        codec = PositionCodec(LineIndex(text), ls.encoding)
        if len(text) > ls.settings.documents_max_size:
            found = [Diagnostic.of("DOCUMENT_TOO_LARGE", 0, 0, size=len(text), limit=ls.settings.documents_max_size)]
        else:
            found = _path_diagnostics(ls, index, path, text)
        items.append(lsp.WorkspaceFullDocumentDiagnosticReport(
            uri=uri, result_id=result_id, version=None, items=convert.diagnostics(codec, uri, found, False)))
        if i % 20 == 0:
            progress("report", f"{i + 1}/{len(paths)} files", int((i + 1) * 100 / len(paths)))
    ls.workspace_cursor = (start + done) % len(paths) if paths and done < len(paths) else 0
    progress("end", f"{done}/{len(paths)} files")
    return lsp.WorkspaceDiagnosticReport(items=items)


def _path_diagnostics(ls: PuppetServer, index, path: str, text: str) -> list:
    """A file's diagnostics under the workspace's configuration (see ``_lint_diagnostics``)."""
    cfg = ls.lint_config
    root = next((r for r in ls.roots() if lintconfig.relative_to(path, r) is not None), "")
    if cfg.excluded(path, False, root):
        return []
    from puppet_ls.language.check import analyze
    result = parse_for_path(text, path)
    return cfg.filter(path, file_diagnostics(result, index, analyze(result, index), lint=cfg.lint_for(path), path=path))


# ---- Hiera ---------------------------------------------------------------------------------------





def _hiera_definition(ls: PuppetServer, doc: Document, offset: int) -> list:
    target = hiera_target(ls, doc, offset)
    hiera = ls.hiera() if target is not None else None
    if target is None or hiera is None:
        return []
    return [Location(path, start, end) for path, start, end in
            ls.hiera_support.key_locations(hiera, target[1], ls.settings, ls.preview_context())]


def _hiera_key_completion(ls: PuppetServer, doc: Document, offset: int) -> list | None:
    """Inside the key string of lookup('...'): the keys of every data file (None elsewhere)."""
    at = hiera_editor.lookup_key_at(doc.text, offset)
    if at is None:
        return None
    hiera = ls.hiera()
    if hiera is None:
        return []
    typed = doc.text[at.start:offset]
    return [CompletionItem(key, "value", detail=f"Hiera key ({len(places)} file{'s' if len(places) != 1 else ''})",
                           edit_start=at.start)
            for key, places in sorted(hiera.all_keys().items())
            if key.startswith(typed) and key != "lookup_options"]


def _data_completion(ls: PuppetServer, params: lsp.CompletionParams, doc: DataDocument):
    codec = PositionCodec(LineIndex(doc.text), ls.encoding)
    offset = codec.offset(params.position.line, params.position.character)
    found = hiera_editor.data_key_completions(doc.text, offset, ls.index)
    items = [CompletionItem(c.label, "attribute", detail=c.detail, documentation=c.documentation,
                            insert_text=c.label + ": ", edit_start=c.start) for c in found]
    fmts = ls.cap("text_document.completion.completion_item.documentation_format", None) or []
    return convert.completion_list(codec, offset, items, False, list(fmts))


def _apply_text_changes(text: str, changes, encoding: str) -> str:
    for ch in changes:
        rng = getattr(ch, "range", None)
        if rng is None:
            text = ch.text
            continue
        codec = PositionCodec(LineIndex(text), encoding)
        start = codec.offset(rng.start.line, rng.start.character)
        end = codec.offset(rng.end.line, rng.end.character)
        text = text[:min(start, end)] + ch.text + text[max(start, end):]
    return text


def _publish_data(ls: PuppetServer, uri: str) -> None:
    """Diagnostics of an open Hiera file (hiera.yaml, or data below a datadir)."""
    doc = ls.hiera_support.docs.get(uri)
    if doc is None:
        return
    diags: list = []
    if ls.settings.diagnostics_enable:
        try:
            found = ls.hiera_support.data_diagnostics(doc, ls.index, ls.hiera())
            codec = PositionCodec(LineIndex(doc.text), ls.encoding)
            diags = convert.diagnostics(codec, uri, found, False)
        except Exception:
            log.exception("Hiera diagnostics failed for %s", uri)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diags))




async def _pull_configuration(ls: PuppetServer) -> None:
    try:
        res = await asyncio.wait_for(ls.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="puppet")])), timeout=5)
    except Exception:  # noqa: BLE001 - a timeout, an error response or a broken client: all mean "no answer"
        log.info("the client did not answer workspace/configuration; keeping the current settings")
        return
    if res and res[0] is not None:
        apply_settings(ls, res[0])


def _apply_size_limit(ls: PuppetServer) -> None:
    """Re-open the documents whose side of ``puppet.documents.maxSize`` changed."""
    limit = ls.settings.documents_max_size
    for uri, doc in list(ls.docs.items()):
        if doc.too_large != (len(doc.text) > limit):
            ls.docs[uri] = open_document(uri, doc.path, doc.version, doc.text, doc.encoding, limit, doc.kind)


def _data_changed(ls: PuppetServer) -> None:
    """Hiera's data or a module's external facts may have changed on disk: read them again,
    and compute again what previews showed with them (faded branches, inlay hints)."""
    ls.hiera_support.invalidate()
    if ls.preview_context() is None or not ls.settings.previews_enable:
        return
    for uri in list(ls.docs):
        _schedule_diagnostics(ls, uri, 0)      # the faded branches
    lens.refresh_previews(ls)


def _schedule_diagnostics(ls: PuppetServer, uri: str, delay_ms: int) -> None:
    old = ls.timers.pop(uri, None)
    if old is not None:
        old.cancel()
    loop = ls.loop or asyncio.get_event_loop()
    if delay_ms <= 0:
        ls.timers[uri] = loop.call_soon(_publish, ls, uri)
    else:
        ls.timers[uri] = loop.call_later(delay_ms / 1000.0, _publish, ls, uri)


def _publish(ls: PuppetServer, uri: str) -> None:
    """Publish the diagnostics of ``uri``'s current revision, computed in the work pool
    (seconds for a document near the size limit) unless known already."""
    ls.timers.pop(uri, None)
    doc = ls.docs.get(uri)
    if doc is None:
        return
    if doc.too_large or not ls.settings.diagnostics_enable or (
            ("diagnostics", ls.index_key, ls.config_key) in doc.cache and _unreached_known(ls, doc)):
        _send_diagnostics(ls, uri, doc)
        return
    loop = ls.loop or asyncio.get_event_loop()

    def compute():
        try:
            _send_diagnostics(ls, uri, doc, compute_only=True)
        finally:
            if not loop.is_closed():
                loop.call_soon_threadsafe(done)

    def done():
        # a newer revision (or a close) has its own publication scheduled
        if ls.docs.get(uri) is doc:
            _send_diagnostics(ls, uri, doc)
    try:
        ls.work_pool.submit(compute)
    except RuntimeError:            # the pool is shut down: the server is ending
        pass


def _send_diagnostics(ls: PuppetServer, uri: str, doc: Document, compute_only: bool = False) -> None:
    diags: list = []
    if doc.too_large:
        # One diagnostic, whatever diagnostics_enable says: the user must learn why this
        # file gets no hovers, completion nor outline.
        big = Diagnostic.of("DOCUMENT_TOO_LARGE", 0, 0, size=len(doc.text), limit=ls.settings.documents_max_size)
        diags = convert.diagnostics(doc.codec, uri, [big], False)
    elif ls.settings.diagnostics_enable:
        try:
            key = ("diagnostics", ls.index_key, ls.config_key)
            found = doc.cache.get(key)
            if found is None:
                found = _lint_diagnostics(ls, doc, uri)
                doc.cache[key] = found
            unreached = _unreached_branches(ls, doc, compute=compute_only)
            if compute_only:
                return
            related = bool(ls.cap("text_document.publish_diagnostics.related_information", False))
            diags = convert.diagnostics(doc.codec, uri, found, related) + unreached
        except Exception:
            log.exception("diagnostics failed for %s", uri)
            doc.cache.setdefault(("diagnostics", ls.index_key, ls.config_key), [])    # not again, on the event loop
    if compute_only:
        return
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diags))


def _unreached_known(ls: PuppetServer, doc: Document) -> bool:
    """Are the faded branches of this revision known for the chosen fact set (or not wanted)?"""
    ctx = ls.preview_context() if ls.settings.previews_enable else None
    return ctx is None or ("unreached", ctx.key, ls.hiera_support.generation) in doc.cache


def _unreached_branches(ls: PuppetServer, doc: Document, compute: bool) -> list:
    """The branches the chosen node does not take, faded (the ``unnecessary`` tag): evaluated
    in the worker when diagnostics are computed (``compute``), else as found then."""
    ctx = ls.preview_context() if ls.settings.previews_enable else None
    if ctx is None or doc.is_epp or doc.result.errors:
        return []
    key = ("unreached", ctx.key, ls.hiera_support.generation)
    found = doc.cache.get(key)
    if found is None:
        if not compute:
            return []
        budget = budget_for(ls)
        budget.evaluator = ls.evaluator(time.monotonic() + budget.total_seconds, threading.Event())
        found = ide_preview.branches(ls.analysis(doc), 0, len(doc.text), budget)
        if ls.worker is None or ls.worker.wait_ready(0):
            doc.cache[key] = found      # (a worker that was starting answered nothing: ask again)
    text = ide_preview.unreached_message(ctx)
    return [lsp.Diagnostic(range=convert.rng(doc.codec, s, e), message=text, severity=lsp.DiagnosticSeverity.Hint,
                           code="UNREACHED_BRANCH", source="puppet-ls", tags=[lsp.DiagnosticTag.Unnecessary])
            for b in found for s, e in b.unreached]


def _code_actions(ls: PuppetServer, params: lsp.CodeActionParams, doc: Document) -> list:
    """Quick fixes and "ignore" actions for the style findings in the range, quick fixes of
    the checker's findings there, refactors of the selection; "fix all" when the client asks
    for source actions, or beside quick fixes."""
    if doc.is_epp or doc.result.errors or ls.cap("text_document.code_action.code_action_literal_support", None) is None:
        return []     # (a client without literal support takes commands only: none are offered)
    preferred = bool(ls.cap("text_document.code_action.is_preferred_support", False))
    only = params.context.only
    wanted = (lambda kind: only is None or any(kind == k or kind.startswith(k + ".") for k in only))
    _send_diagnostics(ls, params.text_document.uri, doc, compute_only=True)
    found = doc.cache.get(("diagnostics", ls.index_key, ls.config_key)) or []
    codec = doc.codec
    start = codec.offset(params.range.start.line, params.range.start.character)
    end = codec.offset(params.range.end.line, params.range.end.character)
    uri = params.text_document.uri
    actions: list = []
    if wanted(lsp.CodeActionKind.QuickFix):
        actions += ide_actions.quick_fixes(doc.result, found, start, end, tasks=doc.tasks,
                                           cache=doc.cache.setdefault("code_action_proofs", {}))
        actions += ide_actions.checker_fixes(ls.analysis(doc), found, start, end, tasks=doc.tasks)
    if only is None or any(wanted(k) for k in (ide_actions.EXTRACT, ide_actions.REWRITE)):
        actions += [a for a in ide_actions.refactors(ls.analysis(doc), start, end, tasks=doc.tasks) if wanted(a.kind)]
    if wanted(ide_actions.FIX_ALL) and (only is not None or any(a.edits and a.diagnostic is not None
                                                                and a.diagnostic.fix is not None for a in actions)):
        path = doc.path if uri.startswith("file:") else ""
        key = ("fix_all", ls.config_key)      # the checks the workspace's configuration selects
        if key not in doc.cache:
            doc.cache[key] = ide_actions.fix_all(doc.result, path, ls.lint_config.lint_for(path), tasks=doc.tasks)
        every = doc.cache[key]
        if every is not None:
            actions.append(every)
    out = []
    for a in actions:
        diags = convert.diagnostics(codec, uri, [a.diagnostic], False) if a.diagnostic is not None else None
        out.append(lsp.CodeAction(title=a.title, kind=a.kind, diagnostics=diags, is_preferred=(a.preferred and preferred) or None,
                                  edit=lsp.WorkspaceEdit(changes={uri: convert.text_edits(codec, list(a.edits))})))
    return out

def _lint_diagnostics(ls: PuppetServer, doc: Document, uri: str) -> list:
    """A document's diagnostics as `puppet-ls check` reports them under the workspace's
    configuration: its selection, ignores and per-file ignores; none for an excluded file."""
    cfg = ls.lint_config
    path = doc.path if uri.startswith("file:") else ""
    if path:
        # (a pattern naming a folder matches every file in it)
        root = next((r for r in ls.roots() if lintconfig.relative_to(path, r) is not None), "")
        if cfg.excluded(path, False, root):
            return []
    found = file_diagnostics(doc.result, ls.index, ls.analysis(doc), lint=cfg.lint_for(path), path=path)
    return cfg.filter(path, found)


# ---- indexing -------------------------------------------------------------------------------------

def _index_module_early(ls: PuppetServer, path: str) -> None:
    """While the workspace is being indexed, index the module of a document just opened on its
    own (a few dozen files, usually from the cache) and add it to the partial index, so that
    hover, definition and completion of the module's own classes answer within a moment of
    start instead of after the whole workspace."""
    root = early_module_root(ls, path)
    if root is None:
        return
    try:    # didOpen may come before the "initialized" handler has recorded the loop
        loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
    except RuntimeError:
        loop = ls.loop
    cache = index_cache_for(ls)

    def merge(index):
        if merge_early(ls, index):
            for uri in list(ls.docs):
                _schedule_diagnostics(ls, uri, 0)

    def work():
        try:
            index = build_index([root], [], complete=False, cache=cache)
        except Exception:
            log.exception("indexing %s failed", root)
            return
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(merge, index)

    threading.Thread(target=work, name="puppet-ls-index-early", daemon=True).start()


# What the client is asked to watch (client/registerCapability): the files the index reads,
# the configuration and the Hiera data.  A pull or a checkout changes them outside the editor;
# without this the index would answer from the old files until the server restarts.
WATCHED_GLOBS = ("**/*.pp", "**/*.rb", "**/metadata.json", "**/environment.conf", "**/tasks/*.json",
                 "**/facts.d/**", "**/hiera.yaml", "**/*.{yaml,yml,eyaml,json}",
                 "**/{puppet-ls.toml,.puppet-ls.toml,pyproject.toml,.puppet-lint.rc}")
# More files than this changed at once (a checkout): the index is built again (from the cache,
# a fraction of a second) rather than file by file.
WATCHED_BATCH = 64


def _watch_files(ls: PuppetServer) -> None:
    """Ask the client to report changes to the files the server reads, when it can watch files
    for a server (VS Code, Eglot; Neovim leaves it off on Linux)."""
    if not ls.cap("workspace.did_change_watched_files.dynamic_registration", False):
        return
    watchers = [lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS]
    params = lsp.RegistrationParams(registrations=[lsp.Registration(
        id="puppet-ls-watched-files", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))])

    def done(future) -> None:
        if future.exception() is not None:    # the server works on; the index is just not kept fresh
            log.warning("the client did not register the file watchers: %s", future.exception())

    try:
        ls.client_register_capability(params).add_done_callback(done)
    except Exception:
        log.exception("registering the file watchers failed")


def _sources_changed(ls: PuppetServer, changes: list) -> None:
    """Files the index reads changed on disk, (path, FileChangeType) each: their entries are made
    again from the files (in a thread: reading and parsing them must not hold up requests) and
    the open documents checked again.  Open documents are left alone (the editor's text is newer
    than the file); a module's metadata.json, an environment.conf or a checkout's worth of files
    rebuild the whole index instead."""
    if not ls.settings.index_enable:
        return
    roots = ls.roots() + ls.modulepath()
    exclude = ls.lint_config.excluder
    open_paths = {d.path for d in ls.docs.values()}
    candidates = [(p, kind) for p, kind in changes
                  if p not in open_paths and p.endswith((".pp", ".rb", ".json", "environment.conf"))
                  and (not p.endswith(".json") or os.path.basename(p) == "metadata.json"
                       or os.path.basename(os.path.dirname(p)) == "tasks")]
    if len(candidates) > WATCHED_BATCH:
        # (before asking the exclude patterns about each: a checkout may report thousands, and
        # this runs on the event loop; the build leaves out what they exclude)
        _start_indexing(ls)
        return
    indexed = [(p, kind) for p, kind in candidates if walked_root(p, roots, exclude) is not None]
    if not indexed:
        return
    if not ls.index_ready or any(os.path.basename(p) in ("metadata.json", "environment.conf") for p, _ in indexed):
        _start_indexing(ls)     # (a build under way may have read the files before they changed)
        return
    loop = ls.loop

    def merge(entries: list) -> None:
        for path, entry in entries:
            if entry is None:
                ls.index.remove(path)
            else:
                ls.index.add(entry)
        ls.index_key += 1
        for uri in list(ls.docs):
            _schedule_diagnostics(ls, uri, 0)

    def work() -> None:
        entries = []
        for path, kind in indexed:
            text = None if kind == lsp.FileChangeType.Deleted else read_text(path)
            entries.append((path, index_entry_for(path, text, roots) if text is not None else None))
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(merge, entries)

    threading.Thread(target=work, name="puppet-ls-index-changes", daemon=True).start()


def _index_complete(ls: PuppetServer, index: WorkspaceIndex, roots: list, modulepath: list, seconds: float) -> None:
    """A whole-workspace index is ready: it replaces the partial one (on the event loop)."""
    # open documents are newer than the files on disk
    for doc in ls.docs.values():
        if doc.too_large:
            continue
        entry = index_entry_for(doc.path, doc.text, roots + modulepath)
        if entry is not None:
            index.add(entry)
    ls.index = index
    ls.index_key += 1
    ls.index_ready = True
    ls.early_roots.clear()
    log.info("indexed %d files of %d modules in %.1f s", len(index.files), len(index.modules()), seconds)
    for uri in list(ls.docs):
        _schedule_diagnostics(ls, uri, 0)
    # data files are judged against the classes the index now knows
    ls.hiera_support.invalidate()
    for uri in list(ls.hiera_support.docs):
        _publish_data(ls, uri)
    controlrepo.republish(ls)      # the Puppetfile's modules against the new index


def _start_indexing(ls: PuppetServer) -> None:
    """(Re)build the workspace index in a background thread; the previous build is cancelled."""
    ls.index_cancel.set()
    if not ls.settings.index_enable:
        return
    roots, modulepath = ls.roots(), ls.modulepath()
    build = index_plan(ls)
    ready, ls.ready_index = ls.ready_index, None
    if ready is not None and ready[0] == build:
        # the early front loaded this build's snapshot and reported the end already
        _index_complete(ls, ready[1], roots, modulepath, ready[2])
        return
    cancel = threading.Event()
    ls.index_cancel = cancel
    loop = ls.loop
    progress_ok = bool(ls.cap("window.work_done_progress", False))
    token = f"puppet-ls-index-{int(time.monotonic() * 1000)}"

    def on_loop(fn, *args):
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(fn, *args)
            except RuntimeError:
                pass

    def begin():
        if not progress_ok:
            return
        try:
            ls.work_done_progress.create(token)
            ls.work_done_progress.begin(token, lsp.WorkDoneProgressBegin(title="puppet-ls: indexing",
                                                                         percentage=0, cancellable=False))
        except Exception:
            log.exception("progress begin failed")

    def report(done, total, path):
        if not progress_ok or cancel.is_set():
            return
        try:
            ls.work_done_progress.report(token, lsp.WorkDoneProgressReport(
                message=f"{done}/{total} files", percentage=int(done * 100 / max(total, 1))))
        except Exception:   # progress is cosmetic: indexing goes on whatever the client does
            log.debug("progress report failed", exc_info=True)

    def finish(index, seconds):
        if progress_ok:
            try:
                ls.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=index_done_message(index, seconds)))
            except Exception:   # as for the reports above
                log.debug("progress end failed", exc_info=True)
        if not cancel.is_set():
            _index_complete(ls, index, roots, modulepath, seconds)

    def work() -> None:
        t0 = time.monotonic()
        on_loop(begin)
        last = [0.0]
        warm = [True]

        def warm_library():
            # The function library used by hover/completion/checks, made while the worker
            # processes parse (the first report comes once the files are handed out), else
            # once the index is done: not before the walk, where it would delay both.
            if warm[0]:
                warm[0] = False
                try:
                    ide_completion.builtin_function_summaries()
                except Exception:
                    log.exception("warming the function library failed")

        def progress(done, total, path):
            warm_library()
            now = time.monotonic()
            if now - last[0] > 0.2 or done == total:
                last[0] = now
                on_loop(report, done, total, path)
            # give the event loop thread the interpreter between files
            time.sleep(0)

        cache = index_cache_for(ls)
        walked: dict = {}
        kept = None
        try:
            # the last complete build's index when nothing it read changed, else a build
            index = index_snapshot.load(cache, build) if cache is not None else None
            if index is None:
                index = build_index(roots, modulepath, progress=progress,
                                    cancelled=cancel.is_set, max_files=ls.settings.index_max_files, cache=cache,
                                    jobs=min(4, os.cpu_count() or 1), exclude=ls.lint_config.excluder,
                                    walked=walked)
                if cache is not None and not cancel.is_set():
                    kept = index_snapshot.take(index)
        except Exception:
            log.exception("indexing failed")
            index = WorkspaceIndex()
        on_loop(finish, index, time.monotonic() - t0)
        if kept is not None and cache is not None:
            # (taken before ``finish`` adds the open documents' entries on the event loop)
            index_snapshot.save(cache, build, walked["stamps"], kept)
        warm_library()
        if cache is not None and not cancel.is_set():
            log.info("index cache %s: %d hits, %d misses; %d stale entries pruned",
                     cache.file, cache.hits, cache.misses, cache.prune())

    t = threading.Thread(target=work, name="puppet-ls-index", daemon=True)
    ls.index_thread = t
    t.start()


def run_server(host: str | None = None, port: int | None = None, log_file: str | None = None,
               front=None) -> int:
    """Run until the client says exit; logs go to stderr or a file, never stdout.  ``front``
    (early.Front) is the early front that read stdin until now: its reader, writer and
    lifetime go on, and the messages it did not answer are handled first."""
    if front is None:
        framing.configure_process(log_file)
    server = build_server()
    # The worker starts in the background now: its ~0.5 s of start-up overlaps initialize.
    server.start_worker()
    try:
        if host is not None and port is not None:
            server.start_tcp(host, port)
        else:
            lifetime = front.lifetime if front is not None else framing.Lifetime()
            if server.worker is not None:
                lifetime.cleanups.append(server.worker.close)
            if front is None:
                framing.serve_stdio(server.protocol, lifetime, on_cancel=server.cancel_running)
            else:
                protocol: PuppetProtocol = server.protocol     # type: ignore[assignment]
                protocol.answered_early = front.answered_initialize
                server.ready_index = front.ready_index
                replay = front.handover()
                server.early_docs = front.parsed
                framing.serve_stdio(server.protocol, lifetime, on_cancel=server.cancel_running,
                                    reader=front.reader, writer=front.writer, replay=replay)
    finally:
        if server.worker is not None:
            server.worker.close()
    return 0
