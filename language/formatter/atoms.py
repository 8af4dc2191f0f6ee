"""Flatten a syntax tree into the formatter's unit of work: significant atoms with their gaps.

An atom is one significant token, or a whole double-quoted string (its inside is text, never
re-spaced).  Each atom carries the trivia between it and the previous atom (its *gap*: spaces,
line breaks, comments, heredoc bodies) and the little tree context the layout rules need: the
kind of its parent and grandparent node, whether it starts an element of a list-like construct
(a statement, an attribute, an array element ...), and for ``=>`` the construct it aligns in.
The formatter only ever rewrites gaps (and a few atom texts), so token order is preserved.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..syntax import kinds as K
from ..syntax.tree import GreenNode, SyntaxNode

# Nodes whose children are a sequence of elements (statements, attributes, entries ...): the
# first atom of each child starts an element, so a line starting there is not a continuation.
LIST_PARENTS = frozenset({
    K.SOURCE_FILE, K.EPP_FILE, K.STATEMENTS, K.BLOCK, K.RESOURCE_EXPR, K.RESOURCE_BODY,
    K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE, K.ARRAY, K.HASH, K.ARG_LIST, K.PARAM_LIST,
    K.SELECTOR_EXPR, K.CASE_EXPR, K.ACCESS_EXPR,
})
# Of those, the ones whose every child is an element; in the others only the children after
# the opening bracket are (a selector's tested expression is not an element of its braces).
_ALL_INSIDE = frozenset({K.SOURCE_FILE, K.EPP_FILE, K.STATEMENTS, K.BLOCK, K.RESOURCE_BODY})
_OPENING = frozenset({K.LBRACE, K.SELBRACE, K.LBRACK, K.LISTSTART, K.LPAREN, K.WSLPAREN, K.PIPE})
# Kinds that start an element wherever they appear ('} else {' on its own line is not a
# continuation of the if).
ELEMENT_KINDS = frozenset({K.ELSIF_CLAUSE, K.ELSE_CLAUSE})
# The constructs inside which '=>' arrows are aligned, and the nodes holding one arrow each.
# Parameter defaults ('=') line up the same way in a multi-line parameter list.
ARROW_GROUPS = frozenset({K.RESOURCE_BODY, K.RESOURCE_DEFAULTS, K.RESOURCE_OVERRIDE, K.HASH,
                          K.SELECTOR_EXPR, K.PARAM_LIST})
ARROW_HOLDERS = frozenset({K.ATTRIBUTE_OP, K.HASH_ENTRY, K.SELECTOR_ENTRY, K.PARAM})
ALIGNED = frozenset({K.FARROW, K.PARROW, K.EQUALS})


@dataclass(slots=True, eq=False)
class Atom:
    kind: str
    text: str
    start: int
    gap_start: int                  # where the gap before this atom starts (previous atom's end)
    gap: list                       # trivia items (kind, text) in the gap; heredoc bodies whole
    parent: str
    grandparent: str
    node: GreenNode | None = None   # the DQ_STRING node for string atoms
    element_start: bool = False
    group: int = 0                  # for arrows: id of the construct they align in (0: none)
    first_in_parent: bool = False   # first significant atom of its parent node
    top: bool = False               # starts a top-level statement
    elem_of: str = ""               # for an element start: the kind of the list it is in
    elem_kind: str = ""             # ... and the kind of the element

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def atoms(green: GreenNode) -> list[Atom]:
    """The atoms of a whole tree, ending with the EOF atom (its gap is the file's tail)."""
    out: list[Atom] = []
    pending: list = []
    gap_start = 0
    # An explicit stack of [node, next child index, offset, index of the node's first atom,
    # opening bracket seen among its children] keeps deep trees off Python's recursion limit.
    stack: list = [[green, 0, 0, 0, False]]
    kinds_path: list = [green.kind]
    group_ids: list = [0]
    next_group = 0
    pos = 0
    while stack:
        frame = stack[-1]
        node, i = frame[0], frame[1]
        if i >= len(node.children):
            stack.pop()
            kinds_path.pop()
            group_ids.pop()
            first = frame[3]
            if first < len(out) and stack:
                parent_kind = stack[-1][0].kind
                if (parent_kind in LIST_PARENTS and (parent_kind in _ALL_INSIDE or stack[-1][4])
                        or node.kind in ELEMENT_KINDS):
                    a = out[first]
                    a.element_start = True
                    if not a.elem_of:     # the innermost list wins
                        a.elem_of, a.elem_kind = parent_kind, node.kind
                    if parent_kind in (K.SOURCE_FILE, K.EPP_FILE):
                        out[first].top = True
            continue
        frame[1] = i + 1
        c = node.children[i]
        if type(c) is tuple:
            kind, text = c
            if kind in K.TRIVIA:
                pending.append(c)
            else:
                a = Atom(kind, text, pos, gap_start, pending, node.kind,
                         kinds_path[-2] if len(kinds_path) > 1 else "")
                a.first_in_parent = frame[3] == len(out)
                if kind in ALIGNED and node.kind in ARROW_HOLDERS:
                    a.group = group_ids[-1]
                out.append(a)
                if kind in _OPENING:
                    frame[4] = True
                pending = []
                gap_start = pos + len(text)
            pos += len(text)
            continue
        if c.kind == K.HEREDOC_BODY:
            text = c.text()
            pending.append((K.HEREDOC_BODY, text))
            pos += len(text)
            continue
        if c.kind == K.DQ_STRING:
            text = c.text()
            lead = 0
            for t in c.children:
                if type(t) is tuple and t[0] in K.TRIVIA:
                    pending.append(t)
                    lead += len(t[1])
                else:
                    break
            a = Atom(K.DQ_STRING, text[lead:], pos + lead, gap_start, pending, node.kind,
                     kinds_path[-2] if len(kinds_path) > 1 else "", node=c)
            a.first_in_parent = frame[3] == len(out)
            out.append(a)
            # the string is a node of its own: it starts an element when its parent lists them
            if node.kind in LIST_PARENTS and (node.kind in _ALL_INSIDE or frame[4]):
                a.element_start = True
                a.elem_of, a.elem_kind = node.kind, K.DQ_STRING
            pending = []
            pos += len(text)
            gap_start = pos
            continue
        stack.append([c, 0, pos, len(out), False])
        kinds_path.append(c.kind)
        if c.kind in ARROW_GROUPS:
            next_group += 1
            group_ids.append(next_group)
        else:
            group_ids.append(group_ids[-1] if c.kind in ARROW_HOLDERS else 0)
    return out


def find_nodes(green: GreenNode, kinds: frozenset) -> list[SyntaxNode]:
    """The nodes of the given kinds, outermost first, as positioned nodes (without parents:
    the rules only look down), made without positioning the rest of the tree."""
    out: list[SyntaxNode] = []
    stack: list = [(green, 0)]
    while stack:
        node, off = stack.pop()
        pending = []
        for c in node.children:
            if type(c) is tuple:
                off += len(c[1])
                continue
            if c.kind in kinds:
                out.append(SyntaxNode(c, off))
            pending.append((c, off))
            off += c.width
        stack.extend(reversed(pending))
    out.sort(key=lambda n: n.offset)
    return out
