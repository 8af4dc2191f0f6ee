"""The language server over LSP (pygls): converts protocol messages to calls of
puppet_ls.language and back.  This first cut publishes diagnostics; the features of the
language-server issue build on it."""
from __future__ import annotations

import logging
import sys

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from puppet_ls.language.ide.diagnostics import file_diagnostics, parse_for_path
from puppet_ls.language.syntax.lines import LineIndex

from . import __version__

log = logging.getLogger("puppet-ls")

_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
             "info": lsp.DiagnosticSeverity.Information}


def _utf16_col(line_text: str, col: int) -> int:
    prefix = line_text[:col]
    return col + sum(1 for ch in prefix if ord(ch) > 0xFFFF)


def to_lsp_diagnostics(text: str, diags) -> list[lsp.Diagnostic]:
    index = LineIndex(text)
    out = []
    for d in diags:
        l1, c1 = index.position(d.offset)
        l2, c2 = index.position(d.end)
        out.append(lsp.Diagnostic(
            range=lsp.Range(lsp.Position(l1, _utf16_col(index.line_text(l1), c1)),
                            lsp.Position(l2, _utf16_col(index.line_text(l2), c2))),
            message=d.message, severity=_SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
            code=d.code, source="puppet-ls"))
    return out


def build_server() -> LanguageServer:
    server = LanguageServer("puppet-ls", __version__)

    def publish(ls: LanguageServer, uri: str) -> None:
        doc = ls.workspace.get_text_document(uri)
        try:
            result = parse_for_path(doc.source, doc.path or uri)
            diags = to_lsp_diagnostics(doc.source, file_diagnostics(result))
        except Exception:  # one broken request must not take the server down
            log.exception("diagnostics failed for %s", uri)
            diags = []
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diags))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    return server


def run_server(host: str | None = None, port: int | None = None, log_file: str | None = None) -> int:
    """Run until the client says exit; logs go to stderr or a file, never stdout."""
    handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    server = build_server()
    if host is not None and port is not None:
        server.start_tcp(host, port)
    else:
        server.start_io()
    return 0
