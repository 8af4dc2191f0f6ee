"""Puppet's treatment of self-recursive Variant aliases (``type Foo = Variant[Foo, String]``).

Puppet resolves such an alias by dropping the Variant members that lead straight back to the
alias being resolved (``TypeAliasType#when_self_recursion_detected``), so ``Foo`` above means
``String`` and ``type X = Variant[Y, Integer]`` with ``type Y = Variant[X, String]`` makes both
``Variant[String, Integer]`` for instance and assignability questions. The type system treats
such a cycle as unresolvable; until it follows Puppet here (see docs/eval.md), the evaluator
rewrites the alias bodies once all aliases of a compilation are defined.

Only cycles made of Variant members are pruned: ``type Tree = Array[Variant[Integer, Tree]]``
is a legitimate recursive data type and is left alone.
"""
from __future__ import annotations

from typing import Any

from ..types import model as m
from ..types.build import define_alias

_MAX_DEPTH = 64


def prune_variant_cycles(scope: m.AliasScope, names: list) -> None:
    """Rewrite the bodies of the aliases ``names`` whose Variants loop back to themselves."""
    rewritten = {}
    for name in names:
        body = scope.body(name)
        if not isinstance(body, m.VariantType) or not _in_variant_cycle(scope, name):
            continue
        new = _pruned(scope, body, (name,), 0)
        if new is not None and new != body:
            rewritten[name] = new
    for name, new in rewritten.items():
        define_alias(scope, name, new)


def _variant_refs(scope: m.AliasScope, t: Any) -> list:
    """The names of this scope's aliases that are direct members of the Variant ``t``."""
    if not isinstance(t, m.VariantType):
        return []
    return [x.alias_name for x in t.types
            if isinstance(x, m.TypeAliasType) and x.scope is scope]


def _in_variant_cycle(scope: m.AliasScope, name: str) -> bool:
    seen: set = set()
    stack = list(_variant_refs(scope, scope.body(name)))
    while stack:
        n = stack.pop()
        if n == name:
            return True
        if n in seen or len(seen) > 10_000:
            continue
        seen.add(n)
        stack.extend(_variant_refs(scope, scope.body(n)))
    return False


def _reaches(scope: m.AliasScope, name: str, targets: tuple) -> bool:
    """Does the alias ``name`` lead back, through Variant members only, to one of ``targets``?"""
    seen: set = set()
    stack = [name]
    while stack:
        n = stack.pop()
        if n in targets:
            return True
        if n in seen or len(seen) > 10_000:
            continue
        seen.add(n)
        stack.extend(_variant_refs(scope, scope.body(n)))
    return False


def _pruned(scope: m.AliasScope, body: m.VariantType, path: tuple, depth: int) -> Any:
    """``body`` without members looping back to an alias on ``path`` (those are inlined)."""
    if depth > _MAX_DEPTH:
        return None
    members: list = []
    for x in body.types:
        if isinstance(x, m.TypeAliasType) and x.scope is scope:
            if x.alias_name in path:
                continue  # the self reference Puppet drops
            inner = scope.body(x.alias_name)
            if isinstance(inner, m.VariantType) and _reaches(scope, x.alias_name, path):
                sub = _pruned(scope, inner, path + (x.alias_name,), depth + 1)
                if sub is None:
                    return None
                members.extend(sub.types if isinstance(sub, m.VariantType) else [sub])
                continue
        members.append(x)
    unique: list = []
    for x in members:
        if x not in unique:
            unique.append(x)
    if not unique:
        return None  # nothing real: left for the "cannot be resolved" error
    if len(unique) == 1:
        return unique[0]
    return m.VariantType(tuple(unique))
