"""Runtime values of the Puppet language that Python has no native equivalent for.

The value model used by the type system (and, later, by the evaluator) is:

=================  ==========================================================
Puppet             Python
=================  ==========================================================
Integer            ``int`` (never ``bool``: ``True`` is a Boolean, not 1)
Float              ``float``
String             ``str``
Boolean            ``bool``
undef              ``None``
default            :data:`DEFAULT` (the only :class:`DefaultValue`)
Array              ``list`` (or ``tuple``)
Hash               ``dict`` (insertion ordered)
Regexp             :class:`Regexp`
Sensitive          :class:`Sensitive`
Binary             :class:`Binary`
URI                :class:`URI`
SemVer             :class:`SemVer`
SemVerRange        :class:`SemVerRange`
Timespan           :class:`Timespan` (exact nanoseconds)
Timestamp          :class:`Timestamp` (exact nanoseconds since the epoch, UTC)
Deferred           :class:`Deferred`
Object instances   :class:`ObjectValue`
types              the type classes of :mod:`.model`
=================  ==========================================================

Every class here is immutable and hashable. Parsing helpers raise :class:`ValueError`;
callers in the type builder turn that into positioned diagnostics.
"""
from __future__ import annotations

import math

import base64
import binascii
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import regex as _ENGINE  # type: ignore[import-untyped]

from ..messages import render
from .guard import check_size, measure, run_match

# VERSION0 is the engine's ``re``-compatible dialect: the translated patterns keep the meaning
# they had under ``re`` (see docs/decisions.md, "The regexp engine").
_ENGINE_FLAGS = _ENGINE.VERSION0
# What compiling a translated pattern raises for a pattern the engine cannot compile.
REGEXP_COMPILE_ERRORS = (_ENGINE.error, re.error, RecursionError, OverflowError, ValueError)

__all__ = [
    "DefaultValue", "DEFAULT", "Regexp", "Sensitive", "Binary", "URI", "SemVer", "SemVerRange",
    "Timespan", "Timestamp", "Deferred", "ObjectValue", "ruby_regexp_to_python",
    "translate_ruby_regexp", "RubyRegexpError", "RubyPattern", "compile_python_regexp",
]

NSECS_PER_SEC = 1_000_000_000


class DefaultValue:
    """The value of the literal ``default`` (a singleton)."""

    _instance: DefaultValue | None = None

    def __new__(cls) -> DefaultValue:  # noqa: PYI034 - a singleton: no subclass exists
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "default"

    def __reduce__(self):  # keep the singleton through copy/pickle
        return (DefaultValue, ())


DEFAULT = DefaultValue()


# --- Regexp ----------------------------------------------------------------------------------

# Ruby (Onigmo) spellings that Python's re lacks or names differently.  Ruby's \d, \w and \s
# are ASCII-only (its POSIX brackets and \p{..} are Unicode), Python's are Unicode.
_RUBY_ESCAPES = {
    "z": r"\Z", "Z": r"(?=\n?\Z)", "h": r"[0-9a-fA-F]", "H": r"[^0-9a-fA-F]",
    "d": "[0-9]", "D": "[^0-9]", "w": "[a-zA-Z0-9_]", "W": "[^a-zA-Z0-9_]",
    "s": r"[\t\n\v\f\r ]", "S": r"[^\t\n\v\f\r ]",
}
# Inside a set only the positive ones can be spelled as members.
_RUBY_CLASS_ESCAPES = {"h": "0-9a-fA-F", "d": "0-9", "w": "a-zA-Z0-9_", "s": r"\t\n\v\f\r "}
# POSIX bracket classes, as members of a character set (the engine's \p{..} inside a set).
_POSIX = {
    "alpha": r"\p{Alphabetic}", "digit": r"\p{Nd}", "alnum": r"\p{Alphabetic}\p{Nd}",
    "upper": r"\p{Uppercase}", "lower": r"\p{Lowercase}",
    "space": r"\s", "blank": r" \t", "xdigit": "0-9A-Fa-f", "word": r"\w", "cntrl": r"\x00-\x1f\x7f",
    "punct": r"!-/:-@\[-`{-~", "print": r"\x20-\x7e", "graph": r"\x21-\x7e", "ascii": r"\x00-\x7f",
}
# \p{...} properties that have a faithful Python spelling.
_PROPS = {
    "l": r"[^\W\d_]", "alpha": r"[^\W\d_]", "letter": r"[^\W\d_]", "nd": r"\d", "digit": r"\d",
    "n": r"\d", "space": r"\s", "word": r"\w", "alnum": r"[^\W_]", "lu": r"[A-Z]",
    "upper": r"[A-Z]", "ll": r"[a-z]", "lower": r"[a-z]", "xdigit": r"[0-9A-Fa-f]",
    "punct": r"[!-/:-@\[-`{-~]", "ascii": r"[\x00-\x7f]", "any": r"[\s\S]",
}
_QUANT = re.compile(r"[*+?]|\{\d*,?\d*\}")


class RubyRegexpError(ValueError):
    """A pattern Ruby rejects; the message is Onigmo's wording (without the ``: /src/``)."""


def translate_ruby_regexp(source: str) -> str:
    r"""The Python ``re`` spelling of a Ruby regular expression source.

    Handles what differs for the common constructs: named groups ``(?<n>..)`` and ``\k<n>`` (and
    that unnamed groups do not capture once a pattern has named ones), inline flag groups
    anywhere (``(?i)``, ``(?m)`` is Python's DOTALL), repeated quantifiers (``a**``, ``a{2}{3}``,
    which Ruby nests), POSIX brackets, ``\p{..}``, ``\h``, ``\z``/``\Z``.  Raises
    :class:`RubyRegexpError` for what Ruby refuses, e.g. Python's ``(?P<n>..)``.
    """
    named = re.search(r"\(\?<[A-Za-z_]", source) is not None
    out: list[str] = []
    groups: list[list[int]] = []   # per open group: [index in out where it starts, extra ')']
    top_extra = 0               # '(?i)' at the top level closes at the very end
    atom = -1                   # index in out where the last quantifiable atom starts
    quantified = False          # the last atom already carries a quantifier
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            if i + 1 >= n:
                raise RubyRegexpError(render("ONIGMO_TOO_SHORT_ESCAPE"))
            nxt = source[i + 1]
            atom, quantified = len(out), False
            if nxt in _RUBY_ESCAPES:
                out.append(_RUBY_ESCAPES[nxt])
                i += 2
            elif nxt in "pP" and i + 2 < n and source[i + 2] == "{":
                close = source.find("}", i)
                raw = source[i + 3:close] if close > 0 else ""
                name = raw.lower()
                neg = name.startswith("^")
                name = name.lstrip("^")
                if close < 0 or name not in _PROPS:
                    raise RubyRegexpError(render("ONIGMO_INVALID_PROPERTY_NAME", name=raw))
                prop = _PROPS[name]
                if (nxt == "P") != neg:
                    prop = f"(?:(?!{prop})[\\s\\S])"
                out.append(prop)
                i = close + 1
            elif nxt == "k" and i + 2 < n and source[i + 2] == "<":
                close = source.find(">", i)
                if close < 0:
                    raise RubyRegexpError(render("ONIGMO_INVALID_BACKREF"))
                out.append(f"(?P={source[i + 3:close]})")
                i = close + 1
            else:
                out.append(source[i:i + 2])
                i += 2
            continue
        if ch == "[":
            j, part = _translate_class(source, i)
            atom, quantified = len(out), False
            out.append(part)
            i = j
            continue
        if ch == "(":
            if source.startswith("(?P", i):
                raise RubyRegexpError(render("ONIGMO_UNDEFINED_GROUP_OPTION"))
            here = len(out)
            if source.startswith("(?<", i) and i + 3 < n and source[i + 3] not in "=!":
                out.append("(?P<")
                i += 3
            else:
                fm = re.match(r"\(\?([imx]*)(?:-([imx]*))?(:|\))", source[i:])
                if fm and (fm.group(1) or fm.group(2) is not None):
                    on = fm.group(1).replace("m", "s")
                    off = (fm.group(2) or "").replace("m", "s")
                    spec = on + (f"-{off}" if off else "")
                    out.append(f"(?{spec}:" if spec else "(?:")
                    i += fm.end()
                    if fm.group(3) == ")":
                        # (?i) applies to the rest of the enclosing group: close it there.
                        if groups:
                            groups[-1][1] += 1
                        else:
                            top_extra += 1
                        atom = -1
                        continue
                elif source.startswith("(?#", i):
                    close = source.find(")", i)
                    if close < 0:
                        raise RubyRegexpError(render("ONIGMO_END_PATTERN_IN_GROUP"))
                    i = close + 1           # a comment: nothing to match
                    continue
                elif source.startswith("(?", i):
                    gm = re.match(r"\(\?(?:[:=!>]|<[=!])", source[i:])
                    if not gm:
                        raise RubyRegexpError(render("ONIGMO_UNDEFINED_GROUP_OPTION"))
                    out.append(gm.group())
                    i += gm.end()
                elif named:
                    out.append("(?:")   # Ruby: no numbered captures besides named ones
                    i += 1
                else:
                    out.append("(")
                    i += 1
            groups.append([here, 0])
            atom = -1
            continue
        if ch == ")":
            if not groups:
                raise RubyRegexpError(render("ONIGMO_UNMATCHED_CLOSE_PAREN"))
            here, extra = groups.pop()
            out.append(")" * (extra + 1))
            atom, quantified = here, False
            i += 1
            continue
        qm = _QUANT.match(source, i) if ch in "*+?{" else None
        if qm and qm.group() != "{}" and not (ch == "{" and qm.group() == "{,}"):
            q = qm.group()
            if quantified and q in ("?", "+") and out and _QUANT.fullmatch(out[-1]):
                out.append(q)               # a lazy or possessive modifier
                quantified = False
                i = qm.end()
                continue
            if atom < 0:
                if ch == "{":
                    out.append(ch)          # Ruby reads a '{' that cannot repeat as itself
                    i += 1
                    continue
                raise RubyRegexpError(render("ONIGMO_NOTHING_TO_REPEAT"))
            if quantified or (out and out[-1] in ("?", "+") and len(out) - 1 > atom and
                              _QUANT.fullmatch(out[-2] if len(out) > 1 else "")):
                out[atom:] = ["(?:" + "".join(out[atom:]) + ")"]
            out.append(q)
            quantified = True
            i = qm.end()
            continue
        atom, quantified = (len(out), False) if ch not in "|^$" else (-1, False)
        out.append(ch)
        i += 1
    if groups:
        raise RubyRegexpError(render("ONIGMO_UNMATCHED_PAREN"))
    return "".join(out) + ")" * top_extra


def _translate_class(source: str, i: int) -> tuple:
    """A bracket expression starting at ``i``: (index after it, Python text)."""
    out = ["["]
    j = i + 1
    if j < len(source) and source[j] == "^":
        out.append("^")
        j += 1
    first = True
    while j < len(source):
        ch = source[j]
        if ch == "]" and not first:
            out.append("]")
            return j + 1, "".join(out)
        first = False
        if ch == "\\" and j + 1 < len(source):
            nxt = source[j + 1]
            out.append(_RUBY_CLASS_ESCAPES.get(nxt, source[j:j + 2]))
            j += 2
            continue
        if source.startswith("[:", j):
            close = source.find(":]", j)
            name = source[j + 2:close] if close > 0 else ""
            neg = name.startswith("^")
            if name.lstrip("^") in _POSIX and not neg:
                out.append(_POSIX[name])
                j = close + 2
                continue
            raise RubyRegexpError(render("ONIGMO_INVALID_POSIX_BRACKET"))
        if ch == "[":
            # a nested set (Ruby allows [a[bc]]): its members join the outer one
            k, inner = _translate_class(source, j)
            body = inner[1:-1]
            if body.startswith("^"):
                raise RubyRegexpError(render("ONIGMO_NESTED_NEGATED_CLASS"))
            out.append(body)
            j = k
            continue
        if ch == "&" and source.startswith("&&", j):
            raise RubyRegexpError(render("ONIGMO_CLASS_INTERSECTION"))
        out.append(ch)
        j += 1
    raise RubyRegexpError(render("ONIGMO_PREMATURE_END_OF_CLASS"))


class RubyPattern:
    """A compiled Ruby regexp whose every match runs under the hard timeout of
    :mod:`.guard` (inside the ``regex`` engine's matcher, so a catastrophically backtracking
    pattern stops at the evaluation's deadline instead of running for hours in C).

    It offers the subset of ``re.Pattern`` the evaluator uses; the match objects are the
    engine's own (``group``, ``groups``, ``start``, ``end``, ``span``).
    """

    __slots__ = ("_rx",)

    def __init__(self, rx: Any):
        self._rx = rx

    @property
    def pattern(self) -> str:
        return self._rx.pattern

    @property
    def flags(self) -> int:
        return self._rx.flags

    @property
    def groups(self) -> int:
        return self._rx.groups

    @property
    def groupindex(self) -> Any:
        return self._rx.groupindex

    def search(self, text: str, pos: int = 0) -> Any:
        return run_match(self._rx.search, text, pos)

    def match(self, text: str, pos: int = 0) -> Any:
        return run_match(self._rx.match, text, pos)

    def fullmatch(self, text: str, pos: int = 0) -> Any:
        return run_match(self._rx.fullmatch, text, pos)

    def sub(self, repl: Any, text: str, count: int = 0) -> str:
        built = [len(text)]

        def metered(mt: Any) -> str:
            out = repl(mt) if callable(repl) else mt.expand(repl)
            # a global substitution can multiply the text: refuse before it is joined
            built[0] += len(out)
            check_size(built[0], "the substituted string")
            return out
        return run_match(self._rx.sub, metered, text, count)

    def with_flags(self, extra: int) -> RubyPattern:
        """The same pattern with more engine flags (``regsubst``'s E, I, M)."""
        return RubyPattern(_ENGINE.compile(self._rx.pattern, self._rx.flags | extra))


@lru_cache(maxsize=1024)
def compile_python_regexp(pattern: str, flags: int = 0) -> RubyPattern:
    """Compile an already translated pattern with the evaluator's engine (raises the engine's
    error, or ValueError/RecursionError/OverflowError, for what it cannot compile)."""
    return RubyPattern(_ENGINE.compile(pattern, flags | _ENGINE_FLAGS))


@lru_cache(maxsize=4096)
def ruby_regexp_to_python(source: str) -> RubyPattern | None:
    """Compile a Ruby regular expression source as closely as possible.

    Returns None when Ruby (or the engine) cannot compile the pattern; matching against it then
    fails, which is the conservative answer for instance checks.
    """
    try:
        # Ruby's ^ and $ always match at line boundaries.
        return compile_python_regexp(translate_ruby_regexp(source), _ENGINE.MULTILINE)
    except REGEXP_COMPILE_ERRORS:
        return None


@dataclass(frozen=True)
class Regexp:
    """A regular expression value; ``pattern`` is the source text between the slashes."""

    pattern: str

    def compiled(self) -> RubyPattern | None:
        return ruby_regexp_to_python(self.pattern)

    def matches(self, text: str) -> bool:
        rx = self.compiled()
        return rx is not None and rx.search(text) is not None

    def __str__(self) -> str:
        return self.pattern


# --- Sensitive, Binary, Deferred, objects ------------------------------------------------------

# How Puppet shows a Sensitive: as a string (``"${x}"``, ``notice``) and inspected (``%p``).
REDACTED = "Sensitive [value redacted]"
REDACTED_INSPECT = f"#<{REDACTED}>"


def holds(v: Any, kind: type, depth: int = 0) -> bool:
    """Is ``v`` a ``kind``, or an Array or Hash (its keys and values) holding one at any depth
    (up to 100 levels)?"""
    if isinstance(v, kind):
        return True
    if depth > 100:
        return False
    if type(v) in (list, tuple):
        return any(holds(x, kind, depth + 1) for x in v)
    if isinstance(v, dict):
        return any(holds(x, kind, depth + 1) for kv in v.items() for x in kv)
    return False


@dataclass(frozen=True, eq=False)
class Sensitive:
    """A value whose content must not be shown; identity equality, like Puppet."""

    value: Any

    def __repr__(self) -> str:
        return REDACTED


@dataclass(frozen=True)
class Binary:
    """A sequence of bytes."""

    data: bytes

    @classmethod
    def from_base64(cls, text: str, strict: bool = False) -> Binary:
        try:
            if strict:
                return cls(base64.b64decode(text, validate=True))
            # lenient: whitespace and missing padding are forgiven, other characters are not
            compact = "".join(text.split()).rstrip("=")
            return cls(base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True))
        except (binascii.Error, ValueError) as exc:
            raise ValueError("invalid base64") from exc

    def to_base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def __str__(self) -> str:
        return self.to_base64()


@dataclass(frozen=True)
class Deferred:
    """A function call to be resolved later (on the agent)."""

    name: str
    arguments: tuple = ()


@dataclass(frozen=True)
class ObjectValue:
    """An instance of an Object type: the type's name plus its attribute values (name, value)."""

    type_name: str
    attributes: tuple = ()

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.attributes:
            if k == name:
                return v
        return default


# --- URI -------------------------------------------------------------------------------------

URI_PARTS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment", "opaque")


@dataclass(frozen=True)
class URI:
    """A URI, kept as text; :meth:`parts` splits it the way Puppet's URI type does."""

    text: str

    def parts(self) -> dict:
        """The non-empty components in Puppet's order (scheme, userinfo, host, port, path, ...)."""
        try:
            s = urlsplit(self.text)
            port = s.port
        except ValueError:
            return {"path": self.text}
        out: dict = {}
        if s.scheme:
            out["scheme"] = s.scheme
        netloc = s.netloc
        if "@" in netloc:
            out["userinfo"] = netloc.rsplit("@", 1)[0]
        if s.hostname:
            out["host"] = s.hostname
        # the scheme's default port is not a part of its own (as Puppet's URI type sees it)
        if port is not None and (s.scheme, port) not in (("http", 80), ("https", 443)):
            out["port"] = str(port)
        # 'urn:a:b' has no authority and a path not starting with '/': Ruby calls all of it
        # up to the fragment (query included) the opaque part, and the URI has no path
        opaque = bool(s.scheme) and not netloc and not s.path.startswith("/") and bool(s.path)
        if s.path and not opaque:
            out["path"] = s.path
        if s.query and not opaque:
            out["query"] = s.query
        if s.fragment:
            out["fragment"] = s.fragment
        if opaque:
            out["opaque"] = s.path + ("?" + s.query if s.query else "")
        return out

    def __str__(self) -> str:
        return self.text


# --- SemVer ----------------------------------------------------------------------------------

_SEMVER_RE = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$")


class SemVerLeadingZero(ValueError):
    """A numeric prerelease identifier with a leading zero (``1.0.0-01``): semver.org forbids
    it, and Puppet reports it with this text of its own rather than "cannot be converted"."""

    def __init__(self) -> None:
        super().__init__(render("SEMVER_PRERELEASE_LEADING_ZERO"))


def _check_prerelease(pre: tuple) -> tuple:
    for p in pre:
        if len(p) > 1 and p[0] == "0" and p.isdigit():
            raise SemVerLeadingZero()
    return pre


def _pre_key(pre: tuple) -> tuple:
    # A version without prerelease sorts after any prerelease of the same triple; numeric
    # identifiers sort before alphanumeric ones, numerically among themselves.
    if not pre:
        return (1,)
    return (0,) + tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre)


@dataclass(frozen=True)
class SemVer:
    """A semantic version (semver.org 2.0); build metadata is kept but does not order."""

    major: int
    minor: int
    patch: int
    prerelease: tuple = ()
    build: tuple = ()

    @classmethod
    def parse(cls, text: str) -> SemVer:
        m = _SEMVER_RE.match(text.strip()) if isinstance(text, str) else None
        if not m:
            raise ValueError(f"The string '{text}' cannot be converted to a SemVer")
        pre = _check_prerelease(tuple(m.group(4).split("."))) if m.group(4) else ()
        build = tuple(m.group(5).split(".")) if m.group(5) else ()
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)), pre, build)

    def key(self) -> tuple:
        return (self.major, self.minor, self.patch, _pre_key(self.prerelease))

    def __lt__(self, other: SemVer) -> bool:
        return self.key() < other.key()

    def __le__(self, other: SemVer) -> bool:
        return self.key() <= other.key()

    def __gt__(self, other: SemVer) -> bool:
        return self.key() > other.key()

    def __ge__(self, other: SemVer) -> bool:
        return self.key() >= other.key()

    def stable(self) -> bool:
        return not self.prerelease

    def __str__(self) -> str:
        s = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            s += "-" + ".".join(self.prerelease)
        if self.build:
            s += "+" + ".".join(self.build)
        return s


_MIN_SEMVER = SemVer(0, 0, 0, ("0",))  # the lowest version there is (0.0.0-0)


@dataclass(frozen=True)
class _Interval:
    """One conjunction of comparators, as an interval of versions."""

    lo: SemVer | None
    lo_incl: bool
    hi: SemVer | None
    hi_incl: bool

    def contains(self, v: SemVer) -> bool:
        if self.lo is not None and (
                v.key() < self.lo.key() or (not self.lo_incl and v.key() == self.lo.key())):
            return False
        return not (self.hi is not None and (
            v.key() > self.hi.key() or (not self.hi_incl and v.key() == self.hi.key())))

    def covers(self, other: _Interval) -> bool:
        """True when every version of ``other`` is in this interval."""
        if self.lo is not None:
            if other.lo is None:
                return False
            if other.lo.key() < self.lo.key():
                return False
            if other.lo.key() == self.lo.key() and other.lo_incl and not self.lo_incl:
                return False
        if self.hi is not None:
            if other.hi is None:
                return False
            if other.hi.key() > self.hi.key():
                return False
            if other.hi.key() == self.hi.key() and other.hi_incl and not self.hi_incl:
                return False
        return True

    def prerelease_ok(self, v: SemVer) -> bool:
        # A prerelease is only in a range when an end of the range names the same triple with
        # a prerelease of its own (npm and SemanticPuppet rule).
        for end in (self.lo, self.hi):
            if end is not None and end.prerelease and (end.major, end.minor, end.patch) == (
                    v.major, v.minor, v.patch):
                return True
        return False

    def intersect(self, other: _Interval) -> _Interval:
        lo, lo_incl = self.lo, self.lo_incl
        if other.lo is not None and (lo is None or other.lo.key() > lo.key() or (
                other.lo.key() == lo.key() and not other.lo_incl)):
            lo, lo_incl = other.lo, other.lo_incl
        hi, hi_incl = self.hi, self.hi_incl
        if other.hi is not None and (hi is None or other.hi.key() < hi.key() or (
                other.hi.key() == hi.key() and not other.hi_incl)):
            hi, hi_incl = other.hi, other.hi_incl
        return _Interval(lo, lo_incl, hi, hi_incl)


def merge_intervals(intervals) -> list:
    """The union of intervals as disjoint intervals: overlapping or touching ones are joined.

    Puppet merges the ranges of ``SemVer[r1, r2]`` this way, so a type is judged by the
    versions it accepts, not by how its ranges were split up.
    """
    def lo_key(iv):
        # None (unbounded) sorts first; an inclusive end sorts before an exclusive one
        return (0,) if iv.lo is None else (1, iv.lo.key(), not iv.lo_incl)

    merged: list = []
    for iv in sorted(intervals, key=lo_key):
        if merged:
            cur = merged[-1]
            touches = cur.hi is None or iv.lo is None or iv.lo.key() < cur.hi.key() or (
                iv.lo.key() == cur.hi.key() and (iv.lo_incl or cur.hi_incl))
            if touches:
                if cur.hi is None or iv.hi is None:
                    hi, hi_incl = None, True
                elif iv.hi.key() > cur.hi.key() or (
                        iv.hi.key() == cur.hi.key() and iv.hi_incl):
                    hi, hi_incl = iv.hi, iv.hi_incl
                else:
                    hi, hi_incl = cur.hi, cur.hi_incl
                merged[-1] = _Interval(cur.lo, cur.lo_incl, hi, hi_incl)
                continue
        merged.append(iv)
    return merged


_PARTIAL_RE = re.compile(
    r"^v?(0|[1-9]\d*|[xX*])(?:\.(0|[1-9]\d*|[xX*])(?:\.(0|[1-9]\d*|[xX*])"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?)?)?$")


def _partial(text: str) -> tuple:
    m = _PARTIAL_RE.match(text)
    if not m:
        raise ValueError(f"Unparsable version range: '{text}'")
    nums = []
    for g in m.group(1, 2, 3):
        if g is None or g in "xX*":
            break
        nums.append(int(g))
    pre = tuple(m.group(4).split(".")) if m.group(4) and len(nums) == 3 else ()
    return nums, _check_prerelease(pre)


def _bump(nums: list) -> SemVer:
    """The first version past a partial version (1.2 -> 1.3.0-0 as an exclusive bound)."""
    if len(nums) == 1:
        return SemVer(nums[0] + 1, 0, 0)
    return SemVer(nums[0], nums[1] + 1, 0)


def _exact(nums: list, pre: tuple) -> SemVer:
    full = nums + [0] * (3 - len(nums))
    return SemVer(full[0], full[1], full[2], pre)


def _comparator(op: str, text: str) -> _Interval:
    nums, pre = _partial(text)
    if not nums:
        return _Interval(None, True, None, True)
    v = _exact(nums, pre)
    full = len(nums) == 3
    if op in ("", "="):
        if full:
            return _Interval(v, True, v, True)
        return _Interval(v, True, _bump(nums), False)
    if op == ">=":
        return _Interval(v, True, None, True)
    if op == ">":
        return _Interval(v, False, None, True) if full else _Interval(_bump(nums), True, None,
                                                                      True)
    if op == "<":
        return _Interval(None, True, v, False)
    if op == "<=":
        return _Interval(None, True, v, True) if full else _Interval(None, True, _bump(nums),
                                                                     False)
    if op == "~":
        if len(nums) == 1:
            return _Interval(v, True, _bump(nums), False)
        return _Interval(v, True, SemVer(nums[0], nums[1] + 1, 0), False)
    if op == "^":
        if nums[0] != 0 or len(nums) == 1:
            return _Interval(v, True, SemVer(nums[0] + 1, 0, 0), False)
        if len(nums) == 2 or nums[1] != 0:
            return _Interval(v, True, SemVer(0, nums[1] + 1, 0), False)
        return _Interval(v, True, SemVer(0, 0, nums[2] + 1), False)
    raise ValueError(f"Unparsable version range: '{op}{text}'")


def _hyphen(low: str, high: str) -> _Interval:
    """``1.2.3 - 2.3.4``: inclusive ends; a partial high end excludes the next version."""
    lo_nums, lo_pre = _partial(low)
    hi_nums, hi_pre = _partial(high)
    lo = _exact(lo_nums, lo_pre) if lo_nums else None
    if len(hi_nums) == 3:
        return _Interval(lo, True, _exact(hi_nums, hi_pre), True)
    if not hi_nums:
        return _Interval(lo, True, None, True)
    return _Interval(lo, True, _bump(hi_nums), False)


@dataclass(frozen=True)
class SemVerRange:
    """A range of versions in npm/SemanticPuppet syntax (``>=1.0.0 <2.0.0 || 3.x``)."""

    text: str
    intervals: tuple = field(default=(), compare=False, hash=False, repr=False)

    @classmethod
    def parse(cls, text: str) -> SemVerRange:
        if not isinstance(text, str):
            raise ValueError("a SemVerRange must be created from a String")  # noqa: TRY004 - callers catch ValueError
        from .semver_grammar import RangeSyntaxError, parse_range
        try:
            alternatives = parse_range(text)
        except RangeSyntaxError:
            raise ValueError(f"Unparsable version range: '{text}'") from None
        intervals = []
        for alt in alternatives:
            if alt[0] == "hyphen":
                intervals.append(_hyphen(alt[1], alt[2]))
            else:
                iv = _Interval(None, True, None, True)
                for op, partial in alt[1]:
                    iv = iv.intersect(_comparator("~" if op == "~>" else op, partial))
                intervals.append(iv)
        return cls(text.strip(), tuple(intervals))

    @classmethod
    def exact(cls, version: SemVer) -> SemVerRange:
        return cls(f"{version} - {version}", (_Interval(version, True, version, True),))

    def include(self, version: SemVer) -> bool:
        for iv in self.intervals:
            if iv.contains(version) and (version.stable() or iv.prerelease_ok(version)):
                return True
        return False

    def covers(self, other: SemVerRange) -> bool:
        """Every version in ``other`` is in this range (each interval covered by one of ours)."""
        return all(any(mine.covers(theirs) for mine in self.intervals)
                   for theirs in other.intervals)

    def __str__(self) -> str:
        return self.text


# --- Timespan / Timestamp ----------------------------------------------------------------------

def _seconds_to_ns(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("a Boolean is not a number of seconds")  # noqa: TRY004 - callers catch ValueError
    if isinstance(value, int):
        return value * NSECS_PER_SEC
    if isinstance(value, float):
        ns = value * NSECS_PER_SEC
        if math.isnan(ns) or math.isinf(ns):
            # Ruby's FloatDomainError, whose text is the value
            raise ValueError(render("FLOAT_DOMAIN_VALUE", ruby_float="NaN" if math.isnan(ns)
                                    else "Infinity" if ns > 0 else "-Infinity"))
        return round(ns)
    raise ValueError("not a number of seconds")


# Puppet's default formats for reading a Timespan or a Timestamp from a string (its error names them)
TIMESPAN_FORMATS = ("%D-%H:%M:%S.%-N", "%H:%M:%S.%-N", "%M:%S.%-N", "%S.%-N", "%D-%H:%M:%S",
                    "%H:%M:%S", "%D-%H:%M", "%S")
TIMESTAMP_FORMATS_WITHOUT_ZONE = ("%FT%T.%N", "%FT%T", "%F %T.%N", "%F %T", "%F")
TIMESTAMP_FORMATS = ("%FT%T.%N %Z", "%FT%T %Z", "%F %T.%N %Z", "%F %T %Z", "%F %Z") + TIMESTAMP_FORMATS_WITHOUT_ZONE


def _unparsable(text: str, formats: tuple) -> ValueError:
    return ValueError(render("UNABLE_PARSE_USING_ANY_FORMATS", text=text, join=", ".join(formats)))


@dataclass(frozen=True, order=True)
class Timespan:
    """A duration with nanosecond precision (``nsecs`` may be negative)."""

    nsecs: int
    # Puppet prints a Timespan made from a Float type parameter with all nine fraction digits
    # inside type text; this flag remembers that origin (it takes no part in equality).
    padded: bool = field(default=False, compare=False)

    @classmethod
    def from_seconds(cls, value: Any) -> Timespan:
        return cls(_seconds_to_ns(value))

    @classmethod
    def parse(cls, text: str) -> Timespan:
        """Parse the default formats ``D-HH:MM:SS.N``, ``HH:MM:SS``, ``D-HH:MM`` and variants."""
        m = re.match(r"^\s*(-)?(?:(\d+)-)?(\d+):(\d+)(?::(\d+)(?:\.(\d+))?)?\s*$", text)
        if not m:
            m2 = re.match(r"^\s*(-)?(\d+)(?:\.(\d+))?\s*$", text)
            if not m2:
                raise _unparsable(text, TIMESPAN_FORMATS)
            frac = (m2.group(3) or "").ljust(9, "0")[:9]
            ns = int(m2.group(2)) * NSECS_PER_SEC + int(frac or 0)
            return cls(-ns if m2.group(1) else ns)
        days = int(m.group(2) or 0)
        hours, minutes = int(m.group(3)), int(m.group(4))
        secs = int(m.group(5) or 0)
        frac = (m.group(6) or "").ljust(9, "0")[:9]
        ns = (((days * 24 + hours) * 60 + minutes) * 60 + secs) * NSECS_PER_SEC + int(frac or 0)
        return cls(-ns if m.group(1) else ns)

    def seconds(self) -> float:
        return self.nsecs / NSECS_PER_SEC

    def __str__(self) -> str:
        ns = abs(self.nsecs)
        secs, frac = divmod(ns, NSECS_PER_SEC)
        mins, s = divmod(secs, 60)
        hours, m = divmod(mins, 60)
        days, h = divmod(hours, 24)
        sign = "-" if self.nsecs < 0 else ""
        # Puppet's default format prints the nanoseconds unpadded, trailing zeros dropped
        # (so 0.001 s reads ".1"); kept as is for fidelity.
        fraction = str(frac).rstrip("0") or "0"
        return f"{sign}{days}-{h:02d}:{m:02d}:{s:02d}.{fraction}"

    def type_text(self) -> str:
        """The text inside a Timespan type: like str(), but all digits after a Float origin."""
        text = str(self)
        if not self.padded:
            return text
        head = text.rsplit(".", 1)[0]
        return f"{head}.{self.nsecs and abs(self.nsecs) % NSECS_PER_SEC}"


# Time zone abbreviations Puppet's Timestamp parser accepts, as offsets in minutes. A fixed
# table keeps this module free of tz database IO.
_ZONES = {"UTC": 0, "GMT": 0, "Z": 0, "UT": 0, "CET": 60, "CEST": 120, "EET": 120, "EEST": 180,
          "WET": 0, "WEST": 60, "EST": -300, "EDT": -240, "CST": -360, "CDT": -300,
          "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "JST": 540, "IST": 330}

_TS_RE = re.compile(
    r"^\s*(-?\d{4,})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?"
    r"\s*(Z|[A-Za-z]{1,5}|[+-]\d{2}:?\d{2})?\s*$")


def _days_from_civil(y: int, m: int, d: int) -> int:
    # Proleptic Gregorian calendar to days since 1970-01-01 (Howard Hinnant's algorithm).
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _civil_from_days(z: int) -> tuple:
    z += 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return (y + (m <= 2), m, d)


@dataclass(frozen=True, order=True)
class Timestamp:
    """A point in time with nanosecond precision, as nanoseconds since 1970-01-01 UTC."""

    nsecs: int

    @classmethod
    def from_seconds(cls, value: Any) -> Timestamp:
        return cls(_seconds_to_ns(value))

    @classmethod
    def parse(cls, text: str) -> Timestamp:
        m = _TS_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise _unparsable(text, TIMESTAMP_FORMATS)
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if not (1 <= mo <= 12 and 1 <= d <= 31):
            raise _unparsable(text, TIMESTAMP_FORMATS)
        hh, mm, ss = int(m.group(4) or 0), int(m.group(5) or 0), int(m.group(6) or 0)
        frac = int((m.group(7) or "").ljust(9, "0")[:9] or 0)
        zone = m.group(8) or "UTC"
        if zone[0] in "+-":
            digits = zone[1:].replace(":", "")
            offset = int(digits[:2]) * 60 + int(digits[2:])
            offset = -offset if zone[0] == "-" else offset
        elif zone.upper() in _ZONES:
            offset = _ZONES[zone.upper()]
        else:
            raise _unparsable(text, TIMESTAMP_FORMATS)
        secs = _days_from_civil(y, mo, d) * 86400 + hh * 3600 + mm * 60 + ss - offset * 60
        return cls(secs * NSECS_PER_SEC + frac)

    def seconds(self) -> float:
        return self.nsecs / NSECS_PER_SEC

    def __str__(self) -> str:
        secs, frac = divmod(self.nsecs, NSECS_PER_SEC)
        days, rem = divmod(secs, 86400)
        y, mo, d = _civil_from_days(days)
        h, rem = divmod(rem, 3600)
        mi, s = divmod(rem, 60)
        return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{frac:09d} UTC"


# --- equality and comparison of values (Puppet's == and <) ---------------------------------------

def _time_seconds(v: Any) -> Any:
    return v.nsecs / NSECS_PER_SEC if isinstance(v, (Timespan, Timestamp)) else v


def puppet_equal(a: Any, b: Any) -> bool:
    """Puppet's ``==`` on values: strings compare case-insensitively, numbers by value,
    Timespans/Timestamps against numbers by seconds, collections element-wise.
    """
    if type(a) in (list, tuple, dict):
        measure(a)
        measure(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    if isinstance(a, (Timespan, Timestamp)) or isinstance(b, (Timespan, Timestamp)):
        if type(a) is type(b):
            return a == b
        if isinstance(a, (int, float, Timespan, Timestamp)) and isinstance(
                b, (int, float, Timespan, Timestamp)):
            return _time_seconds(a) == _time_seconds(b)
        return False
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(puppet_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a) == len(b) and all(
            any(puppet_equal(k, k2) and puppet_equal(v, b[k2]) for k2 in b) for k, v in a.items())
    return type(a) is type(b) and a == b


def puppet_compare(a: Any, b: Any) -> int:
    """Puppet's ordering of two comparable values (-1, 0, 1); ValueError when not comparable."""
    x: Any
    y: Any
    if isinstance(a, bool) or isinstance(b, bool):
        raise ValueError("Booleans are not comparable")  # noqa: TRY004 - callers catch ValueError
    if isinstance(a, str) and isinstance(b, str):
        x, y = a.casefold(), b.casefold()
    elif isinstance(a, (int, float, Timespan, Timestamp)) and isinstance(
            b, (int, float, Timespan, Timestamp)):
        if isinstance(a, Timespan) and isinstance(b, Timestamp) or (
                isinstance(a, Timestamp) and isinstance(b, Timespan)):
            raise ValueError("a Timespan and a Timestamp are not comparable")  # noqa: TRY004 - callers catch ValueError
        x, y = _time_seconds(a), _time_seconds(b)
    elif isinstance(a, SemVer) and isinstance(b, SemVer):
        x, y = a.key(), b.key()
    else:
        raise ValueError(f"{type(a).__name__} and {type(b).__name__} are not comparable")  # noqa: TRY004 - callers catch ValueError
    return (x > y) - (x < y)
