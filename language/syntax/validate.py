"""Validation: what parses but is not legal Puppet (Puppet's own checker works the same way).

One walk over the tree reports, with stable codes from ``puppet_ls.language.messages``:
illegal assignments (to numbers, qualified or non-variable targets, ``+=``/``-=``), illegal
variable names, duplicate and reserved parameters, 'captures rest' misuse, duplicate
``default`` in case/selector, definitions in the wrong place or used as values, collectors used
as values, expressions whose value is thrown away, bad node host names, ``+>`` outside
overrides/collectors, unacceptable definition names, and reserved words used as values.
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..diagnostics import Diagnostic
from . import ast as A
from . import kinds as K
from .parser import STATEMENT_CALLS, ParseResult, gc_paused, qname_text
from .labels import a_an, a_an_uc, node_label
from .tree import SyntaxNode, SyntaxToken

# Puppet's shape, ((::)?[a-z]\w*)*((::)?[a-z_]\w*), written without its ambiguity (segments
# without '::' between them just concatenate), which backtracked exponentially on a long name
# that fails at its end ("$::aaaa…a::é" froze validation).
_VAR_NAME = re.compile(r"\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*\Z")
_NUMERIC_VAR = re.compile(r"\A(?:0|[1-9]\d*)\Z")
_DEF_NAME = re.compile(r"\A[a-z]\w*(?:::[a-z]\w*)*\Z")   # no leading "::" (Puppet refuses "class ::a")
_HOSTNAME = re.compile(r"\A[\w.-]+\Z")
_STATEMENT_PARENTS = frozenset({K.SOURCE_FILE, K.BLOCK, K.EPP_FILE})
_RESERVED_VARIABLES = frozenset({"trusted", "facts", "server_facts"})

# Type names that classes and defined types may not take (their lower-case forms clash with the
# type of the same name).
_RESERVED_TYPE_NAMES = frozenset({
    "any", "array", "binary", "boolean", "callable", "catalogentry", "class", "collection",
    "data", "default", "deferred", "enum", "error", "float", "hash", "init", "integer",
    "iterable", "iterator", "notundef", "numeric", "object", "optional", "pattern", "regexp",
    "resource", "richdata", "runtime", "scalar", "scalardata", "semver", "semverrange",
    "sensitive", "string", "struct", "timespan", "timestamp", "tuple", "type", "typealias",
    "typereference", "typeset", "undef", "uri", "variant",
})

# Definitions, which make no value (NOT_RVALUE; their labels: labels.node_label).
_DEFINITIONS = frozenset({K.CLASS_DEF, K.DEFINE_DEF, K.NODE_DEF, K.FUNCTION_DEF, K.PLAN_DEF, K.TYPE_ALIAS,
                          K.TYPE_DEFINITION})

# Expressions without side effects: a value computed and dropped when not last in a block
# (conditionals, parentheses and operators when their parts are: _idem_what).
_IDEM = frozenset({K.DQ_STRING, K.HEREDOC_EXPR, K.LITERAL, K.QNAME, K.TYPE_REF, K.VARIABLE_EXPR,
                   K.ARRAY, K.HASH, K.ACCESS_EXPR, K.SELECTOR_EXPR, K.UNARY_EXPR})
_BINARY_IDEM_OPS = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "==", "!=", "<", ">", "<=", ">=",
                              "in", "and", "or"})   # not '=~'/'!~': they set match variables


# Puppet's rules for a parameter's name (its checker's check_Parameter)
_PARAM_NAME = re.compile(r"[a-z_]\w*\Z")
_NUMERIC_PARAM = re.compile(r"(?:0x)?[0-9]+\Z")

# Puppet's escapes in double-quoted strings (a backslash before a line break joins the lines)
_DQ_ESCAPES = frozenset("\\$'\"rntsu\n\r")
_DQ_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def validate(result: ParseResult) -> list[Diagnostic]:
    """Validation diagnostics of a parsed file (syntax errors are in ``result.errors``).
    Computed once per parse result (the tree is immutable)."""
    if result.validation is None:
        v = _Validator()
        with gc_paused():
            root = result.root
            if root.kind == K.SOURCE_FILE:
                _validate_file(v, result, root)
            else:
                v.walk(root)
        result.validation = sorted(v.out, key=lambda d: (d.offset, d.end))
    return list(result.validation)


def _validate_file(v: _Validator, result: ParseResult, root: SyntaxNode) -> None:
    """``v.walk(root)``, with each statement's findings taken from ``result.validation_parts``
    when the statement is the same node there (moved by an edit before it, if at all): what a
    statement of the file is found to break depends on nothing but its own tree and that it is
    at the top (the checks across statements, reassignments in the top scope and values thrown
    away, are made at the root, every time).  Records the parts for the next revision."""
    handler = _HANDLERS[K.SOURCE_FILE]
    handler(v, root)
    v.statements(root)
    known = result.validation_parts or {}
    parts: dict = {}
    off = root.offset
    for i, c in enumerate(root.green.children):
        if type(c) is tuple:
            v.token(c, off, root, i)
            off += len(c[1])
            continue
        hit = known.get(id(c))
        if hit is not None and hit[0] is c:
            found = hit[2] if hit[1] == off else [replace(d, offset=d.offset + off - hit[1], end=d.end + off - hit[1])
                                                   for d in hit[2]]
        else:
            sub = _Validator()
            sub.walk(SyntaxNode(c, off, root, i))
            found = sub.out
        parts[id(c)] = (c, off, found)
        v.out.extend(found)
        off += c.width
    result.validation_parts = parts


class _Validator:
    def __init__(self) -> None:
        self.out: list[Diagnostic] = []

    def add(self, code: str, at, **args) -> None:
        if isinstance(at, tuple):
            start, end = at
        else:
            start, end = at.range if isinstance(at, SyntaxNode) else (at.offset, at.end)
        self.out.append(Diagnostic.of(code, start, end, **args))

    def walk(self, node: SyntaxNode) -> None:
        kind = node.kind
        handler = _HANDLERS.get(kind)
        if handler is not None:
            handler(self, node)
        if kind in _STATEMENT_PARENTS:
            self.statements(node)
        # Walk the green children directly and make positioned objects only where needed
        # (most tokens need no check): this walk is on the path of every `check` and edit.
        off = node.offset
        for i, c in enumerate(node.green.children):
            if type(c) is tuple:
                k = c[0]
                if k == K.VARIABLE or k == K.STRING_VAR or (k == K.STRING_TEXT and "\\" in c[1]) or \
                        (k == K.NUMBER and len(c[1]) >= 18):
                    self.token(c, off, node, i)
                off += len(c[1])
            else:
                self.walk(SyntaxNode(c, off, node, i))
                off += c.width

    def token(self, c: tuple, off: int, node: SyntaxNode, i: int) -> None:
        """The checks of one token (``c``, the ``i``-th child of ``node``, at ``off``)."""
        if c[0] == K.STRING_VAR or (c[0] == K.VARIABLE and node.kind != K.PARAM):
            # (a parameter's name has rules of its own: parameters())
            self.variable_name(SyntaxToken(c[0], c[1], off, node, i))
        elif c[0] == K.STRING_TEXT and node.kind == K.DQ_STRING and "\\" in c[1]:
            self.escapes(off, c[1])
        elif c[0] == K.NUMBER and len(c[1]) >= 18:      # (shorter ones are in range)
            self.integer_range(off, c[1])

    # ---- numbers ---------------------------------------------------------------------------
    def integer_range(self, off: int, text: str) -> None:
        """An integer literal beyond Puppet's 64 bits (the sign is an operator: '-2**63' is
        an overflow too, as in Puppet)."""
        v = A.number_value(text)
        if type(v) is int and v > A.MAX_INTEGER:
            self.add("NUMERIC_OVERFLOW", (off, off + len(text)), expression="A Literal Integer", kind="max",
                     value="+0x" + format(v, "x"))

    # ---- escapes ---------------------------------------------------------------------------
    def escapes(self, off: int, text: str) -> None:
        """A backslash before a character that is no escape of a double-quoted string is kept
        with the character, and Puppet warns (heredocs and single quotes do not)."""
        for m in _DQ_ESCAPE.finditer(text):
            ch = m.group(1)
            if ch not in _DQ_ESCAPES:
                self.add("UNRECOGNIZED_ESCAPE", (off + m.start(), off + m.end()), char=ch)

    # ---- statements ------------------------------------------------------------------------
    def statements(self, node: SyntaxNode) -> None:
        stmts = [c for c in node.children() if c.kind not in (K.ERROR, K.EPP_PARAMS, K.HEREDOC_BODY)]
        joined = self.bodies_after_statements(node)
        calls = _in_calls(stmts)
        for s, call in zip(stmts[:-1], calls):
            what = _idem_what(s) if not call else None
            if what is not None and s.offset not in joined:
                self.add("IDEM_EXPRESSION_NOT_LAST", _puppet_location(s), what=what)
        # The body of a class, defined type or node is evaluated for its effects only, so it
        # may not end with a value either (a function or lambda returns its last value).
        owner = node.parent if node.kind == K.BLOCK else None
        container = a_an_uc(node_label(owner)) if owner is not None and owner.kind in _BODY_OWNERS else None
        if container is not None and stmts and stmts[-1].offset not in joined and not calls[-1]:
            what = _idem_what(stmts[-1])
            if what is not None:
                self.add("IDEM_NOT_ALLOWED_LAST", _puppet_location(stmts[-1]), what=what, container=container)

    def bodies_after_statements(self, node: SyntaxNode) -> set[int]:
        """Puppet's grammar reads a '{' right after a statement (no ';' between, even on the
        next line) as a resource body of the statement's last operand: `$x = 1 {a => 1}` is
        `1 {a => 1}`.  When the braces hold attribute operations (`name => value`, or
        nothing), an operand that is no resource type, type or override is an error, reported
        where Puppet reports it (a hash with a quoted key is a syntax error, which the parser
        tells: Parser.brace_after_statement).  The offsets of both statements of each such
        pair: Puppet sees one expression there, so neither is reported as a value without
        effect."""
        joined: set[int] = set()
        prev: SyntaxNode | None = None
        for c in node.children_with_tokens():
            if not isinstance(c, SyntaxNode):
                if c.kind not in K.TRIVIA:
                    prev = None         # a ';' (or a template's text) between
                continue
            if c.kind == K.HEREDOC_BODY:
                continue
            if c.kind == K.HASH and prev is not None and _attribute_operations(c):
                operand = _resource_operand(prev)
                if operand is not None and operand.kind not in _RESOURCE_SHAPES:
                    self.add("NOT_A_RESOURCE_EXPRESSION", _puppet_location(operand))
                    joined.update((prev.offset, c.offset))
            prev = c if c.kind != K.ERROR else None
        return joined

    # ---- reassignment ----------------------------------------------------------------------
    def scope(self, body: SyntaxNode | None, params: list, builtins: tuple = ()) -> None:
        """Variables are immutable in a scope: report an assignment to a name that the scope
        certainly assigned before (a parameter, a built-in, or an earlier assignment that is
        not inside a conditional branch).  Assignments inside branches are only recorded as
        possible, so 'if $x { $a = 1 } else { $a = 2 }' is fine, as in Puppet."""
        if body is None:
            return
        definite: dict = {n: True for n in params}
        for b in builtins:
            definite[b] = "builtin"
        self._scan_scope(body, definite, True)

    def _scan_scope(self, node: SyntaxNode, definite: dict, certain: bool) -> None:
        self._scan_green(node.green, node.offset, definite, certain)

    def _scan_green(self, green, offset: int, definite: dict, certain: bool) -> None:
        # Walks the green tree (offsets computed on the way) and makes positioned nodes only
        # for assignments: this pass visits every node of a scope.
        for c in green.children:
            if type(c) is tuple:
                offset += len(c[1])
                continue
            k = c.kind
            if k == K.ASSIGNMENT:
                self._scan_node(SyntaxNode(c, offset), definite, certain)
            elif k not in _NEW_SCOPES:
                self._scan_green(c, offset, definite, certain and k not in _BRANCHES)
            offset += c.width

    def _scan_node(self, c: SyntaxNode, definite: dict, certain: bool) -> None:
        k = c.kind
        if k in _NEW_SCOPES:
            return   # checked on its own
        if k == K.ASSIGNMENT:
            a = A.Assignment(c)
            if a.op == "=":
                right = a.right()
                if right is not None:
                    # the value is evaluated (and may assign) before the variable is set
                    self._scan_node(right.syntax, definite, certain)
                for v in _assigned_variables(a.left()):
                    seen = definite.get(v.name)
                    if seen and not certain:
                        # only wrong if the branch runs: Puppet fails then, not before
                        self.add("CONDITIONAL_REASSIGNMENT", v.syntax, name=v.name)
                    elif seen == "builtin":
                        self.add("ILLEGAL_BUILTIN_ASSIGNMENT", v.syntax, name=v.name)
                    elif seen:
                        self.add("ILLEGAL_REASSIGNMENT", v.syntax, name=v.name)
                    elif certain:
                        definite[v.name] = True
                return
        branch = k in _BRANCHES
        self._scan_scope(c, definite, certain and not branch)

    # ---- variables -------------------------------------------------------------------------
    def variable_name(self, tok: SyntaxToken) -> None:
        name = A.variable_name(tok.text)
        if name[:1].isdigit():
            if not _NUMERIC_VAR.match(name):
                self.add("ILLEGAL_NUMERIC_VAR_NAME", tok, name=name)
        elif not _VAR_NAME.match(name):
            self.add("ILLEGAL_VAR_NAME", tok, name=name)

    # ---- assignment ------------------------------------------------------------------------
    def v_ASSIGNMENT(self, node: SyntaxNode) -> None:
        a = A.Assignment(node)
        op = a.op_token
        if op is not None and op.kind in (K.APPENDS, K.DELETES):
            self.add("APPENDS_DELETES_NO_LONGER_SUPPORTED", op, op=op.text)
        self.assignable(a.left())
        self.rvalue(a.right())

    def assignable(self, target) -> None:
        if target is None or isinstance(target, A.Error):
            return
        if isinstance(target, A.VariableExpr):
            name = target.name
            if _NUMERIC_VAR.match(name):
                self.add("ILLEGAL_NUMERIC_ASSIGNMENT", target.syntax, name=name)
            elif name[:1].isdigit():
                pass   # an illegal numeric name ('$00'): reported once, as a name
            elif "::" in name:
                self.add("CROSS_SCOPE_ASSIGNMENT", target.syntax, name=name)
            elif name in _RESERVED_VARIABLES:
                self.add("ILLEGAL_RESERVED_ASSIGNMENT", target.syntax, name=name)
            return
        if isinstance(target, A.Array):
            for e in target.elements():
                self.assignable(e)
            return
        if isinstance(target, A.AccessExpr):
            self.add("ILLEGAL_INDEXED_ASSIGNMENT", target.syntax)
            return
        # (not even a variable in parentheses: Puppet's checker names the parentheses)
        self.add("ILLEGAL_ASSIGNMENT", _puppet_location(target.syntax), what=a_an(node_label(target.syntax)))

    def rvalue(self, expr) -> None:
        """Report an expression used for its value that has none."""
        if expr is None:
            return
        k = expr.syntax.kind
        if k in _DEFINITIONS or k == K.COLLECT_EXPR:
            self.add("NOT_RVALUE", _puppet_location(expr.syntax), what=a_an_uc(node_label(expr.syntax)))

    # ---- definitions -----------------------------------------------------------------------
    def placement(self, node: SyntaxNode) -> None:
        parent = node.parent
        kind = node.kind
        at_top = parent is not None and parent.kind in (K.SOURCE_FILE, K.EPP_FILE)
        in_class = parent is not None and parent.kind == K.BLOCK and parent.parent is not None and parent.parent.kind == K.CLASS_DEF
        # used as a value (the assignment check reports NOT_RVALUE)
        if parent is not None and parent.kind not in _STATEMENT_PARENTS and parent.kind != K.ASSIGNMENT:
            self.add("NOT_RVALUE", _puppet_location(node), what=a_an_uc(node_label(node)))
        if kind in (K.CLASS_DEF, K.DEFINE_DEF, K.NODE_DEF):
            if not (at_top or in_class):
                self.add("NOT_TOP_LEVEL", node)
        elif not at_top:
            if in_class:
                self.add("NOT_ABSOLUTE_TOP_LEVEL", _puppet_location(node), what=a_an_uc(node_label(node)))
            else:
                self.add("NOT_TOP_LEVEL", _puppet_location(node))

    def definition_name(self, node: SyntaxNode) -> None:
        d = A.view(node)
        tok = d.name_token if hasattr(d, "name_token") else None
        if tok is None:
            return
        name = tok.text
        first = node.first_token()
        at = (first.offset, first.end) if first else tok
        if tok.kind == K.CLASSREF and node.kind != K.FUNCTION_DEF:
            if "::" in name:
                self.add("ILLEGAL_CLASS_REFERENCE", tok)
            else:
                self.add("ILLEGAL_DEFINITION_NAME", at, name=name, what=a_an(node_label(node)))
            return
        if tok.kind in K.KEYWORD_KINDS:
            return   # the parser reported the keyword
        if not _DEF_NAME.match(name):
            self.add("ILLEGAL_DEFINITION_NAME", at, name=name, what=a_an(node_label(node)))
        elif node.kind in (K.CLASS_DEF, K.DEFINE_DEF) and name.lstrip(":") in _RESERVED_TYPE_NAMES:
            self.add("RESERVED_TYPE_NAME", at, name=name, what=a_an(node_label(node)))

    def parameters(self, node: SyntaxNode, container: str | None) -> None:
        pl = node.child(K.PARAM_LIST)
        if pl is None:
            return
        params = [A.Param(c) for c in pl.children() if c.kind == K.PARAM]
        seen: set = set()
        for i, p in enumerate(params):
            tok = p.name_token
            if tok is None:
                continue
            name = p.name
            if _NUMERIC_PARAM.match(name):
                self.add("ILLEGAL_NUMERIC_PARAMETER", tok, name=name)
            if not _PARAM_NAME.match(name):
                self.add("ILLEGAL_PARAM_NAME", tok, name=name)
            if name in seen:
                self.add("DUPLICATE_PARAMETER", tok, name=name)
            seen.add(name)
            if p.captures_rest:
                if container in ("a 'define' expression", "a Host Class Definition"):
                    self.add("CAPTURES_REST_NOT_SUPPORTED", tok, name=name,
                             container="a 'define'" if container.startswith("a 'define'") else "a Host Class Definition")
                elif i != len(params) - 1:
                    self.add("CAPTURES_REST_NOT_LAST", tok, name=name)
            if container in ("a 'define' expression", "a Host Class Definition") and name in ("title", "name"):
                self.add("RESERVED_PARAMETER", tok, name=name,
                         container="the 'define' expression" if container.startswith("a 'define'") else "the Host Class Definition")

    def v_SOURCE_FILE(self, node: SyntaxNode) -> None:
        self.scope(node, [])

    def v_CLASS_DEF(self, node: SyntaxNode) -> None:
        self.placement(node)
        self.definition_name(node)
        self.parameters(node, "a Host Class Definition")
        self.scope(node.child(K.BLOCK), _param_names(node), ("name", "title"))

    def v_DEFINE_DEF(self, node: SyntaxNode) -> None:
        self.placement(node)
        self.definition_name(node)
        self.parameters(node, "a 'define' expression")
        # Puppet lets a defined type assign over its parameters and $title/$name
        self.scope(node.child(K.BLOCK), [])

    def v_FUNCTION_DEF(self, node: SyntaxNode) -> None:
        self.placement(node)
        self.definition_name(node)
        self.parameters(node, None)
        self.scope(node.child(K.BLOCK), _param_names(node))

    def v_PLAN_DEF(self, node: SyntaxNode) -> None:
        self.placement(node)
        self.definition_name(node)
        self.parameters(node, None)
        self.scope(node.child(K.BLOCK), _param_names(node))

    def v_NODE_DEF(self, node: SyntaxNode) -> None:
        self.placement(node)
        self.scope(node.child(K.BLOCK), [])
        n = A.NodeDef(node)
        parent = n.parent()
        hosts = n.matches() + ([parent] if parent is not None else [])
        for h in hosts:
            v = h.value()
            if isinstance(v, A.DqString):
                for part in v.parts():
                    if isinstance(part, A.Interpolation):
                        self.add("ILLEGAL_HOSTNAME_INTERPOLATION", part.syntax)
                        break
                else:
                    text = "".join(p for p in v.parts() if isinstance(p, str))
                    if not _HOSTNAME.match(text):
                        self.add("ILLEGAL_HOSTNAME_CHARS", h.syntax, name=text)
            elif isinstance(v, str) and not _HOSTNAME.match(v):
                self.add("ILLEGAL_HOSTNAME_CHARS", h.syntax, name=v)

    def v_TYPE_ALIAS(self, node: SyntaxNode) -> None:
        self.placement(node)

    def v_TYPE_DEFINITION(self, node: SyntaxNode) -> None:
        self.placement(node)

    def v_LAMBDA(self, node: SyntaxNode) -> None:
        self.parameters(node, None)
        self.scope(node.child(K.BLOCK), _param_names(node))

    def v_EPP_PARAMS(self, node: SyntaxNode) -> None:
        self.parameters(node, None)

    # ---- case / selector -------------------------------------------------------------------
    def v_CASE_EXPR(self, node: SyntaxNode) -> None:
        seen = False
        for opt in A.CaseExpr(node).options():
            for v in opt.values():
                if isinstance(v, A.Literal) and v.token_kind == K.DEFAULT:
                    if seen:
                        self.add("DUPLICATE_DEFAULT", v.syntax, container="'case' statement")
                    seen = True

    def v_SELECTOR_EXPR(self, node: SyntaxNode) -> None:
        seen = False
        for e in A.SelectorExpr(node).entries():
            m = e.matching()
            if isinstance(m, A.Literal) and m.token_kind == K.DEFAULT:
                if seen:
                    self.add("DUPLICATE_DEFAULT", m.syntax, container="Selector Expression")
                seen = True

    # ---- resources -------------------------------------------------------------------------
    def appends(self, ops, container: str) -> None:
        for op in ops:
            if op.op == "+>":
                tok = op.name_token
                self.add("ILLEGAL_ATTRIBUTE_APPEND", tok if tok is not None else op.syntax, name=op.name, container=container)

    def v_RESOURCE_EXPR(self, node: SyntaxNode) -> None:
        r = A.ResourceExpr(node)
        for b in r.bodies():
            self.appends(b.ops(), "a Resource Instance Definition")
        name = _name_and_hash(node)
        if name is not None:
            self.add("RESOURCE_WITHOUT_TITLE", node, name=name)

    def v_RESOURCE_DEFAULTS(self, node: SyntaxNode) -> None:
        self.appends(A.ResourceDefaults(node).ops(), "a Resource Defaults Expression")

    def v_COLLECT_EXPR(self, node: SyntaxNode) -> None:
        view = A.CollectExpr(node).type_expr()
        target = view.syntax if view is not None else None
        if target is not None and target.kind not in (K.TYPE_REF, K.ERROR):
            # only a resource type is collected (`foo <| |>`, `$t <<| |>>`: Puppet's checker)
            self.add("ILLEGAL_EXPRESSION", target, what=a_an_uc(node_label(target)), feature="type name",
                     container=a_an(node_label(node)))
        parent = node.parent
        if parent is not None and parent.kind not in _STATEMENT_PARENTS and parent.kind not in (K.RELATIONSHIP, K.ASSIGNMENT):
            self.rvalue(A.view(node))
        query = A.CollectExpr(node).query()
        if query is not None:
            self.query(query.syntax)

    def query(self, node: SyntaxNode) -> None:
        """What a collector's query may hold (Puppet's checker): '==' and '!=' comparisons,
        joined by 'and' and 'or', in parentheses or not, and names, variables, numbers, strings
        and booleans; anything else is ILLEGAL_QUERY_EXPRESSION (`<| port - 1 |>`)."""
        todo = [node]       # (a list, not recursion: 'and' chains are as long as the source)
        while todo:
            n = todo.pop()
            k = n.kind
            if k == K.PAREN_EXPR:
                inner = A.ParenExpr(n).expr()
                if inner is not None:
                    todo.append(inner.syntax)
                continue
            if k == K.BINARY_EXPR:
                b = A.BinaryExpr(n)
                if b.op in ("and", "or"):
                    todo.extend(side.syntax for side in (b.right(), b.left()) if side is not None)
                    continue
                if b.op in ("==", "!="):
                    continue
            elif k in (K.VARIABLE_EXPR, K.QNAME, K.ERROR) or (k == K.DQ_STRING and n.child(K.INTERPOLATION) is None):
                continue
            elif k == K.LITERAL:
                t = n.first_token()
                if t is None or t.kind in (K.NUMBER, K.STRING, K.BOOLEAN):
                    continue
            self.add("ILLEGAL_QUERY_EXPRESSION", _puppet_location(n), expression=a_an_uc(node_label(n)))

    def v_CALL_EXPR(self, node: SyntaxNode) -> None:
        """Only a name is called (or a type, which makes a value of it): `"a"(1)`, `foo(1)(2)`
        and an `if` followed by parentheses are Puppet's illegal expressions."""
        functor = A.CallExpr(node).functor()
        if functor is None:
            return
        f = functor.syntax
        if f.kind in (K.QNAME, K.TYPE_REF, K.ERROR):
            return
        if f.kind == K.ACCESS_EXPR:
            target = A.AccessExpr(f).target()
            if target is not None and target.syntax.kind == K.TYPE_REF:
                return      # Integer[1, 3](x): a call to a type
        self.add("ILLEGAL_EXPRESSION", f, what=a_an_uc(node_label(f)), feature="function name",
                 container="a Function Call")

    def v_RESERVED_WORD(self, node: SyntaxNode) -> None:
        word = A.ReservedWord(node).name
        if word != "type":      # (not a value at all: a syntax error, Parser.primary)
            self.add("RESERVED_WORD", node, word=word)


# Bodies evaluated for their effects only (IDEM_NOT_ALLOWED_LAST)
_BODY_OWNERS = frozenset({K.CLASS_DEF, K.DEFINE_DEF, K.NODE_DEF})


def _puppet_location(node: SyntaxNode):
    """Where Puppet puts an expression: a binary expression at its operator, a type alias from
    its name (its model starts there: the grammar's type_alias_lhs)."""
    if node.kind == K.BINARY_EXPR:
        op = A.BinaryExpr(node).op_token
        if op is not None:
            return op
    elif node.kind == K.TYPE_ALIAS:
        name = next(iter(node.children()), None)
        first = name.first_token() if name is not None else None
        if first is not None:
            return first.offset, node.end
    return node


# What Puppet's grammar takes a body of attribute operations for (Factory.resource_shape): a
# resource type's name, a type (defaults) and an access (an override); the parser makes
# resources of those itself.
_RESOURCE_SHAPES = frozenset({K.QNAME, K.TYPE_REF, K.ACCESS_EXPR, K.RESERVED_WORD})


def _attribute_operations(node: SyntaxNode) -> bool:
    """Does this hash read as attribute operations in Puppet's grammar: nothing between its
    braces, or a first key that is a bare name?"""
    entries = A.Hash(node).entries()
    if not entries:
        return next(node.children(), None) is None
    key = entries[0].key()
    return key is not None and key.syntax.kind == K.QNAME


def _resource_operand(statement: SyntaxNode) -> SyntaxNode | None:
    """The operand a '{' after ``statement`` is a resource body of: Puppet's '{' binds more
    loosely than every operator but assignment and the relationship arrows, and takes the last
    argument of a call without parentheses."""
    node = statement
    while node.kind in (K.ASSIGNMENT, K.RELATIONSHIP, K.STATEMENT_CALL):
        last = None
        for c in node.children():
            if c.kind != K.HEREDOC_BODY:
                last = c
        if last is None:
            return None
        node = last
    return node


def _block_idem(block: SyntaxNode | None) -> bool:
    """Is a block without effect (empty, or only expressions without effect)?"""
    if block is None:
        return True
    stmts = [c for c in block.children() if c.kind not in (K.ERROR, K.HEREDOC_BODY)]
    return not any(_in_calls(stmts)) and all(_idem_what(c) is not None for c in stmts)


def _in_calls(stmts: list) -> list[bool]:
    """Which statements of a list make a call: a statement function named alone (``notice;``)
    followed by another statement is called with that statement as its argument (Puppet's
    Factory.transform_calls; a call is no argument of the next), and both have an effect; last,
    such a name is only a Name."""
    out = [False] * len(stmts)
    i = 0
    while i < len(stmts) - 1:
        s = stmts[i]
        if s.kind == K.QNAME and qname_text(s.green) in STATEMENT_CALLS:
            out[i] = out[i + 1] = True
            i += 2
        else:
            i += 1
    return out


_NEW_SCOPES = frozenset({K.CLASS_DEF, K.DEFINE_DEF, K.NODE_DEF, K.FUNCTION_DEF, K.PLAN_DEF, K.LAMBDA,
                         K.TYPE_ALIAS, K.TYPE_DEFINITION, K.HEREDOC_BODY})
# Parts of a statement that may or may not be evaluated.
_BRANCHES = frozenset({K.BLOCK, K.ELSE_CLAUSE, K.ELSIF_CLAUSE, K.CASE_OPTION, K.SELECTOR_ENTRY})


def _assigned_variables(target) -> list:
    if isinstance(target, A.VariableExpr):
        return [target] if "::" not in target.name and not target.name[:1].isdigit() else []
    if isinstance(target, A.Array):
        return [v for e in target.elements() for v in _assigned_variables(e)]
    if isinstance(target, A.ParenExpr):
        return _assigned_variables(target.expr())
    return []


def _param_names(node: SyntaxNode) -> list:
    pl = node.child(K.PARAM_LIST)
    return [A.Param(c).name for c in pl.children() if c.kind == K.PARAM] if pl is not None else []


_HANDLERS = {name[2:]: fn for name, fn in vars(_Validator).items() if name.startswith("v_")}


def _name_and_hash(node: SyntaxNode) -> str | None:
    """The name of ``name { attribute => value }``, a resource body without a title, which
    Puppet's parser reads as a name followed by a hash (a Block Expression of the two); None
    for anything else (with a '+>', which no hash has, or a body in error, the parser has
    reported it)."""
    if node.kind != K.RESOURCE_EXPR or node.child(K.RESOURCE_BODY) is not None or node.child(K.ERROR) is not None:
        return None
    r = A.ResourceExpr(node)
    t = r.type_expr()
    if t is None or t.syntax.kind != K.QNAME or any(op.op == "+>" for op in r.ops()):
        return None
    return qname_text(t.syntax.green)


def _idem_what(node: SyntaxNode) -> str | None:
    """What Puppet calls an expression whose value is dropped (labels.node_label), or None
    when it has an effect."""
    k = node.kind
    if k == K.RESOURCE_EXPR:
        return node_label(node) if _name_and_hash(node) is not None else None
    if k in (K.IF_EXPR, K.UNLESS_EXPR):
        # a conditional without effect in its test and in every branch
        v = A.IfExpr(node)
        block = node.child(K.BLOCK)
        if block is None or block.first_token() is None:
            return None   # a broken conditional (already a syntax error): no verdict
        cond = v.condition()
        if cond is None or _idem_what(cond.syntax) is None:
            return None
        then = node.child(K.BLOCK)
        if not _block_idem(then):
            return None
        elsif = v.elsif()
        if elsif is not None and _idem_what(elsif.syntax) is None:
            return None
        els = v.else_block()
        if els is not None and not _block_idem(els.syntax):
            return None
        return node_label(node)
    if k == K.CASE_EXPR:
        c = A.CaseExpr(node)
        test = c.test()
        if test is None or _idem_what(test.syntax) is None:
            return None
        options = list(c.options())
        if not options:
            return None   # 'case $x {}' is a syntax error already: no verdict
        bodies = (o.body() for o in options)
        return node_label(node) if all(_block_idem(b.syntax if b is not None else None) for b in bodies) else None
    if k == K.PAREN_EXPR:
        inner = A.ParenExpr(node).expr()
        return node_label(node) if inner is not None and _idem_what(inner.syntax) is not None else None
    if k == K.BINARY_EXPR:
        return node_label(node) if A.BinaryExpr(node).op in _BINARY_IDEM_OPS else None
    return node_label(node) if k in _IDEM else None
