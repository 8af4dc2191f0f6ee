"""Diagnostics as plain data: a range in the source, a severity, a stable code and a message."""
from __future__ import annotations

from dataclasses import dataclass, field

from .messages import issue


@dataclass(frozen=True, slots=True)
class Fix:
    """How to correct a finding: text edits (offset, end, replacement) on the text it was found
    in, and what they mean to change in the tree (``expect``, read by ``lint.fix.verify``:
    nothing for a change of layout or spelling)."""
    edits: tuple[tuple[int, int, str], ...]
    expect: tuple = ()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    offset: int
    end: int
    severity: str
    code: str
    message: str
    related: tuple = field(default=())   # ((offset, end, message), …) for related locations
    fix: Fix | None = None               # the correction of a fixable style finding

    @staticmethod
    def of(code: str, offset: int, end: int, related: tuple = (), **args) -> Diagnostic:
        iss = issue(code)
        return Diagnostic(offset, end, iss.severity, code, iss.format(**args), related)


def from_syntax_errors(errors) -> list[Diagnostic]:
    """Lexer/parser errors as diagnostics (their text already comes from the registry)."""
    out = []
    for e in errors:
        out.append(Diagnostic(e.offset, e.end, issue(e.code).severity, e.code, e.full_message if hasattr(e, "full_message") else e.message))
    return out
