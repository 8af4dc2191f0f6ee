"""Errors and control-flow signals raised while evaluating Puppet code.

An :class:`EvalError` is Puppet's evaluation error: an issue code (Puppet's own where one
exists), the message, and the source range it blames.  Errors raised deep inside a function
implementation often do not know where they are; the evaluator fills the location in at the
call site (and adds Puppet's "Error while evaluating a Function Call, " prefix), exactly as
Puppet turns an unlocated error into a located one.

``break``, ``next`` and ``return`` are implemented with exceptions too (they unwind through
any number of Python frames), but they are not errors: they derive from :class:`Signal`.
"""
from __future__ import annotations

from typing import Any


# Syntax errors puppet-ls names more finely for the editor that Puppet's parser reports as
# plain SYNTAX_ERROR.
_PUPPET_SYNTAX_ERRORS = frozenset({"UNMATCHED_BRACE", "UNLESS_ELSIF", "ILLEGAL_CHARACTER"})


class EvalError(Exception):
    """A Puppet evaluation error with an issue code and (once known) a source range.

    ``prefix`` is Puppet's "Error while evaluating a Function Call, " style preamble, added
    when an unlocated error is given a location by the expression that was being evaluated.
    ``phase`` is "eval" or "parse" (parse covers syntax and static validation errors).
    """

    def __init__(self, message: str, code: str | None = "RUNTIME_ERROR", offset: int | None = None,
                 end: int | None = None, prefix: str = "", phase: str = "eval",
                 file: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.offset = offset
        self.end = end
        self.prefix = prefix
        self.phase = phase
        # The name Puppet prints for the source ("inlined-epp-text" for inline templates).
        self.file = file
        # Puppet's loader-style errors have no issue code and carry their line in the message;
        # diagnostics still get a code and a range from these.
        self.diag_code: str | None = None
        self.diag_range: tuple[int, int] | None = None
        # Several validation errors summed up in one ("Language validation logged N errors").
        self.validation_errors: list[Any] | None = None

    @property
    def located(self) -> bool:
        return self.offset is not None

    def locate(self, offset: int, end: int, prefix: str = "") -> EvalError:
        """Give an unlocated error a location (no effect when it already has one, or when it
        is one of Puppet's loader-style errors whose message carries the line itself; those
        keep their source range in ``diag_range`` for diagnostics)."""
        if self.offset is None and self.diag_range is None:
            self.offset = offset
            self.end = end
            if prefix and not self.prefix:
                self.prefix = prefix
        return self

    @property
    def basic_message(self) -> str:
        return self.prefix + self.message

    @property
    def puppet_issue_code(self) -> str | None:
        """The issue code Puppet reports: an error wrapped as "Error while evaluating a
        Function Call, ..." is Puppet's RUNTIME_ERROR whatever the inner cause (``code`` keeps
        the finer cause for diagnostics); break/next/return misuse has no issue code."""
        if self.code == "CONTROL_FLOW":
            return None
        if self.phase == "parse" and self.code in _PUPPET_SYNTAX_ERRORS:
            return "SYNTAX_ERROR"
        if self.prefix:  # always messages' ERROR_WHILE_EVALUATING
            return "RUNTIME_ERROR"
        return self.code

    def __repr__(self) -> str:
        return f"EvalError({self.code}, {self.message!r}, {self.offset}..{self.end})"


class ArgumentsError(EvalError):
    """A function was called with arguments it does not accept (Puppet's ArgumentError)."""

    def __init__(self, message: str, code: str = "ARGUMENT_ERROR"):
        super().__init__(message, code)


class BudgetExceeded(EvalError):
    """The step, time or recursion budget ran out; evaluation stops cleanly."""

    def __init__(self, message: str, code: str = "EVAL_BUDGET_EXCEEDED"):
        super().__init__(message, code)


class Signal(Exception):
    """Base of the non-error control transfers (break, next, return)."""

    def __init__(self, value: Any = None, offset: int | None = None, end: int | None = None):
        super().__init__()
        self.value = value
        self.offset = offset
        self.end = end


class BreakSignal(Signal):
    """``break()``: stops the innermost iteration."""


class NextSignal(Signal):
    """``next(v)``: ends the current lambda/function body with value ``v``."""


class ReturnSignal(Signal):
    """``return(v)``: ends the enclosing function (or lambda's function) with value ``v``."""
