"""Hiera interpolation: ``%{...}`` in data values and in hiera.yaml paths, and the dotted keys
(``facts.os.family``, ``'a.b'.c``, ``list.0``) that lookups and interpolations dig with.

The rules are Puppet's (``Puppet::Pops::Lookup::Interpolation``): ``%{var}``, ``%{::var}`` and
``%{scope('var')}`` read the scope (facts, ``trusted``, top-scope variables) and dig into the
value; ``%{lookup('k')}``/``%{hiera('k')}`` look a key up (missing: empty string);
``%{alias('k')}`` must be the whole string and keeps the value's type; ``%{literal('%')}``
gives its argument; ``%{}`` and ``%{::}`` give nothing.  Methods are refused in hiera.yaml.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from .yamldata import Encrypted

_INTERP = re.compile(r"%\{([^}]*)\}")
_METHOD = re.compile(r"^(\w+)\((?:\"([^\"]+)\"|'([^']+)')\)$")
_SPLIT = re.compile(r"(\s*\"[^\"]+\"\s*|\s*'[^']+'\s*|[^'\".]+)")
_EMPTY = {"", "::", '""', "''", '"::"', "'::'"}
METHODS = ("lookup", "hiera", "alias", "literal", "scope")


class HieraError(Exception):
    """A failed lookup or interpolation: a registered code and its arguments."""

    def __init__(self, code: str, **args: Any) -> None:
        super().__init__(code)
        self.code = code
        self.args_ = args


class NotFound(Exception):
    """Puppet's ``throw :no_such_key``."""


class Unresolved(Exception):
    """An interpolated variable the caller's scope cannot know (a preview's fact set lacks the
    fact): raised by the ``missing`` hook of an :class:`Interpolator`, so that the lookup's
    answer is unknown instead of what an empty value would give."""

    def __init__(self, variable: str) -> None:
        super().__init__(variable)
        self.variable = variable


def split_key(key: str) -> list:
    """``a.b."c.d".0`` -> ``['a', 'b', 'c.d', 0]``; a syntax error raises :class:`HieraError`."""
    if not re.search(r"['\".]", key):
        return [key]
    parts = _SPLIT.split(key)
    if not parts or parts[0] != "":
        raise HieraError("HIERA_INTERPOLATION_SYNTAX", subject=key)
    rest = parts[1:]
    count = len(rest)
    segs = [s for s in rest if s != "."]
    # Ruby's String#split drops trailing empty strings; re.split keeps them
    while segs and segs[-1] == "":
        segs.pop()
        count -= 1
    if count <= 0 or len(segs) * 2 != count + 1 or any(s == "" for s in segs):
        raise HieraError("HIERA_INTERPOLATION_SYNTAX", subject=key)
    out: list = []
    for s in segs:
        s = s.strip()
        if s[:1] in ("'", '"'):
            out.append(s[1:-1])
        elif re.fullmatch(r":?[+-]?[0-9]+", s):
            out.append(int(s.lstrip(":")))
        else:
            out.append(s)
    return out


def dig(key: str, value: Any, segments: list) -> Any:
    """Follow ``segments`` into ``value`` (Puppet's sub-lookup); missing: :class:`NotFound`."""
    for seg in segments:
        if value is None:
            raise NotFound
        if isinstance(seg, int) and isinstance(value, list):
            if not 0 <= seg < len(value):
                raise NotFound
            value = value[seg]
            continue
        if not isinstance(value, dict):
            raise HieraError("HIERA_DIG_MISMATCH", klass=ruby_class(value), segment=seg, key=key)
        if seg not in value:
            raise NotFound
        value = value[seg]
    return value


def ruby_class(value: Any) -> str:
    if isinstance(value, bool):
        return "TrueClass" if value else "FalseClass"
    return {int: "Integer", float: "Float", str: "String", list: "Array", dict: "Hash",
            type(None): "NilClass"}.get(type(value), "String")


def to_s(value: Any) -> str:
    """A value inserted into a string, as Ruby's ``to_s`` writes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, Encrypted)):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, dict)):
        return inspect(value)
    return str(value)


def inspect(value: Any) -> str:
    """Ruby's ``inspect`` of data (what ``to_s`` gives for an array or a hash)."""
    if value is None:
        return "nil"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(inspect(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{inspect(k)}=>{inspect(v)}" for k, v in value.items()) + "}"
    return to_s(value)


class Interpolator:
    """Interpolates with one scope; ``lookup`` answers ``%{lookup('k')}`` and ``%{alias('k')}``
    (``None`` when the key is not found); ``missing``, when given, is called with a variable the
    scope does not have (Puppet interpolates it as empty; a preview raises :class:`Unresolved`)."""

    def __init__(self, scope: dict, lookup: Callable[[str], tuple] | None = None,
                 missing: Callable[[str], None] | None = None) -> None:
        self.scope = scope
        self.lookup = lookup
        self.missing = missing
        self._stack: list = []

    def value(self, value: Any, allow_methods: bool = True) -> Any:
        if isinstance(value, str):
            return value if "%{" not in value else self.string(value, allow_methods)
        if isinstance(value, list):
            return [self.value(v, allow_methods) for v in value]
        if isinstance(value, dict):
            return {self.value(k, allow_methods): self.value(v, allow_methods) for k, v in value.items()}
        return value

    def scope_value(self, key: str, subject: str = "") -> Any:
        try:
            segments = split_key(key)
        except HieraError:
            raise HieraError("HIERA_INTERPOLATION_SYNTAX", subject=subject or key) from None
        root = segments.pop(0)
        if isinstance(root, str) and root.startswith("::"):
            root = root[2:]
        value = self.scope.get(root) if isinstance(root, str) else None
        if value is not None and segments:
            try:
                value = dig(key, value, segments)
            except NotFound:
                value = None
        if value is None and self.missing is not None:
            self.missing(key)
        return value

    def _checked(self, key: str, fn: Callable[[], Any]) -> Any:
        if key in self._stack:
            raise HieraError("HIERA_RECURSIVE_LOOKUP", chain=", ".join([*self._stack, key]))
        self._stack.append(key)
        try:
            return fn()
        finally:
            self._stack.pop()

    def string(self, subject: str, allow_methods: bool) -> Any:
        out: list = []
        pos = 0
        for m in _INTERP.finditer(subject):
            out.append(subject[pos:m.start()])
            pos = m.end()
            expr = m.group(1).strip()
            if expr in _EMPTY:
                continue
            mm = _METHOD.match(expr)
            if mm:
                if not allow_methods:
                    raise HieraError("HIERA_INTERPOLATION_METHOD_SYNTAX_NOT_ALLOWED")
                method, key = mm.group(1), mm.group(2) or mm.group(3)
            else:
                method, key = "scope", expr
            if method not in METHODS:
                raise HieraError("HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD", name=method)
            if method == "alias":
                if m.group(0) != subject:
                    raise HieraError("HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING")
                return self._lookup(key)
            if method == "literal":
                value: Any = key
            elif method == "scope":
                value = self.scope_value(key, subject)
            else:
                value = self._lookup(key)
            mark = f"scope:{key}" if method == "scope" else key
            value = self._checked(mark, functools.partial(self.value, value, allow_methods))
            out.append(to_s(value))
        out.append(subject[pos:])
        return "".join(out)

    def _lookup(self, key: str) -> Any:
        if self.lookup is None:
            return ""
        found, value = self._checked(key, lambda: self.lookup(key))  # type: ignore[misc]
        return value if found else ""


def interpolation_problems(subject: str, allow_methods: bool = True) -> list:
    """What is wrong with the interpolations of ``subject``, without looking anything up:
    ``[(start, end, code, args)]`` with offsets into ``subject`` (unknown method, ``alias``
    not alone, methods where they are refused, a dotted key that does not parse)."""
    out: list = []
    for m in _INTERP.finditer(subject):
        expr = m.group(1).strip()
        if expr in _EMPTY:
            continue
        mm = _METHOD.match(expr)
        if mm:
            method = mm.group(1)
            if not allow_methods:
                out.append((m.start(), m.end(), "HIERA_INTERPOLATION_METHOD_SYNTAX_NOT_ALLOWED", {}))
            elif method not in METHODS:
                out.append((m.start(), m.end(), "HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD", {"name": method}))
            elif method == "alias" and m.group(0) != subject:
                out.append((m.start(), m.end(), "HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING", {}))
            continue
        if re.match(r"^\w+\(", expr):
            name = expr.split("(", 1)[0]
            if name not in METHODS:
                out.append((m.start(), m.end(), "HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD", {"name": name}))
                continue
        try:
            split_key(expr)
        except HieraError:
            out.append((m.start(), m.end(), "HIERA_INTERPOLATION_SYNTAX", {"subject": m.group(0)}))
    return out


def scope_for(facts: dict, trusted: dict | None = None, variables: dict | None = None) -> dict:
    """The top scope of a lookup: every fact as a variable, ``$facts``, ``$trusted`` and any
    further top-scope variables."""
    scope = dict(facts)
    scope["facts"] = facts
    if trusted is None:
        certname = facts.get("clientcert") or (facts.get("networking") or {}).get("fqdn") or "localhost"
        trusted = {"authenticated": "local", "certname": certname, "extensions": {},
                   "hostname": str(certname).split(".")[0], "domain": ".".join(str(certname).split(".")[1:])}
    scope["trusted"] = trusted
    if variables:
        scope.update(variables)
    return scope
