"""Ruby's ``Kernel#format`` (sprintf) for one value or a list of values.

Puppet's ``sprintf`` function and its ``String(value, format)`` converter both hand their
format strings to Ruby, so the exact Ruby behaviour is what users see: negative numbers in
``%x``/``%o``/``%b`` print in two's-complement style (``..f01``) unless a sign flag is given,
``%#o`` prefixes ``0`` (not ``0o``), infinities print as ``Inf``, ``%p`` is Ruby's inspect.
Python's ``%`` operator agrees with C (and so with Ruby) for the rest, and is used for them.
"""
from __future__ import annotations

import math
import re
from typing import Any
from collections.abc import Callable

from ..types.format import ruby_float
from ..types.guard import check_size
from ..types import model as m
from .type_strings import type_value_string
from ..types.values import Regexp
from .runtime import to_number
from ..messages import render

_SPEC = re.compile(
    r"%(?P<flags>[-+ 0#]*)(?:<(?P<name>\w+)>|\{(?P<tname>\w+)\})?(?P<flags2>[-+ 0#]*)"
    r"(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?(?P<conv>[a-zA-Z%])?")


class FormatError(ValueError):
    """A malformed format or an argument that does not fit it (Ruby's ArgumentError)."""


def ruby_inspect(v: Any) -> str:
    """Ruby's ``inspect`` of the values a format may receive."""
    if v is None:
        return "nil"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if type(v) is int:
        return str(v)
    if type(v) is float:
        return ruby_float(v)
    if type(v) is str:
        out = ['"']
        for c in v:
            o = ord(c)
            if c == '"':
                out.append('\\"')
            elif c == "\\":
                out.append("\\\\")
            elif c == "\n":
                out.append("\\n")
            elif c == "\t":
                out.append("\\t")
            elif c == "\r":
                out.append("\\r")
            elif c == "\x1b":
                out.append("\\e")
            elif c == "#":
                out.append("#")
            elif o < 0x20 or o == 0x7f:
                out.append(f"\\x{o:02X}")
            else:
                out.append(c)
        out.append('"')
        return "".join(out)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(ruby_inspect(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{ruby_inspect(k)}=>{ruby_inspect(x)}" for k, x in v.items()) + "}"
    if isinstance(v, RubyObject):
        return v.inspect
    return _puppet_s(v)


class RubyObject:
    """A value as a 3.x function's Ruby code sees it: its ``to_s`` and ``inspect`` texts."""

    __slots__ = ("text", "inspect")

    def __init__(self, text: str, inspect: str):
        self.text = text
        self.inspect = inspect

    def __str__(self) -> str:
        return self.text


def _puppet_s(v: Any) -> str:
    if isinstance(v, m.PType):
        return type_value_string(v)
    return str(v)


def ruby_to_s(v: Any) -> str:
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if type(v) is float:
        return ruby_float(v)
    if isinstance(v, (list, tuple, dict)):
        return ruby_inspect(v)
    if isinstance(v, Regexp):
        return f"(?-mix:{v.pattern})"
    return _puppet_s(v)


def _to_int(v: Any) -> int:
    if type(v) is int:
        return v
    if type(v) is float:
        if math.isnan(v) or math.isinf(v):
            raise FormatError(render("FLOAT_DOMAIN_VALUE", ruby_float=ruby_float(v)))
        return int(v)  # Ruby truncates toward zero (Float#to_i)
    if type(v) is str:
        n = to_number(v)
        if n is None:
            raise FormatError(render("FORMAT_INVALID_INTEGER", v=v))
        return int(n)
    if v is None:
        raise FormatError(render("CANT_CONVERT_NIL_INTO_INTEGER"))
    if type(v) is bool:
        raise FormatError(render("CANT_CONVERT_INTO_INTEGER", name='true' if v else 'false'))
    raise FormatError(render("CANT_CONVERT_INTO_INTEGER", name=type(v).__name__))


def _to_float(v: Any) -> float:
    if type(v) is float:
        return v
    if type(v) is int:
        return float(v)
    if type(v) is str:
        n = to_number(v)
        if n is None:
            raise FormatError(render("FORMAT_INVALID_FLOAT", v=v))
        return float(n)
    if v is None:
        raise FormatError(render("CANT_CONVERT_NIL_INTO_FLOAT"))
    raise FormatError(render("CANT_CONVERT_INTO_FLOAT", name=type(v).__name__))


def _pad(body: str, sign: str, width: int | None, left: bool, zero: bool, prefix: str = "") -> str:
    text = sign + prefix + body
    if width is None or len(text) >= width:
        return text
    if left:
        return text + " " * (width - len(text))
    if zero:
        return sign + prefix + "0" * (width - len(text)) + body
    return " " * (width - len(text)) + text


def _twos(n: int, base: int) -> str:
    """Ruby's '..f01' rendering of a negative number in base 16/8/2."""
    digits = {16: "0123456789abcdef", 8: "01234567", 2: "01"}[base]
    bits = {16: 4, 8: 3, 2: 1}[base]
    width = 1
    while -(1 << (bits * width - 1)) > n:
        width += 1
    value = n & ((1 << (bits * width)) - 1)
    out = []
    for _ in range(width):
        out.append(digits[value % base])
        value //= base
    s = "".join(reversed(out))
    top = digits[-1]
    s = s.lstrip(top)
    return ".." + top + s


MAX_WIDTH = 1_000_000


def _check_width(width: int | None, prec: int | None) -> None:
    if (width is not None and width > MAX_WIDTH) or (prec is not None and prec > MAX_WIDTH):
        # A sandbox must not build gigabyte strings on request.
        raise FormatError(render("WIDTH_OR_PRECISION_TOO_LARGE", MAX_WIDTH=MAX_WIDTH))


def format_one(flags: str, width: int | None, prec: int | None, conv: str, v: Any) -> str:
    """Format one value with one conversion (the part after ``%`` already split up)."""
    _check_width(width, prec)
    left = "-" in flags
    zero = "0" in flags and not left
    alt = "#" in flags
    plus = "+" in flags
    space = " " in flags
    if conv in "diu":
        n = _to_int(v)
        body = str(abs(n))
        if prec is not None:
            body = body.rjust(prec, "0")
            zero = False
        sign = "-" if n < 0 else ("+" if plus else (" " if space else ""))
        return _pad(body, sign, width, left, zero)
    if conv in "xXobB":
        n = _to_int(v)
        base = 16 if conv in "xX" else (8 if conv == "o" else 2)
        if n < 0 and not (plus or space):
            body = _twos(n, base)
            if conv == "X":
                body = body.upper()
            sign = ""
        else:
            body = {16: format(abs(n), "x"), 8: format(abs(n), "o"), 2: format(abs(n), "b")}[base]
            if conv == "X":
                body = body.upper()
            sign = "-" if n < 0 else ("+" if plus else (" " if space else ""))
        if prec is not None:
            body = body.rjust(prec, "0")
            zero = False
        prefix = ""
        if alt:
            if conv == "o":
                prefix = "" if body.startswith("0") else "0"
            elif n != 0:
                prefix = {"x": "0x", "X": "0X", "b": "0b", "B": "0B"}[conv]
        return _pad(body, sign, width, left, zero, prefix)
    if conv in "eEfgGaA":
        f = _to_float(v)
        if math.isinf(f) or math.isnan(f):
            body = "Inf" if math.isinf(f) else "NaN"
            sign = "-" if f < 0 else ("+" if plus else (" " if space else ""))
            return _pad(body, sign, width, left, False)
        if conv in "aA":
            body = _hex_float(abs(f), prec)
            if alt and "." not in body:
                body = body.replace("p", ".p", 1)
            if conv == "A":
                body = body.upper()
            sign = "-" if f < 0 else ("+" if plus else (" " if space else ""))
            return _pad(body[2:], sign, width, left, zero, body[:2])
        else:
            spec = "%" + ("#" if alt else "") + (f".{prec}" if prec is not None else "") + conv
            body = spec % abs(f)
        sign = "-" if (f < 0 or (f == 0 and math.copysign(1, f) < 0)) else (
            "+" if plus else (" " if space else ""))
        return _pad(body, sign, width, left, zero)
    if conv == "s":
        s = ruby_to_s(v)
        if prec is not None:
            s = s[:prec]
        return _pad(s, "", width, left, False)
    if conv == "p":
        s = ruby_inspect(v)
        if prec is not None:
            s = s[:prec]
        return _pad(s, "", width, left, False)
    if conv == "c":
        if type(v) is str:
            if not v:
                raise FormatError(render("C_REQUIRES_CHARACTER"))
            s = v[0]
        else:
            try:
                s = chr(_to_int(v))
            except (ValueError, OverflowError):
                raise FormatError(render("INVALID_CHARACTER")) from None
        return _pad(s, "", width, left, False)
    raise FormatError(render("MALFORMED_FORMAT_STRING", conv=conv))


def _hex_float(f: float, prec: int | None) -> str:
    if f == 0:
        return "0x0p+0"
    mant, exp = math.frexp(f)
    # C normalises to 1.xxx * 2^e
    mant *= 2
    exp -= 1
    h = float.hex(f)  # '0x1.8000000000000p+1'
    m = re.match(r"0x([0-9a-f])\.?([0-9a-f]*)p([+-]\d+)", h)
    if not m:
        return h
    frac = m.group(2).rstrip("0")
    if prec is not None:
        frac = (frac + "0" * prec)[:prec]
    return f"0x{m.group(1)}{'.' + frac if frac else ''}p{m.group(3)}"


def ruby_format(fmt: str, args: list, on_value: Callable[[str, Any], Any] | None = None) -> str:
    """Ruby ``format(fmt, *args)``; ``%<name>s`` takes values from a hash given as only arg."""
    out = []
    pos = 0
    argi = 0
    built = 0
    n = len(fmt)
    while pos < n:
        i = fmt.find("%", pos)
        if i < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:i])
        mt = _SPEC.match(fmt, i)
        if mt is None or mt.group("conv") is None:
            raise FormatError(render("MALFORMED_FORMAT_STRING_AT", value=fmt[i:i + 2]))
        conv = mt.group("conv")
        pos = mt.end()
        if conv == "%" and not mt.group("flags") and mt.group("width") is None:
            out.append("%")
            continue
        flags = (mt.group("flags") or "") + (mt.group("flags2") or "")
        name = mt.group("name") or mt.group("tname")

        def next_arg():
            nonlocal argi
            if argi >= len(args):
                raise FormatError(render("TOO_FEW_ARGUMENTS"))
            a = args[argi]
            argi += 1
            return a

        width = mt.group("width")
        if width == "*":
            w = _to_int(next_arg())
            if w < 0:
                flags += "-"
                w = -w
            width_v: int | None = w
        else:
            width_v = int(width) if width else None
        prec = mt.group("prec")
        if prec == "*":
            prec_v: int | None = _to_int(next_arg())
        else:
            prec_v = int(prec) if prec is not None else None
        if name is not None:
            if len(args) != 1 or not isinstance(args[0], dict):
                raise FormatError(render("ONE_HASH_REQUIRED"))
            h = args[0]
            if name not in h:
                raise FormatError(render("KEY_NOT_FOUND", name=name))
            value = h[name]
            if mt.group("tname"):
                _check_width(width_v, None)
                out.append(_pad(ruby_to_s(value), "", width_v, "-" in flags, False))
                built += len(out[-1])
                continue
        else:
            value = next_arg()
        out.append(format_one(flags, width_v, prec_v, conv, value))
        # each field is bounded; their sum must be too
        built += len(out[-1])
        check_size(built, "the formatted string")
    return "".join(out)
