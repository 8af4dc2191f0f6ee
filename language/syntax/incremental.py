"""Incremental reparsing: apply a text edit to a parsed file and get the tree a full parse of
the new text would give, reusing every subtree the edit does not touch.

The edit is reparsed inside the smallest *unit* that contains it: a statement (a direct child
of a block or of the file) or a ``{ … }`` block.  A unit's text is lexed and parsed on its own,
and the result is only trusted when that is provably what a full parse would do:

* the unit's text lexes on its own with no error that could reach past it (unclosed quotes or
  comments), contains no heredoc, and keeps its braces balanced;
* its parse consumes exactly its tokens and yields one node of the same shape;
* re-parsing the *old* text of the unit the same way reproduces the old node and the old
  errors inside it exactly (so the unit's parse did not depend on what surrounds it);
* for a statement, neither neighbour can glue onto it: the token after it cannot continue an
  expression, the first token cannot continue the previous statement, and no function that
  may be called without parentheses is left dangling.

Whenever a check fails the next enclosing unit is tried, and in the end the whole file is
parsed again, so the result always equals ``parse(new_text)``.
"""
from __future__ import annotations

from . import kinds as K
from .lexer import lex_range, next_token_kind
from .parser import (EXPR_START, STATEMENT_CALLS, ParseResult, Parser, SyntaxError_, _ASSIGN,
                     _BINARY, _RELATIONSHIP, _qname_text, gc_paused, parse, prefer_closed_runaway_string)
from .tree import GreenNode, SyntaxNode

# Tokens that, following a statement, would make the parser continue that statement.
_CONTINUATION = frozenset(_BINARY) | _RELATIONSHIP | _ASSIGN | frozenset({
    K.QMARK, K.LBRACK, K.DOT, K.LPAREN, K.PIPE, K.LCOLLECT, K.LLCOLLECT, K.COMMA, K.LBRACE,
    K.SELBRACE, K.FARROW, K.PARROW,
})
# A statement can only be reparsed alone when the token before it closes what came before.
_COMPLETE_BEFORE = frozenset({
    K.SEMIC, K.LBRACE, K.RBRACE, K.VARIABLE, K.NAME, K.WORD, K.CLASSREF, K.NUMBER, K.STRING,
    K.REGEX, K.BOOLEAN, K.UNDEF, K.DEFAULT, K.DQ_CLOSE, K.HEREDOC, K.RPAREN, K.RBRACK,
    K.RCOLLECT, K.RRCOLLECT, K.ERROR_TOKEN, K.EPP_END, K.EPP_END_TRIM, K.EPP_TEXT,
})
# Lexer errors that stay where they are (anything else, like an unclosed quote, may swallow
# text beyond the unit).
_LOCAL_LEX_ERRORS = frozenset({"ILLEGAL_CHARACTER", "ILLEGAL_NUMBER", "INVALID_HEX_NUMBER",
                               "INVALID_OCTAL_NUMBER", "ILLEGAL_FULLY_QUALIFIED_NAME", "ILLEGAL_VARIABLE"})
_STATEMENT_PARENTS = frozenset({K.SOURCE_FILE, K.BLOCK})
# Errors that mean a change anywhere may re-pair braces or re-close quotes far away.
_GLOBAL_ERRORS = frozenset({
    "MISSING_RBRACE", "UNMATCHED_BRACE", "UNCLOSED_QUOTE", "UNCLOSED_COMMENT",
    "UNCLOSED_INTERPOLATION", "NESTING_TOO_DEEP", "HEREDOC_INVALID_SYNTAX", "HEREDOC_EMPTY_ENDTAG",
    "HEREDOC_INVALID_ESCAPE", "HEREDOC_MULTIPLE_ESCAPE", "HEREDOC_WITHOUT_END_TAGGED_LINE",
    "HEREDOC_WITHOUT_TEXT", "EPP_UNCLOSED_COMMENT", "EPP_UNCLOSED_TAG",
})


def reparse(old: ParseResult, start: int, end: int, new_text: str, tasks: bool = False) -> ParseResult:
    """The parse of ``old.text`` with characters [start, end) replaced by ``new_text``."""
    with gc_paused():
        return _reparse(old, start, end, new_text, tasks)


def _reparse(old: ParseResult, start: int, end: int, new_text: str, tasks: bool) -> ParseResult:
    text = old.text[:start] + new_text + old.text[end:]
    root = old.root
    if root.kind == K.EPP_FILE:
        # templates switch between text and code at tags: parse them whole
        return parse(text, epp=True, tasks=tasks)
    if root.kind != K.SOURCE_FILE or "@(" in new_text or any(e.code in _GLOBAL_ERRORS for e in old.errors):
        # Unbalanced braces are paired by a whole-file heuristic, and an unclosed quote may be
        # closed by the edit, so no part of such a file can be reparsed on its own.
        return parse(text, tasks=tasks)
    delta = len(new_text) - (end - start)
    budget = len(old.text) // 2
    for node in reversed(_path(root, start, end)):
        if node.kind in (K.BLOCK, K.SOURCE_FILE):
            # typing after the last statement of a block or file (the most common place to add
            # code): reparse just that gap
            result = _try_tail(old, node, start, end, delta, text, tasks)
            if result is not None:
                return result
        if node.end - node.offset > budget:
            break   # a unit this large costs more (parsed twice) than parsing everything once
        result = _try_unit(old, node, start, end, delta, text, tasks)
        if result is not None:
            return result
        # An edit right at the end of a statement may belong to the one after it instead
        # (typing in the blank line before it): try that one too before going up.
        after = _next_sibling_at(node, start, end)
        if after is not None:
            result = _try_unit(old, after, start, end, delta, text, tasks)
            if result is not None:
                return result
    return parse(text, tasks=tasks)


def _try_tail(old: ParseResult, container: SyntaxNode, start: int, end: int, delta: int, text: str,
              tasks: bool) -> ParseResult | None:
    """Reparse the gap between the last statement of a block (or file) and its closing '}' (or
    the end of input), when the edit lies in it: the new text there becomes zero or more
    statements, spliced in before the closer."""
    children = container.green.children
    close_kind = K.RBRACE if container.kind == K.BLOCK else K.EOF
    if not children or type(children[-1]) is not tuple or children[-1][0] != close_kind:
        return None
    close_index = len(children) - 1
    close_offset = container.end - len(children[-1][1])
    # the gap: everything after the last node (the trivia of the closer)
    gap_index = close_index
    while gap_index > 0 and type(children[gap_index - 1]) is tuple and children[gap_index - 1][0] in K.TRIVIA:
        gap_index -= 1
    if gap_index == 0 or type(children[gap_index - 1]) is tuple:
        return None   # nothing before the gap but the opening brace: the block unit does it
    gap_start = close_offset - sum(len(c[1]) for c in children[gap_index:close_index])
    if not (gap_start <= start and end <= close_offset):
        return None
    last_stmt = children[gap_index - 1]
    if _qname_text(last_stmt) in STATEMENT_CALLS or _last_kind(last_stmt) not in _COMPLETE_BEFORE:
        return None
    new_close = close_offset + delta
    if not text[gap_start:gap_start + 1].isspace():
        return None   # the new text touches the last statement's last token
    lexed = lex_range(text, gap_start, new_close, _last_kind(last_stmt), tasks)
    if lexed.heredocs or any(e.code not in _LOCAL_LEX_ERRORS for e in lexed.errors) or _divides(lexed):
        return None
    toks = lexed.tokens
    depth = 0
    for t in toks:
        if t[0] in (K.LBRACE, K.SELBRACE):
            depth += 1
        elif t[0] == K.RBRACE:
            depth -= 1
            if depth < 0:
                return None
    if depth != 0 or (len(toks) > 1 and toks[0][0] not in EXPR_START):
        return None
    eof = toks[-1]
    # the closer itself ends the statements, as in a full parse
    lexed.tokens = toks[:-1] + [(close_kind, "", eof[2], eof[3]), (K.EOF, "", eof[2], ())]
    p = Parser(lexed)
    new_children: list = []
    p.statements(new_children)
    if p.kinds[p.i] != close_kind or p.i != len(lexed.tokens) - 2:
        return None
    p.bump(new_children)
    new_children.pop()   # the stand-in closer (its trivia stays)
    if any(e.offset >= eof[2] for e in p.errors):
        return None
    if any(gap_start - last_stmt.width <= e.offset <= close_offset for e in old.errors):
        # an error in the last statement or at the closer itself ("end of input"): the last
        # statement may be unfinished (an unclosed '['), and new code in the gap continue it
        return None
    green = GreenNode(container.kind, list(children[:gap_index]) + new_children + list(children[close_index:]))
    cur = container
    while cur.parent is not None:
        siblings = list(cur.parent.green.children)
        siblings[cur.index] = green
        green = GreenNode(cur.parent.green.kind, siblings)
        cur = cur.parent
    errors = [e for e in old.errors if e.offset < gap_start] + sorted(p.errors, key=lambda e: (e.offset, e.end)) + \
        [_moved(e, delta) for e in old.errors if e.offset >= close_offset]
    errors.sort(key=lambda e: (e.offset, e.end))
    multiline = tuple([m for m in old.multiline_strings if m[0] < gap_start] + list(p.multiline) +
                      [(a + delta, b + delta) for a, b in old.multiline_strings if a >= close_offset])
    return prefer_closed_runaway_string(ParseResult(green, errors, text, multiline), False, tasks)


def _next_sibling_at(node: SyntaxNode, start: int, end: int) -> SyntaxNode | None:
    parent = node.parent
    if parent is None or start != node.end:
        return None
    children = parent.green.children
    off = node.end
    for i in range(node.index + 1, len(children)):
        c = children[i]
        if type(c) is tuple:
            if c[1]:
                return None
            continue
        return SyntaxNode(c, off, parent, i) if end <= off + c.width else None
    return None


def _path(root: SyntaxNode, start: int, end: int) -> list[SyntaxNode]:
    """The nodes from the root down to the deepest one containing [start, end)."""
    path = [root]
    node = root
    while True:
        nxt = None
        for c in node.children():
            if c.kind == K.HEREDOC_BODY:
                continue
            if c.offset <= start and end <= c.end:
                nxt = c
                break
        if nxt is None:
            return path
        path.append(nxt)
        node = nxt


def _try_unit(old: ParseResult, node: SyntaxNode, start: int, end: int, delta: int, text: str,
              tasks: bool) -> ParseResult | None:
    parent = node.parent
    if node.kind == K.BLOCK:
        first = node.first_token()
        last = node.last_token()
        if first is None or first.kind != K.LBRACE or last is None or last.kind != K.RBRACE:
            return None
        if not (first.end <= start and end <= last.offset):
            return None
        statement = False
    elif parent is not None and parent.kind in _STATEMENT_PARENTS and node.kind != K.ERROR:
        first = node.first_token()
        last = node.last_token()
        # the edit may also lie in the statement's leading trivia (a comment above it)
        if first is None or last is None or not (node.offset <= start and end <= last.end):
            return None
        statement = True
    else:
        return None

    region_start = node.offset
    if "@(" in old.text[region_start:node.end]:
        return None

    prev_green = None
    if statement:
        prev_green = _previous_statement(node)
        if prev_green is not None and _qname_text(prev_green) in STATEMENT_CALLS:
            return None
    prev_kind = _previous_token_kind(node)
    if statement and prev_kind is not None and prev_kind not in _COMPLETE_BEFORE:
        return None   # the statement before is still open ('foo.' or '$a ='): it would glue on

    # The unit parsed on its own (lexed in the context of the text before it) must reproduce
    # the old node and the old errors inside it.  A statement is parsed followed by a stand-in
    # for the token that really follows it, so that it sees the lookahead a full parse sees.
    old_parsed = _parse_unit(old.text, region_start, node.end, statement, prev_green, prev_kind, tasks)
    if old_parsed is None or old_parsed[0] != node.green:
        return None
    lo, hi = _owned_interval(node)
    old_inside = [e for e in old.errors if lo <= e.offset <= hi]
    if old_parsed[1] != old_inside:
        return None

    new_parsed = _parse_unit(text, region_start, node.end + delta, statement, prev_green, prev_kind, tasks)
    if new_parsed is None:
        return None
    new_green, new_errors, first_kind, new_multiline = new_parsed
    if new_green.kind != node.kind and not (statement and new_green.kind != K.ERROR):
        return None
    if statement and (first_kind in _CONTINUATION or first_kind not in EXPR_START):
        return None   # it would glue onto the previous statement, or start with junk

    # Splice the new node in and rebuild its ancestors.
    green = new_green
    cur = node
    while cur.parent is not None:
        children = list(cur.parent.green.children)
        children[cur.index] = green
        green = GreenNode(cur.parent.green.kind, children)
        cur = cur.parent
    # The old errors inside the unit were exactly the unit's own (checked above); replace them.
    # An error before the unit may span over it (e.g. '@' followed by a long expression).
    before = [e if e.end <= hi else SyntaxError_(e.offset, e.end + delta, e.code, e.message, e.hint)
              for e in old.errors if e.offset < lo]
    errors = before + list(new_errors) + [_moved(e, delta) for e in old.errors if e.offset > hi]
    errors.sort(key=lambda e: (e.offset, e.end))
    multiline = tuple([m for m in old.multiline_strings if m[0] < lo] +
                      list(new_multiline) +
                      [(a + delta, b + delta) for a, b in old.multiline_strings if a > hi])
    return prefer_closed_runaway_string(ParseResult(green, errors, text, multiline), False, tasks)


def _divides(lexed) -> bool:
    """Does a range hold a '/' lexed as division?  Where a regexp may start, the lexer takes
    '/' for division when no closing '/' follows on the line *within the range*; in the whole
    text one may follow beyond it (typing "*/" before "x = a /b/" makes a regexp of the rest)."""
    return any(t[0] == K.DIV for t in lexed.tokens)


def _owned_interval(node: SyntaxNode) -> tuple[int, int]:
    """Offsets at which errors found while parsing this unit are reported.  A block's opening
    brace is excluded: the construct that owns the block reports errors there (a missing
    condition, say)."""
    first = node.first_token()
    last = node.last_token()
    if first is None or last is None:   # not a unit (units have tokens): the whole node
        return node.offset, node.end
    if node.kind == K.BLOCK:
        return first.end, last.offset
    return first.offset, last.end


def _parse_unit(text: str, start: int, end: int, statement: bool, prev_green, prev_kind: str | None,
                tasks: bool):
    """Parse text[start:end] as one unit: (green node, errors, kind of its first token,
    multi-line strings), all offsets those of ``text``; None when it does not make exactly one
    unit."""
    # Tokens at the unit's edges must not run into their neighbours outside it ('class' and
    # 'foo' become 'classfoo' when the space between them goes): blanks on both sides.
    if start > 0 and not text[start].isspace():
        return None
    if end < len(text) and not text[end].isspace():
        return None
    lexed = lex_range(text, start, end, prev_kind, tasks)
    if lexed.heredocs or any(e.code not in _LOCAL_LEX_ERRORS for e in lexed.errors) or _divides(lexed):
        return None
    toks = lexed.tokens
    if toks[-1][3] or len(toks) < 2:
        return None   # trailing trivia belongs to the token after the unit
    depth = 0
    for t in toks:
        if t[0] in (K.LBRACE, K.SELBRACE):
            depth += 1
        elif t[0] == K.RBRACE:
            depth -= 1
            if depth < 0:
                return None
    if depth != 0:
        return None
    eof = toks[-1]
    stop = len(toks) - 1
    if statement:
        following = next_token_kind(text, end, toks[-2][0])
        if following != K.EOF:
            lexed.tokens = toks[:-1] + [(following, "", eof[2], ()), eof]
    p = Parser(lexed)
    if statement:
        ch: list = [prev_green] if prev_green is not None else []
        p.statement(ch)
        produced = ch[1:] if prev_green is not None else ch
        if len(produced) != 1 or type(produced[0]) is tuple:
            return None
        node = produced[0]
    else:
        node = p.block()
    if p.i != stop:
        return None   # the parse ended early, or went on into what follows the unit
    if any(e.offset >= eof[2] for e in p.errors):
        return None   # the unit ended while something was still expected
    return node, sorted(p.errors, key=lambda e: (e.offset, e.end)), toks[0][0], p.multiline


def _previous_token_kind(node: SyntaxNode) -> str | None:
    """Kind of the last significant token before ``node`` (the lexer's context for it)."""
    cur = node
    while cur.parent is not None:
        children = cur.parent.green.children
        for i in range(cur.index - 1, -1, -1):
            c = children[i]
            if type(c) is tuple:
                if c[0] not in K.TRIVIA:
                    return c[0]
            else:
                k = _last_kind(c)
                if k is not None:
                    return k
        cur = cur.parent
    return None


def _previous_statement(node: SyntaxNode):
    if node.parent is None:
        return None
    children = node.parent.green.children
    for i in range(node.index - 1, -1, -1):
        c = children[i]
        if type(c) is not tuple:
            return c
        if c[0] not in K.TRIVIA:
            return None   # a ';' (or similar) separates them
    return None


def _last_kind(green: GreenNode) -> str | None:
    """Kind of the last significant token of a green node."""
    for c in reversed(green.children):
        if type(c) is tuple:
            if c[0] not in K.TRIVIA:
                return c[0]
        else:
            k = _last_kind(c)
            if k is not None:
                return k
    return None


def _shift(errors, by: int) -> list:
    return [_moved(e, by) for e in errors]


def _moved(e, by: int):
    return SyntaxError_(e.offset + by, e.end + by, e.code, e.message, e.hint)
