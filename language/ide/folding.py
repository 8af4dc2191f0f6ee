"""Folding ranges: blocks, parameter lists, arrays, hashes, resource bodies, selectors,
heredoc texts, multi-line comments and runs of ``#`` comment lines."""
from __future__ import annotations

from dataclasses import dataclass

from ..syntax import kinds as K
from ..syntax.parser import ParseResult

_FOLDABLE = frozenset({K.BLOCK, K.PARAM_LIST, K.ARRAY, K.HASH, K.RESOURCE_EXPR, K.SELECTOR_EXPR,
                       K.CASE_OPTION, K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE, K.COLLECT_EXPR,
                       K.HEREDOC_BODY, K.ARG_LIST, K.CLASS_DEF, K.DEFINE_DEF, K.FUNCTION_DEF,
                       K.NODE_DEF, K.PLAN_DEF, K.CASE_EXPR})


@dataclass
class FoldingRange:
    start: int          # offset of the first folded character
    end: int            # offset of the last one
    kind: str = ""      # "", "comment", "region"


def folding_ranges(result: ParseResult) -> list:
    out: list = []
    text = result.text
    stack = [result.root]
    while stack:
        node = stack.pop()
        for c in node.children():
            if c.kind in _FOLDABLE:
                start, end = c.range if c.kind != K.HEREDOC_BODY else (c.offset, c.end)
                if "\n" in text[start:end]:
                    out.append(FoldingRange(start, max(start, end - 1)))
            stack.append(c)
    # comments: a run of '#' lines, or a /* */ comment spanning lines
    run_start = run_end = -1
    for tok in _comment_tokens(result):
        if tok.kind == K.ML_COMMENT:
            if "\n" in tok.text:
                out.append(FoldingRange(tok.offset, tok.end - 1, "comment"))
            continue
        if run_start >= 0 and text.count("\n", run_end, tok.offset) == 1 and not text[run_end:tok.offset].strip():
            run_end = tok.end
            continue
        if run_start >= 0 and "\n" in text[run_start:run_end]:
            out.append(FoldingRange(run_start, run_end - 1, "comment"))
        run_start, run_end = tok.offset, tok.end
    if run_start >= 0 and "\n" in text[run_start:run_end]:
        out.append(FoldingRange(run_start, run_end - 1, "comment"))
    out.sort(key=lambda f: (f.start, -f.end))
    return out


def _comment_tokens(result: ParseResult):
    for tok in result.root.all_tokens():
        if tok.kind in (K.COMMENT, K.ML_COMMENT):
            yield tok
