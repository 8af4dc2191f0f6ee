"""``strftime``: formatting Timespans and Timestamps (and the legacy current-time form)."""
from __future__ import annotations

from ..timefmt import format_timespan, format_timestamp
from ..registry import define
from ...messages import render
import time
from ...types.values import Timestamp

strftime = define("strftime")


@strftime.dispatch("Timespan time_object", "String format")
def _span(c, ts, fmt):
    return format_timespan(ts, fmt)


@strftime.dispatch("Timestamp time_object", "String format", "String timezone?")
def _stamp(c, ts, fmt, tz=None):
    return format_timestamp(ts, fmt, tz)


@strftime.dispatch("String format", "String timezone?")
def _legacy(c, fmt, tz=None):
    key = ("strftime", "legacy")
    if key not in c.ctx.warned:
        c.ctx.warned.add(key)
        c.ctx.log("warning", render("DEPRECATED_STRFTIME_SIGNATURE"), *c.node.range, note="line")
    return format_timestamp(Timestamp(time.time_ns()), fmt, tz)
