"""One-pass readers of the AST views say what the views' single properties say: ``Param.parts()``
(the index reads a parameter's type, name, ``*``, ``=`` and default in one pass over its
children) against ``type_expr()``, ``name``, ``captures_rest``, ``has_default`` and
``default()``, on every parameter of the syntax fixtures (broken code included) and of the
parameter lists made here, whole and with every one of their characters deleted."""
from __future__ import annotations

from pathlib import Path

import pytest

from puppet_ls.language.syntax import ast as A
from puppet_ls.language.syntax import kinds as K
from puppet_ls.language.syntax.parser import parse

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "syntax"
LISTS = [
    "class c (Integer $a = 1, String[1] *$b, $c, Optional[Hash] $d = { 'k' => [1] }) {}",
    "define d ($a = $b ? { default => 1 }, Array $x) {}",
    "function f (Integer $a, *$rest) >> Integer { 1 }",
    "class e ($ = 1, Integer = 2, = 3, $a $b = 4, * $c) {}",
    "$l = |Integer $x = 1, $y| { $x }",
]


def _texts() -> list:
    out = [(f.name, f.read_text(encoding="utf-8")) for f in sorted(FIXTURES.glob("*.pp"))]
    for n, text in enumerate(LISTS):
        out.append((f"list {n}", text))
        out += [(f"list {n} without {i}", text[:i] + text[i + 1:]) for i in range(len(text))]
    return out


def _where(view) -> tuple | None:
    return None if view is None else (view.syntax.kind, view.syntax.range)


def _params(root) -> list:
    stack, out = [root], []
    while stack:
        node = stack.pop()
        if node.kind == K.PARAM:
            out.append(A.Param(node))
        stack.extend(node.children())
    return out


def test_the_texts_hold_parameters():
    assert sum(len(_params(parse(text).root)) for _, text in _texts()) > 500


@pytest.mark.parametrize(("name", "text"), _texts(), ids=[name for name, _ in _texts()])
def test_param_parts_say_what_the_properties_say(name, text):
    for p in _params(parse(text).root):
        te, pname, rest, has_default, default = p.parts()
        assert (_where(te), pname, rest, has_default, _where(default)) == \
            (_where(p.type_expr()), p.name, p.captures_rest, p.has_default, _where(p.default())), p.syntax.text
