"""Number functions: ``abs``, ``ceiling``, ``floor``, ``round``."""
from __future__ import annotations

import math
import re

from ..errors import EvalError
from ..registry import define
from ...messages import render
from ..convert import ConversionError, ruby_float
import hashlib
from ..stringconv import to_s
from ..runtime import class_name_of
import random


def _deprecated(c, fn: str, target: str) -> None:
    key = (fn, "coerce")
    if key in c.ctx.warned:
        return
    c.ctx.warned.add(key)
    c.ctx.log("warning", render("DEPRECATED_STRING_AUTO_CONVERSION", fn=fn, target=target),
              *c.node.range, note="none")


abs_ = define("abs")
abs_.dispatch("Numeric val")(lambda c, x: abs(x))


@abs_.dispatch("String val")
def _abs_s(c, s):
    _deprecated(c, "abs", "Numeric")
    if re.match(r"^-?(?:\d+)(?:\.\d+){1}$", s):
        return abs(float(s))
    if re.match(r"^-?\d+$", s):
        return abs(int(s))
    raise EvalError(render("ABS_REQUIRES_FLOAT_OR_INTEGER"))


def _float_of(c, fn: str, s: str) -> float:
    _deprecated(c, fn, "Float")
    try:
        return ruby_float(s)
    except ConversionError:
        raise EvalError(render("CANNOT_CONVERT_GIVEN_VALUE_FLOATING", fn=fn)) from None


def _int(x: float) -> int:
    if math.isinf(x) or math.isnan(x):
        # Ruby's FloatDomainError: its class name is in the message for infinities only
        raise EvalError(render("FLOAT_DOMAIN_ERROR", value="Infinity" if x > 0 else "-Infinity")
                        if math.isinf(x) else render("FLOAT_DOMAIN_ERROR_NAN"))
    return int(x)


ceiling = define("ceiling")
ceiling.dispatch("Numeric val")(lambda c, x: x if type(x) is int else math.ceil(x))
ceiling.dispatch("String val")(lambda c, s: math.ceil(_float_of(c, "ceiling", s)))

floor = define("floor")
floor.dispatch("Numeric val")(lambda c, x: x if type(x) is int else math.floor(x))
floor.dispatch("String val")(lambda c, s: math.floor(_float_of(c, "floor", s)))

round_ = define("round")


@round_.dispatch("Numeric val")
def _round(c, x):
    return _int(x + 0.5) if x > 0 else _int(x - 0.5)


# ---- fqdn_rand --------------------------------------------------------------------------------

fqdn_rand = define("fqdn_rand")


@fqdn_rand.dispatch("Any max", "Any seed?", "Any downcase?")
def _fqdn_rand(c, max_, seed=None, downcase=None):
    facts = c.ev.settings.facts or {}
    net = facts.get("networking") if isinstance(facts, dict) else None
    fqdn = net.get("fqdn") if isinstance(net, dict) else None
    if downcase not in (None, False):
        if not isinstance(fqdn, str):
            raise EvalError(render("UNDEFINED_METHOD_DOWNCASE", receiver="nil:NilClass"
                                   if fqdn is None else class_name_of(fqdn)))
        fqdn = fqdn.lower()
    if isinstance(max_, str):
        limit = _ruby_to_i(max_)
    elif type(max_) is int:
        limit = max_
    elif type(max_) is float:
        limit = int(max_)
    else:
        raise EvalError(render("UNDEFINED_METHOD_TO_I", class_name_of=class_name_of(max_)))
    # Puppet joins [fqdn, max, seed] with ':' (nil as empty) and seeds Ruby's Mersenne Twister
    # with the MD5 of that text; Ruby's rand(n) takes masked 32-bit words until one is < n.
    parts = ["" if p is None else (p if isinstance(p, str) else to_s(p))
             for p in (fqdn, str(limit), seed)]
    key = int(hashlib.md5(":".join(parts).encode("utf-8")).hexdigest(), 16)
    return _ruby_rand_int(key, limit)


def _ruby_rand_int(seed: int, limit: int) -> int:
    if limit <= 0:
        raise EvalError(render("INVALID_ARGUMENT", limit=limit))
    rng = random.Random(seed)     # same init_by_array seeding as Ruby's Random.new(seed)
    top = limit - 1
    if top == 0:
        return 0
    mask = top
    for shift in (1, 2, 4, 8, 16, 32):
        mask |= mask >> shift
    words = (top.bit_length() + 31) // 32
    while True:
        val = 0
        ok = True
        for i in range(words - 1, -1, -1):
            if (mask >> (i * 32)) & 0xFFFFFFFF:
                val |= rng.getrandbits(32) << (i * 32)
                val &= mask
                if top < val:
                    ok = False
                    break
        if ok:
            return val


def _ruby_to_i(s: str) -> int:
    """Ruby's String#to_i: the leading decimal number (underscores allowed), else 0."""
    mt = re.match(r"\s*([-+]?\d+(?:_\d+)*)", s)
    return int(mt.group(1).replace("_", "")) if mt else 0
