"""What the static checker may ask about the world outside the file: the classes, defined
types, functions, type aliases, resource types, facts and top-scope variables of the workspace
and its modulepath.

The checker only depends on this small protocol; ``puppet_ls.language.ide.index`` implements it
from indexed module files, and ``EMPTY`` stands for "nothing is known" (a file checked alone).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..types.model import AliasScope


@dataclass(frozen=True)
class ParamSig:
    """One parameter of a class, defined type or function, as declared."""

    name: str
    type_text: str = ""          # the type expression as written ('' when untyped)
    has_default: bool = False
    captures_rest: bool = False
    default_text: str = ""


@dataclass(frozen=True)
class Entity:
    """A named thing defined somewhere: where it is and, when readable, its signature."""

    kind: str                    # class, define, function, type_alias, resource_type, fact, node, plan, top_variable
    name: str                    # fully qualified, lower case for classes/defines/functions
    path: str = ""               # file it is defined in ('' when built in or unknown)
    offset: int = 0              # range of its name in that file
    end: int = 0
    params: tuple = ()           # ParamSig, in order (for Ruby functions/types: best effort)
    signature: str = ""          # human readable signature
    doc: str = ""
    return_type: str = ""        # type expression text of a function's return type
    parent: str = ""             # a class's parent class (inherits)
    variables: frozenset = frozenset()   # a class's own variables (for $class::var)
    body_text: str = ""          # a type alias's body as written
    api: str = ""                # 'puppet', 'ruby4', 'ruby3' for functions; 'ruby' for types
    attributes: tuple = ()       # a Ruby resource type's (name, kind, doc, values)
    extra: dict = field(default_factory=dict, compare=False, hash=False)


class Environment:
    """Nothing known: a file checked on its own.  Subclasses answer from an index."""

    #: True when every module the code may use has been indexed (a modulepath was given), so
    #: that an unqualified name missing from the index is really unknown.
    complete: bool = False

    def modules(self) -> frozenset:
        """Names of the modules that were indexed."""
        return frozenset()

    def lookup(self, kind: str, name: str) -> list:
        """Entities of ``kind`` called ``name`` (qualified, without a leading '::')."""
        return []

    def names(self, kind: str) -> list:
        """Every indexed name of ``kind`` (for completion)."""
        return []

    def has_fact(self, name: str) -> bool:
        """Is ``name`` a custom fact that some indexed module adds?"""
        return False

    def has_top_variable(self, name: str) -> bool:
        """Is ``name`` assigned at top scope (site.pp and friends)?"""
        return False

    def alias_scope(self) -> AliasScope | None:
        """An AliasScope holding the indexed type aliases (None when there are none)."""
        return None

    def knows_module_of(self, name: str) -> bool:
        """Is the module that a qualified ``name`` would live in indexed (so a missing name in
        it is really missing)?"""
        if "::" not in name:
            return False
        return name.lstrip(":").split("::", 1)[0].lower() in self.modules()


EMPTY = Environment()
