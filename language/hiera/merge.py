"""Hiera's merge strategies (first, unique, hash, deep) as Puppet applies them.

Each strategy's ``lookup`` combines the values of several *variants* (layers, levels, paths)
in priority order, exactly as ``Puppet::Pops::MergeStrategy#lookup`` does: a single found
variant is taken as it is (``unique`` removes its duplicates), several are reduced pairwise
with the higher priority first.  ``deep`` is the ``deep_merge`` gem's ``deep_merge!`` with
Puppet's options (``knockout_prefix``, ``sort_merged_arrays``, ``merge_hash_arrays``).
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from .interpolate import HieraError, NotFound, ruby_class

STRATEGIES = ("first", "unique", "hash", "deep")


def _ukey(v: Any) -> Any:
    """Ruby's ``eql?`` identity for ``uniq``/``|``: 1, 1.0 and true differ."""
    if isinstance(v, (list, dict)):
        return (type(v).__name__, repr(v))
    return (type(v).__name__, v)


def union(a: list, b: list) -> list:
    seen: set = set()
    out = []
    for v in (*a, *b):
        k = _ukey(v)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out


def _flatten(v: list) -> list:
    out: list = []
    for e in v:
        out.extend(_flatten(e) if isinstance(e, list) else [e])
    return out


class Strategy:
    name = "first"

    def __init__(self, options: dict | None = None, key: str = "") -> None:
        self.options = options or {}
        self.key = key

    def lookup(self, variants: Iterable, fn: Callable[[Any], Any]) -> Any:
        variants = list(variants)
        if not variants:
            raise NotFound
        if len(variants) == 1:
            return self.merge_single(fn(variants[0]))
        memo: Any = _NOT_FOUND
        for variant in variants:
            try:
                value = fn(variant)
            except NotFound:
                continue
            memo = self.convert(value) if memo is _NOT_FOUND else self.merge(memo, value)
        if memo is _NOT_FOUND:
            raise NotFound
        return memo

    def convert(self, value: Any) -> Any:
        return value

    def merge_single(self, value: Any) -> Any:
        return value

    def merge(self, e1: Any, e2: Any) -> Any:
        raise NotImplementedError

    def _expect(self, value: Any, ok: bool, expected: str) -> None:
        if not ok:
            raise HieraError("HIERA_MERGE_TYPE_MISMATCH", strategy=self.name, key=self.key,
                             expected=expected, actual=ruby_class(value))


_NOT_FOUND = object()


class First(Strategy):
    name = "first"

    def lookup(self, variants: Iterable, fn: Callable[[Any], Any]) -> Any:
        for variant in variants:
            try:
                return fn(variant)
            except NotFound:
                continue
        raise NotFound


class Unique(Strategy):
    name = "unique"

    def convert(self, value: Any) -> Any:
        return _flatten(value) if isinstance(value, list) else [value]

    def merge_single(self, value: Any) -> Any:
        return union(value, []) if isinstance(value, list) else value

    def merge(self, e1: Any, e2: Any) -> Any:
        for e in (e1, e2):
            self._expect(e, not isinstance(e, dict), "a scalar or an array")
        return union(self.convert(e1), self.convert(e2))


class HashMerge(Strategy):
    name = "hash"

    def merge(self, e1: Any, e2: Any) -> Any:
        for e in (e1, e2):
            self._expect(e, isinstance(e, dict), "a hash")
        out = dict(e2)
        out.update(e1)
        return out


def _truthy(v: Any) -> bool:
    return v is not None and v is not False


class Deep(Strategy):
    name = "deep"

    def merge(self, e1: Any, e2: Any) -> Any:
        return deep_merge(copy.deepcopy(e1), copy.deepcopy(e2), self.options)


def _overwrite(source: Any, dest: Any, ko: str | None) -> Any:
    if ko:
        if isinstance(source, str):
            tmp: Any = source.removeprefix(ko)
        elif isinstance(source, list):
            tmp = [v for v in source if not (isinstance(v, str) and v.startswith(ko))]
        else:
            tmp = source
        return tmp if tmp == source else ""
    return source


def deep_merge(source: Any, dest: Any, options: dict, depth: int = 0) -> Any:
    """``DeepMerge.deep_merge!(source, dest)`` with ``preserve_unmergeables: false``."""
    ko = options.get("knockout_prefix") or None
    if source is None or depth > 200:
        return dest
    if not _truthy(dest):
        return source
    if isinstance(source, dict):
        for k, sv in source.items():
            if isinstance(dest, dict):
                if _truthy(dest.get(k)):
                    dest[k] = deep_merge(sv, dest[k], options, depth + 1)
                else:
                    dest[k] = deep_merge(sv, copy.copy(sv), options, depth + 1)
            else:
                dest = _overwrite(source, dest, ko)
        return dest
    if isinstance(source, list):
        if ko and ko in source:
            dest = [] if isinstance(dest, list) else ({} if isinstance(dest, dict) else None)
            source = [v for v in source if v != ko]
        if isinstance(dest, list):
            if ko:
                kept = []
                for item in source:
                    plain = item[len(ko):] if isinstance(item, str) and item.startswith(ko) else item
                    if plain != item:
                        dest = [d for d in dest if d != plain and d != item]
                    else:
                        kept.append(item)
                source = kept
            if (options.get("merge_hash_arrays") and all(isinstance(i, dict) for i in source)
                    and all(isinstance(i, dict) for i in dest)):
                merged = [deep_merge(source[i] if i < len(source) else {}, d, options, depth + 1)
                          for i, d in enumerate(dest)]
                dest = merged + source[len(dest):]
            else:
                dest = union(dest, source)
            if options.get("sort_merged_arrays"):
                try:
                    dest.sort()
                except TypeError:
                    pass
            return dest
        return _overwrite(source, dest, ko)
    return _overwrite(source, dest, ko)


def strategy(merge: Any, key: str = "") -> Strategy:
    """The strategy named by ``merge``: a name, a hash with ``strategy`` and options, or
    ``None`` (first found)."""
    options: dict = {}
    name = merge
    if isinstance(merge, dict):
        options = {k: v for k, v in merge.items() if k != "strategy"}
        name = merge.get("strategy", "first")
    if name in (None, "first", "default"):
        return First(options, key)
    if name == "unique":
        return Unique(options, key)
    if name == "hash":
        return HashMerge(options, key)
    if name in ("deep", "unconstrained_deep"):
        return Deep(options, key)
    raise HieraError("HIERA_BAD_VALUE", key="merge", where=f"the lookup of '{key}'",
                     expected="one of first, unique, hash, deep")
