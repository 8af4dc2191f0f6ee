"""The token view the lint checks share: the lossless tree flattened, in one pass, into the
tokens puppet-lint's checks are defined over.

puppet-lint's checks count and place *its* tokens (one token for a plain double-quoted string,
``DQPRE``/``DQMID``/``DQPOST`` pieces around interpolations, ``INDENT`` for whitespace that
starts a line, ``$x['a']`` as one variable token, ...).  Checks whose result depends on that
granularity (one finding per top-scope token, arrow columns, "the token before the colon") read
this view so that they report what puppet-lint reports; checks about structure read the tree.
Every token keeps its source range, so positions are exact.
"""
from __future__ import annotations

import bisect
import re
from operator import itemgetter

from ..syntax import kinds as K
from ..syntax.lines import LineIndex
from ..syntax.tree import GreenNode, SyntaxNode

# Names puppet-lint's lexer reads as keywords (its token type is the upper-cased word).
KEYWORDS = frozenset({
    "case", "class", "default", "define", "import", "if", "elsif", "else", "inherits", "node",
    "and", "or", "undef", "false", "true", "in", "unless", "function", "type", "attr", "private",
})
# Data type names puppet-lint's lexer reads as TYPE tokens (other capitalised names: CLASSREF).
TYPE_NAMES = frozenset({
    "Integer", "Float", "Boolean", "Regexp", "String", "Array", "Hash", "Resource", "Class",
    "Collection", "Scalar", "Numeric", "CatalogEntry", "Data", "Tuple", "Struct", "Optional",
    "NotUndef", "Variant", "Enum", "Pattern", "Any", "Callable", "Type", "Runtime", "Undef",
    "Default", "Sensitive",
})
FORMATTING = frozenset({"WHITESPACE", "INDENT", "NEWLINE", "COMMENT", "MLCOMMENT", "SLASH_COMMENT"})
COMMENTS = frozenset({"COMMENT", "MLCOMMENT", "SLASH_COMMENT"})

# puppet-lint's lexer reads a variable with the index brackets that follow it ($x['a'][0]) and
# dashes inside the name ($a-b) as one token; this is its lexical rule, reproduced on the text
# because Puppet's grammar (our tree) has no such token.
_PL_VARIABLE = re.compile(r"\$((?:::)?(?:\w+(?:-\w+)*::)*\w+(?:-\w+)*(?:\[.+?\])*)")
_PL_STRING_VAR = re.compile(r"\$(?:::)?(?:\w+(?:-\w+)*::)*\w+(?:-\w+)*")
_ML_OPEN = re.compile(r"\A/\* ?")
_ML_CLOSE = re.compile(r" ?\*/\Z")
_ML_STAR = re.compile(r"^ *\*", re.MULTILINE)

_RENAME = {
    K.LISTSTART: "LBRACK", K.SELBRACE: "LBRACE", K.WSLPAREN: "LPAREN", K.NAME: "NAME",
    K.WORD: "NAME",
}
_SKIP = frozenset({K.EOF, K.BOM, K.EPP_OPEN, K.EPP_CLOSE, K.EPP_COMMENT, K.EPP_TEXT,
                   K.RENDER_EXPR, K.EPP_END, K.EPP_END_TRIM, K.DQ_OPEN, K.DQ_CLOSE,
                   K.INTERP_OPEN, K.INTERP_CLOSE, K.HEREDOC_END})
# Token kinds that map to one puppet-lint token of the same text, with no rule to apply.
_SIMPLE = {k: k for k in (
    K.LBRACK, K.RBRACK, K.LBRACE, K.RBRACE, K.LPAREN, K.RPAREN, K.EQUALS, K.APPENDS, K.DELETES,
    K.ISEQUAL, K.NOTEQUAL, K.MATCH, K.NOMATCH, K.GREATEREQUAL, K.GREATERTHAN, K.LESSEQUAL,
    K.LESSTHAN, K.FARROW, K.PARROW, K.LSHIFT, K.RSHIFT, K.LLCOLLECT, K.LCOLLECT, K.RRCOLLECT,
    K.RCOLLECT, K.PLUS, K.MINUS, K.TIMES, K.MODULO, K.NOT, K.DOT, K.PIPE, K.AT, K.COLON,
    K.COMMA, K.SEMIC, K.QMARK, K.IN_EDGE, K.IN_EDGE_SUB, K.OUT_EDGE, K.OUT_EDGE_SUB, K.NUMBER)}
_SIMPLE.update({K.LISTSTART: "LBRACK", K.SELBRACE: "LBRACE", K.WSLPAREN: "LPAREN"})
_STRING_NODES = frozenset({K.DQ_STRING, K.HEREDOC_BODY, K.INTERPOLATION})


class Tok(tuple):
    """One token as puppet-lint sees it: its type, its value (puppet-lint's, e.g. a string's
    text without quotes), its range in the source, and for DQPOST/HEREDOC_POST where the whole
    string starts.  A tuple, because a file has tens of thousands of them."""
    __slots__ = ()
    type = property(itemgetter(0))
    value = property(itemgetter(1))
    offset = property(itemgetter(2))
    end = property(itemgetter(3))
    start = property(itemgetter(4))


_new = tuple.__new__


class TokenView:
    """The file's tokens in puppet-lint's terms, with code-token links and positions."""
    __slots__ = ("text", "lines", "toks", "offsets", "nodes", "_prev", "_next")

    def __init__(self, text: str, green: GreenNode, lines: LineIndex | None = None,
                 nodes: frozenset = frozenset()):
        self.text = text
        self.lines = lines or LineIndex(text)
        # the nodes of the kinds in ``nodes``, found on the same walk, in source order (red
        # nodes without a parent: checks only look down from them)
        self.nodes: list[SyntaxNode] = []
        self.toks: list[Tok] = _build(text, green, nodes, self.nodes)
        self.offsets = [t.offset for t in self.toks]
        self._prev: list[int] | None = None
        self._next: list[int] | None = None

    # -- positions ---------------------------------------------------------------------------
    def line(self, offset: int) -> int:
        """1-based line of an offset."""
        return bisect.bisect_right(self.lines.starts, offset)

    def column(self, offset: int) -> int:
        """1-based column (code points) of an offset."""
        starts = self.lines.starts
        return offset - starts[bisect.bisect_right(starts, offset) - 1] + 1

    def index_at(self, offset: int) -> int:
        """Index of the first token starting at or after ``offset``."""
        return bisect.bisect_left(self.offsets, offset)

    # -- neighbours ---------------------------------------------------------------------------
    def _links(self) -> None:
        n = len(self.toks)
        prev = [-1] * n
        nxt = [-1] * n
        last = -1
        for i, t in enumerate(self.toks):
            prev[i] = last
            if t.type not in FORMATTING:
                last = i
        last = -1
        for i in range(n - 1, -1, -1):
            nxt[i] = last
            if self.toks[i].type not in FORMATTING:
                last = i
        self._prev, self._next = prev, nxt

    def next_code(self, i: int) -> int | None:
        """Index of the next non-formatting token after token ``i``."""
        links = self._next
        if links is None:
            self._links()
            links = self._next
        assert links is not None
        j = links[i]
        return None if j < 0 else j

    def prev_code(self, i: int) -> int | None:
        links = self._prev
        if links is None:
            self._links()
            links = self._prev
        assert links is not None
        j = links[i]
        return None if j < 0 else j

    def code_span(self, start: int, end: int) -> tuple[int, int] | None:
        """Indexes of the first and last non-formatting tokens inside [start, end)."""
        toks = self.toks
        i = self.index_at(start)
        while i < len(toks) and toks[i].type in FORMATTING:
            i += 1
        j = self.index_at(end) - 1
        while j >= 0 and toks[j].type in FORMATTING:
            j -= 1
        if i >= len(toks) or j < i or toks[i].offset >= end:
            return None
        return i, j


def _build(text: str, green: GreenNode, wanted: frozenset, nodes: list) -> list[Tok]:
    out: list[Tok] = []
    append = out.append
    skip_until = absorbed = -1
    # open strings: [node kind, node start, text so far, where that text starts,
    # state (False: no interpolation yet, True: interpolated, None: closed), opening offset]
    strings: list[list] = []
    # The tree is walked here rather than through a generator: this loop runs for every token
    # of every file.  Stack entries: (children, next index, offset), or (None, kind, start) to
    # mark the end of a string-like node.
    stack: list = [(green.children, 0, 0)]
    simple_kinds = _SIMPLE
    string_nodes = _STRING_NODES
    while stack:
        children, i, pos = stack.pop()
        if children is None:
            if pos >= skip_until and i != K.INTERPOLATION and strings and strings[-1][1] == pos:
                strings.pop()
            continue
        n = len(children)
        while i < n:
            c = children[i]
            i += 1
            if type(c) is not tuple:
                stack.append((children, i, pos + c.width))
                ck = c.kind
                if ck in wanted:
                    nodes.append(SyntaxNode(c, pos))
                if ck in string_nodes:
                    stack.append((None, ck, pos))
                    if pos >= skip_until:
                        _open(strings, ck, pos, append)
                stack.append((c.children, 0, pos))
                break
            kind, value = c[0], c[1]
            off = pos
            pos += len(value)
            if off < skip_until:
                continue
            simple = simple_kinds.get(kind)
            if simple is not None:
                append(_new(Tok, (simple, value, off, pos, -1)))
                continue
            if kind == K.STRING_TEXT and strings:
                if off < absorbed:
                    value = value[absorbed - off:]
                    off = absorbed
                ctx = strings[-1]
                if ctx[2] == "":
                    ctx[3] = off
                ctx[2] += value
                continue
            if kind in _SKIP:
                if not strings:
                    continue
                ctx = strings[-1]
                if kind == K.INTERP_CLOSE:
                    # puppet-lint's text piece after '${...}' starts at the '}'
                    ctx[2] = ""
                    ctx[3] = off
                elif kind == K.DQ_OPEN:
                    ctx[3] = ctx[5] = off
                elif (kind == K.DQ_CLOSE or kind == K.HEREDOC_END) and ctx[4] is not None:
                    _close_string(ctx, off + len(value), append)
                continue
            end = off + len(value)
            if kind == K.WHITESPACE:
                prev = out[-1].type if out else ""
                append(_new(Tok, ("INDENT" if prev == "NEWLINE" else "WHITESPACE", value, off, end, -1)))
            elif kind == K.NEWLINE:
                # puppet-lint reads '\r\n' as one line break, not as whitespace and a break
                if out and out[-1].type in ("WHITESPACE", "INDENT") and out[-1].value.endswith("\r"):
                    last = out.pop()
                    if len(last.value) > 1:
                        append(_new(Tok, (last.type, last.value[:-1], last.offset, last.end - 1, -1)))
                    off -= 1
                    value = "\r" + value
                append(_new(Tok, ("NEWLINE", value, off, end, -1)))
            elif kind == K.COMMENT:
                append(_new(Tok, ("COMMENT", value[1:], off, end, -1)))
            elif kind == K.ML_COMMENT:
                inner = _ML_STAR.sub("", _ML_CLOSE.sub("", _ML_OPEN.sub("", value)))
                append(_new(Tok, ("MLCOMMENT", inner, off, end, -1)))
            elif kind == K.STRING_VAR:
                m = _PL_STRING_VAR.match(text, off)
                if m is not None and m.end() > end:
                    end = absorbed = m.end()
                    value = m.group(0)
                append(_new(Tok, ("UNENC_VARIABLE", value[1:], off, end, -1)))
                if strings:
                    strings[-1][2] = ""
                    strings[-1][3] = end
            elif kind == K.VARIABLE:
                if value.startswith("$"):
                    m = _PL_VARIABLE.match(text, off)
                    if m is not None and m.end() > end:
                        end = skip_until = m.end()
                        value = m.group(1)
                    else:
                        value = value[1:]
                append(_new(Tok, ("VARIABLE", value, off, end, -1)))
            elif kind == K.STRING:
                append(_new(Tok, ("SSTRING", value[1:-1] if len(value) > 1 and value.endswith("'") else value[1:], off, end, -1)))
            elif kind == K.NAME or kind == K.WORD or kind in K.KEYWORD_KINDS:
                if value in KEYWORDS:
                    append(_new(Tok, (value.upper(), value, off, end, -1)))
                elif text.startswith("(", end):
                    append(_new(Tok, ("FUNCTION_NAME", value, off, end, -1)))
                else:
                    append(_new(Tok, ("NAME", value, off, end, -1)))
            elif kind == K.BOOLEAN:
                append(_new(Tok, (value.upper(), value, off, end, -1)))
            elif kind == K.CLASSREF:
                append(_new(Tok, ("TYPE" if value in TYPE_NAMES else "CLASSREF", value, off, end, -1)))
            elif kind == K.HEREDOC:
                append(_new(Tok, ("HEREDOC_OPEN", value[2:-1], off, end, -1)))
            elif (kind == K.REGEX or kind == K.DIV) and text.startswith("//", off):
                # puppet-lint reads '//' to the end of the line as a comment (Puppet does not)
                eol = text.find("\n", off)
                end = skip_until = len(text) if eol < 0 else eol
                append(_new(Tok, ("SLASH_COMMENT", text[off + 2:end], off, end, -1)))
            elif kind == K.REGEX:
                append(_new(Tok, ("REGEX", value[1:-1], off, end, -1)))
            elif kind == K.ATAT:
                append(_new(Tok, ("AT", "@", off, off + 1, -1)))
                append(_new(Tok, ("AT", "@", off + 1, end, -1)))
            else:
                append(_new(Tok, (_RENAME.get(kind, kind), value, off, end, -1)))
    return out


def _open(strings: list, kind: str, off: int, append) -> None:
    """A string-like node starts: a string opens, or an interpolation ends a text piece."""
    if kind == K.INTERPOLATION:
        if strings and strings[-1][4] is not None:
            ctx = strings[-1]
            pre = "DQ" if ctx[0] == K.DQ_STRING else "HEREDOC_"
            if not ctx[4]:
                ctx[4] = True
                append(_new(Tok, (pre + "PRE", ctx[2], ctx[5], off, -1)))
            else:
                append(_new(Tok, (pre + "MID", ctx[2], ctx[3], off, -1)))
    else:
        strings.append([kind, off, "", off, False, off])


def _close_string(ctx: list, end: int, append) -> None:
    if ctx[4]:
        pre = "DQ" if ctx[0] == K.DQ_STRING else "HEREDOC_"
        append(_new(Tok, (pre + "POST", ctx[2], ctx[3], end, ctx[5])))
    else:
        append(_new(Tok, ("STRING" if ctx[0] == K.DQ_STRING else "HEREDOC", ctx[2], ctx[5], end, -1)))
    ctx[4] = None     # closed: the node's end marker only pops it
