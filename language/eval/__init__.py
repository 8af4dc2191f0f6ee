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
"""
from .api import EvalResult, compile_catalog, evaluate, evaluate_text, format_error, run_request
from .budget import Budget
from .context import Settings
from .errors import EvalError
from .functions import all_functions

__all__ = ["evaluate", "evaluate_text", "compile_catalog", "run_request", "format_error",
           "EvalResult", "Settings", "Budget", "EvalError", "all_functions"]
