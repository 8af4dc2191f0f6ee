"""Lambdas and functions written in Puppet: parameter binding, type checks, return types.

A :class:`Closure` is a lambda together with the scope it was written in.  Calling it binds
the arguments to the parameters (defaults are evaluated left to right and may use earlier
parameters; a captures-rest parameter takes the remaining arguments), checks them against
the parameter types with Puppet's messages, evaluates the body on a fresh local layer of the
defining scope, and checks the declared return type.  ``next`` ends a body with a value.

A :class:`PuppetFunction` is a ``function`` definition: the same binding, but the body runs
in the top scope (a function cannot see its caller's variables) and ``return`` ends it.
"""
from __future__ import annotations

from typing import Any, cast

from ..syntax import ast, kinds as K
from ..syntax.tree import SyntaxNode
from ..types import model as m
from .typecheck import instance_of as is_instance
from .errors import ArgumentsError, EvalError, NextSignal, ReturnSignal
from .mismatch import INF, SignatureInfo, describe_signatures, describe_value_mismatch
from ..messages import render

_ANY = m.ANY


class Param:
    """A parameter as declared: name, type expression, default expression, captures rest."""

    __slots__ = ("name", "type_node", "default_node", "captures_rest", "node")

    def __init__(self, p: ast.Param):
        self.node = p.syntax
        self.name = p.name
        te = p.type_expr()
        self.type_node = te.syntax if te is not None else None
        de = p.default() if p.has_default else None
        self.default_node = de.syntax if de is not None else None
        self.captures_rest = p.captures_rest


def params_of(param_list_owner: SyntaxNode) -> list:
    pl = param_list_owner.child(K.PARAM_LIST)
    if pl is None:
        return []
    return [Param(ast.Param(c)) for c in pl.children() if c.kind == K.PARAM]


class Closure:
    """A lambda bound to the scope it was written in."""

    name = "lambda"
    # Puppet refuses a function parameter's default that reads a later parameter (not a lambda's)
    checks_default_order = False

    def __init__(self, ev, node: SyntaxNode, scope):
        self.ev = ev
        self.node = node
        self.scope = scope
        self.params = params_of(node)
        self.body = node.child(K.BLOCK)
        rt = node.child(K.RETURN_TYPE)
        self.return_node = next(iter(rt.children()), None) if rt is not None else None
        self._types: list | None = None
        self._return_type = None

    # -- types ---------------------------------------------------------------------------------
    def type_scope(self):
        return self.scope

    def param_types(self) -> list:
        if self._types is None:
            out: list[m.PType] = []
            for p in self.params:
                if p.type_node is None:
                    out.append(_ANY)
                else:
                    t = self.ev.eval(p.type_node, self.type_scope())
                    if not isinstance(t, m.PType):
                        raise self.ev.fail("ILLEGAL_PARAMETER_TYPE",
                                           render("ILLEGAL_PARAMETER_TYPE",
                                                  name=p.name), p.type_node)
                    out.append(t)
            self._types = out
        return self._types

    def return_type(self):
        if self._return_type is None:
            if self.return_node is None:
                self._return_type = _ANY
            else:
                self._return_type = self.ev.eval(self.return_node, self.type_scope())
        return self._return_type

    def size_range(self) -> tuple:
        cached = self.__dict__.get("_size")
        if cached is not None:
            return cached
        self._size = self._compute_size()
        return self._size

    def element_types(self) -> list:
        cached = self.__dict__.get("_etypes")
        if cached is not None:
            return cached
        self._etypes = self._compute_element_types()
        return self._etypes

    def _compute_size(self) -> tuple:
        lo = 0
        hi: float = 0  # INF when it captures the rest
        types = self.param_types()
        for p, t in zip(self.params, types):
            if p.captures_rest:
                if isinstance(t, m.ArrayType) and t.size is not None:
                    a, b = t.size
                    lo += a or 0
                    hi = INF if b is None else hi + b
                else:
                    hi = INF
            elif p.default_node is not None:
                hi += 1
            else:
                lo += 1
                hi += 1
        return (lo, hi)

    def _compute_element_types(self) -> list:
        out = []
        for p, t in zip(self.params, self.param_types()):
            if p.captures_rest and isinstance(t, m.ArrayType):
                out.append(t.element)
            else:
                out.append(t)
        return out

    def callable_type(self) -> m.CallableType:
        lo, hi = self.size_range()
        return m.CallableType(m.TupleType(tuple(self.element_types()),
                                          (lo, None if hi == INF else hi)),
                              None, self.return_type() if self.return_node is not None else None)

    def signature(self) -> SignatureInfo:
        return SignatureInfo(self.element_types(), [p.name for p in self.params],
                             self.size_range())

    @property
    def arity(self) -> int:
        return len(self.params)

    def accepts_count(self, n: int) -> bool:
        lo, hi = self.size_range()
        return lo <= n <= hi

    # -- calling -------------------------------------------------------------------------------
    def check_args(self, args: list) -> None:
        lo, hi = self.size_range()
        ok = lo <= len(args) <= hi
        if ok:
            types = self.element_types()
            for i, a in enumerate(args):
                t = types[min(i, len(types) - 1)] if types else _ANY
                if t is not _ANY and not is_instance(t, a):
                    ok = False
                    break
        if not ok:
            raise ArgumentsError(describe_signatures(self.name, [self.signature()], args))

    def bind(self, args: list, scope) -> dict:
        """Bind arguments to parameters; defaults are evaluated in ``scope`` with the earlier
        parameters visible."""
        bindings: dict = {}
        level = scope.level
        layer = scope.push_local(bindings)
        try:
            for i, p in enumerate(self.params):
                if p.name in ("facts", "trusted", "server_facts"):
                    # Binding goes through Puppet's Scope#setvar, which refuses these names.
                    raise EvalError(reserved_name_message(p.name))
                if p.captures_rest:
                    value = list(args[i:]) if i < len(args) else None
                    if value is None or (len(value) == 1 and value[0] is None
                                         and p.default_node is not None):
                        if p.default_node is not None:
                            value = self.ev.eval(p.default_node, scope)
                            if type(value) not in (list, tuple):
                                value = [value]
                        else:
                            value = []
                elif i < len(args):
                    value = args[i]
                elif p.default_node is not None:
                    early = reads_any(p.default_node, {q.name for q in self.params[i + 1:]}) \
                        if self.checks_default_order else None
                    if early is not None:
                        raise EvalError(render("DEFAULT_READS_LATER_PARAMETER", subject=self.name,
                                               name=p.name, other=early))
                    value = self.ev.eval(p.default_node, scope)
                else:
                    raise self.ev.fail("MISSING_REQUIRED_PARAMETER",
                                       render("MISSING_REQUIRED_PARAMETER", name=p.name),
                                       p.node)
                layer.symbols[p.name] = value
        finally:
            scope.pop_to(level)
        return bindings

    def call(self, args: list, check: bool = True) -> Any:
        """Call with positional arguments: bind them (defaults, captures-rest; a missing required
        argument is an error), then check the bound values against the parameter types."""
        ev = self.ev
        scope = self.scope
        level = scope.level
        try:
            bindings = self.bind(args, scope)
            if check:
                final: list = []
                for p in self.params:
                    v = bindings.get(p.name)
                    if p.captures_rest:
                        final.extend(cast(list, v) if type(v) in (list, tuple) else [v])
                    else:
                        final.append(v)
                self.check_args(final)
            else:
                self._check_defaults(bindings)
            scope.push_local(bindings)
            try:
                result = ev.eval_block(self.body, scope)
            except NextSignal as sig:
                result = sig.value
        finally:
            scope.pop_to(level)
        self._check_return(result)
        return result

    def _check_defaults(self, bindings: dict) -> None:
        # Values from default expressions are checked against the parameter type as well.
        types = self.param_types()
        for p, t in zip(self.params, types):
            if p.captures_rest or t is _ANY:
                continue
            v = bindings.get(p.name)
            if not is_instance(t, v):
                msg = describe_value_mismatch(f"parameter '{p.name}'", t, v)
                raise ArgumentsError(render("LAMBDA_ARGUMENTS", label=self.label(), msg=msg))

    def label(self) -> str:
        return "block" if self.name == "lambda" else f"'{self.name}'"

    def _check_return(self, result: Any) -> None:
        if self.return_node is None:
            return
        rt = self.return_type()
        if isinstance(rt, m.PType) and not is_instance(rt, result):
            msg = describe_value_mismatch("x", rt, result)
            detail = msg.removeprefix("x ")
            raise ArgumentsError(render("VALUE_RETURNED_FROM_HAS_WRONG", name=self.name,
                                        detail=detail))


class PuppetFunction:
    """A function written in the Puppet language (``function name(params) >> T { body }``)."""

    def __init__(self, ev, node: SyntaxNode, name: str, top_scope):
        self.ev = ev
        self.node = node
        self.name = name
        self.top = top_scope
        self.closure = Closure(ev, node, top_scope)
        self.closure.name = name
        self.closure.checks_default_order = True

    def call(self, ev, args: list, block, scope, call_node) -> Any:
        cl = self.closure
        if block is not None:
            raise ArgumentsError(render("DOES_NOT_EXPECT_BLOCK", name=self.name))
        cl.check_args(args)
        top = self.top
        saved = top.layers
        top.layers = [top.table]
        try:
            return cl.call(args, check=False)
        except ReturnSignal as sig:
            cl._check_return(sig.value)
            return sig.value
        finally:
            top.layers = saved

    def signature(self) -> SignatureInfo:
        return self.closure.signature()


def is_closure(v: Any) -> bool:
    return isinstance(v, Closure)


__all__ = ["Closure", "PuppetFunction", "Param", "params_of", "is_closure", "EvalError"]


def reserved_name_message(name: str) -> str:
    """Puppet's Scope#setvar refusal (the name without ``$``)."""
    return render("RESERVED_VARIABLE_NAME", name=name)


def reads_any(node: SyntaxNode, names: set) -> str | None:
    """The first of ``names`` that an expression reads as a plain variable, or None (a default
    value that reads a parameter not bound yet)."""
    if not names:
        return None
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind == K.LAMBDA:
            continue  # its own parameters shadow the names
        for c in n.children_with_tokens():
            if isinstance(c, SyntaxNode):
                stack.append(c)
            elif c.kind in (K.VARIABLE, K.STRING_VAR) and c.text.lstrip("$") in names:
                return c.text.lstrip("$")
    return None

