"""Logging functions (``notice``, ``warning``, ...): messages are captured as logs, never printed.

Each argument is converted the way interpolation converts it and the pieces are joined with
spaces, as Puppet does.
"""
from __future__ import annotations

from ..stringconv import to_s
from ..registry import define

LEVELS = ("debug", "info", "notice", "warning", "err", "alert", "emerg", "crit")


def _make(level: str) -> None:
    f = define(level)

    @f.dispatch("Any values*")
    def _log(c, *values):
        c.ctx.log(level, " ".join(to_s(v) for v in values), *c.node.range,
                  source=c.scope.label() if c.scope is not None else None)


for _level in LEVELS:
    _make(_level)
