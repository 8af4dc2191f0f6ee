"""All diagnostics of one file: the single engine behind ``puppet-ls check`` and the server.

Each stage (parse, validation, static checks) is isolated: a bug that makes one raise on some
file becomes a ``CHECK_INTERNAL_ERROR`` diagnostic on that file and the findings of the other
stages are still reported, so one odd file never costs the results of a whole run.
"""
from __future__ import annotations

import traceback

from ..diagnostics import Diagnostic, from_syntax_errors
from ..syntax.kinds import EPP_FILE
from ..syntax.parser import ParseResult, parse
from ..syntax.validate import validate


def parse_for_path(text: str, path: str = "", epp: bool | None = None) -> ParseResult:
    """Parse as a template when the file is an .epp (or ``epp`` says so: the editor's language
    for a file whose name does not tell), and with Bolt's plan keywords when it lives in a
    module's plans/ directory."""
    if epp is None:
        epp = path.endswith(".epp")
    tasks = "/plans/" in path.replace("\\", "/")
    return parse(text, epp=epp, tasks=tasks)


def exception_summary(exc: BaseException) -> str:
    """One line saying what failed and where: the exception and the innermost frame of
    puppet-ls's own code (what a bug report needs first)."""
    text = " ".join(str(exc).split())
    if len(text) > 200:
        text = text[:197] + "..."
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        parts = frame.filename.replace("\\", "/").split("/")
        if "language" in parts or "server" in parts:
            i = max(i for i, part in enumerate(parts) if part in ("language", "server"))
            where = f" at {'/'.join(parts[i:])}:{frame.lineno} in {frame.name}"
            break
    return f"{type(exc).__name__}{': ' + text if text else ''}{where}"


def internal_error(stage: str, exc: BaseException) -> Diagnostic:
    """The diagnostic for a failure of puppet-ls itself while ``stage`` (e.g. "checking") one
    file, placed at the start of the file."""
    return Diagnostic.of("CHECK_INTERNAL_ERROR", 0, 0, stage=stage, summary=exception_summary(exc))


def file_diagnostics(result: ParseResult, env=None, analysis=None, *, path: str = "",
                     lint: frozenset[str] | None = None, ignored: list | None = None) -> list[Diagnostic]:
    """Syntax errors, validation findings, static checks (``env``: what the workspace
    defines, see puppet_ls.language.check) and the style checks named in ``lint`` (none when
    None; ``path`` is the file's path, for the autoloader layout check), in source order.
    ``# lint:ignore`` control comments silence findings of every stage; silenced ones are
    appended to ``ignored`` as (diagnostic, reason) when it is given."""
    from ..check import static_diagnostics
    diags: list[Diagnostic] = []
    stages = [("reading the syntax errors of", lambda: from_syntax_errors(result.errors)),
              ("validating", lambda: validate(result)),
              ("statically checking", lambda: static_diagnostics(result, env, analysis))]
    if lint:
        from ..lint import lint as run_lint
        stages.append(("linting", lambda: run_lint(result, path, lint)))
    # Exception, not BaseException: an interrupt or a caller's time limit must still stop us.
    for stage, run in stages:
        try:
            diags.extend(run())
        except Exception as exc:  # noqa: BLE001 - isolation boundary: a bug in one stage is reported, the others still run
            diags.append(internal_error(stage, exc))
    if "lint:" in result.text and result.green.kind != EPP_FILE:
        try:
            diags = _apply_control_comments(result, diags, ignored)
        except Exception as exc:  # noqa: BLE001 - isolation boundary: as for the stages
            diags.append(internal_error("reading the control comments of", exc))
    diags.sort(key=lambda d: (d.offset, d.end))
    return diags


def _apply_control_comments(result: ParseResult, diags: list[Diagnostic], ignored: list | None) -> list[Diagnostic]:
    from ..lint import apply, control_comments
    from ..lint.tokens import TokenView
    view = TokenView(result.text, result.green)
    suppressions = control_comments(view)
    return apply(diags, suppressions, view, ignored) + suppressions.problems


def source_diagnostics(text: str, path: str = "", env=None, *, lint: frozenset[str] | None = None,
                       ignored: list | None = None) -> tuple[ParseResult | None, list[Diagnostic]]:
    """Parse ``text`` (as ``parse_for_path``) and return the result with all its diagnostics;
    if parsing itself fails (it should never raise), the result is None and the one diagnostic
    says so."""
    try:
        result = parse_for_path(text, path)
    except Exception as exc:  # noqa: BLE001 - isolation boundary: a parser bug becomes one diagnostic
        return None, [internal_error("parsing", exc)]
    return result, file_diagnostics(result, env, path=path, lint=lint, ignored=ignored)

