"""Types from parsed type expressions, without evaluating anything.

``Integer[1, 3]``, ``Struct[{a => String, Optional[b] => Integer}]``, ``Array[My::Alias]`` in
parameter lists, return types and ``type X = …`` are built statically: the AST view becomes a
:class:`TypeCall` whose arguments are literal values or nested calls, and ``build_type`` does
the rest.  An expression that needs evaluation (a variable, a function call) makes the result
``None`` (unknown), never an error; a type that is wrong (``Integer['a']``) gives a
``TypeSystemError`` carrying the source range of the offending part.
"""
from __future__ import annotations

from typing import Any

from ..syntax import ast as A
from ..syntax import kinds as K
from . import model as m
from .build import TypeCall, build_type
from .errors import TypeSystemError
from .values import DEFAULT, Regexp


class NotStatic(Exception):
    """The expression needs evaluation to be known."""


def type_call_from_ast(node: A.AstNode, depth: int = 0) -> TypeCall:
    """The TypeCall for a type expression; raises NotStatic when it is not a literal type."""
    if depth > 100:
        raise NotStatic()
    if isinstance(node, A.TypeRef):
        return TypeCall(node.name.lstrip(":"), (), span=node.range)
    if isinstance(node, A.AccessExpr):
        target = node.target()
        if not isinstance(target, A.TypeRef):
            raise NotStatic()
        keys = node.keys()
        args = tuple(_argument(k, depth + 1) for k in keys)
        return TypeCall(target.name.lstrip(":"), args, span=node.range,
                        arg_spans=tuple(k.range for k in keys))
    if isinstance(node, A.ParenExpr) and node.expr() is not None:
        return type_call_from_ast(node.expr(), depth + 1)
    raise NotStatic()


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
            out[_argument(k, depth + 1)] = _argument(v, depth + 1)
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
