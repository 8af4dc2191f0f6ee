"""Converting values to strings: interpolation (``"${x}"``, ``notice``) and ``String(v, fmt)``.

Puppet has two conversions and both are here:

* :func:`to_s` is what interpolation and the logging functions use: strings as they are,
  ``undef`` as nothing, arrays ``[a, b]`` and hashes ``{k => v}`` with their elements
  converted the same way.
* :func:`string_convert` is Puppet's StringConverter behind ``String(value, format)``: a
  format is chosen per value by type (a map of type => format, merged with the defaults) and
  applied with Ruby's sprintf rules (see :mod:`.rubyfmt`).  Containers format their elements
  with ``%p`` unless told otherwise; ``#`` makes them pretty-print with indentation.
"""
from __future__ import annotations

import math

import functools
import re
from typing import Any

from ..types import model as m
from ..types.guard import check_size, measure, tick
from ..types.algebra import infer_set
from ..types.format import double_quote, regexp_literal, ruby_float, type_to_string
from ..types.relations import is_assignable
from ..types.values import (REDACTED, REDACTED_INSPECT, URI, Binary, Deferred, DefaultValue, ObjectValue, Regexp, SemVer,
                            SemVerRange, Sensitive, Timespan, Timestamp)
from .rubyfmt import FormatError as RubyFormatError, format_one, ruby_inspect, ruby_to_s
from .type_strings import type_value_string
from .runtime import class_name_of
from .iteration import IteratorValue
import base64
from ..messages import render

# ---- interpolation --------------------------------------------------------------------------


def to_s(v: Any, depth: int = 0) -> str:
    """The string Puppet interpolates for a value (``EvaluatorImpl#string``)."""
    t = type(v)
    if t is str:
        return v
    if v is None:
        return ""
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return str(v)
    if t is float:
        return ruby_float(v)
    if depth > 200:
        return "..."
    if depth == 0:
        measure(v)
    if t is list or t is tuple:
        return "[" + ", ".join(to_s(x, depth + 1) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{to_s(k, depth + 1)} => {to_s(x, depth + 1)}"
                               for k, x in v.items()) + "}"
    if isinstance(v, Regexp):
        return regexp_literal(v.pattern)
    if isinstance(v, m.PType):
        return type_value_string(v)
    if isinstance(v, DefaultValue):
        return "default"
    if isinstance(v, Sensitive):
        return REDACTED
    if isinstance(v, (Deferred, ObjectValue)):
        return object_to_s(v)
    return str(v)


def object_to_s(v: Any) -> str:
    """An Object value as Puppet's type formatter writes it: ``Name({'attr' => value})``."""
    if isinstance(v, Deferred):
        items: list[tuple[str, Any]] = [("name", v.name)]
        if v.arguments is not None:
            items.append(("arguments", list(v.arguments)))
        name = "Deferred"
    else:
        items = _init_hash_items(v)
        name = v.type_name
    body = ", ".join(f"{puppet_quote(k)} => {_p(x)}" for k, x in items)
    return f"{name}({{{body}}})"


def _init_hash_items(v: ObjectValue) -> list:
    """The attributes Puppet's init hash holds: not constants or derived ones, and not those
    whose value equals the declared default (``Point.new(1, 0)`` prints ``Point({'x' => 1})``
    when ``y`` defaults to 0)."""
    t = getattr(v, "object_type", None)
    if not isinstance(t, m.ObjectType):
        return list(v.attributes)
    from .objecttypes import all_attributes  # lazy: objecttypes imports the registry, which imports this module
    declared = {a.name: a for a in all_attributes(t)}
    out = []
    for k, x in v.attributes:
        a = declared.get(k)
        if a is not None and (a.kind in ("constant", "derived") or
                              (a.has_value and _same_value(x, a.value))):
            continue
        out.append((k, x))
    return out


def _same_value(x: Any, frozen_default: Any) -> bool:
    """Ruby ``==`` between a value and an attribute default stored frozen (lists as tuples)."""
    if isinstance(x, list):
        return isinstance(frozen_default, tuple) and len(x) == len(frozen_default) and all(
            _same_value(a, b) for a, b in zip(x, frozen_default))
    if isinstance(x, dict):
        if isinstance(frozen_default, dict):
            frozen_default = tuple(frozen_default.items())
        return isinstance(frozen_default, tuple) and len(x) == len(frozen_default) and all(
            isinstance(p, tuple) and len(p) == 2 and p[0] in x and _same_value(x[p[0]], p[1])
            for p in frozen_default)
    if isinstance(x, bool) or isinstance(frozen_default, bool):
        return x is frozen_default
    if isinstance(x, (int, float)) and isinstance(frozen_default, (int, float)):
        return x == frozen_default
    try:
        return bool(type(x) is type(frozen_default) and x == frozen_default)
    except Exception:  # noqa: BLE001 - values without a usable == are simply not equal
        return False


def _p(v: Any) -> str:
    return string_convert(v, "%p")


# ---- %p quoting -------------------------------------------------------------------------------

def puppet_quote(s: str, enforce_double: bool = False) -> str:
    """Puppet source text for a string: single quotes when possible, else double quotes."""
    if enforce_double:
        return double_quote(s)
    out = ["'"]
    escaped = False
    for c in s:
        if ord(c) < 0x20:
            return double_quote(s)
        if escaped:
            out.append("\\" + c)
            escaped = False
        elif c == "'":
            out.append("\\'")
        elif c == "\\":
            escaped = True
        else:
            out.append(c)
    if escaped:
        out.append("\\")
    out.append("'")
    return "".join(out)




# ---- formats ------------------------------------------------------------------------------------

class StringFormatError(ValueError):
    """A format that is malformed or does not apply to the value (Puppet's ArgumentError)."""


_FMT = re.compile(r"^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$")
_DELIMS = {"[": ("[", "]"), "{": ("{", "}"), "(": ("(", ")"), "<": ("<", ">"), "|": ("|", "|")}


class Format:
    """One parsed format (``%<flags><width>.<prec><letter>``) plus container options."""

    __slots__ = ("orig", "conv", "left", "alt", "plus", "zero", "delimiters", "width", "prec",
                 "separator", "separator2", "container_formats", "flags")

    def __init__(self, fmt: Any):
        if not isinstance(fmt, str):
            raise StringFormatError(
                render("FORMAT_NOT_VALID_FORMAT_ON", fmt=fmt))
        mt = _FMT.match(fmt)
        if not mt:
            raise StringFormatError(
                render("FORMAT_NOT_VALID_FORMAT_ON", fmt=fmt))
        self.orig = fmt
        self.conv = mt.group(4)
        flags = mt.group(1) or ""
        if len(set(flags)) != len(flags):
            raise StringFormatError(render("SAME_FLAG_CAN_ONLY_USED", fmt=fmt))
        self.flags = flags
        self.left = "-" in flags
        self.alt = "#" in flags
        self.plus = "space" if " " in flags else ("plus" if "+" in flags else None)
        self.zero = "0" in flags
        self.delimiters = None
        for d in "[{(<|":
            if d in flags:
                if self.delimiters is not None:
                    raise StringFormatError(
                        render("ONLY_ONE_DELIMITERS_CAN_GIVEN", fmt=fmt))
                self.delimiters = d
        self.width = int(mt.group(2)) if mt.group(2) else None
        self.prec = int(mt.group(3)) if mt.group(3) else None
        self.separator: str | None = None
        self.separator2: str | None = None
        self.container_formats: list | None = None

    def delimiter_pair(self, default: tuple) -> tuple:
        if self.delimiters:
            return _DELIMS[self.delimiters]
        if self.plus == "space":
            return ("", "")
        return default

    def sprintf_flags(self) -> str:
        """The flags Ruby's sprintf understands (delimiter flags removed)."""
        return "".join(c for c in self.flags if c in "-+ 0#")

    def merged_with(self, higher: Format) -> Format:
        result = Format(higher.orig)
        result.separator = higher.separator if higher.separator is not None else self.separator
        result.separator2 = higher.separator2 if higher.separator2 is not None else self.separator2
        result.container_formats = merge_formats(self.container_formats,
                                                 higher.container_formats)
        return result


def _merge_format(lower, higher):
    if lower is None or higher is None:
        return lower or higher
    return lower.merged_with(higher)


def _type_rank(t: m.PType) -> int:
    return {m.StructType: 1, m.HashType: 2, m.TupleType: 3, m.ArrayType: 4, m.PatternType: 10,
            m.EnumType: 11, m.StringType: 12}.get(type(t), 0)


def _cmp_types(a, b) -> int:
    ta, tb = a[0], b[0]
    ab = is_assignable(tb, ta)
    ba = is_assignable(ta, tb)
    if ta == tb:
        return 0
    if ab and not ba:
        return -1
    if ba and not ab:
        return 1
    ra, rb = _type_rank(ta), _type_rank(tb)
    if ra == 0 or rb == 0:
        sa, sb = type_to_string(ta), type_to_string(tb)
        return (sa > sb) - (sa < sb)
    return (ra > rb) - (ra < rb)


def merge_formats(lower: list | None, higher: list | None) -> list | None:
    """Merge two type=>format maps (lists of pairs); the higher one wins, most specific first."""
    if lower is None or higher is None:
        return lower or higher
    hkeys = [k for k, _ in higher]
    lower = [(lk, lv) for lk, lv in lower
             if not any(hk != lk and is_assignable(hk, lk) for hk in hkeys)]
    keys: list = []
    for k, _ in lower + higher:
        if k not in keys:
            keys.append(k)
    ld = {k: v for k, v in lower}
    hd = {k: v for k, v in higher}
    merged = [(k, _merge_format(ld.get(k), hd.get(k))) for k in keys]
    return sorted(merged, key=functools.cmp_to_key(_cmp_types))


def _default_formats() -> list:
    arr = Format("%a")
    arr.separator = ", "
    arr.separator2 = ", "
    arr.container_formats = DEFAULT_CONTAINER_FORMATS
    hsh = Format("%h")
    hsh.separator = ", "
    hsh.separator2 = " => "
    hsh.container_formats = DEFAULT_CONTAINER_FORMATS
    return [(m.OBJECT, Format("%p")), (m.FLOAT, Format("%f")), (m.NUMERIC, Format("%d")),
            (m.ARRAY, arr), (m.HASH, hsh), (m.BINARY, Format("%B")), (m.ANY, Format("%s"))]


DEFAULT_CONTAINER_FORMATS = [(m.ANY, Format("%p"))]
DEFAULT_FORMATS = _default_formats()
DEFAULT_ARRAY_FORMAT = DEFAULT_FORMATS[3][1]
DEFAULT_HASH_FORMAT = DEFAULT_FORMATS[4][1]
_P_MAP = [(m.ANY, Format("%p"))]


# ---- entry point --------------------------------------------------------------------------------

def string_convert(value: Any, formats: Any = None) -> str:
    """``String(value)`` / ``String(value, formats)``; raises :class:`StringFormatError`.

    ``formats`` is None (the defaults), a format string, or a Hash of type => format (a format
    being a string or a Hash with 'format', 'separator', 'separator2', 'string_formats').
    """
    measure(value)
    if formats is None or isinstance(formats, DefaultValue):
        return _convert(value, DEFAULT_FORMATS, _Indent(0, True, False), None)
    vt = None
    if isinstance(formats, str):
        if formats == "%p" and not _is_collection(value):
            return _convert(value, _P_MAP, _Indent(0, True, False), None)
        vt = infer_set(value)
        if is_assignable(m.ARRAY, vt):
            formats = {m.ARRAY: {"format": formats}}
        elif is_assignable(m.HASH, vt):
            formats = {m.HASH: {"format": formats}}
        else:
            formats = {vt: formats}
    if not isinstance(formats, dict):
        raise StringFormatError(
            render("STRING_CONVERSION_EXPECTS_DEFAULT_VALUE", ruby_class=_ruby_class(formats)))
    user = _validate(formats)
    options = merge_formats(DEFAULT_FORMATS, user) or DEFAULT_FORMATS  # never None: DEFAULT is not
    return _convert(value, options, _Indent(0, True, False), vt)


def _ruby_class(v: Any) -> str:
    return class_name_of(v)


def _validate(fmt: Any) -> list | None:
    if fmt is None:
        return None
    if not isinstance(fmt, dict):
        raise StringFormatError(
            render("EXPECTED_HASH_WITH_TYPE_FORMAT", ruby_class=_ruby_class(fmt)))
    out = []
    for k, v in fmt.items():
        if not isinstance(k, m.PType):
            raise StringFormatError(
                render("TOP_LEVEL_KEYS_IN_FORMAT", ruby_class=_ruby_class(k)))
        if isinstance(v, dict):
            out.append((k, _validate_container(v)))
        else:
            out.append((k, Format(v)))
    return out


_FMT_KEYS = ("separator", "separator2", "format", "string_formats")


def _validate_container(fmt: dict) -> Format:
    extra = [k for k in fmt if k not in _FMT_KEYS]
    if extra:
        allowed = ", ".join(f"'{k}'" for k in _FMT_KEYS)
        raise StringFormatError(
            render("ONLY_ARE_ALLOWED_IN_CONTAINER", allowed=allowed,
                   ruby_inspect=ruby_inspect(fmt)))
    result = Format(fmt.get("format"))
    result.separator = fmt.get("separator")
    result.separator2 = fmt.get("separator2")
    result.container_formats = _validate(fmt.get("string_formats"))
    return result


def _is_collection(v: Any) -> bool:
    return isinstance(v, (list, tuple, dict))


class _Indent:
    __slots__ = ("level", "first", "indenting")

    def __init__(self, level: int, first: bool, indenting: bool):
        self.level = level
        self.first = first
        self.indenting = indenting

    def subsequent(self) -> _Indent:
        return _Indent(self.level, False, self.indenting) if self.first else self

    def with_indenting(self, flag: bool) -> _Indent:
        return _Indent(self.level, self.first, flag)

    def increase(self, flag: bool = False) -> _Indent:
        return _Indent(self.level + 1, True, flag)

    def breaks(self) -> bool:
        return self.indenting and self.level > 0 and not self.first

    def padding(self) -> str:
        return "  " * self.level


def _get_format(value: Any, vt: Any, fmap: list) -> Format:
    if vt is None:
        vt = _kind_type(value)
    matching = [(k, f) for k, f in fmap if is_assignable(k, vt)]
    if not matching:
        return Format("%s")
    if len(matching) == 1:
        return matching[0][1]
    # The most specific matching type wins (what Puppet's sorted format map achieves).
    for k, f in matching:
        if not any(k2 is not k and is_assignable(k, k2) and not is_assignable(k2, k)
                   for k2, _ in matching):
            return f
    return matching[0][1]


def _kind_type(v: Any):
    """A type good enough to pick a format (cheaper than a full infer_set on containers)."""
    t = type(v)
    if t is list or t is tuple or t is dict:
        return infer_set(v)
    return infer_set(v)


def _fmt_error(type_name: str, actual: str, expected: str) -> StringFormatError:
    return StringFormatError(
        render("ILLEGAL_FORMAT_SPECIFIED_FOR_VALUE", actual=actual, type_name=type_name,
               expected=expected))


def _apply_string_flags(f: Format, s: str) -> str:
    if f.left or f.width is not None or f.prec is not None:
        return format_one("-" if f.left else "", f.width, f.prec, "s", s)
    return s


def _sprintf(f: Format, conv: str, v: Any) -> str:
    if f.delimiters:
        # Ruby's sprintf does not know the container delimiter flags.
        raise StringFormatError(render("MALFORMED_FORMAT_STRING", conv=f.delimiters))
    try:
        return format_one(f.sprintf_flags(), f.width, f.prec, conv, v)
    except RubyFormatError as exc:
        raise StringFormatError(str(exc)) from None


def _convert(v: Any, fmap: list, indent: _Indent, vt: Any) -> str:
    tick()
    f = _get_format(v, vt, fmap)
    c = f.conv
    if v is None:
        table = {"n": "null" if f.alt else "nil", "u": "undefined" if f.alt else "undef",
                 "v": "n/a", "V": "N/A", "s": '""' if f.alt else "",
                 "p": '"undef"' if f.alt else "undef"}
        if c in table:
            return _apply_string_flags(f, table[c])
        if c in "dxXobBeEfgGaA":
            return _apply_string_flags(f, "NaN")
        raise _fmt_error("Undef", c, "nudxXobBeEfgGaAvVsp")
    if isinstance(v, DefaultValue):
        if c in "dsp":
            return _apply_string_flags(f, '"default"' if f.alt else "default")
        if c == "D":
            return _apply_string_flags(f, '"Default"' if f.alt else "Default")
        raise _fmt_error("Default", c, "dDsp")
    t = type(v)
    if t is bool:
        if c in "tT":
            s = ("true" if v else "false") if c == "t" else ("True" if v else "False")
            return _apply_string_flags(f, s[0] if f.alt else s)
        if c in "yY":
            s = ("yes" if v else "no") if c == "y" else ("Yes" if v else "No")
            return _apply_string_flags(f, s[0] if f.alt else s)
        if c in "dxXobB":
            return _convert_int(1 if v else 0, f)
        if c in "eEfgGaA":
            return _convert_float(1.0 if v else 0.0, f)
        if c == "s":
            return _apply_string_flags(f, "true" if v else "false")
        if c == "p":
            return _apply_string_flags(f, "true" if v else "false")
        raise _fmt_error("Boolean", c, "tTyYdxXobBeEfgGaAsp")
    if t is int:
        return _convert_int(v, f)
    if t is float:
        return _convert_float(v, f)
    if t is str:
        return _convert_string(v, f)
    if isinstance(v, Regexp):
        if c == "p":
            s = regexp_literal(v.pattern)
            return s if f.orig == "%p" else _sprintf_s(f, s)
        if c == "s":
            s = v.pattern
            if f.alt:
                s = puppet_quote(s)
            return s if f.orig == "%s" else _sprintf(f, "s", s)
        raise _fmt_error("Regexp", c, "sp")
    if t is list or t is tuple:
        return _convert_array(v, f, fmap, indent)
    if isinstance(v, dict):
        return _convert_hash(v, f, fmap, indent)
    if isinstance(v, m.PType):
        s = type_value_string(v)
        if c == "s":
            return _sprintf(f, "s", f'"{s}"' if f.alt else s)
        if c == "p":
            return _sprintf_s(f, s)
        raise _fmt_error("Type", c, "sp")
    if isinstance(v, Binary):
        return _convert_binary(v, f)
    if isinstance(v, URI):
        if c == "p":
            return f"URI({puppet_quote(v.text)})"
        if c == "s":
            return _sprintf(f, "s", puppet_quote(v.text) if f.alt else v.text)
        raise _fmt_error("URI", c, "sp")
    if isinstance(v, (Deferred, ObjectValue)):
        if c == "p":
            return object_to_s(v)
        if c == "s":
            return object_to_s(v)
        if c == "q":
            return object_to_s(v)
        raise _fmt_error("Object", c, "spq")
    # Timespan, Timestamp, SemVer, SemVerRange, Sensitive: Ruby's sprintf gets the object
    # itself, so numeric conversions work for the time values (they are Ruby Numerics).
    if isinstance(v, IteratorValue):
        return _convert(list(v), fmap, indent, None)
    if f.delimiters and c != "s" and c != "p":
        # Ruby's sprintf sees the delimiter first: "%(a" is malformed whatever the value.
        raise StringFormatError(render("MALFORMED_FORMAT_STRING", conv=f.delimiters))
    if c in "dixXobBu":
        if isinstance(v, (Timespan, Timestamp)):
            n = v.nsecs // 1_000_000_000 if v.nsecs >= 0 else -((-v.nsecs) // 1_000_000_000)
            return _sprintf(f, "d" if c == "u" else c, n)
        raise StringFormatError(render("CANT_CONVERT_INTO_INTEGER", name=_ruby_value_class(v)))
    if c in "eEfgGaA":
        if isinstance(v, (Timespan, Timestamp)):
            return _sprintf(f, c, v.nsecs / 1_000_000_000)
        raise StringFormatError(render("CANT_CONVERT_INTO_FLOAT", name=_ruby_value_class(v)))
    if c not in "sp":
        if f.delimiters:
            raise StringFormatError(render("MALFORMED_FORMAT_STRING", conv=f.delimiters))
        raise StringFormatError(render("MALFORMED_FORMAT_STRING", conv=c))
    if c == "p":
        if isinstance(v, Sensitive):
            s = REDACTED_INSPECT
        elif isinstance(v, Timespan):
            s = f"Timespan('{v}')"
        elif isinstance(v, Timestamp):
            s = f"Timestamp('{v}')"
        elif isinstance(v, SemVerRange):
            s = semver_range_inspect(v)
        else:
            s = to_s(v)
        return _sprintf(f, "s", s)
    return _sprintf(f, c if c in "s" else "s", to_s(v))


def semver_range_inspect(r: SemVerRange) -> str:
    """SemanticPuppet's ``VersionRange#inspect``: the normalized range (``1.x`` shows as
    ``>=1.0.0 <2.0.0``), which is what ``%p`` (and so a range inside a collection) prints."""
    parts = []
    for iv in r.intervals:
        lo, hi = iv.lo, iv.hi
        if lo is None and hi is None:
            parts.append("*")
        elif lo is not None and hi is not None and lo.key() == hi.key() and iv.lo_incl \
                and iv.hi_incl:
            parts.append(str(lo))
        elif lo is not None and hi is not None and (
                lo.key() > hi.key() or (lo.key() == hi.key() and not (iv.lo_incl and iv.hi_incl))):
            parts.append("<0.0.0")  # an empty range
        else:
            bounds = []
            if lo is not None:
                bounds.append((">=" if iv.lo_incl else ">") + str(lo))
            if hi is not None:
                bounds.append(("<=" if iv.hi_incl else "<") + str(hi))
            parts.append(" ".join(bounds))
    return " || ".join(parts) if parts else str(r)


def _ruby_value_class(v: Any) -> str:
    if isinstance(v, Sensitive):
        return "Puppet::Pops::Types::PSensitiveType::Sensitive"
    if isinstance(v, SemVer):
        return "SemanticPuppet::Version"
    if isinstance(v, SemVerRange):
        return "SemanticPuppet::VersionRange"
    return type(v).__name__


def _sprintf_s(f: Format, s: str) -> str:
    return format_one(f.sprintf_flags(), f.width, f.prec, "s", s)


def _convert_int(v: int, f: Format) -> str:
    c = f.conv
    if c in "dxXobB":
        return _sprintf(f, c, v)
    if c == "p":
        return _sprintf(f, "p", v)
    if c in "eEfgGaA":
        return _sprintf(f, c, float(v))
    if c == "c":
        try:
            ch = chr(v)
        except (ValueError, OverflowError):
            raise StringFormatError(render("INVALID_CHARACTER")) from None
        return _sprintf(f, "s", f'"{ch}"' if f.alt else ch)
    if c == "s":
        s = str(v)
        # Ruby formats the digits with %p (quoted) under the alternative flag.
        return _sprintf(f, "p" if f.alt else "s", s)
    raise _fmt_error("Integer", c, "dxXobBeEfgGaAspc")


def _convert_float(v: float, f: Format) -> str:
    c = f.conv
    if c in "dxXobB":
        if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
            raise StringFormatError(ruby_float(v))
        return _sprintf(f, c, int(v))
    if c in "eEfgGaA":
        return _sprintf(f, c, v)
    if c == "p":
        return _sprintf(f, "s", ruby_float(v))
    if c == "s":
        s = ruby_float(v)
        return _sprintf(f, "s", f'"{s}"' if f.alt else s)
    raise _fmt_error("Float", c, "dxXobBeEfgGaAsp")


def _convert_string(v: str, f: Format) -> str:
    c = f.conv
    if c == "s":
        return _sprintf(f, "s", v)
    if c == "p":
        return _apply_string_flags(f, puppet_quote(v, f.alt))
    if c in "cCudt":
        if c == "c":
            s = v[:1].upper() + v[1:].lower()
        elif c == "C":
            s = "::".join(p[:1].upper() + p[1:].lower() for p in v.split("::"))
        elif c == "u":
            s = v.upper()
        elif c == "d":
            s = v.lower()
        else:
            s = v.strip()
        if f.alt:
            return _apply_string_flags(f, puppet_quote(s))
        return _sprintf(f, "s", s)
    raise _fmt_error("String", c, "cCudspt")


def _convert_binary(v: Binary, f: Format) -> str:
    c = f.conv
    sub = "p" if f.alt else "s"
    if c == "s":
        if f.alt:
            return _sprintf(f, "s", _ruby_bytes_inspect(v.data))
        try:
            text = v.data.decode("utf-8")
        except UnicodeDecodeError:
            raise StringFormatError(
                render("INVALID_BYTE_SEQUENCE",
                       next=next(b for b in v.data if b >= 0x80))) from None
        return _sprintf(f, "s", text)
    if c == "p":
        return 'Binary("' + _sprintf(f, "s", v.to_base64()) + '")'
    if c == "b":
        return _sprintf(f, sub, base64.encodebytes(v.data).decode("ascii"))
    if c == "B":
        return _sprintf(f, sub, v.to_base64())
    if c == "u":
        return _sprintf(f, sub, base64.urlsafe_b64encode(v.data).decode("ascii"))
    if c == "t":
        return _sprintf(f, sub, "Binary")
    if c == "T":
        return _sprintf(f, sub, "BINARY")
    raise _fmt_error("Binary", c, "bButTsp")


def _ruby_bytes_inspect(data: bytes) -> str:
    """Ruby's inspect of a binary (ASCII-8BIT) string."""
    out = ['"']
    for b in data:
        ch = chr(b)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "#":
            out.append("#")
        elif 0x20 <= b < 0x7f:
            out.append(ch)
        else:
            out.append(f"\\x{b:02X}")
    out.append('"')
    return "".join(out)


def _is_a_or_h(x: Any) -> bool:
    return isinstance(x, (list, tuple, dict))


def _convert_array(v, f: Format, fmap: list, indent: _Indent) -> str:
    if f.conv not in "asp":
        raise _fmt_error("Array", f.conv, "asp")
    sep = f.separator if f.separator is not None else DEFAULT_ARRAY_FORMAT.separator
    string_formats = f.container_formats or DEFAULT_CONTAINER_FORMATS
    delims = f.delimiter_pair(("[", "]"))
    indent = indent.with_indenting(f.alt or indent.indenting)
    buf = ""
    if indent.breaks():
        buf += "\n" + indent.padding()
    buf += delims[0]
    child = indent.increase(f.alt)
    mapped = []
    built = 0
    for x in v:
        if child.first:
            child = child.subsequent()
        mapped.append(_convert(x, fmap if _is_a_or_h(x) or isinstance(x, ObjectValue)
                               else string_formats, child, None))
        # the text can outgrow the value (widths, quotes, separators): bound it as it grows
        built += len(mapped[-1]) + len(sep)
        check_size(built, "the formatted text")
    sz_break = False
    if f.alt and f.width:
        runs = [0]
        for i, x in enumerate(v):
            if _is_a_or_h(x):
                runs.append(0)
            else:
                runs[-1] += len(mapped[i])
        sz_break = max(runs) > f.width
    child = indent.increase(f.alt)
    for i, x in enumerate(v):
        s = mapped[i]
        if child.first:
            child = child.subsequent()
            if sz_break and not _is_a_or_h(x):
                buf += " "
        else:
            buf += sep
            if (sz_break and not _is_a_or_h(x)) or (
                    f.alt and i > 0 and _is_a_or_h(v[i - 1]) and not _is_a_or_h(x)):
                if not buf.endswith("\n"):
                    buf = buf.rstrip()
                buf += "\n" + child.padding()
        if buf.endswith(" ") and s.startswith("\n"):
            buf = buf.rstrip()
        buf += s
    buf += delims[1]
    return buf


def _convert_hash(v: dict, f: Format, fmap: list, indent: _Indent) -> str:
    sep = f.separator if f.separator is not None else DEFAULT_HASH_FORMAT.separator
    assoc = f.separator2 if f.separator2 is not None else DEFAULT_HASH_FORMAT.separator2
    string_formats = f.container_formats or DEFAULT_CONTAINER_FORMATS
    delims = f.delimiter_pair(("{", "}"))
    if f.alt:
        if not sep.endswith("\n"):
            sep = sep.rstrip()
        sep = sep + "\n"
    if f.conv == "a":
        arr = [[k, x] for k, x in v.items()]
        return _convert(arr, fmap, indent, None)
    if f.conv not in "hsp":
        raise _fmt_error("Hash", f.conv, "hasp")
    indent = indent.with_indenting(f.alt or indent.indenting)
    buf = ""
    if indent.breaks():
        buf += "\n" + indent.padding()
    child = indent.increase()
    cond_break = ""
    padding = ""
    if f.alt:
        cond_break = "\n"
        padding = child.padding()
    buf += delims[0] + cond_break
    parts = []
    built = 0
    for k, x in v.items():
        ks = _convert(k, fmap if _is_a_or_h(k) else string_formats, child, None)
        xs = _convert(x, fmap if _is_a_or_h(x) or isinstance(x, ObjectValue)
                      else string_formats, child, None)
        parts.append(f"{padding}{ks}{assoc}{xs}")
        built += len(parts[-1]) + len(sep)
        check_size(built, "the formatted text")
    buf += sep.join(parts)
    if f.alt:
        buf += cond_break + indent.padding()
    buf += delims[1]
    return buf


__all__ = ["to_s", "string_convert", "puppet_quote", "StringFormatError", "Format",
           "object_to_s", "SemVer", "SemVerRange"]


def ruby_interpolated(v: Any) -> str:
    """``"#{v}"`` in Puppet's Ruby messages: arrays and hashes show as Ruby ``inspect``
    (``[1, "a"]``, ``{"a"=>nil}``), a regexp as ``(?-mix:x)``, anything else as Puppet's
    string form."""
    if isinstance(v, (list, tuple, dict, Regexp)):
        return ruby_to_s(v)
    return to_s(v)
