"""Walking the tokens of a tree backwards from a position, for features that must understand
half-written code by what precedes the cursor (completion, signature help)."""
from __future__ import annotations

from collections.abc import Iterator

from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode, SyntaxToken

_OPENERS = {K.LBRACE: K.RBRACE, K.SELBRACE: K.RBRACE, K.LBRACK: K.RBRACK, K.LISTSTART: K.RBRACK,
            K.LPAREN: K.RPAREN, K.WSLPAREN: K.RPAREN, K.INTERP_OPEN: K.INTERP_CLOSE}
_CLOSERS = {K.RBRACE, K.RBRACK, K.RPAREN, K.INTERP_CLOSE}


def _reversed_tokens(node: SyntaxNode) -> Iterator[SyntaxToken]:
    """Every token of ``node`` from last to first (heredoc bodies left out)."""
    stack = [node]
    while stack:
        n = stack.pop()
        off = n.end
        kids = n.green.children
        items = []
        for j in range(len(kids) - 1, -1, -1):
            c = kids[j]
            w = len(c[1]) if type(c) is tuple else c.width
            off -= w
            items.append((j, c, off))
        # process children last-to-first; nodes are expanded depth first
        pending: list[SyntaxToken | SyntaxNode] = []
        for j, c, o in items:
            if type(c) is tuple:
                pending.append(SyntaxToken(c[0], c[1], o, n, j))
            elif c.kind != K.HEREDOC_BODY:
                pending.append(SyntaxNode(c, o, n, j))
        # emulate recursion: yield tokens in order, descending into nodes as met
        for i, el in enumerate(pending):
            if isinstance(el, SyntaxToken):
                yield el
            else:
                yield from _reversed_tokens(el)


def token_at(root: SyntaxNode, offset: int) -> SyntaxToken | None:
    """The token containing ``offset`` (the one starting there on a boundary): the tree's
    own ``token_at``, which skips siblings by their green widths."""
    return root.token_at(offset)


def tokens_before(root: SyntaxNode, offset: int, significant: bool = True) -> Iterator[SyntaxToken]:
    """Tokens that start before ``offset``, nearest first (the token containing ``offset - 1``
    first)."""
    if offset <= 0:
        return
    tok = token_at(root, offset - 1)
    if tok is None:
        return
    if not significant or not tok.is_trivia:
        yield tok
    cur: SyntaxToken | SyntaxNode = tok
    while True:
        parent = cur.parent
        if parent is None:
            return
        kids = parent.green.children
        off = cur.offset
        for j in range(cur.index - 1, -1, -1):
            c = kids[j]
            w = len(c[1]) if type(c) is tuple else c.width
            off -= w
            if type(c) is tuple:
                if not significant or c[0] not in K.TRIVIA:
                    yield SyntaxToken(c[0], c[1], off, parent, j)
            elif c.kind != K.HEREDOC_BODY:
                for t in _reversed_tokens(SyntaxNode(c, off, parent, j)):
                    if not significant or not t.is_trivia:
                        yield t
        cur = parent


def enclosing_opener(root: SyntaxNode, offset: int, limit: int = 5000) -> tuple:
    """(opener token, tokens between it and ``offset`` in source order) for the innermost
    bracket, brace or parenthesis still open at ``offset``; (None, tokens) at top level."""
    depth = 0
    seen: list = []
    for i, t in enumerate(tokens_before(root, offset)):
        if i > limit:
            break
        k = t.kind
        if t.end > offset:
            continue      # the token being typed
        if k in _CLOSERS and t.text:
            depth += 1
        elif k in _OPENERS:
            if depth == 0:
                seen.reverse()
                return t, seen
            depth -= 1
        if depth == 0:
            seen.append(t)
    seen.reverse()
    return None, seen


def enclosing_bracket(root: SyntaxNode, offset: int) -> SyntaxToken | None:
    """The innermost bracket, brace or parenthesis still open at ``offset``, found through
    the tree (brackets are children of the node they delimit), so a cursor deep in a large
    class costs a walk up its ancestors, not a scan of every token before it."""
    if offset <= 0:
        return None
    # start from the last significant token before the cursor: trivia right before it may
    # belong to whatever node follows
    tok = next(tokens_before(root, offset), None)
    node = tok.parent if tok is not None else None
    while node is not None:
        stack: list = []
        for c in node.children_with_tokens():
            if c.offset >= offset:
                break
            if isinstance(c, SyntaxToken):
                if c.kind in _OPENERS:
                    stack.append(c)
                elif c.kind in _CLOSERS and c.text and c.end <= offset and stack:
                    stack.pop()
        if stack:
            return stack[-1]
        node = node.parent
    return None


def tokens_between(root: SyntaxNode, start: int, offset: int, limit: int = 5000) -> list:
    """Significant tokens that start in [start, offset), in source order."""
    out = []
    for i, t in enumerate(tokens_before(root, offset)):
        if t.offset < start or i > limit:
            break
        if t.end <= offset:
            out.append(t)
    out.reverse()
    return out


def token_before(root: SyntaxNode, token: SyntaxToken) -> SyntaxToken | None:
    """The significant token right before ``token``."""
    for t in tokens_before(root, token.offset):
        if t.end <= token.offset:
            return t
    return None
