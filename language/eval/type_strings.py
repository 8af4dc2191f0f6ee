"""How a type prints as a value: Puppet's ``to_s`` of a type, with aliases written out.

A low module of the evaluator's value layer: string conversion (``stringconv``), Ruby's
``format`` (``rubyfmt``) and the mismatch texts (``mismatch``) all print types this way.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from ..types import model as m
from ..types.algebra import normalize
from ..types.build import resolve_alias
from ..types.errors import TypeSystemError
from ..types.format import object_definition_text, quote_string, type_to_string


def normalized(t: Any) -> Any:
    """``normalize(t)``, or ``t`` itself when it cannot be normalized."""
    try:
        return normalize(t)
    except (TypeSystemError, RecursionError):
        return t


def alias_expanded(t: m.PType) -> str:
    """A type's text with every alias shown as ``Name = <its type>`` (once per alias)."""
    try:
        return type_to_string(_expand_aliases(t, set(), 0))
    except (TypeSystemError, RecursionError):
        return type_to_string(t)


def _expand_aliases(t: Any, seen: set, depth: int) -> Any:
    if depth > 40 or not isinstance(t, m.PType):
        return t
    if type(t) is m.TypeReferenceType:
        # a name an alias body could not resolve (`type Foo = NoSuchType`)
        return m.TypeReferenceType(f"TypeReference[{quote_string(t.text)}]")
    if isinstance(t, m.TypeAliasType):
        if t.alias_name in seen or t.scope is m.BUILTIN_SCOPE:
            return t  # Puppet never expands its own aliases (Data, RichData)
        try:
            body = normalized(resolve_alias(t))
        except (TypeSystemError, RecursionError):
            return t
        inner = _expand_aliases(body, seen | {t.alias_name}, depth + 1)
        return m.TypeReferenceType(f"{t.alias_name} = {type_to_string(inner)}")
    if not dataclasses.is_dataclass(t):
        return t
    changes = {}
    for f in dataclasses.fields(t):
        v = getattr(t, f.name)
        if isinstance(v, m.PType):
            nv = _expand_aliases(v, seen, depth + 1)
            if nv is not v:
                changes[f.name] = nv
        elif isinstance(v, tuple) and any(isinstance(x, m.PType) for x in v):
            nv = tuple(_expand_aliases(x, seen, depth + 1) for x in v)
            if any(a is not b for a, b in zip(nv, v)):
                changes[f.name] = nv
        elif isinstance(v, tuple) and any(isinstance(x, m.StructElement) for x in v):
            nv = tuple(dataclasses.replace(x, value_type=_expand_aliases(x.value_type, seen,
                                                                         depth + 1))
                       if isinstance(x, m.StructElement) else x for x in v)
            changes[f.name] = nv
    return dataclasses.replace(t, **changes) if changes else t


def type_value_string(t: m.PType) -> str:
    """A type as a value prints as Puppet's ``to_s``: an alias shows what it stands for
    (``Foo = Integer``, nested aliases expanded once), any other type its plain text."""
    if isinstance(t, m.TypeAliasType) and t.scope is not m.BUILTIN_SCOPE:
        try:
            target = resolve_alias(t)
        except TypeSystemError:
            target = None
        if isinstance(target, m.ObjectType) and target.type_name is not None:
            # a declared Object type prints its whole definition
            return object_definition_text(target)
        return alias_expanded(t)
    if isinstance(t, m.ObjectType) and t.type_name is not None and \
            (m.SIMPLE_TYPES.get(t.type_name) is not t or t.type_name == "Deferred"):
        # a declared Object type (e.g. the type of an Object value) writes out its definition
        return object_definition_text(t)
    return type_to_string(t)
