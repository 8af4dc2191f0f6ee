"""Static types and constant values of expressions, without executing anything.

``Analysis`` bundles one file's semantic model (``scopes.FileModel``) with the environment and
answers, per expression: its inferred type (``type_of``; ``Any`` when nothing better is known)
and, for expressions made only of literals, its value (``const_value``).  Results are cached
for the life of the object, which the server keeps per document revision.

Inference is deliberately conservative: a type is only as precise as the code proves it
(literals, declared parameter types, known return types of built-in functions); the checker
only reports a mismatch when a *constant* value is outside a declared type, never on an
inferred approximation.
"""
from __future__ import annotations

import dataclasses

from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.parser import ParseResult
from ..syntax.tree import SyntaxNode
from ..types import model as m
from ..types.algebra import common_type, generalize, infer_set
from ..types.build import BUILTIN_RESOURCE_TYPES, TypeCall
from ..types.errors import TypeSystemError
from ..types.from_ast import NotStatic, type_call_from_ast, type_call_from_text, type_from_ast
from ..types.values import DEFAULT, Regexp
from ..knowledge.functions import function as builtin_function
from .env import EMPTY, Environment
from .scopes import Definition, FileModel

NOT_CONST = object()
_MAX_DEPTH = 120
# Longest array literal typed element by element (a Tuple); a longer one is an Array: the types of
# tens of thousands of elements cost seconds (a hover on a 50,000-element array took 2 s) and
# no editor shows them.
_MAX_TUPLE = 1000

_BUILTIN_VAR_TYPES = {
    "facts": "Hash[String, Data]", "trusted": "Hash[String, Data]",
    "server_facts": "Hash[String, Data]", "title": "String", "name": "String",
    "module_name": "String", "caller_module_name": "String", "environment": "String",
    "clientcert": "String", "clientversion": "String", "servername": "String",
}
_ARITHMETIC = frozenset({K.PLUS, K.MINUS, K.TIMES, K.DIV, K.MODULO})
_BOOLEAN_OPS = frozenset({K.ISEQUAL, K.NOTEQUAL, K.MATCH, K.NOMATCH, K.LESSTHAN, K.LESSEQUAL,
                          K.GREATERTHAN, K.GREATEREQUAL, K.IN, K.AND, K.OR})


def has_unresolved(t, depth: int = 0) -> bool:
    """Does type ``t`` mention a name that is not a known type (or an alias that cannot be
    resolved)?  Such a type cannot be used to reject a value."""
    if depth > 60:
        return True
    if isinstance(t, m.TypeReferenceType):
        return True
    if isinstance(t, m.TypeAliasType):
        from ..types.build import resolve_alias
        try:
            inner = resolve_alias(t)
        except (TypeSystemError, RecursionError):
            return True
        return depth < 8 and has_unresolved(inner, depth + 1)
    if isinstance(t, (list, tuple)):
        return any(has_unresolved(x, depth + 1) for x in t)
    if isinstance(t, m.StructElement):
        return has_unresolved(t.value_type, depth + 1)
    if dataclasses.is_dataclass(t) and isinstance(t, m.PType):
        for f in dataclasses.fields(t):
            v = getattr(t, f.name)
            if isinstance(v, (m.PType, tuple, list, m.StructElement)) and has_unresolved(v, depth + 1):
                return True
    return False


class Analysis:
    """Types and constants of one parsed file in an environment."""

    def __init__(self, result: ParseResult, env: Environment | None = None, model: FileModel | None = None):
        self.result = result
        self.env = env or EMPTY
        self.model = model or FileModel(result)
        self._types: dict = {}
        self._consts: dict = {}
        self._busy: set = set()
        self._depth = 0
        self._alias_scope: m.AliasScope | None = None
        self._resource_names: frozenset[str] | None = None

    # ---- types from type expressions -----------------------------------------------------
    @property
    def alias_scope(self) -> m.AliasScope:
        if self._alias_scope is None:
            bodies: dict[str, TypeCall | m.PType] = {}
            for n in self.model.named:
                if n.kind == "type_alias" and n.node.kind == K.TYPE_ALIAS:
                    body = A.TypeAlias(n.node).value()
                    if body is None:
                        continue
                    try:
                        bodies[n.name] = type_call_from_ast(body)
                    except (NotStatic, RecursionError):
                        bodies[n.name] = m.ANY
            parent = self.env.alias_scope()
            self._alias_scope = m.AliasScope(bodies, parent)
        return self._alias_scope

    @property
    def resource_names(self) -> frozenset[str]:
        """Lower-case names that are resource types here (built in, defined types, classes)."""
        if self._resource_names is None:
            names = set(BUILTIN_RESOURCE_TYPES)
            for n in self.model.named:
                if n.kind in ("define", "class"):
                    names.add(n.name.lstrip(":").lower())
            for kind in ("define", "resource_type"):
                names.update(x.lower() for x in self.env.names(kind))
            self._resource_names = frozenset(names)
        return self._resource_names

    def type_from_expr(self, node) -> tuple:
        """(type, error) of a type expression node (an AST view), as in type_from_ast."""
        if node is None:
            return None, None
        return type_from_ast(node, self.alias_scope, self.resource_names)

    def type_from_text(self, text: str):
        call = type_call_from_text(text)
        if call is None:
            return None
        try:
            from ..types.build import build_type
            return build_type(call, self.alias_scope, self.resource_names)
        except (TypeSystemError, RecursionError):
            return None

    # ---- constants -----------------------------------------------------------------------
    def const_value(self, node):
        """The value of an expression made of literals only (arrays, hashes, strings without
        interpolation, numbers, booleans, undef, default, regexes, types), else NOT_CONST."""
        if node is None:
            return NOT_CONST
        syntax = node.syntax if isinstance(node, A.AstNode) else node
        key = (syntax.offset, syntax.end, syntax.kind)
        if key in self._consts:
            return self._consts[key]
        self._depth += 1
        try:
            v = self._const(A.view(syntax)) if self._depth < _MAX_DEPTH else NOT_CONST
        except RecursionError:
            v = NOT_CONST
        finally:
            self._depth -= 1
        self._consts[key] = v
        return v

    def _const(self, n):
        if isinstance(n, A.Literal):
            tok = n.token
            if tok is None:
                return NOT_CONST
            v = n.value()
            if v is A.DEFAULT:
                return DEFAULT
            if isinstance(v, A.Regex):
                return Regexp(v.source)
            if tok.kind == K.NUMBER and v is None:
                return NOT_CONST
            if tok.kind == K.STRING and (len(tok.text) < 2 or not tok.text.endswith("'")):
                return NOT_CONST
            return v
        if isinstance(n, A.QName) and not isinstance(n, A.ReservedWord):
            return n.name or NOT_CONST
        if isinstance(n, A.DqString):
            if not n.is_closed():
                return NOT_CONST
            parts = n.parts()
            return "".join(parts) if all(isinstance(p, str) for p in parts) else NOT_CONST
        if isinstance(n, A.HeredocExpr):
            if n.body() is None:
                return NOT_CONST
            parts = n.parts()
            return "".join(parts) if all(isinstance(p, str) for p in parts) else NOT_CONST
        if isinstance(n, A.Array):
            out = []
            for e in n.elements():
                if isinstance(e, A.UnaryExpr) and e.op_kind == K.TIMES:
                    return NOT_CONST
                v = self.const_value(e)
                if v is NOT_CONST:
                    return NOT_CONST
                out.append(v)
            return out
        if isinstance(n, A.Hash):
            d = {}
            for e in n.entries():
                k, v = self.const_value(e.key()), self.const_value(e.value())
                if k is NOT_CONST or v is NOT_CONST:
                    return NOT_CONST
                try:
                    d[k] = v
                except TypeError:
                    return NOT_CONST
            return d
        if isinstance(n, A.UnaryExpr) and n.op_kind == K.MINUS:
            v = self.const_value(n.operand())
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return -v
            return NOT_CONST
        if isinstance(n, A.ParenExpr):
            return self.const_value(n.expr())
        if isinstance(n, (A.TypeRef, A.AccessExpr)):
            if isinstance(n, A.AccessExpr) and not isinstance(n.target(), A.TypeRef):
                return NOT_CONST
            t, err = self.type_from_expr(n)
            # A type naming something unknown is not a value the checker may judge.
            return t if t is not None and err is None and not has_unresolved(t) else NOT_CONST
        return NOT_CONST

    # ---- types ---------------------------------------------------------------------------
    def type_of(self, node) -> m.PType:
        """The inferred type of an expression (``Any`` when unknown)."""
        if node is None:
            return m.ANY
        syntax = node.syntax if isinstance(node, A.AstNode) else node
        key = (syntax.offset, syntax.end, syntax.kind)
        t = self._types.get(key)
        if t is not None:
            return t
        if key in self._busy or self._depth >= _MAX_DEPTH:
            return m.ANY
        self._busy.add(key)
        self._depth += 1
        try:
            t = self._infer(A.view(syntax))
        except (RecursionError, TypeSystemError):
            t = m.ANY
        finally:
            self._depth -= 1
            self._busy.discard(key)
        self._types[key] = t
        return t

    def _infer(self, n) -> m.PType:
        v = self.const_value(n)
        if v is not NOT_CONST:
            if isinstance(n, (A.TypeRef, A.AccessExpr)):
                return m.TypeType(v)
            return infer_set(v)
        if isinstance(n, A.VariableExpr):
            return self._variable_type(n.syntax)
        if isinstance(n, A.Interpolation):
            return self._variable_type(n.syntax)
        if isinstance(n, (A.DqString, A.HeredocExpr)):
            return m.STRING
        if isinstance(n, A.ParenExpr):
            return self.type_of(n.expr())
        if isinstance(n, A.Array):
            elems = n.elements()
            if len(elems) > _MAX_TUPLE or any(isinstance(e, A.UnaryExpr) and e.op_kind == K.TIMES for e in elems):
                return m.ARRAY
            return m.TupleType(tuple(self.type_of(e) for e in elems))
        if isinstance(n, A.Hash):
            entries = n.entries()
            keys = [self.const_value(e.key()) for e in entries]
            if entries and all(isinstance(k, str) for k in keys) and len(set(keys)) == len(keys):
                return m.StructType(tuple(m.StructElement(k, self.type_of(e.value()), False)
                                          for k, e in zip(keys, entries)))
            if not entries:
                return m.EMPTY_HASH
            return m.HashType(_common([self.type_of(e.key()) for e in entries]),
                              _common([self.type_of(e.value()) for e in entries]))
        if isinstance(n, A.UnaryExpr):
            if n.op_kind == K.NOT:
                return m.BOOLEAN
            if n.op_kind == K.MINUS:
                t = generalize(self.type_of(n.operand()))
                return t if isinstance(t, (m.IntegerType, m.FloatType)) else m.NUMERIC
            return self.type_of(n.operand())
        if isinstance(n, A.BinaryExpr):
            return self._binary(n)
        if isinstance(n, A.Assignment):
            return self.type_of(n.right())
        if isinstance(n, A.AccessExpr):
            return self._access(n)
        if isinstance(n, A.SelectorExpr):
            return _common([self.type_of(e.value()) for e in n.entries()])
        if isinstance(n, A.IfExpr):
            branches = [n.then_block(), n.else_block()]
            elsif = n.elsif()
            types = [self._block_type(b) for b in branches[:1]]
            types.append(self.type_of(elsif) if elsif is not None else
                         (self._block_type(branches[1]) if branches[1] is not None else m.UNDEF))
            return _common(types)
        if isinstance(n, A.CaseExpr):
            opts = n.options()
            types = [self._block_type(o.body()) for o in opts]
            if not any(isinstance(v, A.Literal) and v.value() is A.DEFAULT for o in opts for v in o.values()):
                types.append(m.UNDEF)
            return _common(types)
        if isinstance(n, (A.CallExpr, A.MethodCall, A.StatementCall)):
            return self._call_type(n)
        if isinstance(n, A.Lambda):
            return m.CALLABLE
        if isinstance(n, A.Block):
            return self._block_type(n)
        return m.ANY

    def _block_type(self, block) -> m.PType:
        if block is None:
            return m.UNDEF
        stmts = block.statements()
        return self.type_of(stmts[-1]) if stmts else m.UNDEF

    def _binary(self, n: A.BinaryExpr) -> m.PType:
        op = n.op_kind
        if op in _BOOLEAN_OPS:
            return m.BOOLEAN
        lt, rt = generalize(self.type_of(n.left())), generalize(self.type_of(n.right()))
        if op in _ARITHMETIC:
            if isinstance(lt, m.IntegerType) and isinstance(rt, m.IntegerType):
                return m.INTEGER
            if isinstance(lt, (m.FloatType, m.IntegerType, m.NumericType)) and \
                    isinstance(rt, (m.FloatType, m.IntegerType, m.NumericType)):
                return m.FLOAT if m.FLOAT in (lt, rt) else m.NUMERIC
            if op == K.PLUS and isinstance(lt, (m.ArrayType, m.TupleType)):
                return m.ARRAY
            if op in (K.PLUS, K.MINUS) and isinstance(lt, (m.HashType, m.StructType)):
                return m.HASH
            if op == K.MINUS and isinstance(lt, (m.ArrayType, m.TupleType)):
                return m.ARRAY
            return m.ANY
        if op == K.LSHIFT and isinstance(lt, (m.ArrayType, m.TupleType)):
            return m.ARRAY
        return m.ANY

    def _access(self, n: A.AccessExpr) -> m.PType:
        target_t = self.type_of(n.target())
        keys = n.keys()
        if len(keys) != 1:
            return m.ANY
        key = self.const_value(keys[0])
        return self._element_type(target_t, key, 0)

    def _element_type(self, target_t: m.PType, key, depth: int) -> m.PType:
        """The type of ``target[key]`` for a value of type ``target_t``."""
        t = _resolved(target_t)
        if depth > 5:
            return m.ANY
        if isinstance(t, m.OptionalType) and t.type is not None:
            return self._element_type(t.type, key, depth + 1)
        if isinstance(t, m.VariantType):
            # Data is Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]: indexing it
            # can only have worked on its collection members
            parts = [self._element_type(x, key, depth + 1) for x in t.types
                     if isinstance(_resolved(x), (m.HashType, m.ArrayType, m.StructType, m.TupleType))]
            return _common(parts) if parts else m.ANY
        if isinstance(t, m.TupleType) and isinstance(key, int) and not isinstance(key, bool):
            if -len(t.types) <= key < len(t.types):
                return t.types[key]
            return m.UNDEF
        if isinstance(t, m.ArrayType):
            return m.OptionalType(t.element) if not isinstance(t.element, m.AnyType) else m.ANY
        if isinstance(t, m.StructType) and isinstance(key, str):
            for e in t.elements:
                if e.key == key:
                    return e.value_type
            return m.UNDEF
        if isinstance(t, m.HashType):
            return m.OptionalType(t.value) if not isinstance(t.value, m.AnyType) else m.ANY
        if isinstance(t, m.StringType):
            return m.STRING
        return m.ANY

    def _call_type(self, n) -> m.PType:
        if isinstance(n, A.CallExpr):
            f = n.functor()
            if isinstance(f, A.TypeRef):
                t, _ = self.type_from_expr(f)
                return t if t is not None else m.ANY
            name = n.name or ""
            args = n.args()
        elif isinstance(n, A.MethodCall):
            name = n.name
            args = [n.receiver()] + n.args()
        else:
            name = n.name
            args = n.args()
        name = name.lstrip(":")
        own = [x for x in self.model.named if x.kind == "function" and x.name == name]
        if own:
            rt = A.FunctionDef(own[0].node).return_type()
            t, _ = self.type_from_expr(rt)
            return t if t is not None else m.ANY
        if "::" in name:
            for e in self.env.lookup("function", name):
                if e.return_type:
                    t = self.type_from_text(e.return_type)
                    if t is not None:
                        return t
            return m.ANY
        if name == "map":
            lam = n.lambda_() if hasattr(n, "lambda_") else None
            body = lam.body() if lam is not None else None
            return m.ArrayType(generalize(self._block_type(body))) if body is not None else m.ARRAY
        if name in ("filter",) and args:
            t = generalize(self.type_of(args[0]))
            return t if isinstance(t, (m.ArrayType, m.HashType)) else m.ANY
        if name == "each" and args:
            return self.type_of(args[0])
        facts = builtin_function(name)
        text = facts.return_type if facts is not None else ""
        if not text:
            return m.ANY
        if text == "=arg":
            at = generalize(self.type_of(args[0])) if args else m.ANY
            if isinstance(at, (m.StringType, m.EnumType, m.PatternType)):
                return m.STRING
            if isinstance(at, (m.ArrayType, m.TupleType)):
                return m.ArrayType(m.STRING)
            return m.ANY
        t = self.type_from_text(text)
        return t if t is not None else m.ANY

    # ---- variables -----------------------------------------------------------------------
    def _variable_type(self, syntax: SyntaxNode) -> m.PType:
        tok = syntax.first_token() if syntax.kind == K.VARIABLE_EXPR else syntax.token(K.STRING_VAR)
        if tok is None:
            return m.ANY
        ref = self.model.reference_at(tok.offset)
        if ref is None:
            return m.ANY
        if ref.target is not None:
            return self.definition_type(ref.target)
        if ref.status == "builtin":
            text = _BUILTIN_VAR_TYPES.get(ref.name.lstrip(":"))
            if text:
                return self.type_from_text(text) or m.ANY
        return m.ANY

    def definition_type(self, d: Definition) -> m.PType:
        """The type a variable has where it is defined: the declared type of a parameter (or
        what its lambda is called with), the inferred type of an assignment's value."""
        key = ("def", d.offset)
        t = self._types.get(key)
        if t is not None:
            return t
        if key in self._busy:
            return m.ANY
        self._busy.add(key)
        try:
            t = self._definition_type(d)
        except (RecursionError, TypeSystemError):
            t = m.ANY
        finally:
            self._busy.discard(key)
        self._types[key] = t
        return t

    def _definition_type(self, d: Definition) -> m.PType:
        if d.kind in ("parameter", "template_parameter", "lambda_parameter"):
            p = A.Param(d.node)
            te = p.type_expr()
            if te is not None:
                t, _ = self.type_from_expr(te)
                if t is not None:
                    return t
                return m.ANY
            if d.kind == "lambda_parameter":
                return self._lambda_param_type(d)
            return m.ANY
        a = A.Assignment(d.node)
        right = a.right()
        if d.index is None:
            return self.type_of(right)
        rt = _resolved(self.type_of(right))
        if isinstance(rt, m.TupleType) and d.index < len(rt.types):
            return rt.types[d.index]
        return m.ANY

    def _lambda_param_type(self, d: Definition) -> m.PType:
        lam = d.node.parent.parent if d.node.parent is not None else None   # PARAM_LIST -> LAMBDA
        if lam is None or lam.kind != K.LAMBDA or lam.parent is None:
            return m.ANY
        call = lam.parent
        if call.kind == K.METHOD_CALL:
            mc = A.MethodCall(call)
            name, first = mc.name, mc.receiver()
        elif call.kind == K.CALL_EXPR:
            cc = A.CallExpr(call)
            name, args = cc.name or "", cc.args()
            first = args[0] if args else None
        else:
            return m.ANY
        facts = builtin_function(name)
        if facts is None or not facts.iterates or first is None:
            return m.ANY
        params = A.Lambda(lam).params()
        idx = next((i for i, p in enumerate(params) if p.syntax.offset == d.node.offset), 0)
        ct = _resolved(generalize(self.type_of(first)))
        if isinstance(ct, m.TupleType):
            ct = m.ArrayType(_common(list(ct.types)) if ct.types else m.ANY)
        if isinstance(ct, m.StructType):
            ct = m.HashType(m.STRING, _common([e.value_type for e in ct.elements]) if ct.elements else m.ANY)
        if isinstance(ct, m.ArrayType):
            if len(params) == 2 and name in ("each", "map", "filter", "any", "all", "each_with_index"):
                return m.INTEGER if idx == 0 else ct.element
            return ct.element
        if isinstance(ct, m.HashType):
            if len(params) == 2:
                return ct.key if idx == 0 else ct.value
            return m.TupleType((ct.key, ct.value))
        if isinstance(ct, m.IntegerType):
            return m.INTEGER
        if isinstance(ct, m.StringType):
            return m.STRING
        return m.ANY

    def const_of_variable(self, ref) -> object:
        """The value of a variable reference when it is a single unconditional assignment of a
        constant that comes before the use, else NOT_CONST."""
        d = ref.target
        if d is None or d.kind != "variable" or d.index is not None or d.offset > ref.offset:
            return NOT_CONST
        if len(d.scope.variables.get(d.name, ())) != 1:
            return NOT_CONST
        parent = d.node.parent
        if parent is None or parent.kind not in (K.BLOCK, K.SOURCE_FILE):
            return NOT_CONST
        return self.const_value(A.Assignment(d.node).right())


def _resolved(t: m.PType) -> m.PType:
    if isinstance(t, m.TypeAliasType):
        from ..types.build import resolve_alias
        try:
            return resolve_alias(t)
        except (TypeSystemError, RecursionError):
            return m.ANY
    if isinstance(t, m.OptionalType) and t.type is not None:
        return t
    return t


def _is_string_literal(t: m.PType) -> bool:
    return type(t) is m.StringType and t.value is not None and t.size is None


def _common(types: list) -> m.PType:
    """What folding ``common_type`` over ``types`` from the left gives, in time linear in their
    number: a literal of thousands of elements is hovered as fast as a short one.

    Two facts keep the shortcuts exact: the fold's value is always assignable from every element
    seen so far, so an element met before changes nothing (``common_type`` returns its first
    argument when that holds); and a run of string literals (integer ranges) meeting an Enum
    (an integer range) only unions values (widens the range), which can be done once per run
    instead of once per element (each step re-sorting a growing Enum made a hover of a big hash
    with one odd value quadratic: seconds)."""
    if not types:
        return m.ANY
    if any(type(x) is m.AnyType for x in types):
        return m.ANY        # what the fold ends with once it meets Any, without the fold
    try:
        unique = list(dict.fromkeys(types))
    except TypeError:       # a type holding an unhashable parameter: no de-duplication
        unique = list(types)
    t = unique[0]
    i, n = 1, len(unique)
    while i < n:
        x = unique[i]
        if _is_string_literal(x) and (_is_string_literal(t) or (
                type(t) is m.EnumType and t.values and not t.case_insensitive)):  # a bare Enum takes any string
            values = set(t.values) if isinstance(t, m.EnumType) else {t.value}
            before = len(values)
            while i < n and _is_string_literal(unique[i]):
                values.add(unique[i].value)
                i += 1
            if len(values) != before:
                t = m.EnumType(tuple(sorted(values)))
            continue
        if type(x) is m.IntegerType and type(t) is m.IntegerType:
            lo, hi = t.lo, t.hi
            while i < n and type(unique[i]) is m.IntegerType:
                y = unique[i]
                lo = None if lo is None or y.lo is None else min(lo, y.lo)
                hi = None if hi is None or y.hi is None else max(hi, y.hi)
                i += 1
            if (lo, hi) != (t.lo, t.hi):
                t = m.IntegerType(lo, hi)
            continue
        try:
            t = common_type(t, x)
        except (TypeSystemError, RecursionError):
            return m.ANY
        i += 1
    return t


__all__ = ["Analysis", "NOT_CONST", "has_unresolved", "TypeCall"]
