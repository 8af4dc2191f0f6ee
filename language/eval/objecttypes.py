"""Object types (``Object[{...}]``, ``Error``, ``Deferred``) and creating their instances."""
from __future__ import annotations

from ..types import model as m
from ..types.values import Deferred, ObjectValue
from .errors import EvalError
from .functions import Function


def new_object_function(t: m.ObjectType):
    if t == m.DEFERRED or t.type_name == "Deferred":
        from .convert import new_deferred
        return new_deferred
    return _ObjectNew(t)


class _ObjectNew(Function):
    """Positional arguments in attribute order, or one hash of attribute values."""

    def __init__(self, t: m.ObjectType):
        super().__init__(f"new_{t.type_name or 'Object'}")
        self.t = t

    def call(self, ev, args, block, scope, node):
        from .mismatch import validate_parameters
        from .typecheck import instance_of
        attrs = self.t.all_attributes()
        name = self.t.type_name or "Object"
        if len(args) == 1 and isinstance(args[0], dict) and not (
                len(attrs) >= 1 and instance_of(attrs[0].type, args[0]) and len(attrs) == 1):
            given = dict(args[0])
        else:
            if len(args) > len(attrs):
                raise EvalError(f"'new_{name}' expects {_count(attrs)}, got {len(args)}")
            given = {a.name: v for a, v in zip(attrs, args)}
        specs = [(a.name, a.type, a.has_value) for a in attrs]
        msg = validate_parameters(f"{name}.new()", specs, given)
        if msg:
            raise EvalError(msg.replace(f"{name}.new():", f"{name}.new():", 1))
        values = []
        for a in attrs:
            if a.name in given:
                values.append((a.name, given[a.name]))
            elif a.has_value and a.value is not None:
                values.append((a.name, a.value))
        ov = ObjectValue(name, tuple(values))
        object.__setattr__(ov, "object_type", self.t) if False else None
        return ov


def _count(attrs) -> str:
    req = sum(1 for a in attrs if not a.has_value)
    if req == len(attrs):
        return f"{req} argument" + ("s" if req != 1 else "")
    return f"between {req} and {len(attrs)} arguments"
