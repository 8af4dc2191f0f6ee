"""Instance-of, assignability, equality and ordering of types, following Puppet 7.

``is_assignable(a, b)`` answers "is every value of ``b`` also a value of ``a``" (Puppet's
``a.assignable?(b)``), ``is_instance(t, v)`` "is the value ``v`` of type ``t``". Both unfold
aliases lazily and assume, coinductively, that a pair of recursive types being compared again
is assignable, so recursive aliases terminate. Depth is bounded everywhere: no input can make
these functions recurse without end or raise.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import model as m
from .guard import measure, tick
from .errors import TypeSystemError
from .values import (URI, Binary, Deferred, DefaultValue, ObjectValue, Regexp, SemVer,
                     SemVerRange, Sensitive, Timespan, Timestamp, merge_intervals)

__all__ = ["is_assignable", "is_instance", "types_equal", "type_lt", "type_le", "type_gt",
           "type_ge", "is_iterable_type", "iterable_element_type", "resolve",
           "size_of", "MAX_DEPTH"]

MAX_DEPTH = 150

_SCALAR_DATA_TYPES = (m.ScalarDataType, m.NumericType, m.IntegerType, m.FloatType, m.StringType,
                      m.EnumType, m.PatternType, m.BooleanType)
_SCALAR_TYPES = _SCALAR_DATA_TYPES + (m.ScalarType, m.RegexpType, m.SemVerType,
                                      m.SemVerRangeType, m.TimespanType, m.TimestampType)
_ITERATOR_RUNTIME_NAMES = ("Iterator", "Iterable")


def resolve(t: m.PType) -> m.PType:
    """Unfold an alias to what it stands for (other types are returned unchanged).

    An alias that cannot be resolved stands for a reference to its own name, which only
    matches itself; the builder reports the error itself.
    """
    seen = 0
    while isinstance(t, m.TypeAliasType) and seen < MAX_DEPTH:
        from .build import resolve_alias
        alias = t
        try:
            t = resolve_alias(alias)
        except (TypeSystemError, RecursionError):
            return m.TypeReferenceType(alias.alias_name)
        seen += 1
    return t


def size_of(size: Any) -> tuple:
    """A collection size with the default filled in: (min, max or None)."""
    return size if size is not None else (0, None)


def _range_covers(outer: tuple, inner: tuple) -> bool:
    """Integer range ``outer`` contains ``inner``; None ends are infinite."""
    olo, ohi = outer
    ilo, ihi = inner
    if olo is not None and (ilo is None or ilo < olo):
        return False
    return not (ohi is not None and (ihi is None or ihi > ohi))


def _in_range(v: Any, lo: Any, hi: Any) -> bool:
    return (lo is None or v >= lo) and (hi is None or v <= hi)


class _Ctx:
    """State of one top-level question: recursion depth and the pairs being assumed."""

    __slots__ = ("depth", "assume", "visiting")

    def __init__(self) -> None:
        self.depth = 0
        self.assume: set = set()
        self.visiting: set = set()


# --- assignability ---------------------------------------------------------------------------

def is_assignable(a: m.PType, b: m.PType) -> bool:
    """True when type ``a`` accepts every value of type ``b`` (Puppet ``a.assignable?(b)``)."""
    try:
        return _cached_assignable(a, b)
    except TypeError:  # an unhashable part slipped into a type: answer without the cache
        try:
            return _asg(a, b, _Ctx())
        except (RecursionError, TypeSystemError):
            return False
    except (RecursionError, TypeSystemError):
        return False


@lru_cache(maxsize=65536)
def _cached_assignable(a: m.PType, b: m.PType) -> bool:
    return _asg(a, b, _Ctx())


m.ALIAS_CHANGE_HOOKS.append(_cached_assignable.cache_clear)


def _asg(a: m.PType, b: m.PType, ctx: _Ctx) -> bool:
    if a is b or a == b:
        return True
    if ctx.depth > MAX_DEPTH:
        return False
    ctx.depth += 1
    try:
        return _asg1(a, b, ctx)
    finally:
        ctx.depth -= 1


def _asg1(a: m.PType, b: m.PType, ctx: _Ctx) -> bool:
    if isinstance(b, m.UnitType):
        return True
    if isinstance(a, m.TypeAliasType) or isinstance(b, m.TypeAliasType):
        key = (a, b)
        if key in ctx.assume:
            return True
        ctx.assume.add(key)
        try:
            return _asg(resolve(a), resolve(b), ctx)
        finally:
            ctx.assume.discard(key)
    if isinstance(b, m.VariantType):
        if isinstance(a, m.AnyType):
            return True
        if isinstance(a, m.NotUndefType) and not b.types:
            return _specific(a, b, ctx)
        return bool(b.types) and all(_asg(a, t, ctx) for t in b.types)
    if isinstance(b, m.OptionalType):
        if not _asg(a, m.UNDEF, ctx):
            return False
        # A bare Optional is Optional[Any] here; Puppet treats it as Undef on this side and
        # as Any on the other, which is not transitive (see docs/types.md).
        return _asg(a, b.type or m.ANY, ctx)
    if isinstance(b, m.NotUndefType):
        inner = b.type or m.ANY
        if not _asg(inner, m.UNDEF, ctx):
            return _asg(a, inner, ctx)
        # NotUndef[Optional[T]] is T when T itself rejects undef.  In any case its values are
        # among those of T (the inner type without its Undef alternatives), so whatever
        # accepts T accepts it.
        stripped = _without_undef(inner)
        if stripped is not None:
            if not _asg(stripped, m.UNDEF, ctx):
                return _asg(a, stripped, ctx)
            if _asg(a, stripped, ctx):
                return True
        return _specific(a, b, ctx)
    return _specific(a, b, ctx)


def _without_undef(t: m.PType) -> m.PType | None:
    """``t`` with its explicit Undef alternatives removed (None when nothing would remain)."""
    t = resolve(t)
    if isinstance(t, m.OptionalType) and t.key is None:
        return _without_undef(t.type) if t.type is not None else m.ANY
    if isinstance(t, m.VariantType):
        from .algebra import make_variant
        rest = [x for x in (_without_undef(y) for y in t.types) if x is not None]
        return make_variant(rest) if rest else None
    if isinstance(t, m.UndefType):
        return None
    return t


def _size_ok(a_size: Any, b_size: Any) -> bool:
    return _range_covers(size_of(a_size), size_of(b_size))


def _tuple_range(t: m.TupleType) -> tuple:
    return t.size_range()


def _struct_required(t: m.StructType) -> int:
    return sum(1 for e in t.elements if not e.optional)


def _specific(a: m.PType, b: m.PType, ctx: _Ctx) -> bool:
    if type(a) is m.AnyType or type(a) is m.UnitType:
        return True
    if type(a) is m.UndefType:
        return isinstance(b, m.UndefType)
    if type(a) is m.DefaultType:
        return isinstance(b, m.DefaultType)
    if type(a) is m.NotUndefType:
        return not _asg(b, m.UNDEF, ctx) and _asg(a.type or m.ANY, b, ctx)
    if type(a) is m.OptionalType:
        if isinstance(b, m.UndefType) or a.type is None:
            return True
        return _asg(a.type, b, ctx)
    if type(a) is m.VariantType:
        return any(_asg(t, b, ctx) for t in a.types)
    if type(a) is m.ScalarType:
        return isinstance(b, _SCALAR_TYPES)
    if type(a) is m.ScalarDataType:
        return isinstance(b, _SCALAR_DATA_TYPES)
    if type(a) is m.NumericType:
        return isinstance(b, (m.NumericType, m.IntegerType, m.FloatType))
    if type(a) is m.IntegerType:
        return isinstance(b, m.IntegerType) and _range_covers((a.lo, a.hi), (b.lo, b.hi))
    if type(a) is m.FloatType:
        return isinstance(b, m.FloatType) and _range_covers((a.lo, a.hi), (b.lo, b.hi))
    if type(a) is m.StringType:
        return _string_assignable(a, b)
    if type(a) is m.EnumType:
        return _enum_assignable(a, b)
    if type(a) is m.PatternType:
        return _pattern_assignable(a, b)
    if type(a) is m.BooleanType:
        return isinstance(b, m.BooleanType) and (a.value is None or a.value == b.value)
    if type(a) is m.RegexpType:
        return isinstance(b, m.RegexpType) and (a.pattern is None or a.pattern == b.pattern)
    if type(a) is m.SemVerType:
        if not isinstance(b, m.SemVerType):
            return False
        if not a.ranges:
            return True
        if not b.ranges:
            return False
        # judged on the union of the ranges: Puppet merges overlapping ranges of a SemVer type
        mine = merge_intervals(iv for r in a.ranges for iv in r.intervals)
        return all(any(ra.covers(rb) for ra in mine) for r in b.ranges for rb in r.intervals)
    if type(a) is m.SemVerRangeType:
        return isinstance(b, m.SemVerRangeType)
    if type(a) is m.TimespanType or type(a) is m.TimestampType:
        return isinstance(b, (m.TimespanType, m.TimestampType)) and type(b) is type(a) \
            and _range_covers((a.lo, a.hi), (b.lo, b.hi))
    if type(a) is m.BinaryType:
        return isinstance(b, m.BinaryType)
    if type(a) is m.URIType:
        if not isinstance(b, m.URIType):
            return False
        if a.parts is None:
            return True
        if b.parts is None:
            return False
        bp = dict(b.parts)
        # a part of ours may be a type or regexp: b's part must match it, or be a type we accept
        return all(k in bp and (_uri_part_match(bp[k], v, ctx) or (
            isinstance(bp[k], m.PType) and isinstance(v, m.PType) and _asg(v, bp[k], ctx)))
            for k, v in a.parts)
    if type(a) is m.CollectionType:
        if isinstance(b, (m.CollectionType, m.ArrayType, m.HashType)):
            return _size_ok(a.size, b.size)
        if isinstance(b, m.TupleType):
            return _range_covers(size_of(a.size), _tuple_range(b))
        if isinstance(b, m.StructType):
            n = len(b.elements)
            return _range_covers(size_of(a.size), (n, n))
        return False
    if type(a) is m.ArrayType:
        if isinstance(b, m.TupleType):
            if not _range_covers(size_of(a.size), _tuple_range(b)):
                return False
            # a Tuple without types has elements of any type
            return all(_asg(a.element, t, ctx) for t in (b.types or (m.ANY,)))
        if isinstance(b, m.ArrayType):
            return _size_ok(a.size, b.size) and _asg(a.element, b.element, ctx)
        return False
    if type(a) is m.HashType:
        return _hash_assignable(a, b, ctx)
    if type(a) is m.TupleType:
        return _tuple_assignable(a, b, ctx)
    if type(a) is m.StructType:
        return _struct_assignable(a, b, ctx)
    if type(a) is m.IterableType:
        if a.type is None or _asg(a.type, m.ANY, ctx):
            return is_iterable_type(b)
        if not is_iterable_type(b):
            return False
        elem = iterable_element_type(b)
        return elem is not None and _asg(a.type, elem, ctx)
    if type(a) is m.IteratorType:
        if not isinstance(b, m.IteratorType):
            return False
        return a.type is None or _asg(a.type, b.type or m.ANY, ctx)
    if type(a) is m.TypeType:
        if not isinstance(b, m.TypeType):
            return False
        return a.type is None or _asg(a.type, b.type or m.ANY, ctx)
    if type(a) is m.CallableType:
        return _callable_assignable(a, b, ctx)
    if type(a) is m.SensitiveType:
        return isinstance(b, m.SensitiveType) and _asg(a.type or m.ANY, b.type or m.ANY, ctx)
    if type(a) is m.InitType:
        if isinstance(b, m.InitType):
            if a.type is None:
                return True
            return b.type is not None and _asg(a.type, b.type, ctx) and a.args == b.args
        if a.type is None:
            # Any serialisable value can be handed to some type's new().
            return _asg(m.RICH_DATA, b, ctx)
        if _asg(a.type, b, ctx):
            return True
        return _init_accepts(resolve(a.type), b, ctx)
    if type(a) is m.ObjectExtType:
        # the base must accept b's base, and each of our parameter values must match b's
        # (a parameter b leaves unset matches nothing, as in Puppet)
        if isinstance(b, m.ObjectExtType):
            return _asg(a.base, b.base, ctx) and _ext_params_assignable(a, dict(b.params), ctx)
        return _asg(a.base, b, ctx) and _ext_params_assignable(a, {}, ctx)
    if type(a) is m.ObjectType:
        if isinstance(b, m.ObjectExtType):
            b = resolve(b.base)
        if not isinstance(b, m.ObjectType):
            return False
        if a.type_name is None and not a.attributes and a.parent is None:
            return True
        seen = 0
        t: Any = b
        while isinstance(t, m.ObjectType) and seen < MAX_DEPTH:
            if _same_object(t, a):
                return True
            t = resolve(t.parent) if t.parent is not None else None
            seen += 1
        return False
    if type(a) is m.TypeSetType:
        return isinstance(b, m.TypeSetType) and (a == m.TYPESET or a == b)
    if type(a) is m.RuntimeType:
        if not isinstance(b, m.RuntimeType):
            return False
        if a.runtime is None:
            return True
        if a.runtime != b.runtime:
            return False
        if a.runtime_name is None:
            return True
        if isinstance(a.runtime_name, tuple) and isinstance(b.runtime_name, str):
            return a.runtime_name[0].matches(b.runtime_name)
        return a.runtime_name == b.runtime_name
    if type(a) is m.CatalogEntryType:
        return isinstance(b, (m.CatalogEntryType, m.ResourceType, m.ClassType))
    if type(a) is m.ResourceType:
        if not isinstance(b, m.ResourceType):
            return False
        if a.type_name is None:
            return True
        if b.type_name is None or a.type_name.lower() != b.type_name.lower():
            return False
        return a.title is None or a.title == b.title
    if type(a) is m.ClassType:
        return isinstance(b,
                          m.ClassType) and (a.class_name is None or a.class_name == b.class_name)
    if type(a) is m.TypeReferenceType:
        return a == b
    return False


def _init_accepts(target: m.PType, b: m.PType, ctx: _Ctx) -> bool:
    """Whether new() of ``target`` has a signature taking one argument of type ``b``."""
    if isinstance(target, m.StringType) and target.value is None and target.size is None:
        return _asg(m.RICH_DATA, b, ctx)
    if isinstance(target, (m.IntegerType, m.FloatType, m.NumericType)):
        return any(_asg(t, b, ctx) for t in (m.NUMERIC, m.BOOLEAN, m.TIMESPAN, m.TIMESTAMP))
    if isinstance(target, m.BooleanType):
        return _asg(m.NUMERIC, b, ctx) or _asg(m.BOOLEAN, b, ctx)
    if isinstance(target, m.ArrayType):
        return _asg(target.element, b, ctx)
    return False


def _string_assignable(a: m.StringType, b: m.PType) -> bool:
    if a.value is not None:
        if isinstance(b, m.StringType):
            return b.value == a.value
        if isinstance(b, m.EnumType):
            return b.values == (a.value,)
        return False
    size = size_of(a.size)
    if isinstance(b, m.StringType):
        return _range_covers(size, b.size_range())
    if isinstance(b, m.EnumType):
        if not b.values:
            return _range_covers(size, (0, None))
        lens = [len(v) for v in b.values]
        return _range_covers(size, (min(lens), max(lens)))
    if isinstance(b, m.PatternType):
        return _range_covers(size, (0, None))
    return False


def _enum_has(a: m.EnumType, s: str) -> bool:
    if a.case_insensitive:
        low = s.casefold()
        return any(v.casefold() == low for v in a.values)
    return s in a.values


def _enum_assignable(a: m.EnumType, b: m.PType) -> bool:
    if not a.values:
        return isinstance(b, (m.StringType, m.EnumType, m.PatternType))
    if isinstance(b, m.StringType):
        return b.value is not None and _enum_has(a, b.value)
    if isinstance(b, m.EnumType):
        return bool(b.values) and (a.case_insensitive or not b.case_insensitive) and all(
            _enum_has(a, v) for v in b.values)
    return False


def _pattern_assignable(a: m.PatternType, b: m.PType) -> bool:
    if isinstance(b, m.PatternType):
        # every string matching one of b's patterns matches one of ours when ours include them
        return not a.patterns or (bool(b.patterns) and set(b.patterns) <= set(a.patterns))
    if not isinstance(b, (m.StringType, m.EnumType)):
        return False
    if not a.patterns:
        return True
    if isinstance(b, m.StringType):
        return b.value is not None and any(p.matches(b.value) for p in a.patterns)
    if not b.values:
        return False
    return all(any(p.matches(v) for p in a.patterns) for v in b.values)


def _hash_assignable(a: m.HashType, b: m.PType, ctx: _Ctx) -> bool:
    if isinstance(b, m.HashType):
        if b.size == (0, 0) and size_of(a.size)[0] == 0:
            return True
        return (_size_ok(a.size, b.size) and _asg(a.key, b.key, ctx)
                and _asg(a.value, b.value, ctx))
    if isinstance(b, m.StructType):
        n = len(b.elements)
        if not _range_covers(size_of(a.size), (n, n)):
            return False
        return all(_instance(a.key, e.key, ctx) and _asg(a.value, e.value_type, ctx)
                   for e in b.elements)
    return False


def _tuple_assignable(a: m.TupleType, b: m.PType, ctx: _Ctx) -> bool:
    if isinstance(b, m.TupleType):
        sb = _tuple_range(b)
        if not _range_covers(_tuple_range(a), sb):
            return False
        if not a.types:
            return True
        if not b.types:
            return all(_asg(t, m.ANY, ctx) for t in a.types)
        limit = sb[1] if sb[1] is not None else max(len(a.types), len(b.types))
        n = min(max(len(a.types), len(b.types)), limit)
        for i in range(max(n, len(b.types))):
            ta = a.types[min(i, len(a.types) - 1)]
            tb = b.types[min(i, len(b.types) - 1)]
            if not _asg(ta, tb, ctx):
                return False
        return True
    if isinstance(b, m.ArrayType):
        lo, hi = size_of(b.size)
        if not _range_covers(_tuple_range(a), (lo, hi)):
            return False
        # only the positions an array of that size can fill must accept its elements
        reach = a.types if hi is None else a.types[:hi]
        return all(_asg(t, b.element, ctx) for t in reach)
    return False


def _struct_assignable(a: m.StructType, b: m.PType, ctx: _Ctx) -> bool:
    if isinstance(b, m.StructType):
        matched = 0
        for e in a.elements:
            eb = b.element(e.key)
            if eb is None:
                if not e.optional:
                    return False
            else:
                matched += 1
                if eb.optional and not e.optional:
                    return False
                if not _asg(e.value_type, eb.value_type, ctx):
                    return False
        return matched == len(b.elements)
    if isinstance(b, m.HashType):
        required = 0
        for e in a.elements:
            if e.optional:
                continue
            required += 1
            if not _asg(e.value_type, b.value, ctx) or not _asg(m.STRING, b.key, ctx):
                return False
        return _range_covers((required, len(a.elements)), size_of(b.size))
    return False


def _callable_assignable(a: m.CallableType, b: m.PType, ctx: _Ctx) -> bool:
    if not isinstance(b, m.CallableType):
        return False
    if a.return_type is not None and not _asg(a.return_type, b.return_type or m.ANY, ctx):
        return False
    if a.params is None:
        return True
    if b.params is None:
        return False
    # Calls are checked in reverse: whatever a caller of ``a`` passes must suit ``b``.
    if not _asg(b.params, a.params, ctx):
        return False
    return _asg(b.block or m.UNDEF, a.block or m.UNDEF, ctx)


# --- iteration -------------------------------------------------------------------------------

def is_iterable_type(t: m.PType) -> bool:
    """Whether values of ``t`` can be iterated (Puppet ``iterable?``)."""
    t = resolve(t)
    if isinstance(t, (m.ArrayType, m.HashType, m.TupleType, m.StructType, m.CollectionType,
                      m.StringType, m.EnumType, m.IntegerType, m.IterableType, m.IteratorType)):
        return True
    if isinstance(t, m.TypeType):
        inner = resolve(t.type) if t.type is not None else None
        return isinstance(inner, m.EnumType) or (
            isinstance(inner, m.IntegerType) and inner.finite())
    if isinstance(t, m.RuntimeType):
        return (t.runtime == "ruby" and isinstance(t.runtime_name, str)
                and t.runtime_name.startswith("Puppet::Pops::Types::")
                and t.runtime_name.rsplit("::", 1)[-1] in _ITERATOR_RUNTIME_NAMES)
    return False


def iterable_element_type(t: m.PType) -> m.PType | None:
    """The type of the elements an iteration over a value of ``t`` yields."""
    t = resolve(t)
    if isinstance(t, m.ArrayType):
        return t.element
    if isinstance(t, m.HashType):
        return m.TupleType((t.key, t.value))
    if isinstance(t, m.TupleType):
        if not t.types:
            return m.ANY
        from .algebra import make_variant
        return make_variant(t.types)
    if isinstance(t, m.StructType):
        from .algebra import make_variant
        vals = [e.value_type for e in t.elements]
        return m.TupleType((m.STRING, make_variant(vals) if vals else m.ANY))
    if isinstance(t, (m.StringType, m.EnumType)):
        return m.StringType((1, 1))
    if isinstance(t, m.IntegerType):
        return t
    if isinstance(t, (m.IterableType, m.IteratorType)):
        return t.type or m.ANY
    if isinstance(t, m.TypeType):
        return t.type
    if isinstance(t, (m.CollectionType, m.RuntimeType)):
        return m.ANY
    return None


# --- instance-of -------------------------------------------------------------------------------

def is_instance(t: m.PType, v: Any) -> bool:
    """True when value ``v`` is of type ``t`` (Puppet ``t.instance?(v)``)."""
    measure(v)
    try:
        return _instance(t, v, _Ctx())
    except (RecursionError, TypeSystemError):
        return False


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_float(v: Any) -> bool:
    return isinstance(v, float)


def _is_scalar_data(v: Any) -> bool:
    return isinstance(v, (int, float, str))  # bool is an int subclass


def _same_object(t: m.ObjectType, a: m.ObjectType) -> bool:
    """Named Object types are the same type when their names are (a type inferred from a value
    carries only the name); anonymous ones compare structurally."""
    if t.type_name is not None and a.type_name is not None:
        return t.type_name == a.type_name
    return t == a


def _ext_params_assignable(a: m.ObjectExtType, given: dict, ctx: _Ctx) -> bool:
    for pn, want in a.params:
        if pn not in given:
            return False
        have = given[pn]
        if not (_case_match(have, want, ctx) or (
                isinstance(have, m.PType) and isinstance(want, m.PType) and _asg(want, have,
                                                                                 ctx))):
            return False
    return True


def _case_match(actual, expected, ctx) -> bool:
    """Puppet's case-option match: a type tests membership, a regexp searches a String,
    anything else compares with ``==``."""
    if isinstance(expected, m.PType):
        return _instance(expected, actual, ctx)
    if isinstance(expected, Regexp):
        return isinstance(actual, str) and expected.matches(actual)
    from .values import puppet_equal
    return puppet_equal(actual, expected)


def _uri_part_match(actual, expected, ctx) -> bool:
    """Puppet's match of one URI part: a type tests membership, a regexp searches, else equal."""
    if isinstance(expected, m.PType):
        return _instance(expected, actual, ctx)
    if isinstance(expected, Regexp):
        return isinstance(actual, str) and expected.matches(actual)
    return actual == expected


def _instance(t: m.PType, v: Any, ctx: _Ctx) -> bool:
    tick()
    if ctx.depth > MAX_DEPTH:
        return False
    ctx.depth += 1
    container = isinstance(v, (list, dict, tuple))
    key = (id(v), t) if container else None
    if key is not None:
        if key in ctx.visiting:
            return True  # a value that contains itself: assume, like recursive types
        ctx.visiting.add(key)
    try:
        return _inst1(t, v, ctx)
    finally:
        ctx.depth -= 1
        if key is not None:
            ctx.visiting.discard(key)


def _inst1(t: m.PType, v: Any, ctx: _Ctx) -> bool:
    if type(t) is m.AnyType or type(t) is m.UnitType:
        return True
    if type(t) is m.TypeAliasType:
        return _instance(resolve(t), v, ctx)
    if type(t) is m.UndefType:
        return v is None
    if type(t) is m.DefaultType:
        return isinstance(v, DefaultValue)
    if type(t) is m.NotUndefType:
        return v is not None and _instance(t.type or m.ANY, v, ctx)
    if type(t) is m.OptionalType:
        # a bare Optional has no type to accept values with: only undef is its instance
        return v is None or (t.type is not None and _instance(t.type, v, ctx))
    if type(t) is m.VariantType:
        return any(_instance(x, v, ctx) for x in t.types)
    if type(t) is m.ScalarType:
        return isinstance(v, (int, float, str, Regexp, SemVer, SemVerRange, Timespan, Timestamp))
    if type(t) is m.ScalarDataType:
        return _is_scalar_data(v)
    if type(t) is m.NumericType:
        return _is_int(v) or _is_float(v)
    if type(t) is m.IntegerType:
        return _is_int(v) and _in_range(v, t.lo, t.hi)
    if type(t) is m.FloatType:
        return _is_float(v) and _in_range(v, t.lo, t.hi)
    if type(t) is m.StringType:
        if not isinstance(v, str):
            return False
        if t.value is not None:
            return v == t.value
        lo, hi = size_of(t.size)
        return _in_range(len(v), lo, hi)
    if type(t) is m.EnumType:
        # Puppet 7: a bare Enum has no values, so no string is an instance of it (although
        # every String type is assignable to it)
        return isinstance(v, str) and _enum_has(t, v)
    if type(t) is m.PatternType:
        return isinstance(v, str) and (not t.patterns or any(p.matches(v) for p in t.patterns))
    if type(t) is m.BooleanType:
        return isinstance(v, bool) and (t.value is None or t.value == v)
    if type(t) is m.RegexpType:
        return isinstance(v, Regexp) and (t.pattern is None or t.pattern == v.pattern)
    if type(t) is m.SemVerType:
        return isinstance(v, SemVer) and (not t.ranges or any(r.include(v) for r in t.ranges))
    if type(t) is m.SemVerRangeType:
        return isinstance(v, SemVerRange)
    if type(t) is m.TimespanType:
        return isinstance(v, Timespan) and _in_range(v, t.lo, t.hi)
    if type(t) is m.TimestampType:
        return isinstance(v, Timestamp) and _in_range(v, t.lo, t.hi)
    if type(t) is m.BinaryType:
        return isinstance(v, Binary)
    if type(t) is m.URIType:
        if not isinstance(v, URI):
            return False
        if t.parts is None:
            return True
        parts = v.parts()
        return all(_uri_part_match(parts.get(k), val, ctx) for k, val in t.parts)
    if type(t) is m.CollectionType:
        if not isinstance(v, (list, tuple, dict)):
            return False
        lo, hi = size_of(t.size)
        return _in_range(len(v), lo, hi)
    if type(t) is m.ArrayType:
        if not isinstance(v, (list, tuple)):
            return False
        lo, hi = size_of(t.size)
        if not _in_range(len(v), lo, hi):
            return False
        # every value is an Any: no need to walk a (possibly huge) array for it
        return isinstance(t.element, m.AnyType) or all(_instance(t.element, x, ctx) for x in v)
    if type(t) is m.HashType:
        if not isinstance(v, dict):
            return False
        lo, hi = size_of(t.size)
        if not v:
            return lo == 0
        return _in_range(len(v), lo, hi) and all(
            _instance(t.key, k, ctx) and _instance(t.value, x, ctx) for k, x in v.items())
    if type(t) is m.StructType:
        if not isinstance(v, dict):
            return False
        matched = 0
        for e in t.elements:
            if e.key in v:
                matched += 1
                if not _instance(e.value_type, v[e.key], ctx):
                    return False
            elif not e.optional:
                return False
        return matched == len(v)
    if type(t) is m.TupleType:
        if not isinstance(v, (list, tuple)):
            return False
        lo, hi = t.size_range()
        if not _in_range(len(v), lo, hi):
            return False
        if not t.types:
            return True
        last = len(t.types) - 1
        return all(_instance(t.types[min(i, last)], x, ctx) for i, x in enumerate(v))
    if type(t) is m.IterableType:
        return _iterable_instance(t, v, ctx)
    if type(t) is m.IteratorType:
        return False  # no iterator values exist outside the evaluator yet
    if type(t) is m.TypeType:
        return isinstance(v, m.PType) and (t.type is None or _asg(t.type, v, ctx))
    if type(t) is m.CallableType:
        ct = getattr(v, "callable_type", None)
        return isinstance(ct, m.CallableType) and _asg(t, ct, ctx)
    if type(t) is m.SensitiveType:
        return isinstance(v, Sensitive) and _instance(t.type or m.ANY, v.value, ctx)
    if type(t) is m.InitType:
        if t.type is None:
            return _instance(m.RICH_DATA, v, ctx)
        if isinstance(v, list) and len(v) == 1:
            v = v[0]
        return _instance(t.type, v, ctx) or _convertible(resolve(t.type), v)
    if type(t) is m.ObjectType:
        return _object_instance(t, v)
    if type(t) is m.ObjectExtType:
        if not _instance(t.base, v, ctx) or not isinstance(v, ObjectValue):
            return False
        attrs = dict(v.attributes)
        return all(_case_match(attrs.get(pn), want, ctx) for pn, want in t.params)
    if type(t) is m.TypeSetType:
        return isinstance(v, m.TypeSetType)
    return False  # Runtime, CatalogEntry, Resource, Class, TypeReference: no such values here


def _convertible(target: m.PType, v: Any) -> bool:
    """Whether new() of a simple scalar type accepts ``v`` (Init[T] instance checks)."""
    if isinstance(target, (m.IntegerType, m.FloatType, m.NumericType)):
        if isinstance(v, bool):
            n: Any = int(v)
        elif isinstance(v, (int, float)):
            n = v
        elif isinstance(v, (Timespan, Timestamp)):
            n = v.nsecs / 1_000_000_000
        elif isinstance(v, str):
            try:
                n = int(v, 0)
            except ValueError:
                try:
                    n = float(v)
                except ValueError:
                    return False
        else:
            return False
        if isinstance(target, m.IntegerType):
            return is_instance(target, int(n))
        if isinstance(target, m.FloatType):
            return is_instance(target, float(n))
        return True
    if isinstance(target, m.StringType):
        return isinstance(v, (int, float, str, bool)) and is_instance(target, str(v))
    if isinstance(target, m.BooleanType):
        return isinstance(v, (int, float)) or (isinstance(v, str) and v.lower() in (
            "true", "false", "yes", "no", "y", "n"))
    return False


def _object_instance(t: m.ObjectType, v: Any) -> bool:
    if t == m.OBJECT and isinstance(v, m.PType):
        return True  # types are objects too (Puppet's Pcore)
    if t.type_name == "Deferred" or (isinstance(v, Deferred) and t == m.OBJECT):
        return isinstance(v, Deferred)
    if not isinstance(v, ObjectValue):
        return False
    if t == m.OBJECT:
        return True
    if v.type_name == t.type_name:
        return True
    # an instance of a subtype: walk the parents of the value's own type
    ot = getattr(v, "object_type", None)
    seen = 0
    while isinstance(ot, m.ObjectType) and seen < MAX_DEPTH:
        if _same_object(ot, t):
            return True
        ot = resolve(ot.parent) if ot.parent is not None else None
        seen += 1
    return False


def _iterable_instance(t: m.IterableType, v: Any, ctx: _Ctx) -> bool:
    elem = t.type
    if isinstance(v, bool) or v is None:
        return False
    if isinstance(v, (list, tuple)):
        return elem is None or all(_instance(elem, x, ctx) for x in v)
    if isinstance(v, dict):
        return elem is None or all(_instance(elem, [k, x], ctx) for k, x in v.items())
    if isinstance(v, (str, int)):
        if isinstance(v, int) and v < 0:
            return False
        # Puppet decides from the inferred type of the value (String iterates String[1, 1],
        # an Integer n iterates Integer[n, n]), not from the actual content.
        if elem is None:
            return True
        from .algebra import infer
        et = iterable_element_type(infer(v))
        return et is not None and _asg(elem, et, ctx)
    if isinstance(v, m.PType):
        tt = m.TypeType(v)
        if not is_iterable_type(tt):
            return False
        return elem is None or _asg(elem, v, ctx)
    return False


# --- equality and ordering ---------------------------------------------------------------------

def types_equal(a: m.PType, b: m.PType) -> bool:
    """Puppet's ``==`` on types: each accepts all values of the other."""
    return a == b or (is_assignable(a, b) and is_assignable(b, a))


def type_le(a: m.PType, b: m.PType) -> bool:
    """``a <= b``: ``a`` is a subtype of ``b`` (``b`` is assignable from ``a``)."""
    return is_assignable(b, a)


def type_lt(a: m.PType, b: m.PType) -> bool:
    """``a < b``: ``a`` is a strict subtype of ``b``."""
    return is_assignable(b, a) and not is_assignable(a, b)


def type_ge(a: m.PType, b: m.PType) -> bool:
    return is_assignable(a, b)


def type_gt(a: m.PType, b: m.PType) -> bool:
    return is_assignable(a, b) and not is_assignable(b, a)
