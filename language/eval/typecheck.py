"""Instance checks and inference that also know the evaluator's own runtime values.

The type system knows every data value; the evaluator adds two kinds it does not: Iterator
values (from ``reverse_each``/``step``) and lambdas (Callable).  These wrappers handle them and
defer everything else to :mod:`puppet_ls.language.types`.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..types import model as m
from ..types.algebra import infer, infer_set, generalize
from ..types.relations import is_assignable, is_instance, resolve
from .iteration import IteratorValue
from ..messages import render
from .errors import EvalError
from ..types.format import type_to_string
from .objects import uri_parts
from ..types.values import URI
from ..types.errors import TypeSystemError


def _special(v: Any) -> bool:
    return isinstance(v, IteratorValue) or hasattr(v, "callable_type")


def instance_of(t: m.PType, v: Any) -> bool:
    if isinstance(t, m.InitType) and t.type is not None:
        return init_instance(t, v)
    if not _special(v):
        return is_instance(t, v)
    return _special_instance(t, v, 0)


# ``Init[T]`` is checked against the signatures of T's ``new`` function, which the conversions
# define (``eval/convert.py``, a layer above this one, since they check their own arguments with
# ``instance_of``).  The conversions register their look-up here when they are imported.
_new_function_for: Callable[[m.PType], Any] | None = None


def register_new_functions(lookup: Callable[[m.PType], Any]) -> None:
    global _new_function_for
    _new_function_for = lookup


def init_parts(t: m.InitType) -> tuple:
    """(single_type, other_type, has_optional_single) of ``Init[T, args]``, from the
    signatures of T's new function (Puppet's PInitType#assert_initialized)."""
    inner = t.type
    assert inner is not None, "a bare Init is handled by the callers"
    fn = None
    if not isinstance(inner, (m.InitType, m.OptionalType, m.NotUndefType)):
        try:
            fn = _new_function_for(inner) if _new_function_for is not None else None
        except (TypeSystemError, RecursionError):
            fn = None
    if fn is None:
        raise EvalError(render("CREATION_NEW_INSTANCE_TYPE_NOT", type_text=type_to_string(inner)))
    tuples = []
    for d in fn.dispatches:
        types, _, (lo, hi), *_ = d._compile()
        tuples.append((types, lo, hi))
    singles = [inner]
    others = []
    if not t.args:
        for types, lo, hi in tuples:
            if (lo, hi) == (1, 1):
                singles.append(types[0])
            else:
                others.append((types, lo, hi))
    else:
        arg_types = [infer_set(a) for a in t.args]
        n = 1 + len(arg_types)
        ok = []
        for types, lo, hi in tuples:
            if lo <= n <= hi and all(is_assignable(types[min(i + 1, len(types) - 1)], at)
                                     for i, at in enumerate(arg_types)):
                ok.append(types)
        if not ok:
            raise EvalError(render("TYPE_DOES_NOT_REPRESENT_VALID", type=type_to_string(t),
                                   generalized_name=_generalized_name(inner)))
        singles.extend(types[0] for types in ok)
    return singles, others


def _generalized_name(t) -> str:
    g = generalize(t)
    return getattr(g, "type_name", None) or g.name


def init_instance(t: m.InitType, v: Any) -> bool:
    singles, others = init_parts(t)
    if any(instance_of(x, v) for x in singles):
        return True
    for types, lo, hi in others:
        for cand in ([v] if type(v) in (list, tuple) else []) + [[v]]:
            if type(cand) in (list, tuple) and lo <= len(cand) <= hi and all(
                    instance_of(types[min(i, len(types) - 1)], x) for i, x in enumerate(cand)):
                if cand is not v and lo != 1:
                    continue
                return True
    return False


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


def _uri_type(v) -> m.PType:
    order = ("scheme", "userinfo", "host", "port", "path", "query", "fragment", "opaque")
    parts = uri_parts(v)
    return m.URIType(tuple((k, parts[k]) for k in order if k in parts))


def infer_set_of(v: Any) -> m.PType:
    if isinstance(v, URI):
        return _uri_type(v)
    if isinstance(v, IteratorValue):
        return m.IteratorType(v.element_type)
    if hasattr(v, "callable_type"):
        return v.callable_type()
    return infer_set(v)


def infer_of(v: Any, puppet_undef: bool = False) -> m.PType:
    if isinstance(v, IteratorValue):
        return m.IteratorType(v.element_type)
    if hasattr(v, "callable_type"):
        return v.callable_type()
    return infer(v, puppet_undef)
