"""Layout checks: line length, indentation, tabs, trailing whitespace, arrow alignment."""
from __future__ import annotations

from . import fixes
from .registry import check
from .resources import resource_span


def _line_length(ctx, limit: int) -> None:
    # Lines are counted as puppet-lint counts them (characters between line feeds); lines with
    # a URL or a template() call are exempt because breaking them would hurt readability.
    text = ctx.text
    starts = ctx.view.lines.starts
    last = len(starts) - 1
    for n, start in enumerate(starts):
        end = starts[n + 1] - 1 if n < last else len(text)
        if end - start <= limit:
            continue
        line = text[start:end]
        if "://" in line or "template(" in line:
            continue
        ctx.report(start + limit - 1, end)


@check("140chars")
def line_over_140(ctx) -> None:
    """Lines longer than 140 characters."""
    _line_length(ctx, 140)


@check("80chars", enabled=False)
def line_over_80(ctx) -> None:
    """Lines longer than 80 characters (the old style guide's limit; off by default)."""
    _line_length(ctx, 80)


@check("2sp_soft_tabs", tokens=("INDENT",))
def soft_tabs(ctx, i, tok) -> None:
    """Indentation whose width is odd."""
    if len(tok.value) % 2:
        ctx.report(tok.offset, tok.end)


@check("hard_tabs", fixable=True, tokens=("INDENT", "WHITESPACE"))
def hard_tabs(ctx, i, tok) -> None:
    """Tab characters in whitespace between tokens."""
    if "\t" in tok.value:
        ctx.report(tok.offset, tok.end, fix=fixes.hard_tabs(tok))


@check("trailing_whitespace", fixable=True, tokens=("INDENT", "WHITESPACE"))
def trailing_whitespace(ctx, i, tok) -> None:
    """Whitespace at the end of a line (or of the file)."""
    toks = ctx.view.toks
    if i + 1 == len(toks) or toks[i + 1].type == "NEWLINE":
        ctx.report(tok.offset, tok.end, fix=fixes.delete(tok))


@check("arrow_alignment", fixable=True, nodes=("RESOURCE_BODY",))
def arrow_alignment(ctx, node) -> None:
    """'=>' arrows of one block (a resource body, or a hash inside it) not in one column."""
    span = resource_span(ctx, node)
    if span is None:
        return
    view = ctx.view
    toks = view.toks
    start, stop = span
    arrows = [i for i in range(start, stop + 1) if toks[i].type == "FARROW"]
    if not arrows:
        return
    line, col = view.line, view.column
    if line(toks[arrows[0]].offset) == line(toks[arrows[-1]].offset):
        return
    level = 0
    arrow_column = {0: 0}
    param_column: dict = {0: None}
    level_arrows: dict = {0: []}
    for i in range(start, stop + 1):
        t = toks[i].type
        if t == "FARROW":
            p = view.prev_code(i)
            if p is None:
                continue
            param = toks[p]
            if param.type == "DQPOST":
                length = param.end - param.start
                first = param.start
            else:
                length = param.end - param.offset
                first = param.offset
            if param_column.get(level) is None:
                param_column[level] = col(first)
            here = line(toks[i].offset)
            same_line = any(line(toks[a].offset) == here for a in level_arrows.setdefault(level, []))
            if same_line:
                wanted = param_column[level] + length + 1
            else:
                wanted = col(param.offset) + (param.end - param.offset) + 1
            if arrow_column.get(level, 0) < wanted:
                arrow_column[level] = wanted
            level_arrows[level].append(i)
        elif t == "LBRACE":
            level += 1
            arrow_column[level] = 0
            param_column[level] = None
            level_arrows[level] = []
        elif t == "RBRACE" or t == "SEMIC":
            group = level_arrows.setdefault(level, [])
            if len({line(toks[a].offset) for a in group}) > 1:
                expected = arrow_column.get(level, 0)
                for a in group:
                    found = col(toks[a].offset)
                    if found != expected:
                        here = line(toks[a].offset)
                        new_line = next(b for b in group if line(toks[b].offset) == here) != a
                        fix = fixes.arrow_alignment(ctx, a, expected, new_line, (param_column[level] or 1) - 1)
                        ctx.report(toks[a].offset, toks[a].end, fix=fix, found=found, expected=expected)
            arrow_column[level] = 0
            group.clear()
            param_column[level] = None
            level -= 1
