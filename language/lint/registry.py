"""The declaration of every style check: puppet-lint's name (the diagnostic code), whether it
runs by default, whether it can be fixed, and what it is run on.

A check is declared once, with the ``check`` decorator on the function that implements it; the
decorator also says what the function is handed, so that all checks share one pass over the
tokens (``tokens=``: called for each token of those puppet-lint token types), one walk of the
tree (``nodes=``: called for each node of those kinds) or run once per file (neither).  Its
severity and text live in the registry of messages under the same name.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..messages import issue


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    enabled: bool          # on by default (as in puppet-lint)
    fixable: bool          # puppet-lint can fix it (--fix)
    family: str            # the module declaring it
    doc: str

    @property
    def severity(self) -> str:
        return issue(self.name).severity


CHECKS: dict[str, Check] = {}
# puppet-lint's options that change what a check reports, named (with the checks) in the set
# given to ``lint``: the set of what is enabled is the whole configuration of a run.
#   relative: autoloader_layout compares the path below the module's folder only, whatever
#             the folder is called (puppet-lint's --relative).
OPTIONS = frozenset({"relative"})
TOKEN_HANDLERS: dict[str, list[tuple[str, Callable]]] = {}
NODE_HANDLERS: dict[str, list[tuple[str, Callable]]] = {}
FILE_HANDLERS: list[tuple[str, Callable]] = []


def check(name: str, *, enabled: bool = True, fixable: bool = False, tokens: tuple = (),
          nodes: tuple = ()) -> Callable:
    """Declare the check ``name`` implemented by the decorated function."""
    def register(fn: Callable) -> Callable:
        if name in CHECKS:
            raise ValueError(f"lint check {name} is declared twice")
        issue(name)   # the message must exist: fail at import otherwise
        family = fn.__module__.rsplit(".", 1)[-1]
        CHECKS[name] = Check(name, enabled, fixable, family, (fn.__doc__ or "").strip())
        if tokens:
            for t in tokens:
                TOKEN_HANDLERS.setdefault(t, []).append((name, fn))
        elif nodes:
            for n in nodes:
                NODE_HANDLERS.setdefault(n, []).append((name, fn))
        else:
            FILE_HANDLERS.append((name, fn))
        return fn
    return register


def default_enabled() -> frozenset[str]:
    return frozenset(c.name for c in CHECKS.values() if c.enabled)
