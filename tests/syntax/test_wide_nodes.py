"""Nodes with many children (``tree.WIDE``: a definition under a long documentation comment, a
block of many statements) find a child by the starts they keep instead of a pass over their
children: ``token_at``, ``children``, ``child``, ``first_token`` and ``significant_tokens`` give
exactly what the plain pass over ``children_with_tokens`` gives, at every offset of such files
(made here, and the corpus's largest manifest when it is installed)."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax.incremental import reparse
from puppet_ls.language.syntax.parser import parse
from puppet_ls.language.syntax.tree import WIDE, SyntaxNode, SyntaxToken
from tests.corpus import corpus_files

_DOC = "".join(f"# @param p{i}\n#   The {i}th parameter.\n" for i in range(60))
_PARAMS = ",\n".join(f"  Integer $p{i} = {i}" for i in range(80))
_BODY = "".join(f"  if $p{i} {{ notify {{ 'n{i}': message => \"${{p{i}}}\" }} }}\n" for i in range(80))
TEXTS = {
    "define": f"{_DOC}define big::thing (\n{_PARAMS},\n) {{\n{_BODY}  $h = @(END)\n  text\n  | END\n}}\n",
    "top": "".join(f"$v{i} = {i} # c\n" for i in range(100)) + "notify { $v1: }",
    "trivia only": "# c\n" * 100,
    "edited": "",
}


def _texts() -> list:
    out = [(name, text) for name, text in TEXTS.items() if text]
    # a revision from the incremental parser (wide nodes rebuilt around an edit)
    edited = reparse(parse(TEXTS["define"]), len(_DOC) + 30, len(_DOC) + 30, "x").text
    out.append(("edited", edited))
    files = sorted((f for f in corpus_files() if f.endswith(".pp")), key=lambda f: -Path(f).stat().st_size)
    if files:
        out.append(("corpus", Path(files[0]).read_text(encoding="utf-8", errors="replace")))
    return out


def _plain_token_at(node: SyntaxNode, offset: int):
    while True:
        found = None
        for c in node.children_with_tokens():
            if c.offset <= offset < c.end or (c.offset == offset == c.end and isinstance(c, SyntaxToken)
                                              and c.kind == K.EOF):
                found = c
                break
        if found is None or isinstance(found, SyntaxToken):
            return found
        node = found


def _key(x):
    if x is None:
        return None
    return (type(x).__name__, x.kind, x.offset, x.end, x.index, id(x.parent.green) if x.parent else None)


def _nodes(root: SyntaxNode):
    stack = [root]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in n.children_with_tokens() if isinstance(c, SyntaxNode))


@pytest.mark.parametrize("name, text", _texts(), ids=[n for n, _ in _texts()])
def test_wide_nodes_answer_as_a_pass_over_their_children(name: str, text: str) -> None:
    root = parse(text).root
    wide = [n for n in _nodes(root) if len(n.green.children) > WIDE]
    assert wide or name == "corpus", "the text has no wide node"
    for n in wide:
        plain = list(n.children_with_tokens())
        assert [_key(c) for c in n.children()] == [_key(c) for c in plain if isinstance(c, SyntaxNode)]
        assert [_key(t) for t in n.significant_tokens()] == \
            [_key(c) for c in plain if isinstance(c, SyntaxToken) and not c.is_trivia]
        for kind in {c.kind for c in plain} | {K.PARAM_LIST, "NOT_A_KIND"}:
            first = next((c for c in plain if isinstance(c, SyntaxNode) and c.kind == kind), None)
            assert _key(n.child(kind)) == _key(first)
        assert _key(n.first_token()) == _key(next(
            (t for t in n._tokens_outside_heredoc_bodies() if not t.is_trivia), None))
        assert _key(n.first_token(significant=False)) == _key(next(n._tokens_outside_heredoc_bodies(), None))
    step = max(1, len(text) // 3000)
    for offset in list(range(-1, len(text) + 2, step)) + [len(text)]:
        assert _key(root.token_at(offset)) == _key(_plain_token_at(root, offset)), offset
