"""Open documents: one immutable revision per version holding the text, its line index, its
parse (kept up to date by incremental reparsing) and, computed on first use, its analysis.

Edits arrive as LSP content changes; each ranged change is applied to the text and to the
tree with ``reparse`` (about a millisecond for a typical keystroke).  A whole-text change is
reduced to the span that really differs (common prefix and suffix) so that clients sending full
text still get incremental reparsing.  EPP templates are parsed whole (the incremental
reparser handles manifests only).

A text longer than the size limit (``puppet.documents.maxSize``) is kept, with its line index,
but not parsed: parsing and analysing megabytes would hold the server for many seconds and
hundreds of megabytes, so such a revision has an empty parse and ``too_large`` set, and the
server answers it with one diagnostic and empty results.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from puppet_ls.language.ide.diagnostics import parse_for_path
from puppet_ls.language.ide.filekinds import EPP, document_kind, is_puppet
from puppet_ls.language.ide.semantic_tokens import TokenMemo
from puppet_ls.language.syntax import reparse
from puppet_ls.language.syntax.lines import LineIndex
from puppet_ls.language.syntax.parser import ParseResult

if TYPE_CHECKING:
    from puppet_ls.language.check import ModelMemo

# Used when no limit is given (the setting's default).
DEFAULT_MAX_SIZE = 524_288

from .positions import UTF16, PositionCodec

def is_puppet_document(language_id: str, path: str) -> bool:
    """Whether a document a client opened is Puppet code the server should analyse: a .pp or
    .epp file, or one the client calls Puppet, but never a Puppetfile, Ruby, YAML or JSON file
    (a generic client may open those with this server too, e.g. for a whole project); the rules
    are ``language/ide/filekinds.py``'s, which ``check`` follows too."""
    # no language at all from a client says nothing: only the file name can make it Puppet
    return is_puppet(document_kind(path, language_id or "none"))


def _model_memo() -> ModelMemo:
    """What each analysis of a document lends the next (its revisions share one)."""
    from puppet_ls.language.check import ModelMemo   # the checker is imported when first used
    return ModelMemo()


# Reparsing piecewise beyond this many changes in one notification costs more than parsing once.
_MAX_INCREMENTAL_CHANGES = 16


@dataclass(eq=False)
class Document:
    uri: str
    path: str
    version: int | None
    text: str
    result: ParseResult
    lines: LineIndex
    encoding: str = UTF16
    _analysis: object = field(default=None, repr=False)
    _analysis_key: object = field(default=None, repr=False)
    cache: dict = field(default_factory=dict, repr=False)   # per-revision results (e.g. diagnostics)
    too_large: bool = False                                  # above the size limit: not parsed
    kind: str = ""                                           # filekinds.PUPPET or EPP ("": from the path)
    model_memo: ModelMemo = field(default_factory=_model_memo, repr=False)   # shared by its revisions
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def codec(self) -> PositionCodec:
        return PositionCodec(self.lines, self.encoding)

    @property
    def is_epp(self) -> bool:
        return self.kind == EPP if self.kind else self.path.endswith(".epp")

    @property
    def tasks(self) -> bool:
        return "/plans/" in self.path.replace("\\", "/")

    def analysis(self, env, key):
        """The analysis of this revision in ``env`` (cached while ``key`` stays the same).
        Requests run in several threads: the first computes, the others wait for it (on a
        large document, four threads computing the same analysis would take four times as
        long)."""
        with self._lock:
            if self._analysis is None or self._analysis_key != key:
                from puppet_ls.language.check import analyze
                self._analysis = analyze(self.result, env, self.model_memo)
                self._analysis_key = key
            return self._analysis


def _parse(text: str, path: str, max_size: int, epp: bool | None = None) -> tuple:
    """(parse, too_large) of a whole text."""
    if len(text) > max_size:
        return parse_for_path("", path, epp), True
    return parse_for_path(text, path, epp), False


def open_document(uri: str, path: str, version: int | None, text: str, encoding: str,
                  max_size: int = DEFAULT_MAX_SIZE, language_id: str = "", parsed: Document | None = None) -> Document:
    """The first revision of a document; ``language_id`` (the client's) decides whether a file
    whose name does not tell is a template.  ``parsed``: the same document opened before (by
    the early front), whose parse is taken when text, path and kind are the same."""
    kind = document_kind(path, language_id) if language_id else ""
    if parsed is not None and parsed.text == text and parsed.path == path and parsed.kind == kind \
            and parsed.too_large == (len(text) > max_size):
        return Document(uri, path, version, text, parsed.result, parsed.lines, encoding,
                        too_large=parsed.too_large, kind=kind)
    result, too_large = _parse(text, path, max_size, kind == EPP if kind else None)
    return Document(uri, path, version, text, result, LineIndex(text), encoding, too_large=too_large, kind=kind)


def _diff_span(old: str, new: str) -> tuple:
    """(start, old_end, new_end): the smallest region where ``old`` and ``new`` differ."""
    n = min(len(old), len(new))
    start = 0
    # compare in chunks first: documents are often large and mostly unchanged
    step = 4096
    while start + step <= n and old[start:start + step] == new[start:start + step]:
        start += step
    while start < n and old[start] == new[start]:
        start += 1
    o_end, n_end = len(old), len(new)
    while o_end > start and n_end > start and old[o_end - 1] == new[n_end - 1]:
        o_end -= 1
        n_end -= 1
    return start, o_end, n_end


def apply_changes(doc: Document, changes: Sequence, version: int | None,
                  max_size: int = DEFAULT_MAX_SIZE) -> Document:
    """The next revision of ``doc`` after LSP ``changes`` (each with a ``range`` in the
    document's position encoding, or without one for the whole text)."""
    text = doc.text
    result = doc.result
    lines = doc.lines
    codec = doc.codec
    incremental = not doc.is_epp and not doc.too_large and len(changes) <= _MAX_INCREMENTAL_CHANGES
    for ch in changes:
        rng = getattr(ch, "range", None)
        if rng is None:
            new_full = ch.text
            start, old_end, new_end = _diff_span(text, new_full)
            piece = new_full[start:new_end]
        else:
            start = codec.offset(rng.start.line, rng.start.character)
            old_end = codec.offset(rng.end.line, rng.end.character)
            if old_end < start:
                start, old_end = old_end, start
            piece = ch.text
            new_full = text[:start] + piece + text[old_end:]
        if incremental and len(new_full) > max_size:
            incremental = False          # too large from now on: stop maintaining the tree
        if incremental:
            result = reparse(result, start, old_end, piece, tasks=doc.tasks)
        text = new_full
        lines = lines.edited(start, old_end, piece, text)
        codec = PositionCodec(lines, doc.encoding)
    too_large = False
    if not incremental:
        result, too_large = _parse(text, doc.path, max_size, doc.is_epp)
    return Document(doc.uri, doc.path, version, text, result, lines, doc.encoding, too_large=too_large,
                    kind=doc.kind, model_memo=doc.model_memo)


class SemanticTokensCache:
    """The last semantic-token array sent for each document, under the result id the client
    quotes when it asks for a delta.  Only the newest result of a document is kept: a client
    asks for the delta against the last answer it received."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, tuple[str, list]] = {}
        self._memos: dict[str, TokenMemo] = {}
        self._counter = 0

    def memo(self, uri: str) -> TokenMemo:
        """What the last computation of the document's tokens can lend the next one."""
        with self._lock:
            found = self._memos.get(uri)
            if found is None:
                found = self._memos[uri] = TokenMemo()
            return found

    def store(self, uri: str, data: list) -> str:
        with self._lock:
            self._counter += 1
            result_id = str(self._counter)
            self._last[uri] = (result_id, data)
            return result_id

    def get(self, uri: str, result_id: str) -> list | None:
        with self._lock:
            last = self._last.get(uri)
            return last[1] if last is not None and last[0] == result_id else None

    def forget(self, uri: str) -> None:
        with self._lock:
            self._last.pop(uri, None)
            self._memos.pop(uri, None)

