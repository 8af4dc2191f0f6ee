"""The Vox Pupuli plugin checks about layout: strict indentation (puppet-lint-strict_indent-check)
and the spacing around opening braces (puppet-lint-manifest_whitespace-check).

Layout is about the text between tokens, so these read the shared token view (one token per
line break, indentation as its own token), as the plugins read puppet-lint's tokens.  Off by
default, as a plugin is until a team installs its gem; selected by name.
"""
from __future__ import annotations

from ..syntax import kinds as K
from .registry import check

_OPEN = {"LBRACE": "RBRACE", "LBRACK": "RBRACK", "LPAREN": "RPAREN"}
_CLOSE = {v: k for k, v in _OPEN.items()}
_SPACE = frozenset({"WHITESPACE", "INDENT", "NEWLINE"})
# what can start a line that is not code: a blank line, a comment, a heredoc's text (one token
# from its first line to its end tag)
_NOT_CODE = frozenset({"NEWLINE", "COMMENT", "MLCOMMENT", "HEREDOC", "HEREDOC_PRE"})
INDENT_WIDTH = 2


def _matches(toks) -> dict[int, int]:
    """Each bracket's partner (by index), both ways; unbalanced ones have none."""
    stacks: dict[str, list[int]] = {"LBRACE": [], "LBRACK": [], "LPAREN": []}
    pairs: dict[int, int] = {}
    for i, t in enumerate(toks):
        if t.type in _OPEN:
            stacks[t.type].append(i)
        elif t.type in _CLOSE:
            stack = stacks[_CLOSE[t.type]]
            if stack:
                j = stack.pop()
                pairs[i] = j
                pairs[j] = i
    return pairs


@check("strict_indent", enabled=False, fixable=False)
def strict_indent(ctx) -> None:
    """A line not indented by two spaces per open bracket (plus one level inside a resource body
    after its title's ':' and one for a value continued after '=' or '=>')."""
    view = ctx.view
    toks = view.toks
    if not toks:
        return
    pairs = _matches(toks)
    # A "line" here is the run of tokens between two line-break tokens: a string or heredoc
    # spanning lines belongs to the line it starts on, so its brackets pair within one line.
    lines = []
    n = 0
    for t in toks:
        lines.append(n)
        if t.type == "NEWLINE":
            n += 1
    indent = 0
    colon_line: int | None = None
    start = 0          # index of the first token of the previous line
    for i, t in enumerate(toks):
        if t.type != "NEWLINE" or i + 1 >= len(toks):
            continue
        # brackets opened on the line just ended and closed on a later line open a level
        opened = sum(1 for k in range(start, i)
                     if toks[k].type in _OPEN and (k not in pairs or lines[pairs[k]] > lines[k]))
        indent += opened
        start = i + 1
        last = i - 1
        while last >= 0 and toks[last].type == "WHITESPACE":
            last -= 1
        last_type = toks[last].type if last >= 0 else ""
        extra = 0
        if last_type == "COLON" and opened == 0 and colon_line is None:
            colon_line = lines[last]
            indent += 1
        elif last_type == "SEMIC" and colon_line is not None:
            colon_line = None
            indent -= 1
        elif last_type in ("EQUALS", "FARROW"):
            extra = 1
        # brackets closed on the next line that were opened on an earlier one close a level
        k = i + 1
        while k < len(toks) and toks[k].type != "NEWLINE":
            if toks[k].type in _CLOSE and k in pairs and lines[pairs[k]] < lines[k]:
                indent -= 1
                if toks[k].type == "RBRACE" and colon_line is not None and lines[pairs[k]] < colon_line:
                    indent -= 1
                    colon_line = None
            k += 1
        if indent < 0:
            return   # brackets this rule cannot follow: say nothing rather than nonsense
        nxt = toks[i + 1]
        first = toks[i + 2] if nxt.type == "INDENT" and i + 2 < len(toks) else nxt
        # blank lines, comments and the text of a heredoc have no indentation to check
        if first.type in _NOT_CODE:
            continue
        actual = len(nxt.value) if nxt.type == "INDENT" else 0
        expected = (indent + extra) * INDENT_WIDTH
        if actual != expected:
            ctx.report(nxt.offset, nxt.end if nxt.type == "INDENT" else nxt.offset,
                       actual=actual, expected=expected)


def _single_space(tok) -> bool:
    return tok.type == "WHITESPACE" and tok.value == " "


def _prev_non_space(toks, i: int) -> int:
    j = i - 1
    while j >= 0 and toks[j].type in _SPACE:
        j -= 1
    return j


@check("manifest_whitespace_opening_brace_before", enabled=False, fixable=False, tokens=("LBRACE",))
def opening_brace_before(ctx, i, tok) -> None:
    """An opening brace not preceded by exactly one space (after a bracket: by nothing, or by a
    line break)."""
    toks = ctx.view.toks
    if i == 0:
        return
    before = toks[i - 1]
    j = _prev_non_space(toks, i)
    if j < 0:
        return
    prev = toks[j]
    if prev.type == "COMMA" and before.type in ("INDENT", "NEWLINE"):
        return
    if prev.type in ("COMMENT", "COLON"):
        return
    if prev.type in _OPEN:
        if j == i - 1 or any(toks[k].type == "NEWLINE" for k in range(j, i)):
            return
    elif j == i - 2 and _single_space(before):
        return
    ctx.report(tok.offset, tok.end)


@check("manifest_whitespace_opening_brace_after", enabled=False, fixable=False, tokens=("LBRACE",))
def opening_brace_after(ctx, i, tok) -> None:
    """An opening brace not followed by one space or one line break (or a bracket)."""
    toks = ctx.view.toks
    if i + 1 >= len(toks):
        return
    after = toks[i + 1]
    if _single_space(after) or after.type in ("RBRACE", "LBRACK", "LBRACE"):
        return
    if after.type == "NEWLINE":
        if i + 2 >= len(toks) or toks[i + 2].type != "NEWLINE":
            return
        after = toks[i + 2]
    ctx.report(after.offset, after.end if after.type != "NEWLINE" else after.offset)


# What may follow a closing brace directly (the plugin's list): the end of an enclosing
# bracket, punctuation, the rest of a string, a line break.
_AFTER_CLOSE = frozenset({"RBRACK", "RPAREN", "SEMIC", "COMMA", "COLON", "DOT", "NEWLINE", "DQMID",
                          "DQPOST", "LBRACK", "HEREDOC_MID", "HEREDOC_POST"})


@check("manifest_whitespace_closing_brace_before", enabled=False, fixable=False, tokens=("RBRACE",))
def closing_brace_before(ctx, i, tok) -> None:
    """A closing brace not preceded by one space or by a line break (and its indentation)."""
    toks = ctx.view.toks
    if i == 0:
        return
    before = toks[i - 1]
    j = _prev_non_space(toks, i)
    if j < 0 or before.type == "LBRACE":
        return
    if toks[j].type != "LBRACE" and _single_space(before) and j == i - 2:
        return
    if (before.type == "INDENT" and j == i - 3) or (before.type == "NEWLINE" and j == i - 2):
        return
    ctx.report(toks[j + 1].offset, tok.offset)


@check("manifest_whitespace_closing_brace_after", enabled=False, fixable=False, tokens=("RBRACE",))
def closing_brace_after(ctx, i, tok) -> None:
    """A closing brace followed by something other than a bracket, punctuation, the rest of a
    string or a line break, or by whitespace and then one of those."""
    _after_closing(ctx, i)


def _after_closing(ctx, i: int) -> None:
    toks = ctx.view.toks
    if i + 1 >= len(toks):
        return
    after = toks[i + 1]
    if after.type in _AFTER_CLOSE:
        return
    if after.type == "WHITESPACE":
        k = i + 1
        while k < len(toks) and toks[k].type in _SPACE:
            k += 1
        if k >= len(toks) or toks[k].type not in _AFTER_CLOSE:
            return
    ctx.report(after.offset, after.end)


@check("manifest_whitespace_two_empty_lines", enabled=False, fixable=False, tokens=("NEWLINE",))
def two_empty_lines(ctx, i, tok) -> None:
    """A second empty line in a row."""
    toks = ctx.view.toks
    k = i
    for _ in range(2):
        k -= 1
        while k >= 0 and toks[k].type in ("WHITESPACE", "INDENT"):
            k -= 1
        if k < 0 or toks[k].type != "NEWLINE":
            return
    ctx.report(tok.offset, tok.offset)


@check("manifest_whitespace_missing_newline_end_of_file", enabled=False, fixable=False)
def missing_newline_end_of_file(ctx) -> None:
    """A manifest whose last line has no line break."""
    toks = ctx.view.toks
    if toks and toks[-1].type != "NEWLINE":
        ctx.report(toks[-1].offset, toks[-1].end)


@check("manifest_whitespace_double_newline_end_of_file", enabled=False, fixable=False)
def double_newline_end_of_file(ctx) -> None:
    """Empty lines at the end of a manifest (one finding per extra line break)."""
    toks = ctx.view.toks
    k = len(toks) - 1
    while k > 0 and toks[k].type == "NEWLINE" and toks[k - 1].type == "NEWLINE":
        ctx.report(toks[k].offset, toks[k].offset)
        k -= 1


def _keyword_and_name(ctx, node) -> tuple[int, int] | None:
    """Token indexes of a class's or defined type's keyword and name."""
    view = ctx.view
    toks = view.toks
    span = view.code_span(node.offset, node.end)
    if span is None:
        return None
    k = span[0] + 1
    while k <= span[1] and toks[k].type not in ("NAME", "FUNCTION_NAME"):
        k += 1
    return (span[0], k) if k <= span[1] else None


@check("manifest_whitespace_class_name_single_space_before", enabled=False, fixable=False,
       nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def class_name_single_space_before(ctx, node) -> None:
    """Anything but one space between 'class' or 'define' and the name."""
    found = _keyword_and_name(ctx, node)
    if found is None:
        return
    toks = ctx.view.toks
    keyword, name = found
    if name != keyword + 2 or not _single_space(toks[keyword + 1]):
        after = toks[keyword + 1]
        ctx.report(after.offset, after.end)


@check("manifest_whitespace_class_name_single_space_after", enabled=False, fixable=False,
       nodes=(K.CLASS_DEF, K.DEFINE_DEF))
def class_name_single_space_after(ctx, node) -> None:
    """Anything but one space between a class's or defined type's name and what follows it."""
    found = _keyword_and_name(ctx, node)
    if found is None:
        return
    toks = ctx.view.toks
    name = found[1]
    k = name + 1
    while k < len(toks) and toks[k].type in _SPACE:
        k += 1
    if k != name + 2 or not _single_space(toks[name + 1]):
        ctx.report(toks[name].offset, toks[name].end)


_LINE_START = frozenset({"INDENT", "NEWLINE"})


@check("manifest_whitespace_opening_bracket_before", enabled=False, fixable=False, tokens=("LBRACK",))
def opening_bracket_before(ctx, i, tok) -> None:
    """An opening bracket of a list not preceded by one space (after another bracket: by
    nothing, or by a line break); an access ($x[1], Type[...]) is left alone."""
    toks = ctx.view.toks
    if i == 0:
        return
    before = toks[i - 1]
    if before.type in ("CLASSREF", "VARIABLE", "NAME"):
        return
    j = _prev_non_space(toks, i)
    if j < 0:
        return
    prev = toks[j].type
    if prev in ("SEMIC", "COMMA", "COLON") and before.type in _LINE_START:
        return
    if prev == "COMMENT":
        return
    if before.type in _LINE_START and prev in ("NAME", "RBRACK", "RBRACE"):
        return
    if prev in ("RBRACK", "RBRACE", "RPAREN", "LPAREN", "LBRACK", "LBRACE", "TYPE"):
        if j == i - 1 or before.type in _LINE_START:
            return
    elif prev not in ("CLASSREF", "VARIABLE") and j == i - 2 and _single_space(before):
        return
    if prev == "LBRACE":
        # the first statement of a lambda's or a block's body
        k = _prev_non_space(toks, j)
        if k < 0:
            return
        if toks[k].type in ("NAME", "PIPE") and (before.type in _LINE_START or (j == i - 2 and _single_space(before))):
            return
    ctx.report(tok.offset, tok.end)


@check("manifest_whitespace_opening_bracket_after", enabled=False, fixable=False, tokens=("LBRACK",))
def opening_bracket_after(ctx, i, tok) -> None:
    """Whitespace, or an empty line, right after an opening bracket."""
    toks = ctx.view.toks
    if i + 1 >= len(toks):
        return
    after = toks[i + 1]
    if after.type not in _SPACE:
        return
    if after.type == "NEWLINE":
        if i + 2 >= len(toks) or toks[i + 2].type != "NEWLINE":
            return
        after = toks[i + 2]
    ctx.report(after.offset, after.end if after.type != "NEWLINE" else after.offset)


@check("manifest_whitespace_closing_bracket_before", enabled=False, fixable=False, tokens=("RBRACK",))
def closing_bracket_before(ctx, i, tok) -> None:
    """Whitespace, or an empty line, right before a closing bracket."""
    toks = ctx.view.toks
    if i == 0:
        return
    before = toks[i - 1]
    j = _prev_non_space(toks, i)
    if j < 0 or before.type not in _SPACE:
        return
    if (before.type == "INDENT" and j == i - 3) or (before.type == "NEWLINE" and j == i - 2):
        return
    ctx.report(toks[j + 1].offset, tok.offset)


@check("manifest_whitespace_closing_bracket_after", enabled=False, fixable=False, tokens=("RBRACK",))
def closing_bracket_after(ctx, i, tok) -> None:
    """A closing bracket followed by something other than a bracket, punctuation, the rest of a
    string or a line break, or by whitespace and then one of those."""
    _after_closing(ctx, i)
