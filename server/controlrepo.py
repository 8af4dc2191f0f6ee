"""The server's handling of a control repository's Puppetfile: kept as text (it is a Ruby DSL,
never parsed as Puppet), its declared modules checked against the indexed modules, the
"declared but not installed" findings published as information.

``lsp.py`` hands a document over here when ``language/ide/filekinds.py`` says it is a
Puppetfile (by name, or by the client's language for an unsaved buffer), and asks for a new
publication when the index changes.
"""
from __future__ import annotations

import logging

from puppet_ls.language.ide.filekinds import PUPPETFILE, document_kind
from puppet_ls.language.ide.puppetfile import puppetfile_diagnostics
from puppet_ls.language.syntax.lines import LineIndex

from . import convert
from .positions import PositionCodec

log = logging.getLogger(__name__)


def _texts(ls) -> dict:
    """uri -> (version, text) of the open Puppetfiles."""
    return ls.__dict__.setdefault("puppetfiles", {})


def did_open(ls, td, path: str) -> bool:
    """Take a document the client opened when it is a Puppetfile (True: handled here)."""
    if document_kind(path, td.language_id or "") != PUPPETFILE:
        return False
    _texts(ls)[td.uri] = (td.version, td.text)
    publish(ls, td.uri)
    return True


def did_change(ls, params) -> bool:
    """Apply the edits of a Puppetfile (True: it is one of ours)."""
    uri = params.text_document.uri
    texts = _texts(ls)
    if uri not in texts:
        return False
    text = texts[uri][1]
    for ch in params.content_changes:
        rng = getattr(ch, "range", None)
        if rng is None:
            text = ch.text
            continue
        codec = PositionCodec(LineIndex(text), ls.encoding)
        start = codec.offset(rng.start.line, rng.start.character)
        end = codec.offset(rng.end.line, rng.end.character)
        start, end = min(start, end), max(start, end)
        text = text[:start] + ch.text + text[end:]
    texts[uri] = (params.text_document.version, text)
    publish(ls, uri)
    return True


def did_close(ls, uri: str) -> bool:
    if _texts(ls).pop(uri, None) is None:
        return False
    ls.text_document_publish_diagnostics(convert.publish_diagnostics(uri, None, []))
    return True


def publish(ls, uri: str) -> None:
    """Publish the Puppetfile's findings against the current index (none while the first
    indexing runs: every module would look missing)."""
    version, text = _texts(ls).get(uri, (None, None))
    if text is None:
        return
    found = []
    try:
        if ls.index_ready and ls.settings.diagnostics_enable:
            found = puppetfile_diagnostics(text, ls.index.modules())
    except Exception:
        log.exception("checking the Puppetfile %s failed", uri)
    codec = PositionCodec(LineIndex(text), ls.encoding)
    diags = convert.diagnostics(codec, uri, found, False)
    ls.text_document_publish_diagnostics(convert.publish_diagnostics(uri, version, diags))


def republish(ls) -> None:
    """After the index changed: every open Puppetfile again."""
    for uri in list(_texts(ls)):
        publish(ls, uri)
