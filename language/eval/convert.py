"""Creating values from types: ``new`` (and calling a type, ``Integer('0x1F')``).

Each type has its own "new function" with Puppet's signatures; :func:`new_instance` picks it,
calls it, and asserts that the result is an instance of the (possibly parameterized) type
that was called, as Puppet's ``new`` does.  Conversions follow Ruby's rules where Puppet
delegates to Ruby (``Integer()``/``Float()`` string parsing, ``Hash[...]``).
"""
from __future__ import annotations

import math

import re
from typing import Any

from ..types import model as m
from ..types.build import resolve_alias
from ..types.guard import check_integer_digits
from ..types.values import (URI, Binary, Deferred, DefaultValue, Regexp, SemVer, SemVerLeadingZero,
                            SemVerRange, Sensitive, Timespan, Timestamp)
from .errors import ArgumentsError, EvalError
from .registry import Function
from .mismatch import describe_value_mismatch
from .runtime import generalized_type_name, hkey, to_number, regexp_error, DefaultValue as _D
from .rubyfmt import ruby_inspect
from .typecheck import instance_of, init_parts, register_new_functions
from ..syntax.ast import _NON_EXPR as _NON_EXPR_KINDS
from ..messages import render
from .typetext import type_from_text
from .stringconv import StringFormatError, string_convert
from .iteration import to_list, is_iterable
import base64
import binascii
from ..syntax.parser import parse
from .scope import Scope
from .timefmt import new_timespan, new_timestamp
from .objecttypes import new_object_function
from ..types.format import type_to_string

NSECS = 1_000_000_000


class ConversionError(EvalError):
    def __init__(self, message: str):
        super().__init__(message, "TYPE_CONVERSION_ERROR")


# ---- Ruby's Integer() and Float() ----------------------------------------------------------------

_DIGITS = {2: "01", 8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}


def ruby_integer(s: str, radix: int | None = None) -> int:
    """Ruby ``Integer(s)`` / ``Integer(s, radix)``; raises ConversionError with Ruby's text."""
    bad = ConversionError(render("INVALID_VALUE_FOR_INTEGER", ruby_inspect=ruby_inspect(s)))
    t = s.strip(" \t\n\v\f\r")
    if not t:
        raise bad
    sign = 1
    if t[0] in "+-":
        sign = -1 if t[0] == "-" else 1
        t = t[1:]
    base = radix
    low = t.lower()
    prefixes = {"0x": 16, "0b": 2, "0o": 8, "0d": 10}
    p = low[:2]
    if p in prefixes and (radix is None or radix == prefixes[p]):
        base, t = prefixes[p], t[2:]
    elif p in prefixes and radix is not None and not all(
            c in _DIGITS.get(radix, "") or c == "_" for c in t):
        # A prefix of another radix ("0x" with radix 2) is not a number in this radix.
        raise bad
    elif len(t) > 1 and t[0] == "0" and radix is None:
        base, t = 8, t[1:]
    if base is None:
        base = 10
    if not t or t[0] == "_" or t[-1] == "_" or "__" in t:
        raise bad
    digits = _DIGITS.get(base)
    clean = t.replace("_", "")
    if digits is not None and any(c not in digits for c in clean):
        raise bad
    # Puppet makes bignums here; digits past what can ever be shown are refused instead
    check_integer_digits(clean, base, "the converted Integer")
    try:
        return sign * int(clean, base)
    except ValueError:
        raise bad from None


_FLOAT_RE = re.compile(r"^[+-]?(\d+(_\d+)*)(\.\d+(_\d+)*)?([eE][+-]?\d+)?$")


def ruby_float(s: str) -> float:
    bad = ConversionError(render("INVALID_VALUE_FOR_FLOAT", ruby_inspect=ruby_inspect(s)))
    t = s.strip(" \t\n\v\f\r")
    if re.match(r"^[+-]?0[xX][0-9a-fA-F]+$", t):
        check_integer_digits(t, 16, "the converted Float")
        return float(int(t, 16))
    if not _FLOAT_RE.match(t):
        raise bad
    try:
        return float(t.replace("_", ""))
    except ValueError:
        raise bad from None


_WS_SIGN = re.compile(r"\A([+-])[ \t]+(.*)\Z", re.DOTALL)

INTEGER_HEX = r"(?:0[xX][0-9A-Fa-f]+)"
INTEGER_OCT = r"(?:0[0-7]+)"
INTEGER_BIN = r"(?:0[bB][01]+)"
INTEGER_DEC = r"(?:0|[1-9]\d*)"
SIGN_PREFIX = r"[+-]?\s*"
FLOAT_DEC = r"(?:" + INTEGER_DEC + r"(?:\.\d+)?(?:[eE]-?\d+)?)"
INTEGER_PATTERN_LENIENT = (r"\A" + SIGN_PREFIX + r"(?:(?:\d+)|" + INTEGER_HEX + "|" + INTEGER_BIN
                           + r")\z")
FLOAT_PATTERN = (r"\A" + SIGN_PREFIX + "(?:" + FLOAT_DEC + "|" + INTEGER_HEX + "|" + INTEGER_OCT
                 + "|" + INTEGER_BIN + r")\z")


def _cannot(what: str, v: Any) -> str:
    if isinstance(v, str):
        return f"The string '{v}' cannot be converted to {what}"
    return f"Value of type {generalized_type_name(v)} cannot be converted to {what}"


def _abs(v):
    if isinstance(v, Timespan):
        return Timespan(abs(v.nsecs))
    return abs(v)


# ---- Integer --------------------------------------------------------------------------------------

new_integer = Function("new")
_RADIX = "Variant[Default, Integer[2,2], Integer[8,8], Integer[10,10], Integer[16,16]]"
_INT_CONV = f"Variant[Numeric, Boolean, Pattern[/{INTEGER_PATTERN_LENIENT}/], Timespan, Timestamp]"


def _int_from(v, radix):
    if type(v) is float:
        if math.isnan(v) or math.isinf(v):
            raise ConversionError(render("TYPE_CONVERSION_ERROR", message=v))
        return int(v)
    if isinstance(v, (Timespan, Timestamp)):
        return v.nsecs // NSECS if v.nsecs >= 0 else -((-v.nsecs) // NSECS)
    if type(v) is int:
        return v
    if v is True:
        return 1
    if v is False:
        return 0
    r = None if isinstance(radix, DefaultValue) or radix is None else radix
    try:
        return ruby_integer(v, r)
    except ConversionError:
        mt = _WS_SIGN.match(v)
        if mt:
            try:
                return ruby_integer(mt.group(1) + mt.group(2), r)
            except ConversionError:
                pass
        raise


@new_integer.dispatch(f"{_INT_CONV} from", f"{_RADIX} radix?", "Boolean abs?")
def _integer(c, v, radix=None, abs_=False):
    r = _int_from(v, radix)
    return abs(r) if abs_ else r


@new_integer.dispatch(f"Struct[{{from => {_INT_CONV}, Optional[radix] => {_RADIX}, "
                      "Optional[abs] => Boolean}] hash_args")
def _integer_hash(c, h):
    return _integer(c, h["from"], h.get("radix"), bool(h.get("abs")))


def _assert_radix(radix):
    if radix is None or isinstance(radix, DefaultValue):
        return
    if radix not in (2, 8, 10, 16):
        raise EvalError(render("ILLEGAL_RADIX_EXPECTED_OR_DEFAULT", radix=radix))


@new_integer.argument_mismatch("Hash hash_args")
def _integer_hash_err(c, h):
    if "from" in h and not instance_of(type_from_text(_INT_CONV), h["from"]):
        return _integer_err(c, h["from"])
    _assert_radix(h.get("radix"))
    msg = describe_value_mismatch("Integer.new", type_from_text(
        f"Struct[{{from => {_INT_CONV}, Optional[radix] => {_RADIX}, Optional[abs] => Boolean}}]"), h)
    raise EvalError(msg)


@new_integer.argument_mismatch("Any from", "Integer radix?", "Boolean abs?")
def _integer_err(c, v, radix=None, abs_=None):
    _assert_radix(radix)
    return _cannot("Integer", v)


# ---- Float / Numeric ----------------------------------------------------------------------------------

new_float = Function("new_float")
_FLOAT_CONV = f"Variant[Numeric, Boolean, Pattern[/{FLOAT_PATTERN}/], Timespan, Timestamp]"


def _float_from(v):
    if type(v) is float:
        return v
    if type(v) is int:
        return float(v)
    if isinstance(v, (Timespan, Timestamp)):
        return v.nsecs / NSECS
    if v is True:
        return 1.0
    if v is False:
        return 0.0
    s = v
    try:
        if len(s) > 1 and s[0] == "0" and s[1] in "bB":
            return float(ruby_integer(s))
        return ruby_float(s)
    except ConversionError:
        mt = _WS_SIGN.match(s)
        if mt:
            try:
                return _float_from(mt.group(1) + mt.group(2))
            except ConversionError:
                pass
        raise


@new_float.dispatch(f"{_FLOAT_CONV} from", "Boolean abs?")
def _float(c, v, abs_=False):
    r = _float_from(v)
    return abs(r) if abs_ else r


@new_float.dispatch(f"Struct[{{from => {_FLOAT_CONV}, Optional[abs] => Boolean}}] hash_args")
def _float_hash(c, h):
    return _float(c, h["from"], bool(h.get("abs")))


@new_float.argument_mismatch("Any from", "Boolean abs?")
def _float_err(c, v, abs_=None):
    return _cannot("Float", v)


new_numeric = Function("new_numeric")
_NUM_CONV = f"Variant[Integer, Float, Boolean, Pattern[/{FLOAT_PATTERN}/], Timespan, Timestamp]"


def _numeric_from(v):
    if type(v) in (int, float):
        return v
    if isinstance(v, (Timespan, Timestamp)):
        return v.nsecs / NSECS
    if v is True:
        return 1
    if v is False:
        return 0
    s = v
    if len(s) > 1 and s[0] == "0" and s[1].lower() in "bx":
        return ruby_integer(s)
    n = to_number(s)
    if n is None:
        mt = _WS_SIGN.match(s)
        if mt:
            n = to_number(mt.group(1) + mt.group(2))
    return n


@new_numeric.dispatch(f"{_NUM_CONV} from", "Boolean abs?")
def _numeric(c, v, abs_=False):
    r = _numeric_from(v)
    return abs(r) if abs_ and r is not None else r


@new_numeric.dispatch(f"Struct[{{from => {_NUM_CONV}, Optional[abs] => Boolean}}] hash_args")
def _numeric_hash(c, h):
    return _numeric(c, h["from"], bool(h.get("abs")))


@new_numeric.argument_mismatch("Any from", "Boolean abs?")
def _numeric_err(c, v, abs_=None):
    return _cannot("Numeric", v)


# ---- String / Boolean --------------------------------------------------------------------------------

new_string = Function("new_string")


@new_string.dispatch("Any from", "Variant[Default, String[1], Hash[Type, Variant[String, Hash]]] "
                     "string_formats?")
def _string(c, v, formats=None):
    try:
        return string_convert(v, formats)
    except StringFormatError as exc:
        raise EvalError(str(exc)) from None


new_boolean = Function("new_boolean")


@new_boolean.dispatch("Variant[Integer, Float, Boolean, Enum['false','true','yes','no','y','n',true]] from")
def _boolean(c, v):
    if type(v) is str:
        v = v.lower()
    if type(v) is float:
        return v != 0.0
    if type(v) is int:
        return v != 0
    return v not in (False, "false", "no", "n")


@new_boolean.argument_mismatch("Any from")
def _boolean_err(c, v):
    return _cannot("Boolean", v)


# ---- Array / Hash ----------------------------------------------------------------------------------

new_array = Function("new_array")


@new_array.dispatch("Variant[Array,Hash,Binary,Iterable] from", "Boolean[false] wrap?")
def _array(c, v, wrap=False):
    if type(v) in (list, tuple):
        return list(v)
    if isinstance(v, dict):
        return [[k, x] for k, x in v.items()]
    if isinstance(v, Binary):
        return list(v.data)
    return to_list(c.ev, v)


@new_array.dispatch("Any from", "Boolean[true] wrap")
def _array_wrapped(c, v, wrap):
    return list(v) if type(v) in (list, tuple) else [v]


@new_array.argument_mismatch("Any from", "Boolean wrap?")
def _array_err(c, v, wrap=None):
    return f"Value of type {generalized_type_name(v)} cannot be converted to Array"


new_hash = Function("new_hash")


@new_hash.dispatch("Array[Tuple[Array,Any],1] from", "Enum[tree, hash_tree] build_option?")
def _hash_tree(c, arr, option=None) -> Any:
    if option is None:
        return _hash_tuples(c, arr)
    all_hashes = option == "hash_tree"
    result: dict = {}
    for path, value in arr:
        if not path:
            if type(value) in (list, tuple):
                for i, x in enumerate(value):
                    result[i] = x
            else:
                result.update(value)
            continue
        r: Any = result
        for idx in path[:-1]:
            if type(r) in (list, tuple):
                r = r[idx]
            elif hkey(idx) in r:
                r = r[hkey(idx)]
            else:
                r[hkey(idx)] = {}
                r = r[hkey(idx)]
        if all_hashes and type(value) in (list, tuple):
            value = {i: x for i, x in enumerate(value)}
        if type(r) is list:
            r[path[-1]] = value
        else:
            r[hkey(path[-1])] = value
    return result


@new_hash.dispatch("Array[Tuple[Any,Any],1] from")
def _hash_tuples(c, arr):
    return {hkey(k): v for k, v in arr}


@new_hash.dispatch("Any from")
def _hash_any(c, v):
    if type(v) in (list, tuple):
        if len(v) % 2:
            raise ConversionError(render("NEW_HASH_ODD_ARGUMENTS"))
        return {hkey(v[i]): v[i + 1] for i in range(0, len(v), 2)}
    if isinstance(v, dict):
        return v
    if is_iterable(v):
        items = to_list(c.ev, v)
        if len(items) % 2:
            raise ConversionError(render("NEW_HASH_ODD_ARGUMENTS"))
        return {hkey(items[i]): items[i + 1] for i in range(0, len(items), 2)}
    raise ConversionError(render("VALUE_TYPE_CANNOT_CONVERTED_HASH",
                                 generalized_type_name=generalized_type_name(v)))


# ---- Regexp / SemVer / Binary / URI / Sensitive / Type ------------------------------------------------

new_regexp = Function("new_regexp")


@new_regexp.dispatch("Variant[String, Regexp] from", "Boolean escape?")
def _regexp(c, v, escape=False):
    if isinstance(v, Regexp):
        return v
    if escape:
        v = _ruby_regexp_escape(v)
    rx = Regexp(v)
    if rx.compiled() is None:
        raise ConversionError(regexp_error(v))
    return rx


def _ruby_regexp_escape(s: str) -> str:
    out = []
    for ch in s:
        if ch in ".*?+^$|()[]{}\\/-":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == " ":
            out.append("\\ ")
        else:
            out.append(ch)
    return "".join(out)


new_semver = Function("new_Version")


_SEMVER_QUALIFIER = r"Pattern[/\A[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*\Z/]"
_SEMVER_PATTERN = (r"Pattern[/\Av?(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)"
                   r"(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?\Z/]")


@new_semver.dispatch(f"{_SEMVER_PATTERN} str")
def _semver_str(c, s):
    return _parse_semver(s)


def _parse_semver(s):
    try:
        return SemVer.parse(s)
    except SemVerLeadingZero as exc:
        raise EvalError(str(exc)) from None
    except ValueError:
        raise ConversionError(render("STRING_CANNOT_CONVERTED_SEMVER", s=s)) from None


def _semver_fields(c, major, minor, patch, prerelease=None, build=None):
    pre = tuple(str(prerelease).split(".")) if prerelease else ()
    bld = tuple(str(build).split(".")) if build else ()
    return SemVer(major, minor, patch, pre, bld)


new_semver.dispatch("Integer[0] major", "Integer[0] minor", "Integer[0] patch",
                    f"{_SEMVER_QUALIFIER} prerelease?", f"{_SEMVER_QUALIFIER} build?")(
    _semver_fields)


@new_semver.dispatch("Struct[{major => Integer[0], minor => Integer[0], patch => Integer[0], "
                     f"Optional[prerelease] => {_SEMVER_QUALIFIER}, "
                     f"Optional[build] => {_SEMVER_QUALIFIER}}}] hash_args")
def _semver_hash(c, h):
    return _semver_fields(c, h["major"], h["minor"], h["patch"], h.get("prerelease"),
                          h.get("build"))


@new_semver.argument_mismatch("String str")
def _semver_err(c, s):
    return f"The string '{s}' cannot be converted to a SemVer"


new_semver_range = Function("new_VersionRange")


@new_semver_range.dispatch("String[1] str")
def _range_str(c, s):
    try:
        return SemVerRange.parse(s)
    except SemVerLeadingZero as exc:
        raise EvalError(str(exc)) from None
    except ValueError:
        raise ConversionError(render("NEW_SEMVER_RANGE_UNPARSABLE", s=s)) from None


@new_semver_range.dispatch("Variant[SemVer,Default] min", "Variant[SemVer,Default] max",
                           "Boolean exclude_max?")
def _range_minmax(c, lo, hi, exclude=False):
    parts = []
    if isinstance(lo, SemVer):
        parts.append(f">={lo}")
    if isinstance(hi, SemVer):
        parts.append(f"{'<' if exclude else '<='}{hi}")
    r = SemVerRange.parse(" ".join(parts) if parts else ">=0.0.0")
    if isinstance(lo, SemVer) and isinstance(hi, SemVer):
        # Puppet 7 prints such a range with its ends swapped (the versions it holds are right).
        return SemVerRange(f">={hi} <{lo}" if exclude else f"{hi} - {lo}", r.intervals)
    return r


@new_semver_range.dispatch("Struct[{min => Variant[SemVer,Default], Optional[max] => "
                           "Variant[SemVer,Default], Optional[exclude_max] => Boolean}] hash_args")
def _range_hash(c, h):
    return _range_minmax(c, h["min"], h.get("max", _D()), bool(h.get("exclude_max")))


new_binary = Function("new_Binary")


@new_binary.dispatch("String str", "Enum['%b', '%u', '%B', '%s', '%r'] format?")
def _binary_str(c, s, fmt=None):
    try:
        if fmt in (None, "%B"):
            if len(s) % 4:
                raise binascii.Error("invalid base64")
            return Binary(base64.b64decode(s, validate=True))
        if fmt == "%b":
            return _relaxed_b64(s)
        if fmt == "%u":
            return Binary(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)))
        if fmt == "%s":
            return Binary(s.encode("utf-8"))
        if fmt == "%r":
            return Binary(s.encode("latin-1", "replace"))
    except (binascii.Error, ValueError):
        raise ConversionError(render("INVALID_BASE64")) from None
    raise ConversionError(render("UNSUPPORTED_BINARY_FORMAT", fmt=fmt))


def _relaxed_b64(s: str) -> Binary:
    clean = "".join(ch for ch in s if ch.isalnum() or ch in "+/=")
    clean = clean.rstrip("=")
    return Binary(base64.b64decode(clean + "=" * (-len(clean) % 4)))


@new_binary.dispatch("Array[Integer[0, 255]] byte_array")
def _binary_bytes(c, arr):
    return Binary(bytes(arr))


@new_binary.dispatch("Binary binary")
def _binary_binary(c, b):
    return b


@new_binary.dispatch("Variant[Struct[{value => String, Optional[format] => Enum['%b', '%u', '%B', "
                     "'%s', '%r']}], Struct[{value => Array[Integer[0,255]]}]] hash_args")
def _binary_hash(c, h):
    if type(h["value"]) in (list, tuple):
        return Binary(bytes(h["value"]))
    return _binary_str(c, h["value"], h.get("format"))


new_uri = Function("new_uri")


@new_uri.dispatch("String[1] uri", "Boolean strict?")
def _uri_str(c, s, strict=True):
    return URI(s)


@new_uri.dispatch("URI uri")
def _uri_uri(c, u):
    return u


@new_uri.dispatch("Struct[{Optional[scheme] => String, Optional[userinfo] => String, "
                  "Optional[host] => String, Optional[port] => Integer[0], Optional[path] => String, "
                  "Optional[query] => String, Optional[fragment] => String, Optional[opaque] => String}] hash")
def _uri_hash(c, h):
    s = ""
    if h.get("scheme"):
        s += h["scheme"] + ":"
    if h.get("opaque"):
        s += h["opaque"]
    else:
        if h.get("host") is not None:
            s += "//"
            if h.get("userinfo"):
                s += h["userinfo"] + "@"
            s += h["host"]
            if h.get("port") is not None:
                s += f":{h['port']}"
        s += h.get("path") or ""
        if h.get("query") is not None:
            s += "?" + h["query"]
    if h.get("fragment") is not None:
        s += "#" + h["fragment"]
    return URI(s)


new_sensitive = Function("new_Sensitive")


@new_sensitive.dispatch("Any value")
def _sensitive(c, v):
    if isinstance(v, Sensitive):
        return v
    return Sensitive(v)


new_type = Function("new_type")


@new_type.dispatch("String[1] type_string")
def _type_from_string(c, s):
    return parse_type_string(c.ev, s)


def parse_type_string(ev, s: str):
    """A type written as a String, resolved in the evaluation's context (aliases, resource
    types); a name nothing defines becomes a type reference, as in Puppet's TypeParser."""
    pr = parse(s)
    stmts = [n for n in pr.root.children() if n.kind not in _NON_EXPR_KINDS]
    if pr.errors or len(stmts) != 1:
        raise ConversionError(render("STRING_CANNOT_CONVERTED_TYPE", s=s))
    try:
        v = ev.eval(stmts[0], ev.catalog.top or _scratch_scope(ev))
    except EvalError as exc:
        if exc.code == "UNKNOWN_RESOURCE_TYPE":
            return m.TypeReferenceType(s.strip())
        raise ConversionError(render("STRING_CANNOT_CONVERTED_TYPE", s=s)) from None
    if not isinstance(v, m.PType):
        raise ConversionError(render("STRING_CANNOT_CONVERTED_TYPE", s=s))
    return v


def _scratch_scope(ev):
    return Scope(ev.ctx, None, "top")


new_unit = Function("new_unit")


@new_unit.dispatch("Any from")
def _unit(c, v):
    return v


new_deferred = Function("new_deferred")


@new_deferred.dispatch("Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/] name",
                       "Optional[Array] arguments?")
def _deferred(c, name, arguments=None):
    return Deferred(name, tuple(arguments) if arguments is not None else None)


@new_deferred.dispatch("Struct[{name => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], "
                       "Optional[arguments] => Optional[Array]}] hash")
def _deferred_hash(c, h):
    return _deferred(c, h["name"], h.get("arguments"))


# ---- the dispatch by type ------------------------------------------------------------------------------

_BY_CLASS = {
    m.IntegerType: new_integer, m.FloatType: new_float, m.NumericType: new_numeric,
    m.StringType: new_string, m.BooleanType: new_boolean, m.ArrayType: new_array,
    m.TupleType: new_array, m.HashType: new_hash, m.StructType: new_hash,
    m.RegexpType: new_regexp, m.SemVerType: new_semver, m.SemVerRangeType: new_semver_range,
    m.BinaryType: new_binary, m.URIType: new_uri, m.SensitiveType: new_sensitive,
    m.TypeType: new_type, m.UnitType: new_unit, m.AnyType: None,
}


def new_function_for(t: m.PType):
    """The function that creates instances of ``t`` (None when creation is not supported)."""
    rt = t
    if isinstance(rt, m.TypeAliasType):
        rt = resolve_alias(rt)
    if isinstance(rt, (m.OptionalType, m.NotUndefType)):
        if rt.type is None:
            return new_unit if isinstance(rt, m.NotUndefType) else None
        return new_function_for(rt.type)
    if isinstance(rt, (m.TimespanType, m.TimestampType)):
        return new_timespan if isinstance(rt, m.TimespanType) else new_timestamp
    if isinstance(rt, m.ObjectExtType):
        # a parameterized Object type creates instances of its base type (as Puppet does)
        return new_function_for(rt.base)
    if isinstance(rt, m.ObjectType):
        if rt == m.DEFERRED or rt.type_name == "Deferred":
            return new_deferred
        return new_object_function(rt)
    if isinstance(rt, m.InitType):
        return None
    return _BY_CLASS.get(type(rt))


def _type_text(t: m.PType) -> str:
    return type_to_string(t)


def new_instance(c, t: m.PType, args: list) -> Any:
    """``new(T, args...)``: create a value of type ``t`` from ``args``."""
    if isinstance(t, m.InitType):
        return _init_new(c, t, args)
    if len(args) == 1 and instance_of(t, args[0]):
        return args[0]
    fn = new_function_for(t)
    if fn is None:
        raise EvalError(render("CREATION_NEW_INSTANCE_TYPE_NOT", type_text=_type_text(t)))
    result = fn.call(c.ev, args, None, c.scope, c.node)
    assert_new_result(t, result)
    return result


def assert_new_result(t: m.PType, result: Any) -> None:
    if not instance_of(t, result):
        msg = describe_value_mismatch("x", t, result)
        detail = msg.removeprefix("x ")
        raise EvalError(render("CONVERTED_VALUE_FROM_NEW_HAS", type_text=_type_text(t),
                               detail=detail))


_NOT_INIT = (m.InitType, m.OptionalType, m.NotUndefType)


def _init_new(c, t: m.InitType, args: list) -> Any:
    if t.type is None:
        if len(args) != 1:
            raise ArgumentsError(render("NEW_EXPECTS_ARGUMENT_GOT", count=len(args)))
        return args[0]
    inner = t.type
    fn = None if isinstance(inner, _NOT_INIT) else new_function_for(inner)
    if fn is None:
        raise EvalError(render("CREATION_NEW_INSTANCE_TYPE_NOT", type_text=_type_text(inner)))
    if len(args) != 1:
        raise ArgumentsError(render("NEW_INIT_EXPECTS_ARGUMENT_GOT", count=len(args)))
    value = args[0]
    singles, _others = init_parts(t)
    if t.args:
        return new_instance(c, inner, [value] + list(t.args))
    if type(value) in (list, tuple):
        if any(instance_of(s, value) for s in singles):
            return new_instance(c, inner, [value])
        return new_instance(c, inner, list(value))
    return new_instance(c, inner, [value])


def _single_types(inner, fn) -> list:
    out = [inner]
    for d in fn.dispatches:
        types, _names, size, *_ = d._compile()
        if size == (1, 1):
            out.append(types[0])
    return out


register_new_functions(new_function_for)
