"""The limits that value-level code must honour while an evaluation runs: a deadline for every
match of a user regular expression, and a size meter for every walk over a value.

The evaluator owns the budget (``language/eval/budget.py``) but the regexp matching and most of
the value walkers (inference, instance checks) live here in ``types/``, which must not import
the evaluator.  So the evaluator installs its limits for the duration of an evaluation with
:func:`active`, and this module reads them through a context variable (one per thread or task,
so concurrent evaluations in a server never see each other's limits).

Outside an evaluation (the static checker, hover) no limits are installed: walks are not
metered and a regexp match gets :data:`DEFAULT_REGEXP_SECONDS`, after which it counts as "no
match" (the conservative answer for an instance check) instead of raising.

Exceeding a limit raises :class:`LimitExceeded`.  It derives from ``BaseException`` on purpose:
several value helpers have defensive ``except Exception`` fallbacks that turn a failure into
"no match" or "not an instance", and a limit must stop the whole evaluation, not become a
wrong answer.  The evaluator turns it into an ordinary Puppet error at its boundary.
"""
from __future__ import annotations

import contextvars
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

# What a match outside any evaluation may take (hover over a Pattern type, the checker).
DEFAULT_REGEXP_SECONDS = 1.0
# Elements plus characters one value may reach (shared sub-values counted as often as they are
# reachable): far above any real manifest's data, far below what exhausts memory or time.
DEFAULT_MAX_VALUE_SIZE = 5_000_000
# The clock is read every this many metered units, as the step budget does.
_CLOCK_EVERY = 4096


class LimitExceeded(BaseException):
    """A hard limit of the running evaluation was reached (see the module doc for the base)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code
        # (offset, end) of the expression that hit the limit, filled in by the evaluator
        self.where: tuple | None = None


@dataclass
class Limits:
    """The limits of one evaluation: an absolute ``deadline`` (``time.monotonic()``; None for
    none) and ``max_value_size`` (elements and characters of one value; None for none)."""

    deadline: float | None = None
    max_value_size: int | None = DEFAULT_MAX_VALUE_SIZE
    seconds: float | None = None   # the budget's setting, for the message only
    # The walk in progress: units used, nesting of walkers (only the outermost one resets).
    used: int = 0
    nesting: int = 0
    _ticks: int = field(default=0, repr=False)


_CURRENT: contextvars.ContextVar[Limits | None] = contextvars.ContextVar(
    "puppet_ls_eval_limits", default=None)


@contextmanager
def active(limits: Limits) -> Iterator[Limits]:
    """Install ``limits`` for the code run inside the ``with`` block (the same thread/task)."""
    token = _CURRENT.set(limits)
    try:
        yield limits
    finally:
        _CURRENT.reset(token)


def current() -> Limits | None:
    return _CURRENT.get()


def timeout_error(limits: Limits | None) -> LimitExceeded:
    secs = f" of {limits.seconds:g} seconds" if limits and limits.seconds is not None else ""
    return LimitExceeded(f"Evaluation stopped: the time budget{secs} is exhausted while "
                         "matching a regular expression (it backtracks catastrophically)",
                         "EVAL_REGEXP_TIMEOUT")


def check_deadline(limits: Limits | None = None) -> None:
    """Raise EVAL_TIMEOUT when the running evaluation is past its deadline."""
    limits = limits if limits is not None else _CURRENT.get()
    if limits is not None and limits.deadline is not None and time.monotonic() > limits.deadline:
        secs = f" of {limits.seconds:g} seconds" if limits.seconds is not None else ""
        raise LimitExceeded(f"Evaluation stopped: the time budget{secs} is exhausted",
                            "EVAL_TIMEOUT")


def too_large(what: str, size: int | None = None, limit: int | None = None) -> LimitExceeded:
    lim = limit if limit is not None else (getattr(_CURRENT.get(), "max_value_size", None)
                                           or DEFAULT_MAX_VALUE_SIZE)
    return LimitExceeded(f"Evaluation stopped: {what} would exceed the value size limit of "
                         f"{lim} elements and characters", "EVAL_VALUE_TOO_LARGE")


def max_value_size() -> int | None:
    """The size limit in force (the default outside an evaluation: sizes of values that are
    *built* are always checked, only walks go unmetered there)."""
    limits = _CURRENT.get()
    return limits.max_value_size if limits is not None else DEFAULT_MAX_VALUE_SIZE


def check_size(size: int, what: str = "the value") -> None:
    """Refuse to build a flat value (a string, an array) of ``size`` units over the limit."""
    lim = max_value_size()
    if lim is not None and size > lim:
        raise too_large(what, size, lim)


@contextmanager
def walk() -> Iterator[None]:
    """Scope one walk over a value: the outermost walk starts counting from zero, nested
    walkers (formatting calls inference, equality calls itself) share its count."""
    limits = _CURRENT.get()
    if limits is None:
        yield
        return
    if limits.nesting == 0:
        limits.used = 0
    limits.nesting += 1
    try:
        yield
    finally:
        limits.nesting -= 1


def tick(n: int = 1) -> None:
    """Charge ``n`` units (elements, characters) to the walk in progress."""
    limits = _CURRENT.get()
    if limits is None:
        return
    limits.used += n
    if limits.max_value_size is not None and limits.used > limits.max_value_size:
        limits.used = 0
        raise too_large("walking a value (its elements and characters, shared ones counted "
                        "each time they are reachable)", limits.used, limits.max_value_size)
    limits._ticks += n
    if limits._ticks >= _CLOCK_EVERY:
        limits._ticks = 0
        check_deadline(limits)


def regexp_timeout() -> float | None:
    """Seconds the next match may take: what is left of the evaluation's time (at least a
    sliver, so a match at the deadline still fails with the regexp's own error), or the
    default outside an evaluation; None when the evaluation has no time limit."""
    limits = _CURRENT.get()
    if limits is None:
        return DEFAULT_REGEXP_SECONDS
    if limits.deadline is None:
        return None
    return max(0.001, limits.deadline - time.monotonic())


def run_match(fn: Any, *args: Any, **kw: Any) -> Any:
    """Call a ``regex`` matching method with the hard timeout derived from the limits.

    Inside an evaluation a timeout raises EVAL_REGEXP_TIMEOUT; outside one the match is
    abandoned and None returned ("no match")."""
    limits = _CURRENT.get()
    try:
        return fn(*args, timeout=regexp_timeout(), **kw)
    except TimeoutError:
        if limits is None:
            return None
        raise timeout_error(limits) from None
