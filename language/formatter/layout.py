"""The layout rules: for every gap between two atoms, the whitespace the style guide wants.

Produces *edits* ``(start, end, new_text)`` over the original text; each edit replaces one gap
(or one string's quotes, or, for a relationship arrow moved to its right operand's line, the
arrow with the gaps on both sides of it).  Token order never changes here, so applying any
subset of the edits keeps the text parsing to the same tree: that is what range formatting and
the formatting of broken files rely on.

Rules (docs/formatting.md has before/after examples of each):
* indentation: two spaces per open bracket level, counted once per line; a line that continues
  an element started on an earlier line gets one more level, except a relationship arrow;
* line breaks are the author's, except: a resource body with several attributes (or spanning
  lines) and a multi-line hash or selector get one element per line and the closing brace on
  its own line; a relationship arrow ending a line moves to the start of the next line;
* at most one blank line in a row; none at the start of the file, after an opening bracket or
  before a closing one; exactly one line break at the end;
* one space around binary operators, ``=``, ``=>``, ``?``, after commas and colons, inside
  non-empty braces; none inside parentheses and brackets, before commas, after unary ``!``;
* ``=>`` aligned (one space after the longest key) in every resource body, hash and selector
  whose arrows stand on more than one line;
* trailing whitespace removed, tabs in indentation replaced, comments kept in place;
* a double-quoted string with nothing to interpolate and no escape becomes single-quoted;
* optional trailing comma after the last element of a multi-line resource body, hash or array;
* a line longer than ``MAX_LINE`` columns is broken at the outermost one-line array or hash that
  starts on it (one element per line), again until no such line has one (``__init__.py``).
Heredoc bodies, string contents and comments are copied verbatim.  In EPP templates only the
spaces between two code tokens on the same line inside one tag, and quotes, are touched.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode
from .atoms import ALIGNED, Atom, atoms, find_nodes

OPENERS = frozenset({K.LBRACE, K.SELBRACE, K.LBRACK, K.LISTSTART, K.LPAREN, K.WSLPAREN,
                     K.LCOLLECT, K.LLCOLLECT})
CLOSERS = frozenset({K.RBRACE, K.RBRACK, K.RPAREN, K.RCOLLECT, K.RRCOLLECT})
RELATIONSHIP_ARROWS = frozenset({K.IN_EDGE, K.IN_EDGE_SUB, K.OUT_EDGE, K.OUT_EDGE_SUB})
_SPACED = frozenset({
    K.EQUALS, K.APPENDS, K.DELETES, K.FARROW, K.PARROW, K.ISEQUAL, K.NOTEQUAL, K.MATCH,
    K.NOMATCH, K.GREATEREQUAL, K.GREATERTHAN, K.LESSEQUAL, K.LESSTHAN, K.LSHIFT, K.RSHIFT,
    K.PLUS, K.MINUS, K.DIV, K.TIMES, K.MODULO, K.AND, K.OR, K.IN,
}) | RELATIONSHIP_ARROWS
_NO_SPACE_BEFORE = frozenset({K.COMMA, K.SEMIC, K.RPAREN, K.RBRACK})
_NO_SPACE_AFTER = frozenset({K.LPAREN, K.WSLPAREN, K.LBRACK, K.LISTSTART, K.AT, K.ATAT})
_KEYWORDS_BEFORE_PAREN = frozenset({K.IF, K.ELSIF, K.UNLESS, K.CASE})
_EPP_MARKUP = frozenset({K.EPP_TEXT, K.RENDER_EXPR, K.EPP_END, K.EPP_END_TRIM, K.EOF})
_BROKEN_OUT = frozenset({K.HASH, K.SELECTOR_EXPR})
_BROKEN_KINDS = _BROKEN_OUT | {K.RESOURCE_EXPR, K.ARRAY}
_COMMA_LISTS = frozenset({K.HASH, K.ARRAY})
_INDENT = "  "
# puppet-lint's 140chars check (on by default; 80chars is not)
MAX_LINE = 140


@dataclass(frozen=True, slots=True)
class FormatOptions:
    """What teams really differ on; everything else is fixed by the style guide."""
    trailing_commas: bool = True   # add a comma after the last element of multi-line lists


DEFAULT_OPTIONS = FormatOptions()


@dataclass(frozen=True, slots=True)
class Edit:
    start: int
    end: int
    text: str


def _is_unary(a: Atom) -> bool:
    return a.parent == K.UNARY_EXPR and a.first_in_parent


def _binary(a: Atom) -> bool:
    if a.kind not in _SPACED:
        return False
    return not (a.kind in (K.MINUS, K.TIMES, K.NOT) and (_is_unary(a) or a.parent == K.ATTRIBUTE_OP))


def _lambda_pipe(a: Atom) -> int:
    """1 for the pipe opening lambda parameters, 2 for the closing one, 0 otherwise."""
    if a.kind != K.PIPE or a.parent != K.PARAM_LIST or a.grandparent != K.LAMBDA:
        return 0
    return 1 if a.first_in_parent else 2


def space_between(prev: Atom, cur: Atom, had_space: bool) -> str:
    """The spaces between two atoms on the same line."""
    pk, ck = prev.kind, cur.kind
    if ck in (K.LPAREN, K.WSLPAREN) and (pk in _KEYWORDS_BEFORE_PAREN or (
            cur.parent == K.PARAM_LIST and cur.grandparent in (K.CLASS_DEF, K.DEFINE_DEF))):
        return " "      # 'if ($x)', 'class foo ($x)': Puppet reads both spellings alike
    if ck in _NO_SPACE_BEFORE or (ck == K.COLON and cur.parent in (K.RESOURCE_BODY, K.CASE_OPTION)):
        return ""
    if pk in _NO_SPACE_AFTER:
        return ""
    if pk == K.NOT and _is_unary(prev):
        return ""
    if pk in (K.MINUS, K.TIMES) and _is_unary(prev):
        return " " if had_space else ""
    if pk in (K.LBRACE, K.SELBRACE):
        return "" if ck == K.RBRACE else " "
    if ck == K.RBRACE:
        return " "
    if ck in (K.LBRACE, K.SELBRACE):
        return " "
    pipe_p, pipe_c = _lambda_pipe(prev), _lambda_pipe(cur)
    if pipe_p == 1 or pipe_c == 2:
        return ""
    if pipe_c == 1 or pipe_p == 2:
        return " "
    if _binary(cur) or _binary(prev) or (pk == K.TIMES and prev.parent == K.ATTRIBUTE_OP):
        return " "
    if ck == K.QMARK and cur.parent == K.SELECTOR_EXPR or pk == K.QMARK and prev.parent == K.SELECTOR_EXPR:
        return " "
    if pk in (K.COMMA, K.COLON) or ck in (K.ELSE, K.ELSIF):
        return " "
    return " " if had_space else ""


def single_quoted(a: Atom) -> str | None:
    """The single-quoted spelling of a double-quoted string atom when it means the same text."""
    node = a.node
    if node is None:
        return None
    kids = [c for c in node.children if not (type(c) is tuple and c[0] in K.TRIVIA)]
    if not kids or kids[0] != (K.DQ_OPEN, '"') or kids[-1] != (K.DQ_CLOSE, '"'):
        return None
    body = kids[1:-1]
    if len(body) > 1 or (body and (type(body[0]) is not tuple or body[0][0] != K.STRING_TEXT)):
        return None
    raw = body[0][1] if body else ""
    if "\\" in raw or "'" in raw:
        return None
    return "'" + raw + "'"


def _line_breaks(root: SyntaxNode, multi_line, forced_lists: frozenset = frozenset()) -> tuple[set, set]:
    """Offsets of atoms that must start a line (one element per line), and offsets of the last
    atoms of lists that take a trailing comma when they end a line.  ``forced_lists``: the offsets of
    arrays and hashes to break even when they stand on one line (a line too long)."""
    breaks: set = set()
    comma_after: set = set()
    for node in find_nodes(root.green, _BROKEN_KINDS):
        kind = node.kind
        if kind == K.RESOURCE_EXPR:
            bodies = [b for b in node.children() if b.kind == K.RESOURCE_BODY]
            close = node.token(K.RBRACE)
            spread = len(bodies) > 1 or multi_line(node)
            for b in bodies:
                ops = [c for c in b.children() if c.kind == K.ATTRIBUTE_OP]
                if len(ops) > 1:
                    spread = True
            if not spread or close is None or not close.text:
                continue
            for bi, b in enumerate(bodies):
                ops = [c for c in b.children() if c.kind == K.ATTRIBUTE_OP]
                if bi > 0:
                    first = b.first_token()
                    if first is not None:
                        breaks.add(first.offset)
                # several bodies ('title': attr => value;) may keep one short body per line
                if len(bodies) == 1 or len(ops) > 1 or multi_line(b):
                    for op in ops:
                        t = op.first_token()
                        if t is not None:
                            breaks.add(t.offset)
                if ops and bi == len(bodies) - 1:
                    last = ops[-1].last_token()
                    nxt = b.last_token()
                    if last is not None and nxt is not None and nxt.kind != K.COMMA:
                        comma_after.add(last.end)
            breaks.add(close.offset)
        elif kind in _BROKEN_OUT or kind == K.ARRAY:
            opener = node.first_token() if forced_lists else None
            forced = opener is not None and opener.offset in forced_lists
            if not forced and not multi_line(node):
                continue
            close = node.last_token()
            if close is None or close.kind not in CLOSERS or not close.text:
                continue
            entries = [c for c in node.children()
                       if c.kind in (K.HASH_ENTRY, K.SELECTOR_ENTRY)] if kind != K.ARRAY else list(node.children())
            if kind in _BROKEN_OUT or forced:
                for e in entries:
                    t = e.first_token()
                    if t is not None:
                        breaks.add(t.offset)
                breaks.add(close.offset)
            if kind in _COMMA_LISTS and entries:
                last = entries[-1].last_token()
                kids = [c for c in node.children_with_tokens() if c.kind not in K.TRIVIA]
                if last is not None and len(kids) >= 2 and kids[-2].kind != K.COMMA:
                    comma_after.add(last.end)
    return breaks, comma_after


def _gap_has_newline(a: Atom) -> bool:
    for kind, text in a.gap:
        if kind == K.NEWLINE or (kind == K.ML_COMMENT and "\n" in text) or kind == K.HEREDOC_BODY:
            return True
    return False


def layout_edits(text: str, root: SyntaxNode, epp: bool = False,
                 options: FormatOptions | None = None, spread: frozenset = frozenset()) -> list[Edit]:
    """The edits that give ``text`` (whose tree is ``root``) the canonical layout; ``spread``:
    offsets of arrays and hashes to break one element per line (see ``long_line_lists``)."""
    options = options or DEFAULT_OPTIONS
    items = atoms(root.green)
    edits: list[Edit] = []
    for a in items:
        if a.kind == K.DQ_STRING:
            sq = single_quoted(a)
            if sq is not None and sq != a.text:
                edits.append(Edit(a.start, a.end, sq))
    if epp:
        _epp_edits(text, items, edits)
        edits.sort(key=lambda e: (e.start, e.end))
        return edits

    nl = "\r\n" if "\r\n" in text and text.count("\r\n") * 2 >= text.count("\n") else "\n"
    by_start = {a.start: i for i, a in enumerate(items)}
    by_end = {a.end: i for i, a in enumerate(items) if a.text}   # a string atom ends with its '"'
    line_of_gap = [_gap_has_newline(a) for a in items]
    breaks_before = [0]            # prefix counts: is there a line break between atoms i and j?
    for flag in line_of_gap:
        breaks_before.append(breaks_before[-1] + flag)

    def multi_line(node: SyntaxNode) -> bool:
        first, last = node.first_token(), node.last_token()
        if first is None or last is None:
            return False
        i, j = by_start.get(first.offset), by_end.get(last.end)
        if i is None or j is None:
            return False
        return breaks_before[j + 1] - breaks_before[i + 1] > 0

    breaks, comma_after = _line_breaks(root, multi_line, spread)
    force = [False] * len(items)
    for off in breaks:
        i = by_start.get(off)
        if i is not None and i > 0:
            force[i] = True

    # relationship arrows at a line end move to the start of the next line
    moved = [False] * len(items)
    for i in range(1, len(items) - 1):
        a = items[i]
        if (a.kind in RELATIONSHIP_ARROWS and a.parent == K.RELATIONSHIP and line_of_gap[i + 1]
                and not line_of_gap[i] and not any(k != K.WHITESPACE for k, _ in a.gap)
                and not any(k == K.HEREDOC_BODY for k, _ in items[i + 1].gap)):
            moved[i] = True

    gaps: list = [None] * len(items)   # new gap text per atom (None: unchanged)
    frames: list = []                  # see _track
    line_indent = 0
    prev: Atom | None = None
    add_comma = options.trailing_commas
    for i, a in enumerate(items):
        if a.top:
            # damage in an earlier statement may leave brackets unbalanced: start afresh
            frames.clear()
        if moved[i - 1] if i > 0 else False:
            gaps[i] = " "
            prev = a
            _track(a, frames, line_indent)
            continue
        src = items[i + 1] if moved[i] else a
        newline_in_gap = line_of_gap[i + 1] if moved[i] else line_of_gap[i]
        starts_line = newline_in_gap or force[i]
        if a.kind in CLOSERS:
            base = frames[-1][0] if frames else 0
            inner = frames[-1][1] if frames else 0
        else:
            inner = frames[-1][1] if frames else 0
            if a.elem_of == K.RESOURCE_BODY and frames:
                if a.elem_kind == K.ATTRIBUTE_OP:
                    # under a title standing on its own line, attributes go one level deeper
                    inner += frames[-1][2]
                else:
                    frames[-1][2] = 1 if starts_line else 0
            cont = (prev is not None and not a.element_start and a.kind not in RELATIONSHIP_ARROWS
                    and a.kind not in (K.LBRACE, K.EOF))
            base = inner + (1 if cont else 0)
        if starts_line:
            line_indent = base
        lead = ""
        if prev is not None and add_comma and prev.end in comma_after and starts_line and a.kind in CLOSERS:
            lead = ","
        g = src.gap
        if not starts_line and prev is not None and a.kind != K.EOF and (
                not g or (len(g) == 1 and g[0][0] == K.WHITESPACE)):
            # the common case: two atoms on one line with at most spaces between them
            gaps[i] = lead + space_between(prev, a, bool(g))
        else:
            gaps[i] = lead + _build_gap(g, prev, a, starts_line, _INDENT * base, _INDENT * inner, nl)
        _track(a, frames, line_indent)
        prev = a

    _align_arrows(items, gaps)

    for i, a in enumerate(items):
        new = gaps[i]
        if moved[i]:
            nxt = items[i + 1]
            old = text[a.gap_start:nxt.start]
            rebuilt = new + a.text + gaps[i + 1]
            if rebuilt != old:
                edits.append(Edit(a.gap_start, nxt.start, rebuilt))
            continue
        if i > 0 and moved[i - 1]:
            continue
        if new is not None and new != text[a.gap_start:a.start]:
            edits.append(Edit(a.gap_start, a.start, new))
    edits.sort(key=lambda e: (e.start, e.end))
    return edits


def _track(a: Atom, frames: list, line_indent: int) -> None:
    if a.kind in OPENERS:
        # indent of the opening line, indent inside, extra level of a resource's attributes
        frames.append([line_indent, line_indent + 1, 0])
    elif a.kind in CLOSERS and frames:
        frames.pop()


def _build_gap(gap: list, prev: Atom | None, cur: Atom, starts_line: bool,
               indent: str, inner_indent: str, nl: str) -> str:
    out: list = []
    at_line_start = prev is None
    newlines = 0            # line breaks in a row (blank-line collapsing)
    had_space = False
    max_newlines = 2
    if prev is not None and prev.kind in OPENERS or cur.kind in CLOSERS:
        max_newlines = 1
    # a comment before a closing bracket belongs to the content: indent it one level deeper
    comment_indent = inner_indent if cur.kind in CLOSERS else indent
    for kind, text in gap:
        if kind == K.WHITESPACE:
            had_space = True
            continue
        if kind == K.NEWLINE:
            if newlines < max_newlines and (prev is not None or out):
                out.append(nl)
            newlines += 1
            at_line_start = True
            continue
        if kind == K.HEREDOC_BODY:
            out.append(text)
            at_line_start = True
            newlines = 1
            continue
        if kind in (K.COMMENT, K.ML_COMMENT):
            if at_line_start:
                out.append(comment_indent + text.rstrip() if kind == K.COMMENT else comment_indent + text)
            else:
                out.append(" " + (text.rstrip() if kind == K.COMMENT else text))
            newlines = 0
            at_line_start = False
            had_space = False
            if cur.kind not in CLOSERS:
                max_newlines = 2    # a blank line after a comment is the author's paragraph
            continue
        # BOM and EPP markup never reach here outside EPP; keep anything else as is
        out.append(text)
        at_line_start = False
    if cur.kind == K.EOF:
        while out and out[-1] == nl:
            out.pop()
        if prev is None and not out:
            return ""
        if not out or not out[-1].endswith("\n"):   # a heredoc body ends with its own break
            out.append(nl)
        return "".join(out)
    if prev is None:
        return "".join(out)
    if starts_line:
        if not at_line_start:
            out.append(nl)
        out.append(indent)
        return "".join(out)
    if out:
        # an inline /* comment */ sits between the atoms: a space after it
        out.append(" ")
        return "".join(out)
    return "".join(out) + space_between(prev, cur, had_space)


def _align_arrows(items: list, gaps: list) -> None:
    """Pad the gap before each '=>' so that the arrows of a multi-line group line up; the '='
    of parameter defaults likewise, unless that would make a line longer than ``MAX_LINE``
    (puppet-lint asks for aligned arrows, not for aligned defaults, but it does count columns)."""
    col = 0
    line = 0
    where: dict = {}        # group -> list of (atom index, line, column of the arrow)
    lengths: dict = {}      # line -> its length in columns (without the padding)

    def step(text: str) -> None:
        nonlocal line, col
        first = text.find("\n")
        if first < 0:
            col += len(text)
            return
        lengths[line] = col + len(text[:first].rstrip("\r"))
        line += text.count("\n")
        col = len(text) - text.rfind("\n") - 1

    for i, a in enumerate(items):
        g = gaps[i]
        if g is None:
            g = ""
        step(g)
        if a.group and a.kind in ALIGNED and "\n" not in g and g == " ":
            where.setdefault(a.group, []).append((i, line, col))
        step(a.text)
    lengths[line] = col
    for arrows in where.values():
        if len({ln for _, ln, _ in arrows}) < 2:
            continue
        target = max(c for _, _, c in arrows)
        if items[arrows[0][0]].kind == K.EQUALS and \
                any(lengths.get(ln, 0) + target - c > MAX_LINE for _, ln, c in arrows):
            continue
        for i, _, c in arrows:
            gaps[i] = " " * (target - c + 1)


def _epp_edits(text: str, items: list, edits: list) -> None:
    for i in range(1, len(items)):
        prev, a = items[i - 1], items[i]
        if prev.kind in _EPP_MARKUP or a.kind in _EPP_MARKUP:
            continue
        if any(k != K.WHITESPACE for k, _ in a.gap):
            continue
        old = text[a.gap_start:a.start]
        if "\n" in old or "\r" in old:
            continue
        new = space_between(prev, a, bool(old))
        if new != old:
            edits.append(Edit(a.gap_start, a.start, new))


_LISTS = frozenset({K.ARRAY, K.HASH})
# what a list broken over lines must not hold: a heredoc's body follows its line, and a
# multi-line comment may hold the line break itself
_UNBREAKABLE = frozenset({K.HEREDOC_EXPR, K.HEREDOC_BODY, K.ML_COMMENT})


def long_line_lists(text: str, root: SyntaxNode, ranges: list | None = None) -> frozenset:
    """The arrays and hashes to break (the offsets of their opening brackets) because the line
    they stand on is longer than ``MAX_LINE``: on each such line, the outermost list of at least
    two elements that starts and ends on it (``ranges``: only lists inside these, the clean
    statements)."""
    long_lines = []
    pos = 0
    for line in text.split("\n"):     # Puppet's lines (str.splitlines knows more separators)
        width = len(line) - line.endswith("\r")
        if width > MAX_LINE:
            long_lines.append((pos, pos + width))
        pos += len(line) + 1
    if not long_lines:
        return frozenset()
    out = set()
    taken_lines: set = set()
    for node in find_nodes(root.green, _LISTS):      # outermost first
        first, last = node.first_token(), node.last_token()
        if first is None or last is None or last.kind not in CLOSERS or not last.text:
            continue
        lo, hi = first.offset, last.end     # (the node's offset is that of its leading trivia)
        span = next(((a, b) for a, b in long_lines if a <= lo < b), None)
        if span is None or span in taken_lines or hi > span[1]:
            continue
        if ranges is not None and not any(s <= lo and hi <= e for s, e in ranges):
            continue
        elements = [c for c in node.children() if c.kind == K.HASH_ENTRY or node.kind == K.ARRAY]
        if len(elements) < 2 or any(t.kind in _UNBREAKABLE for t in node.descendants_with_tokens()):
            continue
        out.add(lo)
        taken_lines.add(span)
    return frozenset(out)
