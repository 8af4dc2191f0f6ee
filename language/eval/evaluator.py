"""The evaluator: every expression kind of the Puppet language, dispatched by syntax node kind.

``Evaluator.eval(node, scope)`` looks the node's kind up in a method table and evaluates it
with Puppet's semantics (operators in :mod:`.operators`, ``[]`` in :mod:`.access`, calls in
:mod:`.functions`, catalog expressions in :mod:`.catalog`).  Every evaluated node costs one
step of the budget and every nesting level is counted, so evaluation always ends.

Errors are :class:`~.errors.EvalError` with Puppet's issue code and the range Puppet blames
(an operator, an operand, the whole expression...).
"""
from __future__ import annotations

from typing import Any

from ..syntax import ast, kinds as K
from ..syntax.labels import node_label
from ..syntax.tree import SyntaxNode
from ..types import model as m
from ..types.build import (BUILTIN_RESOURCE_TYPES, TypeCall, build, object_type_problem,
                           resolve_alias)
from ..types.errors import TypeSystemError
from ..types.guard import LimitExceeded, check_size, measure
from .typecheck import instance_of as is_instance
from ..types.values import DEFAULT, DefaultValue, Regexp, SemVer, SemVerRange
from . import operators as ops
from .registry import lookup_function, lookup_module_function
from .errors import EvalError
from .stringconv import ruby_interpolated, to_s
from .runtime import (MAX_INTEGER, a_an, a_an_uc, hkey, label, ruby_hex, truthy, Timespan,
                      regexp_error, Sensitive, class_name_of)
from .scope import MISSING, Scope
from .context import Unknown
from ..messages import render
from .catalog import Catalog
from .syntax_checks import check_heredoc
from .iteration import is_iterator, iterate
from .rubyfmt import ruby_inspect
from .closures import Closure, reserved_name_message
from .access import access
from .objects import call_member

_NON_EXPR = ast._NON_EXPR
_CANONICAL = {n.lower(): n for n in m.SIMPLE_TYPES}
_OPERATOR_LOCATED = frozenset({K.BINARY_EXPR, K.ASSIGNMENT, K.RELATIONSHIP})
_ARITH = {"+", "-", "*", "/", "%", "<<", ">>"}
_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_STATEMENT_KINDS_WITHOUT_VALUE = frozenset({K.CLASS_DEF, K.DEFINE_DEF, K.NODE_DEF,
                                            K.FUNCTION_DEF, K.TYPE_ALIAS, K.PLAN_DEF,
                                            K.TYPE_DEFINITION})


def exprs(node: SyntaxNode) -> list:
    """The expression children of a node (construct parts and heredoc bodies left out)."""
    return [c for c in node.children() if c.kind not in _NON_EXPR]


def first_expr(node: SyntaxNode) -> SyntaxNode | None:
    for c in node.children():
        if c.kind not in _NON_EXPR:
            return c
    return None


def op_token(node: SyntaxNode):
    for t in node.significant_tokens():
        return t
    return None


def unparen(node: SyntaxNode) -> SyntaxNode:
    while node is not None and node.kind == K.PAREN_EXPR:
        inner = first_expr(node)
        if inner is None:
            break
        node = inner
    return node


def is_splat(node: SyntaxNode) -> bool:
    if node.kind != K.UNARY_EXPR:
        return False
    t = op_token(node)
    return t is not None and t.kind == K.TIMES


class Evaluator:
    """Evaluates syntax nodes in scopes of one :class:`~.context.Context`."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.budget = ctx.budget
        self.settings = ctx.settings
        if ctx.catalog is None:
            ctx.catalog = Catalog(self)
        self.catalog = ctx.catalog
        self._lit_cache: dict = {}
        self._shapes: dict = {}
        # set while a type alias body is evaluated (see Catalog.define_aliases)
        self.unresolved_as_reference = False

    # ---- tree shape cache ------------------------------------------------------------------
    def shape(self, node: SyntaxNode) -> tuple:
        """(expression children, first significant token) of a node, computed once.

        Walking the red tree allocates; lambdas and loops evaluate the same nodes many times, so
        the shape is cached by green node and offset (a position in this tree).
        """
        key = (id(node.green), node.offset)
        hit = self._shapes.get(key)
        if hit is not None and hit[0] is node.green:
            return hit[1], hit[2]
        kids = [c for c in node.children() if c.kind not in _NON_EXPR]
        tok = None
        for t in node.significant_tokens():
            tok = t
            break
        self._shapes[key] = (node.green, kids, tok)
        return kids, tok

    # ---- errors ----------------------------------------------------------------------------
    def fail(self, code: str, message: str, where: Any, prefix: str = "") -> EvalError:
        """An EvalError located at ``where`` (a node, a token or an (offset, end) pair)."""
        start, end = self.range_of(where)
        return EvalError(message, code, start, end, prefix)

    @staticmethod
    def range_of(where: Any) -> tuple:
        if where is None:
            return (None, None)
        if isinstance(where, tuple):
            return where
        if isinstance(where, SyntaxNode):
            if where.kind in _OPERATOR_LOCATED:
                # Puppet locates a binary expression at its operator.
                start, end = where.range
                for c in where.children():
                    if c.kind not in _NON_EXPR:
                        start = c.end
                        break
                for t in where.significant_tokens():
                    return (t.offset, end)
                return (start, end)
            return where.range
        return (where.offset, where.end)  # a token

    def warn(self, code: str, message: str, where: Any) -> None:
        start, end = self.range_of(where)
        self.ctx.log("warning", message, start, end, code)

    def optionally_fail(self, level: str, code: str, message: str, where: Any) -> None:
        """Report an issue whose severity depends on the strict setting."""
        if level == "error":
            raise self.fail(code, message, where)
        if level == "warning":
            self.warn(code, message, where)

    def required(self, node: SyntaxNode | None, parent: SyntaxNode) -> SyntaxNode:
        """A sub-expression the construct needs; only a broken tree (which validation stops
        before evaluation) lacks it."""
        if node is None:
            raise self.fail("SYNTAX_ERROR", render("SYNTAX_ERROR_INCOMPLETE_EXPRESSION"), parent)
        return node

    # ---- main dispatch ---------------------------------------------------------------------
    def eval(self, node: SyntaxNode, scope: Scope) -> Any:
        budget = self.budget
        budget.charge()
        budget.depth += 1
        try:
            if budget.depth > budget.max_depth:
                budget.enter()  # raises with a clear message
            fn = _DISPATCH.get(node.kind)
            if fn is None:
                return self.eval_unknown(node, scope)
            return fn(self, node, scope)
        except TypeSystemError as exc:
            # e.g. an alias that never resolves to a real type, found while matching
            raise self.fail(exc.code or "ILLEGAL_TYPE", str(exc), node) from None
        except LimitExceeded as exc:
            # blamed on the innermost expression, the one whose regexp or value was too costly
            if exc.where is None:
                exc.where = self.range_of(node)
            raise
        finally:
            budget.depth -= 1

    def eval_unknown(self, node: SyntaxNode, scope: Scope) -> Any:
        if node.kind == K.ERROR:
            raise self.fail("SYNTAX_ERROR", render("SYNTAX_ERROR_PLAIN"), node)
        raise self.fail("UNSUPPORTED_EXPRESSION",
                        render("EVALUATION_NOT_SUPPORTED", replace=node.kind.lower().replace('_',
                                                                                             ' ')),
                        node)

    def eval_statements(self, node: SyntaxNode, scope: Scope) -> Any:
        result = None
        for c in self.shape(node)[0]:
            result = self.eval(c, scope)
        return result

    def eval_block(self, node: SyntaxNode | None, scope: Scope) -> Any:
        if node is None:
            return None
        return self.eval_statements(node, scope)

    # ---- literals ------------------------------------------------------------------------------
    def eval_literal(self, node: SyntaxNode, scope: Scope) -> Any:
        g = node.green
        hit = self._lit_cache.get(id(g), MISSING)
        if hit is not MISSING and hit[0] is g:
            return hit[1]
        tok = node.first_token()
        if tok is None:
            return None
        k = tok.kind
        if k == K.NUMBER:
            v = ast.number_value(tok.text)
            if v is None:
                raise self.fail("ILLEGAL_NUMBER", render("ILLEGAL_NUMBER", text=tok.text), tok)
            if type(v) is int and v > MAX_INTEGER:
                raise EvalError(render("LITERAL_INTEGER_RESULTED_IN_VALUE", ruby_hex=ruby_hex(v)),
                                "NUMERIC_OVERFLOW",
                                tok.offset, tok.end, phase="parse")
            if type(v) is float and v in (float("inf"), float("-inf")):
                raise self.fail("ILLEGAL_NUMBER", render("ILLEGAL_NUMBER", text=tok.text), tok)
        elif k == K.STRING:
            v = ast.single_quoted_value(tok.text)
        elif k == K.BOOLEAN:
            v = tok.text == "true"
        elif k == K.UNDEF:
            v = None
        elif k == K.DEFAULT:
            v = DEFAULT
        elif k == K.REGEX:
            v = Regexp(tok.text[1:-1].replace("\\/", "/"))
        else:
            v = None
        self._lit_cache[id(g)] = (g, v)
        return v

    def eval_qname(self, node: SyntaxNode, scope: Scope) -> Any:
        t = node.first_token()
        return t.text if t else ""

    def eval_reserved(self, node: SyntaxNode, scope: Scope) -> Any:
        t = node.first_token()
        word = t.text if t else ""
        raise self.fail("RESERVED_WORD",
                        render("RESERVED_WORD", word=word),
                        node)

    def eval_type_ref(self, node: SyntaxNode, scope: Scope) -> Any:
        t = node.first_token()
        name = t.text if t else ""
        ty = self.resolve_type_name(name, node)
        if isinstance(ty, m.TypeReferenceType) and not self.unresolved_as_reference:
            raise self.fail("UNKNOWN_RESOURCE_TYPE", render("UNKNOWN_RESOURCE_TYPE",
                                                            type_name=ty.text), node)
        if isinstance(ty, m.TypeAliasType) and ty.scope is self.ctx.aliases:
            self._check_alias(ty, node)
        return ty

    def _check_alias(self, ty, node) -> None:
        """An alias that never reaches a real type is an error where it is used."""
        checked = self.__dict__.setdefault("_checked_aliases", {})
        name = ty.alias_name
        if name not in checked:
            checked[name] = _alias_reaches_type(self.ctx.aliases, ty, set(), 0)
        if not checked[name]:
            # Puppet raises this while evaluating the name, hence its "Type-Name" prefix.
            raise self.fail("ILLEGAL_TYPE_ALIAS", render("ILLEGAL_TYPE_ALIAS", name=name), node,
                            render("ERROR_WHILE_EVALUATING", expression="a Type-Name"))
        problems = self.__dict__.setdefault("_object_problems", {})
        if name in self.catalog.alias_problems:
            raise self.fail("RUNTIME_ERROR", self.catalog.alias_problems[name], node,
                            render("ERROR_WHILE_EVALUATING", expression="a Type-Name"))
        if name not in problems:
            try:
                target = resolve_alias(ty)
            except TypeSystemError:
                target = None
            problems[name] = object_type_problem(target) if isinstance(
                target, m.ObjectType) else None
        if problems[name] is not None:
            # Puppet validates a declared Object type when its name is first resolved
            raise self.fail("ILLEGAL_TYPE", problems[name], node,
                            render("ERROR_WHILE_EVALUATING", expression="a Type-Name"))

    def canonical_type_name(self, name: str) -> str:
        """Puppet looks type names up case-insensitively (``Semver`` is ``SemVer``)."""
        if name in m.SIMPLE_TYPES:
            return name
        low = name.lower().lstrip(":")
        hit = _CANONICAL.get(low)
        if hit is not None:
            return hit
        aliases = self.ctx.aliases
        if aliases.has(name):
            return name
        for n in aliases.names():
            if n.lower() == low:
                return n
        return name

    def resolve_type_name(self, name: str, where: Any) -> Any:
        """The type a capitalised name denotes (built-in, alias, resource type or reference)."""
        name = self.canonical_type_name(name)
        try:
            return build(TypeCall(name), self.ctx.aliases, self.resource_type_names())
        except TypeSystemError as exc:
            raise self.fail(exc.code or "ILLEGAL_TYPE", str(exc), where) from None

    def resource_type_names(self):
        defined = self.catalog.defined_type_names() | self.settings.extra_resource_types
        if not defined:
            return BUILTIN_RESOURCE_TYPES
        return BUILTIN_RESOURCE_TYPES | defined

    # ---- variables ----------------------------------------------------------------------------
    def eval_variable(self, node: SyntaxNode, scope: Scope) -> Any:
        t = self.shape(node)[1]
        name = t.text[1:] if t is not None and t.text.startswith("$") else (t.text if t else "")
        v = scope.lookup(name)
        if v is not MISSING:
            return v
        return self.get_variable(name, node, scope)

    def get_variable(self, name: str, where: Any, scope: Scope) -> Any:
        v = scope.lookup(name)
        if v is not MISSING:
            return v
        if name.isdigit() or name in ("module_name", "caller_module_name"):
            return None
        s = self.settings
        if s.strict_variables:
            level = "error"
        elif s.strict == "off":
            level = "off"
        else:
            level = s.strict
        self.optionally_fail(level, "UNKNOWN_VARIABLE", render("UNKNOWN_VARIABLE", name=name),
                             where)
        return None

    # ---- strings ----------------------------------------------------------------------------------
    def eval_dq_string(self, node: SyntaxNode, scope: Scope) -> Any:
        out = []
        for c in node.children_with_tokens():
            k = c.kind
            if k == K.STRING_TEXT:
                out.append(ast.dq_text_value(c.text))
            elif k == K.INTERPOLATION and isinstance(c, SyntaxNode):
                out.append(self.interpolate(c, scope))
        check_size(sum(map(len, out)), "the interpolated string")
        return "".join(out)

    def interpolate(self, node: SyntaxNode, scope: Scope) -> str:
        var = node.token(K.STRING_VAR)
        if var is not None:
            return to_s(self.get_variable(ast.variable_name(var.text), var, scope))
        e = first_expr(node)
        if e is None:
            return ""
        if e.kind == K.VARIABLE_EXPR:
            t = e.first_token()
            name = ast.variable_name(t.text) if t else ""
            if name and name[0].isdigit() and not name.isdigit():
                raise self.fail("ILLEGAL_NUMERIC_VAR_NAME",
                                render("ILLEGAL_NUMERIC_VAR_NAME", name=name), e)
        return to_s(self.eval(e, scope))

    def eval_heredoc(self, node: SyntaxNode, scope: Scope) -> Any:
        hd = ast.HeredocExpr(node)
        out = []
        for p in hd.parts():
            if isinstance(p, str):
                out.append(p)
            else:
                out.append(self.interpolate(p.syntax, scope))
        check_size(sum(map(len, out)), "the heredoc text")
        text = "".join(out)
        syntax = hd.syntax_name
        if syntax:
            msg = check_heredoc(syntax, text)
            if msg:
                raise self.fail(_heredoc_syntax_code(syntax), msg, _heredoc_text_start(node))
        return text

    # ---- collections ------------------------------------------------------------------------------
    def eval_array(self, node: SyntaxNode, scope: Scope) -> Any:
        out = self.unfold(self.shape(node)[0], scope)
        measure(out)   # [$a, $a] doubles what is reachable: refuse it here, not when walked
        return out

    def unfold(self, nodes: list, scope: Scope) -> list:
        """Evaluate a list of expressions, splicing in splatted (``*x``) values."""
        out: list = []
        for c in nodes:
            u = unparen(c)
            if is_splat(u):
                out.extend(self.eval_splat(u, scope))
            else:
                out.append(self.eval(c, scope))
        return out

    def eval_splat(self, node: SyntaxNode, scope: Scope) -> list:
        v = self.eval(self.required(first_expr(node), node), scope)
        if v is None:
            return []
        if type(v) is list or type(v) is tuple:
            return list(v)
        if isinstance(v, dict):
            return [[k, x] for k, x in v.items()]
        if is_iterator(v):
            return list(iterate(self, v, node))
        return [v]

    def eval_hash(self, node: SyntaxNode, scope: Scope) -> Any:
        out: dict = {}
        for e in node.children():
            if e.kind != K.HASH_ENTRY:
                continue
            kv = exprs(e)
            k = self.eval(kv[0], scope) if kv else None
            v = self.eval(kv[1], scope) if len(kv) > 1 else None
            out[hkey(k)] = v
        measure(out)
        return out

    def eval_paren(self, node: SyntaxNode, scope: Scope) -> Any:
        kids = self.shape(node)[0]
        return self.eval(kids[0], scope) if kids else None

    # ---- operators ------------------------------------------------------------------------------
    def eval_unary(self, node: SyntaxNode, scope: Scope) -> Any:
        kids, t = self.shape(node)
        operand = self.required(kids[0] if kids else None, node)
        k = t.kind if t else ""
        if k == K.NOT:
            return not truthy(self.eval(operand, scope))
        if k == K.MINUS:
            v = self.eval(operand, scope)
            n = self.coerce(v, node, "right")
            if isinstance(n, Timespan):
                return Timespan(-n.nsecs)
            if isinstance(n, SemVer):
                raise self.fail("RUNTIME_ERROR", render("SEMVER_NOT_FLOAT"),
                                node, render("ERROR_WHILE_EVALUATING",
                                             expression="an Unary Minus"))
            if not isinstance(n, (int, float)):
                raise self.fail("OPERATOR_NOT_APPLICABLE",
                                render("MINUS_NOT_APPLICABLE", a_an=a_an(label(n))), node)
            return -n
        if k == K.TIMES:
            return self.eval_splat(node, scope)
        raise self.fail("UNSUPPORTED_OPERATOR", render("UNSUPPORTED_OPERATOR",
                                                       operator=t.text if t else '?'),
                        node)

    def coerce(self, v: Any, where: Any, blame: str) -> Any:
        try:
            def on_coerce(s: Any, n: Any, _blame: str) -> None:
                self._coerced(s, n, where)
            return ops.coerce_numeric(v, blame, on_coerce)
        except ops.OpError as exc:
            raise self.fail(exc.code, exc.message, where) from None

    def _coerced(self, s: Any, n: Any, where: Any) -> None:
        level = "off" if self.settings.strict == "off" else self.settings.strict
        self.optionally_fail(level, "NUMERIC_COERCION",
                             render("NUMERIC_COERCION", before=s, after=to_s(n)), where)

    def eval_binary(self, node: SyntaxNode, scope: Scope) -> Any:
        es, t = self.shape(node)
        op = t.text if t else ""
        kind = t.kind if t else ""
        if len(es) < 2:
            raise self.fail("SYNTAX_ERROR", render("SYNTAX_ERROR_INCOMPLETE_EXPRESSION"), node)
        left_n, right_n = es[0], es[1]
        if kind == K.AND:
            if not truthy(self.eval(left_n, scope)):
                return False
            return truthy(self.eval(right_n, scope))
        if kind == K.OR:
            if truthy(self.eval(left_n, scope)):
                return True
            return truthy(self.eval(right_n, scope))
        left = self.eval(left_n, scope)
        right = self.eval(right_n, scope)
        try:
            if op in _ARITH:
                def on_coerce(s, n, blame):
                    self._coerced(s, n, left_n if blame == "left" else right_n)
                return ops.arithmetic(op, left, right, on_coerce)
            if op in _COMPARE:
                return ops.compare_op(op, left, right)
            if kind == K.MATCH or kind == K.NOMATCH:
                return self.match(left, right, op, left_n, right_n, scope)
            if kind == K.IN:
                return ops.includes(right, left, lambda mt: scope.push_match(ops.match_groups(mt)))
        except ops.OpError as exc:
            where = {"left": left_n, "right": right_n, "op": t, "expr": node}[exc.blame]
            prefix = render("ERROR_WHILE_EVALUATING", expression=a_an(repr_expr(op))) \
                if exc.code == "RUNTIME_ERROR" else ""
            raise self.fail(exc.code, exc.message, where, prefix) from None
        raise self.fail("UNSUPPORTED_OPERATOR", render("UNSUPPORTED_OPERATOR", operator=op), node)

    def match(self, left: Any, right: Any, op: str, left_n, right_n, scope: Scope) -> bool:
        positive = op == "=~"
        if isinstance(right, m.PType):
            r = is_instance(right, left)
            return r if positive else not r
        if isinstance(right, SemVerRange):
            if not isinstance(left, (str, SemVer)):
                r = False
            else:
                r = ops.semver_range_includes(right, left)
            return r if positive else not r
        if type(right) is str:
            rx = Regexp(right)
            if rx.compiled() is None:
                raise self.fail("MATCH_NOT_REGEXP",
                                render("MATCH_NOT_REGEXP", detail=regexp_error(right)), right_n)
            right = rx
        if not isinstance(right, Regexp):
            raise self.fail("MATCH_NOT_REGEXP",
                            render("MATCH_NO_STRING_CONVERSION", ruby_class=_ruby_class(right)),
                            right_n)
        if type(left) is not str:
            raise self.fail("MATCH_NOT_STRING",
                            render("MATCH_NOT_STRING", left='an Object' if isinstance(left,
                                                                                      DefaultValue) else a_an(label(left))),
                            left_n)
        mt = ops.regexp_search(right, left)
        if mt is not None:
            scope.push_match(ops.match_groups(mt))
        return (mt is not None) if positive else (mt is None)

    # ---- assignment ---------------------------------------------------------------------------------
    def eval_assignment(self, node: SyntaxNode, scope: Scope) -> Any:
        es, t = self.shape(node)
        if t is not None and t.kind != K.EQUALS:
            raise self.fail("UNSUPPORTED_OPERATOR", render("UNSUPPORTED_OPERATOR",
                                                           operator=t.text), node)
        if len(es) < 2:
            raise self.fail("SYNTAX_ERROR", render("SYNTAX_ERROR_INCOMPLETE_ASSIGNMENT"), node)
        target = self.lvalue(es[0])
        value = self.eval(es[1], scope)
        self.assign(target, value, node, es[0], es[1], scope)
        return value

    def lvalue(self, node: SyntaxNode) -> Any:
        node = unparen(node)
        if node.kind == K.VARIABLE_EXPR:
            t = node.first_token()
            return (ast.variable_name(t.text) if t else "", node)
        if node.kind == K.ARRAY:
            return [self.lvalue(c) for c in exprs(node)]
        raise self.fail("ILLEGAL_ASSIGNMENT", render("ILLEGAL_ASSIGNMENT",
                                                     what=a_an(node_label(node))), node)

    def assign(self, target: Any, value: Any, node, lhs, rhs, scope: Scope) -> None:
        if isinstance(target, tuple):
            name, _vnode = target
            if "::" in name:
                raise self.fail("CROSS_SCOPE_ASSIGNMENT",
                                render("CROSS_SCOPE_ASSIGNMENT", name=name), lhs)
            if name.isdigit():
                raise self.fail("ILLEGAL_NUMERIC_ASSIGNMENT",
                                render("ILLEGAL_NUMERIC_ASSIGNMENT", name=name), lhs)
            self.set_variable(name, value, node, scope)
            return
        # a list of lvalues: multi assignment
        if isinstance(value, dict):
            for lv in target:
                key = lv[0] if isinstance(lv, tuple) else [x[0] if isinstance(x,
                                                                              tuple) else x for x in lv]
                k = hkey(key)
                if k not in value:
                    shown = key if isinstance(key, str) else ruby_inspect(key)
                    raise self.fail("MISSING_MULTI_ASSIGNMENT_KEY",
                                    render("MISSING_MULTI_ASSIGNMENT_KEY", key=shown), node)
                self.assign(lv, value[k], node, lhs, rhs, scope)
            return
        if isinstance(value, m.ClassType) and value.class_name:
            self.catalog.assign_from_class(target, value, node, lhs, rhs, scope)
            return
        values = list(value) if type(value) in (list, tuple) else [value]
        if len(values) != len(target):
            raise self.fail("ILLEGAL_MULTI_ASSIGNMENT_SIZE",
                            render("ILLEGAL_MULTI_ASSIGNMENT_SIZE", expected=len(target),
                                   actual=len(values)), node)
        for lv, v in zip(target, values):
            self.assign(lv, v, node, lhs, rhs, scope)

    def set_variable(self, name: str, value: Any, where: Any, scope: Scope) -> None:
        # Two checks, as in Puppet: the evaluator's (a reserved name already bound where the
        # assignment goes: top scope) and the scope's (a reserved name anywhere else).
        if scope.bound(name) or name == "server_facts":
            if name in _RESERVED_VARIABLES:
                raise self.fail("ILLEGAL_RESERVED_ASSIGNMENT",
                                render("ILLEGAL_RESERVED_ASSIGNMENT", name=name), where)
            if (name in ("title", "name") and scope.kind in ("top", "class")
                    and scope.effective_table() is scope.table):
                # A class' (and main's) title and name are set by the compiler, not the code.
                raise self.fail("ILLEGAL_REASSIGNMENT", render("CANNOT_REASSIGN_BUILT_IN_OR",
                                                               name=name), where)
            raise self.fail("ILLEGAL_REASSIGNMENT", render("ILLEGAL_REASSIGNMENT", name=name),
                            where)
        if name in _RESERVED_VARIABLES:
            raise self.fail("RUNTIME_ERROR", reserved_name_message(name), where,
                            render("ERROR_WHILE_EVALUATING", expression="a '=' expression"))
        scope.set(name, value)

    # ---- conditionals ----------------------------------------------------------------------------------
    def eval_if(self, node: SyntaxNode, scope: Scope) -> Any:
        level = scope.level
        try:
            return self._if(node, scope, node.kind == K.UNLESS_EXPR)
        finally:
            scope.pop_to(level)

    def _if(self, node: SyntaxNode, scope: Scope, negate: bool) -> Any:
        kids = self.shape(node)[0]
        cond = kids[0] if kids else None
        test = truthy(self.eval(cond, scope)) if cond is not None else False
        if negate:
            test = not test
        if test:
            return self.eval_block(node.child(K.BLOCK), scope)
        elsif = node.child(K.ELSIF_CLAUSE)
        if elsif is not None:
            inner = elsif.child(K.IF_EXPR)
            return self._if(inner, scope, False) if inner is not None else None
        els = node.child(K.ELSE_CLAUSE)
        if els is not None:
            return self.eval_block(els.child(K.BLOCK), scope)
        return None

    def eval_case(self, node: SyntaxNode, scope: Scope) -> Any:
        level = scope.level
        try:
            test_n = self.required(first_expr(node), node)
            test = self.eval(test_n, scope)
            the_default = None
            set_match = lambda mt: scope.push_match(ops.match_groups(mt))
            for opt in node.children():
                if opt.kind != K.CASE_OPTION:
                    continue
                body = opt.child(K.BLOCK)
                for c in exprs(opt):
                    u = unparen(c)
                    if _is_literal_default(u):
                        the_default = body
                        continue
                    if self.option_matches(c, u, test, scope, set_match, lambdas=True):
                        return self.eval_block(body, scope)
            if the_default is not None:
                return self.eval_block(the_default, scope)
            return None
        finally:
            scope.pop_to(level)

    def option_matches(self, node: SyntaxNode, u: SyntaxNode, test: Any, scope: Scope, set_match,
                       lambdas: bool) -> bool:
        """Does a case option or selector entry (``u`` is ``node`` without parentheses) match
        ``test``?  A splat matches when any of its values does; a case option may be a lambda."""
        if is_splat(u):
            return any(self.case_match(test, v, set_match, u) for v in self.eval_splat(u, scope))
        if lambdas and u.kind == K.LAMBDA:
            return self.lambda_option(u, test, scope)
        return self.case_match(test, self.eval(node, scope), set_match, u)

    def case_match(self, test: Any, option: Any, set_match, where) -> bool:
        try:
            return ops.case_match(test, option, set_match)
        except ops.OpError as exc:
            raise self.fail(exc.code, exc.message, where) from None

    def lambda_option(self, lam: SyntaxNode, test: Any, scope: Scope) -> bool:
        cl = Closure(self, lam, scope)
        args = list(test) if type(test) in (list, tuple) else [test]
        return truthy(cl.call(args))

    def eval_selector(self, node: SyntaxNode, scope: Scope) -> Any:
        level = scope.level
        try:
            test_n = self.required(first_expr(node), node)
            test = self.eval(test_n, scope)
            the_default = None
            set_match = lambda mt: scope.push_match(ops.match_groups(mt))
            for entry in node.children():
                if entry.kind != K.SELECTOR_ENTRY:
                    continue
                parts = exprs(entry)
                if not parts:
                    continue
                me = unparen(parts[0])
                value_n = parts[1] if len(parts) > 1 else None
                if _is_literal_default(me):
                    the_default = value_n
                    continue
                if self.option_matches(parts[0], me, test, scope, set_match, lambdas=False):
                    return self.eval(value_n, scope) if value_n is not None else None
            if the_default is not None:
                return self.eval(the_default, scope)
            if isinstance(test, Unknown):
                return test          # a preview: which entry an unknown value selects is unknown
            raise self.fail("UNMATCHED_SELECTOR",
                            render("UNMATCHED_SELECTOR", param=ruby_interpolated(test)),
                            test_n)
        finally:
            scope.pop_to(level)

    # ---- access ------------------------------------------------------------------------------------
    def eval_access(self, node: SyntaxNode, scope: Scope) -> Any:
        es = self.shape(node)[0]
        target_n = es[0]
        key_nodes = es[1:]
        left = self.eval(target_n, scope)
        if isinstance(left, m.ClassType) and left.class_name is None:
            keys = []
            for k in key_nodes:
                if k.kind == K.TYPE_REF:
                    t = k.first_token()
                    keys.append(self.resolve_type_name(t.text if t else "", k))
                else:
                    keys.append(self.eval(k, scope))
        else:
            keys = self.unfold(key_nodes, scope)
            if left == m.RESOURCE and len(keys) == 1 and isinstance(keys[0], m.ResourceType):
                return keys[0]
        return access(self, node, target_n, key_nodes, left, keys, scope)

    # ---- calls -------------------------------------------------------------------------------------------
    def eval_call(self, node: SyntaxNode, scope: Scope) -> Any:
        functor, arg_list, lam = self.call_parts(node)
        arg_nodes = self.shape(arg_list)[0] if arg_list is not None else []
        if functor is not None and (functor.kind == K.TYPE_REF or (
                functor.kind == K.ACCESS_EXPR and (first_expr(functor) or functor).kind == K.TYPE_REF)):
            ty = self.eval(functor, scope)
            args = [ty] + self.unfold(arg_nodes, scope)
            return self.call_function("new", args, lam, node, scope, functor)
        if functor is None or functor.kind != K.QNAME:
            raise self.fail("ILLEGAL_EXPRESSION",
                            render("ILLEGAL_EXPRESSION_UNACCEPTABLE_AS_FUNCTION",
                                   a_an_uc=a_an_uc(node_label(functor))), functor or node)
        name = functor.first_token().text
        args = self.unfold(arg_nodes, scope)
        return self.call_function(name, args, lam, node, scope, functor)

    def call_parts(self, node: SyntaxNode) -> tuple:
        """(first expression, ARG_LIST node, LAMBDA node) of a call, computed once."""
        key = ("call", id(node.green), node.offset)
        hit = self._shapes.get(key)
        if hit is not None and hit[0] is node.green:
            return hit[1]
        first = None
        arg_list = lam = None
        for c in node.children():
            k = c.kind
            if k == K.ARG_LIST:
                arg_list = c
            elif k == K.LAMBDA:
                lam = c
            elif first is None and k not in _NON_EXPR:
                first = c
        parts = (first, arg_list, lam)
        self._shapes[key] = (node.green, parts)
        return parts

    def eval_statement_call(self, node: SyntaxNode, scope: Scope) -> Any:
        kids, t = self.shape(node)
        name = t.text if t else ""
        args = self.unfold(kids, scope)
        return self.call_function(name, args, None, node, scope, t)

    def eval_method_call(self, node: SyntaxNode, scope: Scope) -> Any:
        recv_n, arg_list, lam = self.call_parts(node)
        key = ("name", id(node.green), node.offset)
        hit = self._shapes.get(key)
        if hit is not None and hit[0] is node.green:
            name_tok = hit[1]
        else:
            name_tok = ast.MethodCall(node).name_token
            self._shapes[key] = (node.green, name_tok)
        if name_tok is None:
            raise self.fail("SYNTAX_ERROR", render("SYNTAX_ERROR_MISSING_METHOD_NAME"), node)
        receiver = self.unfold([recv_n], scope)
        args = receiver + (self.unfold(self.shape(arg_list)[0],
                                       scope) if arg_list is not None else [])
        obj = receiver[0] if receiver else None
        handled, value = call_member(self, obj, name_tok.text, args[1:], lam, node, scope)
        if handled:
            return value
        return self.call_function(name_tok.text, args, lam, node, scope, name_tok)

    def call_location(self, node: SyntaxNode) -> tuple:
        """Where Puppet reports an error in a call: the name for a function call, the '(' (or
        the '.') of a method call."""
        if node.kind == K.METHOD_CALL:
            al = node.child(K.ARG_LIST)
            if al is not None:
                t = al.token(K.LPAREN) or al.token(K.WSLPAREN)
                if t is not None:
                    return (t.offset, node.range[1])
            d = node.token(K.DOT)
            if d is not None:
                return (d.offset, node.range[1])
        return node.range

    def call_function(self, name: str, args: list, lam: SyntaxNode | None, node: SyntaxNode,
                      scope: Scope, name_where: Any, block: Any = None) -> Any:
        fn = self.ctx.functions.get(name)
        if fn is None:
            fn = lookup_function(name)
        if fn is None and self.settings.unknown_outside:
            # a module's function: re-implemented for previews (stdlib's pick, merge, …) when
            # the module has it, else unknown
            fn = lookup_module_function(name) if name.removeprefix("::").lower() in \
                self.settings.module_functions else None
            if fn is None:
                return Unknown.of_call(name)
        if fn is None:
            # A method call is blamed at its '(' or '.', like any other error of the call.
            where = self.call_location(node) if node.kind == K.METHOD_CALL else node
            raise self.fail("UNKNOWN_FUNCTION", render("UNKNOWN_FUNCTION", name=name), where)
        if lam is not None:
            block = Closure(self, lam, scope)
        prefix = render("ERROR_WHILE_EVALUATING", expression="a Method call"
                        if node.kind == K.METHOD_CALL else "a Function Call")
        self.budget.depth += 2   # a call costs more Python stack than an expression
        try:
            if self.budget.depth > self.budget.max_depth:
                self.budget.enter()
            return fn.call(self, args, block, scope, node)
        except EvalError as exc:
            if not exc.located:
                start, end = self.call_location(node)
                exc.locate(start, end, prefix)
            raise
        finally:
            self.budget.depth -= 2

    # ---- lambdas (outside of calls) -------------------------------------------------------------------
    def eval_lambda(self, node: SyntaxNode, scope: Scope) -> Any:
        return Closure(self, node, scope)

    # ---- definitions --------------------------------------------------------------------------------
    def eval_definition(self, node: SyntaxNode, scope: Scope) -> Any:
        return None

    # ---- catalog expressions -------------------------------------------------------------------------
    def eval_resource(self, node: SyntaxNode, scope: Scope) -> Any:
        return self.catalog.eval_resource_expression(node, scope)

    def eval_resource_defaults(self, node: SyntaxNode, scope: Scope) -> Any:
        return self.catalog.eval_resource_defaults(node, scope)

    def eval_resource_override(self, node: SyntaxNode, scope: Scope) -> Any:
        return self.catalog.eval_resource_override(node, scope)

    def eval_collect(self, node: SyntaxNode, scope: Scope) -> Any:
        return self.catalog.eval_collector(node, scope)

    def eval_relationship(self, node: SyntaxNode, scope: Scope) -> Any:
        return self.catalog.eval_relationship(node, scope)

    # ---- EPP -------------------------------------------------------------------------------------------
    def eval_epp_render_string(self, node: SyntaxNode, scope: Scope) -> Any:
        buf = self.epp_buffer(scope, node)
        buf.append(ast.EppRenderString(node).text)
        return None

    def eval_epp_render_expr(self, node: SyntaxNode, scope: Scope) -> Any:
        buf = self.epp_buffer(scope, node)
        # `<%= { $y = $x $y + 1 } %>` renders the value of a block (Puppet evaluates it).
        e = first_expr(node) or node.child(K.BLOCK)
        if e is not None and e.kind == K.BLOCK and not self.shape(e)[0]:
            v: Any = {}  # `<%= {} %>` is an empty hash (the parser makes it an empty block)
        else:
            v = self.eval(e, scope) if e is not None else None
        buf.append(v if isinstance(v, Sensitive) else to_s(v))
        return None

    def epp_buffer(self, scope: Scope, node: SyntaxNode) -> list:
        buf = getattr(self, "_epp_buffer", None)
        if buf is None:
            raise self.fail("EPP_NOT_IN_TEMPLATE", render("EPP_TEXT_CAN_ONLY_RENDERED"), node)
        return buf

    def eval_apply(self, node: SyntaxNode, scope: Scope) -> Any:
        raise self.fail("NOT_AVAILABLE", render("APPLY_EXPRESSION_NOT_AVAILABLE_IN"),
                        node)


def _alias_reaches_type(scope, t, seen: set, depth: int) -> bool:
    """Does an alias reach a real type?  ``type A = Variant[A, String]`` does (Puppet drops the
    self reference), ``type A = B`` with ``type B = A`` does not."""
    if depth > 100:
        return False
    if isinstance(t, m.TypeAliasType):
        if t.scope is not scope:
            return True
        if t.alias_name in seen:
            return False
        body = scope.body(t.alias_name)
        if body is None:
            return False
        return _alias_reaches_type(scope, body, seen | {t.alias_name}, depth + 1)
    if isinstance(t, m.VariantType):
        return any(_alias_reaches_type(scope, x, seen, depth + 1) for x in t.types)
    if isinstance(t, (m.OptionalType, m.NotUndefType)) and t.type is not None:
        return _alias_reaches_type(scope, t.type, seen, depth + 1)
    return True


def _heredoc_text_start(node: SyntaxNode) -> tuple:
    body = ast.HeredocExpr(node).body()
    if body is not None:
        return (body.offset, body.offset)
    return node.range


def static_heredoc_errors(root: SyntaxNode):
    """Heredocs with a syntax and no interpolation are checked before evaluation."""
    for n in root.descendants():
        if n.kind != K.HEREDOC_EXPR:
            continue
        hd = ast.HeredocExpr(n)
        syntax = hd.syntax_name
        if not syntax:
            continue
        parts = hd.parts()
        if any(not isinstance(p, str) for p in parts):
            continue
        msg = check_heredoc(syntax, "".join(parts))
        if msg:
            start, end = _heredoc_text_start(n)
            return EvalError(msg, _heredoc_syntax_code(syntax), start, end, phase="parse")
    return None


def _heredoc_syntax_code(syntax: str) -> str:
    """Puppet's JSON checker reports its own issue code; other checkers the general one."""
    return "ILLEGAL_JSON" if syntax.rsplit("+", 1)[-1] == "json" else "ILLEGAL_HEREDOC_SYNTAX"


def repr_expr(op: str) -> str:
    return f"'{op}' expression"


_RESERVED_VARIABLES = frozenset({"facts", "trusted", "server_facts"})


def _ruby_class(v: Any) -> str:
    """The name Ruby's "no implicit conversion of X" gives a value (nil/true/false by value)."""
    if v is None:
        return "nil"
    if v is True or v is False:
        return "true" if v else "false"
    return class_name_of(v)


def _is_literal_default(node: SyntaxNode) -> bool:
    if node.kind != K.LITERAL:
        return False
    t = node.first_token()
    return t is not None and t.kind == K.DEFAULT


_DISPATCH = {
    K.SOURCE_FILE: Evaluator.eval_statements,
    K.EPP_FILE: Evaluator.eval_statements,
    K.BLOCK: Evaluator.eval_statements,
    K.LITERAL: Evaluator.eval_literal,
    K.QNAME: Evaluator.eval_qname,
    K.RESERVED_WORD: Evaluator.eval_reserved,
    K.TYPE_REF: Evaluator.eval_type_ref,
    K.VARIABLE_EXPR: Evaluator.eval_variable,
    K.DQ_STRING: Evaluator.eval_dq_string,
    K.HEREDOC_EXPR: Evaluator.eval_heredoc,
    K.ARRAY: Evaluator.eval_array,
    K.HASH: Evaluator.eval_hash,
    K.PAREN_EXPR: Evaluator.eval_paren,
    K.UNARY_EXPR: Evaluator.eval_unary,
    K.BINARY_EXPR: Evaluator.eval_binary,
    K.ASSIGNMENT: Evaluator.eval_assignment,
    K.IF_EXPR: Evaluator.eval_if,
    K.UNLESS_EXPR: Evaluator.eval_if,
    K.CASE_EXPR: Evaluator.eval_case,
    K.SELECTOR_EXPR: Evaluator.eval_selector,
    K.ACCESS_EXPR: Evaluator.eval_access,
    K.CALL_EXPR: Evaluator.eval_call,
    K.STATEMENT_CALL: Evaluator.eval_statement_call,
    K.METHOD_CALL: Evaluator.eval_method_call,
    K.LAMBDA: Evaluator.eval_lambda,
    K.CLASS_DEF: Evaluator.eval_definition,
    K.DEFINE_DEF: Evaluator.eval_definition,
    K.NODE_DEF: Evaluator.eval_definition,
    K.FUNCTION_DEF: Evaluator.eval_definition,
    K.TYPE_ALIAS: Evaluator.eval_definition,
    K.PLAN_DEF: Evaluator.eval_definition,
    K.TYPE_DEFINITION: Evaluator.eval_definition,
    K.RESOURCE_EXPR: Evaluator.eval_resource,
    K.RESOURCE_DEFAULTS: Evaluator.eval_resource_defaults,
    K.RESOURCE_OVERRIDE: Evaluator.eval_resource_override,
    K.COLLECT_EXPR: Evaluator.eval_collect,
    K.RELATIONSHIP: Evaluator.eval_relationship,
    K.EPP_RENDER_STRING: Evaluator.eval_epp_render_string,
    K.EPP_RENDER_EXPR: Evaluator.eval_epp_render_expr,
    K.APPLY_EXPR: Evaluator.eval_apply,
}
