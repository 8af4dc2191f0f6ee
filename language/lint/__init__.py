"""Style checks: every puppet-lint check (3.0.1's, plus ``legacy_facts`` and
``top_scope_facts`` from puppet-lint 4), under puppet-lint's names, with its control comments.

``lint(result, path, enabled)`` runs the enabled checks on a parsed manifest;
``CHECKS`` declares them (default state, fixability), ``OPTIONS`` the options that may be
named with them (puppet-lint's ``--relative``); ``control_comments``/``apply`` read
``# lint:ignore`` comments and silence what they name, for every code.
"""
from __future__ import annotations

from ..diagnostics import Diagnostic
from ..syntax import kinds as K
from ..syntax.parser import ParseResult
from . import (  # noqa: F401 - importing a family module declares its checks
    comments,
    conditionals,
    definitions,
    facts,
    plugins_layout,
    plugins_params,
    plugins_style,
    relationships,
    resources,
    strings,
    variables,
    whitespace,
)
from .control import Suppressions, apply, control_comments
from .engine import run_checks
from .registry import CHECKS, OPTIONS, Check, default_enabled

__all__ = ["CHECKS", "OPTIONS", "Check", "Suppressions", "all_checks", "apply", "control_comments",
           "default_enabled", "lint"]


def all_checks() -> frozenset[str]:
    return frozenset(CHECKS)


def lint(result: ParseResult, path: str = "", enabled: frozenset[str] | None = None) -> list[Diagnostic]:
    """The findings of the enabled checks (default: those on by default) on a manifest.
    Templates (.epp) are not linted, as puppet-lint does not lint them."""
    if result.green.kind == K.EPP_FILE:
        return []
    return run_checks(result, path, default_enabled() if enabled is None else enabled)
