"""puppet_ls.language.eval: the sandboxed, bounded evaluator of the Puppet language.

Public API:

* ``evaluate(parse_result, settings=None, budget=None, scope="top") -> EvalResult`` - the value
  of a program (previews), with logs, the in-memory catalog and diagnostics.
* ``evaluate_text(text, settings=None, budget=None)`` - the same from source text.
* ``compile_catalog(text, settings=None, budget=None) -> EvalResult`` - a whole manifest
  compiled for a node into the in-memory catalog (resources, notices).
* ``run_request(req: dict) -> dict`` - one request of the JSON-lines protocol shared with
  ../shared/oracle (``{"src", "strict", "strict_variables"}`` -> ``{"ok", "str", "repr",
  "type", "logs"}`` or ``{"ok": false, "error": {...}}``).
* ``Settings``, ``Budget``, ``EvalResult``, ``EvalError``; ``all_functions()`` describes the
  built-in functions (name, doc, signatures) for hover and completion.

Layers, lowest first.  A module imports (at its top, never inside a function) only modules of
its own layer or of lower ones, and there is no import cycle; ``tests/test_architecture.py``
reads this list and checks both.

1. values and runtime: errors, budget, scope, context, runtime, objects, aliases, iteration,
   typetext, type_strings, rubyfmt, typecheck, mismatch, stringconv, timefmt, registry,
   syntax_checks
2. operators: operators, access, convert, objecttypes
3. evaluator: evaluator, closures, catalog
4. function library: functions, functions.catalog_fns, functions.collections, functions.core,
   functions.iteration_fns, functions.logging, functions.numbers, functions.sandboxed, functions.stdlib,
   functions.strings, functions.time_fns, functions.typing_fns
5. entry points: api, conformance, __init__

The values layer holds what the evaluator computes with and the machinery to declare
functions (``registry``); the evaluator looks functions up in the registry and never imports
the library, which the entry points import: importing ``functions`` registers every built-in
function, explicitly, module by module.  Where a lower layer needs something a higher one
defines, the higher one registers it when imported (``typecheck.register_new_functions``:
``Init[T]`` checks need the ``new`` functions of ``convert``).
"""
from .api import EvalResult, compile_catalog, evaluate, evaluate_text, format_error, run_request
from .budget import Budget
from .context import Settings
from .errors import EvalError
from .functions import all_functions

__all__ = ["evaluate", "evaluate_text", "compile_catalog", "run_request", "format_error",
           "EvalResult", "Settings", "Budget", "EvalError", "all_functions"]
