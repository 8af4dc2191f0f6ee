"""Evaluated previews: the values of assignments and expressions that can be computed from the
file alone, shown as inlay hints (``$doubled = [1,2,3].map |$x| { $x * 2 }  ⟶ [2, 4, 6]``), in
hovers, and by the "evaluate selection" command.

An expression is *static* when every variable it reads is either defined inside it (a lambda
parameter) or a plain local variable whose own value is static; facts, parameters, built-in
variables and variables of other classes are never static (their values are not known before
a catalog is compiled).  A static expression is evaluated by the sandboxed evaluator
(``puppet_ls.language.eval``) as a small program made of the assignments it depends on followed
by the expression itself, within a step and time budget, so a preview can never touch files,
the network or processes, nor run away.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..check.analysis import Analysis
from ..check.scopes import Definition
from ..knowledge.functions import function
from ..syntax import ast as A
from ..syntax import kinds as K
from ..syntax.tree import SyntaxNode

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

    @property
    def label(self) -> str:
        text = self.value if len(self.value) <= MAX_LABEL else self.value[:MAX_LABEL - 1] + "…"
        return f"⟶ {text}"


# How a program is evaluated: ``(program, budget) -> (ok, value text, type text, error)``.
# The default runs the sandboxed evaluator in this process (the CLI, the tests); the language
# server supplies one that runs it in a supervised worker process it can kill, because a
# budget checked between evaluator steps cannot stop a regexp backtracking inside C code.
Evaluator = Callable[[str, "PreviewBudget"], tuple]


@dataclass
class PreviewBudget:
    """Limits for one request: evaluator steps and seconds per expression, and the wall time
    all previews of one request may take together; ``evaluator`` (None: in this process) is
    carried with the budget so that every ide function that previews uses the caller's."""

    steps: int = 20_000
    seconds: float = 0.05
    total_seconds: float = 0.3
    evaluator: Evaluator | None = None


class _Deps:
    """Which definitions an expression depends on, and whether all of them are static."""

    def __init__(self, an: Analysis):
        self.an = an
        self.model = an.model
        self._static: dict = {}

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
        """The assignments (in source order) an expression needs, or None when it reads
        something that is not static."""
        needed: dict = {}
        if not self._collect(start, end, needed, depth):
            return None
        return sorted(needed.values(), key=lambda d: d.node.offset)

    def _collect(self, start: int, end: int, needed: dict, depth: int) -> bool:
        if depth > 30:
            return False
        for r in self.free_references(start, end):
            d = r.target
            if d is None or r.status != "local" or d.kind != "variable":
                return False
            if d.offset > r.offset:
                return False         # read before it is assigned: undef at run time
            if len(d.scope.variables.get(d.name, ())) != 1:
                return False         # assigned in several branches: depends on the branch taken
            if d.node.parent is None or d.node.parent.kind not in (K.BLOCK, K.SOURCE_FILE, K.EPP_FILE):
                return False         # a conditional assignment
            key = id(d.node)
            if key in needed:
                continue
            needed[key] = d
            right = A.Assignment(d.node).right()
            if right is None:
                return False
            if not self._collect(right.syntax.offset, right.syntax.end, needed, depth + 1):
                return False
        return True


def _program(an: Analysis, deps: list, expr_text: str) -> str | None:
    names: dict = {}
    lines = []
    for d in deps:
        # Two dependencies with one name from different scopes cannot share a flat program.
        prev = names.get(d.name)
        if prev is not None and prev is not d.node:
            return None
        names[d.name] = d.node
        lines.append(_strip_comments(d.node))
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
    res = evaluate_text(program, budget=Budget(steps=budget.steps, seconds=budget.seconds))
    if not res.ok:
        err = res.error
        return False, "", "", (err.basic_message if err is not None else "evaluation failed")
    r = render_value(res.value)
    return True, r.get("repr", ""), r.get("type", ""), ""


def preview_expression(an: Analysis, node: SyntaxNode, budget: PreviewBudget | None = None) -> Preview | None:
    """The value of one expression when it is static (None otherwise)."""
    budget = budget or PreviewBudget()
    if node.green.width > MAX_PREVIEW_SOURCE:
        return None
    start, end = node.range
    deps = _Deps(an).static_closure(start, end)
    if deps is None:
        return None
    program = _program(an, deps, node.trimmed_text())
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
        if node.kind == K.ASSIGNMENT:
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
            if k == K.ASSIGNMENT or k in _VALUE_KINDS:
                if node.kind in (K.BLOCK, K.SOURCE_FILE) and start <= c.range[0] < end \
                        and (k == K.ASSIGNMENT or _worth_showing(c)):
                    yield c
                if k == K.ASSIGNMENT:
                    continue
            if k in (K.HEREDOC_BODY,):
                continue
            stack.append(c)


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
    deps = _Deps(an)
    missing = [("$" + r.name) for r in deps.free_references(start, end)
               if r.target is None or r.status != "local" or r.target.kind != "variable"]
    if missing:
        names = ", ".join(sorted(set(missing)))
        return Preview(end, "", "", False, f"cannot evaluate: the value of {names} is not known before a catalog is compiled")
    closure = deps.static_closure(start, end)
    if closure is None:
        return Preview(end, "", "", False, "cannot evaluate: it reads variables whose values are not static")
    program = _program(an, closure, text)
    if program is None:
        return Preview(end, "", "", False, "cannot evaluate: variables of different scopes share a name")
    ok, value, type_text, error = evaluate_source(program, budget)
    return Preview(end, value, type_text, ok, error)
