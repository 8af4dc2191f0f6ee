"""The check of a ``run_task`` call against the metadata of the task it names (indexed by
``ide/tasks.py``): an unknown parameter, a missing required one, a constant value the
parameter's type rejects.  Bolt makes the same checks before it runs the task.  Arguments
starting with ``_`` are Bolt's options (``_run_as``, ``_catch_errors``, ``_noop``), not task
parameters; an argument hash that is not written out (a variable) is not checked.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..syntax import ast as A
from ..syntax import kinds as K
from ..types import model as m
from ..types.format import format_value, type_to_string
from ..types.relations import is_instance
from .analysis import NOT_CONST, Analysis, has_unresolved
from .env import Entity


def call_task(an: Analysis, node) -> tuple[Entity | None, A.AstNode | None]:
    """The task a ``run_task``/``run_task_with`` call names (when its first argument is a
    constant string and the index has it) and that argument."""
    if node.kind != K.CALL_EXPR:
        return None, None
    args = A.CallExpr(node).args()
    if not args:
        return None, None
    name = an.const_value(args[0])
    if not isinstance(name, str):
        return None, args[0]
    found = an.env.lookup("task", name.lstrip(":").lower())
    return (found[0] if len(found) == 1 else None), args[0]


def check_run_task(an: Analysis, call) -> list[Diagnostic]:
    """Findings of one ``run_task`` call against the task's metadata."""
    task, _ = call_task(an, call.node)
    if task is None:
        return []
    args = A.CallExpr(call.node).args()
    # run_task(name, targets, args?) or run_task(name, targets, description, args?)
    rest = args[2:]
    if rest and not isinstance(rest[0], A.Hash) and isinstance(an.const_value(rest[0]), (str, type(None))):
        rest = rest[1:]
    if len(rest) > 1:
        return []
    if not rest:
        given: dict = {}
        keys: dict = {}
    else:
        h = rest[0]
        if not isinstance(h, A.Hash):
            return []       # a variable: its keys are not known
        given, keys = {}, {}
        for entry in h.entries():
            k = an.const_value(entry.key()) if entry.key() is not None else NOT_CONST
            if not isinstance(k, str):
                return []
            given[k] = an.const_value(entry.value()) if entry.value() is not None else NOT_CONST
            keys[k] = entry.key().range
    out = []
    params = {p.name: p for p in task.params}
    for k, (s, e) in keys.items():
        if k.startswith("_"):
            continue
        if k not in params:
            out.append(Diagnostic.of("TASK_UNKNOWN_PARAMETER", s, e, task=task.name, param=k))
            continue
        v = given[k]
        p = params[k]
        if v is NOT_CONST or not p.type_text:
            continue
        t = an.type_from_text(p.type_text)
        if t is None or has_unresolved(t) or isinstance(t, m.AnyType):
            continue
        if not is_instance(t, v):
            out.append(Diagnostic.of("TASK_PARAMETER_MISMATCH", s, e, task=task.name, param=k,
                                     expected=type_to_string(t), actual=_value_text(v)))
    missing = [p.name for p in task.params if not p.has_default and p.name not in given]
    if missing:
        out.append(Diagnostic.of("TASK_MISSING_PARAMETER", call.offset, call.end, task=task.name,
                                 params=", ".join(f"'{n}'" for n in missing)))
    return out


def _value_text(v) -> str:
    text = format_value(v)
    return text if len(text) <= 40 else text[:39] + "…"
