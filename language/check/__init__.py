"""puppet_ls.language.check: static analysis over the syntax tree, without executing anything.

Entry points::

    from puppet_ls.language.check import analyze, static_diagnostics
    analysis = analyze(parse_result, env)       # scopes, resolution, inferred types, constants
    diagnostics = static_diagnostics(parse_result, env)

``env`` (an ``Environment``, see ``env.py``) tells what the workspace and modulepath define;
without it only what the file itself proves is reported.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .env import EMPTY, Entity, Environment, ParamSig
from .scopes import FileModel, ModelMemo

if TYPE_CHECKING:
    from .analysis import NOT_CONST, Analysis


def __getattr__(name: str):
    # The analysis (and the type system under it) is imported when first used, not with the
    # package: the workspace index needs only .env and .scopes, and a `check` run whose
    # results all come from the cache uses nothing else (the import is ~40 ms of its ~0.5 s).
    if name in ("Analysis", "NOT_CONST"):
        from . import analysis
        return getattr(analysis, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def analyze(result, env: Environment | None = None, memo: ModelMemo | None = None) -> Analysis:
    """The semantic model, type inference and constants of one parsed file; with the ``memo``
    of a document's previous revision, the statements its edit did not touch are not walked
    again (see ``scopes.ModelMemo``)."""
    from .analysis import Analysis
    return Analysis(result, env, FileModel(result, memo) if memo is not None else None)


def static_diagnostics(result, env: Environment | None = None, analysis: Analysis | None = None) -> list:
    """The static checks' findings for one parsed file (see ``checks.py``)."""
    from .analysis import Analysis
    from .checks import check
    return check(analysis if analysis is not None else Analysis(result, env))


__all__ = ["analyze", "static_diagnostics", "Analysis", "Environment", "EMPTY", "Entity",
           "ParamSig", "NOT_CONST", "ModelMemo"]
