"""Iterables and Iterator values: what ``each``/``map``/... walk over, and the lazy Iterators
that ``reverse_each`` and ``step`` return without a lambda.

Puppet iterates Arrays (elements), Hashes (``[key, value]`` pairs), Strings (characters),
non-negative Integers ``n`` (``0..n-1``), finite ``Integer[a, b]`` ranges and ``Enum`` types.
Every produced element costs one budget step, so an enormous range stops cleanly.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable, Iterator as PyIterator

from ..types import model as m
from ..types.algebra import infer_set, make_variant
from ..types.build import resolve_alias
from ..types.errors import TypeSystemError


class IteratorValue:
    """A Puppet Iterator: a lazily produced sequence of known element type."""

    __slots__ = ("factory", "element_type", "hash_style")

    def __init__(self, factory: Callable[[], PyIterator], element_type: m.PType,
                 hash_style: bool = False):
        self.factory = factory
        self.element_type = element_type
        self.hash_style = hash_style

    def __iter__(self):
        return self.factory()

    def __repr__(self) -> str:
        return f"Iterator[{self.element_type}]"


def is_iterator(v: Any) -> bool:
    return isinstance(v, IteratorValue)


def is_iterable(v: Any) -> bool:
    t = type(v)
    if t is list or t is tuple or t is str or isinstance(v, (dict, IteratorValue)):
        return True
    if t is int:
        return v >= 0
    if isinstance(v, m.IntegerType):
        return v.lo is not None and v.hi is not None
    if isinstance(v, m.EnumType):
        return True
    if isinstance(v, m.TypeAliasType):
        try:
            return is_iterable(resolve_alias(v))
        except (TypeSystemError, RecursionError):
            return False
    return False


def _range(lo: int, hi: int):
    if lo <= hi:
        return iter(range(lo, hi + 1))
    return iter(range(lo, hi - 1, -1))


def raw_iter(v: Any) -> PyIterator | None:
    """A Python iterator over a Puppet iterable (None when not iterable)."""
    t = type(v)
    if t is list or t is tuple:
        return iter(v)
    if isinstance(v, dict):
        return ([k, x] for k, x in v.items())
    if t is str:
        return iter(v)
    if t is int:
        return iter(range(v)) if v >= 0 else None
    if isinstance(v, IteratorValue):
        return iter(v)
    if isinstance(v, m.IntegerType):
        if v.lo is None or v.hi is None:
            return None
        return _range(v.lo, v.hi)
    if isinstance(v, m.EnumType):
        return iter(list(v.values))
    if isinstance(v, m.TypeAliasType):
        try:
            return raw_iter(resolve_alias(v))
        except (TypeSystemError, RecursionError):
            return None
    return None


def iterate(ev, v: Any, node=None) -> PyIterator:
    """Elements of an iterable, charging the budget for each one."""
    it = raw_iter(v)
    if it is None:
        return iter(())
    charge = ev.budget.charge
    return _charged(it, charge)


def _charged(it, charge):
    for x in it:
        charge()
        yield x


def hash_style(v: Any) -> bool:
    return isinstance(v, dict) or (isinstance(v, IteratorValue) and v.hash_style)


def element_type_of(v: Any) -> m.PType:
    t = type(v)
    if t is str:
        return m.StringType((1, 1))
    if t is list or t is tuple:
        if not v:
            return m.UNIT
        return make_variant([infer_set(x) for x in v])
    if isinstance(v, dict):
        if not v:
            return m.TupleType((m.ANY, m.ANY), (2, 2))
        return m.TupleType((make_variant([infer_set(k) for k in v]),
                            make_variant([infer_set(x) for x in v.values()])), (2, 2))
    if t is int:
        return m.IntegerType(0, v - 1) if v > 0 else m.UNIT
    if isinstance(v, m.IntegerType):
        return v
    if isinstance(v, m.EnumType):
        return v
    if isinstance(v, IteratorValue):
        return v.element_type
    return m.ANY


def to_list(ev, v: Any) -> list:
    return list(iterate(ev, v))


def reverse_iterator(ev, v: Any) -> IteratorValue:
    items = None

    def factory():
        nonlocal items
        if items is None:
            items = list(iterate(ev, v))
        return iter(reversed(items))
    return IteratorValue(factory, element_type_of(v), hash_style(v))


def step_iterator(ev, v: Any, step: int) -> IteratorValue:
    def factory():
        for i, x in enumerate(iterate(ev, v)):
            if i % step == 0:
                yield x
    return IteratorValue(factory, element_type_of(v), hash_style(v))
