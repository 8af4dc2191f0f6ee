"""The lossless syntax tree: immutable green nodes and positioned red views over them.

Green layer (what the parser builds): a token is a plain ``(kind, text)`` tuple, one shared
by all equal tokens (``green_token``); a node is a ``GreenNode`` holding its kind and a tuple
of children.  Green nodes know their text width but
not their position, so an edited tree can reuse every untouched subtree as is.

Red layer (what analysis uses): ``SyntaxNode``/``SyntaxToken`` wrap a green element together
with its absolute offset and parent, created on demand while walking down from the root.

Concatenating the texts of all tokens of the root gives back the source exactly.
"""
from __future__ import annotations

import bisect
from collections.abc import Iterator

from . import kinds as K

_TRIVIA = K.TRIVIA


# Green tokens are shared: the corpus's 831,285 tokens are 55,507 distinct (kind, text) pairs,
# and a token's tuple and text cost ~110 bytes, most of a tree's memory (20 bytes per source
# character before, 7 after).  A token holds no position, so equal tokens are interchangeable.
# Long texts (comments, strings) are rarely repeated and are not kept; the table is emptied when
# it grows past its bound (a hostile file of distinct names), which only costs the sharing.
_TOKENS: dict = {}
TOKEN_TABLE_MAX = 200_000
INTERN_MAX_CHARS = 64


def green_token(kind: str, text: str) -> tuple:
    """The green token ``(kind, text)``, shared with every equal one made before."""
    tok = (kind, text)
    if len(text) > INTERN_MAX_CHARS:
        return tok
    table = _TOKENS
    if len(table) >= TOKEN_TABLE_MAX:
        table.clear()
    return table.setdefault(tok, tok)


# A node with more children than this keeps where each starts (``GreenNode.starts``), so that
# finding the child at an offset or the child nodes among its tokens costs no pass over them.
WIDE = 64


class GreenNode:
    __slots__ = ("kind", "children", "_width", "_height", "_starts", "_nodes", "_lead")

    def __init__(self, kind: str, children):
        self.kind = kind
        self.children = children
        self._width = -1
        self._height = -1
        self._starts: list[int] | None = None
        self._nodes: list[int] | None = None
        self._lead = -1

    def starts(self) -> list[int]:
        """Where each child starts, from the node's start (and the node's width last); made
        when first asked, so a node an edit did not touch (shared by the revisions of a
        document) keeps them.  Asked of ``WIDE`` nodes only: a definition whose documentation
        comment is thousands of trivia tokens, a block of hundreds of statements."""
        found = self._starts
        if found is not None:
            return found
        starts = [0]
        nodes = []
        off = 0
        lead = -1
        for i, c in enumerate(self.children):
            if type(c) is tuple:
                off += len(c[1])
                if lead < 0 and c[0] not in _TRIVIA:
                    lead = i
            else:
                nodes.append(i)
                off += c.width
                if lead < 0:
                    lead = i
            starts.append(off)
        self._nodes = nodes
        self._lead = lead if lead >= 0 else len(self.children)
        self._starts = starts
        return starts

    def leading_trivia(self) -> int:
        """How many children before the first that is not a trivia token (see ``starts``)."""
        if self._starts is None:
            self.starts()
        return self._lead

    def node_indices(self) -> list[int]:
        """The indices of the children that are nodes (see ``starts``)."""
        nodes = self._nodes
        if nodes is None:
            self.starts()
            nodes = self._nodes
            assert nodes is not None
        return nodes

    @property
    def height(self) -> int:
        """Levels of nodes from this one down to its deepest (1: only tokens below); computed
        once, when first asked (the parser asks it of operator chains to bound their depth)."""
        h = self._height
        return h if h >= 0 else _compute_height(self)

    @property
    def width(self) -> int:
        w = self._width
        return w if w >= 0 else _compute_width(self)

    def text(self) -> str:
        parts: list = []
        _collect_text(self, parts)
        return "".join(parts)

    def __eq__(self, other) -> bool:
        # Iterative: trees legally reach hundreds of levels (operator chains inside nesting),
        # where a recursive comparison would exhaust Python's recursion limit.
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if not isinstance(b, GreenNode) or a.kind != b.kind or len(a.children) != len(b.children):
                return False
            for x, y in zip(a.children, b.children):
                if type(x) is tuple:
                    if x != y:
                        return False
                elif type(y) is tuple:
                    return False
                else:
                    stack.append((x, y))
        return True

    def __hash__(self) -> int:
        return hash((self.kind, len(self.children)))

    def __repr__(self) -> str:
        return f"GreenNode({self.kind}, {len(self.children)} children)"


def _compute_width(root: GreenNode) -> int:
    """Caches in ``_width`` the width of ``root`` and of every node below it that has none yet
    (-1).  Iterative post-order: a chain of thousands of nodes (a long operator chain inside
    nesting, fuzz seed 2034 case 8453) exhausted the recursion limit; widths already known are
    not walked again.  Written out rather than a generic fold: every node's width is asked once
    per parse (the semantic model's offsets), and a call per token was a tenth of indexing."""
    stack: list = [[root, iter(root.children), 0]]
    while stack:
        top = stack[-1]
        acc = top[2]
        for c in top[1]:
            if type(c) is tuple:
                acc += len(c[1])
                continue
            w = c._width
            if w >= 0:
                acc += w
                continue
            top[2] = acc
            stack.append([c, iter(c.children), 0])
            break
        else:
            stack.pop()
            top[0]._width = acc
            if stack:
                stack[-1][2] += acc
    return root._width


def _compute_height(root: GreenNode) -> int:
    """Caches in ``_height`` the height of ``root`` and of every node below it that has none
    yet: one more than its highest child node (1 with tokens only), walked as in
    ``_compute_width``."""
    stack: list = [[root, iter(root.children), 0]]
    while stack:
        top = stack[-1]
        for c in top[1]:
            if type(c) is tuple:
                continue
            h = c._height
            if h >= 0:
                top[2] = max(top[2], h)
                continue
            stack.append([c, iter(c.children), 0])
            break
        else:
            stack.pop()
            value = top[2] + 1
            top[0]._height = value
            if stack and value > stack[-1][2]:
                stack[-1][2] = value
    return root._height


def _collect_text(node: GreenNode, parts: list) -> None:
    # Iterative for the same reason as GreenNode.__eq__.
    stack = [iter(node.children)]
    while stack:
        for c in stack[-1]:
            if type(c) is tuple:
                parts.append(c[1])
            else:
                stack.append(iter(c.children))
                break
        else:
            stack.pop()


def is_trivia(kind: str) -> bool:
    return kind in _TRIVIA


class SyntaxToken:
    """A token with its absolute position."""
    __slots__ = ("kind", "text", "offset", "parent", "index")

    def __init__(self, kind: str, text: str, offset: int, parent: SyntaxNode | None, index: int):
        self.kind = kind
        self.text = text
        self.offset = offset
        self.parent = parent
        self.index = index

    @property
    def end(self) -> int:
        return self.offset + len(self.text)

    @property
    def is_trivia(self) -> bool:
        return self.kind in _TRIVIA

    def __repr__(self) -> str:
        return f"{self.kind}@{self.offset}..{self.end} {self.text!r}"


class SyntaxNode:
    """A green node with its absolute position and parent."""
    __slots__ = ("green", "offset", "parent", "index")

    def __init__(self, green: GreenNode, offset: int = 0, parent: SyntaxNode | None = None, index: int = 0):
        self.green = green
        self.offset = offset
        self.parent = parent
        self.index = index

    @property
    def kind(self) -> str:
        return self.green.kind

    @property
    def end(self) -> int:
        return self.offset + self.green.width

    @property
    def text(self) -> str:
        return self.green.text()

    def children_with_tokens(self) -> Iterator[SyntaxNode | SyntaxToken]:
        off = self.offset
        for i, c in enumerate(self.green.children):
            if type(c) is tuple:
                yield SyntaxToken(c[0], c[1], off, self, i)
                off += len(c[1])
            else:
                yield SyntaxNode(c, off, self, i)
                off += c.width

    def children(self) -> Iterator[SyntaxNode]:
        green = self.green
        if len(green.children) > WIDE:
            starts = green.starts()
            for i in green.node_indices():
                yield SyntaxNode(green.children[i], self.offset + starts[i], self, i)
            return
        off = self.offset
        for i, c in enumerate(self.green.children):
            if type(c) is tuple:
                off += len(c[1])
            else:
                yield SyntaxNode(c, off, self, i)
                off += c.width

    def tokens(self, kinds=None) -> Iterator[SyntaxToken]:
        """Direct child tokens (trivia included), or only those whose kind is in ``kinds``.
        Only the tokens handed out are made into positioned objects."""
        off = self.offset
        for i, c in enumerate(self.green.children):
            if type(c) is tuple:
                if kinds is None or c[0] in kinds:
                    yield SyntaxToken(c[0], c[1], off, self, i)
                off += len(c[1])
            else:
                off += c.width

    def significant_tokens(self) -> Iterator[SyntaxToken]:
        off = self.offset
        green = self.green
        skip = 0
        if len(green.children) > WIDE:
            skip = green.leading_trivia()
            off += green.starts()[skip]
        for i, c in enumerate(green.children[skip:] if skip else green.children, skip):
            if type(c) is tuple:
                if c[0] not in _TRIVIA:
                    yield SyntaxToken(c[0], c[1], off, self, i)
                off += len(c[1])
            else:
                off += c.width

    def descendants_with_tokens(self) -> Iterator[SyntaxNode | SyntaxToken]:
        for c in self.children_with_tokens():
            yield c
            if isinstance(c, SyntaxNode):
                yield from c.descendants_with_tokens()

    def descendants(self) -> Iterator[SyntaxNode]:
        for c in self.children():
            yield c
            yield from c.descendants()

    def all_tokens(self) -> Iterator[SyntaxToken]:
        for c in self.descendants_with_tokens():
            if isinstance(c, SyntaxToken):
                yield c

    def _tokens_outside_heredoc_bodies(self, reverse: bool = False) -> Iterator[SyntaxToken]:
        # A heredoc body is out-of-band text that merely sits inside whatever node was open at
        # the line break; for the shape of a node it counts as trivia.
        kids = list(self.children_with_tokens())
        if reverse:
            kids.reverse()
        for c in kids:
            if isinstance(c, SyntaxToken):
                yield c
            elif c.kind != K.HEREDOC_BODY:
                yield from c._tokens_outside_heredoc_bodies(reverse)

    def first_token(self, significant: bool = True) -> SyntaxToken | None:
        """The first (significant) token outside heredoc bodies, as ``_tokens_outside_heredoc_bodies``
        orders them.  The green children are searched directly and only the nodes on the way to
        the answer are made into positioned objects: node ranges ask this of most nodes, which
        made it a hot path of validation and the checks."""
        off = self.offset
        green = self.green
        skip = 0
        if significant and len(green.children) > WIDE:
            skip = green.leading_trivia()
            off += green.starts()[skip]
        for i, c in enumerate(green.children[skip:] if skip else green.children, skip):
            if type(c) is tuple:
                if not significant or c[0] not in _TRIVIA:
                    return SyntaxToken(c[0], c[1], off, self, i)
                off += len(c[1])
            else:
                if c.kind != K.HEREDOC_BODY:
                    found = SyntaxNode(c, off, self, i).first_token(significant)
                    if found is not None:
                        return found
                off += c.width
        return None

    def last_token(self, significant: bool = True) -> SyntaxToken | None:
        """The last (significant) token outside heredoc bodies; see ``first_token``."""
        children = self.green.children
        off = self.offset + self.green.width
        for i in range(len(children) - 1, -1, -1):
            c = children[i]
            if type(c) is tuple:
                off -= len(c[1])
                if not significant or c[0] not in _TRIVIA:
                    return SyntaxToken(c[0], c[1], off, self, i)
            else:
                off -= c.width
                if c.kind != K.HEREDOC_BODY:
                    found = SyntaxNode(c, off, self, i).last_token(significant)
                    if found is not None:
                        return found
        return None

    def trimmed_text(self) -> str:
        """The node's text without leading and trailing trivia (heredoc bodies left out).
        Read from the green tokens (the order of ``_tokens_outside_heredoc_bodies``) without
        making positioned tokens: the index asks it of every parameter's type and default."""
        toks: list = []
        stack = [iter(self.green.children)]
        while stack:
            for c in stack[-1]:
                if type(c) is tuple:
                    toks.append(c)
                elif c.kind != K.HEREDOC_BODY:
                    stack.append(iter(c.children))
                    break
            else:
                stack.pop()
        i, j = 0, len(toks)
        while i < j and toks[i][0] in _TRIVIA:
            i += 1
        while j > i and toks[j - 1][0] in _TRIVIA:
            j -= 1
        return "".join(t[1] for t in toks[i:j] if t[0] != K.HEREDOC_BODY)

    @property
    def range(self) -> tuple[int, int]:
        """The range without leading and trailing trivia (what an editor should highlight)."""
        first = self.first_token()
        if first is None:
            return (self.offset, self.offset)
        last = self.last_token()
        return (first.offset, last.end if last is not None else first.end)

    def child(self, kind: str) -> SyntaxNode | None:
        # only the match is made into a positioned node (the AST views ask this a lot)
        green = self.green
        if len(green.children) > WIDE:
            starts = green.starts()
            for i in green.node_indices():
                c = green.children[i]
                if c.kind == kind:
                    return SyntaxNode(c, self.offset + starts[i], self, i)
            return None
        off = self.offset
        for i, c in enumerate(self.green.children):
            if type(c) is tuple:
                off += len(c[1])
            else:
                if c.kind == kind:
                    return SyntaxNode(c, off, self, i)
                off += c.width
        return None

    def token(self, kind: str) -> SyntaxToken | None:
        for t in self.tokens((kind,)):
            return t
        return None

    def ancestors(self) -> Iterator[SyntaxNode]:
        p = self.parent
        while p is not None:
            yield p
            p = p.parent

    def token_at(self, offset: int) -> SyntaxToken | None:
        """The token that contains ``offset`` (the one starting there when on a boundary).
        Siblings are skipped by their green widths: only the nodes on the way down and the
        token found become positioned objects (the editor asks this after every keystroke,
        and a large file's blocks have thousands of children)."""
        node = self
        while True:
            off = node.offset
            green = node.green
            kids = green.children
            if len(kids) > WIDE:
                starts = green.starts()
                i = bisect.bisect_right(starts, offset - off, 0, len(kids)) - 1
                if i >= 0:
                    c = kids[i]
                    at = off + starts[i]
                    w = starts[i + 1] - starts[i]
                    if type(c) is tuple:
                        if at <= offset < at + w or (w == 0 and at == offset and c[0] == K.EOF):
                            return SyntaxToken(c[0], c[1], at, node, i)
                    elif at <= offset < at + w:
                        node = SyntaxNode(c, at, node, i)
                        continue
                # (not found by its start: a zero-width child; the plain search decides)
            for i, c in enumerate(kids):
                if type(c) is tuple:
                    w = len(c[1])
                    if off <= offset < off + w or (w == 0 and off == offset and c[0] == K.EOF):
                        return SyntaxToken(c[0], c[1], off, node, i)
                else:
                    w = c.width
                    if off <= offset < off + w:
                        node = SyntaxNode(c, off, node, i)
                        break
                off += w
            else:
                return None

    def covering_node(self, start: int, end: int) -> SyntaxNode:
        """The deepest node whose range covers [start, end)."""
        node = self
        while True:
            nxt = None
            for c in node.children():
                if c.offset <= start and end <= c.end and (c.end > c.offset):
                    nxt = c
                    break
            if nxt is None:
                return node
            node = nxt

    def __repr__(self) -> str:
        return f"{self.kind}@{self.offset}..{self.end}"


def dump_tree(root: SyntaxNode, include_trivia: bool = False) -> str:
    """An indented text rendering of the tree (kinds, ranges, token texts) for tests and
    ``puppet-ls parse --dump``."""
    lines: list[str] = []

    def walk(node: SyntaxNode, depth: int) -> None:
        lines.append(f"{'  ' * depth}{node.kind}@{node.offset}..{node.end}")
        for c in node.children_with_tokens():
            if isinstance(c, SyntaxNode):
                walk(c, depth + 1)
            elif include_trivia or c.kind not in _TRIVIA:
                lines.append(f"{'  ' * (depth + 1)}{c.kind}@{c.offset}..{c.end} {c.text!r}")

    walk(root, 0)
    return "\n".join(lines) + "\n"
