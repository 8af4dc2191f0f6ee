"""Variable scopes with Puppet's rules: immutability, named (class) scopes, ephemeral layers.

A :class:`Scope` is Puppet's scope: the top scope, a node scope, or the scope of a class or
defined-type instance.  Inside one scope there is a stack of *ephemeral* layers:

* a :class:`MatchLayer` holds the result of a successful regular-expression match
  (``$0``…``$n``); every successful match pushes one, and ``if``/``case``/selectors pop back
  to the level they started at, so match variables are visible until the end of the
  conditional construct and never leak out of it;
* a :class:`LocalLayer` holds the parameters and local variables of one lambda or function
  call (lambdas run in the scope they were written in, on top of its layers at call time).

A simple name is looked up through the layers, then in the scope's own table, then in the
inherited class scope or the enclosing (node/top) scope.  A qualified name (``$apache::port``,
``$::x``) is looked up in the table of qualified variables that every class and the top
scope publish their variables to.
"""
from __future__ import annotations

from typing import Any

_MISSING = object()


class Layer:
    """Base of the ephemeral layers; ``parent`` is the layer (or table) underneath."""

    __slots__ = ("parent",)
    is_local = False

    def __init__(self, parent: Layer | None):
        self.parent = parent

    def get(self, name: str) -> Any:
        """The value bound to ``name`` here or below, or ``_MISSING``."""
        p = self.parent
        return p.get(name) if p is not None else _MISSING

    def bound(self, name: str) -> bool:
        return False


class LocalLayer(Layer):
    """Variables of one lambda/function invocation (or the scope's own table)."""

    __slots__ = ("symbols",)
    is_local = True

    def __init__(self, parent: Layer | None, symbols: dict | None = None):
        super().__init__(parent)
        self.symbols = symbols if symbols is not None else {}

    def get(self, name: str) -> Any:
        v = self.symbols.get(name, _MISSING)
        if v is _MISSING and self.parent is not None:
            return self.parent.get(name)
        return v

    def bound(self, name: str) -> bool:
        return name in self.symbols


class MatchLayer(Layer):
    """The groups of one successful match: ``$0`` is the whole match, unmatched groups undef."""

    __slots__ = ("groups",)

    def __init__(self, parent: Layer | None, groups: tuple):
        super().__init__(parent)
        self.groups = groups

    def get(self, name: str) -> Any:
        if name.isdigit():
            i = int(name)
            return self.groups[i] if i < len(self.groups) else None
        return super().get(name)


class Scope:
    """One Puppet scope (top, node, class or define instance) with its ephemeral stack."""

    __slots__ = ("table", "layers", "parent", "kind", "name", "context", "resource",
                 "inherited", "declared_in")

    def __init__(self, context: Any, parent: Scope | None = None, kind: str = "top",
                 name: str = "", resource: Any = None):
        self.table = LocalLayer(None)
        self.layers: list = [self.table]
        self.parent = parent          # the scope this one was created from (enclosing)
        self.kind = kind              # "top", "node", "class", "define"
        self.name = name              # class name (for qualified variables)
        self.context = context        # the evaluation context (qualified vars, classes, ...)
        self.resource = resource
        self.inherited: Scope | None = None
        # Where resource defaults are looked up after this scope, when not ``parent``: a class
        # sees the defaults of the scope that declared it (or of the class it inherits), as
        # Puppet's dynamic scoping of resource defaults has it.
        self.declared_in: Scope | None = None

    def defaults_parent(self) -> Scope | None:
        return self.declared_in if self.declared_in is not None else self.parent

    def label(self) -> str:
        """Puppet's name for the scope in log sources: ``Scope(Class[Foo])``."""
        if self.kind == "top":
            return "Scope(Class[main])"
        if self.kind == "node":
            return f"Scope(Node[{self.name}])"
        res = self.resource
        if self.kind == "define" and res is not None:
            return f"Scope({res.type_name}[{res.title}])"
        cap = "::".join(p[:1].upper() + p[1:] for p in self.name.split("::"))
        return f"Scope(Class[{cap}])"

    # -- layers ------------------------------------------------------------------------------
    @property
    def level(self) -> int:
        return len(self.layers)

    def pop_to(self, level: int) -> None:
        del self.layers[level:]

    def push_match(self, groups: tuple) -> None:
        self.layers.append(MatchLayer(self.layers[-1], groups))

    def push_local(self, symbols: dict) -> LocalLayer:
        layer = LocalLayer(self.layers[-1], symbols)
        self.layers.append(layer)
        return layer

    def effective_table(self) -> LocalLayer:
        """Where an assignment goes: the innermost local layer (or the scope's own table)."""
        s = self.layers[-1]
        while s is not None and not s.is_local:
            s = s.parent
        return s if s is not None else self.table

    # -- variables -----------------------------------------------------------------------------
    def enclosing(self) -> Scope | None:
        """The next scope searched for simple names: inherited class, else node/top scope."""
        if self.inherited is not None:
            return self.inherited
        p = self.parent
        while p is not None and p.kind not in ("top", "node"):
            p = p.parent
        return p

    def lookup(self, name: str) -> Any:
        """Value of a variable, or ``_MISSING`` when it does not exist."""
        if "::" in name:
            return self.context.lookup_qualified(name.removeprefix("::"))
        scope: Scope | None = self
        while scope is not None:
            v = scope.layers[-1].get(name)
            if v is not _MISSING:
                return v
            scope = scope.enclosing()
        return _MISSING

    def bound(self, name: str) -> bool:
        return self.effective_table().bound(name)

    def set(self, name: str, value: Any) -> None:
        table = self.effective_table()
        table.symbols[name] = value
        if table is self.table:
            if self.kind == "top":
                self.context.qualified[name] = value
            elif self.kind == "class":
                self.context.qualified[f"{self.name}::{name}"] = value

    def exists(self, name: str) -> bool:
        return self.lookup(name) is not _MISSING

    def local_variables(self) -> dict:
        """The variables bound in this scope's own table (for class parameter access)."""
        return self.table.symbols

    def __repr__(self) -> str:
        return f"Scope({self.kind} {self.name!r})"


MISSING = _MISSING
