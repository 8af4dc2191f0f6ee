"""String functions: case changes, stripping, ``split``, ``match``, ``regsubst``, ``sprintf``.

Regular expressions are Ruby's (see :func:`ruby_regexp_to_python`), and ``split``/``sub``
follow Ruby's String methods (trailing empty fields dropped, ``\\1``/``\\0`` back-references).
"""
from __future__ import annotations

import re
from typing import Any

import regex as rx_engine  # type: ignore[import-untyped]

from ...types import model as m
from ...types.values import (REDACTED, REDACTED_INSPECT, Regexp, Sensitive, ruby_regexp_to_python, DEFAULT, URI, Binary,
                             SemVer, SemVerRange, Timespan, Timestamp)
from ..errors import EvalError
from ..iteration import iterate
from ..registry import define
from ...messages import render
from ..runtime import hkey, regexp_error, class_name_of, class_name_of as ruby_class_name
from ...types.build import resolve_alias
from .collections import _flat
from ..rubyfmt import FormatError, ruby_format, RubyObject
from ..stringconv import to_s
import hashlib
from ...types.values import REGEXP_COMPILE_ERRORS

_STRING_DATA = "Variant[String, Numeric, Array[Variant[String, Numeric, Array, Hash]], Hash]"


def _ruby_capitalize(s: str) -> str:
    # Ruby title-cases the first character ('ß' -> 'Ss', 'ǆ' -> 'ǅ'), as Python's capitalize does
    return s.capitalize()


def _mapper(name: str, fn) -> None:
    f = define(name)
    f.dispatch("Numeric arg")(lambda c, n: n)
    f.dispatch("String arg")(lambda c, s: fn(s))

    @f.dispatch("Iterable[Variant[String, Numeric]] arg")
    def _iter(c, it):
        return [fn(x) if type(x) is str else x for x in iterate(c.ev, it)]


_mapper("capitalize", _ruby_capitalize)
_mapper("camelcase", lambda s: "".join(_ruby_capitalize(p) for p in s.split("_")))
_mapper("chomp", lambda s: s[:-2] if s.endswith("\r\n") else (s[:-1] if s.endswith(("\n", "\r")) else s))
_mapper("chop", lambda s: s[:-2] if s.endswith("\r\n") else s[:-1])
_WS = " \t\n\v\f\r\0"
_mapper("strip", lambda s: s.strip(_WS))
_mapper("lstrip", lambda s: s.lstrip(_WS))
_mapper("rstrip", lambda s: s.rstrip(_WS))


def _case_fn(name: str, fn) -> None:
    f = define(name)
    f.dispatch("Numeric arg")(lambda c, n: n)
    f.dispatch("String arg")(lambda c, s: fn(s))

    def deep(x):
        if type(x) is str:
            return fn(x)
        if type(x) in (list, tuple):
            return [deep(y) for y in x]
        if isinstance(x, dict):
            return {hkey(deep(k)): deep(v) for k, v in x.items()}
        return x

    f.dispatch("Array[Variant[String, Numeric, Array, Hash]] arg")(lambda c, a: deep(a))
    f.dispatch("Hash arg")(lambda c, h: deep(h))


_case_fn("upcase", lambda s: s.upper())
_case_fn("downcase", lambda s: s.lower())


# ---- regular expressions ------------------------------------------------------------------------

def compile_rx(pattern: str, flags: int = 0):
    rx = ruby_regexp_to_python(pattern)
    if rx is None:
        raise EvalError(_rx_error(pattern))
    if flags:
        try:
            return rx.with_flags(flags)
        except REGEXP_COMPILE_ERRORS:
            raise EvalError(_rx_error(pattern)) from None
    return rx


def _rx_error(pattern: str) -> str:
    return regexp_error(pattern)


def ruby_split(s: str, rx) -> list:
    """Ruby's ``String#split(regexp)``."""
    if s == "":
        return []
    out = []
    pos = 0
    start = 0
    n = len(s)
    while pos <= n:
        mt = rx.search(s, pos)
        if mt is None:
            break
        if mt.end() == mt.start():
            if mt.start() >= n:
                break
            if mt.start() == start:
                # an empty match splits off one character
                out.append(s[start:mt.start() + 1])
                start = mt.start() + 1
                pos = start
                out.extend(g for g in mt.groups() if g is not None)
                continue
        out.append(s[start:mt.start()])
        out.extend(g for g in mt.groups() if g is not None)
        start = mt.end()
        pos = mt.end() if mt.end() > mt.start() else mt.end() + 1
    out.append(s[start:])
    while out and out[-1] == "":
        out.pop()
    return out


split = define("split")


@split.dispatch("String str", "String pattern")
def _split_s(c, s, pattern):
    return ruby_split(s, compile_rx(pattern))


@split.dispatch("String str", "Regexp pattern")
def _split_r(c, s, rx):
    return ruby_split(s, compile_rx(rx.pattern))


@split.dispatch("String str", "Type[Regexp] pattern")
def _split_t(c, s, t):
    return ruby_split(s, compile_rx(t.pattern or ""))


match = define("match")


def _do_match(s: str, pattern: str):
    mt = compile_rx(pattern).search(s)
    if mt is None:
        return None
    return [mt.group(0)] + [g for g in mt.groups()]


def _match_one(s: str, p: Any):
    if type(p) is str:
        return _do_match(s, p)
    if isinstance(p, Regexp):
        return _do_match(s, p.pattern)
    if isinstance(p, m.TypeAliasType):
        return _match_one(s, resolve_alias(p))
    if isinstance(p, m.VariantType):
        for t in p.types:
            r = _match_one(s, t)
            if r is not None:
                return r
        return None
    if isinstance(p, m.RegexpType):
        if p.pattern is None:
            raise EvalError(render("GIVEN_REGEXP_TYPE_HAS_NO"))
        return _do_match(s, p.pattern)
    if isinstance(p, m.PatternType):
        for rx in p.patterns:
            r = _do_match(s, rx.pattern)
            if r is not None:
                return r
        return None
    if type(p) in (list, tuple):
        for e in _flat(p, []):
            r = _match_one(s, e)
            if r is not None:
                return r
        return None
    raise EvalError(render("MATCH_EXPECTS_PATTERN_T_WHERE", class_name_of=class_name_of(p)))


match.dispatch("String string", "Variant[Any, Type] pattern")(lambda c, s, p: _match_one(s, p))
match.dispatch("Array[String] string", "Variant[Any, Type] pattern")(
    lambda c, arr, p: [_match_one(s, p) for s in arr])


def ruby_sub(rx, s: str, replacement: Any, global_: bool) -> str:
    """Ruby's ``sub``/``gsub`` with a replacement String (back-references) or Hash."""
    def repl(mt):
        if isinstance(replacement, dict):
            v = replacement.get(mt.group(0))
            return "" if v is None else str(v)
        return _expand(replacement, mt, s)
    return rx.sub(repl, s, count=0 if global_ else 1)


def _expand(template: str, mt, s: str) -> str:
    out = []
    i = 0
    n = len(template)
    while i < n:
        ch = template[i]
        if ch == "\\" and i + 1 < n:
            nx = template[i + 1]
            if nx.isdigit():
                g = int(nx)
                try:
                    out.append(mt.group(g) or "")
                except IndexError:
                    pass
                i += 2
                continue
            if nx == "&":
                out.append(mt.group(0))
                i += 2
                continue
            if nx == "`":
                out.append(s[:mt.start()])
                i += 2
                continue
            if nx == "'":
                out.append(s[mt.end():])
                i += 2
                continue
            if nx == "\\":
                out.append("\\")
                i += 2
                continue
            if nx == "k" and i + 2 < n and template[i + 2] == "<":
                end = template.find(">", i + 3)
                if end > 0:
                    try:
                        out.append(mt.group(template[i + 3:end]) or "")
                    except (IndexError, error_type()):
                        pass
                    i = end + 1
                    continue
        out.append(ch)
        i += 1
    return "".join(out)


def error_type():
    return rx_engine.error


regsubst = define("regsubst")


@regsubst.dispatch("Variant[Array[String],String] target", "String pattern",
                   "Variant[String,Hash[String,String]] replacement",
                   "Optional[Pattern[/^[GEIM]*$/]] flags?", "Enum['N','E','S','U'] encoding?")
def _regsubst_s(c, target, pattern, replacement, flags=None, encoding=None):
    pyflags = 0
    glob = False
    for f in flags or "":
        if f == "G":
            glob = True
        elif f == "E":
            pyflags |= rx_engine.VERBOSE
        elif f == "I":
            pyflags |= rx_engine.IGNORECASE
        elif f == "M":
            pyflags |= rx_engine.DOTALL
    rx = compile_rx(pattern, pyflags)
    if type(target) is str:
        return ruby_sub(rx, target, replacement, glob)
    return [ruby_sub(rx, t, replacement, glob) for t in target]


@regsubst.dispatch("Variant[Array[String],String] target", "Variant[Regexp,Type[Regexp]] pattern",
                   "Variant[String,Hash[String,String]] replacement", "Pattern[/^G?$/] flags?")
def _regsubst_r(c, target, pattern, replacement, flags=None):
    src = pattern.pattern if isinstance(pattern, Regexp) else (pattern.pattern or "")
    rx = compile_rx(src)
    glob = flags == "G"
    if type(target) is str:
        return ruby_sub(rx, target, replacement, glob)
    return [ruby_sub(rx, t, replacement, glob) for t in target]


sprintf = define("sprintf")


@sprintf.dispatch("String format", "Any args*")
def _sprintf(c, fmt, *args):
    try:
        return ruby_format(fmt, [runtime3_arg(a, True) for a in args])
    except FormatError as exc:
        raise EvalError(str(exc)) from None


def runtime3_arg(v: Any, top: bool = False) -> Any:
    """A value as Puppet hands it to a 3.x function (sprintf is one): undef is '' at the top,
    default a Symbol, a Regexp and the time/version/binary values their string forms, others
    Ruby objects with their own inspect texts."""
    if v is None:
        return "" if top else None
    if v is DEFAULT:
        return RubyObject("default", ":default")
    if isinstance(v, Regexp):
        return "/" + re.sub(r"(?<!\\)/", r"\/", v.pattern) + "/"
    if isinstance(v, (Timespan, Timestamp, SemVer, SemVerRange, Binary)):
        return str(v)
    if isinstance(v, URI):
        return RubyObject(str(v), f"#<{class_name_of(v)} {v}>")
    if isinstance(v, Sensitive):
        return RubyObject(REDACTED, REDACTED_INSPECT)
    if isinstance(v, list):
        return [runtime3_arg(x) for x in v]
    if isinstance(v, dict):
        return {runtime3_arg(k): runtime3_arg(x) for k, x in v.items()}
    return v


shellquote = define("shellquote")


@shellquote.dispatch("Any args*")
def _shellquote(c, *args):
    out = []
    # Puppet's rule, in this order: only safe characters -> bare; nothing special for double
    # quotes -> "..."; no single quote -> '...'; else double quotes with backslashes.
    safe = re.compile(r"^[A-Za-z0-9@%_+=:,./-]+$")
    dangerous = set('!"`$\\')
    for a in _flat(args, []):
        if a is None:
            a = ""      # a 3.x function sees undef as the empty string
        if not isinstance(a, str):
            raise EvalError(render("UNDEFINED_METHOD_LENGTH_FOR",
                                   ruby_inspect_short=_ruby_inspect_short(a), ruby_class_name=ruby_class_name(a)))
        if a and safe.match(a):
            out.append(a)
        elif not any(ch in dangerous for ch in a):
            out.append(f'"{a}"')
        elif "'" not in a:
            out.append(f"'{a}'")
        else:
            out.append('"' + "".join("\\" + ch if ch in dangerous else ch for ch in a) + '"')
    return " ".join(out)


def _ruby_inspect_short(v: Any) -> str:
    return to_s(v)


def _digest(name: str, algo: str) -> None:
    f = define(name)
    f.dispatch("String str")(lambda c, s: hashlib.new(algo, s.encode("utf-8")).hexdigest())

    # A 3.x function in Puppet: no parameter types, Ruby's own error for anything else.
    @f.argument_mismatch("Any str")
    def _bad(c, v):
        raise EvalError(render("NO_IMPLICIT_CONVERSION_INTO_STRING",
                               ruby_class_name=ruby_class_name(v)))


_digest("md5", "md5")
_digest("sha1", "sha1")
_digest("sha256", "sha256")
# digest() uses Puppet's digest_algorithm setting, sha256 by default.
_digest("digest", "sha256")


def unwrap_if_sensitive(v: Any) -> Any:
    return v.value if isinstance(v, Sensitive) else v


# ---- scanf -------------------------------------------------------------------------------------

scanf = define("scanf")

_SCANF_DIRECTIVE = re.compile(r"%(\*?)(\d*)(\[[^\]]*\]|[diuxXofeEgGsc%])")


def ruby_scanf(data: str, fmt: str) -> list:
    """Ruby's ``String#scanf`` for the common directives."""
    out: list = []
    pos = 0
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch.isspace():
            while pos < len(data) and data[pos].isspace():
                pos += 1
            i += 1
            continue
        if ch != "%":
            if pos < len(data) and data[pos] == ch:
                pos += 1
                i += 1
                continue
            break
        mt = _SCANF_DIRECTIVE.match(fmt, i)
        if not mt:
            break
        i = mt.end()
        suppress, width, conv = mt.group(1), mt.group(2), mt.group(3)
        w = int(width) if width else None
        if conv == "%":
            if pos < len(data) and data[pos] == "%":
                pos += 1
                continue
            break
        if conv not in "c" and not conv.startswith("["):
            while pos < len(data) and data[pos].isspace():
                pos += 1
        chunk = data[pos:pos + w] if w else data[pos:]
        val: Any
        if conv in "du":
            m2 = re.match(r"[-+]?\d+", chunk)
            val = int(m2.group(0)) if m2 else None
        elif conv == "i":
            m2 = re.match(r"[-+]?(0[xX][0-9a-fA-F]+|0[0-7]*|\d+)", chunk)
            if m2:
                txt = m2.group(0)
                sign = -1 if txt.startswith("-") else 1
                body = txt.lstrip("+-")
                val = sign * (int(body, 16) if body[:2].lower() == "0x" else
                              int(body, 8) if len(body) > 1 and body[0] == "0" else int(body))
            else:
                val = None
        elif conv in "xX":
            m2 = re.match(r"[-+]?(0[xX])?[0-9a-fA-F]+", chunk)
            val = int(m2.group(0), 16) if m2 else None
        elif conv == "o":
            m2 = re.match(r"[-+]?[0-7]+", chunk)
            val = int(m2.group(0), 8) if m2 else None
        elif conv in "feEgG":
            m2 = re.match(r"[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)", chunk)
            val = float(m2.group(0)) if m2 else None
        elif conv == "s":
            m2 = re.match(r"\S+", chunk)
            val = m2.group(0) if m2 else None
        elif conv == "c":
            n = w or 1
            m2 = re.match(rf"(?s).{{{n}}}", chunk)
            val = m2.group(0) if m2 else None
        else:
            cls = conv[1:-1]
            m2 = re.match("[" + cls.replace("\\", "\\\\") + "]+", chunk)
            val = m2.group(0) if m2 else None
        if val is None or m2 is None:
            break
        pos += len(m2.group(0))
        if not suppress:
            out.append(val)
    return out


@scanf.dispatch("String data", "String format", block="Callable block?")
def _scanf(c, data, fmt):
    result = ruby_scanf(data, fmt)
    return c.block.call([result]) if c.block is not None else result
