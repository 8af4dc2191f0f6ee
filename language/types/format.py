"""The canonical text of types (exactly what Puppet's ``String(T)`` prints) and of values.

``type_to_string`` is what hover shows and what the conformance cases compare against;
``format_value`` writes a value as Puppet source (the corpus' canonical value form), which is
also how values appear inside type parameters (``Enum['a']``, ``File['/tmp']``).
"""
from __future__ import annotations

import math
from typing import Any

from . import model as m
from .values import (URI, Binary, Deferred, DefaultValue, ObjectValue, Regexp, SemVer,
                     SemVerRange, Sensitive, Timespan, Timestamp)

__all__ = ["type_to_string", "format_value", "object_definition_text", "ruby_float",
           "regexp_literal", "quote_string"]

_MAX_DEPTH = 200


def ruby_float(f: float) -> str:
    """Ruby's ``Float#to_s``: shortest round-trip digits, always a ``.``, ``e+XX`` exponents.

    Ruby writes a number without a fractional part in exponent form from 1e16 down to 1e15
    already (``1.0e+15``) while Python switches at 1e16: with ``decpt`` the position of the
    decimal point after the first digit, Ruby is fixed when ``decpt`` is below the number of
    digits (a fractional part) or at most 15, and ``0.000ddd`` down to ``decpt`` -3."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "-0.0" if math.copysign(1, f) < 0 else "0.0"
    sign = "-" if f < 0 else ""
    mant, _, exp = f"{abs(f)!r}".partition("e")
    whole, _, frac = mant.partition(".")
    digits = (whole + frac).lstrip("0")
    decpt = len(whole.lstrip("0")) if whole.strip("0") else -(len(frac) - len(frac.lstrip("0")))
    decpt += int(exp) if exp else 0
    digits = digits.rstrip("0") or "0"
    if 0 < decpt < len(digits):
        return f"{sign}{digits[:decpt]}.{digits[decpt:]}"
    if 0 < decpt <= 15:
        return f"{sign}{digits}{'0' * (decpt - len(digits))}.0"
    if -4 < decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    e = decpt - 1
    return f"{sign}{digits[0]}.{digits[1:] or '0'}e{'+' if e >= 0 else '-'}{abs(e):02d}"


def quote_string(s: str) -> str:
    """Puppet source for a string: single-quoted unless it holds control characters."""
    if any(ord(c) < 0x20 for c in s):
        return double_quote(s)
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def double_quote(s: str) -> str:
    """A double-quoted Puppet string literal for ``s`` (tab, line breaks, quote, dollar and
    backslash escaped, other control characters as ``\\u{XX}``)."""
    out = ['"']
    for c in s:
        if c == "\t":
            out.append("\\t")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == '"':
            out.append('\\"')
        elif c == "$":
            out.append("\\$")
        elif c == "\\":
            out.append("\\\\")
        elif ord(c) < 0x20:
            out.append(f"\\u{{{ord(c):X}}}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def regexp_literal(source: str) -> str:
    """``/source/`` with unescaped slashes escaped (Ruby ``Regexp#inspect``)."""
    out = []
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            out.append(source[i:i + 2])
            i += 2
            continue
        out.append("\\/" if c == "/" else c)
        i += 1
    return "/" + "".join(out) + "/"


def format_value(v: Any, depth: int = 0) -> str:
    """A value as Puppet source text (the conformance corpus' canonical form)."""
    if depth > _MAX_DEPTH:
        return "..."
    if v is None:
        return "undef"
    if isinstance(v, DefaultValue):
        return "default"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return ruby_float(v)
    if isinstance(v, str):
        return quote_string(v)
    if isinstance(v, Regexp):
        return regexp_literal(v.pattern)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(format_value(x, depth + 1) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{format_value(k, depth + 1)} => {format_value(x, depth + 1)}"
                               for k, x in v.items()) + "}"
    if isinstance(v, m.PType):
        return type_to_string(v)
    if isinstance(v, Timespan):
        return f"Timespan('{v}')"
    if isinstance(v, Timestamp):
        return f"Timestamp('{v}')"
    if isinstance(v, SemVer):
        return f"SemVer('{v}')"
    if isinstance(v, SemVerRange):
        return f"SemVerRange('{v}')"
    if isinstance(v, Binary):
        return f"Binary('{v.to_base64()}')"
    if isinstance(v, Sensitive):
        return f"Sensitive({format_value(v.value, depth + 1)})"
    if isinstance(v, URI):
        return f"URI({quote_string(v.text)})"
    if isinstance(v, Deferred):
        return ("Deferred({'name' => " + quote_string(v.name) + ", 'arguments' => "
                + format_value(list(v.arguments), depth + 1) + "})")
    if isinstance(v, ObjectValue):
        return (v.type_name + "({" + ", ".join(
            f"{quote_string(k)} => {format_value(x, depth + 1)}" for k, x in v.attributes) + "})")
    return repr(v)


def _size(size: tuple) -> list:
    lo, hi = size
    return [str(lo)] if hi is None else [str(lo), str(hi)]


def _range(lo: Any, hi: Any, fmt) -> list:
    if lo is None and hi is None:
        return []
    if lo is None:
        return ["default", fmt(hi)]
    if hi is None:
        return [fmt(lo)]
    return [fmt(lo), fmt(hi)]


def _time_range(lo: Any, hi: Any) -> list:
    # Puppet prints a one-value time range ([x, x]) the same as an open one ([x]).
    fmt = lambda x: getattr(x, "type_text", x.__str__)()
    if lo is None and hi is None:
        return []
    if lo is None:
        return ["default", f"'{fmt(hi)}'"]
    if hi is None or hi == lo:
        return [f"'{fmt(lo)}'"]
    return [f"'{fmt(lo)}'", f"'{fmt(hi)}'"]


def _with(name: str, parts: list) -> str:
    return name if not parts else f"{name}[{', '.join(parts)}]"


def type_to_string(t: m.PType, depth: int = 0) -> str:
    """The canonical text of a type, as Puppet's type formatter writes it."""
    if depth > _MAX_DEPTH:
        return "..."
    s = lambda x: type_to_string(x, depth + 1)
    if isinstance(t, m.IntegerType):
        return _with("Integer", _range(t.lo, t.hi, str))
    if isinstance(t, m.FloatType):
        return _with("Float", _range(t.lo, t.hi, ruby_float))
    if isinstance(t, (m.StringType, m.CollectionType)):
        return _with(t.name, _size(t.size) if t.size is not None else [])
    if isinstance(t, m.ArrayType):
        if t.size == (0, 0):
            return "Array[0, 0]"
        if t.size is None:
            return "Array" if t.element == m.ANY else f"Array[{s(t.element)}]"
        return _with("Array", [s(t.element)] + _size(t.size))
    if isinstance(t, m.HashType):
        if t.size == (0, 0):
            return "Hash[0, 0]"
        if t.size is None:
            if t.key == m.ANY and t.value == m.ANY:
                return "Hash"
            return f"Hash[{s(t.key)}, {s(t.value)}]"
        return _with("Hash", [s(t.key), s(t.value)] + _size(t.size))
    if isinstance(t, m.TupleType):
        parts = [s(x) for x in t.types] + (_size(t.size) if t.size is not None else [])
        return _with("Tuple", parts)
    if isinstance(t, m.StructType):
        if not t.elements:
            return "Struct"
        items = []
        for e in t.elements:
            accepts_undef = _accepts_undef(e.value_type)
            key = quote_string(e.key)
            if e.optional and not accepts_undef:
                key = f"Optional[{key}]"
            elif not e.optional and accepts_undef:
                key = f"NotUndef[{key}]"
            items.append(f"{key} => {s(e.value_type)}")
        return "Struct[{" + ", ".join(items) + "}]"
    if isinstance(t, m.EnumType):
        parts = [quote_string(v) for v in t.values] + (["true"] if t.case_insensitive else [])
        return _with("Enum", parts)
    if isinstance(t, m.PatternType):
        return _with("Pattern", [regexp_literal(p.pattern) for p in t.patterns])
    if isinstance(t, m.RegexpType):
        return "Regexp" if t.pattern is None else f"Regexp[{regexp_literal(t.pattern)}]"
    if isinstance(t, m.BooleanType):
        return "Boolean" if t.value is None else f"Boolean[{'true' if t.value else 'false'}]"
    if isinstance(t, m.VariantType):
        return _with("Variant", [s(x) for x in t.types])
    if isinstance(t, (m.OptionalType, m.NotUndefType)):
        if t.key is not None:
            return f"{t.name}[{quote_string(t.key)}]"
        return t.name if t.type is None else f"{t.name}[{s(t.type)}]"
    if isinstance(t, (m.TypeType, m.IterableType, m.IteratorType)):
        return t.name if t.type is None else f"{t.name}[{s(t.type)}]"
    if isinstance(t, m.SensitiveType):
        return "Sensitive" if t.type in (None, m.ANY) else f"Sensitive[{s(t.type)}]"
    if isinstance(t, m.InitType):
        if t.type is None:
            return "Init"
        return _with("Init", [s(t.type)] + [format_value(a, depth + 1) for a in t.args])
    if isinstance(t, m.CallableType):
        return _callable(t, s)
    if isinstance(t, m.RuntimeType):
        if t.runtime is None:
            return "Runtime"
        nm = t.runtime_name
        if isinstance(nm, tuple):
            return f"Runtime[{t.runtime}, [{regexp_literal(nm[0].pattern)}, {quote_string(nm[1])}]]"
        return f"Runtime[{t.runtime}]" if nm is None else f"Runtime[{t.runtime}, {quote_string(nm)}]"
    if isinstance(t, m.ResourceType):
        if t.type_name is None:
            return "Resource"
        return t.type_name if t.title is None else f"{t.type_name}[{quote_string(t.title)}]"
    if isinstance(t, m.ClassType):
        return "Class" if t.class_name is None else f"Class[{t.class_name}]"
    if isinstance(t, m.TypeReferenceType):
        return t.text
    if isinstance(t, m.TypeAliasType):
        return t.alias_name
    if isinstance(t, m.URIType):
        if t.parts is None:
            return "URI"
        return "URI[{" + ", ".join(f"{quote_string(k)} => {format_value(v)}"
                                   for k, v in t.parts) + "}]"
    if isinstance(t, m.SemVerType):
        return _with("SemVer", [quote_string(str(r)) for r in t.ranges])
    if isinstance(t, (m.TimespanType, m.TimestampType)):
        return _with(t.name, _time_range(t.lo, t.hi))
    if isinstance(t, m.ObjectExtType):
        return _object_ext_text(t, depth)
    if isinstance(t, m.ObjectType):
        if t.type_name is not None:
            return t.type_name
        if not t.attributes and t.parent is None:
            return "Object"
        parts = []
        if t.parent is not None:
            parts.append(f"parent => {s(t.parent)}")
        if t.attributes:
            attrs = []
            for a in t.attributes:
                if a.has_value:
                    attrs.append(f"{quote_string(a.name)} => {{type => {s(a.type)}, value => "
                                 f"{format_value(a.value)}}}")
                else:
                    attrs.append(f"{quote_string(a.name)} => {s(a.type)}")
            parts.append("attributes => {" + ", ".join(attrs) + "}")
        return "Object[{" + ", ".join(parts) + "}]"
    if isinstance(t, m.TypeSetType):
        return t.type_name or "TypeSet"
    return t.name


def _callable(t: m.CallableType, s) -> str:
    if t.params is None and t.block is None and t.return_type is None:
        return "Callable"
    parts: list = []
    if t.params is not None:
        parts = [s(x) for x in t.params.types]
        if t.params.size is not None:
            parts += _size(t.params.size)
    if t.block is not None:
        parts.append(s(t.block))
    if t.return_type is not None:
        return f"Callable[[{', '.join(parts)}], {s(t.return_type)}]"
    return _with("Callable", parts)


def object_definition_text(t: m.ObjectType) -> str:
    """A declared Object type written out in full, as Puppet prints it as a value
    (``Object[{name => 'T', parent => P, attributes => {...}, ...}]``); types inside, the
    parent included, appear by name."""
    parts = []
    if t.annotations:
        parts.append("annotations => {" + ", ".join(
            f"{type_to_string(at)} => " + "{" + ", ".join(
                f"{format_value(k)} => {format_value(v)}" for k, v in init) + "}"
            for at, init in t.annotations) + "}")
    if t.type_name is not None:
        parts.append(f"name => {quote_string(t.type_name)}")
    if t.parent is not None:
        parts.append(f"parent => {type_to_string(t.parent)}")
    if t.type_parameters:
        parts.append("type_parameters => {" + ", ".join(
            f"{quote_string(n)} => {type_to_string(tp)}" for n, tp in t.type_parameters) + "}")
    attrs, consts = [], []
    for a in t.attributes:
        if a.kind == "constant" and a.has_value:
            consts.append(f"{quote_string(a.name)} => {format_value(a.value)}")
            continue
        extra = []
        if a.final:
            extra.append("final => true")
        if a.override:
            extra.append("override => true")
        if a.kind is not None:
            extra.append(f"kind => {a.kind}")
        if a.has_value:
            extra.append(f"value => {format_value(a.value)}")
        if extra:
            attrs.append(f"{quote_string(a.name)} => {{type => {type_to_string(a.type)}, "
                         + ", ".join(extra) + "}")
        else:
            attrs.append(f"{quote_string(a.name)} => {type_to_string(a.type)}")
    if attrs:
        parts.append("attributes => {" + ", ".join(attrs) + "}")
    if consts:
        parts.append("constants => {" + ", ".join(consts) + "}")
    if t.functions:
        parts.append("functions => {" + ", ".join(
            f"{quote_string(n)} => {type_to_string(c)}" for n, c in t.functions) + "}")
    if t.equality is not None:
        parts.append("equality => [" + ", ".join(quote_string(e) for e in t.equality) + "]")
    return "Object[{" + ", ".join(parts) + "}]"


def _object_ext_text(t: m.ObjectExtType, depth: int) -> str:
    """``MyType['a', default, 'b']``: positional with trailing defaults dropped, or a hash of
    the given parameters when the type declares more than two (Puppet's choice)."""
    from .build import object_type_parameters
    base = t.base
    label = base.type_name if isinstance(base, m.ObjectType) and base.type_name else "Object"
    pts = object_type_parameters(base)
    given = dict(t.params)
    if len(pts) > 2:
        return label + "[{" + ", ".join(f"{quote_string(k)} => {format_value(v, depth + 1)}"
                                        for k, v in t.params) + "}]"
    args = [format_value(given[pn], depth + 1) if pn in given else "default" for pn, _ in pts]
    while args and args[-1] == "default":
        args.pop()
    return label + "[" + ", ".join(args) + "]"


def _accepts_undef(t: m.PType) -> bool:
    from .relations import is_assignable
    return is_assignable(t, m.UNDEF)
