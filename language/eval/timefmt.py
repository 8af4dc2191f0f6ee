"""Timespan and Timestamp creation, parsing and formatting (``strftime`` directives)."""
from __future__ import annotations

from ..types.values import Timespan, Timestamp
from .errors import EvalError
from .functions import Function

NSECS = 1_000_000_000

new_timespan = Function("new_timespan")


@new_timespan.dispatch("Variant[Integer,Float] seconds")
def _ts_seconds(c, s):
    return Timespan(int(s * NSECS))


@new_timespan.dispatch("String[1] string", "Variant[String[2],Array[String[2], 1]] format?")
def _ts_string(c, s, fmt=None):
    try:
        return Timespan.parse(s)
    except ValueError as exc:
        raise EvalError(str(exc)) from None


new_timestamp = Function("new_timestamp")


@new_timestamp.dispatch()
def _now(c):
    import time
    return Timestamp(time.time_ns())


@new_timestamp.dispatch("Variant[Integer,Float] seconds")
def _tst_seconds(c, s):
    return Timestamp(int(s * NSECS))


@new_timestamp.dispatch("String[1] string", "Variant[String[2],Array[String[2], 1]] format?",
                        "String[1] timezone?")
def _tst_string(c, s, fmt=None, tz=None):
    try:
        return Timestamp.parse(s)
    except ValueError as exc:
        raise EvalError(str(exc)) from None
