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
from .catalog_fns import render_epp
from ...messages import render


def _refuse(name: str):
    def impl(c, *args):
        if c.ctx.settings.unknown_outside:
            if name == "epp" and args and isinstance(args[0], str) and args[0] in c.ctx.settings.templates:
                # a template of the preview's modules, read for it by the caller: rendered as
                # Puppet renders epp(), with the global scope and the given parameters only
                cat = c.ev.catalog
                top = cat.top if cat is not None and cat.top is not None else c.scope
                params = args[1] if len(args) > 1 and isinstance(args[1], dict) else None
                return render_epp(c, c.ctx.settings.templates[args[0]], params, args[0], "epp", top)
            return Unknown.of_call(name)     # a preview: the value is unknown, never computed
        raise EvalError(render("FUNCTION_NOT_AVAILABLE_IN_THIS", name=name),
                        "NOT_AVAILABLE_IN_SANDBOX")
    return impl


for _name in sorted(n for n, facts in functions().items() if not facts.evaluable):
    define(_name).dispatch("Any args*", block="Callable block?")(_refuse(_name))
