"""All diagnostics of one file: the single engine behind ``puppet-ls check`` and the server."""
from __future__ import annotations

from ..diagnostics import Diagnostic, from_syntax_errors
from ..syntax.parser import ParseResult, parse
from ..syntax.validate import validate


def parse_for_path(text: str, path: str = "") -> ParseResult:
    """Parse as a template when the file is an .epp, and with Bolt's plan keywords when it
    lives in a module's plans/ directory."""
    epp = path.endswith(".epp")
    tasks = "/plans/" in path.replace("\\", "/")
    return parse(text, epp=epp, tasks=tasks)


def file_diagnostics(result: ParseResult, env=None, analysis=None) -> list[Diagnostic]:
    """Syntax errors, validation findings and static checks (``env``: what the workspace
    defines, see puppet_ls.language.check), in source order."""
    from ..check import static_diagnostics
    diags = from_syntax_errors(result.errors) + validate(result) + static_diagnostics(result, env, analysis)
    diags.sort(key=lambda d: (d.offset, d.end))
    return diags
