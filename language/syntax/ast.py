"""Typed views over the lossless tree: the AST that analysis and evaluation read.

``view(node)`` wraps a red ``SyntaxNode`` in the class for its kind.  Every accessor may return
``None`` (or an empty list) because the tree can come from broken code.  Values written in the
source (numbers, strings, heredoc text) are decoded here, with Puppet's escape and margin rules.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from . import kinds as K
from .tree import SyntaxNode, SyntaxToken

_TRIVIA = K.TRIVIA


class AstNode:
    __slots__ = ("syntax",)
    kind: str = ""

    def __init__(self, syntax: SyntaxNode):
        self.syntax = syntax

    # -- helpers ---------------------------------------------------------------------------
    def _nodes(self) -> list:
        return [view(c) for c in self.syntax.children()]

    def _exprs(self) -> list:
        return [view(c) for c in self.syntax.children() if c.kind not in _NON_EXPR]

    def _token(self, *kinds_: str) -> SyntaxToken | None:
        for t in self.syntax.tokens(kinds_):
            return t
        return None

    def _first_expr(self):
        for c in self.syntax.children():
            if c.kind not in _NON_EXPR:
                return view(c)
        return None

    def _nth_expr(self, n: int):
        exprs = self._exprs()
        return exprs[n] if len(exprs) > n else None

    def _parts(self, kind: str, cls) -> list:
        """The child nodes of one kind, as views of class ``cls``."""
        return [cls(c) for c in self.syntax.children() if c.kind == kind]

    @property
    def range(self) -> tuple[int, int]:
        return self.syntax.range

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.syntax.text!r})"


# Nodes that are parts of a construct rather than expressions.
_NON_EXPR = frozenset({
    K.ARG_LIST, K.LAMBDA, K.PARAM_LIST, K.PARAM, K.RETURN_TYPE, K.BLOCK, K.ELSIF_CLAUSE,
    K.ELSE_CLAUSE, K.CASE_OPTION, K.RESOURCE_BODY, K.ATTRIBUTE_OP, K.COLLECT_QUERY,
    K.HOST_MATCHES, K.HOST_NAME, K.PARENT, K.HASH_ENTRY, K.SELECTOR_ENTRY, K.EPP_PARAMS,
    K.HEREDOC_BODY, K.HEREDOC_TEXT,
})


class Error(AstNode):
    """Source the parser could not make sense of (already reported)."""


class Statements(AstNode):
    def statements(self) -> list:
        return [view(c) for c in self.syntax.children() if c.kind not in _NON_EXPR or c.kind == K.BLOCK]


class SourceFile(Statements):
    pass


class EppFile(Statements):
    def params(self) -> list[Param]:
        p = self.syntax.child(K.EPP_PARAMS)
        if p is None:
            return []
        pl = p.child(K.PARAM_LIST)
        return [Param(c) for c in pl.children() if c.kind == K.PARAM] if pl else []

    def has_params(self) -> bool:
        return self.syntax.child(K.EPP_PARAMS) is not None

    def statements(self) -> list:
        return [view(c) for c in self.syntax.children() if c.kind not in _NON_EXPR]


class Block(Statements):
    def statements(self) -> list:
        return [view(c) for c in self.syntax.children() if c.kind not in _NON_EXPR or c.kind == K.BLOCK]


# ---- literals ------------------------------------------------------------------------------

class Literal(AstNode):
    @property
    def token(self) -> SyntaxToken | None:
        return self.syntax.first_token()

    @property
    def token_kind(self) -> str | None:
        t = self.token
        return t.kind if t else None

    def value(self):
        """The Python value: int, float, str, bool, None (undef), DEFAULT, or Regex."""
        t = self.token
        if t is None:
            return None
        k = t.kind
        if k == K.NUMBER:
            return number_value(t.text)
        if k == K.STRING:
            return single_quoted_value(t.text)
        if k == K.BOOLEAN:
            return t.text == "true"
        if k == K.UNDEF:
            return None
        if k == K.DEFAULT:
            return DEFAULT
        if k == K.REGEX:
            return Regex(t.text[1:-1])
        return None


class _Default:
    """The literal ``default``: one instance, DEFAULT, compared by identity."""

    def __reduce__(self) -> str:
        # copies and pickles are DEFAULT itself (a module-level name, which a compiled class
        # can name where a singleton __new__ cannot be compiled)
        return "DEFAULT"

    def __repr__(self) -> str:
        return "default"


DEFAULT = _Default()


class Regex:
    """A regular expression literal's source (between the slashes, escapes as written)."""
    __slots__ = ("source",)

    def __init__(self, source: str):
        self.source = source

    def __eq__(self, other) -> bool:
        return isinstance(other, Regex) and other.source == self.source

    def __hash__(self) -> int:
        return hash(self.source)

    def __repr__(self) -> str:
        return "/" + self.source + "/"


class QName(AstNode):
    """A bare lower-case word used as a value (a string), or the name of a function."""
    @property
    def name(self) -> str:
        t = self.syntax.first_token()
        return t.text if t else ""


class ReservedWord(QName):
    pass


class TypeRef(AstNode):
    @property
    def name(self) -> str:
        t = self.syntax.first_token()
        return t.text if t else ""


class VariableExpr(AstNode):
    @property
    def name(self) -> str:
        t = self.syntax.first_token()
        return variable_name(t.text) if t else ""


def variable_name(text: str) -> str:
    return text.removeprefix("$")


class DqString(AstNode):
    def parts(self) -> list:
        """Text pieces (decoded str) and Interpolation views, in order."""
        out: list = []
        for c in self.syntax.children_with_tokens():
            if isinstance(c, SyntaxToken):
                if c.kind == K.STRING_TEXT:
                    out.append(dq_text_value(c.text))
            elif c.kind == K.INTERPOLATION:
                out.append(Interpolation(c))
        return out

    def is_closed(self) -> bool:
        t = self._token(K.DQ_CLOSE)
        return t is not None and t.text == '"'


class Interpolation(AstNode):
    """'$name' or '${expr}' inside a string."""
    def is_simple_variable(self) -> bool:
        return self._token(K.STRING_VAR) is not None

    @property
    def variable_name(self) -> str | None:
        t = self._token(K.STRING_VAR)
        return variable_name(t.text) if t else None

    def expr(self):
        return self._first_expr()


class HeredocExpr(AstNode):
    @property
    def header(self) -> str:
        t = self._token(K.HEREDOC)
        return t.text if t else ""

    def _header_parts(self):
        m = _HEREDOC_HEADER.match(self.header)
        return m

    @property
    def syntax_name(self) -> str:
        m = self._header_parts()
        return (m.group(2) or "") if m else ""

    @property
    def tag(self) -> str:
        m = self._header_parts()
        if not m:
            return ""
        tag = m.group(1).strip()
        return tag[1:-1] if tag.startswith('"') and tag.endswith('"') and len(tag) >= 2 else tag

    @property
    def interpolates(self) -> bool:
        m = self._header_parts()
        return bool(m) and m.group(1).strip().startswith('"')

    @property
    def escapes(self) -> frozenset:
        m = self._header_parts()
        if not m or m.group(3) is None:
            return frozenset()
        flags = m.group(3)
        return frozenset("trnsuL$") if flags == "" else frozenset(flags) & frozenset("trnsuL$")

    def body(self) -> SyntaxNode | None:
        """The HEREDOC_BODY node holding this heredoc's text.  It sits later in the tree, at the
        place the text occupies in the file; bodies appear in the order of their (valid)
        headers, so the n-th valid header owns the n-th body."""
        tok = self._token(K.HEREDOC)
        if tok is None or not heredoc_header_ok(tok.text):
            return None
        root = self.syntax
        while root.parent is not None:
            root = root.parent
        index = -1
        seen = 0
        bodies = []
        for c in root.descendants_with_tokens():
            if isinstance(c, SyntaxToken):
                if c.kind == K.HEREDOC and heredoc_header_ok(c.text):
                    if c.offset == tok.offset:
                        index = seen
                    seen += 1
            elif c.kind == K.HEREDOC_BODY:
                bodies.append(c)
        return bodies[index] if 0 <= index < len(bodies) else None

    def margin_and_trim(self, body: SyntaxNode) -> tuple[int, bool]:
        end = body.token(K.HEREDOC_END)
        if end is None:
            return 0, False
        m = _HEREDOC_END.match(end.text)
        if not m:
            return 0, False
        margin = len(m.group(1).expandtabs(1)) if m.group(2) else 0
        return margin, bool(m.group(3))

    def parts(self) -> list:
        """Decoded text pieces and Interpolation views (margin removed, escapes applied,
        trailing line break trimmed for '-')."""
        body = self.body()
        if body is None:
            return []
        text_node = body.child(K.HEREDOC_TEXT)
        if text_node is None:
            return []
        margin, trim = self.margin_and_trim(body)
        escapes = self.escapes
        raw: list = []
        at_line_start = True
        for c in text_node.children_with_tokens():
            if isinstance(c, SyntaxToken):
                if c.kind == K.STRING_TEXT:
                    raw.append(_strip_margin(c.text, margin, at_line_start))
                    at_line_start = c.text.endswith("\n")
            elif c.kind == K.INTERPOLATION:
                raw.append(Interpolation(c))
                at_line_start = False
        if trim and raw and isinstance(raw[-1], str):
            s = raw[-1]
            if s.endswith("\r\n"):
                raw[-1] = s[:-2]
            elif s.endswith("\n"):
                raw[-1] = s[:-1]
        return [heredoc_text_value(p, escapes) if isinstance(p, str) else p for p in raw]


_HEREDOC_HEADER = re.compile(r"@\(([^:/\r\n)]+)(?::\s*([a-z][a-zA-Z0-9_+]+)\s*)?(?:/((?:\w|[$])*)\s*)?\)")
_HEREDOC_END = re.compile(r"([ \t]*)(\|)?[ \t]*(-)?")


def heredoc_header_ok(text: str) -> bool:
    """Does this header get a body from the lexer (the same check the lexer makes: a
    well-formed header with a non-empty end tag)?"""
    m = _HEREDOC_HEADER.match(text)
    if not m:
        return False
    tag = m.group(1).strip()
    if tag.startswith('"') and tag.endswith('"') and len(tag) >= 2:
        tag = tag[1:-1]
    return bool(tag)


def _strip_margin(text: str, margin: int, at_line_start: bool) -> str:
    if margin <= 0:
        return text
    # Only lines indented at least as far as the margin lose it; shorter indentation is kept
    # as it is (what Puppet does).
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if (i > 0 or at_line_start) and len(line) >= margin and line[:margin].strip(" \t") == "":
            line = line[margin:]
        out.append(line)
    return "\n".join(out)


class Array(AstNode):
    def elements(self) -> list:
        return self._exprs()


class Hash(AstNode):
    def entries(self) -> list[HashEntry]:
        return self._parts(K.HASH_ENTRY, HashEntry)

    @property
    def braced(self) -> bool:
        return self._token(K.LBRACE) is not None


class HashEntry(AstNode):
    def key(self):
        return self._first_expr()

    def value(self):
        return self._nth_expr(1)


class ParenExpr(AstNode):
    def expr(self):
        return self._first_expr()


class _Operator(AstNode):
    @property
    def op_token(self) -> SyntaxToken | None:
        for t in self.syntax.significant_tokens():
            return t
        return None

    @property
    def op(self) -> str:
        t = self.op_token
        return t.text if t else ""

    @property
    def op_kind(self) -> str:
        t = self.op_token
        return t.kind if t else ""

    def left(self):
        exprs = self._exprs()
        return exprs[0] if exprs else None

    def right(self):
        return self._nth_expr(1)


class BinaryExpr(_Operator):
    pass


class Assignment(_Operator):
    pass


class Relationship(_Operator):
    pass


class UnaryExpr(_Operator):
    def operand(self):
        return self._first_expr()


class AccessExpr(AstNode):
    def target(self):
        return self._first_expr()

    def keys(self) -> list:
        return self._exprs()[1:]


class SelectorExpr(AstNode):
    def test(self):
        return self._first_expr()

    def entries(self) -> list[SelectorEntry]:
        return self._parts(K.SELECTOR_ENTRY, SelectorEntry)


class SelectorEntry(AstNode):
    def matching(self):
        return self._first_expr()

    def value(self):
        return self._nth_expr(1)


class _CallLike(AstNode):
    def args(self) -> list:
        al = self.syntax.child(K.ARG_LIST)
        return [view(c) for c in al.children() if c.kind not in _NON_EXPR] if al else []

    def has_arg_list(self) -> bool:
        return self.syntax.child(K.ARG_LIST) is not None

    def lambda_(self) -> Lambda | None:
        c = self.syntax.child(K.LAMBDA)
        return Lambda(c) if c else None


class CallExpr(_CallLike):
    def functor(self):
        return self._first_expr()

    @property
    def name(self) -> str | None:
        f = self.functor()
        return f.name if isinstance(f, (QName, TypeRef)) else None


class StatementCall(AstNode):
    @property
    def name(self) -> str:
        t = self.syntax.first_token()
        return t.text if t else ""

    @property
    def name_token(self) -> SyntaxToken | None:
        return self.syntax.first_token()

    def args(self) -> list:
        return self._exprs()

    def lambda_(self):
        return None


class MethodCall(_CallLike):
    def receiver(self):
        return self._first_expr()

    @property
    def name_token(self) -> SyntaxToken | None:
        seen_dot = False
        for t in self.syntax.significant_tokens():
            if t.kind == K.DOT:
                seen_dot = True
            elif seen_dot and t.kind == K.NAME:
                return t
        return None

    @property
    def name(self) -> str:
        t = self.name_token
        return t.text if t else ""


class Lambda(AstNode):
    def params(self) -> list[Param]:
        pl = self.syntax.child(K.PARAM_LIST)
        return [Param(c) for c in pl.children() if c.kind == K.PARAM] if pl else []

    def return_type(self):
        rt = self.syntax.child(K.RETURN_TYPE)
        if rt is None:
            return None
        for c in rt.children():
            return view(c)
        return None

    def body(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None


class Param(AstNode):
    def type_expr(self):
        for c in self.syntax.children_with_tokens():
            if isinstance(c, SyntaxToken):
                if c.kind == K.VARIABLE:
                    return None
            else:
                return view(c)
        return None

    @property
    def name_token(self) -> SyntaxToken | None:
        return self._token(K.VARIABLE)

    @property
    def name(self) -> str:
        t = self.name_token
        return variable_name(t.text) if t else ""

    @property
    def captures_rest(self) -> bool:
        return self._token(K.TIMES) is not None

    def default(self):
        seen_eq = False
        for c in self.syntax.children_with_tokens():
            if isinstance(c, SyntaxToken):
                if c.kind == K.EQUALS:
                    seen_eq = True
            elif seen_eq:
                return view(c)
        return None

    @property
    def has_default(self) -> bool:
        return self._token(K.EQUALS) is not None

    def parts(self) -> tuple:
        """(type expression, name, captures rest, has a default, default expression): what the
        properties above say, read in one pass over the children (the index asks all five of
        every parameter of the workspace)."""
        type_expr = default = None
        name = ""
        named = rest = seen_eq = seen_node = False
        for c in self.syntax.children_with_tokens():
            if isinstance(c, SyntaxToken):
                kind = c.kind
                if kind == K.VARIABLE and not named:
                    named = True
                    name = variable_name(c.text)
                elif kind == K.EQUALS:
                    seen_eq = True
                elif kind == K.TIMES:
                    rest = True
                continue
            if not seen_node:
                seen_node = True
                if not named:
                    type_expr = view(c)
            if seen_eq and default is None:
                default = view(c)
        return type_expr, name, rest, seen_eq, default


class IfExpr(AstNode):
    @property
    def keyword(self) -> str:
        t = self.syntax.first_token()
        return t.text if t else "if"

    def condition(self):
        return self._first_expr()

    def then_block(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None

    def elsif(self) -> IfExpr | None:
        c = self.syntax.child(K.ELSIF_CLAUSE)
        if c is None:
            return None
        inner = c.child(K.IF_EXPR)
        return IfExpr(inner) if inner else None

    def else_block(self) -> Block | None:
        c = self.syntax.child(K.ELSE_CLAUSE)
        if c is None:
            return None
        b = c.child(K.BLOCK)
        return Block(b) if b else None


class UnlessExpr(IfExpr):
    pass


class CaseExpr(AstNode):
    def test(self):
        return self._first_expr()

    def options(self) -> list[CaseOption]:
        return self._parts(K.CASE_OPTION, CaseOption)


class CaseOption(AstNode):
    def values(self) -> list:
        return self._exprs()

    def body(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None


class _ResourceForm(AstNode):
    @property
    def form(self) -> str:
        t = self.syntax.first_token()
        if t is not None and t.kind == K.AT:
            return "virtual"
        if t is not None and t.kind == K.ATAT:
            return "exported"
        return "regular"

    def ops(self) -> list[AttributeOp]:
        return self._parts(K.ATTRIBUTE_OP, AttributeOp)


class ResourceExpr(_ResourceForm):
    def type_expr(self):
        return self._first_expr()

    def bodies(self) -> list[ResourceBody]:
        return self._parts(K.RESOURCE_BODY, ResourceBody)

    @property
    def titled(self) -> bool:
        return self.syntax.child(K.RESOURCE_BODY) is not None


class ResourceBody(AstNode):
    def title(self):
        return self._first_expr()

    def ops(self) -> list[AttributeOp]:
        return self._parts(K.ATTRIBUTE_OP, AttributeOp)


class ResourceDefaults(_ResourceForm):
    def type_ref(self):
        return self._first_expr()


class ResourceOverride(_ResourceForm):
    def target(self):
        return self._first_expr()


class AttributeOp(AstNode):
    @property
    def name_token(self) -> SyntaxToken | None:
        t = self.syntax.first_token()
        return t if t is not None and t.kind == K.NAME else None

    @property
    def name(self) -> str:
        t = self.name_token
        return t.text if t else "*"

    @property
    def is_splat(self) -> bool:
        t = self.syntax.first_token()
        return t is not None and t.kind == K.TIMES

    @property
    def op(self) -> str:
        t = self._token(K.FARROW, K.PARROW)
        return t.text if t else "=>"

    def value(self):
        return self._first_expr()


class CollectExpr(AstNode):
    def type_expr(self):
        return self._first_expr()

    @property
    def exported(self) -> bool:
        q = self.syntax.child(K.COLLECT_QUERY)
        t = q.first_token() if q else None
        return t is not None and t.kind == K.LLCOLLECT

    def query(self):
        q = self.syntax.child(K.COLLECT_QUERY)
        if q is None:
            return None
        for c in q.children():
            return view(c)
        return None

    def ops(self) -> list[AttributeOp]:
        return self._parts(K.ATTRIBUTE_OP, AttributeOp)


class Definition(AstNode):
    """A class, defined type, plan or function: a keyword, a name, parameters and a body."""

    @property
    def name_token(self) -> SyntaxToken | None:
        first = True
        for t in self.syntax.significant_tokens():
            if first:
                first = False   # the keyword
                continue
            return t if t.kind in (K.NAME, K.WORD, K.CLASSREF) or t.kind in K.KEYWORD_KINDS else None
        return None

    @property
    def name(self) -> str:
        t = self.name_token
        return t.text if t else ""

    @property
    def qualified_name(self) -> str:
        """The name with the names of enclosing classes prepended, as Puppet does for classes
        and defined types declared inside a class."""
        name = self.name
        name = name.removeprefix("::")
        # a name is qualified by its nearest enclosing class (which is itself qualified)
        outer = next((a for a in self.syntax.ancestors() if a.kind == K.CLASS_DEF), None)
        if outer is not None:
            return ClassDef(outer).qualified_name + "::" + name
        return name

    def params(self) -> list[Param]:
        pl = self.syntax.child(K.PARAM_LIST)
        return [Param(c) for c in pl.children() if c.kind == K.PARAM] if pl else []

    def param_list(self) -> SyntaxNode | None:
        return self.syntax.child(K.PARAM_LIST)

    def body(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None


class ClassDef(Definition):
    def parent_name(self) -> str | None:
        p = self.syntax.child(K.PARENT)
        if p is None:
            return None
        toks = list(p.significant_tokens())
        return toks[1].text if len(toks) > 1 else None


class DefineDef(Definition):
    pass


class PlanDef(Definition):
    @property
    def qualified_name(self) -> str:
        return self.name


class FunctionDef(Definition):
    @property
    def qualified_name(self) -> str:
        return self.name.lstrip(":")

    def return_type(self):
        rt = self.syntax.child(K.RETURN_TYPE)
        if rt is None:
            return None
        for c in rt.children():
            return view(c)
        return None


class NodeDef(AstNode):
    def matches(self) -> list[HostName]:
        hm = self.syntax.child(K.HOST_MATCHES)
        return [HostName(c) for c in hm.children() if c.kind == K.HOST_NAME] if hm else []

    def parent(self) -> HostName | None:
        p = self.syntax.child(K.PARENT)
        if p is None:
            return None
        hn = p.child(K.HOST_NAME)
        return HostName(hn) if hn else None

    def body(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None


class HostName(AstNode):
    def value(self):
        """str, Regex, DEFAULT, or a DqString view."""
        dq = self.syntax.child(K.DQ_STRING)
        if dq is not None:
            return DqString(dq)
        toks = list(self.syntax.significant_tokens())
        if not toks:
            return None
        if len(toks) == 1:
            t = toks[0]
            if t.kind == K.STRING:
                return single_quoted_value(t.text)
            if t.kind == K.REGEX:
                return Regex(t.text[1:-1])
            if t.kind == K.DEFAULT:
                return DEFAULT
        return "".join(t.text for t in toks)


class TypeAlias(AstNode):
    def name_expr(self):
        return self._first_expr()

    @property
    def name(self) -> str:
        n = self.name_expr()
        while isinstance(n, AccessExpr):
            n = n.target()
        return n.name if isinstance(n, TypeRef) else ""

    def value(self):
        return self._nth_expr(1)

    def object_body(self):
        """The hash of the short form `type A = Parent { ... }` (an Object type), or None."""
        return self._nth_expr(2)


class TypeDefinition(AstNode):
    @property
    def name(self) -> str:
        t = self._first_expr()
        return t.name if isinstance(t, TypeRef) else ""

    def body(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None


class ApplyExpr(_CallLike):
    def body(self) -> Block | None:
        b = self.syntax.child(K.BLOCK)
        return Block(b) if b else None


class EppRenderString(AstNode):
    @property
    def text(self) -> str:
        t = self.syntax.first_token()
        return t.text.replace("<%%", "<%").replace("%%>", "%>") if t else ""


class EppRenderExpr(AstNode):
    def expr(self):
        return self._first_expr()


_VIEWS = {
    K.SOURCE_FILE: SourceFile, K.EPP_FILE: EppFile, K.BLOCK: Block, K.ERROR: Error,
    K.LITERAL: Literal, K.QNAME: QName, K.RESERVED_WORD: ReservedWord, K.TYPE_REF: TypeRef,
    K.VARIABLE_EXPR: VariableExpr, K.DQ_STRING: DqString, K.INTERPOLATION: Interpolation,
    K.HEREDOC_EXPR: HeredocExpr, K.ARRAY: Array, K.HASH: Hash, K.HASH_ENTRY: HashEntry,
    K.PAREN_EXPR: ParenExpr, K.BINARY_EXPR: BinaryExpr, K.UNARY_EXPR: UnaryExpr,
    K.ASSIGNMENT: Assignment, K.RELATIONSHIP: Relationship, K.ACCESS_EXPR: AccessExpr,
    K.SELECTOR_EXPR: SelectorExpr, K.SELECTOR_ENTRY: SelectorEntry, K.CALL_EXPR: CallExpr,
    K.STATEMENT_CALL: StatementCall, K.METHOD_CALL: MethodCall, K.LAMBDA: Lambda,
    K.PARAM: Param, K.IF_EXPR: IfExpr, K.UNLESS_EXPR: UnlessExpr, K.CASE_EXPR: CaseExpr,
    K.CASE_OPTION: CaseOption, K.RESOURCE_EXPR: ResourceExpr, K.RESOURCE_BODY: ResourceBody,
    K.RESOURCE_DEFAULTS: ResourceDefaults, K.RESOURCE_OVERRIDE: ResourceOverride,
    K.ATTRIBUTE_OP: AttributeOp, K.COLLECT_EXPR: CollectExpr, K.CLASS_DEF: ClassDef,
    K.DEFINE_DEF: DefineDef, K.PLAN_DEF: PlanDef, K.FUNCTION_DEF: FunctionDef,
    K.NODE_DEF: NodeDef, K.HOST_NAME: HostName, K.TYPE_ALIAS: TypeAlias,
    K.TYPE_DEFINITION: TypeDefinition, K.APPLY_EXPR: ApplyExpr,
    K.EPP_RENDER_STRING: EppRenderString, K.EPP_RENDER_EXPR: EppRenderExpr,
}


def view(node: SyntaxNode) -> AstNode:
    return _VIEWS.get(node.kind, Error)(node)


def walk(node: AstNode) -> Iterator[AstNode]:
    """Every AST view below ``node`` (pre-order), including construct parts."""
    for c in node.syntax.descendants():
        yield view(c)


# ---- value decoding -------------------------------------------------------------------------

# Puppet's Integer is a signed 64-bit value: a literal beyond it is a NUMERIC_OVERFLOW error
# (found by validation, as Puppet's parser does; the evaluator's arithmetic checks the same range)
MAX_INTEGER = (1 << 63) - 1
MIN_INTEGER = -(1 << 63)


def number_value(text: str):
    """The value of a NUMBER token (int or float); None when malformed."""
    try:
        if text[:2] in ("0x", "0X"):
            return int(text, 16)
        if "." in text or "e" in text or "E" in text:
            return float(text)
        if len(text) > 1 and text[0] == "0":
            return int(text, 8)
        return int(text)
    except ValueError:
        return None


def number_radix(text: str) -> int:
    if text[:2] in ("0x", "0X"):
        return 16
    if len(text) > 1 and text[0] == "0" and text.isdigit():
        return 8
    return 10


def single_quoted_value(text: str) -> str:
    body = text[1:-1] if len(text) >= 2 and text.endswith("'") else text[1:]
    if "\\" not in body:
        return body
    out = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n and body[i + 1] in "\\'":
            out.append(body[i + 1])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


_DQ_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "s": " ", "\\": "\\", '"': '"', "'": "'", "$": "$"}
_UNICODE_ESC = re.compile(r"u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})")


def dq_text_value(raw: str) -> str:
    """Decode the escapes of double-quoted string text."""
    if "\\" not in raw:
        return raw
    # a backslash before a line break joins the lines (Puppet drops both, as in heredocs with L)
    return _decode_escapes(raw, _DQ_SIMPLE, True, True)


def heredoc_text_value(raw: str, escapes: frozenset) -> str:
    if not escapes or "\\" not in raw:
        return raw
    table = {"\\": "\\"}
    for flag, ch in (("n", "\n"), ("r", "\r"), ("t", "\t"), ("s", " "), ("$", "$")):
        if flag in escapes:
            table[flag] = ch
    return _decode_escapes(raw, table, "u" in escapes, "L" in escapes)


def _decode_escapes(raw: str, table: dict, unicode_: bool, line_cont: bool) -> str:
    out = []
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = raw[i + 1]
        rep = table.get(nxt)
        if rep is not None:
            out.append(rep)
            i += 2
            continue
        if unicode_ and nxt == "u":
            m = _UNICODE_ESC.match(raw, i + 1)
            if m:
                code = int(m.group(1) or m.group(2), 16)
                try:
                    out.append(chr(code))
                except (ValueError, OverflowError):
                    out.append(raw[i:m.end()])
                i = m.end()
                continue
        if line_cont and (nxt == "\n" or raw.startswith("\r\n", i + 1)):
            i += 2 if nxt == "\n" else 3
            continue
        out.append(c)
        i += 1
    return "".join(out)
