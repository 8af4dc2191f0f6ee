"""Selection ranges ("expand selection"): for a position, the ranges of the syntax tree that
hold it, innermost first, each strictly containing the one before, ending with the whole file.

A string's text without its quotes comes before the string, so one step selects a value and
the next its quotes.  Node ranges leave out leading and trailing trivia (``SyntaxNode.range``),
so a step never selects the blank lines or comments around a statement.
"""
from __future__ import annotations

from ..syntax import kinds as K

_QUOTED = frozenset({K.STRING})


def selection_range(result, offset: int) -> list:
    """(start, end) ranges around ``offset``, innermost first; the last is the whole text."""
    root = result.root
    text_len = len(result.text)
    offset = max(0, min(offset, text_len))
    out: list = []

    def add(start: int, end: int) -> None:
        if not start <= offset <= end:
            return
        if out:
            ps, pe = out[-1]
            if (start, end) == (ps, pe) or not (start <= ps and pe <= end):
                return
        out.append((start, end))

    tok = root.token_at(offset)
    if tok is not None and (tok.is_trivia or tok.kind == K.EOF) and offset > 0:
        before = root.token_at(offset - 1)       # the cursor just after a word selects the word
        if before is not None and not before.is_trivia:
            tok = before
    if tok is not None and not tok.is_trivia and tok.kind != K.EOF:
        if tok.kind in _QUOTED and len(tok.text) >= 2 and tok.text[-1] == tok.text[0]:
            add(tok.offset + 1, tok.end - 1)
        add(tok.offset, tok.end)
    node = tok.parent if tok is not None else None
    while node is not None:
        start, end = node.range
        if node.kind == K.DQ_STRING and end - start >= 2:
            add(start + 1, end - 1)
        add(start, end)
        node = node.parent
    add(0, text_len)
    return out
