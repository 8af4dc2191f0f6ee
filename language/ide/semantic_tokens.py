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
from ..syntax.tree import WIDE, SyntaxNode, SyntaxToken
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


class TokenMemo:
    """What ``semantic_tokens`` found in each statement of a document's last revision, kept
    between revisions: an incremental reparse shares every statement an edit did not touch
    (the same green node), and such a statement's tokens are classified the same way again,
    apart from its variables (the analysis decides those, and they are looked up again).
    Only the entries the last call used are kept; entries are matched by identity, so a
    memo used by two revisions at once can be stale but never wrong.  ``runs`` keeps the
    comments of a long run of leading trivia (a definition's documentation comment, which is
    the definition's own first children and so walked again after each edit of its body),
    matched by the run's tokens themselves."""
    __slots__ = ("entries", "runs")

    def __init__(self) -> None:
        self.entries: dict = {}
        self.runs: dict = {}


_VARIABLE_TYPES = frozenset({_T["variable"], _T["parameter"]})
# the units kept: statements, and the parameters of a (long) parameter list
_STATEMENT_PARENTS = frozenset({K.BLOCK, K.SOURCE_FILE, K.PARAM_LIST})


def semantic_tokens(an: Analysis, start: int = 0, end: int | None = None, memo: TokenMemo | None = None) -> list:
    """(offset, length, type, modifiers) of the tokens that overlap [start, end) (the whole
    file by default), in order.  With a ``memo`` (whole file only), the statements an edit did
    not touch are not walked again."""
    model = an.model
    defs = {d.offset: d for d in model.definitions}
    refs = {r.offset: r for r in model.references}
    out: list = []
    add = out.append

    def variable(off: int, n: int) -> None:
        d = defs.get(off)
        if d is not None:
            add((off, n, _T["parameter" if d.kind in _PARAM_KINDS else "variable"], DECLARATION))
            return
        r = refs.get(off)
        if r is not None and r.target is not None:
            add((off, n, _T["parameter" if r.target.kind in _PARAM_KINDS else "variable"], 0))
        elif r is not None and r.status == "builtin":
            add((off, n, _T["variable"], READONLY | DEFAULT_LIBRARY))
        else:
            add((off, n, _T["variable"], 0))

    old = memo.entries if memo is not None and start == 0 and end is None else None
    kept: dict = {}
    # An explicit walk of the green tree: the editor asks for every token of the file after
    # each keystroke, and positioned objects for every node and token (through nested
    # generators, one frame per level) cost more than classifying them.  Only names need
    # their parent, so only they become SyntaxTokens.  A frame: [node, next child, offset,
    # (where its tokens start in ``out``, memo key, context, memo entries so far) for a
    # statement being memoised].
    root = an.result.root
    runs = memo.runs if old is not None and memo is not None else None
    kept_runs: dict = {}
    stack: list = [[root, 0, root.offset, None]]
    while stack:
        top = stack[-1]
        node, i, off, rec = top
        children = node.green.children
        if i == 0 and runs is not None and len(children) > WIDE:
            lead = node.green.leading_trivia()
            if lead > WIDE:
                _leading_comments(children, lead, off, runs, kept_runs, out)
                top[1] = lead
                top[2] = off + node.green.starts()[lead]
                continue
        if i >= len(children):
            stack.pop()
            if rec is not None and len(kept) == rec[3]:
                # (a statement holding memoised statements is not kept itself: each token is
                # kept once, by its innermost statement)
                base = node.offset
                toks = tuple((o - base, n, -1 if t in _VARIABLE_TYPES else t, m) for o, n, t, m in out[rec[0]:])
                kept[rec[1]] = (node.green, rec[2], toks, any(t < 0 for _, _, t, _ in toks))
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
            statement = None
            if old is not None and node.green.kind in _STATEMENT_PARENTS:
                key, context = id(c), (node.green.kind, i)
                entry = old.get(key)
                if entry is not None and entry[0] is c and entry[1] == context:
                    kept[key] = entry
                    if entry[3]:
                        for o, n, t, m in entry[2]:
                            if t < 0:
                                variable(off + o, n)
                            else:
                                add((off + o, n, t, m))
                    else:   # no variable to look up again: the tokens as they were, moved
                        out.extend([(off + o, n, t, m) for o, n, t, m in entry[2]])
                    continue
                statement = (len(out), key, context, len(kept))
            stack.append([SyntaxNode(c, off, node, i), 0, off, statement])
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
            variable(off, n)
        elif k == K.CLASSREF:
            add((off, n, _T["type"], DEFAULT_LIBRARY if text in CATALOGUE else 0))
        elif k in _KEYWORDS:
            add((off, n, _T["keyword"], 0))
        elif k == K.NAME or k == K.WORD:
            _name(SyntaxToken(k, text, off, node, i), add, n)
        elif k in _OPERATORS:
            add((off, n, _T["operator"], 0))
    if old is not None and memo is not None:
        memo.entries = kept
        memo.runs = kept_runs
    return out


def _leading_comments(children, lead: int, off: int, runs: dict, kept: dict, out: list) -> None:
    """Add the tokens of ``children[:lead]``, a run of trivia starting at ``off``: of trivia,
    only comments are tokens (the walk's other kinds skip or do not match trivia)."""
    first = children[0]
    found = runs.get(id(first))
    run = children[:lead]
    if found is None or found[0] is not first or found[1] != run:
        rel = []
        o = 0
        for k, text in run:
            if k in _COMMENTS and text:
                rel.append((o, len(text)))
            o += len(text)
        found = (first, run, rel)
    kept[id(first)] = found
    comment = _T["comment"]
    out.extend([(off + o, n, comment, 0) for o, n in found[2]])


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
