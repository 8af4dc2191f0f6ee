"""The one rule that moves code: ``ensure`` becomes the first attribute of a resource body.

Puppet keeps a resource's attributes as a set (their order is not part of the catalog's
meaning), so the move is safe as long as evaluating the attribute values in another order
cannot make a difference: the ensure value must be free of calls (a literal, a name, a
variable, a string interpolating variables).  Bodies with comments between attributes, a
heredoc, a ``* =>`` splat or a nested resource are left alone, so no comment changes its attribute and no heredoc
body is separated from its header.
"""
from __future__ import annotations

from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode
from .atoms import find_nodes

_PURE_VALUE = frozenset({K.LITERAL, K.QNAME, K.VARIABLE_EXPR, K.DQ_STRING, K.INTERPOLATION,
                         K.TYPE_REF, K.RESERVED_WORD})
_COMMENTS = frozenset({K.COMMENT, K.ML_COMMENT})
_BODY = frozenset({K.RESOURCE_BODY})


def _attribute_name(op: SyntaxNode) -> str | None:
    t = op.first_token()
    if t is None:
        return None
    if t.kind == K.TIMES:
        return "*"
    return t.text if t.kind == K.NAME else None


def _movable(body: SyntaxNode, ops: list, ensure: SyntaxNode) -> bool:
    for t in body.all_tokens():
        if t.kind == K.HEREDOC:
            return False
    for n in body.descendants():
        if n.kind == K.RESOURCE_BODY:
            return False    # a nested body would be rewritten inside a moved text
    for op in ops:
        if _attribute_name(op) == "*":
            return False
        for c in op.children_with_tokens():
            if c.kind in _COMMENTS:
                return False
            if c.kind not in K.TRIVIA:
                break
    for t in body.tokens():
        if t.kind in _COMMENTS:
            return False
    arrow = ensure.token(K.FARROW)
    if arrow is None:
        return False
    for c in ensure.children():
        for n in [c, *c.descendants()]:
            if n.kind not in _PURE_VALUE:
                return False
    return True


def ensure_first(text: str, root: SyntaxNode, within: list | None = None) -> str:
    """``text`` with every movable ``ensure`` attribute moved first in its resource body
    (only in bodies inside the ``within`` ranges, when given)."""
    replacements: list = []      # (start, end, new) over trimmed attribute texts
    if "ensure" not in text:
        return text
    for body in find_nodes(root.green, _BODY):
        if within is not None and not any(s <= body.offset and body.end <= e for s, e in within):
            continue
        ops = [c for c in body.children() if c.kind == K.ATTRIBUTE_OP]
        names = [_attribute_name(op) for op in ops]
        if "ensure" not in names or names.index("ensure") == 0 or names.count("ensure") > 1:
            continue
        k = names.index("ensure")
        if not _movable(body, ops, ops[k]):
            continue
        spans = [op.range for op in ops]
        order = [ops[k]] + ops[:k] + ops[k + 1:]
        for (start, end), op in zip(spans, order, strict=True):
            s, e = op.range
            replacements.append((start, end, text[s:e]))
    if not replacements:
        return text
    replacements.sort()
    parts: list = []
    pos = 0
    for start, end, new in replacements:
        parts.append(text[pos:start])
        parts.append(new)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)
