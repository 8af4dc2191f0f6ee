"""Semantic tokens: what each token of the file is (keyword, variable, parameter, function,
type, class, attribute, string, number, ...) using the semantic model, so that parameters,
built-in functions and types can be told apart from plain words.

``TOKEN_TYPES``/``TOKEN_MODIFIERS`` are the legend (standard LSP names); ``semantic_tokens``
returns ``(offset, length, type index, modifier bits)`` in source order.  Tokens may span lines;
the server splits them for clients that cannot take multi-line tokens.
"""
from __future__ import annotations

from ..check.analysis import Analysis
from ..knowledge.functions import function as builtin_function
from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode, SyntaxToken
from ..types.type_docs import CATALOGUE

TOKEN_TYPES = ["namespace", "type", "class", "parameter", "variable", "property", "enumMember",
               "function", "keyword", "comment", "string", "number", "regexp", "operator"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
_T = {name: i for i, name in enumerate(TOKEN_TYPES)}
DECLARATION, READONLY, DEFAULT_LIBRARY = 1, 2, 4

_OPERATORS = frozenset({K.EQUALS, K.APPENDS, K.DELETES, K.ISEQUAL, K.NOTEQUAL, K.MATCH, K.NOMATCH,
                        K.GREATEREQUAL, K.GREATERTHAN, K.LESSEQUAL, K.LESSTHAN, K.FARROW, K.PARROW,
                        K.LSHIFT, K.RSHIFT, K.PLUS, K.MINUS, K.DIV, K.TIMES, K.MODULO, K.NOT,
                        K.IN_EDGE, K.IN_EDGE_SUB, K.OUT_EDGE, K.OUT_EDGE_SUB, K.LLCOLLECT,
                        K.LCOLLECT, K.RRCOLLECT, K.RCOLLECT, K.QMARK})
_STRINGS = frozenset({K.STRING, K.STRING_TEXT, K.DQ_OPEN, K.DQ_CLOSE, K.HEREDOC, K.HEREDOC_END,
                      K.EPP_TEXT})
_COMMENTS = frozenset({K.COMMENT, K.ML_COMMENT, K.EPP_COMMENT})
_KEYWORDS = K.KEYWORD_KINDS | frozenset({K.BOOLEAN, K.UNDEF, K.DEFAULT})
_PARAM_KINDS = frozenset({"parameter", "lambda_parameter", "template_parameter"})
_SKIPPED = frozenset({K.WHITESPACE, K.NEWLINE})


def semantic_tokens(an: Analysis, start: int = 0, end: int | None = None) -> list:
    """(offset, length, type, modifiers) of the tokens that overlap [start, end) (the whole
    file by default), in order."""
    model = an.model
    defs = {d.offset: d for d in model.definitions}
    refs = {r.offset: r for r in model.references}
    out: list = []
    add = out.append
    # An explicit walk of the green tree: the editor asks for every token of the file after
    # each keystroke, and positioned objects for every node and token (through nested
    # generators, one frame per level) cost more than classifying them.  Only names need
    # their parent, so only they become SyntaxTokens.
    root = an.result.root
    stack = [[root, 0, root.offset]]
    while stack:
        top = stack[-1]
        node, i, off = top
        children = node.green.children
        if i >= len(children):
            stack.pop()
            continue
        c = children[i]
        top[1] = i + 1
        if type(c) is not tuple:
            w = c.width
            top[2] = off + w
            if off + w <= start or w == 0:
                continue
            if end is not None and off >= end:
                break
            stack.append([SyntaxNode(c, off, node, i), 0, off])
            continue
        k, text = c
        n = len(text)
        top[2] = off + n
        if n == 0 or k in _SKIPPED:
            continue
        if off + n <= start:
            continue
        if end is not None and off >= end:
            break
        if k in _COMMENTS:
            add((off, n, _T["comment"], 0))
        elif k in _STRINGS:
            add((off, n, _T["string"], 0))
        elif k == K.NUMBER:
            add((off, n, _T["number"], 0))
        elif k == K.REGEX:
            add((off, n, _T["regexp"], 0))
        elif k in (K.VARIABLE, K.STRING_VAR):
            d = defs.get(off)
            if d is not None:
                add((off, n, _T["parameter" if d.kind in _PARAM_KINDS else "variable"], DECLARATION))
                continue
            r = refs.get(off)
            if r is not None and r.target is not None:
                add((off, n, _T["parameter" if r.target.kind in _PARAM_KINDS else "variable"], 0))
            elif r is not None and r.status == "builtin":
                add((off, n, _T["variable"], READONLY | DEFAULT_LIBRARY))
            else:
                add((off, n, _T["variable"], 0))
        elif k == K.CLASSREF:
            add((off, n, _T["type"], DEFAULT_LIBRARY if text in CATALOGUE else 0))
        elif k in _KEYWORDS:
            add((off, n, _T["keyword"], 0))
        elif k == K.NAME or k == K.WORD:
            _name(SyntaxToken(k, text, off, node, i), add, n)
        elif k in _OPERATORS:
            add((off, n, _T["operator"], 0))
    return out


def _name(tok, add, n: int) -> None:
    parent = tok.parent
    pk = parent.kind if parent is not None else ""
    gp = parent.parent if parent is not None else None
    gk = gp.kind if gp is not None else ""
    if pk == K.ATTRIBUTE_OP:
        add((tok.offset, n, _T["property"], 0))
    elif pk in (K.STATEMENT_CALL, K.METHOD_CALL) or (pk == K.QNAME and gk == K.CALL_EXPR and parent.index == 0):
        if pk == K.STATEMENT_CALL and parent.first_token() is not tok:
            add((tok.offset, n, _T["class"], 0))
            return
        add((tok.offset, n, _T["function"], DEFAULT_LIBRARY if builtin_function(tok.text) is not None else 0))
    elif pk in (K.CLASS_DEF, K.DEFINE_DEF, K.PLAN_DEF):
        add((tok.offset, n, _T["class"], DECLARATION))
    elif pk == K.FUNCTION_DEF:
        add((tok.offset, n, _T["function"], DECLARATION))
    elif pk == K.PARENT:
        add((tok.offset, n, _T["class"], 0))
    elif pk == K.QNAME and gk == K.RESOURCE_EXPR and parent.index == 0:
        add((tok.offset, n, _T["type"], 0))
    elif pk == K.QNAME and gk in (K.STATEMENT_CALL, K.ARG_LIST):
        add((tok.offset, n, _T["class"] if "::" in tok.text else _T["enumMember"], 0))
    elif pk == K.QNAME:
        add((tok.offset, n, _T["enumMember"], 0))
