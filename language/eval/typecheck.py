"""Instance checks and inference that also know the evaluator's own runtime values.

The type system knows every data value; the evaluator adds two kinds it does not: Iterator
values (from ``reverse_each``/``step``) and lambdas (Callable).  These wrappers handle them and
defer everything else to :mod:`puppet_ls.language.types`.
"""
from __future__ import annotations

from typing import Any

from ..types import model as m
from ..types.algebra import infer, infer_set
from ..types.relations import is_assignable, is_instance, resolve
from .iteration import IteratorValue


def _special(v: Any) -> bool:
    return isinstance(v, IteratorValue) or hasattr(v, "callable_type")


def instance_of(t: m.PType, v: Any) -> bool:
    if not _special(v):
        return is_instance(t, v)
    return _special_instance(t, v, 0)


def _special_instance(t: m.PType, v: Any, depth: int) -> bool:
    if depth > 50:
        return False
    rt = resolve(t) if isinstance(t, m.TypeAliasType) else t
    if isinstance(rt, m.AnyType):
        return True
    if isinstance(rt, m.VariantType):
        return any(_special_instance(x, v, depth + 1) for x in rt.types)
    if isinstance(rt, (m.OptionalType, m.NotUndefType)):
        return rt.type is None or _special_instance(rt.type, v, depth + 1)
    if isinstance(v, IteratorValue):
        if isinstance(rt, (m.IteratorType, m.IterableType)):
            return rt.type is None or is_assignable(rt.type, v.element_type)
        return False
    if isinstance(rt, m.CallableType):
        return is_assignable(rt, v.callable_type())
    return False


def infer_set_of(v: Any) -> m.PType:
    if isinstance(v, IteratorValue):
        return m.IteratorType(v.element_type)
    if hasattr(v, "callable_type"):
        return v.callable_type()
    return infer_set(v)


def infer_of(v: Any) -> m.PType:
    if isinstance(v, IteratorValue):
        return m.IteratorType(v.element_type)
    if hasattr(v, "callable_type"):
        return v.callable_type()
    return infer(v)
