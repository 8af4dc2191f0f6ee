"""The state shared by one evaluation: settings, budget, logs, definitions and the catalog.

Everything an evaluation may change lives here (never in module globals), so evaluations are
independent and can run side by side.  ``Settings`` mirrors the Puppet settings that change
the language's behaviour (``strict``, ``strict_variables``, ``tasks``) plus the node the
catalog is compiled for.
"""
from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..types.model import AliasScope
from .budget import Budget
from .scope import MISSING


@dataclass
class Settings:
    """Puppet 8 defaults: unknown variables and string-to-number coercion are errors."""

    strict: str = "error"            # "off", "warning" or "error"
    strict_variables: bool = True
    tasks: bool = False
    node_name: str = "testnode"
    environment: str = "production"
    facts: dict = field(default_factory=dict)
    # $trusted of a node compiled for an agent (a preview for a named node); None: what an
    # agent-less compilation (puppet apply, the oracle) sees
    trusted: dict | None = None
    # a preview of what a node would get: a function that needs the outside world (or that
    # this evaluator does not have, such as a module's) returns an Unknown instead of failing
    unknown_outside: bool = False
    # resource types a preview takes as declared elsewhere (modules' Ruby types), lower case
    extra_resource_types: frozenset = frozenset()
    # a preview's automatic parameter lookup (Hiera, done by the caller): (class, parameter) ->
    # (value,) for a class parameter the declaration does not give, None: the default applies
    parameter_lookup: Callable[[str, str], tuple | None] | None = None
    # functions the preview's modules define in Ruby (lower case): those of them previews
    # re-implement (``functions/stdlib.py``) are called, the others give unknown values
    module_functions: frozenset = frozenset()
    # EPP templates of the preview's modules the caller read for it: "<module>/<file>" (as
    # epp() names them) -> text; epp() of one of them is rendered, of any other is unknown
    templates: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, d: dict | None) -> Settings:
        s = cls()
        if not d:
            return s
        strict = d.get("strict")
        if strict in ("off", "warning", "error"):
            s.strict = strict
        if "strict_variables" in d:
            s.strict_variables = bool(d["strict_variables"])
        if "tasks" in d:
            s.tasks = bool(d["tasks"])
        if isinstance(d.get("node_name"), str):
            s.node_name = d["node_name"]
        if isinstance(d.get("facts"), dict):
            s.facts = d["facts"]
        if isinstance(d.get("trusted"), dict):
            s.trusted = d["trusted"]
        if d.get("unknown_outside") is True:
            s.unknown_outside = True
        if callable(d.get("parameter_lookup")):
            s.parameter_lookup = d["parameter_lookup"]
        if isinstance(d.get("extra_resource_types"), (list, tuple, set, frozenset)):
            s.extra_resource_types = frozenset(str(t).lower() for t in d["extra_resource_types"])
        if isinstance(d.get("templates"), dict):
            s.templates = {str(k): v for k, v in d["templates"].items() if isinstance(v, str)}
        if isinstance(d.get("module_functions"), (list, tuple, set, frozenset)):
            s.module_functions = frozenset(str(t).lower() for t in d["module_functions"])
        return s


class Unknown(str):
    """A value a preview cannot know (what ``template(...)``, ``lookup(...)`` or a module's
    function would return): a string that shows itself as such, so that it survives
    interpolation and lands in the catalog visibly unknown."""

    __slots__ = ()

    @classmethod
    def of_call(cls, name: str) -> Unknown:
        return cls(f"⟨unknown: {name}(…)⟩")


@dataclass
class LogEntry:
    """A message logged by ``notice`` and friends, or a warning of the evaluator itself."""

    level: str
    message: str
    offset: int | None = None
    end: int | None = None
    code: str | None = None
    # Where Puppet says the message comes from: a scope (``Scope(Class[main])``) for the
    # logging functions; None for the evaluator's own issues (located by line and pos).
    source: str | None = None
    # Deprecation warnings carry Puppet's location note instead of a position:
    # "line" -> "(file: unknown, line: N)", "none" -> "(file & line not available)".
    note: str | None = None


class LineIndex:
    """Offsets to 1-based (line, column) for Puppet-style messages."""

    def __init__(self, text: str):
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


class Context:
    """One evaluation's world."""

    def __init__(self, text: str, settings: Settings | None = None, budget: Budget | None = None):
        self.text = text
        self.settings = settings or Settings()
        self.budget = budget or Budget()
        self.lines = LineIndex(text)
        self.logs: list[LogEntry] = []
        self.qualified: dict[str, Any] = {}
        self.aliases = AliasScope()
        self.functions: dict[str, Any] = {}     # user-defined (Puppet language) functions
        self.catalog: Any = None
        self.warned: set = set()

    def log(self, level: str, message: str, offset: int | None = None, end: int | None = None,
            code: str | None = None, source: str | None = None,
            note: str | None = None) -> None:
        self.logs.append(LogEntry(level, message, offset, end, code, source, note))

    def lookup_qualified(self, name: str) -> Any:
        v = self.qualified.get(name, MISSING)
        if v is not MISSING:
            return v
        if self.catalog is not None:
            return self.catalog.lookup_class_variable(name)
        return MISSING
