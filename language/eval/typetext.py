"""Types written as text (``"Hash[String, Variant[Integer, Undef]]"``), built without running
the evaluator: used for the signatures of built-in functions.

The text is parsed with the project's parser and the few expression forms a type reference
uses (names, ``[]``, literals, arrays, hashes) are turned into a TypeCall for the builder.
Results are cached: signatures are declared once and read for every call.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..syntax import ast, kinds as K
from ..syntax.parser import parse
from ..types import model as m
from ..types.build import TypeCall, build
from ..types.values import DEFAULT, Regexp


_CANONICAL = {n.lower(): n for n in m.SIMPLE_TYPES}


class TypeTextError(ValueError):
    pass


def _term(node) -> Any:
    k = node.kind
    if k == K.TYPE_REF:
        name = node.first_token().text
        return TypeCall(_CANONICAL.get(name.lower(), name))
    if k == K.ACCESS_EXPR:
        es = [c for c in node.children() if c.kind not in ast._NON_EXPR]
        base = _term(es[0])
        if not isinstance(base, TypeCall):
            raise TypeTextError("not a type reference")
        return TypeCall(base.name, tuple(_term(e) for e in es[1:]))
    if k == K.LITERAL:
        v = ast.Literal(node).value()
        if v is ast.DEFAULT:
            return DEFAULT
        if isinstance(v, ast.Regex):
            return Regexp(v.source.replace("\\/", "/"))
        return v
    if k == K.QNAME:
        return node.first_token().text
    if k == K.DQ_STRING:
        return "".join(p for p in ast.DqString(node).parts() if isinstance(p, str))
    if k == K.ARRAY:
        return [_term(c) for c in node.children() if c.kind not in ast._NON_EXPR]
    if k == K.HASH:
        out = {}
        for e in ast.Hash(node).entries():
            out[_term(e.key().syntax)] = _term(e.value().syntax)
        return out
    if k == K.UNARY_EXPR:
        inner = next(c for c in node.children() if c.kind not in ast._NON_EXPR)
        v = _term(inner)
        return -v
    if k == K.PAREN_EXPR:
        inner = next(c for c in node.children() if c.kind not in ast._NON_EXPR)
        return _term(inner)
    raise TypeTextError(f"unsupported type text element {k}")


@lru_cache(maxsize=1024)
def type_from_text(text: str):
    """The type a reference written as text denotes."""
    pr = parse(text)
    if pr.errors:
        raise TypeTextError(f"invalid type text {text!r}: {pr.errors[0].message}")
    stmts = [c for c in pr.root.children() if c.kind not in ast._NON_EXPR]
    if len(stmts) != 1:
        raise TypeTextError(f"invalid type text {text!r}")
    return build(_term(stmts[0]))
