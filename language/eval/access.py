"""The ``[]`` operator: elements of arrays, hashes and strings, and type parameterization.

On values it follows Puppet's AccessOperator (negative indexes count from the end, a start
plus a count, several hash keys give a compacted array...).  On types it builds the
parameterized type through the type system's builder, and on resource/class references it
reads parameters from the in-memory catalog.
"""
from __future__ import annotations

from typing import Any

from ..types import model as m
from ..types.build import TypeCall, build
from ..types.errors import TypeSystemError
from ..types.values import Binary, DefaultValue
from .errors import EvalError
from .runtime import (a_an, a_an_uc, generalized_type_name, hkey, label, to_number)


def _flatten(keys: list) -> list:
    out = []
    for k in keys:
        if type(k) in (list, tuple):
            out.extend(_flatten(list(k)))
        else:
            out.append(k)
    return out


def _key_type_name(v: Any) -> str:
    if v is None:
        return "Undef"
    if isinstance(v, DefaultValue):
        return "Default"
    return generalized_type_name(v)


def access(ev, node, target_n, key_nodes, left: Any, keys: list, scope) -> Any:
    """Evaluate ``left[keys]`` (``node`` is the access expression, for locations)."""
    def key_node(i):
        return key_nodes[i] if i < len(key_nodes) else node

    t = type(left)
    if t is str:
        return _string_access(ev, node, target_n, key_node, left, keys)
    if isinstance(left, Binary):
        s = left.data.decode("latin-1")
        return Binary(_string_access(ev, node, target_n, key_node, s, keys).encode("latin-1"))
    if t is list or t is tuple:
        return _array_access(ev, node, target_n, key_node, left, keys)
    if isinstance(left, dict):
        if not keys:
            raise ev.fail("BAD_HASH_SLICE_ARITY",
                          "Hash supports [] with one or more arguments. Got 0", target_n)
        result = []
        for k in keys:
            try:
                result.append(left.get(hkey(k)))
            except TypeError:
                result.append(None)
        if len(result) == 1:
            return result[0]
        return [r for r in result if r is not None]
    if isinstance(left, m.PType):
        return type_access(ev, node, target_n, key_nodes, left, keys, scope)
    from .objects import object_access
    handled, value = object_access(ev, node, left, keys)
    if handled:
        return value
    raise ev.fail("OPERATOR_NOT_APPLICABLE",
                  f"Operator '[]' is not applicable to {a_an(label(left))}.", target_n)


def _string_access(ev, node, target_n, key_node, s: str, keys: list) -> str:
    keys = _flatten(keys)
    n = len(keys)
    if n == 0 or n > 2:
        raise ev.fail("BAD_STRING_SLICE_ARITY",
                      f"String supports [] with one or two arguments. Got {n}", target_n)
    ks = []
    for i, k in enumerate(keys):
        num = to_number(k)
        if type(num) is not int:
            shown = num if num is not None else k
            tn = _key_type_name(shown)
            raise ev.fail("BAD_STRING_SLICE_KEY_TYPE",
                          f"A substring operation does not accept {a_an(tn)} as a character "
                          "index. Expected an Integer", key_node(i))
        ks.append(num)
    length = len(s)
    k1 = ks[0]
    if n == 1:
        k1 = length + k1 if k1 < 0 else k1
        if k1 < 0 or k1 >= length:
            return ""
        return s[k1]
    k2 = ks[1]
    k1 = length + k1 if k1 < 0 else k1
    k2 = length - k1 + k2 + 1 if k2 < 0 else k2
    if k1 < 0:
        k2 = k2 + k1
        k1 = 0
    if k1 > length or k2 < 0:
        return ""
    return s[k1:k1 + k2]


def _array_access(ev, node, target_n, key_node, arr, keys: list) -> Any:
    keys = _flatten(keys)
    n = len(keys)
    if n == 0 or n > 2:
        raise ev.fail("BAD_ARRAY_SLICE_ARITY",
                      f"Array supports [] with one or two arguments. Got {n}", target_n)
    ks = []
    for i, k in enumerate(keys):
        num = ev.coerce(k, key_node(i), "left")
        if type(num) is not int:
            raise ev.fail("BAD_SLICE_KEY_TYPE",
                          f"{a_an_uc(label(arr))}[] cannot use {_key_type_name(num)} where "
                          "Integer is expected", key_node(i))
        ks.append(num)
    length = len(arr)
    k1 = ks[0]
    if n == 1:
        if k1 < 0:
            k1 += length
        if 0 <= k1 < length:
            return arr[k1]
        return None
    k2 = ks[1]
    k1 = length + k1 if k1 < 0 else k1
    k2 = length - k1 + k2 + 1 if k2 < 0 else k2
    if k1 < 0:
        k2 = k2 + k1
        k1 = 0
    if k1 > length or k2 < 0:
        return []
    return list(arr[k1:k1 + k2])


# ---- types -----------------------------------------------------------------------------------------

def _simple_name(t: m.PType) -> str | None:
    """The name to parameterize ``t`` with, when ``t`` is an unparameterized built-in."""
    base = m.SIMPLE_TYPES.get(t.name)
    if base is not None and base == t:
        return t.name
    return None


def type_access(ev, node, target_n, key_nodes, left: m.PType, keys: list, scope) -> Any:
    if isinstance(left, m.TypeReferenceType):
        raise ev.fail("UNKNOWN_RESOURCE_TYPE", f"Resource type not found: {left.text}", node)
    if isinstance(left, m.ResourceType):
        if left.type_name is not None and left.title is not None:
            return ev.catalog.resource_parameter_access(node, left, keys, scope)
        if left.type_name is not None:
            return _resource_titles(ev, node, key_nodes, left, keys)
    if isinstance(left, m.ClassType) and left.class_name is not None:
        return ev.catalog.class_parameter_access(node, left, keys, scope)
    if isinstance(left, m.TypeAliasType):
        raise ev.fail("NOT_PARAMETERIZED_TYPE",
                      f"Operator '[]' is not applicable to a type alias ({left.alias_name})", node)
    name = _simple_name(left)
    if name is None:
        name = left.name
    if isinstance(left, m.ResourceType) or isinstance(left, m.ClassType):
        name = left.name
    if name in ("Integer", "Float") and not keys:
        raise ev.fail("BAD_INTEGER_SLICE_ARITY",
                      f"{name}-Type supports [] with one or two arguments (from, to). Got 0", node)
    spans = tuple(k.range for k in key_nodes)
    call = TypeCall(name, tuple(keys), node.range, spans)
    try:
        return build(call, ev.ctx.aliases, ev.resource_type_names())
    except TypeSystemError as exc:
        span = exc.span if isinstance(exc.span, tuple) else node.range
        msg = str(exc)
        raise EvalError(msg, exc.code or "ILLEGAL_TYPE", span[0], span[1]) from None


def _resource_titles(ev, node, key_nodes, left: m.ResourceType, keys: list) -> Any:
    as_array = len(keys) > 1 or (keys and type(keys[0]) in (list, tuple))
    flat = [k for k in _flatten(keys) if k is not None]
    if not flat:
        return [] if as_array else None
    out = []
    for i, t in enumerate(flat):
        if type(t) is not str:
            where = key_nodes[min(i, len(key_nodes) - 1)] if key_nodes else node
            raise ev.fail("BAD_TYPE_SPECIALIZATION",
                          f"Error creating type specialization of {a_an(label(left))}, Cannot use "
                          f"{_key_type_name(t)} where a resource title String is expected", where)
        out.append(m.ResourceType(left.type_name, t))
    return out if as_array else out[0]
