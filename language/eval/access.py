"""The ``[]`` operator: elements of arrays, hashes and strings, and type parameterization.

On values it follows Puppet's AccessOperator (negative indexes count from the end, a start
plus a count, several hash keys give a compacted array...).  On types it builds the
parameterized type through the type system's builder, and on resource/class references it
reads parameters from the in-memory catalog.
"""
from __future__ import annotations

import re
from typing import Any

from ..types import model as m
from ..types.build import TypeCall, build, parameterize_object, resolve_alias
from ..types.errors import TypeSystemError
from ..types.values import Binary, DefaultValue, Regexp
from .errors import EvalError
from .runtime import a_an, a_an_uc, generalized_type_name, hkey, label, to_number, class_name_of
from ..messages import render
from .objects import object_access


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
                          render("HASH_SUPPORTS_WITH_ONE_OR"), target_n)
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
    handled, value = object_access(ev, node, left, keys)
    if handled:
        return value
    raise ev.fail("OPERATOR_NOT_APPLICABLE",
                  render("ACCESS_NOT_APPLICABLE", a_an=a_an(label(left))), target_n)


def _string_access(ev, node, target_n, key_node, s: str, keys: list) -> str:
    keys = _flatten(keys)
    n = len(keys)
    if n == 0 or n > 2:
        raise ev.fail("BAD_STRING_SLICE_ARITY",
                      render("BAD_STRING_SLICE_ARITY", actual=n), target_n)
    ks = []
    for i, k in enumerate(keys):
        num = to_number(k)
        if type(num) is not int:
            shown = num if num is not None else k
            tn = _key_type_name(shown)
            raise ev.fail("BAD_STRING_SLICE_KEY_TYPE",
                          render("BAD_STRING_SLICE_KEY_TYPE", actual=a_an(tn)), key_node(i))
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
                      render("BAD_ARRAY_SLICE_ARITY", actual=n), target_n)
    ks = []
    for i, k in enumerate(keys):
        num = ev.coerce(k, key_node(i), "left")
        if type(num) is not int:
            raise ev.fail("BAD_SLICE_KEY_TYPE",
                          render("CANNOT_USE_WHERE_INTEGER_EXPECTED", a_an_uc=a_an_uc(label(arr)),
                                 key_type_name=_key_type_name(num)), key_node(i))
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


_NO_FLATTEN = {"Struct", "Callable", "Init"}


def _bad_spec(ev, left, where, actual: Any, expected: str):
    return ev.fail("BAD_TYPE_SPECIALIZATION",
                   render("BAD_TYPE_SPECIALIZATION_KEY", a_an=a_an(label(left)),
                          key_type_name=_key_type_name(actual), expected=expected), where)


def _arity(ev, left, node, n, lo, hi, base: str | None = None):
    if lo <= n <= (hi if hi is not None else n):
        return
    bt = base or a_an_uc(label(left))
    if hi is None:
        what = f"{lo} or more arguments"
    elif hi != lo:
        what = f"{lo} to {hi} arguments"
    else:
        what = f"{lo} argument" + ("s" if lo != 1 else "")
    raise ev.fail("BAD_TYPE_SLICE_ARITY", render("BAD_TYPE_SLICE_ARITY", base_type=bt, count=what,
                                                 actual=n), node)


def _is_range_param(v) -> bool:
    return (type(v) is int) or isinstance(v, DefaultValue)


def type_access(ev, node, target_n, key_nodes, left: m.PType, keys: list, scope) -> Any:
    if isinstance(left, m.TypeReferenceType):
        raise ev.fail("UNKNOWN_RESOURCE_TYPE", render("UNKNOWN_RESOURCE_TYPE",
                                                      type_name=left.text), node)
    if isinstance(left, m.ResourceType):
        if left.type_name is not None and left.title is not None:
            return ev.catalog.resource_parameter_access(node, left, keys, scope)
        if left.type_name is not None:
            return _resource_titles(ev, node, key_nodes, left, keys)
        return _open_resource(ev, node, key_nodes, left, keys)
    if isinstance(left, m.ClassType):
        if left.class_name is not None:
            return ev.catalog.class_parameter_access(node, left, keys, scope)
        return _class_names(ev, node, key_nodes, left, keys)
    target = left
    if isinstance(left, m.TypeAliasType):
        try:
            target = resolve_alias(left)
        except TypeSystemError:
            target = left
    if isinstance(target, m.ObjectType) and target.type_name is not None:
        # a named Object type (Error, or an alias such as `type MyType = Object[...]`) is
        # narrowed by its type parameters
        def err(msg):
            return ev.fail("ILLEGAL_TYPE", msg, node,
                           prefix=render("ERROR_WHILE_EVALUATING", expression="a '[]' expression"))
        try:
            return parameterize_object(target, list(keys), err)
        except TypeSystemError as exc:
            raise err(str(exc)) from None
    if isinstance(left, m.TypeAliasType):
        raise ev.fail("NOT_PARAMETERIZED_TYPE",
                      render("OPERATOR_NOT_APPLICABLE_TYPE_ALIAS",
                             alias_name=left.alias_name), node)
    name = _simple_name(left) or left.name
    name = ev.canonical_type_name(name)

    def key_node(i):
        if not key_nodes:
            return node
        return key_nodes[min(i, len(key_nodes) - 1)]

    if name not in _NO_FLATTEN:
        keys = _flatten(keys)
    n = len(keys)
    if name == "Regexp":
        _arity(ev, left, node if n == 0 else key_node(1), n, 1, 1)
        if not isinstance(keys[0], (str, Regexp)):
            raise _bad_spec(ev, left, key_node(0), keys[0], "String or Regexp")
    elif name in ("Variant", "Tuple"):
        types = keys
        if name == "Tuple":
            if len(keys) >= 2 and _is_range_param(keys[-2]) and _is_range_param(keys[-1]):
                types = keys[:-2]
            elif keys and _is_range_param(keys[-1]):
                types = keys[:-1]
        _arity(ev, left, node, len(types), 1, None)
        for i, k in enumerate(types):
            if not isinstance(k, m.PType):
                raise _bad_spec(ev, left, key_node(i), k, "Any-Type")
    elif name == "Enum":
        vals = keys[:-1] if keys and type(keys[-1]) is bool else keys
        _arity(ev, left, node, len(vals), 1, None)
        for i, k in enumerate(vals):
            if type(k) is not str:
                raise _bad_spec(ev, left, key_node(i), k, "String")
    elif name == "Pattern":
        _arity(ev, left, node, n, 1, None)
        for i, k in enumerate(keys):
            if not isinstance(k, (str, Regexp, m.PatternType, m.RegexpType)):
                raise _bad_spec(ev, left, key_node(i), k,
                                "String or Regexp or Pattern-Type or Regexp-Type")
    elif name == "Boolean":
        _arity(ev, left, node, n, 1, 1)
        if type(keys[0]) is not bool:
            raise _bad_spec(ev, left, key_node(0), keys[0], "TrueClass or FalseClass")
    elif name == "Struct":
        _arity(ev, left, node, n, 1, 1)
        if not isinstance(keys[0], dict):
            raise _bad_spec(ev, left, key_node(0), keys[0], "Hash")
    elif name == "Hash":
        if not (n == 2 and type(keys[0]) is int and type(keys[1]) is int):
            for i, k in enumerate(keys[:2]):
                if not isinstance(k, m.PType):
                    raise ev.fail("BAD_TYPE_SLICE_TYPE",
                                  render("HASH_TYPE_ARGUMENTS_MUST_TYPES",
                                         class_label=_class_label(k)),
                                  key_node(i))
            _arity(ev, left, node, n, 2, 4, "Hash-Type")
    elif name == "Array":
        if n == 1 and not isinstance(keys[0], m.PType):
            raise ev.fail("BAD_TYPE_SLICE_TYPE",
                          render("ARRAY_TYPE_ARGUMENTS_MUST_TYPES",
                                 class_label=_class_label(keys[0])),
                          key_node(0))
        if n == 3 and not isinstance(keys[0], m.PType):
            raise ev.fail("BAD_TYPE_SLICE_TYPE",
                          render("ARRAY_TYPE_ARGUMENTS_MUST_TYPES",
                                 class_label=_class_label(keys[0])),
                          key_node(0))
        _arity(ev, left, node, n, 1, 3, "Array-Type")
    elif name in ("Optional", "Type", "Sensitive", "Iterable", "Iterator"):
        _arity(ev, left, node, n, 1, 1, f"{name}-Type")
        k = keys[0]
        if not isinstance(k, m.PType) and not (name == "Optional" and type(k) is str):
            raise ev.fail("BAD_TYPE_SLICE_TYPE",
                          render("TYPE_ARGUMENTS_MUST_TYPES_GOT", name=name,
                                 class_label=_class_label(k)),
                          key_node(0))
    elif name == "NotUndef":
        _arity(ev, left, node, n, 0, 1, "NotUndef-Type")
        if n == 1 and not isinstance(keys[0], (m.PType, str)):
            raise ev.fail("BAD_NOT_UNDEF_SLICE_TYPE",
                          render("BAD_NOT_UNDEF_SLICE_TYPE",
                                 actual=_class_label(keys[0])), key_node(0))
    elif name == "Runtime":
        _arity(ev, left, node, n, 2, 2)
        for i, k in enumerate(keys):
            if type(k) is not str:
                raise _bad_spec(ev, left, key_node(i), k, "String")
    elif name in ("Timespan", "Timestamp"):
        if n > 2:
            _arity(ev, left, node, n, 0, 2)
    elif name in ("Integer", "Float"):
        if not 1 <= n <= 2:
            raise ev.fail("BAD_INTEGER_SLICE_ARITY",
                          render("RANGE_SLICE_ARITY", name=name, n=n),
                          node)
    elif name in ("String", "Collection"):
        if not 1 <= n <= 2:
            if name == "String":
                raise ev.fail("BAD_STRING_SLICE_ARITY",
                              render("BAD_STRING_SLICE_ARITY", actual=n), node)
            _arity(ev, left, node, n, 1, 2, "Collection-Type")
    elif name in ("Object", "TypeSet") and n != 1:
        _arity(ev, left, node, n, 1, 1, f"{name}-Type")
    spans = tuple(k.range for k in key_nodes) if len(key_nodes) == len(keys) else ()
    call = TypeCall(name, tuple(keys), node.range, spans)
    try:
        return build(call, ev.ctx.aliases, ev.resource_type_names())
    except TypeSystemError as exc:
        span = exc.span if isinstance(exc.span, tuple) else node.range
        raise EvalError(str(exc), exc.code or "ILLEGAL_TYPE", span[0], span[1]) from None


def _class_label(v: Any) -> str:
    n = class_name_of(v)
    return n.rsplit("::", 1)[-1] if n.startswith("Puppet::") else n


_NAME_RE = re.compile(r"\A((::)?[a-z_]\w*)(::[a-z]\w*)*\Z")
_CLASSREF_EXT = re.compile(r"\A((::){0,1}[A-Z][\w]*)+\Z")


def _class_names(ev, node, key_nodes, left, keys: list) -> Any:
    if not keys:
        raise ev.fail("BAD_TYPE_SLICE_ARITY", render("CLASS_ACCEPTS_OR_MORE_ARGUMENTS"), node)
    as_array = len(keys) > 1 or type(keys[0]) in (list, tuple)
    flat = [k for k in _flatten(keys) if k is not None]
    if not flat:
        return [] if as_array else None
    out = []
    for i, c in enumerate(flat):
        where = key_nodes[min(i, len(key_nodes) - 1)] if key_nodes else node
        if type(c) is not str:
            raise ev.fail("ILLEGAL_HOSTCLASS_NAME",
                          render("ILLEGAL_HOSTCLASS_NAME", name=a_an_uc(label(c))), where)
        name = c.lower()
        name = name.removeprefix("::")
        if not _NAME_RE.match(name):
            raise ev.fail("ILLEGAL_NAME",
                          render("ILLEGAL_NAME", name=c), where)
        out.append(m.ClassType(name))
    return out if as_array else out[0]


def _open_resource(ev, node, key_nodes, left, keys: list) -> Any:
    if not keys:
        raise ev.fail("BAD_TYPE_SLICE_ARITY", render("RESOURCE_ACCEPTS_OR_MORE_ARGUMENTS"), node)
    first = keys[0]
    where0 = key_nodes[0] if key_nodes else node
    if isinstance(first, m.ResourceType) and first.type_name is not None:
        tname = first.type_name
    elif type(first) is str:
        tname = "::".join(p[:1].upper() + p[1:] for p in first.lstrip(":").split("::"))
    elif isinstance(first, m.ClassType) and first.class_name is None:
        if len(keys) == 1:
            return m.CLASS
        return _class_names(ev, node, key_nodes[1:], first, keys[1:])
    else:
        raise ev.fail("ILLEGAL_RESOURCE_SPECIALIZATION",
                      render("ILLEGAL_RESOURCE_SPECIALIZATION",
                             actual=_key_type_name(first)), where0)
    if not _CLASSREF_EXT.match(tname):
        raise ev.fail("ILLEGAL_CLASSREF", render("ILLEGAL_CLASSREF"), where0)
    rest = keys[1:]
    base = m.ResourceType(tname)
    if not rest:
        return base
    return _resource_titles(ev, node, key_nodes[1:], base, rest, offset_left=True)


def _resource_titles(ev, node, key_nodes, left: m.ResourceType, keys: list,
                     offset_left: bool = False) -> Any:
    as_array = len(keys) > 1 or (keys and type(keys[0]) in (list, tuple))
    flat = [k for k in _flatten(keys) if k is not None]
    if not flat:
        return [] if as_array else None
    out = []
    for i, t in enumerate(flat):
        if type(t) is not str:
            where = key_nodes[min(i, len(key_nodes) - 1)] if key_nodes else node
            shown = m.RESOURCE if offset_left else left
            raise ev.fail("BAD_TYPE_SPECIALIZATION",
                          render("BAD_RESOURCE_TITLE_TYPE", a_an=a_an(label(shown)),
                                 key_type_name=_key_type_name(t)), where)
        out.append(m.ResourceType(left.type_name, t))
    return out if as_array else out[0]
