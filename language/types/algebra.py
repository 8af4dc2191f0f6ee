"""Type algebra: inference of a value's type, common type (union), generalization, normalization.

``infer`` and ``infer_set`` are Puppet's two inference modes (``type(v, 'reduced')`` and
``type(v)``); ``common_type`` is the union of the specification's type algebra tables
(computed the way Puppet's type calculator does, made sound for ``Undef``); ``generalize``
drops value-specific parameters; ``normalize`` reduces Variants and Optionals to a canonical,
smaller form accepting exactly the same values.
"""
from __future__ import annotations

import contextvars

from typing import Any

from . import model as m
from .guard import check_size, measure, tick
from .values import (URI, Binary, Deferred, DefaultValue, ObjectValue, Regexp, SemVer,
                     SemVerRange, Sensitive, Timespan, Timestamp)

__all__ = ["infer", "infer_set", "common_type", "generalize", "normalize", "make_variant"]

_MAX_DEPTH = 120


def make_variant(types) -> m.PType:
    """Variant of the given types, flattened and de-duplicated; one type stands for itself."""
    out: list = []
    stack = list(types)[::-1]
    while stack:
        t = stack.pop()
        if isinstance(t, m.VariantType):
            stack.extend(t.types[::-1])
        elif t not in out:
            out.append(t)
    if len(out) == 1:
        return out[0]
    return m.VariantType(tuple(out))


# --- inference ---------------------------------------------------------------------------------

def infer(v: Any, puppet_undef: bool = False) -> m.PType:
    """The most specific single type of ``v``, with collections reduced (Puppet ``infer``).

    ``[1, 2]`` gives ``Array[Integer[1, 2], 2, 2]``.  ``puppet_undef`` gives Puppet's own
    answer where an undef element is dropped (``[1, undef]``: ``Array[Integer[1, 1], 2, 2]``),
    for showing a type as Puppet's ``type()`` does; without it the element type is
    ``Optional[...]``, so that a value is always an instance of its inferred type.
    """
    measure(v)
    token = _PUPPET_UNDEF.set(puppet_undef)
    try:
        return _infer(v, False, 0, set())
    finally:
        _PUPPET_UNDEF.reset(token)


def infer_set(v: Any) -> m.PType:
    """The type of ``v`` keeping every element's own type (Puppet ``infer_set``).

    ``[1, 2]`` gives ``Tuple[Integer[1, 1], Integer[2, 2]]``, a hash with String keys a Struct.
    """
    measure(v)
    return _infer(v, True, 0, set())


def _infer(v: Any, as_set: bool, depth: int, seen: set) -> m.PType:
    tick()
    if depth > _MAX_DEPTH:
        return m.ANY
    if v is None:
        return m.UNDEF
    if isinstance(v, DefaultValue):
        return m.DEFAULT_T
    if isinstance(v, bool):
        return m.BooleanType(v)
    if isinstance(v, int):
        return m.IntegerType(v, v)
    if isinstance(v, float):
        return m.FloatType(v, v)
    if isinstance(v, str):
        return m.StringType(value=v)
    if isinstance(v, Regexp):
        return m.RegexpType(v.pattern)
    if isinstance(v, m.PType):
        return m.TypeType(v)
    if isinstance(v, (list, tuple, dict)):
        if id(v) in seen:
            return m.ANY  # a value containing itself: stop rather than loop
        seen.add(id(v))
        try:
            return _infer_collection(v, as_set, depth, seen)
        finally:
            seen.discard(id(v))
    if isinstance(v, Sensitive):
        return m.SensitiveType(generalize(_infer(v.value, False, depth + 1, seen)))
    if isinstance(v, Timespan):
        return m.TimespanType(v, v)
    if isinstance(v, Timestamp):
        return m.TimestampType(v, v)
    if isinstance(v, SemVer):
        return m.SemVerType((SemVerRange.exact(v),)) if as_set else m.SEMVER
    if isinstance(v, SemVerRange):
        return m.SEMVER_RANGE
    if isinstance(v, Binary):
        return m.BINARY
    if isinstance(v, URI):
        return m.URIType(tuple(v.parts().items()))
    if isinstance(v, Deferred):
        return m.DEFERRED
    if isinstance(v, ObjectValue):
        base = m.ERROR if v.type_name == "Error" else getattr(v, "object_type", None)
        if base is None:
            return m.ObjectType(v.type_name)
        return _object_value_type(base, v)
    return m.RuntimeType("python", type(v).__name__)


# The shortest text one member adds to a Tuple or Struct type ("Undef, "): keeps a type with a
# member per element (infer_set) within the value size limit when it is shown.
_MIN_MEMBER_TEXT = 7


def _infer_collection(v: Any, as_set: bool, depth: int, seen: set) -> m.PType:
    n = len(v)
    if as_set:
        check_size(n * _MIN_MEMBER_TEXT, "the type with a member per element")
    if isinstance(v, dict):
        if not v:
            return m.EMPTY_HASH
        if as_set:
            if all(isinstance(k, str) for k in v):
                return m.StructType(tuple(
                    m.StructElement(k, _infer(x, True, depth + 1, seen), False)
                    for k, x in v.items()))
            keys = make_variant([_infer(k, True, depth + 1, seen) for k in v])
            vals = make_variant([_infer(x, True, depth + 1, seen) for x in v.values()])
            return m.HashType(keys, vals, (n, n))
        kt = _reduce([_infer(k, False, depth + 1, seen) for k in v])
        vt = _reduce([_infer(x, False, depth + 1, seen) for x in v.values()])
        return m.HashType(kt, vt, (n, n))
    if not v:
        return m.EMPTY_ARRAY
    if as_set:
        return m.TupleType(tuple(_infer(x, True, depth + 1, seen) for x in v))
    return m.ArrayType(_reduce([_infer(x, False, depth + 1, seen) for x in v]), (n, n))


def _reduce(types: list) -> m.PType:
    # Puppet drops undef elements here ([1, undef] -> Array[Integer[1, 1]]); we keep them as
    # Optional so that a value is always an instance of its inferred type.
    out = types[0]
    puppet_undef = _PUPPET_UNDEF.get()
    for t in types[1:]:
        out = _common(out, t, puppet_undef=puppet_undef)
    return out


_PUPPET_UNDEF: contextvars.ContextVar[bool] = contextvars.ContextVar("puppet_undef", default=False)


# --- common type -------------------------------------------------------------------------------

def common_type(a: m.PType, b: m.PType) -> m.PType:
    """The least general type (by Puppet's rules) that is assignable from both ``a`` and ``b``.

    Follows Puppet's type calculator, except that ``Undef`` with ``T`` gives ``Optional[T]``
    (Puppet drops the Undef, which is unsound; inference keeps Puppet's answer).
    """
    return _common(a, b, puppet_undef=False)


def _common(a: m.PType, b: m.PType, puppet_undef: bool, depth: int = 0) -> m.PType:
    from .relations import is_assignable as asg
    if depth > _MAX_DEPTH:
        return m.ANY
    if isinstance(a, m.UnitType):
        return b
    if isinstance(b, m.UnitType):
        return a
    if asg(a, b):
        return a
    if asg(b, a):
        return b
    if isinstance(a, m.UndefType) or isinstance(b, m.UndefType):
        other = b if isinstance(a, m.UndefType) else a
        return other if puppet_undef else m.OptionalType(other)
    rec = lambda x, y: _common(x, y, puppet_undef, depth + 1)
    if isinstance(a, m.ArrayType) and isinstance(b, m.ArrayType):
        return m.ArrayType(rec(a.element, b.element))
    if isinstance(a, m.HashType) and isinstance(b, m.HashType):
        return m.HashType(rec(a.key, b.key), rec(a.value, b.value))
    if isinstance(a, m.ClassType) and isinstance(b, m.ClassType):
        return m.CLASS
    if isinstance(a, m.ResourceType) and isinstance(b, m.ResourceType):
        if a.type_name is not None and b.type_name is not None and (
                a.type_name.lower() == b.type_name.lower()):
            return m.ResourceType(a.type_name)
        return m.RESOURCE
    if isinstance(a, (m.ResourceType, m.ClassType, m.CatalogEntryType)) and isinstance(
            b, (m.ResourceType, m.ClassType, m.CatalogEntryType)):
        return m.CATALOG_ENTRY  # the specification's rule; Puppet's calculator says Any
    if isinstance(a, m.IntegerType) and isinstance(b, m.IntegerType):
        return m.IntegerType(_min(a.lo, b.lo), _max(a.hi, b.hi))
    if isinstance(a, m.FloatType) and isinstance(b, m.FloatType):
        return m.FloatType(_min(a.lo, b.lo), _max(a.hi, b.hi))
    if isinstance(a, m.StringType) and isinstance(b, m.EnumType):
        a, b = b, a
    if isinstance(a, m.StringType) and isinstance(b, m.StringType):
        if a.value is not None and b.value is not None:
            return m.EnumType(tuple(sorted({a.value, b.value})))
        lo1, hi1 = a.size_range()
        lo2, hi2 = b.size_range()
        size = (min(lo1, lo2), _max(hi1, hi2))
        return m.STRING if size == (0, None) else m.StringType(size)
    if isinstance(a, m.EnumType) and isinstance(b, (m.StringType, m.EnumType)):
        if isinstance(b, m.EnumType):
            return m.EnumType(tuple(sorted(set(a.values) | set(b.values))),
                              a.case_insensitive or b.case_insensitive)
        if b.value is None:
            return m.EnumType()
        return m.EnumType(tuple(sorted(set(a.values) | {b.value})), a.case_insensitive)
    if isinstance(a, m.PatternType) and isinstance(b, m.PatternType):
        return m.PatternType(tuple(dict.fromkeys(a.patterns + b.patterns)))
    if isinstance(a, m.VariantType) and isinstance(b, m.VariantType):
        return make_variant(a.types + b.types)
    if isinstance(a, m.RegexpType) and isinstance(b, m.RegexpType):
        return m.REGEXP
    if isinstance(a, m.CallableType) and isinstance(b, m.CallableType):
        return m.CALLABLE
    for abstract in (m.NUMERIC, m.SCALAR_DATA, m.SCALAR, m.DATA):
        if asg(abstract, a) and asg(abstract, b):
            return abstract
    if isinstance(a, m.TypeType) and isinstance(b, m.TypeType):
        return m.TypeType(rec(a.type or m.ANY, b.type or m.ANY))
    if asg(m.RICH_DATA, a) and asg(m.RICH_DATA, b):
        return m.RICH_DATA
    if isinstance(a, m.RuntimeType) and isinstance(b, m.RuntimeType):
        return m.RUNTIME
    return m.ANY


def _min(x, y):
    return None if x is None or y is None else min(x, y)


def _max(x, y):
    return None if x is None or y is None else max(x, y)


# --- generalize --------------------------------------------------------------------------------

def _object_value_type(base: m.PType, v: ObjectValue) -> m.PType:
    """The type of an Object value: its type, parameterized by the values of the attributes
    named like its type parameters (Puppet's ``create_from_instance``); undef counts as set."""
    from .build import object_type_parameters
    pts = object_type_parameters(base)
    if not pts:
        return base
    attrs = dict(v.attributes)
    names = {a.name for a in base.all_attributes()} if isinstance(base, m.ObjectType) else set()
    names |= set(attrs)
    from .build import _freeze
    params = tuple((pn, _freeze(attrs.get(pn))) for pn, _ in pts if pn in names)
    return m.ObjectExtType(base, params) if params else base


def generalize(t: m.PType, depth: int = 0) -> m.PType:
    """Drop value-specific parameters: ``Integer[1, 1]`` -> ``Integer``, sizes of collections."""
    if depth > _MAX_DEPTH:
        return t
    def g(x: m.PType) -> m.PType:
        return generalize(x, depth + 1)
    if isinstance(t, m.IntegerType):
        return m.INTEGER
    if isinstance(t, m.FloatType):
        return m.FLOAT
    if isinstance(t, m.StringType):
        return m.STRING
    if isinstance(t, m.EnumType):
        if not t.values:
            return t
        lens = [len(v) for v in t.values]
        return m.StringType((min(lens), max(lens)))
    if isinstance(t, m.BooleanType):
        return m.BOOLEAN
    if isinstance(t, (m.TimespanType, m.TimestampType)):
        return type(t)()
    if isinstance(t, m.URIType):
        return m.URI_T
    if isinstance(t, m.ObjectExtType):
        return t.base
    if isinstance(t, m.ArrayType):
        return m.ARRAY if t == m.ARRAY else m.ArrayType(g(t.element))
    if isinstance(t, m.HashType):
        if t == m.HASH or t == m.EMPTY_HASH:
            return t
        return m.HashType(g(t.key), g(t.value))
    if isinstance(t, m.CollectionType):
        return m.COLLECTION
    if isinstance(t, m.TupleType):
        return m.TupleType(tuple(g(x) for x in t.types), t.size)
    if isinstance(t, m.StructType):
        return m.StructType(tuple(m.StructElement(e.key, g(e.value_type), e.optional)
                                  for e in t.elements))
    if isinstance(t, m.VariantType):
        return make_variant([g(x) for x in t.types])
    if isinstance(t, (m.OptionalType, m.NotUndefType)):
        return type(t)(g(t.type)) if t.type is not None else t
    if isinstance(t, (m.TypeType, m.IterableType, m.IteratorType, m.SensitiveType)):
        return type(t)(g(t.type)) if t.type is not None else t
    return t


# --- normalize ---------------------------------------------------------------------------------

def normalize(t: m.PType, depth: int = 0) -> m.PType:
    """An equivalent, reduced form: flattened/merged Variants, collapsed Optionals/NotUndefs.

    ``Variant[Integer[1, 2], Integer[3, 4], Undef]`` -> ``Optional[Integer[1, 4]]``;
    ``Optional[Optional[T]]`` -> ``Optional[T]``; ``NotUndef[String]`` -> ``String``.
    """
    from .relations import is_assignable as asg
    if depth > _MAX_DEPTH:
        return t
    def n(x: m.PType) -> m.PType:
        return normalize(x, depth + 1)
    if isinstance(t, m.VariantType):
        flat = make_variant([n(x) for x in t.types])
        members: list[m.PType] = []
        for x in (flat.types if isinstance(flat, m.VariantType) else [flat]):
            if isinstance(x, m.OptionalType) and x.key is None:
                members.append(m.UNDEF)
                members.append(x.type if x.type is not None else m.ANY)
            else:
                members.append(x)
        if not members:
            return t
        if any(isinstance(x, m.AnyType) for x in members):
            return m.ANY
        members = _merge_ranges(make_variant(members))
        has_undef = any(isinstance(x, m.UndefType) for x in members)
        rest = [x for x in members if not isinstance(x, m.UndefType)]
        kept: list = []
        for i, x in enumerate(rest):
            # drop members another member already covers (keep the first of equal ones)
            if any(asg(y, x) and (not asg(x, y) or j < i) for j, y in enumerate(rest) if j != i):
                continue
            kept.append(x)
        core = make_variant(kept) if kept else None
        if has_undef:
            if core is None:
                return m.UNDEF
            if asg(core, m.UNDEF):
                return core
            return m.OptionalType(core)
        return core if core is not None else t
    if isinstance(t, m.OptionalType):
        if t.key is not None or t.type is None:
            return t
        inner = n(t.type)
        while isinstance(inner, m.OptionalType) and inner.key is None and inner.type is not None:
            inner = inner.type
        if isinstance(inner, m.UndefType):
            return m.UNDEF
        if asg(inner, m.UNDEF):
            return inner
        return m.OptionalType(inner)
    if isinstance(t, m.NotUndefType):
        if t.key is not None:
            return t
        inner = n(t.type) if t.type is not None else m.ANY
        if not asg(inner, m.UNDEF):
            return inner
        core = inner
        while isinstance(core, (m.NotUndefType, m.OptionalType)) and core.key is None and (
                core.type is not None):
            core = core.type
        if not asg(core, m.UNDEF):
            return core
        return t if isinstance(core, m.UndefType) else m.NotUndefType(
            None if inner == m.ANY else inner)
    if isinstance(t, m.ArrayType):
        return m.ArrayType(n(t.element), t.size)
    if isinstance(t, m.HashType):
        return m.HashType(n(t.key), n(t.value), t.size)
    if isinstance(t, m.TupleType):
        return m.TupleType(tuple(n(x) for x in t.types), t.size)
    if isinstance(t, m.StructType):
        return m.StructType(tuple(m.StructElement(e.key, n(e.value_type), e.optional)
                                  for e in t.elements))
    if isinstance(t, (m.TypeType, m.IterableType, m.IteratorType, m.SensitiveType)):
        return type(t)(n(t.type)) if t.type is not None else t
    return t


def _merge_ranges(t: m.PType) -> list:
    """Members of a Variant with overlapping/adjacent Integer ranges and Enums merged."""
    members = list(t.types) if isinstance(t, m.VariantType) else [t]
    ints = [x for x in members if isinstance(x, m.IntegerType)]
    if len(ints) > 1:
        ints.sort(key=lambda x: (x.lo is not None, x.lo if x.lo is not None else 0))
        merged = [ints[0]]
        for x in ints[1:]:
            last = merged[-1]
            if last.hi is None or x.lo is None or x.lo <= last.hi + 1:
                merged[-1] = m.IntegerType(_min(last.lo, x.lo), _max(last.hi, x.hi))
            else:
                merged.append(x)
        first = members.index(next(x for x in members if isinstance(x, m.IntegerType)))
        members = [x for x in members if not isinstance(x, m.IntegerType)]
        members[first:first] = merged
    enums = [x for x in members if isinstance(x, m.EnumType) and x.values]
    if len(enums) > 1 and len({e.case_insensitive for e in enums}) == 1:
        union = m.EnumType(tuple(sorted({v for e in enums for v in e.values})),
                           enums[0].case_insensitive)
        first = members.index(enums[0])
        members = [x for x in members if x not in enums]
        members.insert(first, union)
    return members
