"""Creating instances of Object types (``MyObject(1, 'a')``, ``MyObject.new({a => 1})``,
``Error('msg')``) with Puppet's two signatures: a hash of attribute values, or the values
positionally in attribute order (parent attributes first).  Constants take their declared
value and cannot be given; attributes with a default value are optional.
"""
from __future__ import annotations

from typing import Any

from ..types import model as m
from ..types.build import resolve_alias
from ..types.values import ObjectValue
from .registry import Dispatch, Function
from .typecheck import instance_of
from ..types.errors import TypeSystemError

_NOT_SETTABLE = ("constant", "derived")


def new_object_function(t: m.ObjectType):
    return _ObjectNew(t)


def _resolve(t):
    seen = 0
    while isinstance(t, m.TypeAliasType) and seen < 50:
        t = resolve_alias(t)
        seen += 1
    return t


def all_attributes(t: m.ObjectType, depth: int = 0) -> list:
    """Attributes of an Object type including inherited ones (parent first, overrides kept
    in the parent's position)."""
    if depth > 50:
        return []
    parent = _resolve(t.parent) if t.parent is not None else None
    inherited = all_attributes(parent, depth + 1) if isinstance(parent, m.ObjectType) else []
    own = {a.name: a for a in t.attributes}
    out = [own.pop(a.name, a) for a in inherited]
    out.extend(a for a in t.attributes if a.name in own)
    return out


class _Sig:
    """A dispatch whose parameter types are already built (no type text to parse)."""


class _ObjectNew(Function):
    def __init__(self, t: m.ObjectType):
        name = t.type_name or "Object"
        super().__init__(f"new_{name}")
        self.t = t
        self.type_name = name
        attrs = all_attributes(t)
        self.attrs = attrs
        settable = [a for a in attrs if a.kind not in _NOT_SETTABLE]
        self.settable = settable
        # A key may be left out when the attribute has a value, or (as in any Struct) when its
        # type accepts undef: `father => Optional[Person]` need not be given.
        elements = tuple(m.StructElement(a.name, a.type, a.has_value or _accepts_undef(a.type))
                         for a in settable)
        hash_d = Dispatch(self, [], None, self._from_hash)
        hash_d._sig = ([m.StructType(elements)], ["hash"], (1, 1), None, "block", False)
        pos_d = Dispatch(self, [], None, self._from_positional)
        # Positionally, the attributes that must be given come first, then the optional ones
        # (each group in declaration order), as Puppet orders new()'s parameters; an attribute
        # whose type accepts undef is optional (Puppet gives it the value undef).
        optional = [a.has_value or _accepts_undef(a.type) for a in settable]
        positional = ([a for a, o in zip(settable, optional) if not o]
                      + [a for a, o in zip(settable, optional) if o])
        self.positional = positional
        required = optional.count(False)
        pos_d._sig = ([a.type for a in positional], [a.name for a in positional],
                      (required, len(positional)), None, "block", False)
        self.dispatches = [hash_d, pos_d]

    def _make(self, given: dict) -> ObjectValue:
        values = []
        for a in self.attrs:
            if a.name in given:
                values.append((a.name, given[a.name]))
            elif a.has_value and (a.value is not None or a.kind in _NOT_SETTABLE):
                values.append((a.name, _thaw(a.value)))
        ov = ObjectValue(self.type_name, tuple(values))
        object.__setattr__(ov, "object_type", self.t)
        return ov

    def _from_hash(self, c, h: dict) -> ObjectValue:
        return self._make(dict(h))

    def _from_positional(self, c, *args) -> ObjectValue:
        return self._make({a.name: v for a, v in zip(self.positional, args)})


def _accepts_undef(t: Any) -> bool:
    try:
        return bool(instance_of(t, None))
    except (TypeSystemError,
            RecursionError):  # an unresolvable alias: let the Struct check report it
        return False


def _thaw(v: Any) -> Any:
    """Attribute defaults are stored frozen (tuples); values are lists and hashes again."""
    if isinstance(v, tuple):
        if v and all(isinstance(x, tuple) and len(x) == 2 for x in v) and False:
            return {k: _thaw(x) for k, x in v}
        return [_thaw(x) for x in v]
    return v
