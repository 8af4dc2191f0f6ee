"""The in-memory catalog: definitions (classes, defined types, nodes, functions, type aliases),
resources and their parameters, defaults, overrides, virtual/exported resources, collectors
and relationships - everything a manifest builds, kept as plain data previews can show.

The order of evaluation follows Puppet's compiler: top-level code first, then the matching
node definition; classes are evaluated as soon as they are included, while instances of
defined types are evaluated afterwards (in declaration order, repeatedly until nothing new
appears, interleaved with collectors); overrides and defaults are applied at the end.
"""
from __future__ import annotations

import re
from typing import Any

from ..knowledge.resource_types import has_attribute, metaparameters, resource_type
from ..syntax import ast, kinds as K
from ..syntax.tree import SyntaxNode
from ..types import model as m
from ..types.build import BUILTIN_RESOURCE_TYPES, define_alias, normalize_resource_name, object_from_hash
from ..types.errors import TypeSystemError
from .aliases import prune_variant_cycles
from .errors import EvalError, NextSignal, ReturnSignal
from .runtime import a_an, generalized_type_name, truthy, DefaultValue, DefaultValue as _D, label
from .scope import MISSING, Scope
from ..messages import render
from .closures import params_of, PuppetFunction, reads_any as _reads_any
import dataclasses
from .mismatch import validate_parameters
from .operators import equals
from ..types.format import type_to_string

_NAME = re.compile(r"^((::)?[a-z_]\w*)(::[a-z]\w*)*$")


def _attribute_site(body, name: str):
    """The name of attribute ``name`` in a resource body, else the body itself."""
    if isinstance(body, SyntaxNode):
        for op in body.children():
            if op.kind == K.ATTRIBUTE_OP:
                for t in op.children_with_tokens():
                    if not isinstance(t, SyntaxNode) and t.kind == K.NAME and t.text == name:
                        return t
    return body


def _exprs(node):
    return [c for c in node.children() if c.kind not in ast._NON_EXPR]


class Definition:
    """A class, defined type or node definition as written."""

    def __init__(self, kind: str, name: str, node: SyntaxNode, parent: str | None = None):
        self.kind = kind          # "class", "define", "node"
        self.name = name          # lower case, no leading ::
        self.node = node
        self.parent = parent
        self.params = params_of(node) if kind != "node" else []


class Resource:
    """A resource in the catalog (or a virtual/exported one waiting to be realized)."""

    def __init__(self, type_name: str, title: str, scope: Scope | None, node: SyntaxNode | None,
                 virtual: bool = False, exported: bool = False):
        self.type_name = type_name      # capitalised, "Notify", "Foo::Bar", "Class"
        self.title = title
        self.params: dict[str, Any] = {}
        self.scope = scope
        self.node = node
        self.virtual = virtual
        self.exported = exported
        self.evaluated = False
        self.tags: set = set()
        self.defaulted: set = set()     # parameters set by resource defaults (an override may change them)
        # a class: the resource that contains it (``contain``); None: its stage
        self.contained_in: Resource | None = None

    @property
    def ref(self) -> str:
        return f"{self.type_name}[{self.title}]"

    def type_value(self) -> m.ResourceType | m.ClassType:
        if self.type_name == "Class":
            return m.ClassType(self.title)
        return m.ResourceType(self.type_name, self.title)


class Catalog:
    def __init__(self, ev) -> None:
        self.ev = ev
        self.classes: dict[str, Definition] = {}
        self.defines: dict[str, Definition] = {}
        self.nodes: list[Definition] = []
        self.resources: dict[tuple, Resource] = {}
        self.class_scopes: dict[str, Scope] = {}
        # classes whose parent is being evaluated before them: already declared, so that the
        # parent including its child (zookeeper includes zookeeper::service, which inherits
        # it) does not evaluate the child twice, as in Puppet
        self.declaring: set = set()
        self.defaults: dict[int, dict] = {}       # id(scope) -> {type: {param: value}}
        self.overrides: list = []
        self.collectors: list = []
        self.relationships: list = []
        self.chain_values: dict = {}    # (offset, end) of an arrow -> what its chain stands for next
        self.pending_defines: list[Resource] = []
        self.compiling = False
        self.top: Scope | None = None
        self._defined_names: frozenset | None = None
        self.pending_aliases: list = []
        self.alias_problems: dict = {}   # alias name -> why its Object short form is invalid

    # ---- definitions --------------------------------------------------------------------------
    def register_definitions(self, root: SyntaxNode, top: Scope) -> None:
        """Record every definition before evaluation (Puppet loads them with the file)."""
        ev = self.ev
        self.top = top
        stack = [(root, "")]
        while stack:
            node, ns = stack.pop()
            for c in node.children():
                k = c.kind
                if k == K.CLASS_DEF:
                    d = ast.ClassDef(c)
                    name = d.name.lstrip(":").lower()
                    if ns and not d.name.startswith("::"):
                        name = f"{ns}::{name}"
                    parent = d.parent_name()
                    self._check_unique("class", name, c)
                    self.classes[name] = Definition("class", name, c,
                                                    parent.lstrip(":").lower() if parent else None)
                    body = c.child(K.BLOCK)
                    if body is not None:
                        stack.append((body, name))
                elif k == K.DEFINE_DEF:
                    dd = ast.DefineDef(c)
                    name = dd.name.lstrip(":").lower()
                    if ns and not dd.name.startswith("::"):
                        name = f"{ns}::{name}"
                    self._check_unique("define", name, c)
                    self.defines[name] = Definition("define", name, c)
                    self._defined_names = None
                elif k == K.NODE_DEF:
                    self._check_node_names(c)
                    self.nodes.append(Definition("node", "", c))
                elif k == K.FUNCTION_DEF:
                    name = ast.FunctionDef(c).qualified_name
                    old = ev.ctx.functions.get(name)
                    if isinstance(old, PuppetFunction):
                        self._redefined_entity(f"function/{name.lower()}", old.node, c)
                    ev.ctx.functions[name] = PuppetFunction(ev, c, name, top)
                elif k == K.TYPE_ALIAS:
                    self._register_alias(c, top)
                elif k in (K.SOURCE_FILE, K.BLOCK):
                    stack.append((c, ns))

    # Puppet loads every definition of the manifest before evaluating it, and refuses a name
    # defined twice with these (code-less) loader messages, located inside the message.
    def _check_unique(self, kind: str, name: str, node: SyntaxNode) -> None:
        same = self.classes.get(name) if kind == "class" else self.defines.get(name)
        other = self.defines.get(name) if kind == "class" else self.classes.get(name)
        if same is not None:
            first, second = _in_order(same.node, node)
            label = "Class" if kind == "class" else None
            if label is not None:
                raise self._definition_error(
                    render("CLASS_ALREADY_DEFINED", name=name, first=self._line(first),
                           second=self._line(second)), second)
            self._redefined_entity(f"type/{name}", first, second)
        if other is not None:
            first, second = _in_order(other.node, node)
            other_kind = "define" if kind == "class" else "class"
            first_kind = other_kind if first is other.node else kind
            if first_kind == "class":
                raise self._definition_error(
                    render("CLASS_REDEFINED_AS_DEFINITION", name=name, first=self._line(first),
                           second=self._line(second)), second)
            raise self._definition_error(
                render("DEFINITION_REDEFINED_AS_CLASS", name=name, first=self._line(first),
                       second=self._line(second)), second)

    def _check_node_names(self, node: SyntaxNode) -> None:
        seen = self.__dict__.setdefault("_node_names", {})
        for hn in ast.NodeDef(node).matches():
            key = _node_key(hn)
            if key is None:
                continue
            if key in seen:
                first, second = _in_order(seen[key], node)
                raise self._definition_error(
                    render("NODE_ALREADY_DEFINED", name=key, first=self._line(first),
                           second=self._line(second)), second)
            seen[key] = node

    def _redefined_entity(self, entity: str, first: SyntaxNode, second: SyntaxNode) -> None:
        first, second = _in_order(first, second)
        line, pos = self.ev.ctx.lines.position(first.range[0])
        raise self._definition_error(render("ENTITY_REDEFINED", entity=entity, line=line, pos=pos), second)

    @staticmethod
    def _definition_error(message: str, node: SyntaxNode) -> EvalError:
        err = EvalError(message, None, None, None, phase="parse")
        err.diag_code = "DUPLICATE_DEFINITION"
        err.diag_range = node.range
        return err

    def _register_alias(self, node: SyntaxNode, top: Scope) -> None:
        a = ast.TypeAlias(node)
        name = a.name
        value = a.value()
        if not name or value is None:
            return
        low = name.lower()
        for earlier, _, enode in self.pending_aliases:
            if earlier.lower() == low:
                self._redefined_entity(f"type/{low}", ast.TypeAlias(enode).name_expr().syntax,
                                       node)
        if low in self.defines:
            # A defined type and a type alias share Puppet's type namespace; a later alias
            # clashes with an earlier define (the reverse order is accepted by Puppet).
            d = self.defines[low].node
            if d.range[0] < node.range[0]:
                self._redefined_entity(f"type/{low}", d, node)
        self.pending_aliases.append((name, value.syntax, node))
        if name not in m.SIMPLE_TYPES and name.lower() not in BUILTIN_RESOURCE_TYPES:
            # A placeholder so that references to the alias (even from its own body, or from
            # aliases defined earlier) become lazy alias references while bodies are evaluated.
            define_alias(self.ev.ctx.aliases, name, m.ANY)

    def define_aliases(self, top: Scope) -> None:
        """Evaluate the bodies of all type aliases (after every name is known)."""
        ev = self.ev
        pending, self.pending_aliases = self.pending_aliases, []
        for name, value, node in pending:
            bad = _invalid_type_spec(value)
            if bad is not None:
                raise ev.fail("ILLEGAL_TYPE_SPECIFICATION",
                              render("ILLEGAL_TYPE_SPECIFICATION",
                                     expression=bad.trimmed_text()), bad)
            if name in m.SIMPLE_TYPES or name.lower() in BUILTIN_RESOURCE_TYPES:
                raise ev.fail("RESERVED_TYPE_NAME",
                              render("ATTEMPT_REDEFINE_ENTITY_HTTP_PUPPET", lower=name.lower()),
                              node)
            # Puppet's type parser keeps a name it cannot resolve as a TypeReference inside an
            # alias body (`type Foo = NoSuchType`: nothing is an instance of it).
            ev.unresolved_as_reference = True
            try:
                v = ev.eval(value, top)
                body = ast.TypeAlias(node).object_body()
                if body is not None:
                    v = self._object_short_form(name, v, ev.eval(body.syntax, top), node)
            finally:
                ev.unresolved_as_reference = False
            if not isinstance(v, m.PType):
                raise ev.fail("ILLEGAL_TYPE_ALIAS",
                              render("TYPE_ALIAS_MUST_TYPE_GOT", name=name,
                                     generalized_type_name=generalized_type_name(v)),
                              value)
            if isinstance(v, m.ObjectType) and (
                    v.type_name is None or m.SIMPLE_TYPES.get(v.type_name) is not v):
                # An Object type defined by an alias takes the alias' name (Puppet names it,
                # over a `name` given in its body); `type E = Error` keeps the built-in.
                v = dataclasses.replace(v, type_name=name)
            define_alias(ev.ctx.aliases, name, v)
        if pending:
            prune_variant_cycles(ev.ctx.aliases, [name for name, _, _ in pending])
        # Alias checks made while bodies were evaluated saw placeholders: forget them.
        ev.__dict__.pop("_checked_aliases", None)
        ev.__dict__.pop("_object_problems", None)

    def _object_short_form(self, name: str, parent: Any, body: Any, node) -> Any:
        """`type A = Parent { ... }`: an Object type with that parent (`Object { ... }`: no
        parent), built from the hash as `Object[...]` would be."""
        h = dict(body) if isinstance(body, dict) else {}
        if parent is not m.SIMPLE_TYPES.get("Object"):
            h["parent"] = parent
        try:
            return object_from_hash(h, lambda msg: TypeSystemError(msg))
        except TypeSystemError as exc:
            # Puppet only resolves the alias, and so fails, where it is used
            self.alias_problems[name] = str(exc)
            return object_from_hash({"parent": parent} if "parent" in h else {},
                                    lambda msg: TypeSystemError(msg))

    def defined_type_names(self) -> frozenset:
        if self._defined_names is None:
            self._defined_names = frozenset(self.defines)
        return self._defined_names

    def find_class(self, name: str | None) -> Definition | None:
        return self.classes.get(name.lstrip(":").lower()) if name is not None else None

    # ---- variables ---------------------------------------------------------------------------------
    def lookup_class_variable(self, fqn: str) -> Any:
        cls, _, var = fqn.rpartition("::")
        scope = self.class_scopes.get(cls.lower())
        seen = 0
        while scope is not None and seen < 50:
            v = scope.table.symbols.get(var, MISSING)
            if v is not MISSING:
                return v
            scope = scope.inherited
            seen += 1
        return MISSING

    # ---- resources -----------------------------------------------------------------------------------
    def find(self, type_name: str | None, title: str | None) -> Resource | None:
        r = self.resources.get((type_name, title))
        if r is None and type_name == "Class" and title is not None:
            r = self.resources.get((type_name, title.lower()))
        return r

    def add_resource(self, res: Resource, where) -> None:
        key = (res.type_name, res.title)
        if key in self.resources:
            old = self.resources[key]
            line_old = self._line(old.node)
            line_new = self._line(where)
            # Puppet blames the whole resource statement, not the body with the title.
            stmt = where
            if isinstance(where, SyntaxNode) and where.kind == K.RESOURCE_BODY and \
                    getattr(where, "parent", None) is not None:
                stmt = where.parent
            raise self.ev.fail("DUPLICATE_DECLARATION",
                               render("DUPLICATE_DECLARATION_ALREADY_DECLARED_AT", ref=res.ref,
                                      line_old=line_old, line_new=line_new), stmt,
                               render("ERROR_WHILE_EVALUATING", expression="a Resource Statement"))
        self.resources[key] = res

    def _line(self, node) -> int:
        if node is None:
            return 0
        start, _ = self.ev.range_of(node)
        return self.ev.ctx.lines.position(start or 0)[0]

    def eval_resource_expression(self, node: SyntaxNode, scope: Scope) -> Any:
        ev = self.ev
        rx = ast.ResourceExpr(node)
        form = rx.form
        tnode = rx.type_expr()
        if tnode is None:
            raise ev.fail("SYNTAX_ERROR", render("SYNTAX_ERROR_RESOURCE_WITHOUT_TYPE"), node)
        type_name = self._resource_type_name(tnode.syntax, scope)
        bodies = rx.bodies()
        titles_of = []
        seen_titles: set = set()
        default_params: dict = {}
        per_body = []
        for body in bodies:
            tn = body.title()
            titles = ev.eval(tn.syntax, scope) if tn is not None else None
            if titles is None:
                raise ev.fail("MISSING_TITLE", render("MISSING_TITLE"),
                              tn.syntax if tn is not None else node)
            flat = _flatten([titles])
            for i, t in enumerate(flat):
                if t is None:
                    raise ev.fail("MISSING_TITLE_AT",
                                  render("MISSING_TITLE_AT", index=i), tn.syntax)
                if not isinstance(t, str) and not isinstance(t, DefaultValue):
                    raise ev.fail("ILLEGAL_TITLE_TYPE_AT",
                                  render("ILLEGAL_TITLE_TYPE_AT", index=i,
                                         actual=generalized_type_name(t)), tn.syntax)
                if t == "":
                    raise ev.fail("EMPTY_STRING_TITLE_AT",
                                  render("EMPTY_STRING_TITLE_AT", index=i), tn.syntax)
                key = "\0default" if isinstance(t, DefaultValue) else t
                if key in seen_titles:
                    raise ev.fail("DUPLICATE_TITLE",
                                  render("DUPLICATE_TITLE", title=t),
                                  node)
                seen_titles.add(key)
            params = self._eval_ops(body.ops(), scope, node)
            real = [t for t in flat if not isinstance(t, _D)]
            if any(isinstance(t, _D) for t in flat):
                default_params = params
            per_body.append((real, params, body))
            titles_of.extend(real)
        result = []
        for real, params, body in per_body:
            merged = dict(default_params)
            merged.update(params)
            for title in real:
                result.append(self.declare(type_name, title, merged, scope, body.syntax,
                                           virtual=form != "regular", exported=form == "exported"))
        return [r for r in result if r is not None]

    def _resource_type_name(self, tnode: SyntaxNode, scope: Scope) -> str:
        ev = self.ev
        if tnode.kind == K.QNAME:
            tok = tnode.first_token()
            name = tok.text if tok is not None else ""
            return "Class" if name == "class" else normalize_resource_name(name)
        if tnode.kind == K.LITERAL:
            t = tnode.first_token()
            if t is not None and t.text == "class":
                return "Class"
        acceptable = tnode.kind == K.TYPE_REF or (
            tnode.kind == K.ACCESS_EXPR and _exprs(tnode)[0].kind == K.TYPE_REF)
        v = ev.eval(tnode, scope)
        if not acceptable:
            raise ev.fail("ILLEGAL_RESOURCE_TYPE",
                          render("ILLEGAL_RESOURCE_TYPE", actual=generalized_type_name(v)), tnode)
        if isinstance(v, m.ClassType):
            if v.class_name is not None:
                raise ev.fail("ILLEGAL_RESOURCE_TYPE",
                              render("ILLEGAL_RESOURCE_TYPE", actual=ev_type_str(v)), tnode)
            return "Class"
        if isinstance(v, m.ResourceType) and v.type_name is not None and v.title is None:
            return v.type_name
        if isinstance(v, m.ResourceType) and v.title is not None:
            raise ev.fail("ILLEGAL_RESOURCE_TYPE",
                          render("ILLEGAL_RESOURCE_TYPE", actual=ev_type_str(v)), tnode)
        raise ev.fail("ILLEGAL_RESOURCE_TYPE",
                      render("ILLEGAL_RESOURCE_TYPE", actual=generalized_type_name(v)), tnode)

    def _eval_ops(self, ops: list, scope: Scope, node, allow_append: bool = False) -> dict:
        ev = self.ev
        params: dict = {}
        for op in ops:
            v = ev.eval(op.value().syntax, scope) if op.value() is not None else None
            if op.is_splat:
                if not isinstance(v, dict):
                    raise ev.fail("TYPE_MISMATCH",
                                  render("EXPECTED_VALUE_TYPE_HASH_GOT",
                                         generalized_type_name=generalized_type_name(v)),
                                  op.value().syntax)
                items = [(k, x, "=>") for k, x in v.items()]
            else:
                items = [(op.name, v, op.op)]
            for name, val, operator in items:
                if name in params:
                    raise ev.fail("DUPLICATE_ATTRIBUTE",
                                  render("DUPLICATE_ATTRIBUTE", name=name), node,
                                  render("ERROR_WHILE_EVALUATING",
                                         expression="a Resource Statement"))
                params[name] = (val, operator) if allow_append else val
        return params

    def declare(self, type_name: str, title: str, params: dict, scope: Scope, where,
                virtual: bool = False, exported: bool = False) -> Any:
        """Create a resource (or declare a class with parameters)."""
        ev = self.ev
        if type_name == "Class":
            d = self.find_class(title)
            if d is None:
                raise ev.fail("UNKNOWN_CLASS", render("COULD_NOT_FIND_DECLARED_CLASS",
                                                      title=title), where)
            if d.name in self.class_scopes:
                raise ev.fail("DUPLICATE_DECLARATION",
                              render("DUPLICATE_DECLARATION_CLASS_ALREADY_DECLARED",
                                     cap=_cap(d.name)), where,
                              render("ERROR_WHILE_EVALUATING", expression="a Resource Statement"))
            stmt = where
            if isinstance(where, SyntaxNode) and where.kind == K.RESOURCE_BODY and \
                    getattr(where, "parent", None) is not None:
                stmt = where.parent
            # Parameters that do not fit are the resource statement's error, as in Puppet.
            self.evaluate_class(d, params, scope, where, declared_at=stmt)
            return m.ClassType(d.name)
        lname = type_name.lower()
        dfn = self.defines.get(lname)
        if dfn is None and lname not in BUILTIN_RESOURCE_TYPES and lname not in ev.settings.extra_resource_types:
            raise ev.fail("UNKNOWN_RESOURCE_TYPE", render("UNKNOWN_RESOURCE_TYPE_QUOTED",
                                                          lname=lname), where,
                          render("ERROR_WHILE_EVALUATING", expression="a Resource Statement"))
        if dfn is not None:
            type_name = _cap(dfn.name)
        res = Resource(type_name, title, scope, where, virtual, exported)
        res.params.update(params)
        # the defaults in force where and when it is declared (Puppet 7 looks them up as it
        # creates the resource: a default set later, or in a class evaluated later, is not its)
        self._apply_defaults(res)
        self.add_resource(res, where)
        if dfn is not None and not virtual:
            self.pending_defines.append(res)
        return res.type_value()

    # ---- classes ---------------------------------------------------------------------------------------
    def include(self, names: list, scope: Scope, where, mode: str = "include") -> list:
        out = []
        for n in names:
            name = self._class_name_of(n, where)
            d = self.find_class(name)
            if d is None:
                raise EvalError(render("UNKNOWN_CLASS", name=name.lstrip(':'),
                                       node=self.ev.settings.node_name), "UNKNOWN_CLASS")
            if d.name not in self.class_scopes and d.name not in self.declaring:
                self.evaluate_class(d, {}, scope, where)
            out.append(m.ClassType(d.name))
            owner = scope.resource
            if owner is None:
                continue
            if mode == "contain":
                res = self.find("Class", d.name)
                if res is not None and res is not owner:
                    res.contained_in = owner
            elif mode == "require":
                # the requiring resource gets the class in its require (Puppet's require())
                before = owner.params.get("require")
                owner.params["require"] = [*_flatten([before] if before is not None else []),
                                           m.ClassType(d.name)]
        return out

    def _class_name_of(self, n: Any, where) -> str:
        if isinstance(n, m.ClassType) and n.class_name:
            return n.class_name
        if isinstance(n, m.ResourceType) and n.type_name == "Class" and n.title:
            return n.title.lower()
        if isinstance(n, str):
            if not n:
                raise EvalError(render("CANNOT_USE_EMPTY_STRING_AS"))
            return n.lower().lstrip(":")
        if n is None:
            raise EvalError(render("CANNOT_USE_UNDEF_AS_CLASS"))
        raise EvalError(render("CANNOT_USE_AS_CLASS_NAME",
                               generalized_type_name=generalized_type_name(n)))

    def evaluate_class(self, d: Definition, params: dict, from_scope: Scope, where,
                       declared_at=None) -> Scope:
        ev = self.ev
        parent_scope = None
        if d.parent:
            pd = self.find_class(d.parent)
            if pd is None:
                raise ev.fail("UNKNOWN_CLASS", render("COULD_NOT_FIND_PARENT_CLASS",
                                                      parent=d.parent), where)
            if pd.name not in self.class_scopes and pd.name not in self.declaring:
                self.declaring.add(d.name)
                try:
                    self.evaluate_class(pd, {}, from_scope, where)
                finally:
                    self.declaring.discard(d.name)
            parent_scope = self.class_scopes.get(pd.name)
        top = self.top or from_scope
        scope = Scope(ev.ctx, top, "class", d.name)
        scope.inherited = parent_scope
        scope.declared_in = parent_scope if parent_scope is not None else from_scope
        self.class_scopes[d.name] = scope
        res = Resource("Class", d.name, scope, where)
        self.resources[("Class", d.name)] = res
        scope.resource = res
        scope.table.symbols["title"] = d.name
        scope.table.symbols["name"] = d.name
        # Puppet binds $module_name in every class scope: the module the class was loaded
        # from, so empty here (everything comes from the one manifest) except in a preview,
        # whose classes are autoloaded from their module (the first part of the name)
        scope.table.symbols["module_name"] = _module_of(d.name) if ev.settings.unknown_outside else ""
        bind = ev.settings.parameter_lookup
        if bind is not None:
            # automatic parameter lookup: what the declaration does not give comes from the data
            found = {p.name: bind(d.name, p.name) for p in d.params if p.name not in params}
            params = {**{k: v[0] for k, v in found.items() if v is not None}, **params}
        self._bind_params(d, params, scope, f"Class[{_cap(d.name)}]", res, declared_at)
        self._run_body(d, scope)
        return scope

    def _bind_params(self, d: Definition, given: dict, scope: Scope, subject: str,
                     res: Resource, declared_at=None) -> None:
        ev = self.ev
        types = []
        for p in d.params:
            if p.type_node is not None:
                t = ev.eval(p.type_node, scope)
            else:
                t = m.ANY
            types.append(t)
        names = {p.name for p in d.params}
        for p in d.params:
            if p.name in ("facts", "trusted", "server_facts"):
                # Scope#setvar refuses these; Puppet reports the definition's line only.
                err = EvalError(render("RESERVED_PARAMETER_AT_LINE", name=p.name,
                                       line=self._line(d.node)), None, None, None,
                                phase="parse")
                err.diag_code = "ILLEGAL_RESERVED_PARAMETER"
                err.diag_range = p.node.range if p.node is not None else d.node.range
                raise err
        metas = metaparameters()
        extra = [k for k in given if k not in names and k not in metas]
        values = {}
        pending = {p.name for p in d.params if p.name not in given}
        for p in d.params:
            if p.name in given:
                # given values are bound first: a default may read them (Puppet does)
                scope.table.symbols[p.name] = given[p.name]
        for p, t in zip(d.params, types):
            pending.discard(p.name)
            if p.name in given:
                values[p.name] = given[p.name]
            elif p.default_node is not None:
                early = _reads_any(p.default_node, pending)
                if early is not None:
                    too_early = render("DEFAULT_READS_LATER_PARAMETER", subject=subject,
                                       name=p.name, other=early)
                    if declared_at is not None:
                        raise ev.fail("RUNTIME_ERROR", too_early, declared_at, render(
                            "ERROR_WHILE_EVALUATING", expression="a Resource Statement"))
                    raise EvalError(too_early, "RUNTIME_ERROR")
                level = scope.level
                try:
                    v = ev.eval(p.default_node, scope)
                finally:
                    scope.pop_to(level)
                values[p.name] = v
                scope.table.symbols[p.name] = v
        specs = [(p.name, t, p.default_node is not None) for p, t in zip(d.params, types)]
        given_check = {k: v for k, v in values.items()}
        for k in extra:
            given_check[k] = given[k]
        msg = validate_parameters(subject, specs, given_check)
        if msg:
            if declared_at is not None:
                raise ev.fail("RUNTIME_ERROR", msg, declared_at,
                              render("ERROR_WHILE_EVALUATING", expression="a Resource Statement"))
            raise EvalError(msg, "RUNTIME_ERROR")
        for k, v in values.items():
            scope.table.symbols[k] = v
            if scope.kind == "class":
                ev.ctx.qualified[f"{scope.name}::{k}"] = v
        for k, v in given.items():
            res.params[k] = v
        for k, v in values.items():
            res.params.setdefault(k, v)

    def _run_body(self, d: Definition, scope: Scope) -> None:
        body = d.node.child(K.BLOCK)
        if body is None:
            return
        try:
            self.ev.eval_block(body, scope)
        except (NextSignal, ReturnSignal):
            pass

    # ---- defined types ------------------------------------------------------------------------------
    def evaluate_define(self, res: Resource) -> None:
        d = self.defines.get(res.type_name.lower())
        if d is None or res.evaluated:
            return
        res.evaluated = True
        ev = self.ev
        scope = Scope(ev.ctx, res.scope, "define", d.name, res)
        scope.table.symbols["title"] = res.title
        scope.table.symbols["name"] = res.params.get("name", res.title)
        if ev.settings.unknown_outside:
            scope.table.symbols["module_name"] = _module_of(d.name)
        metas = metaparameters()
        params = {k: v for k, v in res.params.items() if k not in metas}
        self._bind_params(d, params, scope, f"{res.type_name}[{res.title}]", res)
        self._run_body(d, scope)

    def evaluate_generators(self) -> None:
        """Evaluate pending defined-type instances and collectors until nothing changes."""
        for _ in range(10000):
            progress = False
            while self.pending_defines:
                res = self.pending_defines.pop(0)
                self.evaluate_define(res)
                progress = True
            for coll in list(self.collectors):
                if coll.collect(self):
                    progress = True
            if not progress:
                break
            self.ev.budget.charge()

    def finish(self) -> None:
        for target, params, node, scope in self.overrides:
            self._apply_override(target, params, node, fail_missing=True, scope=scope)
        self.overrides = []
        self._validate_builtin_attributes()

    def _validate_builtin_attributes(self) -> None:
        """Puppet's compiler refuses, when it finishes the catalog, an attribute that a built-in
        type does not have (values are checked later, by the agent, so not here)."""
        for res in self.resources.values():
            t = resource_type(res.type_name)
            if t is None:
                continue
            for k in res.params:
                if not t.has_attribute(k):
                    raise self.ev.fail("RESOURCE_NO_SUCH_PARAMETER",
                                       render("RESOURCE_NO_SUCH_PARAMETER", param=k,
                                              resource=res.ref), _attribute_site(res.node, k))

    # ---- defaults / overrides -------------------------------------------------------------------------
    def eval_resource_defaults(self, node: SyntaxNode, scope: Scope) -> Any:
        ev = self.ev
        rd = ast.ResourceDefaults(node)
        tn = rd.type_ref()
        t = ev.eval(tn.syntax, scope) if tn is not None else None
        if not (isinstance(t, m.ResourceType) and t.type_name is not None and t.title is None):
            raise ev.fail("ILLEGAL_RESOURCE_TYPE",
                          render("ILLEGAL_RESOURCE_TYPE",
                                 actual=generalized_type_name(t)), tn.syntax if tn else node)
        params = self._eval_ops(rd.ops(), scope, node)
        table = self.defaults.setdefault(id(scope), {})
        table.setdefault(t.type_name, {}).update(params)
        return t

    def _apply_defaults(self, res: Resource) -> None:
        scope = res.scope
        seen = 0
        while scope is not None and seen < 100:
            table = self.defaults.get(id(scope))
            if table:
                for k, v in table.get(res.type_name, {}).items():
                    if k not in res.params:
                        res.params[k] = v
                        res.defaulted.add(k)
            scope = scope.defaults_parent()
            seen += 1

    def eval_resource_override(self, node: SyntaxNode, scope: Scope) -> Any:
        ev = self.ev
        ro = ast.ResourceOverride(node)
        tn = ro.target()
        targets = ev.eval(tn.syntax, scope)
        params = self._eval_ops(ro.ops(), scope, node, allow_append=True)
        for t in _flatten([targets]):
            if not isinstance(t, (m.ResourceType, m.ClassType)):
                raise ev.fail("ILLEGAL_OVERRIDDEN_TYPE",
                              render("ILLEGAL_OVERRIDDEN_TYPE", actual=ev_label(t)),
                              tn.syntax)
            if not self._apply_override(t, params, node, fail_missing=False, scope=scope):
                self.overrides.append((t, params, node, scope))
        return targets

    def _may_override(self, res: Resource, scope: Scope) -> bool:
        """An override may change a set parameter only from a class inheriting the one that
        declared the resource (Puppet's rule), or from a collector."""
        s: Scope | None = scope
        seen = 0
        while s is not None and seen < 100:
            if s is res.scope:
                return s is not scope
            s = s.inherited
            seen += 1
        return False

    def _source_label(self, res: Resource) -> str:
        return "#<Puppet::Resource::Type>"

    def _apply_override(self, t, params: dict, node, fail_missing: bool, scope=None) -> bool:
        if isinstance(t, m.ClassType):
            res = self.find("Class", t.class_name or "")
        else:
            res = self.find(t.type_name or "", t.title or "")
        if res is None:
            if fail_missing:
                raise self.ev.fail("UNKNOWN_RESOURCE",
                                   render("COULD_NOT_FIND_RESOURCE_FOR",
                                          ev_type_str=ev_type_str(t)), node)
            return False
        for k, (v, op) in params.items():
            if k in res.params and k not in res.defaulted and scope is not None and \
                    not self._may_override(res, scope):
                raise self.ev.fail("DUPLICATE_PARAMETER_SET",
                                   render("PARAMETER_ALREADY_SET_ON_BY", k=k, ref=res.ref,
                                          source_label=self._source_label(res), line=self._line(res.node), line2=self._line(node)), node)
            if op == "+>" and k in res.params:
                old = res.params[k]
                old = list(old) if type(old) in (list, tuple) else [old]
                new = list(v) if type(v) in (list, tuple) else [v]
                res.params[k] = old + new
            else:
                res.params[k] = v
            res.defaulted.discard(k)
        return True

    # ---- collectors / realize -----------------------------------------------------------------------------
    def eval_collector(self, node: SyntaxNode, scope: Scope) -> Any:
        ev = self.ev
        ce = ast.CollectExpr(node)
        tn = ce.type_expr()
        t = ev.eval(tn.syntax, scope) if tn is not None else None
        if not (isinstance(t, m.ResourceType) and t.type_name and t.title is None):
            raise ev.fail("ILLEGAL_RESOURCE_TYPE",
                          render("ILLEGAL_RESOURCE_TYPE",
                                 actual=generalized_type_name(t)), tn.syntax if tn else node)
        q = ce.query()
        params = self._eval_ops(ce.ops(), scope, node, allow_append=True)
        coll = Collector(t.type_name, q.syntax if q is not None else None, params, scope, node,
                         ce.exported)
        self.collectors.append(coll)
        if not self.compiling:
            coll.collect(self)
        return None

    def realize(self, refs: list, where) -> None:
        for r in _flatten(refs):
            if isinstance(r, str):
                raise EvalError(render("REALIZE_CANNOT_USE_STRING_AS", r=r))
            if not isinstance(r, m.ResourceType) or r.title is None:
                raise EvalError(render("CANNOT_REALIZE",
                                       generalized_type_name=generalized_type_name(r)))
            res = self.find(r.type_name, r.title)
            if res is None:
                if not self.compiling:
                    # Puppet checks unrealized references when the compilation finishes; a
                    # plain evaluation never gets there.
                    continue
                raise EvalError(render("FAILED_REALIZE_VIRTUAL_RESOURCES",
                                       ev_type_str=ev_type_str(r)))
            self._realize(res)

    def _realize(self, res: Resource) -> None:
        if res.virtual:
            res.virtual = False
            if res.type_name.lower() in self.defines:
                self.pending_defines.append(res)

    # ---- relationships ---------------------------------------------------------------------------------
    def eval_relationship(self, node: SyntaxNode, scope: Scope) -> Any:
        ev = self.ev
        es = _exprs(node)
        left = self._operand(es[0], ev.eval(es[0], scope))
        right = self._operand(es[1], ev.eval(es[1], scope))
        t = None
        for tok in node.significant_tokens():
            t = tok
            break
        op = t.text if t else "->"
        lrefs = [x for x in _flatten([left]) if x is not None]
        rrefs = [x for x in _flatten([right]) if x is not None]
        for x, n in ((lrefs, es[0]), (rrefs, es[1])):
            for r in x:
                if not isinstance(r, (m.ResourceType, m.ClassType, str, Collector)):
                    raise ev.fail("ILLEGAL_RELATIONSHIP_OPERAND_TYPE",
                                  render("ILLEGAL_RELATIONSHIP_OPERAND_TYPE", a_label=a_an(label(r))),
                                  n)
        self.relationships.append((lrefs, op, rrefs, node))
        if not rrefs:
            # an empty right side closes the gap: in X -> [] -> Y, X comes before Y
            self.chain_values[node.offset, node.end] = lrefs
            return lrefs
        if len(rrefs) == 1 and isinstance(rrefs[0], Collector):
            # a collector may collect nothing once the catalog is done: the chain then links
            # what is on its left with what follows it (Puppet's empty alternative)
            rrefs[0].empty_alternative = lrefs
        self.chain_values[node.offset, node.end] = rrefs
        return _flatten([right])  # Puppet's value of a relationship: the right side, as a list

    def _operand(self, node: SyntaxNode, value: Any) -> Any:
        """What an arrow's operand stands for: a collector itself (its value as an expression
        is undef), a chain what its last operand stood for (collectors included)."""
        if node.kind == K.COLLECT_EXPR:
            found = next((c for c in reversed(self.collectors) if c.node.offset == node.offset), None)
            return found if found is not None else value
        if node.kind == K.RELATIONSHIP:
            return self.chain_values.pop((node.offset, node.end), value)
        return value

    def expanded_relationships(self) -> list:
        """The relationships with each collector replaced by what it collected, as Puppet forms
        them when the catalog is finished: ``(left refs, arrow, right refs, node)``.  A
        collector on the left that collected nothing stands for its empty alternative."""
        out = []
        for left, op, right, node in self.relationships:
            out.append((_expand(left, True), op, _expand(right, False), node))
        return out

    # ---- parameter access -------------------------------------------------------------------------------
    def resource_parameter_access(self, node, t: m.ResourceType, keys: list, scope) -> Any:
        ev = self.ev
        res = self.find(t.type_name, t.title)
        if res is None:
            raise ev.fail("UNKNOWN_RESOURCE", render("UNKNOWN_RESOURCE", type_name=t.type_name,
                                                     title=t.title), node)
        out = []
        as_array = len(keys) > 1 or (keys and type(keys[0]) in (list, tuple))
        for k in _flatten(keys):
            if k in res.params:
                out.append(res.params[k])
                continue
            d = self.defines.get(res.type_name.lower())
            builtin = has_attribute(res.type_name, k) if d is None else None
            if (d is not None and any(p.name == k for p in d.params)) or k in metaparameters() or \
                    builtin is True or (builtin is None and d is None):
                out.append(self._default_param(res, k))
                continue
            raise ev.fail("UNKNOWN_RESOURCE_PARAMETER",
                          render("UNKNOWN_RESOURCE_PARAMETER", type_name=res.type_name,
                                 title=res.title, param=k), node)
        return out if as_array else (out[0] if out else None)

    def _default_param(self, res: Resource, k: str) -> Any:
        scope = res.scope
        while scope is not None:
            table = self.defaults.get(id(scope))
            if table and k in table.get(res.type_name, {}):
                return table[res.type_name][k]
            scope = scope.defaults_parent()
        return None

    def class_parameter_access(self, node, t: m.ClassType, keys: list, scope) -> Any:
        ev = self.ev
        d = self.find_class(t.class_name)
        cscope = self.class_scopes.get(t.class_name.lower()) if t.class_name else None
        if d is None or cscope is None:
            raise ev.fail("UNKNOWN_RESOURCE", render("RESOURCE_NOT_FOUND_CLASS",
                                                     class_name=t.class_name), node)
        out = []
        as_array = len(keys) > 1 or (keys and type(keys[0]) in (list, tuple))
        res = self.find("Class", d.name)
        for k in _flatten(keys):
            if any(p.name == k for p in d.params) or k in metaparameters():
                if res is not None and k in res.params:
                    out.append(res.params[k])
                else:
                    out.append(cscope.table.symbols.get(k))
                continue
            raise ev.fail("UNKNOWN_RESOURCE_PARAMETER",
                          render("RESOURCE_CLASS_DOES_NOT_HAVE", class_name=t.class_name, k=k),
                          node)
        return out if as_array else (out[0] if out else None)

    def assign_from_class(self, target: list, value: m.ClassType, node, lhs, rhs, scope) -> None:
        ev = self.ev
        name = value.class_name
        cscope = self.class_scopes.get(name.lower()) if name is not None else None
        if cscope is None:
            raise ev.fail("UNKNOWN_RESOURCE", render("RESOURCE_NOT_FOUND_CLASS", class_name=name),
                          rhs)
        lhs_items = _exprs(lhs) if lhs.kind == K.ARRAY else []
        for i, lv in enumerate(target):
            if not isinstance(lv, tuple):
                raise ev.fail("ILLEGAL_ASSIGNMENT",
                              render("ILLEGAL_NESTED_ASSIGNMENT_FROM_CLASS"), node)
            var = lv[0]
            v = self.lookup_class_variable(f"{name}::{var}")
            if v is MISSING:
                raise ev.fail("MISSING_MULTI_ASSIGNMENT_VARIABLE",
                              render("NO_VALUE_FOR_REQUIRED_VARIABLE", name=name, var=var),
                              lhs_items[i] if i < len(lhs_items) else lhs)
            ev.assign(lv, v, node, lhs, rhs, scope)

    # ---- outcome -----------------------------------------------------------------------------------------
    def visible_resources(self) -> list:
        return [r for r in self.resources.values() if not r.virtual]

    def is_defined_type(self, name: str) -> bool:
        return name.lower() in self.defines


class Collector:
    """``Type <| query |> { overrides }`` (virtual) or ``<<| |>>`` (exported)."""

    def __init__(self, type_name: str, query: SyntaxNode | None, params: dict, scope, node,
                 exported: bool):
        self.type_name = type_name
        self.query = query
        self.params = params
        self.scope = scope
        self.node = node
        self.exported = exported
        self.done: set = set()
        self.collected: list = []       # the resources it matched, in the order it met them
        self.empty_alternative: list = []   # the left side of the chain it was the right of

    def matches(self, cat: Catalog, res: Resource) -> bool:
        if res.type_name != self.type_name:
            return False
        if self.query is None:
            return True
        return truthy(_query(cat, self.query, res, self.scope))

    def collect(self, cat: Catalog) -> bool:
        progress = False
        for res in list(cat.resources.values()):
            if id(res) in self.done:
                continue
            if self.exported and not res.exported and res.virtual:
                continue
            if self.matches(cat, res):
                self.done.add(id(res))
                self.collected.append(res)
                if res.virtual:
                    cat._realize(res)
                    progress = True
                if self.params:
                    cat._apply_override(res.type_value(), self.params, self.node, False)
        return progress


def _module_of(name: str) -> str:
    """The module an autoloaded class or defined type comes from (``apache::vhost``: apache)."""
    return name.removeprefix("::").split("::")[0] if "::" in name.removeprefix("::") else name.removeprefix("::")


def _expand(refs: list, left: bool, depth: int = 0) -> list:
    """``refs`` with collectors replaced by the references of what they collected (on the
    left of an arrow, an empty collector by its empty alternative, recursively)."""
    out: list = []
    for r in refs:
        if not isinstance(r, Collector):
            out.append(r)
        elif r.collected:
            out.extend(res.type_value() for res in r.collected)
        elif left and depth < 100:
            out.extend(_expand(r.empty_alternative, True, depth + 1))
    return out


def _query(cat: Catalog, node: SyntaxNode, res: Resource, scope) -> Any:
    """Evaluate a collector query against one resource."""
    ev = cat.ev
    k = node.kind
    if k == K.PAREN_EXPR:
        return _query(cat, _exprs(node)[0], res, scope)
    if k == K.BINARY_EXPR:
        es = _exprs(node)
        t = None
        for tok in node.significant_tokens():
            t = tok
            break
        op = t.text if t else ""
        if op == "and":
            return truthy(_query(cat, es[0], res, scope)) and truthy(_query(cat, es[1], res,
                                                                            scope))
        if op == "or":
            return truthy(_query(cat, es[0], res, scope)) or truthy(_query(cat, es[1], res, scope))
        name_n = es[0]
        attr = name_n.first_token().text if name_n.first_token() else ""
        value = ev.eval(es[1], scope)
        actual: Any
        if attr == "title":
            actual = res.title
        else:
            actual = res.params.get(attr)
        if op == "==":
            if type(actual) in (list, tuple):
                return any(equals(a, value) for a in actual)
            return equals(actual, value)
        if op == "!=":
            if type(actual) in (list, tuple):
                return not any(equals(a, value) for a in actual)
            return not equals(actual, value)
        raise ev.fail("ILLEGAL_QUERY", render("ILLEGAL_QUERY_OPERATOR", op=op), node)
    raise ev.fail("ILLEGAL_QUERY", render("ILLEGAL_QUERY_PART"), node)


_TYPE_SPEC_KINDS = frozenset({K.TYPE_REF, K.ACCESS_EXPR, K.LITERAL, K.QNAME, K.ARRAY, K.HASH,
                              K.HASH_ENTRY, K.DQ_STRING, K.UNARY_EXPR, K.PAREN_EXPR})


def _invalid_type_spec(node: SyntaxNode):
    """The outermost part of a type alias body that is not a type specification (variables,
    calls, operators...), or None."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind not in _TYPE_SPEC_KINDS or (
                n.kind == K.DQ_STRING and n.child(K.INTERPOLATION) is not None):
            return n
        if n.kind == K.ACCESS_EXPR and _access_base(n).kind not in _TYPE_SPEC_KINDS:
            # Puppet reports the whole access (`$facts[os][family]`), not just its variable.
            return n
        stack.extend(c for c in n.children() if c.kind not in ast._NON_EXPR or c.kind == K.HASH_ENTRY)
    return None


def _in_order(a: SyntaxNode, b: SyntaxNode) -> tuple:
    """The two definitions in source order (the registration walk is not)."""
    return (a, b) if a.range[0] <= b.range[0] else (b, a)


def _node_key(hn) -> str | None:
    """The name Puppet files a node definition under (``__node_regexp__x`` for ``/x/``)."""
    v = hn.value()
    if v is ast.DEFAULT:
        return "default"
    if isinstance(v, ast.Regex):
        return "__node_regexp__" + re.sub(r"[^-\w:.]", "", v.source)
    if isinstance(v, ast.DqString):
        parts = v.parts()
        if not all(isinstance(p, str) for p in parts):
            return None
        return "".join(parts).lower()
    if isinstance(v, str):
        return v.lower()
    return None


def _access_base(n: SyntaxNode) -> SyntaxNode:
    """The innermost left operand of a chain of accesses (``$x`` in ``$x[a][b]``)."""
    depth = 0
    while n.kind == K.ACCESS_EXPR and depth < 10000:
        kids = [c for c in n.children() if c.kind not in ast._NON_EXPR]
        if not kids:
            break
        n = kids[0]
        depth += 1
    return n


def _flatten(xs: list) -> list:
    out = []
    for x in xs:
        if type(x) in (list, tuple):
            out.extend(_flatten(list(x)))
        else:
            out.append(x)
    return out


def _cap(name: str) -> str:
    return "::".join(s[:1].upper() + s[1:] for s in name.split("::"))


def ev_type_str(t) -> str:
    return type_to_string(t)


def ev_label(v) -> str:
    return label(v)
