"""Types from parsed type expressions, without evaluating anything.

``Integer[1, 3]``, ``Struct[{a => String, Optional[b] => Integer}]``, ``Array[My::Alias]`` in
parameter lists, return types and ``type X = …`` are built statically: the AST view becomes a
:class:`TypeCall` whose arguments are literal values or nested calls, and ``build_type`` does
the rest.  An expression that needs evaluation (a variable, a function call) makes the result
``None`` (unknown), never an error; a type that is wrong (``Integer['a']``) gives a
``TypeSystemError`` carrying the source range of the offending part.

A type written as text (a built-in function's signature, an indexed parameter's type) takes
the same path: :func:`type_call_from_text` parses it with the project's parser and converts the
expression here; there is no second converter.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.parser import parse
from . import model as m
from .build import TypeCall, build_type
from .errors import TypeSystemError
from .values import DEFAULT, Regexp


# Puppet resolves the names of its own types case-insensitively (its type parser looks up the
# downcased name: ``Semver`` is ``SemVer``); other names keep their case (aliases, resources).
_CANONICAL = {n.lower(): n for n in m.SIMPLE_TYPES}


def _type_name(name: str) -> str:
    name = name.lstrip(":")
    return _CANONICAL.get(name.lower(), name)


class NotStatic(Exception):
    """The expression needs evaluation to be known."""


def type_call_from_ast(node: A.AstNode, depth: int = 0) -> TypeCall:
    """The TypeCall for a type expression; raises NotStatic when it is not a literal type."""
    if depth > 100:
        raise NotStatic()
    if isinstance(node, A.TypeRef):
        return TypeCall(_type_name(node.name), (), span=node.range)
    if isinstance(node, A.AccessExpr):
        target = node.target()
        if not isinstance(target, A.TypeRef):
            raise NotStatic()
        keys = node.keys()
        args = tuple(_argument(k, depth + 1) for k in keys)
        return TypeCall(_type_name(target.name), args, span=node.range,
                        arg_spans=tuple(k.range for k in keys))
    if isinstance(node, A.ParenExpr) and node.expr() is not None:
        return type_call_from_ast(node.expr(), depth + 1)
    raise NotStatic()


@lru_cache(maxsize=1024)
def type_call_from_text(text: str) -> TypeCall | None:
    """The TypeCall for a type written as text (``"Hash[String, Integer]"``), or None when the
    text is not one static type expression.  Cached: signatures are read for every call."""
    if not text:
        return None
    pr = parse(text)
    if pr.errors:
        return None
    stmts = [c for c in pr.root.children() if c.kind != K.ERROR]
    if len(stmts) != 1:
        return None
    try:
        return type_call_from_ast(A.view(stmts[0]))
    except (NotStatic, RecursionError):
        return None


def _argument(node: A.AstNode, depth: int) -> Any:
    """A type argument: a nested type, or a literal value."""
    if depth > 100:
        raise NotStatic()
    if isinstance(node, (A.TypeRef, A.AccessExpr)):
        return type_call_from_ast(node, depth)
    if isinstance(node, A.Literal):
        v = node.value()
        if v is A.DEFAULT:
            return DEFAULT
        if isinstance(v, A.Regex):
            return Regexp(v.source)
        if node.token_kind == K.NUMBER and v is None:
            raise NotStatic()
        return v
    if isinstance(node, A.QName):
        return node.name
    if isinstance(node, A.DqString):
        parts = node.parts()
        if any(not isinstance(p, str) for p in parts):
            raise NotStatic()
        return "".join(parts)
    if isinstance(node, A.HeredocExpr):
        parts = node.parts()
        if any(not isinstance(p, str) for p in parts):
            raise NotStatic()
        return "".join(parts)
    if isinstance(node, A.UnaryExpr) and node.op == "-":
        v = _argument(node.operand(), depth + 1) if node.operand() is not None else None
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return -v
        raise NotStatic()
    if isinstance(node, A.Array):
        return [_argument(e, depth + 1) for e in node.elements()]
    if isinstance(node, A.Hash):
        out = {}
        for e in node.entries():
            k, v = e.key(), e.value()
            if k is None or v is None:
                raise NotStatic()
            key = _argument(k, depth + 1)
            try:
                hash(key)
            except TypeError:
                raise NotStatic() from None     # an array or hash as a key: no type takes it
            out[key] = _argument(v, depth + 1)
        return out
    if isinstance(node, A.ParenExpr) and node.expr() is not None:
        return _argument(node.expr(), depth + 1)
    raise NotStatic()


def type_from_ast(node: A.AstNode | None, scope: m.AliasScope | None = None,
                  resource_types=None) -> tuple[m.PType | None, TypeSystemError | None]:
    """(type, None) for a valid static type expression, (None, error) for a wrong one, and
    (None, None) when the expression cannot be known without evaluating it."""
    if node is None:
        return None, None
    try:
        call = type_call_from_ast(node)
    except NotStatic:
        return None, None
    except RecursionError:
        return None, None
    try:
        return build_type(call, scope, resource_types), None
    except TypeSystemError as exc:
        return None, exc
