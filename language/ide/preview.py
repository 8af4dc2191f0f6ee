"""Evaluated previews: the values of assignments and expressions, shown as inlay hints
(``$doubled = [1,2,3].map |$x| { $x * 2 }  ⟶ [2, 4, 6]``), in hovers, by the "evaluate
selection" command, and the branches of ``if``/``unless``/``case``/selectors a node does not take.

An expression is *known* when every variable it reads is defined inside it (a lambda parameter)
or is a variable whose own value is known: a local variable (the statement of its scope that
assigns it — a whole ``case`` or ``if`` when it is assigned in a branch — is evaluated too) and,
with a :class:`PreviewContext` (a fact set and a node name), ``$facts`` (a fact the set does not
have is unknown, never guessed as undef), ``$trusted``, top-scope facts, and class parameters
through their defaults.  A known expression is evaluated by the sandboxed evaluator
(``puppet_ls.language.eval``) as a small program made of the statements it depends on followed by
the expression itself, within a step and time budget, so a preview can never touch files, the
network or processes, nor run away; anything else (Hiera, other classes' variables, functions
that need the outside world) leaves the preview out.
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..check.analysis import Analysis
from ..messages import issue
from ..check.scopes import Definition
from ..knowledge.functions import function
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode
from ..types.values import REDACTED_INSPECT, Sensitive, holds

# Expressions whose value is worth showing at the top level of a block (not resources,
# definitions or plain literals, whose value is what is written).
_VALUE_KINDS = frozenset({K.CALL_EXPR, K.METHOD_CALL, K.BINARY_EXPR, K.ACCESS_EXPR, K.SELECTOR_EXPR,
                          K.UNARY_EXPR, K.IF_EXPR, K.UNLESS_EXPR, K.CASE_EXPR, K.PAREN_EXPR})
MAX_LABEL = 60
# Longest expression source worth previewing.  Past it the value would be cut to MAX_LABEL
# characters anyway, and merely assembling the program walks every token of the literal
# (a 150 KB array took 2.3 s of a hover's CPU before the evaluator was even asked).
MAX_PREVIEW_SOURCE = 20_000


@dataclass
class Preview:
    """A value computed for a place in the file."""

    offset: int            # where to show it (end of the expression)
    value: str             # the value as Puppet prints it (%p form)
    type: str              # its inferred type
    ok: bool = True
    error: str = ""
    origin: str = ""       # where a class parameter's value comes from ("default", "hiera <file>")

    @property
    def label(self) -> str:
        text = self.value if len(self.value) <= MAX_LABEL else self.value[:MAX_LABEL - 1] + "…"
        return f"⟶ {text}" + (f" ({self.origin})" if self.origin else "")


# How a program is evaluated: ``(program, budget) -> (ok, value text, type text, error)``.
# The default runs the sandboxed evaluator in this process (the CLI, the tests); the language
# server supplies one that runs it in a supervised worker process it can kill, because a
# budget checked between evaluator steps cannot stop a regexp backtracking inside C code.
Evaluator = Callable[[str, "PreviewBudget"], tuple]


DEFAULT_NODE = "node.example.com"
# The agent version previews assume ($clientversion): the Puppet 7 series puppet-ls follows.
AGENT_VERSION = "7.23.0"
# Variables the evaluator's top scope defines from a preview context.
_CONTEXT_VARIABLES = frozenset({"facts", "trusted", "server_facts", "environment"})
# Variables Puppet binds in a class scope whose value the class's own name gives.
_CLASS_BUILTINS = frozenset({"title", "name", "module_name"})


@dataclass(eq=False)
class PreviewContext:
    """What previews know of the node: its facts (a built-in fact set or the user's facts file)
    and its name (``$trusted['certname']``)."""

    facts: dict
    node: str = DEFAULT_NODE
    label: str = ""                 # where the facts come from ("debian12", a file name)
    _key: str = field(default="", repr=False)
    # class name -> the Analysis of the file defining it (the workspace's, read by the caller),
    # so that other classes' variables ($apache::params::user) are known too; None: this file only
    classes: Callable[[str], Analysis | None] | None = field(default=None, repr=False)
    # automatic parameter lookup (Hiera, read by the caller): (class, parameter) -> None when
    # the data have no value (the default applies), else (the value as Puppet source, or None
    # when it is not known for this node; where it comes from, "hiera <file>")
    parameters: Callable[[str, str], tuple | None] | None = field(default=None, repr=False)

    def bound(self, class_name: str, param: str) -> tuple | None:
        """What automatic parameter lookup gives ``class_name::param`` (see ``parameters``)."""
        if self.parameters is None:
            return None
        return self.parameters(class_name.lower().removeprefix("::"), param)

    @property
    def key(self) -> str:
        """A digest of the context: part of every cached answer's key."""
        if not self._key:
            text = json.dumps([self.facts, self.node], sort_keys=True, default=str)
            self._key = hashlib.sha1(text.encode()).hexdigest()
        return self._key

    def trusted(self) -> dict:
        host, _, domain = self.node.partition(".")
        return {"authenticated": "remote", "certname": self.node, "domain": domain, "hostname": host,
                "extensions": {}, "external": {}}

    def evaluator_settings(self) -> dict:
        """The evaluator's settings (``eval.context.Settings.from_dict``) for this node, with
        the facts an agent adds to Facter's when it asks for its catalog."""
        facts = dict(self.facts)
        for k, v in (("clientcert", self.node), ("clientversion", AGENT_VERSION), ("clientnoop", False)):
            facts.setdefault(k, v)
        return {"facts": facts, "node_name": self.node, "trusted": self.trusted()}

    def to_json(self) -> dict:
        return {"facts": self.facts, "node": self.node, "label": self.label}

    @classmethod
    def from_json(cls, d: dict) -> PreviewContext:
        return cls(d.get("facts") or {}, d.get("node") or DEFAULT_NODE, d.get("label") or "")


def facts_of_document(doc) -> dict:
    """The facts in a parsed facts file: ``facter --json`` (the facts themselves) or ``puppet
    facts`` (``{"name": ..., "values": {...}}``).  ValueError says what is wrong."""
    if isinstance(doc, dict) and isinstance(doc.get("values"), dict) and "name" in doc:
        doc = doc["values"]
    if not isinstance(doc, dict):
        raise ValueError("a facts file must hold a map of fact names to values")  # noqa: TRY004 - callers report a bad file as one kind of problem
    bad = [k for k in doc if not isinstance(k, str)]
    if bad:
        raise ValueError(f"fact names must be strings, got {bad[0]!r}")
    return doc


def make_context(facts: dict, node: str | None = None, label: str = "", rename: bool = False) -> PreviewContext:
    """A context for ``facts``; ``node`` names the node (default: the facts' own FQDN).  With
    ``rename`` (a built-in set, whose name is a placeholder) the facts that hold the node's name
    are set from ``node``."""
    facts = copy.deepcopy(facts)
    net = facts.get("networking") if isinstance(facts.get("networking"), dict) else None
    if node and rename:
        host, _, domain = node.partition(".")
        names = {"fqdn": node, "hostname": host, "domain": domain}
        if net is not None:
            net.update(names)
        for k, v in names.items():
            if k in facts:
                facts[k] = v
    if not node:
        fqdn = net.get("fqdn") if net is not None else facts.get("fqdn")
        node = fqdn if isinstance(fqdn, str) and fqdn else DEFAULT_NODE
    return PreviewContext(facts, node, label)


@dataclass
class PreviewBudget:
    """Limits for one request: evaluator steps and seconds per expression, and the wall time
    all previews of one request may take together; ``evaluator`` (None: in this process) is
    carried with the budget so that every ide function that previews uses the caller's."""

    steps: int = 20_000
    seconds: float = 0.05
    total_seconds: float = 0.3
    evaluator: Evaluator | None = None
    context: PreviewContext | None = None


@dataclass
class _Unit:
    """A statement a preview's program repeats: an assignment, a whole ``case``/``if`` that
    assigns in its branches, or a class parameter given its default."""

    offset: int
    text: str
    name: str | None = None         # the variable it assigns, when a single one
    node: SyntaxNode | None = None


class _Deps:
    """Which statements an expression depends on, and whether all of them are known."""

    def __init__(self, an: Analysis, context: PreviewContext | None = None, shared: dict | None = None):
        self.an = an
        self.model = an.model
        self.context = context
        # other classes' statements this expression needs: class -> {key: _Unit}, and which
        # classes each needs first (shared by the _Deps of every file involved)
        self.shared = shared if shared is not None else {"units": {}, "needs": {}, "deps": {}, "busy": set()}
        self.owner: str | None = None      # the class whose statements this _Deps collects (foreign)

    def free_references(self, start: int, end: int) -> list:
        """References inside [start, end) whose definition lies outside it."""
        out = []
        for r in self.model.references:
            if start <= r.offset < end:
                t = r.target
                if t is not None and start <= t.offset < end:
                    continue
                out.append(r)
        return out

    def static_closure(self, start: int, end: int, depth: int = 0) -> list | None:
        """The statements (in source order) an expression needs, or None when it reads
        something that is not known."""
        return self.closure([(start, end)], depth)

    def closure(self, ranges: list, depth: int = 0) -> list | None:
        needed: dict = {}
        for start, end in ranges:
            if not self._collect(start, end, needed, depth):
                return None
        return sorted(needed.values(), key=lambda u: u.offset)

    def _known_outside(self, r, inherited: bool = False) -> bool:
        """Is a variable that no statement of the file assigns known from the context?"""
        ctx = self.context
        if ctx is None:
            return False
        name = r.name.removeprefix("::")
        if "::" in name:
            return False
        if name in _CONTEXT_VARIABLES:
            return r.status in ("builtin", "qualified", "unresolved")
        # a top-scope fact ($osfamily, $::osfamily), as Puppet 7 still sets them
        return (inherited or r.status in ("qualified", "unresolved")) and name in ctx.facts

    def _collect(self, start: int, end: int, needed: dict, depth: int) -> bool:
        if depth > 30:
            return False
        for r in self.free_references(start, end):
            d = r.target
            if d is None and r.status == "builtin" and r.name in _CLASS_BUILTINS:
                if not self._class_builtin(r, needed):
                    return False
                continue
            if d is None and (r.status == "qualified" or r.status.startswith("inherited:")):
                if self._known_outside(r):
                    if r.name.lstrip(":") == "facts" and not self._fact_known(r):
                        return False
                    continue
                if self._other_class(r, needed):
                    continue
                if r.status.startswith("inherited:") and self._known_outside(r, inherited=True):
                    continue         # not the parent's: a top-scope fact ($osfamily)
                return False
            if d is None or r.status != "local":
                if not self._known_outside(r):
                    return False
                if r.name.lstrip(":") == "facts" and not self._fact_known(r):
                    return False
                continue
            if d.offset > r.offset and d.kind == "variable":
                return False         # read before it is assigned: undef at run time
            if d.kind == "parameter":
                if not self._parameter(d, needed, depth):
                    return False
                continue
            if d.kind != "variable":
                return False
            for each in d.scope.variables.get(d.name, ()):
                if each.offset > r.offset and each.scope is r.scope.definition_scope:
                    continue         # assigned after the use (Puppet would refuse the reassignment)
                if not self._statement(each, needed, depth):
                    return False
        return True

    def _class_builtin(self, r, needed: dict) -> bool:
        """``$title`` and ``$name`` read in a class are its name; ``$module_name`` is its module:
        the first segment of a qualified name, where the autoloader found it (a one-segment
        name may be a module's main class or site code, which only the file's place tells)."""
        if self.context is None:
            return False
        scope = r.scope.definition_scope
        if scope.kind != "class" or not scope.name:
            return False
        cls = scope.name.lower().lstrip(":")
        if r.name == "module_name":
            if "::" not in cls:
                return False
            value = cls.split("::")[0]
        else:
            value = cls
        if self.owner is not None:
            # evaluated as a class of its own, whose $title and $name the evaluator binds
            return r.name != "module_name"
        needed.setdefault(("builtin", r.name), _Unit(-1, f"${r.name} = '{value}'", r.name, None))
        return True

    def _other_class(self, r, needed: dict) -> bool:
        """A variable of a class in another file (``$apache::params::user``, or ``$user`` in a
        class inheriting ``apache::params``): known when that class's statement assigning it
        is, through the context's ``classes``."""
        ctx = self.context
        if ctx is None or ctx.classes is None:
            return False
        if r.status.startswith("inherited:"):
            cls, var, alias = r.status.split(":", 1)[1], r.name, True
        else:
            cls, _, var = r.name.lstrip(":").rpartition("::")
            alias = False
        cls = cls.lstrip(":").lower()
        if not cls or not var:
            return False
        if not self._class_variable(cls, var):
            return False
        if self.owner is not None:
            self.shared["needs"].setdefault(self.owner, set()).add(cls)
        else:
            self.shared["needs"].setdefault(None, set()).add(cls)
        if alias:
            # read unqualified in an inheriting class: the program reads it qualified
            key = ("alias", var)
            if key not in needed:
                needed[key] = _Unit(-1, f"${var} = ${cls}::{var}", var, None)
        return True

    def _class_variable(self, cls: str, var: str) -> bool:
        shared = self.shared
        if (cls, var) in shared["busy"]:
            return True                  # being collected (a cycle ends in the evaluator)
        other = shared["deps"].get(cls)
        if other is None:
            an = self.context.classes(cls) if self.context is not None and self.context.classes else None
            if an is None:
                return False
            other = _Deps(an, self.context, shared)
            other.owner = cls
            shared["deps"][cls] = other
        scope = next((c for c in other.model.top.children if c.kind == "class" and c.name.lstrip(":").lower() == cls),
                     None)
        if scope is None:
            return False
        defs = scope.variables.get(var)
        if not defs:
            return False
        units = shared["units"].setdefault(cls, {})
        shared["busy"].add((cls, var))
        try:
            for d in defs:
                ok = other._parameter(d, units, 1) if d.kind == "parameter" else \
                    d.kind == "variable" and other._statement(d, units, 1)
                if not ok:
                    return False
        finally:
            shared["busy"].discard((cls, var))
        return True

    def prelude(self) -> str | None:
        """The other classes' statements, each class as a class of its own that is included,
        those a class needs first (None when two need each other)."""
        needs, units = self.shared["needs"], self.shared["units"]
        order: list = []
        state: dict = {}

        def visit(c) -> bool:
            if state.get(c) == 2:
                return True
            if state.get(c) == 1:
                return False
            state[c] = 1
            for n in sorted(needs.get(c, ())):
                if not visit(n):
                    return False
            state[c] = 2
            if c is not None:
                order.append(c)
            return True
        if not visit(None):
            return None
        parts = []
        for c in order:
            body = "\n".join(u.text for u in sorted(units.get(c, {}).values(), key=lambda u: u.offset))
            parts.append(f"class {c} {{\n{body}\n}}\ninclude {c}")
        return "\n".join(parts)

    def _parameter(self, d: Definition, needed: dict, depth: int) -> bool:
        """A class parameter, known when a context is chosen: the value automatic parameter
        lookup gives it (Hiera), else its default (a declaration elsewhere with a value is not
        known here)."""
        if self.context is None or d.scope.kind != "class":
            return False
        key = (d.node.offset, d.node.kind)
        if key in needed:
            return True
        bound = self.context.bound(d.scope.name, d.name)
        if bound is not None:
            if bound[0] is None:
                return False             # Hiera's answer depends on what the fact set lacks
            needed[key] = _Unit(d.offset, f"${d.name} = {bound[0]}", d.name, d.node)
            return True
        default = A.Param(d.node).default()
        if default is None:
            return False
        needed[key] = _Unit(d.offset, f"${d.name} = {default.syntax.trimmed_text()}", d.name, d.node)
        return self._collect(default.syntax.offset, default.syntax.end, needed, depth + 1)

    def _statement(self, d: Definition, needed: dict, depth: int) -> bool:
        """The statement of ``d``'s scope that assigns it, and what that statement reads."""
        if d.index is not None:
            return False             # destructuring: its right side is not the variable's value
        body = _body(d.scope.definition_scope.node)
        node = d.node
        while node.parent is not None and not _same(node.parent, body):
            node = node.parent
        if node.parent is None:
            return False
        key = (node.offset, node.kind)
        if key in needed:
            return True
        if _same(node, d.node):
            right = A.Assignment(d.node).right()
            if right is None:
                return False
            needed[key] = _Unit(node.offset, _strip_comments(node), d.name, node)
            return self._collect(right.syntax.offset, right.syntax.end, needed, depth + 1)
        # assigned in a branch: the whole statement decides which value it gets
        if self.context is None and node.kind not in (K.IF_EXPR, K.UNLESS_EXPR, K.CASE_EXPR):
            return False
        needed[key] = _Unit(node.offset, _strip_comments(node), None, node)
        return self._collect(node.offset, node.end, needed, depth + 1)

    def _fact_known(self, r) -> bool:
        """``$facts[k1][k2]…`` with literal keys names a fact the set has (a fact it lacks is
        unknown: the node may have it)."""
        ctx = self.context
        if ctx is None:
            return False
        tok = self.an.result.root.token_at(r.offset)
        n = tok.parent if tok is not None else None
        if n is None or n.kind != K.VARIABLE_EXPR:
            return True
        value = ctx.facts
        while n.parent is not None and n.parent.kind == K.ACCESS_EXPR:
            access = A.AccessExpr(n.parent)
            target = access.target()
            if target is None or target.syntax.offset != n.offset or target.syntax.kind != n.kind:
                break
            keys = access.keys()
            key = _literal_key(keys[0]) if len(keys) == 1 else None
            if key is None or not isinstance(value, dict):
                return True
            if key not in value:
                return False
            value = value[key]
            n = n.parent
        return True


def _literal_key(v) -> str | None:
    if isinstance(v, A.Literal):
        k = v.value()
        return k if isinstance(k, str) else None
    if isinstance(v, A.DqString):
        parts = v.parts()
        if all(isinstance(p, str) for p in parts):
            return "".join(parts)
    return None


def _same(a: SyntaxNode, b: SyntaxNode) -> bool:
    """Are two red nodes (made on demand, so not identical objects) the same node?"""
    return a.green is b.green and a.offset == b.offset


def _body(scope_node: SyntaxNode) -> SyntaxNode:
    """The node whose children are the statements of a scope."""
    if scope_node.kind in (K.SOURCE_FILE, K.EPP_FILE):
        return scope_node
    block = scope_node.child(K.BLOCK)
    return block if block is not None else scope_node


def _program(an: Analysis, deps: list, expr_text: str, prelude: str | None = "") -> str | None:
    if prelude is None:
        return None
    names: dict = {}
    lines = [prelude] if prelude else []
    for u in deps:
        # Two dependencies with one name from different scopes cannot share a flat program.
        if u.name is not None:
            prev = names.get(u.name)
            if prev is not None and prev != u.offset:
                return None
            names[u.name] = u.offset
        lines.append(u.text)
    lines.append(expr_text)
    return "\n".join(lines)


def _strip_comments(node: SyntaxNode) -> str:
    return node.trimmed_text()


def evaluate_source(program: str, budget: PreviewBudget) -> tuple:
    """(ok, value text, type text, error) of evaluating ``program`` in the sandbox, with the
    budget's evaluator when it has one."""
    if budget.evaluator is not None:
        return budget.evaluator(program, budget)
    return evaluate_in_process(program, budget)


def evaluate_in_process(program: str, budget: PreviewBudget) -> tuple:
    """The default evaluator: the sandbox in this process, bounded only by its own budget."""
    try:
        from ..eval.api import evaluate_text, render_value
        from ..eval.budget import Budget
    except ImportError as exc:      # the evaluator is optional: no previews without it
        return False, "", "", f"the evaluator is not available: {exc}"
    ctx = budget.context
    if ctx is None:
        res = evaluate_text(program, budget=Budget(steps=budget.steps, seconds=budget.seconds))
    else:
        # in a node scope, so that the program's variables may share names with top-scope facts
        res = evaluate_text(program, ctx.evaluator_settings(), Budget(steps=budget.steps, seconds=budget.seconds),
                            scope="node")
    if not res.ok:
        err = res.error
        return False, "", "", (err.basic_message if err is not None else "evaluation failed")
    r = render_value(res.value)
    return True, r.get("repr", ""), r.get("type", ""), ""


def preview_expression(an: Analysis, node: SyntaxNode, budget: PreviewBudget | None = None) -> Preview | None:
    """The value of one expression when it is known (None otherwise)."""
    budget = budget or PreviewBudget()
    if node.green.width > MAX_PREVIEW_SOURCE:
        return None
    start, end = node.range
    finder = _Deps(an, budget.context)
    deps = finder.static_closure(start, end)
    if deps is None:
        return None
    program = _program(an, deps, node.trimmed_text(), finder.prelude())
    if program is None:
        return None
    ok, value, type_text, _error = evaluate_source(program, budget)
    if not ok:
        return None
    return Preview(end, value, type_text)


def preview_definition(an: Analysis, d: Definition, budget: PreviewBudget | None = None) -> Preview | None:
    """The value a variable gets where it is assigned, when static."""
    if d.kind != "variable" or d.index is not None:
        return None
    right = A.Assignment(d.node).right()
    if right is None:
        return None
    return preview_expression(an, right.syntax, budget)


def previews(an: Analysis, start: int, end: int, budget: PreviewBudget | None = None) -> list:
    """Previews for the assignments and value-producing top-level expressions whose statement
    starts in [start, end), until the request's time budget is spent."""
    budget = budget or PreviewBudget()
    deadline = time.monotonic() + budget.total_seconds
    out = []
    for node in _candidates(an.result.root, start, end):
        if time.monotonic() > deadline:
            break
        if node.kind == K.PARAM:
            p = parameter_preview(an, node, budget)
            if p is not None:
                out.append(p)
        elif node.kind == K.ATTRIBUTE_OP:
            # a resource attribute's final value (``ensure => $package_ensure  ⟶ 'present'``)
            value = A.AttributeOp(node).value()
            if value is None or value.syntax.kind == K.ERROR or _trivial(value) or not _worth_showing(value.syntax):
                continue
            p = preview_expression(an, value.syntax, budget)
            if p is not None:
                out.append(p)
        elif node.kind == K.ASSIGNMENT:
            a = A.Assignment(node)
            if a.op_kind != K.EQUALS or not isinstance(a.left(), A.VariableExpr):
                continue
            right = a.right()
            if right is None or _trivial(right):
                continue
            p = preview_expression(an, right.syntax, budget)
            if p is not None:
                p.offset = node.range[1]
                out.append(p)
        else:
            p = preview_expression(an, node, budget)
            if p is not None and p.value != "undef":
                out.append(p)
    out.sort(key=lambda p: p.offset)
    return out


def _trivial(expr) -> bool:
    """Is the value exactly what is written (a literal)?"""
    if isinstance(expr, (A.Literal, A.QName, A.TypeRef)):
        return True
    if isinstance(expr, A.AccessExpr) and isinstance(expr.target(), A.TypeRef):
        return True           # a type such as Optional[String]
    if isinstance(expr, A.DqString):
        return all(isinstance(p, str) for p in expr.parts())
    if isinstance(expr, (A.Array, A.Hash)):
        return all(_trivial(e) for e in (expr.elements() if isinstance(expr, A.Array)
                                          else [x for en in expr.entries() for x in (en.key(), en.value())]))
    return False


def _candidates(root: SyntaxNode, start: int, end: int):
    """Statements (of any block) starting in [start, end)."""
    stack = [root]
    while stack:
        node = stack.pop()
        for c in reversed(list(node.children())):
            if c.end < start or c.offset > end:
                continue
            k = c.kind
            if _is_class_param(c):
                if start <= c.range[0] < end:
                    yield c          # its effective value: Hiera's, else the default's
                continue
            inner = _decisive_part(c)
            if inner is not None and start <= inner.range[0] < end and not _trivial(A.view(inner)):
                yield inner          # what a conditional decides on, a resource's title
            if k == K.ATTRIBUTE_OP:
                if start <= c.range[0] < end:
                    yield c
            elif k == K.ASSIGNMENT or k in _VALUE_KINDS:
                if node.kind in (K.BLOCK, K.SOURCE_FILE) and start <= c.range[0] < end \
                        and (k == K.ASSIGNMENT or _worth_showing(c)):
                    yield c
                if k == K.ASSIGNMENT:
                    continue
            if k in (K.HEREDOC_BODY,):
                continue
            stack.append(c)


def _decisive_part(node: SyntaxNode) -> SyntaxNode | None:
    """The condition of an ``if``/``unless``/``elsif``, the test of a ``case`` or the title of
    a resource body: previewed beside the statement's own value."""
    k = node.kind
    part = None
    if k in (K.IF_EXPR, K.UNLESS_EXPR):
        part = A.IfExpr(node).condition()
    elif k == K.CASE_EXPR:
        part = A.CaseExpr(node).test()
    elif k == K.RESOURCE_BODY:
        part = A.ResourceBody(node).title()
    return part.syntax if part is not None and part.syntax.kind != K.ERROR else None


def _is_class_param(node: SyntaxNode) -> bool:
    return node.kind == K.PARAM and node.parent is not None and node.parent.parent is not None \
        and node.parent.parent.kind == K.CLASS_DEF


def parameter_preview(an: Analysis, param: SyntaxNode, budget: PreviewBudget | None = None) -> Preview | None:
    """A class parameter's effective value when the class is declared without it: what
    automatic parameter lookup (Hiera) gives it on the context's node, else its default's
    value; shown at the end of the declaration with where it comes from.  None when unknown,
    or when it is a literal default (its value is what is written)."""
    budget = budget or PreviewBudget()
    if not _is_class_param(param):
        return None
    ctx = budget.context
    view = A.Param(param)
    owner = A.ClassDef(param.parent.parent) if param.parent is not None and param.parent.parent is not None else None
    cls = owner.qualified_name if owner is not None else None
    bound = ctx.bound(cls, view.name) if ctx is not None and isinstance(cls, str) and cls and view.name else None
    if bound is not None:
        if bound[0] is None:
            return None
        ok, value, type_text, _error = evaluate_source(bound[0], budget)
        return Preview(param.range[1], value, type_text, origin=bound[1]) if ok else None
    default = view.default()
    if default is None or default.syntax.kind == K.ERROR or _trivial(default):
        return None
    p = preview_expression(an, default.syntax, budget)
    if p is not None:
        p.origin = "default"
    return p


def _worth_showing(node: SyntaxNode) -> bool:
    v = A.view(node)
    if isinstance(v, (A.CallExpr, A.MethodCall)):
        facts = function(v.name or "")
        return facts is None or not facts.for_effect
    return True


def evaluate_range(an: Analysis, start: int, end: int, budget: PreviewBudget | None = None) -> Preview:
    """Evaluate the text in [start, end) ("evaluate selection"), with the static assignments it
    reads; the result says why when it cannot be evaluated."""
    budget = budget or PreviewBudget(steps=200_000, seconds=1.0, total_seconds=1.0)
    text = an.result.text[start:end]
    if not text.strip():
        return Preview(end, "", "", False, "nothing selected")
    deps = _Deps(an, budget.context)
    missing = [("$" + r.name) for r in deps.free_references(start, end)
               if (r.target is None or r.status != "local" or r.target.kind not in ("variable", "parameter"))
               and not deps._known_outside(r) and not deps._collect(r.offset, r.end, {}, 0)]
    if missing:
        names = ", ".join(sorted(set(missing)))
        return Preview(end, "", "", False, f"cannot evaluate: the value of {names} is not known before a catalog is compiled")
    closure = deps.static_closure(start, end)
    if closure is None:
        return Preview(end, "", "", False, "cannot evaluate: it reads variables whose values are not known"
                       + ("" if budget.context is not None else " (choose a fact set to use facts and parameter defaults)"))
    program = _program(an, closure, text, deps.prelude())
    if program is None:
        return Preview(end, "", "", False, "cannot evaluate: variables of different scopes share a name")
    ok, value, type_text, error = evaluate_source(program, budget)
    return Preview(end, value, type_text, ok, error)


@dataclass
class Branch:
    """An ``if``/``unless``/``case``/selector whose choice is known: the parts not taken."""

    offset: int                      # the construct
    end: int
    taken: int | None                # index of the branch taken (None: none is)
    unreached: list                  # [(start, end)] of the branches not taken


def _branches_of(node: SyntaxNode) -> tuple | None:
    """(probe program text with every branch replaced by its index, [(start, end) of each
    branch], [(start, end) of what decides]) for a conditional construct."""
    k = node.kind
    spans: list
    tests: list
    if k in (K.IF_EXPR, K.UNLESS_EXPR):
        parts: list = []
        spans, tests = [], []
        cur: A.IfExpr | None = A.UnlessExpr(node) if k == K.UNLESS_EXPR else A.IfExpr(node)
        first = True
        while cur is not None:
            cond, then = cur.condition(), cur.then_block()
            if cond is None or then is None:
                return None
            kw = cur.keyword if first else "elsif"
            parts.append(f"{kw} {cond.syntax.trimmed_text()} {{ {len(spans)} }}")
            spans.append(then.syntax.range)
            tests.append(cond.syntax.range)
            els = cur.else_block()
            nxt = cur.elsif()
            if nxt is None and els is not None:
                parts.append(f"else {{ {len(spans)} }}")
                spans.append(els.syntax.range)
            cur = nxt
            first = False
        return " ".join(parts), spans, tests
    if k == K.CASE_EXPR:
        case = A.CaseExpr(node)
        test = case.test()
        if test is None:
            return None
        opts: list = []
        spans, tests = [], [test.syntax.range]
        for o in case.options():
            values = [v for v in o.values() if v.syntax.kind != K.BLOCK]
            if not values:
                return None
            opts.append(f"{', '.join(v.syntax.trimmed_text() for v in values)}: {{ {len(spans)} }}")
            spans.append(o.syntax.range)
            tests.extend(v.syntax.range for v in values)
        return f"case {test.syntax.trimmed_text()} {{ {' '.join(opts)} }}", spans, tests
    if k == K.SELECTOR_EXPR:
        sel = A.SelectorExpr(node)
        test = sel.test()
        if test is None:
            return None
        entries: list = []
        spans, tests = [], [test.syntax.range]
        for e in sel.entries():
            m = e.matching()
            if m is None:
                return None
            entries.append(f"{m.syntax.trimmed_text()} => {len(spans)}")
            spans.append(e.syntax.range)
            tests.append(m.syntax.range)
        return f"({test.syntax.trimmed_text()}) ? {{ {', '.join(entries)} }}", spans, tests
    return None


def unreached_message(ctx: PreviewContext) -> str:
    """What a branch the node does not take is labelled with."""
    return issue("UNREACHED_BRANCH").format(node=ctx.node, facts=ctx.label or "a facts file")


_CONDITIONAL_KINDS = frozenset({K.IF_EXPR, K.UNLESS_EXPR, K.CASE_EXPR, K.SELECTOR_EXPR})


def branches(an: Analysis, start: int, end: int, budget: PreviewBudget | None = None,
             every: bool = False) -> list:
    """The conditionals starting in [start, end) whose choice is known, with the branches the
    node does not take (for the ``unnecessary`` tag); never the inner ones of a branch not
    taken, and only as many as the request's time budget allows.  ``every``: also those that
    leave no branch out (an ``if`` without ``else`` whose condition holds)."""
    budget = budget or PreviewBudget()
    deadline = time.monotonic() + budget.total_seconds
    out: list = []
    skip_until = -1
    for node in an.result.root.descendants():
        if node.kind not in _CONDITIONAL_KINDS or node.kind == K.IF_EXPR and node.parent is not None \
                and node.parent.kind == K.ELSIF_CLAUSE:
            continue
        if node.offset < skip_until or not start <= node.range[0] < end:
            continue
        if time.monotonic() > deadline:
            break
        shape = _branches_of(node)
        if shape is None:
            continue
        probe, spans, tests = shape
        deps = _Deps(an, budget.context)
        closure = deps.closure(tests)
        if closure is None:
            continue
        program = _program(an, closure, probe, deps.prelude())
        if program is None:
            continue
        ok, value, _t, _e = evaluate_source(program, budget)
        if not ok:
            continue
        taken = int(value) if value.isdigit() else None
        if taken is None and value != "undef":
            continue
        unreached = [sp for i, sp in enumerate(spans) if i != taken]
        if unreached or every:
            out.append(Branch(node.range[0], node.range[1], taken, unreached))
            skip_until = max(skip_until, max((e for _s, e in unreached), default=-1))
    return out


# Where a walk up from a call stops: what it is in runs when something else decides.
_RUN_ELSEWHERE = frozenset({K.LAMBDA, K.FUNCTION_DEF, K.DEFINE_DEF, K.NODE_DEF, K.CLASS_DEF, K.PLAN_DEF})


def node_findings(an: Analysis, budget: PreviewBudget) -> list:
    """What the context's node runs into that another node would not (``check --facts``): a
    ``fail()`` every enclosing ``if``/``unless``/``case``/selector of which the node's facts
    decide, and decide to reach (``NODE_FAILS``, with the message when it is known).  A call
    that fails whatever the facts, or sits in a lambda or where a decision is unknown, is not
    reported."""
    from ..diagnostics import Diagnostic
    ctx = budget.context
    if ctx is None:
        return []
    calls = [n for n in an.result.root.descendants()
             if n.kind == K.CALL_EXPR and A.CallExpr(n).name == "fail"]
    if not calls:
        return []
    decided = {b.offset: b for b in branches(an, 0, len(an.result.text), budget, every=True)}
    out = []
    for call in calls:
        start = call.range[0]
        conditions = 0
        reached = True
        node = call.parent
        while node is not None and node.kind not in _RUN_ELSEWHERE:
            if node.kind in _CONDITIONAL_KINDS and not (node.kind == K.IF_EXPR and node.parent is not None
                                                        and node.parent.kind == K.ELSIF_CLAUSE):
                b = decided.get(node.range[0])
                if b is None or any(s <= start < e for s, e in b.unreached):
                    reached = False
                    break
                conditions += 1
            node = node.parent
        if not reached or conditions == 0 or node is not None and node.kind == K.LAMBDA:
            continue
        args = A.CallExpr(call).args()
        message = args[0].syntax.trimmed_text() if args else ""
        if args:
            p = preview_expression(an, args[0].syntax, budget)
            if p is not None:
                message = p.value
        out.append(Diagnostic.of("NODE_FAILS", call.range[0], call.range[1], node=ctx.node,
                                 facts=ctx.label or "a facts file", message=message))
    return out


@dataclass
class CatalogPreview:
    """The catalog a class would produce on the context's node (``puppet-ls preview``)."""

    ok: bool
    error: str = ""
    error_offset: int | None = None
    # dicts: ref, type, title, container, parameters, unknown, sensitive (the parameters whose value
    # is or holds a Sensitive: shown redacted, as Puppet's reports and logs show them)
    resources: list = field(default_factory=list)
    relationships: list = field(default_factory=list)  # (source ref, arrow, target ref)
    notices: list = field(default_factory=list)
    missing_class: str | None = None                    # the class or defined type to load and retry with
    missing_type: str | None = None

    def redacted(self) -> CatalogPreview:
        """This catalog with each sensitive parameter's value shown as Puppet shows a Sensitive."""
        resources = [{**r, "parameters": {k: REDACTED_INSPECT if k in r["sensitive"] else v
                                          for k, v in r["parameters"].items()}} for r in self.resources]
        return replace(self, resources=resources)

    def to_json(self) -> dict:
        out: dict = {"ok": self.ok, "resources": self.resources,
                     "relationships": [list(r) for r in self.relationships], "notices": self.notices}
        if not self.ok:
            out["error"] = self.error
        return out


def preview_catalog(program: str, context: PreviewContext, steps: int = 2_000_000, seconds: float = 10.0,
                    resource_types: frozenset = frozenset(), functions: frozenset = frozenset(),
                    templates: dict | None = None,
                    parameter_lookup: Callable[[str, str], tuple | None] | None = None) -> CatalogPreview:
    """Compile ``program`` (definitions followed by ``include <class>``) for the context's node
    in the sandbox: functions that need the outside world, and functions it does not have,
    give unknown values (never run); ``resource_types`` are the modules' own (Ruby) types, ``functions``
    their Ruby functions (those of stdlib that the evaluator re-implements are called), ``templates``
    the EPP templates ``epp()`` may render (``"<module>/<file>"`` -> text); ``parameter_lookup``
    is automatic parameter lookup, (class, parameter) -> (value,) or None (the evaluator's
    ``Settings.parameter_lookup``).  A class or defined type it does not find is named in
    ``missing_class``/``missing_type``, for a caller that can load more sources to retry."""
    from ..eval.api import compile_catalog          # lazy: ide imports eval only here
    from ..eval.budget import Budget
    from ..eval.context import Unknown
    from ..eval.conformance import canonical
    # Puppet 7's strictness, as its server compiles a catalog: an unknown variable (a fact the
    # set lacks, $::os_service_default) warns and is undef instead of failing the whole catalog
    settings = dict(context.evaluator_settings(), unknown_outside=True, extra_resource_types=resource_types,
                    module_functions=functions, templates=templates or {}, strict="warning",
                    strict_variables=False, parameter_lookup=parameter_lookup)
    res = compile_catalog(program, settings, Budget(steps=steps, seconds=seconds))
    if not res.ok or res.catalog is None:
        err = res.error
        text = err.basic_message if err is not None else "the catalog could not be compiled"
        out = CatalogPreview(False, text, err.offset if err is not None else None)
        code = err.code if err is not None else None
        if code == "UNKNOWN_CLASS" or "Could not find" in text and "class" in text:
            out.missing_class = _quoted_name(text)
        elif code in ("UNKNOWN_RESOURCE_TYPE",) or "Unknown resource type" in text or "Resource type not found" in text \
                or "unresolved type" in text:
            out.missing_type = _quoted_name(text)
        return out
    out = CatalogPreview(True, notices=[log.message for log in res.logs if log.level == "notice"])
    for r in res.catalog.visible_resources():
        if r.type_name == "Class" and r.title == "main":
            continue
        params, unknown, sensitive = {}, [], []
        for k, v in sorted(r.params.items()):
            try:
                params[k] = canonical(v)
            except Exception:  # noqa: BLE001 - isolation boundary: one odd value must not lose the catalog
                params[k] = repr(v)
            if isinstance(v, Unknown) or "⟨unknown: " in params[k]:
                unknown.append(k)
            if holds(v, Sensitive):
                sensitive.append(k)
        ref = f"Class[{_cap(r.title)}]" if r.type_name == "Class" else r.ref
        out.resources.append({"ref": ref, "type": r.type_name, "title": r.title, "container": _container(r),
                              "parameters": params, "unknown": unknown, "sensitive": sensitive})
    for left, op, right, _node in res.catalog.expanded_relationships():
        for a in left:
            for b in right:
                out.relationships.append((_ref_text(a), op, _ref_text(b)))
    return out


def _quoted_name(text: str) -> str | None:
    m = re.search(r"class ::?([\w:]+)|class ([\w:]+)|type not found: ([\w:]+)|resource type: '([\w:]+)|unresolved type '([\w:]+)", text)
    if m is None:
        return None
    return next(g for g in m.groups() if g).lower()


def _container(r) -> str:
    if r.type_name == "Stage":
        return ""                      # a run stage is in nothing
    if r.type_name == "Class":
        owner = r.contained_in         # contain(): the class or defined type containing it
        if owner is None:
            stage = r.params.get("stage")
            return f"Stage[{stage if isinstance(stage, str) and stage else 'main'}]"
        return f"Class[{_cap(owner.title)}]" if owner.type_name == "Class" else owner.ref
    scope = r.scope
    while scope is not None:
        if scope.kind == "define" and scope.resource is not None and scope.resource is not r:
            return scope.resource.ref
        if scope.kind == "class":
            return f"Class[{_cap(scope.name)}]"
        if scope.kind in ("node", "top"):
            return "Class[Main]" if scope.kind == "top" else f"Node[{scope.name}]"
        scope = scope.parent
    return "Class[Main]"


def _cap(name: str) -> str:
    return "::".join(p[:1].upper() + p[1:] for p in name.split("::"))


def _ref_text(v) -> str:
    from ..types.format import type_to_string
    try:
        return type_to_string(v) if not isinstance(v, str) else v
    except Exception:  # noqa: BLE001 - a reference of an odd shape is shown as Python writes it
        return repr(v)
