"""The semantic model of one file: its scopes, the variables each defines, what every variable
reference resolves to, and the named things (classes, defined types, functions, type aliases,
nodes, plans), calls, resource declarations and type references it contains.

Built in one walk over the syntax tree (iterative, so deeply nested code cannot exhaust the
Python stack) and then resolved.  Scoping follows Puppet: classes, defined types, nodes,
functions and plans each open a scope whose parent is the top scope (or, for a class, the class
it inherits from), whatever their nesting in the text; lambdas open a scope inside the one they
are written in; ``if``/``case``/``unless`` bodies open none.  Order of assignment is ignored
when deciding whether a name is defined (a later assignment still defines it), but a reference
resolves to the closest assignment before it when there is one.

In an editor the model is built again after every keystroke: with a ``ModelMemo``, each
statement the edit did not touch (the incremental reparse shares its green node) contributes
what it contributed to the last model, moved to its new offset and enclosing scope, without
being walked again; every reference is still resolved again.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.parser import ParseResult
from ..syntax.tree import WIDE, SyntaxNode, SyntaxToken
from .builtins import BUILTIN_VARIABLES

_DEFINITION_KINDS = {K.CLASS_DEF: "class", K.DEFINE_DEF: "define", K.FUNCTION_DEF: "function",
                     K.PLAN_DEF: "plan", K.NODE_DEF: "node"}


@dataclass(eq=False)
class Scope:
    """A variable scope: the top of a file, a class, defined type, node, function, plan, lambda
    or template."""

    kind: str                      # top, epp, class, define, node, function, plan, lambda
    name: str                      # qualified name of a definition ('' otherwise)
    node: SyntaxNode
    parent: Scope | None
    start: int
    end: int
    parent_class: str = ""         # what a class inherits
    variables: dict = field(default_factory=dict)   # name -> [Definition] in source order
    children: list = field(default_factory=list)

    def __repr__(self) -> str:
        return f"Scope({self.kind} {self.name!r} {self.start}..{self.end})"

    @property
    def definition_scope(self) -> Scope:
        """The innermost enclosing scope that is not a lambda."""
        s = self
        while s.kind == "lambda" and s.parent is not None:
            s = s.parent
        return s


@dataclass(eq=False)
class Definition:
    """Where a variable gets a value: a parameter, an assignment, a lambda or template
    parameter."""

    name: str
    kind: str                      # parameter, variable, lambda_parameter, template_parameter
    offset: int                    # range of the '$name' token
    end: int
    scope: Scope
    node: SyntaxNode               # the PARAM or ASSIGNMENT node
    index: int | None = None       # element of a destructuring assignment '[$a, $b] = ...'

    def __repr__(self) -> str:
        return f"Definition({self.kind} ${self.name} @{self.offset})"


@dataclass(eq=False)
class Reference:
    """A use of a variable and what it resolves to.

    ``status`` is "local" (``target`` is set), "builtin" ($facts, $title ...), "qualified"
    (a variable of a class or top scope named with '::' that is not in this file),
    "inherited" (may come from a parent class that is not in this file) or "unresolved".
    """

    name: str                      # as written without '$' (may be qualified)
    offset: int
    end: int
    scope: Scope
    node: SyntaxNode | None
    target: Definition | None = None
    status: str = "unresolved"

    def __repr__(self) -> str:
        return f"Reference(${self.name} @{self.offset} {self.status})"


@dataclass(eq=False)
class Named:
    """A class, defined type, function, plan, node or type alias defined in the file."""

    kind: str                      # class, define, function, plan, node, type_alias
    name: str                      # qualified (lower case as written for classes/defines)
    node: SyntaxNode
    offset: int                    # range of the name
    end: int
    scope: Scope | None = None     # the scope it opens (None for type aliases)

    def params(self) -> list[A.Param]:
        d = A.view(self.node)
        return d.params() if isinstance(d, A.Definition) else []


@dataclass(eq=False)
class CallSite:
    """A function call: ``f(x)``, ``f x`` (statement call) or ``x.f()`` (method call)."""

    name: str
    offset: int                    # range of the function's name
    end: int
    node: SyntaxNode
    form: str                      # call, statement, method
    scope: Scope


@dataclass(eq=False)
class TypeRefSite:
    """A capitalised name (``File``, ``Stdlib::Absolutepath``) used in the file."""

    name: str
    offset: int
    end: int
    node: SyntaxNode


@dataclass(eq=False)
class ResourceSite:
    """A resource declaration ``type { title: ... }`` (also ``class { 'x': }``)."""

    type_name: str                 # as written (lower case or capitalised)
    offset: int
    end: int
    node: SyntaxNode
    scope: Scope


# The units a memo keeps (as the semantic tokens' memo does): statements, and the parameters of
# a (long) parameter list.
_STATEMENT_PARENTS = frozenset({K.BLOCK, K.SOURCE_FILE, K.PARAM_LIST})
# Nodes the parser makes of one token (Parser.primary): with no other child (a heredoc body
# may hang on one), nothing in them is a scope, a definition, a reference or a use.
_ONE_TOKEN = frozenset({K.LITERAL, K.QNAME})


class ModelMemo:
    """What a document's last model found in its statements, kept between revisions (see
    ``FileModel._close`` for which): an incremental reparse shares every statement an edit did not touch (the same
    green node), and such a statement contributes the same scopes, definitions, references,
    named things, calls, resources and type references again, only at its new offset and in
    its new enclosing scope.  Entries are position-free (offsets from the statement's start,
    nodes as steps down from it) and matched by identity, so a memo used by two revisions at
    once can be stale but never wrong; only the entries the last model used are kept."""
    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: dict = {}


class _Segment:
    """One statement's contribution to a model, relative to the statement: ``nodes`` are
    (parent, child index, offset from the statement) of the nodes its items hold, each parent
    numbered as 0 for the statement itself and k for ``nodes[k - 1]``; a scope is -1 for the
    one enclosing the statement, -2 for the file's top scope, k for the statement's k-th own
    scope; offsets are from the statement's start."""
    __slots__ = ("green", "context", "nodes", "scopes", "definitions", "references", "named",
                 "calls", "type_refs", "resources")

    def __init__(self, green, context: tuple) -> None:
        self.green = green
        self.context = context
        self.nodes: list = []
        self.scopes: list = []
        self.definitions: list = []
        self.references: list = []
        self.named: list = []
        self.calls: list = []
        self.type_refs: list = []
        self.resources: list = []


class _NotLocal(Exception):
    """An item of a statement refers to a node or scope outside it: the statement is not kept."""


class FileModel:
    """Everything the checker and the editor features need to know about one parsed file."""

    def __init__(self, result: ParseResult, memo: ModelMemo | None = None):
        self.result = result
        self.text = result.text
        root = result.root
        kind = "epp" if root.kind == K.EPP_FILE else "top"
        self.top = Scope(kind, "", root, None, 0, len(result.text))
        self.scopes: list[Scope] = [self.top]
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.named: list[Named] = []
        self.calls: list[CallSite] = []
        self.type_refs: list[TypeRefSite] = []
        self.resources: list[ResourceSite] = []
        self._walk(root, memo)
        # what each scope holds, in the order of the walk (replayed statements included)
        for sc in self.scopes[1:]:
            if sc.parent is not None:
                sc.parent.children.append(sc)
        for d in self.definitions:
            d.scope.variables.setdefault(d.name, []).append(d)
        self._classes = {n.name.lstrip(":"): n for n in self.named if n.kind == "class"}
        for ref in self.references:
            self._resolve(ref)
        self._ref_starts = [r.offset for r in self.references]
        self._def_starts = [d.offset for d in self.definitions]

    # ---- building ------------------------------------------------------------------------
    def _walk(self, root: SyntaxNode, memo: ModelMemo | None) -> None:
        targets: set = set()        # offsets of VARIABLE tokens that are assignment targets
        param_lists: set = set()    # the parameter lists of definitions (not lambdas)
        old = memo.entries if memo is not None else None
        kept: dict = {}
        self._replayed = 0
        # a frame: (node, its scope, None) to walk; (node, scope, _Segment) to replay; a
        # memoised statement is walked as (node, scope, record) and closed by (None, scope,
        # the same record) once its subtree is done: record = [green, context, node, scope,
        # the lists' lengths at its start, how many statements were replayed before it]
        stack: list = [(root, self.top, None)]
        while stack:
            node, scope, rec = stack.pop()
            if rec is not None:
                if node is None:
                    self._close(rec, kept)
                    continue
                if type(rec) is _Segment:
                    self._replay(rec, node, scope)
                    kept[id(rec.green)] = rec
                    self._replayed += 1
                    continue
                rec.append(self._lengths())
                rec.append(self._replayed)
            kind = node.kind
            child_scope = scope
            if kind in _DEFINITION_KINDS:
                child_scope = self._open_definition(node, kind, scope)
            elif kind == K.LAMBDA:
                child_scope = self._open_scope("lambda", "", node, scope)
                for p in A.Lambda(node).params():
                    self._define_param(p, "lambda_parameter", child_scope)
            elif kind == K.EPP_PARAMS:
                for p in A.EppFile(node.parent).params() if node.parent is not None else []:
                    self._define_param(p, "template_parameter", scope)
            elif kind in (K.TYPE_ALIAS, K.TYPE_DEFINITION):
                t = A.TypeAlias(node) if kind == K.TYPE_ALIAS else A.TypeDefinition(node)
                name_node = t.name_expr() if isinstance(t, A.TypeAlias) else None
                rng = name_node.range if name_node is not None else node.range
                if t.name:
                    self.named.append(Named("type_alias", t.name, node, rng[0], rng[1]))
            elif kind == K.PARAM:
                if node.parent in param_lists:
                    self._define_param(A.Param(node), "parameter", scope)
            elif kind == K.ASSIGNMENT:
                self._assignment(node, scope, targets)
            elif kind == K.VARIABLE_EXPR:
                tok = first_child_token(node)
                if tok is not None and tok.offset not in targets:
                    self.references.append(Reference(A.variable_name(tok.text), tok.offset, tok.end,
                                                     scope, node))
            elif kind == K.INTERPOLATION:
                tok = node.token(K.STRING_VAR)
                if tok is not None:
                    self.references.append(Reference(A.variable_name(tok.text), tok.offset, tok.end,
                                                     scope, node))
            elif kind in (K.CALL_EXPR, K.STATEMENT_CALL, K.METHOD_CALL):
                self._call(node, kind, scope)
            elif kind == K.RESOURCE_EXPR:
                te = A.ResourceExpr(node).type_expr()
                if isinstance(te, (A.QName, A.TypeRef)) and te.name:
                    r = te.range
                    self.resources.append(ResourceSite(te.name, r[0], r[1], node, scope))
                elif te is None:
                    first = node.first_token()
                    if first is not None and first.kind == K.CLASS:
                        self.resources.append(ResourceSite("class", first.offset, first.end, node, scope))
            elif kind == K.TYPE_REF:
                tok = node.first_token()
                if tok is not None and tok.kind == K.CLASSREF:
                    self.type_refs.append(TypeRefSite(tok.text, tok.offset, tok.end, node))
            # children in source order (the stack is LIFO); the green children are read
            # directly: this walk visits every node of the file after each keystroke
            kids: list = []
            units = old is not None and kind in _STATEMENT_PARENTS
            # a definition's parameters are those of its first parameter list
            params = kind in _DEFINITION_KINDS and kind != K.NODE_DEF
            green = node.green
            children = green.children
            base = node.offset
            # A literal or a bare name that is one token (a fifth of the nodes of a file)
            # holds nothing the model records: not walked, unless a statement's contribution
            # is being recorded.  (Not one with more children: a heredoc's body hangs on the
            # node of the first token after its line, and its interpolations are references.)
            skip = _ONE_TOKEN if not units else frozenset()
            if len(children) > WIDE:
                starts = green.starts()
                positions = [(i, base + starts[i]) for i in green.node_indices()
                             if not (children[i].kind in skip and len(children[i].children) == 1)]
            else:
                positions = []
                off = base
                for i, c in enumerate(children):
                    if type(c) is tuple:
                        off += len(c[1])
                    else:
                        if not (c.kind in skip and len(c.children) == 1):
                            positions.append((i, off))
                        off += c.width
            for i, off in positions:
                c = children[i]
                red = SyntaxNode(c, off, node, i)
                if params and c.kind == K.PARAM_LIST:
                    param_lists.add(red)
                    params = False
                if units:
                    # what a statement contributes depends only on its subtree, its enclosing
                    # scope (given when replayed) and, for a parameter, whether its list is a
                    # definition's (a lambda's parameters are defined by the lambda); not on
                    # its index, so statements after an inserted one are still replayed
                    context = (kind, node in param_lists)
                    entry = old.get(id(c)) if old is not None else None
                    if entry is not None and entry.green is c and entry.context == context:
                        kids.append((red, child_scope, entry))
                    else:
                        record = [c, context, red, child_scope]
                        kids.append((red, child_scope, record))
                        kids.append((None, child_scope, record))
                else:
                    kids.append((red, child_scope, None))
            kids.reverse()
            stack.extend(kids)
        if memo is not None:
            memo.entries = kept

    def _lengths(self) -> tuple:
        return (len(self.scopes), len(self.definitions), len(self.references), len(self.named),
                len(self.calls), len(self.type_refs), len(self.resources))

    def _close(self, record: list, kept: dict) -> None:
        """Keep what the statement of ``record`` contributed, unless it holds a statement that
        was replayed: the statements around an edit are walked again after each keystroke, and
        keeping them would copy most of the file each time (a statement walked whole is kept
        with the statements inside it, so that an edit elsewhere replays it at once)."""
        green, context, red, outer, starts, replayed_before = record
        if self._replayed != replayed_before:
            return
        try:
            kept[id(green)] = self._segment(green, context, red, outer, starts)
        except _NotLocal:
            pass

    def _segment(self, green, context: tuple, red: SyntaxNode, outer: Scope, starts: tuple) -> _Segment:
        seg = _Segment(green, context)
        base = red.offset
        numbers = {id(red): 0}
        nodes = seg.nodes

        def number(n: SyntaxNode) -> int:
            k = numbers.get(id(n))
            if k is not None:
                return k
            chain = []
            while k is None:
                chain.append(n)
                parent = n.parent
                if parent is None:
                    raise _NotLocal
                n = parent
                k = numbers.get(id(n))
            for x in reversed(chain):
                nodes.append((k, x.index, x.offset - base))
                k = len(nodes)
                numbers[id(x)] = k
            return k

        s0, d0, r0, n0, c0, t0, x0 = starts
        own = {id(sc): k for k, sc in enumerate(self.scopes[s0:])}
        top = self.top

        def scope_number(sc: Scope | None) -> int | None:
            if sc is None:
                return None
            if sc is outer:
                return -1
            if sc is top:
                return -2
            k = own.get(id(sc))
            if k is None:
                raise _NotLocal
            return k

        for sc in self.scopes[s0:]:
            seg.scopes.append((sc.kind, sc.name, number(sc.node), scope_number(sc.parent),
                               sc.start - base, sc.end - base, sc.parent_class))
        for d in self.definitions[d0:]:
            seg.definitions.append((d.name, d.kind, d.offset - base, d.end - base,
                                    scope_number(d.scope), number(d.node), d.index))
        for r in self.references[r0:]:
            seg.references.append((r.name, r.offset - base, r.end - base, scope_number(r.scope),
                                   None if r.node is None else number(r.node)))
        for n in self.named[n0:]:
            seg.named.append((n.kind, n.name, number(n.node), n.offset - base, n.end - base,
                              scope_number(n.scope)))
        for c in self.calls[c0:]:
            seg.calls.append((c.name, c.offset - base, c.end - base, number(c.node), c.form,
                              scope_number(c.scope)))
        for t in self.type_refs[t0:]:
            seg.type_refs.append((t.name, t.offset - base, t.end - base, number(t.node)))
        for x in self.resources[x0:]:
            seg.resources.append((x.type_name, x.offset - base, x.end - base, number(x.node),
                                  scope_number(x.scope)))
        return seg

    def _replay(self, seg: _Segment, red: SyntaxNode, outer: Scope) -> None:
        """Add what the statement ``red`` contributed when ``seg`` was made, moved to its
        offset now and to the scope ``outer`` that now encloses it."""
        base = red.offset
        reds = [red]
        for k, i, o in seg.nodes:
            parent = reds[k]
            reds.append(SyntaxNode(parent.green.children[i], base + o, parent, i))
        own: list = []
        top = self.top

        def scope(k):
            return None if k is None else outer if k == -1 else top if k == -2 else own[k]

        for kind, name, nk, pk, start, end, parent_class in seg.scopes:
            own.append(Scope(kind, name, reds[nk], scope(pk), base + start, base + end, parent_class))
        self.scopes += own
        self.definitions += [Definition(name, kind, base + o, base + e, scope(sk), reds[nk], index)
                             for name, kind, o, e, sk, nk, index in seg.definitions]
        self.references += [Reference(name, base + o, base + e, scope(sk), None if nk is None else reds[nk])
                            for name, o, e, sk, nk in seg.references]
        self.named += [Named(kind, name, reds[nk], base + o, base + e, scope(sk))
                       for kind, name, nk, o, e, sk in seg.named]
        self.calls += [CallSite(name, base + o, base + e, reds[nk], form, scope(sk))
                       for name, o, e, nk, form, sk in seg.calls]
        self.type_refs += [TypeRefSite(name, base + o, base + e, reds[nk])
                           for name, o, e, nk in seg.type_refs]
        self.resources += [ResourceSite(name, base + o, base + e, reds[nk], scope(sk))
                           for name, o, e, nk, sk in seg.resources]

    def _open_scope(self, kind: str, name: str, node: SyntaxNode, parent: Scope) -> Scope:
        start, end = node.range
        s = Scope(kind, name, node, parent, start, end)
        self.scopes.append(s)
        return s

    def _open_definition(self, node: SyntaxNode, kind: str, scope: Scope) -> Scope:
        what = _DEFINITION_KINDS[kind]
        d = A.view(node)
        if isinstance(d, A.Definition):
            name = d.qualified_name if what in ("class", "define") else d.name.lstrip(":")
            tok = d.name_token
            rng = (tok.offset, tok.end) if tok is not None else node.range
        else:
            name = ", ".join(h.syntax.trimmed_text() for h in A.NodeDef(node).matches())
            hm = node.child(K.HOST_MATCHES)
            rng = hm.range if hm is not None else node.range
        # A definition's variables never see the scope it is written in: its parent is the top
        # scope (a class's parent class is looked up by name when resolving).
        s = self._open_scope(what, name, node, self.top)
        s.parent = self.top
        if isinstance(d, A.ClassDef):
            s.parent_class = (d.parent_name() or "").lstrip(":")
        # (its parameters are defined when the walk reaches them: see _walk)
        self.named.append(Named(what, name, node, rng[0], rng[1], s))
        return s

    def _define_param(self, p: A.Param, kind: str, scope: Scope) -> None:
        tok = p.name_token
        if tok is None:
            return
        self.definitions.append(Definition(p.name, kind, tok.offset, tok.end, scope, p.syntax))

    def _assignment(self, node: SyntaxNode, scope: Scope, targets: set) -> None:
        a = A.Assignment(node)
        if a.op_kind != K.EQUALS:
            return
        left = a.left()
        items: list[tuple[A.VariableExpr, int | None]]   # with the index in a destructuring array
        if isinstance(left, A.VariableExpr):
            items = [(left, None)]
        elif isinstance(left, A.Array):
            items = [(e, i) for i, e in enumerate(left.elements()) if isinstance(e, A.VariableExpr)]
        else:
            return
        for v, index in items:
            tok = first_child_token(v.syntax)
            if tok is None:
                continue
            targets.add(tok.offset)
            name = v.name
            if "::" in name or not name or name[0].isdigit():
                continue   # illegal targets (validation reports them)
            self.definitions.append(Definition(name, "variable", tok.offset, tok.end, scope, node, index))

    def _call(self, node: SyntaxNode, kind: str, scope: Scope) -> None:
        if kind == K.CALL_EXPR:
            f = A.CallExpr(node).functor()
            tok = f.syntax.first_token() if isinstance(f, A.QName) and f.name else None
            if tok is not None:
                self.calls.append(CallSite(tok.text, tok.offset, tok.end, node, "call", scope))
        elif kind == K.STATEMENT_CALL:
            tok = node.first_token()
            if tok is not None and tok.kind == K.NAME:
                self.calls.append(CallSite(tok.text, tok.offset, tok.end, node, "statement", scope))
        else:
            tok = A.MethodCall(node).name_token
            if tok is not None:
                self.calls.append(CallSite(tok.text, tok.offset, tok.end, node, "method", scope))

    # ---- resolution ----------------------------------------------------------------------
    def _resolve(self, ref: Reference) -> None:
        name = ref.name
        if not name or name[0].isdigit():
            ref.status = "builtin"          # match variables $0, $1 ...
            return
        if "::" in name:
            self._resolve_qualified(ref)
            return
        target, status = self.lookup(name, ref.scope, ref.offset)
        ref.target, ref.status = target, status

    def _resolve_qualified(self, ref: Reference) -> None:
        name = ref.name
        if name.startswith("::") and "::" not in name[2:]:
            short = name[2:]
            defs = self.top.variables.get(short)
            if defs and self.top.kind == "top":
                ref.target, ref.status = _pick(defs, ref.offset), "local"
            elif short in BUILTIN_VARIABLES:
                ref.status = "builtin"
            else:
                ref.status = "qualified"
            return
        cls, _, var = name.lstrip(":").rpartition("::")
        if cls == "settings":
            ref.status = "builtin"
            return
        named = self._classes.get(cls)
        if named is not None and named.scope is not None:
            defs = named.scope.variables.get(var)
            if defs:
                ref.target, ref.status = _pick(defs, ref.offset), "local"
                return
        ref.status = "qualified"

    def lookup(self, name: str, scope: Scope, offset: int) -> tuple:
        """(Definition or None, status) for the unqualified variable ``name`` used in
        ``scope`` at ``offset``."""
        s: Scope | None = scope
        seen_classes: set = set()
        while s is not None:
            defs = s.variables.get(name)
            if defs:
                return _pick(defs, offset), "local"
            if s.kind == "lambda":
                s = s.parent
                continue
            if s.kind == "class" and s.parent_class:
                parent = s.parent_class
                named = self._classes.get(parent)
                if named is None or named.scope is None or parent in seen_classes:
                    if name in BUILTIN_VARIABLES:
                        return None, "builtin"
                    defs = self.top.variables.get(name) if self.top.kind == "top" else None
                    if defs:
                        return _pick(defs, offset), "local"
                    return None, "inherited:" + parent
                seen_classes.add(parent)
                s = named.scope
                continue
            if s is not self.top:
                s = self.top
                continue
            break
        if name in BUILTIN_VARIABLES:
            return None, "builtin"
        return None, "unresolved"

    # ---- queries -------------------------------------------------------------------------
    def scope_at(self, offset: int) -> Scope:
        """The innermost scope whose range contains ``offset``."""
        s = self.top
        while True:
            nxt = None
            for c in s.children:
                if c.start <= offset <= c.end:
                    nxt = c
            if nxt is None:
                return s
            s = nxt

    def reference_at(self, offset: int) -> Reference | None:
        i = bisect.bisect_right(self._ref_starts, offset) - 1
        if i >= 0:
            r = self.references[i]
            if r.offset <= offset <= r.end:
                return r
        return None

    def definition_at(self, offset: int) -> Definition | None:
        i = bisect.bisect_right(self._def_starts, offset) - 1
        if i >= 0:
            d = self.definitions[i]
            if d.offset <= offset <= d.end:
                return d
        return None

    def references_to(self, definition: Definition) -> list:
        return [r for r in self.references if r.target is definition]

    def visible_variables(self, offset: int) -> dict:
        """name -> Definition of every variable visible at ``offset`` (innermost wins)."""
        scope = self.scope_at(offset)
        out: dict = {}
        s: Scope | None = scope
        seen: set = set()
        while s is not None and id(s) not in seen:
            seen.add(id(s))
            for name, defs in s.variables.items():
                out.setdefault(name, _pick(defs, offset))
            if s.kind == "lambda":
                s = s.parent
            elif s.kind == "class" and s.parent_class in self._classes:
                s = self._classes[s.parent_class].scope
            elif s is not self.top:
                s = self.top
            else:
                s = None
        return out

    def named_by(self, kind: str, name: str) -> list:
        name = name.lstrip(":").lower() if kind in ("class", "define", "function") else name.lstrip(":")
        return [n for n in self.named if n.kind == kind and
                (n.name.lstrip(":").lower() if kind != "type_alias" else n.name) == name]


def first_child_token(node: SyntaxNode) -> SyntaxToken | None:
    """The first significant token among a node's direct children (cheaper than
    ``first_token`` for nodes such as VARIABLE_EXPR or ATTRIBUTE_OP whose first token is a
    direct child)."""
    off = node.offset
    for i, c in enumerate(node.green.children):
        if type(c) is tuple:
            if c[0] not in K.TRIVIA:
                return SyntaxToken(c[0], c[1], off, node, i)
            off += len(c[1])
        elif c.kind == K.HEREDOC_BODY:
            off += c.width        # out-of-band heredoc text, not part of this node's shape
        else:
            return SyntaxNode(c, off, node, i).first_token()
    return None


def _pick(defs: list, offset: int) -> Definition:
    """The last definition before ``offset``, else the first one."""
    best = None
    for d in defs:
        if d.offset <= offset:
            best = d
    return best if best is not None else defs[0]

