"""Number functions: ``abs``, ``ceiling``, ``floor``, ``round``."""
from __future__ import annotations

import math
import re

from ..errors import EvalError
from . import define


def _deprecated(c, fn: str, target: str) -> None:
    key = (fn, "coerce")
    if key in c.ctx.warned:
        return
    c.ctx.warned.add(key)
    c.ctx.log("warning", f"The {fn}() function's auto conversion of String to {target} is "
              "deprecated - change to convert input before calling", *c.node.range, note="none")


abs_ = define("abs", "The absolute value of a number.")
abs_.dispatch("Numeric val")(lambda c, x: abs(x))


@abs_.dispatch("String val")
def _abs_s(c, s):
    _deprecated(c, "abs", "Numeric")
    if re.match(r"^-?(?:\d+)(?:\.\d+){1}$", s):
        return abs(float(s))
    if re.match(r"^-?\d+$", s):
        return abs(int(s))
    raise EvalError("abs(): Requires float or integer to work with - was given non decimal string")


def _float_of(c, fn: str, s: str) -> float:
    from ..convert import ConversionError, ruby_float
    _deprecated(c, fn, "Float")
    try:
        return ruby_float(s)
    except ConversionError:
        raise EvalError(f"{fn}(): cannot convert given value to a floating point value.") from None


def _int(x: float) -> int:
    if math.isinf(x) or math.isnan(x):
        raise EvalError("FloatDomainError: " + ("Infinity" if x > 0 else "-Infinity") if math.isinf(x) else "NaN")
    return int(x)


ceiling = define("ceiling", "The smallest integer not less than the number.")
ceiling.dispatch("Numeric val")(lambda c, x: x if type(x) is int else math.ceil(x))
ceiling.dispatch("String val")(lambda c, s: math.ceil(_float_of(c, "ceiling", s)))

floor = define("floor", "The largest integer not greater than the number.")
floor.dispatch("Numeric val")(lambda c, x: x if type(x) is int else math.floor(x))
floor.dispatch("String val")(lambda c, s: math.floor(_float_of(c, "floor", s)))

round_ = define("round", "The number rounded to the nearest integer (halves away from zero).")


@round_.dispatch("Numeric val")
def _round(c, x):
    return _int(x + 0.5) if x > 0 else _int(x - 0.5)
