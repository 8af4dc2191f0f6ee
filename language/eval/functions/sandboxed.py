"""Functions that need the outside world (files, templates on disk, processes, Hiera data).

Which ones they are is declared in ``language/knowledge/functions.py`` (not evaluable); they are
implemented here by one refusal each, so that a call is known (not an unknown function) but fails
in the sandbox with a clear "not available in this context" error, whatever its arguments.
"""
from __future__ import annotations

from ...knowledge.functions import functions
from ..context import Unknown
from ..errors import EvalError
from ..registry import define
from ...messages import render


def _refuse(name: str):
    def impl(c, *args):
        if c.ctx.settings.unknown_outside:
            return Unknown.of_call(name)     # a preview: the value is unknown, never computed
        raise EvalError(render("FUNCTION_NOT_AVAILABLE_IN_THIS", name=name),
                        "NOT_AVAILABLE_IN_SANDBOX")
    return impl


for _name in sorted(n for n, facts in functions().items() if not facts.evaluable):
    define(_name).dispatch("Any args*", block="Callable block?")(_refuse(_name))
