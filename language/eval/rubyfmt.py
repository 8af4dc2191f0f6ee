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

from ..types.format import ruby_float
from ..types.guard import check_size
from ..types import model as m
from .type_strings import type_value_string
from ..types.values import Regexp
from .runtime import to_number
from ..messages import render

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


def _format_based(n: int, conv: str, flags: str, width: int | None, prec: int | None) -> str:
    """``%x %X %o %b %B`` the way Ruby lays them out: a negative number without a sign flag is
    shown in two's complement (``..f01``), and the ``..`` counts towards width and precision
    while the padding repeats the sign digit (``%08o`` of -8 is ``..777770``)."""
    left = "-" in flags
    base = 16 if conv in "xX" else (8 if conv == "o" else 2)
    dots = n < 0 and "+" not in flags and " " not in flags
    if dots:
        digits = _twos(n, base)[2:]
        sign = ""
    else:
        digits = {16: format(abs(n), "x"), 8: format(abs(n), "o"), 2: format(abs(n), "b")}[base]
        sign = "-" if n < 0 else ("+" if "+" in flags else (" " if " " in flags else ""))
    if conv == "X":
        digits = digits.upper()
    w = (width or 0) - len(sign)
    p = prec if prec is not None else -1
    if dots:
        p -= 2
        w -= 2
    prefix = {"o": "0", "x": "0x", "X": "0X", "b": "0b", "B": "0B"}[conv] if "#" in flags else ""
    if conv == "o" and prefix:
        if dots:
            prefix = ""
        elif digits == "0":
            digits = ""
            if prec is not None:
                p -= 1
        elif prec is not None and p > len(digits):
            prefix = ""
    elif digits == "0":
        prefix = ""
    w -= len(prefix)
    if "0" in flags and not left and prec is None:
        p, w = w, 0
    else:
        if p < len(digits):
            if not prefix and p == 0 and digits == "0":
                digits = ""
            p = len(digits)
        w -= p
    fill = digits[0] if dots and digits else "0"
    if dots:
        fill = {16: "f", 8: "7", 2: "1"}[base]
        if conv == "X":
            fill = "F"
    body = sign + prefix + (".." if dots else "") + fill * max(p - len(digits), 0) + digits
    pad = " " * max(w, 0)
    return body + pad if left else pad + body


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
        return _format_based(_to_int(v), conv, flags, width, prec)
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
            if len(v) != 1:
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


class _Args:
    """Ruby's argument bookkeeping in ``format``: unnumbered (``%s``), numbered (``%1$s``) and
    named (``%<a>s``, ``%{a}``) references cannot be mixed, and each misuse has its own error."""

    def __init__(self, args: list):
        self.args = args
        self.next = 0
        self.posarg = 0   # > 0: unnumbered used; -1: numbered used; -2: named used

    def _nth(self, i: int) -> Any:
        if i >= len(self.args):
            raise FormatError(render("TOO_FEW_ARGUMENTS"))
        return self.args[i]

    def unnumbered(self) -> Any:
        if self.posarg == -1:
            raise FormatError(render("FORMAT_UNNUMBERED_MIXED", n=self.next + 1, other="numbered"))
        if self.posarg == -2:
            raise FormatError(render("FORMAT_UNNUMBERED_MIXED", n=self.next + 1, other="named"))
        self.next += 1
        self.posarg = self.next
        return self._nth(self.next - 1)

    def numbered(self, n: int) -> Any:
        if self.posarg > 0:
            raise FormatError(render("FORMAT_NUMBERED_AFTER", n=n, other=f"unnumbered({self.posarg})"))
        if self.posarg == -2:
            raise FormatError(render("FORMAT_NUMBERED_AFTER", n=n, other="named"))
        if n < 1:
            raise FormatError(render("FORMAT_INVALID_INDEX", n=n))
        self.posarg = -1
        return self._nth(n - 1)

    def named(self, ref: str) -> Any:
        if self.posarg > 0:
            raise FormatError(render("FORMAT_NAMED_AFTER", name=ref, other=f"unnumbered({self.posarg})"))
        if self.posarg == -1:
            raise FormatError(render("FORMAT_NAMED_AFTER", name=ref, other="numbered"))
        self.posarg = -2
        if len(self.args) != 1 or not isinstance(self.args[0], dict):
            raise FormatError(render("ONE_HASH_REQUIRED"))
        h = self.args[0]
        if ref[1:-1] not in h:
            raise FormatError(render("KEY_NOT_FOUND", name=ref))
        return h[ref[1:-1]]


_UNSET = object()


def ruby_format(fmt: str, args: list) -> str:
    """Ruby ``format(fmt, *args)``, directive by directive the way Ruby's sprintf reads them:
    flags, width, ``.precision``, ``n$`` argument numbers, ``*`` widths and ``<name>``/``{name}``
    references in any order, each with Ruby's own error when misplaced."""
    out: list[str] = []
    argv = _Args(args)
    pos = 0
    built = 0
    n = len(fmt)
    while pos < n:
        i = fmt.find("%", pos)
        if i < 0:
            out.append(fmt[pos:])
            break
        out.append(fmt[pos:i])
        p = i + 1
        flags = ""
        width: int | None = None
        prec: int | None = None
        prec_given = False
        value: Any = _UNSET
        named: str | None = None
        text: str | None = None
        while True:
            if p >= n:
                raise FormatError(render("INCOMPLETE_FORMAT_SPECIFIER"))
            ch = fmt[p]
            if ch in " #+-0":
                if width is not None:
                    raise FormatError(render("FORMAT_FLAG_AFTER", what="width"))
                if prec_given:
                    raise FormatError(render("FORMAT_FLAG_AFTER", what="precision"))
                flags += ch
                p += 1
                continue
            if ch in "123456789":
                j = p
                while j < n and fmt[j].isdigit():
                    j += 1
                num = int(fmt[p:j])
                if j >= n:
                    raise FormatError(render("MALFORMED_FORMAT_STRING_AT", value="%*[0-9]"))
                if fmt[j] == "$":
                    if value is not _UNSET:
                        raise FormatError(render("FORMAT_VALUE_GIVEN_TWICE", n=num))
                    value = argv.numbered(num)
                    p = j + 1
                    continue
                if width is not None:
                    raise FormatError(render("FORMAT_GIVEN_TWICE", what="width"))
                if prec_given:
                    raise FormatError(render("FORMAT_WIDTH_AFTER_PRECISION"))
                width = num
                p = j
                continue
            if ch in "<{":
                term = ">" if ch == "<" else "}"
                j = fmt.find(term, p + 1)
                if j < 0:
                    raise FormatError(render("FORMAT_MALFORMED_NAME"))
                ref = fmt[p:j + 1]
                if value is not _UNSET:
                    raise FormatError(render("FORMAT_NAMED_AFTER", name=ref, other=named or "<>"))
                value = argv.named(ref)
                named = ref
                p = j + 1
                if term == "}":
                    # %{name} ends the directive: the value as a string, with width/precision
                    text = format_one(flags, width, prec, "s", value)
                    break
                continue
            if ch == "*":
                if width is not None:
                    raise FormatError(render("FORMAT_GIVEN_TWICE", what="width"))
                if prec_given:
                    raise FormatError(render("FORMAT_WIDTH_AFTER_PRECISION"))
                w = _to_int(_star(fmt, p, argv))
                p = _after_star(fmt, p)
                if w < 0:
                    flags += "-"
                    w = -w
                width = w
                continue
            if ch == ".":
                if prec_given:
                    raise FormatError(render("FORMAT_GIVEN_TWICE", what="precision"))
                prec_given = True
                p += 1
                if p < n and fmt[p] == "*":
                    pv = _to_int(_star(fmt, p, argv))
                    p = _after_star(fmt, p)
                    prec = pv if pv >= 0 else None
                    continue
                j = p
                while j < n and fmt[j].isdigit():
                    j += 1
                prec = int(fmt[p:j]) if j > p else 0
                p = j
                continue
            if ch in "\n\0%":
                if flags or width is not None or prec_given or value is not _UNSET:
                    raise FormatError(render("INVALID_FORMAT_CHARACTER"))
                text = "%"
                p += 1 if ch == "%" else 0
                break
            if ch in "csp diouxXbBfgGeEaA".replace(" ", ""):
                if value is _UNSET:
                    value = argv.unnumbered()
                text = format_one(flags, width, prec, ch, value)
                p += 1
                break
            raise FormatError(render("MALFORMED_FORMAT_STRING", conv=ch))
        out.append(text)
        pos = p
        # each field is bounded; their sum must be too
        built += len(text)
        check_size(built, "the formatted string")
    return "".join(out)


def _star(fmt: str, p: int, argv: _Args) -> Any:
    """The argument a ``*`` (or ``*n$``) width or precision names."""
    j = p + 1
    while j < len(fmt) and fmt[j].isdigit():
        j += 1
    if j > p + 1 and j < len(fmt) and fmt[j] == "$":
        return argv.numbered(int(fmt[p + 1:j]))
    return argv.unnumbered()


def _after_star(fmt: str, p: int) -> int:
    j = p + 1
    while j < len(fmt) and fmt[j].isdigit():
        j += 1
    if j > p + 1 and j < len(fmt) and fmt[j] == "$":
        return j + 1
    return p + 1
