"""The built-in function library: importing this package registers every built-in function.

Each module declares its functions in the registry (``eval/registry.py``) when it is imported;
they are imported here explicitly, once, so the registry is complete as soon as this package is
(Python's import lock makes a concurrent first import wait for it, as threads of the server do).
The evaluator never imports the library: it looks functions up in the registry, and the entry
points (``eval/api.py``) import this package.
"""
from __future__ import annotations

from ..registry import FUNCTIONS, Call, Dispatch, Function, all_functions, define, lookup_function
# Importing a module of the library registers its functions.
from . import catalog_fns, collections, core, iteration_fns, logging  # noqa: F401
from . import numbers, sandboxed, stdlib, strings, time_fns, typing_fns  # noqa: F401

__all__ = ["FUNCTIONS", "Call", "Dispatch", "Function", "all_functions", "define",
           "lookup_function"]
