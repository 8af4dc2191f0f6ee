"""Plain results of puppet_ls.language.ide -> lsprotocol types, honouring what the client
said it supports (markdown, snippets, related information, multi-line semantic tokens)."""
from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types as lsp

from puppet_ls.language.ide.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES

from .core import plain
from .positions import UTF32, PositionCodec, units

SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "info": lsp.DiagnosticSeverity.Information, "hint": lsp.DiagnosticSeverity.Hint}
LEGEND = lsp.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)

_COMPLETION_KIND = {
    "variable": lsp.CompletionItemKind.Variable, "type": lsp.CompletionItemKind.Class,
    "function": lsp.CompletionItemKind.Function, "keyword": lsp.CompletionItemKind.Keyword,
    "class": lsp.CompletionItemKind.Module, "resource_type": lsp.CompletionItemKind.Struct,
    "attribute": lsp.CompletionItemKind.Property, "value": lsp.CompletionItemKind.EnumMember,
    "snippet": lsp.CompletionItemKind.Snippet, "fact": lsp.CompletionItemKind.Field,
}
_SYMBOL_KIND = {
    "class": lsp.SymbolKind.Class, "define": lsp.SymbolKind.Struct, "node": lsp.SymbolKind.Namespace,
    "function": lsp.SymbolKind.Function, "plan": lsp.SymbolKind.Function,
    "type_alias": lsp.SymbolKind.TypeParameter, "resource": lsp.SymbolKind.Object,
    "variable": lsp.SymbolKind.Variable, "parameter": lsp.SymbolKind.Property,
    "resource_type": lsp.SymbolKind.Struct,
}


def rng(codec: PositionCodec, start: int, end: int) -> lsp.Range:
    (l1, c1), (l2, c2) = codec.position(start), codec.position(end)
    return lsp.Range(lsp.Position(l1, c1), lsp.Position(l2, c2))


def offsets(codec: PositionCodec, r: lsp.Range) -> tuple[int, int]:
    """The code-point offsets of a protocol range."""
    return codec.offset(r.start.line, r.start.character), codec.offset(r.end.line, r.end.character)


def tokens_splice(old: Sequence[int], new: Sequence[int]) -> tuple[int, int, list]:
    """One splice turning the semantic-token array ``old`` into ``new``: (start, how many to
    delete, what to insert), from their common prefix and suffix.  Kept to whole tokens (five
    numbers each) so that a client applying it never sees half a token."""
    n = min(len(old), len(new))
    lo, ln = len(old), len(new)
    # a keystroke changes a few tokens of tens of thousands of numbers: compare slices (in C)
    # a block at a time, then number by number within the block that differs
    step = 640
    p = 0
    while p + step <= n and old[p:p + step] == new[p:p + step]:
        p += step
    while p < n and old[p] == new[p]:
        p += 1
    p -= p % 5
    s = 0
    while s + step <= n - p and old[lo - s - step:lo - s] == new[ln - s - step:ln - s]:
        s += step
    while s < n - p and old[lo - 1 - s] == new[ln - 1 - s]:
        s += 1
    s -= s % 5
    return p, lo - p - s, list(new[p:ln - s])


def text_edits(codec: PositionCodec, edits: list) -> list:
    """The formatter's edits (code-point offsets into the text the codec indexes)."""
    return [lsp.TextEdit(rng(codec, e.start, e.end), e.text) for e in edits]


def publish_diagnostics(uri: str, version: int | None, diagnostics: list) -> lsp.PublishDiagnosticsParams:
    """The notification of a document's diagnostics (for modules that send it without
    importing the protocol types themselves)."""
    return lsp.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)


def diagnostics(codec: PositionCodec, uri: str, diags: list, related_support: bool) -> list:
    out = []
    for d in diags:
        related = None
        if related_support and d.related:
            related = [lsp.DiagnosticRelatedInformation(lsp.Location(uri, rng(codec, s, e)), msg)
                       for s, e, msg in d.related]
        out.append(lsp.Diagnostic(range=rng(codec, d.offset, d.end), message=d.message,
                                  severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error),
                                  code=d.code, source="puppet-ls", related_information=related))
    return out


def markup(text: str, markdown: bool) -> lsp.MarkupContent:
    if markdown:
        return lsp.MarkupContent(lsp.MarkupKind.Markdown, text)
    return lsp.MarkupContent(lsp.MarkupKind.PlainText, plain(text))


def completion_documentation(text: str, doc_formats: list) -> lsp.MarkupContent | str | None:
    """An item's markdown documentation in the best form the client reads."""
    if not text:
        return None
    if lsp.MarkupKind.Markdown in doc_formats:
        return lsp.MarkupContent(lsp.MarkupKind.Markdown, text)
    if lsp.MarkupKind.PlainText in doc_formats:
        return lsp.MarkupContent(lsp.MarkupKind.PlainText, plain(text))
    return plain(text)      # a plain string is always allowed


class Wire(dict):
    """A result already in its JSON form, sent as it is (``PuppetProtocol._send_response``):
    for the largest answers, where making lsprotocol objects and having pygls take them apart
    again was most of the time (every class of a workspace: ~11 of 15 ms for 1,377 items)."""


def _wire_range(start: tuple, end: tuple) -> dict:
    return {"start": {"line": start[0], "character": start[1]}, "end": {"line": end[0], "character": end[1]}}


def _wire_documentation(text: str, doc_formats: list):
    """``completion_documentation`` in its JSON form."""
    found = completion_documentation(text, doc_formats)
    if isinstance(found, lsp.MarkupContent):
        return {"kind": found.kind.value, "value": found.value}
    return found


def completion_list(codec: PositionCodec, offset: int, items: list, snippets: bool,
                    doc_formats: list, resolve: bool = False, defaults: bool = False) -> Wire:
    """The LSP ``CompletionList`` of ``items``, in its JSON form (fields that are not set are
    left out, as lsprotocol writes them).  With ``resolve`` the documentation is left out and
    each item's ``data`` is its position in ``items``: the client asks for it
    (completionItem/resolve) when the user looks at the item.  With ``defaults`` (a client
    that reads LSP 3.17's list item defaults) and one edit range for every item, the range is
    said once for the list and each item carries only its text when it is not its label."""
    end_pos = codec.position(offset)
    starts = {it.edit_start for it in items}
    shared = defaults and len(starts) == 1 and min(starts) >= 0
    ranges: dict = {}       # edit start -> its range: a long list's items mostly share one
    plain = lsp.InsertTextFormat.PlainText.value
    snippet = lsp.InsertTextFormat.Snippet.value
    out = []
    for n, it in enumerate(items):
        use_snippet = snippets and bool(it.snippet)
        new_text = it.snippet if use_snippet else (it.insert_text or it.label)
        item: dict = {"label": it.label}
        kind = _COMPLETION_KIND.get(it.kind)
        if kind is not None:
            item["kind"] = kind.value
        if it.detail:
            item["detail"] = it.detail
        if not resolve:
            documentation = _wire_documentation(it.full_documentation(), doc_formats)
            if documentation is not None:
                item["documentation"] = documentation
        if it.sort_text:
            item["sortText"] = it.sort_text
        if it.filter_text:
            item["filterText"] = it.filter_text
        if shared:
            if use_snippet:
                item["insertTextFormat"] = snippet
            if new_text != it.label:
                item["textEditText"] = new_text
        else:
            item["insertTextFormat"] = snippet if use_snippet else plain
            if it.edit_start >= 0:
                r = ranges.get(it.edit_start)
                if r is None:
                    r = ranges[it.edit_start] = _wire_range(codec.position(it.edit_start), end_pos)
                item["textEdit"] = {"range": r, "newText": new_text}
            else:
                item["insertText"] = new_text
        if resolve:
            item["data"] = n
        out.append(item)
    result = Wire(isIncomplete=False, items=out)
    if shared:
        result["itemDefaults"] = {"editRange": _wire_range(codec.position(min(starts)), end_pos),
                                  "insertTextFormat": plain}
    return result


def document_symbols(codec: PositionCodec, symbols: list, hierarchical: bool, uri: str) -> list:
    if hierarchical:
        def conv(s):
            return lsp.DocumentSymbol(
                name=s.name or "?", kind=_SYMBOL_KIND.get(s.kind, lsp.SymbolKind.Variable),
                range=rng(codec, *s.range), selection_range=rng(codec, *_inside(s.selection_range, s.range)),
                detail=s.detail or None, children=[conv(c) for c in s.children])
        return [conv(s) for s in symbols]
    out = []

    def flat(s, container):
        out.append(lsp.SymbolInformation(name=s.name or "?", kind=_SYMBOL_KIND.get(s.kind, lsp.SymbolKind.Variable),
                                         location=lsp.Location(uri, rng(codec, *s.range)), container_name=container))
        for c in s.children:
            flat(c, s.name)
    for s in symbols:
        flat(s, None)
    return out


def _inside(sel: tuple, whole: tuple) -> tuple:
    """LSP requires the selection range to lie within the range."""
    s, e = sel
    ws, we = whole
    if s < ws or e > we:
        return whole
    return sel


def semantic_tokens(codec: PositionCodec, text: str, tokens: list, multiline: bool) -> list:
    """The LSP integer array of ``tokens`` ((offset, length, type, modifiers), in order),
    multi-line tokens split at line ends unless the client takes them (``multiline``).

    The editor asks for every token of the file after each keystroke: the tokens come in
    order, so their lines are found by walking the line starts once, and a column is counted
    in the negotiated units only on a line that is not all ASCII."""
    starts = codec.index.starts
    encoding = codec.encoding
    plain = encoding == UTF32 or text.isascii()
    ascii_lines: dict = {}
    data: list = []
    extend = data.extend
    prev_line = prev_char = 0
    line = 0
    last = len(starts) - 1
    for offset, length, ttype, mods in tokens:
        end = offset + length
        s = offset
        while True:
            while line < last and starts[line + 1] <= s:
                line += 1
            # a piece ends at the token's end, or (for clients without multi-line tokens) at
            # its line's end
            e = end
            if not multiline and line < last and starts[line + 1] <= end:
                e = starts[line + 1] - 1
            if e > s:
                line_start = starts[line]
                char, size = s - line_start, e - s
                if not plain:
                    simple = ascii_lines.get(line)
                    if simple is None:
                        simple = ascii_lines[line] = text[line_start:starts[line + 1] if line < last else len(text)].isascii()
                    if not simple or e > (starts[line + 1] if line < last else len(text)):
                        char, size = units(text[line_start:s], encoding), units(text[s:e], encoding)
                extend((line - prev_line, char - prev_char if line == prev_line else char, size, ttype, mods))
                prev_line, prev_char = line, char
            if e >= end:
                break
            s = e + 1
    return data


def folding_ranges(codec: PositionCodec, ranges: list) -> list:
    out = []
    seen = set()
    for f in ranges:
        l1, _ = codec.position(f.start)
        l2, _ = codec.position(f.end)
        if l2 <= l1 or (l1, l2) in seen:
            continue
        seen.add((l1, l2))
        kind = lsp.FoldingRangeKind.Comment if f.kind == "comment" else None
        out.append(lsp.FoldingRange(start_line=l1, end_line=l2, kind=kind))
    return out
