"""Iteration functions: ``each``, ``map``, ``filter``, ``reduce``, ``any``, ``all``, ``index``,
``step``, ``reverse_each``, ``slice``, ``partition``, ``group_by``, ``tree_each``.

Each follows Puppet's dispatches exactly (Hash with a 1- or 2-parameter lambda, then any
Iterable), because the dispatch order decides both the behaviour and the error messages.
``break()`` inside the lambda stops the iteration and the function returns what it has.
"""
from __future__ import annotations

from typing import Any

from ...types import model as m
from ..errors import BreakSignal, EvalError
from ..iteration import (IteratorValue, hash_style, iterate, reverse_iterator, step_iterator)
from ..runtime import hkey, truthy, ObjectValue
from ..registry import define
from ...messages import render
from ..operators import regexp_search, _ruby_eq
from ...types.relations import is_assignable
from ..typecheck import instance_of
from ..stringconv import to_s
from ..objecttypes import all_attributes


def _hash_pairs(c, h: dict):
    charge = c.ev.budget.charge
    for k, v in list(h.items()):
        charge()
        yield k, v


def _elements(c, it):
    return iterate(c.ev, it, c.node)


def _indexed(c, it):
    """(index-or-key, value) pairs: keys for hash-style iterables, else 0, 1, 2, ..."""
    if hash_style(it):
        for pair in _elements(c, it):
            yield pair[0], pair[1]
    else:
        yield from enumerate(_elements(c, it))


def _define_four(name: str, hash2, hash1, enum2, enum1) -> None:
    f = define(name)
    f.dispatch("Hash[Any, Any] hash", block="Callable[2,2] block")(hash2)
    f.dispatch("Hash[Any, Any] hash", block="Callable[1,1] block")(hash1)
    f.dispatch("Iterable enumerable", block="Callable[2,2] block")(enum2)
    f.dispatch("Iterable enumerable", block="Callable[1,1] block")(enum1)


def _lambda_args(c, value, form: str):
    """The argument lists of the lambda, one per element, for each dispatch form: 'h2' a
    hash's key and value, 'h1' the [key, value] pair, 'e2' index (or key) and element, 'e1'
    the element."""
    if form == "h2":
        return ([k, v] for k, v in _hash_pairs(c, value))
    if form == "h1":
        return ([[k, v]] for k, v in _hash_pairs(c, value))
    if form == "e2":
        return ([i, x] for i, x in _indexed(c, value))
    return ([x] for x in _elements(c, value))


def _define_forms(name: str, impl) -> None:
    """A function whose four dispatches differ only in how elements are passed to the lambda:
    ``impl(c, value, form)``."""
    _define_four(name, *(lambda c, v, f=f: impl(c, v, f) for f in ("h2", "h1", "e2", "e1")))


# ---- each / map -------------------------------------------------------------------------------

def _each(c, value, form):
    try:
        for args in _lambda_args(c, value, form):
            c.block.call(args)
    except BreakSignal:
        pass
    return value


def _map(c, value, form):
    out = []
    try:
        for args in _lambda_args(c, value, form):
            out.append(c.block.call(args))
    except BreakSignal:
        pass
    return out


_define_forms("each", _each)
_define_forms("map", _map)


# ---- filter -------------------------------------------------------------------------------------

def _filter_h2(c, h):
    out = {}
    for k, v in _hash_pairs(c, h):
        if truthy(c.block.call([k, v])):
            out[k] = v
    return out


def _filter_h1(c, h):
    out = {}
    for k, v in _hash_pairs(c, h):
        if truthy(c.block.call([[k, v]])):
            out[k] = v
    return out


def _filter_e2(c, e) -> Any:
    if hash_style(e):
        out: Any = {}
        try:
            for k, v in _indexed(c, e):
                if truthy(c.block.call([k, v])):
                    out[hkey(k)] = v
        except BreakSignal:
            pass
        return out
    res = []
    try:
        for i, x in _indexed(c, e):
            if truthy(c.block.call([i, x])):
                res.append(x)
    except BreakSignal:
        pass
    return res


def _filter_e1(c, e):
    res = []
    try:
        for x in _elements(c, e):
            if truthy(c.block.call([x])):
                res.append(x)
    except BreakSignal:
        pass
    return res


_define_four("filter", _filter_h2, _filter_h1, _filter_e2, _filter_e1)


# ---- any / all ----------------------------------------------------------------------------------------

def _any_h2(c, h):
    return any(truthy(c.block.call([k, v])) for k, v in _hash_pairs(c, h))


def _any_h1(c, h):
    return any(truthy(c.block.call([[k, v]])) for k, v in _hash_pairs(c, h))


def _range_like(e) -> bool:
    """Puppet's integer range iterator stops quietly on break(); Array/Hash/String iteration
    inside any/all/index does not (break() is then illegal there)."""
    return type(e) is int or isinstance(e, m.IntegerType)


def _breakable(e, fn, default):
    if not _range_like(e):
        return fn()
    try:
        return fn()
    except BreakSignal:
        return default


def _any_e2(c, e):
    return _breakable(e, lambda: any(truthy(c.block.call([i, x])) for i, x in _indexed(c, e)),
                      False)


def _any_e1(c, e):
    return _breakable(e, lambda: any(truthy(c.block.call([x])) for x in _elements(c, e)), False)


_define_four("any", _any_h2, _any_h1, _any_e2, _any_e1)


def _all_h2(c, h):
    return all(truthy(c.block.call([k, v])) for k, v in _hash_pairs(c, h))


def _all_h1(c, h):
    return all(truthy(c.block.call([[k, v]])) for k, v in _hash_pairs(c, h))


def _all_e2(c, e):
    return _breakable(e, lambda: all(truthy(c.block.call([i, x])) for i, x in _indexed(c, e)),
                      True)


def _all_e1(c, e):
    return _breakable(e, lambda: all(truthy(c.block.call([x])) for x in _elements(c, e)), True)


_define_four("all", _all_h2, _all_h1, _all_e2, _all_e1)


# ---- reduce ---------------------------------------------------------------------------------------------

reduce = define("reduce")


@reduce.dispatch("Iterable enumerable", block="Callable[2,2] block")
def _reduce(c, e):
    it = iter(_elements(c, e))
    try:
        memo = next(it)
    except StopIteration:
        return None
    for x in it:
        try:
            memo = c.block.call([memo, x])
        except BreakSignal:
            return memo
    return memo


@reduce.dispatch("Iterable enumerable", "Any memo", block="Callable[2,2] block")
def _reduce_memo(c, e, memo):
    for x in _elements(c, e):
        try:
            memo = c.block.call([memo, x])
        except BreakSignal:
            return memo
    return memo


# ---- index ------------------------------------------------------------------------------------------------

index = define("index")


@index.dispatch("Hash[Any, Any] hash", block="Callable[2,2] block")
def _index_h2(c, h):
    for k, v in _hash_pairs(c, h):
        if truthy(c.block.call([k, v])):
            return k
    return None


@index.dispatch("Hash[Any, Any] hash", block="Callable[1,1] block")
def _index_h1(c, h):
    for k, v in _hash_pairs(c, h):
        if truthy(c.block.call([v])):
            return k
    return None


@index.dispatch("Iterable enumerable", block="Callable[2,2] block")
def _index_e2(c, e):
    def run():
        for i, x in _indexed(c, e):
            if truthy(c.block.call([i, x])):
                return i
        return None
    return _breakable(e, run, None)


@index.dispatch("Iterable enumerable", block="Callable[1,1] block")
def _index_e1(c, e):
    def run():
        for i, x in _indexed(c, e):
            if truthy(c.block.call([x])):
                return i
        return None
    return _breakable(e, run, None)


@index.dispatch("String str", "Variant[String,Regexp] match")
def _index_str(c, s, match):
    if isinstance(match, str):
        i = s.find(match)
        return None if i < 0 else i
    mt = regexp_search(match, s)
    return mt.start() if mt else None


@index.dispatch("Iterable enumerable", "Any match")
def _index_value(c, e, match):
    for i, x in _indexed(c, e):
        if _ruby_eq(x, match):
            return i
    return None


# ---- step / reverse_each -----------------------------------------------------------------------------------

step = define("step")


@step.dispatch("Iterable iterable", "Integer[1] step")
def _step(c, it, n):
    return step_iterator(c.ev, it, n)


@step.dispatch("Iterable iterable", "Integer[1] step", block="Callable[1,1] block")
def _step_block(c, it, n):
    try:
        for x in step_iterator(c.ev, it, n):
            c.block.call([x])
    except BreakSignal:
        pass


reverse_each = define("reverse_each")


@reverse_each.dispatch("Iterable iterable")
def _reverse(c, it):
    return reverse_iterator(c.ev, it)


@reverse_each.dispatch("Iterable iterable", block="Callable[1,1] block")
def _reverse_block(c, it):
    try:
        for x in reverse_iterator(c.ev, it):
            c.block.call([x])
    except BreakSignal:
        pass


# ---- slice --------------------------------------------------------------------------------------------------

slice_ = define("slice")


def _slice(c, items: list, size: int, filler):
    block = c.block
    if block is None:
        serving = 1
    else:
        serving = size if block.size_range()[1] == float("inf") else block.arity
        if serving == 0:
            raise EvalError(render("SLICE_BLOCK_MUST_DEFINE_AT"))
        if serving not in (1, size):
            names = ", ".join(p.name for p in block.params)
            raise EvalError(
                render("SLICE_BLOCK_MUST_DEFINE_ONE", size=size, serving=serving, names=names))
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    if block is None:
        return chunks
    try:
        for ch in chunks:
            if serving == 1:
                block.call([ch])
            else:
                ch = ch + [filler] * (serving - len(ch))
                block.call(ch)
    except BreakSignal:
        pass
    return None


@slice_.dispatch("Hash[Any, Any] hash", "Integer[1, default] slice_size", block="Callable block?")
def _slice_hash(c, h, size):
    r = _slice(c, [[k, v] for k, v in _hash_pairs(c, h)], size, [])
    return h if c.block is not None else r


@slice_.dispatch("Iterable enumerable", "Integer[1, default] slice_size", block="Callable block?")
def _slice_enum(c, e, size):
    r = _slice(c, list(_elements(c, e)), size, None)
    return e if c.block is not None else r


# ---- partition / group_by --------------------------------------------------------------------------------------

partition = define("partition")


def _coll_items(c, coll):
    if isinstance(coll, dict):
        return [[k, v] for k, v in _hash_pairs(c, coll)]
    return list(_elements(c, coll))


@partition.dispatch("Collection collection", block="Callable[1,1] block")
def _partition1(c, coll):
    yes, no = [], []
    for x in _coll_items(c, coll):
        (yes if truthy(c.block.call([x])) else no).append(x)
    return [yes, no]


@partition.dispatch("Array array", block="Callable[2,2] block")
def _partition2a(c, arr):
    yes, no = [], []
    for i, x in enumerate(arr):
        (yes if truthy(c.block.call([i, x])) else no).append(x)
    return [yes, no]


@partition.dispatch("Collection collection", block="Callable[2,2] block")
def _partition2(c, coll):
    yes, no = [], []
    for x in _coll_items(c, coll):
        (yes if truthy(c.block.call(list(x))) else no).append(x)
    return [yes, no]


group_by = define("group_by")


@group_by.dispatch("Collection collection", block="Callable[1,1] block")
def _group1(c, coll) -> Any:
    out: dict = {}
    for x in _coll_items(c, coll):
        out.setdefault(hkey(c.block.call([x])), []).append(x)
    return out


@group_by.dispatch("Array array", block="Callable[2,2] block")
def _group2a(c, arr) -> Any:
    out: dict = {}
    for i, x in enumerate(arr):
        out.setdefault(hkey(c.block.call([i, x])), []).append(x)
    return out


@group_by.dispatch("Collection collection", block="Callable[2,2] block")
def _group2(c, coll) -> Any:
    out: dict = {}
    for x in _coll_items(c, coll):
        out.setdefault(hkey(c.block.call(list(x))), []).append(x)
    return out


# ---- tree_each ------------------------------------------------------------------------------------------------

tree_each = define("tree_each")

_OPTIONS = ("Struct[{container_type => Optional[Type], include_root => Optional[Boolean], "
            "include_containers => Optional[Boolean], include_values => Optional[Boolean], "
            "order => Optional[Enum[depth_first, breadth_first]], include_refs => Optional[Boolean]}]")
_TREE = "Variant[Iterator, Array, Hash, Object]"
_DEFAULT_CONTAINERS = m.VariantType((m.ARRAY, m.HASH, m.OBJECT))


def _tree_walk(c, tree, options: dict):
    containers = options.get("container_type") or _DEFAULT_CONTAINERS
    if not is_assignable(_DEFAULT_CONTAINERS, containers):
        raise EvalError(render("ONLY_ARRAY_HASH_AND_OBJECT", text=to_s(containers)))

    def opt(k, default):
        v = options.get(k)
        return default if v is None else bool(v)
    with_containers = opt("include_containers", True)
    with_values = opt("include_values", True)
    with_root = with_containers and opt("include_root", True)
    if not with_containers and not with_values:
        raise EvalError(render("OPTIONS_INCLUDE_CONTAINERS_AND_INCLUDE"))
    depth_first = options.get("order") in (None, "depth_first")
    with_refs = opt("include_refs", False)
    if isinstance(tree, IteratorValue):
        tree = list(iterate(c.ev, tree))

    def children(v):
        if not instance_of(containers, v):
            return None
        if type(v) in (list, tuple):
            return [(i, x) for i, x in enumerate(v)]
        if isinstance(v, dict):
            return list(v.items())
        if isinstance(v, ObjectValue):
            ot = getattr(v, "object_type", None)
            if with_refs or ot is None:
                return list(v.attributes)
            # Attributes of kind `reference` point to other objects and are not walked
            # unless include_refs is true.
            refs = {a.name for a in all_attributes(ot) if a.kind == "reference"}
            return [(k, x) for k, x in v.attributes if k not in refs]
        return None

    charge = c.ev.budget.charge
    out: list[Any] = []
    root_children = children(tree)
    if with_root:
        out.append(([], tree))
    if root_children is None:
        return out
    if depth_first:
        def walk(path, kids):
            for k, v in kids:
                charge()
                p = path + [k]
                sub = children(v)
                if sub is not None:
                    if with_containers:
                        out.append((p, v))
                    walk(p, sub)
                elif with_values:
                    out.append((p, v))
        walk([], root_children)
    else:
        queue: list[tuple[list[Any], Any]] = [([], root_children)]
        while queue:
            path, kids = queue.pop(0)
            for k, v in kids:
                charge()
                p = path + [k]
                sub = children(v)
                if sub is not None:
                    queue.append((p, sub))
                    if with_containers:
                        out.append((p, v))
                elif with_values:
                    out.append((p, v))
    return out


@tree_each.dispatch(f"{_TREE} tree", f"{_OPTIONS} options?", block="Callable[2,2] block")
def _tree2(c, tree, options=None):
    try:
        for p, v in _tree_walk(c, tree, options or {}):
            c.block.call([p, v])
    except BreakSignal:
        pass
    return tree


@tree_each.dispatch(f"{_TREE} tree", f"{_OPTIONS} options?", block="Callable[1,1] block")
def _tree1(c, tree, options=None):
    try:
        for _, v in _tree_walk(c, tree, options or {}):
            c.block.call([v])
    except BreakSignal:
        pass
    return tree


@tree_each.dispatch(f"{_TREE} tree", f"{_OPTIONS} options?")
def _tree0(c, tree, options=None):
    items = [[p, v] for p, v in _tree_walk(c, tree, options or {})]
    return IteratorValue(lambda: iter(items), m.ANY)
